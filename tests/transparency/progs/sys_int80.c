// SPDX-License-Identifier: GPL-2.0
/*
 * sys_int80: the other system-call instructions. x86: the 32-bit
 * int $0x80 gate from 64-bit code: getpid (nr 20) compared with
 * getpid(), and write (nr 4) of a line to stdout (its buffer is in the
 * non-PIE static image, below 4 GiB). A kernel without IA32 emulation
 * answers with SIGSEGV: the program then prints that instead (fixed per
 * machine). POWER: getpid with a raw `sc`, and with `scv 0` when the
 * CPU and kernel offer it (AT_HWCAP2 PPC_FEATURE2_SCV).
 *
 * Catches: a tracer whose system-call handling only knows `syscall` /
 * `sc` and so mis-steps int $0x80 / scv (wrong ip after it, a step trap
 * lost across it, a wrong return value).
 */
#include "../tt_sc.h"
#include <setjmp.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
static sigjmp_buf env;
static const char line[] = "int80 write: this line\n";

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

static long int80(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("int $0x80"
		     : "=a"(ret) : "0"(nr), "b"(a), "c"(b), "d"(c)
		     : "memory");
	return ret;
}

TT_MAIN
{
	long pid, n;

	tt_handle_plain(SIGSEGV, on_segv, 0);
	if (sigsetjmp(env, 1)) {
		tt_say("int 0x80: not available (SIGSEGV)\n");
		tt_ok();
		return 0;
	}
	pid = int80(20, 0, 0, 0);		/* __NR_getpid (i386) */
	tt_say("int 0x80 getpid equal: %s\n", pid == getpid() ? "yes" : "no");
	n = int80(4, 1, (long)line, sizeof(line) - 1);	/* __NR_write */
	tt_say("int 0x80 write returned its length: %s\n",
	       n == sizeof(line) - 1 ? "yes" : "no");
	tt_check(pid == getpid() && n == sizeof(line) - 1);
	tt_ok();
	return 0;
}
#elif defined(__powerpc64__)
#ifndef PPC_FEATURE2_SCV
#define PPC_FEATURE2_SCV	0x00100000
#endif

TT_MAIN
{
	long pid = raw_syscall3(SYS_getpid, 0, 0, 0);

	tt_say("sc getpid equal: %s\n", pid == getpid() ? "yes" : "no");
	tt_check(pid == getpid());
	if (getauxval(AT_HWCAP2) & PPC_FEATURE2_SCV) {
		pid = tt_scv0(SYS_getpid);
		tt_say("scv getpid equal: %s\n",
		       pid == getpid() ? "yes" : "no");
		tt_check(pid == getpid());
	} else {
		tt_say("scv: not available\n");
	}
	tt_ok();
	return 0;
}
#endif
