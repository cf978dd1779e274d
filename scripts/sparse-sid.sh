#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/sparse-sid.sh: prints the path of a sparse that parses
# __typeof_unqual__, which 7.3's kbuild requires before it runs C=2
# (its scripts/checker-valid.sh) and which Debian 12's and 13's sparse
# 0.6.4 cannot parse.  It is Debian unstable's sparse package, fetched by
# name through the project's private APT configuration for sid and
# unpacked (never installed) under build/tools/sparse-sid.  Its binary
# needs glibc 2.38: it runs in the trixie build root, not on Debian 12.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build/tools/sparse-sid
if [ ! -x "$dir/usr/bin/sparse" ]; then
	conf=$("$top/scripts/apt.sh" sid)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && APT_CONFIG=$conf apt-get -qq download sparse >&2)
	rm -rf "$dir"
	mkdir -p "$dir"
	dpkg-deb -x "$tmp"/sparse_*.deb "$dir"
fi
echo "$dir/usr/bin/sparse"
