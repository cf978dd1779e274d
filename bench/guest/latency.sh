# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# In-guest latency-under-load benchmark (run by bench/run.sh through
# qemu/run).  For each rate and flow count, every qdisc in turn, repeated,
# in an order that rotates each repeat (A B C D, B C D A, ...) so that
# ours and Debian's in-tree codel alternate.  Both register "codel", so the
# module is swapped (rmmod/insmod) before each codel run.
# Usage: latency.sh SECONDS REPEATS "RATES" "FLOWS" "QDISCS"
# Prints machine-readable lines:
#   RUN rate flows qdisc rep idle_ms med p90 p99 max goodput_mbit drops marks
#   RTT rate flows qdisc rep seq rtt_ms        (10 Mbit/s, 1 flow only)
#   XSTATS rate flows qdisc rep <tc -s line of the leaf>

. /payload/tests/lib.sh
. /payload/tests/load.sh

secs=$1 reps=$2 rates=$3 flows_list=$4 qdiscs=$5
# The patched tc, which prints every kind's xstats (fq_codel_ext's too,
# which stock tc leaves as "Unknown qdisc") in the XSTATS lines.
[ ! -x "$TC_PATCHED" ] || tc() { "$TC_PATCHED" "$@"; }

use_codel() {
	rmmod sch_codel 2>/dev/null
	case $1 in
	ours | ours_adapt) insmod "$MODULE_PATH" ;;
	intree) insmod "$INTREE_PATH" ;;
	esac
}

leaf_args() {
	case $1 in
	pfifo) echo "pfifo limit 1000" ;;
	intree|ours) echo "codel" ;;
	ours_adapt) echo "codel adaptive_target" ;;
	fq_codel) echo "fq_codel" ;;
	fq_codel_ext) echo "fq_codel_ext" ;;
	fq_codel_ext_hash) echo "fq_codel_ext hash_headers" ;;
	fq_codel_ext_adapt) echo "fq_codel_ext hash_headers adaptive_target" ;;
	# As a leaf, cake does not shape (the HTB class does).
	cake) echo "cake unlimited" ;;
	esac
}

seqrtt() { sed -n 's/.*seq=\([0-9]*\) .* time=\([0-9.]*\) ms$/\1 \2/p'; }

for rate in $rates; do
	for flows in $flows_list; do
		rep=1
		while [ "$rep" -le "$reps" ]; do
			# shellcheck disable=SC2086
			for q in $(rotate $((rep - 1)) $qdiscs); do
				use_codel "$q"
				d=/tmp/bench/$rate-$flows-$q-$rep
				# shellcheck disable=SC2046
				load_run "$d" "$rate" "$secs" "$flows" $(leaf_args "$q") ||
					{ echo "ERROR $rate $flows $q $rep setup"; continue; }
				if [ "${q%_adapt}" = ours ] && ! grep -q O /sys/module/sch_codel/taint; then
					echo "ERROR $rate $flows $q $rep wrong module"
				fi
				if [ "$q" = intree ] && grep -q O /sys/module/sch_codel/taint; then
					echo "ERROR $rate $flows $q $rep wrong module"
				fi
				marks=$(awk '$1 == "qdisc" { on = ($3 == "10:") }
					on { for (i = 1; i < NF; i++) if ($i == "ecn_mark" || $i == "ce_mark") m += $(i + 1) }
					END { print m + 0 }' "$d/tc.txt")
				echo "RUN $rate $flows $q $rep $(pct "$d/idle" 50) $(pct "$d/rtt" 50)" \
					"$(pct "$d/rtt" 90) $(pct "$d/rtt" 99) $(pct "$d/rtt" 100)" \
					"$(goodput_mbit "$d/iperf.json") $(leaf_drops "$d/tc.txt") $marks"
				echo "XSTATS $rate $flows $q $rep $(awk '$1 == "qdisc" { on = ($3 == "10:") } on' "$d/tc.txt" | tr -s ' \n' '  ')"
				if [ "$rate" = 10mbit ] && [ "$flows" = 1 ]; then
					seqrtt <"$d/rtt.raw" | sed "s/^/RTT $rate $flows $q $rep /"
				fi
				rm -rf "$d"
			done
			rep=$((rep + 1))
		done
	done
done
echo "DONE"
