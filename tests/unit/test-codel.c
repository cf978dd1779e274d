// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * Host unit tests of codel.h, in simulated time, over the same pktq glue as
 * the simulator.  Every number asserted here is derived in the comment next
 * to it from RFC 8289 and the 1024 ns clock, not read back from a run.
 */
#include <math.h>
#include <string.h>

#include "tests/unit/tap.h"
#include "user/pktq.h"

#define US	1000ULL
#define MS	1000000ULL
#define MAX_DROPS 4096

/* Outcome of a scripted run. */
struct run {
	u32	drops, delivered, ecn_marked, ce_marked, overlimit;
	u32	ce_delivered;	/* delivered carrying CE: a count codel.h does not make */
	u64	drop_ns[MAX_DROPS];
};

/*
 * Drive a queue: @prefill packets at @base, then one arrival every @arr_ns
 * (0: none) and one dequeue every @svc_ns from @base + @first_deq until
 * @base + @end.  An arrival due at the same instant as a dequeue goes
 * first.  Times are nanoseconds; CoDel sees them >> 10 as the kernel does.
 */
static void drive(struct pktq *q, struct run *r, u64 base, u32 prefill,
		  u64 arr_ns, u64 svc_ns, u64 first_deq, u64 end, u32 len,
		  u8 ecn)
{
	u64 next_arr = arr_ns ? 0 : UINT64_MAX, next_deq = first_deq;

	memset(r, 0, sizeof(*r));
	for (u32 i = 0; i < prefill; i++)
		if (!pktq_enqueue(q, len, ecn, codel_ns_to_time(base)))
			r->overlimit++;
	while (next_deq <= end) {
		if (next_arr <= next_deq) {
			if (!pktq_enqueue(q, len, ecn, codel_ns_to_time(base + next_arr)))
				r->overlimit++;
			next_arr += arr_ns;
			continue;
		}
		u32 ecn_before = q->stats.ecn_mark, ce_before = q->stats.ce_mark;
		struct sk_buff *skb = pktq_dequeue(q, codel_ns_to_time(base + next_deq));

		for (struct sk_buff *d = q->dropped; d; d = d->next) {
			if (r->drops < MAX_DROPS)
				r->drop_ns[r->drops] = next_deq;
			r->drops++;
		}
		pktq_free_dropped(q);
		if (skb) {
			r->delivered++;
			r->ecn_marked += q->stats.ecn_mark != ecn_before;
			r->ce_marked += q->stats.ce_mark != ce_before;
			r->ce_delivered += skb->ecn == ECN_CE;
			free(skb);
		}
		next_deq += svc_ns;
	}
}

static void setup(struct pktq *q)
{
	pktq_init(q, 100000, 1514);
}

/*
 * Newton's method, one step per increment of count as the qdisc runs it,
 * from 1.0 at count 1.  Measured bounds (Q0.16 storage): count 2 is off by
 * 29.3% (the first step from 1.0 lands on 0.5), counts 3..15 within 2.6%,
 * counts 16..100000 within 0.49% (where 2^-16 quantisation dominates).
 */
static void newton_step_tracks_inv_sqrt(void)
{
	struct codel_vars v = { .count = 1, .rec_inv_sqrt = REC_INV_SQRT_ONE };

	for (u32 c = 2; c <= 100000; c++) {
		double exact = 1.0 / sqrt(c), got, rel;

		v.count = c;
		codel_newton_step(&v);
		got = v.rec_inv_sqrt / 65536.0;
		rel = fabs(got - exact) / exact;
		if (c == 2)
			EXPECT(rel < 0.293, "count 2: %f vs %f", got, exact);
		else if (c < 16)
			EXPECT(rel < 0.026, "count %u: %f vs %f", c, got, exact);
		else if (rel >= 0.0049) {
			EXPECT(rel < 0.0049, "count %u: %f vs %f", c, got, exact);
			return;
		}
	}
}

/* Re-entry resumes at a smaller count; one step from below converges. */
static void newton_step_after_count_reset(void)
{
	struct codel_vars v = { .count = 1, .rec_inv_sqrt = REC_INV_SQRT_ONE };

	for (v.count = 2; v.count <= 400; v.count++)
		codel_newton_step(&v);
	v.count = 100;
	for (int i = 0; i < 6; i++)
		codel_newton_step(&v);
	EXPECT(fabs(v.rec_inv_sqrt / 65536.0 - 0.1) < 0.001, "%u",
	       v.rec_inv_sqrt);
}

/* control_law(t) - t = interval / sqrt(count), within the Newton bound. */
static void control_law_matches_interval_over_sqrt(void)
{
	static const u32 intervals_us[] = { 100, 5000, 100000, 1000000, 100000000 };
	struct codel_vars v = { .count = 1, .rec_inv_sqrt = REC_INV_SQRT_ONE };

	for (v.count = 2; v.count <= 10000; v.count++) {
		codel_newton_step(&v);
		if (v.count < 16)
			continue;
		for (unsigned int i = 0; i < 5; i++) {
			codel_time_t iv = codel_us_to_time(intervals_us[i]);
			codel_time_t t = 0xfffff000U;	/* also across the wrap */
			double exact = iv / sqrt(v.count);
			double got = (codel_time_t)(codel_control_law(t, iv, v.rec_inv_sqrt) - t);

			if (fabs(got - exact) > exact * 0.0049 + 1.0) {
				EXPECT(0, "interval %u us count %u: %f vs %f",
				       intervals_us[i], v.count, got, exact);
				return;
			}
		}
	}
	/* count 1 is interval itself, less one part in 65536 (Q0.16 of 1.0). */
	EXPECT(codel_control_law(10, 97656, REC_INV_SQRT_ONE) == 10 + 97654,
	       "%u", codel_control_law(10, 97656, REC_INV_SQRT_ONE));
}

static void time_conversions(void)
{
	/* 5 ms = 5e6 ns = 4882.8 units, truncated; back: 4882*1024 ns */
	EXPECT(codel_us_to_time(5000) == 4882, "%u", codel_us_to_time(5000));
	EXPECT(codel_time_to_us(4882) == 4999, "%u", codel_time_to_us(4882));
	EXPECT(codel_us_to_time(100000) == 97656, "%u", codel_us_to_time(100000));
	EXPECT(codel_us_to_time(CODEL_TIME_MAX_US) == 97656250, "max");
	/* 16 * the largest interval must stay inside the signed window */
	EXPECT(16ULL * codel_us_to_time(CODEL_TIME_MAX_US) < 0x80000000ULL, "16x");
	EXPECT(codel_time_after(5, 0xfffffff0U), "wrap after");
	EXPECT(codel_time_before(0xfffffff0U, 5), "wrap before");
	EXPECT(codel_time_after_eq(7, 7) && !codel_time_after(7, 7), "eq");
}

/*
 * A standing queue of 4 ms (below the 5 ms target) is never touched: three
 * packets ahead of a 1/ms arrival stream served at 1/ms.
 */
static void no_drop_below_target(void)
{
	static struct run r;
	struct pktq q;

	setup(&q);
	drive(&q, &r, 0, 3, 1 * MS, 1 * MS, 1 * MS, 10000 * MS, 1500, ECN_NOT_ECT);
	EXPECT(r.drops == 0, "%u drops", r.drops);
	EXPECT(!q.vars.dropping && q.stats.dropping_entries == 0, "state");
	EXPECT(codel_time_to_us(q.vars.ldelay) < 5000, "ldelay %u",
	       codel_time_to_us(q.vars.ldelay));
	pktq_destroy(&q);
}

/*
 * 200 packets at t=0, one dequeue per ms.  Sojourn reaches target (4882
 * units) at the 5 ms dequeue, so first_above_time = T(5 ms) + 97656 =
 * 102538.  The first dequeue strictly after that is at 105 ms (T = 102539):
 * no drop at 104 ms, exactly one drop at 105 ms.
 */
static void first_drop_after_a_full_interval(void)
{
	static struct run r;
	struct pktq q;

	setup(&q);
	drive(&q, &r, 0, 200, 0, 1 * MS, 1 * MS, 104 * MS, 1500, ECN_NOT_ECT);
	EXPECT(r.drops == 0, "%u drops by 104 ms", r.drops);
	EXPECT(q.vars.first_above_time == 102538, "%u", q.vars.first_above_time);
	drive(&q, &r, 0, 0, 0, 1 * MS, 105 * MS, 105 * MS, 1500, ECN_NOT_ECT);
	EXPECT(r.drops == 1, "%u drops at 105 ms", r.drops);
	EXPECT(q.vars.dropping && q.vars.count == 1 && q.vars.lastcount == 1,
	       "dropping %d count %u", q.vars.dropping, q.vars.count);
	EXPECT(q.stats.ok_to_drop >= 1 && q.stats.dropping_entries == 1, "stats");
	/* next drop due one interval (less 2^-16) later */
	EXPECT(q.vars.drop_next == codel_ns_to_time(105 * MS) + 97654, "%u",
	       q.vars.drop_next);
	pktq_destroy(&q);

	/* "Above for a full interval" is strict: not at T = 102538 itself. */
	setup(&q);
	drive(&q, &r, 0, 200, 0, 1 * MS, 1 * MS, 100 * MS, 1500, ECN_NOT_ECT);
	drive(&q, &r, 0, 0, 0, 1 * MS, 102538 * 1024, 102538 * 1024, 1500, ECN_NOT_ECT);
	EXPECT(r.drops == 0, "dropped at first_above_time");
	drive(&q, &r, 0, 0, 0, 1 * MS, 102539 * 1024, 102539 * 1024, 1500, ECN_NOT_ECT);
	EXPECT(r.drops == 1, "%u drops one unit later", r.drops);
	pktq_destroy(&q);
}

/*
 * In the dropping state the gap after the k-th drop is interval/sqrt(k).
 * A deep queue dequeued every 100 us: for 16 <= k < 200 each measured gap
 * is within the Newton bound (0.49%) plus two 100 us ticks of exact.
 */
static void drop_spacing_follows_inverse_sqrt(void)
{
	static struct run r;
	struct pktq q;

	setup(&q);
	drive(&q, &r, 0, 40000, 0, 100 * US, 100 * US, 3200 * MS, 1500,
	      ECN_NOT_ECT);
	EXPECT(r.drops >= 200, "only %u drops", r.drops);
	for (u32 k = 16; k < 200 && k < r.drops; k++) {
		double gap = (double)(r.drop_ns[k] - r.drop_ns[k - 1]);
		double exact = 100.0 * MS * 1.024 * 97656 / 100000 / sqrt(k);

		if (fabs(gap - exact) > exact * 0.0049 + 200 * US) {
			EXPECT(0, "gap after drop %u: %.0f ns, expected %.0f",
			       k, gap, exact);
			break;
		}
	}
	EXPECT(q.stats.loop_drops == r.drops - 1, "loop %llu",
	       (unsigned long long)q.stats.loop_drops);
	pktq_destroy(&q);
}

/*
 * Arrivals and service both 1/ms with a 30 ms standing queue.  Each drop
 * removes 1 ms of it; CoDel leaves the dropping state once a packet's
 * sojourn is below 5 ms (26 drops: 30 ms down to 4 ms) and then never drops
 * again because the queue stays at 4 ms.
 */
static void leaves_dropping_state_below_target(void)
{
	static struct run r;
	struct pktq q;

	setup(&q);
	drive(&q, &r, 0, 0, 1 * MS, 1 * MS, 30 * MS, 5000 * MS, 1500, ECN_NOT_ECT);
	EXPECT(r.drops == 26, "%u drops", r.drops);
	EXPECT(!q.vars.dropping, "still dropping");
	EXPECT(q.stats.dropping_entries == 1, "%llu entries",
	       (unsigned long long)q.stats.dropping_entries);
	EXPECT(r.drop_ns[25] < 1500 * MS, "last drop at %llu ns",
	       (unsigned long long)r.drop_ns[25]);
	EXPECT(codel_time_to_us(q.vars.ldelay) < 5000, "ldelay %u us",
	       codel_time_to_us(q.vars.ldelay));
	pktq_destroy(&q);
}

/* Put the state machine one dequeue away from (re-)entering dropping. */
static void arm_reentry(struct pktq *q, u32 count, u32 lastcount,
			codel_time_t drop_next, u64 now_ns)
{
	codel_time_t now = codel_ns_to_time(now_ns);

	setup(q);
	for (int i = 0; i < 10; i++)
		pktq_enqueue(q, 1500, ECN_NOT_ECT, now - codel_us_to_time(50000));
	q->vars.count = count;
	q->vars.lastcount = lastcount;
	q->vars.rec_inv_sqrt = (u16)(65536.0 / sqrt(count));
	q->vars.drop_next = drop_next;
	q->vars.first_above_time = now - 1;	/* above target for an interval */
}

/*
 * RFC 8289 section 5.6 as Linux runs it: on re-entry, count resumes at
 * count - lastcount if that is > 1 and the previous drop was due less than
 * 16 intervals ago; otherwise it restarts at 1.
 */
static void reentry_count_rule(void)
{
	static const struct {
		u32 count, lastcount, intervals_ago, want;
	} cases[] = {
		{ 10, 3, 5, 7 },	/* recent: resume at the delta */
		{ 10, 3, 15, 7 },	/* still inside 16 intervals */
		{ 10, 3, 17, 1 },	/* too long ago */
		{ 10, 9, 5, 1 },	/* delta 1: restart */
		{ 4, 4, 1, 1 },		/* delta 0: restart */
	};
	u64 now_ns = 50000 * MS;
	codel_time_t now = codel_ns_to_time(now_ns), iv = codel_us_to_time(100000);

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sk_buff *skb;
		struct pktq q;
		u32 want = cases[i].want;

		arm_reentry(&q, cases[i].count, cases[i].lastcount,
			    now - cases[i].intervals_ago * iv, now_ns);
		skb = pktq_dequeue(&q, now);
		free(skb);
		pktq_free_dropped(&q);
		EXPECT(q.vars.dropping, "case %u: not dropping", i);
		EXPECT(q.vars.count == want && q.vars.lastcount == want,
		       "case %u: count %u lastcount %u, want %u", i,
		       q.vars.count, q.vars.lastcount, want);
		if (want == 1)
			EXPECT(q.vars.drop_next == now + 97654, "case %u: %u", i,
			       q.vars.drop_next - now);
		pktq_destroy(&q);
	}
}

/*
 * A queue that never holds more than one MTU behind the head is never
 * dropped from, however old its packets: two 1514-byte packets, one
 * dequeued and one enqueued every 50 ms (sojourn 50 ms) for 10 s.  The same
 * traffic with a 1000-byte MTU does get drops.
 */
static void mtu_guard(void)
{
	static struct run r;
	struct pktq q;

	setup(&q);
	drive(&q, &r, 0, 0, 50 * MS, 50 * MS, 50 * MS, 10000 * MS, 1514, ECN_NOT_ECT);
	EXPECT(r.drops == 0, "%u drops with backlog == mtu", r.drops);
	EXPECT(q.vars.first_above_time == 0, "timer armed");
	pktq_destroy(&q);

	pktq_init(&q, 100000, 1000);
	drive(&q, &r, 0, 0, 50 * MS, 50 * MS, 50 * MS, 10000 * MS, 1514, ECN_NOT_ECT);
	EXPECT(r.drops > 0, "no drops with backlog > mtu");
	pktq_destroy(&q);
}

/* With ecn on, ECT(0), ECT(1) and CE packets are marked, Not-ECT dropped. */
static void ecn_mark_instead_of_drop(void)
{
	static const struct {
		u8 ecn_on, cp;
		bool marks;
	} cases[] = {
		{ 1, ECN_ECT0, true }, { 1, ECN_ECT1, true }, { 1, ECN_CE, true },
		{ 1, ECN_NOT_ECT, false }, { 0, ECN_ECT0, false },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct run r;
		struct pktq q;

		setup(&q);
		q.params.ecn = cases[i].ecn_on;
		drive(&q, &r, 0, 0, 1 * MS, 1 * MS, 30 * MS, 1000 * MS, 1500,
		      cases[i].cp);
		if (cases[i].marks) {
			EXPECT(r.drops == 0 && r.ecn_marked > 0,
			       "case %u: %u drops %u marks", i, r.drops, r.ecn_marked);
			EXPECT(q.stats.ecn_mark == r.ecn_marked, "case %u", i);
			/* Each mark, at entry or in the loop, as the packets show it. */
			if (cases[i].cp != ECN_CE)
				EXPECT(q.stats.ecn_mark == r.ce_delivered, "case %u: ecn_mark %u, %u CE delivered",
				       i, q.stats.ecn_mark, r.ce_delivered);
		} else {
			EXPECT(r.drops > 0 && r.ecn_marked == 0,
			       "case %u: %u drops %u marks", i, r.drops, r.ecn_marked);
		}
		pktq_destroy(&q);
	}
}

/*
 * ce_threshold 1 ms with a 3 ms standing queue (below target: CoDel itself
 * is idle): every delivered ECT packet is marked, Not-ECT packets are not,
 * and a 0.5 ms queue marks nothing.
 */
static void ce_threshold_marks(void)
{
	static struct run r;
	struct pktq q;

	setup(&q);
	q.params.ce_threshold = codel_us_to_time(1000);
	drive(&q, &r, 0, 0, 1 * MS, 1 * MS, 3 * MS, 1000 * MS, 1500, ECN_ECT1);
	EXPECT(r.drops == 0 && r.delivered > 900, "%u drops", r.drops);
	EXPECT(r.ce_marked == r.delivered && q.stats.ce_mark == r.delivered,
	       "%u of %u marked", r.ce_marked, r.delivered);
	EXPECT(q.stats.ecn_mark == 0, "ecn_mark %u", q.stats.ecn_mark);
	pktq_destroy(&q);

	setup(&q);
	q.params.ce_threshold = codel_us_to_time(1000);
	drive(&q, &r, 0, 0, 1 * MS, 1 * MS, 3 * MS, 1000 * MS, 1500, ECN_NOT_ECT);
	EXPECT(r.ce_marked == 0 && q.stats.ce_mark == 0, "not-ECT marked");
	pktq_destroy(&q);

	setup(&q);
	q.params.ce_threshold = codel_us_to_time(1000);
	drive(&q, &r, 0, 0, 1 * MS, 1 * MS, 500 * US, 1000 * MS, 1500, ECN_ECT0);
	EXPECT(r.ce_marked == 0, "%u marked below threshold", r.ce_marked);
	pktq_destroy(&q);
}

/*
 * The u32 clock wraps every 2^32 * 1024 ns (~73 min).  The same traffic
 * placed so that the wrap falls inside the first interval and inside the
 * dropping state gives exactly the same drops as far from any wrap.  Both
 * bases are whole 1024 ns units, so the truncation to units is the same.
 */
static void clock_wrap_is_invisible(void)
{
	static struct run a, b;
	u64 wrap_ns = (1ULL << 32) * 1024;
	struct pktq q;

	setup(&q);
	drive(&q, &a, 1000 * 1024 * US, 0, 1 * MS, 1 * MS, 30 * MS, 3000 * MS, 1500,
	      ECN_NOT_ECT);
	pktq_destroy(&q);
	for (u64 off = 20 * 1024 * US; off <= 900 * MS; off += 220 * 1024 * US) {
		setup(&q);
		drive(&q, &b, wrap_ns - off, 0, 1 * MS, 1 * MS, 30 * MS,
		      3000 * MS, 1500, ECN_NOT_ECT);
		EXPECT(a.drops == b.drops && a.drops > 0 &&
		       !memcmp(a.drop_ns, b.drop_ns, a.drops * sizeof(u64)),
		       "wrap %llu ms in: %u vs %u drops",
		       (unsigned long long)(off / MS), b.drops, a.drops);
		pktq_destroy(&q);
	}
}

/* Tail drop over limit, counted as overlimit; backlog stays exact. */
static void limit_overflow(void)
{
	struct pktq q;
	u32 over = 0;

	pktq_init(&q, 5, 1514);
	for (int i = 0; i < 7; i++)
		over += !pktq_enqueue(&q, 100 + i, ECN_NOT_ECT, 0);
	EXPECT(over == 2 && q.drop_overlimit == 2, "%u", q.drop_overlimit);
	EXPECT(q.qlen == 5 && q.backlog == 100 + 101 + 102 + 103 + 104,
	       "qlen %u backlog %u", q.qlen, q.backlog);
	free(pktq_dequeue(&q, 1));
	EXPECT(pktq_enqueue(&q, 50, ECN_NOT_ECT, 1) != NULL, "room after dequeue");
	pktq_destroy(&q);
}

/* Empty dequeues leave the dropping state and report nothing. */
static void empty_queue_leaves_dropping(void)
{
	struct pktq q;

	setup(&q);
	q.vars.dropping = true;
	EXPECT(pktq_dequeue(&q, 123) == NULL, "packet from empty queue");
	EXPECT(!q.vars.dropping && q.stats.dequeue_calls == 1, "state");
	pktq_destroy(&q);
}

/*
 * Histogram: each bucket's edges as pkt_sched_codel.h defines them; every
 * delivered packet is counted once, and ops->delivered() is told the
 * bucket it was counted in (fq_codel_ext's per-flow histogram).
 */
static void sojourn_histogram(void)
{
	static const struct { codel_time_t t; u32 b; } edges[] = {
		{ 0, 0 }, { 255, 0 }, { 256, 1 }, { 511, 1 }, { 512, 2 },
		{ 4882, 5 }, { 97656, 9 }, { (1U << 20) - 1, 12 },
		{ 1U << 20, 13 }, { 0xffffffffU, 13 },
	};
	static struct run r;
	struct pktq q;
	u32 total = 0;

	for (unsigned int i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		EXPECT(codel_hist_bucket(edges[i].t) == edges[i].b, "%u -> %lu, want %u",
		       edges[i].t, codel_hist_bucket(edges[i].t), edges[i].b);
	/* A 3 ms standing queue: every packet in bucket 4 ([2048, 4096) units). */
	setup(&q);
	drive(&q, &r, 0, 0, 1 * MS, 1 * MS, 3 * MS, 1000 * MS, 1500, ECN_NOT_ECT);
	for (int b = 0; b < CODEL_HIST_BUCKETS; b++) {
		total += q.stats.sojourn_hist[b];
		EXPECT(q.delivered_hist[b] == q.stats.sojourn_hist[b],
		       "bucket %d: told %llu, counted %llu", b,
		       (unsigned long long)q.delivered_hist[b],
		       (unsigned long long)q.stats.sojourn_hist[b]);
	}
	EXPECT(total == r.delivered, "%u counted, %u delivered", total, r.delivered);
	EXPECT(q.stats.sojourn_hist[4] == r.delivered, "bucket 4 has %llu of %u",
	       (unsigned long long)q.stats.sojourn_hist[4], r.delivered);
	pktq_destroy(&q);
	/* No queue (each packet served as it arrives): all in bucket 0. */
	setup(&q);
	drive(&q, &r, 0, 0, 1 * MS, 1 * MS, 0, 100 * MS, 1500, ECN_NOT_ECT);
	EXPECT(r.delivered > 90 && q.stats.sojourn_hist[0] == r.delivered,
	       "bucket 0 has %llu of %u", (unsigned long long)q.stats.sojourn_hist[0], r.delivered);
	EXPECT(q.delivered_hist[0] == r.delivered, "told bucket 0 %llu times of %u",
	       (unsigned long long)q.delivered_hist[0], r.delivered);
	pktq_destroy(&q);
}

/* L4S selector: mask 0x03 selector 0x01 marks ECT(1) only. */
static void ce_threshold_selector(void)
{
	static const struct { u8 cp; bool marked; } cases[] = {
		{ ECN_ECT1, true }, { ECN_ECT0, false }, { ECN_CE, false },
		{ ECN_NOT_ECT, false },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct run r;
		struct pktq q;

		setup(&q);
		q.params.ce_threshold = codel_us_to_time(1000);
		q.params.ce_threshold_selector = 0x01;
		q.params.ce_threshold_mask = 0x03;
		drive(&q, &r, 0, 0, 1 * MS, 1 * MS, 3 * MS, 500 * MS, 1500, cases[i].cp);
		if (cases[i].marked)
			EXPECT(r.ce_marked == r.delivered && r.delivered > 400,
			       "cp %u: %u of %u marked", cases[i].cp, r.ce_marked, r.delivered);
		else
			EXPECT(r.ce_marked == 0, "cp %u: %u marked", cases[i].cp, r.ce_marked);
		pktq_destroy(&q);
	}
}

/* Events match the counters: drops, entries, exits. */
static void events_match_counters(void)
{
	static struct run r;
	struct pktq q;

	setup(&q);
	drive(&q, &r, 0, 0, 1 * MS, 1 * MS, 30 * MS, 5000 * MS, 1500, ECN_NOT_ECT);
	EXPECT(q.drops_reported == r.drops, "%u drops reported, %u drops",
	       q.drops_reported, r.drops);
	EXPECT(q.events[CODEL_EV_DROPPING_ENTER] == q.stats.dropping_entries &&
	       q.events[CODEL_EV_DROPPING_EXIT] == q.stats.dropping_entries,
	       "enter %u exit %u entries %llu", q.events[CODEL_EV_DROPPING_ENTER],
	       q.events[CODEL_EV_DROPPING_EXIT],
	       (unsigned long long)q.stats.dropping_entries);
	pktq_destroy(&q);
}

/*
 * adaptive_target's estimator at a constant rate.  256 kbit/s: a 1514-byte
 * frame takes 47.3125 ms = 46203 codel units (>> 10, floored); each
 * departure while backlogged closes a window (46203 >= 15625, 16 ms), the
 * first sample is taken as it is.  target = 46203 + 46203 / 2 = 69304
 * (70.97 ms); interval = 97656 + 69304 - 4882 = 162078 (165.97 ms).
 * 10 Mbit/s: 1.2112 ms = 1182 units a frame, 14 frames a window (16548
 * units), 1.5 x 1182 = 1773 < 4882: the configured 5 ms and 100 ms stay.
 */
static void rate_estimate_constant_rate(void)
{
	struct codel_params p;
	struct codel_rate r;
	codel_time_t t = 0xffff0000U;	/* across the wrap, too */
	bool updated = false;

	codel_params_init(&p, 1514);
	codel_rate_init(&r);
	for (int i = 0; i < 4; i++, t += 46203)
		updated = codel_rate_departure(&r, t, 1514, true, 1514);
	EXPECT(updated && r.mtu_time == 46203, "mtu_time %u", r.mtu_time);
	codel_rate_adapt(&r, 4882, 97656, &p);
	EXPECT(p.target == 69304 && p.interval == 162078, "target %u interval %u",
	       p.target, p.interval);

	codel_rate_init(&r);
	for (int i = 0; i < 15; i++, t += 1182)
		codel_rate_departure(&r, t, 1514, true, 1514);
	EXPECT(r.mtu_time == 1182, "mtu_time %u", r.mtu_time);
	codel_rate_adapt(&r, 4882, 97656, &p);
	EXPECT(p.target == 4882 && p.interval == 97656, "target %u interval %u",
	       p.target, p.interval);
}

/*
 * Idle time is not service time: a departure that left the queue empty
 * starts no measurement, however long the next one takes; and a stall of
 * the parent caps at CODEL_TIME_MAX, the largest target in effect, with
 * the interval capped there too.
 */
static void rate_estimate_ignores_idle(void)
{
	struct codel_params p;
	struct codel_rate r;
	codel_time_t t = 1000;

	codel_params_init(&p, 1514);
	codel_rate_init(&r);
	for (int i = 0; i < 100; i++, t += 10000000)	/* ~10 s apart */
		EXPECT(!codel_rate_departure(&r, t, 1514, false, 1514),
		       "departure %d updated the estimate", i);
	EXPECT(r.mtu_time == 0 && r.busy == 0, "mtu_time %u busy %u",
	       r.mtu_time, r.busy);

	/* 256 kbit/s, then 20 s of idle link: unchanged. */
	for (int i = 0; i < 3; i++, t += 46203)
		codel_rate_departure(&r, t, 1514, i < 2, 1514);
	t += 19531250;
	EXPECT(!codel_rate_departure(&r, t, 1514, true, 1514) &&
	       r.mtu_time == 46203, "mtu_time %u", r.mtu_time);

	/* A parent that stops for 2000 s: one capped sample, an eighth. */
	codel_rate_init(&r);
	codel_rate_departure(&r, t, 1514, true, 1514);
	t += 1953125000;
	codel_rate_departure(&r, t, 1514, true, 1514);
	EXPECT(r.mtu_time == CODEL_TIME_MAX, "mtu_time %u", r.mtu_time);
	codel_rate_adapt(&r, 4882, 97656, &p);
	EXPECT(p.target == CODEL_TIME_MAX && p.interval == CODEL_TIME_MAX,
	       "target %u interval %u", p.target, p.interval);
}

/*
 * A step in the rate is followed at 1/8 a window: 10 Mbit/s (1182 units a
 * frame, 14 frames a window: 43 departures are 3 windows, none left open)
 * to 256 kbit/s (46203, one a window): after k windows mtu_time =
 * 46203 - 45021 * (7/8)^k, less under a unit of rounding a window: k = 32
 * gives 45575 - 32 or more (98.6 %).  Back at 10 Mbit/s it is 1182 +
 * 44393 * (7/8)^k: 4254 after 20 windows (280 frames), target 6381 > 4882;
 * 2984 after 24 (336 frames), target 4476 (+ 24 of rounding) < 4882, the
 * configured 5 ms and 100 ms again.
 */
static void rate_estimate_follows_steps(void)
{
	struct codel_params p;
	struct codel_rate r;
	codel_time_t t = 0;
	int i;

	codel_params_init(&p, 1514);
	codel_rate_init(&r);
	for (i = 0; i < 43; i++)
		codel_rate_departure(&r, t += 1182, 1514, true, 1514);
	EXPECT(r.mtu_time == 1182 && r.busy == 0, "mtu_time %u busy %u",
	       r.mtu_time, r.busy);
	for (i = 0; i < 32; i++)
		codel_rate_departure(&r, t += 46203, 1514, true, 1514);
	EXPECT(r.mtu_time >= 45575 - 32 && r.mtu_time <= 46203, "mtu_time %u",
	       r.mtu_time);
	for (i = 0; i < 280; i++)
		codel_rate_departure(&r, t += 1182, 1514, true, 1514);
	codel_rate_adapt(&r, 4882, 97656, &p);
	EXPECT(p.target > 4882, "target %u after 20 windows", p.target);
	for (; i < 336; i++)
		codel_rate_departure(&r, t += 1182, 1514, true, 1514);
	codel_rate_adapt(&r, 4882, 97656, &p);
	EXPECT(p.target == 4882 && p.interval == 97656,
	       "target %u interval %u after 24 windows", p.target, p.interval);
}

/*
 * The point of it: 1000-byte packets on a 256 kbit/s link (31.25 ms each),
 * two standing behind the one leaving, so after each pop 2000 bytes stay
 * (more than the 1514-byte MTU guard) and the head waited 2 x 31.25 ms +
 * 1 ms = 63.5 ms.  Fixed target: 63.5 >= 5 ms for a whole interval, so
 * CoDel drops.  Adaptive: one MTU takes 47.3 ms here, target 71 ms >
 * 63.5 ms, no drop; the first departures are measured before the first
 * interval (100 ms) ends, so even the configured 5 ms never drops.
 */
static void adaptive_target_spares_slow_link(void)
{
	struct pktq q;
	struct run r;

	setup(&q);
	drive(&q, &r, 0, 2, 31250 * US, 31250 * US, 1 * MS, 10000 * MS, 1000,
	      ECN_NOT_ECT);
	EXPECT(r.drops > 0, "fixed target: no drop");
	pktq_destroy(&q);

	setup(&q);
	pktq_adaptive(&q);
	drive(&q, &r, 0, 2, 31250 * US, 31250 * US, 1 * MS, 10000 * MS, 1000,
	      ECN_NOT_ECT);
	EXPECT(r.drops == 0 && r.delivered > 300, "adaptive: %u drops, %u delivered",
	       r.drops, r.delivered);
	EXPECT(q.params.target >= 69304 - 3 && q.params.target <= 69304 + 3,
	       "target in effect %u", q.params.target);
	pktq_destroy(&q);
}

static const struct tap_case cases[] = {
	{ "codel_newton_step_tracks_inv_sqrt", newton_step_tracks_inv_sqrt },
	{ "codel_newton_step_after_count_reset", newton_step_after_count_reset },
	{ "codel_control_law_interval_over_sqrt", control_law_matches_interval_over_sqrt },
	{ "codel_time_conversions_and_compares", time_conversions },
	{ "codel_no_drop_below_target", no_drop_below_target },
	{ "codel_first_drop_after_full_interval", first_drop_after_a_full_interval },
	{ "codel_drop_spacing_inverse_sqrt", drop_spacing_follows_inverse_sqrt },
	{ "codel_leaves_dropping_below_target", leaves_dropping_state_below_target },
	{ "codel_reentry_count_rule", reentry_count_rule },
	{ "codel_mtu_guard", mtu_guard },
	{ "codel_ecn_mark_instead_of_drop", ecn_mark_instead_of_drop },
	{ "codel_ce_threshold_marks", ce_threshold_marks },
	{ "codel_clock_wrap_invisible", clock_wrap_is_invisible },
	{ "codel_limit_overflow", limit_overflow },
	{ "codel_empty_queue_leaves_dropping", empty_queue_leaves_dropping },
	{ "codel_sojourn_histogram", sojourn_histogram },
	{ "codel_ce_threshold_selector", ce_threshold_selector },
	{ "codel_events_match_counters", events_match_counters },
	{ "codel_rate_estimate_constant_rate", rate_estimate_constant_rate },
	{ "codel_rate_estimate_ignores_idle", rate_estimate_ignores_idle },
	{ "codel_rate_estimate_follows_steps", rate_estimate_follows_steps },
	{ "codel_adaptive_target_spares_slow_link", adaptive_target_spares_slow_link },
};

int main(void)
{
	return tap_run("codel.h host unit tests", cases,
		       sizeof(cases) / sizeof(cases[0]));
}
