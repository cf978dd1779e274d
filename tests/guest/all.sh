# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The in-guest suite: every tests/guest/codel-*.sh file, one boot.
# Run it with: qemu/run tests/guest/all.sh [TEST...]
# (naming tests runs only those).

. /payload/tests/lib.sh
ALL_TESTS=
for f in /payload/tests/codel-*.sh; do
	. "$f"
done
[ $# -eq 0 ] || ALL_TESTS="$*"
run_tests
