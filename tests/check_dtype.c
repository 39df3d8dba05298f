/*
 * check_dtype.c - the dtype conversions against PyTorch's, bit for bit.
 *
 * bf16, fp16 and the integer casts are compared with vectors that PyTorch
 * itself produced (tests/data/numerics/gen_vectors.py); PyTorch 1.13 has no
 * float8, so the fp8 formats are checked against values computed here from
 * the format's definition (sign, exponent, mantissa, bias), independently
 * of the code under test.  Every comparison is on bits: one ulp off fails.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/dtype.h"
#include "isa/isa.h"

/*
 * ck_assert_msg for loops over many thousand elements: Check records every
 * passing assertion (a write to its pipe), which is slow; this only calls
 * into Check on a failure.
 */
#define expect(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

/* Reads tests/data/numerics/NAME whole; *n is its size in elements. */
static void *vec(const char *name, size_t elsize, size_t *n)
{
	const char *srcdir = getenv("srcdir");
	char path[4096];
	FILE *f;
	long len;
	void *buf;

	snprintf(path, sizeof path, "%s/tests/data/numerics/%s",
		 srcdir ? srcdir : ".", name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert(fseek(f, 0, SEEK_END) == 0);
	len = ftell(f);
	ck_assert(len > 0 && len % (long)elsize == 0);
	rewind(f);
	buf = malloc((size_t)len);
	ck_assert(buf && fread(buf, 1, (size_t)len, f) == (size_t)len);
	fclose(f);
	*n = (size_t)len / elsize;
	return buf;
}

static uint32_t fbits(float f) { return npu_f32_bits(f); }
static float bitsf(uint32_t u) { return npu_bits_f32(u); }

/* ---- bf16 and fp16: every bit pattern --------------------------------- */

static void exhaustive16(const char *prefix, int dt)
{
	char a[64], b[64];
	size_t n, n2;
	uint32_t *to32;
	uint16_t *rt, pat[65536], back[65536];
	float f[65536];

	snprintf(a, sizeof a, "%s_to_f32.bin", prefix);
	snprintf(b, sizeof b, "%s_roundtrip.bin", prefix);
	to32 = vec(a, 4, &n);
	rt = vec(b, 2, &n2);
	ck_assert_uint_eq(n, 65536);
	ck_assert_uint_eq(n2, 65536);
	for (uint32_t h = 0; h < 65536; h++) {
		float x = dt == NPU_DT_BF16 ? npu_bf16_to_f32((uint16_t)h)
					    : npu_f16_to_f32((uint16_t)h);
		uint16_t y = dt == NPU_DT_BF16 ? npu_f32_to_bf16(x)
					       : npu_f32_to_f16(x);
		expect(fbits(x) == to32[h], "%s 0x%04x -> f32 0x%08x, torch 0x%08x",
			      prefix, h, fbits(x), to32[h]);
		expect(y == rt[h], "%s 0x%04x -> f32 -> 0x%04x, torch 0x%04x",
			      prefix, h, y, rt[h]);
		pat[h] = (uint16_t)h;
	}
	/* the bulk and generic paths agree with the scalar ones */
	npu_load_f32_n(dt, f, pat, 65536);
	npu_store_f32_n(dt, back, f, 65536, 0);
	ck_assert(memcmp(f, to32, sizeof f) == 0);
	ck_assert(memcmp(back, rt, sizeof back) == 0);
	memset(f, 0, sizeof f);
	memset(back, 0, sizeof back);
	if (dt == NPU_DT_BF16) {
		npu_bf16_to_f32_n(f, pat, 65536);
		npu_f32_to_bf16_n(back, f, 65536);
	} else {
		npu_f16_to_f32_n(f, pat, 65536);
		npu_f32_to_f16_n(back, f, 65536);
	}
	ck_assert(memcmp(f, to32, sizeof f) == 0);
	ck_assert(memcmp(back, rt, sizeof back) == 0);
	for (uint32_t h = 0; h < 65536; h += 97) {
		ck_assert_uint_eq(fbits(npu_load_f32(dt, pat, h)), to32[h]);
		ck_assert_uint_eq(fbits(npu_round_through(dt, bitsf(to32[h]))),
				  fbits(npu_load_f32(dt, rt, h)));
	}
	free(to32);
	free(rt);
}

START_TEST(bf16_every_pattern) { exhaustive16("bf16", NPU_DT_BF16); }
END_TEST

START_TEST(f16_every_pattern) { exhaustive16("f16", NPU_DT_F16); }
END_TEST

/* ---- fp32 -> bf16 / fp16 on the interesting values -------------------- */

START_TEST(f32_cases_bf16_f16)
{
	size_t n, nb, nh;
	uint32_t *in = vec("fcases.bin", 4, &n);
	uint16_t *bf = vec("fcases_bf16.bin", 2, &nb);
	uint16_t *hf = vec("fcases_f16.bin", 2, &nh);
	uint16_t *out = malloc(n * 2);

	ck_assert_uint_eq(n, nb);
	ck_assert_uint_eq(n, nh);
	ck_assert_uint_gt(n, 10000);
	for (size_t i = 0; i < n; i++) {
		float x = bitsf(in[i]);
		expect(npu_f32_to_bf16(x) == bf[i],
			      "bf16(0x%08x) = 0x%04x, torch 0x%04x", in[i],
			      npu_f32_to_bf16(x), bf[i]);
		expect(npu_f32_to_f16(x) == hf[i],
			      "f16(0x%08x) = 0x%04x, torch 0x%04x", in[i],
			      npu_f32_to_f16(x), hf[i]);
	}
	npu_store_f32_n(NPU_DT_BF16, out, (const float *)in, n, 0);
	ck_assert(memcmp(out, bf, n * 2) == 0);
	npu_f32_to_f16_n(out, (const float *)in, n);
	ck_assert(memcmp(out, hf, n * 2) == 0);
	free(in);
	free(bf);
	free(hf);
	free(out);
}
END_TEST

/* A few spot values stated by hand, so a wrong vector file cannot hide. */
START_TEST(f32_spot_values)
{
	ck_assert_uint_eq(npu_f32_to_bf16(1.0f), 0x3f80);
	ck_assert_uint_eq(npu_f32_to_bf16(bitsf(0x3f808000)), 0x3f80); /* tie, even */
	ck_assert_uint_eq(npu_f32_to_bf16(bitsf(0x3f818000)), 0x3f82); /* tie, odd */
	ck_assert_uint_eq(npu_f32_to_bf16(bitsf(0x3f808001)), 0x3f81);
	ck_assert_uint_eq(npu_f32_to_bf16(bitsf(0x7f7fffff)), 0x7f80);  /* inf */
	ck_assert_uint_eq(npu_f32_to_bf16(-0.0f), 0x8000);
	ck_assert_uint_eq(npu_f32_to_bf16(NAN), 0xffff);
	ck_assert_uint_eq(npu_f32_to_f16(65504.0f), 0x7bff);
	ck_assert_uint_eq(npu_f32_to_f16(65519.0f), 0x7bff);
	ck_assert_uint_eq(npu_f32_to_f16(65520.0f), 0x7c00);
	ck_assert_uint_eq(npu_f32_to_f16(0x1p-24f), 0x0001);
	ck_assert_uint_eq(npu_f32_to_f16(0x1p-25f), 0x0000);            /* tie */
	ck_assert_uint_eq(npu_f32_to_f16(0x1.8p-24f), 0x0002);          /* tie */
	ck_assert_uint_eq(npu_f32_to_f16(-0x1p-26f), 0x8000);
	ck_assert_uint_eq(npu_f32_to_f16(bitsf(0xffc00000)), 0xfe00);
	ck_assert_uint_eq(fbits(npu_f16_to_f32(0x7c01)), 0x7fc02000);
	ck_assert(npu_f16_to_f32(0x0001) == 0x1p-24f);
	ck_assert(npu_f16_to_f32(0x7bff) == 65504.0f);
}
END_TEST

/* ---- fp32 -> integers ----------------------------------------------- */

struct ivec {
	const char *file;
	int dt;
	size_t size;
};

static int64_t get_int(const void *p, size_t size, int uns, size_t i)
{
	const char *c = (const char *)p + i * size;
	int64_t v = 0;

	switch (size) {
	case 1: v = uns ? (int64_t)*(const uint8_t *)c : *(const int8_t *)c; break;
	case 2: { int16_t x; memcpy(&x, c, 2); v = x; break; }
	case 4: { int32_t x; memcpy(&x, c, 4); v = x; break; }
	case 8: memcpy(&v, c, 8); break;
	}
	return v;
}

/* Stores x with mode into dt and reads the integer back. */
static int64_t store_int(int dt, float x, int mode)
{
	unsigned char buf[8] = { 0 };
	int size = npu_dtype_size(dt);

	npu_store_f32_mode(dt, buf, 0, x, mode);
	return get_int(buf, (size_t)size, dt == NPU_DT_U8 || dt == NPU_DT_BOOL, 0);
}

START_TEST(f32_to_int_round_clamp)
{
	static const struct ivec r[] = {
		{ "icases_round_i8.bin", NPU_DT_I8, 1 },
		{ "icases_round_u8.bin", NPU_DT_U8, 1 },
		{ "icases_round_i16.bin", NPU_DT_I16, 2 },
	};
	size_t n, m;
	uint32_t *in = vec("icases.bin", 4, &n);

	for (size_t k = 0; k < sizeof r / sizeof r[0]; k++) {
		void *ref = vec(r[k].file, r[k].size, &m);
		ck_assert_uint_eq(m, n);
		for (size_t i = 0; i < n; i++) {
			float x = bitsf(in[i]);
			int64_t want = get_int(ref, r[k].size, r[k].dt == NPU_DT_U8, i);
			int64_t got = store_int(r[k].dt, x, NPU_CVT_RNE);
			expect(got == want, "%s: %a -> %lld, torch %lld",
				      r[k].file, (double)x, (long long)got, (long long)want);
		}
		free(ref);
	}
	free(in);
}
END_TEST

/* trunc(x) as double, or NAN when x is NaN. */
static int in_range_trunc(float x, int dt)
{
	double t = trunc((double)x);

	switch (dt) {
	case NPU_DT_I8:  return t >= -128 && t <= 127;
	case NPU_DT_U8:  return t >= 0 && t <= 255;
	case NPU_DT_I16: return t >= -32768 && t <= 32767;
	case NPU_DT_I32: return t >= -0x1p31 && t < 0x1p31;
	case NPU_DT_I64: return t >= -0x1p63 && t < 0x1p63;
	}
	return 0;
}

START_TEST(f32_to_int_casts)
{
	static const struct ivec c[] = {
		{ "icases_cast_i8.bin", NPU_DT_I8, 1 },
		{ "icases_cast_u8.bin", NPU_DT_U8, 1 },
		{ "icases_cast_i16.bin", NPU_DT_I16, 2 },
		{ "icases_cast_i32.bin", NPU_DT_I32, 4 },
		{ "icases_cast_i64.bin", NPU_DT_I64, 8 },
	};
	size_t n, m;
	uint32_t *in = vec("icases.bin", 4, &n);
	int checked_trunc = 0;

	for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
		void *ref = vec(c[k].file, c[k].size, &m);
		int uns = c[k].dt == NPU_DT_U8;
		ck_assert_uint_eq(m, n);
		for (size_t i = 0; i < n; i++) {
			float x = bitsf(in[i]);
			int64_t want = get_int(ref, c[k].size, uns, i);
			/* NPU_CVT_WRAP reproduces eager x86 everywhere */
			int64_t got = store_int(c[k].dt, x, NPU_CVT_WRAP);
			expect(got == want, "%s wrap: %a -> %lld, torch %lld",
				      c[k].file, (double)x, (long long)got, (long long)want);
			/* NPU_CVT_TRUNC agrees wherever the cast is defined */
			if (in_range_trunc(x, c[k].dt)) {
				got = store_int(c[k].dt, x, NPU_CVT_TRUNC);
				expect(got == want, "%s trunc: %a -> %lld, torch %lld",
					      c[k].file, (double)x, (long long)got,
					      (long long)want);
				checked_trunc++;
			}
		}
		free(ref);
	}
	ck_assert_int_gt(checked_trunc, 10000);
	free(in);
}
END_TEST

START_TEST(f32_to_bool)
{
	size_t n, m;
	uint32_t *in = vec("icases.bin", 4, &n);
	uint8_t *ref = vec("icases_bool.bin", 1, &m);
	uint8_t *out = malloc(n);

	ck_assert_uint_eq(m, n);
	npu_store_f32_n(NPU_DT_BOOL, out, (const float *)in, n, 0);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(store_int(NPU_DT_BOOL, bitsf(in[i]), 0), ref[i]);
		ck_assert_uint_eq(out[i], ref[i]);
	}
	ck_assert_uint_eq(store_int(NPU_DT_BOOL, NAN, 0), 1);
	ck_assert_uint_eq(store_int(NPU_DT_BOOL, -0.0f, 0), 0);
	free(in);
	free(ref);
	free(out);
}
END_TEST

/* Saturation and NaN in the default and truncating modes, by hand. */
START_TEST(int_saturation_rules)
{
	ck_assert_int_eq(store_int(NPU_DT_I8, 127.5f, 0), 127);
	ck_assert_int_eq(store_int(NPU_DT_I8, 126.5f, 0), 126);
	ck_assert_int_eq(store_int(NPU_DT_I8, -128.5f, 0), -128);
	ck_assert_int_eq(store_int(NPU_DT_I8, 1e30f, 0), 127);
	ck_assert_int_eq(store_int(NPU_DT_I8, -INFINITY, 0), -128);
	ck_assert_int_eq(store_int(NPU_DT_I8, NAN, 0), 0);
	ck_assert_int_eq(store_int(NPU_DT_I8, NAN, NPU_CVT_TRUNC), 0);
	ck_assert_int_eq(store_int(NPU_DT_I8, 300.0f, NPU_CVT_TRUNC), 127);
	ck_assert_int_eq(store_int(NPU_DT_I8, -1.9f, NPU_CVT_TRUNC), -1);
	ck_assert_int_eq(store_int(NPU_DT_I8, 300.0f, NPU_CVT_WRAP), 44);
	ck_assert_int_eq(store_int(NPU_DT_U8, -1.0f, NPU_CVT_WRAP), 255);
	ck_assert_int_eq(store_int(NPU_DT_U8, -1.0f, 0), 0);
	ck_assert_int_eq(store_int(NPU_DT_U8, 255.5f, 0), 255);
	ck_assert_int_eq(store_int(NPU_DT_U8, 254.5f, 0), 254);
	ck_assert_int_eq(store_int(NPU_DT_I32, 3e9f, 0), INT32_MAX);
	ck_assert_int_eq(store_int(NPU_DT_I32, -3e9f, 0), INT32_MIN);
	ck_assert_int_eq(store_int(NPU_DT_I32, 2147483520.0f, 0), 2147483520);
	ck_assert_int_eq(store_int(NPU_DT_I32, NAN, NPU_CVT_WRAP), INT32_MIN);
	ck_assert(store_int(NPU_DT_I64, 1e19f, 0) == INT64_MAX);
	ck_assert(store_int(NPU_DT_I64, -1e19f, 0) == INT64_MIN);
	ck_assert(store_int(NPU_DT_I64, -0x1p63f, 0) == INT64_MIN);
	ck_assert(store_int(NPU_DT_I64, 0x1p62f, 0) == (int64_t)1 << 62);
	ck_assert_int_eq(store_int(NPU_DT_I16, 2.5f, 0), 2);
	ck_assert_int_eq(store_int(NPU_DT_I16, -3.5f, 0), -4);
	ck_assert_int_eq(store_int(NPU_DT_I16, 0.49999997f, 0), 0);
	ck_assert(npu_f64_to_int(4503599627370497.0, 64, 0, 0) == 4503599627370497LL);
	ck_assert(npu_f64_to_int(2.5, 64, 0, 0) == 2);
	ck_assert(npu_f64_to_int(-0.5, 8, 1, 0) == 0);
}
END_TEST

/* The fast fp32 store path and npu_f64_to_int agree on every exponent. */
START_TEST(int_store_paths_agree)
{
	static const struct { int dt, bits, uns; } ty[] = {
		{ NPU_DT_I8, 8, 0 }, { NPU_DT_U8, 8, 1 }, { NPU_DT_I16, 16, 0 },
		{ NPU_DT_I32, 32, 0 }, { NPU_DT_I64, 64, 0 },
	};
	enum { N = 1 << 16 };
	static float in[N];
	static unsigned char bulk[N * 8];

	for (uint32_t i = 0; i < N; i++) {
		uint32_t u = i * 0x9e3779b1u;
		/* bias towards the exponents where integers live */
		if (i & 1)
			u = (u & 0x807fffffu) | ((120u + (i >> 1) % 50) << 23);
		in[i] = bitsf(u);
	}
	in[0] = 0x1p31f;
	in[1] = -0x1p31f;
	in[2] = 2147483520.0f;
	in[3] = NAN;
	for (size_t k = 0; k < sizeof ty / sizeof ty[0]; k++)
		for (int mode = 0; mode < 4; mode++) {
			npu_store_f32_n(ty[k].dt, bulk, in, N, mode);
			for (size_t i = 0; i < N; i++) {
				int64_t want = npu_f64_to_int(in[i], ty[k].bits, ty[k].uns, mode);
				int64_t got = store_int(ty[k].dt, in[i], mode);
				int64_t got_n = get_int(bulk, (size_t)npu_dtype_size(ty[k].dt),
							ty[k].uns, i);
				expect(got == want && got_n == want,
					      "%s mode %d: %a -> %lld / %lld, want %lld",
					      npu_dtype_name(ty[k].dt), mode, (double)in[i],
					      (long long)got, (long long)got_n, (long long)want);
			}
		}
}
END_TEST

/* ---- int64 and fp64 sources -------------------------------------------- */

START_TEST(i64_to_f32)
{
	size_t n, m;
	int64_t *in = vec("lcases.bin", 8, &n);
	uint32_t *ref = vec("lcases_f32.bin", 4, &m);
	float *out = malloc(n * 4);

	ck_assert_uint_eq(n, m);
	for (size_t i = 0; i < n; i++)
		expect(fbits(npu_load_f32(NPU_DT_I64, in, i)) == ref[i],
			      "%lld -> 0x%08x, torch 0x%08x", (long long)in[i],
			      fbits(npu_load_f32(NPU_DT_I64, in, i)), ref[i]);
	npu_convert(NPU_DT_F32, out, NPU_DT_I64, in, n);
	ck_assert(memcmp(out, ref, n * 4) == 0);
	npu_load_f32_n(NPU_DT_I64, out, in, n);
	ck_assert(memcmp(out, ref, n * 4) == 0);
	free(in);
	free(ref);
	free(out);
}
END_TEST

START_TEST(f64_to_floats)
{
	size_t n, m1, m2, m3;
	double *in = vec("dcases.bin", 8, &n);
	uint32_t *r32 = vec("dcases_f32.bin", 4, &m1);
	uint16_t *rbf = vec("dcases_bf16.bin", 2, &m2);
	uint16_t *rhf = vec("dcases_f16.bin", 2, &m3);
	uint16_t *o16 = malloc(n * 2);

	ck_assert(n == m1 && n == m2 && n == m3);
	for (size_t i = 0; i < n; i++) {
		uint32_t f;
		uint16_t h;
		npu_store_f64(NPU_DT_F32, &f, 0, in[i]);
		ck_assert_uint_eq(f, r32[i]);
		npu_store_f64(NPU_DT_BF16, &h, 0, in[i]);
		expect(h == rbf[i], "bf16(%a) = 0x%04x, torch 0x%04x",
			      in[i], h, rbf[i]);
		npu_store_f64(NPU_DT_F16, &h, 0, in[i]);
		expect(h == rhf[i], "f16(%a) = 0x%04x, torch 0x%04x",
			      in[i], h, rhf[i]);
	}
	npu_convert(NPU_DT_BF16, o16, NPU_DT_F64, in, n);
	ck_assert(memcmp(o16, rbf, n * 2) == 0);
	npu_convert(NPU_DT_F16, o16, NPU_DT_F64, in, n);
	ck_assert(memcmp(o16, rhf, n * 2) == 0);
	free(in);
	free(r32);
	free(rbf);
	free(rhf);
	free(o16);
}
END_TEST

/* ---- float8: from the format definition ------------------------------ */

/* The value of code b, computed from sign/exponent/mantissa fields. */
static double fp8_value(uint8_t b, int ebits, int mbits, int bias, int fn)
{
	int sign = b >> 7, e = (b >> mbits) & ((1 << ebits) - 1);
	int m = b & ((1 << mbits) - 1), emax = (1 << ebits) - 1;
	double v;

	if (fn && e == emax && m == (1 << mbits) - 1)
		return NAN;                         /* e4m3fn: S.1111.111 only */
	if (!fn && e == emax)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp(m, 1 - bias - mbits);
	else
		v = ldexp((1 << mbits) + m, e - bias - mbits);
	return sign ? -v : v;
}

static float fp8_decode(int dt, uint8_t b)
{
	return dt == NPU_DT_E4M3 ? npu_e4m3_to_f32(b) : npu_e5m2_to_f32(b);
}

static uint8_t fp8_encode(int dt, float f, int sat)
{
	return dt == NPU_DT_E4M3 ? npu_f32_to_e4m3(f, sat) : npu_f32_to_e5m2(f, sat);
}

static void fp8_decode_all(int dt, int ebits, int mbits, int bias, int fn)
{
	int nans = 0;
	uint8_t codes[256];
	float bulk[256];

	for (int b = 0; b < 256; b++) {
		double want = fp8_value((uint8_t)b, ebits, mbits, bias, fn);
		float got = fp8_decode(dt, (uint8_t)b);
		codes[b] = (uint8_t)b;
		if (isnan(want)) {
			expect(isnan(got), "code 0x%02x should be NaN", b);
			ck_assert_int_eq(!!signbit(got), b >> 7);
			nans++;
			continue;
		}
		expect(fbits(got) == fbits((float)want),
			      "code 0x%02x: got %a, want %a", b, (double)got, want);
	}
	ck_assert_int_eq(nans, fn ? 2 : 6);
	npu_load_f32_n(dt, bulk, codes, 256);
	for (int b = 0; b < 256; b++)
		ck_assert_uint_eq(fbits(bulk[b]), fbits(fp8_decode(dt, (uint8_t)b)));
	if (dt == NPU_DT_E4M3)
		npu_e4m3_to_f32_n(bulk, codes, 256);
	else
		npu_e5m2_to_f32_n(bulk, codes, 256);
	for (int b = 0; b < 256; b++)
		ck_assert_uint_eq(fbits(bulk[b]), fbits(fp8_decode(dt, (uint8_t)b)));
}

START_TEST(e4m3_decode_all) { fp8_decode_all(NPU_DT_E4M3, 4, 3, 7, 1); }
END_TEST

START_TEST(e5m2_decode_all) { fp8_decode_all(NPU_DT_E5M2, 5, 2, 15, 0); }
END_TEST

/* The NaN bits c10 produces (both are quiet NaNs). */
START_TEST(fp8_nan_bits)
{
	ck_assert_uint_eq(fbits(npu_e4m3_to_f32(0x7f)), 0x7ff00000);
	ck_assert_uint_eq(fbits(npu_e4m3_to_f32(0xff)), 0xfff00000);
	ck_assert_uint_eq(fbits(npu_e5m2_to_f32(0x7f)), 0x7fe00000);
	ck_assert_uint_eq(fbits(npu_e5m2_to_f32(0x7d)), 0x7fe00000);
	ck_assert_uint_eq(fbits(npu_e5m2_to_f32(0x7e)), 0x7fc00000);
	ck_assert_uint_eq(fbits(npu_e5m2_to_f32(0xfc)), 0xff800000);
}
END_TEST

/*
 * Every representable value encodes to its code; every midpoint between
 * neighbours goes to the even code, and one fp32 ulp either side goes to
 * the nearer code.  top is the largest finite positive code.
 */
static void fp8_encode_all(int dt, int ebits, int mbits, int bias, int fn,
			   uint8_t top)
{
	for (int neg = 0; neg < 2; neg++) {
		uint8_t s = neg ? 0x80 : 0;
		for (int c = 0; c <= top; c++) {
			uint8_t code = (uint8_t)(s | c);
			float v = (float)fp8_value(code, ebits, mbits, bias, fn);
			for (int sat = 0; sat < 2; sat++)
				expect(fp8_encode(dt, v, sat) == code,
					      "%a -> 0x%02x, want 0x%02x", (double)v,
					      fp8_encode(dt, v, sat), code);
			if (c == top)
				break;
			float w = (float)fp8_value((uint8_t)(code + 1), ebits, mbits, bias, fn);
			float mid = (float)(((double)v + (double)w) / 2);
			uint8_t even = (c & 1) ? (uint8_t)(code + 1) : code;
			expect((double)mid == ((double)v + (double)w) / 2,
				      "midpoint not exact");
			expect(fp8_encode(dt, mid, 0) == even,
				      "tie %a -> 0x%02x, want 0x%02x", (double)mid,
				      fp8_encode(dt, mid, 0), even);
			ck_assert_uint_eq(fp8_encode(dt, nextafterf(mid, 0), 0), code);
			ck_assert_uint_eq(fp8_encode(dt, nextafterf(mid, neg ? -INFINITY : INFINITY), 0),
					  (uint8_t)(code + 1));
			ck_assert_uint_eq(fp8_encode(dt, mid, 1), even);
		}
	}
}

START_TEST(e4m3_encode_all)
{
	fp8_encode_all(NPU_DT_E4M3, 4, 3, 7, 1, 0x7e);
	/* beyond 448: the tie with the (missing) 480 goes to even 448; above
	 * it torch gives NaN, the saturating cast 448 */
	ck_assert_uint_eq(npu_f32_to_e4m3(464.0f, 0), 0x7e);
	ck_assert_uint_eq(npu_f32_to_e4m3(nextafterf(464.0f, 1e9f), 0), 0x7f);
	ck_assert_uint_eq(npu_f32_to_e4m3(480.0f, 0), 0x7f);
	ck_assert_uint_eq(npu_f32_to_e4m3(-1e6f, 0), 0xff);
	ck_assert_uint_eq(npu_f32_to_e4m3(INFINITY, 0), 0x7f);
	ck_assert_uint_eq(npu_f32_to_e4m3(-INFINITY, 0), 0xff);
	ck_assert_uint_eq(npu_f32_to_e4m3(NAN, 0), 0x7f);
	ck_assert_uint_eq(npu_f32_to_e4m3(-NAN, 0), 0xff);
	ck_assert_uint_eq(npu_f32_to_e4m3(480.0f, 1), 0x7e);
	ck_assert_uint_eq(npu_f32_to_e4m3(-1e30f, 1), 0xfe);
	ck_assert_uint_eq(npu_f32_to_e4m3(INFINITY, 1), 0x7e);
	ck_assert_uint_eq(npu_f32_to_e4m3(-INFINITY, 1), 0xfe);
	ck_assert_uint_eq(npu_f32_to_e4m3(NAN, 1), 0x7f);
	/* below the smallest subnormal 2^-9 */
	ck_assert_uint_eq(npu_f32_to_e4m3(0x1p-10f, 0), 0x00);
	ck_assert_uint_eq(npu_f32_to_e4m3(nextafterf(0x1p-10f, 1), 0), 0x01);
	ck_assert_uint_eq(npu_f32_to_e4m3(-0x1p-30f, 0), 0x80);
	ck_assert_uint_eq(npu_f32_to_e4m3(0x1p-149f, 0), 0x00);
}
END_TEST

START_TEST(e5m2_encode_all)
{
	fp8_encode_all(NPU_DT_E5M2, 5, 2, 15, 0, 0x7b);
	/* 61440 is the tie between 57344 (odd) and 65536: inf */
	ck_assert_uint_eq(npu_f32_to_e5m2(61440.0f, 0), 0x7c);
	ck_assert_uint_eq(npu_f32_to_e5m2(nextafterf(61440.0f, 0), 0), 0x7b);
	ck_assert_uint_eq(npu_f32_to_e5m2(65536.0f, 0), 0x7c);
	ck_assert_uint_eq(npu_f32_to_e5m2(-1e30f, 0), 0xfc);
	ck_assert_uint_eq(npu_f32_to_e5m2(INFINITY, 0), 0x7c);
	ck_assert_uint_eq(npu_f32_to_e5m2(-INFINITY, 0), 0xfc);
	ck_assert_uint_eq(npu_f32_to_e5m2(NAN, 0), 0x7f);
	ck_assert_uint_eq(npu_f32_to_e5m2(-NAN, 0), 0xff);
	ck_assert_uint_eq(npu_f32_to_e5m2(61440.0f, 1), 0x7b);
	ck_assert_uint_eq(npu_f32_to_e5m2(INFINITY, 1), 0x7b);
	ck_assert_uint_eq(npu_f32_to_e5m2(-INFINITY, 1), 0xfb);
	ck_assert_uint_eq(npu_f32_to_e5m2(NAN, 1), 0x7f);
	ck_assert_uint_eq(npu_f32_to_e5m2(0x1p-17f, 0), 0x00);
	ck_assert_uint_eq(npu_f32_to_e5m2(nextafterf(0x1p-17f, 1), 0), 0x01);
}
END_TEST

/* The generic store path and the bulk converters agree with the scalar
 * ones for fp8, on a sweep of every fp32 exponent. */
START_TEST(fp8_bulk_matches_scalar)
{
	enum { N = 4096 };
	float in[N];
	uint8_t a[N], b[N];

	for (int i = 0; i < N; i++)
		in[i] = bitsf(((uint32_t)i * 0x9e3779b1u) ^ ((uint32_t)i << 20));
	for (int sat = 0; sat < 2; sat++) {
		npu_f32_to_e4m3_n(a, in, N, sat);
		npu_store_f32_n(NPU_DT_E4M3, b, in, N, sat ? NPU_CVT_SAT : 0);
		for (int i = 0; i < N; i++) {
			ck_assert_uint_eq(a[i], npu_f32_to_e4m3(in[i], sat));
			ck_assert_uint_eq(b[i], a[i]);
		}
		npu_f32_to_e5m2_n(a, in, N, sat);
		npu_store_f32_n(NPU_DT_E5M2, b, in, N, sat ? NPU_CVT_SAT : 0);
		for (int i = 0; i < N; i++) {
			ck_assert_uint_eq(a[i], npu_f32_to_e5m2(in[i], sat));
			ck_assert_uint_eq(b[i], a[i]);
		}
	}
	ck_assert(npu_round_through_mode(NPU_DT_E4M3, 1000.0f, NPU_CVT_SAT) == 448.0f);
	ck_assert(isnan(npu_round_through(NPU_DT_E4M3, 1000.0f)));
	ck_assert(npu_round_through(NPU_DT_E5M2, 1000.0f) == 1024.0f);
}
END_TEST

/* ---- dispatch, alignment, any-to-any ---------------------------------- */

START_TEST(load_store_every_dtype_unaligned)
{
	static const float vals[] = { 0.0f, 1.0f, -2.0f, 3.0f, 100.0f, 0.5f };
	unsigned char buf[64 + 1];

	for (int dt = 0; dt < NPU_NDTYPE; dt++) {
		int size = npu_dtype_size(dt);
		ck_assert_int_gt(size, 0);
		for (size_t i = 0; i < 6; i++) {
			float want = npu_round_through(dt, vals[i]);
			npu_store_f32(dt, buf + 1, i, vals[i]);
			expect(npu_load_f32(dt, buf + 1, i) == want,
				      "%s element %zu", npu_dtype_name(dt), i);
			ck_assert(npu_load_f64(dt, buf + 1, i) == (double)want);
			npu_store_f64(dt, buf + 1, i, vals[i]);
			ck_assert(npu_load_f32(dt, buf + 1, i) == want);
		}
	}
	/* exact cases that are not exact in fp32 */
	{
		int64_t big = ((int64_t)1 << 53) + 1, got;
		npu_store_f64(NPU_DT_I64, buf + 1, 0, (double)((int64_t)1 << 53));
		memcpy(&got, buf + 1, 8);
		ck_assert(got == (int64_t)1 << 53);
		memcpy(buf + 1, &big, 8);
		ck_assert(npu_load_f64(NPU_DT_I64, buf + 1, 0) == 0x1p53);
		ck_assert(npu_load_f32(NPU_DT_I64, buf + 1, 0) == 0x1p53f);
	}
	ck_assert(npu_round_through(NPU_DT_BF16, 1.00390625f) == 1.0f);
	ck_assert(npu_round_through(NPU_DT_I8, 200.0f) == 127.0f);
	ck_assert(npu_round_through_mode(NPU_DT_I8, -1.5f, NPU_CVT_TRUNC) == -1.0f);
	ck_assert(npu_round_through(NPU_DT_BOOL, -3.0f) == 1.0f);
	ck_assert(npu_round_through(NPU_DT_F32, 1e-45f) == 1e-45f);
	npu_store_f32_trunc(NPU_DT_I16, buf, 0, -7.9f);
	ck_assert(npu_load_f32(NPU_DT_I16, buf, 0) == -7.0f);
}
END_TEST

START_TEST(convert_any_to_any)
{
	int32_t i32[4] = { 300, -200, 1 << 24 | 1, 0 };
	int8_t i8[4];
	uint8_t u8[4] = { 200, 0, 1, 255 }, b[4];
	float f[4];
	double d[4] = { 2.5, -2.5, NAN, 1e300 };
	int64_t i64[4];

	npu_convert(NPU_DT_I8, i8, NPU_DT_I32, i32, 4);   /* wraps */
	ck_assert_int_eq(i8[0], 44);
	ck_assert_int_eq(i8[1], 56);
	ck_assert_int_eq(i8[2], 1);
	npu_convert(NPU_DT_I8, i8, NPU_DT_U8, u8, 4);
	ck_assert_int_eq(i8[0], -56);
	ck_assert_int_eq(i8[3], -1);
	npu_convert(NPU_DT_F32, f, NPU_DT_I32, i32, 4);
	ck_assert(f[2] == 16777216.0f);                      /* rounds once */
	npu_convert(NPU_DT_BOOL, b, NPU_DT_I32, i32, 4);
	ck_assert(b[0] == 1 && b[1] == 1 && b[2] == 1 && b[3] == 0);
	npu_convert(NPU_DT_BOOL, b, NPU_DT_F64, d, 4);
	ck_assert(b[0] == 1 && b[2] == 1);
	npu_convert(NPU_DT_I64, i64, NPU_DT_F64, d, 4);
	ck_assert(i64[0] == 2 && i64[1] == -2 && i64[2] == 0 && i64[3] == INT64_MAX);
	npu_convert_mode(NPU_DT_I64, i64, NPU_DT_F64, d, 4, NPU_CVT_TRUNC);
	ck_assert(i64[0] == 2 && i64[1] == -2);
	npu_convert_mode(NPU_DT_I64, i64, NPU_DT_F64, d, 4, NPU_CVT_WRAP);
	ck_assert(i64[2] == INT64_MIN && i64[3] == INT64_MIN);
	npu_convert(NPU_DT_I32, i32, NPU_DT_I32, i32, 4);  /* same: a copy */
	ck_assert_int_eq(i32[0], 300);
	npu_convert(NPU_DT_I64, i64, NPU_DT_BOOL, b, 4);
	ck_assert(i64[0] == 1 && i64[1] == 1);
	npu_convert(NPU_DT_F32, f, NPU_DT_F32, NULL, 0);    /* n = 0 */
}
END_TEST

static Suite *dtype_suite(void)
{
	Suite *s = suite_create("dtype");
	TCase *t = tcase_create("torch");
	TCase *q = tcase_create("fp8");
	TCase *g = tcase_create("generic");

	tcase_add_test(t, bf16_every_pattern);
	tcase_add_test(t, f16_every_pattern);
	tcase_add_test(t, f32_cases_bf16_f16);
	tcase_add_test(t, f32_spot_values);
	tcase_add_test(t, f32_to_int_round_clamp);
	tcase_add_test(t, f32_to_int_casts);
	tcase_add_test(t, f32_to_bool);
	tcase_add_test(t, int_saturation_rules);
	tcase_add_test(t, int_store_paths_agree);
	tcase_add_test(t, i64_to_f32);
	tcase_add_test(t, f64_to_floats);
	suite_add_tcase(s, t);
	tcase_add_test(q, e4m3_decode_all);
	tcase_add_test(q, e5m2_decode_all);
	tcase_add_test(q, fp8_nan_bits);
	tcase_add_test(q, e4m3_encode_all);
	tcase_add_test(q, e5m2_encode_all);
	tcase_add_test(q, fp8_bulk_matches_scalar);
	suite_add_tcase(s, q);
	tcase_add_test(g, load_store_every_dtype_unaligned);
	tcase_add_test(g, convert_any_to_any);
	suite_add_tcase(s, g);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(dtype_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
