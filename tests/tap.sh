# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# TAP helpers shared by the host and guest shell tests, after the kernel's
# selftests/net/forwarding/lib.sh: a test function starts with RET=0,
# records its first failure with check_err/check_fail/check_eq/check_cmp,
# and ends with log_test NAME (one TAP line).  run_tests runs every function
# named in ALL_TESTS, calling cleanup_all after each, and prints
# "N passed, N failed, N skipped".  POSIX sh (busybox ash in the guest).

TESTS_RUN=0
TESTS_PASSED=0
TESTS_FAILED=0
TESTS_SKIPPED=0
RET=0
RET_MSG=

diag() { echo "# $*"; }

check_err() {
	if [ "$RET" -eq 0 ] && [ "$1" -ne 0 ]; then
		RET=1
		RET_MSG=$2
		diag "FAIL: $2"
	fi
}

check_fail() {
	if [ "$RET" -eq 0 ] && [ "$1" -eq 0 ]; then
		RET=1
		RET_MSG=$2
		diag "FAIL: $2"
	fi
}

# check_eq ACTUAL EXPECTED WHAT
check_eq() {
	if [ "$1" != "$2" ]; then
		check_err 1 "$3"
		diag "  expected: '$2'"
		diag "  actual:   '$1'"
	fi
}

# check_cmp A OP B WHAT: numeric comparison, OP one of test's -lt -le ...
check_cmp() {
	if ! [ "$1" "$2" "$3" ] 2>/dev/null; then
		check_err 1 "$4 ($1 $2 $3 is false)"
	fi
}

log_test() {
	TESTS_RUN=$((TESTS_RUN + 1))
	if [ "$RET" -ne 0 ]; then
		TESTS_FAILED=$((TESTS_FAILED + 1))
		echo "not ok $TESTS_RUN $1 # $RET_MSG"
	else
		TESTS_PASSED=$((TESTS_PASSED + 1))
		echo "ok $TESTS_RUN $1"
	fi
	RET=0
	RET_MSG=
}

# log_skip NAME REASON: a test that cannot run here, said so.
log_skip() {
	TESTS_RUN=$((TESTS_RUN + 1))
	TESTS_SKIPPED=$((TESTS_SKIPPED + 1))
	echo "ok $TESTS_RUN $1 # SKIP $2"
	RET=0
	RET_MSG=
}

# require_cmd NAME TEST: 1 (and a skip line) when a tool is missing.
require_cmd() {
	command -v "$1" >/dev/null 2>&1 && return 0
	log_skip "$2" "$1 not available in the guest"
	return 1
}

# Seconds since boot, in tenths (0 where /proc/uptime is missing).
uptime_ds() {
	awk '{ printf "%d\n", $1 * 10 }' /proc/uptime 2>/dev/null || echo 0
}

run_tests() {
	echo "KTAP version 1"
	# A name no test uses: POSIX sh has no locals, and tests set t=.
	for run_tests_test in $ALL_TESTS; do
		# STOP_AT_FAIL: a run that only asks whether anything fails
		# (make mutate FULL=1) ends at the first failure.
		if [ -n "${STOP_AT_FAIL:-}" ] && [ "$TESTS_FAILED" -gt 0 ]; then
			diag "stopped at the first failure (STOP_AT_FAIL)"
			break
		fi
		run_tests_t0=$(uptime_ds)
		$run_tests_test
		run_tests_t0=$(($(uptime_ds) - run_tests_t0))
		diag "$run_tests_test took $((run_tests_t0 / 10)).$((run_tests_t0 % 10)) s"
		cleanup_all
		# A suite may check that each test left the system as it found
		# it (check_isolation, defined by the guest lib): a failure is
		# a TAP line of its own, naming the test.
		if command -v check_isolation >/dev/null 2>&1; then
			check_isolation "$run_tests_test"
		fi
	done
	echo "1..$TESTS_RUN"
	echo "$TESTS_PASSED passed, $TESTS_FAILED failed, $TESTS_SKIPPED skipped"
	[ "$TESTS_FAILED" -eq 0 ]
}

