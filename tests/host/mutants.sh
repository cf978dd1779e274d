#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Host tests of tests/mutants/: every mutant still applies exactly to the
# sources (patch -F0, as make mutate applies it, and at the lines its
# hunk headers name) and names tests that exist.  A source change that moves a mutant's context would otherwise go
# unseen until the next make mutate, which then counts it NOT APPLIED.
# Nothing is built or run here.  Run from the top of the tree:
# tests/host/mutants.sh

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cleanup_all() { :; }

srcs=$(scripts/module-sources.sh)

# unchanged: every source in $work/src as in the tree.
unchanged() {
	local f
	for f in $srcs; do
		cmp -s "$f" "$work/src/$f" || return 1
	done
}

mutants_apply_exactly() {
	local p n bad=
	n=0
	for p in tests/mutants/*.patch; do
		n=$((n + 1))
		rm -rf "$work/src"
		mkdir "$work/src"
		# shellcheck disable=SC2086
		cp $srcs "$work/src/"
		if ! patch -p1 -F0 -d "$work/src" <"$p" >"$work/patch.log" 2>&1; then
			bad="$bad $(basename "$p" .patch)"
		elif grep -q offset "$work/patch.log"; then
			# -F0 forbids fuzz, not offsets: a stale header files
			# the mutant under the wrong function (mutant-map.py).
			bad="$bad $(basename "$p" .patch)(offset: scripts/mutant-refresh.py)"
		elif unchanged; then
			bad="$bad $(basename "$p" .patch)(no-change)"
		fi
	done
	check_cmp "$n" -ge 50 "mutants in tests/mutants"
	check_eq "${bad# }" "" "mutants that do not apply with patch -F0 at their lines or change nothing"
	log_test "mutants: all $n apply exactly to the sources and change them"
}

mutants_name_existing_tests() {
	local p kind tests t bad=
	for p in tests/mutants/*.patch; do
		grep -q '^Mutant: .' "$p" || bad="$bad $(basename "$p" .patch)(no Mutant:)"
		read -r kind tests <<-EOF
		$(sed -n 's/^Tests: //p' "$p")
		EOF
		[ -n "$tests" ] || bad="$bad $(basename "$p" .patch)(no tests)"
		for t in $tests; do
			case $kind:$t in
			host:unit | host:sim | host:diff | host:fqdiff) ;;
			guest:*)
				grep -q "^$t() {" tests/guest/codel-*.sh ||
					bad="$bad $(basename "$p" .patch)($t)"
				;;
			*) bad="$bad $(basename "$p" .patch)($kind:$t)" ;;
			esac
		done
	done
	check_eq "${bad# }" "" "mutants whose header names no test or one that does not exist"
	log_test "mutants: each names what it breaks and tests that exist"
}

ALL_TESTS="mutants_apply_exactly mutants_name_existing_tests"
run_tests
