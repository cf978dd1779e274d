/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Userspace stand-in for the kernel's <linux/types.h>, just enough for
 * codel.h and pkt_sched_codel.h to build unchanged in host tools.
 */
#ifndef _CODEL_SHIM_LINUX_TYPES_H
#define _CODEL_SHIM_LINUX_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
typedef uint32_t __u32;
typedef int32_t __s32;

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

#endif
