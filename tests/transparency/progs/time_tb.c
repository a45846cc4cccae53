// SPDX-License-Identifier: GPL-2.0
/*
 * time_tb: counter and CPU-id reads a program makes with single
 * instructions, pinned to the CPU it started on. x86: lfence;rdtsc
 * never goes back, cpuid leaf 1's APIC id stays the same, and where
 * CPUID offers them: rdtscp's TSC_AUX (Linux puts node << 12 | cpu
 * there) must name this CPU as getcpu does, rdpid must agree with it,
 * and lfence;rdtsc / rdtscp readings interleaved never go back, 50
 * rounds; a VM that offers them and then raises SIGILL has it caught,
 * and that part is then not checked (the output is the same either
 * way). POWER: the timebase read three ways (mftb; mfspr 268; the
 * 32-bit mftbu/mftb/mftbu loop) never goes back across them, 50
 * rounds; mfspr 269 (TBU) agrees with the upper half; and SPRG3 read
 * from user mode (mfspr 259, which Linux sets to node << 16 | cpu for
 * the vDSO's getcpu) names this CPU.
 *
 * Catches: a tracer that emulates, replays or steps these reads out of
 * line on another CPU or with stale values: a wrong CPU number, a
 * counter going back, or a fault (SIGILL/SIGSEGV) where there was none.
 */
#include "../tt.h"
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>

static int pin(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	tt_check(cpu >= 0);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	tt_sys(sched_setaffinity(0, sizeof(set), &set));
	/* the move, if any, is done when the call returns */
	return sched_getcpu();
}

#if defined(__x86_64__)
#include <cpuid.h>

static sigjmp_buf env;

static void on_ill(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

static uint64_t rdtscp(unsigned int *aux)
{
	unsigned int lo, hi;

	asm volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(*aux));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t rdtsc(void)
{
	unsigned int lo, hi;

	asm volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static int try_rdtscp(int cpu)
{
	static uint64_t prev;
	static int back, wrong;
	unsigned int aux;
	uint64_t a, b;
	int i;

	if (sigsetjmp(env, 1))
		return 1;		/* SIGILL: not here */
	for (i = 0; i < 50; i++) {
		a = rdtsc();
		b = rdtscp(&aux);
		back += a < prev || b < a;
		prev = b;
		wrong += (int)(aux & 0xfff) != cpu;
	}
	tt_check(!back && !wrong);
	return 0;
}

static int try_rdpid(int cpu)
{
	static int wrong;
	unsigned long id;
	int i;

	if (sigsetjmp(env, 1))
		return 1;
	for (i = 0; i < 10; i++) {
		asm volatile("rdpid %0" : "=r"(id));
		wrong += (int)(id & 0xfff) != cpu;
	}
	tt_check(!wrong);
	return 0;
}

static void arch_run(int cpu)
{
	unsigned int a, b, c, d;
	uint64_t prev = 0, v;
	int i, back = 0, moved = 0;
	unsigned int apic;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_ill;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGILL, &sa, NULL));
	for (i = 0; i < 50; i++) {
		v = rdtsc();
		back += v < prev;
		prev = v;
	}
	tt_say("lfence;rdtsc ordered: %s\n", back ? "no" : "yes");
	tt_check(!back);
	/* cpuid leaf 1: EBX[31:24] is this CPU's APIC id, the same
	 * every time while pinned */
	tt_check(__get_cpuid(1, &a, &b, &c, &d));
	apic = b >> 24;
	for (i = 0; i < 10; i++) {
		tt_check(__get_cpuid(1, &a, &b, &c, &d));
		moved += b >> 24 != apic;
	}
	tt_say("cpuid's APIC id steady while pinned: %s\n", moved ? "no" : "yes");
	tt_check(!moved);
	/* only where CPUID offers them: elsewhere TSC_AUX is not Linux's */
	if (__get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27)))
		try_rdtscp(cpu);
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 22)))
		try_rdpid(cpu);
	tt_say("rdtsc/rdtscp ordered, TSC_AUX and rdpid name this cpu "
	       "(where they exist): yes\n");
}
#elif defined(__powerpc64__)
static uint64_t tb32(void)
{
	uint32_t hi, lo, hi2;

	do {
		asm volatile("mftbu %0" : "=r"(hi));
		asm volatile("mftb %0" : "=r"(lo));
		asm volatile("mftbu %0" : "=r"(hi2));
	} while (hi != hi2);
	return (uint64_t)hi << 32 | lo;
}

static void arch_run(int cpu)
{
	uint64_t a, b, c, prev = 0, u, t;
	unsigned long sprg3;
	int i, back = 0, upper = 0;

	for (i = 0; i < 50; i++) {
		asm volatile("mftb %0" : "=r"(a));
		asm volatile("mfspr %0, 268" : "=r"(b));
		c = tb32();
		back += a < prev || b < a || c < b;
		prev = c;
		asm volatile("mfspr %0, 269" : "=r"(u));
		asm volatile("mftb %0" : "=r"(t));
		/* TBU read before TB: equal, or TB wrapped into the next */
		upper += (t >> 32) != (u & 0xffffffff) &&
			 (t >> 32) != (u & 0xffffffff) + 1;
	}
	tt_say("mftb, mfspr 268, mftbu/mftb pairs ordered: %s, TBU agrees: %s\n",
	       back ? "no" : "yes", upper ? "no" : "yes");
	tt_check(!back && !upper);
	asm volatile("mfspr %0, 259" : "=r"(sprg3));
	tt_say("SPRG3 names this cpu: %s\n",
	       (int)(sprg3 & 0xffff) == cpu ? "yes" : "no");
	tt_check((int)(sprg3 & 0xffff) == cpu);
}
#endif

TT_MAIN
{
	int cpu = pin();

	arch_run(cpu);
	tt_ok();
	return 0;
}
