// SPDX-License-Identifier: GPL-2.0
/*
 * A ptrace stepper: the debugger that runs next to kdb-itrace in the
 * coexistence test, and the "stepped by a debugger" baseline for
 * benchmarks.
 *
 * tp_ptrace coex FIFO N
 *	Forks a tracee (PTRACE_TRACEME) that prints "pid <tracee> ready",
 *	blocks in a raw read of FIFO (the test arms it there), then stops
 *	itself with SIGSTOP. The tracer steps it N times with
 *	PTRACE_SINGLESTEP and N times with PTRACE_SINGLEBLOCK, printing the
 *	address each stop left it at, then lets it go with PTRACE_CONT.
 *	The first steps go over a raw getppid (N must be 8 or more), the
 *	others into region(). The tracee finishes region(), calls leaf()
 *	K times, says "tracee done", blocks in a second read (the test
 *	reads the log there) and exits with COEX_EXIT.
 *	Prints: "leaf ADDR", "stop ADDR", N x "step I ADDR", N x
 *	"block I ADDR", "traps T of 2N", "tracee exit S". Exit status 0
 *	when every request got exactly one SIGTRAP stop, no other stop came
 *	and the tracee exited with COEX_EXIT.
 *
 * tp_ptrace hbreak FIFO   (x86_64)
 *	The same tracee, but the tracer sets a hardware execute breakpoint
 *	on leaf() in its debug registers (PTRACE_POKEUSER DR0/DR7) at the
 *	SIGSTOP and only continues it: prints "hbreak hits H of K" and
 *	"tracee exit S"; exit status 0 when each call stopped it exactly
 *	once with SIGTRAP at leaf, no other stop came and the tracee
 *	exited with COEX_EXIT.
 *
 * tp_ptrace bench step|block PROG [ARG...]
 *	Runs PROG to its end under PTRACE_SINGLESTEP or PTRACE_SINGLEBLOCK
 *	and prints "bench MODE: S steps in T ns (P ns/step), exit E".
 *	Signals other than the step SIGTRAPs are passed on. On powerpc a
 *	stepped larx..stcx. window never succeeds, so each one is run
 *	through at full speed as gdb does (ppc_atomic.h) and counted
 *	apart. Exit status: PROG's.
 *
 * tp_ptrace marked step|block PROG [ARG...]
 *	The benchmarks' baseline: PROG runs free (PTRACE_CONT) up to its
 *	first SIGURG, is stepped from there up to its second, then runs
 *	free to its end, as a debugger steps a region and continues
 *	around it. The two SIGURGs are PROG's marks around its timed span
 *	(bench/tp_bench.c) and are not delivered. Prints "marked MODE: S
 *	steps in T ns (P ns/step), exit E": only the steps between the
 *	marks, timed from mark to mark. Exit status: PROG's, or 1 when it
 *	did not make exactly two marks.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "raw_syscall.h"
#if defined(__powerpc64__)
#include "ppc_atomic.h"
#endif

#if defined(__x86_64__)
#define IP_OFFSET	offsetof(struct user_regs_struct, rip)
#define DR_OFFSET(n)	(offsetof(struct user, u_debugreg) + (n) * sizeof(long))
#elif defined(__powerpc64__)
#define IP_OFFSET	(32 * sizeof(long))	/* PT_NIP */
#else
#error "tp_ptrace: where is the instruction pointer in the user area?"
#endif

#define K		5	/* calls to leaf() after the stepped region */
#define REGION_N	64	/* passes of region()'s loop */
/* sum of leaf(0..K-1) = 35, plus region() = 32 */
#define COEX_EXIT	((35 + 32) & 0x7f)

__attribute__((noinline, noclone)) int leaf(int x)
{
	return x * 3 + 1;
}

/* A loop long enough that the 2N requested steps all stay inside it. */
__attribute__((noinline, noclone)) int region(void)
{
	int i, r = 0;

	for (i = 0; i < REGION_N; i++)
		r += (i & 1) ? i : -i;
	return r;
}

/*
 * A call, so that a branch separates the system calls before and after:
 * in block mode the syscall records before it are due at its trap.
 */
__attribute__((noinline, noclone)) void wait_fifo(int fd)
{
	char c;

	raw_syscall3(SYS_read, fd, (long)&c, 1);
}

/* The tracer's first stop: right after this kill's system call. */
__attribute__((noinline, noclone)) void stop_self(void)
{
	raw_syscall3(SYS_kill, raw_syscall3(SYS_getpid, 0, 0, 0), SIGSTOP, 0);
}

static int tracee(int fd)
{
	static const char done[] = "tp_ptrace: tracee done\n";
	int i, acc;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL)) {
		perror("PTRACE_TRACEME");
		return 2;
	}
	printf("tp_ptrace: pid %d ready\n", getpid());
	fflush(stdout);
	wait_fifo(fd);
	stop_self();
	/*
	 * Single-stepped over: x86 stops right after it (a report at the
	 * syscall's exit), powerpc one instruction later (sc raises no
	 * trace interrupt, and there is no such report).
	 */
	raw_syscall3(SYS_getppid, 0, 0, 0);
	acc = region();
	for (i = 0; i < K; i++)
		acc += leaf(i);
	raw_syscall3(SYS_write, 1, (long)done, sizeof(done) - 1);
	wait_fifo(fd);
	return acc & 0x7f;
}

static unsigned long ip_of(pid_t pid)
{
	return ptrace(PTRACE_PEEKUSER, pid, (void *)IP_OFFSET, NULL);
}

/* Resume @pid with @req and wait: true if it stopped with SIGTRAP. */
static int resume(pid_t pid, int req, int sig, int *st)
{
	if (ptrace(req, pid, NULL, (void *)(long)sig) ||
	    waitpid(pid, st, 0) != pid) {
		perror("ptrace resume");
		exit(1);
	}
	return WIFSTOPPED(*st) && WSTOPSIG(*st) == SIGTRAP;
}

static void say_stop(const char *what, pid_t pid, int st)
{
	if (WIFSTOPPED(st))
		printf("tp_ptrace: %s: stop by signal %d at %#lx\n", what,
		       WSTOPSIG(st), ip_of(pid));
	else if (WIFEXITED(st))
		printf("tp_ptrace: %s: tracee exited %d\n", what,
		       WEXITSTATUS(st));
	else
		printf("tp_ptrace: %s: tracee killed by signal %d\n", what,
		       WTERMSIG(st));
}

/* Forks the tracee on FIFO and waits for its SIGSTOP: its pid, or -1. */
static pid_t start_tracee(const char *fifo)
{
	pid_t pid;
	int fd, st;

	fd = open(fifo, O_RDWR);
	if (fd < 0) {
		perror(fifo);
		return -1;
	}
	printf("tp_ptrace: leaf %#lx\n", (unsigned long)leaf);
	fflush(stdout);
	pid = fork();
	if (!pid)
		_exit(tracee(fd));
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) ||
	    WSTOPSIG(st) != SIGSTOP) {
		say_stop("first stop is not SIGSTOP", pid, st);
		kill(pid, SIGKILL);
		return -1;
	}
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)PTRACE_O_EXITKILL);
	return pid;
}

/* Continues @pid to its end; counts the stops @want says are expected. */
static int run_out(pid_t pid, int (*want)(pid_t pid, int st), int *hits)
{
	int st, other = 0;

	do {
		resume(pid, PTRACE_CONT, 0, &st);
		if (WIFSTOPPED(st)) {
			if (want && want(pid, st)) {
				(*hits)++;
				continue;
			}
			say_stop("after PTRACE_CONT", pid, st);
			other++;
		}
	} while (WIFSTOPPED(st));
	if (WIFEXITED(st))
		printf("tp_ptrace: tracee exit %d\n", WEXITSTATUS(st));
	else
		say_stop("end", pid, st);
	return !other && WIFEXITED(st) && WEXITSTATUS(st) == COEX_EXIT;
}

static int coex(const char *fifo, int n)
{
	int st, i, traps = 0, other = 0;
	pid_t pid;

	if (n < 1)
		return 2;
	pid = start_tracee(fifo);
	if (pid < 0)
		return 1;
	printf("tp_ptrace: stop %#lx\n", ip_of(pid));
	for (i = 0; i < 2 * n; i++) {
		int block = i >= n;

		if (!resume(pid, block ? PTRACE_SINGLEBLOCK : PTRACE_SINGLESTEP,
			    0, &st)) {
			say_stop("step request", pid, st);
			other++;
			break;
		}
		traps++;
		printf("tp_ptrace: %s %d %#lx\n", block ? "block" : "step",
		       i % n + 1, ip_of(pid));
	}
	printf("tp_ptrace: traps %d of %d\n", traps, 2 * n);
	fflush(stdout);
	/* from here on the tracee owes us nothing but its exit */
	return run_out(pid, NULL, NULL) && traps == 2 * n && !other ? 0 : 1;
}

#if defined(__x86_64__)
static int at_leaf(pid_t pid, int st)
{
	return WSTOPSIG(st) == SIGTRAP && ip_of(pid) == (unsigned long)leaf;
}

static int hbreak(const char *fifo)
{
	pid_t pid = start_tracee(fifo);
	int hits = 0, ok;

	if (pid < 0)
		return 1;
	/* DR7: L0 set, R/W0 = 00 (execute), LEN0 = 00 */
	if (ptrace(PTRACE_POKEUSER, pid, (void *)DR_OFFSET(0), (void *)leaf) ||
	    ptrace(PTRACE_POKEUSER, pid, (void *)DR_OFFSET(7), (void *)1L)) {
		perror("PTRACE_POKEUSER debug register");
		return 1;
	}
	ok = run_out(pid, at_leaf, &hits);
	printf("tp_ptrace: hbreak hits %d of %d\n", hits, K);
	return ok && hits == K ? 0 : 1;
}
#else
static int hbreak(const char *fifo)
{
	(void)fifo;
	printf("tp_ptrace: hbreak: no execute breakpoint through ptrace here\n");
	return 3;
}
#endif

#if defined(__powerpc64__)
static unsigned int peek_insn(pid_t pid, unsigned long ip)
{
	unsigned long w = ptrace(PTRACE_PEEKTEXT, pid, (void *)(ip & ~7UL),
				 NULL);

	return ip & 4 ? w >> 32 : (unsigned int)w;	/* little-endian */
}

static void poke_insn(pid_t pid, unsigned long ip, unsigned int insn)
{
	unsigned long a = ip & ~7UL;
	unsigned long w = ptrace(PTRACE_PEEKTEXT, pid, (void *)a, NULL);

	if (ip & 4)
		w = (w & 0xffffffffUL) | (unsigned long)insn << 32;
	else
		w = (w & ~0xffffffffUL) | insn;
	ptrace(PTRACE_POKETEXT, pid, (void *)a, (void *)w);
}

/*
 * If the next instruction opens a larx..stcx. window, run it to one of
 * its exits (ppc_atomic.h) and say so; *trapped: it stopped there.
 */
static int run_window(pid_t pid, int sig, int *st, int *trapped)
{
	unsigned long exits[EXITS_MAX], ip = ip_of(pid);
	unsigned int saved[EXITS_MAX];
	int n, i;

	if (!is_larx(peek_insn(pid, ip)))
		return 0;
	n = window_exits(peek_insn, pid, ip, exits);
	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		saved[i] = peek_insn(pid, exits[i]);
		poke_insn(pid, exits[i], TRAP_INSN);
	}
	*trapped = resume(pid, PTRACE_CONT, sig, st);
	/* backwards: an exit listed twice gets its first saved word */
	for (i = n; i--;)
		poke_insn(pid, exits[i], saved[i]);
	if (*trapped) {
		ip = ip_of(pid);
		for (i = 0; i < n && exits[i] != ip; i++)
			;
		*trapped = i < n;
	}
	return 1;
}
#else
static int run_window(pid_t pid, int sig, int *st, int *trapped)
{
	(void)pid, (void)sig, (void)st, (void)trapped;
	return 0;
}
#endif

/*
 * @marked: step only between PROG's two SIGURG marks (see the top). A
 * SIGTRAP while it runs free is PROG's own and is passed on. On x86 the
 * step over the second mark's kill reports its SIGTRAP before the SIGURG
 * stop, so that system call counts as a step; on powerpc, where a
 * stepped system call reports nothing, it does not.
 */
static int bench(int block, int marked, char **argv)
{
	unsigned long long steps = 0, windows = 0, ns;
	int st, sig = 0, marks = 0, stepping = !marked;
	struct timespec t0, t1;
	const char *name = block ? "block" : "step";
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	/* the exec stop: the first instruction of PROG is next */
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st)) {
		say_stop("bench start", pid, st);
		return 1;
	}
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)PTRACE_O_EXITKILL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t1 = t0;
	for (;;) {
		int trapped;

		if (stepping && run_window(pid, sig, &st, &trapped)) {
			windows++;
		} else if (stepping) {
			trapped = resume(pid, block ? PTRACE_SINGLEBLOCK :
					 PTRACE_SINGLESTEP, sig, &st);
			steps += trapped;
		} else {
			resume(pid, PTRACE_CONT, sig, &st);
			trapped = 0;
		}
		if (trapped) {
			sig = 0;
		} else if (marked && WIFSTOPPED(st) && WSTOPSIG(st) == SIGURG) {
			sig = 0;
			stepping = ++marks == 1;
			/* the tracer's clock, not PROG's: never stepped */
			clock_gettime(CLOCK_MONOTONIC, stepping ? &t0 : &t1);
		} else if (WIFSTOPPED(st)) {
			sig = WSTOPSIG(st);
		} else {
			break;
		}
	}
	if (!marked)
		clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = (t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec - t0.tv_nsec;
	printf("tp_ptrace: %s %s: %llu steps in %llu ns (%llu ns/step), exit %d",
	       marked ? "marked" : "bench", name, steps, ns,
	       steps ? ns / steps : 0,
	       WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	if (windows)
		printf(", %llu larx..stcx. windows run through", windows);
	printf("\n");
	if (marked && marks != 2) {
		printf("tp_ptrace: marked: %d SIGURG marks, not 2\n", marks);
		return 1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "coex"))
		return coex(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "hbreak"))
		return hbreak(argv[2]);
	if (argc >= 4 && (!strcmp(argv[1], "bench") ||
			  !strcmp(argv[1], "marked")) &&
	    (!strcmp(argv[2], "step") || !strcmp(argv[2], "block")))
		return bench(!strcmp(argv[2], "block"),
			     !strcmp(argv[1], "marked"), argv + 3);
	fprintf(stderr, "usage: tp_ptrace coex FIFO N\n"
		"       tp_ptrace hbreak FIFO\n"
		"       tp_ptrace bench|marked step|block PROG [ARG...]\n");
	return 2;
}
