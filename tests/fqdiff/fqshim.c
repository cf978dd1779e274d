// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * The shim's out-of-line parts (fqshim.h): the clock, the log of what a
 * side did through the shim (packets freed, reports to the parents), the
 * qdisc registry, netlink parsing without validation, and the xstats copy.
 */
#include <stdarg.h>
#include <stdio.h>

#include "fqshim.h"
#include "fqdiff.h"

u64 fqshim_now_ns;
char fqshim_log[1 << 16];
unsigned int fqshim_log_len;

static void shim_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void shim_log(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (fqshim_log_len >= sizeof(fqshim_log) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(fqshim_log + fqshim_log_len,
		      sizeof(fqshim_log) - fqshim_log_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		fqshim_log_len += n;
	if (fqshim_log_len > sizeof(fqshim_log) - 1)
		fqshim_log_len = sizeof(fqshim_log) - 1;
}

void fqshim_log_reset(void)
{
	fqshim_log_len = 0;
	fqshim_log[0] = '\0';
}

void sock_wfree(struct sk_buff *skb)
{
	(void)skb;
}

void fqshim_free(struct sk_buff *skb, const char *how)
{
	(void)how;
	shim_log(" free %u", skb->id);
	free(skb);
}

/* A report that changes nothing is no report. */
void qdisc_tree_reduce_backlog(struct Qdisc *sch, int n, int len)
{
	if (!n && !len)
		return;
	shim_log(" report %d/%d at qlen %u", n, len, sch->q.qlen);
}

static struct Qdisc_ops *registered[4];

int register_qdisc(struct Qdisc_ops *ops)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(registered); i++) {
		if (!registered[i]) {
			registered[i] = ops;
			return 0;
		}
	}
	return -EEXIST;
}

void unregister_qdisc(struct Qdisc_ops *ops)
{
	(void)ops;
}

struct Qdisc_ops *fqshim_ops(const char *id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(registered); i++)
		if (registered[i] && !strcmp(registered[i]->id, id))
			return registered[i];
	return NULL;
}

int __nla_parse(struct nlattr **tb, int maxtype, const struct nlattr *head,
		int len, const struct nla_policy *policy, unsigned int validate,
		struct netlink_ext_ack *extack)
{
	const struct nlattr *a;
	int rem;

	(void)policy;
	(void)validate;
	(void)extack;
	memset(tb, 0, sizeof(*tb) * (maxtype + 1));
	nla_for_each_attr(a, head, len, rem)
		if (nla_type(a) <= maxtype)
			tb[nla_type(a)] = (struct nlattr *)a;
	return 0;
}

/* d points to the driver's buffer, its first int the room it has. */
int gnet_stats_copy_app(struct gnet_dump *d, void *st, int len)
{
	int *room = (int *)d;

	if (len > *room)
		len = *room;
	memcpy(room + 1, st, len);
	*room = len;
	return 0;
}
