# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Latency under load, as the bufferbloat community measures it: bulk TCP
# from "near" to "far" through an HTB bottleneck on eth0 whose leaf is the
# qdisc under test, with ping from near alongside.  Shared by the demo and
# the benchmarks; needs lib.sh.

# load_run OUTDIR RATE SECONDS FLOWS LEAF...: writes OUTDIR/{idle,rtt}
# (ms, one per line), OUTDIR/iperf.json and OUTDIR/tc.txt.
load_run() {
	out=$1 rate=$2 secs=$3 flows=$4
	shift 4
	mkdir -p "$out"
	topo_router_up
	htb_with_leaf "$rate" "$@" || return 1
	iperf_server_up
	ip netns exec near ping -c 10 -i 0.1 "$FAR" | rtt_ms >"$out/idle"
	ip netns exec near iperf3 -c "$FAR" -t "$secs" -P "$flows" -J \
		>"$out/iperf.json" 2>&1 &
	ipid=$!
	ip netns exec near ping -i 0.1 -w "$secs" -W 10 "$FAR" >"$out/rtt.raw"
	rtt_ms <"$out/rtt.raw" >"$out/rtt"
	wait $ipid
	tc -s qdisc show dev eth0 >"$out/tc.txt"
	cleanup_all
}

# RTT values in ms from busybox ping output.
rtt_ms() { sed -n 's/.* time=\([0-9.]*\) ms$/\1/p'; }

# pct FILE P: P-th percentile (nearest rank) of the numbers in FILE.
pct() {
	sort -n "$1" | awk -v p="$2" '{ v[NR] = $1 }
		END { if (!NR) { print "nan"; exit }
		      i = int(NR * p / 100 + 0.999); if (i < 1) i = 1
		      print v[i] }'
}

# Receiver goodput in Mbit/s from iperf3 -J output.
goodput_mbit() {
	iperf_goodput "$1" | awk '{ printf "%.2f\n", $1 / 1e6 }'
}

# Drops of the leaf qdisc (handle 10:) recorded in tc.txt.
leaf_drops() {
	awk '$1 == "qdisc" { on = ($3 == "10:") }
	     on && /dropped/ { for (i = 1; i < NF; i++) if ($i == "(dropped") { v = $(i + 1); sub(/,/, "", v); print v; exit } }' "$1"
}
