// SPDX-License-Identifier: GPL-2.0
/*
 * mem_smc: self-modifying code. An anonymous RWX page gets a tiny
 * function (x86: mov $imm, %eax; ret; POWER: li r3, imm; blr, with
 * __builtin___clear_cache), which is called; then its immediate is
 * rewritten in place and it is called again, 10 rounds. Prints the sum
 * of the returned values and the last one.
 *
 * Catches: a tracer that caches decoded instructions (or an emulated
 * copy of them) by address and runs the stale code after the rewrite,
 * or whose out-of-line copy / breakpoint handling of an instruction on
 * a writable page goes wrong.
 */
#include "../tt.h"
#include <stdint.h>
#include <sys/mman.h>

typedef int (*fn_t)(void);

TT_MAIN
{
	unsigned char *page;
	long sum = 0;
	int i, v = 0, wrong = 0;
	fn_t fn;

	page = mmap(NULL, 65536, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tt_check(page != MAP_FAILED);
	fn = (fn_t)(uintptr_t)page;
	for (i = 0; i < 10; i++) {
		tt_emit_ret(page, 100 + i);
		v = fn();
		if (v != 100 + i)
			wrong++;
		sum += v;
		tt_emit_ret(page, 1000 + i);	/* same place, new immediate */
		v = fn();
		if (v != 1000 + i)
			wrong++;
		sum += v;
	}
	tt_say("calls: 20, sum %ld, last %d, stale results %d\n", sum, v,
	       wrong);
	tt_check(sum == 11090 && !wrong);
	tt_ok();
	return 0;
}
