// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * Differential test: a kernel's own CoDel (ref.c, over that kernel's
 * include/net/codel_impl.h) against ours (codel.h), on random traces.
 * Both sides see the same enqueues and dequeues at the same clock
 * readings; after every event the delivered packet, its ECN bits, the
 * packets dropped (in order) and every state variable and counter must be
 * equal.  Traces mix overload, idle gaps, GSO-sized packets, small MTU
 * guards, ECN and ce_threshold settings, and clocks near the 32-bit
 * codel-time wrap.
 *
 * usage: codel-diff [-s SEED] [-t TRACES] [-e EVENTS] [-v]
 * Trace i runs from seed SEED + i; "-s SEED+i -t 1" replays it alone.
 *
 * One delta is documented rather than compared (docs/parity.md): a
 * kernel whose CoDel keeps first_above_time across an empty dequeue
 * (Debian's 6.12.95) is probed for it, and then gets it cleared after each
 * empty dequeue; the number of traces that delta changes is reported.
 * The 7.3 changes codel.h carries on every kernel are applied to older
 * references at build time (deltas.sh); each has a scripted trace below
 * that tells a reference with it from one without it.
 *
 * usage: codel-diff -x NAME: run only scripted trace NAME
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

static uint64_t rng_state;

/* splitmix64: small, fast, and the same sequence on every machine. */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t rnd_below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static uint32_t pick(const uint32_t *v, size_t n)
{
	return v[rnd_below((uint32_t)n)];
}

#define PICK(arr) pick(arr, sizeof(arr) / sizeof(arr[0]))

static void random_cfg(struct diff_cfg *c)
{
	static const uint32_t targets[] = { 1, 500, 1000, 5000, 5000, 20000 };
	static const uint32_t intervals[] = { 2, 5000, 30000, 100000, 100000 };
	static const uint32_t mtus[] = { 0, 1514, 1514, 9014, 65536, 1 << 20 };
	static const uint32_t limits[] = { 1, 5, 100, 1000, 2000 };
	static const uint8_t masks[] = { 0x03, 0x01, 0xfc, 0xff };

	c->target_us = PICK(targets);
	c->interval_us = PICK(intervals);
	c->mtu = PICK(mtus);
	c->limit = PICK(limits);
	c->ecn = rnd_below(2);
	c->ce_threshold_us = rnd_below(2) ? UINT32_MAX : rnd_below(10000);
	c->mask = 0;
	c->selector = 0;
	if (rnd_below(3) == 0) {
		c->mask = masks[rnd_below(sizeof(masks))];
		c->selector = (uint8_t)rnd() & c->mask;
	}
}

static uint32_t random_len(int phase_kind)
{
	if (phase_kind == 2 && rnd_below(4) == 0)
		return 1514 * (2 + rnd_below(43));	/* a GSO super-packet */
	return 64 + rnd_below(1451);
}

static int state_eq(const struct diff_state *a, const struct diff_state *b)
{
	return a->count == b->count && a->lastcount == b->lastcount &&
	       a->first_above_time == b->first_above_time &&
	       a->drop_next == b->drop_next && a->ldelay == b->ldelay &&
	       a->maxpacket == b->maxpacket && a->ecn_mark == b->ecn_mark &&
	       a->ce_mark == b->ce_mark && a->backlog == b->backlog &&
	       a->qlen == b->qlen && a->rec_inv_sqrt == b->rec_inv_sqrt &&
	       a->dropping == b->dropping;
}

static void print_state(const char *who, const struct diff_state *s)
{
	fprintf(stderr,
		"  %s: count %u lastcount %u dropping %d rec_inv_sqrt %u first_above %u drop_next %u ldelay %u maxpacket %u ecn_mark %u ce_mark %u backlog %u qlen %u\n",
		who, s->count, s->lastcount, s->dropping, s->rec_inv_sqrt,
		s->first_above_time, s->drop_next, s->ldelay, s->maxpacket,
		s->ecn_mark, s->ce_mark, s->backlog, s->qlen);
}

static int out_eq(const struct diff_out *a, const struct diff_out *b)
{
	return a->delivered == b->delivered &&
	       (a->delivered < 0 || a->dsfield == b->dsfield) &&
	       a->ndrops == b->ndrops &&
	       !memcmp(a->drops, b->drops, a->ndrops * sizeof(a->drops[0]));
}

/*
 * Does the reference keep first_above_time across an empty dequeue?  Arm
 * the deadline (sojourn above target, more than an MTU queued), take the
 * rest of the queue away as a limit trim does (no CoDel decision), then
 * dequeue from the empty queue.
 */
static int ref_keeps_deadline(void)
{
	struct diff_cfg c = { .target_us = 1000, .interval_us = 100000,
			      .ce_threshold_us = UINT32_MAX, .mtu = 1514,
			      .limit = 100 };
	static struct diff_out out;
	struct diff_state st;
	void *q = ref_new(&c);
	uint64_t now = 1000000000ULL;
	int i, kept;

	for (i = 0; i < 10; i++)
		ref_enqueue(q, now, 1500, 0);
	now += 10000000;		/* 10 ms: above target, inside interval */
	ref_dequeue(q, now, &out);
	ref_state(q, &st);
	if (!st.first_above_time) {
		fprintf(stderr, "codel-diff: probe could not arm the deadline\n");
		exit(2);
	}
	ref_trim(q, st.qlen);
	ref_dequeue(q, now, &out);
	ref_state(q, &st);
	kept = st.first_above_time != 0;
	ref_free(q);
	return kept;
}

/*
 * Scripted traces: fixed arrivals and departures that exercise one later
 * mainline change each (docs/parity.md).  Times in microseconds after a
 * start far from the codel-time wrap; every packet is 1000 bytes.
 */
struct step {
	char		op;	/* 'e': enqueue n, 'd': n dequeues, 0: end */
	uint64_t	t_us;
	uint32_t	n;
};

static const struct script {
	const char	*name;
	const char	*what;
	struct diff_cfg	cfg;
	struct step	steps[6];
} scripts[] = {
	{
		"one-tick",
		"interval 2us: the control law's step truncates to 0, a loop whose drop_next never advances drops the queue",
		{ .target_us = 500, .interval_us = 2, .mtu = 1514,
		  .limit = 1000, .ce_threshold_us = UINT32_MAX },
		{ { 'e', 0, 200 }, { 'd', 1000, 1 }, { 'd', 1010, 1 },
		  { 'd', 1010, 3 }, { 0 } },
	},
	{
		"drop-cap",
		"a dropping queue of 2000 left unserved for 100 s: ~250000 drops due, 256 made",
		{ .target_us = 5000, .interval_us = 100000, .mtu = 1514,
		  .limit = 2000, .ce_threshold_us = UINT32_MAX },
		{ { 'e', 0, 2000 }, { 'd', 10000, 1 }, { 'd', 200000, 1 },
		  { 'd', 100000000, 2 }, { 0 } },
	},
};

#define NSCRIPTS (sizeof(scripts) / sizeof(scripts[0]))

/* Run one script on both sides; 1 if they ever differ. */
static int run_script(const struct script *sc, int verbose)
{
	static struct diff_out ro, oo;
	const uint64_t t0 = 1000000000ULL;
	struct diff_state rs, os;
	const struct step *st;
	void *r = ref_new(&sc->cfg), *o = ours_new(&sc->cfg);
	uint32_t i, ref_drops = 0, our_drops = 0;
	int differ = 0;

	/* To the end, whatever differs, so that the drop counts tell. */
	for (st = sc->steps; st->op; st++) {
		uint64_t now = t0 + st->t_us * 1000;

		for (i = 0; i < st->n; i++) {
			if (st->op == 'e') {
				differ |= ref_enqueue(r, now, 1000, 0) !=
					  ours_enqueue(o, now, 1000, 0);
				continue;
			}
			ref_dequeue(r, now, &ro);
			ours_dequeue(o, now, &oo);
			ref_drops += ro.ndrops;
			our_drops += oo.ndrops;
			ref_state(r, &rs);
			ours_state(o, &os);
			differ |= !out_eq(&ro, &oo) || !state_eq(&rs, &os);
		}
	}
	printf("script %s (%s): %s; drops ref %u ours %u\n", sc->name,
	       sc->what, differ ? "DIFFERENT" : "equal", ref_drops, our_drops);
	if (differ && verbose) {
		print_state("ref ", &rs);
		print_state("ours", &os);
	}
	ref_free(r);
	ours_free(o);
	return differ;
}

struct trace_result {
	uint64_t	events;
	int		failed;		/* a difference was found */
	/* What the trace exercised (the reference's view), for coverage. */
	uint64_t	drops, ecn_marks, ce_marks, reentries, trims, empty;
};

/*
 * One trace: phases of arrivals and departures at random mean spacings
 * (overload, underload, idle), with rare limit trims.  fix_ref applies the
 * documented delta to the reference after every empty dequeue.
 */
static struct trace_result run_trace(uint64_t seed, uint64_t nevents,
				     int fix_ref, int report, int verbose)
{
	static struct diff_out ro, oo;
	struct trace_result res = { 0 };
	struct diff_state rs, os;
	struct diff_cfg cfg;
	uint64_t now, next_arr, next_dep, phase_end = 0;
	uint32_t arr_gap = 1, dep_gap = 1;
	int kind = 0, ecn_mix;
	void *r, *o;

	rng_state = seed;
	random_cfg(&cfg);
	ecn_mix = rnd_below(4);
	/* A start anywhere, one in four within seconds of a codel-time wrap
	 * (2^32 units of 1024 ns).
	 */
	now = rnd() >> 8;
	if (rnd_below(4) == 0)
		now = ((now >> 42) << 42) + (1ULL << 42) - 1000000000ULL * rnd_below(30);
	next_arr = now;
	next_dep = now;
	r = ref_new(&cfg);
	o = ours_new(&cfg);
	if (verbose)
		fprintf(stderr,
			"seed %" PRIu64 ": target %uus interval %uus mtu %u limit %u ecn %d ce_threshold %u mask 0x%x selector 0x%x start %" PRIu64 "ns\n",
			seed, cfg.target_us, cfg.interval_us, cfg.mtu, cfg.limit,
			cfg.ecn, cfg.ce_threshold_us, cfg.mask, cfg.selector, now);

	for (res.events = 0; res.events < nevents; res.events++) {
		const char *what;

		if (now >= phase_end) {
			/* 0: balanced, 1: overload, 2: overload with GSO, 3: idle */
			kind = rnd_below(4);
			arr_gap = 20000 + rnd_below(2000000);
			dep_gap = kind == 0 ? arr_gap : arr_gap * (2 + rnd_below(6));
			phase_end = now + 50000000ULL + rnd() % 3000000000ULL;
		}
		if (rnd_below(4096) == 0) {
			/* A limit trim: the head leaves without CoDel. */
			uint32_t n = rnd_below(cfg.limit + 1);

			ref_trim(r, n);
			ours_trim(o, n);
			res.trims++;
			what = "trim";
		} else if (kind != 3 && next_arr <= next_dep) {
			uint32_t len = random_len(kind);
			uint8_t ds = ecn_mix == 0 ? 0 : (uint8_t)rnd_below(4);
			bool a, b;

			now = next_arr;
			next_arr += 1 + rnd() % (2ULL * arr_gap);
			a = ref_enqueue(r, now, len, ds);
			b = ours_enqueue(o, now, len, ds);
			what = "enqueue";
			if (a != b)
				goto differ;
		} else {
			now = kind == 3 ? next_dep : (next_dep < now ? now : next_dep);
			next_dep = now + 1 + rnd() % (2ULL * dep_gap);
			ref_dequeue(r, now, &ro);
			ref_state(r, &rs);
			if (fix_ref && ro.delivered < 0 && !rs.qlen)
				ref_forget_deadline(r);
			ours_dequeue(o, now, &oo);
			res.drops += ro.ndrops;
			res.empty += ro.delivered < 0;
			if (rs.dropping && rs.lastcount > 1 && rs.count == rs.lastcount)
				res.reentries++;
			what = "dequeue";
			if (!out_eq(&ro, &oo))
				goto differ;
		}
		ref_state(r, &rs);
		ours_state(o, &os);
		if (!state_eq(&rs, &os))
			goto differ;
		continue;
differ:
		res.failed = 1;
		if (report) {
			ref_state(r, &rs);
			ours_state(o, &os);
			fprintf(stderr,
				"seed %" PRIu64 ": DIFFERENCE at event %" PRIu64 " (%s, t=%" PRIu64 "ns)\n"
				"  delivered ref %" PRId64 " ours %" PRId64 ", drops ref %u ours %u\n",
				seed, res.events, what, now, ro.delivered,
				oo.delivered, ro.ndrops, oo.ndrops);
			print_state("ref ", &rs);
			print_state("ours", &os);
		}
		break;
	}
	ref_state(r, &rs);
	res.ecn_marks = rs.ecn_mark;
	res.ce_marks = rs.ce_mark;
	ref_free(r);
	ours_free(o);
	return res;
}

int main(int argc, char **argv)
{
	uint64_t seed = 1, ntraces = 128, nevents = 10000, events = 0, i;
	unsigned int failed = 0, delta_traces = 0, scripts_differ = 0;
	struct trace_result sum = { 0 };
	const char *only = NULL;
	int opt, verbose = 0, keeps;

	while ((opt = getopt(argc, argv, "s:t:e:vx:")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': ntraces = strtoull(optarg, NULL, 0); break;
		case 'e': nevents = strtoull(optarg, NULL, 0); break;
		case 'v': verbose = 1; break;
		case 'x': only = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-t TRACES] [-e EVENTS] [-v] [-x SCRIPT]\n", argv[0]);
			return 2;
		}
	}
	if (only) {
		for (i = 0; i < NSCRIPTS; i++)
			if (!strcmp(scripts[i].name, only))
				return run_script(&scripts[i], verbose);
		fprintf(stderr, "codel-diff: no script %s\n", only);
		return 2;
	}
	for (i = 0; i < NSCRIPTS; i++)
		scripts_differ += run_script(&scripts[i], verbose);
	keeps = ref_keeps_deadline();
	printf("reference %s first_above_time on an empty dequeue%s\n",
	       keeps ? "keeps" : "clears",
	       keeps ? " (documented delta applied: cleared by the harness)" : "");
	for (i = 0; i < ntraces; i++) {
		struct trace_result t = run_trace(seed + i, nevents, keeps, 1, verbose);

		events += t.events;
		sum.drops += t.drops;
		sum.ecn_marks += t.ecn_marks;
		sum.ce_marks += t.ce_marks;
		sum.reentries += t.reentries;
		sum.trims += t.trims;
		sum.empty += t.empty;
		if (t.failed)
			failed++;
		if (keeps && run_trace(seed + i, nevents, 0, 0, 0).failed)
			delta_traces++;
	}
	printf("seeds %" PRIu64 "..%" PRIu64 ": %" PRIu64 " traces, %" PRIu64 " events, %u differences\n",
	       seed, seed + ntraces - 1, ntraces, events, failed);
	printf("exercised: %" PRIu64 " CoDel drops, %" PRIu64 " ECN marks, %" PRIu64 " ce_threshold marks, %" PRIu64 " dropping-state re-entries at the remembered count, %" PRIu64 " limit trims, %" PRIu64 " empty dequeues\n",
	       sum.drops, sum.ecn_marks, sum.ce_marks, sum.reentries,
	       sum.trims, sum.empty);
	if (keeps)
		printf("without the delta, %u of %" PRIu64 " traces differ\n",
		       delta_traces, ntraces);
	/* A run that exercised nothing proves nothing. */
	if (ntraces >= 100 && (!sum.drops || !sum.ecn_marks || !sum.ce_marks ||
			       !sum.reentries || !sum.trims || !sum.empty)) {
		printf("coverage too thin to judge: some path never ran\n");
		return 1;
	}
	return failed || scripts_differ ? 1 : 0;
}
