#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make tc: Debian's iproute2 source + tc-patch/*.patch -> build/tc.
# A patch that does not apply fails the build loudly.  Only lib/ and tc/
# are built.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
src=$("$top/scripts/iproute2-source.sh")
work=$top/build/iproute2/tc-build

rm -rf "$work"
cp -a "$src" "$work"
cd "$work"
for p in "$top"/tc-patch/*.patch; do
	if ! patch -p1 --batch --forward --quiet <"$p"; then
		echo "build-tc: $(basename "$p") does not apply to $(basename "$src")" >&2
		exit 1
	fi
done
./configure >configure.log 2>&1 || { cat configure.log >&2; exit 1; }
make -s SUBDIRS="lib tc" >build.log 2>&1 ||
	{ cat build.log >&2; exit 1; }
cp tc/tc "$top/build/tc"
echo "build-tc: build/tc ($(./tc/tc -V))"
