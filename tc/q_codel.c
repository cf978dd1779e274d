/*
 * Codel - The Controlled-Delay Active Queue Management algorithm
 *
 *  Copyright (C) 2011-2012 Kathleen Nichols <nichols@pollere.com>
 *  Copyright (C) 2011-2012 Van Jacobson <van@pollere.com>
 *  Copyright (C) 2012 Michael D. Taht <dave.taht@bufferbloat.net>
 *  Copyright (C) 2012,2015 Eric Dumazet <edumazet@google.com>
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 * 1. Redistributions of source code must retain the above copyright
 *    notice, this list of conditions, and the following disclaimer,
 *    without modification.
 * 2. Redistributions in binary form must reproduce the above copyright
 *    notice, this list of conditions and the following disclaimer in the
 *    documentation and/or other materials provided with the distribution.
 * 3. The names of the authors may not be used to endorse or promote products
 *    derived from this software without specific prior written permission.
 *
 * Alternatively, provided that this notice is retained in full, this
 * software may be distributed under the terms of the GNU General
 * Public License ("GPL") version 2, in which case the provisions of the
 * GPL apply INSTEAD OF those given above.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
 * "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
 * LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
 * A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT
 * OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
 * SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
 * LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
 * DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
 * THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
 * OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH
 * DAMAGE.
 *
 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>
#include <sys/utsname.h>

#include "utils.h"
#include "tc_util.h"

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... codel [ limit PACKETS ] [ target TIME ]\n"
		"		 [ interval TIME ] [ ecn | noecn ]\n"
		"		 [ ce_threshold TIME ]\n"
		"		 [ no_ce_threshold ]\n"
		"		 [ ce_threshold_selector VALUE/MASK ]\n"
		"		 [ no_ce_threshold_selector ]\n"
		"		 [ split_gso | no_split_gso ]\n"
		"		 [ memory_limit BYTES ]\n"
		"		 [ adaptive_target | no_adaptive_target ]\n");
}

/* The out-of-tree module's default memory_limit: not printed when set. */
#define CODEL_DEFAULT_MEMORY_LIMIT	(32U << 20)

/* Linux's own sch_codel parses TCA_OPTIONS leniently: it would accept the
 * TCA_CODEL_EXT nest and ignore it, and the user would believe a setting
 * that is not in effect.  Tell whether the sch_codel in effect is the
 * kernel's own: the loaded one (only the out-of-tree module has a version
 * in sysfs), or else the one autoload would load, which modules.dep names
 * (the out-of-tree module is installed under updates/).  Returns 1 and
 * says why in @why if it is; 0 if it is the out-of-tree module or cannot
 * be told (then the kernel decides).
 */
static int codel_intree_in_effect(char *why, size_t len)
{
	char path[300], line[4096];
	struct utsname u;
	int ret = 0;
	FILE *f;

	if (access("/sys/module/sch_codel", F_OK) == 0) {
		if (access("/sys/module/sch_codel/version", F_OK) == 0)
			return 0;
		snprintf(why, len,
			 "the loaded sch_codel is the kernel's own (no /sys/module/sch_codel/version)");
		return 1;
	}
	if (uname(&u))
		return 0;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		char *base;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		if (strncmp(base, "sch_codel.ko", 12) ||
		    (base[12] != '\0' && base[12] != '.'))
			continue;
		if (strncmp(line, "updates/", 8) && !strstr(line, "/updates/")) {
			snprintf(why, len,
				 "autoload would load the kernel's own /lib/modules/%s/%.200s",
				 u.release, line);
			ret = 1;
		}
		break;
	}
	fclose(f);
	return ret;
}

static int codel_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			   struct nlmsghdr *n, const char *dev)
{
	unsigned int limit = 0;
	unsigned int target = 0;
	unsigned int interval = 0;
	unsigned int ce_threshold = ~0U;
	__u8 ce_threshold_selector = 0xFF;
	__u8 ce_threshold_mask = 0;
	bool no_ce_threshold = false;
	bool no_selector = false;
	int split_gso = -1;
	int adaptive = -1;
	bool have_memory = false;
	unsigned int memory = 0;
	const char *ext_option = NULL;
	struct rtattr *ext;
	int ecn = -1;
	struct rtattr *tail;

	while (argc > 0) {
		if (strcmp(*argv, "limit") == 0) {
			NEXT_ARG();
			if (get_unsigned(&limit, *argv, 0)) {
				fprintf(stderr, "Illegal \"limit\"\n");
				return -1;
			}
		} else if (strcmp(*argv, "target") == 0) {
			NEXT_ARG();
			if (get_time(&target, *argv)) {
				fprintf(stderr, "Illegal \"target\"\n");
				return -1;
			}
		} else if (strcmp(*argv, "ce_threshold") == 0) {
			NEXT_ARG();
			if (get_time(&ce_threshold, *argv)) {
				fprintf(stderr, "Illegal \"ce_threshold\"\n");
				return -1;
			}
		} else if (strcmp(*argv, "interval") == 0) {
			NEXT_ARG();
			if (get_time(&interval, *argv)) {
				fprintf(stderr, "Illegal \"interval\"\n");
				return -1;
			}
		} else if (strcmp(*argv, "ce_threshold_selector") == 0) {
			char *sep;

			ext_option = *argv;
			NEXT_ARG();
			sep = strchr(*argv, '/');
			if (!sep) {
				fprintf(stderr, "Missing mask for \"ce_threshold_selector\"\n");
				return -1;
			}
			*sep++ = '\0';
			if (get_u8(&ce_threshold_mask, sep, 0)) {
				fprintf(stderr, "Illegal mask for \"ce_threshold_selector\"\n");
				return -1;
			}
			if (get_u8(&ce_threshold_selector, *argv, 0)) {
				fprintf(stderr, "Illegal \"ce_threshold_selector\"\n");
				return -1;
			}
		} else if (strcmp(*argv, "no_ce_threshold") == 0) {
			ext_option = *argv;
			no_ce_threshold = true;
		} else if (strcmp(*argv, "no_ce_threshold_selector") == 0) {
			ext_option = *argv;
			no_selector = true;
		} else if (strcmp(*argv, "memory_limit") == 0) {
			ext_option = *argv;
			NEXT_ARG();
			/* 0 goes to the kernel, which refuses it with a reason */
			if (get_size(&memory, *argv)) {
				fprintf(stderr, "Illegal \"memory_limit\"\n");
				return -1;
			}
			have_memory = true;
		} else if (strcmp(*argv, "split_gso") == 0) {
			ext_option = *argv;
			split_gso = 1;
		} else if (strcmp(*argv, "no_split_gso") == 0) {
			ext_option = *argv;
			split_gso = 0;
		} else if (strcmp(*argv, "adaptive_target") == 0) {
			ext_option = *argv;
			adaptive = 1;
		} else if (strcmp(*argv, "no_adaptive_target") == 0) {
			ext_option = *argv;
			adaptive = 0;
		} else if (strcmp(*argv, "ecn") == 0) {
			ecn = 1;
		} else if (strcmp(*argv, "noecn") == 0) {
			ecn = 0;
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
		argc--; argv++;
	}

	if (no_ce_threshold && ce_threshold != ~0U) {
		fprintf(stderr, "\"ce_threshold\" and \"no_ce_threshold\" together\n");
		return -1;
	}
	if (no_selector && ce_threshold_selector != 0xFF) {
		fprintf(stderr, "\"ce_threshold_selector\" and \"no_ce_threshold_selector\" together\n");
		return -1;
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS);
	if (limit)
		addattr_l(n, 1024, TCA_CODEL_LIMIT, &limit, sizeof(limit));
	if (interval)
		addattr_l(n, 1024, TCA_CODEL_INTERVAL, &interval, sizeof(interval));
	if (target)
		addattr_l(n, 1024, TCA_CODEL_TARGET, &target, sizeof(target));
	if (ecn != -1)
		addattr_l(n, 1024, TCA_CODEL_ECN, &ecn, sizeof(ecn));
	if (ce_threshold != ~0U)
		addattr_l(n, 1024, TCA_CODEL_CE_THRESHOLD,
			  &ce_threshold, sizeof(ce_threshold));
	/* The out-of-tree module's options, only when one is given, so that
	 * what stock tc accepts is sent exactly as stock tc sends it.
	 */
	if (ce_threshold_selector != 0xFF || no_selector || no_ce_threshold ||
	    split_gso != -1 || have_memory || adaptive != -1) {
		char why[400];

		if (codel_intree_in_effect(why, sizeof(why))) {
			fprintf(stderr,
				"codel: %s needs the out-of-tree sch_codel, but %s, which would ignore it.\n"
				"Install sch-codel-dkms and the headers of this kernel; see tc-codel(8), MODULE IN EFFECT.\n",
				ext_option, why);
			return -1;
		}
		ext = addattr_nest(n, 1024, TCA_CODEL_EXT | NLA_F_NESTED);
		if (ce_threshold_selector != 0xFF) {
			addattr8(n, 1024, TCA_CODEL_EXT_CE_THRESHOLD_MASK,
				 ce_threshold_mask);
			addattr8(n, 1024, TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR,
				 ce_threshold_selector);
		}
		if (no_selector)
			addattr8(n, 1024, TCA_CODEL_EXT_CE_THRESHOLD_MASK, 0);
		if (no_ce_threshold)
			addattr_l(n, 1024, TCA_CODEL_EXT_CE_THRESHOLD_OFF,
				  NULL, 0);
		if (split_gso != -1)
			addattr_l(n, 1024, TCA_CODEL_EXT_SPLIT_GSO, &split_gso,
				  sizeof(split_gso));
		if (have_memory)
			addattr32(n, 1024, TCA_CODEL_EXT_MEMORY_LIMIT, memory);
		if (adaptive != -1)
			addattr32(n, 1024, TCA_CODEL_EXT_ADAPTIVE_TARGET, adaptive);
		addattr_nest_end(n, ext);
	}

	addattr_nest_end(n, tail);
	return 0;
}

static const char *sprint_selector(__u8 selector, __u8 mask, char *buf)
{
	snprintf(buf, SPRINT_BSIZE, "%#x/%#x", selector, mask);
	return buf;
}

/* Upper bound in us of sojourn bucket b (the last one has none). */
static unsigned int hist_bound_us(int b)
{
	return (unsigned int)(((256ULL << b) * 1024) / 1000);
}

static const char *sprint_bucket(int b, char *buf)
{
	char t[64];

	if (b == TC_CODEL_HIST_BUCKETS - 1)
		snprintf(buf, SPRINT_BSIZE, ">=%s",
			 sprint_time(hist_bound_us(b - 1), t));
	else
		snprintf(buf, SPRINT_BSIZE, "<%s", sprint_time(hist_bound_us(b), t));
	return buf;
}

/* Bucket holding the pct-th percentile of the histogram, or -1 if empty. */
static int hist_percentile(const __u64 *hist, unsigned int pct)
{
	unsigned long long total = 0, seen = 0;
	int b;

	for (b = 0; b < TC_CODEL_HIST_BUCKETS; b++)
		total += hist[b];
	if (!total)
		return -1;
	for (b = 0; b < TC_CODEL_HIST_BUCKETS; b++) {
		seen += hist[b];
		if (seen * 100 >= total * pct)
			return b;
	}
	return TC_CODEL_HIST_BUCKETS - 1;
}

static void print_hist(const __u64 *hist)
{
	static const unsigned int pcts[] = { 50, 99 };
	unsigned int i;
	int b;

	SPRINT_BUF(b1);

	/* Text: only when something was delivered; JSON: always. */
	if (hist_percentile(hist, 100) >= 0) {
		print_nl();
		print_string(PRINT_FP, NULL, "  sojourn", NULL);
	}
	open_json_array(PRINT_JSON, "sojourn_hist");
	for (b = 0; b < TC_CODEL_HIST_BUCKETS; b++) {
		print_u64(PRINT_JSON, NULL, NULL, hist[b]);
		if (!hist[b])
			continue;
		print_string(PRINT_FP, NULL, " %s", sprint_bucket(b, b1));
		print_u64(PRINT_FP, NULL, ":%llu", hist[b]);
	}
	close_json_array(PRINT_JSON, NULL);
	/* Estimates: the bound of the bucket the percentile falls in. */
	for (i = 0; i < ARRAY_SIZE(pcts); i++) {
		char key[32], fmt[32];

		b = hist_percentile(hist, pcts[i]);
		if (b < 0)
			continue;
		snprintf(key, sizeof(key), "sojourn_p%u_bucket", pcts[i]);
		snprintf(fmt, sizeof(fmt), " p%u %%s", pcts[i]);
		print_uint(PRINT_JSON, key, NULL, b);
		print_string(PRINT_FP, NULL, fmt, sprint_bucket(b, b1));
	}
}

static int codel_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_CODEL_MAX + 1];
	struct rtattr *ext[TCA_CODEL_EXT_MAX + 1] = {};
	struct rtattr *a;
	unsigned int limit;
	int rem;
	unsigned int interval;
	unsigned int target;
	unsigned int ecn;
	unsigned int ce_threshold;

	SPRINT_BUF(b1);

	if (opt == NULL)
		return 0;

	parse_rtattr_nested(tb, TCA_CODEL_MAX, opt);
	/* TCA_CODEL_EXT is far above TCA_CODEL_MAX: look for it. */
	rem = RTA_PAYLOAD(opt);
	for (a = RTA_DATA(opt); RTA_OK(a, rem); a = RTA_NEXT(a, rem))
		if ((a->rta_type & NLA_TYPE_MASK) == TCA_CODEL_EXT)
			parse_rtattr_nested(ext, TCA_CODEL_EXT_MAX, a);

	if (tb[TCA_CODEL_LIMIT] &&
	    RTA_PAYLOAD(tb[TCA_CODEL_LIMIT]) >= sizeof(__u32)) {
		limit = rta_getattr_u32(tb[TCA_CODEL_LIMIT]);
		print_uint(PRINT_ANY, "limit", "limit %up ", limit);
	}
	if (tb[TCA_CODEL_TARGET] &&
	    RTA_PAYLOAD(tb[TCA_CODEL_TARGET]) >= sizeof(__u32)) {
		target = rta_getattr_u32(tb[TCA_CODEL_TARGET]);
		print_uint(PRINT_JSON, "target", NULL, target);
		print_string(PRINT_FP, NULL, "target %s ",
			     sprint_time(target, b1));
	}
	if (tb[TCA_CODEL_CE_THRESHOLD] &&
	    RTA_PAYLOAD(tb[TCA_CODEL_CE_THRESHOLD]) >= sizeof(__u32)) {
		ce_threshold = rta_getattr_u32(tb[TCA_CODEL_CE_THRESHOLD]);
		print_uint(PRINT_JSON, "ce_threshold", NULL, ce_threshold);
		print_string(PRINT_FP, NULL, "ce_threshold %s ",
			     sprint_time(ce_threshold, b1));
	}
	if (tb[TCA_CODEL_INTERVAL] &&
	    RTA_PAYLOAD(tb[TCA_CODEL_INTERVAL]) >= sizeof(__u32)) {
		interval = rta_getattr_u32(tb[TCA_CODEL_INTERVAL]);
		print_uint(PRINT_JSON, "interval", NULL, interval);
		print_string(PRINT_FP, NULL, "interval %s ",
			     sprint_time(interval, b1));
	}
	if (tb[TCA_CODEL_ECN] &&
	    RTA_PAYLOAD(tb[TCA_CODEL_ECN]) >= sizeof(__u32)) {
		ecn = rta_getattr_u32(tb[TCA_CODEL_ECN]);
		if (ecn)
			print_bool(PRINT_ANY, "ecn", "ecn ", true);
	}
	if (ext[TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR] &&
	    ext[TCA_CODEL_EXT_CE_THRESHOLD_MASK]) {
		__u8 selector = rta_getattr_u8(ext[TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR]);
		__u8 mask = rta_getattr_u8(ext[TCA_CODEL_EXT_CE_THRESHOLD_MASK]);

		print_uint(PRINT_JSON, "ce_threshold_selector", NULL, selector);
		print_uint(PRINT_JSON, "ce_threshold_mask", NULL, mask);
		print_string(PRINT_FP, NULL, "ce_threshold_selector %s ",
			     sprint_selector(selector, mask, b1));
	}
	if (ext[TCA_CODEL_EXT_SPLIT_GSO] &&
	    RTA_PAYLOAD(ext[TCA_CODEL_EXT_SPLIT_GSO]) >= sizeof(__u32)) {
		bool split = rta_getattr_u32(ext[TCA_CODEL_EXT_SPLIT_GSO]);

		print_bool(PRINT_JSON, "split_gso", NULL, split);
		if (split)
			print_string(PRINT_FP, NULL, "%s ", "split_gso");
	}
	if (ext[TCA_CODEL_EXT_MEMORY_LIMIT] &&
	    RTA_PAYLOAD(ext[TCA_CODEL_EXT_MEMORY_LIMIT]) >= sizeof(__u32)) {
		unsigned int memory = rta_getattr_u32(ext[TCA_CODEL_EXT_MEMORY_LIMIT]);

		print_uint(PRINT_JSON, "memory_limit", NULL, memory);
		if (memory != CODEL_DEFAULT_MEMORY_LIMIT)
			print_string(PRINT_FP, NULL, "memory_limit %s ",
				     sprint_size(memory, b1));
	}
	if (ext[TCA_CODEL_EXT_ADAPTIVE_TARGET] &&
	    RTA_PAYLOAD(ext[TCA_CODEL_EXT_ADAPTIVE_TARGET]) >= sizeof(__u32)) {
		bool adaptive = rta_getattr_u32(ext[TCA_CODEL_EXT_ADAPTIVE_TARGET]);

		print_bool(PRINT_JSON, "adaptive_target", NULL, adaptive);
		if (adaptive)
			print_string(PRINT_FP, NULL, "%s ", "adaptive_target");
	}

	return 0;
}

static int codel_print_xstats(struct qdisc_util *qu, FILE *f,
			      struct rtattr *xstats)
{
	struct tc_codel_xstats_ext _ext = {}, *ext = &_ext;
	struct tc_codel_xstats *st;
	bool extended, memory, sum, in_effect;
	size_t len;

	SPRINT_BUF(b1);

	if (xstats == NULL)
		return 0;

	/* Mainline sends struct tc_codel_xstats; the out-of-tree module
	 * appends counters (struct tc_codel_xstats_ext).  Print what exists.
	 */
	len = RTA_PAYLOAD(xstats);
	memcpy(&_ext, RTA_DATA(xstats), len < sizeof(_ext) ? len : sizeof(_ext));
	extended = len >= offsetof(struct tc_codel_xstats_ext, drop_overmemory);
	memory = len >= offsetof(struct tc_codel_xstats_ext, sojourn_sum_ns);
	sum = len >= offsetof(struct tc_codel_xstats_ext, drain_rate);
	in_effect = len >= sizeof(_ext);
	st = &ext->base;

	print_uint(PRINT_ANY, "count", "  count %u", st->count);
	print_uint(PRINT_ANY, "lastcount", " lastcount %u", st->lastcount);
	print_uint(PRINT_JSON, "ldelay", NULL, st->ldelay);
	print_string(PRINT_FP, NULL, " ldelay %s", sprint_time(st->ldelay, b1));

	if (st->dropping)
		print_bool(extended ? PRINT_FP : PRINT_ANY, "dropping",
			   " dropping", true);

	print_int(PRINT_JSON, "drop_next", NULL, st->drop_next);
	if (st->drop_next < 0)
		print_string(PRINT_FP, NULL, " drop_next -%s",
			     sprint_time(-st->drop_next, b1));
	else
		print_string(PRINT_FP, NULL, " drop_next %s",
			     sprint_time(st->drop_next, b1));

	print_nl();
	print_uint(PRINT_ANY, "maxpacket", "  maxpacket %u", st->maxpacket);
	print_uint(PRINT_ANY, "ecn_mark", " ecn_mark %u", st->ecn_mark);
	print_uint(PRINT_ANY, "drop_overlimit", " drop_overlimit %u",
		   st->drop_overlimit);

	if (st->ce_mark || extended)
		print_uint(PRINT_ANY, "ce_mark", " ce_mark %u", st->ce_mark);

	if (extended) {
		print_bool(PRINT_JSON, "dropping", NULL, st->dropping);
		print_nl();
		print_u64(PRINT_ANY, "dequeue_calls", "  dequeue_calls %llu",
			  ext->dequeue_calls);
		print_u64(PRINT_ANY, "ok_to_drop", " ok_to_drop %llu",
			  ext->ok_to_drop);
		print_u64(PRINT_ANY, "loop_drops", " loop_drops %llu",
			  ext->loop_drops);
		print_u64(PRINT_ANY, "dropping_entries", " dropping_entries %llu",
			  ext->dropping_entries);
		if (memory) {
			print_nl();
			print_u64(PRINT_ANY, "drop_overmemory",
				  "  drop_overmemory %llu", ext->drop_overmemory);
			print_u64(PRINT_ANY, "memory_used", " memory_used %llu",
				  ext->memory_used);
		}
		print_hist(ext->sojourn_hist);
		/* JSON only: the text keeps its shape for scripts reading it. */
		if (sum)
			print_u64(PRINT_JSON, "sojourn_sum_ns", NULL,
				  ext->sojourn_sum_ns);
	}
	/* adaptive_target's, in bytes/s and us; the text once measured. */
	if (in_effect) {
		print_u64(PRINT_JSON, "drain_rate", NULL, ext->drain_rate);
		print_uint(PRINT_JSON, "target_in_effect", NULL, ext->target_us);
		print_uint(PRINT_JSON, "interval_in_effect", NULL,
			   ext->interval_us);
	}
	if (in_effect && ext->drain_rate) {
		print_nl();
		tc_print_rate(PRINT_FP, NULL, "  drain_rate %s", ext->drain_rate);
		print_string(PRINT_FP, NULL, " target_in_effect %s",
			     sprint_time(ext->target_us, b1));
		print_string(PRINT_FP, NULL, " interval_in_effect %s",
			     sprint_time(ext->interval_us, b1));
	}

	return 0;

}

struct qdisc_util codel_qdisc_util = {
	.id		= "codel",
	.parse_qopt	= codel_parse_opt,
	.print_qopt	= codel_print_opt,
	.print_xstats	= codel_print_xstats,
};
