// SPDX-License-Identifier: GPL-2.0
/*
 * POWER user registers for `itrace regs`: the pt_regs a task saved at
 * its last kernel entry, under gdb's names (nip msr lr ctr cr xer, then
 * r0..r31, orig_r3 and the vector it entered by). Reads only: any
 * context. Arguments (ELFv2): r3..r8 at a function's entry.
 */
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>
#include <asm/syscall.h>
#include "core/arch.h"

static const char *const gpr_names[32] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23",
	"r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31",
};

/* nip msr lr ctr cr xer, 32 gprs, orig_r3, trap */
static_assert(6 + 32 + 2 <= ITRACE_REGS_MAX);

const char *const itrace_arch_arg_regs[6] = {
	"r3", "r4", "r5", "r6", "r7", "r8",
};

static struct itrace_reg *put(struct itrace_reg *r, const char *name, u64 v)
{
	r->name = name;
	r->val = v;
	return r + 1;
}

unsigned int itrace_arch_regs(const struct pt_regs *regs,
			      struct itrace_reg *out)
{
	struct itrace_reg *r = out;
	unsigned int i;

	r = put(r, "nip", regs->nip);
	r = put(r, "msr", regs->msr);
	r = put(r, "lr", regs->link);
	r = put(r, "ctr", regs->ctr);
	r = put(r, "cr", regs->ccr);
	r = put(r, "xer", regs->xer);
	for (i = 0; i < 32; i++)
		r = put(r, gpr_names[i], regs->gpr[i]);
	r = put(r, "orig_r3", regs->orig_gpr3);
	r = put(r, "trap", regs->trap);
	return r - out;
}

/* ELFv2 (and the 32-bit ABI): r3, r4, r5; and r3 back. */
unsigned int itrace_arch_call_args(const struct pt_regs *regs,
				   unsigned int n, u64 *v)
{
	unsigned int i;

	for (i = 0; i < n && i < 3; i++)
		v[i] = regs->gpr[3 + i];
	return i;
}

unsigned int itrace_arch_return_value(const struct pt_regs *regs, u64 *v)
{
	v[0] = regs->gpr[3];
	return 1;
}

long itrace_arch_syscall_nr(struct pt_regs *regs)
{
	return syscall_get_nr(current, regs);
}

/*
 * sc returns a failure as a positive errno with CR0.SO set (scv as
 * -errno). Up to 6.1 the tracepoint gets the kernel's value before
 * that conversion; with the generic entry (7.3 here) after it.
 */
long itrace_arch_syscall_ret(struct pt_regs *regs, long ret)
{
	if (ret > 0 && !trap_is_scv(regs) && (regs->ccr & 0x10000000))
		return -ret;
	return ret;
}

unsigned long itrace_arch_return_address(struct pt_regs *regs)
{
	return regs->link;
}

/*
 * ELFv2: a function that sets up its TOC pointer starts with
 * addis r2,r12,hi (position-independent) or lis r2,hi (static), then
 * addi r2,r2,lo; calls from its own object enter past them (the local
 * entry point): the entry to probe. Own context: the words may be paged
 * in.
 */
unsigned long itrace_arch_func_entry(unsigned long addr)
{
	u32 w[2], hi;

	if (copy_from_user(w, (const void __user *)addr, sizeof(w)))
		return 0;
	hi = w[0] & 0xffff0000;
	if ((hi == 0x3c4c0000 || hi == 0x3c400000) &&
	    (w[1] & 0xffff0000) == 0x38420000)
		return 8;
	return 0;
}
