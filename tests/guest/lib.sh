# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Shared library of the in-guest tests, after the kernel's
# selftests/net/forwarding/lib.sh: a test function starts with RET=0,
# records the first failure with check_err/check_fail/check_eq, and ends
# with log_test NAME, which prints one TAP line.  run_tests runs every
# function named in ALL_TESTS and prints "N passed, N failed, N skipped".
#
# Guest topology (qemu/guest/init):  root ns eth0 198.18.0.1/24  <->
# netns "far" eth1 198.18.0.2/24.  topo_router_up adds netns "near"
# (198.18.1.2) behind a veth pair, routed through the root namespace, so
# that traffic from near to far crosses eth0's qdisc as on a router.

. /etc/guest-env

TESTS_RUN=0
TESTS_PASSED=0
TESTS_FAILED=0
TESTS_SKIPPED=0
RET=0
RET_MSG=
FAR=198.18.0.2
NEAR=198.18.1.2
MODULE_PATH=/lib/modules/$KERNELRELEASE/updates/sch_codel.ko
INTREE_PATH=/lib/modules/$KERNELRELEASE/kernel/net/sched/sch_codel.ko

diag() { echo "# $*"; }

check_err() {
	if [ "$RET" -eq 0 ] && [ "$1" -ne 0 ]; then
		RET=1
		RET_MSG=$2
		diag "FAIL: $2"
	fi
}

check_fail() {
	if [ "$RET" -eq 0 ] && [ "$1" -eq 0 ]; then
		RET=1
		RET_MSG=$2
		diag "FAIL: $2"
	fi
}

# check_eq ACTUAL EXPECTED WHAT
check_eq() {
	if [ "$1" != "$2" ]; then
		check_err 1 "$3"
		diag "  expected: '$2'"
		diag "  actual:   '$1'"
	fi
}

# check_cmp A OP B WHAT: numeric comparison, OP one of test's -lt -le ...
check_cmp() {
	if ! [ "$1" "$2" "$3" ] 2>/dev/null; then
		check_err 1 "$4 ($1 $2 $3 is false)"
	fi
}

log_test() {
	TESTS_RUN=$((TESTS_RUN + 1))
	if [ "$RET" -ne 0 ]; then
		TESTS_FAILED=$((TESTS_FAILED + 1))
		echo "not ok $TESTS_RUN $1 # $RET_MSG"
	else
		TESTS_PASSED=$((TESTS_PASSED + 1))
		echo "ok $TESTS_RUN $1"
	fi
	RET=0
	RET_MSG=
}

# log_skip NAME REASON: a test that cannot run here, said so.
log_skip() {
	TESTS_RUN=$((TESTS_RUN + 1))
	TESTS_SKIPPED=$((TESTS_SKIPPED + 1))
	echo "ok $TESTS_RUN $1 # SKIP $2"
	RET=0
	RET_MSG=
}

# require_cmd NAME TEST: 1 (and a skip line) when a tool is missing.
require_cmd() {
	command -v "$1" >/dev/null 2>&1 && return 0
	log_skip "$2" "$1 not available in the guest"
	return 1
}

run_tests() {
	echo "KTAP version 1"
	for t in $ALL_TESTS; do
		$t
		cleanup_all
	done
	echo "1..$TESTS_RUN"
	echo "$TESTS_PASSED passed, $TESTS_FAILED failed, $TESTS_SKIPPED skipped"
	[ "$TESTS_FAILED" -eq 0 ]
}

# --- reading tc ------------------------------------------------------------

# First line of "tc qdisc show dev DEV", trailing blanks trimmed.
qdisc_line() {
	tc qdisc show dev "$1" | head -n 1 | sed 's/[[:space:]]*$//'
}

# tc -s output of one qdisc (HANDLE like 1:) or class (classid like 1:10)
# as one line.  Usage: stats_of qdisc|class DEV HANDLE
stats_of() {
	tc -s "$1" show dev "$2" | awk -v h="$3" -v kind="$1" '
		$1 == kind { on = ($3 == h) }
		on { printf "%s ", $0 }'
}

# Value after the first KEY in a stats line (trailing comma removed).
field() {
	echo "$1" | awk -v k="$2" '{
		for (i = 1; i < NF; i++)
			if ($i == k) { v = $(i + 1); sub(/,$/, "", v); print v; exit }
	}'
}

# Convert tc's time text (0us, 512us, 4.8ms, 1.2s) to integer microseconds.
to_us() {
	echo "$1" | awk '{
		v = $1; m = 1
		if (v ~ /us$/) { sub(/us$/, "", v) }
		else if (v ~ /ms$/) { sub(/ms$/, "", v); m = 1000 }
		else if (v ~ /s$/) { sub(/s$/, "", v); m = 1000000 }
		printf "%d\n", v * m
	}'
}

# "Sent B bytes P pkt (dropped D, overlimits O requeues R) backlog Xb Yp"
sent_bytes() { field "$1" Sent; }
sent_pkts() { field "$1" bytes; }
dropped() { field "$1" "(dropped"; }
backlog_bytes() { field "$1" backlog | sed 's/b$//'; }
backlog_pkts() { echo "$1" | awk '{ for (i = 1; i < NF; i++) if ($i == "backlog") { v = $(i + 2); sub(/p$/, "", v); print v; exit } }'; }

# --- topology -------------------------------------------------------------

topo_router_up() {
	ip netns add near
	ip link add veth0 type veth peer name veth1 netns near
	ip addr add 198.18.1.1/24 dev veth0
	ip link set veth0 up
	ip -n near link set lo up
	ip -n near addr add "$NEAR/24" dev veth1
	ip -n near link set veth1 up
	ip -n near route add default via 198.18.1.1
	ip -n far route add 198.18.1.0/24 via 198.18.0.1 2>/dev/null
	echo 1 >/proc/sys/net/ipv4/ip_forward
	# MTU-sized packets into the qdisc under test (no 64 KB GSO trains).
	ip netns exec near ethtool -K veth1 tso off gso off gro off >/dev/null 2>&1
	ethtool -K veth0 gro off >/dev/null 2>&1
	ip -n near neigh flush all >/dev/null 2>&1
}

topo_router_down() {
	ip link del veth0 2>/dev/null
	ip netns del near 2>/dev/null
}

# Start an iperf3 server in "far" (daemon) and wait until it listens.
iperf_server_up() {
	ip netns exec far iperf3 -s -D -1 >/dev/null 2>&1 ||
		ip netns exec far iperf3 -s -D >/dev/null 2>&1
	sleep 0.3
}

iperf_server_down() {
	killall iperf3 >/dev/null 2>&1
	sleep 0.1
}

# HTB bottleneck of RATE on eth0 with LEAF... as the leaf of class 1:10.
htb_with_leaf() {
	rate=$1
	shift
	tc qdisc add dev eth0 root handle 1: htb default 10 &&
		tc class add dev eth0 parent 1: classid 1:10 htb rate "$rate" \
			ceil "$rate" quantum 1514 &&
		tc qdisc add dev eth0 parent 1:10 handle 10: "$@"
}

cleanup_all() {
	iperf_server_down
	tc qdisc del dev eth0 root >/dev/null 2>&1
	ip link del d0 >/dev/null 2>&1
	topo_router_down
}
