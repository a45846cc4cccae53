/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the seccomp programs share (sec_*): whether this kernel has a
 * filter action, with the fixed skip line where it has not; the
 * statements their filters are built of (load a field of the call's
 * seccomp_data, give one value an action, return an action); and the
 * install of a filter in the calling thread, no new privileges first.
 */
#ifndef _TT_SEC_H
#define _TT_SEC_H

#include "tt.h"
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* load the call's @field: nr, arch, args[n] (its low half: LE) */
#define TT_SEC_LD(field)						\
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS,				\
		 offsetof(struct seccomp_data, field))
/* return @action */
#define TT_SEC_RET(action)	BPF_STMT(BPF_RET | BPF_K, action)
/* the loaded value @k returns @action; any other goes on */
#define TT_SEC_IS_RET(k, action)					\
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, 0, 1), TT_SEC_RET(action)

/*
 * The filter action @action not in this kernel (not in every one)? Then
 * the fixed skip line that names it, the verdict, and 1; else 0.
 */
#define tt_sec_lacks(action)	tt_sec_lacks_(action, #action)
static inline int tt_sec_lacks_(unsigned int action, const char *name)
{
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0)
		return 0;
	tt_say("seccomp: no %s in this kernel: skipped\n", name);
	tt_ok();
	return 1;
}

/* install the filter @f (an array) in the calling thread, or fail */
#define tt_sec_install(f)	tt_sec_install_(f, sizeof(f) / sizeof((f)[0]))
static inline void tt_sec_install_(struct sock_filter *f, unsigned short n)
{
	struct sock_fprog prog = { n, f };

	tt_sys(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	tt_sys(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog));
}

#endif /* _TT_SEC_H */
