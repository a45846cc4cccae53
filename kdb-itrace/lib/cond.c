// SPDX-License-Identifier: GPL-2.0
/*
 * The condition compiler and evaluator (see cond.h).
 *
 * Compiling, in process context or in kdb (no allocation, no sleeping,
 * no locks; under 700 bytes of stack), is three phases:
 *   tokenize  lex(): the words read as one blank-separated text, a token
 *             at a time; quotes skipped, names looked up
 *   parse     parse(): operator precedence by the shunting-yard
 *             algorithm, straight into the postfix program: operators
 *             wait on a fixed stack instead of recursion, so nesting
 *             and length have explicit bounds
 *   check     shape(): the program's tree rebuilt from the postfix and
 *             verified (operand counts, register indexes, every jump
 *             forward to its own LAND/LOR), so that a compiled program
 *             never underflows or overflows the evaluator's stack
 * Printing walks the same tree. Evaluating, in the trap or uprobe
 * handler (IRQs may be off; lock-free), is one pass over the ops: jumps
 * only skip forward, so it takes at most ITRACE_COND_OPS steps; it still
 * checks its stack, jumps and register indexes, so a program that was
 * never compiled cannot make it touch memory out of bounds.
 */
#include "cond.h"
#include "out.h"

#define PREFIX		"itrace on: condition: "
#define QUOTE_IT	"or quote the condition"	/* the kdb way out */
#define NO_NODE		0xff

/* How tightly each operator binds; values (and u8[...]) tightest. */
enum {
	P_OR = 1,
	P_AND,
	P_CMP,
	P_BAND,
	P_SUM,
	P_NOT,
	P_VALUE,
};

enum op_kind {
	K_NONE,
	K_LEAF,		/* pushes a value */
	K_UNARY,	/* takes the top */
	K_BINARY,	/* takes two */
	K_JUMP,		/* JFALSE, JTRUE: the middle of && and || */
	K_JOIN,		/* LAND, LOR: their end, taking both sides */
};

static const struct {
	const char *word;	/* as typed and printed (kdb spelling) */
	u8 kind;		/* enum op_kind */
	u8 prec;
} ops[ITRACE_COND_NR_CODES] = {
	[ITRACE_COND_CONST]	= { NULL, K_LEAF, P_VALUE },
	[ITRACE_COND_REG]	= { NULL, K_LEAF, P_VALUE },
	[ITRACE_COND_ARG]	= { NULL, K_LEAF, P_VALUE },
	[ITRACE_COND_LOAD]	= { NULL, K_UNARY, P_VALUE },
	[ITRACE_COND_NOT]	= { "not", K_UNARY, P_NOT },
	[ITRACE_COND_EQ]	= { "eq", K_BINARY, P_CMP },
	[ITRACE_COND_NE]	= { "ne", K_BINARY, P_CMP },
	[ITRACE_COND_LT]	= { "lt", K_BINARY, P_CMP },
	[ITRACE_COND_LE]	= { "le", K_BINARY, P_CMP },
	[ITRACE_COND_GT]	= { "gt", K_BINARY, P_CMP },
	[ITRACE_COND_GE]	= { "ge", K_BINARY, P_CMP },
	[ITRACE_COND_BAND]	= { "&", K_BINARY, P_BAND },
	[ITRACE_COND_ADD]	= { "+", K_BINARY, P_SUM },
	[ITRACE_COND_SUB]	= { "-", K_BINARY, P_SUM },
	[ITRACE_COND_JFALSE]	= { NULL, K_JUMP, 0 },
	[ITRACE_COND_JTRUE]	= { NULL, K_JUMP, 0 },
	[ITRACE_COND_LAND]	= { "and", K_JOIN, P_AND },
	[ITRACE_COND_LOR]	= { "or", K_JOIN, P_OR },
};

/* A u8 index or jump target reaches every op; leaves fit the stack. */
static_assert(ITRACE_COND_OPS < NO_NODE && ITRACE_COND_REGS <= NO_NODE,
	      "u8 op and register indexes");
static_assert(ITRACE_COND_STACK * 2 >= ITRACE_COND_OPS,
	      "room for every leaf a program can hold");

static enum op_kind kind_of(u8 code)
{
	return code < ITRACE_COND_NR_CODES ? ops[code].kind : K_NONE;
}

static bool is_size(unsigned int n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

/* ---- tokenize ---- */

enum tok_kind {
	T_END,
	T_VALUE,	/* code CONST, REG or ARG, with arg and imm */
	T_LOAD,		/* u8 u16 u32 u64: arg bytes */
	T_NOT,
	T_BINARY,	/* code */
	T_OPEN,		/* ( ) [ ], in this order */
	T_CLOSE,
	T_LBRACKET,
	T_RBRACKET,
};

struct tok {
	enum tok_kind kind;
	u8 code;
	u8 arg;
	u64 imm;
	const char *s;		/* as typed, for messages */
	int len;
};

/* Operators waiting for their right side, and open ( and u8[. */
#define M_PAREN		ITRACE_COND_NR_CODES
#define M_BRACKET	(ITRACE_COND_NR_CODES + 1)

struct pending {
	u8 code;		/* an operator, M_PAREN or M_BRACKET */
	u8 arg;			/* M_BRACKET: bytes; LAND, LOR: their jump */
};

struct compiler {
	/* tokenize */
	int argc;
	const char *const *argv;
	int w;			/* the word being read */
	int i;			/* and where in it */
	char quote;		/* the open quote, or 0 */
	const struct itrace_cond_regs *r;
	unsigned int flags;
	/* parse */
	struct itrace_cond *c;
	struct pending stack[ITRACE_COND_OPS + ITRACE_COND_NEST];
	unsigned int sp;
	unsigned int nest;	/* M_PAREN and M_BRACKET on the stack */
	unsigned int planned;	/* ops emitted and owed by the stack */
	u8 load;		/* after u8 u16 u32 u64: its bytes */
	struct tok prev;	/* the last token, for messages */
	bool have_prev;
	char *err;
	size_t errlen;
};

static __printf(2, 3) int fail(struct compiler *k, const char *fmt, ...)
{
	va_list ap;
	int n = scnprintf(k->err, k->errlen, PREFIX);

	va_start(ap, fmt);
	vsnprintf(k->err + n, k->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* kdb_parse() splits at isspace(), debugfs at these too. */
static bool is_blank(char ch)
{
	return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool is_alpha(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       ch == '_';
}

static int word_len(const char *s)
{
	int n = 0;

	while (is_alpha(s[n]) || is_digit(s[n]))
		n++;
	return n;
}

/* The value of hex digit @ch, or 16 for anything else. */
static unsigned int digit(char ch)
{
	if (is_digit(ch))
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return 16;
}

static bool tok_is(const struct tok *t, const char *word)
{
	return (int)strlen(word) == t->len && !strncmp(t->s, word, t->len);
}

/*
 * Past blanks, word ends and quotes to the next token: 0 there, 1 at the
 * end. An empty word is refused: only kdb makes one, out of a '='.
 */
static int skip(struct compiler *k)
{
	for (; k->w < k->argc; k->w++, k->i = 0) {
		const char *s = k->argv[k->w];

		if (!s[0])
			return fail(k, "empty word (kdb drops '=': write eq, ne, le, ge, %s)",
				    QUOTE_IT);
		for (; s[k->i]; k->i++) {
			char ch = s[k->i];

			if (ch == '"' || ch == '\'') {
				if (k->quote && k->quote != ch)
					return 0;	/* the other one: a bad token */
				k->quote = k->quote ? 0 : ch;
			} else if (!is_blank(ch)) {
				return 0;
			}
		}
	}
	if (k->quote)
		return fail(k, "unmatched quote %c", k->quote);
	return 1;
}

static bool all_digits(const char *s, int n)
{
	while (n && is_digit(*s)) {
		s++;
		n--;
	}
	return !n;
}

/* Decimal, or 0x hex; a leading 0 (octal in C) is refused. */
static int lex_number(struct compiler *k, struct tok *t)
{
	const char *s = t->s;
	unsigned int base = 10, d;
	bool big = false;
	int i = 0;
	u64 v = 0;

	t->len = word_len(s);
	if (t->len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (t->len > 1 && s[0] == '0') {
		base = 0;	/* 010, 0x, 0_ */
	}
	for (; i < t->len; i++) {
		d = digit(s[i]);
		if (d >= base)
			return fail(k, "bad number '%.*s' (decimal or 0x hex)",
				    t->len, s);
		if (v > (~0ULL - d) / base)
			big = true;
		v = v * base + d;
	}
	if (big)
		return fail(k, "number too big '%.*s' (more than 64 bits)",
			    t->len, s);
	t->kind = T_VALUE;
	t->code = ITRACE_COND_CONST;
	t->arg = base;
	t->imm = v;
	return 0;
}

static int lex_reg(struct compiler *k, struct tok *t)
{
	unsigned int i;

	if (t->len == 4 && !strncmp(t->s, "arg", 3) && t->s[3] >= '0' &&
	    t->s[3] < '0' + ITRACE_COND_ARGS) {
		t->kind = T_VALUE;
		t->code = ITRACE_COND_ARG;
		t->imm = t->s[3] - '0';
		t->arg = k->r->arg[t->imm];
		return 0;
	}
	for (i = 0; i < k->r->nr; i++) {
		if (tok_is(t, k->r->names[i])) {
			t->kind = T_VALUE;
			t->code = ITRACE_COND_REG;
			t->arg = i;
			return 0;
		}
	}
	if (t->len > 3 && !strncmp(t->s, "arg", 3) &&
	    all_digits(t->s + 3, t->len - 3))
		return fail(k, "no argument '%.*s' (arg0..arg5)", t->len,
			    t->s);
	return fail(k, "unknown register '%.*s'", t->len, t->s);
}

/* Operator words, loads, then arguments and registers. */
static int lex_name(struct compiler *k, struct tok *t)
{
	static const char *const loads[] = { "u8", "u16", "u32", "u64" };
	unsigned int i;

	t->len = word_len(t->s);
	for (i = 0; i < ITRACE_COND_NR_CODES; i++) {
		if (ops[i].word && is_alpha(ops[i].word[0]) &&
		    tok_is(t, ops[i].word)) {
			t->kind = i == ITRACE_COND_NOT ? T_NOT : T_BINARY;
			t->code = i;
			return 0;
		}
	}
	for (i = 0; i < ARRAY_SIZE(loads); i++) {
		if (tok_is(t, loads[i])) {
			t->kind = T_LOAD;
			t->arg = 1 << i;
			return 0;
		}
	}
	return lex_reg(k, t);
}

/* The C spellings of the operators, longest first. */
static const struct {
	char s[3];
	u8 code;
} symbols[] = {
	{ "==", ITRACE_COND_EQ }, { "!=", ITRACE_COND_NE },
	{ "<=", ITRACE_COND_LE }, { ">=", ITRACE_COND_GE },
	{ "&&", ITRACE_COND_LAND }, { "||", ITRACE_COND_LOR },
	{ "<", ITRACE_COND_LT }, { ">", ITRACE_COND_GT },
	{ "&", ITRACE_COND_BAND }, { "+", ITRACE_COND_ADD },
	{ "-", ITRACE_COND_SUB },
};

static int lex_symbol(struct compiler *k, struct tok *t)
{
	static const char groups[] = "()[]";
	const char *g = strchr(groups, t->s[0]);
	unsigned int i;

	t->len = 1;
	if (g) {
		t->kind = T_OPEN + (g - groups);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(symbols); i++) {
		t->len = strlen(symbols[i].s);
		if (!strncmp(t->s, symbols[i].s, t->len))
			break;
	}
	if (i == ARRAY_SIZE(symbols)) {
		t->len = 1;
		if (t->s[0] == '!') {
			t->kind = T_NOT;
			return 0;
		}
		if (t->s[0] == '=')
			return fail(k, "'=' alone (write == or eq)");
		return fail(k, "unexpected character '%c'", t->s[0]);
	}
	t->kind = T_BINARY;
	t->code = symbols[i].code;
	/* "a <= b" reaches us from kdb as "a < b" */
	if ((k->flags & ITRACE_COND_KDB) && !k->quote &&
	    (t->code == ITRACE_COND_LT || t->code == ITRACE_COND_GT))
		return fail(k, "'%c' at kdb, which drops the '=' of '%c=': write %s or %s, %s",
			    t->s[0], t->s[0], t->s[0] == '<' ? "lt" : "gt",
			    t->s[0] == '<' ? "le" : "ge", QUOTE_IT);
	return 0;
}

static int lex(struct compiler *k, struct tok *t)
{
	int ret = skip(k);

	memset(t, 0, sizeof(*t));
	t->s = "";
	if (ret)
		return ret < 0 ? ret : 0;	/* 1: T_END */
	t->s = k->argv[k->w] + k->i;
	if (is_digit(t->s[0]))
		ret = lex_number(k, t);
	else if (is_alpha(t->s[0]))
		ret = lex_name(k, t);
	else
		ret = lex_symbol(k, t);
	k->i += t->len;
	return ret;
}

/* ---- parse ---- */

static int plan(struct compiler *k, unsigned int n)
{
	if (k->planned + n > ITRACE_COND_OPS)
		return fail(k, "too long (more than %d operations)",
			    ITRACE_COND_OPS);
	k->planned += n;
	return 0;
}

/* Every op was planned first, so the program has room for it. */
static void emit(struct compiler *k, u8 code, u8 arg, u64 imm)
{
	struct itrace_cond_op *o;

	if (k->c->nr >= ITRACE_COND_OPS)
		return;		/* cannot happen; shape() would refuse */
	o = &k->c->op[k->c->nr++];
	o->code = code;
	o->arg = arg;
	o->imm = imm;
}

static void push(struct compiler *k, u8 code, u8 arg)
{
	if (k->sp < ARRAY_SIZE(k->stack)) {
		k->stack[k->sp].code = code;
		k->stack[k->sp].arg = arg;
		k->sp++;
	}
}

static bool top_is_operator(const struct compiler *k)
{
	return k->sp && k->stack[k->sp - 1].code < ITRACE_COND_NR_CODES;
}

/* The top operator's right side is complete: emit it. */
static void pop_operator(struct compiler *k)
{
	const struct pending *p = &k->stack[--k->sp];

	if (kind_of(p->code) == K_JOIN)
		k->c->op[p->arg].arg = k->c->nr;	/* its jump lands here */
	emit(k, p->code, 0, 0);
}

/* Operators that bind at least as tightly go first (left to right). */
static int binary_op(struct compiler *k, const struct tok *t)
{
	u8 prec = ops[t->code].prec, top;
	int ret;

	while (top_is_operator(k)) {
		top = ops[k->stack[k->sp - 1].code].prec;
		if (top < prec)
			break;
		if (top == P_CMP && prec == P_CMP)
			return fail(k, "'%.*s' after a comparison: they do not chain (use and)",
				    t->len, t->s);
		pop_operator(k);
	}
	if (kind_of(t->code) != K_JOIN) {
		ret = plan(k, 1);
		if (!ret)
			push(k, t->code, 0);
		return ret;
	}
	ret = plan(k, 2);
	if (ret)
		return ret;
	push(k, t->code, k->c->nr);
	emit(k, t->code == ITRACE_COND_LAND ? ITRACE_COND_JFALSE :
					    ITRACE_COND_JTRUE, 0, 0);
	return 0;
}

static int open_group(struct compiler *k, u8 marker, u8 arg)
{
	if (k->nest == ITRACE_COND_NEST)
		return fail(k, "nested too deep (more than %d '(' and '[')",
			    ITRACE_COND_NEST);
	k->nest++;
	push(k, marker, arg);
	return 0;
}

/* ) or ]: the operators since its ( or u8[ go first. */
static int close_group(struct compiler *k, const struct tok *t)
{
	u8 want = t->kind == T_CLOSE ? M_PAREN : M_BRACKET;
	const struct pending *p;

	while (top_is_operator(k))
		pop_operator(k);
	if (!k->sp)
		return fail(k, "'%c' without '%c'", t->s[0],
			    want == M_PAREN ? '(' : '[');
	p = &k->stack[--k->sp];
	k->nest--;
	if (p->code == M_PAREN && want != M_PAREN)
		return fail(k, "']' does not close '('");
	if (p->code == M_BRACKET && want != M_BRACKET)
		return fail(k, "')' does not close 'u%u['", p->arg * 8);
	if (want == M_BRACKET)
		emit(k, ITRACE_COND_LOAD, p->arg, 0);
	return 0;
}

/* The end: what still waits on the stack, unless a group is open. */
static int finish(struct compiler *k)
{
	while (k->sp) {
		const struct pending *p = &k->stack[k->sp - 1];

		if (p->code == M_PAREN)
			return fail(k, "'(' without ')'");
		if (p->code == M_BRACKET)
			return fail(k, "'u%u[' without ']'", p->arg * 8);
		pop_operator(k);
	}
	return 0;
}

static int no_value(struct compiler *k, const struct tok *t)
{
	if (t->kind == T_END && !k->have_prev)
		return fail(k, "empty");
	if (t->kind == T_END)
		return fail(k, "expected a value after '%.*s'", k->prev.len,
			    k->prev.s);
	if (!k->have_prev)
		return fail(k, "expected a value first, got '%.*s'", t->len,
			    t->s);
	return fail(k, "expected a value after '%.*s', got '%.*s'",
		    k->prev.len, k->prev.s, t->len, t->s);
}

/* Where a value belongs: a value, or what starts one. */
static int at_value(struct compiler *k, const struct tok *t,
		    bool *have_value)
{
	int ret;

	switch (t->kind) {
	case T_VALUE:
		ret = plan(k, 1);
		if (!ret)
			emit(k, t->code, t->arg, t->imm);
		*have_value = true;
		return ret;
	case T_NOT:
		ret = plan(k, 1);
		if (!ret)
			push(k, ITRACE_COND_NOT, 0);
		return ret;
	case T_OPEN:
		return open_group(k, M_PAREN, 0);
	case T_LOAD:
		k->load = t->arg;	/* its '[' next */
		return 0;
	default:
		return no_value(k, t);
	}
}

/* Where an operator belongs, after a value. */
static int at_operator(struct compiler *k, const struct tok *t,
		       bool *have_value)
{
	switch (t->kind) {
	case T_BINARY:
		*have_value = false;
		return binary_op(k, t);
	case T_CLOSE:
	case T_RBRACKET:
		return close_group(k, t);
	case T_END:
		return finish(k);
	default:
		break;
	}
	if ((k->flags & ITRACE_COND_KDB) && !k->quote && tok_is(t, "!"))
		return fail(k, "'!' after a value: kdb drops the '=' of '!=': write ne, %s",
			    QUOTE_IT);
	return fail(k, "expected an operator after '%.*s', got '%.*s'",
		    k->prev.len, k->prev.s, t->len, t->s);
}

/* Tokens alternate between where a value and an operator belong. */
static int parse(struct compiler *k)
{
	bool have_value = false;
	struct tok t;
	int ret;

	do {
		ret = lex(k, &t);
		if (ret)
			return ret;
		if (k->load && t.kind != T_LBRACKET)
			return fail(k, "expected '[' after '%.*s'",
				    k->prev.len, k->prev.s);
		if (k->load) {
			ret = plan(k, 1);
			if (!ret)
				ret = open_group(k, M_BRACKET, k->load);
			k->load = 0;
		} else if (have_value) {
			ret = at_operator(k, &t, &have_value);
		} else {
			ret = at_value(k, &t, &have_value);
		}
		if (ret)
			return ret;
		k->prev = t;
		k->have_prev = true;
	} while (t.kind != T_END);
	return 0;
}

/* ---- check ---- */

/* The program as a tree: each op's subtree is op[start[i]..i]. */
struct shape {
	u8 start[ITRACE_COND_OPS];
	u8 parent[ITRACE_COND_OPS];	/* NO_NODE: the root (or a jump) */
};

static bool leaf_ok(const struct itrace_cond_op *o,
		    const struct itrace_cond_regs *r)
{
	switch (o->code) {
	case ITRACE_COND_CONST:
		return o->arg == 10 || o->arg == 16;
	case ITRACE_COND_REG:
		return o->arg < r->nr;
	default:
		return o->imm < ITRACE_COND_ARGS && o->arg == r->arg[o->imm];
	}
}

static void adopt(struct shape *s, unsigned int parent, unsigned int child)
{
	s->parent[child] = parent;
	s->start[parent] = s->start[child];
}

/*
 * LAND/LOR at @i: its right side ends just before it and starts just
 * after its own jump, which lands here, and its left side ends just
 * before that jump.
 */
static int join(const struct itrace_cond *c, struct shape *s,
		unsigned int i, const u8 *node, unsigned int n)
{
	u8 jump = c->op[i].code == ITRACE_COND_LAND ? ITRACE_COND_JFALSE :
						      ITRACE_COND_JTRUE;
	int right, left, j;

	if (n < 2)
		return -1;
	right = node[n - 1];
	left = node[n - 2];
	j = s->start[right] - 1;
	if (right != (int)i - 1 || left != j - 1 || j < 1 ||
	    c->op[j].code != jump || c->op[j].arg != i)
		return -1;
	adopt(s, i, right);
	adopt(s, i, left);
	return 0;
}

/* Each op's operands are the values pending just before it. */
static int shape(const struct itrace_cond *c,
		 const struct itrace_cond_regs *r, struct shape *s)
{
	u8 node[ITRACE_COND_STACK];	/* ops whose value is pending */
	unsigned int n = 0, i, jumps = 0;

	if (!c->nr || c->nr > ITRACE_COND_OPS)
		return -1;
	for (i = 0; i < c->nr; i++) {
		const struct itrace_cond_op *o = &c->op[i];

		s->start[i] = i;
		s->parent[i] = NO_NODE;
		switch (kind_of(o->code)) {
		case K_LEAF:
			if (!leaf_ok(o, r) || n == ITRACE_COND_STACK)
				return -1;
			node[n++] = i;
			break;
		case K_UNARY:
			if (!n || node[n - 1] != i - 1 ||
			    (o->code == ITRACE_COND_LOAD && !is_size(o->arg)))
				return -1;
			adopt(s, i, node[n - 1]);
			node[n - 1] = i;
			break;
		case K_BINARY:
			if (n < 2 || node[n - 1] != i - 1)
				return -1;
			adopt(s, i, node[--n]);
			adopt(s, i, node[n - 1]);
			node[n - 1] = i;
			break;
		case K_JUMP:
			if (!n || node[n - 1] != i - 1 || o->arg <= i ||
			    o->arg >= c->nr)
				return -1;
			jumps++;
			break;
		case K_JOIN:
			if (join(c, s, i, node, n))
				return -1;
			n--;
			node[n - 1] = i;
			jumps--;
			break;
		default:
			return -1;
		}
	}
	return n == 1 && !jumps ? 0 : -1;
}

int itrace_cond_compile(struct itrace_cond *c,
			const struct itrace_cond_regs *r, int argc,
			const char *const *argv, unsigned int flags,
			char *err, size_t errlen)
{
	struct compiler k = {
		.argc = argc, .argv = argv, .r = r, .flags = flags, .c = c,
		.err = err, .errlen = errlen,
	};
	struct shape s;
	unsigned int i;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	err[0] = '\0';
	if (r->nr > ITRACE_COND_REGS)
		ret = fail(&k, "%u registers (more than %d)", r->nr,
			   ITRACE_COND_REGS);
	for (i = 0; !ret && i < ITRACE_COND_ARGS; i++)
		if (r->arg[i] >= r->nr)
			ret = fail(&k, "arg%u is register %u of %u", i,
				   r->arg[i], r->nr);
	if (!ret)
		ret = parse(&k);
	if (!ret && shape(c, r, &s))
		ret = fail(&k, "internal error: the program does not check");
	if (ret) {
		memset(c, 0, sizeof(*c));
		/*
		 * the message quotes what was typed: a control byte in it
		 * would split the line or drive the console (as in parse.c)
		 */
		itrace_name(err, errlen, err, errlen - 1, ITRACE_NAME_QMARK);
		return -EINVAL;
	}
	c->nregs = r->nr;
	return 0;
}

/* ---- evaluate ---- */

static bool compare(u8 code, u64 a, u64 b, u64 *v)
{
	switch (code) {
	case ITRACE_COND_EQ:
		*v = a == b;
		break;
	case ITRACE_COND_NE:
		*v = a != b;
		break;
	case ITRACE_COND_LT:
		*v = a < b;
		break;
	case ITRACE_COND_LE:
		*v = a <= b;
		break;
	case ITRACE_COND_GT:
		*v = a > b;
		break;
	case ITRACE_COND_GE:
		*v = a >= b;
		break;
	case ITRACE_COND_BAND:
		*v = a & b;
		break;
	case ITRACE_COND_ADD:
		*v = a + b;
		break;
	case ITRACE_COND_SUB:
		*v = a - b;
		break;
	default:
		return false;
	}
	return true;
}

static int load(const struct itrace_cond_mem *mem, unsigned int size,
		u64 *v)
{
	u64 val = 0;

	if (!is_size(size))
		return -EINVAL;
	if (!mem || !mem->load || mem->load(mem->ctx, *v, size, &val))
		return -EFAULT;
	*v = size == 8 ? val : val & ((1ULL << (size * 8)) - 1);
	return 0;
}

int itrace_cond_eval(const struct itrace_cond *c, const u64 *regs,
		     const struct itrace_cond_mem *mem)
{
	u64 v[ITRACE_COND_STACK];
	unsigned int n = 0, i;
	int ret;

	if (!c->nr)
		return 1;
	if (c->nr > ITRACE_COND_OPS)
		return -EINVAL;
	for (i = 0; i < c->nr; i++) {
		const struct itrace_cond_op *o = &c->op[i];

		switch (kind_of(o->code)) {
		case K_LEAF:
			if (n == ITRACE_COND_STACK ||
			    (o->code != ITRACE_COND_CONST && o->arg >= c->nregs))
				return -EINVAL;
			v[n++] = o->code == ITRACE_COND_CONST ? o->imm :
								regs[o->arg];
			continue;
		case K_BINARY:
			if (n < 2 || !compare(o->code, v[n - 2], v[n - 1],
					      &v[n - 2]))
				return -EINVAL;
			n--;
			continue;
		case K_JUMP:
			if (!n || o->arg <= i || o->arg >= c->nr)
				return -EINVAL;
			if (o->code == ITRACE_COND_JFALSE ? !v[n - 1] : !!v[n - 1])
				i = o->arg - 1;	/* keep it for LAND/LOR */
			else
				n--;
			continue;
		default:
			break;
		}
		if (!n)
			return -EINVAL;
		if (o->code == ITRACE_COND_LOAD) {
			ret = load(mem, o->arg, &v[n - 1]);
			if (ret)
				return ret;
		} else if (o->code == ITRACE_COND_NOT) {
			v[n - 1] = !v[n - 1];
		} else if (kind_of(o->code) == K_JOIN) {
			v[n - 1] = !!v[n - 1];
		} else {
			return -EINVAL;
		}
	}
	return n == 1 ? v[0] != 0 : -EINVAL;
}

/* ---- print ---- */

struct out {
	char *buf;
	size_t len;
	size_t w;
	char last;
};

/* Blank-separated, but none after ( and [ or before ) and ]. */
static void put(struct out *o, const char *s)
{
	bool glue = !o->w || o->last == '(' || o->last == '[' ||
		    s[0] == ')' || s[0] == ']';

	o->w += scnprintf(o->buf + o->w, o->len - o->w, "%s%s",
			  glue ? "" : " ", s);
	if (*s)
		o->last = s[strlen(s) - 1];
}

/*
 * Parentheses where the parser would otherwise group differently: around
 * a looser operand, a right operand as loose as its operator (left to
 * right), and a comparison's comparison.
 */
static bool parens(const struct itrace_cond *c, const struct shape *s,
		   unsigned int n)
{
	unsigned int p = s->parent[n], pp, np;

	if (p == NO_NODE || c->op[p].code == ITRACE_COND_LOAD)
		return false;
	pp = ops[c->op[p].code].prec;
	np = ops[c->op[n].code].prec;
	if (c->op[p].code == ITRACE_COND_NOT)
		return np < pp;
	if (n == p - 1)
		return np <= pp;
	return np < pp || (np == P_CMP && pp == P_CMP);
}

static void put_leaf(struct out *o, const struct itrace_cond_op *op,
		     const struct itrace_cond_regs *r)
{
	char num[24];

	if (op->code == ITRACE_COND_REG) {
		put(o, r->names[op->arg]);
		return;
	}
	if (op->code == ITRACE_COND_ARG)
		snprintf(num, sizeof(num), "arg%u", (unsigned int)op->imm);
	else if (op->arg == 16)
		snprintf(num, sizeof(num), "0x%llx",
			 (unsigned long long)op->imm);
	else
		snprintf(num, sizeof(num), "%llu", (unsigned long long)op->imm);
	put(o, num);
}

/*
 * What precedes leaf @k: the operator it is the right side of, if any,
 * then the ( not u8[ of the subtrees it begins, outermost first.
 */
static void put_before(struct out *o, const struct itrace_cond *c,
		       const struct shape *s, const u8 *op_at, unsigned int k)
{
	char load[8];
	unsigned int n;

	if (op_at[k] != NO_NODE)
		put(o, ops[c->op[op_at[k]].code].word);
	for (n = c->nr - 1; n > k; n--) {
		if (s->start[n] != k)
			continue;
		if (parens(c, s, n))
			put(o, "(");
		if (c->op[n].code == ITRACE_COND_NOT) {
			put(o, "not");
		} else if (c->op[n].code == ITRACE_COND_LOAD) {
			snprintf(load, sizeof(load), "u%u[", c->op[n].arg * 8);
			put(o, load);
		}
	}
}

void itrace_cond_print(const struct itrace_cond *c,
		       const struct itrace_cond_regs *r, char *buf,
		       size_t len)
{
	struct out o = { .buf = buf, .len = len };
	u8 op_at[ITRACE_COND_OPS];	/* the operator before leaf i */
	struct shape s;
	unsigned int k;

	if (!len)
		return;
	buf[0] = '\0';
	if (!c->nr) {
		put(&o, "-");
		return;
	}
	if (shape(c, r, &s)) {
		put(&o, "(not a compiled condition)");
		return;
	}
	memset(op_at, NO_NODE, sizeof(op_at));
	for (k = 0; k < c->nr; k++)
		if (kind_of(c->op[k].code) == K_BINARY ||
		    kind_of(c->op[k].code) == K_JOIN)
			op_at[s.start[k - 1]] = k;
	for (k = 0; k < c->nr; k++) {
		switch (kind_of(c->op[k].code)) {
		case K_LEAF:
			put_before(&o, c, &s, op_at, k);
			put_leaf(&o, &c->op[k], r);
			break;
		case K_JUMP:
			break;
		default:
			if (c->op[k].code == ITRACE_COND_LOAD)
				put(&o, "]");
			if (parens(c, &s, k))
				put(&o, ")");
		}
	}
}
