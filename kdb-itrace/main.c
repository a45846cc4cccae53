// SPDX-License-Identifier: GPL-2.0
/*
 * kdb-itrace module entry: parameters, load-time allocation of every
 * buffer kdb and the trap path will use, and the ordered teardown that
 * leaves every traced task running and untraced.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include "itrace.h"

static unsigned int log_records = 65536;
module_param(log_records, uint, 0444);
MODULE_PARM_DESC(log_records,
		 "branch-log records per CPU, rounded up to a power of two (default 65536, 32 bytes each)");

static unsigned int max_tasks = 64;
module_param(max_tasks, uint, 0444);
MODULE_PARM_DESC(max_tasks, "tasks traced at once, 1..256 (default 64)");

static int __init itrace_init(void)
{
	int ret;

	if (!max_tasks || max_tasks > 256) {
		pr_err("kdb_itrace: max_tasks must be 1..256\n");
		return -EINVAL;
	}
	ret = itrace_table_init(max_tasks);
	if (ret)
		return ret;
	ret = itrace_log_init(log_records);
	if (ret)
		goto free_table;
	ret = itrace_arch_init();
	if (ret)
		goto free_log;
	ret = itrace_lifecycle_init();
	if (ret)
		goto free_log;
	ret = itrace_notify_init();
	if (ret)
		goto lifecycle;
	ret = itrace_kdb_init();
	if (ret)
		goto notify;
	/* optional: the module works from kdb without it */
	itrace_debugfs_init();
	pr_info("kdb_itrace: ready: %u tasks, %u log records per CPU, block mode %s\n",
		max_tasks, itrace_log_per_cpu(), itrace_arch_block_impl());
	return 0;
notify:
	itrace_notify_exit();
lifecycle:
	itrace_lifecycle_exit();
free_log:
	itrace_log_free();
free_table:
	itrace_table_free();
	return ret;
}

static void __exit itrace_exit(void)
{
	unsigned int i;

	/* no debugfs file is open: each open holds a module reference */
	itrace_debugfs_exit();
	itrace_kdb_exit();
	/* from here traps disarm instead of re-arming */
	WRITE_ONCE(itrace_shutdown, true);
	itrace_disarm_all_stopped();
	itrace_notify_exit();
	itrace_lifecycle_exit();
	for (i = 0; i < itrace_nr_slots; i++)
		itrace_slot_release(&itrace_slots[i]);
	itrace_log_free();
	itrace_table_free();
}

module_init(itrace_init);
module_exit(itrace_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kdb itrace: branch log of user tasks by single/block stepping");
