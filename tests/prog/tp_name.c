// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for names that are not printable (tests/vm/names.exp).
 * It names itself "tp\nx\033[31m" (prctl(PR_SET_NAME): a newline and an
 * escape sequence in its comm), maps FILE, a copy of this program under
 * a name of the same kind, readable and executable, and finds twice()
 * in that copy. It prints "tp_name: pid P ready, twice at 0xADDR" (ADDR
 * in the copy), blocks in a raw read() on FIFO (the test arms it
 * there), calls the copy's twice(21), writes "tp_name: twice 42" with a
 * raw write(), and blocks again; a second byte on the fifo ends it.
 *
 * usage: tp_name FIFO FILE     exit status 0 (1: twice went wrong,
 *                              2: bad arguments or FILE not mapped)
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "raw_syscall.h"
#include "self_maps.h"

__attribute__((noinline, noclone)) int twice(int x)
{
	return 2 * x;
}

int main(int argc, char **argv)
{
	static const char done[] = "tp_name: twice 42\n";
	int (*copy)(int);
	struct stat st;
	long off;
	char *map;
	char c;
	int fifo, fd;

	if (argc != 3)
		return 2;
	fifo = open(argv[1], O_RDWR);
	fd = open(argv[2], O_RDONLY);
	off = file_offset((unsigned long)twice);
	if (fifo < 0 || fd < 0 || fstat(fd, &st) || off < 0 ||
	    off >= st.st_size)
		return 2;
	map = mmap(NULL, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return 2;
	copy = (int (*)(int))(map + off);
	prctl(PR_SET_NAME, "tp\nx\033[31m", 0, 0, 0);
	printf("tp_name: pid %d ready, twice at %p\n", getpid(), (void *)copy);
	fflush(stdout);
	raw_syscall3(SYS_read, fifo, (long)&c, 1);
	if (copy(21) != 42)
		return 1;
	raw_syscall3(SYS_write, 1, (long)done, sizeof(done) - 1);
	raw_syscall3(SYS_read, fifo, (long)&c, 1);
	return 0;
}
