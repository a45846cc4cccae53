// SPDX-License-Identifier: GPL-2.0
/*
 * sys_vdso_sym: the vDSO called by hand, not through libc. The program
 * finds the vDSO image (getauxval(AT_SYSINFO_EHDR)), walks its dynamic
 * section to the symbol table (DT_HASH's chain count, or DT_GNU_HASH's
 * buckets and chains) and looks up clock_gettime, clock_getres,
 * gettimeofday and getcpu (x86 __vdso_*, POWER __kernel_*), then calls
 * them directly 20 times each, comparing with the system calls:
 * MONOTONIC between two syscall readings, REALTIME with gettimeofday,
 * getres equal. Also a clock the vDSO hands to the kernel itself
 * (CLOCK_PROCESS_CPUTIME_ID: the system call made from vDSO code), and
 * an invalid clock id (error: x86 -EINVAL, POWER EINVAL with cr0.SO,
 * seen here as a nonzero return). POWER also calls
 * __kernel_sync_dicache on freshly written code before running it.
 *
 * Catches: a tracer that can't step vDSO code reached by an indirect
 * call from anywhere (not libc's call sites), or a system call made
 * from the vDSO's text; or that breaks the vDSO's return conventions.
 */
#include "../tt.h"
#include <elf.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>

#if defined(__x86_64__)
#define VDSO(n)	"__vdso_" n
#elif defined(__powerpc64__)
#define VDSO(n)	"__kernel_" n
#endif

typedef int (*gettime_t)(clockid_t, struct timespec *);
typedef int (*gettod_t)(struct timeval *, void *);
typedef int (*getcpu_t)(unsigned int *, unsigned int *, void *);

static const Elf64_Sym *symtab;
static const char *strtab;
static unsigned long nsyms, load_bias;

static unsigned long gnu_count(const uint32_t *h)
{
	uint32_t nbuckets = h[0], symoffset = h[1], bloom = h[2];
	const uint32_t *buckets = h + 4 + bloom * 2;	/* 64-bit words */
	const uint32_t *chain = buckets + nbuckets;
	uint32_t i, max = 0;

	for (i = 0; i < nbuckets; i++)
		if (buckets[i] > max)
			max = buckets[i];
	if (max < symoffset)
		return symoffset;
	while (!(chain[max - symoffset] & 1))
		max++;
	return max + 1;
}

static int vdso_init(void)
{
	const Elf64_Ehdr *eh = (void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	const Elf64_Dyn *dyn = NULL;
	int i;

	if (!eh)
		return 0;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	load_bias = 0;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !load_bias)
			load_bias = (uintptr_t)eh + ph[i].p_offset -
				    ph[i].p_vaddr;
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)((const char *)eh + ph[i].p_offset);
	}
	if (!dyn)
		return 0;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		const void *p = (const void *)(dyn->d_un.d_ptr + load_bias);

		if (dyn->d_tag == DT_SYMTAB)
			symtab = p;
		else if (dyn->d_tag == DT_STRTAB)
			strtab = p;
		else if (dyn->d_tag == DT_HASH)
			nsyms = ((const uint32_t *)p)[1];
		else if (dyn->d_tag == DT_GNU_HASH && !nsyms)
			nsyms = gnu_count(p);
	}
	return symtab && strtab && nsyms;
}

static void *vdso_sym(const char *name)
{
	unsigned long i;

	for (i = 0; i < nsyms; i++)
		if (symtab[i].st_shndx != SHN_UNDEF &&
		    ELF64_ST_TYPE(symtab[i].st_info) == STT_FUNC &&
		    !strcmp(strtab + symtab[i].st_name, name))
			return (void *)(symtab[i].st_value + load_bias);
	return NULL;
}

static int le(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec <= b->tv_nsec);
}

static void times(gettime_t gt, gettime_t gr, gettod_t tod)
{
	struct timespec a, b, v, r1, r2;
	struct timeval tv;
	int i, bad = 0, badres = 0, badtod = 0;

	for (i = 0; i < 20; i++) {
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &a);
		bad += gt(CLOCK_MONOTONIC, &v) != 0;
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &b);
		bad += !le(&a, &v) || !le(&v, &b);
		syscall(SYS_clock_gettime, CLOCK_REALTIME, &a);
		badtod += tod(&tv, NULL) != 0;
		badtod += tv.tv_sec < a.tv_sec || tv.tv_sec > a.tv_sec + 2;
		if (gr) {
			badres += gr(CLOCK_MONOTONIC, &r1) != 0;
			syscall(SYS_clock_getres, CLOCK_MONOTONIC, &r2);
			badres += r1.tv_sec != r2.tv_sec ||
				  r1.tv_nsec != r2.tv_nsec;
		}
	}
	tt_say("clock_gettime MONOTONIC between two syscalls: %s\n",
	       bad ? "no" : "yes");
	tt_say("gettimeofday agrees with REALTIME: %s\n", badtod ? "no" : "yes");
	tt_say("clock_getres: %s\n", !gr ? "not in this vDSO" :
	       badres ? "differs" : "same as the syscall");
	tt_check(!bad && !badtod && !badres);

	syscall(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &a);
	bad = gt(CLOCK_PROCESS_CPUTIME_ID, &v) != 0;
	syscall(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &b);
	bad += !le(&a, &v) || !le(&v, &b);
	tt_say("CPU-time clock (the vDSO's own system call): right: %s\n",
	       bad ? "no" : "yes");
	tt_check(!bad);
	tt_say("invalid clock: an error: %s\n", gt(1000, &v) ? "yes" : "no");
	tt_check(gt(1000, &v) != 0);
}

#if defined(__powerpc64__)
/* POWER: the vDSO's cache flush on code written here, then run */
static void dicache(void)
{
	void (*sync)(void *, void *) = vdso_sym(VDSO("sync_dicache"));
	uint32_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i, sum = 0;

	tt_check(p != MAP_FAILED);
	if (!sync) {
		tt_say("sync_dicache: not in this vDSO\n");
		return;
	}
	for (i = 0; i < 5; i++) {
		p[0] = 0x38600000u | (50 + i);		/* li r3, imm */
		p[1] = 0x4e800020u;			/* blr */
		sync(p, p + 2);
		sum += ((int (*)(void))(uintptr_t)p)();
	}
	tt_say("sync_dicache then run, 5 rounds: sum %d\n", sum);
	tt_check(sum == 260);
	munmap(p, 4096);
}
#else
static void dicache(void)
{
}
#endif

TT_MAIN
{
	gettime_t gt, gr;
	gettod_t tod;
	getcpu_t gc;
	unsigned int cpu = ~0u, node = ~0u;

	if (!vdso_init()) {
		tt_say("vDSO: not found\n");
		tt_ok();
		return 0;
	}
	gt = (gettime_t)vdso_sym(VDSO("clock_gettime"));
	gr = (gettime_t)vdso_sym(VDSO("clock_getres"));
	tod = (gettod_t)vdso_sym(VDSO("gettimeofday"));
	gc = (getcpu_t)vdso_sym(VDSO("getcpu"));
	tt_say("found clock_gettime %s, gettimeofday %s, getcpu %s\n",
	       gt ? "yes" : "no", tod ? "yes" : "no", gc ? "yes" : "no");
	tt_check(gt && tod);
	times(gt, gr, tod);
	if (gc) {
		tt_check(gc(&cpu, &node, NULL) == 0);
		tt_say("getcpu: a valid cpu: %s\n",
		       cpu < (unsigned int)sysconf(_SC_NPROCESSORS_CONF) ?
		       "yes" : "no");
		tt_check(cpu < (unsigned int)sysconf(_SC_NPROCESSORS_CONF));
	}
	dicache();
	tt_ok();
	return 0;
}
