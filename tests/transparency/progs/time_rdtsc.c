// SPDX-License-Identifier: GPL-2.0
/*
 * time_rdtsc: the time-stamp counter read straight by the program,
 * 100 times each. x86: rdtsc and rdtscp (when CPUID says so); POWER:
 * mftb. Checks the values never go back; prints only that.
 *
 * Catches: a tracer that emulates or steps these instructions and
 * returns a stale, cached or out-of-order value, or that turns on TSD
 * (CR4.TSD) so rdtsc faults.
 */
#include "../tt.h"
#include <stdint.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

TT_MAIN
{
	uint64_t prev = 0, v;
	int i, back = 0;

#if defined(__x86_64__)
	unsigned int a, b, c, d, lo, hi, aux;
	int has_rdtscp = 0;

	for (i = 0; i < 100; i++) {
		asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
		v = (uint64_t)hi << 32 | lo;
		back += v < prev;
		prev = v;
	}
	tt_say("rdtsc monotonic: %s\n", back ? "no" : "yes");
	tt_check(!back);
	if (__get_cpuid(0x80000001, &a, &b, &c, &d))
		has_rdtscp = !!(d & (1u << 27));
	if (has_rdtscp) {
		for (i = 0; i < 100; i++) {
			asm volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
			v = (uint64_t)hi << 32 | lo;
			back += v < prev;
			prev = v;
		}
	}
	tt_say("rdtscp monotonic: %s\n", back ? "no" : "yes");
	tt_check(!back);
#elif defined(__powerpc64__)
	for (i = 0; i < 100; i++) {
		asm volatile("mftb %0" : "=r"(v));
		back += v < prev;
		prev = v;
	}
	tt_say("mftb monotonic: %s\n", back ? "no" : "yes");
	tt_check(!back);
#endif
	tt_ok();
	return 0;
}
