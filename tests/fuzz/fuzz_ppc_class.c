// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the POWER classifier (arch/powerpc/lib/insn_class.c).
 * The input is the instruction word and the word after it, little-endian
 * as ppc64le stores them (missing bytes are zero). Checked: only the
 * unused opcodes, bad sc forms and prefixes fail; a result is
 * well formed (flags 0 or 1, kind and fields consistent with the opcode
 * and each other); and the next word matters to prefixes only.
 */
#include "fuzz.h"
#include "arch/powerpc/lib/insn_class.h"
#include "lib/kind.h"

#define PO(w)	((w) >> 26)

static u32 word(const u8 *data, size_t size, size_t at)
{
	u32 w = 0;
	size_t i;

	for (i = 0; i < 4 && at + i < size; i++)
		w |= (u32)data[at + i] << (8 * i);
	return w;
}

static bool same(const struct itrace_ppc_insn *a,
		 const struct itrace_ppc_insn *b)
{
	return a->kind == b->kind && a->cond == b->cond &&
	       a->link == b->link && a->direct == b->direct &&
	       a->abs == b->abs && a->larx == b->larx && a->stcx == b->stcx &&
	       a->len == b->len && a->disp == b->disp;
}

static void check_ok(u32 w, const struct itrace_ppc_insn *c)
{
	unsigned int po = PO(w);

	FUZZ_ASSERT(c->cond <= 1 && c->link <= 1 && c->direct <= 1);
	FUZZ_ASSERT(c->abs <= 1 && c->larx <= 1 && c->stcx <= 1);
	FUZZ_ASSERT(c->len == (po == 1 ? 8 : 4));
	FUZZ_ASSERT(c->kind < ITRACE_K_NR);
	FUZZ_ASSERT(c->kind != ITRACE_K_JCC_NT && c->kind != ITRACE_K_ASYNC &&
		    c->kind != ITRACE_K_FAR);
	FUZZ_ASSERT(!(c->larx && c->stcx));
	FUZZ_ASSERT(!(c->larx || c->stcx) ||
		    (po == 31 && c->kind == ITRACE_K_INSN));
	if (c->direct) {
		FUZZ_ASSERT(po == 16 || po == 18);
		FUZZ_ASSERT(!(c->disp & 3));
		FUZZ_ASSERT(c->abs == ((w >> 1) & 1));
		FUZZ_ASSERT(po == 18 ? c->disp >= -0x2000000 && c->disp < 0x2000000 :
			    c->disp >= -0x8000 && c->disp < 0x8000);
	} else {
		FUZZ_ASSERT(!c->disp && !c->abs);
		FUZZ_ASSERT(c->kind != ITRACE_K_JMP && c->kind != ITRACE_K_JCC);
	}
	if (c->kind == ITRACE_K_CALL)
		FUZZ_ASSERT(c->direct && c->link);
	if (c->link)
		FUZZ_ASSERT(c->kind == ITRACE_K_CALL ||
			    c->kind == ITRACE_K_ICALL ||
			    c->kind == ITRACE_K_SYSCALL);
	if (c->cond)
		FUZZ_ASSERT(c->kind != ITRACE_K_INSN &&
			    c->kind != ITRACE_K_SYSCALL &&
			    c->kind != ITRACE_K_IRET);
	if (c->kind == ITRACE_K_SYSCALL)
		FUZZ_ASSERT(po == 17);
	if (c->kind == ITRACE_K_INT)
		FUZZ_ASSERT(po == 2 || po == 3 || po == 31);
	if (c->kind == ITRACE_K_IRET || c->kind == ITRACE_K_RET ||
	    c->kind == ITRACE_K_IJMP || c->kind == ITRACE_K_ICALL)
		FUZZ_ASSERT(po == 19);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct itrace_ppc_insn c, d;
	u32 w = word(data, size, 0), next = word(data, size, 4);
	unsigned int po = PO(w);
	int ret = itrace_ppc_classify(w, next, &c);

	FUZZ_ASSERT(ret == 0 || ret == -1);
	if (po == 0 || po == 5 || po == 9 || po == 22)
		FUZZ_ASSERT(ret == -1);
	if (ret) {
		FUZZ_ASSERT(po == 0 || po == 1 || po == 5 || po == 9 ||
			    po == 22 || (po == 17 && !(w & 3)));
	} else {
		check_ok(w, &c);
	}

	/* Only a prefix looks at the next word. */
	FUZZ_ASSERT(itrace_ppc_classify(w, ~next, &d) == ret ||
		    po == 1);
	if (!ret && po != 1)
		FUZZ_ASSERT(same(&c, &d));
	return 0;
}
