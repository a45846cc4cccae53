// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module, never shipped: a debugfs file whose write oopses,
 * so that tests/vm/oops.exp can have a traced program die in the kernel
 * and read, at the oops's kdb prompt, how that task got there (issue 23
 * item 3). Writing to /sys/kernel/debug/itrace_oops/oops dereferences a
 * NULL pointer in itrace_oops_write(): on the test kernels
 * (oops=panic, kgdboc) kdb is entered with "Oops: ..." in its banner.
 * Process context, the writer's own; nothing else.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/compiler.h>
#include <linux/module.h>

static struct dentry *dir;

static ssize_t itrace_oops_write(struct file *f, const char __user *buf,
				 size_t len, loff_t *pos)
{
	int *p = NULL;

	/* the bug this module exists for, kept from the compiler's eyes */
	OPTIMIZER_HIDE_VAR(p);
	WRITE_ONCE(*p, (int)len);
	return len;
}

static const struct file_operations oops_fops = {
	.owner = THIS_MODULE,
	.write = itrace_oops_write,
};

static int __init itrace_oops_init(void)
{
	dir = debugfs_create_dir("itrace_oops", NULL);
	debugfs_create_file("oops", 0200, dir, NULL, &oops_fops);
	return 0;
}

static void __exit itrace_oops_exit(void)
{
	debugfs_remove(dir);
}

module_init(itrace_oops_init);
module_exit(itrace_oops_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kdb-itrace test: a debugfs write that oopses");
