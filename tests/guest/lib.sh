# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Shared library of the in-guest tests (TAP helpers in ../tap.sh, shared
# with the host tests), after the kernel's selftests/net/forwarding/lib.sh.
#
# Guest topology (qemu/guest/init):  root ns eth0 198.18.0.1/24  <->
# netns "far" eth1 198.18.0.2/24.  topo_router_up adds netns "near"
# (198.18.1.2) behind a veth pair, routed through the root namespace, so
# that traffic from near to far crosses eth0's qdisc as on a router.

. /etc/guest-env

. /payload/tests/tap.sh

FAR=198.18.0.2
NEAR=198.18.1.2
# The veth pair of topo_router_up (locally administered addresses).
VETH0_MAC=02:00:00:00:01:01
VETH1_MAC=02:00:00:00:01:02
MODULE_PATH=/lib/modules/$KERNELRELEASE/updates/sch_codel.ko
INTREE_PATH=/lib/modules/$KERNELRELEASE/kernel/net/sched/sch_codel.ko
# The guest's test programs (tests/fuzz, tests/tools; make guest-tools).
FUZZ=/usr/local/bin/codel-fuzz
SEND=/usr/local/bin/codel-send
LIFECYCLE=/usr/local/bin/codel-lifecycle
# The patched tc (make tc), for the extensions stock tc cannot set or show.
TCP=/usr/local/sbin/tc-patched

# --- reading tc ------------------------------------------------------------

# First line of "tc qdisc show dev DEV", trailing blanks trimmed.
qdisc_line() {
	tc qdisc show dev "$1" | head -n 1 | sed 's/[[:space:]]*$//'
}

# One qdisc (HANDLE like 1:) or class (classid like 1:10) out of tc -s
# output read from FILE or stdin, as one line.  Several levels read from one
# saved dump are microseconds apart, not a tc spawn apart (6.1 still reads
# each qdisc's counters without its lock, so a dump is not atomic).
# Usage: block_of qdisc|class HANDLE [FILE]
block_of() {
	awk -v h="$2" -v kind="$1" '
		$1 == kind { on = ($3 == h) }
		on { printf "%s ", $0 }' ${3:+"$3"}
}

# agreeing_dump DEV HANDLE_A HANDLE_B FN: take up to five "tc -s qdisc show"
# dumps of DEV, 0.2 s apart, until shell function FN (given one qdisc's
# block, prints some of its counters) prints the same for both qdiscs in one
# dump.  A dump is not atomic (see block_of), so one packet can move between
# the two readings; a real accounting drift makes every dump disagree.
# The last dump stays in /tmp/agreeing_dump (read it with block_of) and
# DUMPS holds every pair seen, for a diagnostic.  Returns 1 if no dump agreed
# or a qdisc is missing.
agreeing_dump() {
	DUMPS=
	for i in 1 2 3 4 5; do
		tc -s qdisc show dev "$1" >/tmp/agreeing_dump
		ad_a=$(block_of qdisc "$2" /tmp/agreeing_dump)
		ad_b=$(block_of qdisc "$3" /tmp/agreeing_dump)
		# Two missing qdiscs would agree: no such dump counts.
		[ -n "$ad_a" ] && [ -n "$ad_b" ] || { DUMPS="$DUMPS [$2 or $3 missing]"; return 1; }
		ad_a=$("$4" "$ad_a")
		ad_b=$("$4" "$ad_b")
		DUMPS="$DUMPS [$2 $ad_a, $3 $ad_b]"
		[ "$ad_a" = "$ad_b" ] && return 0
		sleep 0.2
	done
	return 1
}

# Counter sets for agreeing_dump, from one block.
backlog_of() { echo "$(backlog_pkts "$1") $(backlog_bytes "$1")"; }
# Sent packets and drops of one qdisc's block.  HTB sends a packet that
# arrives before its default class exists (tc builds a tree one command at
# a time) directly, counted in direct_packets_stat: such a packet never
# reaches the child, so it is taken out of the root's Sent here.
sent_dropped_of() {
	echo "$(($(sent_pkts "$1") - $(field "$1" direct_packets_stat | grep . || echo 0))) $(dropped "$1")"
}

# tc -s output of one qdisc or class, live.  Usage: stats_of qdisc|class DEV HANDLE
stats_of() {
	tc -s "$1" show dev "$2" | block_of "$1" "$3"
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

# A dummy device with IPv6 off, so no autoconf packet touches counters.
dummy_up() {
	ip link add d0 type dummy &&
		echo 1 >/proc/sys/net/ipv6/conf/d0/disable_ipv6 &&
		ip link set d0 up
}

# Every "backlog" in tc -s output for OBJECT (qdisc|class) reads 0b 0p.
all_drained() {
	tc -s "$1" show dev eth0 | awk '/backlog / { n++; if (/backlog 0b 0p/) z++ }
		END { exit !(n > 0 && n == z) }'
}

# Wait (up to 20 s) until every qdisc on eth0 is empty.
wait_drained() {
	for i in $(seq 1 100); do
		all_drained qdisc && return 0
		sleep 0.2
	done
	return 1
}

# Wait (up to 9 s) until every qdisc on eth0 is empty and neither eth0 nor
# veth0 (if there) moved a packet for 0.3 s: the end of a flow (a TCP close,
# the last ACKs, a packet between near and the qdisc) has then passed, so
# counters read next are final.  A fixed sleep of 1-2 s did that before.
wait_settled() {
	prev=
	for i in $(seq 1 30); do
		cur="$(dev_stat eth0 tx_packets) $(dev_stat eth0 rx_packets)"
		[ -e /sys/class/net/veth0 ] && cur="$cur $(dev_stat veth0 rx_packets)"
		[ "$cur" = "$prev" ] && all_drained qdisc && return 0
		prev=$cur
		sleep 0.3
	done
	return 1
}

# dev_stat DEV COUNTER: a device counter in the current namespace.
dev_stat() { cat "/sys/class/net/$1/statistics/$2"; }
# far_stat COUNTER: a counter of far's eth1 (what the receiver got).
far_stat() {
	in_ns far awk -v c="$1" '
		BEGIN { f["rx_bytes"] = 1; f["rx_packets"] = 2; f["tx_bytes"] = 9; f["tx_packets"] = 10
			if (!(c in f)) { print "far_stat: no counter " c > "/dev/stderr"; exit 1 } }
		{ sub(/^ */, "") }
		/^eth1:/ { sub(/^eth1: */, ""); split($0, v, " "); print v[f[c]] }' /proc/net/dev
}

# in_ns NS CMD...: CMD in network namespace NS, for reading /proc/net and
# /proc/sys (no /sys of its own, unlike "ip netns exec").  busybox's
# nsenter is one fork of the static busybox; "ip netns exec" costs two
# execs of dynamically linked tools, ~50 ms each under TCG.
in_ns() {
	in_ns_ns=$1
	shift
	busybox nsenter --net="/run/netns/$in_ns_ns" "$@"
}

# rotate N WORDS...: the words rotated left N times (interleaved repeats).
rotate() {
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		first=$1
		shift
		set -- "$@" "$first"
		n=$((n - 1))
	done
	echo "$@"
}

# --- the kernel under test ------------------------------------------------

# The debug kernel (make check-debug: KASAN, kmemleak, lockdep under TCG)
# runs the guest's senders at a fraction of Debian's speed: a TCP flow
# that fills 10 Mbit/s there reaches ~1.5 Mbit/s here, so no standing queue
# builds behind a 10 Mbit/s bottleneck.
debug_kernel() {
	case $(uname -r) in
	*-codel-debug) return 0 ;;
	esac
	return 1
}

# bottleneck RATE: RATE, or 500kbit on the debug kernel, where a TCP
# flow does not fill more (measured ~0.9-1.5 Mbit/s).  For tests that need a
# standing queue (drops, marks) rather than a particular rate.
bottleneck() {
	if debug_kernel; then
		echo 500kbit
	else
		echo "$1"
	fi
}

# check_load A OP B WHAT: check_cmp for an assertion about delay that holds
# only when the sender saturates the link.  Enforced on Debian's kernel;
# on the debug kernel a miss is printed as a diagnostic, not a failure
# (accounting and counters are enforced on every kernel).
check_load() {
	if debug_kernel; then
		[ "$1" "$2" "$3" ] 2>/dev/null ||
			diag "not enforced on $(uname -r): $4 ($1 $2 $3 is false)"
		return 0
	fi
	check_cmp "$@"
}

# True when the loaded sch_codel is this project's (out-of-tree: taint O).
codel_is_ours() {
	grep -q O /sys/module/sch_codel/taint 2>/dev/null
}

# intree_codel_up: Debian's in-tree sch_codel in place of ours, for the
# tests that compare the two (the isolation check fails a test that leaves
# it loaded); checked in the calling test.
intree_codel_up() {
	rmmod sch_codel 2>/dev/null
	insmod "$INTREE_PATH"
	check_err $? "insmod in-tree sch_codel"
	codel_is_ours && check_err 1 "in-tree module not loaded"
}

# --- topology -------------------------------------------------------------

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

mq_down() {
	[ -e /sys/class/net/eth2 ] || return 0
	[ -e /run/netns/mqfar ] || return 0
	# Deleted while up, the root goes back to the default (mq with the
	# default_qdisc's children), as all.sh found it.
	tc qdisc del dev eth2 root >/dev/null 2>&1
	tc qdisc del dev eth2 clsact >/dev/null 2>&1
	ip addr flush dev eth2
	ip link set eth2 down
	ethtool -L eth2 combined 2 >/dev/null 2>&1
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

# Start an iperf3 server in "far" (daemon) and wait until it listens.
iperf_server_up() {
	# A server still exiting from the last test would hold the port.
	for i in 1 2 3 4 5 6 7 8 9 10; do
		iperf3_running || break
		sleep 0.2
	done
	in_ns far iperf3 -s -D >/dev/null 2>&1
	# Wait until it listens on 5201 (0x1451) before any client starts.
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		in_ns far cat /proc/net/tcp6 /proc/net/tcp 2>/dev/null |
			grep -q ':1451 [0-9A-F:]* 0A ' && return 0
		sleep 0.2
	done
}

# iperf3_running: any iperf3 process, from /proc with shell builtins only
# (cleanup_all asks after every test, and a spawn costs tens of ms).
iperf3_running() {
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
	rate=$1
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
	proto=$1 rate=$2
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
# (tests/tools/gso-burst.c, make guest-tools); prints how many were sent.
gso_burst() {
	in_ns near /usr/local/bin/gso-burst "$FAR" "$@"
}

cleanup_all() {
	iperf_server_down
	tc qdisc del dev eth0 root >/dev/null 2>&1
	[ ! -e /sys/class/net/d0 ] || ip link del d0 >/dev/null 2>&1
	unquiet_path
	topo_router_down
	mq_down
}

# --- counts outside the qdisc ------------------------------------------------

# snmp NS KEY: counter KEY, named as nstat names it (IpExtInCEPkts,
# TcpInCsumErrors, ...), from /proc/net/snmp and /proc/net/netstat of
# namespace NS.
snmp() {
	in_ns "$1" cat /proc/net/snmp /proc/net/netstat | awk -v k="$2" '
		# Each group is a header line of names, then one of values.
		{ p = $1; sub(/:$/, "", p) }
		seen[p]++ % 2 == 0 { for (i = 2; i <= NF; i++) name[p, i] = p $i; next }
		{ for (i = 2; i <= NF; i++) if (name[p, i] == k) { print $i; exit } }'
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
# flow in /tmp/iperf.json filled at least 0.9 x the RATE bottleneck.  A
# test that judges delay or drops without it judges an idle link.
check_load_flowed() {
	g=$(iperf_goodput)
	need=$(($(rate_bps "$1") * 9 / 10))
	diag "goodput $g bit/s through the $1 bottleneck (need $need)"
	[ "$g" -ge "$need" ] || diag "iperf3: $(tr -s ' \t\n' ' ' </tmp/iperf.json | tail -c 300); load $(cat /proc/loadavg)"
	check_cmp "$g" -ge "$need" "precondition: bulk TCP filled the $1 bottleneck"
}

# xjson DEV HANDLE KEY...: values of KEYs of qdisc HANDLE on DEV, from the
# patched tc's JSON (lists joined with commas, a missing key "None").
xjson() {
	d=$1 h=$2
	shift 2
	$TCP -s -j qdisc show dev "$d" | hostpy -c 'import json, sys
q = [q for q in json.load(sys.stdin) if q["handle"] == sys.argv[1]][0]
def v(x):
    return ",".join(map(str, x)) if isinstance(x, list) else str(x)
print(" ".join(v(q.get(k, q.get("options", {}).get(k))) for k in sys.argv[2:]))' "$h" "$@"
}

# hist_p50 DEV HANDLE: the histogram bucket holding the median sojourn
# (bucket 3 is 1.05-2.1 ms, 4 is 2.1-4.2 ms, 5 is 4.2-8.4 ms; see
# pkt_sched_codel.h): the proof that a queue really stood.
hist_p50() { xjson "$1" "$2" sojourn_p50_bucket; }

# --- host tools over 9p -------------------------------------------------------

# hostroot_up: assemble /hostroot from the host's /usr (shared read-only
# over 9p by qemu/run) plus the guest's /proc, /sys, /dev, /tmp and /run,
# for host tools the initramfs does not carry (python3, tdc).
hostroot_up() {
	[ -e /hostroot/usr/bin/python3 ] && return 0
	modprobe 9pnet_virtio && modprobe 9p || return 1
	# A mount of its own: "ip netns exec" in the chroot remounts / rslave.
	mkdir -p /hostroot
	mount -t tmpfs hostroot /hostroot
	mkdir -p /hostroot/usr /hostroot/proc /hostroot/sys /hostroot/dev \
		/hostroot/tmp /hostroot/run /hostroot/etc
	# cache=loose: the host's /usr does not change during a run, and
	# without a page cache every exec and import reads its files over 9p
	# again (each tdc case and each python3 start paid that).
	mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 \
		hostusr /hostroot/usr || return 1
	for d in bin sbin lib lib64; do ln -sfn "usr/$d" "/hostroot/$d"; done
	mount -t proc proc /hostroot/proc
	mount -t sysfs sysfs /hostroot/sys
	mount --bind /dev /hostroot/dev
	mount --bind /tmp /hostroot/tmp
	mount --bind /run /hostroot/run
	cp /etc/passwd /etc/group /hostroot/etc/
}

# hostrun CMD...: run a host command (from its /usr) in /hostroot.
hostrun() {
	hostroot_up || return 1
	chroot /hostroot "$@"
}

# hostpy ARGS...: the host's Debian python3.
hostpy() {
	hostrun /usr/bin/python3 "$@"
}

# json_check: read JSON on stdin; fail unless it parses.
json_check() {
	hostpy -c 'import json, sys; json.load(sys.stdin)'
}

# --- isolation ---------------------------------------------------------------

# The sysctls a test may change; each must be back after cleanup_all.
ISOLATION_SYSCTLS="net.ipv4.ip_forward net.ipv6.conf.all.forwarding
	net.core.default_qdisc net.ipv4.tcp_ecn net.ipv6.conf.eth0.disable_ipv6
	net.ipv6.conf.all.disable_ipv6 net.ipv6.conf.default.disable_ipv6"

# isolation_state: what every test must leave as it found it, one line
# per item: namespaces, links, addresses and routes of the root and "far"
# namespaces, the sysctls above, every root qdisc, and which sch_codel is
# loaded (ours, the in-tree one, or none).
isolation_state() {
	ns=
	for n in /run/netns/*; do [ -e "$n" ] && ns="$ns${n##*/} "; done
	echo "netns: $ns"
	# busybox's ip and tc, and one awk for both namespaces: this runs
	# after every test, and under TCG each exec of iproute2's dynamically
	# linked ip or tc costs ~50 ms, a busybox applet ~10 ms.  (busybox's
	# tc names each qdisc's kind, handle, parent and device, not its
	# options.)
	{
		busybox ip -o link show
		busybox ip -o addr show
		busybox ip route show
		echo FAR
		in_ns far busybox sh -c 'busybox ip -o addr show; busybox ip route show
			read -r v </proc/sys/net/ipv4/tcp_ecn; echo "TCP_ECN $v"'
	} | awk '
		$1 == "FAR" { far = "far "; next }
		$1 == "TCP_ECN" { print "far sysctl: tcp_ecn=" $2; next }
		$1 ~ /^[0-9]+:$/ && ($3 == "inet" || $3 == "inet6") {
			if ($3 != "inet6" || $4 !~ /^fe80/) print far "addr: " $2, $4
			next
		}
		$1 ~ /^[0-9]+:$/ { if (far == "") print "link: " $2; next }
		{ sub(/[ \t]+$/, ""); print far "route: " $0 }'
	for k in $ISOLATION_SYSCTLS; do
		v=
		read -r v <"/proc/sys/${k//.//}" 2>/dev/null
		echo "sysctl: $k=$v"
	done
	busybox tc qdisc show | awk '$3 ~ /:$/ || $4 == "root" {
		sub(/ refcnt [0-9]+/, ""); sub(/[ \t]+$/, ""); print "qdisc: " $0 }'
	# Ours loaded or not (tests unload it, tc loads it again) is fine;
	# the in-tree one left loaded would run every later test.
	if [ -e /sys/module/sch_codel ] && ! codel_is_ours; then
		echo "module: in-tree sch_codel loaded"
	fi
}

# isolation_restore: put back what a test left behind (after a failure,
# so that the next test starts clean): extra namespaces, addresses, the
# far namespace's routes, the sysctls,
# root qdiscs on eth0, and the in-tree sch_codel (unloaded; ours loads
# again on demand).
isolation_restore() {
	for ns in $(ip netns list | awk '{ print $1 }'); do
		grep -qx "netns:.* $ns .*\|netns: $ns .*" /tmp/isolation.start ||
			ip netns del "$ns" 2>/dev/null
	done
	# Addresses a test added, in the root and far namespaces.
	isolation_state | grep -vxFf /tmp/isolation.start | while read -r w1 w2 w3 w4; do
		case $w1 in
		addr:) ip addr del "$w3" dev "$w2" ;;
		far) [ "$w2" != addr: ] || ip -n far addr del "$w4" dev "$w3" ;;
		esac
	done 2>/dev/null
	in_ns far busybox ip route show | while read -r r; do
		grep -qxF "far route: $r" /tmp/isolation.start ||
			ip -n far route del $r 2>/dev/null
	done
	sed -n 's/^sysctl: \([^=]*\)=\(.*\)$/\1 \2/p' /tmp/isolation.start |
		while read -r k v; do sysctl -qw "$k=$v" 2>/dev/null; done
	ip netns exec far sysctl -qw "net.ipv4.tcp_ecn=$(sed -n 's/^far sysctl: tcp_ecn=//p' /tmp/isolation.start)"
	tc qdisc del dev eth0 root 2>/dev/null
	if lsmod | grep -q '^sch_codel ' && ! codel_is_ours; then
		for d in $(ls /sys/class/net); do tc qdisc del dev "$d" root 2>/dev/null; done
		rmmod sch_codel 2>/dev/null
	fi
}

# check_isolation TEST: after TEST and cleanup_all, compare with the state
# before the first test; on a difference, a failing TAP line naming TEST
# and the first differences, then restore.
check_isolation() {
	[ -f /tmp/isolation.start ] || { isolation_state >/tmp/isolation.start; return 0; }
	isolation_state >/tmp/isolation.now
	cmp -s /tmp/isolation.start /tmp/isolation.now && return 0
	RET=1
	RET_MSG="$1 left: $(diff /tmp/isolation.start /tmp/isolation.now |
		grep '^[-+][^-+]' | head -n 4 | tr '\n' ';')"
	diag "FAIL: $RET_MSG"
	log_test "isolation: the system after $1 is as before the first test"
	isolation_restore
}
