// SPDX-License-Identifier: GPL-2.0
/*
 * sec_trace: a seccomp filter hands system calls to a ptrace tracer
 * (SECCOMP_RET_TRACE, PTRACE_O_TRACESECCOMP), which changes them at the
 * seccomp stop. The child (PTRACE_TRACEME) installs a filter tracing
 * getppid (data 7), getuid (data 8) and write to fd 2 (data 9), and:
 * calls getppid, which the parent turns into getpid (the child gets its
 * own pid); calls getuid, which the parent skips (nr -1) with 555 as
 * the result; writes a 23-byte buffer to fd 2, which the parent cuts to
 * its first line (16 bytes, x86 rdx / POWER r5). The parent prints each
 * stop's event data; the child what it got.
 *
 * Catches: a tracer whose system-call stepping reads the call number or
 * arguments before the seccomp stop changed them, resumes a skipped call
 * at a wrong place, or loses the debugger's register writes.
 */
#include "../tt.h"
#include <elf.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>

#if defined(__x86_64__)
typedef struct user_regs_struct regs_t;
#define NR(r)		((r).orig_rax)
#define RET(r)		((r).rax)
#define ARG2(r)		((r).rdx)
#elif defined(__powerpc64__)
typedef struct pt_regs regs_t;
#define NR(r)		((r).gpr[0])
#define RET(r)		((r).gpr[3])	/* at a seccomp stop: the result */
#define ARG2(r)		((r).gpr[5])
#endif

#define NR_OFF		offsetof(struct seccomp_data, nr)
#define ARG0_OFF	offsetof(struct seccomp_data, args[0])

static int regs(pid_t pid, int req, regs_t *r)
{
	struct iovec iov = { r, sizeof(*r) };

	return ptrace(req, pid, (void *)NT_PRSTATUS, &iov);
}

static void child(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR_OFF),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 7),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getuid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 8),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_OFF),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 9),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	static const char buf[] = "child: cut line\nGARBAGE";
	long a, b, c;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		_exit(10);
	raise(SIGSTOP);
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		_exit(10);
	a = syscall(SYS_getppid);
	b = syscall(SYS_getuid);
	c = syscall(SYS_write, 2, buf, sizeof(buf) - 1);
	tt_say("child: getppid gave its own pid: %s\n",
	       a == getpid() ? "yes" : "no");
	tt_say("child: getuid gave %ld\n", b);
	tt_say("child: write returned %ld\n", c);
	_exit(a == getpid() && b == 555 && c == 16 ? 0 : 11);
}

/* the seccomp filter action @action in this kernel? (not in every one) */
static int have(unsigned int action)
{
	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

TT_MAIN
{
	unsigned long msg;
	int status, n = 0;
	regs_t r;
	pid_t pid;

	if (!have(SECCOMP_RET_TRACE)) {
		tt_say("seccomp: no SECCOMP_RET_TRACE in this kernel: skipped\n");
		tt_ok();
		return 0;
	}
	pid = tt_sys(fork());
	if (pid == 0)
		child();
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	tt_sys(ptrace(PTRACE_SETOPTIONS, pid, NULL,
		      (void *)PTRACE_O_TRACESECCOMP));
	for (;;) {
		tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
		tt_sys(waitpid(pid, &status, 0));
		if (!WIFSTOPPED(status))
			break;
		tt_check(status >> 16 == PTRACE_EVENT_SECCOMP);
		tt_sys(ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg));
		tt_check(regs(pid, PTRACE_GETREGSET, &r) == 0);
		n++;
		if (msg == 7) {
			tt_say("parent: seccomp stop, data 7, getppid: %s; made getpid\n",
			       (long)NR(r) == SYS_getppid ? "yes" : "no");
			NR(r) = SYS_getpid;
		} else if (msg == 8) {
			tt_say("parent: seccomp stop, data 8, getuid: %s; skipped, 555\n",
			       (long)NR(r) == SYS_getuid ? "yes" : "no");
			NR(r) = -1;
			RET(r) = 555;
		} else if (msg == 9) {
			tt_say("parent: seccomp stop, data 9, write of %ld; cut to 16\n",
			       (long)ARG2(r));
			ARG2(r) = 16;
		} else {
			tt_say("parent: seccomp stop, data %lu\n", msg);
		}
		tt_check(regs(pid, PTRACE_SETREGSET, &r) == 0);
	}
	tt_say("parent: child %s %d\n", WIFEXITED(status) ? "exited" :
	       "killed by signal", WIFEXITED(status) ? WEXITSTATUS(status) :
	       WTERMSIG(status));
	tt_check(n == 3);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
