# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The in-guest suite: every tests/guest/codel-*.sh file, one boot.
# Run it with: qemu/run tests/guest/all.sh [VAR=VALUE...] [TEST...]
# (naming tests runs only those; VAR=VALUE sets e.g. FUZZ_OPS, FUZZ_SEED,
# LIFECYCLE_CYCLES for the tests that read them, FIRST, STOP_AT_FAIL,
# TIMING and PART).

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
# The tests of qemu/run --mq's NICs (eth2, eth3: their tx timers would
# slow every other test) run in that boot, the rest in the main one;
# named tests of the other boot's kind are left to it (scripts/check.sh
# passes a subset kernel's whole list to both).
MQ_TESTS="mq_default_qdisc_codel_per_queue mqprio_default_qdisc_codel_per_queue
	mq_default_qdisc_fq_codel_ext_per_queue
	deploy_multiqueue_recipe_runs_verbatim accounting_root"
[ -e /sys/class/net/eth2 ] && mq_boot=1 || mq_boot=
# The timing-sensitive tests: each judges a delay or first proves that
# bulk TCP filled a bottleneck, or (the fuzzers under parents) that its
# frames outran a 1 Mbit/s parent into a standing queue, which holds only
# while the guest has both host cores to itself (docs/tests.md).
# TIMING=only picks just them,
# TIMING=skip all the others (make check-ci boots the first alone and the
# second beside other jobs); unset, both.
TIMING_TESTS="htb_bulk_tcp_controls_delay ecn_traffic_marked_not_dropped
	ce_threshold_marks_traffic histogram_counts_every_delivered_packet
	intree_fails_extension_tests fq_codel_ext_isolates_sparse_flow
	fq_codel_ext_traces_match_counters fq_codel_ext_ecn_marks_not_drops
	fq_codel_ext_split_gso_hfsc_class_served fuzz_under_parents
	fq_fuzz_under_parents"
case ${TIMING:-} in
'' | only | skip) ;;
*) echo "all.sh: TIMING=$TIMING: only or skip" >&2; exit 2 ;;
esac
picked=
for t in ${only:-$ALL_TESTS}; do
	command -v "$t" >/dev/null 2>&1 || { echo "all.sh: no test named $t" >&2; exit 2; }
	# shellcheck disable=SC2086 # the list's words, on one line
	case " $(echo $MQ_TESTS) " in
	*" $t "*) [ -n "$mq_boot" ] ;;
	*) [ -z "$mq_boot" ] ;;
	esac || continue
	# shellcheck disable=SC2086
	case "${TIMING:-}: $(echo $TIMING_TESTS) " in
	only:*" $t "* | skip:*" $t "*) [ "$TIMING" = only ] ;;
	only:*) false ;;
	esac && picked="$picked $t"
done
ALL_TESTS=$picked
# PART=K/N: the Kth of N shares of the tests picked, of about equal time,
# so that N boots beside each other (make check's pool) end together: each
# test, longest first, goes to the share with the least time so far, by
# its median time in tests/guest/weights (scripts/test-weights.sh; 3 s if
# not listed).  Each share keeps the suite's order.
case ${PART:-} in
'') ;;
[1-9]/[1-9])
	# shellcheck disable=SC2086 # one test a line
	ALL_TESTS=$(printf '%s\n' $ALL_TESTS | awk -v k="${PART%/*}" -v n="${PART#*/}" '
		FILENAME == ARGV[1] { w[$1] = $2; next }
		{ t[++c] = $1; wt[c] = ($1 in w) ? w[$1] : 3 }
		END {
			for (i = 1; i <= c; i++) done[i] = 0
			for (m = 1; m <= c; m++) {
				b = 0
				for (i = 1; i <= c; i++)
					if (!done[i] && (b == 0 || wt[i] > wt[b])) b = i
				done[b] = 1
				s = 1
				for (j = 2; j <= n; j++) if (sum[j] < sum[s]) s = j
				sum[s] += wt[b]; share[b] = s
			}
			for (i = 1; i <= c; i++) if (share[i] == k) print t[i]
		}' /payload/tests/weights -)
	;;
*) echo "all.sh: PART=$PART: K/N, 1 <= K <= N <= 9" >&2; exit 2 ;;
esac
# FIRST=A,B,...: the whole suite, these tests first (make mutate FULL=1
# runs a mutant's own tests before the rest).
if [ -n "${FIRST:-}" ]; then
	first= rest=
	for t in $ALL_TESTS; do
		case ",$FIRST," in *",$t,"*) first="$first $t" ;; *) rest="$rest $t" ;; esac
	done
	ALL_TESTS="$first $rest"
fi
# Last, after everything else has run: no leak reported (debug kernels);
# once a kernel, in its main boot (TIMING=only's leaves it to the other).
[ -n "$only" ] || [ -n "$mq_boot" ] || [ "${TIMING:-}" = only ] ||
	ALL_TESTS="$ALL_TESTS kmemleak_clean"
kmemleak_baseline
# What every test must leave as it found it (check_isolation in lib.sh).
# The dummy and ifb drivers, loaded on first use, would add dummy0 or
# ifb0 and ifb1 then (7.3's tdc loads ifb): load them now, with none.
modprobe dummy numdummies=0
modprobe ifb numifbs=0
# qemu/run --mq's eth2 and eth3 get their default qdiscs (mq) when first
# up, and keep them when down: up and down once, as a test leaves them.
for d in eth2 eth3; do
	[ -e /sys/class/net/$d ] || continue
	ip link set $d up
	ip link set $d down
done
# No comm recording for trace events: enabling the first event and
# disabling the last would otherwise hook sched_switch and sched_wakeup
# too, and every such hook patches kernel text on a live vCPU, which TCG
# has twice turned into an RCU stall (one vCPU spinning in the int3
# handler of a site the other was patching).  Tests read event fields,
# never the comm.
echo 0 >/sys/kernel/tracing/options/record-cmd 2>/dev/null
isolation_state >/tmp/isolation.start
run_tests
status=$?
gcov_export
exit $status
