/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The binary record: what debugfs's `records` file streams (the host's
 * byte order) and what a capture's `records N` block holds (little
 * endian: docs/CAPTURE.md). One record is 64 bytes, no padding, and
 * the layout is fixed: a reader of another build reads it the same.
 * The module writes it, itrace-dump reads it; nothing else here.
 *
 * The stream opens with one ITRACE_WIRE_HELLO record (val[0] the
 * version, val[1] the record size), so that a reader of another version
 * stops at once instead of misreading; records the stream could not
 * deliver come as one ITRACE_WIRE_LOST record (val[0] their number)
 * where they would have been.
 */
#ifndef _ITRACE_WIRE_H
#define _ITRACE_WIRE_H

#include "compat.h"

#define ITRACE_WIRE_VERSION	1
#define ITRACE_WIRE_VALS	3

/* kinds of their own, above every enum itrace_kind */
#define ITRACE_WIRE_HELLO	0xfe
#define ITRACE_WIRE_LOST	0xff

struct itrace_wire {
	u64 seq;
	u64 from;
	u64 to;
	u64 ns;
	u64 val[ITRACE_WIRE_VALS];
	u32 pid;
	u16 cpu;
	u8 kind;	/* enum itrace_kind, or ITRACE_WIRE_HELLO / _LOST */
	u8 nval;	/* val[0..nval) hold values */
};

#define ITRACE_WIRE_SIZE	64

#endif /* _ITRACE_WIRE_H */
