/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The symbol tables of traced images (programs, shared objects), loaded
 * once per file and shared by every map entry that holds it, within the
 * sym_kb budget; and the snapshot of a task's executable mappings that
 * takes those references. Loading, taking and dropping run in the
 * traced task's own context (arming) or at unload; `status` lists the
 * images from kdb, xmon or debugfs (see itrace_images_status()).
 */
#ifndef _ITRACE_IMAGE_H
#define _ITRACE_IMAGE_H

#include "lib/out.h"
#include "lib/symmap.h"

/* Unload, after every map dropped its images: wait for their frees. */
void itrace_images_exit(void);

/*
 * As current, in its own context (it reads files and may sleep): replace
 * @m with current's executable mappings, each with its image's symbols,
 * then drop the images @m held before.
 */
void itrace_maps_take(struct itrace_symmap *m);
/*
 * Process context (it may sleep): the same for @mm, another task's (held
 * by the caller), into an @m of the caller's own; no vDSO symbols unless
 * @mm is current's. debugfs checks `on`'s places with it.
 */
struct mm_struct;
void itrace_maps_of(struct itrace_symmap *m, struct mm_struct *mm);
/*
 * Process context (it reads the file): the GNU build-id of ELF file @f
 * into @id (ITRACE_BUILD_ID_MAX bytes); its length, 0 if none.
 */
struct file;
u32 itrace_file_build_id(struct file *f, u8 *id);

/* Process context: drop @m's images (unload). */
void itrace_maps_drop(struct itrace_symmap *m);

/*
 * One line per loaded image: its functions, where from, memory and load
 * time, or why it has none. @stopped: kdb or xmon (every other CPU
 * stopped); else the caller may sleep.
 */
void itrace_images_status(struct itrace_out *out, bool stopped);

/*
 * Brackets for readers of a map's symbols outside kdb: images are freed
 * an RCU grace period after their last map entry let go. In kdb and xmon
 * (@stopped) nothing can free one meanwhile, and rcu_read_lock() would
 * feed lockdep from a stopped machine: nothing is done.
 */
void itrace_syms_read_begin(bool stopped) __acquires(RCU);
void itrace_syms_read_end(bool stopped) __releases(RCU);

#endif /* _ITRACE_IMAGE_H */
