/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the host tools (x86_decode_tool, ppc_class_tool, elfsym_tool)
 * share: a whole file read into memory, and a clock for their benches.
 * Userspace only.
 */
#ifndef _ITRACE_TESTS_TOOL_H
#define _ITRACE_TESTS_TOOL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The whole of @path in a malloc'ed buffer of *@size bytes, or NULL. */
static inline unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL, *more;
	size_t cap = 0, n;

	if (!f)
		return NULL;
	*size = 0;
	do {
		if (*size == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			more = realloc(buf, cap);
			if (!more) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = more;
		}
		n = fread(buf + *size, 1, cap - *size, f);
		*size += n;
	} while (n);
	fclose(f);
	return buf;
}

static inline double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#endif /* _ITRACE_TESTS_TOOL_H */
