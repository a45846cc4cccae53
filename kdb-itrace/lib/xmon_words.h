/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The xmon front-end's numbers as words of the itrace language. xmon's
 * `p` passes up to eight hex numbers and nothing else; each entry point
 * (xmon.c) hands its numbers here and runs the words it gets back
 * through the one executor, so its refusals and messages are the kdb
 * and debugfs ones. Pure C (no allocation, no locks): host-tested, and
 * safe inside xmon.
 */
#ifndef _ITRACE_XMON_WORDS_H
#define _ITRACE_XMON_WORDS_H

#include "compat.h"

enum itrace_xmon_op {
	ITRACE_XMON_ON,		/* pid, mode, flags, kinds */
	ITRACE_XMON_OFF,	/* pid (0: all) */
	ITRACE_XMON_LOG,	/* pid (0: all), count, raw */
	ITRACE_XMON_CALLS,	/* pid (0: the log's one thread), count */
	ITRACE_XMON_STACK,	/* pid */
	ITRACE_XMON_REGS,	/* pid */
	ITRACE_XMON_STATUS,
	ITRACE_XMON_CLEAR,
	ITRACE_XMON_HELP,
	ITRACE_XMON_TOP,	/* pid (0: every task), count */
};

/*
 * `on` numbers: mode 0 insn, 1 block; flags the parser's ITRACE_F_*
 * bits, which the xmon help promises as 1 threads, 2 follow, 4
 * follow-exec (xmon_words.c holds them to that)
 */
#define ITRACE_XMON_FLAGS	0x7
/* `log`/`calls`/`top` count meaning every line (the language's -n 0) */
#define ITRACE_XMON_ALL		0xffffffffUL

#define ITRACE_XMON_ARGS	4
#define ITRACE_XMON_WORDS	10

struct itrace_xmon_words {
	const char *argv[ITRACE_XMON_WORDS];
	int argc;
	char buf[200];		/* the words, NUL-separated */
	size_t len;
};

/*
 * Fill @w with the words of @op given xmon's numbers @a (missing ones
 * are 0, as `p` passes them). 0, or -EINVAL with a one-line reason in
 * @err when a number has no meaning (a pid is left to the parser).
 */
int itrace_xmon_words(enum itrace_xmon_op op,
		      const unsigned long a[ITRACE_XMON_ARGS],
		      struct itrace_xmon_words *w, char *err, size_t errlen);

/* The words joined by blanks, as a kdb or debugfs user would type them. */
void itrace_xmon_line(const struct itrace_xmon_words *w, char *buf,
		      size_t len);

/* The calling conventions, one line each; NULL-terminated. */
extern const char *const itrace_xmon_help_lines[];

#endif /* _ITRACE_XMON_WORDS_H */
