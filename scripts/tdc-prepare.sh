#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/tdc-prepare.sh [KERNELRELEASE]: build/tdc/REL, the kernel's
# tc-testing (tdc) from that kernel's own Debian source, unmodified, plus
# our cases from tests/tdc/ in tdc's JSON format, ready to be copied into
# the guest (qemu/run --add build/tdc/REL=/payload/tdc).  Prints the path.
#
# Our cases are written for 6.1's tdc, where each case creates and deletes
# its $DUMMY device.  From 6.12 on nsPlugin creates $DUMMY itself (through
# an "ip -b -" it does not wait for), so a case that also creates it races
# the plugin and the plugin's move into the test namespace fails with
# "File exists".  For such a tdc the two lines are left out, as the
# kernel's own codel.json does there.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rel=${1:-$("$top/scripts/kernel-release.sh")}
src=$("$top/scripts/linux-source.sh" "$rel")
dest=$top/build/tdc/$rel
rm -rf "$dest"
mkdir -p "$top/build/tdc"
cp -r "$src/tools/testing/selftests/tc-testing" "$dest"
plugin_makes_dummy=0
grep -q 'link add \$DUMMY' "$dest/plugin-lib/nsPlugin.py" && plugin_makes_dummy=1
for f in "$top"/tests/tdc/*.json; do
	python3 - "$f" "$dest/tc-tests/qdiscs/$(basename "$f")" "$plugin_makes_dummy" <<'PY'
import json
import sys

src, dst, plugin_makes_dummy = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
cases = json.load(open(src))
if plugin_makes_dummy:
    ours = ("$IP link add dev $DUMMY type dummy || /bin/true",
            "$IP link del dev $DUMMY type dummy")
    for case in cases:
        for stage in ("setup", "teardown"):
            case[stage] = [c for c in case[stage] if c not in ours]
json.dump(cases, open(dst, "w"), indent=4)
PY
done
echo "$dest"
