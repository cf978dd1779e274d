#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# qemu/kernel.sh KERNELRELEASE: fetch Debian's linux-image-KERNELRELEASE
# .deb (never installed on the host), unpack it under build/kernel/REL/,
# run depmod on the unpacked tree and extract the ELF vmlinux from the
# bzImage (QEMU boots it directly through PVH, about twice as fast as the
# bzImage under TCG).  Idempotent.
set -eu
rel=$1
top=$(cd "$(dirname "$0")/.." && pwd)
cache=$top/build/cache
dir=$top/build/kernel/$rel
[ -e "$dir/.done" ] && exit 0

mkdir -p "$cache"
deb=$(ls "$cache/linux-image-${rel}_"*.deb 2>/dev/null | tail -n 1 || true)
if [ -z "$deb" ]; then
	(cd "$cache" && apt-get download "linux-image-$rel") ||
		{ apt-get update -q && (cd "$cache" && apt-get download "linux-image-$rel"); }
	deb=$(ls "$cache/linux-image-${rel}_"*.deb | tail -n 1)
fi
rm -rf "$dir"
mkdir -p "$dir/root"
dpkg-deb -x "$deb" "$dir/root"
depmod -b "$dir/root" "$rel"
cp "$dir/root/boot/vmlinuz-$rel" "$dir/vmlinuz"

# The bzImage is an XZ-compressed ELF behind a setup stub: find the XZ
# magic and decompress one stream from there.
off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$dir/vmlinuz" | head -n 1 | cut -d: -f1)
if [ -n "$off" ] &&
	tail -c +"$((off + 1))" "$dir/vmlinuz" | xz -dc --single-stream >"$dir/vmlinux" 2>/dev/null &&
	[ "$(head -c 4 "$dir/vmlinux" | od -An -c | tr -d ' ')" = '177ELF' ]; then
	:
else
	echo "kernel.sh: could not extract vmlinux; booting the bzImage" >&2
	rm -f "$dir/vmlinux"
fi
echo "$(basename "$deb")" >"$dir/.done"
