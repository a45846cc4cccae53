// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_setregs: a debugger changes the program's registers. The child
 * (PTRACE_TRACEME, raise(SIGSTOP)) calls getppid() with a raw system
 * call; the parent runs it with PTRACE_SYSCALL (TRACESYSGOOD) to that
 * call's exit stop, reads the registers with PTRACE_GETREGSET
 * (NT_PRSTATUS) and writes 4242 into the return register (rax / r3)
 * with PTRACE_SETREGSET, then PTRACE_CONTs. The child prints the value
 * it got (4242) and whether a second, untouched getppid() is the real
 * one, then exits 0.
 *
 * Catches: register writes of a debugger lost or overwritten by the
 * kernel tracer's own saved state (e.g. it restores registers it saved
 * before the stop), syscall stops missed or doubled under tracing.
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
#define RET(r)		((r).rax)

static inline long raw_getppid(void)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "0"((long)SYS_getppid)
		     : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__powerpc64__)
typedef struct pt_regs regs_t;
#define NR(r)		((r).gpr[0])
#define RET(r)		((r).gpr[3])

static inline long raw_getppid(void)
{
	register long r0 asm("r0") = SYS_getppid;
	register long r3 asm("r3");

	asm volatile("sc"
		     : "+r"(r0), "=r"(r3)
		     :
		     : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11",
		       "r12", "cr0", "ctr", "memory");
	return r3;
}
#endif

static int regs(pid_t pid, int req, regs_t *r)
{
	struct iovec iov = { r, sizeof(*r) };

	return ptrace(req, pid, (void *)NT_PRSTATUS, &iov);
}

static void child(void)
{
	long faked, real;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(10);
	raise(SIGSTOP);
	faked = raw_getppid();
	real = raw_getppid();
	tt_say("child: first getppid returned %ld\n", faked);
	tt_say("child: second getppid is the parent: %s\n",
	       real == getppid() && real != 4242 ? "yes" : "no");
	_exit(0);
}

TT_MAIN
{
	int status, stops = 0, entries = 0, done = 0;
	regs_t r;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0)
		child();
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	tt_sys(ptrace(PTRACE_SETOPTIONS, pid, NULL,
		      (void *)PTRACE_O_TRACESYSGOOD));
	/* syscall stops come in entry/exit pairs; the child's first
	 * are those of raise() unblocking signals, then getppid */
	while (!done && stops < 40) {
		tt_sys(ptrace(PTRACE_SYSCALL, pid, NULL, NULL));
		tt_sys(waitpid(pid, &status, 0));
		tt_check(WIFSTOPPED(status));
		tt_check(WSTOPSIG(status) == (SIGTRAP | 0x80));
		stops++;
		tt_check(regs(pid, PTRACE_GETREGSET, &r) == 0);
		if (stops & 1) {	/* entry */
			if ((long)NR(r) == SYS_getppid)
				entries++;
			continue;
		}
		if (entries == 1) {	/* exit of the first getppid */
			RET(r) = 4242;
			tt_check(regs(pid, PTRACE_SETREGSET, &r) == 0);
			done = 1;
		}
	}
	tt_check(done);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say("parent: set the return value at a getppid exit stop\n");
	tt_say("parent: child %s %d\n", WIFEXITED(status) ? "exited" :
	       "killed by signal", WIFEXITED(status) ? WEXITSTATUS(status) :
	       WTERMSIG(status));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
