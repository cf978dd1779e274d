#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make flavours: build the module with W=1 against the headers of each
# Debian kernel flavour given, in every supported series (6.1, 6.12,
# trixie, trixie-backports; trixie's in its build root, scripts/in-root.sh).
# Headers that are not installed are unpacked under build/headers
# (scripts/kernel-headers.sh), never installed.  Any compiler warning
# fails.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rc=0
for series in 6.1 6.12 trixie trixie-backports; do
	for f in "$@"; do
		rel=$("$top/scripts/kernel-release.sh" "$series" "$f")
		if [ -z "$rel" ]; then
			# Debian 12's flavours share linux-headers-amd64's ABI.
			abi=$("$top/scripts/kernel-release.sh" "$series")
			rel=${abi%-amd64}-$f
		fi
		log=$top/build/flavour-$rel.log
		if kdir=$("$top/scripts/kernel-headers.sh" "$rel" 2>"$log") &&
			make -s -C "$top" module KERNELRELEASE="$rel" KDIR="$kdir" W=1 >>"$log" 2>&1 &&
			! grep -v 'Skipping BTF' "$log" | grep -qi 'warning\|error'; then
			echo "ok    $rel: $(modinfo -F vermagic "$top/build/module/$rel/sch_codel.ko")"
		else
			echo "FAIL  $rel (see $log):"
			cat "$log"
			rc=1
		fi
	done
done
exit $rc
