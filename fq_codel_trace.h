/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Tracepoints of fq_codel_ext (sch_fq_codel.c): codel_trace.h's events
 * under their own system (events/fq_codel_ext/), each with the flow it
 * concerns (the class minor is flow + 1).  Disabled, each costs a static
 * branch.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fq_codel_ext

#if !defined(_FQ_CODEL_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FQ_CODEL_TRACE_H

#include <linux/netdevice.h>
#include <linux/tracepoint.h>
#include <net/sch_generic.h>

#include "codel.h"	/* the decisions' state, enum codel_drop_reason */

DECLARE_EVENT_CLASS(fq_codel_ext_decision,
		    TP_PROTO(const struct Qdisc *sch, u32 flow,
			     const struct codel_vars *vars, codel_time_t now),
		    TP_ARGS(sch, flow, vars, now),
		    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
				     __field(u32, handle)
				     __field(u32, flow)
				     __field(u32, sojourn_us)
				     __field(u32, count)
				     __field(s32, drop_next_us)
				     __field(bool, dropping)),
		    TP_fast_assign(codel_tdiff_t next = vars->drop_next - now;

				   strscpy(__entry->dev, qdisc_dev(sch)->name, IFNAMSIZ);
				   __entry->handle = sch->handle;
				   __entry->flow = flow;
				   __entry->sojourn_us = codel_time_to_us(vars->ldelay);
				   __entry->count = vars->count;
				   __entry->drop_next_us = next >= 0 ?
					(s32)codel_time_to_us(next) :
					-(s32)codel_time_to_us(-next);
				   __entry->dropping = vars->dropping;),
		    TP_printk("dev=%s handle=%x: flow=%u sojourn_us=%u count=%u drop_next_us=%d dropping=%d",
			      __entry->dev, __entry->handle >> 16, __entry->flow,
			      __entry->sojourn_us, __entry->count,
			      __entry->drop_next_us, __entry->dropping)
);

#define FQ_CODEL_DEFINE_EVENT(name)					\
	DEFINE_EVENT(fq_codel_ext_decision, name,			\
		TP_PROTO(const struct Qdisc *sch, u32 flow,		\
			 const struct codel_vars *vars,			\
			 codel_time_t now),				\
		TP_ARGS(sch, flow, vars, now))

FQ_CODEL_DEFINE_EVENT(fq_codel_ext_drop);
FQ_CODEL_DEFINE_EVENT(fq_codel_ext_ecn_mark);
FQ_CODEL_DEFINE_EVENT(fq_codel_ext_ce_mark);
FQ_CODEL_DEFINE_EVENT(fq_codel_ext_dropping_enter);
FQ_CODEL_DEFINE_EVENT(fq_codel_ext_dropping_exit);

/*
 * One event per dequeue or peek in which CoDel dropped, as
 * codel_dequeue_drops: what the parents are about to be told, and what the
 * qdisc still holds then (a peeked packet not counted yet).
 */
TRACE_EVENT_CONDITION(fq_codel_ext_dequeue_drops,
		      TP_PROTO(const struct Qdisc *sch, u32 drops, u32 bytes,
			       bool peek),
		      TP_ARGS(sch, drops, bytes, peek),
		      TP_CONDITION(drops),
		      TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
				       __field(u32, handle)
				       __field(u32, drops)
				       __field(u32, bytes)
				       __field(u32, qlen)
				       __field(u32, backlog)
				       __field(bool, peek)),
		      TP_fast_assign(strscpy(__entry->dev, qdisc_dev(sch)->name, IFNAMSIZ);
				     __entry->handle = sch->handle;
				     __entry->drops = drops;
				     __entry->bytes = bytes;
				     __entry->qlen = sch->q.qlen;
				     __entry->backlog = sch->qstats.backlog;
				     __entry->peek = peek;),
		      TP_printk("dev=%s handle=%x: drops=%u bytes=%u qlen=%u backlog=%u peek=%d",
				__entry->dev, __entry->handle >> 16, __entry->drops,
				__entry->bytes, __entry->qlen, __entry->backlog,
				__entry->peek)
);

/* adaptive_target: the target and interval in effect changed. */
TRACE_EVENT(fq_codel_ext_target,
	    TP_PROTO(const struct Qdisc *sch, const struct codel_params *params,
		     u64 drain_rate),
	    TP_ARGS(sch, params, drain_rate),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(u32, handle)
			     __field(u32, target_us)
			     __field(u32, interval_us)
			     __field(u64, drain_rate)),
	    TP_fast_assign(strscpy(__entry->dev, qdisc_dev(sch)->name, IFNAMSIZ);
			   __entry->handle = sch->handle;
			   __entry->target_us = codel_time_to_us(params->target);
			   __entry->interval_us = codel_time_to_us(params->interval);
			   __entry->drain_rate = drain_rate;),
	    TP_printk("dev=%s handle=%x: target_us=%u interval_us=%u drain_rate=%llu",
		      __entry->dev, __entry->handle >> 16, __entry->target_us,
		      __entry->interval_us, __entry->drain_rate)
);

TRACE_DEFINE_ENUM(CODEL_DROP_OVERLIMIT);
TRACE_DEFINE_ENUM(CODEL_DROP_CONGESTED);
TRACE_DEFINE_ENUM(CODEL_DROP_TRIM);
TRACE_DEFINE_ENUM(CODEL_DROP_GSO);
TRACE_DEFINE_ENUM(CODEL_DROP_MEMORY);

/* Every packet fq_codel_ext drops, whatever the path, with the reason. */
TRACE_EVENT(fq_codel_ext_skb_drop,
	    TP_PROTO(const struct Qdisc *sch, const struct sk_buff *skb,
		     u32 flow, enum codel_drop_reason reason),
	    TP_ARGS(sch, skb, flow, reason),
	    TP_STRUCT__entry(__array(char, dev, IFNAMSIZ)
			     __field(u32, handle)
			     __field(u32, flow)
			     __field(u32, len)
			     __field(u8, reason)),
	    TP_fast_assign(strscpy(__entry->dev, qdisc_dev(sch)->name, IFNAMSIZ);
			   __entry->handle = sch->handle;
			   __entry->flow = flow;
			   __entry->len = qdisc_pkt_len(skb);
			   __entry->reason = reason;),
	    TP_printk("dev=%s handle=%x: flow=%u reason=%s len=%u",
		      __entry->dev, __entry->handle >> 16, __entry->flow,
		      __print_symbolic(__entry->reason,
				       { CODEL_DROP_OVERLIMIT, "overlimit" },
				       { CODEL_DROP_CONGESTED, "congested" },
				       { CODEL_DROP_TRIM, "trim" },
				       { CODEL_DROP_GSO, "gso" },
				       { CODEL_DROP_MEMORY, "memory" }),
		      __entry->len)
);

#endif /* _FQ_CODEL_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE fq_codel_trace
#include <trace/define_trace.h>
