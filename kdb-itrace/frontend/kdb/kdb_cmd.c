// SPDX-License-Identifier: GPL-2.0
/*
 * kdb glue: the `itrace` and `itshow` commands, their kdb.cmd_enable
 * flags, and the output sink that prints with kdb_printf(). The executor
 * (exec/command.c) does the work; here every other CPU is stopped, so no
 * sleeping, allocation or locks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kdb.h>
#include "core/itrace.h"
#include "exec/exec.h"
#include "kdb.h"
#include "wrap_kdb.h"

static void kdb_write(struct itrace_out *o, const char *s, size_t len)
{
	kdb_printf("%s", s);
}

static struct itrace_out kdb_out = { .write = kdb_write };

/* allocated at load: kdb cannot allocate */
static struct itrace_merge *kdb_merge;

static int run(int argc, const char **argv)
{
	struct itrace_ctx ctx = {
		.out = &kdb_out,
		.merge = kdb_merge,
		.stopped = true,
		.kdb_words = true,
	};

	itrace_exec(argc, argv, &ctx);
	return 0;
}

static int itrace_kdb(int argc, const char **argv)
{
	return run(argc, argv + 1);
}

/* The read-only subset: what the log and our counters show. */
static int itshow_kdb(int argc, const char **argv)
{
	static const char *const shown[] = {
		"status", "log", "calls", "stack", "top", "help",
	};
	const char *sub = argc ? argv[1] : "status";
	char word[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(shown); i++)
		if (!strcmp(sub, shown[i]))
			return run(argc, argv + 1);
	/* a word quoted as typed: '?' for what is not printable (out.h) */
	kdb_printf("itshow: %s; '%s' is for itrace (itshow help)\n",
		   "status, log, calls, stack, top or help",
		   itrace_name(word, sizeof(word), sub, sizeof(word) - 1,
			       ITRACE_NAME_QMARK));
	return 0;
}

/*
 * kdb allows a command if kdb.cmd_enable has any one of its flags, and
 * a command has one set of flags whatever its arguments. `on`, `off` and
 * `clear` change another task's registers or our log, hence REG_WRITE
 * for `itrace` (`regs` reads registers: kept there, with the commands
 * that touch them); reading the log needs only MEM_READ, so status,
 * log, calls, stack and top are also `itshow`, usable where writes are not
 * allowed (kdb.cmd_enable=0x2, or lockdown=integrity). Bare, both only
 * show status: always safe, like `summary`.
 */
static struct itrace_kdb_cmd itrace_cmds[] = {
	{
		.name = "itrace",
		.func = itrace_kdb,
		.usage = "on|off|status|log|calls|stack|top|regs|clear|help ... (itrace help)",
		.help = "Trace branches of user tasks by single/block stepping",
		.minlen = 0,
		.flags = KDB_ENABLE_REG_WRITE | KDB_ENABLE_ALWAYS_SAFE_NO_ARGS,
	},
	{
		.name = "itshow",
		.func = itshow_kdb,
		.usage = "status|log|calls|stack|top|help ... (itrace help)",
		.help = "itrace's status and branch log, read-only",
		.minlen = 0,
		.flags = KDB_ENABLE_MEM_READ | KDB_ENABLE_ALWAYS_SAFE_NO_ARGS,
	},
};

int itrace_kdb_init(void)
{
	unsigned int i;

	kdb_merge = itrace_merge_alloc();
	if (!kdb_merge)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(itrace_cmds); i++) {
		if (itrace_kdb_register(&itrace_cmds[i])) {
			pr_err("kdb command '%s' already registered\n",
			       itrace_cmds[i].name);
			while (i--)
				itrace_kdb_unregister(&itrace_cmds[i]);
			itrace_merge_free(kdb_merge);
			return -EBUSY;
		}
	}
	return 0;
}

void itrace_kdb_exit(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(itrace_cmds); i++)
		itrace_kdb_unregister(&itrace_cmds[i]);
	itrace_merge_free(kdb_merge);
}
