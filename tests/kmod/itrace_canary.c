// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module, never shipped: loaded with bug=<kind> it commits one
 * deliberate bug of the kind the debug kernel's checkers report, so that
 * tests/vm/debug_canary.exp can prove check_dmesg sees each report. A
 * check that cannot fail proves nothing; a debug kernel whose checker
 * went missing would otherwise pass the suite silently.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *bug = "";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "leak, sleep, rcu, lockdep or kasan");

static void *canary_keep;
static int __rcu *canary_rcu_ptr;

/*
 * kmemleak: the only pointer to each object is dropped. Their text shows
 * in the report's hex dump, so the test knows the leak is this one. Eight
 * of them: a stale copy of the last pointer can stay on a cached kernel
 * stack, and kmemleak then rightly sees that one as referenced.
 */
static void canary_leak(void)
{
	int i;

	for (i = 0; i < 8; i++) {
		char *p = kzalloc(64, GFP_KERNEL);

		if (p)
			strscpy(p, "itrace-canary", 64);
		WRITE_ONCE(canary_keep, p);
	}
	WRITE_ONCE(canary_keep, NULL);
}

/* DEBUG_ATOMIC_SLEEP: might_sleep() with preemption off. */
static void canary_sleep(void)
{
	preempt_disable();
	might_sleep();
	preempt_enable();
}

/* PROVE_RCU: an RCU pointer read outside any read-side section. */
static void canary_rcu(void)
{
	pr_info("itrace_canary: rcu %p\n", rcu_dereference(canary_rcu_ptr));
}

/*
 * lockdep: two mutexes initialised at one site share a lock class, so
 * taking the second while holding the first looks like recursion.
 */
static void canary_lockdep(void)
{
	struct mutex m[2];	/* one lock class, two locks */
	int i;

	for (i = 0; i < 2; i++)
		mutex_init(&m[i]);
	mutex_lock(&m[0]);
	mutex_lock(&m[1]);
	mutex_unlock(&m[1]);
	mutex_unlock(&m[0]);
}

/* KASAN: one byte read past the end of a slab object. */
static void canary_kasan(void)
{
	char *p = kmalloc(8, GFP_KERNEL);
	/* the index is opaque to the compiler, so it cannot warn or fold */
	size_t i = 8;

	if (!p)
		return;
	OPTIMIZER_HIDE_VAR(i);
	pr_info("itrace_canary: kasan %d\n", READ_ONCE(p[i]));
	kfree(p);
}

static int __init canary_init(void)
{
	if (!strcmp(bug, "leak"))
		canary_leak();
	else if (!strcmp(bug, "sleep"))
		canary_sleep();
	else if (!strcmp(bug, "rcu"))
		canary_rcu();
	else if (!strcmp(bug, "lockdep"))
		canary_lockdep();
	else if (!strcmp(bug, "kasan"))
		canary_kasan();
	else
		return -EINVAL;
	return 0;
}

static void __exit canary_exit(void)
{
}

module_init(canary_init);
module_exit(canary_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kdb-itrace test only: deliberate bugs for the debug kernel's checkers");
