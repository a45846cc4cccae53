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
#include "../tt.h"
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define ARG(n)	offsetof(struct seccomp_data, args[n])	/* low half: LE */
#define NR	offsetof(struct seccomp_data, nr)
#define NOPID	123456789

/* a raw call: glibc's wrappers don't all pass errors > 4095 on */
static long call(long nr, long a, long b)
{
	errno = 0;
	return syscall(nr, a, b);
}

/* the seccomp filter action @action in this kernel? (not in every one) */
static int have(unsigned int action)
{
	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

TT_MAIN
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EOPNOTSUPP),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getuid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 5000),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_dup, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(0)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 100, 0, 5),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | E2BIG),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG(1)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	long r[4][3];
	int e[4][3], c, i, fd, ok = 1;

	if (!have(SECCOMP_RET_ERRNO)) {
		tt_say("seccomp: no SECCOMP_RET_ERRNO in this kernel: skipped\n");
		tt_ok();
		return 0;
	}
	r[0][0] = call(SYS_kill, NOPID, 0);
	tt_say("unfiltered kill(%d, 0): %ld, ESRCH: %s\n", NOPID, r[0][0],
	       errno == ESRCH ? "yes" : "no");
	tt_sys(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	tt_sys(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog));
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
