#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# docs/deploy.md's files that the guest cannot run: the systemd unit, as
# systemd-analyze verify reads it, and the systemd-networkd file, each of
# whose [Section] Key= the installed systemd-networkd must know (its
# configuration table, read from the binary: networkd cannot run here).
# Loads and starts nothing.  Run from the top of the tree:
# tests/host/deploy.sh

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
NETWORKD=/lib/systemd/systemd-networkd

cleanup_all() { :; }

# doc_file NAME: the fenced block after "<!-- file: NAME -->" in deploy.md.
doc_file() {
	awk -v mark="<!-- file: $1 -->" '
		$0 == mark { want = 1; next }
		want && !inside && /^```/ { inside = 1; next }
		inside && /^```$/ { exit }
		inside { print }' docs/deploy.md
}

deploy_unit_verifies() {
	local out
	doc_file codel-eth0.service >"$work/codel-eth0.service"
	[ -s "$work/codel-eth0.service" ]
	check_err $? "deploy.md has no codel-eth0.service"
	out=$(cd "$work" && systemd-analyze verify ./codel-eth0.service 2>&1)
	check_err $? "systemd-analyze verify: $out"
	check_eq "$out" "" "systemd-analyze verify printed something"
	# Control: the same unit with a command that does not exist fails.
	sed 's#^ExecStart=/usr/sbin/tc #ExecStart=/usr/sbin/tc-none #' \
		"$work/codel-eth0.service" >"$work/bad.service"
	(cd "$work" && systemd-analyze verify ./bad.service >/dev/null 2>&1)
	check_fail $? "control: verify took a unit whose command does not exist"
	log_test "deploy.md: codel-eth0.service passes systemd-analyze verify"
}

# keys FILE: Section.Key of every setting in a systemd-style FILE.
keys() {
	awk '/^\[/ { s = substr($0, 2, length($0) - 2); next }
		/^[A-Za-z]/ { k = $0; sub(/=.*/, "", k); print s "." k }' "$1"
}

deploy_network_file_keys_known() {
	local known k n=0
	doc_file 80-eth0.network >"$work/80-eth0.network"
	known=$(strings "$NETWORKD" | grep -E '^[A-Za-z]+\.[A-Za-z]+$')
	echo "$known" | grep -qx 'ControlledDelay.TargetSec'
	check_err $? "precondition: $NETWORKD's table read (ControlledDelay.TargetSec)"
	for k in $(keys "$work/80-eth0.network"); do
		n=$((n + 1))
		echo "$known" | grep -qx "$k"
		check_err $? "systemd-networkd does not know $k"
	done
	check_cmp "$n" -ge 7 "settings read from 80-eth0.network"
	echo "$known" | grep -qx 'ControlledDelay.SplitGSO'
	check_fail $? "control: networkd claims to know ControlledDelay.SplitGSO"
	log_test "deploy.md: every setting of 80-eth0.network is one systemd-networkd knows ($n)"
}

ALL_TESTS="deploy_unit_verifies deploy_network_file_keys_known"
run_tests
