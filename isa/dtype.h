/*
 * dtype.h - conversions between fp32 and the storage types, with the
 * rounding PyTorch uses, so simulated values match eager results bit for
 * bit where PyTorch's do.
 *
 *   bf16, f16      round to nearest, ties to even; overflow gives inf
 *   e4m3 (fn)      round to nearest even; as torch's float8_e4m3fn cast,
 *                  values beyond the largest finite (448) become NaN
 *                  (no inf in the format); the _sat variant clamps to +-448
 *   e5m2           round to nearest even; overflow gives +-inf as torch;
 *                  the _sat variant clamps to +-57344
 *   i8, u8, i16, i32, i64   from float: round half to even, saturate to the
 *                  type's range, NaN gives 0 (a documented choice: the
 *                  hardware has no NaN for integers)
 *   bool           nonzero (NaN included) -> 1
 */
#ifndef NPU_DTYPE_H
#define NPU_DTYPE_H

#include <stddef.h>
#include <stdint.h>

uint16_t npu_f32_to_bf16(float f);
float npu_bf16_to_f32(uint16_t h);
uint16_t npu_f32_to_f16(float f);
float npu_f16_to_f32(uint16_t h);
uint8_t npu_f32_to_e4m3(float f, int saturate);
float npu_e4m3_to_f32(uint8_t b);
uint8_t npu_f32_to_e5m2(float f, int saturate);
float npu_e5m2_to_f32(uint8_t b);

/* Reads element i of an array of dtype dt as float (int64 rounds). */
float npu_load_f32(int dt, const void *base, size_t i);

/* Stores f as element i of an array of dtype dt, converting as above. */
void npu_store_f32(int dt, void *base, size_t i, float f);

/* The same with fp64 precision (for the reference interpreter). */
double npu_load_f64(int dt, const void *base, size_t i);
void npu_store_f64(int dt, void *base, size_t i, double d);

/* Rounds f through dt and back (the vrnd instruction). */
float npu_round_through(int dt, float f);

/* Converts n elements between any two dtypes (via fp64, exact for ints
 * up to 2^53). */
void npu_convert(int dst_dt, void *dst, int src_dt, const void *src, size_t n);

#endif
