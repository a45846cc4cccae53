/* SPDX-License-Identifier: GPL-2.0 */
/*
 * itrace-dump: what its parts share. A capture (docs/CAPTURE.md) is read
 * whole into one struct capture: the records in file order, and per
 * traced task every take of its mappings, each a struct take. The
 * symbolizer (sym.c, elfutils) names an address of a take; the outputs
 * (script.c, tree.c) walk the records. Userspace, single-threaded.
 */
#ifndef ITRACE_DUMP_H
#define ITRACE_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * what capture writes (version 3: records in binary blocks); the reader
 * takes versions 1 and 2 too
 */
#define CAPTURE_MAGIC	"itrace-capture 3"
#define CAPTURE_PREFIX	"itrace-capture "
#define MAPS_MAGIC	"itrace-maps 1"

/* Values a record carries at most (kdb-itrace/lib/ring.h's). */
#define REC_VALS	3

struct rec {
	uint64_t seq, from, to;
	uint64_t ns;		/* the kernel's monotonic clock; 0: version 1 */
	uint64_t val[REC_VALS];	/* kdb-itrace/lib/values.h says what they are */
	uint32_t pid;
	uint16_t cpu;
	uint8_t kind;		/* enum itrace_kind (kdb-itrace/lib/kind.h) */
	uint8_t nval;		/* val[0..nval) hold values */
};

struct map {
	uint64_t start, end, off;
	char perms[5];
	const char *build_id;	/* lower-case hex, or NULL */
	const char *path;
};

/* one `task` line and its `map` lines: the mappings of PID from SEQ on */
struct take {
	uint32_t pid, tgid;
	uint64_t seq;
	const char *comm;
	struct map *maps;
	size_t nr_maps, more;
	unsigned int line;	/* of the task line, for messages */
	void *dwfl;		/* sym.c's, made at the first lookup */
	char *comm_col;		/* script's comm column, made at first use */
};

struct capture {
	const char *name;	/* the file's, for messages */
	char *text;		/* the file, NUL-terminated, split in place */
	size_t len;
	char arch[16];
	unsigned int version;	/* 1: no times or values; 2; 3: blocks */
	struct rec *recs;
	size_t nr_recs, lost;
	struct take *takes;	/* sorted by pid, then seq */
	size_t nr_takes;
	bool ended;		/* the `end` line was there */
	uint64_t end_recs, end_lost;
	struct {		/* capture_rec_take()'s last answer */
		struct take *take;
		uint32_t pid;
		uint64_t from, until;
		bool valid;
	} last;
};

/* capfile.c: pure C, no elfutils (fuzzed: tests/fuzz/fuzz_capfile.c) */
int capture_parse(struct capture *c, char *text, size_t len, char *err,
		  size_t errlen);
void capture_free(struct capture *c);
bool capture_wire_rec(const unsigned char *b, struct rec *r);
struct take *capture_take(const struct capture *c, uint32_t pid,
			  uint64_t seq);
struct take *capture_rec_take(struct capture *c, const struct rec *r);
/*
 * A name of a task or map line (docs/CAPTURE.md: a byte outside printable
 * ASCII, or a backslash, as \ooo) with its bytes back, into @out (at
 * least strlen(@s) + 1 bytes). The names stay escaped everywhere else:
 * they are printed, and handed to libdwfl in /proc/PID/maps lines.
 */
void capture_unescape(char *out, const char *s);

/* sym.c: names of addresses, cached */
struct sym {
	const char *name;	/* "main+0x22", or "[unknown]" */
	const char *dso;	/* the mapping's path, or "[unknown]" */
	const char *func;	/* "main", or NULL when unknown */
	const char *srcline;	/* "tp_calls.c:31", or NULL */
	uint64_t func_start;	/* of func, 0 when unknown */
	const char *label;	/* as a call's target: "main" at its start,
				 * else name, else "0x5581e8a5f1c0" */
	char *text;		/* script's "name (dso)", made at first use */
	size_t text_len;
	/* code.c's, at first use: the instruction at the address */
	uint8_t code[16];
	uint8_t code_len;	/* 0: its bytes are not known */
	bool code_done;
	char *disasm;		/* "call 0x401136", or NULL */
};

struct sym_opts {
	const char *symfs;	/* prefix for every path, or NULL */
	bool srcline;		/* look up file:line too */
	bool inlines;		/* and the inlined frames at the address */
};

int sym_init(const struct sym_opts *o);
const struct sym *sym_lookup(struct capture *c, struct take *t, uint64_t addr);
void sym_exit(void);

/* outputs; each returns the exit status */
struct out_opts {
	const char *only_func;	/* calls: -F FUNC */
	int max_depth;		/* calls: -D DEPTH, 0: no limit */
	bool srcline;		/* script: -F +srcline */
	bool time;		/* script: -F +time */
	bool syscall;		/* script: -F +syscall */
	bool args;		/* script: -F +args */
	bool insn;		/* script: -F +insn */
	bool disasm;		/* script: -F +disasm */
};

/* code.c: the instruction at an address, from the captured files */
void code_of(struct capture *c, struct take *t, uint64_t addr,
	     const struct sym *s, bool disasm);
void code_exit(void);
/*
 * Up to @n bytes at @addr of @t's mappings, from the captured file that
 * maps it (sym.c's checked files), not past that mapping's end: how
 * many, 0 where no file holds the address. *@elf_class: the file's.
 */
size_t code_read(const struct take *t, uint64_t addr, void *buf, size_t n,
		 int *elf_class);
/* sym.c: the checked file a mapping names, for its bytes; -1: none */
int sym_code_file(const struct map *m, int *elf_class);

int out_script(struct capture *c, const struct out_opts *o, FILE *f);
int out_calls(struct capture *c, const struct out_opts *o, FILE *f);
int out_folded(struct capture *c, const struct out_opts *o, FILE *f);
int out_chrome(struct capture *c, const struct out_opts *o, FILE *f);
void tree_exit(void);

/* drain.c: the `capture` command, and reading a whole file */
int drain_main(int argc, char **argv);
int read_whole(int fd, char **text, size_t *len);
/* main.c: a file (or - for standard input) whole, writable */
int read_all(const char *name, char **text, size_t *len);
int capture_load(const char *in, struct capture *c, char **orig, size_t *len);
/* text.c */
int text_main(int argc, char **argv);
/* gdb.c */
int gdb_main(int argc, char **argv, struct sym_opts *so);

/* obuf.c: a fast output buffer */
struct obuf {
	FILE *f;
	char *buf;
	size_t len, cap;
	bool failed;
};

void ob_init(struct obuf *b, FILE *f);
void ob_flush(struct obuf *b);
int ob_close(struct obuf *b);
void ob_str(struct obuf *b, const char *s);
void ob_mem(struct obuf *b, const char *s, size_t n);
void ob_ch(struct obuf *b, char c);
void ob_u64(struct obuf *b, uint64_t v, int width);
void ob_hex(struct obuf *b, uint64_t v, int width);
void ob_pad(struct obuf *b, const char *s, int width);
void ob_json_str(struct obuf *b, const char *s);

#endif
