// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * fq-cache: the memory the per-packet path touches, ours against the
 * kernel's own sch_fq_codel.c.  Linked with the objects of the fq_codel
 * differential (tests/fqdiff: each sch_fq_codel.c compiled unchanged over
 * fqshim.h), it runs one side at a time over a steady load: FLOWS active
 * flows of the default table of 1024, each holding DEPTH packets, one
 * enqueue and one dequeue a step, the flows taken round robin, the clock
 * 1 us a step (no sojourn reaches the target: no drop, no CoDel state).
 * Run it under callgrind with the cache simulator, collecting only inside
 * enqueue and dequeue (bench/host/fq-cache.sh): what those two miss per
 * packet, D1 and LL, is the qdiscs' own, the harness's work outside them
 * not counted.
 *
 * Usage: fq-cache ref|ours STEPS FLOWS DEPTH
 */
#include <stdio.h>

#include "fqshim.h"
#include "fqdiff.h"

static struct net_device dev = { .mtu = 1500, .hard_header_len = 14 };

/* A hash that the flow table (reciprocal_scale over 1024) files in @flow. */
static u32 hash_of(u32 flow)
{
	return flow << 22;
}

static void enqueue(struct Qdisc *sch, u32 id, u32 flow)
{
	struct sk_buff *skb = calloc(1, sizeof(*skb)), *to_free = NULL, *next;

	if (!skb)
		abort();
	skb->id = id;
	skb->len = 1514;
	skb->truesize = 2304;
	skb->hash = hash_of(flow);
	qdisc_skb_cb(skb)->pkt_len = skb->len;
	qdisc_skb_cb(skb)->pkt_segs = 1;
	sch->ops->enqueue(skb, sch, &to_free);
	for (; to_free; to_free = next) {
		next = to_free->next;
		free(to_free);
	}
	fqshim_log_reset();
}

static int dequeue(struct Qdisc *sch)
{
	struct sk_buff *skb = sch->ops->dequeue(sch);

	fqshim_log_reset();
	if (!skb)
		return 0;
	free(skb);
	return 1;
}

int main(int argc, char **argv)
{
	struct netlink_ext_ack ext = { 0 };
	unsigned long steps, flows, depth, i, sent = 0;
	struct Qdisc_ops *ops;
	struct Qdisc *sch;
	u32 id = 0, drops;

	if (argc != 5 || (strcmp(argv[1], "ref") && strcmp(argv[1], "ours"))) {
		fprintf(stderr, "usage: fq-cache ref|ours STEPS FLOWS DEPTH\n");
		return 2;
	}
	steps = strtoul(argv[2], NULL, 0);
	flows = strtoul(argv[3], NULL, 0);
	depth = strtoul(argv[4], NULL, 0);
	if (!flows || flows > 1024 || !depth) {
		fprintf(stderr, "fq-cache: FLOWS 1..1024, DEPTH 1 or more\n");
		return 2;
	}
	if (!strcmp(argv[1], "ref") ? ref_init() : ours_init()) {
		fprintf(stderr, "fq-cache: the qdisc did not register\n");
		return 2;
	}
	ops = fqshim_ops(!strcmp(argv[1], "ref") ? "fq_codel" : "fq_codel_ext");
	if (!ops) {
		fprintf(stderr, "fq-cache: no qdisc registered\n");
		return 2;
	}
	sch = calloc(1, sizeof(*sch) + ops->priv_size);
	if (!sch)
		abort();
	sch->ops = ops;
	sch->dequeue = ops->dequeue;
	sch->dev = &dev;
	sch->handle = 0x10000;
	sch->limit = 10240;
	if (ops->init(sch, NULL, &ext)) {
		fprintf(stderr, "fq-cache: init failed\n");
		return 2;
	}
	/* DEPTH packets in each of FLOWS flows, then one in, one out. */
	for (i = 0; i < flows * depth; i++)
		enqueue(sch, id++, i % flows);
	for (i = 0; i < steps; i++) {
		fqshim_now_ns += 1000;
		enqueue(sch, id++, (flows * depth + i) % flows);
		sent += dequeue(sch);
	}
	drops = sch->qstats.drops;
	printf("fq-cache %s: %lu steps, %lu flows x %lu packets, %lu delivered, qlen %u, drops %u\n",
	       argv[1], steps, flows, depth, sent, sch->q.qlen, drops);
	ops->reset(sch);
	ops->destroy(sch);
	free(sch);
	return sent == steps && !drops ? 0 : 1;
}
