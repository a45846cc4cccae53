// SPDX-License-Identifier: GPL-2.0
/*
 * sig_exec_keep: what fork and exec keep of signal state. The parent
 * blocks SIGUSR1 and makes it pending, ignores SIGUSR2, and has a
 * SIGTERM handler. Its forked child must see the mask, the ignore and
 * the handler, but no pending signal (pending signals are not
 * inherited). The child raises SIGUSR1 itself (pending again) and execs
 * /proc/self/exe "--img2": the new image must see SIGUSR1 still blocked
 * and pending, SIGUSR2 still ignored, SIGTERM back to SIG_DFL; it then
 * takes the SIGUSR1 by a handler and exits 33. The parent prints that,
 * then unblocks its own pending SIGUSR1.
 *
 * Catches: a tracer following forks and execs that delivers or drops
 * pending signals at those points, or resets the mask or dispositions
 * when it arms the new image.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/wait.h>

static volatile int usr1, term;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

static void on_term(int sig)
{
	(void)sig;
	term++;
}

static const char *disp(int sig)
{
	struct sigaction old;

	if (sigaction(sig, NULL, &old))
		return "error";
	if (old.sa_handler == SIG_DFL)
		return "SIG_DFL";
	if (old.sa_handler == SIG_IGN)
		return "SIG_IGN";
	return "handler";
}

static void show(const char *who)
{
	sigset_t mask, pend;

	tt_sys(sigprocmask(SIG_SETMASK, NULL, &mask));
	tt_sys(sigpending(&pend));
	tt_say("%s: SIGUSR1 blocked %d pending %d; SIGUSR2 %s; SIGTERM %s\n",
	       who, sigismember(&mask, SIGUSR1), sigismember(&pend, SIGUSR1),
	       disp(SIGUSR2), disp(SIGTERM));
}

static int img2(void)
{
	sigset_t set;

	show("exec'd image");
	tt_check(!strcmp(disp(SIGUSR2), "SIG_IGN"));
	tt_check(!strcmp(disp(SIGTERM), "SIG_DFL"));
	tt_handle_plain(SIGUSR1, on_usr1, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
	tt_say("exec'd image: SIGUSR1 handled at unblock %d\n", usr1);
	return usr1 == 1 ? 33 : 34;
}

TT_MAIN
{
	char *av[] = { "sig_exec_keep", "--img2", NULL };
	sigset_t set;
	int status;
	pid_t pid;

	if (argc == 2 && !strcmp(argv[1], "--img2"))
		return img2();
	tt_handle_plain(SIGUSR1, on_usr1, 0);
	tt_handle_plain(SIGTERM, on_term, 0);
	tt_handle_plain(SIGUSR2, SIG_IGN, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	tt_sys(raise(SIGUSR1));
	show("parent");

	pid = tt_sys(fork());
	if (pid == 0) {
		sigset_t pend;

		show("forked child");
		if (sigpending(&pend) || sigismember(&pend, SIGUSR1) ||
		    strcmp(disp(SIGTERM), "handler"))
			_exit(98);
		raise(SIGUSR1);
		show("forked child");
		execv("/proc/self/exe", av);
		_exit(99);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say("child: exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 33);
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
	tt_say("parent: SIGUSR1 handled at unblock %d, SIGTERM %d\n", usr1, term);
	tt_check(usr1 == 1 && term == 0);
	tt_ok();
	return 0;
}
