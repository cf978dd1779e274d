# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# In-guest per-packet cost (run by bench/run.sh through qemu/run, best
# under QEMU -icount so that time counts guest instructions).  pktgen sends
# COUNT 64-byte packets through dev_queue_xmit (xmit_mode queue_xmit) on a
# dummy device, under each configuration, repeated with a rotating order:
#   noqueue     dummy's default: no qdisc at all
#   pfifo       root pfifo (empty queue: the bypass path)
#   prio-pfifo  root prio, the packets' band a pfifo: every packet is
#               enqueued and dequeued (prio cannot be bypassed)
#   prio-intree the same band with Debian's in-tree codel
#   prio-ours   the same band with our codel
#   prio-fq_codel, prio-fq_codel_ext, prio-fq_codel_ext-hash (hash_headers)
# Usage: pps.sh COUNT REPEATS [CONFIG...] (default: all but -hash)
# Prints: PPS config rep ns_per_packet

. /payload/tests/lib.sh

count=$1 reps=$2
shift 2
CONFIGS=${*:-"noqueue pfifo prio-pfifo prio-intree prio-ours prio-fq_codel prio-fq_codel_ext"}
modprobe pktgen || { echo "ERROR pktgen"; exit 1; }
PG=/proc/net/pktgen

setup() {
	ip link del d0 2>/dev/null
	ip link add d0 type dummy
	echo 1 >/proc/sys/net/ipv6/conf/d0/disable_ipv6
	ip link set d0 up
	rmmod sch_codel 2>/dev/null
	case $1 in
	pfifo) tc qdisc add dev d0 root pfifo limit 1000 ;;
	prio-*) tc qdisc add dev d0 root handle 1: prio ;;
	esac
	case $1 in
	prio-pfifo) tc qdisc add dev d0 parent 1:2 handle 10: pfifo limit 1000 ;;
	prio-intree) insmod "$INTREE_PATH" && tc qdisc add dev d0 parent 1:2 handle 10: codel ;;
	prio-ours) insmod "$MODULE_PATH" && tc qdisc add dev d0 parent 1:2 handle 10: codel ;;
	prio-fq_codel) tc qdisc add dev d0 parent 1:2 handle 10: fq_codel ;;
	prio-fq_codel_ext) tc qdisc add dev d0 parent 1:2 handle 10: fq_codel_ext ;;
	# Stock tc parses fq_codel_ext's options with the package's plugin.
	prio-fq_codel_ext-hash)
		TC_LIB_DIR=/usr/local/lib/tc-codel \
			tc qdisc add dev d0 parent 1:2 handle 10: fq_codel_ext hash_headers ;;
	esac
}

pg() { echo "$2" >"$PG/$1"; }

rep=1
while [ "$rep" -le "$reps" ]; do
	# shellcheck disable=SC2086
	for c in $(rotate $((rep - 1)) $CONFIGS); do
		setup "$c" || { echo "ERROR $c setup"; continue; }
		pg kpktgend_0 rem_device_all
		pg kpktgend_0 "add_device d0"
		pg d0 "count $count"
		pg d0 "pkt_size 60"
		pg d0 "delay 0"
		pg d0 "xmit_mode queue_xmit"
		pg d0 "dst 198.18.9.2"
		pg d0 "dst_mac 02:00:00:00:00:02"
		pg pgctrl start
		res=$(grep -m1 'Result:' "$PG/d0")
		usec=$(echo "$res" | sed -n 's/.*OK: \([0-9]*\)(.*/\1/p')
		sent=$(echo "$res" | sed -n 's/.*usec, \([0-9]*\) (.*/\1/p')
		if [ -z "$usec" ] || [ "$sent" != "$count" ]; then
			echo "ERROR $c $rep $res"
			continue
		fi
		echo "PPS $c $rep $(awk -v u="$usec" -v n="$count" 'BEGIN { printf "%.1f", u * 1000 / n }')"
		if [ "$c" = prio-ours ] || [ "$c" = prio-intree ]; then
			echo "XSTATS $c $rep $(tc -s qdisc show dev d0 | awk '$1 == "qdisc" { on = ($3 == "10:") } on' | tr -s ' \n' '  ')"
		fi
	done
	rep=$((rep + 1))
done
pg kpktgend_0 rem_device_all
echo "DONE"
