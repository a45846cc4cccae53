// SPDX-License-Identifier: GPL-2.0
/*
 * The text of a record's values (values.h). Pure C: snprintf only, so
 * `itrace log` and the host tests print the same.
 */
#include "kind.h"
#include "values.h"

/* "(0x1, 0x2, 0x3)": in @t first, which has room for the longest */
int itrace_format_args(char *buf, size_t len, unsigned int nval,
		       const u64 *val)
{
	char t[ITRACE_VALS_MAX] = "(";
	unsigned int i;
	int w = 1;

	for (i = 0; i < nval && i < ITRACE_REC_VALS; i++)
		w += snprintf(t + w, sizeof(t) - w, "%s0x%llx", i ? ", " : "",
			      (unsigned long long)val[i]);
	return snprintf(buf, len, "%s)", t);
}

int itrace_format_vals(char *buf, size_t len, unsigned int kind,
		       unsigned int nval, const u64 *val)
{
	char args[ITRACE_VALS_MAX];

	if (len)
		buf[0] = '\0';
	if (!nval || nval > ITRACE_REC_VALS)
		return 0;
	switch (kind) {
	case ITRACE_K_SYSCALL:
		if (nval < 2)
			return 0;
		return snprintf(buf, len, "  nr %llu = %lld",
				(unsigned long long)val[ITRACE_VAL_SYSNR],
				(long long)val[ITRACE_VAL_SYSRET]);
	case ITRACE_K_CALL:
	case ITRACE_K_ICALL:
	case ITRACE_K_ASYNC:
		itrace_format_args(args, sizeof(args), nval, val);
		return snprintf(buf, len, "  %s", args);
	case ITRACE_K_RET:
		return snprintf(buf, len, "  = 0x%llx",
				(unsigned long long)val[0]);
	default:
		return 0;
	}
}
