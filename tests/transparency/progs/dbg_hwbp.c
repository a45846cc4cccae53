// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_hwbp: a debugger's hardware breakpoints (x86 debug registers, set
 * through PTRACE_POKEUSER as gdb does). The parent puts execute
 * breakpoints on the child's t1() (DR0) and t2() (DR1) and enables both
 * in DR7; the child calls t1 10 times and t2 5 times. At each SIGTRAP
 * stop the parent checks the ip, si_code TRAP_HWBKPT and which DR6 bit
 * says which breakpoint hit; it resumes the first 5 t1 hits and all t2
 * hits directly (the kernel sets EFLAGS.RF so the instruction runs
 * once), the last 5 t1 hits gdb's way (DR0 off, one PTRACE_SINGLESTEP,
 * DR0 on). The child exits 0 if the calls added up. POWER: a fixed line
 * (no instruction breakpoints there, and qemu's pseries has no DAWR).
 *
 * Catches: a tracer whose #DB handling eats a debug-register hit (or its
 * DR6 bits), clears RF (the breakpoint then fires forever), or leaves
 * TF behind after the debugger's single step.
 *
 * (No write watchpoint: one hit by a single-stepped instruction hangs
 * qemu 7.2's TCG, see tests/vm/run.sh.)
 */
#include "../tt_dbg.h"
#include <stddef.h>

#if defined(__x86_64__)
#define DR(i)	((void *)offsetof(struct user, u_debugreg[i]))
#define T1_HITS	10
#define T2_HITS	5

static volatile int total;

__attribute__((noinline)) void t1(int v)
{
	total += v;
}

__attribute__((noinline)) void t2(int v)
{
	total += 100 * v;
}

static void (*volatile f1)(int) = t1;
static void (*volatile f2)(int) = t2;

static void child(void)
{
	int i;

	for (i = 1; i <= T1_HITS; i++) {
		f1(i);
		if (i % 2 == 0)
			f2(i / 2);
	}
	_exit(total == 55 + 1500 ? 0 : 11);
}

TT_MAIN
{
	int status, hits1 = 0, hits2 = 0, ip_ok = 0, code_ok = 0, steps = 0;
	int other = 0;
	unsigned long dr6;
	siginfo_t si;
	pid_t pid;

	pid = tt_fork_tracee();
	if (pid == 0)
		child();
	if (ptrace(PTRACE_POKEUSER, pid, DR(0), (void *)t1) ||
	    ptrace(PTRACE_POKEUSER, pid, DR(1), (void *)t2) ||
	    ptrace(PTRACE_POKEUSER, pid, DR(7), (void *)0x5)) {
		tt_say("hwbp: debug registers not available\n");
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		tt_ok();
		return 0;
	}
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	for (;;) {
		tt_sys(waitpid(pid, &status, 0));
		if (!WIFSTOPPED(status))
			break;
		if (WSTOPSIG(status) != SIGTRAP) {
			other++;
			tt_sys(ptrace(PTRACE_CONT, pid, NULL,
				      (void *)(long)WSTOPSIG(status)));
			continue;
		}
		errno = 0;
		dr6 = ptrace(PTRACE_PEEKUSER, pid, DR(6), NULL);
		tt_check(errno == 0);
		tt_sys(ptrace(PTRACE_GETSIGINFO, pid, NULL, &si));
		if (si.si_code == TRAP_HWBKPT)
			code_ok++;
		if ((dr6 & 3) == 1) {
			hits1++;
			ip_ok += tt_ip(pid) == (unsigned long)t1;
		} else if ((dr6 & 3) == 2) {
			hits2++;
			ip_ok += tt_ip(pid) == (unsigned long)t2;
		} else {
			other++;
		}
		if ((dr6 & 3) == 1 && hits1 > 5) {
			/* gdb's way: breakpoint off, step, breakpoint on */
			tt_sys(ptrace(PTRACE_POKEUSER, pid, DR(7), (void *)0x4));
			tt_sys(ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL));
			tt_sys(waitpid(pid, &status, 0));
			tt_check(WIFSTOPPED(status));
			if (WSTOPSIG(status) == SIGTRAP &&
			    tt_ip(pid) != (unsigned long)t1)
				steps++;
			tt_sys(ptrace(PTRACE_POKEUSER, pid, DR(7), (void *)0x5));
		}
		tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	}
	tt_say("hwbp: t1 hits %d, t2 hits %d, at the right ip %d, TRAP_HWBKPT %d, stepped over %d, other %d\n",
	       hits1, hits2, ip_ok, code_ok, steps, other);
	tt_say_end("child", status);
	tt_check(hits1 == T1_HITS && hits2 == T2_HITS);
	tt_check(ip_ok == T1_HITS + T2_HITS && code_ok == T1_HITS + T2_HITS);
	tt_check(steps == T1_HITS - 5 && !other);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
#elif defined(__powerpc64__)
TT_MAIN
{
	tt_say("hwbp: no instruction breakpoints on powerpc (nor a DAWR under qemu)\n");
	tt_ok();
	return 0;
}
#endif
