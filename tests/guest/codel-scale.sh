# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Deployment at scale: codel on every tx queue of a multiqueue NIC, as
# net.core.default_qdisc and mq build it on real hosts.  Needs the guest's
# eth2/eth3 (qemu/run --mq: virtio-net with 4 queue pairs each, on taps
# bridged in QEMU's own network namespace).  Sourced by all.sh.

ALL_TESTS="$ALL_TESTS
	mq_default_qdisc_codel_per_queue
	mqprio_default_qdisc_codel_per_queue
	mq_default_qdisc_fq_codel_ext_per_queue
"

# mq_children: "PARENT KIND HANDLE" of each child of eth2's mq, by class.
mq_children() {
	tc qdisc show dev eth2 | awk '$1 == "qdisc" && $4 == "parent" { print $5, $2, $3 }' | sort
}

# mq_child PARENT FILE: the block of the child at class PARENT (1:N) of a
# saved dump of eth2.  By class, not handle: the default children all have
# handle 0:.
mq_child() {
	"$TCJ" obj "parent=$1" <"$2"
}

# mq_sum FN FILE: the sum over the mq children in FILE of the counter that
# FN (sent_pkts, dropped, ...) reads from one qdisc's block.
mq_sum() {
	local total=0 c
	for c in 1:1 1:2 1:3 1:4; do
		total=$((total + $("$1" "$(mq_child $c "$2")")))
	done
	echo "$total"
}

# CoDel's own drops in one codel block: all drops less the tail drops.
codel_drops() { echo $(($(dropped "$1") - $(field "$1" drop_overlimit))); }

PG=/proc/net/pktgen
pg() { echo "$2" >"$PG/$1"; }

# pin_queues: on eth2's egress (clsact, before the tx queue is picked),
# each block of 4096 UDP source ports to its own tx queue with skbedit
# queue_mapping: ports 0x1000-0x1fff to queue 0, 0x2000-0x2fff to 1,
# 0x3000-0x3fff to 2, 0x4000-0x4fff to 3.  Every queue then carries a
# known share of pktgen_mq's load, whatever the flow hash would pick.
pin_queues() {
	{
		echo "qdisc add dev eth2 clsact"
		for q in 0 1 2 3; do
			echo "filter add dev eth2 egress protocol ip prio 1 u32" \
				"match ip protocol 17 0xff match ip sport $(((q + 1) << 12)) 0xf000" \
				"action skbedit queue_mapping $q"
		done
	} | tc -batch -
}

# pktgen_mq COUNT: two kernel threads (one per vCPU) each send COUNT
# 1400-byte UDP packets to eth3 through eth2's qdiscs (queue_xmit),
# thread T from random source ports in two of pin_queues' blocks (T 0:
# queues 0 and 1; T 1: queues 2 and 3), faster than eth2 drains them
# (qemu/run --mq: 2 packets a queue each ms): the rings fill, the driver
# stops the queues and the qdiscs hold a backlog.  A packet a qdisc drops
# is sent again, so the run takes about COUNT / 4000 s.  Returns when both
# are done.
pktgen_mq() {
	local mac t
	mac=$(ip netns exec mqfar cat /sys/class/net/eth3/address)
	for t in 0 1; do
		pg kpktgend_$t rem_device_all
		pg kpktgend_$t "add_device eth2@$t"
		pg "eth2@$t" "count $1"
		pg "eth2@$t" "pkt_size 1400"
		pg "eth2@$t" "delay 0"
		pg "eth2@$t" "xmit_mode queue_xmit"
		pg "eth2@$t" "udp_src_min $(((2 * t + 1) << 12))"
		pg "eth2@$t" "udp_src_max $(((2 * t + 3) << 12))"
		pg "eth2@$t" "flag UDPSRC_RND"
		# Priority 0 and 4: under mqprio's map one traffic class each,
		# whose queues are the ones pin_queues gives this thread.
		pg "eth2@$t" "skb_priority $((t * 4))"
		pg "eth2@$t" "dst $MQ_FAR"
		pg "eth2@$t" "dst_mac $mac"
	done
	pg pgctrl start
}

# One look for per_queue's waits: eth2's tx count as at the last look
# (mq_tx_last) and every qdisc on it empty.
mq_tx_settled() {
	local last=$mq_tx_last
	mq_tx_last=$(dev_stat eth2 tx_packets)
	[ "$mq_tx_last" = "$last" ] && all_drained qdisc eth2
}

# per_queue CHILD MODULE LIMIT ROOT...: ROOT (mq, or mqprio with a queue
# per traffic class) on eth2, its 4 per-queue children CHILD (codel or
# fq_codel_ext, MODULE's; default limit LIMIT) from default_qdisc.  The
# dumps are the patched tc's, which reads both kinds' options and xstats.
per_queue() {
	local child=$1 mod=$2 limit=$3 kind=$4 name old deepest mid q c b root txp txb bad h
	shift 3
	name="$kind: default_qdisc $child puts ours on each of 4 tx queues; $kind's counters are its children's sums; replace and delete a child under load"
	[ -e /sys/class/net/eth2 ] || { log_skip "$name" "no multiqueue NIC (qemu/run --mq)"; return; }
	modprobe pktgen 2>/dev/null || { log_skip "$name" "no pktgen module"; return; }
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "no patched tc (make tc)"; return; }
	old=$(sysctl -n net.core.default_qdisc)
	mq_up
	check_eq "$(ls -d /sys/class/net/eth2/queues/tx-* | wc -l)" 4 "eth2 tx queues"
	sysctl -qw "net.core.default_qdisc=$child"
	check_err $? "net.core.default_qdisc=$child"
	tc qdisc replace dev eth2 root handle 1: "$@"
	check_err $? "$kind on eth2"
	sysctl -qw "net.core.default_qdisc=$old"
	check_eq "$(mq_children | awk '{ print $1, $2 }' | tr '\n' ' ')" \
		"1:1 $child 1:2 $child 1:3 $child 1:4 $child " "every tx queue got $child"
	module_is_ours "$mod"
	check_err $? "default_qdisc loaded our $mod"
	# Named handles for two children (the defaults have handle 0:, which
	# cannot be deleted by handle).
	tc qdisc replace dev eth2 parent 1:2 handle 12: "$child"
	tc qdisc replace dev eth2 parent 1:3 handle 13: "$child"
	pin_queues
	check_err $? "skbedit queue_mapping filters on eth2"
	pktgen_mq 20000 &
	sleep 2
	dump eth2 "$TC_PATCHED" >/tmp/mq.mid
	mid=$(mq_sum backlog_pkts /tmp/mq.mid)
	# Each child holds its own limit (per tx queue, not per mq): no child
	# above it; codel's 1000 packets are fewer than the load stands, so
	# between them the children held more than one limit.
	deepest=0
	for c in 1:1 1:2 1:3 1:4; do
		q=$(backlog_pkts "$(mq_child $c /tmp/mq.mid)")
		check_eq "$(field "$(mq_child $c /tmp/mq.mid)" limit)" "$limit" "child $c: limit $limit"
		check_cmp "$q" -le "$limit" "child $c holds at most its limit"
		[ "$q" -le "$deepest" ] || deepest=$q
	done
	diag "$kind: deepest child queue $deepest packets at 2 s"
	[ "$child" != codel ] ||
		check_cmp "$mid" -gt "$limit" "the children together held more than one limit"
	# Under load: change one child, delete another (mq then gives that
	# queue noop, which drops), put the child back.
	"$TC_PATCHED" qdisc replace dev eth2 parent 1:2 handle 12: "$child" target 1ms
	check_err $? "replace of 1:2 under load"
	tc qdisc del dev eth2 parent 1:3 handle 13:
	check_err $? "delete of 1:3 under load"
	sleep 0.5
	tc qdisc add dev eth2 parent 1:3 handle 13: "$child"
	check_err $? "$child back on 1:3 under load"
	wait
	# A second load once the tree is whole again, so that the re-added
	# child (whose queue only thread 1 feeds) carries packets too.
	# The device's own count of that load, from before it.
	# Counted from and to a quiet device: the first load drained and no
	# packet between a child and the wire (eth2's tx timer takes 2 a
	# queue each ms, and the device's count lags the children's by what
	# its ring holds).
	mq_tx_last=
	busywait 9000 mq_tx_settled
	check_err $? "eth2 quiet after the first load"
	dump eth2 "$TC_PATCHED" >/tmp/mq.pre
	txp=$(dev_stat eth2 tx_packets) txb=$(dev_stat eth2 tx_bytes)
	pktgen_mq 6000
	mq_tx_last=
	busywait 9000 mq_tx_settled
	check_err $? "eth2 quiet after the second load"
	dump eth2 "$TC_PATCHED" >/tmp/mq.final
	root=$(block_of qdisc 1: /tmp/mq.final)
	diag "$kind: backlog $mid packets at 2 s; $(echo "$root" | tr -s ' ')"
	for c in 1:1 1:2 1:3 1:4; do
		b=$(mq_child $c /tmp/mq.final)
		diag "  $(echo "$b" | tr -s ' ' | cut -c1-170)"
		check_cmp "$(sent_pkts "$b")" -gt 100 "precondition: tx queue $c carried its pinned load"
	done
	check_cmp "$mid" -gt 10 "precondition: the queues stood"
	check_cmp "$(mq_sum codel_drops /tmp/mq.final)" -gt 0 "CoDel (not only the limit) dropped on the standing queues"
	check_eq "$(sent_pkts "$root")" "$(mq_sum sent_pkts /tmp/mq.final)" "$kind Sent packets = sum of its children's"
	check_eq "$(sent_bytes "$root")" "$(mq_sum sent_bytes /tmp/mq.final)" "$kind Sent bytes = sum of its children's"
	check_eq "$(dropped "$root")" "$(mq_sum dropped /tmp/mq.final)" "$kind drops = sum of its children's"
	check_eq "$(backlog_of "$root")" "0 0" "$kind backlog after the run"
	# An independent witness ($kind's own sums are its children's by
	# construction): what the children sent during the second load is
	# what the device sent (bypassed packets included: the core counts
	# those in the child).
	dump eth2 "$TC_PATCHED" >/tmp/mq.tx
	check_eq "$(( $(mq_sum sent_pkts /tmp/mq.tx) - $(mq_sum sent_pkts /tmp/mq.pre) )) $(( $(mq_sum sent_bytes /tmp/mq.tx) - $(mq_sum sent_bytes /tmp/mq.pre) ))" \
		"$(( $(dev_stat eth2 tx_packets) - txp )) $(( $(dev_stat eth2 tx_bytes) - txb ))" \
		"the children's Sent during the second load vs eth2's tx counters (packets, bytes)"
	check_eq "$(mq_children | awk '{ print $1, $2, $3 }' | sed -n '2p;3p' | tr '\n' ' ')" \
		"1:2 $child 12: 1:3 $child 13: " "the replaced and re-added children"
	# Per-queue xstats: each child's histogram counts the packets it
	# dequeued, at most its Sent (which also counts packets the core sent
	# past an empty, idle root qdisc: TCQ_F_CAN_BYPASS).
	bad=
	for c in 1:1 1:2 1:3 1:4; do
		b=$(mq_child $c /tmp/mq.tx)
		h=$(hist_total "$b")
		[ "$h" -gt 0 ] && [ "$h" -le "$(sent_pkts "$b")" ] ||
			bad="$bad $c:$h/$(sent_pkts "$b")"
	done
	check_eq "${bad:-none}" none "children whose histogram total is 0 or above their Sent"
	pg kpktgend_0 rem_device_all
	pg kpktgend_1 rem_device_all
	mq_down
	log_test "$name"
}

mq_default_qdisc_codel_per_queue() { per_queue codel sch_codel 1000 mq; }
# fq_codel_ext, whose default limit of 10240 packets the load does not
# reach: each child's standing queue is CoDel's alone.
mq_default_qdisc_fq_codel_ext_per_queue() {
	per_queue fq_codel_ext sch_fq_codel_ext 10240 mq
}
# mqprio (software, hw 0): two traffic classes of two queues each, priority
# 0 to class 0 (queues 0-1), 4 to class 1 (queues 2-3); pktgen's two
# threads send one priority each, pinned to their class's queues.
mqprio_default_qdisc_codel_per_queue() {
	per_queue codel sch_codel 1000 mqprio num_tc 2 map 0 0 0 0 1 1 1 1 0 0 0 0 0 0 0 0 \
		queues 2@0 2@2 hw 0
}
