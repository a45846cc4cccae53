// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the ELF symbol reader (kdb-itrace/lib/elfsym.c): the
 * input is the file, read through the callback from an exactly-sized
 * heap copy (so any read past it is ASan's). Checked: probe and load
 * agree, nothing is kept past the caller's buffers (also small ones),
 * every name lies in the names and ends there, the table is sorted by
 * file offset, each symbol is found again at its own offset, and kept
 * plus dropped is every function seen.
 */
#include "fuzz.h"
#include "lib/elfsym.h"

static void check_table(const struct itrace_symtab *t)
{
	u32 i;

	FUZZ_ASSERT(t->nr <= t->max_syms && t->names_len <= t->max_names &&
		    t->nr + t->dropped == t->total);
	for (i = 0; i < t->nr; i++) {
		const struct itrace_sym *s = &t->syms[i], *f;

		FUZZ_ASSERT(s->name < t->names_len &&
			    memchr(t->names + s->name, 0, t->names_len - s->name));
		FUZZ_ASSERT(!i || t->syms[i - 1].off <= s->off);
		f = itrace_sym_at(t, s->off);
		FUZZ_ASSERT(!s->size || (f && f->off == s->off));
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 *copy = fuzz_copy(data, size);
	struct itrace_elf_src src = { itrace_elf_mem_read, copy, size };
	struct itrace_elf_info info;
	struct itrace_symtab t = { 0 };
	char err[160];
	int pass;

	if (itrace_elf_probe(&src, &info, err, sizeof(err))) {
		FUZZ_ASSERT(err[0]);
		FUZZ_ASSERT(itrace_elf_load(&src, &t, err, sizeof(err)));
		free(copy);
		return 0;
	}
	/* once with room for all, once with a little */
	for (pass = 0; pass < 2; pass++) {
		t.max_syms = pass ? info.nsyms / 3 : info.nsyms;
		t.max_names = pass ? info.strsz / 4 : info.strsz +
			      info.nsyms * (ITRACE_SYM_NAME_MAX + 1);
		t.syms = (void *)fuzz_alloc(t.max_syms * sizeof(*t.syms));
		t.names = (char *)fuzz_alloc(t.max_names);
		FUZZ_ASSERT(!itrace_elf_load(&src, &t, err, sizeof(err)) &&
			    t.source == info.source);
		check_table(&t);
		itrace_sym_at(&t, size / 2);
		free(t.syms);
		free(t.names);
	}
	free(copy);
	return 0;
}
