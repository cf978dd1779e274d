/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * The fuzzer's model of sch_codel's configuration, or with model_use_fq()
 * of fq_codel_ext's: random TCA_OPTIONS payloads, each with what the
 * module must do with it (accept and store these settings, or reject with
 * this extack), from the modules' documented rules (docs/uapi.md,
 * docs/fq_codel.md), not from their code.
 */
#ifndef TESTS_FUZZ_MODEL_H
#define TESTS_FUZZ_MODEL_H

#include <linux/netlink.h>
#include <stdbool.h>
#include <stdint.h>

#define TIME_MAX_US	100000000u
#define DISABLED	0x7fffffffu
#define DEFAULT_MEMORY	(32u << 20)

struct params {			/* as the module stores them */
	uint32_t target, interval, ce_threshold;	/* codel units */
	uint32_t limit;
	uint32_t ecn;
	uint32_t split_gso;
	uint32_t memory_limit;		/* bytes */
	uint32_t adaptive;		/* adaptive_target */
	uint8_t selector, mask;
	/* fq_codel_ext only */
	uint32_t flows, quantum, drop_batch, hash_headers;
};

/* What the module will do with this TCA_OPTIONS payload. */
struct verdict {
	bool		ok;
	bool		range_error;	/* msg is the extack the module must give */
	const char	*msg;		/* its extack text */
	struct params	p;		/* new settings if ok */
};

/* The fuzzer's random sequence: the same for a seed. */
void rnd_seed(uint64_t seed);
uint32_t rnd(void);

/* Microseconds to and from the module's 1024 ns clock units. */
uint32_t us_to_time(uint32_t us);
uint32_t time_to_us(uint32_t t);

/* Model fq_codel_ext instead of codel from now on. */
void model_use_fq(void);
extern bool model_fq;

/*
 * A new qdisc's settings; quantum, fq_codel_ext's default, is the device's
 * MTU plus its link header (the fuzzer knows it, the model does not).
 */
void defaults(struct params *p, uint32_t quantum);

/*
 * Append a random TCA_OPTIONS to n for a qdisc whose settings are old
 * (exists: a change of it; else a new one, with old its defaults), and
 * predict the outcome in v.
 */
void build_options(struct nlmsghdr *n, const struct params *old, bool exists,
		   struct verdict *v);

#endif /* TESTS_FUZZ_MODEL_H */
