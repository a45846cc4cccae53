// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_sysemu: a debugger emulates a system call (PTRACE_SYSEMU, as
 * User-Mode Linux does). The child (PTRACE_TRACEME) stops itself with a
 * raw kill(SIGSTOP) and then makes a raw write(1, "REAL\n", 5); the
 * parent resumes it with PTRACE_SYSEMU, which stops it at that write's
 * entry without running it; the parent checks the call and its
 * arguments, sets the return value to 77 and PTRACE_CONTs. The child
 * prints what write() returned (77) and "REAL" never appears. Both
 * arches (powerpc has PTRACE_SYSEMU since 4.20).
 *
 * Catches: a kernel tracer whose system-call handling runs the call
 * anyway, reports it twice, or replaces the debugger's return value.
 */
#include "../tt.h"
#include <elf.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#if defined(__x86_64__)
typedef struct user_regs_struct regs_t;
#define NR(r)		((r).orig_rax)
#define ARG0(r)		((r).rdi)
#define ARG2(r)		((r).rdx)
#define RET(r)		((r).rax)

static inline long raw3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "0"(nr), "D"(a), "S"(b), "d"(c)
		     : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__powerpc64__)
typedef struct pt_regs regs_t;
#define NR(r)		((r).gpr[0])
#define ARG0(r)		((r).orig_gpr3)
#define ARG2(r)		((r).gpr[5])
#define RET(r)		((r).gpr[3])

static inline long raw3(long nr, long a, long b, long c)
{
	register long r0 asm("r0") = nr;
	register long r3 asm("r3") = a;
	register long r4 asm("r4") = b;
	register long r5 asm("r5") = c;

	asm volatile("sc"
		     : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
		     :
		     : "r6", "r7", "r8", "r9", "r10", "r11", "r12", "cr0",
		       "ctr", "memory");
	return r3;
}
#endif

static int regs(pid_t pid, int req, regs_t *r)
{
	struct iovec iov = { r, sizeof(*r) };

	return ptrace(req, pid, (void *)NT_PRSTATUS, &iov);
}

TT_MAIN
{
	int status, args_ok;
	regs_t r;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0) {
		long got;

		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(10);
		raw3(SYS_kill, raw3(SYS_getpid, 0, 0, 0), SIGSTOP, 0);
		got = raw3(SYS_write, 1, (long)"REAL\n", 5);
		tt_say("child: write returned %ld\n", got);
		_exit(0);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	tt_sys(ptrace(PTRACE_SYSEMU, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	tt_check(regs(pid, PTRACE_GETREGSET, &r) == 0);
	args_ok = (long)NR(r) == SYS_write && ARG0(r) == 1 && ARG2(r) == 5;
	RET(r) = 77;
	tt_check(regs(pid, PTRACE_SETREGSET, &r) == 0);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say("parent: stopped at write entry, args as made: %s\n",
	       args_ok ? "yes" : "no");
	tt_say("parent: child %s %d\n", WIFEXITED(status) ? "exited" :
	       "killed by signal", WIFEXITED(status) ? WEXITSTATUS(status) :
	       WTERMSIG(status));
	tt_check(args_ok);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
