/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Race windows held open on purpose, for the VM tests that show a race
 * is closed (tests/vm/races.exp): each hook is a named point on a path
 * whose fix guards a window too short to hit by chance. Built in only
 * with ITRACE_TEST_HOOKS=1 (the debug kernels' module, prepare.sh); in
 * every other build each hook is an empty inline and there are no
 * parameters.
 *
 * With the hooks: writing a point's number to the parameter test_hook
 * and a time to test_hook_ms arms it once; the next pass there logs
 * "test hook NAME: N ms" and waits that long, then the hook is unarmed.
 * The wait sleeps where the path may sleep, and spins where the point
 * is about a task being preempted rather than sleeping (a voluntary
 * sleep is a quiescent state for RCU-tasks, which would hide the race).
 */
#ifndef _ITRACE_TESTHOOK_H
#define _ITRACE_TESTHOOK_H

enum itrace_test_point {
	ITRACE_TEST_NONE,
	/* image.c: a file's table is about to be read (own context) */
	ITRACE_TEST_IMAGE_READ,
	/* work.c: a callback has put its module reference (spins) */
	ITRACE_TEST_WORK_DONE,
	/* rearm.c: the re-arm work starts (the task's own context) */
	ITRACE_TEST_REARM_WORK,
	ITRACE_TEST_NR
};

#ifdef ITRACE_TEST_HOOKS
void itrace_test_hook(enum itrace_test_point p);
#else
static inline void itrace_test_hook(enum itrace_test_point p)
{
}
#endif

#endif /* _ITRACE_TESTHOOK_H */
