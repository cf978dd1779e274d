#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Fetch Debian's linux-source-6.1 package into build/cache and extract the
# few paths the project reads from it (checkpatch, tdc) into
# build/linux-src.  Nothing of it is committed; reruns are no-ops.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cache=$top/build/cache
dest=$top/build/linux-src
stamp=$dest/.extracted
PATHS="scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch
	tools/testing/selftests/tc-testing"

[ -e "$stamp" ] && exit 0
mkdir -p "$cache" "$dest"
deb=$(ls "$cache"/linux-source-6.1_*.deb 2>/dev/null | tail -n 1)
if [ -z "$deb" ]; then
	(cd "$cache" && apt-get download linux-source-6.1) ||
		{ apt-get update -q && (cd "$cache" && apt-get download linux-source-6.1); }
	deb=$(ls "$cache"/linux-source-6.1_*.deb | tail -n 1)
fi
members=
for p in $PATHS; do members="$members linux-source-6.1/$p"; done
# shellcheck disable=SC2086
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.1.tar.xz |
	tar -xJ -C "$dest" --strip-components=1 $members
echo "$(basename "$deb")" > "$stamp"
