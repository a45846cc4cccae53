// SPDX-License-Identifier: GPL-2.0
/*
 * thr_setxid: credentials changed by one thread for all. Linux keeps
 * credentials per thread; glibc's setresuid()/setresgid() make every
 * thread change them by sending each an internal real-time signal
 * (SIGSETXID) whose handler does the raw system call. Three threads
 * wait: one in a barrier (futex), one in a pipe read, one spinning
 * with sched_yield(). Main sets the ids to what they already are, then
 * (as root) the saved-set and effective gid and uid to 1234 and 1000;
 * each thread reads its own ids with the raw system calls. Then the
 * spinning thread (not main), once the others have looked, sets them
 * back to 0, and everybody checks again. Not root: only the same-id calls, and a fixed line.
 *
 * Catches: a tracer that loses or doubles the SIGSETXID broadcast to
 * stepped threads (the setxid caller then waits forever), breaks the
 * restart of the system calls the signal interrupts (futex, read), or
 * mishandles signals glibc keeps to itself.
 */
#include "../tt.h"
#include <pthread.h>
#include <sys/syscall.h>

#define N	3

static pthread_barrier_t b1, b2;	/* main+barrier thread, spinner+it */
static int pfd[2];
static int checked;	/* first checks done by the waiters */
static int ids_ok[2][N + 1];
static int root;

/* this thread's own ids, by raw system call: the kernel's per-thread view */
static int ids_are(unsigned int u, unsigned int g)
{
	unsigned int r, e, s, gr, ge, gs;

	if (syscall(SYS_getresuid, &r, &e, &s) ||
	    syscall(SYS_getresgid, &gr, &ge, &gs))
		return 0;
	return r == 0 && e == u && s == u && gr == 0 && ge == g && gs == g;
}

static void check(int me, int ph)
{
	if (root)
		ids_ok[ph][me] = ph == 0 ? ids_are(1000, 1234) : ids_are(0, 0);
	else
		ids_ok[ph][me] = 1;
}

static void *waiter_bar(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&b1);	/* main changed them */
	check(0, 0);
	__atomic_fetch_add(&checked, 1, __ATOMIC_SEQ_CST);
	pthread_barrier_wait(&b2);	/* the spinner changed them back */
	check(0, 1);
	return NULL;
}

static void *waiter_read(void *arg)
{
	char c;
	int i;

	(void)arg;
	for (i = 0; i < 2; i++) {
		while (read(pfd[0], &c, 1) != 1)
			;
		check(1, i);
		__atomic_fetch_add(&checked, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

static void *spinner(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&checked, __ATOMIC_SEQ_CST) < 2)
		sched_yield();
	check(2, 0);
	if (root) {
		tt_sys(setresuid(0, 0, 0));
		tt_sys(setresgid(0, 0, 0));
	} else {
		tt_sys(setresuid(-1, -1, -1));
	}
	check(2, 1);
	pthread_barrier_wait(&b2);
	return NULL;
}

TT_MAIN
{
	pthread_t t[N];
	uid_t u = getuid();
	gid_t g = getgid();
	int i, ok = 1;

	root = geteuid() == 0 && u == 0 && g == 0;
	tt_check(!pthread_barrier_init(&b1, NULL, 2));
	tt_check(!pthread_barrier_init(&b2, NULL, 2));
	tt_sys(pipe(pfd));
	tt_check(!pthread_create(&t[0], NULL, waiter_bar, NULL));
	tt_check(!pthread_create(&t[1], NULL, waiter_read, NULL));
	tt_check(!pthread_create(&t[2], NULL, spinner, NULL));

	tt_sys(setresuid(u, geteuid(), -1));
	tt_sys(setresgid(g, getegid(), -1));
	if (root) {
		tt_sys(setresgid(0, 1234, 1234));
		tt_sys(setresuid(0, 1000, 1000));
	}
	check(N, 0);
	tt_say("main: ids set\n");
	/* let the threads look: barrier thread, reader, spinner */
	pthread_barrier_wait(&b1);
	tt_check(write(pfd[1], "a", 1) == 1);
	/* the spinner puts them back, then releases the barrier thread */
	tt_check(!pthread_join(t[2], NULL));
	check(N, 1);
	tt_check(write(pfd[1], "b", 1) == 1);
	tt_check(!pthread_join(t[0], NULL));
	tt_check(!pthread_join(t[1], NULL));
	if (!root)
		tt_say("not root: only same-id calls made\n");
	for (i = 0; i <= N; i++) {
		tt_say("thread %d: ids right after main's change: %s, after a thread's: %s\n",
		       i, ids_ok[0][i] ? "yes" : "no",
		       ids_ok[1][i] ? "yes" : "no");
		ok &= ids_ok[0][i] && ids_ok[1][i];
	}
	tt_check(ok);
	tt_ok();
	return 0;
}
