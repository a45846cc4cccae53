/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What programs of threads and tasks share: a team of threads run at
 * once and joined (the atom_* programs, thr_barrier, thr_pi); and what
 * /proc says about them: a small file read in one go (thr_unshare: a
 * thread's comm), how many threads the process has (thr_exec_busy,
 * thr_exec_hdl, thr_fork: one after an exec or in a fork child), and
 * which system call a task sleeps in, with a wait until it sleeps in a
 * given one (thr_futex: waiters blocked before the wake; sig_restart_blk:
 * a child asleep before it is stopped), through
 * /proc/PID/task/TID/syscall.
 */
#ifndef _TT_THR_H
#define _TT_THR_H

#include "tt.h"
#include <fcntl.h>
#include <pthread.h>
#include <time.h>

/* run @fn in @n threads at once (up to 16), each given its index, and
 * join them all */
static inline void tt_run_threads(int n, void *(*fn)(void *))
{
	pthread_t t[16];
	int i;

	tt_check(n <= 16);
	for (i = 0; i < n; i++)
		tt_check(!pthread_create(&t[i], NULL, fn, (void *)(long)i));
	for (i = 0; i < n; i++)
		tt_check(!pthread_join(t[i], NULL));
}

/* the file @path, one read() of it, as a string in @buf: 0, or -1 */
static inline int tt_read_text(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY);
	long n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return 0;
}

/* the Threads: line of /proc/self/status, or -1 */
static inline int tt_threads(void)
{
	static char buf[4096];
	char *p;

	if (tt_read_text("/proc/self/status", buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "\nThreads:");
	return p ? atoi(p + 9) : -1;
}

/* the system call number task @tid of process @pid sleeps in, or -2 */
static inline long tt_sleeping_in(pid_t pid, pid_t tid)
{
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	if (tt_read_text(path, buf, sizeof(buf)) ||
	    buf[0] < '0' || buf[0] > '9')	/* "running", "-1 ..." */
		return -2;
	return strtol(buf, NULL, 10);
}

/*
 * Wait (a bounded while: 20000 looks, 1 ms apart after the first 20)
 * until task @tid of process @pid sleeps in system call @nr: 1, or 0.
 */
static inline int tt_wait_sleeping(pid_t pid, pid_t tid, long nr)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	for (i = 0; i < 20000; i++) {
		if (tt_sleeping_in(pid, tid) == nr)
			return 1;
		if (i > 20)
			nanosleep(&ms, NULL);
	}
	return 0;
}

#endif /* _TT_THR_H */
