#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/mutate.sh [MUTANT...]: mutation testing.  Each tests/mutants/
# NAME.patch is a small bug in codel.h or sch_codel.c; its header says
# which tests must catch it: "Tests: guest TEST..." runs those guest tests
# under QEMU with the mutated module; "Tests: host unit|sim|diff..." runs
# those host suites on a mutated copy of the tree (core mutants of
# codel.h).  For each mutant: copy the module sources to
# build/mutate/NAME, apply the patch, build, run the tests.  A
# mutant is killed when a test fails (or the guest crashes); it SURVIVED
# when they all pass.  Prints a table (also build/mutate/table.md) and
# exits 1 if any mutant survived or could not be built.
#
# A "Kernel: SERIES" line (a scripts/kernel-release.sh series) runs that
# mutant on that series.
# Environment: KERNELRELEASE (default: Debian's 6.1), as for make; KERNELS,
# the kernels the differential test compares with (default: both series);
# MUTATE_GUEST_TESTS, guest tests to run instead of each guest mutant's own
# (to see whether a new test kills mutants it was not written for).

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
rel=${KERNELRELEASE:-$(scripts/kernel-release.sh)}
scripts/kernel-headers.sh "$rel" >/dev/null
srcs="Kbuild dkms.conf $(scripts/module-sources.sh)"
out=build/mutate
mkdir -p "$out"

if [ $# -gt 0 ]; then
	mutants=("$@")
else
	mutants=()
	for p in tests/mutants/*.patch; do
		mutants+=("$(basename "$p" .patch)")
	done
fi

# The guest image must be current before any mutant borrows it; the
# guest tests get tdc and the fuzzer as in make check.
make -s guest guest-tools tc KERNELRELEASE="$rel" >&2
scripts/tdc-prepare.sh "$rel" >/dev/null
KERNELS=${KERNELS:-$(scripts/kernel-release.sh all | tr "\n" " ")}

# mutant_release PATCH: the kernel a mutant runs on: this run's, or the
# series its "Kernel: SERIES" line names (a bug only that kernel's parents
# can reach), its guest image made current first.
mutant_release() {
	local series
	series=$(sed -n 's/^Kernel: //p' "$1")
	if [ -z "$series" ]; then
		echo "$rel"
		return
	fi
	series=$(scripts/kernel-release.sh "$series") &&
		make -s guest KERNELRELEASE="$series" >&2 &&
		echo "$series"
}

table=$out/table.md
{
	echo "| mutant | killed by |"
	echo "|---|---|"
} >"$table"
survivors=0

for m in "${mutants[@]}"; do
	patch=tests/mutants/$m.patch
	[ -f "$patch" ] || { echo "mutate: no $patch" >&2; exit 2; }
	dir=$out/$m
	rm -rf "$dir"
	mkdir -p "$dir/src"
	# shellcheck disable=SC2086
	cp $srcs "$dir/src/"
	if ! patch -s -p1 -F0 -d "$dir/src" <"$patch" >"$dir/patch.log" 2>&1; then
		verdict="NOT APPLIED (see $dir/patch.log)"
		survivors=$((survivors + 1))
	elif ! mrel=$(mutant_release "$patch") ||
		! make -C "$(scripts/kernel-headers.sh "$mrel")" M="$top/$dir/src" modules \
			>"$dir/build.log" 2>&1; then
		verdict="NOT BUILT (see $dir/build.log)"
		survivors=$((survivors + 1))
	else
		read -r kind tests <<<"$(sed -n 's/^Tests: //p' "$patch")"
		[ "$kind" != guest ] || tests=${MUTATE_GUEST_TESTS:-$tests}
		case $kind in
		host)
			# The whole tree, mutated, with this tree's kernel sources.
			verdict=SURVIVED
			tree=$dir/tree
			git ls-files | cpio -pdm --quiet "$tree"
			patch -s -p1 -F0 -d "$tree" <"$patch"
			mkdir -p "$tree/build"
			ln -s "$top/build/linux-src" "$tree/build/linux-src"
			for t in $tests; do
				case $t in
				unit) cmd="make -s unit KERNELRELEASE=$rel KDIR=/nonexistent" ;;
				sim) cmd="make -s sim KERNELRELEASE=$rel KDIR=/nonexistent && tests/host/sim.sh" ;;
				diff) cmd="tests/host/diff.sh $KERNELS" ;;
				*) echo "mutate: $patch: unknown host test $t" >&2; exit 2 ;;
				esac
				if ! (cd "$tree" && sh -c "$cmd") >"$dir/test-$t.log" 2>&1; then
					first=$(sed -n 's/^not ok [0-9]* \(.*\)/\1/p' "$dir/test-$t.log" | head -n 1)
					verdict="host $t: ${first:-see $dir/test-$t.log}"
					break
				fi
			done
			[ "$verdict" != SURVIVED ] || survivors=$((survivors + 1))
			;;
		guest)
			# shellcheck disable=SC2086
			if CODEL_MODULE=$top/$dir/src/sch_codel.ko KERNELRELEASE=$mrel \
				qemu/run --log "$dir/run" --add "$(scripts/tdc-prepare.sh "$mrel")=/payload/tdc" \
				tests/guest/all.sh $tests >"$dir/test.log" 2>&1; then
				verdict=SURVIVED
				survivors=$((survivors + 1))
			else
				first=$(sed -n 's/^not ok [0-9]* \(.*\) # .*/\1/p' "$dir/test.log" | head -n 1)
				verdict=${first:-"guest failed: $(grep -m1 'qemu/run:' "$dir/test.log" || echo see "$dir/test.log")"}
			fi
			;;
		*)
			echo "mutate: $patch: unknown test kind '$kind'" >&2
			exit 2
			;;
		esac
	fi
	echo "| $m | $verdict |" | tee -a "$table"
done

echo "${#mutants[@]} mutants, $survivors survived"
[ "$survivors" -eq 0 ]
