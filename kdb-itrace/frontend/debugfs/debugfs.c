// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs glue: /sys/kernel/debug/itrace/, who may open its files, and
 * the control file. Each write() to control is one command in the kdb
 * command's language (the words after `itrace`), run by the executor
 * (exec/command.c); its output, error lines included, is what read() on
 * that same open file returns next. Before any write, read() returns
 * `status`. The log, stream and records files are debugfs_read.c, the
 * maps file debugfs_maps.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "core/itrace.h"
#include "exec/exec.h"
#include "debugfs.h"
#include "debugfs_int.h"

/* Output of one command: status of 256 slots fits many times over. */
#define CTL_OUT_SIZE	(64 * 1024)
/* Longest command accepted, without the NUL (kdb: 200). */
#define CTL_CMD_MAX	255

/*
 * One command at a time among debugfs writers: the executor was written
 * for kdb, where nothing else runs a command concurrently.
 */
static DEFINE_MUTEX(cmd_lock);
static struct itrace_merge *cmd_merge;	/* under cmd_lock */
static struct dentry *dir;

struct ctl_file {
	struct mutex lock;		/* the fields below */
	struct itrace_outbuf ob;
	loff_t rpos;			/* read position in ob */
	bool have;			/* ob holds a command's output */
	char cmd[CTL_CMD_MAX + 1];
	char text[CTL_OUT_SIZE];
};

static int ctl_open(struct inode *inode, struct file *file)
{
	struct ctl_file *cf;
	int ret = itrace_debugfs_may_open();

	if (ret)
		return ret;
	cf = kvzalloc(sizeof(*cf), GFP_KERNEL);
	if (!cf)
		return -ENOMEM;
	mutex_init(&cf->lock);
	itrace_outbuf_init(&cf->ob, cf->text, sizeof(cf->text));
	file->private_data = cf;
	return stream_open(inode, file);
}

static int ctl_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

/* Run @argv into cf->ob, the executor's way: one at a time. */
static int ctl_exec(struct ctl_file *cf, int argc, const char *const *argv)
{
	struct itrace_ctx ctx = {
		.out = &cf->ob.out,
		.merge = cmd_merge,
		.stopped = false,
	};
	int ret;

	mutex_lock(&cmd_lock);
	ret = itrace_exec(argc, argv, &ctx);
	mutex_unlock(&cmd_lock);
	return ret;
}

/* The words of cf->cmd, or -EINVAL after one error line in cf->ob. */
static int ctl_split(struct ctl_file *cf, size_t len, const char **argv)
{
	int argc;

	if (memchr(cf->cmd, '\0', len)) {
		itrace_out_printf(&cf->ob.out, "itrace: NUL byte in the command\n");
		return -EINVAL;
	}
	argc = itrace_split(cf->cmd, argv, ITRACE_MAX_WORDS);
	if (argc < 0) {
		itrace_out_printf(&cf->ob.out, "itrace: more than %d words\n",
				  ITRACE_MAX_WORDS);
		return -EINVAL;
	}
	return argc;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	struct ctl_file *cf = file->private_data;
	const char *argv[ITRACE_MAX_WORDS];
	int argc, ret;

	/* lockdown may have come after open(): nothing changes then */
	ret = security_locked_down(LOCKDOWN_DEBUGFS);
	if (ret)
		return ret;
	if (mutex_lock_interruptible(&cf->lock))
		return -ERESTARTSYS;
	itrace_outbuf_reset(&cf->ob);
	cf->rpos = 0;
	cf->have = true;
	if (count > CTL_CMD_MAX) {
		itrace_out_printf(&cf->ob.out, "itrace: command longer than %d bytes\n",
				  CTL_CMD_MAX);
		ret = -EINVAL;
	} else if (copy_from_user(cf->cmd, ubuf, count)) {
		itrace_outbuf_reset(&cf->ob);
		ret = -EFAULT;
	} else {
		cf->cmd[count] = '\0';
		argc = ctl_split(cf, count, argv);
		ret = argc < 0 ? argc : ctl_exec(cf, argc, argv);
	}
	itrace_outbuf_finish(&cf->ob);
	mutex_unlock(&cf->lock);
	return ret ? ret : count;
}

static ssize_t ctl_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	struct ctl_file *cf = file->private_data;
	ssize_t ret;

	if (mutex_lock_interruptible(&cf->lock))
		return -ERESTARTSYS;
	if (!cf->have) {
		ctl_exec(cf, 0, NULL);
		itrace_outbuf_finish(&cf->ob);
		cf->have = true;
	}
	ret = simple_read_from_buffer(ubuf, count, &cf->rpos, cf->ob.buf,
				      cf->ob.len);
	mutex_unlock(&cf->lock);
	return ret;
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.open = ctl_open,
	.release = ctl_release,
	.read = ctl_read,
	.write = ctl_write,
};

int itrace_debugfs_init(void)
{
	if (security_locked_down(LOCKDOWN_DEBUGFS)) {
		pr_info("kernel locked down: no debugfs files\n");
		return -EPERM;
	}
	cmd_merge = itrace_merge_alloc();
	if (!cmd_merge)
		return -ENOMEM;
	dir = debugfs_create_dir("itrace", NULL);
	if (IS_ERR(dir)) {
		pr_info("no debugfs (error %ld)\n", PTR_ERR(dir));
		dir = NULL;
		itrace_merge_free(cmd_merge);
		cmd_merge = NULL;
		return -ENODEV;
	}
	debugfs_create_file("control", 0600, dir, NULL, &ctl_fops);
	debugfs_create_file("log", 0400, dir, NULL, &itrace_log_fops);
	debugfs_create_file("stream", 0400, dir, NULL, &itrace_stream_fops);
	debugfs_create_file("records", 0400, dir, NULL, &itrace_records_fops);
	debugfs_create_file("maps", 0400, dir, NULL, &itrace_maps_fops);
	return 0;
}

void itrace_debugfs_exit(void)
{
	debugfs_remove(dir);
	dir = NULL;
	itrace_merge_free(cmd_merge);
	cmd_merge = NULL;
}
