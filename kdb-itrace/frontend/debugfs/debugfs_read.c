// SPDX-License-Identifier: GPL-2.0
/*
 * The read-only debugfs files: log, a copy of the whole log taken at
 * open() (the tracing goes on meanwhile, and a reader may take its
 * time), and stream, every record logged after open(), as it comes,
 * both in the raw format of `itrace log -r`; and records, the stream in
 * binary (lib/wire.h), for a reader that must keep up with insn mode:
 * no formatting on the traced machine. Readers poll: the trap path
 * runs with IRQs off and must not wake anyone, so a blocked stream
 * reader looks for new records every STREAM_POLL_MS. Each open log
 * holds its copy until it is closed: at most LOG_COPIES at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "core/itrace.h"
#include "lib/format.h"
#include "lib/wire.h"
#include "debugfs_int.h"

#define STREAM_POLL_MS	100

static_assert(sizeof(struct itrace_wire) == ITRACE_WIRE_SIZE);
static_assert(ITRACE_WIRE_VALS == ITRACE_REC_VALS);

/*
 * Opens of `log` at once. Each copies every ring's records (up to
 * log_records x 64 bytes for each CPU that logged: the log's own size),
 * so without a bound a few readers could pin any multiple of the log;
 * one open past this fails with EBUSY until one is closed.
 */
#define LOG_COPIES	4
static atomic_t log_copies = ATOMIC_INIT(0);

struct rd_file {
	struct mutex lock;		/* the fields below */
	struct itrace_merge *merge;	/* log */
	struct itrace_tail *tail;	/* stream, records */
	bool wire;			/* records */
	bool hello;			/* records: its first record went */
	bool done;			/* log: everything was read */
	size_t len, off;		/* text[off..len) still to copy */
	char text[4096];		/* a batch of lines, or records */
};

static int rd_open(struct inode *inode, struct file *file, bool stream,
		   bool wire)
{
	struct rd_file *rf;
	int ret = itrace_debugfs_may_open();

	if (ret)
		return ret;
	if (!stream && !atomic_add_unless(&log_copies, 1, LOG_COPIES)) {
		pr_info_ratelimited("log: %d opens hold copies of the log already: EBUSY until one is closed\n",
				    LOG_COPIES);
		return -EBUSY;
	}
	rf = kzalloc(sizeof(*rf), GFP_KERNEL);
	if (!rf)
		goto nomem;
	mutex_init(&rf->lock);
	rf->wire = wire;
	if (stream)
		rf->tail = itrace_tail_alloc();
	else
		rf->merge = itrace_merge_alloc();
	if (!rf->tail && !rf->merge) {
		kfree(rf);
		goto nomem;
	}
	if (stream) {
		itrace_tail_start(rf->tail);
	} else {
		u64 last = itrace_log_last_seq();

		if (itrace_merge_copy(rf->merge, last)) {
			itrace_merge_free(rf->merge);
			kfree(rf);
			goto nomem;
		}
		itrace_merge_start(rf->merge, 0, last);
	}
	file->private_data = rf;
	return stream_open(inode, file);
nomem:
	if (!stream)
		atomic_dec(&log_copies);
	return -ENOMEM;
}

static int rd_release(struct inode *inode, struct file *file)
{
	struct rd_file *rf = file->private_data;

	if (rf->merge)
		atomic_dec(&log_copies);
	itrace_merge_free(rf->merge);
	itrace_tail_free(rf->tail);
	kfree(rf);
	return 0;
}

/* Append to rf->text (which has room for two lines: see drain()). */
static void add_text(struct rd_file *rf, int n)
{
	rf->len = min(rf->len + n, sizeof(rf->text) - 1);
}

static void add_line(struct rd_file *rf, const struct itrace_rec *r,
		     unsigned int cpu)
{
	add_text(rf, itrace_format_raw(rf->text + rf->len,
				       sizeof(rf->text) - rf->len, r, cpu));
}

/* Append the next log line to rf->text; false at the end. */
static bool log_refill(struct rd_file *rf)
{
	struct itrace_rec r;
	unsigned int cpu;
	u64 n;

	if (rf->done)
		return false;
	if (itrace_merge_next(rf->merge, &r, &cpu)) {
		add_line(rf, &r, cpu);
		return true;
	}
	rf->done = true;
	n = itrace_merge_torn(rf->merge) + itrace_merge_late(rf->merge);
	if (!n)
		return false;
	add_text(rf, scnprintf(rf->text + rf->len, sizeof(rf->text) - rf->len,
			       "itrace: %llu record%s skipped (overwritten while read)\n",
			       n, n == 1 ? "" : "s"));
	return true;
}

/*
 * Append the next stream record (after a lost line if records were
 * lost); false if none is there yet.
 */
static bool stream_refill(struct rd_file *rf, bool *waiting)
{
	struct itrace_rec r;
	unsigned int cpu;
	u64 lost;

	if (!itrace_tail_next(rf->tail, &r, &cpu, waiting))
		return false;
	lost = itrace_tail_take_lost(rf->tail);
	if (lost)
		add_text(rf, scnprintf(rf->text + rf->len,
				       sizeof(rf->text) - rf->len,
				       "itrace: %llu record%s lost (not read in time)\n",
				       lost, lost == 1 ? "" : "s"));
	add_line(rf, &r, cpu);
	return true;
}

static void add_wire(struct rd_file *rf, const struct itrace_wire *w)
{
	memcpy(rf->text + rf->len, w, sizeof(*w));
	rf->len += sizeof(*w);
}

/*
 * Append the next binary record of the stream (after its hello record
 * first, and a lost record if records were lost); false if none is
 * there yet. Every field is set: no byte of the kernel's goes out.
 */
static bool records_refill(struct rd_file *rf, bool *waiting)
{
	struct itrace_wire w = { 0 };
	struct itrace_rec r;
	unsigned int cpu;
	u64 lost;

	if (!rf->hello) {
		rf->hello = true;
		w.kind = ITRACE_WIRE_HELLO;
		w.nval = 2;
		w.val[0] = ITRACE_WIRE_VERSION;
		w.val[1] = sizeof(w);
		add_wire(rf, &w);
		return true;
	}
	if (!itrace_tail_next(rf->tail, &r, &cpu, waiting))
		return false;
	lost = itrace_tail_take_lost(rf->tail);
	if (lost) {
		w.kind = ITRACE_WIRE_LOST;
		w.nval = 1;
		w.val[0] = lost;
		add_wire(rf, &w);
	}
	w.seq = r.seq;
	w.from = r.from;
	w.to = r.to;
	w.ns = r.ns;
	memcpy(w.val, r.val, sizeof(w.val));
	w.pid = r.pid;
	w.cpu = cpu;
	w.kind = r.kind;
	w.nval = r.nval;
	add_wire(rf, &w);
	return true;
}

/*
 * Append what comes next to rf->text, which has room for two lines (or
 * two records); false if nothing is there.
 */
static bool refill(struct rd_file *rf, bool *waiting)
{
	if (rf->merge)
		return log_refill(rf);
	if (rf->wire)
		return records_refill(rf, waiting);
	return stream_refill(rf, waiting);
}

/*
 * Copy what is there until @count bytes or nothing more, a batch of lines
 * at a time (formatted while there is room for two more and @count wants
 * more: one copy_to_user a batch, not a line). Returns the bytes copied,
 * or -EFAULT if none could be.
 */
static ssize_t drain(struct rd_file *rf, char __user *ubuf, size_t count,
		     bool *waiting)
{
	size_t copied = 0;

	while (copied < count) {
		size_t n;

		if (rf->off == rf->len) {
			rf->off = 0;
			rf->len = 0;
			while (rf->len + 2 * ITRACE_LINE_MAX <= sizeof(rf->text) &&
			       rf->len < count - copied && refill(rf, waiting))
				;
			if (!rf->len)
				break;
		}
		n = min(rf->len - rf->off, count - copied);
		if (copy_to_user(ubuf + copied, rf->text + rf->off, n))
			return copied ? copied : -EFAULT;
		rf->off += n;
		copied += n;
		cond_resched();
	}
	return copied;
}

static ssize_t log_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	struct rd_file *rf = file->private_data;
	bool waiting;
	ssize_t ret;

	if (mutex_lock_interruptible(&rf->lock))
		return -ERESTARTSYS;
	ret = drain(rf, ubuf, count, &waiting);
	mutex_unlock(&rf->lock);
	return ret;
}

/* Blocks until at least one record is there (or a signal comes). */
static ssize_t stream_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct rd_file *rf = file->private_data;
	bool waiting = false;
	ssize_t ret;

	if (!count)
		return 0;
	for (;;) {
		if (mutex_lock_interruptible(&rf->lock))
			return -ERESTARTSYS;
		ret = drain(rf, ubuf, count, &waiting);
		mutex_unlock(&rf->lock);
		if (ret)
			return ret;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		/* a record is half-way: it lands within microseconds */
		if (waiting)
			usleep_range(1000, 2000);
		else
			msleep_interruptible(STREAM_POLL_MS);
		if (signal_pending(current))
			return -ERESTARTSYS;
	}
}

static int log_open(struct inode *inode, struct file *file)
{
	return rd_open(inode, file, false, false);
}

static int tail_open(struct inode *inode, struct file *file)
{
	return rd_open(inode, file, true, false);
}

static int records_open(struct inode *inode, struct file *file)
{
	return rd_open(inode, file, true, true);
}

const struct file_operations itrace_log_fops = {
	.owner = THIS_MODULE,
	.open = log_open,
	.release = rd_release,
	.read = log_read,
};

const struct file_operations itrace_stream_fops = {
	.owner = THIS_MODULE,
	.open = tail_open,
	.release = rd_release,
	.read = stream_read,
};

const struct file_operations itrace_records_fops = {
	.owner = THIS_MODULE,
	.open = records_open,
	.release = rd_release,
	.read = stream_read,
};
