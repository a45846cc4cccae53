// SPDX-License-Identifier: GPL-2.0
/*
 * sec_arch: a seccomp filter that checks the arch field first, as every
 * careful filter must: any ABI but the native one gets ERRNO 1, a call
 * number with the x32 bit ERRNO 2, getppid ERRNO 3, everything else is
 * allowed. x86: getppid through `syscall` (3); getppid through
 * int $0x80, the i386 ABI (1, as -EPERM in eax; or a fixed SIGSEGV line
 * without IA32 emulation); an x32 getpid (2, whether or not the kernel
 * has x32). POWER: getppid through glibc, a raw `sc` (3 with CR0.SO set)
 * and `scv 0` where there is one (-3). Native getpid still works.
 *
 * Catches: a tracer whose system-call handling changes how the kernel
 * sees the entry (the ABI, the number) or the error convention of the
 * return (sc's CR0.SO vs scv's negative value) for a call seccomp
 * refused.
 */
#include "../tt_sc.h"
#include "../tt_sec.h"
#include <linux/audit.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/auxv.h>

#if defined(__x86_64__)
#define ARCH		AUDIT_ARCH_X86_64
#define X32_BIT		0x40000000
#elif defined(__powerpc64__)
#define ARCH		AUDIT_ARCH_PPC64LE
#define X32_BIT		0x40000000	/* no such ABI: never set */
#endif

static void install(void)
{
	struct sock_filter f[] = {
		TT_SEC_LD(arch),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		TT_SEC_RET(SECCOMP_RET_ERRNO | 1),
		TT_SEC_LD(nr),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, X32_BIT, 0, 1),
		TT_SEC_RET(SECCOMP_RET_ERRNO | 2),
		TT_SEC_IS_RET(SYS_getppid, SECCOMP_RET_ERRNO | 3),
		TT_SEC_RET(SECCOMP_RET_ALLOW),
	};

	tt_sec_install(f);
}

#if defined(__x86_64__)
static sigjmp_buf env;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

static void other_abis(void)
{
	long r;

	r = raw_syscall3(X32_BIT | 39, 0, 0, 0);	/* x32 getpid */
	tt_say("x32 getpid: %ld\n", r);
	tt_check(r == -2);
	tt_handle_plain(SIGSEGV, on_segv, 0);
	if (sigsetjmp(env, 1)) {
		tt_say("int 0x80: not available (SIGSEGV)\n");
		return;
	}
	asm volatile("int $0x80" : "=a"(r) : "0"(64L) : "memory");
	tt_say("int 0x80 getppid (i386 ABI): %ld\n", r);
	tt_check(r == -1);
}
#elif defined(__powerpc64__)
#ifndef PPC_FEATURE2_SCV
#define PPC_FEATURE2_SCV	0x00100000
#endif

static void other_abis(void)
{
	register long r0 asm("r0") = SYS_getppid;
	register long r3 asm("r3");
	unsigned long cr;
	long r;

	asm volatile("sc\n\tmfcr %1"
		     : "+r"(r0), "=r"(cr), "=r"(r3)
		     :
		     : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11",
		       "r12", "cr0", "ctr", "xer", "memory");
	tt_say("sc getppid: r3 %ld, CR0.SO %s\n", r3,
	       cr & 0x10000000 ? "set" : "clear");
	tt_check(r3 == 3 && (cr & 0x10000000));
	if (!(getauxval(AT_HWCAP2) & PPC_FEATURE2_SCV)) {
		tt_say("scv: not available\n");
		return;
	}
	r = tt_scv0(SYS_getppid);
	tt_say("scv getppid: r3 %ld\n", r);
	tt_check(r == -3);
}
#endif

TT_MAIN
{
	long r;

	if (tt_sec_lacks(SECCOMP_RET_ERRNO))
		return 0;
	install();
	errno = 0;
	r = syscall(SYS_getppid);
	tt_say("getppid: %ld, errno %d\n", r, errno);
	tt_check(r == -1 && errno == 3);
	other_abis();
	tt_say("native getpid still works: %s\n",
	       syscall(SYS_getpid) == getpid() ? "yes" : "no");
	tt_check(syscall(SYS_getpid) == getpid());
	tt_ok();
	return 0;
}
