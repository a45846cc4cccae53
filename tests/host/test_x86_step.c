// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the x86 trap path's pure parts: the decoder memo
 * (insn_cache.h) must give exactly what the decoder gives for the same
 * bytes and mode, whatever it held before at that ip or at a colliding
 * one; and the kind of one single step (step_kind.h).
 */
#include <stdlib.h>
#include "check.h"
#include "arch/x86/lib/insn_cache.h"
#include "arch/x86/lib/step_kind.h"

static struct itrace_x86_dcache tab[ITRACE_X86_DCACHE];

static void words(const u8 *b, u64 *w0, u64 *w1)
{
	memcpy(w0, b, 8);
	memcpy(w1, b + 8, 8);
}

/* decode_cached() and decode() agree on the 16 bytes @b at @ip */
static bool same(u64 ip, const u8 *b, enum itrace_x86_mode mode)
{
	struct itrace_x86_insn c, d;
	int rc, rd;
	u64 w0, w1;

	words(b, &w0, &w1);
	memset(&c, 0xa5, sizeof(c));
	memset(&d, 0x5a, sizeof(d));
	rc = itrace_x86_decode_cached(tab, ip, w0, w1, mode, &c);
	rd = itrace_x86_decode(b, 16, mode, &d);
	/* field by field: the struct has padding */
	return rc == rd &&
	       (rd || (c.len == d.len && c.kind == d.kind && c.rep == d.rep &&
		       c.has_rel == d.has_rel && c.rel == d.rel &&
		       c.eflags == d.eflags));
}

static bool hit(u64 ip, const u8 *b, enum itrace_x86_mode mode)
{
	const struct itrace_x86_dcache *e = &tab[ip & (ITRACE_X86_DCACHE - 1)];
	u64 w0, w1;

	words(b, &w0, &w1);
	return e->tag == mode + 1 && e->w[0] == w0 && e->w[1] == w1;
}

static void cache_tests(void)
{
	/* nop with eight 66 prefixes: byte 8 is the opcode */
	u8 nop9[16] = { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
			0x90, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc };
	u8 call9[16];
	/* 48 = REX.W in 64-bit mode, dec %eax in 32-bit mode */
	u8 rex[16] = { 0x48, 0x01, 0xc2, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
		       0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc };
	u8 b[16];
	struct itrace_x86_insn d;
	u64 w0, w1, ip;
	int i, j, bad = 0;

	memcpy(call9, nop9, sizeof(call9));
	call9[8] = 0xe8;	/* 66 call rel16: another length and kind */

	CHECK("dcache miss decodes like the decoder",
	      same(0x1000, nop9, ITRACE_X86_MODE64) &&
	      hit(0x1000, nop9, ITRACE_X86_MODE64));
	CHECK("dcache hit decodes like the decoder",
	      same(0x1000, nop9, ITRACE_X86_MODE64));
	/* the same first 8 bytes, another instruction: not the old entry */
	CHECK("dcache compares all 16 bytes",
	      same(0x1000, call9, ITRACE_X86_MODE64) &&
	      hit(0x1000, call9, ITRACE_X86_MODE64));
	words(call9, &w0, &w1);
	itrace_x86_decode_cached(tab, 0x1000, w0, w1, ITRACE_X86_MODE64, &d);
	CHECK("dcache gives the new instruction after a rewrite",
	      d.len == 11 && d.kind == ITRACE_K_CALL);
	CHECK("dcache keeps 64- and 32-bit decodes apart",
	      same(0x2000, rex, ITRACE_X86_MODE64) &&
	      same(0x2000, rex, ITRACE_X86_MODE32) &&
	      hit(0x2000, rex, ITRACE_X86_MODE32) &&
	      same(0x2000, rex, ITRACE_X86_MODE64));
	/* two ips on one entry, taking turns */
	for (i = 0; i < 4; i++)
		bad += !same(0x3000, nop9, ITRACE_X86_MODE64) ||
		       !same(0x3000 + ITRACE_X86_DCACHE, call9,
			     ITRACE_X86_MODE64);
	CHECK("dcache colliding ips", !bad);
	/* an undecodable word is never remembered */
	memset(b, 0x06, sizeof(b));	/* push %es: #UD in 64-bit mode */
	memset(&tab[0x4000 & (ITRACE_X86_DCACHE - 1)], 0, sizeof(tab[0]));
	CHECK("dcache invalid bytes fail and are not kept",
	      same(0x4000, b, ITRACE_X86_MODE64) && !hit(0x4000, b, 0));

	/* random bytes at random ips, each looked up twice */
	srand(1);
	for (i = 0, bad = 0; i < 200000; i++) {
		for (j = 0; j < 16; j++)
			b[j] = (u8)rand();
		ip = (u64)(rand() & 0x3ff);
		bad += !same(ip, b, (enum itrace_x86_mode)(i & 1)) ||
		       !same(ip, b, (enum itrace_x86_mode)(i & 1));
	}
	CHECK("dcache agrees with the decoder on 400000 random lookups",
	      !bad);
}

static unsigned int kind_of(const u8 *bytes, u64 from, u64 to)
{
	u8 b[16] = { 0 };
	struct itrace_x86_insn d;

	memcpy(b, bytes, 8);
	if (itrace_x86_decode(b, sizeof(b), ITRACE_X86_MODE64, &d))
		return 99;
	return itrace_x86_step_kind(&d, from, to);
}

static void step_tests(void)
{
	static const u8 add[8] = { 0x48, 0x01, 0xc2 };		/* 3 bytes */
	static const u8 stos[8] = { 0xf3, 0xaa };		/* rep stosb */
	static const u8 jne[8] = { 0x75, 0xeb };		/* jne -21 */
	static const u8 jne32[8] = { 0x0f, 0x85, 0x10, 0, 0, 0 };
	static const u8 call[8] = { 0xe8, 0x14, 0, 0, 0 };
	static const u8 ret[8] = { 0xc3 };
	static const u8 jmpr[8] = { 0xff, 0xe0 };		/* jmp *%rax */

	CHECK("step insn to the next", kind_of(add, 0x100, 0x103) == ITRACE_K_INSN);
	CHECK("step insn elsewhere is async",
	      kind_of(add, 0x100, 0x200) == ITRACE_K_ASYNC);
	CHECK("step insn in place is async",
	      kind_of(add, 0x100, 0x100) == ITRACE_K_ASYNC);
	CHECK("step rep iteration in place: no record",
	      kind_of(stos, 0x100, 0x100) == ITRACE_K_NR);
	CHECK("step rep done", kind_of(stos, 0x100, 0x102) == ITRACE_K_INSN);
	CHECK("step jcc not taken", kind_of(jne, 0x100, 0x102) == ITRACE_K_JCC_NT);
	CHECK("step jcc taken backwards",
	      kind_of(jne, 0x100, 0x102 - 21) == ITRACE_K_JCC);
	CHECK("step jcc elsewhere is async",
	      kind_of(jne, 0x100, 0x102 - 20) == ITRACE_K_ASYNC);
	CHECK("step jcc rel32 taken",
	      kind_of(jne32, 0x100, 0x106 + 0x10) == ITRACE_K_JCC);
	CHECK("step call", kind_of(call, 0x100, 0x119) == ITRACE_K_CALL);
	CHECK("step ret", kind_of(ret, 0x100, 0x5000) == ITRACE_K_RET);
	CHECK("step indirect jmp", kind_of(jmpr, 0x100, 0x5000) == ITRACE_K_IJMP);
}

int main(void)
{
	cache_tests();
	step_tests();
	return check_failed != 0;
}
