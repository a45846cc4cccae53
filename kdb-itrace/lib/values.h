/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a record's values (struct itrace_rec's val[0..nval)) mean, by its
 * kind, and their text: the kind says, so the record stores no more
 * than the count.
 *   syscall      val[0] the system call's number, val[1] its return
 *                value (as the kernel returned it: -errno on failure)
 *   call, icall  val[0..nval) the callee's first arguments, ABI order
 *                (`on ... args N`)
 *   ret          val[0] the value returned (the ABI's return register)
 *   async        a trigger's entry (`func F args N`): F's first
 *                arguments, as a call's
 * Pure C, shared with host tests and itrace-dump.
 */
#ifndef _ITRACE_VALUES_H
#define _ITRACE_VALUES_H

#include "compat.h"
#include "ring.h"

#define ITRACE_VAL_SYSNR	0
#define ITRACE_VAL_SYSRET	1

/* Longest text itrace_format_vals() writes, with its NUL. */
#define ITRACE_VALS_MAX		(3 * 20 + 24)

/*
 * The values of @kind as text, after a record's line: " = -2" for a
 * system call's return ("sys 1" before it when @nr), "(0x1, 0x7ffd0)"
 * for a call's arguments, " = 0x6" for a return; "" for none. Returns
 * the snprintf-style length.
 */
int itrace_format_vals(char *buf, size_t len, unsigned int kind,
		       unsigned int nval, const u64 *val);

/* A call's arguments alone, "(0x1, 0x2)" (`calls`). */
int itrace_format_args(char *buf, size_t len, unsigned int nval,
		       const u64 *val);

#endif /* _ITRACE_VALUES_H */
