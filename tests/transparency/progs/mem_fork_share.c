// SPDX-License-Identifier: GPL-2.0
/*
 * mem_fork_share: what fork does to each kind of memory. A private
 * page is copied on write: parent and child each write it in turn (pipe
 * handshakes) and each sees only its own values. A MAP_SHARED anonymous
 * page is one page: parent and child take turns incrementing a counter
 * in it, 10 times each, and both see 20. A MADV_WIPEONFORK page reads
 * zero in the child and keeps its contents in the parent; a
 * MADV_DONTFORK page is not there in the child (SIGSEGV, handled: the
 * child exits 9), still there in the parent.
 *
 * Catches: a tracer that writes into a traced task's memory (breakpoints,
 * out-of-line copies) in a way that breaks copy-on-write or sharing
 * between a parent and its forked child, or that leaks one's state into
 * the other across fork.
 */
#include "../tt.h"
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK	18
#endif

static int to_child[2], to_parent[2];
static sigjmp_buf env;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

static void give(int fd)
{
	if (write(fd, "t", 1) != 1)
		_exit(100);
}

static void take(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		_exit(101);
}

static void *page(long ps, int flags)
{
	void *p = mmap(NULL, ps, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS,
		       -1, 0);

	tt_check(p != MAP_FAILED);
	return p;
}

TT_MAIN
{
	long ps = sysconf(_SC_PAGESIZE);
	volatile int *priv = page(ps, MAP_PRIVATE);
	volatile int *shared = page(ps, MAP_SHARED);
	volatile int *wipe = page(ps, MAP_PRIVATE);
	volatile int *nofork = page(ps, MAP_PRIVATE);
	int i, status, has_wipe;
	pid_t pid;

	priv[0] = 1;
	shared[0] = 0;
	wipe[0] = 77;
	nofork[0] = 88;
	has_wipe = madvise((void *)wipe, ps, MADV_WIPEONFORK) == 0;
	tt_sys(madvise((void *)nofork, ps, MADV_DONTFORK));
	tt_sys(pipe(to_child));
	tt_sys(pipe(to_parent));
	pid = tt_sys(fork());
	if (pid == 0) {
		struct sigaction sa;
		int code = 0;

		close(to_child[1]);	/* EOF, not a hang, if the parent dies */
		/* copy on write: each side sees its own */
		take(to_child[0]);
		if (priv[0] != 1)
			code |= 1;
		priv[0] = 3;
		give(to_parent[1]);
		take(to_child[0]);
		if (priv[0] != 3)
			code |= 2;
		/* shared: take turns */
		for (i = 0; i < 10; i++) {
			take(to_child[0]);
			shared[0]++;
			give(to_parent[1]);
		}
		if (has_wipe && wipe[0] != 0)
			code |= 4;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_segv;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGSEGV, &sa, NULL);
		if (sigsetjmp(env, 1) == 0) {
			(void)nofork[0];
			code |= 8;		/* it was there */
		}
		_exit(code ? 50 + code : 9);
	}
	priv[0] = 2;
	give(to_child[1]);
	take(to_parent[0]);
	tt_say("copy on write: parent sees its own value: %s\n",
	       priv[0] == 2 ? "yes" : "no");
	tt_check(priv[0] == 2);
	priv[0] = 4;
	give(to_child[1]);
	for (i = 0; i < 10; i++) {
		shared[0]++;
		give(to_child[1]);
		take(to_parent[0]);
	}
	tt_say("shared page: counter %d after 10 turns each\n", shared[0]);
	tt_check(shared[0] == 20);
	tt_sys(waitpid(pid, &status, 0));
	tt_say("child: %s %d\n", WIFEXITED(status) ? "exited" : "killed by signal",
	       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 9);
	tt_say("parent keeps: private %d, wipe-on-fork %d, dont-fork %d\n",
	       priv[0], wipe[0], nofork[0]);
	tt_check(priv[0] == 4 && wipe[0] == 77 && nofork[0] == 88);
	tt_ok();
	return 0;
}
