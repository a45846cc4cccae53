// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line front end to the POWER instruction classifier
 * (arch/powerpc/lib/insn_class.c), for people and for run_ppc_objdump.sh:
 *
 *   ppc_class_tool hex WORD [NEXT]
 *	classify one instruction word (hex, host order, e.g. 4e800020)
 *	and print its kind and flags
 *   ppc_class_tool bench FILE [PASSES]
 *	time the classifier over a raw little-endian code dump (e.g. a
 *	.text section from objcopy -O binary) and print ns per classify
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

#include "arch/powerpc/lib/insn_class.h"
#include "lib/kind.h"

static const char *const kind_names[ITRACE_K_NR] = {
	[ITRACE_K_INSN] = "INSN", [ITRACE_K_JCC_NT] = "JCC_NT",
	[ITRACE_K_JCC] = "JCC", [ITRACE_K_JMP] = "JMP",
	[ITRACE_K_CALL] = "CALL", [ITRACE_K_RET] = "RET",
	[ITRACE_K_ICALL] = "ICALL", [ITRACE_K_IJMP] = "IJMP",
	[ITRACE_K_SYSCALL] = "SYSCALL", [ITRACE_K_INT] = "INT",
	[ITRACE_K_IRET] = "IRET", [ITRACE_K_FAR] = "FAR",
	[ITRACE_K_ASYNC] = "ASYNC",
};

static int print_usage(const char *prog)
{
	fprintf(stderr, "usage: %s hex WORD [NEXT]\n"
			"       %s bench FILE [PASSES]\n", prog, prog);
	return 2;
}

static int cmd_hex(int argc, char **argv)
{
	u32 w = strtoul(argv[0], NULL, 16);
	u32 next = argc > 1 ? strtoul(argv[1], NULL, 16) : 0;
	struct itrace_ppc_insn in;

	if (itrace_ppc_classify(w, next, &in)) {
		printf("invalid\n");
		return 1;
	}
	printf("len %u kind %s cond %u link %u larx %u stcx %u",
	       in.len, kind_names[in.kind], in.cond, in.link, in.larx,
	       in.stcx);
	if (in.direct)
		printf(" %s %d", in.abs ? "abs" : "disp", in.disp);
	printf("\n");
	return 0;
}

static int cmd_bench(const char *path, unsigned int passes)
{
	unsigned char *buf;
	u32 *words;
	size_t size;
	long n, i;
	unsigned long long calls = 0, fails = 0, sum = 0;
	unsigned int pass;
	double t0, t1;

	buf = slurp(path, &size);
	if (!buf) {
		perror(path);
		return 2;
	}
	/* Instruction words are stored little-endian whatever the host. */
	n = size / 4;
	words = malloc((n + 1) * sizeof(*words));
	if (!words)
		return 2;
	for (i = 0; i < n; i++)
		words[i] = buf[4 * i] | buf[4 * i + 1] << 8 |
			   buf[4 * i + 2] << 16 | (u32)buf[4 * i + 3] << 24;
	words[n] = 0;

	t0 = now_ns();
	for (pass = 0; pass < passes; pass++) {
		i = 0;
		while (i < n) {
			struct itrace_ppc_insn in;

			calls++;
			if (itrace_ppc_classify(words[i], words[i + 1], &in)) {
				fails++;
				i++;
				continue;
			}
			sum += in.kind + in.disp + in.cond + in.larx;
			i += in.len / 4;
		}
	}
	t1 = now_ns();
	printf("ppc-class: bench %s: %llu classifies (%llu invalid) in %.0f ms,",
	       path, calls, fails, (t1 - t0) / 1e6);
	printf(" %.2f ns/classify [%llx]\n", (t1 - t0) / calls, sum & 0xf);
	free(words);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return print_usage(argv[0]);
	if (!strcmp(argv[1], "hex"))
		return cmd_hex(argc - 2, argv + 2);
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argv[2], argc > 3 ? atoi(argv[3]) : 20);
	return print_usage(argv[0]);
}
