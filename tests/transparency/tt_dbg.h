/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the suite's debugger programs share (dbg_*, rseq_dbg_step,
 * sec_trace, the fuzzer's ptrace event): a child that asks to be traced
 * and stops itself, a wait for a stop that must come, a seize that
 * interrupts a running task, the registers as PTRACE_GETREGSET /
 * SETREGSET (NT_PRSTATUS) give them per arch (the ip; a system call's
 * number, arguments and result) with the ip read and set in one call,
 * the arch's breakpoint word as a debugger plants it, and the asm of a
 * stub that stops itself.
 */
#ifndef _TT_DBG_H
#define _TT_DBG_H

#include "tt.h"
#include <elf.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>

/*
 * In an asm() stub (TT_ASM_FUNC), the debugger's stop: kill(own pid,
 * SIGSTOP) with the pid in the first argument register (rdi / r3).
 */
#if defined(__x86_64__)
#define TT_ASM_KILL_STOP						\
	"\tmovl $62, %eax\n"						\
	"\tmovl $19, %esi\n"						\
	"\tsyscall\n"
#elif defined(__powerpc64__)
#define TT_ASM_KILL_STOP						\
	"\tli 4, 19\n"							\
	"\tli 0, 37\n"							\
	"\tsc\n"
#endif

#if defined(__x86_64__)
typedef struct user_regs_struct tt_regs_t;
#define TT_R_IP(r)	((r).rip)
#define TT_R_NR(r)	((r).orig_rax)	/* the system call's number */
#define TT_R_ARG0(r)	((r).rdi)
#define TT_R_ARG2(r)	((r).rdx)
#define TT_R_RET(r)	((r).rax)	/* its result */
/* the word @w (read at a function) with int3 over its first byte */
#define TT_BP_WORD(w)	(((w) & ~0xffUL) | 0xcc)
#define TT_BP_HIT_IP(a)	((a) + 1)	/* int3 is a trap: the ip after it */
#elif defined(__powerpc64__)
typedef struct pt_regs tt_regs_t;
#define TT_R_IP(r)	((r).nip)
#define TT_R_NR(r)	((r).gpr[0])
#define TT_R_ARG0(r)	((r).orig_gpr3)
#define TT_R_ARG2(r)	((r).gpr[5])
#define TT_R_RET(r)	((r).gpr[3])	/* at a seccomp stop too */
/* the word @w (read at a function), the trap word its first insn */
#define TT_BP_WORD(w)	(((w) & ~0xffffffffUL) | 0x7fe00008)	/* tw 31,0,0 */
#define TT_BP_HIT_IP(a)	(a)		/* tw is a fault: the ip at it */
#endif

/* @req (PTRACE_GETREGSET or SETREGSET) of @pid's NT_PRSTATUS: 0 or -1 */
static inline int tt_regs(pid_t pid, int req, tt_regs_t *r)
{
	struct iovec iov = { r, sizeof(*r) };

	return ptrace(req, pid, (void *)NT_PRSTATUS, &iov);
}

/* the stopped tracee @pid's ip, or 0 */
static inline unsigned long tt_ip(pid_t pid)
{
	tt_regs_t r;

	return tt_regs(pid, PTRACE_GETREGSET, &r) ? 0 : TT_R_IP(r);
}

/* set the stopped tracee @pid's ip to @ip: 0 or -1 */
static inline int tt_set_ip(pid_t pid, unsigned long ip)
{
	tt_regs_t r;

	if (tt_regs(pid, PTRACE_GETREGSET, &r))
		return -1;
	TT_R_IP(r) = ip;
	return tt_regs(pid, PTRACE_SETREGSET, &r);
}

/*
 * In a forked child: become the parent's tracee (exit 10 if ptrace
 * refuses) and stop by SIGSTOP; returns when the debugger resumes it.
 */
static inline void tt_traceme(void)
{
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(10);
	raise(SIGSTOP);
}

/* wait for @pid's next stop, which must be by @sig; its status */
#define tt_wait_stop(pid, sig) ({					\
	int __st;							\
									\
	tt_sys(waitpid((pid), &__st, 0));				\
	if (!WIFSTOPPED(__st) || WSTOPSIG(__st) != (sig))		\
		tt_fail("%s:%d: no stop by signal %d: status %#x",	\
			__FILE__, __LINE__, (int)(sig), __st);		\
	__st;								\
})

/*
 * fork() a tracee (tt_traceme()): 0 in the child once its debugger let
 * it go on; the child's pid in the parent, with the child in its
 * SIGSTOP stop.
 */
#define tt_fork_tracee() ({						\
	pid_t __pid = tt_sys(fork());					\
									\
	if (__pid == 0)							\
		tt_traceme();						\
	else								\
		tt_wait_stop(__pid, SIGSTOP);				\
	__pid;								\
})

/*
 * In a debugger: PTRACE_SEIZE the running @pid and PTRACE_INTERRUPT
 * it: 0 once it is in the interrupt's EVENT_STOP stop, 1 if ptrace
 * refused, 2 if another stop or an end came.
 */
static inline int tt_seize_stop(pid_t pid)
{
	int status;

	if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) ||
	    ptrace(PTRACE_INTERRUPT, pid, NULL, NULL))
		return 1;
	if (waitpid(pid, &status, __WALL) != pid || !WIFSTOPPED(status) ||
	    status >> 16 != PTRACE_EVENT_STOP)
		return 2;
	return 0;
}

#endif /* _TT_DBG_H */
