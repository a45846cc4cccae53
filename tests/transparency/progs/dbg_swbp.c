// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_swbp: a debugger's software breakpoint, the way gdb plants one.
 * The parent writes a breakpoint instruction (x86 int3; POWER the trap
 * word 0x7fe00008) over the first instruction of the child's target()
 * with PTRACE_POKETEXT. The child calls target(i) for i = 1..10; at each
 * SIGTRAP stop the parent checks the ip (x86: just after the int3;
 * POWER: at the trap), puts the original word back, sets the ip to
 * target (x86), PTRACE_SINGLESTEPs over the real instruction, plants the
 * breakpoint again and PTRACE_CONTs. The child exits 0 if target() added
 * up to 55; the parent's own target() is untouched (copy on write).
 *
 * Catches: a tracer stepping the child that takes the debugger's
 * breakpoint trap for its own (swallowing it: the child runs on with a
 * corrupt instruction) or reports it at a wrong ip, or that fetches a
 * stale instruction after the debugger rewrote the text.
 */
#include "../tt_dbg.h"

#define CALLS	10

static volatile int total;

__attribute__((noinline)) void target(int v)
{
	total += v;
}

/* called through a pointer: on POWER that enters at the global entry */
static void (*volatile fp)(int) = target;

static void child(void)
{
	int i;

	for (i = 1; i <= CALLS; i++)
		fp(i);
	_exit(total == CALLS * (CALLS + 1) / 2 ? 0 : 11);
}

TT_MAIN
{
	unsigned long addr = (unsigned long)fp, orig, trap, at;
	int status, hits = 0, ip_ok = 0, step_ok = 0, other = 0;
	pid_t pid;

	pid = tt_fork_tracee();
	if (pid == 0)
		child();
	errno = 0;
	orig = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
	tt_check(errno == 0);
	trap = TT_BP_WORD(orig);
	tt_sys(ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)trap));
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	for (;;) {
		tt_sys(waitpid(pid, &status, 0));
		if (!WIFSTOPPED(status))
			break;
		if (WSTOPSIG(status) != SIGTRAP || hits == CALLS) {
			other++;
			tt_sys(ptrace(PTRACE_CONT, pid, NULL,
				      (void *)(long)WSTOPSIG(status)));
			continue;
		}
		hits++;
		at = tt_ip(pid);
		tt_check(at);
		if (at == TT_BP_HIT_IP(addr))
			ip_ok++;
		/* the real instruction back, the ip on it, one step */
		tt_sys(ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)orig));
		tt_check(tt_set_ip(pid, addr) == 0);
		tt_sys(ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL));
		tt_sys(waitpid(pid, &status, 0));
		tt_check(WIFSTOPPED(status));
		at = tt_ip(pid);
		tt_check(at);
		if (WSTOPSIG(status) == SIGTRAP && at != addr && at - addr < 64)
			step_ok++;
		tt_sys(ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)trap));
		tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	}
	tt_say("breakpoint hits: %d, at the expected ip: %d, stepped over: %d, other stops: %d\n",
	       hits, ip_ok, step_ok, other);
	tt_say_end("child", status);
	fp(100);
	tt_say("parent's own target() still works: %s\n",
	       total == 100 ? "yes" : "no");
	tt_check(hits == CALLS && ip_ok == CALLS && step_ok == CALLS && !other);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_check(total == 100);
	tt_ok();
	return 0;
}
