// SPDX-License-Identifier: GPL-2.0
/*
 * Running a larx..stcx. window without trapping inside it. A trace
 * interrupt between the two kills the reservation (the interrupt return
 * path clears it with a dummy stdcx.), so a stepped stcx. always fails
 * and the program retries forever. When a traced task is about to
 * execute a larx, the trap handler emulates the window instead: the
 * larx becomes a load, the instructions up to the stcx. are evaluated
 * with the kernel's analyse_instr() on a copy of the registers, and the
 * stcx. becomes a compare-and-swap against the loaded value, which
 * succeeds exactly when nobody stored a different value in between.
 * Every size is emulated: byte and halfword (lbarx/lharx, which GCC
 * emits for char and short atomics from power8 on) through the aligned
 * word around them, word and doubleword directly, and quadword
 * (lqarx/stqcx.) with lqarx/stqcx. of our own on the register pair.
 * Every emulated instruction is logged as if it had been stepped.
 *
 * Trap context: no sleeping; user memory is touched with page faults
 * disabled, and any fault or unsupported instruction abandons the
 * emulation before anything was changed.
 */
#include <linux/kdebug.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/task_work.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/futex.h>
#include <asm/inst.h>
#include <asm/sstep.h>
#include "core/arch_api.h"
#include "lib/kind.h"
#include "lib/insn_class.h"
#include "ppc.h"
#include "wrap_regs.h"

/* Instructions emulated per window, retries included. */
#define RESV_MAX_INSNS	64

struct resv_rec {
	unsigned long from;
	unsigned long to;
	u8 kind;
};

/* Too big for the trap stack; preemption is off while it is in use. */
struct resv_scratch {
	struct pt_regs regs;
	struct resv_rec recs[RESV_MAX_INSNS];
};

static DEFINE_PER_CPU(struct resv_scratch, resv_scratch);

/* Windows emulated, and the reason of the last one given up, for status. */
atomic_long_t itrace_ppc_resv_ok, itrace_ppc_resv_fail;
const char *itrace_ppc_resv_why = "";

static bool give_up(const char *why)
{
	WRITE_ONCE(itrace_ppc_resv_why, why);
	return false;
}

/* Runs as the task on its way back to user mode: may sleep. */
static void fault_in(struct callback_head *cb)
{
	struct itrace_arch_slot *a =
		container_of(cb, struct itrace_arch_slot, fault_work);
	struct mm_struct *mm = current->mm;

	if (mm) {
		mmap_read_lock(mm);
		fixup_user_fault(mm, a->fault_ea,
				 a->fault_write ? FAULT_FLAG_WRITE : 0, NULL);
		mmap_read_unlock(mm);
	}
	itrace_work_done(&a->fault_queued);
}

/*
 * The window's word is not mapped, or (copy-on-write after a fork) not
 * writable, and page faults cannot be taken here. Have the task fault
 * it in on its way out; the next pass through the window emulates.
 */
static void queue_fault_in(struct itrace_slot *s, unsigned long ea,
			   bool write)
{
	struct itrace_arch_slot *a = &s->arch;

	if (READ_ONCE(a->fault_queued))
		return;
	a->fault_ea = ea;
	a->fault_write = write;
	itrace_work_queue(current, &a->fault_work, &a->fault_queued, fault_in,
			  TWA_RESUME);
}

static int cas64_user(u64 __user *uaddr, u64 old, u64 new, u64 *cur)
{
	int ret = 0;
	u64 prev;

	if (!user_access_begin(uaddr, sizeof(u64)))
		return -EFAULT;
	__asm__ __volatile__ (PPC_ATOMIC_ENTRY_BARRIER
"1:	ldarx	%1,0,%3\n"
"	cmpd	0,%1,%4\n"
"	bne-	3f\n"
"2:	stdcx.	%5,0,%3\n"
"	bne-	1b\n"
		PPC_ATOMIC_EXIT_BARRIER
"3:	.section .fixup,\"ax\"\n"
"4:	li	%0,%6\n"
"	b	3b\n"
"	.previous\n"
		EX_TABLE(1b, 4b)
		EX_TABLE(2b, 4b)
		: "+r" (ret), "=&r" (prev), "+m" (*uaddr)
		: "r" (uaddr), "r" (old), "r" (new), "i" (-EFAULT)
		: "cc", "memory");
	user_access_end();
	*cur = prev;
	return ret;
}

/*
 * One try of stqcx.'s compare-and-swap: 1 if @new was stored, 0 if not
 * (the quadword, left in @cur, is not @old, or the reservation was
 * lost), or -EFAULT. Pairs are in register order, [0] being RTp, the
 * quadword's high-order doubleword: lqarx and stqcx. of our own (the
 * kernel's byte order is the task's, emulate() checks) place it in
 * memory as the task's would. Raw encodings, as the kernel's quad.S
 * does: they need fixed, even register pairs (r6:r7, r8:r9).
 */
static int cas128_once(u64 __user *uaddr, const u64 *old, const u64 *new,
		       u64 *cur)
{
	int ret = 0;
	u64 hi, lo;

	if (!user_access_begin(uaddr, 2 * sizeof(u64)))
		return -EFAULT;
	__asm__ __volatile__ ("mr	10,%4\n"
"	mr	8,%7\n"
"	mr	9,%8\n"
		PPC_ATOMIC_ENTRY_BARRIER
"1:	" PPC_LQARX(6, 0, 10, 0) "\n"
"	cmpd	0,6,%5\n"
"	bne-	3f\n"
"	cmpd	0,7,%6\n"
"	bne-	3f\n"
"2:	" PPC_STQCX(8, 0, 10) "\n"
"	bne-	3f\n"
"	li	%0,1\n"
		PPC_ATOMIC_EXIT_BARRIER
"3:	mr	%1,6\n"
"	mr	%2,7\n"
"	.section .fixup,\"ax\"\n"
"4:	li	%0,%9\n"
"	b	3b\n"
"	.previous\n"
		EX_TABLE(1b, 4b)
		EX_TABLE(2b, 4b)
		: "+r" (ret), "=&r" (hi), "=&r" (lo), "+m" (*uaddr)
		: "r" (uaddr), "r" (old[0]), "r" (old[1]), "r" (new[0]),
		  "r" (new[1]), "i" (-EFAULT)
		: "r6", "r7", "r8", "r9", "r10", "cc", "memory");
	user_access_end();
	cur[0] = hi;
	cur[1] = lo;
	return ret;
}

/* Tries of a stcx. that keeps losing its reservation or its word. */
#define RESV_CAS_TRIES	8

/*
 * stqcx.: unlike the word and doubleword swaps (a loop of their own
 * around a lost reservation), a bounded number of tries, then the
 * stcx. is reported failed, as a real one may be: the program runs its
 * window again. A trap must not spin on a stqcx. that never succeeds
 * (qemu before 8.0 fails every one).
 */
static int cas128_user(u64 __user *uaddr, const u64 *old, const u64 *new,
		       bool *stored)
{
	u64 cur[2];
	int i, ret;

	for (i = 0; i < RESV_CAS_TRIES; i++) {
		ret = cas128_once(uaddr, old, new, cur);
		if (ret < 0)
			return ret;
		if (ret || cur[0] != old[0] || cur[1] != old[1])
			break;
	}
	*stored = ret > 0;
	return 0;
}

/* The shift of the byte or halfword at @ea in its word, in memory order. */
static int subword_shift(unsigned long ea, int size)
{
	int off = ea & 3;

	if (IS_ENABLED(CONFIG_CPU_LITTLE_ENDIAN))
		return 8 * off;
	return 8 * (4 - size - off);
}

/*
 * stbcx. and sthcx.: a compare-and-swap of the aligned word around the
 * byte or halfword. The rest of the word is not ours: when a neighbour
 * changed under the swap, try again with the word as it now is, as long
 * as ours still holds @old. If they keep changing, say the stcx. failed,
 * as a real one may: the program runs its window again.
 */
static int cas_subword(unsigned long ea, int size, u32 old, u32 new,
		       bool *stored)
{
	u32 __user *uw = (u32 __user *)(ea & ~3UL);
	int shift = subword_shift(ea, size);
	u32 mask = (size == 1 ? 0xffU : 0xffffU) << shift;
	u32 word, cur;
	int i, ret;

	*stored = false;
	if (copy_from_user_nofault(&word, uw, sizeof(word)))
		return -EFAULT;
	for (i = 0; i < RESV_CAS_TRIES; i++) {
		if ((word & mask) != old << shift)
			return 0;
		ret = futex_atomic_cmpxchg_inatomic(&cur, uw, word,
						    (word & ~mask) |
						    new << shift);
		if (ret)
			return ret;
		if (cur == word) {
			*stored = true;
			return 0;
		}
		word = cur;
	}
	return 0;
}

/*
 * The stcx.: store @new at @ea if it still holds @old (register order,
 * [1] only for stqcx.'s RSp+1).
 */
static int store_conditional(unsigned long ea, int size, const u64 *old,
			     const u64 *new, bool *stored)
{
	u32 cur32;
	u64 cur;
	int ret;

	pagefault_disable();
	switch (size) {
	case 1:
	case 2:
		ret = cas_subword(ea, size, old[0], new[0], stored);
		break;
	case 4:
		ret = futex_atomic_cmpxchg_inatomic(&cur32, (u32 __user *)ea,
						    old[0], new[0]);
		*stored = !ret && cur32 == old[0];
		break;
	case 8:
		ret = cas64_user((u64 __user *)ea, old[0], new[0], &cur);
		*stored = !ret && cur == old[0];
		break;
	default:
		ret = cas128_user((u64 __user *)ea, old, new, stored);
	}
	pagefault_enable();
	return ret;
}

/*
 * lqarx's pair: RTp gets the quadword's high-order doubleword, the one
 * at @ea + 8 when the task is little-endian. The index in memory of it:
 */
#define QUAD_HI	IS_ENABLED(CONFIG_CPU_LITTLE_ENDIAN)

/*
 * The larx's load, zero-extended into register order as the real one
 * puts it (@val[1] only for lqarx's RTp+1). Not atomic for a quadword;
 * it need not be: the stcx. compares all of it.
 */
static int load_reserved(unsigned long ea, int size, u64 *val)
{
	union {
		u8 b;
		u16 h;
		u32 w;
		u64 d[2];
	} m;

	if (copy_from_user_nofault(&m, (void __user *)ea, size))
		return -EFAULT;
	switch (size) {
	case 1:
		val[0] = m.b;
		break;
	case 2:
		val[0] = m.h;
		break;
	case 4:
		val[0] = m.w;
		break;
	case 8:
		val[0] = m.d[0];
		break;
	default:
		val[0] = m.d[QUAD_HI];
		val[1] = m.d[!QUAD_HI];
	}
	return 0;
}

/*
 * Why the larx at @ea cannot be emulated, or NULL. Loads and stores are
 * done in the kernel's byte order, so the task must share it. A
 * misaligned larx takes an alignment interrupt: let the real one do it.
 */
static const char *larx_refused(const struct pt_regs *r, int size,
				unsigned long ea)
{
	if ((r->msr & MSR_LE) != (MSR_KERNEL & MSR_LE))
		return "cross-endian task";
	if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)
		return "larx size or alignment";
	if (ea & (size - 1))
		return "larx size or alignment";
	return NULL;
}

/* The stcx.'s value, in register order as store_conditional() wants it. */
static void stcx_value(const struct pt_regs *r,
		       const struct instruction_op *op, int size, u64 *val)
{
	if (size == 16) {
		val[0] = r->gpr[op->reg];
		val[1] = r->gpr[op->reg + 1];
	} else if (size == 8) {
		val[0] = op->val;
	} else {
		val[0] = op->val & ((1UL << (8 * size)) - 1);
	}
}

/*
 * An interrupt returns to user mode with r14-r31 as the CPU still holds
 * them from its entry: interrupt_return reloads them from the frame only
 * when a signal may be delivered (6.1's interrupt_exit_user_prepare()
 * asks for that only on TIF_SIGPENDING). A window that wrote one, like
 * glibc's lll_lock loading the lock word into r29, would go on with the
 * register's old value: the lock taken, but seen as busy. A pending-
 * signal flag with no signal behind it gets them reloaded; get_signal()
 * finds nothing to deliver and clears it. Only current clears its own
 * TIF_SIGPENDING, so setting it without the siglock loses nothing. From
 * the trap, and from uprobe.c's task_work run by the exit loop, the
 * loop sees the flag. Not when that task_work runs inside get_signal()
 * for a TWA_SIGNAL work alone (io_uring): the flag is consumed there.
 * @r holds the registers after the window.
 */
static void reload_nvgprs(const struct pt_regs *regs, const struct pt_regs *r)
{
	if (memcmp(&regs->gpr[14], &r->gpr[14], 18 * sizeof(r->gpr[0])))
		set_thread_flag(TIF_SIGPENDING);
}

/*
 * mfspr/mtspr of the registers a window may use (a loop's ctr, a call's
 * lr, xer): false for any other SPR. analyse_instr() marks those three
 * as emulable and leaves the move to its caller.
 */
static bool move_spr(struct pt_regs *r, const struct instruction_op *op)
{
	unsigned long *spr;

	switch (op->spr) {
	case SPRN_XER:
		spr = &r->xer;
		break;
	case SPRN_LR:
		spr = &r->link;
		break;
	case SPRN_CTR:
		spr = &r->ctr;
		break;
	default:
		return false;
	}
	if (GETTYPE(op->type) == MTSPR)
		*spr = op->spr == SPRN_XER ? op->val & 0xffffffffUL : op->val;
	else
		r->gpr[op->reg] = op->spr == SPRN_XER ? *spr & 0xffffffffUL : *spr;
	return true;
}

/*
 * Emulate from @regs->nip (a larx) until the reservation is resolved:
 * the stcx. ran. The architecture keeps a reservation across branches,
 * and code keeps windows with branches inside (a call to a leaf, a
 * loop, a forward jump), so a taken branch does not end the window. A
 * window left by a branch (a compare-and-swap that found another value)
 * ends where the emulator stops: at an instruction it does not handle
 * or after RESV_MAX_INSNS. Its reservation is dropped there, as a real
 * one may be at any moment. Stopping that way before any taken branch
 * means a straight-line window the emulator cannot run: false, nothing
 * changed (the trap path then runs it under MSR_BE). On success @regs
 * is updated, the records are emitted, and true is returned. @r and
 * @recs are scratch space.
 */
static bool emulate(struct itrace_slot *s, struct pt_regs *regs,
		    struct pt_regs *r, struct resv_rec *recs)
{
	unsigned long ea = 0, ip;
	struct instruction_op op;
	int size = 0, n, nrec = 0, i;
	bool held = false, done = false, branched = false;
	u64 loaded[2] = { 0, 0 };
	const char *why;
	u32 w;

	memcpy(r, regs, sizeof(*r));
	for (n = 0; n < RESV_MAX_INSNS && !done; n++) {
		ip = r->nip;
		if (!itrace_ppc_fetch(ip, &w) || (w >> 26) == 1) {
			why = "unreadable or prefixed word";
			goto stop;
		}
		if (analyse_instr(&op, r, ppc_inst(w)) < 0) {
			why = "analyse_instr refused";
			goto stop;
		}
		recs[nrec].from = ip;
		recs[nrec].to = ip + 4;
		recs[nrec].kind = ITRACE_K_INSN;
		switch (GETTYPE(op.type)) {
		case LARX:
			/* a retry, or the next window: the next trap's */
			if (n) {
				why = "next larx";
				goto stop;
			}
			size = GETSIZE(op.type);
			ea = op.ea;
			why = larx_refused(r, size, ea);
			if (why)
				return give_up(why);
			if (load_reserved(ea, size, loaded)) {
				queue_fault_in(s, ea, false);
				return give_up("larx address not mapped");
			}
			/* analyse_instr() refuses an odd RTp for lqarx */
			r->gpr[op.reg] = loaded[0];
			if (size == 16)
				r->gpr[op.reg + 1] = loaded[1];
			held = true;
			break;
		case STCX: {
			bool stored;
			u64 val[2];

			if (!held || op.ea != ea || GETSIZE(op.type) != size) {
				why = "stcx. does not match the larx";
				goto stop;
			}
			stcx_value(r, &op, size, val);
			if (store_conditional(ea, size, loaded, val, &stored)) {
				queue_fault_in(s, ea, true);
				return give_up("stcx. address not writable");
			}
			r->ccr = (r->ccr & 0x0fffffff) |
				 (stored ? 0x20000000 : 0) |
				 ((r->xer >> 3) & 0x10000000);
			held = false;
			done = true;
			break;
		}
		case COMPUTE:
			if (op.type & SETREG)
				r->gpr[op.reg] = op.val;
			if (op.type & SETCC)
				r->ccr = op.ccval;
			if (op.type & SETXER)
				r->xer = op.xerval;
			break;
		case BRANCH: {
			struct itrace_ppc_insn d;

			if (op.type & SETLK)
				r->link = ip + 4;
			if (op.type & DECCTR)
				r->ctr--;
			if (op.type & BRTAKEN) {
				recs[nrec].to = op.val;
				branched = true;
			}
			if (itrace_ppc_classify(w, 0, &d))
				return give_up("unclassified branch");
			if (recs[nrec].to == ip + 4 && d.cond)
				recs[nrec].kind = ITRACE_K_JCC_NT;
			else
				recs[nrec].kind = d.kind;
			break;
		}
		case MFSPR:
		case MTSPR:
			if (!move_spr(r, &op)) {
				why = "instruction not emulated";
				goto stop;
			}
			break;
		case BARRIER:
			break;	/* a barrier's effect is kept by the real CAS */
		default:
			why = "instruction not emulated";
			goto stop;
		}
		r->nip = recs[nrec++].to;
	}
	why = "window too long";
stop:
	/* a window that a branch left, or a straight one we cannot run */
	if (!done && !branched)
		return give_up(why);
	reload_nvgprs(regs, r);
	for (i = 0; i < 32; i++)
		regs->gpr[i] = r->gpr[i];
	regs->ccr = r->ccr;
	regs->xer = r->xer;
	regs->ctr = r->ctr;
	regs->link = r->link;
	itrace_ppc_set_return_ip(regs, r->nip);
	for (i = 0; i < nrec; i++)
		itrace_emit(s, recs[i].kind, recs[i].from, recs[i].to);
	return true;
}

bool itrace_ppc_emulate_resv(struct itrace_slot *s, struct pt_regs *regs)
{
	struct resv_scratch *sc = get_cpu_ptr(&resv_scratch);
	bool ok = emulate(s, regs, &sc->regs, sc->recs);

	put_cpu_ptr(&resv_scratch);
	atomic_long_inc(ok ? &itrace_ppc_resv_ok : &itrace_ppc_resv_fail);
	return ok;
}
