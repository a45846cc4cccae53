// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the output sinks: printf pieces cut where kdb_printf
 * cuts them, and the fixed buffer of the debugfs control file, which
 * drops whole lines when full and then says so on a last line.
 */
#include <stdlib.h>
#include "check.h"
#include "../../kdb-itrace/out.h"

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

int main(void)
{
	test_printf();
	test_outbuf();
	return check_failed ? 1 : 0;
}
