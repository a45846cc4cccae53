// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 user registers for `itrace regs`: the pt_regs a task saved at
 * its last kernel entry, under gdb's names. Reads only: any context.
 * And where a call returns to, at a function's entry (`func`), and
 * which registers carry its arguments (SysV AMD64 ABI).
 */
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>
#include <asm/syscall.h>
#include "core/arch.h"

#define R(n, f)	{ n, offsetof(struct pt_regs, f) }

static const struct {
	const char *name;
	size_t off;
} x86_regs[] = {
	R("rip", ip), R("rsp", sp), R("rbp", bp), R("eflags", flags),
	R("rax", ax), R("rbx", bx), R("rcx", cx), R("rdx", dx),
	R("rsi", si), R("rdi", di), R("r8", r8), R("r9", r9),
	R("r10", r10), R("r11", r11), R("r12", r12), R("r13", r13),
	R("r14", r14), R("r15", r15), R("orig_rax", orig_ax), R("cs", cs),
	R("ss", ss),
};

static_assert(ARRAY_SIZE(x86_regs) <= ITRACE_REGS_MAX);

const char *const itrace_arch_arg_regs[6] = {
	"rdi", "rsi", "rdx", "rcx", "r8", "r9",
};

unsigned int itrace_arch_regs(const struct pt_regs *regs,
			      struct itrace_reg *out)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(x86_regs); i++) {
		out[i].name = x86_regs[i].name;
		out[i].val = *(const unsigned long *)((const char *)regs +
						      x86_regs[i].off);
	}
	return i;
}

/*
 * SysV AMD64: rdi, rsi, rdx, and rax back. A 32-bit task passes its
 * arguments on the stack (not read in a trap) and returns in eax.
 */
unsigned int itrace_arch_call_args(const struct pt_regs *regs,
				   unsigned int n, u64 *v)
{
	const unsigned long a[3] = { regs->di, regs->si, regs->dx };
	unsigned int i;

	if (!user_64bit_mode((struct pt_regs *)regs))
		return 0;
	for (i = 0; i < n && i < ARRAY_SIZE(a); i++)
		v[i] = a[i];
	return i;
}

unsigned int itrace_arch_return_value(const struct pt_regs *regs, u64 *v)
{
	v[0] = user_64bit_mode((struct pt_regs *)regs) ? regs->ax :
						       (u32)regs->ax;
	return 1;
}

long itrace_arch_syscall_nr(struct pt_regs *regs)
{
	return syscall_get_nr(current, regs);
}

long itrace_arch_syscall_ret(struct pt_regs *regs, long ret)
{
	return ret;
}

/* At a function's entry the return address is the word at rsp. */
unsigned long itrace_arch_return_address(struct pt_regs *regs)
{
	unsigned long ret;

	if (get_user(ret, (unsigned long __user *)regs->sp))
		return 0;
	return ret;
}
