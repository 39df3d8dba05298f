"""Safetensors files, read and written without the `safetensors` package.

The format is small: an 8-byte little-endian header length, a JSON header
mapping each tensor name to {"dtype", "shape", "data_offsets"} (plus an
optional "__metadata__" of strings), then the raw little-endian bytes.  The
`safetensors` package is used when it is installed; otherwise this module
does the same thing directly, so the frontend depends on PyTorch alone.

Files are written the way the fixtures were: names in sorted order, data in
the same order, the header padded with spaces to a multiple of 8 bytes, and
published atomically (temporary file, then rename).
"""

import json
import os
import struct
import tempfile

import torch

try:  # the reference implementation, when it is installed
    import safetensors.torch as _sft
except ImportError:
    _sft = None

# safetensors dtype code <-> torch dtype name; one table, read both ways.
_DTYPES = [
    ("F64", "float64"), ("F32", "float32"), ("F16", "float16"),
    ("BF16", "bfloat16"), ("F8_E4M3", "float8_e4m3fn"),
    ("F8_E5M2", "float8_e5m2"), ("I64", "int64"), ("I32", "int32"),
    ("I16", "int16"), ("I8", "int8"), ("U8", "uint8"), ("BOOL", "bool"),
]
CODE_OF = {name: code for code, name in _DTYPES}
NAME_OF = {code: name for code, name in _DTYPES}

# Header sizes above this are treated as corruption, not as a request to
# allocate the memory (the C reader has the same kind of bound).
_MAX_HEADER = 100 << 20


class FormatError(ValueError):
    """A file that is not a valid safetensors file."""


def torch_dtype(name):
    """The torch dtype for a PyTorch dtype name ("float32"), or FormatError
    when this PyTorch does not have it (float8 on 1.13)."""
    dt = getattr(torch, name, None)
    if not isinstance(dt, torch.dtype):
        raise FormatError("dtype %s is not available in this PyTorch" % name)
    return dt


def dtype_name(dtype):
    """PyTorch's name of a dtype: torch.float32 -> "float32"."""
    return str(dtype).replace("torch.", "")


def _raw_bytes(t):
    """The tensor's bytes in row-major order, little-endian (the host)."""
    t = t.detach().to("cpu").contiguous()
    if t.numel() == 0:
        return b""
    size = t.element_size()
    # numpy has no bf16 or fp8: reinterpret as an integer of the same width.
    if t.dtype in (torch.bfloat16, torch.float16):
        t = t.view(torch.int16)
    elif t.dtype == torch.bool:
        t = t.view(torch.uint8)
    elif size == 1 and t.dtype not in (torch.int8, torch.uint8):
        t = t.view(torch.uint8)
    return t.numpy().tobytes()


def dumps(tensors, metadata=None):
    """The bytes of a safetensors file holding `tensors` (name -> tensor)."""
    header = {}
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    blobs = []
    off = 0
    for name in sorted(tensors):
        t = tensors[name]
        code = CODE_OF.get(dtype_name(t.dtype))
        if code is None:
            raise ValueError("tensor '%s': dtype %s has no safetensors code"
                             % (name, t.dtype))
        b = _raw_bytes(t)
        header[name] = {"dtype": code, "shape": list(t.shape),
                        "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def atomic_write(path, data):
    """Writes `data` to `path` through a temporary file in the same folder
    and a rename, so a reader never sees half a file."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save(tensors, path, metadata=None):
    """Writes name -> tensor to a safetensors file (atomically).  A complex
    tensor is written as its view_as_real pairs (npusim.complexes)."""
    tensors = {k: torch.view_as_real(v) if v.is_complex() else v
               for k, v in tensors.items()}
    if _sft is not None:
        md = {str(k): str(v) for k, v in (metadata or {}).items()} or None
        # clone(): the package refuses tensors that share memory (a graph
        # that returns one of its inputs), which this file format allows.
        data = _sft.save({k: v.detach().cpu().contiguous().clone()
                          for k, v in tensors.items()}, metadata=md)
        atomic_write(path, data)
        return
    atomic_write(path, dumps(tensors, metadata))


def loads(data, name="<bytes>"):
    """Parses safetensors bytes into (tensors, metadata), validating the
    header: every offset inside the data, sizes matching dtype and shape,
    tensors contiguous and non-overlapping."""
    if len(data) < 8:
        raise FormatError("%s: shorter than the 8-byte header length" % name)
    (n,) = struct.unpack("<Q", data[:8])
    if n > _MAX_HEADER or 8 + n > len(data):
        raise FormatError("%s: header length %d past the end of the file"
                          % (name, n))
    try:
        header = json.loads(data[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as ex:
        raise FormatError("%s: header is not JSON: %s" % (name, ex))
    if not isinstance(header, dict):
        raise FormatError("%s: header is not a JSON object" % name)
    meta = header.pop("__metadata__", None) or {}
    body = memoryview(data)[8 + n:]
    spans = []
    out = {}
    for key, ent in header.items():
        try:
            code, shape, (a, b) = ent["dtype"], ent["shape"], ent["data_offsets"]
        except (KeyError, TypeError, ValueError):
            raise FormatError("%s: tensor '%s': malformed entry" % (name, key))
        if code not in NAME_OF:
            raise FormatError("%s: tensor '%s': unknown dtype %r"
                              % (name, key, code))
        if (not isinstance(shape, list) or
                not all(isinstance(d, int) and d >= 0 for d in shape)):
            raise FormatError("%s: tensor '%s': bad shape" % (name, key))
        dt = torch_dtype(NAME_OF[code])
        count = 1
        for d in shape:
            count *= d
        size = count * torch.empty((), dtype=dt).element_size()
        if not (isinstance(a, int) and isinstance(b, int) and
                0 <= a <= b <= len(body) and b - a == size):
            raise FormatError("%s: tensor '%s': data_offsets [%r, %r] do not "
                              "hold %d bytes inside %d" %
                              (name, key, a, b, size, len(body)))
        spans.append((a, b, key))
        if size == 0:
            out[key] = torch.empty(shape, dtype=dt)
        else:
            raw = bytearray(body[a:b])
            out[key] = torch.frombuffer(raw, dtype=dt).reshape(shape)
    spans.sort()
    for (a0, b0, k0), (a1, b1, k1) in zip(spans, spans[1:]):
        if a1 < b0:
            raise FormatError("%s: tensors '%s' and '%s' overlap"
                              % (name, k0, k1))
    return out, meta


def load(path, with_metadata=False):
    """Reads a safetensors file: name -> tensor (and its metadata)."""
    with open(path, "rb") as f:
        data = f.read()
    tensors, meta = loads(data, path)
    return (tensors, meta) if with_metadata else tensors
