// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * fq-diff: a kernel's own net/sched/sch_fq_codel.c (the reference) and our
 * sch_fq_codel.c, both compiled unchanged over fqshim.h, fed the same
 * random traces with the same clock: enqueues from many flows (some
 * classified by skb->priority, some charged to a socket), dequeues as a
 * parent makes them, peeks, changes of limit, memory_limit, quantum,
 * target, interval, ecn and ce_threshold, and resets.  After every event
 * the two must agree on what it returned, which packet left (and its ECN
 * bits), which packets were freed and in what order, what the parents
 * were told, and on the whole state: every counter, every active flow in
 * service order with its deficit and CoDel state, the xstats.  Ours' own
 * histograms (the qdisc's, and the flows' summed) must count exactly the
 * packets it delivered.
 *
 * Documented deltas (docs/fq_codel.md): ours counts the packets a limit
 * trim drops in its drops counter (the kernel's do not count them), so in
 * a change event ours' drops grow by every packet freed.  With -P (for
 * 6.12.95) only each event's totals reported to the parents are compared:
 * that kernel's fq_codel peeks with qdisc_peek_dequeued(), which reports a
 * peek's drops before it stashes the peeked packet (ours after), and its
 * limit trim reports each packet in the next dequeue's report.
 *
 * Usage: fq-diff [-s SEED] [-t TRACES] [-e EVENTS] [-P] [-x peek-order] [-v]
 * -x peek-order runs the scripted trace that shows the 6.12.95 difference
 * and exits 1 if the reports differ (0 if they do not).
 */
#include <stdio.h>
#include <unistd.h>

#include "fqshim.h"
#include "fqdiff.h"

struct side {
	const char		*name;
	unsigned long		delivered;	/* served: dequeued, or stashed by a peek */
	struct Qdisc_ops	*ops;
	struct Qdisc		*sch;
	void			(*state)(struct Qdisc *sch, struct fqdiff_state *st);
	char			out[1 << 16];
};

static struct net_device dev = { .mtu = 1500, .hard_header_len = 14 };
static bool verbose, report_totals;
static u32 rng_state;

static u32 rnd(void)
{
	/* xorshift32: the traces must be the same on every machine. */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static u32 pick(const u32 *v, unsigned int n)
{
	return v[rnd() % n];
}

#define PICK(a)	pick(a, ARRAY_SIZE(a))

/* --- options as netlink attributes --------------------------------------- */

struct opts {
	struct nlattr	hdr;
	char		buf[256];
	int		len;
};

static void opt_u32(struct opts *o, int type, u32 v)
{
	struct nlattr *a = (struct nlattr *)(o->buf + o->len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + 4;
	memcpy(nla_data(a), &v, 4);
	o->len += NLA_ALIGN(a->nla_len);
}

static void opt_u8(struct opts *o, int type, u8 v)
{
	struct nlattr *a = (struct nlattr *)(o->buf + o->len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + 1;
	memset(nla_data(a), 0, 4);
	memcpy(nla_data(a), &v, 1);
	o->len += NLA_ALIGN(a->nla_len);
}

static struct nlattr *opt_done(struct opts *o)
{
	o->hdr.nla_type = TCA_OPTIONS;
	o->hdr.nla_len = NLA_HDRLEN + o->len;
	return &o->hdr;
}

static void opt_desc(char *d, size_t n, const struct opts *o)
{
	const struct nlattr *a;
	int rem, k = 0;

	d[0] = '\0';
	nla_for_each_attr(a, (const struct nlattr *)o->buf, o->len, rem)
		k += snprintf(d + k, n - k, " %d=%u", nla_type(a),
			      nla_len(a) == 1 ? nla_get_u8(a) : nla_get_u32(a));
}

/* Random settings for change(): only values both accept. */
static void random_change(struct opts *o, bool at_init)
{
	static const u32 limits[] = { 4, 16, 64, 200, 1000, 10240 };
	static const u32 quanta[] = { 256, 300, 1000, 1514, 3028 };
	static const u32 batches[] = { 1, 2, 8, 64 };
	static const u32 memory[] = { 6000, 20000, 100000, 1U << 25 };
	static const u32 targets[] = { 1, 500, 1000, 5000, 20000 };
	static const u32 intervals[] = { 2, 1000, 10000, 100000 };
	static const u32 flows[] = { 1, 2, 3, 8, 64, 1024 };
	static const u32 ce[] = { 0, 1000, 3000 };

	o->len = 0;
	if (at_init || rnd() % 3 == 0)
		opt_u32(o, TCA_FQ_CODEL_LIMIT, PICK(limits));
	if (at_init)
		opt_u32(o, TCA_FQ_CODEL_FLOWS, PICK(flows));
	if (rnd() % 3 == 0)
		opt_u32(o, TCA_FQ_CODEL_QUANTUM, PICK(quanta));
	if (rnd() % 3 == 0)
		opt_u32(o, TCA_FQ_CODEL_DROP_BATCH_SIZE, PICK(batches));
	if (rnd() % 3 == 0)
		opt_u32(o, TCA_FQ_CODEL_MEMORY_LIMIT, PICK(memory));
	if (at_init || rnd() % 3 == 0)
		opt_u32(o, TCA_FQ_CODEL_TARGET, PICK(targets));
	if (at_init || rnd() % 3 == 0)
		opt_u32(o, TCA_FQ_CODEL_INTERVAL, PICK(intervals));
	if (rnd() % 3 == 0)
		opt_u32(o, TCA_FQ_CODEL_ECN, rnd() & 1);
	if (rnd() % 4 == 0)
		opt_u32(o, TCA_FQ_CODEL_CE_THRESHOLD, PICK(ce));
	if (rnd() % 6 == 0) {
		/* The L4S selector (ECT(1) under mask 3), or none. */
		bool on = rnd() & 1;

		opt_u8(o, TCA_FQ_CODEL_CE_THRESHOLD_MASK, on ? 3 : 0);
		opt_u8(o, TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR, on ? 1 : 0);
	}
}

/* --- the two sides ------------------------------------------------------- */

static struct side ref = { .name = "ref", .state = ref_state };
static struct side ours = { .name = "ours", .state = ours_state };

static int side_new(struct side *s, const char *id, struct opts *o)
{
	struct netlink_ext_ack ext = { 0 };

	s->ops = fqshim_ops(id);
	if (!s->ops) {
		fprintf(stderr, "fq-diff: no qdisc %s registered\n", id);
		exit(2);
	}
	s->sch = calloc(1, sizeof(*s->sch) + s->ops->priv_size);
	s->sch->ops = s->ops;
	s->sch->dequeue = s->ops->dequeue;
	s->sch->dev = &dev;
	s->sch->handle = 0x10000;
	s->delivered = 0;
	return s->ops->init(s->sch, opt_done(o), &ext);
}

static void side_free(struct side *s)
{
	struct sk_buff *skb;

	s->ops->reset(s->sch);
	while ((skb = __skb_dequeue(&s->sch->gso_skb)))
		free(skb);
	s->ops->destroy(s->sch);
	free(s->sch);
}

/* What a side's event printed, plus the shim's log of it. */
static void side_out(struct side *s, const char *what)
{
	snprintf(s->out, sizeof(s->out), "%s%s", what, fqshim_log);
	fqshim_log_reset();
}

struct pkt {
	u32	id, len, truesize, hash, priority;
	u8	dsfield;
	bool	wmem;
};

static void side_enqueue(struct side *s, const struct pkt *p)
{
	struct sk_buff *skb = calloc(1, sizeof(*skb)), *to_free = NULL, *next;
	char what[64];
	int ret;

	skb->id = p->id;
	skb->len = p->len;
	skb->truesize = p->truesize;
	skb->hash = p->hash;
	skb->priority = p->priority;
	skb->dsfield = p->dsfield;
	if (p->wmem)
		skb->destructor = sock_wfree;
	qdisc_skb_cb(skb)->pkt_len = p->len;
	qdisc_skb_cb(skb)->pkt_segs = 1;
	ret = s->ops->enqueue(skb, s->sch, &to_free);
	for (; to_free; to_free = next) {
		next = to_free->next;
		fqshim_free(to_free, "to_free");
	}
	snprintf(what, sizeof(what), "enqueue %u: %#x", p->id, ret);
	side_out(s, what);
}

/* As a parent dequeues: the packet it peeked first (qdisc_dequeue_peeked). */
static void side_dequeue(struct side *s)
{
	struct sk_buff *skb = __skb_dequeue(&s->sch->gso_skb);
	char what[64];

	if (skb) {
		/* Served, and counted, by the peek that stashed it. */
		s->sch->q.qlen--;
		qdisc_qstats_backlog_dec(s->sch, skb);
	} else {
		skb = s->ops->dequeue(s->sch);
		s->delivered += skb != NULL;
	}
	if (skb) {
		snprintf(what, sizeof(what), "dequeue: %u ds %#x", skb->id,
			 skb->dsfield);
	}
	else
		snprintf(what, sizeof(what), "dequeue: none");
	free(skb);
	side_out(s, what);
}

static void side_peek(struct side *s)
{
	bool stashed = skb_queue_len(&s->sch->gso_skb);
	struct sk_buff *skb = s->ops->peek(s->sch);
	char what[64];

	s->delivered += skb && !stashed;
	snprintf(what, sizeof(what), "peek: %d", skb ? (int)skb->id : -1);
	side_out(s, what);
}

static void side_change(struct side *s, struct opts *o)
{
	struct netlink_ext_ack ext = { 0 };
	char what[64];
	int ret;

	/*
	 * A trim takes a stashed packet first; it had left its flow, and
	 * stays delivered (docs/fq_codel.md).
	 */
	ret = s->ops->change(s->sch, opt_done(o), &ext);
	snprintf(what, sizeof(what), "change: %d", ret);
	side_out(s, what);
}

/* qdisc_reset(): the qdisc's reset, then the core's purge. */
static void side_reset(struct side *s)
{
	struct sk_buff *skb;

	s->ops->reset(s->sch);
	/* A peeked packet was served (and counted) by its peek. */
	while ((skb = __skb_dequeue(&s->sch->gso_skb)))
		fqshim_free(skb, "purge");
	s->sch->q.qlen = 0;
	s->sch->qstats.backlog = 0;
	side_out(s, "reset");
}

/* The first sizeof(struct tc_fq_codel_xstats) bytes of the xstats. */
static void side_xstats(struct side *s, struct tc_fq_codel_xstats *x)
{
	struct {
		int	room;
		char	buf[512];
	} d = { .room = sizeof(d.buf) };

	s->ops->dump_stats(s->sch, (struct gnet_dump *)&d);
	memcpy(x, d.buf, sizeof(*x));
}

/* --- comparing ------------------------------------------------------------ */

/*
 * -P: each report dropped from the output, their sum appended: the
 * parents' totals for the event, not when within it they were told.
 */
static void sum_reports(char *s)
{
	long pkts = 0, bytes = 0;
	char *p;

	while ((p = strstr(s, " report "))) {
		char *e;
		long n, b;

		n = strtol(p + 8, &e, 10);
		b = strtol(e + 1, &e, 10);
		e = strstr(e, " at qlen ") + 9;
		while (*e >= '0' && *e <= '9')
			e++;
		pkts += n;
		bytes += b;
		memmove(p, e, strlen(e) + 1);
	}
	if (pkts || bytes)
		sprintf(s + strlen(s), " reports %ld/%ld", pkts, bytes);
}

static unsigned int count_frees(const char *s)
{
	unsigned int n = 0;

	while ((s = strstr(s, " free ")))
		n++, s++;
	return n;
}

static void print_state(const char *name, const struct fqdiff_state *st)
{
	unsigned int i;

	printf("#   %s: qlen %u backlog %u drops %u mem %u maxpacket %u ecn %u ce %u over %u/%u newflows %u gso %u lists %u+%u\n",
	       name, st->qlen, st->backlog, st->drops, st->memory_usage,
	       st->maxpacket, st->ecn_mark, st->ce_mark, st->drop_overlimit,
	       st->drop_overmemory, st->new_flow_count, st->gso_qlen,
	       st->n_new, st->n_old);
	for (i = 0; i < st->n_new + st->n_old && i < FQDIFF_MAX_ACTIVE; i++) {
		const struct fqdiff_flow *f = &st->flows[i];

		printf("#     flow %u: %u pkts %u B deficit %d count %u/%u fat %u next %u ldelay %u inv %u%s\n",
		       f->idx, f->qlen, f->backlog, f->deficit, f->count,
		       f->lastcount, f->first_above_time, f->drop_next,
		       f->ldelay, f->rec_inv_sqrt, f->dropping ? " dropping" : "");
	}
}

struct stats {
	unsigned long	events, enqueues, dequeues, peeks, changes, resets;
	unsigned long	delivered, freed, marked, batch_drops, reports;
};

/* Compare the last event's outputs and both states; 0 when equal. */
static int compare(const char *event, bool change, u32 ref_drops0,
		   u32 ours_drops0, struct stats *n)
{
	struct fqdiff_state a, b;
	struct tc_fq_codel_xstats xa, xb;

	n->freed += count_frees(ref.out);
	n->reports += strstr(ref.out, " report ") != NULL;
	if (report_totals) {
		sum_reports(ref.out);
		sum_reports(ours.out);
	}
	ref.state(ref.sch, &a);
	ours.state(ours.sch, &b);
	side_xstats(&ref, &xa);
	side_xstats(&ours, &xb);
	if (strstr(ref.out, " ds 0x3"))
		n->marked++;
	if (strncmp(ref.out, "dequeue: ", 9) == 0 && strcmp(ref.out, "dequeue: none"))
		n->delivered++;
	if (strncmp(ref.out, "enqueue", 7) == 0 && strstr(ref.out, " free "))
		n->batch_drops++;
	/*
	 * A trim's drops: the kernel's count only CoDel's, ours every packet
	 * freed.  Then the rest of the state must be equal.
	 */
	if (change) {
		u32 want = ours_drops0 + count_frees(ref.out);

		if (b.drops != want) {
			printf("# %s: ours counted %u drops in a change, want %u (every packet freed)\n",
			       event, b.drops - ours_drops0, want - ours_drops0);
			return 1;
		}
		b.drops = a.drops;
	}
	if (strcmp(ref.out, ours.out) || memcmp(&a, &b, sizeof(a)) ||
	    memcmp(&xa, &xb, sizeof(xa))) {
		printf("# DIFFERENT after %s\n#   ref:  %s\n#   ours: %s\n",
		       event, ref.out, ours.out);
		print_state("ref", &a);
		print_state("ours", &b);
		if (memcmp(&xa, &xb, sizeof(xa)))
			printf("#   xstats differ\n");
		return 1;
	}
	{
		uint64_t hq, hf;

		ours_hist_totals(ours.sch, &hq, &hf);
		if (hq != ours.delivered || hf != ours.delivered) {
			printf("# after %s: ours' histograms count %llu (qdisc) and %llu (flows), delivered %lu\n",
			       event, (unsigned long long)hq,
			       (unsigned long long)hf, ours.delivered);
			return 1;
		}
	}
	if (verbose)
		printf("# %s -> %s\n", event, ref.out);
	return 0;
}

/*
 * One trace: both qdiscs created with the same random settings, then
 * EVENTS random events.  The flows are few or many, their hashes spread
 * or colliding; the clock advances in steps from 0 to 4 ms.  Returns the
 * number of differences (0 or 1: a trace stops at its first).
 */
static int run_trace(u32 seed, unsigned long events, struct stats *n)
{
	static const u32 nflows[] = { 1, 2, 5, 20, 200 };
	static const u32 lens[] = { 64, 100, 576, 1000, 1514 };
	struct opts o;
	u32 id = 0, flows, t_us = 1000000, ref_drops0, ours_drops0;
	char event[320], desc[200];
	unsigned long e;
	int ra, rb;

	rng_state = seed * 2654435761U + 1;
	flows = PICK(nflows);
	random_change(&o, true);
	opt_desc(desc, sizeof(desc), &o);
	fqshim_now_ns = (u64)t_us * 1000;
	ra = side_new(&ref, "fq_codel", &o);
	rb = side_new(&ours, "fq_codel_ext", &o);
	fqshim_log_reset();
	if (ra || rb) {
		printf("# seed %u: init %d vs %d with%s\n", seed, ra, rb, desc);
		return 1;
	}
	if (verbose)
		printf("# seed %u: %u flows, options%s\n", seed, flows, desc);
	for (e = 0; e < events; e++) {
		u32 r = rnd() % 100;
		bool change = false;

		t_us += rnd() % 4 ? rnd() % 400 : rnd() % 4000;
		fqshim_now_ns = (u64)t_us * 1000 + rnd() % 1000;
		ref_drops0 = ref.sch->qstats.drops;
		ours_drops0 = ours.sch->qstats.drops;
		if (r < 55) {
			struct pkt p = {
				.id = ++id,
				.len = PICK(lens),
				.dsfield = rnd() & 3,
				.wmem = rnd() % 4 == 0,
			};
			u32 f = rnd() % flows;

			/* Colliding hashes now and then: flows share a slot. */
			p.hash = rnd() % 8 ? f * 2654435761U : rnd();
			p.truesize = p.len + 256 + rnd() % 512;
			if (rnd() % 10 == 0)
				p.priority = 0x10000 | (rnd() % 1100);
			snprintf(event, sizeof(event), "event %lu: enqueue %u (flow %u, %u B)",
				 e, p.id, f, p.len);
			side_enqueue(&ref, &p);
			side_enqueue(&ours, &p);
			n->enqueues++;
		} else if (r < 92) {
			snprintf(event, sizeof(event), "event %lu: dequeue", e);
			side_dequeue(&ref);
			side_dequeue(&ours);
			n->dequeues++;
		} else if (r < 97) {
			snprintf(event, sizeof(event), "event %lu: peek", e);
			side_peek(&ref);
			side_peek(&ours);
			n->peeks++;
		} else if (r < 99 || e % 2) {
			random_change(&o, false);
			opt_desc(desc, sizeof(desc), &o);
			snprintf(event, sizeof(event), "event %lu: change%s", e, desc);
			side_change(&ref, &o);
			side_change(&ours, &o);
			change = true;
			n->changes++;
		} else {
			snprintf(event, sizeof(event), "event %lu: reset", e);
			side_reset(&ref);
			side_reset(&ours);
			n->resets++;
		}
		n->events++;
		if (compare(event, change, ref_drops0, ours_drops0, n)) {
			printf("# seed %u, %u flows, options at creation%s\n",
			       seed, flows, desc);
			side_free(&ref);
			side_free(&ours);
			return 1;
		}
		/* Ours' extra trim drops checked: level the counters. */
		ours.sch->qstats.drops = ref.sch->qstats.drops;
	}
	side_free(&ref);
	side_free(&ours);
	fqshim_log_reset();
	return 0;
}

/*
 * 6.12.95's peek: one flow of 1514, 1514 and 3000 bytes under CoDel with
 * target 1us, interval 2us.  A dequeue delivers the first and starts the
 * interval; a peek then drops the second (3000 bytes stay, over the MTU
 * guard) and returns the last.  That kernel tells the parents about the
 * drop while the qdisc holds nothing (qlen 0), ours once the peeked packet
 * is stashed (qlen 1): -x peek-order exits 1 when the two differ so.
 */
static int script_peek_order(void)
{
	static const u32 lens[] = { 1514, 1514, 3000 };
	struct opts o = { 0 };
	struct pkt p = { .hash = 7 };
	unsigned int i;
	int differ;

	opt_u32(&o, TCA_FQ_CODEL_TARGET, 1);
	opt_u32(&o, TCA_FQ_CODEL_INTERVAL, 2);
	opt_u32(&o, TCA_FQ_CODEL_ECN, 0);
	fqshim_now_ns = 1000000000ULL;
	if (side_new(&ref, "fq_codel", &o) || side_new(&ours, "fq_codel_ext", &o))
		return 2;
	fqshim_log_reset();
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		p.id = i + 1;
		p.len = lens[i];
		p.truesize = lens[i] + 768;
		side_enqueue(&ref, &p);
		side_enqueue(&ours, &p);
	}
	fqshim_now_ns += 10000000ULL;
	side_dequeue(&ref);
	side_dequeue(&ours);
	fqshim_now_ns += 10000000ULL;
	side_peek(&ref);
	side_peek(&ours);
	differ = strcmp(ref.out, ours.out) != 0;
	printf("# script peek-order: ref %s; ours %s: %s\n", ref.out, ours.out,
	       differ ? "DIFFERENT" : "equal");
	side_free(&ref);
	side_free(&ours);
	return differ;
}

int main(int argc, char **argv)
{
	unsigned long traces = 64, events = 5000, t;
	struct stats n = { 0 };
	const char *script = NULL;
	u32 seed = 1;
	int c, bad = 0;

	while ((c = getopt(argc, argv, "s:t:e:Px:v")) != -1) {
		switch (c) {
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 't': traces = strtoul(optarg, NULL, 0); break;
		case 'e': events = strtoul(optarg, NULL, 0); break;
		case 'P': report_totals = true; break;
		case 'x': script = optarg; break;
		case 'v': verbose = true; break;
		default: return 2;
		}
	}
	if (ref_init() || ours_init()) {
		fprintf(stderr, "fq-diff: a side did not register\n");
		return 2;
	}
	if (script) {
		if (strcmp(script, "peek-order"))
			return 2;
		return script_peek_order();
	}
	for (t = 0; t < traces; t++)
		bad += run_trace(seed + t, events, &n);
	printf("# seeds %u..%lu: %lu traces, %lu events, %d differences\n",
	       seed, seed + traces - 1, traces, n.events, bad);
	printf("# exercised: %lu enqueues (%lu with a batch drop), %lu dequeues (%lu delivered, %lu CE), %lu peeks, %lu changes, %lu resets; %lu packets freed, %lu events reported to the parents\n",
	       n.enqueues, n.batch_drops, n.dequeues, n.delivered, n.marked,
	       n.peeks, n.changes, n.resets, n.freed, n.reports);
	return bad ? 1 : 0;
}
