"""Complex values as pairs of reals, for npucc, which has no complex type.

Meta's reference Llama (and models written after it) applies its rotary
embeddings as complex products: `view_as_complex` of the last dim's
pairs, a multiply by a complex buffer (`polar` of the angles), then
`view_as_real`.  `lower(doc)` rewrites such a graph document so that
every complex64 (complex128) value is the float32 (float64) tensor of its
`view_as_real` form, its shape with a trailing 2:

  view_as_complex(x), view_as_real(c)   an alias of the same pairs
  mul(a, b), both complex                (ar br - ai bi, ar bi + ai br),
                                         stacked on the last dim
  mul(c, r), add/sub(a, b)              the same op on the pairs (a real
                                         tensor r broadcast over them)
  polar(abs, angle)                      (abs cos angle, abs sin angle)
  real, imag, abs, conj                  a part, the pairs' 2-norm, (re, -im)
  views, slices, select, clone, alias    the same, dims counted from the
                                         front and shapes with the 2

A complex placeholder takes the pairs (the frontend passes
`torch.view_as_real` of the tensor: st.save does).  Any other op on a
complex value, or a complex output, raises Unsupported, and the frontend
hands npucc the graph as it is: npucc's own decompositions take the
FFTs and the complex values they make (FNet's Fourier mixing), and it
refuses, with its reason, what it cannot.
"""

import copy

from .fxjson import is_ref, refs

REAL = {"complex64": "float32", "complex128": "float64", "complex32": "float16"}


class Unsupported(ValueError):
    pass


def _is_complex(meta):
    return isinstance(meta, dict) and meta.get("dtype") in REAL


def _real_meta(meta):
    m = dict(meta)
    m["dtype"] = REAL[meta["dtype"]]
    m["shape"] = list(meta["shape"]) + [2]
    if "stride" in m:
        m["stride"] = [s * 2 for s in meta["stride"]] + [1]
        m["storage_offset"] = meta.get("storage_offset", 0) * 2
    return m


def _contig(shape, dtype):
    st, acc = [], 1
    for d in reversed(shape):
        st.insert(0, acc)
        acc *= d
    return {"shape": list(shape), "dtype": dtype, "stride": st, "storage_offset": 0}


def _pair_dim(d):
    """A dim of a complex value, in its pairs' form (one dim more, last)."""
    return d - 1 if d < 0 else d


class _Rewriter:
    def __init__(self, doc):
        self.doc = doc
        self.out = []
        self.cplx = set()      # names whose values are complex (as pairs now)
        self.meta = {}         # name -> meta after the rewrite
        self.n = 0

    def emit(self, name, target, args, meta, src, kwargs=None):
        ent = {"name": name, "op": "call_function", "target": target,
               "args": args, "kwargs": kwargs or {}, "meta": meta}
        if "provenance" in src:
            ent["provenance"] = src["provenance"]
        self.out.append(ent)
        self.meta[name] = meta
        return {"node": name}

    def fresh(self, base, what):
        self.n += 1
        return "%s__%s%d" % (base, what, self.n)

    def node_complex(self, v):
        return is_ref(v) and v["node"] in self.cplx

    def parts(self, v, src):
        """(real, imag) of a complex value's pairs, as select nodes."""
        m = self.meta[v["node"]]
        shape, dt = m["shape"][:-1], m["dtype"]
        st = m.get("stride", [])[:-1] or _contig(shape, dt)["stride"]
        off = m.get("storage_offset", 0)
        res = []
        for i, what in ((0, "re"), (1, "im")):
            meta = {"shape": shape, "dtype": dt, "stride": st, "storage_offset": off + i}
            res.append(self.emit(self.fresh(v["node"], what), "aten.select.int",
                                 [v, -1, i], meta, src))
        return res

    def binop(self, target, a, b, shape, dt, src, base):
        return self.emit(self.fresh(base, "t"), target, [a, b], _contig(shape, dt), src)

    def complex_mul(self, ent):
        a, b = ent["args"][0], ent["args"][1]
        shape = list(ent["meta"]["shape"])
        dt = REAL[ent["meta"]["dtype"]]
        ar, ai = self.parts(a, ent)
        br, bi = self.parts(b, ent)
        nm = ent["name"]
        mul = "aten.mul.Tensor"
        re = self.binop("aten.sub.Tensor", self.binop(mul, ar, br, shape, dt, ent, nm),
                        self.binop(mul, ai, bi, shape, dt, ent, nm), shape, dt, ent, nm)
        im = self.binop("aten.add.Tensor", self.binop(mul, ar, bi, shape, dt, ent, nm),
                        self.binop(mul, ai, br, shape, dt, ent, nm), shape, dt, ent, nm)
        self.emit(nm, "aten.stack.default", [[re, im], -1], _real_meta(ent["meta"]), ent)

    def polar(self, ent):
        r, ang = ent["args"][0], ent["args"][1]
        shape = list(ent["meta"]["shape"])
        dt = REAL[ent["meta"]["dtype"]]
        nm = ent["name"]
        c = self.emit(self.fresh(nm, "cos"), "aten.cos.default", [ang],
                      _contig(self.meta[ang["node"]]["shape"], dt), ent)
        s = self.emit(self.fresh(nm, "sin"), "aten.sin.default", [ang],
                      _contig(self.meta[ang["node"]]["shape"], dt), ent)
        re = self.binop("aten.mul.Tensor", r, c, shape, dt, ent, nm)
        im = self.binop("aten.mul.Tensor", r, s, shape, dt, ent, nm)
        self.emit(nm, "aten.stack.default", [[re, im], -1], _real_meta(ent["meta"]), ent)

    def conj(self, ent, negate):
        """(re, -im) stacked; resolve_conj only copies (a conjugate bit
        this rewrite never sets)."""
        if not negate:
            self.same(ent, ent["args"])
            return
        shape = list(ent["meta"]["shape"])
        dt = REAL[ent["meta"]["dtype"]]
        re, im = self.parts(ent["args"][0], ent)
        nim = self.emit(self.fresh(ent["name"], "neg"), "aten.neg.default", [im],
                        _contig(shape, dt), ent)
        self.emit(ent["name"], "aten.stack.default", [[re, nim], -1],
                  _real_meta(ent["meta"]), ent)

    def mul_real(self, ent, c, r):
        """A complex value times a real tensor or number."""
        if is_ref(r):
            rm = self.meta[r["node"]]
            shape = list(rm["shape"]) + [1]
            r = self.emit(self.fresh(ent["name"], "u"), "aten.unsqueeze.default",
                          [r, -1], _contig(shape, rm["dtype"]), ent)
        self.emit(ent["name"], "aten.mul.Tensor", [c, r], _real_meta(ent["meta"]), ent)

    def same(self, ent, args):
        """The op on the pairs, with args adjusted."""
        e = copy.deepcopy(ent)
        e["args"] = args
        if "dtype" in e["kwargs"] and e["kwargs"]["dtype"] in REAL:
            e["kwargs"]["dtype"] = REAL[e["kwargs"]["dtype"]]
        if _is_complex(ent.get("meta")):
            e["meta"] = _real_meta(ent["meta"])
            self.cplx.add(ent["name"])
        self.out.append(e)
        self.meta[e["name"]] = e.get("meta")

    def call(self, ent):
        t, a = ent["target"], ent["args"]
        rank = len(ent["meta"]["shape"]) if _is_complex(ent.get("meta")) else None
        if t == "aten.view_as_complex.default":
            self.emit(ent["name"], "aten.alias.default", [a[0]], _real_meta(ent["meta"]), ent)
            self.cplx.add(ent["name"])
        elif t == "aten.view_as_real.default":
            self.emit(ent["name"], "aten.alias.default", [a[0]], ent["meta"], ent)
        elif t == "aten.polar.default":
            self.polar(ent)
            self.cplx.add(ent["name"])
        elif t == "aten.mul.Tensor" and self.node_complex(a[0]) and self.node_complex(a[1]):
            self.complex_mul(ent)
            self.cplx.add(ent["name"])
        elif t in ("aten.mul.Tensor", "aten.mul.Scalar") and (
                self.node_complex(a[0]) != self.node_complex(a[1])):
            c, r = (a[0], a[1]) if self.node_complex(a[0]) else (a[1], a[0])
            self.mul_real(ent, c, r)
            self.cplx.add(ent["name"])
        elif t in ("aten.real.default", "aten.imag.default") and self.node_complex(a[0]):
            # a part: a view of the pairs
            self.emit(ent["name"], "aten.select.int",
                      [a[0], -1, 0 if t == "aten.real.default" else 1], ent["meta"], ent)
        elif t == "aten.abs.default" and self.node_complex(a[0]):
            # the magnitude: the 2-norm of the pairs
            self.emit(ent["name"], "aten.linalg_vector_norm.default", [a[0], 2, [-1]],
                      ent["meta"], ent)
        elif t in ("aten._conj.default", "aten.conj_physical.default",
                   "aten.resolve_conj.default") and self.node_complex(a[0]):
            self.conj(ent, t != "aten.resolve_conj.default")
            self.cplx.add(ent["name"])
        elif t in ("aten.add.Tensor", "aten.sub.Tensor") and self.node_complex(a[0]) and \
                self.node_complex(a[1]):
            self.same(ent, a)
        elif t in ("aten.alias.default", "aten.clone.default", "aten.detach.default",
                   "aten._to_copy.default", "aten.lift_fresh_copy.default") and \
                self.node_complex(a[0]) and _is_complex(ent.get("meta")):
            self.same(ent, a)
        elif t in ("aten.slice.Tensor", "aten.select.int", "aten.unsqueeze.default") \
                and self.node_complex(a[0]):
            if len(a) > 1:
                self.same(ent, [a[0], _pair_dim(a[1])] + list(a[2:]))
            else:
                self.same(ent, a)
                self.out[-1]["kwargs"]["dim"] = _pair_dim(ent["kwargs"].get("dim", 0))
        elif t in ("aten.view.default", "aten._unsafe_view.default", "aten.reshape.default",
                   "aten.expand.default") and self.node_complex(a[0]):
            self.same(ent, [a[0], list(a[1]) + [2]] + list(a[2:]))
        elif t == "aten.permute.default" and self.node_complex(a[0]):
            dims = [d % rank for d in a[1]]
            self.same(ent, [a[0], dims + [rank]])
        else:
            raise Unsupported("complex values: no lowering of %s on them (node %r)"
                              % (t, ent["name"]))

    def run(self):
        for ent in self.doc["nodes"]:
            ins = [v for v in refs(ent.get("args")) if v in self.cplx]
            if ent["op"] == "output":
                if ins:
                    raise Unsupported("complex values: a complex output (%s)" % ins[0])
                self.out.append(ent)
            elif ent["op"] in ("placeholder", "get_attr") and _is_complex(ent.get("meta")):
                e = dict(ent)
                e["meta"] = _real_meta(ent["meta"])
                self.cplx.add(ent["name"])
                self.out.append(e)
                self.meta[e["name"]] = e["meta"]
            elif ent["op"] == "call_function" and (ins or _is_complex(ent.get("meta"))):
                self.call(ent)
            else:
                self.out.append(ent)
                self.meta[ent["name"]] = ent.get("meta")
        doc = dict(self.doc)
        doc["nodes"] = self.out
        return doc


def has_complex(doc):
    return any(_is_complex(n.get("meta")) for n in doc["nodes"])


def lower(doc):
    """doc with its complex values as pairs of reals (a new document; doc
    itself is left as it is); doc itself when it has none."""
    if not has_complex(doc):
        return doc
    try:
        return _Rewriter(doc).run()
    except Unsupported:
        raise
    except (KeyError, TypeError, IndexError, ValueError) as ex:
        # a form the rewrite does not know (symbolic strides, a scalar
        # where a tensor was expected): npucc gets the graph as it is
        raise Unsupported("complex values: %s: %s" % (type(ex).__name__, ex))
