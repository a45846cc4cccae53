// SPDX-License-Identifier: GPL-2.0
/*
 * mem_stackexec: code run from the stack. A buffer in a stack frame is
 * made executable (mprotect of its page(s), which holds live frames
 * too), filled with a function 10 times over with a new immediate each
 * time (x86: mov $imm, %eax; ret; POWER: li r3, imm; blr) and called;
 * then with a trampoline that jumps on to a C function whose address it
 * gets as its second argument (x86: jmp *%rsi; POWER: mtctr r4; mr r12,
 * r4; bctr), which returns straight to the caller. The stack page is
 * made non-executable again after.
 *
 * Catches: a tracer that puts anything of its own on the user stack
 * below sp (it would be overwritten or overwrite the code), that can't
 * fetch or decode code in the stack VMA, or that caches it by address
 * while it is rewritten in place.
 */
#include "../tt.h"
#include <stdint.h>
#include <sys/mman.h>

typedef long (*fn_t)(long, long (*)(long));

static __attribute__((noinline)) long target(long x)
{
	return 2 * x + 1;
}

static void emit_tramp(unsigned char *p)
{
#if defined(__x86_64__)
	p[0] = 0xff;				/* jmp *%rsi */
	p[1] = 0xe6;
#elif defined(__powerpc64__)
	uint32_t insn[3] = {
		0x7c8903a6u,			/* mtctr r4 */
		0x7c8c2378u,			/* mr r12, r4 */
		0x4e800420u,			/* bctr */
	};

	memcpy(p, insn, sizeof(insn));
#endif
	__builtin___clear_cache((char *)p, (char *)p + 16);
}

static __attribute__((noinline)) long run(long ps)
{
	unsigned char code[64] __attribute__((aligned(16)));
	uintptr_t lo = (uintptr_t)code & ~(ps - 1);
	uintptr_t hi = ((uintptr_t)code + sizeof(code) + ps - 1) & ~(ps - 1);
	fn_t fn = (fn_t)(uintptr_t)code;
	long sum = 0;
	int i;

	tt_sys(mprotect((void *)lo, hi - lo,
			PROT_READ | PROT_WRITE | PROT_EXEC));
	for (i = 0; i < 10; i++) {
		tt_emit_ret(code, 700 + i);
		sum += fn(0, NULL);
	}
	tt_say("stack code, rewritten 10 times: sum %ld\n", sum);
	tt_check(sum == 7045);
	emit_tramp(code);
	sum = 0;
	for (i = 0; i < 10; i++)
		sum += fn(i, target);
	tt_say("stack trampoline to a C function, 10 calls: sum %ld\n", sum);
	tt_check(sum == 100);
	tt_sys(mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE));
	return sum;
}

TT_MAIN
{
	long ps = sysconf(_SC_PAGESIZE);

	tt_check(run(ps) == 100);
	tt_say("back on a non-executable stack: yes\n");
	tt_ok();
	return 0;
}
