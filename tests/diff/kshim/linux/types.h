/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Userspace stand-ins for the few kernel facilities a kernel's own
 * include/net/codel.h and codel_impl.h use, so that tests/diff can compile
 * them unchanged.  Only declarations and trivial arithmetic: the logic
 * under test is the kernel's.
 */
#ifndef _DIFF_KSHIM_TYPES_H
#define _DIFF_KSHIM_TYPES_H

#include <limits.h>
#include <string.h>

/* The fixed-width types, as the rest of the userspace builds have them. */
#include "../../../../user/shim/linux/types.h"

#define unlikely(x)	__builtin_expect(!!(x), 0)
#define likely(x)	__builtin_expect(!!(x), 1)

/* As <linux/typecheck.h>: a compile-time type check that evaluates to 1. */
#define typecheck(type, x) \
	({ type __dummy; __typeof__(x) __dummy2; \
	   (void)(&__dummy == &__dummy2); 1; })

#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L

/* As <asm-generic/div64.h>: divide in place, return the remainder. */
#define do_div(n, base) ({ u32 __rem = (u64)(n) % (base); \
			   (n) = (u64)(n) / (base); __rem; })

/* As <linux/minmax.h>, without its type checks. */
#define max_t(type, a, b) \
	({ type __a = (a); type __b = (b); __a > __b ? __a : __b; })

/* As <asm-generic/rwonce.h>: plain accesses in a single thread. */
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, val)	((x) = (val))

/* As <linux/reciprocal_div.h>. */
static inline u32 reciprocal_scale(u32 val, u32 ep_ro)
{
	return (u32)(((u64)val * ep_ro) >> 32);
}

#endif
