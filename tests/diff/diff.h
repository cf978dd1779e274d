/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * The interface both sides of the differential test implement: ref.c over
 * a kernel's own include/net/codel_impl.h, ours.c over codel.h.  Each is
 * a FIFO glued to its CoDel exactly as its qdisc glues it (limit
 * tail-drop, enqueue timestamp, backlog kept by the dequeue callback).
 */
#ifndef _CODEL_DIFF_H
#define _CODEL_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#define DIFF_MAX_DROPS	4096	/* >= the largest limit a trace uses */

struct diff_cfg {
	uint32_t	target_us;
	uint32_t	interval_us;
	uint32_t	ce_threshold_us;	/* UINT32_MAX: not set */
	uint32_t	mtu;
	uint32_t	limit;
	bool		ecn;
	uint8_t		selector;
	uint8_t		mask;
};

/* What one dequeue did: the packet delivered and the ones dropped. */
struct diff_out {
	int64_t		delivered;	/* packet id, -1 for none */
	uint8_t		dsfield;	/* of the delivered packet */
	uint32_t	ndrops;
	uint32_t	drops[DIFF_MAX_DROPS];
};

/* Everything the algorithm keeps, compared after every event. */
struct diff_state {
	uint32_t	count, lastcount;
	uint32_t	first_above_time, drop_next, ldelay;
	uint32_t	maxpacket, ecn_mark, ce_mark;
	uint32_t	backlog, qlen;
	uint16_t	rec_inv_sqrt;
	bool		dropping;
};

/*
 * The kernel's and our codel_vars/codel_stats are different types with
 * the same field names: one initializer reads either.
 */
#define DIFF_STATE(vars, stats, backlog_, qlen_) ((struct diff_state){	\
	.count = (vars).count, .lastcount = (vars).lastcount,		\
	.first_above_time = (vars).first_above_time,			\
	.drop_next = (vars).drop_next, .ldelay = (vars).ldelay,		\
	.maxpacket = (stats).maxpacket, .ecn_mark = (stats).ecn_mark,	\
	.ce_mark = (stats).ce_mark, .backlog = (backlog_),		\
	.qlen = (qlen_), .rec_inv_sqrt = (vars).rec_inv_sqrt,		\
	.dropping = (vars).dropping })

void *ref_new(const struct diff_cfg *cfg);
bool ref_enqueue(void *q, uint64_t now_ns, uint32_t len, uint8_t dsfield);
void ref_dequeue(void *q, uint64_t now_ns, struct diff_out *out);
void ref_state(void *q, struct diff_state *st);
void ref_forget_deadline(void *q);
void ref_trim(void *q, uint32_t n);
void ref_free(void *q);

void *ours_new(const struct diff_cfg *cfg);
bool ours_enqueue(void *q, uint64_t now_ns, uint32_t len, uint8_t dsfield);
void ours_dequeue(void *q, uint64_t now_ns, struct diff_out *out);
void ours_state(void *q, struct diff_state *st);
void ours_trim(void *q, uint32_t n);
void ours_free(void *q);

#endif
