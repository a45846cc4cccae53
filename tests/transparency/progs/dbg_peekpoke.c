// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_peekpoke: a debugger reads and writes the program's memory. The
 * child (PTRACE_TRACEME, raise(SIGSTOP)) holds an array of 16 words
 * (i * i) and a string; the parent reads every word with
 * PTRACE_PEEKDATA and checks it against its own copy, writes 1000 + i
 * over each with PTRACE_POKEDATA, rewrites the string through
 * /proc/PID/mem (pread/pwrite), checks that a PEEKDATA of address 0
 * fails with EIO, and reads the child's flags with PTRACE_PEEKUSER: no
 * step bit (x86 TF, POWER MSR_SE/BE) is set in a task stopped by
 * SIGSTOP. After PTRACE_CONT the child prints its new sum and string and
 * exits 0.
 *
 * Catches: a tracer whose own accesses to the traced task's memory
 * (instruction fetches, emulation) disturb or race a debugger's, or a
 * stopped task resuming with stale data (written back registers or
 * cached copies overriding the debugger's writes), or its step bit
 * showing in the registers a debugger reads.
 */
#include "../tt_dbg.h"
#include <fcntl.h>
#include <stddef.h>

#if defined(__x86_64__)
#define FLAGS_OFF	offsetof(struct user, regs.eflags)
#define STEP_BITS	0x100UL			/* TF */
#define STEP_NAME	"flags TF"
#elif defined(__powerpc64__)
#include <asm/ptrace.h>
#define FLAGS_OFF	(PT_MSR * sizeof(long))
#define STEP_BITS	0x600UL			/* MSR_SE | MSR_BE */
#define STEP_NAME	"msr SE/BE"
#endif

#define N	16

static long data[N];
static char text[32] = "original text";

static void child(void)
{
	long sum = 0;
	int i;

	for (i = 0; i < N; i++)
		data[i] = (long)i * i;
	tt_traceme();
	for (i = 0; i < N; i++)
		sum += data[i];
	tt_say("child: sum %ld, text \"%s\"\n", sum, text);
	_exit(0);
}

TT_MAIN
{
	static const char new_text[] = "poked through /proc/pid/mem";
	int status, i, peek_ok = 1, fd;
	char path[64], back[32];
	long w, flags;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0)
		child();
	tt_wait_stop(pid, SIGSTOP);
	for (i = 0; i < N; i++) {
		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, pid, &data[i], NULL);
		if (errno || w != (long)i * i)
			peek_ok = 0;
		tt_sys(ptrace(PTRACE_POKEDATA, pid, &data[i],
			      (void *)(1000L + i)));
	}
	tt_say("parent: PEEKDATA saw i*i in all %d words: %s\n", N,
	       peek_ok ? "yes" : "no");
	errno = 0;
	w = ptrace(PTRACE_PEEKDATA, pid, NULL, NULL);
	tt_say("parent: PEEKDATA of address 0: %ld, %s\n", w,
	       errno == EIO ? "EIO" : "not EIO");
	tt_check(w == -1 && errno == EIO);
	errno = 0;
	flags = ptrace(PTRACE_PEEKUSER, pid, (void *)FLAGS_OFF, NULL);
	tt_check(errno == 0);
	tt_say("parent: PEEKUSER %s: %s\n", STEP_NAME,
	       flags & STEP_BITS ? "set" : "clear");

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = tt_sys(open(path, O_RDWR));
	tt_check(pread(fd, back, sizeof(back), (long)text) == sizeof(back));
	tt_say("parent: /proc/pid/mem read \"%s\"\n", back);
	tt_check(pwrite(fd, new_text, sizeof(new_text), (long)text) ==
		 sizeof(new_text));
	close(fd);
	/* the parent's own copy is untouched */
	tt_check(!strcmp(text, "original text") && data[3] == 0);

	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("parent: child", status);
	tt_check(peek_ok);
	tt_check(!(flags & STEP_BITS));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
