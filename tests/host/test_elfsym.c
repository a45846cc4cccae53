// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the ELF symbol reader (elfsym.c) on images built here
 * byte by byte: which symbols it keeps (functions and ifuncs, defined,
 * in a PT_LOAD; .symtab before .dynsym), their file offsets through the
 * segments, the lookup (inside, past the end, size-0 symbols, aliases,
 * a function around a smaller one), running out of room, and each kind
 * of bad file with its exact one-line error. Real binaries against nm:
 * elfsym_nm.py.
 */
#include <stdlib.h>
#include "check.h"
#include "lib/elfsym.h"

/* Layout of the test image: header, 2 phdrs, code, strings, syms, shdrs */
#define PH_OFF		64
#define CODE_OFF	0x200
#define STR_OFF		0x1000
#define SYM_OFF		0x1100
#define SH_OFF		0x1400
#define IMG_SIZE	0x1600
#define VADDR		0x400000	/* of file offset 0 in segment 1 */
#define VADDR2		0x600000	/* segment 2: file 0x800..0x900 */

static unsigned char img[IMG_SIZE];
static size_t img_size;

static void put16(size_t off, unsigned int v)
{
	img[off] = v & 0xff;
	img[off + 1] = v >> 8;
}

static void put32(size_t off, unsigned long v)
{
	put16(off, v & 0xffff);
	put16(off + 2, v >> 16);
}

static void put64(size_t off, unsigned long long v)
{
	put32(off, v & 0xffffffffULL);
	put32(off + 4, v >> 32);
}

static const char strs[] =
	"\0main\0leaf\0__memcpy_avx\0memcpy\0data\0inner\0outer\0ifn\0undef\0label\0far";
/* offsets of the names in strs */
enum { N_MAIN = 1, N_LEAF = 6, N_MEMCPY_AVX = 11, N_MEMCPY = 24, N_DATA = 31,
	N_INNER = 36, N_OUTER = 42, N_IFN = 48, N_UNDEF = 52, N_LABEL = 58,
	N_FAR = 64 };

static int nsyms;

static void sym(unsigned int name, unsigned int type, unsigned int shndx,
		unsigned long long value, unsigned long long size)
{
	size_t o = SYM_OFF + 24 * (size_t)nsyms++;

	put32(o, name);
	img[o + 4] = 0x10 | type;	/* STB_GLOBAL */
	put16(o + 6, shndx);
	put64(o + 8, value);
	put64(o + 16, size);
}

static void shdr(int i, unsigned int type, unsigned long long off,
		 unsigned long long size, unsigned int link,
		 unsigned long long entsize)
{
	size_t o = SH_OFF + 64 * (size_t)i;

	put32(o + 4, type);
	put64(o + 24, off);
	put64(o + 32, size);
	put32(o + 40, link);
	put64(o + 56, entsize);
}

/* The good image: .text symbols in segment 1, "far" in segment 2. */
static void build(unsigned int symtab_type)
{
	memset(img, 0, sizeof(img));
	img_size = IMG_SIZE;
	memcpy(img, "\x7f" "ELF\x02\x01\x01", 7);
	put16(16, 3);			/* ET_DYN */
	put16(18, 62);
	put32(20, 1);
	put64(32, PH_OFF);
	put64(40, SH_OFF);
	put16(52, 64);
	put16(54, 56);
	put16(56, 2);
	put16(58, 64);
	put16(60, 4);
	/* PT_LOAD file 0..0x800 at VADDR, file 0x800..0x900 at VADDR2 */
	put32(PH_OFF, 1);
	put64(PH_OFF + 8, 0);
	put64(PH_OFF + 16, VADDR);
	put64(PH_OFF + 32, 0x800);
	put32(PH_OFF + 56, 1);
	put64(PH_OFF + 56 + 8, 0x800);
	put64(PH_OFF + 56 + 16, VADDR2);
	put64(PH_OFF + 56 + 32, 0x100);
	memcpy(img + STR_OFF, strs, sizeof(strs));
	nsyms = 0;
	sym(0, 0, 0, 0, 0);				/* the null symbol */
	sym(N_MAIN, 2, 1, VADDR + 0x200, 0x40);		/* FUNC */
	sym(N_LEAF, 2, 1, VADDR + 0x240, 0x10);
	sym(N_MEMCPY_AVX, 2, 1, VADDR + 0x300, 0x20);	/* aliases */
	sym(N_MEMCPY, 10, 1, VADDR + 0x300, 0x20);	/* GNU_IFUNC */
	sym(N_DATA, 1, 1, VADDR + 0x400, 0x10);		/* OBJECT: left out */
	sym(N_OUTER, 2, 1, VADDR + 0x500, 0x100);	/* around inner */
	sym(N_INNER, 2, 1, VADDR + 0x520, 0x10);
	sym(N_UNDEF, 2, 0, 0, 0);			/* undefined: out */
	sym(N_LABEL, 2, 1, VADDR + 0x700, 0);		/* size 0 */
	sym(N_IFN, 2, 0xfff1, VADDR + 0x710, 4);	/* SHN_ABS: out */
	sym(N_FAR, 2, 1, VADDR2 + 0x10, 8);		/* segment 2 */
	shdr(1, 1, CODE_OFF, 0x600, 0, 0);		/* .text */
	shdr(2, 3, STR_OFF, sizeof(strs), 0, 0);	/* strings */
	shdr(3, symtab_type, SYM_OFF, 24 * (size_t)nsyms, 2, 24);
}

static int img_read(void *ctx, u64 off, void *buf, size_t len)
{
	(void)ctx;
	memcpy(buf, img + off, len);
	return 0;
}

static struct itrace_sym syms[32];
static char names[512];

static int load(struct itrace_symtab *t, u32 max_syms, u32 max_names,
		char *err)
{
	struct itrace_elf_src src = { img_read, NULL, img_size };

	memset(t, 0, sizeof(*t));
	t->syms = syms;
	t->names = names;
	t->max_syms = max_syms;
	t->max_names = max_names;
	return itrace_elf_load(&src, t, err, 160);
}

/* The name found at file offset @off, or "-". */
static const char *at(const struct itrace_symtab *t, u64 off)
{
	const struct itrace_sym *s = itrace_sym_at(t, off);

	return s ? itrace_sym_name(t, s) : "-";
}

static void test_good(void)
{
	struct itrace_elf_src src = { img_read, NULL, 0 };
	struct itrace_elf_info info;
	struct itrace_symtab t;
	char err[160];

	build(2);
	src.size = img_size;
	CHECK("elfsym: probe of a good image",
	      !itrace_elf_probe(&src, &info, err, sizeof(err)) &&
	      info.source == ITRACE_SYMS_SYMTAB && info.nsyms == 12 &&
	      info.strsz == sizeof(strs));
	CHECK("elfsym: load keeps the 8 defined functions in PT_LOADs",
	      !load(&t, 32, sizeof(names), err) && t.nr == 8 &&
	      t.total == 8 && !t.dropped && t.source == ITRACE_SYMS_SYMTAB);
	CHECK("elfsym: sorted by file offset, value and size kept",
	      t.syms[0].off == 0x200 && t.syms[0].value == VADDR + 0x200 &&
	      t.syms[0].size == 0x40 && t.syms[7].off == 0x810);
	CHECK_STR("elfsym: lookup at a function's start", at(&t, 0x200), "main");
	CHECK_STR("elfsym: lookup at its last byte", at(&t, 0x23f), "main");
	CHECK_STR("elfsym: lookup of the next function", at(&t, 0x240), "leaf");
	CHECK_STR("elfsym: lookup past a function's end", at(&t, 0x250), "-");
	CHECK_STR("elfsym: lookup before any symbol", at(&t, 0x10), "-");
	CHECK_STR("elfsym: aliases: the name with the fewest underscores",
		  at(&t, 0x310), "memcpy");
	CHECK_STR("elfsym: a function inside another", at(&t, 0x525), "inner");
	CHECK_STR("elfsym: the outer one around it", at(&t, 0x540), "outer");
	CHECK_STR("elfsym: a size-0 symbol at its address", at(&t, 0x700), "label");
	CHECK_STR("elfsym: a size-0 symbol is not past its address",
		  at(&t, 0x701), "-");
	CHECK_STR("elfsym: a symbol in the second segment, by file offset",
		  at(&t, 0x814), "far");
	CHECK_STR("elfsym: an object is no function", at(&t, 0x400), "-");
}

static void test_room(void)
{
	struct itrace_symtab t;
	char err[160];

	build(2);
	CHECK("elfsym: 3 slots: 3 kept, 5 dropped",
	      !load(&t, 3, sizeof(names), err) && t.nr == 3 &&
	      t.total == 8 && t.dropped == 5);
	CHECK("elfsym: names room for 2: the rest dropped, none cut",
	      !load(&t, 32, 11, err) && t.nr + t.dropped == 8 &&
	      t.names_len <= 11 && t.nr == 2);
	build(11);
	CHECK("elfsym: .dynsym when there is no .symtab",
	      !load(&t, 32, sizeof(names), err) &&
	      t.source == ITRACE_SYMS_DYNSYM && t.nr == 8);
	build(2);
	shdr(3, 0, 0, 0, 0, 0);
	CHECK("elfsym: stripped: no table, no error",
	      !load(&t, 32, sizeof(names), err) &&
	      t.source == ITRACE_SYMS_NONE && !t.nr && !err[0]);
}

struct bad_case {
	const char *name;
	void (*spoil)(void);
	const char *err;
};

static void short_file(void) { img_size = 40; }
static void bad_magic(void) { img[1] = 'X'; }
static void be_file(void) { img[5] = 2; }
static void rel_file(void) { put16(16, 1); }
static void ph_out(void) { put64(32, IMG_SIZE - 8); }
static void sh_out(void) { put16(60, 200); }
static void load_out(void) { put64(PH_OFF + 32, IMG_SIZE + 1); }
static void sym_entsize(void) { shdr(3, 2, SYM_OFF, 24 * 12, 2, 16); }
static void sym_out(void) { shdr(3, 2, IMG_SIZE - 24, 48, 2, 24); }
static void no_strtab(void) { shdr(3, 2, SYM_OFF, 24 * 12, 0, 24); }
static void strtab_type(void) { shdr(2, 1, STR_OFF, sizeof(strs), 0, 0); }
static void strtab_out(void) { shdr(2, 3, STR_OFF, 0x100000, 0, 0); }
static void link_out(void) { shdr(3, 2, SYM_OFF, 24 * 12, 9, 24); }

static const struct bad_case bads[] = {
	{ "a file shorter than its header", short_file,
	  "not an ELF file (too short)" },
	{ "bad magic", bad_magic, "not an ELF file" },
	{ "big-endian", be_file, "not a 64-bit little-endian ELF file" },
	{ "a relocatable object", rel_file,
	  "ELF type 1: not a program or shared object" },
	{ "program headers past the end", ph_out, "bad program headers" },
	{ "section headers past the end", sh_out, "bad section headers" },
	{ "a segment past the end", load_out,
	  "loadable segment 0 outside the file" },
	{ "a symbol table with a wrong entry size", sym_entsize,
	  "section 3: bad symbol table" },
	{ "a symbol table past the end", sym_out, "section 3: bad symbol table" },
	{ "a symbol table without strings", no_strtab,
	  "section 3: no string table" },
	{ "strings that are no string table", strtab_type,
	  "section 2: bad string table" },
	{ "strings past the end", strtab_out, "section 2: bad string table" },
	{ "a string table link past the sections", link_out,
	  "section 3: no string table" },
};

static void test_bad(void)
{
	struct itrace_symtab t;
	char err[160], name[200];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bads); i++) {
		build(2);
		bads[i].spoil();
		snprintf(name, sizeof(name), "elfsym: %s: refused", bads[i].name);
		CHECK(name, load(&t, 32, sizeof(names), err) == -ENOEXEC &&
		      !t.nr);
		snprintf(name, sizeof(name), "elfsym: %s: '%s'", bads[i].name,
			 bads[i].err);
		CHECK_STR(name, err, bads[i].err);
	}
}

/* Names at the end of the strings without a NUL: cut inside the table. */
static void test_names(void)
{
	struct itrace_symtab t;
	char err[160];

	build(2);
	/* the last name, "far", runs to the table's end without its NUL */
	shdr(2, 3, STR_OFF, sizeof(strs) - 1, 0, 0);
	CHECK("elfsym: a name without NUL at the strings' end is cut there",
	      !load(&t, 32, sizeof(names), err) && t.nr == 8);
	CHECK_STR("elfsym: ... to the bytes the table has", at(&t, 0x814), "fa");
}

int main(void)
{
	test_good();
	test_room();
	test_bad();
	test_names();
	return check_failed ? 1 : 0;
}
