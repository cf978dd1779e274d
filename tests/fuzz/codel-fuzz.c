// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * codel-fuzz: netlink fuzzer for the codel qdisc, run in the guest.
 *
 * Creates, changes, replaces and deletes root codel qdiscs on the given
 * devices with random and adversarial TCA_OPTIONS (unknown, UNSPEC and
 * duplicate attributes, wrong lengths, NLA_F_NESTED garbage, truncated
 * payloads, every boundary value), and checks each outcome against a model
 * of what the module must do:
 *   - an accepted request shows up in the dump exactly (times rounded
 *     through the 1024 ns clock as the module stores them);
 *   - a rejected one returns an error and leaves every setting as it was,
 *     with the module's extack message when the module's own range check
 *     rejected it;
 *   - the qdisc still passes packets (every 64 ops a frame is sent through
 *     each device with AF_PACKET and its Sent counter must move).
 *
 * Usage: codel-fuzz [--seed N] [--ops N] DEV...
 * Prints the seed first so that a failure can be replayed; exit status 0
 * when every check held, 1 otherwise.
 *
 * codel-fuzz --lifecycle N MODULE.ko DEV...: N cycles of init_module,
 * a codel root on every DEV, 20 frames through each, delete_module refused
 * (EWOULDBLOCK) while even one instance is left, delete all, delete_module.
 * In one process, because under TCG every tc/insmod spawn costs ~100 ms.
 */
#include <errno.h>
#include <linux/gen_stats.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pkt_sched_codel.h"	/* the appended TCA_CODEL_* */

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

#define MAX_DEVS	8
#define HANDLE		0x10000u	/* 1: */
#define TIME_MAX_US	100000000u
#define DISABLED	0x7fffffffu

struct params {			/* as the module stores them */
	uint32_t target, interval, ce_threshold;	/* codel units */
	uint32_t limit;
	uint32_t ecn;
	uint32_t split_gso;
	uint8_t selector, mask;
};

struct dev {
	const char	*name;
	int		ifindex;
	bool		exists;	/* a codel 1: root is there */
	struct params	p;
};

static struct dev devs[MAX_DEVS];
static int ndevs, nl_fd, pk_fd;
static uint64_t rng;
static unsigned long ops, accepted, rejected, failures, seq = 1;

static uint32_t rnd(void)
{
	/* xorshift64*: small, fast, and the same sequence for a seed */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 2685821657736338717ULL) >> 32);
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	failures++;
	printf("# FAIL at op %lu: ", ops);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static uint32_t us_to_time(uint32_t us)
{
	return (uint32_t)(((uint64_t)us * 1000) >> 10);
}

static uint32_t time_to_us(uint32_t t)
{
	return (uint32_t)(((uint64_t)t << 10) / 1000);
}

static void defaults(struct params *p)
{
	p->target = us_to_time(5000);
	p->interval = us_to_time(100000);
	p->ce_threshold = DISABLED;
	p->limit = 1000;
	p->ecn = 0;
	p->split_gso = 0;
	p->selector = 0;
	p->mask = 0;
}

/* --- building requests ----------------------------------------------- */

struct req {
	struct nlmsghdr	n;
	struct tcmsg	t;
	char		buf[1024];
};

static void put_attr(struct nlmsghdr *n, uint16_t type, const void *data,
		     uint16_t len, uint16_t claimed_len)
{
	struct nlattr *a = (void *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	a->nla_type = type;
	a->nla_len = claimed_len;
	if (len)
		memcpy(a + 1, data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + NLA_ALIGN(NLA_HDRLEN + len);
}

static const uint32_t boundary[] = {
	0, 1, 2, 3, 999, 1000, 1024, 5000, 100000, 99999999, 100000000,
	100000001, 0x7fffffff, 0x80000000u, 0xfffffffeu, 0xffffffffu,
};

static uint32_t value(void)
{
	switch (rnd() % 4) {
	case 0:
		return rnd();
	case 1:
		return rnd() % 200000;
	default:
		return boundary[rnd() % (sizeof(boundary) / sizeof(boundary[0]))];
	}
}

/* What the module will do with this TCA_OPTIONS payload. */
struct verdict {
	bool		ok;
	bool		range_error;	/* rejected by the module's own checks */
	const char	*msg;		/* its extack text */
	struct params	p;		/* new settings if ok */
};

/*
 * Append random attributes inside TCA_OPTIONS and predict the outcome from
 * the module's documented rules: strict parse (types 1..8 only, no flags,
 * exactly 4-byte payloads, 1-byte for the selector and mask, nothing
 * trailing), then range checks on the last value of each type, then all
 * applied at once.
 */
#define NTYPES	(TCA_CODEL_EXT_MAX + 1)

static uint16_t attr_len(uint16_t type)
{
	return type == TCA_CODEL_CE_THRESHOLD_SELECTOR ||
	       type == TCA_CODEL_CE_THRESHOLD_MASK ? 1 : 4;
}
static void build_options(struct nlmsghdr *n, const struct params *old,
			  struct verdict *v)
{
	struct nlattr *opts = (void *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
	uint32_t seen[NTYPES] = { 0 }, val[NTYPES] = { 0 };
	uint8_t selector = old->selector, mask = old->mask;
	int nattrs = rnd() % 6, i;
	bool parse_ok = true;

	opts->nla_type = TCA_OPTIONS;
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + NLA_HDRLEN;
	for (i = 0; i < nattrs; i++) {
		uint16_t type = 1 + rnd() % TCA_CODEL_EXT_MAX, len, claimed;
		unsigned char data[64];
		uint32_t x = value();
		int r = rnd() % 100;

		len = attr_len(type);
		if (len == 1)
			x &= rnd() % 2 ? 0x3 : 0xff;	/* often a valid ECN pair */
		memcpy(data, &x, 4);
		if (r < 4)
			type = 0;			/* UNSPEC */
		else if (r < 8)
			type = NTYPES + rnd() % 3;	/* unknown */
		else if (r < 10)
			type = rnd() & 0x3fff;		/* anything */
		else if (r < 13)
			type |= NLA_F_NESTED;		/* nested garbage */
		else if (r < 16)
			len = rnd() % 4;		/* truncated */
		else if (r < 19)
			len = 5 + rnd() % 40;		/* oversized */
		for (int b = 4; b < len; b++)
			data[b] = rnd();
		claimed = NLA_HDRLEN + len;
		if (r >= 19 && r < 21)
			claimed += 1 + rnd() % 8;	/* lies about its length */
		put_attr(n, type, data, len, claimed);

		if ((type & ~NLA_TYPE_MASK) || type == 0 || type >= NTYPES ||
		    len != attr_len(type) || claimed != NLA_HDRLEN + len)
			parse_ok = false;
		else {
			seen[type] = 1;
			val[type] = len == 1 ? (x & 0xff) : x;
		}
		/* a length lie past the end makes everything after it garbage */
		if (claimed != NLA_HDRLEN + len)
			break;
	}
	opts->nla_len = (uint16_t)((char *)n + n->nlmsg_len - (char *)opts);

	v->p = *old;
	v->ok = false;
	v->range_error = false;
	v->msg = NULL;
	if (!parse_ok)
		return;
	if (seen[TCA_CODEL_TARGET] && val[TCA_CODEL_TARGET] > TIME_MAX_US)
		v->msg = "codel: target must be at most 100s";
	else if (seen[TCA_CODEL_INTERVAL] &&
		 (val[TCA_CODEL_INTERVAL] < 2 || val[TCA_CODEL_INTERVAL] > TIME_MAX_US))
		v->msg = "codel: interval must be from 2us to 100s";
	else if (seen[TCA_CODEL_CE_THRESHOLD] && val[TCA_CODEL_CE_THRESHOLD] > TIME_MAX_US)
		v->msg = "codel: ce_threshold must be at most 100s";
	else if (seen[TCA_CODEL_LIMIT] && val[TCA_CODEL_LIMIT] < 1)
		v->msg = "codel: limit must be at least 1 packet";
	else if (seen[TCA_CODEL_ECN] && val[TCA_CODEL_ECN] > 1)
		v->msg = "codel: ecn must be 0 or 1";
	else if (seen[TCA_CODEL_SPLIT_GSO] && val[TCA_CODEL_SPLIT_GSO] > 1)
		v->msg = "codel: split_gso must be 0 or 1";
	if (seen[TCA_CODEL_CE_THRESHOLD_SELECTOR])
		selector = val[TCA_CODEL_CE_THRESHOLD_SELECTOR];
	if (seen[TCA_CODEL_CE_THRESHOLD_MASK])
		mask = val[TCA_CODEL_CE_THRESHOLD_MASK];
	if (!v->msg && (selector & ~mask))
		v->msg = "codel: ce_threshold_selector has bits outside its mask";
	if (v->msg) {
		v->range_error = true;
		return;
	}
	v->ok = true;
	if (seen[TCA_CODEL_TARGET])
		v->p.target = us_to_time(val[TCA_CODEL_TARGET]);
	if (seen[TCA_CODEL_INTERVAL])
		v->p.interval = us_to_time(val[TCA_CODEL_INTERVAL]);
	if (seen[TCA_CODEL_CE_THRESHOLD])
		v->p.ce_threshold = us_to_time(val[TCA_CODEL_CE_THRESHOLD]);
	if (seen[TCA_CODEL_LIMIT])
		v->p.limit = val[TCA_CODEL_LIMIT];
	if (seen[TCA_CODEL_ECN])
		v->p.ecn = val[TCA_CODEL_ECN];
	if (seen[TCA_CODEL_SPLIT_GSO])
		v->p.split_gso = val[TCA_CODEL_SPLIT_GSO];
	v->p.selector = selector;
	v->p.mask = mask;
}

/* --- talking to the kernel --------------------------------------------- */

/* Send and wait for the ack; returns -errno and copies any extack text. */
static int transact(struct nlmsghdr *n, char *msg, size_t msglen)
{
	char buf[8192];
	ssize_t r;

	n->nlmsg_seq = ++seq;
	n->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	if (send(nl_fd, n, n->nlmsg_len, 0) < 0) {
		perror("send");
		exit(2);
	}
	msg[0] = 0;
	for (;;) {
		struct nlmsghdr *h;

		r = recv(nl_fd, buf, sizeof(buf), 0);
		if (r < 0) {
			perror("recv");
			exit(2);
		}
		for (h = (void *)buf; NLMSG_OK(h, (size_t)r); h = NLMSG_NEXT(h, r)) {
			struct nlmsgerr *e = NLMSG_DATA(h);
			struct nlattr *a;
			int alen;

			if (h->nlmsg_seq != seq || h->nlmsg_type != NLMSG_ERROR)
				continue;
			if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
				return e->error;
			/* TLVs follow the echoed request (capped unless ok). */
			a = (void *)((char *)e + sizeof(*e) +
				     (h->nlmsg_flags & NLM_F_CAPPED ? 0 :
				      NLMSG_ALIGN(e->msg.nlmsg_len) - NLMSG_HDRLEN));
			alen = (int)((char *)h + h->nlmsg_len - (char *)a);
			for (; alen >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
			       a->nla_len <= alen;
			     alen -= NLA_ALIGN(a->nla_len),
			     a = (void *)((char *)a + NLA_ALIGN(a->nla_len)))
				if (a->nla_type == NLMSGERR_ATTR_MSG)
					snprintf(msg, msglen, "%.*s",
						 (int)(a->nla_len - NLA_HDRLEN),
						 (char *)(a + 1));
			return e->error;
		}
	}
}

struct dumped {
	bool		found;
	char		kind[16];
	uint32_t	target, interval, limit, ecn, ce_threshold, split_gso;
	uint8_t		selector, mask;
	bool		has_ce, has_split, has_selector;
	uint64_t	sent_packets;
};

/* Dump the root qdisc of dev and read our handle's settings and counters. */
static void dump_root(const struct dev *d, struct dumped *out)
{
	struct req q = { 0 };
	char buf[16384];
	bool done = false;

	memset(out, 0, sizeof(*out));
	q.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	q.n.nlmsg_type = RTM_GETQDISC;
	q.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	q.n.nlmsg_seq = ++seq;
	q.t.tcm_family = AF_UNSPEC;
	q.t.tcm_ifindex = d->ifindex;
	if (send(nl_fd, &q, q.n.nlmsg_len, 0) < 0) {
		perror("send dump");
		exit(2);
	}
	while (!done) {
		ssize_t r = recv(nl_fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (r < 0) {
			perror("recv dump");
			exit(2);
		}
		for (h = (void *)buf; NLMSG_OK(h, (size_t)r); h = NLMSG_NEXT(h, r)) {
			struct tcmsg *t = NLMSG_DATA(h);
			struct rtattr *a;
			int alen;

			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = true;
				break;
			}
			if (h->nlmsg_type != RTM_NEWQDISC || t->tcm_ifindex != d->ifindex ||
			    t->tcm_parent != TC_H_ROOT)
				continue;
			out->found = t->tcm_handle == HANDLE;
			alen = (int)RTM_PAYLOAD(h);
			for (a = (void *)((char *)t + NLMSG_ALIGN(sizeof(*t)));
			     RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
				if (a->rta_type == TCA_KIND)
					snprintf(out->kind, sizeof(out->kind), "%s", (char *)RTA_DATA(a));
				if (a->rta_type == TCA_OPTIONS) {
					struct rtattr *o;
					int olen = RTA_PAYLOAD(a);

					for (o = RTA_DATA(a); RTA_OK(o, olen); o = RTA_NEXT(o, olen)) {
						uint32_t x = 0;

						memcpy(&x, RTA_DATA(o), RTA_PAYLOAD(o) < 4 ?
						       RTA_PAYLOAD(o) : 4);

						switch (o->rta_type) {
						case TCA_CODEL_TARGET: out->target = x; break;
						case TCA_CODEL_INTERVAL: out->interval = x; break;
						case TCA_CODEL_LIMIT: out->limit = x; break;
						case TCA_CODEL_ECN: out->ecn = x; break;
						case TCA_CODEL_CE_THRESHOLD:
							out->ce_threshold = x;
							out->has_ce = true;
							break;
						case TCA_CODEL_SPLIT_GSO:
							out->split_gso = x;
							out->has_split = true;
							break;
						case TCA_CODEL_CE_THRESHOLD_SELECTOR:
							out->selector = x;
							out->has_selector = true;
							break;
						case TCA_CODEL_CE_THRESHOLD_MASK:
							out->mask = x;
							break;
						}
					}
				}
				if (a->rta_type == TCA_STATS2) {
					struct rtattr *s;
					int slen = RTA_PAYLOAD(a);

					for (s = RTA_DATA(a); RTA_OK(s, slen); s = RTA_NEXT(s, slen))
						if (s->rta_type == TCA_STATS_BASIC) {
							struct gnet_stats_basic b;

							memcpy(&b, RTA_DATA(s), sizeof(b));
							out->sent_packets = b.packets;
						}
				}
			}
		}
	}
}

static void check_dump(const struct dev *d, const char *what)
{
	struct dumped g;

	dump_root(d, &g);
	if (!d->exists) {
		if (g.found && !strcmp(g.kind, "codel"))
			fail("%s %s: codel 1: still present", d->name, what);
		return;
	}
	if (!g.found || strcmp(g.kind, "codel")) {
		fail("%s %s: codel 1: missing from the dump", d->name, what);
		return;
	}
	if (g.target != time_to_us(d->p.target) || g.interval != time_to_us(d->p.interval) ||
	    g.limit != d->p.limit || g.ecn != d->p.ecn ||
	    g.has_ce != (d->p.ce_threshold != DISABLED) ||
	    (g.has_ce && g.ce_threshold != time_to_us(d->p.ce_threshold)) ||
	    !g.has_split || g.split_gso != d->p.split_gso ||
	    g.has_selector != (d->p.mask != 0) ||
	    (g.has_selector && (g.selector != d->p.selector || g.mask != d->p.mask)))
		fail("%s %s: dump target %u interval %u limit %u ecn %u ce %s%u split %u sel %#x/%#x, "
		     "model target %u interval %u limit %u ecn %u ce %u split %u sel %#x/%#x",
		     d->name, what, g.target, g.interval, g.limit, g.ecn, g.has_ce ? "" : "off/",
		     g.ce_threshold, g.split_gso, g.selector, g.mask,
		     time_to_us(d->p.target), time_to_us(d->p.interval), d->p.limit, d->p.ecn,
		     d->p.ce_threshold == DISABLED ? 0 : time_to_us(d->p.ce_threshold),
		     d->p.split_gso, d->p.selector, d->p.mask);
}

/* One frame through dev's root qdisc; its Sent counter must move. */
static void check_passes_packets(const struct dev *d)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = d->ifindex,
				   .sll_halen = ETH_ALEN };
	unsigned char frame[64] = { 0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x88, 0xb5 };
	struct dumped a, b;

	if (!d->exists)
		return;
	dump_root(d, &a);
	if (sendto(pk_fd, frame, sizeof(frame), 0, (void *)&sll, sizeof(sll)) < 0) {
		fail("%s: sendto: %s", d->name, strerror(errno));
		return;
	}
	for (int i = 0; i < 100; i++) {
		dump_root(d, &b);
		if (b.sent_packets > a.sent_packets)
			return;
		usleep(1000);
	}
	fail("%s: a frame sent through codel never left (Sent %llu)", d->name,
	     (unsigned long long)b.sent_packets);
}

/* --- one operation ------------------------------------------------------- */

static void one_op(struct dev *d)
{
	struct req q = { 0 };
	struct verdict v;
	char msg[256];
	int op = rnd() % 10, err;
	const char *what;

	q.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	q.t.tcm_family = AF_UNSPEC;
	q.t.tcm_ifindex = d->ifindex;
	q.t.tcm_parent = TC_H_ROOT;
	q.t.tcm_handle = HANDLE;

	if (op == 0) {
		what = "delete";
		q.n.nlmsg_type = RTM_DELQDISC;
		err = transact(&q.n, msg, sizeof(msg));
		if (d->exists && err)
			fail("%s delete: %s", d->name, strerror(-err));
		if (!d->exists && !err)
			fail("%s delete of nothing accepted", d->name);
		d->exists = false;
		check_dump(d, what);
		return;
	}

	put_attr(&q.n, TCA_KIND, "codel", 6, NLA_HDRLEN + 6);
	if (op <= 3) {
		what = "create";
		q.n.nlmsg_type = RTM_NEWQDISC;
		q.n.nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	} else if (op <= 6) {
		what = "change";
		q.n.nlmsg_type = RTM_NEWQDISC;
	} else {
		what = "replace";
		q.n.nlmsg_type = RTM_NEWQDISC;
		q.n.nlmsg_flags = NLM_F_CREATE | NLM_F_REPLACE;
	}
	if (op != 3 || rnd() % 2) {
		struct params base;

		if (d->exists && op > 3)
			base = d->p;
		else
			defaults(&base);
		build_options(&q.n, &base, &v);
	} else {
		/* no TCA_OPTIONS at all */
		defaults(&v.p);
		if (d->exists && op > 3)
			v.p = d->p;
		v.ok = true;
		v.range_error = false;
		v.msg = NULL;
	}
	err = transact(&q.n, msg, sizeof(msg));

	if (op <= 3 && d->exists) {
		/* exclusive create over an existing qdisc must fail, no change */
		if (!err)
			fail("%s create over an existing codel accepted", d->name);
	} else if (op >= 4 && op <= 6 && !d->exists) {
		/* change of a qdisc that does not exist */
		if (!err)
			fail("%s change of nothing accepted", d->name);
	} else if (v.ok) {
		if (err) {
			fail("%s %s rejected (%s: %s), model accepts", d->name, what,
			     strerror(-err), msg);
		} else {
			accepted++;
			d->exists = true;
			d->p = v.p;
		}
	} else {
		if (!err)
			fail("%s %s accepted, model rejects%s%s", d->name, what,
			     v.msg ? ": " : "", v.msg ? v.msg : "");
		else
			rejected++;
		if (err && v.range_error && strcmp(msg, v.msg))
			fail("%s %s: extack '%s', want '%s'", d->name, what, msg, v.msg);
	}
	check_dump(d, what);
}

static int qdisc_op(const struct dev *d, int type, int flags)
{
	struct req q = { 0 };
	char msg[256];

	q.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	q.n.nlmsg_type = type;
	q.n.nlmsg_flags = flags;
	q.t.tcm_ifindex = d->ifindex;
	q.t.tcm_parent = TC_H_ROOT;
	q.t.tcm_handle = HANDLE;
	if (type == RTM_NEWQDISC)
		put_attr(&q.n, TCA_KIND, "codel", 6, NLA_HDRLEN + 6);
	return transact(&q.n, msg, sizeof(msg));
}

static void send_frames(int fd, const struct dev *d, unsigned long n)
{
	unsigned char frame[64] = { 0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x88, 0xb5 };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = d->ifindex,
				   .sll_halen = ETH_ALEN };

	for (unsigned long k = 0; k < n; k++)
		if (sendto(fd, frame, sizeof(frame), 0, (void *)&sll, sizeof(sll)) < 0)
			fail("%s: sendto: %s", d->name, strerror(errno));
}

static int lifecycle(unsigned long cycles, const char *path)
{
	struct stat st;
	void *image;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i;

	if (fd < 0 || fstat(fd, &st) || !(image = malloc(st.st_size)) ||
	    read(fd, image, st.st_size) != st.st_size) {
		perror(path);
		return 2;
	}
	close(fd);
	for (ops = 1; ops <= cycles && !failures; ops++) {
		int err;

		if (syscall(SYS_init_module, image, (unsigned long)st.st_size, ""))
			fail("init_module: %s", strerror(errno));
		for (i = 0; i < ndevs; i++)
			if ((err = qdisc_op(&devs[i], RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL)))
				fail("%s: add codel: %s", devs[i].name, strerror(-err));
		for (i = 0; i < ndevs; i++)
			send_frames(pk_fd, &devs[i], 20);
		for (i = 0; i < ndevs; i++) {
			if (!syscall(SYS_delete_module, "sch_codel", O_NONBLOCK))
				fail("delete_module accepted with %d codel qdiscs left", ndevs - i);
			else if (errno != EWOULDBLOCK)
				fail("delete_module in use: %s, want EWOULDBLOCK", strerror(errno));
			if ((err = qdisc_op(&devs[i], RTM_DELQDISC, 0)))
				fail("%s: delete codel: %s", devs[i].name, strerror(-err));
		}
		if (syscall(SYS_delete_module, "sch_codel", O_NONBLOCK))
			fail("delete_module: %s", strerror(errno));
	}
	printf("# codel-fuzz: lifecycle: %lu cycles on %d devices, %lu failures\n",
	       ops - 1, ndevs, failures);
	free(image);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long nops = 100000, seed = (unsigned long)time(NULL), send = 0;
	unsigned long cycles = 0;
	const char *module = NULL;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--ops") && i + 1 < argc)
			nops = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--send") && i + 1 < argc)
			send = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--lifecycle") && i + 2 < argc) {
			cycles = strtoul(argv[++i], NULL, 0);
			module = argv[++i];
		}
		else {
			fprintf(stderr, "usage: codel-fuzz [--seed N] [--ops N] DEV...\n"
				"       codel-fuzz --send N DEV...\n"
				"       codel-fuzz --lifecycle N MODULE.ko DEV...\n");
			return 2;
		}
	}
	for (; i < argc && ndevs < MAX_DEVS; i++) {
		devs[ndevs].name = argv[i];
		devs[ndevs].ifindex = if_nametoindex(argv[i]);
		if (!devs[ndevs].ifindex) {
			fprintf(stderr, "codel-fuzz: no device %s\n", argv[i]);
			return 2;
		}
		defaults(&devs[ndevs].p);
		ndevs++;
	}
	if (!ndevs) {
		fprintf(stderr, "usage: codel-fuzz [--seed N] [--ops N] DEV...\n");
		return 2;
	}
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;

	nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	pk_fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (nl_fd < 0 || pk_fd < 0 || bind(nl_fd, (void *)&sa, sizeof(sa)) ||
	    setsockopt(nl_fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one))) {
		perror("codel-fuzz: socket");
		return 2;
	}
	if (send) {
		for (i = 0; i < ndevs; i++)
			send_frames(pk_fd, &devs[i], send);
		return failures ? 1 : 0;
	}
	if (module)
		return lifecycle(cycles, module);
	printf("# codel-fuzz: seed %lu, %lu operations on %d devices (replay with --seed %lu)\n",
	       seed, nops, ndevs, seed);
	fflush(stdout);
	/* Start from a known state: no codel 1: on any device. */
	for (i = 0; i < ndevs; i++) {
		struct req q = { 0 };
		char msg[256];

		q.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
		q.n.nlmsg_type = RTM_DELQDISC;
		q.t.tcm_ifindex = devs[i].ifindex;
		q.t.tcm_parent = TC_H_ROOT;
		transact(&q.n, msg, sizeof(msg));
	}

	for (ops = 1; ops <= nops && failures < 20; ops++) {
		one_op(&devs[rnd() % ndevs]);
		if (ops % 64 == 0)
			for (i = 0; i < ndevs; i++)
				check_passes_packets(&devs[i]);
	}
	printf("# codel-fuzz: seed %lu: %lu operations, %lu accepted, %lu rejected by the model, %lu failures\n",
	       seed, ops - 1, accepted, rejected, failures);
	return failures ? 1 : 0;
}
