// SPDX-License-Identifier: GPL-2.0
/*
 * mem_guard: a PROT_NONE guard page between two usable pages is read,
 * written, and jumped into (x86 call, POWER bctrl through a function
 * pointer); each gives a SIGSEGV whose handler checks si_addr is the
 * guard page's first byte and si_code SEGV_ACCERR, and siglongjmp()s
 * out. The pages around stay usable. Prints yes/no per access.
 *
 * Catches: a tracer that reads the next instruction (to decode or step
 * it) from a page the program can't execute, and so faults itself,
 * reports another address or code, or kills the task; likewise for a
 * tracer that touches data the instruction would access.
 */
#include "../tt.h"
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>

static sigjmp_buf env;
static char *guard;
static volatile int faults, addr_ok, code_ok;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	faults++;
	addr_ok = si->si_addr == guard;
	code_ok = si->si_code == SEGV_ACCERR;
	siglongjmp(env, 1);
}

static void report(const char *what)
{
	tt_say("%s: fault %s, si_addr is the page: %s, SEGV_ACCERR: %s\n",
	       what, faults ? "yes" : "no", addr_ok ? "yes" : "no",
	       code_ok ? "yes" : "no");
	tt_check(faults == 1 && addr_ok && code_ok);
	faults = addr_ok = code_ok = 0;
}

TT_MAIN
{
	struct sigaction sa;
	long ps = sysconf(_SC_PAGESIZE);
	char *base;

	base = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tt_check(base != MAP_FAILED);
	guard = base + ps;
	tt_sys(mprotect(guard, ps, PROT_NONE));
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGSEGV, &sa, NULL));

	if (sigsetjmp(env, 1) == 0)
		(void)*(volatile char *)guard;
	report("read");
	if (sigsetjmp(env, 1) == 0)
		*(volatile char *)guard = 1;
	report("write");
	if (sigsetjmp(env, 1) == 0)
		((void (*)(void))(uintptr_t)guard)();
	report("jump");

	base[0] = 1;
	base[3 * ps - 1] = 2;
	tt_say("neighbours usable: %s\n",
	       base[0] + base[3 * ps - 1] == 3 ? "yes" : "no");
	tt_ok();
	return 0;
}
