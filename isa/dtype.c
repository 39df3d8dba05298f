/*
 * dtype.c - see dtype.h; docs/numerics.md explains each rule.
 *
 * The scalar converters live in the header as inline functions; this file
 * holds their external definitions, the per-dtype dispatch of the load and
 * store helpers, and the bulk loops.  Every element access goes through
 * memcpy, so arrays need no alignment (safetensors data has none) and the
 * compiler still emits plain loads.
 */
#include "isa/dtype.h"

#include "isa/isa.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npusim stores tensors little-endian and assumes a little-endian host"
#endif

extern inline uint32_t npu_f32_bits(float f);
extern inline float npu_bits_f32(uint32_t u);
extern inline uint32_t npu_sel32(int c, uint32_t a, uint32_t b);
extern inline uint16_t npu_f32_to_bf16(float f);
extern inline float npu_bf16_to_f32(uint16_t h);
extern inline uint16_t npu_f32_to_f16(float f);
extern inline float npu_f16_to_f32(uint16_t h);
extern inline uint8_t npu_f32_to_e4m3(float f, int saturate);
extern inline float npu_e4m3_to_f32(uint8_t b);
extern inline uint8_t npu_f32_to_e5m2(float f, int saturate);
extern inline float npu_e5m2_to_f32(uint8_t b);
extern inline int64_t npu_f64_to_int(double d, int bits, int is_unsigned,
				     int mode);

/*
 * Unaligned element access: get_T(p, i) reads element i of an array of T
 * at p, put_T(p, i, v) writes it.
 */
#define ACCESSORS(T, name) \
	static inline T get_##name(const void *p, size_t i) \
	{ T v; memcpy(&v, (const char *)p + i * sizeof v, sizeof v); return v; } \
	static inline void put_##name(void *p, size_t i, T v) \
	{ memcpy((char *)p + i * sizeof v, &v, sizeof v); }
ACCESSORS(float, f32)
ACCESSORS(double, f64)
ACCESSORS(uint8_t, u8)
ACCESSORS(int8_t, i8)
ACCESSORS(uint16_t, u16)
ACCESSORS(int16_t, i16)
ACCESSORS(int32_t, i32)
ACCESSORS(int64_t, i64)
#define GET(T, p, i) get_##T(p, i)
#define PUT(T, p, i, v) put_##T(p, i, v)

/* ---- element access --------------------------------------------------- */

float npu_load_f32(int dt, const void *base, size_t i)
{
	switch (dt) {
	case NPU_DT_F32:  return GET(f32, base, i);
	case NPU_DT_BF16: return npu_bf16_to_f32(GET(u16, base, i));
	case NPU_DT_F16:  return npu_f16_to_f32(GET(u16, base, i));
	case NPU_DT_E4M3: return npu_e4m3_to_f32(GET(u8, base, i));
	case NPU_DT_E5M2: return npu_e5m2_to_f32(GET(u8, base, i));
	case NPU_DT_I8:   return GET(i8, base, i);
	case NPU_DT_U8:   return GET(u8, base, i);
	case NPU_DT_I16:  return GET(i16, base, i);
	case NPU_DT_I32:  return (float)GET(i32, base, i);
	case NPU_DT_I64:  return (float)GET(i64, base, i);
	case NPU_DT_BOOL: return GET(u8, base, i) != 0;
	case NPU_DT_F64:  return (float)GET(f64, base, i);
	}
	return 0.0f;
}

double npu_load_f64(int dt, const void *base, size_t i)
{
	switch (dt) {
	case NPU_DT_I32:  return GET(i32, base, i);
	case NPU_DT_I64:  return (double)GET(i64, base, i);
	case NPU_DT_F64:  return GET(f64, base, i);
	default:          return npu_load_f32(dt, base, i);
	}
}

/* Stores an integer value already converted by npu_f64_to_int. */
static void store_int(int dt, void *base, size_t i, int64_t v)
{
	switch (dt) {
	case NPU_DT_I8:  PUT(i8, base, i, (int8_t)v); break;
	case NPU_DT_U8:  PUT(u8, base, i, (uint8_t)v); break;
	case NPU_DT_I16: PUT(i16, base, i, (int16_t)v); break;
	case NPU_DT_I32: PUT(i32, base, i, (int32_t)v); break;
	case NPU_DT_I64: PUT(i64, base, i, v); break;
	}
}

/* Width and signedness of an integer dtype; 0 bits for the others. */
static int int_bits(int dt, int *is_unsigned)
{
	*is_unsigned = dt == NPU_DT_U8;
	switch (dt) {
	case NPU_DT_I8: case NPU_DT_U8: return 8;
	case NPU_DT_I16: return 16;
	case NPU_DT_I32: return 32;
	case NPU_DT_I64: return 64;
	}
	return 0;
}

/*
 * fp32 -> i8/u8/i16/i32 in the RNE and TRUNC modes, in fp32 only: the
 * general npu_f64_to_int is three times slower, and stores of quantised
 * activations are hot.  lo and hi are the type's limits in fp32, top its
 * largest value (for i32, hi is the largest fp32 below 2^31 and anything
 * above it saturates to top); the result matches npu_f64_to_int exactly
 * (the tests compare both).
 */
static inline int32_t f32_to_small_int(float f, float lo, float hi,
				       int32_t top, int mode)
{
	float m = f < 0 ? -0x1p23f : 0x1p23f;
	float a = (f < 0 ? -f : f) < 0x1p23f ? (f + m) - m : f;
	int32_t r;

	if (mode & NPU_CVT_TRUNC)
		a = f;                  /* the conversion below truncates */
	a = a > lo ? a : lo;
	a = a < hi ? a : hi;
	r = (int32_t)a;
	r = f > hi ? top : r;
	return f == f ? r : 0;
}

/* Limits of f32_to_small_int for an integer dtype; 0 if not one. */
static int small_int_limits(int dt, int mode, float *lo, float *hi,
			    int32_t *top)
{
	if (mode & NPU_CVT_WRAP)
		return 0;
	switch (dt) {
	case NPU_DT_I8:  *lo = -128.0f; *hi = 127.0f; *top = 127; return 1;
	case NPU_DT_U8:  *lo = 0.0f; *hi = 255.0f; *top = 255; return 1;
	case NPU_DT_I16: *lo = -32768.0f; *hi = 32767.0f; *top = 32767; return 1;
	case NPU_DT_I32:
		*lo = -0x1p31f;
		*hi = 2147483520.0f;
		*top = INT32_MAX;
		return 1;
	}
	return 0;
}

void npu_store_f32_mode(int dt, void *base, size_t i, float f, int mode)
{
	float lo, hi;
	int32_t top;

	int sat = (mode & NPU_CVT_SAT) != 0, uns, bits;

	switch (dt) {
	case NPU_DT_F32:  PUT(f32, base, i, f); return;
	case NPU_DT_BF16: PUT(u16, base, i, npu_f32_to_bf16(f)); return;
	case NPU_DT_F16:  PUT(u16, base, i, npu_f32_to_f16(f)); return;
	case NPU_DT_E4M3: PUT(u8, base, i, npu_f32_to_e4m3(f, sat)); return;
	case NPU_DT_E5M2: PUT(u8, base, i, npu_f32_to_e5m2(f, sat)); return;
	case NPU_DT_BOOL: PUT(u8, base, i, !(f == 0.0f)); return;
	case NPU_DT_F64:  PUT(f64, base, i, f); return;
	}
	if (small_int_limits(dt, mode, &lo, &hi, &top))
		store_int(dt, base, i, f32_to_small_int(f, lo, hi, top, mode));
	else if ((bits = int_bits(dt, &uns)))
		store_int(dt, base, i, npu_f64_to_int(f, bits, uns, mode));
}

void npu_store_f32(int dt, void *base, size_t i, float f)
{
	npu_store_f32_mode(dt, base, i, f, NPU_CVT_RNE);
}

void npu_store_f32_trunc(int dt, void *base, size_t i, float f)
{
	npu_store_f32_mode(dt, base, i, f, NPU_CVT_TRUNC);
}

void npu_store_f64_mode(int dt, void *base, size_t i, double d, int mode)
{
	int uns, bits;

	switch (dt) {
	case NPU_DT_F64:  PUT(f64, base, i, d); return;
	case NPU_DT_BOOL: PUT(u8, base, i, !(d == 0.0)); return;
	}
	if ((bits = int_bits(dt, &uns)))
		store_int(dt, base, i, npu_f64_to_int(d, bits, uns, mode));
	else    /* the float types round through fp32, as c10 does */
		npu_store_f32_mode(dt, base, i, (float)d, mode);
}

void npu_store_f64(int dt, void *base, size_t i, double d)
{
	npu_store_f64_mode(dt, base, i, d, NPU_CVT_RNE);
}

float npu_round_through_mode(int dt, float f, int mode)
{
	unsigned char buf[8];

	if (dt == NPU_DT_F32 || dt == NPU_DT_F64)
		return f;
	npu_store_f32_mode(dt, buf, 0, f, mode);
	return npu_load_f32(dt, buf, 0);
}

float npu_round_through(int dt, float f)
{
	return npu_round_through_mode(dt, f, NPU_CVT_RNE);
}

/* ---- bulk ------------------------------------------------------------- */

/*
 * Runs body for k = 0 .. n-1, in blocks of 16 with a fixed trip count:
 * GCC's -O2 cost model vectorises those, while it leaves a plain loop of
 * unknown count scalar (-O3 would do either).
 */
#define BLOCKED(n, body) do { \
	size_t k0_ = 0; \
	for (; k0_ + 16 <= (n); k0_ += 16) \
		for (size_t k = k0_; k < k0_ + 16; k++) { body; } \
	for (size_t k = k0_; k < (n); k++) { body; } \
} while (0)

void npu_bf16_to_f32_n(float *dst, const uint16_t *src, size_t n)
{
	BLOCKED(n, dst[k] = npu_bf16_to_f32(src[k]));
}

void npu_f32_to_bf16_n(uint16_t *dst, const float *src, size_t n)
{
	BLOCKED(n, dst[k] = npu_f32_to_bf16(src[k]));
}

void npu_f16_to_f32_n(float *dst, const uint16_t *src, size_t n)
{
	BLOCKED(n, dst[k] = npu_f16_to_f32(src[k]));
}

void npu_f32_to_f16_n(uint16_t *dst, const float *src, size_t n)
{
	BLOCKED(n, dst[k] = npu_f32_to_f16(src[k]));
}

void npu_e4m3_to_f32_n(float *dst, const uint8_t *src, size_t n)
{
	BLOCKED(n, dst[k] = npu_e4m3_to_f32(src[k]));
}

void npu_f32_to_e4m3_n(uint8_t *dst, const float *src, size_t n, int saturate)
{
	BLOCKED(n, dst[k] = npu_f32_to_e4m3(src[k], saturate));
}

void npu_e5m2_to_f32_n(float *dst, const uint8_t *src, size_t n)
{
	BLOCKED(n, dst[k] = npu_e5m2_to_f32(src[k]));
}

void npu_f32_to_e5m2_n(uint8_t *dst, const float *src, size_t n, int saturate)
{
	BLOCKED(n, dst[k] = npu_f32_to_e5m2(src[k], saturate));
}

/*
 * The generic loops: one switch, then a loop the compiler can vectorise
 * (GET/PUT are plain unaligned loads and stores once inlined).
 */
#define LOAD_LOOP(T, conv) \
	BLOCKED(n, dst[k] = conv(get_##T(src, k))); \
	return

void npu_load_f32_n(int dt, float *dst, const void *src, size_t n)
{
	switch (dt) {
	case NPU_DT_F32:  if (n) memmove(dst, src, n * sizeof(float)); return;
	case NPU_DT_BF16: LOAD_LOOP(u16, npu_bf16_to_f32);
	case NPU_DT_F16:  LOAD_LOOP(u16, npu_f16_to_f32);
	case NPU_DT_E4M3: LOAD_LOOP(u8, npu_e4m3_to_f32);
	case NPU_DT_E5M2: LOAD_LOOP(u8, npu_e5m2_to_f32);
	case NPU_DT_I8:   LOAD_LOOP(i8, (float));
	case NPU_DT_U8:   LOAD_LOOP(u8, (float));
	case NPU_DT_I16:  LOAD_LOOP(i16, (float));
	case NPU_DT_I32:  LOAD_LOOP(i32, (float));
	case NPU_DT_I64:  LOAD_LOOP(i64, (float));
	case NPU_DT_BOOL: LOAD_LOOP(u8, !!);
	case NPU_DT_F64:  LOAD_LOOP(f64, (float));
	}
}

#define STORE_LOOP(T, expr) \
	BLOCKED(n, float x = src[k]; put_##T(dst, k, (expr))); \
	return

void npu_store_f32_n(int dt, void *dst, const float *src, size_t n, int mode)
{
	int sat = (mode & NPU_CVT_SAT) != 0, uns, bits;
	float lo, hi;
	int32_t top;

	switch (dt) {
	case NPU_DT_F32:  if (n) memmove(dst, src, n * sizeof(float)); return;
	case NPU_DT_BF16: STORE_LOOP(u16, npu_f32_to_bf16(x));
	case NPU_DT_F16:  STORE_LOOP(u16, npu_f32_to_f16(x));
	case NPU_DT_E4M3: STORE_LOOP(u8, npu_f32_to_e4m3(x, sat));
	case NPU_DT_E5M2: STORE_LOOP(u8, npu_f32_to_e5m2(x, sat));
	case NPU_DT_BOOL: STORE_LOOP(u8, !(x == 0.0f));
	case NPU_DT_F64:  STORE_LOOP(f64, (double)x);
	}
	if (small_int_limits(dt, mode, &lo, &hi, &top)) {
		switch (dt) {
		case NPU_DT_I8:  STORE_LOOP(i8, (int8_t)f32_to_small_int(x, lo, hi, top, mode));
		case NPU_DT_U8:  STORE_LOOP(u8, (uint8_t)f32_to_small_int(x, lo, hi, top, mode));
		case NPU_DT_I16: STORE_LOOP(i16, (int16_t)f32_to_small_int(x, lo, hi, top, mode));
		case NPU_DT_I32: STORE_LOOP(i32, f32_to_small_int(x, lo, hi, top, mode));
		}
	}
	if (!(bits = int_bits(dt, &uns)))
		return;
	for (size_t i = 0; i < n; i++)
		store_int(dt, dst, i, npu_f64_to_int(src[i], bits, uns, mode));
}

/* ---- any to any ------------------------------------------------------- */

static int is_int(int dt)
{
	int uns;

	return int_bits(dt, &uns) != 0;
}

/* An integer element as int64 (bool counts as an integer here). */
static int64_t load_int(int dt, const void *p, size_t i)
{
	switch (dt) {
	case NPU_DT_I8:   return GET(i8, p, i);
	case NPU_DT_U8:   return GET(u8, p, i);
	case NPU_DT_I16:  return GET(i16, p, i);
	case NPU_DT_I32:  return GET(i32, p, i);
	case NPU_DT_I64:  return GET(i64, p, i);
	case NPU_DT_BOOL: return GET(u8, p, i) != 0;
	}
	return 0;
}

void npu_convert_mode(int dst_dt, void *dst, int src_dt, const void *src,
		      size_t n, int mode)
{
	int src_int = is_int(src_dt) || src_dt == NPU_DT_BOOL;

	if (dst_dt == src_dt) {
		if (n)
			memmove(dst, src, n * (size_t)npu_dtype_size(dst_dt));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (src_int && is_int(dst_dt)) {
			/* two's complement wrap, as C++ casts between ints */
			store_int(dst_dt, dst, i, load_int(src_dt, src, i));
		} else if (dst_dt == NPU_DT_BOOL) {
			int nz = src_int ? load_int(src_dt, src, i) != 0
					 : !(npu_load_f64(src_dt, src, i) == 0.0);
			PUT(u8, dst, i, (uint8_t)nz);
		} else if (src_dt == NPU_DT_I64 && dst_dt != NPU_DT_F64) {
			/* one rounding to fp32, as static_cast<float>(int64) */
			npu_store_f32_mode(dst_dt, dst, i,
					   (float)GET(i64, src, i), mode);
		} else {
			npu_store_f64_mode(dst_dt, dst, i,
					   npu_load_f64(src_dt, src, i), mode);
		}
	}
}

void npu_convert(int dst_dt, void *dst, int src_dt, const void *src, size_t n)
{
	npu_convert_mode(dst_dt, dst, src_dt, src, n, NPU_CVT_RNE);
}
