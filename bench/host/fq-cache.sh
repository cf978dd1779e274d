#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# bench/host/fq-cache.sh [KERNELRELEASE...]: the cache misses of the
# per-packet path, ours against each kernel's own sch_fq_codel.c
# (bench/host/fq-cache.c, over the differential's objects, which
# tests/host/fqdiff.sh builds and checks first).  callgrind with a fixed
# cache model (D1 and I1 32 KB 8-way, LL 8 MB 16-way, 64-byte lines, so
# that the figures do not depend on the host), collecting only inside
# fq_codel_enqueue and fq_codel_dequeue; a run of the prefill alone is
# subtracted, so each figure is per step (one enqueue and one dequeue)
# of the steady load.  Prints one line per kernel, side and load.
# Environment: STEPS (50000), LOADS ("64x8 1024x4": FLOWSxDEPTH).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
kernels=${*:-$(scripts/kernel-release.sh)}
steps=${STEPS:-50000}
loads=${LOADS:-"64x8 1024x4"}
out=build/fq-cache
mkdir -p "$out"
CACHE="--cache-sim=yes --D1=32768,8,64 --I1=32768,8,64 --LL=8388608,16,64"
COLLECT="--collect-atstart=no --toggle-collect=fq_codel_enqueue --toggle-collect=fq_codel_dequeue"

# totals OUT: callgrind's event totals (Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw).
totals() { sed -n 's/^totals: //p' "$1"; }

for rel in $kernels; do
	tests/host/fqdiff.sh "$rel" >"$out/fqdiff-$rel.log" 2>&1 ||
		{ echo "fq-cache: the fq_codel differential failed for $rel ($out/fqdiff-$rel.log)" >&2; exit 1; }
	d=build/fqdiff/$rel
	# The shim's kernel version, as tests/host/fqdiff.sh derives it.
	ver=$(sed -n 's/^linux-source-[0-9.]* \([0-9]*\)\.\([0-9]*\)\.\([0-9]*\).*/((\1 << 16) + (\2 << 8) + \3)/p' \
		"$(scripts/linux-source.sh "$rel")/.extracted-v3")
	cc -O2 -g -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
		-DSHIM_KERNEL_VERSION="$ver" -I "$d/shim" -I tests/fqdiff -I . \
		-c bench/host/fq-cache.c -o "$d/fq-cache.o"
	cc -o "$d/fq-cache" "$d/fq-cache.o" "$d/fqshim.o" "$d/ref.o" "$d/ours.o"
	for load in $loads; do
		flows=${load%x*} depth=${load#*x}
		for side in ref ours; do
			for n in 0 "$steps"; do
				# shellcheck disable=SC2086
				valgrind --tool=callgrind $CACHE $COLLECT \
					--callgrind-out-file="$out/$rel-$side-$load-$n.out" \
					"$d/fq-cache" "$side" "$n" "$flows" "$depth" \
					>"$out/$rel-$side-$load-$n.log" 2>&1 ||
					{ echo "fq-cache: $side failed ($out/$rel-$side-$load-$n.log)" >&2; exit 1; }
			done
			read -r -a a <<<"$(totals "$out/$rel-$side-$load-0.out")"
			read -r -a b <<<"$(totals "$out/$rel-$side-$load-$steps.out")"
			awk -v rel="$rel" -v side="$side" -v load="$load" -v n="$steps" \
				-v a="${a[*]}" -v b="${b[*]}" 'BEGIN {
				split(a, x); split(b, y)
				for (i = 1; i <= 9; i++) d[i] = (y[i] - x[i]) / n
				printf "%s %-4s %-7s Ir %.1f  Dr %.1f Dw %.1f  D1 misses %.2f (r %.2f w %.2f)  LL data misses %.3f\n",
					rel, side, load, d[1], d[2], d[3], d[5] + d[6], d[5], d[6], d[8] + d[9]
			}'
		done
	done
done
