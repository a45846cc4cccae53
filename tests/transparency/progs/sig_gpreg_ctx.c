// SPDX-License-Identifier: GPL-2.0
/*
 * sig_gpreg_ctx: a handler edits general-purpose registers in its
 * ucontext and main reads them back from asm. main's asm sets registers
 * to known values, raises SIGUSR1 by a raw system call and stores the
 * registers after it. The handler rewrites the system call's return
 * value (kill's 0 becomes 1000 + round), a callee-saved register, and
 * registers the system call exit would otherwise own (x86: rcx and
 * r11, which only an iret exit can restore, and the carry flag; POWER:
 * ctr and xer's CA), and leaves one register alone. 10 rounds.
 *
 * Catches: a tracer that restores registers of its own at sigreturn
 * (from before the handler), or that lets the kernel take the fast
 * system call exit that drops rcx/r11 (x86) or ctr/xer (POWER).
 */
#include "../tt.h"
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <ucontext.h>

static volatile int round_no, handled;

struct regs {
	unsigned long ret, edited, kept, a, b, flag;
};

#if defined(__x86_64__)
static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;

	(void)sig;
	(void)si;
	handled++;
	g[REG_RAX] = 1000 + round_no;
	g[REG_R12] = 0x1200 + round_no;
	g[REG_RCX] = 0xc000 + round_no;
	g[REG_R11] = 0xb000 + round_no;
	g[REG_EFL] |= 1;	/* CF */
}

static void round_trip(struct regs *r)
{
	unsigned long rax = SYS_kill, r12 = 0x12, r13 = 0x13, rcx, r11;
	unsigned char cf;

	asm volatile("mov %[v12], %%r12\n\t"
		     "mov %[v13], %%r13\n\t"
		     "clc\n\t"
		     "syscall\n\t"
		     "setc %[cf]\n\t"
		     "mov %%r12, %[v12]\n\t"
		     "mov %%r13, %[v13]\n\t"
		     "mov %%rcx, %[rcx]\n\t"
		     "mov %%r11, %[r11]"
		     : "+a"(rax), [v12] "+m"(r12), [v13] "+m"(r13),
		       [rcx] "=m"(rcx), [r11] "=m"(r11), [cf] "=m"(cf)
		     : "D"((long)getpid()), "S"((long)SIGUSR1)
		     : "rcx", "r11", "r12", "r13", "memory", "cc");
	r->ret = rax;
	r->edited = r12;
	r->kept = r13;
	r->a = rcx;
	r->b = r11;
	r->flag = cf;
}
#define NAMES	"rax r12 r13 rcx r11 CF"

#elif defined(__powerpc64__)
#include <asm/ptrace.h>

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	unsigned long *g = ((ucontext_t *)ctx)->uc_mcontext.gp_regs;

	(void)sig;
	(void)si;
	handled++;
	g[PT_R3] = 1000 + round_no;
	g[14] = 0x1200 + round_no;
	g[PT_CTR] = 0xc000 + round_no;
	g[PT_XER] |= 1UL << 29;		/* CA */
	g[PT_CCR] &= ~(1UL << 28);	/* cr0.SO: no error */
}

static void round_trip(struct regs *r)
{
	register unsigned long r3 asm("r3") = getpid();
	register unsigned long r4 asm("r4") = SIGUSR1;
	register unsigned long r0 asm("r0") = SYS_kill;
	unsigned long r14 = 0x14, r15 = 0x15, ctr, xer;

	asm volatile("ld 14, %[v14]\n\t"
		     "ld 15, %[v15]\n\t"
		     "li 9, 0\n\t"
		     "mtxer 9\n\t"
		     "sc\n\t"
		     "std 14, %[v14]\n\t"
		     "std 15, %[v15]\n\t"
		     "mfctr 9\n\t"
		     "std 9, %[ctr]\n\t"
		     "mfxer 9\n\t"
		     "std 9, %[xer]"
		     : "+r"(r3), "+r"(r4), "+r"(r0), [v14] "+m"(r14),
		       [v15] "+m"(r15), [ctr] "=m"(ctr), [xer] "=m"(xer)
		     :
		     : "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
		       "r14", "r15", "cr0", "ctr", "xer", "memory");
	r->ret = r3;
	r->edited = r14;
	r->kept = r15;
	r->a = ctr;
	r->b = 0xb000 + round_no;	/* no second such register */
	r->flag = (xer >> 29) & 1;
}
#define NAMES	"r3 r14 r15 ctr - CA"
#endif

TT_MAIN
{
	struct regs r;
	int bad = 0;

	tt_handle(SIGUSR1, on_usr1, 0);
	for (round_no = 0; round_no < 10; round_no++) {
		round_trip(&r);
		bad += r.ret != 1000UL + round_no;
		bad += r.edited != 0x1200UL + round_no;
		bad += r.kept != 0x13 && r.kept != 0x15;
		bad += r.a != 0xc000UL + round_no;
		bad += r.b != 0xb000UL + round_no;
		bad += r.flag != 1;
		if (round_no == 9)
			tt_say("last round (%s): %#lx %#lx %#lx %#lx %#lx %lu\n",
			       NAMES, r.ret, r.edited, r.kept, r.a, r.b, r.flag);
	}
	tt_say("handled: %d, registers not as the handler left them: %d\n",
	       handled, bad);
	tt_check(handled == 10 && bad == 0);
	tt_ok();
	return 0;
}
