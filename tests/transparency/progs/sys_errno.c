// SPDX-License-Identifier: GPL-2.0
/*
 * sys_errno: system calls that fail, each with the right errno and no
 * signal: bad fds (EBADF), bad user pointers the kernel must not fault
 * on (EFAULT: an unmapped address, a PROT_NONE page, the read-only text
 * as a read() buffer, a bad struct pointer), unknown system call
 * numbers (ENOSYS), bad arguments (EINVAL, ENOTTY, ESRCH, ENOENT), and
 * the raw error conventions: x86 `syscall` returns -EFAULT in rax;
 * POWER `sc` sets cr0.SO with EFAULT in r3, and `scv 0` (where AT_HWCAP2
 * offers it) returns -EFAULT. SIGSEGV/SIGBUS/SIGSYS handlers count any
 * signal; there must be none.
 *
 * Catches: a tracer that treats a kernel-side fault on a user pointer as
 * the program's fault (a signal, a kill), that copies user memory the
 * call names and faults itself, or that disturbs the error return of an
 * unknown or failing system call.
 */
#include "../tt.h"
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <termios.h>
#include <time.h>

static volatile int signals;
static char *volatile bad = (char *)16;	/* unmapped, hidden from gcc */

static void on_sig(int sig)
{
	(void)sig;
	signals++;
}

static const char *name(int e)
{
	switch (e) {
	case 0: return "none";
	case EBADF: return "EBADF";
	case EFAULT: return "EFAULT";
	case ENOSYS: return "ENOSYS";
	case EINVAL: return "EINVAL";
	case ENOTTY: return "ENOTTY";
	case ESRCH: return "ESRCH";
	case ENOENT: return "ENOENT";
	default: return "other";
	}
}

/* R the call's result: report and check -1 with errno WANT */
#define EXPECT(what, r, want) do {					\
	long __r = (long)(r);						\
	int __e = __r == -1 ? errno : 0;				\
	tt_say("%s: %s\n", what, name(__e));				\
	tt_check(__r == -1 && __e == (want));				\
} while (0)

#if defined(__x86_64__)
static void raw(void)
{
	long r;

	asm volatile("syscall"
		     : "=a"(r)
		     : "0"((long)SYS_write), "D"(1L), "S"(bad), "d"(5L)
		     : "rcx", "r11", "memory");
	tt_say("raw syscall write from a bad pointer: rax -EFAULT: %s\n",
	       r == -EFAULT ? "yes" : "no");
	tt_check(r == -EFAULT);
}
#elif defined(__powerpc64__)
#ifndef PPC_FEATURE2_SCV
#define PPC_FEATURE2_SCV	0x00100000
#endif
static void raw(void)
{
	register long r0 asm("r0");
	register long r3 asm("r3");
	register long r4 asm("r4");
	register long r5 asm("r5");
	unsigned long cr;

	r0 = SYS_write;
	r3 = 1;
	r4 = (long)bad;
	r5 = 5;
	asm volatile("sc\n\t"
		     "mfcr %4"
		     : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5), "=r"(cr)
		     :
		     : "r6", "r7", "r8", "r9", "r10", "r11", "r12", "cr0",
		       "ctr", "xer", "memory");
	tt_say("raw sc write from a bad pointer: cr0.SO set and r3 EFAULT: %s\n",
	       (cr & 0x10000000) && r3 == EFAULT ? "yes" : "no");
	tt_check((cr & 0x10000000) && r3 == EFAULT);
	if (!(getauxval(AT_HWCAP2) & PPC_FEATURE2_SCV)) {
		tt_say("scv: not available\n");
		return;
	}
	r0 = SYS_write;
	r3 = 1;
	r4 = (long)bad;
	r5 = 5;
	asm volatile(".machine push\n\t"
		     ".machine power9\n\t"
		     "scv 0\n\t"
		     ".machine pop"
		     : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
		     :
		     : "r6", "r7", "r8", "r9", "r10", "r11", "r12", "lr",
		       "ctr", "xer", "cr0", "cr1", "cr5", "cr6", "cr7",
		       "memory");
	tt_say("raw scv write from a bad pointer: r3 -EFAULT: %s\n",
	       r3 == -EFAULT ? "yes" : "no");
	tt_check(r3 == -EFAULT);
}
#endif

TT_MAIN
{
	struct sigaction sa;
	struct timespec ts = { 0, 2000000000L };
	struct termios tio;
	long ps = sysconf(_SC_PAGESIZE);
	char *none;
	int p[2];

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGSEGV, &sa, NULL));
	tt_sys(sigaction(SIGBUS, &sa, NULL));
	tt_sys(sigaction(SIGSYS, &sa, NULL));
	tt_sys(pipe(p));
	tt_check(write(p[1], "0123456789", 10) == 10);
	none = mmap(NULL, ps, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tt_check(none != MAP_FAILED);

	EXPECT("read fd -1", read(-1, &ps, 1), EBADF);
	EXPECT("write fd 999", write(999, "x", 1), EBADF);
	EXPECT("write from an unmapped address", write(p[1], bad, 4), EFAULT);
	EXPECT("write from a PROT_NONE page", write(p[1], none, 4), EFAULT);
	EXPECT("read into an unmapped address", read(p[0], bad, 1), EFAULT);
	EXPECT("read into the read-only text",
	       read(p[0], (void *)(uintptr_t)&on_sig, 1), EFAULT);
	EXPECT("open of a bad path pointer", open(bad, O_RDONLY), EFAULT);
	EXPECT("clock_gettime to a bad pointer",
	       syscall(SYS_clock_gettime, CLOCK_MONOTONIC, bad), EFAULT);
	EXPECT("writev with a bad iovec array",
	       writev(p[1], (struct iovec *)bad, 2), EFAULT);
	EXPECT("system call 1000", syscall(1000), ENOSYS);
	EXPECT("system call 0x7ffffff", syscall(0x7ffffff), ENOSYS);
	EXPECT("nanosleep with 2e9 ns", nanosleep(&ts, NULL), EINVAL);
	EXPECT("clock_gettime of clock 1000",
	       syscall(SYS_clock_gettime, 1000, &ts), EINVAL);
	EXPECT("munmap unaligned", munmap((char *)none + 1, ps), EINVAL);
	EXPECT("ioctl TCGETS on a pipe",
	       ioctl(p[0], TCGETS, &tio), ENOTTY);
	EXPECT("kill of pid 0x3ffffff", kill(0x3ffffff, 0), ESRCH);
	EXPECT("unlink of a missing file", unlink("/tmp/tt_none/x"), ENOENT);
	raw();

	/* the pipe's data untouched by the failed reads */
	tt_check(read(p[0], (char [16]){ 0 }, 16) == 10);
	tt_say("signals: %d\n", signals);
	tt_check(signals == 0);
	tt_ok();
	return 0;
}
