/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw system-call instructions in the program's own code, no glibc
 * wrapper around them: what programs share that want the instruction
 * itself stepped, stopped at or answered by a debugger (dbg_setregs,
 * dbg_sysemu, sec_arch, sys_int80). raw_syscall3() is the VM test
 * programs' own (tools/include/raw_syscall.h): x86 `syscall` or POWER `sc`,
 * the result as rax / r3 left it (x86: -errno on an error; POWER: the
 * errno itself, with CR0.SO set). tt_scv0() is POWER's `scv 0` (-errno
 * on an error), for a kernel and CPU that offer it (AT_HWCAP2 SCV).
 */
#ifndef _TT_SC_H
#define _TT_SC_H

#include "tt.h"
#include "raw_syscall.h"

#if defined(__powerpc64__)
static inline long tt_scv0(long nr)
{
	register long r0 asm("r0") = nr;
	register long r3 asm("r3");

	asm volatile(".machine push\n\t"
		     ".machine power9\n\t"
		     "scv 0\n\t"
		     ".machine pop"
		     : "+r"(r0), "=r"(r3)
		     :
		     : "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11",
		       "r12", "lr", "ctr", "xer", "cr0", "cr1", "cr5", "cr6",
		       "cr7", "memory");
	return r3;
}
#endif

#endif /* _TT_SC_H */
