// SPDX-License-Identifier: GPL-2.0
/*
 * Reads a capture (docs/CAPTURE.md) into a struct capture: strict, one
 * line at a time, in place (the text is split where it lies; names point
 * into it); kinds are read by kdb-itrace's own kind.c. Any line it does
 * not know, or knows but finds malformed, stops the read with a message
 * naming the line. Pure C, no elfutils; fuzzed (tests/fuzz/fuzz_capfile.c).
 */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "lib/kind.h"
#include "lib/wire.h"

/* the parser's state: where it is, and the message of the first error */
struct pstate {
	struct capture *c;
	unsigned int line;
	char *err;
	size_t errlen;
	size_t cap_recs, cap_takes, cap_maps;
	struct take *cur;	/* the take map lines add to */
};

static int perr(struct pstate *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(p->err, p->errlen, "%s: line %u: ", p->c->name, p->line);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* The next word of *s (split on one space), or NULL at the end. */
static char *word(char **s)
{
	char *w = *s, *sp;

	if (!w || !*w)
		return NULL;
	sp = strchr(w, ' ');
	if (sp) {
		*sp = '\0';
		*s = sp + 1;
	} else {
		*s = NULL;
	}
	return w;
}

/* Decimal or (hex) lower-case hex, whole word, no sign, fits 64 bits. */
static bool num(const char *w, bool hex, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	unsigned int base = hex ? 16 : 10, d;

	if (!w || !*w || (!hex && w[0] == '0' && w[1]))
		return false;
	for (; *w; w++) {
		if (*w >= '0' && *w <= '9')
			d = *w - '0';
		else if (hex && *w >= 'a' && *w <= 'f')
			d = *w - 'a' + 10;
		else
			return false;
		if (x > (max - d) / base)
			return false;
		x = x * base + d;
	}
	*v = x;
	return true;
}

static bool num32(const char *w, uint32_t *v)
{
	uint64_t x;

	if (!num(w, false, UINT32_MAX, &x))
		return false;
	*v = (uint32_t)x;
	return true;
}

static bool grow(void **arr, size_t *cap, size_t nr, size_t size)
{
	void *n;
	size_t c;

	if (nr < *cap)
		return true;
	c = *cap ? *cap * 2 : 64;
	n = realloc(*arr, c * size);
	if (!n)
		return false;
	*arr = n;
	*cap = c;
	return true;
}

/* "itrace-capture V arch NAME": versions 1 to 3 */
static int parse_header(struct pstate *p, char *s)
{
	size_t n = strlen(CAPTURE_PREFIX);
	char *w;

	if (strncmp(s, CAPTURE_PREFIX, n) || s[n] < '1' || s[n] > '3' ||
	    (s[n + 1] && s[n + 1] != ' '))
		return perr(p, "not an itrace capture (no '%s' line, version 1 to 3)",
			    CAPTURE_MAGIC);
	p->c->version = s[n] - '0';
	s += n + 1;
	if (*s++ != ' ' || !(w = word(&s)) || strcmp(w, "arch") ||
	    !(w = word(&s)) || s || strlen(w) >= sizeof(p->c->arch) ||
	    strspn(w, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(w))
		return perr(p, "header: want '%s%u arch NAME'", CAPTURE_PREFIX,
			    p->c->version);
	strcpy(p->c->arch, w);
	return 0;
}

/*
 * A decimal (@hex: lower-case hex after "0x") number at *s, ending in a
 * space or at @end (*@last says which), *s moved past it. At most 19
 * decimal or 16 hex digits: anything longer is refused, never wrapped.
 */
static bool field_any(const char **s, const char *end, bool hex, bool *last,
		      uint64_t *v)
{
	const char *p = *s, *start;
	uint64_t x = 0;
	unsigned int d;

	if (hex) {
		if (end - p < 3 || p[0] != '0' || p[1] != 'x')
			return false;
		p += 2;
	}
	start = p;
	for (; p < end && *p != ' '; p++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (hex && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			return false;
		x = hex ? x << 4 | d : x * 10 + d;
	}
	if (p == start || p - start > (hex ? 16 : 19) ||
	    (!hex && *start == '0' && p - start > 1) ||
	    (p < end && p + 1 == end))
		return false;
	*v = x;
	*last = p == end;
	*s = *last ? end : p + 1;
	return true;
}

/* The same, ending at @end if @last, else in a space. */
static bool field(const char **s, const char *end, bool hex, bool last,
		  uint64_t *v)
{
	bool at_end;

	return field_any(s, end, hex, &at_end, v) && at_end == last;
}

/* Version 2's tail after 0xto: " ns" and up to REC_VALS " 0xvalue". */
static int parse_values(struct pstate *p, const char *s, const char *end,
			struct rec *r)
{
	bool last;

	if (!field_any(&s, end, false, &last, &r->ns))
		return perr(p, "record: want 0xto then the time in ns (decimal)");
	while (!last) {
		if (r->nval == REC_VALS)
			return perr(p, "record: more than %d values", REC_VALS);
		if (!field_any(&s, end, true, &last, &r->val[r->nval++]))
			return perr(p, "record: want values as 0x and lower-case hex after the time");
	}
	return 0;
}

/* Append @r to the capture's records, which it must follow in seq. */
static int add_rec(struct pstate *p, const struct rec *r)
{
	struct capture *c = p->c;

	if (c->nr_recs && r->seq <= c->recs[c->nr_recs - 1].seq)
		return perr(p, "record: seq %llu is not above the previous record's %llu",
			    (unsigned long long)r->seq,
			    (unsigned long long)c->recs[c->nr_recs - 1].seq);
	if (!grow((void **)&c->recs, &p->cap_recs, c->nr_recs, sizeof(*r)))
		return perr(p, "out of memory");
	c->recs[c->nr_recs++] = *r;
	return 0;
}

/*
 * seq cpu pid kind 0xfrom 0xto (version 2: and ns [0xvalue...]), the
 * line [s, end): read where it lies,
 * never written (records are most of the file: their pages stay the
 * file's), one pass over it.
 */
static int parse_record(struct pstate *p, const char *s, const char *end)
{
	struct capture *c = p->c;
	struct rec r = { 0 };
	uint64_t cpu, pid;
	const char *k;
	int kind;

	if (!field(&s, end, false, false, &r.seq) ||
	    !field(&s, end, false, false, &cpu) || cpu > UINT16_MAX ||
	    !field(&s, end, false, false, &pid) || pid > UINT32_MAX)
		return perr(p, "record: want 'seq cpu pid kind 0xfrom 0xto' (bad seq, cpu or pid)");
	k = memchr(s, ' ', end - s);
	kind = k ? itrace_kind_parse(s, k - s) : -1;
	if (kind < 0)
		return perr(p, "record: unknown kind '%.*s'",
			    (int)((k ? k : end) - s > 16 ? 16 : (k ? k : end) - s), s);
	s = k + 1;
	if (!field(&s, end, true, false, &r.from) ||
	    !field(&s, end, true, c->version == 1, &r.to))
		return perr(p, c->version == 1 ?
			    "record: want 0xfrom 0xto, lower-case hex, and nothing after" :
			    "record: want 0xfrom 0xto, lower-case hex, then the time");
	if (c->version > 1 && parse_values(p, s, end, &r))
		return -1;
	r.cpu = (uint16_t)cpu;
	r.pid = (uint32_t)pid;
	r.kind = (uint8_t)kind;
	return add_rec(p, &r);
}

/*
 * One record of a binary block (lib/wire.h's layout, little endian);
 * false if it is not a record kdb-itrace writes.
 */
bool capture_wire_rec(const unsigned char *b, struct rec *r)
{
	struct itrace_wire w;
	unsigned int i;

	memcpy(&w, b, sizeof(w));
	r->seq = le64toh(w.seq);
	r->from = le64toh(w.from);
	r->to = le64toh(w.to);
	r->ns = le64toh(w.ns);
	for (i = 0; i < REC_VALS; i++)
		r->val[i] = i < w.nval ? le64toh(w.val[i]) : 0;
	r->pid = le32toh(w.pid);
	r->cpu = le16toh(w.cpu);
	r->kind = w.kind;
	r->nval = w.nval;
	return w.kind < ITRACE_K_NR && w.nval <= REC_VALS;
}

/*
 * Version 3's `records N` line, at [s, nl), and the N binary records
 * after it; *next is moved past them.
 */
static int parse_block(struct pstate *p, const char *s, const char *nl,
		       const char *end, const char **next)
{
	const unsigned char *b = (const unsigned char *)nl + 1;
	uint64_t n, i;
	struct rec r;

	s += strlen("records ");
	if (!field(&s, nl, false, true, &n) || !n)
		return perr(p, "want 'records N', N a count above 0");
	if (n > (uint64_t)(end - (nl + 1)) / ITRACE_WIRE_SIZE)
		return perr(p, "records %llu: the file ends before them (truncated capture?)",
			    (unsigned long long)n);
	for (i = 0; i < n; i++, b += ITRACE_WIRE_SIZE) {
		if (!capture_wire_rec(b, &r))
			return perr(p, "records: record %llu of the block is not one kdb-itrace writes (kind %u, %u values)",
				    (unsigned long long)i + 1, r.kind, r.nval);
		if (add_rec(p, &r))
			return -1;
	}
	*next = (const char *)b;
	return 0;
}

/*
 * \ooo back to its byte; a backslash that starts no such escape (none
 * does in what kdb-itrace writes) is kept as it is.
 */
void capture_unescape(char *out, const char *s)
{
	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7' &&
		    (s[1] != '0' || s[2] != '0' || s[3] != '0')) {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* task PID tgid TGID seq SEQ comm NAME */
static int parse_task(struct pstate *p, char *s)
{
	struct capture *c = p->c;
	struct take t = { 0 };
	char *w;

	w = word(&s);
	if (!num32(w, &t.pid) || !(w = word(&s)) || strcmp(w, "tgid") ||
	    !num32(word(&s), &t.tgid) || !(w = word(&s)) || strcmp(w, "seq") ||
	    !num(word(&s), false, UINT64_MAX, &t.seq) || !(w = word(&s)) ||
	    strcmp(w, "comm") || !s)
		return perr(p, "want 'task PID tgid TGID seq SEQ comm NAME'");
	t.comm = s;
	t.line = p->line;
	if (!grow((void **)&c->takes, &p->cap_takes, c->nr_takes, sizeof(t)))
		return perr(p, "out of memory");
	c->takes[c->nr_takes] = t;
	p->cur = &c->takes[c->nr_takes++];
	p->cap_maps = 0;
	return 0;
}

static bool build_id_ok(const char *w)
{
	size_t n = strlen(w);

	return n >= 2 && n <= 128 && !(n & 1) &&
	       strspn(w, "0123456789abcdef") == n;
}

/* map PID START-END PERMS OFFSET BUILDID PATH */
static int parse_map(struct pstate *p, char *s)
{
	struct take *t = p->cur;
	struct map m = { 0 };
	char *w[5], *dash;
	uint32_t pid;
	int i;

	for (i = 0; i < 5; i++)
		w[i] = word(&s);
	if (!s || !*s)
		return perr(p, "want 'map PID START-END PERMS OFFSET BUILDID PATH'");
	if (!num32(w[0], &pid) || !t || t->pid != pid)
		return perr(p, "map: not after a task line of pid %.12s", w[0]);
	dash = strchr(w[1], '-');
	if (!dash)
		return perr(p, "map: want START-END");
	*dash = '\0';
	if (!num(w[1], true, UINT64_MAX, &m.start) ||
	    !num(dash + 1, true, UINT64_MAX, &m.end) || m.start >= m.end)
		return perr(p, "map: bad range");
	if (t->nr_maps && m.start < t->maps[t->nr_maps - 1].end)
		return perr(p, "map: not in address order");
	if (strlen(w[2]) != 4 || strspn(w[2], "rwxps-") != 4)
		return perr(p, "map: bad permissions '%.8s'", w[2]);
	memcpy(m.perms, w[2], 5);
	if (!num(w[3], true, UINT64_MAX, &m.off))
		return perr(p, "map: bad offset");
	if (strcmp(w[4], "-")) {
		if (!build_id_ok(w[4]))
			return perr(p, "map: bad build-id");
		m.build_id = w[4];
	}
	if (s[0] != '/')
		return perr(p, "map: the path is not absolute");
	m.path = s;
	if (!grow((void **)&t->maps, &p->cap_maps, t->nr_maps, sizeof(m)))
		return perr(p, "out of memory");
	t->maps[t->nr_maps++] = m;
	return 0;
}

/* more PID N mappings not listed */
static int parse_more(struct pstate *p, char *s)
{
	uint32_t pid;
	uint64_t n;

	if (!num32(word(&s), &pid) || !p->cur || p->cur->pid != pid ||
	    !num(word(&s), false, UINT32_MAX, &n) || !s ||
	    strcmp(s, "mappings not listed"))
		return perr(p, "want 'more PID N mappings not listed' after PID's maps");
	p->cur->more = n;
	p->cur = NULL;
	return 0;
}

/* itrace: N records lost (not read in time) / skipped (overwritten ...) */
static int parse_note(struct pstate *p, char *s)
{
	uint64_t n;
	char *w = word(&s);

	if (!num(w, false, UINT64_MAX, &n) || !s ||
	    (strcmp(s, "records lost (not read in time)") &&
	     strcmp(s, "record lost (not read in time)") &&
	     strcmp(s, "records skipped (overwritten while read)") &&
	     strcmp(s, "record skipped (overwritten while read)")))
		return perr(p, "an 'itrace:' line the capture format does not have");
	p->c->lost += n;
	return 0;
}

/* end records N lost N */
static int parse_end(struct pstate *p, char *s)
{
	struct capture *c = p->c;
	char *w;

	w = word(&s);
	if (!w || strcmp(w, "records") ||
	    !num(word(&s), false, UINT64_MAX, &c->end_recs) ||
	    !(w = word(&s)) || strcmp(w, "lost") ||
	    !num(word(&s), false, UINT64_MAX, &c->end_lost) || s)
		return perr(p, "want 'end records N lost N'");
	if (c->end_recs != c->nr_recs || c->end_lost != c->lost)
		return perr(p, "the end line counts %llu records and %llu lost, the file holds %zu and %zu",
			    (unsigned long long)c->end_recs,
			    (unsigned long long)c->end_lost, c->nr_recs, c->lost);
	c->ended = true;
	return 0;
}

static int parse_line(struct pstate *p, char *s)
{
	if (!strncmp(s, "task ", 5))
		return parse_task(p, s + 5);
	if (!strncmp(s, "map ", 4))
		return parse_map(p, s + 4);
	if (!strncmp(s, "more ", 5))
		return parse_more(p, s + 5);
	if (!strncmp(s, "itrace: ", 8))
		return parse_note(p, s + 8);
	if (!strncmp(s, "end ", 4))
		return parse_end(p, s + 4);
	return perr(p, "not a line of an itrace capture: '%.40s'", s);
}

static int take_cmp(const void *a, const void *b)
{
	const struct take *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->line < y->line ? -1 : 1;
}

/*
 * Parse the @len bytes of @text (modified in place, which must stay
 * until capture_free; text[len] must be writable). 0, or -1 with the
 * message in @err.
 */
int capture_parse(struct capture *c, char *text, size_t len, char *err,
		  size_t errlen)
{
	struct pstate p = { .c = c, .err = err, .errlen = errlen };
	char *s = text, *end = text + len, *nl;

	c->text = text;
	c->len = len;
	text[len] = '\0';
	while (s < end) {
		p.line++;
		nl = memchr(s, '\n', end - s);
		if (!nl && p.line == 1)
			nl = end;	/* the header's check names a foreign file */
		else if (!nl)
			return perr(&p, "the last line has no newline (truncated capture?)");
		if (p.line > 1 && c->ended)
			return perr(&p, "text after the end line");
		if (p.line > 1 && c->version >= 3 && !strncmp(s, "records ", 8)) {
			const char *next = NULL;

			if (parse_block(&p, s, nl, end, &next))
				return -1;
			s = (char *)next;
			continue;
		}
		if (p.line > 1 && *s >= '0' && *s <= '9') {
			/* a NUL in it is a character no field takes */
			if (parse_record(&p, s, nl))
				return -1;
		} else {
			if (memchr(s, '\0', nl - s))
				return perr(&p, p.line == 1 ?
					    "not an itrace capture (no '" CAPTURE_MAGIC "' line)" :
					    "a NUL byte");
			*nl = '\0';
			if (p.line == 1 ? parse_header(&p, s) : parse_line(&p, s))
				return -1;
		}
		s = nl + 1;
	}
	if (!p.line) {
		p.line = 1;
		return perr(&p, "empty file, not an itrace capture");
	}
	if (!c->ended) {
		p.line++;
		return perr(&p, "no end line (truncated capture?)");
	}
	/* qsort's array may not be NULL, even for no element (C11 7.22.5) */
	if (c->nr_takes)
		qsort(c->takes, c->nr_takes, sizeof(*c->takes), take_cmp);
	c->last.valid = false;
	return 0;
}

void capture_free(struct capture *c)
{
	size_t i;

	for (i = 0; i < c->nr_takes; i++) {
		free(c->takes[i].maps);
		free(c->takes[i].comm_col);
	}
	free(c->takes);
	free(c->recs);
	c->takes = NULL;
	c->recs = NULL;
	c->nr_takes = 0;
	c->nr_recs = 0;
}

/*
 * The take whose mappings a record of @pid with @seq was logged under:
 * the last one of @pid taken before @seq (or the first, for a record
 * older than every take), NULL if @pid has none.
 */
struct take *capture_take(const struct capture *c, uint32_t pid,
			  uint64_t seq)
{
	size_t lo = 0, hi = c->nr_takes, mid;
	struct take *best = NULL;

	while (lo < hi) {	/* the first take of pid */
		mid = lo + (hi - lo) / 2;
		if (c->takes[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < c->nr_takes && c->takes[lo].pid == pid; lo++) {
		if (best && c->takes[lo].seq >= seq)
			break;
		best = &c->takes[lo];
	}
	return best;
}

/*
 * capture_take() for the records in order: the last answer holds for
 * the next record of the same pid while its seq stays at or below the
 * next take's (one comparison per record, not a search).
 */
struct take *capture_rec_take(struct capture *c, const struct rec *r)
{
	struct take *t;

	if (c->last.valid && c->last.pid == r->pid && r->seq > c->last.from &&
	    r->seq <= c->last.until)
		return c->last.take;
	t = capture_take(c, r->pid, r->seq);
	c->last.valid = true;
	c->last.take = t;
	c->last.pid = r->pid;
	c->last.from = 0;
	c->last.until = UINT64_MAX;
	if (t) {
		if (t > c->takes && t[-1].pid == t->pid)
			c->last.from = t->seq;
		if (t + 1 < c->takes + c->nr_takes && t[1].pid == t->pid)
			c->last.until = t[1].seq;
	}
	return t;
}
