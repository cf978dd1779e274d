# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Data plane over virtio-net: counters against the device's, CoDel under a
# 10 Mbit/s HTB bottleneck with bulk TCP (drops, sojourn, clean drain), ECN
# marking, ce_threshold marking, and the packet limit.  Each bulk-TCP test
# first proves that its flow ran (check_load_flowed) and that a queue
# stood (drops, marks or the sojourn histogram); counts are checked against witnesses
# outside codel (the NICs, the receiver's and sender's SNMP counters), and
# each marking test has its control (noecn drops, a high ce_threshold marks
# nothing).  Sourced by all.sh.

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
	# Codel as the child of a TBF far above the echoes' rate: a child is
	# never bypassed, so each echo goes through codel's enqueue and
	# dequeue and only codel's dequeue counts its Sent.  (Root codel on an
	# idle link is bypassed: the core would count the echoes for it.)
	tc qdisc add dev eth0 root handle 1: tbf rate 1gbit burst 64kb latency 100ms &&
		tc qdisc add dev eth0 parent 1:1 handle 10: codel
	check_err $? "tbf + codel"
	ping -c 3 -i 0.2 -W 2 "$FAR" >/dev/null
	tx0=$(dev_stat eth0 tx_packets)
	txb0=$(dev_stat eth0 tx_bytes)
	s0=$(stats_of qdisc eth0 10:)
	ping -c 20 -i 0.05 -W 2 "$FAR" >/tmp/ping.out 2>&1
	check_err $? "ping to far through codel failed: $(tail -n 2 /tmp/ping.out | tr '\n' ' ')"
	s1=$(stats_of qdisc eth0 10:)
	dp=$(( $(dev_stat eth0 tx_packets) - tx0 ))
	db=$(( $(dev_stat eth0 tx_bytes) - txb0 ))
	check_cmp "$dp" -ge 20 "eth0 sent the 20 echo requests"
	# Codel's dequeue sets maxpacket: 98 B, an echo request on the wire.
	check_eq "$(field "$s1" maxpacket)" 98 "precondition: the echoes left through codel's dequeue (maxpacket)"
	check_eq "$(( $(sent_pkts "$s1") - $(sent_pkts "$s0") ))" "$dp" "qdisc Sent packets vs eth0 tx_packets"
	check_eq "$(( $(sent_bytes "$s1") - $(sent_bytes "$s0") ))" "$db" "qdisc Sent bytes vs eth0 tx_bytes"
	check_eq "$(dropped "$s1")" 0 "drops while pinging"
	log_test "traffic: ping through codel, Sent counters match eth0"
}

# Median of integers on stdin.
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print -1 }'; }

htb_bulk_tcp_controls_delay() {
	name="traffic: HTB 10 Mbit/s + codel under bulk TCP: a queue stood, delay held near target, every packet counted"
	require_cmd iperf3 "$name" || return
	rate=$(bottleneck 10mbit)
	topo_router_up
	# Only the test's packets cross eth0 (no ARP, ND or IPv6), so the
	# devices' counts are the qdisc's independent witnesses.
	quiet_path
	htb_with_leaf "$rate" codel
	check_err $? "HTB with codel leaf"
	iperf_server_up
	in0=$(dev_stat veth0 rx_packets) out0=$(far_stat rx_packets)
	outb0=$(dev_stat eth0 tx_bytes)
	ip netns exec near iperf3 -c "$FAR" -t 6 -J >/tmp/iperf.json 2>&1 &
	pid=$!
	# Sample the sojourn of the last dequeued packet from 2 s to 5.5 s
	# (slow start into a 10 Mbit/s link with a ~1 ms RTT is over in far
	# less than a second; CoDel's first drops follow within an interval).
	sleep 2
	: >/tmp/ldelay
	for i in 1 2 3 4 5 6 7 8 9 10; do
		field "$(stats_of qdisc eth0 10:)" ldelay >>/tmp/ldelay
		sleep 0.25
	done
	wait $pid
	check_err $? "iperf3 client failed: $(tail -n 3 /tmp/iperf.json)"
	wait_settled
	# The preconditions: the flow ran and a queue stood.
	check_load_flowed "$rate"
	s=$(stats_of qdisc eth0 10:)
	med=$(median </tmp/ldelay)
	diag "codel under HTB: dropped $(dropped "$s"), ldelay samples (us): $(tr '\n' ' ' </tmp/ldelay)"
	if [ -x "$TC_PATCHED" ]; then
		p50=$(hist_p50 eth0 10:)
		check_under_load "$p50" -ge 3 "precondition: a standing queue (median sojourn bucket $p50 < 3, i.e. under 1 ms)"
	fi
	# The judgement: CoDel dropped, and held the sojourn near its 5 ms
	# target from both sides (a 1000-packet FIFO would hold ~1.2 s; an
	# over-eager control law would starve the queue below 2 ms).
	check_cmp "$(dropped "$s")" -gt 0 "CoDel dropped under load"
	check_cmp "$(field "$s" maxpacket)" -le 1514 "MTU-sized packets reached the qdisc"
	check_under_load "$med" -ge 2000 "median sojourn under load not far below the 5 ms target"
	check_under_load "$med" -le 15000 "median sojourn under load near the 5 ms target"
	# Every packet counted, each count against a witness outside codel:
	# near's packets in = delivered + dropped; delivered = what far's NIC
	# received; bytes = what eth0 sent.  (The sender's retransmissions
	# are no exact witness: a segment dropped in the last round trip
	# before iperf3 closes its socket is never sent again.)
	sent=$(sent_pkts "$s") drops=$(dropped "$s")
	check_eq "$((sent + drops))" "$(($(dev_stat veth0 rx_packets) - in0))" "codel delivered + dropped vs packets forwarded from near"
	check_eq "$sent" "$(($(far_stat rx_packets) - out0))" "codel Sent packets vs far's eth1 rx_packets"
	check_eq "$(sent_bytes "$s")" "$(($(dev_stat eth0 tx_bytes) - outb0))" "codel Sent bytes vs eth0 tx_bytes"
	r=$(stats_of qdisc eth0 1:)
	check_eq "$(sent_dropped_of "$r")" "$sent $drops" "HTB root Sent and drops vs codel's"
	check_eq "$(backlog_pkts "$s") $(backlog_bytes "$s")" "0 0" "codel backlog after traffic"
	check_eq "$(backlog_pkts "$r") $(backlog_bytes "$r")" "0 0" "HTB root backlog after traffic"
	check_eq "$(class_backlog eth0 1:10)" "0 0" "HTB class backlog after traffic"
	check_eq "$(dump eth0 | tr '{' '\n' | grep -c '"backlog":0,"qlen":0')" 2 "every qdisc drained"
	log_test "$name"
}

# far_ce_run SECONDS: an ECN-capable bulk TCP flow from near to far for
# SECONDS (JSON in /tmp/iperf.json); sets ce (packets far received with
# CE) and bad (far's IP header and TCP checksum errors) for that run.
far_ce_run() {
	ce0=$(snmp far IpExtInCEPkts)
	bad0=$(($(snmp far IpInHdrErrors) + $(snmp far TcpInCsumErrors)))
	ip netns exec near iperf3 -c "$FAR" -t "$1" -P "${FLOWS:-1}" -J >/tmp/iperf.json 2>&1
	check_err $? "iperf3 client failed: $(tail -n 3 /tmp/iperf.json)"
	wait_settled
	ce=$(($(snmp far IpExtInCEPkts) - ce0))
	bad=$(($(snmp far IpInHdrErrors) + $(snmp far TcpInCsumErrors) - bad0))
}

# ecn_leaf_run KIND MODE: KIND MODE (ecn or noecn) as the leaf of HTB's
# TCP class at $rate, and an ECN-capable bulk flow through it for 3 s.  The
# flow's Not-ECT packets (SYN, pure ACKs, FIN, and retransmissions, which
# Linux sends without ECT) go to the other class: CoDel must drop those,
# so the leaf sees only ECT and CE packets and any drop of its is an
# ECN-capable one.  Judged: with ecn, marks and no drop; with noecn (the
# control), drops and no mark; far received each mark as CE, and no
# corrupted header.  Sets s (the leaf's stats) and marks.
ecn_leaf_run() {
	local kind=$1 mode=$2
	htb_proto_leaf 6 "$rate" "$kind" "$mode"
	check_err $? "HTB with $kind $mode"
	tc filter add dev eth0 parent 1: prio 1 protocol ip u32 \
		match ip protocol 6 0xff match ip tos 0x00 0x03 flowid 1:20
	check_err $? "filter of Not-ECT TCP to 1:20"
	far_ce_run 3
	check_load_flowed "$rate"
	s=$(stats_of qdisc eth0 10:)
	marks=$(field "$s" ecn_mark)
	diag "$kind $mode: far got $ce CE, $bad header/checksum errors; $(echo "$s" | tr -s ' ')"
	diag "Not-ECT TCP and the rest kept out of $kind: $(tc -s class show dev eth0 classid 1:20 | sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p') packets"
	if [ "$mode" = ecn ]; then
		check_cmp "$marks" -gt 0 "$kind ECN-marked packets"
		check_eq "$(dropped "$s")" 0 "ECN-capable packets dropped"
	else
		check_cmp "$(dropped "$s")" -gt 0 "noecn: $kind dropped"
		check_eq "$marks" 0 "noecn: packets ECN-marked"
	fi
	check_eq "$ce" "$marks" "$mode: CE packets at far vs $kind's ecn_mark"
	check_eq "$bad" 0 "$mode: IP header or TCP checksum errors at far"
}

ecn_traffic_marked_not_dropped() {
	name="traffic: ECN-capable TCP is marked, not dropped; far receives each mark; noecn drops instead"
	require_cmd iperf3 "$name" || return
	rate=$(bottleneck 10mbit)
	topo_router_up
	ip netns exec near sysctl -qw net.ipv4.tcp_ecn=1
	iperf_server_up
	for mode in ecn noecn; do
		ecn_leaf_run codel $mode
		tc qdisc del dev eth0 root
	done
	log_test "$name"
}

ce_threshold_marks_traffic() {
	name="traffic: ce_threshold 1ms marks, far receives each mark; ce_threshold 10s marks nothing"
	require_cmd iperf3 "$name" || return
	rate=$(bottleneck 10mbit)
	topo_router_up
	ip netns exec near sysctl -qw net.ipv4.tcp_ecn=1
	iperf_server_up
	for th in 1ms 10s; do
		htb_with_leaf "$rate" codel ce_threshold $th
		check_err $? "HTB with codel ce_threshold $th"
		far_ce_run 3
		check_load_flowed "$rate"
		s=$(stats_of qdisc eth0 10:)
		# tc prints ce_mark only when it is not 0
		marks=$(field "$s" ce_mark | grep . || echo 0)
		diag "codel ce_threshold $th: far got $ce CE, $bad errors; $(echo "$s" | tr -s ' ')"
		if [ $th = 1ms ]; then
			check_cmp "$marks" -gt 0 "ce_threshold 1ms marked packets"
		else
			# The control: a queue stood (CoDel's own 5 ms), yet no
			# sojourn came near 10 s.
			[ -x "$TC_PATCHED" ] && check_under_load "$(hist_p50 eth0 10:)" -ge 3 \
				"precondition: a standing queue under ce_threshold 10s"
			check_eq "$marks" 0 "ce_threshold 10s marked packets"
		fi
		check_eq "$ce" "$marks" "ce_threshold $th: CE packets at far vs codel's ce_mark"
		check_eq "$bad" 0 "ce_threshold $th: IP header or TCP checksum errors at far"
		tc qdisc del dev eth0 root
	done
	log_test "$name"
}

limit_overflow_counted() {
	name="traffic: limit overflow counted as drop_overlimit; every drop and delivery against the NICs"
	require_cmd iperf3 "$name" || return
	topo_router_up
	quiet_path
	# (the debug kernel's sender offers ~9 Mbit/s, not 20: half the rate)
	htb_with_leaf "$(bottleneck 1mbit)" codel limit 5
	iperf_server_up
	in0=$(dev_stat veth0 rx_packets) out0=$(far_stat rx_packets)
	ip netns exec near iperf3 -c "$FAR" -u -b 20M -l 1400 -t 3 >/dev/null 2>&1
	wait_settled
	s=$(stats_of qdisc eth0 10:)
	over=$(field "$s" drop_overlimit) sent=$(sent_pkts "$s") drops=$(dropped "$s")
	diag "codel limit 5: $(echo "$s" | tr -s ' ')"
	# The load: 20 Mbit/s offered to a 1 Mbit/s class; near's packets in
	# are at least twice what got through however slow the sender (the
	# overflow itself is drop_overlimit's to show).
	in=$(($(dev_stat veth0 rx_packets) - in0))
	check_cmp "$in" -ge $((2 * sent)) "precondition: offered load far above the class rate"
	check_cmp "$over" -gt 0 "drop_overlimit counted"
	check_eq "$((sent + drops))" "$in" "codel delivered + dropped vs packets forwarded from near"
	check_eq "$sent" "$(($(far_stat rx_packets) - out0))" "codel Sent vs far's eth1 rx_packets"
	if [ -x "$TC_PATCHED" ]; then
		# Every drop is a tail drop or one of CoDel's (entering the
		# dropping state, or in its loop): no third kind, none lost.
		set -- $(xjson eth0 10: dropping_entries loop_drops)
		check_eq "$((over + $1 + $2))" "$drops" "drop_overlimit + dropping_entries + loop_drops vs drops"
	fi
	check_eq "$(backlog_pkts "$s")" 0 "backlog after traffic"
	log_test "$name"
}

# A queue that cannot drain (an HTB class at 8 bit/s sends its burst, a
# few frames, then nothing for minutes) and 20 frames into codel limit 5: it
# holds exactly 5, and every frame was sent, queued or tail-dropped.
limit_holds_exactly_limit_packets() {
	name="limit: a stalled queue holds exactly limit packets, the rest tail-dropped"
	[ -x "$SEND" ] || { log_skip "$name" "codel-send not in the guest (make guest-tools)"; return; }
	dummy_up
	tc qdisc add dev d0 root handle 1: htb default 1 &&
		tc class add dev d0 parent 1: classid 1:1 htb rate 8bit ceil 8bit &&
		tc qdisc add dev d0 parent 1:1 handle 10: codel limit 5
	check_err $? "htb + codel setup"
	"$SEND" 20 d0 >/dev/null 2>&1	# tail drops fail sendto(): ENOBUFS
	s=$(stats_of qdisc d0 10:)
	diag "$(echo "$s" | tr -s ' ')"
	sent=$(sent_pkts "$s") queued=$(backlog_pkts "$s") over=$(field "$s" drop_overlimit)
	check_cmp "$sent" -le 10 "the class did not stall (sent $sent)"
	check_eq "$queued" 5 "packets queued at limit 5"
	check_eq "$((sent + queued + over))" 20 "sent + queued + tail-dropped"
	check_eq "$(dropped "$s")" "$over" "every drop a tail drop"
	log_test "$name"
}
