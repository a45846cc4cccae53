// SPDX-License-Identifier: GPL-2.0
/*
 * mem_memfd_jit: the dual-mapping JIT pattern. A memfd is mapped twice,
 * MAP_SHARED: a RW view and an RX view of the same page. Each of 20
 * rounds writes a function through the RW view only (x86: mov $imm,
 * %eax; ret; POWER: li r3, imm; blr; cache flushed on both addresses)
 * and calls it through the RX view; every 5th round the RX view is
 * unmapped and mapped again (possibly elsewhere). Also the code written
 * before a fork runs in the child through its inherited RX view.
 *
 * Catches: a tracer that reads code through the address it runs at and
 * caches it (or decodes it) there, so a write made through another
 * address of the same page leaves it running stale code; or one that
 * writes to a shared file page it believes private.
 */
#include "../tt.h"
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>

#ifndef MFD_EXEC
#define MFD_EXEC	0x0010U
#endif

typedef int (*fn_t)(void);

static void emit(unsigned char *rw, unsigned char *rx, int imm)
{
#if defined(__x86_64__)
	rw[0] = 0xb8;				/* mov $imm32, %eax */
	memcpy(rw + 1, &imm, 4);
	rw[5] = 0xc3;				/* ret */
#elif defined(__powerpc64__)
	uint32_t insn[2] = {
		0x38600000u | (imm & 0xffff),	/* li r3, imm */
		0x4e800020u,			/* blr */
	};

	memcpy(rw, insn, sizeof(insn));
#endif
	__builtin___clear_cache((char *)rw, (char *)rw + 8);
	__builtin___clear_cache((char *)rx, (char *)rx + 8);
}

static unsigned char *view(int fd, long ps, int prot)
{
	unsigned char *p = mmap(NULL, ps, prot, MAP_SHARED, fd, 0);

	tt_check(p != MAP_FAILED);
	return p;
}

TT_MAIN
{
	long ps = sysconf(_SC_PAGESIZE), sum = 0;
	unsigned char *rw, *rx;
	int fd, i, status, stale = 0;
	pid_t pid;

	/* 6.3+ wants MFD_EXEC said; older kernels refuse the flag */
	fd = memfd_create("tt_jit", MFD_EXEC);
	if (fd < 0 && errno == EINVAL)
		fd = memfd_create("tt_jit", 0);
	tt_check(fd >= 0);
	tt_sys(ftruncate(fd, ps));
	rw = view(fd, ps, PROT_READ | PROT_WRITE);
	rx = view(fd, ps, PROT_READ | PROT_EXEC);
	tt_check(rw != rx);
	for (i = 0; i < 20; i++) {
		int v;

		if (i && i % 5 == 0) {
			tt_sys(munmap(rx, ps));
			rx = view(fd, ps, PROT_READ | PROT_EXEC);
		}
		emit(rw, rx, 300 + i);
		v = ((fn_t)(uintptr_t)rx)();
		stale += v != 300 + i;
		sum += v;
	}
	tt_say("written through RW, run through RX: 20 rounds, sum %ld, "
	       "stale %d\n", sum, stale);
	tt_check(sum == 6190 && !stale);

	emit(rw, rx, 41);
	pid = tt_sys(fork());
	if (pid == 0)
		_exit(((fn_t)(uintptr_t)rx)());
	tt_sys(waitpid(pid, &status, 0));
	tt_say("forked child ran the shared code: exit %d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 41);
	tt_ok();
	return 0;
}
