// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the xmon front-end's numbers-to-words step: each entry
 * point's numbers give the exact command line a kdb user would type, the
 * parser accepts it (or refuses it with its own words: a pid is its
 * business), and a number with no meaning gets one exact line.
 */
#include "check.h"
#include "lib/kind.h"
#include "lib/parse.h"
#include "lib/xmon_words.h"

struct line_case {
	enum itrace_xmon_op op;
	unsigned long a[ITRACE_XMON_ARGS];
	const char *line;	/* itrace_xmon_line() */
	int parses;		/* the parser takes it */
};

static const struct line_case lines[] = {
	{ ITRACE_XMON_ON, { 0x2a }, "itrace on 42 insn", 1 },
	{ ITRACE_XMON_ON, { 0x2a, 1 }, "itrace on 42 block", 1 },
	{ ITRACE_XMON_ON, { 0x2a, 0, 7 }, "itrace on 42 insn threads follow follow-exec", 1 },
	{ ITRACE_XMON_ON, { 0x2a, 1, 2 }, "itrace on 42 block follow", 1 },
	{ ITRACE_XMON_ON, { 0x2a, 0, 0, 0x30 }, "itrace on 42 insn kinds call,ret", 1 },
	{ ITRACE_XMON_ON, { 0x2a, 1, 1, 0x1fff },
	  "itrace on 42 block threads kinds insn,jcc-nt,jcc,jmp,call,ret,icall,ijmp,syscall,int,iret,far,async", 1 },
	{ ITRACE_XMON_ON, { 0 }, "itrace on 0 insn", 0 },
	{ ITRACE_XMON_ON, { 0x100000000UL }, "itrace on 4294967296 insn", 0 },
	{ ITRACE_XMON_OFF, { 0x2a }, "itrace off 42", 1 },
	{ ITRACE_XMON_OFF, { 0 }, "itrace off all", 1 },
	{ ITRACE_XMON_LOG, { 0 }, "itrace log", 1 },
	{ ITRACE_XMON_LOG, { 0x2a, 0x10, 1 }, "itrace log -r -n 16 42", 1 },
	{ ITRACE_XMON_LOG, { 0x2a, 0x10, 2 }, "itrace log -i -n 16 42", 1 },
	{ ITRACE_XMON_LOG, { 0, 0xffffffffUL }, "itrace log -n 0", 1 },
	{ ITRACE_XMON_LOG, { 0, 0xffffffffffffffffUL, 1 }, "itrace log -r -n 0", 1 },
	{ ITRACE_XMON_LOG, { 0, 0x12345678 }, "itrace log -n 305419896", 1 },
	{ ITRACE_XMON_LOG, { 0, 0x80000000UL }, "itrace log -n 2147483648", 0 },
	{ ITRACE_XMON_CALLS, { 0 }, "itrace calls", 1 },
	{ ITRACE_XMON_CALLS, { 0x2a, 0xffffffffUL }, "itrace calls -n 0 42", 1 },
	{ ITRACE_XMON_CALLS, { 0x2a, 0x14 }, "itrace calls -n 20 42", 1 },
	{ ITRACE_XMON_TOP, { 0 }, "itrace top", 1 },
	{ ITRACE_XMON_TOP, { 0x2a, 0xffffffffUL }, "itrace top -n 0 42", 1 },
	{ ITRACE_XMON_TOP, { 0, 0x3 }, "itrace top -n 3", 1 },
	{ ITRACE_XMON_STACK, { 0x2a }, "itrace stack 42", 1 },
	{ ITRACE_XMON_STACK, { 0 }, "itrace stack", 0 },
	{ ITRACE_XMON_REGS, { 0x2a }, "itrace regs 42", 1 },
	{ ITRACE_XMON_REGS, { 0 }, "itrace regs", 0 },
	{ ITRACE_XMON_STATUS, { 0 }, "itrace status", 1 },
	{ ITRACE_XMON_CLEAR, { 0 }, "itrace clear", 1 },
	{ ITRACE_XMON_HELP, { 0 }, "itrace help", 1 },
};

struct bad_case {
	enum itrace_xmon_op op;
	unsigned long a[ITRACE_XMON_ARGS];
	const char *err;
};

static const struct bad_case bads[] = {
	{ ITRACE_XMON_ON, { 0x2a, 2 }, "itrace: mode 0x2: 0 (insn) or 1 (block)" },
	{ ITRACE_XMON_ON, { 0x2a, 0, 8 },
	  "itrace: flags 0x8: bits 1 threads, 2 follow, 4 follow-exec" },
	{ ITRACE_XMON_ON, { 0x2a, 0, 0, 0x2000 },
	  "itrace: kinds 0x2000: bits up to 0x1fff (itrace_xmon_help)" },
	{ ITRACE_XMON_LOG, { 0x2a, 0, 3 }, "itrace: raw 0x3: 0, 1 (-r) or 2 (-i)" },
};

int main(void)
{
	struct itrace_xmon_words w;
	struct itrace_cmd cmd;
	char err[128], perr[128], line[300], name[400];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		const struct line_case *c = &lines[i];
		int ret = itrace_xmon_words(c->op, c->a, &w, err, sizeof(err));

		snprintf(name, sizeof(name), "xmon words: '%s'", c->line);
		CHECK(name, !ret && !err[0]);
		itrace_xmon_line(&w, line, sizeof(line));
		CHECK_STR(name, line, c->line);
		snprintf(name, sizeof(name), "xmon words: the parser %s '%s'",
			 c->parses ? "takes" : "refuses", c->line);
		ret = itrace_parse(w.argc, w.argv, &cmd, perr, sizeof(perr));
		CHECK(name, (ret == 0) == c->parses);
	}
	for (i = 0; i < ARRAY_SIZE(bads); i++) {
		const struct bad_case *c = &bads[i];
		int ret = itrace_xmon_words(c->op, c->a, &w, err, sizeof(err));

		snprintf(name, sizeof(name), "xmon words refuse: '%s'", c->err);
		CHECK(name, ret == -EINVAL);
		CHECK_STR(name, err, c->err);
	}
	/* the help's kind bits are kind.h's */
	CHECK("xmon help: kinds 1000 is async",
	      !strcmp(itrace_kind_name(12), "async") && ITRACE_K_NR == 13);
	return check_failed ? 1 : 0;
}
