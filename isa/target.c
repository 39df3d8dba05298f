/*
 * target.c - reads, checks, prints and hashes target descriptions.
 *
 * Everything about a key lives in one row of NPU_TARGET_KEYS below: its
 * section, name, type, the npu_target field it fills, its range and a
 * one-line meaning.  The parser, the canonical text (and so the hash) and
 * the markdown reference in docs/target-format.md are all loops over that
 * table, so a key added there is parsed, hashed and documented at once.
 * Rules that tie several keys together are rows of NPU_TARGET_CHECKS, which
 * the docs list as well.
 *
 * libinih splits the text into sections and key = value pairs, but its
 * handler does not get line numbers and its behaviour (continuation lines,
 * inline comments, line length) depends on how the library was built.  So
 * inih reads through our own line reader, which counts lines, drops
 * comments and leading blanks (there are no continuation lines), and
 * rejects over-long lines instead of letting inih split them.
 */
#include "isa/target.h"

#include <errno.h>
#include <ini.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Folders searched by npu_target_resolve(), set by mk/target.am. */
#ifndef NPU_TARGETDIR
#define NPU_TARGETDIR ""
#endif
#ifndef NPU_SRCTARGETDIR
#define NPU_SRCTARGETDIR ""
#endif

#define KiB 1024.0
#define MiB (1024.0 * KiB)
#define GiB (1024.0 * MiB)
#define TiB (1024.0 * GiB)

/* SEC(ID, "name", "meaning") */
#define NPU_TARGET_SECTIONS(SEC) \
	SEC(TARGET, "target", "Identity and clock.") \
	SEC(MATRIX, "matrix", "The matrix unit (MXU): a rows x cols array of multiply-accumulate processing elements (PEs).") \
	SEC(SRAM,   "sram",   "Local memories: the scratchpad (local addresses from 0) and the accumulator SRAM (from NPU_ACC_BASE).") \
	SEC(VECTOR, "vector", "The vector unit: register width, throughput and latencies in cycles.") \
	SEC(SCALAR, "scalar", "The scalar unit, which fetches and dispatches every instruction.") \
	SEC(DMA,    "dma",    "DMA engines, which move data between DRAM and local memory.") \
	SEC(DRAM,   "dram",   "Device memory.") \
	SEC(HOST,   "host",   "The host link and the host model that runs hcall kernels.")

/*
 * KEY(SECTION, "key", TYPE, npu_target field, min, max, "meaning")
 *
 * Types: INT (decimal integer), SIZE (bytes, optionally with a K/M/G/T or
 * KiB/MiB/GiB/TiB suffix), DBL (decimal number), STR (a name: letters,
 * digits, '.', '_', '-'; min and max bound its length), DF (dataflow list)
 * and RATE (one DBL key rate_<dtype> per NPU_DTYPE, optional, default 0).
 * Every key but the RATE ones is required.  Units are in the meaning.
 */
#define NPU_TARGET_KEYS(KEY) \
	KEY(TARGET, "name",       STR,  name, 1, 63, "Target name; by convention the file is NAME.ini.") \
	KEY(TARGET, "clock_mhz",  DBL,  clock_mhz, 1, 100000, "Core clock in MHz; converts cycles to seconds.") \
	KEY(MATRIX, "rows",       INT,  mxu_rows, 1, 4096, "Array rows: the reduction (K) dimension of one pass.") \
	KEY(MATRIX, "cols",       INT,  mxu_cols, 1, 4096, "Array columns: the output (N) dimension of one pass.") \
	KEY(MATRIX, "dataflows",  DF,   dataflows, 0, 0, "Supported dataflows: ws (weight-stationary), os (output-stationary) or ws,os.") \
	KEY(MATRIX, "rate_",      RATE, mxu_rate, 0, 64, "MACs per PE per cycle for inputs of that dtype; 0 = not supported.") \
	KEY(MATRIX, "latency",    INT,  mxu_latency, 0, 65536, "Extra cycles from the last input to the result in the accumulator.") \
	KEY(SRAM,   "size",       SIZE, sram_bytes, KiB, GiB, "Scratchpad size in bytes.") \
	KEY(SRAM,   "banks",      INT,  sram_banks, 1, 1024, "Scratchpad banks: the address range split in equal parts.") \
	KEY(SRAM,   "port_bytes", INT,  sram_port_bytes, 1, 4096, "Bytes per cycle one scratchpad bank reads or writes.") \
	KEY(SRAM,   "acc_size",   SIZE, acc_bytes, KiB, GiB, "Accumulator SRAM size in bytes.") \
	KEY(SRAM,   "acc_banks",  INT,  acc_banks, 1, 1024, "Accumulator banks: the address range split in equal parts.") \
	KEY(VECTOR, "vlen",       INT,  vlen, 1, 4096, "Lanes per vector register.") \
	KEY(VECTOR, "lanes_per_cycle", INT, vec_lanes, 1, 4096, "Lanes the vector unit processes per cycle.") \
	KEY(VECTOR, "lat_alu",    INT,  lat_alu, 1, 4096, "Cycles of add, sub, min, max, compare, select and moves.") \
	KEY(VECTOR, "lat_mul",    INT,  lat_mul, 1, 4096, "Cycles of mul and fma.") \
	KEY(VECTOR, "lat_div",    INT,  lat_div, 1, 4096, "Cycles of div, rcp, sqrt and rsqrt.") \
	KEY(VECTOR, "lat_trans",  INT,  lat_trans, 1, 4096, "Cycles of exp, log, tanh, erf, sigmoid, sin, cos and pow.") \
	KEY(VECTOR, "ii_trans",   INT,  ii_trans, 1, 4096, "Cycles between two transcendental issues.") \
	KEY(VECTOR, "lat_red",    INT,  lat_red, 1, 4096, "Cycles of a reduction across lanes.") \
	KEY(VECTOR, "lat_ld",     INT,  lat_ld, 1, 4096, "Cycles of a vector load from the scratchpad.") \
	KEY(SCALAR, "queue_depth", INT, queue_depth, 1, 1024, "Entries in each unit's instruction queue.") \
	KEY(SCALAR, "lat_branch", INT,  lat_branch, 0, 1024, "Extra cycles of a taken branch.") \
	KEY(DMA,    "engines",    INT,  dma_engines, 1, NPU_MAX_DMA, "DMA engines (dma0 and up).") \
	KEY(DMA,    "bytes_per_cycle", DBL, dma_bytes_per_cycle, 0.001, 1048576, "Bytes per cycle of one engine.") \
	KEY(DMA,    "setup",      INT,  dma_setup, 0, 1000000, "Cycles to start a transfer.") \
	KEY(DRAM,   "size",       SIZE, dram_bytes, MiB, TiB, "DRAM size in bytes.") \
	KEY(DRAM,   "bytes_per_cycle", DBL, dram_bytes_per_cycle, 0.001, 1048576, "Bytes per cycle of all channels together.") \
	KEY(DRAM,   "latency",    INT,  dram_latency, 0, 1000000, "Cycles from a request to its first data.") \
	KEY(DRAM,   "channels",   INT,  dram_channels, 1, 1024, "Independent channels.") \
	KEY(DRAM,   "burst",      INT,  dram_burst, 1, 65536, "Bytes per burst, the smallest transfer (a power of two).") \
	KEY(DRAM,   "interleave", INT,  dram_interleave, 1, 1073741824, "Bytes of one stripe; consecutive stripes go to consecutive channels.") \
	KEY(HOST,   "link_bytes_per_cycle", DBL, host_bytes_per_cycle, 0.001, 1048576, "Bytes per cycle of the host link.") \
	KEY(HOST,   "latency",    INT,  host_latency, 0, 100000000, "Cycles of one host call before its data moves.") \
	KEY(HOST,   "flops_per_cycle", DBL, host_flops_per_cycle, 0.001, 1e9, "Floating-point operations per cycle of the host model.")

/*
 * CHECK(SECTION, "key", condition on t, "rule") - run once every key is
 * set; a failed rule is reported at the line of the key it names.
 */
#define NPU_TARGET_CHECKS(CHECK) \
	CHECK(MATRIX, "rate_", any_rate(t), "at least one must be nonzero") \
	CHECK(SRAM, "size", t->sram_bytes % (uint64_t)t->sram_banks == 0, "must be a multiple of [sram] banks") \
	CHECK(SRAM, "port_bytes", t->sram_bytes / (uint64_t)t->sram_banks % (uint64_t)t->sram_port_bytes == 0, "must divide the size of one bank ([sram] size / banks)") \
	CHECK(SRAM, "acc_size", t->acc_bytes % (uint64_t)t->acc_banks == 0, "must be a multiple of [sram] acc_banks") \
	CHECK(VECTOR, "vlen", t->vlen >= t->vec_lanes, "must be at least [vector] lanes_per_cycle") \
	CHECK(DRAM, "burst", (t->dram_burst & (t->dram_burst - 1)) == 0, "must be a power of two") \
	CHECK(DRAM, "interleave", t->dram_interleave % t->dram_burst == 0, "must be a multiple of [dram] burst")

enum tsec {
#define SEC(id, name, doc) SEC_##id,
	NPU_TARGET_SECTIONS(SEC)
#undef SEC
	NSEC
};

enum ttype { T_INT, T_SIZE, T_DBL, T_STR, T_DF, T_RATE };

struct tkey {
	uint8_t sec;     /* enum tsec */
	uint8_t type;    /* enum ttype */
	const char *key; /* for T_RATE, the prefix of rate_<dtype> */
	size_t off;      /* of the field in npu_target */
	double lo, hi;   /* range; for T_STR, of the length */
	const char *doc;
};

static const char *const secname[NSEC] = {
#define SEC(id, name, doc) name,
	NPU_TARGET_SECTIONS(SEC)
#undef SEC
};

static const char *const secdoc[NSEC] = {
#define SEC(id, name, doc) doc,
	NPU_TARGET_SECTIONS(SEC)
#undef SEC
};

static const struct tkey keytab[] = {
#define KEY(sec, key, type, field, lo, hi, doc) \
	{ SEC_##sec, T_##type, key, offsetof(npu_target, field), lo, hi, doc },
	NPU_TARGET_KEYS(KEY)
#undef KEY
};

#define NKEYROW (sizeof keytab / sizeof keytab[0])
/* Keys in all: one per row, NPU_NDTYPE for the RATE row. */
#define NSLOT (NKEYROW + NPU_NDTYPE - 1)

static const char *const dtname[NPU_NDTYPE] = {
#define NPU_DTYPE(name, asm, size, torch) asm,
#include "isa/npu.def"
#undef NPU_DTYPE
};

static const char *const dfname[] = { "ws", "os" }; /* bit i = 1 << i */

/* The canonical text of any target fits here (about 1.5 KiB in practice). */
#define CANON_MAX NPU_TARGET_TEXT_MAX

/*
 * Numbers are read with strtod() and printed with "%.17g", which follow
 * LC_NUMERIC: a program that called setlocale() could read "0.25" as 0 or
 * print "0,25" and so change every hash.  The public functions switch this
 * thread to the C locale while they run.
 */
struct cloc {
	locale_t c, old;
};

static void cloc_enter(struct cloc *l)
{
	l->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	l->old = l->c ? uselocale(l->c) : (locale_t)0;
}

static void cloc_leave(struct cloc *l)
{
	if (!l->c)
		return;
	uselocale(l->old);
	freelocale(l->c);
}

static int any_rate(const npu_target *t)
{
	for (int i = 0; i < NPU_NDTYPE; i++)
		if (t->mxu_rate[i] != 0)
			return 1;
	return 0;
}

/* Keys of one row: NPU_NDTYPE for the RATE row, else 1. */
static int row_width(const struct tkey *k)
{
	return k->type == T_RATE ? NPU_NDTYPE : 1;
}

/* Index of key `sub` of row r among all keys (for the seen-lines array). */
static int slot_of(size_t r, int sub)
{
	int s = 0;

	for (size_t i = 0; i < r; i++)
		s += row_width(&keytab[i]);
	return s + sub;
}

/* The key's name as written in files: "rows", "rate_bf16". */
static void key_name(const struct tkey *k, int sub, char *buf, size_t n)
{
	if (k->type == T_RATE)
		snprintf(buf, n, "%s%s", k->key, sub < 0 ? "<dtype>" : dtname[sub]);
	else
		snprintf(buf, n, "%s", k->key);
}

static void *field(npu_target *t, const struct tkey *k, int sub)
{
	char *p = (char *)t + k->off;

	return k->type == T_RATE ? p + (size_t)sub * sizeof(double) : p;
}

static const void *cfield(const npu_target *t, const struct tkey *k, int sub)
{
	return field((npu_target *)t, k, sub);
}

/* Bytes, with the largest binary suffix that divides them: "24MiB". */
static void fmt_size(uint64_t v, char *buf, size_t n)
{
	static const char *const sfx[] = { "KiB", "MiB", "GiB", "TiB" };
	int i = -1;

	while (v && i < 3 && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	snprintf(buf, n, "%llu%s", (unsigned long long)v, i < 0 ? "" : sfx[i]);
}

/* "1..4096", "1KiB..1GiB", "1..63 characters". */
static void fmt_range(const struct tkey *k, char *buf, size_t n)
{
	char lo[32], hi[32];

	switch (k->type) {
	case T_SIZE:
		fmt_size((uint64_t)k->lo, lo, sizeof lo);
		fmt_size((uint64_t)k->hi, hi, sizeof hi);
		snprintf(buf, n, "%s..%s", lo, hi);
		break;
	case T_STR:
		snprintf(buf, n, "%.0f..%.0f characters", k->lo, k->hi);
		break;
	case T_DF:
		snprintf(buf, n, "ws, os or ws,os");
		break;
	default:
		snprintf(buf, n, "%.15g..%.15g", k->lo, k->hi);
		break;
	}
}

/* ---- values ------------------------------------------------------------ */

/*
 * The value parsers return 0, or -1 after writing why into why (without
 * the key, which the caller adds).
 */

static int parse_int(const struct tkey *k, const char *v, int *out,
		     char *why, size_t n)
{
	char *end;
	long long x;

	errno = 0;
	if (!(v[0] >= '0' && v[0] <= '9') &&
	    !((v[0] == '-' || v[0] == '+') && v[1] >= '0' && v[1] <= '9'))
		goto bad;
	x = strtoll(v, &end, 10);
	if (*end)
		goto bad;
	if (errno == ERANGE)
		return snprintf(why, n, "'%s' overflows", v), -1;
	if (x < k->lo || x > k->hi) {
		char r[64];
		fmt_range(k, r, sizeof r);
		return snprintf(why, n, "%s is out of range %s", v, r), -1;
	}
	*out = (int)x;
	return 0;
bad:
	snprintf(why, n, "'%s' is not an integer", v);
	return -1;
}

static int parse_size(const struct tkey *k, const char *v, uint64_t *out,
		      char *why, size_t n)
{
	static const struct { const char *s; int shift; } sfx[] = {
		{ "", 0 }, { "K", 10 }, { "KiB", 10 }, { "M", 20 }, { "MiB", 20 },
		{ "G", 30 }, { "GiB", 30 }, { "T", 40 }, { "TiB", 40 },
	};
	unsigned long long x;
	const char *s;
	char *end;
	size_t i;

	/* strtoull() would accept a sign and negate; sizes have none. */
	if (!(v[0] >= '0' && v[0] <= '9'))
		goto bad;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno == ERANGE)
		return snprintf(why, n, "'%s' overflows", v), -1;
	for (s = end; *s == ' ' || *s == '\t'; s++)
		;
	for (i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
		if (!strcmp(s, sfx[i].s) && (s == end || *s))
			break;
	if (i == sizeof sfx / sizeof sfx[0])
		goto bad;
	if (x > UINT64_MAX >> sfx[i].shift)
		return snprintf(why, n, "'%s' overflows", v), -1;
	x <<= sfx[i].shift;
	if ((double)x < k->lo || (double)x > k->hi) {
		char r[64];
		fmt_range(k, r, sizeof r);
		return snprintf(why, n, "%s is out of range %s", v, r), -1;
	}
	*out = x;
	return 0;
bad:
	snprintf(why, n, "'%s' is not a size (bytes, or a whole number "
		 "with K, M, G, T, KiB, MiB, GiB or TiB)", v);
	return -1;
}

/*
 * Decimal numbers only: strtod() alone would also take "inf", "nan" and
 * hex floats, which no target needs and which would not survive the trip
 * through "%.17g" the same way.
 */
static int parse_dbl(const struct tkey *k, const char *v, double *out,
		     char *why, size_t n)
{
	char *end;
	double x;

	if (!*v || v[strspn(v, "0123456789.eE+-")] || !strpbrk(v, "0123456789"))
		goto bad;
	errno = 0;
	x = strtod(v, &end);
	if (*end)
		goto bad;
	if (errno == ERANGE || !isfinite(x))
		return snprintf(why, n, "'%s' is out of the range of a double", v), -1;
	if (x == 0)
		x = 0; /* -0 and 0 print the same in the canonical form */
	if (x < k->lo || x > k->hi) {
		char r[64];
		fmt_range(k, r, sizeof r);
		return snprintf(why, n, "%s is out of range %s", v, r), -1;
	}
	*out = x;
	return 0;
bad:
	snprintf(why, n, "'%s' is not a number", v);
	return -1;
}

static int parse_str(const struct tkey *k, const char *v, char *out,
		     char *why, size_t n)
{
	size_t len = strlen(v);

	if (v[strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		     "0123456789._-")])
		return snprintf(why, n, "'%s' has a character other than "
				"letters, digits, '.', '_' and '-'", v), -1;
	if (len < k->lo || len > k->hi) {
		char r[64];
		fmt_range(k, r, sizeof r);
		return snprintf(why, n, "'%s' has %zu characters, not %s", v,
				len, r), -1;
	}
	memcpy(out, v, len + 1);
	return 0;
}

/* "ws", "os", "ws,os", "os , ws": each name once, at least one. */
static int parse_df(const char *v, unsigned *out, char *why, size_t n)
{
	unsigned bits = 0;
	const char *p = v;

	for (;;) {
		size_t len;
		unsigned b = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, ", \t");
		for (size_t i = 0; i < sizeof dfname / sizeof dfname[0]; i++)
			if (len == strlen(dfname[i]) && !strncmp(p, dfname[i], len))
				b = 1u << i;
		if (!b) {
			if (!*v)
				return snprintf(why, n, "empty list (give ws, os "
						"or ws,os)"), -1;
			return snprintf(why, n, "'%.*s' is not a dataflow "
					"(ws or os)", (int)len, p), -1;
		}
		if (bits & b)
			return snprintf(why, n, "%.*s is listed twice",
					(int)len, p), -1;
		bits |= b;
		p += len;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (*p != ',')
			return snprintf(why, n, "'%s' is not a comma-separated "
					"list of ws and os", v), -1;
		p++;
	}
	*out = bits;
	return 0;
}

static int set_value(npu_target *t, const struct tkey *k, int sub,
		     const char *v, char *why, size_t n)
{
	void *f = field(t, k, sub);

	switch (k->type) {
	case T_INT:
		return parse_int(k, v, f, why, n);
	case T_SIZE:
		return parse_size(k, v, f, why, n);
	case T_DBL:
	case T_RATE:
		return parse_dbl(k, v, f, why, n);
	case T_STR:
		return parse_str(k, v, f, why, n);
	case T_DF:
		return parse_df(v, f, why, n);
	}
	return -1;
}

/* The canonical text of one value. */
static void fmt_value(const npu_target *t, const struct tkey *k, int sub,
		      char *buf, size_t n)
{
	const void *f = cfield(t, k, sub);
	unsigned df;
	size_t len = 0;

	switch (k->type) {
	case T_INT:
		snprintf(buf, n, "%d", *(const int *)f);
		break;
	case T_SIZE:
		fmt_size(*(const uint64_t *)f, buf, n);
		break;
	case T_DBL:
	case T_RATE:
		snprintf(buf, n, "%.17g", *(const double *)f);
		break;
	case T_STR:
		snprintf(buf, n, "%s", (const char *)f);
		break;
	case T_DF:
		df = *(const unsigned *)f;
		buf[0] = '\0';
		for (size_t i = 0; i < sizeof dfname / sizeof dfname[0]; i++)
			if (df & 1u << i)
				len += snprintf(buf + len, n - len, "%s%s",
						len ? "," : "", dfname[i]);
		break;
	}
}

/* ---- parsing ----------------------------------------------------------- */

struct pctx {
	npu_target *t;
	const char *name;     /* file name, for messages */
	const char *p, *end;  /* the text not yet read */
	int line;             /* the line inih is working on */
	int seen[NSLOT];      /* line of each key, 0 while unset */
	int err_line;         /* line of the first error, 0 for none */
	char err[NPU_ERR_MAX];
};

static void fail(struct pctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Keeps the first error: the reader stops at it, so it is the earliest. */
static void fail(struct pctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err_line)
		return;
	c->err_line = c->line;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof c->err, fmt, ap);
	va_end(ap);
}

static int find_section(const char *s, size_t len)
{
	for (int i = 0; i < NSEC; i++)
		if (strlen(secname[i]) == len && !strncmp(s, secname[i], len))
			return i;
	return -1;
}

/* Finds the row and, for rate_<dtype>, the dtype of a key; -1 if none. */
static int find_key(int sec, const char *name, int *sub)
{
	for (size_t r = 0; r < NKEYROW; r++) {
		const struct tkey *k = &keytab[r];
		size_t pl = strlen(k->key);

		if (k->sec != sec)
			continue;
		*sub = 0;
		if (k->type != T_RATE) {
			if (!strcmp(name, k->key))
				return (int)r;
			continue;
		}
		if (strncmp(name, k->key, pl))
			continue;
		for (int d = 0; d < NPU_NDTYPE; d++)
			if (!strcmp(name + pl, dtname[d])) {
				*sub = d;
				return (int)r;
			}
	}
	return -1;
}

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

/*
 * A "[ name ]" line: checks the name and hands it to inih as "[name]"
 * (inih would keep the blanks, and ignore anything after the ']').
 */
static char *section_line(struct pctx *c, char *buf, const char *s,
			  size_t len)
{
	const char *a = s + 1, *b = memchr(s, ']', len);
	size_t rest = len - (size_t)(b - s) - 1;

	if (rest) {
		fail(c, "%.*s: text after the section name", (int)len, s);
		return NULL;
	}
	while (a < b && is_blank(*a))
		a++;
	while (b > a && is_blank(b[-1]))
		b--;
	if (find_section(a, (size_t)(b - a)) < 0) {
		fail(c, "[%.*s]: unknown section", (int)(b - a), a);
		return NULL;
	}
	snprintf(buf, (size_t)(b - a) + 4, "[%.*s]\n", (int)(b - a), a);
	return buf;
}

/*
 * inih's line reader: hands inih one line at a time, without leading
 * blanks and comments (';' or '#' at the start or after a blank), and
 * checks section names, which inih does not report by themselves.
 */
static char *read_line(char *buf, int num, void *stream)
{
	struct pctx *c = stream;
	const char *s = c->p, *nl;
	size_t len;

	if (c->err_line || c->p >= c->end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(c->end - s));
	len = (size_t)((nl ? nl : c->end) - s);
	c->p = nl ? nl + 1 : c->end;
	c->line++;
	if (memchr(s, '\0', len)) {
		fail(c, "NUL byte in the text");
		return NULL;
	}
	if (c->line == 1 && len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		s += 3, len -= 3;
	while (len && is_blank(*s))
		s++, len--;
	if (len && (*s == ';' || *s == '#'))
		len = 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] == ';' || s[i] == '#') && is_blank(s[i - 1]))
			len = i;
	while (len && is_blank(s[len - 1]))
		len--;
	if (num < 3 || len > (size_t)num - 3) {
		fail(c, "line too long (at most %d characters)", num - 3);
		return NULL;
	}
	if (len && *s == '[' && memchr(s, ']', len))
		return section_line(c, buf, s, len);
	memcpy(buf, s, len);
	buf[len] = '\n';
	buf[len + 1] = '\0';
	return buf;
}

static int on_key(void *user, const char *section, const char *name,
		  const char *value)
{
	struct pctx *c = user;
	char why[NPU_ERR_MAX - 128], kn[64];
	int sec, row, sub, slot;

	if (c->err_line || !name)
		return 1;
	sec = find_section(section, strlen(section));
	if (sec < 0) {
		if (!*section)
			fail(c, "%s: key outside any section", name);
		else
			fail(c, "[%s]: unknown section", section);
		return 1;
	}
	row = find_key(sec, name, &sub);
	if (row < 0) {
		fail(c, "[%s] %s: unknown key", section, name);
		return 1;
	}
	key_name(&keytab[row], sub, kn, sizeof kn);
	slot = slot_of((size_t)row, sub);
	if (c->seen[slot]) {
		fail(c, "[%s] %s: duplicate key (first set on line %d)",
		     section, kn, c->seen[slot]);
		return 1;
	}
	if (!value || !*value) {
		fail(c, "[%s] %s: missing value", section, kn);
		return 1;
	}
	if (set_value(c->t, &keytab[row], sub, value, why, sizeof why) < 0) {
		fail(c, "[%s] %s: %s", section, kn, why);
		return 1;
	}
	c->seen[slot] = c->line;
	return 1;
}

/* Every required key is there; 0 or -1 (e set). */
static int check_missing(struct pctx *c, npu_err *e)
{
	for (size_t r = 0; r < NKEYROW; r++) {
		const struct tkey *k = &keytab[r];

		if (k->type == T_RATE || c->seen[slot_of(r, 0)])
			continue;
		return npu_errf(e, "%s: [%s] %s: missing key", c->name,
				secname[k->sec], k->key);
	}
	return 0;
}

/* The line of the key a rule names (the first rate_ key for RATE). */
static int line_of(const struct pctx *c, int sec, const char *key)
{
	for (size_t r = 0; r < NKEYROW; r++) {
		if (keytab[r].sec != sec || strcmp(keytab[r].key, key))
			continue;
		for (int i = 0; i < row_width(&keytab[r]); i++)
			if (c->seen[slot_of(r, i)])
				return c->seen[slot_of(r, i)];
	}
	return 0;
}

static int check_rules(struct pctx *c, npu_err *e)
{
	const npu_target *t = c->t;
	int line;

#define CHECK(sec, key, cond, rule) \
	if (!(cond)) { \
		line = line_of(c, SEC_##sec, key); \
		return npu_errf(e, "%s:%d: [%s] %s: %s", c->name, line, \
				secname[SEC_##sec], \
				strcmp(key, "rate_") ? key : "rate_<dtype>", \
				rule); \
	}
	NPU_TARGET_CHECKS(CHECK)
#undef CHECK
	return 0;
}

static int parse_text(npu_target *t, const char *name, const char *text,
		      size_t len, npu_err *e)
{
	struct pctx c;
	int rc;

	memset(t, 0, sizeof *t);
	memset(&c, 0, sizeof c);
	c.t = t;
	c.name = name ? name : "<target>";
	c.p = text;
	c.end = text + len;
	rc = ini_parse_stream(read_line, &c, on_key, &c);
	/* inih's own complaints (no '=', no ']') are syntax errors. */
	if (rc > 0 && (!c.err_line || rc < c.err_line))
		return npu_errf(e, "%s:%d: syntax error (expected [section] "
				"or key = value)", c.name, rc);
	if (c.err_line)
		return npu_errf(e, "%s:%d: %s", c.name, c.err_line, c.err);
	if (rc < 0)
		return npu_errf(e, "%s: out of memory", c.name);
	if (check_missing(&c, e) < 0 || check_rules(&c, e) < 0)
		return -1;
	t->hash = npu_target_hash(t);
	return 0;
}

int npu_target_parse(npu_target *t, const char *name, const char *text,
		     size_t len, npu_err *e)
{
	struct cloc l;
	int rc;

	cloc_enter(&l);
	rc = parse_text(t, name, text, len, e);
	cloc_leave(&l);
	return rc;
}

int npu_target_load(npu_target *t, const char *path, npu_err *e)
{
	/* Target files are a few KiB; a huge one is a mistake, not a target. */
	enum { MAX_FILE = 1 << 20 };
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n;
	int rc = -1;

	if (!f)
		return npu_errf(e, "%s: cannot open: %s", path, strerror(errno));
	if (!(buf = malloc(MAX_FILE + 1))) {
		npu_errf(e, "%s: out of memory", path);
		goto out_close;
	}
	n = fread(buf, 1, MAX_FILE + 1, f);
	if (ferror(f)) {
		npu_errf(e, "%s: cannot read: %s", path, strerror(errno));
		goto out_free;
	}
	if (n > MAX_FILE) {
		npu_errf(e, "%s: larger than %d bytes", path, MAX_FILE);
		goto out_free;
	}
	rc = npu_target_parse(t, path, buf, n, e);
out_free:
	free(buf);
out_close:
	fclose(f);
	return rc;
}

/* ---- printing ---------------------------------------------------------- */

/* snprintf into buf at *len, keeping count of the whole length. */
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(*len < n ? buf + *len : NULL, *len < n ? n - *len : 0,
		      fmt, ap);
	va_end(ap);
	if (k > 0)
		*len += (size_t)k;
}

int npu_target_canonical(const npu_target *t, char *buf, size_t n)
{
	size_t len = 0;
	int sec = -1;
	char kn[64], v[128];
	struct cloc l;

	cloc_enter(&l);
	if (n)
		buf[0] = '\0';
	for (size_t r = 0; r < NKEYROW; r++) {
		const struct tkey *k = &keytab[r];

		if (k->sec != sec) {
			put(buf, n, &len, "%s[%s]\n", sec < 0 ? "" : "\n",
			    secname[k->sec]);
			sec = k->sec;
		}
		for (int i = 0; i < row_width(k); i++) {
			key_name(k, i, kn, sizeof kn);
			fmt_value(t, k, i, v, sizeof v);
			put(buf, n, &len, "%s = %s\n", kn, v);
		}
	}
	cloc_leave(&l);
	return (int)len;
}

uint64_t npu_target_hash(const npu_target *t)
{
	char buf[CANON_MAX];
	uint64_t h = 0xcbf29ce484222325ull;
	int len = npu_target_canonical(t, buf, sizeof buf);

	if (len >= (int)sizeof buf)
		len = (int)sizeof buf - 1; /* cannot happen: names are short */
	for (int i = 0; i < len; i++) {
		h ^= (unsigned char)buf[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static const char *type_doc(const struct tkey *k)
{
	switch (k->type) {
	case T_INT: return "integer";
	case T_SIZE: return "size";
	case T_DBL: case T_RATE: return "number";
	case T_STR: return "name";
	case T_DF: return "list";
	}
	return "";
}

int npu_target_doc(char *buf, size_t n)
{
	size_t len = 0;
	int sec = -1;
	char kn[64], range[64];
	struct cloc l;

	cloc_enter(&l);
	if (n)
		buf[0] = '\0';
	for (size_t r = 0; r < NKEYROW; r++) {
		const struct tkey *k = &keytab[r];

		if (k->sec != sec) {
			sec = k->sec;
			put(buf, n, &len, "%s### [%s]\n\n%s\n\n"
			    "| Key | Type | Range | Meaning |\n"
			    "| --- | --- | --- | --- |\n", r ? "\n" : "",
			    secname[sec], secdoc[sec]);
		}
		key_name(k, -1, kn, sizeof kn);
		fmt_range(k, range, sizeof range);
		put(buf, n, &len, "| `%s` | %s | %s | %s", kn, type_doc(k),
		    range, k->doc);
		if (k->type == T_RATE) {
			put(buf, n, &len, " Optional, default 0. `<dtype>` is "
			    "one of");
			for (int i = 0; i < NPU_NDTYPE; i++)
				put(buf, n, &len, "%s `%s`", i ? "," : "",
				    dtname[i]);
			put(buf, n, &len, ".");
		}
		put(buf, n, &len, " |\n");
	}
	put(buf, n, &len, "\n### Rules across keys\n\n");
#define CHECK(sec, key, cond, rule) \
	put(buf, n, &len, "- `[%s] %s`: %s.\n", secname[SEC_##sec], \
	    strcmp(key, "rate_") ? key : "rate_<dtype>", rule);
	NPU_TARGET_CHECKS(CHECK)
#undef CHECK
	cloc_leave(&l);
	return (int)len;
}

/* ---- lookup ------------------------------------------------------------ */

/* Tries DIR/NAME.ini; 1 when it is a readable file (copied into out). */
static int try_dir(const char *dir, size_t dlen, const char *name,
		   char *out, size_t n)
{
	char path[4096];
	int k;

	if (!dlen)
		return 0;
	k = snprintf(path, sizeof path, "%.*s/%s.ini", (int)dlen, dir, name);
	if (k < 0 || (size_t)k >= sizeof path || (size_t)k >= n)
		return 0;
	if (access(path, R_OK))
		return 0;
	memcpy(out, path, (size_t)k + 1);
	return 1;
}

int npu_target_resolve(const char *name_or_path, char *out, size_t n,
		       npu_err *e)
{
	const char *env = getenv("NPU_TARGET_PATH");
	const char *fixed[] = { NPU_TARGETDIR, NPU_SRCTARGETDIR };
	const char *nm = name_or_path;
	char searched[2048];
	size_t len, slen = 0;

	if (!nm || !*nm)
		return npu_errf(e, "no target given");
	len = strlen(nm);
	if (strchr(nm, '/') || (len >= 4 && !strcmp(nm + len - 4, ".ini"))) {
		if (len >= n)
			return npu_errf(e, "%s: path too long", nm);
		memcpy(out, nm, len + 1);
		return 0;
	}
	searched[0] = '\0';
	for (const char *p = env; p && *p;) {
		size_t dl = strcspn(p, ":");

		if (try_dir(p, dl, nm, out, n))
			return 0;
		if (dl)
			put(searched, sizeof searched, &slen, "%s%.*s",
			    slen ? ", " : "", (int)dl, p);
		p += dl;
		if (*p == ':')
			p++;
	}
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		if (try_dir(fixed[i], strlen(fixed[i]), nm, out, n))
			return 0;
		if (*fixed[i])
			put(searched, sizeof searched, &slen, "%s%s",
			    slen ? ", " : "", fixed[i]);
	}
	return npu_errf(e, "target '%s' not found (searched %s)", nm,
			slen ? searched : "nothing");
}
