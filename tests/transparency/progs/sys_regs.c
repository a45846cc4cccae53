// SPDX-License-Identifier: GPL-2.0
/*
 * sys_regs: every register around a raw system call instruction, set
 * and read by hand-written assembly. x86: all general registers get
 * patterns (rcx and r11 junk) before `syscall`; after it every one but
 * rax, rcx and r11 must be unchanged, rcx must hold the address after
 * the instruction and r11 the RFLAGS it ran with (pushfq's image just
 * before; no TF), and RFLAGS after equals RFLAGS before. The int
 * arguments' upper halves are junk too (the kernel uses the low 32
 * bits). POWER: patterns in r14-r31, LR, CR2-CR4 and junk in r9-r12 and
 * CTR before `sc` (and `scv 0` where AT_HWCAP2 offers it); after it
 * r14-r31, CR2-CR4, r13 and (for sc) LR must be unchanged, and (for
 * sc) cr0.SO clear on success. Each with getppid (compared with
 * getppid()), a write of a line, and a failing close (-EBADF: rax on
 * x86; cr0.SO and EBADF in r3 for sc, -EBADF for scv). 10 patterns.
 *
 * Catches: a tracer whose stepping leaks into or disturbs registers
 * around a system call: TF showing in the RFLAGS copy in r11, a wrong
 * rcx, a register it uses as scratch when emulating or stepping the
 * instruction, or a CR field / LR it changes.
 */
#include "../tt.h"
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

static const char line[] = "raw write: this line\n";
static uint64_t seed = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

#if defined(__x86_64__)
/*
 * in: rax rdi rsi rdx r10 r8 r9 rbx rbp r12 r13 r14 r15 rcx r11
 * out: the same after the syscall, then flags before, flags after,
 * the address after the syscall instruction
 */
enum { NIN = 15, FBEFORE = 15, FAFTER, NEXTIP, NOUT };
void tt_sysregs(const uint64_t *in, uint64_t *out);
asm(".text\n"
    ".globl tt_sysregs\n"
    ".type tt_sysregs, @function\n"
    "tt_sysregs:\n\t"
    "push %rbx\n\t"
    "push %rbp\n\t"
    "push %r12\n\t"
    "push %r13\n\t"
    "push %r14\n\t"
    "push %r15\n\t"
    "push %rsi\n\t"
    "pushfq\n\t"
    "pop %rax\n\t"
    "mov %rax, 15*8(%rsi)\n\t"
    "mov 7*8(%rdi), %rbx\n\t"
    "mov 8*8(%rdi), %rbp\n\t"
    "mov 9*8(%rdi), %r12\n\t"
    "mov 10*8(%rdi), %r13\n\t"
    "mov 11*8(%rdi), %r14\n\t"
    "mov 12*8(%rdi), %r15\n\t"
    "mov 13*8(%rdi), %rcx\n\t"
    "mov 14*8(%rdi), %r11\n\t"
    "mov 2*8(%rdi), %rsi\n\t"
    "mov 3*8(%rdi), %rdx\n\t"
    "mov 4*8(%rdi), %r10\n\t"
    "mov 5*8(%rdi), %r8\n\t"
    "mov 6*8(%rdi), %r9\n\t"
    "mov 0*8(%rdi), %rax\n\t"
    "mov 1*8(%rdi), %rdi\n\t"
    "syscall\n"
    "1:\n\t"
    "pushfq\n\t"
    "push %rdi\n\t"
    "mov 16(%rsp), %rdi\n\t"
    "mov %rax, 0*8(%rdi)\n\t"
    "pop %rax\n\t"
    "mov %rax, 1*8(%rdi)\n\t"
    "pop %rax\n\t"
    "mov %rax, 16*8(%rdi)\n\t"
    "mov %rsi, 2*8(%rdi)\n\t"
    "mov %rdx, 3*8(%rdi)\n\t"
    "mov %r10, 4*8(%rdi)\n\t"
    "mov %r8, 5*8(%rdi)\n\t"
    "mov %r9, 6*8(%rdi)\n\t"
    "mov %rbx, 7*8(%rdi)\n\t"
    "mov %rbp, 8*8(%rdi)\n\t"
    "mov %r12, 9*8(%rdi)\n\t"
    "mov %r13, 10*8(%rdi)\n\t"
    "mov %r14, 11*8(%rdi)\n\t"
    "mov %r15, 12*8(%rdi)\n\t"
    "mov %rcx, 13*8(%rdi)\n\t"
    "mov %r11, 14*8(%rdi)\n\t"
    "lea 1b(%rip), %rax\n\t"
    "mov %rax, 17*8(%rdi)\n\t"
    "pop %rsi\n\t"
    "pop %r15\n\t"
    "pop %r14\n\t"
    "pop %r13\n\t"
    "pop %r12\n\t"
    "pop %rbp\n\t"
    "pop %rbx\n\t"
    "ret\n\t"
    ".size tt_sysregs, .-tt_sysregs\n");

static int bad_regs, bad_rcx, bad_r11, tf_r11, bad_flags;

/* one call: nr and up to 3 arguments, the rest junk; rax back */
static long call(long nr, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t in[NIN], out[NOUT];
	int i;

	for (i = 0; i < NIN; i++)
		in[i] = rnd();
	in[0] = nr;
	in[1] = a;
	in[2] = b;
	in[3] = c;
	tt_sysregs(in, out);
	for (i = 1; i < 13; i++)
		bad_regs += out[i] != in[i];
	bad_rcx += out[13] != out[NEXTIP];
	bad_r11 += out[14] != out[FBEFORE];
	tf_r11 += !!(out[14] & 0x100);
	bad_flags += out[FAFTER] != out[FBEFORE];
	return out[0];
}

static void arch_run(void)
{
	const uint64_t junk = 0xdead5a5a00000000ull;
	long r, n = sizeof(line) - 1;
	int i, wrong = 0, writes = 0;

	for (i = 0; i < 10; i++) {
		r = call(SYS_getppid, rnd(), rnd(), rnd());
		wrong += r != getppid();
		/* fd and count's upper halves: unsigned int, size_t */
		if (i % 5 == 0)
			writes += call(SYS_write, junk | 1, (uintptr_t)line,
				       n) == n;
		r = call(SYS_close, junk | 0x7ffffff0u, rnd(), rnd());
		wrong += r != -EBADF;
	}
	tt_say("syscall: results right: %s, 2 writes: %s\n",
	       wrong ? "no" : "yes", writes == 2 ? "yes" : "no");
	tt_say("syscall: other registers kept: %s, rcx = next ip: %s, "
	       "r11 = rflags: %s, TF in r11: %s, rflags kept: %s\n",
	       bad_regs ? "no" : "yes", bad_rcx ? "no" : "yes",
	       bad_r11 ? "no" : "yes", tf_r11 ? "yes" : "no",
	       bad_flags ? "no" : "yes");
	tt_check(!wrong && writes == 2);
	tt_check(!bad_regs && !bad_rcx && !bad_r11 && !tf_r11 && !bad_flags);
}
#elif defined(__powerpc64__)
#ifndef PPC_FEATURE2_SCV
#define PPC_FEATURE2_SCV	0x00100000
#endif
/*
 * in: r0 (nr), r3-r8, r14-r31, lr, cr, ctr, r9-r12
 * out: r3, cr, lr, r13 after, r14-r31 after
 */
enum { IN_R14 = 7, IN_LR = 25, IN_CR, IN_CTR, IN_R9, NIN = IN_R9 + 4 };
enum { OUT_R3, OUT_CR, OUT_LR, OUT_R13, OUT_R14, NOUT = OUT_R14 + 18 };

#define SYSREGS(name, insn)						\
asm(".text\n"								\
    ".globl " #name "\n"						\
    ".type " #name ", @function\n"					\
    #name ":\n\t"							\
    "mflr 0\n\t"							\
    "std 0, 16(1)\n\t"							\
    "mfcr 0\n\t"							\
    "stw 0, 8(1)\n\t"							\
    "stdu 1, -256(1)\n\t"						\
    "std 14, 32(1)\n\tstd 15, 40(1)\n\tstd 16, 48(1)\n\t"		\
    "std 17, 56(1)\n\tstd 18, 64(1)\n\tstd 19, 72(1)\n\t"		\
    "std 20, 80(1)\n\tstd 21, 88(1)\n\tstd 22, 96(1)\n\t"		\
    "std 23, 104(1)\n\tstd 24, 112(1)\n\tstd 25, 120(1)\n\t"		\
    "std 26, 128(1)\n\tstd 27, 136(1)\n\tstd 28, 144(1)\n\t"		\
    "std 29, 152(1)\n\tstd 30, 160(1)\n\tstd 31, 168(1)\n\t"		\
    "std 4, 176(1)\n\t"							\
    "ld 14, 56(3)\n\tld 15, 64(3)\n\tld 16, 72(3)\n\t"			\
    "ld 17, 80(3)\n\tld 18, 88(3)\n\tld 19, 96(3)\n\t"			\
    "ld 20, 104(3)\n\tld 21, 112(3)\n\tld 22, 120(3)\n\t"		\
    "ld 23, 128(3)\n\tld 24, 136(3)\n\tld 25, 144(3)\n\t"		\
    "ld 26, 152(3)\n\tld 27, 160(3)\n\tld 28, 168(3)\n\t"		\
    "ld 29, 176(3)\n\tld 30, 184(3)\n\tld 31, 192(3)\n\t"		\
    "ld 0, 200(3)\n\tmtlr 0\n\t"					\
    "ld 0, 208(3)\n\tmtcrf 0xff, 0\n\t"					\
    "ld 0, 216(3)\n\tmtctr 0\n\t"					\
    "ld 9, 224(3)\n\tld 10, 232(3)\n\tld 11, 240(3)\n\t"		\
    "ld 12, 248(3)\n\t"							\
    "ld 4, 16(3)\n\tld 5, 24(3)\n\tld 6, 32(3)\n\t"			\
    "ld 7, 40(3)\n\tld 8, 48(3)\n\t"					\
    "ld 0, 0(3)\n\t"							\
    "ld 3, 8(3)\n\t"							\
    ".machine push\n\t.machine power9\n\t"				\
    insn "\n\t"								\
    ".machine pop\n\t"							\
    "ld 12, 176(1)\n\t"							\
    "std 3, 0(12)\n\t"							\
    "mfcr 0\n\tstd 0, 8(12)\n\t"					\
    "mflr 0\n\tstd 0, 16(12)\n\t"					\
    "std 13, 24(12)\n\t"						\
    "std 14, 32(12)\n\tstd 15, 40(12)\n\tstd 16, 48(12)\n\t"		\
    "std 17, 56(12)\n\tstd 18, 64(12)\n\tstd 19, 72(12)\n\t"		\
    "std 20, 80(12)\n\tstd 21, 88(12)\n\tstd 22, 96(12)\n\t"		\
    "std 23, 104(12)\n\tstd 24, 112(12)\n\tstd 25, 120(12)\n\t"		\
    "std 26, 128(12)\n\tstd 27, 136(12)\n\tstd 28, 144(12)\n\t"		\
    "std 29, 152(12)\n\tstd 30, 160(12)\n\tstd 31, 168(12)\n\t"		\
    "ld 14, 32(1)\n\tld 15, 40(1)\n\tld 16, 48(1)\n\t"			\
    "ld 17, 56(1)\n\tld 18, 64(1)\n\tld 19, 72(1)\n\t"			\
    "ld 20, 80(1)\n\tld 21, 88(1)\n\tld 22, 96(1)\n\t"			\
    "ld 23, 104(1)\n\tld 24, 112(1)\n\tld 25, 120(1)\n\t"		\
    "ld 26, 128(1)\n\tld 27, 136(1)\n\tld 28, 144(1)\n\t"		\
    "ld 29, 152(1)\n\tld 30, 160(1)\n\tld 31, 168(1)\n\t"		\
    "addi 1, 1, 256\n\t"						\
    "ld 0, 16(1)\n\t"							\
    "mtlr 0\n\t"							\
    "lwz 0, 8(1)\n\t"							\
    "mtcrf 0xff, 0\n\t"							\
    "blr\n\t"								\
    ".size " #name ", .-" #name "\n")

void tt_sysregs_sc(const uint64_t *in, uint64_t *out);
void tt_sysregs_scv(const uint64_t *in, uint64_t *out);
SYSREGS(tt_sysregs_sc, "sc");
SYSREGS(tt_sysregs_scv, "scv 0");

/* CR fields 2-4 (nonvolatile), and cr0.SO */
#define CR_KEPT		0x00fff000u
#define CR0_SO		0x10000000u

static int bad_regs, bad_lr, bad_cr, bad_r13;

/* one call; *so gets cr0.SO */
static long call(int scv, long nr, uint64_t a, uint64_t b, uint64_t c,
		 int *so)
{
	uint64_t in[NIN], out[NOUT], r13;
	int i;

	for (i = 0; i < NIN; i++)
		in[i] = rnd();
	in[0] = nr;
	in[1] = a;
	in[2] = b;
	in[3] = c;
	in[IN_CR] &= 0xffffffffu;
	asm("mr %0, 13" : "=r"(r13));
	if (scv)
		tt_sysregs_scv(in, out);
	else
		tt_sysregs_sc(in, out);
	for (i = 0; i < 18; i++)
		bad_regs += out[OUT_R14 + i] != in[IN_R14 + i];
	if (!scv)
		bad_lr += out[OUT_LR] != in[IN_LR];
	bad_cr += (out[OUT_CR] & CR_KEPT) != (in[IN_CR] & CR_KEPT);
	bad_r13 += out[OUT_R13] != r13;
	*so = !!(out[OUT_CR] & CR0_SO);
	return out[OUT_R3];
}

static void run(int scv, const char *what)
{
	long r, n = sizeof(line) - 1;
	int i, so, wrong = 0, writes = 0;

	bad_regs = bad_lr = bad_cr = bad_r13 = 0;
	for (i = 0; i < 10; i++) {
		/* cr0 is volatile for scv: its SO says nothing there */
		r = call(scv, SYS_getppid, rnd(), rnd(), rnd(), &so);
		wrong += r != getppid() || (so && !scv);
		if (i % 5 == 0)
			writes += call(scv, SYS_write, 1, (uintptr_t)line, n,
				       &so) == n && (!so || scv);
		r = call(scv, SYS_close, 0x7ffffff0u, rnd(), rnd(), &so);
		/* sc: cr0.SO and a positive errno; scv: -errno */
		wrong += scv ? r != -EBADF : !so || r != EBADF;
	}
	tt_say("%s: results and error convention right: %s, 2 writes: %s\n",
	       what, wrong ? "no" : "yes", writes == 2 ? "yes" : "no");
	tt_say("%s: r14-r31 kept: %s, cr2-cr4 kept: %s, r13 kept: %s, "
	       "lr kept: %s\n", what, bad_regs ? "no" : "yes",
	       bad_cr ? "no" : "yes", bad_r13 ? "no" : "yes",
	       scv ? "not promised" : bad_lr ? "no" : "yes");
	tt_check(!wrong && writes == 2);
	tt_check(!bad_regs && !bad_cr && !bad_r13 && !bad_lr);
}

static void arch_run(void)
{
	run(0, "sc");
	if (getauxval(AT_HWCAP2) & PPC_FEATURE2_SCV)
		run(1, "scv");
	else
		tt_say("scv: not available\n");
}
#endif

TT_MAIN
{
	arch_run();
	tt_ok();
	return 0;
}
