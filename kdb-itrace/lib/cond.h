/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The condition of `itrace on <pid> func <symbol> if <condition>`.
 *
 * Compiled once, when the command is parsed (from debugfs in process
 * context, from kdb with every other CPU stopped: no allocation, no
 * sleeping, no locks), into a fixed-size postfix program in a struct the
 * caller embeds. Evaluated at each entry of the function, in the trap or
 * uprobe handler, IRQs perhaps off: no allocation, no locks, run time
 * bounded by the program's length (jumps only go forward), user memory
 * read only through the caller's load callback. Register names come from
 * the caller (the arch), so nothing here knows an arch. Pure C, shared
 * with host tests and a libFuzzer target.
 *
 * The language, loosest binding first:
 *   or  ||              either; the right side runs only if the left is 0
 *   and &&              both; the right side runs only if the left is not 0
 *   eq ne lt le gt ge   == != < <= > >=: 1 or 0, UNSIGNED 64-bit
 *                       (0xffffffffffffffff is not less than 0); they do
 *                       not chain: "a lt b lt c" is refused
 *   &                   bitwise and; binds tighter than the comparisons,
 *                       unlike C: "arg2 & 4 ne 0" is (arg2 & 4) ne 0
 *   + -                 64-bit, wrapping: "u32[arg0 + 8]"
 *   not !               1 if zero, else 0
 *   values              arg0..arg5 (the ABI's argument registers), the
 *                       arch's register names (x86-64: rdi rsp ...,
 *                       POWER: r3 lr ...), decimal or 0x hex constants up
 *                       to 64 bits (no octal: 010 is refused),
 *                       u8[x] u16[x] u32[x] u64[x]: the 1, 2, 4 or 8
 *                       bytes of user memory at address x, as the CPU
 *                       reads them (a fault makes the whole condition
 *                       false, and is reported for the caller to count),
 *                       and ( ). Binary operators group left to right.
 * Case matters. The condition is every word after `if`, as if joined by
 * blanks, so blanks between tokens are optional; quotes, ' or ", group
 * without meaning (they must pair up) and a token may not span them.
 *
 * Typing it. kdb splits its line in kdb_parse() (kernel/debug/kdb/
 * kdb_main.c, 6.1 and 6.12 alike): an unquoted '=' ends a word and is
 * dropped ("arg0 == 5" arrives as arg0 "" "" 5, "arg0 <= 5" as arg0 < 5);
 * a word that starts with '|' makes the rest of the line a grep pattern
 * that never reaches the command ("arg0 eq 1 || arg1 eq 2" runs as
 * "arg0 eq 1", after kdb's "invalid 'pipe'"); a word that starts with
 * '#' is a comment; quotes group blanks and '=' into a word and stay in
 * it; a backslash keeps the next character and goes. debugfs splits its
 * line at blanks only. Hence:
 *
 *                      kdb                     debugfs
 *   comparisons        eq ne lt le gt ge       the same, == != < <= > >=
 *   logic              and or not && !         the same, ||
 *   bitwise, sums      & + -                   & + -
 *   quoted             "arg0 <= 5 || arg1"     quotes are skipped: the
 *                      'arg0 != 5'             same works (in any words)
 *
 *   kdb:     itrace on 42 func target if arg0 eq 5 and u32[arg1 + 8] ne 0
 *   kdb:     itrace on 42 func target if "arg0 >= 0x10 || not u8[arg1]"
 *   debugfs: echo 'on 42 func target if arg0>=16&&u64[rsp]!=0' >control
 *
 * From kdb the caller passes ITRACE_COND_KDB: an unquoted < or > is
 * then refused (kdb may have dropped the '=' of <= or >=), and so, from
 * anywhere, is an empty word (a dropped '='). A '||' word at kdb cannot
 * be caught: its words never arrive; `status` shows what was compiled.
 * Room: kdb takes 200 characters and 19 words a line, 6 of them
 * "itrace on 42 func target if"; debugfs 16 words after "itrace", 5 of
 * them "on 42 func target if". Quoting the condition (kdb) or leaving
 * out blanks makes it fewer words.
 */
#ifndef _ITRACE_COND_H
#define _ITRACE_COND_H

#include "compat.h"

#define ITRACE_COND_OPS		64	/* most operations in a program */
#define ITRACE_COND_NEST	8	/* most ( and [ open at once */
#define ITRACE_COND_ARGS	6	/* arg0..arg5 */
#define ITRACE_COND_REGS	255	/* most register names */
/* Most values pending while it runs: each binary operation takes two. */
#define ITRACE_COND_STACK	(ITRACE_COND_OPS / 2)

/* compile: the words come from kdb_parse() (see above) */
#define ITRACE_COND_KDB		0x1

/* The caller's registers: names as typed, values in the same order. */
struct itrace_cond_regs {
	const char *const *names;
	unsigned int nr;			/* <= ITRACE_COND_REGS */
	unsigned char arg[ITRACE_COND_ARGS];	/* index of arg0..arg5 */
};

/*
 * Program operations. Leaves push a value, the others take theirs from
 * the stack; a && b is a, JFALSE, b, LAND and a || b is a, JTRUE, b, LOR:
 * the jump skips b and leaves a for LAND/LOR to turn into 1 or 0.
 */
enum itrace_cond_code {
	ITRACE_COND_NONE,	/* 0: never in a program */
	ITRACE_COND_CONST,	/* imm; arg: 10 or 16, the base typed */
	ITRACE_COND_REG,	/* regs[arg] */
	ITRACE_COND_ARG,	/* regs[arg], typed as arg<imm> */
	ITRACE_COND_LOAD,	/* arg bytes at the address on top */
	ITRACE_COND_NOT,
	ITRACE_COND_EQ,
	ITRACE_COND_NE,
	ITRACE_COND_LT,
	ITRACE_COND_LE,
	ITRACE_COND_GT,
	ITRACE_COND_GE,
	ITRACE_COND_BAND,
	ITRACE_COND_ADD,
	ITRACE_COND_SUB,
	ITRACE_COND_JFALSE,	/* top 0: go to op arg, else drop it */
	ITRACE_COND_JTRUE,	/* top not 0: go to op arg, else drop it */
	ITRACE_COND_LAND,	/* top = top != 0 */
	ITRACE_COND_LOR,	/* top = top != 0 */
	ITRACE_COND_NR_CODES
};

struct itrace_cond_op {
	u64 imm;
	u8 code;		/* enum itrace_cond_code */
	u8 arg;
};

/* All zero (nr 0) is no condition: always true. */
struct itrace_cond {
	struct itrace_cond_op op[ITRACE_COND_OPS];
	unsigned int nr;
	unsigned int nregs;	/* the registers it was compiled with */
};

/*
 * Compile the words @argv into @c, register names from @r; @flags
 * ITRACE_COND_KDB or 0. Returns 0, or -EINVAL with @c cleared and one
 * line (no newline, printable ASCII) naming the problem in @err, e.g.
 * "itrace on: condition: unknown register 'rxx'". @errlen >= 1.
 */
int itrace_cond_compile(struct itrace_cond *c,
			const struct itrace_cond_regs *r, int argc,
			const char *const *argv, unsigned int flags,
			char *err, size_t errlen);

/* How the evaluator reads user memory. */
struct itrace_cond_mem {
	/* @size bytes at @addr into *@val (zero-extended): 0 or -EFAULT */
	int (*load)(void *ctx, u64 addr, unsigned int size, u64 *val);
	void *ctx;
};

/*
 * Run @c on @regs (c->nregs values, in the order of the names it was
 * compiled with): 1 true, 0 false, -EFAULT a load failed (the condition
 * is false; count it), -EINVAL @c is not a compiled program (false).
 * Each load op calls @mem->load at most once, and none after a fault.
 */
int itrace_cond_eval(const struct itrace_cond *c, const u64 *regs,
		     const struct itrace_cond_mem *mem);

/*
 * The inverse, for `status`: @c in canonical kdb words that compile
 * back to the same program ("arg0 eq 5 and u32[arg1 + 8] ne 0"), "-" for
 * no condition; cut to @len.
 */
void itrace_cond_print(const struct itrace_cond *c,
		       const struct itrace_cond_regs *r, char *buf,
		       size_t len);

/* Do @a and @b run the same operations (whatever their unused tails)? */
static inline bool itrace_cond_same(const struct itrace_cond *a,
				    const struct itrace_cond *b)
{
	unsigned int i;

	if (a->nr != b->nr || a->nr > ITRACE_COND_OPS)
		return false;
	for (i = 0; i < a->nr; i++)
		if (a->op[i].code != b->op[i].code ||
		    a->op[i].arg != b->op[i].arg ||
		    a->op[i].imm != b->op[i].imm)
			return false;
	return true;
}

#endif /* _ITRACE_COND_H */
