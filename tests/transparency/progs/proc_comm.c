// SPDX-License-Identifier: GPL-2.0
/*
 * proc_comm: the program renames itself mid-run. PR_SET_NAME to
 * "tt-renamed" (seen by PR_GET_NAME and /proc/self/comm), a forked
 * child inherits that name, renames itself and execs /proc/self/exe,
 * whose image is called "exe" by exec; a thread named by
 * pthread_setname_np() (through /proc/self/task/TID/comm) while main
 * keeps its own; a write to /proc/self/comm; a 20-character name cut to
 * 15; and at the end its first name back.
 *
 * Catches: a tracer that finds or keys a traced task by its command
 * name (as `on comm` arms it) and so stops tracing, double-traces or
 * leaves a slot behind when the name changes under it, in the task, its
 * child, its new image or a thread.
 */
#include "../tt.h"
#include <fcntl.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>

static int ping[2], pong[2];

static void get(char *buf)
{
	memset(buf, 0, 17);
	tt_sys(prctl(PR_GET_NAME, buf));
}

/* /proc/self[/task/TID]/comm, newline dropped */
static void proc_comm(const char *path, char *buf, size_t n)
{
	int fd = tt_sys(open(path, O_RDONLY));
	ssize_t r = read(fd, buf, n - 1);

	tt_check(r > 0);
	buf[r - (buf[r - 1] == '\n')] = 0;
	close(fd);
}

static void *thread(void *arg)
{
	char c;

	(void)arg;
	/* wait until named, answer, wait until told to end */
	if (read(ping[0], &c, 1) != 1 || write(pong[1], "n", 1) != 1 ||
	    read(ping[0], &c, 1) != 1)
		return (void *)1;
	return NULL;
}

TT_MAIN
{
	char first[17], name[17], buf[64], path[64];
	pthread_t t;
	int status, fd;
	pid_t pid;

	if (argc == 2 && !strcmp(argv[1], "--execd")) {
		get(name);
		tt_say("child's new image: name \"%s\"\n", name);
		return strcmp(name, "exe") ? 1 : 4;
	}
	get(first);
	tt_say("started as \"%s\"\n", first);

	tt_sys(prctl(PR_SET_NAME, "tt-renamed"));
	get(name);
	proc_comm("/proc/self/comm", buf, sizeof(buf));
	tt_say("renamed: \"%s\", /proc says \"%s\"\n", name, buf);
	tt_check(!strcmp(name, "tt-renamed") && !strcmp(buf, name));

	pid = tt_sys(fork());
	if (pid == 0) {
		char *av[] = { argv[0], "--execd", NULL };

		get(name);
		if (strcmp(name, "tt-renamed") ||
		    prctl(PR_SET_NAME, "tt-child"))
			_exit(2);
		execv("/proc/self/exe", av);
		_exit(3);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say("child: exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 4);

	tt_sys(pipe(ping));
	tt_sys(pipe(pong));
	tt_check(pthread_create(&t, NULL, thread, NULL) == 0);
	tt_check(pthread_setname_np(t, "tt-thread") == 0);
	tt_check(write(ping[1], "a", 1) == 1 && read(pong[0], buf, 1) == 1);
	tt_check(pthread_getname_np(t, buf, sizeof(buf)) == 0);
	get(name);
	tt_say("thread named \"%s\", main still \"%s\"\n", buf, name);
	tt_check(!strcmp(buf, "tt-thread") && !strcmp(name, "tt-renamed"));
	tt_check(write(ping[1], "b", 1) == 1);
	tt_check(pthread_join(t, NULL) == 0);

	fd = tt_sys(open("/proc/self/comm", O_WRONLY));
	tt_check(write(fd, "tt-by-proc", 10) == 10);
	close(fd);
	get(name);
	tt_say("written through /proc: \"%s\"\n", name);
	tt_check(!strcmp(name, "tt-by-proc"));

	tt_sys(prctl(PR_SET_NAME, "abcdefghijklmnopqrst"));
	get(name);
	tt_say("a 20-character name kept as \"%s\"\n", name);
	tt_check(strlen(name) == 15);

	tt_sys(prctl(PR_SET_NAME, first));
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", getpid());
	proc_comm(path, buf, sizeof(buf));
	tt_say("back to \"%s\"\n", buf);
	tt_check(!strcmp(buf, first));
	tt_ok();
	return 0;
}
