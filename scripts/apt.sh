#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/apt.sh [--update] [RELEASE]: the project's private APT
# configuration for a Debian release (default: bookworm, the host's),
# under build/apt/RELEASE: deb and deb-src entries for RELEASE,
# RELEASE-updates, RELEASE-backports and RELEASE-security from the
# archives the host's APT sources name, with their own lists and cache.
# sid (unstable) has none of those suites: its entries name sid alone.
# The system's APT configuration is never touched.  Prints the path to
# give APT_CONFIG; refreshes the lists once (and again with --update).
# The dpkg status is the host's for bookworm (make deps installs through
# it), an empty one of its own for any other release (downloads only).
#
#   APT_CONFIG=$(scripts/apt.sh trixie) apt-get download PACKAGE
set -eu
update=
[ "${1:-}" != --update ] || { update=1; shift; }
rel=${1:-bookworm}
top=$(cd "$(dirname "$0")/.." && pwd)
apt=$top/build/apt/$rel
conf=$apt/apt.conf

# Made anew if missing, or made for a tree at another path (moved or
# copied: its paths name the old place).
if [ ! -e "$apt/.configured-v4" ] || ! grep -qF "\"$apt/" "$conf"; then
	rm -rf "$apt"
	mkdir -p "$apt/sources.list.d" "$apt/state/lists/partial" \
		"$apt/cache/archives/partial"
	archive=$("$top/scripts/archive-uri.sh")
	security=$("$top/scripts/archive-uri.sh" debian-security)
	suites="$rel $rel-updates $rel-backports"
	[ "$rel" != sid ] || suites=sid
	cat >"$apt/sources.list.d/debian.sources" <<EOS
Types: deb deb-src
URIs: $archive
Suites: $suites
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	[ "$rel" = sid ] || cat >>"$apt/sources.list.d/debian.sources" <<EOS

Types: deb deb-src
URIs: $security
Suites: $rel-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	: >"$apt/sources.list"
	status=/var/lib/dpkg/status
	. /etc/os-release
	if [ "$rel" != "$VERSION_CODENAME" ]; then
		status=$apt/state/status
		: >"$status"
	fi
	cat >"$conf" <<CONF
Dir::Etc::SourceList "$apt/sources.list";
Dir::Etc::SourceParts "$apt/sources.list.d";
Dir::State "$apt/state";
Dir::State::status "$status";
Dir::Cache "$apt/cache";
APT::Sandbox::User "root";
CONF
	# The archive serves sid as a snapshot whose Release has passed its
	# Valid-Until (29 days on 2026-12-05); signatures are still checked.
	# Only sid's configuration says so (scripts/sparse-sid.sh's one
	# package); the stable releases' Release files carry no Valid-Until.
	[ "$rel" != sid ] || echo 'Acquire::Check-Valid-Until "false";' >>"$conf"
	touch "$apt/.configured-v4"
fi
if [ ! -e "$apt/.updated" ] || [ -n "$update" ]; then
	APT_CONFIG=$conf apt-get -qq update >&2
	touch "$apt/.updated"
fi
echo "$conf"
