"""Cutting a graph around the operators npucc does not know.

An aot graph can hold calls that npucc has no entry for: a torch.library
custom op, a higher-order op such as torch.cond (whose branches are
subgraphs).  Rather than run the whole graph eagerly, the frontend cuts
it, in graph order, into steps: maximal runs of nodes npucc knows, each
compiled and run on npusim as a graph of its own (an NpuGraph named
`<graph>/part<i>`), and the unknown nodes between them, which PyTorch runs.
The cut keeps the graph's order, so every step's inputs exist before it
runs; `get_attr` constants are copied into every run that reads them.

The unknown nodes are host work outside the simulated machine: each call
counts them and the bytes of their operands and results
(CallRecord.host_ops, host_bytes) and the report fails on them, naming
the operators; the graph's record says `partitioned` and how.
"""

import collections
import json
import re

import torch
import torch.fx as fx

from . import fxjson, tools


# npucc's SymInt and SymFloat expressions (compiler/ref.c): numbers,
# symbols, + - * / // % ** and parentheses, and its functions
_SYM_FUNC = re.compile(r"\b(?:%s)\(" % "|".join(fxjson.SYM_FUNCS))
_SYM_REST = re.compile(r"[\w\s.+\-*/%(),]*")


def _scalar_sym(meta):
    """The expression of a symbolic scalar's meta ({"scalar": {"sym":
    "4*s0"}}), else None."""
    sc = meta.get("scalar") if isinstance(meta, dict) else None
    expr = sc.get("sym") if isinstance(sc, dict) else None
    return expr if isinstance(expr, str) else None


def symint_expr(meta):
    """A node's SymInt (or SymFloat) expression, where npucc evaluates
    it: the node is then size arithmetic npucc takes whatever its target
    (operator.mul, torch.sym_max, operator.truediv: compiler/dyn.c), else
    None.  A SymBool (s0 >= 2) or a function npucc lacks is None."""
    expr = _scalar_sym(meta)
    if expr is None:
        return None
    rest = _SYM_FUNC.sub("(", expr)
    if not _SYM_REST.fullmatch(rest) or re.search(r"\w\s*\(", rest):
        return None
    return expr


_UNBACKED = re.compile(r"\bu\d+\b")


def _unbacked(meta):
    """The unbacked symbols (u0: sizes and scalars that come from data)
    a node's meta names."""
    return set(_UNBACKED.findall(json.dumps(meta))) if meta else set()


def unknown_nodes(doc):
    """{node name: target} of the document's calls npucc does not know,
    and of those whose result's size depends on data (a boolean mask's
    index, .item(): the first node to name an unbacked symbol u<i>; no
    program can be compiled before its value exists); empty where every
    node is known, or where npucc cannot list them."""
    known = tools.known_ops()
    if known is None:
        return {}
    out, seen = {}, set()
    for n in doc["nodes"]:
        new = _unbacked(n.get("meta")) - seen
        seen |= new
        if n["op"] != "call_function":
            continue
        if (n["target"] not in known and symint_expr(n.get("meta")) is None) or new:
            out[n["name"]] = n["target"]
    return out


def _tensors(meta):
    """Does a node of this (captured) meta compute a tensor?"""
    if isinstance(meta, list):
        return any(_tensors(m) for m in meta)
    return isinstance(meta, dict) and "shape" in meta


def _nbytes(v):
    """Bytes of the tensors in v (nested tuples, lists, dicts): what a
    host node takes from and gives back to the simulated machine."""
    if isinstance(v, torch.Tensor):
        return v.numel() * v.element_size()
    if isinstance(v, (list, tuple)):
        return sum(_nbytes(x) for x in v)
    if isinstance(v, dict):
        return sum(_nbytes(x) for x in v.values())
    return 0


class _Run:
    """One run of known nodes: the inputs it takes from before it, the
    values later steps read, its GraphModule and NpuGraph."""

    def __init__(self):
        self.nodes = []
        self.inputs = []
        self.outputs = []
        self.npu = None


class Split:
    """The steps of `parent` (an NpuGraph) with the nodes `host` (names)
    run by PyTorch; run() calls them in order."""

    def __init__(self, parent, host):
        from . import graph as graph_mod
        self.parent = parent
        gm = parent.gm
        nodes = list(gm.graph.nodes)
        byname = {n.name: n for n in nodes}
        missing = sorted(set(host) - set(byname))
        if missing:
            raise ValueError("cannot cut the graph: no node %s in its module"
                             % ", ".join(missing))
        # the meta of every node as captured (the module's own meta
        # differs between PyTorch versions)
        self.meta = {n["name"]: n.get("meta") for n in parent.captured["nodes"]}
        hosts = {byname[h] for h in host}
        # the ones that compute tensors; the others are scalar plumbing
        # (SymInt comparisons, shape assertions), run but not counted
        self.unknown = {n for n in hosts if _tensors(self.meta.get(n.name))}
        # A node that reads a host node's tuple of results (a getitem)
        # runs on the host too: a compiled part takes tensors and scalars.
        for n in nodes:
            if n.op == "call_function" and any(
                    a in hosts and isinstance(self.meta.get(a.name), list)
                    for a in n.all_input_nodes):
                hosts.add(n)
        self.placeholders = [n for n in nodes if n.op == "placeholder"]
        self.attrs = [n for n in nodes if n.op == "get_attr"]
        self.out = nodes[-1]
        self.steps = []
        cur = None
        for n in nodes:
            if n.op in ("placeholder", "get_attr", "output"):
                continue
            if n in hosts:
                self.steps.append(n)
                cur = None
            else:
                if cur is None:
                    cur = _Run()
                    self.steps.append(cur)
                cur.nodes.append(n)
        # A run that computes scalars alone (a size read off a host
        # node's result) is no program: PyTorch runs it, uncounted.
        scalar_runs, steps = [], []
        for s in self.steps:
            if isinstance(s, _Run) and not any(_tensors(self.meta.get(n.name))
                                               for n in s.nodes):
                scalar_runs += s.nodes
                steps += s.nodes
            else:
                steps.append(s)
        self.steps = steps
        self.targets = collections.Counter(fxjson.target_name(n) for n in self.unknown)
        self.scalar = collections.Counter(fxjson.target_name(n) for n in
                                          [byname[h] for h in host] + scalar_runs
                                          if n not in self.unknown)
        runs = [s for s in self.steps if isinstance(s, _Run)]
        users = self._users(nodes)
        pdoc = {n["name"]: n for n in parent.doc["nodes"] if n["op"] == "placeholder"}
        frozen = {parent.ph[i]["name"] for i in parent.frozen}
        for i, r in enumerate(runs):
            self._build(r, users, gm, "%s/part%d" % (parent.name, i), pdoc, frozen,
                        graph_mod)
        self.nruns = len(runs)
        self.drop = self._last_uses()
        # the constants the host steps read (a run reads its own, frozen)
        self.host_attrs = [a for a in self.attrs if any(
            a in s.all_input_nodes for s in self.steps if not isinstance(s, _Run))]

    def _last_uses(self):
        """Per step, the values no later step reads (dropped after it, so
        that a call holds no more than the graph itself would)."""
        last = {}
        for i, s in enumerate(self.steps):
            for a in (s.inputs if isinstance(s, _Run) else s.all_input_nodes):
                last[a] = i
        for a in self.out.all_input_nodes:
            last.pop(a, None)
        drop = [[] for _ in self.steps]
        for a, i in last.items():
            if a.op != "get_attr":
                drop[i].append(a)
        return drop

    @staticmethod
    def _users(nodes):
        """node -> the nodes that read it (the output node among them)."""
        users = collections.defaultdict(set)
        for n in nodes:
            for a in n.all_input_nodes:
                users[a].add(n)
        return users

    def _symbol_inputs(self, r):
        """The graph's SymInt placeholders of one symbol (s53) that the
        run's sizes name and its inputs do not carry: a part whose only
        sizes are expressions (4*s53, Max(1, s2)) is given each symbol
        by value, so that its program is specialized to all of them."""
        text = json.dumps([self.meta.get(n.name) for n in r.nodes + r.inputs])
        have = set(r.inputs)
        out = []
        for p in self.placeholders:
            sym = _scalar_sym(self.meta.get(p.name))
            if sym and sym.isidentifier() and p not in have and \
                    re.search(r"\b%s\b" % re.escape(sym), text):
                out.append(p)
        return out

    def _build(self, r, users, gm, name, pdoc, frozen, graph_mod):
        inside = set(r.nodes)
        attrs = []
        for n in r.nodes:
            for a in n.all_input_nodes:
                if a in inside or a in r.inputs or a in attrs:
                    continue
                (attrs if a.op == "get_attr" else r.inputs).append(a)
        r.inputs += self._symbol_inputs(r)
        r.outputs = [n for n in r.nodes if users[n] - inside]
        for a in r.inputs + r.outputs:
            if isinstance(self.meta.get(a.name), list):
                raise ValueError("the tuple of '%s' would cross the cut" % a.name)
        g = fx.Graph()
        env = {}
        info = []
        for a in r.inputs:
            p = g.placeholder(a.name)
            p.meta = dict(a.meta)
            env[a] = p
            ent = pdoc.get(a.name) or {}
            # a SymInt computed before the run is a SymInt input of it
            # (npucc binds its symbol, or specializes it, by its value)
            kind = "symint" if _scalar_sym(self.meta.get(a.name)) else "input"
            info.append({"kind": ent.get("kind") or kind,
                         "source": ent.get("source")})
        for a in self.attrs:
            if a in attrs:
                env[a] = g.node_copy(a, lambda x: env[x])
        for n in r.nodes:
            env[n] = g.node_copy(n, lambda x: env[x])
        g.output(tuple(env[o] for o in r.outputs))
        sub = fx.GraphModule(gm, g)
        kind = self.parent.doc["graph_kind"]
        doc = fxjson.graph_to_dict(sub, name, kind, placeholders=info)
        for ent in doc["nodes"]:
            if ent["op"] != "output" and self.meta.get(ent["name"]) is not None:
                ent["meta"] = self.meta[ent["name"]]
        doc["producer"] = self.parent.doc.get("producer", doc["producer"])
        r.npu = graph_mod.NpuGraph(sub, doc, self.parent.opts, self.parent.session,
                                   [a.name for a in r.inputs if a.name in frozen])

    def describe(self):
        ops = lambda c: ", ".join("%s x%d" % kv for kv in sorted(c.items()))
        text = ("%d node(s) npucc does not know or whose size comes from data "
                "run in PyTorch between %d npusim "
                "graph(s): %s" % (sum(self.targets.values()), self.nruns,
                                  ops(self.targets)))
        if self.scalar:
            text += "; and %d on scalars: %s" % (sum(self.scalar.values()),
                                                 ops(self.scalar))
        if self.parent.cond_why:
            text += " (not predicated: %s)" % self.parent.cond_why
        return text

    def run(self, args, call):
        """The graph's outputs (a list) for args, as the whole graph
        would return them; counts the host nodes into `call`."""
        env = dict(zip(self.placeholders, args))
        for a in self.host_attrs:
            env[a] = fxjson.attr(self.parent.gm, a.target)
        call.host_ops = collections.Counter()
        call.host_bytes = 0
        for s, drop in zip(self.steps, self.drop):
            if isinstance(s, _Run):
                outs = s.npu(*[env[a] for a in s.inputs])
                env.update(zip(s.outputs, outs))
            else:
                a, kw = fx.node.map_arg((s.args, s.kwargs), lambda x: env[x])
                with self.parent.grad_mode():
                    env[s] = s.target(*a, **kw)
                if s in self.unknown:
                    call.host_ops[fxjson.target_name(s)] += 1
                    call.host_bytes += _nbytes((a, kw)) + _nbytes(env[s])
            for a in drop:
                del env[a]
        out = fx.node.map_arg(self.out.args[0], lambda x: env[x])
        return list(out) if isinstance(out, (list, tuple)) else [out]
