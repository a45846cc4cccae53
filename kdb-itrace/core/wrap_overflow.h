/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct_size_t() (6.5; Debian's 6.1 has it backported): the size of a
 * struct with a flexible array member, from the type. 5.10 has only
 * struct_size(), from a pointer: the same overflow-checked sum over a
 * NULL pointer of the type, whose member is never read (sizeof only).
 * The kernel's own macro is its own probe.
 */
#ifndef _ITRACE_WRAP_OVERFLOW_H
#define _ITRACE_WRAP_OVERFLOW_H

#include <linux/overflow.h>

#ifndef struct_size_t
#define struct_size_t(type, member, count)				\
	struct_size((type *)NULL, member, count)
#endif

#endif /* _ITRACE_WRAP_OVERFLOW_H */
