/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every libFuzzer target in tests/fuzz/ shares: the entry point's
 * prototype, the assertion that turns a broken invariant into a crash
 * libFuzzer saves, and exactly-sized heap copies of the input, so that
 * AddressSanitizer flags a read even one byte past what the code was
 * given.
 */
#ifndef _ITRACE_FUZZ_H
#define _ITRACE_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host_shim.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

#define FUZZ_ASSERT(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "invariant broken: %s (%s:%d)\n",	\
			#cond, __FILE__, __LINE__);			\
		abort();						\
	}								\
} while (0)

/* Under ASan malloc(0) returns a block any access to is an error. */
static inline u8 *fuzz_alloc(size_t n)
{
	u8 *p = malloc(n);

	FUZZ_ASSERT(p);
	return p;
}

static inline u8 *fuzz_copy(const void *src, size_t n)
{
	u8 *p = fuzz_alloc(n);

	if (n)
		memcpy(p, src, n);
	return p;
}

#endif /* _ITRACE_FUZZ_H */
