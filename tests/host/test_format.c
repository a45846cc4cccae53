// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of record formatting: the stable raw line, the symbolized
 * line with mapping+offset, kind names, and addresses outside any
 * mapping.
 */
#include "check.h"
#include "../../kdb-itrace/format.h"
#include "../../kdb-itrace/kind.h"

int main(void)
{
	struct itrace_symmap m = {
		.nr = 2,
		.map = {
			{ 0x401000, 0x47a000, 0x1000, "tp_loop" },
			{ 0x7ffd1000, 0x7ffd3000, 0, "[vdso]" },
		},
	};
	struct itrace_rec r = {
		.seq = 42, .from = 0x4016b8, .to = 0x401625, .pid = 97,
		.kind = ITRACE_K_CALL,
	};
	char buf[ITRACE_LINE_MAX];
	unsigned int k;

	itrace_format_raw(buf, sizeof(buf), &r, 1);
	CHECK_STR("format raw", buf, "42 1 97 call 0x4016b8 0x401625\n");

	itrace_format_addr(buf, sizeof(buf), &m, 0x4016b8);
	CHECK_STR("format addr in first mapping", buf, "tp_loop+0x16b8");
	itrace_format_addr(buf, sizeof(buf), &m, 0x401000);
	CHECK_STR("format addr at mapping start", buf, "tp_loop+0x1000");
	itrace_format_addr(buf, sizeof(buf), &m, 0x47a000);
	CHECK_STR("format addr at mapping end is outside", buf, "0x47a000");
	itrace_format_addr(buf, sizeof(buf), &m, 0x7ffd1234);
	CHECK_STR("format addr in vdso", buf, "[vdso]+0x234");
	itrace_format_addr(buf, sizeof(buf), NULL, 0x10);
	CHECK_STR("format addr without map", buf, "0x10");
	{
		/* file names may hold any byte but '/' */
		struct itrace_symmap odd = {
			.nr = 1,
			.map = { { 0x1000, 0x2000, 0, "a\nb\x1b[2J\xc3\xa9" } },
		};

		itrace_format_addr(buf, sizeof(buf), &odd, 0x1010);
		CHECK_STR("format addr name control bytes as '?'", buf,
			  "a?b?[2J\?\?+0x10");
		memset(odd.map[0].name, 'y', ITRACE_MAP_NAME);
		itrace_format_addr(buf, sizeof(buf), &odd, 0x1010);
		CHECK_STR("format addr name without NUL", buf,
			  "yyyyyyyyyyyyyyyyyyyyyyyy+0x10");
	}

	itrace_format_sym(buf, sizeof(buf), &r, 1, &m);
	CHECK_STR("format sym line", buf,
		  "        42   1      97 call    tp_loop+0x16b8                 tp_loop+0x1625\n");
	itrace_format_sym_header(buf, sizeof(buf));
	CHECK_STR("format sym header", buf,
		  "       seq cpu     pid kind    from                           to\n");

	for (k = 0; k < ITRACE_K_NR; k++)
		CHECK("every kind has a name",
		      strcmp(itrace_kind_name(k), "?") != 0);
	CHECK_STR("unknown kind", itrace_kind_name(ITRACE_K_NR), "?");
	CHECK("transfer kinds", !itrace_kind_is_transfer(ITRACE_K_INSN) &&
	      !itrace_kind_is_transfer(ITRACE_K_JCC_NT) &&
	      itrace_kind_is_transfer(ITRACE_K_JCC) &&
	      itrace_kind_is_transfer(ITRACE_K_RET) &&
	      itrace_kind_is_transfer(ITRACE_K_SYSCALL) &&
	      itrace_kind_is_transfer(ITRACE_K_ASYNC));

	/* worst case fits ITRACE_LINE_MAX */
	{
		struct itrace_symmap big = { .nr = 1 };
		struct itrace_rec w = {
			.seq = ~0ULL, .from = ~0ULL - 1, .to = ~0ULL - 1,
			.pid = ~0U, .kind = ITRACE_K_SYSCALL,
		};
		int n;

		big.map[0].start = 0;
		big.map[0].end = ~0ULL;
		big.map[0].pgoff = 0;
		memset(big.map[0].name, 'x', ITRACE_MAP_NAME);
		n = itrace_format_sym(buf, sizeof(buf), &w, 65535, &big);
		CHECK("format sym worst case fits", n < ITRACE_LINE_MAX);
		n = itrace_format_raw(buf, sizeof(buf), &w, 65535);
		CHECK("format raw worst case fits", n < ITRACE_LINE_MAX);
	}
	return check_failed ? 1 : 0;
}
