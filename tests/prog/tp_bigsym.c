// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for a traced task whose mapped file has a huge symbol
 * table: it writes FILE as a sparse ELF shared object whose .symtab
 * claims 2^26 entries (1.5 GiB of holes, read as zeros), maps its first
 * page executable, says "tp_bigsym: pid P ready" and blocks on FIFO.
 * Armed there, its arming work reads that table: the read must be
 * bounded in time, end at a kill, and never make other tasks' arming
 * wait. A second byte ends it (exit 0).
 *
 * usage: tp_bigsym FILE FIFO
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define NSYMS		(1ULL << 26)
#define SHSTR_OFF	4096
#define STR_OFF		4200
#define SH_OFF		8192
#define SYM_OFF		(1 << 20)

static const char shstr[] = "\0.symtab\0.strtab\0.shstrtab";

static int write_elf(int fd)
{
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
			     ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_DYN, .e_version = EV_CURRENT,
		.e_phoff = sizeof(Elf64_Ehdr), .e_shoff = SH_OFF,
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr), .e_phnum = 1,
		.e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 4,
		.e_shstrndx = 3,
	};
	Elf64_Phdr ph = {
		.p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0,
		.p_filesz = 4096, .p_memsz = 4096, .p_align = 4096,
	};
	Elf64_Shdr sh[4] = {
		[1] = { .sh_name = 1, .sh_type = SHT_SYMTAB, .sh_offset = SYM_OFF,
			.sh_size = NSYMS * sizeof(Elf64_Sym), .sh_link = 2,
			.sh_entsize = sizeof(Elf64_Sym) },
		[2] = { .sh_name = 9, .sh_type = SHT_STRTAB, .sh_offset = STR_OFF,
			.sh_size = 1 },
		[3] = { .sh_name = 17, .sh_type = SHT_STRTAB,
			.sh_offset = SHSTR_OFF, .sh_size = sizeof(shstr) },
	};

#if defined(__x86_64__)
	eh.e_machine = EM_X86_64;
#elif defined(__powerpc64__)
	eh.e_machine = EM_PPC64;
	eh.e_flags = 2;		/* ELFv2 */
#endif
	return pwrite(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	       pwrite(fd, &ph, sizeof(ph), eh.e_phoff) != sizeof(ph) ||
	       pwrite(fd, shstr, sizeof(shstr), SHSTR_OFF) != sizeof(shstr) ||
	       pwrite(fd, sh, sizeof(sh), SH_OFF) != sizeof(sh) ||
	       ftruncate(fd, SYM_OFF + NSYMS * sizeof(Elf64_Sym));
}

int main(int argc, char **argv)
{
	char c;
	int fd, q;

	if (argc != 3) {
		fprintf(stderr, "usage: tp_bigsym FILE FIFO\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0755);
	if (fd < 0 || write_elf(fd) ||
	    mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) ==
	    MAP_FAILED) {
		perror("tp_bigsym");
		return 1;
	}
	printf("tp_bigsym: pid %d ready\n", getpid());
	fflush(stdout);
	q = open(argv[2], O_RDWR);	/* a writer stays: reads block */
	if (q < 0 || read(q, &c, 1) != 1 || read(q, &c, 1) != 1)
		return 1;
	return 0;
}
