// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and decoding the instruction a step trap just ran, in the #DB
 * notifier (IRQs off, page faults disabled: a page is never faulted in).
 * The common case is two 8-byte user loads and a hit in this CPU's
 * decoder memo (insn_cache.h); it replaced a 15-byte copy_from_user_nmi()
 * and a full decode per trap, which cost as much again as the bare trap
 * (make bench, docs/BENCH.md). An instruction within 16 bytes of an
 * unreadable page takes the byte copy and the plain decoder. What was
 * decoded is noted in the slot's code memo (lib/codememo.h: the
 * console's `log -i` shows it), when the caller gives one.
 */
#include <linux/errno.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include "lib/codememo.h"
#include "lib/insn_cache.h"
#include "x86.h"

static struct itrace_x86_dcache __percpu *dcache;

int itrace_x86_fetch_init(void)
{
	dcache = __alloc_percpu(sizeof(*dcache) * ITRACE_X86_DCACHE,
				__alignof__(*dcache));
	return dcache ? 0 : -ENOMEM;
}

void itrace_x86_fetch_exit(void)
{
	free_percpu(dcache);
	dcache = NULL;
}

static noinline bool decode_short(struct itrace_code_memo *memo,
				  unsigned long ip, enum itrace_x86_mode mode,
				  struct itrace_x86_insn *d)
{
	u64 w[2] = { 0, 0 };
	u8 *buf = (u8 *)w;
	unsigned long left;

	left = copy_from_user_nmi(buf, (const void __user *)ip,
				  ITRACE_X86_MAX_INSN);
	if (left >= ITRACE_X86_MAX_INSN ||
	    itrace_x86_decode(buf, ITRACE_X86_MAX_INSN - left, mode, d))
		return false;
	if (memo)
		itrace_code_note(memo, ip, w[0], w[1], d->len);
	return true;
}

/*
 * The 16 bytes at @ip are loaded as two words straight into registers
 * (no buffer: the kernel's automatic zeroing of stack variables would
 * cost more than the loads).
 */
bool itrace_x86_decode_user(struct itrace_code_memo *memo,
			    struct pt_regs *regs, unsigned long ip,
			    struct itrace_x86_insn *d)
{
	enum itrace_x86_mode mode = user_64bit_mode(regs) ?
				    ITRACE_X86_MODE64 : ITRACE_X86_MODE32;
	const u64 __user *p = (const u64 __user *)ip;
	u64 w0, w1;

	pagefault_disable();
	if (!user_access_begin(p, 2 * sizeof(*p)))
		goto short_read;
	unsafe_get_user(w0, p, fault);
	unsafe_get_user(w1, p + 1, fault);
	user_access_end();
	pagefault_enable();
	if (itrace_x86_decode_cached(this_cpu_ptr(dcache), ip, w0, w1, mode, d))
		return false;
	if (memo)
		itrace_code_note(memo, ip, w0, w1, d->len);
	return true;
fault:
	user_access_end();
short_read:
	pagefault_enable();
	return decode_short(memo, ip, mode, d);
}
