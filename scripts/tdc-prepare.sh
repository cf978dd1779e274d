#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/tdc-prepare.sh [KERNELRELEASE]: build/tdc/REL, the kernel's
# tc-testing (tdc) from that kernel's own Debian source, unmodified, plus
# our cases from tests/tdc/ in tdc's JSON format, ready to be copied into
# the guest (qemu/run --add build/tdc/REL=/payload/tdc), and the kernel's
# fq_codel cases for fq_codel_ext.  Prints the path.
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
# fq_codel_ext runs the kernel's own fq_codel cases, the kind renamed in
# every command and pattern (the word fq_codel, nothing else).
python3 - "$dest/tc-tests/qdiscs/fq_codel.json" "$dest/tc-tests/qdiscs/fq_codel_ext.json" <<'PY'
import json
import re
import sys

def rename(v):
    if isinstance(v, str):
        return re.sub(r"\bfq_codel\b", "fq_codel_ext", v)
    if isinstance(v, list):
        return [rename(x) for x in v]
    if isinstance(v, dict):
        return {k: (v[k] if k == "id" else rename(v[k])) for k in v}
    return v

cases = [rename(c) for c in json.load(open(sys.argv[1]))]
json.dump(cases, open(sys.argv[2], "w"), indent=4)
PY
# tdc's nsPlugin (without pyroute2) writes each case's namespace and
# veth commands to one long-lived "ip -b -" and does not wait for them:
# under TCG the last, "link set $DEV0 up", can still be pending when a
# case's scapy block binds its packet socket to $DEV0, which then fails
# with ENETDOWN and ends the whole tdc run (7.3's codel.json, case deb1).
# Each case that sends with scapy first waits, inside its namespace, for
# $DEV1 to be up, which a veth is only once its peer $DEV0 is.
for f in "$dest"/tc-tests/qdiscs/*.json; do
	grep -q '"scapy"' "$f" || continue
	python3 - "$f" <<'PY'
import json
import sys

wait = ("timeout 5 sh -c 'until grep -qx up /sys/class/net/$DEV1/operstate;"
        " do sleep 0.1; done'")
cases = json.load(open(sys.argv[1]))
for case in cases:
    if "scapy" in case:
        case["setup"] = [wait] + case.get("setup", [])
json.dump(cases, open(sys.argv[1], "w"), indent=4)
PY
done
# tdc runs every command in the environment its config names (none by
# default): through its documented local config, stock tc gets the
# directory the guest test puts the plugin in.
cat >"$dest/tdc_config_local.py" <<'PY'
# Written by scripts/tdc-prepare.sh: stock tc loads q_fq_codel_ext.so from
# there (tests/guest/codel-tdc.sh copies it in).
ENVIR = {"TC_LIB_DIR": "/tdc/tc-lib"}
PY
echo "$dest"
