#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Differential test of fq_codel_ext against each kernel's own fq_codel:
# tests/fqdiff compiles that kernel's net/sched/sch_fq_codel.c (from its
# exact Debian source, build/linux-src/REL) and our sch_fq_codel.c, both
# unchanged, over one userspace shim, and runs both on the same random
# traces (tests/fqdiff/fq-diff.c says what is compared).  The kernel's
# codel_impl.h gets the deltas our codel.h carries (tests/diff/deltas.sh),
# and on a kernel whose CoDel keeps its deadline over an empty dequeue
# (6.12.95, docs/parity.md) the clearing too ("empty-clears-deadline");
# without it, that kernel must differ.  6.12.95's fq_codel reports a
# peek's drops before it stashes the packet: there only each event's
# report totals are compared, and a scripted trace shows the difference.
# Usage: tests/host/fqdiff.sh KERNELRELEASE...
# FQDIFF_SEED, FQDIFF_TRACES and FQDIFF_EVENTS change the run; a failing
# trace replays alone with: build/fqdiff/REL/fq-diff -s SEED -t 1 -v

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
CFLAGS="-O2 -g -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter"
# Every kernel header either file includes resolves to the shim.
SHIM_HEADERS="linux/module linux/types linux/kernel linux/jiffies linux/string
	linux/in linux/errno linux/init linux/skbuff linux/slab linux/vmalloc
	linux/list linux/sizes linux/ktime linux/math64 linux/version
	linux/prefetch linux/netdevice linux/tracepoint linux/random linux/siphash net/netlink
	net/pkt_sched net/pkt_cls net/inet_ecn net/sock net/gso net/sch_generic
	trace/define_trace"

cleanup_all() { :; }

# version REL: KERNEL_VERSION() of REL's source, from its Debian version.
version() {
	sed -n 's/^linux-source-[0-9.]* \([0-9]*\)\.\([0-9]*\)\.\([0-9]*\).*/((\1 << 16) + (\2 << 8) + \3)/p' \
		"$1/.extracted-v3"
}

# build REL DIR [KEEP]: DIR/fq-diff; KEEP=keep-deadline leaves out the
# empty-clears-deadline delta.  DIR/deltas names the deltas applied.
build() {
	local rel=$1 dir=$2 keep=${3:-} src ver h impl
	src=$(scripts/linux-source.sh "$rel") || return 1
	ver=$(version "$src")
	[ -n "$ver" ] || { echo "no version for $src" >&2; return 1; }
	mkdir -p "$dir/shim/linux" "$dir/shim/net" "$dir/shim/trace"
	for h in $SHIM_HEADERS; do
		echo '#include "fqshim.h"' >"$dir/shim/$h.h"
	done
	tests/diff/deltas.sh "$src" "$dir" >"$dir/deltas" || return 1
	cp "$src/include/net/codel_qdisc.h" "$dir/include/net/"
	impl=$dir/include/net/codel_impl.h
	# codel_dequeue()'s empty branch: "if (!skb) {" then, where the
	# deadline is kept, "vars->dropping = false;" at once.
	if [ "$keep" != keep-deadline ] &&
		awk 'prev ~ /^\tif \(!skb\) \{$/ && /^\t\tvars->dropping = false;$/ { f = 1 }
			{ prev = $0 } END { exit !f }' "$impl"; then
		awk 'prev ~ /^\tif \(!skb\) \{$/ && /^\t\tvars->dropping = false;$/ && !done {
				print "\t\tvars->first_above_time = 0;"; done = 1 }
			{ print; prev = $0 } END { exit !done }' "$impl" >"$impl.new" &&
			mv "$impl.new" "$impl" || return 1
		echo empty-clears-deadline >>"$dir/deltas"
	fi
	# The kernel's code is compiled as it is.
	cc $CFLAGS -Wno-unused-function -Wno-sign-compare \
		-DSHIM_KERNEL_VERSION="$ver" -DSHIM_SIDE=ref \
		-DSIDE_SRC="\"$src/net/sched/sch_fq_codel.c\"" \
		-I "$dir/include" -I "$dir/shim" -I tests/fqdiff -I . \
		-c tests/fqdiff/side.c -o "$dir/ref.o" &&
	cc $CFLAGS -DSHIM_KERNEL_VERSION="$ver" -DSHIM_SIDE=ours -DSIDE_OURS \
		-DSIDE_SRC="\"$top/sch_fq_codel.c\"" \
		-I "$dir/shim" -I tests/fqdiff -I . \
		-c tests/fqdiff/side.c -o "$dir/ours.o" &&
	for f in fqshim fq-diff; do
		cc $CFLAGS -DSHIM_KERNEL_VERSION="$ver" -I "$dir/shim" \
			-I tests/fqdiff -I . -c "tests/fqdiff/$f.c" -o "$dir/$f.o" ||
			return 1
	done &&
	cc -o "$dir/fq-diff" "$dir/fq-diff.o" "$dir/fqshim.o" "$dir/ref.o" "$dir/ours.o"
}

# peeks_before_stash SRC: the kernel's fq_codel peeks with the generic
# qdisc_peek_dequeued() (6.12.95), which reports before it stashes.
peeks_before_stash() {
	grep -q '\.peek[[:space:]]*=[[:space:]]*qdisc_peek_dequeued' "$1/net/sched/sch_fq_codel.c"
}

fqdiff_each_kernel() {
	local rel dir out rc deltas src p
	for rel in $KERNELS; do
		dir=build/fqdiff/$rel
		out=$dir/out.txt
		src=$(scripts/linux-source.sh "$rel")
		build "$rel" "$dir"
		check_err $? "could not build the fq_codel differential test for $rel"
		deltas=$(tr '\n' ' ' <"$dir/deltas" 2>/dev/null)
		p=
		peeks_before_stash "$src" && p=-P
		if [ "$RET" = 0 ]; then
			"$dir/fq-diff" $p -s "${FQDIFF_SEED:-1}" -t "${FQDIFF_TRACES:-64}" \
				-e "${FQDIFF_EVENTS:-5000}" >"$out" 2>&1
			rc=$?
			sed 's/^/# /' "$out"
			check_err $rc "sch_fq_codel.c differs from $rel's (replay: $dir/fq-diff $p -s SEED -t 1 -v)"
		fi
		log_test "fqdiff: fq_codel_ext decides as $rel net/sched/sch_fq_codel.c${deltas:+ + deltas ${deltas% }}${p:+, report totals} on random traces"
		"$dir/fq-diff" -x peek-order >"$dir/peek.txt" 2>&1
		rc=$?
		sed 's/^/# /' "$dir/peek.txt"
		if [ -n "$p" ]; then
			check_eq "$rc" 1 "$rel: the scripted peek should report at qlen 0 there, 1 here"
			log_test "fqdiff: $rel's fq_codel tells the parents about a peek's drops before it stashes the packet; ours after"
		else
			check_eq "$rc" 0 "$rel: the scripted peek should report alike"
			log_test "fqdiff: $rel's fq_codel and ours report a peek's drops alike"
		fi
		case " $deltas " in
		*" empty-clears-deadline "*)
			build "$rel" "$dir/keep-deadline" keep-deadline
			check_err $? "could not build $rel without empty-clears-deadline"
			"$dir/keep-deadline/fq-diff" $p -t 16 -e 5000 >"$dir/keep-deadline/out.txt" 2>&1
			check_eq $? 1 "$rel without empty-clears-deadline: some trace should differ"
			grep '^# seeds' "$dir/keep-deadline/out.txt" | sed 's/^/# without the delta: /'
			log_test "fqdiff: delta empty-clears-deadline is a difference on $rel"
			;;
		esac
	done
}

KERNELS=$*
ALL_TESTS=fqdiff_each_kernel
run_tests
