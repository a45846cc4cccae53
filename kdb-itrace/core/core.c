// SPDX-License-Identifier: GPL-2.0
/*
 * The core brought up and taken down, each in one order: the kernel
 * functions found by name (ksym.c), the slot table, the triggers, the
 * per-CPU logs, the arch, the task life-cycle probes and the trap
 * notifier up; down, every traced task left running and untraced
 * before anything it could still reach is freed. main.c calls these
 * around its front-ends. Process context (insmod, rmmod).
 */
#include <linux/compiler.h>
#include <linux/init.h>
#include "core.h"
#include "image.h"
#include "ksym.h"

int __init itrace_core_init(unsigned int max_tasks,
			    unsigned int log_records, unsigned int stack_frames)
{
	int ret;

	ret = itrace_ksym_init();
	if (ret)
		return ret;
	ret = itrace_table_init(max_tasks);
	if (ret)
		return ret;
	ret = itrace_stacks_init(stack_frames);
	if (ret)
		goto free_table;
	itrace_triggers_init();
	itrace_values_init();
	ret = itrace_log_init(log_records);
	if (ret)
		goto free_stacks;
	ret = itrace_arch_init();
	if (ret)
		goto free_log;
	ret = itrace_lifecycle_init();
	if (ret)
		goto arch_exit;
	ret = itrace_notify_init();
	if (ret)
		goto lifecycle_exit;
	return 0;
lifecycle_exit:
	itrace_lifecycle_exit();
arch_exit:
	itrace_arch_exit();
free_log:
	itrace_log_free();
free_stacks:
	itrace_stacks_free();
free_table:
	itrace_table_free();
	return ret;
}

/*
 * After the front-ends are gone (no command can claim a slot any more):
 * every armed task disarmed with the machine stopped, no probe or
 * notifier left to re-arm one, then the slots, triggers, images and
 * captures released, and last what a queued task_work or a trap could
 * still have been using.
 */
void itrace_core_exit(void)
{
	unsigned int i;

	/* from here traps disarm instead of re-arming */
	WRITE_ONCE(itrace_shutdown, true);
	itrace_disarm_all_stopped();
	itrace_notify_exit();
	itrace_lifecycle_exit();
	itrace_values_exit();
	for (i = 0; i < itrace_nr_slots; i++) {
		itrace_slot_release(&itrace_slots[i]);
		itrace_maps_drop(&itrace_slots[i].map);
	}
	itrace_triggers_exit();
	itrace_images_exit();
	itrace_capture_exit();
	itrace_arch_exit();
	itrace_works_exit();
	itrace_keep_exit();
	itrace_log_free();
	itrace_stacks_free();
	itrace_table_free();
}
