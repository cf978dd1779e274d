# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Shared library of the in-guest tests, after the kernel's
# selftests/net/forwarding/lib.sh: TAP helpers (../tap.sh, shared with the
# host tests), one busywait, and by concern in lib/: reading tc (tc.sh),
# the topology and its traffic (topo.sh), the host's tools (host.sh) and
# the isolation check after every test (isolation.sh).
#
# Guest topology (qemu/guest/init):  root ns eth0 198.18.0.1/24  <->
# netns "far" eth1 198.18.0.2/24.  topo_router_up adds netns "near"
# (198.18.1.2) behind a veth pair, routed through the root namespace, so
# that traffic from near to far crosses eth0's qdisc as on a router.

. /etc/guest-env

. /payload/tests/tap.sh

FAR=198.18.0.2
NEAR=198.18.1.2
MODULE_PATH=/lib/modules/$KERNELRELEASE/updates/sch_codel.ko
FQ_MODULE_PATH=/lib/modules/$KERNELRELEASE/updates/sch_fq_codel_ext.ko
INTREE_PATH=/lib/modules/$KERNELRELEASE/kernel/net/sched/sch_codel.ko
# The guest's test programs (tests/fuzz, tests/tools; make guest-tools).
FUZZ=/usr/local/bin/codel-fuzz
SEND=/usr/local/bin/codel-send
LIFECYCLE=/usr/local/bin/codel-lifecycle
TCJ=/usr/local/bin/tcj
# The patched tc (make tc), for the extensions stock tc cannot set or show.
TC_PATCHED=/usr/local/sbin/tc-patched

# uptime_ms: milliseconds since boot, from /proc/uptime with builtins only.
uptime_ms() {
	local up
	read -r up _ </proc/uptime
	echo "${up%.*}${up#*.}0"
}

# busywait TIMEOUT_MS CMD...: run CMD until it succeeds, every
# BUSYWAIT_SLEEP seconds (0.2; a caller may set it local), for up to
# TIMEOUT_MS.  Returns 0 once CMD succeeds, 1 if it never did.
busywait() {
	local timeout_ms=$1 start
	shift
	start=$(uptime_ms)
	while :; do
		"$@" && return 0
		[ $(($(uptime_ms) - start)) -lt "$timeout_ms" ] || return 1
		sleep "${BUSYWAIT_SLEEP:-0.2}"
	done
}

# rotate N WORDS...: the words rotated left N times (interleaved repeats).
rotate() {
	local n=$1 first
	shift
	while [ "$n" -gt 0 ]; do
		first=$1
		shift
		set -- "$@" "$first"
		n=$((n - 1))
	done
	echo "$@"
}

# --- the kernel under test ------------------------------------------------

# The debug kernel (make check-debug: KASAN, kmemleak, lockdep under TCG)
# runs the guest's senders at a fraction of Debian's speed: a TCP flow
# that fills 10 Mbit/s there reaches ~1.5 Mbit/s here, so no standing queue
# builds behind a 10 Mbit/s bottleneck.
debug_kernel() {
	case $(uname -r) in
	*-codel-debug) return 0 ;;
	esac
	return 1
}

# bottleneck RATE: RATE, or 500kbit on the debug kernel, where a TCP
# flow does not fill more (measured ~0.9-1.5 Mbit/s).  For tests that need a
# standing queue (drops, marks) rather than a particular rate.
bottleneck() {
	if debug_kernel; then
		echo 500kbit
	else
		echo "$1"
	fi
}

# check_under_load A OP B WHAT: check_cmp for an assertion about delay that holds
# only when the sender saturates the link.  Enforced on Debian's kernel;
# on the debug kernel a miss is printed as a diagnostic, not a failure
# (accounting and counters are enforced on every kernel).
check_under_load() {
	if debug_kernel; then
		[ "$1" "$2" "$3" ] 2>/dev/null ||
			diag "not enforced on $(uname -r): $4 ($1 $2 $3 is false)"
		return 0
	fi
	check_cmp "$@"
}

# module_unused MODULE: loaded, and no reference to it is left (a qdisc,
# a namespace still dying).
module_unused() { [ "$(cat "/sys/module/$1/refcnt" 2>/dev/null)" = 0 ]; }

# module_is_ours MODULE: MODULE is loaded and is this project's
# (out-of-tree: taint O).
module_is_ours() { grep -q O "/sys/module/$1/taint" 2>/dev/null; }

# True when the loaded sch_codel is this project's.
codel_is_ours() { module_is_ours sch_codel; }

# intree_codel_up: Debian's in-tree sch_codel in place of ours, for the
# tests that compare the two (the isolation check fails a test that leaves
# it loaded); checked in the calling test.
intree_codel_up() {
	rmmod sch_codel 2>/dev/null
	insmod "$INTREE_PATH"
	check_err $? "insmod in-tree sch_codel"
	codel_is_ours && check_err 1 "in-tree module not loaded"
}

. /payload/tests/lib/tc.sh
. /payload/tests/lib/topo.sh
. /payload/tests/lib/host.sh
. /payload/tests/lib/isolation.sh

# gcov_export: on a kernel with CONFIG_GCOV_KERNEL (the debug kernel), the
# module's coverage counters, base64 on the output for scripts/coverage.sh:
# "# gcov-data PATH", "# gcov: LINE"..., "# gcov-end".  Nothing elsewhere.
gcov_export() {
	local f
	[ -d /sys/kernel/debug/gcov ] || return 0
	for f in $(find /sys/kernel/debug/gcov -name '*.gcda'); do
		echo "# gcov-data $f"
		base64 <"$f" | sed 's/^/# gcov: /'
		echo "# gcov-end"
	done
}
