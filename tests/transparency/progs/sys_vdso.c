// SPDX-License-Identifier: GPL-2.0
/*
 * sys_vdso: the calls that run in user space from the vDSO:
 * clock_gettime (MONOTONIC and REALTIME), gettimeofday, time and
 * getcpu (sched_getcpu), 100 rounds. Checks that MONOTONIC never goes
 * back, that the clocks agree with each other, and that the cpu number
 * is a valid one; prints only that they did.
 *
 * Catches: a tracer that can't step the vDSO's code (its special
 * mapping, its seqlock retry loops, rdtscp/mftb in it), or that makes
 * it return garbage, e.g. by disturbing the seqcount read loop.
 */
#include "../tt.h"
#include <sched.h>
#include <sys/time.h>
#include <time.h>

TT_MAIN
{
	struct timespec prev = { 0, 0 }, now, rt;
	struct timeval tv;
	int i, back = 0, apart = 0, badcpu = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	time_t t;

	for (i = 0; i < 100; i++) {
		tt_sys(clock_gettime(CLOCK_MONOTONIC, &now));
		if (now.tv_sec < prev.tv_sec || (now.tv_sec == prev.tv_sec &&
						 now.tv_nsec < prev.tv_nsec))
			back++;
		prev = now;
		tt_sys(clock_gettime(CLOCK_REALTIME, &rt));
		tt_sys(gettimeofday(&tv, NULL));
		t = time(NULL);
		/* read in this order: each at or after the last, allowing
		 * for time()'s coarser clock, within 2 s */
		if (tv.tv_sec < rt.tv_sec || tv.tv_sec > rt.tv_sec + 2 ||
		    t < rt.tv_sec - 1 || t > tv.tv_sec + 2)
			apart++;
		if (sched_getcpu() < 0 || sched_getcpu() >= ncpu)
			badcpu++;
	}
	tt_say("monotonic went back: %s\n", back ? "yes" : "no");
	tt_say("realtime, gettimeofday, time agree: %s\n",
	       apart ? "no" : "yes");
	tt_say("getcpu valid: %s\n", badcpu ? "no" : "yes");
	tt_check(!back && !apart && !badcpu);
	tt_ok();
	return 0;
}
