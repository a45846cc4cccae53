// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the `if <condition>` compiler and evaluator
 * (kdb-itrace/lib/cond.c): every operator, precedence and grouping (by value
 * and by the canonical print), constants at their limits, every
 * register and argument, loads of each size, nested and faulting, the
 * length and nesting bounds, every error message exactly, the print
 * round trip, and the kdb spellings of cond.h through a model of kdb's
 * word splitting.
 */
#include "check.h"
#include "lib/cond.h"
#include "lib/parse.h"

/* x86-64 under gdb's names, in arch/x86/regs.c's order */
static const char *const x86_names[] = {
	"rip", "rsp", "rbp", "eflags", "rax", "rbx", "rcx", "rdx",
	"rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13",
	"r14", "r15", "orig_rax", "cs", "ss",
};

enum { RIP, RSP, RBP, EFLAGS, RAX, RBX, RCX, RDX, RSI, RDI, R8, R9 };

static const struct itrace_cond_regs x86 = {
	.names = x86_names,
	.nr = ARRAY_SIZE(x86_names),
	.arg = { RDI, RSI, RDX, RCX, R8, R9 },
};

/* POWER: r0..r31 then the others; arguments in r3..r8 */
static const char *const ppc_names[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10",
	"r11", "r12", "r13", "r14", "r15", "r16", "r17", "r18", "r19",
	"r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28",
	"r29", "r30", "r31", "nip", "msr", "lr", "ctr", "cr", "xer",
	"orig_r3", "trap",
};

static const struct itrace_cond_regs ppc = {
	.names = ppc_names,
	.nr = ARRAY_SIZE(ppc_names),
	.arg = { 3, 4, 5, 6, 7, 8 },
};

/*
 * The test task: arg0 5, arg1 points at mem, arg2 all ones, arg3 0,
 * arg4 0x80, arg5 3; every other register 0x100 + its index.
 */
#define MEM_BASE	0x1000
static u64 regs[ARRAY_SIZE(x86_names)];
static u8 mem[64];
static int loads, faults;
static char err_buf[160];

static void setup(void)
{
	unsigned int i;
	u64 v = 0x1122334455667788ULL, p = MEM_BASE + 16;

	for (i = 0; i < ARRAY_SIZE(regs); i++)
		regs[i] = 0x100 + i;
	regs[RDI] = 5;
	regs[RSI] = MEM_BASE;
	regs[RDX] = ~0ULL;
	regs[RCX] = 0;
	regs[R8] = 0x80;
	regs[R9] = 3;
	/* 0x1000: u64 0x1122334455667788, 0x1008: a pointer to 0x1010,
	 * 0x1010: u32 0xdeadbeef, the rest 0xa5 */
	memset(mem, 0xa5, sizeof(mem));
	for (i = 0; i < 8; i++) {
		mem[i] = v >> (8 * i);
		mem[8 + i] = p >> (8 * i);
	}
	mem[16] = 0xef;
	mem[17] = 0xbe;
	mem[18] = 0xad;
	mem[19] = 0xde;
}

/* Little-endian user memory at MEM_BASE; anything else faults. */
static int test_load(void *ctx, u64 addr, unsigned int size, u64 *val)
{
	unsigned int i;

	(void)ctx;
	loads++;
	if (addr < MEM_BASE || addr - MEM_BASE > sizeof(mem) - size) {
		faults++;
		return -EFAULT;
	}
	*val = 0;
	for (i = 0; i < size; i++)
		*val |= (u64)mem[addr - MEM_BASE + i] << (8 * i);
	return 0;
}

static const struct itrace_cond_mem test_mem = { .load = test_load };

/* Test names go to the log as one line each, like the errors. */
static void printable(char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s > '~')
			*s = '?';
}

/* Compile @line split at blanks, as the debugfs control file splits. */
static int compile_r(const char *line, const struct itrace_cond_regs *r,
		     unsigned int flags, struct itrace_cond *c, char *err,
		     size_t errlen)
{
	static char buf[1024];
	const char *argv[256];
	int argc;

	snprintf(buf, sizeof(buf), "%s", line);
	argc = itrace_split(buf, argv, 256);
	return itrace_cond_compile(c, r, argc, argv, flags, err, errlen);
}

static int compile(const char *line, unsigned int flags,
		   struct itrace_cond *c, char *err)
{
	return compile_r(line, &x86, flags, c, err, 160);
}

/*
 * A model of kdb's word splitting: the tokenizer at the top of
 * kdb_parse() (kernel/debug/kdb/kdb_main.c, 6.1; 6.12's is the same),
 * line for line. Words end at unquoted, unescaped whitespace (the
 * kernel's isspace(), which counts 0xa0) and after an unquoted '=',
 * which is dropped; quotes stay in the word; a backslash keeps the next
 * character and goes; a word may not start with '#' (a comment) or '|'
 * (kdb's grep: *grep is set, the rest never reaches the command).
 * Returns the word count, or -1 where kdb ignores the line (more than
 * CMD_BUFLEN bytes of words, or MAXARGC - 1 words).
 */
#define KDB_CMD_BUFLEN	200
#define KDB_MAXARGC	20

static bool kdb_isspace(char ch)
{
	unsigned char c = ch;

	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static int kdb_words(const char *cmdstr, char *cbuf, const char **argv,
		     bool *grep)
{
	const char *cp = cmdstr;
	char *cpp = cbuf, quoted;
	int argc = 0, escaped;

	*grep = false;
	while (*cp) {
		while (kdb_isspace(*cp))
			cp++;
		if (*cp == '\0' || *cp == '\n' || *cp == '#')
			break;
		if (*cp == '|') {
			*grep = true;
			break;
		}
		if (cpp >= cbuf + KDB_CMD_BUFLEN)
			return -1;
		if (argc >= KDB_MAXARGC - 1)
			return -1;
		argv[argc++] = cpp;
		escaped = 0;
		quoted = '\0';
		while (*cp && *cp != '\n' &&
		       (escaped || quoted || !kdb_isspace(*cp))) {
			if (cpp >= cbuf + KDB_CMD_BUFLEN)
				break;
			if (escaped) {
				escaped = 0;
				*cpp++ = *cp++;
				continue;
			}
			if (*cp == '\\') {
				escaped = 1;
				++cp;
				continue;
			}
			if (*cp == quoted)
				quoted = '\0';
			else if (*cp == '\'' || *cp == '"')
				quoted = *cp;
			*cpp = *cp++;
			if (*cpp == '=' && !quoted)
				break;
			++cpp;
		}
		*cpp++ = '\0';
	}
	return argc;
}

#define KDB_PREFIX	"itrace on 42 func target if "
#define KDB_SKIP	6	/* the words of KDB_PREFIX */

/* "itrace on 42 func target if @cond" typed at kdb, compiled. */
static int compile_kdb(const char *cond, struct itrace_cond *c, char *err,
		       bool *grep)
{
	static char line[512], cbuf[KDB_CMD_BUFLEN + 2];
	const char *argv[KDB_MAXARGC];
	int argc;

	snprintf(line, sizeof(line), KDB_PREFIX "%s", cond);
	argc = kdb_words(line, cbuf, argv, grep);
	if (argc < KDB_SKIP) {
		snprintf(err, 160, "kdb ignores the line (%d)", argc);
		return -2;
	}
	return itrace_cond_compile(c, &x86, argc - KDB_SKIP, argv + KDB_SKIP,
				   ITRACE_COND_KDB, err, 160);
}

/*
 * compile(print(c)) == c, from kdb: the printed words hold nothing
 * kdb_parse() treats specially, so it splits them at blanks as debugfs
 * does (test_print() also types the shorter ones through the model).
 */
static bool round_trip(const struct itrace_cond *c,
		       const struct itrace_cond_regs *r, char *printed,
		       size_t len)
{
	struct itrace_cond back;
	char err[160];

	itrace_cond_print(c, r, printed, len);
	return !strpbrk(printed, "=|#\\'\"") &&
	       !compile_r(printed, r, ITRACE_COND_KDB, &back, err,
			  sizeof(err)) && itrace_cond_same(c, &back);
}

struct eval_case {
	const char *cond;
	int want;		/* 1, 0 or -EFAULT */
	int loads;		/* load calls; -1: not checked */
};

static const struct eval_case eval_cases[] = {
	/* each comparison, both ways, both spellings */
	{ "arg0 eq 5", 1, 0 },
	{ "arg0 == 6", 0, 0 },
	{ "arg0 ne 6", 1, 0 },
	{ "arg0 != 5", 0, 0 },
	{ "arg0 lt 6", 1, 0 },
	{ "arg0 < 5", 0, 0 },
	{ "arg0 le 5", 1, 0 },
	{ "arg0 <= 4", 0, 0 },
	{ "arg0 gt 4", 1, 0 },
	{ "arg0 > 5", 0, 0 },
	{ "arg0 ge 5", 1, 0 },
	{ "arg0 >= 6", 0, 0 },
	/* unsigned: all ones is the largest */
	{ "arg2 gt 0", 1, 0 },
	{ "arg2 lt arg3", 0, 0 },
	{ "arg2 ge 0x8000000000000000", 1, 0 },
	/* the logic, and its results 1 or 0 */
	{ "arg0 and arg4", 1, 0 },
	{ "arg0 && arg3", 0, 0 },
	{ "arg3 or arg4", 1, 0 },
	{ "arg3 || arg3", 0, 0 },
	{ "(arg0 and arg4) eq 1", 1, 0 },
	{ "(arg3 or arg0) eq 1", 1, 0 },
	{ "(arg0 or arg3) eq 1", 1, 0 },	/* decided by the left side */
	{ "(arg3 and arg0) + 1 eq 1", 1, 0 },
	{ "(arg0 or u8[0]) + (arg3 and u8[0]) eq 1", 1, 0 },
	{ "not arg0", 0, 0 },
	{ "!arg3", 1, 0 },
	{ "not not arg0 eq 1", 1, 0 },
	{ "! ! arg3 eq 0", 1, 0 },
	/* arithmetic, 64-bit, wrapping */
	{ "arg0 & 4", 1, 0 },
	{ "arg0 & 2", 0, 0 },
	{ "(arg0 & arg2) eq 5", 1, 0 },
	{ "arg0 + 3 eq 8", 1, 0 },
	{ "arg0 - 5", 0, 0 },
	{ "0 - 1 eq arg2", 1, 0 },
	{ "arg2 + 1 eq 0", 1, 0 },
	{ "arg2 + arg2 eq 0xfffffffffffffffe", 1, 0 },
	/* precedence: each pair, the other grouping gives the other answer */
	{ "arg0 or arg3 and arg3", 1, 0 },
	{ "arg3 and arg0 or arg0", 1, 0 },
	{ "(arg0 or arg3) and arg3", 0, 0 },
	{ "arg3 eq 0 and arg0 eq 5", 1, 0 },
	{ "arg0 & 6 eq 4", 1, 0 },	/* C would say 5 & (6 == 4) */
	{ "arg0 & (6 eq 4)", 0, 0 },
	{ "arg0 + 3 & 4", 0, 0 },
	{ "arg0 + (3 & 4)", 1, 0 },
	{ "not arg0 + 1 eq 1", 1, 0 },
	{ "not (arg0 + 1) eq 1", 0, 0 },
	/* associativity: left to right */
	{ "10 - 3 - 2 eq 5", 1, 0 },
	{ "10 - (3 - 2) eq 9", 1, 0 },
	{ "(arg0 lt 6) eq (arg4 gt 1)", 1, 0 },
	/* constants */
	{ "18446744073709551615 eq arg2", 1, 0 },
	{ "0xFFFFFFFFFFFFFFFF eq arg2", 1, 0 },
	{ "0x00000000000000000000005 eq arg0", 1, 0 },
	{ "0X80 eq arg4", 1, 0 },
	{ "0 eq arg3", 1, 0 },
	{ "1", 1, 0 },
	{ "0", 0, 0 },
	/* registers beside the arguments */
	{ "rip eq 0x100 and rsp eq 0x101 and ss eq 0x114", 1, 0 },
	{ "rdi eq arg0 and rsi eq arg1 and r9 eq arg5", 1, 0 },
	/* loads: each size, little-endian, at an expression, nested */
	{ "u8[arg1] eq 0x88", 1, 1 },
	{ "u16[arg1] eq 0x7788", 1, 1 },
	{ "u32[arg1] eq 0x55667788", 1, 1 },
	{ "u64[arg1] eq 0x1122334455667788", 1, 1 },
	{ "u8[arg1 + 7] eq 0x11", 1, 1 },
	{ "u32[u64[arg1 + 8]] eq 0xdeadbeef", 1, 2 },
	{ "u16[u64[arg1 + 8] + 2] eq 0xdead", 1, 2 },
	{ "u8[arg1 + 63] eq 0xa5", 1, 1 },
	/* faults: the condition is false and says so */
	{ "u8[0]", -EFAULT, 1 },
	{ "u16[arg1 + 63]", -EFAULT, 1 },
	{ "u64[arg2]", -EFAULT, 1 },
	{ "u32[u64[arg1]]", -EFAULT, 2 },
	{ "arg0 and u8[0]", -EFAULT, 1 },
	{ "arg3 or u8[0] eq 0", -EFAULT, 1 },
	{ "u8[0] or arg0", -EFAULT, 1 },
	{ "not u8[0]", -EFAULT, 1 },
	/* short-circuit: the side that does not decide does not load */
	{ "arg3 and u8[0]", 0, 0 },
	{ "arg0 or u8[0]", 1, 0 },
	{ "arg0 eq 0 or u32[arg1] eq 0x55667788", 1, 1 },
	{ "arg3 ne 0 and u8[arg3] eq 1", 0, 0 },
	{ "(arg3 and u8[0]) or (arg0 or u8[0])", 1, 0 },
};

static void test_eval(void)
{
	struct itrace_cond c;
	char err[160], name[300], printed[512];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(eval_cases); i++) {
		const struct eval_case *e = &eval_cases[i];

		snprintf(name, sizeof(name), "cond compiles '%s'", e->cond);
		ret = compile(e->cond, 0, &c, err);
		CHECK(name, ret == 0 && !err[0]);
		if (ret)
			printf("    %s\n", err);
		loads = faults = 0;
		ret = itrace_cond_eval(&c, regs, &test_mem);
		snprintf(name, sizeof(name), "cond '%s' is %d (%d loads), got %d (%d loads)",
			 e->cond, e->want, e->loads, ret, loads);
		CHECK(name, ret == e->want &&
		      (e->loads < 0 || loads == e->loads) &&
		      faults == (ret == -EFAULT));
		snprintf(name, sizeof(name), "cond '%s' prints back", e->cond);
		CHECK(name, round_trip(&c, &x86, printed, sizeof(printed)));
	}
}

/* Every register by name, every argument, on both namespaces. */
static void test_registers(void)
{
	struct itrace_cond c;
	char line[64], err[160], name[200], printed[64];
	u64 vals[ARRAY_SIZE(ppc_names)];
	unsigned int i;

	for (i = 0; i < x86.nr; i++) {
		snprintf(line, sizeof(line), "%s eq 0x%llx", x86_names[i],
			 (unsigned long long)regs[i]);
		snprintf(name, sizeof(name), "x86 register '%s'", line);
		CHECK(name, !compile(line, 0, &c, err) &&
		      itrace_cond_eval(&c, regs, &test_mem) == 1 &&
		      c.op[0].code == ITRACE_COND_REG && c.op[0].arg == i);
	}
	for (i = 0; i < ARRAY_SIZE(vals); i++)
		vals[i] = 1000 + i;
	for (i = 0; i < ppc.nr; i++) {
		snprintf(line, sizeof(line), "%s eq %u", ppc_names[i], 1000 + i);
		snprintf(name, sizeof(name), "ppc register '%s'", line);
		CHECK(name, !compile_r(line, &ppc, 0, &c, err, sizeof(err)) &&
		      itrace_cond_eval(&c, vals, NULL) == 1 &&
		      round_trip(&c, &ppc, printed, sizeof(printed)));
	}
	for (i = 0; i < ITRACE_COND_ARGS; i++) {
		snprintf(line, sizeof(line), "arg%u eq %s", i,
			 x86_names[x86.arg[i]]);
		snprintf(name, sizeof(name), "x86 '%s'", line);
		CHECK(name, !compile(line, 0, &c, err) &&
		      itrace_cond_eval(&c, regs, NULL) == 1 &&
		      c.op[0].code == ITRACE_COND_ARG && c.op[0].imm == i &&
		      c.op[0].arg == x86.arg[i]);
		snprintf(line, sizeof(line), "arg%u eq r%u", i, i + 3);
		snprintf(name, sizeof(name), "ppc '%s'", line);
		vals[i + 3] = 77 + i;
		CHECK(name, !compile_r(line, &ppc, 0, &c, err, sizeof(err)) &&
		      itrace_cond_eval(&c, vals, NULL) == 1);
	}
	CHECK("ppc: x86 names are unknown",
	      compile_r("rdi", &ppc, 0, &c, err, sizeof(err)) == -EINVAL &&
	      !strcmp(err, "itrace on: condition: unknown register 'rdi'"));
	CHECK("no memory callback: a load faults",
	      !compile("u8[arg1]", 0, &c, err) &&
	      itrace_cond_eval(&c, regs, NULL) == -EFAULT);
}

struct print_case {
	const char *cond, *printed;
};

static const struct print_case print_cases[] = {
	{ "arg0==5&&u32[arg1+8]!=0", "arg0 eq 5 and u32[arg1 + 8] ne 0" },
	{ "arg0 || arg1 && arg2", "arg0 or arg1 and arg2" },
	{ "(arg0 || arg1) && arg2", "(arg0 or arg1) and arg2" },
	{ "arg0 && (arg1 && arg2)", "arg0 and (arg1 and arg2)" },
	{ "(arg0 && arg1) && arg2", "arg0 and arg1 and arg2" },
	{ "arg0 || (arg1 || arg2)", "arg0 or (arg1 or arg2)" },
	{ "arg0 - (arg1 - arg2)", "arg0 - (arg1 - arg2)" },
	{ "(arg0 - arg1) - arg2", "arg0 - arg1 - arg2" },
	{ "arg0 + arg1 & arg2 == arg3 && arg4 || arg5",
	  "arg0 + arg1 & arg2 eq arg3 and arg4 or arg5" },
	{ "arg0 + (arg1 & (arg2 == (arg3 && (arg4 || arg5))))",
	  "arg0 + (arg1 & (arg2 eq (arg3 and (arg4 or arg5))))" },
	{ "!(arg0 == 1)", "not (arg0 eq 1)" },
	{ "!arg0 == 1", "not arg0 eq 1" },
	{ "!(!arg0)", "not not arg0" },
	{ "(not arg0) + 1", "not arg0 + 1" },
	{ "not (arg0 + 1)", "not (arg0 + 1)" },
	{ "(arg0 < 1) == (arg1 < 2)", "(arg0 lt 1) eq (arg1 lt 2)" },
	{ "arg0 eq (arg1 eq arg2)", "arg0 eq (arg1 eq arg2)" },
	{ "arg0 & 0xff == 0x1F", "arg0 & 0xff eq 0x1f" },
	{ "(arg0 & 0xff) == 31", "arg0 & 0xff eq 31" },
	{ "arg0 & (0xff == 31)", "arg0 & (0xff eq 31)" },
	{ "u64[u64[rsp] + 0x10]", "u64[u64[rsp] + 0x10]" },
	{ "u8[(arg1)]", "u8[arg1]" },
	{ "not (u8[arg1])", "not u8[arg1]" },
	{ "u16[arg1] - u16[arg1 + 2] > 0x10 & 3",
	  "u16[arg1] - u16[arg1 + 2] gt 0x10 & 3" },
	{ "((arg0))", "arg0" },
	{ "0X1F", "0x1f" },
	{ "18446744073709551615", "18446744073709551615" },
	{ "\"arg0 >= 0x10 || not u8[arg1]\"", "arg0 ge 0x10 or not u8[arg1]" },
	{ "rip ge 0x400000 and rip lt 0x500000",
	  "rip ge 0x400000 and rip lt 0x500000" },
	{ "orig_rax eq 231", "orig_rax eq 231" },
};

static void test_print(void)
{
	struct itrace_cond c, back;
	bool grep;
	char err[160], name[300], printed[512];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(print_cases); i++) {
		const struct print_case *p = &print_cases[i];

		snprintf(name, sizeof(name), "cond '%s' prints '%s'", p->cond,
			 p->printed);
		CHECK(name, !compile(p->cond, 0, &c, err) &&
		      round_trip(&c, &x86, printed, sizeof(printed)) &&
		      !strcmp(printed, p->printed));
		if (strcmp(printed, p->printed))
			printf("    got '%s'\n", printed);
		snprintf(name, sizeof(name), "'%s' typed at kdb", p->printed);
		CHECK(name, !compile_kdb(p->printed, &back, err, &grep) &&
		      !grep && itrace_cond_same(&c, &back));
	}
	memset(&c, 0, sizeof(c));
	itrace_cond_print(&c, &x86, printed, sizeof(printed));
	CHECK_STR("no condition prints '-'", printed, "-");
	CHECK("no condition is true", itrace_cond_eval(&c, regs, NULL) == 1);
	compile("arg0 eq 5 and u32[arg1 + 8] ne 0", 0, &c, err);
	itrace_cond_print(&c, &x86, printed, 12);
	CHECK_STR("print cut to the buffer", printed, "arg0 eq 5 a");
	itrace_cond_print(&c, &x86, printed, 1);
	CHECK_STR("print into one byte", printed, "");
	c.op[1].arg = 11;
	itrace_cond_print(&c, &x86, printed, sizeof(printed));
	CHECK_STR("print a damaged program", printed,
		  "(not a compiled condition)");
}

struct bad_case {
	const char *cond;
	unsigned int flags;
	const char *err;
};

#define E(msg)	"itrace on: condition: " msg

static const struct bad_case bad_cases[] = {
	{ "", 0, E("empty") },
	{ "\"  \"", 0, E("empty") },
	{ "''", ITRACE_COND_KDB, E("empty") },
	{ "arg0 eq", 0, E("expected a value after 'eq'") },
	{ "arg0 ==", 0, E("expected a value after '=='") },
	{ "arg0 and", 0, E("expected a value after 'and'") },
	{ "arg0 ||", 0, E("expected a value after '||'") },
	{ "not", 0, E("expected a value after 'not'") },
	{ "arg0 + !", 0, E("expected a value after '!'") },
	{ "== 5", 0, E("expected a value first, got '=='") },
	{ "and", 0, E("expected a value first, got 'and'") },
	{ ")", 0, E("expected a value first, got ')'") },
	{ "[arg0]", 0, E("expected a value first, got '['") },
	{ "arg0 eq eq 5", 0, E("expected a value after 'eq', got 'eq'") },
	{ "arg0 && || 1", 0, E("expected a value after '&&', got '||'") },
	{ "()", 0, E("expected a value after '(', got ')'") },
	{ "arg0 - -1", 0, E("expected a value after '-', got '-'") },
	{ "arg0 5", 0, E("expected an operator after 'arg0', got '5'") },
	{ "arg0 (1)", 0, E("expected an operator after 'arg0', got '('") },
	{ "5 not", 0, E("expected an operator after '5', got 'not'") },
	{ "arg0 ! 5", 0, E("expected an operator after 'arg0', got '!'") },
	{ "u8[arg1] u8[arg1]", 0,
	  E("expected an operator after ']', got 'u8'") },
	{ "arg0 [", 0, E("expected an operator after 'arg0', got '['") },
	{ "rxx eq 1", 0, E("unknown register 'rxx'") },
	{ "RDI", 0, E("unknown register 'RDI'") },
	{ "arg", 0, E("unknown register 'arg'") },
	{ "arg0x", 0, E("unknown register 'arg0x'") },
	{ "Arg0", 0, E("unknown register 'Arg0'") },
	{ "_", 0, E("unknown register '_'") },
	{ "arg6", 0, E("no argument 'arg6' (arg0..arg5)") },
	{ "arg10 eq 1", 0, E("no argument 'arg10' (arg0..arg5)") },
	{ "5x", 0, E("bad number '5x' (decimal or 0x hex)") },
	{ "0x", 0, E("bad number '0x' (decimal or 0x hex)") },
	{ "0xg1", 0, E("bad number '0xg1' (decimal or 0x hex)") },
	{ "0x1G", 0, E("bad number '0x1G' (decimal or 0x hex)") },
	{ "010", 0, E("bad number '010' (decimal or 0x hex)") },
	{ "00", 0, E("bad number '00' (decimal or 0x hex)") },
	{ "1_0", 0, E("bad number '1_0' (decimal or 0x hex)") },
	{ "0b101", 0, E("bad number '0b101' (decimal or 0x hex)") },
	{ "99999999999999999999x", 0,
	  E("bad number '99999999999999999999x' (decimal or 0x hex)") },
	{ "18446744073709551616", 0,
	  E("number too big '18446744073709551616' (more than 64 bits)") },
	{ "99999999999999999999", 0,
	  E("number too big '99999999999999999999' (more than 64 bits)") },
	{ "0x10000000000000000", 0,
	  E("number too big '0x10000000000000000' (more than 64 bits)") },
	{ "arg0 = 5", 0, E("'=' alone (write == or eq)") },
	{ "arg0 | arg1", 0, E("unexpected character '|'") },
	{ "arg0 @ 1", 0, E("unexpected character '@'") },
	{ "arg0 \\= 1", 0, E("unexpected character '\\'") },
	{ "arg0 eq 1; arg1", 0, E("unexpected character ';'") },
	{ "\x1b[2J", 0, E("unexpected character '?'") },
	{ "arg0 eq \xc3\xa9", 0, E("unexpected character '?'") },
	{ "\"arg0 ' eq 1\"", 0, E("unexpected character '''") },
	{ "\"arg0 eq 1", 0, E("unmatched quote \"") },
	{ "'arg0 eq 1\" \"", 0, E("unexpected character '\"'") },
	{ "arg0 eq 1'", ITRACE_COND_KDB, E("unmatched quote '") },
	{ "arg0 eq 5)", 0, E("')' without '('") },
	{ "u8[arg1]]", 0, E("']' without '['") },
	{ "(arg0 eq 5", 0, E("'(' without ')'") },
	{ "(u8[arg1] eq 5", 0, E("'(' without ')'") },
	{ "u32[arg1", 0, E("'u32[' without ']'") },
	{ "u64[(arg1)", 0, E("'u64[' without ']'") },
	{ "u32[arg1)", 0, E("')' does not close 'u32['") },
	{ "u16[(arg1]", 0, E("']' does not close '('") },
	{ "u32 arg1", 0, E("expected '[' after 'u32'") },
	{ "u32", 0, E("expected '[' after 'u32'") },
	{ "u32(arg1)", 0, E("expected '[' after 'u32'") },
	{ "u32[", 0, E("expected a value after '['") },
	{ "u32[]", 0, E("expected a value after '[', got ']'") },
	{ "u24[arg1]", 0, E("unknown register 'u24'") },
	{ "arg0 lt 1 lt 2", 0,
	  E("'lt' after a comparison: they do not chain (use and)") },
	{ "arg0 == 1 == 2", 0,
	  E("'==' after a comparison: they do not chain (use and)") },
	{ "arg0 eq 1 & 2 ne 3", 0,
	  E("'ne' after a comparison: they do not chain (use and)") },
	{ "arg0 lt not 1 gt 2", 0,
	  E("'gt' after a comparison: they do not chain (use and)") },
	/* kdb: what its dropped '=' leaves is refused, not misread */
	{ "arg0 < 5", ITRACE_COND_KDB,
	  E("'<' at kdb, which drops the '=' of '<=': write lt or le, or quote the condition") },
	{ "arg0>5", ITRACE_COND_KDB,
	  E("'>' at kdb, which drops the '=' of '>=': write gt or ge, or quote the condition") },
	{ "arg0 ! 5", ITRACE_COND_KDB,
	  E("'!' after a value: kdb drops the '=' of '!=': write ne, or quote the condition") },
};

/* Words given as such: the empty ones kdb makes out of '='. */
static void test_words(void)
{
	static const char *const eq[] = { "arg0", "", "5" };
	static const char *const one[] = { "arg0==5&&u32[arg1+8]!=0" };
	static const char *const many[] = {
		"arg0", "==", "5", "&&", "u32[", "arg1", "+", "8", "]", "!=", "0"
	};
	static const char *const quoted[] = { "\"arg0", "eq", "5\"" };
	static const char *const tabs[] = { "\targ0\teq\n5 " };
	struct itrace_cond a, b;
	char err[160];

	CHECK("an empty word is refused",
	      itrace_cond_compile(&a, &x86, 3, eq, 0, err, sizeof(err)) ==
	      -EINVAL &&
	      !strcmp(err, E("empty word (kdb drops '=': write eq, ne, le, ge, or quote the condition)")));
	CHECK("a failed compile leaves no condition", a.nr == 0);
	CHECK("no words: empty",
	      itrace_cond_compile(&a, &x86, 0, NULL, 0, err, sizeof(err)) ==
	      -EINVAL && !strcmp(err, E("empty")));
	CHECK("one word is the same as many",
	      !itrace_cond_compile(&a, &x86, 1, one, 0, err, sizeof(err)) &&
	      !itrace_cond_compile(&b, &x86, ARRAY_SIZE(many), many, 0, err,
				   sizeof(err)) && itrace_cond_same(&a, &b) && a.nr == 11);
	CHECK("quotes may span words",
	      !itrace_cond_compile(&a, &x86, 3, quoted, 0, err, sizeof(err)) &&
	      !compile("arg0 eq 5", 0, &b, err) && itrace_cond_same(&a, &b));
	CHECK("blanks inside a word separate tokens",
	      !itrace_cond_compile(&a, &x86, 1, tabs, 0, err, sizeof(err)) &&
	      itrace_cond_same(&a, &b));
}

static void test_bad(void)
{
	struct itrace_cond c;
	char err[160], small[16], name[300];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *e = &bad_cases[i];
		int ret = compile(e->cond, e->flags, &c, err);

		snprintf(name, sizeof(name), "cond rejects '%s'%s", e->cond,
			 e->flags ? " at kdb" : "");
		printable(name);
		CHECK(name, ret == -EINVAL && c.nr == 0);
		CHECK_STR(name, err, e->err);
	}
	/* the same words are fine once the flag or the quotes allow them */
	CHECK("debugfs: '<' is fine", !compile("arg0 < 5", 0, &c, err));
	CHECK("kdb: quoted '<' is fine",
	      !compile("\"arg0 < 5\"", ITRACE_COND_KDB, &c, err));
	CHECK("kdb: '<=' (typed as <\\=) is fine",
	      !compile("arg0 <= 5", ITRACE_COND_KDB, &c, err));
	/* a short buffer cuts the message, nothing else */
	CHECK("short error buffer",
	      compile_r("rxx", &x86, 0, &c, small, sizeof(small)) == -EINVAL &&
	      !strcmp(small, "itrace on: cond"));
	CHECK("one-byte error buffer",
	      compile_r("rxx", &x86, 0, &c, small, 1) == -EINVAL && !small[0]);
}

/* The program's bounds: its length, its nesting, the caller's table. */
static void test_limits(void)
{
	struct itrace_cond c;
	struct itrace_cond_regs big = x86;
	char line[1024], err[160], printed[512];
	unsigned int i;
	size_t w;

	/* 32 values and 31 additions: 63 ops; "not" makes 64 */
	w = snprintf(line, sizeof(line), "not arg0");
	for (i = 1; i < 32; i++)
		w += snprintf(line + w, sizeof(line) - w, " + arg0");
	CHECK("64 operations compile", !compile(line, 0, &c, err) &&
	      c.nr == ITRACE_COND_OPS &&
	      itrace_cond_eval(&c, regs, NULL) == 1 &&
	      round_trip(&c, &x86, printed, sizeof(printed)));
	snprintf(line + w, sizeof(line) - w, " + 1");
	CHECK("65 operations do not",
	      compile(line, 0, &c, err) == -EINVAL &&
	      !strcmp(err, E("too long (more than 64 operations)")));
	/* and, or: two ops each (the jump and the join) */
	w = snprintf(line, sizeof(line), "arg0");
	for (i = 1; i < 22; i++)
		w += snprintf(line + w, sizeof(line) - w, " and arg0");
	CHECK("22 values and 21 ands compile (64 ops)",
	      !compile(line, 0, &c, err) && c.nr == 64 &&
	      itrace_cond_eval(&c, regs, NULL) == 1);
	snprintf(line + w, sizeof(line) - w, " or arg0");
	CHECK("one or more does not",
	      compile(line, 0, &c, err) == -EINVAL &&
	      !strcmp(err, E("too long (more than 64 operations)")));
	/* pending operators count too: a long run of not */
	w = 0;
	for (i = 0; i < 63; i++)
		w += snprintf(line + w, sizeof(line) - w, "! ");
	snprintf(line + w, sizeof(line) - w, "arg0");
	CHECK("63 nots and a value compile",
	      !compile(line, 0, &c, err) &&
	      itrace_cond_eval(&c, regs, NULL) == 0);
	snprintf(line + w, sizeof(line) - w, "! arg0");
	CHECK("64 nots and a value do not",
	      compile(line, 0, &c, err) == -EINVAL &&
	      !strcmp(err, E("too long (more than 64 operations)")));
	/* nesting: 8 open at once */
	CHECK("8 '(' nested", !compile("((((((((arg0))))))))", 0, &c, err));
	CHECK("9 '(' nested",
	      compile("(((((((((arg0)))))))))", 0, &c, err) == -EINVAL &&
	      !strcmp(err, E("nested too deep (more than 8 '(' and '[')")));
	CHECK("8 loads nested",
	      !compile("u8[u8[u8[u8[u8[u8[u8[u8[arg1]]]]]]]]", 0, &c, err) &&
	      itrace_cond_eval(&c, regs, &test_mem) == -EFAULT);
	CHECK("9 of '(' and 'u8[' nested",
	      compile("(u8[(u8[(u8[(u8[(arg1)])])])])", 0, &c, err) ==
	      -EINVAL &&
	      !strcmp(err, E("nested too deep (more than 8 '(' and '[')")));
	CHECK("8 nested one after another",
	      !compile("((((((((1)))))))) and (((((((u8[arg1])))))))", 0,
		       &c, err));
	/*
	 * The deepest stack: five values pending at each of five levels,
	 * "arg3 or arg0 and arg0 eq arg0 & arg0 + (...)", and two inside:
	 * 27 values, 63 ops. Inside out it is 1, 0, 1, 0, 1.
	 */
	w = 0;
	for (i = 0; i < 5; i++)
		w += snprintf(line + w, sizeof(line) - w,
			      "arg3 or arg0 and arg0 eq arg0 & arg0 + (");
	w += snprintf(line + w, sizeof(line) - w, "arg0 + arg0");
	for (i = 0; i < 5; i++)
		w += snprintf(line + w, sizeof(line) - w, ")");
	CHECK("deep stack: 27 values pending",
	      !compile(line, 0, &c, err) && c.nr == 63 &&
	      itrace_cond_eval(&c, regs, NULL) == 1 &&
	      round_trip(&c, &x86, printed, sizeof(printed)));
	snprintf(line, sizeof(line), "arg0 or (%s)", printed);
	CHECK("deep stack: one level more is too long",
	      compile(line, 0, &c, err) == -EINVAL &&
	      !strcmp(err, E("too long (more than 64 operations)")));
	/* the caller's register table */
	big.nr = 256;
	CHECK("more than 255 registers",
	      compile_r("1", &big, 0, &c, err, sizeof(err)) == -EINVAL &&
	      !strcmp(err, E("256 registers (more than 255)")));
	big.nr = x86.nr;
	big.arg[5] = 40;
	CHECK("an argument outside the table",
	      compile_r("1", &big, 0, &c, err, sizeof(err)) == -EINVAL &&
	      !strcmp(err, E("arg5 is register 40 of 21")));
}

/*
 * Programs no compile makes: the evaluator refuses what would take it
 * out of bounds, and the check (through print) refuses them all.
 */
static void test_damaged(void)
{
	static const struct {
		const char *name;
		struct itrace_cond_op op[4];
		unsigned int nr;
		bool eval_refuses;
	} d[] = {
		{ "two values left", { { 1, ITRACE_COND_CONST, 10 },
				       { 2, ITRACE_COND_CONST, 10 } }, 2, true },
		{ "an operator without values", { { 0, ITRACE_COND_BAND, 0 } },
		  1, true },
		{ "not without a value", { { 0, ITRACE_COND_NOT, 0 } }, 1, true },
		{ "a jump backward", { { 0, ITRACE_COND_CONST, 10 },
				       { 0, ITRACE_COND_JFALSE, 0 } }, 2, true },
		{ "a jump past the end", { { 0, ITRACE_COND_CONST, 10 },
					   { 0, ITRACE_COND_JFALSE, 9 } }, 2,
		  true },
		{ "a jump with no value", { { 0, ITRACE_COND_JTRUE, 1 },
					    { 0, ITRACE_COND_CONST, 10 } }, 2,
		  true },
		{ "a jump no and claims", { { 1, ITRACE_COND_CONST, 10 },
					    { 0, ITRACE_COND_JFALSE, 2 },
					    { 2, ITRACE_COND_CONST, 10 },
					    { 0, ITRACE_COND_BAND, 0 } }, 4,
		  true },
		{ "an and without its jump", { { 1, ITRACE_COND_CONST, 10 },
					       { 1, ITRACE_COND_CONST, 10 },
					       { 0, ITRACE_COND_LAND, 0 } }, 3,
		  true },
		{ "an or with the and's jump", { { 0, ITRACE_COND_CONST, 10 },
						 { 0, ITRACE_COND_JFALSE, 3 },
						 { 1, ITRACE_COND_CONST, 10 },
						 { 0, ITRACE_COND_LOR, 0 } },
		  4, false },
		{ "code 0", { { 0, ITRACE_COND_NONE, 0 } }, 1, true },
		{ "code out of range", { { 0, 200, 0 } }, 1, true },
		{ "code out of range after a value",
		  { { 0, ITRACE_COND_CONST, 10 }, { 0, 200, 0 } }, 2, true },
		{ "a 3-byte load", { { MEM_BASE, ITRACE_COND_CONST, 10 },
				     { 0, ITRACE_COND_LOAD, 3 } }, 2, true },
		{ "register 21 of 21", { { 0, ITRACE_COND_REG, 21 } }, 1, true },
		{ "arg0 as another register", { { 0, ITRACE_COND_ARG, RSI } },
		  1, false },
		{ "base 8", { { 8, ITRACE_COND_CONST, 8 } }, 1, false },
	};
	struct itrace_cond c;
	char name[160], printed[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(d); i++) {
		memset(&c, 0, sizeof(c));
		memcpy(c.op, d[i].op, sizeof(d[i].op));
		c.nr = d[i].nr;
		c.nregs = x86.nr;
		if (d[i].eval_refuses) {
			snprintf(name, sizeof(name), "eval refuses %s",
				 d[i].name);
			CHECK(name, itrace_cond_eval(&c, regs, &test_mem) ==
			      -EINVAL);
		}
		snprintf(name, sizeof(name), "print refuses %s", d[i].name);
		itrace_cond_print(&c, &x86, printed, sizeof(printed));
		CHECK_STR(name, printed, "(not a compiled condition)");
	}
	memset(&c, 0, sizeof(c));
	for (i = 0; i < ITRACE_COND_OPS; i++)
		c.op[i].code = ITRACE_COND_CONST;
	c.nr = ITRACE_COND_OPS;
	CHECK("eval refuses 64 values (its stack holds 32)",
	      itrace_cond_eval(&c, regs, &test_mem) == -EINVAL);
	c.nr = ITRACE_COND_OPS + 1;
	CHECK("eval refuses more than 64 ops",
	      itrace_cond_eval(&c, regs, &test_mem) == -EINVAL);
	itrace_cond_print(&c, &x86, printed, sizeof(printed));
	CHECK_STR("print refuses more than 64 ops", printed,
		  "(not a compiled condition)");
	CHECK("a compiled program knows its registers",
	      !compile("rsp", 0, &c, err_buf) && c.nregs == x86.nr);
	c.nregs = RSP;
	CHECK("eval refuses a register past nregs",
	      itrace_cond_eval(&c, regs, NULL) == -EINVAL);
}

/*
 * cond.h's table: each kdb spelling, split as kdb_parse() splits it,
 * compiles to the program of the debugfs spelling; @both: the kdb
 * spelling works from debugfs too.
 */
static const struct {
	const char *kdb, *debugfs;
	bool both;
} spellings[] = {
	{ "arg0 eq 5", "arg0 == 5", true },
	{ "arg0 ne 5", "arg0 != 5", true },
	{ "arg0 lt 5", "arg0 < 5", true },
	{ "arg0 le 5", "arg0 <= 5", true },
	{ "arg0 gt 5", "arg0 > 5", true },
	{ "arg0 ge 5", "arg0 >= 5", true },
	{ "arg0 and arg1", "arg0 && arg1", true },
	{ "arg0 && arg1", "arg0&&arg1", true },
	{ "arg0 or arg1", "arg0 || arg1", true },
	{ "arg0||arg1", "arg0 || arg1", true },	/* '|' inside a word */
	{ "not arg0", "!arg0", true },
	{ "!arg0", "! arg0", true },
	{ "arg0 & 4", "arg0&4", true },
	{ "u32[arg1 + 8] - 1", "u32[arg1+8]-1", true },
	{ "\"arg0 <= 5 || arg1 == 0\"", "arg0 <= 5 || arg1 == 0", true },
	{ "'arg0 != 5'", "arg0 != 5", true },
	{ "arg0 \"<=\" 5", "arg0 <= 5", true },
	{ "arg0 <\\= 5", "arg0 <= 5", false },	/* kdb drops the '\' */
	/* cond.h's examples */
	{ "arg0 eq 5 and u32[arg1 + 8] ne 0", "arg0 == 5 && u32[arg1+8] != 0",
	  true },
	{ "\"arg0 >= 0x10 || not u8[arg1]\"", "arg0>=0x10||!u8[arg1]", true },
	{ "arg0 ge 16 and u64[rsp] ne 0", "arg0>=16&&u64[rsp]!=0", true },
};

/* What kdb makes of the C spellings: refused, never misread. */
static const struct {
	const char *typed;
	const char *err;
} mangled[] = {
	{ "arg0 == 5", E("empty word (kdb drops '=': write eq, ne, le, ge, or quote the condition)") },
	{ "arg0==5", E("empty word (kdb drops '=': write eq, ne, le, ge, or quote the condition)") },
	{ "arg0 = 5", E("empty word (kdb drops '=': write eq, ne, le, ge, or quote the condition)") },
	{ "arg0=5", E("expected an operator after 'arg0', got '5'") },
	{ "arg0 != 5", E("'!' after a value: kdb drops the '=' of '!=': write ne, or quote the condition") },
	{ "arg0!=5", E("'!' after a value: kdb drops the '=' of '!=': write ne, or quote the condition") },
	{ "arg0 <= 5", E("'<' at kdb, which drops the '=' of '<=': write lt or le, or quote the condition") },
	{ "arg0<=5", E("'<' at kdb, which drops the '=' of '<=': write lt or le, or quote the condition") },
	{ "arg0 >= 5", E("'>' at kdb, which drops the '=' of '>=': write gt or ge, or quote the condition") },
	{ "arg0 < 5", E("'<' at kdb, which drops the '=' of '<=': write lt or le, or quote the condition") },
};

static void test_kdb(void)
{
	struct itrace_cond k, d;
	char err[160], err2[160], name[300], line[256], cbuf[KDB_CMD_BUFLEN + 2];
	const char *argv[KDB_MAXARGC];
	unsigned int i;
	bool grep;
	int argc;

	/* the model itself, on what the header says kdb does */
	argc = kdb_words("a==5 b <= 6 \"c d=\" e\\=f |grep x", cbuf, argv,
			 &grep);
	CHECK("kdb model: words", argc == 8 && grep &&
	      !strcmp(argv[0], "a") && !strcmp(argv[1], "") &&
	      !strcmp(argv[2], "5") && !strcmp(argv[3], "b") &&
	      !strcmp(argv[4], "<") && !strcmp(argv[5], "6") &&
	      !strcmp(argv[6], "\"c d=\"") && !strcmp(argv[7], "e=f"));
	argc = kdb_words("'g\"h' x", cbuf, argv, &grep);
	CHECK("kdb model: a \" inside '...' becomes the quote that is open",
	      argc == 1 && !strcmp(argv[0], "'g\"h' x"));
	argc = kdb_words("a # b", cbuf, argv, &grep);
	CHECK("kdb model: '#' starts a comment", argc == 1 && !grep);
	argc = kdb_words("a\xa0" "b", cbuf, argv, &grep);
	CHECK("kdb model: 0xa0 is a blank", argc == 2);

	for (i = 0; i < ARRAY_SIZE(spellings); i++) {
		snprintf(name, sizeof(name), "kdb '%s' is debugfs '%s'",
			 spellings[i].kdb, spellings[i].debugfs);
		CHECK(name, !compile_kdb(spellings[i].kdb, &k, err, &grep) &&
		      !grep && !compile(spellings[i].debugfs, 0, &d, err2) &&
		      itrace_cond_same(&k, &d));
		if (err[0] || err2[0])
			printf("    %s / %s\n", err, err2);
		if (!spellings[i].both)
			continue;
		snprintf(name, sizeof(name), "kdb spelling '%s' works from debugfs",
			 spellings[i].kdb);
		CHECK(name, !compile(spellings[i].kdb, 0, &d, err) &&
		      itrace_cond_same(&k, &d));
	}
	for (i = 0; i < ARRAY_SIZE(mangled); i++) {
		snprintf(name, sizeof(name), "kdb refuses '%s'",
			 mangled[i].typed);
		CHECK(name, compile_kdb(mangled[i].typed, &k, err, &grep) ==
		      -EINVAL);
		CHECK_STR(name, err, mangled[i].err);
	}
	/* || as a word: kdb never passes the rest (cond.h says so) */
	CHECK("kdb: '||' as a word cuts the condition (kdb greps)",
	      !compile_kdb("arg0 eq 1 || arg1 eq 2", &k, err, &grep) && grep &&
	      !compile("arg0 eq 1", 0, &d, err) && itrace_cond_same(&k, &d));
	/* room: 19 words, 200 bytes */
	CHECK("kdb: 13 words after 'if'",
	      !compile_kdb("arg0 eq 1 and arg1 eq 2 and arg2 eq 3 and 1",
			   &k, err, &grep));
	CHECK("kdb: 14 words are too many for kdb",
	      compile_kdb("arg0 eq 1 and arg1 eq 2 and arg2 eq 3 and 1 1",
			  &k, err, &grep) == -2);
	memset(line, 0, sizeof(line));
	memset(line, '1', 152);
	line[0] = '"';
	line[151] = '"';
	CHECK("kdb: a long quoted condition is one word",
	      compile_kdb(line, &k, err, &grep) == -EINVAL &&
	      !strncmp(err, E("number too big"), strlen(E("number too big"))));
	memset(line, '1', 200);
	CHECK("kdb: past 200 bytes kdb ignores the line",
	      compile_kdb(line, &k, err, &grep) == -2);
}

int main(void)
{
	setup();
	test_eval();
	test_registers();
	test_print();
	test_words();
	test_bad();
	test_limits();
	test_damaged();
	test_kdb();
	return check_failed ? 1 : 0;
}
