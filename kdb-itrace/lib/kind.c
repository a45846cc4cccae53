// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the record kinds (kind.h), both ways: the formatter prints
 * them, the parser reads them in kind filters. Pure C, shared with host
 * tests.
 */
#include "compat.h"
#include "kind.h"

static const char *const kind_names[ITRACE_K_NR] = {
	[ITRACE_K_INSN]		= "insn",
	[ITRACE_K_JCC_NT]	= "jcc-nt",
	[ITRACE_K_JCC]		= "jcc",
	[ITRACE_K_JMP]		= "jmp",
	[ITRACE_K_CALL]		= "call",
	[ITRACE_K_RET]		= "ret",
	[ITRACE_K_ICALL]	= "icall",
	[ITRACE_K_IJMP]		= "ijmp",
	[ITRACE_K_SYSCALL]	= "syscall",
	[ITRACE_K_INT]		= "int",
	[ITRACE_K_IRET]		= "iret",
	[ITRACE_K_FAR]		= "far",
	[ITRACE_K_ASYNC]	= "async",
};

const char *itrace_kind_name(unsigned int kind)
{
	return kind < ITRACE_K_NR ? kind_names[kind] : "?";
}

/* The names of the kinds in @kinds, in kind order, comma-separated. */
void itrace_kinds_str(char *buf, size_t len, u32 kinds)
{
	size_t w = 0;
	unsigned int k;

	if (!len)
		return;
	buf[0] = '\0';
	for (k = 0; k < ITRACE_K_NR; k++)
		if (kinds & (1u << k))
			w += scnprintf(buf + w, len - w, "%s%s", w ? "," : "",
				       kind_names[k]);
}

/* The kind named by the @len bytes at @s, or -1. */
int itrace_kind_parse(const char *s, size_t len)
{
	int k;

	for (k = 0; k < ITRACE_K_NR; k++)
		if (strlen(kind_names[k]) == len && !strncmp(s, kind_names[k], len))
			return k;
	return -1;
}
