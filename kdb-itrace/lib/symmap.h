/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A traced task's executable mappings, copied in its own context when it
 * is armed, so that kdb (which may not take mmap_lock or read files) can
 * print user addresses as function+offset through each mapping's symbol
 * table (elfsym.h; image.c loads and shares them), else as
 * mapping+offset. Pure C, shared with host tests.
 */
#ifndef _ITRACE_SYMMAP_H
#define _ITRACE_SYMMAP_H

#include "compat.h"
#include "elfsym.h"

#define ITRACE_MAP_MAX		16
#define ITRACE_MAP_NAME		24

struct itrace_map {
	u64 start;
	u64 end;
	u64 pgoff;	/* file offset of start, in bytes */
	/* the file's function symbols, or NULL; held by the map entry */
	const struct itrace_symtab *syms;
	bool main;	/* the program itself: names unprefixed */
	char name[ITRACE_MAP_NAME];
};

/*
 * nr entries are published (readers: READ_ONCE, then the entries);
 * held entries hold an image reference in syms, which outlives nr = 0
 * (exec) until the owner's next snapshot drops it. seq is odd while the
 * owner rewrites the entries (a re-arm at exec, in its own context):
 * readers that may run meanwhile copy an entry with itrace_symmap_get().
 */
struct itrace_symmap {
	u32 nr;
	u32 held;
	u32 seq;
	struct itrace_map map[ITRACE_MAP_MAX];
};

/* The mapping holding @addr, or NULL: for the snapshot's owner. */
const struct itrace_map *itrace_symmap_find(const struct itrace_symmap *m,
					    u64 addr);

/*
 * Any context, lock-free: a consistent copy of the mapping holding @addr
 * into @out. False if none holds it, or if the owner was rewriting the
 * snapshot meanwhile (or is stopped half-way by kdb): the caller then
 * names the address without it. The copy's syms stay valid as long as
 * the caller's itrace_syms_read_begin() (image.h).
 */
bool itrace_symmap_get(const struct itrace_symmap *m, u64 addr,
		       struct itrace_map *out);

/* The owner brackets a rewrite of @m's entries with these. */
static inline void itrace_symmap_write_begin(struct itrace_symmap *m)
{
	WRITE_ONCE(m->seq, m->seq + 1);
	smp_wmb();	/* seq odd before any entry changes */
}

static inline void itrace_symmap_write_end(struct itrace_symmap *m)
{
	smp_wmb();	/* every entry written before seq is even again */
	WRITE_ONCE(m->seq, m->seq + 1);
}

/* A place in the task's code, as `func`, `start` and `stop` name it. */
struct itrace_where {
	u64 addr;	/* in the task */
	u64 off;	/* in the mapped file: where its uprobe goes */
	u32 map;	/* the mapping, an index into the snapshot */
	bool sym;	/* named by a function symbol (an arch may move it) */
};

/*
 * Find @spec in @m: a function symbol (the program's, else the first
 * library in map order that has it), "mapping:function" (that function
 * of the file the log names so), "mapping+0xOFF" (offset OFF in that
 * file) or "0xADDR" (an address inside a mapping). Returns 0, or
 * -ENOENT with *@why saying what was missing; -ENXIO when what is
 * missing is the mapping "mapping:" or "mapping+" names (a library not
 * loaded yet: the trigger waits for it). The caller owns @m (its task's
 * own context): no snapshot race.
 */
int itrace_where_find(const struct itrace_symmap *m, const char *spec,
		      struct itrace_where *w, const char **why);

#endif /* _ITRACE_SYMMAP_H */
