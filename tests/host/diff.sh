#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Differential test against each kernel's own CoDel: tests/diff compiles
# that kernel's include/net/codel_impl.h (from its exact Debian source,
# build/linux-src/REL) in userspace beside our codel.h and runs both on
# the same random traces.  Usage: tests/host/diff.sh KERNELRELEASE...
# DIFF_SEED, DIFF_TRACES and DIFF_EVENTS change the run; a failing trace
# replays alone with: build/diff/REL/codel-diff -s SEED -t 1 -v

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
CFLAGS="-O2 -g -std=gnu11 -Wall -Wextra -Werror"

cleanup_all() { :; }

# build REL: build/diff/REL/codel-diff over that kernel's codel_impl.h.
build() {
	rel=$1 dir=build/diff/$1
	src=$(scripts/linux-source.sh "$rel") || return 1
	mkdir -p "$dir"
	# The kernel's code is compiled as it is: its unused parameters are
	# not ours to fix.
	cc $CFLAGS -Wno-unused-parameter -Wno-unused-function \
		-I tests/diff/kshim -I "$src/include" -I tests/diff \
		-c tests/diff/ref.c -o "$dir/ref.o" &&
	cc $CFLAGS -I user/shim -I . -I user -I tests/diff \
		-c tests/diff/ours.c -o "$dir/ours.o" &&
	cc $CFLAGS -I tests/diff -o "$dir/codel-diff" tests/diff/codel-diff.c \
		"$dir/ref.o" "$dir/ours.o"
}

# One TAP line per kernel given.
diff_each_kernel() {
	for rel in $KERNELS; do
		out=build/diff/$rel/out.txt
		build "$rel"
		check_err $? "could not build the differential test for $rel"
		if [ "$RET" = 0 ]; then
			build/diff/"$rel"/codel-diff -s "${DIFF_SEED:-1}" \
				-t "${DIFF_TRACES:-128}" -e "${DIFF_EVENTS:-10000}" >"$out" 2>&1
			rc=$?
			sed 's/^/# /' "$out"
			check_err $rc "codel.h differs from $rel codel_impl.h (replay: build/diff/$rel/codel-diff -s SEED -t 1 -v)"
		fi
		log_test "diff: codel.h equals $rel include/net/codel_impl.h on random traces"
	done
}

KERNELS=$*
ALL_TESTS=diff_each_kernel
run_tests
