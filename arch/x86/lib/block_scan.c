// SPDX-License-Identifier: GPL-2.0
/* Branch-source scan for hardware block-step traps (see block_scan.h). */
#include "block_scan.h"
#include "lib/kind.h"

enum itrace_x86_scan itrace_x86_block_source(itrace_x86_fetch_t fetch,
					     itrace_x86_syscall_t on_syscall,
					     void *ctx,
					     enum itrace_x86_mode mode,
					     u64 start, u64 to,
					     unsigned int max, u64 *from,
					     unsigned int *kind)
{
	struct itrace_x86_insn d;
	u8 buf[ITRACE_X86_MAX_INSN];
	u64 ip = start;
	unsigned int n, got;

	for (n = 0; n < max; n++, ip += d.len) {
		got = fetch(ctx, ip, buf, sizeof(buf));
		if (!got || itrace_x86_decode(buf, got, mode, &d))
			return ITRACE_X86_SCAN_LOST;
		/* honoured BTF never traps after a non-branch or a jcc not taken */
		if (n == 0 && to == ip + d.len &&
		    (d.kind == ITRACE_K_INSN || d.kind == ITRACE_K_JCC))
			return ITRACE_X86_SCAN_STEP;
		switch (d.kind) {
		case ITRACE_K_INSN:
			continue;
		case ITRACE_K_SYSCALL:
			/* transparent under BTF: no trap, but a record */
			on_syscall(ctx, ip, d.len);
			continue;
		case ITRACE_K_JCC:
			if (to != ip + d.len + (u64)(s64)d.rel)
				continue;
			break;
		default:
			break;
		}
		*from = ip;
		*kind = d.kind;
		return ITRACE_X86_SCAN_FOUND;
	}
	return ITRACE_X86_SCAN_LOST;
}
