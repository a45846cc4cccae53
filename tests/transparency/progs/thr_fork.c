// SPDX-License-Identifier: GPL-2.0
/*
 * thr_fork: fork() in a multithreaded process. Three threads are
 * parked: one holds a mutex, two sleep in condvar waits. Main forks: the
 * child has one thread (/proc/self/status), sees the mutex still taken
 * by the thread that did not come along (trylock EBUSY), runs the
 * pthread_atfork handlers in the documented order (prepare in reverse
 * order of registration in the parent, parent and child handlers in
 * order), mallocs, creates and joins 2 threads of its own and exits 3.
 * Then a non-main thread forks: that child is one thread whose tid is
 * its pid, and exits 4. Prints each child's findings and status.
 *
 * Catches: a tracer that copies the wrong thread's state into the child
 * (the step bit of another thread, a slot of the parent), follows or
 * forgets children of a non-leader thread wrongly, or traps in a child
 * whose address space is a copy of a stepped one.
 */
#include "../tt_thr.h"
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int parked, release;
static char order[16];
static int norder;

static void note(char c)
{
	if (norder < (int)sizeof(order) - 1)
		order[norder++] = c;
}

static void prep1(void) { note('P'); }
static void prep2(void) { note('p'); }
static void par1(void) { note('A'); }
static void par2(void) { note('a'); }
static void chi1(void) { note('C'); }
static void chi2(void) { note('c'); }

/* count in as parked, then sleep in the condvar until released */
static void park(void)
{
	pthread_mutex_lock(&m);
	parked++;
	pthread_cond_broadcast(&cv);
	while (!release)
		pthread_cond_wait(&cv, &m);
	pthread_mutex_unlock(&m);
}

static void *holder(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&held);
	park();
	pthread_mutex_unlock(&held);
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	park();
	return NULL;
}

static long csum;

static void *child_thread(void *arg)
{
	__atomic_fetch_add(&csum, (long)arg, __ATOMIC_SEQ_CST);
	return NULL;
}

static void child(void)
{
	pthread_t t[2];
	char *p;
	int i, n = tt_threads(), busy;

	busy = pthread_mutex_trylock(&held) == EBUSY;
	order[norder] = 0;
	p = malloc(1000);
	tt_check(p);
	memset(p, 1, 1000);
	free(p);
	for (i = 0; i < 2; i++)
		tt_check(!pthread_create(&t[i], NULL, child_thread,
					 (void *)(long)(i + 5)));
	for (i = 0; i < 2; i++)
		tt_check(!pthread_join(t[i], NULL));
	tt_say("child: threads %d, held mutex busy: %s, atfork order %s, own threads sum %ld\n",
	       n, busy ? "yes" : "no", order, csum);
	_exit(n == 1 && busy && !strcmp(order, "pPCc") && csum == 11 ? 3 : 9);
}

static void *thread_forks(void *arg)
{
	int status;
	pid_t pid;

	(void)arg;
	pid = fork();
	if (pid == 0) {
		int alone = tt_threads() == 1;
		int leader = syscall(SYS_gettid) == getpid();

		tt_say("child of a thread: one thread: %s, tid is pid: %s\n",
		       alone ? "yes" : "no", leader ? "yes" : "no");
		_exit(alone && leader ? 4 : 9);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return (void *)-1L;
	return (void *)(long)status;
}

TT_MAIN
{
	pthread_t t[3], f;
	void *ret;
	int i, status;
	pid_t pid;

	tt_check(!pthread_atfork(prep1, par1, chi1));
	tt_check(!pthread_atfork(prep2, par2, chi2));
	tt_check(!pthread_create(&t[0], NULL, holder, NULL));
	for (i = 1; i < 3; i++)
		tt_check(!pthread_create(&t[i], NULL, waiter, NULL));
	pthread_mutex_lock(&m);
	while (parked < 3)
		pthread_cond_wait(&cv, &m);
	pthread_mutex_unlock(&m);

	pid = tt_sys(fork());
	if (pid == 0)
		child();
	order[norder] = 0;
	tt_sys(waitpid(pid, &status, 0));
	tt_say("parent: atfork order %s\n", order);
	tt_say("child status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_check(!strcmp(order, "pPAa"));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 3);

	pthread_mutex_lock(&m);
	release = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
	for (i = 0; i < 3; i++)
		tt_check(!pthread_join(t[i], NULL));

	tt_check(!pthread_create(&f, NULL, thread_forks, NULL));
	tt_check(!pthread_join(f, &ret));
	status = (long)ret;
	tt_say("thread's child status %d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 4);
	tt_ok();
	return 0;
}
