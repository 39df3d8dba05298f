#!/usr/bin/env python3
"""gen.py OUT.safetensors - the inputs and buffers of fp8_mm/inference2.json.

A hand-written graph (no PyTorch needed): x (float32 [16, 64]) scaled by
1 / x_scale, clamped to e4m3's range, cast to float8_e4m3fn and multiplied
with an e4m3 weight by torch._scaled_mm (per-tensor scales, float32 out).
Values are deterministic (a 64-bit LCG); the weight's bytes are any e4m3
code but NaN (0x7f, 0xff).  The committed inference2.safetensors also
holds output.0, the expected result, computed from these values by the
fp64 reference interpreter (npu_ref_run, compiler/ref.c) and rounded to
float32; this script writes the inputs and buffers only.  Standard
library only.
"""
import json
import struct
import sys

M, K, N = 16, 64, 32
X_SCALE = 4.0 / 448.0
W_SCALE = 0.01


def lcg(seed):
    while True:
        seed = (seed * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        yield seed >> 11


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    r = lcg(2026)
    x = [(next(r) / float(1 << 53)) * 8.0 - 4.0 for _ in range(M * K)]
    w = []
    while len(w) < N * K:
        b = next(r) & 0xFF
        if b not in (0x7F, 0xFF):
            w.append(b)
    tensors = [
        ("arg0_1", "F32", [M, K], struct.pack("<%df" % (M * K), *x)),
        ("arg1_1", "F8_E4M3", [N, K], bytes(w)),
        ("arg2_1", "F32", [], struct.pack("<f", X_SCALE)),
        ("arg3_1", "F32", [], struct.pack("<f", W_SCALE)),
    ]
    head, off, blob = {}, 0, b""
    for name, dt, shape, data in tensors:
        head[name] = {"dtype": dt, "shape": shape,
                      "data_offsets": [off, off + len(data)]}
        off += len(data)
        blob += data
    h = json.dumps(head, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(argv[1], "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + blob)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
