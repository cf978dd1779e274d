# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make soak [SOAK_MINUTES=N]: bulk TCP and UDP through codel under a
# 10 Mbit/s HTB parent for N minutes (default 10) while a loop changes
# target, interval, limit, ecn and ce_threshold at random every 100 ms.  At
# the end: offered = delivered + dropped on every level, no backlog; the
# kernel log is checked by qemu/run.  Not part of make check.
# Run: qemu/run tests/guest/soak.sh [MINUTES]

. /payload/tests/lib.sh

minutes=${1:-10}
secs=$((minutes * 60))
ALL_TESTS=soak


soak() {
	name="soak: ${minutes} min of TCP+UDP with random changes every 100 ms"
	topo_router_up
	quiet_path
	htb_with_leaf 10mbit codel
	iperf_server_up
	ip netns exec far iperf3 -s -D -p 5202 >/dev/null 2>&1
	off0=$(dev_stat veth0 rx_packets)
	del0=$(far_stat rx_packets)
	ip netns exec near iperf3 -c "$FAR" -t "$secs" -P 2 >/tmp/tcp.out 2>&1 &
	ip netns exec near iperf3 -c "$FAR" -p 5202 -u -b 4M -l 1200 -t "$secs" >/tmp/udp.out 2>&1 &
	end=$(( $(date +%s) + secs ))
	changes=0 errors=0
	while [ "$(date +%s)" -lt "$end" ]; do
		ecn=noecn
		[ $((RANDOM % 2)) = 0 ] && ecn=ecn
		tc qdisc change dev eth0 parent 1:10 handle 10: codel \
			target $((RANDOM % 20000 + 1))us interval $((RANDOM % 300 + 1))ms \
			limit $((RANDOM % 2000 + 1)) $ecn ce_threshold $((RANDOM % 10000))us ||
			errors=$((errors + 1))
		changes=$((changes + 1))
		sleep 0.1
	done
	wait
	sleep 3
	off=$(( $(dev_stat veth0 rx_packets) - off0 ))
	del=$(( $(far_stat rx_packets) - del0 ))
	root=$(tc -s qdisc show dev eth0 | awk 'NR == 1, /backlog/' | tr '\n' ' ')
	leaf=$(stats_of qdisc eth0 10:)
	diag "soak: $changes changes ($errors failed); offered $off delivered $del dropped $(dropped "$root")"
	diag "leaf: $(echo "$leaf" | tr -s ' ')"
	check_eq "$errors" 0 "changes rejected"
	check_cmp "$off" -gt 1000 "traffic offered"
	check_eq "$off" "$(( del + $(dropped "$root") ))" "offered vs delivered + dropped"
	check_eq "$(dropped "$root")" "$(dropped "$leaf")" "root drops vs leaf drops"
	check_eq "$(sent_pkts "$root")" "$del" "root Sent vs far's rx_packets"
	check_eq "$(tc -s qdisc show dev eth0 | grep -c 'backlog 0b 0p')" 2 "every qdisc drained"
	check_eq "$(tc -s class show dev eth0 | grep -c 'backlog 0b 0p')" \
		"$(tc -s class show dev eth0 | grep -c 'backlog')" "every class drained"
	log_test "$name"
}

run_tests
