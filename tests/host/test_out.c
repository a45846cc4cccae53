// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the output sinks: printf pieces cut where kdb_printf
 * cuts them, and the fixed buffer of the debugfs control file, which
 * drops whole lines when full and then says so on a last line; the
 * names every printer copies through itrace_name(): '?' for the console,
 * octal escapes for the maps file, undone exactly, never a control byte.
 */
#include <stdlib.h>
#include "check.h"
#include "lib/out.h"

/* A sink that records every write, to see the pieces themselves. */
struct rec_out {
	struct itrace_out out;
	char last[512];
	size_t last_len;
	int writes;
};

static void rec_write(struct itrace_out *o, const char *s, size_t len)
{
	struct rec_out *r = container_of(o, struct rec_out, out);

	memcpy(r->last, s, len + 1);
	r->last_len = len;
	r->writes++;
}

static void test_printf(void)
{
	struct rec_out r = { .out.write = rec_write };
	char big[400];

	itrace_out_printf(&r.out, "pid %d (%s)\n", 42, "tp_loop");
	CHECK_STR("out printf formats", r.last, "pid 42 (tp_loop)\n");
	CHECK("out printf length", r.last_len == 17 && r.writes == 1);
	itrace_out_printf(&r.out, "%s", "");
	CHECK("out printf empty writes nothing", r.writes == 1);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	itrace_out_printf(&r.out, "%s", big);
	CHECK("out printf cuts at 255 like kdb_printf",
	      r.last_len == ITRACE_OUT_PIECE - 1 &&
	      strlen(r.last) == ITRACE_OUT_PIECE - 1);
}

static void test_outbuf(void)
{
	/* room for the cut line plus 20 bytes of text */
	static char buf[sizeof(ITRACE_OUTBUF_CUT) + 21];
	struct itrace_outbuf b;
	char want[200];

	itrace_outbuf_init(&b, buf, sizeof(buf));
	CHECK_STR("outbuf starts empty", b.buf, "");
	itrace_out_printf(&b.out, "one ");
	itrace_out_printf(&b.out, "two\n");
	itrace_outbuf_finish(&b);
	CHECK_STR("outbuf joins pieces", b.buf, "one two\n");
	CHECK("outbuf len", b.len == 8 && !b.cut);

	itrace_outbuf_reset(&b);
	CHECK_STR("outbuf reset", b.buf, "");
	itrace_out_printf(&b.out, "line 1\n");
	itrace_out_printf(&b.out, "line 2\n");
	itrace_out_printf(&b.out, "line ");
	itrace_out_printf(&b.out, "3 is too long\n");
	itrace_out_printf(&b.out, "4\n");
	itrace_outbuf_finish(&b);
	snprintf(want, sizeof(want), "line 1\nline 2\n%s", ITRACE_OUTBUF_CUT);
	CHECK_STR("outbuf drops the partial line, then says so", b.buf, want);
	CHECK("outbuf len matches text", b.len == strlen(want) && b.cut);
	CHECK("outbuf never overflows", b.len < sizeof(buf));

	/* a first line that does not fit at all */
	itrace_outbuf_reset(&b);
	itrace_out_printf(&b.out, "%s\n", "012345678901234567890123456789");
	itrace_outbuf_finish(&b);
	CHECK_STR("outbuf with no whole line", b.buf, ITRACE_OUTBUF_CUT);

	/* exactly full is not cut */
	itrace_outbuf_reset(&b);
	itrace_out_printf(&b.out, "%s\n", "0123456789012345678");
	itrace_outbuf_finish(&b);
	CHECK("outbuf holds 20 bytes uncut", !b.cut && b.len == 20);
}

/* Only printable ASCII in @s (newlines too when @nl). */
static int all_printable(const char *s, int nl)
{
	for (; *s; s++)
		if (!(*s >= ' ' && *s <= '~') && !(nl && *s == '\n'))
			return 0;
	return 1;
}

/* What a reader of the maps file does (docs/CAPTURE.md): \ooo back. */
static size_t unescape(char *out, const char *s)
{
	size_t w = 0;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			out[w++] = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
					  (s[3] - '0'));
			s += 4;
		} else {
			out[w++] = *s++;
		}
	}
	out[w] = '\0';
	return w;
}

static void test_name(void)
{
	static const char forged[] = "tp\nx\033[31m";
	char out[ITRACE_NAME_ROOM(300)], back[300], in[300];
	int i, bad;

	CHECK_STR("name: '?' for a newline and ESC",
		  itrace_name(out, sizeof(out), forged, 64, ITRACE_NAME_QMARK),
		  "tp?x?[31m");
	CHECK_STR("name: '?' for DEL, tab, CR and bytes above 0x7e",
		  itrace_name(out, sizeof(out), "a\177b\tc\rd\303\251e\377", 64,
			      ITRACE_NAME_QMARK), "a?b?c?d??e?");
	CHECK_STR("name: printable ASCII as it is, backslash and blank included",
		  itrace_name(out, sizeof(out), "lib c\\x~!", 64,
			      ITRACE_NAME_QMARK), "lib c\\x~!");
	CHECK_STR("name: at most max bytes",
		  itrace_name(out, sizeof(out), "0123456789abcdefXYZ", 15,
			      ITRACE_NAME_QMARK), "0123456789abcde");
	CHECK_STR("name: cut to its buffer",
		  itrace_name(out, 4, "abcdef", 64, ITRACE_NAME_QMARK), "abc");
	CHECK_STR("name: size 1 is the NUL only",
		  itrace_name(out, 1, "abcdef", 64, ITRACE_NAME_QMARK), "");
	strcpy(in, forged);
	itrace_name(in, sizeof(in), in, sizeof(in) - 1, ITRACE_NAME_QMARK);
	CHECK_STR("name: '?' in place", in, "tp?x?[31m");
	{
		char comm[ITRACE_COMM_SHOWN], task[16] = "tp\nx\033[31m45678";

		task[15] = '\0';
		CHECK_STR("name: a comm, 15 bytes at most",
			  itrace_comm(comm, task), "tp?x?[31m45678");
	}

	CHECK_STR("name: octal for a newline and ESC",
		  itrace_name(out, sizeof(out), forged, 64, ITRACE_NAME_OCTAL),
		  "tp\\012x\\033[31m");
	CHECK_STR("name: octal for the backslash itself, blanks kept",
		  itrace_name(out, sizeof(out), "/tmp/a b\\012 (deleted)", 64,
			      ITRACE_NAME_OCTAL),
		  "/tmp/a b\\134012 (deleted)");
	CHECK_STR("name: octal for DEL and bytes above 0x7e",
		  itrace_name(out, sizeof(out), "\177\200\303\251\377", 64,
			      ITRACE_NAME_OCTAL), "\\177\\200\\303\\251\\377");
	CHECK_STR("name: an escape that does not fit whole is left out",
		  itrace_name(out, 6, "ab\ncd", 64, ITRACE_NAME_OCTAL), "ab");
	CHECK_STR("name: an escape that just fits",
		  itrace_name(out, 7, "ab\ncd", 64, ITRACE_NAME_OCTAL),
		  "ab\\012");
	CHECK_STR("name: octal, at most max bytes of the name",
		  itrace_name(out, sizeof(out), "a\nbc", 2, ITRACE_NAME_OCTAL),
		  "a\\012");

	/* every byte, alone and all together */
	bad = 0;
	for (i = 1; i < 256; i++) {
		char one[2] = { (char)i, '\0' };

		itrace_name(out, sizeof(out), one, 1, ITRACE_NAME_QMARK);
		bad += strlen(out) != 1 || !all_printable(out, 0) ||
		       (i >= ' ' && i <= '~' && out[0] != i);
		itrace_name(out, sizeof(out), one, 1, ITRACE_NAME_OCTAL);
		bad += !all_printable(out, 0) || unescape(back, out) != 1 ||
		       back[0] != (char)i;
	}
	CHECK("name: each byte 1..255 prints printable, octal undone exactly",
	      !bad);
	for (i = 0; i < 255; i++)
		in[i] = (char)(255 - i);
	in[255] = '\0';
	itrace_name(out, sizeof(out), in, 255, ITRACE_NAME_OCTAL);
	CHECK("name: bytes 255..1 in one name: printable, no newline, undone exactly",
	      all_printable(out, 0) && unescape(back, out) == 255 &&
	      !memcmp(back, in, 256));
	CHECK("name: ITRACE_NAME_ROOM holds the worst case",
	      strlen(out) == 4 * 255 - 3 * 94 &&
	      strlen(out) < ITRACE_NAME_ROOM(255));
}

/* The sink's backstop: nothing but printable ASCII and newlines. */
static void test_printf_clean(void)
{
	struct rec_out r = { .out.write = rec_write };

	itrace_out_printf(&r.out, "itrace: syms %s: 1 function\n",
			  "a\033[31m\tb\177\303\251");
	CHECK_STR("out printf: control bytes and bytes above 0x7e as '?'",
		  r.last, "itrace: syms a?[31m?b???: 1 function\n");
	CHECK("out printf: every byte printable or a newline",
	      all_printable(r.last, 1) && r.last_len == strlen(r.last));
}

int main(void)
{
	test_printf();
	test_printf_clean();
	test_outbuf();
	test_name();
	return check_failed ? 1 : 0;
}
