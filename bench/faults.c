// SPDX-License-Identifier: GPL-2.0
/*
 * The perf script row of bench/dump.sh: a program that takes N page
 * faults (a write to each of 64 pages, then MADV_DONTNEED, again), so
 * that `perf record -e page-faults -c 1` makes a perf.data of N samples
 * on a machine without a branch-recording PMU; `perf script` then names
 * one user address a sample, as itrace-dump names two a record.
 *
 * usage: faults N
 */
#include <stdlib.h>
#include <sys/mman.h>

#define PAGES	64

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0, i;
	char *p = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < n; i++) {
		p[(i % PAGES) * 4096] = 1;
		if (i % PAGES == PAGES - 1)
			madvise(p, PAGES * 4096, MADV_DONTNEED);
	}
	return 0;
}
