/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text forms of a branch-log record: the symbolized line `itrace log`
 * shows and the stable raw line (`itrace log -r`) that tests and tools
 * parse. Pure C, shared with host tests.
 */
#ifndef _ITRACE_FORMAT_H
#define _ITRACE_FORMAT_H

#include "compat.h"
#include "ring.h"
#include "symmap.h"

/* Longest line either format produces, with the newline and NUL. */
#define ITRACE_LINE_MAX		160

/* "name+0xoff" or "0xaddr"; returns the snprintf-style length. */
int itrace_format_addr(char *buf, size_t len, const struct itrace_symmap *m,
		       u64 addr);

/*
 * Raw: "<seq> <cpu> <pid> <kind> 0x<from> 0x<to>\n", all decimal but the
 * addresses. Symbolized: aligned columns, addresses via @m (may be NULL).
 */
int itrace_format_raw(char *buf, size_t len, const struct itrace_rec *r,
		      unsigned int cpu);
int itrace_format_sym(char *buf, size_t len, const struct itrace_rec *r,
		      unsigned int cpu, const struct itrace_symmap *m);
/* The header line matching itrace_format_sym(). */
int itrace_format_sym_header(char *buf, size_t len);

#endif /* _ITRACE_FORMAT_H */
