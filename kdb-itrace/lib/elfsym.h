/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function symbols of an ELF image (a program or a shared object), for
 * naming user addresses in the log. The reader sees the file only
 * through a read callback and trusts nothing in it: every offset, size
 * and count is checked against the file and the caller's buffers, so a
 * truncated or hostile file gives an error line, never a read out of
 * bounds. Symbols are kept by file offset, the unit the log's
 * mapping+offset already uses. Pure C (no allocation: the caller sizes
 * the buffers from itrace_elf_probe()), shared with host tests and a
 * libFuzzer target; in the module it runs in the traced task's own
 * context, the table is then read-only and looked up lock-free.
 */
#ifndef _ITRACE_ELFSYM_H
#define _ITRACE_ELFSYM_H

#include "compat.h"

struct itrace_elf_src {
	/* copy @len bytes at file offset @off to @buf: 0, or < 0 */
	int (*read)(void *ctx, u64 off, void *buf, size_t len);
	void *ctx;
	u64 size;		/* the file's size */
};

/* A read callback for an image in memory: @ctx is its first byte. */
int itrace_elf_mem_read(void *ctx, u64 off, void *buf, size_t len);

enum itrace_sym_source {
	ITRACE_SYMS_NONE,	/* stripped: neither table */
	ITRACE_SYMS_SYMTAB,	/* .symtab */
	ITRACE_SYMS_DYNSYM,	/* .dynsym (no .symtab) */
};

/*
 * What the headers say, before any symbol is read. nsyms is room for
 * every symbol; the names copied from a string table of strsz bytes may
 * need more than that, where its strings share their tails.
 */
/* Longest GNU build-id kept (ld: sha1 20, md5 and uuid 16, xxhash 8). */
#define ITRACE_BUILD_ID_MAX	32

struct itrace_elf_info {
	enum itrace_sym_source source;
	u32 nsyms;		/* entries in the symbol table */
	u32 strsz;		/* bytes of its string table */
	u32 build_id_len;	/* 0: none (or longer than kept) */
	u8 build_id[ITRACE_BUILD_ID_MAX];	/* NT_GNU_BUILD_ID */
};

struct itrace_sym {
	u64 value;		/* st_value: the address nm shows */
	u64 off;		/* its file offset (through its PT_LOAD) */
	u32 size;		/* st_size; 0: just that address */
	u32 name;		/* offset into the table's names */
};

struct itrace_symtab {
	struct itrace_sym *syms;	/* caller's, max_syms entries */
	char *names;			/* caller's, max_names bytes */
	u32 max_syms;
	u32 max_names;
	u32 nr;			/* kept, sorted by off */
	u32 names_len;
	u32 total;		/* function symbols in the image */
	u32 dropped;		/* of those, not kept: no room */
	enum itrace_sym_source source;
};

/* Longest name kept; longer ones are cut there (C++ names can be long). */
#define ITRACE_SYM_NAME_MAX	127

/*
 * Phase 1: check the headers, find the symbol table (.symtab, else
 * .dynsym) and the GNU build-id note (in a PT_NOTE segment, where the
 * loader and perf look). 0 (info->source may be ITRACE_SYMS_NONE), or
 * -ENOEXEC (a bad file) / -EIO (the read callback failed) with one line
 * in @err.
 */
int itrace_elf_probe(const struct itrace_elf_src *src,
		     struct itrace_elf_info *info, char *err, size_t errlen);

/*
 * Phase 2: read the function symbols (STT_FUNC, STT_GNU_IFUNC, defined,
 * in a PT_LOAD) into @t's buffers, sorted by file offset; what does not
 * fit is counted in t->dropped. Same returns as the probe.
 */
int itrace_elf_load(const struct itrace_elf_src *src, struct itrace_symtab *t,
		    char *err, size_t errlen);

/* The symbol covering file offset @off, or NULL. Lock-free, bounded. */
const struct itrace_sym *itrace_sym_at(const struct itrace_symtab *t, u64 off);

static inline const char *itrace_sym_name(const struct itrace_symtab *t,
					  const struct itrace_sym *s)
{
	return t->names + s->name;
}

#endif /* _ITRACE_ELFSYM_H */
