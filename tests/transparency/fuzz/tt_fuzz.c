// SPDX-License-Identifier: GPL-2.0
/*
 * tt_fuzz: the transparency suite's traced-program fuzzer. It owns one
 * thing: a seeded, deterministic run of random events of the kinds the
 * programs of ../progs/ test one at a time (signals with every kind of
 * handler, fork/vfork/exec/threads, the program's own single-stepping,
 * breakpoints and faults, atomics of every width, self-modifying code,
 * timers, a ptrace debugger, the vDSO), in an order no hand-written
 * program has. Untraced and traced, a run with the same seed must print
 * the same bytes and end the same way (the suite's rule).
 *
 *   tt_fuzz SEED [EVENTS]	SEED a decimal u32, EVENTS 40 if not given
 *   tt_fuzz			seed 1 (so that tt-run can run it bare)
 *
 * A fixed PRNG (splitmix64) seeded by SEED picks each event (by weight)
 * and its parameters; each event prints one line `ev N KIND params ->
 * result` with only results that are the same on every run (no pids,
 * addresses or times). The kinds:
 *   sig      raise USR1/USR2/RT with an SA_SIGINFO handler re-raising
 *            itself to a depth, any of SA_NODEFER, SA_RESTART,
 *            SA_ONSTACK (on a sigaltstack): depth and stack checked
 *   nested   USR1 and USR2 handlers raising each other under sa_masks
 *   longjmp  a handler, or one nested in it, siglongjmps out
 *   editctx  SIGILL (ud2 / word 0) and SIGSEGV handlers advance the ip
 *   fork     the child runs 0-3 sub-events, then _exit(k)
 *   forkhdl  fork in a handler; the child returns from it and exits
 *   vfork    the child only _exits
 *   vexec    vfork + execve("/proc/self/exe") as `tt_fuzz child K`
 *   thread   1-3 threads at once: atomics, pthread_kill of itself, a
 *            loop; joined
 *   popf     x86: TF set by popf, the SIGTRAP handler counts N traps
 *            and clears TF in its ucontext (POWER: a fixed line)
 *   pushf    no step bit to be seen: x86 pushf, the frame's EFLAGS.TF
 *            or MSR_SE|MSR_BE
 *   trap     int3 / the trap word 0x7fe00008, the handler resumes
 *            after it (POWER: advances nip)
 *   atom     lock cmpxchg 1/2/4/8 and cmpxchg16b; POWER l[bhwdq]arx
 *   smc      an anonymous page RW->RX->RW with its code rewritten
 *   itimer   one ITIMER_REAL shot, waited for in sigsuspend
 *   ptrace   a child PTRACE_SINGLESTEPped K times, then let go
 *   vdso     clock_gettime(CLOCK_MONOTONIC) never going back
 * A forked child's sub-events print as `  ev N.I ...` while the parent
 * waits for it; threads never print (main prints what they found after
 * joining them). After each event the process must be back in its
 * clean state (empty signal mask, nothing pending, no alternate stack,
 * no child left; the handlers are reset). Last come `events N` and the
 * verdict. Every event draws its parameters before any architecture
 * test, so a seed runs the same sequence on x86 and POWER and all but
 * the arch-only lines are the same. Where qemu-user lacks a feature
 * (ptrace, exec of /proc/self/exe, a stqcx. that can succeed) the event
 * says so in its line and goes on: such lines differ from a kernel's.
 *
 * ./seeds holds the seeds CI runs. Keep the run small: with 40 events
 * it stays under ~400,000 user instructions on x86 (a traced
 * instruction costs ~1000x under the emulator), and well under 200 ms
 * untraced.
 */
#include "../tt_dbg.h"
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <fcntl.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>

#if defined(__x86_64__)
#define STEP_BITS	0x100UL		/* TF */
#define CTX_BITS(uc)	((unsigned long)(uc)->uc_mcontext.gregs[REG_EFL])
#define SEGV_LEN	2
#define ILL_LEN		2
#elif defined(__powerpc64__)
#define STEP_BITS	0x600UL		/* MSR_SE | MSR_BE */
#define CTX_BITS(uc)	((unsigned long)(uc)->uc_mcontext.gp_regs[PT_MSR])
#define SEGV_LEN	4
#define ILL_LEN		4
#else
#error "tt_fuzz: x86_64 or powerpc64 only"
#endif
#define IP(uc)		TT_UC_IP(uc)

#define DEFAULT_EVENTS	40
#define MAX_EVENTS	100000

/* ---------------------------------------------------------------- */
/* the PRNG: splitmix64, the same sequence on every machine */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* a number in [lo, hi] */
static unsigned int range(struct rng *r, unsigned int lo, unsigned int hi)
{
	return lo + (unsigned int)(rnd(r) % (hi - lo + 1));
}

/* ---------------------------------------------------------------- */
/* shared helpers */

static sigset_t base_mask;
static uint64_t touched;	/* signals whose handler an event set */
static char altstack_mem[64 * 1024] __attribute__((aligned(64)));

static void set_info(int sig, void (*fn)(int, siginfo_t *, void *), int flags,
		     int block)
{
	struct sigaction sa;

	touched |= 1ULL << (sig - 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = flags | SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (block)
		sigaddset(&sa.sa_mask, block);
	tt_sys(sigaction(sig, &sa, NULL));
}

static void set_plain(int sig, void (*fn)(int), int flags, int block)
{
	struct sigaction sa;

	touched |= 1ULL << (sig - 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	if (block)
		sigaddset(&sa.sa_mask, block);
	tt_sys(sigaction(sig, &sa, NULL));
}

static int blocked(int sig)
{
	sigset_t cur;

	sigemptyset(&cur);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	return sigismember(&cur, sig);
}

static void alt_on(void)
{
	stack_t ss;

	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = altstack_mem;
	ss.ss_size = sizeof(altstack_mem);
	tt_sys(sigaltstack(&ss, NULL));
}

static void alt_off(void)
{
	stack_t ss;

	memset(&ss, 0, sizeof(ss));
	ss.ss_flags = SS_DISABLE;
	tt_sys(sigaltstack(&ss, NULL));
}

static __attribute__((noinline)) int on_altstack(void)
{
	volatile char here;
	uintptr_t p = (uintptr_t)&here;

	return p >= (uintptr_t)altstack_mem &&
	       p < (uintptr_t)altstack_mem + sizeof(altstack_mem);
}

/* a wait status in words that are the same on every run */
static const char *status_str(int st, char *buf, size_t n)
{
	if (WIFEXITED(st))
		snprintf(buf, n, "exited %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, n, "killed by signal %d", WTERMSIG(st));
	else if (WIFSTOPPED(st))
		snprintf(buf, n, "stopped by signal %d", WSTOPSIG(st));
	else
		snprintf(buf, n, "status other");
	return buf;
}

/* @buf = @a @b @c @n in decimal (cheaper than snprintf: every event) */
static void mktag(char *buf, const char *a, const char *b, const char *c,
		  unsigned int n)
{
	char digits[12];
	int k = 0;

	do {
		digits[k++] = '0' + n % 10;
		n /= 10;
	} while (n);
	while (*a)
		*buf++ = *a++;
	while (*b)
		*buf++ = *b++;
	while (*c)
		*buf++ = *c++;
	while (k)
		*buf++ = digits[--k];
	*buf = 0;
}

static void reap(pid_t pid, int *st)
{
	while (waitpid(pid, st, 0) == -1)
		if (errno != EINTR)
			tt_fail("waitpid: %s", strerror(errno));
}

/* the kernel's part of a sigset_t: signals 1-64, bit n-1 for signal n */
static uint64_t kset(const sigset_t *set)
{
	uint64_t w;

	memcpy(&w, set, sizeof(w));
	return w;
}

/*
 * After each event: the process is as before it (the signal mask it
 * started with, nothing pending, no alternate stack, no child), and the
 * handlers that the event set go back to SIG_DFL.
 */
static void settle(void)
{
	sigset_t cur, pend;
	stack_t ss;
	int sig, st;

	sigemptyset(&cur);
	sigemptyset(&pend);
	tt_sys(sigprocmask(SIG_BLOCK, NULL, &cur));
	tt_check(kset(&cur) == kset(&base_mask));
	tt_sys(sigpending(&pend));
	tt_check(kset(&pend) == 0);
	for (sig = 1; touched; sig++) {
		if (touched & (1ULL << (sig - 1))) {
			set_plain(sig, SIG_DFL, 0, 0);
			touched &= ~(1ULL << (sig - 1));
		}
	}
	tt_sys(sigaltstack(NULL, &ss));
	tt_check(ss.ss_flags & SS_DISABLE);
	tt_check(waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD);
}

/* ---------------------------------------------------------------- */
/* sig: raise with an SA_SIGINFO handler that re-raises to a depth */

static volatile int sg_want, sg_calls, sg_depth, sg_max, sg_alt, sg_tkill;

static void on_sg(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	sg_calls++;
	if (++sg_depth > sg_max)
		sg_max = sg_depth;
	if (on_altstack())
		sg_alt++;
	if (si->si_code == SI_TKILL)
		sg_tkill++;
	if (sg_calls < sg_want)
		raise(sig);
	sg_depth--;
}

static void ev_sig(struct rng *r, const char *tag)
{
	static const char *const names[] = { "usr1", "usr2", "rt2" };
	unsigned int which = range(r, 0, 2), fl = range(r, 0, 7);
	int d = range(r, 1, 4);
	int sig = which == 0 ? SIGUSR1 : which == 1 ? SIGUSR2 : SIGRTMIN + 2;
	int flags = (fl & 1 ? SA_NODEFER : 0) | (fl & 2 ? SA_RESTART : 0) |
		    (fl & 4 ? SA_ONSTACK : 0);
	struct sigaction now;

	sg_want = d;
	sg_calls = sg_depth = sg_max = sg_alt = sg_tkill = 0;
	if (fl & 4)
		alt_on();
	set_info(sig, on_sg, flags, 0);
	tt_sys(raise(sig));
	tt_sys(sigaction(sig, NULL, &now));
	if (fl & 4)
		alt_off();
	tt_say("%s sig %s%s%s%s depth %d -> calls %d maxdepth %d onalt %d tkill %d flags-kept %s\n",
	       tag, names[which], fl & 1 ? " nodefer" : "",
	       fl & 2 ? " restart" : "", fl & 4 ? " onstack" : "", d,
	       sg_calls, sg_max, sg_alt, sg_tkill,
	       (now.sa_flags & flags) == flags ? "yes" : "no");
	tt_check(sg_calls == d && sg_depth == 0 && sg_tkill == d);
	tt_check(sg_max == (fl & 1 ? d : 1));
	tt_check(sg_alt == (fl & 4 ? d : 0));
}

/* ---------------------------------------------------------------- */
/* nested: USR1 and USR2 handlers raising each other */

static char ns_log[64];
static volatile int ns_len, ns_runs1, ns_back;

static void ns_note(const char *s)
{
	while (*s && ns_len < (int)sizeof(ns_log) - 1)
		ns_log[ns_len++] = *s++;
}

static void on_ns1(int sig)
{
	(void)sig;
	ns_note(" 1<");
	if (ns_runs1++ == 0)
		raise(SIGUSR2);
	ns_note(" 1>");
}

static void on_ns2(int sig)
{
	(void)sig;
	ns_note(" 2<");
	if (ns_back) {
		ns_back = 0;
		raise(SIGUSR1);
	}
	ns_note(" 2>");
}

static void ev_nested(struct rng *r, const char *tag)
{
	unsigned int mask2 = range(r, 0, 1), mask1 = range(r, 0, 1);
	unsigned int back = range(r, 0, 1);

	ns_len = ns_runs1 = 0;
	ns_back = back;
	set_plain(SIGUSR1, on_ns1, 0, mask2 ? SIGUSR2 : 0);
	set_plain(SIGUSR2, on_ns2, 0, mask1 ? SIGUSR1 : 0);
	tt_sys(raise(SIGUSR1));
	ns_log[ns_len] = 0;
	tt_say("%s nested usr1-blocks-usr2 %u usr2-blocks-usr1 %u back %u ->%s\n",
	       tag, mask2, mask1, back, ns_log);
	tt_check(ns_runs1 == 1 + (int)back && !ns_back);
}

/* ---------------------------------------------------------------- */
/* longjmp: a handler (or a handler nested in it) siglongjmps out */

static sigjmp_buf lj_env;
static volatile int lj_two;

static void on_lj1(int sig)
{
	(void)sig;
	if (lj_two)
		raise(SIGUSR2);
	siglongjmp(lj_env, 1);
}

static void on_lj2(int sig)
{
	(void)sig;
	siglongjmp(lj_env, 2);
}

static void ev_longjmp(struct rng *r, const char *tag)
{
	volatile int save = range(r, 0, 1), two = range(r, 0, 1);
	volatile int got, b1, b2;

	lj_two = two;
	set_plain(SIGUSR1, on_lj1, 0, 0);
	set_plain(SIGUSR2, on_lj2, 0, 0);
	got = sigsetjmp(lj_env, save);
	if (got == 0) {
		raise(SIGUSR1);
		tt_fail("longjmp: handler returned");
	}
	b1 = blocked(SIGUSR1);
	b2 = blocked(SIGUSR2);
	tt_sys(sigprocmask(SIG_SETMASK, &base_mask, NULL));
	tt_say("%s longjmp savemask %d from %s -> jumped %d blocked usr1 %d usr2 %d\n",
	       tag, save, two ? "nested" : "handler", got, b1, b2);
	tt_check(got == (two ? 2 : 1));
	tt_check(b1 == !save && b2 == (!save && two));
}

/* ---------------------------------------------------------------- */
/* editctx: SIGILL / SIGSEGV handlers skip the fault by editing the ip */

static volatile int ec_ill, ec_segv, ec_bad;

static void on_ec(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	if (sig == SIGSEGV) {
		ec_segv++;
		if (si->si_addr != NULL)
			ec_bad++;
		IP(uc) += SEGV_LEN;
	} else {
		ec_ill++;
		if ((unsigned long)si->si_addr != (unsigned long)IP(uc))
			ec_bad++;
		IP(uc) += ILL_LEN;
	}
}

static __attribute__((noinline)) long segv_once(long base)
{
	long r = base;

#if defined(__x86_64__)
	asm volatile("mov (%0), %%eax\n\t"	/* 8b 00: faults, skipped */
		     "add $1, %0"
		     : "+a"(r) : : "memory", "cc");
#elif defined(__powerpc64__)
	asm volatile("lwz %0, 0(%0)\n\t"	/* faults, skipped */
		     "addi %0, %0, 1"
		     : "+b"(r) : : "memory");
#endif
	return r;
}

static __attribute__((noinline)) long ill_once(long base)
{
	long r = base;

#if defined(__x86_64__)
	asm volatile("ud2\n\t"
		     "add $2, %0"
		     : "+r"(r) : : "cc");
#elif defined(__powerpc64__)
	asm volatile(".long 0\n\t"		/* illegal: SIGILL */
		     "addi %0, %0, 2"
		     : "+b"(r));
#endif
	return r;
}

static void ev_editctx(struct rng *r, const char *tag)
{
	unsigned int n = range(r, 1, 4), which = range(r, 0, 15), i;
	long sum = 0, want = 0;
	char seq[8];

	ec_ill = ec_segv = ec_bad = 0;
	set_info(SIGSEGV, on_ec, 0, 0);
	set_info(SIGILL, on_ec, 0, 0);
	for (i = 0; i < n; i++) {
		if (which & (1u << i)) {
			sum += ill_once(0);
			want += 2;
			seq[i] = 'i';
		} else {
			sum += segv_once(0);
			want += 1;
			seq[i] = 's';
		}
	}
	seq[n] = 0;
	tt_say("%s editctx %s -> sigill %d sigsegv %d resumed sum %ld bad %d\n",
	       tag, seq, ec_ill, ec_segv, sum, ec_bad);
	tt_check(ec_ill + ec_segv == (int)n && sum == want && !ec_bad);
}

/* ---------------------------------------------------------------- */
/* popf (x86): the program single-steps itself with TF */

#if defined(__x86_64__)
static volatile int pf_want, pf_traps, pf_extra, pf_trace;

static void on_pf(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	if (si->si_code == TRAP_TRACE)
		pf_trace++;
	if (pf_traps >= pf_want) {
		pf_extra++;
		uc->uc_mcontext.gregs[REG_EFL] &= ~STEP_BITS;
		return;
	}
	if (++pf_traps == pf_want)
		uc->uc_mcontext.gregs[REG_EFL] &= ~STEP_BITS;
}

static unsigned long x86_flags(void)
{
	unsigned long f;

	asm volatile("pushf; pop %0" : "=r"(f));
	return f;
}
#endif

static void ev_popf(struct rng *r, const char *tag)
{
	int n = range(r, 1, 16);
#if defined(__x86_64__)
	long left;

	pf_want = n;
	pf_traps = pf_extra = pf_trace = 0;
	set_info(SIGTRAP, on_pf, 0, 0);
	asm volatile("pushf\n\t"
		     "orq $0x100, (%%rsp)\n\t"
		     "popf\n\t"
		     "mov $40, %0\n"
		     "1:\n\t"
		     "dec %0\n\t"
		     "jnz 1b\n\t"
		     : "=&r"(left) : : "cc", "memory");
	tt_say("%s popf traps %d -> traps %d trace %d extra %d left %ld tf %lu\n",
	       tag, n, pf_traps, pf_trace, pf_extra, left,
	       (x86_flags() & STEP_BITS) >> 8);
	tt_check(pf_traps == n && pf_trace == n && !pf_extra && !left);
	tt_check(!(x86_flags() & STEP_BITS));
#else
	tt_say("%s popf traps %d -> x86 only\n", tag, n);
#endif
}

/* ---------------------------------------------------------------- */
/* pushf: the tracer's step bit is not to be seen (pushf, signal frame) */

static volatile int pu_handled;
static volatile unsigned long pu_bits;

static void on_pu(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	pu_bits |= CTX_BITS((ucontext_t *)ctx) & STEP_BITS;
	pu_handled++;
}

static void ev_pushf(struct rng *r, const char *tag)
{
	int n = range(r, 1, 4), i;
	unsigned long seen = 0;

#if defined(__x86_64__)
	for (i = 0; i < n; i++)
		seen |= x86_flags() & STEP_BITS;
#endif
	pu_handled = 0;
	pu_bits = 0;
	set_info(SIGUSR1, on_pu, 0, 0);
	for (i = 0; i < n; i++)
		tt_sys(raise(SIGUSR1));
	tt_say("%s pushf reads %d -> pushf step %s, frame step %s, handled %d\n",
	       tag, n, seen ? "set" : "clear", pu_bits ? "set" : "clear",
	       pu_handled);
	tt_check(!seen && !pu_bits && pu_handled == n);
}

/* ---------------------------------------------------------------- */
/* trap: own int3 / trap word, the SIGTRAP handler resumes after it */

extern char tt_fuzz_bp_where[];
static volatile int tp_traps, tp_bad_ip, tp_bad_code;

static void on_tp(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	tp_traps++;
	if ((unsigned long)IP(uc) != (unsigned long)tt_fuzz_bp_where)
		tp_bad_ip++;
#if defined(__x86_64__)
	if (si->si_code != SI_KERNEL)
		tp_bad_code++;
#elif defined(__powerpc64__)
	/*
	 * SI_KERNEL while any uprobe is in the mm (the `func tt_body`
	 * run's): uprobes answers the trap word itself. The suite's
	 * step_int3 checks the code exactly, with that run listed in
	 * tests/transparency/exceptions; here either is a breakpoint trap.
	 */
	if (si->si_code != TRAP_BRKPT && si->si_code != SI_KERNEL)
		tp_bad_code++;
#endif
	IP(uc) += TT_TRAP_SKIP;
}

static __attribute__((noinline, noclone)) long bp(long v)
{
#if defined(__x86_64__)
	asm volatile(TT_TRAP_INSN "\n"
		     ".globl tt_fuzz_bp_where\n"
		     "tt_fuzz_bp_where:\n\t"
		     "add $1, %0"
		     : "+r"(v) : : "cc", "memory");
#elif defined(__powerpc64__)
	asm volatile(".globl tt_fuzz_bp_where\n"
		     "tt_fuzz_bp_where:\n\t"
		     TT_TRAP_INSN "\n\t"
		     "addi %0, %0, 1"
		     : "+b"(v) : : "memory");
#endif
	return v;
}

static void ev_trap(struct rng *r, const char *tag)
{
	int n = range(r, 1, 4), i;
	long v = 0;

	tp_traps = tp_bad_ip = tp_bad_code = 0;
	set_info(SIGTRAP, on_tp, 0, 0);
	for (i = 0; i < n; i++)
		v = bp(v);
	tt_say("%s trap %d -> traps %d resumed %ld bad ip %d bad code %d\n",
	       tag, n, tp_traps, v, tp_bad_ip, tp_bad_code);
	tt_check(tp_traps == n && v == n && !tp_bad_ip && !tp_bad_code);
}

/* ---------------------------------------------------------------- */
/* atom: read-modify-write loops of every width */

struct atoms {
	uint8_t b;
	uint16_t h;
	uint32_t w;
	uint64_t d;
	uint64_t q[2] __attribute__((aligned(16)));
};

static struct atoms shared_atoms;

#if defined(__x86_64__)
#define CAS_ADD(p, v, rc) do {						\
	__typeof__(*(p)) o = *(volatile __typeof__(*(p)) *)(p), n;	\
	unsigned char ok;						\
	do {								\
		n = o + (v);						\
		asm volatile("lock cmpxchg %3, %1\n\t"			\
			     "sete %0"					\
			     : "=q"(ok), "+m"(*(p)), "+a"(o)		\
			     : rc(n) : "cc", "memory");			\
	} while (!ok);							\
} while (0)

/* the quadword add: a cmpxchg16b loop */
static int quad_add(uint64_t *q, uint64_t v)
{
	uint64_t lo = ((volatile uint64_t *)q)[0];
	uint64_t hi = ((volatile uint64_t *)q)[1];
	unsigned char ok;

	do {
		uint64_t nlo = lo + v, nhi = hi + v;

		asm volatile("lock cmpxchg16b %1\n\t"
			     "sete %0"
			     : "=q"(ok), "+m"(*(uint64_t (*)[2])q), "+a"(lo),
			       "+d"(hi)
			     : "b"(nlo), "c"(nhi)
			     : "cc", "memory");
	} while (!ok);
	return 1;
}

static void atom_add(struct atoms *a, uint64_t v)
{
	CAS_ADD(&a->b, v, "q");
	CAS_ADD(&a->h, v, "r");
	CAS_ADD(&a->w, v, "r");
	CAS_ADD(&a->d, v, "r");
}
#elif defined(__powerpc64__)
#define LARX_ADD(larx, stcx, p, v) do {					\
	unsigned long t;						\
	asm volatile(".machine push\n\t"				\
		     ".machine power8\n"				\
		     "1:\t" larx " %0, 0, %2\n\t"			\
		     "add %0, %0, %3\n\t"				\
		     stcx " %0, 0, %2\n\t"				\
		     "bne- 1b\n\t"					\
		     ".machine pop"					\
		     : "=&r"(t), "+m"(*(p)) : "b"(p), "r"(v)		\
		     : "cr0", "memory");				\
} while (0)

/*
 * The quadword add: lqarx/stqcx. on the even/odd pair r8:r9, both
 * halves get @v. At most 8 tries, as in atom_widths.c: Debian 12's
 * qemu (7.2) fails every stqcx., where a loop would never end. Only
 * one thread ever runs it, so on hardware a try fails only by chance.
 */
static int quad_add(uint64_t *q, uint64_t v)
{
	unsigned long cr;
	int n;

	for (n = 0; n < 8; n++) {
		asm volatile(".machine push\n\t"
			     ".machine power8\n\t"
			     "lqarx 8, 0, %2\n\t"
			     "add 8, 8, %3\n\t"
			     "add 9, 9, %3\n\t"
			     "stqcx. 8, 0, %2\n\t"
			     "mfcr %1\n\t"
			     ".machine pop"
			     : "+m"(*(uint64_t (*)[2])q), "=r"(cr)
			     : "b"(q), "r"(v)
			     : "r8", "r9", "cr0", "memory");
		if (cr & 0x20000000)	/* cr0.eq: stored */
			return 1;
	}
	return 0;
}

static void atom_add(struct atoms *a, uint64_t v)
{
	LARX_ADD("lbarx", "stbcx.", &a->b, v);
	LARX_ADD("lharx", "sthcx.", &a->h, v);
	LARX_ADD("lwarx", "stwcx.", &a->w, v);
	LARX_ADD("ldarx", "stdcx.", &a->d, v);
}
#endif

static void atom_init(struct atoms *a, uint64_t init)
{
	a->b = init;
	a->h = init >> 8;
	a->w = init >> 16;
	a->d = init;
	a->q[0] = ~init;
	a->q[1] = init << 1;
}

/* the values after @m adds of @v (@qm of them to the quadword) */
static int atom_expect(const struct atoms *a, uint64_t init, uint64_t v,
		       unsigned int m, unsigned int qm)
{
	struct atoms e;

	atom_init(&e, init);
	e.b += (uint8_t)(v * m);
	e.h += (uint16_t)(v * m);
	e.w += (uint32_t)(v * m);
	e.d += v * m;
	e.q[0] += v * qm;
	e.q[1] += v * qm;
	return a->b == e.b && a->h == e.h && a->w == e.w && a->d == e.d &&
	       a->q[0] == e.q[0] && a->q[1] == e.q[1];
}

static int atom_str(char *buf, size_t n, const struct atoms *a)
{
	return snprintf(buf, n, "b %02x h %04x w %08x d %016llx",
			a->b, a->h, a->w, (unsigned long long)a->d);
}

/* one thread: every width, and the quadword (x86 cmpxchg16b, POWER lqarx) */
static void ev_atom(struct rng *r, const char *tag)
{
	struct atoms *a = &shared_atoms;
	unsigned int m, i, stored = 0;
	uint64_t init, v;
	char buf[160];

	init = rnd(r);
	v = rnd(r);
	v >>= range(r, 0, 63);
	m = range(r, 1, 4);
	atom_init(a, init);
	for (i = 0; i < m; i++) {
		atom_add(a, v);
		stored += quad_add(a->q, v);
	}
	atom_str(buf, sizeof(buf), a);
	if (!stored && a->q[0] == ~init && a->q[1] == init << 1) {
		/* qemu-user's stqcx.: a line that no hardware prints */
		tt_say("%s atom add %016llx x%u -> %s q: every stqcx. fails here (an emulator)\n",
		       tag, (unsigned long long)v, m, buf);
		tt_check(atom_expect(a, init, v, m, 0));
		return;
	}
	tt_say("%s atom add %016llx x%u -> %s q %016llx %016llx\n", tag,
	       (unsigned long long)v, m, buf, (unsigned long long)a->q[0],
	       (unsigned long long)a->q[1]);
	tt_check(stored == m && atom_expect(a, init, v, m, m));
}

/* ---------------------------------------------------------------- */
/* smc: mprotect an anonymous page RW->RX->RW, rewrite its code */

typedef int (*fn_t)(void);

static void ev_smc(struct rng *r, const char *tag)
{
	int imm[2], got[2], i;
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *page;
	fn_t fn;

	imm[0] = range(r, 0, 32767);
	imm[1] = range(r, 0, 32767);
	page = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tt_check(page != MAP_FAILED);
	fn = (fn_t)(uintptr_t)page;
	for (i = 0; i < 2; i++) {
		tt_emit_ret(page, imm[i]);
		tt_sys(mprotect(page, pg, PROT_READ | PROT_EXEC));
		got[i] = fn();
		tt_sys(mprotect(page, pg, PROT_READ | PROT_WRITE));
	}
	tt_sys(munmap(page, pg));
	tt_say("%s smc imm %d %d -> returned %d %d\n", tag, imm[0], imm[1],
	       got[0], got[1]);
	tt_check(got[0] == imm[0] && got[1] == imm[1]);
}

/* ---------------------------------------------------------------- */
/* itimer: one ITIMER_REAL shot, waited for in sigsuspend */

static volatile int it_alarms;

static void on_alrm(int sig)
{
	(void)sig;
	it_alarms++;
}

static void ev_itimer(struct rng *r, const char *tag)
{
	unsigned int us = range(r, 20, 400), restart = range(r, 0, 1);
	struct itimerval it, left;
	sigset_t set, old;

	it_alarms = 0;
	set_plain(SIGALRM, on_alrm, restart ? SA_RESTART : 0, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	tt_sys(sigprocmask(SIG_BLOCK, &set, &old));
	memset(&it, 0, sizeof(it));
	it.it_value.tv_usec = us;
	tt_sys(setitimer(ITIMER_REAL, &it, NULL));
	while (!it_alarms)
		sigsuspend(&old);
	tt_sys(getitimer(ITIMER_REAL, &left));
	tt_sys(sigprocmask(SIG_SETMASK, &old, NULL));
	tt_say("%s itimer real %uus%s -> alarms %d, disarmed %s\n", tag, us,
	       restart ? " restart" : "", it_alarms,
	       left.it_value.tv_sec || left.it_value.tv_usec ? "no" : "yes");
	tt_check(it_alarms == 1);
	tt_check(!left.it_value.tv_sec && !left.it_value.tv_usec);
}

/* ---------------------------------------------------------------- */
/* vdso: clock_gettime(CLOCK_MONOTONIC) never goes back */

static void ev_vdso(struct rng *r, const char *tag)
{
	int n = range(r, 2, 8), i, back = 0;
	struct timespec prev = { 0, 0 }, now;

	for (i = 0; i < n; i++) {
		tt_sys(clock_gettime(CLOCK_MONOTONIC, &now));
		if (now.tv_sec < prev.tv_sec ||
		    (now.tv_sec == prev.tv_sec && now.tv_nsec < prev.tv_nsec))
			back++;
		prev = now;
	}
	tt_say("%s vdso monotonic reads %d -> went back %d\n", tag, n, back);
	tt_check(!back);
}

/* ---------------------------------------------------------------- */
/* thread: 1-3 threads at once doing thread-safe sub-events, joined */

struct thr {
	unsigned int kind;	/* 0 atom, 1 kill, 2 loop */
	uint64_t v;
	unsigned int m;
	unsigned long res;
	int handled, tkill;
};

static __thread int th_handled, th_tkill;

static void on_th(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	th_handled++;
	if (si->si_code == SI_TKILL)
		th_tkill++;
}

static void *thr_main(void *arg)
{
	struct thr *t = arg;
	unsigned int i;
	unsigned long s = 0;

	switch (t->kind) {
	case 0:
		for (i = 0; i < t->m; i++)
			atom_add(&shared_atoms, t->v);
		break;
	case 1:
		if (pthread_kill(pthread_self(), SIGUSR1))
			t->handled = -1;
		else
			t->handled = th_handled;
		t->tkill = th_tkill;
		break;
	default:
		for (i = 0; i < t->m * 16; i++)
			s += ((unsigned long)i * i) ^ t->v;
		t->res = s;
		break;
	}
	return NULL;
}

static void ev_thread(struct rng *r, const char *tag)
{
	static const char *const tk_names[] = { "atom", "kill", "loop" };
	unsigned int n = range(r, 1, 3), i, atoms = 0;
	uint64_t init = rnd(r), atom_v = rnd(r) >> 32;
	struct thr t[3];
	pthread_t id[3];
	char buf[400], names[20], *p = buf, *end = buf + sizeof(buf);
	int ok = 1;

	memset(t, 0, sizeof(t));
	buf[0] = 0;
	for (i = 0; i < n; i++) {
		t[i].kind = range(r, 0, 2);
		t[i].m = range(r, 1, 4);
		t[i].v = t[i].kind ? range(r, 0, 255) : atom_v;
		if (!t[i].kind)
			atoms += t[i].m;
	}
	atom_init(&shared_atoms, init);
	set_info(SIGUSR1, on_th, 0, 0);
	for (i = 0; i < n; i++)
		tt_check(!pthread_create(&id[i], NULL, thr_main, &t[i]));
	for (i = 0; i < n; i++)
		tt_check(!pthread_join(id[i], NULL));
	for (i = 0; i < n; i++) {
		if (t[i].kind == 1) {
			p += snprintf(p, end - p, " kill handled %d tkill %d,",
				      t[i].handled, t[i].tkill);
			ok &= t[i].handled == 1 && t[i].tkill == 1;
		} else if (t[i].kind == 2) {
			p += snprintf(p, end - p, " loop %lu,", t[i].res);
		}
	}
	if (atoms) {
		p += snprintf(p, end - p, " atoms x%u ", atoms);
		p += atom_str(p, end - p, &shared_atoms);
		ok &= atom_expect(&shared_atoms, init, atom_v, atoms, 0);
	}
	if (p > buf && p[-1] == ',')
		*--p = 0;
	names[0] = 0;
	for (i = 0; i < n; i++) {
		strcat(names, " ");
		strcat(names, tk_names[t[i].kind]);
	}
	tt_say("%s thread %u:%s ->%s\n", tag, n, names, buf);
	tt_check(ok);
}

/* ---------------------------------------------------------------- */
/* the process kinds */

struct kind {
	const char *name;
	void (*fn)(struct rng *r, const char *tag);
	unsigned int weight;
	unsigned int leaf;	/* may run in a forked child */
	unsigned int cap;	/* at most this many in a run (0: no cap) */
};

static void run_one(struct rng *r, const char *tag, int leaf_only,
		    unsigned int *used);

/* fork: the child runs 0-3 leaf sub-events, then _exit(k) */
static void ev_fork(struct rng *r, const char *tag)
{
	unsigned int m = range(r, 0, 3), k = range(r, 0, 9), i;
	struct rng cr = { rnd(r) };
	char sub[48], sb[48];
	int st;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0) {
		for (i = 1; i <= m; i++) {
			mktag(sub, "  ", tag, ".", i);
			run_one(&cr, sub, 1, NULL);
		}
		_exit(k);
	}
	reap(pid, &st);
	tt_say("%s fork subs %u exit %u -> child %s\n", tag, m, k,
	       status_str(st, sb, sizeof(sb)));
	tt_check(WIFEXITED(st) && WEXITSTATUS(st) == (int)k);
}

/* forkhdl: fork inside a handler; the child returns from it and exits */
static volatile pid_t fh_pid;
static volatile int fh_child;

static void on_fh(int sig)
{
	pid_t p = fork();

	(void)sig;
	if (p == -1)
		_exit(2);
	if (p == 0)
		fh_child = 1;
	else
		fh_pid = p;
}

static void ev_forkhdl(struct rng *r, const char *tag)
{
	unsigned int k = range(r, 0, 9), onstack = range(r, 0, 1);
	char sb[48];
	int st;

	fh_child = 0;
	fh_pid = 0;
	if (onstack)
		alt_on();
	set_plain(SIGUSR1, on_fh, onstack ? SA_ONSTACK : 0, 0);
	tt_sys(raise(SIGUSR1));
	if (fh_child) {
		tt_say("  %s.c forkhdl child back in main, exit %u\n", tag, k);
		_exit(k);
	}
	if (onstack)
		alt_off();
	tt_check(fh_pid > 0);
	reap(fh_pid, &st);
	tt_say("%s forkhdl%s exit %u -> child %s\n", tag,
	       onstack ? " onstack" : "", k, status_str(st, sb, sizeof(sb)));
	tt_check(WIFEXITED(st) && WEXITSTATUS(st) == (int)k);
}

/* vfork: the child only _exits */
static void ev_vfork(struct rng *r, const char *tag)
{
	unsigned int k = range(r, 0, 9);
	char sb[48];
	int st;
	pid_t pid;

	pid = vfork();
	if (pid == 0)
		_exit(k);
	tt_check(pid > 0);
	reap(pid, &st);
	tt_say("%s vfork exit %u -> child %s\n", tag, k,
	       status_str(st, sb, sizeof(sb)));
	tt_check(WIFEXITED(st) && WEXITSTATUS(st) == (int)k);
}

/*
 * vexec: vfork + execve of the program itself as `tt_fuzz child K`
 * (whose comm is then "exe", after the path). A failed execve sends
 * its errno through a close-on-exec pipe (qemu-user runs vfork as
 * fork: no shared memory to leave it in).
 */
static void ev_vexec(struct rng *r, const char *tag)
{
	unsigned int k = range(r, 0, 9);
	char karg[16], sb[48];
	char *av[] = { "tt_fuzz", "child", karg, NULL };
	int st, fd[2], err = 0;
	pid_t pid;

	snprintf(karg, sizeof(karg), "%u", k);
	tt_sys(pipe2(fd, O_CLOEXEC));
	pid = vfork();
	if (pid == 0) {
		execve("/proc/self/exe", av, environ);
		err = errno;
		if (write(fd[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	tt_check(pid > 0);
	close(fd[1]);
	reap(pid, &st);
	if (read(fd[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(fd[0]);
	if (err) {
		/* qemu-user cannot exec /proc/self/exe (the host's qemu) */
		tt_say("%s vexec exit %u -> exec unavailable: %s\n", tag, k,
		       strerror(err));
		tt_check(WIFEXITED(st) && WEXITSTATUS(st) == 127);
		return;
	}
	tt_say("%s vexec exit %u -> child %s\n", tag, k,
	       status_str(st, sb, sizeof(sb)));
	tt_check(WIFEXITED(st) && WEXITSTATUS(st) == (int)k);
}

/* ptrace: a child single-stepped K times by its parent, then let go */
static volatile long pt_sink;

static void ev_ptrace(struct rng *r, const char *tag)
{
	int k = range(r, 1, 20), i, st, traps = 0, trace = 0, other = 0;
	char sb[48];
	siginfo_t si;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0) {
		long s = 0;

		tt_traceme();
		for (i = 0; i < 64; i++)
			s += i;
		pt_sink = s;
		_exit(s == 2016 ? 3 : 11);
	}
	reap(pid, &st);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 10) {
		/* no ptrace here (qemu-user, a seccomp or LSM policy) */
		tt_say("%s ptrace steps %d -> unavailable\n", tag, k);
		return;
	}
	tt_check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP);
	for (i = 0; i < k; i++) {
		tt_sys(ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL));
		reap(pid, &st);
		if (!WIFSTOPPED(st)) {
			other++;
			break;
		}
		if (WSTOPSIG(st) != SIGTRAP) {
			other++;
			continue;
		}
		traps++;
		if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) == 0 &&
		    si.si_signo == SIGTRAP && si.si_code == TRAP_TRACE)
			trace++;
	}
	if (WIFSTOPPED(st))
		tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	if (WIFSTOPPED(st))
		reap(pid, &st);
	tt_say("%s ptrace steps %d -> stops %d trace %d other %d, child %s\n",
	       tag, k, traps, trace, other, status_str(st, sb, sizeof(sb)));
	tt_check(traps == k && trace == k && !other);
	tt_check(WIFEXITED(st) && WEXITSTATUS(st) == 3);
}

/* ---------------------------------------------------------------- */
/* the event table and the run */

/*
 * The kinds: weight (of a draw), may run as a forked child's sub-event,
 * cap per run. The caps keep the costly ones (a whole new image, a
 * process stepped by ptrace) from piling up in one run.
 */
static const struct kind kinds[] = {
	{ "sig",	ev_sig,		4, 1, 0 },
	{ "nested",	ev_nested,	3, 1, 0 },
	{ "longjmp",	ev_longjmp,	3, 1, 0 },
	{ "editctx",	ev_editctx,	3, 1, 0 },
	{ "fork",	ev_fork,	2, 0, 4 },
	{ "forkhdl",	ev_forkhdl,	2, 0, 4 },
	{ "vfork",	ev_vfork,	2, 0, 0 },
	{ "vexec",	ev_vexec,	1, 0, 2 },
	{ "thread",	ev_thread,	2, 1, 4 },
	{ "popf",	ev_popf,	3, 1, 0 },
	{ "pushf",	ev_pushf,	3, 1, 0 },
	{ "trap",	ev_trap,	3, 1, 0 },
	{ "atom",	ev_atom,	3, 1, 0 },
	{ "smc",	ev_smc,		3, 1, 0 },
	{ "itimer",	ev_itimer,	3, 1, 0 },
	{ "ptrace",	ev_ptrace,	1, 0, 3 },
	{ "vdso",	ev_vdso,	3, 1, 0 },
};

#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

/*
 * Pick a kind by weight (one draw; a kind at its cap passes the draw
 * on to the next one), run it, check the clean state. @used counts
 * the kinds of the run (NULL in a child: leaf kinds only, no caps).
 */
static void run_one(struct rng *r, const char *tag, int leaf_only,
		    unsigned int *used)
{
	unsigned int total = 0, x, i;

	for (i = 0; i < NKINDS; i++)
		if (!leaf_only || kinds[i].leaf)
			total += kinds[i].weight;
	x = (unsigned int)(rnd(r) % total);
	for (i = 0; i < NKINDS; i++) {
		if (leaf_only && !kinds[i].leaf)
			continue;
		if (x < kinds[i].weight)
			break;
		x -= kinds[i].weight;
	}
	if (used) {
		while (kinds[i].cap && used[i] >= kinds[i].cap)
			i = (i + 1) % NKINDS;
		used[i]++;
	}
	kinds[i].fn(r, tag);
	settle();
}

static int parse_u32(const char *s, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 0xffffffffUL)
		return -1;
	*out = v;
	return 0;
}

TT_MAIN
{
	unsigned int seed = 1, n = DEFAULT_EVENTS, i, used[NKINDS];
	struct rng r;
	char tag[32];

	/* the image that ev_vexec runs: one line, exit K */
	if (argc == 3 && !strcmp(argv[1], "child")) {
		unsigned int k;

		if (parse_u32(argv[2], &k) || k > 255)
			return 126;
		tt_say("  vexec child exits %u\n", k);
		return k;
	}
	if (argc > 3 || (argc > 1 && parse_u32(argv[1], &seed)) ||
	    (argc > 2 && (parse_u32(argv[2], &n) || n > MAX_EVENTS))) {
		fprintf(stderr, "usage: tt_fuzz SEED [EVENTS]\n");
		return 2;
	}
	/* start from no signal blocked, whatever the caller left */
	sigemptyset(&base_mask);
	tt_sys(sigprocmask(SIG_SETMASK, &base_mask, NULL));
	tt_say("tt_fuzz seed %u events %u\n", seed, n);
	r.s = seed;
	memset(used, 0, sizeof(used));
	for (i = 1; i <= n; i++) {
		mktag(tag, "", "ev", " ", i);
		run_one(&r, tag, 0, used);
	}
	tt_say("events %u\n", n);
	tt_ok();
	return 0;
}
