// SPDX-License-Identifier: GPL-2.0
/*
 * mem_mprot_text: the program makes the page of its own text that holds
 * a small function writable (PROT_READ|PROT_WRITE|PROT_EXEC), patches
 * that function's immediate (x86 mov $imm, %eax; POWER li r3, imm),
 * calls it, restores the old immediate and PROT_READ|PROT_EXEC, and
 * calls it again. Prints the values.
 *
 * Catches: a tracer that keeps breakpoints, probes or decoded copies of
 * text and loses or misplaces them when the text page turns writable
 * and private (COW of file-backed text), or runs the old bytes after
 * the patch.
 */
#include "../tt.h"
#include <stdint.h>
#include <sys/mman.h>

int tt_patchme(void);
extern unsigned char tt_patchme_imm[];

#if defined(__x86_64__)
asm(".text\n"
    ".globl tt_patchme\n"
    ".type tt_patchme, @function\n"
    "tt_patchme:\n\t"
    ".byte 0xb8\n"			/* mov $imm32, %eax */
    ".globl tt_patchme_imm\n"
    "tt_patchme_imm:\n\t"
    ".long 11\n\t"
    "ret\n"
    ".size tt_patchme, .-tt_patchme\n");
#define IMM_OFF		0
#elif defined(__powerpc64__)
asm(".text\n"
    ".globl tt_patchme\n"
    ".type tt_patchme, @function\n"
    "tt_patchme:\n"
    ".globl tt_patchme_imm\n"
    "tt_patchme_imm:\n\t"
    "li 3, 11\n\t"
    "blr\n"
    ".size tt_patchme, .-tt_patchme\n");
#define IMM_OFF		0	/* low halfword first (little-endian) */
#endif

static void set_imm(int v)
{
#if defined(__x86_64__)
	memcpy(tt_patchme_imm + IMM_OFF, &v, 4);
#elif defined(__powerpc64__)
	uint16_t h = v;

	memcpy(tt_patchme_imm + IMM_OFF, &h, 2);
#endif
	__builtin___clear_cache((char *)tt_patchme_imm,
				(char *)tt_patchme_imm + 4);
}

TT_MAIN
{
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)tt_patchme_imm & ~(uintptr_t)(ps - 1);
	/* the immediate may straddle into the next page on x86 */
	size_t len = ((uintptr_t)tt_patchme_imm + 4 - a + ps - 1) & ~(ps - 1);
	int before, patched, restored;

	before = tt_patchme();
	tt_sys(mprotect((void *)a, len, PROT_READ | PROT_WRITE | PROT_EXEC));
	set_imm(77);
	patched = tt_patchme();
	set_imm(11);
	tt_sys(mprotect((void *)a, len, PROT_READ | PROT_EXEC));
	restored = tt_patchme();
	tt_say("before %d, patched %d, restored %d\n", before, patched,
	       restored);
	tt_check(before == 11 && patched == 77 && restored == 11);
	tt_ok();
	return 0;
}
