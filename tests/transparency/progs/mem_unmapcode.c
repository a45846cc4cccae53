// SPDX-License-Identifier: GPL-2.0
/*
 * mem_unmapcode: code that goes away and comes back at the same
 * address. A page of code (a function returning the round's value) is
 * called, then unmapped; a call into it now faults (SIGSEGV with
 * SEGV_MAPERR at the page's address, handled, siglongjmp). Then a new
 * page with other code (a different shape: argument plus constant) is
 * mapped at exactly that address (MAP_FIXED_NOREPLACE) and called. 8
 * rounds.
 *
 * Catches: a tracer that keeps per-address code state (decoded
 * instructions, a breakpoint or out-of-line copy, a mapping pointer)
 * across munmap, so it faults on the wrong thing, reports the fault
 * differently, or runs the old code on the new page.
 */
#include "../tt.h"
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif

typedef long (*fn_t)(long);

static sigjmp_buf env;
static volatile int faults, maperr;
static void *volatile addr;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	faults++;
	maperr = si->si_code == SEGV_MAPERR;
	addr = si->si_addr;
	siglongjmp(env, 1);
}

static unsigned char *code(void *at, long ps, int imm, int shape)
{
	unsigned char *p = mmap(at, ps, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS |
				(at ? MAP_FIXED_NOREPLACE : 0), -1, 0);

	tt_check(p != MAP_FAILED);
	tt_emit(p, imm, shape);
	__builtin___clear_cache((char *)p, (char *)p + 16);
	tt_sys(mprotect(p, ps, PROT_READ | PROT_EXEC));
	return p;
}

/* call the code at P, which is gone: 1 if that faulted */
static int call_gone(unsigned char *p, long arg)
{
	if (sigsetjmp(env, 1))
		return 1;
	((fn_t)(uintptr_t)p)(arg);
	return 0;
}

TT_MAIN
{
	long ps = sysconf(_SC_PAGESIZE), sum = 0;
	struct sigaction sa;
	unsigned char *p;
	int i, right = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGSEGV, &sa, NULL));
	p = code(NULL, ps, 0, 0);
	for (i = 0; i < 8; i++) {
		munmap(p, ps);
		p = code(p, ps, 10 * i, i % 2);
		sum += ((fn_t)(uintptr_t)p)(i);
		tt_sys(munmap(p, ps));
		right += call_gone(p, i) && faults == i + 1 && maperr &&
			 addr == p;
		p = code(p, ps, 1000 + i, !(i % 2));
		sum += ((fn_t)(uintptr_t)p)(i);
	}
	tt_say("8 rounds: faults %d, all SEGV_MAPERR at the page %s, sum %ld\n",
	       faults, right == 8 ? "yes" : "no", sum);
	tt_check(faults == 8 && right == 8 && sum == 8336);
	tt_ok();
	return 0;
}
