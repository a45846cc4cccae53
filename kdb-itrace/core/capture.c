// SPDX-License-Identifier: GPL-2.0
/*
 * What a capture needs beside the records to name their addresses later,
 * off the box (docs/CAPTURE.md): per traced task its process, name and
 * every file-backed mapping as /proc/PID/maps shows it (an executable
 * mapping alone does not place a PIE), with each ELF file's GNU
 * build-id, so that a reader can tell a binary changed since. Taken as
 * the task, in its arming work (when it is armed, and again at each exec
 * it is followed through); kept with the slot until the next take, so
 * the records of a task that exited can still be named. The debugfs
 * `maps` file (frontend/debugfs/debugfs_maps.c) prints every slot's.
 *
 * Contexts: the take runs in the task's own context (mmap_lock, file
 * reads, allocation); the reader in process context (debugfs open()),
 * under rcu_read_lock(); a replaced text is freed a grace period later.
 * kdb and xmon never look at it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include "core.h"
#include "image.h"

/* Mappings listed per task; past that, one line counts the rest. */
#define CAP_MAPS_MAX	256
/* A longer path shows as "(path too long)". */
#define CAP_PATH_MAX	512
/* Distinct files whose build-id one take remembers (libc: 5 mappings). */
#define CAP_IDS		32
/*
 * "map PID START-END PERMS OFFSET BUILDID " before the path, escaped
 * (each byte at most 4); the task line is shorter.
 */
#define CAP_LINE_MAX	(48 + 2 * 16 + 2 * ITRACE_BUILD_ID_MAX + \
			 ITRACE_NAME_ROOM(CAP_PATH_MAX))

struct itrace_capmaps {
	struct rcu_head rcu;
	size_t len;
	char text[];
};

struct cap_vma {
	unsigned long start, end, pgoff;
	vm_flags_t flags;
	struct file *file;	/* held */
};

struct cap_id {
	const struct inode *inode;
	u32 len;
	u8 id[ITRACE_BUILD_ID_MAX];
};

struct cap_take {
	struct cap_vma vma[CAP_MAPS_MAX];
	struct cap_id ids[CAP_IDS];
	char path[CAP_PATH_MAX];
	u32 nr, more, nids;
};

/* Under mmap_lock: the file-backed mappings, each file held. */
static void cap_walk(struct mm_struct *mm, struct cap_take *c)
{
	struct vm_area_struct *vma;

	for (vma = find_vma(mm, 0); vma; vma = find_vma(mm, vma->vm_end)) {
		struct cap_vma *v = &c->vma[c->nr];

		if (!vma->vm_file)
			continue;
		if (c->nr == CAP_MAPS_MAX) {
			c->more++;
			continue;
		}
		v->start = vma->vm_start;
		v->end = vma->vm_end;
		v->pgoff = vma->vm_pgoff;
		v->flags = vma->vm_flags;
		v->file = get_file(vma->vm_file);
		c->nr++;
	}
}

/* @f's build-id, read once per file and take: "" for none. */
static const struct cap_id *cap_build_id(struct cap_take *c, struct file *f)
{
	const struct inode *inode = file_inode(f);
	struct cap_id *e;
	u32 i;

	for (i = 0; i < c->nids; i++)
		if (c->ids[i].inode == inode)
			return &c->ids[i];
	e = &c->ids[c->nids < CAP_IDS ? c->nids++ : CAP_IDS - 1];
	e->inode = inode;
	e->len = itrace_file_build_id(f, e->id);
	return e;
}

/* The path (the caller escapes it, see cap_line()). */
static const char *cap_path(struct cap_take *c, struct file *f)
{
	char *p = file_path(f, c->path, sizeof(c->path));

	if (PTR_ERR_OR_ZERO(p) == -ENAMETOOLONG)
		return "(path too long)";
	return IS_ERR(p) ? "(no path)" : p;
}

/*
 * A map line. Names (the path here, the comm in the task line) are
 * escaped (itrace_name()'s octal form: "\012" for a newline, as
 * /proc/PID/maps has it, and every other byte outside printable ASCII,
 * and the backslash, the same way): a name never splits or forges a
 * line, never drives a terminal, and a reader gets the bytes back.
 */
static size_t cap_line(struct cap_take *c, const struct cap_vma *v,
		       pid_t pid, char *buf, size_t len)
{
	const struct cap_id *id = cap_build_id(c, v->file);
	const char *path = cap_path(c, v->file);
	size_t w;
	u32 i;

	w = scnprintf(buf, len, "map %d %08lx-%08lx %c%c%c%c %08llx ", pid,
		      v->start, v->end, v->flags & VM_READ ? 'r' : '-',
		      v->flags & VM_WRITE ? 'w' : '-',
		      v->flags & VM_EXEC ? 'x' : '-',
		      v->flags & VM_MAYSHARE ? 's' : 'p',
		      (unsigned long long)v->pgoff << PAGE_SHIFT);
	for (i = 0; i < id->len; i++)
		w += scnprintf(buf + w, len - w, "%02x", id->id[i]);
	if (!id->len)
		w += scnprintf(buf + w, len - w, "-");
	w += scnprintf(buf + w, len - w, " ");
	/* whole: len holds CAP_LINE_MAX */
	itrace_name(buf + w, len - w - 1, path, CAP_PATH_MAX,
		    ITRACE_NAME_OCTAL);
	w += strlen(buf + w);
	return w + scnprintf(buf + w, len - w, "\n");
}

/* The text of @c for @s, in a new itrace_capmaps; NULL if no memory. */
static struct itrace_capmaps *cap_text(struct itrace_slot *s,
				       struct cap_take *c, u64 seq)
{
	size_t room = (c->nr + 2) * CAP_LINE_MAX, w;
	char comm[ITRACE_NAME_ROOM(TASK_COMM_LEN)];
	struct itrace_capmaps *t;
	char *buf = kvmalloc(room, GFP_KERNEL);
	u32 i;

	if (!buf)
		return NULL;
	itrace_name(comm, sizeof(comm), current->comm, TASK_COMM_LEN,
		    ITRACE_NAME_OCTAL);
	w = scnprintf(buf, room, "task %d tgid %d seq %llu comm %s\n", s->pid,
		      s->tgid, (unsigned long long)seq, comm);
	for (i = 0; i < c->nr; i++)
		w += cap_line(c, &c->vma[i], s->pid, buf + w, room - w);
	if (c->more)
		w += scnprintf(buf + w, room - w,
			       "more %d %u mappings not listed\n", s->pid,
			       c->more);
	t = kvmalloc(struct_size(t, text, w), GFP_KERNEL);
	if (t) {
		t->len = w;
		memcpy(t->text, buf, w);
	}
	kvfree(buf);
	return t;
}

static void cap_free_rcu(struct rcu_head *rcu)
{
	kvfree(container_of(rcu, struct itrace_capmaps, rcu));
}

/*
 * The arming work, as @s's task: take its mappings now. Records the task
 * logs from here on have a seq above the one noted. Without memory the
 * slot keeps what it had (`maps` then shows an older take, or nothing).
 */
void itrace_capture_take(struct itrace_slot *s)
{
	struct mm_struct *mm = current->mm;
	struct itrace_capmaps *t, *old;
	struct cap_take *c;
	u64 seq = itrace_log_last_seq();
	u32 i;

	might_sleep();
	c = kvzalloc(sizeof(*c), GFP_KERNEL);
	if (!c || !mm)
		goto out;
	mmap_read_lock(mm);
	cap_walk(mm, c);
	mmap_read_unlock(mm);
	t = cap_text(s, c, seq);
	for (i = 0; i < c->nr; i++)
		fput(c->vma[i].file);
	if (!t)
		goto out;
	old = rcu_replace_pointer(s->capmaps, t, true);
	if (old)
		call_rcu(&old->rcu, cap_free_rcu);
out:
	kvfree(c);
}

/* Unload, once nothing can read or take any more. */
void itrace_capture_exit(void)
{
	unsigned int i;

	for (i = 0; i < itrace_nr_slots; i++)
		kvfree(rcu_replace_pointer(itrace_slots[i].capmaps, NULL,
					   true));
	rcu_barrier();
}

/*
 * The `maps` file's text (frontend/debugfs/debugfs_maps.c copies it at
 * open()): every slot's, after a header line.
 */
size_t itrace_capture_copy(char *buf, size_t room)
{
	static const char head[] = "itrace-maps 1\n";
	size_t w = 0, need = sizeof(head) - 1;
	unsigned int i;

	if (buf && room >= need)
		memcpy(buf, head, need);
	w = need;
	rcu_read_lock();
	for (i = 0; i < itrace_nr_slots; i++) {
		const struct itrace_capmaps *t;

		t = rcu_dereference(itrace_slots[i].capmaps);
		if (!t)
			continue;
		if (buf && w + t->len <= room)
			memcpy(buf + w, t->text, t->len);
		w += t->len;
	}
	rcu_read_unlock();
	return w;
}
