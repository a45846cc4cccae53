// SPDX-License-Identifier: GPL-2.0
/*
 * sys_iov: scatter/gather I/O. writev() of 64 iovecs (lengths 1..64,
 * 2080 bytes) into a pipe, read back by readv() into 37 iovecs of other
 * sizes, compared byte for byte; pwritev()/preadv() of the same at an
 * offset in a /tmp file; IOV_MAX+1 iovecs (EINVAL); a writev whose
 * third iovec points nowhere: a short count or EFAULT, never a signal.
 * Then a forked child's memory from the parent: process_vm_readv()/
 * process_vm_writev() with several iovecs a side (where the kernel has
 * them), and pread/pwrite of /proc/PID/mem: the parent reads the
 * child's buffer and writes into it, and the child checks the writes.
 *
 * Catches: a tracer that disturbs the kernel's copies to and from a
 * traced task's memory (its own accesses interleaving, pages it pinned
 * or made read-only for breakpoints), or a fault in the middle of a
 * vector turned into a signal.
 */
#include "../tt.h"
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define TOTAL	2080		/* 1 + 2 + ... + 64 */

static unsigned char src[TOTAL], dst[TOTAL];
static char buf[256], newbuf[256];
static char *volatile bad = (char *)16;

static void fill_out(struct iovec *iov)
{
	int i, off = 0;

	for (i = 0; i < 64; i++) {
		iov[i].iov_base = src + off;
		iov[i].iov_len = i + 1;
		off += i + 1;
	}
}

/* 37 pieces of dst: 36 of 56 bytes and the rest */
static void fill_in(struct iovec *iov)
{
	int i;

	for (i = 0; i < 36; i++) {
		iov[i].iov_base = dst + 56 * i;
		iov[i].iov_len = 56;
	}
	iov[36].iov_base = dst + 56 * 36;
	iov[36].iov_len = TOTAL - 56 * 36;
}

static void pipe_and_file(void)
{
	struct iovec out[64], in[37], many[IOV_MAX + 1];
	char path[64];
	int p[2], fd, i, n;
	ssize_t r;

	for (i = 0; i < TOTAL; i++)
		src[i] = (unsigned char)(i * 7 + 3);
	fill_out(out);
	fill_in(in);
	tt_sys(pipe(p));
	tt_sys(fcntl(p[0], F_SETPIPE_SZ, 65536));
	r = writev(p[1], out, 64);
	tt_check(r == TOTAL);
	r = readv(p[0], in, 37);
	tt_say("pipe: writev of 64 iovecs %d bytes, readv into 37 equal: %s\n",
	       TOTAL, r == TOTAL && !memcmp(src, dst, TOTAL) ? "yes" : "no");
	tt_check(r == TOTAL && !memcmp(src, dst, TOTAL));

	snprintf(path, sizeof(path), "/tmp/tt_iov.%d", getpid());
	fd = tt_sys(open(path, O_RDWR | O_CREAT | O_TRUNC, 0600));
	unlink(path);
	memset(dst, 0, TOTAL);
	tt_check(pwritev(fd, out, 64, 1000) == TOTAL);
	r = preadv(fd, in, 37, 1000);
	tt_say("file: pwritev/preadv at offset 1000 equal: %s, file position %ld\n",
	       r == TOTAL && !memcmp(src, dst, TOTAL) ? "yes" : "no",
	       (long)lseek(fd, 0, SEEK_CUR));
	tt_check(r == TOTAL && !memcmp(src, dst, TOTAL));
	close(fd);

	for (i = 0; i <= IOV_MAX; i++) {
		many[i].iov_base = src;
		many[i].iov_len = 1;
	}
	r = writev(p[1], many, IOV_MAX + 1);
	tt_say("IOV_MAX+1 iovecs: %s\n",
	       r == -1 && errno == EINVAL ? "EINVAL" : "other");
	tt_check(r == -1 && errno == EINVAL);

	out[2].iov_base = bad;
	r = writev(p[1], out, 64);
	n = r == -1 ? -errno : (int)r;
	tt_say("a bad third iovec: %s\n", n == 3 ? "short count 3" :
	       n == -EFAULT ? "EFAULT" : "other");
	tt_check(n == 3 || n == -EFAULT);
	close(p[0]);
	close(p[1]);
}

/* process_vm_readv/writev (a kernel may lack them): 1 if done */
static int vm_calls(pid_t pid, const char *want)
{
	struct iovec local[3], remote[2];
	ssize_t r;
	int ok;

	/* read the child's first 195 bytes into three pieces */
	local[0].iov_base = newbuf;
	local[0].iov_len = 5;
	local[1].iov_base = newbuf + 100;
	local[1].iov_len = 95;
	local[2].iov_base = newbuf + 5;
	local[2].iov_len = 95;
	remote[0].iov_base = buf;
	remote[0].iov_len = 100;
	remote[1].iov_base = buf + 100;
	remote[1].iov_len = 95;
	r = process_vm_readv(pid, local, 3, remote, 2, 0);
	if (r == -1 && errno == ENOSYS) {
		tt_say("process_vm_readv/writev: not available\n");
		return 0;
	}
	ok = r == 195 && !memcmp(newbuf, want, 5) &&
	     !memcmp(newbuf + 100, want + 5, 95) &&
	     !memcmp(newbuf + 5, want + 100, 95);
	tt_say("process_vm_readv: %d bytes, the child's, in 3 pieces: %s\n",
	       (int)r, ok ? "yes" : "no");
	tt_check(ok);
	local[0].iov_base = "parent ";
	local[0].iov_len = 7;
	local[1].iov_base = "wrote this";
	local[1].iov_len = 10;
	remote[0].iov_base = buf + 100;
	remote[0].iov_len = 17;
	r = process_vm_writev(pid, local, 2, remote, 1, 0);
	tt_check(r == 17);
	return 1;
}

/* the same through /proc/PID/mem (the kernel's access_remote_vm) */
static void proc_mem(pid_t pid, const char *want)
{
	char path[64];
	int fd, ok;
	ssize_t r;

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = tt_sys(open(path, O_RDWR));
	memset(newbuf, 0, sizeof(newbuf));
	/* the first 100 bytes: process_vm_writev may have written on */
	r = pread(fd, newbuf, 100, (uintptr_t)buf);
	ok = r == 100 && !memcmp(newbuf, want, 100);
	tt_say("/proc/PID/mem read: %d bytes, the child's: %s\n", (int)r,
	       ok ? "yes" : "no");
	tt_check(ok);
	r = pwrite(fd, "and /proc/PID/mem", 17, (uintptr_t)buf + 150);
	tt_check(r == 17);
	close(fd);
}

static void cross_process(void)
{
	int go[2], done[2], status, vm;
	char want[200];
	ssize_t r;
	pid_t pid;
	char c;

	for (r = 0; r < (ssize_t)sizeof(buf); r++)
		buf[r] = (char)('a' + r % 26);
	tt_sys(pipe(go));
	tt_sys(pipe(done));
	pid = tt_sys(fork());
	if (pid == 0) {
		/* change its copy, let the parent read it, then check */
		close(go[1]);		/* EOF, not a hang, if the parent dies */
		memcpy(buf, "child's words", 13);
		if (write(done[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(10 + !memcmp(buf + 100, "parent wrote this", 17) +
		      2 * !memcmp(buf + 150, "and /proc/PID/mem", 17));
	}
	tt_check(read(done[0], &c, 1) == 1);
	/* what the child holds: its words over the parent's pattern */
	memcpy(want, buf, sizeof(want));
	memcpy(want, "child's words", 13);
	vm = vm_calls(pid, want);
	proc_mem(pid, want);
	tt_check(write(go[1], "g", 1) == 1);
	tt_sys(waitpid(pid, &status, 0));
	tt_say("the child saw the parent's writes: %s\n",
	       WIFEXITED(status) && WEXITSTATUS(status) == 12 + vm ?
	       "yes" : "no");
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 12 + vm);
}

TT_MAIN
{
	pipe_and_file();
	cross_process();
	tt_ok();
	return 0;
}
