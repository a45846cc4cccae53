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
#include "lib/host/host_shim.h"

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

/* The command words a target splits its input into. */
#define FUZZ_MAX_WORDS	256

struct fuzz_words {
	int argc;
	char *argv[FUZZ_MAX_WORDS];
};

/*
 * Each word ends at a NUL byte or at the end of the input, so "" is no
 * word at all and "\0" one empty word. Past FUZZ_MAX_WORDS the rest is
 * dropped. Each word is its own exactly-sized block.
 */
static inline void fuzz_split(const u8 *data, size_t size,
			      struct fuzz_words *w)
{
	size_t start = 0, i;

	w->argc = 0;
	for (i = 0; start < size && w->argc < FUZZ_MAX_WORDS; i++) {
		char *s;

		if (i < size && data[i])
			continue;
		s = (char *)fuzz_alloc(i - start + 1);
		memcpy(s, data + start, i - start);
		s[i - start] = '\0';
		w->argv[w->argc++] = s;
		start = i + 1;
	}
}

static inline void fuzz_free_words(struct fuzz_words *w)
{
	int i;

	for (i = 0; i < w->argc; i++)
		free(w->argv[i]);
}

#endif /* _ITRACE_FUZZ_H */
