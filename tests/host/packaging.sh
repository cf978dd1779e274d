#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Host tests of packaging: make install into a DESTDIR, DKMS add/build for
# the Debian release (never dkms install, never loaded), and checkpatch on
# the iproute2 patch.  Nothing here touches the running kernel.
# Run from the top of the tree: tests/host/packaging.sh

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/tap.sh"
rel=${KERNELRELEASE:-$(scripts/kernel-release.sh)}
ver=$(dpkg-parsechangelog -SVersion)
stage=$(mktemp -d)

cleanup_all() {
	dkms remove "sch_codel/$ver" --all >/dev/null 2>&1
	rm -rf "/usr/src/sch_codel-$ver" "$stage"/*
}

install_into_destdir() {
	make -s install DESTDIR="$stage" >"$stage.log" 2>&1
	check_err $? "make install DESTDIR=...: $(cat "$stage.log")"
	ko=$stage/lib/modules/$rel/updates/sch_codel.ko
	check_eq "$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)" "$rel" "installed module's vermagic"
	grep -q '^updates/sch_codel.ko:' "$stage/lib/modules/$rel/modules.dep"
	check_err $? "depmod did not index updates/sch_codel.ko"
	log_test "packaging: make install puts the module in updates/ and runs depmod"
}

dkms_add_build() {
	if ! command -v dkms >/dev/null; then
		log_skip "packaging: dkms add and build" "dkms not installed (make deps)"
		return
	fi
	cleanup_all
	make -s dkms-add >"$stage.log" 2>&1
	check_err $? "make dkms-add: $(cat "$stage.log")"
	dkms build -m sch_codel -v "$ver" -k "$rel" >"$stage.log" 2>&1
	check_err $? "dkms build: $(tail -n 5 "$stage.log")"
	ko=$(find "/var/lib/dkms/sch_codel/$ver/$rel" -name 'sch_codel.ko*' | head -n 1)
	check_eq "$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)" "$rel" "DKMS-built module's vermagic"
	check_eq "$(modinfo -F version "$ko" 2>/dev/null)" "$ver" "DKMS-built module's version"
	check_eq "$(dkms status -m sch_codel -v "$ver" -k "$rel" | sed 's/,.*: /: /')" \
		"sch_codel/$ver: built" "dkms status (built, not installed)"
	log_test "packaging: dkms add and build against Debian's headers"
}

tc_patch_checkpatch() {
	src=$(scripts/linux-source.sh)
	for p in tc-patch/*.patch; do
		# GIT_DIR away: inside our own git tree checkpatch reads a tracked
		# file differently.
		out=$(GIT_DIR=/nonexistent perl "$src/scripts/checkpatch.pl" --no-tree "$p" | grep "^total:")
		echo "$out" | grep -q 'total: 0 errors'
		check_err $? "checkpatch on $p: $out"
	done
	log_test "packaging: checkpatch reports no errors on tc-patch/"
}

ALL_TESTS="install_into_destdir dkms_add_build tc_patch_checkpatch"
run_tests
rc=$?
rm -rf "$stage" "$stage.log"
exit $rc
