/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Minimal KTAP-style harness for host unit tests: each case is a function
 * that records failures with EXPECT(); the runner prints one "ok"/"not ok"
 * line per case and the closing "N passed, N failed" line.
 */
#ifndef _CODEL_TAP_H
#define _CODEL_TAP_H

#include <stdio.h>

struct tap_case {
	const char *name;
	void (*run)(void);
};

static int tap_case_failed;

#define EXPECT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			printf("    # %s:%d: expected %s: ", __FILE__,	\
			       __LINE__, #cond);			\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			tap_case_failed = 1;				\
		}							\
	} while (0)

static inline int tap_run(const char *suite, const struct tap_case *cases,
			  int n)
{
	int passed = 0, failed = 0;

	printf("KTAP version 1\n# %s\n1..%d\n", suite, n);
	for (int i = 0; i < n; i++) {
		tap_case_failed = 0;
		cases[i].run();
		printf("%s %d %s\n", tap_case_failed ? "not ok" : "ok", i + 1,
		       cases[i].name);
		if (tap_case_failed)
			failed++;
		else
			passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif
