/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/* INET_ECN_set_ce() on the shim packet: CE on ECT(0), ECT(1) or CE. */
#ifndef _DIFF_KSHIM_INET_ECN_H
#define _DIFF_KSHIM_INET_ECN_H

#include <linux/skbuff.h>

static inline int INET_ECN_set_ce(struct sk_buff *skb)
{
	if (!(skb->dsfield & 3))
		return 0;
	skb->dsfield |= 3;
	return 1;
}

#endif
