#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Fetch the source of Debian's installed iproute2 into build/iproute2/ and
# unpack it with Debian's patches applied (dpkg-source -x).  The machine
# has no deb-src line; a private APT configuration under build/apt reuses
# the system's own archive entries with deb-src added, with its own lists
# and cache, so the system's APT configuration is never touched.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
apt=$top/build/apt
dest=$top/build/iproute2
ver=$(dpkg-query -W -f='${Version}' iproute2)
srcdir=$dest/iproute2-${ver%%-*}
[ -e "$dest/.unpacked-$ver" ] && { echo "$srcdir"; exit 0; }

mkdir -p "$apt/sources.list.d" "$apt/state/lists/partial" \
	"$apt/cache/archives/partial" "$dest"
for f in /etc/apt/sources.list.d/*.sources; do
	[ -e "$f" ] || continue
	sed 's/^Types:.*/Types: deb deb-src/' "$f" >"$apt/sources.list.d/$(basename "$f")"
done
if [ -s /etc/apt/sources.list ]; then
	grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >"$apt/sources.list"
else
	: >"$apt/sources.list"
fi
cat >"$apt/apt.conf" <<CONF
Dir::Etc::SourceList "$apt/sources.list";
Dir::Etc::SourceParts "$apt/sources.list.d";
Dir::State "$apt/state";
Dir::State::status "/var/lib/dpkg/status";
Dir::Cache "$apt/cache";
APT::Sandbox::User "root";
CONF
export APT_CONFIG=$apt/apt.conf
apt-get -q update >&2
rm -rf "$dest"/*
(cd "$dest" && apt-get -q source --download-only "iproute2=$ver" >&2)
(cd "$dest" && dpkg-source -x --no-check ./*.dsc "$srcdir" >&2)
touch "$dest/.unpacked-$ver"
echo "$srcdir"
