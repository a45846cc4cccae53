// SPDX-License-Identifier: GPL-2.0
/*
 * sec_errno: a seccomp filter answers system calls itself with
 * SECCOMP_RET_ERRNO, by number and by argument: getppid fails with
 * EOPNOTSUPP; dup(fd) fails with E2BIG only for fd 100 (other fds are
 * dup'ed for real); kill(pid, 0) returns 0 without running (the pid
 * does not exist: unfiltered it would be ESRCH); getuid's errno 5000 is
 * clamped by the kernel to 4095. Each call is made 3 times; the program
 * prints what came back.
 *
 * Catches: a tracer whose system-call stepping misses that seccomp
 * skipped the call (resuming or logging at a wrong place), or that
 * disturbs the return value or error flag (POWER: CR0.SO) the kernel
 * sets for a skipped call.
 */
#include "../tt_sec.h"
#include <signal.h>

#define NOPID	123456789

/* a raw call: glibc's wrappers don't all pass errors > 4095 on */
static long call(long nr, long a, long b)
{
	errno = 0;
	return syscall(nr, a, b);
}

TT_MAIN
{
	struct sock_filter f[] = {
		TT_SEC_LD(nr),
		TT_SEC_IS_RET(SYS_getppid, SECCOMP_RET_ERRNO | EOPNOTSUPP),
		TT_SEC_IS_RET(SYS_getuid, SECCOMP_RET_ERRNO | 5000),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_dup, 0, 3),
		TT_SEC_LD(args[0]),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 100, 0, 5),
		TT_SEC_RET(SECCOMP_RET_ERRNO | E2BIG),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 0, 3),
		TT_SEC_LD(args[1]),
		TT_SEC_IS_RET(0, SECCOMP_RET_ERRNO | 0),
		TT_SEC_RET(SECCOMP_RET_ALLOW),
	};
	long r[4][3];
	int e[4][3], c, i, fd, ok = 1;

	if (tt_sec_lacks(SECCOMP_RET_ERRNO))
		return 0;
	r[0][0] = call(SYS_kill, NOPID, 0);
	tt_say("unfiltered kill(%d, 0): %ld, ESRCH: %s\n", NOPID, r[0][0],
	       errno == ESRCH ? "yes" : "no");
	tt_sec_install(f);
	for (i = 0; i < 3; i++) {
		r[0][i] = call(SYS_getppid, 0, 0);
		e[0][i] = errno;
		r[1][i] = call(SYS_dup, 100, 0);
		e[1][i] = errno;
		r[2][i] = call(SYS_kill, NOPID, 0);
		e[2][i] = errno;
		r[3][i] = call(SYS_getuid, 0, 0);
		e[3][i] = errno;
	}
	for (c = 0; c < 4; c++)
		for (i = 1; i < 3; i++)
			if (r[c][i] != r[c][0] || e[c][i] != e[c][0])
				ok = 0;
	tt_say("getppid: %ld, errno %s\n", r[0][0],
	       e[0][0] == EOPNOTSUPP ? "EOPNOTSUPP" : "other");
	tt_say("dup(100): %ld, errno %s\n", r[1][0],
	       e[1][0] == E2BIG ? "E2BIG" : "other");
	tt_say("kill(%d, 0): %ld, errno %d\n", NOPID, r[2][0], e[2][0]);
	tt_say("getuid: %ld, errno %d\n", r[3][0], e[3][0]);
	fd = call(SYS_dup, 1, 0);
	tt_say("dup(1) still dups: %s\n", fd > 2 ? "yes" : "no");
	tt_say("the 3 rounds agree: %s\n", ok ? "yes" : "no");
	tt_check(r[0][0] == -1 && e[0][0] == EOPNOTSUPP);
	tt_check(r[1][0] == -1 && e[1][0] == E2BIG);
	tt_check(r[2][0] == 0 && e[2][0] == 0);
	tt_check(r[3][0] == -1 && e[3][0] == 4095);
	tt_check(fd > 2 && ok);
	tt_ok();
	return 0;
}
