#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/mutate.sh [MUTANT...]: mutation testing.  Each tests/mutants/
# NAME.patch is a small bug in a module source (sources.mk); its
# header says which tests must catch it: "Tests: guest TEST..." runs those
# guest tests under QEMU with the mutated modules; "Tests: host
# unit|sim|diff|fqdiff..." runs those host suites on a mutated copy of the
# tree (mutants of codel.h, and of sch_fq_codel.c for fqdiff).  For each mutant: copy the sources to build/mutate/NAME, apply
# the patch exactly (patch -F0: a patch whose context moved fails), build,
# run the tests.  A mutant is killed when a test fails (or the guest
# crashes); it SURVIVED when they all pass.
#
# First the baseline: the unmodified module through the same tests, in the
# same run; if it fails, no mutant is judged (a flake or a broken test
# would count as a kill).  FULL=1 judges every guest mutant by the whole
# guest suite (tdc and the multiqueue boot included), its own tests first
# and stopping at the first failure (a kill by any test is a kill by the
# suite; a survivor runs everything), and every host mutant by every host
# suite.
#
# A kill counts once reproduced: the first failing test, run again alone
# on the mutant, fails again; the baseline runs MUTATE_RUNS (2) times.
#
# Prints a table (also build/mutate/table.md) and exits 1 if the baseline
# failed or any mutant survived, was killed once only, or could not be
# applied or built.
#
# A "Kernel: SERIES" line (a scripts/kernel-release.sh series) runs that
# mutant on that series.
# Environment: KERNELRELEASE (default: Debian's 6.1), as for make; KERNELS,
# the kernels the differential test compares with (default: all);
# MUTATE_GUEST_TESTS, guest tests to run instead of each guest mutant's own
# (to see whether a new test kills mutants it was not written for); FULL.

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

# tests_of PATCH: "KIND TEST..." the mutant runs (FULL: every host suite
# for a host mutant, its own first; a guest mutant's tests are then the
# ones the whole suite runs first).
tests_of() {
	local kind tests
	read -r kind tests <<<"$(sed -n 's/^Tests: //p' "$1")"
	if [ "${FULL:-0}" = 1 ] && [ "$kind" = host ]; then
		# Its own suites first: the first failure ends the run.
		for t in unit sim diff fqdiff; do
			case " $tests " in *" $t "*) ;; *) tests="$tests $t" ;; esac
		done
	elif [ "$kind" = guest ]; then
		tests=${MUTATE_GUEST_TESTS:-$tests}
	fi
	echo "$kind $tests"
}

# guest_run DIR REL NAME [ARG...]: the guest suite (all.sh ARG...) against
# the module in DIR/src, logs in DIR/NAME; fails if a test failed or the
# guest did not end well.
guest_run() {
	local dir=$1 rel=$2 name=$3
	shift 3
	CODEL_MODULE=$top/$dir/src/sch_codel.ko KERNELRELEASE=$rel \
		qemu/run --timeout 1800 --log "$dir/$name" \
		--add "$(scripts/tdc-prepare.sh "$rel")=/payload/tdc" \
		"$@" >"$dir/$name.log" 2>&1
}

# first_failed_fn LOG: the function name of the first failing test of a
# guest log (all.sh prints "# NAME took" after each test), or nothing.
first_failed_fn() {
	awk '/^not ok / { f = 1; next } f && /^# [a-z0-9_]+ took / { print $2; exit }' "$1"
}

# first_failure LOG: the first failing test of a guest log, or why the
# guest failed.
first_failure() {
	local first
	first=$(sed -n 's/^not ok [0-9]* \(.*\) # .*/\1/p' "$1" | head -n 1)
	echo "${first:-"guest failed: $(grep -m1 'qemu/run:' "$1" || echo see "$1")"}"
}

# run_tests DIR REL KIND TEST...: the tests against the module built in
# DIR/src (guest) or the tree in DIR/tree (host).  Prints the first
# failure, or nothing when every test passed.
run_tests() {
	local dir=$1 rel=$2 kind=$3 t cmd first
	shift 3
	case $kind in
	host)
		for t in "$@"; do
			case $t in
			unit) cmd="make -s unit KERNELRELEASE=$rel KDIR=/nonexistent" ;;
			sim) cmd="make -s sim KERNELRELEASE=$rel KDIR=/nonexistent && tests/host/sim.sh" ;;
			diff) cmd="tests/host/diff.sh $KERNELS" ;;
			fqdiff) cmd="tests/host/fqdiff.sh $KERNELS" ;;
			*) echo "mutate: unknown host test $t" >&2; exit 2 ;;
			esac
			if ! (cd "$dir/tree" && sh -c "$cmd") >"$dir/test-$t.log" 2>&1; then
				first=$(sed -n 's/^not ok [0-9]* \(.*\)/\1/p' "$dir/test-$t.log" | head -n 1)
				echo "host $t: ${first:-see $dir/test-$t.log}"
				return
			fi
		done
		;;
	guest)
		if [ "${FULL:-0}" = 1 ]; then
			# The whole suite, the mutant's own tests first, up to
			# the first failure; then the multiqueue tests in their
			# own boot, as make check runs them.
			if ! guest_run "$dir" "$rel" test tests/guest/all.sh \
				STOP_AT_FAIL=1 ${1:+FIRST=$(echo "$@" | tr ' ' ,)}; then
				first_failure "$dir/test.log"
			elif ! guest_run "$dir" "$rel" mq --mq tests/guest/all.sh; then
				first_failure "$dir/mq.log"
			fi
		elif ! guest_run "$dir" "$rel" test tests/guest/all.sh "$@"; then
			first_failure "$dir/test.log"
		fi
		;;
	*)
		echo "mutate: unknown test kind '$kind'" >&2
		exit 2
		;;
	esac
}

# prepare DIR REL [PATCH]: the sources (and for host tests the tree) in
# DIR, patched exactly if PATCH is given, and the module built for REL.
# Prints why it could not, or nothing.
prepare() {
	local dir=$1 rel=$2 patch=${3:-}
	rm -rf "$dir"
	mkdir -p "$dir/src"
	# shellcheck disable=SC2086
	cp $srcs "$dir/src/"
	git ls-files | cpio -pdm --quiet "$dir/tree"
	mkdir -p "$dir/tree/build"
	ln -s "$top/build/linux-src" "$dir/tree/build/linux-src"
	if [ -n "$patch" ] &&
		! { patch -s -p1 -F0 -d "$dir/src" <"$patch" &&
			patch -s -p1 -F0 -d "$dir/tree" <"$patch"; } >"$dir/patch.log" 2>&1; then
		echo "NOT APPLIED (see $dir/patch.log)"
	elif ! make -C "$(scripts/kernel-headers.sh "$rel")" M="$top/$dir/src" modules \
		>"$dir/build.log" 2>&1; then
		echo "NOT BUILT (see $dir/build.log)"
	fi
}

# killed_again DIR REL KIND TEST...: the kill of a mutant in DIR run once
# more: a guest mutant's first failing test alone (the mutant's own tests
# if the guest itself failed), a host mutant's suites again.  Prints the
# second failure, or nothing if that run passed (a kill by luck, which
# does not count).
killed_again() {
	local dir=$1 rel=$2 kind=$3 fn
	shift 3
	if [ "$kind" = guest ]; then
		fn=$(first_failed_fn "$dir/test.log")
		[ -z "$fn" ] || set -- "$fn"
		mv "$dir/test.log" "$dir/test-1.log"
		rm -rf "$dir/test-1"
		[ ! -d "$dir/test" ] || mv "$dir/test" "$dir/test-1"
	fi
	FULL=0 run_tests "$dir" "$rel" "$kind" "$@"
}

# The baseline: every test some mutant runs, per kernel and kind, in
# MUTATE_RUNS (2) runs, against the unmodified module.  FULL=1: the whole
# guest suite (an empty test set).  A mutant is killed when its first
# failure fails again alone.
declare -A union=()
for m in "${mutants[@]}"; do
	patch=tests/mutants/$m.patch
	[ -f "$patch" ] || { echo "mutate: no $patch" >&2; exit 2; }
	mrel=$(mutant_release "$patch")
	read -r kind tests <<<"$(tests_of "$patch")"
	[ "${FULL:-0}:$kind" != 1:guest ] || tests=
	for t in $tests; do
		case " ${union[$mrel $kind]:-} " in
		*" $t "*) ;;
		*) union[$mrel $kind]="${union[$mrel $kind]:-} $t" ;;
		esac
	done
	[ -n "$tests" ] || union[$mrel $kind]=${union[$mrel $kind]:-}
done
for key in "${!union[@]}"; do
	read -r mrel kind <<<"$key"
	dir=$out/baseline-$mrel-$kind
	why=$(prepare "$dir" "$mrel")
	run=0
	while [ -z "$why" ] && [ $run -lt "${MUTATE_RUNS:-2}" ]; do
		run=$((run + 1))
		# shellcheck disable=SC2086
		why=$(run_tests "$dir" "$mrel" "$kind" ${union[$key]})
		[ -z "$why" ] || why="run $run: $why"
	done
	if [ -n "$why" ]; then
		echo "| (baseline: unmodified, $mrel, $kind) | FAILED: $why |" | tee -a "$table"
		echo "mutate: the unmodified module fails the tests; no mutant judged" >&2
		exit 1
	fi
	echo "| (baseline: unmodified, $mrel, $kind:${union[$key]:- the whole suite}) | passed $run times |" | tee -a "$table"
done

for m in "${mutants[@]}"; do
	patch=tests/mutants/$m.patch
	dir=$out/$m
	mrel=$(mutant_release "$patch")
	read -r kind tests <<<"$(tests_of "$patch")"
	verdict=$(prepare "$dir" "$mrel" "$patch")
	if [ -n "$verdict" ]; then
		survivors=$((survivors + 1))
	else
		# shellcheck disable=SC2086
		verdict=$(run_tests "$dir" "$mrel" "$kind" $tests)
		if [ -z "$verdict" ]; then
			verdict=SURVIVED
			survivors=$((survivors + 1))
		elif [ "${MUTATE_RUNS:-2}" -gt 1 ]; then
			# shellcheck disable=SC2086
			again=$(killed_again "$dir" "$mrel" "$kind" $tests)
			if [ -z "$again" ]; then
				verdict="NOT REPRODUCED (first run: $verdict)"
				survivors=$((survivors + 1))
			elif [ "$again" != "$verdict" ]; then
				verdict="$verdict; again: $again"
			else
				verdict="$verdict (twice)"
			fi
		fi
	fi
	echo "| $m | $verdict |" | tee -a "$table"
done

echo "${#mutants[@]} mutants, $survivors survived"
[ "$survivors" -eq 0 ]
