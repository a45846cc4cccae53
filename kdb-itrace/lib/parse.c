// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of the `itrace` command language (see parse.h). Strict: every
 * argument is accounted for, numbers are plain decimal without sign or
 * trailing junk, and anything else is an error naming the offender.
 */
#include "kind.h"
#include "out.h"
#include "parse.h"

const char *const itrace_help_lines[] = {
	"itrace on <pid> [insn|block] [threads] [follow] [follow-exec]",
	"                              trace task <pid> (a tid); insn: every instruction (default), block: control transfers only;",
	"                              threads: every thread of its process, also later ones; follow: forked children too;",
	"                              follow-exec: keep tracing the new program after exec (default: stop at exec);",
	"                              kinds K,K..: record only these kinds (insn jcc-nt jcc jmp call ret icall ijmp",
	"                              syscall int iret far async); kinds none: record nothing, keep no stack",
	"                              max N: at most N records per task, then its tracing ends;",
	"                              keep N: its last N records also in a ring of its own, which other tasks cannot",
	"                              overwrite; freeze: keep them (keep 4096 unless given) when a fatal signal or stop B",
	"                              ends it, until `itrace off <pid>`; break: freeze, and enter kdb right there;",
	"                              args N: each call's record also holds its first N (1..3) arguments, each return's its value;",
	"                              range LO-HI (hex) or range <mapping> (as the log names it, e.g. libc.so.6):",
	"                              record only transfers from or to it;",
	"                              func F: run untraced until function F (a symbol of the program or a library)",
	"                              is entered, trace inside it until that call returns, again at each entry;",
	"                              start A [stop B]: run untraced until A, trace from there until B, again at each A;",
	"                              stop B alone: trace until B; F, A, B: a function, mapping+0xOFF (file offset) or 0xADDR,",
	"                              or mapping:function (e.g. libm.so.6:fmax: waits for a library dlopen() loads later);",
	"                              count N (with func or start): only the first N entries;",
	"                              if C (with func or start, last): only entries where condition C holds, e.g.",
	"                              if arg0 eq 5 and u32[arg1 + 8] ne 0 (arg0..5, registers, u8/16/32/64[addr])",
	"itrace on comm <name> [options]",
	"                              trace every task named <name> (its comm) now, and every task that takes that name",
	"                              later (exec, prctl, /proc/PID/comm), until `itrace off comm <name>`; options as above",
	"itrace off <pid>|all          stop tracing <pid> (a tid, or every traced thread of process <pid>), or every task;",
	"                              a frozen history: let it go",
	"itrace off comm <name>        stop watching for <name>, and stop tracing every task of that name",
	"itrace status                 traced tasks, modes, step/record/drop counts",
	"itrace log [-n N] [-r|-i] [pid]",
	"                              last N records (default 100, 0 = all), merged over CPUs, of <pid> (a tid or a process);",
	"                              -r: raw 'seq cpu tid kind 0xfrom 0xto', -i: each one's instruction bytes",
	"itrace calls [-n N] [pid]     the call tree of one thread from its log: last N calls (default 100, 0 = all)",
	"itrace stack <pid>            its call stack now (kept live while traced), innermost first",
	"itrace top [-n N] [pid]       the functions the log's records come from, the call sites and branches",
	"                              taken most, N rows each (default 10, 0 = all), of <pid> or of every task",
	"itrace regs <pid>             the traced thread's user registers (as of its last entry into the kernel)",
	"itrace clear                  empty the log and zero the counters",
	"itrace help                   this text",
	NULL
};

/* Decimal, 1..max (0 allowed if @zero_ok); no sign, no junk. */
static int parse_uint(const char *s, u32 max, bool zero_ok, u32 *out)
{
	u64 v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (u64)(*s - '0');
		if (v > max)
			return -1;
	}
	if (!v && !zero_ok)
		return -1;
	*out = (u32)v;
	return 0;
}

static int parse_pid(const char *sub, const char *s, int *pid, char *err,
		     size_t errlen)
{
	u32 v;

	if (parse_uint(s, ITRACE_PID_MAX, false, &v)) {
		snprintf(err, errlen, "itrace %s: bad pid '%s'", sub, s);
		return -1;
	}
	*pid = (int)v;
	return 0;
}

static int too_many(const char *sub, const char *arg, char *err,
		    size_t errlen)
{
	snprintf(err, errlen, "itrace %s: unexpected argument '%s'", sub, arg);
	return -1;
}

static const struct {
	const char *word;
	u32 flag;
} on_flags[] = {
	{ "threads", ITRACE_F_THREADS },
	{ "follow", ITRACE_F_FOLLOW },
	{ "follow-exec", ITRACE_F_EXEC },
	{ "freeze", ITRACE_F_FREEZE },
	{ "break", ITRACE_F_BREAK },
};

void itrace_on_opts_init(struct itrace_on_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->kinds = ITRACE_KINDS_ALL;
}

static size_t range_str(char *buf, size_t len, const struct itrace_range *r)
{
	if (r->map[0])
		return scnprintf(buf, len, "range %.*s", ITRACE_RANGE_NAME - 1,
				 r->map);
	return scnprintf(buf, len, "range 0x%llx-0x%llx",
			 (unsigned long long)r->lo, (unsigned long long)r->hi);
}

void itrace_on_options(char *buf, size_t len, const struct itrace_on_opts *o)
{
	size_t w = 0, i;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(on_flags); i++)
		if (o->flags & on_flags[i].flag)
			w += scnprintf(buf + w, len - w, "%s%s", w ? " " : "",
				       on_flags[i].word);
	if (o->kinds != ITRACE_KINDS_ALL) {
		w += scnprintf(buf + w, len - w, "%skinds %s", w ? " " : "",
			       o->kinds ? "" : "none");
		itrace_kinds_str(buf + w, len - w, o->kinds);
		w += strlen(buf + w);
	}
	if (o->max)
		w += scnprintf(buf + w, len - w, "%smax %u", w ? " " : "",
			       o->max);
	if (o->keep)
		w += scnprintf(buf + w, len - w, "%skeep %u", w ? " " : "",
			       o->keep);
	if (o->args)
		w += scnprintf(buf + w, len - w, "%sargs %u", w ? " " : "",
			       o->args);
	if (o->range.hi || o->range.map[0]) {
		w += scnprintf(buf + w, len - w, "%s", w ? " " : "");
		w += range_str(buf + w, len - w, &o->range);
	}
	if (o->func[0])
		w += scnprintf(buf + w, len - w, "%sfunc %.*s", w ? " " : "",
			       ITRACE_FUNC_NAME, o->func);
	if (o->start[0])
		w += scnprintf(buf + w, len - w, "%sstart %.*s", w ? " " : "",
			       ITRACE_FUNC_NAME, o->start);
	if (o->stop[0])
		w += scnprintf(buf + w, len - w, "%sstop %.*s", w ? " " : "",
			       ITRACE_FUNC_NAME, o->stop);
	if (o->count)
		scnprintf(buf + w, len - w, "%scount %u", w ? " " : "",
			  o->count);
	if (!buf[0])
		scnprintf(buf, len, "-");
}

int itrace_parse_hex(const char *s, size_t n, u64 *out)
{
	u64 v = 0;
	size_t i;

	if (n < 3 || n > 18 || s[0] != '0' || s[1] != 'x')
		return -1;
	for (i = 2; i < n; i++) {
		char c = s[i];
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v << 4 | (u64)d;
	}
	*out = v;
	return 0;
}

/* "0xLO-0xHI" with LO < HI, or a mapping name (printable, no blank) */
static int parse_range(const char *a, struct itrace_range *r, char *err,
		       size_t errlen)
{
	size_t n = strlen(a), dash = strcspn(a, "-");
	size_t i;

	if (a[0] == '0' && a[1] == 'x') {
		if (!a[dash] || itrace_parse_hex(a, dash, &r->lo) ||
		    itrace_parse_hex(a + dash + 1, n - dash - 1, &r->hi) ||
		    r->lo >= r->hi) {
			snprintf(err, errlen,
				 "itrace on: bad range '%s' (range 0xLO-0xHI with LO < HI, or range <mapping>)",
				 a);
			return -1;
		}
		return 0;
	}
	for (i = 0; i < n; i++)
		if (a[i] <= ' ' || a[i] > '~')
			break;
	if (!n || i < n || n >= ITRACE_RANGE_NAME) {
		snprintf(err, errlen,
			 "itrace on: bad range '%s' (a mapping name as the log shows it, at most %d characters)",
			 a, ITRACE_RANGE_NAME - 1);
		return -1;
	}
	memcpy(r->map, a, n + 1);
	return 0;
}

/* "none" or K[,K...] (kdb splits words at '=', hence no kinds=) */
static int parse_kinds(const char *list, u32 *kinds, char *err,
		       size_t errlen)
{
	const char *p = list;

	*kinds = 0;
	if (!strcmp(list, "none"))
		return 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int k = itrace_kind_parse(p, len);

		if (k < 0) {
			snprintf(err, errlen, "itrace on: bad kind '%.*s' in kinds (itrace help)",
				 (int)len, p);
			return -1;
		}
		*kinds |= 1u << k;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

size_t itrace_place_plus(const char *s)
{
	const char *p = strrchr(s, '+');

	return p ? (size_t)(p - s) : strlen(s);
}

/*
 * A place in the task's code (symmap.h's itrace_where_find()): a symbol,
 * mapping+0xOFF or 0xADDR; printable, no blank, at most ITRACE_FUNC_NAME
 * bytes, the numbers hex, the mapping name as long as the log's at most.
 */
static int parse_where(const char *opt, const char *a, char *where,
		       char *err, size_t errlen)
{
	size_t n = strlen(a), i, plus = itrace_place_plus(a);
	u64 v;

	if (n > ITRACE_FUNC_NAME) {
		snprintf(err, errlen, "itrace on: %s: longer than %d characters",
			 opt, ITRACE_FUNC_NAME);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (a[i] <= ' ' || a[i] > '~')
			break;
	if (n && i == n &&
	    (a[0] == '0' && a[1] == 'x' ? !itrace_parse_hex(a, n, &v) :
	     !a[plus] || (plus && plus < ITRACE_RANGE_NAME &&
			  !itrace_parse_hex(a + plus + 1, n - plus - 1, &v)))) {
		memcpy(where, a, n + 1);
		return 0;
	}
	snprintf(err, errlen,
		 "itrace on: bad %s '%s' (a function, mapping+0xOFF or 0xADDR)",
		 opt, a);
	return -1;
}

static int val_max(const char *v, struct itrace_on_opts *o, char *err,
		   size_t errlen)
{
	if (!parse_uint(v, U32_MAX, false, &o->max))
		return 0;
	snprintf(err, errlen, "itrace on: bad max '%s' (a record count, 1..%u)",
		 v, U32_MAX);
	return -1;
}

static int val_keep(const char *v, struct itrace_on_opts *o, char *err,
		    size_t errlen)
{
	if (!parse_uint(v, ITRACE_KEEP_MAX, false, &o->keep) &&
	    o->keep >= ITRACE_KEEP_MIN)
		return 0;
	snprintf(err, errlen, "itrace on: bad keep '%s' (a record count, %u..%u)",
		 v, ITRACE_KEEP_MIN, ITRACE_KEEP_MAX);
	return -1;
}

static int val_args(const char *v, struct itrace_on_opts *o, char *err,
		    size_t errlen)
{
	if (!parse_uint(v, ITRACE_ARGS_MAX, false, &o->args))
		return 0;
	snprintf(err, errlen, "itrace on: bad args '%s' (how many arguments, 1..%u)",
		 v, ITRACE_ARGS_MAX);
	return -1;
}

static int val_count(const char *v, struct itrace_on_opts *o, char *err,
		     size_t errlen)
{
	if (!parse_uint(v, U32_MAX, false, &o->count))
		return 0;
	snprintf(err, errlen, "itrace on: bad count '%s' (a number of entries, 1..%u)",
		 v, U32_MAX);
	return -1;
}

static int val_range(const char *v, struct itrace_on_opts *o, char *err,
		     size_t errlen)
{
	return parse_range(v, &o->range, err, errlen);
}

static int val_func(const char *v, struct itrace_on_opts *o, char *err,
		    size_t errlen)
{
	return parse_where("func", v, o->func, err, errlen);
}

static int val_start(const char *v, struct itrace_on_opts *o, char *err,
		     size_t errlen)
{
	return parse_where("start", v, o->start, err, errlen);
}

static int val_stop(const char *v, struct itrace_on_opts *o, char *err,
		    size_t errlen)
{
	return parse_where("stop", v, o->stop, err, errlen);
}

/* The options that take a value, the next word. */
static const struct {
	const char *word;
	const char *needs;	/* the line when the value is missing */
	int (*parse)(const char *v, struct itrace_on_opts *o, char *err,
		     size_t errlen);
} on_values[] = {
	{ "max", "max needs a record count (max 1000)", val_max },
	{ "keep", "keep needs a record count (keep 4096)", val_keep },
	{ "args", "args needs how many arguments (args 2)", val_args },
	{ "range", "range needs 0xLO-0xHI or a mapping name", val_range },
	{ "func", "func needs a function name (func main)", val_func },
	{ "count", "count needs a number of entries (count 2)", val_count },
	{ "start", "start needs a place (a function, mapping+0xOFF or 0xADDR)",
	  val_start },
	{ "stop", "stop needs a place (a function, mapping+0xOFF or 0xADDR)",
	  val_stop },
};

/*
 * on_values[@v] at argv[*i]; *@seen has a bit per on_values entry given
 * so far. Returns 0 with *@i at its value, or -1 after one error line.
 */
static int on_value(int argc, const char *const *argv, int *i,
		    unsigned int v, u32 *seen, struct itrace_on_opts *o,
		    char *err, size_t errlen)
{
	if (*seen & (1u << v)) {
		snprintf(err, errlen, "itrace on: '%s' given twice",
			 on_values[v].word);
		return -1;
	}
	*seen |= 1u << v;
	if (++*i == argc) {
		snprintf(err, errlen, "itrace on: %s", on_values[v].needs);
		return -1;
	}
	return on_values[v].parse(argv[*i], o, err, errlen);
}

/* Which on_values entry @a is, or ARRAY_SIZE(on_values). */
static unsigned int on_value_of(const char *a)
{
	unsigned int v;

	for (v = 0; v < ARRAY_SIZE(on_values); v++)
		if (!strcmp(a, on_values[v].word))
			break;
	return v;
}

/*
 * "comm <name>" (a program name as the kernel keeps it, at most 15
 * characters) or a pid, at argv[1]. Returns the index of the next word,
 * or -1 after one error line.
 */
static int parse_target(const char *sub, int argc, const char *const *argv,
			struct itrace_cmd *cmd, char *err, size_t errlen)
{
	size_t n, i;

	if (strcmp(argv[1], "comm"))
		return parse_pid(sub, argv[1], &cmd->pid, err, errlen) ? -1 : 2;
	if (argc < 3) {
		snprintf(err, errlen, "itrace %s: comm needs a name (itrace %s comm <name>)",
			 sub, sub);
		return -1;
	}
	n = strlen(argv[2]);
	for (i = 0; i < n; i++)
		if (argv[2][i] <= ' ' || argv[2][i] > '~')
			break;
	if (!n || i < n || n >= ITRACE_COMM_LEN) {
		snprintf(err, errlen,
			 "itrace %s: bad comm '%s' (a program name, at most %d characters)",
			 sub, argv[2], ITRACE_COMM_LEN - 1);
		return -1;
	}
	memcpy(cmd->comm, argv[2], n + 1);
	return 3;
}

/*
 * The options that need or exclude one another; `break` freezes, and
 * what freezes keeps ITRACE_KEEP_DEFAULT records unless keep says.
 */
static int on_check(struct itrace_cmd *cmd, char *err, size_t errlen)
{
	struct itrace_on_opts *o = &cmd->on;
	bool entry = o->func[0] || o->start[0];
	const char *why = NULL;

	if (o->func[0] && (o->start[0] || o->stop[0]))
		why = "func with start or stop: give one or the other";
	else if (cmd->cond_argc && !entry)
		why = "if needs func or start (the condition is tested at each entry)";
	else if (o->count && !entry)
		why = "count needs func or start (count N: the first N entries)";
	else if ((entry || o->stop[0]) && (o->flags & ITRACE_F_EXEC))
		why = "func, start, stop: not with follow-exec (the places are looked up once)";
	if (!why) {
		if (o->flags & ITRACE_F_BREAK)
			o->flags |= ITRACE_F_FREEZE;
		if ((o->flags & ITRACE_F_FREEZE) && !o->keep)
			o->keep = ITRACE_KEEP_DEFAULT;
		return 0;
	}
	snprintf(err, errlen, "itrace on: %s", why);
	return -1;
}

/* Options after the pid, in any order, each at most once. */
static int parse_on(int argc, const char *const *argv,
		    struct itrace_cmd *cmd, char *err, size_t errlen)
{
	bool have_mode = false, have_kinds = false;
	struct itrace_on_opts *o = &cmd->on;
	unsigned int v;
	u32 seen = 0;
	int i;
	size_t f;

	if (argc < 2) {
		snprintf(err, errlen,
			 "itrace on: missing pid (itrace on <pid>|comm <name> [insn|block] [options]; itrace help)");
		return -1;
	}
	i = parse_target("on", argc, argv, cmd, err, errlen);
	if (i < 0)
		return -1;
	itrace_on_opts_init(o);
	for (; i < argc; i++) {
		const char *a = argv[i];
		bool mode = !strcmp(a, "insn") || !strcmp(a, "block");

		if (!strcmp(a, "kinds")) {
			if (have_kinds) {
				snprintf(err, errlen, "itrace on: 'kinds' given twice");
				return -1;
			}
			if (++i == argc) {
				snprintf(err, errlen,
					 "itrace on: kinds needs a list (kinds call,ret or kinds none)");
				return -1;
			}
			have_kinds = true;
			if (parse_kinds(argv[i], &o->kinds, err, errlen))
				return -1;
			continue;
		}
		if (!strcmp(a, "if")) {
			/* the condition: every word left (cond.h) */
			if (++i == argc) {
				snprintf(err, errlen,
					 "itrace on: if needs a condition (if arg0 eq 5)");
				return -1;
			}
			cmd->cond_argv = argv + i;
			cmd->cond_argc = argc - i;
			break;
		}
		v = on_value_of(a);
		if (v < ARRAY_SIZE(on_values)) {
			if (on_value(argc, argv, &i, v, &seen, o, err, errlen))
				return -1;
			continue;
		}

		if (mode) {
			if (have_mode) {
				snprintf(err, errlen, "itrace on: '%s': mode already given",
					 a);
				return -1;
			}
			have_mode = true;
			cmd->mode = a[0] == 'b' ? ITRACE_MODE_BLOCK :
						  ITRACE_MODE_INSN;
			continue;
		}
		for (f = 0; f < ARRAY_SIZE(on_flags); f++)
			if (!strcmp(a, on_flags[f].word))
				break;
		if (f == ARRAY_SIZE(on_flags)) {
			snprintf(err, errlen,
				 "itrace on: bad option '%s' (itrace help lists the options)",
				 a);
			return -1;
		}
		if (o->flags & on_flags[f].flag) {
			snprintf(err, errlen, "itrace on: '%s' given twice", a);
			return -1;
		}
		o->flags |= on_flags[f].flag;
	}
	return on_check(cmd, err, errlen);
}

static int parse_off(int argc, const char *const *argv,
		     struct itrace_cmd *cmd, char *err, size_t errlen)
{
	int i = 2;

	if (argc < 2) {
		snprintf(err, errlen,
			 "itrace off: missing pid or 'all' (itrace off <pid>|all|comm <name>)");
		return -1;
	}
	if (strcmp(argv[1], "all"))
		i = parse_target("off", argc, argv, cmd, err, errlen);
	if (i < 0)
		return -1;
	if (argc > i)
		return too_many("off", argv[i], err, errlen);
	return 0;
}

/*
 * log [-n N] [-r|-i] [pid], calls [-n N] [pid] and top [-n N] [pid]
 * (@log: -r and -i allowed); -n's default is @n.
 */
static int parse_log(int argc, const char *const *argv,
		     struct itrace_cmd *cmd, bool log, u32 n, char *err,
		     size_t errlen)
{
	const char *sub = argv[0];
	bool have_pid = false;
	int i;

	cmd->count = n;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (log && !strcmp(a, "-r")) {
			cmd->raw = true;
			continue;
		}
		if (log && !strcmp(a, "-i")) {
			cmd->insn = true;
			continue;
		}
		if (!strcmp(a, "-n")) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "itrace %s: -n needs a count",
					 sub);
				return -1;
			}
			if (parse_uint(argv[++i], 0x7fffffff, true,
				       &cmd->count)) {
				snprintf(err, errlen, "itrace %s: bad count '%s'",
					 sub, argv[i]);
				return -1;
			}
			continue;
		}
		if (a[0] == '-') {
			snprintf(err, errlen, "itrace %s: unknown option '%s' (%s)",
				 sub, a, log ? "-n N, -r, -i" : "-n N");
			return -1;
		}
		if (have_pid)
			return too_many(sub, a, err, errlen);
		if (parse_pid(sub, a, &cmd->pid, err, errlen))
			return -1;
		have_pid = true;
	}
	if (cmd->raw && cmd->insn) {
		snprintf(err, errlen,
			 "itrace log: -r or -i, not both (raw lines have no room for bytes)");
		return -1;
	}
	return 0;
}

/* stack <pid>, regs <pid> */
static int parse_one_pid(int argc, const char *const *argv,
			 struct itrace_cmd *cmd, char *err, size_t errlen)
{
	if (argc < 2) {
		snprintf(err, errlen, "itrace %s: missing pid (itrace %s <pid>)",
			 argv[0], argv[0]);
		return -1;
	}
	if (parse_pid(argv[0], argv[1], &cmd->pid, err, errlen))
		return -1;
	if (argc > 2)
		return too_many(argv[0], argv[2], err, errlen);
	return 0;
}

static int parse_args(int argc, const char *const *argv,
		      struct itrace_cmd *cmd, char *err, size_t errlen)
{
	const char *sub;

	memset(cmd, 0, sizeof(*cmd));
	err[0] = '\0';
	if (argc < 1) {
		cmd->op = ITRACE_OP_STATUS;
		return 0;
	}
	sub = argv[0];
	if (!strcmp(sub, "on")) {
		cmd->op = ITRACE_OP_ON;
		return parse_on(argc, argv, cmd, err, errlen);
	}
	if (!strcmp(sub, "off")) {
		cmd->op = ITRACE_OP_OFF;
		return parse_off(argc, argv, cmd, err, errlen);
	}
	if (!strcmp(sub, "log")) {
		cmd->op = ITRACE_OP_LOG;
		return parse_log(argc, argv, cmd, true, ITRACE_LOG_DEFAULT_N,
				 err, errlen);
	}
	if (!strcmp(sub, "calls")) {
		cmd->op = ITRACE_OP_CALLS;
		return parse_log(argc, argv, cmd, false, ITRACE_LOG_DEFAULT_N,
				 err, errlen);
	}
	if (!strcmp(sub, "top")) {
		cmd->op = ITRACE_OP_TOP;
		return parse_log(argc, argv, cmd, false, ITRACE_TOP_DEFAULT_N,
				 err, errlen);
	}
	if (!strcmp(sub, "stack") || !strcmp(sub, "regs")) {
		cmd->op = sub[0] == 's' ? ITRACE_OP_STACK : ITRACE_OP_REGS;
		return parse_one_pid(argc, argv, cmd, err, errlen);
	}
	if (!strcmp(sub, "status")) {
		cmd->op = ITRACE_OP_STATUS;
	} else if (!strcmp(sub, "clear")) {
		cmd->op = ITRACE_OP_CLEAR;
	} else if (!strcmp(sub, "help")) {
		cmd->op = ITRACE_OP_HELP;
	} else {
		snprintf(err, errlen, "itrace: unknown subcommand '%s' (itrace help)",
			 sub);
		return -1;
	}
	if (argc > 1)
		return too_many(sub, argv[1], err, errlen);
	return 0;
}

/*
 * Messages quote the offending word as typed. A control byte in it (a
 * newline, the start of an escape sequence) would split the one-line
 * message or drive the console, so anything but printable ASCII shows
 * as '?' (itrace_name(), as every name printed).
 */
int itrace_parse(int argc, const char *const *argv, struct itrace_cmd *cmd,
		 char *err, size_t errlen)
{
	int ret = parse_args(argc, argv, cmd, err, errlen);

	if (ret)
		itrace_name(err, errlen, err, errlen - 1, ITRACE_NAME_QMARK);
	return ret;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

int itrace_split(char *line, const char **argv, int max)
{
	int n = 0;

	for (;;) {
		while (is_blank(*line))
			*line++ = '\0';
		if (!*line)
			return n;
		if (n == max)
			return -1;
		argv[n++] = line;
		while (*line && !is_blank(*line))
			line++;
	}
}
