#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# Build a small debug kernel from Debian's linux-source-6.1 (KASAN,
# KMEMLEAK, PROVE_LOCKING, DEBUG_ATOMIC_SLEEP, UBSAN, GCOV_KERNEL for the
# module's coverage, plus just what the guest suite needs) and lay it out like qemu/kernel.sh does for Debian's
# image: build/kernel/REL/{vmlinuz,root/lib/modules/REL}.  The source tree
# stays in build/linux-debug/src, where the module is built against it.
# Prints the release.  Idempotent: an unchanged config is not rebuilt.
set -eu
# Everything but the release goes to stderr: callers read stdout as the
# release, and the dependency installs and the build print.
exec 3>&1 1>&2
top=$(cd "$(dirname "$0")/.." && pwd)
work=$top/build/linux-debug
src=$work/src
# The source of Debian's default kernel: its release is recorded below so
# that tdc and checkpatch for this kernel come from the same source.
srcrel=$("$top/scripts/kernel-release.sh")
"$top/scripts/linux-source.sh" "$srcrel" >/dev/null
"$top/scripts/deps.sh" libelf-dev bc libssl-dev
deb=$(ls "$top"/build/cache/linux-source-6.1_*.deb 2>/dev/null | tail -n 1 || true)

# Trees this configuration never builds (other architectures, GPU, sound,
# media, ...: 0.9 of the source's 1.3 GB): only their Kconfig files and
# Makefiles are unpacked, which Kconfig and the descent into obj-y
# directories read.  CI's disk is not large enough for the whole tree
# beside everything else a fresh root holds.
UNBUILT="arch/[a-w]* arch/xtensa Documentation sound drivers/gpu
	drivers/media drivers/scsi drivers/staging drivers/infiniband
	drivers/net/ethernet drivers/net/wireless drivers/net/can tools/perf
	tools/testing"
if [ ! -e "$src/.unpacked" ]; then
	if [ -z "$deb" ]; then
		APT_CONFIG=$("$top/scripts/apt.sh" bookworm)
		export APT_CONFIG
		ver=$(sed -n 's/^linux-source-6.1 //p' "$top/build/linux-src/$srcrel/.extracted-v3")
		mkdir -p "$top/build/cache"
		(cd "$top/build/cache" && apt-get -q download "linux-source-6.1=$ver")
		deb=$(ls "$top"/build/cache/linux-source-6.1_*.deb | tail -n 1)
	fi
	rm -rf "$src"
	mkdir -p "$src"
	excl=
	set -f
	for d in $UNBUILT; do excl="$excl --exclude=linux-source-6.1/$d"; done
	# shellcheck disable=SC2086
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.1.tar.xz |
		tar -xJ -C "$src" --strip-components=1 --anchored $excl
	set +f
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.1.tar.xz |
		tar -xJ -C "$src" --strip-components=1 --skip-old-files \
			--wildcards --wildcards-match-slash '*/Kconfig*' '*/Makefile*' '*/Kbuild'
	rm -f "$deb"
	basename "$deb" >"$src/.unpacked"
fi
cd "$src"

ENABLE="64BIT SMP MODULES MODULE_UNLOAD PCI VIRTIO_MENU VIRTIO_PCI VIRTIO_NET
	NET INET IPV6 PACKET UNIX NETDEVICES NET_CORE NET_NS NAMESPACES USER_NS VETH DUMMY
	NET_SCHED NET_CLS NET_CLS_ACT NET_CLS_U32 NET_CLS_MATCHALL NET_CLS_BASIC
	NET_SCH_FQ_CODEL NET_EMATCH
	TTY SERIAL_8250 SERIAL_8250_CONSOLE PRINTK PRINTK_TIME BUG BINFMT_ELF
	BINFMT_SCRIPT PROC_FS SYSFS TMPFS DEVTMPFS DEVTMPFS_MOUNT BLK_DEV_INITRD
	RD_GZIP FUTEX EPOLL SIGNALFD TIMERFD EVENTFD SHMEM POSIX_TIMERS MULTIUSER
	FILE_LOCKING UNIX98_PTYS DEVPORT HYPERVISOR_GUEST PARAVIRT PVH ACPI KERNEL_GZIP
	NET_9P NET_9P_VIRTIO 9P_FS INET_DIAG FTRACE ENABLE_DEFAULT_TRACERS
	KALLSYMS KALLSYMS_ALL STACKTRACE DEBUG_KERNEL DEBUG_FS DEBUG_FS_ALLOW_ALL
	SLUB KASAN KASAN_GENERIC KASAN_INLINE DEBUG_KMEMLEAK PROVE_LOCKING
	DEBUG_ATOMIC_SLEEP UBSAN UBSAN_BOUNDS DEBUG_INFO_NONE CRC32 NET_SCH_DEFAULT
	PVPANIC PVPANIC_PCI PCI_MSI GCOV_KERNEL"
MODULAR="NET_SCH_CODEL NET_SCH_HTB NET_SCH_TBF NET_SCH_PRIO NET_SCH_NETEM NET_SCH_CBS
	NET_SCH_DRR NET_SCH_HFSC NET_SCH_QFQ NET_SCH_ETS NET_SCH_MULTIQ NET_SCH_MQPRIO
	NET_SCH_INGRESS NET_PKTGEN NET_ACT_GACT
	NET_ACT_MIRRED NET_ACT_SKBEDIT IFB"
# No kmemleak scan thread: a full scan under KASAN and TCG stalls the guest
# for seconds and disturbs timed tests; the suite scans when it chooses.
# The rest keeps the build short (docs/tests.md): trace events need no
# function tracer, UBSAN instruments only the modules under test (Kbuild),
# and nothing the guest never uses is built (ACPI stays for its MADT: with
# SeaBIOS's MP table alone the guest boots with one vCPU).  x86 selects
# PERF_EVENTS and SCHED_MC_PRIO CPU_FREQ: the PMU drivers, uprobes and the
# P-state driver go instead, with the PCI and SoC UARTs (the console is
# the legacy port).
DISABLE="SLOB DEBUG_KMEMLEAK_DEFAULT_OFF DEBUG_KMEMLEAK_AUTO_SCAN MODULE_SIG
	WERROR FUNCTION_TRACER UBSAN_SANITIZE_ALL INPUT VT HID CPU_FREQ THERMAL
	PERF_EVENTS KERNEL_XZ RD_BZIP2 RD_LZMA RD_XZ RD_LZO RD_LZ4 RD_ZSTD
	ETHTOOL_NETLINK PTP_1588_CLOCK PPS ACPI_AC ACPI_BATTERY ACPI_BUTTON ACPI_FAN
	ACPI_THERMAL ACPI_PROCESSOR ACPI_DOCK ACPI_VIDEO ACPI_TABLE_UPGRADE
	ACPI_PCI_SLOT ACPI_CONTAINER UPROBE_EVENTS SCHED_MC_PRIO
	PERF_EVENTS_INTEL_UNCORE PERF_EVENTS_INTEL_RAPL PERF_EVENTS_INTEL_CSTATE
	PERF_EVENTS_AMD_POWER PERF_EVENTS_AMD_UNCORE SERIAL_8250_PCI SERIAL_8250_EXAR
	SERIAL_8250_LPSS SERIAL_8250_MID SERIAL_8250_PERICOM"

want=$work/config.want
{
	echo "$ENABLE"
	echo "$MODULAR"
	echo "$DISABLE"
} >"$want.new"
if [ ! -e .config ] || ! cmp -s "$want.new" "$want"; then
	make -s tinyconfig >&2
	for o in $ENABLE; do scripts/config --enable "$o"; done
	for o in $MODULAR; do scripts/config --module "$o"; done
	for o in $DISABLE; do scripts/config --disable "$o"; done
	scripts/config --set-str LOCALVERSION "-codel-debug"
	scripts/config --disable LOCALVERSION_AUTO
	make -s olddefconfig >&2
	# tinyconfig's SLOB silently keeps KASAN off: check what we got.
	for o in KASAN DEBUG_KMEMLEAK PROVE_LOCKING DEBUG_ATOMIC_SLEEP UBSAN \
		VIRTIO_NET NET_SCHED MODULE_UNLOAD GCOV_KERNEL USER_NS EVENT_TRACING; do
		grep -q "^CONFIG_$o=y" .config ||
			{ echo "debug-kernel: CONFIG_$o did not stick" >&2; exit 1; }
	done
	mv "$want.new" "$want"
fi
rm -f "$want.new"

t0=$(date +%s)
make -s -j"$(( $(nproc) + 1 ))" bzImage modules >&2
echo "debug-kernel: make bzImage modules took $(( $(date +%s) - t0 ))s" >&2
rel=$(make -s kernelrelease)
dest=$top/build/kernel/$rel
if [ ! -e "$dest/.done" ] || [ arch/x86/boot/bzImage -nt "$dest/.done" ]; then
	rm -rf "$dest"
	mkdir -p "$dest/root"
	make -s modules_install INSTALL_MOD_PATH="$dest/root" INSTALL_MOD_STRIP=1 >&2
	cp arch/x86/boot/bzImage "$dest/vmlinuz"
	depmod -b "$dest/root" "$rel"
	echo "debug kernel built from $(cat "$src/.unpacked")" >"$dest/.done"
fi
# Extra kernel command line, appended by qemu/run.  QEMU's PIIX _PRT builds
# its table in an AML While loop that, under KASAN + kmemleak + TCG, runs
# into ACPICA's 30 s loop timeout (no INTx route for virtio, then an RCU
# stall report): pci=noacpi routes PCI interrupts from SeaBIOS's $PIR table
# instead.  Everything is ~20x slower than on Debian's kernel, so RCU may
# wait longer before it calls a grace period stalled.  no5lvl: with QEMU's
# -cpu max the decompressor turns on 5-level paging, and 6.1's KASAN derives
# its shadow start from pgtable_l5_enabled(), i.e. from the CPU feature bits
# that identify_cpu() clears and refills at boot; an interrupt in that window
# made KASAN report a valid 5-level direct-map address as a wild access
# (handle_edge_irq -> do_raw_spin_lock at 1.3 s, before any module loaded).
echo "pci=noacpi rcupdate.rcu_cpu_stall_timeout=120 no5lvl" >"$dest/cmdline"
echo "$srcrel" >"$dest/source-release"
echo "$rel" >"$work/release"
echo "$rel" >&3
