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
#include "values.h"

/* A function name is cut after this many bytes in the log. */
#define ITRACE_FN_SHOWN		48
/* Longest address text: mapping:function+0x16 hex digits, and the NUL. */
#define ITRACE_ADDR_MAX		(ITRACE_MAP_NAME + 1 + ITRACE_FN_SHOWN + 19 + 1)
/*
 * Longest line either format produces, with the newline and NUL: the
 * raw line's seq, cpu, pid, kind and ns, or the symbolized line's
 * columns (64), its two addresses, and its values' text (values.h).
 */
#define ITRACE_LINE_MAX		(64 + 2 * ITRACE_ADDR_MAX + ITRACE_VALS_MAX)

/*
 * "function+0xoff", "mapping:function+0xoff", "mapping+0xoff" or
 * "0xaddr" (see format.c); returns the snprintf-style length.
 */
int itrace_format_addr(char *buf, size_t len, const struct itrace_symmap *m,
		       u64 addr);

/*
 * The function @addr lies in, for counting by function (`itrace top`):
 * the address of the function symbol covering it; without one (*@nosym
 * set), the start of its mapping: the code no symbol covers counts as
 * one; 0 outside every mapping. itrace_format_func() names what it
 * returned: "function", "mapping:function", "mapping (no symbol)" or
 * "(outside every mapping)".
 */
u64 itrace_func_of(const struct itrace_symmap *m, u64 addr, bool *nosym);
int itrace_format_func(char *buf, size_t len, const struct itrace_symmap *m,
		       u64 func, bool nosym);

/*
 * Raw: "<seq> <cpu> <pid> <kind> 0x<from> 0x<to> <ns>[ 0x<value>...]\n",
 * all decimal but the addresses and values; ns is the kernel's monotonic
 * clock, the values the record's nval (values.h). Symbolized: aligned
 * columns, addresses via @m (may be NULL), then the values' text.
 */
/*
 * " e8 5b ff": @n bytes in lower-case hex, each after a blank (the
 * instruction bytes of `log -i` and itrace-dump's -F +insn), as many as
 * fit @len with the NUL; the length written.
 */
int itrace_format_bytes(char *buf, size_t len, const u8 *b, unsigned int n);
int itrace_format_raw(char *buf, size_t len, const struct itrace_rec *r,
		      unsigned int cpu);
int itrace_format_sym(char *buf, size_t len, const struct itrace_rec *r,
		      unsigned int cpu, const struct itrace_symmap *m);
/* The header line matching itrace_format_sym(). */
int itrace_format_sym_header(char *buf, size_t len);

#endif /* _ITRACE_FORMAT_H */
