/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * What the differential driver (fq-diff.c) reads from each side (side.c,
 * compiled once around a kernel's sch_fq_codel.c and once around ours):
 * the qdisc's whole state, flow by flow in service order.
 */
#ifndef _FQDIFF_H
#define _FQDIFF_H

#include <stdbool.h>
#include <stdint.h>

#define FQDIFF_MAX_ACTIVE	1024

struct fqdiff_flow {
	uint32_t	idx, qlen, backlog;
	int32_t		deficit;
	uint32_t	count, lastcount, first_above_time, drop_next, ldelay;
	uint16_t	rec_inv_sqrt;
	bool		dropping;
};

struct fqdiff_state {
	uint32_t	qlen, backlog, drops, memory_usage;
	uint32_t	maxpacket, ecn_mark, ce_mark;
	uint32_t	drop_overlimit, drop_overmemory, new_flow_count;
	uint32_t	gso_qlen;
	uint32_t	n_new, n_old;
	struct fqdiff_flow flows[FQDIFF_MAX_ACTIVE];	/* new, then old */
};

struct Qdisc;
struct Qdisc_ops;

int ref_init(void);
void ref_state(struct Qdisc *sch, struct fqdiff_state *st);
int ours_init(void);
void ours_state(struct Qdisc *sch, struct fqdiff_state *st);
/* Ours alone: its histograms' totals, the qdisc's and the flows' summed. */
void ours_hist_totals(struct Qdisc *sch, uint64_t *qdisc, uint64_t *flows);

/* fqshim.c */
struct Qdisc_ops *fqshim_ops(const char *id);
extern char fqshim_log[];
extern unsigned int fqshim_log_len;
void fqshim_log_reset(void);

#endif
