// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the log-line formatter and the mapping lookup
 * (kdb-itrace/format.c, symmap.c). The input fills a record, a cpu
 * number and a mapping snapshot (names are raw file-name bytes, NUL or
 * not; mappings are made to cover the record's addresses often). Checked:
 * the lookup finds the first covering mapping and trusts no count past
 * ITRACE_MAP_MAX; an address is exactly "name+0xoff" or "0xaddr" and fits
 * the formatter's own buffer; each line is one printable line under
 * ITRACE_LINE_MAX, the raw one parses back to the record, and a shorter
 * buffer only cuts a line. Output buffers are exactly-sized heap blocks.
 */
#include "fuzz.h"
#include "../../kdb-itrace/format.h"
#include "../../kdb-itrace/kind.h"

#define ADDR_BUF	48	/* format.c's from/to buffers */

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
	char *buf = (char *)fuzz_alloc(ADDR_BUF);
	char want[64];
	int n = itrace_format_addr(buf, ADDR_BUF, m, a), i, k = 0;

	FUZZ_ASSERT(itrace_symmap_find(m, a) == e);
	if (e) {
		/* the name as far as its NUL, control bytes as '?' */
		for (i = 0; i < ITRACE_MAP_NAME && e->name[i]; i++)
			want[k++] = e->name[i] >= 0x20 && e->name[i] < 0x7f ?
				    e->name[i] : '?';
		snprintf(want + k, sizeof(want) - k, "+0x%llx",
			 (unsigned long long)(a - e->start + e->pgoff));
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
	unsigned long long seq, from, to;
	unsigned int c, pid;
	char kind[16];

	FUZZ_ASSERT(sscanf(s, "%llu %u %u %15s 0x%llx 0x%llx", &seq, &c,
			   &pid, kind, &from, &to) == 6);
	FUZZ_ASSERT(seq == r->seq && c == cpu && pid == r->pid);
	FUZZ_ASSERT(from == r->from && to == r->to);
	FUZZ_ASSERT(!strcmp(kind, itrace_kind_name(r->kind)));
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
	cpu = take(&in, 4);
	cut = 1 + take(&in, 1) % ITRACE_LINE_MAX;
	if (take(&in, 1) & 1) {
		m = (struct itrace_symmap *)fuzz_alloc(sizeof(*m));
		memset(m, 0, sizeof(*m));
		m->nr = take(&in, 1) % (ITRACE_MAP_MAX + 4);
		for (i = 0; i < ITRACE_MAP_MAX; i++)
			fill_map(&in, &m->map[i], r.from, r.to);
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
	free(m);
	return 0;
}
