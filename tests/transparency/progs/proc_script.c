// SPDX-License-Identifier: GPL-2.0
/*
 * proc_script: execve() of #! scripts written to a fresh directory
 * under /tmp, each from a forked child, the parent printing its status.
 * Script 1 is run by /bin/sh (busybox): it echoes its argument count and
 * exits 7. Script 2 names script 3 as its interpreter, whose own #! line
 * names /proc/self/exe (this program) with an argument: binfmt_script
 * twice over, and this program, started as that interpreter, checks the
 * argv it got (interpreter, its argument, script 3's path, script 2's
 * argument, script 2's path, the exec's argument) and exits 8. Script 4
 * names a missing interpreter: execve fails with ENOENT in the child,
 * which carries on and exits 9.
 *
 * Catches: a tracer that follows an exec by the file first named
 * (not the interpreter binfmt_script finally loads), mis-handles an
 * image that is not the one exec'd (busybox, or itself by another name),
 * or an exec whose failure comes from the interpreter lookup.
 */
#include "../tt.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char dir[64];

static void path(char *buf, size_t n, const char *file)
{
	snprintf(buf, n, "%s/%s", dir, file);
}

static void put(const char *file, const char *text)
{
	char p[128];
	int fd;

	path(p, sizeof(p), file);
	fd = tt_sys(open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755));
	tt_check(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	tt_sys(close(fd));
}

/* fork, exec FILE with one argument ARG, wait: the exit status */
static int run(const char *file, const char *arg)
{
	char p[128];
	char *av[] = { p, (char *)arg, NULL };
	char *env[] = { "PATH=/bin:/usr/bin", NULL };
	int status;
	pid_t pid;

	path(p, sizeof(p), file);
	pid = tt_sys(fork());
	if (pid == 0) {
		execve(p, av, env);
		_exit(errno == ENOENT ? 9 : 10);
	}
	tt_sys(waitpid(pid, &status, 0));
	if (WIFSIGNALED(status))
		tt_say("%s: killed by signal %d\n", file, WTERMSIG(status));
	tt_check(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static int ends(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

/* this program as script 3's interpreter */
static int interp(int argc, char **argv)
{
	int ok = argc == 6 && !strcmp(argv[0], "/proc/self/exe") &&
		 !strcmp(argv[1], "--interp") && ends(argv[2], "/s3") &&
		 !strcmp(argv[3], "two-arg") && ends(argv[4], "/s2") &&
		 !strcmp(argv[5], "exec-arg");

	tt_say("interpreter: %d args, as expected: %s\n", argc,
	       ok ? "yes" : "no");
	return ok ? 8 : 1;
}

TT_MAIN
{
	char p[128], line[160];
	int st;

	if (argc >= 2 && !strcmp(argv[1], "--interp"))
		return interp(argc, argv);
	snprintf(dir, sizeof(dir), "/tmp/tt_exec_script.XXXXXX");
	tt_check(mkdtemp(dir));
	put("s1", "#!/bin/sh\necho \"script 1: run by sh with $# arg\"\n"
		  "exit 7\n");
	path(p, sizeof(p), "s3");
	snprintf(line, sizeof(line), "#!%s two-arg\n", p);
	put("s2", line);
	put("s3", "#!/proc/self/exe --interp\n");
	put("s4", "#!/nonexistent/interpreter\n");

	st = run("s1", "one");
	tt_say("script 1: exit status %d\n", st);
	tt_check(st == 7);
	st = run("s2", "exec-arg");
	tt_say("script 2: exit status %d\n", st);
	tt_check(st == 8);
	st = run("s4", "x");
	tt_say("script 4: missing interpreter: %s\n",
	       st == 9 ? "ENOENT" : "other");
	tt_check(st == 9);

	path(p, sizeof(p), "s1");
	unlink(p);
	path(p, sizeof(p), "s2");
	unlink(p);
	path(p, sizeof(p), "s3");
	unlink(p);
	path(p, sizeof(p), "s4");
	unlink(p);
	tt_sys(rmdir(dir));
	tt_ok();
	return 0;
}
