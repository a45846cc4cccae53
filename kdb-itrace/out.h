/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where command output goes. One executor (command.c) prints through a
 * sink; the kdb glue provides one that calls kdb_printf(), the debugfs
 * glue a fixed buffer per open file (below). Pure C, shared with host
 * tests.
 */
#ifndef _ITRACE_OUT_H
#define _ITRACE_OUT_H

#include "compat.h"

struct itrace_out {
	/* @s holds @len bytes of text, NUL-terminated, no NUL inside */
	void (*write)(struct itrace_out *o, const char *s, size_t len);
};

/*
 * Longest text one itrace_out_printf() call produces, with the NUL: the
 * size of kdb_printf()'s own buffer, so kdb output is cut where it was.
 */
#define ITRACE_OUT_PIECE	256

__printf(2, 3)
void itrace_out_printf(struct itrace_out *o, const char *fmt, ...);

/*
 * A fixed buffer. Output that does not fit is dropped from the last
 * line that did not fit completely, and itrace_outbuf_finish() then ends
 * the text with ITRACE_OUTBUF_CUT: a reader never sees half a line.
 */
struct itrace_outbuf {
	struct itrace_out out;
	char *buf;
	size_t size;		/* bytes at buf, >= ITRACE_OUTBUF_MIN */
	size_t len;		/* text in buf, without the NUL */
	bool cut;		/* something was dropped */
};

#define ITRACE_OUTBUF_CUT	"itrace: output truncated (the debugfs log file has every record)\n"
#define ITRACE_OUTBUF_MIN	(sizeof(ITRACE_OUTBUF_CUT) + 1)

void itrace_outbuf_init(struct itrace_outbuf *b, char *buf, size_t size);
/* Empty it for the next command's output. */
void itrace_outbuf_reset(struct itrace_outbuf *b);
/* Add the truncation line if needed; the text is then final. */
void itrace_outbuf_finish(struct itrace_outbuf *b);

#endif /* _ITRACE_OUT_H */
