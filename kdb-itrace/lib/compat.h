/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lets the pure-C parts (parser, ring, formatter, classifiers) build
 * unchanged in the kernel module and in the host unit tests: kernel
 * types, READ_ONCE/WRITE_ONCE, the SMP barriers the ring relies on and
 * what the output sink needs (va_list, container_of), errno values and
 * sort().
 */
#ifndef _ITRACE_COMPAT_H
#define _ITRACE_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/sort.h>
#include <linux/kernel.h>	/* and va_list: <linux/stdarg.h> since 5.15 */
#include <linux/string.h>
#include <asm/barrier.h>
#else
/* userspace (lib/host.mk): the same names from the C library */
#include "host/host_shim.h"
#endif

#endif /* _ITRACE_COMPAT_H */
