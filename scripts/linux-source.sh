#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/linux-source.sh [KERNELRELEASE]: print build/linux-src/REL, a
# directory holding the few paths the project reads from that kernel's
# exact Debian source (linux-source-SERIES at the version of
# linux-image-REL): scripts/ (checkpatch, the sparse check), tc-testing,
# and the in-tree CoDel and fq_codel sources the differential tests
# compile.  Fetched through the private APT
# configuration, extracted once; nothing of it is committed.
# Without an argument, the default kernel (scripts/kernel-release.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rel=${1:-$("$top/scripts/kernel-release.sh")}
# A kernel built here from a Debian source (scripts/debug-kernel.sh) reads
# that source.
[ ! -e "$top/build/kernel/$rel/source-release" ] || rel=$(cat "$top/build/kernel/$rel/source-release")
dest=$top/build/linux-src/$rel
stamp=$dest/.extracted-v3
PATHS="scripts
	tools/testing/selftests/tc-testing
	include/net/codel.h include/net/codel_impl.h include/net/codel_qdisc.h
	net/sched/sch_codel.c net/sched/sch_fq_codel.c"

if [ -e "$stamp" ]; then
	echo "$dest"
	exit 0
fi
APT_CONFIG=$("$top/scripts/apt.sh" "$("$top/scripts/kernel-release.sh" --debian "$rel")")
export APT_CONFIG
# The image's package version names the source; 6.1.192-3 -> series 6.1.
ver=$(apt-cache show "linux-image-$rel" "linux-image-$rel-unsigned" 2>/dev/null |
	sed -n 's/^Version: //p' | head -n 1)
[ -n "$ver" ] || { echo "linux-source: no linux-image-$rel in Debian's archive" >&2; exit 1; }
series=$(echo "$ver" | cut -d. -f1,2)
cache=$top/build/cache
mkdir -p "$cache"
deb=$cache/linux-source-${series}_${ver}_all.deb
if [ ! -e "$deb" ]; then
	(cd "$cache" && apt-get -q download "linux-source-$series=$ver" >&2)
fi
rm -rf "$dest"
mkdir -p "$dest"
members=
for p in $PATHS; do members="$members linux-source-$series/$p"; done
# shellcheck disable=SC2086
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/linux-source-$series.tar.xz" |
	tar -xJ -C "$dest" --strip-components=1 $members
# The package is 140-170 MB and read once: CI's disk is small.
rm -f "$deb"
echo "linux-source-$series $ver" >"$stamp"
echo "$dest"
