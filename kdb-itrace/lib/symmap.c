// SPDX-License-Identifier: GPL-2.0
/*
 * Address lookup in a traced task's mapping snapshot, and the places
 * triggers name (see symmap.h). Pure C, shared with host tests.
 */
#include "parse.h"
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

bool itrace_symmap_get(const struct itrace_symmap *m, u64 addr,
		       struct itrace_map *out)
{
	const struct itrace_map *e;
	u32 seq;

	if (!m)
		return false;
	seq = READ_ONCE(m->seq);
	if (seq & 1)
		return false;
	smp_rmb();	/* seq before the entries */
	e = itrace_symmap_find(m, addr);
	if (!e)
		return false;
	memcpy(out, e, sizeof(*out));
	smp_rmb();	/* the copy before seq again */
	return READ_ONCE(m->seq) == seq;
}

/* @e's file offset @off: the address it is mapped at, if it is. */
static bool map_off(const struct itrace_map *e, u64 off, u64 *addr)
{
	if (off < e->pgoff || off - e->pgoff >= e->end - e->start)
		return false;
	*addr = e->start + (off - e->pgoff);
	return true;
}

/* Is @e the mapping the log names @name (@n bytes)? */
static bool map_named(const struct itrace_map *e, const char *name, size_t n)
{
	return strlen(e->name) == n && !strncmp(e->name, name, n);
}

/*
 * Function symbol @name, the program's first (pass 0), then libraries';
 * only in the mappings named @in (@in_len bytes) if @in.
 */
static int find_sym(const struct itrace_symmap *m, const char *name,
		    const char *in, size_t in_len, struct itrace_where *w)
{
	int pass;
	u32 i, j;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < m->nr; i++) {
			const struct itrace_map *e = &m->map[i];
			const struct itrace_symtab *tab = e->syms;

			if (!tab || e->main != !pass ||
			    (in && !map_named(e, in, in_len)))
				continue;
			for (j = 0; j < tab->nr; j++) {
				const struct itrace_sym *sym = &tab->syms[j];

				if (sym->name >= tab->names_len ||
				    strcmp(tab->names + sym->name, name) ||
				    !map_off(e, sym->off, &w->addr))
					continue;
				w->off = sym->off;
				w->map = i;
				w->sym = true;
				return 0;
			}
		}
	}
	return -ENOENT;
}

/* "name+0xOFF": a mapping of that name that maps file offset OFF. */
static int find_map_off(const struct itrace_symmap *m, const char *spec,
			size_t plus, struct itrace_where *w)
{
	u64 off;
	u32 i;

	if (itrace_parse_hex(spec + plus + 1, strlen(spec + plus + 1), &off))
		return -EINVAL;
	for (i = 0; i < m->nr; i++) {
		const struct itrace_map *e = &m->map[i];

		if (map_named(e, spec, plus) && map_off(e, off, &w->addr)) {
			w->off = off;
			w->map = i;
			w->sym = false;
			return 0;
		}
	}
	return -ENOENT;
}

/* Does @m map a file the log names @name (@n bytes)? */
static bool any_named(const struct itrace_symmap *m, const char *name,
		      size_t n)
{
	u32 i;

	for (i = 0; i < m->nr; i++)
		if (map_named(&m->map[i], name, n))
			return true;
	return false;
}

int itrace_where_find(const struct itrace_symmap *m, const char *spec,
		      struct itrace_where *w, const char **why)
{
	size_t n = strlen(spec), plus = itrace_place_plus(spec);
	const struct itrace_map *e;
	const char *colon;
	u64 addr;

	if (m->nr > ITRACE_MAP_MAX) {
		*why = "no mappings";
		return -ENOENT;
	}
	if (spec[0] == '0' && spec[1] == 'x') {
		e = itrace_parse_hex(spec, n, &addr) ? NULL :
		    itrace_symmap_find(m, addr);
		if (!e) {
			*why = "no mapping of a file there";
			return -ENOENT;
		}
		w->addr = addr;
		w->off = e->pgoff + (addr - e->start);
		w->map = e - m->map;
		w->sym = false;
		return 0;
	}
	if (spec[plus]) {
		if (!find_map_off(m, spec, plus, w))
			return 0;
		if (!any_named(m, spec, plus)) {
			*why = "no such mapping (yet)";
			return -ENXIO;
		}
		*why = "that mapping does not map that offset";
		return -ENOENT;
	}
	colon = strchr(spec, ':');
	if (colon) {
		if (!find_sym(m, colon + 1, spec, colon - spec, w))
			return 0;
		if (!any_named(m, spec, colon - spec)) {
			*why = "no such mapping (yet)";
			return -ENXIO;
		}
		*why = "no such function in that mapping's file";
		return -ENOENT;
	}
	if (!find_sym(m, spec, NULL, 0, w))
		return 0;
	*why = "no such function in the task's files";
	return -ENOENT;
}
