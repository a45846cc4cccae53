/* SPDX-License-Identifier: GPL-2.0 */
/* x86 per-task tracing state, embedded in the core's struct itrace_slot. */
#ifndef _ITRACE_ARCH_TYPES_H
#define _ITRACE_ARCH_TYPES_H

#include <linux/types.h>

struct itrace_arch_slot {
	bool btf;	/* hardware BTF was armed for the coming trap */
	u8 btf_miss;	/* consecutive BTF traps that were plain steps */
};

#endif /* _ITRACE_ARCH_TYPES_H */
