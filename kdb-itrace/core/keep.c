// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder: `on <pid> keep N` gives a traced thread a ring of
 * its own that gets every record it logs, besides the CPU's ring, so
 * that no other task can overwrite its last N records; `freeze` stops
 * that ring at a fatal signal (one whose default action kills the
 * task: SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGKILL, ...)
 * or at its `stop` place, and keeps it, with the slot's stack, maps and
 * the reason, after the task is gone (state FROZEN, state.h) until `off`
 * lets it go; `break` then also enters kdb right there, as the task, so
 * that `bt` shows it at the crash and `itrace log/calls/stack/regs` how
 * it got there.
 *
 * Contexts: the ring is (re)allocated by the arming work, as the task
 * (itrace_keep_setup(): it sleeps); the trap path pushes to it (the
 * task's own traps: one writer); freezing happens in the signal
 * tracepoint (IRQs off, siglock held) or the stop's uprobe handler, as
 * the task. Readers (merge.c) anywhere: they count themselves in
 * kept_readers, then take their own copy of the ring's pointer, size and
 * head, which they walk; the arming unpublishes the ring before it
 * touches it, publishes it last, and frees one only once no reader
 * counts (bounded: else the old ring stays, and status says so). A kept
 * record carries the CPU it was logged on in its gen field (the ring is
 * one slot's, of one gen, kept_gen: merge.c gives that back).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/signal.h>
#include <linux/vmalloc.h>
#include "core.h"
#include "ksym.h"
#include "wrap_kgdb.h"

/* How long a re-allocation waits for readers of the old ring. */
#define KEEP_READERS_WAIT_MS	1000

static void ring_free(struct itrace_slot *s)
{
	struct itrace_rec *recs = s->kept.recs;
	unsigned int ms;

	WRITE_ONCE(s->kept.recs, NULL);
	smp_mb();	/* recs gone before the readers are counted */
	for (ms = 0; atomic_read(&s->kept_readers); ms += 20) {
		if (ms >= KEEP_READERS_WAIT_MS) {
			WRITE_ONCE(s->kept.recs, recs);	/* keep it */
			return;
		}
		msleep(20);
	}
	vfree(recs);
}

/*
 * The arming work, as the task: a ring of @s->keep records (a power of
 * two), empty, for this gen; none without `keep`. A ring of the right
 * size is reused (a reader's copy then meets emptied records: skipped
 * as torn). No memory: the records go to the CPUs' rings only, and
 * status says so. A ring a reader still held stays (without `keep`
 * unused: log.c and readers check keep).
 */
void itrace_keep_setup(struct itrace_slot *s)
{
	u32 n = s->keep ? roundup_pow_of_two(s->keep) : 0;
	struct itrace_rec *recs;

	might_sleep();
	s->frozen = ITRACE_FROZE_NOT;
	s->keep_note = ITRACE_KEEP_OK;
	if (s->kept.recs && s->kept.mask + 1 != n)
		ring_free(s);
	if (!n)
		return;
	recs = s->kept.recs;
	if (recs && s->kept.mask + 1 != n) {
		s->keep_note = ITRACE_KEEP_BUSY;
		n = s->kept.mask + 1;
	}
	WRITE_ONCE(s->kept.recs, NULL);
	if (!recs) {
		recs = vmalloc(array_size(n, sizeof(*recs)));
		if (!recs) {
			s->keep_note = ITRACE_KEEP_NOMEM;
			return;
		}
	}
	memset(recs, 0, array_size(n, sizeof(*recs)));
	s->kept.mask = n - 1;
	s->kept.cpu = 0;
	WRITE_ONCE(s->kept.head, 0);
	s->kept_gen = s->gen;
	/* the ring empty, its size and gen, before it is seen */
	smp_store_release(&s->kept.recs, recs);
}

/* Unload, process context: every slot's ring. */
void itrace_keep_exit(void)
{
	unsigned int i;

	for (i = 0; i < itrace_nr_slots; i++) {
		vfree(itrace_slots[i].kept.recs);
		itrace_slots[i].kept.recs = NULL;
	}
}

/*
 * Trap context, IRQs off: the record just logged (log.c) also into @s's
 * own ring (it has one), with its CPU where a record has its gen.
 */
void itrace_keep_push(struct itrace_slot *s, const struct itrace_rec *r,
		      unsigned int cpu)
{
	if (!s->frozen)
		itrace_ring_push_as(&s->kept, r, cpu);
}

/*
 * Readers: a copy of @s's kept ring into @copy if it holds the records
 * of @s's task now (a frozen slot's too): its records stay allocated
 * until itrace_keep_put(). False if none (the CPUs' rings then).
 */
bool itrace_keep_get(struct itrace_slot *s, struct itrace_ring *copy)
{
	struct itrace_rec *recs;

	if (itrace_state(&s->state) == ITRACE_FREE || !itrace_keep_holds(s))
		return false;
	atomic_inc(&s->kept_readers);
	smp_mb__after_atomic();	/* counted before recs is looked at */
	recs = smp_load_acquire(&s->kept.recs);
	if (!recs) {
		atomic_dec(&s->kept_readers);
		return false;
	}
	copy->recs = recs;
	copy->mask = READ_ONCE(s->kept.mask);
	copy->cpu = 0;
	copy->head = READ_ONCE(s->kept.head);
	return true;
}

void itrace_keep_put(struct itrace_slot *s)
{
	atomic_dec(&s->kept_readers);
}

/*
 * `off`: a frozen slot (its task gone) goes back to FREE; its ring stays
 * allocated for the slot's next task. False if it was not frozen.
 */
bool itrace_keep_thaw(struct itrace_slot *s)
{
	if (itrace_state(&s->state) != ITRACE_FROZEN)
		return false;
	/* before the slot is FREE: a claim must not find it frozen */
	WRITE_ONCE(s->frozen, ITRACE_FROZE_NOT);
	return itrace_state_thaw(&s->state);
}

/*
 * Does @s keep a ring of its own (keep N) that holds its task's records
 * now (not a ring of an earlier task, or one a reader held past a
 * re-arm without keep)? Any context.
 */
bool itrace_keep_holds(const struct itrace_slot *s)
{
	return s->keep && READ_ONCE(s->kept.recs) && s->kept_gen == s->gen;
}

/* Records the ring let go of: pushed minus held. */
u64 itrace_keep_overwritten(const struct itrace_slot *s)
{
	u64 head = READ_ONCE(s->kept.head), size = s->kept.mask + 1ULL;

	return head > size ? head - size : 0;
}

static const char *const sig_names[] = {
	[SIGHUP] = "SIGHUP", [SIGINT] = "SIGINT", [SIGQUIT] = "SIGQUIT",
	[SIGILL] = "SIGILL", [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT",
	[SIGBUS] = "SIGBUS", [SIGFPE] = "SIGFPE", [SIGKILL] = "SIGKILL",
	[SIGUSR1] = "SIGUSR1", [SIGSEGV] = "SIGSEGV", [SIGUSR2] = "SIGUSR2",
	[SIGPIPE] = "SIGPIPE", [SIGALRM] = "SIGALRM", [SIGTERM] = "SIGTERM",
	[SIGSTKFLT] = "SIGSTKFLT", [SIGXCPU] = "SIGXCPU",
	[SIGXFSZ] = "SIGXFSZ", [SIGVTALRM] = "SIGVTALRM",
	[SIGPROF] = "SIGPROF", [SIGIO] = "SIGIO", [SIGPWR] = "SIGPWR",
	[SIGSYS] = "SIGSYS",
};

/* "SIGSEGV", or "signal 40" */
const char *itrace_keep_signame(char *buf, size_t len, int sig)
{
	if (sig > 0 && sig < ARRAY_SIZE(sig_names) && sig_names[sig])
		return sig_names[sig];
	snprintf(buf, len, "signal %d", sig);
	return buf;
}

/*
 * Would @sig, with @ka, kill the task or dump its core? Its default
 * action, not ignored, not a stop (a real-time signal's kills);
 * SIGKILL whatever the handler says.
 */
static bool fatal(int sig, const struct k_sigaction *ka)
{
	if (sig == SIGKILL)
		return true;
	return ka->sa.sa_handler == SIG_DFL && !sig_kernel_ignore(sig) &&
	       !sig_kernel_stop(sig);
}

/*
 * Freeze @s's ring: it keeps what it has. @why, and for a signal @sig,
 * where it came (@ip) and its fault address (@addr, 0 if none). As the
 * task (IRQs off, or in its uprobe handler).
 */
static bool freeze(struct itrace_slot *s, u8 why, int sig, u64 ip,
		   bool fault, u64 addr)
{
	/* not after `off`: the slot lives on, OFF, until the task exits */
	if (!(s->flags & ITRACE_F_FREEZE) || !s->kept.recs || s->frozen ||
	    itrace_state(&s->state) != ITRACE_ARMED)
		return false;
	s->frozen_sig = sig;
	s->frozen_fault = fault;
	s->frozen_ip = ip;
	s->frozen_addr = addr;
	smp_wmb();	/* the reason before the mark */
	WRITE_ONCE(s->frozen, why);
	return true;
}

/*
 * `break`: enter kdb here, as the task, with every other CPU stopped.
 * Only where a kgdb I/O driver is registered (kgdboc): without one the
 * breakpoint would be a kernel oops. Not in xmon. From the signal
 * tracepoint kdb is entered with the task's siglock held and IRQs off:
 * a CPU spinning on that lock with IRQs off is stopped by kgdb's NMI
 * round-up (x86, and POWER's NMI IPI on pseries), not by a plain IPI.
 */
static void enter_debugger(struct itrace_slot *s, const char *why)
{
	/* false without CONFIG_KGDB: ksym.c looks for kgdb's only then */
	if (!itrace_ksym_kgdb_ready()) {
		s->keep_note = ITRACE_KEEP_NO_KDB;
		return;
	}
	pr_emerg("pid %d (%.*s) frozen at %s: entering kdb (itrace log/calls/stack/regs %d; go lets it go on)\n",
		 s->pid, TASK_COMM_LEN - 1, s->comm, why, s->pid);
	itrace_kgdb_breakpoint();
}

/* The signal tracepoint, as current (slot @s), IRQs off, siglock held. */
void itrace_keep_signal(struct itrace_slot *s, int sig,
			const struct kernel_siginfo *info,
			const struct k_sigaction *ka)
{
	u64 ip = instruction_pointer(task_pt_regs(current));
	char buf[16];
	bool fault;

	if (!fatal(sig, ka))
		return;
	/* a fault's address: the kernel's own report of one of these */
	fault = info != SEND_SIG_NOINFO && info != SEND_SIG_PRIV &&
		info->si_code > 0 && (sig == SIGSEGV || sig == SIGBUS ||
				      sig == SIGILL || sig == SIGFPE);
	/*
	 * It dies now: stepping ends with it, no `off` needed. No kdb for
	 * SIGKILL: every thread of a dying process gets one (a group exit,
	 * after the crash of one of them), and kill -9 is no crash.
	 */
	if (freeze(s, ITRACE_FROZE_SIGNAL, sig, ip, fault,
		   fault ? (unsigned long)info->si_addr : 0) &&
	    (s->flags & ITRACE_F_BREAK) && sig != SIGKILL)
		enter_debugger(s, itrace_keep_signame(buf, sizeof(buf), sig));
}

/* The `stop` place's uprobe handler, as the task at @ip. */
void itrace_keep_stop(struct itrace_slot *s, unsigned long ip)
{
	if (freeze(s, ITRACE_FROZE_STOP, 0, ip, false, 0) &&
	    (s->flags & ITRACE_F_BREAK))
		enter_debugger(s, "its stop place");
}
