# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Helpers for the minimal Debian roots the project makes with debootstrap
# (scripts/fresh-root.sh, tests/host/deb-release.sh); bash, sourced.  The
# archive is the one the host's APT sources name; nothing of the host's
# APT configuration changes.

# root_mounted ROOT: the mount points under ROOT, one a line.
root_mounted() { findmnt -rn -o TARGET | grep -E "^$1(/|$)" || true; }

# root_release ROOT: kill what still runs in ROOT, unmount everything under
# it (deepest first); fails if something stays mounted.
root_release() {
	local p m
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" != "$1" ] || kill -9 "${p#/proc/}" 2>/dev/null
	done
	sleep 0.2
	root_mounted "$1" | sort -r | while read -r m; do umount -l "$m" || true; done
	[ -z "$(root_mounted "$1")" ] || { echo "still mounted under $1:" >&2; root_mounted "$1" >&2; return 1; }
}

# root_configure ROOT SUITE...: APT sources as a fresh install has them
# for the SUITEs given (the first one's -security too), the host's
# resolver, and no service starting (Debian's policy-rc.d convention).
root_configure() {
	local root=$1 suite=$2 keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	shift
	rm -f "$root/etc/apt/sources.list"
	cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOS
Types: deb
URIs: $("$top/scripts/archive-uri.sh")
Suites: $*
Components: main
Signed-By: $keyring

Types: deb
URIs: $("$top/scripts/archive-uri.sh" debian-security)
Suites: $suite-security
Components: main
Signed-By: $keyring
EOS
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 0755 "$root/usr/sbin/policy-rc.d"
}

# root_mount ROOT: /proc, /sys and the host's /dev (rslave) in ROOT.
root_mount() {
	mount -t proc proc "$1/proc"
	mount -t sysfs sysfs "$1/sys"
	mount --rbind /dev "$1/dev"
	mount --make-rslave "$1/dev"
}
