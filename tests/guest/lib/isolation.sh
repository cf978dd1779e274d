# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Isolation, for lib.sh: after every test and cleanup_all, the system must
# be as it was before the first test; a test that leaves something behind
# fails, and what it left is put back so that the next test starts clean.

# The sysctls a test may change; each must be back after cleanup_all.
ISOLATION_SYSCTLS="net.ipv4.ip_forward net.ipv6.conf.all.forwarding
	net.core.default_qdisc net.ipv4.tcp_ecn net.ipv6.conf.eth0.disable_ipv6
	net.ipv6.conf.all.disable_ipv6 net.ipv6.conf.default.disable_ipv6"

# isolation_state: what every test must leave as it found it, one line
# per item: namespaces, links, addresses and routes of the root and "far"
# namespaces, the sysctls above, every root qdisc, and which sch_codel is
# loaded (ours, the in-tree one, or none).
isolation_state() {
	local ns='' n k v
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
	local ns r d k v w1 w2 w3 w4
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
		for d in /sys/class/net/*; do tc qdisc del dev "${d##*/}" root 2>/dev/null; done
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
