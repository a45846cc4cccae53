// SPDX-License-Identifier: GPL-2.0
/*
 * The views of a traced thread for the executor (command.c): `calls`
 * (its call tree from the log, through the walker of calls.c), `stack`
 * (its live shadow stack, core/stack.c; for a thread no longer traced,
 * the walker's stack at its last record), and `regs` (its user
 * registers). kdb or xmon (every other CPU stopped: no sleeping,
 * allocation or locks; the walker's frames are static, one set per
 * context) or process context (debugfs; the caller serializes
 * commands).
 */
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include "core/image.h"
#include "core/itrace.h"
#include "lib/calls.h"
#include "lib/format.h"
#include "lib/kind.h"
#include "commands.h"

#define outf(ctx, ...)	itrace_out_printf((ctx)->out, __VA_ARGS__)

/* Frames the shadow stack keeps; deeper calls forget the outermost. */
#define ITRACE_FRAMES_MAX	256

/* Indentation of the call tree stops growing here (the depth column goes on). */
#define CALLS_INDENT_MAX	32

/* One walker and frame buffer per context: kdb can stop a debugfs reader. */
static struct itrace_frame view_frames[2][ITRACE_FRAMES_MAX];
static struct itrace_walk view_walk[2];

static struct itrace_walk *walk_start(struct itrace_ctx *ctx)
{
	struct itrace_walk *w = &view_walk[ctx->stopped];

	itrace_walk_init(w, view_frames[ctx->stopped], ITRACE_FRAMES_MAX,
			 ITRACE_CALL_LEN_MAX);
	return w;
}

/* @addr as the log names it, through @r's slot's maps. */
static void name_addr(char *buf, size_t len, const struct itrace_rec *r,
		      u64 addr, bool stopped)
{
	itrace_syms_read_begin(stopped);
	itrace_format_addr(buf, len, itrace_slot_map(r), addr);
	itrace_syms_read_end(stopped);
}

/*
 * The one thread the log holds records of for @pid (a tid, a process,
 * or 0: any), or 0 after saying why there is none to show: a call tree
 * is one thread's.
 */
static int one_thread(const char *sub, int pid, u64 last,
		      struct itrace_ctx *ctx)
{
	struct itrace_rec r;
	unsigned int cpu;
	int tid = 0, other = 0;

	itrace_merge_start(ctx->merge, pid, last);
	while (itrace_merge_next(ctx->merge, &r, &cpu)) {
		if (!tid)
			tid = r.pid;
		else if ((int)r.pid != tid && !other)
			other = r.pid;
		if (!ctx->stopped)
			cond_resched();
	}
	if (!tid && pid)
		outf(ctx, "itrace %s: no records of pid %d in the log\n", sub,
		     pid);
	else if (!tid)
		outf(ctx, "itrace %s: the log is empty\n", sub);
	else if (other)
		outf(ctx, "itrace %s: records of several threads (%d, %d, ...): name one\n",
		     sub, tid, other);
	return other ? 0 : tid;
}

/*
 * Walk @tid's records up to @last, calling @fn for every call and every
 * return out of a frame entered before tracing (the lines of the tree).
 * A new program (exec under follow-exec, a new slot generation) starts
 * the stack over, and so does a trigger's entry (ITRACE_WALK_ENTRY to
 * @fn first): each invocation of its function is a tree of its own.
 */
static void walk_thread(struct itrace_walk *w, int tid, u64 last,
			struct itrace_ctx *ctx,
			void (*fn)(const struct itrace_rec *r,
				   enum itrace_walk_event ev, s32 depth,
				   void *arg),
			void *arg)
{
	struct itrace_rec r;
	unsigned int cpu;
	u32 gen = ~0U;
	u64 prev_to = 0;

	itrace_merge_start(ctx->merge, tid, last);
	while (itrace_merge_next(ctx->merge, &r, &cpu)) {
		bool entry = itrace_rec_entry(&r, prev_to);
		enum itrace_walk_event ev;

		if ((gen != ~0U && r.gen != gen) || entry) {
			s32 min = w->min_depth;

			itrace_walk_init(w, w->frames, w->max, w->call_len_max);
			w->min_depth = min;
			/* a trigger's invocation: a tree of its own */
			if (fn && entry)
				fn(&r, ITRACE_WALK_ENTRY, 0, arg);
		}
		prev_to = r.to;
		gen = r.gen;
		ev = itrace_walk_rec(w, &r);
		if (fn && (ev == ITRACE_WALK_CALL ||
			   ev == ITRACE_WALK_RET_BEFORE))
			fn(&r, ev, w->depth, arg);
		if (!ctx->stopped)
			cond_resched();
	}
}

struct tree {
	struct itrace_ctx *ctx;
	u64 lines, skip;
	s32 base;	/* the least depth: shown as 0 */
};

static void count_line(const struct itrace_rec *r, enum itrace_walk_event ev,
		       s32 depth, void *arg)
{
	((struct tree *)arg)->lines++;
}

/* "seq depth <indent>callee (from site)", or a return out of a frame
 * entered before tracing: "<indent>^ where (entered before tracing)",
 * or a trigger's entry: "<indent>function (a trigger's entry)".
 */
static void tree_line(const struct itrace_rec *r, enum itrace_walk_event ev,
		      s32 depth, void *arg)
{
	struct tree *t = arg;
	char to[ITRACE_ADDR_MAX], from[ITRACE_ADDR_MAX];
	char args[ITRACE_VALS_MAX];
	s32 level = depth - t->base;
	int indent = 2 * min_t(s32, level, CALLS_INDENT_MAX);

	if (t->skip) {
		t->skip--;
		return;
	}
	name_addr(to, sizeof(to), r, r->to, t->ctx->stopped);
	if (ev == ITRACE_WALK_ENTRY) {
		/* a frame of depth 0, entered before its record */
		name_addr(to, sizeof(to), r, r->from, t->ctx->stopped);
		args[0] = '\0';
		if (r->nval)
			itrace_format_args(args, sizeof(args), r->nval, r->val);
		outf(t->ctx, "%10llu %5d %*s%s%s  (a trigger's entry)\n",
		     r->seq, level, indent, "", to, args);
		return;
	}
	if (ev == ITRACE_WALK_CALL) {
		name_addr(from, sizeof(from), r, r->from, t->ctx->stopped);
		args[0] = '\0';
		if (r->nval && (r->kind == ITRACE_K_CALL ||
				r->kind == ITRACE_K_ICALL))
			itrace_format_args(args, sizeof(args), r->nval, r->val);
		outf(t->ctx, "%10llu %5d %*s%s%s  (from %s)\n", r->seq, level,
		     indent, "", to, args, from);
	} else {
		outf(t->ctx, "%10llu %5d %*s^ %s  (returned to: entered before tracing)\n",
		     r->seq, level, indent, "", to);
	}
}

/* What the walk could not make a tree of, if anything. */
static void walk_notes(const char *sub, const struct itrace_walk *w,
		       struct itrace_ctx *ctx)
{
	if (w->unwound)
		outf(ctx, "itrace %s: %llu call%s left without a return (tail call, longjmp)\n",
		     sub, w->unwound, w->unwound == 1 ? "" : "s");
	if (w->unmatched)
		outf(ctx, "itrace %s: %llu return%s to no logged call site (signal, new stack)\n",
		     sub, w->unmatched, w->unmatched == 1 ? "" : "s");
	if (w->overflow)
		outf(ctx, "itrace %s: deeper than %u frames: %llu outer frame%s forgotten\n",
		     sub, ITRACE_FRAMES_MAX, w->overflow,
		     w->overflow == 1 ? "" : "s");
}

int itrace_cmd_calls(const struct itrace_cmd *cmd, struct itrace_ctx *ctx)
{
	u64 last = itrace_log_last_seq();
	struct itrace_walk *w = walk_start(ctx);
	struct tree t = { .ctx = ctx };
	int tid = one_thread("calls", cmd->pid, last, ctx);

	if (!tid)
		return -ESRCH;
	walk_thread(w, tid, last, ctx, count_line, &t);
	t.base = w->min_depth;
	if (cmd->count && t.lines > cmd->count)
		t.skip = t.lines - cmd->count;
	outf(ctx, "itrace: calls of tid %d: %llu call%s, %llu return%s, %u still open; ",
	     tid, w->calls, w->calls == 1 ? "" : "s", w->rets,
	     w->rets == 1 ? "" : "s", w->nr);
	outf(ctx, "%llu return%s out of frames entered before tracing; showing %llu line%s\n",
	     w->rets_before, w->rets_before == 1 ? "" : "s", t.lines - t.skip,
	     t.lines - t.skip == 1 ? "" : "s");
	walk_notes("calls", w, ctx);
	outf(ctx, "%10s %5s  %s\n", "seq", "depth", "function  (call site)");
	w = walk_start(ctx);
	walk_thread(w, tid, last, ctx, tree_line, &t);
	return 0;
}

/*
 * The slot whose live stack `stack @pid` shows: a traced thread of that
 * tid, or the one traced thread of that process (or of all, for 0);
 * NULL for none or several (the log then decides, as for `calls`).
 */
static struct itrace_slot *stack_slot(int pid)
{
	struct itrace_slot *found = NULL;
	unsigned int i;

	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		if (itrace_state(&s->state) == ITRACE_FREE)
			continue;
		if (pid && s->pid == pid)
			return s;
		if (pid && s->tgid != pid)
			continue;
		if (found)
			return NULL;
		found = s;
	}
	return found;
}

/* One set of frames per context, like the walker's. */
static struct itrace_shadow_frame live_frames[2][ITRACE_FRAMES_MAX];

/* What the live stack leaves to say below its frames. */
static void live_notes(const struct itrace_slot *s,
		       const struct itrace_shadow_view *v,
		       struct itrace_ctx *ctx)
{
	if (v->held > v->nr)
		outf(ctx, "itrace stack: %u more frames held, not shown\n",
		     v->held - v->nr);
	if (v->forgotten)
		outf(ctx, "itrace stack: deeper than %u frames: %llu outer frame%s not kept\n",
		     itrace_stack_frames(), v->forgotten,
		     v->forgotten == 1 ? "" : "s");
	outf(ctx, "itrace: beyond #%u%s: the frames entered before tracing began",
	     v->nr, v->forgotten ? " and those not kept" : "");
	if (v->before)
		outf(ctx, " (it returned out of %llu of them)", v->before);
	outf(ctx, "\n");
	if (v->unwound)
		outf(ctx, "itrace stack: %llu frame%s left without a return (longjmp)\n",
		     v->unwound, v->unwound == 1 ? "" : "s");
	if (v->unmatched)
		outf(ctx, "itrace stack: %llu return%s to no call site kept: no frame left\n",
		     v->unmatched, v->unmatched == 1 ? "" : "s");
	if (!v->whole)
		outf(ctx, "itrace stack: caught mid-change: the innermost frame may be off\n");
	if (!itrace_slot_stepping(s))
		outf(ctx, "itrace stack: waiting for its function: as its last call left it\n");
	else if (itrace_state(&s->state) != ITRACE_ARMED)
		outf(ctx, "itrace stack: tracing is %s: the stack as it stopped\n",
		     itrace_state_name(itrace_state(&s->state)));
}

/* `stack` of a traced thread: its live stack, exact however long it ran. */
static int live_stack(const struct itrace_slot *s, struct itrace_ctx *ctx)
{
	struct itrace_shadow_frame *f = live_frames[ctx->stopped];
	struct itrace_shadow_view v;
	char where[ITRACE_ADDR_MAX];
	u32 i;

	if (itrace_state(&s->state) == ITRACE_PENDING) {
		outf(ctx, "itrace stack: tid %d is not armed yet (pending): no stack\n",
		     s->pid);
		return -EAGAIN;
	}
	if (!s->kinds) {
		outf(ctx, "itrace stack: tid %d is traced with kinds none: no stack kept\n",
		     s->pid);
		return -ENODATA;
	}
	itrace_stack_read(s, f, ITRACE_FRAMES_MAX, &v, ctx->stopped);
	outf(ctx, "itrace: stack of tid %d, live (%llu call%s, %llu return%s), innermost first:\n",
	     s->pid, v.calls, v.calls == 1 ? "" : "s", v.rets,
	     v.rets == 1 ? "" : "s");
	itrace_syms_read_begin(ctx->stopped);
	itrace_format_addr(where, sizeof(where), &s->map, READ_ONCE(s->prev_ip));
	outf(ctx, "#%-3u %s\n", 0, where);
	for (i = 0; i < v.nr; i++) {
		itrace_format_addr(where, sizeof(where), &s->map, f[i].site);
		outf(ctx, "#%-3u %s\n", i + 1, where);
	}
	itrace_syms_read_end(ctx->stopped);
	live_notes(s, &v, ctx);
	return 0;
}

int itrace_cmd_stack(const struct itrace_cmd *cmd, struct itrace_ctx *ctx)
{
	struct itrace_slot *s = itrace_stack_frames() ? stack_slot(cmd->pid) :
							NULL;
	u64 last = itrace_log_last_seq();
	struct itrace_walk *w = walk_start(ctx);
	int tid;
	char where[ITRACE_ADDR_MAX];
	u32 i;

	if (s)
		return live_stack(s, ctx);
	tid = one_thread("stack", cmd->pid, last, ctx);
	if (!tid)
		return -ESRCH;
	walk_thread(w, tid, last, ctx, NULL, NULL);
	outf(ctx, "itrace: stack of tid %d at its last record (seq %llu), innermost first:\n",
	     tid, w->last.seq);
	name_addr(where, sizeof(where), &w->last, w->last.to, ctx->stopped);
	outf(ctx, "#%-3u %s\n", 0, where);
	for (i = 1; i <= w->nr; i++) {
		name_addr(where, sizeof(where), &w->last,
			  w->frames[w->nr - i].site, ctx->stopped);
		outf(ctx, "#%-3u %s\n", i, where);
	}
	outf(ctx, "itrace: the frames beyond #%u are not in the log: tracing began inside #%u",
	     w->nr, w->nr);
	if (w->rets_before)
		outf(ctx, " (and returned out of %llu frame%s entered before it)",
		     w->rets_before, w->rets_before == 1 ? "" : "s");
	outf(ctx, "\n");
	walk_notes("stack", w, ctx);
	return 0;
}

/* Whose registers, and how current they are. */
static void regs_header(struct task_struct *p, struct itrace_ctx *ctx)
{
	char st = task_state_to_char(p), comm[ITRACE_COMM_SHOWN];

	outf(ctx, "itrace: pid %d (%s) user registers at its last kernel entry (state %c%s)\n",
	     p->pid, itrace_comm(comm, p->comm), st,
	     st == 'R' && !ctx->stopped ? ", running: they may be changing" : "");
}

static void regs_print(const struct itrace_reg *regs, unsigned int n,
		       const struct itrace_slot *s, struct itrace_ctx *ctx)
{
	char ip[ITRACE_ADDR_MAX];
	unsigned int i;

	for (i = 0; i < n; i++)
		outf(ctx, "%8s 0x%016llx%s", regs[i].name, regs[i].val,
		     i % 4 == 3 || i == n - 1 ? "\n" : " ");
	itrace_syms_read_begin(ctx->stopped);
	itrace_format_addr(ip, sizeof(ip), &s->map, regs[0].val);
	itrace_syms_read_end(ctx->stopped);
	outf(ctx, "itrace: %s = %s\n", regs[0].name, ip);
}

static unsigned int regs_of(struct task_struct *p, struct itrace_reg *regs)
{
	return p->mm ? itrace_arch_regs(task_pt_regs(p), regs) : 0;
}

static unsigned int regs_locked(struct task_struct *p,
				struct itrace_reg *regs)
{
	unsigned int n;

	task_lock(p);
	n = regs_of(p, regs);
	task_unlock(p);
	return n;
}

/*
 * A traced task's pt_regs live on its kernel stack, which goes away once
 * it is dead. A slot not FREE means the task is before its exit hook;
 * outside kdb the task lock, with its mm still there, keeps it from
 * getting past exit_mm() while the registers are copied (get_task_mm()'s
 * rule).
 */
int itrace_cmd_regs(const struct itrace_cmd *cmd, struct itrace_ctx *ctx)
{
	struct itrace_reg regs[ITRACE_REGS_MAX];
	char comm[ITRACE_COMM_SHOWN];
	struct task_struct *p;
	struct itrace_slot *s;
	unsigned int n;
	int err = 0;

	rcu_read_lock();
	p = itrace_task_of(cmd->pid);
	s = p ? itrace_slot_of(p) : NULL;
	if (!p) {
		outf(ctx, "itrace regs: no task with pid %d\n", cmd->pid);
		err = -ESRCH;
		goto out;
	}
	if (!s) {
		outf(ctx, "itrace regs: pid %d (%s) is not traced\n", cmd->pid,
		     itrace_comm(comm, p->comm));
		err = -EINVAL;
		goto out;
	}
	n = ctx->stopped ? regs_of(p, regs) : regs_locked(p, regs);
	if (!n) {
		outf(ctx, "itrace regs: pid %d (%s) is exiting\n", cmd->pid,
		     itrace_comm(comm, p->comm));
		err = -ESRCH;
		goto out;
	}
	regs_header(p, ctx);
	regs_print(regs, n, s, ctx);
out:
	rcu_read_unlock();
	return err;
}
