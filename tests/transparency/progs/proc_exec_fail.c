// SPDX-License-Identifier: GPL-2.0
/*
 * proc_exec_fail: execve() calls that fail, and the program carrying on
 * in its old image after each: a missing file (ENOENT), a path through
 * a regular file (ENOTDIR), a directory (EACCES), a file without any x
 * bit (EACCES, even for root), an executable file no binary format
 * knows (ENOEXEC), an ELF header cut short (some error, the same each
 * time), a bad filename pointer and a bad argv pointer (EFAULT; the
 * latter on the program's own valid image, so exec gets as far as
 * reading the arguments). Files live in a fresh directory under /tmp.
 * Then the program checks its state: its text still runs, its fds and
 * memory are intact.
 *
 * Catches: a tracer that commits to a new image (drops the old one's
 * state, re-arms, or frees its slot) on an exec that then fails, so the
 * old image runs on untraced, wrongly traced, or killed.
 */
#include "../tt.h"
#include <fcntl.h>
#include <sys/stat.h>

static char dir[64];
static const char *name(int e)
{
	switch (e) {
	case 0: return "none";
	case ENOENT: return "ENOENT";
	case ENOTDIR: return "ENOTDIR";
	case EACCES: return "EACCES";
	case ENOEXEC: return "ENOEXEC";
	case EFAULT: return "EFAULT";
	case EIO: return "EIO";
	case EINVAL: return "EINVAL";
	default: return "other";
	}
}

static void put(const char *file, const void *buf, size_t len, mode_t mode)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = tt_sys(open(path, O_WRONLY | O_CREAT | O_TRUNC, mode));
	tt_check(write(fd, buf, len) == (ssize_t)len);
	tt_sys(close(fd));
	tt_sys(chmod(path, mode));
}

/* exec PATH (relative to the directory unless absolute): the errno */
static int try(const char *file, char *const *av)
{
	char path[128];
	char *env[] = { NULL };

	if (file[0] == '/')
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%s/%s", dir, file);
	execve(path, av, env);
	return errno;
}

static int counter = 1000;
/* an address nothing is mapped at, hidden from the compiler */
static char *volatile bad = (char *)16;

TT_MAIN
{
	char *av[] = { argv[0], "--never", NULL };
	unsigned char hdr[64];
	int fd, e, i, pfd[2];
	char c;

	if (argc == 2 && !strcmp(argv[1], "--never")) {
		tt_say("an exec meant to fail ran\n");
		return 9;
	}
	snprintf(dir, sizeof(dir), "/tmp/tt_exec_fail.XXXXXX");
	tt_check(mkdtemp(dir));
	tt_sys(pipe(pfd));
	put("text", "just text\n", 10, 0755);
	put("noexec", "#!/bin/sh\nexit 9\n", 17, 0644);
	fd = tt_sys(open("/proc/self/exe", O_RDONLY));
	tt_check(read(fd, hdr, sizeof(hdr)) == sizeof(hdr));
	close(fd);
	put("elfhead", hdr, sizeof(hdr), 0755);

	e = try("missing", av);
	tt_say("missing file: %s\n", name(e));
	tt_check(e == ENOENT);
	e = try("text/x", av);
	tt_say("through a file: %s\n", name(e));
	tt_check(e == ENOTDIR);
	e = try("", av);
	tt_say("a directory: %s\n", name(e));
	tt_check(e == EACCES);
	e = try("noexec", av);
	tt_say("no x bit: %s\n", name(e));
	tt_check(e == EACCES);
	e = try("text", av);
	tt_say("no binary format: %s\n", name(e));
	tt_check(e == ENOEXEC);
	e = try("elfhead", av);
	tt_say("ELF header only: fails: %s\n", e ? "yes" : "no");
	tt_check(e != 0);
	errno = 0;
	execve(bad, av, NULL);
	tt_say("bad filename pointer: %s\n", name(errno));
	tt_check(errno == EFAULT);
	errno = 0;
	execve("/proc/self/exe", (char *const *)bad, NULL);
	tt_say("bad argv pointer: %s\n", name(errno));
	tt_check(errno == EFAULT);
	e = try("/proc/self/exe", (char *const []){ argv[0], bad, NULL });
	tt_say("bad argv string: %s\n", name(e));
	tt_check(e == EFAULT);

	/* the old image carries on: memory, fds, calls */
	for (i = 0; i < 10; i++)
		counter += i;
	tt_check(write(pfd[1], "k", 1) == 1 && read(pfd[0], &c, 1) == 1);
	tt_say("carried on: counter %d, pipe %s\n", counter,
	       c == 'k' ? "works" : "broken");
	tt_check(counter == 1045 && c == 'k');

	unlink(strcat(strcpy((char [128]){ 0 }, dir), "/text"));
	unlink(strcat(strcpy((char [128]){ 0 }, dir), "/noexec"));
	unlink(strcat(strcpy((char [128]){ 0 }, dir), "/elfhead"));
	tt_sys(rmdir(dir));
	tt_ok();
	return 0;
}
