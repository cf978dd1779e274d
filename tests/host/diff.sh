#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Differential test against each kernel's own CoDel: tests/diff compiles
# that kernel's include/net/codel_impl.h (from its exact Debian source,
# build/linux-src/REL) in userspace beside our codel.h and runs both on
# the same random traces and on scripted ones.  The later mainline changes
# codel.h carries on every kernel are applied to an older kernel's copy
# first (tests/diff/deltas.sh, named in the TAP line); for each, a
# reference without it must differ on its scripted trace.
# Usage: tests/host/diff.sh KERNELRELEASE...
# DIFF_SEED, DIFF_TRACES and DIFF_EVENTS change the run; a failing trace
# replays alone with: build/diff/REL/codel-diff -s SEED -t 1 -v

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
CFLAGS="-O2 -g -std=gnu11 -Wall -Wextra -Werror"

cleanup_all() { :; }

# build REL DIR [SKIP]: DIR/codel-diff over that kernel's codel_impl.h
# with every delta it lacks but SKIP; DIR/deltas names those applied.
build() {
	local rel=$1 dir=$2 src
	src=$(scripts/linux-source.sh "$rel") || return 1
	mkdir -p "$dir"
	tests/diff/deltas.sh "$src" "$dir" "${3:-}" >"$dir/deltas" || return 1
	# The kernel's code is compiled as it is: its unused parameters are
	# not ours to fix.
	cc $CFLAGS -Wno-unused-parameter -Wno-unused-function \
		-I tests/diff/kshim -I "$dir/include" -I tests/diff \
		-c tests/diff/ref.c -o "$dir/ref.o" &&
	cc $CFLAGS -I user/shim -I . -I user -I tests/diff \
		-c tests/diff/ours.c -o "$dir/ours.o" &&
	cc $CFLAGS -I tests/diff -o "$dir/codel-diff" tests/diff/codel-diff.c \
		"$dir/ref.o" "$dir/ours.o"
}

# Per kernel: equal on random and scripted traces with the deltas; then,
# per delta, its script differs without it.
diff_each_kernel() {
	local rel dir out rc deltas d
	for rel in $KERNELS; do
		dir=build/diff/$rel
		out=$dir/out.txt
		build "$rel" "$dir"
		check_err $? "could not build the differential test for $rel"
		deltas=$(tr '\n' ' ' <"$dir/deltas" 2>/dev/null)
		if [ "$RET" = 0 ]; then
			"$dir/codel-diff" -s "${DIFF_SEED:-1}" \
				-t "${DIFF_TRACES:-128}" -e "${DIFF_EVENTS:-10000}" >"$out" 2>&1
			rc=$?
			sed 's/^/# /' "$out"
			check_err $rc "codel.h differs from $rel codel_impl.h (replay: $dir/codel-diff -s SEED -t 1 -v)"
		fi
		log_test "diff: codel.h equals $rel include/net/codel_impl.h${deltas:+ + deltas ${deltas% }} on random and scripted traces"
		for d in $deltas; do
			build "$rel" "$dir/without-$d" "$d"
			check_err $? "could not build $rel without $d"
			if [ "$RET" = 0 ]; then
				"$dir/without-$d/codel-diff" -x "$d" >"$dir/without-$d/out.txt" 2>&1
				rc=$?
				sed 's/^/# /' "$dir/without-$d/out.txt"
				check_eq "$rc" 1 "$rel without $d: its scripted trace should differ"
			fi
			log_test "diff: delta $d is the difference on $rel: its scripted trace differs without it"
		done
	done
}

KERNELS=$*
ALL_TESTS=diff_each_kernel
run_tests
