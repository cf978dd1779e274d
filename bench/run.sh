#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make bench [QUICK=1]: latency under load (one TCG boot), per-packet cost
# (one -icount boot) and host instruction counts (callgrind), then a table
# on stdout and a report with SVG plots in bench/results/ (the raw output
# and the plots' data stay in build/bench/STAMP).  Benchmarks measure;
# they assert nothing.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# The command as given, for the report: make's variables set on its
# command line or in the environment.
given=
for v in QUICK KERNELRELEASE STAGES RATES FLOWS QDISCS SECS REPS PKTS PREPS PPS_CONFIGS \
	CGN MQPKTS MQREPS SPLIT_RATES; do
	[ -z "${!v:-}" ] || given="$given $v=\"${!v}\""
done
PPS_CONFIGS=${PPS_CONFIGS:-}

if [ "${QUICK:-0}" = 1 ]; then
	SECS=${SECS:-10} REPS=${REPS:-2} RATES=${RATES:-10mbit} FLOWS=${FLOWS:-1}
	PKTS=${PKTS:-50000} PREPS=${PREPS:-2} CGN=${CGN:-100000} MQPKTS=${MQPKTS:-50000} MQREPS=${MQREPS:-3}
else
	SECS=${SECS:-12} REPS=${REPS:-3} RATES=${RATES:-"256kbit 512kbit 1mbit 10mbit 100mbit"} FLOWS=${FLOWS:-"1 4"}
	PKTS=${PKTS:-200000} PREPS=${PREPS:-3} CGN=${CGN:-200000} MQPKTS=${MQPKTS:-200000} MQREPS=${MQREPS:-5}
fi
QDISCS=${QDISCS:-"ours intree fq_codel_ext fq_codel cake pfifo"}
SPLIT_RATES=${SPLIT_RATES:-"1mbit 10mbit"}
[ "${QUICK:-0}" != 1 ] || SPLIT_RATES=${SPLIT_RATES_QUICK:-10mbit}
# Stages to run (a subset for a focused report): latency pps mqpps callgrind split cache
STAGES=${STAGES:-"latency pps mqpps callgrind split cache"}
has() { case " $STAGES " in *" $1 "*) return 0 ;; esac; return 1; }
rel=${KERNELRELEASE:-$(scripts/kernel-release.sh)}
stamp=$(date -u +%Y%m%d-%H%M)
raw=build/bench/$stamp
name=$stamp-$rel
[ "${QUICK:-0}" != 1 ] || name=$name-quick
report=bench/results/$name.md
plots=bench/results/$name
mkdir -p "$raw" bench/results

lat_cmd=(qemu/run --timeout 3000 --log "$raw/latency" bench/guest/latency.sh "$SECS" "$REPS" "$RATES" "$FLOWS" "$QDISCS")
# shellcheck disable=SC2206 # PPS_CONFIGS: configurations, one a word
pps_cmd=(qemu/run --timeout 1200 --smp 1 --qemu-arg -icount --qemu-arg shift=0,sleep=off --log "$raw/pps" bench/guest/pps.sh "$PKTS" "$PREPS" $PPS_CONFIGS)
mqpps_cmd=(qemu/run --timeout 1200 --smp 2 --log "$raw/mqpps" bench/guest/mqpps.sh "$MQPKTS" "$MQREPS")
split_cmd=(qemu/run --timeout 3000 --log "$raw/split" bench/guest/split_gso.sh "$SECS" "$REPS" "$SPLIT_RATES")

start=$(date +%s)
if has latency; then
	echo "bench: latency under load: rates '$RATES', flows '$FLOWS', ${SECS}s x $REPS repeats, qdiscs '$QDISCS'" >&2
	"${lat_cmd[@]}" >"$raw/latency.out"
fi
if has split; then
	make -s tc >&2
	echo "bench: split_gso with TSO/GSO on at the sender: rates '$SPLIT_RATES', ${SECS}s x $REPS repeats" >&2
	"${split_cmd[@]}" >"$raw/split.out"
fi
if has pps; then
	echo "bench: per-packet cost: $PKTS packets x $PREPS repeats under -icount" >&2
	"${pps_cmd[@]}" >"$raw/pps.out"
fi
if has mqpps; then
	echo "bench: cost at scale: mq, 2 tx queues, 2 pktgen threads x $MQPKTS packets x $MQREPS repeats (TCG)" >&2
	"${mqpps_cmd[@]}" >"$raw/mqpps.out"
fi

has callgrind && echo "bench: host instruction counts (callgrind)" >&2
cc -O2 -g -std=gnu11 -Wall -Wextra -Werror -Iuser/shim -I. -o build/codel-cost bench/host/codel-cost.c
: >"$raw/callgrind.out"
has callgrind && for m in fifo nodrop dropping; do
	i1=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null build/codel-cost "$m" "$CGN" 2>&1 |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	i2=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null build/codel-cost "$m" $((CGN * 2)) 2>&1 |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	echo "$m $(( (i2 - i1) / CGN ))" >>"$raw/callgrind.out"
done
cache_cmd=(bench/host/fq-cache.sh "$rel")
if has cache; then
	echo "bench: cache misses of fq_codel_ext's and the kernel's per-packet path (callgrind)" >&2
	"${cache_cmd[@]}" >"$raw/cache.out"
fi
elapsed=$(( $(date +%s) - start ))

{
	echo "# sch_codel benchmark, $stamp UTC, kernel $rel"
	echo
	echo "Measured by \`make bench$given\` in ${elapsed}s. Benchmarks measure; they assert nothing."
	echo
	echo "## Machine and method"
	echo
	echo "- host: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1), $(free -g | awk '/Mem:/ { print $2 }') GiB"
	echo "- $(qemu-system-x86_64 --version | head -n 1), TCG (no KVM), guest kernel $rel"
	echo "- latency: HTB bottleneck on eth0 at each rate, the qdisc under test as its leaf;"
	echo "  iperf3 bulk TCP from netns near (routed through the root namespace, TSO/GSO off on"
	echo "  the sender) to netns far, ping every 100 ms alongside; order rotated each repeat so"
	echo "  that ours and the in-tree codel alternate (module swapped with rmmod/insmod)"
	echo "- per-packet cost: pktgen queue_xmit, 60+4-byte packets, dummy device, QEMU"
	echo "  \`-icount shift=0,sleep=off\` (1 virtual ns = 1 guest instruction), 1 vCPU"
	echo "- cost at scale: mq on a dummy with 2 tx queues, pktgen queue_xmit on 2 threads from random"
	echo "  UDP ports (spread over both queues by the flow hash), 2 vCPUs, TCG wall clock (no icount)"
	echo "- host: callgrind instruction counts of bench/host/codel-cost.c"
	echo
	echo "Commands (from the top of the tree):"
	echo
	has latency && echo "    ${lat_cmd[*]}"
	has split && echo "    ${split_cmd[*]}"
	has pps && echo "    ${pps_cmd[*]}"
	has mqpps && echo "    ${mqpps_cmd[*]}"
	echo "    valgrind --tool=callgrind build/codel-cost {fifo,nodrop,dropping} {$CGN,$((CGN * 2))}"
	has cache && echo "    ${cache_cmd[*]}"
	echo
} >"$report"
/usr/bin/python3 bench/report.py "$raw" "$report" "$plots"
{
	echo
	echo "## Raw output"
	echo
	echo "Guest lines as printed (RUN rate flows qdisc rep idle median p90 p99 max goodput drops marks;"
	echo "SPLIT rate config rep idle median p90 p99 max goodput drops maxpacket; PPS config rep"
	echo "ns/packet), and host callgrind (mode instructions/pair):"
	echo
	echo '```'
	cat "$raw"/*.out 2>/dev/null | grep -E '^(RUN|PPS|MQPPS|SPLIT|ERROR)' || true
	cat "$raw/callgrind.out"
	echo '```'
	if has cache; then
		echo
		echo "## Cache misses of the per-packet path (host)"
		echo
		echo "bench/host/fq-cache.c over the fq_codel differential's objects: each side's"
		echo "sch_fq_codel.c unchanged, FLOWSxDEPTH packets standing, one enqueue and one dequeue"
		echo "a step; callgrind's cache model (D1 32 KB 8-way, LL 8 MB 16-way, 64-byte lines),"
		echo "collecting inside fq_codel_enqueue and fq_codel_dequeue only, per step:"
		echo
		echo '```'
		cat "$raw/cache.out"
		echo '```'
	fi
} >>"$report"
echo "bench: report $report, plots in $plots/ (${elapsed}s)" >&2
