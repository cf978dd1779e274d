#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/tdc-prepare.sh [KERNELRELEASE]: build/tdc/REL, the kernel's
# tc-testing (tdc) from that kernel's own Debian source, unmodified, plus
# our cases from tests/tdc/ in tdc's JSON format, ready to be copied into
# the guest (qemu/run --add build/tdc/REL=/payload/tdc).  Prints the path.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rel=${1:-$("$top/scripts/kernel-release.sh")}
src=$("$top/scripts/linux-source.sh" "$rel")
dest=$top/build/tdc/$rel
rm -rf "$dest"
mkdir -p "$top/build/tdc"
cp -r "$src/tools/testing/selftests/tc-testing" "$dest"
cp "$top"/tests/tdc/*.json "$dest/tc-tests/qdiscs/"
echo "$dest"
