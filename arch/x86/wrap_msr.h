/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MSR accessors across the kernels the module builds for (step.c,
 * ibt.c): rdmsrl()/wrmsrl() and their _safe forms until 6.15, renamed
 * rdmsrq()/wrmsrq() in 6.16 (ITRACE_X86_MSRQ, read from <asm/msr.h> by
 * kdb-itrace/wrap.mk). Same arguments, same results. Any context.
 */
#ifndef _ITRACE_X86_WRAP_MSR_H
#define _ITRACE_X86_WRAP_MSR_H

#include <asm/msr.h>

#ifdef ITRACE_X86_MSRQ
#define itrace_rdmsr(msr, val)		rdmsrq(msr, val)
#define itrace_wrmsr(msr, val)		wrmsrq(msr, val)
#define itrace_rdmsr_safe(msr, p)	rdmsrq_safe(msr, p)
#define itrace_wrmsr_safe(msr, val)	wrmsrq_safe(msr, val)
#else
#define itrace_rdmsr(msr, val)		rdmsrl(msr, val)
#define itrace_wrmsr(msr, val)		wrmsrl(msr, val)
#define itrace_rdmsr_safe(msr, p)	rdmsrl_safe(msr, p)
#define itrace_wrmsr_safe(msr, val)	wrmsrl_safe(msr, val)
#endif

#endif /* _ITRACE_X86_WRAP_MSR_H */
