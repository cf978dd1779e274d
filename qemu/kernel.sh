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

APT_CONFIG=$("$top/scripts/apt.sh" "$("$top/scripts/kernel-release.sh" --debian "$rel")")
export APT_CONFIG
# The image, and from 7.3 on the packages it was split into (the kernel
# binary, its modules, modules.order and friends): linux-binary-REL,
# linux-modules-REL, linux-base-REL among its Depends.
image=linux-image-$rel
apt-cache show "$image" >/dev/null 2>&1 || image=linux-image-$rel-unsigned
pkgs="$image $(apt-cache show "$image" | sed -n '0,/^Depends:/s/^Depends: //p' |
	tr ',|' '\n\n' | sed -n "s/^ *\(linux-\(base\|binary\|modules\)-$rel\)\( .*\)\?$/\1/p")"
mkdir -p "$cache"
rm -rf "$dir"
mkdir -p "$dir/root"
for p in $pkgs; do
	deb=$(ls "$cache/${p}_"*.deb 2>/dev/null | tail -n 1 || true)
	if [ -z "$deb" ]; then
		(cd "$cache" && apt-get -q download "$p")
		deb=$(ls "$cache/${p}_"*.deb | tail -n 1)
	fi
	dpkg-deb -x "$deb" "$dir/root"
	echo "$(basename "$deb")" >>"$dir/debs"
	# Read once; CI's disk is small.
	rm -f "$deb"
done
# Merged /usr (7.3's packages ship usr/lib/modules only).
[ -e "$dir/root/lib" ] || ln -s usr/lib "$dir/root/lib"
# Module trees no guest here loads (qemu/initramfs.sh's list and what it
# depends on): a third to a half of the image, on CI's small disk.
for d in sound drivers/gpu drivers/media drivers/infiniband drivers/scsi \
	drivers/staging drivers/usb drivers/iio drivers/net/wireless \
	drivers/net/ethernet drivers/bluetooth net/bluetooth net/wireless \
	net/mac80211; do
	rm -rf "$dir/root/lib/modules/$rel/kernel/$d"
done
depmod -b "$dir/root" "$rel"
if [ -e "$dir/root/boot/vmlinuz-$rel" ]; then
	cp "$dir/root/boot/vmlinuz-$rel" "$dir/vmlinuz"
else
	cp "$dir/root/lib/modules/$rel/vmlinuz" "$dir/vmlinuz"
fi

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
cp "$dir/debs" "$dir/.done"
