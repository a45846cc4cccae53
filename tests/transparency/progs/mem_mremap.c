// SPDX-License-Identifier: GPL-2.0
/*
 * mem_mremap: mappings that move. Data: 2 pages grow to 8 (MAYMOVE),
 * the old contents kept and the new part zero; a move into a reserved
 * range (MREMAP_FIXED) leaves the old address unmapped; MREMAP_DONTUNMAP
 * (when the kernel has it) leaves the old range mapped and empty. Code:
 * a page with a small function (returns 55) is called, moved with
 * MREMAP_FIXED and called at its new address; then a new page with
 * other code (returns 66) is mapped at the old address and called
 * there, and the moved one again: 10 rounds.
 *
 * Catches: a tracer that caches code or decoding by address, or the
 * mapping behind an address, and so runs stale code after the mapping
 * moves, or fails to fetch code from a page that moved under it.
 */
#include "../tt.h"
#include <stdint.h>
#include <sys/mman.h>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP	4
#endif

typedef int (*fn_t)(void);

static long ps;

static unsigned char *code_page(void *at, int imm)
{
	unsigned char *p = mmap(at, ps, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS |
				(at ? MAP_FIXED : 0), -1, 0);

	tt_check(p != MAP_FAILED);
	tt_emit_ret(p, imm);
	tt_sys(mprotect(p, ps, PROT_READ | PROT_EXEC));
	return p;
}

/* is [p, p+ps) mapped? (msync fails with ENOMEM where it isn't) */
static int mapped(void *p)
{
	return msync(p, ps, MS_ASYNC) == 0;
}

static void data(void)
{
	unsigned char *a, *b, *dst;
	long i, bad = 0;

	a = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tt_check(a != MAP_FAILED);
	for (i = 0; i < 2 * ps; i += 512)
		a[i] = (unsigned char)(i / 512 + 1);
	b = mremap(a, 2 * ps, 8 * ps, MREMAP_MAYMOVE);
	tt_check(b != MAP_FAILED);
	for (i = 0; i < 8 * ps; i += 512)
		bad += b[i] != (i < 2 * ps ? (unsigned char)(i / 512 + 1) : 0);
	tt_say("grown 2 to 8 pages: contents kept, rest zero: %s\n",
	       bad ? "no" : "yes");
	tt_check(!bad);

	dst = mmap(NULL, 8 * ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tt_check(dst != MAP_FAILED);
	a = mremap(b, 8 * ps, 8 * ps, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	tt_check(a == dst);
	for (i = 0; i < 2 * ps; i += 512)
		bad += a[i] != (unsigned char)(i / 512 + 1);
	tt_say("moved to a fixed place: contents kept %s, old place unmapped %s\n",
	       bad ? "no" : "yes", mapped(b) ? "no" : "yes");
	tt_check(!bad && !mapped(b));

	b = mremap(a, 2 * ps, 2 * ps, MREMAP_MAYMOVE | MREMAP_DONTUNMAP);
	if (b == MAP_FAILED && errno == EINVAL) {
		tt_say("MREMAP_DONTUNMAP: not available\n");
	} else {
		tt_check(b != MAP_FAILED && b != a);
		for (i = 0; i < 2 * ps; i += 512)
			bad += b[i] != (unsigned char)(i / 512 + 1) || a[i];
		tt_say("MREMAP_DONTUNMAP: moved %s, old range mapped and "
		       "empty %s\n", bad ? "no" : "yes",
		       mapped(a) ? "yes" : "no");
		tt_check(!bad && mapped(a));
		munmap(b, 2 * ps);
	}
	munmap(a, 8 * ps);
}

static void code(void)
{
	unsigned char *old, *at, *moved;
	int i, sum = 0;

	at = mmap(NULL, 2 * ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tt_check(at != MAP_FAILED);
	for (i = 0; i < 10; i++) {
		old = code_page(NULL, 55);
		sum += ((fn_t)(uintptr_t)old)();
		moved = mremap(old, ps, ps, MREMAP_MAYMOVE | MREMAP_FIXED,
			       at + (i % 2) * ps);
		tt_check(moved == at + (i % 2) * ps);
		sum += ((fn_t)(uintptr_t)moved)();
		tt_check(code_page(old, 66) == old);
		sum += ((fn_t)(uintptr_t)old)();
		sum += ((fn_t)(uintptr_t)moved)();
		munmap(old, ps);
	}
	tt_say("code moved and replaced 10 times: sum %d\n", sum);
	tt_check(sum == 2310);
	munmap(at, 2 * ps);
}

TT_MAIN
{
	ps = sysconf(_SC_PAGESIZE);
	data();
	code();
	tt_ok();
	return 0;
}
