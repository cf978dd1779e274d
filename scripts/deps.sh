#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Install, idempotently, the Debian packages that building and testing
# sch_codel needs: the list below, any names given as arguments, the
# Build-Depends of debian/control, and the Depends of every package the project unpacks instead of installing
# (scripts/unpacked-depends.sh: the 6.12 headers' gcc-12, their kbuild's
# pahole, ...).  Only missing packages are installed; nothing is done (no
# apt-get update either) when all are present.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

PACKAGES="make gcc libc6-dev build-essential linux-headers-amd64 sparse
	busybox-static iproute2 iperf3 cpio kmod xz-utils
	python3 perl ethtool gnuplot-nox zstd bison flex pkg-config libmnl-dev dkms
	valgrind lintian git debootstrap python3-scapy mandoc systemd $*"

# apt_get COMMAND ARGS...: apt-get COMMAND ARGS (install, build-dep),
# output to build/deps.log, its tail shown if it fails.  The downloaded
# .debs are not kept: over a gigabyte in a fresh root, on a small disk.
apt_get() {
	if [ "$(id -u)" != 0 ]; then
		echo "deps: must run as root to install packages" >&2
		exit 1
	fi
	mkdir -p "$top/build"
	log=$top/build/deps.log
	if ! { [ -n "${updated:-}" ] || apt-get update -q; } >>"$log" 2>&1 ||
		! DEBIAN_FRONTEND=noninteractive apt-get "$@" -y -q \
			--no-install-recommends -o APT::Keep-Downloaded-Packages=false \
			>>"$log" 2>&1; then
		tail -n 20 "$log" >&2
		echo "deps: apt-get failed (whole log: $log)" >&2
		exit 1
	fi
	updated=1
}

# install_missing PACKAGE...: install those not installed yet.
install_missing() {
	missing=
	for p in "$@"; do
		status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		[ "$status" = "install ok installed" ] || missing="$missing $p"
	done
	[ -n "$missing" ] || return 0
	echo "deps: installing:$missing"
	# shellcheck disable=SC2086
	apt_get install $missing
}

# shellcheck disable=SC2086
install_missing $PACKAGES

# What dpkg-buildpackage needs (dpkg-checkbuilddeps: dpkg-dev, from
# build-essential above).
if ! (cd "$top" && dpkg-checkbuilddeps) >/dev/null 2>&1; then
	echo "deps: installing the Build-Depends of debian/control"
	apt_get build-dep "$top"
fi

# QEMU 10.0 or later: 7.2's multi-threaded TCG races the guest kernel's
# live text patching (docs/tests.md, "Fresh machines and reliable
# boots").  Debian 12 has it in bookworm-backports, reached through the
# private APT configuration (scripts/apt.sh); later releases ship it.
qemu=$(dpkg-query -W -f='${Status} ${Version}' qemu-system-x86 2>/dev/null || true)
if ! dpkg --compare-versions "${qemu##* }" ge 1:10.0 2>/dev/null ||
	[ "${qemu% *}" != "install ok installed" ]; then
	. /etc/os-release
	target=$VERSION_CODENAME
	[ "$target" != bookworm ] || target=bookworm-backports
	echo "deps: installing: qemu-system-x86 from $target"
	(
		APT_CONFIG=$("$top/scripts/apt.sh")
		export APT_CONFIG
		apt_get install -t "$target" qemu-system-x86
	)
fi
# The releases are read from the archive once the default headers are in.
# shellcheck disable=SC2046
install_missing $("$top/scripts/unpacked-depends.sh")
