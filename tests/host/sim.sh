#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Simulator cross-check: replay each tests/sim/*.trace through build/codel-sim
# (the same codel.h as the module) and compare with the .expected outcome,
# derived by hand from RFC 8289's pseudocode (the derivation is in each
# trace's comments).  Then malformed input: exit status 2 and a message
# naming the line.  Run from the top of the tree: tests/host/sim.sh

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
SIM=$top/build/codel-sim
out=$(mktemp)

cleanup_all() { :; }

replay_traces() {
	for t in tests/sim/*.trace; do
		n=${t%.trace}
		# shellcheck disable=SC2046
		"$SIM" $(sed -n 's/^# options: //p' "$t") <"$t" >"$out" 2>&1
		check_err $? "codel-sim failed on $t"
		diff -u "$n.expected" "$out" >"$out.diff"
		check_err $? "$(basename "$n"): outcome differs from the hand derivation:
$(sed 's/^/#   /' "$out.diff")"
		log_test "sim: $(basename "$n") matches RFC 8289 by hand"
	done
}

# bad_input NAME INPUT MESSAGE [OPTIONS...]
bad_input() {
	name=$1 input=$2 want=$3
	shift 3
	printf '%b' "$input" | "$SIM" "$@" >/dev/null 2>"$out"
	check_eq "$?" 2 "exit status for $name"
	check_eq "$(cat "$out")" "$want" "message for $name"
	log_test "sim: rejects $name"
}

malformed_input() {
	bad_input "time going backwards" '5 deq\n4 deq\n' "codel-sim: line 2: time goes backwards"
	bad_input "a zero length" '# c\n0 enq 0\n' "codel-sim: line 2: enq needs a length from 1 to 1048576"
	bad_input "an unknown ECN name" '0 enq 100 ect2\n' "codel-sim: line 1: ECN must be notect, ect0, ect1 or ce"
	bad_input "an unknown event" '0 drop\n' "codel-sim: line 1: expected 'T enq LEN [ECN]' or 'T deq'"
	bad_input "a negative time" '-1 deq\n' "codel-sim: line 1: time must be a non-negative integer (ns)"
	bad_input "an interval of 1us" '' "codel-sim: --interval: expected an integer from 2 to 100000000, got '1'" --interval 1
	bad_input "a limit of 0" '' "codel-sim: --limit: expected an integer from 1 to 4294967295, got '0'" --limit 0
}

ALL_TESTS="replay_traces malformed_input"
run_tests
rc=$?
rm -f "$out" "$out.diff"
exit $rc
