// SPDX-License-Identifier: GPL-2.0
/*
 * Names of addresses, from elfutils' libdwfl: per take of a task's
 * mappings one Dwfl session, reported from the take's map lines as a
 * /proc/PID/maps text (dwfl_linux_proc_maps_report: the offset-0
 * mapping of each file is what places it), the files opened under
 * --symfs and checked against the capture's build-id. Function names
 * come from each module's symbol table as libdwfl finds it (the file's,
 * or its separate debug file's), read once into a table sorted by
 * address (module_syms) and looked up by libdwfl's own rule. Results are
 * cached per (session, address): a branch log repeats few addresses.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump.h"

static const struct sym_opts *opts;
static char *debuginfo_path;
/* the take being looked up: find_elf checks its build-ids */
static const struct take *cur;

/* the table moves when it grows; the names it points to never do */
struct entry {
	const void *dwfl;
	uint64_t addr;
	struct sym *sym;
};

#define SYMS_PER_BLOCK	1024

struct sym_block {
	struct sym_block *next;
	size_t used;
	struct sym syms[SYMS_PER_BLOCK];
};

static struct sym_block *blocks;

static struct sym *sym_new(void)
{
	struct sym_block *b = blocks;

	if (!b || b->used == SYMS_PER_BLOCK) {
		b = calloc(1, sizeof(*b));
		if (!b)
			return NULL;
		b->next = blocks;
		blocks = b;
	}
	return &b->syms[b->used++];
}

static struct entry *cache;
static size_t cache_nr, cache_cap;

/* files already warned about, so each is named once */
static char **warned;
static size_t nr_warned;

static void warn_once(const char *path, const char *what)
{
	size_t i;
	char **n;

	for (i = 0; i < nr_warned; i++)
		if (!strcmp(warned[i], path))
			return;
	n = realloc(warned, (nr_warned + 1) * sizeof(*n));
	if (n) {
		warned = n;
		warned[nr_warned++] = strdup(path);
	}
	fprintf(stderr, "itrace-dump: %s: %s; its addresses print raw\n", path, what);
}

static const char *capture_build_id(const char *path)
{
	size_t i;

	for (i = 0; cur && i < cur->nr_maps; i++)
		if (!strcmp(cur->maps[i].path, path))
			return cur->maps[i].build_id;
	return NULL;
}

/* Does @elf's GNU build-id read as the lower-case hex @want? */
static bool same_build_id(Elf *elf, const char *want)
{
	const unsigned char *id;
	ssize_t n = dwelf_elf_gnu_build_id(elf, (const void **)&id);
	char hex[2 * 128 + 1];
	ssize_t i;

	if (n <= 0 || n > 128)
		return false;
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	return !strcmp(hex, want);
}

/*
 * The file a mapping's path names (@modname, as the capture has it,
 * escaped), under --symfs, if it is the ELF file the capture saw (its
 * build-id, @want, when the capture has one). Its fd and *@elfp, or -1
 * after naming the file once on stderr. Messages keep the escaped form.
 */
static int open_checked(const char *modname, const char *want,
			char **file_name, Elf **elfp)
{
	const char *symfs = opts->symfs ? opts->symfs : "";
	char path[4096], file[4096], name[4096];
	Elf *elf;
	int fd;

	*elfp = NULL;
	if (strlen(modname) >= sizeof(name) ||
	    snprintf(path, sizeof(path), "%s%s", symfs, modname) >= (int)sizeof(path))
		return -1;
	capture_unescape(name, modname);
	snprintf(file, sizeof(file), "%s%s", symfs, name);
	fd = open(file, O_RDONLY);
	if (fd < 0) {
		warn_once(path, "not found");
		return -1;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		warn_once(path, "not an ELF file");
		goto fail;
	}
	if (want && !same_build_id(elf, want)) {
		warn_once(path, "build-id differs from the capture's (changed since?)");
		goto fail;
	}
	*file_name = strdup(file);
	*elfp = elf;
	return fd;
fail:
	if (elf)
		elf_end(elf);
	close(fd);
	return -1;
}

/* libdwfl's find_elf: the mapping's path under --symfs, if unchanged */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		    Dwarf_Addr base, char **file_name, Elf **elfp)
{
	(void)mod;
	(void)userdata;
	(void)base;
	return open_checked(modname, capture_build_id(modname), file_name, elfp);
}

/* files code_file() opened: each path once */
struct code_file {
	const char *modname;	/* the capture's */
	int fd;			/* -1: not there, or not the capture's */
	int elf_class;		/* ELFCLASS32, ELFCLASS64 */
};

static struct code_file *code_files;
static size_t nr_code_files;

/*
 * An fd on the file @m names, checked as libdwfl's are (the same
 * messages, once), for reading instruction bytes; -1 if none.
 */
int sym_code_file(const struct map *m, int *elf_class)
{
	struct code_file *n;
	char *file = NULL;
	Elf *elf;
	size_t i;
	int fd;

	for (i = 0; i < nr_code_files; i++)
		if (code_files[i].modname == m->path ||
		    !strcmp(code_files[i].modname, m->path)) {
			*elf_class = code_files[i].elf_class;
			return code_files[i].fd;
		}
	n = realloc(code_files, (nr_code_files + 1) * sizeof(*n));
	if (!n)
		return -1;
	code_files = n;
	fd = open_checked(m->path, m->build_id, &file, &elf);
	free(file);
	n = &code_files[nr_code_files++];
	n->modname = m->path;
	n->fd = fd;
	n->elf_class = elf ? gelf_getclass(elf) : ELFCLASSNONE;
	if (elf)
		elf_end(elf);
	*elf_class = n->elf_class;
	return fd;
}

static const Dwfl_Callbacks callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

/*
 * With --symfs, separate debug files are looked for under it too (its
 * usr/lib/debug, .build-id included), never in this machine's own
 * /usr/lib/debug: the files under DIR are the traced machine's.
 */
int sym_init(const struct sym_opts *o)
{
	opts = o;
	elf_version(EV_CURRENT);
	if (o->symfs &&
	    asprintf(&debuginfo_path, ":.debug:%s/usr/lib/debug", o->symfs) < 0)
		return -1;
	return 0;
}

/* Same mappings (a thread of the same process, armed apart)? */
static bool same_maps(const struct take *a, const struct take *b)
{
	size_t i;

	if (a->tgid != b->tgid || a->nr_maps != b->nr_maps)
		return false;
	for (i = 0; i < a->nr_maps; i++)
		if (a->maps[i].start != b->maps[i].start ||
		    a->maps[i].off != b->maps[i].off ||
		    strcmp(a->maps[i].path, b->maps[i].path))
			return false;
	return true;
}

/*
 * The take's mappings as /proc/PID/maps lines, for libdwfl: device 00:01
 * and a made-up inode per path (libdwfl groups lines by them; an inode
 * of 0 would read as an anonymous mapping).
 */
static char *maps_text(const struct take *t, size_t *len)
{
	size_t i, j, cap = 256, n = 0;
	char *s = malloc(cap), *ns;

	for (i = 0; s && i < t->nr_maps; i++) {
		const struct map *m = &t->maps[i];
		size_t need = strlen(m->path) + 128;

		for (j = 0; j < i && strcmp(t->maps[j].path, m->path); j++)
			;
		if (n + need > cap) {
			cap = (n + need) * 2;
			ns = realloc(s, cap);
			if (!ns) {
				free(s);
				return NULL;
			}
			s = ns;
		}
		n += snprintf(s + n, cap - n, "%" PRIx64 "-%" PRIx64 " %s %08" PRIx64
			      " 00:01 %zu %s\n", m->start, m->end, m->perms,
			      m->off, j + 1, m->path);
	}
	*len = n;
	return s;
}

/* every session made, ended at exit */
static Dwfl **sessions;
static size_t nr_sessions;

static Dwfl *make_dwfl(struct take *t)
{
	Dwfl *d = dwfl_begin(&callbacks), **n;
	size_t len = 0;
	char *text;
	FILE *f;

	if (!d)
		return NULL;
	n = realloc(sessions, (nr_sessions + 1) * sizeof(*n));
	if (!n) {
		dwfl_end(d);
		return NULL;
	}
	sessions = n;
	sessions[nr_sessions++] = d;
	text = maps_text(t, &len);
	f = text ? fmemopen(text, len ? len : 1, "r") : NULL;
	dwfl_report_begin(d);
	if (f && len && dwfl_linux_proc_maps_report(d, f))
		fprintf(stderr, "itrace-dump: pid %u: its mappings (line %u) do not place: %s\n",
			t->pid, t->line, dwfl_errmsg(-1));
	dwfl_report_end(d, NULL, NULL);
	if (f)
		fclose(f);
	free(text);
	return d;
}

static Dwfl *take_dwfl(struct take *t, struct take *all, size_t nr)
{
	size_t i;

	if (t->dwfl)
		return t->dwfl;
	for (i = 0; i < nr; i++)
		if (&all[i] != t && all[i].dwfl && same_maps(&all[i], t)) {
			t->dwfl = all[i].dwfl;
			return t->dwfl;
		}
	t->dwfl = make_dwfl(t);
	return t->dwfl;
}

static size_t hash(const void *d, uint64_t addr)
{
	uint64_t h = (addr ^ (uintptr_t)d) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ (h >> 29));
}

static struct entry *slot(const void *d, uint64_t addr)
{
	size_t i = hash(d, addr) & (cache_cap - 1);

	while (cache[i].dwfl && (cache[i].dwfl != d || cache[i].addr != addr))
		i = (i + 1) & (cache_cap - 1);
	return &cache[i];
}

static bool cache_grow(void)
{
	struct entry *old = cache;
	size_t i, ocap = cache_cap;

	cache_cap = ocap ? ocap * 2 : 4096;
	cache = calloc(cache_cap, sizeof(*cache));
	if (!cache) {
		cache = old;
		cache_cap = ocap;
		return false;
	}
	for (i = 0; i < ocap; i++)
		if (old[i].dwfl)
			*slot(old[i].dwfl, old[i].addr) = old[i];
	free(old);
	return true;
}

/*
 * A module's code symbols, sorted by address, looked up as libdwfl's
 * dwfl_module_addrinfo() does: the sized symbol that covers the
 * address and starts nearest below it; else the sizeless one at the
 * nearest start below it, if it lies in the address's section. Built
 * once per module: libdwfl walks its whole table at every lookup.
 */
struct dsym {
	uint64_t addr;
	uint64_t end;		/* sized: addr + size; else its section's end */
	uint32_t name;		/* into names */
	uint8_t sized;
	uint8_t rank;		/* binding: 0 global, 1 weak, 2 local */
};

struct mod_syms {
	Dwfl_Module *mod;
	struct dsym *syms;
	size_t nr, cap;
	char *names;
	size_t names_len, names_cap;
	uint64_t max_size;	/* of a sized symbol: how far back to look */
};

static struct mod_syms **mods;
static size_t nr_mods;

static int by_addr(const void *a, const void *b)
{
	const struct dsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* @name up to its version ("@GLIBC_2.2.5") into @ms's names; or -1 */
static int64_t add_name(struct mod_syms *ms, const char *name)
{
	size_t n = strcspn(name, "@"), at = ms->names_len;
	char *nn;

	if (at + n + 1 > ms->names_cap) {
		ms->names_cap = (at + n + 1) * 2;
		nn = realloc(ms->names, ms->names_cap);
		if (!nn || ms->names_cap > UINT32_MAX)
			return -1;
		ms->names = nn;
	}
	memcpy(ms->names + at, name, n);
	ms->names[at + n] = '\0';
	ms->names_len += n + 1;
	return at;
}

/* the end of section @shndx of @elf, at its load address, or 0 */
static uint64_t section_end(Elf *elf, GElf_Word shndx, Dwarf_Addr bias)
{
	Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || !sh.sh_addr)
		return 0;
	return sh.sh_addr + bias + sh.sh_size;
}

/* Symbol @i of @m into @ms if it names code; false when memory ran out. */
static bool take_sym(struct mod_syms *ms, Dwfl_Module *m, int i)
{
	GElf_Sym es;
	GElf_Addr a;
	GElf_Word shndx;
	Dwarf_Addr bias;
	Elf *elf;
	const char *name = dwfl_module_getsym_info(m, i, &es, &a, &shndx, &elf,
						   &bias);
	int type = GELF_ST_TYPE(es.st_info), bind = GELF_ST_BIND(es.st_info);
	struct dsym d = { .addr = a }, *n;
	int64_t at;

	if (!name || !*name || *name == '$' || shndx == SHN_UNDEF ||
	    shndx == SHN_ABS || !a ||
	    (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE))
		return true;
	d.sized = es.st_size != 0;
	d.end = d.sized ? a + es.st_size : section_end(elf, shndx, bias);
	if (d.end <= a)
		return true;
	d.rank = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
	if (ms->nr == ms->cap) {
		ms->cap = ms->cap ? ms->cap * 2 : 1024;
		n = realloc(ms->syms, ms->cap * sizeof(*n));
		if (!n)
			return false;
		ms->syms = n;
	}
	at = add_name(ms, name);
	if (at < 0)
		return false;
	d.name = at;
	if (d.sized && es.st_size > ms->max_size)
		ms->max_size = es.st_size;
	ms->syms[ms->nr++] = d;
	return true;
}

/* @m's table, read at its first lookup; NULL when memory ran out */
static struct mod_syms *module_syms(Dwfl_Module *m)
{
	struct mod_syms *ms, **nm;
	size_t i;
	int n;

	for (i = 0; i < nr_mods; i++)
		if (mods[i]->mod == m)
			return mods[i];
	nm = realloc(mods, (nr_mods + 1) * sizeof(*nm));
	if (!nm)
		return NULL;
	mods = nm;
	ms = calloc(1, sizeof(*ms));
	if (!ms)
		return NULL;
	mods[nr_mods++] = ms;
	ms->mod = m;
	n = dwfl_module_getsymtab(m);
	for (i = 1; n > 0 && i < (size_t)n; i++)
		if (!take_sym(ms, m, i))
			break;
	if (ms->nr)
		qsort(ms->syms, ms->nr, sizeof(*ms->syms), by_addr);
	return ms;
}

/* The symbol naming @addr in @ms (the rule above), or NULL. */
static const struct dsym *module_sym_at(const struct mod_syms *ms,
					uint64_t addr)
{
	const struct dsym *best = NULL, *s;
	size_t lo = 0, hi = ms ? ms->nr : 0, j;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ms->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* back from the nearest start: the first sized cover starts
	 * nearest (ranks sort aliases at one start, best first)
	 */
	for (j = lo; j > 0; j--) {
		s = &ms->syms[j - 1];
		if (best ? s->addr != best->addr :
			   s->addr + ms->max_size <= addr)
			break;
		if (s->sized && addr < s->end && (!best || s->rank < best->rank))
			best = s;
	}
	if (best)
		return best;
	for (j = lo; j > 0 && ms->syms[j - 1].addr == ms->syms[lo - 1].addr; j--) {
		s = &ms->syms[j - 1];
		if (!s->sized && addr < s->end && (!best || s->rank <= best->rank))
			best = s;
	}
	return best;
}

/* The file of entry @idx of the CU's file table, or NULL. */
static const char *cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t n;

	if (dwarf_getsrcfiles(cu, &files, &n) || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/*
 * Append to *s, for each inlined call enclosing the address (innermost
 * first), " inlined into CALLER at FILE:LINE": the call site's place,
 * from the inlined subroutine's DW_AT_call_file and DW_AT_call_line.
 */
static void inlines(Dwfl_Module *m, uint64_t addr, char **s)
{
	Dwarf_Die *cu, *scopes = NULL, *first = NULL, cu_die;
	Dwarf_Addr bias;
	int n, i, j;

	cu = dwfl_module_addrdie(m, addr, &bias);
	if (!cu || !dwarf_diecu(cu, &cu_die, NULL, NULL))
		return;
	/*
	 * dwarf_getscopes() follows an inlined subroutine to its abstract
	 * origin's scopes; the concrete chain (the functions it was inlined
	 * into) is the innermost scope's own nesting.
	 */
	n = dwarf_getscopes(cu, addr - bias, &first);
	if (n <= 0 || dwarf_tag(&first[0]) != DW_TAG_inlined_subroutine) {
		free(first);
		return;
	}
	n = dwarf_getscopes_die(&first[0], &scopes);
	free(first);
	for (i = 0; i < n; i++) {
		Dwarf_Attribute a;
		Dwarf_Word file, line;
		const char *caller = "?", *f;
		char *t;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine ||
		    dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a), &file) ||
		    dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a), &line))
			continue;
		for (j = i + 1; j < n; j++)
			if (dwarf_tag(&scopes[j]) == DW_TAG_subprogram ||
			    dwarf_tag(&scopes[j]) == DW_TAG_inlined_subroutine) {
				caller = dwarf_diename(&scopes[j]);
				if (!caller && dwarf_attr_integrate(&scopes[j], DW_AT_name, &a))
					caller = dwarf_formstring(&a);
				break;
			}
		f = cu_file(&cu_die, file);
		if (asprintf(&t, "%s inlined into %s at %s:%llu", *s,
			     caller ? caller : "?", f ? f : "??",
			     (unsigned long long)line) < 0)
			break;
		free(*s);
		*s = t;
	}
	free(scopes);
}

static char *srcline(Dwfl_Module *m, uint64_t addr)
{
	Dwfl_Line *l = dwfl_module_getsrc(m, addr);
	const char *file;
	char *s;
	int line = 0;

	if (!l)
		return NULL;
	file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	if (!file || asprintf(&s, "%s:%d", file, line) < 0)
		return NULL;
	inlines(m, addr, &s);
	return s;
}

static void resolve(Dwfl *d, uint64_t addr, struct sym *s)
{
	Dwfl_Module *m = d ? dwfl_addrmodule(d, addr) : NULL;
	const struct mod_syms *ms = m ? module_syms(m) : NULL;
	const struct dsym *fs = module_sym_at(ms, addr);
	const char *fn = fs ? ms->names + fs->name : NULL, *dso = NULL;
	uint64_t off = fs ? addr - fs->addr : 0;
	char *name;

	if (m)
		dso = dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	/* the module's name lives as long as the session */
	s->dso = dso ? dso : "[unknown]";
	/* (names are kept without their version: perf shows them bare) */
	if (fn && asprintf(&name, "%s+0x%" PRIx64, fn, off) >= 0) {
		s->name = name;
		s->func = strdup(fn);
		s->func_start = fs->addr;
	} else {
		s->name = "[unknown]";
	}
	if (s->func && !off)
		s->label = s->func;
	else if (s->func)
		s->label = s->name;
	else if (asprintf(&name, "0x%" PRIx64, addr) >= 0)
		s->label = name;
	else
		s->label = s->name;
	if (m && opts->srcline)
		s->srcline = srcline(m, addr);
}

/* The name of @addr in @t's mappings (never NULL). */
const struct sym *sym_lookup(struct capture *c, struct take *t, uint64_t addr)
{
	static struct sym unknown = {
		.name = "[unknown]", .dso = "[unknown]", .label = "?",
	};
	/* the cache's key for addresses of a task with no mappings */
	static char no_maps;
	struct entry *e;
	void *d;

	d = t ? t->dwfl : &no_maps;
	if (!d) {
		cur = t;
		d = take_dwfl(t, c->takes, c->nr_takes);
		if (!d)
			return &unknown;
	}
	if ((cache_nr + 1) * 2 > cache_cap && !cache_grow())
		return &unknown;
	e = slot(d, addr);
	if (e->dwfl)
		return e->sym;
	e->sym = sym_new();
	if (!e->sym)
		return &unknown;
	cur = t;
	e->dwfl = d;
	e->addr = addr;
	resolve(d == &no_maps ? NULL : d, addr, e->sym);
	cache_nr++;
	return e->sym;
}

void sym_exit(void)
{
	struct sym_block *b;
	size_t i;

	while ((b = blocks)) {
		blocks = b->next;
		for (i = 0; i < b->used; i++) {
			struct sym *s = &b->syms[i];

			if (s->label != s->func && s->label != s->name)
				free((char *)s->label);
			if (s->func)
				free((char *)s->name);
			free((char *)s->func);
			free((char *)s->srcline);
			free(s->disasm);
			free(s->text);
		}
		free(b);
	}
	for (i = 0; i < nr_code_files; i++)
		if (code_files[i].fd >= 0)
			close(code_files[i].fd);
	free(code_files);
	code_files = NULL;
	nr_code_files = 0;
	for (i = 0; i < nr_mods; i++) {
		free(mods[i]->syms);
		free(mods[i]->names);
		free(mods[i]);
	}
	free(mods);
	mods = NULL;
	nr_mods = 0;
	for (i = 0; i < nr_sessions; i++)
		dwfl_end(sessions[i]);
	free(sessions);
	sessions = NULL;
	nr_sessions = 0;
	for (i = 0; i < nr_warned; i++)
		free(warned[i]);
	free(warned);
	warned = NULL;
	nr_warned = 0;
	free(cache);
	cache = NULL;
	cache_nr = 0;
	cache_cap = 0;
}
