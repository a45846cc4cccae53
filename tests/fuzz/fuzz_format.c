// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the log-line formatter and the mapping lookup
 * (kdb-itrace/lib/format.c, symmap.c). The input fills a record, a cpu
 * number and a mapping snapshot (names are raw file-name bytes, NUL or
 * not; mappings are made to cover the record's addresses often), some
 * mappings with a symbol table (sorted by file offset, as elfsym.c leaves
 * it; names of any bytes, up to its longest). Checked: the lookup finds
 * the first covering mapping and trusts no count past ITRACE_MAP_MAX; an
 * address is exactly "function+0xoff" (the program),
 * "mapping:function+0xoff", "mapping+0xoff" or "0xaddr", its function
 * one that covers it, and fits the formatter's own buffer; each line is
 * one printable line under ITRACE_LINE_MAX, the raw one parses back to
 * the record, and a shorter buffer only cuts a line. Output buffers are
 * exactly-sized heap blocks.
 */
#include "fuzz.h"
#include "lib/format.h"
#include "lib/kind.h"

#define ADDR_BUF	ITRACE_ADDR_MAX	/* format.c's from/to buffers */
#define FUZZ_SYMS	6

struct input {
	const u8 *p;
	size_t left;
};

static u64 take(struct input *in, unsigned int bytes)
{
	u64 v = 0;

	while (bytes--) {
		v = v << 8 | (in->left ? *in->p : 0);
		if (in->left) {
			in->p++;
			in->left--;
		}
	}
	return v;
}

/* A mapping around @a most of the time, else anywhere. */
static void fill_map(struct input *in, struct itrace_map *e, u64 from, u64 to)
{
	unsigned int how = take(in, 1);
	u64 a = how & 1 ? from : to;
	unsigned int i;

	if (how & 6) {
		u64 below = take(in, 2), above = take(in, 2);

		e->start = a >= below ? a - below : 0;
		e->end = a + above + 1 > a ? a + above + 1 : ~0ull;
	} else {
		e->start = take(in, 8);
		e->end = take(in, 8);
	}
	e->pgoff = take(in, 8);
	for (i = 0; i < ITRACE_MAP_NAME; i++)
		e->name[i] = (char)take(in, 1);
}

static int cmp_off(const void *a, const void *b)
{
	const struct itrace_sym *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * A table of up to FUZZ_SYMS functions near @a's file offset in @e,
 * sorted; the caller frees t->syms and t->names.
 */
static void fill_syms(struct input *in, struct itrace_symtab *t,
		      struct itrace_map *e, u64 a)
{
	u32 n = take(in, 1) % (FUZZ_SYMS + 1), i, len, k;
	u64 off = a - e->start + e->pgoff;

	memset(t, 0, sizeof(*t));
	t->syms = (struct itrace_sym *)fuzz_alloc(FUZZ_SYMS * sizeof(*t->syms));
	t->names = (char *)fuzz_alloc(FUZZ_SYMS * (ITRACE_SYM_NAME_MAX + 1));
	t->names_len = 0;
	for (i = 0; i < n; i++) {
		struct itrace_sym *s = &t->syms[i];

		s->off = off - take(in, 1) + (take(in, 1) & 3);
		s->value = s->off;
		s->size = take(in, 1) & 0x80 ? 0 : take(in, 1);
		s->name = t->names_len;
		len = take(in, 1) % (ITRACE_SYM_NAME_MAX + 1);
		for (k = 0; k < len; k++)
			t->names[t->names_len + k] = (char)take(in, 1);
		t->names[t->names_len + len] = '\0';
		t->names_len += len + 1;
	}
	t->nr = n;
	qsort(t->syms, n, sizeof(*t->syms), cmp_off);
	e->syms = t;
	e->main = take(in, 1) & 1;
}

static void free_syms(struct itrace_symmap *m)
{
	u32 i;

	for (i = 0; m && i < ITRACE_MAP_MAX; i++) {
		struct itrace_symtab *t = (struct itrace_symtab *)m->map[i].syms;

		if (t) {
			free(t->syms);
			free(t->names);
			free(t);
		}
	}
}

/* @s as the formatter shows it: up to its NUL or @max, '?' for others. */
static int shown(char *out, const char *s, unsigned int max)
{
	unsigned int i;

	for (i = 0; i < max && s[i]; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	out[i] = '\0';
	return i;
}

static const struct itrace_map *first_map(const struct itrace_symmap *m,
					  u64 a)
{
	u32 i;

	if (!m || m->nr > ITRACE_MAP_MAX)
		return NULL;
	for (i = 0; i < m->nr; i++)
		if (m->map[i].start <= a && a < m->map[i].end)
			return &m->map[i];
	return NULL;
}

static void check_line(const char *s, int n)
{
	int i;

	FUZZ_ASSERT(n > 0 && n < ITRACE_LINE_MAX && (int)strlen(s) == n);
	FUZZ_ASSERT(s[n - 1] == '\n');
	for (i = 0; i < n - 1; i++)
		FUZZ_ASSERT(s[i] >= 0x20 && s[i] < 0x7f);
}

static void check_addr(const struct itrace_symmap *m, u64 a)
{
	const struct itrace_map *e = first_map(m, a);
	const struct itrace_sym *sym = NULL;
	char *buf = (char *)fuzz_alloc(ADDR_BUF);
	char name[ITRACE_MAP_NAME + 1], fn[ITRACE_FN_SHOWN + 1], want[160];
	int n = itrace_format_addr(buf, ADDR_BUF, m, a);
	u64 off = 0;

	FUZZ_ASSERT(itrace_symmap_find(m, a) == e);
	if (e) {
		shown(name, e->name, ITRACE_MAP_NAME);
		off = a - e->start + e->pgoff;
		sym = itrace_sym_at(e->syms, off);
	}
	if (sym) {
		/* a function that covers the address */
		FUZZ_ASSERT(sym->off <= off);
		FUZZ_ASSERT(sym->size ? off - sym->off < sym->size :
					off == sym->off);
		shown(fn, itrace_sym_name(e->syms, sym), ITRACE_FN_SHOWN);
		if (e->main)
			snprintf(want, sizeof(want), "%s+0x%llx", fn,
				 (unsigned long long)(off - sym->off));
		else
			snprintf(want, sizeof(want), "%s:%s+0x%llx", name, fn,
				 (unsigned long long)(off - sym->off));
	} else if (e) {
		snprintf(want, sizeof(want), "%s+0x%llx", name,
			 (unsigned long long)off);
	} else {
		snprintf(want, sizeof(want), "0x%llx", (unsigned long long)a);
	}
	FUZZ_ASSERT(n < ADDR_BUF && n == (int)strlen(want));
	FUZZ_ASSERT(!strcmp(buf, want));
	free(buf);
}

static void check_raw(const char *s, const struct itrace_rec *r,
		      unsigned int cpu)
{
	unsigned long long seq, from, to, ns, v[ITRACE_REC_VALS];
	unsigned int c, pid, i;
	char kind[16];
	int at;

	FUZZ_ASSERT(sscanf(s, "%llu %u %u %15s 0x%llx 0x%llx %llu%n", &seq, &c,
			   &pid, kind, &from, &to, &ns, &at) == 7);
	FUZZ_ASSERT(seq == r->seq && c == cpu && pid == r->pid);
	FUZZ_ASSERT(from == r->from && to == r->to && ns == r->ns);
	FUZZ_ASSERT(!strcmp(kind, itrace_kind_name(r->kind)));
	/* then exactly nval values */
	for (i = 0; i < r->nval; i++) {
		int n;

		FUZZ_ASSERT(sscanf(s + at, " 0x%llx%n", &v[i], &n) == 1);
		FUZZ_ASSERT(v[i] == r->val[i]);
		at += n;
	}
	FUZZ_ASSERT(!strcmp(s + at, "\n"));
}

/* A buffer of @len gets the first len - 1 bytes, same return value. */
static void check_cut(const char *full, int n, const struct itrace_rec *r,
		      unsigned int cpu, const struct itrace_symmap *m,
		      size_t len, bool sym)
{
	char *buf = (char *)fuzz_alloc(len);
	int k = sym ? itrace_format_sym(buf, len, r, cpu, m) :
		      itrace_format_raw(buf, len, r, cpu);

	FUZZ_ASSERT(k == n);
	FUZZ_ASSERT(strlen(buf) == (size_t)n || strlen(buf) == len - 1);
	FUZZ_ASSERT(!strncmp(buf, full, len - 1));
	free(buf);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct input in = { data, size };
	struct itrace_symmap *m = NULL;
	struct itrace_rec r = { 0 };
	char *raw, *sym;
	unsigned int cpu, i;
	size_t cut;
	int n, ns;

	r.seq = take(&in, 8);
	r.from = take(&in, 8);
	r.to = take(&in, 8);
	r.pid = take(&in, 4);
	r.kind = take(&in, 1);
	r.ns = take(&in, 8);
	r.nval = take(&in, 1) % (ITRACE_REC_VALS + 1);
	for (i = 0; i < r.nval; i++)
		r.val[i] = take(&in, 8);
	cpu = take(&in, 4);
	cut = 1 + take(&in, 1) % ITRACE_LINE_MAX;
	if (take(&in, 1) & 1) {
		m = (struct itrace_symmap *)fuzz_alloc(sizeof(*m));
		memset(m, 0, sizeof(*m));
		m->nr = take(&in, 1) % (ITRACE_MAP_MAX + 4);
		for (i = 0; i < ITRACE_MAP_MAX; i++) {
			struct itrace_map *e = &m->map[i];
			unsigned int how = take(&in, 1);

			fill_map(&in, e, r.from, r.to);
			if (how & 1)
				fill_syms(&in, (struct itrace_symtab *)
					  fuzz_alloc(sizeof(struct itrace_symtab)),
					  e, how & 2 ? r.from : r.to);
		}
	}

	check_addr(m, r.from);
	check_addr(m, r.to);

	raw = (char *)fuzz_alloc(ITRACE_LINE_MAX);
	n = itrace_format_raw(raw, ITRACE_LINE_MAX, &r, cpu);
	check_line(raw, n);
	check_raw(raw, &r, cpu);
	check_cut(raw, n, &r, cpu, m, cut, false);

	sym = (char *)fuzz_alloc(ITRACE_LINE_MAX);
	ns = itrace_format_sym(sym, ITRACE_LINE_MAX, &r, cpu, m);
	check_line(sym, ns);
	check_cut(sym, ns, &r, cpu, m, cut, true);

	free(sym);
	free(raw);
	free_syms(m);
	free(m);
	return 0;
}
