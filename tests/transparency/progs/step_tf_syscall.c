// SPDX-License-Identifier: GPL-2.0
/*
 * step_tf_syscall: x86: system calls made while the program single-steps
 * itself (EFLAGS.TF set by popf). The stepped asm runs four syscall
 * instructions, the first right after the popf, the others between
 * ordinary instructions: getppid, close(-1) (EBADF), sched_yield and a
 * read of one byte from a pipe holding data. The SIGTRAP handler records
 * each trap's ip as a label number (every instruction has one); the
 * results of the calls are checked, and the trap sequence is printed and
 * checked: SYSCALL masks TF, so there is no trap right after a syscall
 * instruction, but the kernel returns with the program's TF back and the
 * next instruction traps. 5 rounds, the same each time. POWER: fixed
 * skip line.
 *
 * Catches: a tracer that owns TF and loses the program's own TF over a
 * system call (SYSCALL masks TF; the kernel must return by iret with the
 * program's TF back), delivers a trap at the syscall that the program
 * would not get, or disturbs a call's result while stepping it.
 */
#include "../tt_step.h"
#include <sys/syscall.h>

#if defined(__x86_64__)
#define NL	19

extern char tt_s1[], tt_s2[], tt_s3[], tt_s4[], tt_s5[], tt_s6[],
	    tt_s7[], tt_s8[], tt_s9[], tt_s10[], tt_s11[], tt_s12[],
	    tt_s13[], tt_s14[], tt_s15[], tt_s16[], tt_s17[], tt_s18[],
	    tt_s19[];
static char *const labels[NL] = { tt_s1, tt_s2, tt_s3, tt_s4, tt_s5,
				   tt_s6, tt_s7, tt_s8, tt_s9, tt_s10,
				   tt_s11, tt_s12, tt_s13, tt_s14, tt_s15,
				   tt_s16, tt_s17, tt_s18, tt_s19 };
static struct tt_traps traps;

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	tt_traps_note(&traps, TT_UC_IP(uc));
}

#define L(n)	".globl tt_s" #n "\ntt_s" #n ":\n\t"

struct res {
	long ppid, badf, yield, rd;
};

/* results in memory that is not the stack (pushf writes the red zone) */
static long a, b, c, d;

static void stepped(struct res *r, long fd, char *buf)
{
	register long r8 asm("r8") = fd;
	register char *r9 asm("r9") = buf;

	asm volatile("pushf\n\t"
		     "orq $0x100, (%%rsp)\n\t"
		     "mov %[nppid], %%eax\n\t"
		     "popf\n"
		     L(1)
		     "syscall\n"		/* getppid, right after popf */
		     L(2)
		     "mov %%rax, %[a]\n"
		     L(3)
		     "mov %[nclose], %%eax\n"
		     L(4)
		     "mov $-1, %%rdi\n"
		     L(5)
		     "syscall\n"		/* close(-1) */
		     L(6)
		     "mov %%rax, %[b]\n"
		     L(7)
		     "mov %[nyield], %%eax\n"
		     L(8)
		     "syscall\n"		/* sched_yield */
		     L(9)
		     "mov %%rax, %[c]\n"
		     L(10)
		     "mov %[nread], %%eax\n"
		     L(11)
		     "mov %%r8, %%rdi\n"
		     L(12)
		     "mov %%r9, %%rsi\n"
		     L(13)
		     "mov $1, %%edx\n"
		     L(14)
		     "syscall\n"		/* read(fd, buf, 1) */
		     L(15)
		     "mov %%rax, %[d]\n"
		     L(16)
		     "pushf\n"
		     L(17)
		     "andq $~0x100, (%%rsp)\n"
		     L(18)
		     "popf\n"
		     L(19)
		     "nop"
		     : [a] "=m"(a), [b] "=m"(b), [c] "=m"(c), [d] "=m"(d)
		     : [nppid] "i"(SYS_getppid), [nclose] "i"(SYS_close),
		       [nyield] "i"(SYS_sched_yield), [nread] "i"(SYS_read),
		       "r"(r8), "r"(r9)
		     : "rax", "rcx", "rdx", "rsi", "rdi", "r11", "memory", "cc");
	r->ppid = a;
	r->badf = b;
	r->yield = c;
	r->rd = d;
}

static int label_of(unsigned long ip)
{
	int i;

	for (i = 0; i < NL; i++)
		if (ip == (unsigned long)labels[i])
			return i + 1;
	return 0;
}

TT_MAIN
{
	char seq[128], first[128] = "", buf[4];
	int r, same = 0, bad = 0, p[2];
	struct res res;

	tt_handle(SIGTRAP, on_trap, 0);
	tt_sys(pipe(p));

	for (r = 0; r < 5; r++) {
		tt_check(write(p[1], "z", 1) == 1);
		buf[0] = 0;
		traps.n = 0;
		stepped(&res, p[0], buf);
		bad += res.ppid != getppid() || res.badf != -EBADF ||
		       res.yield != 0 || res.rd != 1 || buf[0] != 'z';
		bad += tt_traps_seq(&traps, seq, sizeof(seq), label_of);
		if (r == 0)
			strcpy(first, seq);
		same += !strcmp(first, seq);
		/* the second instruction after each syscall traps */
		bad += !strstr(seq, " 3 ") || !strstr(seq, " 7 ") ||
		       !strstr(seq, " 10 ") || !strstr(seq, " 16 ") ||
		       !strstr(seq, " 19");
	}
	tt_say("trap ips (labels):%s\n", first);
	tt_say("rounds alike: %d, wrong: %d\n", same, bad);
	tt_check(same == 5 && !bad);
	tt_ok();
	return 0;
}
#else
TT_SKIP_MAIN("x86 only (POWER user code cannot set MSR_SE)")
#endif
