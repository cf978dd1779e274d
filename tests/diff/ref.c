// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * The reference side: a kernel's own include/net/codel.h and codel_impl.h,
 * compiled unchanged (from build/linux-src/REL, never committed) over the
 * shims in kshim/, glued to a FIFO the way that kernel's
 * net/sched/sch_codel.c glues them.
 */
#include <stdlib.h>

#include <net/codel.h>
#include <net/codel_impl.h>

#include "diff.h"

u64 diff_ref_clock_ns;

struct ref_q {
	struct codel_params	params;
	struct codel_vars	vars;
	struct codel_stats	stats;
	struct sk_buff		*head, *tail;
	u32			qlen, backlog, limit, next_id;
	struct diff_out		*out;
};

/* sch_codel.c's dequeue_func(): pop the head, take it off the backlog. */
static struct sk_buff *ref_pop(struct codel_vars *vars, void *ctx)
{
	struct ref_q *q = ctx;
	struct sk_buff *skb = q->head;

	(void)vars;
	if (!skb)
		return NULL;
	q->head = skb->next;
	if (!q->head)
		q->tail = NULL;
	q->qlen--;
	q->backlog -= skb->len;
	return skb;
}

static u32 ref_len(const struct sk_buff *skb)
{
	return skb->len;
}

static codel_time_t ref_time(const struct sk_buff *skb)
{
	return skb->tstamp;
}

static void ref_drop(struct sk_buff *skb, void *ctx)
{
	struct ref_q *q = ctx;

	if (q->out->ndrops < DIFF_MAX_DROPS)
		q->out->drops[q->out->ndrops++] = skb->id;
	free(skb);
}

void *ref_new(const struct diff_cfg *cfg)
{
	struct ref_q *q = calloc(1, sizeof(*q));

	if (!q)
		abort();
	/* sch_codel.c's codel_init() and codel_change(). */
	codel_params_init(&q->params);
	codel_vars_init(&q->vars);
	codel_stats_init(&q->stats);
	q->params.mtu = cfg->mtu;
	q->params.target = ((u64)cfg->target_us * NSEC_PER_USEC) >> CODEL_SHIFT;
	q->params.interval = ((u64)cfg->interval_us * NSEC_PER_USEC) >> CODEL_SHIFT;
	if (cfg->ce_threshold_us != UINT32_MAX)
		q->params.ce_threshold =
			((u64)cfg->ce_threshold_us * NSEC_PER_USEC) >> CODEL_SHIFT;
	q->params.ecn = cfg->ecn;
	q->params.ce_threshold_selector = cfg->selector;
	q->params.ce_threshold_mask = cfg->mask;
	q->limit = cfg->limit;
	return q;
}

bool ref_enqueue(void *ctx, uint64_t now_ns, uint32_t len, uint8_t dsfield)
{
	struct ref_q *q = ctx;
	struct sk_buff *skb;
	u32 id = q->next_id++;

	if (q->qlen >= q->limit)
		return false;
	skb = calloc(1, sizeof(*skb));
	if (!skb)
		abort();
	diff_ref_clock_ns = now_ns;
	skb->id = id;
	skb->len = len;
	skb->dsfield = dsfield;
	skb->tstamp = codel_get_time();
	if (q->tail)
		q->tail->next = skb;
	else
		q->head = skb;
	q->tail = skb;
	q->qlen++;
	q->backlog += len;
	return true;
}

void ref_dequeue(void *ctx, uint64_t now_ns, struct diff_out *out)
{
	struct ref_q *q = ctx;
	struct sk_buff *skb;

	diff_ref_clock_ns = now_ns;
	out->ndrops = 0;
	q->out = out;
	skb = codel_dequeue(q, &q->backlog, &q->params, &q->vars, &q->stats,
			    ref_len, ref_time, ref_drop, ref_pop);
	/* The qdisc reports and zeroes these after every dequeue. */
	q->stats.drop_count = 0;
	q->stats.drop_len = 0;
	out->delivered = skb ? (int64_t)skb->id : -1;
	out->dsfield = skb ? skb->dsfield : 0;
	free(skb);
}

void ref_state(void *ctx, struct diff_state *st)
{
	struct ref_q *q = ctx;

	*st = DIFF_STATE(q->vars, q->stats, q->backlog, q->qlen);
}

/*
 * The one documented delta (docs/parity.md): a reference that keeps
 * first_above_time across an empty dequeue gets it cleared here.
 */
void ref_forget_deadline(void *ctx)
{
	struct ref_q *q = ctx;

	q->vars.first_above_time = 0;
}

/* A limit trim: n head packets leave without a CoDel decision. */
void ref_trim(void *ctx, uint32_t n)
{
	struct ref_q *q = ctx;
	struct sk_buff *skb;

	while (n-- && (skb = ref_pop(&q->vars, q)))
		free(skb);
}

void ref_free(void *ctx)
{
	struct ref_q *q = ctx;
	struct sk_buff *skb;

	while ((skb = ref_pop(&q->vars, q)))
		free(skb);
	free(q);
}
