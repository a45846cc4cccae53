// SPDX-License-Identifier: GPL-2.0
/*
 * The `if` condition of a trigger (trigger.h): compiled by `on` (kdb,
 * xmon or debugfs; cond.h says how) against this arch's register names,
 * the ones `itrace regs` prints, and run in the entry's uprobe handler,
 * in the task's own context, on the registers it trapped with. User
 * loads never sleep (copy_from_user_nofault()), so the run stays
 * bounded: memory not present is a fault, like memory not mapped.
 */
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include "core.h"

/*
 * The register names conditions may use: itrace_arch_regs()' names, in
 * its order (the handler's values come in the same), set at load.
 */
static const char *cond_names[ITRACE_REGS_MAX];
static struct itrace_cond_regs cond_regs;

/*
 * A load of the condition, in the handler (the task's own context): the
 * bytes as the CPU reads them. Never sleeps: memory not present now
 * counts as a fault, like one not mapped.
 */
static int cond_load(void *ctx, u64 addr, unsigned int size, u64 *val)
{
	union {
		u8 b;
		u16 h;
		u32 w;
		u64 d;
	} u;

	if (copy_from_user_nofault(&u, (const void __user *)(uintptr_t)addr,
				   size))
		return -EFAULT;
	*val = size == 1 ? u.b : size == 2 ? u.h : size == 4 ? u.w : u.d;
	return 0;
}

/* `if` at an entry (no condition: true); false ones are counted. */
bool itrace_trigger_cond_holds(struct itrace_trigger *t, struct pt_regs *regs)
{
	static const struct itrace_cond_mem mem = { .load = cond_load };
	unsigned int i, n;
	int r;

	if (!t->cond.nr)
		return true;
	n = itrace_arch_regs(regs, t->regs);
	for (i = 0; i < n; i++)
		t->vals[i] = t->regs[i].val;
	r = itrace_cond_eval(&t->cond, t->vals, &mem);
	if (r == 1)
		return true;
	t->skipped++;
	t->faults += r == -EFAULT;
	return false;
}

/* Compile `if`'s words against this arch's registers (see cond.h). */
int itrace_trigger_cond_compile(struct itrace_cond *c, int argc,
				const char *const *argv, bool kdb, char *err,
				size_t errlen)
{
	return itrace_cond_compile(c, &cond_regs, argc, argv,
				   kdb ? ITRACE_COND_KDB : 0, err, errlen);
}

void itrace_trigger_cond_print(const struct itrace_cond *c, char *buf,
			       size_t len)
{
	itrace_cond_print(c, &cond_regs, buf, len);
}

/* The arch's register names, and which carry arg0..arg5. */
void itrace_trigger_cond_init(void)
{
	static struct itrace_reg r[ITRACE_REGS_MAX];
	static struct pt_regs zero;
	unsigned int i, a, n = itrace_arch_regs(&zero, r);

	for (i = 0; i < n; i++)
		cond_names[i] = r[i].name;
	cond_regs.names = cond_names;
	cond_regs.nr = n;
	for (a = 0; a < ITRACE_COND_ARGS; a++) {
		for (i = 0; i < n; i++)
			if (!strcmp(cond_names[i], itrace_arch_arg_regs[a]))
				break;
		WARN_ON_ONCE(i == n);	/* the arch names one it has */
		cond_regs.arg[a] = i < n ? i : 0;
	}
}

