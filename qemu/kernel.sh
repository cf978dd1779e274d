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
deb=$(ls "$cache/linux-image-${rel}_"*.deb "$cache/linux-image-$rel-unsigned_"*.deb \
	2>/dev/null | tail -n 1 || true)
if [ -z "$deb" ]; then
	# Through the private APT configuration, which also sees backports.
	APT_CONFIG=$("$top/scripts/apt.sh")
	export APT_CONFIG
	(cd "$cache" && apt-get -q download "linux-image-$rel")
	deb=$(ls "$cache/linux-image-${rel}_"*.deb | tail -n 1)
fi
rm -rf "$dir"
mkdir -p "$dir/root"
dpkg-deb -x "$deb" "$dir/root"
depmod -b "$dir/root" "$rel"
cp "$dir/root/boot/vmlinuz-$rel" "$dir/vmlinuz"

# The bzImage is a compressed ELF behind a setup stub (XZ in 6.1, zstd in
# 6.12): find the first stream that decompresses to an ELF.
elf_from() { # MAGIC DECOMPRESSOR...
	magic=$1
	shift
	for off in $(LC_ALL=C grep -obUaP "$magic" "$dir/vmlinuz" | cut -d: -f1 | head -n 3); do
		tail -c +"$((off + 1))" "$dir/vmlinuz" | "$@" >"$dir/vmlinux" 2>/dev/null
		[ "$(head -c 4 "$dir/vmlinux" | od -An -c | tr -d ' ')" = '177ELF' ] && return 0
	done
	return 1
}
if elf_from '\xfd7zXZ\x00' xz -dc --single-stream ||
	elf_from '\x28\xb5\x2f\xfd' zstd -qdc; then
	:
else
	echo "kernel.sh: could not extract vmlinux; booting the bzImage" >&2
	rm -f "$dir/vmlinux"
fi
echo "$(basename "$deb")" >"$dir/.done"
