// SPDX-License-Identifier: GPL-2.0
/*
 * proc_exec_chain: one process execs itself 4 times in a row, a level
 * counter in argv, alternating execv("/proc/self/exe") and fexecve() on
 * an open fd of it (execveat with AT_EMPTY_PATH). At each level
 * the new image checks what exec must keep and what it must drop: the
 * same pid (passed in argv), an inherited fd kept, an O_CLOEXEC fd
 * closed, an ignored signal still ignored, a handled one back to
 * SIG_DFL, the blocked mask kept. The last level prints the verdict.
 *
 * Catches: a tracer that loses a task across repeated execs (a slot
 * per image not freed or not re-armed, state from the old image applied
 * to the new one), or whose exec handling disturbs what exec keeps.
 */
#include "../tt.h"
#include <fcntl.h>
#include <signal.h>

#define LEVELS	4

static void on_usr1(int sig)
{
	(void)sig;
}

static void next(int level, const char *pid, int exefd, char **argv)
{
	char lv[16], fd[16];
	char *av[] = { argv[0], "--level", lv, (char *)pid, fd, NULL };

	snprintf(lv, sizeof(lv), "%d", level);
	snprintf(fd, sizeof(fd), "%d", exefd);
	if (level % 2)
		execv("/proc/self/exe", av);
	else
		fexecve(exefd, av, environ);
	tt_fail("exec to level %d: %s", level, strerror(errno));
}

/* the checks each exec'd image makes; a line per level */
static void check_level(int level, const char *pid, int exefd)
{
	struct sigaction s1, s2;
	sigset_t cur;
	int kept, dropped;

	tt_sys(sigaction(SIGUSR1, NULL, &s1));
	tt_sys(sigaction(SIGUSR2, NULL, &s2));
	tt_sys(sigprocmask(SIG_BLOCK, NULL, &cur));
	kept = fcntl(exefd, F_GETFD) == 0;		/* no FD_CLOEXEC */
	dropped = fcntl(exefd + 1, F_GETFD) == -1 && errno == EBADF;
	tt_say("level %d: same pid %s, fd kept %s, cloexec fd closed %s, "
	       "handler reset %s, ignore kept %s, mask kept %s\n", level,
	       getpid() == atoi(pid) ? "yes" : "no", kept ? "yes" : "no",
	       dropped ? "yes" : "no",
	       s1.sa_handler == SIG_DFL ? "yes" : "no",
	       s2.sa_handler == SIG_IGN ? "yes" : "no",
	       sigismember(&cur, SIGPIPE) ? "yes" : "no");
	tt_check(getpid() == atoi(pid) && kept && dropped);
	tt_check(s1.sa_handler == SIG_DFL && s2.sa_handler == SIG_IGN);
	tt_check(sigismember(&cur, SIGPIPE));
}

TT_MAIN
{
	struct sigaction sa;
	sigset_t set;
	char pid[16];
	int level, exefd, cfd;

	if (argc == 5 && !strcmp(argv[1], "--level")) {
		level = atoi(argv[2]);
		exefd = atoi(argv[4]);
		check_level(level, argv[3], exefd);
		/* the cloexec fd again, for the next image to find closed */
		cfd = tt_sys(open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
		if (cfd != exefd + 1)
			tt_fail("cloexec fd %d, not %d", cfd, exefd + 1);
		tt_sys(sigaction(SIGUSR1, &(struct sigaction){
			.sa_handler = on_usr1 }, NULL));
		if (level < LEVELS)
			next(level + 1, argv[3], exefd, argv);
		tt_ok();
		return 0;
	}
	exefd = tt_sys(open("/proc/self/exe", O_RDONLY));
	cfd = tt_sys(open("/proc/self/exe", O_RDONLY | O_CLOEXEC));
	tt_check(cfd == exefd + 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGUSR1, &sa, NULL));
	signal(SIGUSR2, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	snprintf(pid, sizeof(pid), "%d", getpid());
	tt_say("level 0: exec chain of %d starts\n", LEVELS);
	next(1, pid, exefd, argv);
	return 1;
}
