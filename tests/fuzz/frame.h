/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * IPv4/UDP frames sent straight into a device's qdisc with AF_PACKET: the
 * cheapest load a test tool can put on a qdisc under TCG.
 */
#ifndef TESTS_FUZZ_FRAME_H
#define TESTS_FUZZ_FRAME_H

#include <stddef.h>

#define FRAME_MIN	64
#define FRAME_MAX	1414		/* fits MTU 1500 */

/* An AF_PACKET socket for frame_send(); -1 on error. */
int frame_socket(void);

/*
 * One frame of len bytes (FRAME_MIN..FRAME_MAX) with ECN codepoint ecn
 * (0 Not-ECT .. 3 CE) through ifindex: 0 or -errno (ENOBUFS: the qdisc
 * dropped it).
 */
int frame_send(int fd, int ifindex, size_t len, unsigned int ecn);

#endif /* TESTS_FUZZ_FRAME_H */
