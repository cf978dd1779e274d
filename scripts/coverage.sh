#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/coverage.sh REL OUTPUT_LOG: the module's line, branch and
# function coverage from a guest run on kernel REL built with
# CONFIG_GCOV_KERNEL (the debug kernel): the counters the guest printed
# at the end of OUTPUT_LOG (tests/guest/lib.sh's gcov_export) next to the
# .gcno notes of the module built for REL (build/module/REL), read by
# gcov.  Prints a summary per source of ours and every line never run;
# the annotated sources stay in build/coverage/REL.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rel=$1 log=$2
mod=$top/build/module/$rel
out=$top/build/coverage/$rel
[ -e "$mod/sch_codel.gcno" ] ||
	{ echo "coverage: no $mod/sch_codel.gcno: build the module for $rel on a GCOV kernel" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
# Each "# gcov-data PATH" block becomes OUT/BASENAME.gcda.
awk -v out="$out" '
	/^# gcov-data / { n = split($3, p, "/"); f = out "/" p[n] ".b64"; next }
	/^# gcov-end/ { close(f); f = ""; next }
	f != "" && /^# gcov: / { print substr($0, 9) > f }
' "$log"
set -- "$out"/*.gcda.b64
[ -e "$1" ] || { echo "coverage: no gcov data in $log" >&2; exit 1; }
for b in "$@"; do
	base64 -d <"$b" >"${b%.b64}"
	rm "$b"
	o=$(basename "${b%.gcda.b64}")
	cp "$mod/$o.gcno" "$out/"
done
cd "$out"
for o in *.gcda; do
	o=${o%.gcda}
	gcov -b -c -f -o . "$mod/$o.c" >"$o.summary" 2>&1
done
# Our sources only (not the kernel headers inlined into them).
ours=$(cd "$top" && ls sch_*.c codel.h codel_nl.h codel_trace.h compat.h 2>/dev/null)
for f in $ours; do
	[ -e "$f.gcov" ] || continue
	awk -v f="$f" '
		/^File / { cur = $2; gsub("\047", "", cur); n = split(cur, p, "/"); cur = p[n] }
		cur == f && /^(Lines|Branches|Taken|Calls) / { print f ": " $0 }
	' ./*.summary | sort -u
	awk -F: -v f="$f" '
		/^function .* called 0 / { print "  function never called: " f ": " $0; next }
		$1 ~ /#####|=====/ { print "  not run: " f ":" ($2 + 0) ":" $3 }
	' "$f.gcov"
done
