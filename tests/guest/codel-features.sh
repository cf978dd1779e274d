# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Beyond mainline: the sojourn histogram, tracepoints, split_gso and the
# ce_threshold selector, through the patched tc (/usr/local/sbin/tc-patched,
# make tc).  Sourced by all.sh.

ALL_TESTS="$ALL_TESTS
	histogram_counts_every_delivered_packet
	tracepoints_match_counters
	xstats_stock_tc_distinct_values
	split_gso_segments_and_keeps_accounting
	split_gso_all_segments_over_limit
	ce_threshold_selector_marks_ect1_only
	extended_options_bad_input
	ce_threshold_and_selector_switch_off
	drop_reasons_traced
	dropping_exit_on_empty_queue_traced
	intree_fails_extension_tests
	extension_refused_on_intree_codel
	memory_limit_bounds_gso_queue
	memory_limit_exact_fit_queued
	xstats_while_dropping_match_trace
	adaptive_target_follows_link_rate
"

# udp_burst RATE SECONDS [iperf3 args...]: UDP from near, then wait until
# eth0's qdiscs have drained and the path is still (wait_settled).
udp_burst() {
	r=$1 t=$2
	shift 2
	ip netns exec near iperf3 -c "$FAR" -u -b "$r" -l 1200 -t "$t" "$@" >/dev/null 2>&1
	wait_settled
}

histogram_counts_every_delivered_packet() {
	name="histogram: every delivered packet counted once, in the right bucket"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	topo_router_up
	# TCP: a responsive flow, so CoDel holds the queue near its target
	# (unresponsive UDP would sit at the limit, seconds deep).
	htb_proto_leaf 6 "$(bottleneck 10mbit)" codel
	iperf_server_up
	ip netns exec near iperf3 -c "$FAR" -t 5 >/dev/null 2>&1
	wait_settled
	set -- $(xjson eth0 10: packets sojourn_hist sojourn_p50_bucket sojourn_p99_bucket sojourn_sum_ns)
	sent=$1 hist=$2
	total=$(echo "$hist" | tr ',' '\n' | awk '{ s += $1 } END { print s }')
	diag "Sent $sent, histogram $hist, p50 bucket $3, p99 bucket $4"
	check_eq "$total" "$sent" "histogram total vs Sent packets"
	check_hist_sum "$hist" "$5" codel
	# tc's percentile buckets, recomputed here: the first bucket whose
	# running total reaches pct% of all packets.
	for pct in 50 99; do
		want=$(echo "$hist" | tr ',' '\n' | awk -v t="$total" -v p="$pct" '
			{ s += $1; if (s * 100 >= t * p) { print NR - 1; exit } }')
		[ "$pct" = 50 ] && got=$3 || got=$4
		check_eq "$got" "$want" "p$pct bucket vs the histogram"
	done
	# CoDel's standing queue stays near its 5 ms target (TCG adds a few
	# ms): the median is in 4.2..16.8 ms (buckets 5 and 6; ten runs on 6.1
	# gave 5 twice and 6 eight times); an over-eager control law that
	# empties the queue lands in 0..4, a 1000-packet FIFO in 13 (1.2 s).
	# The p99 is the slow-start overshoot: RFC 8289 (section 3) lets a
	# burst stand for one interval (100 ms) before the first drop, while
	# cwnd still doubles per RTT; the same ten runs gave bucket 7 (16.8..
	# 33.6 ms).  Bound it below 134 ms (bucket 9), under CoDel's interval.
	check_under_load "$3" -ge 5 "p50 bucket"
	check_under_load "$3" -le 6 "p50 bucket"
	check_under_load "$4" -le 9 "p99 bucket (<134 ms)"
	text=$($TC_PATCHED -s qdisc show dev eth0 | grep '  sojourn')
	diag "text: $text"
	case $text in
	"  sojourn "*" p50 <"*" p99 "*) ;;
	*) check_err 1 "histogram text line: '$text'" ;;
	esac
	# The text line's non-empty buckets add up to the same total.
	tsum=$(echo "$text" | tr ' ' '\n' | awk -F: '/^[<>]/ { s += $2 } END { print s + 0 }')
	check_eq "$tsum" "$total" "text histogram total"
	log_test "$name"
}

# trace_count EVENT: events of EVENT in the trace buffer.
trace_count() { grep -c " $1: " /sys/kernel/tracing/trace; }
trace_reason() { grep -c " codel_skb_drop: dev=eth0 handle=10: reason=$1 " /sys/kernel/tracing/trace; }

tracepoints_match_counters() {
	name="tracepoints: drop, ecn_mark, ce_mark, dropping enter/exit match the counters"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	if [ ! -d /sys/kernel/tracing/events/codel ]; then
		rmmod sch_codel 2>/dev/null
		modprobe sch_codel
	fi
	if [ ! -d /sys/kernel/tracing/events/codel ]; then
		log_skip "$name" "no tracefs events/codel"
		return
	fi
	topo_router_up
	iperf_server_up
	T=/sys/kernel/tracing
	# Not-ECT traffic: drops and dropping-state transitions.
	htb_proto_leaf 17 1mbit codel target 1ms interval 10ms
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/events/codel/enable
	echo 1 >$T/tracing_on
	udp_burst 3M 1
	echo 0 >$T/tracing_on
	set -- $(xjson eth0 10: drops drop_overlimit dropping_entries loop_drops)
	diag "drops $1 (overlimit $2), entries $3, loop $4; events: drop $(trace_count codel_drop) enter $(trace_count codel_dropping_enter) exit $(trace_count codel_dropping_exit)"
	check_cmp "$1" -gt 0 "no drops to trace"
	check_eq "$(trace_count codel_drop)" "$(( $1 - $2 ))" "codel_drop events vs CoDel drops"
	check_eq "$(trace_count codel_dropping_enter)" "$3" "codel_dropping_enter vs dropping_entries"
	# Each entry drops one packet, the loop the rest: so loop_drops has a
	# witness too, and differs from dropping_entries (a swap would show).
	check_cmp "$4" -gt "$3" "precondition: more loop drops than entries on a standing queue"
	check_eq "$4" "$(( $(trace_count codel_drop) - $3 ))" "loop_drops vs codel_drop events less one per entry"
	check_cmp "$(trace_count codel_dropping_exit)" -ge $(( $3 - 1 )) "codel_dropping_exit events"
	line=$(grep -m1 ' codel_drop: ' $T/trace)
	diag "$line"
	case $line in
	*"codel_drop: dev=eth0 handle=10: sojourn_us="*" count="*" drop_next_us="*" dropping="*) ;;
	*) check_err 1 "codel_drop fields: $line" ;;
	esac
	tc qdisc del dev eth0 root
	# ECT(0) traffic with ecn and ce_threshold: marks.
	# limit 100: marking does not shrink the queue; keep it short so it
	# drains (and the last marks are traced) before tracing stops.
	htb_proto_leaf 17 1mbit codel limit 100 target 1ms interval 10ms ecn ce_threshold 500us
	echo >$T/trace
	echo 1 >$T/tracing_on
	udp_burst 3M 1 --tos 2
	echo 0 >$T/tracing_on
	echo 0 >$T/events/codel/enable
	set -- $(xjson eth0 10: ecn_mark ce_mark)
	diag "ecn_mark $1 ce_mark $2; events: ecn_mark $(trace_count codel_ecn_mark) ce_mark $(trace_count codel_ce_mark)"
	check_cmp "$1" -gt 0 "no ECN marks to trace"
	check_cmp "$2" -gt 0 "no ce_threshold marks to trace"
	check_eq "$(trace_count codel_ecn_mark)" "$1" "codel_ecn_mark events vs ecn_mark"
	check_eq "$(trace_count codel_ce_mark)" "$2" "codel_ce_mark events vs ce_mark"
	log_test "$name"
}

# Stock tc reads each of mainline's xstats fields from its own slot: after
# ECT(0) UDP into "limit 20 ecn ce_threshold 500us", tail drops, CoDel's
# ECN marks and ce_threshold marks are non-zero and far apart, and each
# equals a count the xstats do not make (its tracepoint); maxpacket is the
# frame's length.  A fresh qdisc's zeros would pass with any two swapped.
xstats_stock_tc_distinct_values() {
	name="xstats: stock tc reads each mainline field from its own slot (distinct non-zero values)"
	require_cmd iperf3 "$name" || return
	lsmod | grep -q '^sch_codel ' || modprobe sch_codel
	[ -d /sys/kernel/tracing/events/codel ] || { log_skip "$name" "no tracefs events/codel"; return; }
	T=/sys/kernel/tracing
	topo_router_up
	iperf_server_up
	# Default target and interval: the control law marks a few times a
	# second, ce_threshold nearly every packet delivered (~100 a second at
	# 1 Mbit/s), the limit drops ~200 a second of the 3 Mbit/s offered.
	htb_proto_leaf 17 1mbit codel limit 20 ecn ce_threshold 500us
	echo 0 >$T/tracing_on
	echo >$T/trace
	for e in codel_ecn_mark codel_ce_mark codel_skb_drop; do echo 1 >$T/events/codel/$e/enable; done
	echo 1 >$T/tracing_on
	udp_burst 3M 1 --tos 2
	echo 0 >$T/tracing_on
	for e in codel_ecn_mark codel_ce_mark codel_skb_drop; do echo 0 >$T/events/codel/$e/enable; done
	s=$(stats_of qdisc eth0 10:)
	text=$(tc -s qdisc show dev eth0 | grep '  maxpacket' | sed 's/^ *//; s/[[:space:]]*$//')
	ecn=$(field "$s" ecn_mark) ce=$(field "$s" ce_mark) over=$(field "$s" drop_overlimit)
	diag "stock tc: $text ce_mark $ce; events: ecn_mark $(trace_count codel_ecn_mark) ce_mark $(trace_count codel_ce_mark) overlimit $(trace_reason overlimit)"
	check_cmp "$ecn" -gt 0 "precondition: CoDel ECN-marked"
	check_cmp "$ce" -gt 0 "precondition: ce_threshold marked"
	check_cmp "$over" -gt 0 "precondition: tail drops at the limit"
	[ "$ecn" != "$ce" ] && [ "$ce" != "$over" ] && [ "$ecn" != "$over" ]
	check_err $? "precondition: the three counters differ ($ecn, $ce, $over)"
	check_eq "$ecn" "$(trace_count codel_ecn_mark)" "ecn_mark vs codel_ecn_mark events"
	check_eq "$ce" "$(trace_count codel_ce_mark)" "ce_mark vs codel_ce_mark events"
	check_eq "$over" "$(trace_reason overlimit)" "drop_overlimit vs overlimit drop events"
	# 1200 bytes of UDP payload + 8 + 20 + 14 of headers.
	check_eq "$(field "$s" maxpacket)" 1242 "maxpacket vs the frame's length"
	check_eq "$text" "maxpacket 1242 ecn_mark $ecn drop_overlimit $over ce_mark $ce" "stock tc's text line"
	echo >$T/trace
	echo 1 >$T/tracing_on
	log_test "$name"
}

split_gso_segments_and_keeps_accounting() {
	name="split_gso: GSO packets segmented at enqueue, parents' accounting exact"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	split_gso_accounting "$name" "$TC_PATCHED" codel
}

# split_gso_accounting NAME TC KIND: TCP with TSO through a 10 Mbit/s HTB
# class (2 on the debug kernel) whose leaf, KIND, TC configures: without
# split_gso GSO trains reach the leaf whole, with it only MTU-sized
# segments; HTB's counters stay its child's.  fq_codel_ext's test runs it
# too.
# sent_dropped_since_base BLOCK: sent_dropped_of BLOCK less its value in
# /tmp/split_gso.base, the dump taken once the tree stood.  A packet that
# left through class 1:10's first leaf (HTB's default pfifo, before the
# leaf under test was grafted) counts in HTB's Sent only: on the debug
# kernel, where each tc takes a second, one did.
sent_dropped_since_base() {
	local now base
	now=$(sent_dropped_of "$1")
	base=$(sent_dropped_of "$(block_of qdisc "$(field "$1" handle)" /tmp/split_gso.base)")
	echo "$(( ${now% *} - ${base% *} )) $(( ${now#* } - ${base#* } ))"
}

split_gso_accounting() {
	local name=$1 tc=$2 kind=$3 mode s rate=10mbit bytes=4M agreed pid
	# The debug kernel's TCP fills a few Mbit/s at most: a slower class
	# and less data there.  Its TSO trains are 2 segments: 2 MB still
	# make 1 300 packets.
	if debug_kernel; then
		rate=2mbit bytes=2M
	fi
	topo_router_up
	# TSO/GSO back on for the sender: 64 KB trains reach eth0's qdisc.
	ip netns exec near ethtool -K veth1 tso on gso on >/dev/null 2>&1
	iperf_server_up
	for mode in no_split_gso split_gso; do
		$tc qdisc add dev eth0 root handle 1: htb default 10 &&
			$tc class add dev eth0 parent 1: classid 1:10 htb rate $rate quantum 1514 &&
			$tc qdisc add dev eth0 parent 1:10 handle 10: "$kind" $mode
		check_err $? "setup $mode"
		dump eth0 >/tmp/split_gso.base
		# An amount, not a time: ~2 800 segments however fast the
		# sender runs (the debug kernel's, beside another guest, sent
		# 955 in 3 s); 3.4 s at 10 Mbit/s, 8.4 s at 2 with 2 MB.
		ip netns exec near timeout 60 iperf3 -c "$FAR" -n "$bytes" >/dev/null 2>&1 &
		pid=$!
		sleep 1
		# Mid-flow, HTB's qlen/backlog must equal its child's, in a dump
		# that found a queue: two empty qdiscs agree on nothing.  TCP
		# lets the queue empty now and then, so a dump that finds it
		# empty is retried, not judged, while the flow lasts (in CI
		# beside another guest, five dumps in its first second after
		# the start once found none).
		# On the debug kernel the sender rarely outruns the class (here,
		# at 4 and at 2 Mbit/s, 2 of 3 runs found no queue in 5 dumps):
		# no queue to judge by there, only the Sent/dropped after it.
		AGREE_WHILE=$pid agreeing_dump eth0 1: 10: standing_backlog_of
		agreed=$?
		check_under_load "$agreed" -eq 0 "$mode: HTB backlog vs $kind's in a mid-flow dump with a queue"
		[ "$agreed" = 0 ] || diag "dumps:$DUMPS"
		wait
		wait_settled
		# After the flow, Sent/dropped of both levels, again in one
		# dump: a late packet (FIN, ACK) can leave between two readings.
		agreeing_dump eth0 1: 10: sent_dropped_since_base
		check_err $? "$mode: HTB Sent/dropped vs $kind's in no dump"
		s=$(block_of qdisc 10: /tmp/agreeing_dump)
		diag "$mode: maxpacket $(field "$s" maxpacket), htb vs $kind Sent dropped:$DUMPS"
		check_cmp "$(sent_pkts "$s")" -gt 1000 "$mode: $kind Sent packets"
		if [ $mode = split_gso ]; then
			check_cmp "$(field "$s" maxpacket)" -le 1514 "split_gso: MTU-sized packets only"
		else
			check_cmp "$(field "$s" maxpacket)" -gt 1514 "GSO packets reached the qdisc"
		fi
		all_drained qdisc
		check_err $? "$mode: backlog left"
		tc qdisc del dev eth0 root
	done
	log_test "$name"
}

ce_threshold_selector_marks_ect1_only() {
	name="ce_threshold_selector 0x1/0x3: only ECT(1) marked"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	topo_router_up
	iperf_server_up
	for tos in 1 2; do
		$TC_PATCHED qdisc add dev eth0 root handle 1: htb default 20 &&
			$TC_PATCHED class add dev eth0 parent 1: classid 1:10 htb rate 1mbit quantum 1514 &&
			$TC_PATCHED class add dev eth0 parent 1: classid 1:20 htb rate 1mbit quantum 1514 &&
			$TC_PATCHED qdisc add dev eth0 parent 1:10 handle 10: codel ce_threshold 500us \
				ce_threshold_selector 0x1/0x3 &&
			$TC_PATCHED filter add dev eth0 parent 1: protocol ip u32 match ip protocol 17 0xff flowid 1:10
		check_err $? "setup"
		check_eq "$($TC_PATCHED qdisc show dev eth0 | grep 'codel 10:' | sed 's/[[:space:]]*$//')" \
			"qdisc codel 10: parent 1:10 limit 1000p target 5ms ce_threshold 499us interval 100ms ce_threshold_selector 0x1/0x3" \
			"show with a selector"
		udp_burst 2M 1 --tos $tos
		marks=$(xjson eth0 10: ce_mark)
		diag "tos $tos: ce_mark $marks"
		if [ $tos = 1 ]; then
			check_cmp "$marks" -gt 0 "ECT(1) not marked"
		else
			check_eq "$marks" 0 "ECT(0) marked"
		fi
		tc qdisc del dev eth0 root
	done
	log_test "$name"
}

extended_options_bad_input() {
	name="bad input: a selector outside its mask, memory_limit 0 or over 2GB: extack, nothing applied"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	dummy_up
	$TC_PATCHED qdisc add dev d0 root handle 1: codel split_gso
	check_eq "$($TC_PATCHED qdisc show dev d0 | sed 's/[[:space:]]*$//')" \
		"qdisc codel 1: root refcnt 2 limit 1000p target 5ms interval 100ms split_gso" "split_gso shown"
	check_eq "$(tc qdisc show dev d0 | sed 's/[[:space:]]*$//')" \
		"qdisc codel 1: root refcnt 2 limit 1000p target 5ms interval 100ms" "stock tc ignores the appended attributes"
	err=$($TC_PATCHED qdisc change dev d0 root codel limit 5 ce_threshold_selector 0x4/0x3 2>&1)
	check_fail $? "selector outside its mask accepted"
	check_eq "$err" "Error: codel: ce_threshold_selector has bits outside its mask." "extack"
	check_eq "$($TC_PATCHED qdisc show dev d0 | sed 's/[[:space:]]*$//')" \
		"qdisc codel 1: root refcnt 2 limit 1000p target 5ms interval 100ms split_gso" "nothing applied"
	$TC_PATCHED qdisc change dev d0 root codel no_split_gso
	check_eq "$($TC_PATCHED qdisc show dev d0 | sed 's/[[:space:]]*$//')" \
		"qdisc codel 1: root refcnt 2 limit 1000p target 5ms interval 100ms" "no_split_gso"
	err=$($TC_PATCHED qdisc change dev d0 root codel limit 7 memory_limit 0 2>&1)
	check_fail $? "memory_limit 0 accepted"
	check_eq "$err" "Error: codel: memory_limit must be from 1 byte to 2GB." "memory_limit 0: extack"
	err=$($TC_PATCHED qdisc change dev d0 root codel limit 7 memory_limit 2049mb 2>&1)
	check_eq "$err" "Error: codel: memory_limit must be from 1 byte to 2GB." "memory_limit 2049mb: extack"
	$TC_PATCHED qdisc change dev d0 root codel memory_limit 2048mb
	check_err $? "memory_limit 2048mb (2^31 bytes) refused"
	$TC_PATCHED qdisc change dev d0 root codel memory_limit 100kb
	check_eq "$($TC_PATCHED qdisc show dev d0 | sed 's/[[:space:]]*$//')" \
		"qdisc codel 1: root refcnt 2 limit 1000p target 5ms interval 100ms memory_limit 100Kb" "memory_limit shown when not the default"
	log_test "$name"
}

# d0's first qdisc line, as the patched tc shows it.
tcp_line() { $TC_PATCHED qdisc show dev d0 | head -n 1 | sed 's/[[:space:]]*$//'; }

# d0's codel line as the patched tc prints it with ce_threshold CE (or none)
# and selector SEL (or none), other settings default.
codel_line() {
	echo "qdisc codel 1: root refcnt 2 limit 1000p target 5ms${1:+ ce_threshold $1} interval 100ms${2:+ ce_threshold_selector $2}"
}

ce_threshold_and_selector_switch_off() {
	name="no_ce_threshold and no_ce_threshold_selector switch them off on a running qdisc"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	dummy_up
	$TC_PATCHED qdisc add dev d0 root handle 1: codel ce_threshold 1ms ce_threshold_selector 0x1/0x3
	check_eq "$(tcp_line)" "$(codel_line 999us 0x1/0x3)" "both set"
	$TC_PATCHED qdisc change dev d0 root codel no_ce_threshold
	check_eq "$(tcp_line)" "$(codel_line '' 0x1/0x3)" "ce_threshold off, selector kept"
	# Stock tc still sets it as it always has.
	tc qdisc change dev d0 root codel ce_threshold 2ms
	check_eq "$(tcp_line)" "$(codel_line 2ms 0x1/0x3)" "stock tc sets ce_threshold"
	# Mask 0 sent alone: the selector goes too, instead of being refused.
	$TC_PATCHED qdisc change dev d0 root codel no_ce_threshold_selector
	check_eq "$(tcp_line)" "$(codel_line 2ms)" "selector off"
	err=$($TC_PATCHED qdisc change dev d0 root codel ce_threshold 3ms no_ce_threshold 2>&1)
	check_fail $? "ce_threshold and no_ce_threshold together accepted"
	check_eq "$err" '"ce_threshold" and "no_ce_threshold" together' "patched tc refuses both"
	check_eq "$(tcp_line)" "$(codel_line 2ms)" "nothing applied"
	log_test "$name"
}

# trace_reason REASON: codel_skb_drop events of REASON in the trace buffer.

drop_reasons_traced() {
	name="drop reasons: overlimit, congested and trim told apart, each matching its counter"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	require_cmd iperf3 "$name" || return
	lsmod | grep -q '^sch_codel ' || modprobe sch_codel
	T=/sys/kernel/tracing
	topo_router_up
	iperf_server_up
	htb_proto_leaf 17 1mbit codel limit 5 target 1ms interval 10ms
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/events/codel/codel_skb_drop/enable
	echo 1 >$T/events/skb/kfree_skb/enable
	[ ! -e $T/events/qdisc/qdisc_drop ] || echo 1 >$T/events/qdisc/qdisc_drop/enable
	echo 1 >$T/tracing_on
	udp_burst 3M 1
	echo 0 >$T/tracing_on
	set -- $(xjson eth0 10: drops drop_overlimit)
	qdisc_drops=$(grep -c 'kfree_skb: .*reason: QDISC_DROP' $T/trace)
	diag "drops $1 (overlimit $2); events: overlimit $(trace_reason overlimit) congested $(trace_reason congested); kfree_skb QDISC_DROP $qdisc_drops"
	check_cmp "$2" -gt 0 "no tail drops at limit 5"
	check_cmp "$(( $1 - $2 ))" -gt 0 "no CoDel drops"
	check_eq "$(trace_reason overlimit)" "$2" "overlimit events vs drop_overlimit"
	check_eq "$(trace_reason congested)" "$(( $1 - $2 ))" "congested events vs CoDel drops"
	if [ -e $T/events/qdisc/qdisc_drop ]; then
		# Qdisc drop reasons (6.19 on): the tail drops go through the
		# root's to_free list, traced by qdisc:qdisc_drop as OVERLIMIT and
		# freed as QDISC_DROP; CoDel's own, under this HTB root (which
		# takes no dequeue drops), are freed at once with their qdisc
		# reason, CONGESTED, as the in-tree codel's are.
		congested=$(sed -n 's/.*{ *\([0-9]*\), *"CONGESTED" *}.*/\1/p' \
			$T/events/qdisc/qdisc_drop/format)
		congested=$(printf 'reason: 0x%x$' "${congested:-0}")
		diag "qdisc:qdisc_drop OVERLIMIT $(grep -c 'qdisc_drop: .*reason=OVERLIMIT$' $T/trace); kfree_skb ${congested%$} $(grep -c "kfree_skb: .*$congested" $T/trace)"
		check_eq "$(grep -c 'qdisc_drop: .*reason=OVERLIMIT$' $T/trace)" "$2" \
			"qdisc:qdisc_drop OVERLIMIT vs drop_overlimit"
		check_eq "$qdisc_drops" "$2" "kfree_skb QDISC_DROP (the to_free list) vs drop_overlimit"
		check_eq "$(grep -c "kfree_skb: .*$congested" $T/trace)" "$(( $1 - $2 ))" \
			"kfree_skb with the CONGESTED reason vs CoDel drops"
		echo 0 >$T/events/qdisc/qdisc_drop/enable
	else
		check_eq "$qdisc_drops" "$1" "kfree_skb reason QDISC_DROP vs codel's drops"
	fi
	# A trim: a queue of hundreds held by a codel that never drops, then
	# limit 5 with no arrivals (the client is killed; stock tc is fast).
	$TC_PATCHED qdisc change dev eth0 parent 1:10 handle 10: codel limit 1000 target 100s interval 100s
	ip netns exec near iperf3 -c "$FAR" -u -b 5M -l 1200 -t 10 >/dev/null 2>&1 &
	sleep 2
	killall -9 iperf3 2>/dev/null
	wait
	before=$(dropped "$(stats_of qdisc eth0 10:)")
	echo >$T/trace
	echo 1 >$T/tracing_on
	tc qdisc change dev eth0 parent 1:10 handle 10: codel limit 5
	echo 0 >$T/tracing_on
	after=$(dropped "$(stats_of qdisc eth0 10:)")
	diag "trim: drops $before -> $after; trim events $(trace_reason trim)"
	check_cmp "$(( after - before ))" -gt 10 "the change trimmed a queue"
	check_eq "$(trace_reason trim)" "$(( after - before ))" "trim events vs packets trimmed"
	echo 0 >$T/events/codel/codel_skb_drop/enable
	echo 0 >$T/events/skb/kfree_skb/enable
	echo >$T/trace
	echo 1 >$T/tracing_on
	log_test "$name"
}

# An empty dequeue while CoDel is still dropping (its entry drop left one
# packet, which went out, and the state stays until the next dequeue)
# must report drop_next relative to now, not to time 0 (an absolute
# clock value of ~seconds of uptime).  Bursts of 3..6 GSO packets under a
# TBF reach it: the event order proves it (codel_dequeue_drops with qlen=0,
# then codel_dropping_exit from the next, empty, call).
dropping_exit_on_empty_queue_traced() {
	name="tracepoints: the dropping-state exit on an empty queue reports drop_next relative to now"
	lsmod | grep -q '^sch_codel ' || modprobe sch_codel
	T=/sys/kernel/tracing
	require_cmd /usr/local/bin/gso-burst "$name" || return
	gso_sender_up
	tc qdisc add dev eth0 root handle 1: tbf rate 1mbit burst 20000 latency 10s &&
		tc qdisc add dev eth0 parent 1:1 handle 10: codel target 1us interval 2us
	check_err $? "tbf + codel setup"
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/events/codel/enable
	echo 1 >$T/tracing_on
	gso_burst 3,4,5,6,3,4,5,6 8 1400 0.5 >/dev/null
	wait_settled
	echo 0 >$T/tracing_on
	echo 0 >$T/events/codel/enable
	grep -o 'codel_[a-z_]*: .*' $T/trace >/tmp/codel.trace
	echo >$T/trace
	echo 1 >$T/tracing_on
	# Exits that follow a drop call which left the queue empty.
	empty=$(awk '/^codel_dropping_exit:/ && prev ~ /^codel_dequeue_drops:.* qlen=0 / { n++ } { prev = $0 } END { print n + 0 }' /tmp/codel.trace)
	worst=$(sed -n 's/^codel_dropping_exit:.* drop_next_us=-\{0,1\}\([0-9]*\) .*/\1/p' /tmp/codel.trace | sort -n | tail -n 1)
	diag "$(grep -c '^codel_dropping_exit:' /tmp/codel.trace) exits, $empty on an empty queue; largest |drop_next_us| $worst"
	check_cmp "$empty" -ge 1 "no dropping-state exit on an empty queue happened"
	check_cmp "${worst:-0}" -lt 1000000 "an exit reported drop_next over 1 s away"
	log_test "$name"
}

# The negative control of the two tests above that only this module can
# pass: run each against Debian's in-tree codel (in a subshell, so its
# TAP line and counters stay out of the suite's) and require it to fail.
# A test that passed there would not be testing our extension.
intree_fails_extension_tests() {
	name="control: Debian's in-tree codel fails the histogram and selector tests"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	intree_codel_up
	# Each must fail, and first for the reason that is our extension's:
	# the in-tree module has no histogram and no selector.
	for case in "histogram_counts_every_delivered_packet|histogram total vs Sent packets" \
		"ce_threshold_selector_marks_ect1_only|setup"; do
		t=${case%%|*}
		out=$(TESTS_RUN=0; $t; cleanup_all)
		first=$(echo "$out" | grep -m 1 '^# FAIL: ' | sed 's/^# FAIL: //')
		diag "in-tree: $t: ${first:-$(echo "$out" | tail -n 1)}"
		case $out in
		*"not ok 1 "*) check_eq "$first" "${case#*|}" "$t fails on the in-tree module for its reason" ;;
		*) check_err 1 "$t passed on the in-tree module" ;;
		esac
	done
	for d in $(ls /sys/class/net); do tc qdisc del dev "$d" root 2>/dev/null; done
	rmmod sch_codel
	check_err $? "in-tree sch_codel unloaded"
	log_test "$name"
}

# ext_refused OPTION WHY TC...: "TC qdisc add dev d0 root codel target
# 10ms OPTION" fails with tc's message naming OPTION and WHY, and d0 keeps
# its noqueue.
ext_refused() {
	local opt=$1 why=$2 out
	shift 2
	out=$("$@" qdisc add dev d0 root codel target 10ms $opt 2>&1)
	check_fail $? "$*: codel $opt accepted"
	check_eq "$(echo "$out" | head -n 1)" \
		"codel: ${opt%% *} needs the out-of-tree sch_codel, but $why, which would ignore it." \
		"$*: codel $opt: the message"
	check_eq "$(tc qdisc show dev d0 | cut -d' ' -f2)" noqueue "$*: codel $opt: d0's root"
}

# Debian's in-tree codel parses leniently and would accept and ignore our
# options: tc (patched, and stock with the plugin) refuses them when the
# codel in effect is that one, loaded or the one autoload would load
# (modules.dep naming it, as when DKMS built nothing for this kernel).
# Controls: mainline's options still reach the in-tree module; with ours
# every option is taken.
extension_refused_on_intree_codel() {
	local name="tc refuses our options, saying why, when the in-tree codel is in effect"
	local dep=/lib/modules/$KERNELRELEASE/modules.dep o opt t
	local loaded="the loaded sch_codel is the kernel's own (no /sys/module/sch_codel/version)"
	# Options with their values, a comma for the space.
	local opts="split_gso memory_limit,1000000 ce_threshold_selector,0x1/0x3 no_ce_threshold"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	[ -f "$TC_PLUGIN_DIR/q_codel.so" ] || { log_skip "$name" "tc plugin not built (make deb)"; return; }
	dummy_up
	intree_codel_up
	for o in $opts; do
		opt=$(echo "$o" | tr , ' ')
		ext_refused "$opt" "$loaded" "$TC_PATCHED"
		ext_refused "$opt" "$loaded" tc_plugin
	done
	$TC_PATCHED qdisc add dev d0 root codel target 10ms
	check_err $? "mainline's options refused on the in-tree module"
	tc qdisc del dev d0 root
	rmmod sch_codel
	check_err $? "in-tree sch_codel unloaded"

	cp "$dep" /tmp/modules.dep.ours
	sed -i 's#^updates/sch_codel\.ko:#kernel/net/sched/sch_codel.ko:#' "$dep"
	grep -q '^kernel/net/sched/sch_codel\.ko:' "$dep"
	check_err $? "precondition: modules.dep names the in-tree module"
	ext_refused split_gso \
		"autoload would load the kernel's own /lib/modules/$KERNELRELEASE/kernel/net/sched/sch_codel.ko" \
		tc_plugin
	[ ! -e /sys/module/sch_codel ]
	check_err $? "a module was loaded though tc refused"
	cp /tmp/modules.dep.ours "$dep"
	rm -f /tmp/modules.dep.ours

	for o in $opts; do
		opt=$(echo "$o" | tr , ' ')
		for t in "$TC_PATCHED" tc_plugin; do
			$t qdisc add dev d0 root codel target 10ms $opt
			check_err $? "$t: codel $opt refused on our module"
			tc qdisc del dev d0 root
		done
	done
	codel_is_ours
	check_err $? "ours autoloaded for the controls"
	log_test "$name"
}

# memory_limit: UDP GSO packets (8 x 1400 B each) into codel limit 1000
# memory_limit 100kb under a TBF at 8 bit/s.  First six: TBF's 64 KB
# bucket lets five through and peeks the sixth, which waits in codel's
# stash (counted in qlen, no longer in memory_used) for hours.  Nothing
# leaves after that, however the kernel batches enqueues and dequeues
# (7.3 enqueues a burst before it runs the queue), so the next 30 fill the
# queue to the memory bound the packet limit alone would pass, and every
# packet past it must be counted.  Then the control: the default 32 MB lets
# another 30 in, past 100 KB.  Then the TBF opens (a change refills its
# bucket; an HTB class would stay in debt for up to a minute) and the tree
# drains through dequeue: memory_used back to exactly 0.
memory_limit_bounds_gso_queue() {
	name="memory_limit: GSO packets stop at the memory bound the packet limit would pass; drop_overmemory counts each"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	lsmod | grep -q '^sch_codel ' || modprobe sch_codel
	T=/sys/kernel/tracing
	require_cmd /usr/local/bin/gso-burst "$name" || return
	gso_sender_up
	tc qdisc add dev eth0 root handle 1: tbf rate 8bit burst 64kb limit 10mb &&
		$TC_PATCHED qdisc add dev eth0 parent 1:1 handle 10: codel memory_limit 100kb
	check_err $? "tbf + codel memory_limit 100kb"
	check_eq "$(gso_burst 6 8 1400)" 6 "precondition: 6 GSO packets sent"
	# Delivered: what TBF sent, 11536 B a GSO packet (8 x 1442 B on the wire).
	set -- $(xjson eth0 10: qlen drops memory_used) $(xjson eth0 1: bytes)
	check_eq "$*" "1 0 0 $((5 * 11536))" \
		"precondition: TBF sent 5 and holds the 6th peeked (codel qlen, drops, memory_used; TBF bytes)"
	echo >$T/trace
	echo 1 >$T/events/codel/codel_skb_drop/enable
	sent=$(gso_burst 30 8 1400)
	echo 0 >$T/events/codel/codel_skb_drop/enable
	check_eq "$sent" 30 "precondition: 30 more GSO packets sent"
	set -- $(xjson eth0 10: qlen drops drop_overmemory memory_used) $(xjson eth0 1: bytes)
	# In memory: all queued but the peeked one.
	qlen=$1 drops=$2 over=$3 used=$4 held=$(($1 - 1))
	diag "memory_limit 100kb: queued $qlen (one peeked), drop_overmemory $over, memory_used $used"
	check_eq "$5" "$((5 * 11536))" "TBF sent nothing more"
	check_cmp "$over" -gt 0 "drop_overmemory counted"
	check_eq "$((held + over))" 30 "queued + dropped over memory vs sent"
	check_eq "$drops" "$over" "every drop a memory drop"
	check_eq "$(grep -c 'codel_skb_drop: .* reason=memory ' $T/trace)" "$over" "reason=memory events vs drop_overmemory"
	echo >$T/trace
	check_cmp "$used" -le 102400 "memory_used within memory_limit"
	# Full: the room left is less than one more packet's truesize.
	check_cmp "$((102400 - used))" -lt "$((used / (held ? held : 1)))" "the queue stopped only when the next packet did not fit"
	# The control: the same burst under the default bound all queues.
	$TC_PATCHED qdisc change dev eth0 parent 1:1 handle 10: codel memory_limit 32mb
	gso_burst 30 8 1400 >/dev/null
	set -- $(xjson eth0 10: qlen drop_overmemory memory_used)
	diag "memory_limit 32mb: queued $1, drop_overmemory $2, memory_used $3"
	check_eq "$1 $2" "$((qlen + 30)) $over" "control: under 32 MB every packet queued"
	check_cmp "$3" -gt 102400 "control: the queue held more than 100 KB"
	# Drain: every byte given back.
	tc qdisc change dev eth0 root handle 1: tbf rate 100mbit burst 64kb limit 10mb
	# The change does not re-arm TBF's watchdog (due in hours at 8 bit/s):
	# one more packet makes the device run the queue.
	ping -c 1 -W 1 "$FAR" >/dev/null 2>&1
	wait_drained
	set -- $(xjson eth0 10: qlen memory_used)
	check_eq "$1 $2" "0 0" "qlen and memory_used after the drain"
	check_eq "$(backlog_of "$(stats_of qdisc eth0 1:)")" "0 0" "TBF backlog after the drain"
	log_test "$name"
}

# memory_limit is the most memory_used may reach: a packet whose truesize
# fills it exactly is queued, the next is not.  64-byte frames (each of the
# same truesize) under a TBF at 8 bit/s whose 1 KB bucket lets a few out;
# the rest wait, the first of them peeked (out of memory_used), so the
# first dump gives one frame's truesize.  The limit is then set to what is
# in memory plus exactly one frame.
memory_limit_exact_fit_queued() {
	name="memory_limit: a packet that fills memory_limit exactly is queued, the next one is dropped"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	lsmod | grep -q '^sch_codel ' || modprobe sch_codel
	dummy_up
	tc qdisc add dev d0 root handle 1: tbf rate 8bit burst 1kb limit 100kb &&
		$TC_PATCHED qdisc add dev d0 parent 1:1 handle 10: codel
	check_err $? "tbf 8bit + codel"
	"$SEND" 40 d0
	check_err $? "precondition: 40 frames into codel"
	set -- $(xjson d0 10: qlen memory_used drops)
	local q=$1 used=$2 one
	check_cmp "$q" -ge 3 "precondition: TBF holds frames in codel"
	check_eq "$3" 0 "precondition: no drop yet"
	one=$((used / (q > 1 ? q - 1 : 1)))
	diag "held $q frames (one peeked), memory_used $used: $one B each"
	check_eq "$((one * (q - 1)))" "$used" "precondition: every frame in memory of one truesize"
	$TC_PATCHED qdisc change dev d0 parent 1:1 handle 10: codel memory_limit $((used + one))
	check_err $? "memory_limit $((used + one))"
	"$SEND" 1 d0
	check_err $? "the frame that fills memory_limit exactly was refused"
	check_eq "$(xjson d0 10: qlen memory_used drop_overmemory)" "$((q + 1)) $((used + one)) 0" \
		"exact fit: qlen, memory_used, drop_overmemory"
	"$SEND" 1 d0
	check_fail $? "a frame past memory_limit was accepted"
	check_eq "$(xjson d0 10: qlen memory_used drop_overmemory drops)" "$((q + 1)) $((used + one)) 1 1" \
		"one frame past the limit: qlen, memory_used, drop_overmemory, drops"
	log_test "$name"
}

# xstats while CoDel is dropping, against CoDel's own trace.  64-byte
# frames under a TBF at 512 bit/s (128 on the debug kernel, where a dump
# takes about a second): once a second CoDel serves a frame,
# first dropping what is due; then its queue stands for a second with the
# next drop due within interval/sqrt(count) (interval 500 ms: the drops
# per serve grow slowly, so the dropping state lasts), after which
# drop_next (relative to now) is negative.  ldelay is the sojourn of the
# frame served last; codel_drop's event copies ldelay (sojourn_us) for the
# frame dropped just before it, enqueued one send apart, so the two agree
# within 5 ms, while a value in CoDel's own units (1.024 us) would read
# 2.3% short: 23 ms and more at the seconds these frames wait.  A dump
# counts only if no drop was traced while it ran (no serve in between).
xstats_while_dropping_match_trace() {
	name="xstats: while dropping, ldelay in us as traced, a due drop_next negative"
	lsmod | grep -q '^sch_codel ' || modprobe sch_codel
	local T=/sys/kernel/tracing n=0 tries=0 neg=0 before after ev gap=1
	debug_kernel && gap=4
	dummy_up
	tc qdisc add dev d0 root handle 1: tbf rate $((512 / gap))bit burst 64 limit 100kb &&
		tc qdisc add dev d0 parent 1:1 handle 10: codel interval 500ms
	check_err $? "tbf $((512 / gap))bit + codel interval 500ms"
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/events/codel/codel_drop/enable
	echo 1 >$T/tracing_on
	"$SEND" 300 d0
	check_err $? "precondition: 300 frames into codel"
	busywait $((10000 * gap)) drops_reach d0 10: 1
	check_err $? "precondition: CoDel dropped within $((10 * gap)) s"
	while [ "$n" -lt 4 ] && [ "$tries" -lt 30 ]; do
		tries=$((tries + 1))
		sleep 0.3
		before=$(grep -c 'codel_drop:' $T/trace)
		set -- $(stats_of qdisc d0 10: | "$TCJ" get dropping drop_next ldelay qlen)
		ev=$(grep 'codel_drop:' $T/trace | tail -n 1)
		after=$(grep -c 'codel_drop:' $T/trace)
		[ "$before" = "$after" ] || continue
		[ "$1" = true ] || continue
		n=$((n + 1))
		ev=${ev##*sojourn_us=}
		ev=${ev%% *}
		diag "dropping, qlen $4: ldelay $3 us (traced $ev us), drop_next $2 us"
		check_cmp "$3" -ge 1000000 "precondition: frames waited over a second"
		check_cmp "$(($3 - ev))" -le 5000 "ldelay over the traced sojourn"
		check_cmp "$((ev - $3))" -le 5000 "ldelay under the traced sojourn"
		check_cmp "$2" -le 500000 "drop_next beyond an interval"
		check_cmp "$2" -gt $((-1000000 * gap - 100000)) "drop_next overdue by more than a TBF gap"
		[ "$2" -lt 0 ] && neg=$((neg + 1))
	done
	echo 0 >$T/events/codel/codel_drop/enable
	echo >$T/trace
	check_cmp "$n" -ge 2 "precondition: two dumps while dropping"
	check_cmp "$neg" -ge 1 "no dump showed a due drop_next (negative)"
	log_test "$name"
}

# split_gso with codel at its limit: every segment of an arriving GSO
# packet is dropped over the limit and the packet is refused whole
# (NET_XMIT_DROP: the parent counts one drop, codel one per segment;
# nothing queued at either level, the GSO skb freed).  First TBF at
# 8 bit/s spends its 64 KB bucket on five whole GSO packets and holds the
# sixth peeked (as in memory_limit_bounds_gso_queue); then codel limit 4
# split_gso takes three segments of the next packet, and nothing more.
split_gso_all_segments_over_limit() {
	name="split_gso: a GSO packet whose every segment is over the limit is refused whole"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	require_cmd /usr/local/bin/gso-burst "$name" || return
	lsmod | grep -q '^sch_codel ' || modprobe sch_codel
	local over0 tdrops0
	gso_sender_up
	tc qdisc add dev eth0 root handle 1: tbf rate 8bit burst 64kb limit 10mb &&
		$TC_PATCHED qdisc add dev eth0 parent 1:1 handle 10: codel
	check_err $? "tbf + codel"
	check_eq "$(gso_burst 6 8 1400)" 6 "precondition: 6 GSO packets sent"
	busywait 3000 qlen_is eth0 10: 1
	$TC_PATCHED qdisc change dev eth0 parent 1:1 handle 10: codel limit 4 split_gso
	check_err $? "codel limit 4 split_gso"
	check_eq "$(gso_burst 1 8 1400)" 1 "precondition: one more GSO packet sent"
	busywait 3000 qlen_is eth0 10: 4
	set -- $(xjson eth0 10: qlen drop_overlimit) $(xjson eth0 1: qlen drops)
	over0=$2 tdrops0=$4
	check_eq "$1 $3 $2" "4 4 5" "precondition: codel took 3 of 8 segments (qlen 4, TBF's the same, 5 over the limit)"
	check_eq "$(gso_burst 3 8 1400)" 3 "3 more GSO packets sent"
	busywait 3000 drops_reach eth0 1: "$((tdrops0 + 3))"
	set -- $(xjson eth0 10: qlen drop_overlimit drops) $(xjson eth0 1: qlen drops)
	diag "codel qlen $1 drop_overlimit $2 drops $3; TBF qlen $4 drops $5"
	check_eq "$1 $4" "4 4" "nothing more queued (codel, TBF)"
	check_eq "$(($2 - over0))" 24 "codel: one overlimit drop per segment of the 3 packets"
	check_eq "$(($5 - tdrops0))" 3 "TBF: one drop per refused packet"
	log_test "$name"
}

# adaptive_udp RATE SECONDS [LEN]: UDP at RATE from near to a server of
# its own (one test, then it exits: a server still closing the last test
# refuses the next); prints far's received bytes per second from the
# run's third second to its end (the witness of the rate), 0 if the
# client failed; returns once the qdiscs drained, so that the leaf's
# values read next are final.
adaptive_udp() {
	local b0 b1 t0 t1 pid rc
	busywait 3000 iperf3_gone
	in_ns far iperf3 -s -1 -D >/dev/null 2>&1
	busywait 3000 iperf_listening far 5201
	ip netns exec near iperf3 -c "$FAR" -u -b "$1" -l "${3:-1200}" -t "$2" >/dev/null 2>&1 &
	pid=$!
	sleep 2
	b0=$(far_stat rx_bytes) t0=$(uptime_ms)
	wait "$pid"
	rc=$?
	b1=$(far_stat rx_bytes) t1=$(uptime_ms)
	wait_settled
	[ "$rc" = 0 ] && [ "$t1" -gt "$t0" ] && echo $(( (b1 - b0) * 1000 / (t1 - t0) )) || echo 0
}

# adaptive_rate LEAF_RATE UDP_RATE SECONDS: adaptive_udp into HTB's 1:10
# set to LEAF_RATE; then the leaf's drain_rate, target_in_effect and
# interval_in_effect (bytes/s, us) and its drops.
adaptive_rate() {
	tc class change dev eth0 parent 1: classid 1:10 htb rate "$1" ceil "$1" quantum 1514
	echo "$(adaptive_udp "$2" "$3")" \
		$(xjson eth0 10: drain_rate target_in_effect interval_in_effect drops)
}

# adaptive_steps KIND SYSTEM/EVENT [short]: KIND with adaptive_target under HTB,
# whose rate is the link: 8 Mbit/s (one 1514-byte MTU takes 1.5 ms, 1.5 x
# that is under 5 ms: the configured target stays), 256 kbit/s (47.3 ms:
# target 71 ms, interval 166 ms), idle time and lone packets (no change),
# 8 Mbit/s again (back to 5 ms and 100 ms); then under TBF, a parent
# that peeks and throttles, at 1 Mbit/s.  Witnesses: far's received
# bytes per second for the drain rate, and from it the target; the
# trace event for the values in effect.  UDP offered at twice the link
# or more keeps the class backlogged whatever CPU the guest gets.  The
# estimate is smoothed over the last 8 windows of 16 ms or one packet, far's
# rate is a mean over seconds: within 10 % (0.1 to 0.7 % measured).  "short" leaves out the 8 Mbit/s steps and the idle time, which
# the shared estimator (codel.h) decides: fq_codel_ext's glue is its
# dequeue and peek, its change and its dump.
adaptive_steps() {
	local kind=$1 evpath=$2 ev=${2#*/} mode=${3:-full} T=/sys/kernel/tracing
	local far drain target interval want
	# Stock tc with the package's plugin parses adaptive_target.
	export TC_LIB_DIR=$TC_PLUGIN_DIR
	topo_router_up
	quiet_path
	htb_proto_leaf 17 8mbit "$kind adaptive_target"
	check_eq "$(xjson eth0 10: adaptive_target target interval)" "true 4999 99999" \
		"adaptive_target shown on, the configured target and interval"
	echo >$T/trace
	echo 1 >"$T/events/$evpath/enable"
	echo 1 >$T/tracing_on

	if [ "$mode" = full ]; then
		set -- $(adaptive_rate 8mbit 16M 5)
		diag "8mbit: far $1 B/s; drain_rate $2 B/s, target $3 us, interval $4 us, drops $5"
		check_cmp "$1" -ge 800000 "precondition: far received 8 Mbit/s (1000000 B/s) within 20 %"
		check_cmp "$5" -gt 0 "precondition: the queue stood (CoDel or the limit dropped)"
		check_cmp "$(( $2 * 10 ))" -ge "$(( $1 * 9 ))" "drain_rate within 10 % of far's rate (low)"
		check_cmp "$(( $2 * 10 ))" -le "$(( $1 * 11 ))" "drain_rate within 10 % of far's rate (high)"
		check_eq "$3 $4" "4999 99999" "at 8 Mbit/s the configured target and interval stay"
	fi

	set -- $(adaptive_rate 256kbit 1M 7)
	far=$1 drain=$2 target=$3 interval=$4
	diag "256kbit: far $far B/s; drain_rate $drain B/s, target $target us, interval $interval us, drops $5"
	check_cmp "$far" -ge 25600 "precondition: far received 256 kbit/s (32000 B/s) within 20 %"
	check_cmp "$(( drain * 10 ))" -ge "$(( far * 9 ))" "drain_rate within 10 % of far's rate (low)"
	check_cmp "$(( drain * 10 ))" -le "$(( far * 11 ))" "drain_rate within 10 % of far's rate (high)"
	# 1.5 MTU times at far's rate, in us.
	want=$(( 1514 * 1500000 / far ))
	check_cmp "$(( target * 10 ))" -ge "$(( want * 9 ))" "target in effect vs 1.5 MTU times at far's rate ($want us, low)"
	check_cmp "$(( target * 10 ))" -le "$(( want * 11 ))" "target in effect vs 1.5 MTU times at far's rate ($want us, high)"
	check_eq "$(xjson eth0 10: target interval)" "4999 99999" \
		"the dump keeps the configured target and interval"
	# The interval grew by what the target did (each rounded to 1 us).
	check_cmp "$(( interval - 99999 - (target - 4999) ))" -le 2 "interval grew as the target (high)"
	check_cmp "$(( interval - 99999 - (target - 4999) ))" -ge -2 "interval grew as the target (low)"
	check_eq "$(grep " $ev: dev=eth0 handle=10: " $T/trace | tail -n 1 | sed 's/.*target_us=\([0-9]*\) interval_us=\([0-9]*\).*/\1 \2/')" \
		"$target $interval" "the last $ev event shows the values in effect"

	if [ "$mode" = full ]; then
		# Idle, then lone packets (each leaves an empty queue): no change.
		sleep 2
		check_cmp "$(adaptive_udp 20k 4 100)" -gt 0 "precondition: the lone packets flowed"
		check_eq "$(xjson eth0 10: target_in_effect interval_in_effect)" "$target $interval" \
			"idle time and lone packets leave the values in effect"

		set -- $(adaptive_rate 8mbit 16M 5)
		diag "8mbit again: far $1 B/s; drain_rate $2 B/s, target $3 us, interval $4 us"
		check_cmp "$1" -ge 800000 "precondition: far received 8 Mbit/s within 20 %"
		check_eq "$3 $4" "4999 99999" "back at 8 Mbit/s, the configured target and interval"
		check_eq "$(grep " $ev: dev=eth0 handle=10: " $T/trace | tail -n 1 | sed 's/.*target_us=\([0-9]*\) interval_us=\([0-9]*\).*/\1 \2/')" \
			"4999 99999" "the last $ev event shows them"
	fi
	echo 0 >$T/tracing_on
	echo 0 >"$T/events/$evpath/enable"
	# Off again: the configured values, and no drain rate.
	tc qdisc change dev eth0 parent 1:10 handle 10: "$kind" no_adaptive_target
	check_eq "$(xjson eth0 10: adaptive_target drain_rate target_in_effect)" "false 0 4999" \
		"no_adaptive_target: off, no rate, the configured target"

	# TBF, which peeks (the packet leaves the leaf at the peek) and holds
	# it until its tokens come: 1 Mbit/s, 1514 B in 12.1 ms, target 18.2 ms.
	tc qdisc del dev eth0 root
	tc -batch - <<-EOF
	qdisc add dev eth0 root handle 1: tbf rate 1mbit burst 3028 limit 100000
	qdisc add dev eth0 parent 1:1 handle 10: $kind adaptive_target
	EOF
	far=$(adaptive_udp 2M 5)
	set -- $(xjson eth0 10: drain_rate target_in_effect)
	diag "tbf 1mbit: far $far B/s; drain_rate $1 B/s, target $2 us"
	check_cmp "$far" -ge 100000 "precondition: far received 1 Mbit/s (125000 B/s) within 20 %"
	check_cmp "$(( $1 * 10 ))" -ge "$(( far * 9 ))" "under TBF: drain_rate within 10 % of far's rate (low)"
	check_cmp "$(( $1 * 10 ))" -le "$(( far * 11 ))" "under TBF: drain_rate within 10 % of far's rate (high)"
	want=$(( 1514 * 1500000 / far ))
	check_cmp "$(( $2 * 10 ))" -ge "$(( want * 9 ))" "under TBF: target vs 1.5 MTU times at far's rate ($want us, low)"
	check_cmp "$(( $2 * 10 ))" -le "$(( want * 11 ))" "under TBF: target vs 1.5 MTU times at far's rate ($want us, high)"
}

adaptive_target_follows_link_rate() {
	name="adaptive_target: codel's target follows HTB's rate down to 256 kbit/s and back, and holds over idle time"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	lsmod | grep -q '^sch_codel ' || modprobe sch_codel
	[ -d /sys/kernel/tracing/events/codel ] || { log_skip "$name" "no tracefs events/codel"; return; }
	adaptive_steps codel codel/codel_target
	log_test "$name"
}
