// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction at an address, off the box, for script's -F +insn and
 * +disasm: its bytes read from the captured file that maps it (the file
 * sym.c checked against the capture's build-id, under --symfs), its
 * length from kdb-itrace's own x86 decoder (the trap path's; POWER's are
 * 4 bytes), its text from capstone (Intel syntax on x86, as perf script
 * --xed and objdump -M intel write it). Kept in the address's struct
 * sym, so each address is read and disassembled once.
 */
#include <capstone/capstone.h>
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump.h"
#include "arch/x86/lib/insn_decode.h"

/* capstone's handles, opened at first use: x86-64, x86-32, ppc64le */
static csh handles[3];
static bool opened[3], failed[3];

static bool is_ppc(const struct capture *c)
{
	return !strncmp(c->arch, "ppc", 3);
}

/* the mapping of @t that holds @addr, or NULL */
static const struct map *map_of(const struct take *t, uint64_t addr)
{
	size_t i;

	for (i = 0; t && i < t->nr_maps; i++)
		if (addr >= t->maps[i].start && addr < t->maps[i].end)
			return &t->maps[i];
	return NULL;
}

size_t code_read(const struct take *t, uint64_t addr, void *buf, size_t n,
		 int *elf_class)
{
	const struct map *m = map_of(t, addr);
	int fd = m ? sym_code_file(m, elf_class) : -1;
	ssize_t got;

	if (fd < 0)
		return 0;
	if (n > m->end - addr)
		n = m->end - addr;
	got = pread(fd, buf, n, addr - m->start + m->off);
	return got > 0 ? got : 0;
}

/* @s's bytes: the instruction's, as far as the file has them */
static void read_code(struct capture *c, struct take *t, uint64_t addr,
		      struct sym *s, int *elf_class)
{
	size_t n = code_read(t, addr, s->code, sizeof(s->code), elf_class);
	struct itrace_x86_insn in;

	if (!n)
		return;
	if (is_ppc(c)) {
		s->code_len = n >= 4 ? 4 : 0;
		return;
	}
	if (!itrace_x86_decode(s->code, n, *elf_class == ELFCLASS32 ?
			       ITRACE_X86_MODE32 : ITRACE_X86_MODE64, &in))
		s->code_len = in.len;
}

static csh *handle(struct capture *c, int elf_class)
{
	int i = is_ppc(c) ? 2 : elf_class == ELFCLASS32 ? 1 : 0;
	cs_err e;

	if (!opened[i] && !failed[i]) {
		e = i == 2 ? cs_open(CS_ARCH_PPC, CS_MODE_64 | CS_MODE_LITTLE_ENDIAN,
				     &handles[i]) :
			     cs_open(CS_ARCH_X86, i ? CS_MODE_32 : CS_MODE_64,
				     &handles[i]);
		opened[i] = e == CS_ERR_OK;
		failed[i] = !opened[i];
		if (failed[i])
			fprintf(stderr, "itrace-dump: capstone: %s: no disassembly\n",
				cs_strerror(e));
	}
	return opened[i] ? &handles[i] : NULL;
}

void code_of(struct capture *c, struct take *t, uint64_t addr,
	     const struct sym *cs, bool disasm)
{
	struct sym *s = (struct sym *)cs;
	int elf_class = ELFCLASS64;
	cs_insn *in;
	csh *h;

	if (s->code_done)
		return;
	s->code_done = true;
	read_code(c, t, addr, s, &elf_class);
	if (!disasm || !s->code_len || !(h = handle(c, elf_class)))
		return;
	if (cs_disasm(*h, s->code, s->code_len, addr, 1, &in) == 1) {
		if (asprintf(&s->disasm, "%s%s%s", in->mnemonic,
			     in->op_str[0] ? " " : "", in->op_str) < 0)
			s->disasm = NULL;
		cs_free(in, 1);
	}
}

void code_exit(void)
{
	int i;

	for (i = 0; i < 3; i++)
		if (opened[i])
			cs_close(&handles[i]);
	memset(opened, 0, sizeof(opened));
}
