// SPDX-License-Identifier: GPL-2.0
/*
 * Record formatting (see format.h). Kept free of kernel calls other than
 * snprintf so `itrace log`, the host tests and later the debugfs stream
 * all print the very same text.
 */
#include "format.h"
#include "kind.h"

/*
 * A mapping name is a file name: any bytes but '/' and NUL. Printed as
 * they are, a newline or an escape sequence in one would split the log
 * line or drive the console, so anything but printable ASCII shows as '?'.
 */
int itrace_format_addr(char *buf, size_t len, const struct itrace_symmap *m,
		       u64 addr)
{
	const struct itrace_map *map = itrace_symmap_find(m, addr);
	char name[ITRACE_MAP_NAME + 1];
	unsigned int i;

	if (!map)
		return snprintf(buf, len, "0x%llx", (unsigned long long)addr);
	for (i = 0; i < ITRACE_MAP_NAME && map->name[i]; i++)
		name[i] = map->name[i] < ' ' || map->name[i] > '~' ?
			  '?' : map->name[i];
	name[i] = '\0';
	return snprintf(buf, len, "%s+0x%llx", name,
			(unsigned long long)(addr - map->start + map->pgoff));
}

int itrace_format_raw(char *buf, size_t len, const struct itrace_rec *r,
		      unsigned int cpu)
{
	return snprintf(buf, len, "%llu %u %u %s 0x%llx 0x%llx\n",
			(unsigned long long)r->seq, cpu, r->pid,
			itrace_kind_name(r->kind),
			(unsigned long long)r->from,
			(unsigned long long)r->to);
}

int itrace_format_sym_header(char *buf, size_t len)
{
	return snprintf(buf, len, "%10s %3s %7s %-7s %-30s %s\n",
			"seq", "cpu", "pid", "kind", "from", "to");
}

int itrace_format_sym(char *buf, size_t len, const struct itrace_rec *r,
		      unsigned int cpu, const struct itrace_symmap *m)
{
	char from[48], to[48];

	itrace_format_addr(from, sizeof(from), m, r->from);
	itrace_format_addr(to, sizeof(to), m, r->to);
	return snprintf(buf, len, "%10llu %3u %7u %-7s %-30s %s\n",
			(unsigned long long)r->seq, cpu, r->pid,
			itrace_kind_name(r->kind), from, to);
}
