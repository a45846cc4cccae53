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
#include "../tt_rseq.h"
#include <sys/wait.h>

#define ADDS	5
#define NCPU	64

TT_RSEQ_INC;

static long counters[NCPU * 8] __attribute__((aligned(64)));

/* ADDS per-cpu adds; the counters' sum after */
static long adds(void)
{
	volatile struct rseq *rs;
	long sum = 0;
	int i;

	rs = tt_rseq_area();
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
	long r = tt_rseq(tt_rseq_area(), sizeof(struct rseq), 0, RSEQ_SIG);

	return r == 0 ? "0" : errno == EBUSY ? "EBUSY" : "other error";
}

TT_MAIN
{
	char *args[] = { argv[0], "execd", NULL };
	volatile int vfork_einval = 0;
	int status;
	long sum;
	pid_t pid;

	if (tt_rseq_none(argc <= 1))
		return 0;
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
	tt_say_end("parent: fork child", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	pid = vfork();
	if (pid == 0) {
		vfork_einval = tt_rseq(NULL, 0, RSEQ_FLAG_UNREGISTER,
				       RSEQ_SIG) == -1 && errno == EINVAL;
		_exit(0);
	}
	tt_check(pid > 0);
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("parent: vfork child", status);
	tt_say("vfork child was not registered (unregister: EINVAL): %s\n",
	       vfork_einval ? "yes" : "no");
	sum = adds();
	tt_say("parent: still registered: %s, after 5 more adds the counters sum %ld\n",
	       again(), sum);
	tt_check(vfork_einval && !strcmp(again(), "EBUSY") && sum == 2 * ADDS);
	tt_ok();
	return 0;
}
