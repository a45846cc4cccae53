// SPDX-License-Identifier: GPL-2.0
/*
 * time_timerfd: timers read as file descriptors. A MONOTONIC timerfd
 * with a 1 ms interval is read (blocking) until its expiration counts
 * add up to at least 5; how many reads that took depends on timing, so
 * only the threshold is printed. timerfd_settime() returns the old
 * setting (the 1 ms interval exactly); once disarmed, gettime is zero
 * and a nonblocking read gives EAGAIN. An absolute REALTIME deadline in
 * the past expires at once; one 1 ms ahead is read after poll() says
 * it is ready, and the clock is then past it. A BOOTTIME one-shot fires
 * exactly once.
 *
 * Catches: a tracer that disturbs hrtimer-backed wake-ups of a traced
 * task blocked in read() or poll() (a lost wake-up, a read returning
 * early or twice), or the counts the kernel writes back.
 */
#include "../tt.h"
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/timerfd.h>
#include <time.h>

static struct itimerspec every(long ms_first, long ms_every)
{
	struct itimerspec its;

	its.it_value.tv_sec = ms_first / 1000;
	its.it_value.tv_nsec = (ms_first % 1000) * 1000000;
	its.it_interval.tv_sec = ms_every / 1000;
	its.it_interval.tv_nsec = (ms_every % 1000) * 1000000;
	return its;
}

static void periodic(void)
{
	struct itimerspec its = every(1, 1), old, cur;
	uint64_t n, total = 0;
	int fd, r;

	fd = tt_sys(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC));
	tt_sys(timerfd_settime(fd, 0, &its, NULL));
	while (total < 5) {
		tt_check(read(fd, &n, 8) == 8);
		tt_check(n >= 1);
		total += n;
	}
	tt_say("periodic 1 ms: at least 5 expirations read: yes\n");
	its = every(0, 0);
	tt_sys(timerfd_settime(fd, 0, &its, &old));
	tt_say("disarm: old interval %ld ns\n", old.it_interval.tv_nsec);
	tt_check(old.it_interval.tv_sec == 0 &&
		 old.it_interval.tv_nsec == 1000000);
	tt_sys(timerfd_gettime(fd, &cur));
	tt_check(!cur.it_value.tv_sec && !cur.it_value.tv_nsec);
	tt_sys(fcntl(fd, F_SETFL, O_NONBLOCK));
	/* an expiration may be pending from before the disarm: drain */
	r = read(fd, &n, 8);
	if (r == 8)
		r = read(fd, &n, 8);
	tt_say("disarmed: gettime zero, read %s\n",
	       r == -1 && errno == EAGAIN ? "EAGAIN" : "other");
	tt_check(r == -1 && errno == EAGAIN);
	close(fd);
}

static void absolute(void)
{
	struct itimerspec its;
	struct timespec now;
	struct pollfd p;
	uint64_t n;
	long long dl;
	int fd;

	fd = tt_sys(timerfd_create(CLOCK_REALTIME, 0));
	tt_sys(clock_gettime(CLOCK_REALTIME, &now));
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = now.tv_sec - 10;
	its.it_value.tv_nsec = now.tv_nsec;
	tt_sys(timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL));
	tt_check(read(fd, &n, 8) == 8);
	tt_say("absolute deadline in the past: expired %d time(s)\n", (int)n);
	tt_check(n == 1);

	tt_sys(clock_gettime(CLOCK_REALTIME, &now));
	dl = now.tv_sec * 1000000000LL + now.tv_nsec + 1000000;
	its.it_value.tv_sec = dl / 1000000000;
	its.it_value.tv_nsec = dl % 1000000000;
	tt_sys(timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL));
	p.fd = fd;
	p.events = POLLIN;
	tt_check(poll(&p, 1, -1) == 1 && (p.revents & POLLIN));
	tt_check(read(fd, &n, 8) == 8 && n == 1);
	tt_sys(clock_gettime(CLOCK_REALTIME, &now));
	tt_say("absolute deadline 1 ms ahead: polled, read once, clock past "
	       "it: %s\n",
	       now.tv_sec * 1000000000LL + now.tv_nsec >= dl ? "yes" : "no");
	tt_check(now.tv_sec * 1000000000LL + now.tv_nsec >= dl);
	close(fd);
}

static void oneshot(void)
{
	struct itimerspec its = every(1, 0);
	uint64_t n;
	int fd, r;

	fd = tt_sys(timerfd_create(CLOCK_BOOTTIME, 0));
	tt_sys(timerfd_settime(fd, 0, &its, NULL));
	tt_check(read(fd, &n, 8) == 8);
	tt_sys(fcntl(fd, F_SETFL, O_NONBLOCK));
	r = read(fd, &n, 8);
	tt_say("BOOTTIME one-shot: fired once, then %s\n",
	       r == -1 && errno == EAGAIN ? "EAGAIN" : "other");
	tt_check(r == -1 && errno == EAGAIN);
	close(fd);
}

TT_MAIN
{
	periodic();
	absolute();
	oneshot();
	tt_ok();
	return 0;
}
