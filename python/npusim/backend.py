"""The torch.compile backend "npusim" (PyTorch >= 2.1).

    model = torch.compile(model, backend="npusim",
                          options={"target": "npu-base", "trace": "t.db"})

Dynamo hands the backend one torch-level graph per region it captured;
the backend passes it to aot_autograd with the core ATen decomposition
table, which calls back with the ATen graphs: `inference` (no grad
needed), or `forward` and `backward`.  Each becomes an NpuGraph (graph.py):
written as fxgraph JSON, compiled by npucc with the frozen parameters as
--weights (inference graphs only: training updates them every step),
run by `npusim run`.  aot_autograd's runtime wrapper copies the mutated
inputs back from the first outputs, as the `aot` block of the JSON says.

Placeholders get `kind` and `source` from the Dynamo graph: aot_autograd
keeps Dynamo's input order, so placeholder i of the ATen graph is
placeholder i of the Dynamo graph.

In capture mode (the exporter), the graphs run eagerly and are written
with their values, once, instead of being compiled.
"""

import itertools
import logging
import os

import torch

from . import export, fxjson, graph as graph_mod

_RECOMPILE_LOGGERS = ("torch._dynamo.guards.__recompiles",
                      "torch._dynamo.guards.__recompiles_verbose")


class _RecompileLog(logging.Handler):
    """Keeps the reason Dynamo logs when a guard fails and a frame is
    compiled again (the `recompiles` logging artifact)."""

    def __init__(self):
        logging.Handler.__init__(self, logging.DEBUG)
        self.last = None

    def emit(self, record):
        try:
            self.last = record.getMessage()
        except Exception:
            self.last = str(record.msg)


_log = _RecompileLog()


def _hook_reasons():
    """Dynamo computes the guard failures behind a recompilation in
    convert_frame.get_and_maybe_log_recompilation_reasons, but logs them
    only when the `recompiles` artifact is on.  Wrap it (observing only:
    same arguments, same result) to keep the first reason for the report."""
    try:
        import torch._dynamo.convert_frame as cf
    except Exception:
        return
    orig = getattr(cf, "get_and_maybe_log_recompilation_reasons", None)
    if orig is None or getattr(orig, "_npusim", False):
        return

    def wrapped(*a, **k):
        reasons = orig(*a, **k)
        if reasons:
            _log.last = str(reasons[0]).strip()
        return reasons
    wrapped._npusim = True
    cf.get_and_maybe_log_recompilation_reasons = wrapped


def _install_log():
    for name in _RECOMPILE_LOGGERS:
        lg = logging.getLogger(name)
        if _log not in lg.handlers:
            lg.addHandler(_log)
            if lg.level == logging.NOTSET or lg.level > logging.DEBUG:
                lg.setLevel(logging.DEBUG)
                # Only ours: the text goes into the report, not to stderr
                # unless the user asked for TORCH_LOGS=recompiles.
                if not os.environ.get("TORCH_LOGS"):
                    lg.propagate = False


def _placeholder_info(gm, example_inputs):
    info = []
    phs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    for i, n in enumerate(phs):
        v = example_inputs[i] if i < len(example_inputs) else n.meta.get("example_value")
        src = None
        ga = n.meta.get("grapharg")
        if ga is not None and getattr(ga, "source", None) is not None:
            src = ga.source.name() if callable(getattr(ga.source, "name", None)) else str(ga.source)
        if isinstance(v, torch.nn.Parameter) or "_parameters_" in n.name:
            kind = "parameter"
        elif isinstance(v, (int, torch.SymInt)) or type(v).__name__ == "SymInt":
            kind = "symint"
        elif "_buffers_" in n.name or (src and "_buffers" in src):
            kind = "buffer"
        else:
            kind = "input"
        info.append({"kind": kind, "source": n.name})
    return info


def _aot_meta():
    """The aot block from aot_autograd's view-and-mutation metadata."""
    try:
        from torch._guards import TracingContext
        ctx = TracingContext.try_get()
        m = ctx.fw_metadata if ctx is not None else None
    except Exception:
        m = None
    if m is None:
        return None
    ii = list(m.input_info)
    data = [bool(getattr(x, "mutates_data", False)) for x in ii]
    meta = [bool(getattr(x, "mutates_metadata", False)) for x in ii]
    first = None
    for attr in ("num_mutated_inp_runtime_indices", "num_mutated_inputs"):
        v = getattr(m, attr, None)
        if isinstance(v, int):
            first = v
            break
    kinds = []
    for o in getattr(m, "output_info", ()):
        t = getattr(o, "output_type", None)
        kinds.append(getattr(t, "name", str(t)))
    return fxjson.aot_dict(data, meta, first, kinds,
                           getattr(m, "num_forward_returns", None))


def _compile_id():
    try:
        from torch._guards import CompileContext
        cid = CompileContext.current_compile_id()
        return (cid.frame_id, cid.frame_compile_id) if cid is not None else None
    except Exception:
        return None


def _boxed(fn):
    """aot_autograd's boxed calling convention: one list of arguments,
    which the callee may free early (here it is kept for the call)."""
    def call(args):
        a = list(args)
        args.clear()
        return fn(*a)
    call._boxed_call = True
    call.graph = fn
    return call


class _CaptureGraph:
    """Capture mode: run eagerly; at the first call write the graph with
    its placeholder values and outputs."""

    def __init__(self, gm, doc, out_dir, written):
        self.gm, self.doc, self.out_dir, self.written = gm, doc, out_dir, written
        self.done = False

    def __call__(self, *args):
        out = self.gm(*args)
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        if not self.done:
            self.done = True
            stem = export.write_graph(self.out_dir, self.doc, self.gm,
                                      list(args), out)
            self.written.append((stem, self.doc["graph_kind"]))
        return out


class Backend:
    """A configured npusim backend: torch.compile(m, backend=Backend(...)).
    Options are graph.DEFAULTS's; capture=DIR and name=CASE make it the
    exporter's capturing backend."""

    _counter = itertools.count(1)

    def __init__(self, capture=None, name=None, **opts):
        self.opts = dict(opts)
        self.capture = capture
        self.name = name
        self.written = []
        self.n = itertools.count(1) if capture else Backend._counter

    def __call__(self, gm, example_inputs, options=None, mode=None, **kw):
        from torch._dynamo.backends.common import aot_autograd
        opts = graph_mod.options({**self.opts, **(options or {})})
        sess = export.session()
        sess.options = opts
        _install_log()
        _hook_reasons()
        name = self.name or "npusim"
        cid = _compile_id()
        dname = "%s/dynamo%d" % (name, next(self.n))
        if cid is not None and cid[1] > 0:
            sess.recompiled("frame %d (%s)" % (cid[0], dname),
                            _log.last or "guard failure (reason not logged)")
        _log.last = None
        dyn = fxjson.graph_to_dict(gm, dname, "dynamo")
        if self.capture:
            os.makedirs(self.capture, exist_ok=True)
            self.written.append((export.write_graph(self.capture, dyn, gm), "dynamo"))
        sess.new_graph(dname, "dynamo", len(dyn["nodes"])).status = "captured"
        phinfo = _placeholder_info(gm, example_inputs)
        state = {"aot": None}

        def make(kind):
            def compiler(agm, ex):
                aot = _aot_meta() if kind != "backward" else state["aot"]
                if kind == "forward":
                    state["aot"] = aot
                nph = len([n for n in agm.graph.nodes if n.op == "placeholder"])
                info = phinfo if kind != "backward" and nph == len(phinfo) else None
                doc = fxjson.graph_to_dict(
                    agm, "%s/%s%d" % (name, kind, next(self.n)), kind,
                    placeholders=info, aot=aot,
                    captured_from=(dname.split("/")[-1] + ".json")
                    if kind != "backward" else None)
                # (after the document: it keeps PyTorch's op)
                export.fix_cpu_attention_backward(agm)
                if self.capture:
                    return _boxed(_CaptureGraph(agm, doc, self.capture, self.written))
                frozen = []
                if kind == "inference" and info:
                    flags = (aot or {}).get("input_mutates_data") or [False] * nph
                    frozen = [n["name"] for n, pi, fl in zip(
                        [x for x in doc["nodes"] if x["op"] == "placeholder"],
                        info, flags) if pi["kind"] in ("parameter", "buffer") and not fl]
                return _boxed(graph_mod.NpuGraph(agm, doc, opts, sess, frozen))
            return compiler

        kwargs = dict(fw_compiler=make("forward"), bw_compiler=make("backward"),
                      inference_compiler=make("inference"),
                      decompositions=export.decompositions())
        # With oneDNN enabled, PyTorch decomposes nn.LSTM into
        # mkldnn_rnn_layer, a CPU library call; without it, into the
        # matmuls and gates of each step, which the NPU runs.
        with torch.backends.mkldnn.flags(enabled=False):
            return aot_autograd(**kwargs)(gm, example_inputs)


def npusim_backend(gm, example_inputs, options=None, mode=None, **kw):
    """The function registered as backend "npusim"."""
    return Backend()(gm, example_inputs, options=options)


def register():
    """Registers "npusim" with Dynamo's backend registry; False where
    this PyTorch has none (1.13)."""
    try:
        from torch._dynamo.backends.registry import register_backend, _BACKENDS
    except Exception:
        return False
    if "npusim" not in _BACKENDS:
        register_backend(name="npusim", compiler_fn=npusim_backend)
    # Before the first compile: the first recompilation's reason is
    # computed before the backend is called again.
    _hook_reasons()
    return True
