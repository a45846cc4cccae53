/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the restartable-sequence programs share (rseq_*): the calling
 * thread's area as glibc registered it, the rseq system call, the fixed
 * line where glibc registered none, and the pieces of a critical section
 * in asm: a function's head (POWER: its TOC pointer), the arming store
 * of a descriptor into the area's rseq_cs, the signature word before an
 * abort handler, and the descriptor itself; with them rseq_inc(), the
 * per-cpu counter add of rseq_percpu and rseq_fork_exec.
 */
#ifndef _TT_RSEQ_H
#define _TT_RSEQ_H

#include "tt.h"
#include <sys/rseq.h>
#include <sys/syscall.h>

/* the calling thread's area, glibc's (__builtin_thread_pointer() is not
 * in gcc 12 for powerpc: r13 is the thread pointer there) */
static inline volatile struct rseq *tt_rseq_area(void)
{
#if defined(__x86_64__)
	char *tp = __builtin_thread_pointer();
#elif defined(__powerpc64__)
	register char *tp asm("r13");
#endif

	return (struct rseq *)(tp + __rseq_offset);
}

/* the rseq system call, errno 0 before it */
static inline long tt_rseq(volatile void *area, unsigned int len, int flags,
			   unsigned int sig)
{
	errno = 0;
	return syscall(SYS_rseq, area, len, flags, sig);
}

/*
 * No area (glibc registered none: no rseq in the kernel)? Then the fixed
 * skip line, the verdict if @verdict, and 1; else 0.
 */
static inline int tt_rseq_none(int verdict)
{
	if (__rseq_size)
		return 0;
	tt_say("rseq: no area registered (no rseq): skipped\n");
	if (verdict)
		tt_ok();
	return 1;
}

#define TT_STR_(x)	#x
#define TT_STR(x)	TT_STR_(x)

/*
 * The asm pieces. A critical section's function reads:
 *   TT_RSEQ_FUNC("f")
 *   "1:" TT_RSEQ_ARM("f_desc")	area in the first argument register
 *   "f_start:" ... the commit ...
 *   "f_post:" ... return ...
 *   TT_RSEQ_SIG_WORD
 *   "f_abort:" ... (back to 1b, or out)
 *   TT_RSEQ_END("f", "f_desc", "f_start", "f_post", "f_abort")
 * TT_RSEQ_ARM clobbers rax / r9.
 */
#if defined(__x86_64__)
#define TT_RSEQ_FUNC(f)	TT_ASM_FUNC(f)
#define TT_RSEQ_ARM(desc)						\
	"\tleaq " desc "(%rip), %rax\n"					\
	"\tmovq %rax, 8(%rdi)\n"	/* rseq_cs */
#elif defined(__powerpc64__)
#define TT_RSEQ_FUNC(f)							\
	TT_ASM_FUNC(f)							\
	"0:\taddis 2, 12, .TOC.-0b@ha\n"				\
	"\taddi 2, 2, .TOC.-0b@l\n"					\
	"\t.localentry " f ", .-" f "\n"
#define TT_RSEQ_ARM(desc)						\
	"\taddis 9, 2, " desc "@toc@ha\n"				\
	"\taddi 9, 9, " desc "@toc@l\n"					\
	"\tstd 9, 8(3)\n"		/* rseq_cs */
#endif
#define TT_RSEQ_SIG_WORD	"\t.long " TT_STR(RSEQ_SIG) "\n"
#define TT_RSEQ_END(f, desc, start, post, abort)			\
	".size " f ", . - " f "\n"					\
	".data\n"							\
	".balign 32\n"							\
	desc ":\n"							\
	"\t.long 0, 0\n"		/* version, flags */		\
	"\t.quad " start ", " post " - " start ", " abort "\n"		\
	".text\n"

/*
 * rseq_inc(rs, counters): add 1 to counters[8 * cpu] (64 bytes a
 * counter) for the cpu in @rs's cpu_id, committed by the store; the
 * abort handler starts over. The program that calls it has
 * TT_RSEQ_INC; at file scope.
 */
#if defined(__x86_64__)
#define TT_RSEQ_INC_BODY						\
	"\tmovl 4(%rdi), %eax\n"	/* cpu_id */			\
	"\tshlq $6, %rax\n"						\
	"\tmovq (%rsi,%rax), %rcx\n"					\
	"\tincq %rcx\n"							\
	"\tmovq %rcx, (%rsi,%rax)\n"	/* commit */			\
	"inc_post:\n"							\
	"\tret\n"							\
	TT_RSEQ_SIG_WORD						\
	"inc_abort:\n"							\
	"\tjmp 1b\n"
#elif defined(__powerpc64__)
#define TT_RSEQ_INC_BODY						\
	"\tlwz 10, 4(3)\n"		/* cpu_id */			\
	"\tsldi 10, 10, 6\n"						\
	"\tldx 11, 4, 10\n"						\
	"\taddi 11, 11, 1\n"						\
	"\tstdx 11, 4, 10\n"		/* commit */			\
	"inc_post:\n"							\
	"\tblr\n"							\
	TT_RSEQ_SIG_WORD						\
	"inc_abort:\n"							\
	"\tb 1b\n"
#endif
#define TT_RSEQ_INC							\
	asm(TT_RSEQ_FUNC("rseq_inc")					\
	    "1:" TT_RSEQ_ARM("inc_desc")				\
	    "inc_start:\n"						\
	    TT_RSEQ_INC_BODY						\
	    TT_RSEQ_END("rseq_inc", "inc_desc", "inc_start",		\
			"inc_post", "inc_abort"))

void rseq_inc(volatile struct rseq *rs, long *counters);

#endif /* _TT_RSEQ_H */
