// SPDX-License-Identifier: GPL-2.0
/*
 * Record formatting (see format.h). Kept free of kernel calls other than
 * snprintf so `itrace log`, the host tests and later the debugfs stream
 * all print the very same text.
 */
#include "format.h"
#include "kind.h"
#include "out.h"
#include "values.h"

/*
 * A mapping name is a file name: any bytes but '/' and NUL, and a symbol
 * name comes from the file too. Printed as they are, a newline or an
 * escape sequence in one would split the log line or drive the console:
 * they go through itrace_name() (out.h), as every name printed, and
 * anything but printable ASCII shows as '?'. @out has max + 1 bytes.
 */
static void clean(char *out, const char *s, size_t max)
{
	itrace_name(out, max + 1, s, max, ITRACE_NAME_QMARK);
}

/*
 * Through the mapping's symbols: "function+0xoff" in the program,
 * "mapping:function+0xoff" in a shared object; without a symbol there
 * "mapping+0xfileoff"; outside every mapping "0xaddr".
 */
int itrace_format_addr(char *buf, size_t len, const struct itrace_symmap *m,
		       u64 addr)
{
	char name[ITRACE_MAP_NAME + 1], fn[ITRACE_FN_SHOWN + 1];
	const struct itrace_sym *sym;
	struct itrace_map map;
	u64 off;

	/* a copy: the task may be re-arming (exec) and rewriting it */
	if (!itrace_symmap_get(m, addr, &map))
		return snprintf(buf, len, "0x%llx", (unsigned long long)addr);
	clean(name, map.name, ITRACE_MAP_NAME);
	off = addr - map.start + map.pgoff;
	sym = itrace_sym_at(map.syms, off);
	if (!sym)
		return snprintf(buf, len, "%s+0x%llx", name,
				(unsigned long long)off);
	clean(fn, itrace_sym_name(map.syms, sym), ITRACE_FN_SHOWN);
	off -= sym->off;
	if (map.main)
		return snprintf(buf, len, "%s+0x%llx", fn,
				(unsigned long long)off);
	return snprintf(buf, len, "%s:%s+0x%llx", name, fn,
			(unsigned long long)off);
}

u64 itrace_func_of(const struct itrace_symmap *m, u64 addr, bool *nosym)
{
	const struct itrace_sym *sym;
	struct itrace_map map;
	u64 off;

	*nosym = false;
	if (!itrace_symmap_get(m, addr, &map))
		return 0;
	off = addr - map.start + map.pgoff;
	sym = itrace_sym_at(map.syms, off);
	if (sym)
		return addr - (off - sym->off);
	*nosym = true;
	return map.start;
}

int itrace_format_func(char *buf, size_t len, const struct itrace_symmap *m,
		       u64 func, bool nosym)
{
	char name[ITRACE_MAP_NAME + 1];
	struct itrace_map map;
	int n;

	if (!func)
		return snprintf(buf, len, "(outside every mapping)");
	if (nosym) {
		if (!itrace_symmap_get(m, func, &map))
			return snprintf(buf, len, "0x%llx",
					(unsigned long long)func);
		clean(name, map.name, ITRACE_MAP_NAME);
		return snprintf(buf, len, "%s (no symbol)", name);
	}
	/* a function's own start: "function+0x0" less its "+0x0" */
	n = itrace_format_addr(buf, len, m, func);
	if (n > 4 && (size_t)n < len && !strcmp(buf + n - 4, "+0x0")) {
		buf[n - 4] = '\0';
		n -= 4;
	}
	return n;
}

/* @v in @base (10 or 16, lower-case) at @p; returns the end */
static char *put_num(char *p, u64 v, unsigned int base)
{
	char t[20];
	int n = 0;

	do {
		t[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n)
		*p++ = t[--n];
	return p;
}

int itrace_format_bytes(char *buf, size_t len, const u8 *b, unsigned int n)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int i;

	if (!len)
		return 0;
	if (n > (len - 1) / 3)
		n = (len - 1) / 3;
	for (i = 0; i < n; i++) {
		buf[3 * i] = ' ';
		buf[3 * i + 1] = hex[b[i] >> 4];
		buf[3 * i + 2] = hex[b[i] & 15];
	}
	buf[3 * n] = '\0';
	return 3 * n;
}

/*
 * The raw line, as snprintf(buf, len, "%llu %u %u %s 0x%llx 0x%llx %llu"
 * and " 0x%llx" per value, "\n") writes it (same bytes, same return),
 * by hand: the stream's
 * readers format every record (with this and a batch of lines per
 * copy_to_user, a stream reader in the VM went from about 190000 to
 * 450000 records a second).
 */
int itrace_format_raw(char *buf, size_t len, const struct itrace_rec *r,
		      unsigned int cpu)
{
	const char *kind = itrace_kind_name(r->kind);
	char t[ITRACE_LINE_MAX], *p = t;
	unsigned int i;
	size_t n;

	p = put_num(p, r->seq, 10);
	*p++ = ' ';
	p = put_num(p, cpu, 10);
	*p++ = ' ';
	p = put_num(p, r->pid, 10);
	*p++ = ' ';
	n = strlen(kind);
	memcpy(p, kind, n);
	p += n;
	*p++ = ' ';
	*p++ = '0';
	*p++ = 'x';
	p = put_num(p, r->from, 16);
	*p++ = ' ';
	*p++ = '0';
	*p++ = 'x';
	p = put_num(p, r->to, 16);
	*p++ = ' ';
	p = put_num(p, r->ns, 10);
	for (i = 0; i < r->nval && i < ITRACE_REC_VALS; i++) {
		*p++ = ' ';
		*p++ = '0';
		*p++ = 'x';
		p = put_num(p, r->val[i], 16);
	}
	*p++ = '\n';
	n = p - t;
	if (len) {
		size_t w = n < len - 1 ? n : len - 1;

		memcpy(buf, t, w);
		buf[w] = '\0';
	}
	return n;
}

int itrace_format_sym_header(char *buf, size_t len)
{
	return snprintf(buf, len, "%10s %3s %7s %-7s %-30s %s\n",
			"seq", "cpu", "pid", "kind", "from", "to");
}

int itrace_format_sym(char *buf, size_t len, const struct itrace_rec *r,
		      unsigned int cpu, const struct itrace_symmap *m)
{
	char from[ITRACE_ADDR_MAX], to[ITRACE_ADDR_MAX];
	char vals[ITRACE_VALS_MAX];

	itrace_format_addr(from, sizeof(from), m, r->from);
	itrace_format_addr(to, sizeof(to), m, r->to);
	itrace_format_vals(vals, sizeof(vals), r->kind, r->nval, r->val);
	return snprintf(buf, len, "%10llu %3u %7u %-7s %-30s %s%s\n",
			(unsigned long long)r->seq, cpu, r->pid,
			itrace_kind_name(r->kind), from, to, vals);
}
