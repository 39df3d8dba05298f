/*
 * check_target.c - target files: the shipped ones, the canonical form and
 * its hash, every class of error, lookup by name, and the key reference
 * in docs/target-format.md.
 *
 * Most error cases start from targets/npu-base.ini and change one line, so
 * each one tests exactly one mistake in an otherwise valid file.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "isa/target.h"

static char *base_text; /* targets/npu-base.ini */
static char *edge_text; /* targets/npu-edge.ini */

static const char *srcdir(void)
{
	const char *s = getenv("srcdir");

	return s ? s : ".";
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void setup(void)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/targets/npu-base.ini", srcdir());
	base_text = slurp(path);
	snprintf(path, sizeof path, "%s/targets/npu-edge.ini", srcdir());
	edge_text = slurp(path);
}

static void teardown(void)
{
	free(base_text);
	free(edge_text);
}

static int parse(npu_target *t, const char *text, npu_err *e)
{
	npu_err_clear(e);
	return npu_target_parse(t, "npu-base.ini", text, strlen(text), e);
}

/* Parses text, which must be valid; returns its hash. */
static uint64_t hash_of(const char *text)
{
	npu_target t;
	npu_err e;

	ck_assert_msg(parse(&t, text, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(t.hash, npu_target_hash(&t));
	return t.hash;
}

/* Parses text, which must fail with exactly msg. */
static void expect_error(const char *text, const char *msg)
{
	npu_target t;
	npu_err e;

	ck_assert_msg(parse(&t, text, &e) == -1, "accepted, expected: %s", msg);
	ck_assert_str_eq(e.msg, msg);
}

/* ---- editing a file line by line --------------------------------------- */

/* Is line (up to its end) "key" followed by blanks or '='? */
static int line_has_key(const char *line, const char *key)
{
	size_t n = strlen(key);

	while (*line == ' ' || *line == '\t')
		line++;
	return !strncmp(line, key, n) &&
	       (line[n] == ' ' || line[n] == '\t' || line[n] == '=');
}

/*
 * A copy of text with the line holding key in [sec] replaced by repl
 * (NULL: removed), or, when key is NULL, with repl inserted after the
 * [sec] header.  *lineno gets the line number of the changed line.
 */
static char *edit(const char *text, const char *sec, const char *key,
		  const char *repl, int *lineno)
{
	size_t cap = strlen(text) + (repl ? strlen(repl) : 0) + 2;
	char *out = malloc(cap), hdr[64];
	const char *p = text;
	int line = 0, in_sec = 0, done = 0;
	size_t len = 0;

	ck_assert_ptr_nonnull(out);
	snprintf(hdr, sizeof hdr, "[%s]", sec);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);

		line++;
		if (*p == '[')
			in_sec = !strncmp(p, hdr, strlen(hdr));
		if (!done && in_sec && key && line_has_key(p, key)) {
			done = 1;
			*lineno = line;
			if (repl)
				len += (size_t)sprintf(out + len, "%s\n", repl);
		} else {
			memcpy(out + len, p, n);
			len += n;
		}
		if (!done && in_sec && !key) {
			done = 1;
			*lineno = line + 1;
			len += (size_t)sprintf(out + len, "%s\n", repl);
		}
		p += n;
	}
	out[len] = '\0';
	ck_assert_msg(done, "no [%s] %s in the file", sec, key ? key : "");
	return out;
}

/* Sets [sec] key = value in the base file; expects the error msg. */
static void expect_set_error(const char *sec, const char *key,
			     const char *value, const char *fmt)
{
	char line[256], msg[512];
	int at;
	char *text;

	snprintf(line, sizeof line, "%s = %s", key, value);
	text = edit(base_text, sec, key, line, &at);
	snprintf(msg, sizeof msg, fmt, at);
	expect_error(text, msg);
	free(text);
}

/* ---- the shipped files ------------------------------------------------- */

START_TEST(base_values)
{
	char path[4096];
	npu_target t;
	npu_err e;

	snprintf(path, sizeof path, "%s/targets/npu-base.ini", srcdir());
	ck_assert_msg(npu_target_load(&t, path, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(t.name, "npu-base");
	ck_assert_double_eq(t.clock_mhz, 1000);
	ck_assert_int_eq(t.mxu_rows, 128);
	ck_assert_int_eq(t.mxu_cols, 128);
	ck_assert_uint_eq(t.dataflows, NPU_DF_WS | NPU_DF_OS);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_BF16], 1);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_F16], 1);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_E4M3], 2);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_E5M2], 2);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_I8], 2);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_F32], 0.25);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_U8], 0);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_F64], 0);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_I16], 0);
	ck_assert_uint_eq(t.sram_bytes, 24u << 20);
	ck_assert_int_eq(t.sram_banks, 32);
	ck_assert_int_eq(t.sram_port_bytes, 256);
	ck_assert_uint_eq(t.acc_bytes, 4u << 20);
	ck_assert_int_eq(t.acc_banks, 8);
	ck_assert_int_eq(t.vlen, 128);
	ck_assert_int_eq(t.vec_lanes, 128);
	ck_assert_int_eq(t.lat_alu, 2);
	ck_assert_int_eq(t.lat_mul, 3);
	ck_assert_int_eq(t.lat_div, 8);
	ck_assert_int_eq(t.lat_trans, 12);
	ck_assert_int_eq(t.ii_trans, 4);
	ck_assert_int_eq(t.lat_red, 6);
	ck_assert_int_eq(t.lat_ld, 4);
	ck_assert_int_eq(t.queue_depth, 32);
	ck_assert_int_eq(t.lat_branch, 1);
	ck_assert_int_eq(t.dma_engines, 4);
	ck_assert_double_eq(t.dma_bytes_per_cycle, 128);
	ck_assert_int_eq(t.dma_setup, 16);
	ck_assert_uint_eq(t.dram_bytes, 16ull << 30);
	ck_assert_double_eq(t.dram_bytes_per_cycle, 1600);
	ck_assert_int_eq(t.dram_latency, 400);
	ck_assert_int_eq(t.dram_channels, 16);
	ck_assert_int_eq(t.dram_burst, 64);
	ck_assert_int_eq(t.dram_interleave, 256);
	ck_assert_double_eq(t.host_bytes_per_cycle, 32);
	ck_assert_int_eq(t.host_latency, 2000);
	ck_assert_double_eq(t.host_flops_per_cycle, 20);
	ck_assert_uint_eq(t.hash, npu_target_hash(&t));
}
END_TEST

START_TEST(edge_values)
{
	char path[4096];
	npu_target t, b;
	npu_err e;

	snprintf(path, sizeof path, "%s/targets/npu-edge.ini", srcdir());
	ck_assert_msg(npu_target_load(&t, path, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(t.name, "npu-edge");
	ck_assert_double_eq(t.clock_mhz, 800);
	ck_assert_int_eq(t.mxu_rows, 32);
	ck_assert_int_eq(t.mxu_cols, 32);
	ck_assert_uint_eq(t.dataflows, NPU_DF_WS);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_I8], 1);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_BF16], 0.5);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_E4M3], 1);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_F32], 0.125);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_F16], 0);
	ck_assert_double_eq(t.mxu_rate[NPU_DT_E5M2], 0);
	ck_assert_uint_eq(t.sram_bytes, 1u << 20);
	ck_assert_int_eq(t.sram_banks, 8);
	ck_assert_int_eq(t.sram_port_bytes, 64);
	ck_assert_uint_eq(t.acc_bytes, 128u << 10);
	ck_assert_int_eq(t.acc_banks, 4);
	ck_assert_int_eq(t.vlen, 32);
	ck_assert_int_eq(t.vec_lanes, 32);
	ck_assert_int_eq(t.dma_engines, 2);
	ck_assert_double_eq(t.dma_bytes_per_cycle, 32);
	ck_assert_uint_eq(t.dram_bytes, 2ull << 30);
	ck_assert_double_eq(t.dram_bytes_per_cycle, 32);
	ck_assert_int_eq(t.dram_latency, 200);
	ck_assert_int_eq(t.dram_channels, 2);
	ck_assert_int_eq(t.dram_burst, 64);
	ck_assert_int_eq(t.dram_interleave, 128);
	ck_assert_uint_eq(t.hash, npu_target_hash(&t));

	snprintf(path, sizeof path, "%s/targets/npu-base.ini", srcdir());
	ck_assert_msg(npu_target_load(&b, path, &e) == 0, "%s", e.msg);
	ck_assert_uint_ne(b.hash, t.hash);
}
END_TEST

/* ---- canonical form and hash ------------------------------------------- */

static void round_trip(const char *text)
{
	char buf[NPU_TARGET_TEXT_MAX], buf2[NPU_TARGET_TEXT_MAX];
	npu_target t, u;
	npu_err e;
	int n;

	ck_assert_msg(parse(&t, text, &e) == 0, "%s", e.msg);
	n = npu_target_canonical(&t, buf, sizeof buf);
	ck_assert_int_gt(n, 0);
	ck_assert_int_lt(n, (int)sizeof buf);
	ck_assert_int_eq((int)strlen(buf), n);
	ck_assert_msg(parse(&u, buf, &e) == 0, "%s\n%s", e.msg, buf);
	ck_assert_uint_eq(u.hash, t.hash);
	ck_assert_int_eq(memcmp(&t, &u, sizeof t), 0);
	/* the canonical form is a fixed point */
	npu_target_canonical(&u, buf2, sizeof buf2);
	ck_assert_str_eq(buf, buf2);
}

START_TEST(canonical_round_trip)
{
	round_trip(base_text);
	round_trip(edge_text);
}
END_TEST

START_TEST(canonical_truncates_like_snprintf)
{
	char full[NPU_TARGET_TEXT_MAX], small[40];
	npu_target t;
	npu_err e;
	int n;

	ck_assert_int_eq(parse(&t, base_text, &e), 0);
	n = npu_target_canonical(&t, full, sizeof full);
	ck_assert_int_eq(npu_target_canonical(&t, small, sizeof small), n);
	ck_assert_uint_eq(strlen(small), sizeof small - 1);
	ck_assert_int_eq(strncmp(small, full, sizeof small - 1), 0);
	ck_assert_int_eq(npu_target_canonical(&t, NULL, 0), n);
}
END_TEST

/* Replaces every occurrence of from by to (one line at a time). */
static char *replace(const char *text, const char *from, const char *to)
{
	char *out = malloc(strlen(text) * 2 + 64), *o = out;
	const char *p = text, *q;

	ck_assert_ptr_nonnull(out);
	while ((q = strstr(p, from))) {
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		o += sprintf(o, "%s", to);
		p = q + strlen(from);
	}
	strcpy(o, p);
	return out;
}

/*
 * The canonical text of base, written another way: sections and keys in
 * reverse order, comments everywhere, odd spacing, ':' for '=', other
 * spellings of the same sizes and numbers.
 */
START_TEST(hash_ignores_form)
{
	char canon[NPU_TARGET_TEXT_MAX], out[3 * NPU_TARGET_TEXT_MAX];
	char *lines[128], *s, *sp1, *sp2, *sp3;
	npu_target t;
	npu_err e;
	size_t len = 0;
	int nl = 0;
	uint64_t h = hash_of(base_text);

	ck_assert_int_eq(parse(&t, base_text, &e), 0);
	npu_target_canonical(&t, canon, sizeof canon);
	for (char *l = strtok(canon, "\n"); l; l = strtok(NULL, "\n"))
		lines[nl++] = l;
	len += (size_t)sprintf(out + len, "\xef\xbb\xbf; a comment\n# another\n\n");
	/* sections backwards; within each, keys backwards */
	for (int end = nl; end > 0;) {
		int start = end - 1;

		while (lines[start][0] != '[')
			start--;
		len += (size_t)sprintf(out + len, "  [ %.*s ]  ; section\n",
				       (int)strlen(lines[start]) - 2,
				       lines[start] + 1);
		for (int i = end - 1; i > start; i--) {
			char key[64], val[128];

			ck_assert_int_eq(sscanf(lines[i], "%63s = %127s", key, val), 2);
			len += (size_t)sprintf(out + len, "\t%s%s%s\t# note\r\n",
					       key, i % 2 ? "=" : " : ", val);
		}
		end = start;
	}
	ck_assert_uint_eq(hash_of(out), h);

	/* other spellings of the same values */
	sp1 = replace(base_text, "size = 24MiB", "size = 25165824");
	ck_assert_uint_eq(hash_of(sp1), h);
	sp2 = replace(sp1, "size = 16GiB", "size = 16 G");
	ck_assert_uint_eq(hash_of(sp2), h);
	sp3 = replace(sp2, "acc_size = 4MiB", "acc_size = 4096K");
	ck_assert_uint_eq(hash_of(sp3), h);
	s = replace(sp3, "dataflows = ws,os", "dataflows = os , ws");
	ck_assert_uint_eq(hash_of(s), h);
	free(s);
	s = replace(base_text, "rate_f32 = 0.25", "rate_f32 = 2.5e-1");
	ck_assert_uint_eq(hash_of(s), h);
	free(s);
	s = replace(base_text, "rate_f32 = 0.25", "rate_f32 = 0.25\nrate_u8 = 0");
	ck_assert_uint_eq(hash_of(s), h); /* an explicit default */
	free(s);
	free(sp1);
	free(sp2);
	free(sp3);
}
END_TEST

/* Other values for one canonical value: "128" -> "256", "64", "129"... */
static int variants(const char *key, const char *v, char out[][64])
{
	char sfx[16] = "";
	double x;
	int n = 0;

	if (!strcmp(key, "name")) {
		strcpy(out[n++], "other-name");
		return n;
	}
	if (!strcmp(key, "dataflows")) {
		const char *df[] = { "ws", "os", "ws,os" };
		for (int i = 0; i < 3; i++)
			if (strcmp(v, df[i]))
				strcpy(out[n++], df[i]);
		return n;
	}
	ck_assert_int_ge(sscanf(v, "%lf%15s", &x, sfx), 1);
	snprintf(out[n++], 64, "%.17g%s", x * 2, sfx);
	snprintf(out[n++], 64, "%.17g%s", x / 2, sfx);
	snprintf(out[n++], 64, "%.17g%s", x + 1, sfx);
	snprintf(out[n++], 64, "%.17g%s", x - 1, sfx);
	snprintf(out[n++], 64, "1");
	return n;
}

START_TEST(hash_changes_with_every_value)
{
	char canon[NPU_TARGET_TEXT_MAX], *lines[128];
	npu_target t;
	npu_err e;
	int nl = 0, changed = 0;
	uint64_t h;

	ck_assert_int_eq(parse(&t, base_text, &e), 0);
	h = t.hash;
	npu_target_canonical(&t, canon, sizeof canon);
	for (char *l = strtok(canon, "\n"); l; l = strtok(NULL, "\n"))
		lines[nl++] = l;
	for (int i = 0; i < nl; i++) {
		char key[64], val[128], alt[8][64], text[NPU_TARGET_TEXT_MAX];
		int nv, ok = 0;

		if (lines[i][0] == '[')
			continue;
		ck_assert_int_eq(sscanf(lines[i], "%63s = %127s", key, val), 2);
		nv = variants(key, val, alt);
		for (int j = 0; j < nv; j++) {
			size_t len = 0;
			npu_target u;

			for (int k = 0; k < nl; k++)
				if (k == i)
					len += (size_t)sprintf(text + len, "%s = %s\n",
							       key, alt[j]);
				else
					len += (size_t)sprintf(text + len, "%s\n", lines[k]);
			if (parse(&u, text, &e) < 0)
				continue; /* out of range or breaks a rule */
			if (!memcmp(&u, &t, offsetof(npu_target, hash)))
				continue; /* the same value */
			ck_assert_msg(u.hash != h, "%s = %s keeps the hash", key, alt[j]);
			ok = 1;
		}
		ck_assert_msg(ok, "no valid other value for %s", lines[i]);
		changed++;
	}
	ck_assert_int_gt(changed, 40);
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

START_TEST(error_unknown_key)
{
	int at;
	char *text = edit(base_text, "dram", NULL, "bandwidth = 3", &at), msg[256];

	snprintf(msg, sizeof msg, "npu-base.ini:%d: [dram] bandwidth: unknown key", at);
	expect_error(text, msg);
	free(text);
	/* a rate for a dtype that does not exist */
	text = edit(base_text, "matrix", NULL, "rate_f8 = 1", &at);
	snprintf(msg, sizeof msg, "npu-base.ini:%d: [matrix] rate_f8: unknown key", at);
	expect_error(text, msg);
	free(text);
	/* a key of another section */
	text = edit(base_text, "host", NULL, "rows = 3", &at);
	snprintf(msg, sizeof msg, "npu-base.ini:%d: [host] rows: unknown key", at);
	expect_error(text, msg);
	free(text);
}
END_TEST

START_TEST(error_range)
{
	expect_set_error("matrix", "rows", "0",
			 "npu-base.ini:%d: [matrix] rows: 0 is out of range 1..4096");
	expect_set_error("matrix", "cols", "4097",
			 "npu-base.ini:%d: [matrix] cols: 4097 is out of range 1..4096");
	expect_set_error("dma", "engines", "9",
			 "npu-base.ini:%d: [dma] engines: 9 is out of range 1..8");
	expect_set_error("dma", "engines", "-1",
			 "npu-base.ini:%d: [dma] engines: -1 is out of range 1..8");
	expect_set_error("sram", "size", "2GiB",
			 "npu-base.ini:%d: [sram] size: 2GiB is out of range 1KiB..1GiB");
	expect_set_error("matrix", "rate_f32", "65",
			 "npu-base.ini:%d: [matrix] rate_f32: 65 is out of range 0..64");
	expect_set_error("dma", "bytes_per_cycle", "0",
			 "npu-base.ini:%d: [dma] bytes_per_cycle: 0 is out of range 0.001..1048576");
	expect_set_error("target", "name", "",
			 "npu-base.ini:%d: [target] name: missing value");
	expect_set_error("target", "name",
			 "a234567890123456789012345678901234567890123456789012345678901234",
			 "npu-base.ini:%d: [target] name: 'a234567890123456789012345678901234567890123456789012345678901234' has 64 characters, not 1..63 characters");
}
END_TEST

START_TEST(error_missing_key)
{
	const char *const keys[][2] = {
		{ "sram", "size" }, { "target", "name" }, { "matrix", "dataflows" },
		{ "host", "flops_per_cycle" }, { "dram", "interleave" },
	};
	char msg[256], *text;
	int at;

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		text = edit(base_text, keys[i][0], keys[i][1], NULL, &at);
		snprintf(msg, sizeof msg, "npu-base.ini: [%s] %s: missing key",
			 keys[i][0], keys[i][1]);
		expect_error(text, msg);
		free(text);
	}
	/* rate keys are optional */
	text = edit(base_text, "matrix", "rate_e5m2", NULL, &at);
	hash_of(text);
	free(text);
	expect_error("", "npu-base.ini: [target] name: missing key");
}
END_TEST

START_TEST(error_duplicate_key)
{
	char msg[256], *text, *t2;
	int at, orig;

	/* a rows line inserted first makes the original one the duplicate */
	t2 = edit(base_text, "matrix", "rows", "rows = 128", &orig);
	free(t2);
	text = edit(base_text, "matrix", NULL, "rows = 64", &at);
	ck_assert_int_lt(at, orig + 1);
	snprintf(msg, sizeof msg, "npu-base.ini:%d: [matrix] rows: duplicate "
		 "key (first set on line %d)", orig + 1, at);
	expect_error(text, msg);
	free(text);
	/* a section may come back, but not with a key it already set */
	t2 = edit(base_text, "sram", "banks", "banks = 32", &orig);
	free(t2);
	text = edit(base_text, "host", NULL, "[sram]\nbanks = 32", &at);
	snprintf(msg, sizeof msg, "npu-base.ini:%d: [sram] banks: duplicate "
		 "key (first set on line %d)", at + 1, orig);
	expect_error(text, msg);
	free(text);
	text = edit(base_text, "host", NULL, "[sram]\n[host]", &at);
	hash_of(text);
	free(text);
}
END_TEST

START_TEST(error_bad_numbers)
{
	expect_set_error("matrix", "rows", "12x",
			 "npu-base.ini:%d: [matrix] rows: '12x' is not an integer");
	expect_set_error("matrix", "rows", "1.5",
			 "npu-base.ini:%d: [matrix] rows: '1.5' is not an integer");
	expect_set_error("matrix", "rows", "0x10",
			 "npu-base.ini:%d: [matrix] rows: '0x10' is not an integer");
	expect_set_error("matrix", "rows", "99999999999999999999",
			 "npu-base.ini:%d: [matrix] rows: '99999999999999999999' overflows");
	expect_set_error("matrix", "rows", "4096x",
			 "npu-base.ini:%d: [matrix] rows: '4096x' is not an integer");
	expect_set_error("dram", "size", "99999999999T",
			 "npu-base.ini:%d: [dram] size: '99999999999T' overflows");
	expect_set_error("dram", "size", "99999999999999999999",
			 "npu-base.ini:%d: [dram] size: '99999999999999999999' overflows");
	expect_set_error("dram", "size", "16GB",
			 "npu-base.ini:%d: [dram] size: '16GB' is not a size (bytes, or a "
			 "whole number with K, M, G, T, KiB, MiB, GiB or TiB)");
	expect_set_error("dram", "size", "-16G",
			 "npu-base.ini:%d: [dram] size: '-16G' is not a size (bytes, or a "
			 "whole number with K, M, G, T, KiB, MiB, GiB or TiB)");
	expect_set_error("dram", "size", "1.5G",
			 "npu-base.ini:%d: [dram] size: '1.5G' is not a size (bytes, or a "
			 "whole number with K, M, G, T, KiB, MiB, GiB or TiB)");
	expect_set_error("target", "clock_mhz", "fast",
			 "npu-base.ini:%d: [target] clock_mhz: 'fast' is not a number");
	expect_set_error("target", "clock_mhz", "1e999",
			 "npu-base.ini:%d: [target] clock_mhz: '1e999' is out of the range of a double");
	expect_set_error("target", "clock_mhz", "nan",
			 "npu-base.ini:%d: [target] clock_mhz: 'nan' is not a number");
	expect_set_error("target", "clock_mhz", "1000MHz",
			 "npu-base.ini:%d: [target] clock_mhz: '1000MHz' is not a number");
	expect_set_error("target", "clock_mhz", "1.0.0",
			 "npu-base.ini:%d: [target] clock_mhz: '1.0.0' is not a number");
}
END_TEST

START_TEST(error_wrong_type)
{
	expect_set_error("matrix", "dataflows", "3",
			 "npu-base.ini:%d: [matrix] dataflows: '3' is not a dataflow (ws or os)");
	expect_set_error("matrix", "dataflows", "ws,ws",
			 "npu-base.ini:%d: [matrix] dataflows: ws is listed twice");
	expect_set_error("matrix", "dataflows", "ws os",
			 "npu-base.ini:%d: [matrix] dataflows: 'ws os' is not a comma-separated list of ws and os");
	expect_set_error("matrix", "dataflows", "ws,",
			 "npu-base.ini:%d: [matrix] dataflows: '' is not a dataflow (ws or os)");
	expect_set_error("target", "name", "\"npu base\"",
			 "npu-base.ini:%d: [target] name: '\"npu base\"' has a character "
			 "other than letters, digits, '.', '_' and '-'");
	expect_set_error("sram", "banks", "thirty-two",
			 "npu-base.ini:%d: [sram] banks: 'thirty-two' is not an integer");
}
END_TEST

START_TEST(error_structure)
{
	char msg[256], *text, big[400];
	int at;

	text = edit(base_text, "dram", NULL, "[cache]", &at);
	snprintf(msg, sizeof msg, "npu-base.ini:%d: [cache]: unknown section", at);
	expect_error(text, msg);
	free(text);
	text = edit(base_text, "dram", NULL, "[cache]\nways = 4", &at);
	expect_error(text, msg);
	free(text);
	text = edit(base_text, "dram", NULL, "garbage", &at);
	snprintf(msg, sizeof msg, "npu-base.ini:%d: syntax error (expected "
		 "[section] or key = value)", at);
	expect_error(text, msg);
	free(text);
	text = edit(base_text, "dram", NULL, "[matrix", &at);
	snprintf(msg, sizeof msg, "npu-base.ini:%d: syntax error (expected "
		 "[section] or key = value)", at);
	expect_error(text, msg);
	free(text);
	text = edit(base_text, "dram", NULL, "[dram] x", &at);
	snprintf(msg, sizeof msg, "npu-base.ini:%d: [dram] x: text after the "
		 "section name", at);
	expect_error(text, msg);
	free(text);
	expect_error("rows = 1\n[matrix]\n",
		     "npu-base.ini:1: rows: key outside any section");
	/* an over-long line is an error, not two lines */
	memset(big, '1', sizeof big);
	big[sizeof big - 1] = '\0';
	memcpy(big, "rows = ", 7);
	text = edit(base_text, "matrix", "rows", big, &at);
	snprintf(msg, sizeof msg, "npu-base.ini:%d: line too long", at);
	{
		npu_target t;
		npu_err e;

		ck_assert_int_eq(parse(&t, text, &e), -1);
		ck_assert_msg(!strncmp(e.msg, msg, strlen(msg)), "%s", e.msg);
	}
	free(text);
	/* but a long comment is fine */
	memcpy(big, "; comment", 9);
	text = edit(base_text, "matrix", NULL, big, &at);
	hash_of(text);
	free(text);
	/* a NUL byte */
	{
		npu_target t;
		npu_err e;
		char nul[] = "[target]\nname = a\0b\n";

		ck_assert_int_eq(npu_target_parse(&t, "x.ini", nul, sizeof nul - 1, &e), -1);
		ck_assert_str_eq(e.msg, "x.ini:2: NUL byte in the text");
	}
}
END_TEST

START_TEST(error_rules)
{
	/* the rule's line is that of the key it names, not the changed one */
	{
		int size_at, at;
		char *t1 = edit(base_text, "sram", "size", "size = 24MiB", &size_at);
		char *t2 = edit(t1, "sram", "banks", "banks = 7", &at);
		char msg[256];

		snprintf(msg, sizeof msg, "npu-base.ini:%d: [sram] size: must be a "
			 "multiple of [sram] banks", size_at);
		expect_error(t2, msg);
		free(t1);
		free(t2);
	}
	expect_set_error("sram", "port_bytes", "1000",
			 "npu-base.ini:%d: [sram] port_bytes: must divide the size of one bank ([sram] size / banks)");
	expect_set_error("sram", "acc_size", "1000",
			 "npu-base.ini:%d: [sram] acc_size: 1000 is out of range 1KiB..1GiB");
	expect_set_error("sram", "acc_size", "4194305",
			 "npu-base.ini:%d: [sram] acc_size: must be a multiple of [sram] acc_banks");
	expect_set_error("vector", "vlen", "64",
			 "npu-base.ini:%d: [vector] vlen: must be at least [vector] lanes_per_cycle");
	expect_set_error("dram", "burst", "48",
			 "npu-base.ini:%d: [dram] burst: must be a power of two");
	expect_set_error("dram", "interleave", "96",
			 "npu-base.ini:%d: [dram] interleave: must be a multiple of [dram] burst");
	{
		/* no rate at all; the message points at the first rate key */
		const char *rates[] = { "rate_bf16", "rate_f16", "rate_e4m3",
					"rate_e5m2", "rate_i8" };
		char *text, *next, msg[256];
		int at, first;

		text = edit(base_text, "matrix", "rate_f32", "rate_f32 = 0", &first);
		for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
			char line[64];

			snprintf(line, sizeof line, "%s = 0", rates[i]);
			next = edit(text, "matrix", rates[i], line, &at);
			free(text);
			text = next;
		}
		snprintf(msg, sizeof msg, "npu-base.ini:%d: [matrix] rate_<dtype>: "
			 "at least one must be nonzero", first);
		expect_error(text, msg);
		free(text);
	}
}
END_TEST

START_TEST(error_load)
{
	npu_target t;
	npu_err e;

	ck_assert_int_eq(npu_target_load(&t, "/nonexistent/x.ini", &e), -1);
	ck_assert_str_eq(e.msg, "/nonexistent/x.ini: cannot open: No such file or directory");
}
END_TEST

/* ---- lookup ------------------------------------------------------------ */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(resolve_by_name)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], path[4096], env[8300], out[4096], want[4096];
	npu_target t;
	npu_err e;

	snprintf(dir, sizeof dir, "%s/npu-target-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/mychip.ini", dir);
	write_file(path, edge_text);
	snprintf(want, sizeof want, "%s/npu-base.ini", dir);
	write_file(want, edge_text);

	snprintf(env, sizeof env, "/nonexistent-npu::%s", dir);
	ck_assert_int_eq(setenv("NPU_TARGET_PATH", env, 1), 0);
	ck_assert_msg(npu_target_resolve("mychip", out, sizeof out, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(out, path);
	ck_assert_msg(npu_target_load(&t, out, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(t.name, "npu-edge");
	/* NPU_TARGET_PATH comes before the shipped folders */
	ck_assert_int_eq(npu_target_resolve("npu-base", out, sizeof out, &e), 0);
	ck_assert_str_eq(out, want);
	/* too small a buffer is an error, not a cut path */
	ck_assert_int_eq(npu_target_resolve("mychip", out, 8, &e), -1);

	/* unknown names list the folders searched */
	ck_assert_int_eq(npu_target_resolve("nochip", out, sizeof out, &e), -1);
	ck_assert_msg(strstr(e.msg, "target 'nochip' not found (searched ") == e.msg, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, dir) != NULL, "%s", e.msg);
	ck_assert_msg(strstr(e.msg, "/nonexistent-npu") != NULL, "%s", e.msg);

	/* paths are taken as they are */
	ck_assert_int_eq(npu_target_resolve("sub/x.ini", out, sizeof out, &e), 0);
	ck_assert_str_eq(out, "sub/x.ini");
	ck_assert_int_eq(npu_target_resolve("x.ini", out, sizeof out, &e), 0);
	ck_assert_str_eq(out, "x.ini");
	ck_assert_int_eq(npu_target_resolve("", out, sizeof out, &e), -1);

	unlink(path);
	unlink(want);
	ck_assert_int_eq(rmdir(dir), 0);

	/* without NPU_TARGET_PATH the shipped targets are found */
	unsetenv("NPU_TARGET_PATH");
	ck_assert_msg(npu_target_resolve("npu-base", out, sizeof out, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_target_load(&t, out, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(t.name, "npu-base");
	ck_assert_msg(npu_target_resolve("npu-edge", out, sizeof out, &e) == 0, "%s", e.msg);
}
END_TEST

/* ---- docs -------------------------------------------------------------- */

/* Start of the line that holds s[i]. */
static const char *strrchr_n(const char *s, size_t i)
{
	while (i && s[i - 1] != '\n')
		i--;
	return s + i;
}

START_TEST(docs_match_table)
{
	static const char begin[] = "<!-- keys:begin -->\n";
	static const char end[] = "<!-- keys:end -->";
	char path[4096], *md, *b, *e, *gen;
	int n;

	snprintf(path, sizeof path, "%s/docs/target-format.md", srcdir());
	md = slurp(path);
	b = strstr(md, begin);
	ck_assert_msg(b != NULL, "no keys:begin marker in %s", path);
	b += strlen(begin);
	e = strstr(b, end);
	ck_assert_msg(e != NULL, "no keys:end marker in %s", path);
	*e = '\0';
	n = npu_target_doc(NULL, 0);
	ck_assert_int_gt(n, 1000);
	gen = malloc((size_t)n + 1);
	ck_assert_int_eq(npu_target_doc(gen, (size_t)n + 1), n);
	if (strcmp(b, gen)) {
		size_t i = 0, line = 1;

		for (; b[i] == gen[i]; i++)
			line += b[i] == '\n';
		ck_abort_msg("docs/target-format.md is out of date: line %zu of "
			     "its key reference should read: %.*s", line,
			     (int)strcspn(gen + i - (size_t)(b + i - strrchr_n(b, i)),
					  "\n"),
			     gen + i - (size_t)(b + i - strrchr_n(b, i)));
	}
	/* every key of the canonical form is documented */
	ck_assert_ptr_nonnull(strstr(gen, "`rate_<dtype>`"));
	ck_assert_ptr_nonnull(strstr(gen, "`lanes_per_cycle`"));
	ck_assert_ptr_nonnull(strstr(gen, "`flops_per_cycle`"));
	free(gen);
	free(md);
}
END_TEST

START_TEST(fuzz_corpus_exists)
{
	char path[4096];
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(path, sizeof path, "%s/tests/fuzz/corpus/target", srcdir());
	d = opendir(path);
	ck_assert_msg(d != NULL, "no %s", path);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	ck_assert_int_ge(n, 6);
}
END_TEST

static Suite *target_suite(void)
{
	Suite *s = suite_create("target");
	TCase *tc = tcase_create("files");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, base_values);
	tcase_add_test(tc, edge_values);
	tcase_add_test(tc, canonical_round_trip);
	tcase_add_test(tc, canonical_truncates_like_snprintf);
	tcase_add_test(tc, hash_ignores_form);
	tcase_add_test(tc, hash_changes_with_every_value);
	tcase_add_test(tc, error_unknown_key);
	tcase_add_test(tc, error_range);
	tcase_add_test(tc, error_missing_key);
	tcase_add_test(tc, error_duplicate_key);
	tcase_add_test(tc, error_bad_numbers);
	tcase_add_test(tc, error_wrong_type);
	tcase_add_test(tc, error_structure);
	tcase_add_test(tc, error_rules);
	tcase_add_test(tc, error_load);
	tcase_add_test(tc, resolve_by_name);
	tcase_add_test(tc, docs_match_table);
	tcase_add_test(tc, fuzz_corpus_exists);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(target_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
