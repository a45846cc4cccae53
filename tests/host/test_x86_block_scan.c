// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the BTF branch-source scan: which instruction took the
 * block to its target, syscalls passed on the way, the plain-step
 * verdict that tells BTF was ignored, and the scan limits. The code is
 * hand-assembled; addresses in the comments.
 */
#include "check.h"
#include "arch/x86/lib/block_scan.h"
#include "lib/kind.h"

#define BASE 0x1000

static const u8 code[] = {
	0x48, 0x89, 0xc3,		/* 1000 mov %rax,%rbx */
	0x75, 0x10,			/* 1003 jne 1015 */
	0x48, 0x01, 0xd8,		/* 1005 add %rbx,%rax */
	0x0f, 0x05,			/* 1008 syscall */
	0xe8, 0xf1, 0x0f, 0x00, 0x00,	/* 100a call 2000 */
	0x48, 0x85, 0xc0,		/* 100f test %rax,%rax */
	0x74, 0x02,			/* 1012 je 1016 */
	0xff, 0xe0,			/* 1014 jmp *%rax */
	0xc3,				/* 1016 ret */
	0x06,				/* 1017 (invalid in 64-bit mode) */
};

static unsigned int fetch(void *ctx, u64 ip, u8 *buf, unsigned int len)
{
	unsigned int i;

	(void)ctx;
	if (ip < BASE || ip >= BASE + sizeof(code))
		return 0;
	for (i = 0; i < len && ip + i < BASE + sizeof(code); i++)
		buf[i] = code[ip - BASE + i];
	return i;
}

static u64 sys_ip[4];
static unsigned int nsys;

static void on_syscall(void *ctx, u64 ip, unsigned int len)
{
	(void)ctx;
	if (nsys < 4 && len == 2)
		sys_ip[nsys] = ip;
	nsys++;
}

static enum itrace_x86_scan scan(u64 start, u64 to, unsigned int max,
				 u64 *from, unsigned int *kind)
{
	nsys = 0;
	*from = 0;
	*kind = ITRACE_K_NR;
	return itrace_x86_block_source(fetch, on_syscall, NULL,
				       ITRACE_X86_MODE64, start, to, max,
				       from, kind);
}

int main(void)
{
	unsigned int kind;
	u64 from;

	CHECK("scan: call found past a not-taken jcc and a syscall",
	      scan(0x1000, 0x2000, 64, &from, &kind) == ITRACE_X86_SCAN_FOUND &&
	      from == 0x100a && kind == ITRACE_K_CALL &&
	      nsys == 1 && sys_ip[0] == 0x1008);
	CHECK("scan: taken jcc whose target is the trap ip",
	      scan(0x1000, 0x1015, 64, &from, &kind) == ITRACE_X86_SCAN_FOUND &&
	      from == 0x1003 && kind == ITRACE_K_JCC && nsys == 0);
	CHECK("scan: second jcc taken",
	      scan(0x100f, 0x1016, 64, &from, &kind) == ITRACE_X86_SCAN_FOUND &&
	      from == 0x1012 && kind == ITRACE_K_JCC);
	CHECK("scan: indirect jmp after a not-taken jcc",
	      scan(0x100f, 0x5555, 64, &from, &kind) == ITRACE_X86_SCAN_FOUND &&
	      from == 0x1014 && kind == ITRACE_K_IJMP);
	CHECK("scan: ret",
	      scan(0x1016, 0x4242, 64, &from, &kind) == ITRACE_X86_SCAN_FOUND &&
	      from == 0x1016 && kind == ITRACE_K_RET);
	CHECK("scan: trap right after a non-branch is a plain step",
	      scan(0x1000, 0x1003, 64, &from, &kind) == ITRACE_X86_SCAN_STEP);
	CHECK("scan: trap right after a fall-through jcc is a plain step",
	      scan(0x1003, 0x1005, 64, &from, &kind) == ITRACE_X86_SCAN_STEP);
	CHECK("scan: limit reached before the branch",
	      scan(0x1000, 0x2000, 3, &from, &kind) == ITRACE_X86_SCAN_LOST);
	CHECK("scan: undecodable bytes",
	      scan(0x1017, 0x2000, 64, &from, &kind) == ITRACE_X86_SCAN_LOST);
	CHECK("scan: unreadable start",
	      scan(0x9000, 0x2000, 64, &from, &kind) == ITRACE_X86_SCAN_LOST);
	return check_failed ? 1 : 0;
}
