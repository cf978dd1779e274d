// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * codel-send N DEV...: N 64-byte IPv4 frames (Not-ECT) into each DEV's
 * qdisc, with AF_PACKET: a known number of packets through a qdisc without
 * a sender or a receiver, for the guest tests that count them.  Exit status
 * 1 when a frame was refused (ENOBUFS: the qdisc dropped it at enqueue), 2
 * on bad usage.
 */
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"

int main(int argc, char **argv)
{
	unsigned long n, refused = 0;
	char *end;
	int fd, i;

	if (argc < 3 || !(n = strtoul(argv[1], &end, 0)) || *end) {
		fprintf(stderr, "usage: codel-send N DEV...\n");
		return 2;
	}
	fd = frame_socket();
	if (fd < 0) {
		perror("codel-send: packet socket");
		return 2;
	}
	for (i = 2; i < argc; i++) {
		int ifindex = (int)if_nametoindex(argv[i]);

		if (!ifindex) {
			fprintf(stderr, "codel-send: no device %s\n", argv[i]);
			return 2;
		}
		for (unsigned long k = 0; k < n; k++) {
			int err = frame_send(fd, ifindex, FRAME_MIN, 0);

			if (err) {
				printf("# codel-send: %s: sendto: %s\n", argv[i], strerror(-err));
				refused++;
			}
		}
	}
	return refused ? 1 : 0;
}
