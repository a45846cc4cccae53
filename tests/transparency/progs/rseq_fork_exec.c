// SPDX-License-Identifier: GPL-2.0
/*
 * rseq_fork_exec: restartable sequences across fork, vfork and exec.
 * The parent commits 5 per-cpu adds through an rseq critical section in
 * glibc's area. A forked child inherits the registration (registering
 * the same area again: EBUSY), commits 5 more adds to its copy of the
 * counters (10 in all), and re-executes itself: the new image's glibc
 * registers afresh (the kernel dropped the old registration at exec),
 * EBUSY again, 5 adds. A vforked child (CLONE_VM) is not registered:
 * unregistering fails with EINVAL, and the parent's area is untouched.
 * The parent's counters are its own: 5, then 10 after 5 more adds. No
 * rseq (glibc registered nothing): a fixed line.
 *
 * Catches: a tracer following forks and execs (follow, follow-exec)
 * that carries its step state into a child or new image in a way that
 * keeps the kernel from serving the child's rseq area, or that aborts
 * every critical section there (a hang).
 */
#include "../tt.h"
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define ADDS	5
#define NCPU	64

#if defined(__x86_64__)
asm(".text\n"
    ".globl rseq_inc\n"
    ".type rseq_inc, @function\n"
    "rseq_inc:\n"			/* rdi = rseq area, rsi = counters */
    "1:	leaq inc_desc(%rip), %rax\n"
    "	movq %rax, 8(%rdi)\n"		/* rseq_cs */
    "inc_start:\n"
    "	movl 4(%rdi), %eax\n"		/* cpu_id */
    "	shlq $6, %rax\n"		/* 64 bytes a counter */
    "	movq (%rsi,%rax), %rcx\n"
    "	incq %rcx\n"
    "	movq %rcx, (%rsi,%rax)\n"	/* commit */
    "inc_post:\n"
    "	ret\n"
    "	.long 0x53053053\n"		/* RSEQ_SIG */
    "inc_abort:\n"
    "	jmp 1b\n"
    ".size rseq_inc, . - rseq_inc\n"
    ".data\n"
    ".balign 32\n"
    "inc_desc:\n"
    "	.long 0, 0\n"
    "	.quad inc_start, inc_post - inc_start, inc_abort\n"
    ".text\n");

static char *thread_pointer(void)
{
	return __builtin_thread_pointer();
}
#elif defined(__powerpc64__)
asm(".text\n"
    ".globl rseq_inc\n"
    ".type rseq_inc, @function\n"
    "rseq_inc:\n"			/* r3 = rseq area, r4 = counters */
    "0:	addis 2, 12, .TOC.-0b@ha\n"
    "	addi 2, 2, .TOC.-0b@l\n"
    "	.localentry rseq_inc, .-rseq_inc\n"
    "1:	addis 9, 2, inc_desc@toc@ha\n"
    "	addi 9, 9, inc_desc@toc@l\n"
    "	std 9, 8(3)\n"			/* rseq_cs */
    "inc_start:\n"
    "	lwz 10, 4(3)\n"			/* cpu_id */
    "	sldi 10, 10, 6\n"		/* 64 bytes a counter */
    "	ldx 11, 4, 10\n"
    "	addi 11, 11, 1\n"
    "	stdx 11, 4, 10\n"		/* commit */
    "inc_post:\n"
    "	blr\n"
    "	.long 0x0fe5000b\n"		/* RSEQ_SIG */
    "inc_abort:\n"
    "	b 1b\n"
    ".size rseq_inc, . - rseq_inc\n"
    ".data\n"
    ".balign 32\n"
    "inc_desc:\n"
    "	.long 0, 0\n"
    "	.quad inc_start, inc_post - inc_start, inc_abort\n"
    ".text\n");

static char *thread_pointer(void)
{
	register char *r13 asm("r13");

	return r13;
}
#endif

void rseq_inc(volatile struct rseq *rs, long *counters);

static long counters[NCPU * 8] __attribute__((aligned(64)));

/* ADDS per-cpu adds; the counters' sum after */
static long adds(void)
{
	volatile struct rseq *rs;
	long sum = 0;
	int i;

	rs = (struct rseq *)(thread_pointer() + __rseq_offset);
	if (rs->cpu_id >= NCPU)
		return -1;
	for (i = 0; i < ADDS; i++)
		rseq_inc(rs, counters);
	rs->rseq_cs = 0;
	for (i = 0; i < NCPU; i++)
		sum += counters[i * 8];
	return sum;
}

/* registering glibc's area again: "EBUSY" if it is registered */
static const char *again(void)
{
	long r = syscall(SYS_rseq, thread_pointer() + __rseq_offset,
			 sizeof(struct rseq), 0, RSEQ_SIG);

	return r == 0 ? "0" : errno == EBUSY ? "EBUSY" : "other error";
}

static void say_end(const char *who, int status)
{
	tt_say("parent: %s %s %d\n", who, WIFEXITED(status) ? "exited" :
	       "killed by signal", WIFEXITED(status) ? WEXITSTATUS(status) :
	       WTERMSIG(status));
}

TT_MAIN
{
	char *args[] = { argv[0], "execd", NULL };
	volatile int vfork_einval = 0;
	int status;
	long sum;
	pid_t pid;

	if (__rseq_size == 0) {
		tt_say("rseq: no area registered (no rseq): skipped\n");
		if (argc <= 1)
			tt_ok();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "execd")) {
		sum = adds();
		tt_say("exec'd image: registered again: %s, counters sum %ld\n",
		       again(), sum);
		return sum == ADDS && !strcmp(again(), "EBUSY") ? 0 : 1;
	}
	sum = adds();
	tt_say("parent: counters sum %ld\n", sum);
	tt_check(sum == ADDS);

	pid = tt_sys(fork());
	if (pid == 0) {
		const char *r = again();

		sum = adds();
		tt_say("fork child: registered again: %s, counters sum %ld\n",
		       r, sum);
		if (strcmp(r, "EBUSY") || sum != 2 * ADDS)
			_exit(1);
		execv("/proc/self/exe", args);
		_exit(127);
	}
	tt_sys(waitpid(pid, &status, 0));
	say_end("fork child", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	pid = vfork();
	if (pid == 0) {
		vfork_einval = syscall(SYS_rseq, NULL, 0, RSEQ_FLAG_UNREGISTER,
				       RSEQ_SIG) == -1 && errno == EINVAL;
		_exit(0);
	}
	tt_check(pid > 0);
	tt_sys(waitpid(pid, &status, 0));
	say_end("vfork child", status);
	tt_say("vfork child was not registered (unregister: EINVAL): %s\n",
	       vfork_einval ? "yes" : "no");
	sum = adds();
	tt_say("parent: still registered: %s, after 5 more adds the counters sum %ld\n",
	       again(), sum);
	tt_check(vfork_einval && !strcmp(again(), "EBUSY") && sum == 2 * ADDS);
	tt_ok();
	return 0;
}
