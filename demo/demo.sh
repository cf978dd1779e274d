# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make demo: why CoDel matters, in one screen.  A 10 Mbit/s bottleneck on
# eth0, 20 s of bulk TCP from netns "near" to netns "far" with ping
# alongside, first through "pfifo limit 1000", then through our codel.
# Runs in the guest: qemu/run demo/demo.sh [SECONDS]

. /payload/tests/lib.sh
. /payload/tests/load.sh

secs=${1:-20}
ms() { awk -v v="$1" 'BEGIN { printf "%.1f ms", v }'; }
echo "10 Mbit/s bottleneck, 1 bulk TCP flow for ${secs}s, ping every 100 ms alongside"
echo "(the qdisc under test is the leaf of an HTB class on eth0; this takes $((secs * 2 + 20)) s)"
load_run /tmp/pfifo 10mbit "$secs" 1 pfifo limit 1000 || exit 1
cp /tmp/pfifo/tc.txt /tmp/pfifo.tc
load_run /tmp/codel 10mbit "$secs" 1 codel || exit 1
codel_is_ours_loaded=$(grep -q O /sys/module/sch_codel/taint && echo yes || echo no)

echo
printf '%-17s %9s %11s %9s %11s %6s\n' qdisc "idle RTT" "median RTT" "p99 RTT" goodput drops
for q in pfifo codel; do
	d=/tmp/$q
	name="codel (ours)"
	[ $q = codel ] || name="pfifo limit 1000"
	printf '%-17s %9s %11s %9s %11s %6s\n' "$name" \
		"$(ms "$(pct $d/idle 50)")" "$(ms "$(pct $d/rtt 50)")" \
		"$(ms "$(pct $d/rtt 99)")" "$(goodput_mbit $d/iperf.json) Mb/s" \
		"$(leaf_drops $d/tc.txt)"
done
m_p=$(pct /tmp/pfifo/rtt 50)
m_c=$(pct /tmp/codel/rtt 50)
echo
awk -v p="$m_p" -v c="$m_c" 'BEGIN { if (c > 0) printf "median RTT under load: %.0fx lower with codel\n", p / c }'
echo "out-of-tree sch_codel loaded: $codel_is_ours_loaded"
echo
echo "--- tc -s qdisc show dev eth0, pfifo run"
cat /tmp/pfifo/tc.txt
echo "--- tc -s qdisc show dev eth0, codel run"
cat /tmp/codel/tc.txt
