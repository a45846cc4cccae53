// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction words a powerpc trap looks at, read one aligned
 * 64-byte block at a time. Each user read costs a kernel uaccess flush
 * on CPUs that need one (qemu's pseries: a displacement flush of the L1
 * data cache), so per-word reads made the trap path cost a third more
 * than the trap itself (make bench, docs/BENCH.md). A block is used by
 * the trap that read it and by the next one only: the re-arm reads the
 * words the task is about to run, and the next trap decodes what ran
 * from that same read, which is as close to the execution as reading
 * them afterwards; anything older is read again.
 */
#include <linux/uaccess.h>
#include "core/arch_api.h"
#include "ppc.h"

/* The aligned block at @base: inside one page, all of it or nothing. */
static bool read_block(struct itrace_ppc_text *t, unsigned long base)
{
	const u64 __user *p = (const u64 __user *)base;
	unsigned int i;
	bool ok = false;

	pagefault_disable();
	if (user_read_access_begin(p, sizeof(t->dw))) {
		for (i = 0; i < ARRAY_SIZE(t->dw); i++)
			unsafe_get_user(t->dw[i], p + i, fault);
		ok = true;
fault:
		user_read_access_end();
	}
	pagefault_enable();
	return ok;
}

bool itrace_ppc_text_word(struct itrace_slot *s, unsigned long ip,
			  bool before_run, u32 *w)
{
	struct itrace_ppc_text *t = &s->arch.text;
	unsigned long base = ip & ~(unsigned long)(ITRACE_PPC_TEXT - 1);
	u64 age = s->arch.traps - t->trap;

	if (t->base != base || age > (before_run ? 0 : 1)) {
		if (!read_block(t, base)) {
			t->base = 1;
			return false;
		}
		t->base = base;
		t->trap = s->arch.traps;
	}
	*w = t->w[(ip - base) / 4];
	return true;
}

void itrace_ppc_text_forget(struct itrace_slot *s)
{
	s->arch.text.base = 1;
}
