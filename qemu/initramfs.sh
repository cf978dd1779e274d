#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# qemu/initramfs.sh KERNELRELEASE OUT: build the guest's base initramfs (an
# uncompressed newc cpio: the kernel unpacks it faster under TCG than a
# compressed one) from the host's Debian packages:
#   - busybox-static, linked in /bin for every applet that does not shadow
#     a real tool below;
#   - iproute2's ip and tc, iperf3, ethtool and kmod (modprobe & co.), with
#     the shared libraries ldd names;
#   - the kernel modules the tests use, with their dependencies resolved
#     from the unpacked kernel's modules.dep, and modules.dep regenerated
#     for this subset plus updates/sch_codel.ko and sch_fq_codel_ext.ko
#     (which each run overlays with the freshly built modules, see qemu/run);
#   - qemu/guest/init as /init and qemu/guest/env as /etc/guest-env.
set -eu
rel=$1
out=$(realpath -m "$2")
top=$(cd "$(dirname "$0")/.." && pwd)
kroot=$top/build/kernel/$rel/root
stage=$(mktemp -d "$top/build/initramfs-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# Tools whose busybox applets must not shadow the real ones.
REAL_TOOLS="/usr/sbin/ip /usr/sbin/tc /usr/bin/iperf3 /usr/sbin/ethtool /usr/bin/kmod"
MODULES="virtio_pci virtio_net dummy veth pvpanic-pci pktgen 9p 9pnet_virtio
	ifb sch_htb sch_tbf sch_prio sch_netem sch_drr sch_hfsc sch_ingress
	sch_multiq sch_qfq sch_ets sch_cbs sch_mqprio sch_taprio sch_pie sch_red sch_sfq
	cls_u32 cls_matchall cls_basic cls_fw
	act_gact act_mirred act_skbedit ipv6 tcp_bbr sch_cake slip"

cd "$stage"
mkdir -p bin sbin usr/bin usr/sbin lib lib64 etc proc sys dev run tmp \
	var payload "lib/modules/$rel/updates"
ln -s ../run var/run

cp /usr/bin/busybox bin/busybox
skip=" ip tc iperf3 ethtool modprobe insmod rmmod lsmod modinfo depmod "
for a in $(bin/busybox --list); do
	case "$skip" in *" $a "*) continue ;; esac
	[ -e "bin/$a" ] || ln -s busybox "bin/$a"
done

copy_with_libs() {
	install -D -m 0755 "$1" ".$1"
	ldd "$1" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' |
	while read -r lib; do
		[ -e ".$lib" ] || install -D -m 0755 "$lib" ".$lib"
	done
}
for t in $REAL_TOOLS; do copy_with_libs "$t"; done
for l in modprobe insmod rmmod lsmod modinfo depmod; do
	ln -s ../bin/kmod "usr/sbin/$l"
done

# Modules and everything they depend on (resolved without loading: -D).
# A module the kernel was built with (its modules.order) but that is not
# in the unpacked tree was trimmed by qemu/kernel.sh: an error, not a
# quiet skip.  Names not in modules.order are built in (ipv6 in 7.3).
for m in $MODULES; do
	modprobe -C /dev/null -d "$kroot" -S "$rel" -D "$m" >/dev/null 2>&1 ||
		! grep -Eq "/($m|$(echo "$m" | tr - _))\.ko\$" \
			"$kroot/lib/modules/$rel/modules.order" ||
		{ echo "initramfs: module $m missing from $kroot ($rel)" >&2; exit 1; }
done
mods=$(for m in $MODULES; do
	modprobe -C /dev/null -d "$kroot" -S "$rel" -D "$m" 2>/dev/null |
		awk '$1 == "insmod" { print $2 }'
done | sort -u)
# Stored uncompressed (6.12 ships .ko.xz): the guest's kmod then needs no
# decompressor and TCG spends no time on it; depmod below indexes them.
install_module() {
	dest=.${1#"$kroot"}
	mkdir -p "$(dirname "$dest")"
	case $1 in
	*.ko.xz) xz -dc "$1" >"${dest%.xz}" ;;
	*.ko.zst) zstd -qdc "$1" >"${dest%.zst}" ;;
	*) install -m 0644 "$1" "$dest" ;;
	esac
}
for m in $mods; do
	install_module "$m"
done
# The in-tree codel too, for side-by-side comparisons (insmod by path).
install_module "$(ls "$kroot/lib/modules/$rel/kernel/net/sched/sch_codel.ko"*)"
cp "$kroot/lib/modules/$rel/modules.order" "$kroot/lib/modules/$rel/modules.builtin" \
	"$kroot/lib/modules/$rel/modules.builtin.modinfo" "lib/modules/$rel/"
# Placeholders for depmod; qemu/run overlays the real modules at these paths.
for m in sch_codel sch_fq_codel_ext; do
	cp "$top/build/module/$rel/$m.ko" "lib/modules/$rel/updates/$m.ko"
done
depmod -b "$stage" "$rel"

install -m 0755 "$top/qemu/guest/init" init
install -m 0644 "$top/qemu/guest/env" etc/guest-env
echo "root:x:0:0:root:/root:/bin/sh" >etc/passwd
echo "root:x:0:" >etc/group
echo "$rel" >etc/kernel-release

find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 >"$out.tmp"
mv "$out.tmp" "$out"
