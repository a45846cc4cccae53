// SPDX-License-Identifier: GPL-2.0
/*
 * thr_altstack: alternate signal stacks are per thread. Main sets one,
 * then 4 threads start: none has inherited it (SS_DISABLE). Thread 0
 * sets its own and raises SIGUSR1 (SA_ONSTACK): the handler runs on
 * thread 0's stack and sees SS_ONSTACK. Thread 1 uses SS_AUTODISARM:
 * inside the handler the stack reads as disabled, after it is back.
 * Thread 2 has none: its handler runs on the thread's own stack. Thread
 * 3, on a small stack with its own altstack, recurses into its guard
 * page: the SIGSEGV handler runs on the altstack, checks si_addr lies in
 * the guard, and siglongjmp()s back. Then main's handler still runs on
 * main's altstack. Prints yes/no per check.
 *
 * Catches: a tracer that builds a stepped thread's signal frame on the
 * wrong stack (another thread's altstack, or ignoring SA_ONSTACK or
 * SS_AUTODISARM), or mishandles a fault on a thread's guard page.
 */
#include "../tt.h"
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>

#define ALT	(128 * 1024)
#ifndef SS_AUTODISARM
#define SS_AUTODISARM	(1U << 31)
#endif

static __thread uintptr_t alt_lo, alt_hi;
static __thread int h_on_alt, h_onstack_flag, h_disabled, h_runs;
static __thread uintptr_t guard_lo, guard_hi;
static __thread sigjmp_buf jb;
static __thread int seg_on_alt, seg_in_guard;

static int on(uintptr_t lo, uintptr_t hi)
{
	volatile char here;
	uintptr_t p = (uintptr_t)&here;

	return p >= lo && p < hi;
}

static void on_usr1(int sig)
{
	stack_t cur;

	(void)sig;
	h_runs++;
	h_on_alt = alt_lo && on(alt_lo, alt_hi);
	if (sigaltstack(NULL, &cur) == 0) {
		h_onstack_flag = !!(cur.ss_flags & SS_ONSTACK);
		h_disabled = !!(cur.ss_flags & SS_DISABLE);
	}
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	(void)sig;
	(void)ctx;
	seg_on_alt = on(alt_lo, alt_hi);
	seg_in_guard = a >= guard_lo && a < guard_hi;
	siglongjmp(jb, 1);
}

static void set_alt(int flags)
{
	stack_t ss;

	ss.ss_sp = malloc(ALT);
	tt_check(ss.ss_sp);
	ss.ss_size = ALT;
	ss.ss_flags = flags;
	tt_sys(sigaltstack(&ss, NULL));
	alt_lo = (uintptr_t)ss.ss_sp;
	alt_hi = alt_lo + ALT;
}

static volatile int limit = 1 << 30;	/* never reached: the guard is */

static __attribute__((noinline)) int recurse(int n)
{
	volatile char buf[1024];

	buf[0] = n;
	if (n >= limit)
		return 0;
	return recurse(n + 1) + buf[0];
}

static const char *ny(int v)
{
	return v ? "yes" : "no";
}

static char line[4][160];

static void *worker(void *arg)
{
	int me = (long)arg, inherited;
	stack_t cur;

	tt_sys(sigaltstack(NULL, &cur));
	inherited = !(cur.ss_flags & SS_DISABLE);
	if (me == 0 || me == 3)
		set_alt(0);
	else if (me == 1)
		set_alt(SS_AUTODISARM);
	if (me < 3) {
		tt_check(!pthread_kill(pthread_self(), SIGUSR1));
		tt_sys(sigaltstack(NULL, &cur));
		snprintf(line[me], sizeof(line[me]),
			 "thread %d: inherited altstack %s; handler ran %d, on own altstack %s, SS_ONSTACK %s, disabled inside %s, enabled after %s",
			 me, ny(inherited), h_runs, ny(h_on_alt),
			 ny(h_onstack_flag), ny(h_disabled),
			 ny(!(cur.ss_flags & SS_DISABLE)));
	} else {
		pthread_attr_t a;
		void *lo;
		size_t size, gsize;

		tt_check(!pthread_getattr_np(pthread_self(), &a));
		tt_check(!pthread_attr_getstack(&a, &lo, &size));
		tt_check(!pthread_attr_getguardsize(&a, &gsize));
		guard_hi = (uintptr_t)lo;
		guard_lo = guard_hi - gsize;
		if (!sigsetjmp(jb, 1))
			recurse(0);
		snprintf(line[me], sizeof(line[me]),
			 "thread 3: inherited altstack %s; stack overflow caught on own altstack %s, address in guard page %s",
			 ny(inherited), ny(seg_on_alt), ny(seg_in_guard));
	}
	return NULL;
}

TT_MAIN
{
	pthread_attr_t a;
	pthread_t t[4];
	int i;

	tt_handle_plain(SIGUSR1, on_usr1, SA_ONSTACK);
	tt_handle(SIGSEGV, on_segv, SA_ONSTACK);
	set_alt(0);

	tt_check(!pthread_attr_init(&a));
	tt_check(!pthread_attr_setstacksize(&a, PTHREAD_STACK_MIN > 65536 ?
					    PTHREAD_STACK_MIN : 65536));
	for (i = 0; i < 4; i++) {
		tt_check(!pthread_create(&t[i], i == 3 ? &a : NULL, worker,
					 (void *)(long)i));
		tt_check(!pthread_join(t[i], NULL));
		tt_say("%s\n", line[i]);
	}
	tt_check(!pthread_kill(pthread_self(), SIGUSR1));
	tt_say("main: handler on main's altstack %s\n", ny(h_on_alt));
	tt_check(h_on_alt);
	tt_check(strstr(line[0], "inherited altstack no; handler ran 1, on own altstack yes, SS_ONSTACK yes, disabled inside no, enabled after yes"));
	tt_check(strstr(line[1], "inherited altstack no; handler ran 1, on own altstack yes, SS_ONSTACK no, disabled inside yes, enabled after yes"));
	tt_check(strstr(line[2], "inherited altstack no; handler ran 1, on own altstack no, SS_ONSTACK no, disabled inside yes, enabled after no"));
	tt_check(strstr(line[3], "inherited altstack no; stack overflow caught on own altstack yes, address in guard page yes"));
	tt_ok();
	return 0;
}
