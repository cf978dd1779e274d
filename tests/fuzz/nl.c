// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/* rtnetlink by hand for the guest's test tools; see nl.h. */
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "nl.h"

int nl_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	int one = 1;

	if (fd < 0 || bind(fd, (void *)&sa, sizeof(sa)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)))
		return -1;
	return fd;
}

void nl_put_attr(struct nlmsghdr *n, uint16_t type, const void *data,
		 uint16_t len, uint16_t claimed_len)
{
	struct nlattr *a = (void *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	a->nla_type = type;
	a->nla_len = claimed_len;
	if (len)
		memcpy(a + 1, data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + NLA_ALIGN(NLA_HDRLEN + len);
}

struct nlattr *nl_nest_start(struct nlmsghdr *n, uint16_t type)
{
	struct nlattr *nest = (void *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	nl_put_attr(n, type, NULL, 0, NLA_HDRLEN);
	return nest;
}

void nl_nest_end(struct nlmsghdr *n, struct nlattr *nest)
{
	nest->nla_len = (uint16_t)((char *)n + n->nlmsg_len - (char *)nest);
}

/* The extack text among the TLVs after an ack's echoed request. */
static void ack_msg(const struct nlmsghdr *h, char *msg, size_t msglen)
{
	const struct nlmsgerr *e = NLMSG_DATA(h);
	const struct nlattr *a;
	int alen;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	/* The request is echoed unless capped (it always is on success). */
	a = (const void *)((const char *)e + sizeof(*e) +
			   (h->nlmsg_flags & NLM_F_CAPPED ? 0 :
			    NLMSG_ALIGN(e->msg.nlmsg_len) - NLMSG_HDRLEN));
	alen = (int)((const char *)h + h->nlmsg_len - (const char *)a);
	for (; alen >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= alen;
	     alen -= NLA_ALIGN(a->nla_len),
	     a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len)))
		if (a->nla_type == NLMSGERR_ATTR_MSG)
			snprintf(msg, msglen, "%.*s", (int)(a->nla_len - NLA_HDRLEN),
				 (const char *)(a + 1));
}

uint32_t nl_next_seq(void)
{
	static uint32_t seq;

	return __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
}

int nl_transact(int fd, struct nlmsghdr *n, char *msg, size_t msglen)
{
	char buf[8192];

	n->nlmsg_seq = nl_next_seq();
	n->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	if (send(fd, n, n->nlmsg_len, 0) < 0) {
		perror("netlink send");
		exit(2);
	}
	msg[0] = 0;
	for (;;) {
		ssize_t r = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (r < 0) {
			perror("netlink recv");
			exit(2);
		}
		for (h = (void *)buf; NLMSG_OK(h, (size_t)r); h = NLMSG_NEXT(h, r)) {
			if (h->nlmsg_seq != n->nlmsg_seq || h->nlmsg_type != NLMSG_ERROR)
				continue;
			ack_msg(h, msg, msglen);
			return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
		}
	}
}

void nl_tc_init(struct nl_tc_req *q, uint16_t type, uint16_t flags,
		int ifindex, uint32_t parent, uint32_t handle)
{
	memset(q, 0, sizeof(*q));
	q->n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	q->n.nlmsg_type = type;
	q->n.nlmsg_flags = flags;
	q->t.tcm_family = AF_UNSPEC;
	q->t.tcm_ifindex = ifindex;
	q->t.tcm_parent = parent;
	q->t.tcm_handle = handle;
}

int nl_qdisc(int fd, uint16_t type, uint16_t flags, int ifindex,
	     uint32_t parent, uint32_t handle, const char *kind)
{
	struct nl_tc_req q;
	struct nlmsghdr *n = (void *)&q;
	char msg[256];

	nl_tc_init(&q, type, flags, ifindex, parent, handle);
	if (kind)
		nl_put_attr(n, TCA_KIND, kind, strlen(kind) + 1,
			    NLA_HDRLEN + strlen(kind) + 1);
	return nl_transact(fd, n, msg, sizeof(msg));
}

/* A link request: header, ifinfomsg, room for a few attributes. */
struct link_req {
	struct nlmsghdr		n;
	struct ifinfomsg	i;
	char			buf[256];
};

int nl_add_dummy(int fd, const char *name, unsigned int txqs)
{
	struct link_req q = { 0 };
	/* the whole request, so that the compiler sees the room after n */
	struct nlmsghdr *n = (void *)&q;
	struct nlattr *info;
	char msg[256];
	int err;

	q.n.nlmsg_len = NLMSG_LENGTH(sizeof(q.i));
	q.n.nlmsg_type = RTM_NEWLINK;
	q.n.nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	q.i.ifi_family = AF_UNSPEC;
	q.i.ifi_flags = IFF_UP;
	q.i.ifi_change = IFF_UP;
	nl_put_attr(n, IFLA_IFNAME, name, strlen(name) + 1,
		    NLA_HDRLEN + strlen(name) + 1);
	if (txqs)
		nl_put_attr(n, IFLA_NUM_TX_QUEUES, &txqs, 4, NLA_HDRLEN + 4);
	info = nl_nest_start(n, IFLA_LINKINFO | NLA_F_NESTED);
	nl_put_attr(n, IFLA_INFO_KIND, "dummy", 6, NLA_HDRLEN + 6);
	nl_nest_end(n, info);
	err = nl_transact(fd, n, msg, sizeof(msg));
	if (err)
		fprintf(stderr, "add dummy %s: %s %s\n", name, strerror(-err), msg);
	return err;
}

static int link_request(int fd, int ifindex, uint16_t type, bool up, uint32_t mtu)
{
	struct link_req q = { 0 };
	struct nlmsghdr *n = (void *)&q;
	char msg[256];

	q.n.nlmsg_len = NLMSG_LENGTH(sizeof(q.i));
	q.n.nlmsg_type = type;
	q.i.ifi_family = AF_UNSPEC;
	q.i.ifi_index = ifindex;
	if (type == RTM_NEWLINK) {
		q.i.ifi_flags = up ? IFF_UP : 0;
		q.i.ifi_change = IFF_UP;
		if (mtu)
			nl_put_attr(n, IFLA_MTU, &mtu, 4, NLA_HDRLEN + 4);
	}
	return nl_transact(fd, n, msg, sizeof(msg));
}

int nl_set_link(int fd, int ifindex, bool up, uint32_t mtu)
{
	return link_request(fd, ifindex, RTM_NEWLINK, up, mtu);
}

int nl_del_link(int fd, int ifindex)
{
	return link_request(fd, ifindex, RTM_DELLINK, false, 0);
}
