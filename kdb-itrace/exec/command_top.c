// SPDX-License-Identifier: GPL-2.0
/*
 * `itrace top [-n N] [pid]` for the executor (command.c): what the log
 * holds of a task (a thread, a process, or every task), counted three
 * ways, the first questions about a task that spins: the functions its
 * records come from (self: the record's from lies inside), the call
 * sites it calls from most, and its taken jumps and branches most
 * taken. One pass over the merged log into fixed tables (no allocation:
 * kdb or xmon, every other CPU stopped; or process context, debugfs,
 * whose caller runs one command at a time); one set of tables per
 * context, as kdb can stop a debugfs reader half-way.
 */
#include <linux/sched.h>
#include "core/image.h"
#include "core/itrace.h"
#include "lib/format.h"
#include "lib/kind.h"
#include "commands.h"

#define outf(ctx, ...)	itrace_out_printf((ctx)->out, __VA_ARGS__)

/* Distinct keys each table counts; the records of any more, in lost. */
#define TOP_KEYS	512

/*
 * One counted thing: a function (a = its start; b = 1: the code of a
 * mapping no symbol covers, a = its start), a call site (a = the call,
 * b = where the last one went), a branch (a = from, b = to); in
 * the process of its tgid, named through the maps of the slot (and
 * generation) of its first record.
 */
struct top_ent {
	u64 a, b;
	u64 n;
	u32 tgid;
	u16 gen;
	u8 slot;
	bool used;
	bool varies;	/* a call site whose calls went to several places */
};

struct top_table {
	struct top_ent e[TOP_KEYS];
	u32 nr;		/* keys in use */
	u64 lost;	/* records of keys that found no room */
	u64 total;	/* records counted */
};

enum { TOP_FUNCS, TOP_SITES, TOP_BRANCHES, TOP_NR };

static struct top_table top_tables[2][TOP_NR];

static u32 top_hash(u64 a, u64 b, u32 tgid)
{
	u64 h = (a ^ (b * 0x9e3779b97f4a7c15ULL) ^ tgid) * 0x9e3779b97f4a7c15ULL;

	return (u32)(h >> 32) & (TOP_KEYS - 1);
}

/* Count one record under key (@a, @b) of @r's process; @b matched too. */
static void top_count(struct top_table *t, const struct itrace_rec *r,
		      u32 tgid, u64 a, u64 b, bool match_b)
{
	u32 i = top_hash(a, match_b ? b : 0, tgid), k;

	t->total++;
	for (k = 0; k < TOP_KEYS; k++, i = (i + 1) & (TOP_KEYS - 1)) {
		struct top_ent *e = &t->e[i];

		if (!e->used) {
			if (t->nr == TOP_KEYS * 3 / 4)
				break;	/* keep probes short: full */
			*e = (struct top_ent){ .a = a, .b = b, .tgid = tgid,
					       .gen = r->gen, .slot = r->slot,
					       .used = true };
			t->nr++;
		} else if (e->a != a || e->tgid != tgid ||
			   (match_b && e->b != b)) {
			continue;
		}
		if (!match_b && e->b != b) {
			e->varies = true;
			e->b = b;
		}
		e->n++;
		return;
	}
	t->lost++;
}

/* The records of @pid up to @last, counted into this context's tables. */
static void top_gather(struct itrace_ctx *ctx, int pid, u64 last)
{
	struct top_table *t = top_tables[ctx->stopped];
	struct itrace_rec r;
	unsigned int cpu;

	memset(t, 0, sizeof(top_tables[0]));
	itrace_merge_start(ctx->merge, pid, last);
	while (itrace_merge_next(ctx->merge, &r, &cpu)) {
		const struct itrace_symmap *m = itrace_slot_map(&r);
		u32 tgid = r.slot < itrace_nr_slots ?
			   itrace_slots[r.slot].tgid : 0;
		bool nosym = false;
		u64 fn = 0;

		itrace_syms_read_begin(ctx->stopped);
		if (m)
			fn = itrace_func_of(m, r.from, &nosym);
		itrace_syms_read_end(ctx->stopped);
		top_count(&t[TOP_FUNCS], &r, tgid, fn, nosym, true);
		if (r.kind == ITRACE_K_CALL || r.kind == ITRACE_K_ICALL)
			top_count(&t[TOP_SITES], &r, tgid, r.from, r.to, false);
		else if (r.kind == ITRACE_K_JCC || r.kind == ITRACE_K_JMP ||
			 r.kind == ITRACE_K_IJMP)
			top_count(&t[TOP_BRANCHES], &r, tgid, r.from, r.to,
				  true);
		if (!ctx->stopped)
			cond_resched();
	}
}

/*
 * The next entry of @t by count below (@n, @i) in the order (count
 * down, index up), or NULL: a selection that needs no sorted copy.
 */
static const struct top_ent *top_next(const struct top_table *t, u64 *n,
				      u32 *i)
{
	const struct top_ent *best = NULL;
	u32 k, bi = 0;

	for (k = 0; k < TOP_KEYS; k++) {
		const struct top_ent *e = &t->e[k];

		if (!e->used || e->n > *n || (e->n == *n && k <= *i))
			continue;
		if (!best || e->n > best->n) {
			best = e;
			bi = k;
		}
	}
	if (best) {
		*n = best->n;
		*i = bi;
	}
	return best;
}

/* @addr as the log names it; a function row's key (@func) by its name */
static void name_addr(char *buf, size_t len, const struct top_ent *e,
		      u64 addr, bool stopped, bool func)
{
	struct itrace_rec r = { .slot = e->slot, .gen = e->gen };
	const struct itrace_symmap *m = itrace_slot_map(&r);

	if (!m) {
		/* the slot was reused since: no names */
		snprintf(buf, len, "0x%llx", addr);
		return;
	}
	itrace_syms_read_begin(stopped);
	if (func)
		itrace_format_func(buf, len, m, addr, e->b);
	else
		itrace_format_addr(buf, len, m, addr);
	itrace_syms_read_end(stopped);
}

/* The rows of one table, the @max (0: all) highest counts first. */
static void top_rows(const struct top_table *t, int what, u32 max,
		     struct itrace_ctx *ctx)
{
	char x[ITRACE_ADDR_MAX], y[ITRACE_ADDR_MAX];
	const struct top_ent *e;
	u64 n = ~0ULL;
	u32 i = 0, shown = 0;

	while ((!max || shown < max) && (e = top_next(t, &n, &i))) {
		shown++;
		if (what == TOP_FUNCS) {
			name_addr(x, sizeof(x), e, e->a, ctx->stopped, true);
			outf(ctx, "%10llu %5llu.%01llu%%  %s\n", e->n,
			     e->n * 100 / t->total,
			     e->n * 1000 / t->total % 10, x);
			continue;
		}
		name_addr(x, sizeof(x), e, e->a, ctx->stopped, false);
		name_addr(y, sizeof(y), e, e->b, ctx->stopped, false);
		outf(ctx, "%10llu  %s -> %s%s\n", e->n, x, y,
		     e->varies ? " (and elsewhere)" : "");
	}
	if (shown < t->nr)
		outf(ctx, "itrace top: %u more not shown (-n 0: all)\n",
		     t->nr - shown);
	if (t->lost)
		outf(ctx, "itrace top: more than %u distinct: %llu records not counted\n",
		     TOP_KEYS * 3 / 4, t->lost);
}

int itrace_cmd_top(const struct itrace_cmd *cmd, struct itrace_ctx *ctx)
{
	const struct top_table *t = top_tables[ctx->stopped];
	u64 last = itrace_log_last_seq();

	top_gather(ctx, cmd->pid, last);
	if (!t[TOP_FUNCS].total) {
		if (cmd->pid)
			outf(ctx, "itrace top: no records of pid %d in the log\n",
			     cmd->pid);
		else
			outf(ctx, "itrace top: the log is empty\n");
		return -ESRCH;
	}
	if (cmd->pid)
		outf(ctx, "itrace: top of pid %d: %llu records in the log, %u functions\n",
		     cmd->pid, t[TOP_FUNCS].total, t[TOP_FUNCS].nr);
	else
		outf(ctx, "itrace: top of every task: %llu records in the log, %u functions\n",
		     t[TOP_FUNCS].total, t[TOP_FUNCS].nr);
	outf(ctx, "%10s %7s  %s\n", "records", "share", "function (records from inside it)");
	top_rows(&t[TOP_FUNCS], TOP_FUNCS, cmd->count, ctx);
	outf(ctx, "itrace: %llu calls from %u call sites\n",
	     t[TOP_SITES].total, t[TOP_SITES].nr);
	outf(ctx, "%10s  %s\n", "calls", "call site -> callee");
	top_rows(&t[TOP_SITES], TOP_SITES, cmd->count, ctx);
	outf(ctx, "itrace: %llu taken jumps and branches over %u edges\n",
	     t[TOP_BRANCHES].total, t[TOP_BRANCHES].nr);
	outf(ctx, "%10s  %s\n", "taken", "from -> to");
	top_rows(&t[TOP_BRANCHES], TOP_BRANCHES, cmd->count, ctx);
	return 0;
}
