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
#include "../tt.h"
#include <elf.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>

#define CALLS	5

#if defined(__x86_64__)
typedef struct user_regs_struct regs_t;
#define IP(r)		((r).rip)
#define TRAP_AT(w)	(((w) & ~0xffUL) | 0xcc)
#define HIT_IP(a)	((a) + 1)
#elif defined(__powerpc64__)
typedef struct pt_regs regs_t;
#define IP(r)		((r).nip)
#define TRAP_AT(w)	(((w) & ~0xffffffffUL) | 0x7fe00008)
#define HIT_IP(a)	(a)
#endif

static volatile int total;

__attribute__((noinline)) void target(int v)
{
	total += v;
}

/* called through a pointer: on POWER that enters at the global entry */
static void (*volatile fp)(int) = target;

static int regs(pid_t pid, int req, regs_t *r)
{
	struct iovec iov = { r, sizeof(*r) };

	return ptrace(req, pid, (void *)NT_PRSTATUS, &iov);
}

/* the debugger, in the child: 0 if all went as expected */
static int debugger(pid_t pid, int ready)
{
	unsigned long addr = (unsigned long)fp, orig, trap;
	int status, hits = 0, ip_ok = 0, steps = 0;
	regs_t r;

	if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) ||
	    ptrace(PTRACE_INTERRUPT, pid, NULL, NULL))
		return 20;
	if (waitpid(pid, &status, __WALL) != pid || !WIFSTOPPED(status) ||
	    status >> 16 != PTRACE_EVENT_STOP)
		return 21;
	errno = 0;
	orig = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
	if (errno)
		return 22;
	trap = TRAP_AT(orig);
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
		if (regs(pid, PTRACE_GETREGSET, &r))
			return 26;
		ip_ok += IP(r) == HIT_IP(addr);
		IP(r) = addr;
		if (ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)orig) ||
		    regs(pid, PTRACE_SETREGSET, &r))
			return 27;
		if (hits == CALLS)
			break;
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) ||
		    waitpid(pid, &status, __WALL) != pid)
			return 28;
		if (WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP &&
		    !regs(pid, PTRACE_GETREGSET, &r) && IP(r) != addr)
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
	tt_say("parent: debugger child %s %d\n", WIFEXITED(status) ?
	       "exited" : "killed by signal", WIFEXITED(status) ?
	       WEXITSTATUS(status) : WTERMSIG(status));
	tt_check(total == CALLS * (CALLS + 1) / 2);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
