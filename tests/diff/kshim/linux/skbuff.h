/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * A packet as the reference queue in tests/diff/ref.c keeps it: an id, a
 * length, the enqueue time (what sch_codel keeps in the qdisc cb) and the
 * DS field (DSCP 0; the two ECN bits vary).
 */
#ifndef _DIFF_KSHIM_SKBUFF_H
#define _DIFF_KSHIM_SKBUFF_H

#include <linux/types.h>

struct sk_buff {
	struct sk_buff	*next;
	u32		id;
	u32		len;
	u32		tstamp;
	u8		dsfield;
};

static inline int skb_get_dsfield(struct sk_buff *skb)
{
	return skb->dsfield;
}

#endif
