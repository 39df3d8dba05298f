/*
 * check_st.c - safetensors reading, writing and validation.
 *
 * Files written by PyTorch's safetensors (copied into tests/data/numerics)
 * must read, and be reproduced byte for byte by the writer; every rule of
 * the validator is exercised with a broken file and its message checked.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/dtype.h"
#include "isa/isa.h"
#include "isa/st.h"

static char tmpdir[4096];

static void make_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmpdir, sizeof tmpdir, "%s/check_st.XXXXXX",
		 base && *base ? base : "/tmp");
	ck_assert(mkdtemp(tmpdir) != NULL);
}

static void remove_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *de;
	char p[8192];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p, sizeof p, "%s/%s", tmpdir, de->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(tmpdir);
}

/* Number of entries in the temporary folder. */
static int tmp_entries(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *de;
	int n = 0;

	ck_assert(d != NULL);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void data_path(char *buf, size_t size, const char *name)
{
	const char *srcdir = getenv("srcdir");

	snprintf(buf, size, "%s/tests/data/numerics/%s", srcdir ? srcdir : ".", name);
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n;
	void *buf;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n ? (size_t)n : 1);
	ck_assert(fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* ---- files from PyTorch --------------------------------------------- */

/* Reads a reference file, writes it back, and compares the bytes. */
static void torch_file(const char *name, size_t ntensors)
{
	char path[4096], out[8192];
	npu_stfile f, g;
	npu_err e = { "" };
	void *enc, *orig, *again;
	size_t enc_len, orig_len, again_len;

	data_path(path, sizeof path, name);
	ck_assert_msg(npu_st_read(&f, path, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(f.n, ntensors);
	ck_assert(f.metadata == NULL);
	orig = slurp(path, &orig_len);
	ck_assert_msg(npu_st_encode(f.t, f.n, f.metadata, &enc, &enc_len, &e) == 0,
		      "%s", e.msg);
	ck_assert_uint_eq(enc_len, orig_len);
	ck_assert_msg(memcmp(enc, orig, orig_len) == 0, "%s differs", name);
	snprintf(out, sizeof out, "%s/%s", tmpdir, name);
	ck_assert_msg(npu_st_write(out, f.t, f.n, NULL, &e) == 0, "%s", e.msg);
	again = slurp(out, &again_len);
	ck_assert_uint_eq(again_len, orig_len);
	ck_assert(memcmp(again, orig, orig_len) == 0);
	ck_assert_int_eq(tmp_entries(), 1);               /* no temporaries */
	ck_assert(npu_st_parse(&g, name, orig, orig_len, &e) == 0);
	ck_assert_uint_eq(g.n, f.n);
	for (size_t i = 0; i < f.n; i++) {
		ck_assert_str_eq(g.t[i].name, f.t[i].name);
		ck_assert(g.t[i].nbytes == f.t[i].nbytes);
	}
	unlink(out);
	npu_st_free(&g);
	npu_st_free(&f);
	free(enc);
	free(orig);
	free(again);
}

START_TEST(torch_files_round_trip)
{
	make_tmpdir();
	torch_file("rmsnorm_empty_eager.safetensors", 2);
	torch_file("rmsnorm_empty_inference2.safetensors", 3);
	torch_file("mutation_views_eager.safetensors", 3);
	torch_file("mlp_bf16_eager.safetensors", 2);
	remove_tmpdir();
}
END_TEST

START_TEST(torch_file_contents)
{
	char path[4096];
	npu_stfile f;
	npu_err e = { "" };
	const npu_tensor *t;
	int finite = 0;

	data_path(path, sizeof path, "rmsnorm_empty_inference2.safetensors");
	ck_assert_msg(npu_st_read(&f, path, &e) == 0, "%s", e.msg);
	/* header order is kept */
	ck_assert_str_eq(f.t[0].name, "arg0_1");
	ck_assert_str_eq(f.t[1].name, "arg1_1");
	ck_assert_str_eq(f.t[2].name, "output.0");
	t = npu_st_find(&f, "arg1_1");
	ck_assert(t && t->dtype == NPU_DT_F32 && t->ndim == 2);
	ck_assert(t->shape[0] == 0 && t->shape[1] == 32 && t->nbytes == 0);
	t = npu_st_find(&f, "arg0_1");
	ck_assert(t && t->ndim == 1 && t->shape[0] == 32 && t->nbytes == 128);
	ck_assert(npu_st_find(&f, "nope") == NULL);
	npu_st_free(&f);

	data_path(path, sizeof path, "mlp_bf16_eager.safetensors");
	ck_assert_msg(npu_st_read(&f, path, &e) == 0, "%s", e.msg);
	t = npu_st_find(&f, "model_output.0");
	ck_assert(t && t->dtype == NPU_DT_BF16 && t->shape[0] == 16 &&
		  t->shape[1] == 256 && t->nbytes == 8192);
	for (size_t i = 0; i < 4096; i++) {
		float x = npu_load_f32(NPU_DT_BF16, t->data, i);
		finite += x == x && x - x == 0;
	}
	ck_assert_int_eq(finite, 4096);
	npu_st_free(&f);
}
END_TEST

/* ---- writer round trip ------------------------------------------------ */

START_TEST(write_read_every_dtype)
{
	npu_tensor t[NPU_NDTYPE + 2];
	unsigned char data[NPU_NDTYPE][64];
	char out[8192];
	npu_stfile f;
	npu_err e = { "" };
	const char *md = "{\"format\":\"pt\",\"note\":\"x \\\"y\\\"\"}";
	size_t n = 0;

	make_tmpdir();
	for (int dt = 0; dt < NPU_NDTYPE; dt++, n++) {
		t[n] = (npu_tensor){ .name = (char *)npu_dtype_name(dt), .dtype = dt,
				     .ndim = 2, .shape = { 3, 1 } };
		t[n].nbytes = 3u * (unsigned)npu_dtype_size(dt);
		for (int i = 0; i < 3; i++)
			npu_store_f32(dt, data[dt], (size_t)i, (float)(i + dt));
		t[n].data = data[dt];
	}
	t[n++] = (npu_tensor){ .name = "empty", .dtype = NPU_DT_F32, .ndim = 3,
			       .shape = { 2, 0, 5 }, .nbytes = 0, .data = NULL };
	t[n++] = (npu_tensor){ .name = "scalar", .dtype = NPU_DT_I64, .ndim = 0,
			       .nbytes = 8, .data = data[NPU_DT_I64] };
	snprintf(out, sizeof out, "%s/all.safetensors", tmpdir);
	ck_assert_msg(npu_st_write(out, t, n, md, &e) == 0, "%s", e.msg);
	/* writing again replaces the file atomically */
	ck_assert_msg(npu_st_write(out, t, n, md, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(tmp_entries(), 1);
	ck_assert_msg(npu_st_read(&f, out, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(f.n, n);
	ck_assert_str_eq(f.metadata, md);
	for (size_t i = 0; i < n; i++) {
		const npu_tensor *g = npu_st_find(&f, t[i].name);
		ck_assert_msg(g != NULL, "%s missing", t[i].name);
		ck_assert_ptr_eq(g, &f.t[i]);           /* order kept */
		ck_assert_int_eq(g->dtype, t[i].dtype);
		ck_assert_int_eq(g->ndim, t[i].ndim);
		for (int d = 0; d < g->ndim; d++)
			ck_assert(g->shape[d] == t[i].shape[d]);
		ck_assert(g->nbytes == t[i].nbytes);
		if (g->nbytes)
			ck_assert(memcmp(g->data, t[i].data, g->nbytes) == 0);
		ck_assert_int_eq(npu_st_dtype_from_code(npu_st_dtype_code(g->dtype)),
				 g->dtype);
	}
	/* the header is padded so that the data area starts 8-aligned */
	{
		uint64_t hlen;
		memcpy(&hlen, f.blob, 8);
		ck_assert_uint_eq(hlen % 8, 0);
		ck_assert(memcmp((char *)f.blob + 8, "{\"__metadata__\":", 16) == 0);
	}
	npu_st_free(&f);
	unlink(out);
	remove_tmpdir();
}
END_TEST

START_TEST(write_errors)
{
	npu_tensor t[2];
	float x[4] = { 1, 2, 3, 4 };
	char out[8192];
	npu_err e = { "" };

	make_tmpdir();
	snprintf(out, sizeof out, "%s/bad.safetensors", tmpdir);
	t[0] = (npu_tensor){ .name = "w", .dtype = NPU_DT_F32, .ndim = 1,
			     .shape = { 4 }, .nbytes = 16, .data = x };
	t[1] = t[0];
	ck_assert(npu_st_write(out, t, 2, NULL, &e) < 0);
	ck_assert_msg(strstr(e.msg, "bad.safetensors: tensor 1 ('w'): name used twice"),
		      "%s", e.msg);
	t[1].name = "v";
	t[1].nbytes = 12;
	ck_assert(npu_st_write(out, t, 2, NULL, &e) < 0);
	ck_assert_msg(strstr(e.msg, "tensor 'v': nbytes is 12, shape and dtype need 16"),
		      "%s", e.msg);
	t[1].nbytes = 16;
	t[1].dtype = 99;
	ck_assert(npu_st_write(out, t, 2, NULL, &e) < 0);
	ck_assert_msg(strstr(e.msg, "unknown dtype 99"), "%s", e.msg);
	t[1].dtype = NPU_DT_F32;
	ck_assert(npu_st_write(out, t, 2, "{\"a\":1}", &e) < 0);
	ck_assert_msg(strstr(e.msg, "__metadata__: 'a' is not a string"), "%s", e.msg);
	ck_assert(npu_st_write(out, t, 2, "{oops", &e) < 0);
	ck_assert_msg(strstr(e.msg, "__metadata__: "), "%s", e.msg);
	ck_assert_int_eq(tmp_entries(), 0);
	snprintf(out, sizeof out, "%s/no/such/dir/x.safetensors", tmpdir);
	ck_assert(npu_st_write(out, t, 2, NULL, &e) < 0);
	ck_assert_msg(strstr(e.msg, "cannot create temporary file: no such file"), "%s", e.msg);
	ck_assert_int_eq(tmp_entries(), 0);
	ck_assert(npu_st_read(&(npu_stfile){ 0 }, out, &e) < 0);
	ck_assert_msg(strstr(e.msg, "x.safetensors: cannot open"), "%s", e.msg);
	remove_tmpdir();
}
END_TEST

/* ---- validation ------------------------------------------------------- */

/* A file of header json (padded) and data_len bytes of data. */
static unsigned char *mkfile(const char *json, size_t data_len, size_t *len)
{
	size_t h = strlen(json);
	unsigned char *b = calloc(1, 8 + h + data_len);
	uint64_t hl = h;

	memcpy(b, &hl, 8);
	memcpy(b + 8, json, h);
	*len = 8 + h + data_len;
	return b;
}

/* Parses json + data_len bytes and expects an error containing msg. */
static void bad(const char *json, size_t data_len, const char *msg)
{
	npu_stfile f;
	npu_err e = { "" };
	size_t len;
	unsigned char *b = mkfile(json, data_len, &len);

	ck_assert_msg(npu_st_parse(&f, "x.safetensors", b, len, &e) < 0,
		      "accepted: %s", json);
	ck_assert_msg(strstr(e.msg, msg) != NULL, "'%s'\n  gave '%s'\n  want '%s'",
		      json, e.msg, msg);
	ck_assert(f.n == 0 && f.t == NULL && f.blob == NULL);
	free(b);
}

static void good(const char *json, size_t data_len, size_t ntensors)
{
	npu_stfile f;
	npu_err e = { "" };
	size_t len;
	unsigned char *b = mkfile(json, data_len, &len);

	ck_assert_msg(npu_st_parse(&f, "x.safetensors", b, len, &e) == 0,
		      "%s: %s", json, e.msg);
	ck_assert_uint_eq(f.n, ntensors);
	npu_st_free(&f);
	free(b);
}

START_TEST(malformed_files)
{
	npu_stfile f;
	npu_err e = { "" };
	unsigned char b[16] = { 0 };
	uint64_t big;

	/* truncated and lying header lengths */
	ck_assert(npu_st_parse(&f, "x.safetensors", b, 5, &e) < 0);
	ck_assert_str_eq(e.msg, "x.safetensors: file too short for the header "
			 "length (5 bytes)");
	big = 9;
	memcpy(b, &big, 8);
	ck_assert(npu_st_parse(&f, "x.safetensors", b, 16, &e) < 0);
	ck_assert_str_eq(e.msg, "x.safetensors: header length 9 runs past the "
			 "end of the file (16 bytes)");
	big = (uint64_t)1 << 40;
	memcpy(b, &big, 8);
	ck_assert(npu_st_parse(&f, "x.safetensors", b, 16, &e) < 0);
	ck_assert_msg(strstr(e.msg, "header length 1099511627776 exceeds the limit"),
		      "%s", e.msg);
	big = UINT64_MAX;
	memcpy(b, &big, 8);
	ck_assert(npu_st_parse(&f, "x.safetensors", b, 16, &e) < 0);

	bad("{\"w\":", 0, "x.safetensors: header: ");
	bad("", 0, "x.safetensors: header: ");
	bad("[1,2]", 0, "x.safetensors: header is not a JSON object");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
	    "\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8,
	    "duplicate object key");
	bad("{\"w\":{\"dtype\":\"F7\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4,
	    "x.safetensors: tensor 'w': unsupported dtype 'F7'");
	bad("{\"w\":{\"dtype\":\"U16\",\"shape\":[1],\"data_offsets\":[0,2]}}", 2,
	    "unsupported dtype 'U16'");
	bad("{\"w\":{\"dtype\":1,\"shape\":[1],\"data_offsets\":[0,4]}}", 4,
	    "tensor 'w': dtype is not a string");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}", 4,
	    "tensor 'w': shape[0] is negative (-1)");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[2,1.5],\"data_offsets\":[0,4]}}", 4,
	    "tensor 'w': shape[1] is not an integer");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":5,\"data_offsets\":[0,4]}}", 4,
	    "tensor 'w': shape is not an array");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[1,1,1,1,1,1,1,1,1],"
	    "\"data_offsets\":[0,4]}}", 4, "shape has 9 dimensions, at most 8");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[4611686018427387904,4],"
	    "\"data_offsets\":[0,4]}}", 4, "tensor 'w': shape holds more than 2^64 bytes");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[4,4],\"data_offsets\":[0,12]}}", 12,
	    "x.safetensors: tensor 'w': data_offsets [0, 12] hold 12 bytes, "
	    "shape [4,4] float32 needs 64");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 3,
	    "tensor 'w': data_offsets [0, 4] run past the data area (3 bytes)");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[8,4]}}", 8,
	    "tensor 'w': data_offsets [8, 4] end before they begin");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[-4,0]}}", 8,
	    "tensor 'w': data_offsets[0] is negative (-4)");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0]}}", 8,
	    "tensor 'w': data_offsets is not an array of two integers");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,\"4\"]}}", 8,
	    "tensor 'w': data_offsets[1] is not an integer");
	bad("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
	    "\"b\":{\"dtype\":\"I32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8,
	    "x.safetensors: tensor 'b': data_offsets [4, 8] overlap those of 'a'");
	bad("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[4,16]},"
	    "\"b\":{\"dtype\":\"I64\",\"shape\":[2],\"data_offsets\":[0,16]}}", 16,
	    "overlap those of 'b'");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[1]}}", 4,
	    "tensor 'w': missing 'data_offsets'");
	bad("{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4],\"x\":1}}",
	    4, "tensor 'w': unknown key 'x'");
	bad("{\"w\":[1]}", 4, "tensor 'w': entry is not an object");
	bad("{\"__metadata__\":{\"a\":1}}", 0, "__metadata__: 'a' is not a string");
	bad("{\"__metadata__\":[]}", 0, "__metadata__ is not an object");
	bad("{\"w\":\"\\u0000\"}", 0, "x.safetensors: header: ");

	/* valid corner cases */
	good("{}", 0, 0);
	good("{}      ", 0, 0);
	good("{\"__metadata__\":{}}", 0, 0);
	good("{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]},"
	     "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
	     "\"c\":{\"dtype\":\"F32\",\"shape\":[2,0],\"data_offsets\":[2,2]}}", 4, 3);
	/* unaligned offsets and gaps are allowed */
	good("{\"a\":{\"dtype\":\"F64\",\"shape\":[],\"data_offsets\":[3,11]},"
	     "\"b\":{\"dtype\":\"BOOL\",\"shape\":[1],\"data_offsets\":[0,1]}}", 13, 2);
	good("{\"a\":{\"dtype\":\"F8_E4M3\",\"shape\":[2],\"data_offsets\":[0,2]},"
	     "\"b\":{\"dtype\":\"F8_E5M2\",\"shape\":[2],\"data_offsets\":[2,4]}}", 4, 2);
}
END_TEST

START_TEST(numel_and_codes)
{
	int64_t s[3] = { 2, 3, 4 }, z[2] = { 5, 0 }, neg[1] = { -1 };
	int64_t huge[2] = { INT64_MAX, 4 };

	ck_assert_uint_eq(npu_numel(3, s), 24);
	ck_assert_uint_eq(npu_numel(0, s), 1);
	ck_assert_uint_eq(npu_numel(2, z), 0);
	ck_assert_uint_eq(npu_numel(1, neg), 0);
	ck_assert(npu_numel(2, huge) == UINT64_MAX);
	for (int dt = 0; dt < NPU_NDTYPE; dt++) {
		ck_assert_ptr_nonnull(npu_st_dtype_code(dt));
		ck_assert_int_eq(npu_st_dtype_from_code(npu_st_dtype_code(dt)), dt);
	}
	ck_assert_str_eq(npu_st_dtype_code(NPU_DT_BF16), "BF16");
	ck_assert_str_eq(npu_st_dtype_code(NPU_DT_E4M3), "F8_E4M3");
	ck_assert_int_eq(npu_st_dtype_from_code("bf16"), -1);
	ck_assert_ptr_null(npu_st_dtype_code(-1));
	ck_assert_ptr_null(npu_st_dtype_code(NPU_NDTYPE));
}
END_TEST

static Suite *st_suite(void)
{
	Suite *s = suite_create("st");
	TCase *t = tcase_create("st");

	tcase_add_test(t, torch_files_round_trip);
	tcase_add_test(t, torch_file_contents);
	tcase_add_test(t, write_read_every_dtype);
	tcase_add_test(t, write_errors);
	tcase_add_test(t, malformed_files);
	tcase_add_test(t, numel_and_codes);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(st_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
