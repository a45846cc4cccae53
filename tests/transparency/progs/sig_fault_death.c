// SPDX-License-Identifier: GPL-2.0
/*
 * sig_fault_death: deaths by a fault's signal forced through the mask.
 * A fault's signal that is blocked cannot wait: the kernel unblocks it
 * and resets it to the default action. Three children, each with a
 * handler installed but its signal blocked, die: of SIGILL (x86 ud2,
 * POWER the illegal word 0), of SIGSEGV from a call through a null
 * function pointer (fault on the instruction fetch) and of SIGSEGV from
 * a store into their own text; the parent prints each signal. Then the
 * program's own SIGSEGV handler runs once for a null store, prints the
 * verdict and returns with SIGSEGV added to its uc_sigmask: the store
 * runs again, faults again with SIGSEGV now blocked, and the run ends
 * by signal 11 (status 139). RLIMIT_CORE 0: no core file.
 *
 * (Always a handler: a fault with no handler at all makes x86 log
 * "traps:"/"segfault at", which the suite's kernel log check rejects.)
 *
 * Catches: a tracer that changes a fatal fault (another signal, an
 * exit, a hang re-stepping the faulting instruction), or that mishandles
 * the same instruction faulting again right after a sigreturn.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

static volatile int handled;
static int *volatile null_ptr;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	handled++;
	tt_say("SIGSEGV handler: run %d, signal %d, si_addr null %d, %s\n",
	       handled, sig, si->si_addr == NULL,
	       si->si_code == SEGV_MAPERR ? "SEGV_MAPERR" : "other");
	if (handled == 1 && si->si_addr == NULL)
		tt_ok();
	/* back to the store, with SIGSEGV blocked from then on */
	sigaddset(&uc->uc_sigmask, SIGSEGV);
}

static void never(int sig)
{
	(void)sig;
	_exit(8);
}

static void die_ill(void)
{
#if defined(__x86_64__)
	asm volatile("ud2");
#elif defined(__powerpc64__)
	asm volatile(".long 0");
#endif
}

static void die_call_null(void)
{
	void (*volatile fn)(void) = NULL;

	fn();
}

static void die_write_text(void)
{
	*(volatile int *)die_ill = 0;
}

/* @what: what the child does, with a colon */
static void child(const char *what, void (*fn)(void), int sig)
{
	int status;
	sigset_t set;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0) {
		signal(sig, never);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_BLOCK, &set, NULL);
		fn();
		_exit(0);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end(what, status);
	tt_check(WIFSIGNALED(status) && WTERMSIG(status) == sig);
}

TT_MAIN
{
	struct rlimit rl = { 0, 0 };

	tt_sys(setrlimit(RLIMIT_CORE, &rl));
	child("illegal instruction, SIGILL blocked:", die_ill, SIGILL);
	child("call through null, SIGSEGV blocked:", die_call_null, SIGSEGV);
	child("store into text, SIGSEGV blocked:", die_write_text, SIGSEGV);

	tt_handle(SIGSEGV, on_segv, 0);
	tt_say("null store: handler once, then death by signal %d expected\n",
	       SIGSEGV);
	*null_ptr = 1;
	tt_say("still alive\n");
	return 1;
}
