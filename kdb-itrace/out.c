// SPDX-License-Identifier: GPL-2.0
/*
 * Output sinks (see out.h): the printf front end every sink shares and
 * the fixed-buffer sink of the debugfs control file.
 */
#include "out.h"

void itrace_out_printf(struct itrace_out *o, const char *fmt, ...)
{
	char piece[ITRACE_OUT_PIECE];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(piece, sizeof(piece), fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if ((size_t)n >= sizeof(piece))
		n = sizeof(piece) - 1;
	o->write(o, piece, (size_t)n);
}

static void outbuf_write(struct itrace_out *o, const char *s, size_t len)
{
	struct itrace_outbuf *b = container_of(o, struct itrace_outbuf, out);
	/* room for the text, kept apart from the truncation line */
	size_t room = b->size - sizeof(ITRACE_OUTBUF_CUT) - b->len;

	if (b->cut)
		return;
	if (len >= room) {
		/* back to the end of the last complete line */
		while (b->len && b->buf[b->len - 1] != '\n')
			b->len--;
		b->buf[b->len] = '\0';
		b->cut = true;
		return;
	}
	memcpy(b->buf + b->len, s, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void itrace_outbuf_init(struct itrace_outbuf *b, char *buf, size_t size)
{
	b->out.write = outbuf_write;
	b->buf = buf;
	b->size = size;
	itrace_outbuf_reset(b);
}

void itrace_outbuf_reset(struct itrace_outbuf *b)
{
	b->len = 0;
	b->cut = false;
	b->buf[0] = '\0';
}

void itrace_outbuf_finish(struct itrace_outbuf *b)
{
	if (!b->cut)
		return;
	memcpy(b->buf + b->len, ITRACE_OUTBUF_CUT, sizeof(ITRACE_OUTBUF_CUT));
	b->len += sizeof(ITRACE_OUTBUF_CUT) - 1;
}
