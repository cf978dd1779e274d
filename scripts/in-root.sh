#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/in-root.sh RELEASE COMMAND [ARG...]: run COMMAND with RELEASE's
# compiler: inside build/roots/RELEASE, a minimal Debian root made with
# debootstrap (once, and again when its package list changes), holding
# the build tools and the tool Depends of RELEASE's kernel headers
# (scripts/unpacked-depends.sh RELEASE: trixie's kernels need gcc-14,
# which Debian 12 cannot install).  This tree is bind-mounted at its own
# path in the root and the command runs from the current directory.  One
# run at a time (a lock); the mounts are undone on every exit path, and a
# run killed before it could undo them is cleaned up by the next.  Works
# inside a chroot too (make check-fresh).  Never runs anything but the
# build; nothing is loaded or installed on the host.
set -euo pipefail
rel=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
root=$top/build/roots/$rel
cwd=$(pwd)
# sparse and perl for make style (kernel-doc at W=1), kmod for modinfo.
packages="make libc6-dev sparse perl kmod $("$top/scripts/unpacked-depends.sh" "$rel" | tr '\n' ' ')"

unmount_all() {
	local m
	for m in "$root/proc" "$root$top"; do
		! mountpoint -q "$m" 2>/dev/null || umount "$m" || umount -l "$m"
	done
}

mkdir -p "$top/build/roots"
exec 9>"$top/build/roots/.lock"
flock 9
unmount_all
if [ "$(cat "$root/.packages" 2>/dev/null)" != "$packages" ]; then
	echo "in-root: making the $rel build root (debootstrap)" >&2
	if findmnt -rn -o TARGET | grep -q "^$root/"; then
		echo "in-root: something is still mounted under $root; not deleting it" >&2
		exit 1
	fi
	rm -rf "$root"
	debootstrap --variant=minbase --include="$(echo "$packages" | xargs | tr ' ' ,)" \
		--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		"$rel" "$root" "$("$top/scripts/archive-uri.sh")" \
		>"$top/build/roots/$rel.log" 2>&1 || {
		tail -n 20 "$top/build/roots/$rel.log" >&2
		echo "in-root: debootstrap $rel failed (log: build/roots/$rel.log)" >&2
		exit 1
	}
	echo "$packages" >"$root/.packages"
fi

trap unmount_all EXIT
trap 'exit 130' INT TERM
mkdir -p "$root$top"
mount --bind "$top" "$root$top"
mount -t proc proc "$root/proc"
# shellcheck disable=SC2016
chroot "$root" sh -c 'cd "$0" && exec "$@"' "$cwd" "$@"
