// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the `itrace` command parser (kdb-itrace/lib/parse.c).
 * The input is the argument words separated by NUL bytes, so a word may
 * be empty, huge, or hold any other byte (a newline, an escape) that a
 * console or the debugfs file could pass on. Every word and the error
 * buffer are exactly-sized heap blocks, so ASan sees any overrun.
 * Checked: a parsed command is in range and means what the words said (it
 * survives a round trip through its canonical words, the `on` options
 * through itrace_on_options(), their inverse); an error is one
 * printable line that starts with "itrace", fits the buffer, and only
 * gets cut, never changed, by a shorter buffer.
 */
#include "fuzz.h"
#include "lib/parse.h"

#define KDB_ERRLEN	128	/* the buffer kdb_cmd.c hands in */

static bool same_cmd(const struct itrace_cmd *a, const struct itrace_cmd *b)
{
	size_t i;

	if (a->cond_argc != b->cond_argc)
		return false;
	for (i = 0; i < (size_t)a->cond_argc; i++)
		if (strcmp(a->cond_argv[i], b->cond_argv[i]))
			return false;
	return a->op == b->op && a->pid == b->pid && a->mode == b->mode &&
	       !strcmp(a->comm, b->comm) &&
	       a->count == b->count && a->raw == b->raw &&
	       !memcmp(&a->on, &b->on, sizeof(a->on));
}

/* @s is @v in plain decimal (leading zeros allowed). */
static bool is_decimal(const char *s, long long v)
{
	const char *p;

	for (p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return p != s && strtoull(s, NULL, 10) == (unsigned long long)v;
}

/* A pid, or comm and a name: printable, 1..15 bytes, as typed. */
static void check_target(const struct itrace_cmd *c,
			 const struct fuzz_words *w)
{
	size_t i, n;

	if (!c->comm[0]) {
		FUZZ_ASSERT(c->pid > 0 && is_decimal(w->argv[1], c->pid));
		return;
	}
	n = strlen(c->comm);
	FUZZ_ASSERT(!c->pid && n < ITRACE_COMM_LEN);
	FUZZ_ASSERT(!strcmp(w->argv[1], "comm") && !strcmp(w->argv[2], c->comm));
	for (i = 0; i < n; i++)
		FUZZ_ASSERT(c->comm[i] > ' ' && c->comm[i] <= '~');
}

/* Ranges, and the fields an op does not use left at zero. */
static void check_ok(const struct itrace_cmd *c, const struct fuzz_words *w)
{
	FUZZ_ASSERT(c->pid >= 0 && c->pid <= ITRACE_PID_MAX);
	FUZZ_ASSERT(c->mode == ITRACE_MODE_INSN ||
		    c->mode == ITRACE_MODE_BLOCK);
	if (c->op != ITRACE_OP_ON)
		FUZZ_ASSERT(c->mode == ITRACE_MODE_INSN);
	if (c->op != ITRACE_OP_LOG && c->op != ITRACE_OP_CALLS &&
	    c->op != ITRACE_OP_TOP)
		FUZZ_ASSERT(!c->count);
	if (c->op != ITRACE_OP_LOG)
		FUZZ_ASSERT(!c->raw);
	FUZZ_ASSERT(!(c->on.flags & ~(ITRACE_F_THREADS | ITRACE_F_FOLLOW |
				      ITRACE_F_EXEC | ITRACE_F_FREEZE |
				      ITRACE_F_BREAK)));
	/* break freezes; what freezes keeps; keep within its bounds */
	FUZZ_ASSERT(!(c->on.flags & ITRACE_F_BREAK) ||
		    (c->on.flags & ITRACE_F_FREEZE));
	FUZZ_ASSERT(!(c->on.flags & ITRACE_F_FREEZE) || c->on.keep);
	FUZZ_ASSERT(!c->on.keep || (c->on.keep >= ITRACE_KEEP_MIN &&
				    c->on.keep <= ITRACE_KEEP_MAX));
	FUZZ_ASSERT(c->on.args <= ITRACE_ARGS_MAX);
	if (c->op != ITRACE_OP_ON && c->op != ITRACE_OP_OFF)
		FUZZ_ASSERT(!c->comm[0]);
	if (c->op != ITRACE_OP_ON)
		FUZZ_ASSERT(!c->on.flags && !c->on.max && !c->on.keep &&
			    !c->on.args && !c->on.range.hi &&
			    !c->on.range.map[0] && !c->on.func[0] &&
			    !c->on.count && !c->cond_argc && !c->on.start[0] &&
			    !c->on.stop[0]);
	/* the parser only finds the condition's words; `on` compiles them */
	FUZZ_ASSERT(!c->on.cond);
	FUZZ_ASSERT((!c->on.count && !c->cond_argc) || c->on.func[0] ||
		    c->on.start[0]);
	FUZZ_ASSERT(!c->on.func[0] || (!c->on.start[0] && !c->on.stop[0]));
	FUZZ_ASSERT(c->on.range.lo < c->on.range.hi || !c->on.range.hi);
	FUZZ_ASSERT(!c->on.range.hi || !c->on.range.map[0]);
	switch (c->op) {
	case ITRACE_OP_ON:
		/*
		 * pid, at most one mode, each option at most once, and
		 * "kinds", "max", "keep", "args", "range", "func",
		 * "start", "stop" and "count" take a second word: on PID
		 * MODE threads follow freeze break kinds K max N keep N
		 * args N range R start A stop B count N (func instead of start and stop, neither
		 * with follow-exec); then perhaps "if" and every word after
		 * it
		 */
		if (c->cond_argc) {
			FUZZ_ASSERT(c->cond_argv ==
				    (const char *const *)w->argv + w->argc -
				    c->cond_argc);
			FUZZ_ASSERT(!strcmp(c->cond_argv[-1], "if"));
		}
		FUZZ_ASSERT(w->argc - (c->cond_argc ? c->cond_argc + 1 : 0) >= 2 &&
			    w->argc - (c->cond_argc ? c->cond_argc + 1 : 0) <=
			    23 + !!c->comm[0]);
		check_target(c, w);
		break;
	case ITRACE_OP_OFF:
		FUZZ_ASSERT(w->argc == 2 + !!c->comm[0]);
		if (c->pid || c->comm[0])
			check_target(c, w);
		else
			FUZZ_ASSERT(!strcmp(w->argv[1], "all"));
		break;
	case ITRACE_OP_LOG:
	case ITRACE_OP_CALLS:
	case ITRACE_OP_TOP:
		FUZZ_ASSERT(c->count <= 0x7fffffff);
		break;
	case ITRACE_OP_STACK:
	case ITRACE_OP_REGS:
		FUZZ_ASSERT(w->argc == 2);
		FUZZ_ASSERT(c->pid > 0 && is_decimal(w->argv[1], c->pid));
		break;
	case ITRACE_OP_STATUS:
		FUZZ_ASSERT(w->argc <= 1 && !c->pid);
		break;
	case ITRACE_OP_HELP:
	case ITRACE_OP_CLEAR:
		FUZZ_ASSERT(w->argc == 1 && !c->pid);
		break;
	default:
		FUZZ_ASSERT(!"op out of range");
	}
}

/* The canonical words for @c parse back to @c. */
static void check_round_trip(const struct itrace_cmd *c)
{
	static const char *const names[] = {
		[ITRACE_OP_HELP] = "help", [ITRACE_OP_STATUS] = "status",
		[ITRACE_OP_ON] = "on", [ITRACE_OP_OFF] = "off",
		[ITRACE_OP_LOG] = "log", [ITRACE_OP_CLEAR] = "clear",
		[ITRACE_OP_CALLS] = "calls", [ITRACE_OP_STACK] = "stack",
		[ITRACE_OP_REGS] = "regs", [ITRACE_OP_TOP] = "top",
	};
	char pid[16], count[16], err[KDB_ERRLEN], opts[ITRACE_ON_OPTS_MAX];
	const char *argv[24 + FUZZ_MAX_WORDS];
	struct itrace_cmd back;
	int argc = 0, n;

	snprintf(pid, sizeof(pid), "%d", c->pid);
	snprintf(count, sizeof(count), "%u", c->count);
	argv[argc++] = names[c->op];
	switch (c->op) {
	case ITRACE_OP_ON:
		if (c->comm[0]) {
			argv[argc++] = "comm";
			argv[argc++] = c->comm;
		} else {
			argv[argc++] = pid;
		}
		argv[argc++] = c->mode == ITRACE_MODE_BLOCK ? "block" : "insn";
		/* the options through their inverse, kinds included */
		itrace_on_options(opts, sizeof(opts), &c->on);
		if (strcmp(opts, "-")) {
			n = itrace_split(opts, argv + argc, 16);
			FUZZ_ASSERT(n > 0);
			argc += n;
		}
		if (c->cond_argc) {
			argv[argc++] = "if";
			for (n = 0; n < c->cond_argc; n++)
				argv[argc++] = c->cond_argv[n];
		}
		break;
	case ITRACE_OP_OFF:
		if (c->comm[0]) {
			argv[argc++] = "comm";
			argv[argc++] = c->comm;
		} else {
			argv[argc++] = c->pid ? pid : "all";
		}
		break;
	case ITRACE_OP_LOG:
	case ITRACE_OP_CALLS:
	case ITRACE_OP_TOP:
		argv[argc++] = "-n";
		argv[argc++] = count;
		if (c->raw)
			argv[argc++] = "-r";
		if (c->pid)
			argv[argc++] = pid;
		break;
	case ITRACE_OP_STACK:
	case ITRACE_OP_REGS:
		argv[argc++] = pid;
		break;
	default:
		break;
	}
	FUZZ_ASSERT(!itrace_parse(argc, argv, &back, err, sizeof(err)));
	FUZZ_ASSERT(same_cmd(c, &back));
}

static void check_err(const char *err, size_t errlen)
{
	size_t n = strnlen(err, errlen), i;

	FUZZ_ASSERT(n < errlen);
	FUZZ_ASSERT(n > 0);
	FUZZ_ASSERT(!strncmp(err, "itrace", n < 6 ? n : 6));
	/* one line on the kdb console: no newline, no escape sequence */
	for (i = 0; i < n; i++)
		FUZZ_ASSERT(err[i] >= 0x20 && err[i] < 0x7f);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct itrace_cmd cmd, cmd2;
	struct fuzz_words w;
	char *err, *err2;
	size_t errlen2 = 1 + size % 64;
	int ret, ret2;

	fuzz_split(data, size, &w);
	err = (char *)fuzz_alloc(KDB_ERRLEN);
	err2 = (char *)fuzz_alloc(errlen2);

	ret = itrace_parse(w.argc, (const char *const *)w.argv, &cmd, err,
			   KDB_ERRLEN);
	FUZZ_ASSERT(ret == 0 || ret == -1);
	if (ret == 0) {
		FUZZ_ASSERT(err[0] == '\0');
		check_ok(&cmd, &w);
		check_round_trip(&cmd);
	} else {
		check_err(err, KDB_ERRLEN);
	}

	/* A short buffer truncates the message and changes nothing else. */
	ret2 = itrace_parse(w.argc, (const char *const *)w.argv, &cmd2, err2,
			    errlen2);
	FUZZ_ASSERT(ret2 == ret && same_cmd(&cmd, &cmd2));
	FUZZ_ASSERT(strlen(err2) == strnlen(err, errlen2 - 1));
	FUZZ_ASSERT(!strncmp(err2, err, errlen2 - 1));

	free(err2);
	free(err);
	fuzz_free_words(&w);
	return 0;
}
