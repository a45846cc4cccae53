/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transparency suite's one header: what every program of
 * tests/transparency/progs/ shares. A program is small, deterministic
 * and static; the suite runs it untraced, then traced in every mode, and
 * wants the same bytes on stdout and the same end (exit status or
 * terminating signal) each time. So a program prints only what is the
 * same on every run (no pids, addresses, times), through tt_say(), which
 * writes at once (no stdio buffer to be duplicated by fork or lost by
 * _exit), and ends with one verdict line from tt_ok() or tt_fail().
 *
 * Its work runs inside tt_body(), which main() calls through TT_MAIN: the
 * suite's `func tt_body` run traces only that call.
 */
#ifndef _TT_H
#define _TT_H

#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* printf to stdout with one write(): whole lines, in order, fork-safe */
static inline __attribute__((format(printf, 1, 2))) void tt_say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (n > 0 && write(1, buf, n) != n)
		_exit(120);
}

/* The verdict, the last line: "verdict: ok" */
#define tt_ok()		tt_say("verdict: ok\n")
/* "verdict: FAIL <why>", and exit 1 */
#define tt_fail(...)	do { tt_say("verdict: FAIL " __VA_ARGS__); \
			     tt_say("\n"); _exit(1); } while (0)
/* check a condition; on failure the verdict names it and the line */
#define tt_check(c)	do { if (!(c)) tt_fail("%s:%d: %s", __FILE__, \
						__LINE__, #c); } while (0)

/* a system call that must succeed */
#define tt_sys(call)	({ long __r = (long)(call); \
			   if (__r == -1) tt_fail("%s:%d: %s: %s", __FILE__, \
						  __LINE__, #call, strerror(errno)); \
			   __r; })

int tt_body(int argc, char **argv);

/*
 * main() calls tt_body() and returns what it returns; noinline and
 * externally visible so that `func tt_body` finds it in the symbol table.
 */
#define TT_MAIN								\
int main(int argc, char **argv)						\
{									\
	return tt_body(argc, argv);					\
}									\
__attribute__((noinline, used)) int tt_body(int argc __attribute__((unused)),	\
					    char **argv __attribute__((unused)))

#endif /* _TT_H */
