// SPDX-License-Identifier: GPL-2.0
/*
 * powerpc trace-interrupt handling: recognise our user-mode DIE_SSTEP,
 * turn "the task went from prev_ip to nip" into branch-log records by
 * classifying the instruction words in between, and set MSR_SE or
 * MSR_BE again (the interrupt cleared both before notifying).
 *
 * A larx..stcx. window must not trap: the interrupt return clears the
 * reservation (stdcx. in interrupt_64.S) and a stepped stcx. then always
 * fails, so the program retries forever. When the next instruction is a
 * larx, the window runs under MSR_BE and the straight-line run up to the
 * first branch is logged from its words afterwards.
 *
 * Runs in the die notifier: no locks, no allocation; user words are read
 * with copy_from_user_nofault().
 */
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <asm/cputable.h>
#include "core/arch_api.h"
#include "lib/kind.h"
#include "lib/insn_class.h"
#include "lib/step_kind.h"
#include "ppc.h"

/* Words scanned for a branch-trace trap's source. */
#define SCAN_MAX		256
/* Untrapped instructions replayed after a system call. */
#define SYSCALL_CHAIN_MAX	4
/* Syscalls remembered during one branch-trace scan. */
#define SCAN_SYSCALLS		4

/*
 * How CFAR compared with the branch the words say ran: for branch-trace
 * (MSR_BE) traps and for single-step traps after a taken branch. Shown
 * by `itrace status`; the VM tests report them.
 */
static atomic_long_t cfar_be_ok, cfar_be_bad, cfar_se_ok, cfar_se_bad;

static void cfar_check(struct pt_regs *regs, unsigned long src,
		       atomic_long_t *ok, atomic_long_t *bad)
{
	if (cpu_has_feature(CPU_FTR_CFAR))
		atomic_long_inc(regs->orig_gpr3 == src ? ok : bad);
}

bool itrace_arch_status(char *buf, size_t len)
{
	long fail = atomic_long_read(&itrace_ppc_resv_fail);
	int w;

	if (!cpu_has_feature(CPU_FTR_CFAR) ||
	    !(atomic_long_read(&cfar_be_ok) + atomic_long_read(&cfar_be_bad) +
	      atomic_long_read(&cfar_se_ok) + atomic_long_read(&cfar_se_bad)))
		return false;
	w = snprintf(buf, len,
		     "CFAR matched the branch: branch trace %ld/%ld, single step %ld/%ld; larx windows emulated %ld, not %ld",
		     atomic_long_read(&cfar_be_ok),
		     atomic_long_read(&cfar_be_ok) +
		     atomic_long_read(&cfar_be_bad),
		     atomic_long_read(&cfar_se_ok),
		     atomic_long_read(&cfar_se_ok) +
		     atomic_long_read(&cfar_se_bad),
		     atomic_long_read(&itrace_ppc_resv_ok), fail);
	if (fail && w < len)
		snprintf(buf + w, len - w, " (last: %s)", itrace_ppc_resv_why);
	return true;
}

bool itrace_arch_is_step_trap(unsigned long val, void *data)
{
	struct die_args *a = data;

	return val == DIE_SSTEP && user_mode(a->regs);
}

/* @before_run: see itrace_ppc_text_word() */
static bool classify_at(struct itrace_slot *s, unsigned long ip,
			bool before_run, struct itrace_ppc_insn *d)
{
	u32 w, next = 0;
	bool prefixed;

	if (!itrace_ppc_text_word(s, ip, before_run, &w))
		return false;
	prefixed = (w >> 26) == 1;
	if (prefixed && !itrace_ppc_text_word(s, ip + 4, before_run, &next))
		return false;
	if (itrace_ppc_classify(w, next, d))
		return false;
	/*
	 * What ran, for log -i: the words as they lie in memory (little
	 * endian: w first). Not before it runs: a uprobe's trap may stand
	 * there, and the next trap notes the same address.
	 */
	if (!before_run)
		itrace_code_note(&s->code, ip, w | (u64)next << 32, 0,
				 prefixed ? 8 : 4);
	return true;
}

static bool is_branch(const struct itrace_ppc_insn *d)
{
	return d->kind != ITRACE_K_INSN && d->kind != ITRACE_K_SYSCALL &&
	       d->kind != ITRACE_K_INT;
}

/* Log a branch at @ip that took the task to @to. */
static void log_branch(struct itrace_slot *s, unsigned long ip,
		       const struct itrace_ppc_insn *d, unsigned long to)
{
	itrace_emit(s, itrace_ppc_branch_kind(ip, d, to), ip, to);
}

/*
 * MSR_SE trap: the instruction at @from ran and the task is now at @to.
 * sc/scv are not traced and the rfid back to user only traps after the
 * following instruction: replay that one from its word.
 */
static void log_step(struct itrace_slot *s, struct pt_regs *regs,
		     unsigned long from, unsigned long to)
{
	struct itrace_ppc_insn d;
	int chain;

	for (chain = 0; chain < SYSCALL_CHAIN_MAX; chain++) {
		unsigned long next;

		if (!classify_at(s, from, false, &d))
			break;
		next = from + d.len;
		switch (d.kind) {
		case ITRACE_K_SYSCALL:
			itrace_emit(s, ITRACE_K_SYSCALL, from, next);
			if (to == next)
				return;
			from = next;
			continue;
		case ITRACE_K_INSN:
		case ITRACE_K_INT:	/* a trap not taken */
			break;
		default:
			if (to != next && !chain)
				cfar_check(regs, from, &cfar_se_ok, &cfar_se_bad);
			break;
		}
		itrace_emit(s, itrace_ppc_step_kind(&d, from, to), from, to);
		return;
	}
	itrace_emit(s, ITRACE_K_ASYNC, from, to);
}

/*
 * Our branch trace ran the task from @from in a straight line (a branch
 * would have trapped; sc does not) until a tracer stopped it, and the
 * tracer's single step since ran one more instruction and left the task
 * at @to. Log the line, then that step.
 */
static void log_line(struct itrace_slot *s, struct pt_regs *regs,
		     unsigned long from, unsigned long to)
{
	struct itrace_ppc_insn d;
	unsigned int n;

	for (n = 0; n < SCAN_MAX && classify_at(s, from, false, &d); n++) {
		if (is_branch(&d) || from + d.len == to)
			break;
		itrace_emit(s, d.kind == ITRACE_K_SYSCALL ? ITRACE_K_SYSCALL :
			    ITRACE_K_INSN, from, from + d.len);
		from += d.len;
	}
	log_step(s, regs, from, to);
}

/*
 * Does the branch @d at @ip explain a branch-trace trap at @to? Taken to
 * its target, or (the architecture traps not-taken branches too) fallen
 * through.
 */
static bool explains(unsigned long ip, const struct itrace_ppc_insn *d,
		     unsigned long to)
{
	if (!is_branch(d))
		return false;
	if (d->cond && to == ip + d->len)
		return true;
	return !d->direct || to == itrace_ppc_target(ip, d);
}

/*
 * MSR_BE trap: some branch between @from and here ran. CFAR names it
 * when the CPU has one; the forward scan from @from finds it otherwise
 * and collects the (untraced) syscalls on the way. In insn mode (a larx
 * window) the straight-line instructions before it are logged too.
 */
static void log_block(struct itrace_slot *s, struct pt_regs *regs,
		      unsigned long from, unsigned long to, bool insns)
{
	unsigned long sys[SCAN_SYSCALLS], ip = from, src = 0;
	struct itrace_ppc_insn d, cd;
	unsigned int n, nsys = 0;

	for (n = 0; n < SCAN_MAX; n++, ip += d.len) {
		if (!classify_at(s, ip, false, &d))
			break;
		if (d.kind == ITRACE_K_SYSCALL && nsys < SCAN_SYSCALLS)
			sys[nsys++] = ip;
		if (explains(ip, &d, to)) {
			src = ip;
			break;
		}
	}
	if (src)
		cfar_check(regs, src, &cfar_be_ok, &cfar_be_bad);
	if (cpu_has_feature(CPU_FTR_CFAR)) {
		unsigned long cfar = regs->orig_gpr3;

		if (cfar != src && cfar < TASK_SIZE &&
		    classify_at(s, cfar, false, &cd) &&
		    explains(cfar, &cd, to)) {
			/* a jump we did not see (signal delivery): trust CFAR */
			itrace_emit(s, ITRACE_K_ASYNC, from, cfar);
			log_branch(s, cfar, &cd, to);
			return;
		}
	}
	if (!src) {
		itrace_emit(s, ITRACE_K_ASYNC, from, to);
		return;
	}
	cd = d;		/* the source branch */
	/* the straight line before it, if it holds anything to log */
	for (ip = from, n = 0; ip < src && (insns || nsys); ip += d.len) {
		if (!classify_at(s, ip, false, &d))
			break;
		if (n < nsys && ip == sys[n]) {
			itrace_emit(s, ITRACE_K_SYSCALL, ip, ip + d.len);
			n++;
		} else if (insns) {
			itrace_emit(s, ITRACE_K_INSN, ip, ip + d.len);
		}
	}
	log_branch(s, src, &cd, to);
}

/*
 * About to run a larx? Emulate its window (a retry may bring it back to
 * the larx, hence the loop). If the window holds something the emulator
 * does not handle, run it under MSR_BE instead: that still works when no
 * branch sits between the larx and the stcx.
 */
static void resv_window(struct itrace_slot *s, struct pt_regs *regs)
{
	struct itrace_ppc_insn d;
	int tries;

	s->arch.resv = false;
	for (tries = 0; tries < 4; tries++) {
		if (!classify_at(s, regs->nip, true, &d) || !d.larx)
			return;
		if (!itrace_ppc_emulate_resv(s, regs)) {
			s->arch.resv = s->mode == ITRACE_MODE_INSN;
			return;
		}
		s->prev_ip = regs->nip;
	}
}

void itrace_ppc_resume(struct itrace_slot *s, struct pt_regs *regs)
{
	s->prev_ip = regs->nip;
	resv_window(s, regs);
	itrace_ppc_set_trace(s, regs);
}

int itrace_arch_step(struct itrace_slot *s, void *data, bool log,
		     bool rearm)
{
	struct die_args *a = data;
	struct pt_regs *regs = a->regs;

	s->steps++;
	s->arch.traps++;
	if (log) {
		if (s->arch.branch)
			log_block(s, regs, s->prev_ip, regs->nip,
				  s->mode == ITRACE_MODE_INSN);
		else
			log_step(s, regs, s->prev_ip, regs->nip);
	}
	if (rearm) {
		itrace_ppc_resume(s, regs);
	} else {
		s->prev_ip = regs->nip;
		itrace_ppc_clear_trace(regs);
	}
	return NOTIFY_STOP;
}

/*
 * A tracer's single step (MSR_SE) or block step (MSR_BE): which one,
 * itrace_arch_ptrace_resume() saw when the tracer let the task go. If
 * our MSR_BE was on before the tracer stopped the task (arch.branch:
 * the first of its traps), what ran since prev_ip began with a straight
 * line. The interrupt already cleared both bits; they stay clear, the
 * tracer sets its own again (and at its PTRACE_CONT we set ours). A
 * larx window we were running under MSR_BE is over: the tracer moved
 * the task on.
 */
int itrace_arch_foreign_step(struct itrace_slot *s, void *data, bool log)
{
	struct die_args *a = data;
	struct pt_regs *regs = a->regs;

	s->steps++;
	/* the tracer may have poked text since our last trap read it */
	itrace_ppc_text_forget(s);
	if (log) {
		if (s->arch.foreign_be)
			log_block(s, regs, s->prev_ip, regs->nip,
				  s->mode == ITRACE_MODE_INSN);
		else if (s->arch.branch)
			log_line(s, regs, s->prev_ip, regs->nip);
		else
			log_step(s, regs, s->prev_ip, regs->nip);
	}
	s->prev_ip = regs->nip;
	s->arch.branch = false;
	s->arch.resv = false;
	itrace_ppc_text_forget(s);
	return NOTIFY_DONE;
}
