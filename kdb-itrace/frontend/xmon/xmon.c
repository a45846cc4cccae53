// SPDX-License-Identifier: GPL-2.0
/*
 * xmon glue, built where the kernel has POWER's console monitor
 * (CONFIG_XMON). xmon has no command table: its one way into module code
 * is `p $function n...`, a call with up to eight hex numbers, allowed
 * only when xmon is read-write (xmon=rw on the command line). The
 * itrace_xmon_* functions are those entry points: each turns its numbers
 * into words of the itrace language (xmon_words.c), echoes them as a kdb
 * user would type them (so a pid typed in hex shows in decimal), and
 * runs them through the executor kdb and debugfs share. They return 0 or
 * -errno, which xmon prints.
 *
 * Context: inside xmon, every other CPU is stopped (possibly holding any
 * lock) and hard interrupts are off, as in kdb; and any fault longjmps
 * back to xmon half-way through. So: no sleeping, allocation, locks or
 * printk (the console lock's owner may be stopped), nothing that can
 * fault; the executor's state changes are the cmpxchg ones kdb uses.
 * Output goes through xmon_printf() (core/ksym.c), else to the kernel log
 * (deferred: no console lock), where xmon's `dl` shows it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/printk.h>
#include "core/itrace.h"
#include "exec/exec.h"
#include "lib/xmon_words.h"
#include "xmon.h"

/* allocated at load; NULL from the start of unload (xmon cannot allocate) */
static struct itrace_merge *xmon_merge;

__printf(1, 2)
static void log_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* LOGLEVEL_SCHED: stored now, printed on the consoles later */
	vprintk_emit(0, LOGLEVEL_SCHED, NULL, fmt, ap);
	va_end(ap);
}

static void xmon_write(struct itrace_out *o, const char *s, size_t len)
{
	if (!itrace_xmon_puts(s))
		log_printf("%s", s);
}

static struct itrace_out xmon_out = { .write = xmon_write };

/* One entry point's work: words, echo, executor. */
static long xmon_run(enum itrace_xmon_op op, unsigned long a0,
		     unsigned long a1, unsigned long a2, unsigned long a3)
{
	const unsigned long a[ITRACE_XMON_ARGS] = { a0, a1, a2, a3 };
	struct itrace_xmon_words w;
	struct itrace_ctx ctx = {
		.out = &xmon_out,
		.merge = READ_ONCE(xmon_merge),
		.stopped = true,
	};
	char line[ITRACE_OUT_PIECE];
	int ret;

	if (!ctx.merge)
		return -ENODEV;
	if (!itrace_xmon_printer())
		log_printf("itrace: no xmon_printf: output in the kernel log (xmon: dl)\n");
	ret = itrace_xmon_words(op, a, &w, line, sizeof(line));
	if (ret) {
		itrace_out_printf(&xmon_out, "%s\n", line);
		return ret;
	}
	itrace_xmon_line(&w, line, sizeof(line));
	if (op == ITRACE_XMON_HELP) {
		const char *const *l;

		for (l = itrace_xmon_help_lines; *l; l++)
			itrace_out_printf(&xmon_out, "%s\n", *l);
		itrace_out_printf(&xmon_out, "the commands behind them:\n");
	} else {
		itrace_out_printf(&xmon_out, "%s\n", line);
	}
	return itrace_exec(w.argc, w.argv, &ctx);
}

long itrace_xmon_on(unsigned long pid, unsigned long mode,
		    unsigned long flags, unsigned long kinds)
{
	return xmon_run(ITRACE_XMON_ON, pid, mode, flags, kinds);
}

long itrace_xmon_off(unsigned long pid)
{
	return xmon_run(ITRACE_XMON_OFF, pid, 0, 0, 0);
}

long itrace_xmon_log(unsigned long pid, unsigned long count,
		     unsigned long raw)
{
	return xmon_run(ITRACE_XMON_LOG, pid, count, raw, 0);
}

long itrace_xmon_calls(unsigned long pid, unsigned long count)
{
	return xmon_run(ITRACE_XMON_CALLS, pid, count, 0, 0);
}

long itrace_xmon_top(unsigned long pid, unsigned long count)
{
	return xmon_run(ITRACE_XMON_TOP, pid, count, 0, 0);
}

long itrace_xmon_stack(unsigned long pid)
{
	return xmon_run(ITRACE_XMON_STACK, pid, 0, 0, 0);
}

long itrace_xmon_regs(unsigned long pid)
{
	return xmon_run(ITRACE_XMON_REGS, pid, 0, 0, 0);
}

long itrace_xmon_status(void)
{
	return xmon_run(ITRACE_XMON_STATUS, 0, 0, 0, 0);
}

long itrace_xmon_clear(void)
{
	return xmon_run(ITRACE_XMON_CLEAR, 0, 0, 0, 0);
}

long itrace_xmon_help(void)
{
	return xmon_run(ITRACE_XMON_HELP, 0, 0, 0, 0);
}

int itrace_xmon_init(void)
{
	struct itrace_merge *m = itrace_merge_alloc();

	if (!m)
		return -ENOMEM;
	WRITE_ONCE(xmon_merge, m);
	return 0;
}

void itrace_xmon_exit(void)
{
	struct itrace_merge *m = xmon_merge;

	/* an xmon call now finds no buffer; one that read it ran to its end */
	WRITE_ONCE(xmon_merge, NULL);
	itrace_merge_free(m);
}
