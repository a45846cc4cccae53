// SPDX-License-Identifier: GPL-2.0
/*
 * thr_clone3: threads made by the raw clone3() system call, no glibc
 * in between. Thread 1: CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM with
 * PARENT_SETTID and CHILD_CLEARTID, on a stack of our own; it starts in
 * asm on that stack, calls a C function that records its tid and adds
 * to a counter, and ends with the raw exit system call; main waits on
 * the cleared tid word (futex). Thread 2: the same plus CLONE_SETTLS
 * with a thread pointer of our own, which the thread reads back (x86
 * %fs:0 of a fake TCB, POWER r13). Then a process (exit_signal SIGCHLD,
 * CLONE_PIDFD): the child _exit(9)s, main waits with waitid(P_PIDFD).
 * ENOSYS (no clone3): a fixed line.
 *
 * Catches: a tracer that sets a new thread up from glibc's clone()
 * conventions (pthread start routine, TLS) or from the parent's user
 * state it was stepping: the child starting with a stale step bit, on
 * the wrong stack, with the parent's thread pointer, or never followed.
 */
#include "../tt.h"
#include <linux/futex.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef SYS_clone3
#define SYS_clone3	435
#endif
#ifndef P_PIDFD
#define P_PIDFD		3
#endif

#define STACK	(64 * 1024)

static char stack[2][STACK] __attribute__((aligned(16)));
static uint64_t fake_tls[2048] __attribute__((aligned(64)));
static volatile int child_tid[2], ptid[2], ctid[2], tp_ok;
static int counter;
static volatile int which;

/* the thread's C part: no errno, no TLS of glibc's */
static __attribute__((noinline, used, no_stack_protector)) void thread_fn(void)
{
	int w = which;
	uintptr_t tp;

	child_tid[w] = syscall(SYS_gettid);
	__atomic_fetch_add(&counter, 10 + w, __ATOMIC_SEQ_CST);
	if (w == 1) {
#if defined(__x86_64__)
		asm volatile("mov %%fs:0, %0" : "=r"(tp));
		tp_ok = tp == (uintptr_t)&fake_tls[1024];
#elif defined(__powerpc64__)
		asm volatile("mr %0, 13" : "=r"(tp));
		tp_ok = tp == (uintptr_t)&fake_tls[1024];
#endif
	}
}

/*
 * clone3(args) where the child runs thread_fn() on its new stack and
 * exits; returns the child's tid or -errno.
 */
static long clone3_thread(struct clone_args *ca)
{
	long ret;
#if defined(__x86_64__)
	asm volatile("syscall\n\t"
		     "test %%rax, %%rax\n\t"
		     "jnz 1f\n\t"
		     "xor %%ebp, %%ebp\n\t"
		     "call thread_fn\n\t"
		     "mov $60, %%eax\n\t"	/* exit(0): this thread */
		     "xor %%edi, %%edi\n\t"
		     "syscall\n\t"
		     "ud2\n"
		     "1:"
		     : "=a"(ret)
		     : "0"((long)SYS_clone3), "D"(ca), "S"(sizeof(*ca))
		     : "rcx", "r11", "memory", "cc");
#elif defined(__powerpc64__)
	register long r0 asm("r0") = SYS_clone3;
	register long r3 asm("r3") = (long)ca;
	register long r4 asm("r4") = sizeof(*ca);

	asm volatile("sc\n\t"
		     "bns+ 2f\n\t"
		     "neg 3, 3\n\t"		/* error: -errno */
		     "b 1f\n"
		     "2:\tcmpdi 3, 0\n\t"
		     "bne 1f\n\t"
		     "li 0, 0\n\t"
		     "stdu 0, -64(1)\n\t"	/* a frame, back chain 0 */
		     "bl thread_fn\n\t"
		     "nop\n\t"
		     "li 0, 1\n\t"		/* exit(0): this thread */
		     "li 3, 0\n\t"
		     "sc\n\t"
		     "trap\n"
		     "1:"
		     : "+r"(r0), "+r"(r3), "+r"(r4)
		     :
		     : "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
		       "ctr", "lr", "xer", "cr0", "cr1", "cr5", "cr6", "cr7",
		       "memory");
	ret = r3;
#endif
	return ret;
}

static int wait_cleared(volatile int *w)
{
	int v;

	while ((v = *w) != 0)
		syscall(SYS_futex, w, FUTEX_WAIT, v, NULL, NULL, 0);
	return 0;
}

static int thread(int w)
{
	struct clone_args ca;
	long r;

	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
		   CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID |
		   CLONE_CHILD_CLEARTID;
	if (w == 1) {
		ca.flags |= CLONE_SETTLS;
		fake_tls[1024] = (uintptr_t)&fake_tls[1024];	/* x86: self */
		ca.tls = (uintptr_t)&fake_tls[1024];
	}
	ca.parent_tid = (uintptr_t)&ptid[w];
	ca.child_tid = (uintptr_t)&ctid[w];
	ca.stack = (uintptr_t)stack[w];
	ca.stack_size = STACK;
	which = w;
	ctid[w] = -1;
	r = clone3_thread(&ca);
	if (r == -ENOSYS)
		return -1;
	tt_check(r > 0);
	wait_cleared(&ctid[w]);
	tt_say("clone3 thread %d: ran, tid reported to parent: %s, tid word cleared at exit: yes%s\n",
	       w + 1, ptid[w] == child_tid[w] && r == ptid[w] ? "yes" : "no",
	       w == 1 ? (tp_ok ? ", own thread pointer: yes" :
			 ", own thread pointer: no") : "");
	tt_check(ptid[w] == child_tid[w] && r == ptid[w]);
	return 0;
}

static void process(void)
{
	struct clone_args ca;
	siginfo_t si;
	int pidfd = -1;
	long r;

	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE_PIDFD;
	ca.pidfd = (uintptr_t)&pidfd;
	ca.exit_signal = SIGCHLD;
	r = syscall(SYS_clone3, &ca, sizeof(ca));
	if (r == 0)
		_exit(9);
	tt_check(r > 0 && pidfd >= 0);
	memset(&si, 0, sizeof(si));
	tt_sys(waitid(P_PIDFD, pidfd, &si, WEXITED));
	tt_say("clone3 process: pidfd wait: exited %s, status %d, pid matches: %s\n",
	       si.si_code == CLD_EXITED ? "yes" : "no", si.si_status,
	       si.si_pid == r ? "yes" : "no");
	tt_check(si.si_code == CLD_EXITED && si.si_status == 9 && si.si_pid == r);
}

TT_MAIN
{
	if (thread(0) < 0) {
		tt_say("clone3: not available (ENOSYS)\n");
		tt_ok();
		return 0;
	}
	tt_check(!thread(1));
	tt_check(tp_ok);
	tt_say("counter %d\n", counter);
	tt_check(counter == 21);
	process();
	tt_ok();
	return 0;
}
