// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the `if <condition>` compiler and evaluator
 * (kdb-itrace/lib/cond.c). The input is a control byte (bit 0: the words
 * come from kdb, ITRACE_COND_KDB; the rest seeds the register values and
 * which addresses fault), then the words after `if`, separated by NUL
 * bytes as in fuzz_parse.c. Words, the error buffer and the print buffer
 * are exactly-sized heap blocks, so ASan sees any overrun.
 * Checked: a compile fails with one printable line that starts with the
 * prefix and only gets cut, never changed, by a shorter buffer, and
 * leaves no program; the words joined into one word compile the same;
 * a program is at most ITRACE_COND_OPS long, evaluates to 1, 0 or
 * -EFAULT (never -EINVAL), calls the load callback at most once per
 * load op and never after a fault, and the same twice; its print is
 * plain kdb words (nothing kdb_parse() treats specially) that compile,
 * split at blanks with ITRACE_COND_KDB, to the same program.
 */
#include "fuzz.h"
#include "lib/cond.h"

#define ERRLEN		128	/* what the command parser hands in */
#define PRINTLEN	4096	/* far more than 64 ops can print */
#define PREFIX		"itrace on: condition: "

static const char *const names[] = {
	"rip", "rsp", "rbp", "eflags", "rax", "rbx", "rcx", "rdx",
	"rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13",
	"r14", "r15", "orig_rax", "cs", "ss",
};

static const struct itrace_cond_regs x86 = {
	.names = names,
	.nr = ARRAY_SIZE(names),
	.arg = { 9, 8, 7, 6, 10, 11 },
};

struct loader {
	u64 seed;
	unsigned int calls;
	bool faulted;
};

/* Faults on about one address in seven; values with high bits set. */
static int fuzz_load(void *ctx, u64 addr, unsigned int size, u64 *val)
{
	struct loader *l = ctx;

	FUZZ_ASSERT(size == 1 || size == 2 || size == 4 || size == 8);
	FUZZ_ASSERT(!l->faulted);
	l->calls++;
	if ((addr ^ l->seed) % 7 == 0) {
		l->faulted = true;
		return -EFAULT;
	}
	*val = (addr + size) * 0x9e3779b97f4a7c15ULL;
	return 0;
}

static void fill_regs(u64 *regs, u8 ctl)
{
	static const u64 odd[] = {
		0, 1, 5, 0x1000, ~0ULL, 0x8000000000000000ULL, 0x7f,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		regs[i] = (ctl >> 1) & 1 ? odd[(i + ctl) % ARRAY_SIZE(odd)] :
			  (i + 1) * 0x100 + (ctl >> 2);
}

static unsigned int count_loads(const struct itrace_cond *c)
{
	unsigned int i, n = 0;

	for (i = 0; i < c->nr; i++)
		n += c->op[i].code == ITRACE_COND_LOAD;
	return n;
}

static int eval(const struct itrace_cond *c, const u64 *regs, u8 ctl)
{
	struct loader l = { .seed = ctl };
	struct itrace_cond_mem mem = { .load = fuzz_load, .ctx = &l };
	int ret = itrace_cond_eval(c, regs, &mem);

	FUZZ_ASSERT(ret == 0 || ret == 1 || ret == -EFAULT);
	FUZZ_ASSERT(l.calls <= count_loads(c));
	FUZZ_ASSERT((ret == -EFAULT) == l.faulted);
	return ret;
}

static void check_err(const char *err, size_t errlen)
{
	size_t n = strnlen(err, errlen), i;

	FUZZ_ASSERT(n > 0 && n < errlen);
	FUZZ_ASSERT(!strncmp(err, PREFIX, n < strlen(PREFIX) ? n :
			     strlen(PREFIX)));
	for (i = 0; i < n; i++)
		FUZZ_ASSERT(err[i] >= 0x20 && err[i] < 0x7f);
}

/* print, split at blanks, compile as from kdb: the same program. */
static void check_print(const struct itrace_cond *c, const u64 *regs,
			u8 ctl, int want)
{
	char *buf = (char *)fuzz_alloc(PRINTLEN);
	char *cut = (char *)fuzz_alloc(1 + ctl % 32);
	const char *argv[ITRACE_COND_OPS * 2];
	char err[ERRLEN], *p;
	struct itrace_cond back;
	int argc = 0;
	size_t n;

	itrace_cond_print(c, &x86, buf, PRINTLEN);
	n = strlen(buf);
	FUZZ_ASSERT(n > 0 && n < PRINTLEN - 1);
	FUZZ_ASSERT(!strpbrk(buf, "=|#\\'\"\t\n"));
	itrace_cond_print(c, &x86, cut, 1 + ctl % 32);
	FUZZ_ASSERT(!strncmp(cut, buf, ctl % 32) &&
		    strlen(cut) == (n < ctl % 32 ? n : ctl % 32));
	for (p = strtok(buf, " "); p; p = strtok(NULL, " ")) {
		FUZZ_ASSERT(argc < (int)ARRAY_SIZE(argv));
		argv[argc++] = p;
	}
	FUZZ_ASSERT(!itrace_cond_compile(&back, &x86, argc, argv,
					 ITRACE_COND_KDB, err, sizeof(err)));
	FUZZ_ASSERT(itrace_cond_same(c, &back));
	FUZZ_ASSERT(eval(&back, regs, ctl) == want);
	free(cut);
	free(buf);
}

/* No word is empty: the same words joined by blanks, as one word. */
static void check_one_word(const struct fuzz_words *w, unsigned int flags,
			   int ret, const struct itrace_cond *c,
			   const char *err)
{
	struct itrace_cond c1;
	char err1[ERRLEN], *one;
	const char *argv[1];
	size_t len = 0, at = 0;
	int i;

	for (i = 0; i < w->argc; i++) {
		if (!w->argv[i][0])
			return;
		len += strlen(w->argv[i]) + 1;
	}
	one = (char *)fuzz_alloc(len + 1);
	for (i = 0; i < w->argc; i++)
		at += sprintf(one + at, "%s%s", i ? " " : "", w->argv[i]);
	argv[0] = one;
	FUZZ_ASSERT(itrace_cond_compile(&c1, &x86, w->argc ? 1 : 0, argv,
					flags, err1, sizeof(err1)) == ret);
	FUZZ_ASSERT(itrace_cond_same(c, &c1) && !strcmp(err, err1));
	free(one);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 ctl = size ? data[0] : 0;
	unsigned int flags = ctl & 1 ? ITRACE_COND_KDB : 0;
	size_t errlen2 = 1 + ctl % 64;
	u64 regs[ARRAY_SIZE(names)];
	struct itrace_cond c, c2;
	char *err, *err2;
	struct fuzz_words w;
	int ret, ret2, v;

	fuzz_split(size ? data + 1 : data, size ? size - 1 : 0, &w);
	err = (char *)fuzz_alloc(ERRLEN);
	err2 = (char *)fuzz_alloc(errlen2);

	ret = itrace_cond_compile(&c, &x86, w.argc,
				  (const char *const *)w.argv, flags, err,
				  ERRLEN);
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL);
	if (ret == 0) {
		FUZZ_ASSERT(!err[0]);
		FUZZ_ASSERT(c.nr >= 1 && c.nr <= ITRACE_COND_OPS);
		fill_regs(regs, ctl);
		v = eval(&c, regs, ctl);
		FUZZ_ASSERT(eval(&c, regs, ctl) == v);
		FUZZ_ASSERT(v != -EFAULT || count_loads(&c));
		check_print(&c, regs, ctl, v);
		fill_regs(regs, ctl ^ 2);
		eval(&c, regs, ctl >> 1);
	} else {
		FUZZ_ASSERT(c.nr == 0);
		check_err(err, ERRLEN);
	}

	/* A short buffer cuts the message and changes nothing else. */
	ret2 = itrace_cond_compile(&c2, &x86, w.argc,
				   (const char *const *)w.argv, flags, err2,
				   errlen2);
	FUZZ_ASSERT(ret2 == ret && itrace_cond_same(&c, &c2));
	FUZZ_ASSERT(strlen(err2) == strnlen(err, errlen2 - 1));
	FUZZ_ASSERT(!strncmp(err2, err, errlen2 - 1));

	check_one_word(&w, flags, ret, &c, err);

	free(err2);
	free(err);
	fuzz_free_words(&w);
	return 0;
}
