# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The guest's topology and its traffic, for lib.sh: namespaces, the router
# (near -> eth0's qdisc -> far), the multiqueue NICs, shaping trees with a
# codel leaf, iperf3 and the GSO sender, and cleanup_all after every test.

# The veth pair of topo_router_up (locally administered addresses).
VETH0_MAC=02:00:00:00:01:01
VETH1_MAC=02:00:00:00:01:02

# in_ns NS CMD...: CMD in network namespace NS, for reading /proc/net and
# /proc/sys (no /sys of its own, unlike "ip netns exec").  busybox's
# nsenter is one fork of the static busybox; "ip netns exec" costs two
# execs of dynamically linked tools, ~50 ms each under TCG.
in_ns() {
	local ns=$1
	shift
	busybox nsenter --net="/run/netns/$ns" "$@"
}


# A dummy device with IPv6 off, so no autoconf packet touches counters.
dummy_up() {
	ip link add d0 type dummy &&
		echo 1 >/proc/sys/net/ipv6/conf/d0/disable_ipv6 &&
		ip link set d0 up
}

topo_router_up() {
	ip netns add near
	# One ip per namespace (-batch): under TCG each exec of ip costs
	# ~50 ms, and the traffic tests build this once each.  The veth
	# ends get fixed addresses, so quiet_path need not read them.
	ip -batch - <<-EOF
	link add veth0 address $VETH0_MAC type veth peer name veth1 address $VETH1_MAC netns near
	addr add 198.18.1.1/24 dev veth0
	link set veth0 up
	EOF
	ip -n near -batch - <<-EOF
	link set lo up
	addr add $NEAR/24 dev veth1
	link set veth1 up
	route add default via 198.18.1.1
	EOF
	ip -n far route add 198.18.1.0/24 via 198.18.0.1 2>/dev/null
	echo 1 >/proc/sys/net/ipv4/ip_forward
	# MTU-sized packets into the qdisc under test (no 64 KB GSO trains),
	# unless SENDER_GSO=on asks for the trains (split_gso tests, bench).
	in_ns near ethtool -K veth1 tso "${SENDER_GSO:-off}" \
		gso "${SENDER_GSO:-off}" gro off >/dev/null 2>&1
	ethtool -K veth0 gro off >/dev/null 2>&1
}

topo_router_down() {
	[ -e /sys/class/net/veth0 ] || [ -e /run/netns/near ] || return 0
	# veth0 first, synchronously (a pair left to the namespace's
	# teardown goes later, from a worker, and would race the isolation
	# check); -force: on, whichever of the two is already gone.
	ip -force -batch - >/dev/null 2>&1 <<-EOF
	link del veth0
	netns del near
	EOF
	ip -n far route del 198.18.1.0/24 2>/dev/null
	echo 0 >/proc/sys/net/ipv4/ip_forward
}

# mq_up / mq_down: eth2 in the root namespace (198.18.2.1) and eth3 in
# netns "mqfar" (198.18.2.2), the multiqueue NICs of qemu/run --mq.
MQ_FAR=198.18.2.2

mq_up() {
	ip netns add mqfar
	ip link set eth3 netns mqfar
	ip addr add 198.18.2.1/24 dev eth2
	# No IPv6: its router solicitations would pass between the tests'
	# reads of the qdiscs and of the driver's counters.
	echo 1 >/proc/sys/net/ipv6/conf/eth2/disable_ipv6
	ip link set eth2 up
	ip -n mqfar link set lo up
	ip -n mqfar addr add "$MQ_FAR/24" dev eth3
	ip -n mqfar link set eth3 up
	# virtio-net enables one queue pair per vCPU (2): all four, please.
	ethtool -L eth2 combined 4 >/dev/null 2>&1
	ip netns exec mqfar ethtool -L eth3 combined 4 >/dev/null 2>&1
	# No XPS: what picks a tx queue is the test's (codel-scale.sh pins
	# its load with skbedit), never the CPU that sent.
	for x in /sys/class/net/eth2/queues/tx-*/xps_cpus; do echo 0 >"$x"; done 2>/dev/null
}

# mq_router_up: after topo_router_up and mq_up, near reaches mqfar through
# eth2 as it reaches far through eth0, neighbours fixed (no ARP passes
# eth2's qdisc but the load).
mq_router_up() {
	ip neigh replace "$MQ_FAR" lladdr "$(ip netns exec mqfar cat /sys/class/net/eth3/address)" \
		dev eth2 nud permanent &&
		ip -n mqfar -batch - <<-EOF
	neigh replace 198.18.2.1 lladdr $(cat /sys/class/net/eth2/address) dev eth3 nud permanent
	route add 198.18.1.0/24 via 198.18.2.1
	EOF
}

mq_down() {
	[ -e /sys/class/net/eth2 ] || return 0
	[ -e /run/netns/mqfar ] || return 0
	# Deleted while up, the root goes back to the default (mq with the
	# default_qdisc's children), as all.sh found it.
	tc qdisc del dev eth2 root >/dev/null 2>&1
	tc qdisc del dev eth2 clsact >/dev/null 2>&1
	ip addr flush dev eth2
	ip link set eth2 down
	echo 0 >/proc/sys/net/ipv6/conf/eth2/disable_ipv6
	ethtool -L eth2 combined 2 >/dev/null 2>&1
	ethtool -G eth2 tx 256 >/dev/null 2>&1
	# eth3 back before the namespace goes: a device leaving a dying
	# namespace comes back later, from a worker, and would race the
	# isolation check.
	ip netns exec mqfar ethtool -L eth3 combined 2 >/dev/null 2>&1
	ip -n mqfar link set eth3 down
	ip -n mqfar link set eth3 netns 1
	ip netns del mqfar
	# Its default qdiscs come back when it is next up, as all.sh left it.
	ip link set eth3 up
	ip link set eth3 down
}

# iperf_server_up [NS [PORT]]: an iperf3 server in NS (default far) on
# PORT (default 5201), as a daemon, once it listens.
iperf_server_up() {
	local ns=${1:-far} port=${2:-5201}
	# A server still exiting from the last test would hold the port.
	[ "$port" != 5201 ] || busywait 2000 iperf3_gone
	in_ns "$ns" iperf3 -s -p "$port" -D >/dev/null 2>&1
	busywait 3000 iperf_listening "$ns" "$port"
}

# iperf_listening NS PORT: NS listens on TCP PORT.
iperf_listening() {
	in_ns "$1" cat /proc/net/tcp6 /proc/net/tcp 2>/dev/null |
		grep -q ":$(printf '%04X' "$2") [0-9A-F:]* 0A "
}

iperf3_gone() { ! iperf3_running; }

# iperf3_running: any iperf3 process, from /proc with shell builtins only
# (cleanup_all asks after every test, and a spawn costs tens of ms).
iperf3_running() {
	local c n
	for c in /proc/[0-9]*/comm; do
		read -r n <"$c" 2>/dev/null && [ "$n" = iperf3 ] && return 0
	done
	return 1
}

iperf_server_down() {
	iperf3_running || return 0
	killall iperf3 >/dev/null 2>&1
	sleep 0.1
}

# HTB bottleneck of RATE on eth0 with LEAF... as the leaf of class 1:10.
htb_with_leaf() {
	local rate=$1
	shift
	# One tc for the tree (-batch stops at the first failing line).
	tc -batch - <<-EOF
	qdisc add dev eth0 root handle 1: htb default 10
	class add dev eth0 parent 1: classid 1:10 htb rate $rate ceil $rate quantum 1514
	qdisc add dev eth0 parent 1:10 handle 10: $*
	EOF
}

# Static neighbours and no IPv6 on the path, so that the only packets
# entering eth0's qdisc are the test's own (sent locally, or forwarded from
# near when topo_router_up built the router).
quiet_path() {
	QUIET=1
	# far's MAC never changes within a boot: read it once.
	[ -n "${FAR_MAC:-}" ] || FAR_MAC=$(ip netns exec far cat /sys/class/net/eth1/address)
	sysctl -qw net.ipv6.conf.eth0.disable_ipv6=1
	in_ns far sysctl -qw net.ipv6.conf.eth1.disable_ipv6=1
	ip -n far neigh replace 198.18.0.1 lladdr "$(cat /sys/class/net/eth0/address)" dev eth1 nud permanent
	# The router half only when topo_router_up built it.
	if [ -e /sys/class/net/veth0 ]; then
		in_ns near sysctl -qw net.ipv6.conf.veth1.disable_ipv6=1
		sysctl -qw net.ipv6.conf.veth0.disable_ipv6=1
		ip -n near neigh replace 198.18.1.1 lladdr "$VETH0_MAC" dev veth1 nud permanent
		ip -batch - <<-EOF
		neigh replace $FAR lladdr $FAR_MAC dev eth0 nud permanent
		neigh replace $NEAR lladdr $VETH1_MAC dev veth0 nud permanent
		EOF
	else
		ip neigh replace "$FAR" lladdr "$FAR_MAC" dev eth0 nud permanent
	fi
}

unquiet_path() {
	# cleanup_all calls this after every test: only undo what was done.
	[ -n "${QUIET:-}" ] || return 0
	QUIET=
	sysctl -qw net.ipv6.conf.eth0.disable_ipv6=0
	in_ns far sysctl -qw net.ipv6.conf.eth1.disable_ipv6=0
	ip neigh del "$FAR" dev eth0 2>/dev/null
	ip -n far neigh del 198.18.0.1 dev eth1 2>/dev/null
}

# htb_proto_leaf PROTO RATE LEAF...: like htb_with_leaf, but only IPv4 and
# IPv6 packets of IP protocol PROTO (6 TCP, 17 UDP) reach the leaf 10:;
# everything else (ARP, ND, other flows) goes to class 1:20, so a test that
# counts drops or marks sees only its own traffic.
htb_proto_leaf() {
	local proto=$1 rate=$2
	shift 2
	tc -batch - <<-EOF
	qdisc add dev eth0 root handle 1: htb default 20
	class add dev eth0 parent 1: classid 1:10 htb rate $rate quantum 1514
	class add dev eth0 parent 1: classid 1:20 htb rate $rate quantum 1514
	qdisc add dev eth0 parent 1:10 handle 10: $*
	filter add dev eth0 parent 1: protocol ip u32 match ip protocol $proto 0xff flowid 1:10
	filter add dev eth0 parent 1: protocol ipv6 u32 match ip6 protocol $proto 0xff flowid 1:10
	EOF
}

# gso_sender_up: the router topology with GSO on at near, quiet, for
# gso_burst.  UDP GSO needs checksum offload,
# which the hub NIC lacks: near sends over veth (which has it) and the
# router forwards each GSO packet whole into eth0's qdisc, as it would
# GRO traffic.
gso_sender_up() {
	SENDER_GSO=on topo_router_up
	quiet_path
}

# gso_burst COUNT[,COUNT...] SEGS SIZE [PAUSE]: COUNT UDP GSO packets from
# near to far at once, each COUNT a burst PAUSE s after the last
# (tests/tools/gso-burst.c, make fuzz); prints how many were sent.
gso_burst() {
	in_ns near /usr/local/bin/gso-burst "$FAR" "$@"
}

# slip_up: a SLIP interface, SLIP_DEV, over a pseudo-terminal that
# tests/tools/slip-pty.c holds unread (SLIP_PID); 198.19.9.1 here, its
# peer 198.19.9.2.  Each packet stops its queue until the line is read
# (slip_frames): what the core could not hand over waits, requeued.
SLIP_DIR=/tmp/slip
slip_up() {
	rm -rf "$SLIP_DIR"
	mkdir -p "$SLIP_DIR"
	/usr/local/bin/slip-pty "$SLIP_DIR" &
	SLIP_PID=$!
	busywait 3000 test -s "$SLIP_DIR/ifname" || return 1
	read -r SLIP_DEV <"$SLIP_DIR/ifname"
	ip addr add 198.19.9.1 peer 198.19.9.2 dev "$SLIP_DEV" &&
		ip link set "$SLIP_DEV" up
}

# slip_frames [once]: the SLIP frames the line carried so far.  Reading
# the line lets the interface send what waited: until 300 ms pass with
# nothing more, or with "once" one read, which wakes it for one packet.
# $SLIP_DIR/log lists the frames in order, "LENGTH DESTINATION" each.
slip_frames() {
	local BUSYWAIT_SLEEP=0.02
	rm -f "$SLIP_DIR/frames"
	kill -"$([ "${1:-}" = once ] && echo USR2 || echo USR1)" "$SLIP_PID"
	busywait 5000 test -s "$SLIP_DIR/frames" && cat "$SLIP_DIR/frames"
}

slip_down() {
	[ -n "${SLIP_PID:-}" ] || return 0
	kill "$SLIP_PID" 2>/dev/null
	wait "$SLIP_PID" 2>/dev/null
	SLIP_PID=
	rm -rf "$SLIP_DIR"
}

cleanup_all() {
	# A test that set tc's plugin directory (the fq_codel_ext tests) and
	# failed before putting it back does not pass it on.
	unset TC_LIB_DIR
	iperf_server_down
	slip_down
	tc qdisc del dev eth0 root >/dev/null 2>&1
	[ ! -e /sys/class/net/d0 ] || ip link del d0 >/dev/null 2>&1
	unquiet_path
	topo_router_down
	mq_down
}


# rate_bps RATE: tc's 10mbit / 500kbit in bit/s.
rate_bps() {
	case $1 in
	*mbit) echo $((${1%mbit} * 1000000)) ;;
	*kbit) echo $((${1%kbit} * 1000)) ;;
	*) echo "$1" ;;
	esac
}

# iperf_goodput [FILE]: the receiver's goodput in bit/s from an iperf3 -J
# run saved in FILE (/tmp/iperf.json; 0 when the run has none).
iperf_goodput() {
	# iperf3 -J prints one key a line; "sum_received" (else "sum") comes
	# once, in "end".  awk, not python3: ~0.5 s a start under TCG.
	awk '/^[ \t]*"end":/ { e = 1 }
		e && /"sum_received":/ { k = "r"; next }
		e && /"sum":/ { k = "s"; next }
		/^[ \t]*}/ { k = "" }
		k != "" && /"bits_per_second":/ { v = $2; sub(/,$/, "", v); b[k] = v }
		END { printf "%.0f\n", int(("r" in b) ? b["r"] : ("s" in b) ? b["s"] : 0) }' \
		"${1:-/tmp/iperf.json}" 2>/dev/null || echo 0
}

# check_load_flowed RATE: the precondition of every bulk-TCP test: the
# flow in /tmp/iperf.json ran, at half the RATE bottleneck at least, so
# that no broken or stalled sender passes for a load.
# That a queue stood is each test's own precondition, proven by what the
# queue did (drops, marks, the sojourn histogram): goodput is not that
# proof.  Under TCG a host that deschedules the guest costs TCP goodput,
# not the queue: a full 10 Mbit/s link under CoDel measured 8.03 to 8.40
# Mbit/s with a standing queue and drops in the repeats, and 7.04 in CI
# with ce_threshold 1ms, where each mark halves the sender's window.
check_load_flowed() {
	local g need
	g=$(iperf_goodput)
	need=$(($(rate_bps "$1") / 2))
	diag "goodput $g bit/s through the $1 bottleneck (need $need)"
	[ "$g" -ge "$need" ] || diag "iperf3: $(tr -s ' \t\n' ' ' </tmp/iperf.json | tail -c 300); load $(cat /proc/loadavg)"
	check_cmp "$g" -ge "$need" "precondition: bulk TCP ran through the $1 bottleneck"
}
