#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/prometheus-tools.sh: print the directory holding promtool and
# prometheus-node-exporter from Debian 12's packages, fetched by name
# through the private APT configuration and unpacked (not installed, so
# no daemon starts on the host) under build/prometheus.  Both are static
# Go programs: the guest runs them as they are (tests/guest, exporter).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/build/prometheus
if [ ! -e "$dir/.done" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/deb"
	APT_CONFIG=$("$top/scripts/apt.sh")
	export APT_CONFIG
	(cd "$dir/deb" && apt-get -qq download prometheus prometheus-node-exporter >&2)
	for p in "$dir"/deb/*.deb; do
		dpkg-deb -x "$p" "$dir/root"
	done
	mkdir -p "$dir/bin"
	cp "$dir/root/usr/bin/promtool" "$dir/root/usr/bin/prometheus-node-exporter" "$dir/bin/"
	rm -rf "$dir/deb" "$dir/root"
	touch "$dir/.done"
fi
echo "$dir/bin"
