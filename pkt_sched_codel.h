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
	/*
	 * u32 0/1: target and interval follow the drain rate the qdisc
	 * measures (target = max(target, 1.5 x one MTU's time at that rate),
	 * interval grown by as much); the configured values are the floor.
	 */
	TCA_CODEL_EXT_ADAPTIVE_TARGET,
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
	__u64	sojourn_sum_ns;	  /* sum of sojourn_hist's packets' sojourn
				   * times, ns (in 1024 ns steps)
				   */
	__u64	drain_rate;	  /* bytes/s measured (adaptive_target), 0
				   * until measured
				   */
	__u32	target_us;	  /* target in effect */
	__u32	interval_us;	  /* interval in effect */
};

/*
 * fq_codel_ext, the flow-queueing qdisc over the same CoDel core
 * (sch_fq_codel.c).  Debian builds the kernel's own fq_codel in, so ours
 * registers under its own kind; it speaks mainline fq_codel's ABI, value
 * for value, as the first part below (defined here only when
 * <linux/pkt_sched.h> has not been included), and adds to it the same way
 * as codel: one nest at the largest attribute type, and 64-bit counters
 * appended to mainline's xstats.
 */
#ifndef TCA_FQ_CODEL_MAX
enum {
	TCA_FQ_CODEL_UNSPEC,
	TCA_FQ_CODEL_TARGET,		/* u32, microseconds */
	TCA_FQ_CODEL_LIMIT,		/* u32, packets */
	TCA_FQ_CODEL_INTERVAL,		/* u32, microseconds */
	TCA_FQ_CODEL_ECN,		/* u32, 0 or 1 */
	TCA_FQ_CODEL_FLOWS,		/* u32, at creation only */
	TCA_FQ_CODEL_QUANTUM,		/* u32, bytes */
	TCA_FQ_CODEL_CE_THRESHOLD,	/* u32, microseconds */
	TCA_FQ_CODEL_DROP_BATCH_SIZE,	/* u32, packets */
	TCA_FQ_CODEL_MEMORY_LIMIT,	/* u32, bytes */
	TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR,	/* u8 */
	TCA_FQ_CODEL_CE_THRESHOLD_MASK,		/* u8 */
	__TCA_FQ_CODEL_MAX
};

#define TCA_FQ_CODEL_MAX	(__TCA_FQ_CODEL_MAX - 1)

enum {
	TCA_FQ_CODEL_XSTATS_QDISC,
	TCA_FQ_CODEL_XSTATS_CLASS,
};

struct tc_fq_codel_qd_stats {
	__u32	maxpacket;	/* largest packet seen at dequeue */
	__u32	drop_overlimit;	/* packets dropped over limit or memory */
	__u32	ecn_mark;	/* packets CE-marked instead of dropped */
	__u32	new_flow_count;	/* times a flow went on the new list */
	__u32	new_flows_len;	/* flows on the new list */
	__u32	old_flows_len;	/* flows on the old list */
	__u32	ce_mark;	/* packets CE-marked over ce_threshold */
	__u32	memory_usage;	/* truesize of the queued packets, bytes */
	__u32	drop_overmemory; /* of drop_overlimit, over memory_limit */
};

struct tc_fq_codel_cl_stats {
	__s32	deficit;	/* DRR deficit, bytes */
	__u32	ldelay;		/* sojourn of the flow's last packet, us */
	__u32	count;		/* drops since entering the dropping state */
	__u32	lastcount;	/* count at the last entry to that state */
	__u32	dropping;	/* 1 while in the dropping state */
	__s32	drop_next;	/* us until the next drop, while dropping */
};

struct tc_fq_codel_xstats {
	__u32	type;		/* TCA_FQ_CODEL_XSTATS_* */
	union {
		struct tc_fq_codel_qd_stats qdisc_stats;
		struct tc_fq_codel_cl_stats class_stats;
	};
};
#endif /* TCA_FQ_CODEL_MAX */

/* fq_codel_ext's additions, numbered by this module alone, appended only. */
#define TCA_FQ_CODEL_EXT	0x3fff

enum {
	TCA_FQ_CODEL_EXT_UNSPEC,
	TCA_FQ_CODEL_EXT_SPLIT_GSO,	    /* u32 0/1: segment GSO packets at enqueue */
	TCA_FQ_CODEL_EXT_CE_THRESHOLD_OFF, /* flag: switch ce_threshold off */
	TCA_FQ_CODEL_EXT_HASH_HEADERS,	    /* u32 0/1: hash each packet's headers */
	TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET,   /* u32 0/1: as TCA_CODEL_EXT_'s */
	__TCA_FQ_CODEL_EXT_MAX
};

#define TCA_FQ_CODEL_EXT_MAX	(__TCA_FQ_CODEL_EXT_MAX - 1)

/*
 * The qdisc's xstats (type TCA_FQ_CODEL_XSTATS_QDISC): mainline's, then
 * ours.  sojourn_hist has the layout of TC_CODEL_HIST_BUCKETS above.
 */
struct tc_fq_codel_xstats_ext {
	struct tc_fq_codel_xstats base;
	__u64	dequeue_calls;	  /* CoDel serves of a flow, empty included */
	__u64	ok_to_drop;	  /* times sojourn stayed above target for
				   * a whole interval
				   */
	__u64	loop_drops;	  /* drops made inside the dropping state */
	__u64	dropping_entries; /* entries into the dropping state */
	__u64	sojourn_hist[TC_CODEL_HIST_BUCKETS];
	__u64	drop_overlimit;	  /* base's, in 64 bits */
	__u64	drop_overmemory;  /* base's, in 64 bits */
	__u64	new_flow_count;	  /* base's, in 64 bits */
	__u64	codel_drops;	  /* packets CoDel dropped at dequeue */
	__u64	sojourn_sum_ns;	  /* sum of sojourn_hist's packets' sojourn
				   * times, ns (in 1024 ns steps)
				   */
	__u64	drain_rate;	  /* as tc_codel_xstats_ext's */
	__u32	target_us;	  /* target in effect */
	__u32	interval_us;	  /* interval in effect */
};

/*
 * A class's xstats (type TCA_FQ_CODEL_XSTATS_CLASS; class N is flow N - 1):
 * mainline's, then the flow's delivered packets by sojourn time.
 */
struct tc_fq_codel_cl_xstats_ext {
	struct tc_fq_codel_xstats base;
	__u64	sojourn_hist[TC_CODEL_HIST_BUCKETS];
};

#endif /* _UAPI_PKT_SCHED_CODEL_H */
