// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * codel-fuzz: netlink fuzzer for the codel qdisc, run in the guest
 * (--kind fq_codel_ext: the same for fq_codel_ext, with its model).
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
 * Usage: see usage() below.  Prints the seed first so that a failure can
 * be replayed; exit status 0 when every check held, 1 otherwise.
 *
 * --userns UID: the same as user UID (no capability left), inside a new
 * user and network namespace where it is root (as "unshare -Urn" makes
 * one), on dummy devices DEV... that it creates there: what any local user
 * can do on Debian's kernels.
 *
 * --parent KIND [--events]: the same fuzzing, of a
 * codel that is the only child of a one-class KIND tree at 1 Mbit/s (KIND
 * one of PARENT_KINDS; the ones that do not shape under a TBF; see
 * build_parent(); built with $TC, default /usr/sbin/tc), while every
 * operation also sends
 * 0-7 IPv4 frames of random size and ECN codepoint (Not-ECT, ECT(0),
 * ECT(1), CE), so that a backlog stands, CoDel drops and marks inside the
 * parent's dequeue and peek, and each change, replace and delete meets a
 * real queue.  Every 64 operations the tree must drain: the root's and the
 * leaf's qlen and backlog reach 0 together (a parent that still counts
 * packets its child no longer holds is the CVE-2025-37798 shape).  A second
 * thread dumps every qdisc and class for the whole run.  --events adds
 * device events: down/up, an MTU change, delete and re-create of the
 * device (and its tree), a child process that builds a loaded codel in a
 * network namespace of its own and exits, so the namespace dies with the
 * backlog, and drop-to-empty episodes (drop_to_empty_episode()).  DEV...
 * must be dummy devices the fuzzer may delete.
 */
#define _GNU_SOURCE	/* unshare() */
#include <errno.h>
#include <getopt.h>
#include <linux/gen_stats.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "frame.h"
#include "nl.h"
#include "model.h"
#include "pkt_sched_codel.h"	/* the appended TCA_CODEL_* */

#define MAX_DEVS	8
#define HANDLE		0x10000u	/* 1: */
#define LEAF_HANDLE	0x100000u	/* 10: */
#define LEAF_PARENT	0x10001u	/* 1:1: a shaping parent's class or child */
#define SHAPED_PARENT	0x20001u	/* 2:1: a class of a parent under a TBF */
#define MIN_MTU		576		/* every frame below fits */
#define SMALL_FRAME	560		/* fits any MTU the fuzzer sets */
/* Under this memory_limit even a 64-byte frame (its truesize) is dropped. */
#define FRAME_MEMORY	4096u


struct dev {
	const char	*name;
	int		ifindex;	/* read by the dump thread */
	bool		exists;	/* a codel 1: root is there */
	struct params	p;
};

static struct dev devs[MAX_DEVS];
/* The qdisc fuzzed: codel, or fq_codel_ext (--kind). */
static const char *qkind = "codel";
static int ndevs, nl_fd, pk_fd;
static unsigned long ops, accepted, rejected, failures;
/* Where codel sits: the root (1:), or 10: under --parent's class 1:1. */
static uint32_t q_parent = TC_H_ROOT, q_handle = HANDLE;
static const char *parent_kind;
/* --parent KIND's tree (build_parent()) */
struct parent_tree {
	const char	*kind;
	uint32_t	leaf_parent;
	unsigned int	txqs;		/* 0: the device's default */
	bool		no_down_up;	/* see cbs below */
	const char	*tc;		/* tc -batch lines; %1$s is the device */
};

static const struct parent_tree *parent_tree;
static bool events;
static unsigned long frames_sent, events_done;
/* Proof that the parent runs saw load: the deepest root queue found at a
 * drain check, and the checks that found codel had dropped or marked. */
static unsigned long max_root_qlen, drop_checks, mark_checks, episodes;
/* Seconds spent waiting for trees to drain, and building them with tc. */
static double drain_wait_s, build_s;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}


static void fail(const char *fmt, ...)
{
	va_list ap;

	__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
	printf("# FAIL at op %lu: ", ops);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}


/* --- reading the dump ---------------------------------------------------- */

struct dumped {
	bool		found;
	char		kind[16];
	uint32_t	target, interval, limit, ecn, ce_threshold, split_gso;
	uint32_t	memory_limit, adaptive;
	uint8_t		selector, mask;
	bool		has_ce, has_split, has_selector, has_memory, has_adaptive;
	/* fq_codel_ext's */
	uint32_t	flows, quantum, drop_batch, hash_headers;
	bool		has_mask, has_hash;
	uint64_t	sent_packets;
	/* qlen and backlog of the root and of whatever sits at q_parent */
	uint32_t	root_qlen, root_backlog, leaf_qlen, leaf_backlog;
	/* the leaf's drops and, when it is codel, its ECN and CE marks */
	uint32_t	leaf_drops, ecn_mark, ce_mark;
};

/* Our settings from the dump's TCA_CODEL_EXT nest. */
static void read_ext(struct rtattr *nest, struct dumped *out)
{
	int len = RTA_PAYLOAD(nest);
	struct rtattr *e;

	for (e = RTA_DATA(nest); RTA_OK(e, len); e = RTA_NEXT(e, len)) {
		uint32_t x = 0;

		memcpy(&x, RTA_DATA(e), RTA_PAYLOAD(e) < 4 ? RTA_PAYLOAD(e) : 4);
		switch (e->rta_type) {
		case TCA_CODEL_EXT_SPLIT_GSO:
			out->split_gso = x;
			out->has_split = true;
			break;
		case TCA_CODEL_EXT_CE_THRESHOLD_SELECTOR:
			out->selector = x;
			out->has_selector = true;
			break;
		case TCA_CODEL_EXT_CE_THRESHOLD_MASK:
			out->mask = x;
			break;
		case TCA_CODEL_EXT_MEMORY_LIMIT:
			out->memory_limit = x;
			out->has_memory = true;
			break;
		case TCA_CODEL_EXT_ADAPTIVE_TARGET:
			out->adaptive = x;
			out->has_adaptive = true;
			break;
		}
	}
}

/* fq_codel_ext's settings from the dump's TCA_OPTIONS. */
static void read_fq_options(struct rtattr *a, struct dumped *out)
{
	struct rtattr *o, *e;
	int olen = RTA_PAYLOAD(a), elen;

	for (o = RTA_DATA(a); RTA_OK(o, olen); o = RTA_NEXT(o, olen)) {
		uint32_t x = 0;

		memcpy(&x, RTA_DATA(o), RTA_PAYLOAD(o) < 4 ? RTA_PAYLOAD(o) : 4);
		switch (o->rta_type) {
		case TCA_FQ_CODEL_TARGET: out->target = x; break;
		case TCA_FQ_CODEL_INTERVAL: out->interval = x; break;
		case TCA_FQ_CODEL_LIMIT: out->limit = x; break;
		case TCA_FQ_CODEL_ECN: out->ecn = x; break;
		case TCA_FQ_CODEL_FLOWS: out->flows = x; break;
		case TCA_FQ_CODEL_QUANTUM: out->quantum = x; break;
		case TCA_FQ_CODEL_DROP_BATCH_SIZE: out->drop_batch = x; break;
		case TCA_FQ_CODEL_MEMORY_LIMIT:
			out->memory_limit = x;
			out->has_memory = true;
			break;
		case TCA_FQ_CODEL_CE_THRESHOLD:
			out->ce_threshold = x;
			out->has_ce = true;
			break;
		case TCA_FQ_CODEL_CE_THRESHOLD_SELECTOR:
			out->selector = (uint8_t)x;
			out->has_selector = true;
			break;
		case TCA_FQ_CODEL_CE_THRESHOLD_MASK:
			out->mask = (uint8_t)x;
			out->has_mask = true;
			break;
		case TCA_FQ_CODEL_EXT | NLA_F_NESTED:
			elen = RTA_PAYLOAD(o);
			for (e = RTA_DATA(o); RTA_OK(e, elen); e = RTA_NEXT(e, elen))
				if (e->rta_type == TCA_FQ_CODEL_EXT_SPLIT_GSO) {
					memcpy(&out->split_gso, RTA_DATA(e), 4);
					out->has_split = true;
				} else if (e->rta_type == TCA_FQ_CODEL_EXT_HASH_HEADERS) {
					memcpy(&out->hash_headers, RTA_DATA(e), 4);
					out->has_hash = true;
				} else if (e->rta_type == TCA_FQ_CODEL_EXT_ADAPTIVE_TARGET) {
					memcpy(&out->adaptive, RTA_DATA(e), 4);
					out->has_adaptive = true;
				}
			break;
		}
	}
}

static void read_options(struct rtattr *a, struct dumped *out)
{
	struct rtattr *o;
	int olen = RTA_PAYLOAD(a);

	if (model_fq) {
		read_fq_options(a, out);
		return;
	}
	for (o = RTA_DATA(a); RTA_OK(o, olen); o = RTA_NEXT(o, olen)) {
		uint32_t x = 0;

		memcpy(&x, RTA_DATA(o), RTA_PAYLOAD(o) < 4 ? RTA_PAYLOAD(o) : 4);
		switch (o->rta_type) {
		case TCA_CODEL_TARGET: out->target = x; break;
		case TCA_CODEL_INTERVAL: out->interval = x; break;
		case TCA_CODEL_LIMIT: out->limit = x; break;
		case TCA_CODEL_ECN: out->ecn = x; break;
		case TCA_CODEL_CE_THRESHOLD:
			out->ce_threshold = x;
			out->has_ce = true;
			break;
		case TCA_CODEL_EXT | NLA_F_NESTED:
			read_ext(o, out);
			break;
		}
	}
}

/* Sent packets, qlen, backlog, drops and codel's marks from TCA_STATS2. */
static void read_stats(struct rtattr *a, uint64_t *sent, uint32_t *qlen, uint32_t *backlog,
		       struct dumped *out)
{
	struct rtattr *s;
	int slen = RTA_PAYLOAD(a);

	for (s = RTA_DATA(a); RTA_OK(s, slen); s = RTA_NEXT(s, slen)) {
		if (s->rta_type == TCA_STATS_BASIC) {
			struct gnet_stats_basic b;

			memcpy(&b, RTA_DATA(s), sizeof(b));
			*sent = b.packets;
		} else if (s->rta_type == TCA_STATS_QUEUE) {
			struct gnet_stats_queue q;

			memcpy(&q, RTA_DATA(s), sizeof(q));
			*qlen = q.qlen;
			*backlog = q.backlog;
			if (out)
				out->leaf_drops = q.drops;
		} else if (out && model_fq && s->rta_type == TCA_STATS_APP &&
			   RTA_PAYLOAD(s) >= sizeof(struct tc_fq_codel_xstats)) {
			struct tc_fq_codel_xstats x;

			memcpy(&x, RTA_DATA(s), sizeof(x));
			out->ecn_mark = x.qdisc_stats.ecn_mark;
			out->ce_mark = x.qdisc_stats.ce_mark;
		} else if (out && !model_fq && s->rta_type == TCA_STATS_APP &&
			   RTA_PAYLOAD(s) >= sizeof(struct tc_codel_xstats)) {
			struct tc_codel_xstats x;

			memcpy(&x, RTA_DATA(s), sizeof(x));
			out->ecn_mark = x.ecn_mark;
			out->ce_mark = x.ce_mark;
		}
	}
}

/*
 * Dump dev's qdiscs: our place's settings and counters (the root, or the
 * leaf at q_parent), and the root's and the leaf's queue lengths.
 */
static void dump_root(const struct dev *d, struct dumped *out)
{
	struct nl_tc_req q = { 0 };
	char buf[16384];
	bool done = false;

	memset(out, 0, sizeof(*out));
	q.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	q.n.nlmsg_type = RTM_GETQDISC;
	q.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	q.n.nlmsg_seq = nl_next_seq();
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
			uint64_t unused;
			uint32_t qlen = 0, backlog = 0;
			bool ours, root;
			struct rtattr *a;
			int alen;

			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = true;
				break;
			}
			if (h->nlmsg_type != RTM_NEWQDISC || t->tcm_ifindex != d->ifindex)
				continue;
			ours = t->tcm_parent == q_parent;
			root = t->tcm_parent == TC_H_ROOT;
			if (!ours && !root)
				continue;
			if (ours)
				out->found = t->tcm_handle == q_handle;
			alen = (int)NLMSG_PAYLOAD(h, sizeof(struct tcmsg));
			for (a = (void *)((char *)t + NLMSG_ALIGN(sizeof(*t)));
			     RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
				if (ours && a->rta_type == TCA_KIND)
					snprintf(out->kind, sizeof(out->kind), "%s", (char *)RTA_DATA(a));
				if (ours && a->rta_type == TCA_OPTIONS)
					read_options(a, out);
				if (a->rta_type == TCA_STATS2)
					read_stats(a, ours ? &out->sent_packets : &unused, &qlen,
						   &backlog, ours ? out : NULL);
			}
			if (ours) {
				out->leaf_qlen = qlen;
				out->leaf_backlog = backlog;
			}
			if (root) {
				out->root_qlen = qlen;
				out->root_backlog = backlog;
			}
		}
	}
}

/*
 * fq_codel_ext's dump against the model: every setting, and as the
 * in-tree fq_codel, the selector and mask only with a ce_threshold.
 */
static void check_fq_dump(const struct dev *d, const char *what, const struct dumped *g)
{
	const struct params *p = &d->p;
	bool ce = p->ce_threshold != DISABLED;

	if (g->target == time_to_us(p->target) && g->interval == time_to_us(p->interval) &&
	    g->limit == p->limit && g->ecn == p->ecn && g->flows == p->flows &&
	    g->quantum == p->quantum && g->drop_batch == p->drop_batch &&
	    g->has_memory && g->memory_limit == p->memory_limit &&
	    g->has_split && g->split_gso == p->split_gso &&
	    g->has_hash && g->hash_headers == p->hash_headers &&
	    g->has_adaptive && g->adaptive == p->adaptive &&
	    g->has_ce == ce && (!ce || g->ce_threshold == time_to_us(p->ce_threshold)) &&
	    g->has_selector == ce && g->has_mask == ce &&
	    (!ce || (g->selector == p->selector && g->mask == p->mask)))
		return;
	fail("%s %s: dump target %u interval %u limit %u ecn %u flows %u quantum %u batch %u "
	     "memory %u split %u hash %s%u adaptive %s%u ce %s%u sel %#x/%#x, model target %u "
	     "interval %u limit %u ecn %u flows %u quantum %u batch %u memory %u split %u "
	     "hash %u adaptive %u ce %u sel %#x/%#x",
	     d->name, what, g->target, g->interval, g->limit, g->ecn, g->flows, g->quantum,
	     g->drop_batch, g->memory_limit, g->split_gso, g->has_hash ? "" : "none/",
	     g->hash_headers, g->has_adaptive ? "" : "none/", g->adaptive,
	     g->has_ce ? "" : "off/",
	     g->ce_threshold, g->selector, g->mask, time_to_us(p->target),
	     time_to_us(p->interval), p->limit, p->ecn, p->flows, p->quantum, p->drop_batch,
	     p->memory_limit, p->split_gso, p->hash_headers, p->adaptive,
	     ce ? time_to_us(p->ce_threshold) : 0, p->selector, p->mask);
}

static void check_dump(const struct dev *d, const char *what)
{
	struct dumped g;

	dump_root(d, &g);
	if (!d->exists) {
		if (g.found && !strcmp(g.kind, qkind))
			fail("%s %s: %s %x: still present", d->name, what, qkind, q_handle >> 16);
		return;
	}
	if (!g.found || strcmp(g.kind, qkind)) {
		fail("%s %s: %s %x: missing from the dump", d->name, what, qkind, q_handle >> 16);
		return;
	}
	if (model_fq) {
		check_fq_dump(d, what, &g);
		return;
	}
	if (g.target != time_to_us(d->p.target) || g.interval != time_to_us(d->p.interval) ||
	    g.limit != d->p.limit || g.ecn != d->p.ecn ||
	    g.has_ce != (d->p.ce_threshold != DISABLED) ||
	    (g.has_ce && g.ce_threshold != time_to_us(d->p.ce_threshold)) ||
	    !g.has_split || g.split_gso != d->p.split_gso ||
	    !g.has_memory || g.memory_limit != d->p.memory_limit ||
	    !g.has_adaptive || g.adaptive != d->p.adaptive ||
	    g.has_selector != (d->p.mask != 0) ||
	    (g.has_selector && (g.selector != d->p.selector || g.mask != d->p.mask)))
		fail("%s %s: dump target %u interval %u limit %u ecn %u ce %s%u split %u sel %#x/%#x "
		     "memory %u adaptive %s%u, model target %u interval %u limit %u ecn %u ce %u "
		     "split %u sel %#x/%#x memory %u adaptive %u",
		     d->name, what, g.target, g.interval, g.limit, g.ecn, g.has_ce ? "" : "off/",
		     g.ce_threshold, g.split_gso, g.selector, g.mask, g.memory_limit,
		     g.has_adaptive ? "" : "none/", g.adaptive,
		     time_to_us(d->p.target), time_to_us(d->p.interval), d->p.limit, d->p.ecn,
		     d->p.ce_threshold == DISABLED ? 0 : time_to_us(d->p.ce_threshold),
		     d->p.split_gso, d->p.selector, d->p.mask, d->p.memory_limit,
		     d->p.adaptive);
}

/* --- frames ---------------------------------------------------------------- */

static int send_frame(int fd, const struct dev *d, size_t len, unsigned int ecn)
{
	frames_sent++;
	return frame_send(fd, d->ifindex, len, ecn);
}

/* One frame through dev's qdiscs; codel's Sent counter must move. */
static void check_passes_packets(const struct dev *d)
{
	struct dumped a, b;
	int err;

	if (!d->exists || d->p.memory_limit < FRAME_MEMORY)
		return;
	dump_root(d, &a);
	err = send_frame(pk_fd, d, 64, 0);
	if (err) {
		fail("%s: sendto: %s", d->name, strerror(-err));
		return;
	}
	/* Under a 1 Mbit/s parent behind a standing queue: up to 1 s. */
	for (int i = 0; i < (parent_kind ? 1000 : 100); i++) {
		dump_root(d, &b);
		if (b.sent_packets > a.sent_packets)
			return;
		usleep(1000);
	}
	fail("%s: a frame sent through codel never left (Sent %llu)", d->name,
	     (unsigned long long)b.sent_packets);
}

/*
 * Under a parent, after a pause in sending, the whole tree empties: root
 * and leaf reach qlen 0 and backlog 0 together.  A root that keeps counting
 * packets after its only child is empty lost a drop report.
 */
static void check_drains(const struct dev *d)
{
	struct dumped g;

	dump_root(d, &g);
	if (g.root_qlen > max_root_qlen)
		max_root_qlen = g.root_qlen;
	if (d->exists && g.leaf_drops)
		drop_checks++;
	if (d->exists && (g.ecn_mark || g.ce_mark))
		mark_checks++;
	double t0 = now_s();

	for (int i = 0; i < 400; i++) {
		dump_root(d, &g);
		if (!g.root_qlen && !g.leaf_qlen)
			break;
		usleep(10000);
	}
	drain_wait_s += now_s() - t0;
	if (g.root_qlen || g.root_backlog || g.leaf_qlen || g.leaf_backlog)
		fail("%s: the tree did not drain in 4 s: root %u packets %u bytes, leaf %s %u packets %u bytes",
		     d->name, g.root_qlen, g.root_backlog, g.kind, g.leaf_qlen, g.leaf_backlog);
}

/* --- one operation ------------------------------------------------------- */

/*
 * A new qdisc's settings on d.  fq_codel_ext's quantum defaults to what
 * psched_mtu() says at creation: the MTU plus the link header, 14 bytes on
 * the Ethernet-like devices fuzzed (dummy, virtio-net).
 */
static void dev_defaults(const struct dev *d, struct params *p)
{
	struct ifreq ifr = { 0 };
	uint32_t quantum = 0;
	int fd;

	if (model_fq) {
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", d->name);
		if (fd < 0 || ioctl(fd, SIOCGIFMTU, &ifr))
			fail("%s: SIOCGIFMTU: %s", d->name, strerror(errno));
		else
			quantum = (uint32_t)ifr.ifr_mtu + 14;
		if (fd >= 0)
			close(fd);
		if (quantum < 256)
			quantum = 256;
	}
	defaults(p, quantum);
}

static void one_op(struct dev *d)
{
	struct nl_tc_req q = { 0 };
	struct verdict v;
	char msg[256];
	int op = rnd() % 10, err;
	const char *what;

	q.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	q.t.tcm_family = AF_UNSPEC;
	q.t.tcm_ifindex = d->ifindex;
	q.t.tcm_parent = q_parent;
	q.t.tcm_handle = q_handle;

	if (op == 0) {
		what = "delete";
		q.n.nlmsg_type = RTM_DELQDISC;
		err = nl_transact(nl_fd, &q.n, msg, sizeof(msg));
		if (d->exists && err)
			fail("%s delete: %s", d->name, strerror(-err));
		if (!d->exists && !err)
			fail("%s delete of nothing accepted", d->name);
		d->exists = false;
		check_dump(d, what);
		return;
	}

	nl_put_attr(&q.n, TCA_KIND, qkind, strlen(qkind) + 1, NLA_HDRLEN + strlen(qkind) + 1);
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
			dev_defaults(d, &base);
		build_options(&q.n, &base, d->exists && op > 3, &v);
	} else {
		/* no TCA_OPTIONS at all */
		dev_defaults(d, &v.p);
		if (d->exists && op > 3)
			v.p = d->p;
		v.ok = true;
		v.range_error = false;
		v.msg = NULL;
	}
	err = nl_transact(nl_fd, &q.n, msg, sizeof(msg));

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

/* Add or delete codel at q_parent (the root, without --parent). */
static int qdisc_op(const struct dev *d, uint16_t type, uint16_t flags)
{
	return nl_qdisc(nl_fd, type, flags, d->ifindex, q_parent, q_handle,
			type == RTM_NEWQDISC ? qkind : NULL);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);

	if (fd < 0 || write(fd, text, len) != len) {
		fprintf(stderr, "codel-fuzz: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return close(fd);
}

/*
 * Become UID for good, then root of a new user namespace that owns a new
 * network namespace: root there, nobody anywhere else.
 */
static int enter_userns(unsigned int uid)
{
	char map[32];

	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		perror("codel-fuzz: dropping to the user");
		return -1;
	}
	if (!setuid(0)) {
		fprintf(stderr, "codel-fuzz: still able to become root\n");
		return -1;
	}
	/* A changed uid made us non-dumpable: /proc/self would be root's. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		perror("codel-fuzz: unshare(CLONE_NEWUSER | CLONE_NEWNET)");
		return -1;
	}
	snprintf(map, sizeof(map), "0 %u 1", uid);
	if (write_file("/proc/self/setgroups", "deny") ||
	    write_file("/proc/self/uid_map", map) ||
	    write_file("/proc/self/gid_map", map))
		return -1;
	return 0;
}

/* --- the parent tree, device events, the dump thread ------------------- */

/*
 * The one-class trees above codel, built with $TC (iproute2's, by path), at
 * 1 Mbit/s: the fuzzer offers ~2 Mbit/s, so a queue stands between the
 * drain checks and drains in well under a second at each.  HTB, HFSC, TBF
 * and CBS shape by themselves, and codel is their class or child 1:1; the
 * others do not shape, so they sit under a TBF and codel is their class 2:1,
 * where every frame is classified (matchall, an all-zero priomap, or for
 * multiq a queue_mapping of 0).  multiq needs a multiqueue device: DEV...
 * (and the devices the fuzzer re-creates) get txqs transmit queues.
 */
#define TBF_1MBIT "qdisc add dev %1$s root handle 1: tbf rate 1mbit burst 3000 limit 1000000"
#define UNDER_TBF TBF_1MBIT "\n" "qdisc add dev %1$s parent 1:1 handle 2: "
#define PRIOMAP_0 " priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"

static const struct parent_tree parent_trees[] = {
	{ "htb", LEAF_PARENT, 0, false,
	  "qdisc add dev %1$s root handle 1: htb default 1\n"
	  "class add dev %1$s parent 1: classid 1:1 htb rate 1mbit quantum 1514" },
	{ "hfsc", LEAF_PARENT, 0, false,
	  "qdisc add dev %1$s root handle 1: hfsc default 1\n"
	  "class add dev %1$s parent 1: classid 1:1 hfsc sc rate 1mbit ul rate 1mbit" },
	{ "tbf", LEAF_PARENT, 0, false, TBF_1MBIT },
	/*
	 * sch_cbs resets only its own (empty) queue when the device goes
	 * down, never its child (.reset is qdisc_reset_queue in Debian's
	 * 6.1.192 and 6.12.95): the child keeps its packets, and CBS's qlen
	 * goes negative as they leave.  Any child, pfifo too: a kernel bug,
	 * not ours (docs/reliability.md, "Under every parent"), so no down/up under CBS.
	 * A dummy reports no speed, so CBS assumes a 10 Mbit/s port, and
	 * sendslope is idleslope minus that: then a frame costs credit in
	 * proportion to its length.  (A sendslope for a faster port drives
	 * every frame, 64 bytes too, to locredit: 12 ms each, and the drain
	 * checks under CBS took three times as long as under the others.)
	 */
	{ "cbs", LEAF_PARENT, 0, true,
	  "qdisc add dev %1$s root handle 1: cbs idleslope 1000 sendslope -9000 "
	  "hicredit 30 locredit -1363 offload 0" },
	{ "qfq", SHAPED_PARENT, 0, false,
	  UNDER_TBF "qfq\n"
	  "class add dev %1$s parent 2: classid 2:1 qfq weight 1 maxpkt 2048\n"
	  "filter add dev %1$s parent 2: protocol all matchall classid 2:1" },
	{ "drr", SHAPED_PARENT, 0, false,
	  UNDER_TBF "drr\n"
	  "class add dev %1$s parent 2: classid 2:1 drr quantum 1514\n"
	  "filter add dev %1$s parent 2: protocol all matchall classid 2:1" },
	{ "prio", SHAPED_PARENT, 0, false, UNDER_TBF "prio bands 2" PRIOMAP_0 },
	{ "ets", SHAPED_PARENT, 0, false, UNDER_TBF "ets bands 2 quanta 1514 1514" PRIOMAP_0 },
	{ "multiq", SHAPED_PARENT, 4, false,
	  UNDER_TBF "multiq\n"
	  "filter add dev %1$s parent 2: protocol all matchall "
	  "action skbedit queue_mapping 0" },
};

#define PARENT_KINDS "htb|hfsc|tbf|cbs|qfq|drr|prio|ets|multiq"
#define N_PARENT_TREES (sizeof(parent_trees) / sizeof(parent_trees[0]))

static const struct parent_tree *find_parent_tree(const char *kind)
{
	for (size_t i = 0; i < N_PARENT_TREES; i++)
		if (!strcmp(parent_trees[i].kind, kind))
			return &parent_trees[i];
	return NULL;
}

static int build_parent(const char *dev)
{
	const char *tc = getenv("TC") ? getenv("TC") : "/usr/sbin/tc";
	char cmd[256];
	double t0 = now_s();
	FILE *f;
	int rc;

	/* One tc for the whole tree: each exec of tc costs ~50 ms under TCG. */
	snprintf(cmd, sizeof(cmd), "%s -batch -", tc);
	f = popen(cmd, "w");
	if (!f)
		return -1;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	fprintf(f, parent_tree->tc, dev);
#pragma GCC diagnostic pop
	fputc('\n', f);
	rc = pclose(f);
	build_s += now_s() - t0;
	return rc ? -1 : 0;
}

static int add_dummy(const char *name)
{
	return nl_add_dummy(nl_fd, name, parent_tree ? parent_tree->txqs : 0);
}

static int set_link(const struct dev *d, bool up, uint32_t mtu)
{
	return nl_set_link(nl_fd, d->ifindex, up, mtu);
}

/*
 * codel-fuzz --netns-child KIND: in a network namespace of its own, a dummy
 * with codel (under the parent KIND, or "-" for none) and a backlog, then
 * exit: the namespace, its device and its queue die with the process
 * (cleanup_net, later, in a worker).  Exec'd, not forked alone: the parent
 * has a dump thread, and a forked child of a threaded process may only exec.
 */
static int netns_child(void)
{
	struct dev n = { .name = "n0" };

	if (unshare(CLONE_NEWNET))
		return 10;
	nl_fd = nl_open();
	pk_fd = frame_socket();
	if (nl_fd < 0 || pk_fd < 0)
		return 11;
	if (add_dummy(n.name) || !(n.ifindex = (int)if_nametoindex(n.name)))
		return 12;
	if (parent_kind && build_parent(n.name))
		return 13;
	if (qdisc_op(&n, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL))
		return 14;
	for (int k = 0; k < 200; k++)
		send_frame(pk_fd, &n, 64 + rnd() % (SMALL_FRAME - 64), rnd() % 4);
	return 0;
}

static void netns_dies_loaded(void)
{
	pid_t pid = fork();
	int status = -1;

	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		return;
	}
	if (!pid) {
		execl("/proc/self/exe", "codel-fuzz", "--netns-child",
		      parent_kind ? parent_kind : "-", qkind, (char *)NULL);
		_exit(9);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		fail("netns child: status %#x", status);
}

/*
 * Target and interval (in microseconds), and ECN when ecn >= 0, in the
 * model too: a change of a codel that is there, or a new one (create or
 * replace whatever sits at q_parent) with the defaults otherwise.
 */
static int codel_set_times(struct dev *d, uint32_t target_us, uint32_t interval_us,
			   int ecn)
{
	struct nl_tc_req q = { 0 };
	struct rtattr *opt;
	uint32_t on = ecn > 0;
	char msg[256];
	int err;

	q.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	q.n.nlmsg_type = RTM_NEWQDISC;
	q.n.nlmsg_flags = NLM_F_CREATE | NLM_F_REPLACE;
	q.t.tcm_ifindex = d->ifindex;
	q.t.tcm_parent = q_parent;
	q.t.tcm_handle = q_handle;
	nl_put_attr(&q.n, TCA_KIND, qkind, strlen(qkind) + 1, NLA_HDRLEN + strlen(qkind) + 1);
	opt = (void *)((char *)&q.n + NLMSG_ALIGN(q.n.nlmsg_len));
	nl_put_attr(&q.n, TCA_OPTIONS, NULL, 0, NLA_HDRLEN);
	nl_put_attr(&q.n, TCA_CODEL_TARGET, &target_us, 4, NLA_HDRLEN + 4);
	nl_put_attr(&q.n, TCA_CODEL_INTERVAL, &interval_us, 4, NLA_HDRLEN + 4);
	if (ecn >= 0)
		nl_put_attr(&q.n, TCA_CODEL_ECN, &on, 4, NLA_HDRLEN + 4);
	opt->rta_len = (unsigned short)((char *)&q.n + q.n.nlmsg_len - (char *)opt);
	err = nl_transact(nl_fd, &q.n, msg, sizeof(msg));
	if (!err) {
		if (!d->exists)
			dev_defaults(d, &d->p);
		d->exists = true;
		d->p.target = us_to_time(target_us);
		d->p.interval = us_to_time(interval_us);
		if (ecn >= 0)
			d->p.ecn = on;
	}
	return err;
}

/*
 * The episode itself: CoDel at target 1us, interval 2us (ECN as ecn says,
 * see codel_set_times()) set at MTU 576, then eight 1414-byte frames with
 * ECN codepoint ect (-1: random each) at MTU 1500, and the tree must drain.
 */
static int episode(struct dev *d, int ecn, int ect)
{
	int err = set_link(d, true, MIN_MTU);

	if (!err)
		err = codel_set_times(d, 1, 2, ecn);
	if (!err)
		err = set_link(d, true, 1500);
	for (int k = 0; !err && k < 8; k++) {
		err = send_frame(pk_fd, d, FRAME_MAX, ect >= 0 ? (unsigned int)ect : rnd() % 4);
		if (err == -ENOBUFS)	/* a small limit */
			err = 0;
	}
	episodes++;
	check_drains(d);
	return err;
}

/*
 * The CVE-2025-37798 condition on purpose: a dequeue (or peek) that drops
 * and leaves codel empty.  The MTU guard forbids any drop once an MTU or
 * less stays queued, so the last packet must be larger than the guard.
 * The guard is the MTU when codel was last changed: change it (target 1us,
 * interval 2us, so that CoDel drops at once) at MTU 576, then raise the MTU
 * to 1500 and queue 1414-byte frames.  The tree must then drain at every
 * level.
 */
static int drop_to_empty_episode(struct dev *d)
{
	if (!d->exists)
		return 0;
	return episode(d, -1, -1);
}

/* One device event on d; the model follows what it does to the qdisc. */
static void device_event(struct dev *d)
{
	int err = 0;

	events_done++;
	switch (rnd() % 6) {
	case 0:		/* down resets every queue; the settings stay */
		if (parent_tree && parent_tree->no_down_up)
			break;
		err = set_link(d, false, 0);
		if (!err)
			err = set_link(d, true, 0);
		break;
	case 1:		/* the MTU, which CoDel's guard reads at its next change */
		err = set_link(d, true, MIN_MTU + rnd() % (1501 - MIN_MTU));
		break;
	case 2:		/* delete the device under load, then start over */
		err = nl_del_link(nl_fd, d->ifindex);
		if (err)
			break;
		d->exists = false;
		if (add_dummy(d->name) || !(d->ifindex = (int)if_nametoindex(d->name))) {
			fail("%s: re-create after delete", d->name);
			exit(1);
		}
		if (parent_kind && build_parent(d->name))
			fail("%s: rebuild the %s tree", d->name, parent_kind);
		break;
	case 3:
		netns_dies_loaded();
		break;
	case 4:
	case 5:
		err = drop_to_empty_episode(d);
		break;
	}
	if (err)
		fail("%s: device event: %s", d->name, strerror(-err));
	check_dump(d, "device event");
}

static volatile bool dumper_stop;
static unsigned long dumps;

/*
 * The second thread: dump every qdisc and every class of the devices, as a
 * monitoring agent would while an operator reconfigures, until told to stop.
 * Each reply must parse; codel's xstats must be at least mainline's size.
 */
static void *dumper(void *arg)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	uint32_t dseq = 1u << 30;
	char buf[32768];

	(void)arg;
	if (fd < 0 || bind(fd, (void *)&sa, sizeof(sa))) {
		fail("dumper: netlink socket: %s", strerror(errno));
		return NULL;
	}
	while (!dumper_stop) {
		for (int k = -1; k < ndevs; k++) {
			struct nl_tc_req q = { 0 };
			bool done = false;

			q.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
			q.n.nlmsg_type = k < 0 ? RTM_GETQDISC : RTM_GETTCLASS;
			q.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
			q.n.nlmsg_seq = ++dseq;
			q.t.tcm_ifindex = k < 0 ? 0 : __atomic_load_n(&devs[k].ifindex, __ATOMIC_RELAXED);
			if (send(fd, &q, q.n.nlmsg_len, 0) < 0)
				break;
			while (!done) {
				ssize_t r = recv(fd, buf, sizeof(buf), 0);
				struct nlmsghdr *h;

				if (r <= 0)
					break;
				for (h = (void *)buf; NLMSG_OK(h, (size_t)r); h = NLMSG_NEXT(h, r)) {
					struct rtattr *a, *st;
					int alen, slen;
					bool codel = false;

					if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
						done = true;
						break;
					}
					alen = (int)NLMSG_PAYLOAD(h, sizeof(struct tcmsg));
					for (a = (void *)((char *)NLMSG_DATA(h) + NLMSG_ALIGN(sizeof(struct tcmsg)));
					     RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
						if (a->rta_type == TCA_KIND)
							codel = !strcmp(RTA_DATA(a), "codel") &&
								!model_fq;
						if (a->rta_type != TCA_STATS2 || !codel ||
						    h->nlmsg_type != RTM_NEWQDISC)
							continue;
						slen = RTA_PAYLOAD(a);
						for (st = RTA_DATA(a); RTA_OK(st, slen); st = RTA_NEXT(st, slen))
							if (st->rta_type == TCA_STATS_APP &&
							    RTA_PAYLOAD(st) < 9 * sizeof(uint32_t))
								fail("dumper: codel xstats of %u bytes",
								     (unsigned int)RTA_PAYLOAD(st));
					}
					if (alen)
						fail("dumper: %d trailing bytes in a %s message", alen,
						     h->nlmsg_type == RTM_NEWQDISC ? "qdisc" : "class");
				}
			}
		}
		dumps++;
	}
	close(fd);
	return NULL;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: codel-fuzz [--seed N] [--ops N] [--userns UID] [--parent KIND [--events]]\n"
		"                  [--dumper] [--kind codel|fq_codel_ext] DEV...\n"
		"  --seed N       random sequence to run (default: the time; printed first)\n"
		"  --ops N        operations (default 100000)\n"
		"  --userns UID   as UID in a user+net namespace, on dummies DEV... made there\n"
		"  --parent KIND  codel under a one-class KIND tree, with a backlog: KIND one of\n"
		"                 " PARENT_KINDS "\n"
		"  --events       also device events (down/up, MTU, delete, a dying netns)\n"
		"  --dumper       a second thread dumping every qdisc and class (on with --parent)\n"
		"  --kind K       the qdisc fuzzed: codel (default) or fq_codel_ext\n");
	return 2;
}

/* The qdisc fuzzed, and the model of its options. */
static int set_kind(const char *kind)
{
	if (!strcmp(kind, "fq_codel_ext")) {
		model_use_fq();
		qkind = "fq_codel_ext";
		return 0;
	}
	if (!strcmp(kind, "codel"))
		return 0;
	fprintf(stderr, "codel-fuzz: --kind %s: not codel or fq_codel_ext\n", kind);
	return -1;
}

/* Codel's place: the root, or 10: under KIND's class ("-": the root). */
static int set_parent(const char *kind)
{
	if (!strcmp(kind, "-"))
		return 0;
	parent_tree = find_parent_tree(kind);
	if (!parent_tree) {
		fprintf(stderr, "codel-fuzz: --parent %s: not one of %s\n", kind, PARENT_KINDS);
		return -1;
	}
	parent_kind = kind;
	q_parent = parent_tree->leaf_parent;
	q_handle = LEAF_HANDLE;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'o' },
		{ "userns", required_argument, NULL, 'u' },
		{ "parent", required_argument, NULL, 'p' },
		{ "events", no_argument, NULL, 'e' },
		{ "dumper", no_argument, NULL, 'd' },
		{ "kind", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long nops = 100000, seed = (unsigned long)time(NULL);
	long userns = -1;
	pthread_t dump_thread;
	bool use_dumper = false;
	int opt, i;

	/* Internal: the child netns_dies_loaded() execs (argv[2]: KIND or -;
	 * argv[3]: the qdisc). */
	if (argc == 4 && !strcmp(argv[1], "--netns-child")) {
		if (set_parent(argv[2]) || set_kind(argv[3]))
			return 2;
		rnd_seed((uint64_t)getpid());
		return netns_child();
	}
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		case 'o':
			nops = strtoul(optarg, NULL, 0);
			break;
		case 'u':
			userns = strtol(optarg, NULL, 0);
			break;
		case 'p':
			if (set_parent(optarg))
				return 2;
			use_dumper = parent_kind != NULL;
			break;
		case 'e':
			events = true;
			break;
		case 'd':
			use_dumper = true;
			break;
		case 'k':
			if (set_kind(optarg))
				return 2;
			break;
		default:
			return usage();
		}
	}
	if (optind == argc || argc - optind > MAX_DEVS)
		return usage();
	if (userns >= 0 && enter_userns((unsigned int)userns))
		return 2;
	nl_fd = nl_open();
	if (nl_fd < 0) {
		perror("codel-fuzz: netlink socket");
		return 2;
	}
	for (i = optind; userns >= 0 && i < argc; i++)
		if (add_dummy(argv[i]))
			return 2;
	for (i = optind; i < argc; i++) {
		devs[ndevs].name = argv[i];
		devs[ndevs].ifindex = if_nametoindex(argv[i]);
		if (!devs[ndevs].ifindex) {
			fprintf(stderr, "codel-fuzz: no device %s\n", argv[i]);
			return 2;
		}
		dev_defaults(&devs[ndevs], &devs[ndevs].p);
		ndevs++;
	}
	rnd_seed(seed);
	pk_fd = frame_socket();
	if (pk_fd < 0) {
		perror("codel-fuzz: packet socket");
		return 2;
	}
	printf("# codel-fuzz: seed %lu, %lu operations of %s on %d devices%s%s%s%s%s (replay with --seed %lu)\n",
	       seed, nops, qkind, ndevs,
	       userns >= 0 ? " as an unprivileged user in a user+net namespace" : "",
	       parent_kind ? ", under " : "", parent_kind ? parent_kind : "",
	       events ? ", device events" : "", use_dumper ? ", a dump thread" : "", seed);
	fflush(stdout);
	/* Start from a known state: no root qdisc on any device. */
	for (i = 0; i < ndevs; i++) {
		nl_qdisc(nl_fd, RTM_DELQDISC, 0, devs[i].ifindex, TC_H_ROOT, 0, NULL);
		if (parent_kind && build_parent(devs[i].name)) {
			fprintf(stderr, "codel-fuzz: %s: building the %s tree failed\n",
				devs[i].name, parent_kind);
			return 2;
		}
	}
	if (use_dumper && pthread_create(&dump_thread, NULL, dumper, NULL)) {
		perror("codel-fuzz: dump thread");
		return 2;
	}

	for (ops = 1; ops <= nops && failures < 20; ops++) {
		struct dev *d = &devs[rnd() % ndevs];

		if (events && rnd() % 50 == 0)
			device_event(d);
		else
			one_op(d);
		/* Under a parent: a backlog, some of it ECN-capable. */
		for (int k = parent_kind ? rnd() % 8 : 0; k > 0; k--) {
			int err = send_frame(pk_fd, d, 64 + rnd() % (SMALL_FRAME - 63), rnd() % 4);

			/* a tail drop (or TBF's noop child) says ENOBUFS */
			if (err && err != -ENOBUFS)
				fail("%s: sendto: %s", d->name, strerror(-err));
		}
		if (ops % 64 == 0)
			for (i = 0; i < ndevs; i++) {
				if (parent_kind)
					check_drains(&devs[i]);
				check_passes_packets(&devs[i]);
			}
	}
	/*
	 * Under a parent, the two conditions the guest test looks for, once
	 * on each device whatever the seed did: a drop that leaves codel
	 * empty (ECN off), and ECN marks (ECN on, ECT(0) frames), each on a
	 * new codel with the defaults (a small limit the seed left would
	 * refuse the frames).
	 */
	for (i = 0; parent_kind && i < ndevs && failures < 20; i++) {
		qdisc_op(&devs[i], RTM_DELQDISC, 0);	/* if there is one */
		devs[i].exists = false;
		if (episode(&devs[i], 0, -1))
			fail("%s: closing drop episode", devs[i].name);
		qdisc_op(&devs[i], RTM_DELQDISC, 0);
		devs[i].exists = false;
		if (episode(&devs[i], 1, 2))
			fail("%s: closing mark episode", devs[i].name);
	}
	if (use_dumper) {
		dumper_stop = true;
		pthread_join(dump_thread, NULL);
	}
	if (parent_kind)
		printf("# codel-fuzz: load: deepest root queue %lu packets; codel had dropped at %lu "
		       "and marked at %lu drain checks; %lu drop-to-empty episodes; "
		       "%.1f s waiting for drains, %.1f s building trees\n",
		       max_root_qlen, drop_checks, mark_checks, episodes, drain_wait_s, build_s);
	printf("# codel-fuzz: seed %lu: %lu operations, %lu accepted, %lu rejected by the model, "
	       "%lu frames, %lu device events, %lu dumps by the second thread, %lu failures\n",
	       seed, ops - 1, accepted, rejected, frames_sent, events_done, dumps, failures);
	return failures ? 1 : 0;
}
