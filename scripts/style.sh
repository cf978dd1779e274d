#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Style gate for the module sources: checkpatch --strict (from Debian's
# linux-source-6.1), then a W=1 build under sparse (C=2).  Any warning fails.
# Usage: scripts/style.sh KDIR
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
kdir=$1
files="sch_codel.c codel.h codel_trace.h pkt_sched_codel.h"
"$top/scripts/linux-source.sh"

# --no-tree, but seed checkpatch's list of known kernel identifiers (struct
# Qdisc and friends) from the headers we build against: GIT_DIR points
# away so that it reads $root/include instead of asking our own git.
# It leaves a cache file in its working directory: run it in build/.
common=$(readlink -f "$kdir")
common=${common%-amd64}-common
[ -d "$common/include" ] || common=$(readlink -f "$kdir")
cd "$top/build"
rc=0
for f in $files; do
	out=$(GIT_DIR=/nonexistent perl linux-src/scripts/checkpatch.pl --strict \
		--no-tree --root="$common" --terse -f "../$f") || rc=1
	[ -z "$out" ] || echo "$out"
done

# Sparse and W=1 on a scratch copy, so the real build's objects stay.
scratch=$top/build/style
rm -rf "$scratch"
mkdir -p "$scratch"
for f in Kbuild dkms.conf $files; do ln -s "$top/$f" "$scratch/$f"; done
log=$scratch/build.log
make -s -C "$kdir" M="$scratch" W=1 C=2 modules >"$log" 2>&1 || rc=1
grep -v "^Skipping BTF generation" "$log" || true
if grep -qi "warning\|error" "$log"; then
	echo "style: compiler or sparse warnings above" >&2
	rc=1
fi
[ $rc = 0 ] && echo "style: checkpatch --strict, sparse and W=1 clean"
exit $rc
