/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * A userspace CoDel queue over codel.h: the host-side twin of sch_codel.c's
 * glue (limit tail-drop, timestamp at enqueue, drops reported in order),
 * shared by the unit tests and the trace simulator.
 */
#ifndef _CODEL_USER_PKTQ_H
#define _CODEL_USER_PKTQ_H

#include <stdlib.h>

#include "codel.h"

/* ECN codepoints, as in the IP header's two low TOS bits. */
enum { ECN_NOT_ECT = 0, ECN_ECT1 = 1, ECN_ECT0 = 2, ECN_CE = 3 };

struct sk_buff {
	struct sk_buff	*next;
	u32		id;
	u32		len;
	codel_time_t	tstamp;
	u8		ecn;
};

struct pktq {
	struct codel_params	params;
	struct codel_vars	vars;
	struct codel_stats	stats;
	struct sk_buff		*head, *tail;
	struct sk_buff		*dropped, **dropped_tail; /* in drop order */
	u32			qlen;
	u32			backlog;
	u32			limit;
	u32			drop_overlimit;
	u32			next_id;
	u32			events[CODEL_EV_DROPPING_EXIT + 1];
	u32			drops_reported;	/* ops->drop() calls */
	u64			delivered_hist[CODEL_HIST_BUCKETS]; /* ops->delivered() */
	/* adaptive_target, as the qdiscs run it: the configured values */
	bool			adaptive;
	codel_time_t		cfg_target, cfg_interval;
	struct codel_rate	rate;
};

static struct sk_buff *pktq_pop(void *ctx)
{
	struct pktq *q = ctx;
	struct sk_buff *skb = q->head;

	if (!skb)
		return NULL;
	q->head = skb->next;
	if (!q->head)
		q->tail = NULL;
	skb->next = NULL;
	q->qlen--;
	q->backlog -= skb->len;
	return skb;
}

static u32 pktq_len(const struct sk_buff *skb)
{
	return skb->len;
}

static codel_time_t pktq_time(const struct sk_buff *skb)
{
	return skb->tstamp;
}

static void pktq_drop(void *ctx, struct sk_buff *skb,
		      const struct codel_vars *vars, codel_time_t now)
{
	struct pktq *q = ctx;

	(void)vars;
	(void)now;
	q->drops_reported++;
	*q->dropped_tail = skb;
	q->dropped_tail = &skb->next;
}

static bool pktq_set_ce(struct sk_buff *skb)
{
	if (skb->ecn == ECN_NOT_ECT)
		return false;
	skb->ecn = ECN_CE;
	return true;
}

/* The DS field: these packets carry only ECN bits (DSCP 0). */
static int pktq_dsfield(struct sk_buff *skb)
{
	return skb->ecn;
}

static void pktq_event(void *ctx, enum codel_event ev,
		       const struct codel_vars *vars, codel_time_t now)
{
	struct pktq *q = ctx;

	(void)vars;
	(void)now;
	q->events[ev]++;
}

static void pktq_delivered(void *ctx, unsigned long bucket)
{
	struct pktq *q = ctx;

	q->delivered_hist[bucket]++;
}

static const struct codel_pkt_ops pktq_ops = {
	.pop		= pktq_pop,
	.len		= pktq_len,
	.enqueue_time	= pktq_time,
	.drop		= pktq_drop,
	.set_ce		= pktq_set_ce,
	.dsfield	= pktq_dsfield,
	.event		= pktq_event,
	.delivered	= pktq_delivered,
};

static inline void pktq_init(struct pktq *q, u32 limit, u32 mtu)
{
	*q = (struct pktq){ .limit = limit };
	q->dropped_tail = &q->dropped;
	codel_params_init(&q->params, mtu);
	codel_vars_init(&q->vars);
	codel_rate_init(&q->rate);
}

/* Turn adaptive_target on, the current target and interval the floor. */
static inline void pktq_adaptive(struct pktq *q)
{
	q->adaptive = true;
	q->cfg_target = q->params.target;
	q->cfg_interval = q->params.interval;
}

/* Enqueue a new packet (ids count up from 0); NULL when over the limit. */
static inline struct sk_buff *pktq_enqueue(struct pktq *q, u32 len, u8 ecn,
					   codel_time_t now)
{
	struct sk_buff *skb;
	u32 id = q->next_id++;

	if (q->qlen >= q->limit) {
		q->drop_overlimit++;
		return NULL;
	}
	skb = calloc(1, sizeof(*skb));
	if (!skb)
		abort();
	skb->id = id;
	skb->len = len;
	skb->ecn = ecn;
	skb->tstamp = now;
	if (q->tail)
		q->tail->next = skb;
	else
		q->head = skb;
	q->tail = skb;
	q->qlen++;
	q->backlog += len;
	return skb;
}

/*
 * Dequeue through CoDel, exactly as the qdisc does.  Packets CoDel dropped
 * are left on q->dropped (oldest first) for the caller to inspect and free
 * with pktq_free_dropped().
 */
static inline struct sk_buff *pktq_dequeue(struct pktq *q, codel_time_t now)
{
	struct sk_buff *skb = pktq_pop(q);

	skb = codel_serve(q, skb, now, &q->backlog, &q->params, &q->vars,
			  &q->stats, &pktq_ops);
	if (skb && q->adaptive)
		codel_rate_follow(&q->rate, &q->params, q->cfg_target,
				  q->cfg_interval, now, skb->len, q->qlen > 0);
	q->stats.drop_count = 0;
	q->stats.drop_len = 0;
	return skb;
}

static inline void pktq_free_dropped(struct pktq *q)
{
	while (q->dropped) {
		struct sk_buff *skb = q->dropped;

		q->dropped = skb->next;
		free(skb);
	}
	q->dropped_tail = &q->dropped;
}

static inline void pktq_destroy(struct pktq *q)
{
	struct sk_buff *skb;

	while ((skb = pktq_pop(q)))
		free(skb);
	pktq_free_dropped(q);
}

#endif
