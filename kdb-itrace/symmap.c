// SPDX-License-Identifier: GPL-2.0
/* Address lookup in a traced task's mapping snapshot (see symmap.h). */
#include "symmap.h"

const struct itrace_map *itrace_symmap_find(const struct itrace_symmap *m,
					    u64 addr)
{
	u32 i, nr;

	if (!m)
		return NULL;
	nr = READ_ONCE(m->nr);
	if (nr > ITRACE_MAP_MAX)
		return NULL;
	smp_rmb();	/* the entries were written before nr */
	for (i = 0; i < nr; i++)
		if (addr >= m->map[i].start && addr < m->map[i].end)
			return &m->map[i];
	return NULL;
}
