// SPDX-License-Identifier: GPL-2.0
/*
 * mem_stackovf: stack overflow and recovery. With RLIMIT_STACK cut to
 * 1 MiB, an unbounded recursion of 4 KiB frames grows the main stack
 * until the kernel refuses to grow it: SIGSEGV, whose handler (on a
 * sigaltstack, the only stack left) siglongjmp()s back to main. Done
 * twice; prints that it recovered each time and that normal calls work
 * after. The depth reached depends on the environment's size, so it is
 * only checked to be large, not printed.
 *
 * Catches: a tracer that faults itself on a stack that can't grow (e.g.
 * by writing its own data below sp, or reading ahead), reports the fault
 * differently (wrong si_code, or a kill instead of a handled SIGSEGV),
 * or can't follow the handler's switch to the alternate stack.
 */
#include "../tt.h"
#include <setjmp.h>
#include <signal.h>
#include <sys/resource.h>

static sigjmp_buf env;
static volatile int depth, faults, limit = 1 << 30;

static void on_segv(int sig)
{
	(void)sig;
	faults++;
	siglongjmp(env, 1);
}

static __attribute__((noinline)) int down(int n)
{
	volatile char frame[4096];

	frame[0] = n;
	frame[sizeof(frame) - 1] = n;
	depth = n;
	if (n >= limit)		/* never: keeps the compiler quiet */
		return 0;
	return down(n + 1) + frame[0];
}

TT_MAIN
{
	struct rlimit rl = { 1 << 20, 1 << 20 };
	struct sigaction sa;
	volatile int round, recovered = 0, deep = 1;
	stack_t ss;

	ss.ss_sp = malloc(64 * 1024);
	ss.ss_size = 64 * 1024;
	ss.ss_flags = 0;
	tt_check(ss.ss_sp);
	tt_sys(sigaltstack(&ss, NULL));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGSEGV, &sa, NULL));
	tt_sys(setrlimit(RLIMIT_STACK, &rl));

	for (round = 1; round <= 2; round++) {
		depth = 0;
		if (sigsetjmp(env, 1) == 0) {
			down(1);
			tt_fail("recursion ended");
		}
		recovered++;
		if (depth < 100)
			deep = 0;
		tt_say("round %d: overflow caught, recovered\n", round);
	}
	tt_say("faults %d, recovered %d, deep enough: %s\n", faults,
	       recovered, deep ? "yes" : "no");
	tt_check(faults == 2 && recovered == 2 && deep);
	tt_ok();
	return 0;
}
