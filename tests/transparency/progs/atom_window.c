// SPDX-License-Identifier: GPL-2.0
/*
 * atom_window: things that happen between an atomic's load and its
 * store. 2 threads at once add to a shared word, 30 times each, with a
 * system call (getppid) inside the window on the first try, and 16
 * times each with the first touch of a fresh page (a page fault) inside
 * it: whether that first try stores may vary, so a failed one is retried
 * without; only the sum is printed. Then a signal inside the window: a
 * thread tgkill()s itself between load and store and the handler adds
 * 1000 to the same word, so the store must fail every time (10 times,
 * checked). x86: a load ... lock cmpxchg window. POWER: lwarx ... stwcx.
 * with the sc, the load, or the tgkill sc inside; and two stcx. with no
 * reservation that must fail and leave memory alone: one right after a
 * completed lwarx/stwcx. pair, one after a lwarx of the word that was
 * then superseded by a lwarx/stwcx. pair on another word. Last a
 * window that writes every callee-saved register from the loaded value
 * (POWER r14-r31 and cr3, x86 rbx, rbp, r12-r15), 10 times: they must
 * all hold their values after it.
 *
 * Catches: a tracer that makes a window with a syscall, fault or
 * signal in it store when it must not (a stale reservation kept or
 * emulated across the handler), or never store (the program then
 * depends on its retry), or that lets a stcx. without a reservation
 * succeed; or one that emulates a window and returns to user mode with
 * the callee-saved registers as they were before it (an interrupt
 * return that does not reload r14-r31).
 */
#include "../tt_thr.h"
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define SYSC	30
#define FAULTS	16
#define SIGS	10

static uint32_t word;
#if defined(__powerpc64__)
static uint32_t other;
#endif
static pthread_barrier_t bar;
static char *pages[2];
static long pagesz;
static int sig_stored;	/* tries with a signal inside that stored */

static void add_plain(uint32_t *p, uint32_t n)
{
	__atomic_fetch_add(p, n, __ATOMIC_SEQ_CST);
}

static void on_usr1(int sig)
{
	(void)sig;
	add_plain(&word, 1000);
}

#if defined(__x86_64__)
/* one try: load, then @what inside the window, then lock cmpxchg +1 */
static int try_add(int what, volatile char *page)
{
	uint32_t old = __atomic_load_n(&word, __ATOMIC_RELAXED);
	unsigned char ok;

	if (what == 0)
		syscall(SYS_getppid);
	else if (what == 1)
		*page = 1;
	else
		syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGUSR1);
	asm volatile("lock cmpxchgl %3, %1\n\tsete %0"
		     : "=q"(ok), "+m"(word), "+a"(old) : "r"(old + 1)
		     : "cc", "memory");
	return ok;
}

static void no_resv(void)
{
	tt_say("stcx. without a reservation: not on x86\n");
}

/*
 * load, rbx/rbp/r12-r15 = old + 1..6, lock cmpxchg old + 1; all right?
 * rbp is kept in out[6] meanwhile (no push: the red zone may be in use)
 */
static int nv_window(void)
{
	uint64_t out[7], old;
	int i;

	asm volatile("mov %%rbp, 48(%2)\n"
		     "1:\tmov %1, %%eax\n\t"
		     "lea 1(%%rax), %%rbx\n\t"
		     "lea 2(%%rax), %%rbp\n\t"
		     "lea 3(%%rax), %%r12\n\t"
		     "lea 4(%%rax), %%r13\n\t"
		     "lea 5(%%rax), %%r14\n\t"
		     "lea 6(%%rax), %%r15\n\t"
		     "mov %%eax, %%ecx\n\t"
		     "mov %%ebx, %%edx\n\t"
		     "lock cmpxchgl %%edx, %1\n\t"
		     "jne 1b\n\t"
		     "mov %%rbx, 0(%2)\n\t"
		     "mov %%rbp, 8(%2)\n\t"
		     "mov %%r12, 16(%2)\n\t"
		     "mov %%r13, 24(%2)\n\t"
		     "mov %%r14, 32(%2)\n\t"
		     "mov %%r15, 40(%2)\n\t"
		     "mov 48(%2), %%rbp"
		     : "=c"(old), "+m"(word) : "D"(out)
		     : "rax", "rbx", "rdx", "r12", "r13", "r14", "r15",
		       "cc", "memory");
	for (i = 0; i < 6; i++)
		if (out[i] != (uint32_t)old + i + 1)
			return 0;
	return 1;
}
#elif defined(__powerpc64__)
static int try_add(int what, volatile char *page)
{
	unsigned long cr;
	long pid = getpid(), tid = syscall(SYS_gettid);

	if (what == 0)
		asm volatile("mr 30, %1\n\t"
			     "lwarx 31, 0, 30\n\t"
			     "li 0, %2\n\t"
			     "sc\n\t"
			     "addi 31, 31, 1\n\t"
			     "stwcx. 31, 0, 30\n\t"
			     "mfcr %0"
			     : "=r"(cr) : "r"(&word), "i"(SYS_getppid)
			     : "r0", "r3", "r4", "r5", "r6", "r7", "r8", "r9",
			       "r10", "r11", "r12", "r30", "r31", "ctr",
			       "xer", "cr0", "memory");
	else if (what == 1)
		asm volatile("lwarx 31, 0, %1\n\t"
			     "lbz 30, 0(%2)\n\t"
			     "addi 31, 31, 1\n\t"
			     "stwcx. 31, 0, %1\n\t"
			     "mfcr %0"
			     : "=r"(cr) : "b"(&word), "b"(page)
			     : "r30", "r31", "cr0", "memory");
	else
		asm volatile("mr 30, %1\n\t"
			     "lwarx 31, 0, 30\n\t"
			     "mr 3, %2\n\t"
			     "mr 4, %3\n\t"
			     "li 5, %4\n\t"
			     "li 0, %5\n\t"
			     "sc\n\t"
			     "addi 31, 31, 1\n\t"
			     "stwcx. 31, 0, 30\n\t"
			     "mfcr %0"
			     : "=r"(cr)
			     : "r"(&word), "r"(pid), "r"(tid), "i"(SIGUSR1),
			       "i"(SYS_tgkill)
			     : "r0", "r3", "r4", "r5", "r6", "r7", "r8", "r9",
			       "r10", "r11", "r12", "r30", "r31", "ctr",
			       "xer", "cr0", "memory");
	return !!(cr & 0x20000000);
}

/* a stwcx. of @v to @p with no lwarx before it: stored? */
static int bare_stcx(uint32_t *p, uint32_t v)
{
	unsigned long cr;

	asm volatile("stwcx. %1, 0, %2\n\tmfcr %0"
		     : "=r"(cr) : "r"(v), "b"(p) : "cr0", "memory");
	return !!(cr & 0x20000000);
}

static void no_resv(void)
{
	uint32_t before, t;
	int s1, s2, kept1, kept2;

	add_plain(&other, 1);		/* a full lwarx/stwcx. pair */
	before = other;
	s1 = bare_stcx(&other, 4242);
	kept1 = other == before;

	before = word;
	asm volatile("lwarx %0, 0, %1" : "=r"(t) : "b"(&word) : "memory");
	add_plain(&other, 1);		/* supersedes that reservation */
	s2 = bare_stcx(&word, 4242);
	kept2 = word == before;
	tt_say("stcx. right after a completed pair: %s, memory kept: %s\n",
	       s1 ? "stored" : "failed", kept1 ? "yes" : "no");
	tt_say("stcx. after an abandoned lwarx and another pair: %s, memory kept: %s\n",
	       s2 ? "stored" : "failed", kept2 ? "yes" : "no");
	tt_check(!s1 && kept1 && !s2 && kept2);
}

/*
 * lwarx into r14, r15..r31 = old + 1..17, cr3 = (old == old), stwcx.
 * of old + 1 from r14: a window the tracer can emulate (straight line,
 * arithmetic only). Then all of them must hold those values.
 */
static int nv_window(void)
{
	uint64_t out[18];
	unsigned long cr;
	int i;

	asm volatile("1:\tlwarx 14, 0, %2\n\t"
		     "addi 15, 14, 1\n\taddi 16, 14, 2\n\taddi 17, 14, 3\n\t"
		     "addi 18, 14, 4\n\taddi 19, 14, 5\n\taddi 20, 14, 6\n\t"
		     "addi 21, 14, 7\n\taddi 22, 14, 8\n\taddi 23, 14, 9\n\t"
		     "addi 24, 14, 10\n\taddi 25, 14, 11\n\taddi 26, 14, 12\n\t"
		     "addi 27, 14, 13\n\taddi 28, 14, 14\n\taddi 29, 14, 15\n\t"
		     "addi 30, 14, 16\n\taddi 31, 14, 17\n\t"
		     "cmpw 3, 14, 14\n\t"
		     "std 14, 136(%3)\n\t"
		     "addi 14, 14, 1\n\t"
		     "stwcx. 14, 0, %2\n\t"
		     "bne- 1b\n\t"
		     "mfcr %0\n\t"
		     "std 15, 0(%3)\n\tstd 16, 8(%3)\n\tstd 17, 16(%3)\n\t"
		     "std 18, 24(%3)\n\tstd 19, 32(%3)\n\tstd 20, 40(%3)\n\t"
		     "std 21, 48(%3)\n\tstd 22, 56(%3)\n\tstd 23, 64(%3)\n\t"
		     "std 24, 72(%3)\n\tstd 25, 80(%3)\n\tstd 26, 88(%3)\n\t"
		     "std 27, 96(%3)\n\tstd 28, 104(%3)\n\tstd 29, 112(%3)\n\t"
		     "std 30, 120(%3)\n\tstd 31, 128(%3)"
		     : "=&r"(cr), "+m"(word) : "b"(&word), "b"(out)
		     : "r14", "r15", "r16", "r17", "r18", "r19", "r20", "r21",
		       "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29",
		       "r30", "r31", "cr0", "cr3", "memory");
	/* out[17] is the loaded value, out[0..16] it plus 1..17 */
	for (i = 0; i < 17; i++)
		if (out[i] != (uint32_t)out[17] + i + 1)
			return 0;
	return !!(cr & 0x20000);	/* cr3.eq */
}
#endif

static void *worker(void *arg)
{
	int me = (long)arg, i;

	pthread_barrier_wait(&bar);
	for (i = 0; i < SYSC; i++)
		if (!try_add(0, NULL))
			add_plain(&word, 1);
	for (i = 0; i < FAULTS; i++)
		if (!try_add(1, pages[me] + i * pagesz))
			add_plain(&word, 1);
	return NULL;
}

TT_MAIN
{
	uint32_t before;
	int i, n;

	pagesz = sysconf(_SC_PAGESIZE);
	for (i = 0; i < 2; i++) {
		pages[i] = mmap(NULL, FAULTS * pagesz, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		tt_check(pages[i] != MAP_FAILED);
	}
	tt_check(!pthread_barrier_init(&bar, NULL, 2));
	tt_run_threads(2, worker);
	tt_say("syscall and fault windows: sum %u (want %d)\n", word,
	       2 * (SYSC + FAULTS));
	tt_check(word == 2 * (SYSC + FAULTS));

	tt_handle_plain(SIGUSR1, on_usr1, 0);
	before = word;
	for (i = 0; i < SIGS; i++) {
		if (try_add(2, NULL))
			sig_stored++;
		else
			add_plain(&word, 1);
	}
	tt_say("signal windows: stored through the handler's change %d of %d, sum grew by %u\n",
	       sig_stored, SIGS, word - before);
	tt_check(!sig_stored && word - before == SIGS * 1001);
	no_resv();

	before = word;
	for (i = 0, n = 0; i < 10; i++)
		n += nv_window();
	tt_say("window writing the callee-saved registers: values right %d of 10, sum grew by %u\n",
	       n, word - before);
	tt_check(n == 10 && word - before == 10);
	tt_ok();
	return 0;
}
