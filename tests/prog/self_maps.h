/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the test programs that map a copy of themselves (tp_name, tp_late):
 * where a function of theirs is in their file, from /proc/self/maps.
 */
#ifndef TP_SELF_MAPS_H
#define TP_SELF_MAPS_H

#include <stdio.h>

/* The file offset of @addr in this program's own mappings, or -1. */
static inline long file_offset(unsigned long addr)
{
	unsigned long start, end, pgoff;
	char line[512];
	long off = -1;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (off < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &pgoff) == 3 &&
		    addr >= start && addr < end)
			off = (long)(addr - start + pgoff);
	fclose(f);
	return off;
}

#endif
