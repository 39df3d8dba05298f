"""The exporter: capture a model and write its graphs the way the
reference captures are laid out (docs/frontend.md, "The exporter").

    python3 -m npusim.export MODULE:FACTORY [--inputs SPEC ...] -o DIR

FACTORY() returns a module, or (module, inputs).  SPEC is a safetensors
file (its tensors in name order), or a shape such as `16x256` with an
optional dtype (`1x32:int64`), filled from a seeded generator.

Two capture methods:

* "dynamo" (PyTorch 2.x): torch.compile with npusim's backend in capture
  mode: Dynamo, then aot_autograd with the core ATen decompositions: the
  very path `torch.compile(model, backend="npusim")` takes.  Writes
  dynamoN.json and inferenceN.json (or forwardN/backwardN) per graph.
* "make_fx" (PyTorch 1.13, which has no torch.compile): the model is made
  a pure function of (parameters, buffers, inputs) with functional_call,
  functionalized, and traced by make_fx with a decomposition table into one
  ATen graph.  A torch-level graph (torch.fx.symbolic_trace, call_module
  nodes) stands in for the Dynamo graph when the model can be traced
  symbolically.  Differences from the 2.x capture are listed in
  docs/frontend.md.

Both write, for each ATen graph, GRAPH.json, GRAPH.py (the printed
graph), GRAPH.safetensors (every placeholder's value by name, get_attr
tensors as attr.<target>, outputs as output.i), plus eager.safetensors
(model_input.i, model_output.i) and INDEX.json.
"""

import argparse
import copy
import importlib
import inspect
import json
import os
import re
import sys

import torch
import torch.fx
from torch.utils import _pytree as pytree

from . import fxjson, graph as graph_mod, st
from .report import Session

_session = None


def session():
    """The process's accounting session (report.Session)."""
    global _session
    if _session is None:
        _session = Session()
    return _session


# --- version shims ---------------------------------------------------------

def _functional_call():
    try:
        from torch.func import functional_call
    except ImportError:
        from torch.nn.utils.stateless import functional_call
    return functional_call


def _functionalize():
    try:
        from torch.func import functionalize
    except ImportError:
        from functorch import functionalize
    return functionalize


def _make_fx():
    from torch.fx.experimental.proxy_tensor import make_fx
    return make_fx


def has_dynamo():
    """True where torch.compile and aot_autograd exist (PyTorch >= 2.1)."""
    try:
        import torch._dynamo  # noqa: F401
        from torch._dynamo.backends.common import aot_autograd  # noqa: F401
    except Exception:
        return False
    return hasattr(torch, "compile")


def _attention(q, k, v, num_head, qkv_weight, qkv_bias, proj_weight,
               proj_bias, mask, mask_type):
    """The attention of nn.MultiheadAttention's fast path, batch first:
    projections, softmax(q k^T / sqrt(d) + mask) v per head, the output
    projection; the weights [B, H, L, S] too."""
    import math
    import torch.nn.functional as F
    B, L, E = q.shape
    S, H = k.shape[1], num_head
    D = E // H
    wq, wk, wv = qkv_weight.chunk(3)
    bq, bk, bv = qkv_bias.chunk(3) if qkv_bias is not None else (None,) * 3
    q = F.linear(q, wq, bq).view(B, L, H, D).transpose(1, 2)
    k = F.linear(k, wk, bk).view(B, S, H, D).transpose(1, 2)
    v = F.linear(v, wv, bv).view(B, S, H, D).transpose(1, 2)
    att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(D)
    if mask is not None:
        # type 1: a key padding mask [B, S]; else one that broadcasts
        m = mask.view(B, 1, 1, S) if mask_type == 1 else mask
        att = att.masked_fill(m, float("-inf")) if m.dtype == torch.bool else att + m
    att = torch.softmax(att, -1)
    out = torch.matmul(att, v).transpose(1, 2).reshape(B, L, E)
    return F.linear(out, proj_weight, proj_bias), att


def _mha_fast(query, key, value, embed_dim, num_head, qkv_weight, qkv_bias,
              proj_weight, proj_bias, mask=None, need_weights=True,
              average_attn_weights=True, mask_type=None):
    out, att = _attention(query, key, value, num_head, qkv_weight, qkv_bias,
                          proj_weight, proj_bias, mask, mask_type)
    if not need_weights:
        return out, query.new_zeros((0,))
    return out, att.mean(1) if average_attn_weights else att


def _encoder_layer_fast(src, embed_dim, num_heads, qkv_weight, qkv_bias,
                        proj_weight, proj_bias, use_gelu, norm_first, eps,
                        norm_weight_1, norm_bias_1, norm_weight_2, norm_bias_2,
                        ffn_weight_1, ffn_bias_1, ffn_weight_2, ffn_bias_2,
                        mask=None, mask_type=None):
    import torch.nn.functional as F
    ln1 = lambda t: F.layer_norm(t, (embed_dim,), norm_weight_1, norm_bias_1, eps)
    ln2 = lambda t: F.layer_norm(t, (embed_dim,), norm_weight_2, norm_bias_2, eps)
    act = F.gelu if use_gelu else F.relu
    sa = lambda t: _attention(t, t, t, num_heads, qkv_weight, qkv_bias, proj_weight,
                              proj_bias, mask, mask_type)[0]
    ff = lambda t: F.linear(act(F.linear(t, ffn_weight_1, ffn_bias_1)), ffn_weight_2, ffn_bias_2)
    if norm_first:
        x = src + sa(ln1(src))
        return x + ff(ln2(x))
    x = ln1(src + sa(src))
    return ln2(x + ff(x))


def _fast_paths(table):
    """The fused kernels nn.MultiheadAttention and nn.TransformerEncoderLayer
    take in eval mode (their fast path), as the ops they are made of, so
    that no graph holds them whole (1.13's make_fx records them; so may
    a 2.x whose Dynamo traces them)."""
    aten = torch.ops.aten
    for name, fn in (("_native_multi_head_attention", _mha_fast),
                     ("_transformer_encoder_layer_fwd", _encoder_layer_fast)):
        op = getattr(aten, name, None)
        if op is not None and hasattr(op, "default"):
            table[op.default] = fn
    return table


def decompositions():
    """The decomposition table: PyTorch's core ATen table where it exists
    (2.x); on 1.13, the decompositions of the ops npusim's op table lacks
    that make_fx would otherwise leave composite.  Both with the fused
    fast paths of attention spelt out (_fast_paths)."""
    import torch._decomp as d
    if hasattr(d, "core_aten_decompositions"):
        return _fast_paths(dict(d.core_aten_decompositions()))
    aten = torch.ops.aten
    ops = [aten.addcmul, aten.addcdiv, aten.elu, aten.softplus,
           aten.mse_loss, aten.native_dropout, aten.logsumexp, aten.silu_backward,
           aten.hardtanh_backward, aten.rsub, aten.norm, aten.std, aten.var,
           aten.native_group_norm, aten.glu, aten._reshape_alias, aten.tril,
           aten.triu]
    # and those of 2.x's core table that 1.13 can decompose into ATen
    # ops, so that a graph meets the ops a 2.x capture would give (1.13
    # left aten.mish, aten.roll, aten.nll_loss_forward... whole; those
    # whose 1.13 decompositions give prims ops stay: linspace, prelu,
    # floor_divide, frac, heaviside, nan_to_num, the shrinks, huber_loss,
    # isposinf, isneginf, std_mean)
    names = ["addr", "binary_cross_entropy",
             "binary_cross_entropy_with_logits", "celu", "clamp_max",
             "clamp_min", "col2im", "diag_embed", "dot", "im2col",
             "index_add", "index_copy", "index_fill", "logit",
             "log_sigmoid_forward", "mish", "mv", "new_empty", "new_full",
             "new_ones", "new_zeros", "nll_loss_forward", "pdist", "roll",
             "rot90", "selu", "sgn", "sigmoid_backward", "sinc",
             "soft_margin_loss", "tanh_backward", "threshold", "trace",
             "unfold_copy", "upsample_bicubic2d", "upsample_bilinear2d",
             "xlogy"]
    ops += [getattr(aten, n) for n in names if hasattr(aten, n)]
    found = [op for op in ops if hasattr(op, "overloads")]
    return _fast_paths(d.get_decompositions(found))


# --- attention's backward on the CPU ---------------------------------------

def _sdpa_bwd_from_probs(grad_out, query, key, value, out, probs, dropout_p=0.0,
                         is_causal=False, attn_mask=None, scale=None):
    """_scaled_dot_product_flash_attention_for_cpu_backward given, in
    logsumexp's place, the probabilities softmax(scale q k^T + mask) that
    the core ATen decomposition of the forward returns there: dV = P^T dO,
    dS = P (dO V^T - rowsum), dQ = scale dS K, dK = scale dS^T Q, in
    float32 at least, key and value heads summed over their query
    groups.  Checked against autograd in python/tests/test_runtime.py."""
    import math
    if dropout_p:
        raise NotImplementedError("attention backward with dropout from probabilities")
    dt = query.dtype
    f = (lambda t: t.float()) if dt in (torch.float16, torch.bfloat16) else (lambda t: t)
    q, k, v, go, p = f(query), f(key), f(value), f(grad_out), f(probs)
    s = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    rep = q.shape[1] // k.shape[1]
    kk, vv = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
    dv = p.transpose(-2, -1) @ go
    dp = go @ vv.transpose(-2, -1)
    ds = p * (dp - (dp * p).sum(-1, keepdim=True))
    dq = ds @ kk * s
    dk = ds.transpose(-2, -1) @ q * s
    if rep > 1:
        dk = dk.unflatten(1, (k.shape[1], rep)).sum(2)
        dv = dv.unflatten(1, (k.shape[1], rep)).sum(2)
    # laid out as the CPU kernel lays its results out, [B, L, H, E]
    # transposed: the graph's views after it count on those strides
    return tuple(g.to(dt).transpose(1, 2).contiguous().transpose(1, 2) for g in (dq, dk, dv))


def fix_cpu_attention_backward(gm):
    """Makes gm's eager run of attention's CPU backward right.  The core
    ATen decomposition of _scaled_dot_product_flash_attention_for_cpu
    returns the attention probabilities [B,H,L,S] where the fused op
    returns its logsumexp [B,H,L], and aot_autograd hands them to the
    backward op, whose CPU kernel then reads them as a logsumexp and
    computes garbage (gradients hundreds of times off).  Each such call
    in gm becomes _sdpa_bwd_from_probs, which is what npucc lowers it to
    (compiler/decomp.def), for the exporter's recorded values and the
    frontend's eager fallback alike.  Returns how many were changed."""
    op = getattr(torch.ops.aten, "_scaled_dot_product_flash_attention_for_cpu_backward", None)
    if op is None:
        return 0
    n = 0
    for node in gm.graph.nodes:
        if node.op != "call_function" or node.target is not op.default:
            continue
        lse = node.args[5].meta.get("val") if len(node.args) > 5 and \
            isinstance(node.args[5], torch.fx.Node) else None
        if lse is not None and lse.dim() == 4:
            node.target = _sdpa_bwd_from_probs
            n += 1
    if n:
        gm.recompile()
    return n


# --- placeholder naming, as Dynamo spells its sources ----------------------

def dynamo_source(path, what, root="self"):
    """`fc1.weight` (parameters) -> `l_self_modules_fc1_parameters_weight_`."""
    parts = path.split(".")
    s = "l_%s_" % root
    for p in parts[:-1]:
        s += "modules_%s_" % p
    return s + "%s_%s_" % (what, parts[-1])


def _input_names(model, n):
    try:
        sig = inspect.signature(model.forward)
        names = [p for p in sig.parameters if p not in ("self",)]
    except (TypeError, ValueError):
        names = []
    return [("l_%s_" % names[i].lower()) if i < len(names) else "l_args_%d_" % i
            for i in range(n)]


# --- running a graph and keeping every value -------------------------------

class _Recorder(torch.fx.Interpreter):
    def __init__(self, gm):
        super().__init__(gm)
        self.values = {}

    def run_node(self, n):
        v = super().run_node(n)
        if n.op != "output":
            self.values[n.name] = v
        return v


def run_recording(gm, args):
    """(outputs, node name -> value) of one eager run of a GraphModule."""
    r = _Recorder(gm)
    out = r.run(*args)
    return out, r.values


# --- the 1.13 capture -------------------------------------------------------

class Capture:
    """One captured ATen graph: its GraphModule, document and values."""

    def __init__(self, gm, doc, args, outputs, frozen, mutated, out_spec):
        self.gm = gm
        self.doc = doc
        self.args = args            # the placeholder values, in order
        self.outputs = outputs      # the graph's outputs, in order
        self.frozen = frozen        # placeholder names that are weights
        self.mutated = mutated      # placeholder indices updated in place
        self.out_spec = out_spec    # pytree spec of the model's outputs


def _state(model):
    params = list(model.named_parameters())
    buffers = list(model.named_buffers())
    return params, buffers


def _fold_copies(gm, nph):
    """Functionalization leaves `aten.copy_(input, new)` at the end for
    each mutated input.  Rewrite them as aot_autograd does: the new
    values become the first outputs, in input order; the flags say which
    inputs they belong to."""
    g = gm.graph
    phs = [n for n in g.nodes if n.op == "placeholder"]
    out = [n for n in g.nodes if n.op == "output"][0]
    new = {}
    for n in list(g.nodes):
        if n.op == "call_function" and n.target in (
                torch.ops.aten.copy_.default,) and n.args[0] in phs:
            new[phs.index(n.args[0])] = n.args[1]
            n.replace_all_uses_with(n.args[1])
            g.erase_node(n)
    flags = [i in new for i in range(nph)]
    user = out.args[0]
    if not isinstance(user, (list, tuple)):
        user = (user,)
    out.args = (tuple([new[i] for i in sorted(new)] + list(user)),)
    g.eliminate_dead_code()
    g.lint()
    gm.recompile()
    return flags, len(new)


class _Scratch:
    """`with _Scratch(model) as m`: a copy of model to run, which may
    change its buffers without touching model's.  When the model cannot
    be deep-copied (1.13's weight_norm keeps a computed, non-leaf weight),
    the model itself, with its state put back afterwards."""

    def __init__(self, model):
        self.model, self.saved = model, None

    def __enter__(self):
        try:
            return copy.deepcopy(self.model)
        except RuntimeError:
            self.saved = {k: v.detach().clone()
                          for k, v in self.model.state_dict().items()}
            return self.model

    def __exit__(self, *exc):
        if self.saved is not None:
            with torch.no_grad():
                for k, v in self.model.state_dict().items():
                    v.copy_(self.saved[k])
        return False


def capture_make_fx(model, inputs, name="model", start=1, torch_level=True):
    """Captures `model(*inputs)` with make_fx (any PyTorch >= 1.13).
    Returns (captures, torch_level_doc_or_None)."""
    # The torch-level graph first, on a copy: after make_fx, 1.13 leaves
    # tracer state on the parameters that deepcopy cannot copy.
    tdoc = None
    idx = start
    if torch_level:
        try:
            tgm = torch.fx.symbolic_trace(copy.deepcopy(model))
            with torch.no_grad():
                _, tvalues = run_recording(tgm, copy.deepcopy(list(inputs)))
            tdoc = fxjson.graph_to_dict(tgm, "%s/dynamo%d" % (name, idx),
                                        "dynamo", values=tvalues)
            idx += 1
        except Exception:   # data-dependent control flow and the like
            tdoc = None
    functional_call = _functional_call()
    params, buffers = _state(model)
    names = [n for n, _ in params] + [n for n, _ in buffers]
    state = [t for _, t in params] + [t for _, t in buffers]
    flat_in, in_spec = pytree.tree_flatten(list(inputs))
    k = len(state)
    spec = {}

    def f(*flat):
        sd = dict(zip(names, flat[:k]))
        ins = pytree.tree_unflatten(list(flat[k:]), in_spec)
        out = functional_call(model, sd, tuple(ins))
        fo, spec["out"] = pytree.tree_flatten(out)
        return tuple(fo)

    args = state + flat_in
    fn = _functionalize()(f, remove="mutations")
    # Traced on copies: with real tensors, functionalize applies the
    # mutations back to what it was given at the end.
    copies = [a.detach().clone() if isinstance(a, torch.Tensor) else a for a in args]
    with torch.no_grad():
        gm = _make_fx()(fn, decomposition_table=decompositions())(*copies)
    for n in gm.graph.nodes:
        # make_fx on 1.13 keeps no provenance; the op is its own origin.
        if n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload):
            n.meta.setdefault("original_aten", n.target)
    flags, nmut = _fold_copies(gm, len(args))
    with torch.no_grad():
        outs, values = run_recording(gm, args)
    kinds = (["parameter"] * len(params) + ["buffer"] * len(buffers) +
             ["input" if isinstance(a, torch.Tensor) else "symint" for a in flat_in])
    sources = ([dynamo_source(n, "parameters") for n, _ in params] +
               [dynamo_source(n, "buffers") for n, _ in buffers] +
               _input_names(model, len(flat_in)))
    phinfo = [{"kind": kd, "source": sc} for kd, sc in zip(kinds, sources)]

    aot = fxjson.aot_dict(flags, returned_first=nmut,
                          num_forward_returns=len(outs))
    doc = fxjson.graph_to_dict(
        gm, "%s/inference%d" % (name, idx), "inference", placeholders=phinfo,
        values=values, aot=aot,
        captured_from=("dynamo%d.json" % (idx - 1)) if tdoc else None)
    frozen = [n["name"] for n, kd, fl in zip(
        [x for x in doc["nodes"] if x["op"] == "placeholder"], kinds, flags)
        if kd in ("parameter", "buffer") and not fl]
    cap = Capture(gm, doc, args, list(outs), frozen,
                  [i for i, fl in enumerate(flags) if fl], spec["out"])
    return [cap], tdoc


# --- compiling a module without Dynamo (the 1.13 path) ----------------------

class CompiledModule:
    """`model` captured with make_fx and run on the simulator: the 1.13
    stand-in for torch.compile(model, backend="npusim").  A call with
    other input shapes or dtypes recaptures (a recompilation, with the
    changed input as its reason).  Mutated buffers are copied back."""

    def __init__(self, model, example_inputs, **opts):
        self.model = model
        self.opts = graph_mod.options(opts)
        self.name = opts.get("name") or type(model).__name__
        self.session = session()
        self.session.options = self.opts
        self._capture(list(example_inputs))

    def _sig(self, flat):
        return [(tuple(a.shape), a.dtype) if isinstance(a, torch.Tensor) else a
                for a in flat]

    def _capture(self, inputs):
        caps, _ = capture_make_fx(self.model, inputs, self.name,
                                  start=len(self.session.graphs) + 1,
                                  torch_level=False)
        self.cap = caps[0]
        self.sig = self._sig(pytree.tree_flatten(inputs)[0])
        self.npu = graph_mod.NpuGraph(self.cap.gm, self.cap.doc, self.opts,
                                      self.session, self.cap.frozen)

    def __call__(self, *inputs):
        flat_in = pytree.tree_flatten(list(inputs))[0]
        sig = self._sig(flat_in)
        if sig != self.sig:
            for i, (a, b) in enumerate(zip(self.sig, sig)):
                if a != b:
                    why = "input %d was %s, now %s" % (i, a, b)
                    break
            else:
                why = "number of inputs changed"
            self.session.recompiled(self.name, why)
            self._capture(list(inputs))
        params, buffers = _state(self.model)
        args = [t for _, t in params] + [t for _, t in buffers] + flat_in
        outs = self.npu(*args)
        nmut = len(self.cap.mutated)
        with torch.no_grad():
            for j, i in enumerate(self.cap.mutated):
                args[i].copy_(outs[j])
        user = outs[nmut:]
        return pytree.tree_unflatten(list(user), self.cap.out_spec)


def compile(model, example_inputs, **opts):
    """torch.compile(model, backend="npusim") where Dynamo exists; the
    make_fx path (CompiledModule) where it does not (PyTorch 1.13)."""
    if has_dynamo() and not opts.pop("make_fx", False):
        from . import backend
        return torch.compile(model, backend=backend.Backend(**opts))
    return CompiledModule(model, example_inputs, **opts)


# --- writing ---------------------------------------------------------------

def _readable(gm):
    try:
        text = gm.print_readable(print_output=False)
    except Exception:
        text = gm.code
    return fxjson.relative_sources(text)


def write_graph(out_dir, doc, gm=None, args=None, outputs=None):
    """GRAPH.json (+ .py, + .safetensors with placeholders, attrs and
    outputs when values are given) under out_dir; returns the stem."""
    stem = doc["name"].split("/")[-1]
    with open(os.path.join(out_dir, stem + ".json"), "w") as f:
        f.write(fxjson.dumps(doc))
    if gm is not None:
        with open(os.path.join(out_dir, stem + ".py"), "w") as f:
            f.write(_readable(gm))
    if args is not None:
        t = {}
        phs = [n for n in doc["nodes"] if n["op"] == "placeholder"]
        for n, a in zip(phs, args):
            if isinstance(a, torch.Tensor):
                t[n["name"]] = a
        for n in doc["nodes"]:
            if n["op"] == "get_attr" and gm is not None:
                v = fxjson.attr(gm, n["target"])
                if isinstance(v, torch.Tensor):
                    t["attr." + n["target"]] = v
        for i, o in enumerate(outputs or []):
            if isinstance(o, torch.Tensor):
                t["output.%d" % i] = o
        st.save(t, os.path.join(out_dir, stem + ".safetensors"))
    return stem


def write_eager(out_dir, inputs, outputs):
    t = {}
    for i, x in enumerate(pytree.tree_flatten(list(inputs))[0]):
        if isinstance(x, torch.Tensor):
            t["model_input.%d" % i] = x
    for i, x in enumerate(pytree.tree_flatten(outputs)[0]):
        if isinstance(x, torch.Tensor):
            t["model_output.%d" % i] = x
    st.save(t, os.path.join(out_dir, "eager.safetensors"))


def export(model, inputs, out_dir, name=None, method="auto", backward=False):
    """Captures model(*inputs) and writes its graphs to out_dir.  Returns
    the INDEX entry: {"graphs": [...], "dynamo_graphs": [...], "values"}.
    backward=True (Dynamo only) runs with grad and calls backward() on the
    sum of the outputs: forward and backward graphs instead of inference."""
    os.makedirs(out_dir, exist_ok=True)
    name = name or os.path.basename(os.path.abspath(out_dir))
    inputs = list(inputs)
    if method == "auto":
        method = "dynamo" if has_dynamo() else "make_fx"
    if backward and method != "dynamo":
        raise ValueError("backward graphs need the dynamo method (PyTorch >= 2.1)")
    with torch.no_grad(), _Scratch(model) as m:
        eager = m(*copy.deepcopy(inputs))
    entry = {"graphs": [], "dynamo_graphs": [], "values": True}
    if method == "make_fx":
        caps, tdoc = capture_make_fx(model, inputs, name)
        if tdoc is not None:
            entry["dynamo_graphs"].append(write_graph(out_dir, tdoc))
        for c in caps:
            entry["graphs"].append(write_graph(out_dir, c.doc, c.gm, c.args, c.outputs))
    elif method == "dynamo":
        from . import backend
        # A fresh Dynamo: earlier calls of the same code would otherwise
        # make this capture a recompilation with dynamic shapes.
        import torch._dynamo as dynamo
        dynamo.reset()
        b = backend.Backend(capture=out_dir, name=name)
        cm = torch.compile(copy.deepcopy(model), backend=b)
        # no_grad: the inference graph, as the reference captures have it
        # (with grad enabled aot_autograd makes forward and backward).
        if backward:
            out = cm(*copy.deepcopy(inputs))
            sum(o.float().sum() for o in pytree.tree_flatten(out)[0]
                if isinstance(o, torch.Tensor) and o.requires_grad).backward()
        else:
            with torch.no_grad():
                cm(*copy.deepcopy(inputs))
        for stem, kind in b.written:
            (entry["dynamo_graphs"] if kind == "dynamo" else entry["graphs"]).append(stem)
    else:
        raise ValueError("unknown capture method %r" % method)
    entry["graphs"].sort()
    entry["dynamo_graphs"].sort()
    write_eager(out_dir, inputs, eager)
    with open(os.path.join(out_dir, "INDEX.json"), "w") as f:
        json.dump({name: entry}, f, indent=1)
    return entry


# --- the command line --------------------------------------------------------

_SPEC = re.compile(r"^(\d+(?:x\d+)*|scalar)(?::(\w+))?$")


def parse_input(spec, gen):
    """One --inputs value: a .safetensors file (several tensors, in name
    order) or a shape like 16x256[:dtype]."""
    if spec.endswith(".safetensors"):
        t = st.load(spec)
        return [t[k] for k in sorted(t)]
    m = _SPEC.match(spec)
    if not m:
        raise ValueError("--inputs %s: expected FILE.safetensors or a shape "
                         "like 16x256[:float32]" % spec)
    shape = [] if m.group(1) == "scalar" else [int(d) for d in m.group(1).split("x")]
    dt = st.torch_dtype(m.group(2) or "float32")
    if dt.is_floating_point:
        return [torch.randn(shape, generator=gen).to(dt)]
    if dt == torch.bool:
        return [torch.randint(0, 2, shape, generator=gen).bool()]
    return [torch.randint(0, 16, shape, generator=gen).to(dt)]


def load_factory(ref):
    mod, _, fn = ref.partition(":")
    if not fn:
        raise ValueError("expected MODULE:FACTORY, got %r" % ref)
    sys.path.insert(0, os.getcwd())
    obj = importlib.import_module(mod)
    for part in fn.split("."):
        obj = getattr(obj, part)
    return obj


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 -m npusim.export",
        description="Capture a PyTorch model and write its FX graphs (fxgraph "
                    "JSON) and safetensors files for npucc.")
    ap.add_argument("factory", help="MODULE:FACTORY returning a module, or "
                    "(module, inputs)")
    ap.add_argument("--inputs", nargs="*", default=[],
                    help="FILE.safetensors or shapes like 16x256[:dtype]")
    ap.add_argument("-o", "--output", required=True, help="output folder")
    ap.add_argument("--name", help="case name (default: the folder's name)")
    ap.add_argument("--method", choices=("auto", "dynamo", "make_fx"),
                    default="auto")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--train", action="store_true",
                    help="leave the module in training mode (default: eval)")
    ap.add_argument("--backward", action="store_true",
                    help="capture forward and backward graphs (dynamo only)")
    a = ap.parse_args(argv)
    torch.manual_seed(a.seed)
    try:
        made = load_factory(a.factory)()
        if isinstance(made, tuple):
            model, inputs = made[0], list(made[1])
        else:
            model, inputs = made, []
        gen = torch.Generator().manual_seed(a.seed)
        for spec in a.inputs:
            inputs += parse_input(spec, gen)
        if not inputs:
            raise ValueError("no inputs: give --inputs or return (model, inputs)")
        model.train(a.train)
        entry = export(model, inputs, a.output, a.name, a.method, a.backward)
    except (ValueError, ImportError, AttributeError, OSError) as ex:
        print("npusim.export: %s" % ex, file=sys.stderr)
        return 2
    print("npusim.export: wrote %s to %s" % (", ".join(
        entry["dynamo_graphs"] + entry["graphs"]), a.output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
