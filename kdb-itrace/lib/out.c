// SPDX-License-Identifier: GPL-2.0
/*
 * Output sinks (see out.h): the printf front end every sink shares, the
 * fixed-buffer sink of the debugfs control file, and the one copy of a
 * name every printer of one goes through.
 */
#include "out.h"

void itrace_out_printf(struct itrace_out *o, const char *fmt, ...)
{
	char piece[ITRACE_OUT_PIECE];
	va_list ap;
	int n, i;

	va_start(ap, fmt);
	n = vsnprintf(piece, sizeof(piece), fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if ((size_t)n >= sizeof(piece))
		n = sizeof(piece) - 1;
	for (i = 0; i < n; i++)
		if (!itrace_printable(piece[i]) && piece[i] != '\n')
			piece[i] = '?';
	o->write(o, piece, (size_t)n);
}

char *itrace_name(char *out, size_t size, const char *s, size_t max,
		  enum itrace_name_form form)
{
	size_t i, w = 0;

	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = s[i];

		if (form == ITRACE_NAME_QMARK || (itrace_printable(c) &&
						  c != '\\')) {
			if (w + 1 >= size)
				break;
			out[w++] = itrace_printable(c) ? c : '?';
			continue;
		}
		if (w + 4 >= size)
			break;
		out[w++] = '\\';
		out[w++] = '0' + (c >> 6);
		out[w++] = '0' + (c >> 3 & 7);
		out[w++] = '0' + (c & 7);
	}
	out[w] = '\0';
	return out;
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
