"""torch.cond by predication, for npucc, which has no control flow.

An aot graph keeps `torch.cond(pred, true_fn, false_fn, operands)` as one
node, `torch.ops.higher_order.cond`, whose branches are GraphModules
reached by `get_attr`; the exporter writes their nodes under the
`get_attr` entry (`graph`, docs/fx-format.md).  `lower(doc)` rewrites
each such node into both branches' nodes, inlined (named
`<cond>_t_<node>` and `<cond>_f_<node>`, their constants reached through
the branch: `true_graph_0.<target>`), and one `aten.where.self(pred, t,
f)` per result, which the `getitem`s of the cond's results become.  The
program computes both branches and keeps one, so a graph with a cond
runs whole on the NPU.  That is sound because a cond's branches are
functional (torch.cond refuses mutation and differing result shapes),
and where() keeps the chosen branch's values bit for bit, NaN and Inf
included; it costs the other branch's time.

A predicate that is a constant picks its branch; a cond inside a branch
is predicated within it first.  A predicate that is not a tensor of one
element (a SymBool of a dynamic size), or a result used other than
through getitem raise Unsupported,
and the frontend leaves the cond to PyTorch between compiled parts
(npusim.partition).
"""

import copy

from .fxjson import refs, subst


class Unsupported(ValueError):
    pass


def _is_cond(ent):
    t = ent.get("target") or ""
    return ent["op"] == "call_function" and t.split(".")[-1] == "cond" and \
        "higher_order" in t


def has_cond(doc):
    return any(_is_cond(n) for n in doc["nodes"])


class _Rewriter:
    def __init__(self, doc):
        self.doc = doc
        self.ents = {n["name"]: n for n in doc["nodes"]}
        self.names = set(self.ents)
        self.out = []
        self.env = {}           # a getitem of a cond -> the value it is now
        self.results = {}       # cond -> its results' values

    def unique(self, base):
        name, i = base, 1
        while name in self.names:
            name, i = "%s_%d" % (base, i), i + 1
        self.names.add(name)
        return name

    def inline(self, cond, branch, operands, tag):
        """Appends the branch's nodes; returns its results' values."""
        ent = self.ents[branch["node"]]
        nodes = ent.get("graph")
        if nodes is None:
            raise Unsupported("cond %s: branch %s has no graph" % (cond["name"], ent["name"]))
        if has_cond({"nodes": nodes}):
            # a cond in the branch: predicated first, within the branch
            # (its branches' constants are then reached through this one's)
            nodes = _Rewriter({"nodes": nodes}).run()["nodes"]
        phs = [n for n in nodes if n["op"] == "placeholder"]
        if len(phs) != len(operands):
            raise Unsupported("cond %s: %d operands for %d placeholders"
                              % (cond["name"], len(operands), len(phs)))
        local = {p["name"]: o for p, o in zip(phs, operands)}
        for n in nodes:
            if n["op"] == "placeholder":
                continue
            if n["op"] == "output":
                return [subst(v, local) for v in n["args"][0]]
            if _is_cond(n) or n["op"] not in ("call_function", "get_attr") or "graph" in n:
                raise Unsupported("cond %s: a branch holds %s %s"
                                  % (cond["name"], n["op"], n["target"]))
            new = copy.deepcopy(n)
            new["name"] = self.unique("%s_%s_%s" % (cond["name"], tag, n["name"]))
            if n["op"] == "get_attr":
                new["target"] = "%s.%s" % (ent["target"], n["target"])
            new["args"] = subst(n["args"], local)
            new["kwargs"] = subst(n["kwargs"], local)
            local[n["name"]] = {"node": new["name"]}
            self.out.append(new)
        raise Unsupported("cond %s: a branch without an output" % cond["name"])

    def cond(self, ent):
        args = ent["args"]
        if len(args) != 4 or ent.get("kwargs") or not isinstance(args[3], list):
            raise Unsupported("cond %s: unexpected arguments" % ent["name"])
        pred, tb, fb, operands = args
        pred = subst(pred, self.env)
        tv = self.inline(ent, tb, subst(operands, self.env), "t")
        fv = self.inline(ent, fb, subst(operands, self.env), "f")
        if isinstance(pred, bool):
            self.results[ent["name"]] = tv if pred else fv
            return
        pm = self.ents.get(pred.get("node")) if isinstance(pred, dict) else None
        meta = (pm or {}).get("meta")
        if not isinstance(meta, dict) or "shape" not in meta or \
                any(not isinstance(d, int) or d != 1 for d in meta["shape"]):
            raise Unsupported("cond %s: its predicate is not a tensor of one "
                              "element" % ent["name"])
        metas = ent.get("meta")
        if not isinstance(metas, list) or len(metas) != len(tv) or len(tv) != len(fv):
            raise Unsupported("cond %s: results and meta differ" % ent["name"])
        vals = []
        for i, (a, b) in enumerate(zip(tv, fv)):
            name = self.unique("%s_sel%d" % (ent["name"], i))
            sel = {"name": name, "op": "call_function", "target": "aten.where.self",
                   "args": [pred, a, b], "kwargs": {}, "meta": metas[i]}
            if ent.get("provenance"):
                sel["provenance"] = ent["provenance"]
            self.out.append(sel)
            vals.append({"node": name})
        self.results[ent["name"]] = vals

    def run(self):
        for ent in self.doc["nodes"]:
            if _is_cond(ent):
                self.cond(ent)
                continue
            src = ent["args"][0] if ent["args"] else None
            if ent.get("target") == "_operator.getitem" and isinstance(src, dict) \
                    and src.get("node") in self.results:
                self.env[ent["name"]] = self.results[src["node"]][ent["args"][1]]
                continue
            if any(r in self.results for r in refs([ent["args"], ent["kwargs"]])):
                raise Unsupported("%s uses a cond's results other than by getitem"
                                  % ent["name"])
            new = dict(ent)
            new["args"] = subst(ent["args"], self.env)
            new["kwargs"] = subst(ent["kwargs"], self.env)
            self.out.append(new)
        used = set(refs([[n["args"], n["kwargs"]] for n in self.out]))
        doc = dict(self.doc)
        # the branches' get_attr entries, now unread
        doc["nodes"] = [n for n in self.out
                        if not (n["op"] == "get_attr" and "graph" in n and n["name"] not in used)]
        return doc


def lower(doc):
    """doc with every torch.cond predicated (a new document; doc itself
    is left as it is); doc itself when it has none."""
    if not has_cond(doc):
        return doc
    try:
        return _Rewriter(doc).run()
    except Unsupported:
        raise
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as ex:
        raise Unsupported("torch.cond: %s: %s" % (type(ex).__name__, ex))
