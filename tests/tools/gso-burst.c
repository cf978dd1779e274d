// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * gso-burst DEST COUNT[,COUNT...] SEGS SIZE [PAUSE]
 *
 * Send COUNT UDP GSO packets of SEGS segments of SIZE bytes to DEST port 9
 * at once; with several COUNTs, one burst each, PAUSE seconds apart.  Each
 * sendto() becomes one GSO skb (UDP_SEGMENT) larger than the MTU, so that a
 * qdisc holds packets bigger than CoDel's MTU guard: only then can one
 * dequeue drop and still leave the queue empty (tests/guest/codel-regress.sh).
 * Prints the number of packets sent; exits 1 if the kernel refused one.
 *
 * C, not Python: the guest tests start it up to 20 times, and each Python
 * start under TCG cost 0.5 to 1 s (this one: a few milliseconds).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103		/* <linux/udp.h> */
#endif

static unsigned long number(const char *s, const char **end, unsigned long max)
{
	char *e;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &e, 10);
	if (errno || e == s || v > max || (!end && *e)) {
		fprintf(stderr, "gso-burst: bad number '%s'\n", s);
		exit(2);
	}
	if (end)
		*end = e;
	return v;
}

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET, .sin_port = htons(9) };
	const char *p;
	unsigned long segs, size, sent = 0;
	struct timespec pause = { 0 };
	char *payload;
	int fd, seg, burst = 0;

	if (argc < 5 || argc > 6 || inet_pton(AF_INET, argv[1], &dst.sin_addr) != 1) {
		fprintf(stderr, "usage: gso-burst DEST COUNT[,COUNT...] SEGS SIZE [PAUSE]\n");
		return 2;
	}
	segs = number(argv[3], NULL, 64);
	size = number(argv[4], NULL, 65000);
	if (!segs || !size || segs * size > 65000) {
		fprintf(stderr, "gso-burst: SEGS x SIZE must be 1 to 65000 bytes\n");
		return 2;
	}
	if (argc == 6) {
		char *e;
		double s = strtod(argv[5], &e);

		if (e == argv[5] || *e || s < 0 || s > 60) {
			fprintf(stderr, "gso-burst: bad pause '%s'\n", argv[5]);
			return 2;
		}
		pause.tv_sec = (time_t)s;
		pause.tv_nsec = (long)((s - (double)pause.tv_sec) * 1e9);
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	seg = (int)size;
	if (fd < 0 || setsockopt(fd, IPPROTO_UDP, UDP_SEGMENT, &seg, sizeof(seg))) {
		perror("gso-burst: UDP socket with UDP_SEGMENT");
		return 1;
	}
	payload = calloc(segs, size);
	if (!payload)
		return 1;
	for (p = argv[2]; *p; ) {
		unsigned long count = number(p, &p, 100000);

		if (*p && *p != ',') {
			fprintf(stderr, "gso-burst: bad count list '%s'\n", argv[2]);
			return 2;
		}
		if (*p)
			p++;
		if (burst++)
			nanosleep(&pause, NULL);
		while (count--) {
			if (sendto(fd, payload, segs * size, 0,
				   (struct sockaddr *)&dst, sizeof(dst)) < 0) {
				fprintf(stderr, "gso-burst: sendto: %s\n", strerror(errno));
				return 1;
			}
			sent++;
		}
	}
	printf("%lu\n", sent);
	return 0;
}
