"""The writers: safetensors and fxgraph JSON, against the reference
captures in tests/data/fx and against models exported here."""

import glob
import json
import os
import struct
import unittest

import torch

import helpers
import models
from npusim import export, fxjson, st


class SafetensorsTest(unittest.TestCase):
    def test_round_trip_every_dtype(self):
        d = helpers.tmpdir(self)
        ts = {"f32": torch.randn(3, 4), "f64": torch.randn(2, dtype=torch.float64),
              "bf16": torch.randn(5).to(torch.bfloat16),
              "f16": torch.randn(2, 2).to(torch.float16),
              "i64": torch.arange(6).reshape(2, 3), "i32": torch.tensor([1, -2], dtype=torch.int32),
              "i8": torch.tensor([-128, 127], dtype=torch.int8),
              "u8": torch.tensor([0, 255], dtype=torch.uint8),
              "b": torch.tensor([True, False, True]), "scalar": torch.tensor(2.5),
              "empty": torch.zeros(0, 7), "noncontig": torch.randn(4, 3).t()}
        p = os.path.join(d, "x.safetensors")
        st.save(ts, p, metadata={"k": "v"})
        back, meta = st.load(p, with_metadata=True)
        self.assertEqual(meta, {"k": "v"})
        self.assertEqual(sorted(back), sorted(ts))
        for k, t in ts.items():
            self.assertEqual(back[k].dtype, t.dtype, k)
            self.assertEqual(back[k].shape, t.shape, k)
            self.assertTrue(torch.equal(back[k], t), k)

    def test_same_bytes_as_the_reference_files(self):
        # Reading a captured file and writing it again gives the very same
        # bytes: same header layout, order, padding and data.
        for case in ("mlp_fp32/inference2", "bias_relu/inference2",
                     "mutation_views/inference2"):
            path = helpers.data("fx", case + ".safetensors")
            with open(path, "rb") as f:
                raw = f.read()
            self.assertEqual(st.dumps(st.load(path)), raw, case)

    def test_corrupt_files_are_rejected(self):
        good = st.dumps({"a": torch.ones(4), "b": torch.zeros(2)})
        (n,) = struct.unpack("<Q", good[:8])
        head = json.loads(good[8:8 + n])

        def with_header(h):
            text = json.dumps(h).encode()
            return struct.pack("<Q", len(text)) + text + good[8 + n:]

        bad = {
            "short": good[:5],
            "length past end": struct.pack("<Q", 1 << 40) + good[8:],
            "not json": struct.pack("<Q", 4) + b"{{{{" + good[8 + n:],
            "truncated data": good[:-3],
            "unknown dtype": with_header({**head, "a": {**head["a"], "dtype": "Q7"}}),
            "size mismatch": with_header({**head, "a": {**head["a"], "shape": [5]}}),
            "overlap": with_header({**head, "b": {**head["b"], "data_offsets": [0, 8]}}),
            "negative dim": with_header({**head, "a": {**head["a"], "shape": [-4]}}),
        }
        for what, data in bad.items():
            with self.assertRaises(st.FormatError, msg=what):
                st.loads(data, what)


class FormatTest(unittest.TestCase):
    def test_validator_accepts_the_reference_graphs(self):
        files = [f for f in glob.glob(helpers.data("fx", "*", "*.json"))]
        self.assertTrue(files)
        for f in files:
            with open(f) as fh:
                doc = json.load(fh)
            self.assertEqual(fxjson.validate(doc), [], f)

    def test_validator_finds_problems(self):
        with open(helpers.data("fx", "mlp_fp32", "inference2.json")) as f:
            good = json.load(f)
        cases = []
        d = json.loads(json.dumps(good)); d["version"] = 2; cases.append(d)
        d = json.loads(json.dumps(good)); del d["nodes"][0]["kind"]; cases.append(d)
        d = json.loads(json.dumps(good)); d["nodes"][5]["args"][0] = {"node": "nope"}; cases.append(d)
        d = json.loads(json.dumps(good)); d["nodes"].append(d["nodes"][0]); cases.append(d)
        d = json.loads(json.dumps(good)); d["nodes"][0]["meta"]["dtype"] = "float17"; cases.append(d)
        d = json.loads(json.dumps(good)); d["aot"] = fxjson.aot_dict([False]); cases.append(d)
        for i, d in enumerate(cases):
            self.assertNotEqual(fxjson.validate(d), [], "case %d" % i)

    def test_encodings(self):
        enc = fxjson.encode_value
        self.assertEqual(enc(float("inf")), {"float": "inf"})
        self.assertEqual(enc(float("-inf")), {"float": "-inf"})
        self.assertEqual(enc(float("nan")), {"float": "nan"})
        self.assertEqual(enc(torch.bfloat16), {"dtype": "bfloat16"})
        self.assertEqual(enc(torch.device("cpu")), {"device": "cpu"})
        self.assertEqual(enc(torch.strided), {"layout": "strided"})
        self.assertEqual(enc(torch.contiguous_format), {"memory_format": "contiguous_format"})
        self.assertEqual(enc((1, [2, True], None)), [1, [2, True], None])
        self.assertEqual(enc(slice(1, 2)), {"repr": "slice(1, 2, None)"})
        self.assertEqual(fxjson.encode_meta(torch.zeros(2, 3).t()),
                         {"shape": [3, 2], "dtype": "float32", "stride": [1, 3],
                          "storage_offset": 0})
        self.assertEqual(fxjson.encode_meta(3), {"scalar": 3})


class ExportTest(unittest.TestCase):
    def check_export(self, factory, name):
        model, inputs = factory()
        d = helpers.tmpdir(self)
        entry = export.export(model, inputs, d, name=name, method="make_fx"
                              if not export.has_dynamo() else "auto")
        self.assertTrue(entry["graphs"])
        with open(os.path.join(d, "INDEX.json")) as f:
            self.assertEqual(json.load(f), {name: entry})
        eager = st.load(os.path.join(d, "eager.safetensors"))
        with torch.no_grad():
            want = model(*inputs)
        self.assertTrue(torch.equal(eager["model_input.0"], inputs[0]))
        self.assertTrue(torch.allclose(eager["model_output.0"], want, atol=1e-6))
        stem = entry["graphs"][0]
        with open(os.path.join(d, stem + ".json")) as f:
            doc = json.load(f)
        self.assertEqual(fxjson.validate(doc), [])
        self.assertEqual(doc["name"], "%s/%s" % (name, stem))
        self.assertEqual(doc["graph_kind"], "inference")
        self.assertIn("torch", doc["producer"])
        # Key order as in the reference captures.
        order = ["format", "version", "name", "producer", "graph_kind", "aot",
                 "nodes", "captured_from"]
        self.assertEqual(list(doc), [k for k in order if k in doc])
        phs = [n for n in doc["nodes"] if n["op"] == "placeholder"]
        for n in phs:
            self.assertEqual(list(n)[:6], ["name", "op", "target", "args", "kwargs", "meta"])
            self.assertIn(n["kind"], ("parameter", "buffer", "input"))
            self.assertTrue(n["source"].startswith("l_"))
        self.assertEqual([n["kind"] for n in phs].count("input"), len(inputs))
        calls = [n for n in doc["nodes"] if n["op"] == "call_function"]
        self.assertTrue(all(n["target"].startswith(("aten.", "_operator.")) for n in calls))
        self.assertTrue(all("original_aten" in n.get("provenance", {}) or
                            n["target"].startswith("_operator") for n in calls))
        # The safetensors file holds every placeholder and every output,
        # and the JSON alone, read back, computes the model's output.
        vals = st.load(os.path.join(d, stem + ".safetensors"))
        for n in phs:
            self.assertIn(n["name"], vals)
            self.assertEqual(list(vals[n["name"]].shape), n["meta"]["shape"])
        self.assertTrue(torch.allclose(vals["output.0"], want, atol=1e-5))
        with torch.no_grad():
            got = helpers.run_doc(doc, vals)
        self.assertTrue(torch.allclose(got[0], want, atol=1e-5, rtol=1e-5))
        return doc

    def test_rmsnorm_mlp(self):
        doc = self.check_export(models.rmsnorm_mlp, "rmsnorm_mlp")
        targets = {n["target"] for n in doc["nodes"]}
        self.assertIn("aten.rsqrt.default", targets)
        self.assertIn("aten.addmm.default", targets)
        srcs = [n["source"] for n in doc["nodes"] if n.get("kind") == "parameter"]
        self.assertIn("l_self_modules_fc1_parameters_weight_", srcs)

    def test_conv_bn(self):
        doc = self.check_export(models.conv_bn, "conv_bn")
        kinds = [n.get("kind") for n in doc["nodes"] if n["op"] == "placeholder"]
        self.assertIn("buffer", kinds)
        self.assertIn("aten.convolution.default", {n["target"] for n in doc["nodes"]})

    def test_attention(self):
        doc = self.check_export(models.attention, "attention")
        self.assertIn("aten._softmax.default", {n["target"] for n in doc["nodes"]})
        self.assertIn("aten.bmm.default", {n["target"] for n in doc["nodes"]})

    def test_mutation_becomes_first_outputs(self):
        model, inputs = models.counter()
        before = model.acc.clone()
        caps, tdoc = export.capture_make_fx(model, inputs, "counter")
        doc = caps[0].doc
        self.assertTrue(torch.equal(model.acc, before), "capture must not mutate")
        self.assertEqual(doc["aot"]["input_mutates_data"], [True, False])
        self.assertEqual(doc["aot"]["num_mutated_inputs_returned_first"], 1)
        self.assertEqual(len(doc["nodes"][-1]["args"][0]), 2)
        want = before * 0.5 + inputs[0].mean(0)
        self.assertTrue(torch.allclose(caps[0].outputs[0], want))
        self.assertTrue(torch.allclose(caps[0].outputs[1], inputs[0] * 2))

    def test_command_line(self):
        d = helpers.tmpdir(self)
        rc = export.main(["models:rmsnorm_mlp", "-o", d, "--name", "cli"])
        self.assertEqual(rc, 0)
        self.assertTrue(os.path.exists(os.path.join(d, "eager.safetensors")))
        rc = export.main(["models:RMSNormMLP", "--inputs", "3x64", "-o", d + "/b"])
        self.assertEqual(rc, 0)
        eager = st.load(os.path.join(d, "b", "eager.safetensors"))
        self.assertEqual(list(eager["model_input.0"].shape), [3, 64])
        self.assertEqual(export.main(["models:RMSNormMLP", "-o", d + "/c"]), 2)
        self.assertEqual(export.main(["models:RMSNormMLP", "--inputs", "3y4", "-o", d]), 2)


if __name__ == "__main__":
    unittest.main()
