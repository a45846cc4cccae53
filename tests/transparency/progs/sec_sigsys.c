// SPDX-License-Identifier: GPL-2.0
/*
 * sec_sigsys: a seccomp filter answers getppid() with SECCOMP_RET_TRAP:
 * the call is not run and a SIGSYS is sent instead; the handler checks
 * si_code SYS_SECCOMP, si_syscall == __NR_getppid and si_call_addr, and
 * sets the call's return value in its ucontext (x86 rax; POWER r3, with
 * CR0.SO cleared) to 4321. 5 calls; prints what they returned. Other
 * system calls are allowed.
 *
 * Catches: a tracer whose system-call stepping misses that the call
 * was skipped (so it reports or resumes at a wrong ip), or whose
 * sigreturn handling loses the handler's change to the return register.
 */
#include "../tt_sec.h"
#include <linux/audit.h>

#if defined(__x86_64__)
#define ARCH		AUDIT_ARCH_X86_64
#define SET_RET(uc, v)	((uc)->uc_mcontext.gregs[REG_RAX] = (v))
#elif defined(__powerpc64__)
#define ARCH		AUDIT_ARCH_PPC64LE
#define SET_RET(uc, v)	((uc)->uc_mcontext.gp_regs[PT_R3] = (v), \
			 (uc)->uc_mcontext.gp_regs[PT_CCR] &= ~0x10000000UL)
#endif

#ifndef SYS_SECCOMP
#define SYS_SECCOMP	1	/* si_code of a seccomp SIGSYS */
#endif

static volatile int sigsys, bad;

static void on_sys(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	sigsys++;
	if (si->si_code != SYS_SECCOMP || si->si_syscall != SYS_getppid ||
	    si->si_arch != ARCH || !si->si_call_addr)
		bad++;
	SET_RET((ucontext_t *)ctx, 4321);
}

TT_MAIN
{
	struct sock_filter f[] = {
		TT_SEC_LD(arch),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		TT_SEC_RET(SECCOMP_RET_ALLOW),
		TT_SEC_LD(nr),
		TT_SEC_IS_RET(SYS_getppid, SECCOMP_RET_TRAP),
		TT_SEC_RET(SECCOMP_RET_ALLOW),
	};
	long r, wrong = 0;
	int i;

	tt_handle(SIGSYS, on_sys, 0);
	tt_sec_install(f);

	for (i = 0; i < 5; i++) {
		r = syscall(SYS_getppid);
		if (r != 4321)
			wrong++;
	}
	tt_say("getppid returned 4321 each time: %s (last %ld)\n",
	       wrong ? "no" : "yes", r);
	tt_say("SIGSYS: %d, bad siginfo: %d\n", sigsys, bad);
	tt_check(!wrong && sigsys == 5 && !bad);
	tt_ok();
	return 0;
}
