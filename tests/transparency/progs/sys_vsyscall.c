// SPDX-License-Identifier: GPL-2.0
/*
 * sys_vsyscall: x86 only: calls the legacy vsyscall page's time()
 * (0xffffffffff600400) and gettimeofday() (0xffffffffff600000) under a
 * SIGSEGV handler. With vsyscall=xonly/emulate the kernel emulates them
 * (a fault on an address the task can't read); with vsyscall=none they
 * are a SIGSEGV. Prints which (fixed for a machine), and for the
 * working case that the results agree with time(). POWER: skip lines.
 *
 * Catches: a tracer that reads or steps the instruction at the
 * vsyscall address itself (unreadable in xonly mode), so that it
 * faults, or that loses the emulated return (ip popped from the stack,
 * rax set) when stepping across it.
 */
#include "../tt.h"

#if defined(__x86_64__)
#include <setjmp.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>

static sigjmp_buf env;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

TT_MAIN
{
	time_t (*vtime)(time_t *) = (void *)0xffffffffff600400UL;
	int (*vgtod)(struct timeval *, void *) = (void *)0xffffffffff600000UL;
	struct sigaction sa;
	struct timeval tv;
	time_t t1, t2, t3;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGSEGV, &sa, NULL));
	if (sigsetjmp(env, 1)) {
		tt_say("vsyscall: not available (SIGSEGV)\n");
		tt_ok();
		return 0;
	}
	t1 = time(NULL);
	t2 = vtime(NULL);
	tt_check(vgtod(&tv, NULL) == 0);
	t3 = time(NULL);
	tt_say("vsyscall: available\n");
	tt_say("vsyscall time and gettimeofday agree with time(): %s\n",
	       t1 <= t2 && t2 <= tv.tv_sec && tv.tv_sec <= t3 + 1 ?
	       "yes" : "no");
	tt_check(t1 <= t2 && t2 <= tv.tv_sec && tv.tv_sec <= t3 + 1);
	tt_ok();
	return 0;
}
#else
TT_SKIP_MAIN("x86 only")
#endif
