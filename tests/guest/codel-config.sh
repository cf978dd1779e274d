# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Control plane: loading, exact tc output for every parameter, change,
# replace, delete, unload, and rejected input.  Uses a dummy device so no
# traffic disturbs the counters.  Sourced by all.sh.

ALL_TESTS="$ALL_TESTS
	module_insmod
	module_autoload_is_ours
	show_defaults
	show_each_parameter
	change_each_parameter
	replace_qdisc
	delete_qdisc
	rmmod_refused_while_in_use
	bad_input_rejected_with_extack
	rejected_change_leaves_qdisc_as_is
	xstats_stock_tc
	reset_empties_queue_and_memory
	reset_clears_codel_state
	change_refreshes_mtu_guard
"

module_insmod() {
	rmmod sch_codel 2>/dev/null
	insmod "$MODULE_PATH"
	check_err $? "insmod $MODULE_PATH failed"
	lsmod | grep -q '^sch_codel '
	check_err $? "sch_codel not in lsmod after insmod"
	codel_is_ours
	check_err $? "loaded sch_codel is not the out-of-tree module"
	rmmod sch_codel
	check_err $? "rmmod of an unused module failed"
	log_test "module: insmod and rmmod"
}

module_autoload_is_ours() {
	rmmod sch_codel 2>/dev/null
	dummy_up
	tc qdisc add dev d0 root handle 1: codel
	check_err $? "tc qdisc add codel with no module loaded failed"
	codel_is_ours
	check_err $? "auto-load picked the in-tree sch_codel, not updates/"
	check_eq "$(modinfo -F filename sch_codel)" "$MODULE_PATH" "modinfo filename"
	log_test "module: auto-load by tc picks ours"
}

show_defaults() {
	dummy_up
	tc qdisc add dev d0 root handle 1: codel
	check_eq "$(qdisc_line d0)" \
		"qdisc codel 1: root refcnt 2 limit 1000p target 5ms interval 100ms" \
		"default parameters"
	log_test "show: defaults"
}

# One "OPTIONS|EXPECTED PARAMETERS" per line.
PARAM_CASES="limit 1500|limit 1500p target 5ms interval 100ms
limit 1|limit 1p target 5ms interval 100ms
target 100ms|limit 1000p target 100ms interval 100ms
target 1us|limit 1000p target 0us interval 100ms
target 100s|limit 1000p target 100s interval 100ms
interval 20ms|limit 1000p target 5ms interval 20ms
interval 1us|limit 1000p target 5ms interval 0us
interval 2us|limit 1000p target 5ms interval 1us
interval 100s|limit 1000p target 5ms interval 100s
ecn|limit 1000p target 5ms interval 100ms ecn
noecn|limit 1000p target 5ms interval 100ms
ce_threshold 20ms|limit 1000p target 5ms ce_threshold 20ms interval 100ms
ce_threshold 0ms|limit 1000p target 5ms ce_threshold 0us interval 100ms
limit 77 target 2ms interval 30ms ecn ce_threshold 500us|limit 77p target 2ms ce_threshold 499us interval 30ms ecn"

show_each_parameter() {
	dummy_up
	echo "$PARAM_CASES" | while IFS='|' read -r opts want; do
		# shellcheck disable=SC2086
		tc qdisc add dev d0 root handle 1: codel $opts
		check_err $? "add codel $opts"
		check_eq "$(qdisc_line d0)" "qdisc codel 1: root refcnt 2 $want" "codel $opts"
		tc qdisc del dev d0 root
		[ "$RET" -eq 0 ] || exit 1
	done
	check_err $? "a parameter case failed (see above)"
	log_test "show: every parameter, boundaries included"
}

change_each_parameter() {
	dummy_up
	tc qdisc add dev d0 root handle 1: codel
	prefix="qdisc codel 1: root refcnt 2"
	tc qdisc change dev d0 root codel limit 100
	check_eq "$(qdisc_line d0)" "$prefix limit 100p target 5ms interval 100ms" "change limit"
	tc qdisc change dev d0 root codel target 10ms
	check_eq "$(qdisc_line d0)" "$prefix limit 100p target 10ms interval 100ms" "change target"
	tc qdisc change dev d0 root codel interval 50ms
	check_eq "$(qdisc_line d0)" "$prefix limit 100p target 10ms interval 50ms" "change interval"
	tc qdisc change dev d0 root codel ecn
	check_eq "$(qdisc_line d0)" "$prefix limit 100p target 10ms interval 50ms ecn" "change ecn"
	tc qdisc change dev d0 root codel ce_threshold 3ms
	check_eq "$(qdisc_line d0)" \
		"$prefix limit 100p target 10ms ce_threshold 3ms interval 50ms ecn" "change ce_threshold"
	tc qdisc change dev d0 root codel noecn
	check_eq "$(qdisc_line d0)" \
		"$prefix limit 100p target 10ms ce_threshold 3ms interval 50ms" "change noecn"
	tc qdisc change dev d0 root codel
	check_eq "$(qdisc_line d0)" \
		"$prefix limit 100p target 10ms ce_threshold 3ms interval 50ms" "empty change"
	log_test "change: every parameter on a live qdisc"
}

replace_qdisc() {
	dummy_up
	tc qdisc add dev d0 root handle 1: codel target 7ms
	tc qdisc replace dev d0 root handle 1: codel limit 5000
	check_err $? "replace failed"
	check_eq "$(qdisc_line d0)" \
		"qdisc codel 1: root refcnt 2 limit 5000p target 7ms interval 100ms" "replace keeps the rest"
	tc qdisc replace dev d0 root handle 2: pfifo limit 10
	check_eq "$(qdisc_line d0)" "qdisc pfifo 2: root refcnt 2 limit 10p" "replace by pfifo"
	tc qdisc replace dev d0 root handle 3: codel
	check_eq "$(qdisc_line d0)" \
		"qdisc codel 3: root refcnt 2 limit 1000p target 5ms interval 100ms" "replace pfifo by codel"
	log_test "replace: codel by codel, pfifo, and back"
}

delete_qdisc() {
	dummy_up
	tc qdisc add dev d0 root handle 1: codel
	tc qdisc del dev d0 root
	check_err $? "delete failed"
	tc qdisc show dev d0 | grep -q codel
	check_fail $? "codel still shown after delete"
	tc qdisc del dev d0 root handle 1: 2>/dev/null
	check_fail $? "deleting a nonexistent qdisc succeeded"
	log_test "delete"
}

rmmod_refused_while_in_use() {
	dummy_up
	tc qdisc add dev d0 root handle 1: codel
	rmmod sch_codel 2>/dev/null
	check_fail $? "rmmod succeeded while a codel qdisc exists"
	lsmod | grep -q '^sch_codel '
	check_err $? "module gone while in use"
	tc qdisc del dev d0 root
	rmmod sch_codel
	check_err $? "rmmod after delete failed"
	log_test "rmmod: refused while in use, fine after delete"
}

# Each: options|extack text.  Stock tc omits zero values, so zeros are not
# sent; these are values it does send.
BAD_CASES="interval 101s|Error: codel: interval must be at most 100s.
target 101s|Error: codel: target must be at most 100s.
ce_threshold 200s|Error: codel: ce_threshold must be at most 100s."

bad_input_rejected_with_extack() {
	dummy_up
	echo "$BAD_CASES" | while IFS='|' read -r opts want; do
		# shellcheck disable=SC2086
		err=$(tc qdisc add dev d0 root handle 1: codel $opts 2>&1)
		check_fail $? "codel $opts accepted"
		check_eq "$err" "$want" "extack for $opts"
		check_eq "$(qdisc_line d0)" "qdisc noqueue 0: root refcnt 2" "nothing created by $opts"
		[ "$RET" -eq 0 ] || exit 1
	done
	check_err $? "a bad-input case failed (see above)"
	log_test "bad input: rejected with an extack naming the attribute"
}

# The policy rejects an out-of-range value while parsing, before the
# module sees the request; the module's own check of a selector outside
# its mask runs after parsing, next to valid settings it must not apply
# either.  (ce_threshold set and switched off at once, the module's other
# check, never leaves the patched tc, which refuses it first.)
rejected_change_leaves_qdisc_as_is() {
	dummy_up
	tc qdisc add dev d0 root handle 1: codel limit 50 target 3ms ce_threshold 1ms
	before=$(qdisc_line d0)
	# A valid target next to an invalid interval: neither may apply.
	tc qdisc change dev d0 root codel target 7ms limit 9 ecn interval 101s 2>/dev/null
	check_fail $? "change with an invalid interval accepted"
	check_eq "$(qdisc_line d0)" "$before" "settings after a change the policy rejected"
	if [ -x "$TC_PATCHED" ]; then
		before=$($TC_PATCHED qdisc show dev d0 | head -n 1)
		for bad in "ce_threshold_selector 0x4/0x3|ce_threshold_selector has bits outside its mask"; do
			# shellcheck disable=SC2086
			err=$($TC_PATCHED qdisc change dev d0 root codel target 7ms limit 9 ecn interval 30ms \
				split_gso memory_limit 1mb ${bad%|*} 2>&1)
			check_fail $? "change with $bad accepted"
			check_eq "$err" "Error: codel: ${bad#*|}." "precondition: the module rejected it (${bad%|*})"
			check_eq "$($TC_PATCHED qdisc show dev d0 | head -n 1)" "$before" "settings after ${bad%|*}"
		done
	fi
	log_test "bad input: a rejected change applies nothing"
}

xstats_stock_tc() {
	dummy_up
	tc qdisc add dev d0 root handle 1: codel
	out=$(tc -s qdisc show dev d0 | sed -n '4,5p' | sed 's/[[:space:]]*$//')
	check_eq "$out" "  count 0 lastcount 0 ldelay 0us drop_next 0us
  maxpacket 0 ecn_mark 0 drop_overlimit 0" "stock tc xstats of a fresh qdisc"
	json=$(tc -s -j qdisc show dev d0)
	case $json in
	*'"count":0,"lastcount":0,"ldelay":0,"drop_next":0,"maxpacket":0,"ecn_mark":0,"drop_overlimit":0'*) ;;
	*) check_err 1 "stock tc JSON xstats: $json" ;;
	esac
	log_test "xstats: stock tc reads mainline's fields (text and JSON)"
}

# A device going down resets its qdiscs: codel must then hold nothing and
# account no memory.  Under a TBF at 8 bit/s with a 128-byte bucket (it
# sends one 64-byte frame and peeks the next) 20 frames stand in codel
# until the reset.
reset_empties_queue_and_memory() {
	name="reset: a device down empties codel, memory_used included"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	dummy_up
	tc qdisc add dev d0 root handle 1: tbf rate 8bit burst 128 limit 100000 &&
		tc qdisc add dev d0 parent 1:1 handle 10: codel
	check_err $? "tbf + codel on d0"
	"$SEND" 20 d0 >/dev/null
	set -- $(xjson d0 10: qlen memory_used)
	diag "before the reset: qlen $1 memory_used $2"
	check_cmp "$1" -ge 18 "precondition: frames stand in codel"
	check_cmp "$2" -gt 0 "precondition: their memory is accounted"
	ip link set d0 down && ip link set d0 up
	check_eq "$(xjson d0 10: qlen backlog memory_used)" "0 0 0" "qlen, backlog and memory_used after the reset"
	log_test "$name"
}

# eager_codel_on_d0 MTU: d0 at MTU under a TBF at 1 Mbit/s (64 kbit/s on
# the debug kernel, whose sender is slower than 1 Mbit/s of 64-byte
# frames), codel 10: below it dropping whenever more than the MTU guard
# stands (target 1us, interval 2us).
eager_codel_on_d0() {
	local rate=1mbit
	debug_kernel && rate=64kbit
	dummy_up &&
		ip link set d0 mtu "$1" &&
		tc qdisc add dev d0 root handle 1: tbf rate $rate burst 128 limit 100000 &&
		tc qdisc add dev d0 parent 1:1 handle 10: codel target 1us interval 2us
}

# frames_through_d0 N: N 64-byte frames into d0, then until codel is empty.
frames_through_d0() {
	"$SEND" "$1" d0 >/dev/null
	busywait 10000 queue_empty d0 10:
}

# A reset also starts CoDel's state machine over: the count and the
# dropping state of the episode it cut short must not carry into the
# next.  An aggressive codel (target 1us, interval 2us) on a dummy at MTU
# 576 (so 64-byte frames soon stand above the MTU guard) drops while a
# TBF drains 200 frames.
reset_clears_codel_state() {
	name="reset: a device down clears CoDel's count and dropping state"
	[ -x "$TC_PATCHED" ] || { log_skip "$name" "patched tc not built (make tc)"; return; }
	eager_codel_on_d0 576
	check_err $? "tbf + codel on d0"
	frames_through_d0 200
	set -- $(xjson d0 10: count lastcount drops)
	diag "before the reset: count $1 lastcount $2 drops $3"
	check_cmp "$1" -gt 0 "precondition: CoDel dropped (count)"
	ip link set d0 down && ip link set d0 up
	check_eq "$(xjson d0 10: count lastcount dropping)" "0 0 false" "count, lastcount, dropping after the reset"
	log_test "$name"
}

# CoDel's MTU guard (no drop while at most an MTU stands) follows the
# device: a change re-reads it.  Created at MTU 9000 (a 9014-byte guard),
# a queue of 100 64-byte frames (6400 bytes) under the TBF stands
# below it and nothing drops, however aggressive codel is; after MTU 576
# and a change, the same queue stands above the 590-byte guard and CoDel
# drops.  A guard kept from creation would still let it stand.
change_refreshes_mtu_guard() {
	name="change: CoDel's MTU guard re-read from the device"
	eager_codel_on_d0 9000
	check_err $? "tbf + codel on d0 at MTU 9000"
	frames_through_d0 100
	set -- $(stats_of qdisc d0 10: | "$TCJ" get packets drops maxpacket)
	check_eq "$*" "100 0 64" "precondition: 100 frames through, none dropped under a 9014-byte guard"
	ip link set d0 mtu 576 &&
		tc qdisc change dev d0 parent 1:1 handle 10: codel target 1us interval 2us
	check_err $? "MTU 576, then a change"
	frames_through_d0 100
	set -- $(stats_of qdisc d0 10: | "$TCJ" get drops)
	diag "after the change: $1 of 100 frames dropped"
	check_cmp "$1" -gt 0 "CoDel dropped above the 590-byte guard"
	log_test "$name"
}
