/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-ins for the kernel types and primitives the pure-C
 * parts of the module use (see kdb-itrace/lib/compat.h).
 */
#ifndef _ITRACE_HOST_SHIM_H
#define _ITRACE_HOST_SHIM_H

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
#define U32_MAX		UINT32_MAX

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#ifndef __always_inline		/* glibc's <sys/cdefs.h> has one */
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define container_of(p, type, member) \
	((type *)((char *)(p) - offsetof(type, member)))
/* the kernel's sort(): heapsort, no swap function needed here */
#define sort(base, num, size, cmp, swap)	qsort(base, num, size, cmp)
#define __printf(a, b)		__attribute__((format(printf, a, b)))

/* The kernel's scnprintf(): the length written, never more than size - 1. */
__printf(3, 4)
static inline int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)(size - 1) : n;
}

#endif /* _ITRACE_HOST_SHIM_H */
