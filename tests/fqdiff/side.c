// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * One side of the differential: SIDE_SRC (a kernel's sch_fq_codel.c, or
 * ours) compiled over fqshim.h, plus a reader of its whole state.  The two
 * files name their private structures alike; their CoDel fields differ
 * (the kernel's cparams/cstats, our params/stats).
 */
#include SIDE_SRC

#include "fqdiff.h"

#ifdef SIDE_OURS
#define SIDE_STATS	stats
#else
#define SIDE_STATS	cstats
#endif

static void side_flow(struct fq_codel_sched_data *q, struct fq_codel_flow *f,
		      struct fqdiff_flow *o)
{
	struct sk_buff *skb;

	o->idx = f - q->flows;
	o->qlen = 0;
	for (skb = f->head; skb; skb = skb->next)
		o->qlen++;
	o->backlog = q->backlogs[o->idx];
	o->deficit = f->deficit;
	o->count = f->cvars.count;
	o->lastcount = f->cvars.lastcount;
	o->first_above_time = f->cvars.first_above_time;
	o->drop_next = f->cvars.drop_next;
	o->ldelay = f->cvars.ldelay;
	o->rec_inv_sqrt = f->cvars.rec_inv_sqrt;
	o->dropping = f->cvars.dropping;
}

#ifdef SIDE_OURS
void ours_hist_totals(struct Qdisc *sch, uint64_t *qdisc, uint64_t *flows)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	u32 i, f;

	*qdisc = 0;
	*flows = 0;
	for (i = 0; i < CODEL_HIST_BUCKETS; i++)
		*qdisc += q->stats.sojourn_hist[i];
	for (f = 0; f < q->flows_cnt; f++)
		for (i = 0; i < CODEL_HIST_BUCKETS; i++)
			*flows += q->flows[f].hist[i];
}
#endif

void SHIM_CAT(SHIM_SIDE, _state)(struct Qdisc *sch, struct fqdiff_state *st)
{
	struct fq_codel_sched_data *q = qdisc_priv(sch);
	struct list_head *pos;
	unsigned int n = 0;

	memset(st, 0, sizeof(*st));
	st->qlen = sch->q.qlen;
	st->backlog = sch->qstats.backlog;
	st->drops = sch->qstats.drops;
	st->gso_qlen = sch->gso_skb.qlen;
	st->memory_usage = q->memory_usage;
	st->maxpacket = q->SIDE_STATS.maxpacket;
	st->ecn_mark = q->SIDE_STATS.ecn_mark;
	st->ce_mark = q->SIDE_STATS.ce_mark;
	st->drop_overlimit = q->drop_overlimit;
	st->drop_overmemory = q->drop_overmemory;
	st->new_flow_count = q->new_flow_count;
	list_for_each(pos, &q->new_flows) {
		if (n < FQDIFF_MAX_ACTIVE)
			side_flow(q, container_of(pos, struct fq_codel_flow,
						  flowchain), &st->flows[n++]);
		st->n_new++;
	}
	list_for_each(pos, &q->old_flows) {
		if (n < FQDIFF_MAX_ACTIVE)
			side_flow(q, container_of(pos, struct fq_codel_flow,
						  flowchain), &st->flows[n++]);
		st->n_old++;
	}
}
