/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command executor: one `itrace` command behind every front-end. A
 * front-end parses nothing itself: it hands the words after `itrace` to
 * itrace_exec() with its own printer (lib/out.h) and, for `log`, its own
 * merge state, and says whether the machine is stopped (kdb, xmon). The
 * executor uses the core through its public headers (core/itrace.h,
 * core/image.h) and the pure-C library; it knows no front-end. Its
 * context is its caller's: a stopped machine (kdb, xmon's `p`) or
 * process context (debugfs).
 */
#ifndef _ITRACE_EXEC_EXEC_H
#define _ITRACE_EXEC_EXEC_H

#include <linux/types.h>

struct itrace_out;
struct itrace_merge;

struct itrace_ctx {
	struct itrace_out *out;
	struct itrace_merge *merge;	/* `log` state, the caller's own */
	bool stopped;			/* kdb: every other CPU is stopped */
	bool kdb_words;			/* the words are kdb_parse()'s (cond.h) */
};

/*
 * Run the command whose words (after `itrace`) are @argv. Returns 0, or
 * a negative errno when it was refused (bad syntax: -EINVAL); either way
 * its output, errors included, went to ctx->out. Outside kdb the caller
 * runs one command at a time.
 */
int itrace_exec(int argc, const char *const *argv, struct itrace_ctx *ctx);

/*
 * The front-ends that came up at load (main.c sets them), named by
 * `status` and the load message (command.c).
 */
enum {
	ITRACE_FE_KDB = 1 << 0,
	ITRACE_FE_DEBUGFS = 1 << 1,
	ITRACE_FE_XMON = 1 << 2,
};

extern unsigned int itrace_frontends;
const char *itrace_frontends_str(char *buf, size_t len);

#endif /* _ITRACE_EXEC_EXEC_H */
