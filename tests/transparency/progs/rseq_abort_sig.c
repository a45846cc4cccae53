// SPDX-License-Identifier: GPL-2.0
/*
 * rseq_abort_sig: a signal aborts a restartable sequence. The main
 * thread enters an rseq critical section (in glibc's registered area)
 * that marks itself entered and then spins until a flag is set; only
 * the SIGUSR1 handler sets the flag, and a helper thread sends SIGUSR1
 * once it sees the mark. The kernel must move the ip to the abort
 * handler before building the signal frame: the handler checks the
 * interrupted ip (in its ucontext) is not inside the section; the abort
 * handler, behind the signature, leaves when the flag is set and
 * re-enters otherwise (a preemption abort). Printed: the handler ran
 * once, never saw an ip inside the section, and the abort path ran;
 * none of which depends on how often preemption aborted too.
 *
 * Catches: a tracer whose single-stepping of the section, or whose own
 * signal-delivery handling, keeps the kernel from the abort fix-up (the
 * handler returns into the middle of the section) or fakes one.
 */
#include "../tt_rseq.h"
#include <pthread.h>

__attribute__((used)) volatile int in_cs, flag, aborts;

#if defined(__x86_64__)
asm(TT_RSEQ_FUNC("rseq_spin")		/* rdi = rseq area */
    "1:" TT_RSEQ_ARM("spin_desc")
    ".globl spin_start\n"
    "spin_start:\n"
    "	movl $1, in_cs(%rip)\n"
    "2:	cmpl $0, flag(%rip)\n"
    "	je 2b\n"
    ".globl spin_post\n"
    "spin_post:\n"			/* the flag set, no abort since */
    "	xorl %eax, %eax\n"
    "	ret\n"
    TT_RSEQ_SIG_WORD
    ".globl spin_abort\n"
    "spin_abort:\n"
    "	lock incl aborts(%rip)\n"
    "	cmpl $0, flag(%rip)\n"
    "	je 1b\n"
    "	movl $1, %eax\n"
    "	ret\n"
    TT_RSEQ_END("rseq_spin", "spin_desc", "spin_start", "spin_post",
		"spin_abort"));
#elif defined(__powerpc64__)
asm(TT_RSEQ_FUNC("rseq_spin")		/* r3 = rseq area */
    "1:" TT_RSEQ_ARM("spin_desc")
    ".globl spin_start\n"
    "spin_start:\n"
    "	li 10, 1\n"
    "	addis 11, 2, in_cs@toc@ha\n"
    "	stw 10, in_cs@toc@l(11)\n"
    "	addis 11, 2, flag@toc@ha\n"
    "2:	lwz 10, flag@toc@l(11)\n"
    "	cmpwi 10, 0\n"
    "	beq 2b\n"
    ".globl spin_post\n"
    "spin_post:\n"			/* the flag set, no abort since */
    "	li 3, 0\n"
    "	blr\n"
    TT_RSEQ_SIG_WORD
    ".globl spin_abort\n"
    "spin_abort:\n"
    "	addis 11, 2, aborts@toc@ha\n"
    "	lwz 10, aborts@toc@l(11)\n"
    "	addi 10, 10, 1\n"
    "	stw 10, aborts@toc@l(11)\n"
    "	addis 11, 2, flag@toc@ha\n"
    "	lwz 10, flag@toc@l(11)\n"
    "	cmpwi 10, 0\n"
    "	beq 1b\n"
    "	li 3, 1\n"
    "	blr\n"
    TT_RSEQ_END("rseq_spin", "spin_desc", "spin_start", "spin_post",
		"spin_abort"));
#endif

long rseq_spin(volatile struct rseq *rs);
extern char spin_start[], spin_post[];

static volatile int handled, ip_inside;
static pid_t main_tid;

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	unsigned long ip = TT_UC_IP((ucontext_t *)ctx);

	(void)sig;
	(void)si;
	handled++;
	if (ip >= (unsigned long)spin_start && ip < (unsigned long)spin_post)
		ip_inside++;
	flag = 1;
}

static void *helper(void *arg)
{
	while (!in_cs)
		sched_yield();
	syscall(SYS_tgkill, getpid(), main_tid, SIGUSR1);
	return arg;
}

TT_MAIN
{
	volatile struct rseq *rs;
	pthread_t t;

	if (tt_rseq_none(1))
		return 0;
	rs = tt_rseq_area();
	tt_handle(SIGUSR1, on_usr1, 0);
	main_tid = gettid();
	tt_check(pthread_create(&t, NULL, helper, NULL) == 0);
	/*
	 * 1: left through the abort handler, as nearly always; 0 (not
	 * printed) only if a preemption abort let the signal land before
	 * the section was entered again
	 */
	rseq_spin(rs);
	rs->rseq_cs = 0;
	tt_check(pthread_join(t, NULL) == 0);
	tt_say("rseq: SIGUSR1 handled %d time(s), at an ip inside the section: %d\n",
	       handled, ip_inside);
	tt_say("rseq: abort handler ran at least once: %s\n",
	       aborts > 0 ? "yes" : "no");
	tt_check(handled == 1 && !ip_inside && aborts > 0);
	tt_ok();
	return 0;
}
