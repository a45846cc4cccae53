// SPDX-License-Identifier: GPL-2.0
/*
 * rseq_register: the program registers and unregisters its own rseq
 * area. glibc (2.35+) registers one for every thread, so the program
 * re-executes itself with GLIBC_TUNABLES=glibc.pthread.rseq=0 (glibc
 * then registers none: __rseq_size 0). The new image registers its own
 * area, checks the kernel fills cpu_id, and walks the system call's
 * answers: the same registration again EBUSY, another signature EPERM,
 * another area EINVAL; unregistering with a wrong signature EPERM, a
 * wrong area EINVAL, the right one 0 (cpu_id back to UNINITIALIZED, -1),
 * then again EINVAL; a misaligned area and a too short length EINVAL;
 * then it registers again, the cpu_id is filled in again, and it
 * exits 0; the parent prints that. No rseq in the kernel (ENOSYS): a
 * fixed line.
 *
 * Catches: a tracer that makes the kernel stop updating a freshly
 * registered area at the returns to user space it causes, or that
 * changes a system call's error under stepping.
 */
#include "../tt_rseq.h"
#include <sys/wait.h>

static struct rseq own __attribute__((aligned(32)));
static struct rseq other __attribute__((aligned(32)));
static char misaligned[64] __attribute__((aligned(32)));

static const char *err(long r)
{
	if (r == 0)
		return "0";
	switch (errno) {
	case EBUSY:	return "EBUSY";
	case EPERM:	return "EPERM";
	case EINVAL:	return "EINVAL";
	case ENOSYS:	return "ENOSYS";
	default:	return "other";
	}
}

/* try one call: print its answer, check it is the one expected */
#define TRY(what, call, want)	do {					\
		const char *__e = err(call);				\
		tt_say("%s: %s\n", what, __e);				\
		tt_check(!strcmp(__e, want));				\
	} while (0)

static int cpu_ok(void)
{
	volatile struct rseq *rs = &own;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	return (int)rs->cpu_id >= 0 && (int)rs->cpu_id < ncpu &&
	       rs->cpu_id_start < ncpu;
}

static int own_area(void)
{
	unsigned int len = sizeof(own);

	tt_say("glibc registered an area: %s\n", __rseq_size ? "yes" : "no");
	tt_check(__rseq_size == 0);
	if (tt_rseq(&own, len, 0, RSEQ_SIG) && errno == ENOSYS) {
		tt_say("rseq: not available\n");
		return 0;
	}
	tt_say("register: 0, cpu_id filled in: %s\n", cpu_ok() ? "yes" : "no");
	tt_check(cpu_ok());
	TRY("register again", tt_rseq(&own, len, 0, RSEQ_SIG), "EBUSY");
	TRY("register, another signature",
	    tt_rseq(&own, len, 0, RSEQ_SIG + 1), "EPERM");
	TRY("register another area", tt_rseq(&other, len, 0, RSEQ_SIG),
	    "EINVAL");
	TRY("unregister, wrong signature",
	    tt_rseq(&own, len, RSEQ_FLAG_UNREGISTER, RSEQ_SIG + 1), "EPERM");
	TRY("unregister another area",
	    tt_rseq(&other, len, RSEQ_FLAG_UNREGISTER, RSEQ_SIG), "EINVAL");
	TRY("unregister", tt_rseq(&own, len, RSEQ_FLAG_UNREGISTER, RSEQ_SIG),
	    "0");
	tt_say("cpu_id after unregister: %d\n", (int)own.cpu_id);
	tt_check((int)own.cpu_id == RSEQ_CPU_ID_UNINITIALIZED);
	TRY("unregister again",
	    tt_rseq(&own, len, RSEQ_FLAG_UNREGISTER, RSEQ_SIG), "EINVAL");
	TRY("register misaligned", tt_rseq(misaligned + 4, len, 0, RSEQ_SIG),
	    "EINVAL");
	TRY("register too short", tt_rseq(&own, 16, 0, RSEQ_SIG), "EINVAL");
	TRY("register once more", tt_rseq(&own, len, 0, RSEQ_SIG), "0");
	tt_say("cpu_id filled in again: %s\n", cpu_ok() ? "yes" : "no");
	tt_check(cpu_ok());
	return 0;
}

TT_MAIN
{
	char *args[] = { argv[0], "own", NULL };
	char *env[] = { "GLIBC_TUNABLES=glibc.pthread.rseq=0", NULL };
	int status;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "own"))
		return own_area();
	pid = tt_sys(fork());
	if (pid == 0) {
		execve("/proc/self/exe", args, env);
		_exit(127);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("parent: child", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
