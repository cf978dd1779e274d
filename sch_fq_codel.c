// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Copyright (C) 2026 sch_codel contributors
 *
 * Derived from the Linux kernel's Fair Queue CoDel (net/sched/sch_fq_codel.c):
 *
 *  Copyright (C) 2012,2015 Eric Dumazet <edumazet@google.com>
 */
/*
 * fq_codel_ext: Fair Queue CoDel over this project's CoDel core (codel.h).
 *
 * Design
 * ------
 * Packets are classified into flows: by skb->priority when it names one of
 * our classes, else by the tc filters attached to the qdisc, else by the
 * packet's flow hash.  Each flow is a FIFO with its own CoDel state; flows
 * are served by deficit round robin from two lists, so that a flow that
 * has just become active (new_flows) goes ahead of the flows that have
 * been busy for a while (old_flows).  Over "limit" packets or
 * "memory_limit" bytes of truesize, enqueue drops from the head of the
 * flow with the largest backlog: up to drop_batch_size packets, until half
 * its backlog is gone.  Every decision is the kernel's own fq_codel's
 * (docs/fq_codel.md names where it is not).
 *
 * Debian builds the kernel's fq_codel in (CONFIG_NET_SCH_FQ_CODEL=y), and
 * the kernel refuses a second qdisc of the same kind, so this one is
 * "fq_codel_ext".  It takes fq_codel's netlink attributes unchanged, so
 * stock tc's fq_codel options apply to it (with the plugin q_fq_codel_ext).
 *
 * What the glue adds to the in-tree qdisc, as sch_codel.c does to codel:
 * options validated with extack naming the option and its range;
 * split_gso; hash_headers; ce_threshold's off switch; the sojourn-time
 * histogram and 64-bit counters; peek() stashes its packet before it
 * reports drops on every kernel, and a dequeue serves a stashed packet.
 */

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/sizes.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/types.h>
#include <net/inet_ecn.h>
#include <net/pkt_cls.h>
#include <net/pkt_sched.h>

#include "codel.h"
#include "codel_nl.h"
#include "compat.h"
#include "pkt_sched_codel.h"

#define CREATE_TRACE_POINTS
#include "fq_codel_trace.h"

#define FQ_CODEL_DEFAULT_LIMIT		10240
#define FQ_CODEL_DEFAULT_FLOWS		1024
#define FQ_CODEL_MAX_FLOWS		65536
#define FQ_CODEL_DEFAULT_BATCH		64
#define FQ_CODEL_DEFAULT_MEMORY_LIMIT	SZ_32M
#define FQ_CODEL_MEMORY_LIMIT_MAX	BIT(31)
#define FQ_CODEL_QUANTUM_MIN		256
/* The flow a trace event names for a packet that may have none. */
#define FQ_CODEL_NO_FLOW		U32_MAX

/**
 * struct fq_codel_flow - one flow's queue, its state in the first cache line
 * @head:	oldest packet, NULL when the flow is empty
 * @tail:	newest packet
 * @flowchain:	on new_flows or old_flows while active, else empty
 * @deficit:	DRR credit, bytes; the flow is served while it is positive
 * @cvars:	the flow's CoDel state
 * @hist:	its delivered packets by sojourn time (codel_hist_bucket());
 *		32 bits, as a flow is a hash bucket that many connections
 *		share over time.  Here rather than in an array of its own, so
 *		that counting a packet is one instruction on the bucket
 *		codel_serve() found.
 */
struct fq_codel_flow {
	struct sk_buff		*head;
	struct sk_buff		*tail;
	struct list_head	flowchain;
	int			deficit;
	struct codel_vars	cvars;
	u32			hist[CODEL_HIST_BUCKETS] ____cacheline_aligned;
};

/**
 * struct fq_codel_sched_data - per-qdisc private data
 * @flows:	the flow table, @flows_cnt entries
 * @backlogs:	bytes queued per flow, scanned for the fattest flow
 * @filter_list: tc filters that classify into flows, if any
 * @new_flows:	flows that became active recently
 * @old_flows:	the other active flows
 * @memory_usage: truesize of the queued packets, bytes
 * @memory_limit: most truesize the queued packets may hold, bytes
 * @flows_cnt:	number of flows, fixed at creation
 * @quantum:	DRR quantum, bytes
 * @params:	CoDel configuration, shared by every flow
 * @split_gso:	segment GSO packets at enqueue
 * @hash_headers: pick the flow by a hash of the packet's own headers, not
 *		skb->hash (which a sender's socket changes at each
 *		retransmission timeout, net.core.txrehash)
 * @drop_batch_size: most packets one overlimit enqueue drops
 * @perturbation: @hash_headers' key, random for each qdisc
 * @new_flow_count: times a flow went onto new_flows
 * @codel_drops: packets CoDel dropped at dequeue
 * @block:	the filters' block
 * @stats:	CoDel counters, summed over the flows
 * @drop_overmemory: packets dropped at enqueue while over memory_limit
 * @drop_overlimit: packets dropped at enqueue (limit or memory_limit)
 * @adaptive:	adaptive_target: @params's target and interval follow @rate,
 *		the configured ones the floor (sch_codel.c, codel_adapt())
 * @cfg_target:	the configured target; @params.target is the one in effect
 * @cfg_interval: the configured interval, likewise
 * @rate:	the qdisc's drain rate, measured while @adaptive is on
 *
 * Ordered for the per-packet path: the first 64 bytes hold what both
 * enqueue and dequeue touch, the next what one of them reads (flows_cnt,
 * quantum, params, split_gso, the hash) and the counter of new flows;
 * @stats begins the third, with what every dequeue writes
 * (docs/fq_codel.md, "Layout").  Mainline's fq_codel puts its cstats
 * between its hot fields.
 */
struct fq_codel_sched_data {
	struct fq_codel_flow	*flows;
	u32			*backlogs;
	struct tcf_proto __rcu	*filter_list;
	struct list_head	new_flows;
	struct list_head	old_flows;
	u32			memory_usage;
	u32			memory_limit;
	u32			flows_cnt;
	u32			quantum;
	struct codel_params	params;
	bool			split_gso;
	bool			hash_headers;
	bool			adaptive;
	u32			drop_batch_size;
	siphash_key_t		perturbation;
	u64			new_flow_count;
	struct codel_stats	stats;
	u64			codel_drops;
	struct tcf_block	*block;
	u64			drop_overmemory;
	u64			drop_overlimit;
	codel_time_t		cfg_target;
	codel_time_t		cfg_interval;
	struct codel_rate	rate;
};

/* What a queued packet carries: when it came, what it charged, its flow. */
struct fq_codel_skb_cb {
	codel_time_t	enqueue_time;
	u32		mem_usage;
	u32		flow;
};

static struct fq_codel_skb_cb *fq_codel_cb(const struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct fq_codel_skb_cb));
	return (struct fq_codel_skb_cb *)qdisc_skb_cb(skb)->data;
}

static codel_time_t fq_codel_now(void)
{
	return codel_ns_to_time(ktime_get_ns());
}

static u32 fq_codel_mtu(const struct Qdisc *sch)
{
	return min_t(u32, psched_mtu(qdisc_dev(sch)), FQ_CODEL_QUANTUM_MAX);
}

/*
 * The flow (1-based; 0: drop the packet, with *qerr saying how to report
 * it).  A verdict of TC_ACT_REDIRECT from a qdisc's filters is a drop:
 * nothing would take the packet.
 */
static unsigned int fq_codel_classify(struct sk_buff *skb, struct Qdisc *sch,
				      int *qerr)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	struct tcf_proto *filter;
	struct tcf_result res;
	int result;

	if (TC_H_MAJ(skb->priority) == sch->handle &&
	    TC_H_MIN(skb->priority) > 0 &&
	    TC_H_MIN(skb->priority) <= q->flows_cnt)
		return TC_H_MIN(skb->priority);

	filter = rcu_dereference_bh(q->filter_list);
	if (!filter)
		return reciprocal_scale(q->hash_headers ?
					skb_get_hash_perturb(skb, &q->perturbation) :
					skb_get_hash(skb), q->flows_cnt) + 1;

	*qerr = NET_XMIT_SUCCESS | __NET_XMIT_BYPASS;
	result = tcf_classify(skb, NULL, filter, &res, false);
	if (result < 0)
		return 0;
	switch (result) {
	case TC_ACT_STOLEN:
	case TC_ACT_QUEUED:
	case TC_ACT_TRAP:
		*qerr = NET_XMIT_SUCCESS | __NET_XMIT_STOLEN;
		fallthrough;
	case TC_ACT_SHOT:
	case TC_ACT_REDIRECT:
		return 0;
	}
	if (TC_H_MIN(res.classid) <= q->flows_cnt)
		return TC_H_MIN(res.classid);
	return 0;
}

static struct sk_buff *fq_codel_flow_pop_head(struct fq_codel_flow *flow)
{
	struct sk_buff *skb = flow->head;

	flow->head = skb->next;
	skb_mark_not_on_list(skb);
	return skb;
}

static void fq_codel_flow_add(struct fq_codel_flow *flow, struct sk_buff *skb)
{
	if (!flow->head)
		flow->head = skb;
	else
		flow->tail->next = skb;
	flow->tail = skb;
	skb->next = NULL;
}

/*
 * Over a limit: drop from the head of the flow holding the most bytes,
 * until half its backlog is gone or @max_packets went, so that the linear
 * scan is paid once per batch.  Returns the flow's index.
 */
static unsigned int fq_codel_drop_fattest(struct Qdisc *sch,
					  unsigned int max_packets,
					  enum codel_drop_reason reason,
					  struct sk_buff **to_free)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	unsigned int maxbacklog = 0, idx = 0, i, len = 0, mem = 0;
	struct fq_codel_flow *flow;
	unsigned int threshold;

	for (i = 0; i < q->flows_cnt; i++) {
		if (q->backlogs[i] > maxbacklog) {
			maxbacklog = q->backlogs[i];
			idx = i;
		}
	}
	threshold = maxbacklog >> 1;
	flow = &q->flows[idx];
	i = 0;
	do {
		struct sk_buff *skb = fq_codel_flow_pop_head(flow);

		len += qdisc_pkt_len(skb);
		mem += fq_codel_cb(skb)->mem_usage;
		trace_fq_codel_ext_skb_drop(sch, skb, idx, reason);
		codel_drop_batched(skb, to_free);
	} while (++i < max_packets && len < threshold);

	/* The flow's CoDel should signal harder too. */
	flow->cvars.count += i;
	q->backlogs[idx] -= len;
	q->memory_usage -= mem;
	__qdisc_qstats_drop(sch, i);
	sch->qstats.backlog -= len;
	sch->q.qlen -= i;
	return idx;
}

/*
 * Queue @skb on flow @idx (0-based), then enforce limit and memory_limit.
 * Returns NET_XMIT_SUCCESS, or NET_XMIT_CN when the batch drop hit @skb's
 * own flow: the parents then do not count @skb, and, if @report, are told
 * about the other packets that went.  Without @report the caller tells
 * them (fq_codel_enqueue_segs()).  Always inlined, as fq_codel_serve(): a
 * call on the per-packet path is a measurable share of its cost
 * (docs/fq_codel.md, "Cost per packet"), and @report is then a constant.
 */
static __always_inline int
fq_codel_enqueue_one(struct sk_buff *skb, struct Qdisc *sch, unsigned int idx,
		     struct sk_buff **to_free, bool report)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	struct fq_codel_flow *flow = &q->flows[idx];
	unsigned int prev_backlog, prev_qlen, pkt_len, dropped;
	bool memory_limited, own_flow;

	fq_codel_cb(skb)->enqueue_time = fq_codel_now();
	fq_codel_cb(skb)->flow = idx;
	fq_codel_flow_add(flow, skb);
	q->backlogs[idx] += qdisc_pkt_len(skb);
	qdisc_qstats_backlog_inc(sch, skb);

	if (list_empty(&flow->flowchain)) {
		list_add_tail(&flow->flowchain, &q->new_flows);
		q->new_flow_count++;
		flow->deficit = q->quantum;
	}
	fq_codel_cb(skb)->mem_usage = codel_mem_charge(skb);
	q->memory_usage += fq_codel_cb(skb)->mem_usage;
	memory_limited = q->memory_usage > q->memory_limit;
	if (++sch->q.qlen <= sch->limit && !memory_limited)
		return NET_XMIT_SUCCESS;

	prev_backlog = sch->qstats.backlog;
	prev_qlen = sch->q.qlen;
	/* fq_codel_drop_fattest() may drop it: keep what we report. */
	pkt_len = qdisc_pkt_len(skb);
	own_flow = fq_codel_drop_fattest(sch, q->drop_batch_size,
					 memory_limited ? CODEL_DROP_MEMORY :
					 CODEL_DROP_OVERLIMIT, to_free) == idx;

	dropped = prev_qlen - sch->q.qlen;
	prev_backlog -= sch->qstats.backlog;
	q->drop_overlimit += dropped;
	if (memory_limited)
		q->drop_overmemory += dropped;

	if (own_flow) {
		if (report)
			qdisc_tree_reduce_backlog(sch, dropped - 1,
						  prev_backlog - pkt_len);
		return NET_XMIT_CN;
	}
	if (report)
		qdisc_tree_reduce_backlog(sch, dropped, prev_backlog);
	return NET_XMIT_SUCCESS;
}

/*
 * split_gso: queue the segments of a GSO packet one by one on its flow.
 * The parents hear once, after the last segment, from what the qdisc then
 * holds: told at each segment, they could hear "empty" half-way (a batch
 * drop that took the flow's older packets and this segment) while later
 * segments queue, and HFSC, DRR, QFQ and ETS, which activate a class only
 * if its qdisc was empty before the enqueue, would never serve them.
 * SUCCESS if the qdisc holds anything: the parents then count @skb as one
 * packet of its GSO length, and the report corrects them to what is here.
 */
static noinline int fq_codel_enqueue_segs(struct sk_buff *skb,
					  struct Qdisc *sch, unsigned int idx,
					  struct sk_buff **to_free)
{
	netdev_features_t features = netif_skb_features(skb);
	int qlen = sch->q.qlen, backlog = sch->qstats.backlog;
	struct sk_buff *segs, *nskb;
	int ret = NET_XMIT_CN;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs)) {
		trace_fq_codel_ext_skb_drop(sch, skb, idx, CODEL_DROP_GSO);
		return qdisc_drop(skb, sch, to_free);
	}

	skb_list_walk_safe(segs, segs, nskb) {
		skb_mark_not_on_list(segs);
		codel_segment_cb_init(segs);
		fq_codel_enqueue_one(segs, sch, idx, to_free, false);
	}
	if (sch->q.qlen) {
		qlen++;
		backlog += qdisc_pkt_len(skb);
		ret = NET_XMIT_SUCCESS;
	}
	consume_skb(skb);
	qlen -= sch->q.qlen;
	backlog -= sch->qstats.backlog;
	/* Nothing to say: at qlen 0 the kernel would warn. */
	if (qlen || backlog)
		qdisc_tree_reduce_backlog(sch, qlen, backlog);
	return ret;
}

static int fq_codel_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	unsigned int idx;
	int ret;

	idx = fq_codel_classify(skb, sch, &ret);
	if (idx == 0) {
		if (ret & __NET_XMIT_BYPASS)
			qdisc_qstats_drop(sch);
		__qdisc_drop(skb, to_free);
		return ret;
	}
	if (unlikely(q->split_gso) && skb_is_gso(skb))
		return fq_codel_enqueue_segs(skb, sch, idx - 1, to_free);
	return fq_codel_enqueue_one(skb, sch, idx - 1, to_free, true);
}

/* struct codel_pkt_ops for one flow: ctx is a struct fq_codel_ctx. */
struct fq_codel_ctx {
	struct Qdisc		*sch;
	struct fq_codel_flow	*flow;
};

static __always_inline struct sk_buff *fq_codel_pop(void *ctx)
{
	struct fq_codel_ctx *c = ctx;
	struct fq_codel_sched_data *q = qdisc_priv(c->sch);
	struct sk_buff *skb;

	if (!c->flow->head)
		return NULL;
	skb = fq_codel_flow_pop_head(c->flow);
	q->backlogs[c->flow - q->flows] -= qdisc_pkt_len(skb);
	q->memory_usage -= fq_codel_cb(skb)->mem_usage;
	c->sch->q.qlen--;
	c->sch->qstats.backlog -= qdisc_pkt_len(skb);
	return skb;
}

static u32 fq_codel_pkt_len(const struct sk_buff *skb)
{
	return qdisc_pkt_len(skb);
}

static codel_time_t fq_codel_pkt_time(const struct sk_buff *skb)
{
	return fq_codel_cb(skb)->enqueue_time;
}

static void fq_codel_pkt_drop(void *ctx, struct sk_buff *skb,
			      const struct codel_vars *vars, codel_time_t now)
{
	struct fq_codel_ctx *c = ctx;
	struct fq_codel_sched_data *q = qdisc_priv(c->sch);
	u32 flow = c->flow - q->flows;

	q->codel_drops++;
	trace_fq_codel_ext_drop(c->sch, flow, vars, now);
	trace_fq_codel_ext_skb_drop(c->sch, skb, flow, CODEL_DROP_CONGESTED);
	codel_drop_at_dequeue(c->sch, skb);
	qdisc_qstats_drop(c->sch);
}

static bool fq_codel_pkt_set_ce(struct sk_buff *skb)
{
	return INET_ECN_set_ce(skb);
}

static int fq_codel_pkt_dsfield(struct sk_buff *skb)
{
	return skb_get_dsfield(skb);
}

/* Each trace_*() is a static branch while its event is disabled. */
static void fq_codel_pkt_event(void *ctx, enum codel_event ev,
			       const struct codel_vars *vars, codel_time_t now)
{
	struct fq_codel_ctx *c = ctx;
	struct fq_codel_sched_data *q = qdisc_priv(c->sch);
	u32 flow = c->flow - q->flows;

	switch (ev) {
	case CODEL_EV_ECN_MARK:
		trace_fq_codel_ext_ecn_mark(c->sch, flow, vars, now);
		break;
	case CODEL_EV_CE_MARK:
		trace_fq_codel_ext_ce_mark(c->sch, flow, vars, now);
		break;
	case CODEL_EV_DROPPING_ENTER:
		trace_fq_codel_ext_dropping_enter(c->sch, flow, vars, now);
		break;
	case CODEL_EV_DROPPING_EXIT:
		trace_fq_codel_ext_dropping_exit(c->sch, flow, vars, now);
		break;
	}
}

static void fq_codel_pkt_delivered(void *ctx, unsigned long bucket)
{
	struct fq_codel_ctx *c = ctx;

	c->flow->hist[bucket]++;
}

static const struct codel_pkt_ops fq_codel_pkt_ops = {
	.pop		= fq_codel_pop,
	.len		= fq_codel_pkt_len,
	.enqueue_time	= fq_codel_pkt_time,
	.drop		= fq_codel_pkt_drop,
	.set_ce		= fq_codel_pkt_set_ce,
	.dsfield	= fq_codel_pkt_dsfield,
	.event		= fq_codel_pkt_event,
	.delivered	= fq_codel_pkt_delivered,
};

/*
 * Deficit round robin over the flows, CoDel on each.  A flow whose credit
 * is spent goes to the back of old_flows with a quantum more; one that
 * CoDel leaves empty leaves the lists, but a new flow goes through
 * old_flows first, so that new flows cannot starve the old ones.  The
 * caller reports CoDel's drops.  The packet returned is counted (by
 * codel_serve()) in the qdisc's histogram and the flow's.
 */
static __always_inline struct sk_buff *fq_codel_serve(struct Qdisc *sch)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	struct fq_codel_ctx ctx = { .sch = sch };
	struct list_head *head;
	struct sk_buff *skb;

	for (;;) {
		head = &q->new_flows;
		if (list_empty(head)) {
			head = &q->old_flows;
			if (list_empty(head))
				return NULL;
		}
		ctx.flow = list_first_entry(head, struct fq_codel_flow,
					    flowchain);
		if (ctx.flow->deficit <= 0) {
			ctx.flow->deficit += q->quantum;
			list_move_tail(&ctx.flow->flowchain, &q->old_flows);
			continue;
		}
		skb = fq_codel_pop(&ctx);
		skb = codel_serve(&ctx, skb,
				  skb || ctx.flow->cvars.dropping ?
				  fq_codel_now() : 0,
				  &sch->qstats.backlog, &q->params,
				  &ctx.flow->cvars, &q->stats,
				  &fq_codel_pkt_ops);
		if (skb)
			break;
		if (head == &q->new_flows && !list_empty(&q->old_flows))
			list_move_tail(&ctx.flow->flowchain, &q->old_flows);
		else
			list_del_init(&ctx.flow->flowchain);
	}
	ctx.flow->deficit -= qdisc_pkt_len(skb);
	return skb;
}

/*
 * What a dequeue or peek (@peek) is about to tell the parents, with what
 * the qdisc holds before a peeked packet is stashed.
 */
static void fq_codel_trace_drops(struct Qdisc *sch, bool peek)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);

	/* Tested first: disabled, the event loads nothing. */
	if (trace_fq_codel_ext_dequeue_drops_enabled())
		trace_fq_codel_ext_dequeue_drops(sch, q->stats.drop_count,
						 q->stats.drop_len, peek);
}

/*
 * Tell every ancestor about the packets CoDel dropped in this dequeue or
 * peek, now: they were counted in the ancestors' qlen and backlog.
 */
static void fq_codel_report_drops(struct Qdisc *sch)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);

	if (!q->stats.drop_count)
		return;
	qdisc_tree_reduce_backlog(sch, q->stats.drop_count, q->stats.drop_len);
	q->stats.drop_count = 0;
	q->stats.drop_len = 0;
}

/*
 * A packet peek() stashed, taken by a parent that calls ->dequeue()
 * instead of qdisc_dequeue_peeked() (sch_codel.c, codel_take_peeked()).
 */
static noinline struct sk_buff *fq_codel_take_peeked(struct Qdisc *sch)
{
	struct sk_buff *skb = __skb_dequeue(&sch->gso_skb);

	qdisc_qstats_backlog_dec(sch, skb);
	sch->q.qlen--;
	return skb;
}

/*
 * adaptive_target: @skb leaves now (sch_codel.c's codel_adapt(), with the
 * qdisc's drain rate shared by every flow's CoDel).
 */
static noinline void fq_codel_adapt(struct Qdisc *sch,
				    const struct sk_buff *skb)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);

	if (codel_rate_follow(&q->rate, &q->params, q->cfg_target,
			      q->cfg_interval, fq_codel_now(), qdisc_pkt_len(skb),
			      sch->q.qlen > 0))
		trace_fq_codel_ext_target(sch, &q->params,
					  codel_rate_bytes_per_sec(&q->rate,
								   q->params.mtu));
}

static struct sk_buff *fq_codel_dequeue(struct Qdisc *sch)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	struct sk_buff *skb;

	if (unlikely(skb_queue_len(&sch->gso_skb)))
		return fq_codel_take_peeked(sch);
	skb = fq_codel_serve(sch);
	if (skb) {
		qdisc_bstats_update(sch, skb);
		if (unlikely(q->adaptive))
			fq_codel_adapt(sch, skb);
	}
	fq_codel_trace_drops(sch, false);
	fq_codel_report_drops(sch);
	return skb;
}

/*
 * The packet stashed in gso_skb counts in qlen before the parents hear of
 * the drops, so that no parent is told we are empty while one is queued.
 */
static struct sk_buff *fq_codel_peek(struct Qdisc *sch)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	struct sk_buff *skb = skb_peek(&sch->gso_skb);

	if (skb)
		return skb;
	skb = fq_codel_serve(sch);
	fq_codel_trace_drops(sch, true);
	if (skb) {
		qdisc_bstats_update(sch, skb);
		if (unlikely(q->adaptive))
			fq_codel_adapt(sch, skb);
		__skb_queue_head(&sch->gso_skb, skb);
		qdisc_qstats_backlog_inc(sch, skb);
		sch->q.qlen++;
	}
	fq_codel_report_drops(sch);
	return skb;
}

static void fq_codel_reset(struct Qdisc *sch)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	u32 i;

	INIT_LIST_HEAD(&q->new_flows);
	INIT_LIST_HEAD(&q->old_flows);
	/* A qdisc whose init failed may have no flow table. */
	if (!q->flows || !q->backlogs)
		return;
	for (i = 0; i < q->flows_cnt; i++) {
		struct fq_codel_flow *flow = &q->flows[i];

		rtnl_kfree_skbs(flow->head, flow->tail);
		flow->head = NULL;
		INIT_LIST_HEAD(&flow->flowchain);
		codel_vars_init(&flow->cvars);
	}
	memset(q->backlogs, 0, q->flows_cnt * sizeof(u32));
	q->memory_usage = 0;
	/* The link's rate stays measured; the next departure starts no gap. */
	q->rate.backlogged = false;
}

static struct netlink_range_validation fq_codel_time_range = {
	.max = CODEL_TIME_MAX_US,
};

static struct netlink_range_validation fq_codel_flows_range = {
	.min = 1,
	.max = FQ_CODEL_MAX_FLOWS,
};

static struct netlink_range_validation fq_codel_quantum_range = {
	.min = FQ_CODEL_QUANTUM_MIN,
	.max = FQ_CODEL_QUANTUM_MAX,
};

static struct netlink_range_validation fq_codel_memory_range = {
	.min = 1,
	.max = FQ_CODEL_MEMORY_LIMIT_MAX,
};

static const struct nla_policy fq_codel_policy[TCA_FQ_CODEL_MAX + 1] = {
	[TCA_FQ_CODEL_TARGET]	= NLA_POLICY_FULL_RANGE(NLA_U32, &fq_codel_time_range),
	[TCA_FQ_CODEL_LIMIT]	= NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_FQ_CODEL_INTERVAL]	= NLA_POLICY_FULL_RANGE(NLA_U32, &fq_codel_time_range),
	[TCA_FQ_CODEL_ECN]	= NLA_POLICY_MAX(NLA_U32, 1),
	[TCA_FQ_CODEL_FLOWS]	= NLA_POLICY_FULL_RANGE(NLA_U32, &fq_codel_flows_range),
	[TCA_FQ_CODEL_QUANTUM]	= NLA_POLICY_FULL_RANGE(NLA_U32, &fq_codel_quantum_range),
	[TCA_FQ_CODEL_CE_THRESHOLD] = NLA_POLICY_FULL_RANGE(NLA_U32, &fq_codel_time_range),
	[TCA_FQ_CODEL_DROP_BATCH_SIZE] = NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_FQ_CODEL_MEMORY_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32, &fq_codel_memory_range),
	[TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR] = { .type = NLA_U8 },
	[TCA_FQ_CODEL_CE_THRESHOLD_MASK] = { .type = NLA_U8 },
};

static const struct nla_policy fq_codel_ext_policy[TCA_FQ_CODEL_EXT_MAX + 1] = {
	[TCA_FQ_CODEL_EXT_SPLIT_GSO]		= NLA_POLICY_MAX(NLA_U32, 1),
	[TCA_FQ_CODEL_EXT_CE_THRESHOLD_OFF]	= { .type = NLA_FLAG },
	[TCA_FQ_CODEL_EXT_HASH_HEADERS]		= NLA_POLICY_MAX(NLA_U32, 1),
	[TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET]	= NLA_POLICY_MAX(NLA_U32, 1),
};

static const struct codel_nl_range_msg fq_codel_range_msgs[] = {
	{ &fq_codel_policy[TCA_FQ_CODEL_TARGET], "fq_codel_ext: target must be at most 100s" },
	{ &fq_codel_policy[TCA_FQ_CODEL_LIMIT], "fq_codel_ext: limit must be at least 1 packet" },
	{ &fq_codel_policy[TCA_FQ_CODEL_INTERVAL], "fq_codel_ext: interval must be at most 100s" },
	{ &fq_codel_policy[TCA_FQ_CODEL_ECN], "fq_codel_ext: ecn must be 0 or 1" },
	{ &fq_codel_policy[TCA_FQ_CODEL_FLOWS], "fq_codel_ext: flows must be from 1 to 65536" },
	{ &fq_codel_policy[TCA_FQ_CODEL_QUANTUM],
	  "fq_codel_ext: quantum must be from 256 to 1048576 bytes" },
	{ &fq_codel_policy[TCA_FQ_CODEL_CE_THRESHOLD],
	  "fq_codel_ext: ce_threshold must be at most 100s" },
	{ &fq_codel_policy[TCA_FQ_CODEL_DROP_BATCH_SIZE],
	  "fq_codel_ext: drop_batch must be at least 1 packet" },
	{ &fq_codel_policy[TCA_FQ_CODEL_MEMORY_LIMIT],
	  "fq_codel_ext: memory_limit must be from 1 byte to 2GB" },
	{ &fq_codel_ext_policy[TCA_FQ_CODEL_EXT_SPLIT_GSO],
	  "fq_codel_ext: split_gso must be 0 or 1" },
	{ &fq_codel_ext_policy[TCA_FQ_CODEL_EXT_HASH_HEADERS],
	  "fq_codel_ext: hash_headers must be 0 or 1" },
	{ &fq_codel_ext_policy[TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET],
	  "fq_codel_ext: adaptive_target must be 0 or 1" },
};

static const struct codel_nl_desc fq_codel_nl = {
	.policy		= fq_codel_policy,
	.maxtype	= TCA_FQ_CODEL_MAX,
	.ext_type	= TCA_FQ_CODEL_EXT,
	.ext_policy	= fq_codel_ext_policy,
	.ext_maxtype	= TCA_FQ_CODEL_EXT_MAX,
	.range_msgs	= fq_codel_range_msgs,
	.n_range_msgs	= ARRAY_SIZE(fq_codel_range_msgs),
	.unknown_msg	= "fq_codel_ext: unknown attribute type",
	.ce_both_msg	= "fq_codel_ext: ce_threshold given and switched off at once",
	.selector_msg	= "fq_codel_ext: ce_threshold_selector has bits outside its mask",
};

/* flows is set at creation only; the rest as codel_nl_check_ce() says. */
static int fq_codel_validate(struct fq_codel_sched_data *q, struct nlattr **tb,
			     struct nlattr **ext, u8 selector, u8 mask,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *flows = tb[TCA_FQ_CODEL_FLOWS];

	if (flows && q->flows && nla_get_u32(flows) != q->flows_cnt) {
		NL_SET_ERR_MSG_ATTR(extack, flows,
				    "fq_codel_ext: flows can only be set when the qdisc is created");
		return -EINVAL;
	}
	return codel_nl_check_ce(&fq_codel_nl, tb[TCA_FQ_CODEL_CE_THRESHOLD],
				 ext[TCA_FQ_CODEL_EXT_CE_THRESHOLD_OFF],
				 selector, mask,
				 tb[TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR],
				 tb[TCA_FQ_CODEL_CE_THRESHOLD_MASK], extack);
}

static codel_time_t fq_codel_get_time(struct nlattr *a)
{
	return codel_us_to_time(nla_get_u32(a));
}

/*
 * A packet fq_codel_serve() returned that is not delivered after all (a
 * trim): out of the histograms again, which count delivered packets.
 */
static void fq_codel_unhist(struct fq_codel_sched_data *q, struct sk_buff *skb)
{
	u32 flow = fq_codel_cb(skb)->flow;
	unsigned long b = codel_hist_bucket(q->flows[flow].cvars.ldelay);

	q->stats.sojourn_hist[b]--;
	q->stats.sojourn_sum -= q->flows[flow].cvars.ldelay;
	q->flows[flow].hist[b]--;
}

/*
 * Lowering limit or memory_limit drops at once, oldest first, through the
 * scheduler as the in-tree fq_codel does (CoDel may drop on the way and
 * reports those itself); the packets trimmed from the flows count as
 * drops, not as sent nor in the histograms.  A packet in gso_skb had left
 * its flow as delivered: stashed by a peek, or handed to the device and
 * requeued by the core, perhaps as the N segments of one GSO packet that
 * the histograms counted once.  It stays counted as sent and in the
 * histograms (the in-tree fq_codel counts every trimmed packet as sent),
 * and counts as a drop too.  Its cb may name no flow: a packet that
 * bypassed the empty root qdisc (TCQ_F_CAN_BYPASS) never had one, so its
 * drop event says FQ_CODEL_NO_FLOW.
 */
static void fq_codel_trim(struct Qdisc *sch)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	unsigned int pkts = 0, bytes = 0;

	while (sch->q.qlen > sch->limit ||
	       q->memory_usage > q->memory_limit) {
		bool stashed = skb_queue_len(&sch->gso_skb);
		struct sk_buff *skb;

		if (stashed)
			skb = fq_codel_take_peeked(sch);
		else
			skb = fq_codel_serve(sch);
		fq_codel_report_drops(sch);
		if (!skb)
			break;
		if (!stashed)
			fq_codel_unhist(q, skb);
		pkts++;
		bytes += qdisc_pkt_len(skb);
		trace_fq_codel_ext_skb_drop(sch, skb,
					    stashed ? FQ_CODEL_NO_FLOW :
					    fq_codel_cb(skb)->flow,
					    CODEL_DROP_TRIM);
		rtnl_qdisc_drop(skb, sch);
	}
	if (pkts)
		qdisc_tree_reduce_backlog(sch, pkts, bytes);
}

/* The target and interval in effect (sch_codel.c, codel_set_in_effect()). */
static void fq_codel_set_in_effect(struct fq_codel_sched_data *q)
{
	struct codel_params p = q->params;

	codel_rate_adapt(&q->rate, q->cfg_target, q->cfg_interval, &p);
	WRITE_ONCE(q->params.target, p.target);
	WRITE_ONCE(q->params.interval, p.interval);
}

static int fq_codel_change(struct Qdisc *sch, struct nlattr *opt,
			   struct netlink_ext_ack *extack)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	struct nlattr *ext[TCA_FQ_CODEL_EXT_MAX + 1];
	struct nlattr *tb[TCA_FQ_CODEL_MAX + 1];
	u8 selector, mask;
	int err;

	if (!opt) {
		NL_SET_ERR_MSG(extack, "fq_codel_ext: missing options");
		return -EINVAL;
	}
	err = codel_nl_parse(&fq_codel_nl, opt, tb, ext, extack);
	if (err < 0)
		return err;
	codel_nl_new_selector(tb[TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR],
			      tb[TCA_FQ_CODEL_CE_THRESHOLD_MASK],
			      q->params.ce_threshold_selector,
			      q->params.ce_threshold_mask, &selector, &mask);
	err = fq_codel_validate(q, tb, ext, selector, mask, extack);
	if (err)
		return err;
	/* Before the flows exist (init): their number. */
	if (tb[TCA_FQ_CODEL_FLOWS] && !q->flows)
		q->flows_cnt = nla_get_u32(tb[TCA_FQ_CODEL_FLOWS]);

	sch_tree_lock(sch);
	if (tb[TCA_FQ_CODEL_TARGET])
		WRITE_ONCE(q->cfg_target,
			   fq_codel_get_time(tb[TCA_FQ_CODEL_TARGET]));
	if (tb[TCA_FQ_CODEL_CE_THRESHOLD])
		WRITE_ONCE(q->params.ce_threshold,
			   fq_codel_get_time(tb[TCA_FQ_CODEL_CE_THRESHOLD]));
	if (ext[TCA_FQ_CODEL_EXT_CE_THRESHOLD_OFF])
		WRITE_ONCE(q->params.ce_threshold, CODEL_DISABLED_THRESHOLD);
	WRITE_ONCE(q->params.ce_threshold_selector, selector);
	WRITE_ONCE(q->params.ce_threshold_mask, mask);
	if (tb[TCA_FQ_CODEL_INTERVAL])
		WRITE_ONCE(q->cfg_interval,
			   fq_codel_get_time(tb[TCA_FQ_CODEL_INTERVAL]));
	if (tb[TCA_FQ_CODEL_LIMIT])
		WRITE_ONCE(sch->limit, nla_get_u32(tb[TCA_FQ_CODEL_LIMIT]));
	if (tb[TCA_FQ_CODEL_ECN])
		WRITE_ONCE(q->params.ecn, !!nla_get_u32(tb[TCA_FQ_CODEL_ECN]));
	if (tb[TCA_FQ_CODEL_QUANTUM])
		WRITE_ONCE(q->quantum, nla_get_u32(tb[TCA_FQ_CODEL_QUANTUM]));
	if (tb[TCA_FQ_CODEL_DROP_BATCH_SIZE])
		WRITE_ONCE(q->drop_batch_size,
			   nla_get_u32(tb[TCA_FQ_CODEL_DROP_BATCH_SIZE]));
	if (tb[TCA_FQ_CODEL_MEMORY_LIMIT])
		WRITE_ONCE(q->memory_limit,
			   nla_get_u32(tb[TCA_FQ_CODEL_MEMORY_LIMIT]));
	if (ext[TCA_FQ_CODEL_EXT_SPLIT_GSO])
		WRITE_ONCE(q->split_gso,
			   !!nla_get_u32(ext[TCA_FQ_CODEL_EXT_SPLIT_GSO]));
	/* Queued packets stay in their flows; a flow's next ones may not. */
	if (ext[TCA_FQ_CODEL_EXT_HASH_HEADERS])
		WRITE_ONCE(q->hash_headers,
			   !!nla_get_u32(ext[TCA_FQ_CODEL_EXT_HASH_HEADERS]));
	if (ext[TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET]) {
		bool on = nla_get_u32(ext[TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET]);

		/* Measured afresh once on: the link may have changed. */
		if (on != q->adaptive)
			codel_rate_init(&q->rate);
		WRITE_ONCE(q->adaptive, on);
	}
	fq_codel_set_in_effect(q);
	if (q->flows)
		fq_codel_trim(sch);
	sch_tree_unlock(sch);
	return 0;
}

static void fq_codel_destroy(struct Qdisc *sch)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);

	tcf_block_put(q->block);
	kvfree(q->backlogs);
	kvfree(q->flows);
}

static int fq_codel_init(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	u32 mtu = fq_codel_mtu(sch);
	u32 i;
	int err;

	sch->limit = FQ_CODEL_DEFAULT_LIMIT;
	q->flows_cnt = FQ_CODEL_DEFAULT_FLOWS;
	q->memory_limit = FQ_CODEL_DEFAULT_MEMORY_LIMIT;
	q->drop_batch_size = FQ_CODEL_DEFAULT_BATCH;
	q->quantum = max_t(u32, mtu, FQ_CODEL_QUANTUM_MIN);
	INIT_LIST_HEAD(&q->new_flows);
	INIT_LIST_HEAD(&q->old_flows);
	get_random_bytes(&q->perturbation, sizeof(q->perturbation));
	codel_params_init(&q->params, mtu);
	q->params.ecn = true;
	q->cfg_target = q->params.target;
	q->cfg_interval = q->params.interval;

	if (opt) {
		err = fq_codel_change(sch, opt, extack);
		if (err)
			return err;
	}
	err = tcf_block_get(&q->block, &q->filter_list, sch, extack);
	if (err)
		return err;

	q->flows = kvcalloc(q->flows_cnt, sizeof(*q->flows), GFP_KERNEL);
	if (!q->flows)
		goto nomem;
	for (i = 0; i < q->flows_cnt; i++) {
		INIT_LIST_HEAD(&q->flows[i].flowchain);
		codel_vars_init(&q->flows[i].cvars);
	}
	q->backlogs = kvcalloc(q->flows_cnt, sizeof(*q->backlogs), GFP_KERNEL);
	if (!q->backlogs)
		goto nomem;
	/* limit >= 1 always holds, so an idle qdisc may be bypassed. */
	sch->flags |= TCQ_F_CAN_BYPASS | CODEL_SCH_FLAGS;
	return 0;

nomem:
	/* ->destroy() frees what was allocated. */
	NL_SET_ERR_MSG(extack, "fq_codel_ext: no memory for the flow table");
	return -ENOMEM;
}

static int fq_codel_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	codel_time_t ce_threshold;
	struct nlattr *opts, *ext;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		goto nla_put_failure;

	if (nla_put_u32(skb, TCA_FQ_CODEL_TARGET,
			codel_time_to_us(READ_ONCE(q->cfg_target))) ||
	    nla_put_u32(skb, TCA_FQ_CODEL_LIMIT, READ_ONCE(sch->limit)) ||
	    nla_put_u32(skb, TCA_FQ_CODEL_INTERVAL,
			codel_time_to_us(READ_ONCE(q->cfg_interval))) ||
	    nla_put_u32(skb, TCA_FQ_CODEL_ECN, READ_ONCE(q->params.ecn)) ||
	    nla_put_u32(skb, TCA_FQ_CODEL_QUANTUM, READ_ONCE(q->quantum)) ||
	    nla_put_u32(skb, TCA_FQ_CODEL_DROP_BATCH_SIZE,
			READ_ONCE(q->drop_batch_size)) ||
	    nla_put_u32(skb, TCA_FQ_CODEL_MEMORY_LIMIT,
			READ_ONCE(q->memory_limit)) ||
	    nla_put_u32(skb, TCA_FQ_CODEL_FLOWS, READ_ONCE(q->flows_cnt)))
		goto nla_put_failure;

	/* As in-tree: the selector goes with ce_threshold, mask 0 or not. */
	ce_threshold = READ_ONCE(q->params.ce_threshold);
	if (ce_threshold != CODEL_DISABLED_THRESHOLD &&
	    (nla_put_u32(skb, TCA_FQ_CODEL_CE_THRESHOLD,
			 codel_time_to_us(ce_threshold)) ||
	     nla_put_u8(skb, TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR,
			READ_ONCE(q->params.ce_threshold_selector)) ||
	     nla_put_u8(skb, TCA_FQ_CODEL_CE_THRESHOLD_MASK,
			READ_ONCE(q->params.ce_threshold_mask))))
		goto nla_put_failure;

	ext = nla_nest_start(skb, TCA_FQ_CODEL_EXT);
	if (!ext ||
	    nla_put_u32(skb, TCA_FQ_CODEL_EXT_SPLIT_GSO, READ_ONCE(q->split_gso)) ||
	    nla_put_u32(skb, TCA_FQ_CODEL_EXT_HASH_HEADERS,
			READ_ONCE(q->hash_headers)) ||
	    nla_put_u32(skb, TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET,
			READ_ONCE(q->adaptive)))
		goto nla_put_failure;
	nla_nest_end(skb, ext);

	return nla_nest_end(skb, opts);

nla_put_failure:
	nla_nest_cancel(skb, opts);
	return -1;
}

static int fq_codel_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	struct tc_fq_codel_xstats_ext st = {
		.base.type = TCA_FQ_CODEL_XSTATS_QDISC,
	};
	struct tc_fq_codel_qd_stats *qs = &st.base.qdisc_stats;
	struct list_head *pos;
	int i;

	/* The list lengths need the lock; the rest is read under it too. */
	sch_tree_lock(sch);
	qs->maxpacket = q->stats.maxpacket;
	qs->drop_overlimit = q->drop_overlimit;
	qs->ecn_mark = q->stats.ecn_mark;
	qs->new_flow_count = q->new_flow_count;
	qs->ce_mark = q->stats.ce_mark;
	qs->memory_usage = q->memory_usage;
	qs->drop_overmemory = q->drop_overmemory;
	list_for_each(pos, &q->new_flows)
		qs->new_flows_len++;
	list_for_each(pos, &q->old_flows)
		qs->old_flows_len++;
	st.dequeue_calls = q->stats.dequeue_calls;
	st.ok_to_drop = q->stats.ok_to_drop;
	st.loop_drops = q->stats.loop_drops;
	st.dropping_entries = q->stats.dropping_entries;
	for (i = 0; i < TC_CODEL_HIST_BUCKETS; i++)
		st.sojourn_hist[i] = q->stats.sojourn_hist[i];
	st.drop_overlimit = q->drop_overlimit;
	st.drop_overmemory = q->drop_overmemory;
	st.new_flow_count = q->new_flow_count;
	st.codel_drops = q->codel_drops;
	st.sojourn_sum_ns = q->stats.sojourn_sum << CODEL_SHIFT;
	st.drain_rate = codel_rate_bytes_per_sec(&q->rate, q->params.mtu);
	st.target_us = codel_time_to_us(q->params.target);
	st.interval_us = codel_time_to_us(q->params.interval);
	sch_tree_unlock(sch);

	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static struct Qdisc *fq_codel_leaf(struct Qdisc *sch, unsigned long arg)
{
	return NULL;
}

static unsigned long fq_codel_find(struct Qdisc *sch, u32 classid)
{
	return 0;
}

static unsigned long fq_codel_bind(struct Qdisc *sch, unsigned long parent,
				   u32 classid)
{
	return 0;
}

static void fq_codel_unbind(struct Qdisc *q, unsigned long cl)
{
}

static struct tcf_block *fq_codel_tcf_block(struct Qdisc *sch,
					    unsigned long cl,
					    struct netlink_ext_ack *extack)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);

	return cl ? NULL : q->block;
}

static int fq_codel_dump_class(struct Qdisc *sch, unsigned long cl,
			       struct sk_buff *skb, struct tcmsg *tcm)
{
	tcm->tcm_handle |= TC_H_MIN(cl);
	return 0;
}

/*
 * A flow's queue, CoDel state and sojourn histogram, as class 1..flows of
 * the qdisc.
 */
static int fq_codel_dump_class_stats(struct Qdisc *sch, unsigned long cl,
				     struct gnet_dump *d)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	struct tc_fq_codel_cl_xstats_ext xstats = {
		.base.type = TCA_FQ_CODEL_XSTATS_CLASS,
	};
	struct tc_fq_codel_cl_stats *cs = &xstats.base.class_stats;
	struct gnet_stats_queue qs = { 0 };
	const struct fq_codel_flow *flow;
	const struct sk_buff *skb;
	u32 idx = cl - 1, i;

	if (idx >= q->flows_cnt)
		return gnet_stats_copy_queue(d, NULL, &qs, 0) < 0 ? -1 : 0;

	flow = &q->flows[idx];
	sch_tree_lock(sch);
	cs->deficit = flow->deficit;
	cs->ldelay = codel_time_to_us(flow->cvars.ldelay);
	cs->count = flow->cvars.count;
	cs->lastcount = flow->cvars.lastcount;
	cs->dropping = flow->cvars.dropping;
	if (cs->dropping) {
		codel_tdiff_t delta = flow->cvars.drop_next - fq_codel_now();

		cs->drop_next = delta >= 0 ? (s32)codel_time_to_us(delta) :
					     -(s32)codel_time_to_us(-delta);
	}
	for (skb = flow->head; skb; skb = skb->next)
		qs.qlen++;
	qs.backlog = q->backlogs[idx];
	for (i = 0; i < CODEL_HIST_BUCKETS; i++)
		xstats.sojourn_hist[i] = flow->hist[i];
	sch_tree_unlock(sch);

	if (gnet_stats_copy_queue(d, NULL, &qs, qs.qlen) < 0)
		return -1;
	return gnet_stats_copy_app(d, &xstats, sizeof(xstats));
}

/* Only the active flows are listed, as in-tree. */
static void fq_codel_walk(struct Qdisc *sch, struct qdisc_walker *arg)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	u32 i;

	if (arg->stop)
		return;
	for (i = 0; i < q->flows_cnt; i++) {
		if (list_empty(&q->flows[i].flowchain)) {
			arg->count++;
			continue;
		}
		if (!tc_qdisc_stats_dump(sch, i + 1, arg))
			break;
	}
}

static const struct Qdisc_class_ops fq_codel_class_ops = {
	.leaf		= fq_codel_leaf,
	.find		= fq_codel_find,
	.tcf_block	= fq_codel_tcf_block,
	.bind_tcf	= fq_codel_bind,
	.unbind_tcf	= fq_codel_unbind,
	.dump		= fq_codel_dump_class,
	.dump_stats	= fq_codel_dump_class_stats,
	.walk		= fq_codel_walk,
};

static struct Qdisc_ops fq_codel_qdisc_ops __read_mostly = {
	.cl_ops		= &fq_codel_class_ops,
	.id		= "fq_codel_ext",
	.priv_size	= sizeof(struct fq_codel_sched_data),
	.enqueue	= fq_codel_enqueue,
	.dequeue	= fq_codel_dequeue,
	.peek		= fq_codel_peek,
	.init		= fq_codel_init,
	.reset		= fq_codel_reset,
	.destroy	= fq_codel_destroy,
	.change		= fq_codel_change,
	.dump		= fq_codel_dump,
	.dump_stats	= fq_codel_dump_stats,
	.owner		= THIS_MODULE,
};
MODULE_ALIAS_NET_SCH("fq_codel_ext");

static int __init fq_codel_module_init(void)
{
	/* Our UAPI header must describe the kernel's ABI it extends. */
	BUILD_BUG_ON(TCA_FQ_CODEL_MAX != TCA_FQ_CODEL_CE_THRESHOLD_MASK);
	BUILD_BUG_ON(sizeof(struct tc_fq_codel_xstats) != 10 * sizeof(u32));
	BUILD_BUG_ON(offsetof(struct tc_fq_codel_xstats_ext, dequeue_calls) !=
		     sizeof(struct tc_fq_codel_xstats));
	BUILD_BUG_ON(offsetof(struct tc_fq_codel_cl_xstats_ext, sojourn_hist) !=
		     sizeof(struct tc_fq_codel_xstats));
	BUILD_BUG_ON(TC_CODEL_HIST_BUCKETS != CODEL_HIST_BUCKETS);
	/* What the DRR scan touches stays in one cache line. */
	BUILD_BUG_ON(offsetof(struct fq_codel_flow, hist) > 64);

	return register_qdisc(&fq_codel_qdisc_ops);
}

static void __exit fq_codel_module_exit(void)
{
	unregister_qdisc(&fq_codel_qdisc_ops);
}

module_init(fq_codel_module_init);
module_exit(fq_codel_module_exit);

MODULE_DESCRIPTION("Fair Queue CoDel (fq_codel_ext) over the sch_codel CoDel core");
MODULE_AUTHOR("sch_codel out-of-tree contributors");
MODULE_LICENSE("GPL");
MODULE_VERSION(SCH_CODEL_VERSION);
