// SPDX-License-Identifier: GPL-2.0
/*
 * x86 step-trap handling: recognise our #DB (DR6.BS in user mode), turn
 * "the task went from prev_ip to regs->ip" into branch-log records by
 * decoding the instruction at prev_ip, re-arm or disarm, and consume the
 * trap without letting exc_debug_user() raise SIGTRAP.
 *
 * Runs in the #DB notifier: IRQs off, no locks, no allocation; user
 * bytes are read without faulting pages in (fetch.c, copy_from_user_nmi).
 */
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <asm/debugreg.h>
#include <asm/unistd.h>
#include "core/arch_api.h"
#include "lib/kind.h"
#include "lib/block_scan.h"
#include "lib/insn_decode.h"
#include "lib/step_kind.h"
#include "x86.h"

/* After this many BTF traps that were plain steps, BTF is not honoured. */
#define BTF_MISS_LIMIT	3
/* Bound on the forward scan for a BTF trap's branch source. */
#define BTF_SCAN_MAX	256
/* Bound on untrapped instructions replayed after a syscall. */
#define SYSCALL_CHAIN_MAX	4

/* Step traps whose DR6 had been wiped; see itrace_arch_is_step_trap(). */
atomic_long_t itrace_x86_lost_dr6;

/*
 * DR6.BS marks a single-step trap, but a #DB with DR6 == 0 and TF set is
 * one too: when kdb's NMI round-up stops this CPU inside the #DB entry,
 * before debug_read_clear_dr6(), kgdb's hw_breakpoint_restore() rewrites
 * DR6 on the way out and the BS bit is gone. exc_debug_user() would take
 * that for an ICEBP and send SIGTRAP. The caller still requires the task
 * to be one we armed, and itrace_arch_step() rules out a real ICEBP.
 * A DR6 that hw_breakpoint emptied is no such case: it moved a ptrace
 * breakpoint's hit to virtual_dr6 (a hit of perf's alone ends the #DB
 * with NOTIFY_STOP before us).
 */
bool itrace_arch_is_step_trap(unsigned long val, void *data)
{
	struct die_args *a = data;
	unsigned long *dr6 = (unsigned long *)ERR_PTR(a->err);

	if (val != DIE_DEBUG || !user_mode(a->regs))
		return false;
	return (*dr6 & DR_STEP) ||
	       (!*dr6 && (a->regs->flags & X86_EFLAGS_TF) &&
		!(current->thread.virtual_dr6 & DR_TRAP_BITS));
}

bool itrace_arch_status(char *buf, size_t len)
{
	long n = atomic_long_read(&itrace_x86_lost_dr6);
	long p = atomic_long_read(&itrace_x86_pushf_missed);
	int f = atomic_read(&itrace_x86_sigrets);
	int w = 0;

	if (!n && !f && !p)
		return false;
	if (n)
		w += scnprintf(buf + w, len - w,
			       "%ld step trap%s had DR6 wiped by a kdb entry (recovered); ",
			       n, n == 1 ? "" : "s");
	if (p)
		w += scnprintf(buf + w, len - w,
			       "%ld pushf word%s kept our TF (not writable); ",
			       p, p == 1 ? "" : "s");
	if (f)
		w += scnprintf(buf + w, len - w,
			       "%d sigreturn%s in flight: module pinned until %s; ",
			       f, f == 1 ? "" : "s",
			       f == 1 ? "it returns" : "they return");
	if (w >= 2)
		buf[w - 2] = '\0';	/* the last "; " */
	return true;
}

/* The instruction at @ip is ICEBP (int1): its #DB has DR6 == 0 too. */
static bool is_icebp(unsigned long ip)
{
	u8 op;

	return !copy_from_user_nmi(&op, (const void __user *)ip, 1) &&
	       op == 0xf1;
}

/*
 * A syscall at @from (@d) ran, and the task is now at @to: TF is masked
 * on kernel entry and the IRET back only traps after the *next*
 * instruction, so replay that one (and any further syscalls) by
 * decoding forward.
 */
static noinline void log_syscalls(struct itrace_slot *s, struct pt_regs *regs,
				  unsigned long from, unsigned long to,
				  const struct itrace_x86_insn *d)
{
	struct itrace_x86_insn n;
	unsigned int kind;
	int chain;

	for (chain = 0; chain < SYSCALL_CHAIN_MAX; chain++) {
		if (d->kind != ITRACE_K_SYSCALL) {
			kind = itrace_x86_step_kind(d, from, to);
			if (kind != ITRACE_K_NR)
				itrace_emit(s, kind, from, to);
			return;
		}
		itrace_emit(s, ITRACE_K_SYSCALL, from, from + d->len);
		if (to == from + d->len)	/* restarted, or a signal came in */
			return;
		from += d->len;
		if (!itrace_x86_decode_user(&s->code, regs, from, &n))
			break;
		d = &n;
	}
	itrace_emit(s, ITRACE_K_ASYNC, from, to);
}

/*
 * Software stepping: the instruction @d at @from ran and the task is now
 * at @to.
 */
static void log_decoded(struct itrace_slot *s, struct pt_regs *regs,
			unsigned long from, unsigned long to,
			const struct itrace_x86_insn *d)
{
	unsigned int kind;

	if (unlikely(d->kind == ITRACE_K_SYSCALL)) {
		log_syscalls(s, regs, from, to, d);
		return;
	}
	kind = itrace_x86_step_kind(d, from, to);
	if (kind != ITRACE_K_NR)
		itrace_emit(s, kind, from, to);
}

/* The same, the instruction at @from not decoded yet. */
static noinline void log_step(struct itrace_slot *s, struct pt_regs *regs,
			      unsigned long from, unsigned long to)
{
	struct itrace_x86_insn d;

	if (itrace_x86_decode_user(&s->code, regs, from, &d))
		log_decoded(s, regs, from, to, &d);
	else
		itrace_emit(s, ITRACE_K_ASYNC, from, to);
}

/*
 * Our BTF ran the task from @from in a straight line (a branch would
 * have trapped; a syscall does not) until ptrace stopped it and dropped
 * BTF; a plain step since ran one more instruction and left the task
 * at @to. Log the line, then that step.
 */
static void log_line(struct itrace_slot *s, struct pt_regs *regs,
		     unsigned long from, unsigned long to)
{
	struct itrace_x86_insn d;
	unsigned int n;

	for (n = 0; n < BTF_SCAN_MAX &&
	     itrace_x86_decode_user(&s->code, regs, from, &d);
	     n++) {
		if ((d.kind != ITRACE_K_INSN && d.kind != ITRACE_K_SYSCALL) ||
		    from + d.len == to || from == to)
			break;
		itrace_emit(s, d.kind, from, from + d.len);
		from += d.len;
	}
	log_step(s, regs, from, to);
}

struct scan_ctx {
	struct itrace_slot *s;
	struct pt_regs *regs;
};

static unsigned int scan_fetch(void *ctx, u64 ip, u8 *buf, unsigned int len)
{
	return len - copy_from_user_nmi(buf, (const void __user *)ip, len);
}

static void scan_syscall(void *ctx, u64 ip, unsigned int len)
{
	struct scan_ctx *c = ctx;

	itrace_emit(c->s, ITRACE_K_SYSCALL, ip, ip + len);
}

/*
 * Hardware BTF trap: the task took a branch somewhere in the block that
 * began at @from and is now at its target @to. Syscalls passed on the
 * way are transparent under BTF but logged, so both block-mode flavours
 * give the same records. Returns false if the trap was a plain
 * single-step (BTF ignored).
 */
static bool log_block(struct itrace_slot *s, struct pt_regs *regs,
		      unsigned long from, unsigned long to)
{
	struct scan_ctx c = { s, regs };
	unsigned int kind;
	u64 src;

	switch (itrace_x86_block_source(scan_fetch, scan_syscall, &c,
					user_64bit_mode(regs) ?
					ITRACE_X86_MODE64 : ITRACE_X86_MODE32,
					from, to, BTF_SCAN_MAX, &src, &kind)) {
	case ITRACE_X86_SCAN_FOUND:
		itrace_emit(s, kind, src, to);
		return true;
	case ITRACE_X86_SCAN_STEP:
		return false;
	default:
		itrace_emit(s, ITRACE_K_ASYNC, from, to);
		return true;
	}
}

/*
 * A plain step, from where the last trap left the task or after a line;
 * @d: the instruction at prev_ip if already decoded.
 */
static void log_plain(struct itrace_slot *s, struct pt_regs *regs,
		      const struct itrace_x86_insn *d)
{
	if (s->arch.line)
		log_line(s, regs, s->prev_ip, regs->ip);
	else if (d)
		log_decoded(s, regs, s->prev_ip, regs->ip, d);
	else
		log_step(s, regs, s->prev_ip, regs->ip);
}

static void log_trap(struct itrace_slot *s, struct pt_regs *regs,
		     const struct itrace_x86_insn *d)
{
	if (!s->arch.btf) {
		log_plain(s, regs, d);
		return;
	}
	if (log_block(s, regs, s->prev_ip, regs->ip)) {
		s->arch.btf_miss = 0;
		return;
	}
	/* BTF stuck in the MSR but the CPU stepped anyway. */
	log_step(s, regs, s->prev_ip, regs->ip);
	if (++s->arch.btf_miss >= BTF_MISS_LIMIT)
		WRITE_ONCE(itrace_x86_btf_broken, true);
}

/*
 * Consume DR6.BS. exc_debug_user() already copied BS into virtual_dr6,
 * and ORs that back before deciding on SIGTRAP, so clear it there too.
 * Anything else pending is not ours: a ptrace breakpoint's hit (moved to
 * virtual_dr6 by hw_breakpoint) or a bus lock must reach the rest of
 * the #DB path. A DR_TRAPn bit still in DR6 is not pending, though:
 * hw_breakpoint leaves the bit of an execute breakpoint on the step's
 * target for the fault it raises again once we return (TF takes
 * precedence), and exc_debug_user() would turn that bit into a SIGTRAP
 * that kills the task. hw_breakpoint's own verdict (NOTIFY_STOP without
 * BS) ignores such bits the same way.
 */
static int consume(struct die_args *a)
{
	unsigned long *dr6 = (unsigned long *)ERR_PTR(a->err);

	*dr6 &= ~DR_STEP;
	current->thread.virtual_dr6 &= ~DR_STEP;
	if ((*dr6 & ~DR_TRAP_BITS) ||
	    (current->thread.virtual_dr6 & DR_TRAP_BITS))
		return NOTIFY_DONE;
	return NOTIFY_STOP;
}

/*
 * A step trap without DR6.BS is one whose DR6 was wiped, unless the
 * program ran an int1 of its own: false for that one, which is not a
 * step at all.
 */
static bool is_step(struct itrace_slot *s, struct die_args *a)
{
	unsigned long *dr6 = (unsigned long *)ERR_PTR(a->err);

	if (*dr6 & DR_STEP)
		return true;
	if (is_icebp(s->prev_ip))
		return false;
	atomic_long_inc(&itrace_x86_lost_dr6);
	return true;
}

/*
 * The instruction a single step ran, at prev_ip, decoded into the slot
 * (no stack copy for the kernel to zero on every trap); NULL for a
 * hardware block step, a straight line, or bytes that cannot be read.
 */
static const struct itrace_x86_insn *stepped(struct itrace_slot *s,
					     struct pt_regs *regs)
{
	if (s->arch.btf || s->arch.line ||
	    !itrace_x86_decode_user(&s->code, regs, s->prev_ip,
				    &s->arch.insn))
		return NULL;
	return &s->arch.insn;
}

/*
 * Nearly every step: the program has no TF of its own, no sigreturn is
 * in flight, and the instruction neither stores nor loads EFLAGS nor is
 * a system call (whose trap comes an instruction later). The rest, and
 * what the program's own TF means: sigframe.c.
 */
static __always_inline bool utf_step(struct itrace_slot *s,
				     struct pt_regs *regs,
				     const struct itrace_x86_insn *d)
{
	if (likely(!s->arch.utf && !s->arch.sigret && d &&
		   d->eflags == ITRACE_X86_EF_NONE &&
		   d->kind != ITRACE_K_SYSCALL))
		return false;
	return itrace_x86_utf_slow(s, regs, d);
}

/* Only a sigreturn's number in ax makes a step worth a closer look. */
static __always_inline void sigret_check(struct itrace_slot *s,
					 struct pt_regs *regs)
{
	unsigned long nr = regs->ax;

	if (unlikely(nr == __NR_rt_sigreturn ||
		     (u32)nr == ITRACE_NR_IA32_RT_SIGRETURN ||
		     (u32)nr == ITRACE_NR_IA32_SIGRETURN ||
		     nr == ITRACE_NR_X32_RT_SIGRETURN))
		itrace_x86_sigret_check(s, regs);
}

int itrace_arch_step(struct itrace_slot *s, void *data, bool log,
		     bool rearm)
{
	struct die_args *a = data;
	struct pt_regs *regs = a->regs;
	const struct itrace_x86_insn *d;
	bool theirs;

	/* no TF of ours set: the program's own, or a debugger's */
	if (!s->arch.tf && !s->arch.sigret)
		return NOTIFY_DONE;
	if (!is_step(s, a))
		return NOTIFY_DONE;
	s->steps++;
	d = stepped(s, regs);
	theirs = utf_step(s, regs, d);
	if (log)
		log_trap(s, regs, d);
	s->prev_ip = regs->ip;
	s->arch.line = false;
	if (rearm) {
		/* the #DB cleared BTF and TIF_BLOCKSTEP: set them again */
		regs->flags |= X86_EFLAGS_TF;
		s->arch.tf = true;
		s->arch.btf = itrace_x86_want_btf(s);
		if (s->arch.btf)
			itrace_x86_set_btf(true);
		sigret_check(s, regs);
	} else {
		itrace_x86_drop_tf(s, regs);
	}
	/* the program's own step: its SIGTRAP (DR6.BS stays for it) */
	if (theirs)
		return NOTIFY_DONE;
	return consume(a);
}

/*
 * A tracer's step is always a single step: enable_step() in
 * arch/x86/kernel/step.c turns PTRACE_SINGLEBLOCK into one when TF was
 * already ours, and itrace_arch_arm_current() does when the tracer came
 * first. BS stays in DR6 and virtual_dr6 for the tracer's SIGTRAP, TF
 * and BTF stay as ptrace wants them.
 */
int itrace_arch_foreign_step(struct itrace_slot *s, void *data, bool log)
{
	struct die_args *a = data;

	if (!is_step(s, a))
		return NOTIFY_DONE;
	s->steps++;
	if (log)
		log_plain(s, a->regs, NULL);
	s->prev_ip = a->regs->ip;
	s->arch.btf = false;
	s->arch.line = false;
	return NOTIFY_DONE;
}
