// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * tc support for the out-of-tree fq_codel_ext qdisc (sch_fq_codel.c): built
 * into tc by tc-patch/, and the plugin q_fq_codel_ext.so that stock tc
 * loads for the kind "fq_codel_ext" (the same source).  It takes the
 * options of tc's fq_codel, sent as tc sends them for fq_codel, plus the
 * module's own, and prints what tc prints for fq_codel followed by the
 * module's counters and sojourn-time histogram.  Unlike tc's fq_codel
 * parser, an option given with the value 0 is sent: the module refuses it
 * with a reason instead of it being dropped without a word.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"
#include "tc_util.h"

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... fq_codel_ext [ limit PACKETS ] [ flows NUMBER ]\n"
		"		[ memory_limit BYTES ]\n"
		"		[ target TIME ] [ interval TIME ]\n"
		"		[ quantum BYTES ] [ [no]ecn ]\n"
		"		[ ce_threshold TIME ] [ no_ce_threshold ]\n"
		"		[ ce_threshold_selector VALUE/MASK ]\n"
		"		[ drop_batch SIZE ]\n"
		"		[ split_gso | no_split_gso ]\n"
		"		[ hash_headers | no_hash_headers ]\n"
		"		[ adaptive_target | no_adaptive_target ]\n");
}

/* One u32 option: its keyword, attribute, parser and value. */
struct fq_opt {
	const char	*name;
	int		type;
	int		(*get)(unsigned int *val, const char *arg);
	bool		given;
	unsigned int	val;
};

static int get_count(unsigned int *val, const char *arg)
{
	return get_unsigned(val, arg, 0);
}

static int fq_codel_ext_parse_opt(struct qdisc_util *qu, int argc, char **argv,
				  struct nlmsghdr *n, const char *dev)
{
	struct fq_opt opts[] = {
		{ .name = "limit", .type = TCA_FQ_CODEL_LIMIT, .get = get_count },
		{ .name = "flows", .type = TCA_FQ_CODEL_FLOWS, .get = get_count },
		{ .name = "quantum", .type = TCA_FQ_CODEL_QUANTUM, .get = get_count },
		{ .name = "interval", .type = TCA_FQ_CODEL_INTERVAL, .get = get_time },
		{ .name = "target", .type = TCA_FQ_CODEL_TARGET, .get = get_time },
		{ .name = "ce_threshold", .type = TCA_FQ_CODEL_CE_THRESHOLD, .get = get_time },
		{ .name = "memory_limit", .type = TCA_FQ_CODEL_MEMORY_LIMIT, .get = get_size },
		{ .name = "drop_batch", .type = TCA_FQ_CODEL_DROP_BATCH_SIZE, .get = get_count },
	};
	__u8 selector = 0, mask = 0;
	bool have_selector = false, no_ce_threshold = false;
	int ecn = -1, split_gso = -1, hash_headers = -1, adaptive = -1;
	struct rtattr *tail, *ext;
	unsigned int i;

	for (; argc > 0; argc--, argv++) {
		for (i = 0; i < ARRAY_SIZE(opts); i++)
			if (strcmp(*argv, opts[i].name) == 0)
				break;
		if (i < ARRAY_SIZE(opts)) {
			NEXT_ARG();
			if (opts[i].get(&opts[i].val, *argv)) {
				fprintf(stderr, "Illegal \"%s\"\n", opts[i].name);
				return -1;
			}
			opts[i].given = true;
		} else if (strcmp(*argv, "ce_threshold_selector") == 0) {
			char *sep;

			NEXT_ARG();
			sep = strchr(*argv, '/');
			if (!sep) {
				fprintf(stderr, "Missing mask for \"ce_threshold_selector\"\n");
				return -1;
			}
			*sep++ = '\0';
			if (get_u8(&mask, sep, 0)) {
				fprintf(stderr, "Illegal mask for \"ce_threshold_selector\"\n");
				return -1;
			}
			if (get_u8(&selector, *argv, 0)) {
				fprintf(stderr, "Illegal \"ce_threshold_selector\"\n");
				return -1;
			}
			have_selector = true;
		} else if (strcmp(*argv, "no_ce_threshold") == 0) {
			no_ce_threshold = true;
		} else if (strcmp(*argv, "ecn") == 0) {
			ecn = 1;
		} else if (strcmp(*argv, "noecn") == 0) {
			ecn = 0;
		} else if (strcmp(*argv, "split_gso") == 0) {
			split_gso = 1;
		} else if (strcmp(*argv, "no_split_gso") == 0) {
			split_gso = 0;
		} else if (strcmp(*argv, "hash_headers") == 0) {
			hash_headers = 1;
		} else if (strcmp(*argv, "no_hash_headers") == 0) {
			hash_headers = 0;
		} else if (strcmp(*argv, "adaptive_target") == 0) {
			adaptive = 1;
		} else if (strcmp(*argv, "no_adaptive_target") == 0) {
			adaptive = 0;
		} else if (strcmp(*argv, "help") == 0) {
			explain();
			return -1;
		} else {
			fprintf(stderr, "What is \"%s\"?\n", *argv);
			explain();
			return -1;
		}
	}

	tail = addattr_nest(n, 1024, TCA_OPTIONS);
	for (i = 0; i < ARRAY_SIZE(opts); i++)
		if (opts[i].given)
			addattr32(n, 1024, opts[i].type, opts[i].val);
	if (ecn != -1)
		addattr32(n, 1024, TCA_FQ_CODEL_ECN, ecn);
	if (have_selector) {
		addattr8(n, 1024, TCA_FQ_CODEL_CE_THRESHOLD_MASK, mask);
		addattr8(n, 1024, TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR, selector);
	}
	if (no_ce_threshold || split_gso != -1 || hash_headers != -1 ||
	    adaptive != -1) {
		ext = addattr_nest(n, 1024, TCA_FQ_CODEL_EXT | NLA_F_NESTED);
		if (no_ce_threshold)
			addattr_l(n, 1024, TCA_FQ_CODEL_EXT_CE_THRESHOLD_OFF,
				  NULL, 0);
		if (split_gso != -1)
			addattr32(n, 1024, TCA_FQ_CODEL_EXT_SPLIT_GSO, split_gso);
		if (hash_headers != -1)
			addattr32(n, 1024, TCA_FQ_CODEL_EXT_HASH_HEADERS,
				  hash_headers);
		if (adaptive != -1)
			addattr32(n, 1024, TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET,
				  adaptive);
		addattr_nest_end(n, ext);
	}
	addattr_nest_end(n, tail);
	return 0;
}

static bool get_u32_attr(struct rtattr *a, unsigned int *val)
{
	if (!a || RTA_PAYLOAD(a) < sizeof(__u32))
		return false;
	*val = rta_getattr_u32(a);
	return true;
}

static void print_time_opt(const char *key, struct rtattr *a)
{
	unsigned int t;
	char fmt[32];

	SPRINT_BUF(b1);

	if (!get_u32_attr(a, &t))
		return;
	snprintf(fmt, sizeof(fmt), "%s %%s ", key);
	print_uint(PRINT_JSON, key, NULL, t);
	print_string(PRINT_FP, NULL, fmt, sprint_time(t, b1));
}

/* In the order and format of tc's fq_codel, then the module's options. */
static int fq_codel_ext_print_opt(struct qdisc_util *qu, FILE *f,
				  struct rtattr *opt)
{
	struct rtattr *tb[TCA_FQ_CODEL_MAX + 1];
	struct rtattr *ext[TCA_FQ_CODEL_EXT_MAX + 1] = {};
	__u8 selector = 0, mask = 0;
	unsigned int v;
	struct rtattr *a;
	int rem;

	SPRINT_BUF(b1);

	if (!opt)
		return 0;
	parse_rtattr_nested(tb, TCA_FQ_CODEL_MAX, opt);
	rem = RTA_PAYLOAD(opt);
	for (a = RTA_DATA(opt); RTA_OK(a, rem); a = RTA_NEXT(a, rem))
		if ((a->rta_type & NLA_TYPE_MASK) == TCA_FQ_CODEL_EXT)
			parse_rtattr_nested(ext, TCA_FQ_CODEL_EXT_MAX, a);

	if (get_u32_attr(tb[TCA_FQ_CODEL_LIMIT], &v))
		print_uint(PRINT_ANY, "limit", "limit %up ", v);
	if (get_u32_attr(tb[TCA_FQ_CODEL_FLOWS], &v))
		print_uint(PRINT_ANY, "flows", "flows %u ", v);
	if (get_u32_attr(tb[TCA_FQ_CODEL_QUANTUM], &v))
		print_uint(PRINT_ANY, "quantum", "quantum %u ", v);
	print_time_opt("target", tb[TCA_FQ_CODEL_TARGET]);
	print_time_opt("ce_threshold", tb[TCA_FQ_CODEL_CE_THRESHOLD]);
	if (tb[TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR])
		selector = rta_getattr_u8(tb[TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR]);
	if (tb[TCA_FQ_CODEL_CE_THRESHOLD_MASK])
		mask = rta_getattr_u8(tb[TCA_FQ_CODEL_CE_THRESHOLD_MASK]);
	if (selector || mask) {
		print_uint(PRINT_JSON, "ce_threshold_selector", NULL, selector);
		print_uint(PRINT_JSON, "ce_threshold_mask", NULL, mask);
		snprintf(b1, sizeof(b1), "%#x/%#x", selector, mask);
		print_string(PRINT_FP, NULL, "ce_threshold_selector %s ", b1);
	}
	print_time_opt("interval", tb[TCA_FQ_CODEL_INTERVAL]);
	if (get_u32_attr(tb[TCA_FQ_CODEL_MEMORY_LIMIT], &v)) {
		print_uint(PRINT_JSON, "memory_limit", NULL, v);
		print_string(PRINT_FP, NULL, "memory_limit %s ",
			     sprint_size(v, b1));
	}
	if (get_u32_attr(tb[TCA_FQ_CODEL_ECN], &v) && v)
		print_bool(PRINT_ANY, "ecn", "ecn ", true);
	if (get_u32_attr(tb[TCA_FQ_CODEL_DROP_BATCH_SIZE], &v) && v)
		print_uint(PRINT_ANY, "drop_batch", "drop_batch %u ", v);
	if (get_u32_attr(ext[TCA_FQ_CODEL_EXT_SPLIT_GSO], &v)) {
		print_bool(PRINT_JSON, "split_gso", NULL, v);
		if (v)
			print_string(PRINT_FP, NULL, "%s ", "split_gso");
	}
	if (get_u32_attr(ext[TCA_FQ_CODEL_EXT_HASH_HEADERS], &v)) {
		print_bool(PRINT_JSON, "hash_headers", NULL, v);
		if (v)
			print_string(PRINT_FP, NULL, "%s ", "hash_headers");
	}
	if (get_u32_attr(ext[TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET], &v)) {
		print_bool(PRINT_JSON, "adaptive_target", NULL, v);
		if (v)
			print_string(PRINT_FP, NULL, "%s ", "adaptive_target");
	}
	return 0;
}

/* Upper bound in us of sojourn bucket b (pkt_sched_codel.h's layout). */
static unsigned int hist_bound_us(int b)
{
	return (unsigned int)(((256ULL << b) * 1024) / 1000);
}

static void print_hist(const __u64 *hist)
{
	char t[64], b1[SPRINT_BSIZE];
	bool any = false;
	int b;

	for (b = 0; b < TC_CODEL_HIST_BUCKETS; b++)
		any |= hist[b] != 0;
	if (any) {
		print_nl();
		print_string(PRINT_FP, NULL, "  sojourn", NULL);
	}
	open_json_array(PRINT_JSON, "sojourn_hist");
	for (b = 0; b < TC_CODEL_HIST_BUCKETS; b++) {
		print_u64(PRINT_JSON, NULL, NULL, hist[b]);
		if (!hist[b])
			continue;
		if (b == TC_CODEL_HIST_BUCKETS - 1)
			snprintf(b1, sizeof(b1), ">=%s",
				 sprint_time(hist_bound_us(b - 1), t));
		else
			snprintf(b1, sizeof(b1), "<%s",
				 sprint_time(hist_bound_us(b), t));
		print_string(PRINT_FP, NULL, " %s", b1);
		print_u64(PRINT_FP, NULL, ":%llu", hist[b]);
	}
	close_json_array(PRINT_JSON, NULL);
}

static void print_class_xstats(const struct tc_fq_codel_cl_stats *cs)
{
	SPRINT_BUF(b1);

	print_int(PRINT_ANY, "deficit", "  deficit %d", cs->deficit);
	print_uint(PRINT_ANY, "count", " count %u", cs->count);
	print_uint(PRINT_ANY, "lastcount", " lastcount %u", cs->lastcount);
	print_uint(PRINT_JSON, "ldelay", NULL, cs->ldelay);
	print_string(PRINT_FP, NULL, " ldelay %s", sprint_time(cs->ldelay, b1));
	if (!cs->dropping)
		return;
	print_bool(PRINT_ANY, "dropping", " dropping", true);
	print_int(PRINT_JSON, "drop_next", NULL, cs->drop_next);
	if (cs->drop_next < 0)
		print_string(PRINT_FP, NULL, " drop_next -%s",
			     sprint_time(-cs->drop_next, b1));
	else
		print_string(PRINT_FP, NULL, " drop_next %s",
			     sprint_time(cs->drop_next, b1));
}

static int fq_codel_ext_print_xstats(struct qdisc_util *qu, FILE *f,
				     struct rtattr *xstats)
{
	struct tc_fq_codel_xstats_ext ext = {};
	const struct tc_fq_codel_qd_stats *qs = &ext.base.qdisc_stats;
	size_t len;

	SPRINT_BUF(b1);

	if (!xstats)
		return 0;
	len = RTA_PAYLOAD(xstats);
	memcpy(&ext, RTA_DATA(xstats), len < sizeof(ext) ? len : sizeof(ext));
	if (ext.base.type == TCA_FQ_CODEL_XSTATS_CLASS) {
		struct tc_fq_codel_cl_xstats_ext cl = {};

		memcpy(&cl, RTA_DATA(xstats), len < sizeof(cl) ? len : sizeof(cl));
		print_class_xstats(&cl.base.class_stats);
		if (len >= sizeof(cl))
			print_hist(cl.sojourn_hist);
		return 0;
	}
	if (ext.base.type != TCA_FQ_CODEL_XSTATS_QDISC)
		return 0;
	print_uint(PRINT_ANY, "maxpacket", "  maxpacket %u", qs->maxpacket);
	print_uint(PRINT_ANY, "drop_overlimit", " drop_overlimit %u",
		   qs->drop_overlimit);
	print_uint(PRINT_ANY, "new_flow_count", " new_flow_count %u",
		   qs->new_flow_count);
	print_uint(PRINT_ANY, "ecn_mark", " ecn_mark %u", qs->ecn_mark);
	if (qs->ce_mark)
		print_uint(PRINT_ANY, "ce_mark", " ce_mark %u", qs->ce_mark);
	if (qs->memory_usage)
		print_uint(PRINT_ANY, "memory_used", " memory_used %u",
			   qs->memory_usage);
	if (qs->drop_overmemory)
		print_uint(PRINT_ANY, "drop_overmemory", " drop_overmemory %u",
			   qs->drop_overmemory);
	print_nl();
	print_uint(PRINT_ANY, "new_flows_len", "  new_flows_len %u",
		   qs->new_flows_len);
	print_uint(PRINT_ANY, "old_flows_len", " old_flows_len %u",
		   qs->old_flows_len);
	if (len < offsetof(struct tc_fq_codel_xstats_ext, sojourn_sum_ns))
		return 0;
	print_nl();
	print_u64(PRINT_ANY, "dequeue_calls", "  dequeue_calls %llu",
		  ext.dequeue_calls);
	print_u64(PRINT_ANY, "ok_to_drop", " ok_to_drop %llu", ext.ok_to_drop);
	print_u64(PRINT_ANY, "loop_drops", " loop_drops %llu", ext.loop_drops);
	print_u64(PRINT_ANY, "dropping_entries", " dropping_entries %llu",
		  ext.dropping_entries);
	print_u64(PRINT_ANY, "codel_drops", " codel_drops %llu",
		  ext.codel_drops);
	print_hist(ext.sojourn_hist);
	/* JSON only: the text line keeps its shape for scripts that read it. */
	if (len >= offsetof(struct tc_fq_codel_xstats_ext, drain_rate))
		print_u64(PRINT_JSON, "sojourn_sum_ns", NULL, ext.sojourn_sum_ns);
	if (len < sizeof(ext))
		return 0;
	/* adaptive_target's, in bytes/s and us; the text once measured. */
	print_u64(PRINT_JSON, "drain_rate", NULL, ext.drain_rate);
	print_uint(PRINT_JSON, "target_in_effect", NULL, ext.target_us);
	print_uint(PRINT_JSON, "interval_in_effect", NULL, ext.interval_us);
	if (ext.drain_rate) {
		print_nl();
		tc_print_rate(PRINT_FP, NULL, "  drain_rate %s", ext.drain_rate);
		print_string(PRINT_FP, NULL, " target_in_effect %s",
			     sprint_time(ext.target_us, b1));
		print_string(PRINT_FP, NULL, " interval_in_effect %s",
			     sprint_time(ext.interval_us, b1));
	}
	return 0;
}

struct qdisc_util fq_codel_ext_qdisc_util = {
	.id		= "fq_codel_ext",
	.parse_qopt	= fq_codel_ext_parse_opt,
	.print_qopt	= fq_codel_ext_print_opt,
	.print_xstats	= fq_codel_ext_print_xstats,
};
