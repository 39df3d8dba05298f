/*
 * check_train.c - end to end: the training graphs aot_autograd produces
 * (forward with its saved tensors, backward with its gradients and None
 * for inputs without one), in-place mutation of inputs, and graphs split
 * by graph breaks, compiled, simulated and compared with PyTorch's
 * recorded values and the fp64 reference (tests/fxrun.c).
 */
#include "config.h"

#include <check.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/driver.h"
#include "isa/st.h"
#include "tests/fxrun.h"

/* One graph, with the parameters frozen (inference-style) and as
 * run-time inputs (what a training step needs: weights change); outputs
 * below `small` of the largest measured against the graph's scale
 * (fxrun.small; 0: the default). */
#define TRAIN_TEST_SMALL(fn, cg, sm) \
	START_TEST(fn) \
	{ \
		fxrun fr = { .small = sm }, fu = { .unfrozen = 1, .small = sm }; \
		fx_setup_tmp(); \
		fx_run_graph(cg, &fr); \
		fx_run_graph(cg, &fu); \
		fx_teardown_tmp(); \
	} \
	END_TEST
#define TRAIN_TEST(fn, cg) TRAIN_TEST_SMALL(fn, cg, 0)

TRAIN_TEST(t_rmsnorm_fwd, "rmsnorm_train/forward2")
TRAIN_TEST(t_rmsnorm_bwd, "rmsnorm_train/backward3")
TRAIN_TEST(t_mlp_fwd, "mlp_train/forward2")
TRAIN_TEST(t_mlp_bwd, "mlp_train/backward3")
TRAIN_TEST(t_conv_bn_fwd, "conv_bn_train/forward2")
TRAIN_TEST(t_conv_bn_bwd, "conv_bn_train/backward3")
/* captured by scripts/capture_models: a small ResNet (strided blocks, a
 * downsample; every convolution's gradients) and a GPT-2 layer (the
 * embeddings' backward is index_put with accumulate) */
TRAIN_TEST(t_resnet_fwd, "resnet_train/forward2")
TRAIN_TEST(t_resnet_bwd, "resnet_train/backward3")
TRAIN_TEST(t_gpt2_fwd, "gpt2_train/forward2")
TRAIN_TEST(t_gpt2_bwd, "gpt2_train/backward3")
/* an MLP classifier with its cross-entropy loss (label smoothing) */
TRAIN_TEST(t_ce_fwd, "ce_train/forward2")
TRAIN_TEST(t_ce_bwd, "ce_train/backward3")
/* captured on PyTorch 2.11 (scripts/capture_models): inverted residuals
 * (depthwise convolutions, ReLU6) with BatchNorm in training; a Llama
 * whose attention is scaled_dot_product_attention, whose CPU forward the
 * core ATen decomposition writes out, saving the probabilities for the
 * one-op backward; GPT-2 and BERT likewise (GPT-2's saved k once came out
 * scaled: check_passes layout_sink_mul_shared) */
TRAIN_TEST(t_mobilenet_fwd, "mobilenet_train/forward2")
TRAIN_TEST(t_mobilenet_bwd, "mobilenet_train/backward3")
TRAIN_TEST(t_llama_sdpa_fwd, "llama_sdpa_train/forward2")
TRAIN_TEST(t_llama_sdpa_bwd, "llama_sdpa_train/backward3")
TRAIN_TEST(t_gpt2_sdpa_fwd, "gpt2_sdpa_train/forward2")
TRAIN_TEST(t_gpt2_sdpa_bwd, "gpt2_sdpa_train/backward3")
/* BERT with a padding mask.  Its second LayerNorm's saved mean
 * (output.34) is the mean of a residual stream that cancels to 1e-3 of
 * its terms: float32 sums of them are 1.2e-5 off in relative terms
 * (ours and PyTorch's), so outputs below 1e-4 of the largest are
 * measured against the graph's scale. */
TRAIN_TEST_SMALL(t_bert_sdpa_fwd, "bert_sdpa_train/forward2", 1e-4)
TRAIN_TEST(t_bert_sdpa_bwd, "bert_sdpa_train/backward3")
/* max pools whose indices the backward reads (PyTorch 2.11): ResNet's
 * overlapping, padded 3x3 stem pool after a ReLU (ties at zero) and
 * VGG's 2x2 pool, then a global average pool; the forward keeps each
 * pool's indices for max_pool2d_with_indices_backward */
TRAIN_TEST(t_pool_fwd, "pool_train/forward2")
TRAIN_TEST(t_pool_bwd, "pool_train/backward3")

/* BatchNorm's running statistics and its batch counter: updated in the
 * inputs' own buffers by the kernels that compute them. */
START_TEST(t_conv_bn_inplace)
{
	fxrun fr = { 0 };

	fx_setup_tmp();
	fx_run_graph("conv_bn_train/forward2", &fr);
	fx_teardown_tmp();
	ck_assert_int_eq(fr.inplace, 3);
}
END_TEST

/* In-place buffer updates, slice assignment through slice_scatter, copy,
 * lift_fresh_copy of a get_attr constant, views and a transposed copy;
 * both mutated inputs end with PyTorch's values, written in place. */
START_TEST(t_mutation_views)
{
	fxrun fr = { 0 };

	fx_setup_tmp();
	fx_run_fixture("mutation_views", &fr);
	fx_teardown_tmp();
	ck_assert_int_eq(fr.inplace, 2);
	ck_assert_int_eq(fr.host_calls, 0); /* slice_scatter: two copy kernels */
}
END_TEST

/*
 * A new value that cannot be stored in place: a later kernel reads the
 * old value (transposed, so not element by element).  A copy kernel at
 * the end writes it back; the input still ends with the new value and the
 * transposed read still sees the old one.
 */
START_TEST(t_mutation_copy_back)
{
	static const char graph[] =
		"{\"format\":\"fxgraph\",\"version\":1,\"name\":\"copy_back\","
		"\"graph_kind\":\"inference\",\"aot\":{\"input_mutates_data\":[true,false],"
		"\"num_mutated_inputs_returned_first\":1},\"nodes\":["
		"{\"name\":\"x\",\"op\":\"placeholder\",\"target\":\"x\",\"args\":[],\"kwargs\":{},"
		"\"kind\":\"buffer\",\"meta\":{\"shape\":[4,8],\"dtype\":\"float32\"}},"
		"{\"name\":\"y\",\"op\":\"placeholder\",\"target\":\"y\",\"args\":[],\"kwargs\":{},"
		"\"kind\":\"input\",\"meta\":{\"shape\":[8,4],\"dtype\":\"float32\"}},"
		"{\"name\":\"n\",\"op\":\"call_function\",\"target\":\"aten.add.Tensor\","
		"\"args\":[{\"node\":\"x\"},1],\"kwargs\":{},\"meta\":{\"shape\":[4,8],\"dtype\":\"float32\"}},"
		"{\"name\":\"p\",\"op\":\"call_function\",\"target\":\"aten.permute.default\","
		"\"args\":[{\"node\":\"x\"},[1,0]],\"kwargs\":{},"
		"\"meta\":{\"shape\":[8,4],\"dtype\":\"float32\",\"stride\":[1,8]}},"
		"{\"name\":\"z\",\"op\":\"call_function\",\"target\":\"aten.mul.Tensor\","
		"\"args\":[{\"node\":\"p\"},{\"node\":\"y\"}],\"kwargs\":{},"
		"\"meta\":{\"shape\":[8,4],\"dtype\":\"float32\"}},"
		"{\"name\":\"output\",\"op\":\"output\",\"target\":\"output\","
		"\"args\":[[{\"node\":\"n\"},{\"node\":\"z\"}]],\"kwargs\":{}}]}";
	char gpath[600], vpath[600];
	FILE *f;
	npu_graph *g;
	npu_stfile st;
	npu_err e;
	fxrun fr = { .unfrozen = 1 };

	fx_setup_tmp();
	snprintf(gpath, sizeof gpath, "%s/copy_back.json", fx_tmpdir);
	snprintf(vpath, sizeof vpath, "%s/values.safetensors", fx_tmpdir);
	ck_assert_ptr_nonnull(f = fopen(gpath, "w"));
	fputs(graph, f);
	fclose(f);
	ck_assert_msg(npu_graph_read(&g, gpath, &e) == 0, "%s", e.msg);
	fx_gen_values(g, vpath);
	npu_graph_free(g);
	ck_assert_msg(npu_st_read(&st, vpath, &e) == 0, "%s", e.msg);
	fx_run_values(gpath, &st, 0, &fr);
	npu_st_free(&st);
	ck_assert_int_eq(fr.inplace, 0);
	fx_teardown_tmp();
}
END_TEST

/* The tensor called name in the safetensors file at path (read into *st). */
static const npu_tensor *st_get(npu_stfile *st, const char *path, const char *name)
{
	npu_err e;
	const npu_tensor *t;

	ck_assert_msg(npu_st_read(st, path, &e) == 0, "%s", e.msg);
	t = npu_st_find(st, name);
	ck_assert_msg(t != NULL, "%s: no tensor %s", path, name);
	return t;
}

/*
 * Runs graph CG with its one placeholder arg0_1 set to x, checking its
 * output.0 against want (and the fp64 reference); the outputs are saved
 * to save.
 */
static void run_next(const char *cg, const npu_tensor *x, const npu_tensor *want,
		     const char *save)
{
	char graph[1024];
	npu_tensor t[2] = { *x, *want };
	npu_stfile st = { .t = t, .n = 2 };
	fxrun fr = { .save = save };

	t[0].name = "arg0_1";
	t[1].name = "output.0";
	snprintf(graph, sizeof graph, "%s/tests/data/fx/%s.json", fx_srcdir(), cg);
	fx_run_values(graph, &st, 1, &fr);
}

/* Relative L2 error of two f32 tensors of the same shape. */
static double st_err(const npu_tensor *a, const npu_tensor *b)
{
	int64_t n = (int64_t)npu_numel(a->ndim, a->shape);
	double *x, *y, r;

	ck_assert_int_eq(a->dtype, b->dtype);
	ck_assert_uint_eq(a->nbytes, b->nbytes);
	x = fx_widen(a->dtype, a->data, n);
	y = fx_widen(b->dtype, b->data, n);
	r = fx_relerr(x, y, n);
	free(x);
	free(y);
	return r;
}

/*
 * graph_breaks: `y = sin(x) * 2; if y.sum().item() > 0: y = y + 1;
 * print(...); return cos(y)` is three graphs.  inference2 returns
 * (sum, y); Python takes the branch on the sum; inference4 computes
 * y + 1; inference6 cos(y).  Each runs on the values the previous one
 * left (its outputs, not the recorded inputs), and the last result
 * matches the model's eager output.
 */
START_TEST(t_graph_breaks)
{
	char dir[1024], p1[600], p2[600], p3[600];
	npu_stfile s1, s2, s3, rec4, rec6, eager;
	const npu_tensor *sum, *y, *y2, *out;
	fxrun fr = { 0 };
	float s;

	fx_setup_tmp();
	snprintf(dir, sizeof dir, "%s/tests/data/fx/graph_breaks", fx_srcdir());
	snprintf(p1, sizeof p1, "%s/g2.safetensors", fx_tmpdir);
	snprintf(p2, sizeof p2, "%s/g4.safetensors", fx_tmpdir);
	snprintf(p3, sizeof p3, "%s/g6.safetensors", fx_tmpdir);
	fr.save = p1;
	fx_run_graph("graph_breaks/inference2", &fr);
	sum = st_get(&s1, p1, "output.0");
	y = npu_st_find(&s1, "output.1");
	ck_assert_ptr_nonnull(y);
	memcpy(&s, sum->data, 4);
	/* the recorded run took the branch: inference4 ran */
	ck_assert_msg(s > 0, "sum %g: the branch the fixture recorded is not taken", s);
	{
		char path[1200];
		snprintf(path, sizeof path, "%s/inference4.safetensors", dir);
		ck_assert_double_le(st_err(y, st_get(&rec4, path, "arg0_1")), 1e-5);
		run_next("graph_breaks/inference4", y, npu_st_find(&rec4, "output.0"), p2);
		snprintf(path, sizeof path, "%s/inference6.safetensors", dir);
		y2 = st_get(&s2, p2, "output.0");
		ck_assert_double_le(st_err(y2, st_get(&rec6, path, "arg0_1")), 1e-5);
		snprintf(path, sizeof path, "%s/eager.safetensors", dir);
		run_next("graph_breaks/inference6", y2,
			 st_get(&eager, path, "model_output.0"), p3);
	}
	out = st_get(&s3, p3, "output.0");
	ck_assert_double_le(st_err(out, npu_st_find(&eager, "model_output.0")), 1e-5);
	npu_st_free(&s1);
	npu_st_free(&s2);
	npu_st_free(&s3);
	npu_st_free(&rec4);
	npu_st_free(&rec6);
	npu_st_free(&eager);
	fx_teardown_tmp();
}
END_TEST

/* ---- the compile report and host calls ---- */

static void text_report(const npu_ccresult *r, void *ctx)
{
	char **out = ctx;
	size_t n;
	FILE *f = open_memstream(out, &n);

	ck_assert_ptr_nonnull(f);
	npu_cc_report(r, f);
	fclose(f);
}

static json_t *jget(json_t *o, const char *path)
{
	json_t *v = json_object_get(o, path);

	ck_assert_msg(v != NULL, "report: no '%s'", path);
	return v;
}

/* The compile report of a graph, as JSON (the text report in *text). */
static json_t *report_of(const char *graph, char **text)
{
	fxrun fr = { 0 };
	char rpath[600], gpath[1024], vals[1024];
	npu_ccresult r = { 0 };
	npu_stfile st;
	npu_err e;
	json_t *root;
	json_error_t je;

	snprintf(rpath, sizeof rpath, "%s/report.json", fx_tmpdir);
	snprintf(gpath, sizeof gpath, "%s/tests/data/fx/%s.json", fx_srcdir(), graph);
	snprintf(vals, sizeof vals, "%s/tests/data/fx/%s.safetensors", fx_srcdir(), graph);
	ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
	fr.o.report = rpath;
	fx_compile(gpath, &st, &fr, &r);
	text_report(&r, text);
	npu_cc_free(&r);
	npu_st_free(&st);
	root = json_load_file(rpath, 0, &je);
	ck_assert_msg(root != NULL, "%s", je.text);
	ck_assert_str_eq(json_string_value(jget(jget(root, "graph"), "name")), graph);
	return root;
}

/*
 * conv_bn_train/forward2: no host call.  The int64 batch counter
 * (num_batches_tracked + 1, of unknown range: the vector unit's fp32
 * lanes would round it past 2^24) is an integer kernel on the scalar
 * unit ("int"), native like the rest; every node is native, never
 * twice; the text report says the same.  The BatchNorm's mean and its
 * two variances read one copy of the input with N, H, W last.
 */
START_TEST(t_report)
{
	char *text = NULL;
	json_t *root, *nat, *fu, *ks;
	size_t i;
	int add = 0, intk = 0;

	fx_setup_tmp();
	root = report_of("conv_bn_train/forward2", &text);
	ck_assert_str_eq(json_string_value(jget(jget(root, "graph"), "kind")), "forward");
	ck_assert_int_eq(json_array_size(jget(root, "host")), 0);
	ck_assert_int_eq(json_integer_value(jget(jget(root, "summary"), "host_calls")), 0);
	ck_assert_int_eq(json_integer_value(jget(jget(root, "summary"), "host_bytes")), 0);
	nat = jget(root, "native");
	ck_assert_int_eq(json_array_size(nat), json_integer_value(jget(jget(root, "summary"), "native")));
	ck_assert_uint_ge(json_array_size(nat), 10);
	for (i = 0; i < json_array_size(nat); i++) {
		const char *nd = json_string_value(jget(json_array_get(nat, i), "node"));
		add += !strcmp(nd, "add");
		ck_assert_ptr_nonnull(jget(json_array_get(nat, i), "kernel"));
	}
	ck_assert_int_eq(add, 1);
	ks = jget(root, "kernels");
	for (i = 0; i < json_array_size(ks); i++) {
		json_t *k = json_array_get(ks, i);
		/* the BatchNorm's mean and both variances reduce the
		 * convolution's output over N, H, W through one copy */
		ck_assert_str_ne(json_string_value(jget(k, "name")), "var.copy");
		ck_assert_str_ne(json_string_value(jget(k, "name")), "var_2.copy");
		if (strcmp(json_string_value(jget(k, "kind")), "int"))
			continue;
		intk++;
		ck_assert_str_eq(json_string_value(jget(k, "name")), "add");
		ck_assert_int_eq(json_integer_value(jget(k, "dram_bytes")), 16);
	}
	ck_assert_int_eq(intk, 1);
	fu = jget(root, "fused");
	ck_assert_uint_ge(json_array_size(fu), 1);
	for (i = 0; i < json_array_size(fu); i++)
		ck_assert_uint_ge(json_array_size(jget(json_array_get(fu, i), "nodes")), 2);
	/* training BatchNorm, decomposed */
	ck_assert_int_eq(json_array_size(jget(root, "decomposed")), 1);
	json_decref(root);
	ck_assert_msg(strstr(text, "graph conv_bn_train/forward2 (forward): ") &&
		      strstr(text, "0 host calls"), "%s", text);
	ck_assert_msg(strstr(text, "add: integer arithmetic on the scalar unit"), "%s", text);
	ck_assert_msg(strstr(text, "var: reads the copy mean.copy made of the same view") &&
		      strstr(text, "var_2: reads the copy mean.copy made of the same view"),
		      "%s", text);
	free(text);
	fx_teardown_tmp();
}
END_TEST

/*
 * funnel_tiny/inference14: one host call, the comparison of two run-time
 * int64 token-type tensors (unknown range) into a bool [2, 16, 16],
 * past what an integer kernel takes.  The JSON report lists it with its
 * reason and the bytes each way (two [2, 16] int64 in, 256 bytes each;
 * 512 bools out); the text says the same.
 */
START_TEST(t_report_host)
{
	char *text = NULL;
	json_t *root, *h, *nat;

	fx_setup_tmp();
	root = report_of("funnel_tiny/inference14", &text);
	h = jget(root, "host");
	ck_assert_int_eq(json_array_size(h), 1);
	ck_assert_int_eq(json_integer_value(jget(jget(root, "summary"), "host_calls")), 1);
	h = json_array_get(h, 0);
	ck_assert_str_eq(json_string_value(jget(h, "node")), "eq");
	ck_assert_str_eq(json_string_value(jget(h, "target")), "aten.eq.Tensor");
	ck_assert_ptr_nonnull(strstr(json_string_value(jget(h, "reason")), "integer"));
	ck_assert_int_eq(json_integer_value(jget(h, "bytes_in")), 512);
	ck_assert_int_eq(json_integer_value(jget(h, "bytes_out")), 512);
	ck_assert_int_eq(json_integer_value(jget(h, "bytes")), 1024);
	ck_assert_int_eq(json_integer_value(jget(jget(root, "summary"), "host_bytes")),
			 json_integer_value(jget(h, "bytes")));
	nat = jget(root, "native");
	ck_assert_uint_ge(json_array_size(nat), 1);
	json_decref(root);
	ck_assert_msg(strstr(text, "1 host calls"), "%s", text);
	ck_assert_msg(strstr(text, "host: eq (aten.eq.Tensor): integer operands; "
			     "1024 bytes across the boundary (512 in, 512 out)"), "%s", text);
	free(text);
	fx_teardown_tmp();
}
END_TEST

/*
 * conv_bn_train/backward3: convolution_backward (grad_weight and
 * grad_bias; grad_input is None) is decomposed into one product
 * (grad_output [32, N H W] by the im2col matrix of the 3x3 window's
 * nine taps) and a sum, all native: no host call; the reductions over N, H, W
 * read their inputs with those dims last as the kernels computing them
 * also store them.
 */
START_TEST(t_report_conv_bwd)
{
	char *text = NULL;
	json_t *root, *d, *into, *nat;
	size_t i, j;
	int conv = 0, mm = 0, sum = 0;

	fx_setup_tmp();
	root = report_of("conv_bn_train/backward3", &text);
	ck_assert_int_eq(json_array_size(jget(root, "host")), 0);
	ck_assert_int_eq(json_integer_value(jget(jget(root, "summary"), "host_calls")), 0);
	d = jget(root, "decomposed");
	ck_assert_int_eq(json_array_size(d), 1);
	ck_assert_str_eq(json_string_value(jget(json_array_get(d, 0), "node")), "convolution_backward");
	into = jget(json_array_get(d, 0), "into");
	for (i = 0; i < json_array_size(into); i++) {
		const char *t = json_string_value(jget(json_array_get(into, i), "target"));
		conv += !strcmp(t, "aten.convolution.default");
		mm += !strcmp(t, "aten.mm.default");
		sum += !strcmp(t, "aten.sum.dim_IntList");
	}
	ck_assert_int_eq(conv, 0);
	ck_assert_int_eq(mm, 1);
	ck_assert_int_eq(sum, 1);
	nat = jget(root, "native");
	for (i = 0, j = 0; i < json_array_size(nat); i++)
		j += !strcmp(json_string_value(jget(json_array_get(nat, i), "node")), "sum_1");
	/* in the kernel that also stores its input with N, H, W last,
	 * and in the reduction */
	ck_assert_int_ge(j, 1);
	json_decref(root);
	ck_assert_msg(strstr(text, "0 host calls"), "%s", text);
	/* the bias and BatchNorm gradients' sums over N, H, W read no copy
	 * kernel: the elementwise kernels computing their inputs also store
	 * them in that order */
	ck_assert_msg(strstr(text, "sum_1: kernel le also stores where with the reduced dims last") &&
		      strstr(text, "sum_2: kernel sub also stores mul with the reduced dims last") &&
		      !strstr(text, "sum_1.copy") && !strstr(text, "sum_2.copy"), "%s", text);
	free(text);
	fx_teardown_tmp();
}
END_TEST

/* A decomposition is reported with the nodes it became (ViT's layer
 * norms: mean, var, rsqrt, ...), each of them lowered natively. */
START_TEST(t_report_decomposed)
{
	fxrun fr = { 0 };
	char rpath[600], graph[1024], vals[1024];
	npu_ccresult r = { 0 };
	npu_stfile st;
	npu_err e;
	json_t *root, *d, *nat;
	json_error_t je;

	fx_setup_tmp();
	snprintf(rpath, sizeof rpath, "%s/report.json", fx_tmpdir);
	snprintf(graph, sizeof graph, "%s/tests/data/fx/vit_tiny/inference2.json", fx_srcdir());
	snprintf(vals, sizeof vals, "%s/tests/data/fx/vit_tiny/inference2.safetensors", fx_srcdir());
	ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
	fr.o.report = rpath;
	fx_compile(graph, &st, &fr, &r);
	npu_cc_free(&r);
	npu_st_free(&st);
	root = json_load_file(rpath, 0, &je);
	ck_assert_msg(root != NULL, "%s", je.text);
	d = jget(root, "decomposed");
	nat = jget(root, "native");
	ck_assert_uint_ge(json_array_size(d), 1);
	ck_assert_int_eq(json_array_size(d), json_integer_value(jget(jget(root, "summary"), "decomposed")));
	for (size_t i = 0; i < json_array_size(d); i++) {
		json_t *into = jget(json_array_get(d, i), "into");
		ck_assert_uint_ge(json_array_size(into), 2);
		for (size_t k = 0; k < json_array_size(into); k++) {
			const char *nd = json_string_value(jget(json_array_get(into, k), "node"));
			int found = 0;
			for (size_t q = 0; q < json_array_size(nat); q++)
				found |= !strcmp(nd, json_string_value(jget(json_array_get(nat, q), "node")));
			ck_assert_msg(found, "%s: not lowered natively", nd);
		}
	}
	json_decref(root);
	fx_teardown_tmp();
}
END_TEST

/*
 * The fixtures that legitimately keep host calls, and why.  Every other
 * graph of every shared fixture must compile with none.
 */
static const struct {
	const char *graph, *target, *why;
} host_ok[] = {
	/* the vector unit has no float64 */
	{ "rmsnorm_float64/inference2", NULL, "float64" },
	/* the ops models exercise ops without native lowering on purpose */
	{ "ops3/inference2", NULL, "" },
	/* sort (the reductions model) */
	{ "reductions/inference2", NULL, "" },
	/* arithmetic on run-time int64 inputs, whose range is unknown
	 * (Funnel's token-type comparison; the MoE routers' sorts and
	 * topks run in the lanes) */
	{ "funnel_tiny/inference14", "aten.eq.Tensor", "integer" },
	/* the embedding bag of a 10-row table (1.13's
	 * _embedding_bag_forward_only), cheaper as the host call by
	 * @embbag's estimate */
	{ "ops7/inference1", "aten._embedding_bag.default", "support.def" },
	/* median and kthvalue (ties in nth_element's order) and a
	 * transposed 3-d convolution (cheaper on the host) */
	{ "ops8/inference2", NULL, "" },
	/* 1-d and 3-d interpolation, affine grids, max unpooling */
	{ "ops9/inference1", NULL, "" },
	/* masked_select (a data-dependent size) */
	{ "ops10/inference1", "aten.masked_select.default", "support.def" },
	/* torchvision's roi_align: samples at boxes that are data */
	{ "ops12/inference1", "torchvision.roi_align.default", "support.def" },
	/* topk of k > 8 among ties, in PyTorch CPU's order */
	{ "ops13/inference1", "aten.topk.default", "support.def" },
	/* grid_sample: samples at points that are data */
	{ "ops15/inference1", "aten.grid_sampler_2d.default", "support.def" },
	/* a division of an int64 input of unknown range */
	{ "ops16/inference1", "aten.div.Tensor_mode", "integers of unknown range" },
	/* a grouped matmul of small experts, cheaper as the host call */
	{ "moe_experts/inference1", "transformers.grouped_mm_fallback.default",
	  "declined: a grouped matmul whose experts cost more on the NPU" },
};

/* per entry of host_ok: host calls it allowed (every entry must allow
 * one: a stale entry would hide a regression) */
static int host_ok_used[sizeof host_ok / sizeof *host_ok];

static int host_allowed(const char *cg, const char *target, const char *why)
{
	for (size_t i = 0; i < sizeof host_ok / sizeof *host_ok; i++)
		if (!strcmp(host_ok[i].graph, cg) &&
		    (!host_ok[i].target || !strcmp(host_ok[i].target, target)) &&
		    strstr(why, host_ok[i].why)) {
			host_ok_used[i]++;
			return 1;
		}
	return 0;
}

/* Whether a graph has SymInt placeholders (dynamic shapes, compiled
 * elsewhere). */
static int is_dynamic(const char *path)
{
	npu_graph *g;
	npu_err e;
	int dyn = 0;

	ck_assert_msg(npu_graph_read(&g, path, &e) == 0, "%s", e.msg);
	for (int i = 0; i < g->nnodes; i++)
		dyn |= g->nodes[i].op == NPU_GOP_PLACEHOLDER &&
		       g->nodes[i].phkind == NPU_PH_SYMINT;
	npu_graph_free(g);
	return dyn;
}

/* Every ATen graph of every shared fixture (tests/data/fx/INDEX.json):
 * no host call but those listed above. */
START_TEST(t_no_host_calls)
{
	char path[1024];
	json_t *idx, *c;
	json_error_t je;
	const char *cname;
	int ngraphs = 0, nhost = 0;

	fx_setup_tmp();
	snprintf(path, sizeof path, "%s/tests/data/fx/INDEX.json", fx_srcdir());
	idx = json_load_file(path, 0, &je);
	ck_assert_msg(idx != NULL, "%s", je.text);
	json_object_foreach(idx, cname, c) {
		json_t *gl = json_object_get(c, "graphs");
		int vals = json_is_true(json_object_get(c, "values"));
		for (size_t i = 0; i < json_array_size(gl); i++) {
			char cg[512], graph[1024], vpath[1024];
			npu_stfile st;
			npu_err e;
			npu_ccresult r = { 0 };
			fxrun fr = { 0 };
			snprintf(cg, sizeof cg, "%s/%s", cname, json_string_value(json_array_get(gl, i)));
			snprintf(graph, sizeof graph, "%s/tests/data/fx/%s.json", fx_srcdir(), cg);
			snprintf(vpath, sizeof vpath, "%s/tests/data/fx/%s.safetensors", fx_srcdir(), cg);
			if (is_dynamic(graph))
				continue;
			if (vals)
				ck_assert_msg(npu_st_read(&st, vpath, &e) == 0, "%s", e.msg);
			fx_compile(graph, vals ? &st : NULL, &fr, &r);
			for (int k = 0; k < r.ir.nk; k++) {
				const npu_kern *K = &r.ir.k[k];
				const npu_gnode *n;
				if (K->kind != NPU_KK_HOST)
					continue;
				n = &r.g->nodes[K->hnode];
				ck_assert_msg(host_allowed(cg, n->target, K->hreason),
					      "%s: node %s (%s) runs on the host: %s", cg,
					      n->name, n->target, K->hreason);
				nhost++;
			}
			npu_cc_free(&r);
			if (vals)
				npu_st_free(&st);
			ngraphs++;
		}
	}
	json_decref(idx);
	ck_assert_int_ge(ngraphs, 25);
	ck_assert_int_ge(nhost, 5);
	for (size_t i = 0; i < sizeof host_ok / sizeof *host_ok; i++)
		ck_assert_msg(host_ok_used[i], "host_ok entry %s %s allows no host call any more: drop it",
			      host_ok[i].graph, host_ok[i].target ? host_ok[i].target : "");
	fx_teardown_tmp();
}
END_TEST

/* One int64 value from a query with no parameters. */
static int64_t q1(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v;

	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s",
		      sql, sqlite3_errmsg(db));
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/*
 * The trace attributes the host call's time to its kernel: the host
 * unit is busy only inside the execution of funnel_tiny/inference14's
 * host call (an int64 comparison, kernel "eq"), for part of it, and
 * nowhere else.
 */
START_TEST(t_trace_host)
{
	fxrun fr = { 0 };
	char db[600];
	sqlite3 *d;
	int64_t exec, busy, elsewhere;

	fx_setup_tmp();
	snprintf(db, sizeof db, "%s/trace.db", fx_tmpdir);
	fr.trace = db;
	fx_run_graph("funnel_tiny/inference14", &fr);
	ck_assert_int_eq(fr.host_calls, 1);
	ck_assert_int_eq(sqlite3_open(db, &d), SQLITE_OK);
#define HK "(SELECT k.kernel FROM kernels k JOIN strings s ON s.id = k.name_id " \
	   "WHERE s.text = 'eq')"
#define BUSY "(SELECT id FROM states WHERE name = 'busy')"
#define HOST "(SELECT id FROM units WHERE name = 'host')"
	ck_assert_int_eq(q1(d, "SELECT COUNT(*) FROM kernel_execs WHERE kernel = " HK), 1);
	exec = q1(d, "SELECT end_cycle - start_cycle FROM kernel_execs WHERE kernel = " HK);
	busy = q1(d, "SELECT COALESCE(SUM(end_cycle - start_cycle), 0) FROM activity "
		  "WHERE unit = " HOST " AND state = " BUSY " AND kernel = " HK);
	elsewhere = q1(d, "SELECT COALESCE(SUM(end_cycle - start_cycle), 0) FROM activity "
		       "WHERE unit = " HOST " AND state = " BUSY " AND (kernel IS NULL OR kernel != " HK ")");
	ck_assert_int_eq(q1(d, "SELECT value FROM counters c JOIN strings s ON s.id = c.name_id "
			    "WHERE s.text = 'host_calls'"), 1);
#undef HK
#undef BUSY
#undef HOST
	sqlite3_close(d);
	ck_assert_int_gt(busy, 0);
	ck_assert_int_le(busy, exec);
	ck_assert_int_eq(elsewhere, 0);
	fx_teardown_tmp();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("train");
	TCase *tc = tcase_create("train");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, t_rmsnorm_fwd);
	tcase_add_test(tc, t_rmsnorm_bwd);
	tcase_add_test(tc, t_mlp_fwd);
	tcase_add_test(tc, t_mlp_bwd);
	tcase_add_test(tc, t_conv_bn_fwd);
	tcase_add_test(tc, t_conv_bn_bwd);
	tcase_add_test(tc, t_resnet_fwd);
	tcase_add_test(tc, t_resnet_bwd);
	tcase_add_test(tc, t_gpt2_fwd);
	tcase_add_test(tc, t_gpt2_bwd);
	tcase_add_test(tc, t_ce_fwd);
	tcase_add_test(tc, t_ce_bwd);
	tcase_add_test(tc, t_mobilenet_fwd);
	tcase_add_test(tc, t_mobilenet_bwd);
	tcase_add_test(tc, t_llama_sdpa_fwd);
	tcase_add_test(tc, t_llama_sdpa_bwd);
	tcase_add_test(tc, t_gpt2_sdpa_fwd);
	tcase_add_test(tc, t_gpt2_sdpa_bwd);
	tcase_add_test(tc, t_bert_sdpa_fwd);
	tcase_add_test(tc, t_bert_sdpa_bwd);
	tcase_add_test(tc, t_pool_fwd);
	tcase_add_test(tc, t_pool_bwd);
	tcase_add_test(tc, t_conv_bn_inplace);
	tcase_add_test(tc, t_mutation_views);
	tcase_add_test(tc, t_mutation_copy_back);
	tcase_add_test(tc, t_graph_breaks);
	tcase_add_test(tc, t_report);
	tcase_add_test(tc, t_report_host);
	tcase_add_test(tc, t_report_conv_bwd);
	tcase_add_test(tc, t_report_decomposed);
	tcase_add_test(tc, t_no_host_calls);
	tcase_add_test(tc, t_trace_host);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
