// SPDX-License-Identifier: GPL-2.0
/*
 * kdb-itrace module entry: parameters, load-time allocation of every
 * buffer kdb and the trap path will use, the front-ends that came up,
 * and the ordered teardown that leaves every traced task running and
 * untraced. Process context (insmod, rmmod).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include "itrace.h"
#include "image.h"
#include "ksym.h"

static unsigned int log_records = 65536;
module_param(log_records, uint, 0444);
MODULE_PARM_DESC(log_records,
		 "branch-log records per CPU, rounded up to a power of two (default 65536, 32 bytes each)");

static unsigned int max_tasks = 64;
module_param(max_tasks, uint, 0444);
MODULE_PARM_DESC(max_tasks, "tasks traced at once, 1..256 (default 64)");

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
	ret = itrace_ksym_init();
	if (ret)
		return ret;
	ret = itrace_table_init(max_tasks);
	if (ret)
		return ret;
	itrace_triggers_init();
	ret = itrace_log_init(log_records);
	if (ret)
		goto free_table;
	ret = itrace_arch_init();
	if (ret)
		goto free_log;
	ret = itrace_lifecycle_init();
	if (ret)
		goto arch_exit;
	ret = itrace_notify_init();
	if (ret)
		goto lifecycle_exit;
	ret = frontends_init();
	if (ret)
		goto notify_exit;
	pr_info("ready: %u tasks, %u log records per CPU, block mode %s, front-ends: %s\n",
		max_tasks, itrace_log_per_cpu(), itrace_arch_block_impl(),
		itrace_frontends_str(fe, sizeof(fe)));
	return 0;
notify_exit:
	itrace_notify_exit();
lifecycle_exit:
	itrace_lifecycle_exit();
arch_exit:
	itrace_arch_exit();
free_log:
	itrace_log_free();
free_table:
	itrace_table_free();
	return ret;
}

static void __exit itrace_exit(void)
{
	unsigned int i;

	frontends_exit();
	/* from here traps disarm instead of re-arming */
	WRITE_ONCE(itrace_shutdown, true);
	itrace_disarm_all_stopped();
	itrace_notify_exit();
	itrace_lifecycle_exit();
	for (i = 0; i < itrace_nr_slots; i++) {
		itrace_slot_release(&itrace_slots[i]);
		itrace_maps_drop(&itrace_slots[i].map);
	}
	itrace_triggers_exit();
	itrace_images_exit();
	itrace_capture_exit();
	itrace_arch_exit();
	itrace_works_exit();
	itrace_log_free();
	itrace_table_free();
}

module_init(itrace_init);
module_exit(itrace_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kdb itrace: branch log of user tasks by single/block stepping");
