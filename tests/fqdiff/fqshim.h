/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * A userspace stand-in for the kernel facilities a qdisc file uses, so that
 * tests/fqdiff can compile a kernel's own net/sched/sch_fq_codel.c and our
 * sch_fq_codel.c unchanged and drive both with the same packets and clock.
 * Every <linux/...> and <net/...> header either file includes resolves to
 * this one (tests/host/fqdiff.sh makes the forwarding headers), but the
 * kernel's own net/codel*.h, which come from its source.
 *
 * Only plumbing lives here: lists, packet queues, counters, netlink
 * attribute walking.  Whatever decides which packet leaves, is dropped or
 * is marked is the two files' own code.  What the shim does on their
 * behalf it records in struct fqshim_log (fqshim.c), which the driver
 * compares.
 *
 * SHIM_KERNEL_VERSION (KERNEL_VERSION(a, b, c) of the kernel whose file is
 * compiled) selects the few API variants that differ between kernels.
 */
#ifndef _FQSHIM_H
#define _FQSHIM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* --- types, compiler ---------------------------------------------------- */

typedef uint8_t u8, __u8;
typedef uint16_t u16, __u16;
typedef uint32_t u32, __u32;
typedef uint64_t u64, __u64;
typedef int8_t s8, __s8;
typedef int16_t s16, __s16;
typedef int32_t s32, __s32;
typedef int64_t s64, __s64;
typedef u64 netdev_features_t;
typedef unsigned int gfp_t;

#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_CODE	SHIM_KERNEL_VERSION

#undef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#define noinline		__attribute__((__noinline__))
#define __init
#define __exit
#define __read_mostly
#define ____cacheline_aligned	__attribute__((__aligned__(64)))
#define __rcu
#define fallthrough		__attribute__((__fallthrough__))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, val)	((x) = (val))
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BIT(n)			(1UL << (n))
#define U32_MAX			UINT32_MAX
#define SZ_1M			0x00100000
#define SZ_32M			0x02000000
#define GFP_KERNEL		0
#define EINVAL			22
#define ENOMEM			12
#define EEXIST			17
#define ERANGE			34
#define FQ_CODEL_QUANTUM_MAX	(1 << 20)
#define NSEC_PER_USEC		1000L
#define NSEC_PER_MSEC		1000000L
#define IS_ENABLED(x)		0
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define typecheck(type, x) \
	({ type __dummy; __typeof__(x) __dummy2; \
	   (void)(&__dummy == &__dummy2); 1; })

#define max(a, b)		((a) > (b) ? (a) : (b))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max_t(t, a, b)		({ t __a = (a); t __b = (b); __a > __b ? __a : __b; })
#define min_t(t, a, b)		({ t __a = (a); t __b = (b); __a < __b ? __a : __b; })
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)

#define do_div(n, base) ({ u32 __rem = (u64)(n) % (base); \
			   (n) = (u64)(n) / (base); __rem; })

static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}

static inline u32 reciprocal_scale(u32 val, u32 ep_ro)
{
	return (u32)(((u64)val * ep_ro) >> 32);
}

#define IS_ERR_OR_NULL(p)	(!(p) || (unsigned long)(p) >= (unsigned long)-4095)

/* --- modules: init and exit become the side's entry points -------------- */

#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_VERSION(x)
#define MODULE_ALIAS_NET_SCH(x)
#define THIS_MODULE		NULL
#define SHIM_CAT2(a, b)		a##b
#define SHIM_CAT(a, b)		SHIM_CAT2(a, b)
#define module_init(fn)		int SHIM_CAT(SHIM_SIDE, _init)(void) { return fn(); }
#define module_exit(fn)		void SHIM_CAT(SHIM_SIDE, _exit)(void) { fn(); }
#define SCH_CODEL_VERSION	"fqdiff"

/* --- memory ------------------------------------------------------------- */

/* Cache-line aligned, as the kernel's is for the flows' table. */
static inline void *kvcalloc(size_t n, size_t size, gfp_t gfp)
{
	size_t len = (n * size + 63) / 64 * 64;
	void *p = aligned_alloc(64, len ? len : 64);

	(void)gfp;
	return p ? memset(p, 0, len) : NULL;
}

#define kvzalloc_objs(type, n)	((type *)calloc((n), sizeof(type)))

static inline void kvfree(const void *p)
{
	free((void *)p);
}

/* --- lists (<linux/list.h>) --------------------------------------------- */

struct list_head {
	struct list_head *next, *prev;
};

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline bool list_empty(const struct list_head *l)
{
	return l->next == l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void __list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
}

static inline void list_del_init(struct list_head *e)
{
	__list_del(e);
	INIT_LIST_HEAD(e);
}

static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	__list_del(e);
	list_add_tail(e, head);
}

#define list_first_entry(head, type, member) \
	container_of((head)->next, type, member)
#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)

/* --- the clock ---------------------------------------------------------- */

extern u64 fqshim_now_ns;

static inline u64 ktime_get_ns(void)
{
	return fqshim_now_ns;
}

/* --- packets ------------------------------------------------------------ */

struct sock;

/*
 * A packet: an id for the log, its length, truesize, flow hash, priority
 * and DS field (DSCP 0, the ECN bits vary); cb as the kernel's.
 */
struct sk_buff {
	struct sk_buff	*next;
	struct sk_buff	*prev;
	u32		id;
	u32		len;
	u32		truesize;
	u32		hash;
	u32		priority;
	u8		dsfield;
	bool		gso;
	void		(*destructor)(struct sk_buff *skb);
	char		cb[48] __attribute__((aligned(8)));
};

struct sk_buff_head {
	struct sk_buff	*next;
	struct sk_buff	*prev;
	u32		qlen;
};

static inline void skb_mark_not_on_list(struct sk_buff *skb)
{
	skb->next = NULL;
}

static inline u32 skb_get_hash(struct sk_buff *skb)
{
	return skb->hash;
}

/* hash_headers: the traces' hash stands for the headers', keyed. */
typedef struct {
	u64 key[2];
} siphash_key_t;

static inline u32 skb_get_hash_perturb(const struct sk_buff *skb,
				       const siphash_key_t *perturb)
{
	return skb->hash ^ (u32)perturb->key[0];
}

static inline void get_random_bytes(void *buf, size_t len)
{
	memset(buf, 0x5a, len);
}

static inline int skb_get_dsfield(struct sk_buff *skb)
{
	return skb->dsfield;
}

static inline bool skb_is_gso(const struct sk_buff *skb)
{
	return skb->gso;
}

static inline u32 skb_queue_len(const struct sk_buff_head *l)
{
	return l->qlen;
}

static inline struct sk_buff *skb_peek(const struct sk_buff_head *l)
{
	return l->qlen ? l->next : NULL;
}

static inline struct sk_buff *__skb_dequeue(struct sk_buff_head *l)
{
	struct sk_buff *skb = skb_peek(l);

	if (!skb)
		return NULL;
	l->next = skb->next;
	if (!--l->qlen)
		l->prev = NULL;
	skb->next = NULL;
	return skb;
}

static inline void __skb_queue_head(struct sk_buff_head *l, struct sk_buff *skb)
{
	skb->next = l->qlen ? l->next : NULL;
	l->next = skb;
	if (!l->qlen)
		l->prev = skb;
	l->qlen++;
}

#define skb_list_walk_safe(first, skb, next_skb)			\
	for ((skb) = (first), (next_skb) = (skb) ? (skb)->next : NULL;	\
	     (skb);							\
	     (skb) = (next_skb), (next_skb) = (skb) ? (skb)->next : NULL)

/* INET_ECN_set_ce(): CE on ECT(0), ECT(1) or CE; 0 on Not-ECT. */
static inline int INET_ECN_set_ce(struct sk_buff *skb)
{
	if (!(skb->dsfield & 3))
		return 0;
	skb->dsfield |= 3;
	return 1;
}

/* Socket-charged packets (7.x's fq_codel does not count them). */
void sock_wfree(struct sk_buff *skb);

static inline bool is_skb_wmem(const struct sk_buff *skb)
{
	return skb->destructor == sock_wfree;
}

/* Freeing: the shim logs every packet a side frees (fqshim.c). */
void fqshim_free(struct sk_buff *skb, const char *how);

static inline void kfree_skb(struct sk_buff *skb)
{
	fqshim_free(skb, "drop");
}

static inline void consume_skb(struct sk_buff *skb)
{
	fqshim_free(skb, "consume");
}

#define kfree_skb_reason(skb, reason)	kfree_skb(skb)
#define SKB_DROP_REASON_QDISC_DROP	0

static inline void rtnl_kfree_skbs(struct sk_buff *head, struct sk_buff *tail)
{
	struct sk_buff *next;

	(void)tail;
	for (; head; head = next) {
		next = head->next;
		fqshim_free(head, "purge");
	}
}

/* No GSO in the differential: segmenting is never asked for. */
static inline struct sk_buff *skb_gso_segment(struct sk_buff *skb,
					      netdev_features_t features)
{
	(void)skb;
	(void)features;
	return NULL;
}

static inline netdev_features_t netif_skb_features(struct sk_buff *skb)
{
	(void)skb;
	return 0;
}

#define NETIF_F_GSO_MASK	0ULL

/* --- qdiscs (<net/sch_generic.h>, <net/pkt_sched.h>) -------------------- */

#define NET_XMIT_SUCCESS	0x00
#define NET_XMIT_DROP		0x01
#define NET_XMIT_CN		0x02
#define __NET_XMIT_STOLEN	0x00010000
#define __NET_XMIT_BYPASS	0x00020000

#define TCQ_F_CAN_BYPASS	4
#if SHIM_KERNEL_VERSION >= KERNEL_VERSION(6, 19, 0)
#define TCQ_F_DEQUEUE_DROPS	0x1000
#define DEFINE_QDISC_DROP_REASON(a, b)
enum qdisc_drop_reason {
	QDISC_DROP_OVERLIMIT = 1,
	QDISC_DROP_CONGESTED,
};
#endif

#define TC_H_MAJ(h)		((h) & 0xFFFF0000U)
#define TC_H_MIN(h)		((h) & 0x0000FFFFU)
#define TC_ACT_UNSPEC		(-1)
#define TC_ACT_OK		0
#define TC_ACT_SHOT		2
#define TC_ACT_STOLEN		4
#define TC_ACT_QUEUED		5
#define TC_ACT_REDIRECT		7
#define TC_ACT_TRAP		8
#define TCA_OPTIONS		2

struct qdisc_skb_cb {
	unsigned int	pkt_len;
	u16		slave_dev_queue_mapping;
	u16		tc_classid;
#define QDISC_CB_PRIV_LEN 20
	unsigned char	data[QDISC_CB_PRIV_LEN];
	u16		pkt_segs;
};

static inline struct qdisc_skb_cb *qdisc_skb_cb(const struct sk_buff *skb)
{
	return (struct qdisc_skb_cb *)skb->cb;
}

static inline unsigned int qdisc_pkt_len(const struct sk_buff *skb)
{
	return qdisc_skb_cb(skb)->pkt_len;
}

#define qdisc_cb_private_validate(skb, sz) \
	_Static_assert((sz) <= QDISC_CB_PRIV_LEN, "qdisc cb too large")

struct qdisc_skb_head {
	struct sk_buff	*head;
	struct sk_buff	*tail;
	u32		qlen;
};

struct gnet_stats_queue {
	u32	qlen;
	u32	backlog;
	u32	drops;
	u32	requeues;
	u32	overlimits;
};

struct gnet_stats_basic {
	u64	bytes;
	u64	packets;
};

struct net_device {
	unsigned int	mtu;
	unsigned int	hard_header_len;
};

struct Qdisc;
struct tcf_proto;
struct tcf_block;
struct netlink_ext_ack;
struct nlattr;
struct gnet_dump;
struct tcmsg {
	u32	tcm_handle;
};

struct qdisc_walker {
	int	stop;
	int	skip;
	int	count;
	int	(*fn)(struct Qdisc *q, unsigned long cl, struct qdisc_walker *w);
};

struct Qdisc_class_ops {
	struct Qdisc *(*leaf)(struct Qdisc *sch, unsigned long arg);
	unsigned long (*find)(struct Qdisc *sch, u32 classid);
	struct tcf_block *(*tcf_block)(struct Qdisc *sch, unsigned long cl,
				       struct netlink_ext_ack *extack);
	unsigned long (*bind_tcf)(struct Qdisc *sch, unsigned long parent,
				  u32 classid);
	void (*unbind_tcf)(struct Qdisc *q, unsigned long cl);
	int (*dump)(struct Qdisc *sch, unsigned long cl, struct sk_buff *skb,
		    struct tcmsg *tcm);
	int (*dump_stats)(struct Qdisc *sch, unsigned long cl,
			  struct gnet_dump *d);
	void (*walk)(struct Qdisc *sch, struct qdisc_walker *arg);
};

struct Qdisc_ops {
	const struct Qdisc_class_ops *cl_ops;
	const char	*id;
	int		priv_size;
	int		(*enqueue)(struct sk_buff *skb, struct Qdisc *sch,
				   struct sk_buff **to_free);
	struct sk_buff	*(*dequeue)(struct Qdisc *sch);
	struct sk_buff	*(*peek)(struct Qdisc *sch);
	int		(*init)(struct Qdisc *sch, struct nlattr *arg,
				struct netlink_ext_ack *extack);
	void		(*reset)(struct Qdisc *sch);
	void		(*destroy)(struct Qdisc *sch);
	int		(*change)(struct Qdisc *sch, struct nlattr *arg,
				  struct netlink_ext_ack *extack);
	int		(*dump)(struct Qdisc *sch, struct sk_buff *skb);
	int		(*dump_stats)(struct Qdisc *sch, struct gnet_dump *d);
	void		*owner;
};

struct Qdisc {
	struct sk_buff	*(*dequeue)(struct Qdisc *sch);
	const struct Qdisc_ops *ops;
	unsigned int	flags;
	u32		limit;
	u32		handle;
	struct net_device *dev;
	struct qdisc_skb_head q;
	struct gnet_stats_basic bstats;
	struct gnet_stats_queue qstats;
	struct sk_buff_head gso_skb;
	long		priv[] __attribute__((aligned(64)));
};

static inline void *qdisc_priv(struct Qdisc *sch)
{
	return sch->priv;
}

static inline struct net_device *qdisc_dev(const struct Qdisc *sch)
{
	return sch->dev;
}

static inline unsigned int psched_mtu(const struct net_device *dev)
{
	return dev->mtu + dev->hard_header_len;
}

static inline u32 qdisc_qlen(const struct Qdisc *sch)
{
	return sch->q.qlen;
}

static inline void qdisc_qlen_inc(struct Qdisc *sch)
{
	sch->q.qlen++;
}

static inline void qdisc_qlen_dec(struct Qdisc *sch)
{
	sch->q.qlen--;
}

static inline void qstats_backlog_sub(struct Qdisc *sch, u32 val)
{
	sch->qstats.backlog -= val;
}

static inline void qdisc_qstats_backlog_dec(struct Qdisc *sch,
					    const struct sk_buff *skb)
{
	sch->qstats.backlog -= qdisc_pkt_len(skb);
}

static inline void qdisc_qstats_backlog_inc(struct Qdisc *sch,
					    const struct sk_buff *skb)
{
	sch->qstats.backlog += qdisc_pkt_len(skb);
}

static inline void __qdisc_qstats_drop(struct Qdisc *sch, int count)
{
	sch->qstats.drops += count;
}

static inline void qdisc_qstats_drop(struct Qdisc *sch)
{
	sch->qstats.drops++;
}

static inline void qdisc_bstats_update(struct Qdisc *sch,
				       const struct sk_buff *skb)
{
	sch->bstats.bytes += qdisc_pkt_len(skb);
	sch->bstats.packets++;
}

static inline void __qdisc_drop(struct sk_buff *skb, struct sk_buff **to_free)
{
	skb->next = *to_free;
	*to_free = skb;
}

static inline int qdisc_drop(struct sk_buff *skb, struct Qdisc *sch,
			     struct sk_buff **to_free)
{
	__qdisc_drop(skb, to_free);
	qdisc_qstats_drop(sch);
	return NET_XMIT_DROP;
}

#if SHIM_KERNEL_VERSION >= KERNEL_VERSION(6, 19, 0)
static inline void tcf_set_qdisc_drop_reason(const struct sk_buff *skb,
					     enum qdisc_drop_reason reason)
{
	(void)skb;
	(void)reason;
}

static inline int qdisc_drop_reason(struct sk_buff *skb, struct Qdisc *sch,
				    struct sk_buff **to_free,
				    enum qdisc_drop_reason reason)
{
	(void)reason;
	return qdisc_drop(skb, sch, to_free);
}

/* Freed at once here: the kernel frees them after the qdisc lock. */
static inline void qdisc_dequeue_drop(struct Qdisc *sch, struct sk_buff *skb,
				      enum qdisc_drop_reason reason)
{
	(void)sch;
	(void)reason;
	kfree_skb(skb);
}
#endif

static inline void rtnl_qdisc_drop(struct sk_buff *skb, struct Qdisc *sch)
{
	qdisc_qstats_drop(sch);
	fqshim_free(skb, "drop");
}

/* The parents' view: every report is logged with the qlen it was made at. */
void qdisc_tree_reduce_backlog(struct Qdisc *sch, int n, int len);

static inline void sch_tree_lock(struct Qdisc *sch)
{
	(void)sch;
}

static inline void sch_tree_unlock(struct Qdisc *sch)
{
	(void)sch;
}

/*
 * qdisc_dequeue_internal() as mainline has it since 2025, on every kernel:
 * 6.12.95's copy leaves a peeked packet's bytes in the backlog, a bug of
 * that kernel's generic header (docs/kernels.md), not of its fq_codel.
 */
static inline struct sk_buff *qdisc_dequeue_internal(struct Qdisc *sch,
						     bool direct)
{
	struct sk_buff *skb = __skb_dequeue(&sch->gso_skb);

	(void)direct;
	if (skb) {
		sch->q.qlen--;
		qdisc_qstats_backlog_dec(sch, skb);
		return skb;
	}
	return sch->dequeue(sch);
}

/* qdisc_peek_dequeued(): 6.12.95's fq_codel peeks with it. */
static inline struct sk_buff *qdisc_peek_dequeued(struct Qdisc *sch)
{
	struct sk_buff *skb = skb_peek(&sch->gso_skb);

	if (!skb) {
		skb = sch->dequeue(sch);
		if (skb) {
			__skb_queue_head(&sch->gso_skb, skb);
			qdisc_qstats_backlog_inc(sch, skb);
			sch->q.qlen++;
		}
	}
	return skb;
}

int register_qdisc(struct Qdisc_ops *ops);
void unregister_qdisc(struct Qdisc_ops *ops);

/* --- classifiers: none attached in the differential --------------------- */

struct tcf_result {
	u32	classid;
};

static inline int tcf_classify(struct sk_buff *skb, const struct tcf_block *b,
			       const struct tcf_proto *tp,
			       struct tcf_result *res, bool compat)
{
	(void)skb; (void)b; (void)tp; (void)res; (void)compat;
	return TC_ACT_UNSPEC;
}

static inline int tcf_classify_qdisc(struct sk_buff *skb,
				     const struct tcf_proto *tp,
				     struct tcf_result *res, bool compat)
{
	return tcf_classify(skb, NULL, tp, res, compat);
}

#define rcu_dereference_bh(p)	(p)

static inline int tcf_block_get(struct tcf_block **b, struct tcf_proto **tp,
				struct Qdisc *sch, struct netlink_ext_ack *e)
{
	(void)tp; (void)sch; (void)e;
	*b = NULL;
	return 0;
}

static inline void tcf_block_put(struct tcf_block *b)
{
	(void)b;
}

static inline bool tc_qdisc_stats_dump(struct Qdisc *sch, unsigned long cl,
				       struct qdisc_walker *arg)
{
	if (arg->count >= arg->skip && arg->fn(sch, cl, arg) < 0) {
		arg->stop = 1;
		return false;
	}
	arg->count++;
	return true;
}

/* --- netlink ------------------------------------------------------------ */

struct nlattr {
	u16	nla_len;
	u16	nla_type;
};

#define NLA_ALIGNTO		4
#define NLA_ALIGN(len)		(((len) + NLA_ALIGNTO - 1) & ~(NLA_ALIGNTO - 1))
#define NLA_HDRLEN		((int)NLA_ALIGN(sizeof(struct nlattr)))
#define NLA_TYPE_MASK		0x3fff

enum { NLA_UNSPEC, NLA_U8, NLA_U16, NLA_U32, NLA_U64, NLA_STRING, NLA_FLAG };

struct netlink_range_validation {
	u64	min, max;
};

/* Only what is needed to name a policy entry; nothing is validated. */
struct nla_policy {
	u8	type;
	const struct netlink_range_validation *range;
	s64	min, max;
};

#define NLA_POLICY_FULL_RANGE(tp, r)	{ .type = (tp), .range = (r) }
#define NLA_POLICY_MIN(tp, v)		{ .type = (tp), .min = (v) }
#define NLA_POLICY_MAX(tp, v)		{ .type = (tp), .max = (v) }
#define NL_VALIDATE_STRICT		0x1f
#define NL_VALIDATE_MAXTYPE		0x02

struct netlink_ext_ack {
	const char		*_msg;
	const struct nlattr	*bad_attr;
	const struct nla_policy	*policy;
};

#define NL_SET_ERR_MSG(extack, msg)		((void)(extack), (void)(msg))
#define NL_SET_ERR_MSG_ATTR(extack, a, msg)	((void)(extack), (void)(a), (void)(msg))
#define do_trace_netlink_extack(msg)		((void)(msg))

static inline int nla_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

static inline void *nla_data(const struct nlattr *a)
{
	return (char *)a + NLA_HDRLEN;
}

static inline int nla_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static inline u32 nla_get_u32(const struct nlattr *a)
{
	return *(u32 *)nla_data(a);
}

static inline u8 nla_get_u8(const struct nlattr *a)
{
	return *(u8 *)nla_data(a);
}

#define nla_for_each_attr(pos, head, len, rem)				\
	for (pos = head, rem = len;					\
	     rem >= NLA_HDRLEN && pos->nla_len >= NLA_HDRLEN &&	\
	     pos->nla_len <= rem;					\
	     rem -= NLA_ALIGN(pos->nla_len),				\
	     pos = (struct nlattr *)((char *)pos + NLA_ALIGN(pos->nla_len)))
#define nla_for_each_nested(pos, nla, rem) \
	nla_for_each_attr(pos, (struct nlattr *)nla_data(nla), nla_len(nla), rem)

int __nla_parse(struct nlattr **tb, int maxtype, const struct nlattr *head,
		int len, const struct nla_policy *policy, unsigned int validate,
		struct netlink_ext_ack *extack);

static inline int nla_parse_nested(struct nlattr **tb, int maxtype,
				   const struct nlattr *nla,
				   const struct nla_policy *policy,
				   struct netlink_ext_ack *extack)
{
	return __nla_parse(tb, maxtype, nla_data(nla), nla_len(nla), policy,
			   0, extack);
}

#define nla_parse_nested_deprecated	nla_parse_nested

/* Dumps write nothing: the driver compares state and xstats instead. */
#define nla_nest_start_noflag(skb, t)	((struct nlattr *)(skb))
#define nla_nest_start(skb, t)		((struct nlattr *)(skb))
static inline int nla_nest_end(void *skb, struct nlattr *n)
{
	(void)skb;
	(void)n;
	return 0;
}

#define nla_nest_cancel(skb, n)		((void)(n))
#define nla_put_u32(skb, t, v)		((void)(v), 0)
#define nla_put_u8(skb, t, v)		((void)(v), 0)

/* The xstats a dump_stats() copies out, for the driver to compare. */
int gnet_stats_copy_app(struct gnet_dump *d, void *st, int len);

static inline int gnet_stats_copy_queue(struct gnet_dump *d, void *cpu,
					struct gnet_stats_queue *q, u32 qlen)
{
	(void)d; (void)cpu; (void)q; (void)qlen;
	return 0;
}

/* --- tracepoints: every event compiles to nothing ------------------------ */

#define TP_PROTO(...)		__VA_ARGS__
#define TP_ARGS(...)		__VA_ARGS__
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(class, name, proto, args)				\
	static inline void trace_##name(proto) { }
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	static inline void trace_##name(proto) { }
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	static inline void trace_##name(proto) { }			\
	static inline bool trace_##name##_enabled(void) { return false; }
#define TRACE_DEFINE_ENUM(x)

#include "pkt_sched_codel.h"

#endif /* _FQSHIM_H */
