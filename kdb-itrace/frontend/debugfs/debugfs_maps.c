// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs `maps` file: what a capture needs beside the records to
 * name their addresses off the box (docs/CAPTURE.md), every slot's text
 * as core/capture.c keeps it, copied at open() so that a reader sees one
 * consistent snapshot however slowly it reads. Process context.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include "core/itrace.h"
#include "debugfs_int.h"

struct cap_file {
	size_t len;
	char text[];
};

static int maps_open(struct inode *inode, struct file *file)
{
	struct cap_file *cf = NULL;
	int ret = itrace_debugfs_may_open(), tries;
	size_t need;

	if (ret)
		return ret;
	/* a take between the two passes can make it longer: again */
	for (tries = 0; tries < 3; tries++) {
		need = itrace_capture_copy(NULL, 0);
		kvfree(cf);
		cf = kvmalloc(struct_size(cf, text, need), GFP_KERNEL);
		if (!cf)
			return -ENOMEM;
		cf->len = itrace_capture_copy(cf->text, need);
		if (cf->len <= need)
			break;
	}
	if (cf->len > need) {
		kvfree(cf);
		return -EAGAIN;
	}
	file->private_data = cf;
	return 0;
}

static ssize_t maps_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	struct cap_file *cf = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, cf->text, cf->len);
}

static int maps_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

const struct file_operations itrace_maps_fops = {
	.owner = THIS_MODULE,
	.open = maps_open,
	.release = maps_release,
	.read = maps_read,
	.llseek = default_llseek,
};
