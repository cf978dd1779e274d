/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Every difference between the kernels sch_codel builds for (Debian 12's
 * 6.1 and bookworm-backports' 6.12), in one place.  Each entry names the
 * release that introduced the change and is keyed on what the headers
 * define or on LINUX_VERSION_CODE; sch_codel.c, codel_trace.h and codel.h
 * hold no version test.  checkpatch warns about LINUX_VERSION_CODE in
 * kernel code, which only ever builds for the version it is merged in;
 * this file is the one place out-of-tree code needs it, and
 * scripts/style.sh lets it have it here alone.  Keep it small: an entry
 * goes when its oldest kernel leaves the support matrix (docs/kernels.md).
 */
#ifndef _SCH_CODEL_COMPAT_H
#define _SCH_CODEL_COMPAT_H

#include <linux/version.h>
#include <net/pkt_sched.h>

/* 6.5: skb_gso_segment() moved from <linux/netdevice.h> to <net/gso.h>. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#include <net/gso.h>
#endif

/*
 * 6.10: qdisc autoload asks for "net-sch-KIND" instead of "sch_KIND"
 * (NET_SCH_ALIAS_PREFIX), so a qdisc module must carry that alias to be
 * found.  Older kernels still find us by file name; the alias only adds
 * "modprobe net-sch-codel" there.
 */
#ifndef MODULE_ALIAS_NET_SCH
#define MODULE_ALIAS_NET_SCH(id)	MODULE_ALIAS("net-sch-" id)
#endif

/*
 * Drop reasons given to kfree_skb_reason().  Mainline later split
 * SKB_DROP_REASON_QDISC_DROP into qdisc-specific reasons (over the limit
 * at enqueue vs congestion at dequeue); no supported kernel has them, so
 * both are QDISC_DROP here and the codel_skb_drop event tells them apart.
 * A kernel that has them gets an entry here.
 */
#define CODEL_SKB_DROP_OVERLIMIT	SKB_DROP_REASON_QDISC_DROP
#define CODEL_SKB_DROP_CONGESTED	SKB_DROP_REASON_QDISC_DROP

#endif /* _SCH_CODEL_COMPAT_H */
