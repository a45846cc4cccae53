/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transparency suite's main header: what every program of
 * tests/transparency/progs/ shares. A program is small, deterministic
 * and static; the suite runs it untraced, then traced in every mode, and
 * wants the same bytes on stdout and the same end (exit status or
 * terminating signal) each time. So a program prints only what is the
 * same on every run (no pids, addresses, times), through tt_say(), which
 * writes at once (no stdio buffer to be duplicated by fork or lost by
 * _exit), and ends with one verdict line from tt_ok() or tt_fail().
 *
 * Its work runs inside tt_body(), which main() calls through TT_MAIN: the
 * suite's `func tt_body` run traces only that call.
 *
 * What only a family of programs shares is in the headers next to this
 * one, each of which includes it: tt_dbg.h (debuggers), tt_rseq.h
 * (restartable sequences), tt_sec.h (seccomp filters), tt_sc.h (raw
 * system-call instructions), tt_step.h (own breakpoints and TF steps),
 * tt_thr.h (thread teams, /proc views of threads and tasks).
 */
#ifndef _TT_H
#define _TT_H

#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* printf to stdout with one write(): whole lines, in order, fork-safe */
static inline __attribute__((format(printf, 1, 2))) void tt_say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (n > 0 && write(1, buf, n) != n)
		_exit(120);
}

/* The verdict, the last line: "verdict: ok" */
#define tt_ok()		tt_say("verdict: ok\n")
/* "verdict: FAIL <why>", and exit 1 */
#define tt_fail(...)	do { tt_say("verdict: FAIL " __VA_ARGS__); \
			     tt_say("\n"); _exit(1); } while (0)
/* check a condition; on failure the verdict names it and the line */
#define tt_check(c)	do { if (!(c)) tt_fail("%s:%d: %s", __FILE__, \
						__LINE__, #c); } while (0)

/* a system call that must succeed */
#define tt_sys(call)	({ long __r = (long)(call); \
			   if (__r == -1) tt_fail("%s:%d: %s: %s", __FILE__, \
						  __LINE__, #call, strerror(errno)); \
			   __r; })

/*
 * What programs of both arches share beyond output: the interrupted ip
 * in a signal handler's ucontext, the arch's trap instruction and where
 * its SIGTRAP leaves the ip, the head and return of a function written
 * in a top-level asm(), a handler (SA_SIGINFO or plain) installed in one
 * call, a child's end in words, and a tiny function written into memory
 * at run time.
 */
#include <signal.h>
#include <stdint.h>
#include <ucontext.h>
#include <sys/wait.h>

#if defined(__x86_64__)
/* the ucontext's ip; TT_TRAP_SKIP: bytes from a trap's ip to go on */
#define TT_UC_IP(uc)	((uc)->uc_mcontext.gregs[REG_RIP])
#define TT_TRAP_INSN	"int3"
#define TT_TRAP_SKIP	0	/* int3 reports the ip after it */
#define TT_ASM_RET	"\tret\n"
#elif defined(__powerpc64__)
#include <asm/ptrace.h>
#define TT_UC_IP(uc)	((uc)->uc_mcontext.gp_regs[PT_NIP])
#define TT_TRAP_INSN	".long 0x7fe00008"	/* tw 31,0,0 */
#define TT_TRAP_SKIP	4	/* the trap word reports its own ip */
#define TT_ASM_RET	"\tblr\n"
#else
#error "tt.h: x86_64 or powerpc64 only"
#endif

/* asm(TT_ASM_FUNC("f") ... TT_ASM_RET ...): the global function f */
#define TT_ASM_FUNC(f)	".text\n.globl " f "\n.type " f ", @function\n" f ":\n"

/*
 * sigaction(@sig) to @info (SA_SIGINFO | @flags) or, @info NULL, to the
 * plain handler @plain (@flags); an empty mask; or fail
 */
static inline void tt_sigaction(int sig, void (*plain)(int),
				void (*info)(int, siginfo_t *, void *),
				int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	if (info) {
		sa.sa_sigaction = info;
		flags |= SA_SIGINFO;
	} else {
		sa.sa_handler = plain;
	}
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		tt_fail("sigaction(%d): %s", sig, strerror(errno));
}

/* sigaction(@sig) to @fn (SA_SIGINFO | @flags, empty mask), or fail */
static inline void tt_handle(int sig, void (*fn)(int, siginfo_t *, void *),
			     int flags)
{
	tt_sigaction(sig, NULL, fn, flags);
}

/* the same for a plain handler @fn (sa_handler; @flags alone) */
static inline void tt_handle_plain(int sig, void (*fn)(int), int flags)
{
	tt_sigaction(sig, fn, NULL, flags);
}

/* "@who exited N" / "killed by signal N" / "stopped by signal N" */
static inline void tt_say_end(const char *who, int status)
{
	if (WIFEXITED(status))
		tt_say("%s exited %d\n", who, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		tt_say("%s killed by signal %d\n", who, WTERMSIG(status));
	else if (WIFSTOPPED(status))
		tt_say("%s stopped by signal %d\n", who, WSTOPSIG(status));
	else
		tt_say("%s: status %#x\n", who, status);
}

/*
 * Write at @p a function returning @imm, or with @add_arg its first
 * argument plus @imm (x86: mov $imm, %eax or lea imm(%rdi), %rax; ret;
 * POWER: li r3, imm or addi r3, r3, imm; blr: @imm within 16 bits).
 * Nothing is flushed: the caller makes it visible to instruction fetch
 * when its test wants. Returns its length in bytes.
 */
static inline int tt_emit(unsigned char *p, int imm, int add_arg)
{
#if defined(__x86_64__)
	unsigned char *q = p;

	if (add_arg) {
		*q++ = 0x48;
		*q++ = 0x8d;
		*q++ = 0x87;
	} else {
		*q++ = 0xb8;
	}
	memcpy(q, &imm, 4);
	q[4] = 0xc3;
	return q + 5 - p;
#else
	uint32_t insn[2] = {
		(add_arg ? 0x38630000u : 0x38600000u) | (imm & 0xffff),
		0x4e800020u,
	};

	memcpy(p, insn, sizeof(insn));
	return sizeof(insn);
#endif
}

/* tt_emit() of a function returning @imm, made visible to fetch */
static inline int tt_emit_ret(unsigned char *p, int imm)
{
	int n = tt_emit(p, imm, 0);

	__builtin___clear_cache((char *)p, (char *)p + n);
	return n;
}

int tt_body(int argc, char **argv);

/*
 * main() calls tt_body() and returns what it returns; noinline and
 * externally visible so that `func tt_body` finds it in the symbol table.
 */
#define TT_MAIN								\
int main(int argc, char **argv)						\
{									\
	return tt_body(argc, argv);					\
}									\
__attribute__((noinline, used)) int tt_body(int argc __attribute__((unused)),	\
					    char **argv __attribute__((unused)))

/* A whole program that does not apply on this arch: one fixed line. */
#define TT_SKIP_MAIN(why)						\
TT_MAIN									\
{									\
	tt_say("skip: %s\n", why);					\
	tt_ok();							\
	return 0;							\
}

#endif /* _TT_H */
