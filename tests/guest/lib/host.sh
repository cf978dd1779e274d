# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# The host's tools in the guest, for lib.sh: /hostroot, the host's /usr
# shared read-only over 9p (qemu/run), for what the initramfs does not
# carry: python3 for tc-testing's tdc.py (codel-tdc.sh).

# hostroot_up: assemble /hostroot from the host's /usr (shared read-only
# over 9p by qemu/run) plus the guest's /proc, /sys, /dev, /tmp and /run,
# for host tools the initramfs does not carry (python3, tdc).
hostroot_up() {
	local d
	[ -e /hostroot/usr/bin/python3 ] && return 0
	modprobe 9pnet_virtio && modprobe 9p || return 1
	# A mount of its own: "ip netns exec" in the chroot remounts / rslave.
	mkdir -p /hostroot
	mount -t tmpfs hostroot /hostroot
	mkdir -p /hostroot/usr /hostroot/proc /hostroot/sys /hostroot/dev \
		/hostroot/tmp /hostroot/run /hostroot/etc
	# cache=loose: the host's /usr does not change during a run, and
	# without a page cache every exec and import reads its files over 9p
	# again (each tdc case and each python3 start paid that).
	mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 \
		hostusr /hostroot/usr || return 1
	for d in bin sbin lib lib64; do ln -sfn "usr/$d" "/hostroot/$d"; done
	mount -t proc proc /hostroot/proc
	mount -t sysfs sysfs /hostroot/sys
	mount --bind /dev /hostroot/dev
	mount --bind /tmp /hostroot/tmp
	mount --bind /run /hostroot/run
	cp /etc/passwd /etc/group /hostroot/etc/
}

# prometheus_up: /hostroot/opt/prometheus, promtool and node_exporter
# (qemu/run shares build/prometheus/bin when make guest-tools fetched it).
PROM_BIN=/opt/prometheus
prometheus_up() {
	[ -x /hostroot$PROM_BIN/promtool ] && return 0
	hostroot_up || return 1
	mkdir -p /hostroot$PROM_BIN
	mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 \
		hostprom /hostroot$PROM_BIN 2>/dev/null && [ -x /hostroot$PROM_BIN/promtool ]
}
