// SPDX-License-Identifier: GPL-2.0
/*
 * elfsym_tool FILE: runs the module's ELF symbol reader (elfsym.c) over
 * FILE and prints what it kept, for tests/host/elfsym_nm.py to hold
 * against nm: one "value size name" line per symbol (hex, in the
 * table's order: by file offset), then
 *   # source symtab|dynsym|none total N kept N dropped N build-id HEX|none
 * With -l OFF...: the symbol covering each file offset instead, one
 * "off name value" line each ("off -" for none). Exit status 1 with the
 * reader's error line on a bad file.
 */
#include <errno.h>
#include <stdlib.h>
#include "lib/elfsym.h"
#include "tool.h"

static const char *const sources[] = { "none", "symtab", "dynsym" };

int main(int argc, char **argv)
{
	struct itrace_elf_info info;
	struct itrace_symtab t = { 0 };
	struct itrace_elf_src src;
	unsigned char *file;
	char err[160];
	size_t size;
	u32 i;
	int a;

	if (argc < 2) {
		fprintf(stderr, "usage: elfsym_tool FILE [-l OFF...]\n");
		return 2;
	}
	file = slurp(argv[1], &size);
	if (!file) {
		perror(argv[1]);
		return 2;
	}
	src.read = itrace_elf_mem_read;
	src.ctx = file;
	src.size = size;
	if (itrace_elf_probe(&src, &info, err, sizeof(err))) {
		printf("error: %s\n", err);
		return 1;
	}
	t.max_syms = info.nsyms;
	/* room for every name even where the table shares suffixes */
	t.max_names = info.strsz + info.nsyms * (ITRACE_SYM_NAME_MAX + 1);
	t.syms = calloc(t.max_syms + 1, sizeof(*t.syms));
	t.names = calloc(t.max_names, 1);
	if (itrace_elf_load(&src, &t, err, sizeof(err))) {
		printf("error: %s\n", err);
		return 1;
	}
	if (argc > 2 && !strcmp(argv[2], "-l")) {
		for (a = 3; a < argc; a++) {
			u64 off = strtoull(argv[a], NULL, 16);
			const struct itrace_sym *s = itrace_sym_at(&t, off);

			if (s)
				printf("%llx %s %llx\n", (unsigned long long)off,
				       itrace_sym_name(&t, s),
				       (unsigned long long)s->value);
			else
				printf("%llx -\n", (unsigned long long)off);
		}
		return 0;
	}
	for (i = 0; i < t.nr; i++)
		printf("%llx %x %s\n", (unsigned long long)t.syms[i].value,
		       t.syms[i].size, itrace_sym_name(&t, &t.syms[i]));
	printf("# source %s total %u kept %u dropped %u build-id ",
	       sources[t.source], t.total, t.nr, t.dropped);
	for (i = 0; i < info.build_id_len; i++)
		printf("%02x", info.build_id[i]);
	printf("%s\n", info.build_id_len ? "" : "none");
	return 0;
}
