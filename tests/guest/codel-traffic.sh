# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Data plane over virtio-net: counters against the device's, CoDel under a
# 10 Mbit/s HTB bottleneck with bulk TCP (drops, sojourn, clean drain), ECN
# marking, ce_threshold marking, and the packet limit.  Sourced by all.sh.

ALL_TESTS="$ALL_TESTS
	ping_counters_match_device
	htb_bulk_tcp_controls_delay
	ecn_traffic_marked_not_dropped
	ce_threshold_marks_traffic
	limit_overflow_counted
	limit_holds_exactly_limit_packets
"

ping_counters_match_device() {
	# No ARP or IPv6 ND on eth0 between the device and qdisc snapshots
	# (each tc call takes 100+ ms under TCG): only the echoes count.
	quiet_path
	tc qdisc add dev eth0 root handle 1: codel
	ping -c 3 -W 2 "$FAR" >/dev/null
	tx0=$(dev_stat eth0 tx_packets)
	txb0=$(dev_stat eth0 tx_bytes)
	s0=$(stats_of qdisc eth0 1:)
	ping -c 20 -i 0.05 -W 2 "$FAR" >/tmp/ping.out 2>&1
	check_err $? "ping to far through codel failed: $(tail -n 2 /tmp/ping.out | tr '\n' ' ')"
	s1=$(stats_of qdisc eth0 1:)
	dp=$(( $(dev_stat eth0 tx_packets) - tx0 ))
	db=$(( $(dev_stat eth0 tx_bytes) - txb0 ))
	check_cmp "$dp" -ge 20 "eth0 sent the 20 echo requests"
	check_eq "$(( $(sent_pkts "$s1") - $(sent_pkts "$s0") ))" "$dp" "qdisc Sent packets vs eth0 tx_packets"
	check_eq "$(( $(sent_bytes "$s1") - $(sent_bytes "$s0") ))" "$db" "qdisc Sent bytes vs eth0 tx_bytes"
	check_eq "$(dropped "$s1")" 0 "drops while pinging"
	log_test "traffic: ping through codel, Sent counters match eth0"
}

# Median of integers on stdin.
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print -1 }'; }

htb_bulk_tcp_controls_delay() {
	require_cmd iperf3 "traffic: HTB 10 Mbit/s + codel under bulk TCP" || return
	topo_router_up
	htb_with_leaf "$(bottleneck 10mbit)" codel
	check_err $? "HTB with codel leaf"
	iperf_server_up
	ip netns exec near iperf3 -c "$FAR" -t 12 -J >/tmp/iperf.json 2>&1 &
	pid=$!
	# Sample the sojourn of the last dequeued packet from 4 s to 9 s.
	sleep 4
	: >/tmp/ldelay
	for i in 1 2 3 4 5 6 7 8 9 10; do
		to_us "$(field "$(stats_of qdisc eth0 10:)" ldelay)" >>/tmp/ldelay
		sleep 0.5
	done
	wait $pid
	check_err $? "iperf3 client failed: $(tail -n 3 /tmp/iperf.json)"
	sleep 2
	s=$(stats_of qdisc eth0 10:)
	med=$(median </tmp/ldelay)
	diag "codel under HTB: dropped $(dropped "$s"), ldelay samples (us): $(tr '\n' ' ' </tmp/ldelay)"
	check_cmp "$(dropped "$s")" -gt 0 "CoDel dropped under load"
	check_cmp "$(field "$s" maxpacket)" -le 1514 "MTU-sized packets reached the qdisc"
	check_load "$med" -le 15000 "median sojourn under load near the 5 ms target"
	diag "iperf3: $(grep '"bits_per_second"' /tmp/iperf.json | tail -n 1 | tr -d ' ')"
	check_eq "$(backlog_pkts "$s") $(backlog_bytes "$s")" "0 0" "codel backlog after traffic"
	r=$(stats_of qdisc eth0 1:)
	check_eq "$(backlog_pkts "$r") $(backlog_bytes "$r")" "0 0" "HTB root backlog after traffic"
	c=$(stats_of class eth0 1:10)
	check_eq "$(backlog_pkts "$c") $(backlog_bytes "$c")" "0 0" "HTB class backlog after traffic"
	check_eq "$(tc -s qdisc show dev eth0 | grep -c 'backlog 0b 0p')" 2 "every qdisc drained"
	log_test "traffic: HTB 10 Mbit/s + codel under bulk TCP: drops, sojourn near target, drains"
}

ecn_traffic_marked_not_dropped() {
	require_cmd iperf3 "traffic: ECN-capable TCP is marked, not dropped" || return
	topo_router_up
	ip netns exec near sysctl -qw net.ipv4.tcp_ecn=1
	# TCP only (ECN-capable with tcp_ecn=1); ARP is Not-ECT.
	htb_proto_leaf 6 "$(bottleneck 10mbit)" codel ecn
	iperf_server_up
	ip netns exec near iperf3 -c "$FAR" -t 8 >/dev/null 2>&1
	check_err $? "iperf3 client failed"
	sleep 1
	s=$(stats_of qdisc eth0 10:)
	diag "codel ecn: $(echo "$s" | tr -s ' ')"
	check_cmp "$(field "$s" ecn_mark)" -gt 0 "CoDel ECN-marked packets"
	check_eq "$(dropped "$s")" 0 "ECN-capable packets dropped"
	log_test "traffic: ECN-capable TCP is marked, not dropped"
}

ce_threshold_marks_traffic() {
	require_cmd iperf3 "traffic: ce_threshold marks ECT packets" || return
	topo_router_up
	ip netns exec near sysctl -qw net.ipv4.tcp_ecn=1
	htb_with_leaf 10mbit codel ce_threshold 1ms
	iperf_server_up
	ip netns exec near iperf3 -c "$FAR" -t 5 >/dev/null 2>&1
	check_err $? "iperf3 client failed"
	s=$(stats_of qdisc eth0 10:)
	diag "codel ce_threshold: $(echo "$s" | tr -s ' ')"
	check_cmp "$(field "$s" ce_mark)" -gt 0 "ce_threshold marked packets"
	log_test "traffic: ce_threshold marks ECT packets"
}

limit_overflow_counted() {
	require_cmd iperf3 "traffic: limit overflow counted as drop_overlimit" || return
	topo_router_up
	htb_with_leaf 1mbit codel limit 5
	iperf_server_up
	ip netns exec near iperf3 -c "$FAR" -u -b 20M -l 1400 -t 3 >/dev/null 2>&1
	sleep 1
	s=$(stats_of qdisc eth0 10:)
	over=$(field "$s" drop_overlimit)
	diag "codel limit 5: $(echo "$s" | tr -s ' ')"
	check_cmp "$over" -gt 0 "drop_overlimit counted"
	check_cmp "$(dropped "$s")" -ge "$over" "qdisc drops include the overlimit drops"
	check_eq "$(backlog_pkts "$s")" 0 "backlog after traffic"
	log_test "traffic: limit overflow counted as drop_overlimit"
}

# A queue that cannot drain (an HTB class at 8 bit/s sends its burst, a
# few frames, then nothing for minutes) and 20 frames into codel limit 5: it
# holds exactly 5, and every frame was sent, queued or tail-dropped.
limit_holds_exactly_limit_packets() {
	name="limit: a stalled queue holds exactly limit packets, the rest tail-dropped"
	[ -x "$FUZZ" ] || { log_skip "$name" "codel-fuzz not in the guest (make check)"; return; }
	dummy_up
	tc qdisc add dev d0 root handle 1: htb default 1 &&
		tc class add dev d0 parent 1: classid 1:1 htb rate 8bit ceil 8bit &&
		tc qdisc add dev d0 parent 1:1 handle 10: codel limit 5
	check_err $? "htb + codel setup"
	"$FUZZ" --send 20 d0 >/dev/null 2>&1	# tail drops fail sendto(): ENOBUFS
	s=$(stats_of qdisc d0 10:)
	diag "$(echo "$s" | tr -s ' ')"
	sent=$(sent_pkts "$s") queued=$(backlog_pkts "$s") over=$(field "$s" drop_overlimit)
	check_cmp "$sent" -le 10 "the class did not stall (sent $sent)"
	check_eq "$queued" 5 "packets queued at limit 5"
	check_eq "$((sent + queued + over))" 20 "sent + queued + tail-dropped"
	check_eq "$(dropped "$s")" "$over" "every drop a tail drop"
	log_test "$name"
}
