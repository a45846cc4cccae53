/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal assertion helpers for the host unit tests. Every check prints
 * one "PASS <name>" or "FAIL <name>: <why>" line; tests/run-all counts
 * them. Exit status is non-zero if anything failed.
 */
#ifndef _ITRACE_TEST_CHECK_H
#define _ITRACE_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failed;

#define CHECK(name, cond) do {						\
	if (cond) {							\
		printf("PASS %s\n", name);				\
	} else {							\
		printf("FAIL %s: %s (%s:%d)\n", name, #cond,		\
		       __FILE__, __LINE__);				\
		check_failed++;						\
	}								\
} while (0)

#define CHECK_STR(name, got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (!strcmp(g_, w_)) {						\
		printf("PASS %s\n", name);				\
	} else {							\
		printf("FAIL %s: got \"%s\", want \"%s\" (%s:%d)\n",	\
		       name, g_, w_, __FILE__, __LINE__);		\
		check_failed++;						\
	}								\
} while (0)

#endif /* _ITRACE_TEST_CHECK_H */
