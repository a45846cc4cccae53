// SPDX-License-Identifier: GPL-2.0
/*
 * thr_unshare: a thread parts with what it shared. Thread A unshares
 * CLONE_FS, then changes its cwd to /proc and its umask to 077: main
 * still has / and its old umask. Thread B unshares CLONE_FILES and
 * closes a pipe end in its own table and opens /dev/null: main's pipe
 * end still works, and main has no such new descriptor. Thread C
 * renames itself (PR_SET_NAME): /proc/self/task/TID/comm shows the new
 * name, main's comm is unchanged. Prints yes/no for each.
 *
 * Catches: a tracer that looks a stepped thread's files, fs or name up
 * through the group leader (or the leader's through a thread), and gets
 * them wrong once a thread has its own; or trips over a thread whose
 * comm no longer matches the name it was armed by.
 */
#include "../tt_thr.h"
#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

static int pfd[2], b_newfd = -1;
static int a_ok, b_ok, c_tid;
static pthread_barrier_t bar;

static void *thread_a(void *arg)
{
	char cwd[64];

	(void)arg;
	if (!unshare(CLONE_FS) && !chdir("/proc")) {
		umask(077);
		a_ok = getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, "/proc") &&
		       umask(077) == 077;
	}
	pthread_barrier_wait(&bar);	/* main looks, A still alive */
	pthread_barrier_wait(&bar);
	return NULL;
}

static void *thread_b(void *arg)
{
	(void)arg;
	if (!unshare(CLONE_FILES) && !close(pfd[1]) &&
	    fcntl(pfd[1], F_GETFD) < 0) {
		/* the lowest free number: likely pfd[1]'s, here /dev/null */
		b_newfd = open("/dev/null", O_RDONLY);
		b_ok = b_newfd >= 0;
	}
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	return NULL;
}

static void *thread_c(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "tt-renamed");
	c_tid = syscall(SYS_gettid);
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	return NULL;
}

TT_MAIN
{
	char cwd[64], comm0[32], comm1[32], tcomm[32], path[64];
	pthread_t t[3];
	int i, cwd_ok, umask_ok, fd_ok, newfd_absent, c_ok, main_comm_ok;
	char c;

	tt_sys(chdir("/"));
	umask(022);
	tt_sys(pipe(pfd));
	tt_check(!tt_read_text("/proc/self/comm", comm0, sizeof(comm0)));
	tt_check(!pthread_barrier_init(&bar, NULL, 4));
	tt_check(!pthread_create(&t[0], NULL, thread_a, NULL));
	tt_check(!pthread_create(&t[1], NULL, thread_b, NULL));
	tt_check(!pthread_create(&t[2], NULL, thread_c, NULL));
	pthread_barrier_wait(&bar);

	cwd_ok = getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, "/");
	umask_ok = umask(022) == 022;
	fd_ok = write(pfd[1], "z", 1) == 1 && read(pfd[0], &c, 1) == 1 &&
		c == 'z';
	/* pfd[1] is still the pipe here (fd_ok): any other number is free */
	newfd_absent = b_newfd == pfd[1] || fcntl(b_newfd, F_GETFD) < 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", c_tid);
	c_ok = !tt_read_text(path, tcomm, sizeof(tcomm)) &&
	       !strcmp(tcomm, "tt-renamed\n");
	main_comm_ok = !tt_read_text("/proc/self/comm", comm1, sizeof(comm1)) &&
		       !strcmp(comm0, comm1);
	pthread_barrier_wait(&bar);
	for (i = 0; i < 3; i++)
		tt_check(!pthread_join(t[i], NULL));

	tt_say("A (own fs): cwd /proc and umask 077: %s; main kept / : %s, umask 022: %s\n",
	       a_ok ? "yes" : "no", cwd_ok ? "yes" : "no",
	       umask_ok ? "yes" : "no");
	tt_say("B (own files): closed its copy, opened another: %s; main's pipe works: %s, B's new fd absent: %s\n",
	       b_ok ? "yes" : "no", fd_ok ? "yes" : "no",
	       newfd_absent ? "yes" : "no");
	tt_say("C renamed: %s; main's name unchanged: %s\n",
	       c_ok ? "yes" : "no", main_comm_ok ? "yes" : "no");
	tt_check(a_ok && cwd_ok && umask_ok);
	tt_check(b_ok && fd_ok && newfd_absent);
	tt_check(c_ok && main_comm_ok);
	tt_ok();
	return 0;
}
