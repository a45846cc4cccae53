/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `itrace` command language, parsed into a struct the executor runs
 * for the kdb command and the debugfs control file alike. Syntax only:
 * whether a pid exists is the executor's business. Pure C, shared with
 * host tests.
 */
#ifndef _ITRACE_PARSE_H
#define _ITRACE_PARSE_H

#include "compat.h"

enum itrace_op {
	ITRACE_OP_HELP,
	ITRACE_OP_STATUS,
	ITRACE_OP_ON,
	ITRACE_OP_OFF,
	ITRACE_OP_LOG,
	ITRACE_OP_CLEAR,
	ITRACE_OP_CALLS,
	ITRACE_OP_STACK,
	ITRACE_OP_REGS,
};

enum itrace_mode {
	ITRACE_MODE_INSN,
	ITRACE_MODE_BLOCK,
};

/* `itrace log` shows this many records unless -n says otherwise. */
#define ITRACE_LOG_DEFAULT_N	100

/* Largest pid the parser accepts (the kernel's PID_MAX_LIMIT). */
#define ITRACE_PID_MAX		(4 * 1024 * 1024)

/* `on` options, kept per traced task and inherited by followed tasks */
#define ITRACE_F_THREADS	0x1	/* every thread of the process */
#define ITRACE_F_FOLLOW		0x2	/* forked children too */
#define ITRACE_F_EXEC		0x4	/* keep tracing across exec */

struct itrace_cmd {
	enum itrace_op op;
	int pid;		/* 0 = every task (log, calls, off all) */
	enum itrace_mode mode;	/* on */
	u32 flags;		/* on: ITRACE_F_* */
	u32 kinds;		/* on: bit per enum itrace_kind to record */
	u32 count;		/* log, calls: last N lines, 0 = all */
	bool raw;		/* log -r */
};

/*
 * Parse the arguments after the command name. Returns 0, or -1 with a
 * one-line message (no newline) naming the problem in @err; bytes of the
 * quoted word that are not printable ASCII show as '?'. @errlen >= 1.
 */
int itrace_parse(int argc, const char *const *argv, struct itrace_cmd *cmd,
		 char *err, size_t errlen);

/*
 * The inverse for `on`: the option words of @flags and @kinds as the
 * parser reads them, in canonical order ("threads follow-exec kinds
 * call,ret"), or "-" for none (the status column). Cut to @len.
 */
void itrace_on_options(char *buf, size_t len, u32 flags, u32 kinds);

/* Most words a debugfs command line may have (kdb allows 20). */
#define ITRACE_MAX_WORDS	16

/*
 * Split @line in place into words separated by blanks (space, tab,
 * newline), as kdb splits its command line. Returns the word count, or
 * -1 if there are more than @max.
 */
int itrace_split(char *line, const char **argv, int max);

/* The usage text `itrace help` prints, one line per entry, NULL-ended. */
extern const char *const itrace_help_lines[];

#endif /* _ITRACE_PARSE_H */
