// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/* Our side of the differential test: codel.h through user/pktq.h. */
#include "pktq.h"
#include "diff.h"

void *ours_new(const struct diff_cfg *cfg)
{
	struct pktq *q = calloc(1, sizeof(*q));

	if (!q)
		abort();
	pktq_init(q, cfg->limit, cfg->mtu);
	q->params.target = codel_us_to_time(cfg->target_us);
	q->params.interval = codel_us_to_time(cfg->interval_us);
	if (cfg->ce_threshold_us != UINT32_MAX)
		q->params.ce_threshold = codel_us_to_time(cfg->ce_threshold_us);
	q->params.ecn = cfg->ecn;
	q->params.ce_threshold_selector = cfg->selector;
	q->params.ce_threshold_mask = cfg->mask;
	return q;
}

bool ours_enqueue(void *ctx, uint64_t now_ns, uint32_t len, uint8_t dsfield)
{
	return pktq_enqueue(ctx, len, dsfield, codel_ns_to_time(now_ns)) != NULL;
}

void ours_dequeue(void *ctx, uint64_t now_ns, struct diff_out *out)
{
	struct pktq *q = ctx;
	struct sk_buff *skb = pktq_dequeue(q, codel_ns_to_time(now_ns));
	struct sk_buff *d;

	out->ndrops = 0;
	for (d = q->dropped; d; d = d->next)
		if (out->ndrops < DIFF_MAX_DROPS)
			out->drops[out->ndrops++] = d->id;
	pktq_free_dropped(q);
	out->delivered = skb ? (int64_t)skb->id : -1;
	out->dsfield = skb ? skb->ecn : 0;
	free(skb);
}

void ours_state(void *ctx, struct diff_state *st)
{
	struct pktq *q = ctx;

	*st = DIFF_STATE(q->vars, q->stats, q->backlog, q->qlen);
}

void ours_trim(void *ctx, uint32_t n)
{
	struct sk_buff *skb;

	while (n-- && (skb = pktq_pop(ctx)))
		free(skb);
}

void ours_free(void *ctx)
{
	pktq_destroy(ctx);
	free(ctx);
}
