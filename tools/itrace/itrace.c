// SPDX-License-Identifier: GPL-2.0
/*
 * itrace: the kdb command, from a root shell. Its words are the kdb
 * command's (`itrace on 42 block`, `itrace log -n 20 42`; none: status),
 * written as one command to kdb-itrace's debugfs control file; the
 * module's reply is read back on the same open file (debugfs keeps it
 * there, README "The debugfs interface"). A command the module carried
 * out prints its reply on stdout, exit 0; one it refused (the write
 * failed, nothing changed) prints the module's line on stderr and exits
 * with a status per errno, so that scripts can tell the cases apart:
 *
 *   0  done                    4  EBUSY: traced already, or being turned off
 *   1  another error           5  ENOSPC: the traced-task table is full
 *   2  EINVAL: bad syntax, or  6  EPERM/EACCES: not root, or lockdown
 *      a task that cannot be   7  no control file: kdb-itrace not loaded,
 *      traced                     or debugfs not mounted
 *   3  ESRCH: no such task
 *
 * The control file is $ITRACE_DEBUGFS/control, else
 * /sys/kernel/debug/itrace/control. Userspace, plain C, static-friendly
 * (the test VM's /bin/itrace).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_DIR	"/sys/kernel/debug/itrace"
/* the module's longest command line (kdb-itrace/lib/parse.h: 16 words) */
#define CMD_MAX		4096

enum { EX_OK, EX_OTHER, EX_INVAL, EX_SRCH, EX_BUSY, EX_NOSPC, EX_PERM,
       EX_NOMOD };

static int status_of(int err)
{
	switch (err) {
	case EINVAL:
		return EX_INVAL;
	case ESRCH:
		return EX_SRCH;
	case EBUSY:
		return EX_BUSY;
	case ENOSPC:
		return EX_NOSPC;
	case EPERM:
	case EACCES:
		return EX_PERM;
	default:
		return EX_OTHER;
	}
}

/* The words joined by one space into @cmd; -1 after a message if not. */
static int join(int argc, char **argv, char *cmd, size_t len)
{
	size_t n = 0, w;
	int i;

	cmd[0] = '\0';
	for (i = 1; i < argc; i++) {
		if (!argv[i][0] || strpbrk(argv[i], " \t\n")) {
			fprintf(stderr, "itrace: word %d '%s' is empty or holds a blank (the module splits its command on blanks)\n",
				i, argv[i]);
			return -1;
		}
		w = strlen(argv[i]);
		if (n + w + 2 > len) {
			fprintf(stderr, "itrace: the command is longer than %zu bytes\n",
				len - 1);
			return -1;
		}
		if (n)
			cmd[n++] = ' ';
		memcpy(cmd + n, argv[i], w + 1);
		n += w;
	}
	if (!n)
		strcpy(cmd, "status");
	return 0;
}

/* Everything the module has for us on @fd, to @out. */
static int copy_reply(int fd, FILE *out)
{
	char buf[8192];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, n, out) != (size_t)n)
			return -1;
	return n < 0 ? -1 : 0;
}

/*
 * The write of the command failed with @err: the module's line saying
 * why (its reply, on the same open file) on stderr, else the errno's.
 */
static void refused(int fd, int err)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n > 0) {
		fwrite(buf, 1, n, stderr);
		if (buf[n - 1] != '\n')
			fputc('\n', stderr);
	} else {
		fprintf(stderr, "itrace: %s\n", strerror(err));
	}
}

int main(int argc, char **argv)
{
	const char *dir = getenv("ITRACE_DEBUGFS");
	char path[4096], cmd[CMD_MAX];
	int fd, err;

	if (!dir || !*dir)
		dir = DEFAULT_DIR;
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: itrace [WORD...]: the kdb command `itrace WORD...` through %s/control\n"
		       "  itrace help lists the words; itrace alone is itrace status.\n"
		       "  Exit status: 0 done, 2 bad command or task, 3 no such task, 4 busy,\n"
		       "  5 table full, 6 not allowed (root? lockdown?), 7 kdb-itrace not there, 1 other.\n",
		       dir);
		return EX_OK;
	}
	if (join(argc, argv, cmd, sizeof(cmd)))
		return EX_INVAL;
	snprintf(path, sizeof(path), "%s/control", dir);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "itrace: %s: %s%s\n", path, strerror(err),
			err == ENOENT ? " (is kdb-itrace loaded, and debugfs mounted?)" :
			err == EACCES || err == EPERM ? " (root?)" : "");
		return err == ENOENT ? EX_NOMOD : status_of(err);
	}
	if (write(fd, cmd, strlen(cmd)) < 0) {
		err = errno;
		refused(fd, err);
		close(fd);
		return status_of(err);
	}
	err = copy_reply(fd, stdout);
	close(fd);
	if (err || fflush(stdout)) {
		fprintf(stderr, "itrace: %s: %s\n", path, strerror(errno));
		return EX_OTHER;
	}
	return EX_OK;
}
