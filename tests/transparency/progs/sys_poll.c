// SPDX-License-Identifier: GPL-2.0
/*
 * sys_poll: readiness, with timeouts of 0 (never waiting on time) and
 * blocking waits only where something is ready. poll() on a pipe: empty
 * (0), data (POLLIN), writer closed (POLLHUP), reader closed (POLLERR on
 * the write end). select() and pselect() with a zero timeout. ppoll()
 * whose sigmask unblocks a pending SIGUSR1: EINTR, handler run once.
 * epoll: level-triggered reports again, edge-triggered only on new
 * data, EPOLLONESHOT once until re-armed. eventfd: counter mode (one
 * read takes the sum), EFD_SEMAPHORE (each read takes 1), nonblocking
 * EAGAIN when empty and when the counter would overflow.
 *
 * Catches: a tracer that disturbs the sleeping/waking of a traced task
 * in poll/select/epoll, the sigmask swap of ppoll/pselect (a signal
 * lost or delivered twice), or the values the kernel writes back.
 */
#include "../tt.h"
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>

static volatile int usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

static short rev(int fd, short ev)
{
	struct pollfd p = { .fd = fd, .events = ev };

	tt_check(poll(&p, 1, 0) >= 0);
	return p.revents;
}

static void pipes(void)
{
	struct timeval tv = { 0, 0 };
	struct timespec ts = { 0, 0 };
	fd_set rd;
	int p[2], q[2], r;
	char buf[8];

	tt_sys(pipe(p));
	tt_say("poll empty pipe: %s\n", rev(p[0], POLLIN) ? "ready" : "not ready");
	tt_check(rev(p[0], POLLIN) == 0);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	r = select(p[0] + 1, &rd, NULL, NULL, &tv);
	tt_say("select empty pipe: %d\n", r);
	tt_check(r == 0 && !FD_ISSET(p[0], &rd));
	tt_check(write(p[1], "ab", 2) == 2);
	tt_say("poll after a write: POLLIN %s\n",
	       rev(p[0], POLLIN) == POLLIN ? "yes" : "no");
	tt_check(rev(p[0], POLLIN) == POLLIN);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	r = pselect(p[0] + 1, &rd, NULL, NULL, &ts, NULL);
	tt_say("pselect after a write: %d, set %s\n", r,
	       FD_ISSET(p[0], &rd) ? "yes" : "no");
	tt_check(r == 1 && FD_ISSET(p[0], &rd));
	tt_check(read(p[0], buf, 2) == 2);
	close(p[1]);
	tt_say("writer closed: POLLHUP %s\n",
	       rev(p[0], POLLIN) & POLLHUP ? "yes" : "no");
	tt_check(rev(p[0], POLLIN) & POLLHUP);
	close(p[0]);
	tt_sys(pipe(q));
	close(q[0]);
	tt_say("reader closed: POLLERR on the write end %s\n",
	       rev(q[1], POLLOUT) & POLLERR ? "yes" : "no");
	tt_check(rev(q[1], POLLOUT) & POLLERR);
	close(q[1]);
}

static void masked(void)
{
	struct sigaction sa;
	struct timespec ts = { 5, 0 };
	struct pollfd pf;
	sigset_t set, none;
	int p[2], r;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGUSR1, &sa, NULL));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigemptyset(&none);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	tt_sys(raise(SIGUSR1));		/* pending, blocked */
	tt_sys(pipe(p));
	pf.fd = p[0];
	pf.events = POLLIN;
	/* would wait 5 s, but its mask lets the pending signal in */
	r = ppoll(&pf, 1, &ts, &none);
	tt_say("ppoll unblocking a pending signal: %s, handler ran %d time(s)\n",
	       r == -1 && errno == EINTR ? "EINTR" : "other", usr1);
	tt_check(r == -1 && errno == EINTR && usr1 == 1);
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
	tt_check(usr1 == 1);
	close(p[0]);
	close(p[1]);
}

static int ep_wait(int ep, uint64_t *tag)
{
	struct epoll_event ev[4];
	int n = epoll_wait(ep, ev, 4, 0), i;

	tt_check(n >= 0);
	*tag = 0;
	for (i = 0; i < n; i++)
		*tag |= ev[i].data.u64;
	return n;
}

static void epolls(void)
{
	struct epoll_event ev;
	int ep, lt[2], et[2], os[2], n1, n2, n3, n4;
	uint64_t t1, t2, t3, t4;

	ep = tt_sys(epoll_create1(EPOLL_CLOEXEC));
	tt_sys(pipe(lt));
	tt_sys(pipe(et));
	tt_sys(pipe(os));
	ev.events = EPOLLIN;
	ev.data.u64 = 1;
	tt_sys(epoll_ctl(ep, EPOLL_CTL_ADD, lt[0], &ev));
	ev.events = EPOLLIN | EPOLLET;
	ev.data.u64 = 2;
	tt_sys(epoll_ctl(ep, EPOLL_CTL_ADD, et[0], &ev));
	ev.events = EPOLLIN | EPOLLONESHOT;
	ev.data.u64 = 4;
	tt_sys(epoll_ctl(ep, EPOLL_CTL_ADD, os[0], &ev));
	n1 = ep_wait(ep, &t1);
	tt_check(write(lt[1], "x", 1) == 1 && write(et[1], "x", 1) == 1 &&
		 write(os[1], "x", 1) == 1);
	n2 = ep_wait(ep, &t2);		/* all three */
	n3 = ep_wait(ep, &t3);		/* level-triggered only */
	tt_check(write(et[1], "y", 1) == 1);
	ev.events = EPOLLIN | EPOLLONESHOT;
	ev.data.u64 = 4;
	tt_sys(epoll_ctl(ep, EPOLL_CTL_MOD, os[0], &ev));
	n4 = ep_wait(ep, &t4);		/* all three again */
	tt_say("epoll: idle %d, after writes %d (tags %d), again %d (tags %d), "
	       "after new data and re-arm %d (tags %d)\n", n1, n2, (int)t2,
	       n3, (int)t3, n4, (int)t4);
	tt_check(n1 == 0 && n2 == 3 && t2 == 7 && n3 == 1 && t3 == 1);
	tt_check(n4 == 3 && t4 == 7);
	close(ep);
}

static void eventfds(void)
{
	uint64_t v, sum = 0;
	int fd, i, r;

	fd = tt_sys(eventfd(0, EFD_NONBLOCK));
	tt_check(rev(fd, POLLIN) == 0);
	for (v = 1; v <= 3; v++)
		tt_check(write(fd, &v, 8) == 8);
	tt_check(rev(fd, POLLIN) == POLLIN);
	tt_check(read(fd, &v, 8) == 8);
	r = read(fd, &sum, 8);
	tt_say("eventfd: one read takes %d, next %s\n", (int)v,
	       r == -1 && errno == EAGAIN ? "EAGAIN" : "other");
	tt_check(v == 6 && r == -1 && errno == EAGAIN);
	v = 0xfffffffffffffffeull;
	tt_check(write(fd, &v, 8) == 8);
	v = 1;
	r = write(fd, &v, 8);
	tt_say("eventfd: overflowing write %s\n",
	       r == -1 && errno == EAGAIN ? "EAGAIN" : "other");
	tt_check(r == -1 && errno == EAGAIN);
	close(fd);

	fd = tt_sys(eventfd(3, EFD_NONBLOCK | EFD_SEMAPHORE));
	for (i = 0; i < 4; i++) {
		r = read(fd, &v, 8);
		if (r != 8)
			break;
		sum += v;
	}
	tt_say("eventfd semaphore of 3: %d reads of %d, then %s\n", i,
	       (int)(sum / (i ? i : 1)),
	       r == -1 && errno == EAGAIN ? "EAGAIN" : "other");
	tt_check(i == 3 && sum == 3 && r == -1 && errno == EAGAIN);
	close(fd);
}

TT_MAIN
{
	pipes();
	masked();
	epolls();
	eventfds();
	tt_ok();
	return 0;
}
