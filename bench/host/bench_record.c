// SPDX-License-Identifier: GPL-2.0
/*
 * Host microbenchmark of the trap path's per-record work, built from the
 * module's own sources: decode (x86: the per-CPU memo, insn_cache.h,
 * over the full decoder; powerpc: the classifier), classify the step
 * (step_kind.h), filter by kind, append to a 65536-record ring (ring.h)
 * with a global sequence number taken by an atomic add, as log.c does.
 * Reading user memory is left out (kernel only): the bytes come from a
 * buffer.
 *
 * bench_record x86|ppc TEXT hot|cold|nolog RECORDS [REPEAT]
 *	TEXT: a raw .text section. hot: the first 32 instructions over and
 *	over (a loop: every x86 decode is a memo hit); cold: all of TEXT
 *	in order, again and again (the memo nearly always misses); nolog:
 *	hot, with a kind filter that logs nothing (what the ring append
 *	costs is the difference). Prints "ns/record N" per step (the best
 *	of REPEAT timed runs, default 5; REPEAT 1 for callgrind).
 */
#include <stdlib.h>
#include <time.h>
#include "arch/x86/lib/insn_cache.h"
#include "arch/x86/lib/step_kind.h"
#include "arch/powerpc/lib/step_kind.h"
#include "lib/kind.h"
#include "lib/ring.h"

#define RING_RECORDS	65536
#define HOT		32

/* One step of the replayed trace: the instruction at ip ran, then to. */
struct step {
	u64 ip;
	u64 to;
};

static u8 *text;
static size_t text_len;
static struct step *steps;
static size_t nsteps;

static struct itrace_x86_dcache dcache[ITRACE_X86_DCACHE];
static struct itrace_rec ring_store[RING_RECORDS];
static struct itrace_ring ring;
static u64 next_seq;

/* What the slot of the traced task holds for the record path. */
static struct {
	u16 emit_kinds;
	u32 pid;
	u8 idx;
	u16 gen;
	u64 records;
} slot = { ITRACE_KINDS_ALL, 42, 3, 1, 0 };

/*
 * log.c's itrace_emit() and itrace_emit_rec(), with a host atomic, and
 * the seq for the clock (the kernel's fast monotonic read is its own
 * cost, measured in the VM: `make bench`).
 */
static inline void emit(unsigned int kind, u64 from, u64 to)
{
	struct itrace_rec *r;
	u64 seq;

	if (!(slot.emit_kinds & (1u << kind)))
		return;
	seq = __atomic_add_fetch(&next_seq, 1, __ATOMIC_RELAXED);
	r = itrace_ring_begin(&ring);
	r->from = from;
	r->to = to;
	r->ns = seq;
	r->pid = slot.pid;
	r->kind = kind;
	r->nval = 0;
	r->slot = slot.idx;
	r->gen = slot.gen;
	itrace_ring_commit(r, seq);
	slot.records++;
}

static inline u64 word_at(u64 off)
{
	u64 w;

	memcpy(&w, text + off, sizeof(w));
	return w;
}

/* The x86 trap path from fetched bytes to record (trap.c, log_step). */
static __attribute__((noinline)) void run_x86(u64 n)
{
	struct itrace_x86_insn d;
	size_t i = 0;

	while (n--) {
		const struct step *st = &steps[i];

		if (++i == nsteps)
			i = 0;
		if (itrace_x86_decode_cached(dcache, st->ip, word_at(st->ip),
					     word_at(st->ip + 8),
					     ITRACE_X86_MODE64, &d))
			continue;
		emit(itrace_x86_step_kind(&d, st->ip, st->to), st->ip, st->to);
	}
}

/* The powerpc single-step path (trap.c, log_step). */
static __attribute__((noinline)) void run_ppc(u64 n)
{
	struct itrace_ppc_insn d;
	size_t i = 0;
	u32 w, next;

	while (n--) {
		const struct step *st = &steps[i];

		if (++i == nsteps)
			i = 0;
		memcpy(&w, text + st->ip, 4);
		memcpy(&next, text + st->ip + 4, 4);
		if (itrace_ppc_classify(w, next, &d))
			continue;
		emit(itrace_ppc_step_kind(&d, st->ip, st->to), st->ip, st->to);
	}
}

/*
 * A linear sweep of the text, with a plausible successor for each
 * instruction: the next one, a direct branch's target (every other
 * conditional one taken), a return or indirect jump somewhere else.
 */
static void sweep_x86(size_t max)
{
	struct itrace_x86_insn d;
	u64 ip = 0, to;
	int taken = 0;

	while (ip + 16 <= text_len && nsteps < max) {
		if (itrace_x86_decode(text + ip, 16, ITRACE_X86_MODE64, &d)) {
			ip++;
			continue;
		}
		to = ip + d.len;
		if (d.has_rel && (d.kind != ITRACE_K_JCC || (taken ^= 1)))
			to += d.rel;
		else if (d.kind != ITRACE_K_INSN && d.kind != ITRACE_K_JCC)
			to += 64;
		steps[nsteps].ip = ip;
		steps[nsteps++].to = to;
		ip += d.len;
	}
}

static void sweep_ppc(size_t max)
{
	struct itrace_ppc_insn d;
	u64 ip = 0, to;
	int taken = 0;
	u32 w, next;

	for (; ip + 8 <= text_len && nsteps < max; ip += 4) {
		memcpy(&w, text + ip, 4);
		memcpy(&next, text + ip + 4, 4);
		if (itrace_ppc_classify(w, next, &d) || d.kind == ITRACE_K_SYSCALL)
			continue;
		to = ip + d.len;
		if (d.kind != ITRACE_K_INSN && d.kind != ITRACE_K_INT &&
		    (!d.cond || (taken ^= 1)))
			to = d.direct ? itrace_ppc_target(ip, &d) : ip + 64;
		steps[nsteps].ip = ip;
		steps[nsteps++].to = to;
		if (d.len == 8)
			ip += 4;
	}
}

static u64 now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

int main(int argc, char **argv)
{
	int x86, repeat, r;
	u64 n, best = ~0ull, t;
	size_t cap;
	FILE *f;

	if (argc < 5 || argc > 6 || (strcmp(argv[1], "x86") && strcmp(argv[1], "ppc")) ||
	    (strcmp(argv[3], "hot") && strcmp(argv[3], "cold") &&
	     strcmp(argv[3], "nolog"))) {
		fprintf(stderr, "usage: bench_record x86|ppc TEXT hot|cold|nolog RECORDS [REPEAT]\n");
		return 2;
	}
	if (!strcmp(argv[3], "nolog"))
		slot.emit_kinds = 0;
	x86 = !strcmp(argv[1], "x86");
	n = strtoull(argv[4], NULL, 0);
	repeat = argc == 6 ? atoi(argv[5]) : 5;
	f = fopen(argv[2], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (long)(text_len = ftell(f)) <= 0) {
		perror(argv[2]);
		return 2;
	}
	rewind(f);
	text = calloc(1, text_len + 16);
	cap = text_len / 2 + 1;
	steps = calloc(cap, sizeof(*steps));
	if (!text || !steps || fread(text, 1, text_len, f) != text_len) {
		perror(argv[2]);
		return 2;
	}
	fclose(f);
	if (x86)
		sweep_x86(strcmp(argv[3], "cold") ? HOT : cap);
	else
		sweep_ppc(strcmp(argv[3], "cold") ? HOT : cap);
	itrace_ring_init(&ring, ring_store, RING_RECORDS, 0);
	for (r = 0; r < repeat; r++) {
		t = now_ns();
		if (x86)
			run_x86(n);
		else
			run_ppc(n);
		t = now_ns() - t;
		if (t < best)
			best = t;
	}
	printf("steps %zu, records %llu, ns/record %.2f\n", nsteps,
	       (unsigned long long)(slot.records / repeat),
	       (double)best / (double)n);
	return 0;
}
