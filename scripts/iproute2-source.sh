#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Fetch the source of Debian's installed iproute2 into build/iproute2/ and
# unpack it with Debian's patches applied (dpkg-source -x).  The machine
# has no deb-src line: the private APT configuration (scripts/apt.sh) adds
# it without touching the system's.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dest=$top/build/iproute2
ver=$(dpkg-query -W -f='${Version}' iproute2)
srcdir=$dest/iproute2-${ver%%-*}
[ -e "$dest/.unpacked-$ver" ] && { echo "$srcdir"; exit 0; }

mkdir -p "$dest"
APT_CONFIG=$("$top/scripts/apt.sh")
export APT_CONFIG
rm -rf "$dest"/*
(cd "$dest" && apt-get -q source --download-only "iproute2=$ver" >&2)
(cd "$dest" && dpkg-source -x --no-check ./*.dsc "$srcdir" >&2)
touch "$dest/.unpacked-$ver"
echo "$srcdir"
