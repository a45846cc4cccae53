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
	ITRACE_OP_TOP,
};

enum itrace_mode {
	ITRACE_MODE_INSN,
	ITRACE_MODE_BLOCK,
};

/* `itrace log` shows this many records unless -n says otherwise. */
#define ITRACE_LOG_DEFAULT_N	100
/* `itrace top` shows this many rows of each table unless -n says so. */
#define ITRACE_TOP_DEFAULT_N	10

/* Largest pid the parser accepts (the kernel's PID_MAX_LIMIT). */
#define ITRACE_PID_MAX		(4 * 1024 * 1024)

/* `on` options, kept per traced task and inherited by followed tasks */
#define ITRACE_F_THREADS	0x1	/* every thread of the process */
#define ITRACE_F_FOLLOW		0x2	/* forked children too */
#define ITRACE_F_EXEC		0x4	/* keep tracing across exec */
#define ITRACE_F_FREEZE		0x8	/* keep the kept records at a crash */
#define ITRACE_F_BREAK		0x10	/* ... and enter the debugger there */

/* `keep N`: the records a task keeps for itself, and the default */
#define ITRACE_KEEP_MIN		16
#define ITRACE_KEEP_MAX		1048576
#define ITRACE_KEEP_DEFAULT	4096

/* `args N`: values at calls (the first N arguments) and returns */
#define ITRACE_ARGS_MAX		3

/* Longest mapping name `range` takes (symmap.h's ITRACE_MAP_NAME - 1). */
#define ITRACE_RANGE_NAME	24

/*
 * `range LO-HI` (addresses, [LO, HI)) or `range <mapping>` (the name the
 * log gives a mapping, e.g. libc.so.6: resolved when the task is armed,
 * to the span of that file's executable mappings). Neither: hi == 0 and
 * no name.
 */
struct itrace_range {
	u64 lo, hi;
	char map[ITRACE_RANGE_NAME];
};

/* Longest place `func`, `start` or `stop` take, without the NUL. */
#define ITRACE_FUNC_NAME	63

struct itrace_cond;

/* `on` options, kept per traced task and inherited by followed tasks */
struct itrace_on_opts {
	u32 flags;		/* ITRACE_F_* */
	u32 kinds;		/* bit per enum itrace_kind to record */
	u32 max;		/* record budget per task, 0: none */
	u32 keep;		/* its own ring of this many records, 0: none */
	u32 args;		/* log this many arguments at calls, 0: none */
	struct itrace_range range;	/* record only transfers touching it */
	char func[ITRACE_FUNC_NAME + 1];	/* trace only inside it, or "" */
	char start[ITRACE_FUNC_NAME + 1];	/* trace from here ... */
	char stop[ITRACE_FUNC_NAME + 1];	/* ... to here, or "" */
	u32 count;		/* func, start: the first N entries, 0: all */
	/* func, start: traced only where this holds there; NULL: always */
	const struct itrace_cond *cond;
};

/* A task's name as the kernel keeps it (TASK_COMM_LEN), with its NUL. */
#define ITRACE_COMM_LEN		16

struct itrace_cmd {
	enum itrace_op op;
	int pid;		/* 0 = every task (log, calls, off all) */
	char comm[ITRACE_COMM_LEN];	/* on, off comm <name>; or "" */
	enum itrace_mode mode;	/* on */
	struct itrace_on_opts on;	/* on */
	u32 count;		/* log, calls: last N lines; top: rows; 0 = all */
	bool raw;		/* log -r */
	bool insn;		/* log -i */
	/* on ... if: the condition's words (in argv), compiled by `on` */
	int cond_argc;
	const char *const *cond_argv;
};

/*
 * Parse the arguments after the command name. Returns 0, or -1 with a
 * one-line message (no newline) naming the problem in @err; bytes of the
 * quoted word that are not printable ASCII show as '?'. @errlen >= 1.
 */
int itrace_parse(int argc, const char *const *argv, struct itrace_cmd *cmd,
		 char *err, size_t errlen);

/*
 * The inverse for `on`: the option words of @o as the parser reads
 * them, in canonical order ("threads follow-exec kinds call,ret max 500
 * range libc.so.6 func f count 2"), or "-" for none (the status
 * column). Cut to @len.
 */
void itrace_on_options(char *buf, size_t len, const struct itrace_on_opts *o);

/* Room for the longest: every flag and kind, and every valued option. */
#define ITRACE_ON_OPTS_MAX	440

/* Defaults: every kind, no flags, no budget, no range. */
void itrace_on_opts_init(struct itrace_on_opts *o);

/*
 * Where a place "mapping+0xOFF" splits: at its last '+' (a mapping's name
 * may have some: libstdc++.so.6); strlen(@s) if it has none.
 */
size_t itrace_place_plus(const char *s);

/* 0x and 1..16 hex digits, the @n bytes at @s: 0, or -1 */
int itrace_parse_hex(const char *s, size_t n, u64 *out);

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
