#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Install, idempotently, the Debian packages that building and testing
# sch_codel needs.  Only missing packages are installed; nothing is done
# (no apt-get update either) when all are present.  Extra package names
# may be given as arguments.
set -eu

PACKAGES="make gcc libc6-dev linux-headers-amd64 sparse
	qemu-system-x86 busybox-static iproute2 iperf3 cpio kmod xz-utils
	python3 perl ethtool gnuplot-nox zstd bison flex pkg-config libmnl-dev dkms
	valgrind debhelper dh-dkms lintian $*"

missing=
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing="$missing $p"
done
[ -n "$missing" ] || exit 0

echo "deps: installing:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: must run as root to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
