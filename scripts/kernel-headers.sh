#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/kernel-headers.sh KERNELRELEASE: print a kernel build tree for
# KERNELRELEASE (what KDIR must name).  The installed headers
# (/lib/modules/REL/build) when present; otherwise Debian's three header
# packages (linux-headers-REL, its -common and its linux-kbuild) are
# fetched through the private APT configuration and unpacked, never
# installed, under build/headers/REL.  Installing them would not do: from
# 6.12 on, linux-headers-REL depends on the kernel image itself.
set -eu
rel=$1
top=$(cd "$(dirname "$0")/.." && pwd)
inst=/lib/modules/$rel/build
if [ -e "$inst/Makefile" ]; then
	echo "$inst"
	exit 0
fi
# The debug kernel built here (scripts/debug-kernel.sh): its own tree.
if [ "$(cat "$top/build/linux-debug/release" 2>/dev/null)" = "$rel" ]; then
	echo "$top/build/linux-debug/src"
	exit 0
fi
root=$top/build/headers/$rel
kdir=$root/usr/src/linux-headers-$rel
if [ -e "$root/.done" ]; then
	echo "$kdir"
	exit 0
fi

APT_CONFIG=$("$top/scripts/apt.sh" "$("$top/scripts/kernel-release.sh" --debian "$rel")")
export APT_CONFIG
cache=$top/build/cache
mkdir -p "$cache"
# The -common and linux-kbuild packages this one depends on.
deps=$(apt-cache show "linux-headers-$rel" | sed -n '0,/^Depends:/s/^Depends: //p' |
	tr ',' '\n' | sed -n 's/^ *\(linux-\(headers-[^ ]*-common[^ ]*\|kbuild-[^ ]*\)\).*/\1/p')
[ -n "$deps" ] || { echo "kernel-headers: no linux-headers-$rel in Debian's archive" >&2; exit 1; }
rm -rf "$root"
mkdir -p "$root"
for p in "linux-headers-$rel" $deps; do
	deb=$(ls "$cache/${p}_"*.deb 2>/dev/null | tail -n 1 || true)
	if [ -z "$deb" ]; then
		(cd "$cache" && apt-get -q download "$p" >&2)
		deb=$(ls "$cache/${p}_"*.deb | tail -n 1)
	fi
	dpkg-deb -x "$deb" "$root"
	# Read once; CI's disk is small.
	rm -f "$deb"
done
# The packages name each other by absolute /usr/src paths (the top
# Makefile's include, and from 7.3 its KBUILD_OUTPUT); the scripts/tools
# links are relative and work as they are.
sed -i "s#^\(include \|KBUILD_OUTPUT=\)/usr/src/#\1$root/usr/src/#" "$kdir/Makefile"
touch "$root/.done"
echo "$kdir"
