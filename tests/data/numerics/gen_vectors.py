#!/usr/bin/env python3
"""gen_vectors.py - reference vectors for tests/check_dtype.c, from PyTorch.

Run from this folder with a Python that has torch (Debian's python3-torch
1.13 was used: /usr/bin/python3 gen_vectors.py).  Every output is a raw
little-endian array; check_dtype.c derives the element counts from the file
sizes.  The inputs are generated deterministically (fixed seed), so running
it again reproduces the files byte for byte on the same PyTorch.

  bf16_to_f32.bin     u32[65536]  bits of float(bf16 pattern i)
  bf16_roundtrip.bin  u16[65536]  bf16(float(bf16 pattern i))
  f16_to_f32.bin      u32[65536]  likewise for float16
  f16_roundtrip.bin   u16[65536]
  fcases.bin          u32[N]      fp32 inputs: ties, subnormals, overflow,
                                  NaN payloads, +-0, random
  fcases_bf16.bin     u16[N]      x.to(torch.bfloat16)
  fcases_f16.bin      u16[N]      x.to(torch.float16)
  icases.bin          u32[M]      fp32 inputs for the integer casts
  icases_round_i8.bin  i8[M]      x.round().clamp(-128, 127).to(torch.int8)
  icases_round_u8.bin  u8[M]      x.round().clamp(0, 255).to(torch.uint8)
  icases_round_i16.bin i16[M]     x.round().clamp(-32768, 32767).to(int16)
  icases_cast_i8.bin   i8[M]      x.to(torch.int8)    (truncating C cast)
  icases_cast_u8.bin   u8[M]      x.to(torch.uint8)
  icases_cast_i16.bin  i16[M]     x.to(torch.int16)
  icases_cast_i32.bin  i32[M]     x.to(torch.int32)
  icases_cast_i64.bin  i64[M]     x.to(torch.int64)
  icases_bool.bin      u8[M]      x.to(torch.bool)
  lcases.bin           i64[K]     int64 inputs
  lcases_f32.bin       u32[K]     x.to(torch.float32)
  dcases.bin           f64[D]     fp64 inputs (round twice via fp32?)
  dcases_f32.bin       u32[D]     x.to(torch.float32)
  dcases_bf16.bin      u16[D]     x.to(torch.bfloat16)
  dcases_f16.bin       u16[D]     x.to(torch.float16)

Casts of NaN or out-of-range values to integers are undefined behaviour in
C++; what is stored is what x86 eager PyTorch produced (the simulator's
NPU_CVT_WRAP mode reproduces it).
"""
import random
import struct

import numpy as np
import torch

rng = random.Random(20240607)


def f32_from_bits(bits):
    return torch.tensor(np.array(bits, dtype=np.uint32).view(np.float32))


def bits_of(t, npdt):
    return t.numpy().view(npdt)


def save(name, arr):
    with open(name, "wb") as f:
        f.write(np.ascontiguousarray(arr).tobytes())


def exhaustive(dtype, prefix):
    pats = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    t = torch.tensor(pats.view(np.int16)).view(dtype)
    f = t.to(torch.float32)
    save(prefix + "_to_f32.bin", bits_of(f, np.uint32))
    save(prefix + "_roundtrip.bin",
         bits_of(f.to(dtype).view(torch.int16), np.uint16))


def f16_value(h):
    return float(np.array([h], dtype=np.uint16).view(np.float16)[0])


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def fcases():
    v = []
    # signed zeros, infinities, NaN payloads (quiet and signalling)
    v += [0x00000000, 0x80000000, 0x7f800000, 0xff800000,
          0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fbfffff,
          0x7fffffff, 0xffffffff, 0x7fa00000, 0x7fc00001, 0x7f802000,
          0x7f801fff, 0x7fe00000]
    # fp32 extremes: max, min normal, subnormals
    v += [0x7f7fffff, 0x00800000, 0x00000001, 0x007fffff, 0x00400000,
          0x00000002, 0x00008000, 0x00018000, 0x00010000, 0x0000ffff]
    # bf16 overflow: the last finite, its tie (odd: up to inf), just below
    v += [0x7f7f0000, 0x7f7f7fff, 0x7f7f8000, 0x7f7e8000, 0x7f7effff]
    # fp16 edges: max 65504, tie 65520 (to inf), smallest subnormal 2^-24,
    # 2^-25 (tie to 0), 3*2^-25 (tie up to 2), smallest normal 2^-14
    for x in [65504.0, 65519.99609375, 65520.0, 65536.0, 2.0**-24, 2.0**-25,
              3 * 2.0**-25, 2.0**-14, 2.0**-14 - 2.0**-25, 2.0**-26, 1e-8,
              6.1e-5, 1.0, 1.0 + 2.0**-11, 1.0 + 3 * 2.0**-11, 0.1, 1 / 3]:
        b = f32_bits(x)
        v += [b, b - 1, b + 1]
    for sign in (0, 0x80000000):
        # bf16 ties, ties +- 1 ulp of fp32, for random finite bf16 patterns
        for _ in range(1024):
            h = rng.randrange(0, 0x7f80)
            base = h << 16
            v += [sign | base | 0x8000, sign | base | 0x7fff,
                  sign | base | 0x8001]
        # fp16 midpoints between neighbours (exact in fp32), and +- 1 ulp
        for _ in range(1024):
            h = rng.randrange(0, 0x7bff)
            mid = (f16_value(h) + f16_value(h + 1)) / 2
            b = f32_bits(mid)
            v += [sign | b, sign | (b - 1), sign | (b + 1)]
    # random bit patterns, and random values of every magnitude
    v += [rng.getrandbits(32) for _ in range(4096)]
    for _ in range(4096):
        x = rng.uniform(-1, 1) * 2.0 ** rng.randrange(-30, 20)
        v.append(f32_bits(x))
    x = f32_from_bits(v)
    save("fcases.bin", np.array(v, dtype=np.uint32))
    save("fcases_bf16.bin", bits_of(x.to(torch.bfloat16).view(torch.int16),
                                   np.uint16))
    save("fcases_f16.bin", bits_of(x.to(torch.float16).view(torch.int16),
                                  np.uint16))


def icases():
    xs = [0.0, -0.0, float("inf"), float("-inf"), float("nan"),
          -float("nan"), 0.49999997, -0.49999997, 0.5, -0.5, 1.5, -1.5,
          2.5, -2.5, 2**31, -2**31, 2**31 - 128, 2**32, 2**63, -2**63,
          2**64, 1e20, -1e20, 3.4e38, 8388607.5, 4194303.5, 16777216.0]
    xs += [k + 0.5 for k in range(-300, 300)]
    xs += [k + d for k in range(-300, 300, 7) for d in (0.25, 0.75, 0.0)]
    xs += [k + 0.5 for k in (32766, 32767, -32769, -32768, 65535, 65536)]
    xs += [rng.uniform(-400, 400) for _ in range(3000)]
    xs += [rng.uniform(-1, 1) * 2.0 ** rng.randrange(0, 40)
           for _ in range(1000)]
    x = torch.tensor(xs, dtype=torch.float32)
    r = x.round()
    save("icases.bin", bits_of(x, np.uint32))
    save("icases_round_i8.bin", r.clamp(-128, 127).to(torch.int8).numpy())
    save("icases_round_u8.bin", r.clamp(0, 255).to(torch.uint8).numpy())
    save("icases_round_i16.bin",
         r.clamp(-32768, 32767).to(torch.int16).numpy())
    for name, dt in [("i8", torch.int8), ("u8", torch.uint8),
                     ("i16", torch.int16), ("i32", torch.int32),
                     ("i64", torch.int64), ("bool", torch.bool)]:
        out = x.to(dt)
        if dt == torch.bool:
            save("icases_bool.bin", out.to(torch.uint8).numpy())
        else:
            save("icases_cast_%s.bin" % name, out.numpy())


def lcases():
    ls = [0, 1, -1, 2**24, 2**24 + 1, 2**24 + 3, -(2**24 + 1), 2**53 + 1,
          2**62 + 2**38, 2**62 + 2**38 + 1, 2**63 - 1, -2**63,
          2**31 - 1, -2**31]
    ls += [rng.randrange(-2**63, 2**63) for _ in range(1000)]
    ls += [rng.randrange(-2**30, 2**30) for _ in range(1000)]
    # ties at fp32 precision: odd multiples of half an ulp
    for e in range(24, 63):
        ls += [(2**e) + (1 << (e - 24)), (2**e) + (3 << (e - 24)),
               -((2**e) + (1 << (e - 24)))]
    x = torch.tensor(ls, dtype=torch.int64)
    save("lcases.bin", x.numpy())
    save("lcases_f32.bin", bits_of(x.to(torch.float32), np.uint32))


def dcases():
    ds = [0.0, -0.0, float("inf"), float("nan"), 1e300, -1e300, 1e-300,
          1 + 2**-8 + 2**-30, 1 + 2**-8, 1 + 2**-8 - 2**-30,
          1 + 2**-11 + 2**-40, 1 + 2**-24 + 2**-60, 65520 - 2**-30,
          3.4028235677973366e38, 3.4028235677973362e38, 2**-149, 2**-150,
          2**-150 + 2**-200, 2**-25 + 2**-60]
    ds += [rng.uniform(-1, 1) * 2.0 ** rng.randrange(-40, 40)
           for _ in range(2000)]
    # random values just beside bf16 and fp16 ties
    for _ in range(500):
        h = rng.randrange(0, 0x7b00)
        mid = (f16_value(h) + f16_value(h + 1)) / 2
        ds += [mid + mid * 2**-40, mid - mid * 2**-40]
    x = torch.tensor(ds, dtype=torch.float64)
    save("dcases.bin", x.numpy())
    save("dcases_f32.bin", bits_of(x.to(torch.float32), np.uint32))
    save("dcases_bf16.bin", bits_of(x.to(torch.bfloat16).view(torch.int16),
                                   np.uint16))
    save("dcases_f16.bin", bits_of(x.to(torch.float16).view(torch.int16),
                                  np.uint16))


if __name__ == "__main__":
    exhaustive(torch.bfloat16, "bf16")
    exhaustive(torch.float16, "f16")
    fcases()
    icases()
    lcases()
    dcases()
