/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * struct qdisc_util as tc (iproute2 6.1's tc/tc_util.h, the iproute2
 * authors; 6.15 shown by behaviour, docs/packaging.md) reads it from a plugin's <kind>_qdisc_util symbol, and the
 * codel attributes: mainline's from <linux/pkt_sched.h>, the module's
 * extensions from its UAPI header.  See utils.h here for why.
 */
#ifndef SCH_CODEL_TC_UTIL_H
#define SCH_CODEL_TC_UTIL_H

#include <linux/pkt_sched.h>
#include "utils.h"
#include "pkt_sched_codel.h"

struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc,
			  char **argv, struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu,
			  FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu,
			    FILE *f, struct rtattr *xstats);
	int (*parse_copt)(struct qdisc_util *qu, int argc,
			  char **argv, struct nlmsghdr *n, const char *dev);
	int (*print_copt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*has_block)(struct qdisc_util *qu, struct rtattr *opt,
			 __u32 block_idx, bool *p_has);
};

/* tc_util.h: a rate in bytes per second, printed in bits */
void tc_print_rate(enum output_type t, const char *key, const char *fmt,
		   unsigned long long rate);

#endif /* SCH_CODEL_TC_UTIL_H */
