#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The metrics exporter's files on the host: its manual page as mandoc's
# linter reads it, its systemd units as systemd-analyze verify reads them,
# and its answers to bad input (a clear error, the last file kept).  Its
# output on a real run is tested in the guest (codel-metrics.sh).  Loads
# and starts nothing.  Run from the top of the tree: tests/host/exporter.sh

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
EXPORTER=$top/exporter/codel-exporter

cleanup_all() { :; }

exporter_man_page_lint_clean() {
	local out
	out=$(mandoc -T lint -W style exporter/codel-exporter.8 2>&1)
	check_err $? "mandoc -T lint: $out"
	check_eq "$out" "" "mandoc -T lint printed something"
	log_test "exporter: codel-exporter(8) is mandoc -T lint clean"
}

# The units as the package installs them, the command pointed at this
# tree's exporter (the package's path is checked by tests/host/deb.sh).
exporter_units_verify() {
	local out
	sed "s#^ExecStart=/usr/sbin/codel-exporter#ExecStart=$EXPORTER#" \
		debian/tc-codel.codel-exporter.service >"$work/codel-exporter.service"
	cp debian/tc-codel.codel-exporter.timer "$work/codel-exporter.timer"
	grep -q "^ExecStart=$EXPORTER\$" "$work/codel-exporter.service"
	check_err $? "precondition: the service runs codel-exporter"
	out=$(cd "$work" && systemd-analyze verify --man=no ./codel-exporter.service ./codel-exporter.timer 2>&1)
	check_err $? "systemd-analyze verify: $out"
	check_eq "$out" "" "systemd-analyze verify printed something"
	# Control: a command that does not exist fails.
	sed "s#^ExecStart=.*#ExecStart=/usr/sbin/codel-exporter-none#" \
		"$work/codel-exporter.service" >"$work/bad.service"
	(cd "$work" && systemd-analyze verify --man=no ./bad.service >/dev/null 2>&1)
	check_fail $? "control: verify took a unit whose command does not exist"
	log_test "exporter: codel-exporter.service and .timer pass systemd-analyze verify"
}

# run INPUT: the exporter on INPUT into $work/prom; its status in rc, its
# standard error in err.
run() {
	err=$(printf '%s' "$1" | "$EXPORTER" --input - --textfile-dir "$work/prom" 2>&1)
	rc=$?
}

exporter_bad_input_keeps_last_file() {
	local good='[{"kind":"codel","dev":"eth0","handle":"10:","root":true,"packets":7,"sojourn_hist":[7,0,0,0,0,0,0,0,0,0,0,0,0,0],"sojourn_sum_ns":3072}]'
	local kept input want
	mkdir -p "$work/prom"
	run "$good"
	check_eq "$rc:$err" "0:" "precondition: the exporter wrote a file"
	check_eq "$(grep -c '^codel_sojourn_seconds_bucket' "$work/prom/codel.prom")" 14 "precondition: 14 buckets"
	check_eq "$(grep '^codel_sojourn_seconds_sum' "$work/prom/codel.prom")" \
		'codel_sojourn_seconds_sum{device="eth0",handle="10:",kind="codel",parent="root"} 0.000003072' "_sum in seconds"
	kept=$(cat "$work/prom/codel.prom")
	for input in 'not json' '{"kind":"codel"}' '[{"kind":"codel","handle":"10:"}]' \
		'[{"kind":"codel","dev":"eth0","handle":"10:","root":true,"sojourn_hist":[1,2]}]' \
		'[{"kind":"codel","dev":"eth0","handle":"10:","root":true,"packets":"7"}]' \
		'[{"kind":"codel","dev":"eth0","handle":"10:"}]'; do
		case $input in
		'not json') want="codel-exporter: tc's output is not JSON: Expecting value: line 1 column 1 (char 0)" ;;
		'{'*) want="codel-exporter: tc's JSON is not a list of qdiscs" ;;
		*'"codel","handle":"10:"}]') want="codel-exporter: a codel qdisc without 'dev'" ;;
		*'"handle":"10:"}]') want="codel-exporter: codel eth0 10:: neither root nor a parent" ;;
		*'[1,2]'*) want="codel-exporter: codel eth0 10:: sojourn_hist is not 14 buckets" ;;
		*) want="codel-exporter: not a number: '7'" ;;
		esac
		run "$input"
		check_eq "$rc:$err" "1:$want" "input $input"
		check_eq "$(cat "$work/prom/codel.prom")" "$kept" "the last file kept after $input"
	done
	check_eq "$(ls -A "$work/prom")" "codel.prom" "no temporary file left"
	# A histogram without its sum is left out, and said so.
	run '[{"kind":"codel","dev":"eth0","handle":"10:","parent":"1:10","packets":7,"sojourn_hist":[7,0,0,0,0,0,0,0,0,0,0,0,0,0]}]'
	check_eq "$rc:$err" "0:codel-exporter: codel eth0 10:: no sojourn_sum_ns (module or tc older than this exporter): histogram left out" \
		"histogram without sojourn_sum_ns"
	check_eq "$(grep -c 'codel_sojourn_seconds' "$work/prom/codel.prom")" 0 "no histogram without its sum"
	check_eq "$(grep -c '^codel_sent_packets_total{device="eth0",handle="10:",kind="codel",parent="1:10"} 7$' "$work/prom/codel.prom")" 1 "its counters written"
	err=$("$EXPORTER" --input /dev/null --textfile-dir "$work/none" 2>&1)
	check_eq "$?:$err" "1:codel-exporter: tc's output is not JSON: Expecting value: line 1 column 1 (char 0)" "empty input"
	err=$(echo '[]' | "$EXPORTER" --input - --textfile-dir "$work/none" 2>&1)
	check_eq "$?:${err%%:*}" "1:codel-exporter" "a missing directory: $err"
	case $err in *"cannot write $work/none/codel.prom"*) ;;
	*) check_err 1 "missing directory message: $err" ;; esac
	err=$("$EXPORTER" --tc /nonexistent/tc --stdout 2>&1)
	check_eq "$?:$err" "1:codel-exporter: cannot run /nonexistent/tc: [Errno 2] No such file or directory: '/nonexistent/tc'" "tc missing"
	log_test "exporter: bad input, a missing directory or tc: exit 1, the reason, the last file kept"
}

ALL_TESTS="exporter_man_page_lint_clean exporter_units_verify exporter_bad_input_keeps_last_file"
run_tests
