# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# fq_codel_ext (sch_fq_codel.c): our fq_codel over codel.h, beside the
# kernel's own fq_codel, which Debian builds in.  Stock tc drives it with
# the tc-codel package's plugin (q_fq_codel_ext.so, make deb).  Sourced by
# all.sh.

ALL_TESTS="$ALL_TESTS
	fq_codel_ext_autoloads_ours
	fq_codel_ext_prints_as_intree
	fq_codel_ext_patched_tc_without_plugin
	fq_codel_ext_rejects_with_reason
	fq_codel_ext_isolates_sparse_flow
	fq_codel_ext_traces_match_counters
	fq_codel_ext_ecn_marks_not_drops
	fq_codel_ext_ce_selector_marks_ect1_only
	fq_codel_ext_hash_headers_survives_rehash
	fq_codel_ext_adaptive_target_follows_link_rate
	fq_codel_ext_overflow_batch_drop_accounted
	fq_codel_ext_filters_and_priority_pick_flows
	fq_codel_ext_split_gso_keeps_accounting
	fq_codel_ext_split_gso_hfsc_class_served
	fq_codel_ext_trim_counts_requeued_once
	fq_codel_ext_new_flow_served_first
	fq_codel_ext_reset_under_load
"

FQ_MODULE=sch_fq_codel_ext

# fq_line DEV: qdisc_line, with the plugin.
fq_line() {
	tc_plugin qdisc show dev "$1" | head -n 1 | sed 's/[[:space:]]*$//'
}

require_fq_plugin() {
	[ -f "$TC_PLUGIN_DIR/q_fq_codel_ext.so" ] && return 0
	log_skip "$1" "the tc plugin q_fq_codel_ext.so is not built (make deb)"
	return 1
}

# fq_codel_ext_autoloads_ours: "tc qdisc add ... fq_codel_ext" loads our
# module by its alias, beside the kernel's built-in fq_codel.
fq_codel_ext_autoloads_ours() {
	rmmod "$FQ_MODULE" 2>/dev/null
	dummy_up
	tc_plugin qdisc add dev d0 root handle 1: fq_codel_ext
	check_err $? "tc qdisc add ... fq_codel_ext"
	module_is_ours "$FQ_MODULE"
	check_err $? "$FQ_MODULE not loaded, or not out-of-tree"
	check_eq "$(modinfo -F filename "$FQ_MODULE")" \
		"/lib/modules/$KERNELRELEASE/updates/$FQ_MODULE.ko" "module file"
	# The kind from the text: without the plugin stock tc's JSON holds
	# "[Unknown qdisc, optlen=N]" where the options go.
	check_eq "$(qdisc_line d0 | cut -d' ' -f2)" fq_codel_ext "kind"
	tc qdisc del dev d0 root
	tc qdisc add dev d0 root handle 1: fq_codel
	check_err $? "the built-in fq_codel beside it"
	check_eq "$(qdisc_line d0 | cut -d' ' -f2)" fq_codel "kind of the built-in"
	module_is_ours "$FQ_MODULE"
	check_err $? "$FQ_MODULE unloaded by the built-in's use"
	tc qdisc del dev d0 root
	log_test "fq_codel_ext: autoloads our module, beside the built-in fq_codel"
}

# The option sets both qdiscs are given: every option, defaults, limits.
FQ_OPTION_SETS="
limit 1000 flows 256 quantum 9000 target 2ms interval 20ms ecn ce_threshold 1ms drop_batch 16 memory_limit 100000
noecn
ce_threshold 3ms ce_threshold_selector 0x1/0x3
target 1us interval 1us
limit 1 flows 65536 quantum 256 memory_limit 2147483648
"

# fq_codel_ext_prints_as_intree: for each option set, stock tc prints the
# same line and JSON for ours as for the kernel's fq_codel, but the kind.
fq_codel_ext_prints_as_intree() {
	require_fq_plugin "fq_codel_ext: tc prints it as the built-in fq_codel" || return
	local opts ref ours n=0
	dummy_up
	while read -r opts; do
		[ -n "$opts" ] || continue
		# shellcheck disable=SC2086
		tc qdisc add dev d0 root handle 1: fq_codel $opts
		check_err $? "built-in fq_codel $opts"
		ref=$(qdisc_line d0; tc -j qdisc show dev d0 | "$TCJ" first)
		tc qdisc del dev d0 root
		# shellcheck disable=SC2086
		tc_plugin qdisc add dev d0 root handle 1: fq_codel_ext $opts
		check_err $? "fq_codel_ext $opts"
		ours=$(fq_line d0
			tc_plugin -j qdisc show dev d0 | "$TCJ" first)
		tc_plugin qdisc del dev d0 root
		# Ours adds split_gso, hash_headers and adaptive_target to the
		# JSON (false by default).
		check_eq "$(echo "$ours" | sed 's/fq_codel_ext/fq_codel/; s/,"split_gso":false,"hash_headers":false,"adaptive_target":false//')" \
			"$ref" "tc's output for '$opts'"
		n=$((n + 1))
	done <<EOF
$FQ_OPTION_SETS
EOF
	check_eq "$n" 5 "option sets compared"
	log_test "fq_codel_ext: tc prints it as the built-in fq_codel ($n option sets)"
}

# fq_codel_ext_patched_tc_without_plugin: tc built with tc-patch/ knows
# fq_codel_ext itself (no plugin directory to load from): it adds,
# changes and prints the qdisc, counters and histogram included, exactly
# as stock tc with the plugin prints it.
fq_codel_ext_patched_tc_without_plugin() {
	local name="fq_codel_ext: the patched tc drives it without the plugin, printing what the plugin prints"
	local opts="limit 2000 flows 512 quantum 1600 target 4ms interval 90ms ce_threshold 3ms memory_limit 16Mb drop_batch 32 split_gso hash_headers"
	local ours ref
	require_patched "$name" || return
	require_fq_plugin "$name" || return
	topo_router_up
	# Nothing but the pings through eth0 between the two dumps compared.
	quiet_path
	# Under HTB: an idle root fq_codel_ext may be bypassed (as the
	# built-in), and the packets would miss its histogram.
	TC_LIB_DIR=/nonexistent $TC_PATCHED -batch - <<-EOF
	qdisc add dev eth0 root handle 1: htb default 10
	class add dev eth0 parent 1: classid 1:10 htb rate 10mbit quantum 1514
	qdisc add dev eth0 parent 1:10 handle 10: fq_codel_ext $opts
	EOF
	check_err $? "patched tc: HTB with fq_codel_ext $opts"
	# Packets through it, so that counters and histogram are not 0.
	ping -q -c 20 -i 0.02 -W 2 "$FAR" >/dev/null
	check_err $? "ping through fq_codel_ext"
	ours=$(TC_LIB_DIR=/nonexistent $TC_PATCHED -s qdisc show dev eth0
		TC_LIB_DIR=/nonexistent $TC_PATCHED -s -j qdisc show dev eth0)
	ref=$(tc_plugin -s qdisc show dev eth0; tc_plugin -s -j qdisc show dev eth0)
	# Precondition: the module's options, counters and histogram printed.
	case $ours in
	*"drop_batch 32 split_gso hash_headers"*"dequeue_calls "*"sojourn <"*'"split_gso":true,"hash_headers":true'*) ;;
	*) check_err 1 "patched tc did not print fq_codel_ext's options and counters: $ours" ;;
	esac
	check_eq "$ours" "$ref" "patched tc vs stock tc with the plugin"
	TC_LIB_DIR=/nonexistent $TC_PATCHED qdisc change dev eth0 parent 1:10 handle 10: \
		fq_codel_ext no_split_gso no_hash_headers no_ce_threshold
	check_err $? "patched tc: change no_split_gso no_hash_headers no_ce_threshold"
	check_eq "$(tc_plugin qdisc show dev eth0 parent 1:10 | sed 's/[[:space:]]*$//')" \
		"qdisc fq_codel_ext 10: parent 1:10 limit 2000p flows 512 quantum 1600 target 4ms interval 90ms memory_limit 16Mb ecn drop_batch 32" \
		"after the patched tc's change"
	tc qdisc del dev eth0 root
	log_test "$name"
}

# fq_codel_ext_rejects_with_reason: each bad value is refused with a
# message naming the option, where the built-in fq_codel clamps it or
# takes it silently, and the qdisc stays as it was.
fq_codel_ext_rejects_with_reason() {
	require_fq_plugin "fq_codel_ext: bad values refused with a reason" || return
	local before args want out
	dummy_up
	out=$(tc_plugin qdisc add dev d0 root handle 1: fq_codel_ext flows 0 2>&1)
	check_fail $? "flows 0 accepted"
	case $out in
	*"fq_codel_ext: flows must be from 1 to 65536"*) ;;
	*) check_err 1 "flows 0: '$out'" ;;
	esac
	check_eq "$(qdisc_line d0 | cut -d' ' -f2)" noqueue "root after flows 0 refused"
	tc_plugin qdisc add dev d0 root handle 1: fq_codel_ext limit 500 flows 64
	check_err $? "setup"
	before=$(fq_line d0)
	while IFS='|' read -r args want; do
		[ -n "$args" ] || continue
		# shellcheck disable=SC2086
		out=$(tc_plugin qdisc change dev d0 root handle 1: fq_codel_ext $args 2>&1)
		check_fail $? "'$args' accepted"
		case $out in
		*"$want"*) ;;
		*) check_err 1 "'$args': '$out' does not say '$want'" ;;
		esac
		check_eq "$(fq_line d0)" "$before" \
			"qdisc after '$args'"
	done <<'EOF'
quantum 255|fq_codel_ext: quantum must be from 256 to 1048576 bytes
quantum 1048577|fq_codel_ext: quantum must be from 256 to 1048576 bytes
limit 0|fq_codel_ext: limit must be at least 1 packet
drop_batch 0|fq_codel_ext: drop_batch must be at least 1 packet
memory_limit 0|fq_codel_ext: memory_limit must be from 1 byte to 2GB
target 101s|fq_codel_ext: target must be at most 100s
interval 101s|fq_codel_ext: interval must be at most 100s
ce_threshold 101s|fq_codel_ext: ce_threshold must be at most 100s
flows 128|fq_codel_ext: flows can only be set when the qdisc is created
ce_threshold 1ms no_ce_threshold|fq_codel_ext: ce_threshold given and switched off at once
ce_threshold_selector 0x4/0x3|fq_codel_ext: ce_threshold_selector has bits outside its mask
EOF
	tc_plugin qdisc change dev d0 root handle 1: fq_codel_ext flows 64
	check_err $? "flows unchanged refused"
	tc qdisc del dev d0 root
	log_test "fq_codel_ext: bad values refused with a reason, nothing changed"
}

# fq_codel_ext_isolates_sparse_flow: bulk TCP (two flows) fills a 10 Mbit/s
# HTB class whose leaf is fq_codel_ext, while near pings far.  The bulk
# flows keep standing queues that CoDel holds near its 5 ms target; each
# ping finds its own flow empty, goes on new_flows ahead of them, and so waits
# for no queue: its median RTT stays under the target (a single FIFO, even
# CoDel's, would add the standing queue to every ping).
fq_codel_ext_isolates_sparse_flow() {
	local name="fq_codel_ext: under bulk TCP, a sparse flow skips the standing queue"
	local rate s sent drops in0 out0 med pings nf bulk
	require_cmd iperf3 "$name" || return
	require_fq_plugin "$name" || return
	rate=$(bottleneck 10mbit)
	topo_router_up
	quiet_path
	# Our counters (new_flow_count) read with the plugin.
	export TC_LIB_DIR=$TC_PLUGIN_DIR
	# target 20 ms: the bulk flows' queue stands near it, so a ping that
	# waited in it would take 20 ms more than one that skipped it.
	htb_with_leaf "$rate" fq_codel_ext target 20ms interval 200ms
	check_err $? "HTB with an fq_codel_ext leaf"
	iperf_server_up
	in0=$(dev_stat veth0 rx_packets) out0=$(far_stat rx_packets)
	# Two bulk flows: while one backs off after a drop the other keeps
	# the link full (one flow alone filled 8.03 Mbit/s of 10 on an idle
	# machine at c32d542, under the precondition's 8.5).
	ip netns exec near iperf3 -c "$FAR" -t 6 -P 2 -J >/tmp/iperf.json 2>&1 &
	# Pings from 2 s on, once the bulk flows have their standing queues.
	sleep 2
	ip netns exec near ping -c 30 -i 0.1 -W 2 "$FAR" >/tmp/ping.out 2>&1
	wait $!
	check_err $? "iperf3 client failed: $(tail -n 3 /tmp/iperf.json)"
	wait_settled
	# The load is proven below by the queue it left (CoDel's drops and
	# the bulk flows' RTT), not by goodput: a slow host's guest once
	# sent 7.8 Mbit/s of 10 with a standing queue all the same.
	diag "goodput $(iperf_goodput) bit/s through the $rate bottleneck"
	s=$(stats_of qdisc eth0 10:)
	sent=$(sent_pkts "$s") drops=$(dropped "$s")
	diag "fq_codel_ext: sent $sent, dropped $drops, new_flow_count $(field "$s" new_flow_count), ping: $(tail -n 1 /tmp/ping.out)"
	# Preconditions: the bulk flow's queue stood (CoDel dropped) and the
	# pings went through the qdisc, each as a new flow.
	check_cmp "$drops" -gt 0 "precondition: CoDel dropped from the bulk flow"
	pings=$(grep -c ' time=' /tmp/ping.out)
	check_cmp "$pings" -ge 27 "precondition: pings answered ($pings of 30)"
	nf=$(field "$s" new_flow_count)
	check_cmp "$nf" -ge "$pings" "each ping went on new_flows ($nf new flows)"
	# The judgement: the pings skipped the bulk flow's queue.
	med=$(sed -n 's/.* time=\([0-9.]*\) ms$/\1/p' /tmp/ping.out | sort -n |
		awk '{ v[NR] = $1 } END { printf "%d\n", v[int((NR + 1) / 2)] * 1000 }')
	# Judged against the bulk flows' own RTT, as their sender's TCP
	# measured it (iperf3's mean_rtt, the lower of the two): both cross
	# the same path, whose delay outside the qdisc TCG alone makes 1.4 to
	# 9 ms here, so only the queue the pings skipped tells them apart.
	bulk=$(awk '/^[ \t]*"end":/ { e = 1 }
		e && /"mean_rtt":/ { v = $2; sub(/,$/, "", v)
			if (m == "" || v + 0 < m) m = v + 0 }
		END { print m + 0 }' /tmp/iperf.json)
	diag "median ping RTT ${med} us; the bulk flows' mean RTT ${bulk} us (iperf3's sender)"
	check_cmp "$bulk" -ge 15000 "precondition: the bulk flows' queue stood (their mean RTT at least 3/4 of the target)"
	check_under_load "$((med + 10000))" -lt "$bulk" "median ping RTT at least half the 20 ms target under the bulk flows'"
	# Every packet counted: near's packets in = delivered + dropped, and
	# delivered = what far's NIC received.
	check_eq "$((sent + drops))" "$(($(dev_stat veth0 rx_packets) - in0))" \
		"fq_codel_ext delivered + dropped vs packets forwarded from near"
	check_eq "$sent" "$(($(far_stat rx_packets) - out0))" \
		"fq_codel_ext Sent packets vs far's eth1 rx_packets"
	check_eq "$(backlog_pkts "$s") $(backlog_bytes "$s")" "0 0" "backlog after traffic"
	unset TC_LIB_DIR
	log_test "$name"
}

# fq_codel_ext_traces_match_counters: bulk TCP (not ECN-capable: noecn
# anyway) through a 10 Mbit/s HTB class whose leaf is fq_codel_ext, with
# its drop tracepoints on.  Every drop is CoDel's (limit and memory never
# bind), so the congested skb_drop events, the drop events, codel_drops
# and tc's drops are the same number; the qdisc's histogram counts every
# packet it delivered; the bulk flow's class, read under load, holds its
# own histogram.
fq_codel_ext_traces_match_counters() {
	local name="fq_codel_ext: drop tracepoints, codel_drops, drops and the histograms agree"
	local T=/sys/kernel/tracing E rate s sent drops ev_skb ev_drop hist cls
	require_fq_plugin "$name" || return
	require_cmd iperf3 "$name" || return
	rate=$(bottleneck 10mbit)
	topo_router_up
	quiet_path
	export TC_LIB_DIR=$TC_PLUGIN_DIR
	htb_with_leaf "$rate" fq_codel_ext noecn
	check_err $? "HTB with an fq_codel_ext leaf"
	lsmod | grep -q "^$FQ_MODULE " || check_err 1 "$FQ_MODULE not loaded"
	E=$T/events/fq_codel_ext
	echo >$T/trace
	echo 1 >$E/fq_codel_ext_skb_drop/enable
	echo 1 >$E/fq_codel_ext_drop/enable
	iperf_server_up
	# Two flows: one alone filled the link to only 4.0 Mbit/s once here,
	# and the precondition then fails.
	ip netns exec near iperf3 -c "$FAR" -t 5 -P 2 -J >/tmp/iperf.json 2>&1 &
	sleep 3
	tc -s class show dev eth0 parent 10: >/tmp/fq-classes.txt
	wait $!
	check_err $? "iperf3 client failed: $(tail -n 3 /tmp/iperf.json)"
	wait_settled
	echo 0 >$E/fq_codel_ext_skb_drop/enable
	echo 0 >$E/fq_codel_ext_drop/enable
	check_load_flowed "$rate"
	s=$(stats_of qdisc eth0 10:)
	sent=$(sent_pkts "$s") drops=$(dropped "$s")
	check_cmp "$drops" -gt 0 "precondition: CoDel dropped"
	ev_skb=$(grep -c 'fq_codel_ext_skb_drop: dev=eth0 handle=10: flow=[0-9]* reason=congested' $T/trace)
	ev_drop=$(grep -c 'fq_codel_ext_drop: dev=eth0 handle=10: flow=' $T/trace)
	diag "sent $sent, drops $drops, codel_drops $(field "$s" codel_drops), events: skb_drop $ev_skb, drop $ev_drop"
	check_eq "$(grep -c 'fq_codel_ext_skb_drop:' $T/trace)" "$ev_skb" "every skb_drop event is congested"
	check_eq "$ev_skb" "$drops" "congested skb_drop events vs tc's drops"
	check_eq "$ev_drop" "$drops" "drop events vs tc's drops"
	check_eq "$(field "$s" codel_drops)" "$drops" "codel_drops vs tc's drops"
	check_eq "$(field "$s" drop_overlimit)" 0 "no drop over the limit"
	hist=$(hist_total "$s")
	check_eq "$hist" "$sent" "the qdisc's histogram counts every packet delivered"
	check_hist_sum "$(field "$s" sojourn_hist)" "$(field "$s" sojourn_sum_ns)" fq_codel_ext
	echo >$T/trace
	# Under load the bulk flow was a class with its CoDel state and its
	# own histogram (text: Debian 12's tc prints classes so).
	cls=$(grep -c '^class fq_codel_ext 10:[0-9a-f]* parent 10:' /tmp/fq-classes.txt)
	check_cmp "$cls" -ge 1 "an active flow listed as a class under load"
	grep -q '^  deficit -*[0-9]* count [0-9]* lastcount [0-9]* ldelay ' /tmp/fq-classes.txt
	check_err $? "a class's CoDel state: $(head -n 8 /tmp/fq-classes.txt | tr '\n' '|')"
	grep -q '^  sojourn <' /tmp/fq-classes.txt
	check_err $? "a class's histogram: $(head -n 8 /tmp/fq-classes.txt | tr '\n' '|')"
	unset TC_LIB_DIR
	log_test "$name"
}

# fq_codel_ext_overflow_batch_drop_accounted: 20 Mbit/s of UDP in two
# flows into fq_codel_ext limit 40 under a 1 Mbit/s HTB class.  Over the
# limit, enqueue drops a batch from the fattest flow, often the packet's
# own: the parents must hear of every packet dropped (CVE-2025-37798's
# class of bug leaves HTB counting packets that are gone).
fq_codel_ext_overflow_batch_drop_accounted() {
	local name="fq_codel_ext: over its limit the batch drop is counted, and HTB hears of every packet"
	local in0 out0 in s root sent drops over
	require_fq_plugin "$name" || return
	require_cmd iperf3 "$name" || return
	topo_router_up
	quiet_path
	export TC_LIB_DIR=$TC_PLUGIN_DIR
	# (the debug kernel's sender offers ~9 Mbit/s, not 20: half the rate)
	htb_with_leaf "$(bottleneck 1mbit)" fq_codel_ext limit 40 drop_batch 8
	check_err $? "HTB with fq_codel_ext limit 40"
	iperf_server_up
	in0=$(dev_stat veth0 rx_packets) out0=$(far_stat rx_packets)
	ip netns exec near iperf3 -c "$FAR" -u -b 10M -l 1400 -P 2 -t 3 >/dev/null 2>&1
	wait_settled
	s=$(stats_of qdisc eth0 10:) root=$(stats_of qdisc eth0 1:)
	sent=$(sent_pkts "$s") drops=$(dropped "$s") over=$(field "$s" drop_overlimit)
	in=$(($(dev_stat veth0 rx_packets) - in0))
	diag "fq_codel_ext limit 40: forwarded $in; $(echo "$s" | tr -s ' ')"
	# The load: near forwarded twice what the class let through (the
	# debug kernel's sender, beside another guest, offered 4 times);
	# that the queue overflowed is drop_overlimit's to show.
	check_cmp "$in" -ge $((2 * sent)) "precondition: offered load far above the class rate"
	check_cmp "$over" -gt 0 "precondition: drops over the limit"
	check_eq "$((sent + drops))" "$in" "delivered + dropped vs packets forwarded from near"
	check_eq "$sent" "$(($(far_stat rx_packets) - out0))" "Sent vs far's eth1 rx_packets"
	check_eq "$(( $(field "$s" codel_drops) + over ))" "$drops" "codel_drops + drop_overlimit vs drops"
	check_eq "$(sent_pkts "$root") $(dropped "$root")" "$sent $drops" "HTB's Sent and drops vs its child's"
	check_eq "$(backlog_pkts "$root") $(backlog_bytes "$root")" "0 0" "HTB's backlog after the drain"
	check_eq "$(backlog_pkts "$s") $(field "$s" memory_used | grep . || echo 0)" "0 0" "fq_codel_ext's backlog and memory after the drain"
	unset TC_LIB_DIR
	log_test "$name"
}

# udp_classes CMD...: 3 Mbit/s of UDP from near to far for 3 s; halfway,
# classes is set to the flows (classes) of fq_codel_ext 10: that hold
# packets, and CMD runs alongside; then the path settles.
udp_classes() {
	ip netns exec near iperf3 -c "$FAR" -u -b 3M -l 1400 -t 3 >/dev/null 2>&1 &
	sleep 1.5
	classes=$(tc -s class show dev eth0 parent 10: |
		sed -n 's/^class fq_codel_ext \(10:[0-9a-f]*\) parent 10:.*/\1/p' | tr '\n' ' ')
	"$@" >/dev/null 2>&1
	wait $!
	wait_settled
}

# fq_codel_ext_filters_and_priority_pick_flows: as the in-tree fq_codel,
# a filter on the qdisc picks the flow (class minor), a filter that shoots
# drops the packet and counts it, and skb->priority naming the qdisc's
# handle picks the flow before any filter.  The flows in use show as
# classes while they hold packets.
fq_codel_ext_filters_and_priority_pick_flows() {
	local name="fq_codel_ext: filters and skb->priority pick the flow; a shot packet is counted as a drop"
	local s drops classes
	require_fq_plugin "$name" || return
	require_cmd iperf3 "$name" || return
	topo_router_up
	quiet_path
	export TC_LIB_DIR=$TC_PLUGIN_DIR
	htb_with_leaf "$(bottleneck 1mbit)" fq_codel_ext
	check_err $? "HTB with fq_codel_ext"
	# With filters, a packet none matches is dropped: the catch-all
	# keeps iperf3's TCP control connection (to the same flow).
	tc -batch - <<-EOF
	filter add dev eth0 parent 10: prio 1 protocol ip u32 match ip protocol 1 0xff action drop
	filter add dev eth0 parent 10: prio 2 protocol ip u32 match u32 0 0 flowid 10:7
	EOF
	check_err $? "filters on fq_codel_ext 10:"
	iperf_server_up
	udp_classes ip netns exec near ping -q -c 5 -i 0.1 -W 1 "$FAR"
	s=$(stats_of qdisc eth0 10:)
	drops=$(dropped "$s")
	diag "filters: classes under load: $classes; $(echo "$s" | tr -s ' ')"
	check_eq "$classes" "10:7 " "the UDP flow is class 10:7, the filter's"
	check_cmp "$(sent_pkts "$s")" -gt 100 "precondition: UDP went through"
	# The 5 pings were shot by the filter: drops, not CoDel's nor the limit's.
	check_eq "$((drops - $(field "$s" codel_drops) - $(field "$s" drop_overlimit)))" 5 "pings dropped by the filter"
	tc qdisc del dev eth0 root
	# skb->priority 10:400 (flow 1024 of 1024, the last), set by HTB's
	# filter, wins over fq_codel_ext's filters.
	htb_with_leaf "$(bottleneck 1mbit)" fq_codel_ext
	check_err $? "HTB with fq_codel_ext, again"
	tc -batch - <<-EOF
	filter add dev eth0 parent 1: prio 1 protocol ip u32 match u32 0 0 classid 1:10 action skbedit priority 10:400
	filter add dev eth0 parent 10: prio 1 protocol ip u32 match u32 0 0 flowid 10:7
	EOF
	check_err $? "skbedit priority 10:400 on HTB, a filter to 10:7 on fq_codel_ext"
	udp_classes true
	diag "priority: classes under load: $classes"
	check_eq "$classes" "10:400 " "the UDP flow is class 10:400, from skb->priority"
	unset TC_LIB_DIR
	log_test "$name"
}

# fq_codel_ext_ecn_marks_not_drops: ecn_traffic_marked_not_dropped
# (codel-traffic.sh's ecn_leaf_run) through fq_codel_ext, each mark also
# traced.
fq_codel_ext_ecn_marks_not_drops() {
	local name="fq_codel_ext: ECN-capable TCP is marked, not dropped; each mark traced and received; noecn drops"
	local T=/sys/kernel/tracing E rate mode s marks ev ce bad
	# Two flows, as in the traces test (far_ce_run reads FLOWS).
	local FLOWS=2
	require_fq_plugin "$name" || return
	require_cmd iperf3 "$name" || return
	rate=$(bottleneck 10mbit)
	topo_router_up
	ip netns exec near sysctl -qw net.ipv4.tcp_ecn=1
	export TC_LIB_DIR=$TC_PLUGIN_DIR
	E=$T/events/fq_codel_ext/fq_codel_ext_ecn_mark
	iperf_server_up
	for mode in ecn noecn; do
		echo >$T/trace
		echo 1 >$E/enable
		ecn_leaf_run fq_codel_ext $mode
		echo 0 >$E/enable
		ev=$(grep -c 'fq_codel_ext_ecn_mark: dev=eth0 handle=10: flow=' $T/trace)
		diag "fq_codel_ext $mode: $ev mark events"
		check_eq "$ev" "$marks" "$mode: ecn_mark events vs ecn_mark"
		tc qdisc del dev eth0 root
	done
	echo >$T/trace
	unset TC_LIB_DIR
	log_test "$name"
}

# fq_codel_ext_ce_selector_marks_ect1_only: ce_threshold 500us with
# ce_threshold_selector 0x1/0x3 under a 1 Mbit/s HTB class, 2 Mbit/s of
# UDP: marked as ECT(1), CoDel's ce_threshold marks it; as ECT(0), the
# same queue marks nothing.  Only the flow's ECT packets reach the class
# (iperf3 sends its first datagram Not-ECT).  noecn: CoDel's control law drops rather
# than marks, so every CE far sees is ce_threshold's.  The witness is far's IP stack, which counts
# each packet it receives by its ECN codepoint: what it got as CE is
# ce_mark, and CE + ECT(1) (or ECT(0)) is every packet fq_codel_ext sent.
fq_codel_ext_ce_selector_marks_ect1_only() {
	local name="fq_codel_ext: ce_threshold_selector 0x1/0x3 marks ECT(1) only; far receives each mark"
	local tos s marks sent ce ect1 ect0 ce0 ect10 ect00
	require_fq_plugin "$name" || return
	require_cmd iperf3 "$name" || return
	topo_router_up
	quiet_path
	export TC_LIB_DIR=$TC_PLUGIN_DIR
	iperf_server_up
	for tos in 1 2; do
		tc qdisc add dev eth0 root handle 1: htb default 20 &&
			tc class add dev eth0 parent 1: classid 1:10 htb rate 1mbit quantum 1514 &&
			tc class add dev eth0 parent 1: classid 1:20 htb rate 1mbit quantum 1514 &&
			tc qdisc add dev eth0 parent 1:10 handle 10: fq_codel_ext noecn \
				ce_threshold 500us ce_threshold_selector 0x1/0x3 &&
			tc filter add dev eth0 parent 1: protocol ip u32 match ip protocol 17 0xff \
				match ip tos $tos 0x03 flowid 1:10
		check_err $? "setup (tos $tos)"
		ce0=$(snmp far IpExtInCEPkts) ect10=$(snmp far IpExtInECT1Pkts) ect00=$(snmp far IpExtInECT0Pkts)
		udp_burst 2M 1 --tos $tos
		s=$(stats_of qdisc eth0 10:)
		marks=$(field "$s" ce_mark | grep . || echo 0) sent=$(sent_pkts "$s")
		ce=$(($(snmp far IpExtInCEPkts) - ce0))
		ect1=$(($(snmp far IpExtInECT1Pkts) - ect10))
		ect0=$(($(snmp far IpExtInECT0Pkts) - ect00))
		diag "tos $tos: sent $sent, ce_mark $marks; far got CE $ce, ECT(1) $ect1, ECT(0) $ect0"
		check_cmp "$sent" -gt 50 "precondition: the UDP flow went through fq_codel_ext (tos $tos)"
		# Buckets 2 and up: sojourns from 524 us.
		check_cmp "$(field "$s" sojourn_hist | awk -F, '{ for (i = 3; i <= NF; i++) n += $i } END { print n + 0 }')" \
			-gt $((sent / 2)) "precondition: most packets waited past 500us (tos $tos)"
		check_eq "$ce" "$marks" "tos $tos: CE at far vs ce_mark"
		if [ $tos = 1 ]; then
			check_cmp "$marks" -gt 0 "ECT(1) packets marked"
			check_eq "$((ce + ect1))" "$sent" "ECT(1): CE + ECT(1) at far vs Sent"
		else
			check_eq "$marks" 0 "ECT(0) packets marked"
			check_eq "$ect0" "$sent" "ECT(0) at far vs Sent"
		fi
		tc qdisc del dev eth0 root
	done
	unset TC_LIB_DIR
	log_test "$name"
}

# fq_codel_ext_hash_headers_survives_rehash: one UDP 5-tuple from the
# router to far in 3 rounds of 5 datagrams, its socket connected again
# before each round: a new sk_txhash each time, as TCP draws at each
# retransmission timeout (tests/tools/udp-rehash.c).  Queued under a
# stalled TBF, then served at 100 kbit/s, fq_codel_ext with quantum
# 256 serves one 1000-byte datagram a turn, so flows that hold packets at
# once interleave (target 10s: CoDel drops none of them, 83 ms each on the
# wire).  The witness is the
# order in which far receives them: by the packet's own hash (the
# default, as the built-in fq_codel) the rounds are 3 flows and arrive
# interleaved; with hash_headers they are one flow and arrive as sent.
# (The 3 rounds share a bucket of 1024 with probability 2^-20.)
fq_codel_ext_hash_headers_survives_rehash() {
	local name="fq_codel_ext: hash_headers keeps a rehashing sender in one flow (far's arrival order)"
	local mode s order classes rpid sent_order
	local R=/usr/local/bin/udp-rehash
	require_fq_plugin "$name" || return
	[ -x "$R" ] || { log_skip "$name" "udp-rehash not in the guest (make guest-tools)"; return; }
	topo_router_up
	quiet_path
	export TC_LIB_DIR=$TC_PLUGIN_DIR
	sent_order=$(seq 0 14 | tr '\n' ' ')
	for mode in no_hash_headers hash_headers; do
		# TBF stalled (8 bit/s; its burst passes one datagram) while
		# all 15 are queued, so that no pause of the sender's decides
		# how they meet in the qdisc; then opened.
		tc qdisc add dev eth0 root handle 1: tbf rate 8bit burst 1600 latency 100s &&
			tc qdisc add dev eth0 parent 1:1 handle 10: fq_codel_ext quantum 256 \
				target 10s interval 10s $mode
		check_err $? "TBF with fq_codel_ext quantum 256 $mode"
		in_ns far "$R" recv 5001 15 5000 >/tmp/rehash.order &
		rpid=$!
		# Port 5001 (1389 in hex) bound at far before the first send.
		busywait 3000 in_ns far grep -q ':1389 ' /proc/net/udp
		check_err $? "far's receiver bound"
		"$R" send "$FAR" 5001 5000 3 5
		check_err $? "udp-rehash send ($mode)"
		# The flows holding packets, then TBF opened.
		classes=$(tc -s class show dev eth0 parent 10: | grep -c '^class fq_codel_ext 10:')
		tc qdisc change dev eth0 root handle 1: tbf rate 100kbit burst 1600 latency 100s
		check_err $? "TBF opened to 100kbit"
		# A change does not wake TBF's watchdog: one more packet (a
		# ping, a flow of its own) makes the device run the queue.
		ping -c 1 -W 1 "$FAR" >/dev/null 2>&1
		wait $rpid
		check_err $? "far received the 15 datagrams ($mode): $(tr '\n' ' ' </tmp/rehash.order)"
		s=$(stats_of qdisc eth0 10:)
		order=$(tr '\n' ' ' </tmp/rehash.order)
		diag "$mode: $classes classes under load; far's order: $order"
		check_eq "$(sent_pkts "$s")" 16 "precondition: the 15 datagrams and the ping left through fq_codel_ext ($mode)"
		if [ "$mode" = hash_headers ]; then
			check_eq "$order" "$sent_order" "hash_headers: far received them as sent"
			check_eq "$classes" 1 "hash_headers: one flow under load"
		else
			[ "$order" != "$sent_order" ]
			check_err $? "sender's hash: the rounds were not interleaved (one flow?)"
			check_cmp "$classes" -ge 2 "sender's hash: flows under load"
		fi
		tc qdisc del dev eth0 root
	done
	unset TC_LIB_DIR
	log_test "$name"
}

# fq_codel_ext_split_gso_keeps_accounting: codel's split_gso test
# (split_gso_accounting, codel-features.sh) with an fq_codel_ext leaf.
fq_codel_ext_split_gso_keeps_accounting() {
	local name="fq_codel_ext: split_gso segments at enqueue, parents' accounting exact"
	require_fq_plugin "$name" || return
	require_cmd iperf3 "$name" || return
	export TC_LIB_DIR=$TC_PLUGIN_DIR
	split_gso_accounting "$name" tc fq_codel_ext
	unset TC_LIB_DIR
}

# far_rx_reaches N: far has received at least N packets.
far_rx_reaches() { [ "$(far_stat rx_packets)" -ge "$1" ]; }

# fq_codel_ext_split_gso_hfsc_class_served: a GSO packet whose first
# segment's batch drop empties the leaf (it takes the one small packet
# queued and the segment itself) while its second segment queues.  HFSC
# activates a class only if its qdisc was empty before the enqueue, so a
# leaf that told it "empty" half-way leaves the class passive with a packet
# nobody serves.  The far side's count is the witness: segment 2 arrives,
# then a probe sent after it.  HFSC is the parent that can stall: DRR, QFQ
# and ETS on these kernels activate a class that is off their active
# list, whatever its qlen was (docs/fq_codel.md, "split_gso").
fq_codel_ext_split_gso_hfsc_class_served() {
	local name="fq_codel_ext: split_gso under HFSC: a batch drop that empties the leaf mid-packet leaves its class served"
	require_fq_plugin "$name" || return
	require_cmd /usr/local/bin/gso-burst "$name" || return
	local rx0
	gso_sender_up
	# One class, link-share with an upper limit of 8 kbit/s: HFSC peeks
	# only for real-time curves, so a packet the limit holds stays in
	# the leaf's flow, where a batch drop can take it.
	TC_LIB_DIR=$TC_PLUGIN_DIR tc -batch - <<-EOF
	qdisc add dev eth0 root handle 1: hfsc default 1
	class add dev eth0 parent 1: classid 1:1 hfsc ls m2 8kbit ul m2 8kbit
	qdisc add dev eth0 parent 1:1 handle 10: fq_codel_ext limit 1 flows 1 split_gso
	EOF
	check_err $? "hfsc class at 8 kbit/s, leaf fq_codel_ext limit 1 flows 1 split_gso"
	rx0=$(far_stat rx_packets)
	# P0 (1442 B on the wire) leaves at once and puts the class 1.44 s
	# past its limit; P1 (102 B) waits in the leaf.
	check_eq "$(gso_burst 1 1 1400)" 1 "precondition: P0 sent"
	busywait 3000 far_rx_reaches $((rx0 + 1))
	check_err $? "precondition: P0 reached far"
	check_eq "$(gso_burst 1 1 60)" 1 "precondition: P1 sent"
	# Two segments of 742 B: the first finds the leaf over its limit,
	# and the fattest flow's batch drop goes past half its bytes only
	# with P1 and the segment itself; the second segment then queues.
	check_eq "$(gso_burst 1 2 700)" 1 "precondition: one GSO packet of two segments sent"
	set -- $(xjson eth0 10: qlen drops) "$(far_stat rx_packets)"
	check_eq "$*" "1 2 $((rx0 + 1))" \
		"precondition: P1 held until the GSO packet came; P1 and segment 1 dropped, segment 2 queued (leaf qlen, drops; far's rx)"
	busywait 5000 far_rx_reaches $((rx0 + 2))
	check_err $? "segment 2 reached far (the class was left active)"
	check_eq "$(gso_burst 1 1 60)" 1 "precondition: probe sent"
	busywait 5000 far_rx_reaches $((rx0 + 3))
	check_err $? "a later packet of the class reached far"
	check_eq "$(far_stat rx_packets)" $((rx0 + 3)) "far received P0, segment 2 and the probe, nothing else"
	check_eq "$(backlog_of "$(stats_of qdisc eth0 1:)")" "0 0" "HFSC's backlog after"
	log_test "$name"
}

# slip_fq_up NAME OPTIONS...: the SLIP line (slip_up) with fq_codel_ext
# OPTIONS at its root, driven by stock tc and the plugin, and a sender at
# near; returns 1 when the test cannot run here (logged as skipped).
slip_fq_up() {
	local name=$1
	shift
	require_fq_plugin "$name" || return 1
	require_cmd /usr/local/bin/gso-burst "$name" || return 1
	require_cmd /usr/local/bin/slip-pty "$name" || return 1
	export TC_LIB_DIR=$TC_PLUGIN_DIR
	gso_sender_up
	slip_up
	check_err $? "SLIP over a pseudo-terminal"
	tc qdisc add dev "$SLIP_DEV" root handle 1: fq_codel_ext "$@"
	check_err $? "fq_codel_ext $* at the root of $SLIP_DEV"
}

# slip_two_flows: flows 1:1 (to .2) and 1:2 (to .3) by filter, not by
# hash (two hashes may share a flow).  A qdisc with filters is never
# bypassed.
slip_two_flows() {
	ip route add 198.19.9.3 dev "$SLIP_DEV" && tc -batch - <<-EOF
	filter add dev $SLIP_DEV parent 1: protocol ip prio 1 u32 match ip dst 198.19.9.2/32 classid 1:1
	filter add dev $SLIP_DEV parent 1: protocol ip prio 1 u32 match ip dst 198.19.9.3/32 classid 1:2
	EOF
}

# slip_send HOST COUNT SEGS SIZE: gso-burst from near to 198.19.9.HOST.
slip_send() {
	local host=$1
	shift
	in_ns near /usr/local/bin/gso-burst "198.19.9.$host" "$@"
}

# slip_fq_done NAME: the line closed, the plugin unset, the test logged.
slip_fq_done() {
	slip_down
	unset TC_LIB_DIR
	log_test "$1"
}

# fq_codel_ext_trim_counts_requeued_once: the root qdisc of a SLIP line
# read one frame at a time hands one GSO packet of 8 segments to the
# device; the device takes segment 1 and stops its queue, and the core
# requeues the other 7 into the qdisc, where they wait.  Lowering the limit
# to 1 trims 6 of them: drops, but the histograms counted their packet
# once, when it left its flow, and keep it once.  Two plain packets go
# first: an empty root qdisc is bypassed (TCQ_F_CAN_BYPASS), so the GSO
# packet must find one waiting to be queued in a flow at all.  The line
# is the witness: it carries the two, segment 1, then the one segment left.
fq_codel_ext_trim_counts_requeued_once() {
	local name="fq_codel_ext: a trim drops the core's requeued segments; the histograms keep their packet once"
	local s
	slip_fq_up "$name" || return
	# A: bypasses the qdisc, and the line holds it.  B: finds the
	# queue stopped and is requeued.  G: queued in its flow behind B.
	check_eq "$(slip_send 2 2 1 100)" 2 "precondition: two plain packets sent"
	busywait 3000 qlen_is "$SLIP_DEV" 1: 1
	check_eq "$(slip_send 2 1 8 100)" 1 "precondition: one GSO packet of 8 segments of 100 B sent"
	busywait 3000 qlen_is "$SLIP_DEV" 1: 2
	s=$(stats_of qdisc "$SLIP_DEV" 1:)
	check_eq "$(field "$s" qlen) $(field "$s" requeues) $(field "$s" dequeue_calls)" "2 1 0" \
		"precondition: B requeued, G in its flow, nothing dequeued (qlen, requeues, dequeue_calls)"
	check_eq "$(slip_frames once)" 1 "precondition: the line carried A"
	busywait 3000 qlen_is "$SLIP_DEV" 1: 1
	check_eq "$(slip_frames once)" 2 "precondition: the line carried B"
	busywait 3000 qlen_is "$SLIP_DEV" 1: 7
	s=$(stats_of qdisc "$SLIP_DEV" 1:)
	check_eq "$(field "$s" packets) $(field "$s" qlen) $(field "$s" requeues) $(field "$s" drops)" \
		"10 7 8 0" \
		"precondition: G left its flow, 7 of its segments came back requeued (Sent, qlen, requeues, drops)"
	check_eq "$(field "$s" sojourn_hist | tr ',' '\n' | awk '{ n += $1 } END { print n }')" 1 \
		"precondition: the histogram counted G"
	tc qdisc change dev "$SLIP_DEV" root fq_codel_ext limit 1
	check_err $? "limit lowered to 1"
	s=$(stats_of qdisc "$SLIP_DEV" 1:)
	check_eq "$(field "$s" packets) $(field "$s" drops) $(field "$s" qlen)" "10 6 1" \
		"after the trim: Sent (segments), drops, qlen"
	check_eq "$(field "$s" sojourn_hist | tr ',' '\n' | awk '{ n += $1 } END { print n }')" 1 \
		"the qdisc's histogram still holds G once"
	check_hist_sum "$(field "$s" sojourn_hist)" "$(field "$s" sojourn_sum_ns)" "after the trim"
	# G's flow (its class) counts it once too.
	check_eq "$(tc -s class show dev "$SLIP_DEV" | awk '$1 == "sojourn" {
		for (i = 2; i <= NF; i++) { split($i, a, ":"); n += a[2] } } END { print n + 0 }')" 1 \
		"the flows' histograms still hold G once"
	check_eq "$(slip_frames)" 4 "the line carried A, B, segment 1 and the segment the trim left"
	s=$(stats_of qdisc "$SLIP_DEV" 1:)
	check_eq "$(field "$s" qlen) $(field "$s" packets) $(field "$s" drops)" "0 10 6" "drained: qlen, Sent, drops"
	slip_fq_done "$name"
}

# fq_codel_ext_new_flow_served_first: the order a SLIP line carries, read
# one frame at a time so that each read lets one packet out.  Flow 1 (30
# packets of 128 B to .2, the last one 228 B: the line shows the flow's
# own order too) spends its 1514 B quantum on new_flows, goes to
# old_flows with another quantum and is served from there: old_flows' only
# flow, with credit left.  Then one packet of flow 2 (to .3) comes: a new
# flow is served next, ahead of the old flow's credit.  Put on old_flows
# it would wait behind flow 1 for ten more packets; plain DRR cannot be
# told from fq_codel while no old flow has credit left, which is why flow
# 1 must get there first.  CoDel's target and interval are at their 100 s
# maximum: it drops nothing while the line is read slowly.
fq_codel_ext_new_flow_served_first() {
	local name="fq_codel_ext: a flow that becomes active goes before an old flow's credit (the line's order)"
	local n=0 qlen=29 s
	slip_fq_up "$name" flows 2 quantum 1514 target 100s interval 100s || return
	slip_two_flows
	check_err $? "one filter per destination"
	check_eq "$(slip_send 2 29 1 100)" 29 "precondition: 29 packets of flow 1 sent"
	check_eq "$(slip_send 2 1 1 200)" 1 "precondition: flow 1's 30th packet, 100 B longer, sent"
	busywait 3000 qlen_is "$SLIP_DEV" 1: $qlen
	check_err $? "precondition: one on the line, $qlen in the qdisc"
	# Read until flow 1 is the only flow on old_flows; each read lets
	# one more packet out of the qdisc.
	while [ $n -lt 20 ]; do
		n=$((n + 1))
		qlen=$((qlen - 1))
		[ "$(slip_frames once)" = $n ] && busywait 3000 qlen_is "$SLIP_DEV" 1: $qlen || break
		s=$(stats_of qdisc "$SLIP_DEV" 1:)
		[ "$(field "$s" new_flows_len) $(field "$s" old_flows_len)" != "0 1" ] || break
	done
	check_eq "$(field "$s" qlen) $(field "$s" new_flows_len) $(field "$s" old_flows_len) $(field "$s" drops)" \
		"$qlen 0 1 0" "precondition: after $n reads flow 1 is on old_flows (qlen, new_flows_len, old_flows_len, drops)"
	check_cmp "$(tc -s class show dev "$SLIP_DEV" classid 1:1 | awk '$1 == "deficit" { print $2 }')" -gt 128 \
		"precondition: flow 1 has credit for more than one packet"
	check_eq "$(class_backlog "$SLIP_DEV" 1:1)" "$qlen $(((qlen - 1) * 128 + 228))" \
		"flow 1's class: the packets left of what was sent (packets, bytes)"
	check_eq "$(slip_send 3 1 1 100)" 1 "precondition: one packet of flow 2 sent"
	busywait 3000 qlen_is "$SLIP_DEV" 1: $((qlen + 1))
	check_err $? "precondition: flow 2's packet queued"
	check_eq "$(slip_frames)" 31 "the line carried all 31 packets"
	check_eq "$(awk '$2 == "198.19.9.3" { print NR }' "$SLIP_DIR/log")" $((n + 2)) \
		"flow 2's packet right after the one on the line when it came ($n read before that one)"
	check_eq "$(awk '$2 == "198.19.9.2" { l = $1 } END { print l }' "$SLIP_DIR/log")" 228 \
		"flow 1's packets in the order sent: the longer one last"
	check_eq "$(awk '$1 != 128' "$SLIP_DIR/log")" "228 198.19.9.2" "every other frame 128 B"
	slip_fq_done "$name"
}

# fq_codel_ext_reset_under_load: a reset (the device down and up) with two
# flows queued behind a SLIP line nobody reads empties everything: qlen,
# backlog, memory, both flow lists, every class; then the qdisc takes an
# overload again as a new one would.  The line is the witness: it carries
# the one packet out before the reset, then the overload's first and the
# packets the qdisc kept, and nothing it dropped or the reset freed.
fq_codel_ext_reset_under_load() {
	local name="fq_codel_ext: a reset under load empties the queues, lists, memory and classes; an overload after is accounted"
	local s drops
	slip_fq_up "$name" limit 20 flows 2 target 100s interval 100s || return
	slip_two_flows
	check_err $? "one filter per destination"
	check_eq "$(slip_send 2 10 1 100)" 10 "precondition: 10 packets of flow 1 sent"
	check_eq "$(slip_send 3 10 1 100)" 10 "precondition: 10 packets of flow 2 sent"
	busywait 3000 qlen_is "$SLIP_DEV" 1: 19
	s=$(stats_of qdisc "$SLIP_DEV" 1:)
	check_eq "$(field "$s" qlen) $(field "$s" backlog) $(field "$s" new_flows_len) $(field "$s" old_flows_len) $(field "$s" drops)" \
		"19 2432 2 0 0" "precondition: one packet out, 19 queued in two flows (qlen, backlog, new_flows_len, old_flows_len, drops)"
	check_cmp "$(field "$s" memory_used | grep . || echo 0)" -gt 0 "precondition: memory_used"
	check_eq "$(tc class show dev "$SLIP_DEV" | awk '{ print $3 }' | tr '\n' ' ')" "1:1 1:2 " \
		"precondition: both flows listed as classes"
	# Down drops the device's routes; up brings back the peer's only.
	ip link set "$SLIP_DEV" down && ip link set "$SLIP_DEV" up &&
		ip route add 198.19.9.3 dev "$SLIP_DEV"
	check_err $? "$SLIP_DEV down and up (the qdisc reset), the route to .3 again"
	s=$(stats_of qdisc "$SLIP_DEV" 1:)
	check_eq "$(field "$s" qlen) $(field "$s" backlog) $(field "$s" new_flows_len) $(field "$s" old_flows_len) $(field "$s" memory_used | grep . || echo 0) $(field "$s" drops)" \
		"0 0 0 0 0 0" "after the reset: qlen, backlog, new_flows_len, old_flows_len, memory_used, drops"
	check_eq "$(tc class show dev "$SLIP_DEV")" "" "after the reset: no class listed"
	# The overload: 30 packets of flow 2 into limit 20.
	check_eq "$(slip_send 3 30 1 100)" 30 "precondition: 30 packets of flow 2 sent"
	busywait 3000 drops_reach "$SLIP_DEV" 1: 1
	s=$(stats_of qdisc "$SLIP_DEV" 1:)
	drops=$(field "$s" drops)
	diag "overload: qlen $(field "$s" qlen), drops $drops, drop_overlimit $(field "$s" drop_overlimit)"
	check_cmp "$(field "$s" qlen)" -le 20 "the overload held to limit 20"
	check_eq "$(field "$s" drop_overlimit)" "$drops" "every drop over the limit"
	check_eq "$(( $(field "$s" qlen) + drops ))" 29 "queued + dropped = 29 (one on the line)"
	check_eq "$(slip_frames)" $((1 + 30 - drops)) \
		"the line carried the first packet, then the overload's less its drops: nothing of the reset's"
	check_eq "$(awk '{ print $2 }' "$SLIP_DIR/log" | uniq -c | awk '{ print $1, $2 }' | tr '\n' ' ')" \
		"1 198.19.9.2 $((30 - drops)) 198.19.9.3 " "the line's frames by destination, in order"
	slip_fq_done "$name"
}

# As codel's (codel-features.sh, adaptive_steps), short: its glue, under
# HTB at 256 kbit/s and a peeking TBF; one UDP flow, so the qdisc's drain
# rate is the flow's.
fq_codel_ext_adaptive_target_follows_link_rate() {
	name="adaptive_target: fq_codel_ext's target follows HTB's rate at 256 kbit/s and TBF's at 1 Mbit/s"
	require_fq_plugin "$name" || return
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	[ -d /sys/kernel/tracing/events/fq_codel_ext ] || modprobe "$FQ_MODULE"
	[ -d /sys/kernel/tracing/events/fq_codel_ext ] ||
		{ log_skip "$name" "no tracefs events/fq_codel_ext"; return; }
	adaptive_steps fq_codel_ext fq_codel_ext/fq_codel_ext_target short
	log_test "$name"
}
