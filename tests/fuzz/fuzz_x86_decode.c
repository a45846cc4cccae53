// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the x86 instruction decoder (arch/x86/lib/insn_decode.c).
 * The input is the bytes at the trapping ip, decoded in 64-bit and in
 * 32-bit mode from an exactly-sized heap copy, so ASan catches any read
 * at or past avail. Checked for a decoded instruction: a length in 1..15
 * within avail; the same result from exactly those bytes and failure
 * from one byte fewer (the length depends on nothing after the
 * instruction); and well-formed kind, rep and displacement fields.
 */
#include "fuzz.h"
#include "arch/x86/lib/insn_decode.h"
#include "lib/kind.h"

static int decode_copy(const u8 *data, size_t n, enum itrace_x86_mode mode,
		       struct itrace_x86_insn *d)
{
	u8 *buf = fuzz_copy(data, n);
	int ret = itrace_x86_decode(buf, n, mode, d);

	free(buf);
	FUZZ_ASSERT(ret == 0 || ret == -1);
	return ret;
}

static bool same(const struct itrace_x86_insn *a,
		 const struct itrace_x86_insn *b)
{
	return a->len == b->len && a->kind == b->kind && a->rep == b->rep &&
	       a->has_rel == b->has_rel && a->rel == b->rel &&
	       a->eflags == b->eflags;
}

/* A displacement is the sign-extended last 1, 2 or 4 bytes. */
static bool rel_is_tail(const u8 *p, unsigned int len, s32 rel)
{
	const u8 *e = p + len;

	if (rel == (s8)e[-1])
		return true;
	if (len >= 2 && rel == (s16)(e[-2] | e[-1] << 8))
		return true;
	return len >= 4 &&
	       rel == (s32)((u32)e[-4] | (u32)e[-3] << 8 |
			    (u32)e[-2] << 16 | (u32)e[-1] << 24);
}

static void one(const u8 *data, size_t size, enum itrace_x86_mode mode)
{
	struct itrace_x86_insn d, e;

	if (decode_copy(data, size, mode, &d))
		return;
	FUZZ_ASSERT(d.len >= 1 && d.len <= ITRACE_X86_MAX_INSN);
	FUZZ_ASSERT(d.len <= size);
	FUZZ_ASSERT(d.kind < ITRACE_K_NR);
	/* taken or not is the trap handler's call, never the decoder's */
	FUZZ_ASSERT(d.kind != ITRACE_K_JCC_NT && d.kind != ITRACE_K_ASYNC);
	FUZZ_ASSERT(d.rep <= 1 && d.has_rel <= 1);
	FUZZ_ASSERT(!d.rep || d.kind == ITRACE_K_INSN);
	if (d.has_rel) {
		FUZZ_ASSERT(d.kind == ITRACE_K_JCC || d.kind == ITRACE_K_JMP ||
			    d.kind == ITRACE_K_CALL);
		FUZZ_ASSERT(rel_is_tail(data, d.len, d.rel));
	} else {
		FUZZ_ASSERT(d.rel == 0);
	}

	FUZZ_ASSERT(decode_copy(data, d.len, mode, &e) == 0);
	FUZZ_ASSERT(same(&d, &e));
	FUZZ_ASSERT(decode_copy(data, d.len - 1, mode, &e) == -1);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	one(data, size, ITRACE_X86_MODE64);
	one(data, size, ITRACE_X86_MODE32);
	return 0;
}
