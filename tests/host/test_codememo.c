// SPDX-License-Identifier: GPL-2.0
/*
 * The code memo (kdb-itrace/lib/codememo.h): what the trap path notes,
 * the console finds, byte for byte, in memory order; an address never
 * noted, another address in the same entry, a forgotten memo or an
 * entry being written (its count odd) give nothing; a note that changes
 * nothing writes nothing; changed bytes at the same address replace
 * the old ones.
 */
#include <string.h>
#include "lib/codememo.h"
#include "check.h"

static struct itrace_code_memo m;

static struct itrace_code_ent *ent(u64 ip)
{
	return &m.e[itrace_code_idx(ip)];
}

int main(void)
{
	static const u8 want[16] = { 0xe8, 0x5b, 0xff, 0xff, 0xff };
	u64 ip = 0x401625, other, w[2];
	u8 b[ITRACE_CODE_MAX];
	u32 seq;

	memcpy(w, want, sizeof(w));
	CHECK("empty: nothing", itrace_code_find(&m, ip, b) == 0);
	itrace_code_note(&m, ip, w[0], w[1], 5);
	CHECK("noted: its 5 bytes", itrace_code_find(&m, ip, b) == 5 &&
	      !memcmp(b, want, 5));
	CHECK("address 0: nothing", itrace_code_find(&m, 0, b) == 0);
	CHECK("another address: nothing",
	      itrace_code_find(&m, ip + 1, b) == 0);
	seq = ent(ip)->seq;
	itrace_code_note(&m, ip, w[0], w[1], 5);
	CHECK("the same note again: nothing written", ent(ip)->seq == seq);
	/* another address in the same entry evicts it */
	for (other = ip + 1; ent(other) != ent(ip); other++)
		;
	itrace_code_note(&m, other, 0x90, 0, 1);
	CHECK("evicted: nothing for the old address",
	      itrace_code_find(&m, ip, b) == 0);
	CHECK("the new one: 1 byte 90",
	      itrace_code_find(&m, other, b) == 1 && b[0] == 0x90);
	/* a fill half-way (count odd): nothing */
	ent(other)->seq++;
	CHECK("being written: nothing", itrace_code_find(&m, other, b) == 0);
	ent(other)->seq++;
	CHECK("written: found again", itrace_code_find(&m, other, b) == 1);
	/* changed bytes at the address (code rewritten) replace them */
	itrace_code_note(&m, other, 0xcc, 0, 1);
	CHECK("rewritten: the new byte",
	      itrace_code_find(&m, other, b) == 1 && b[0] == 0xcc);
	itrace_code_note(&m, ip, 1, 2, 0);
	CHECK("length 0: not noted", itrace_code_find(&m, ip, b) == 0);
	itrace_code_note(&m, ip, 1, 2, 17);
	CHECK("length 17: not noted", itrace_code_find(&m, ip, b) == 0);
	itrace_code_note(&m, ip, w[0], w[1], 15);
	itrace_code_forget(&m);
	CHECK("forgotten: nothing", itrace_code_find(&m, ip, b) == 0 &&
	      itrace_code_find(&m, other, b) == 0);
	return check_failed ? 1 : 0;
}
