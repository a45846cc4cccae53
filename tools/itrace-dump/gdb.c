// SPDX-License-Identifier: GPL-2.0
/*
 * `itrace-dump gdb CAPTURE [TID]`: a gdb remote stub on standard input
 * and output (`target remote | itrace-dump gdb ...`) that serves one
 * thread of a capture as branch trace, in gdb's BTS form: gdb's
 * `record btrace bts` then finds the trace already recorded, and its
 * record function-call-history, instruction-history, reverse-stepi and
 * reverse-finish replay the captured control flow. Memory is the
 * captured files' (the code at every address a mapping names, read
 * through sym.c's checked files, under --symfs); the registers are the
 * program counter where the trace ends, every other one unavailable.
 * Nothing runs: a request to run or step forward past the trace's end
 * stops at once, where it is.
 *
 * The trace in blocks (gdb's btrace.dtd): a block is a straight run of
 * instructions, from the target of one branch record to the branch
 * instruction of the next; records that do not branch (insn, jcc-nt,
 * syscall, int: the next instruction follows) stay inside a block. The
 * last block ends at the trace's end. gdb wants the newest block first.
 */
#include <elf.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dump.h"
#include "lib/kind.h"

/* what gdb is told it may send at most, and what a reply may hold */
#define PKT_MAX		16384

struct stub {
	struct capture *c;
	struct take *take;	/* the thread's last take of mappings */
	uint32_t tid;
	uint64_t pc;		/* where the trace ends */
	bool ppc;
	bool no_ack;
	char *btrace;		/* qXfer:btrace:read's document */
	size_t btrace_len;
	char *libs;		/* qXfer:libraries-svr4:read's */
	size_t libs_len;
	const struct map *exe;	/* the program's mapping at offset 0 */
	uint64_t exe_bias;	/* its load bias (0: not position-independent) */
	char in[PKT_MAX + 8];
};

/* a growing string */
struct str {
	char *s;
	size_t len, cap;
};

static __attribute__((format(printf, 2, 3))) void sadd(struct str *b,
							 const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL,
			      b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->s && b->len + n < b->cap) {
			b->len += n;
			return;
		}
		b->cap = (b->len + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s) {
			b->len = b->cap = 0;
			return;
		}
	}
}

/* Does record kind @k leave the next instruction to follow? */
static bool sequential(unsigned int k)
{
	return k == ITRACE_K_INSN || k == ITRACE_K_JCC_NT ||
	       k == ITRACE_K_SYSCALL || k == ITRACE_K_INT;
}

/* The blocks of @s->tid, newest first, as gdb's btrace document. */
static void make_btrace(struct stub *s)
{
	struct str b = { 0 };
	uint64_t (*blk)[2] = NULL, begin = 0;
	size_t n = 0, cap = 0, i;
	bool have = false;

	for (i = 0; i < s->c->nr_recs; i++) {
		const struct rec *r = &s->c->recs[i];

		if (r->pid != s->tid)
			continue;
		if (!have) {
			begin = r->from;
			have = true;
		}
		s->pc = r->to;
		if (sequential(r->kind))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			blk = realloc(blk, cap * sizeof(*blk));
			if (!blk)
				return;
		}
		blk[n][0] = begin;
		blk[n++][1] = r->from;
		begin = r->to;
	}
	sadd(&b, "<!DOCTYPE btrace SYSTEM \"btrace.dtd\">\n<btrace version=\"1.0\">\n");
	if (have)
		sadd(&b, "<block begin=\"0x%" PRIx64 "\" end=\"0x%" PRIx64 "\"/>\n",
		     begin, s->pc);
	while (n--)
		sadd(&b, "<block begin=\"0x%" PRIx64 "\" end=\"0x%" PRIx64 "\"/>\n",
		     blk[n][0], blk[n][1]);
	sadd(&b, "</btrace>\n");
	free(blk);
	s->btrace = b.s;
	s->btrace_len = b.len;
}

/* @m's file as libelf reads it, or NULL (the caller ends it) */
static Elf *map_elf(const struct map *m)
{
	int cls, fd = sym_code_file(m, &cls);

	return fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
}

/* the first PT_LOAD's vaddr and PT_DYNAMIC's of @e; false if no PT_LOAD */
static bool segments(Elf *e, uint64_t *load, uint64_t *dyn, bool *interp)
{
	size_t i, n;
	bool found = false;

	*dyn = 0;
	*interp = false;
	if (elf_getphdrnum(e, &n))
		return false;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, i, &ph))
			continue;
		if (ph.p_type == PT_LOAD && !found) {
			*load = ph.p_vaddr & ~(uint64_t)0xfff;
			found = true;
		} else if (ph.p_type == PT_DYNAMIC) {
			*dyn = ph.p_vaddr;
		} else if (ph.p_type == PT_INTERP) {
			*interp = true;
		}
	}
	return found;
}

/*
 * The program and its libraries from the take's mappings at offset 0:
 * the program is the ELF executable, or the position-independent one
 * with an interpreter; every other one a library for gdb's svr4 list.
 */
static void make_libs(struct stub *s)
{
	struct str b = { 0 };
	size_t i;

	sadd(&b, "<library-list-svr4 version=\"1.0\">");
	for (i = 0; s->take && i < s->take->nr_maps; i++) {
		const struct map *m = &s->take->maps[i];
		uint64_t load, dyn, bias;
		GElf_Ehdr eh;
		bool interp;
		Elf *e;

		if (m->off || (i && !strcmp(s->take->maps[i - 1].path, m->path)))
			continue;
		e = map_elf(m);
		if (!e || !gelf_getehdr(e, &eh) || !segments(e, &load, &dyn, &interp)) {
			if (e)
				elf_end(e);
			continue;
		}
		bias = m->start - load;
		if (!s->exe && (eh.e_type == ET_EXEC || interp)) {
			s->exe = m;
			s->exe_bias = bias;
		} else if (dyn) {
			/* a name with a quote or an ampersand is left out */
			if (!strpbrk(m->path, "\"&<>"))
				sadd(&b, "<library name=\"%s\" lm=\"0x%zx\" lmid=\"0x0\" l_addr=\"0x%" PRIx64
				     "\" l_ld=\"0x%" PRIx64 "\"/>", m->path, i + 1, bias,
				     bias + dyn);
		}
		elf_end(e);
	}
	sadd(&b, "</library-list-svr4>");
	s->libs = b.s;
	s->libs_len = b.len;
}

/* Send one packet, escaping what the protocol reserves. */
static void put_pkt(const char *data, size_t len)
{
	unsigned char sum = 0;
	size_t i;

	putchar('$');
	for (i = 0; i < len; i++) {
		unsigned char ch = data[i];

		if (ch == '$' || ch == '#' || ch == '}' || ch == '*') {
			putchar('}');
			sum += '}';
			ch ^= 0x20;
		}
		putchar(ch);
		sum += ch;
	}
	printf("#%02x", sum);
	fflush(stdout);
}

static void reply(const char *text)
{
	put_pkt(text, strlen(text));
}

/*
 * Read one packet into s->in (NUL-terminated); false at the end of
 * input. A ^C (0x03) is taken as nothing: nothing runs.
 */
static bool get_pkt(struct stub *s)
{
	int ch;
	size_t n;

	for (;;) {
		do {
			ch = getchar();
			if (ch == EOF)
				return false;
		} while (ch != '$');
		n = 0;
		while ((ch = getchar()) != EOF && ch != '#') {
			if (n < PKT_MAX)
				s->in[n++] = ch;
		}
		if (ch == EOF || getchar() == EOF || getchar() == EOF)
			return false;
		s->in[n] = '\0';
		if (!s->no_ack) {
			putchar('+');
			fflush(stdout);
		}
		return true;
	}
}

/* A part of @doc for "qXfer:...:read:ANNEX:OFF,LEN" at @args ("OFF,LEN") */
static void xfer(const char *doc, size_t len, const char *args)
{
	unsigned long long off, n;
	char *out;

	if (!doc || sscanf(args, "%llx,%llx", &off, &n) != 2) {
		reply("E01");
		return;
	}
	if (off >= len) {
		reply("l");
		return;
	}
	if (n > PKT_MAX / 2)
		n = PKT_MAX / 2;
	out = malloc(n + 1);
	if (!out) {
		reply("E01");
		return;
	}
	out[0] = off + n < len ? 'm' : 'l';
	if (off + n > len)
		n = len - off;
	memcpy(out + 1, doc + off, n);
	put_pkt(out, n + 1);
	free(out);
}

/* m ADDR,LEN: the captured files' bytes there */
static void memory(struct stub *s, const char *args)
{
	unsigned long long addr, n, i;
	unsigned char buf[4096];
	char hex[2 * sizeof(buf) + 1];
	size_t got;
	int cls;

	if (sscanf(args, "%llx,%llx", &addr, &n) != 2) {
		reply("E01");
		return;
	}
	got = code_read(s->take, addr, buf, n < sizeof(buf) ? n : sizeof(buf),
			&cls);
	if (!got) {
		reply("E14");
		return;
	}
	for (i = 0; i < got; i++)
		snprintf(hex + 2 * i, 3, "%02x", buf[i]);
	reply(hex);
}

/* little-endian hex of @v, @bytes long */
static void le_hex(struct str *b, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++, v >>= 8)
		sadd(b, "%02x", (unsigned int)(v & 0xff));
}

static void unknown_regs(struct str *b, int bytes)
{
	while (bytes--)
		sadd(b, "xx");
}

/*
 * g: the registers up to the program counter, in the order of gdb's
 * default register set for the arch: x86-64 rax..r15 then rip; POWER
 * r0..r31, f0..f31, then pc. Everything but the pc unavailable; the
 * registers after it are not sent (gdb marks them unavailable).
 */
static void registers(struct stub *s)
{
	struct str b = { 0 };

	unknown_regs(&b, s->ppc ? 64 * 8 : 16 * 8);
	le_hex(&b, s->pc, 8);
	reply(b.s ? b.s : "E01");
	free(b.s);
}

static void target_xml(struct stub *s, const char *args)
{
	char doc[256];

	snprintf(doc, sizeof(doc),
		 "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
		 "<target><architecture>%s</architecture><osabi>GNU/Linux</osabi></target>",
		 s->ppc ? "powerpc:common64" : "i386:x86-64");
	xfer(doc, strlen(doc), args);
}

static void stopped(struct stub *s)
{
	char t[64];

	snprintf(t, sizeof(t), "T05thread:%x;", s->tid);
	reply(t);
}

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The qXfer reads; false if @q is none of them. */
static bool query_xfer(struct stub *s, const char *q)
{
	const char *path;

	if (starts(q, "qXfer:btrace:read:all:")) {
		xfer(s->btrace, s->btrace_len, q + strlen("qXfer:btrace:read:all:"));
	} else if (starts(q, "qXfer:btrace:read:new:")) {
		static const char none[] = "<btrace version=\"1.0\"/>\n";

		xfer(none, strlen(none), q + strlen("qXfer:btrace:read:new:"));
	} else if (starts(q, "qXfer:btrace:read:")) {
		reply("E01");	/* delta: gdb reads new, then all */
	} else if (starts(q, "qXfer:btrace-conf:read::")) {
		static const char conf[] =
			"<btrace-conf version=\"1.0\"><bts size=\"0x10000\"/></btrace-conf>\n";

		xfer(conf, strlen(conf), q + strlen("qXfer:btrace-conf:read::"));
	} else if (starts(q, "qXfer:features:read:target.xml:")) {
		target_xml(s, q + strlen("qXfer:features:read:target.xml:"));
	} else if (starts(q, "qXfer:libraries-svr4:read::")) {
		xfer(s->libs, s->libs_len, q + strlen("qXfer:libraries-svr4:read::"));
	} else if (starts(q, "qXfer:exec-file:read:")) {
		path = strchr(q + strlen("qXfer:exec-file:read:"), ':');
		if (s->exe && path)
			xfer(s->exe->path, strlen(s->exe->path), path + 1);
		else
			reply("E01");
	} else {
		return false;
	}
	return true;
}

static void query(struct stub *s, const char *q)
{
	char t[512];

	if (query_xfer(s, q))
		return;
	if (starts(q, "qSupported")) {
		snprintf(t, sizeof(t), "PacketSize=%x;QStartNoAckMode+;qXfer:btrace:read+;"
			 "qXfer:btrace-conf:read+;Qbtrace:bts+;Qbtrace:off+;"
			 "Qbtrace-conf:bts:size+;qXfer:features:read+;"
			 "qXfer:libraries-svr4:read+;qXfer:exec-file:read+", PKT_MAX);
		reply(t);
		return;
	}
	if (!strcmp(q, "qfThreadInfo")) {
		snprintf(t, sizeof(t), "m%x", s->tid);
		reply(t);
	} else if (!strcmp(q, "qsThreadInfo")) {
		reply("l");
	} else if (!strcmp(q, "qC")) {
		snprintf(t, sizeof(t), "QC%x", s->tid);
		reply(t);
	} else if (!strcmp(q, "qAttached")) {
		reply("1");
	} else if (!strcmp(q, "qOffsets")) {
		snprintf(t, sizeof(t), "Text=%" PRIx64 ";Data=%" PRIx64 ";Bss=%" PRIx64,
			 s->exe_bias, s->exe_bias, s->exe_bias);
		reply(t);
	} else {
		reply("");
	}
}

/* Serve packets until gdb detaches, kills or goes. */
static void serve(struct stub *s)
{
	while (get_pkt(s)) {
		const char *p = s->in;

		if (!strcmp(p, "QStartNoAckMode")) {
			reply("OK");
			s->no_ack = true;
		} else if (!strcmp(p, "Qbtrace:bts") || !strcmp(p, "Qbtrace:off") ||
			   starts(p, "Qbtrace-conf:") || p[0] == 'H' ||
			   starts(p, "QNonStop:0") || starts(p, "QPassSignals") ||
			   starts(p, "QProgramSignals")) {
			reply("OK");
		} else if (starts(p, "Qbtrace:")) {
			reply("E01");	/* pt: not what the capture is */
		} else if (p[0] == 'q') {
			query(s, p);
		} else if (!strcmp(p, "?")) {
			stopped(s);
		} else if (!strcmp(p, "g")) {
			registers(s);
		} else if (p[0] == 'm') {
			memory(s, p + 1);
		} else if (starts(p, "vCont;") || p[0] == 'c' || p[0] == 's') {
			stopped(s);	/* nothing runs */
		} else if (p[0] == 'T') {
			reply("OK");
		} else if (p[0] == 'D') {
			reply("OK");
			return;
		} else if (p[0] == 'k') {
			return;
		} else {
			reply("");
		}
	}
}

static void usage(FILE *f)
{
	fputs("usage: itrace-dump gdb [--symfs DIR] CAPTURE [TID]\n"
	      "  a gdb remote stub on standard input and output serving thread\n"
	      "  TID (default: the capture's first) as recorded branch trace:\n"
	      "    (gdb) set sysroot DIR\n"
	      "    (gdb) target remote | itrace-dump gdb --symfs DIR CAPTURE TID\n"
	      "    (gdb) record btrace bts\n"
	      "    (gdb) record function-call-history /ilc\n", f);
}

int gdb_main(int argc, char **argv, struct sym_opts *so)
{
	static const struct option lo[] = {
		{ "symfs", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct stub s = { 0 };
	struct capture c = { 0 };
	char *end;
	unsigned long tid = 0;
	size_t len, i;
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (ch == 'S') {
			so->symfs = optarg;
		} else if (ch == 'h') {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1 && optind != argc - 2) {
		usage(stderr);
		return 2;
	}
	if (optind == argc - 2) {
		tid = strtoul(argv[argc - 1], &end, 10);
		if (*end || !tid || tid > UINT32_MAX) {
			fprintf(stderr, "itrace-dump gdb: '%s' is not a thread id\n", argv[argc - 1]);
			return 2;
		}
	}
	if (capture_load(argv[optind], &c, NULL, &len))
		return 1;
	if (!tid && c.nr_recs)
		tid = c.recs[0].pid;
	for (i = 0; i < c.nr_recs && c.recs[i].pid != tid; i++)
		;
	if (i == c.nr_recs) {
		fprintf(stderr, "itrace-dump gdb: %s: no record of thread %lu\n", c.name, tid);
		return 1;
	}
	if (sym_init(so)) {
		fprintf(stderr, "itrace-dump: out of memory\n");
		return 1;
	}
	s.c = &c;
	s.tid = tid;
	s.ppc = !strncmp(c.arch, "ppc", 3);
	make_btrace(&s);
	s.take = capture_take(&c, tid, UINT64_MAX);
	make_libs(&s);
	serve(&s);
	free(s.btrace);
	free(s.libs);
	sym_exit();
	capture_free(&c);
	return 0;
}
