// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for tracing that follows a task beyond the one named in
 * kdb: threads, forked children and exec. Each mode prints
 * "pid N ready", blocks on a fifo (the test arms it there), then does its
 * thing after the first byte; every piece of work is K direct calls to
 * its own leaf function, so the log can be checked against nm:
 *   threads  thread A (started before the arm, blocked in read) calls
 *            leaf_a K_A times; thread B (started after) calls leaf_b
 *            K_B times; prints both tids
 *   fork     the child calls leaf_c K_C times and exits 7; the parent
 *            prints the child's pid and exit status
 *   exec     execs itself as "tp_follow image FIFO", which calls leaf_e
 *            K_E times (through /proc/self/exe: the new name is "exe")
 *   reexec   the same by name, through PATH: the name stays "tp_follow"
 * Then every mode blocks for a last byte and exits 0.
 *
 * usage: tp_follow threads|fork|exec|reexec|image FIFO
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define K_A	3
#define K_B	4
#define K_C	5
#define K_E	6

static int fifo;
static int go_a[2];
static volatile int tid_a, tid_b, acc_a, acc_b;

__attribute__((noinline)) int leaf_a(int x) { return x + 1; }
__attribute__((noinline)) int leaf_b(int x) { return x + 2; }
__attribute__((noinline)) int leaf_c(int x) { return x + 3; }
__attribute__((noinline)) int leaf_e(int x) { return x + 4; }

static int gettid_(void)
{
	return (int)syscall(SYS_gettid);
}

static void *thread_a(void *arg)
{
	int i, acc = 0;
	char c;

	tid_a = gettid_();
	/* blocked here while the test arms the process */
	if (read(go_a[0], &c, 1) != 1)
		return NULL;
	for (i = 0; i < K_A; i++)
		acc = leaf_a(acc);
	acc_a = acc;
	return NULL;
}

static void *thread_b(void *arg)
{
	int i, acc = 0;

	tid_b = gettid_();
	for (i = 0; i < K_B; i++)
		acc = leaf_b(acc);
	acc_b = acc;
	return NULL;
}

static int do_threads(void)
{
	pthread_t a, b;
	char c;

	if (pipe(go_a) || pthread_create(&a, NULL, thread_a, NULL))
		return 3;
	while (!tid_a)
		usleep(1000);
	printf("tp_follow: pid %d ready, thread a %d\n", getpid(), tid_a);
	fflush(stdout);
	if (read(fifo, &c, 1) != 1)
		return 2;
	if (write(go_a[1], "x", 1) != 1 ||
	    pthread_create(&b, NULL, thread_b, NULL))
		return 3;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("tp_follow: threads a %d acc %d, b %d acc %d\n", tid_a, acc_a,
	       tid_b, acc_b);
	return acc_a == K_A && acc_b == 2 * K_B ? 0 : 4;
}

static int do_fork(void)
{
	int i, st, acc = 0;
	pid_t p;
	char c;

	printf("tp_follow: pid %d ready\n", getpid());
	fflush(stdout);
	if (read(fifo, &c, 1) != 1)
		return 2;
	p = fork();
	if (!p) {
		for (i = 0; i < K_C; i++)
			acc = leaf_c(acc);
		_exit(acc == 3 * K_C ? 7 : 1);
	}
	if (p < 0 || waitpid(p, &st, 0) != p)
		return 3;
	printf("tp_follow: child %d %s %d\n", p,
	       WIFEXITED(st) ? "exited" : "killed by signal",
	       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	return 0;
}

static int do_image(void)
{
	int i, acc = 0;

	for (i = 0; i < K_E; i++)
		acc = leaf_e(acc);
	printf("tp_follow: image pid %d acc %d\n", getpid(), acc);
	return acc == 4 * K_E ? 0 : 4;
}

int main(int argc, char **argv)
{
	int rc;
	char c;

	if (argc != 3) {
		fprintf(stderr, "usage: tp_follow threads|fork|exec|reexec|image FIFO\n");
		return 2;
	}
	fifo = open(argv[2], O_RDWR);
	if (fifo < 0)
		return 2;
	if (!strcmp(argv[1], "threads")) {
		rc = do_threads();
	} else if (!strcmp(argv[1], "fork")) {
		rc = do_fork();
	} else if (!strcmp(argv[1], "exec") || !strcmp(argv[1], "reexec")) {
		printf("tp_follow: pid %d ready\n", getpid());
		fflush(stdout);
		if (read(fifo, &c, 1) != 1)
			return 2;
		if (argv[1][0] == 'r')
			execlp("tp_follow", "tp_follow", "image", argv[2],
			       (char *)NULL);
		else
			execl("/proc/self/exe", "tp_follow", "image", argv[2],
			      (char *)NULL);
		return 5;
	} else if (!strcmp(argv[1], "image")) {
		rc = do_image();
	} else {
		return 2;
	}
	fflush(stdout);
	if (rc)
		return rc;
	if (read(fifo, &c, 1) != 1)
		return 2;
	return 0;
}
