// SPDX-License-Identifier: GPL-2.0
/*
 * rseq_basic: restartable sequences' shared area. glibc (2.35+)
 * registers one per thread (__rseq_offset from the thread pointer,
 * __rseq_size); if it did not, the program registers its own with the
 * rseq system call. It then reads cpu_id_start and cpu_id 100 times:
 * each must be a valid cpu number, and they must agree with getcpu()
 * at some read (a migration in between is allowed for). Prints only
 * that all held (or a fixed line where rseq doesn't exist).
 *
 * Catches: a tracer that makes the kernel stop updating the area (or
 * write garbage in it) at the returns to user space it causes, or that
 * trips the kernel's rseq checks (a task killed with SIGSEGV on return
 * from a step because the area looks inconsistent).
 */
#include "../tt_rseq.h"
#include <sched.h>
#include <stdint.h>

static struct rseq own __attribute__((aligned(32)));

TT_MAIN
{
	volatile struct rseq *rs;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int i, bad = 0, agreed = 0;

	if (__rseq_size > 0) {
		rs = tt_rseq_area();
	} else {
		if (tt_rseq(&own, sizeof(own), 0, RSEQ_SIG)) {
			tt_say("rseq: not available\n");
			tt_ok();
			return 0;
		}
		rs = &own;
	}
	for (i = 0; i < 100; i++) {
		uint32_t start = rs->cpu_id_start;
		int32_t id = (int32_t)rs->cpu_id;

		if (start >= ncpu || id < 0 || id >= ncpu)
			bad++;
		if (!agreed && id == sched_getcpu() &&
		    (int32_t)rs->cpu_id == id)
			agreed = 1;
	}
	tt_say("rseq: registered; cpu ids valid: %s, agree with getcpu: %s\n",
	       bad ? "no" : "yes", agreed ? "yes" : "no");
	tt_check(!bad && agreed);
	tt_ok();
	return 0;
}
