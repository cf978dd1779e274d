/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * The few rtnetlink requests the guest's test tools make, by hand so that
 * the tools need nothing beyond libc (the guest carries no libmnl): build a
 * request, send it, wait for its ack and the extack text.
 */
#ifndef TESTS_FUZZ_NL_H
#define TESTS_FUZZ_NL_H

#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

/*
 * A tc request: header, tcmsg, room for attributes.  Pass the request
 * itself ((void *)&q) where a struct nlmsghdr * goes: through &q.n the
 * compiler sees a 16-byte object and rejects writing attributes after it.
 */
struct nl_tc_req {
	struct nlmsghdr	n;
	struct tcmsg	t;
	char		buf[1024];
};

/* An NETLINK_ROUTE socket asking for extended acks; -1 on error. */
int nl_open(void);

/*
 * Append an attribute of len bytes claiming claimed_len (a fuzzer lies
 * about lengths on purpose; NLA_HDRLEN + len otherwise).
 */
void nl_put_attr(struct nlmsghdr *n, uint16_t type, const void *data,
		 uint16_t len, uint16_t claimed_len);

/* Open a nest at the end of n; nl_nest_end() sets its length. */
struct nlattr *nl_nest_start(struct nlmsghdr *n, uint16_t type);
void nl_nest_end(struct nlmsghdr *n, struct nlattr *nest);

/*
 * Send n (NLM_F_REQUEST | NLM_F_ACK added, a new sequence number) and wait
 * for its ack: 0 or -errno, with any extack text copied to msg.  Exits on
 * a socket error: every caller is a test tool that cannot go on.
 */
int nl_transact(int fd, struct nlmsghdr *n, char *msg, size_t msglen);

/* A sequence number for a request the caller sends itself (a dump). */
uint32_t nl_next_seq(void);

/* Start a tc request (RTM_*QDISC) for ifindex, parent and handle. */
void nl_tc_init(struct nl_tc_req *q, uint16_t type, uint16_t flags,
		int ifindex, uint32_t parent, uint32_t handle);

/* Add (with kind) or delete a qdisc; -errno, extack text in msg. */
int nl_qdisc(int fd, uint16_t type, uint16_t flags, int ifindex,
	     uint32_t parent, uint32_t handle, const char *kind);

/* A dummy device, up; txqs transmit queues unless 0. */
int nl_add_dummy(int fd, const char *name, unsigned int txqs);

/* Link ifindex up or down, and its MTU unless mtu is 0. */
int nl_set_link(int fd, int ifindex, bool up, uint32_t mtu);
int nl_del_link(int fd, int ifindex);

#endif /* TESTS_FUZZ_NL_H */
