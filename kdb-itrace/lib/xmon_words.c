// SPDX-License-Identifier: GPL-2.0
/*
 * xmon's numbers to itrace words (see xmon_words.h). Only what a number
 * alone cannot say wrong is checked here (a mode, flag or kind bit that
 * does not exist); everything else, the pid first, is the parser's, so
 * its refusals read the same from every front-end. Pure C, shared with
 * host tests; no allocation, nothing that can fault.
 */
#include "compat.h"
#include "kind.h"
#include "parse.h"
#include "xmon_words.h"

const char *const itrace_xmon_help_lines[] = {
	"xmon: p $itrace_xmon_<cmd> <hex numbers>; return value 0 or -errno",
	"p $itrace_xmon_on <pid> [mode] [flags] [kinds]   itrace on <pid> ...",
	"      mode 0 insn (default), 1 block; flags 1 threads, 2 follow, 4 follow-exec;",
	"      kinds 0 all (default), else bit N records kind N: 1 insn, 2 jcc-nt, 4 jcc,",
	"      8 jmp, 10 call, 20 ret, 40 icall, 80 ijmp, 100 syscall, 200 int, 400 iret,",
	"      800 far, 1000 async",
	"p $itrace_xmon_off <pid>                          itrace off <pid>; 0: all",
	"p $itrace_xmon_log [pid] [count] [raw]           itrace log; pid 0: all,",
	"      count 0: the last 100, ffffffff: all; raw 1: -r",
	"p $itrace_xmon_calls [pid] [count]               itrace calls; count as for log",
	"p $itrace_xmon_top [pid] [count]                 itrace top; pid 0: every task,",
	"      count 0: 10 rows each, ffffffff: all",
	"p $itrace_xmon_stack <pid> | $itrace_xmon_regs <pid>   itrace stack, itrace regs",
	"p $itrace_xmon_status | $itrace_xmon_clear | $itrace_xmon_help",
	"pids are hex here (xmon reads only hex): each call echoes its command in decimal",
	NULL
};

static_assert(ITRACE_F_THREADS == 1 && ITRACE_F_FOLLOW == 2 &&
	      ITRACE_F_EXEC == 4 && ITRACE_XMON_FLAGS ==
	      (ITRACE_F_THREADS | ITRACE_F_FOLLOW | ITRACE_F_EXEC),
	      "the xmon help's flag bits");

static void start(struct itrace_xmon_words *w)
{
	w->argc = 0;
	w->len = 0;
}

/* Append one word; false if it does not fit (cannot happen: sized). */
__printf(2, 3)
static bool add(struct itrace_xmon_words *w, const char *fmt, ...)
{
	size_t room = sizeof(w->buf) - w->len;
	va_list ap;
	int n;

	if (w->argc >= ITRACE_XMON_WORDS || !room)
		return false;
	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		return false;
	w->argv[w->argc++] = w->buf + w->len;
	w->len += (size_t)n + 1;
	return true;
}

/* The `on` option words of @flags, through the parser's own inverse. */
static void add_flags(struct itrace_xmon_words *w, u32 flags)
{
	char *opts = w->buf + w->len;
	struct itrace_on_opts o;
	size_t n;
	int k;

	itrace_on_opts_init(&o);
	o.flags = flags;
	itrace_on_options(opts, sizeof(w->buf) - w->len, &o);
	if (!strcmp(opts, "-"))
		return;
	n = strlen(opts);
	k = itrace_split(opts, w->argv + w->argc, ITRACE_XMON_WORDS - w->argc);
	if (k > 0) {
		w->argc += k;
		w->len += n + 1;
	}
}

/* "kinds call,ret": every kind named, 0x1fff too */
static void add_kinds(struct itrace_xmon_words *w, u32 kinds)
{
	char names[120];

	itrace_kinds_str(names, sizeof(names), kinds);
	add(w, "kinds");
	add(w, "%s", names);
}

static int words_on(const unsigned long a[ITRACE_XMON_ARGS],
		    struct itrace_xmon_words *w, char *err, size_t errlen)
{
	unsigned long mode = a[1], flags = a[2], kinds = a[3];

	if (mode > 1) {
		snprintf(err, errlen, "itrace: mode %#lx: 0 (insn) or 1 (block)",
			 mode);
		return -EINVAL;
	}
	if (flags & ~(unsigned long)ITRACE_XMON_FLAGS) {
		snprintf(err, errlen,
			 "itrace: flags %#lx: bits 1 threads, 2 follow, 4 follow-exec",
			 flags);
		return -EINVAL;
	}
	if (kinds & ~(unsigned long)ITRACE_KINDS_ALL) {
		snprintf(err, errlen,
			 "itrace: kinds %#lx: bits up to %#x (itrace_xmon_help)",
			 kinds, ITRACE_KINDS_ALL);
		return -EINVAL;
	}
	add(w, "on");
	add(w, "%lu", a[0]);
	add(w, "%s", mode ? "block" : "insn");
	add_flags(w, flags);
	if (kinds)
		add_kinds(w, kinds);
	return 0;
}

/* "-n N [pid]" of log, calls, top: count 0 is the default, ALL is -n 0 */
static void add_count_pid(struct itrace_xmon_words *w, unsigned long count,
			  unsigned long pid)
{
	if (count) {
		add(w, "-n");
		add(w, "%lu", count >= ITRACE_XMON_ALL ? 0 : count);
	}
	if (pid)
		add(w, "%lu", pid);
}

static int words_log(const unsigned long a[ITRACE_XMON_ARGS],
		     struct itrace_xmon_words *w, char *err, size_t errlen)
{
	unsigned long pid = a[0], count = a[1], raw = a[2];

	if (raw > 2) {
		snprintf(err, errlen, "itrace: raw %#lx: 0, 1 (-r) or 2 (-i)", raw);
		return -EINVAL;
	}
	add(w, "log");
	if (raw)
		add(w, raw == 1 ? "-r" : "-i");
	add_count_pid(w, count, pid);
	return 0;
}

/* "stack <pid>", "regs <pid>": pid 0 left out, for the parser to ask for */
static void words_pid(const char *sub, unsigned long pid,
		      struct itrace_xmon_words *w)
{
	add(w, "%s", sub);
	if (pid)
		add(w, "%lu", pid);
}

int itrace_xmon_words(enum itrace_xmon_op op,
		      const unsigned long a[ITRACE_XMON_ARGS],
		      struct itrace_xmon_words *w, char *err, size_t errlen)
{
	start(w);
	err[0] = '\0';
	switch (op) {
	case ITRACE_XMON_ON:
		return words_on(a, w, err, errlen);
	case ITRACE_XMON_OFF:
		add(w, "off");
		if (a[0])
			add(w, "%lu", a[0]);
		else
			add(w, "all");
		return 0;
	case ITRACE_XMON_LOG:
		return words_log(a, w, err, errlen);
	case ITRACE_XMON_CALLS:
		add(w, "calls");
		add_count_pid(w, a[1], a[0]);
		return 0;
	case ITRACE_XMON_STACK:
		words_pid("stack", a[0], w);
		return 0;
	case ITRACE_XMON_REGS:
		words_pid("regs", a[0], w);
		return 0;
	case ITRACE_XMON_STATUS:
		add(w, "status");
		return 0;
	case ITRACE_XMON_CLEAR:
		add(w, "clear");
		return 0;
	case ITRACE_XMON_HELP:
		add(w, "help");
		return 0;
	case ITRACE_XMON_TOP:
		add(w, "top");
		add_count_pid(w, a[1], a[0]);
		return 0;
	}
	snprintf(err, errlen, "itrace: unknown xmon operation %d", (int)op);
	return -EINVAL;
}

void itrace_xmon_line(const struct itrace_xmon_words *w, char *buf,
		      size_t len)
{
	size_t n = snprintf(buf, len, "itrace");
	int i;

	for (i = 0; i < w->argc && n < len; i++)
		n += snprintf(buf + n, len - n, " %s", w->argv[i]);
}
