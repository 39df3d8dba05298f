/*
 * check_graph.c - the FX graph reader (compiler/graph.h) on the real
 * PyTorch captures in tests/data/fx and on broken inputs, the printer,
 * the module-path normalization and the op table.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/graph.h"
#include "isa/isa.h"

static const char *const cases[] = {
	"attention_manual/inference2", "attention_sdpa/inference2",
	"bias_relu/inference2", "conv_bn_relu/inference2",
	"conv_bn_shared/inference2", "conv_bn_train/forward2",
	"conv_bn_train/backward3", "graph_breaks/inference2",
	"graph_breaks/inference4", "graph_breaks/inference6",
	"llama_tiny/inference2", "mlp_bf16/inference2", "mlp_dynamic/inference2",
	"mlp_fp32/inference2", "mlp_train/forward2", "mlp_train/backward3",
	"mutation_views/inference2", "quant_int8_mm/inference2",
	"quant_qdq_linear/inference2", "resnet18/inference2",
	"rmsnorm_bfloat16/inference2", "rmsnorm_dynamic/inference2",
	"rmsnorm_empty/inference2", "rmsnorm_eps1e-6_noaffine/inference2",
	"rmsnorm_float32/inference2", "rmsnorm_float64/inference2",
	"rmsnorm_noncontig/inference2", "rmsnorm_train/forward2",
	"rmsnorm_train/backward3", "bias_relu/dynamo1", "attention_manual/dynamo1",
};

static npu_graph *load(const char *name)
{
	char path[1024];
	const char *srcdir = getenv("srcdir");
	npu_graph *g;
	npu_err e = { "" };

	snprintf(path, sizeof path, "%s/tests/data/fx/%s.json",
		 srcdir ? srcdir : ".", name);
	ck_assert_msg(npu_graph_read(&g, path, &e) == 0, "%s: %s", name, e.msg);
	return g;
}

/* Parses text; returns the error message ("" on success). */
static const char *parse_err(const char *text)
{
	static npu_err e;
	npu_graph *g;

	npu_err_clear(&e);
	if (npu_graph_parse(&g, "graph.json", text, strlen(text), &e) == 0)
		npu_graph_free(g);
	return e.msg;
}

/* The printer's text for g. */
static char *print(const npu_graph *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(npu_graph_print(g, f), 0);
	fclose(f);
	return buf;
}

START_TEST(every_fixture_parses)
{
	int i = _i;
	npu_graph *g = load(cases[i]);
	char *text;

	ck_assert_int_gt(g->nnodes, 1);
	ck_assert_int_eq(g->output, g->nnodes - 1);
	for (int k = 0; k < g->nnodes; k++) {
		const npu_gnode *n = &g->nodes[k];
		ck_assert_int_eq(npu_graph_find(g, n->name), k);
		/* aot graphs use only ops the table knows */
		if (n->op == NPU_GOP_CALL_FUNCTION && g->kind != NPU_GK_DYNAMO)
			ck_assert_msg(n->aop != NPU_AOP_UNKNOWN, "%s: %s unknown",
				      cases[i], n->target);
	}
	text = print(g);
	ck_assert_int_gt((int)strlen(text), 20);
	free(text);
	npu_graph_free(g);
}
END_TEST

START_TEST(bias_relu_structure)
{
	npu_graph *g = load("bias_relu/inference2");
	const npu_gnode *add = &g->nodes[2];
	int nout;
	const npu_gval *out;
	char *text;

	ck_assert_str_eq(g->name, "bias_relu/inference2");
	ck_assert_int_eq(g->kind, NPU_GK_INFERENCE);
	ck_assert_str_eq(g->captured_from, "dynamo1.json");
	ck_assert_int_eq(g->nnodes, 5);
	ck_assert_int_eq(npu_graph_nplaceholders(g), 2);
	ck_assert_int_eq(g->nodes[0].phkind, NPU_PH_PARAMETER);
	ck_assert_str_eq(g->nodes[0].phsource, "l_s_parameters_b_");
	ck_assert_int_eq(g->nodes[1].phkind, NPU_PH_INPUT);
	ck_assert_str_eq(add->name, "add");
	ck_assert_int_eq(add->op, NPU_GOP_CALL_FUNCTION);
	ck_assert_int_eq(add->aop, NPU_AOP_ADD_TENSOR);
	ck_assert_int_eq(add->nargs, 2);
	ck_assert_int_eq(add->args[0].kind, NPU_GV_NODE);
	ck_assert_int_eq(add->args[0].u.node, 1);
	ck_assert_int_eq(add->args[1].u.node, 0);
	ck_assert_int_eq(add->nmeta, 1);
	ck_assert_int_eq(add->meta[0].kind, NPU_GM_TENSOR);
	ck_assert_int_eq(add->meta[0].dtype, NPU_DT_F32);
	ck_assert_int_eq(add->meta[0].ndim, 2);
	ck_assert_int_eq(add->meta[0].shape[1].v, 4096);
	ck_assert_int_eq(add->meta[0].stride[0].v, 4096);
	ck_assert_str_eq(add->srcloc, "models.py:251");
	ck_assert_str_eq(add->original_aten, "aten.add.Tensor");
	ck_assert_str_eq(add->from_node, "add");
	ck_assert_str_eq(add->module, "");
	out = npu_graph_outputs(g, &nout);
	ck_assert_int_eq(nout, 1);
	ck_assert_int_eq(out[0].u.node, 3);
	text = print(g);
	ck_assert_msg(strstr(text, "%add = aten.add.Tensor(%arg1_1, %arg0_1) : "
			     "f32[64,4096]  # models.py:251\n"), "%s", text);
	ck_assert_msg(strstr(text, "%arg0_1 = placeholder : f32[4096]  # parameter "
			     "l_s_parameters_b_\n"), "%s", text);
	ck_assert_msg(strstr(text, "return [%relu]\n"), "%s", text);
	free(text);
	npu_graph_free(g);
}
END_TEST

START_TEST(symbolic_shapes)
{
	npu_graph *g = load("rmsnorm_dynamic/inference2");
	int x = npu_graph_find(g, "arg3_1"), s = npu_graph_find(g, "arg1_1");
	const npu_gmeta *m = &g->nodes[x].meta[0];
	char *text;

	ck_assert_int_eq(g->nodes[s].phkind, NPU_PH_SYMINT);
	ck_assert_int_eq(g->nodes[s].meta[0].kind, NPU_GM_SCALAR);
	ck_assert_int_eq(g->nodes[s].meta[0].scalar.kind, NPU_GV_SYM);
	ck_assert_str_eq(g->nodes[s].meta[0].scalar.u.s, "s33");
	ck_assert_str_eq(m->shape[0].sym, "s33");
	ck_assert_str_eq(m->shape[1].sym, "s50");
	ck_assert_ptr_null(m->shape[2].sym);
	ck_assert_int_eq(m->shape[2].v, 256);
	ck_assert_str_eq(m->stride[0].sym, "256*s50");
	text = print(g);
	ck_assert_msg(strstr(text, "%arg1_1 = placeholder : Sym(s33)"), "%s", text);
	ck_assert_msg(strstr(text, "%mean = aten.mean.dim(%pow_1, [2], True) : "
			     "f32[s33,s50,1]"), "%s", text);
	free(text);
	npu_graph_free(g);
}
END_TEST

START_TEST(values_and_provenance)
{
	npu_graph *g = load("attention_sdpa/inference2");
	const npu_gnode *n = &g->nodes[npu_graph_find(g, "scalar_tensor")];
	const npu_gnode *full = &g->nodes[npu_graph_find(g, "full")];
	char *text;

	ck_assert_int_eq(n->args[0].kind, NPU_GV_FLOAT);
	ck_assert(isinf(n->args[0].u.f) && n->args[0].u.f < 0);
	ck_assert_int_eq(npu_gnode_kwarg(n, "dtype")->kind, NPU_GV_DTYPE);
	ck_assert_int_eq(npu_gnode_kwarg(n, "dtype")->u.dtype, NPU_DT_F32);
	ck_assert_int_eq(npu_gnode_kwarg(n, "device")->kind, NPU_GV_DEVICE);
	ck_assert_str_eq(npu_gnode_kwarg(n, "device")->u.s, "cpu");
	ck_assert_int_eq(full->args[0].kind, NPU_GV_LIST);
	ck_assert_int_eq(full->args[0].u.list.n, 2);
	ck_assert_int_eq(full->args[1].kind, NPU_GV_BOOL);
	ck_assert_int_eq(npu_gnode_kwarg(full, "layout")->kind, NPU_GV_LAYOUT);
	ck_assert_ptr_null(npu_gnode_kwarg(full, "nope"));
	text = print(g);
	ck_assert_msg(strstr(text, "aten.scalar_tensor.default(-inf, dtype=float32, "
			     "device=cpu) : f32[]"), "%s", text);
	free(text);
	npu_graph_free(g);

	g = load("llama_tiny/inference2");
	n = &g->nodes[npu_graph_find(g, "embedding")];
	ck_assert_str_eq(n->module, "m.model.embed_tokens");
	ck_assert_str_eq(n->module_class, "Embedding");
	ck_assert_str_eq(n->srcloc, "transformers/models/llama/modeling_llama.py:381");
	npu_graph_free(g);
}
END_TEST

START_TEST(aot_and_multi_output)
{
	npu_graph *g = load("conv_bn_train/backward3");
	const npu_gnode *cb = &g->nodes[npu_graph_find(g, "convolution_backward")];
	int nout;
	const npu_gval *out = npu_graph_outputs(g, &nout);

	ck_assert(g->has_aot);
	ck_assert_int_eq(g->kind, NPU_GK_BACKWARD);
	ck_assert_int_eq(g->num_mutated_inputs_returned_first, 3);
	ck_assert_int_eq(g->ninput_mutates, 8);
	ck_assert_int_eq(g->input_mutates_data[3], 1);
	ck_assert_int_eq(g->input_mutates_data[0], 0);
	ck_assert_int_eq(g->num_forward_returns, 4);
	ck_assert(cb->multi);
	ck_assert_int_eq(cb->nmeta, 3);
	ck_assert_int_eq(cb->meta[0].kind, NPU_GM_SCALAR);
	ck_assert_int_eq(cb->meta[0].scalar.kind, NPU_GV_NONE);
	ck_assert_int_eq(cb->meta[1].kind, NPU_GM_TENSOR);
	ck_assert_int_eq(cb->meta[1].ndim, 4);
	ck_assert_int_eq(nout, 8);
	ck_assert_int_eq(out[2].kind, NPU_GV_NONE);
	ck_assert_int_eq(out[0].kind, NPU_GV_NODE);
	npu_graph_free(g);

	g = load("mutation_views/inference2");
	ck_assert_int_eq(g->num_mutated_inputs_returned_first, 2);
	ck_assert_int_eq(g->nodes[npu_graph_find(g, "_tensor_constant0")].op,
			 NPU_GOP_GET_ATTR);
	npu_graph_free(g);

	g = load("attention_manual/dynamo1");
	ck_assert_int_eq(g->kind, NPU_GK_DYNAMO);
	ck_assert(!g->has_aot);
	ck_assert_int_eq(g->nodes[npu_graph_find(g, "view")].op, NPU_GOP_CALL_METHOD);
	npu_graph_free(g);
}
END_TEST

START_TEST(module_paths)
{
	static const char *const t[][2] = {
		{ "L['self'].layers[0].mlp", "layers.0.mlp" },
		{ "L['s'].m.model.layers.0.self_attn", "m.model.layers.0.self_attn" },
		{ "L['fn']", "" },
		{ "L['self'].blocks['a'].proj", "blocks.a.proj" },
		{ "G['net'].fc", "fc" },
		{ "plain.path", "plain.path" },
		{ "L['self'].layers[0]", "layers.0" },
	};
	char out[64], tiny[5];

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		npu_graph_module_path(t[i][0], out, sizeof out);
		ck_assert_str_eq(out, t[i][1]);
	}
	npu_graph_module_path("L['self'].layers[0].mlp", tiny, sizeof tiny);
	ck_assert_str_eq(tiny, "laye");
}
END_TEST

#define HEAD "{\"format\": \"fxgraph\", \"version\": 1, \"graph_kind\": \"inference\", \"nodes\": ["
#define PH(n) "{\"name\": \"" n "\", \"op\": \"placeholder\", \"target\": \"" n "\", " \
	"\"args\": [], \"kwargs\": {}, \"meta\": {\"shape\": [4], \"dtype\": \"float32\"}}"
#define OUT(n) "{\"name\": \"output\", \"op\": \"output\", \"target\": \"output\", " \
	"\"args\": [[{\"node\": \"" n "\"}]], \"kwargs\": {}}]}"
#define ADD(n, a, b) "{\"name\": \"" n "\", \"op\": \"call_function\", " \
	"\"target\": \"aten.add.Tensor\", \"args\": [{\"node\": \"" a "\"}, " \
	"{\"node\": \"" b "\"}], \"kwargs\": {}}"

START_TEST(good_minimal)
{
	ck_assert_str_eq(parse_err(HEAD PH("x") "," ADD("add_3", "x", "x") ","
				   OUT("add_3")), "");
}
END_TEST

START_TEST(errors_name_file_and_node)
{
	ck_assert_str_eq(parse_err(HEAD PH("x") "," ADD("add_3", "x", "foo") ","
				   OUT("add_3")),
			 "graph.json: node 'add_3': argument 1 refers to unknown "
			 "node 'foo'");
	ck_assert_str_eq(parse_err(HEAD PH("x") "," ADD("add_3", "x", "add_4") ","
				   ADD("add_4", "x", "x") "," OUT("add_3")),
			 "graph.json: node 'add_3': argument 1 refers to node "
			 "'add_4', which comes later (a cycle)");
	ck_assert_str_eq(parse_err(HEAD PH("x") "," ADD("a", "a", "x") "," OUT("a")),
			 "graph.json: node 'a': argument 0 refers to node 'a', "
			 "which comes later (a cycle)");
	ck_assert_str_eq(parse_err(HEAD PH("x") "," PH("x") "," OUT("x")),
			 "graph.json: node 'x': duplicate name (first at node #0)");
	ck_assert_str_eq(parse_err(HEAD "{\"name\": \"x\", \"target\": \"x\", "
				   "\"args\": [], \"kwargs\": {}}," OUT("x")),
			 "graph.json: node 'x': missing 'op'");
	ck_assert_str_eq(parse_err(HEAD "{\"name\": \"x\", \"op\": \"placeholder\", "
				   "\"target\": \"x\", \"kwargs\": {}}," OUT("x")),
			 "graph.json: node 'x': missing 'args' list");
	ck_assert_str_eq(parse_err(HEAD "{\"op\": \"placeholder\"}," OUT("x")),
			 "graph.json: node #0: missing 'name'");
	ck_assert_str_eq(parse_err(HEAD "{\"name\": \"x\", \"op\": \"placeholder\", "
				   "\"target\": \"x\", \"args\": [], \"kwargs\": {}, "
				   "\"meta\": {\"shape\": [4, \"a\"], \"dtype\": "
				   "\"float32\"}}," OUT("x")),
			 "graph.json: node 'x': meta: shape[1] is not an integer");
	ck_assert_str_eq(parse_err(HEAD "{\"name\": \"x\", \"op\": \"placeholder\", "
				   "\"target\": \"x\", \"args\": [], \"kwargs\": {}, "
				   "\"meta\": {\"shape\": [-4], \"dtype\": "
				   "\"float32\"}}," OUT("x")),
			 "graph.json: node 'x': meta: shape[0] is negative");
	/* 2^24 * 2^25 elements: past npusim's 2^48, a zero dim or not */
	ck_assert_str_eq(parse_err(HEAD "{\"name\": \"x\", \"op\": \"placeholder\", "
				   "\"target\": \"x\", \"args\": [], \"kwargs\": {}, "
				   "\"meta\": {\"shape\": [0, 16777216, 33554432], \"dtype\": "
				   "\"float32\"}}," OUT("x")),
			 "graph.json: node 'x': meta: a shape of more than 2^48 "
			 "elements (what npusim handles)");
	ck_assert_str_eq(parse_err(HEAD "{\"name\": \"x\", \"op\": \"placeholder\", "
				   "\"target\": \"x\", \"args\": [], \"kwargs\": {}, "
				   "\"meta\": {\"shape\": [4], \"dtype\": "
				   "\"complex64\"}}," OUT("x")),
			 "graph.json: node 'x': meta: unknown dtype 'complex64'");
	ck_assert_str_eq(parse_err(HEAD PH("x") ", {\"name\": \"c\", \"op\": "
				   "\"call_function\", \"target\": \"aten._to_copy.default\", "
				   "\"args\": [{\"node\": \"x\"}], \"kwargs\": {\"dtype\": "
				   "{\"dtype\": \"quint4\"}}}," OUT("c")),
			 "graph.json: node 'c': keyword argument 'dtype': unknown "
			 "dtype 'quint4'");
	ck_assert_str_eq(parse_err(HEAD PH("x") "," ADD("a", "x", "x") ","
				   "{\"name\": \"b\", \"op\": \"call_function\", "
				   "\"target\": \"aten.relu.default\", \"args\": "
				   "[{\"float\": \"huge\"}], \"kwargs\": {}}," OUT("a")),
			 "graph.json: node 'b': argument 0: bad float 'huge'");
	ck_assert_str_eq(parse_err(HEAD PH("x") "]}"), "graph.json: no output node");
	ck_assert_str_eq(parse_err(HEAD PH("x") "," OUT("x") "," PH("y") "]}"),
			 "graph.json:1: end of file expected near ','");
	ck_assert_str_eq(parse_err("{\"format\": \"fxgraph\", \"version\": 2, "
				   "\"graph_kind\": \"inference\", \"nodes\": []}"),
			 "graph.json: unsupported fxgraph version (expected 1)");
	ck_assert_str_eq(parse_err("{\"format\": \"onnx\", \"version\": 1}"),
			 "graph.json: not an fxgraph file (format is not \"fxgraph\")");
	ck_assert_str_eq(parse_err("{\"format\": \"fxgraph\", \"version\": 1, "
				   "\"graph_kind\": \"inference\"}"),
			 "graph.json: missing 'nodes' list");
	ck_assert_str_eq(parse_err("[1, 2]"), "graph.json: not a JSON object");
	ck_assert_str_eq(parse_err("{\"format\": \"fxgraph\", \"version\": 1, "
				   "\"graph_kind\": \"inference\", \"aot\": "
				   "{\"input_mutates_data\": [true, false], "
				   "\"num_mutated_inputs_returned_first\": 1}, "
				   "\"nodes\": [" PH("x") "," OUT("x")),
			 "graph.json: aot: 2 input_mutates_data flags for 1 placeholders");
	ck_assert_ptr_nonnull(strstr(parse_err("{\"format\": "), "graph.json:1:"));
	/* an in-place op read as its functional form: not on an input, and
	 * nothing may read its self after it */
#define IADD(n, s) "{\"name\": \"" n "\", \"op\": \"call_function\", " \
	"\"target\": \"aten.index_add_.default\", \"args\": [{\"node\": \"" s "\"}, 0, " \
	"{\"node\": \"i\"}, {\"node\": \"x\"}], \"kwargs\": {}}"
	ck_assert_str_eq(parse_err(HEAD PH("x") "," PH("i") "," IADD("a", "x") "," OUT("a")),
			 "graph.json: node 'a': in-place aten.index_add.default mutates a graph "
			 "input (not functionalized)");
	ck_assert_str_eq(parse_err(HEAD PH("x") "," PH("i") "," ADD("c", "x", "x") ","
				   IADD("a", "c") "," ADD("b", "a", "c") "," OUT("b")),
			 "graph.json: node 'a': in-place aten.index_add.default mutates 'c', "
			 "which node 'b' reads after it (not functionalized)");
	ck_assert_str_eq(parse_err(HEAD PH("x") "," PH("i") "," ADD("c", "x", "x") ","
				   ADD("d", "c", "x") "," IADD("a", "c") "," OUT("a")), "");
#undef IADD
}
END_TEST

START_TEST(read_missing_file)
{
	npu_graph *g = (npu_graph *)1;
	npu_err e = { "" };

	ck_assert_int_eq(npu_graph_read(&g, "/nonexistent/graph.json", &e), -1);
	ck_assert_ptr_null(g);
	ck_assert_str_eq(e.msg, "/nonexistent/graph.json: No such file or directory");
}
END_TEST

START_TEST(op_table)
{
	ck_assert_int_gt(NPU_NAOP, 150);
	for (int i = 0; i < NPU_NAOP; i++) {
		ck_assert_int_eq(npu_aop_find(npu_aoptab[i].target), i);
		ck_assert_ptr_nonnull(npu_acat_name(npu_aoptab[i].cat));
		ck_assert_int_gt((int)strlen(npu_aoptab[i].semantics), 1);
	}
	ck_assert_int_eq(npu_aop_find("aten.nonexistent.default"), NPU_AOP_UNKNOWN);
	ck_assert_int_eq(npu_aop_find("aten._softmax.default"), NPU_AOP_SOFTMAX);
	ck_assert_str_eq(npu_gop_name(NPU_GOP_CALL_METHOD), "call_method");
}
END_TEST

/* npucc --list-ops: every target it prints is known, every op of the
 * table is printed, the aliases too (the frontend cuts graphs by it). */
START_TEST(op_list)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	int n = 0, aliases = 0, rewritten = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	npu_aop_print(f);
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int id = npu_aop_find(line);
		/* the one target a pass rewrites before the table is asked */
		if (!strcmp(line, NPU_PRIMS_CONVERT)) {
			rewritten++;
			continue;
		}
		ck_assert_msg(id != NPU_AOP_UNKNOWN, "%s", line);
		if (n < NPU_NAOP)
			ck_assert_str_eq(line, npu_aoptab[n].target);
		else
			aliases += strcmp(line, npu_aoptab[id].target) != 0;
		n++;
	}
	ck_assert_int_gt(n, NPU_NAOP);
	ck_assert_int_eq(aliases, n - NPU_NAOP);
	ck_assert_int_eq(rewritten, 1);
	free(buf);
}
END_TEST

/* docs/fx-format.md lists every op of the table. */
START_TEST(docs_list_every_op)
{
	char path[1024], *text, needle[160];
	const char *srcdir = getenv("srcdir");
	FILE *f;
	long n;

	snprintf(path, sizeof path, "%s/docs/fx-format.md", srcdir ? srcdir : ".");
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = calloc((size_t)n + 1, 1);
	ck_assert_int_eq((long)fread(text, 1, (size_t)n, f), n);
	fclose(f);
	for (int i = 0; i < NPU_NAOP; i++) {
		snprintf(needle, sizeof needle, "| `%s` |", npu_aoptab[i].target);
		ck_assert_msg(strstr(text, needle), "docs/fx-format.md lacks %s",
			      npu_aoptab[i].target);
	}
	free(text);
}
END_TEST

static Suite *graph_suite(void)
{
	Suite *s = suite_create("graph");
	TCase *tc = tcase_create("fixtures");

	tcase_add_loop_test(tc, every_fixture_parses, 0,
			    (int)(sizeof cases / sizeof *cases));
	tcase_add_test(tc, bias_relu_structure);
	tcase_add_test(tc, symbolic_shapes);
	tcase_add_test(tc, values_and_provenance);
	tcase_add_test(tc, aot_and_multi_output);
	suite_add_tcase(s, tc);
	tc = tcase_create("validation");
	tcase_add_test(tc, good_minimal);
	tcase_add_test(tc, errors_name_file_and_node);
	tcase_add_test(tc, read_missing_file);
	tcase_add_test(tc, module_paths);
	tcase_add_test(tc, op_table);
	tcase_add_test(tc, op_list);
	tcase_add_test(tc, docs_list_every_op);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(graph_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
