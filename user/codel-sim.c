// SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause
/*
 * codel-sim: replay a packet trace through codel.h, the same code the
 * module runs.  See docs/algorithm.md, "Trace simulator", for the format.
 *
 *   stdin:  T enq LEN [notect|ect0|ect1|ce]     T deq       (T in ns)
 *   stdout: T enq ID queued|overlimit
 *           T drop ID ...  then  T deq ID [ecn] [ce]  or  T deq empty
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/pktq.h"

#define SIM_MAX_LEN	(1U << 20)

static void usage(FILE *f)
{
	fprintf(f,
		"usage: codel-sim [--target US] [--interval US] [--limit PKTS]\n"
		"                 [--mtu BYTES] [--ecn] [--ce-threshold US] < trace\n"
		"defaults: target 5000, interval 100000, limit 1000, mtu 1514,\n"
		"          ecn off, ce-threshold off\n");
}

/* Parse a whole decimal u64 (no sign, no junk); false on any error. */
static bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

static u32 opt_u32(const char *name, const char *arg, u64 min, u64 max)
{
	uint64_t v;

	if (!parse_u64(arg, max, &v) || v < min) {
		fprintf(stderr, "codel-sim: --%s: expected an integer from %" PRIu64
			" to %" PRIu64 ", got '%s'\n", name, (uint64_t)min,
			(uint64_t)max, arg);
		exit(2);
	}
	return (u32)v;
}

static int ecn_codepoint(const char *s)
{
	static const char * const names[] = {
		[ECN_NOT_ECT] = "notect", [ECN_ECT1] = "ect1",
		[ECN_ECT0] = "ect0", [ECN_CE] = "ce",
	};

	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

static void __attribute__((noreturn)) bad_line(unsigned long n, const char *why)
{
	fprintf(stderr, "codel-sim: line %lu: %s\n", n, why);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "interval", required_argument, NULL, 'i' },
		{ "limit", required_argument, NULL, 'l' },
		{ "mtu", required_argument, NULL, 'm' },
		{ "ecn", no_argument, NULL, 'e' },
		{ "ce-threshold", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	u32 target = 5000, interval = 100000, limit = 1000, mtu = 1514;
	u32 ce_threshold = 0;
	bool ecn = false, ce = false;
	unsigned long lineno = 0;
	uint64_t last_t = 0;
	char line[256];
	struct pktq q;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			target = opt_u32("target", optarg, 0, CODEL_TIME_MAX_US);
			break;
		case 'i':
			interval = opt_u32("interval", optarg, 2, CODEL_TIME_MAX_US);
			break;
		case 'l':
			limit = opt_u32("limit", optarg, 1, UINT32_MAX);
			break;
		case 'm':
			mtu = opt_u32("mtu", optarg, 0, UINT32_MAX);
			break;
		case 'e':
			ecn = true;
			break;
		case 'c':
			ce_threshold = opt_u32("ce-threshold", optarg, 0,
					       CODEL_TIME_MAX_US);
			ce = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "codel-sim: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}

	pktq_init(&q, limit, mtu);
	q.params.target = codel_us_to_time(target);
	q.params.interval = codel_us_to_time(interval);
	q.params.ecn = ecn;
	if (ce)
		q.params.ce_threshold = codel_us_to_time(ce_threshold);

	while (fgets(line, sizeof(line), stdin)) {
		char *tok[4] = { NULL }, *save = NULL, *p;
		uint64_t t, len;
		codel_time_t now;
		int ntok = 0;

		lineno++;
		if (!strchr(line, '\n') && !feof(stdin))
			bad_line(lineno, "line too long");
		p = line + strspn(line, " \t");
		if (*p == '#')
			continue;
		for (p = strtok_r(line, " \t\r\n", &save); p;
		     p = strtok_r(NULL, " \t\r\n", &save)) {
			if (ntok == 4)
				bad_line(lineno, "too many fields");
			tok[ntok++] = p;
		}
		if (ntok == 0)
			continue;
		if (!parse_u64(tok[0], UINT64_MAX, &t))
			bad_line(lineno, "time must be a non-negative integer (ns)");
		if (t < last_t)
			bad_line(lineno, "time goes backwards");
		last_t = t;
		now = codel_ns_to_time(t);

		if (ntok >= 2 && !strcmp(tok[1], "enq")) {
			struct sk_buff *skb;
			u32 id = q.next_id;
			int cp = ECN_NOT_ECT;

			if (ntok < 3 || !parse_u64(tok[2], SIM_MAX_LEN, &len) || !len)
				bad_line(lineno, "enq needs a length from 1 to 1048576");
			if (ntok == 4 && (cp = ecn_codepoint(tok[3])) < 0)
				bad_line(lineno, "ECN must be notect, ect0, ect1 or ce");
			skb = pktq_enqueue(&q, (u32)len, (u8)cp, now);
			printf("%" PRIu64 " enq %u %s\n", t, id,
			       skb ? "queued" : "overlimit");
		} else if (ntok == 2 && !strcmp(tok[1], "deq")) {
			u32 ecn_mark = q.stats.ecn_mark, ce_mark = q.stats.ce_mark;
			struct sk_buff *skb = pktq_dequeue(&q, now), *d;

			for (d = q.dropped; d; d = d->next)
				printf("%" PRIu64 " drop %u\n", t, d->id);
			pktq_free_dropped(&q);
			if (!skb) {
				printf("%" PRIu64 " deq empty\n", t);
				continue;
			}
			printf("%" PRIu64 " deq %u%s%s\n", t, skb->id,
			       q.stats.ecn_mark != ecn_mark ? " ecn" : "",
			       q.stats.ce_mark != ce_mark ? " ce" : "");
			free(skb);
		} else {
			bad_line(lineno, "expected 'T enq LEN [ECN]' or 'T deq'");
		}
	}
	pktq_destroy(&q);
	if (fflush(stdout) || ferror(stdout)) {
		perror("codel-sim: stdout");
		return 1;
	}
	return 0;
}
