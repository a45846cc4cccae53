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

/*
 * Every sink gets printable ASCII and newlines only: any other byte of
 * the text shows as '?'. A backstop for the operator's terminal (an
 * escape sequence never reaches it); a name still goes through
 * itrace_name() first, since a newline in one would forge a line.
 */
__printf(2, 3)
void itrace_out_printf(struct itrace_out *o, const char *fmt, ...);

/* Printable ASCII, as the console shows it: ' ' to '~' (any char). */
static inline bool itrace_printable(int c)
{
	return c >= ' ' && c <= '~';
}

/*
 * Names come from users and files: a task's comm (prctl(PR_SET_NAME)
 * takes any bytes but NUL), a file's name, a symbol's. Printed as they
 * are, a newline in one would split a line or forge one, and an escape
 * sequence would drive the operator's terminal. Every printer of a name
 * copies it through itrace_name() first, in one of two forms:
 *
 *   ITRACE_NAME_QMARK  every byte outside printable ASCII as '?': what
 *                      the console shows (status, syms, log, trigger
 *                      places, messages); as long as the name, and @out
 *                      may be @s itself
 *   ITRACE_NAME_OCTAL  every such byte, and '\', as '\' and three octal
 *                      digits ("\012" a newline, "\033" ESC, "\134" a
 *                      backslash): the maps file, whose reader can undo
 *                      it (docs/CAPTURE.md)
 *
 * At most @max bytes of @s, up to its NUL, go into @out, NUL-terminated
 * within its @size bytes (size >= 1; ITRACE_NAME_ROOM(max) holds any
 * name whole); a byte or escape that does not fit is left out with all
 * after it. Pure: any context. Returns @out.
 */
enum itrace_name_form {
	ITRACE_NAME_QMARK,
	ITRACE_NAME_OCTAL,
};

#define ITRACE_NAME_ROOM(max)	(4 * (max) + 1)

char *itrace_name(char *out, size_t size, const char *s, size_t max,
		  enum itrace_name_form form);

/* A task's comm (TASK_COMM_LEN, NUL included) as the console shows it. */
#define ITRACE_COMM_SHOWN	16

static inline char *itrace_comm(char out[ITRACE_COMM_SHOWN], const char *comm)
{
	return itrace_name(out, ITRACE_COMM_SHOWN, comm, ITRACE_COMM_SHOWN - 1,
			   ITRACE_NAME_QMARK);
}

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
