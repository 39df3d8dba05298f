"""The runtime side: compile cache, the runner (with fake npucc/npusim, so
the plumbing is tested whatever the compiler can do), the accounting
report and its trace-database tables, and end to end with the real tools
once npucc compiles graphs."""

import json
import os
import sqlite3
import subprocess
import unittest

import torch

import helpers
import models
from npusim import cache, export, fxjson, graph, st, tools
from npusim.report import Session


class CacheTest(unittest.TestCase):
    def test_key_parts(self):
        with open(helpers.data("fx", "bias_relu", "inference2.json")) as f:
            doc = json.load(f)
        base = cache.make_key(fxjson.canonical_text(doc), "w", "t", "v1", {"a": 1})[0]
        self.assertEqual(base, cache.make_key(fxjson.canonical_text(doc), "w", "t", "v1",
                                              {"a": 1})[0])
        for other in (("w2", "t", "v1", {"a": 1}), ("w", "t2", "v1", {"a": 1}),
                      ("w", "t", "v2", {"a": 1}), ("w", "t", "v1", {"a": 2})):
            self.assertNotEqual(base, cache.make_key(fxjson.canonical_text(doc), *other)[0])
        # Provenance and the graph's name are not part of the program.
        d2 = json.loads(json.dumps(doc))
        d2["name"] = "elsewhere/inference9"
        for n in d2["nodes"]:
            n.pop("provenance", None)
        self.assertEqual(fxjson.canonical_text(doc), fxjson.canonical_text(d2))
        d2["nodes"][-2]["target"] = "aten.sigmoid.default"
        self.assertNotEqual(fxjson.canonical_text(doc), fxjson.canonical_text(d2))

    def test_weights_hash(self):
        a = {"w": torch.ones(4)}
        self.assertEqual(cache.weights_hash(a), cache.weights_hash({"w": torch.ones(4)}))
        self.assertNotEqual(cache.weights_hash(a), cache.weights_hash({"w": torch.ones(2, 2)}))
        self.assertNotEqual(cache.weights_hash(a), cache.weights_hash({"v": torch.ones(4)}))
        b = torch.ones(4)
        b[2] = 1.5
        self.assertNotEqual(cache.weights_hash(a), cache.weights_hash({"w": b}))

    def test_put_get_and_corruption(self):
        d = helpers.tmpdir(self)
        c = cache.Cache(os.path.join(d, "c"))
        prog = os.path.join(d, "p.bin")
        with open(prog, "wb") as f:
            f.write(b"\x7fELF program bytes")
        key = "ab" * 32
        self.assertIsNone(c.get(key))
        p = c.put(key, prog, {"x": 1})
        self.assertEqual(c.get(key), p)
        with open(p, "rb") as f:
            self.assertEqual(f.read(), b"\x7fELF program bytes")
        self.assertFalse([x for x in os.listdir(os.path.dirname(p)) if x.startswith(".tmp")])
        # A flipped byte, a truncated program, a bad .json: each a miss,
        # and the entry is gone afterwards.
        for damage in ("flip", "truncate", "json", "otherkey"):
            c.put(key, prog)
            if damage == "flip":
                with open(p, "r+b") as f:
                    f.seek(3)
                    f.write(b"X")
            elif damage == "truncate":
                with open(p, "r+b") as f:
                    f.truncate(5)
            elif damage == "json":
                with open(p[:-4] + ".json", "w") as f:
                    f.write("{not json")
            else:
                with open(p[:-4] + ".json") as f:
                    info = json.load(f)
                info["key"] = "cd" * 32
                with open(p[:-4] + ".json", "w") as f:
                    json.dump(info, f)
            before = c.corrupt
            self.assertIsNone(c.get(key), damage)
            self.assertEqual(c.corrupt, before + 1, damage)
            self.assertFalse(os.path.exists(p), damage)
        self.assertEqual(c.hits, 1)


class RunnerTest(unittest.TestCase):
    def setUp(self):
        self.d = helpers.tmpdir(self)
        self.env = helpers.fake_tools(self, self.d)
        export.session().reset()

    def expect(self, tensors):
        st.save(tensors, self.env["FAKE_OUTPUTS"])

    def test_outputs_mutation_cache_and_report(self):
        model, (x,) = models.counter()
        acc0 = model.acc.clone()
        new_acc = acc0 * 0.5 + x.mean(0)
        self.expect({"output.0": new_acc, "output.1": x * 2})
        cm = export.CompiledModule(model, [x])
        y = cm(x)
        self.assertTrue(torch.equal(y, x * 2))
        self.assertTrue(torch.equal(model.acc, new_acc), "mutated buffer copied back")
        # The inputs file: the mutated buffer and the input, by name (the
        # buffer is not frozen because it is mutated).
        seen = st.load(self.env["FAKE_SEEN"])
        self.assertEqual(sorted(seen), ["arg0_1", "arg1_1"])
        self.assertTrue(torch.equal(seen["arg1_1"], x))
        self.assertEqual(len(helpers.log_lines(self.env, "npucc")), 1)
        cm(x)
        self.assertEqual(len(helpers.log_lines(self.env, "npucc")), 1, "compiled once")
        self.assertEqual(len(helpers.log_lines(self.env, "npusim")), 2)
        # The same graph in a new module: the compile cache answers.
        model2, _ = models.counter()
        cm2 = export.CompiledModule(model2, [x])
        cm2(x)
        self.assertEqual(len(helpers.log_lines(self.env, "npucc")), 1, "cache hit")
        rep = export.session().report()
        self.assertTrue(rep.ok, rep.text())
        d = rep.to_dict()
        self.assertEqual(d["graphs_captured"], 2)
        self.assertEqual(d["host_fallbacks"], 0)
        self.assertEqual([g["status"] for g in d["graphs"]], ["compiled", "cached"])
        self.assertEqual(d["graphs"][0]["cycles"], [777, 777])
        self.assertIn("simulated cycles, all calls: 2331", rep.text())
        # the fake npusim's summary says one host call a run
        self.assertEqual(d["graphs"][0]["host_calls"], [1, 1])
        self.assertIn("host calls inside the programs, all calls: 3", rep.text())

    def test_frozen_weights_and_strides(self):
        model, (x,) = models.rmsnorm_mlp()
        with torch.no_grad():
            want = model(x)
        self.expect({"output.0": want})
        cm = export.CompiledModule(model, [x], target="npu-base", keep=self.d + "/keep")
        self.assertTrue(torch.equal(cm(x), want))
        seen = st.load(self.env["FAKE_SEEN"])
        self.assertEqual(list(seen), [n["name"] for n in cm.cap.doc["nodes"]
                                      if n.get("kind") == "input"])
        args = helpers.log_lines(self.env, "npucc")[0].split()
        self.assertIn("--weights", args)
        self.assertEqual(args[args.index("--target") + 1], "npu-base")
        w = st.load(args[args.index("--weights") + 1])
        self.assertEqual(len(w), 5)     # the norm's weight, two linears' weight and bias
        self.assertTrue(os.path.exists(self.d + "/keep/RMSNormMLP_inference1/graph.json"))
        # Changing a parameter in place recompiles with the new weights.
        with torch.no_grad():
            model.fc1.bias.add_(1)
        cm(x)
        self.assertEqual(len(helpers.log_lines(self.env, "npucc")), 2)
        # Another input shape: a recompilation, with the reason.
        self.expect({"output.0": torch.zeros(3, 64)})
        cm(torch.randn(3, 64))
        rep = export.session().report()
        self.assertEqual(len(rep.recompiles), 1)
        self.assertIn("input", rep.recompiles[0][1])
        self.assertIn("recompiled", rep.text())

    def test_output_strides_follow_meta(self):
        doc = {"nodes": [{"name": "t", "op": "call_function", "meta": {
            "shape": [3, 2], "dtype": "float32", "stride": [1, 3], "storage_offset": 0}}]}
        out = graph._restride(torch.arange(6.).reshape(3, 2), doc["nodes"][0])
        self.assertEqual(out.stride(), (1, 3))
        self.assertTrue(torch.equal(out, torch.arange(6.).reshape(3, 2)))
        with self.assertRaises(ValueError):
            graph._restride(torch.zeros(7), doc["nodes"][0])

    def test_symbolic_strides_and_offset(self):
        """A dynamic graph's output gets its meta's strides at the call's
        sizes, and any output its storage offset: aot's runtime may rebuild
        an output aliasing an input from them (timm's Sequencer)."""
        node = {"name": "v", "op": "call_function", "meta": {
            "shape": [{"sym": "s0"}, 3], "dtype": "float32",
            "stride": [1, {"sym": "s0"}], "storage_offset": 0}}
        t = torch.arange(12.).reshape(4, 3)
        out = graph._restride(t, node, {"s0": 4})
        self.assertEqual(out.stride(), (1, 4))
        self.assertTrue(torch.equal(out, t))
        self.assertEqual(graph._restride(t, node, {}).stride(), (3, 1))  # unknown: as is
        node = {"name": "w", "op": "call_function", "meta": {
            "shape": [2, 3], "dtype": "float32", "stride": [3, 1], "storage_offset": 2}}
        out = graph._restride(torch.arange(6.).reshape(2, 3), node)
        self.assertEqual((out.stride(), out.storage_offset()), ((3, 1), 2))
        self.assertTrue(torch.equal(out, torch.arange(6.).reshape(2, 3)))

    def test_expanded_output_is_expanded(self):
        # an expanded result (stride 0, BERT's attention mask saved for
        # the backward): its elements share storage, which copy_ refuses
        # to write into; autograd then writes into it no more than eager's
        node = {"name": "m", "op": "call_function", "meta": {
            "shape": [2, 3, 4], "dtype": "float32", "stride": [4, 0, 1],
            "storage_offset": 0}}
        want = torch.arange(8.).reshape(2, 1, 4).expand(2, 3, 4)
        out = graph._restride(want.contiguous(), node)
        self.assertEqual(out.stride(), (4, 0, 1))
        self.assertTrue(torch.equal(out, want))
        self.assertTrue(graph._overlaps([2, 3], [1, 1]))
        self.assertFalse(graph._overlaps([2, 3], [1, 2]))
        self.assertFalse(graph._overlaps([3, 1], [1, 0]))

    def test_fallback_is_a_reported_failure(self):
        helpers.setenv(self, {"FAKE_NPUCC_FAIL": "1"})
        model, (x,) = models.conv_bn()
        with torch.no_grad():
            want = model(x)
        cm = export.CompiledModule(model, [x])
        self.assertTrue(torch.allclose(cm(x), want, atol=1e-6))
        rep = export.session().report()
        self.assertFalse(rep.ok)
        self.assertEqual(rep.to_dict()["host_fallbacks"], 1)
        self.assertIn("FAILED", rep.text())
        self.assertIn("no lowering for aten.foo.default", rep.text())
        cm2 = export.CompiledModule(model, [x], fallback="error")
        with self.assertRaises(tools.ToolError):
            cm2(x)

    def test_fault_falls_back(self):
        helpers.setenv(self, {"FAKE_NPUSIM_FAULT": "1"})
        model, (x,) = models.counter()
        acc0 = model.acc.clone()
        cm = export.CompiledModule(model, [x])
        self.assertTrue(torch.equal(cm(x), x * 2))
        self.assertTrue(torch.allclose(model.acc, acc0 * 0.5 + x.mean(0)))
        rep = export.session().report()
        self.assertFalse(rep.ok)
        self.assertIn("fault at cycle 12", rep.text())

    def test_check_races(self):
        model, (x,) = models.counter()
        self.expect({"output.0": model.acc * 0.5 + x.mean(0), "output.1": x * 2})
        helpers.setenv(self, {"NPUSIM_CHECK_RACES": "1"})
        export.CompiledModule(model, [x])(x)
        runs = helpers.log_lines(self.env, "npusim")
        self.assertEqual(len(runs), 1)
        self.assertIn("--check-races", runs[0].split())
        helpers.setenv(self, {"NPUSIM_CHECK_RACES": "0"})
        self.assertFalse(graph.options()["check_races"])
        self.assertTrue(graph.options({"check_races": True})["check_races"])

    def test_symeval(self):
        ev = graph.symeval
        self.assertEqual(ev("-s78", {"s78": 3}), -3)
        self.assertEqual(ev("s11*s66*s78", {"s11": 4, "s66": 2, "s78": 3}), 24)
        self.assertEqual(ev("(((s24 - 1)//2)) + 1", {"s24": 8}), 4)
        self.assertEqual(ev("-7//2 + s0 % 3", {"s0": -1}), -4 + 2)  # floor, as Python
        self.assertEqual(ev("s0**2", {"s0": 5}), 25)
        self.assertEqual(ev("s20*Max(1, ((s90 + 1)//2))", {"s20": 3, "s90": 0}), 3)
        self.assertEqual(ev("Min(s0, 2, 7) + Max(s0)", {"s0": 5}), 7)
        # SymFloats, as F.interpolate's scales over symbolic sizes
        self.assertEqual(ev("IntTrueDiv(30, Max(1, s2))", {"s2": 4}), 7.5)
        self.assertEqual(ev("ToFloat(s0)/2 + 0.25", {"s0": 3}), 1.75)
        self.assertEqual(ev("FloorToInt(s0/2) + ceiling(s0/2)", {"s0": 3}), 3)
        for bad in ("s1", "__import__('os')", "s0 // 0", "s0 / 0", "s0**-1",
                    "(", "s0.real", "Max()", "IntTrueDiv(30)", "sqrt(s0)",
                    "max(s0, 1)", "Max(s0, key=1)", "'a'"):
            with self.assertRaises(ValueError, msg=bad):
                ev(bad, {"s0": 3})

    def test_options(self):
        self.assertEqual(graph.options({"trace": "x.db"})["trace"], "x.db")
        with self.assertRaises(ValueError):
            graph.options({"tagret": "x"})
        helpers.setenv(self, {"NPUSIM_TARGET": "npu-edge"})
        self.assertEqual(graph.options()["target"], "npu-edge")
        self.assertEqual(tools.parse_summary(
            "p.bin on npu-base: 123 cycles, 0.1 us\nDMA transfers: 2; host calls: 4\n"),
            (123, 4))


class ReportTest(unittest.TestCase):
    """What Dynamo leaves to eager counts against the report."""

    def test_unsupported_operator_break_fails(self):
        s = Session()
        s.graph_break("Graph break: print() is not traceable")
        self.assertTrue(s.report().ok)
        s.graph_break("Operator does not support running with fake tensors\n"
                      "  Explanation: \n\n"
                      "  Developer debug context: unsupported operator: "
                      "aten._transformer_encoder_layer_fwd.default\n")
        r = s.report()
        self.assertFalse(r.ok)
        s2 = Session()
        s2.graph_break("Attempted to wrap RNN, GRU, or LSTM\n  Explanation: ...\n")
        self.assertFalse(s2.report().ok)       # the LSTM ran eagerly
        self.assertIn("FAILED: graph break x1: Operator does not support running with "
                      "fake tensors: unsupported operator: "
                      "aten._transformer_encoder_layer_fwd.default", r.text())

    def test_frames_left_to_eager_fail(self):
        import importlib
        report = importlib.import_module("npusim.report")  # (npusim.report is a function)
        unimpl = ("Attempted to wrap RNN, GRU, or LSTM\n  Explanation: no\n"
                  "  Hint: Set torch._dynamo.config.allow_rnn=True to enable it\n")
        counts = [{"frames": {"total": 2, "ok": 2}},
                  {"frames": {"total": 3, "ok": 2}, "unimplemented": {unimpl: 1}}]
        real = report._dynamo_counters
        report._dynamo_counters = lambda: counts[0]
        try:
            s = Session()            # counts from here on, as from import
            self.assertTrue(s.report().ok)
            counts[0] = counts[1]
            r = s.report()
        finally:
            report._dynamo_counters = real
        self.assertFalse(r.ok)
        self.assertIn("FAILED: ran eagerly x1: frames Dynamo could not compile "
                      "(Attempted to wrap RNN, GRU, or LSTM: Set "
                      "torch._dynamo.config.allow_rnn=True to enable it)", r.text())


class ComplexTest(unittest.TestCase):
    """Complex values as pairs of reals, and what is refused."""

    @staticmethod
    def doc(target, out="y"):
        c = {"shape": [3, 4], "dtype": "complex64", "stride": [4, 1], "storage_offset": 0}
        return {"name": "t/inference1", "graph_kind": "inference", "nodes": [
            {"name": "x", "op": "placeholder", "target": "x", "args": [], "kwargs": {},
             "meta": c},
            {"name": "y", "op": "call_function", "target": target,
             "args": [{"node": "x"}], "kwargs": {},
             "meta": c if "as_real" not in target else
             {"shape": [3, 4, 2], "dtype": "float32", "stride": [8, 2, 1],
              "storage_offset": 0}},
            {"name": "output", "op": "output", "target": "output",
             "args": [[{"node": out}]], "kwargs": {}}]}

    def test_pairs_and_refusals(self):
        from npusim import complexes
        d = complexes.lower(self.doc("aten.view_as_real.default"))
        self.assertEqual(d["nodes"][0]["meta"]["shape"], [3, 4, 2])
        self.assertEqual(d["nodes"][0]["meta"]["stride"], [8, 2, 1])
        self.assertEqual(d["nodes"][0]["meta"]["dtype"], "float32")
        self.assertEqual(d["nodes"][1]["target"], "aten.alias.default")
        with self.assertRaisesRegex(complexes.Unsupported, "aten.exp.default"):
            complexes.lower(self.doc("aten.exp.default"))
        with self.assertRaisesRegex(complexes.Unsupported, "a complex output"):
            complexes.lower(self.doc("aten.clone.default"))
        sym = self.doc("aten.view_as_real.default")
        sym["nodes"][0]["meta"]["stride"] = [{"sym": "s0"}, 1]
        with self.assertRaisesRegex(complexes.Unsupported, "TypeError"):
            complexes.lower(sym)
        real = self.doc("aten.relu.default")
        for n in real["nodes"][:2]:
            n["meta"]["dtype"] = "float32"
        self.assertIs(complexes.lower(real), real)


def _meta(shape, dtype="float32"):
    st_, acc = [], 1
    for d in reversed(shape):
        st_.insert(0, acc)
        acc *= d
    return {"shape": list(shape), "dtype": dtype, "stride": st_, "storage_offset": 0}


def cond_doc(pred_shape=()):
    """The graph an aot capture of models.CondBranches gives on PyTorch
    2.11 (torch.cond between two linear layers), in fxgraph form: the
    cond node, its branches under their get_attr entries."""
    def n(name, target, args, meta, op="call_function"):
        return {"name": name, "op": op, "target": target, "args": args,
                "kwargs": {}, "meta": meta}

    def ph(name, meta, kind="input"):
        e = n(name, name, [], meta, "placeholder")
        e["kind"] = kind
        return e

    r = lambda x: {"node": x}
    y = _meta([8, 16])
    branch = lambda ops: [ph("arg0_1", y)] + ops + [
        {"name": "output", "op": "output", "target": "output",
         "args": [[r(ops[-1]["name"])]], "kwargs": {}}]
    true_g = branch([n("relu", "aten.relu.default", [r("arg0_1")], y),
                     n("mul", "aten.mul.Tensor", [r("relu"), 2], y)])
    false_g = branch([n("sigmoid", "aten.sigmoid.default", [r("arg0_1")], y)])
    tg = n("true_graph_0", "true_graph_0", [], None, "get_attr")
    tg["graph"] = true_g
    fg = n("false_graph_0", "false_graph_0", [], None, "get_attr")
    fg["graph"] = false_g
    return {"format": "fxgraph", "version": 1, "name": "cond/inference1",
            "producer": {"torch": "test"}, "graph_kind": "inference", "nodes": [
                ph("w1", _meta([16, 16]), "parameter"), ph("b1", _meta([16]), "parameter"),
                ph("w2", _meta([16, 16]), "parameter"), ph("b2", _meta([16]), "parameter"),
                ph("x", y),
                n("t", "aten.t.default", [r("w1")], _meta([16, 16])),
                n("addmm", "aten.addmm.default", [r("b1"), r("x"), r("t")], y),
                n("sum_1", "aten.sum.default", [r("addmm")], _meta([])),
                n("gt", "aten.gt.Scalar", [r("sum_1"), 0], _meta(pred_shape, "bool")),
                tg, fg,
                n("cond", "torch.ops.higher_order.cond",
                  [r("gt"), r("true_graph_0"), r("false_graph_0"), [r("addmm")]], [y]),
                n("getitem", "_operator.getitem", [r("cond"), 0], y),
                n("t_1", "aten.t.default", [r("w2")], _meta([16, 16])),
                n("addmm_1", "aten.addmm.default", [r("b2"), r("getitem"), r("t_1")], y),
                {"name": "output", "op": "output", "target": "output",
                 "args": [[r("addmm_1")]], "kwargs": {}}]}


def nested_cond_doc():
    """cond_doc with a cond inside its true branch: relu(y) * 2 when
    max(y) > 1, else -y."""
    doc = cond_doc()
    r = lambda x: {"node": x}
    y = _meta([8, 16])
    tg = [e for e in doc["nodes"] if e["name"] == "true_graph_0"][0]

    def n(name, target, args, meta, op="call_function"):
        return {"name": name, "op": op, "target": target, "args": args,
                "kwargs": {}, "meta": meta}

    inner_t = n("true_graph_0", "true_graph_0", [], None, "get_attr")
    inner_t["graph"] = tg["graph"]
    inner_f = n("false_graph_0", "false_graph_0", [], None, "get_attr")
    inner_f["graph"] = [dict(tg["graph"][0]),
                        n("neg", "aten.neg.default", [r("arg0_1")], y),
                        {"name": "output", "op": "output", "target": "output",
                         "args": [[r("neg")]], "kwargs": {}}]
    tg["graph"] = [dict(tg["graph"][0]),
                   n("max_1", "aten.amax.default", [r("arg0_1"), [0, 1]], _meta([])),
                   n("gt_1", "aten.gt.Scalar", [r("max_1"), 1], _meta([], "bool")),
                   inner_t, inner_f,
                   n("cond", "torch.ops.higher_order.cond",
                     [r("gt_1"), r("true_graph_0"), r("false_graph_0"), [r("arg0_1")]], [y]),
                   n("getitem", "_operator.getitem", [r("cond"), 0], y),
                   {"name": "output", "op": "output", "target": "output",
                    "args": [[r("getitem")]], "kwargs": {}}]
    return doc


class CondTest(unittest.TestCase):
    """torch.cond by predication (npusim.conds)."""

    def npu_graph(self, doc, params):
        """doc as an NpuGraph on the real tools, params frozen, with no
        eager fallback (an error instead); the test skips while npucc
        compiles nothing."""
        ok, why = _npucc_works()
        if not ok:
            self.skipTest("npucc cannot compile yet: %s" % why)
        export.session().reset()
        gm = torch.fx.GraphModule(torch.nn.Module(), torch.fx.Graph())
        return graph.NpuGraph(gm, doc, graph.options(
            {"target": "npu-base", "fallback": "error",
             "cache_dir": helpers.tmpdir(self)}), export.session(), params)

    def test_nested(self):
        from npusim import conds
        d = conds.lower(nested_cond_doc())
        names = [e["name"] for e in d["nodes"]]
        self.assertIn("cond_t_cond_t_relu", names)
        self.assertIn("cond_t_cond_f_neg", names)
        self.assertEqual(len([e for e in d["nodes"] if e["target"] == "aten.where.self"]), 2)
        self.assertFalse([e for e in d["nodes"] if e["op"] == "get_attr"])
        npu = self.npu_graph(nested_cond_doc(), ["w1", "b1", "w2", "b2"])
        torch.manual_seed(13)
        w1, w2 = torch.randn(16, 16) / 4, torch.randn(16, 16) / 4
        b1, b2 = torch.rand(16) / 5, torch.randn(16) / 4   # (small x: sum > 0, max < 1)
        def path(x):
            y = x @ w1.t() + b1
            if y.sum() > 0:
                return ("tt", y.relu() * 2) if y.max() > 1 else ("tf", -y)
            return "f", y.sigmoid()

        inputs = {}                 # an input taking each of the three paths
        for i in range(400):
            x = torch.randn(8, 16) * (0.02 + i % 20 * 0.1) + (i % 7 - 3) * 0.2
            inputs.setdefault(path(x)[0], x)
        self.assertEqual(sorted(inputs), ["f", "tf", "tt"])
        for name, x in sorted(inputs.items()):
            got = npu(w1, b1, w2, b2, x)[0]
            want = path(x)[1] @ w2.t() + b2
            self.assertTrue(torch.allclose(got, want, atol=1e-5),
                            (name, (got - want).abs().max().item()))
        self.assertTrue(export.session().report().ok)

    def test_rewrite_and_refusals(self):
        from npusim import conds
        doc = cond_doc()
        d = conds.lower(doc)
        names = [e["name"] for e in d["nodes"]]
        self.assertNotIn("cond", names)
        self.assertNotIn("true_graph_0", names)      # unread now
        self.assertIn("cond_t_relu", names)
        self.assertIn("cond_f_sigmoid", names)
        sel = [e for e in d["nodes"] if e["target"] == "aten.where.self"]
        self.assertEqual(len(sel), 1)
        self.assertEqual(sel[0]["args"], [{"node": "gt"}, {"node": "cond_t_mul"},
                                          {"node": "cond_f_sigmoid"}])
        last = [e for e in d["nodes"] if e["name"] == "addmm_1"][0]
        self.assertEqual(last["args"][1], {"node": sel[0]["name"]})
        self.assertIn("cond", [e["name"] for e in doc["nodes"]])   # doc untouched
        with self.assertRaisesRegex(conds.Unsupported, "not a tensor of one element"):
            conds.lower(cond_doc(pred_shape=(2,)))
        nograph = cond_doc()
        del nograph["nodes"][9]["graph"]
        with self.assertRaisesRegex(conds.Unsupported, "has no graph"):
            conds.lower(nograph)
        const = cond_doc()
        const["nodes"][11]["args"][0] = False       # a predicate known when traced
        d = conds.lower(const)
        self.assertFalse([e for e in d["nodes"] if e["target"] == "aten.where.self"])
        last = [e for e in d["nodes"] if e["name"] == "addmm_1"][0]
        self.assertEqual(last["args"][1], {"node": "cond_f_sigmoid"})
        plain = ComplexTest.doc("aten.relu.default")
        self.assertIs(conds.lower(plain), plain)

    def test_captured_cond(self):
        """The graph PyTorch 2.11 captured of models.CondBranches
        (tests/data/frontend/cond_branches), predicated and run on
        npusim with the inputs that took each branch there, against
        eager's outputs there."""
        base = helpers.data("frontend", "cond_branches")
        with open(os.path.join(base, "inference2.json")) as f:
            doc = json.load(f)
        vals = st.load(os.path.join(base, "inference2.safetensors"))
        calls = st.load(os.path.join(base, "calls.safetensors"))
        npu = self.npu_graph(doc, ["arg0_1", "arg1_1", "arg3_1", "arg4_1"])
        for i in (0, 1):
            got = npu(vals["arg0_1"], vals["arg1_1"], calls["x.%d" % i],
                      vals["arg3_1"], vals["arg4_1"])[0]
            want = calls["want.%d" % i]
            self.assertTrue(torch.allclose(got, want, atol=1e-5),
                            (got - want).abs().max().item())
        self.assertTrue(torch.equal(calls["x.0"], vals["arg2_1"]))
        rep = export.session().report()
        self.assertTrue(rep.ok, rep.text())
        self.assertEqual(len(rep.graphs[0].cycles()), 2)

    def test_predicated_run(self):
        """Both branches on npusim, each prediction against eager."""
        npu = self.npu_graph(cond_doc(), ["w1", "b1", "w2", "b2"])
        torch.manual_seed(11)
        w1, w2 = torch.randn(16, 16) / 4, torch.randn(16, 16) / 4
        b1, b2 = torch.randn(16) / 4, torch.randn(16) / 4
        x = torch.randn(8, 16)

        def eager(x):
            y = x @ w1.t() + b1
            y = y.relu() * 2 if y.sum() > 0 else y.sigmoid()
            return y @ w2.t() + b2

        for sign in (1, -1):
            xs = sign * x
            got = npu(w1, b1, w2, b2, xs)[0]
            want = eager(xs)
            self.assertTrue(torch.allclose(got, want, atol=1e-5),
                            (got - want).abs().max().item())
        rep = export.session().report()
        self.assertTrue(rep.ok, rep.text())
        self.assertEqual(rep.graphs[0].status, "compiled")


class AttentionBackwardTest(unittest.TestCase):
    """export._sdpa_bwd_from_probs, what the eager run of a backward graph
    calls for attention's CPU backward given the probabilities, against
    autograd through the attention written out."""

    def test_matches_autograd(self):
        torch.manual_seed(0)
        for h, hk in ((4, 4), (4, 2)):
            q = torch.randn(2, h, 5, 8, dtype=torch.float64, requires_grad=True)
            k = torch.randn(2, hk, 7, 8, dtype=torch.float64, requires_grad=True)
            v = torch.randn(2, hk, 7, 6, dtype=torch.float64, requires_grad=True)
            mask = torch.zeros(2, 1, 5, 7, dtype=torch.float64)
            mask[1, :, :, 5:] = float("-inf")
            kk, vv = k.repeat_interleave(h // hk, 1), v.repeat_interleave(h // hk, 1)
            p = torch.softmax(q @ kk.transpose(-2, -1) * 0.3 + mask, -1)
            o = p @ vv
            go = torch.randn_like(o)
            o.backward(go)
            got = export._sdpa_bwd_from_probs(go, q.detach(), k.detach(), v.detach(),
                                              o.detach(), p.detach(), 0.0, False,
                                              attn_mask=mask, scale=0.3)
            for g, want in zip(got, (q.grad, k.grad, v.grad)):
                self.assertEqual(g.shape, want.shape)
                self.assertLess((g - want).abs().max().item(), 1e-12)
                # the CPU kernel's layout: [B, L, H, E] transposed
                self.assertEqual(g.stride()[2], g.shape[1] * g.shape[3])


class TraceDbTest(unittest.TestCase):
    def test_frontend_tables(self):
        npusim = helpers.real_tool("npusim")
        demo = helpers.data("asm", "demo.s")
        if not npusim or not os.path.exists(demo):
            self.skipTest("needs the build's npusim")
        d = helpers.tmpdir(self)
        db = os.path.join(d, "trace.db")
        prog = os.path.join(d, "demo.bin")
        s = Session()
        g = s.new_graph("m/inference1", "inference", 5)
        # Not an npusim trace yet: refused, and the file is left alone.
        with self.assertRaises(ValueError):
            s.write_db(db)
        subprocess.check_call([npusim, "asm", demo, "-o", prog])
        c = s.new_call(g)
        c.label = "npusim-frontend test call 1"
        c.cycles = 42
        g.status = "compiled"
        subprocess.check_call([npusim, "run", prog, "--target", "npu-base", "--quiet",
                               "--trace", db, "--label", c.label])
        s.graph_break("print() is not traceable")
        s.recompiled("frame 0", "tensor 'x' size mismatch at index 0")
        sid = s.write_db(db)
        sid2 = s.write_db(db)      # rewriting replaces, never duplicates
        self.assertEqual(sid, sid2)
        con = sqlite3.connect(db)
        try:
            rows = con.execute(
                "SELECT g.name, g.status, c.seq, c.cycles, r.label, r.status "
                "FROM frontend_calls c JOIN frontend_graphs g ON g.id = c.graph_id "
                "JOIN runs r ON r.id = c.run_id").fetchall()
            self.assertEqual(rows, [("m/inference1", "compiled", 1, 42, c.label, "ok")])
            ev = con.execute("SELECT kind, detail, count FROM frontend_events "
                             "ORDER BY kind").fetchall()
            self.assertEqual([e[0] for e in ev], ["graph_break", "recompile"])
            self.assertEqual(con.execute("SELECT count(*) FROM frontend_sessions").fetchone(), (1,))
            # the frontend's tables leave npusim's schema version alone
            self.assertEqual(con.execute("PRAGMA user_version").fetchone(), (3,))
        finally:
            con.close()
        # npusim still accepts the database with the frontend's tables in it.
        subprocess.check_call([npusim, "run", prog, "--target", "npu-base", "--quiet",
                               "--trace", db])


def _npucc_works():
    """True once the build's npucc compiles a reference graph."""
    npucc = helpers.real_tool("npucc")
    if not npucc:
        return False, "no npucc"
    p = subprocess.run([npucc, helpers.data("fx", "bias_relu", "inference2.json"),
                        "-o", os.devnull], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = p.stderr.decode(errors="replace")
    if p.returncode != 0 and "not built yet" in err:
        return False, err.strip().splitlines()[-1]
    return True, ""


class EndToEndTest(unittest.TestCase):
    """Export, compile with the real npucc, run on the real npusim,
    compare with eager.  Skipped (with the reason) only while npucc is the
    placeholder that compiles nothing."""

    def setUp(self):
        ok, why = _npucc_works()
        if not ok:
            self.skipTest("npucc cannot compile yet: %s" % why)
        export.session().reset()
        tools._versions.clear()

    def run_model(self, factory, rtol=1e-4, atol=1e-4):
        model, inputs = factory()
        with torch.no_grad():
            want = model(*inputs)
        d = helpers.tmpdir(self)
        cm = export.CompiledModule(model, inputs, target="npu-base", fallback="error",
                                   trace=os.path.join(d, "t.db"), cache_dir=d + "/cache")
        got = cm(*inputs)
        self.assertEqual(got.shape, want.shape)
        self.assertEqual(got.dtype, want.dtype)
        err = (got - want).abs().max().item()
        self.assertTrue(torch.allclose(got, want, rtol=rtol, atol=atol),
                        "%s: max abs error %g" % (factory.__name__, err))
        rep = export.session().report()
        self.assertTrue(rep.ok, rep.text())
        cyc = rep.to_dict()["graphs"][0]["cycles"]
        self.assertTrue(cyc and cyc[0] > 0)
        print("\n%s: max abs error %.3g, %d cycles" % (factory.__name__, err, cyc[0]))

    def test_rmsnorm_mlp(self):
        self.run_model(models.rmsnorm_mlp)

    def test_conv_bn(self):
        self.run_model(models.conv_bn)

    def test_attention(self):
        self.run_model(models.attention)

    def test_fused_attention_fast_paths(self):
        self.run_model(models.encoder)

    def test_weight_norm_dilated_conv1d(self):
        self.run_model(models.tcn)

    def test_complex_rotary_embedding(self):
        """Complex values run as pairs of reals (npusim.complexes)."""
        self.run_model(models.complex_rope)

    def test_complex_parts(self):
        """real, imag, abs and conj of complex values, as pairs."""
        self.run_model(models.complex_parts)

    def test_fft_complex_left_to_npucc(self):
        """FFTs' complex values are not the frontend's to lower."""
        self.run_model(models.fourier_mix)

    def test_dynamic_graph_compiled_per_size(self):
        """bert_tiny_dyn (torch.compile(dynamic=True) of a BERT): its
        sequence length is a slice bound, which a dynamic program cannot
        take, so the graph is compiled static at each call's sizes."""
        with open(helpers.data("fx", "bert_tiny_dyn", "inference2.json")) as f:
            doc = json.load(f)
        vals = st.load(helpers.data("fx", "bert_tiny_dyn", "inference2.safetensors"))
        ph = [n for n in doc["nodes"] if n["op"] == "placeholder"]
        syms = {}
        for n in ph:
            for d, x in enumerate(n["meta"].get("shape") or []):
                if isinstance(x, dict):
                    syms[x["sym"]] = vals[n["name"]].shape[d]

        def args_at(batch):
            out = []
            for n in ph:
                sym = (n["meta"].get("scalar") or {}).get("sym")
                if sym:
                    out.append(batch if sym == "s31" else int(syms[sym]))
                elif n.get("kind") == "input" and n["meta"]["shape"]:
                    out.append(vals[n["name"]][:batch])
                else:
                    out.append(vals[n["name"]])
            return out

        class Consts:
            _tensor_constant0 = vals["attr._tensor_constant0"]
        d = helpers.tmpdir(self)
        frozen = [n["name"] for n in ph if n.get("kind") in ("parameter", "buffer")]
        g = graph.NpuGraph(Consts(), doc, graph.options(
            {"target": "npu-base", "fallback": "error", "cache_dir": d}),
            export.session(), frozen)
        want = vals["output.0"]
        got = g(*args_at(2))[0]
        self.assertTrue(torch.allclose(got, want, rtol=1e-4, atol=1e-4))
        self.assertEqual(g.sizes, "s31=2,s64=16")
        self.assertIn("compiled static per size set", g.record.reason)
        self.assertIn("SymInt", g.record.reason)
        one = g(*args_at(1))[0]
        self.assertEqual(g.sizes, "s31=1,s64=16")
        self.assertEqual(one.shape, (1,) + tuple(want.shape[1:]))
        self.assertTrue(torch.allclose(one, want[:1], rtol=1e-4, atol=1e-4))
        self.assertEqual(g.record.status, "compiled")

    def test_computed_symint_output(self):
        """Funnel's relative positions (PyTorch 2.11, dynamic after a
        recompile): SymInts used as values make the graph static per size
        set, and one output, -s78, is a SymInt computed, which the
        frontend evaluates at the call's sizes."""
        with open(helpers.data("dyn", "funnel_symout.json")) as f:
            doc = json.load(f)
        d = helpers.tmpdir(self)
        g = graph.NpuGraph(torch.nn.Module(), doc, graph.options(
            {"target": "npu-base", "fallback": "error", "cache_dir": d}),
            export.session(), [])
        x = torch.tensor([1.5, -2.0, 0.25, 4.0])
        add, sub2, neg = g(4, x, 2, 3)
        self.assertIn("compiled static per size set", g.record.reason)
        self.assertEqual(float(add), 24.0)          # x[0] - x[0] + 4*2*3
        self.assertEqual(float(sub2), 1.5 - 4.0 - 1)
        self.assertEqual(neg, -3)
        self.assertIs(type(neg), int)
        add, sub2, neg = g(2, x[:2], 5, 7)
        self.assertEqual(float(add), 70.0)
        self.assertEqual(float(sub2), 1.5 + 2.0 - 1)
        self.assertEqual(neg, -7)

    def test_mutated_buffer_copied_back(self):
        model, (x,) = models.counter()
        want_acc = model.acc * 0.5 + x.mean(0)
        d = helpers.tmpdir(self)
        cm = export.CompiledModule(model, [x], target="npu-base", fallback="error",
                                   cache_dir=d)
        self.assertTrue(torch.allclose(cm(x), x * 2))
        self.assertTrue(torch.allclose(model.acc, want_acc, atol=1e-6))
        self.assertTrue(export.session().report().ok)

    def test_symint_arithmetic_not_cut(self):
        """SymInt and SymFloat arithmetic npucc evaluates from its
        expression (operator.mul, torch.sym_max, operator.truediv,
        whatever the target) is no reason to cut a graph; a SymBool, a
        function npucc lacks and a tensor op it does not know are."""
        from npusim import partition

        def node(name, target, sym):
            return {"name": name, "op": "call_function", "target": target,
                    "args": [], "kwargs": {},
                    "meta": {"scalar": {"sym": sym}} if sym else {"shape": [4]}}
        doc = {"nodes": [
            node("mul", "_operator.mul", "17*s77"),
            node("smax", "torch.sym_max", "s20*Max(1, ((s90 + 1)//2))"),
            node("smin", "torch.sym_min", "Min(s0, s1)**2"),
            node("div", "_operator.truediv", "IntTrueDiv(30, Max(1, s2))"),
            node("half", "_operator.truediv", "s0/2"),
            node("ge", "_operator.ge", "s0 >= 2"),
            node("flt", "torch.sym_float", "ToFloat(s0)"),
            node("sq", "torch._sym_sqrt", "sqrt(ToFloat(s0))"),
            node("cust", "npusim_test.twice.default", None),
            node("add", "aten.add.Tensor", None)]}
        self.assertEqual(partition.unknown_nodes(doc), {
            "ge": "_operator.ge", "sq": "torch._sym_sqrt",
            "cust": "npusim_test.twice.default"})
        # the first node whose result names an unbacked size (u0) is
        # data-dependent, known or not; nodes after it that read u0 are not
        dd = {"nodes": [
            {"name": "x", "op": "placeholder", "meta": {"shape": [4, 8]}},
            node("gt", "aten.gt.Scalar", None),
            dict(node("index", "aten.index.Tensor", None), meta={"shape": [{"sym": "u0"}]}),
            node("size", "aten.sym_size.int", "u0"),
            node("twice", "_operator.mul", "2*u0"),
            node("item", "aten._local_scalar_dense.default", "u1")]}
        self.assertEqual(partition.unknown_nodes(dd), {
            "index": "aten.index.Tensor", "item": "aten._local_scalar_dense.default"})

    def test_part_given_its_symbols(self):
        """A part whose sizes name a symbol only in expressions (4*s53)
        is given the graph's SymInt placeholder of that symbol, so that
        its program can be specialized to every one of them."""
        import types
        from npusim import partition
        class Node:             # (fx nodes are hashed by identity)
            def __init__(self, name):
                self.name = name
        n = Node
        s53, s0, x, add, y = n("arg0_1"), n("arg1_1"), n("x"), n("add"), n("y")
        sp = types.SimpleNamespace(placeholders=[s53, s0, x], meta={
            "arg0_1": {"scalar": {"sym": "s53"}}, "arg1_1": {"scalar": {"sym": "s0"}},
            "x": {"shape": [{"sym": "s0"}, 4]},
            "y": {"shape": [{"sym": "4*s53"}]}, "add": {"shape": [{"sym": "4*s53"}]}})
        run = types.SimpleNamespace(nodes=[add], inputs=[y])
        self.assertEqual(partition.Split._symbol_inputs(sp, run), [s53])
        run = types.SimpleNamespace(nodes=[add], inputs=[y, s53])
        self.assertEqual(partition.Split._symbol_inputs(sp, run), [])

    def test_unknown_ops_partitioned(self):
        """Custom ops npucc has no entry for run in PyTorch between the
        graph's compiled parts: counted, and the report fails on them."""
        model, (x,) = models.custom_ops()
        acc0 = model.acc.clone()
        with torch.no_grad():
            want = model(x)
        want_acc = model.acc.clone()
        model.acc.copy_(acc0)
        d = helpers.tmpdir(self)
        cm = export.CompiledModule(model, [x], target="npu-base", cache_dir=d)
        got = cm(x)
        self.assertTrue(torch.allclose(got, want, atol=1e-5),
                        (got - want).abs().max().item())
        self.assertTrue(torch.allclose(model.acc, want_acc, atol=1e-5))
        rep = export.session().report()
        self.assertFalse(rep.ok)
        name = rep.graphs[0].name
        self.assertEqual(rep.host_ops, {name + ": npusim_test.softclip.default": 1,
                                        name + ": npusim_test.halves.default": 1})
        self.assertIn("FAILED: host op x1: %s: npusim_test.halves.default" % name,
                      rep.text())
        # softclip: [8, 32] in and out; halves: [8, 32] in, two [8, 16] out
        self.assertEqual(rep.host_bytes, {name: 4 * (8 * 32 * 2 + 8 * 32 + 2 * 8 * 16)})
        self.assertIn("%s: host ops read and wrote 4096 bytes" % name, rep.text())
        graphs = rep.to_dict()["graphs"]
        self.assertEqual(graphs[0]["status"], "partitioned")
        self.assertIn("2 node(s) npucc does not know or whose size comes from "
                      "data run in PyTorch between 2 npusim graph(s)",
                      graphs[0]["reason"])
        parts = graphs[1:]
        self.assertEqual([g["name"] for g in parts], [name + "/part0", name + "/part1"])
        for g in parts:
            self.assertEqual(g["status"], "compiled")
            self.assertGreater(g["cycles"][0], 0)
        self.assertFalse(rep.fallbacks)
        with self.assertRaises(tools.ToolError):   # no host work when asked
            export.CompiledModule(model, [x], target="npu-base", cache_dir=d,
                                  fallback="error")(x)

    def _compile_both_signs(self, factory):
        """torch.compile of factory's model, called with x and -x (a
        cond takes either branch), each against eager; the report."""
        import torch._dynamo as dynamo
        d = helpers.tmpdir(self)
        dynamo.reset()
        export.session().reset()
        model, (x,) = factory()
        cm = torch.compile(model, backend="npusim", options={
            "target": "npu-base", "cache_dir": d})
        for sign in (1, -1):
            with torch.no_grad():
                bufs = [b.clone() for b in model.buffers()]
                want = model(sign * x)
                for b, b0 in zip(model.buffers(), bufs):
                    b.copy_(b0)
                got = cm(sign * x)
            self.assertTrue(torch.allclose(got, want, atol=1e-5),
                            "%s: %g" % (factory.__name__, (got - want).abs().max()))
        return export.session().report()

    @unittest.skipUnless(export.has_dynamo(), "torch.compile needs PyTorch >= 2.1")
    def test_torch_compile_partitions(self):
        """Under torch.compile: custom ops run in PyTorch between
        compiled parts."""
        rep = self._compile_both_signs(models.custom_ops)
        self.assertFalse(rep.ok)
        self.assertFalse(rep.fallbacks, rep.text())
        self.assertEqual({k.split(": ", 1)[1] for k in rep.host_ops},
                         {"npusim_test.softclip.default", "npusim_test.halves.default"})
        parts = [g for g in rep.to_dict()["graphs"] if "/part" in g["name"]]
        self.assertEqual(len(parts), 2, rep.text())
        for g in parts:
            self.assertIn(g["status"], ("compiled", "cached"), rep.text())
            self.assertTrue(g["cycles"] and g["cycles"][0] > 0, rep.text())

    @unittest.skipUnless(export.has_dynamo(), "torch.compile needs PyTorch >= 2.1")
    def test_torch_compile_data_dependent(self):
        """Data-dependent sizes captured into the graph: the mask's index
        and nonzero run in PyTorch (no program can be compiled before
        their sizes exist), the size read off nonzero's result too; the
        dense work on either side compiles, the part that adds the count
        specialized to it."""
        import torch._dynamo as dynamo
        cfg = dynamo.config
        saved = (cfg.capture_dynamic_output_shape_ops, cfg.capture_scalar_outputs)
        cfg.capture_dynamic_output_shape_ops = cfg.capture_scalar_outputs = True
        try:
            rep = self._compile_both_signs(models.data_dependent)
        finally:
            cfg.capture_dynamic_output_shape_ops, cfg.capture_scalar_outputs = saved
        self.assertFalse(rep.fallbacks, rep.text())
        self.assertEqual({k.split(": ", 1)[1] for k in rep.host_ops},
                         {"aten.index.Tensor", "aten.nonzero.default"}, rep.text())
        parts = [g for g in rep.to_dict()["graphs"] if "/part" in g["name"]]
        self.assertGreaterEqual(len(parts), 2, rep.text())
        for g in parts:
            self.assertIn(g["status"], ("compiled", "cached"), rep.text())

    @unittest.skipUnless(export.has_dynamo() and hasattr(torch.library, "custom_op"),
                         "torch.library.custom_op needs PyTorch >= 2.4")
    def test_torch_compile_custom_op_training(self):
        """A training step through a custom op with its autograd formula:
        the forward graph is cut around the op, the backward graph (the
        formula's ATen ops) compiles whole; loss and gradients as eager."""
        import copy
        import torch._dynamo as dynamo
        dynamo.reset()
        export.session().reset()
        model, (x,) = models.custom_train()
        ref = copy.deepcopy(model)
        want = ref(x).square().mean()
        want.backward()
        cm = torch.compile(model, backend="npusim", options={
            "target": "npu-base", "cache_dir": helpers.tmpdir(self)})
        got = cm(x).square().mean()
        got.backward()
        self.assertLess(abs(got.item() - want.item()), 1e-5)
        for (name, p), q in zip(model.named_parameters(), ref.parameters()):
            self.assertTrue(torch.allclose(p.grad, q.grad, atol=1e-5), name)
        rep = export.session().report()
        self.assertFalse(rep.fallbacks, rep.text())
        self.assertEqual([k.split(": ", 1)[1] for k in rep.host_ops],
                         ["npusim_test.softclip_ad.default"])
        kinds = {g["kind"]: g["status"] for g in rep.to_dict()["graphs"]
                 if "/part" not in g["name"]}
        self.assertEqual(kinds.get("forward"), "partitioned", rep.text())
        self.assertEqual(kinds.get("backward"), "compiled", rep.text())

    @unittest.skipUnless(export.has_dynamo(), "torch.compile needs PyTorch >= 2.1")
    def test_torch_compile_cond_predicated(self):
        """torch.cond runs whole on npusim (both branches, a where),
        taking either branch."""
        rep = self._compile_both_signs(models.cond_branches)
        self.assertTrue(rep.ok, rep.text())
        g = [g for g in rep.to_dict()["graphs"] if g["kind"] == "inference"]
        self.assertEqual(len(g), 1, rep.text())
        self.assertEqual(len(g[0]["cycles"]), 2)

    def test_timing_only(self):
        model, (x,) = models.rmsnorm_mlp()
        d = helpers.tmpdir(self)
        cm = export.CompiledModule(model, [x], target="npu-base", timing_only=True,
                                   fallback="error", cache_dir=d)
        with torch.no_grad():
            self.assertTrue(torch.allclose(cm(x), model(x), atol=1e-6))
        rep = export.session().report()
        self.assertTrue(rep.ok, rep.text())
        self.assertGreater(rep.to_dict()["graphs"][0]["cycles"][0], 0)

    @unittest.skipUnless(export.has_dynamo(), "torch.compile needs PyTorch >= 2.1")
    def test_torch_compile(self):
        import torch._dynamo as dynamo
        dynamo.reset()
        model, (x,) = models.attention()
        d = helpers.tmpdir(self)
        cm = torch.compile(model, backend="npusim", options={
            "target": "npu-base", "fallback": "error", "cache_dir": d})
        with torch.no_grad():
            got, want = cm(x), model(x)
        self.assertEqual(got.stride(), want.stride())
        self.assertTrue(torch.allclose(got, want, atol=1e-4))
        self.assertTrue(export.session().report().ok)


@unittest.skipUnless(export.has_dynamo(), "torch.compile needs PyTorch >= 2.1 "
                     "(this is %s); scripts/torch_compile_check covers it" % torch.__version__)
class BackendTest(unittest.TestCase):
    def setUp(self):
        import torch._dynamo
        torch._dynamo.reset()
        export.session().reset()
        self.d = helpers.tmpdir(self)
        self.env = helpers.fake_tools(self, self.d)

    def test_registered_and_captures(self):
        from torch._dynamo.backends.registry import list_backends
        import npusim  # noqa: F401
        self.assertIn("npusim", list_backends(exclude_tags=()))
        model, inputs = models.rmsnorm_mlp()
        entry = export.export(model, inputs, self.d + "/x", name="mlp", method="dynamo")
        self.assertTrue(entry["dynamo_graphs"] and entry["graphs"])
        with open(os.path.join(self.d, "x", entry["graphs"][0] + ".json")) as f:
            doc = json.load(f)
        self.assertEqual(fxjson.validate(doc), [])
        self.assertEqual(doc["graph_kind"], "inference")
        self.assertEqual(doc["captured_from"], entry["dynamo_graphs"][0] + ".json")
        with open(os.path.join(self.d, "x", entry["dynamo_graphs"][0] + ".json")) as f:
            dyn = json.load(f)
        self.assertTrue(all("meta" in n for n in dyn["nodes"] if n["op"] == "placeholder"))
        vals = st.load(os.path.join(self.d, "x", entry["graphs"][0] + ".safetensors"))
        with torch.no_grad():
            got = helpers.run_doc(doc, vals)
            want = model(*inputs)
        self.assertTrue(torch.allclose(got[0], want, atol=1e-5))

    def test_export_backward(self):
        model, inputs = models.conv_bn()
        model.train()
        entry = export.export(model, inputs, self.d + "/t", name="t", backward=True)
        self.assertEqual(entry["graphs"], ["backward3", "forward2"])
        with open(os.path.join(self.d, "t", "forward2.json")) as f:
            fw = json.load(f)
        self.assertEqual(fxjson.validate(fw), [])
        # BatchNorm's running statistics: mutated buffers, returned first.
        self.assertEqual(fw["aot"]["num_mutated_inputs_returned_first"], 3)
        with open(os.path.join(self.d, "t", "backward3.json")) as f:
            bw = json.load(f)
        self.assertEqual(bw["graph_kind"], "backward")
        self.assertEqual(bw["aot"], fw["aot"])

    def test_compile_run_mutation_and_report(self):
        model, (x,) = models.counter()
        acc0 = model.acc.clone()
        new_acc = acc0 * 0.5 + x.mean(0)
        st.save({"output.0": new_acc, "output.1": x * 2}, self.env["FAKE_OUTPUTS"])
        cm = torch.compile(model, backend="npusim", options={"trace": None})
        with torch.no_grad():
            y = cm(x)
        self.assertTrue(torch.equal(y, x * 2))
        self.assertTrue(torch.equal(model.acc, new_acc), "aot copies the buffer back")
        rep = export.session().report()
        self.assertTrue(rep.ok, rep.text())
        self.assertEqual(rep.to_dict()["graphs"][1]["cycles"], [777])

    def test_breaks_recompiles_and_fallbacks(self):
        helpers.setenv(self, {"FAKE_NPUCC_FAIL": "1"})

        def f(x):
            y = torch.relu(x) + 1
            if y.sum().item() > 0:      # a graph break (.item())
                y = y * 2
            return y - 1
        cf = torch.compile(f, backend="npusim", dynamic=False)
        x = torch.randn(4, 8)
        self.assertTrue(torch.allclose(cf(x), f(x)))
        cf(torch.randn(5, 8))           # another shape: a recompilation
        rep = export.session().report()
        self.assertFalse(rep.ok)        # everything fell back to eager
        self.assertGreaterEqual(sum(rep.breaks.values()), 1)
        self.assertGreaterEqual(len(rep.recompiles), 1, rep.text())
        self.assertIn("size", rep.recompiles[0][1], rep.text())   # the failed guard
        self.assertIn("FAILED", rep.text())

    def test_training_graphs_fall_back_correctly(self):
        helpers.setenv(self, {"FAKE_NPUCC_FAIL": "1"})
        model, (x,) = models.rmsnorm_mlp()
        ref = [p.detach().clone() for p in model.parameters()]
        model(x).sum().backward()
        want = [p.grad.clone() for p in model.parameters()]
        model.zero_grad()
        cm = torch.compile(model, backend="npusim")
        cm(x).sum().backward()
        for p, g in zip(model.parameters(), want):
            self.assertTrue(torch.allclose(p.grad, g, atol=1e-5))
        kinds = [g["kind"] for g in export.session().report().to_dict()["graphs"]]
        self.assertIn("forward", kinds)
        self.assertIn("backward", kinds)
        del ref


if __name__ == "__main__":
    unittest.main()
