// SPDX-License-Identifier: GPL-2.0
/*
 * sig_bus: SIGBUS from a shared mapping of a file in /tmp that was
 * truncated under it. The file has 2 pages, mapped; it is cut to 1 page;
 * 5 loads and 5 stores into the second page each raise SIGBUS
 * (BUS_ADRERR, si_addr the byte touched), and the handler leaves by
 * siglongjmp. The first page still works; after ftruncate back to 2
 * pages the second reads zeros and takes a store. Counts printed.
 *
 * Catches: a tracer that turns a page-cache SIGBUS taken during a step
 * into another signal or an endless retry, reports a wrong address, or
 * breaks the siglongjmp out of the handler (mask not restored: the
 * second SIGBUS would then kill the program).
 */
#include "../tt.h"
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>

static sigjmp_buf env;
static volatile int buses, bad_addr, bad_code;
static volatile char *expect;

static void on_bus(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	buses++;
	if (si->si_addr != (void *)expect)
		bad_addr++;
	if (si->si_code != BUS_ADRERR)
		bad_code++;
	siglongjmp(env, 1);
}

TT_MAIN
{
	char path[] = "/tmp/sig_bus.XXXXXX";
	volatile int i, loads = 0, stores = 0;
	volatile char *p;
	long pg = sysconf(_SC_PAGESIZE);
	int fd;

	tt_handle(SIGBUS, on_bus, 0);

	fd = tt_sys(mkstemp(path));
	tt_sys(unlink(path));
	tt_sys(ftruncate(fd, 2 * pg));
	p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	tt_check(p != MAP_FAILED);
	p[0] = 'a';
	p[pg] = 'b';
	tt_sys(ftruncate(fd, pg));

	for (i = 0; i < 10; i++) {
		expect = p + pg + 8 * i;
		if (sigsetjmp(env, 1))
			continue;
		if (i % 2)
			*expect = 'x';
		else
			(void)*expect;
		if (i % 2)
			stores++;
		else
			loads++;
	}
	tt_say("beyond the end: %d SIGBUS, %d loads and %d stores got through\n",
	       buses, loads, stores);
	tt_say("wrong si_addr: %d, wrong si_code: %d\n", bad_addr, bad_code);
	tt_check(buses == 10 && !loads && !stores && !bad_addr && !bad_code);
	tt_say("first page kept: %c\n", p[0]);
	tt_check(p[0] == 'a');

	tt_sys(ftruncate(fd, 2 * pg));
	tt_say("grown back: second page reads %d\n", p[pg]);
	tt_check(p[pg] == 0);
	p[pg] = 'c';
	tt_check(p[pg] == 'c' && buses == 10);
	tt_sys(munmap((void *)p, 2 * pg));
	close(fd);
	tt_ok();
	return 0;
}
