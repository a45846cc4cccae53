// SPDX-License-Identifier: GPL-2.0
/*
 * sec_user_notif: a supervisor answers the program's system calls
 * (SECCOMP_RET_USER_NOTIF, as container managers use it). A supervisor
 * thread is created first; then the main thread installs, for itself
 * only, a filter sending getppid to a listener fd
 * (SECCOMP_FILTER_FLAG_NEW_LISTENER) and hands the fd over. The main
 * thread calls getppid 3 times, blocking each time until the supervisor
 * (NOTIF_RECV: checks the call number and the caller's tid) answers:
 * 1000; the error EPERM; SECCOMP_USER_NOTIF_FLAG_CONTINUE, which runs
 * the real getppid. A kernel without these (ENOSYS, EINVAL) gives a
 * fixed line.
 *
 * Catches: a tracer stepping a task that sleeps inside a system call
 * for another thread's answer: the answer lost, the return value or
 * error replaced, or the continue path resuming at a wrong place.
 */
#include "../tt_sec.h"
#include <pthread.h>
#include <sys/ioctl.h>

#define CALLS	3

static int pipefd[2];
static pid_t main_tid;

static void *supervisor(void *arg)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	long ok = 0;
	int fd, i;

	(void)arg;
	if (read(pipefd[0], &fd, sizeof(fd)) != sizeof(fd) || fd < 0)
		return (void *)-1L;
	for (i = 0; i < CALLS; i++) {
		memset(&req, 0, sizeof(req));
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req))
			return (void *)-2L;
		if (req.data.nr == SYS_getppid && req.pid == (__u32)main_tid)
			ok++;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		if (i == 0)
			resp.val = 1000;
		else if (i == 1)
			resp.error = -EPERM;
		else
			resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp))
			return (void *)-3L;
	}
	close(fd);
	return (void *)ok;
}

TT_MAIN
{
	struct sock_filter f[] = {
		TT_SEC_LD(nr),
		TT_SEC_IS_RET(SYS_getppid, SECCOMP_RET_USER_NOTIF),
		TT_SEC_RET(SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	long r[CALLS], ppid = getppid();
	int e[CALLS], fd, i;
	pthread_t t;
	void *ok;

	if (tt_sec_lacks(SECCOMP_RET_USER_NOTIF))
		return 0;
	main_tid = gettid();
	tt_sys(pipe(pipefd));
	tt_check(pthread_create(&t, NULL, supervisor, NULL) == 0);
	tt_sys(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		     SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd < 0 && (errno == ENOSYS || errno == EINVAL)) {
		tt_say("user notification: not available\n");
		tt_check(write(pipefd[1], &fd, sizeof(fd)) == sizeof(fd));
		pthread_join(t, NULL);
		tt_ok();
		return 0;
	}
	tt_check(fd >= 0);
	tt_check(write(pipefd[1], &fd, sizeof(fd)) == sizeof(fd));
	for (i = 0; i < CALLS; i++) {
		errno = 0;
		r[i] = syscall(SYS_getppid);
		e[i] = errno;
	}
	tt_check(pthread_join(t, &ok) == 0);
	tt_say("supervisor saw getppid from the main thread: %ld of %d\n",
	       (long)ok, CALLS);
	tt_say("answer 1: %ld\n", r[0]);
	tt_say("answer 2: %ld, EPERM: %s\n", r[1], e[1] == EPERM ? "yes" : "no");
	tt_say("answer 3 (continue): the real parent: %s\n",
	       r[2] == ppid ? "yes" : "no");
	tt_check((long)ok == CALLS);
	tt_check(r[0] == 1000 && r[1] == -1 && e[1] == EPERM && r[2] == ppid);
	tt_ok();
	return 0;
}
