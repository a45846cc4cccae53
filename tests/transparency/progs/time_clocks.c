// SPDX-License-Identifier: GPL-2.0
/*
 * time_clocks: every POSIX clock id and the sleeps on them.
 * clock_getres() of ids 0-11: which exist (a positive resolution) and
 * which answer EINVAL. Readings taken in a fixed order must be ordered:
 * MONOTONIC_COARSE <= MONOTONIC <= BOOTTIME, REALTIME_COARSE <=
 * REALTIME <= TAI, MONOTONIC_RAW never back, 20 rounds. Then
 * clock_nanosleep(): TIMER_ABSTIME with a deadline in the past returns
 * at once, one 1 ms ahead returns at or after it (MONOTONIC, REALTIME,
 * BOOTTIME); a relative 1 ms sleep lasts at least 1 ms; a bad tv_nsec
 * and the thread's own CPU clock give EINVAL.
 *
 * Catches: a tracer that disturbs the clock reads (vDSO or system call
 * fallbacks, coarse clocks read without a counter), or an absolute
 * sleep's wake-up and restart (a deadline missed, a relative sleep
 * cut short after the tracer's own interruption).
 */
#include "../tt.h"
#include <time.h>

static long long ns(clockid_t c)
{
	struct timespec t;

	tt_sys(clock_gettime(c, &t));
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void getres(void)
{
	static const char *const names[] = {
		"REALTIME", "MONOTONIC", "PROCESS_CPUTIME_ID",
		"THREAD_CPUTIME_ID", "MONOTONIC_RAW", "REALTIME_COARSE",
		"MONOTONIC_COARSE", "BOOTTIME", "REALTIME_ALARM",
		"BOOTTIME_ALARM", "10", "TAI",
	};
	struct timespec r;
	int i, ret;

	for (i = 0; i < 12; i++) {
		memset(&r, 0, sizeof(r));
		ret = clock_getres(i, &r);
		tt_say("clock %s: %s\n", names[i], ret == 0 ?
		       (r.tv_sec || r.tv_nsec ? "resolution > 0" : "zero") :
		       errno == EINVAL ? "EINVAL" : "other error");
		tt_check(ret == 0 ? r.tv_sec || r.tv_nsec : errno == EINVAL);
	}
}

static void order(void)
{
	long long mc, m, b, rc, rt, tai, raw, praw = 0;
	int i, bad = 0;

	for (i = 0; i < 20; i++) {
		mc = ns(CLOCK_MONOTONIC_COARSE);
		m = ns(CLOCK_MONOTONIC);
		b = ns(CLOCK_BOOTTIME);
		rc = ns(CLOCK_REALTIME_COARSE);
		rt = ns(CLOCK_REALTIME);
		tai = ns(CLOCK_TAI);
		raw = ns(CLOCK_MONOTONIC_RAW);
		bad += !(mc <= m && m <= b && rc <= rt && rt <= tai &&
			 raw >= praw);
		praw = raw;
	}
	tt_say("clocks read in order, 20 rounds: ordered: %s\n",
	       bad ? "no" : "yes");
	tt_check(!bad);
}

static void sleeps(void)
{
	static const clockid_t ids[] = {
		CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME
	};
	static const char *const names[] = {
		"MONOTONIC", "REALTIME", "BOOTTIME"
	};
	struct timespec t, bad = { 0, 1000000000L };
	long long dl, start;
	int i, r;

	for (i = 0; i < 3; i++) {
		tt_sys(clock_gettime(ids[i], &t));
		t.tv_sec -= 1;
		r = clock_nanosleep(ids[i], TIMER_ABSTIME, &t, NULL);
		tt_check(r == 0);
		dl = ns(ids[i]) + 1000000;
		t.tv_sec = dl / 1000000000;
		t.tv_nsec = dl % 1000000000;
		r = clock_nanosleep(ids[i], TIMER_ABSTIME, &t, NULL);
		tt_say("%s: past deadline returns, 1 ms deadline kept: %s\n",
		       names[i], r == 0 && ns(ids[i]) >= dl ? "yes" : "no");
		tt_check(r == 0 && ns(ids[i]) >= dl);
	}
	start = ns(CLOCK_MONOTONIC);
	t.tv_sec = 0;
	t.tv_nsec = 1000000;
	r = clock_nanosleep(CLOCK_MONOTONIC, 0, &t, NULL);
	tt_say("relative 1 ms: at least 1 ms: %s\n",
	       r == 0 && ns(CLOCK_MONOTONIC) - start >= 1000000 ? "yes" : "no");
	tt_check(r == 0 && ns(CLOCK_MONOTONIC) - start >= 1000000);
	r = clock_nanosleep(CLOCK_MONOTONIC, 0, &bad, NULL);
	tt_say("tv_nsec 1e9: %s\n", r == EINVAL ? "EINVAL" : "other");
	tt_check(r == EINVAL);
	t.tv_nsec = 1000;
	r = clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &t, NULL);
	tt_say("on the thread's CPU clock: %s\n", r == EINVAL ? "EINVAL" : "other");
	tt_check(r == EINVAL);
}

TT_MAIN
{
	getres();
	order();
	sleeps();
	tt_ok();
	return 0;
}
