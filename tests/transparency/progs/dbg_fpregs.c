// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_fpregs: a debugger reads and writes the program's floating-point
 * and vector registers (PTRACE_GETREGSET / SETREGSET). The child
 * (PTRACE_TRACEME) loads known values into registers and, in the same
 * asm block, stops itself with a raw kill(SIGSTOP) and stores the
 * registers back after it: x86 xmm0 and xmm8 (NT_PRFPREG, the fxsave
 * image); POWER f14 and f30 (NT_PRFPREG) and the vector register v20
 * (NT_PPC_VMX). The parent checks the values it reads and writes new
 * ones; the child prints what came back from its registers and exits 0
 * if they are the parent's.
 *
 * Catches: a tracer that touches the task's FP/vector state (its own
 * handler using, saving or restoring it) between the debugger's write
 * and the task's resumption, or that makes a stopped task's live
 * registers and its saved ones disagree.
 */
#include "../tt_dbg.h"
#include <sys/syscall.h>

static const double in[2] = { 1.5, -2.25 };
static const double set[2] = { 3.75, 1e10 };
static double out[2];

#if defined(__x86_64__)
static void fp_stop(long pid)
{
	long nr = SYS_kill;

	asm volatile("movsd (%[in]), %%xmm0\n"
		     "movsd 8(%[in]), %%xmm8\n"
		     "syscall\n"
		     "movsd %%xmm0, (%[out])\n"
		     "movsd %%xmm8, 8(%[out])\n"
		     : "+a"(nr)
		     : "D"(pid), "S"((long)SIGSTOP), [in] "r"(in),
		       [out] "r"(out)
		     : "rcx", "r11", "xmm0", "xmm8", "memory");
}

static int regs_fp(pid_t pid)
{
	struct user_fpregs_struct f;
	struct iovec iov = { &f, sizeof(f) };
	double v[2];

	tt_sys(ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRFPREG, &iov));
	memcpy(&v[0], &f.xmm_space[0], 8);	/* xmm0 */
	memcpy(&v[1], &f.xmm_space[32], 8);	/* xmm8 */
	tt_say("parent: read xmm0 %g, xmm8 %g\n", v[0], v[1]);
	memcpy(&f.xmm_space[0], &set[0], 8);
	memcpy(&f.xmm_space[32], &set[1], 8);
	tt_sys(ptrace(PTRACE_SETREGSET, pid, (void *)NT_PRFPREG, &iov));
	return v[0] == in[0] && v[1] == in[1];
}

static int vec_ok(void)
{
	return 1;
}
#elif defined(__powerpc64__)
static const unsigned char vin[16] __attribute__((aligned(16))) = {
	0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
	0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f
};
static unsigned char vout[16] __attribute__((aligned(16)));

static void fp_stop(long pid)
{
	register long r0 asm("r0") = SYS_kill;
	register long r3 asm("r3") = pid;
	register long r4 asm("r4") = SIGSTOP;

	asm volatile("lfd 14, 0(%[in])\n"
		     "lfd 30, 8(%[in])\n"
		     "lvx 20, 0, %[vin]\n"
		     "sc\n"
		     "stfd 14, 0(%[out])\n"
		     "stfd 30, 8(%[out])\n"
		     "stvx 20, 0, %[vout]\n"
		     : "+r"(r0), "+r"(r3), "+r"(r4)
		     : [in] "b"(in), [out] "b"(out), [vin] "b"(vin),
		       [vout] "b"(vout)
		     : "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
		       "cr0", "ctr", "fr14", "fr30", "v20", "memory");
}

static int regs_fp(pid_t pid)
{
	double f[33];
	unsigned char vr[34][16];
	struct iovec iov = { f, sizeof(f) };
	int i, ok;

	tt_sys(ptrace(PTRACE_GETREGSET, pid, (void *)NT_PRFPREG, &iov));
	tt_say("parent: read f14 %g, f30 %g\n", f[14], f[30]);
	ok = f[14] == in[0] && f[30] == in[1];
	f[14] = set[0];
	f[30] = set[1];
	tt_sys(ptrace(PTRACE_SETREGSET, pid, (void *)NT_PRFPREG, &iov));

	iov.iov_base = vr;
	iov.iov_len = sizeof(vr);
	tt_sys(ptrace(PTRACE_GETREGSET, pid, (void *)NT_PPC_VMX, &iov));
	ok &= !memcmp(vr[20], vin, 16);
	tt_say("parent: read v20 as loaded: %s\n",
	       memcmp(vr[20], vin, 16) ? "no" : "yes");
	for (i = 0; i < 16; i++)
		vr[20][i] = 0x80 + i;
	tt_sys(ptrace(PTRACE_SETREGSET, pid, (void *)NT_PPC_VMX, &iov));
	return ok;
}

static int vec_ok(void)
{
	int i;

	for (i = 0; i < 16; i++)
		if (vout[i] != 0x80 + i)
			return 0;
	tt_say("child: v20 came back as the parent set it\n");
	return 1;
}
#endif

TT_MAIN
{
	int status, read_ok;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(10);
		fp_stop(getpid());
		tt_say("child: registers came back as %g and %g\n", out[0],
		       out[1]);
		_exit(out[0] == set[0] && out[1] == set[1] && vec_ok() ?
		      0 : 11);
	}
	tt_wait_stop(pid, SIGSTOP);
	read_ok = regs_fp(pid);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("parent: child", status);
	tt_check(read_ok);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
