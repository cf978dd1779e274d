// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * udp-rehash send ADDR PORT SPORT ROUNDS N: ROUNDS x N datagrams of 1000
 * bytes from UDP port SPORT to ADDR:PORT, one 5-tuple throughout, with
 * the socket connected again before each round.  Each connect() draws the
 * socket a new random sk_txhash, which its packets carry as skb->hash, as
 * a TCP socket's do after each retransmission timeout (net.core.txrehash):
 * a qdisc that hashes skb->hash sees a new flow at each round.  Datagram
 * i (from 0) carries "i" in decimal.
 *
 * udp-rehash recv PORT COUNT MS: prints the number carried by each
 * datagram that reaches PORT, one a line, in arrival order, until COUNT
 * arrived or MS milliseconds passed without one.  Exit status 1 if fewer
 * than COUNT arrived, 2 on bad usage or a failed system call.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PAYLOAD	1000

static int usage(void)
{
	fprintf(stderr, "usage: udp-rehash send ADDR PORT SPORT ROUNDS N\n"
		"       udp-rehash recv PORT COUNT MS\n");
	return 2;
}

static int do_send(char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct sockaddr_in src = { .sin_family = AF_INET };
	int rounds = atoi(argv[3]), n = atoi(argv[4]), one = 1, fd, r, i;
	char buf[PAYLOAD];

	if (inet_pton(AF_INET, argv[0], &dst.sin_addr) != 1 || rounds < 1 || n < 1)
		return usage();
	dst.sin_port = htons(atoi(argv[1]));
	src.sin_port = htons(atoi(argv[2]));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&src, sizeof(src))) {
		perror("udp-rehash: socket");
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		if (connect(fd, (struct sockaddr *)&dst, sizeof(dst))) {
			perror("udp-rehash: connect");
			return 2;
		}
		for (i = 0; i < n; i++) {
			memset(buf, 0, sizeof(buf));
			snprintf(buf, sizeof(buf), "%d", r * n + i);
			if (send(fd, buf, sizeof(buf), 0) != sizeof(buf)) {
				perror("udp-rehash: send");
				return 2;
			}
		}
	}
	close(fd);
	return 0;
}

static int do_recv(char **argv)
{
	struct sockaddr_in me = { .sin_family = AF_INET };
	int count = atoi(argv[1]), ms = atoi(argv[2]), got = 0, fd;
	char buf[PAYLOAD + 1];
	struct pollfd p;

	me.sin_port = htons(atoi(argv[0]));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		perror("udp-rehash: socket");
		return 2;
	}
	p.fd = fd;
	p.events = POLLIN;
	while (got < count && poll(&p, 1, ms) == 1) {
		ssize_t len = recv(fd, buf, PAYLOAD, 0);

		if (len < 0) {
			perror("udp-rehash: recv");
			return 2;
		}
		buf[len] = '\0';
		printf("%s\n", buf);
		fflush(stdout);
		got++;
	}
	return got < count;
}

int main(int argc, char **argv)
{
	if (argc == 7 && !strcmp(argv[1], "send"))
		return do_send(argv + 2);
	if (argc == 5 && !strcmp(argv[1], "recv"))
		return do_recv(argv + 2);
	return usage();
}
