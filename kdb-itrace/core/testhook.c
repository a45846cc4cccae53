// SPDX-License-Identifier: GPL-2.0
/*
 * The test hooks of testhook.h (ITRACE_TEST_HOOKS=1 builds only). The
 * parameters are written from a shell (process context); a hook runs in
 * the context of its point, which testhook.h names.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include "testhook.h"

static unsigned int test_hook;
module_param(test_hook, uint, 0644);
MODULE_PARM_DESC(test_hook,
		 "test builds: the point to hold open once (1 image read, 2 work done, 3 re-arm work)");

static unsigned int test_hook_ms;
module_param(test_hook_ms, uint, 0644);
MODULE_PARM_DESC(test_hook_ms, "test builds: how long, in ms (taken by the hook)");

static const char *const point_names[ITRACE_TEST_NR] = {
	[ITRACE_TEST_IMAGE_READ] = "image read",
	[ITRACE_TEST_WORK_DONE] = "work done",
	[ITRACE_TEST_REARM_WORK] = "re-arm work",
};

void itrace_test_hook(enum itrace_test_point p)
{
	unsigned int ms;

	if (READ_ONCE(test_hook) != p)
		return;
	/* once: the first pass takes the time */
	ms = xchg(&test_hook_ms, 0);
	if (!ms)
		return;
	pr_info("test hook %s: %u ms\n", point_names[p], ms);
	if (p == ITRACE_TEST_WORK_DONE)
		mdelay(ms);
	else
		msleep(ms);
	/* the tests time what waited for the hold against this line */
	pr_info("test hook end: %s\n", point_names[p]);
}
