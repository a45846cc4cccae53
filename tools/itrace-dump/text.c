// SPDX-License-Identifier: GPL-2.0
/*
 * `itrace-dump text`: a capture with its binary record blocks (version
 * 3) written out as record lines, the raw format of `itrace log -r`:
 * a version 2 capture, for grep, awk and diff. Every other line is
 * copied as it is, in its place. The capture is read whole first
 * (capfile.c), so a bad one gets the reader's one line and no output.
 * In the capture-only build too: the traced machine can check its own
 * captures. Lines are made by kdb-itrace's own formatter (lib/format.c),
 * the one behind the module's log and stream files.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "lib/format.h"
#include "lib/wire.h"

static void usage(FILE *f)
{
	fputs("usage: itrace-dump text [-o FILE] CAPTURE\n"
	      "  the capture with its records as lines (capture version 2)\n", f);
}

static int records_text(const char *s, const char *end, FILE *out)
{
	char line[ITRACE_LINE_MAX];
	struct itrace_rec ir = { 0 };
	struct rec r;
	unsigned int i;

	for (; s + ITRACE_WIRE_SIZE <= end; s += ITRACE_WIRE_SIZE) {
		capture_wire_rec((const unsigned char *)s, &r);
		ir.seq = r.seq;
		ir.from = r.from;
		ir.to = r.to;
		ir.ns = r.ns;
		for (i = 0; i < REC_VALS; i++)
			ir.val[i] = r.val[i];
		ir.pid = r.pid;
		ir.kind = r.kind;
		ir.nval = r.nval;
		itrace_format_raw(line, sizeof(line), &ir, r.cpu);
		if (fputs(line, out) == EOF)
			return -1;
	}
	return 0;
}

/* @text (@len bytes), a capture capture_parse() took, written as text */
static int convert(const char *text, size_t len, FILE *out)
{
	const char *s = text, *end = text + len, *nl;
	unsigned long long n;
	bool first = true;

	for (; s < end; s = nl + 1) {
		nl = memchr(s, '\n', end - s);
		if (first && !strncmp(s, CAPTURE_MAGIC " ", strlen(CAPTURE_MAGIC) + 1)) {
			fprintf(out, "%s2%.*s\n", CAPTURE_PREFIX,
				(int)(nl - s - strlen(CAPTURE_MAGIC)),
				s + strlen(CAPTURE_MAGIC));
		} else if (!first && !strncmp(s, "records ", 8) &&
			   sscanf(s, "records %llu\n", &n) == 1) {
			if (records_text(nl + 1, nl + 1 + n * ITRACE_WIRE_SIZE, out))
				return -1;
			nl += n * ITRACE_WIRE_SIZE;
		} else if (fwrite(s, 1, nl + 1 - s, out) != (size_t)(nl + 1 - s)) {
			return -1;
		}
		first = false;
	}
	return 0;
}

int text_main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	struct capture c = { 0 };
	char *text;
	FILE *f = stdout;
	size_t len;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		if (ch == 'o') {
			out = optarg;
		} else if (ch == 'h') {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	/* the reader splits its text in place: it parses a copy */
	if (capture_load(argv[optind], &c, &text, &len))
		return 1;
	if (out && !(f = fopen(out, "w"))) {
		fprintf(stderr, "itrace-dump: %s: %s\n", out, strerror(errno));
		return 1;
	}
	rc = convert(text, len, f);
	if (fflush(f) || rc) {
		fprintf(stderr, "itrace-dump: %s: %s\n", out ? out : "standard output",
			strerror(errno));
		rc = -1;
	}
	if (out && fclose(f))
		rc = -1;
	free(c.text);
	capture_free(&c);
	return rc ? 1 : 0;
}
