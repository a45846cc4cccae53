// SPDX-License-Identifier: GPL-2.0
/*
 * mem_xmodify: cross-modifying code. One thread writes a small function
 * into a shared RWX page (POWER: dcbst/sync/icbi/isync through
 * __builtin___clear_cache), then publishes a round number with a release
 * store and a futex wake; the other thread waits for it (futex, no
 * spinning), serializes its instruction stream (x86 cpuid, POWER isync),
 * calls the function and hands the page back the same way. The code
 * alternates between two shapes (one and two instructions before the
 * return). 20 rounds main -> thread, then 10 rounds thread -> main.
 *
 * Catches: a tracer that caches instructions or their decoding per
 * address (or per thread), so a thread runs code another thread
 * replaced; or that copies an instruction out of line before the other
 * thread's write lands and runs the stale copy.
 */
#include "../tt.h"
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>

typedef int (*fn_t)(void);

static unsigned char *page;
static int published, consumed;	/* futex words: round numbers */

static void emit(int imm, int two)
{
	unsigned char *p = page;
#if defined(__x86_64__)
	*p++ = 0xb8;				/* mov $imm32, %eax */
	memcpy(p, &imm, 4);
	p += 4;
	if (two) {
		*p++ = 0x83;			/* add $1, %eax */
		*p++ = 0xc0;
		*p++ = 0x01;
	}
	*p++ = 0xc3;				/* ret */
#elif defined(__powerpc64__)
	uint32_t insn[3];
	int n = 0;

	insn[n++] = 0x38600000u | (imm & 0xffff);	/* li r3, imm */
	if (two)
		insn[n++] = 0x38630001u;		/* addi r3, r3, 1 */
	insn[n++] = 0x4e800020u;			/* blr */
	memcpy(p, insn, n * 4);
	p += n * 4;
#endif
	__builtin___clear_cache((char *)page, (char *)p);
}

static void serialize(void)
{
#if defined(__x86_64__)
	unsigned int a = 0, b, c = 0, d;

	asm volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) : : "memory");
#elif defined(__powerpc64__)
	asm volatile("isync" : : : "memory");
#endif
}

static void post(int *w, int v)
{
	__atomic_store_n(w, v, __ATOMIC_RELEASE);
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void await(int *w, int v)
{
	int cur;

	while ((cur = __atomic_load_n(w, __ATOMIC_ACQUIRE)) != v)
		syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, cur, NULL, NULL, 0);
}

/* the writer's side of round r: code returning VALUE(r) */
#define VALUE(r)	(100 * (r) + ((r) % 2))

static void write_round(int r)
{
	await(&consumed, r - 1);		/* the page is ours */
	emit(100 * r, r % 2);
	post(&published, r);
}

static int run_round(int r)
{
	int v;

	await(&published, r);
	serialize();
	v = ((fn_t)(uintptr_t)page)();
	post(&consumed, r);
	return v;
}

static int wrong_thread, wrong_main;

static void *thread(void *arg)
{
	int r;

	(void)arg;
	for (r = 1; r <= 20; r++)
		wrong_thread += run_round(r) != VALUE(r);
	for (r = 21; r <= 30; r++)
		write_round(r);
	return NULL;
}

TT_MAIN
{
	pthread_t t;
	int r;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tt_check(page != MAP_FAILED);
	tt_check(pthread_create(&t, NULL, thread, NULL) == 0);
	for (r = 1; r <= 20; r++)
		write_round(r);
	for (r = 21; r <= 30; r++)
		wrong_main += run_round(r) != VALUE(r);
	tt_check(pthread_join(t, NULL) == 0);
	tt_say("main wrote, thread ran: 20 rounds, stale results %d\n",
	       wrong_thread);
	tt_say("thread wrote, main ran: 10 rounds, stale results %d\n",
	       wrong_main);
	tt_check(!wrong_thread && !wrong_main);
	tt_ok();
	return 0;
}
