// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_sysinfo: a debugger follows the program's system calls, strace
 * style. The child (PTRACE_TRACEME) stops itself with kill(SIGSTOP),
 * then makes 10 getpid calls through an asm stub, a write(-1) and
 * _exit(5). The parent runs it with PTRACE_SYSCALL (TRACESYSGOOD) and
 * reads each stop with PTRACE_GET_SYSCALL_INFO: entry and exit stops
 * must alternate, each getpid entry must report the arch and the ip just
 * after the stub's system-call instruction, each exit the child's pid;
 * the write's exit must be an EBADF error, exit_group(5) an entry stop
 * with no exit, then the child's end.
 *
 * Catches: a tracer that loses or doubles syscall stops, confuses entry
 * and exit (its own trap after the system-call instruction taken as a
 * stop), or moves the ip the kernel reports at the syscall.
 */
#include "../tt_dbg.h"
#include <linux/audit.h>
#include <sys/syscall.h>

#define CALLS	10

#if defined(__x86_64__)
#define ARCH	AUDIT_ARCH_X86_64
#define GETPID	"	movl $39, %eax\n	syscall\n"
#elif defined(__powerpc64__)
#define ARCH	AUDIT_ARCH_PPC64LE
#define GETPID	"	li 0, 20\n	sc\n"
#endif
asm(TT_ASM_FUNC("raw_getpid")
    GETPID
    ".globl raw_getpid_ret\n"
    "raw_getpid_ret:\n"
    TT_ASM_RET
    ".size raw_getpid, . - raw_getpid\n");

long raw_getpid(void);
extern char raw_getpid_ret[];

static void child(void)
{
	long pid = getpid(), bad = 0;
	int i;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(10);
	syscall(SYS_kill, pid, SIGSTOP);
	for (i = 0; i < CALLS; i++)
		if (raw_getpid() != pid)
			bad++;
	if (write(-1, "", 1) != -1 || errno != EBADF)
		bad++;
	_exit(bad ? 11 : 5);
}

TT_MAIN
{
	int status, entries = 0, exits = 0, ip_ok = 0, ret_ok = 0;
	int order_bad = 0, other = 0, ebadf = 0, exit_group = 0;
	struct __ptrace_syscall_info si;
	long last_nr = -1;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0)
		child();
	tt_wait_stop(pid, SIGSTOP);
	tt_sys(ptrace(PTRACE_SETOPTIONS, pid, NULL,
		      (void *)PTRACE_O_TRACESYSGOOD));
	for (;;) {
		tt_sys(ptrace(PTRACE_SYSCALL, pid, NULL, NULL));
		tt_sys(waitpid(pid, &status, 0));
		if (!WIFSTOPPED(status))
			break;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			other++;
			continue;
		}
		memset(&si, 0, sizeof(si));
		tt_sys(ptrace(PTRACE_GET_SYSCALL_INFO, pid,
			      (void *)sizeof(si), &si));
		if (si.op == PTRACE_SYSCALL_INFO_ENTRY) {
			if (last_nr != -1)
				order_bad++;
			last_nr = si.entry.nr;
			if (last_nr == SYS_getpid) {
				entries++;
				if (si.arch == ARCH &&
				    si.instruction_pointer ==
				    (unsigned long)raw_getpid_ret)
					ip_ok++;
			} else if (last_nr == SYS_exit_group) {
				exit_group = si.entry.args[0] == 5;
			}
		} else if (si.op == PTRACE_SYSCALL_INFO_EXIT) {
			if (last_nr == -1)
				order_bad++;
			if (last_nr == SYS_getpid) {
				exits++;
				if (!si.exit.is_error && si.exit.rval == pid)
					ret_ok++;
			} else if (last_nr == SYS_write) {
				ebadf = si.exit.is_error &&
					si.exit.rval == -EBADF;
			}
			last_nr = -1;
		} else {
			other++;
		}
	}
	tt_say("getpid: %d entry stops (%d at the stub's ip), %d exit stops (%d returning the child's pid)\n",
	       entries, ip_ok, exits, ret_ok);
	tt_say("write(-1): EBADF at its exit stop: %s\n", ebadf ? "yes" : "no");
	tt_say("exit_group(5): entry stop with no exit stop: %s\n",
	       exit_group && last_nr == SYS_exit_group ? "yes" : "no");
	tt_say("entry/exit out of order: %d, other stops: %d\n", order_bad,
	       other);
	tt_say_end("child", status);
	tt_check(entries == CALLS && ip_ok == CALLS && exits == CALLS &&
		 ret_ok == CALLS);
	tt_check(ebadf && exit_group && !order_bad && !other);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 5);
	tt_ok();
	return 0;
}
