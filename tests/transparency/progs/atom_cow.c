// SPDX-License-Identifier: GPL-2.0
/*
 * atom_cow: atomics on pages that are not simply there and writable.
 * After a fork, parent and child each do 40 atomic adds (fetch_add and
 * a compare-and-swap loop) on a private page the parent wrote before
 * the fork (copy-on-write: the first atomic store breaks the sharing),
 * on a fresh anonymous page neither touched yet (the first atomic
 * faults it in), on a MAP_SHARED anonymous page and a MAP_SHARED memfd
 * page both add to at once, and on a MAP_PRIVATE mapping of the memfd
 * (a private copy: the file keeps its value). The child reports and
 * exits first; the private counts are each process's own (140, 40),
 * the shared ones the sum of both (80).
 *
 * Catches: a tracer whose handling of an atomic (POWER: an emulated
 * larx..stcx. window, which cannot take a page fault in its trap and
 * has to fault the page in and retry) gets copy-on-write or first-touch
 * pages wrong: a store into the page still shared with the other
 * process, a lost add, or a window retried forever.
 */
#include "../tt.h"
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define ADDS	40

static uint32_t *cow, *fresh, *shanon, *shfile, *privfile;
static int memfd;

static void cas_add(uint32_t *p)
{
	uint32_t o = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (!__atomic_compare_exchange_n(p, &o, o + 1, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED))
		;
}

static void adds(void)
{
	int i;

	for (i = 0; i < ADDS; i++) {
		uint32_t *q[] = { cow, fresh, shanon, shfile, privfile };
		int k;

		for (k = 0; k < 5; k++) {
			if (i & 1)
				cas_add(q[k]);
			else
				__atomic_fetch_add(q[k], 1, __ATOMIC_SEQ_CST);
		}
	}
}

static int report(const char *who)
{
	uint32_t infile = 0;

	tt_check(pread(memfd, &infile, 4, 0) == 4);
	tt_say("%s: copy-on-write %u, fresh %u, memfd private %u (file still %u)\n",
	       who, *cow, *fresh, *privfile, infile);
	return *cow == 100 + ADDS && *fresh == ADDS &&
	       *privfile == 7 + ADDS && infile == 7;
}

static void *map(int flags, int fd)
{
	void *p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, flags, fd, 0);

	tt_check(p != MAP_FAILED);
	return p;
}

TT_MAIN
{
	uint32_t seven = 7;
	int status;
	pid_t pid;

	memfd = syscall(SYS_memfd_create, "tt", 0);
	tt_check(memfd >= 0);
	tt_sys(ftruncate(memfd, 65536));
	tt_check(pwrite(memfd, &seven, 4, 0) == 4);
	cow = map(MAP_PRIVATE | MAP_ANONYMOUS, -1);
	fresh = map(MAP_PRIVATE | MAP_ANONYMOUS, -1);
	shanon = map(MAP_SHARED | MAP_ANONYMOUS, -1);
	shfile = (uint32_t *)map(MAP_SHARED, memfd) + 16;
	privfile = map(MAP_PRIVATE, memfd);
	*cow = 100;

	pid = tt_sys(fork());
	if (pid == 0) {
		adds();
		_exit(report("child") ? 0 : 1);
	}
	adds();
	tt_sys(waitpid(pid, &status, 0));
	tt_check(report("parent"));
	tt_say("child status %d; shared: anonymous %u, memfd %u\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1, *shanon, *shfile);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_check(*shanon == 2 * ADDS && *shfile == 2 * ADDS);
	tt_ok();
	return 0;
}
