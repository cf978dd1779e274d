/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/* The kernel's clock, as the differential driver sets it before each call. */
#ifndef _DIFF_KSHIM_KTIME_H
#define _DIFF_KSHIM_KTIME_H

#include <linux/types.h>

extern u64 diff_ref_clock_ns;

static inline u64 ktime_get_ns(void)
{
	return diff_ref_clock_ns;
}

#endif
