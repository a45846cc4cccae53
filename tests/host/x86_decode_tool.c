// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/x86_decode_tool.c - command-line front end to
 * arch/x86/lib/insn_decode.c for people and for run_x86_objdump.sh:
 *
 *   x86_decode_tool [-32] hex 48 8b 05 00 00 00 00 ...
 *	decode one instruction and print its length, kind, rep and rel
 *   x86_decode_tool [-32] bench FILE [PASSES]
 *	time a linear sweep of the decoder over a raw code dump (e.g. a
 *	.text section from objcopy -O binary) and print ns per decode
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

#include "arch/x86/lib/insn_decode.h"
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

static int usage(void)
{
	fprintf(stderr, "usage: x86_decode_tool [-32] hex BYTE...\n"
			"       x86_decode_tool [-32] bench FILE [PASSES]\n");
	return 2;
}

static int cmd_hex(int argc, char **argv, enum itrace_x86_mode mode)
{
	unsigned char b[64];
	unsigned int n = 0;
	struct itrace_x86_insn in;
	int i;

	for (i = 0; i < argc; i++) {
		char *s = argv[i];

		while (*s && n < sizeof(b)) {
			char h[3] = { 0 };

			if (*s == ' ') {
				s++;
				continue;
			}
			h[0] = s[0];
			h[1] = s[1];
			if (!h[1])
				return usage();
			b[n++] = strtoul(h, NULL, 16);
			s += 2;
		}
	}
	if (itrace_x86_decode(b, n, mode, &in)) {
		printf("invalid\n");
		return 1;
	}
	printf("len %u kind %s rep %u", in.len, kind_names[in.kind], in.rep);
	if (in.has_rel)
		printf(" rel %d", in.rel);
	printf("\n");
	return 0;
}

static int cmd_bench(const char *path, unsigned int passes,
		     enum itrace_x86_mode mode)
{
	unsigned char *buf;
	size_t size;
	unsigned long long decodes = 0, fails = 0, sum = 0;
	unsigned int pass;
	double t0, t1;

	buf = slurp(path, &size);
	if (!buf) {
		perror(path);
		return 2;
	}

	t0 = now_ns();
	for (pass = 0; pass < passes; pass++) {
		size_t p = 0;

		while (p < size) {
			struct itrace_x86_insn in;

			decodes++;
			if (itrace_x86_decode(buf + p, size - p, mode, &in)) {
				fails++;
				p++;
				continue;
			}
			sum += in.kind + in.rel;
			p += in.len;
		}
	}
	t1 = now_ns();
	printf("x86-decode: bench %s: %llu decodes (%llu invalid) in %.0f ms, "
	       "%.1f ns/decode [%llx]\n", path, decodes, fails,
	       (t1 - t0) / 1e6, (t1 - t0) / decodes, sum & 0xf);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	enum itrace_x86_mode mode = ITRACE_X86_MODE64;

	if (argc > 1 && !strcmp(argv[1], "-32")) {
		mode = ITRACE_X86_MODE32;
		argc--;
		argv++;
	}
	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "hex"))
		return cmd_hex(argc - 2, argv + 2, mode);
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argv[2], argc > 3 ? atoi(argv[3]) : 20, mode);
	return usage();
}
