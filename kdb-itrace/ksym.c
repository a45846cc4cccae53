// SPDX-License-Identifier: GPL-2.0
/*
 * The one place that reaches kernel functions mainline does not export
 * to modules: today task_work_add(), the module's only way into a traced
 * task's own context (arming, the x86 uprobe re-arm, the ppc fault-in).
 *
 * Since 5.7 mainline exports neither kallsyms_lookup_name() nor
 * kallsyms_on_each_symbol(). As SystemTap's runtime and lttng-modules do,
 * a kprobe registered on kallsyms_lookup_name tells its address; it then
 * names the rest. Two adjustments make that address callable:
 *  - register_kprobe() moves a probe on a function entry past what is
 *    not the function body proper (x86: the IBT ENDBR; ppc64 ELFv2: the
 *    global entry's TOC setup, to the local entry). An indirect call
 *    needs the symbol's own address (ELFv2: the global entry, which sets
 *    r2 from r12), so the offset sprint_symbol() reports is taken off.
 *  - an IBT kernel seals (turns the ENDBR of) every function whose
 *    address it never takes, and mainline takes neither's: the arch
 *    brackets each call (itrace_arch_foreign_call_begin/end).
 * Resolution runs once, at load, in process context; the calls run in
 * any context the callee allows. Without CONFIG_KPROBES or
 * CONFIG_KALLSYMS the load fails with one line saying so.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include "arch.h"
#include "ksym.h"

typedef unsigned long (*lookup_fn)(const char *name);
typedef int (*task_work_add_fn)(struct task_struct *p,
				struct callback_head *work,
				enum task_work_notify_mode mode);

static task_work_add_fn ksym_task_work_add;

static int ksym_kprobe_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

/*
 * The start of function @name given an @addr inside it, or 0 if @addr is
 * not in @name: sprint_symbol() writes "name+0xoff/0xsize[ [mod]]".
 */
static unsigned long func_start(const char *name, unsigned long addr)
{
	char buf[KSYM_SYMBOL_LEN];
	size_t n = strlen(name);
	unsigned long off;

	sprint_symbol(buf, addr);
	if (strncmp(buf, name, n) || buf[n] != '+' ||
	    sscanf(buf + n, "+%lx/", &off) != 1 || off > addr)
		return 0;
	return addr - off;
}

/* kallsyms_lookup_name(), found through a kprobe on it. */
static lookup_fn find_lookup(void)
{
	static const char name[] = "kallsyms_lookup_name";
	struct kprobe kp = {
		.symbol_name = name,
		.pre_handler = ksym_kprobe_pre,
	};
	unsigned long addr;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("cannot find %s: kprobe error %d (needs CONFIG_KPROBES and CONFIG_KALLSYMS)\n",
		       name, ret);
		return NULL;
	}
	addr = func_start(name, (unsigned long)kp.addr);
	unregister_kprobe(&kp);
	if (!addr)
		pr_err("cannot find %s: the kprobe landed outside it\n", name);
	return (lookup_fn)addr;
}

static unsigned long lookup(lookup_fn fn, const char *name)
{
	unsigned long flags, addr;
	u64 saved;

	local_irq_save(flags);
	saved = itrace_arch_foreign_call_begin();
	addr = fn(name);
	itrace_arch_foreign_call_end(saved);
	local_irq_restore(flags);
	return addr;
}

int itrace_ksym_init(void)
{
	lookup_fn fn = find_lookup();

	if (!fn)
		return -ENOENT;
	ksym_task_work_add = (task_work_add_fn)lookup(fn, "task_work_add");
	if (!ksym_task_work_add) {
		pr_err("kernel has no task_work_add in kallsyms\n");
		return -ENOENT;
	}
	return 0;
}

int itrace_task_work_add(struct task_struct *p, struct callback_head *work,
			 enum task_work_notify_mode mode)
{
	unsigned long flags;
	u64 saved;
	int ret;

	local_irq_save(flags);
	saved = itrace_arch_foreign_call_begin();
	ret = ksym_task_work_add(p, work, mode);
	itrace_arch_foreign_call_end(saved);
	local_irq_restore(flags);
	return ret;
}
