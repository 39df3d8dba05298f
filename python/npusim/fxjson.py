"""torch.fx graphs -> the "fxgraph" JSON format, version 1.

This is the writer side of docs/fx-format.md: one JSON object per graph,
with one entry per node mirroring torch.fx.Node (name, op, target, args,
kwargs), plus `meta` (shape, dtype, stride, storage_offset of the node's
value), `kind`/`source` on the placeholders of inference and forward graphs,
and `provenance` (module stack, source function, stack trace, original ATen
op, sequence number, Dynamo-level node).  Field order and encodings follow
the PyTorch 2.11 captures the compiler was developed against, so a graph
exported here and one captured there read the same.

Node values come from `node.meta["val"]` (FakeTensors under Dynamo and
aot_autograd) or, when the caller ran the graph, from a dict of real values
(the 1.13 exporter does that, because make_fx there leaves no "val").
"""

import json
import math
import operator
import os
import re
import sys

import torch

from .st import dtype_name

FORMAT = "fxgraph"
VERSION = 1
GRAPH_KINDS = ("inference", "forward", "backward", "dynamo")
PLACEHOLDER_KINDS = ("parameter", "buffer", "input", "symint")

AOT_NOTE = ("graph outputs begin with the new values of the data-mutated "
            "inputs, in input order; the caller copies them back")

# The functions of SymInt and SymFloat expressions (sympy's and PyTorch's)
# that npucc's reader takes (compiler/ref.c, sym_funcs): name ->
# (function, number of arguments or None for any)
SYM_FUNCS = {"Max": (lambda *a: max(a), None), "Min": (lambda *a: min(a), None),
             "IntTrueDiv": (operator.truediv, 2), "FloatTrueDiv": (operator.truediv, 2),
             "ToFloat": (float, 1), "FloorToInt": (math.floor, 1),
             "CeilToInt": (math.ceil, 1), "TruncToInt": (math.trunc, 1),
             "floor": (math.floor, 1), "ceiling": (math.ceil, 1)}

# How many lines of a stack trace to keep: the frame header and its code.
_TRACE_LINES = 2


def _is_sym(x):
    return type(x).__name__ in ("SymInt", "SymFloat", "SymBool")


def _sym(x):
    """A SymInt as an int when it is one underneath, else {"sym": expr}."""
    node = getattr(x, "node", None)
    try:
        if node is not None and node.is_constant():
            return node.maybe_as_int() if hasattr(node, "maybe_as_int") else int(x)
    except Exception:       # pragma: no cover - depends on the torch build
        pass
    text = str(x)
    # A size Dynamo specialized prints as a plain number: write it as one.
    if text.lstrip("-").isdigit():
        return int(text)
    return {"sym": text}


def encode_value(x):
    """One argument value in the fxgraph encoding (docs/fx-format.md)."""
    if isinstance(x, torch.fx.Node):
        return {"node": x.name}
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        if math.isnan(x):
            return {"float": "nan"}
        if math.isinf(x):
            return {"float": "inf" if x > 0 else "-inf"}
        return x
    if _is_sym(x):
        return _sym(x)
    if isinstance(x, torch.dtype):
        return {"dtype": dtype_name(x)}
    if isinstance(x, torch.device):
        return {"device": str(x)}
    if isinstance(x, torch.layout):
        return {"layout": str(x).replace("torch.", "")}
    if isinstance(x, torch.memory_format):
        return {"memory_format": str(x).replace("torch.", "")}
    if isinstance(x, (list, tuple)):
        return [encode_value(v) for v in x]
    return {"repr": repr(x)}


def _dim(d):
    return _sym(d) if _is_sym(d) else int(d)


def encode_meta(v):
    """The `meta` of a value: a tensor's shape/dtype/stride/offset, a
    scalar, a list for several results, or None when nothing is known."""
    if isinstance(v, torch.Tensor):
        m = {"shape": [_dim(d) for d in v.shape], "dtype": dtype_name(v.dtype)}
        if v.layout == torch.strided:
            m["stride"] = [_dim(s) for s in v.stride()]
            off = v.storage_offset()
            m["storage_offset"] = _dim(off)
        return m
    if isinstance(v, (list, tuple)):
        return [encode_meta(x) for x in v]
    if v is None:
        return None
    if isinstance(v, (bool, int, float)) or _is_sym(v):
        return {"scalar": encode_value(v)}
    # TensorMetadata (from ShapeProp) carries the same facts.
    if hasattr(v, "shape") and hasattr(v, "dtype"):
        m = {"shape": [_dim(d) for d in v.shape], "dtype": dtype_name(v.dtype)}
        if getattr(v, "stride", None) is not None:
            m["stride"] = [_dim(s) for s in v.stride]
            m["storage_offset"] = 0
        return m
    return None


def target_name(node):
    """`aten.addmm.default` for ATen overloads, `module.qualname` for
    Python callables (`_operator.getitem`), the string otherwise."""
    t = node.target
    if isinstance(t, str):
        return t
    if isinstance(t, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        return str(t)
    mod = getattr(t, "__module__", None)
    name = getattr(t, "__qualname__", None) or getattr(t, "__name__", None)
    if mod is None and t in (operator.getitem,):
        mod = "_operator"
    if name is None:
        return repr(t)
    return "%s.%s" % (mod, name) if mod else name


def _class_name(c):
    if isinstance(c, type):
        return c.__name__
    return str(c).rsplit(".", 1)[-1].strip("'>")


def _path_roots():
    """Folders whose prefix is dropped from source paths: the current one
    and every import root (site-packages), longest first, so a graph names
    `torchvision/models/resnet.py` rather than where this machine keeps
    it."""
    roots = {os.getcwd()} | {p for p in sys.path if p and os.path.isabs(p)}
    return sorted((r.rstrip(os.sep) + os.sep for r in roots), key=len, reverse=True)


# `File "/abs/path", line 3` (stack traces), `File: /abs/path:3` (printouts)
_FILE_RE = re.compile(r'(File "|File: )(/[^":]+)')


def relative_sources(text):
    """text with each source file path made relative to its root."""
    roots = _path_roots()

    def rel(m):
        path = m.group(2)
        for r in roots:
            if path.startswith(r):
                return m.group(1) + path[len(r):]
        return m.group(0)
    return _FILE_RE.sub(rel, text)


def _stack_tail(trace):
    lines = [ln.strip() for ln in relative_sources(str(trace)).splitlines()
             if ln.strip()]
    return lines[-_TRACE_LINES:]


def _from_node(entries):
    out = []
    for e in entries or ():
        if isinstance(e, (tuple, list)):
            out.append({"name": str(e[0])})
            continue
        d = {"name": getattr(e, "name", str(e))}
        if getattr(e, "graph_id", None) is not None:
            d["graph_id"] = e.graph_id
        if getattr(e, "pass_name", None) is not None:
            d["pass"] = e.pass_name
        out.append(d)
    return out


def provenance(node):
    """Where a node came from, from the metadata Dynamo and aot_autograd
    leave on it; keys absent from the node are left out."""
    m = node.meta
    p = {}
    stack = m.get("nn_module_stack")
    if stack:
        p["nn_module_stack"] = [[str(k), str(v[0]), _class_name(v[1])]
                                for k, v in stack.items()]
    sfs = m.get("source_fn_stack")
    if sfs:
        p["source_fn"] = [str(sfs[-1][0])]
    elif m.get("source_fn"):
        p["source_fn"] = [str(m["source_fn"][0])]
    if m.get("stack_trace"):
        p["stack_trace"] = _stack_tail(m["stack_trace"])
    if m.get("original_aten") is not None:
        p["original_aten"] = str(m["original_aten"])
    if m.get("seq_nr") is not None:
        p["seq_nr"] = m["seq_nr"]
    fn = _from_node(m.get("from_node"))
    if fn:
        p["from_node"] = fn
    return p


def graph_to_dict(gm, name, graph_kind, producer=None, placeholders=None,
                  values=None, aot=None, captured_from=None):
    """The fxgraph document of a GraphModule (or Graph).

    placeholders: per placeholder, in order, a dict with "kind" and
    "source" (or None): written for inference and forward graphs.
    values: node name -> real value, used where a node has no meta "val".
    aot: the mutation facts of an aot graph (see aot_dict)."""
    if graph_kind not in GRAPH_KINDS:
        raise ValueError("unknown graph kind %r" % graph_kind)
    graph = gm.graph if hasattr(gm, "graph") else gm
    doc = {"format": FORMAT, "version": VERSION, "name": name,
           "producer": producer or {"torch": torch.__version__},
           "graph_kind": graph_kind}
    if aot is not None:
        doc["aot"] = aot
    nodes = []
    pi = 0
    for n in graph.nodes:
        ent = {"name": n.name, "op": n.op, "target": target_name(n),
               "args": encode_value(list(n.args)),
               "kwargs": {k: encode_value(v) for k, v in n.kwargs.items()}}
        if n.op == "output":
            a = n.args[0] if n.args else []
            if not isinstance(a, (list, tuple)):
                a = [a]
            ent["args"] = [encode_value(list(a))]
            nodes.append(ent)
            continue
        # "val": aot and make_fx graphs; "example_value": Dynamo graphs.
        v = n.meta.get("val", n.meta.get("example_value", n.meta.get("tensor_meta")))
        if values is not None and n.name in values:
            v = values[n.name]
        meta = encode_meta(v)
        if meta is not None:
            ent["meta"] = meta
        if n.op == "placeholder":
            info = placeholders[pi] if placeholders and pi < len(placeholders) else None
            pi += 1
            if info:
                if info.get("source") is not None:
                    ent["source"] = info["source"]
                if info.get("kind") is not None:
                    ent["kind"] = info["kind"]
        if n.op == "get_attr" and hasattr(gm, "graph"):
            try:
                sub = attr(gm, n.target)
            except AttributeError:
                sub = None
            if isinstance(sub, torch.fx.GraphModule):
                # a branch or body of a higher-order op (torch.cond's)
                ent["graph"] = graph_to_dict(sub, "%s.%s" % (name, n.target),
                                             graph_kind)["nodes"]
        prov = provenance(n)
        if prov:
            ent["provenance"] = prov
        nodes.append(ent)
    doc["nodes"] = nodes
    if captured_from is not None:
        doc["captured_from"] = captured_from
    return doc


def attr(gm, target):
    """The value a get_attr node reads: gm's attribute at the dotted
    target ("true_graph_0._tensor_constant0")."""
    v = gm
    for part in target.split("."):
        v = getattr(v, part)
    return v


def is_ref(v):
    """Is v an argument that names a node ({"node": name})?"""
    return isinstance(v, dict) and set(v) == {"node"}


def refs(v):
    """The names of the nodes an argument value (nested lists and
    dicts) refers to, in order."""
    if is_ref(v):
        yield v["node"]
    elif isinstance(v, list):
        for x in v:
            yield from refs(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from refs(x)


def subst(v, env):
    """v with each node reference that env maps (name -> value)
    replaced by env's value."""
    if is_ref(v):
        return env.get(v["node"], v)
    if isinstance(v, dict):
        return {k: subst(x, env) for k, x in v.items()}
    if isinstance(v, list):
        return [subst(x, env) for x in v]
    return v


def aot_dict(mutates_data, mutates_metadata=None, returned_first=None,
             output_kinds=None, num_forward_returns=None):
    """The `aot` block: what aot_autograd's runtime wrapper knows."""
    mutates_data = [bool(x) for x in mutates_data]
    return {
        "input_mutates_data": mutates_data,
        "input_mutates_metadata": [bool(x) for x in (
            mutates_metadata if mutates_metadata is not None
            else [False] * len(mutates_data))],
        "num_mutated_inputs_returned_first": (
            returned_first if returned_first is not None
            else sum(mutates_data)),
        "output_kinds": list(output_kinds or ["non_alias"]),
        "num_forward_returns": (num_forward_returns if num_forward_returns
                                is not None else 1),
        "note": AOT_NOTE,
    }


def dumps(doc):
    """The JSON text of a document, laid out as the captures are (indent
    1, keys in the order written, no final newline)."""
    return json.dumps(doc, indent=1, allow_nan=False)


def canonical_text(doc):
    """The graph's canonical text for the compile cache: everything that
    decides the program (ops, arguments, meta, kinds, aot facts), nothing
    that does not (the graph's name, producer, provenance)."""
    keep = ("name", "op", "target", "args", "kwargs", "meta", "kind")
    nodes = [{k: n[k] for k in keep if k in n} for n in doc["nodes"]]
    body = {"graph_kind": doc["graph_kind"], "aot": doc.get("aot"),
            "nodes": nodes}
    return json.dumps(body, sort_keys=True, separators=(",", ":"))


# --- validation: what the README of the captured graphs requires ----------

_NODE_OPS = ("placeholder", "get_attr", "call_function", "call_module",
             "call_method", "output")
_TAGS = ("node", "dtype", "device", "layout", "memory_format", "sym",
         "float", "repr")
_DTYPES = ("float32", "float64", "float16", "bfloat16", "float8_e4m3fn",
           "float8_e5m2", "int8", "int16", "int32", "int64", "uint8", "bool")


def _check_value(v, known, where, errs):
    if isinstance(v, list):
        for x in v:
            _check_value(x, known, where, errs)
    elif isinstance(v, dict):
        if len(v) != 1 or next(iter(v)) not in _TAGS:
            errs.append("%s: bad tagged value %r" % (where, v))
            return
        tag, val = next(iter(v.items()))
        if tag == "node" and val not in known:
            errs.append("%s: refers to unknown or later node %r" % (where, val))
        if tag == "dtype" and val not in _DTYPES:
            errs.append("%s: unknown dtype %r" % (where, val))
        if tag == "float" and val not in ("inf", "-inf", "nan"):
            errs.append("%s: bad float %r" % (where, val))
    elif isinstance(v, float) and not math.isfinite(v):
        errs.append("%s: non-finite float not encoded" % where)


def _check_meta(m, where, errs):
    if m is None:
        return
    if isinstance(m, list):
        for x in m:
            _check_meta(x, where, errs)
        return
    if not isinstance(m, dict):
        errs.append("%s: meta is not an object" % where)
    elif "scalar" in m:
        return
    elif m.get("dtype") not in _DTYPES:
        errs.append("%s: meta dtype %r" % (where, m.get("dtype")))
    elif not isinstance(m.get("shape"), list) or len(m["shape"]) > 8:
        errs.append("%s: meta shape" % where)
    elif "stride" in m and len(m["stride"]) != len(m["shape"]):
        errs.append("%s: stride length differs from shape" % where)
    else:
        for d in m["shape"]:
            if not ((isinstance(d, int) and d >= 0) or
                    (isinstance(d, dict) and "sym" in d)):
                errs.append("%s: bad dimension %r" % (where, d))


def validate(doc):
    """Every problem of a document against the format, as a list of
    messages (empty when it is valid)."""
    errs = []
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        errs.append("format/version is not fxgraph 1")
    for key in ("name", "producer", "graph_kind", "nodes"):
        if key not in doc:
            errs.append("missing '%s'" % key)
    kind = doc.get("graph_kind")
    if kind not in GRAPH_KINDS:
        errs.append("unknown graph_kind %r" % kind)
    nodes = doc.get("nodes") or []
    known = set()
    nph = 0
    for i, n in enumerate(nodes):
        where = "node %d (%s)" % (i, n.get("name"))
        for key in ("name", "op", "target", "args", "kwargs"):
            if key not in n:
                errs.append("%s: missing '%s'" % (where, key))
        if n.get("op") not in _NODE_OPS:
            errs.append("%s: unknown op %r" % (where, n.get("op")))
        if n.get("name") in known:
            errs.append("%s: duplicate name" % where)
        if not isinstance(n.get("args"), list) or not isinstance(n.get("kwargs"), dict):
            errs.append("%s: args must be a list and kwargs an object" % where)
        else:
            _check_value(n["args"], known, where, errs)
            _check_value(list(n["kwargs"].values()), known, where, errs)
        if n.get("op") == "output":
            if i != len(nodes) - 1:
                errs.append("%s: output node is not last" % where)
        elif n.get("op") == "placeholder" and "meta" not in n:
            errs.append("%s: no meta" % where)
        _check_meta(n.get("meta"), where, errs)
        if n.get("op") == "placeholder":
            nph += 1
            if kind in ("inference", "forward"):
                if n.get("kind") not in PLACEHOLDER_KINDS:
                    errs.append("%s: placeholder kind %r" % (where, n.get("kind")))
                if "source" not in n:
                    errs.append("%s: placeholder without source" % where)
        known.add(n.get("name"))
    if not nodes or nodes[-1].get("op") != "output":
        errs.append("no output node at the end")
    aot = doc.get("aot")
    if aot is not None:
        flags = aot.get("input_mutates_data")
        if not isinstance(flags, list):
            errs.append("aot: no input_mutates_data list")
        elif kind in ("inference", "forward") and len(flags) != nph:
            errs.append("aot: %d flags for %d placeholders" % (len(flags), nph))
        k = aot.get("num_mutated_inputs_returned_first")
        if not isinstance(k, int) or k < 0:
            errs.append("aot: bad num_mutated_inputs_returned_first")
    return errs
