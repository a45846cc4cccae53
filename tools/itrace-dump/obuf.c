// SPDX-License-Identifier: GPL-2.0
/*
 * A buffered writer with its own number formatting: the outputs write
 * millions of lines, and stdio's printf per field would be most of the
 * time. A write error is kept and reported once, at ob_close().
 */
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define OB_CAP	(1 << 20)

void ob_init(struct obuf *b, FILE *f)
{
	b->f = f;
	b->len = 0;
	b->cap = OB_CAP;
	b->buf = malloc(OB_CAP);
	b->failed = !b->buf;
}

void ob_flush(struct obuf *b)
{
	if (b->len && !b->failed && fwrite(b->buf, 1, b->len, b->f) != b->len)
		b->failed = true;
	b->len = 0;
}

/* 0, or -1 when anything could not be written */
int ob_close(struct obuf *b)
{
	ob_flush(b);
	if (fflush(b->f))
		b->failed = true;
	free(b->buf);
	b->buf = NULL;
	return b->failed ? -1 : 0;
}

static char *room(struct obuf *b, size_t n)
{
	if (b->failed)
		return NULL;
	if (b->len + n > b->cap)
		ob_flush(b);
	if (n > b->cap || b->failed)
		return NULL;
	return b->buf + b->len;
}

void ob_mem(struct obuf *b, const char *s, size_t n)
{
	char *p;

	if (b->len + n <= b->cap) {	/* the common case, first */
		memcpy(b->buf + b->len, s, n);
		b->len += n;
		return;
	}
	if (n > OB_CAP / 2) {
		ob_flush(b);
		if (!b->failed && fwrite(s, 1, n, b->f) != n)
			b->failed = true;
		return;
	}
	p = room(b, n);
	if (!p)
		return;
	memcpy(p, s, n);
	b->len += n;
}

void ob_str(struct obuf *b, const char *s)
{
	ob_mem(b, s, strlen(s));
}

void ob_ch(struct obuf *b, char c)
{
	char *p = room(b, 1);

	if (p) {
		*p = c;
		b->len++;
	}
}

/* @s right-aligned in @width columns (negative: left-aligned) */
void ob_pad(struct obuf *b, const char *s, int width)
{
	size_t n = strlen(s), w = width < 0 ? -width : width;

	if (width > 0)
		while (n < w--)
			ob_ch(b, ' ');
	ob_mem(b, s, n);
	if (width < 0)
		while (n < w--)
			ob_ch(b, ' ');
}

static void digits(struct obuf *b, uint64_t v, bool hex, int width,
		   char fill)
{
	char t[24], *p;
	int n = 0;

	if (hex) {
		do {
			t[sizeof(t) - 1 - n++] = "0123456789abcdef"[v & 15];
			v >>= 4;
		} while (v);
	} else {
		do {
			t[sizeof(t) - 1 - n++] = '0' + v % 10;
			v /= 10;
		} while (v);
	}
	while (n < width && n < (int)sizeof(t))
		t[sizeof(t) - 1 - n++] = fill;
	p = room(b, n);
	if (!p)
		return;
	memcpy(p, t + sizeof(t) - n, n);
	b->len += n;
}

/* decimal, right-aligned in @width (0: none; negative: zero-filled) */
void ob_u64(struct obuf *b, uint64_t v, int width)
{
	if (width < 0)
		digits(b, v, false, -width, '0');
	else
		digits(b, v, false, width, ' ');
}

/* lower-case hex without 0x, right-aligned in @width */
void ob_hex(struct obuf *b, uint64_t v, int width)
{
	digits(b, v, true, width, ' ');
}

/* @s as a JSON string, quotes included */
void ob_json_str(struct obuf *b, const char *s)
{
	ob_ch(b, '"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\') {
			ob_ch(b, '\\');
			ob_ch(b, c);
		} else if (c < 0x20 || c >= 0x7f) {
			/* a byte, not a character: valid JSON whatever it is */
			ob_str(b, "\\u00");
			ob_ch(b, "0123456789abcdef"[c >> 4]);
			ob_ch(b, "0123456789abcdef"[c & 15]);
		} else {
			ob_ch(b, c);
		}
	}
	ob_ch(b, '"');
}
