#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make deb: build/deb/sch-codel-dkms_VERSION_all.deb and
# build/deb/tc-codel_VERSION_amd64.deb with debhelper and dh-dkms (debian/),
# then lintian (build/deb/lintian.txt).  VERSION is dkms.conf's
# PACKAGE_VERSION, the tree's one version.  The source tree staged for
# dpkg-buildpackage holds the module sources and Debian's iproute2 with
# tc-patch/ applied and configured (make tc), whose tc/ builds q_codel.so.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
scripts/deps.sh debhelper dh-dkms lintian
make -s tc >/dev/null
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
out=build/deb
work=$out/sch-codel-$version
rm -rf "$out"
mkdir -p "$work"
cp Kbuild dkms.conf sch_codel.c codel.h codel_trace.h compat.h \
	pkt_sched_codel.h LICENSE "$work/"
cp -a debian "$work/debian"
cp -a build/iproute2/tc-build "$work/iproute2"
rev=$(git rev-parse --short=12 HEAD 2>/dev/null || echo "a tree without git")
cat >"$work/debian/changelog" <<CHANGELOG
sch-codel ($version) unstable; urgency=medium

  * Built by "make deb" from $rev.

 -- sch_codel developers <sch-codel@example.org>  $(date -R)
CHANGELOG
(cd "$work" && DEB_BUILD_OPTIONS=noautodbgsym dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; exit 1; }
# The plugin as packaged, for the guest tests (qemu/run adds it).
dpkg-deb --fsys-tarfile "$out"/tc-codel_"$version"_amd64.deb |
	tar -xO ./usr/lib/x86_64-linux-gnu/tc/q_codel.so >"$out/q_codel.so"
lintian --info --display-info --pedantic "$out"/*.changes >"$out/lintian.txt" 2>&1 || true
ls "$out"/*.deb
echo "deb: lintian: $(grep -c '^[EWIP]:' "$out/lintian.txt") tags, in $out/lintian.txt"
