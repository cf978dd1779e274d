#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make flavours: build the module with W=1 against the headers of each
# Debian kernel flavour given (same ABI as linux-headers-amd64), installing
# the headers if missing.  Any compiler warning fails.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
abi=$("$top/scripts/kernel-release.sh")
abi=${abi%-amd64}
pkgs=
for f in "$@"; do pkgs="$pkgs linux-headers-$abi-$f"; done
# shellcheck disable=SC2086
"$top/scripts/deps.sh" $pkgs
rc=0
for f in "$@"; do
	rel=$abi-$f
	log=$top/build/flavour-$rel.log
	if make -s -C "$top" module KERNELRELEASE="$rel" W=1 >"$log" 2>&1 &&
		! grep -qi 'warning\|error' "$log"; then
		echo "ok    $rel: $(modinfo -F vermagic "$top/build/module/$rel/sch_codel.ko")"
	else
		echo "FAIL  $rel (see $log):"
		cat "$log"
		rc=1
	fi
done
exit $rc
