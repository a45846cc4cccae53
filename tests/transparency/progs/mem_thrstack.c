// SPDX-License-Identifier: GPL-2.0
/*
 * mem_thrstack: two threads overflow their own small stacks (256 KiB,
 * glibc's guard page below) at the same time. Each runs an unbounded
 * recursion of 1 KiB frames until it touches its guard page: SIGSEGV,
 * delivered on that thread's own sigaltstack, whose handler checks the
 * fault address is in the thread's guard page and si_code SEGV_ACCERR,
 * and siglongjmp()s back to the thread's start. Each thread then
 * recurses a bounded depth to show its stack is usable again. Main
 * prints what each thread reported, in thread order.
 *
 * Catches: a tracer that faults itself on a thread's stack that can't
 * grow (writing below sp, reading ahead), turns the fault into another
 * one or a kill, or can't follow a thread's switch to its own
 * alternate stack and back.
 */
#include "../tt.h"
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>

#define STACK	(256 * 1024)
#define ALT	(128 * 1024)

struct thr {
	pthread_t t;
	sigjmp_buf env;
	uintptr_t guard_lo, guard_hi;
	int faults, in_guard, accerr, on_alt, depth, deepest, after;
	char *alt;
};

static __thread struct thr *self;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t a = (uintptr_t)si->si_addr, sp = (uintptr_t)&a;

	(void)sig;
	(void)ctx;
	self->faults++;
	self->deepest = self->depth;
	self->in_guard = a >= self->guard_lo && a < self->guard_hi;
	self->accerr = si->si_code == SEGV_ACCERR;
	self->on_alt = sp >= (uintptr_t)self->alt &&
		       sp < (uintptr_t)self->alt + ALT;
	siglongjmp(self->env, 1);
}

static int recurse(int n, int limit)
{
	volatile char frame[1024];

	frame[0] = (char)n;
	self->depth = n;
	if (n == limit)
		return frame[0];
	return recurse(n + 1, limit) + frame[0];
}

static void *body(void *arg)
{
	struct thr *t = arg;
	stack_t ss = { .ss_sp = t->alt, .ss_size = ALT };
	pthread_attr_t at;
	void *lo;
	size_t size, guard;

	self = t;
	if (sigaltstack(&ss, NULL))
		return (void *)1;
	if (pthread_getattr_np(pthread_self(), &at) ||
	    pthread_attr_getstack(&at, &lo, &size) ||
	    pthread_attr_getguardsize(&at, &guard))
		return (void *)2;
	pthread_attr_destroy(&at);
	/* glibc puts the guard right below the usable stack */
	t->guard_lo = (uintptr_t)lo - guard;
	t->guard_hi = (uintptr_t)lo;
	if (sigsetjmp(t->env, 1) == 0)
		recurse(0, -1);
	t->after = recurse(0, 20) == 210;
	return NULL;
}

TT_MAIN
{
	static struct thr thr[2];
	struct sigaction sa;
	pthread_attr_t at;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGSEGV, &sa, NULL));
	tt_check(pthread_attr_init(&at) == 0);
	tt_check(pthread_attr_setstacksize(&at, STACK) == 0);
	for (i = 0; i < 2; i++) {
		thr[i].alt = malloc(ALT);
		tt_check(thr[i].alt);
		tt_check(pthread_create(&thr[i].t, &at, body, &thr[i]) == 0);
	}
	for (i = 0; i < 2; i++) {
		void *r;

		tt_check(pthread_join(thr[i].t, &r) == 0);
		tt_check(r == NULL);
		tt_say("thread %d: faults %d, in its guard page %s, "
		       "SEGV_ACCERR %s, on its altstack %s, deep %s, "
		       "stack usable after %s\n", i, thr[i].faults,
		       thr[i].in_guard ? "yes" : "no",
		       thr[i].accerr ? "yes" : "no",
		       thr[i].on_alt ? "yes" : "no",
		       thr[i].deepest > 100 ? "yes" : "no",
		       thr[i].after ? "yes" : "no");
		tt_check(thr[i].faults == 1 && thr[i].in_guard &&
			 thr[i].accerr && thr[i].on_alt && thr[i].after);
	}
	tt_ok();
	return 0;
}
