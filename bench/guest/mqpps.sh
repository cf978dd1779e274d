# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# In-guest cost at scale (run by bench/run.sh through qemu/run with two
# vCPUs): two pktgen threads, one per vCPU, send COUNT 64-byte packets each
# through dev_queue_xmit (queue_xmit) on a dummy device with two tx queues,
# from random UDP source ports so that the flow hash spreads both threads
# over both queues, as on a multiqueue host.  The root is mq, and each tx
# queue's child is:
#   mq-pfifo    pfifo (empty queue: the bypass path)
#   mq-intree   Debian's in-tree codel
#   mq-ours     our codel
# repeated with a rotating order.  Wall-clock time under TCG, not -icount
# (icount serialises the vCPUs, so two threads would measure one): the
# figures are TCG time, to be read only as ratios within one boot.
# Usage: mqpps.sh COUNT REPEATS
# Prints: MQPPS config rep ns_per_packet (both threads' packets over the
# longer thread's time)

. /payload/tests/lib.sh

count=$1 reps=$2
CONFIGS="mq-pfifo mq-intree mq-ours"
modprobe pktgen || { echo "ERROR pktgen"; exit 1; }
PG=/proc/net/pktgen
[ "$(nproc)" -ge 2 ] || { echo "ERROR needs two vCPUs"; exit 1; }

setup() {
	ip link del d0 2>/dev/null
	ip link add d0 numtxqueues 2 type dummy
	echo 1 >/proc/sys/net/ipv6/conf/d0/disable_ipv6
	ip link set d0 up
	rmmod sch_codel 2>/dev/null
	case $1 in
	mq-intree) insmod "$INTREE_PATH" || return 1 ;;
	mq-ours) insmod "$MODULE_PATH" || return 1 ;;
	esac
	tc qdisc add dev d0 root handle 1: mq || return 1
	for q in 1 2; do
		case $1 in
		mq-pfifo) tc qdisc replace dev d0 parent 1:$q pfifo limit 1000 ;;
		*) tc qdisc replace dev d0 parent 1:$q codel ;;
		esac || return 1
	done
}

pg() { echo "$2" >"$PG/$1"; }

rep=1
while [ "$rep" -le "$reps" ]; do
	# shellcheck disable=SC2086
	for c in $(rotate $((rep - 1)) $CONFIGS); do
		setup "$c" || { echo "ERROR $c setup"; continue; }
		for t in 0 1; do
			pg kpktgend_$t rem_device_all
			pg kpktgend_$t "add_device d0@$t"
			pg "d0@$t" "count $count"
			pg "d0@$t" "pkt_size 60"
			pg "d0@$t" "delay 0"
			pg "d0@$t" "xmit_mode queue_xmit"
			pg "d0@$t" "udp_src_min 10000"
			pg "d0@$t" "udp_src_max 60000"
			pg "d0@$t" "flag UDPSRC_RND"
			pg "d0@$t" "dst 198.18.9.2"
			pg "d0@$t" "dst_mac 02:00:00:00:00:02"
		done
		pg pgctrl start
		max=0 ok=1
		for t in 0 1; do
			res=$(grep -m1 'Result:' "$PG/d0@$t")
			usec=$(echo "$res" | sed -n 's/.*OK: \([0-9]*\)(.*/\1/p')
			sent=$(echo "$res" | sed -n 's/.*usec, \([0-9]*\) (.*/\1/p')
			if [ -z "$usec" ] || [ "$sent" != "$count" ]; then
				echo "ERROR $c $rep thread $t: $res"
				ok=0
			elif [ "$usec" -gt "$max" ]; then
				max=$usec
			fi
		done
		[ "$ok" = 1 ] || continue
		# Both queues used: each child's Sent, for the report.
		sent=$(tc -s qdisc show dev d0 | awk '$1 == "qdisc" && $4 == "parent" { p = $5 } / Sent / && p { printf "%s:%s ", p, $4; p = "" }')
		echo "MQPPS $c $rep $(awk -v u="$max" -v n="$((count * 2))" 'BEGIN { printf "%.1f", u * 1000 / n }') $sent"
	done
	rep=$((rep + 1))
done
for t in 0 1; do pg kpktgend_$t rem_device_all; done
echo "DONE"
