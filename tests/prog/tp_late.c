// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for what a task takes after it was armed or watched
 * (tests/vm/late.exp): a name without exec, and an executable mapping.
 * It prints "tp_late: pid P ready" and blocks in read() on FIFO; at the
 * first byte it does one of:
 *   rename NAME N   prctl(PR_SET_NAME, NAME), then N calls to leaf();
 *                   prints "tp_late: renamed NAME sum S"
 *   thread NAME N   (the worker, thread T, was started first and blocks
 *                   reading a pipe: "tp_late: worker T, pid P ready") the
 *                   main thread writes NAME to /proc/self/task/T/comm
 *                   and wakes the worker, which makes the N calls and
 *                   blocks again (until the end); prints "tp_late:
 *                   worker T renamed NAME sum S"
 *   map FILE N      maps FILE, a copy of this program, readable and
 *                   executable, and calls that copy's twice() N times;
 *                   prints "tp_late: mapped twice at 0xADDR sum S"
 * (S = the sum of the calls' results, for N calls: N * (N - 1), both
 * leaf(i) and twice(i) returning 2 * i), then blocks again; a second
 * byte ends it with status 0 (1: a result went wrong, 2: bad arguments
 * or a failed call).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "self_maps.h"

#define NOINLINE __attribute__((noinline, noclone))

static int pipefd[2], donefd[2];
static long ncalls;
static volatile long worker_tid;
static long worker_sum;

NOINLINE long leaf(long i)
{
	return 2 * i;
}

NOINLINE long twice(long i)
{
	return 2 * i;
}

static long calls(long (*f)(long))
{
	long i, sum = 0;

	for (i = 0; i < ncalls; i++)
		sum += f(i);
	return sum;
}

/*
 * The worker of `thread`: says who it is, waits, makes the calls, says
 * so, and waits again (traced, for the test to read its status row).
 */
static void *worker(void *arg)
{
	char c;

	(void)arg;
	worker_tid = syscall(SYS_gettid);
	if (read(pipefd[0], &c, 1) != 1)
		return NULL;
	worker_sum = calls(leaf);
	if (write(donefd[1], "x", 1) != 1 || read(pipefd[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

static int do_rename(const char *name)
{
	long sum;

	if (prctl(PR_SET_NAME, name, 0, 0, 0))
		return 2;
	sum = calls(leaf);
	printf("tp_late: renamed %s sum %ld\n", name, sum);
	return sum == ncalls * (ncalls - 1) ? 0 : 1;
}

static int do_thread(long tid, const char *name)
{
	char path[64], c;
	int fd, len = strlen(name);

	snprintf(path, sizeof(path), "/proc/self/task/%ld/comm", tid);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, name, len) != len || close(fd))
		return 2;
	if (write(pipefd[1], "x", 1) != 1 || read(donefd[0], &c, 1) != 1)
		return 2;
	printf("tp_late: worker %ld renamed %s sum %ld\n", tid, name,
	       worker_sum);
	return worker_sum == ncalls * (ncalls - 1) ? 0 : 1;
}

static int do_map(const char *file)
{
	long off = file_offset((unsigned long)twice), sum;
	long (*copy)(long);
	struct stat st;
	char *map;
	int fd;

	fd = open(file, O_RDONLY);
	if (off < 0 || fd < 0 || fstat(fd, &st))
		return 2;
	map = mmap(NULL, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return 2;
	copy = (long (*)(long))(map + off);
	sum = calls(copy);
	printf("tp_late: mapped twice at %p sum %ld\n", (void *)copy, sum);
	return sum == ncalls * (ncalls - 1) ? 0 : 1;
}

int main(int argc, char **argv)
{
	pthread_t t = 0;
	int fifo, rc;
	char c;

	if (argc != 5)
		return 2;
	ncalls = strtol(argv[4], NULL, 0);
	/* O_RDWR: the fifo always has a writer, so reads block, never EOF */
	fifo = open(argv[1], O_RDWR);
	if (fifo < 0 || ncalls < 1 || pipe(pipefd) || pipe(donefd))
		return 2;
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(argv[2], "thread")) {
		if (pthread_create(&t, NULL, worker, NULL))
			return 2;
		while (!worker_tid)
			usleep(1000);
		printf("tp_late: worker %ld, pid %d ready\n",
		       (long)worker_tid, (int)getpid());
	} else {
		printf("tp_late: pid %d ready\n", (int)getpid());
	}
	if (read(fifo, &c, 1) != 1)
		return 2;
	if (!strcmp(argv[2], "rename"))
		rc = do_rename(argv[3]);
	else if (!strcmp(argv[2], "thread"))
		rc = do_thread(worker_tid, argv[3]);
	else if (!strcmp(argv[2], "map"))
		rc = do_map(argv[3]);
	else
		rc = 2;
	if (read(fifo, &c, 1) != 1)
		return 2;
	if (t && (write(pipefd[1], "x", 1) != 1 || pthread_join(t, NULL)))
		return 2;
	return rc;
}
