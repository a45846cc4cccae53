// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for itrace-dump's capture reader
 * (tools/itrace-dump/capfile.c) and the views behind it (script.c,
 * tree.c), with a made-up symbolizer in place of elfutils: names depend
 * on the address only, some unknown. The input is the capture's text,
 * in an exactly-sized heap block (one byte more for the reader's NUL).
 * Checked: a refused input gets one line naming the file and a line
 * number; an accepted one has its records in increasing seq, its takes
 * sorted, every map inside a take of its pid with an absolute path
 * (unescaped too: exactly-sized, never longer), and
 * capture_rec_take() agreeing with capture_take() for every record;
 * every view then runs to the end without a report.
 */
#include "fuzz.h"
#include "../../tools/itrace-dump/dump.h"
#include "lib/kind.h"

#define SYM(n, d, f, sl, fs, l) \
	{ .name = n, .dso = d, .func = f, .srcline = sl, .func_start = fs, \
	  .label = l }
static struct sym syms[8] = {
	SYM("[unknown]", "[unknown]", NULL, NULL, 0, "0x10"),
	SYM("main+0x0", "/bin/p", "main", "p.c:1", 0x1000, "main"),
	SYM("f+0x4", "/bin/p", "f", NULL, 0x2000, "f+0x4"),
	SYM("g\"q;+0x8", "/lib/l", "g\"q;", "l.c:9", 0x3000, "g\"q;"),
	SYM("h+0x0", "/lib/l", "h", NULL, 0x4000, "h"),
	SYM("[unknown]", "/lib/l", NULL, NULL, 0, "0x20"),
	SYM("i+0x10", "/bin/p", "i", NULL, 0x5000, "i+0x10"),
	SYM("j+0x0", "/bin/p", "j", "p.c:7", 0x6000, "j"),
};

/* script's -F +insn,+disasm: bytes of every length 0..16, no text */
void code_of(struct capture *c, struct take *t, uint64_t addr,
	     const struct sym *cs, bool disasm)
{
	struct sym *s = (struct sym *)cs;

	(void)c;
	(void)t;
	(void)disasm;
	s->code_len = addr % (sizeof(s->code) + 1);
	memset(s->code, 0xa5, sizeof(s->code));
}

int sym_init(const struct sym_opts *o)
{
	(void)o;
	return 0;
}

const struct sym *sym_lookup(struct capture *c, struct take *t, uint64_t addr)
{
	(void)c;
	(void)t;
	return &syms[(addr ^ (addr >> 5)) & 7];
}

void sym_exit(void)
{
}

static void check_ok(struct capture *c)
{
	size_t i, j;

	for (i = 1; i < c->nr_recs; i++)
		FUZZ_ASSERT(c->recs[i].seq > c->recs[i - 1].seq);
	for (i = 0; i < c->nr_recs; i++) {
		FUZZ_ASSERT(c->recs[i].kind < ITRACE_K_NR);
		FUZZ_ASSERT(capture_rec_take(c, &c->recs[i]) ==
			    capture_take(c, c->recs[i].pid, c->recs[i].seq));
	}
	for (i = 0; i < c->nr_takes; i++) {
		const struct take *t = &c->takes[i];

		if (i)
			FUZZ_ASSERT(t[-1].pid < t->pid ||
				    (t[-1].pid == t->pid && t[-1].seq <= t->seq));
		for (j = 0; j < t->nr_maps; j++) {
			size_t n = strlen(t->maps[j].path);
			char *raw = malloc(n + 1);

			/* the bytes back: never longer, the slash kept */
			if (raw) {
				capture_unescape(raw, t->maps[j].path);
				FUZZ_ASSERT(strlen(raw) <= n && raw[0] == '/');
				free(raw);
			}
			FUZZ_ASSERT(t->maps[j].path[0] == '/');
			FUZZ_ASSERT(t->maps[j].start < t->maps[j].end);
			FUZZ_ASSERT(!j || t->maps[j].start >= t->maps[j - 1].end);
		}
	}
	FUZZ_ASSERT(c->ended && c->end_recs == c->nr_recs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct capture c = { .name = "fuzz" };
	struct out_opts o = { 0 };
	char err[256], *text = malloc(size + 1);

	if (!text)
		return 0;
	if (!null)
		null = fopen("/dev/null", "w");
	memcpy(text, data, size);
	if (capture_parse(&c, text, size, err, sizeof(err))) {
		FUZZ_ASSERT(!strncmp(err, "fuzz: line ", 11));
		FUZZ_ASSERT(!strchr(err, '\n'));
	} else {
		check_ok(&c);
		o.srcline = size & 1;
		o.only_func = size & 2 ? "f+0x4" : NULL;
		o.max_depth = size & 4 ? 2 : 0;
		o.insn = size & 8;
		o.disasm = size & 16;
		FUZZ_ASSERT(!out_script(&c, &o, null));
		FUZZ_ASSERT(!out_calls(&c, &o, null));
		FUZZ_ASSERT(!out_folded(&c, &o, null));
		FUZZ_ASSERT(!out_chrome(&c, &o, null));
		tree_exit();
	}
	capture_free(&c);
	free(text);
	return 0;
}
