/*
 * dtype.h - conversions between fp32 and the storage types, with the
 * rounding PyTorch uses, so simulated values match eager results bit for
 * bit where PyTorch's do.  docs/numerics.md has every rule and how it
 * relates to PyTorch; in short:
 *
 *   bf16, f16      round to nearest, ties to even; overflow gives inf.
 *                  NaN: f16 keeps the sign, quiet, payload dropped (0x7e00,
 *                  c10's scalar cast); bf16 gives 0xffff, which is what
 *                  eager PyTorch's vectorised CPU cast writes (c10's scalar
 *                  cast would give 0x7fc0; both are quiet NaNs).
 *   e4m3 (fn)      round to nearest even; as torch's float8_e4m3fn cast,
 *                  values beyond the largest finite (448) become NaN
 *                  (no inf in the format); the _sat variant clamps to +-448
 *   e5m2           round to nearest even; overflow gives +-inf as torch;
 *                  the _sat variant clamps to +-57344
 *   i8, u8, i16, i32, i64   from float: round half to even, saturate to the
 *                  type's range, NaN gives 0 (a documented choice: the
 *                  hardware has no NaN for integers).  NPU_CVT_TRUNC and
 *                  NPU_CVT_WRAP select the truncating casts instead (below).
 *   bool           nonzero (NaN included) -> 1
 *
 * Loads are exact except int64 -> fp32, which rounds to nearest even.
 * Stores from fp64 into bf16/f16/fp8 go through fp32 first (rounding
 * twice), because that is what PyTorch does (c10::BFloat16 and c10::Half
 * are built from a float).
 *
 * The scalar converters are C99 inline functions, so that the simulator's
 * per-element loops and the bulk converters compile to straight-line bit
 * manipulation; dtype.c holds their one external definition.  Pointers
 * given to the load/store helpers need no alignment.
 */
#ifndef NPU_DTYPE_H
#define NPU_DTYPE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Store modes (the `mode` argument below).  Only the integer and fp8
 * destinations look at them; the default 0 is the documented behaviour
 * above.
 *   NPU_CVT_TRUNC  float -> int truncates toward zero (as C and torch's
 *                  `.to(torch.int8)`), still saturating, NaN -> 0.
 *   NPU_CVT_WRAP   float -> int exactly as eager PyTorch on x86: truncate
 *                  through int32 (int64 for i64), an out-of-range value or
 *                  NaN gives INT32_MIN (INT64_MIN), then keep the low bits
 *                  (300.0 -> int8 44, -1.0 -> uint8 255).  In C++ this is
 *                  undefined behaviour; the mode copies the x86 result.
 *   NPU_CVT_SAT    fp8: clamp to the largest finite value first (what
 *                  scaled-matmul quantisation does with clamp(); NaN stays
 *                  NaN).
 * Quantize ops (torch.round, then clamp, then .to()) are the default mode.
 */
enum {
	NPU_CVT_RNE = 0,
	NPU_CVT_TRUNC = 1 << 0,
	NPU_CVT_WRAP = 1 << 1,
	NPU_CVT_SAT = 1 << 2
};

inline uint32_t npu_f32_bits(float f);
inline float npu_bits_f32(uint32_t u);
inline uint32_t npu_sel32(int c, uint32_t a, uint32_t b);
inline uint16_t npu_f32_to_bf16(float f);
inline float npu_bf16_to_f32(uint16_t h);
inline uint16_t npu_f32_to_f16(float f);
inline float npu_f16_to_f32(uint16_t h);
inline uint8_t npu_f32_to_e4m3(float f, int saturate);
inline float npu_e4m3_to_f32(uint8_t b);
inline uint8_t npu_f32_to_e5m2(float f, int saturate);
inline float npu_e5m2_to_f32(uint8_t b);

/*
 * fp64 -> integer of `bits` bits (8, 16, 32, 64), signed unless is_unsigned,
 * with the mode's rounding; the result is the value's two's complement bit
 * pattern, sign- or zero-extended to int64.
 */
inline int64_t npu_f64_to_int(double d, int bits, int is_unsigned, int mode);

/* Reads element i of an array of dtype dt as float (int64 rounds). */
float npu_load_f32(int dt, const void *base, size_t i);

/* Stores f as element i of an array of dtype dt, converting as above. */
void npu_store_f32(int dt, void *base, size_t i, float f);

/* The same with a mode (NPU_CVT_*), and the truncating shorthand. */
void npu_store_f32_mode(int dt, void *base, size_t i, float f, int mode);
void npu_store_f32_trunc(int dt, void *base, size_t i, float f);

/* The same with fp64 precision (for the reference interpreter). */
double npu_load_f64(int dt, const void *base, size_t i);
void npu_store_f64(int dt, void *base, size_t i, double d);
void npu_store_f64_mode(int dt, void *base, size_t i, double d, int mode);

/* Rounds f through dt and back (the vrnd instruction). */
float npu_round_through(int dt, float f);
float npu_round_through_mode(int dt, float f, int mode);

/*
 * Converts n elements between any two dtypes (via fp64, exact for ints
 * up to 2^53).  More precisely, as PyTorch's `.to()`: the same dtype is
 * copied; int -> int keeps the low bits (two's complement wrap), any ->
 * bool tests for nonzero; int64 -> fp32 rounds once; fp64 -> bf16/f16/fp8
 * rounds through fp32; float -> int follows the mode.  dst and src must
 * not overlap unless they are the same array of the same dtype.
 */
void npu_convert(int dst_dt, void *dst, int src_dt, const void *src, size_t n);
void npu_convert_mode(int dst_dt, void *dst, int src_dt, const void *src,
		      size_t n, int mode);

/*
 * Bulk converters, written as simple loops the compiler vectorises.
 * The typed ones need naturally aligned arrays; the generic ones take any
 * pointer.
 */
void npu_bf16_to_f32_n(float *dst, const uint16_t *src, size_t n);
void npu_f32_to_bf16_n(uint16_t *dst, const float *src, size_t n);
void npu_f16_to_f32_n(float *dst, const uint16_t *src, size_t n);
void npu_f32_to_f16_n(uint16_t *dst, const float *src, size_t n);
void npu_e4m3_to_f32_n(float *dst, const uint8_t *src, size_t n);
void npu_f32_to_e4m3_n(uint8_t *dst, const float *src, size_t n, int saturate);
void npu_e5m2_to_f32_n(float *dst, const uint8_t *src, size_t n);
void npu_f32_to_e5m2_n(uint8_t *dst, const float *src, size_t n, int saturate);

/* Any dtype to a float array and back (n elements from element 0). */
void npu_load_f32_n(int dt, float *dst, const void *src, size_t n);
void npu_store_f32_n(int dt, void *dst, const float *src, size_t n, int mode);

/* ---- inline definitions ------------------------------------------------ */

inline uint32_t npu_f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

inline float npu_bits_f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* c ? a : b without a branch (so that loops of converters vectorise). */
inline uint32_t npu_sel32(int c, uint32_t a, uint32_t b)
{
	uint32_t m = -(uint32_t)(c != 0);

	return (a & m) | (b & ~m);
}

inline uint16_t npu_f32_to_bf16(float f)
{
	uint32_t u = npu_f32_bits(f);

	/* Eager PyTorch's AVX2/AVX-512 cast writes 0xffff for every NaN. */
	/* Adding half an ulp minus one, plus the kept lsb, rounds ties to
	 * even; a carry into the exponent gives the right result, up to inf. */
	return (uint16_t)npu_sel32((u & 0x7fffffffu) > 0x7f800000u, 0xffffu,
				   (u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

inline float npu_bf16_to_f32(uint16_t h)
{
	return npu_bits_f32((uint32_t)h << 16);
}

/*
 * The converters below compute every case and select one at the end with
 * masks, so that loops over them have no branches and vectorise.
 */
inline uint16_t npu_f32_to_f16(float f)
{
	uint32_t u = npu_f32_bits(f), sign = (u >> 16) & 0x8000u, nrm, sub, r;

	u &= 0x7fffffffu;
	/* normal (>= 2^-14): add half an ulp minus one plus the kept lsb,
	 * which rounds ties to even, then rebias the exponent */
	nrm = (u + 0xfffu + ((u >> 13) & 1u) - (112u << 23)) >> 13;
	/* subnormal: adding 0.5 puts the 2^-24 grid on fp32's last bit, so
	 * the fp32 addition itself rounds to nearest even (0x400, rounded up
	 * to the smallest normal, encodes correctly too) */
	sub = npu_f32_bits(npu_bits_f32(u) + 0.5f) - 0x3f000000u;
	r = npu_sel32(u >= 0x38800000u, nrm, sub);
	r = npu_sel32(u >= 0x477ff000u, 0x7c00u, r); /* >= 65520: inf */
	r = npu_sel32(u > 0x7f800000u, 0x7e00u, r);  /* NaN: quiet, as c10 */
	return (uint16_t)(sign | r);
}

inline float npu_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, em = h & 0x7fffu;
	uint32_t nrm = (em << 13) + (112u << 23);
	/* inf, or NaN made quiet with its payload kept (as F16C and c10) */
	uint32_t inf = (em << 13) | 0x7f800000u |
		       npu_sel32(em & 0x3ffu, 0x400000u, 0);
	/* zero or subnormal: m * 2^-24, exact in fp32 */
	uint32_t sub = npu_f32_bits((float)(int32_t)em * 0x1p-24f);

	return npu_bits_f32(sign | npu_sel32(em >= 0x7c00u, inf,
					     npu_sel32(em >= 0x400u, nrm, sub)));
}

inline uint8_t npu_f32_to_e4m3(float f, int saturate)
{
	uint32_t u = npu_f32_bits(f), sign = (u >> 24) & 0x80u, nrm, sub, r;

	u &= 0x7fffffffu;
	if (saturate)                           /* clamp to 448 (inf too) */
		u = npu_sel32(u <= 0x7f800000u && u > 0x43e00000u,
			      0x43e00000u, u);
	nrm = (u + 0x7ffffu + ((u >> 20) & 1u) - (120u << 23)) >> 20;
	/* subnormal grid 2^-9: add 2^14 so that fp32 rounds on it */
	sub = npu_f32_bits(npu_bits_f32(u) + 16384.0f) - 0x46800000u;
	r = npu_sel32(u >= 0x3c800000u, nrm, sub);   /* normal from 2^-6 */
	r = npu_sel32(u >= 0x43f00000u, 0x7fu, r);   /* >= 480, inf, NaN */
	return (uint8_t)(sign | r);
}

inline float npu_e4m3_to_f32(uint8_t b)
{
	uint32_t sign = (uint32_t)(b & 0x80u) << 24, em = b & 0x7fu;
	uint32_t nrm = (em << 20) + (120u << 23);
	uint32_t sub = npu_f32_bits((float)(int32_t)em * 0x1p-9f);

	/* 0x7f is the only NaN (no inf); 0x7ff00000 is the value c10 gives */
	return npu_bits_f32(sign | npu_sel32(em == 0x7fu, 0x7ff00000u,
					     npu_sel32(em >= 0x08u, nrm, sub)));
}

inline uint8_t npu_f32_to_e5m2(float f, int saturate)
{
	uint32_t u = npu_f32_bits(f), sign = (u >> 24) & 0x80u, nrm, sub, r;

	u &= 0x7fffffffu;
	if (saturate)                           /* clamp to 57344 (inf too) */
		u = npu_sel32(u <= 0x7f800000u && u > 0x47600000u,
			      0x47600000u, u);
	nrm = (u + 0xfffffu + ((u >> 21) & 1u) - (112u << 23)) >> 21;
	/* subnormal grid 2^-16: add 2^7 so that fp32 rounds on it */
	sub = npu_f32_bits(npu_bits_f32(u) + 128.0f) - 0x43000000u;
	r = npu_sel32(u >= 0x38800000u, nrm, sub);   /* normal from 2^-14 */
	r = npu_sel32(u >= 0x47700000u, 0x7cu, r);   /* >= 61440: inf */
	r = npu_sel32(u > 0x7f800000u, 0x7fu, r);    /* NaN */
	return (uint8_t)(sign | r);
}

inline float npu_e5m2_to_f32(uint8_t b)
{
	/* e5m2 is the top byte of an fp16, as c10 decodes it */
	return npu_f16_to_f32((uint16_t)(b << 8));
}

inline int64_t npu_f64_to_int(double d, int bits, int is_unsigned, int mode)
{
	double lo, hi, a;

	if (mode & NPU_CVT_WRAP) {
		uint64_t w, mask;
		/* x86 cvttsd2si: out of range or NaN gives the minimum */
		if (bits == 64)
			w = (d > -0x1p63 - 1.0 && d < 0x1p63) ? (uint64_t)(int64_t)d
							      : (uint64_t)1 << 63;
		else
			w = (d > -0x1p31 - 1.0 && d < 0x1p31) ?
				(uint64_t)(int64_t)(int32_t)d :
				(uint64_t)(int64_t)INT32_MIN;
		if (bits == 64)
			return (int64_t)w;
		mask = ((uint64_t)1 << bits) - 1;
		w &= mask;
		if (!is_unsigned && (w >> (bits - 1)))
			w |= ~mask;             /* sign-extend */
		return (int64_t)w;
	}
	if (d != d)
		return 0;
	if (mode & NPU_CVT_TRUNC) {
		a = d;                          /* the cast below truncates */
	} else {
		/* Round half to even without libm: below 2^52, adding and
		 * removing 2^52 rounds to an integer in the current (nearest
		 * even) mode; above, every fp64 is an integer already. */
		a = d < 0 ? -d : d;
		if (a < 0x1p52)
			a = (a + 0x1p52) - 0x1p52;
		a = d < 0 ? -a : a;
	}
	if (is_unsigned) {
		lo = 0.0;
		hi = bits == 64 ? 0x1p64 : (double)((uint64_t)1 << bits);
	} else {
		lo = -(double)((uint64_t)1 << (bits - 1));
		hi = (double)((uint64_t)1 << (bits - 1));
	}
	/* hi, the first value out of range, and lo are exact in fp64 */
	if (a >= hi)
		return is_unsigned ? (int64_t)(bits == 64 ? UINT64_MAX
					       : ((uint64_t)1 << bits) - 1)
				   : (int64_t)(((uint64_t)1 << (bits - 1)) - 1);
	if (a <= lo)
		return (int64_t)lo;
	if (is_unsigned && bits == 64)
		return (int64_t)(uint64_t)a;
	return (int64_t)a;
}

#endif
