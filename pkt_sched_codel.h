/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * UAPI of the out-of-tree sch_codel module.
 *
 * The first part is mainline's CoDel ABI from <linux/pkt_sched.h>, value
 * for value and field for field, so that stock tc keeps working: it is
 * only defined here when that header has not been included already (as it
 * always is inside the kernel).  What this module adds follows it.
 */
#ifndef _UAPI_PKT_SCHED_CODEL_H
#define _UAPI_PKT_SCHED_CODEL_H

#include <linux/types.h>

#ifndef TCA_CODEL_MAX
enum {
	TCA_CODEL_UNSPEC,
	TCA_CODEL_TARGET,	/* u32, microseconds */
	TCA_CODEL_LIMIT,	/* u32, packets */
	TCA_CODEL_INTERVAL,	/* u32, microseconds */
	TCA_CODEL_ECN,		/* u32, 0 or 1 */
	TCA_CODEL_CE_THRESHOLD,	/* u32, microseconds */
	__TCA_CODEL_MAX
};

#define TCA_CODEL_MAX	(__TCA_CODEL_MAX - 1)

struct tc_codel_xstats {
	__u32	maxpacket;	/* largest packet seen at dequeue */
	__u32	count;		/* drops since entering the dropping state */
	__u32	lastcount;	/* count at the last entry to that state */
	__u32	ldelay;		/* sojourn of the last dequeued packet, us */
	__s32	drop_next;	/* us until the next drop, while dropping */
	__u32	drop_overlimit;	/* packets tail-dropped over the limit */
	__u32	ecn_mark;	/* packets CE-marked instead of dropped */
	__u32	dropping;	/* 1 while in the dropping state */
	__u32	ce_mark;	/* packets CE-marked over ce_threshold */
};
#endif /* TCA_CODEL_MAX */

/*
 * This module's additions.
 *
 * Attributes: all inside one nested attribute, TCA_CODEL_EXT, whose type is
 * the largest a netlink attribute can have (NLA_TYPE_MASK, 0x3fff; sent with
 * NLA_F_NESTED).  Mainline numbers codel's attributes upwards from 1 and
 * has used 5 of them since 2012, so it cannot reach this one: the next
 * attribute mainline adds can never be read as one of ours, by this module
 * or by our tc.  A stock tc ignores types above its TCA_CODEL_MAX.  Inside
 * the nest, TCA_CODEL_EXT_* are numbered by this module alone; new ones are
 * only ever appended.
 *
 * Counters: the xstats payload is struct tc_codel_xstats_ext, whose first
 * sizeof(struct tc_codel_xstats) bytes are mainline's fields, so a reader
 * built for mainline reads it unchanged.  Ours follow as 64-bit counters,
 * and are only ever appended: a reader checks the payload length before it
 * reads a field.
 */
#define TCA_CODEL_EXT	0x3fff

enum {
	TCA_CODEL_EXT_UNSPEC,
	TCA_CODEL_EXT_SPLIT_GSO,	/* u32 0/1: segment GSO packets at enqueue */
	/* u8: ce_threshold marks only if (dsfield & MASK) == SELECTOR */
	TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR,
	/*
	 * u8, 0: every ECT packet.  Sent alone, 0 also clears the selector
	 * (switches the selector off).
	 */
	TCA_CODEL_EXT_CE_THRESHOLD_MASK,
	TCA_CODEL_EXT_CE_THRESHOLD_OFF,	/* flag: switch ce_threshold off */
	/*
	 * u32, bytes, 1 .. 2^31: the queue's packets may hold at most this much
	 * memory (skb truesize, as fq_codel counts it); a packet that would
	 * pass it is dropped at enqueue.  Default 32 MB.
	 */
	TCA_CODEL_EXT_MEMORY_LIMIT,
	__TCA_CODEL_EXT_MAX
};

#define TCA_CODEL_EXT_MAX	(__TCA_CODEL_EXT_MAX - 1)

/*
 * sojourn_hist: delivered packets by sojourn time, in units of 1024 ns
 * (codel's clock).  Bucket 0 counts sojourns below 2^8 units (262 us);
 * bucket b, 1 <= b <= 12, those in [2^(b+7), 2^(b+8)) units, i.e. below
 * 262 us * 2^b; bucket 13 everything from 2^20 units (1.07 s) up.  This
 * is the one description of the layout; code and documents refer to it.
 */
#define TC_CODEL_HIST_BUCKETS	14

struct tc_codel_xstats_ext {
	struct tc_codel_xstats	base;
	__u32	pad;		  /* 0; aligns the 64-bit counters */
	__u64	dequeue_calls;	  /* dequeue calls, empty queue included */
	__u64	ok_to_drop;	  /* times sojourn stayed above target for
				   * a whole interval
				   */
	__u64	loop_drops;	  /* drops made inside the dropping state */
	__u64	dropping_entries; /* entries into the dropping state */
	__u64	sojourn_hist[TC_CODEL_HIST_BUCKETS];
	__u64	drop_overmemory;  /* packets dropped at enqueue over
				   * memory_limit
				   */
	__u64	memory_used;	  /* truesize of the queued packets, bytes */
};

#endif /* _UAPI_PKT_SCHED_CODEL_H */
