#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Host tests of the tc plugin's sources (tc/): they are what tc-patch/
# makes of iproute2, and tc/include declares iproute2's symbols exactly as
# iproute2 does, so the plugin the Debian package builds without
# iproute2's source is the plugin built inside it; and every stock tc a
# supported release ships (bookworm's 6.1, bookworm-backports' and
# trixie's 6.15) exports every symbol the plugin calls.  Runs nothing
# against the kernel.  Run from the top of the tree: tests/host/tc-plugin.sh

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
work=$(mktemp -d)
src=$(scripts/iproute2-source.sh)

cleanup_all() { :; }

# patched: what tc-patch/ touches of iproute2 (q_codel.c, tc-codel(8),
# pkt_sched.h, tc's Makefile; q_fq_codel_ext.c and tc-fq_codel_ext(8) it
# adds), with tc-patch/ applied, under $work/patched.
patched_tree() {
	rm -rf "$work/patched"
	mkdir -p "$work/patched"
	(cd "$src" && cp -a --parents tc/q_codel.c tc/Makefile man/man8/tc-codel.8 \
		include/uapi/linux/pkt_sched.h "$work/patched/")
	for p in tc-patch/*.patch; do
		patch -d "$work/patched" -p1 --batch --forward --quiet <"$p" || return 1
	done
}

tc_sources_are_the_patches() {
	patched_tree
	check_err $? "tc-patch/ does not apply to $(basename "$src")"
	cmp -s "$work/patched/tc/q_codel.c" tc/q_codel.c
	check_err $? "tc/q_codel.c is not iproute2's with tc-patch/ applied"
	cmp -s "$work/patched/man/man8/tc-codel.8" tc/tc-codel.8
	check_err $? "tc/tc-codel.8 is not iproute2's with tc-patch/ applied"
	# fq_codel_ext: the plugin's source is the file the patches add.
	cmp -s "$work/patched/tc/q_fq_codel_ext.c" tc/q_fq_codel_ext.c
	check_err $? "tc/q_fq_codel_ext.c is not the file tc-patch/ adds"
	cmp -s "$work/patched/man/man8/tc-fq_codel_ext.8" tc/tc-fq_codel_ext.8
	check_err $? "tc/tc-fq_codel_ext.8 is not the file tc-patch/ adds"
	grep -qx 'TCMODULES += q_fq_codel_ext.o' "$work/patched/tc/Makefile"
	check_err $? "tc-patch/ does not build q_fq_codel_ext.o into tc"
	log_test "tc plugin: tc/q_codel.c, tc/q_fq_codel_ext.c and their pages are $(basename "$src") with tc-patch/ applied"
}

# The same file compiled against iproute2's headers (tc-patch/ applied)
# and against tc/include: the same instructions, relocations and data.
# A declaration that differs in a parameter's type or order, or a
# qdisc_util member out of place, changes one of them.
tc_headers_match_iproute2() {
	local p
	patched_tree
	mkdir -p "$work/inc/linux"
	cp "$work/patched/include/uapi/linux/pkt_sched.h" "$work/inc/linux/"
	for p in q_codel q_fq_codel_ext; do
		headers_match "$p"
	done
	log_test "tc plugin: q_codel.c and q_fq_codel_ext.c built against tc/include, the same objects as against $(basename "$src")'s patched headers"
}

# headers_match NAME: tc/NAME.c against iproute2's patched headers and
# against tc/include.
headers_match() {
	local p=$1 o flags="-O2 -g0 -D_GNU_SOURCE -fPIC -c"
	# shellcheck disable=SC2086
	gcc $flags -I"$work/inc" -I"$src/include" -I"$src/include/uapi" -I"$src/tc" \
		-o "$work/ref.o" "tc/$p.c"
	check_err $? "$p.c against iproute2's headers"
	# shellcheck disable=SC2086
	gcc $flags -Itc/include -I. -o "$work/ours.o" "tc/$p.c"
	check_err $? "$p.c against tc/include"
	for o in ref ours; do
		objdump -dr --no-show-raw-insn "$work/$o.o" | tail -n +3 >"$work/$o.dis"
		objdump -r -s -j .rodata -j .rodata.str1.1 -j .rodata.str1.8 \
			-j .data.rel.local -j .data.rel.ro.local "$work/$o.o" 2>/dev/null |
			tail -n +3 >"$work/$o.data"
	done
	check_cmp "$(wc -l <"$work/ref.dis")" -gt 1000 "precondition: the disassembly holds $p"
	# The qdisc_util: its id and three callbacks, relocated.
	check_cmp "$(sed -n '/RELOCATION RECORDS FOR \[.data.rel.local\]/,/^$/p' "$work/ref.data" |
		grep -c R_X86_64_64)" -ge 4 "precondition: $p's qdisc_util members among the relocations"
	cmp -s "$work/ref.dis" "$work/ours.dis"
	check_err $? "$p: code differs: $(diff "$work/ref.dis" "$work/ours.dis" | head -n 4 | tr '\n' ' ')"
	cmp -s "$work/ref.data" "$work/ours.data"
	check_err $? "$p: data or relocations differ: $(diff "$work/ref.data" "$work/ours.data" | head -n 4 | tr '\n' ' ')"
}

tc_symbols_in_each_stock_tc() {
	local p need have missing suite tc
	for p in q_codel q_fq_codel_ext; do
		gcc -O2 -D_GNU_SOURCE -fPIC -shared -Itc/include -I. -o "$work/$p.so" "tc/$p.c"
		check_err $? "building the plugin $p"
		# The plugin's undefined symbols that glibc does not provide.
		need=$(nm -D --undefined-only "$work/$p.so" | awk '$2 !~ /@|^_/ { print $2 }' | sort)
		check_cmp "$(echo "$need" | wc -l)" -ge 20 "precondition: $p calls tc ($(echo "$need" | wc -l) symbols)"
		for suite in bookworm bookworm-backports trixie; do
			tc=$(scripts/stock-tc.sh "$suite")
			check_err $? "stock tc of $suite"
			have=$(nm -D --defined-only "$tc" | awk '{ print $3 }' | sort)
			missing=$(echo "$need" | while read -r s; do echo "$have" | grep -qx "$s" || echo "$s"; done)
			check_eq "$missing" "" "symbols $suite's tc does not export for $p"
			diag "$suite: $(cd "build/stock-tc/$suite" && ls iproute2_*.deb) exports all $(echo "$need" | wc -l) of $p"
		done
	done
	log_test "tc plugin: each supported release's stock tc exports every tc symbol q_codel and q_fq_codel_ext call"
}

# Both manual pages as mandoc's linter reads them: no style note, no
# warning (an unparsed date, an overlong line, an unknown macro).
tc_man_pages_lint_clean() {
	local out
	out=$(mandoc -T lint -W style tc/tc-codel.8 tc/tc-fq_codel_ext.8 2>&1)
	check_err $? "mandoc -T lint: $out"
	[ -z "$out" ]
	check_err $? "mandoc -T lint printed: $out"
	grep -q '^\.SH MODULE IN EFFECT' tc/tc-codel.8
	check_err $? "tc-codel(8) has no MODULE IN EFFECT section"
	! grep -q 'netdev@vger' tc/tc-codel.8 tc/tc-fq_codel_ext.8
	check_err $? "a manual page sends our bugs to netdev"
	log_test "tc plugin: tc-codel(8) and tc-fq_codel_ext(8) are mandoc -T lint clean"
}

ALL_TESTS="tc_sources_are_the_patches tc_headers_match_iproute2 tc_symbols_in_each_stock_tc
	tc_man_pages_lint_clean"
run_tests
rc=$?
rm -rf "$work"
exit $rc
