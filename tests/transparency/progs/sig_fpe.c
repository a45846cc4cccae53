// SPDX-License-Identifier: GPL-2.0
/*
 * sig_fpe: SIGFPE from the CPU, handled and skipped. x86: integer
 * divide by zero and INT64_MIN / -1 (both #DE, FPE_INTDIV, si_addr the
 * idiv), 5 times each, the handler moving the ip past the 3-byte idiv;
 * then an SSE divide by zero with ZE unmasked in MXCSR (#XM,
 * FPE_FLTDIV; the handler clears the flag in the saved MXCSR and skips
 * the 4-byte divsd). POWER: the integer divide does not trap (checked:
 * no signal); a floating divide by zero with FE_DIVBYZERO enabled
 * (precise FP exceptions) gives FPE_FLTDIV at the fdiv, and the handler
 * clears FPSCR's exception bits in the saved context and skips it.
 * An emulator without FP exception traps gets a fixed line instead.
 *
 * Catches: a tracer that mistakes an arithmetic exception raised while
 * stepping for its own trap, reports it at the wrong instruction, or
 * drops the handler's edits of ip, MXCSR or FPSCR at sigreturn.
 */
#include "../tt.h"
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>

extern char tt_div_at[], tt_fdiv_at[];
static volatile int fpes, bad_addr, last_code;

static void on_fpe(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	unsigned long ip = TT_UC_IP(uc);

	(void)sig;
	fpes++;
	last_code = si->si_code;
	if ((unsigned long)si->si_addr != ip)
		bad_addr++;
#if defined(__x86_64__)
	if (ip == (unsigned long)tt_div_at) {
		TT_UC_IP(uc) += 3;	/* idiv %rcx: 48 f7 f9 */
	} else if (ip == (unsigned long)tt_fdiv_at) {
		uc->uc_mcontext.fpregs->mxcsr &= ~0x3fu;	/* flags */
		TT_UC_IP(uc) += 4;	/* divsd %xmm1,%xmm0: f2 0f 5e c1 */
	} else {
		bad_addr++;
		_exit(3);
	}
#elif defined(__powerpc64__)
	if (ip != (unsigned long)tt_fdiv_at) {
		bad_addr++;
		_exit(3);
	}
	/* fpscr: FX, FEX and ZX off, ZE stays on */
	{
		union { double d; uint64_t u; } f;

		f.d = uc->uc_mcontext.fp_regs[32];
		f.u &= ~(uint64_t)(0x80000000 | 0x40000000 | 0x04000000);
		uc->uc_mcontext.fp_regs[32] = f.d;
	}
	TT_UC_IP(uc) += 4;
#endif
}

static __attribute__((noinline)) long idiv(long a, long b)
{
#if defined(__x86_64__)
	/* a skipped idiv leaves rax = a, rdx = -1 */
	asm volatile("cqto\n\t"
		     ".globl tt_div_at\n"
		     "tt_div_at:\n\t"
		     "idiv %%rcx"
		     : "+a"(a) : "c"(b) : "rdx", "cc");
	return a;
#elif defined(__powerpc64__)
	long q;

	asm volatile(".globl tt_div_at\n"
		     "tt_div_at:\n\t"
		     "divd %0, %1, %2"
		     : "=r"(q) : "r"(a), "r"(b));
	return b ? q : a;	/* the quotient is undefined */
#endif
}

/* divide by zero traps from now on (no libm: by hand) */
static int zero_divide_traps(int on)
{
#if defined(__x86_64__)
	unsigned int m;

	asm volatile("stmxcsr %0" : "=m"(m));
	if (on)
		m &= ~0x200u;		/* ZM: unmasked */
	else
		m |= 0x200u;
	m &= ~0x3fu;
	asm volatile("ldmxcsr %0" : : "m"(m));
	return 0;
#elif defined(__powerpc64__)
	if (on) {
		if (prctl(PR_SET_FPEXC, PR_FP_EXC_PRECISE, 0, 0, 0))
			return -1;
		asm volatile("mtfsb1 27" : : : "memory");	/* ZE */
	} else {
		asm volatile("mtfsb0 27" : : : "memory");
		if (prctl(PR_SET_FPEXC, PR_FP_EXC_DISABLED, 0, 0, 0))
			return -1;
	}
	return 0;
#endif
}

static __attribute__((noinline)) double fdiv(double a, double b)
{
#if defined(__x86_64__)
	asm volatile(".globl tt_fdiv_at\n"
		     "tt_fdiv_at:\n\t"
		     "divsd %1, %0"
		     : "+x"(a) : "x"(b));
#elif defined(__powerpc64__)
	asm volatile(".globl tt_fdiv_at\n"
		     "tt_fdiv_at:\n\t"
		     "fdiv %0, %0, %1"
		     : "+d"(a) : "d"(b));
#endif
	return a;
}

TT_MAIN
{
	long sum = 0;
	double d;
	int i, n;

	tt_handle(SIGFPE, on_fpe, 0);

	for (i = 0; i < 5; i++) {
		sum += idiv(100 + i, 0);
		sum += idiv(INT64_MIN, -1) == INT64_MIN;
	}
#if defined(__x86_64__)
	tt_say("integer divide: %d SIGFPE, %s, resumed sum %ld\n", fpes,
	       last_code == FPE_INTDIV ? "FPE_INTDIV" : "other", sum);
	tt_check(fpes == 10 && last_code == FPE_INTDIV && sum == 515);
#else
	tt_say("integer divide: no trap on powerpc, %d SIGFPE\n", fpes);
	tt_check(fpes == 0);
#endif
	n = fpes;
	last_code = 0;
	if (zero_divide_traps(1)) {
		tt_say("float divide: FP exceptions cannot be enabled here\n");
		tt_ok();
		return 0;
	}
	d = 0;
	for (i = 0; i < 3; i++)
		d += fdiv(1.0 + i, 0.0);
	tt_check(zero_divide_traps(0) == 0);
	if (fpes == n) {
		tt_say("float divide: no trap here (an emulator)\n");
	} else {
		/* skipped: a stays as it was: 1 + 2 + 3 */
		tt_say("float divide: %d SIGFPE, %s, resumed sum %g\n",
		       fpes - n, last_code == FPE_FLTDIV ? "FPE_FLTDIV" :
		       "other", d);
		tt_check(fpes - n == 3 && last_code == FPE_FLTDIV && d == 6.0);
	}
	tt_say("wrong si_addr: %d\n", bad_addr);
	tt_check(!bad_addr);
	tt_ok();
	return 0;
}
