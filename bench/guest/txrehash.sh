# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Why fq_codel keeps the ping near a second at 256 kbit/s with 4 flows
# (docs/fq_codel.md): the sender's TCP picks a new socket hash at each
# retransmission timeout (net.core.txrehash), the hash travels with the
# packet through the veth into the router, and fq_codel (in-tree and ours
# alike) files the flow under a new bucket.  The bench's case, 12 s, with
# the sender's txrehash on and off, twice each, interleaved.
# Usage: qemu/run --timeout 600 bench/guest/txrehash.sh
. /payload/tests/lib.sh
. /payload/tests/load.sh
for rep in 1 2; do
	for rh in 1 0; do
		d=/tmp/tx-$rh-$rep
		# load_run builds the topology; set the sysctl in "near" once it exists.
		( until [ -e /run/netns/near ]; do sleep 0.05; done; sleep 0.2
		  ip netns exec near sysctl -w net.core.txrehash=$rh ) &
		load_run "$d" 256kbit 12 4 fq_codel || echo "ERROR setup"
		wait
		echo "TX txrehash=$rh rep=$rep median=$(pct "$d/rtt" 50) p99=$(pct "$d/rtt" 99) goodput=$(goodput_mbit "$d/iperf.json") $(grep -o 'dropped [0-9]*\|new_flow_count [0-9]*\|old_flows_len [0-9]*\|backlog [0-9]*b [0-9]*p' "$d/tc.txt" | tr '\n' ' ')"
	done
done
echo DONE
