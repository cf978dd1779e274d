#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make check: host unit tests, the simulator cross-check, the differential
# tests against each kernel's own CoDel and fq_codel, host packaging tests (make install,
# DKMS, the Debian packages of make deb: installed and purged as root), then the
# in-guest suite (one boot per kernel in CHECK_KERNELS, tdc included, and a
# short second boot with the multiqueue NICs for their tests; CHECK_NO_MQ=1
# leaves it out), then one summary line over all of them.  CHECK_ONLY=guest runs the guest suites
# alone (make check-debug), CHECK_LOG and GUEST_TIMEOUT adjust where logs go
# and how long the guest may take; CHECK_DEB_RELEASES, the Debian
# releases whose fresh roots build and install the packages (make
# check-all: bookworm trixie); DIFF_KERNELS, the kernels of the
# differential tests if not those; CHECK_SUBSET_KERNELS, kernels whose
# guest boot runs only CHECK_SUBSET_TESTS (and its VAR=VALUE settings;
# make check-all: the backports kernels, docs/tests.md).  Exit status
# non-zero on any failure, including a guest that panicked, hung or
# logged a kernel warning.
#
# CHECK_POOL=N (make check-ci, CI's schedule): each guest boot in two, the
# timing-sensitive tests (all.sh TIMING=only) booted first, one at a time
# with nothing beside them, then everything else as a pool of jobs, N at a
# time, longest first: the make targets CHECK_POOL_MAKE names (CI: the
# sanitizer stage and make style), the package roots, the other boots and
# the host suites (CHECK_ONLY=host runs those alone).  CHECK_SPLIT=N boots
# each whole suite's other tests as N jobs (all.sh PART=K/N), with
# CHECK_GUEST_ARGS (all.sh's VAR=VALUE settings) if given.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
log=$top/${CHECK_LOG:-build/check}
only=${CHECK_ONLY:-}
# The kernels whose guest suite runs, one boot each (make check-all: all).
kernels=${CHECK_KERNELS:-${KERNELRELEASE:-$(scripts/kernel-release.sh)}}
mkdir -p "$log"

# summary FILE: "P F S" from the last "N passed, N failed[, N skipped]" line.
summary() {
	grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1 |
		sed -E 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/' |
		awk '{ print $1, $2, ($3 == "" ? 0 : $3) }'
}

passed=0 failed=0 skipped=0 bad=0
# tally NAME RC: add the suite's summary to the totals.
tally() {
	local name=$1 rc=$2 p f s
	read -r p f s <<<"$(summary "$log/$name.log")"
	if [ -z "${p:-}" ]; then
		echo "check: $name produced no summary (exit $rc): counted as 1 failure"
		p=0 f=1 s=0
	elif [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "check: $name exited $rc with no failed test: counted as 1 failure"
		f=1
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$rc" = 0 ] || bad=1
}

suite() {
	local name=$1 rc t0
	shift
	echo "=== $name"
	t0=$(date +%s)
	"$@" 2>&1 | tee "$log/$name.log"
	rc=${PIPESTATUS[0]}
	# Where CI's budget goes, suite by suite (docs/tests.md).
	echo "=== $name took $(( $(date +%s) - t0 ))s"
	tally "$name" "$rc"
}

# suites_together NAME:CMD...: the suites at once, each to its own log,
# printed whole one after the other when all have ended.  For suites
# that mostly wait on dpkg, debootstrap and the disk, one thread each,
# so that two of them share the two cores of CI's machine.  CMD is
# word-split.
suites_together() {
	local spec name pids=() names=() t0 i rc
	t0=$(date +%s)
	for spec in "$@"; do
		name=${spec%%:*}
		# shellcheck disable=SC2086
		${spec#*:} >"$log/$name.log" 2>&1 &
		pids+=("$!") names+=("$name")
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}"
		rc=$?
		echo "=== ${names[$i]} (run beside the others of its group)"
		cat "$log/${names[$i]}.log"
		tally "${names[$i]}" "$rc"
	done
	echo "=== ${names[*]} together took $(( $(date +%s) - t0 ))s"
}

# The pool of CHECK_POOL: the jobs running, by pid.
declare -A pool_names=() pool_starts=()

# pool_reap: wait for one job of the pool to end, print its log, tally it.
pool_reap() {
	local pid rc name
	wait -n -p pid
	rc=$?
	name=${pool_names[$pid]}
	echo "=== $name (in the pool) took $(( $(date +%s) - ${pool_starts[$pid]} ))s"
	cat "$log/$name.log"
	tally "$name" "$rc"
	unset "pool_names[$pid]" "pool_starts[$pid]"
}

# pool MAX NAME:CMD...: the jobs, at most MAX at once in the order given,
# each to its own log; CMD is run by bash -c.
pool() {
	local max=$1 spec name t0
	shift
	t0=$(date +%s)
	for spec in "$@"; do
		while [ "${#pool_names[@]}" -ge "$max" ]; do pool_reap; done
		name=${spec%%:*}
		bash -c "${spec#*:}" >"$log/$name.log" 2>&1 &
		pool_names[$!]=$name
		pool_starts[$!]=$(date +%s)
	done
	while [ "${#pool_names[@]}" -gt 0 ]; do pool_reap; done
	echo "=== the pool, $max at a time, took $(( $(date +%s) - t0 ))s"
}

# host_suites: the host's unit, simulator, differential and packaging
# tests, one after the other (the packaging ones share the root's DKMS).
host_suites() {
	suite unit make -s unit
	suite sim tests/host/sim.sh
	suite diff tests/host/diff.sh ${DIFF_KERNELS:-$kernels}
	suite fqdiff tests/host/fqdiff.sh ${DIFF_KERNELS:-$kernels}
	suite host tests/host/packaging.sh
	suite tc-plugin tests/host/tc-plugin.sh
	suite deploy tests/host/deploy.sh
	suite exporter tests/host/exporter.sh
	suite mutants tests/host/mutants.sh
	suite deb tests/host/deb.sh
}

# subset_of REL: the tests (and settings) REL's boot runs, none for all.
subset_of() {
	case " ${CHECK_SUBSET_KERNELS:-} " in
	*" $1 "*) echo "${CHECK_SUBSET_TESTS:?}" ;;
	esac
}

# boot_cmd NAME REL [--mq] ARGS...: the qemu/run command line of one boot.
boot_cmd() {
	local name=$1 rel=$2 mq='' timeout=${GUEST_TIMEOUT:-1800}
	shift 2
	if [ "${1:-}" = --mq ]; then
		mq=--mq timeout=600
		shift
	fi
	echo "env KERNELRELEASE=$rel qemu/run $mq --timeout $timeout" \
		"--log $log/$name --add ${tdc_of[$rel]}=/payload/tdc tests/guest/all.sh $*"
}

start=$(date +%s)
if [ "$only" = host ]; then
	host_suites
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$bad" = 0 ] && [ "$failed" = 0 ]
	exit
fi
if [ -n "${CHECK_POOL:-}" ]; then
	declare -A tdc_of=()
	for rel in $kernels; do
		tdc_of[$rel]=$(scripts/tdc-prepare.sh "$rel") || exit 1
	done
	# Alone: the timing-sensitive tests of each kernel (of its subset).
	for rel in $kernels; do
		# shellcheck disable=SC2046 # one command line's words
		suite "timing-$rel" $(boot_cmd "timing-$rel" "$rel" $(subset_of "$rel") TIMING=only)
	done
	# Longest first: what CHECK_POOL_MAKE names, the package roots, the
	# whole suites' other tests, the subsets, the mq boots, the host's.
	pjobs=()
	for target in ${CHECK_POOL_MAKE:-}; do
		pjobs+=("$target:make --no-print-directory $target")
	done
	for r in ${CHECK_DEB_RELEASES:-}; do
		pjobs+=("deb-$r:tests/host/deb-release.sh $r")
	done
	for rel in $kernels; do
		tests=$(subset_of "$rel")
		# A whole suite in CHECK_SPLIT boots (all.sh PART=K/N), so
		# that the pool's jobs end together.
		split=1
		[ -n "$tests" ] || split=${CHECK_SPLIT:-1}
		for k in $(seq "$split"); do
			name=guest-$rel part=
			[ "$split" = 1 ] || name=$name-$k part=PART=$k/$split
			# shellcheck disable=SC2086 # the subset's and settings' words
			pjobs+=("$name:$(boot_cmd "$name" "$rel" $tests TIMING=skip \
				${CHECK_GUEST_ARGS:-} $part)")
		done
	done
	for rel in $kernels; do
		tests=$(subset_of "$rel")
		# shellcheck disable=SC2086 # the subset's words
		[ -n "${CHECK_NO_MQ:-}" ] ||
			pjobs+=("mq-$rel:$(boot_cmd "mq-$rel" "$rel" --mq $tests)")
	done
	[ -n "$only" ] || pjobs+=("host-suites:CHECK_ONLY=host CHECK_LOG=${log#"$top"/}/host scripts/check.sh")
	pool "$CHECK_POOL" "${pjobs[@]}"
	echo "=== check finished in $(( $(date +%s) - start ))s on $kernels; logs in $log"
	echo "$passed passed, $failed failed, $skipped skipped"
	[ "$bad" = 0 ] && [ "$failed" = 0 ]
	exit
fi
if [ -z "$only" ]; then
	host_suites
	# make check-all: the packages built and installed in fresh roots
	# of each Debian release (clean-root build, lintian, install,
	# upgrade, purge), the releases side by side (745 s one after the
	# other in CI, 561 s together: docs/tests.md).
	debs=()
	for r in ${CHECK_DEB_RELEASES:-}; do
		debs+=("deb-$r:tests/host/deb-release.sh $r")
	done
	[ "${#debs[@]}" = 0 ] || suites_together "${debs[@]}"
fi
for rel in $kernels; do
	tdc=$(scripts/tdc-prepare.sh "$rel")
	export KERNELRELEASE=$rel
	tests=
	case " ${CHECK_SUBSET_KERNELS:-} " in
	*" $rel "*) tests=${CHECK_SUBSET_TESTS:?} ;;
	esac
	# shellcheck disable=SC2086
	suite "guest-$rel" qemu/run --timeout "${GUEST_TIMEOUT:-1800}" \
		--log "$log/guest-$rel" --add "$tdc=/payload/tdc" \
		tests/guest/all.sh $tests
	# The multiqueue tests in a boot of their own with the --mq NICs:
	# short, and the NICs' tx timers then load no other test (all.sh
	# picks each boot's tests from the same list).
	# shellcheck disable=SC2086
	[ -n "${CHECK_NO_MQ:-}" ] ||
		suite "mq-$rel" qemu/run --mq --timeout 600 --log "$log/mq-$rel" \
			tests/guest/all.sh $tests
done
echo "=== check finished in $(( $(date +%s) - start ))s on $kernels; logs in $log"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$bad" = 0 ] && [ "$failed" = 0 ]
