/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between the x86 arming code (step.c) and trap decoding (trap.c). */
#ifndef _ITRACE_X86_H
#define _ITRACE_X86_H

#include <linux/atomic.h>
#include <linux/types.h>

extern bool itrace_x86_btf_broken;
extern atomic_long_t itrace_x86_lost_dr6;
bool itrace_x86_use_btf(void);
struct itrace_slot;
bool itrace_x86_want_btf(const struct itrace_slot *s);
void itrace_x86_set_btf(bool on);

struct itrace_x86_insn;
struct itrace_code_memo;
struct pt_regs;
int itrace_x86_fetch_init(void);
void itrace_x86_fetch_exit(void);
/* @memo: where to note the bytes decoded (the slot's), or NULL */
bool itrace_x86_decode_user(struct itrace_code_memo *memo,
			    struct pt_regs *regs, unsigned long ip,
			    struct itrace_x86_insn *d);

/* sigframe.c: the program's own TF */
/* ia32 and x32 sigreturn numbers (their unistd headers are not ours) */
#define ITRACE_NR_IA32_SIGRETURN	119
#define ITRACE_NR_IA32_RT_SIGRETURN	173
#define ITRACE_NR_X32_RT_SIGRETURN	(0x40000000 + 513)
extern atomic_t itrace_x86_sigrets;
extern atomic_long_t itrace_x86_pushf_missed;
bool itrace_x86_utf_slow(struct itrace_slot *s, struct pt_regs *regs,
			 const struct itrace_x86_insn *d);
void itrace_x86_sigret_check(struct itrace_slot *s, struct pt_regs *regs);
void itrace_x86_drop_tf(struct itrace_slot *s, struct pt_regs *regs);
void itrace_x86_arm(struct itrace_slot *s);

#endif /* _ITRACE_X86_H */
