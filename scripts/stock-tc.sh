#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/stock-tc.sh SUITE: print the path of the stock tc that SUITE's
# iproute2 package ships (bookworm: 6.1; bookworm-backports, trixie: 6.15),
# fetched by name through the private APT configuration and unpacked (not
# installed) under build/stock-tc/SUITE.  bookworm-backports' runs on
# Debian 12's libraries (the guest carries them); trixie's needs trixie's.
set -eu
suite=$1
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build/stock-tc/$suite
if [ ! -e "$dir/.done" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	APT_CONFIG=$("$top/scripts/apt.sh" "${suite%-backports}")
	export APT_CONFIG
	(cd "$dir" && apt-get -qq download "iproute2/$suite" >&2)
	dpkg-deb -x "$dir"/iproute2_*.deb "$dir/root"
	touch "$dir/.done"
fi
for t in "$dir/root/sbin/tc" "$dir/root/usr/sbin/tc"; do
	[ ! -x "$t" ] || { echo "$t"; exit 0; }
done
echo "stock-tc: no tc in $(ls "$dir"/iproute2_*.deb)" >&2
exit 1
