/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Copyright (C) 2026 sch_codel contributors
 *
 * Derived from the Linux kernel's CoDel (include/net/codel.h and codel_impl.h),
 * which carries this notice, kept in full as it asks (see LICENSE):
 *
 *  Copyright (C) 2011-2012 Kathleen Nichols <nichols@pollere.com>
 *  Copyright (C) 2011-2012 Van Jacobson <van@pollere.net>
 *  Copyright (C) 2012 Michael D. Taht <dave.taht@bufferbloat.net>
 *  Copyright (C) 2012,2015 Eric Dumazet <edumazet@google.com>
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 * 1. Redistributions of source code must retain the above copyright
 *    notice, this list of conditions, and the following disclaimer,
 *    without modification.
 * 2. Redistributions in binary form must reproduce the above copyright
 *    notice, this list of conditions and the following disclaimer in the
 *    documentation and/or other materials provided with the distribution.
 * 3. The names of the authors may not be used to endorse or promote products
 *    derived from this software without specific prior written permission.
 *
 * Alternatively, provided that this notice is retained in full, this
 * software may be distributed under the terms of the GNU General
 * Public License ("GPL") version 2, in which case the provisions of the
 * GPL apply INSTEAD OF those given above.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
 * "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
 * LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
 * A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT
 * OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
 * SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
 * LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
 * DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
 * THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
 * OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH
 * DAMAGE.
 */
/*
 * CoDel - the Controlled Delay active queue management algorithm core.
 *
 * Nichols and Jacobson, "Controlling Queue Delay" (ACM Queue, 2012);
 * RFC 8289.  This file holds the algorithm only: no clock, no allocation,
 * no lock, no kernel call.  The caller passes the current time in and lets
 * the core touch packets only through struct codel_pkt_ops, so the very same
 * file builds into sch_codel.ko and into the userspace tests and simulator
 * (which supply <linux/types.h> and <linux/math64.h> through a small shim).
 *
 * Semantics follow the kernel's include/net/codel_impl.h bit for bit, given
 * the same clock readings, apart from the deltas docs/parity.md names
 * (tests/diff compares the two on random traces for every supported
 * kernel).
 *
 * Time
 * ----
 * codel_time_t counts 1024 ns units in a u32 (ns >> CODEL_SHIFT).  It wraps
 * every 4398 s, so times are only ever compared through the signed
 * difference helpers below, which are correct while the two instants are
 * less than 2^31 units (2199 s) apart.  The qdisc bounds every configured
 * time (CODEL_TIME_MAX_US) so that even 16 * interval, used by the re-entry
 * rule, stays far inside that window.
 *
 * State machine (RFC 8289 section 3)
 * ---------------------------------
 * A packet's sojourn time is measured when it reaches the head of the queue.
 * While sojourn >= target and more than one MTU stays queued, the
 * "first_above_time" deadline runs; once it has been above target for a
 * whole interval CoDel enters the dropping state, drops (or ECN-marks) one
 * packet and schedules the next drop at interval / sqrt(count) later.  It
 * leaves the dropping state as soon as one packet's sojourn falls below
 * target or the backlog falls to one MTU, and forgets the deadline when
 * the queue runs empty.
 */
#ifndef _SCH_CODEL_CORE_H
#define _SCH_CODEL_CORE_H

#include <linux/types.h>
#include <linux/math64.h>

typedef u32 codel_time_t;
typedef s32 codel_tdiff_t;

#define CODEL_SHIFT		10
#define CODEL_NSEC_PER_USEC	1000U

/* Wrap-safe comparisons of two codel_time_t instants. */
static inline bool codel_time_after(codel_time_t a, codel_time_t b)
{
	return (codel_tdiff_t)(a - b) > 0;
}

static inline bool codel_time_after_eq(codel_time_t a, codel_time_t b)
{
	return (codel_tdiff_t)(a - b) >= 0;
}

static inline bool codel_time_before(codel_time_t a, codel_time_t b)
{
	return (codel_tdiff_t)(a - b) < 0;
}

static inline codel_time_t codel_ns_to_time(u64 ns)
{
	return (codel_time_t)(ns >> CODEL_SHIFT);
}

/* Configuration arrives in microseconds over netlink (TCA_CODEL_*). */
static inline codel_time_t codel_us_to_time(u32 us)
{
	return codel_ns_to_time((u64)us * CODEL_NSEC_PER_USEC);
}

static inline u32 codel_time_to_us(codel_time_t t)
{
	return (u32)div_u64((u64)t << CODEL_SHIFT, CODEL_NSEC_PER_USEC);
}

/*
 * Largest configurable target, interval or ce_threshold: 100 s.  In codel
 * time that is 97656250 units; 16 times that (the re-entry window) is
 * 1.56e9 < 2^31, so every comparison the algorithm makes stays wrap-safe.
 */
#define CODEL_TIME_MAX_US	100000000U

/* ce_threshold value meaning "off"; no configurable time reaches it. */
#define CODEL_DISABLED_THRESHOLD	0x7fffffffU

/*
 * 1/sqrt(count) is kept as a Q0.16 fraction; shifted left by
 * REC_INV_SQRT_SHIFT it becomes the Q0.32 value the control law uses.
 */
#define REC_INV_SQRT_BITS	16
#define REC_INV_SQRT_SHIFT	(32 - REC_INV_SQRT_BITS)
#define REC_INV_SQRT_ONE	((u16)(~0U >> REC_INV_SQRT_SHIFT))

/*
 * Most drops one codel_serve() makes in its dropping loop.  How many
 * drops are due depends on how long the queue went unserved and how much
 * it holds, neither of which CoDel controls; past this many, the schedule
 * restarts from now instead, so the work done under the qdisc lock is
 * bounded.
 */
#define CODEL_MAX_DROPS_PER_DEQUEUE	256

struct sk_buff;

/*
 * Why a qdisc built on this core drops a packet, as its codel_skb_drop
 * tracepoint reports it; each has its counter.  CONGESTED is the
 * algorithm's, the others the glue's.  Tracing tools see the values: only
 * ever append.
 */
enum codel_drop_reason {
	CODEL_DROP_OVERLIMIT,	/* tail drop at enqueue: over "limit" */
	CODEL_DROP_CONGESTED,	/* the control law, at dequeue: sojourn too long */
	CODEL_DROP_TRIM,	/* head drop when "limit" was lowered */
	CODEL_DROP_GSO,		/* split_gso could not segment the packet */
	CODEL_DROP_MEMORY,	/* tail drop at enqueue: over "memory_limit" */
};

/* The control law's decisions other than a drop (codel_pkt_ops.event). */
enum codel_event {
	CODEL_EV_ECN_MARK,	/* marked CE instead of dropped */
	CODEL_EV_CE_MARK,	/* marked CE over ce_threshold */
	CODEL_EV_DROPPING_ENTER,
	CODEL_EV_DROPPING_EXIT,
};

/**
 * struct codel_params - configuration, written by change(), read by dequeue
 * @target:	acceptable standing queue delay (RFC 8289 TARGET, 5 ms)
 * @interval:	window a standing delay must persist before dropping, and
 *		the base of the control law (RFC 8289 INTERVAL, 100 ms)
 * @ce_threshold: sojourn above which delivered ECT packets are CE-marked
 *		whatever the drop state (CODEL_DISABLED_THRESHOLD: off)
 * @mtu:	backlog at or below which CoDel never drops: with at most one
 *		packet queued there is no standing queue to remove
 * @ecn:	mark ECN-capable packets instead of dropping them
 * @ce_threshold_selector: with a nonzero @ce_threshold_mask, ce_threshold
 *		marks only packets whose (dsfield & mask) == selector, e.g.
 *		ECT(1) alone for L4S (selector 0x01, mask 0x03), as fq_codel does
 * @ce_threshold_mask: 0 marks every ECN-capable packet over ce_threshold
 */
struct codel_params {
	codel_time_t	target;
	codel_time_t	interval;
	codel_time_t	ce_threshold;
	u32		mtu;
	bool		ecn;
	u8		ce_threshold_selector;
	u8		ce_threshold_mask;
};

/**
 * struct codel_vars - the state machine
 * @count:	drops (or marks) since entering the dropping state
 * @lastcount:	@count when the dropping state was last entered
 * @dropping:	in the dropping state
 * @rec_inv_sqrt: 1/sqrt(@count), Q0.16, kept by Newton steps
 * @first_above_time: when sojourn will have been above target for an
 *		interval; 0 while below target
 * @drop_next:	when the next drop is due (dropping state), else when the
 *		last one was due
 * @ldelay:	sojourn time of the most recently dequeued packet
 */
struct codel_vars {
	u32		count;
	u32		lastcount;
	bool		dropping;
	u16		rec_inv_sqrt;
	codel_time_t	first_above_time;
	codel_time_t	drop_next;
	codel_time_t	ldelay;
};

/*
 * Sojourn-time histogram of delivered packets, in the power-of-two buckets
 * pkt_sched_codel.h defines (TC_CODEL_HIST_BUCKETS): one shift and one
 * count-leading-zeros per packet.
 */
#define CODEL_HIST_SHIFT	8
#define CODEL_HIST_BUCKETS	14

/* unsigned long: it indexes an array, and so needs no widening there. */
static inline unsigned long codel_hist_bucket(codel_time_t sojourn)
{
	unsigned long b = sojourn >> CODEL_HIST_SHIFT;

	if (!b)
		return 0;
	b = 32UL - __builtin_clz(b);	/* fls(), without a kernel call */
	return b < CODEL_HIST_BUCKETS ? b : CODEL_HIST_BUCKETS - 1;
}

/**
 * struct codel_stats - counters, exported through xstats
 * @maxpacket:	largest packet length seen at dequeue
 * @drop_count:	packets dropped by the current codel_serve() call; the
 *		caller reports them to parent qdiscs and zeroes it
 * @drop_len:	bytes of those packets
 * @ecn_mark:	packets CE-marked instead of dropped
 * @ce_mark:	packets CE-marked because sojourn exceeded ce_threshold
 * @dequeue_calls: codel_serve() calls (v12's "states")
 * @sojourn_sum: the sum of the delivered packets' sojourn times, in codel
 *		time units: with the count, the mean a histogram alone
 *		cannot give
 * @sojourn_hist: delivered packets by sojourn time (codel_hist_bucket())
 * @ok_to_drop:	times a packet found sojourn above target for a full
 *		interval (v12's "state1")
 * @loop_drops:	packets dropped by the dropping-state loop (v12's "state2"
 *		counted entries into that loop instead)
 * @dropping_entries: entries into the dropping state (v12's "state3")
 *
 * The counters that are not mainline's are 64-bit: at 1 Mpps a 32-bit
 * dequeue_calls would wrap in 72 minutes.  Ordered for the per-packet
 * path: what every codel_serve() writes (through @sojourn_sum) and the
 * first histogram buckets, where most packets land, share the first 64
 * bytes; the counters of the dropping state follow the histogram.
 */
struct codel_stats {
	u32		maxpacket;
	u32		drop_count;
	u32		drop_len;
	u32		ecn_mark;
	u32		ce_mark;
	u64		dequeue_calls;
	u64		sojourn_sum;
	u64		sojourn_hist[CODEL_HIST_BUCKETS];
	u64		ok_to_drop;
	u64		loop_drops;
	u64		dropping_entries;
};

/**
 * struct codel_pkt_ops - how the core reaches packets and the queue
 * @pop:	take the head packet off the queue (and out of *backlog), or
 *		return NULL when empty
 * @len:	packet length in bytes, as counted in the backlog
 * @enqueue_time: the time the packet was stamped at enqueue
 * @drop:	free a packet the control law dropped (CODEL_DROP_CONGESTED),
 *		with @vars as they stand and the current time
 * @set_ce:	set CE on an ECN-capable (ECT or CE) packet and return true;
 *		return false for a Not-ECT packet
 * @dsfield:	the packet's DS field (DSCP and ECN bits), or -1 if not IP
 * @event:	report a decision (@vars as it stands, the current time);
 *		must be cheap when nobody listens
 * @delivered:	optional: the histogram bucket of the packet codel_serve()
 *		is about to return, for a histogram of the caller's own
 *		(fq_codel_ext's per flow) without a second codel_hist_bucket()
 *
 * codel_serve() is always inlined with a constant ops table, so the
 * compiler turns every call below into a direct (usually inlined) call.
 */
struct codel_pkt_ops {
	struct sk_buff *(*pop)(void *ctx);
	u32 (*len)(const struct sk_buff *skb);
	codel_time_t (*enqueue_time)(const struct sk_buff *skb);
	void (*drop)(void *ctx, struct sk_buff *skb,
		     const struct codel_vars *vars, codel_time_t now);
	bool (*set_ce)(struct sk_buff *skb);
	int (*dsfield)(struct sk_buff *skb);
	void (*event)(void *ctx, enum codel_event ev,
		      const struct codel_vars *vars, codel_time_t now);
	void (*delivered)(void *ctx, unsigned long bucket);
};

static inline void codel_params_init(struct codel_params *params, u32 mtu)
{
	params->target = codel_us_to_time(5000);
	params->interval = codel_us_to_time(100000);
	params->ce_threshold = CODEL_DISABLED_THRESHOLD;
	params->mtu = mtu;
	params->ecn = false;
	params->ce_threshold_selector = 0;
	params->ce_threshold_mask = 0;
}

static inline void codel_vars_init(struct codel_vars *vars)
{
	*vars = (struct codel_vars){ 0 };
}

/*
 * One Newton-Raphson step towards 1/sqrt(count) (RFC 8289 section 5.4
 * suggests exactly this to avoid a square root and a divide):
 *
 *	new_invsqrt = (invsqrt / 2) * (3 - count * invsqrt^2)
 *
 * in Q0.32 fixed point.  The qdisc calls it once per increment of count, so
 * the estimate tracks count closely (see tests/unit: the error bound).
 */
static inline void codel_newton_step(struct codel_vars *vars)
{
	u32 invsqrt = ((u32)vars->rec_inv_sqrt) << REC_INV_SQRT_SHIFT;
	u32 invsqrt2 = ((u64)invsqrt * invsqrt) >> 32;
	u64 val = (3ULL << 32) - ((u64)vars->count * invsqrt2);

	val >>= 2;	/* keep the following multiply inside 64 bits */
	val = (val * invsqrt) >> (32 - 2 + 1);

	vars->rec_inv_sqrt = val >> REC_INV_SQRT_SHIFT;
}

/*
 * The control law, RFC 8289 section 3.3: the next drop is due
 * interval / sqrt(count) after t.  (interval * Q0.32) >> 32 is
 * reciprocal_scale(); open-coded to keep this file free of kernel calls.
 * At least one tick: a small interval or a large count truncates the
 * quotient to zero, and a schedule that never advances would drop every
 * packet the dropping loop sees.
 */
static inline codel_time_t codel_control_law(codel_time_t t,
					     codel_time_t interval,
					     u16 rec_inv_sqrt)
{
	u32 scale = (u32)rec_inv_sqrt << REC_INV_SQRT_SHIFT;
	u32 step = (u32)(((u64)interval * scale) >> 32);

	return t + (step ? step : 1);
}

/*
 * Decide whether the packet just taken off the head may be dropped: true
 * once its sojourn has stayed at or above target for a whole interval
 * while more than an MTU remains queued (RFC 8289 section 5.2, with Linux's
 * "backlog <= mtu" guard in place of the v12 largest-packet guard).
 */
static __always_inline bool codel_should_drop(const struct sk_buff *skb,
					      u32 backlog,
					      struct codel_vars *vars,
					      const struct codel_params *params,
					      struct codel_stats *stats,
					      const struct codel_pkt_ops *ops,
					      codel_time_t now)
{
	u32 len;

	if (!skb) {
		vars->first_above_time = 0;
		return false;
	}

	len = ops->len(skb);
	vars->ldelay = now - ops->enqueue_time(skb);
	if (len > stats->maxpacket)
		stats->maxpacket = len;

	if (codel_time_before(vars->ldelay, params->target) ||
	    backlog <= params->mtu) {
		/* Went below: it must stay above for a new full interval. */
		vars->first_above_time = 0;
		return false;
	}
	if (vars->first_above_time == 0) {
		/* Just went above; a whole interval above makes it ok. */
		vars->first_above_time = now + params->interval;
		return false;
	}
	if (!codel_time_after(now, vars->first_above_time))
		return false;
	stats->ok_to_drop++;
	return true;
}

/* Drop @skb, account it, and return the next head packet (or NULL). */
static __always_inline struct sk_buff *
codel_drop_and_next(struct sk_buff *skb, void *ctx, struct codel_stats *stats,
		    const struct codel_vars *vars, codel_time_t now,
		    const struct codel_pkt_ops *ops)
{
	stats->drop_len += ops->len(skb);
	stats->drop_count++;
	ops->drop(ctx, skb, vars, now);
	return ops->pop(ctx);
}

/* ce_threshold applies to this packet (the L4S selector, if one is set). */
static __always_inline bool codel_ce_selected(struct sk_buff *skb,
					      const struct codel_params *params,
					      const struct codel_pkt_ops *ops)
{
	int dsfield;

	if (!params->ce_threshold_mask)
		return true;
	dsfield = ops->dsfield(skb);
	return dsfield >= 0 &&
	       ((u8)dsfield & params->ce_threshold_mask) ==
	       params->ce_threshold_selector;
}

/**
 * codel_serve() - serve the head of the queue: drop, mark or deliver
 * @ctx:	opaque queue handle passed back to @ops
 * @skb:	the head packet, already taken off by ops->pop(), or NULL
 *		if the queue was empty
 * @now:	the current time; when @skb is NULL it is only passed to
 *		ops->event, for the exit from the dropping state, so the
 *		caller need read the clock for an empty queue only while
 *		vars->dropping is set
 * @backlog:	bytes still queued; ops->pop() keeps it current
 * @params:	configuration
 * @vars:	state machine
 * @stats:	counters; drop_count/drop_len report this call's drops
 * @ops:	packet and queue accessors
 *
 * Return: the packet to deliver (possibly CE-marked), or NULL when CoDel
 * dropped everything that was queued.
 */
static __always_inline struct sk_buff *
codel_serve(void *ctx, struct sk_buff *skb, codel_time_t now,
	    const u32 *backlog, const struct codel_params *params,
	    struct codel_vars *vars, struct codel_stats *stats,
	    const struct codel_pkt_ops *ops)
{
	unsigned int steps = 0;
	unsigned long bucket;
	bool drop;

	stats->dequeue_calls++;
	if (!skb) {
		/*
		 * An empty queue has no standing delay: a queue that builds
		 * up after this must stay above target for a whole interval
		 * of its own before CoDel drops.  Without this reset, the
		 * deadline of an episode that ended long ago would still be
		 * armed and the first packet above target would be dropped
		 * at once.
		 */
		vars->first_above_time = 0;
		if (vars->dropping) {
			vars->dropping = false;
			ops->event(ctx, CODEL_EV_DROPPING_EXIT, vars, now);
		}
		return NULL;
	}

	drop = codel_should_drop(skb, *backlog, vars, params, stats, ops, now);
	if (vars->dropping) {
		if (!drop) {
			/* Sojourn fell below target: leave the dropping state. */
			vars->dropping = false;
			ops->event(ctx, CODEL_EV_DROPPING_EXIT, vars, now);
		} else {
			/*
			 * Drop every packet whose scheduled drop time has
			 * passed.  A large backlog can make the next drop due
			 * at once, hence the loop; each dequeue may also end
			 * the dropping state (RFC 8289 section 5.5).
			 */
			while (vars->dropping &&
			       codel_time_after_eq(now, vars->drop_next)) {
				if (++steps > CODEL_MAX_DROPS_PER_DEQUEUE) {
					/* Far behind: resume the schedule from now. */
					vars->drop_next =
						codel_control_law(now,
								  params->interval,
								  vars->rec_inv_sqrt);
					break;
				}
				/* count may wrap: nothing divides by it */
				vars->count++;
				codel_newton_step(vars);
				if (params->ecn && ops->set_ce(skb)) {
					stats->ecn_mark++;
					ops->event(ctx, CODEL_EV_ECN_MARK, vars, now);
					vars->drop_next =
						codel_control_law(vars->drop_next,
								  params->interval,
								  vars->rec_inv_sqrt);
					goto end;
				}
				stats->loop_drops++;
				skb = codel_drop_and_next(skb, ctx, stats, vars,
							  now, ops);
				if (!codel_should_drop(skb, *backlog, vars,
						       params, stats, ops, now)) {
					vars->dropping = false;
					ops->event(ctx, CODEL_EV_DROPPING_EXIT,
						   vars, now);
				} else {
					vars->drop_next =
						codel_control_law(vars->drop_next,
								  params->interval,
								  vars->rec_inv_sqrt);
				}
			}
		}
	} else if (drop) {
		u32 delta;

		if (params->ecn && ops->set_ce(skb)) {
			stats->ecn_mark++;
			ops->event(ctx, CODEL_EV_ECN_MARK, vars, now);
		} else {
			skb = codel_drop_and_next(skb, ctx, stats, vars, now,
						  ops);
			/*
			 * Called for its side effects (ldelay, maxpacket,
			 * first_above_time) on the new head, as mainline does.
			 */
			codel_should_drop(skb, *backlog, vars, params, stats,
					  ops, now);
		}
		vars->dropping = true;
		stats->dropping_entries++;
		/*
		 * If we were dropping recently, the drop rate that controlled
		 * the queue last time is a good place to start (RFC 8289
		 * section 5.6): resume at the number of drops the previous
		 * cycle added, if that was more than one and the last drop
		 * was due within 16 intervals.
		 */
		delta = vars->count - vars->lastcount;
		if (delta > 1 &&
		    codel_time_before(now - vars->drop_next,
				      16 * params->interval)) {
			vars->count = delta;
			/* Later Newton steps converge on the new count. */
			codel_newton_step(vars);
		} else {
			vars->count = 1;
			vars->rec_inv_sqrt = REC_INV_SQRT_ONE;
		}
		vars->lastcount = vars->count;
		vars->drop_next = codel_control_law(now, params->interval,
						    vars->rec_inv_sqrt);
		ops->event(ctx, CODEL_EV_DROPPING_ENTER, vars, now);
	}
end:
	if (!skb)
		return NULL;
	/* Bucket 0 without fls(): most packets. */
	bucket = vars->ldelay < (1U << CODEL_HIST_SHIFT) ? 0 :
		 codel_hist_bucket(vars->ldelay);
	stats->sojourn_hist[bucket]++;
	if (ops->delivered)
		ops->delivered(ctx, bucket);
	stats->sojourn_sum += vars->ldelay;
	if (codel_time_after(vars->ldelay, params->ce_threshold) &&
	    codel_ce_selected(skb, params, ops) && ops->set_ce(skb)) {
		stats->ce_mark++;
		ops->event(ctx, CODEL_EV_CE_MARK, vars, now);
	}
	return skb;
}

/*
 * A target that follows the link (the adaptive_target option).
 *
 * CoDel's 5 ms target assumes a packet leaves in far less than that; below
 * about 2.4 Mbit/s one 1514-byte frame takes longer than 5 ms on the wire,
 * so a single queued packet looks like a standing queue and CoDel drops
 * into an idle link.  Shapers that know their rate raise the target to
 * 1.5 times one MTU's transmission time (sch_cake's cake_set_rate(),
 * sqm-scripts' adapt_target_to_slow_link); a leaf under HTB or TBF is not
 * told the rate, so it measures what it sees: the time between two
 * departures while packets stayed queued is the time the parent took to
 * send the first of them.  Gaps after the queue ran empty are idle time
 * and are not counted, so idle periods leave the estimate as it was.
 * Service times are summed over windows of at least CODEL_RATE_WINDOW and
 * smoothed with weight 1/2^CODEL_RATE_EWMA_SHIFT, so a step in the rate is
 * followed within a few windows.  16 ms is three packets where the target
 * starts to rise (2.4 Mbit/s) and one below 750 kbit/s: a shaper's timer
 * that fires a few ms late (HTB's and TBF's watchdogs, busy hosts) then
 * moves a window by a few percent, where a one-packet sample at 1 Mbit/s
 * would double.
 */
#define CODEL_RATE_WINDOW	((codel_time_t)(16000000 >> CODEL_SHIFT)) /* 16 ms */
#define CODEL_RATE_EWMA_SHIFT	3
/* CODEL_TIME_MAX_US in codel time: no time in effect exceeds it. */
#define CODEL_TIME_MAX		((codel_time_t)((CODEL_TIME_MAX_US * 1000ULL) >> CODEL_SHIFT))

/**
 * struct codel_rate - the drain rate of a queue, as the time one MTU takes
 * @last:	when the last packet left
 * @last_len:	its length in bytes
 * @busy:	service time summed in the current window
 * @bytes:	bytes served in that time (at 1 Tbit/s a window holds
 *		250 MB: a u32 is enough)
 * @mtu_time:	smoothed time one MTU takes to leave; 0 until measured
 * @backlogged:	packets stayed queued when the last one left: the time
 *		until the next departure is service time, not idle time
 */
struct codel_rate {
	codel_time_t	last;
	u32		last_len;
	codel_time_t	busy;
	u32		bytes;
	codel_time_t	mtu_time;
	bool		backlogged;
};

static inline void codel_rate_init(struct codel_rate *r)
{
	*r = (struct codel_rate){ 0 };
}

/**
 * codel_rate_departure() - account a packet that leaves the queue
 * @r:		the estimator
 * @now:	the time it leaves
 * @len:	its length in bytes
 * @backlogged:	packets remain queued behind it
 * @mtu:	the MTU whose transmission time is estimated
 *
 * Return: true when a window closed and @r->mtu_time was updated.
 */
static inline bool codel_rate_departure(struct codel_rate *r,
					codel_time_t now, u32 len,
					bool backlogged, u32 mtu)
{
	bool updated = false;

	if (r->backlogged) {
		codel_tdiff_t gap = (codel_tdiff_t)(now - r->last);

		/* A gap of 2^31 units or more is capped by the sample below. */
		r->busy += gap > 0 ? (codel_time_t)gap : 0;
		r->bytes += r->last_len;
		if (r->busy >= CODEL_RATE_WINDOW && r->bytes) {
			u64 t = div_u64((u64)r->busy * mtu, r->bytes);
			codel_time_t sample = t < CODEL_TIME_MAX ?
					      (codel_time_t)t : CODEL_TIME_MAX;

			if (!r->mtu_time)
				r->mtu_time = sample;
			else
				r->mtu_time = r->mtu_time -
					(r->mtu_time >> CODEL_RATE_EWMA_SHIFT) +
					(sample >> CODEL_RATE_EWMA_SHIFT);
			r->busy = 0;
			r->bytes = 0;
			updated = true;
		}
	}
	r->last = now;
	r->last_len = len;
	r->backlogged = backlogged;
	return updated;
}

/* The drain rate in bytes per second, 0 until measured. */
static inline u64 codel_rate_bytes_per_sec(const struct codel_rate *r, u32 mtu)
{
	if (!r->mtu_time)
		return 0;
	return div_u64(((u64)mtu * 1000000000ULL) >> CODEL_SHIFT, r->mtu_time);
}

/**
 * codel_rate_adapt() - the target and interval in effect
 * @r:		the estimator
 * @target:	the configured target, the floor
 * @interval:	the configured interval
 * @params:	where the values in effect go (->target, ->interval)
 *
 * target = max(@target, 1.5 * mtu_time); the interval grows by as much as
 * the target did, so that the time CoDel waits above target before it
 * drops stays the configured interval beyond one packet's transmission.
 */
static inline void codel_rate_adapt(const struct codel_rate *r,
				    codel_time_t target, codel_time_t interval,
				    struct codel_params *params)
{
	u64 t = (u64)r->mtu_time + (r->mtu_time >> 1);
	u64 i;

	if (t <= target) {
		params->target = target;
		params->interval = interval;
		return;
	}
	if (t > CODEL_TIME_MAX)
		t = CODEL_TIME_MAX;
	i = (u64)interval + (t - target);
	params->target = (codel_time_t)t;
	params->interval = i < CODEL_TIME_MAX ? (codel_time_t)i : CODEL_TIME_MAX;
}

/**
 * codel_rate_follow() - a departure under adaptive_target
 * @r:		the estimator
 * @params:	->target and ->interval in effect, updated; ->mtu read
 * @target:	the configured target
 * @interval:	the configured interval
 * @now:	the time the packet leaves
 * @len:	its length in bytes
 * @backlogged:	packets remain queued behind it
 *
 * Return: true when the target or interval in effect changed.
 */
static inline bool codel_rate_follow(struct codel_rate *r,
				     struct codel_params *params,
				     codel_time_t target, codel_time_t interval,
				     codel_time_t now, u32 len, bool backlogged)
{
	codel_time_t t = params->target, i = params->interval;

	if (!codel_rate_departure(r, now, len, backlogged, params->mtu))
		return false;
	codel_rate_adapt(r, target, interval, params);
	return params->target != t || params->interval != i;
}

#endif /* _SCH_CODEL_CORE_H */
