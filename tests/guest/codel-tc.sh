# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# tc frontends: Debian's stock tc and the patched one (make tc, in the
# guest as /usr/local/sbin/tc-patched) against our module and against
# Debian's in-tree codel.  JSON is validated with the host's python3.
# Sourced by all.sh.

ALL_TESTS="$ALL_TESTS
	tc_patched_parses_like_stock
	tc_patched_text_all_fields
	tc_patched_json_all_fields
	tc_stock_and_patched_agree_after_traffic
	tc_patched_on_intree_codel
	tc_plugin_teaches_stock_tc
	tc_plugin_teaches_stock_tc_615
	tc_plugin_on_intree_prints_as_stock
"

PLUGIN=$TC_PLUGIN_DIR/q_codel.so
# bookworm-backports' stock tc (iproute2 6.15, the iproute2 of trixie and
# of bookworm-backports users), from make tc (scripts/stock-tc.sh).
TC615=/usr/local/sbin/tc-6.15
TCLIB=/usr/lib/x86_64-linux-gnu/tc

require_patched() {
	[ -x "$TC_PATCHED" ] && return 0
	log_skip "$1" "patched tc not built (make tc)"
	return 1
}

# json_fields KEY...: "KEY=VALUE ..." of the first qdisc in JSON on stdin.
json_fields() {
	local obj k out=
	obj=$("$TCJ" first)
	for k in "$@"; do
		out="$out $k=$(echo "$obj" | "$TCJ" get "$k")"
	done
	echo "${out# }"
}

tc_patched_parses_like_stock() {
	require_patched "tc: patched tc parses every option as stock tc" || return
	dummy_up
	for args in "limit 10 target 2ms interval 20ms ecn ce_threshold 1ms" \
		"limit abc" "target" "target 5xs" "interval -1" "ce_threshold x" \
		"bogus" "help" "noecn limit 0"; do
		# shellcheck disable=SC2086
		a=$(tc qdisc add dev d0 root handle 1: codel $args 2>&1; echo "rc=$?";
			tc qdisc show dev d0; tc qdisc del dev d0 root 2>&1)
		# shellcheck disable=SC2086
		b=$($TC_PATCHED qdisc add dev d0 root handle 1: codel $args 2>&1; echo "rc=$?";
			$TC_PATCHED qdisc show dev d0; $TC_PATCHED qdisc del dev d0 root 2>&1)
		# The usage text lists the appended options too: compare it
		# apart, as a superset, and everything else byte for byte.
		check_eq "$(echo "$b" | grep -v '^Usage:\|^	')" "$(echo "$a" | grep -v '^Usage:\|^	')" \
			"patched vs stock for 'codel $args'"
		nus=$(echo "$a" | grep -c '^Usage:\|^	')
		check_eq "$(echo "$b" | grep '^Usage:\|^	' | head -n "$nus")" \
			"$(echo "$a" | grep '^Usage:\|^	')" "usage for 'codel $args' starts as stock's"
	done
	log_test "tc: patched tc parses every option as stock tc"
}

tc_patched_text_all_fields() {
	require_patched "tc: patched tc prints every field (text)" || return
	dummy_up
	tc qdisc add dev d0 root handle 1: codel
	out=$($TC_PATCHED -s qdisc show dev d0 | sed -n '4,7p' | sed 's/[[:space:]]*$//')
	check_eq "$out" "  count 0 lastcount 0 ldelay 0us drop_next 0us
  maxpacket 0 ecn_mark 0 drop_overlimit 0 ce_mark 0
  dequeue_calls 0 ok_to_drop 0 loop_drops 0 dropping_entries 0
  drop_overmemory 0 memory_used 0" "patched tc xstats text"
	log_test "tc: patched tc prints every field (text)"
}

XFIELDS="count lastcount ldelay drop_next maxpacket ecn_mark drop_overlimit dropping ce_mark dequeue_calls ok_to_drop loop_drops dropping_entries drop_overmemory memory_used sojourn_sum_ns drain_rate target_in_effect interval_in_effect"

tc_patched_json_all_fields() {
	require_patched "tc: patched tc prints every field (JSON)" || return
	dummy_up
	tc qdisc add dev d0 root handle 1: codel target 3ms
	$TC_PATCHED -s -j qdisc show dev d0 >/tmp/q.json
	json_check </tmp/q.json
	check_err $? "patched tc -j output is not valid JSON: $(cat /tmp/q.json)"
	# shellcheck disable=SC2086
	got=$(json_fields $XFIELDS </tmp/q.json)
	check_eq "$got" "count=0 lastcount=0 ldelay=0 drop_next=0 maxpacket=0 ecn_mark=0 drop_overlimit=0 dropping=false ce_mark=0 dequeue_calls=0 ok_to_drop=0 loop_drops=0 dropping_entries=0 drop_overmemory=0 memory_used=0 sojourn_sum_ns=0 drain_rate=0 target_in_effect=2999 interval_in_effect=99999" \
		"patched tc JSON xstats"
	got=$("$TCJ" first </tmp/q.json | "$TCJ" get options)
	check_eq "$got" '{"limit":1000,"target":2999,"interval":99999,"split_gso":false,"memory_limit":33554432,"adaptive_target":false}' "patched tc JSON options (raw us, bytes)"
	log_test "tc: patched tc prints every field (JSON, raw integers)"
}

# Push UDP through codel (limit 20, 1 Mbit/s HTB) so every counter moves.
udp_through_codel() {
	topo_router_up
	htb_with_leaf 1mbit codel limit 20 target 2ms interval 20ms
	iperf_server_up
	ip netns exec near iperf3 -c "$FAR" -u -b 5M -l 1000 -t 3 >/dev/null 2>&1
	wait_settled
}

tc_stock_and_patched_agree_after_traffic() {
	require_patched "tc: stock and patched tc agree after traffic" || return
	udp_through_codel
	stock=$(stats_of qdisc eth0 10:)
	$TC_PATCHED -s -j qdisc show dev eth0 >/tmp/q.json
	json_check </tmp/q.json
	check_err $? "patched tc -j output is not valid JSON"
	j=$("$TCJ" obj 10: </tmp/q.json | "$TCJ" get maxpacket ecn_mark drop_overlimit count \
		lastcount drops dequeue_calls loop_drops dropping_entries ok_to_drop)
	set -- $j
	check_eq "$(field "$stock" maxpacket) $(field "$stock" ecn_mark) $(field "$stock" drop_overlimit) $(field "$stock" count) $(field "$stock" lastcount) $(dropped "$stock")" \
		"$1 $2 $3 $4 $5 $6" "stock vs patched tc: maxpacket ecn_mark drop_overlimit count lastcount drops"
	check_cmp "$3" -gt 0 "drop_overlimit moved"
	check_cmp "$7" -gt 0 "dequeue_calls moved"
	check_cmp "$9" -gt 0 "dropping_entries moved"
	# every drop is either a tail drop or a CoDel drop (entry or loop)
	check_cmp "$6" -eq "$(( $3 + $8 + $9 ))" "drops == overlimit + loop_drops + dropping entries (no ecn)"
	log_test "tc: stock and patched tc agree after traffic; drops add up"
}

tc_patched_on_intree_codel() {
	require_patched "tc: patched tc on Debian's in-tree codel" || return
	intree_codel_up
	dummy_up
	$TC_PATCHED qdisc add dev d0 root handle 1: codel ce_threshold 4ms
	check_eq "$($TC_PATCHED qdisc show dev d0 | head -n 1 | sed 's/[[:space:]]*$//')" \
		"qdisc codel 1: root refcnt 2 limit 1000p target 5ms ce_threshold 4ms interval 100ms" "in-tree show"
	out=$($TC_PATCHED -s qdisc show dev d0 | sed -n '4,6p' | sed 's/[[:space:]]*$//')
	check_eq "$out" "  count 0 lastcount 0 ldelay 0us drop_next 0us
  maxpacket 0 ecn_mark 0 drop_overlimit 0" "patched tc on the in-tree module's 9 fields"
	$TC_PATCHED -s -j qdisc show dev d0 >/tmp/q.json
	json_check </tmp/q.json
	check_err $? "patched tc -j on in-tree codel is not valid JSON"
	check_eq "$(json_fields count dequeue_calls </tmp/q.json)" "count=0 dequeue_calls=None" \
		"in-tree JSON has mainline fields only"
	tc qdisc del dev d0 root
	rmmod sch_codel
	check_err $? "rmmod in-tree sch_codel"
	log_test "tc: patched tc on Debian's in-tree codel prints what exists"
}

# plugin_in / plugin_out: put the packaged q_codel.so where Debian's tc
# looks first (as tc-codel installs it), and take it away again.
plugin_in() {
	PLUGIN_MKDIR=
	[ -d $TCLIB ] || { mkdir -p $TCLIB && PLUGIN_MKDIR=1; }
	cp $PLUGIN $TCLIB/q_codel.so
}

plugin_out() {
	rm -f $TCLIB/q_codel.so
	[ -z "$PLUGIN_MKDIR" ] || rmdir $TCLIB
}

# plugin_teaches STOCK_TC NAME: STOCK_TC, with the plugin, parses and
# prints every extension as the patched tc does.
plugin_teaches() {
	stock=$1 name=$2
	[ -f $PLUGIN ] || { log_skip "$name" "tc-codel not built (make deb)"; return; }
	require_patched "$name" || return
	plugin_in
	dummy_up
	$stock qdisc add dev d0 root handle 1: codel limit 50 ce_threshold 1ms ce_threshold_selector 0x1/0x3 split_gso memory_limit 1mb
	check_err $? "stock tc with the plugin: add with every extension"
	check_eq "$($stock qdisc show dev d0 | head -n 1 | sed 's/[[:space:]]*$//')" \
		"qdisc codel 1: root refcnt 2 limit 50p target 5ms ce_threshold 999us interval 100ms ce_threshold_selector 0x1/0x3 split_gso memory_limit 1Mb" \
		"stock tc shows the extensions"
	"$SEND" 30 d0
	for args in "-s qdisc show dev d0" "-s -j qdisc show dev d0" "-s -j -p qdisc show dev d0"; do
		# shellcheck disable=SC2086
		check_eq "$($stock $args 2>&1)" "$($TC_PATCHED $args 2>&1)" "stock+plugin vs patched: tc $args"
	done
	$stock -s -j qdisc show dev d0 >/tmp/q.json
	json_check </tmp/q.json
	check_err $? "stock tc -j with the plugin is not valid JSON"
	case $(json_fields dequeue_calls sojourn_hist memory_used </tmp/q.json) in
	"dequeue_calls="[0-9]*" sojourn_hist="[0-9]*,*" memory_used="[0-9]*) ;;
	*) check_err 1 "our counters missing from stock tc's JSON: $(json_fields dequeue_calls sojourn_hist memory_used </tmp/q.json)" ;;
	esac
	$stock qdisc change dev d0 root codel no_ce_threshold no_ce_threshold_selector no_split_gso memory_limit 32mb
	check_err $? "switching the extensions off"
	check_eq "$($stock qdisc show dev d0 | head -n 1 | sed 's/[[:space:]]*$//')" \
		"qdisc codel 1: root refcnt 2 limit 50p target 5ms interval 100ms" "all off again"
	err=$($stock qdisc change dev d0 root codel ce_threshold_selector 0x4/0x3 2>&1)
	check_eq "$err" "Error: codel: ce_threshold_selector has bits outside its mask." "extack through the plugin"
	plugin_out
	log_test "$name"
}

tc_plugin_teaches_stock_tc() {
	plugin_teaches tc \
		"tc plugin: stock /usr/sbin/tc (6.1) with q_codel.so parses and prints every extension as the patched tc"
}

tc_plugin_teaches_stock_tc_615() {
	name="tc plugin: bookworm-backports' stock tc 6.15 with q_codel.so parses and prints every extension as the patched tc"
	[ -x $TC615 ] || { log_skip "$name" "no stock tc 6.15 (make tc)"; return; }
	check_eq "$($TC615 -V | cut -d, -f2)" " iproute2-6.15.0" "precondition: tc 6.15"
	plugin_teaches $TC615 "$name"
}

tc_plugin_on_intree_prints_as_stock() {
	name="tc plugin: on Debian's in-tree codel, stock tc prints the same with and without it"
	[ -f $PLUGIN ] || { log_skip "$name" "tc-codel not built (make deb)"; return; }
	intree_codel_up
	dummy_up
	tc qdisc add dev d0 root handle 1: codel limit 50 ce_threshold 4ms ecn
	"$SEND" 30 d0
	for args in "qdisc show dev d0" "-s qdisc show dev d0" "-s -j qdisc show dev d0"; do
		# shellcheck disable=SC2086
		without=$(tc $args 2>&1)
		plugin_in
		# shellcheck disable=SC2086
		with=$(tc $args 2>&1)
		plugin_out
		check_eq "$with" "$without" "tc $args with and without the plugin"
	done
	tc qdisc del dev d0 root
	rmmod sch_codel
	check_err $? "rmmod in-tree sch_codel"
	log_test "$name"
}
