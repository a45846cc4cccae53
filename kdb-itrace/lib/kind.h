/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record kinds of the branch log. Arch-neutral: every arch's
 * classifier maps its instructions onto these, and the formatter and the
 * parser name them. Shared by the kernel module and the host tests.
 */
#ifndef _ITRACE_KIND_H
#define _ITRACE_KIND_H

#include "compat.h"

enum itrace_kind {
	ITRACE_K_INSN = 0,	/* sequential, not a control transfer */
	ITRACE_K_JCC_NT,	/* conditional branch, not taken */
	ITRACE_K_JCC,		/* conditional branch, taken */
	ITRACE_K_JMP,		/* direct unconditional jump */
	ITRACE_K_CALL,		/* direct call */
	ITRACE_K_RET,		/* return */
	ITRACE_K_ICALL,		/* indirect call */
	ITRACE_K_IJMP,		/* indirect jump */
	ITRACE_K_SYSCALL,	/* system call instruction */
	ITRACE_K_INT,		/* software interrupt / trap instruction */
	ITRACE_K_IRET,		/* interrupt return */
	ITRACE_K_FAR,		/* far call/jmp/ret (segment change) */
	ITRACE_K_ASYNC,		/* ip moved without a branch: signal, restart */
	ITRACE_K_NR
};

/* Every kind: the default kind filter. */
#define ITRACE_KINDS_ALL	((1u << ITRACE_K_NR) - 1)
/* What block stepping reports: every kind but insn and jcc-nt. */
#define ITRACE_KINDS_TRANSFER	\
	(ITRACE_KINDS_ALL & ~(1u << ITRACE_K_INSN) & ~(1u << ITRACE_K_JCC_NT))

/* kind.c */
const char *itrace_kind_name(unsigned int kind);
/* "call,ret": the kinds of @kinds ("" for none), cut to @len */
void itrace_kinds_str(char *buf, size_t len, u32 kinds);
int itrace_kind_parse(const char *s, size_t len);

/* True for the kinds that block stepping reports (taken transfers). */
static inline int itrace_kind_is_transfer(unsigned int k)
{
	return k != ITRACE_K_INSN && k != ITRACE_K_JCC_NT && k < ITRACE_K_NR;
}

#endif /* _ITRACE_KIND_H */
