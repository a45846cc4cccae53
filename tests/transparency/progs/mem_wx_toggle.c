// SPDX-License-Identifier: GPL-2.0
/*
 * mem_wx_toggle: a W^X JIT pattern. One page is never writable and
 * executable at once: each of 20 rounds makes it RW, writes a function
 * (alternating shapes: return a constant / add the constant to the
 * argument), makes it RX and calls it. A write while it is RX faults
 * (SIGSEGV, SEGV_ACCERR, handled, siglongjmp) and leaves the code
 * intact. Last the page is made PROT_EXEC alone (execute-only where the
 * hardware can: x86 with protection keys) and the code still runs.
 *
 * Catches: a tracer that reads or patches the code to step it and so
 * trips over the page's protection (faults itself, reports a fault the
 * program did not make, or needs read access it lacks on an execute-
 * only page), or that keeps a decoding across an mprotect that
 * replaced the code.
 */
#include "../tt.h"
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>

typedef long (*fn_t)(long);

static sigjmp_buf env;
static volatile int faults, accerr;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	faults++;
	accerr = si->si_code == SEGV_ACCERR;
	siglongjmp(env, 1);
}

TT_MAIN
{
	struct sigaction sa;
	long ps = sysconf(_SC_PAGESIZE), sum = 0, v;
	unsigned char *page;
	fn_t fn;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGSEGV, &sa, NULL));
	page = mmap(NULL, ps, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tt_check(page != MAP_FAILED);
	fn = (fn_t)(uintptr_t)page;
	for (i = 0; i < 20; i++) {
		tt_sys(mprotect(page, ps, PROT_READ | PROT_WRITE));
		tt_emit(page, 10 * i, i % 2);
		__builtin___clear_cache((char *)page, (char *)page + 16);
		tt_sys(mprotect(page, ps, PROT_READ | PROT_EXEC));
		sum += fn(i);
	}
	tt_say("20 rounds RW -> RX: sum %ld\n", sum);
	tt_check(sum == 2000);

	if (sigsetjmp(env, 1) == 0)
		page[0] = 0;
	v = fn(5);
	tt_say("write to RX: faults %d, SEGV_ACCERR %s, code intact %s\n",
	       faults, accerr ? "yes" : "no", v == 195 ? "yes" : "no");
	tt_check(faults == 1 && accerr && v == 195);

	tt_sys(mprotect(page, ps, PROT_EXEC));
	v = fn(7) + fn(8);
	tt_say("exec-only page: runs %s\n", v == 395 ? "yes" : "no");
	tt_check(v == 395);
	tt_ok();
	return 0;
}
