// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * codel-cost MODE N: N enqueue+dequeue pairs through codel.h in userspace,
 * for counting instructions under callgrind (bench/run.sh runs N and 2N and
 * takes the difference, so start-up cancels out).  No allocation in the
 * loop: packets come from a preallocated pool on an intrusive FIFO.
 *
 *   fifo      the same FIFO without CoDel (baseline)
 *   nodrop    CoDel, sojourn below target: the common path
 *   dropping  CoDel, a standing queue of 1000 far above target: in the
 *             dropping state, dropping on schedule (control law, Newton)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codel.h"

#define POOL	4096

struct sk_buff {
	struct sk_buff	*next;
	u32		len;
	codel_time_t	tstamp;
};

struct fifo {
	struct sk_buff	*head, *tail, *free;
	u32		qlen, backlog, drops;
};

static struct sk_buff pool[POOL];

static struct sk_buff *fifo_pop(void *ctx)
{
	struct fifo *q = ctx;
	struct sk_buff *skb = q->head;

	if (!skb)
		return NULL;
	q->head = skb->next;
	if (!q->head)
		q->tail = NULL;
	q->qlen--;
	q->backlog -= skb->len;
	return skb;
}

static u32 pkt_len(const struct sk_buff *skb)
{
	return skb->len;
}

static codel_time_t pkt_time(const struct sk_buff *skb)
{
	return skb->tstamp;
}

static void pkt_free(struct fifo *q, struct sk_buff *skb)
{
	skb->next = q->free;
	q->free = skb;
}

static void pkt_drop(void *ctx, struct sk_buff *skb,
		     const struct codel_vars *vars, codel_time_t now)
{
	struct fifo *q = ctx;

	(void)vars;
	(void)now;
	q->drops++;
	pkt_free(q, skb);
}

static bool pkt_set_ce(struct sk_buff *skb)
{
	(void)skb;
	return false;
}

static int pkt_dsfield(struct sk_buff *skb)
{
	(void)skb;
	return 0;
}

static void pkt_event(void *ctx, enum codel_event ev,
		      const struct codel_vars *vars, codel_time_t now)
{
	(void)ctx;
	(void)ev;
	(void)vars;
	(void)now;
}

static const struct codel_pkt_ops ops = {
	.pop		= fifo_pop,
	.len		= pkt_len,
	.enqueue_time	= pkt_time,
	.drop		= pkt_drop,
	.set_ce		= pkt_set_ce,
	.dsfield	= pkt_dsfield,
	.event		= pkt_event,
};

static void fifo_push(struct fifo *q, codel_time_t now)
{
	struct sk_buff *skb = q->free;

	q->free = skb->next;
	skb->next = NULL;
	skb->len = 1514;
	skb->tstamp = now;
	if (q->tail)
		q->tail->next = skb;
	else
		q->head = skb;
	q->tail = skb;
	q->qlen++;
	q->backlog += skb->len;
}

int main(int argc, char **argv)
{
	struct codel_params params;
	struct codel_vars vars;
	struct codel_stats stats = { 0 };
	struct fifo q = { 0 };
	codel_time_t now = 1000;
	unsigned long n, i, delivered = 0;
	int mode, depth;

	if (argc != 3)
		goto usage;
	if (!strcmp(argv[1], "fifo"))
		mode = 0;
	else if (!strcmp(argv[1], "nodrop"))
		mode = 1;
	else if (!strcmp(argv[1], "dropping"))
		mode = 2;
	else
		goto usage;
	n = strtoul(argv[2], NULL, 10);

	for (i = 0; i < POOL; i++)
		pkt_free(&q, &pool[i]);
	codel_params_init(&params, 1514);
	codel_vars_init(&vars);
	/* nodrop: 2 queued, 1 unit apart; dropping: 1000 queued, old. */
	depth = mode == 2 ? 1000 : 2;
	for (i = 0; i < (unsigned long)depth; i++)
		fifo_push(&q, mode == 2 ? 0 : now);
	if (mode == 2)
		now = codel_us_to_time(1000000);	/* sojourn 1 s */

	for (i = 0; i < n; i++) {
		struct sk_buff *skb;

		while (q.qlen < (u32)depth)
			fifo_push(&q, mode == 2 ? now - codel_us_to_time(500000) : now);
		skb = fifo_pop(&q);
		if (mode)
			skb = codel_serve(&q, skb, now, &q.backlog, &params,
					  &vars, &stats, &ops);
		if (skb) {
			delivered++;
			pkt_free(&q, skb);
		}
		now += mode == 2 ? 10 : 1;
	}
	/* Print the counters, or the compiler drops their updates as dead. */
	printf("mode %s: %lu pairs, %lu delivered, %u dropped, dropping %d, "
	       "ok_to_drop %llu, dequeue_calls %llu\n", argv[1], n, delivered,
	       q.drops, vars.dropping, (unsigned long long)stats.ok_to_drop,
	       (unsigned long long)stats.dequeue_calls);
#ifdef CODEL_HIST_BUCKETS
	for (i = 0; i < CODEL_HIST_BUCKETS; i++)
		printf("%s%llu", i ? " " : "sojourn histogram: ",
		       (unsigned long long)stats.sojourn_hist[i]);
	printf("\n");
#endif
	return 0;
usage:
	fprintf(stderr, "usage: codel-cost fifo|nodrop|dropping N\n");
	return 2;
}
