// SPDX-License-Identifier: GPL-2.0
/*
 * sig_edit_ctx: handlers that resume past a faulting instruction by
 * editing the instruction pointer in their ucontext. 10 SIGSEGVs from a
 * load through a null pointer (x86 `mov (%rax),%eax`, 2 bytes; POWER
 * `lwz`, 4 bytes) and 10 SIGILLs (x86 `ud2`, 2 bytes; POWER the
 * illegal word 0), each followed by an add whose result shows that
 * execution resumed right after the fault. Checks si_addr (0 for the
 * SEGV, the instruction for the ILL) and prints the counts.
 *
 * Catches: a tracer that drops the handler's change of the ip at
 * sigreturn (restores its own idea of the ip, or steps from the old
 * one), reports a fault twice, or loses one; a fault taken during a
 * step that is reported with a wrong address.
 */
#include "../tt.h"

#if defined(__x86_64__)
#define SEGV_LEN	2
#define ILL_LEN		2
#elif defined(__powerpc64__)
#define SEGV_LEN	4
#define ILL_LEN		4
#endif
#define IP(uc)		TT_UC_IP(uc)

static volatile int segvs, ills, bad_addr;

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	if (sig == SIGSEGV) {
		segvs++;
		if (si->si_addr != NULL)
			bad_addr++;
		IP(uc) += SEGV_LEN;
	} else {
		ills++;
		if ((unsigned long)si->si_addr != (unsigned long)IP(uc))
			bad_addr++;
		IP(uc) += ILL_LEN;
	}
}

static long segv_once(long base)
{
	long r = base;

#if defined(__x86_64__)
	asm volatile("mov (%0), %%eax\n\t"	/* 8b 00: faults, skipped */
		     "add $1, %0"
		     : "+a"(r) : : "memory", "cc");
#elif defined(__powerpc64__)
	asm volatile("lwz %0, 0(%0)\n\t"	/* faults, skipped */
		     "addi %0, %0, 1"
		     : "+b"(r) : : "memory");
#endif
	return r;
}

static long ill_once(long base)
{
	long r = base;

#if defined(__x86_64__)
	asm volatile("ud2\n\t"
		     "add $2, %0"
		     : "+r"(r) : : "cc");
#elif defined(__powerpc64__)
	asm volatile(".long 0\n\t"
		     "addi %0, %0, 2"
		     : "+b"(r));
#endif
	return r;
}

TT_MAIN
{
	long sum_segv = 0, sum_ill = 0;
	int i;

	tt_handle(SIGSEGV, on_fault, 0);
	tt_handle(SIGILL, on_fault, 0);

	for (i = 0; i < 10; i++) {
		sum_segv += segv_once(0);
		sum_ill += ill_once(i);
	}
	tt_say("sigsegv: %d, resumed sum %ld\n", segvs, sum_segv);
	tt_say("sigill: %d, resumed sum %ld\n", ills, sum_ill);
	tt_say("bad si_addr: %d\n", bad_addr);
	tt_check(segvs == 10 && ills == 10 && !bad_addr);
	tt_check(sum_segv == 10 && sum_ill == 65);
	tt_ok();
	return 0;
}
