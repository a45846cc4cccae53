// SPDX-License-Identifier: GPL-2.0
/*
 * thr_robust: robust mutexes, whose owners die holding them. A thread
 * locks a PTHREAD_MUTEX_ROBUST mutex and exits without unlocking: main's
 * lock gets EOWNERDEAD, marks it consistent, unlocks, relocks (0). Then
 * the same with a process-shared robust mutex in shared memory held by
 * a forked child that _exit()s. The kernel walks the dead owner's robust
 * list (set_robust_list) at its exit and wakes the waiter.
 *
 * Catches: a tracer that disturbs the exit-time robust-list walk (user
 * memory the kernel reads at exit), the FUTEX_OWNER_DIED hand-over, or
 * set_robust_list itself for new threads/children.
 */
#include "../tt.h"
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>

static pthread_mutex_t *m;

static void *die_holding(void *arg)
{
	(void)arg;
	if (pthread_mutex_lock(m))
		return (void *)1;
	return NULL;		/* exits holding it */
}

static const char *name(int e)
{
	return e == 0 ? "0" : e == EOWNERDEAD ? "EOWNERDEAD" :
	       e == ENOTRECOVERABLE ? "ENOTRECOVERABLE" : "other";
}

static void init(int pshared)
{
	pthread_mutexattr_t a;

	tt_check(!pthread_mutexattr_init(&a));
	tt_check(!pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	if (pshared)
		tt_check(!pthread_mutexattr_setpshared(&a,
						PTHREAD_PROCESS_SHARED));
	tt_check(!pthread_mutex_init(m, &a));
}

static void recover(const char *who)
{
	int e1, e2, e3;

	e1 = pthread_mutex_lock(m);
	if (e1 == EOWNERDEAD)
		tt_check(!pthread_mutex_consistent(m));
	tt_check(!pthread_mutex_unlock(m));
	e2 = pthread_mutex_lock(m);
	e3 = pthread_mutex_unlock(m);
	tt_say("%s: lock %s, relock %s, unlock %s\n", who, name(e1),
	       name(e2), name(e3));
	tt_check(e1 == EOWNERDEAD && e2 == 0 && e3 == 0);
}

TT_MAIN
{
	pthread_t t;
	void *ret;
	int status;
	pid_t pid;

	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	tt_check(m != MAP_FAILED);

	init(0);
	tt_check(!pthread_create(&t, NULL, die_holding, NULL));
	tt_check(!pthread_join(t, &ret) && ret == NULL);
	recover("thread owner died");

	tt_check(!pthread_mutex_destroy(m));
	init(1);
	pid = tt_sys(fork());
	if (pid == 0)
		_exit(pthread_mutex_lock(m) ? 2 : 0);
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	recover("process owner died");
	tt_ok();
	return 0;
}
