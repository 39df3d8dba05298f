"""One captured graph, run on the simulator: write, compile, run, return.

An NpuGraph wraps a GraphModule and its fxgraph document.  It compiles
lazily, at its first call, because only then are the real values of the
frozen placeholders (parameters and buffers of an inference graph, which
become `npucc --weights`) at hand; Dynamo and aot_autograd hand compilers
fake tensors.  Each call then:

1. checks that the frozen tensors are the same objects at the same
   version (`tensor._version` moves on every in-place update); if not, the
   weights changed and the program is looked up (or compiled) again;
2. writes the other tensor placeholders to inputs.safetensors by name;
3. runs `npusim run prog.bin --inputs ... --outputs ...` (with the trace
   database and a label naming the call, when asked);
4. reads `output.i` back and gives each output the dtype, shape,
   strides and storage offset the graph's meta promises (symbolic ones
   at the call's sizes; empty_strided + copy).

The graph's own output list is returned in order: for aot graphs that is
the mutated inputs' new values first, which aot_autograd's runtime wrapper
copies back (the 1.13 path does it itself, see export.CompiledModule).

A graph with symbolic sizes (torch.compile(dynamic=True)) is compiled
once into a dynamic program.  When npucc cannot keep its sizes symbolic
(a SymInt used as a value, a symbolic dim that is not leading), it is
compiled static instead, with `npucc --specialize` at each call's sizes:
one program per size set (the compile cache keeps them), as Dynamo itself
would recompile a static graph; the record says why.

When npucc cannot compile the graph, or npusim faults, the graph runs
eagerly on the host instead (option fallback="eager", the default) and the
session records it as a failure; fallback="error" raises.
"""

import ast
import atexit
import operator
import os
import shutil
import tempfile
import time
import uuid

import torch

from . import cache as cache_mod
from . import complexes, conds, fxjson, partition, st, tools

DEFAULTS = {
    "target": None,        # target file or name (npucc and npusim --target)
    "trace": None,         # trace database path (npusim run --trace)
    "timing_only": False,  # npusim run --timing-only; values from the host
    "check_races": False,  # npusim run --check-races: a race is an error
    "keep": None,          # folder to keep every artifact in
    "cache_dir": None,     # compile cache (default cache.default_dir())
    "cache": True,         # False: always compile
    "fallback": "eager",   # or "error"
    "npucc_args": (),      # extra npucc options (part of the cache key)
}


def options(given=None):
    """DEFAULTS overridden by NPUSIM_TARGET/NPUSIM_TRACE/NPUSIM_KEEP from
    the environment, then by the given dict."""
    o = dict(DEFAULTS)
    env = {"target": "NPUSIM_TARGET", "trace": "NPUSIM_TRACE", "keep": "NPUSIM_KEEP"}
    for k, var in env.items():
        if os.environ.get(var):
            o[k] = os.environ[var]
    for k, var in (("timing_only", "NPUSIM_TIMING_ONLY"),
                   ("check_races", "NPUSIM_CHECK_RACES")):
        if os.environ.get(var):
            o[k] = os.environ[var] not in ("", "0")
    for k, v in (given or {}).items():
        if k not in DEFAULTS:
            raise ValueError("npusim: unknown option '%s' (known: %s)"
                             % (k, ", ".join(sorted(DEFAULTS))))
        o[k] = v
    if o["fallback"] not in ("eager", "error"):
        raise ValueError("npusim: fallback must be 'eager' or 'error'")
    return o


class NpuGraph:
    def __init__(self, gm, doc, opts, session, frozen=()):
        """gm: the GraphModule (used for the eager fallback and timing-only
        values); doc: its fxgraph document; frozen: placeholder names whose
        values are compiled into the program."""
        self.gm = gm
        self.captured = doc         # (as captured: its meta is the module's)
        self.cond_why = None        # why a torch.cond was not predicated
        # complex values as pairs of reals; a graph with other ops on them
        # goes to npucc as it is (its own decompositions take the FFTs
        # and their complex results: FNet)
        try:
            doc = complexes.lower(doc)
        except complexes.Unsupported:
            pass
        # torch.cond as both branches and a where (the cond is left to
        # PyTorch between compiled parts where that cannot be done)
        try:
            doc = conds.lower(doc)
        except conds.Unsupported as ex:
            self.cond_why = str(ex)
        self.doc = doc
        self.opts = opts
        self.session = session
        self.name = doc["name"]
        self.record = session.new_graph(doc["name"], doc["graph_kind"],
                                        len(doc["nodes"]))
        self.ph = [n for n in doc["nodes"] if n["op"] == "placeholder"]
        # an input the graph mutates is never frozen: the program updates
        # its buffer in place (npucc ignores a weight for it)
        aot = doc.get("aot") or {}
        flags = aot.get("input_mutates_data") or []
        if doc.get("graph_kind") not in ("forward", "inference"):
            flags = []
        self.mutated = [self.ph[i]["name"] for i, f in enumerate(flags)
                        if f and i < len(self.ph)]
        self.frozen = [i for i, n in enumerate(self.ph) if n["name"] in set(frozen)
                       and n["name"] not in self.mutated]
        self.byname = {n["name"]: n for n in doc["nodes"]}
        self.outs = doc["nodes"][-1]["args"][0]
        self.prog = None
        self.failed = None          # reason, once compiling has failed
        self.dynamic = _has_syms(self.ph)
        self.static_why = None      # why a dynamic graph is compiled per size
        self.sizes = None           # the --specialize of self.prog
        self.snapshot = None        # (id, _version) of the frozen tensors
        self.split = None           # a partition.Split, False: none needed
        if opts.get("keep"):
            self.dir = os.path.join(opts["keep"], self.name.replace("/", "_"))
            os.makedirs(self.dir, exist_ok=True)
            self._tmp = None
        else:
            self._tmp = tempfile.mkdtemp(prefix="npusim-")
            self.dir = self._tmp
            # Dynamo keeps compiled graphs until the process ends, when
            # __del__ may never run.
            atexit.register(shutil.rmtree, self._tmp, True)
        self.cache = cache_mod.Cache(opts.get("cache_dir"))

    def __del__(self):
        if getattr(self, "_tmp", None):
            shutil.rmtree(self._tmp, ignore_errors=True)

    # --- compiling -----------------------------------------------------
    def _weights(self, args):
        w = {}
        for i in self.frozen:
            w[self.ph[i]["name"]] = args[i]
        for n in self.doc["nodes"]:
            if n["op"] == "get_attr":
                v = fxjson.attr(self.gm, n["target"])
                if isinstance(v, torch.Tensor):
                    w["attr." + n["target"]] = v
        return w

    def _snap(self, args):
        return [(id(args[i]), args[i]._version) for i in self.frozen]

    def _sizes(self, args):
        """'s31=2,s64=16': the values of the graph's symbols in this call,
        from the SymInt placeholders and the inputs' shapes."""
        return ",".join("%s=%d" % kv for kv in sorted(self._symvals(args).items()))

    def _symvals(self, args):
        """{'s31': 2, ...}: what _sizes writes."""
        vals = {}
        for i, n in enumerate(self.ph):
            m = n.get("meta") if i < len(args) else None
            if not isinstance(m, dict):
                continue
            sc = m.get("scalar")
            if isinstance(sc, dict) and _plain_sym(sc.get("sym")) and \
                    isinstance(args[i], int):
                vals[sc["sym"]] = int(args[i])
            for d, x in enumerate(m.get("shape") or []):
                if isinstance(x, dict) and _plain_sym(x.get("sym")) and \
                        isinstance(args[i], torch.Tensor) and d < args[i].dim():
                    vals[x["sym"]] = int(args[i].shape[d])
        return vals

    def _build(self, args):
        """Compiles for this call: the dynamic program, or when npucc
        refuses to keep the sizes symbolic, a static one for these."""
        if self.static_why is None:
            try:
                self._compile(args)
                return
            except tools.ToolError as ex:
                if not self.dynamic:
                    raise
                self.static_why = str(ex)
        self._compile(args, self._sizes(args))
        self.record.reason = ("compiled static per size set (%s)" %
                              self.static_why)

    def _compile(self, args, sizes=None):
        """Sets self.prog (cache or npucc) or raises ToolError; sizes:
        npucc --specialize (a static program of those sizes)."""
        t0 = time.time()
        w = self._weights(args)
        npucc = tools.find("npucc")
        extra = list(self.opts.get("npucc_args") or ())
        if sizes:
            extra += ["--specialize", sizes]
        self.sizes = sizes
        key, parts = cache_mod.make_key(
            fxjson.canonical_text(self.doc), cache_mod.weights_hash(w),
            tools.target_hash(self.opts.get("target")), tools.version("npucc"),
            {"target": self.opts.get("target"), "args": extra})
        self.record.key = key
        prog = self.cache.get(key) if self.opts.get("cache", True) else None
        gpath = os.path.join(self.dir, "graph.json")
        wpath = os.path.join(self.dir, "weights.safetensors")
        if not prog or self.opts.get("keep"):   # (keep: every artifact, cached or not)
            with open(gpath, "w") as f:
                f.write(fxjson.dumps(self.doc))
            if w:
                st.save(w, wpath)
        if prog:
            self.prog = prog
            self.record.status = "cached"
            self.record.compile_s = time.time() - t0
            return
        argv = [npucc, gpath, "-o", os.path.join(self.dir, "prog.bin")]
        if w:
            argv[2:2] = ["--weights", wpath]
        if self.opts.get("target"):
            argv[2:2] = ["--target", self.opts["target"]]
        argv[2:2] = extra
        status, out, err = tools.run(argv)
        if status != 0:
            first = _reason(err, status)
            raise tools.ToolError("npucc: %s" % first, err, status)
        prog = os.path.join(self.dir, "prog.bin")
        if self.opts.get("cache", True):
            prog = self.cache.put(key, prog, parts)
        self.prog = prog
        self.record.status = "compiled"
        self.record.compile_s = time.time() - t0

    # --- running -------------------------------------------------------
    def __call__(self, *args):
        call = self.session.new_call(self.record)
        t0 = time.time()
        try:
            if self.failed is None and self.split is None:
                self.split = self._plan()
            if self.failed is None and self.split:
                out = self.split.run(args, call)
                call.wall_s = time.time() - t0
                return out
            if self.failed is None:
                snap = self._snap(args)
                if self.prog is None or snap != self.snapshot or (
                        self.static_why is not None and
                        self._sizes(args) != self.sizes):
                    self._build(args)
                    self.snapshot = snap
                out = self._run(args, call)
                call.wall_s = time.time() - t0
                return out
        except (tools.ToolError, OSError, st.FormatError, ValueError) as ex:
            if self.opts.get("fallback") == "error":
                raise
            self.failed = str(ex)
            self.record.status = "fallback"
            self.record.reason = self.failed
        call.fallback = self.failed
        out = self._eager(args)
        call.wall_s = time.time() - t0
        return out

    def grad_mode(self):
        """Eager work for this graph runs without autograd for inference
        graphs, in the caller's mode otherwise."""
        return torch.no_grad() if self.doc["graph_kind"] == "inference" else _nullctx()

    def _plan(self):
        """A Split when the graph holds nodes npucc does not know (and
        host fallback is allowed: they run in PyTorch between compiled
        parts), else False: npucc takes the graph whole."""
        unknown = partition.unknown_nodes(self.doc)
        if not unknown or self.opts.get("fallback") == "error":
            return False
        try:
            sp = partition.Split(self, unknown)
        except Exception as ex:   # (fx, meta, export: any failure to cut)
            raise ValueError("cannot cut the graph around %s: %s: %s" % (
                ", ".join(sorted(set(unknown.values()))), type(ex).__name__, ex))
        self.record.status = "partitioned"
        self.record.reason = sp.describe()
        return sp

    def _eager(self, args):
        with self.grad_mode():
            out = self.gm(*args)
        return list(out) if isinstance(out, (list, tuple)) else [out]

    def _run(self, args, call):
        frozen = {self.ph[i]["name"] for i in self.frozen}
        ins = {}
        for i, n in enumerate(self.ph):
            if n["name"] in frozen or not isinstance(args[i], torch.Tensor):
                continue
            ins[n["name"]] = args[i]
        tag = uuid.uuid4().hex[:12]
        ipath = os.path.join(self.dir, "inputs-%s.safetensors" % tag)
        opath = os.path.join(self.dir, "outputs-%s.safetensors" % tag)
        st.save(ins, ipath)
        argv = [tools.find("npusim"), "run", self.prog, "--inputs", ipath,
                "--outputs", opath]
        if self.opts.get("target"):
            argv += ["--target", self.opts["target"]]
        if self.opts.get("timing_only"):
            argv.append("--timing-only")
        if self.opts.get("check_races"):
            argv.append("--check-races")
        if self.opts.get("trace"):
            call.label = "npusim-frontend %s call %d %s" % (self.name, call.seq, tag)
            argv += ["--trace", self.opts["trace"], "--label", call.label]
        try:
            status, out, err = tools.run(argv)
            if status != 0:
                first = _reason(err, status)
                raise tools.ToolError("npusim run: %s" % first, err, status)
            call.cycles, call.host_calls = tools.parse_summary(out)
            if self.opts.get("timing_only"):
                return self._eager(args)
            res = st.load(opath)
        finally:
            if not self.opts.get("keep"):
                for p in (ipath, opath):
                    try:
                        os.unlink(p)
                    except OSError:
                        pass
        return [self._output(i, a, res, args) for i, a in enumerate(self.outs)]

    def _output(self, i, a, res, args):
        key = "output.%d" % i
        if key not in res and i < len(self.mutated):
            # the new value of the i-th mutated input, written in place
            # into the input's own (inout) buffer: under its name
            key = self.mutated[i]
        if key in res:
            return _restride(res[key], self.byname.get(a["node"]) if
                             isinstance(a, dict) and "node" in a else None,
                             self._symvals(args))
        if a is None or not isinstance(a, dict):
            return a
        if "node" in a:
            n = self.byname[a["node"]]
            if n["op"] == "placeholder":   # an input returned as is
                return args[self.ph.index(n)]
            sc = n["meta"].get("scalar") if isinstance(n.get("meta"), dict) else None
            if isinstance(sc, dict) and isinstance(sc.get("sym"), str):
                # a SymInt computed (npucc leaves it out): its value now
                return symeval(sc["sym"], self._symvals(args))
            if isinstance(n.get("meta"), dict) and "scalar" in n["meta"]:
                raise ValueError("output %d (%s) is a scalar the program "
                                 "does not return" % (i, a["node"]))
        raise ValueError("npusim run wrote no '%s' (%s)" % (key, a))


_SYM_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
            ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
            ast.Div: operator.truediv}


def symeval(expr, vals):
    """The value of SymInt (or SymFloat) expression expr ("-s78",
    "s11*s66 + 2", "((s24 - 1)//2)", "s0**2", "Max(1, s2)",
    "IntTrueDiv(s0, 2)": what npucc's reader takes, with Python's
    division, floor division and modulo, and fxjson.SYM_FUNCS) at the symbols'
    values vals; ValueError for anything else."""
    def ev(n):
        if isinstance(n, ast.Constant) and type(n.value) in (int, float):
            return n.value
        if isinstance(n, ast.Name) and n.id in vals:
            return int(vals[n.id])
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = ev(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow):
            b, k = ev(n.left), ev(n.right)
            if not 0 <= k <= 64:
                raise ValueError("SymInt expression '%s': power %d" % (expr, k))
            return b ** k
        if isinstance(n, ast.BinOp) and type(n.op) in _SYM_OPS:
            l, r = ev(n.left), ev(n.right)
            if isinstance(n.op, (ast.FloorDiv, ast.Mod, ast.Div)) and r == 0:
                raise ValueError("SymInt expression '%s' divides by zero" % expr)
            return _SYM_OPS[type(n.op)](l, r)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and \
                n.func.id in fxjson.SYM_FUNCS and n.args and not n.keywords:
            f, nargs = fxjson.SYM_FUNCS[n.func.id]
            if nargs not in (None, len(n.args)):
                raise ValueError("SymInt expression '%s': %s takes %d argument(s)"
                                 % (expr, n.func.id, nargs))
            return f(*[ev(a) for a in n.args])
        raise ValueError("SymInt expression '%s': cannot evaluate %s" %
                         (expr, ast.dump(n)[:60]))
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        raise ValueError("SymInt expression '%s' does not parse" % expr)
    return ev(tree.body)


def _plain_sym(x):
    """A size that is one symbol ("s77"), not an expression."""
    return isinstance(x, str) and x.isidentifier()


def _has_syms(placeholders):
    for n in placeholders:
        m = n.get("meta")
        if isinstance(m, dict) and (
                isinstance(m.get("scalar"), dict) and "sym" in m["scalar"] or
                any(isinstance(x, dict) for x in m.get("shape") or [])):
            return True
    return False


def _reason(err, status):
    """The line of a tool's stderr that says what failed: the last one
    (usage text comes before the message), without the program's name."""
    lines = [ln.strip() for ln in err.splitlines() if ln.strip()]
    if not lines:
        return "exit status %d" % status
    last = lines[-1]
    for prog in ("npucc: ", "npusim run: "):
        if last.startswith(prog):
            last = last[len(prog):]
    return last


class _nullctx:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def _concrete(xs, vals):
    """A meta list (dims, strides) with its SymInt entries evaluated at
    vals; None when one cannot be."""
    out = []
    for x in xs or []:
        if isinstance(x, dict) and isinstance(x.get("sym"), str) and vals is not None:
            try:
                x = symeval(x["sym"], vals)
            except ValueError:
                return None
        if not isinstance(x, int):
            return None
        out.append(x)
    return out


def _restride(t, node, vals=None):
    """`t` (contiguous, from the simulator) with the dtype, shape,
    strides and storage offset the node's meta gives, symbolic ones at
    the call's sizes (vals).  The strides matter beyond layout: aot's
    runtime may rebuild an output that aliases an input as a view of
    that input with the output's strides (Sequencer's dynamic graphs
    return permuted views of their inputs)."""
    m = node.get("meta") if node else None
    if not isinstance(m, dict) or "shape" not in m:
        return t
    dt = st.torch_dtype(m["dtype"])
    shape = _concrete(m["shape"], vals)
    stride = _concrete(m.get("stride"), vals) if "stride" in m else None
    off = _concrete([m.get("storage_offset", 0)], vals)
    if shape is not None and list(t.shape) != shape:
        if t.numel() != _prod(shape):
            raise ValueError("output %s: simulator gave shape %s, meta says %s"
                             % (node["name"], list(t.shape), shape))
        t = t.reshape(shape)
    if stride is None or shape is None or len(stride) != len(shape):
        return t.to(dt)
    off = off[0] if off and off[0] > 0 else 0
    if _overlaps(shape, stride):
        # an expanded result (stride 0): elements share storage, which
        # copy_ refuses to write; they hold one value each, stored once
        idx = torch.zeros(shape, dtype=torch.int64)
        for d, (n, sd) in enumerate(zip(shape, stride)):
            view = [1] * len(shape)
            view[d] = n
            idx += (torch.arange(n) * sd).view(view)
        size = 1 + sum((n - 1) * sd for n, sd in zip(shape, stride)) if t.numel() else 0
        base = torch.empty(size, dtype=dt)
        base[idx.flatten()] = t.reshape(-1).to(dt)
        return base.as_strided(shape, stride)
    if off:
        size = 1 + sum((n - 1) * sd for n, sd in zip(shape, stride)) if t.numel() else 0
        out = torch.empty(off + size, dtype=dt).as_strided(shape, stride, off)
    else:
        out = torch.empty_strided(list(t.shape), stride, dtype=dt)
    out.copy_(t)
    return out


def _overlaps(shape, stride):
    """Do two elements of a (shape, stride) layout share a location?"""
    dims = sorted((sd, n) for n, sd in zip(shape, stride) if n > 1)
    extent = 1
    for sd, n in dims:
        if sd < extent:
            return True
        extent = sd * n
    return False


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p
