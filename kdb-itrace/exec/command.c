// SPDX-License-Identifier: GPL-2.0
/*
 * The executor of the `itrace` command language, shared by every
 * front-end (the kdb command, the debugfs control file, xmon's calls):
 * parse, run, print through the caller's sink; `on` and `off` are in
 * command_onoff.c, `calls`, `stack` and `regs` in command_view.c.
 * Every path is written for both contexts: kdb and xmon (every other
 * CPU stopped, possibly inside any lock or half-way through our trap
 * path: no sleeping, allocation, locks or reference drops) and process
 * context (traps, forks, exits and kdb itself can happen at any instant:
 * every state change is a cmpxchg that rechecks, and the caller
 * serializes commands).
 */
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include "core/image.h"
#include "core/itrace.h"
#include "lib/format.h"
#include "lib/kind.h"
#include "commands.h"
#include "exec.h"

#define outf(ctx, ...)	itrace_out_printf((ctx)->out, __VA_ARGS__)

/* itrace_comm() (out.h) shows a whole comm */
static_assert(ITRACE_COMM_SHOWN == TASK_COMM_LEN);

static const char *mode_name(const struct itrace_slot *s)
{
	return s->mode == ITRACE_MODE_BLOCK ? "block" : "insn";
}

static void cmd_help(struct itrace_ctx *ctx)
{
	const char *const *l;

	for (l = itrace_help_lines; *l; l++)
		outf(ctx, "%s\n", *l);
	outf(ctx, "block mode here: %s; log: %u records per CPU\n",
	     itrace_arch_block_impl(), itrace_log_per_cpu());
}

/* "itrace: pid N: <what>" */
__printf(3, 4)
static void slot_note(struct itrace_ctx *ctx, const struct itrace_slot *s,
		      const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	outf(ctx, "itrace: pid %d: %s\n", s->pid, what);
}

/*
 * A thread that keeps its own records (keep N): how many, and whether
 * and where they were frozen ("frozen at SIGSEGV at crash_c+0x4 (fault
 * address 0x10)"), and what could not be done as asked.
 */
static void keep_notes(struct itrace_ctx *ctx, const struct itrace_slot *s)
{
	char where[ITRACE_ADDR_MAX], sig[16];
	u64 lost = itrace_keep_overwritten(s);

	if (s->keep_note == ITRACE_KEEP_NOMEM) {
		slot_note(ctx, s, "keep %u: no memory: records in the CPUs' logs only",
			  s->keep);
		return;
	}
	if (!itrace_keep_holds(s))
		return;
	slot_note(ctx, s, "keeps its last %u records (%llu logged, %llu overwritten)%s",
		  s->kept.mask + 1, READ_ONCE(s->kept.head), lost,
		  s->keep_note == ITRACE_KEEP_BUSY ?
		  ": its ring's old size (a reader held it)" : "");
	if (!READ_ONCE(s->frozen))
		return;
	smp_rmb();	/* the mark before the reason (keep.c) */
	itrace_syms_read_begin(ctx->stopped);
	itrace_format_addr(where, sizeof(where), &s->map, s->frozen_ip);
	itrace_syms_read_end(ctx->stopped);
	if (s->frozen == ITRACE_FROZE_STOP)
		slot_note(ctx, s, "frozen at its stop place %s", where);
	else if (s->frozen_fault)
		slot_note(ctx, s, "frozen at %s at %s (fault address 0x%llx)",
			  itrace_keep_signame(sig, sizeof(sig), s->frozen_sig),
			  where, s->frozen_addr);
	else
		slot_note(ctx, s, "frozen at %s at %s",
			  itrace_keep_signame(sig, sizeof(sig), s->frozen_sig),
			  where);
	if (s->keep_note == ITRACE_KEEP_NO_KDB)
		slot_note(ctx, s, "break: kdb not entered: kgdb has no I/O driver (kgdboc=)");
}

/*
 * Under the table, a line for each task whose tracing ended by itself,
 * for each whose range named no mapping (it records nothing), and for
 * each that keeps its own records.
 */
static noinline_for_stack void slot_notes(struct itrace_ctx *ctx)
{
	char line[320];
	unsigned int i;

	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];
		int st = itrace_state(&s->state);

		if (st == ITRACE_FREE)
			continue;
		if (itrace_slot_has_trigger(s)) {
			itrace_trigger_status(s, line, sizeof(line));
			slot_note(ctx, s, "%s", line);
		}
		if (s->ended == ITRACE_END_MAX)
			slot_note(ctx, s, "its budget of %u records is spent: tracing ended",
				  s->max);
		else if (st == ITRACE_ARMED && s->range_on && !s->range_hi)
			slot_note(ctx, s, "range %.*s: %s",
				  ITRACE_RANGE_NAME - 1, s->range.map,
				  "no executable mapping of that name: nothing recorded");
		if (s->keep)
			keep_notes(ctx, s);
	}
}

/* One row per traced task; how many. */
static noinline_for_stack unsigned int status_rows(struct itrace_ctx *ctx)
{
	const u64 *dropped = itrace_log_dropped(ctx->stopped);
	char opts[ITRACE_ON_OPTS_MAX], comm[ITRACE_COMM_SHOWN];
	struct itrace_on_opts o;
	unsigned int i, n = 0;
	u64 lost;

	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];
		int st = itrace_state(&s->state);

		if (st == ITRACE_FREE)
			continue;
		if (!n++)
			outf(ctx, "%7s %-16s %-8s %-5s %12s %12s %10s %7s %s\n",
			     "pid", "comm", "state", "mode", "steps",
			     "records", "dropped", "tgid", "options");
		itrace_slot_opts(s, &o);
		itrace_on_options(opts, sizeof(opts), &o);
		/* a thread with a ring of its own: what that one lost */
		lost = itrace_keep_holds(s) ? itrace_keep_overwritten(s) :
					      dropped[i];
		/* read up to comm[15], always NUL, even half-way through a copy */
		outf(ctx, "%7d %-16s %-8s %-5s %12llu %12llu %10llu %7d %s\n",
		     s->pid, itrace_comm(comm, s->comm), itrace_state_name(st),
		     mode_name(s), s->steps, s->records, lost, s->tgid,
		     opts);
	}
	return n;
}

/* the front-ends that came up (ITRACE_FE_*): main.c sets it at load */
unsigned int itrace_frontends;

/* "kdb debugfs xmon", "debugfs", ...: the front-ends that came up. */
const char *itrace_frontends_str(char *buf, size_t len)
{
	static const char *const names[] = { "kdb", "debugfs", "xmon" };
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(names) && n < len; i++)
		if (itrace_frontends & (1u << i))
			n += scnprintf(buf + n, len - n, "%s%s", n ? " " : "",
				       names[i]);
	return buf;
}

static void cmd_status(struct itrace_ctx *ctx)
{
	unsigned int i, n, used = 0, missed;
	char line[200];

	for (i = 0; i < itrace_nr_slots; i++)
		used += itrace_state(&itrace_slots[i].state) != ITRACE_FREE;
	outf(ctx, "itrace: %u/%u slots used, block mode: %s, log %u records/cpu\n",
	     used, itrace_nr_slots, itrace_arch_block_impl(),
	     itrace_log_per_cpu());
	outf(ctx, "itrace: front-ends: %s\n",
	     itrace_frontends_str(line, sizeof(line)));
	if (itrace_arch_status(line, sizeof(line)))
		outf(ctx, "itrace: %s\n", line);
	n = status_rows(ctx);
	if (!n)
		outf(ctx, "itrace: no task traced (itrace on <pid>)\n");
	slot_notes(ctx);
	itrace_watch_status(ctx->out);
	itrace_images_status(ctx->out, ctx->stopped);
	for (i = 0, n = 0; i < itrace_nr_slots; i++)
		n += READ_ONCE(itrace_slots[i].work_queued) &&
		     itrace_state(&itrace_slots[i].state) == ITRACE_PENDING;
	if (n)
		outf(ctx, "itrace: %u task%s not yet back in user mode to arm: rmmod refused\n",
		     n, n == 1 ? "" : "s");
	missed = atomic_read(&itrace_follow_missed);
	if (missed)
		outf(ctx, "itrace: %u followed task%s not traced: table full (max_tasks=%u)\n",
		     missed, missed == 1 ? "" : "s", itrace_nr_slots);
}

/* @r's line, its addresses named through its slot's maps if it has them */
static void format_sym(char *line, size_t len, const struct itrace_rec *r,
		       unsigned int cpu, bool stopped)
{
	itrace_syms_read_begin(stopped);
	itrace_format_sym(line, len, r, cpu, itrace_slot_map(r));
	itrace_syms_read_end(stopped);
}

/*
 * Where each slot's last record went, as `log` goes (one set per
 * context: kdb can stop a debugfs reader): recursion is no new entry.
 */
static u64 log_prev_to[2][ITRACE_MAX_TASKS];

/* "-- pid 60: func target entered (tp_trig+0x162b)" before its record */
static void entry_line(const struct itrace_rec *r, struct itrace_ctx *ctx)
{
	u64 *prev = &log_prev_to[ctx->stopped][r->slot % ITRACE_MAX_TASKS];
	const char *what = itrace_rec_entry(r, *prev);
	char where[ITRACE_ADDR_MAX];

	*prev = r->to;
	if (!what)
		return;
	itrace_syms_read_begin(ctx->stopped);
	itrace_format_addr(where, sizeof(where), itrace_slot_map(r), r->from);
	itrace_syms_read_end(ctx->stopped);
	outf(ctx, "-- pid %u: %s %s entered (%s)\n", r->pid, what,
	     itrace_slots[r->slot].func[0] ? itrace_slots[r->slot].func :
					     itrace_slots[r->slot].start,
	     where);
}

/*
 * log -i: @line (a record's, ending in a newline) with the bytes of the
 * instruction at its from address after it, "?" where its task's traps
 * did not keep them (lib/codememo.h).
 */
static void line_bytes(const char *line, const struct itrace_rec *r,
		       struct itrace_ctx *ctx)
{
	char text[3 * ITRACE_CODE_MAX + 1];
	u8 b[ITRACE_CODE_MAX];
	unsigned int n = itrace_rec_code(r, b);
	size_t len = strlen(line);

	if (len && line[len - 1] == '\n')
		len--;
	itrace_format_bytes(text, sizeof(text), b, n);
	/* two pieces: a line and the bytes may pass one output piece */
	outf(ctx, "%.*s", (int)len, line);
	outf(ctx, "  insn:%s\n", n ? text : " ?");
}

static void cmd_log(const struct itrace_cmd *cmd, struct itrace_ctx *ctx)
{
	struct itrace_merge *m = ctx->merge;
	struct itrace_rec r;
	unsigned int cpu, i;
	u64 total = 0, skip = 0, n = 0, torn;
	const struct itrace_slot *kept;
	/* both passes see the same records, also while traps go on */
	u64 last = itrace_log_last_seq();
	char line[ITRACE_LINE_MAX];
	const u64 *dropped;

	itrace_merge_start(m, cmd->pid, last);
	kept = itrace_merge_kept(m);
	while (itrace_merge_next(m, &r, &cpu)) {
		total++;
		if (!ctx->stopped)
			cond_resched();
	}
	if (cmd->count && total > cmd->count)
		skip = total - cmd->count;

	if (!cmd->raw) {
		outf(ctx, "itrace: %llu record%s%s, showing %llu\n", total,
		     total == 1 ? "" : "s",
		     cmd->pid ? " for that pid/process" : "",
		     total - skip);
		dropped = itrace_log_dropped(ctx->stopped);
		for (i = 0; i < itrace_nr_slots; i++) {
			struct itrace_slot *s = &itrace_slots[i];
			u64 d = dropped[i];

			/* read from its own ring: what that one lost */
			if (s == kept)
				d = itrace_keep_overwritten(s);
			if (d && (!cmd->pid || s->pid == cmd->pid ||
				  s->tgid == cmd->pid))
				outf(ctx, "itrace: pid %d: %llu record%s overwritten (log full)\n",
				     s->pid, d, d == 1 ? "" : "s");
		}
		if (kept)
			keep_notes(ctx, kept);
		itrace_format_sym_header(line, sizeof(line));
		outf(ctx, "%s", line);
	}

	memset(log_prev_to[ctx->stopped], 0, sizeof(log_prev_to[0]));
	itrace_merge_start(m, cmd->pid, last);
	while (itrace_merge_next(m, &r, &cpu)) {
		if (n++ < skip) {
			log_prev_to[ctx->stopped][r.slot % ITRACE_MAX_TASKS] =
				r.to;
			continue;
		}
		if (cmd->raw)
			itrace_format_raw(line, sizeof(line), &r, cpu);
		else
			format_sym(line, sizeof(line), &r, cpu, ctx->stopped);
		/* each invocation of a trigger on its own (raw: records only) */
		if (!cmd->raw)
			entry_line(&r, ctx);
		if (cmd->insn)
			line_bytes(line, &r, ctx);
		else
			outf(ctx, "%s", line);
		if (!ctx->stopped)
			cond_resched();
	}
	torn = itrace_merge_torn(m);
	if (torn && ctx->stopped)
		outf(ctx, "itrace: %llu torn record%s skipped (a CPU was stopped mid-write)\n",
		     torn, torn == 1 ? "" : "s");
	torn += itrace_merge_late(m);
	if (torn && !ctx->stopped)
		outf(ctx, "itrace: %llu record%s skipped (overwritten while read)\n",
		     torn, torn == 1 ? "" : "s");
}

int itrace_exec(int argc, const char *const *argv, struct itrace_ctx *ctx)
{
	struct itrace_cmd cmd;
	char err[128];

	if (itrace_parse(argc, argv, &cmd, err, sizeof(err))) {
		outf(ctx, "%s\n", err);
		return -EINVAL;
	}
	switch (cmd.op) {
	case ITRACE_OP_HELP:
		cmd_help(ctx);
		break;
	case ITRACE_OP_STATUS:
		cmd_status(ctx);
		break;
	case ITRACE_OP_ON:
		return itrace_cmd_on(&cmd, ctx);
	case ITRACE_OP_OFF:
		return itrace_cmd_off(&cmd, ctx);
	case ITRACE_OP_LOG:
		cmd_log(&cmd, ctx);
		break;
	case ITRACE_OP_CALLS:
		return itrace_cmd_calls(&cmd, ctx);
	case ITRACE_OP_STACK:
		return itrace_cmd_stack(&cmd, ctx);
	case ITRACE_OP_REGS:
		return itrace_cmd_regs(&cmd, ctx);
	case ITRACE_OP_TOP:
		return itrace_cmd_top(&cmd, ctx);
	case ITRACE_OP_CLEAR:
		itrace_log_clear();
		outf(ctx, "itrace: log cleared\n");
		break;
	}
	return 0;
}
