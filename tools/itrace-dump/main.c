// SPDX-License-Identifier: GPL-2.0
/*
 * itrace-dump: reads kdb-itrace's branch records off the box. `capture`
 * drains the module's debugfs files into a capture file on the traced
 * machine; `script`, `calls`, `chrome` and `folded` read a capture
 * anywhere, naming addresses with elfutils; `text` writes a capture's
 * records as lines. Built without elfutils (ITRACE_DUMP_CAPTURE_ONLY,
 * for the traced machine), only `capture` and `text`.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dump.h"

static void usage(FILE *f)
{
	fputs("usage: itrace-dump capture [-o FILE] [-t SECONDS] [-c RECORDS] [PID...]\n"
	      "       itrace-dump [script] [-F +srcline,+time,+syscall,+args,+insn,+disasm]\n"
	      "                   [COMMON] CAPTURE\n"
	      "       itrace-dump calls [-F FUNC] [-D DEPTH] [COMMON] CAPTURE\n"
	      "       itrace-dump chrome [COMMON] CAPTURE\n"
	      "       itrace-dump folded [COMMON] CAPTURE\n"
	      "       itrace-dump text [-o FILE] CAPTURE\n"
	      "       itrace-dump gdb [--symfs DIR] CAPTURE [TID]\n"
	      "  capture   on the traced machine: drain kdb-itrace's records and\n"
	      "            the traced tasks' mappings into a capture file\n"
	      "  script    one line per record, perf script's branch form (default);\n"
	      "            -F +time: the record's time (s.ns, CLOCK_MONOTONIC),\n"
	      "            +syscall: a system call's number and return value,\n"
	      "            +args: a call's arguments and a return's value (on ... args N),\n"
	      "            +insn: the bytes of the instruction at from, +disasm: its text\n"
	      "  calls     a call tree per thread, uftrace replay's form, f(args) = value\n"
	      "            where the capture has them\n"
	      "  chrome    Chrome trace-event JSON (Perfetto UI, chrome://tracing)\n"
	      "  folded    collapsed stacks for flame graphs\n"
	      "  text      the capture with its records as text lines (grep, awk)\n"
	      "  gdb       a gdb remote stub serving a thread's records as branch\n"
	      "            trace: target remote | itrace-dump gdb CAPTURE TID\n"
	      "COMMON: -o FILE (output; default standard output),\n"
	      "        --symfs DIR (look up the capture's files under DIR)\n"
	      "CAPTURE: a file `itrace-dump capture` wrote, or - for standard input\n"
	      "docs/CAPTURE.md has the format.\n", f);
}

/*
 * The whole input, NUL-terminated and writable (the reader splits it in
 * place): a regular file mapped copy-on-write over one more zeroed byte
 * (no copy through read()), anything else read.
 */
int read_all(const char *name, char **text, size_t *len)
{
	int fd = strcmp(name, "-") ? open(name, O_RDONLY) : 0;
	struct stat st;
	char *s;

	if (fd < 0) {
		fprintf(stderr, "itrace-dump: %s: %s\n", name, strerror(errno));
		return -1;
	}
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		s = mmap(NULL, st.st_size + 1, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (s != MAP_FAILED &&
		    mmap(s, st.st_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_FIXED, fd, 0) != MAP_FAILED) {
			close(fd);
			*text = s;
			*len = st.st_size;
			return 0;
		}
		if (s != MAP_FAILED)
			munmap(s, st.st_size + 1);
	}
	if (read_whole(fd, text, len)) {
		fprintf(stderr, "itrace-dump: %s: %s\n", name, strerror(errno));
		if (fd)
			close(fd);
		return -1;
	}
	if (fd)
		close(fd);
	return 0;
}

/*
 * The capture @in (a file, or - for standard input) read and parsed,
 * its one line on stderr if it cannot be. With @orig, the file's bytes
 * as read are kept there (the parse splits a copy); else it is parsed
 * in place. 0, or -1.
 */
int capture_load(const char *in, struct capture *c, char **orig, size_t *len)
{
	char err[512], *text, *copy;

	if (read_all(in, &text, len))
		return -1;
	copy = text;
	if (orig) {
		copy = malloc(*len + 1);
		if (!copy) {
			fprintf(stderr, "itrace-dump: out of memory\n");
			return -1;
		}
		memcpy(copy, text, *len);
		*orig = text;
	}
	c->name = strcmp(in, "-") ? in : "standard input";
	if (capture_parse(c, copy, *len, err, sizeof(err))) {
		fprintf(stderr, "itrace-dump: %s\n", err);
		return -1;
	}
	return 0;
}

#ifdef ITRACE_DUMP_CAPTURE_ONLY

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "capture"))
		return drain_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "text"))
		return text_main(argc - 1, argv + 1);
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "itrace-dump: built without elfutils: only `capture` and `text` (read the capture with a full build)\n");
	return 2;
}

#else

enum view { V_SCRIPT, V_CALLS, V_CHROME, V_FOLDED };

struct args {
	enum view view;
	const char *in, *out;
	struct out_opts o;
	struct sym_opts s;
};

static int parse_view(const char *w, enum view *v)
{
	static const char *const names[] = { "script", "calls", "chrome", "folded" };
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(w, names[i])) {
			*v = i;
			return 0;
		}
	return -1;
}

/* script's -F: a comma list of +srcline, +time, +syscall, +args, +insn, +disasm */
static int parse_script_f(struct args *a, const char *arg)
{
	const char *w = arg, *comma;
	size_t n;

	do {
		comma = strchr(w, ',');
		n = comma ? (size_t)(comma - w) : strlen(w);
		if (n == 8 && !strncmp(w, "+srcline", n)) {
			a->o.srcline = true;
			a->s.srcline = true;
		} else if (n == 5 && !strncmp(w, "+time", n)) {
			a->o.time = true;
		} else if (n == 8 && !strncmp(w, "+syscall", n)) {
			a->o.syscall = true;
		} else if (n == 5 && !strncmp(w, "+args", n)) {
			a->o.args = true;
		} else if (n == 5 && !strncmp(w, "+insn", n)) {
			a->o.insn = true;
		} else if (n == 7 && !strncmp(w, "+disasm", n)) {
			a->o.disasm = true;
		} else {
			fprintf(stderr, "itrace-dump script: -F: +srcline, +time, +syscall, +args, +insn or +disasm (comma-separated), not '%.*s'\n",
				(int)n, w);
			return -1;
		}
		w = comma + 1;
	} while (comma);
	return 0;
}

static int parse_f(struct args *a, const char *arg)
{
	if (a->view == V_SCRIPT)
		return parse_script_f(a, arg);
	if (a->view == V_CALLS) {
		a->o.only_func = arg;
		return 0;
	}
	fprintf(stderr, "itrace-dump: -F is for script and calls\n");
	return -1;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "symfs", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	long v;
	int c;

	if (argc > 1 && !parse_view(argv[1], &a->view)) {
		argc--;
		argv++;
	}
	while ((c = getopt_long(argc, argv, "o:F:D:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->out = optarg;
			break;
		case 'S':
			a->s.symfs = optarg;
			break;
		case 'F':
			if (parse_f(a, optarg))
				return -1;
			break;
		case 'D':
			v = strtol(optarg, &end, 10);
			if (a->view != V_CALLS || *end || v < 1 || v > 100000) {
				fprintf(stderr, "itrace-dump: -D: a depth of 1 or more, for calls\n");
				return -1;
			}
			a->o.max_depth = v;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, optind < argc ? "itrace-dump: one capture file, not %d: '%s' ...\n" :
			"itrace-dump: no capture file named%.0d%.0s (try -h)\n", argc - optind,
			optind < argc ? argv[optind] : "");
		return -1;
	}
	a->in = argv[optind];
	return 0;
}

int main(int argc, char **argv)
{
	static int (*const out[])(struct capture *, const struct out_opts *, FILE *) = {
		out_script, out_calls, out_chrome, out_folded,
	};
	struct capture c = { 0 };
	struct args a = { 0 };
	FILE *f = stdout;
	size_t len;
	int rc;

	if (argc > 1 && !strcmp(argv[1], "capture"))
		return drain_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "text"))
		return text_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "gdb"))
		return gdb_main(argc - 1, argv + 1, &a.s);
	if (parse_args(&a, argc, argv))
		return 2;
	if (capture_load(a.in, &c, NULL, &len))
		return 1;
	if (c.lost)
		fprintf(stderr, "itrace-dump: %s: %zu records were lost while captured: the views have gaps\n",
			c.name, c.lost);
	if (a.out && !(f = fopen(a.out, "w"))) {
		fprintf(stderr, "itrace-dump: %s: %s\n", a.out, strerror(errno));
		return 1;
	}
	if (sym_init(&a.s)) {
		fprintf(stderr, "itrace-dump: out of memory\n");
		return 1;
	}
	rc = out[a.view](&c, &a.o, f);
	if (rc)
		fprintf(stderr, "itrace-dump: %s: %s\n", a.out ? a.out : "standard output",
			strerror(errno));
	if (a.out && fclose(f))
		rc = -1;
	code_exit();
	sym_exit();
	capture_free(&c);
	/* text is mapped or allocated: the exit frees either */
	return rc ? 1 : 0;
}

#endif
