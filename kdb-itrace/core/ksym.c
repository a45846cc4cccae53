// SPDX-License-Identifier: GPL-2.0
/*
 * The one place that reaches kernel functions mainline does not export
 * to modules: task_work_add(), the module's only way into a traced
 * task's own context (arming, the x86 uprobe re-arm, the ppc fault-in),
 * and where the kernel has xmon, xmon_printf(), xmon's own console
 * printer, for the xmon front-end's output (xmon.c; optional: without it
 * that output goes to the kernel log). And one variable, where the
 * kernel has kgdb: kgdb_io_module_registered, whether kgdb has an I/O
 * driver (kgdboc), without which `break`'s kgdb_breakpoint() would be an
 * oops (keep.c; optional: without it `break` only freezes). Its address
 * comes from kallsyms_lookup_name(), found as the functions are.
 *
 * Since 5.7 mainline exports neither kallsyms_lookup_name() nor
 * kallsyms_on_each_symbol(). As SystemTap's runtime and lttng-modules
 * do, a kprobe names the address: register_kprobe() looks its symbol up.
 * The probe is registered disabled and unregistered at once, so no
 * breakpoint is ever written into the function (a live probe on
 * kallsyms_lookup_name, lttng's way, traps in itself on ppc64, whose
 * optprobe preparation calls kallsyms_lookup_name). Two adjustments
 * make the address callable:
 *  - register_kprobe() moves a probe on a function entry past what is
 *    not the function body proper (x86: the IBT ENDBR; ppc64 ELFv2: the
 *    global entry's TOC setup, to the local entry). An indirect call
 *    needs the symbol's own address (ELFv2: the global entry, which sets
 *    r2 from r12), so the offset sprint_symbol() reports is taken off.
 *  - an IBT kernel seals (turns the ENDBR of) every function whose
 *    address it never takes, and mainline takes none of task_work_add's:
 *    the arch brackets each call (itrace_arch_foreign_call_begin/end).
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
#include "itrace.h"
#include "ksym.h"

typedef int (*task_work_add_fn)(struct task_struct *p,
				struct callback_head *work,
				enum task_work_notify_mode mode);

typedef void (*xmon_printf_fn)(const char *fmt, ...);
typedef unsigned long (*kallsyms_lookup_name_fn)(const char *name);

static task_work_add_fn ksym_task_work_add;
static xmon_printf_fn ksym_xmon_printf;
static const int *ksym_kgdb_io_registered;

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

/* The address of kernel function @name, or 0 (said on the log). */
static unsigned long find_func(const char *name)
{
	struct kprobe kp = {
		.symbol_name = name,
		.flags = KPROBE_FLAG_DISABLED,
	};
	unsigned long addr;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("cannot find %s: kprobe error %d (needs CONFIG_KPROBES and CONFIG_KALLSYMS)\n",
		       name, ret);
		return 0;
	}
	addr = func_start(name, (unsigned long)kp.addr);
	unregister_kprobe(&kp);
	if (!addr)
		pr_err("cannot find %s: the kprobe landed outside it\n", name);
	return addr;
}

/*
 * Every call into text found by find_func() runs between these two:
 * interrupts off, so the arch's bracket (x86 IBT: ENDBR checking off on
 * this CPU) covers exactly the call and nothing that could interrupt it.
 */
struct foreign_call {
	unsigned long flags;
	u64 saved;
};

static void foreign_enter(struct foreign_call *fc)
{
	local_irq_save(fc->flags);
	fc->saved = itrace_arch_foreign_call_begin();
}

static void foreign_leave(struct foreign_call *fc)
{
	itrace_arch_foreign_call_end(fc->saved);
	local_irq_restore(fc->flags);
}

/* Any context: does kgdb have an I/O driver now (kdb can be entered)? */
bool itrace_ksym_kgdb_ready(void)
{
	return ksym_kgdb_io_registered && READ_ONCE(*ksym_kgdb_io_registered);
}

/* kgdb_io_module_registered's address, through kallsyms_lookup_name(). */
static void find_kgdb_io(void)
{
	kallsyms_lookup_name_fn lookup;
	struct foreign_call fc;
	unsigned long addr;

	lookup = (kallsyms_lookup_name_fn)find_func("kallsyms_lookup_name");
	if (!lookup)
		return;
	foreign_enter(&fc);
	addr = lookup("kgdb_io_module_registered");
	foreign_leave(&fc);
	ksym_kgdb_io_registered = (const int *)addr;
}

int itrace_ksym_init(void)
{
	ksym_task_work_add = (task_work_add_fn)find_func("task_work_add");
	if (!ksym_task_work_add)
		return -ENOENT;
	if (IS_ENABLED(CONFIG_XMON))
		ksym_xmon_printf = (xmon_printf_fn)find_func("xmon_printf");
	if (IS_ENABLED(CONFIG_KGDB))
		find_kgdb_io();
	return 0;
}

int itrace_task_work_add(struct task_struct *p, struct callback_head *work,
			 enum task_work_notify_mode mode)
{
	struct foreign_call fc;
	int ret;

	foreign_enter(&fc);
	ret = ksym_task_work_add(p, work, mode);
	foreign_leave(&fc);
	return ret;
}

bool itrace_xmon_puts(const char *s)
{
	xmon_printf_fn print = ksym_xmon_printf;
	struct foreign_call fc;

	if (!print)
		return false;
	foreign_enter(&fc);
	print("%s", s);
	foreign_leave(&fc);
	return true;
}

bool itrace_xmon_printer(void)
{
	return ksym_xmon_printf;
}
