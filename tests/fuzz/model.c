// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/* The fuzzer's model of sch_codel's configuration; see model.h. */
#include <string.h>

#include "model.h"
#include "nl.h"
#include "pkt_sched_codel.h"

static uint64_t rng;

void rnd_seed(uint64_t seed)
{
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
}

uint32_t rnd(void)
{
	/* xorshift64*: small, fast, and the same sequence for a seed */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 2685821657736338717ULL) >> 32);
}

uint32_t us_to_time(uint32_t us)
{
	return (uint32_t)(((uint64_t)us * 1000) >> 10);
}

uint32_t time_to_us(uint32_t t)
{
	return (uint32_t)(((uint64_t)t << 10) / 1000);
}

bool model_fq;

void model_use_fq(void)
{
	model_fq = true;
}

void defaults(struct params *p, uint32_t quantum)
{
	memset(p, 0, sizeof(*p));
	p->target = us_to_time(5000);
	p->interval = us_to_time(100000);
	p->ce_threshold = DISABLED;
	p->limit = 1000;
	p->memory_limit = DEFAULT_MEMORY;
	if (model_fq) {
		p->limit = 10240;
		p->ecn = 1;
		p->flows = 1024;
		p->quantum = quantum;
		p->drop_batch = 64;
	}
}

static const uint32_t boundary[] = {
	0, 1, 2, 3, 999, 1000, 1024, 5000, 100000, 99999999, 100000000,
	100000001, 0x7fffffff, 0x80000000u, 0xfffffffeu, 0xffffffffu,
};

static uint32_t value(void)
{
	switch (rnd() % 4) {
	case 0:
		return rnd();
	case 1:
		return rnd() % 200000;
	default:
		return boundary[rnd() % (sizeof(boundary) / sizeof(boundary[0]))];
	}
}

/* What differs between the two qdiscs' options, for the shared generator. */
struct rules {
	uint16_t	main_max;	/* mainline's last attribute type */
	uint16_t	ext_max;	/* the module's nest's last type */
	uint16_t	(*main_len)(uint16_t type);
	uint16_t	(*ext_len)(uint16_t type);
	/* NULL if x is in range for the type, else the module's extack */
	const char	*(*main_range)(uint16_t type, uint32_t x);
	const char	*(*ext_range)(uint16_t type, uint32_t x);
	/* a likelier value for the type (NULL: the random one) */
	uint32_t	(*main_pick)(uint16_t type, uint32_t x, const struct params *old,
				     bool exists);
	uint32_t	(*ext_pick)(uint16_t type, uint32_t x);
	const char	*unknown;	/* the extack for an unknown type */
};

/* First error of a parse, in attribute order: structural, or a range. */
struct parse {
	bool		bad;		/* structurally invalid: no message checked */
	const char	*msg;		/* else the message of the first error */
	uint32_t	seen[TCA_FQ_CODEL_MAX + 1];	/* the most types of all */
	uint32_t	val[TCA_FQ_CODEL_MAX + 1];
};

_Static_assert(TCA_FQ_CODEL_MAX >= TCA_CODEL_MAX && TCA_FQ_CODEL_MAX >= TCA_CODEL_EXT_MAX &&
	       TCA_FQ_CODEL_MAX >= TCA_FQ_CODEL_EXT_MAX, "struct parse holds every type");
_Static_assert(TCA_CODEL_EXT == TCA_FQ_CODEL_EXT, "one nest type for both modules");

static void parse_error(struct parse *ps, bool structural, const char *msg)
{
	if (ps->bad || ps->msg)
		return;			/* only the first error counts */
	if (structural)
		ps->bad = true;
	else
		ps->msg = msg;
}

/* Random, often valid contents of the module's nest; predicts them. */
static void build_ext(struct nlmsghdr *n, const struct rules *k, struct parse *ps)
{
	struct nlattr *nest = (void *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
	int nattrs = 1 + rnd() % 3;

	nest->nla_type = TCA_CODEL_EXT | (rnd() % 20 ? NLA_F_NESTED : 0);
	if (!(nest->nla_type & NLA_F_NESTED))
		parse_error(ps, true, NULL);	/* "NLA_F_NESTED is missing" */
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + NLA_HDRLEN;
	for (int i = 0; i < nattrs; i++) {
		uint16_t type = 1 + rnd() % k->ext_max, len;
		uint32_t x = rnd() % 3 ? rnd() % 3 : value();
		int r = rnd() % 100;

		if (k->ext_pick)
			x = k->ext_pick(type, x);
		len = k->ext_len(type);
		if (r < 4)
			type = k->ext_max + 1 + rnd() % 3;	/* unknown */
		else if (r < 8)
			len = len ? len - 1 : 4;		/* wrong length */
		nl_put_attr(n, type, &x, len, NLA_HDRLEN + len);
		if (type > k->ext_max || len != k->ext_len(type))
			parse_error(ps, true, NULL);
		else if (k->ext_range(type, x))
			parse_error(ps, false, k->ext_range(type, x));
		if (type <= k->ext_max) {
			ps->seen[type] = 1;
			ps->val[type] = x;
		}
	}
	nest->nla_len = (uint16_t)((char *)n + n->nlmsg_len - (char *)nest);
}

/*
 * Append random attributes inside TCA_OPTIONS and predict how the module
 * parses them, from its documented rules: mainline's types strictly (no
 * flags, exact payload lengths, nothing trailing, ranges in the policy)
 * into mainp; in a walk in order (walk), every other type rejected except
 * the module's nest, parsed strictly in turn (NLA_F_NESTED set, its own
 * types) into extp.  The last value of each type counts.
 */
static void build_attrs(struct nlmsghdr *n, const struct rules *k, const struct params *old,
			bool exists, struct parse *mainp, struct parse *walk, struct parse *extp)
{
	struct nlattr *opts = (void *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
	int nattrs = rnd() % 6, i;

	opts->nla_type = TCA_OPTIONS;
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + NLA_HDRLEN;
	for (i = 0; i < nattrs; i++) {
		uint16_t type = 1 + rnd() % k->main_max, len, claimed;
		unsigned char data[64];
		uint32_t x = value();
		int r = rnd() % 100;

		if (r < 30) {
			/* Each nest is checked in turn; the last one counts. */
			memset(extp, 0, sizeof(*extp));
			build_ext(n, k, extp);
			if (extp->bad)
				parse_error(walk, true, NULL);
			else if (extp->msg)
				parse_error(walk, false, extp->msg);
			continue;
		}
		if (k->main_pick)
			x = k->main_pick(type, x, old, exists);
		len = k->main_len(type);
		memcpy(data, &x, 4);
		if (r < 34)
			type = 0;			/* UNSPEC */
		else if (r < 38)
			type = k->main_max + 1 + rnd() % 3;	/* unknown */
		else if (r < 40)
			type = rnd() & 0x3fff;		/* anything */
		else if (r < 43)
			type |= NLA_F_NESTED;		/* nested garbage */
		else if (r < 46)
			len = rnd() % 4;		/* truncated */
		else if (r < 49)
			len = 5 + rnd() % 40;		/* oversized */
		for (int b = 4; b < len; b++)
			data[b] = rnd();
		claimed = NLA_HDRLEN + len;
		if (r >= 49 && r < 51)
			claimed += 1 + rnd() % 8;	/* lies about its length */
		nl_put_attr(n, type, data, len, claimed);

		if (claimed != NLA_HDRLEN + len) {
			/* a length lie past the end: everything after is garbage */
			parse_error(mainp, true, NULL);
			break;
		}
		if ((type & NLA_TYPE_MASK) == TCA_CODEL_EXT) {
			/* a random type hit the nest's: garbage inside */
			parse_error(walk, true, NULL);
		} else if (type & ~NLA_TYPE_MASK) {
			/* a flag on a mainline type, or a flagged unknown one */
			if ((type & NLA_TYPE_MASK) <= k->main_max)
				parse_error(mainp, true, NULL);
			else
				parse_error(walk, false, k->unknown);
		} else if (type != 0 && type <= k->main_max && len != k->main_len(type)) {
			parse_error(mainp, true, NULL);
		} else if (type == 0 || type > k->main_max) {
			parse_error(walk, false, k->unknown);
		} else {
			if (len == 1)
				x &= 0xff;	/* a u8: its one byte */
			if (k->main_range(type, x))
				parse_error(mainp, false, k->main_range(type, x));
			mainp->seen[type] = 1;
			mainp->val[type] = x;
		}
	}
	opts->nla_len = (uint16_t)((char *)n + n->nlmsg_len - (char *)opts);
}

/*
 * The verdict as far as parsing goes, in the order the module checks:
 * every mainline attribute, then the walk.  False: structurally invalid,
 * rejected with no message to check.  Else mainp->msg is the first error.
 */
static bool parsed(struct verdict *v, const struct params *old, struct parse *mainp,
		   const struct parse *walk)
{
	v->p = *old;
	v->ok = false;
	v->range_error = false;
	v->msg = NULL;
	if (mainp->bad || (!mainp->msg && walk->bad))
		return false;
	if (!mainp->msg)
		mainp->msg = walk->msg;
	return true;
}

/* Rejected with msg, the module's own extack, if there is one. */
static bool rejected(struct verdict *v, const char *msg)
{
	if (!msg)
		return false;
	v->msg = msg;
	v->range_error = true;
	return true;
}

/* --- codel --------------------------------------------------------------- */

static uint16_t codel_main_len(uint16_t type)
{
	(void)type;
	return 4;
}

static uint16_t codel_ext_len(uint16_t type)
{
	switch (type) {
	case TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR:
	case TCA_CODEL_EXT_CE_THRESHOLD_MASK:
		return 1;
	case TCA_CODEL_EXT_CE_THRESHOLD_OFF:
		return 0;
	default:
		return 4;
	}
}

static const char *codel_main_range(uint16_t type, uint32_t x)
{
	switch (type) {
	case TCA_CODEL_TARGET:
		return x <= TIME_MAX_US ? NULL : "codel: target must be at most 100s";
	case TCA_CODEL_CE_THRESHOLD:
		return x <= TIME_MAX_US ? NULL : "codel: ce_threshold must be at most 100s";
	case TCA_CODEL_INTERVAL:
		return x <= TIME_MAX_US ? NULL : "codel: interval must be at most 100s";
	case TCA_CODEL_LIMIT:
		return x >= 1 ? NULL : "codel: limit must be at least 1 packet";
	case TCA_CODEL_ECN:
		return x <= 1 ? NULL : "codel: ecn must be 0 or 1";
	}
	return NULL;
}

static const char *codel_ext_range(uint16_t type, uint32_t x)
{
	if (type == TCA_CODEL_EXT_SPLIT_GSO && x > 1)
		return "codel: split_gso must be 0 or 1";
	if (type == TCA_CODEL_EXT_MEMORY_LIMIT && (!x || x > 1u << 31))
		return "codel: memory_limit must be from 1 byte to 2GB";
	if (type == TCA_CODEL_EXT_ADAPTIVE_TARGET && x > 1)
		return "codel: adaptive_target must be 0 or 1";
	return NULL;
}

static uint32_t codel_ext_pick(uint16_t type, uint32_t x)
{
	if (type == TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR ||
	    type == TCA_CODEL_EXT_CE_THRESHOLD_MASK)
		x = rnd() & (rnd() % 2 ? 0x3 : 0xff);
	return x;
}

static const struct rules codel_rules = {
	.main_max	= TCA_CODEL_MAX,
	.ext_max	= TCA_CODEL_EXT_MAX,
	.main_len	= codel_main_len,
	.ext_len	= codel_ext_len,
	.main_range	= codel_main_range,
	.ext_range	= codel_ext_range,
	.ext_pick	= codel_ext_pick,
	.unknown	= "codel: unknown attribute type",
};

/*
 * codel: mainline's types 1..5 and the TCA_CODEL_EXT nest's 1..6; then the
 * cross checks (ce_threshold set and off at once, the selector inside its
 * mask), then all applied at once.
 */
static void codel_build_options(struct nlmsghdr *n, const struct params *old,
				struct verdict *v)
{
	struct parse mainp = { 0 }, walk = { 0 }, extp = { 0 };
	uint8_t selector, mask;
	bool sel, msk, off;

	build_attrs(n, &codel_rules, old, false, &mainp, &walk, &extp);
	if (!parsed(v, old, &mainp, &walk))
		return;
	sel = extp.seen[TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR];
	msk = extp.seen[TCA_CODEL_EXT_CE_THRESHOLD_MASK];
	off = extp.seen[TCA_CODEL_EXT_CE_THRESHOLD_OFF];
	mask = msk ? extp.val[TCA_CODEL_EXT_CE_THRESHOLD_MASK] : old->mask;
	if (sel)
		selector = extp.val[TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR];
	else if (msk && !mask)
		selector = 0;			/* mask 0 alone: selector off */
	else
		selector = old->selector;
	if (!mainp.msg && mainp.seen[TCA_CODEL_CE_THRESHOLD] && off)
		mainp.msg = "codel: ce_threshold given and switched off at once";
	if (!mainp.msg && (selector & ~mask))
		mainp.msg = "codel: ce_threshold_selector has bits outside its mask";
	if (rejected(v, mainp.msg))
		return;
	v->ok = true;
	if (mainp.seen[TCA_CODEL_TARGET])
		v->p.target = us_to_time(mainp.val[TCA_CODEL_TARGET]);
	if (mainp.seen[TCA_CODEL_INTERVAL])
		v->p.interval = us_to_time(mainp.val[TCA_CODEL_INTERVAL]);
	if (mainp.seen[TCA_CODEL_CE_THRESHOLD])
		v->p.ce_threshold = us_to_time(mainp.val[TCA_CODEL_CE_THRESHOLD]);
	if (off)
		v->p.ce_threshold = DISABLED;
	if (mainp.seen[TCA_CODEL_LIMIT])
		v->p.limit = mainp.val[TCA_CODEL_LIMIT];
	if (mainp.seen[TCA_CODEL_ECN])
		v->p.ecn = mainp.val[TCA_CODEL_ECN];
	if (extp.seen[TCA_CODEL_EXT_SPLIT_GSO])
		v->p.split_gso = extp.val[TCA_CODEL_EXT_SPLIT_GSO];
	if (extp.seen[TCA_CODEL_EXT_MEMORY_LIMIT])
		v->p.memory_limit = extp.val[TCA_CODEL_EXT_MEMORY_LIMIT];
	if (extp.seen[TCA_CODEL_EXT_ADAPTIVE_TARGET])
		v->p.adaptive = extp.val[TCA_CODEL_EXT_ADAPTIVE_TARGET];
	v->p.selector = selector;
	v->p.mask = mask;
}

/* --- fq_codel_ext -------------------------------------------------------- */

static uint16_t fq_main_len(uint16_t type)
{
	return type == TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR ||
	       type == TCA_FQ_CODEL_CE_THRESHOLD_MASK ? 1 : 4;
}

static uint16_t fq_ext_len(uint16_t type)
{
	return type == TCA_FQ_CODEL_EXT_CE_THRESHOLD_OFF ? 0 : 4;
}

static const char *fq_main_range(uint16_t type, uint32_t x)
{
	switch (type) {
	case TCA_FQ_CODEL_TARGET:
		return x <= TIME_MAX_US ? NULL : "fq_codel_ext: target must be at most 100s";
	case TCA_FQ_CODEL_LIMIT:
		return x >= 1 ? NULL : "fq_codel_ext: limit must be at least 1 packet";
	case TCA_FQ_CODEL_INTERVAL:
		return x <= TIME_MAX_US ? NULL : "fq_codel_ext: interval must be at most 100s";
	case TCA_FQ_CODEL_ECN:
		return x <= 1 ? NULL : "fq_codel_ext: ecn must be 0 or 1";
	case TCA_FQ_CODEL_FLOWS:
		return x >= 1 && x <= 65536 ? NULL :
		       "fq_codel_ext: flows must be from 1 to 65536";
	case TCA_FQ_CODEL_QUANTUM:
		return x >= 256 && x <= 1u << 20 ? NULL :
		       "fq_codel_ext: quantum must be from 256 to 1048576 bytes";
	case TCA_FQ_CODEL_CE_THRESHOLD:
		return x <= TIME_MAX_US ? NULL : "fq_codel_ext: ce_threshold must be at most 100s";
	case TCA_FQ_CODEL_DROP_BATCH_SIZE:
		return x >= 1 ? NULL : "fq_codel_ext: drop_batch must be at least 1 packet";
	case TCA_FQ_CODEL_MEMORY_LIMIT:
		return x >= 1 && x <= 1u << 31 ? NULL :
		       "fq_codel_ext: memory_limit must be from 1 byte to 2GB";
	}
	return NULL;
}

static const char *fq_ext_range(uint16_t type, uint32_t x)
{
	if (type == TCA_FQ_CODEL_EXT_SPLIT_GSO && x > 1)
		return "fq_codel_ext: split_gso must be 0 or 1";
	if (type == TCA_FQ_CODEL_EXT_HASH_HEADERS && x > 1)
		return "fq_codel_ext: hash_headers must be 0 or 1";
	if (type == TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET && x > 1)
		return "fq_codel_ext: adaptive_target must be 0 or 1";
	return NULL;
}

/* Selector and mask bytes that often fit; flows a table may have. */
static uint32_t fq_main_pick(uint16_t type, uint32_t x, const struct params *old,
			     bool exists)
{
	if (type == TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR ||
	    type == TCA_FQ_CODEL_CE_THRESHOLD_MASK)
		return rnd() & (rnd() % 2 ? 0x3 : 0xff);
	if (type == TCA_FQ_CODEL_FLOWS && rnd() % 2)
		return exists && rnd() % 2 ? old->flows : 1 + rnd() % 2048;
	return x;
}

static const struct rules fq_rules = {
	.main_max	= TCA_FQ_CODEL_MAX,
	.ext_max	= TCA_FQ_CODEL_EXT_MAX,
	.main_len	= fq_main_len,
	.ext_len	= fq_ext_len,
	.main_range	= fq_main_range,
	.ext_range	= fq_ext_range,
	.main_pick	= fq_main_pick,
	.unknown	= "fq_codel_ext: unknown attribute type",
};

/*
 * fq_codel_ext: mainline fq_codel's types 1..11 (u32s, the selector and
 * mask u8s) and its TCA_FQ_CODEL_EXT nest (split_gso, the ce_threshold
 * off-switch, hash_headers, adaptive_target); then flows, which only a new qdisc takes (a change may
 * repeat its value), ce_threshold set and off at once, and the selector
 * (given, kept, or cleared by a mask of 0 sent alone) inside its mask
 * (given, or kept); then all applied at once.
 */
static void fq_build_options(struct nlmsghdr *n, const struct params *old,
			     bool exists, struct verdict *v)
{
	struct parse mainp = { 0 }, walk = { 0 }, extp = { 0 };
	uint8_t selector, mask;
	bool off;

	build_attrs(n, &fq_rules, old, exists, &mainp, &walk, &extp);
	if (!parsed(v, old, &mainp, &walk))
		return;
	mask = mainp.seen[TCA_FQ_CODEL_CE_THRESHOLD_MASK] ?
	       mainp.val[TCA_FQ_CODEL_CE_THRESHOLD_MASK] : old->mask;
	if (mainp.seen[TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR])
		selector = mainp.val[TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR];
	else if (mainp.seen[TCA_FQ_CODEL_CE_THRESHOLD_MASK] && !mask)
		selector = 0;			/* mask 0 alone: selector off */
	else
		selector = old->selector;
	off = extp.seen[TCA_FQ_CODEL_EXT_CE_THRESHOLD_OFF];
	if (!mainp.msg && exists && mainp.seen[TCA_FQ_CODEL_FLOWS] &&
	    mainp.val[TCA_FQ_CODEL_FLOWS] != old->flows)
		mainp.msg = "fq_codel_ext: flows can only be set when the qdisc is created";
	if (!mainp.msg && mainp.seen[TCA_FQ_CODEL_CE_THRESHOLD] && off)
		mainp.msg = "fq_codel_ext: ce_threshold given and switched off at once";
	if (!mainp.msg && (selector & ~mask))
		mainp.msg = "fq_codel_ext: ce_threshold_selector has bits outside its mask";
	if (rejected(v, mainp.msg))
		return;
	v->ok = true;
	if (mainp.seen[TCA_FQ_CODEL_TARGET])
		v->p.target = us_to_time(mainp.val[TCA_FQ_CODEL_TARGET]);
	if (mainp.seen[TCA_FQ_CODEL_INTERVAL])
		v->p.interval = us_to_time(mainp.val[TCA_FQ_CODEL_INTERVAL]);
	if (mainp.seen[TCA_FQ_CODEL_CE_THRESHOLD])
		v->p.ce_threshold = us_to_time(mainp.val[TCA_FQ_CODEL_CE_THRESHOLD]);
	if (off)
		v->p.ce_threshold = DISABLED;
	if (mainp.seen[TCA_FQ_CODEL_LIMIT])
		v->p.limit = mainp.val[TCA_FQ_CODEL_LIMIT];
	if (mainp.seen[TCA_FQ_CODEL_ECN])
		v->p.ecn = mainp.val[TCA_FQ_CODEL_ECN];
	if (mainp.seen[TCA_FQ_CODEL_QUANTUM])
		v->p.quantum = mainp.val[TCA_FQ_CODEL_QUANTUM];
	if (mainp.seen[TCA_FQ_CODEL_DROP_BATCH_SIZE])
		v->p.drop_batch = mainp.val[TCA_FQ_CODEL_DROP_BATCH_SIZE];
	if (mainp.seen[TCA_FQ_CODEL_MEMORY_LIMIT])
		v->p.memory_limit = mainp.val[TCA_FQ_CODEL_MEMORY_LIMIT];
	if (!exists && mainp.seen[TCA_FQ_CODEL_FLOWS])
		v->p.flows = mainp.val[TCA_FQ_CODEL_FLOWS];
	if (extp.seen[TCA_FQ_CODEL_EXT_SPLIT_GSO])
		v->p.split_gso = extp.val[TCA_FQ_CODEL_EXT_SPLIT_GSO];
	if (extp.seen[TCA_FQ_CODEL_EXT_HASH_HEADERS])
		v->p.hash_headers = extp.val[TCA_FQ_CODEL_EXT_HASH_HEADERS];
	if (extp.seen[TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET])
		v->p.adaptive = extp.val[TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET];
	v->p.selector = selector;
	v->p.mask = mask;
}

void build_options(struct nlmsghdr *n, const struct params *old, bool exists,
		   struct verdict *v)
{
	if (model_fq)
		fq_build_options(n, old, exists, v);
	else
		codel_build_options(n, old, v);
}
