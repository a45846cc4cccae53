// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for a trigger on one thread of two: `on <tid> func target`
 * arms the main thread only, and a second thread of the same process
 * calls target() too, between the main thread's calls. Both threads
 * share one mm, and so one breakpoint at target: the untraced thread's
 * hits must leave it in place (6.1's uprobe core took it out of the mm
 * for good when a handler said UPROBE_HANDLER_REMOVE).
 *
 * It prints "tp_trig_thr: pid P ready", blocks on a fifo (the test arms
 * the main thread there), then the two threads take turns, the second
 * thread first: it calls target(i), then main calls target(i), for i in
 * 0..4 (ten calls, five of the armed thread's). Then "tp_trig_thr: calls
 * done", blocks for a last byte and exits 42.
 *
 * usage: tp_trig_thr FIFO
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))
#define ROUNDS 5

static volatile long sink;
/* whose turn: even = the second thread's, odd = main's */
static int turn;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

NOINLINE long target(long n)
{
	sink += n;
	return n + 1;
}

/* wait for turn @t, call target(@i), hand the turn on */
static void take_turn(int t, long i)
{
	pthread_mutex_lock(&mu);
	while (turn != t)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	target(i);
	pthread_mutex_lock(&mu);
	turn++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void *second(void *arg)
{
	long i;

	for (i = 0; i < ROUNDS; i++)
		take_turn(2 * i, i);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	long i;
	char c;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: tp_trig_thr FIFO\n");
		return 2;
	}
	printf("tp_trig_thr: pid %d ready\n", getpid());
	fflush(stdout);
	fd = open(argv[1], O_RDWR);	/* a writer stays: reads block */
	if (fd < 0 || read(fd, &c, 1) != 1)
		return 1;
	if (pthread_create(&t, NULL, second, NULL))
		return 1;
	for (i = 0; i < ROUNDS; i++)
		take_turn(2 * i + 1, i);
	pthread_join(t, NULL);
	printf("tp_trig_thr: calls done\n");
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 1;
	return 42;
}
