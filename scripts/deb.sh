#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# make deb: snapshot packages of the tree's tracked files (committed or
# not) under build/deb: source package, sch-codel-dkms_VERSION_all.deb and
# tc-codel_VERSION_amd64.deb, built by dpkg-buildpackage exactly as from
# a checkout, then lintian (build/deb/lintian.txt).  VERSION is above
# debian/changelog's latest release, so apt upgrades a release to it and
# one snapshot to the next: LAST+gitYYYYMMDDHHMMSS.HASH (the commit's
# time, UTC; with uncommitted changes, now, and ".dirty").  Installs
# nothing: the Build-Depends come from make deps.  Packages already built
# from the same tracked files are kept (make check runs this each time).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
if ! dpkg-checkbuilddeps; then
	echo "deb: Build-Depends missing (make deps installs them)" >&2
	exit 1
fi
last=$(dpkg-parsechangelog -SVersion)
hash=$(git rev-parse --short=12 HEAD)
tree=$(git stash create)
dirty=${tree:+.dirty}
if [ -n "$tree" ]; then
	epoch=$(date +%s)
else
	epoch=$(git log -1 --format=%ct)
fi
# The tracked files' tree: what the packages are built from.
key=$(git rev-parse "${tree:-HEAD}^{tree}")
if [ "$(cat build/deb/tree 2>/dev/null)" = "$key" ] && [ -s build/deb/lintian.txt ]; then
	ls build/deb/*.deb
	echo "deb: $(cat build/deb/version) (built from this tree already)"
	exit 0
fi
when=$(date -u -d "@$epoch" +%Y%m%d%H%M%S)
version=$last+git$when.$hash$dirty
out=build/deb
work=$out/sch-codel-$version
rm -rf "$out"
mkdir -p "$out"
git archive --prefix="sch-codel-$version/" "${tree:-HEAD}" | tar -x -C "$out"
{
	cat <<CHANGELOG
sch-codel ($version) unstable; urgency=medium

  * Snapshot of $hash$dirty (make deb).

 -- sch_codel developers <sch-codel@example.org>  $(date -R -d "@$epoch")

CHANGELOG
	cat debian/changelog
} >"$work/debian/changelog"
(cd "$work" && DEB_BUILD_OPTIONS=noautodbgsym dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; exit 1; }
# The plugin as packaged, for the guest tests (qemu/run adds it).
for p in q_codel q_fq_codel_ext; do
	dpkg-deb --fsys-tarfile "$out"/tc-codel_"$version"_amd64.deb |
		tar -xO "./usr/lib/x86_64-linux-gnu/tc/$p.so" >"$out/$p.so"
done
echo "$version" >"$out/version"
lintian --info --display-info --pedantic "$out"/*.changes >"$out/lintian.txt" 2>&1 || true
echo "$key" >"$out/tree"
ls "$out"/*.deb
echo "deb: $version; lintian: $(grep -c '^[EWIPX]:' "$out/lintian.txt") tags, in $out/lintian.txt"
