// SPDX-License-Identifier: GPL-2.0
/*
 * proc_clonevfork: clone() flags that change who waits for whom.
 * Round 1: CLONE_VM|CLONE_VFORK on a stack of its own (what
 * posix_spawn does): the parent is suspended until the child exits, so
 * when clone returns the child's writes to shared memory are all there
 * and the parent's own stack frame is intact. Round 2: the same, the
 * child execs /proc/self/exe, whose image exits 12; the parent resumes
 * at that exec. Round 3: CLONE_PARENT: a forked child A clones B as its
 * sibling, B's parent is the program: A can't wait for B (ECHILD), the
 * program reaps both, B sees the program as its parent.
 *
 * Catches: a tracer that keys a child's state on the parent (CLONE_VM
 * without CLONE_THREAD, a vfork-suspended parent, a task whose real
 * parent is not the one that forked it) and so loses, doubles or
 * misroutes a stepping state; a broken return on the child's new stack.
 */
#include "../tt.h"
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

#define STK	(64 * 1024)

static volatile int shared[8];
static pid_t top;

static int depth(int n)
{
	if (n == 0)
		return 0;
	return 1 + depth(n - 1);
}

static int vm_child(void *arg)
{
	int i;

	for (i = 0; i < 8; i++)
		shared[i] = (long)arg * 10 + i + depth(i);
	return 11;
}

static int exec_child(void *arg)
{
	char *av[] = { (char *)arg, "--exec-child", NULL };

	execv("/proc/self/exe", av);
	return 99;
}

static int sibling(void *arg)
{
	(void)arg;
	/* its parent is the program, not A */
	return getppid() == top ? 14 : 15;
}

static void report(const char *what, int status)
{
	if (WIFEXITED(status))
		tt_say("%s: exited %d\n", what, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		tt_say("%s: killed by signal %d\n", what, WTERMSIG(status));
}

/* the forked A: clones B with CLONE_PARENT, which A can't wait for */
static int child_a(char *stk)
{
	pid_t b = clone(sibling, stk + STK, CLONE_PARENT | SIGCHLD, NULL);

	if (b < 0)
		return 20;
	if (waitpid(b, NULL, 0) != -1 || errno != ECHILD)
		return 21;
	return 13;
}

TT_MAIN
{
	volatile long canary = 0x5a5a1234;
	char *stk = malloc(STK);
	int status, i, sum = 0;
	pid_t pid, a;

	if (argc == 2 && !strcmp(argv[1], "--exec-child")) {
		tt_say("round 2: exec'd image runs\n");
		return 12;
	}
	tt_check(stk);
	top = getpid();

	pid = tt_sys(clone(vm_child, stk + STK,
			   CLONE_VM | CLONE_VFORK | SIGCHLD, (void *)3L));
	/* CLONE_VFORK: the child has exited, its writes are visible */
	for (i = 0; i < 8; i++)
		sum += shared[i];
	tt_sys(waitpid(pid, &status, 0));
	report("round 1", status);
	tt_say("round 1: writes seen at return: sum %d, own frame intact: %s\n",
	       sum, canary == 0x5a5a1234 ? "yes" : "no");
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 11);
	tt_check(sum == 296 && canary == 0x5a5a1234);

	pid = tt_sys(clone(exec_child, stk + STK,
			   CLONE_VM | CLONE_VFORK | SIGCHLD, argv[0]));
	tt_sys(waitpid(pid, &status, 0));
	report("round 2", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 12);

	a = tt_sys(fork());
	if (a == 0)
		_exit(child_a(stk));
	tt_sys(waitpid(a, &status, 0));
	report("round 3: child A", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 13);
	pid = tt_sys(waitpid(-1, &status, 0));
	report("round 3: sibling B, reaped by the program", status);
	tt_check(pid != a && WIFEXITED(status) && WEXITSTATUS(status) == 14);
	tt_check(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
	free(stk);
	tt_ok();
	return 0;
}
