/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A traced task's executable mappings, copied in its own context when it
 * is armed, so that kdb (which may not take mmap_lock) can print user
 * addresses as mapping+offset. Pure C, shared with host tests.
 */
#ifndef _ITRACE_SYMMAP_H
#define _ITRACE_SYMMAP_H

#include "compat.h"

#define ITRACE_MAP_MAX		16
#define ITRACE_MAP_NAME		24

struct itrace_map {
	u64 start;
	u64 end;
	u64 pgoff;	/* file offset of start, in bytes */
	char name[ITRACE_MAP_NAME];
};

struct itrace_symmap {
	u32 nr;
	struct itrace_map map[ITRACE_MAP_MAX];
};

/* The mapping holding @addr, or NULL. */
const struct itrace_map *itrace_symmap_find(const struct itrace_symmap *m,
					    u64 addr);

#endif /* _ITRACE_SYMMAP_H */
