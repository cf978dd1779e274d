# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# In-guest split_gso benchmark (bench/run.sh): TSO/GSO left on at the
# sender, so 64 KB trains reach the bottleneck qdisc.  Debian's in-tree
# codel, ours, and ours with split_gso, order rotated each repeat, at
# each rate.  The patched tc (it alone knows split_gso) does the setup.
# Usage: split_gso.sh SECONDS REPEATS "RATES"
# Prints: SPLIT rate cfg rep idle med p90 p99 max goodput drops maxpacket

. /payload/tests/lib.sh
. /payload/tests/load.sh

secs=$1 reps=$2 rates=$3
tc() { "$TC_PATCHED" "$@"; }
SENDER_GSO=on

for rate in $rates; do
	rep=1
	while [ "$rep" -le "$reps" ]; do
		for cfg in $(rotate $((rep - 1)) intree ours ours-split); do
			rmmod sch_codel 2>/dev/null
			if [ "$cfg" = intree ]; then insmod "$INTREE_PATH"; else insmod "$MODULE_PATH"; fi
			args=codel
			[ "$cfg" = ours-split ] && args="codel split_gso"
			d=/tmp/split/$rate-$cfg-$rep
			# shellcheck disable=SC2086
			load_run "$d" "$rate" "$secs" 1 $args || { echo "ERROR $rate $cfg $rep"; continue; }
			maxp=$(awk '$1 == "qdisc" { on = ($3 == "10:") }
				on { for (i = 1; i < NF; i++) if ($i == "maxpacket") print $(i + 1) }' "$d/tc.txt")
			echo "SPLIT $rate $cfg $rep $(pct "$d/idle" 50) $(pct "$d/rtt" 50)" \
				"$(pct "$d/rtt" 90) $(pct "$d/rtt" 99) $(pct "$d/rtt" 100)" \
				"$(goodput_mbit "$d/iperf.json") $(leaf_drops "$d/tc.txt") ${maxp:-0}"
			rm -rf "$d"
		done
		rep=$((rep + 1))
	done
done
echo DONE
