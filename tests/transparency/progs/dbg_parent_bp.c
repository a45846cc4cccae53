// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_parent_bp: the program is a debugger's tracee and hits its
 * breakpoints. The parent blocks in a pipe read; its child seizes it,
 * interrupts it (the read restarts unseen), writes a breakpoint (x86
 * int3; POWER the trap word) over the parent's target() with
 * PTRACE_POKETEXT, lets it go and writes the pipe. The parent calls
 * target(i) for i = 1..5; at each SIGTRAP stop the child checks the ip,
 * puts the original word back and sets the ip on it; the first 4 times
 * it single-steps over it and plants the breakpoint again, the 5th it
 * detaches. The parent must sum 15 and see the child exit 0.
 *
 * Catches: a kernel tracer stepping a task that meets a breakpoint
 * belonging to the task's debugger: the trap taken as the tracer's own
 * (swallowed, or the int3 stepped as an ordinary instruction), a wrong
 * ip reported, or the tracer's step state fighting the debugger's step
 * and detach.
 */
#include "../tt_dbg.h"
#include <sys/prctl.h>

#define CALLS	5

static volatile int total;

__attribute__((noinline)) void target(int v)
{
	total += v;
}

/* called through a pointer: on POWER that enters at the global entry */
static void (*volatile fp)(int) = target;

/* the debugger, in the child: 0 if all went as expected */
static int debugger(pid_t pid, int ready)
{
	unsigned long addr = (unsigned long)fp, orig, trap, ip;
	int status, hits = 0, ip_ok = 0, steps = 0, e;

	e = tt_seize_stop(pid);
	if (e)
		return 19 + e;		/* 20: refused, 21: another stop */
	errno = 0;
	orig = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
	if (errno)
		return 22;
	trap = TT_BP_WORD(orig);
	if (ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)trap) ||
	    ptrace(PTRACE_CONT, pid, NULL, NULL) ||
	    write(ready, "g", 1) != 1)
		return 23;
	while (hits < CALLS) {
		if (waitpid(pid, &status, __WALL) != pid || !WIFSTOPPED(status))
			return 24;
		if (WSTOPSIG(status) != SIGTRAP || status >> 16) {
			if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)
				   (status >> 16 ? 0 : WSTOPSIG(status))))
				return 25;
			continue;
		}
		hits++;
		ip = tt_ip(pid);
		if (!ip)
			return 26;
		ip_ok += ip == TT_BP_HIT_IP(addr);
		if (ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)orig) ||
		    tt_set_ip(pid, addr))
			return 27;
		if (hits == CALLS)
			break;
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) ||
		    waitpid(pid, &status, __WALL) != pid)
			return 28;
		ip = tt_ip(pid);
		if (WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP && ip &&
		    ip != addr)
			steps++;
		if (ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)trap) ||
		    ptrace(PTRACE_CONT, pid, NULL, NULL))
			return 29;
	}
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL))
		return 30;
	tt_say("debugger: %d hits, %d at the expected ip, %d stepped over, detached\n",
	       hits, ip_ok, steps);
	return ip_ok == CALLS && steps == CALLS - 1 ? 0 : 31;
}

TT_MAIN
{
	int p[2], status, i;
	pid_t pid;
	char c;

	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	tt_sys(pipe(p));
	pid = tt_sys(fork());
	if (pid == 0)
		_exit(debugger(getppid(), p[1]));
	tt_check(read(p[0], &c, 1) == 1 && c == 'g');
	for (i = 1; i <= CALLS; i++)
		fp(i);
	tt_sys(waitpid(pid, &status, 0));
	tt_say("parent: target() summed %d\n", total);
	tt_say_end("parent: debugger child", status);
	tt_check(total == CALLS * (CALLS + 1) / 2);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
