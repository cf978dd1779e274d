#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make repeat (N=5): the whole guest suite N times on each kernel given
# (default Debian's 6.1), on CI's schedule (scripts/check.sh with
# CHECK_POOL=2: the timing-sensitive tests booted alone, then the rest of
# the suite and the --mq boots two at a time), then each test's runs,
# failures and skips per kernel.  A test that fails in any round passes or
# fails by luck: fix it or make its precondition explicit, never retry it
# (docs/tests.md).  Logs: build/repeat/ROUND/; the table also in
# build/repeat/table.txt.  Exit status 1 when any test failed or any boot
# ended without a summary or with a kernel report.
#
# REPEAT_ALSO=DIR: the logs of a run of scripts/check.sh on the same
# schedule and commit (make check-ci in CI's fresh root keeps them in
# build/fresh/bookworm/src/build/check) count as one more round, round 0.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
n=${1:?usage: scripts/repeat.sh N [KERNELRELEASE...]}
shift
kernels=${*:-$(scripts/kernel-release.sh)}
out=$top/build/repeat
rm -rf "$out"
mkdir -p "$out"
bad=0
if [ -n "${REPEAT_ALSO:-}" ]; then
	mkdir -p "$out/0"
	for rel in $kernels; do
		for f in timing-"$rel".log guest-"$rel".log guest-"$rel"-1.log guest-"$rel"-2.log mq-"$rel".log; do
			[ ! -e "$REPEAT_ALSO/$f" ] || cp "$REPEAT_ALSO/$f" "$out/0/"
		done
	done
	ls "$out"/0/guest-* >/dev/null 2>&1 ||
		{ echo "repeat: no guest logs in $REPEAT_ALSO" >&2; exit 1; }
	echo "repeat: round 0: the logs of $REPEAT_ALSO"
fi
for i in $(seq 1 "$n"); do
	t0=$(date +%s)
	CHECK_ONLY=guest CHECK_POOL=2 CHECK_SPLIT=2 CHECK_KERNELS="$kernels" CHECK_LOG="build/repeat/$i" \
		scripts/check.sh >"$out/$i.log" 2>&1 || bad=1
	echo "repeat: round $i: $(tail -n 1 "$out/$i.log") in $(( $(date +%s) - t0 ))s"
done
# A test's result lines ("ok", "not ok", "... # SKIP"; tdc prints one per
# case) are followed by its "# NAME took N s" line: count by kernel and
# NAME.  A run failed if any of its lines did, was skipped if all were
# skips.
for rel in $kernels; do
	for f in "$out"/*/timing-"$rel".log "$out"/*/guest-"$rel".log "$out"/*/guest-"$rel"-[0-9].log "$out"/*/mq-"$rel".log; do
		[ -e "$f" ] && cat "$f"
	done | awk -v rel="$rel" '
		/^(not )?ok [0-9]+ / { seen = 1; if (/^not ok/) fl = 1; else if (!/# SKIP/) ps = 1; next }
		/^# [a-z0-9_]+ took [0-9.]+ s$/ && seen {
			t = $2; runs[t]++; if (fl) f[t]++; else if (!ps) s[t]++; seen = fl = ps = 0
		}
		END {
			for (t in runs) printf "%-24s %-52s %3d %3d %3d\n", rel, t, runs[t], f[t] + 0, s[t] + 0
		}' | sort -k4,4nr -k2,2
done >"$out/table.txt"
printf '%-24s %-52s %3s %3s %3s\n' kernel test runs failed skipped
cat "$out/table.txt"
flaky=$(awk '$4 > 0' "$out/table.txt" | wc -l)
echo "repeat: $(find "$out" -mindepth 1 -maxdepth 1 -type d | wc -l) rounds on $kernels: $(wc -l <"$out/table.txt") tests counted" \
	"(one row per kernel), $flaky with a failure (table: $out/table.txt)"
[ "$flaky" = 0 ] && [ "$bad" = 0 ]
