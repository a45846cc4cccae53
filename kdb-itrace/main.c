// SPDX-License-Identifier: GPL-2.0
/*
 * kdb-itrace module entry: the parameters, the core brought up with them
 * (core/core.c: every buffer kdb and the trap path will use is allocated
 * at load), the front-ends that came up, and the teardown in the reverse
 * order: no front-end left to give a command, then the core, which
 * leaves every traced task running and untraced. Process context
 * (insmod, rmmod).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include "core/itrace.h"
#include "exec/exec.h"
#include "frontend/debugfs/debugfs.h"
#include "frontend/kdb/kdb.h"
#include "frontend/xmon/xmon.h"

static unsigned int log_records = 65536;
module_param(log_records, uint, 0444);
MODULE_PARM_DESC(log_records,
		 "branch-log records per CPU, rounded up to a power of two (default 65536, 64 bytes each)");

static unsigned int max_tasks = 64;
module_param(max_tasks, uint, 0444);
MODULE_PARM_DESC(max_tasks, "tasks traced at once, 1..256 (default 64)");

static unsigned int stack_frames = 256;
module_param(stack_frames, uint, 0444);
MODULE_PARM_DESC(stack_frames,
		 "frames each traced task's live call stack holds: 0 (none kept) or 16..65536, rounded up to a power of two (default 256, 16 bytes each)");

/*
 * kdb where the kernel has it, debugfs where it is mounted and not
 * locked down, xmon where the kernel has it; one of them at least, or
 * nobody could give a command.
 */
static int frontends_init(void)
{
	int kdb = itrace_kdb_init(), dbg, xmon;

	if (kdb && kdb != -ENODEV)
		return kdb;
	dbg = itrace_debugfs_init();
	xmon = itrace_xmon_init();
	itrace_frontends = (kdb ? 0 : ITRACE_FE_KDB) |
			   (dbg ? 0 : ITRACE_FE_DEBUGFS) |
			   (xmon ? 0 : ITRACE_FE_XMON);
	if (!itrace_frontends) {
		pr_err("no front-end: the kernel has no kdb (CONFIG_KGDB_KDB) nor xmon, and debugfs is unavailable (error %d)\n",
		       dbg);
		return dbg;
	}
	return 0;
}

static void frontends_exit(void)
{
	/* no debugfs file is open: each open holds a module reference */
	itrace_debugfs_exit();
	itrace_kdb_exit();
	itrace_xmon_exit();
}

static int __init itrace_init(void)
{
	char fe[32];
	int ret;

	if (!max_tasks || max_tasks > ITRACE_MAX_TASKS) {
		pr_err("max_tasks must be 1..256\n");
		return -EINVAL;
	}
	if (stack_frames && (stack_frames < 16 || stack_frames > 65536)) {
		pr_err("stack_frames must be 0 or 16..65536\n");
		return -EINVAL;
	}
	ret = itrace_core_init(max_tasks, log_records, stack_frames);
	if (ret)
		return ret;
	ret = frontends_init();
	if (ret) {
		itrace_core_exit();
		return ret;
	}
	pr_info("ready: %u tasks, %u log records per CPU, block mode %s, front-ends: %s\n",
		max_tasks, itrace_log_per_cpu(), itrace_arch_block_impl(),
		itrace_frontends_str(fe, sizeof(fe)));
	return 0;
}

static void __exit itrace_exit(void)
{
	frontends_exit();
	itrace_core_exit();
}

module_init(itrace_init);
module_exit(itrace_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kdb itrace: branch log of user tasks by single/block stepping");
