/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Every difference between the kernels sch_codel builds for (the support
 * matrix of docs/kernels.md), in one place.  Each entry names the
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
#include <net/sock.h>

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
 * 6.19: qdisc-specific drop reasons (<net/dropreason-qdisc.h>, which
 * <net/sch_generic.h> includes and whose DEFINE_QDISC_DROP_REASON stays
 * defined): over the
 * limit at enqueue (OVERLIMIT, also for memory_limit, as fq_codel) and
 * congestion at dequeue (CONGESTED), carried in the skb's tc cb to the
 * qdisc:qdisc_drop tracepoint.  Before, every qdisc drop is
 * SKB_DROP_REASON_QDISC_DROP and only our codel_skb_drop event tells
 * them apart.
 */
#ifdef DEFINE_QDISC_DROP_REASON
static inline int codel_drop_at_enqueue(struct sk_buff *skb, struct Qdisc *sch,
					struct sk_buff **to_free)
{
	return qdisc_drop_reason(skb, sch, to_free, QDISC_DROP_OVERLIMIT);
}

static inline void codel_free_overlimit(struct sk_buff *skb)
{
	kfree_skb_reason(skb, (enum skb_drop_reason)QDISC_DROP_OVERLIMIT);
}
#else
static inline int codel_drop_at_enqueue(struct sk_buff *skb, struct Qdisc *sch,
					struct sk_buff **to_free)
{
	return qdisc_drop(skb, sch, to_free);
}

static inline void codel_free_overlimit(struct sk_buff *skb)
{
	kfree_skb_reason(skb, SKB_DROP_REASON_QDISC_DROP);
}
#endif

/*
 * 6.19: a qdisc flagged TCQ_F_DEQUEUE_DROPS hands the packets it drops in
 * ->dequeue() to qdisc_dequeue_drop(), which chains them on the root
 * qdisc's to_free list (when the root is flagged too) to be freed after
 * the qdisc lock is released, as the kernel's own codel does.  Before,
 * they are freed at once.
 */
#ifdef TCQ_F_DEQUEUE_DROPS
#define CODEL_SCH_FLAGS		TCQ_F_DEQUEUE_DROPS

static inline void codel_drop_at_dequeue(struct Qdisc *sch, struct sk_buff *skb)
{
	qdisc_dequeue_drop(sch, skb, QDISC_DROP_CONGESTED);
}
#else
#define CODEL_SCH_FLAGS		0

static inline void codel_drop_at_dequeue(struct Qdisc *sch, struct sk_buff *skb)
{
	kfree_skb_reason(skb, SKB_DROP_REASON_QDISC_DROP);
}
#endif

/*
 * fq_codel_ext's batch drop at enqueue (over limit or memory_limit): 6.19
 * gives it its qdisc drop reason, as the in-tree fq_codel does.  The
 * packet goes on @to_free and is counted by the caller.
 */
static inline void codel_drop_batched(struct sk_buff *skb,
				      struct sk_buff **to_free)
{
#ifdef DEFINE_QDISC_DROP_REASON
	tcf_set_qdisc_drop_reason(skb, QDISC_DROP_OVERLIMIT);
#endif
	__qdisc_drop(skb, to_free);
}

/*
 * What a packet counts against fq_codel_ext's memory_limit: its truesize,
 * except, as the in-tree fq_codel does since 7.x (7.3 is the first kernel
 * of our matrix with it; 6.12 has not), a packet still charged to its
 * socket's send buffer, which that buffer already bounds.
 */
static inline u32 codel_mem_charge(const struct sk_buff *skb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
	if (is_skb_wmem(skb))
		return 0;
#endif
	return skb->truesize;
}

/*
 * 6.19: byte and packet statistics count segments: qdisc_skb_cb()->pkt_segs
 * is set before enqueue, and a segment made from a GSO packet (which
 * inherits its cb) is one again, as sch_tbf sets it.
 */
static inline void codel_segment_cb_init(struct sk_buff *seg)
{
	qdisc_skb_cb(seg)->pkt_len = seg->len;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 19, 0)
	qdisc_skb_cb(seg)->pkt_segs = 1;
#endif
}

#endif /* _SCH_CODEL_COMPAT_H */
