// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the `itrace` command parser: every subcommand and every
 * class of bad input, with the exact one-line error each one gets; and
 * the line splitting of the debugfs control file.
 */
#include <stdlib.h>
#include "check.h"
#include "lib/kind.h"
#include "lib/parse.h"

#define MAXARGS 16

/* Split @line on spaces into argv (args after the command name). */
static int parse_line(const char *line, struct itrace_cmd *cmd, char *err,
		      size_t errlen)
{
	/* static: `if` leaves cmd pointing at the words */
	static char buf[256];
	static const char *argv[MAXARGS];
	int argc = 0;
	char *p;

	snprintf(buf, sizeof(buf), "%s", line);
	for (p = strtok(buf, " "); p && argc < MAXARGS; p = strtok(NULL, " "))
		argv[argc++] = p;
	return itrace_parse(argc, argv, cmd, err, errlen);
}

/* Test names go to the log as one line each, like the errors. */
static void printable(char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s > '~')
			*s = '?';
}

struct ok_case {
	const char *line;
	enum itrace_op op;
	int pid;
	enum itrace_mode mode;
	unsigned int count;
	bool raw;
	unsigned int flags;
};

static const struct ok_case ok_cases[] = {
	{ "", ITRACE_OP_STATUS, 0, ITRACE_MODE_INSN, 0, false, 0 },
	{ "status", ITRACE_OP_STATUS, 0, ITRACE_MODE_INSN, 0, false, 0 },
	{ "help", ITRACE_OP_HELP, 0, ITRACE_MODE_INSN, 0, false, 0 },
	{ "clear", ITRACE_OP_CLEAR, 0, ITRACE_MODE_INSN, 0, false, 0 },
	{ "on 123", ITRACE_OP_ON, 123, ITRACE_MODE_INSN, 0, false, 0 },
	{ "on 1 insn", ITRACE_OP_ON, 1, ITRACE_MODE_INSN, 0, false, 0 },
	{ "on 4194304 block", ITRACE_OP_ON, 4194304, ITRACE_MODE_BLOCK, 0, false, 0 },
	{ "off 77", ITRACE_OP_OFF, 77, ITRACE_MODE_INSN, 0, false, 0 },
	{ "off all", ITRACE_OP_OFF, 0, ITRACE_MODE_INSN, 0, false, 0 },
	{ "log", ITRACE_OP_LOG, 0, ITRACE_MODE_INSN, ITRACE_LOG_DEFAULT_N, false, 0 },
	{ "log -n 20", ITRACE_OP_LOG, 0, ITRACE_MODE_INSN, 20, false, 0 },
	{ "log -n 0 -r", ITRACE_OP_LOG, 0, ITRACE_MODE_INSN, 0, true, 0 },
	{ "log -r 55", ITRACE_OP_LOG, 55, ITRACE_MODE_INSN, ITRACE_LOG_DEFAULT_N, true, 0 },
	{ "log 55 -n 3", ITRACE_OP_LOG, 55, ITRACE_MODE_INSN, 3, false, 0 },
	{ "calls", ITRACE_OP_CALLS, 0, ITRACE_MODE_INSN, ITRACE_LOG_DEFAULT_N, false, 0 },
	{ "calls -n 0 42", ITRACE_OP_CALLS, 42, ITRACE_MODE_INSN, 0, false, 0 },
	{ "calls 42 -n 7", ITRACE_OP_CALLS, 42, ITRACE_MODE_INSN, 7, false, 0 },
	{ "top", ITRACE_OP_TOP, 0, ITRACE_MODE_INSN, ITRACE_TOP_DEFAULT_N, false, 0 },
	{ "top -n 0 42", ITRACE_OP_TOP, 42, ITRACE_MODE_INSN, 0, false, 0 },
	{ "top 42 -n 3", ITRACE_OP_TOP, 42, ITRACE_MODE_INSN, 3, false, 0 },
	{ "stack 42", ITRACE_OP_STACK, 42, ITRACE_MODE_INSN, 0, false, 0 },
	{ "regs 4194304", ITRACE_OP_REGS, 4194304, ITRACE_MODE_INSN, 0, false, 0 },
	{ "on 9 threads", ITRACE_OP_ON, 9, ITRACE_MODE_INSN, 0, false,
	  ITRACE_F_THREADS },
	{ "on 9 follow block", ITRACE_OP_ON, 9, ITRACE_MODE_BLOCK, 0, false,
	  ITRACE_F_FOLLOW },
	{ "on 9 follow-exec threads insn follow", ITRACE_OP_ON, 9,
	  ITRACE_MODE_INSN, 0, false,
	  ITRACE_F_EXEC | ITRACE_F_THREADS | ITRACE_F_FOLLOW },
};

struct bad_case {
	const char *line;
	const char *err;
};

static const struct bad_case bad_cases[] = {
	{ "bogus", "itrace: unknown subcommand 'bogus' (itrace help)" },
	{ "ON 12", "itrace: unknown subcommand 'ON' (itrace help)" },
	{ "on", "itrace on: missing pid (itrace on <pid>|comm <name> [insn|block] [options]; itrace help)" },
	{ "on abc", "itrace on: bad pid 'abc'" },
	{ "on 12x", "itrace on: bad pid '12x'" },
	{ "on -5", "itrace on: bad pid '-5'" },
	{ "on +5", "itrace on: bad pid '+5'" },
	{ "on 0", "itrace on: bad pid '0'" },
	{ "on 4194305", "itrace on: bad pid '4194305'" },
	{ "on 99999999999999999999", "itrace on: bad pid '99999999999999999999'" },
	{ "on 0x10", "itrace on: bad pid '0x10'" },
	{ "on 12 fast", "itrace on: bad option 'fast' (itrace help lists the options)" },
	{ "on 12 block extra", "itrace on: bad option 'extra' (itrace help lists the options)" },
	{ "on 12 block insn", "itrace on: 'insn': mode already given" },
	{ "on 12 insn insn", "itrace on: 'insn': mode already given" },
	{ "on 12 threads follow threads", "itrace on: 'threads' given twice" },
	{ "on 12 Threads", "itrace on: bad option 'Threads' (itrace help lists the options)" },
	{ "on 12 follow-", "itrace on: bad option 'follow-' (itrace help lists the options)" },
	{ "on threads 12", "itrace on: bad pid 'threads'" },
	{ "on 12 kinds", "itrace on: kinds needs a list (kinds call,ret or kinds none)" },
	{ "on 12 kinds call,", "itrace on: bad kind '' in kinds (itrace help)" },
	{ "on 12 kinds ,call", "itrace on: bad kind '' in kinds (itrace help)" },
	{ "on 12 kinds call,rets", "itrace on: bad kind 'rets' in kinds (itrace help)" },
	{ "on 12 kinds none,call", "itrace on: bad kind 'none' in kinds (itrace help)" },
	{ "on 12 kinds block", "itrace on: bad kind 'block' in kinds (itrace help)" },
	{ "on 12 kinds call kinds ret", "itrace on: 'kinds' given twice" },
	{ "on 12 max", "itrace on: max needs a record count (max 1000)" },
	{ "on 12 max 0", "itrace on: bad max '0' (a record count, 1..4294967295)" },
	{ "on 12 max 4294967296", "itrace on: bad max '4294967296' (a record count, 1..4294967295)" },
	{ "on 12 max -1", "itrace on: bad max '-1' (a record count, 1..4294967295)" },
	{ "on 12 max 5 max 6", "itrace on: 'max' given twice" },
	{ "on 12 keep", "itrace on: keep needs a record count (keep 4096)" },
	{ "on 12 keep 15", "itrace on: bad keep '15' (a record count, 16..1048576)" },
	{ "on 12 keep 1048577", "itrace on: bad keep '1048577' (a record count, 16..1048576)" },
	{ "on 12 keep 0", "itrace on: bad keep '0' (a record count, 16..1048576)" },
	{ "on 12 keep 16 keep 16", "itrace on: 'keep' given twice" },
	{ "on 12 args", "itrace on: args needs how many arguments (args 2)" },
	{ "on 12 args 0", "itrace on: bad args '0' (how many arguments, 1..3)" },
	{ "on 12 args 4", "itrace on: bad args '4' (how many arguments, 1..3)" },
	{ "on 12 args -1", "itrace on: bad args '-1' (how many arguments, 1..3)" },
	{ "on 12 args 1 args 2", "itrace on: 'args' given twice" },
	{ "on 12 freeze freeze", "itrace on: 'freeze' given twice" },
	{ "on 12 break break", "itrace on: 'break' given twice" },
	{ "on 12 range", "itrace on: range needs 0xLO-0xHI or a mapping name" },
	{ "on 12 range 0x10-0x10", "itrace on: bad range '0x10-0x10' (range 0xLO-0xHI with LO < HI, or range <mapping>)" },
	{ "on 12 range 0x20-0x10", "itrace on: bad range '0x20-0x10' (range 0xLO-0xHI with LO < HI, or range <mapping>)" },
	{ "on 12 range 0x10", "itrace on: bad range '0x10' (range 0xLO-0xHI with LO < HI, or range <mapping>)" },
	{ "on 12 range 0x10-", "itrace on: bad range '0x10-' (range 0xLO-0xHI with LO < HI, or range <mapping>)" },
	{ "on 12 range 0x-0x10", "itrace on: bad range '0x-0x10' (range 0xLO-0xHI with LO < HI, or range <mapping>)" },
	{ "on 12 range 0x10-20", "itrace on: bad range '0x10-20' (range 0xLO-0xHI with LO < HI, or range <mapping>)" },
	{ "on 12 range 0x1g-0x20", "itrace on: bad range '0x1g-0x20' (range 0xLO-0xHI with LO < HI, or range <mapping>)" },
	{ "on 12 range 0x10000000000000000-0x20000000000000000", "itrace on: bad range '0x10000000000000000-0x20000000000000000' (range 0xLO-0xHI with LO < HI, or range <mapping>)" },
	{ "on 12 range abcdefghijklmnopqrstuvwx", "itrace on: bad range 'abcdefghijklmnopqrstuvwx' (a mapping name as the log shows it, at most 23 characters)" },
	{ "on 12 range libc.so.6 range tp", "itrace on: 'range' given twice" },
	{ "on 12 range 0x1-0x2 range 0x3-0x4", "itrace on: 'range' given twice" },
	{ "on 12 func", "itrace on: func needs a function name (func main)" },
	{ "on 12 func a func b", "itrace on: 'func' given twice" },
	{ "on 12 func 0123456789012345678901234567890123456789012345678901234567890123",
	  "itrace on: func: longer than 63 characters" },
	{ "on 12 func main follow-exec", "itrace on: func, start, stop: not with follow-exec (the places are looked up once)" },
	{ "on 12 count 2", "itrace on: count needs func or start (count N: the first N entries)" },
	{ "on comm", "itrace on: comm needs a name (itrace on comm <name>)" },
	{ "on comm tp_trig extra", "itrace on: bad option 'extra' (itrace help lists the options)" },
	{ "on comm 0123456789abcdef", "itrace on: bad comm '0123456789abcdef' (a program name, at most 15 characters)" },
	{ "off comm", "itrace off: comm needs a name (itrace off comm <name>)" },
	{ "off comm a b", "itrace off: unexpected argument 'b'" },
	{ "off comm a\x01", "itrace off: bad comm 'a?' (a program name, at most 15 characters)" },
	{ "on 12 stop", "itrace on: stop needs a place (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 start a start b", "itrace on: 'start' given twice" },
	{ "on 12 func f start a", "itrace on: func with start or stop: give one or the other" },
	{ "on 12 stop b func f", "itrace on: func with start or stop: give one or the other" },
	{ "on 12 stop b count 2", "itrace on: count needs func or start (count N: the first N entries)" },
	{ "on 12 stop b if arg0", "itrace on: if needs func or start (the condition is tested at each entry)" },
	{ "on 12 start a follow-exec", "itrace on: func, start, stop: not with follow-exec (the places are looked up once)" },
	{ "on 12 start 0x", "itrace on: bad start '0x' (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 start 0x12345678901234567", "itrace on: bad start '0x12345678901234567' (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 start 0xg", "itrace on: bad start '0xg' (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 stop tp+10", "itrace on: bad stop 'tp+10' (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 stop tp+", "itrace on: bad stop 'tp+' (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 stop +0x10", "itrace on: bad stop '+0x10' (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 stop a+0x1+b", "itrace on: bad stop 'a+0x1+b' (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 stop libstdc++.so.6", "itrace on: bad stop 'libstdc++.so.6' (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 stop 123456789012345678901234+0x1", "itrace on: bad stop '123456789012345678901234+0x1' (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 func a\tb", "itrace on: bad func 'a?b' (a function, mapping+0xOFF or 0xADDR)" },
	{ "on 12 if arg0 eq 5", "itrace on: if needs func or start (the condition is tested at each entry)" },
	{ "on 12 threads if func f", "itrace on: if needs func or start (the condition is tested at each entry)" },
	{ "on 12 func f if", "itrace on: if needs a condition (if arg0 eq 5)" },
	{ "on 12 max 5 count 1", "itrace on: count needs func or start (count N: the first N entries)" },
	{ "on 12 func f count", "itrace on: count needs a number of entries (count 2)" },
	{ "on 12 func f count 0", "itrace on: bad count '0' (a number of entries, 1..4294967295)" },
	{ "on 12 func f count -1", "itrace on: bad count '-1' (a number of entries, 1..4294967295)" },
	{ "on 12 func f count 4294967296", "itrace on: bad count '4294967296' (a number of entries, 1..4294967295)" },
	{ "on 12 func f count 2 count 3", "itrace on: 'count' given twice" },
	{ "on 12 count 2 func f count 2", "itrace on: 'count' given twice" },
	{ "off", "itrace off: missing pid or 'all' (itrace off <pid>|all|comm <name>)" },
	{ "off x", "itrace off: bad pid 'x'" },
	{ "off all 3", "itrace off: unexpected argument '3'" },
	{ "off 3 4", "itrace off: unexpected argument '4'" },
	{ "status now", "itrace status: unexpected argument 'now'" },
	{ "clear all", "itrace clear: unexpected argument 'all'" },
	{ "help me", "itrace help: unexpected argument 'me'" },
	{ "log -n", "itrace log: -n needs a count" },
	{ "log -n x", "itrace log: bad count 'x'" },
	{ "log -n -1", "itrace log: bad count '-1'" },
	{ "log -x", "itrace log: unknown option '-x' (-n N, -r, -i)" },
	{ "log -r -i", "itrace log: -r or -i, not both (raw lines have no room for bytes)" },
	{ "log -i 5 -r", "itrace log: -r or -i, not both (raw lines have no room for bytes)" },
	{ "calls -i", "itrace calls: unknown option '-i' (-n N)" },
	{ "log 1 2", "itrace log: unexpected argument '2'" },
	{ "log zz", "itrace log: bad pid 'zz'" },
	{ "calls -r", "itrace calls: unknown option '-r' (-n N)" },
	{ "calls -n", "itrace calls: -n needs a count" },
	{ "calls -n 5x", "itrace calls: bad count '5x'" },
	{ "calls 1 2", "itrace calls: unexpected argument '2'" },
	{ "calls pid", "itrace calls: bad pid 'pid'" },
	{ "top -r", "itrace top: unknown option '-r' (-n N)" },
	{ "top -n", "itrace top: -n needs a count" },
	{ "top 1 2", "itrace top: unexpected argument '2'" },
	{ "stack", "itrace stack: missing pid (itrace stack <pid>)" },
	{ "stack 0", "itrace stack: bad pid '0'" },
	{ "stack 5 6", "itrace stack: unexpected argument '6'" },
	{ "stack -n 5", "itrace stack: bad pid '-n'" },
	{ "regs", "itrace regs: missing pid (itrace regs <pid>)" },
	{ "regs x1", "itrace regs: bad pid 'x1'" },
	{ "regs 5 all", "itrace regs: unexpected argument 'all'" },
	/* the word is echoed; control bytes must not break the line */
	{ "bogus\nsub", "itrace: unknown subcommand 'bogus?sub' (itrace help)" },
	{ "on \x1b[2J", "itrace on: bad pid '?[2J'" },
	{ "log -n 1\r", "itrace log: bad count '1?'" },
	{ "off \xc3\xa9", "itrace off: bad pid '\?\?'" },
};

static void test_split(void)
{
	const char *argv[ITRACE_MAX_WORDS];
	char line[256];
	int n;

	snprintf(line, sizeof(line), "  on 12\tblock\n");
	n = itrace_split(line, argv, ITRACE_MAX_WORDS);
	CHECK("split on blanks, tabs, newline", n == 3);
	CHECK_STR("split word 1", argv[0], "on");
	CHECK_STR("split word 2", argv[1], "12");
	CHECK_STR("split word 3", argv[2], "block");
	line[0] = '\0';
	CHECK("split empty line", itrace_split(line, argv, 4) == 0);
	snprintf(line, sizeof(line), " \n\t ");
	CHECK("split blank line", itrace_split(line, argv, 4) == 0);
	snprintf(line, sizeof(line), "status\nclear\n");
	n = itrace_split(line, argv, ITRACE_MAX_WORDS);
	CHECK("split: a newline is a blank, not a command separator",
	      n == 2 && !strcmp(argv[0], "status") && !strcmp(argv[1], "clear"));
	snprintf(line, sizeof(line), "a b c d");
	CHECK("split exactly max words", itrace_split(line, argv, 4) == 4 &&
	      !strcmp(argv[3], "d"));
	snprintf(line, sizeof(line), "a b c d e");
	CHECK("split more than max words", itrace_split(line, argv, 4) == -1);
	snprintf(line, sizeof(line), "x\r");
	n = itrace_split(line, argv, 4);
	CHECK("split keeps other control characters in the word",
	      n == 1 && !strcmp(argv[0], "x\r"));
}

/*
 * `on` options and their inverse: the words status shows for a parsed
 * command, exactly, and parsed again the same flags and kinds.
 */
static void test_on_options(void)
{
	static const struct {
		const char *line, *words;
	} c[] = {
		{ "on 5", "-" },
		{ "on 5 block", "-" },
		{ "on 5 follow threads", "threads follow" },
		{ "on 5 follow-exec threads follow", "threads follow follow-exec" },
		{ "on 5 kinds none", "kinds none" },
		{ "on 5 kinds ret,call block threads", "threads kinds call,ret" },
		{ "on 5 kinds async,insn,jcc-nt,far", "kinds insn,jcc-nt,far,async" },
		{ "on 5 kinds insn,jcc-nt,jcc,jmp,call,ret,icall,ijmp,syscall,int,iret,far,async",
		  "-" },
		{ "on 5 max 1000", "max 1000" },
		{ "on 5 keep 16", "keep 16" },
		{ "on 5 freeze", "freeze keep 4096" },
		{ "on 5 break keep 1048576", "freeze break keep 1048576" },
		{ "on 5 break freeze max 9 keep 100", "freeze break max 9 keep 100" },
		{ "on 5 args 3 keep 16", "keep 16 args 3" },
		{ "on 5 range libc.so.6 args 1 block", "args 1 range libc.so.6" },
		{ "on 5 range libc.so.6 max 4294967295 threads",
		  "threads max 4294967295 range libc.so.6" },
		{ "on 5 range 0x400000-0x401000", "range 0x400000-0x401000" },
		{ "on 5 range 0x0-0xFFFFFFFFFFFFFFFF kinds call",
		  "kinds call range 0x0-0xffffffffffffffff" },
		{ "on 5 range ld-linux-x86-64.so.2", "range ld-linux-x86-64.so.2" },
		{ "on 5 func target threads max 9", "threads max 9 func target" },
		{ "on 5 count 2 func target", "func target count 2" },
		{ "on 5 stop tp+0x10 start 0x401000 count 3", "start 0x401000 stop tp+0x10 count 3" },
		{ "on 5 stop libc.so.6+0xFFFF", "stop libc.so.6+0xFFFF" },
		{ "on 5 func tp_trig+0x162b", "func tp_trig+0x162b" },
		{ "on 5 start libstdc++.so.6+0x9a0b0", "start libstdc++.so.6+0x9a0b0" },
		{ "on 5 start 12345678901234567890123+0x1", "start 12345678901234567890123+0x1" },
		{ "on 5 count 4294967295 max 1 func t block", "max 1 func t count 4294967295" },
		{ "on 5 func _ZN3foo3barEv range tp kinds call",
		  "kinds call range tp func _ZN3foo3barEv" },
	};
	struct itrace_cmd cmd, back;
	char err[128], name[200], words[120], line[160];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		CHECK(c[i].line, !parse_line(c[i].line, &cmd, err, sizeof(err)));
		itrace_on_options(words, sizeof(words), &cmd.on);
		snprintf(name, sizeof(name), "on options of '%s'", c[i].line);
		CHECK_STR(name, words, c[i].words);
		snprintf(line, sizeof(line), "on 5 %s",
			 strcmp(words, "-") ? words : "");
		snprintf(name, sizeof(name), "on options '%s' parse back", words);
		CHECK(name, !parse_line(line, &back, err, sizeof(err)) &&
		      !memcmp(&back.on, &cmd.on, sizeof(cmd.on)));
	}
	itrace_on_opts_init(&cmd.on);
	cmd.on.flags = ITRACE_F_THREADS | ITRACE_F_FOLLOW;
	itrace_on_options(words, 12, &cmd.on);
	CHECK_STR("on options cut to the buffer", words, "threads fol");
}

/* `comm <name>` instead of a pid, for on and off. */
static void test_comm(void)
{
	struct itrace_cmd cmd;
	char err[128];

	CHECK("on comm parses",
	      !parse_line("on comm 0123456789abcde block func target", &cmd,
			  err, sizeof(err)) &&
	      cmd.op == ITRACE_OP_ON && cmd.pid == 0 &&
	      !strcmp(cmd.comm, "0123456789abcde") &&
	      cmd.mode == ITRACE_MODE_BLOCK && !strcmp(cmd.on.func, "target"));
	CHECK("off comm parses",
	      !parse_line("off comm tp_comm", &cmd, err, sizeof(err)) &&
	      cmd.op == ITRACE_OP_OFF && cmd.pid == 0 &&
	      !strcmp(cmd.comm, "tp_comm"));
	CHECK("a pid leaves no comm",
	      !parse_line("on 5", &cmd, err, sizeof(err)) && !cmd.comm[0] &&
	      !parse_line("off all", &cmd, err, sizeof(err)) && !cmd.comm[0]);
}

/* `if` takes every word after it, unread, for `on` to compile. */
static void test_if_words(void)
{
	struct itrace_cmd cmd;
	char err[128];

	CHECK("on ... if parses",
	      !parse_line("on 7 func target block if arg0 eq 5 threads", &cmd,
			  err, sizeof(err)));
	CHECK("if: the words after it, all of them",
	      cmd.cond_argc == 4 && !strcmp(cmd.cond_argv[0], "arg0") &&
	      !strcmp(cmd.cond_argv[3], "threads"));
	CHECK("if: options before it still apply, none after",
	      cmd.mode == ITRACE_MODE_BLOCK && !cmd.on.flags &&
	      !strcmp(cmd.on.func, "target") && !cmd.on.cond);
	CHECK("no if: no condition words",
	      !parse_line("on 7 func target", &cmd, err, sizeof(err)) &&
	      !cmd.cond_argc && !cmd.cond_argv);
}

int main(void)
{
	struct itrace_cmd cmd;
	char err[128], name[160];
	size_t i;

	for (i = 0; i < sizeof(ok_cases) / sizeof(ok_cases[0]); i++) {
		const struct ok_case *c = &ok_cases[i];
		int ret = parse_line(c->line, &cmd, err, sizeof(err));

		snprintf(name, sizeof(name), "parse ok '%s'", c->line);
		CHECK(name, ret == 0 && cmd.op == c->op && cmd.pid == c->pid &&
		      cmd.mode == c->mode && cmd.count == c->count &&
		      cmd.raw == c->raw && cmd.on.flags == c->flags &&
		      err[0] == '\0');
	}
	CHECK("log -i -n 5 42: bytes, not raw",
	      !parse_line("log -i -n 5 42", &cmd, err, sizeof(err)) &&
	      cmd.op == ITRACE_OP_LOG && cmd.insn && !cmd.raw &&
	      cmd.count == 5 && cmd.pid == 42);
	CHECK("log -r: no bytes",
	      !parse_line("log -r", &cmd, err, sizeof(err)) && !cmd.insn);
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		int ret = parse_line(c->line, &cmd, err, sizeof(err));

		snprintf(name, sizeof(name), "parse rejects '%s'", c->line);
		printable(name);
		CHECK(name, ret == -1);
		CHECK_STR(name, err, c->err);
	}
	/* kind filters: the mask each one gives */
	{
		static const struct {
			const char *line;
			unsigned int kinds;
		} kc[] = {
			{ "on 5", ITRACE_KINDS_ALL },
			{ "on 5 kinds none", 0 },
			{ "on 5 block kinds call,ret",
			  (1u << ITRACE_K_CALL) | (1u << ITRACE_K_RET) },
			{ "on 5 kinds async,insn,jcc-nt",
			  (1u << ITRACE_K_ASYNC) | (1u << ITRACE_K_INSN) |
			  (1u << ITRACE_K_JCC_NT) },
			{ "off 5", 0 },
		};

		for (i = 0; i < sizeof(kc) / sizeof(kc[0]); i++) {
			snprintf(name, sizeof(name), "parse kinds '%s'",
				 kc[i].line);
			CHECK(name, !parse_line(kc[i].line, &cmd, err,
						sizeof(err)) &&
			      cmd.on.kinds == kc[i].kinds);
		}
	}
	/* a short error buffer truncates, never overflows */
	{
		char small[8];
		const char *argv[] = { "bogus-subcommand" };

		small[7] = 'X';
		CHECK("parse short err buffer",
		      itrace_parse(1, argv, &cmd, small, sizeof(small)) == -1 &&
		      strlen(small) == 7);
	}
	for (i = 0; itrace_help_lines[i]; i++)
		;
	CHECK("help has the expected line count", i == 38);
	test_split();
	test_on_options();
	test_if_words();
	test_comm();
	return check_failed ? 1 : 0;
}
