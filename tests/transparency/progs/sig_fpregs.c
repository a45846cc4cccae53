// SPDX-License-Identifier: GPL-2.0
/*
 * sig_fpregs: a signal handler that trashes the floating-point and
 * vector state must leave main's intact. main loads known values into
 * every register of the kind (x86: xmm0-15, 3 x87 stack slots, MXCSR
 * round-to-zero; POWER: all 64 VSX registers, FPSCR round-to-zero),
 * raises SIGUSR1 by a raw system call from the same asm block, and
 * stores the registers back after it; the handler (also 5 nested
 * SIGUSR2s it raises) overwrites them all and changes the rounding
 * mode. Each register is compared; the counts are printed. 10 rounds.
 *
 * Catches: a tracer that saves or restores FP/vector state itself around
 * its traps (or makes the kernel lose it: a lazily restored state marked
 * valid while the handler changed it), so main resumes with a
 * handler's register or control word.
 */
#include "../tt.h"
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>

static volatile int handled;

#if defined(__x86_64__)
#define NVEC	16
static uint64_t in_v[NVEC][2] __attribute__((aligned(16)));
static uint64_t out_v[NVEC][2] __attribute__((aligned(16)));
static double in_x87[3] = { 1.5, -2.25, 1e10 }, out_x87[3];
static unsigned int out_ctl, ctl_rz = 0x1f80 | 0x6000;	/* RC = toward 0 */

static void trash(void)
{
	unsigned int m = 0x1f80 | 0x2000;	/* RC = down */

	asm volatile("pcmpeqb %%xmm0, %%xmm0\n\t"
		     "pcmpeqb %%xmm1, %%xmm1\n\t"
		     "pcmpeqb %%xmm2, %%xmm2\n\t"
		     "pcmpeqb %%xmm3, %%xmm3\n\t"
		     "pcmpeqb %%xmm4, %%xmm4\n\t"
		     "pcmpeqb %%xmm5, %%xmm5\n\t"
		     "pcmpeqb %%xmm6, %%xmm6\n\t"
		     "pcmpeqb %%xmm7, %%xmm7\n\t"
		     "pcmpeqb %%xmm8, %%xmm8\n\t"
		     "pcmpeqb %%xmm9, %%xmm9\n\t"
		     "pcmpeqb %%xmm10, %%xmm10\n\t"
		     "pcmpeqb %%xmm11, %%xmm11\n\t"
		     "pcmpeqb %%xmm12, %%xmm12\n\t"
		     "pcmpeqb %%xmm13, %%xmm13\n\t"
		     "pcmpeqb %%xmm14, %%xmm14\n\t"
		     "pcmpeqb %%xmm15, %%xmm15\n\t"
		     "fninit\n\t"
		     "fldz\n\t"
		     "fldpi\n\t"
		     "fstp %%st(0)\n\t"
		     "fstp %%st(0)\n\t"
		     "ldmxcsr %0"
		     : : "m"(m)
		     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		       "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
		       "xmm13", "xmm14", "xmm15", "memory");
}

/* load, kill(getpid(), SIGUSR1) by a syscall instruction, store */
static void round_trip(void)
{
	unsigned int saved;
	long pid = getpid();
	long nr = SYS_kill;

	asm volatile("stmxcsr %[saved]\n\t"
		     "ldmxcsr %[ctl]\n\t"
		     "fldl 16(%[x87])\n\t"
		     "fldl 8(%[x87])\n\t"
		     "fldl 0(%[x87])\n\t"
		     "movdqa 0(%[in]), %%xmm0\n\t"
		     "movdqa 16(%[in]), %%xmm1\n\t"
		     "movdqa 32(%[in]), %%xmm2\n\t"
		     "movdqa 48(%[in]), %%xmm3\n\t"
		     "movdqa 64(%[in]), %%xmm4\n\t"
		     "movdqa 80(%[in]), %%xmm5\n\t"
		     "movdqa 96(%[in]), %%xmm6\n\t"
		     "movdqa 112(%[in]), %%xmm7\n\t"
		     "movdqa 128(%[in]), %%xmm8\n\t"
		     "movdqa 144(%[in]), %%xmm9\n\t"
		     "movdqa 160(%[in]), %%xmm10\n\t"
		     "movdqa 176(%[in]), %%xmm11\n\t"
		     "movdqa 192(%[in]), %%xmm12\n\t"
		     "movdqa 208(%[in]), %%xmm13\n\t"
		     "movdqa 224(%[in]), %%xmm14\n\t"
		     "movdqa 240(%[in]), %%xmm15\n\t"
		     "syscall\n\t"
		     "movdqa %%xmm0, 0(%[out])\n\t"
		     "movdqa %%xmm1, 16(%[out])\n\t"
		     "movdqa %%xmm2, 32(%[out])\n\t"
		     "movdqa %%xmm3, 48(%[out])\n\t"
		     "movdqa %%xmm4, 64(%[out])\n\t"
		     "movdqa %%xmm5, 80(%[out])\n\t"
		     "movdqa %%xmm6, 96(%[out])\n\t"
		     "movdqa %%xmm7, 112(%[out])\n\t"
		     "movdqa %%xmm8, 128(%[out])\n\t"
		     "movdqa %%xmm9, 144(%[out])\n\t"
		     "movdqa %%xmm10, 160(%[out])\n\t"
		     "movdqa %%xmm11, 176(%[out])\n\t"
		     "movdqa %%xmm12, 192(%[out])\n\t"
		     "movdqa %%xmm13, 208(%[out])\n\t"
		     "movdqa %%xmm14, 224(%[out])\n\t"
		     "movdqa %%xmm15, 240(%[out])\n\t"
		     "fstpl 0(%[xo])\n\t"
		     "fstpl 8(%[xo])\n\t"
		     "fstpl 16(%[xo])\n\t"
		     "stmxcsr %[octl]\n\t"
		     "ldmxcsr %[saved]"
		     : "+a"(nr), [saved] "=m"(saved), [octl] "=m"(out_ctl)
		     : "D"(pid), "S"((long)SIGUSR1), [in] "r"(in_v),
		       [out] "r"(out_v), [x87] "r"(in_x87), [xo] "r"(out_x87),
		       [ctl] "m"(ctl_rz)
		     : "rcx", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
		       "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
		       "xmm12", "xmm13", "xmm14", "xmm15", "memory", "cc");
}

static int compare(void)
{
	int bad = 0, i;

	for (i = 0; i < NVEC; i++)
		bad += in_v[i][0] != out_v[i][0] || in_v[i][1] != out_v[i][1];
	for (i = 0; i < 3; i++)
		bad += in_x87[i] != out_x87[i];
	bad += out_ctl != ctl_rz;
	return bad;
}
#define NREGS	(NVEC + 3 + 1)
#define WHAT	"xmm0-15, x87 st0-2, mxcsr"

#elif defined(__powerpc64__)
#define NVEC	64
static uint64_t in_v[NVEC][2] __attribute__((aligned(16)));
static uint64_t out_v[NVEC][2] __attribute__((aligned(16)));
static double out_fpscr;

#define VS_ALL(op)							\
	op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9)	\
	op(10) op(11) op(12) op(13) op(14) op(15) op(16) op(17) op(18)	\
	op(19) op(20) op(21) op(22) op(23) op(24) op(25) op(26) op(27)	\
	op(28) op(29) op(30) op(31) op(32) op(33) op(34) op(35) op(36)	\
	op(37) op(38) op(39) op(40) op(41) op(42) op(43) op(44) op(45)	\
	op(46) op(47) op(48) op(49) op(50) op(51) op(52) op(53) op(54)	\
	op(55) op(56) op(57) op(58) op(59) op(60) op(61) op(62) op(63)
#define NOT(n)		"xxlnor " #n ", " #n ", " #n "\n\t"
#define LOAD(n)		"li 9, " #n "*16\n\tlxvd2x " #n ", %[in], 9\n\t"
#define STORE(n)	"li 9, " #n "*16\n\tstxvd2x " #n ", %[out], 9\n\t"
#define CLOBBERS							\
	"vs0", "vs1", "vs2", "vs3", "vs4", "vs5", "vs6", "vs7", "vs8",	\
	"vs9", "vs10", "vs11", "vs12", "vs13", "vs14", "vs15", "vs16",	\
	"vs17", "vs18", "vs19", "vs20", "vs21", "vs22", "vs23", "vs24",	\
	"vs25", "vs26", "vs27", "vs28", "vs29", "vs30", "vs31", "vs32",	\
	"vs33", "vs34", "vs35", "vs36", "vs37", "vs38", "vs39", "vs40",	\
	"vs41", "vs42", "vs43", "vs44", "vs45", "vs46", "vs47", "vs48",	\
	"vs49", "vs50", "vs51", "vs52", "vs53", "vs54", "vs55", "vs56",	\
	"vs57", "vs58", "vs59", "vs60", "vs61", "vs62", "vs63"

static void trash(void)
{
	asm volatile(VS_ALL(NOT)
		     "mtfsfi 7, 2"	/* RN = toward +inf */
		     : : : CLOBBERS, "memory");
}

/* load, kill(getpid(), SIGUSR1) by sc, store */
static void round_trip(void)
{
	register long r3 asm("r3") = getpid();
	register long r4 asm("r4") = SIGUSR1;
	register long r0 asm("r0") = SYS_kill;
	double saved;

	asm volatile("mffs 0\n\t"
		     "stfd 0, %[saved]\n\t"
		     "mtfsfi 7, 1\n\t"		/* RN = toward 0 */
		     VS_ALL(LOAD)
		     "sc\n\t"
		     VS_ALL(STORE)
		     "mffs 0\n\t"
		     "stfd 0, %[ofp]\n\t"
		     "lfd 0, %[saved]\n\t"
		     "mtfsf 0xff, 0"
		     : "+r"(r3), "+r"(r4), "+r"(r0), [saved] "=m"(saved),
		       [ofp] "=m"(out_fpscr)
		     : [in] "b"(in_v), [out] "b"(out_v)
		     : "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
		       "cr0", "ctr", "xer", CLOBBERS, "memory");
}

static int compare(void)
{
	union { double d; uint64_t u; } f = { .d = out_fpscr };
	int bad = 0, i;

	for (i = 0; i < NVEC; i++)
		bad += in_v[i][0] != out_v[i][0] || in_v[i][1] != out_v[i][1];
	bad += (f.u & 3) != 1;
	return bad;
}
#define NREGS	(NVEC + 1)
#define WHAT	"vs0-63, fpscr"
#endif

static void on_sig(int sig)
{
	handled++;
	trash();
	if (sig == SIGUSR1 && raise(SIGUSR2))
		_exit(3);
	trash();
}

TT_MAIN
{
	int i, j, bad = 0;

	tt_handle_plain(SIGUSR1, on_sig, 0);
	tt_handle_plain(SIGUSR2, on_sig, 0);
	for (i = 0; i < 10; i++) {
		for (j = 0; j < NVEC; j++) {
			in_v[j][0] = 0x0123456789abcdefULL * (j + 1) + i;
			in_v[j][1] = 0xfedcba9876543210ULL ^ ((uint64_t)j << 32) ^ i;
		}
		memset(out_v, 0, sizeof(out_v));
		round_trip();
		bad += compare();
	}
	tt_say("registers: %s\n", WHAT);
	tt_say("handlers run: %d\n", handled);
	tt_say("registers changed across the signal: %d of %d x 10\n",
	       bad, NREGS);
	tt_check(handled == 20 && bad == 0);
	tt_ok();
	return 0;
}
