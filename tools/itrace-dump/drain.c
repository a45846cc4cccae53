// SPDX-License-Identifier: GPL-2.0
/*
 * `itrace-dump capture`: drains kdb-itrace's debugfs files into a
 * capture (docs/CAPTURE.md) while tracing runs. The binary stream
 * (`records`) is opened first, then the log copied (records logged
 * before the capture began, as text lines), then the stream read on
 * from the log's last seq, so nothing falls between the two; its
 * records go into the capture as they come, in binary blocks: nothing
 * is formatted on the traced machine, so the drain keeps up with insn
 * mode. The maps file is read at the start, every half second and at
 * the end; each take of a task's mappings (pid, seq) is written once.
 * Runs on the traced machine: plain C, no elfutils.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "dump.h"
#include "lib/wire.h"

#define RD_BUF		(1 << 20)
#define MAPS_EVERY_NS	500000000ull

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct drain {
	const char *dir;
	FILE *out;
	uint32_t *pids;		/* only these, if any */
	size_t nr_pids;
	uint64_t last_seq;	/* of the last record written */
	uint64_t first_seq;
	uint64_t recs, lost, max_recs;
	/* takes written: (pid, seq) */
	uint64_t (*takes)[2];
	size_t nr_takes;
	char *line;		/* a line split between two reads */
	size_t line_len;
	bool hello;		/* the stream's first record was read */
	unsigned char part[ITRACE_WIRE_SIZE];	/* a record split */
	size_t part_len;	/* between two reads */
	struct itrace_wire *block;	/* records for the next block */
	size_t nr_block;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static bool wanted(const struct drain *d, uint32_t pid)
{
	size_t i;

	if (!d->nr_pids)
		return true;
	for (i = 0; i < d->nr_pids; i++)
		if (d->pids[i] == pid)
			return true;
	return false;
}

/*
 * Everything @fd reads until its end, NUL-terminated, in *text (the
 * caller frees it). 0, or -1 with errno set. Shared with main.c.
 */
int read_whole(int fd, char **text, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *s = NULL, *ns;
	ssize_t got;

	for (;;) {
		if (!s || n + 1 >= cap) {
			cap = s ? cap * 2 : cap;
			ns = realloc(s, cap);
			if (!ns) {
				free(s);
				errno = ENOMEM;
				return -1;
			}
			s = ns;
		}
		got = read(fd, s + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(s);
			return -1;
		}
		if (!got)
			break;
		n += got;
	}
	s[n] = '\0';
	*text = s;
	*len = n;
	return 0;
}

/* kdb-itrace's debugfs file @name, whole */
static int read_file(const char *dir, const char *name, char **text,
		     size_t *len)
{
	char path[4096];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	ret = fd < 0 ? -1 : read_whole(fd, text, len);
	if (ret)
		fprintf(stderr, "itrace-dump: %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return ret;
}

static bool take_written(struct drain *d, uint64_t pid, uint64_t seq)
{
	uint64_t (*n)[2];
	size_t i;

	for (i = 0; i < d->nr_takes; i++)
		if (d->takes[i][0] == pid && d->takes[i][1] == seq)
			return true;
	n = realloc(d->takes, (d->nr_takes + 1) * sizeof(*n));
	if (!n)
		return true;
	d->takes = n;
	d->takes[d->nr_takes][0] = pid;
	d->takes[d->nr_takes++][1] = seq;
	return false;
}

/* Write the takes of the maps file not written yet. */
static int maps(struct drain *d)
{
	char *text, *s, *nl;
	bool copy = false;
	size_t len;

	if (read_file(d->dir, "maps", &text, &len))
		return -1;
	if (strncmp(text, MAPS_MAGIC "\n", strlen(MAPS_MAGIC) + 1)) {
		fprintf(stderr, "itrace-dump: %s/maps: not '%s' (a module of another version?)\n",
			d->dir, MAPS_MAGIC);
		free(text);
		return -1;
	}
	for (s = text + strlen(MAPS_MAGIC) + 1; *s; s = nl + 1) {
		unsigned long long pid, seq;

		nl = strchr(s, '\n');
		if (!nl)
			break;
		if (sscanf(s, "task %llu tgid %*u seq %llu ", &pid, &seq) == 2)
			copy = wanted(d, pid) && !take_written(d, pid, seq);
		if (copy)
			fwrite(s, 1, nl + 1 - s, d->out);
	}
	free(text);
	return 0;
}

/*
 * Does the record of @pid with @seq go into the capture (newer than the
 * last written, a wanted task, the -c count not reached)? Counted if so.
 */
static bool take_rec(struct drain *d, uint64_t seq, uint64_t pid)
{
	if (seq <= d->last_seq || !wanted(d, pid) ||
	    (d->max_recs && d->recs >= d->max_recs))
		return false;
	if (!d->first_seq)
		d->first_seq = seq;
	d->last_seq = seq;
	d->recs++;
	return true;
}

/* the decimal number at *s, and *s past it and one space; false if none */
static bool dec(const char **s, const char *end, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;

	if (p >= end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9')
		x = x * 10 + (*p++ - '0');
	if (p >= end || *p != ' ')
		return false;
	*v = x;
	*s = p + 1;
	return true;
}

/* One line of the log or the stream (no newline). */
static void line(struct drain *d, const char *s, size_t n)
{
	const char *p = s, *end = s + n;
	uint64_t seq, cpu, pid, lost;

	if (dec(&p, end, &seq) && dec(&p, end, &cpu) && dec(&p, end, &pid)) {
		if (!take_rec(d, seq, pid))
			return;
	} else if (n > 8 && !memcmp(s, "itrace: ", 8) &&
		   (p = s + 8, dec(&p, end, &lost))) {
		d->lost += lost;
	} else {
		fprintf(stderr, "itrace-dump: a line kdb-itrace does not write, left out: '%.*s'\n",
			(int)(n > 60 ? 60 : n), s);
		return;
	}
	fwrite(s, 1, n, d->out);
	fputc('\n', d->out);
}

/* The whole lines of @buf; a last partial one is kept for the next. */
static void lines(struct drain *d, char *buf, size_t n)
{
	char *s = buf, *nl, *j;

	while ((nl = memchr(s, '\n', buf + n - s))) {
		if (d->line_len) {
			j = realloc(d->line, d->line_len + (nl - s));
			if (j) {
				memcpy(j + d->line_len, s, nl - s);
				line(d, j, d->line_len + (nl - s));
				d->line = j;
			}
			d->line_len = 0;
		} else {
			line(d, s, nl - s);
		}
		s = nl + 1;
	}
	if (s < buf + n) {
		j = realloc(d->line, d->line_len + (buf + n - s));
		if (j) {
			memcpy(j + d->line_len, s, buf + n - s);
			d->line = j;
			d->line_len += buf + n - s;
		}
	}
}

static int log_copy(struct drain *d)
{
	char *text;
	size_t len;

	if (read_file(d->dir, "log", &text, &len))
		return -1;
	lines(d, text, len);
	free(text);
	return 0;
}

/* Write the records gathered since the last block as one block. */
static void block_flush(struct drain *d)
{
	if (!d->nr_block)
		return;
	fprintf(d->out, "records %zu\n", d->nr_block);
	fwrite(d->block, sizeof(*d->block), d->nr_block, d->out);
	d->nr_block = 0;
}

/* the capture's byte order (little endian), in place */
static void wire_le(struct itrace_wire *w)
{
	unsigned int i;

	w->seq = htole64(w->seq);
	w->from = htole64(w->from);
	w->to = htole64(w->to);
	w->ns = htole64(w->ns);
	for (i = 0; i < ITRACE_WIRE_VALS; i++)
		w->val[i] = htole64(w->val[i]);
	w->pid = htole32(w->pid);
	w->cpu = htole16(w->cpu);
}

/*
 * One record of the binary stream; -1 if the stream is not one this
 * itrace-dump reads (the module of another version).
 */
static int wire(struct drain *d, const struct itrace_wire *w)
{
	if (!d->hello) {
		if (w->kind != ITRACE_WIRE_HELLO || w->val[0] != ITRACE_WIRE_VERSION ||
		    w->val[1] != ITRACE_WIRE_SIZE) {
			fprintf(stderr, "itrace-dump: %s/records: not version %d of 64-byte records (a module of another version?)\n",
				d->dir, ITRACE_WIRE_VERSION);
			return -1;
		}
		d->hello = true;
		return 0;
	}
	if (w->kind == ITRACE_WIRE_LOST) {
		block_flush(d);
		d->lost += w->val[0];
		fprintf(d->out, "itrace: %llu record%s lost (not read in time)\n",
			(unsigned long long)w->val[0], w->val[0] == 1 ? "" : "s");
		return 0;
	}
	if (!take_rec(d, w->seq, w->pid))
		return 0;
	d->block[d->nr_block] = *w;
	wire_le(&d->block[d->nr_block++]);
	return 0;
}

/*
 * The whole records of @buf (@n bytes), after the part of one that the
 * last read ended in; a last partial one is kept for the next.
 */
static int wires(struct drain *d, const unsigned char *buf, size_t n)
{
	struct itrace_wire w;
	size_t k;

	if (d->part_len) {
		k = sizeof(w) - d->part_len;
		if (k > n)
			k = n;
		memcpy(d->part + d->part_len, buf, k);
		d->part_len += k;
		buf += k;
		n -= k;
		if (d->part_len < sizeof(w))
			return 0;
		memcpy(&w, d->part, sizeof(w));
		d->part_len = 0;
		if (wire(d, &w))
			return -1;
	}
	for (; n >= sizeof(w); buf += sizeof(w), n -= sizeof(w)) {
		memcpy(&w, buf, sizeof(w));
		if (wire(d, &w))
			return -1;
	}
	memcpy(d->part, buf, n);
	d->part_len = n;
	block_flush(d);
	return 0;
}

/* Read what the stream has; 1 if it had something, 0 if not, -1. */
static int stream_read(struct drain *d, int fd, unsigned char *buf)
{
	ssize_t n = read(fd, buf, RD_BUF);

	if (n > 0)
		return wires(d, buf, n) ? -1 : 1;
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		fprintf(stderr, "itrace-dump: %s/records: %s\n", d->dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: itrace-dump capture [-o FILE] [-d DIR] [-t SECONDS] [-c RECORDS]\n"
	      "                           [--no-log] [PID...]\n"
	      "  drains kdb-itrace's log, stream and maps into a capture until\n"
	      "  interrupted (Ctrl-C), SECONDS pass or RECORDS are written\n"
	      "  -o FILE      write to FILE (default: standard output)\n"
	      "  -d DIR       kdb-itrace's debugfs directory (/sys/kernel/debug/itrace)\n"
	      "  --no-log     leave out the records logged before the capture began\n"
	      "  PID...       only the records and mappings of these tasks\n", f);
}

static int parse_args(struct drain *d, int argc, char **argv, double *secs,
		      bool *no_log, const char **out)
{
	static const struct option lo[] = {
		{ "no-log", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:d:t:c:h", lo, NULL)) != -1) {
		switch (c) {
		case 'o':
			*out = optarg;
			break;
		case 'd':
			d->dir = optarg;
			break;
		case 't':
			*secs = strtod(optarg, &end);
			if (*end || *secs <= 0) {
				fprintf(stderr, "itrace-dump capture: -t: want seconds above 0, not '%s'\n", optarg);
				return -1;
			}
			break;
		case 'c':
			d->max_recs = strtoull(optarg, &end, 10);
			if (*end || !d->max_recs || optarg[0] == '-') {
				fprintf(stderr, "itrace-dump capture: -c: want a record count above 0, not '%s'\n", optarg);
				return -1;
			}
			break;
		case 'L':
			*no_log = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	for (; optind < argc; optind++) {
		unsigned long v = strtoul(argv[optind], &end, 10);
		uint32_t *n;

		if (*end || !v || v > UINT32_MAX || argv[optind][0] == '-') {
			fprintf(stderr, "itrace-dump capture: '%s' is not a pid\n", argv[optind]);
			return -1;
		}
		n = realloc(d->pids, (d->nr_pids + 1) * sizeof(*n));
		if (!n)
			return -1;
		d->pids = n;
		d->pids[d->nr_pids++] = v;
	}
	return 0;
}

static int run(struct drain *d, int fd, double secs)
{
	uint64_t start = now_ns(), next_maps = start + MAPS_EVERY_NS, t;
	unsigned char *buf = malloc(RD_BUF);
	int got = 0;

	d->block = malloc(RD_BUF / ITRACE_WIRE_SIZE * sizeof(*d->block) +
			  sizeof(*d->block));
	if (!buf || !d->block) {
		free(buf);
		return -1;
	}
	while (!stop && (!d->max_recs || d->recs < d->max_recs)) {
		got = stream_read(d, fd, buf);
		if (got < 0)
			break;
		t = now_ns();
		if (secs > 0 && t - start >= secs * 1e9)
			break;
		if (t >= next_maps) {
			maps(d);
			next_maps = t + MAPS_EVERY_NS;
		}
		if (!got)
			usleep(10000);
	}
	/*
	 * What was logged before the stop, then the last mappings. While a
	 * task is still traced the stream never runs dry: a second at most.
	 */
	t = now_ns() + 1000000000ull;
	while (got >= 0 && (!d->max_recs || d->recs < d->max_recs) &&
	       now_ns() < t && (got = stream_read(d, fd, buf)) > 0)
		;
	free(buf);
	free(d->block);
	d->block = NULL;
	return got < 0 ? -1 : maps(d);
}

int drain_main(int argc, char **argv)
{
	struct drain d = { .dir = "/sys/kernel/debug/itrace" };
	const char *out = NULL;
	bool no_log = false;
	char path[4096];
	struct utsname u;
	double secs = 0;
	uint64_t t0;
	int fd, rc;

	if (parse_args(&d, argc, argv, &secs, &no_log, &out))
		return 2;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	d.out = out ? fopen(out, "w") : stdout;
	if (!d.out) {
		fprintf(stderr, "itrace-dump: %s: %s\n", out, strerror(errno));
		return 1;
	}
	setvbuf(d.out, NULL, _IOFBF, 1 << 20);
	snprintf(path, sizeof(path), "%s/records", d.dir);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "itrace-dump: %s/records: %s (is kdb-itrace loaded, debugfs mounted, and are you root?)\n",
			d.dir, strerror(errno));
		return 1;
	}
	fprintf(stderr, "itrace-dump: capturing %s into %s (Ctrl-C to stop)\n", d.dir,
		out ? out : "standard output");
	uname(&u);
	fprintf(d.out, "%s arch %s\n", CAPTURE_MAGIC, u.machine);
	t0 = now_ns();
	rc = maps(&d);
	if (!rc && !no_log)
		rc = log_copy(&d);
	if (!rc)
		rc = run(&d, fd, secs);
	fprintf(d.out, "end records %llu lost %llu\n",
		(unsigned long long)d.recs, (unsigned long long)d.lost);
	if (fclose(d.out)) {
		fprintf(stderr, "itrace-dump: %s: %s\n", out ? out : "standard output",
			strerror(errno));
		rc = -1;
	}
	close(fd);
	t0 = now_ns() - t0;
	fprintf(stderr, "itrace-dump: %llu records (seq %llu..%llu), %llu lost, %zu takes of mappings, in %.1f s\n",
		(unsigned long long)d.recs, (unsigned long long)d.first_seq,
		(unsigned long long)d.last_seq, (unsigned long long)d.lost,
		d.nr_takes, t0 / 1e9);
	return rc ? 1 : 0;
}
