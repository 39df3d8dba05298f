/*
 * check_ref.c - the reference interpreter (compiler/ref.h).
 *
 * The fixture tests run every captured graph of tests/data/fx on the
 * placeholder values PyTorch recorded and compare each output with the
 * recorded `output.i`: relative L2 error within 1e-5 (fp32), 1e-3 (fp16),
 * 8e-3 (bf16), 1e-12 (fp64), integers and bools bit-exact, NaN and Inf at
 * the same positions.  Both precision modes are held to that bar.  The
 * kernel tests pin down PyTorch semantics one op at a time through the
 * single-op entry point.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/graph.h"
#include "compiler/ref.h"
#include "isa/isa.h"
#include "isa/st.h"

/* ---- fixtures ---------------------------------------------------- */

typedef struct stenv {
	npu_stfile f;
	npu_reftensor *t;
} stenv;

static const npu_reftensor *st_lookup(void *ctx, const char *name)
{
	stenv *s = ctx;

	for (size_t i = 0; i < s->f.n; i++)
		if (!strcmp(s->f.t[i].name, name))
			return &s->t[i];
	return NULL;
}

static void path_of(char *buf, size_t n, const char *rel)
{
	const char *srcdir = getenv("srcdir");

	snprintf(buf, n, "%s/tests/data/fx/%s", srcdir ? srcdir : ".", rel);
}

static void st_load(stenv *s, const char *graph)
{
	char rel[512], path[1024];
	npu_err e = { "" };

	snprintf(rel, sizeof rel, "%s.safetensors", graph);
	path_of(path, sizeof path, rel);
	ck_assert_msg(npu_st_read(&s->f, path, &e) == 0, "%s", e.msg);
	s->t = calloc(s->f.n + 1, sizeof *s->t);
	for (size_t i = 0; i < s->f.n; i++)
		ck_assert_msg(npu_reftensor_load(&s->t[i], s->f.t[i].dtype,
						 s->f.t[i].ndim, s->f.t[i].shape,
						 s->f.t[i].data, &e) == 0, "%s", e.msg);
}

static void st_unload(stenv *s)
{
	for (size_t i = 0; i < s->f.n; i++)
		npu_reftensor_free(&s->t[i]);
	free(s->t);
	npu_st_free(&s->f);
}

static npu_graph *graph_load(const char *graph)
{
	char rel[512], path[1024];
	npu_graph *g;
	npu_err e = { "" };

	snprintf(rel, sizeof rel, "%s.json", graph);
	path_of(path, sizeof path, rel);
	ck_assert_msg(npu_graph_read(&g, path, &e) == 0, "%s", e.msg);
	return g;
}

static double tolerance(int dt)
{
	switch (dt) {
	case NPU_DT_F32: return 1e-5;
	case NPU_DT_F16: return 1e-3;
	case NPU_DT_BF16: return 8e-3;
	case NPU_DT_F64: return 1e-12;
	default: return 0;
	}
}

/* Relative L2 error of out against ref over the finite positions; fails
 * on a shape, dtype or non-finite mismatch, or an integer difference. */
static double compare(const char *what, const npu_reftensor *out,
		      const npu_reftensor *ref)
{
	double num = 0, den = 0;
	int64_t n = npu_reftensor_numel(ref);

	ck_assert_msg(out->ndim == ref->ndim, "%s: rank %d vs %d", what,
		      out->ndim, ref->ndim);
	for (int i = 0; i < ref->ndim; i++)
		ck_assert_msg(out->shape[i] == ref->shape[i], "%s: dim %d", what, i);
	ck_assert_msg(out->dtype == ref->dtype, "%s: dtype %s vs %s", what,
		      npu_dtype_torch(out->dtype), npu_dtype_torch(ref->dtype));
	for (int64_t i = 0; i < n; i++) {
		double a = out->data[i], b = ref->data[i];
		if (!isfinite(b) || !isfinite(a)) {
			ck_assert_msg(isnan(a) == isnan(b) && (isnan(a) || a == b),
				      "%s: element %lld is %g, expected %g", what,
				      (long long)i, a, b);
			continue;
		}
		if (tolerance(ref->dtype) == 0)
			ck_assert_msg(a == b, "%s: element %lld is %.17g, expected %.17g",
				      what, (long long)i, a, b);
		num += (a - b) * (a - b);
		den += b * b;
	}
	return den > 0 ? sqrt(num / den) : sqrt(num);
}

/*
 * Outputs whose exact value is zero, so that both PyTorch's and our
 * numbers are rounding noise and a relative error means nothing: the
 * conv bias gradient behind a training-mode batch norm (BN's backward
 * removes the batch mean of the gradient).  They are checked to be zero
 * within 1e-6 instead.
 */
static int exactly_zero(const char *graph, int i)
{
	return !strcmp(graph, "conv_bn_train/backward3") && i == 1;
}

static void check_zero(const char *what, const npu_reftensor *out,
		       const npu_reftensor *ref)
{
	for (int64_t i = 0; i < npu_reftensor_numel(ref); i++)
		ck_assert_msg(fabs(out->data[i]) <= 1e-6 && fabs(ref->data[i]) <= 1e-6,
			      "%s: element %lld is %g (recorded %g), not ~0", what,
			      (long long)i, out->data[i], ref->data[i]);
}

/* Runs graph on its recorded inputs in one precision; returns the largest
 * error (relative to each output's tolerance bar, the error itself). */
static double run_fixture(const char *graph, int precision, stenv *inputs)
{
	npu_graph *g = graph_load(graph);
	stenv own = { 0 }, *s = inputs ? inputs : &own;
	npu_refenv env = { precision, st_lookup, s };
	npu_reftensor *outs;
	npu_err e = { "" };
	int nout;
	double worst = 0;
	char key[64], what[256];

	if (!inputs)
		st_load(&own, graph);
	ck_assert_msg(npu_ref_run(g, &env, &outs, &nout, &e) == 0, "%s", e.msg);
	for (int i = 0; i < nout; i++) {
		const npu_reftensor *ref;
		double err;
		snprintf(key, sizeof key, "output.%d", i);
		ref = st_lookup(s, key);
		snprintf(what, sizeof what, "%s %s (%s)", graph, key,
			 precision == NPU_REF_TORCH ? "torch" : "fp64");
		if (!ref) {
			ck_assert_msg(outs[i].ndim < 0, "%s: not recorded", what);
			continue;
		}
		ck_assert_msg(outs[i].ndim >= 0, "%s: missing", what);
		if (exactly_zero(graph, i)) {
			check_zero(what, &outs[i], ref);
			continue;
		}
		err = compare(what, &outs[i], ref);
		ck_assert_msg(err <= tolerance(ref->dtype), "%s: rel. L2 error %.3g "
			      "above %.3g", what, err, tolerance(ref->dtype));
		if (err > worst)
			worst = err;
	}
	printf("%-40s %-5s max rel. L2 error %.3g\n", graph,
	       precision == NPU_REF_TORCH ? "torch" : "fp64", worst);
	npu_ref_free_outputs(outs, nout);
	if (!inputs)
		st_unload(&own);
	npu_graph_free(g);
	return worst;
}

static const char *const fixtures[] = {
	"attention_manual/inference2", "attention_sdpa/inference2",
	"bias_relu/inference2", "conv_bn_relu/inference2",
	"conv_bn_shared/inference2", "conv_bn_train/forward2",
	"conv_bn_train/backward3", "graph_breaks/inference2",
	"graph_breaks/inference4", "graph_breaks/inference6",
	"llama_tiny/inference2", "mlp_bf16/inference2", "mlp_dynamic/inference2",
	"mlp_fp32/inference2", "mlp_train/forward2", "mlp_train/backward3",
	"mutation_views/inference2", "quant_int8_mm/inference2",
	"quant_qdq_linear/inference2", "rmsnorm_bfloat16/inference2",
	"rmsnorm_dynamic/inference2", "rmsnorm_empty/inference2",
	"rmsnorm_eps1e-6_noaffine/inference2", "rmsnorm_float32/inference2",
	"rmsnorm_float64/inference2", "rmsnorm_noncontig/inference2",
	"rmsnorm_train/forward2", "rmsnorm_train/backward3",
};

START_TEST(fixture_torch)
{
	run_fixture(fixtures[_i], NPU_REF_TORCH, NULL);
}
END_TEST

START_TEST(fixture_fp64)
{
	run_fixture(fixtures[_i], NPU_REF_FP64, NULL);
}
END_TEST

/* A lookup that answers one name from a tensor, others from a file. */
typedef struct chain {
	stenv *base;
	const char *name;
	const npu_reftensor *t;
} chain;

static const npu_reftensor *chain_lookup(void *ctx, const char *name)
{
	chain *c = ctx;

	return !strcmp(name, c->name) ? c->t : st_lookup(c->base, name);
}

/* graph_breaks: y = sin(x) * 2; (y.sum() > 0 branch) y + 1; cos(y): the
 * three graphs run in sequence, each fed the previous one's output. */
START_TEST(graph_breaks_in_sequence)
{
	const char *graphs[3] = { "graph_breaks/inference2",
				  "graph_breaks/inference4",
				  "graph_breaks/inference6" };
	npu_reftensor carry = { .ndim = -1 }, *outs;
	npu_err e = { "" };
	stenv first = { 0 }, last = { 0 };
	int nout;

	st_load(&first, graphs[0]);
	st_load(&last, graphs[2]);
	for (int k = 0; k < 3; k++) {
		npu_graph *g = graph_load(graphs[k]);
		chain c = { &first, k ? "arg0_1" : "", &carry };
		npu_refenv env = { NPU_REF_TORCH, chain_lookup, &c };
		ck_assert_msg(npu_ref_run(g, &env, &outs, &nout, &e) == 0, "%s", e.msg);
		if (k == 0)  /* the branch taken was y.sum() > 0 */
			ck_assert(outs[0].data[0] > 0);
		npu_reftensor_free(&carry);
		carry = outs[nout - 1];
		outs[nout - 1].ndim = -1;
		outs[nout - 1].data = NULL;
		npu_ref_free_outputs(outs, nout);
		npu_graph_free(g);
	}
	ck_assert_double_le(compare("graph_breaks chain", &carry,
				    st_lookup(&last, "output.0")), 1e-6);
	npu_reftensor_free(&carry);
	st_unload(&first);
	st_unload(&last);
}
END_TEST

/* ---- resnet18: deterministic weights ------------------------------ */

typedef struct genenv {
	const npu_graph *g;
	npu_reftensor *t;
} genenv;

static uint64_t rng = 0x9e3779b97f4a7c15u;

static double uniform(void)  /* xorshift64*, in [0, 1) */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717u) >> 11) / 9007199254740992.0;
}

static const npu_reftensor *gen_lookup(void *ctx, const char *name)
{
	genenv *ge = ctx;
	int i = npu_graph_find(ge->g, name);

	return i >= 0 && ge->t[i].data ? &ge->t[i] : NULL;
}

/* Weights like a freshly initialized network: uniform(+-1/sqrt(fan_in))
 * for conv and linear weights, BN statistics near (0, 1). */
static void gen_value(const npu_gnode *n, npu_reftensor *t)
{
	const npu_gmeta *m = &n->meta[0];
	int64_t shape[NPU_MAX_DIMS], fan = 1;
	npu_err e;
	const char *src = n->phsource ? n->phsource : "";

	for (int i = 0; i < m->ndim; i++) {
		shape[i] = m->shape[i].v;
		if (i)
			fan *= shape[i];
	}
	ck_assert_int_eq(npu_reftensor_alloc(t, m->dtype, m->ndim, shape, &e), 0);
	for (int64_t i = 0, cnt = npu_reftensor_numel(t); i < cnt; i++) {
		double u = uniform() * 2 - 1;
		if (m->dtype == NPU_DT_I64)
			t->data[i] = 0;
		else if (strstr(src, "running_var"))
			t->data[i] = 0.5 + uniform();
		else if (strstr(src, "running_mean") || strstr(src, "bias"))
			t->data[i] = 0.1 * u;
		else if (m->ndim == 1)      /* BN weight */
			t->data[i] = 1 + 0.1 * u;
		else if (n->phkind == NPU_PH_INPUT)
			t->data[i] = u;
		else
			t->data[i] = u / sqrt((double)fan);
		if (m->dtype == NPU_DT_F32)
			t->data[i] = (float)t->data[i];
	}
}

START_TEST(resnet18_runs)
{
	npu_graph *g = graph_load("resnet18/inference2");
	genenv ge = { g, calloc((size_t)g->nnodes, sizeof(npu_reftensor)) };
	npu_refenv env = { NPU_REF_TORCH, gen_lookup, &ge };
	npu_reftensor *outs;
	npu_err e = { "" };
	struct timespec t0, t1;
	int nout;
	double mean = 0, var = 0, secs;

	for (int i = 0; i < g->nnodes; i++)
		if (g->nodes[i].op == NPU_GOP_PLACEHOLDER)
			gen_value(&g->nodes[i], &ge.t[i]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_msg(npu_ref_run(g, &env, &outs, &nout, &e) == 0, "%s", e.msg);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("resnet18/inference2 (generated weights): %.2f s\n", secs);
	ck_assert_int_eq(nout, 1);
	ck_assert_int_eq(outs[0].ndim, 2);
	ck_assert_int_eq(outs[0].shape[0], 1);
	ck_assert_int_eq(outs[0].shape[1], 1000);
	for (int i = 0; i < 1000; i++) {
		ck_assert(isfinite(outs[0].data[i]));
		mean += outs[0].data[i] / 1000;
	}
	for (int i = 0; i < 1000; i++)
		var += (outs[0].data[i] - mean) * (outs[0].data[i] - mean) / 1000;
	ck_assert_double_gt(var, 1e-8);   /* the logits are not constant */
	ck_assert_double_lt(secs, 60);
	npu_ref_free_outputs(outs, nout);
	for (int i = 0; i < g->nnodes; i++)
		npu_reftensor_free(&ge.t[i]);
	free(ge.t);
	npu_graph_free(g);
}
END_TEST

/* ---- single ops -------------------------------------------------- */

static npu_reftensor tens(int dt, int ndim, const int64_t *shape,
			  const double *v)
{
	npu_reftensor t;
	npu_err e;

	ck_assert_int_eq(npu_reftensor_alloc(&t, dt, ndim, shape, &e), 0);
	memcpy(t.data, v, (size_t)npu_reftensor_numel(&t) * sizeof *v);
	return t;
}

/* Runs one op with one result and checks it against want. */
static void op1(const char *target, const char *attrs, npu_reftensor *in,
		int nin, int dt, int ndim, const int64_t *shape,
		const double *want)
{
	npu_reftensor out;
	npu_err e = { "" };

	ck_assert_msg(npu_ref_exec_op(target, attrs, in, nin, &out, 1, &e) == 0,
		      "%s: %s", target, e.msg);
	ck_assert_msg(out.dtype == dt, "%s: dtype %s", target,
		      npu_dtype_torch(out.dtype));
	ck_assert_int_eq(out.ndim, ndim);
	for (int i = 0; i < ndim; i++)
		ck_assert_int_eq(out.shape[i], shape[i]);
	for (int64_t i = 0; i < npu_reftensor_numel(&out); i++)
		ck_assert_msg(out.data[i] == want[i] ||
			      (isnan(want[i]) && isnan(out.data[i])) ||
			      fabs(out.data[i] - want[i]) < 1e-12 * fabs(want[i]),
			      "%s [%lld]: %.17g, want %.17g", target, (long long)i,
			      out.data[i], want[i]);
	npu_reftensor_free(&out);
}

START_TEST(elementwise_semantics)
{
	npu_reftensor in[3];

	/* broadcasting [2,1] + [3] with alpha */
	in[0] = tens(NPU_DT_F32, 2, (int64_t[]){ 2, 1 }, (double[]){ 1, 2 });
	in[1] = tens(NPU_DT_F32, 1, (int64_t[]){ 3 }, (double[]){ 10, 20, 30 });
	op1("aten.add.Tensor", "{\"args\": [{\"input\": 0}, {\"input\": 1}], "
	    "\"kwargs\": {\"alpha\": 2}}", in, 2, NPU_DT_F32, 2,
	    (int64_t[]){ 2, 3 }, (double[]){ 21, 41, 61, 22, 42, 62 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	/* round half to even; int division modes; float -> int8 wraps */
	in[0] = tens(NPU_DT_F32, 1, (int64_t[]){ 6 },
		     (double[]){ 0.5, 1.5, 2.5, -0.5, -1.5, 2.4999 });
	op1("aten.round.default", NULL, in, 1, NPU_DT_F32, 1, (int64_t[]){ 6 },
	    (double[]){ 0, 2, 2, -0.0, -2, 2 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_I64, 1, (int64_t[]){ 4 }, (double[]){ 7, -7, 7, -7 });
	in[1] = tens(NPU_DT_I64, 1, (int64_t[]){ 4 }, (double[]){ 2, 2, -2, -2 });
	op1("aten.div.Tensor_mode", "{\"args\": [{\"input\": 0}, {\"input\": 1}], "
	    "\"kwargs\": {\"rounding_mode\": \"floor\"}}", in, 2, NPU_DT_I64, 1,
	    (int64_t[]){ 4 }, (double[]){ 3, -4, -4, 3 });
	op1("aten.div.Tensor_mode", "{\"args\": [{\"input\": 0}, {\"input\": 1}], "
	    "\"kwargs\": {\"rounding_mode\": \"trunc\"}}", in, 2, NPU_DT_I64, 1,
	    (int64_t[]){ 4 }, (double[]){ 3, -3, -3, 3 });
	op1("aten.div.Tensor", NULL, in, 2, NPU_DT_F32, 1, (int64_t[]){ 4 },
	    (double[]){ 3.5, -3.5, -3.5, 3.5 });
	op1("aten.remainder.Tensor", NULL, in, 2, NPU_DT_I64, 1, (int64_t[]){ 4 },
	    (double[]){ 1, 1, -1, -1 });
	op1("aten.lt.Scalar", "{\"args\": [{\"input\": 0}, 0]}", in, 1, NPU_DT_BOOL,
	    1, (int64_t[]){ 4 }, (double[]){ 0, 1, 0, 1 });
	/* an int tensor times a Python float gives float32 */
	op1("aten.mul.Tensor", "{\"args\": [{\"input\": 0}, 0.5]}", in, 1,
	    NPU_DT_F32, 1, (int64_t[]){ 4 }, (double[]){ 3.5, -3.5, 3.5, -3.5 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F32, 1, (int64_t[]){ 4 }, (double[]){ 200.7, -129.9, 3.99, NAN });
	op1("aten._to_copy.default", "{\"args\": [{\"input\": 0}], \"kwargs\": "
	    "{\"dtype\": {\"dtype\": \"int8\"}}}", in, 1, NPU_DT_I8, 1,
	    (int64_t[]){ 4 }, (double[]){ -56, 127, 3, 0 });
	/* clamp keeps NaN; where with scalars */
	op1("aten.clamp.default", "{\"args\": [{\"input\": 0}, -100, 100]}", in, 1,
	    NPU_DT_F32, 1, (int64_t[]){ 4 }, (double[]){ 100, -100, 3.99, NAN });
	op1("aten.gelu.default", "{\"args\": [{\"input\": 0}], \"kwargs\": "
	    "{\"approximate\": \"tanh\"}}", in, 1, NPU_DT_F32, 1, (int64_t[]){ 4 },
	    (double[]){ 200.7, -0.0, 3.99 * 0.5 * (1 + tanh(sqrt(2 / M_PI) *
		       (3.99 + 0.044715 * 3.99 * 3.99 * 3.99))), NAN });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_BOOL, 1, (int64_t[]){ 3 }, (double[]){ 1, 0, 1 });
	op1("aten.where.self", "{\"args\": [{\"input\": 0}, 1.5, {\"float\": \"-inf\"}]}",
	    in, 1, NPU_DT_F32, 1, (int64_t[]){ 3 }, (double[]){ 1.5, -INFINITY, 1.5 });
	op1("aten.cumsum.default", "{\"args\": [{\"input\": 0}, -1]}", in, 1,
	    NPU_DT_I64, 1, (int64_t[]){ 3 }, (double[]){ 1, 1, 2 });
	/* a condition of lower rank than both branches (causal masks) */
	in[1] = tens(NPU_DT_F32, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 2, 3, 4, 5, 6 });
	in[2] = tens(NPU_DT_F32, 3, (int64_t[]){ 2, 2, 3 },
		     (double[]){ -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12 });
	op1("aten.where.self", NULL, in, 3, NPU_DT_F32, 3, (int64_t[]){ 2, 2, 3 },
	    (double[]){ 1, -2, 3, 4, -5, 6, 1, -8, 3, 4, -11, 6 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
}
END_TEST

START_TEST(quantize_exact)
{
	npu_reftensor in[1];

	/* x / 0.05 lands on .5 ties after the fp32 multiply by 1/scale;
	 * PyTorch rounds half to even, adds the zero point, clamps */
	in[0] = tens(NPU_DT_F32, 1, (int64_t[]){ 6 },
		     (double[]){ (float)0.025, (float)0.075, (float)-0.025, 100, -100,
				 (float)0.125 });
	op1("quantized_decomposed.quantize_per_tensor.default",
	    "{\"args\": [{\"input\": 0}, 0.05, 3, -128, 127, {\"dtype\": \"int8\"}]}",
	    in, 1, NPU_DT_I8, 1, (int64_t[]){ 6 },
	    (double[]){ 3, 5, 3, 127, -128, 5 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_I8, 1, (int64_t[]){ 2 }, (double[]){ -128, 127 });
	op1("quantized_decomposed.dequantize_per_tensor.default",
	    "{\"args\": [{\"input\": 0}, 0.5, 3, -128, 127, {\"dtype\": \"int8\"}]}",
	    in, 1, NPU_DT_F32, 1, (int64_t[]){ 2 }, (double[]){ -65.5, 62 });
	npu_reftensor_free(&in[0]);
}
END_TEST

START_TEST(shape_semantics)
{
	npu_reftensor in[2];
	double v[24];

	for (int i = 0; i < 24; i++)
		v[i] = i;
	in[0] = tens(NPU_DT_F32, 3, (int64_t[]){ 2, 3, 4 }, v);
	op1("aten.permute.default", "{\"args\": [{\"input\": 0}, [2, 0, 1]]}", in, 1,
	    NPU_DT_F32, 3, (int64_t[]){ 4, 2, 3 },
	    (double[]){ 0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21,
			2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23 });
	op1("aten.slice.Tensor", "{\"args\": [{\"input\": 0}, -1, -3, "
	    "9223372036854775807, 2]}", in, 1, NPU_DT_F32, 3, (int64_t[]){ 2, 3, 2 },
	    (double[]){ 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23 });
	op1("aten.select.int", "{\"args\": [{\"input\": 0}, 1, -1]}", in, 1,
	    NPU_DT_F32, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 8, 9, 10, 11, 20, 21, 22, 23 });
	op1("aten.view.default", "{\"args\": [{\"input\": 0}, [-1, 12]]}", in, 1,
	    NPU_DT_F32, 2, (int64_t[]){ 2, 12 }, v);
	op1("aten.amax.default", "{\"args\": [{\"input\": 0}, [0, -1], true]}", in, 1,
	    NPU_DT_F32, 3, (int64_t[]){ 1, 3, 1 }, (double[]){ 15, 19, 23 });
	op1("aten.mean.dim", "{\"args\": [{\"input\": 0}, [0, 2]]}", in, 1,
	    NPU_DT_F32, 1, (int64_t[]){ 3 }, (double[]){ 7.5, 11.5, 15.5 });
	op1("aten.sum.dim_IntList", "{\"args\": [{\"input\": 0}, []]}", in, 1,
	    NPU_DT_F32, 0, NULL, (double[]){ 276 });
	op1("aten.var.correction", "{\"args\": [{\"input\": 0}, [2]], \"kwargs\": "
	    "{\"correction\": 0}}", in, 1, NPU_DT_F32, 2, (int64_t[]){ 2, 3 },
	    (double[]){ 1.25, 1.25, 1.25, 1.25, 1.25, 1.25 });
	op1("aten.argmax.default", "{\"args\": [{\"input\": 0}]}", in, 1,
	    NPU_DT_I64, 0, NULL, (double[]){ 23 });
	op1("aten.constant_pad_nd.default", "{\"args\": [{\"input\": 0}, [1, -2], 7]}",
	    in, 1, NPU_DT_F32, 3, (int64_t[]){ 2, 3, 3 },
	    (double[]){ 7, 0, 1, 7, 4, 5, 7, 8, 9, 7, 12, 13, 7, 16, 17, 7, 20, 21 });
	in[1] = tens(NPU_DT_I64, 2, (int64_t[]){ 2, 1 }, (double[]){ 1, -1 });
	/* index with [None, idx]: the index dims replace dim 1 */
	op1("aten.index.Tensor", "{\"args\": [{\"input\": 0}, [null, {\"input\": 1}]]}",
	    in, 2, NPU_DT_F32, 4, (int64_t[]){ 2, 2, 1, 4 },
	    (double[]){ 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23 });
	npu_reftensor_free(&in[1]);
	in[1] = tens(NPU_DT_F32, 2, (int64_t[]){ 2, 4 }, (double[]){ -1, -2, -3, -4,
								  -5, -6, -7, -8 });
	op1("aten.select_scatter.default", "{\"args\": [{\"input\": 0}, {\"input\": 1},"
	    " 1, 0]}", in, 2, NPU_DT_F32, 3, (int64_t[]){ 2, 3, 4 },
	    (double[]){ -1, -2, -3, -4, 4, 5, 6, 7, 8, 9, 10, 11,
			-5, -6, -7, -8, 16, 17, 18, 19, 20, 21, 22, 23 });
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[0]);
}
END_TEST

START_TEST(multi_result_ops)
{
	npu_reftensor in[1], out[3];
	npu_err e = { "" };
	double v[12] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8 };

	in[0] = tens(NPU_DT_F32, 2, (int64_t[]){ 3, 4 }, v);
	ck_assert_msg(npu_ref_exec_op("aten.split.Tensor", "{\"args\": [{\"input\": 0},"
				      " 3, 1]}", in, 1, out, 2, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(out[0].shape[1], 3);
	ck_assert_int_eq(out[1].shape[1], 1);
	ck_assert_double_eq(out[1].data[2], 8);
	npu_reftensor_free(&out[0]);
	npu_reftensor_free(&out[1]);
	ck_assert_int_eq(npu_ref_exec_op("aten.max.dim", "{\"args\": [{\"input\": 0}, 1]}",
					 in, 1, out, 2, &e), 0);
	ck_assert_double_eq(out[0].data[1], 9);
	ck_assert_double_eq(out[1].data[1], 1);
	ck_assert_int_eq(out[1].dtype, NPU_DT_I64);
	npu_reftensor_free(&out[0]);
	npu_reftensor_free(&out[1]);
	/* the caller's result count is checked */
	ck_assert_int_eq(npu_ref_exec_op("aten.max.dim", "{\"args\": [{\"input\": 0}, 1]}",
					 in, 1, out, 3, &e), -1);
	ck_assert_str_eq(e.msg, "aten.max.dim: 2 results, the caller expects 3");
	ck_assert_int_eq(npu_ref_exec_op("aten.frobnicate.default", NULL, in, 1, out, 1, &e), -1);
	ck_assert_str_eq(e.msg, "aten.frobnicate.default: unsupported operator");
	ck_assert_int_eq(npu_ref_exec_op("aten.permute.default", "{\"args\": "
					 "[{\"input\": 0}, [0, 0]]}", in, 1, out, 1, &e), -1);
	ck_assert_str_eq(e.msg, "aten.permute.default: repeated dim in permute");
	ck_assert_int_eq(npu_ref_exec_op("aten.relu.default", "{\"args\": [{\"input\": 5}]}",
					 in, 1, out, 1, &e), -1);
	ck_assert_str_eq(e.msg, "aten.relu.default: attrs: bad input index");
	npu_reftensor_free(&in[0]);
}
END_TEST

/* conv against a direct loop, with groups, stride, padding, dilation; and
 * its backward against finite sums. */
START_TEST(conv_semantics)
{
	npu_reftensor in[3], out[3];
	npu_err e = { "" };
	double x[2 * 4 * 5 * 6], w[6 * 2 * 3 * 2], b[6];
	const char *attrs = "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2},"
			    " [2, 1], [1, 2], [2, 2], false, [0, 0], 2]}";

	for (int i = 0; i < 240; i++)
		x[i] = sin(i * 0.37);
	for (int i = 0; i < 72; i++)
		w[i] = cos(i * 0.11);
	for (int i = 0; i < 6; i++)
		b[i] = i * 0.5;
	in[0] = tens(NPU_DT_F32, 4, (int64_t[]){ 2, 4, 5, 6 }, x);
	in[1] = tens(NPU_DT_F32, 4, (int64_t[]){ 6, 2, 3, 2 }, w);
	in[2] = tens(NPU_DT_F32, 1, (int64_t[]){ 6 }, b);
	ck_assert_msg(npu_ref_exec_op("aten.convolution.default", attrs, in, 3, out, 1,
				      &e) == 0, "%s", e.msg);
	/* oh = (5 + 2 - 2*2 - 1)/2 + 1 = 2; ow = (6 + 4 - 2*1 - 1)/1 + 1 = 8 */
	ck_assert_int_eq(out[0].shape[2], 2);
	ck_assert_int_eq(out[0].shape[3], 8);
	for (int n = 0; n < 2; n++)
		for (int o = 0; o < 6; o++)
			for (int oy = 0; oy < 2; oy++)
				for (int ox = 0; ox < 8; ox++) {
					double s = b[o];
					int g = o / 3;
					for (int c = 0; c < 2; c++)
						for (int i = 0; i < 3; i++)
							for (int j = 0; j < 2; j++) {
								int yy = oy * 2 - 1 + i * 2, xx = ox - 2 + j * 2;
								if (yy < 0 || yy >= 5 || xx < 0 || xx >= 6)
									continue;
								s += x[((n * 4 + g * 2 + c) * 5 + yy) * 6 + xx] *
								     w[((o * 2 + c) * 3 + i) * 2 + j];
							}
					ck_assert_double_eq_tol(out[0].data[((n * 6 + o) * 2 + oy) * 8 + ox],
								s, 1e-12);
				}
	/* backward with grad_output = 1: grad_bias = N*oh*ow, grad_weight =
	 * sums of the input windows, grad_input = sums of the weights over
	 * the windows that read each input (checked by total) */
	npu_reftensor go;
	double ones[2 * 6 * 2 * 8], gwsum = 0, gxsum = 0, xwin = 0, wsum = 0;
	npu_reftensor_free(&out[0]);
	for (int i = 0; i < 192; i++)
		ones[i] = 1;
	go = tens(NPU_DT_F32, 4, (int64_t[]){ 2, 6, 2, 8 }, ones);
	npu_reftensor bin[3] = { go, in[0], in[1] };
	ck_assert_msg(npu_ref_exec_op("aten.convolution_backward.default",
				      "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2},"
				      " [6], [2, 1], [1, 2], [2, 2], false, [0, 0], 2,"
				      " [true, true, true]]}", bin, 3, out + 0, 3, &e) == 0,
		      "%s", e.msg);
	ck_assert_double_eq(out[2].data[0], 32);
	for (int i = 0; i < 72; i++)
		gwsum += out[1].data[i];
	for (int i = 0; i < 240; i++)
		gxsum += out[0].data[i];
	for (int o = 0; o < 6; o++)
		for (int c = 0; c < 2; c++)
			for (int i = 0; i < 3; i++)
				for (int j = 0; j < 2; j++)
					for (int n = 0; n < 2; n++)
						for (int oy = 0; oy < 2; oy++)
							for (int ox = 0; ox < 8; ox++) {
								int yy = oy * 2 - 1 + i * 2, xx = ox - 2 + j * 2;
								if (yy < 0 || yy >= 5 || xx < 0 || xx >= 6)
									continue;
								xwin += x[((n * 4 + o / 3 * 2 + c) * 5 + yy) * 6 + xx];
								wsum += w[((o * 2 + c) * 3 + i) * 2 + j];
							}
	ck_assert_double_eq_tol(gwsum, xwin, 1e-9);
	ck_assert_double_eq_tol(gxsum, wsum, 1e-9);
	for (int k = 0; k < 3; k++) {
		npu_reftensor_free(&out[k]);
		npu_reftensor_free(&in[k]);
	}
	npu_reftensor_free(&go);
}
END_TEST

/* A transposed convolution against its definition, a direct scatter:
 * y[n, g*og + o, iy*s - p + i*d (+op), ...] += x[n, c, iy, ix] * w[c, o, i, j]
 * with groups 2, stride (2, 3), padding (1, 0), dilation (1, 2),
 * output_padding (1, 2), and a bias. */
START_TEST(conv_transposed_semantics)
{
	npu_reftensor in[3], out[1];
	npu_err e = { "" };
	double x[2 * 4 * 3 * 4], w[4 * 3 * 3 * 2], b[6], want[2 * 6 * 7 * 14] = { 0 };
	const char *attrs = "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2},"
			    " [2, 3], [1, 0], [1, 2], true, [1, 2], 2]}";

	for (int i = 0; i < 96; i++)
		x[i] = sin(i * 0.29);
	for (int i = 0; i < 72; i++)
		w[i] = cos(i * 0.13);
	for (int i = 0; i < 6; i++)
		b[i] = i * 0.25 - 0.5;
	in[0] = tens(NPU_DT_F32, 4, (int64_t[]){ 2, 4, 3, 4 }, x);
	in[1] = tens(NPU_DT_F32, 4, (int64_t[]){ 4, 3, 3, 2 }, w);
	in[2] = tens(NPU_DT_F32, 1, (int64_t[]){ 6 }, b);
	ck_assert_msg(npu_ref_exec_op("aten.convolution.default", attrs, in, 3, out, 1,
				      &e) == 0, "%s", e.msg);
	/* oh = (3-1)*2 - 2 + 1*(3-1) + 1 + 1 = 6; ow = (4-1)*3 - 0 + 2*(2-1) + 2 + 1 = 14 */
	ck_assert_int_eq(out[0].shape[1], 6);
	ck_assert_int_eq(out[0].shape[2], 6);
	ck_assert_int_eq(out[0].shape[3], 14);
	for (int n = 0; n < 2; n++)
		for (int c = 0; c < 4; c++)
			for (int iy = 0; iy < 3; iy++)
				for (int ix = 0; ix < 4; ix++)
					for (int o = 0; o < 3; o++)
						for (int i = 0; i < 3; i++)
							for (int j = 0; j < 2; j++) {
								int yy = iy * 2 - 1 + i, xx = ix * 3 + j * 2;
								int oc = c / 2 * 3 + o;
								if (yy < 0 || yy >= 6 || xx >= 14)
									continue;
								want[((n * 6 + oc) * 7 + yy) * 14 + xx] +=
									x[((n * 4 + c) * 3 + iy) * 4 + ix] *
									w[((c * 3 + o) * 3 + i) * 2 + j];
							}
	for (int n = 0; n < 2; n++)
		for (int oc = 0; oc < 6; oc++)
			for (int yy = 0; yy < 6; yy++)
				for (int xx = 0; xx < 14; xx++)
					ck_assert_double_eq_tol(out[0].data[((n * 6 + oc) * 6 + yy) * 14 + xx],
								want[((n * 6 + oc) * 7 + yy) * 14 + xx] + b[oc],
								1e-12);
	npu_reftensor_free(&out[0]);
	for (int k = 0; k < 3; k++)
		npu_reftensor_free(&in[k]);
}
END_TEST

/* index_put: rows written by an index list, accumulating repeats (an
 * embedding's gradient) or keeping the last; fmod keeps the dividend's
 * sign where remainder takes the divisor's. */
START_TEST(index_put_fmod_semantics)
{
	npu_reftensor in[3];
	double self[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, idx[3] = { 2, 0, 2 };
	double vals[6] = { 10, 20, 30, 40, 50, 60 }, x[4] = { -7, 7, -7.5, 7.5 };

	in[0] = tens(NPU_DT_F32, 2, (int64_t[]){ 4, 2 }, self);
	in[1] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 }, idx);
	in[2] = tens(NPU_DT_F32, 2, (int64_t[]){ 3, 2 }, vals);
	op1("aten.index_put.default", "{\"args\": [{\"input\": 0}, [{\"input\": 1}], "
	    "{\"input\": 2}, true]}", in, 3, NPU_DT_F32, 2, (int64_t[]){ 4, 2 },
	    (double[]){ 31, 42, 3, 4, 65, 86, 7, 8 });
	op1("aten.index_put.default", "{\"args\": [{\"input\": 0}, [{\"input\": 1}], "
	    "{\"input\": 2}]}", in, 3, NPU_DT_F32, 2, (int64_t[]){ 4, 2 },
	    (double[]){ 30, 40, 3, 4, 50, 60, 7, 8 });
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	/* a value broadcast over the indexed column */
	in[1] = tens(NPU_DT_I64, 1, (int64_t[]){ 1 }, (double[]){ 1 });
	in[2] = tens(NPU_DT_F32, 1, (int64_t[]){ 1 }, (double[]){ -1 });
	op1("aten.index_put.default", "{\"args\": [{\"input\": 0}, [null, {\"input\": 1}], "
	    "{\"input\": 2}, false]}", in, 3, NPU_DT_F32, 2, (int64_t[]){ 4, 2 },
	    (double[]){ 1, -1, 3, -1, 5, -1, 7, -1 });
	for (int k = 0; k < 3; k++)
		npu_reftensor_free(&in[k]);
	in[0] = tens(NPU_DT_F32, 1, (int64_t[]){ 4 }, x);
	op1("aten.fmod.Scalar", "{\"args\": [{\"input\": 0}, 2]}", in, 1, NPU_DT_F32, 1,
	    (int64_t[]){ 4 }, (double[]){ -1, 1, -1.5, 1.5 });
	op1("aten.remainder.Scalar", "{\"args\": [{\"input\": 0}, 2]}", in, 1, NPU_DT_F32, 1,
	    (int64_t[]){ 4 }, (double[]){ 1, 1, 0.5, 1.5 });
	npu_reftensor_free(&in[0]);
}
END_TEST

START_TEST(pool_semantics)
{
	npu_reftensor in[1], out[2];
	npu_err e = { "" };
	double v[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

	in[0] = tens(NPU_DT_F32, 4, (int64_t[]){ 1, 1, 4, 4 }, v);
	ck_assert_msg(npu_ref_exec_op("aten.max_pool2d_with_indices.default",
				      "{\"args\": [{\"input\": 0}, [3, 3], [2, 2], [1, 1]]}",
				      in, 1, out, 2, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(out[0].shape[2], 2);
	ck_assert_double_eq(out[0].data[0], 6);
	ck_assert_double_eq(out[0].data[3], 16);
	ck_assert_double_eq(out[1].data[1], 7);
	npu_reftensor_free(&out[0]);
	npu_reftensor_free(&out[1]);
	op1("aten.avg_pool2d.default", "{\"args\": [{\"input\": 0}, [3, 3], [2, 2], "
	    "[1, 1], false, false]}", in, 1, NPU_DT_F32, 4, (int64_t[]){ 1, 1, 2, 2 },
	    (double[]){ 3.5, 5, 9.5, 11 });
	op1("aten.avg_pool2d.default", "{\"args\": [{\"input\": 0}, [3, 3], [2, 2], "
	    "[1, 1]]}", in, 1, NPU_DT_F32, 4, (int64_t[]){ 1, 1, 2, 2 },
	    (double[]){ 14.0 / 9, 30.0 / 9, 57.0 / 9, 99.0 / 9 });
	op1("aten._adaptive_avg_pool2d.default", "{\"args\": [{\"input\": 0}, [3, 1]]}",
	    in, 1, NPU_DT_F32, 4, (int64_t[]){ 1, 1, 3, 1 }, (double[]){ 4.5, 8.5, 12.5 });
	npu_reftensor_free(&in[0]);
}
END_TEST

START_TEST(symbolic_expressions)
{
	const char *names[] = { "s0", "s33" };
	int64_t vals[] = { 7, 4 }, v;
	npu_err e = { "" };

	ck_assert_int_eq(npu_ref_symeval("256*s33", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, 1024);
	ck_assert_int_eq(npu_ref_symeval("(s0 - 1)//2 + s33 % 3", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, 4);
	ck_assert_int_eq(npu_ref_symeval("-s0//2", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, -4);
	ck_assert_int_eq(npu_ref_symeval("s9 + 1", names, vals, 2, &v, &e), -1);
	ck_assert_str_eq(e.msg, "unbound symbol 's9'");
	ck_assert_int_eq(npu_ref_symeval("s0 +", names, vals, 2, &v, &e), -1);
	ck_assert_int_eq(npu_ref_symeval("s0 / (s33 - 4)", names, vals, 2, &v, &e), -1);
}
END_TEST

static const npu_reftensor *one_lookup(void *ctx, const char *name)
{
	return !strcmp(name, "x") ? ctx : NULL;
}

START_TEST(graph_errors_name_the_node)
{
	static const char text[] =
		"{\"format\": \"fxgraph\", \"version\": 1, \"graph_kind\": \"inference\","
		" \"nodes\": [{\"name\": \"x\", \"op\": \"placeholder\", \"target\": \"x\","
		" \"args\": [], \"kwargs\": {}, \"meta\": {\"shape\": [4], \"dtype\": \"float32\"}},"
		" {\"name\": \"r\", \"op\": \"call_function\", \"target\": \"aten.relu.default\","
		" \"args\": [{\"node\": \"x\"}], \"kwargs\": {}, \"meta\": {\"shape\": [4],"
		" \"dtype\": \"float32\"}},"
		" {\"name\": \"f\", \"op\": \"call_function\", \"target\": \"aten.frob.default\","
		" \"args\": [{\"node\": \"r\"}], \"kwargs\": {}},"
		" {\"name\": \"output\", \"op\": \"output\", \"target\": \"output\","
		" \"args\": [[{\"node\": \"f\"}]], \"kwargs\": {}}]}";
	npu_graph *g;
	npu_err e = { "" };
	npu_reftensor x = tens(NPU_DT_F32, 1, (int64_t[]){ 4 }, (double[]){ 1, 2, 3, 4 });
	npu_reftensor bad = tens(NPU_DT_F32, 1, (int64_t[]){ 3 }, (double[]){ 1, 2, 3 });
	npu_refenv env = { NPU_REF_FP64, one_lookup, &x };
	npu_reftensor *outs;
	int nout;

	ck_assert_int_eq(npu_graph_parse(&g, "graph.json", text, strlen(text), &e), 0);
	ck_assert_int_eq(npu_ref_run(g, &env, &outs, &nout, &e), -1);
	ck_assert_str_eq(e.msg, "graph.json: node 'f' (aten.frob.default): "
			 "unsupported operator");
	env.ctx = &bad;
	ck_assert_int_eq(npu_ref_run(g, &env, &outs, &nout, &e), -1);
	ck_assert_str_eq(e.msg, "graph.json: node 'x' (x): input: result is "
			 "float32[3], meta says dim 0 is 4");
	env.lookup = NULL;
	ck_assert_int_eq(npu_ref_run(g, &env, &outs, &nout, &e), -1);
	ck_assert_str_eq(e.msg, "graph.json: node 'x' (x): no value given for 'x'");
	npu_graph_free(g);
	npu_reftensor_free(&x);
	npu_reftensor_free(&bad);
}
END_TEST

static Suite *ref_suite(void)
{
	Suite *s = suite_create("ref");
	TCase *tc = tcase_create("fixtures");
	int nfix = (int)(sizeof fixtures / sizeof *fixtures);

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, fixture_torch, 0, nfix);
	tcase_add_loop_test(tc, fixture_fp64, 0, nfix);
	tcase_add_test(tc, graph_breaks_in_sequence);
	tcase_add_test(tc, resnet18_runs);
	suite_add_tcase(s, tc);
	tc = tcase_create("ops");
	tcase_add_test(tc, elementwise_semantics);
	tcase_add_test(tc, quantize_exact);
	tcase_add_test(tc, shape_semantics);
	tcase_add_test(tc, multi_result_ops);
	tcase_add_test(tc, conv_semantics);
	tcase_add_test(tc, conv_transposed_semantics);
	tcase_add_test(tc, index_put_fmod_semantics);
	tcase_add_test(tc, pool_semantics);
	tcase_add_test(tc, symbolic_expressions);
	tcase_add_test(tc, graph_errors_name_the_node);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ref_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
