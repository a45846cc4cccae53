// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_setip: a debugger sends the program somewhere else (gdb's "jump",
 * or a call injected into the tracee). The child (PTRACE_TRACEME) stops
 * itself with kill(SIGSTOP); the parent reads its registers, points the
 * ip at redirected() with the first argument 1234 and a fresh aligned
 * stack below the old one (POWER: r12 the entry address too, as the
 * global entry wants), writes them back and continues. redirected()
 * prints its argument and exits 7; the code after the stop never runs.
 *
 * Catches: a tracer that keeps its own idea of the next ip across a
 * ptrace stop (resuming the task at the old place, or logging and
 * stepping from it), or restores registers it saved before the stop.
 */
#include "../tt_dbg.h"
#include <sys/syscall.h>

#if defined(__x86_64__)
static void redirect(tt_regs_t *r, unsigned long fn, long arg)
{
	r->rip = fn;
	r->rdi = arg;
	/* below the red zone, as if a call had pushed a return address */
	r->rsp = ((r->rsp - 1024) & ~15UL) - 8;
	r->orig_rax = -1;	/* no syscall restart */
}
#elif defined(__powerpc64__)
static void redirect(tt_regs_t *r, unsigned long fn, long arg)
{
	r->nip = fn;
	r->gpr[12] = fn;
	r->gpr[3] = arg;
	r->gpr[1] = (r->gpr[1] - 1024) & ~15UL;
}
#endif

__attribute__((noinline, used)) void redirected(long arg)
{
	tt_say("child: redirected(%ld)\n", arg);
	_exit(arg == 1234 ? 7 : 12);
}

TT_MAIN
{
	int status;
	tt_regs_t r;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(10);
		syscall(SYS_kill, getpid(), SIGSTOP);
		tt_say("child: resumed where it stopped\n");
		_exit(11);
	}
	tt_wait_stop(pid, SIGSTOP);
	tt_check(tt_regs(pid, PTRACE_GETREGSET, &r) == 0);
	redirect(&r, (unsigned long)redirected, 1234);
	tt_check(tt_regs(pid, PTRACE_SETREGSET, &r) == 0);
	tt_say("parent: ip set to redirected()\n");
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("parent: child", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	tt_ok();
	return 0;
}
