// SPDX-License-Identifier: GPL-2.0
/*
 * Runs a command with less privilege, for the VM tests of who may use
 * the debugfs files (busybox has no setpriv --reuid or capsh):
 *   tp_cred uid N CMD ARGS...   as uid and gid N, no supplementary groups
 *   tp_cred nocap CMD ARGS...   as root without CAP_SYS_ADMIN: dropped
 *                               from the bounding set, exec cannot give
 *                               it back
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define CAP_SYS_ADMIN 21

int main(int argc, char **argv)
{
	char **cmd;

	if (argc >= 4 && !strcmp(argv[1], "uid")) {
		gid_t id = (gid_t)atoi(argv[2]);

		if (setgroups(0, NULL) || setgid(id) || setuid(id)) {
			perror("tp_cred: setuid");
			return 126;
		}
		cmd = argv + 3;
	} else if (argc >= 3 && !strcmp(argv[1], "nocap")) {
		if (prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0)) {
			perror("tp_cred: PR_CAPBSET_DROP");
			return 126;
		}
		cmd = argv + 2;
	} else {
		fprintf(stderr, "usage: tp_cred uid N CMD... | tp_cred nocap CMD...\n");
		return 2;
	}
	execvp(cmd[0], cmd);
	perror("tp_cred: exec");
	return 127;
}
