// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of record formatting: the stable raw line, the symbolized
 * line (function+offset in the program, mapping:function+offset in a
 * shared object, mapping+offset where no symbol covers, the bare address
 * outside every mapping), kind names, names cut and cleaned, and the
 * worst-case line length.
 */
#include "check.h"
#include "lib/format.h"
#include "lib/kind.h"

struct addr_case {
	u64 addr;
	const char *what, *want;
};

/* itrace_format_addr(@m, @a) must print @want. */
static void addr_is(const char *what, const struct itrace_symmap *m, u64 a,
		    const char *want)
{
	char buf[ITRACE_ADDR_MAX];

	itrace_format_addr(buf, sizeof(buf), m, a);
	CHECK_STR(what, buf, want);
}

/*
 * Names through symbol tables: a program (static, its symbols at their
 * link addresses) and a shared object mapped at 0x7f0000000000 from
 * file offset 0x1000, as elfsym.c leaves a table (sorted by offset).
 */
static char names[] = "main\0walk\0memcpy\0__memcpy\0bad\x1b\n\0"
		      "nosize\0"
		      "a_very_long_function_name_that_goes_on_and_on_and_on";

static const struct itrace_sym prog_syms[] = {
	{ .value = 0x401100, .off = 0x1100, .size = 0x40, .name = 0 },
	{ .value = 0x401140, .off = 0x1140, .size = 0x20, .name = 5 },
	{ .value = 0x401200, .off = 0x1200, .size = 0, .name = 32 },
	{ .value = 0x401300, .off = 0x1300, .size = 0x10, .name = 26 },
	{ .value = 0x401400, .off = 0x1400, .size = 0x10, .name = 39 },
};

static const struct itrace_sym so_syms[] = {
	/* aliases: the name with fewer leading underscores wins */
	{ .value = 0x2000, .off = 0x2000, .size = 0x80, .name = 17 },
	{ .value = 0x2000, .off = 0x2000, .size = 0x80, .name = 10 },
};

/* @nr symbols of @syms, named from names[] */
static struct itrace_symtab symtab(const struct itrace_sym *syms, u32 nr)
{
	struct itrace_symtab t = {
		.syms = (struct itrace_sym *)syms, .names = names,
		.nr = nr, .names_len = sizeof(names),
	};

	return t;
}

static const struct addr_case sym_cases[] = {
	{ 0x401100, "sym: function start",
	  "main+0x0" },
	{ 0x40113f, "sym: last byte of a function",
	  "main+0x3f" },
	{ 0x401150, "sym: next function",
	  "walk+0x10" },
	{ 0x401160, "sym: past its size: mapping+offset",
	  "tp_loop+0x1160" },
	{ 0x401200, "sym: size 0 names its own address",
	  "nosize+0x0" },
	{ 0x401201, "sym: size 0 names nothing after it",
	  "tp_loop+0x1201" },
	{ 0x401304, "sym: control bytes in a name as '?'",
	  "bad??+0x4" },
	{ 0x401401, "sym: long name cut at ITRACE_FN_SHOWN",
	  "a_very_long_function_name_that_goes_on_and_on_an+0x1" },
	{ 0x7f0000001010, "sym: shared object prefixed, alias with fewest _",
	  "libc.so.6:memcpy+0x10" },
	{ 0x7f0000000010, "sym: shared object, no symbol",
	  "libc.so.6+0x1010" },
};

static void check_syms(void)
{
	struct itrace_symtab prog = symtab(prog_syms, 5);
	struct itrace_symtab so = symtab(so_syms, 2);
	struct itrace_symmap m = {
		.nr = 2,
		.map = {
			{ .start = 0x401000, .end = 0x47a000, .pgoff = 0x1000,
			  .syms = &prog, .main = true, .name = "tp_loop" },
			{ .start = 0x7f0000000000, .end = 0x7f0000100000,
			  .pgoff = 0x1000, .syms = &so, .name = "libc.so.6" },
		},
	};
	struct itrace_rec r = {
		.seq = 7, .from = 0x401150, .to = 0x7f0000001000,
		.pid = 97, .kind = ITRACE_K_CALL,
	};
	char buf[ITRACE_LINE_MAX];
	unsigned int i;
	int n;

	for (i = 0; i < sizeof(sym_cases) / sizeof(sym_cases[0]); i++)
		addr_is(sym_cases[i].what, &m, sym_cases[i].addr,
			sym_cases[i].want);
	itrace_format_sym(buf, sizeof(buf), &r, 0, &m);
	CHECK_STR("sym: line", buf,
		  "         7   0      97 call    walk+0x10                      libc.so.6:memcpy+0x0\n");

	/* `top`'s function of an address, and its name */
	{
		static const struct {
			u64 addr, fn;
			bool nosym;
			const char *want;
		} f[] = {
			{ 0x40113f, 0x401100, false, "main" },
			{ 0x401150, 0x401140, false, "walk" },
			{ 0x401160, 0x401000, true, "tp_loop (no symbol)" },
			{ 0x7f0000001010ULL, 0x7f0000001000ULL, false,
			  "libc.so.6:memcpy" },
			{ 0x7f0000000010ULL, 0x7f0000000000ULL, true,
			  "libc.so.6 (no symbol)" },
			{ 0x1000, 0, false, "(outside every mapping)" },
		};

		for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			bool nosym;
			u64 fn = itrace_func_of(&m, f[i].addr, &nosym);

			itrace_format_func(buf, sizeof(buf), &m, fn, nosym);
			CHECK("func: the function an address lies in",
			      fn == f[i].fn && nosym == f[i].nosym);
			CHECK_STR("func: named without an offset", buf,
				  f[i].want);
		}
	}

	/*
	 * The snapshot being rewritten (a re-arm at exec, or one stopped
	 * half-way by kdb): bare addresses, never a half-written entry;
	 * once the rewrite is done, names again.
	 */
	itrace_symmap_write_begin(&m);
	addr_is("sym: mid-rewrite: bare address", &m, 0x401150, "0x401150");
	m.map[1].syms = NULL;
	addr_is("sym: mid-rewrite: bare address in the library", &m,
		0x7f0000001000ULL, "0x7f0000001000");
	m.map[1].syms = &so;
	itrace_symmap_write_end(&m);
	addr_is("sym: after the rewrite: named again", &m, 0x401150,
		"walk+0x10");
	{
		struct itrace_map e;

		CHECK("sym: get copies the entry whole",
		      itrace_symmap_get(&m, 0x7f0000001000ULL, &e) &&
		      e.syms == &so && !strcmp(e.name, "libc.so.6") &&
		      e.start == 0x7f0000000000ULL && !e.main);
		CHECK("sym: get outside every mapping", !itrace_symmap_get(&m, 0x1000, &e));
		CHECK("sym: get of no snapshot", !itrace_symmap_get(NULL, 0x401150, &e));
	}

	/*
	 * The longest address text: a 24-byte mapping name, a name cut at
	 * ITRACE_FN_SHOWN, the largest offset a u32 size allows.
	 */
	{
		static const struct itrace_sym huge = {
			.off = 0x1000, .size = 0xffffffff, .name = 39,
		};

		memset(m.map[1].name, 'x', ITRACE_MAP_NAME);
		m.map[1].end = ~0ULL;
		so.syms = (struct itrace_sym *)&huge;
		so.nr = 1;
		n = itrace_format_addr(buf, sizeof(buf), &m,
				       0x7f0000000000ULL + 0xfffffffe);
		CHECK("sym: longest address text fits ITRACE_ADDR_MAX",
		      n == ITRACE_MAP_NAME + 1 + ITRACE_FN_SHOWN + 11 &&
		      n < ITRACE_ADDR_MAX);
		r.from = r.to = 0x7f0000000000ULL + 0xfffffffe;
		r.seq = ~0ULL;
		r.pid = ~0U;
		r.kind = ITRACE_K_SYSCALL;
		n = itrace_format_sym(buf, sizeof(buf), &r, ~0U, &m);
		CHECK("sym: longest line fits ITRACE_LINE_MAX",
		      n < ITRACE_LINE_MAX);
	}
}

/* The places `func`, `start` and `stop` name (symmap.c). */
static void check_where(void)
{
	static const struct {
		const char *spec;
		u64 addr, off;
		u32 map;
		bool sym;
		const char *why;	/* NULL: found */
	} c[] = {
		{ "main", 0x401100, 0x1100, 0, true, NULL },
		{ "walk", 0x401140, 0x1140, 0, true, NULL },
		{ "__memcpy", 0x7f0000001000, 0x2000, 1, true, NULL },
		{ "tp_loop+0x1140", 0x401140, 0x1140, 0, false, NULL },
		{ "libc.so.6+0x2000", 0x7f0000001000, 0x2000, 1, false, NULL },
		{ "libc.so.6+0x100fff", 0x7f00000fffff, 0x100fff, 1, false, NULL },
		{ "0x401141", 0x401141, 0x1141, 0, false, NULL },
		{ "0x7f0000000000", 0x7f0000000000, 0x1000, 1, false, NULL },
		{ "nosuch", 0, 0, 0, false, "no such function in the task's files" },
		{ "Main", 0, 0, 0, false, "no such function in the task's files" },
		{ "libc.so.6+0xfff", 0, 0, 0, false,
		  "that mapping does not map that offset" },
		{ "libc.so.6+0x101000", 0, 0, 0, false,
		  "that mapping does not map that offset" },
		{ "libc+0x2000", 0, 0, 0, false, "no such mapping (yet)" },
		{ "+0x2000", 0, 0, 0, false, "no such mapping (yet)" },
		{ "tp_loop+0x1g", 0, 0, 0, false,
		  "that mapping does not map that offset" },
		{ "lib+x+0x2000", 0, 0, 0, false, "no such mapping (yet)" },
		{ "libc.so.6:__memcpy", 0x7f0000001000, 0x2000, 1, true, NULL },
		{ "tp_loop:main", 0x401100, 0x1100, 0, true, NULL },
		{ "tp_loop:__memcpy", 0, 0, 0, false,
		  "no such function in that mapping's file" },
		{ "libc.so.6:main", 0, 0, 0, false,
		  "no such function in that mapping's file" },
		{ "libfoo.so:bar", 0, 0, 0, false, "no such mapping (yet)" },
		{ "libc.so:__memcpy", 0, 0, 0, false, "no such mapping (yet)" },
		{ ":main", 0, 0, 0, false, "no such mapping (yet)" },
		{ "0x47a000", 0, 0, 0, false, "no mapping of a file there" },
		{ "0x400fff", 0, 0, 0, false, "no mapping of a file there" },
		{ "0x", 0, 0, 0, false, "no mapping of a file there" },
	};
	struct itrace_symtab prog = symtab(prog_syms, 5);
	struct itrace_symtab so = symtab(so_syms, 2);
	/* the library first: the program's symbols are still looked up first */
	struct itrace_symmap m = {
		.nr = 2,
		.map = {
			{ .start = 0x7f0000000000, .end = 0x7f0000100000,
			  .pgoff = 0x1000, .syms = &so, .name = "libc.so.6" },
			{ .start = 0x401000, .end = 0x47a000, .pgoff = 0x1000,
			  .syms = &prog, .main = true, .name = "tp_loop" },
		},
	};
	char name[120];
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct itrace_where w = { 0 };
		const char *why = NULL;
		int ret = itrace_where_find(&m, c[i].spec, &w, &why);

		snprintf(name, sizeof(name), "where '%s'", c[i].spec);
		if (c[i].why) {
			/* a mapping not there yet: the trigger may wait */
			CHECK(name, ret == (strstr(c[i].why, "(yet)") ?
					    -ENXIO : -ENOENT) && why);
			CHECK_STR(name, why ? why : "", c[i].why);
			continue;
		}
		/* the table's map numbers are for the program first */
		CHECK(name, !ret && w.addr == c[i].addr && w.off == c[i].off &&
		      w.map == !c[i].map && w.sym == c[i].sym);
	}
	m.nr = ITRACE_MAP_MAX + 1;
	{
		struct itrace_where w;
		const char *why = NULL;

		CHECK("where: a torn snapshot finds nothing",
		      itrace_where_find(&m, "main", &w, &why) == -ENOENT);
	}
}

/*
 * itrace_format_raw() writes by hand what the documented printf format
 * writes: the same bytes and return value for edge and pseudo-random
 * records, every kind (and one past), into every buffer size up to the
 * line's (truncated as snprintf truncates).
 */
static void raw_as_printf(void)
{
	u64 x = 0x9e3779b97f4a7c15ULL, vals[] = { 0, 1, 9, 10, 15, 16, ~0ULL };
	unsigned int i, bad = 0, cases = 0;

	for (i = 0; i < 2000; i++) {
		struct itrace_rec r;
		char got[ITRACE_LINE_MAX], want[ITRACE_LINE_MAX];
		char full[ITRACE_LINE_MAX];
		unsigned int v;
		unsigned int cpu;
		size_t len;
		int a, b;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		r.seq = i < 7 ? vals[i] : x >> (i % 64);
		r.from = i < 7 ? vals[6 - i] : x * 3;
		r.to = i % 5 ? x >> 12 : vals[i % 7];
		r.pid = (u32)(x >> 32) >> (i % 32);
		r.kind = i % (ITRACE_K_NR + 1);
		r.ns = i < 7 ? vals[i] : x >> 3;
		r.nval = i % (ITRACE_REC_VALS + 1);
		r.val[0] = x;
		r.val[1] = vals[i % 7];
		r.val[2] = x >> 40;
		cpu = i % 3 ? i : 65535;
		len = i % 4 ? sizeof(got) : i % 131;
		a = itrace_format_raw(got, len, &r, cpu);
		b = snprintf(full, sizeof(full), "%llu %u %u %s 0x%llx 0x%llx %llu",
			     (unsigned long long)r.seq, cpu, r.pid,
			     itrace_kind_name(r.kind),
			     (unsigned long long)r.from,
			     (unsigned long long)r.to,
			     (unsigned long long)r.ns);
		for (v = 0; v < r.nval; v++)
			b += snprintf(full + b, sizeof(full) - b, " 0x%llx",
				      (unsigned long long)r.val[v]);
		b += snprintf(full + b, sizeof(full) - b, "\n");
		snprintf(want, len, "%s", full);
		cases++;
		if (a != b || (len && strcmp(got, want)))
			bad++;
	}
	CHECK("format raw writes what its printf format writes (2000 records, truncations included)",
	      !bad && cases == 2000);
}

int main(void)
{
	struct itrace_symmap m = {
		.nr = 2,
		.map = {
			{ .start = 0x401000, .end = 0x47a000, .pgoff = 0x1000,
			  .name = "tp_loop" },
			{ .start = 0x7ffd1000, .end = 0x7ffd3000,
			  .name = "[vdso]" },
		},
	};
	struct itrace_rec r = {
		.seq = 42, .from = 0x4016b8, .to = 0x401625, .pid = 97,
		.kind = ITRACE_K_CALL,
	};
	char buf[ITRACE_LINE_MAX];
	unsigned int k;

	itrace_format_raw(buf, sizeof(buf), &r, 1);
	CHECK_STR("format raw", buf, "42 1 97 call 0x4016b8 0x401625 0\n");
	r.ns = 1234567890123;
	r.nval = 2;
	r.val[0] = 0;
	r.val[1] = 0x7ffd1000;
	itrace_format_raw(buf, sizeof(buf), &r, 1);
	CHECK_STR("format raw with time and values", buf,
		  "42 1 97 call 0x4016b8 0x401625 1234567890123 0x0 0x7ffd1000\n");
	itrace_format_sym(buf, sizeof(buf), &r, 1, &m);
	CHECK_STR("format sym with arguments", buf,
		  "        42   1      97 call    tp_loop+0x16b8                 tp_loop+0x1625  (0x0, 0x7ffd1000)\n");
	r.kind = ITRACE_K_SYSCALL;
	r.val[0] = 1;
	r.val[1] = (u64)-14;
	itrace_format_sym(buf, sizeof(buf), &r, 1, NULL);
	CHECK_STR("format sym with a system call's number and return", buf,
		  "        42   1      97 syscall 0x4016b8                       0x401625  nr 1 = -14\n");
	r.kind = ITRACE_K_RET;
	r.nval = 1;
	r.val[0] = 6;
	itrace_format_sym(buf, sizeof(buf), &r, 1, NULL);
	CHECK_STR("format sym with a return value", buf,
		  "        42   1      97 ret     0x4016b8                       0x401625  = 0x6\n");
	r.kind = ITRACE_K_JMP;
	itrace_format_sym(buf, sizeof(buf), &r, 1, NULL);
	CHECK_STR("format sym: a jump has no values", buf,
		  "        42   1      97 jmp     0x4016b8                       0x401625\n");
	r.kind = ITRACE_K_CALL;
	r.nval = 0;

	addr_is("format addr in first mapping", &m, 0x4016b8,
		"tp_loop+0x16b8");
	addr_is("format addr at mapping start", &m, 0x401000,
		"tp_loop+0x1000");
	addr_is("format addr at mapping end is outside", &m, 0x47a000,
		"0x47a000");
	addr_is("format addr in vdso", &m, 0x7ffd1234,
		"[vdso]+0x234");
	addr_is("format addr without map", NULL, 0x10,
		"0x10");
	{
		/* file names may hold any byte but '/' */
		struct itrace_symmap odd = {
			.nr = 1,
			.map = { { .start = 0x1000, .end = 0x2000,
				   .name = "a\nb\x1b[2J\xc3\xa9" } },
		};

		addr_is("format addr name control bytes as '?'", &odd, 0x1010,
			"a?b?[2J\?\?+0x10");
		memset(odd.map[0].name, 'y', ITRACE_MAP_NAME);
		addr_is("format addr name without NUL", &odd, 0x1010,
			"yyyyyyyyyyyyyyyyyyyyyyyy+0x10");
	}

	itrace_format_sym(buf, sizeof(buf), &r, 1, &m);
	CHECK_STR("format sym line", buf,
		  "        42   1      97 call    tp_loop+0x16b8                 tp_loop+0x1625\n");
	itrace_format_sym_header(buf, sizeof(buf));
	CHECK_STR("format sym header", buf,
		  "       seq cpu     pid kind    from                           to\n");

	check_syms();
	check_where();

	for (k = 0; k < ITRACE_K_NR; k++)
		CHECK("every kind has a name",
		      strcmp(itrace_kind_name(k), "?") != 0);
	CHECK_STR("unknown kind", itrace_kind_name(ITRACE_K_NR), "?");
	CHECK("transfer kinds", !itrace_kind_is_transfer(ITRACE_K_INSN) &&
	      !itrace_kind_is_transfer(ITRACE_K_JCC_NT) &&
	      itrace_kind_is_transfer(ITRACE_K_JCC) &&
	      itrace_kind_is_transfer(ITRACE_K_RET) &&
	      itrace_kind_is_transfer(ITRACE_K_SYSCALL) &&
	      itrace_kind_is_transfer(ITRACE_K_ASYNC));

	/* worst case fits ITRACE_LINE_MAX */
	{
		struct itrace_symmap big = { .nr = 1 };
		struct itrace_rec w = {
			.seq = ~0ULL, .from = ~0ULL - 1, .to = ~0ULL - 1,
			.pid = ~0U, .kind = ITRACE_K_CALL, .ns = ~0ULL,
			.nval = 3, .val = { ~0ULL, ~0ULL, ~0ULL },
		};
		int n;

		big.map[0].start = 0;
		big.map[0].end = ~0ULL;
		big.map[0].pgoff = 0;
		memset(big.map[0].name, 'x', ITRACE_MAP_NAME);
		n = itrace_format_sym(buf, sizeof(buf), &w, 65535, &big);
		CHECK("format sym worst case fits", n < ITRACE_LINE_MAX);
		n = itrace_format_raw(buf, sizeof(buf), &w, 65535);
		CHECK("format raw worst case fits", n < ITRACE_LINE_MAX);
	}
	raw_as_printf();
	/* instruction bytes: " e8 5b ff", cut to what fits with the NUL */
	{
		static const u8 b[16] = { 0xe8, 0x5b, 0xff, 0x00, 0x0a };
		char out[49];

		CHECK("bytes: 3", itrace_format_bytes(out, sizeof(out), b, 3) == 9 &&
		      !strcmp(out, " e8 5b ff"));
		CHECK("bytes: 16", itrace_format_bytes(out, sizeof(out), b, 16) == 48 &&
		      !strcmp(out + 9, " 00 0a 00 00 00 00 00 00 00 00 00 00 00"));
		CHECK("bytes: none", itrace_format_bytes(out, sizeof(out), b, 0) == 0 &&
		      !out[0]);
		CHECK("bytes: 7 bytes of room, 2 fit",
		      itrace_format_bytes(out, 7, b, 5) == 6 && !strcmp(out, " e8 5b"));
		CHECK("bytes: no room", itrace_format_bytes(out, 0, b, 5) == 0);
	}
	return check_failed ? 1 : 0;
}
