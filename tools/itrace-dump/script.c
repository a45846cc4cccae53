// SPDX-License-Identifier: GPL-2.0
/*
 * `itrace-dump script`: one line per record in perf script's branch
 * form, the record's seq where perf has the time (-F +time: the time
 * too, in seconds of CLOCK_MONOTONIC, before the seq):
 *
 *     tp_calls    118 [000] #20513: call   5581e8a5f1c0 main+0x30 (/bin/tp_calls) => ...
 *     tp_calls    118 [000] 812.043611052 #20513: call ...
 *
 * -F +syscall adds a system call's number and return value after its
 * line's target ("  nr 1 = 6"), +args a call's arguments ("  (0x1,
 * 0x2)") and a return's value ("  = 0x6"), as `itrace log` shows them
 * (kdb-itrace/lib/values.c).
 * Kinds as perf names them where it has a name (a call, direct or not,
 * is `call`; a ret `return`); insn, jcc-nt and far as kdb-itrace does.
 */
#include <string.h>

#include "dump.h"
#include "lib/format.h"
#include "lib/kind.h"
#include "lib/values.h"

/* dump.h cannot see kdb-itrace's headers (the capture-only build) */
_Static_assert(REC_VALS == ITRACE_REC_VALS, "REC_VALS is ring.h's");

static const char *const perf_kind[ITRACE_K_NR] = {
	[ITRACE_K_INSN] = "insn",	[ITRACE_K_JCC_NT] = "jcc-nt",
	[ITRACE_K_JCC] = "jcc",		[ITRACE_K_JMP] = "jmp",
	[ITRACE_K_CALL] = "call",	[ITRACE_K_RET] = "return",
	[ITRACE_K_ICALL] = "call",	[ITRACE_K_IJMP] = "jmp",
	[ITRACE_K_SYSCALL] = "syscall",	[ITRACE_K_INT] = "int",
	[ITRACE_K_IRET] = "iret",	[ITRACE_K_FAR] = "far",
	[ITRACE_K_ASYNC] = "async",
};

static void addr(struct obuf *b, const struct sym *cs, uint64_t a)
{
	struct sym *s = (struct sym *)cs;

	ob_hex(b, a, 16);
	if (!s->text &&
	    asprintf(&s->text, " %s (%s)", s->name, s->dso) >= 0)
		s->text_len = strlen(s->text);
	if (s->text)
		ob_mem(b, s->text, s->text_len);
}

/* "        tp_calls " : the comm right-aligned in 16 columns, made once */
static const char *comm_col(struct take *t)
{
	if (!t)
		return "       [unknown] ";
	if (!t->comm_col && asprintf(&t->comm_col, "%16s ", t->comm) < 0)
		return "       [unknown] ";
	return t->comm_col;
}

/* -F +srcline: a second line, "  FILE:LINE => FILE:LINE" ("??:0": none) */
static void srclines(struct obuf *b, const struct sym *from,
		     const struct sym *to)
{
	ob_str(b, "  ");
	ob_str(b, from->srcline ? from->srcline : "??:0");
	ob_str(b, " => ");
	ob_str(b, to->srcline ? to->srcline : "??:0");
	ob_ch(b, '\n');
}

/* "812.043611052 " */
static void time_col(struct obuf *b, uint64_t ns)
{
	ob_u64(b, ns / 1000000000, 0);
	ob_ch(b, '.');
	ob_u64(b, ns % 1000000000, -9);
	ob_ch(b, ' ');
}

/* the record's values, if -F asks for its kind's */
static void values(struct obuf *b, const struct out_opts *o,
		   const struct rec *r)
{
	char t[ITRACE_VALS_MAX];
	bool sys = r->kind == ITRACE_K_SYSCALL;

	if (!r->nval || !(sys ? o->syscall : o->args))
		return;
	itrace_format_vals(t, sizeof(t), r->kind, r->nval, r->val);
	ob_str(b, t);
}

/*
 * -F +insn: " ilen: 5 insn: e8 cd fe ff ff" (perf script's words), and
 * -F +disasm: "  call 0x401136": the instruction at the record's from
 * address, as the file that maps it has it ("ilen: 0" and "(unknown)"
 * where no file does).
 */
static void code_cols(struct obuf *b, const struct out_opts *o,
		      struct capture *c, struct take *t, const struct rec *r,
		      const struct sym *from)
{
	char bytes[3 * sizeof(from->code) + 1];

	code_of(c, t, r->from, from, o->disasm);
	if (o->insn) {
		ob_str(b, " ilen: ");
		ob_u64(b, from->code_len, 0);
		if (from->code_len)
			ob_str(b, " insn:");
		ob_mem(b, bytes, itrace_format_bytes(bytes, sizeof(bytes),
						     from->code, from->code_len));
	}
	if (o->disasm) {
		ob_str(b, "  ");
		ob_str(b, from->disasm ? from->disasm : "(unknown)");
	}
}

int out_script(struct capture *c, const struct out_opts *o, FILE *f)
{
	struct obuf b;
	size_t i;

	ob_init(&b, f);
	for (i = 0; i < c->nr_recs; i++) {
		const struct rec *r = &c->recs[i];
		struct take *t = capture_rec_take(c, r);
		const struct sym *from = sym_lookup(c, t, r->from);
		const struct sym *to = sym_lookup(c, t, r->to);

		ob_str(&b, comm_col(t));
		ob_u64(&b, r->pid, 6);
		ob_str(&b, " [");
		ob_u64(&b, r->cpu, -3);
		ob_str(&b, "] ");
		if (o->time)
			time_col(&b, r->ns);
		ob_ch(&b, '#');
		ob_u64(&b, r->seq, 0);
		ob_str(&b, ": ");
		ob_pad(&b, perf_kind[r->kind], -8);
		addr(&b, from, r->from);
		ob_str(&b, " => ");
		addr(&b, to, r->to);
		values(&b, o, r);
		if (o->insn || o->disasm)
			code_cols(&b, o, c, t, r, from);
		ob_ch(&b, '\n');
		if (o->srcline)
			srclines(&b, from, to);
	}
	return ob_close(&b);
}
