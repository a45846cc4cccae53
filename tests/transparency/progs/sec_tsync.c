// SPDX-License-Identifier: GPL-2.0
/*
 * sec_tsync: a chain of seccomp filters laid over every thread at once
 * (SECCOMP_FILTER_FLAG_TSYNC). Three threads wait at a barrier while
 * the main thread installs, with TSYNC, filter A (getppid: ERRNO 11,
 * getsid: ERRNO 44, gettid: RET_LOG, else allow) and then filter B
 * (getppid: ERRNO 22, else allow). Released, each thread and the main
 * one call getppid (B's 22: of equal actions the newest filter's data
 * wins), getsid (A's 44: the most restrictive action wins over B's
 * allow) and gettid (logged, and allowed: its own tid); so does a
 * fourth thread created afterwards (it inherits both). The program
 * prints the answers, the same for all 5 threads.
 *
 * Catches: a tracer in threads mode that disturbs the filter sync of
 * sleeping threads, or their system-call results when they wake.
 */
#include "../tt_sec.h"
#include <pthread.h>

#define NT	3

static pthread_barrier_t bar;

/* one thread's calls: 0 if each gave the expected answer */
static long calls(void)
{
	long bad = 0;

	errno = 0;
	if (syscall(SYS_getppid) != -1 || errno != 22)
		bad |= 1;
	errno = 0;
	if (syscall(SYS_getsid, 0) != -1 || errno != 44)
		bad |= 2;
	if (syscall(SYS_gettid) != gettid())
		bad |= 4;
	return bad;
}

static void *thread(void *arg)
{
	if (arg)
		pthread_barrier_wait(&bar);
	return (void *)calls();
}

static int install(struct sock_filter *f, unsigned short n)
{
	struct sock_fprog prog = { n, f };

	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		       SECCOMP_FILTER_FLAG_TSYNC, &prog);
}

TT_MAIN
{
	struct sock_filter a[] = {
		TT_SEC_LD(nr),
		TT_SEC_IS_RET(SYS_getppid, SECCOMP_RET_ERRNO | 11),
		TT_SEC_IS_RET(SYS_getsid, SECCOMP_RET_ERRNO | 44),
		TT_SEC_IS_RET(SYS_gettid, SECCOMP_RET_LOG),
		TT_SEC_RET(SECCOMP_RET_ALLOW),
	};
	struct sock_filter b[] = {
		TT_SEC_LD(nr),
		TT_SEC_IS_RET(SYS_getppid, SECCOMP_RET_ERRNO | 22),
		TT_SEC_RET(SECCOMP_RET_ALLOW),
	};
	pthread_t t[NT + 1];
	long ra, rb, bad[NT + 2];
	void *ret;
	int i, nbad = 0;

	if (tt_sec_lacks(SECCOMP_RET_LOG))
		return 0;
	tt_check(pthread_barrier_init(&bar, NULL, NT + 1) == 0);
	for (i = 0; i < NT; i++)
		tt_check(pthread_create(&t[i], NULL, thread, &bar) == 0);
	tt_sys(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	ra = install(a, sizeof(a) / sizeof(a[0]));
	rb = install(b, sizeof(b) / sizeof(b[0]));
	tt_say("TSYNC installs: %ld and %ld\n", ra, rb);
	tt_check(ra == 0 && rb == 0);
	pthread_barrier_wait(&bar);
	bad[NT] = calls();
	for (i = 0; i < NT; i++) {
		tt_check(pthread_join(t[i], &ret) == 0);
		bad[i] = (long)ret;
	}
	tt_check(pthread_create(&t[NT], NULL, thread, NULL) == 0);
	tt_check(pthread_join(t[NT], &ret) == 0);
	bad[NT + 1] = (long)ret;
	for (i = 0; i < NT + 2; i++) {
		if (bad[i])
			tt_say("thread %d: wrong answers, mask %ld\n", i, bad[i]);
		nbad += !!bad[i];
	}
	tt_say("getppid -1/22, getsid -1/44, gettid own tid in all %d threads: %s\n",
	       NT + 2, nbad ? "no" : "yes");
	tt_check(!nbad);
	tt_ok();
	return 0;
}
