#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
#
# A harness check, not a test of the module: toggle trace events (the
# kernel patches its text live through int3 for each) N times (default
# 300) while the other vCPU runs the patched paths.  QEMU 7.2's
# multi-threaded TCG let a vCPU execute a stale int3 and most runs died;
# QEMU 10 does not (docs/tests.md, "Fresh machines and reliable boots").
#   qemu/run qemu/stress-text-patching.sh [N]
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
echo 0 >$T/options/record-cmd
(while :; do ls /proc >/dev/null; done) &
(while :; do ping -c 1 -W 1 127.0.0.1 >/dev/null 2>&1; done) &
i=0
while [ $i -lt "${1:-300}" ]; do
	echo 1 >$T/events/sched/sched_switch/enable
	echo 1 >$T/events/timer/enable
	echo 0 >$T/events/sched/sched_switch/enable
	echo 0 >$T/events/timer/enable
	i=$((i + 1))
done
echo "toggled $i"
kill %1 %2 2>/dev/null
exit 0
