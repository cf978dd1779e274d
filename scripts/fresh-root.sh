#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# scripts/fresh-root.sh SUITE COMMAND: run COMMAND (a shell command line)
# in a clone of this tree's HEAD inside a minimal Debian root made from
# nothing (debootstrap --variant=minbase SUITE) under build/fresh/SUITE,
# as on a fresh machine: nothing there but Debian's minimal system plus
# make and git, so every package the build and tests need must come from
# make deps.  The root is made anew on each run.
#
# The archive is the one the host's APT sources name; the root gets its
# own APT sources for SUITE, SUITE-updates and SUITE-security.  The host's
# APT configuration and packages are never changed.  /proc, /sys, /dev
# (QEMU's /dev/net/tun for the --mq boot), /run and /tmp are mounted in
# the root for COMMAND and unmounted on every exit path; processes left in
# the root are killed first.  Needs root, debootstrap and git on the host.
#
#   scripts/fresh-root.sh bookworm 'make demo && make check'
set -euo pipefail
[ $# = 2 ] || { echo "usage: scripts/fresh-root.sh SUITE COMMAND" >&2; exit 2; }
suite=$1 cmd=$2
top=$(cd "$(dirname "$0")/.." && pwd)
root=$top/build/fresh/$suite
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

for t in debootstrap git chroot; do
	command -v "$t" >/dev/null || { echo "fresh-root: needs $t on the host" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "fresh-root: must run as root" >&2; exit 1; }

# shellcheck source=scripts/root-lib.sh
. "$top/scripts/root-lib.sh"
archive=$("$top/scripts/archive-uri.sh")
sampler=
cleanup() {
	[ -z "$sampler" ] || kill "$sampler" 2>/dev/null || true
	root_release "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A root left by an interrupted run: unmount before deleting, never
# delete through a bind mount of the host's /dev.
cleanup
rm -rf "$root"
mkdir -p "$root"

start=$(date +%s)
echo "fresh-root: debootstrap $suite from $archive"
debootstrap --variant=minbase --include=make,git --keyring="$keyring" \
	"$suite" "$root" "$archive" >"$top/build/fresh/debootstrap-$suite.log" 2>&1 ||
	{ tail -n 20 "$top/build/fresh/debootstrap-$suite.log" >&2; exit 1; }
root_configure "$root" "$suite" "$suite" "$suite-updates"
git clone -q "$top" "$root/src"
echo "fresh-root: $suite root ready in $(( $(date +%s) - start ))s;" \
	"$(chroot "$root" dpkg-query -W -f='.\n' | wc -l) packages"

root_mount "$root"
mount -t tmpfs tmpfs "$root/run"
mount -t tmpfs tmpfs "$root/tmp"

# The disk's lowest free space while COMMAND runs, sampled: CI's disk is
# small, and a run that fills it should say how close it came.
avail_kb() { df -k --output=avail "$root" | tail -n 1; }
lowest=$top/build/fresh/lowest-avail
avail_kb >"$lowest"
start_kb=$(cat "$lowest")
(
	while sleep 10; do
		a=$(avail_kb)
		[ "$a" -ge "$(cat "$lowest")" ] || echo "$a" >"$lowest"
	done
) &
sampler=$!

echo "fresh-root: $cmd"
rc=0
chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" \
	/bin/bash -c "cd /src && $cmd" || rc=$?
echo "fresh-root: disk: $(( (start_kb - $(cat "$lowest")) / 1024 )) MB used at most" \
	"($(( start_kb / 1024 )) MB free after debootstrap, sampled every 10 s)"
exit "$rc"
