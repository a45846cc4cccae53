/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding the branch behind a hardware block-step (BTF) trap: the trap
 * reports only the target, so the source is found by decoding forward
 * from where the block began. Pure C, shared with host tests.
 */
#ifndef _ITRACE_X86_BLOCK_SCAN_H
#define _ITRACE_X86_BLOCK_SCAN_H

#include "insn_decode.h"

/* Copies up to @len bytes at user address @ip to @buf; returns the count. */
typedef unsigned int (*itrace_x86_fetch_t)(void *ctx, u64 ip, u8 *buf,
					   unsigned int len);
/* Told about each syscall instruction the block ran through. */
typedef void (*itrace_x86_syscall_t)(void *ctx, u64 ip, unsigned int len);

enum itrace_x86_scan {
	ITRACE_X86_SCAN_FOUND,	/* *from and *kind name the branch */
	ITRACE_X86_SCAN_STEP,	/* a plain single-step: BTF was ignored */
	ITRACE_X86_SCAN_LOST,	/* undecodable, or no branch within @max */
};

/*
 * The block began at @start and the task is now at @to. The branch is
 * the first unconditional transfer, or the first conditional one whose
 * target is @to, within @max instructions.
 */
enum itrace_x86_scan itrace_x86_block_source(itrace_x86_fetch_t fetch,
					     itrace_x86_syscall_t on_syscall,
					     void *ctx,
					     enum itrace_x86_mode mode,
					     u64 start, u64 to,
					     unsigned int max, u64 *from,
					     unsigned int *kind);

#endif /* _ITRACE_X86_BLOCK_SCAN_H */
