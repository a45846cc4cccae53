// SPDX-License-Identifier: GPL-2.0
/*
 * step_tf_sig: x86: a signal arrives while the program single-steps
 * itself. With EFLAGS.TF set by popf, an asm sequence raises SIGUSR1 by
 * a syscall instruction and runs on; TF is cleared by popf at the end.
 * The SIGTRAP handler records each trap's ip as a label number; the
 * SIGUSR1 handler checks that it runs with TF clear (pushf) while the
 * frame it returns to has TF set, and that no trap hits it. The trap
 * sequence is printed (label numbers) and checked: strictly rising,
 * every label after the syscall's return seen, none after TF is off.
 * 5 rounds, the same each time. POWER: fixed skip line.
 *
 * Catches: a tracer that owns TF while the program owns it too: a
 * handler stepped by the program's TF (its traps leaking into the
 * handler), the program's TF lost over the signal frame or the syscall,
 * or traps delivered at the tracer's own step points.
 */
#include "../tt_step.h"
#include <sys/syscall.h>

#if defined(__x86_64__)
#define NL	8

extern char tt_l1[], tt_l2[], tt_l3[], tt_l4[], tt_l5[], tt_l6[],
	    tt_l7[], tt_l8[];
static char *const labels[NL] = { tt_l1, tt_l2, tt_l3, tt_l4, tt_l5,
				   tt_l6, tt_l7, tt_l8 };
static struct tt_traps traps;
static volatile int usr1s, in_usr1, bad;

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	if (in_usr1)
		bad++;
	tt_traps_note(&traps, TT_UC_IP(uc));
}

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	unsigned long f;
	int i;

	(void)sig;
	(void)si;
	in_usr1 = 1;
	usr1s++;
	asm volatile("pushf; pop %0" : "=r"(f));
	if (f & TT_TF)
		bad++;
	if (!(uc->uc_mcontext.gregs[REG_EFL] & TT_TF))
		bad++;
	if ((unsigned long)TT_UC_IP(uc) != (unsigned long)tt_l3)
		bad++;
	for (i = 0; i < 20; i++)	/* some work a leaked TF would trap */
		asm volatile("" ::: "memory");
	in_usr1 = 0;
}

static void stepped(void)
{
	long pid = getpid();

	asm volatile("pushf\n\t"
		     "orq $0x100, (%%rsp)\n\t"
		     "popf\n"
		     ".globl tt_l1\ntt_l1:\n\t"
		     "mov %[nr], %%eax\n"
		     ".globl tt_l2\ntt_l2:\n\t"
		     "syscall\n"
		     ".globl tt_l3\ntt_l3:\n\t"
		     "nop\n"
		     ".globl tt_l4\ntt_l4:\n\t"
		     "add $1, %%rdx\n"
		     ".globl tt_l5\ntt_l5:\n\t"
		     "nop\n"
		     ".globl tt_l6\ntt_l6:\n\t"
		     "pushf\n"
		     ".globl tt_l7\ntt_l7:\n\t"
		     "andq $~0x100, (%%rsp)\n"
		     ".globl tt_l8\ntt_l8:\n\t"
		     "popf\n\t"
		     "nop\n\t"
		     "nop"
		     : "+D"(pid)
		     : [nr] "i"(SYS_kill), "S"((long)SIGUSR1), "d"(0L)
		     : "rax", "rcx", "r11", "memory", "cc");
}

static int label_of(unsigned long ip)
{
	int i;

	for (i = 0; i < NL; i++)
		if (ip == (unsigned long)labels[i])
			return i + 1;
	return ip == (unsigned long)tt_l8 + 1 ? 9 : 0;	/* after the popf */
}

TT_MAIN
{
	char seq[128], first[128] = "";
	int r, i, same = 0;

	tt_handle(SIGTRAP, on_trap, 0);
	tt_handle(SIGUSR1, on_usr1, 0);

	for (r = 0; r < 5; r++) {
		traps.n = 0;
		stepped();
		bad += tt_traps_seq(&traps, seq, sizeof(seq), label_of);
		if (r == 0)
			strcpy(first, seq);
		same += !strcmp(first, seq);
		/* the labels after the syscall's return must all trap */
		for (i = 4; i <= 9; i++) {
			char want[8];

			snprintf(want, sizeof(want), " %d", i);
			if (!strstr(seq, want))
				bad++;
		}
	}
	tt_say("trap ips (labels):%s\n", first);
	tt_say("rounds alike: %d, SIGUSR1 handled: %d\n", same, usr1s);
	tt_say("wrong: %d\n", bad);
	tt_check(same == 5 && usr1s == 5 && !bad);
	tt_ok();
	return 0;
}
#else
TT_SKIP_MAIN("x86 only (POWER user code cannot set MSR_SE)")
#endif
