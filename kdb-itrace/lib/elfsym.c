// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF function-symbol reader (see elfsym.h), in named phases: the
 * file header, the loadable segments (which turn a symbol's address into
 * a file offset), the build-id note, the section headers (which table,
 * which strings), then the symbols, and a sort. Only 64-bit little-endian images (x86-64,
 * ppc64le) of type EXEC or DYN. Every read goes through read_at(), which
 * checks it against the file's size; every count against the caller's
 * buffers. Pure C, shared with host tests and the fuzz target.
 */
#include "compat.h"
#include "elfsym.h"

/* The on-disk structures (naturally aligned: no padding). */
struct elf_ehdr {
	u8 ident[16];
	u16 type, machine;
	u32 version;
	u64 entry, phoff, shoff;
	u32 flags;
	u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf_phdr {
	u32 type, flags;
	u64 offset, vaddr, paddr, filesz, memsz, align;
};

struct elf_shdr {
	u32 name, type;
	u64 flags, addr, offset, size;
	u32 link, info;
	u64 addralign, entsize;
};

struct elf_sym {
	u32 name;
	u8 info, other;
	u16 shndx;
	u64 value, size;
};

static_assert(sizeof(struct elf_ehdr) == 64, "Elf64_Ehdr");
static_assert(sizeof(struct elf_phdr) == 56, "Elf64_Phdr");
static_assert(sizeof(struct elf_shdr) == 64, "Elf64_Shdr");
static_assert(sizeof(struct elf_sym) == 24, "Elf64_Sym");

#define ET_EXEC		2
#define ET_DYN		3
#define PT_LOAD		1
#define PT_NOTE		4
#define NT_GNU_BUILD_ID	3
#define SHT_SYMTAB	2
#define SHT_STRTAB	3
#define SHT_DYNSYM	11
#define SHN_LORESERVE	0xff00
#define STT_FUNC	2
#define STT_GNU_IFUNC	10

/* More PT_LOADs than any linker writes (ld: 2 to 5) means a bad file. */
#define MAX_LOADS	16
/* Notes looked at per PT_NOTE segment (a program has 2 to 4). */
#define MAX_NOTES	32
/* Symbols read per call of the source's read(): 192 bytes of stack. */
#define SYM_CHUNK	8

struct elf_nhdr {
	u32 namesz, descsz, type;
};

struct elf {
	const struct itrace_elf_src *src;
	struct elf_ehdr eh;
	u32 nloads;
	struct { u64 vaddr, filesz, offset; } load[MAX_LOADS];
	enum itrace_sym_source source;
	u64 symoff, nsyms;
	u64 stroff, strsz;
	u32 build_id_len;
	u8 build_id[ITRACE_BUILD_ID_MAX];
	char *err;
	size_t errlen;
};

__printf(2, 3)
static int bad(struct elf *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->err, e->errlen, fmt, ap);
	va_end(ap);
	return -ENOEXEC;
}

/* @len bytes at @off, all inside the file. */
static int read_at(struct elf *e, u64 off, void *buf, size_t len)
{
	const struct itrace_elf_src *src = e->src;
	int ret;

	if (off > src->size || len > src->size - off)
		return bad(e, "%#zx bytes at %#llx: past the end of the file (%#llx)",
			   len, (unsigned long long)off,
			   (unsigned long long)src->size);
	ret = src->read(src->ctx, off, buf, len);
	if (ret == -ETIMEDOUT || ret == -EINTR) {
		snprintf(e->err, e->errlen, "%s at %#llx",
			 ret == -EINTR ? "interrupted (fatal signal)" :
					 "reading took too long", (unsigned long long)off);
		return ret;
	}
	if (ret) {
		snprintf(e->err, e->errlen, "read error at %#llx",
			 (unsigned long long)off);
		return -EIO;
	}
	return 0;
}

/* [off, off + size) inside the file. */
static bool in_file(const struct elf *e, u64 off, u64 size)
{
	return off <= e->src->size && size <= e->src->size - off;
}

static int elf_header(struct elf *e)
{
	const u8 *id = e->eh.ident;
	int ret = read_at(e, 0, &e->eh, sizeof(e->eh));

	if (ret)
		return ret == -EIO ? ret : bad(e, "not an ELF file (too short)");
	if (id[0] != 0x7f || id[1] != 'E' || id[2] != 'L' || id[3] != 'F')
		return bad(e, "not an ELF file");
	if (id[4] != 2 || id[5] != 1 || id[6] != 1)
		return bad(e, "not a 64-bit little-endian ELF file");
	if (e->eh.type != ET_EXEC && e->eh.type != ET_DYN)
		return bad(e, "ELF type %u: not a program or shared object",
			   e->eh.type);
	if (e->eh.phentsize != sizeof(struct elf_phdr) ||
	    !in_file(e, e->eh.phoff, (u64)e->eh.phnum * sizeof(struct elf_phdr)))
		return bad(e, "bad program headers");
	if (e->eh.shnum &&
	    (e->eh.shentsize != sizeof(struct elf_shdr) ||
	     !in_file(e, e->eh.shoff,
		      (u64)e->eh.shnum * sizeof(struct elf_shdr))))
		return bad(e, "bad section headers");
	return 0;
}

/* Program header @i. */
static int phdr(struct elf *e, u32 i, struct elf_phdr *ph)
{
	return read_at(e, e->eh.phoff + (u64)i * sizeof(*ph), ph, sizeof(*ph));
}

static int elf_loads(struct elf *e)
{
	struct elf_phdr ph;
	u32 i;
	int ret;

	e->nloads = 0;
	for (i = 0; i < e->eh.phnum; i++) {
		ret = phdr(e, i, &ph);
		if (ret)
			return ret;
		if (ph.type != PT_LOAD || !ph.filesz)
			continue;
		if (e->nloads == MAX_LOADS)
			return bad(e, "more than %d loadable segments", MAX_LOADS);
		if (!in_file(e, ph.offset, ph.filesz) ||
		    ph.vaddr + ph.filesz < ph.vaddr)
			return bad(e, "loadable segment %u outside the file", i);
		e->load[e->nloads].vaddr = ph.vaddr;
		e->load[e->nloads].filesz = ph.filesz;
		e->load[e->nloads].offset = ph.offset;
		e->nloads++;
	}
	return 0;
}

/*
 * One note segment [off, off + size): the first NT_GNU_BUILD_ID note
 * named "GNU" of at most ITRACE_BUILD_ID_MAX bytes. A malformed note
 * ends the walk: the build-id is a label, not worth failing the file.
 */
static int note_segment(struct elf *e, u64 off, u64 size)
{
	struct elf_nhdr nh;
	u64 end = off + size, name, desc, next;
	char gnu[4];
	u32 i;
	int ret;

	for (i = 0; i < MAX_NOTES && end - off >= sizeof(nh); i++) {
		ret = read_at(e, off, &nh, sizeof(nh));
		if (ret)
			return ret;
		name = off + sizeof(nh);
		desc = name + ALIGN((u64)nh.namesz, 4);
		next = desc + ALIGN((u64)nh.descsz, 4);
		if (next > end)
			return 0;
		if (nh.type == NT_GNU_BUILD_ID && nh.namesz == 4 &&
		    nh.descsz && nh.descsz <= ITRACE_BUILD_ID_MAX) {
			ret = read_at(e, name, gnu, sizeof(gnu));
			if (!ret && !memcmp(gnu, "GNU", 4))
				ret = read_at(e, desc, e->build_id, nh.descsz);
			if (ret)
				return ret;
			if (!memcmp(gnu, "GNU", 4)) {
				e->build_id_len = nh.descsz;
				return 0;
			}
		}
		off = next;
	}
	return 0;
}

/* The GNU build-id, from the first PT_NOTE segment that has one. */
static int elf_build_id(struct elf *e)
{
	struct elf_phdr ph;
	u32 i;
	int ret;

	e->build_id_len = 0;
	for (i = 0; i < e->eh.phnum && !e->build_id_len; i++) {
		ret = phdr(e, i, &ph);
		if (ret)
			return ret;
		if (ph.type != PT_NOTE || !in_file(e, ph.offset, ph.filesz))
			continue;
		ret = note_segment(e, ph.offset, ph.filesz);
		if (ret)
			return ret;
	}
	return 0;
}

/* Section @i's header. */
static int section(struct elf *e, u32 i, struct elf_shdr *sh)
{
	return read_at(e, e->eh.shoff + (u64)i * sizeof(*sh), sh, sizeof(*sh));
}

/* Take table @sh (section @i) and its string table, if both are sound. */
static int use_table(struct elf *e, u32 i, const struct elf_shdr *sh)
{
	struct elf_shdr str;
	int ret;

	if (sh->entsize != sizeof(struct elf_sym) || sh->size % sh->entsize ||
	    !in_file(e, sh->offset, sh->size) ||
	    sh->size / sh->entsize > 0xffffffffULL)
		return bad(e, "section %u: bad symbol table", i);
	if (!sh->link || sh->link >= e->eh.shnum)
		return bad(e, "section %u: no string table", i);
	ret = section(e, sh->link, &str);
	if (ret)
		return ret;
	if (str.type != SHT_STRTAB || !in_file(e, str.offset, str.size) ||
	    str.size > 0xffffffffULL)
		return bad(e, "section %u: bad string table", sh->link);
	e->source = sh->type == SHT_SYMTAB ? ITRACE_SYMS_SYMTAB :
					     ITRACE_SYMS_DYNSYM;
	e->symoff = sh->offset;
	e->nsyms = sh->size / sh->entsize;
	e->stroff = str.offset;
	e->strsz = str.size;
	return 0;
}

/* .symtab if there is one, else .dynsym, else none (stripped). */
static int elf_tables(struct elf *e)
{
	struct elf_shdr sh, symtab, dynsym;
	u32 i, symtab_i = 0, dynsym_i = 0;
	int ret;

	e->source = ITRACE_SYMS_NONE;
	for (i = 1; i < e->eh.shnum; i++) {
		ret = section(e, i, &sh);
		if (ret)
			return ret;
		if (sh.type == SHT_SYMTAB && !symtab_i) {
			symtab_i = i;
			symtab = sh;
		} else if (sh.type == SHT_DYNSYM && !dynsym_i) {
			dynsym_i = i;
			dynsym = sh;
		}
	}
	if (symtab_i)
		return use_table(e, symtab_i, &symtab);
	return dynsym_i ? use_table(e, dynsym_i, &dynsym) : 0;
}

static int elf_open(struct elf *e, const struct itrace_elf_src *src,
		    char *err, size_t errlen)
{
	int ret;

	e->src = src;
	e->err = err;
	e->errlen = errlen;
	err[0] = '\0';
	ret = elf_header(e);
	if (!ret)
		ret = elf_loads(e);
	if (!ret)
		ret = elf_build_id(e);
	if (!ret)
		ret = elf_tables(e);
	return ret;
}

/*
 * An image in memory (the vDSO's copy in the module, files in the host
 * tools and the fuzzer): read_at() has checked the range against its
 * size.
 */
int itrace_elf_mem_read(void *ctx, u64 off, void *buf, size_t len)
{
	memcpy(buf, (const u8 *)ctx + off, len);
	return 0;
}

int itrace_elf_probe(const struct itrace_elf_src *src,
		     struct itrace_elf_info *info, char *err, size_t errlen)
{
	struct elf e;
	int ret = elf_open(&e, src, err, errlen);

	if (ret)
		return ret;
	info->source = e.source;
	info->nsyms = e.source ? (u32)e.nsyms : 0;
	info->strsz = e.source ? (u32)e.strsz : 0;
	info->build_id_len = e.build_id_len;
	memcpy(info->build_id, e.build_id, e.build_id_len);
	return 0;
}

/* The file offset of address @v, through the segment holding it. */
static bool file_off(const struct elf *e, u64 v, u64 *off)
{
	u32 i;

	for (i = 0; i < e->nloads; i++)
		if (v >= e->load[i].vaddr &&
		    v - e->load[i].vaddr < e->load[i].filesz) {
			*off = v - e->load[i].vaddr + e->load[i].offset;
			return true;
		}
	return false;
}

/* Symbol @s into @t if it is a defined function in a loaded segment. */
static void take(struct elf *e, struct itrace_symtab *t,
		 const struct elf_sym *s)
{
	u8 type = s->info & 0xf;
	struct itrace_sym *out;
	u64 off;

	if ((type != STT_FUNC && type != STT_GNU_IFUNC) || !s->shndx ||
	    s->shndx >= SHN_LORESERVE || s->name >= e->strsz ||
	    !file_off(e, s->value, &off))
		return;
	t->total++;
	if (t->nr == t->max_syms) {
		t->dropped++;
		return;
	}
	out = &t->syms[t->nr++];
	out->value = s->value;
	out->off = off;
	out->size = s->size > 0xffffffffULL ? 0 : (u32)s->size;
	out->name = s->name;	/* in the file's strings, for now */
}

#define NO_NAME		0xffffffffU

/*
 * Copy the name at string-table offset @str into the names: its offset
 * there, or NO_NAME if there is no room.
 */
static u32 copy_name(struct elf *e, struct itrace_symtab *t, u32 str)
{
	char buf[ITRACE_SYM_NAME_MAX + 1];
	u64 n = e->strsz - str;
	size_t len;
	u32 at;

	if (n > sizeof(buf))
		n = sizeof(buf);
	if (read_at(e, e->stroff + str, buf, n))
		return NO_NAME;
	/* no NUL within reach: the name is cut (or the table is bad) */
	len = strnlen(buf, n);
	if (len == n)
		len = n - 1;
	if (len + 1 > t->max_names - t->names_len)
		return NO_NAME;
	at = t->names_len;
	memcpy(t->names + at, buf, len);
	t->names[at + len] = '\0';
	t->names_len += len + 1;
	return at;
}

static int cmp_name(const void *a, const void *b)
{
	const struct itrace_sym *x = a, *y = b;

	return x->name < y->name ? -1 : x->name > y->name;
}

static int cmp_off(const void *a, const void *b)
{
	const struct itrace_sym *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return cmp_name(a, b);
}

/*
 * Each name once: a shared object's versioned aliases (memcpy@GLIBC_2.2.5
 * and memcpy@@GLIBC_2.14) share one string. Symbols whose name does not
 * fit go, counted as dropped.
 */
static void copy_names(struct elf *e, struct itrace_symtab *t)
{
	u32 i, kept = 0, str = NO_NAME, at = NO_NAME;

	sort(t->syms, t->nr, sizeof(t->syms[0]), cmp_name, NULL);
	for (i = 0; i < t->nr; i++) {
		if (t->syms[i].name != str) {
			str = t->syms[i].name;
			at = copy_name(e, t, str);
		}
		if (at == NO_NAME) {
			t->dropped++;
			continue;
		}
		t->syms[kept] = t->syms[i];
		t->syms[kept++].name = at;
	}
	t->nr = kept;
}

int itrace_elf_load(const struct itrace_elf_src *src, struct itrace_symtab *t,
		    char *err, size_t errlen)
{
	struct elf_sym chunk[SYM_CHUNK];
	struct elf e;
	u64 i, n;
	u32 j;
	int ret = elf_open(&e, src, err, errlen);

	t->nr = 0;
	t->names_len = 0;
	t->total = 0;
	t->dropped = 0;
	t->source = ret ? ITRACE_SYMS_NONE : e.source;
	if (ret || !e.source)
		return ret;
	/* entry 0 is the null symbol */
	for (i = 1; i < e.nsyms; i += n) {
		n = e.nsyms - i < SYM_CHUNK ? e.nsyms - i : SYM_CHUNK;
		ret = read_at(&e, e.symoff + i * sizeof(chunk[0]), chunk,
			      n * sizeof(chunk[0]));
		if (ret)
			return ret;
		for (j = 0; j < n; j++)
			take(&e, t, &chunk[j]);
	}
	copy_names(&e, t);
	sort(t->syms, t->nr, sizeof(t->syms[0]), cmp_off, NULL);
	return 0;
}

static bool covers(const struct itrace_sym *s, u64 off)
{
	return s->size ? off - s->off < s->size : off == s->off;
}

/* Of aliases, the name with the fewest leading underscores (memcpy). */
static unsigned int underscores(const struct itrace_symtab *t,
				const struct itrace_sym *s)
{
	const char *n = itrace_sym_name(t, s);
	unsigned int u = 0;

	while (n[u] == '_')
		u++;
	return u;
}

/* How far to look around the nearest start for aliases and containers. */
#define SYM_NEAR	16

const struct itrace_sym *itrace_sym_at(const struct itrace_symtab *t, u64 off)
{
	const struct itrace_sym *best = NULL;
	u32 lo = 0, hi, i, k;

	if (!t || !t->nr)
		return NULL;
	hi = t->nr;
	/* the first symbol starting after @off */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (t->syms[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* back over the nearest starts: aliases, then enclosing functions */
	for (i = lo, k = 0; i > 0 && k < SYM_NEAR; i--, k++) {
		const struct itrace_sym *s = &t->syms[i - 1];

		if (best && s->off != best->off)
			break;
		if (covers(s, off) &&
		    (!best || underscores(t, s) <= underscores(t, best)))
			best = s;
	}
	return best;
}
