// SPDX-License-Identifier: GPL-2.0
/*
 * The views that follow calls and returns, per thread: `calls` (a call
 * tree in uftrace replay's form), `folded` (collapsed stacks for flame
 * graphs) and `chrome` (Chrome trace-event JSON). One shadow-stack walk
 * serves all three: kdb-itrace's own (kdb-itrace/lib/calls.c, behind its
 * `calls` and `stack`), which sends a return back to the innermost frame
 * whose call site lies at most one call instruction's length before its
 * target (x86_64 15 bytes, ppc64le 4), the frames above it left without
 * a return, and a return with no frame known out of a function entered
 * before tracing began. What a view keeps per frame lies beside its
 * frames, at the same index.
 */
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "lib/calls.h"
#include "lib/kind.h"
#include "lib/values.h"

#define MAX_FRAMES	4096

/* a frame of the walk (calls.c's, copied) and what the views keep of it */
struct frame {
	uint64_t site, entry, seq;
	uint64_t t;		/* the call's time (rec_time()) */
	uint64_t val[REC_VALS];	/* its arguments, nval of them */
	uint8_t nval;
	size_t nrec;		/* the thread's records before the call */
	const char *name;
	size_t stack_len;	/* folded: the stack string up to it */
};

/* one thread's walk, and what the view keeps beside it */
struct walk {
	struct capture *c;
	const struct out_opts *o;
	struct obuf *b;
	uint32_t pid;
	struct take *take;
	struct itrace_walk iw;
	struct itrace_frame frames[MAX_FRAMES];	/* iw's */
	struct frame f[MAX_FRAMES];		/* beside them */
	/*
	 * What the views see: frames open (f[0..nr)), and the depth of the
	 * event's line (iw's depth, shifted by base so the least is 0).
	 */
	size_t nr;
	long depth, base;
	size_t nrec;		/* records of the thread so far */
	uint64_t t;		/* the record's time, rec_time() */
	bool have_t;
	/* calls */
	bool pending;		/* the top frame's line is not written yet */
	long shown_from;	/* -F: depth of the shown call, or -1 */
	/* folded */
	size_t root_len;	/* of the thread's name, the stack's root */
	char stack[65536];
	size_t stack_len;
};

/* the view's part: what a walk event does */
struct view {
	void (*call)(struct walk *w, const struct rec *r);
	void (*ret)(struct walk *w, const struct rec *r, struct frame *f);
	void (*ret_before)(struct walk *w, const struct rec *r);
	void (*rec)(struct walk *w, const struct rec *r);
	void (*end)(struct walk *w, const struct rec *last);
};

/* A function's name at its entry @a: "f", "f+0x8", or 0xADDR. */
static const char *func_name(struct walk *w, uint64_t a)
{
	return sym_lookup(w->c, w->take, a)->label;
}

/* calls.c pushed frames[iw.nr - 1] (moving them all down when full) */
static void walk_call(struct walk *w, const struct rec *r, const struct view *v,
		      uint64_t overflow)
{
	struct frame *f;

	if (w->iw.overflow != overflow)
		memmove(w->f, w->f + 1, (MAX_FRAMES - 1) * sizeof(w->f[0]));
	w->nr = w->iw.nr;
	w->depth = w->iw.depth + w->base;
	f = &w->f[w->nr - 1];
	f->site = r->from;
	f->entry = r->to;
	f->seq = r->seq;
	f->t = w->t;
	f->nval = r->nval;
	memcpy(f->val, r->val, sizeof(f->val));
	f->nrec = w->nrec;
	f->name = func_name(w, r->to);
	if (v->call)
		v->call(w, r);
}

/*
 * calls.c popped frames [iw.nr, @before) (their entries stay until the
 * next push): each ends, innermost first, at the depth of its line.
 */
static void walk_ret(struct walk *w, const struct rec *r, const struct view *v,
		     uint32_t before)
{
	while (before > w->iw.nr) {
		w->nr = --before;
		w->depth = w->iw.depth + w->base + (before - w->iw.nr);
		if (v->ret)
			v->ret(w, r, &w->f[before]);
	}
}

/*
 * The time of the thread's record @r for the views, in ns: its own
 * (version 2) or its seq's, one record one microsecond (version 1),
 * and never at or before the thread's previous one: a coarse clock
 * gives many records one reading, and a thread that moved between CPUs
 * may read one a little behind; slices then still nest, 1 ns apart.
 */
static void rec_time(struct walk *w, const struct rec *r)
{
	uint64_t t = w->c->version > 1 ? r->ns : r->seq * 1000;

	if (w->have_t && t <= w->t)
		t = w->t + 1;
	w->t = t;
	w->have_t = true;
}

/* Walk the records of @pid (indices @idx[0..n)) through view @v. */
static void walk_thread(struct walk *w, const size_t *idx, size_t n,
			const struct view *v)
{
	const struct rec *r = NULL;
	struct itrace_rec ir = { 0 };
	uint64_t overflow;
	uint32_t before;
	size_t i;

	for (i = 0; i < n; i++) {
		r = &w->c->recs[idx[i]];
		w->take = capture_rec_take(w->c, r);
		rec_time(w, r);
		if (v->rec)
			v->rec(w, r);
		ir.seq = r->seq;
		ir.from = r->from;
		ir.to = r->to;
		ir.pid = r->pid;
		ir.kind = r->kind;
		before = w->iw.nr;
		overflow = w->iw.overflow;
		switch (itrace_walk_rec(&w->iw, &ir)) {
		case ITRACE_WALK_CALL:
			walk_call(w, r, v, overflow);
			break;
		case ITRACE_WALK_RET:
			walk_ret(w, r, v, before);
			break;
		case ITRACE_WALK_RET_BEFORE:
			w->depth = w->iw.depth + w->base;
			if (v->ret_before)
				v->ret_before(w, r);
			break;
		default:
			break;
		}
		w->nrec++;
	}
	if (v->end && r)
		v->end(w, r);
}

/*
 * Group the records by thread, threads in the order of their first
 * record: @order gets the record indices, thread after thread; @first
 * and @count per thread. Returns the number of threads, or -1.
 */
struct threads {
	uint32_t *pid;
	size_t *first, *count, *order, nr;
};

static int group(struct capture *c, struct threads *t)
{
	size_t i, j, cap = 0, *fill;

	memset(t, 0, sizeof(*t));
	t->order = malloc((c->nr_recs + 1) * sizeof(size_t));
	if (!t->order)
		return -1;
	for (i = 0; i < c->nr_recs; i++) {
		for (j = t->nr; j > 0 && t->pid[j - 1] != c->recs[i].pid; j--)
			;
		if (j) {
			t->count[j - 1]++;
			continue;
		}
		if (t->nr == cap) {
			cap = cap ? cap * 2 : 16;
			t->pid = realloc(t->pid, cap * sizeof(*t->pid));
			t->first = realloc(t->first, cap * sizeof(size_t));
			t->count = realloc(t->count, cap * sizeof(size_t));
			if (!t->pid || !t->first || !t->count)
				return -1;
		}
		t->pid[t->nr] = c->recs[i].pid;
		t->count[t->nr++] = 1;
	}
	fill = calloc(t->nr + 1, sizeof(size_t));
	if (!fill)
		return -1;
	for (j = 0, i = 0; j < t->nr; j++) {
		t->first[j] = i;
		i += t->count[j];
	}
	for (i = 0; i < c->nr_recs; i++) {
		for (j = 0; t->pid[j] != c->recs[i].pid; j++)
			;
		t->order[t->first[j] + fill[j]++] = i;
	}
	free(fill);
	return 0;
}

static void threads_free(struct threads *t)
{
	free(t->pid);
	free(t->first);
	free(t->count);
	free(t->order);
}

/* the longest call instruction of the capture's arch */
static uint32_t call_len(const struct capture *c)
{
	return strcmp(c->arch, "ppc64le") && strcmp(c->arch, "ppc64") ? 15 : 4;
}

/* A fresh walk of one thread, its least depth shown as 0. */
static void walk_start(struct walk *w, struct capture *c,
		       const struct out_opts *o, struct obuf *b, uint32_t pid,
		       long least)
{
	memset(w, 0, offsetof(struct walk, stack));
	w->c = c;
	w->o = o;
	w->b = b;
	w->pid = pid;
	w->base = -least;
	w->shown_from = -1;
	itrace_walk_init(&w->iw, w->frames, MAX_FRAMES, call_len(c));
}

/* Run view @v over every thread, with @least from a first walk if asked. */
static int run_view(struct capture *c, const struct out_opts *o,
		    struct obuf *b, const struct view *v, bool least)
{
	static const struct view none;
	struct threads t;
	struct walk *w;
	size_t i;

	w = malloc(sizeof(*w));
	if (!w || group(c, &t)) {
		free(w);
		fprintf(stderr, "itrace-dump: out of memory\n");
		return -1;
	}
	for (i = 0; i < t.nr; i++) {
		long lo = 0;

		if (least) {
			walk_start(w, c, o, b, t.pid[i], 0);
			walk_thread(w, t.order + t.first[i], t.count[i], &none);
			lo = w->iw.min_depth;
		}
		walk_start(w, c, o, b, t.pid[i], lo);
		walk_thread(w, t.order + t.first[i], t.count[i], v);
	}
	threads_free(&t);
	free(w);
	return 0;
}

/* ---- calls: uftrace replay's form ---------------------------------- */

static bool shown(struct walk *w, long depth)
{
	if (w->o->only_func && (w->shown_from < 0 || depth < w->shown_from))
		return false;
	if (w->o->max_depth &&
	    depth - (w->shown_from < 0 ? 0 : w->shown_from) >= w->o->max_depth)
		return false;
	return true;
}

static void calls_line(struct walk *w, long depth, const char *dur)
{
	long ind = depth - (w->shown_from < 0 ? 0 : w->shown_from);

	ob_pad(w->b, dur, 10);
	ob_str(w->b, " [");
	ob_u64(w->b, w->pid, 6);
	ob_str(w->b, "] | ");
	while (ind-- > 0)
		ob_str(w->b, "  ");
}

/* "(0x1, 0x2)": a frame's arguments where the capture has them */
static void call_args(struct walk *w, const struct frame *f)
{
	char t[ITRACE_VALS_MAX];

	itrace_format_args(t, sizeof(t), f->nval, f->val);
	ob_str(w->b, t);
}

/*
 * " = 0x6" if @r is the return out of @f (not out of a frame inside it
 * that never returned) and holds its value; false if nothing written.
 */
static bool ret_value(struct walk *w, const struct rec *r,
		      const struct frame *f)
{
	if (f != &w->f[w->iw.nr] || r->kind != ITRACE_K_RET || !r->nval)
		return false;
	ob_str(w->b, " = 0x");
	ob_hex(w->b, r->val[0], 0);
	return true;
}

/* the pending call line, written as a call with callees */
static void calls_flush(struct walk *w)
{
	long d = w->depth - 1;

	if (!w->pending)
		return;
	w->pending = false;
	if (!shown(w, d))
		return;
	calls_line(w, d, "");
	ob_str(w->b, w->f[w->nr - 1].name);
	call_args(w, &w->f[w->nr - 1]);
	ob_str(w->b, " {\n");
}

static void calls_call(struct walk *w, const struct rec *r)
{
	struct frame *f = &w->f[w->nr - 1];

	(void)r;
	if (w->nr > 1) {
		/* the caller's line first */
		w->nr--;
		w->depth--;
		calls_flush(w);
		w->nr++;
		w->depth++;
	}
	if (w->o->only_func && w->shown_from < 0 &&
	    !strcmp(f->name, w->o->only_func))
		w->shown_from = w->depth - 1;
	w->pending = true;
}

/*
 * A leaf on one line, "f(args) = value;", else the closing
 * "} = value; / * f * /" (args and value where the capture has them).
 */
static void calls_ret(struct walk *w, const struct rec *r, struct frame *f)
{
	char dur[24];

	snprintf(dur, sizeof(dur), "%zu", w->nrec + 1 - f->nrec);
	if (shown(w, w->depth)) {
		calls_line(w, w->depth, dur);
		if (w->pending) {
			ob_str(w->b, f->name);
			call_args(w, f);
			ret_value(w, r, f);
			ob_str(w->b, ";\n");
		} else {
			ob_ch(w->b, '}');
			ob_str(w->b, ret_value(w, r, f) ? "; /* " : " /* ");
			ob_str(w->b, f->name);
			ob_str(w->b, " */\n");
		}
	}
	w->pending = false;
	if (w->shown_from == w->depth)
		w->shown_from = -1;
}

static void calls_ret_before(struct walk *w, const struct rec *r)
{
	const struct sym *s;

	calls_flush(w);
	if (w->o->only_func || !shown(w, w->depth))
		return;
	s = sym_lookup(w->c, w->take, r->from);
	calls_line(w, w->depth, "");
	ob_str(w->b, "} /* ");
	ob_str(w->b, s->func ? s->func : s->label);
	ob_str(w->b, " */\n");
}

static void calls_end(struct walk *w, const struct rec *last)
{
	(void)last;
	calls_flush(w);
}

int out_calls(struct capture *c, const struct out_opts *o, FILE *f)
{
	static const struct view v = {
		.call = calls_call, .ret = calls_ret,
		.ret_before = calls_ret_before, .end = calls_end,
	};
	struct obuf b;

	ob_init(&b, f);
	ob_str(&b, "#  RECORDS      TID   FUNCTION\n");
	if (run_view(c, o, &b, &v, true))
		return -1;
	return ob_close(&b);
}

/* ---- folded: collapsed stacks -------------------------------------- */

struct fold {
	char *stack;
	size_t count;
};

static struct fold *folds;
static size_t folds_nr, folds_cap;	/* open addressing, by the string */
static char **fold_order;		/* first-seen order, for the output */
static size_t fold_order_nr;

static size_t str_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return (size_t)h;
}

static struct fold *fold_slot(const char *s, size_t n)
{
	size_t i = str_hash(s, n) & (folds_cap - 1);

	while (folds[i].stack &&
	       (strncmp(folds[i].stack, s, n) || folds[i].stack[n]))
		i = (i + 1) & (folds_cap - 1);
	return &folds[i];
}

static bool folds_grow(void)
{
	struct fold *old = folds;
	size_t i, ocap = folds_cap;

	folds_cap = ocap ? ocap * 2 : 1024;
	folds = calloc(folds_cap, sizeof(*folds));
	if (!folds)
		return false;
	for (i = 0; i < ocap; i++)
		if (old[i].stack)
			*fold_slot(old[i].stack, strlen(old[i].stack)) = old[i];
	free(old);
	return true;
}

static void fold_add(const char *s, size_t n)
{
	struct fold *f;
	char **no;

	if ((folds_nr + 1) * 2 > folds_cap && !folds_grow())
		return;
	f = fold_slot(s, n);
	if (!f->stack) {
		f->stack = strndup(s, n);
		no = realloc(fold_order, (fold_order_nr + 1) * sizeof(*no));
		if (!f->stack || !no)
			return;
		fold_order = no;
		fold_order[fold_order_nr++] = f->stack;
		folds_nr++;
	}
	f->count++;
}

/* append ";name" to the stack string (the part that fits) */
static void stack_push(struct walk *w, const char *name)
{
	size_t n = strlen(name);

	if (w->stack_len + 1 + n >= sizeof(w->stack))
		return;
	w->stack[w->stack_len++] = ';';
	memcpy(w->stack + w->stack_len, name, n);
	w->stack_len += n;
}

static void fold_rec(struct walk *w, const struct rec *r)
{
	const struct sym *s;
	size_t i;

	if (!w->root_len) {	/* the thread's first record: its name */
		const char *comm = w->take ? w->take->comm : "[unknown]";

		w->root_len = strlen(comm) < 256 ? strlen(comm) : 255;
		for (i = 0; i < w->root_len; i++)
			w->stack[i] = comm[i] == ';' ? '_' : comm[i];
		w->stack_len = w->root_len;
	}
	if (w->nr) {
		fold_add(w->stack, w->f[w->nr - 1].stack_len);
		return;
	}
	/* no frame known: the function the record is in */
	s = sym_lookup(w->c, w->take, r->from);
	stack_push(w, func_name(w, s->func ? s->func_start : r->from));
	fold_add(w->stack, w->stack_len);
	w->stack_len = w->root_len;
}

static void fold_call(struct walk *w, const struct rec *r)
{
	struct frame *f = &w->f[w->nr - 1];

	(void)r;
	w->stack_len = w->nr > 1 ? w->f[w->nr - 2].stack_len : w->root_len;
	stack_push(w, f->name);
	f->stack_len = w->stack_len;
}

static void fold_ret(struct walk *w, const struct rec *r, struct frame *f)
{
	(void)r;
	(void)f;
	w->stack_len = w->nr ? w->f[w->nr - 1].stack_len : w->root_len;
}

int out_folded(struct capture *c, const struct out_opts *o, FILE *f)
{
	static const struct view v = {
		.rec = fold_rec, .call = fold_call, .ret = fold_ret,
	};
	struct obuf b;
	size_t i;

	ob_init(&b, f);
	if (run_view(c, o, &b, &v, false))
		return -1;
	for (i = 0; i < fold_order_nr; i++) {
		struct fold *x = fold_slot(fold_order[i], strlen(fold_order[i]));

		ob_str(&b, x->stack);
		ob_ch(&b, ' ');
		ob_u64(&b, x->count, 0);
		ob_ch(&b, '\n');
	}
	return ob_close(&b);
}

/* ---- chrome: trace-event JSON -------------------------------------- */

/*
 * Each call a complete ("X") event, written at its return, so slices
 * nest by construction: ts is the call's time, dur the time to its
 * return. Time is the records' own (CLOCK_MONOTONIC, from the capture's
 * earliest record), or in a version 1 capture, which has none, synthetic:
 * one record, one microsecond. Syscalls, interrupts and async records
 * are thread instants. A call's arguments and return value, a system
 * call's number and return value go into the events' args where the
 * capture has them.
 */
static bool ev_written;
static bool real_time;
static uint64_t base_ns;

/* a time of rec_time(), in ns from the trace's start */
static uint64_t t_of(uint64_t t)
{
	return real_time && t >= base_ns ? t - base_ns : t;
}

/* @t ns as microseconds, "12.345" */
static void ob_us(struct obuf *b, uint64_t t)
{
	ob_u64(b, t / 1000, 0);
	ob_ch(b, '.');
	ob_u64(b, t % 1000, -3);
}
static uint32_t *named_tgids;
static size_t nr_named;

static void ev_begin(struct walk *w, const char *name, const char *cat,
		     const char *ph, uint64_t ts)
{
	uint32_t tgid = w->take ? w->take->tgid : w->pid;

	ob_str(w->b, ev_written ? ",\n{\"name\":" : "\n{\"name\":");
	ev_written = true;
	ob_json_str(w->b, name);
	ob_str(w->b, ",\"cat\":\"");
	ob_str(w->b, cat);
	ob_str(w->b, "\",\"ph\":\"");
	ob_str(w->b, ph);
	ob_str(w->b, "\",\"pid\":");
	ob_u64(w->b, tgid, 0);
	ob_str(w->b, ",\"tid\":");
	ob_u64(w->b, w->pid, 0);
	ob_str(w->b, ",\"ts\":");
	ob_us(w->b, ts);
}

static void chrome_names(struct walk *w)
{
	const char *comm = w->take ? w->take->comm : "[unknown]";
	uint32_t tgid = w->take ? w->take->tgid : w->pid, *n;
	size_t i;

	for (i = 0; i < nr_named && named_tgids[i] != tgid; i++)
		;
	if (i == nr_named && (n = realloc(named_tgids, (i + 1) * sizeof(*n)))) {
		named_tgids = n;
		named_tgids[nr_named++] = tgid;
		ev_begin(w, "process_name", "__metadata", "M", 0);
		ob_str(w->b, ",\"args\":{\"name\":");
		ob_json_str(w->b, comm);
		ob_str(w->b, "}}");
	}
	ev_begin(w, "thread_name", "__metadata", "M", 0);
	ob_str(w->b, ",\"args\":{\"name\":");
	ob_json_str(w->b, comm);
	ob_str(w->b, "}}");
}

/* ,"NAME":["0x1","0x2"]: values as hex strings (JSON numbers are doubles) */
static void json_vals(struct obuf *b, const char *name, const uint64_t *v,
		      unsigned int n)
{
	unsigned int i;

	ob_str(b, ",\"");
	ob_str(b, name);
	ob_str(b, "\":[");
	for (i = 0; i < n; i++) {
		ob_str(b, i ? ",\"0x" : "\"0x");
		ob_hex(b, v[i], 0);
		ob_ch(b, '"');
	}
	ob_ch(b, ']');
}

/* @f's slice up to @end; @r: the return out of it, NULL if unfinished */
static void slice(struct walk *w, const struct frame *f, uint64_t end,
		  const struct rec *r)
{
	const struct sym *site = sym_lookup(w->c, w->take, f->site);
	uint64_t start = t_of(f->t);

	ev_begin(w, f->name, "call", "X", start);
	ob_str(w->b, ",\"dur\":");
	ob_us(w->b, end > start ? end - start : 0);
	ob_str(w->b, ",\"args\":{\"seq\":");
	ob_u64(w->b, f->seq, 0);
	ob_str(w->b, ",\"from\":");
	ob_json_str(w->b, site->name);
	if (f->nval)
		json_vals(w->b, "args", f->val, f->nval);
	if (r && r->kind == ITRACE_K_RET && r->nval && f == &w->f[w->iw.nr])
		json_vals(w->b, "ret", r->val, 1);
	if (!r)
		ob_str(w->b, ",\"unfinished\":true");
	ob_str(w->b, "}}");
}

static void chrome_rec(struct walk *w, const struct rec *r)
{
	const struct sym *s;

	if (!w->nrec)
		chrome_names(w);
	if (r->kind != ITRACE_K_SYSCALL && r->kind != ITRACE_K_INT &&
	    r->kind != ITRACE_K_ASYNC)
		return;
	s = sym_lookup(w->c, w->take, r->from);
	ev_begin(w, itrace_kind_name(r->kind), "instant", "i",
		 t_of(w->t));
	ob_str(w->b, ",\"s\":\"t\",\"args\":{\"seq\":");
	ob_u64(w->b, r->seq, 0);
	ob_str(w->b, ",\"at\":");
	ob_json_str(w->b, s->name);
	if (r->kind == ITRACE_K_SYSCALL && r->nval == 2) {
		ob_str(w->b, ",\"nr\":");
		ob_u64(w->b, r->val[0], 0);
		ob_str(w->b, ",\"ret\":");
		if ((int64_t)r->val[1] < 0) {
			ob_ch(w->b, '-');
			ob_u64(w->b, -r->val[1], 0);
		} else {
			ob_u64(w->b, r->val[1], 0);
		}
	}
	ob_str(w->b, "}}");
}

static void chrome_ret(struct walk *w, const struct rec *r, struct frame *f)
{
	slice(w, f, t_of(w->t), r);
}

/* frames still open at the thread's last record end just after it */
static void chrome_end(struct walk *w, const struct rec *last)
{
	(void)last;
	while (w->nr)
		slice(w, &w->f[--w->nr], t_of(w->t) + 1, NULL);
}

int out_chrome(struct capture *c, const struct out_opts *o, FILE *f)
{
	static const struct view v = {
		.rec = chrome_rec, .ret = chrome_ret, .end = chrome_end,
	};
	struct obuf b;
	size_t i;

	real_time = c->version > 1 && c->nr_recs;
	base_ns = real_time ? c->recs[0].ns : 0;
	for (i = 1; real_time && i < c->nr_recs; i++)
		if (c->recs[i].ns < base_ns)
			base_ns = c->recs[i].ns;
	ob_init(&b, f);
	ob_str(&b, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"clock\":");
	ob_json_str(&b, real_time ?
		    "CLOCK_MONOTONIC: ts is the record's time from the earliest record's" :
		    "synthetic: ts is the record's seq, one record one microsecond");
	if (real_time) {
		ob_str(&b, ",\"start_ns\":");
		ob_u64(&b, base_ns, 0);
	}
	ob_str(&b, ",\"arch\":");
	ob_json_str(&b, c->arch);
	ob_str(&b, ",\"capture\":");
	ob_json_str(&b, c->name);
	ob_str(&b, "},\"traceEvents\":[");
	if (run_view(c, o, &b, &v, false))
		return -1;
	ob_str(&b, "\n]}\n");
	return ob_close(&b);
}

/* Forget what the views kept between runs (for the fuzzer). */
void tree_exit(void)
{
	size_t i;

	for (i = 0; i < fold_order_nr; i++)
		free(fold_order[i]);
	free(fold_order);
	free(folds);
	free(named_tgids);
	fold_order = NULL;
	folds = NULL;
	named_tgids = NULL;
	fold_order_nr = 0;
	folds_nr = 0;
	folds_cap = 0;
	nr_named = 0;
	ev_written = false;
}
