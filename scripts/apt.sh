#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The project's private APT configuration, under build/apt: the archive
# entries of the system's own sources, with deb-src added, plus
# bookworm-backports (the 6.12 kernel series), each with its own lists and
# cache.  The system's APT configuration is never touched.  Prints the
# path to give APT_CONFIG; refreshes the lists once (and again with
# --update).
#
#   APT_CONFIG=$(scripts/apt.sh) apt-get download PACKAGE
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
apt=$top/build/apt
conf=$apt/apt.conf

# The stamp names this layout (with backports): a build/apt written by an
# older tree, without it, is rewritten.
if [ ! -e "$apt/.configured-v2" ]; then
	rm -rf "$apt/sources.list.d" "$apt/state/lists"
	mkdir -p "$apt/sources.list.d" "$apt/state/lists/partial" \
		"$apt/cache/archives/partial"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		sed 's/^Types:.*/Types: deb deb-src/' "$f" >"$apt/sources.list.d/$(basename "$f")"
	done
	if [ -s /etc/apt/sources.list ]; then
		grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >"$apt/sources.list"
	else
		: >"$apt/sources.list"
	fi
	# Backports lives in the main archive under its own suite: reuse the
	# URI and keyring of the entry that serves "bookworm".
	uri=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -v security | head -n 1)
	uri=${uri:-http://deb.debian.org/debian}
	cat >"$apt/sources.list.d/backports.sources" <<EOF
Types: deb deb-src
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	cat >"$conf" <<CONF
Dir::Etc::SourceList "$apt/sources.list";
Dir::Etc::SourceParts "$apt/sources.list.d";
Dir::State "$apt/state";
Dir::State::status "/var/lib/dpkg/status";
Dir::Cache "$apt/cache";
APT::Sandbox::User "root";
CONF
	rm -f "$apt/.updated"
	touch "$apt/.configured-v2"
fi
if [ ! -e "$apt/.updated" ] || [ "${1:-}" = --update ]; then
	APT_CONFIG=$conf apt-get -q update >&2
	touch "$apt/.updated"
fi
echo "$conf"
