// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/* IPv4/UDP frames into a qdisc; see frame.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "frame.h"

int frame_socket(void)
{
	return socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
}

/*
 * Header checksum valid, so that CoDel's marking (which rewrites TOS and
 * the checksum) works on it as on forwarded traffic.
 */
static void frame_build(unsigned char *f, size_t len, unsigned int ecn)
{
	static const unsigned char eth[14] = { 0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00 };
	unsigned char *ip = f + 14;
	uint32_t sum = 0;
	size_t ilen = len - 14;

	memset(f, 0, len);
	memcpy(f, eth, sizeof(eth));
	ip[0] = 0x45;
	ip[1] = ecn & 3;
	ip[2] = ilen >> 8;
	ip[3] = ilen & 0xff;
	ip[8] = 64;
	ip[9] = 17;
	memcpy(ip + 12, (unsigned char[]){ 198, 18, 5, 1, 198, 18, 5, 2 }, 8);
	for (int k = 0; k < 20; k += 2)
		sum += (uint32_t)(ip[k] << 8 | ip[k + 1]);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = ~((sum & 0xffff) + (sum >> 16)) & 0xffff;
	ip[10] = sum >> 8;
	ip[11] = sum & 0xff;
	ip[20] = 0x13;		/* UDP 5000 -> 5001, no checksum */
	ip[21] = 0x88;
	ip[22] = 0x13;
	ip[23] = 0x89;
	ip[24] = (ilen - 20) >> 8;
	ip[25] = (ilen - 20) & 0xff;
}

int frame_send(int fd, int ifindex, size_t len, unsigned int ecn)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = ifindex,
				   .sll_halen = ETH_ALEN, .sll_protocol = htons(ETH_P_IP) };
	unsigned char f[FRAME_MAX];

	if (len < FRAME_MIN || len > FRAME_MAX)
		return -EINVAL;
	frame_build(f, len, ecn);
	return sendto(fd, f, len, 0, (void *)&sll, sizeof(sll)) < 0 ? -errno : 0;
}
