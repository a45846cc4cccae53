// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol tables of traced images (see image.h). An image is one file,
 * known by its inode (superblock, number, generation, size: no reference
 * is held, so nothing is pinned and unmount is not disturbed), or the
 * vDSO, which has no file: its ELF image is read from the task's own
 * memory and known by its size and a hash of its bytes (the same for
 * every process of a kernel and ABI). Its table
 * is read once, by the first task armed with it mapped, and shared by
 * every map entry of every slot that has it mapped (threads, followed
 * children, other processes); the last entry to let go frees it.
 *
 * Contexts: loading, taking and dropping run as the traced task in its
 * arming task_work (reading files, allocating and sleeping are allowed
 * there) or at unload. images_lock serializes the images[] table and
 * the budget, never a file read: a traced program's file can be huge,
 * sparse or slow, and other tasks' arming must not wait for it; a load
 * is bounded in time (ITRACE_LOAD_SECS) and ends at a fatal signal.
 * Readers never take the lock:
 * kdb and xmon find images through the slots' maps and the images[]
 * array with every other CPU stopped (a CPU stopped half-way through a
 * put has either not yet unpublished the image, or published its NULL
 * before queueing the free); debugfs readers hold rcu_read_lock() across
 * one record (itrace_syms_read_begin()), and the free waits a grace
 * period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/jhash.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include "image.h"
#include "testhook.h"

/*
 * A table is one kvmalloc(), up to the whole budget, and kvmalloc()
 * refuses (with a warning) more than INT_MAX bytes: a larger sym_kb is
 * refused, at load ("`N' invalid for parameter `sym_kb'": the load
 * fails) and in sysfs (EINVAL).
 */
#define SYM_KB_MAX	(INT_MAX / 1024)

static int sym_kb_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, SYM_KB_MAX);
}

static const struct kernel_param_ops sym_kb_ops = {
	.set = sym_kb_set,
	.get = param_get_uint,
};

static unsigned int sym_kb = 16384;
module_param_cb(sym_kb, &sym_kb_ops, &sym_kb, 0644);
__MODULE_PARM_TYPE(sym_kb, "uint");
MODULE_PARM_DESC(sym_kb,
		 "memory for the symbol tables of traced images, in KiB, all images together (default 16384, at most 2097151; 0: no symbols); read at each load");

/* Images at once: 16 mappings a task, shared between tasks. */
#define ITRACE_IMAGES		64

/* Largest vDSO image read (they are a few pages). */
#define ITRACE_VDSO_MAX		(64 * 1024)

/* Longest a table may take to read: a glibc's takes milliseconds. */
#define ITRACE_LOAD_SECS	5

/* What makes two images the same: the inode, or (vDSO: sb NULL) a hash. */
struct image_key {
	const struct super_block *sb;
	unsigned long ino;
	u32 igen;
	u32 hash;
	loff_t size;
};

struct itrace_image {
	struct rcu_head rcu;
	int refs;			/* map entries holding it */
	struct image_key key;	/* the file, without a reference to it */
	/* what was loaded */
	struct itrace_symtab tab;	/* buffers in store */
	void *store;
	size_t bytes;			/* of store */
	u32 load_us;
	int err;			/* 0, or why there is no table */
	char why[96];			/* the reader's line for err */
	char name[ITRACE_MAP_NAME];
};

static DEFINE_MUTEX(images_lock);
static struct itrace_image *images[ITRACE_IMAGES];
static size_t images_bytes;		/* sum of their bytes */
static unsigned int images_full;	/* files left unread: images[] full */

static bool same_key(const struct image_key *a, const struct image_key *b)
{
	return a->sb == b->sb && a->ino == b->ino && a->igen == b->igen &&
	       a->hash == b->hash && a->size == b->size;
}

/* A file being read, and when its load must end. */
struct file_src {
	struct file *f;
	unsigned long deadline;		/* jiffies */
};

/*
 * The reader calls this once per chunk of symbols: a file with millions
 * of them must neither hog the CPU nor outlive a kill or the deadline.
 */
static int file_read(void *ctx, u64 off, void *buf, size_t len)
{
	struct file_src *fs = ctx;
	loff_t pos = off;

	if (fatal_signal_pending(current))
		return -EINTR;
	if (time_after(jiffies, fs->deadline))
		return -ETIMEDOUT;
	cond_resched();
	while (len) {
		ssize_t n = kernel_read(fs->f, buf, len, &pos);

		if (n <= 0)
			return -EIO;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * Room for the load: every entry of the table a function, and each name
 * copied whole twice over (names whose tails the file shares are copied
 * one by one), within what the budget leaves; trimmed to fit afterwards.
 */
static size_t load_room(const struct itrace_elf_info *info,
			struct itrace_symtab *t, size_t left)
{
	size_t syms = array_size(info->nsyms, sizeof(struct itrace_sym));
	size_t names = array_size(info->strsz, 2) + ITRACE_SYM_NAME_MAX + 1;

	if (syms + names > left) {
		syms = min(syms, left / 2);
		names = left - syms;
	}
	t->max_syms = syms / sizeof(struct itrace_sym);
	t->max_names = min_t(size_t, names, U32_MAX);
	return t->max_syms * sizeof(struct itrace_sym) + t->max_names;
}

/* Move @t's table from the load buffers into one block of its size. */
static int trim(struct itrace_image *img, struct itrace_symtab *t)
{
	size_t syms = array_size(t->nr, sizeof(struct itrace_sym));
	void *store = kvmalloc(syms + t->names_len, GFP_KERNEL);

	if (!store)
		return -ENOMEM;
	memcpy(store, t->syms, syms);
	memcpy(store + syms, t->names, t->names_len);
	img->tab = *t;
	img->tab.syms = store;
	img->tab.names = store + syms;
	img->tab.max_syms = t->nr;
	img->tab.max_names = t->names_len;
	img->store = store;
	img->bytes = syms + t->names_len;
	return 0;
}

/* Read @src's function symbols into @img within @left bytes; sets err. */
static void load(struct itrace_image *img, const struct itrace_elf_src *src,
		 size_t left)
{
	struct itrace_elf_info info;
	struct itrace_symtab t = { };
	void *buf;

	img->err = itrace_elf_probe(src, &info, img->why, sizeof(img->why));
	if (img->err || info.source == ITRACE_SYMS_NONE)
		return;
	if (!left) {
		img->err = -ENOSPC;
		return;
	}
	buf = kvmalloc(load_room(&info, &t, left), GFP_KERNEL);
	if (!buf) {
		img->err = -ENOMEM;
		return;
	}
	t.syms = buf;
	t.names = buf + t.max_syms * sizeof(struct itrace_sym);
	img->err = itrace_elf_load(src, &t, img->why, sizeof(img->why));
	if (!img->err)
		img->err = trim(img, &t);
	kvfree(buf);
}

/* Outside images_lock: read @src's table within @left bytes. */
static struct itrace_image *image_new(const struct image_key *key,
				      const struct itrace_elf_src *src,
				      const char *name, size_t left)
{
	struct itrace_image *img = kzalloc(sizeof(*img), GFP_KERNEL);
	u64 t0 = ktime_get_ns();

	if (!img)
		return NULL;
	img->refs = 1;
	img->key = *key;
	strscpy(img->name, name, sizeof(img->name));
	load(img, src, left);
	img->load_us = div_u64(ktime_get_ns() - t0, NSEC_PER_USEC);
	return img;
}

static void image_free(struct itrace_image *img)
{
	kvfree(img->store);
	kfree(img);
}

static size_t budget(void)
{
	return (size_t)READ_ONCE(sym_kb) * 1024;
}

/*
 * Under images_lock: the image @key names, with a reference more; else
 * NULL, and in *@free a free index of images[] (-1: none).
 */
static struct itrace_image *image_find(const struct image_key *key,
				       int *free)
{
	struct itrace_image *img;
	int i;

	lockdep_assert_held(&images_lock);
	*free = -1;
	for (i = 0; i < ITRACE_IMAGES; i++) {
		img = images[i];
		if (!img) {
			*free = *free < 0 ? i : *free;
		} else if (same_key(&img->key, key)) {
			img->refs++;
			return img;
		}
	}
	return NULL;
}

/*
 * Under images_lock: publish @img in images[@free] within the budget
 * (two loads side by side were each given what was left before either).
 */
static void image_add(struct itrace_image *img, int free)
{
	lockdep_assert_held(&images_lock);
	if (img->bytes > budget() - min(budget(), images_bytes)) {
		kvfree(img->store);
		img->store = NULL;
		img->bytes = 0;
		img->err = -ENOSPC;
	}
	images_bytes += img->bytes;
	WRITE_ONCE(images[free], img);	/* after its contents */
}

/*
 * The image @key names, loaded from @src if no map entry holds it yet.
 * The file is read with images_lock dropped; another task may load the
 * same image meanwhile, and the first one published is kept.
 */
static struct itrace_image *image_get(const struct image_key *key,
				      const struct itrace_elf_src *src,
				      const char *name)
{
	struct itrace_image *img, *fresh;
	size_t left;
	int free;

	might_sleep();
	mutex_lock(&images_lock);
	img = image_find(key, &free);
	left = budget() - min(budget(), images_bytes);
	if (!img && free < 0)
		images_full++;
	mutex_unlock(&images_lock);
	if (img || free < 0)
		return img;

	itrace_test_hook(ITRACE_TEST_IMAGE_READ);
	fresh = image_new(key, src, name, left);
	if (!fresh)
		return NULL;
	if (fresh->err == -EINTR) {
		/* the task is dying: the next one to map the file reads it */
		image_free(fresh);
		return NULL;
	}
	mutex_lock(&images_lock);
	img = image_find(key, &free);
	if (!img && free >= 0) {
		image_add(fresh, free);
		img = fresh;
		fresh = NULL;
	} else if (!img) {
		images_full++;
	}
	mutex_unlock(&images_lock);
	if (fresh)
		image_free(fresh);
	return img;
}

u32 itrace_file_build_id(struct file *f, u8 *id)
{
	struct inode *inode = file_inode(f);
	struct file_src fs = {
		.f = f, .deadline = jiffies + ITRACE_LOAD_SECS * HZ,
	};
	struct itrace_elf_src src = {
		.read = file_read, .ctx = &fs, .size = i_size_read(inode),
	};
	struct itrace_elf_info info;
	char err[8];	/* why it is no ELF file: not needed here */

	might_sleep();
	if (!S_ISREG(inode->i_mode) ||
	    itrace_elf_probe(&src, &info, err, sizeof(err)))
		return 0;
	memcpy(id, info.build_id, info.build_id_len);
	return info.build_id_len;
}

/* The file @f, mapped by the entry named @name (walk_maps()' copy). */
static struct itrace_image *image_of_file(struct file *f, const char *name)
{
	struct inode *inode = file_inode(f);
	struct image_key key = {
		.sb = inode->i_sb, .ino = inode->i_ino,
		.igen = inode->i_generation, .size = i_size_read(inode),
	};
	struct file_src fs = {
		.f = f, .deadline = jiffies + ITRACE_LOAD_SECS * HZ,
	};
	struct itrace_elf_src src = {
		.read = file_read, .ctx = &fs, .size = key.size,
	};

	return image_get(&key, &src, name);
}

/*
 * The vDSO mapped at @e, copied from current's memory (its own context:
 * the copy may fault pages in). NULL if it cannot be read.
 */
static struct itrace_image *image_of_vdso(const struct itrace_map *e)
{
	size_t len = e->end - e->start;
	struct image_key key = { .size = len };
	struct itrace_elf_src src = { .read = itrace_elf_mem_read, .size = len };
	struct itrace_image *img = NULL;
	void *buf;

	if (!len || len > ITRACE_VDSO_MAX)
		return NULL;
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return NULL;
	if (!copy_from_user(buf, (const void __user *)(unsigned long)e->start,
			    len)) {
		key.hash = jhash(buf, len, 0);
		src.ctx = buf;
		img = image_get(&key, &src, e->name);
	}
	kvfree(buf);
	return img;
}

static void image_free_rcu(struct rcu_head *rcu)
{
	image_free(container_of(rcu, struct itrace_image, rcu));
}

static void image_put(struct itrace_image *img)
{
	int i;

	mutex_lock(&images_lock);
	if (WARN_ON_ONCE(img->refs <= 0) || --img->refs)
		goto out;
	for (i = 0; i < ITRACE_IMAGES; i++)
		if (images[i] == img)
			WRITE_ONCE(images[i], NULL);
	images_bytes -= img->bytes;
	call_rcu(&img->rcu, image_free_rcu);
out:
	mutex_unlock(&images_lock);
}

static struct itrace_image *image_of(const struct itrace_map *e)
{
	return e->syms ? container_of(e->syms, struct itrace_image, tab) :
			 NULL;
}

/*
 * The name of the file @f maps, as it is now: a rename may free the
 * dentry's name at any moment, so it is read through a snapshot.
 */
static void file_name(struct itrace_map *e, struct file *f)
{
	struct name_snapshot n;

	take_dentry_name_snapshot(&n, f->f_path.dentry);
	strscpy(e->name, n.name.name, sizeof(e->name));
	release_dentry_name_snapshot(&n);
}

/*
 * Under mmap_lock: the executable mappings into @m (not yet published)
 * and a reference to each one's file into @files, to read after the
 * lock is dropped (reading a file under mmap_lock could deadlock with a
 * fault on it). The program is the file mapped at mm->start_code.
 */
static u32 walk_maps(struct mm_struct *mm, struct itrace_symmap *m,
		     struct file **files, int *vdso)
{
	struct vm_area_struct *vma = find_vma(mm, mm->start_code);
	const struct inode *prog = NULL;
	u32 nr = 0;

	if (vma && vma->vm_file && vma->vm_start <= mm->start_code)
		prog = file_inode(vma->vm_file);
	for (vma = find_vma(mm, 0); vma; vma = find_vma(mm, vma->vm_end)) {
		struct itrace_map *e;
		const char *name = NULL;

		if (!(vma->vm_flags & VM_EXEC))
			continue;
		if (nr == ITRACE_MAP_MAX)
			break;
		e = &m->map[nr];
		files[nr] = vma->vm_file;
		if (vma->vm_file) {
			get_file(vma->vm_file);
			file_name(e, vma->vm_file);
		} else {
			if (vma->vm_ops && vma->vm_ops->name)
				name = vma->vm_ops->name(vma);	/* [vdso] */
			if (name && !strcmp(name, "[vdso]"))
				*vdso = nr;
			strscpy(e->name, name ?: "[anon]", sizeof(e->name));
		}
		e->start = vma->vm_start;
		e->end = vma->vm_end;
		e->pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
		e->main = vma->vm_file && file_inode(vma->vm_file) == prog;
		e->syms = NULL;
		nr++;
	}
	return nr;
}

/*
 * @mm's mappings and their symbols into @m; the vDSO's only from @mm's
 * own task (@own: it is copied from current's memory).
 */
static void maps_take(struct itrace_symmap *m, struct mm_struct *mm,
		      bool own)
{
	struct itrace_image *old[ITRACE_MAP_MAX];
	struct file *files[ITRACE_MAP_MAX];
	u32 i, held = min_t(u32, m->held, ITRACE_MAP_MAX), nr = 0;
	int vdso = -1;

	might_sleep();
	for (i = 0; i < held; i++)
		old[i] = image_of(&m->map[i]);
	/* readers see no entry, or see the rewrite (seq), meanwhile */
	itrace_symmap_write_begin(m);
	WRITE_ONCE(m->nr, 0);
	smp_wmb();	/* nr = 0 before the entries change; symmap.c reads */
	m->held = 0;
	if (mm) {
		mmap_read_lock(mm);
		nr = walk_maps(mm, m, files, &vdso);
		mmap_read_unlock(mm);
	}
	for (i = 0; i < nr; i++) {
		struct itrace_image *img;

		if (files[i]) {
			img = image_of_file(files[i], m->map[i].name);
			fput(files[i]);
		} else if (i == vdso && own) {
			img = image_of_vdso(&m->map[i]);
		} else {
			continue;
		}
		m->map[i].syms = img ? &img->tab : NULL;
	}
	m->held = nr;
	smp_wmb();	/* the entries before their count; symmap.c reads */
	WRITE_ONCE(m->nr, nr);
	itrace_symmap_write_end(m);
	for (i = 0; i < held; i++)
		if (old[i])
			image_put(old[i]);
}

void itrace_maps_take(struct itrace_symmap *m)
{
	maps_take(m, current->mm, true);
}

void itrace_maps_of(struct itrace_symmap *m, struct mm_struct *mm)
{
	maps_take(m, mm, mm == current->mm);
}

void itrace_maps_drop(struct itrace_symmap *m)
{
	u32 i, held = min_t(u32, m->held, ITRACE_MAP_MAX);

	itrace_symmap_write_begin(m);
	WRITE_ONCE(m->nr, 0);
	smp_wmb();	/* nr = 0 before the entries change; symmap.c reads */
	m->held = 0;
	for (i = 0; i < held; i++) {
		struct itrace_image *img = image_of(&m->map[i]);

		m->map[i].syms = NULL;
		if (img)
			image_put(img);
	}
	itrace_symmap_write_end(m);
}

/* Both ways hold sparse's RCU context, so callers balance either way. */
void itrace_syms_read_begin(bool stopped) __acquires(RCU)
{
	if (!stopped)
		rcu_read_lock();
	else
		__acquire(RCU);
}

void itrace_syms_read_end(bool stopped) __releases(RCU)
{
	if (!stopped)
		rcu_read_unlock();
	else
		__release(RCU);
}

static const char *const source_names[] = {
	[ITRACE_SYMS_NONE] = "none",
	[ITRACE_SYMS_SYMTAB] = ".symtab",
	[ITRACE_SYMS_DYNSYM] = ".dynsym",
};

#define outf(out, ...)	itrace_out_printf(out, __VA_ARGS__)

/* "itrace: syms NAME: ..." in pieces: the sinks take partial lines. */
static void image_line(struct itrace_out *out, const struct itrace_image *img)
{
	const struct itrace_symtab *t = &img->tab;
	char name[sizeof(img->name)];

	/* a file's name: any bytes (out.h) */
	itrace_name(name, sizeof(name), img->name, sizeof(name) - 1,
		    ITRACE_NAME_QMARK);
	outf(out, "itrace: syms %s: ", name);
	if (img->err == -ENOSPC) {
		outf(out, "not loaded: sym_kb=%u is used up\n", READ_ONCE(sym_kb));
	} else if (img->err == -ENOMEM) {
		outf(out, "not loaded: out of memory\n");
	} else if (img->err) {
		outf(out, "not loaded: %s\n", img->why);
	} else if (t->source == ITRACE_SYMS_NONE) {
		outf(out, "stripped (no .symtab, no .dynsym): mapping+offset only\n");
	} else {
		if (t->dropped)
			outf(out, "%u of ", t->nr);
		outf(out, "%u functions from %s, %zu KiB, %u.%u ms", t->total,
		     source_names[t->source], DIV_ROUND_UP(img->bytes, 1024),
		     img->load_us / 1000, img->load_us % 1000 / 100);
		if (t->dropped)
			outf(out, " (sym_kb=%u is used up)", READ_ONCE(sym_kb));
		outf(out, "\n");
	}
}

void itrace_images_status(struct itrace_out *out, bool stopped)
{
	unsigned int i, full = READ_ONCE(images_full);

	for (i = 0; i < ITRACE_IMAGES; i++) {
		const struct itrace_image *img;

		itrace_syms_read_begin(stopped);
		img = READ_ONCE(images[i]);
		if (img)
			image_line(out, img);
		itrace_syms_read_end(stopped);
	}
	if (full)
		outf(out, "itrace: syms: %u file%s not read: %u images loaded already\n",
		     full, full == 1 ? "" : "s", ITRACE_IMAGES);
}

void itrace_images_exit(void)
{
	unsigned int i;

	for (i = 0; i < ITRACE_IMAGES; i++)
		WARN_ON_ONCE(images[i]);
	rcu_barrier();
}
