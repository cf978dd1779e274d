// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * Copyright (C) 2026 sch_codel contributors
 *
 * Derived from the Linux kernel's CoDel (net/sched/sch_codel.c),
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
 * CoDel (RFC 8289) as a Linux queueing discipline.
 *
 * Design
 * ------
 * One FIFO (sch->q).  Enqueue stamps each packet with the time in its
 * qdisc control block and tail-drops over "limit" packets, counting those
 * drops as drop_overlimit, or over "memory_limit" bytes of skb truesize,
 * counting those as drop_overmemory.  Dequeue hands the head packet to the algorithm
 * in codel.h, which may drop packets from the head (or CE-mark them when
 * "ecn" is on) before returning the one to deliver.
 *
 * The glue owns three things the algorithm must not know about:
 *
 *  - The clock.  ktime_get_ns() >> 10, read once per non-empty dequeue and
 *    once per enqueue.  An empty dequeue (the last call of every transmit
 *    burst) reads no clock.
 *
 *  - Telling parents about drops.  A packet CoDel drops inside dequeue has
 *    already been counted in every ancestor's qlen and backlog.  Each
 *    dequeue reports its drops with qdisc_tree_reduce_backlog() before it
 *    returns, even when the queue is now empty: the v12 code deferred the
 *    report while qlen was 0, leaving a parent (HTB, DRR, HFSC, ...) with an
 *    active class that has nothing queued, the use-after-free fixed
 *    upstream as CVE-2025-37798.  peek() stashes the packet it got back in
 *    gso_skb (so qlen counts it) before reporting, so a parent is told the
 *    child is empty only when it really is.
 *
 *  - Configuration.  change() parses and validates every attribute before
 *    it touches anything, so a rejected request leaves the qdisc exactly as
 *    it was and says why in extack.  Settings are written with WRITE_ONCE()
 *    under the tree lock and read with READ_ONCE() by the lockless dump.
 *    enqueue and dequeue hold that same lock, so they read settings and
 *    update counters with plain accesses, as mainline codel does: the dump
 *    reads a counter once (READ_ONCE()) and may be a packet behind.
 *    Lowering "limit" trims from the head, including a packet a parent has
 *    already peeked (codel_trim_head()).
 *
 *  - Memory.  "limit" counts packets, and a packet can be a 64 KB GSO
 *    train: 1000 of them hold 64 MB, per tx queue under mq.  memory_usage
 *    is the truesize of the packets in sch->q, added at enqueue and taken
 *    away wherever a packet leaves it (dequeue, trim, reset); a packet that
 *    would take it over memory_limit is dropped at enqueue, as in fq_codel.
 *    A packet a parent has peeked sits in gso_skb and no longer counts.
 *
 * Every drop is traced with its reason (enum codel_drop_reason, codel.h).
 */

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/prefetch.h>
#include <linux/sizes.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/inet_ecn.h>
#include <net/pkt_sched.h>

#include "codel.h"
#include "codel_nl.h"
#include "compat.h"
#include "pkt_sched_codel.h"

#define CREATE_TRACE_POINTS
#include "codel_trace.h"

#define CODEL_DEFAULT_LIMIT	1000

/*
 * fq_codel's default.  It never binds at the default limit with MTU-sized
 * packets (1000 x ~2.3 KB of truesize), only when the queue holds GSO
 * trains, i.e. exactly where "limit" stops meaning a bounded delay.
 */
#define CODEL_DEFAULT_MEMORY_LIMIT	SZ_32M

/*
 * Largest MTU guard.  CoDel never drops while at most one MTU is queued;
 * a device with an MTU over 1 MiB (dummy, loopback with a huge MTU) would
 * otherwise switch CoDel off for every queue it could hold.  Same bound as
 * the in-tree module.
 */
#define CODEL_MTU_GUARD_MAX	SZ_1M

/*
 * Largest memory_limit: usage stays below 2^31 (a limit lowered under it
 * leaves it where it was), so usage + truesize fits a u32.  fq_codel caps
 * its memory_limit the same way.
 */
#define CODEL_MEMORY_LIMIT_MAX	BIT(31)

/**
 * struct codel_sched_data - per-qdisc private data
 * @params:	configuration
 * @vars:	algorithm state
 * @memory_usage: truesize of the packets in sch->q, bytes
 * @memory_limit: most memory_usage may reach, bytes
 * @split_gso:	segment GSO packets at enqueue, so that CoDel measures and
 *		drops MTU-sized packets (docs/observability.md, "split_gso")
 * @adaptive:	adaptive_target: @params's target and interval follow
 *		@rate, the configured ones the floor (codel_rate_adapt())
 * @drop_overlimit: packets tail-dropped at enqueue over sch->limit
 * @stats:	algorithm counters
 * @drop_overmemory: packets dropped at enqueue over memory_limit
 * @cfg_target:	the configured target; @params.target is the one in effect
 * @cfg_interval: the configured interval, likewise
 * @rate:	the drain rate, measured while @adaptive is on
 *
 * What enqueue reads and dequeue keeps (all but the drop counters) fills
 * the first 64 bytes; @stats begins the second, with the counters every
 * dequeue writes first (docs/fq_codel.md, "Layout").
 */
struct codel_sched_data {
	struct codel_params	params;
	struct codel_vars	vars;
	u32			memory_usage;
	u32			memory_limit;
	bool			split_gso;
	bool			adaptive;
	u32			drop_overlimit;
	struct codel_stats	stats;
	u64			drop_overmemory;
	codel_time_t		cfg_target;
	codel_time_t		cfg_interval;
	struct codel_rate	rate;
};

struct codel_skb_cb {
	codel_time_t	enqueue_time;
};

static struct codel_skb_cb *codel_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct codel_skb_cb));
	return (struct codel_skb_cb *)qdisc_skb_cb(skb)->data;
}

static u32 codel_mtu_guard(const struct Qdisc *sch)
{
	return min_t(u32, psched_mtu(qdisc_dev(sch)), CODEL_MTU_GUARD_MAX);
}

static codel_time_t codel_now(void)
{
	return codel_ns_to_time(ktime_get_ns());
}

/*
 * struct codel_pkt_ops for a qdisc: ctx is the struct Qdisc.  Popping the
 * FIFO's head is inlined into each caller: it runs for every packet, and
 * out of line the call costs more than its body.
 */
static __always_inline struct sk_buff *codel_fifo_pop(void *ctx)
{
	struct Qdisc *sch = ctx;
	struct sk_buff *skb = __qdisc_dequeue_head(&sch->q);

	if (skb) {
		struct codel_sched_data *q = qdisc_priv(sch);

		q->memory_usage -= skb->truesize;
		sch->qstats.backlog -= qdisc_pkt_len(skb);
		prefetch(&skb->end);	/* INET_ECN_set_ce() reads the headers */
	}
	return skb;
}

static u32 codel_pkt_len(const struct sk_buff *skb)
{
	return qdisc_pkt_len(skb);
}

static codel_time_t codel_pkt_time(const struct sk_buff *skb)
{
	return codel_cb(skb)->enqueue_time;
}

static void codel_pkt_drop(void *ctx, struct sk_buff *skb,
			   const struct codel_vars *vars, codel_time_t now)
{
	trace_codel_drop(ctx, vars, now);
	trace_codel_skb_drop(ctx, skb, CODEL_DROP_CONGESTED);
	codel_drop_at_dequeue(ctx, skb);
	qdisc_qstats_drop(ctx);
}

static bool codel_pkt_set_ce(struct sk_buff *skb)
{
	return INET_ECN_set_ce(skb);
}

static int codel_pkt_dsfield(struct sk_buff *skb)
{
	return skb_get_dsfield(skb);
}

/* Each trace_*() is a static branch while its event is disabled. */
static void codel_pkt_event(void *ctx, enum codel_event ev,
			    const struct codel_vars *vars, codel_time_t now)
{
	const struct Qdisc *sch = ctx;

	switch (ev) {
	case CODEL_EV_ECN_MARK:
		trace_codel_ecn_mark(sch, vars, now);
		break;
	case CODEL_EV_CE_MARK:
		trace_codel_ce_mark(sch, vars, now);
		break;
	case CODEL_EV_DROPPING_ENTER:
		trace_codel_dropping_enter(sch, vars, now);
		break;
	case CODEL_EV_DROPPING_EXIT:
		trace_codel_dropping_exit(sch, vars, now);
		break;
	}
}

static const struct codel_pkt_ops codel_qdisc_pkt_ops = {
	.pop		= codel_fifo_pop,
	.len		= codel_pkt_len,
	.enqueue_time	= codel_pkt_time,
	.drop		= codel_pkt_drop,
	.set_ce		= codel_pkt_set_ce,
	.dsfield	= codel_pkt_dsfield,
	.event		= codel_pkt_event,
};

/*
 * Serve an empty queue: nothing to drop and so no drop report, and no
 * clock unless a dropping state ends (its event reports drop_next relative
 * to now).  Apart from codel_serve_head() so that this path, which a
 * parent such as prio takes for every empty band on every packet, tests
 * the dropping state once and skips the report.
 */
static __always_inline struct sk_buff *codel_serve_empty(struct Qdisc *sch)
{
	struct codel_sched_data *q = qdisc_priv(sch);
	codel_time_t now = unlikely(q->vars.dropping) ? codel_now() : 0;

	return codel_serve(sch, NULL, now, &sch->qstats.backlog, &q->params,
			     &q->vars, &q->stats, &codel_qdisc_pkt_ops);
}

/*
 * adaptive_target: @skb leaves now.  A window of service time that closes
 * sets the target and interval in effect; the event is emitted only when
 * they change, so a fast link (always the configured floor) emits none.
 */
static noinline void codel_adapt(struct Qdisc *sch, const struct sk_buff *skb,
				 codel_time_t now)
{
	struct codel_sched_data *q = qdisc_priv(sch);

	if (codel_rate_follow(&q->rate, &q->params, q->cfg_target,
			      q->cfg_interval, now, qdisc_pkt_len(skb),
			      sch->q.qlen > 0))
		trace_codel_target(sch, &q->params,
				   codel_rate_bytes_per_sec(&q->rate,
							    q->params.mtu));
}

/*
 * Serve @skb, just taken off the head, for a dequeue (@peek false) or a
 * peek; the caller reports this call's drops.  Inlined into both, so that
 * @peek is a constant and dequeue pays no call for it.
 */
static __always_inline struct sk_buff *codel_serve_head(struct Qdisc *sch,
							struct sk_buff *skb,
							bool peek)
{
	struct codel_sched_data *q = qdisc_priv(sch);
	codel_time_t now = codel_now();

	skb = codel_serve(sch, skb, now, &sch->qstats.backlog,
			  &q->params, &q->vars, &q->stats, &codel_qdisc_pkt_ops);
	if (skb) {
		qdisc_bstats_update(sch, skb);
		if (unlikely(q->adaptive))
			codel_adapt(sch, skb, now);
	}
	/* Tested first: disabled, the event loads nothing. */
	if (trace_codel_dequeue_drops_enabled())
		trace_codel_dequeue_drops(sch, q->stats.drop_count,
					  q->stats.drop_len, peek);
	return skb;
}

/*
 * Tell every ancestor about the packets codel_serve_head() dropped, now:
 * they were counted in the ancestors' qlen and backlog at enqueue.
 */
static void codel_report_drops(struct Qdisc *sch)
{
	struct codel_sched_data *q = qdisc_priv(sch);

	if (!q->stats.drop_count)
		return;
	qdisc_tree_reduce_backlog(sch, q->stats.drop_count,
				  q->stats.drop_len);
	q->stats.drop_count = 0;
	q->stats.drop_len = 0;
}

/*
 * Take the packet peek() stashed in gso_skb.  A parent must take a packet
 * it peeked with qdisc_dequeue_peeked(), which empties gso_skb before it
 * calls us; one that calls ->dequeue() directly (sch_multiq of some
 * kernels, under a peeking TBF or HTB: docs/kernels.md) would leave the
 * peeked packet behind for good: qlen says one is queued, peek returns it,
 * dequeue never does, and the class stalls.  Serve it here, as
 * qdisc_dequeue_peeked() would have.  A limit trim takes a stashed packet
 * first the same way.  Out of line: neither is a hot path.
 */
static noinline struct sk_buff *codel_take_peeked(struct Qdisc *sch)
{
	struct sk_buff *skb = __skb_dequeue(&sch->gso_skb);

	qdisc_qstats_backlog_dec(sch, skb);
	sch->q.qlen--;
	return skb;
}

static struct sk_buff *codel_qdisc_dequeue(struct Qdisc *sch)
{
	struct sk_buff *skb;

	if (unlikely(skb_queue_len(&sch->gso_skb)))
		return codel_take_peeked(sch);
	skb = codel_fifo_pop(sch);
	if (!skb)
		return codel_serve_empty(sch);
	skb = codel_serve_head(sch, skb, false);
	codel_report_drops(sch);
	return skb;
}

/*
 * qdisc_peek_dequeued() with the drop report moved after the stash: the
 * peeked packet must already count in qlen when the parents hear about
 * the drops, or a parent would be told we are empty while one is queued.
 */
static struct sk_buff *codel_qdisc_peek(struct Qdisc *sch)
{
	struct sk_buff *skb = skb_peek(&sch->gso_skb);

	if (skb)
		return skb;

	skb = codel_fifo_pop(sch);
	if (!skb)
		return codel_serve_empty(sch);
	skb = codel_serve_head(sch, skb, true);
	if (skb) {
		__skb_queue_head(&sch->gso_skb, skb);
		qdisc_qstats_backlog_inc(sch, skb);
		sch->q.qlen++;
	}
	codel_report_drops(sch);
	return skb;
}

/*
 * A tail drop at enqueue, counted and traced.  Out of line, so that the
 * path that queues saves no registers for it.
 */
static noinline int codel_drop_enqueued(struct sk_buff *skb, struct Qdisc *sch,
					struct sk_buff **to_free,
					enum codel_drop_reason reason)
{
	struct codel_sched_data *q = qdisc_priv(sch);

	if (reason == CODEL_DROP_MEMORY)
		WRITE_ONCE(q->drop_overmemory, q->drop_overmemory + 1);
	else
		WRITE_ONCE(q->drop_overlimit, q->drop_overlimit + 1);
	trace_codel_skb_drop(sch, skb, reason);
	return codel_drop_at_enqueue(skb, sch, to_free);
}

static int codel_enqueue_one(struct sk_buff *skb, struct Qdisc *sch,
			     struct sk_buff **to_free)
{
	struct codel_sched_data *q = qdisc_priv(sch);
	/* No wrap: usage never passes a limit, and a limit is <= 2 GB. */
	u32 memory = q->memory_usage + skb->truesize;

	if (unlikely(qdisc_qlen(sch) >= sch->limit))
		return codel_drop_enqueued(skb, sch, to_free, CODEL_DROP_OVERLIMIT);
	if (unlikely(memory > q->memory_limit))
		return codel_drop_enqueued(skb, sch, to_free, CODEL_DROP_MEMORY);
	q->memory_usage = memory;
	codel_cb(skb)->enqueue_time = codel_now();
	return qdisc_enqueue_tail(skb, sch);
}

/*
 * split_gso: one 64 KB GSO packet takes 52 ms to send at 10 Mbit/s, ten
 * times the target, and CoDel can only drop it whole.  Segment it here so
 * that every segment is timestamped, limited, measured and dropped on its
 * own.  The parents counted one packet of the GSO length at enqueue; tell
 * them about the other segments (or the segments we could not queue), as
 * sch_tbf and sch_cake do.
 */
static noinline int codel_enqueue_segs(struct sk_buff *skb, struct Qdisc *sch,
				       struct sk_buff **to_free)
{
	netdev_features_t features = netif_skb_features(skb);
	unsigned int prev_len = qdisc_pkt_len(skb), len = 0;
	struct sk_buff *segs, *nskb;
	int nb = 0;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs)) {
		trace_codel_skb_drop(sch, skb, CODEL_DROP_GSO);
		return qdisc_drop(skb, sch, to_free);
	}

	skb_list_walk_safe(segs, segs, nskb) {
		unsigned int seg_len = segs->len;

		skb_mark_not_on_list(segs);
		codel_segment_cb_init(segs);
		if (codel_enqueue_one(segs, sch, to_free) == NET_XMIT_SUCCESS) {
			nb++;
			len += seg_len;
		}
	}
	if (nb > 0) {
		qdisc_tree_reduce_backlog(sch, 1 - nb, prev_len - len);
		consume_skb(skb);
		return NET_XMIT_SUCCESS;
	}
	/* Every segment was dropped over the limit (and traced so). */
	codel_free_overlimit(skb);
	return NET_XMIT_DROP;
}

static int codel_qdisc_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			       struct sk_buff **to_free)
{
	struct codel_sched_data *q = qdisc_priv(sch);

	/*
	 * Our setting first: skb_is_gso() reads the skb's shared info, a
	 * cache line the default path never needs.  Segmenting stays out of
	 * line, so the default path saves no registers for it.
	 */
	if (unlikely(q->split_gso) && skb_is_gso(skb))
		return codel_enqueue_segs(skb, sch, to_free);
	return codel_enqueue_one(skb, sch, to_free);
}

static struct netlink_range_validation codel_time_range = {
	.max = CODEL_TIME_MAX_US,
};

static struct netlink_range_validation codel_memory_range = {
	.min = 1,
	.max = CODEL_MEMORY_LIMIT_MAX,
};

/* Ranges in docs/uapi.md; published to userspace with the policy. */
static const struct nla_policy codel_policy[TCA_CODEL_MAX + 1] = {
	[TCA_CODEL_TARGET]	= NLA_POLICY_FULL_RANGE(NLA_U32, &codel_time_range),
	[TCA_CODEL_LIMIT]	= NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_CODEL_INTERVAL]	= NLA_POLICY_FULL_RANGE(NLA_U32, &codel_time_range),
	[TCA_CODEL_ECN]		= NLA_POLICY_MAX(NLA_U32, 1),
	[TCA_CODEL_CE_THRESHOLD] = NLA_POLICY_FULL_RANGE(NLA_U32, &codel_time_range),
};

static const struct nla_policy codel_ext_policy[TCA_CODEL_EXT_MAX + 1] = {
	[TCA_CODEL_EXT_SPLIT_GSO]		= NLA_POLICY_MAX(NLA_U32, 1),
	[TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR]	= { .type = NLA_U8 },
	[TCA_CODEL_EXT_CE_THRESHOLD_MASK]	= { .type = NLA_U8 },
	[TCA_CODEL_EXT_CE_THRESHOLD_OFF]	= { .type = NLA_FLAG },
	[TCA_CODEL_EXT_MEMORY_LIMIT]		= NLA_POLICY_FULL_RANGE(NLA_U32,
								&codel_memory_range),
	[TCA_CODEL_EXT_ADAPTIVE_TARGET]		= NLA_POLICY_MAX(NLA_U32, 1),
};

static const struct codel_nl_range_msg codel_range_msgs[] = {
	{ &codel_policy[TCA_CODEL_TARGET],	"codel: target must be at most 100s" },
	{ &codel_policy[TCA_CODEL_LIMIT],	"codel: limit must be at least 1 packet" },
	{ &codel_policy[TCA_CODEL_INTERVAL],	"codel: interval must be at most 100s" },
	{ &codel_policy[TCA_CODEL_ECN],		"codel: ecn must be 0 or 1" },
	{ &codel_policy[TCA_CODEL_CE_THRESHOLD], "codel: ce_threshold must be at most 100s" },
	{ &codel_ext_policy[TCA_CODEL_EXT_SPLIT_GSO], "codel: split_gso must be 0 or 1" },
	{ &codel_ext_policy[TCA_CODEL_EXT_MEMORY_LIMIT],
	  "codel: memory_limit must be from 1 byte to 2GB" },
	{ &codel_ext_policy[TCA_CODEL_EXT_ADAPTIVE_TARGET],
	  "codel: adaptive_target must be 0 or 1" },
};

static const struct codel_nl_desc codel_nl = {
	.policy		= codel_policy,
	.maxtype	= TCA_CODEL_MAX,
	.ext_type	= TCA_CODEL_EXT,
	.ext_policy	= codel_ext_policy,
	.ext_maxtype	= TCA_CODEL_EXT_MAX,
	.range_msgs	= codel_range_msgs,
	.n_range_msgs	= ARRAY_SIZE(codel_range_msgs),
	.unknown_msg	= "codel: unknown attribute type",
	.ce_both_msg	= "codel: ce_threshold given and switched off at once",
	.selector_msg	= "codel: ce_threshold_selector has bits outside its mask",
};

/*
 * Take the oldest packet for a limit trim, a packet a parent has peeked
 * (stashed in gso_skb) first, with qlen and backlog both reduced.  Kernels
 * differ in whether qdisc_dequeue_internal() reduces the backlog
 * (docs/kernels.md): spelled out here, the trim is right on every one
 * without a version test.
 */
static struct sk_buff *codel_take_oldest(struct Qdisc *sch)
{
	if (skb_queue_len(&sch->gso_skb))
		return codel_take_peeked(sch);
	return codel_fifo_pop(sch);
}

/*
 * The target and interval in effect: the configured ones, raised by
 * adaptive_target as far as the measured rate asks (off, the rate is
 * zeroed and raises nothing).  Under the tree lock.
 */
static void codel_set_in_effect(struct codel_sched_data *q)
{
	struct codel_params p = q->params;

	codel_rate_adapt(&q->rate, q->cfg_target, q->cfg_interval, &p);
	WRITE_ONCE(q->params.target, p.target);
	WRITE_ONCE(q->params.interval, p.interval);
}

static int codel_change(struct Qdisc *sch, struct nlattr *opt,
			struct netlink_ext_ack *extack)
{
	struct codel_sched_data *q = qdisc_priv(sch);
	unsigned int dropped_pkts = 0, dropped_bytes = 0;
	struct nlattr *ext[TCA_CODEL_EXT_MAX + 1];
	struct nlattr *tb[TCA_CODEL_MAX + 1];
	u8 selector, mask;
	int err;

	if (!opt) {
		NL_SET_ERR_MSG(extack, "codel: missing options");
		return -EINVAL;
	}
	err = codel_nl_parse(&codel_nl, opt, tb, ext, extack);
	if (err < 0)
		return err;
	codel_nl_new_selector(ext[TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR],
			      ext[TCA_CODEL_EXT_CE_THRESHOLD_MASK],
			      q->params.ce_threshold_selector,
			      q->params.ce_threshold_mask, &selector, &mask);
	err = codel_nl_check_ce(&codel_nl, tb[TCA_CODEL_CE_THRESHOLD],
				ext[TCA_CODEL_EXT_CE_THRESHOLD_OFF], selector,
				mask, ext[TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR],
				ext[TCA_CODEL_EXT_CE_THRESHOLD_MASK], extack);
	if (err)
		return err;

	sch_tree_lock(sch);

	WRITE_ONCE(q->params.mtu, codel_mtu_guard(sch));
	if (tb[TCA_CODEL_TARGET])
		WRITE_ONCE(q->cfg_target,
			   codel_us_to_time(nla_get_u32(tb[TCA_CODEL_TARGET])));
	if (tb[TCA_CODEL_INTERVAL])
		WRITE_ONCE(q->cfg_interval,
			   codel_us_to_time(nla_get_u32(tb[TCA_CODEL_INTERVAL])));
	if (ext[TCA_CODEL_EXT_ADAPTIVE_TARGET]) {
		bool on = nla_get_u32(ext[TCA_CODEL_EXT_ADAPTIVE_TARGET]);

		/* Measured afresh once on: the link may have changed. */
		if (on != q->adaptive)
			codel_rate_init(&q->rate);
		WRITE_ONCE(q->adaptive, on);
	}
	codel_set_in_effect(q);
	if (tb[TCA_CODEL_CE_THRESHOLD])
		WRITE_ONCE(q->params.ce_threshold,
			   codel_us_to_time(nla_get_u32(tb[TCA_CODEL_CE_THRESHOLD])));
	if (ext[TCA_CODEL_EXT_CE_THRESHOLD_OFF])
		WRITE_ONCE(q->params.ce_threshold, CODEL_DISABLED_THRESHOLD);
	if (tb[TCA_CODEL_LIMIT])
		WRITE_ONCE(sch->limit, nla_get_u32(tb[TCA_CODEL_LIMIT]));
	if (tb[TCA_CODEL_ECN])
		WRITE_ONCE(q->params.ecn, !!nla_get_u32(tb[TCA_CODEL_ECN]));
	if (ext[TCA_CODEL_EXT_SPLIT_GSO])
		WRITE_ONCE(q->split_gso,
			   !!nla_get_u32(ext[TCA_CODEL_EXT_SPLIT_GSO]));
	/* Lowering it drops nothing queued; it binds the next enqueue. */
	if (ext[TCA_CODEL_EXT_MEMORY_LIMIT])
		WRITE_ONCE(q->memory_limit,
			   nla_get_u32(ext[TCA_CODEL_EXT_MEMORY_LIMIT]));
	WRITE_ONCE(q->params.ce_threshold_selector, selector);
	WRITE_ONCE(q->params.ce_threshold_mask, mask);

	while (sch->q.qlen > sch->limit) {
		struct sk_buff *skb = codel_take_oldest(sch);

		if (!skb)
			break;
		dropped_pkts++;
		dropped_bytes += qdisc_pkt_len(skb);
		trace_codel_skb_drop(sch, skb, CODEL_DROP_TRIM);
		rtnl_qdisc_drop(skb, sch);
	}
	/*
	 * Only when something went: with nothing to report, some kernels
	 * would still notify an empty qdisc's parent class.
	 */
	if (dropped_pkts)
		qdisc_tree_reduce_backlog(sch, dropped_pkts, dropped_bytes);

	sch_tree_unlock(sch);
	return 0;
}

static int codel_init(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct codel_sched_data *q = qdisc_priv(sch);

	sch->limit = CODEL_DEFAULT_LIMIT;
	q->memory_limit = CODEL_DEFAULT_MEMORY_LIMIT;
	codel_params_init(&q->params, codel_mtu_guard(sch));
	codel_vars_init(&q->vars);
	q->cfg_target = q->params.target;
	q->cfg_interval = q->params.interval;

	if (opt) {
		int err = codel_change(sch, opt, extack);

		if (err)
			return err;
	}
	/* limit >= 1 always holds, so an idle qdisc may be bypassed. */
	sch->flags |= TCQ_F_CAN_BYPASS | CODEL_SCH_FLAGS;
	return 0;
}

static int codel_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct codel_sched_data *q = qdisc_priv(sch);
	struct nlattr *opts, *ext;
	codel_time_t ce_threshold;
	u8 mask;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		goto nla_put_failure;

	if (nla_put_u32(skb, TCA_CODEL_TARGET,
			codel_time_to_us(READ_ONCE(q->cfg_target))) ||
	    nla_put_u32(skb, TCA_CODEL_LIMIT, READ_ONCE(sch->limit)) ||
	    nla_put_u32(skb, TCA_CODEL_INTERVAL,
			codel_time_to_us(READ_ONCE(q->cfg_interval))) ||
	    nla_put_u32(skb, TCA_CODEL_ECN, READ_ONCE(q->params.ecn)))
		goto nla_put_failure;

	ce_threshold = READ_ONCE(q->params.ce_threshold);
	if (ce_threshold != CODEL_DISABLED_THRESHOLD &&
	    nla_put_u32(skb, TCA_CODEL_CE_THRESHOLD,
			codel_time_to_us(ce_threshold)))
		goto nla_put_failure;

	/* Ours, in their nest; stock tc ignores a type it does not know. */
	ext = nla_nest_start(skb, TCA_CODEL_EXT);
	if (!ext)
		goto nla_put_failure;
	mask = READ_ONCE(q->params.ce_threshold_mask);
	if (nla_put_u32(skb, TCA_CODEL_EXT_SPLIT_GSO, READ_ONCE(q->split_gso)) ||
	    nla_put_u32(skb, TCA_CODEL_EXT_MEMORY_LIMIT,
			READ_ONCE(q->memory_limit)) ||
	    nla_put_u32(skb, TCA_CODEL_EXT_ADAPTIVE_TARGET,
			READ_ONCE(q->adaptive)) ||
	    (mask &&
	     (nla_put_u8(skb, TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR,
			 READ_ONCE(q->params.ce_threshold_selector)) ||
	      nla_put_u8(skb, TCA_CODEL_EXT_CE_THRESHOLD_MASK, mask))))
		goto nla_put_failure;
	nla_nest_end(skb, ext);

	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -1;
}

static int codel_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	const struct codel_sched_data *q = qdisc_priv(sch);
	struct tc_codel_xstats_ext st = {
		.base = {
			.maxpacket	= READ_ONCE(q->stats.maxpacket),
			.count		= READ_ONCE(q->vars.count),
			.lastcount	= READ_ONCE(q->vars.lastcount),
			.ldelay		= codel_time_to_us(READ_ONCE(q->vars.ldelay)),
			.drop_overlimit	= READ_ONCE(q->drop_overlimit),
			.ecn_mark	= READ_ONCE(q->stats.ecn_mark),
			.dropping	= READ_ONCE(q->vars.dropping),
			.ce_mark	= READ_ONCE(q->stats.ce_mark),
		},
		.dequeue_calls		= READ_ONCE(q->stats.dequeue_calls),
		.ok_to_drop		= READ_ONCE(q->stats.ok_to_drop),
		.loop_drops		= READ_ONCE(q->stats.loop_drops),
		.dropping_entries	= READ_ONCE(q->stats.dropping_entries),
		.drop_overmemory	= READ_ONCE(q->drop_overmemory),
		.memory_used		= READ_ONCE(q->memory_usage),
		.sojourn_sum_ns		= READ_ONCE(q->stats.sojourn_sum) <<
					  CODEL_SHIFT,
		.drain_rate		= codel_rate_bytes_per_sec(&q->rate,
								   q->params.mtu),
		.target_us		= codel_time_to_us(READ_ONCE(q->params.target)),
		.interval_us		= codel_time_to_us(READ_ONCE(q->params.interval)),
	};
	int i;

	for (i = 0; i < TC_CODEL_HIST_BUCKETS; i++)
		st.sojourn_hist[i] = READ_ONCE(q->stats.sojourn_hist[i]);
	if (st.base.dropping) {
		codel_tdiff_t delta = READ_ONCE(q->vars.drop_next) - codel_now();

		/* Signed: negative while a due drop waits for a dequeue. */
		if (delta >= 0)
			st.base.drop_next = codel_time_to_us(delta);
		else
			st.base.drop_next = -(s32)codel_time_to_us(-delta);
	}
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static void codel_reset(struct Qdisc *sch)
{
	struct codel_sched_data *q = qdisc_priv(sch);

	qdisc_reset_queue(sch);
	q->memory_usage = 0;
	codel_vars_init(&q->vars);
	/* The link's rate stays measured; the next departure starts no gap. */
	q->rate.backlogged = false;
}

static struct Qdisc_ops codel_qdisc_ops __read_mostly = {
	.id		= "codel",
	.priv_size	= sizeof(struct codel_sched_data),
	.enqueue	= codel_qdisc_enqueue,
	.dequeue	= codel_qdisc_dequeue,
	.peek		= codel_qdisc_peek,
	.init		= codel_init,
	.reset		= codel_reset,
	.change		= codel_change,
	.dump		= codel_dump,
	.dump_stats	= codel_dump_stats,
	.owner		= THIS_MODULE,
};
MODULE_ALIAS_NET_SCH("codel");

static int __init codel_module_init(void)
{
	/* Our UAPI header must describe the kernel's ABI it extends. */
	BUILD_BUG_ON(TCA_CODEL_MAX != TCA_CODEL_CE_THRESHOLD);
	BUILD_BUG_ON(sizeof(struct tc_codel_xstats) != 9 * sizeof(u32));
	BUILD_BUG_ON(offsetof(struct tc_codel_xstats_ext, pad) !=
		     sizeof(struct tc_codel_xstats));
	BUILD_BUG_ON(TC_CODEL_HIST_BUCKETS != CODEL_HIST_BUCKETS);

	return register_qdisc(&codel_qdisc_ops);
}

static void __exit codel_module_exit(void)
{
	unregister_qdisc(&codel_qdisc_ops);
}

module_init(codel_module_init);
module_exit(codel_module_exit);

MODULE_DESCRIPTION("Controlled Delay (CoDel, RFC 8289) queue discipline");
MODULE_AUTHOR("sch_codel out-of-tree contributors");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_VERSION(SCH_CODEL_VERSION);
