// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_swbp: a debugger's software breakpoint, the way gdb plants one.
 * The parent writes a breakpoint instruction (x86 int3; POWER the trap
 * word 0x7fe00008) over the first instruction of the child's target()
 * with PTRACE_POKETEXT. The child calls target(i) for i = 1..10; at each
 * SIGTRAP stop the parent checks the ip (x86: just after the int3;
 * POWER: at the trap), puts the original word back, sets the ip to
 * target (x86), PTRACE_SINGLESTEPs over the real instruction, plants the
 * breakpoint again and PTRACE_CONTs. The child exits 0 if target() added
 * up to 55; the parent's own target() is untouched (copy on write).
 *
 * Catches: a tracer stepping the child that takes the debugger's
 * breakpoint trap for its own (swallowing it: the child runs on with a
 * corrupt instruction) or reports it at a wrong ip, or that fetches a
 * stale instruction after the debugger rewrote the text.
 */
#include "../tt.h"
#include <elf.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>

#define CALLS	10

#if defined(__x86_64__)
typedef struct user_regs_struct regs_t;
#define IP(r)		((r).rip)
#define TRAP_AT(w)	(((w) & ~0xffUL) | 0xcc)
#define HIT_IP(a)	((a) + 1)	/* int3 is a trap: ip after it */
#elif defined(__powerpc64__)
typedef struct pt_regs regs_t;
#define IP(r)		((r).nip)
#define TRAP_AT(w)	(((w) & ~0xffffffffUL) | 0x7fe00008)
#define HIT_IP(a)	(a)		/* tw is a fault: ip at it */
#endif

static volatile int total;

__attribute__((noinline)) void target(int v)
{
	total += v;
}

/* called through a pointer: on POWER that enters at the global entry */
static void (*volatile fp)(int) = target;

static int regs(pid_t pid, int req, regs_t *r)
{
	struct iovec iov = { r, sizeof(*r) };

	return ptrace(req, pid, (void *)NT_PRSTATUS, &iov);
}

static void child(void)
{
	int i;

	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(10);
	raise(SIGSTOP);
	for (i = 1; i <= CALLS; i++)
		fp(i);
	_exit(total == CALLS * (CALLS + 1) / 2 ? 0 : 11);
}

TT_MAIN
{
	unsigned long addr = (unsigned long)fp, orig, trap;
	int status, hits = 0, ip_ok = 0, step_ok = 0, other = 0;
	regs_t r;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0)
		child();
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	errno = 0;
	orig = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
	tt_check(errno == 0);
	trap = TRAP_AT(orig);
	tt_sys(ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)trap));
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	for (;;) {
		tt_sys(waitpid(pid, &status, 0));
		if (!WIFSTOPPED(status))
			break;
		if (WSTOPSIG(status) != SIGTRAP || hits == CALLS) {
			other++;
			tt_sys(ptrace(PTRACE_CONT, pid, NULL,
				      (void *)(long)WSTOPSIG(status)));
			continue;
		}
		hits++;
		tt_check(regs(pid, PTRACE_GETREGSET, &r) == 0);
		if (IP(r) == HIT_IP(addr))
			ip_ok++;
		/* the real instruction back, the ip on it, one step */
		tt_sys(ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)orig));
		IP(r) = addr;
		tt_check(regs(pid, PTRACE_SETREGSET, &r) == 0);
		tt_sys(ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL));
		tt_sys(waitpid(pid, &status, 0));
		tt_check(WIFSTOPPED(status));
		tt_check(regs(pid, PTRACE_GETREGSET, &r) == 0);
		if (WSTOPSIG(status) == SIGTRAP && IP(r) != addr &&
		    IP(r) - addr < 64)
			step_ok++;
		tt_sys(ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)trap));
		tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	}
	tt_say("breakpoint hits: %d, at the expected ip: %d, stepped over: %d, other stops: %d\n",
	       hits, ip_ok, step_ok, other);
	tt_say("child %s %d\n", WIFEXITED(status) ? "exited" :
	       "killed by signal", WIFEXITED(status) ? WEXITSTATUS(status) :
	       WTERMSIG(status));
	fp(100);
	tt_say("parent's own target() still works: %s\n",
	       total == 100 ? "yes" : "no");
	tt_check(hits == CALLS && ip_ok == CALLS && step_ok == CALLS && !other);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_check(total == 100);
	tt_ok();
	return 0;
}
