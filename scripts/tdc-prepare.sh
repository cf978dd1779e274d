#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# build/tdc: the kernel's tc-testing (tdc) from Debian's linux-source-6.1,
# unmodified, plus our cases from tests/tdc/ in tdc's JSON format, ready to
# be copied into the guest (qemu/run --add build/tdc=/payload/tdc).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/linux-source.sh"
rm -rf "$top/build/tdc"
cp -r "$top/build/linux-src/tools/testing/selftests/tc-testing" "$top/build/tdc"
cp "$top"/tests/tdc/*.json "$top/build/tdc/tc-tests/qdiscs/"
