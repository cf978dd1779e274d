/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * The netlink side both qdiscs share (sch_codel.c, sch_fq_codel.c): their
 * options are mainline's attributes plus one nest of ours, parsed
 * strictly, and every error names the option it is about.
 */
#ifndef _SCH_CODEL_NL_H
#define _SCH_CODEL_NL_H

#include <linux/kernel.h>
#include <net/netlink.h>

/* A policy entry and what its "integer out of range" becomes. */
struct codel_nl_range_msg {
	const struct nla_policy	*pol;
	const char		*msg;
};

/**
 * struct codel_nl_desc - one qdisc's options
 * @policy:	mainline's attributes, types 1..@maxtype
 * @maxtype:	mainline's highest type
 * @ext_type:	the type of our nest in TCA_OPTIONS
 * @ext_policy:	the nest's attributes, types 1..@ext_maxtype
 * @ext_maxtype: the nest's highest type
 * @range_msgs:	the range messages, by policy entry of either policy
 * @n_range_msgs: how many
 * @unknown_msg: for a type that is neither mainline's nor our nest
 * @ce_both_msg: for ce_threshold given and switched off in one request
 * @selector_msg: for a ce_threshold selector with bits outside its mask
 */
struct codel_nl_desc {
	const struct nla_policy		*policy;
	int				maxtype;
	int				ext_type;
	const struct nla_policy		*ext_policy;
	int				ext_maxtype;
	const struct codel_nl_range_msg	*range_msgs;
	unsigned int			n_range_msgs;
	const char			*unknown_msg;
	const char			*ce_both_msg;
	const char			*selector_msg;
};

/*
 * What NL_SET_ERR_MSG_ATTR() does for a literal, for the static strings
 * of a struct codel_nl_desc.
 */
static inline void codel_nl_err(struct netlink_ext_ack *extack,
				const struct nlattr *attr, const char *msg)
{
	do_trace_netlink_extack(msg);
	if (extack) {
		extack->_msg = msg;
		extack->bad_attr = attr;
		extack->policy = NULL;
	}
}

/*
 * The policy rejects an out-of-range value with "integer out of range";
 * name the option and its range instead.  Keyed by the policy entry the
 * parser reports in extack->policy; the attribute and policy stay as the
 * parser set them.
 */
static inline void codel_nl_range_msg(const struct codel_nl_desc *desc,
				      struct netlink_ext_ack *extack)
{
	unsigned int i;

	if (!extack)
		return;
	for (i = 0; i < desc->n_range_msgs; i++) {
		if (extack->policy == desc->range_msgs[i].pol) {
			do_trace_netlink_extack(desc->range_msgs[i].msg);
			extack->_msg = desc->range_msgs[i].msg;
			return;
		}
	}
}

/*
 * Parse TCA_OPTIONS into mainline's attributes (@tb) and ours (@ext, from
 * the nest).  Strict about contents (unknown or UNSPEC types, wrong
 * lengths, out-of-range values, trailing bytes) but not about
 * NLA_F_NESTED on TCA_OPTIONS itself, which tc has never set for either
 * qdisc.  The one type above mainline's we know is our nest, so unknown
 * and UNSPEC types are refused here rather than by the parser.
 */
static inline int codel_nl_parse(const struct codel_nl_desc *desc,
				 struct nlattr *opt, struct nlattr **tb,
				 struct nlattr **ext,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *a;
	int err, rem;

	err = __nla_parse(tb, desc->maxtype, nla_data(opt), nla_len(opt),
			  desc->policy,
			  NL_VALIDATE_STRICT & ~NL_VALIDATE_MAXTYPE, extack);
	if (err == -ERANGE)
		codel_nl_range_msg(desc, extack);
	if (err < 0)
		return err;
	memset(ext, 0, sizeof(*ext) * (desc->ext_maxtype + 1));
	/* Each nest is checked; the last one counts, as in tb[]. */
	nla_for_each_nested(a, opt, rem) {
		if (nla_type(a) == desc->ext_type) {
			err = nla_parse_nested(ext, desc->ext_maxtype, a,
					       desc->ext_policy, extack);
			if (err == -ERANGE)
				codel_nl_range_msg(desc, extack);
			if (err < 0)
				return err;
		} else if (!nla_type(a) || nla_type(a) > desc->maxtype) {
			/* The parser skips these without NL_VALIDATE_MAXTYPE. */
			codel_nl_err(extack, a, desc->unknown_msg);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * What the policies cannot say about ce_threshold, checked before
 * anything changes: not given and switched off at once (@value, @off),
 * and a selector within its mask (@selector, @mask as the change leaves
 * them; @sel_attr or else @mask_attr is the one blamed).
 */
/*
 * The ce_threshold selector and mask a change leaves: each as sent (@sel,
 * @msk), else as set (@cur_sel, @cur_mask).  A mask of 0 sent alone
 * switches selection off, so it clears the selector too (the in-tree
 * qdiscs take any pair, and so accept it).
 */
static inline void codel_nl_new_selector(const struct nlattr *sel,
					 const struct nlattr *msk, u8 cur_sel,
					 u8 cur_mask, u8 *selector, u8 *mask)
{
	*mask = msk ? nla_get_u8(msk) : cur_mask;
	if (sel)
		*selector = nla_get_u8(sel);
	else if (msk && !*mask)
		*selector = 0;
	else
		*selector = cur_sel;
}

static inline int codel_nl_check_ce(const struct codel_nl_desc *desc,
				    const struct nlattr *value,
				    const struct nlattr *off, u8 selector,
				    u8 mask, const struct nlattr *sel_attr,
				    const struct nlattr *mask_attr,
				    struct netlink_ext_ack *extack)
{
	if (value && off) {
		codel_nl_err(extack, off, desc->ce_both_msg);
		return -EINVAL;
	}
	if (selector & ~mask) {
		codel_nl_err(extack, sel_attr ?: mask_attr,
			     desc->selector_msg);
		return -EINVAL;
	}
	return 0;
}

#endif /* _SCH_CODEL_NL_H */
