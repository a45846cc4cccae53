// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_step_hdl: a debugger single-steps the program into a signal
 * handler and out through its sigreturn. The child (PTRACE_TRACEME)
 * runs an asm stub that stops itself with kill(SIGSTOP) at label sh_0;
 * the parent resumes it with PTRACE_SINGLESTEP and the signal SIGUSR1:
 * the first stop comes with the frame built and nothing of the handler
 * run (x86: at the handler's first instruction; POWER: at the vDSO
 * trampoline that calls it). It then steps on, one stop per
 * instruction, through the handler, its return to the restorer (x86:
 * glibc's __restore_rt; POWER: the trampoline) and rt_sigreturn, until
 * the ip is back in the stub (x86: at sh_0; POWER: at sh_1, as the
 * kernel reports no step right after an sc). It prints at which stop
 * the handler's first instruction and the return came (fixed by the
 * code); the child checks the handler ran once and exits 0.
 *
 * Catches: a tracer whose own signal-delivery and sigreturn handling
 * (it rewrites the frame's trace flags) disturbs a debugger stepping
 * the same path: a stop lost at the handler entry or at the sigreturn,
 * or the return landing anywhere but the interrupted instruction.
 */
#include "../tt_dbg.h"

#define MAX_STEPS	5000

asm(TT_ASM_FUNC("step_hdl")		/* argument: own pid */
    TT_ASM_KILL_STOP
    ".globl sh_0\nsh_0:	nop\n"
    ".globl sh_1\nsh_1:" TT_ASM_RET
    ".size step_hdl, . - step_hdl\n");

void step_hdl(long pid);
extern char sh_0[], sh_1[];

static volatile int handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

static int step(pid_t pid, int sig)
{
	int status;

	if (ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)(long)sig) ||
	    waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP ? 0 : -1;
}

static const char *label(unsigned long ip)
{
	return ip == (unsigned long)sh_0 ? "sh_0" :
	       ip == (unsigned long)sh_1 ? "sh_1" : "elsewhere";
}

TT_MAIN
{
	int status, n, entry = 0, back = 0, bad = 0;
	unsigned long at;
	long ran;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0) {
		if (signal(SIGUSR1, on_usr1) == SIG_ERR ||
		    ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(10);
		step_hdl(getpid());
		_exit(handled == 1 ? 0 : 11);
	}
	tt_wait_stop(pid, SIGSTOP);
	tt_check(tt_ip(pid) == (unsigned long)sh_0);
	tt_check(step(pid, SIGUSR1) == 0);
	errno = 0;
	ran = ptrace(PTRACE_PEEKDATA, pid, (void *)&handled, NULL);
	tt_check(errno == 0);
	tt_say("parent: first stop: the handler has run: %s\n",
	       (int)ran ? "yes" : "no");
	for (n = 1; n < MAX_STEPS; n++) {
		at = tt_ip(pid);
		if (at == (unsigned long)on_usr1 && !entry)
			entry = n;
		if (at == (unsigned long)sh_0 || at == (unsigned long)sh_1) {
			back = n;
			break;
		}
		if (step(pid, 0)) {
			bad++;
			break;
		}
	}
	tt_say("parent: the handler's first instruction at stop %d\n", entry);
	tt_say("parent: back in the interrupted code at stop %d, at %s\n",
	       back, label(at));
	tt_say("parent: stops other than SIGTRAP: %d\n", bad);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("parent: child", status);
	tt_check(!(int)ran && entry > 0 && back > entry && !bad);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
