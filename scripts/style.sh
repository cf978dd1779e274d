#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Style gate for the module sources, on every kernel given: checkpatch
# --strict (from that kernel's Debian source), then a W=1 build under
# sparse (C=2) against its headers.  Any warning fails.
# Usage: scripts/style.sh KERNELRELEASE...
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
files=$("$top/scripts/module-sources.sh")
rc=0
for rel in "$@"; do
	src=$("$top/scripts/linux-source.sh" "$rel")
	kdir=$("$top/scripts/kernel-headers.sh" "$rel")
	# --no-tree, but seed checkpatch's list of known kernel identifiers
	# (struct Qdisc and friends) from the headers we build against:
	# GIT_DIR points away so that it reads $root/include instead of
	# asking our own git.  It leaves a cache file in its working
	# directory: run it in build/.
	common=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$kdir/Makefile")
	[ -d "$common/include" ] || common=$(readlink -f "$kdir")
	# 7.3's Makefile validates the checker with scripts/checker-valid.sh,
	# which its Debian headers package does not ship, so C=2 would be off
	# whatever the sparse: take the script from the same kernel's source.
	if grep -q checker-valid.sh "$common/Makefile" &&
		[ ! -e "$common/scripts/checker-valid.sh" ]; then
		cp "$src/scripts/checker-valid.sh" "$common/scripts/"
	fi
	cd "$top/build"
	for f in $files; do
		# compat.h alone may test LINUX_VERSION_CODE (see its header).
		ignore=
		[ "$f" != compat.h ] || ignore="--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON"
		# The CoDel copyright notice, kept as it asks, names Dave Taht,
		# whom checkpatch's spelling list takes for "that": that one
		# finding is dropped, every other one counts.
		# shellcheck disable=SC2086
		out=$(GIT_DIR=/nonexistent perl "$src/scripts/checkpatch.pl" --strict \
			--no-tree --root="$common" --terse $ignore -f "../$f" |
			grep -v "CHECK: '[Tt]aht' may be misspelled" | grep -v '^total:') || true
		[ -z "$out" ] || { echo "$rel: $out"; rc=1; }
	done

	# Sparse and W=1 on a scratch copy, so the real build's objects stay.
	scratch=$top/build/style/$rel
	rm -rf "$scratch"
	mkdir -p "$scratch"
	for f in Kbuild dkms.conf $files; do ln -s "$top/$f" "$scratch/$f"; done
	log=$scratch/build.log
	wrap=
	debian=$("$top/scripts/kernel-release.sh" --debian "$rel")
	[ "$debian" = bookworm ] || wrap="$top/scripts/in-root.sh $debian"
	$wrap make -s -C "$kdir" M="$scratch" W=1 C=2 modules >"$log" 2>&1 || rc=1
	# 7.3's kbuild turns C=2 off when sparse cannot parse what its
	# headers use (__typeof_unqual__), as Debian 12's and 13's sparse
	# 0.6.4 cannot: such a kernel is checked with unstable's sparse
	# (scripts/sparse-sid.sh), and if that is refused too, that is said,
	# not passed off as clean.
	refused="specified, but .* is not available or not up to date"
	if grep -q "$refused" "$log"; then
		sparse=$("$top/scripts/sparse-sid.sh")
		$wrap make -s -C "$kdir" M="$scratch" W=1 C=2 CHECK="$sparse" \
			modules >"$log" 2>&1 || rc=1
	fi
	checker="checkpatch --strict, sparse ($($wrap ${sparse:-sparse} --version)) and W=1 clean"
	if grep -q "$refused" "$log"; then
		checker="checkpatch --strict and W=1 clean; sparse NOT RUN: this kernel's kbuild refuses $($wrap "$sparse" --version)"
		sed -i "/$refused/d" "$log"
	fi
	sparse=
	grep -v "^Skipping BTF generation" "$log" || true
	if grep -qi "warning\|error" "$log"; then
		echo "style: $rel: compiler or sparse warnings above" >&2
		rc=1
	fi
	[ $rc != 0 ] || echo "style: $rel: $checker"
done
exit $rc
