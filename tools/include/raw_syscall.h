/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw system calls for the user programs the VM runs (the test
 * programs, the transparency suite, the bench's), inlined at the call
 * site: a traced window that makes them runs only the program's own
 * code, not libc's wrappers, so the VM tests can tell every instruction
 * it ran. Errors come back as they are (no errno). Userspace only;
 * found through -I tools/include.
 */
#ifndef _TP_RAW_SYSCALL_H
#define _TP_RAW_SYSCALL_H

#include <sys/syscall.h>

/*
 * raw_syscall3 returns what the instruction leaves in the return
 * register: on POWER a failure's errno positive, with CR0.SO set.
 * raw_syscall3_kret returns the kernel's own return value, -errno on a
 * failure, on every arch (as kdb-itrace's system-call records hold it).
 */
#if defined(__x86_64__)
#define raw_syscall3_kret raw_syscall3
static inline __attribute__((always_inline)) long raw_syscall3(long nr,
							       long a, long b,
							       long c)
{
	long ret;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "0"(nr), "D"(a), "S"(b), "d"(c)
		     : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__powerpc64__)
static inline __attribute__((always_inline)) long raw_syscall3(long nr,
							       long a, long b,
							       long c)
{
	register long r0 asm("r0") = nr;
	register long r3 asm("r3") = a;
	register long r4 asm("r4") = b;
	register long r5 asm("r5") = c;

	asm volatile("sc"
		     : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
		     :
		     : "r6", "r7", "r8", "r9", "r10", "r11", "r12", "cr0",
		       "ctr", "memory");
	return r3;
}

static inline __attribute__((always_inline)) long raw_syscall3_kret(long nr,
								    long a,
								    long b,
								    long c)
{
	register long r0 asm("r0") = nr;
	register long r3 asm("r3") = a;
	register long r4 asm("r4") = b;
	register long r5 asm("r5") = c;

	asm volatile("sc\n\tbns+ 1f\n\tneg 3,3\n1:"
		     : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
		     :
		     : "r6", "r7", "r8", "r9", "r10", "r11", "r12", "cr0",
		       "ctr", "memory");
	return r3;
}
#else
#error "raw_syscall3: no raw system call for this architecture"
#endif

#endif /* _TP_RAW_SYSCALL_H */
