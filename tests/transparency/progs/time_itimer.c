// SPDX-License-Identifier: GPL-2.0
/*
 * time_itimer: the three interval timers, each with a 1 ms interval:
 * ITIMER_REAL (SIGALRM, waited for in sigsuspend), ITIMER_PROF
 * (SIGPROF, user+system time: a loop of getppid() calls) and
 * ITIMER_VIRTUAL (SIGVTALRM, user time only: a pure user loop). Each
 * runs until its handler has counted its ticks (5 for REAL, 2 for the
 * CPU-time ones: their busy loops are bounded by time, not by a count,
 * and cost a tick of CPU each with tick-based accounting), then is
 * disarmed; prints only that each reached its count.
 *
 * Catches: timer signals lost, doubled or held back while the task is
 * traced; cputime accounting broken by the tracer (PROF never firing).
 * Note: under a tracer whose steps run in the kernel, little of the
 * time is user time, so the VIRTUAL part can take a while to reach 2
 * (with tick-based accounting, a few seconds): slow, not wrong.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/syscall.h>
#include <sys/time.h>

#define TICKS	5	/* SIGALRM */
#define CPU_TICKS	2	/* SIGPROF, SIGVTALRM */

static volatile int alrm, prof, vt;

static void on_sig(int sig)
{
	if (sig == SIGALRM)
		alrm++;
	else if (sig == SIGPROF)
		prof++;
	else if (sig == SIGVTALRM)
		vt++;
}

static void arm(int which, int on)
{
	struct itimerval it = { { 0, on ? 1000 : 0 }, { 0, on ? 1000 : 0 } };

	tt_sys(setitimer(which, &it, NULL));
}

TT_MAIN
{
	struct sigaction sa;
	sigset_t alrm_set, old;
	volatile unsigned long spin = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGALRM, &sa, NULL));
	tt_sys(sigaction(SIGPROF, &sa, NULL));
	tt_sys(sigaction(SIGVTALRM, &sa, NULL));

	sigemptyset(&alrm_set);
	sigaddset(&alrm_set, SIGALRM);
	tt_sys(sigprocmask(SIG_BLOCK, &alrm_set, &old));
	arm(ITIMER_REAL, 1);
	while (alrm < TICKS)
		sigsuspend(&old);
	arm(ITIMER_REAL, 0);
	tt_sys(sigprocmask(SIG_SETMASK, &old, NULL));
	tt_say("ITIMER_REAL: reached %d SIGALRM: %s\n", TICKS,
	       alrm >= TICKS ? "yes" : "no");

	arm(ITIMER_PROF, 1);
	while (prof < CPU_TICKS)
		syscall(SYS_getppid);
	arm(ITIMER_PROF, 0);
	tt_say("ITIMER_PROF: reached %d SIGPROF: %s\n", CPU_TICKS,
	       prof >= CPU_TICKS ? "yes" : "no");

	arm(ITIMER_VIRTUAL, 1);
	while (vt < CPU_TICKS)
		spin++;
	arm(ITIMER_VIRTUAL, 0);
	tt_say("ITIMER_VIRTUAL: reached %d SIGVTALRM: %s\n", CPU_TICKS,
	       vt >= CPU_TICKS ? "yes" : "no");
	tt_ok();
	return 0;
}
