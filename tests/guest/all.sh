# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The in-guest suite: every tests/guest/codel-*.sh file, one boot.
# Run it with: qemu/run tests/guest/all.sh [VAR=VALUE...] [TEST...]
# (naming tests runs only those; VAR=VALUE sets e.g. FUZZ_OPS, FUZZ_SEED,
# LIFECYCLE_CYCLES for the tests that read them).

. /payload/tests/lib.sh
ALL_TESTS=
for f in /payload/tests/codel-*.sh; do
	. "$f"
done
only=
for arg in "$@"; do
	case $arg in
	*=*) export "${arg?}" ;;
	*) only="$only $arg" ;;
	esac
done
[ -z "$only" ] || ALL_TESTS=$only
# Last, after everything else has run: no leak reported (debug kernels).
[ -n "$only" ] || ALL_TESTS="$ALL_TESTS kmemleak_clean"
kmemleak_baseline
run_tests
