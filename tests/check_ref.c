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

/* Runs one op expecting nout results and checks result k against want,
 * within 1e-12 of want's largest magnitude (the expected values are
 * PyTorch 1.13's fp64 results, whose last bits may differ from ours). */
static void opk(const char *target, const char *attrs, npu_reftensor *in,
		int nin, int nout, int k, int dt, int ndim, const int64_t *shape,
		const double *want)
{
	npu_reftensor out[4];
	npu_err e = { "" };
	double big = 0;
	int64_t n;

	ck_assert_int_le(nout, 4);
	ck_assert_msg(npu_ref_exec_op(target, attrs, in, nin, out, nout, &e) == 0,
		      "%s: %s", target, e.msg);
	ck_assert_msg(out[k].dtype == dt, "%s [%d]: dtype %s", target, k,
		      npu_dtype_torch(out[k].dtype));
	ck_assert_msg(out[k].ndim == ndim, "%s [%d]: rank %d", target, k, out[k].ndim);
	for (int i = 0; i < ndim; i++)
		ck_assert_msg(out[k].shape[i] == shape[i], "%s [%d]: dim %d is %lld",
			      target, k, i, (long long)out[k].shape[i]);
	n = npu_reftensor_numel(&out[k]);
	for (int64_t i = 0; i < n; i++)
		if (isfinite(want[i]) && fabs(want[i]) > big)
			big = fabs(want[i]);
	for (int64_t i = 0; i < n; i++) {
		double a = out[k].data[i], b = want[i];
		ck_assert_msg(isnan(b) ? isnan(a) : !isfinite(b) ? a == b :
			      fabs(a - b) <= 1e-12 * big,
			      "%s [%d][%lld]: %.17g, want %.17g", target, k, (long long)i,
			      a, b);
	}
	for (int j = 0; j < nout; j++)
		npu_reftensor_free(&out[j]);
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
	{
		/* an 8-d input indexed at its two middle dims by [2, 1] and
		 * [1, 2]: their [2, 2] replaces them, rank 8 (as F.fold's
		 * gathers in MobileViTv2 make), not 10 */
		int64_t sh8[8] = { 1, 1, 1, 2, 3, 1, 1, 1 }, want8[8] = { 1, 1, 1, 2, 2, 1, 1, 1 };
		npu_reftensor x8 = tens(NPU_DT_F32, 8, sh8, (double[]){ 0, 1, 2, 3, 4, 5 }), i8[3];
		i8[0] = x8;
		i8[1] = tens(NPU_DT_I64, 2, (int64_t[]){ 2, 1 }, (double[]){ 1, 0 });
		i8[2] = tens(NPU_DT_I64, 2, (int64_t[]){ 1, 2 }, (double[]){ 2, 0 });
		op1("aten.index.Tensor", "{\"args\": [{\"input\": 0}, [null, null, null, "
		    "{\"input\": 1}, {\"input\": 2}]]}", i8, 3, NPU_DT_F32, 8, want8,
		    (double[]){ 5, 3, 2, 0 });
		for (int i = 0; i < 3; i++)
			npu_reftensor_free(&i8[i]);
	}
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

/* npusim.fft_real (the graph reader's fold of view_as_real over
 * _fft_c2c or _fft_r2c) against PyTorch 1.13's pocketfft in fp64: a
 * forward transform over two dims, a onesided one normalized by
 * 1/sqrt(n), an inverse one by 1/n. */
START_TEST(fft_real_semantics)
{
	static const double want_a[] = {
		3.8721665719764764, 0, 0.23545986947613451, -0.51651972620585263, 0.3628221387987467,
		0, 0.23545986947613451, 0.51651972620585263, 0.96131975792149393, -3.9966788156580364,
		-0.97661899866507718, 1.5020250815925889, -1.05595037842467, 0.28716952107664118,
		-1.2817046056954924, -0.61674440575852074, 0.96131975792149393, 3.9966788156580364,
		-1.2817046056954924, 0.61674440575852074, -1.05595037842467, -0.28716952107664118,
		-0.97661899866507718, -1.5020250815925889, 0.82555366411057152, 0,
		-0.85436405978674645, 0.79444153573087317, -0.7955311235360073, 0,
		-0.85436405978674645, -0.79444153573087317, -5.6931642716257489, 2.5531809967697399,
		1.0805617242469951, 0.66556200601050808, 0.11081717133381419, 0.64310395813352172,
		-0.43764741789549377, 0.48200363626267873, -5.6931642716257489, -2.5531809967697399,
		-0.43764741789549377, -0.48200363626267873, 0.11081717133381419, -0.64310395813352172,
		1.0805617242469951, -0.66556200601050808
	};
	static const double want_b[] = {
		-0.56167480854447671, 0, -0.2633163698145693, 0.30408533940402166,
		-0.27376527618418844, 0, 1.4059376214605743, 0, -0.18522616109682732,
		0.083176670427077687, -0.12950150503063107, 0, 0.81663210461111235, 0,
		0.22972685597469511, -0.28900181175371031, 0.25028105252078792, 0, 1.9275237019972202,
		0, -0.21347718496980747, 0.073568551016090764, -0.13849650769980151, 0,
		0.91179284630280089, 0, 0.32616341244597702, -0.39234557738787401,
		0.34667292827436125, 0, -1.7621762248987971, 0, 0.27262471786440612,
		-0.14471777272238298, 0.20136330282867232, 0
	};
	static const double want_c[] = {
		0.48290050731828865, 0, -0.16857197790703626, -0.13352081342877142,
		-0.14575655150421613, 0, -0.16857197790703626, 0.13352081342877142,
		0.81944146535907569, 0, 0.049828843075388318, 0.10930771532200595,
		0.076781693027787701, 0, 0.049828843075388318, -0.10930771532200595,
		-0.3343003296832453, 0, 0.17760810220068157, 0.15334302965822863, 0.15968039317611507,
		0, 0.17760810220068157, -0.15334302965822863, -0.88006457326174392, 0,
		-0.017620812786270451, -0.081499992123225173, -0.047824731739031567, 0,
		-0.017620812786270451, 0.081499992123225173, 0.17470656070098176, 0,
		-0.18080351764010683, -0.16812250301751117, -0.16835308540881075, 0,
		-0.18080351764010683, 0.16812250301751117, 0.91174642858840504, 0,
		-0.015166684520309309, 0.051012111208018046, 0.017295036263840546, 0,
		-0.015166684520309309, -0.051012111208018046
	};
	double x[24];
	npu_reftensor in[1];

	for (int i = 0; i < 24; i++)
		x[i] = sin(i * 0.37);
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 3, 4 }, x);
	opk("npusim.fft_real.default", "{\"args\": [{\"input\": 0}, [1, 2], 0, true, false]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 2, 3, 4, 2 }, want_a);
	opk("npusim.fft_real.default", "{\"args\": [{\"input\": 0}, [0, 2], 1, true, true]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 2, 3, 3, 2 }, want_b);
	opk("npusim.fft_real.default", "{\"args\": [{\"input\": 0}, [-1], 2, false, false]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 2, 3, 4, 2 }, want_c);
	npu_reftensor_free(&in[0]);
}
END_TEST

/* <gy, conv3d(x, w)> through the forward reference (groups 2, stride
 * (1, 2, 1), padding (1, 1, 0), dilation (1, 1, 2), no bias). */
#define C3_ATTRS "[1, 2, 1], [1, 1, 0], [1, 1, 2], false, [0, 0, 0], 2"
static double conv3_dot(const double *x, const double *w, const double *gy)
{
	npu_reftensor in[2], y;
	npu_err e = { "" };
	double s = 0;

	in[0] = tens(NPU_DT_F64, 5, (int64_t[]){ 2, 4, 3, 5, 4 }, x);
	in[1] = tens(NPU_DT_F64, 5, (int64_t[]){ 6, 2, 2, 3, 2 }, w);
	ck_assert_msg(npu_ref_exec_op("aten.convolution.default",
				      "{\"args\": [{\"input\": 0}, {\"input\": 1}, null, "
				      C3_ATTRS "]}", in, 2, &y, 1, &e) == 0, "%s", e.msg);
	/* od = (3 + 2 - 1 - 1) + 1, oh = (5 + 2 - 2 - 1) / 2 + 1, ow = (4 - 2 - 1) + 1 */
	ck_assert_int_eq(npu_reftensor_numel(&y), 2 * 6 * 4 * 3 * 2);
	for (int i = 0; i < 2 * 6 * 4 * 3 * 2; i++)
		s += gy[i] * y.data[i];
	npu_reftensor_free(&y);
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	return s;
}

/* The gradients of a 3-d convolution, element by element, against the
 * forward reference: grad_input[i] = <gy, conv3d(e_i, w)>, grad_weight[j]
 * = <gy, conv3d(x, e_j)> (exact: the convolution is linear in each), and
 * grad_bias the sums of gy. */
START_TEST(conv3d_backward_semantics)
{
	enum { NX = 2 * 4 * 3 * 5 * 4, NW = 6 * 2 * 2 * 3 * 2, NY = 2 * 6 * 4 * 3 * 2 };
	static double x[NX], w[NW], gy[NY], one[NX > NW ? NX : NW];
	npu_reftensor in[3], out[3];
	npu_err e = { "" };

	for (int i = 0; i < NX; i++)
		x[i] = sin(i * 0.37);
	for (int i = 0; i < NW; i++)
		w[i] = cos(i * 0.11);
	for (int i = 0; i < NY; i++)
		gy[i] = sin(i * 0.23 + 1);
	in[0] = tens(NPU_DT_F64, 5, (int64_t[]){ 2, 6, 4, 3, 2 }, gy);
	in[1] = tens(NPU_DT_F64, 5, (int64_t[]){ 2, 4, 3, 5, 4 }, x);
	in[2] = tens(NPU_DT_F64, 5, (int64_t[]){ 6, 2, 2, 3, 2 }, w);
	ck_assert_msg(npu_ref_exec_op("aten.convolution_backward.default",
				      "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2},"
				      " [6], " C3_ATTRS ", [true, true, true]]}",
				      in, 3, out, 3, &e) == 0, "%s", e.msg);
	for (int i = 0; i < NX; i++) {
		one[i] = 1;
		ck_assert_double_eq_tol(out[0].data[i], conv3_dot(one, w, gy), 1e-12);
		one[i] = 0;
	}
	for (int j = 0; j < NW; j++) {
		one[j] = 1;
		ck_assert_double_eq_tol(out[1].data[j], conv3_dot(x, one, gy), 1e-12);
		one[j] = 0;
	}
	for (int o = 0; o < 6; o++) {
		double s = 0;
		for (int n = 0; n < 2; n++)
			for (int i = 0; i < 24; i++)
				s += gy[(n * 6 + o) * 24 + i];
		ck_assert_double_eq_tol(out[2].data[o], s, 1e-12);
	}
	for (int k = 0; k < 3; k++) {
		npu_reftensor_free(&out[k]);
		npu_reftensor_free(&in[k]);
	}
	/* a transposed one's gradient is refused, clearly */
	in[0] = tens(NPU_DT_F64, 5, (int64_t[]){ 2, 6, 4, 3, 2 }, gy);
	in[1] = tens(NPU_DT_F64, 5, (int64_t[]){ 2, 4, 3, 5, 4 }, x);
	in[2] = tens(NPU_DT_F64, 5, (int64_t[]){ 6, 2, 2, 3, 2 }, w);
	ck_assert_int_lt(npu_ref_exec_op("aten.convolution_backward.default",
					 "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2},"
					 " [6], [1, 1, 1], [0, 0, 0], [1, 1, 1], true, [0, 0, 0], 1,"
					 " [true, true, true]]}", in, 3, out, 3, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "transposed"));
	for (int k = 0; k < 3; k++)
		npu_reftensor_free(&in[k]);
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

START_TEST(new_elementwise_semantics)
{
	npu_reftensor in[6];

	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 7 },
		     (double[]){ -0.9, -0.5, 0, 0.3, 0.99, 1.5, NAN });
	opk("aten.acos.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 7 },
	    (double[]){ 2.6905658417935308, 2.0943951023931957,
			1.5707963267948966, 1.2661036727794992, 0.1415394733244273,
			NAN, NAN });
	opk("aten.asin.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 7 },
	    (double[]){ -1.1197695149986342, -0.5235987755982989, 0,
			0.30469265401539747, 1.4292568534704693, NAN, NAN });
	opk("aten.atan.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 7 },
	    (double[]){ -0.7328151017865066, -0.4636476090008061, 0,
			0.2914567944778671, 0.7803730800666359, 0.982793723247329, NAN });
	opk("aten.atanh.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 7 },
	    (double[]){ -1.4722194895832204, -0.5493061443340548, 0,
			0.30951960420311175, 2.6466524123622457, NAN, NAN });
	opk("aten.tan.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 7 },
	    (double[]){ -1.2601582175503392, -0.5463024898437905, 0,
			0.30933624960962325, 1.5236767410179022, 14.101419947171719,
			NAN });
	opk("aten.sinh.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 7 },
	    (double[]){ -1.0265167257081753, -0.5210953054937474, 0,
			0.3045202934471426, 1.1598288906636083, 2.1292794550948173,
			NAN });
	opk("aten.cosh.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 7 },
	    (double[]){ 1.4330863854487745, 1.1276259652063807, 1,
			1.0453385141288605, 1.5314055816856538, 2.352409615243247, NAN });
	opk("aten.asinh.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 7 },
	    (double[]){ -0.8088669356527824, -0.48121182505960347, 0,
			0.29567304756342244, 0.8742848121872949, 1.1947632172871094,
			NAN });
	/* NaN below 1, 0 at 1 */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 6 },
		     (double[]){ 0.5, 1, 1.5, 10, -INFINITY, INFINITY });
	opk("aten.acosh.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 6 },
	    (double[]){ NAN, 0, 0.9624236501192069, 2.993222846126381, NAN,
			INFINITY });
	/* -inf at 0, NaN below */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 6 },
		     (double[]){ 0.001, 1, 50, 0, -1, INFINITY });
	opk("aten.log10.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 6 },
	    (double[]){ -3, 0, 1.6989700043360187, -INFINITY, NAN, INFINITY });
	/* the special functions the NPU leaves to the host, against
	 * PyTorch's float64 values */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 7 },
		     (double[]){ -2.5, -0.5, 0, 0.3, 1.7, 30, NAN });
	opk("aten.erfc.default", "{\"args\": [{\"input\": 0}]}", in, 1, 1, 0, NPU_DT_F64, 1,
	    (int64_t[]){ 7 }, (double[]){ 1.999593047982555, 1.5204998778130465, 1.0,
	    0.6713732405408726, 0.01620954140922544, 0.0, NAN });
	opk("aten.lgamma.default", "{\"args\": [{\"input\": 0}]}", in, 1, 1, 0, NPU_DT_F64, 1,
	    (int64_t[]){ 7 }, (double[]){ -0.05624371649767405, 1.2655121234846454, INFINITY,
	    1.0957979948180756, -0.09580769740706588, 71.25703896716801, NAN });
	opk("aten.digamma.default", "{\"args\": [{\"input\": 0}]}", in, 1, 1, 0, NPU_DT_F64, 1,
	    (int64_t[]){ 7 }, (double[]){ 1.1031566406452433, 0.03648997397857639, -INFINITY,
	    -3.502524222200133, 0.20854787487349372, 3.384438132685525, NAN });
	opk("aten.i0.default", "{\"args\": [{\"input\": 0}]}", in, 1, 1, 0, NPU_DT_F64, 1,
	    (int64_t[]){ 7 }, (double[]){ 3.289839144050123, 1.0634833707413236, 1.0,
	    1.0226268793515967, 1.8639649620738397, 781672297823.9775, NAN });
	opk("aten.special_erfcx.default", "{\"args\": [{\"input\": 0}]}", in, 1, 1, 0, NPU_DT_F64,
	    1, (int64_t[]){ 7 }, (double[]){ 1035.8148429726227, 1.952360489182557, 1.0,
	    0.7345993345676554, 0.2916632970753434, 0.018795888861416754, NAN });
	opk("aten.angle.default", "{\"args\": [{\"input\": 0}]}", in, 1, 1, 0, NPU_DT_F64, 1,
	    (int64_t[]){ 7 }, (double[]){ M_PI, M_PI, 0, 0, 0, 0, NAN });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 7 },
		     (double[]){ -1, -0.999999, -0.5, 0, 1e-9, 0.75, 1 });
	/* at -0.999999 erfc(x) = 1 - |y| to 2e-16 (PyTorch's float64 gives
	 * -3.458910737283175, 5.5e-11 off: its Newton steps on erf(x) - y
	 * cancel near 1) */
	opk("aten.erfinv.default", "{\"args\": [{\"input\": 0}]}", in, 1, 1, 0, NPU_DT_F64, 1,
	    (int64_t[]){ 7 }, (double[]){ -INFINITY, -3.4589107372754988, -0.4769362762044699, 0.0,
	    8.86226925452758e-10, 0.8134198475976187, INFINITY });
	/* digamma: NaN at negative integers and -inf, -+inf at +-0 */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 6 },
		     (double[]){ -3, 0, -0.0, 2.5, -INFINITY, NAN });
	opk("aten.digamma.default", "{\"args\": [{\"input\": 0}]}", in, 1, 1, 0, NPU_DT_F64, 1,
	    (int64_t[]){ 6 }, (double[]){ NAN, -INFINITY, INFINITY, 0.7031566406452431, NAN, NAN });
	/* round by decimals (half to even), ldexp */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 5 },
		     (double[]){ 1.2345, -2.675, 1234.5, 0.125, -0.0 });
	opk("aten.round.decimals", "{\"args\": [{\"input\": 0}], \"kwargs\": {\"decimals\": 2}}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 5 },
	    (double[]){ 1.23, -2.68, 1234.5, 0.12, -0.0 });
	opk("aten.round.decimals", "{\"args\": [{\"input\": 0}], \"kwargs\": {\"decimals\": -1}}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 5 },
	    (double[]){ 0.0, -0.0, 1230.0, 0.0, -0.0 });
	in[1] = tens(NPU_DT_F64, 1, (int64_t[]){ 5 }, (double[]){ 1, -2, 3, 0.5, 4 });
	opk("aten.ldexp.Tensor", "{\"args\": [{\"input\": 0}, {\"input\": 1}]}", in, 2, 1, 0,
	    NPU_DT_F64, 1, (int64_t[]){ 5 },
	    (double[]){ 2.469, -0.66875, 9876.0, 0.1767766952966369, -0.0 });
	opk("aten.copysign.Tensor", "{\"args\": [{\"input\": 1}, {\"input\": 0}]}", in, 2, 1, 0,
	    NPU_DT_F64, 1, (int64_t[]){ 5 }, (double[]){ 1, -2, 3, 0.5, -4 });
	npu_reftensor_free(&in[1]);
	/* integers give float32 */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 },
		     (double[]){ 1, 0, -1 });
	opk("aten.atan.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F32, 1, (int64_t[]){ 3 },
	    (double[]){ 0.7853981633974483, 0, -0.7853981633974483 });
	/* broadcast [3,1] with [4]; the signs of zeros pick the quadrant */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 3, 1 },
		     (double[]){ 1, -0.0, 0 });
	in[1] = tens(NPU_DT_F64, 1, (int64_t[]){ 4 },
		     (double[]){ 0, -0.0, -1, 2 });
	opk("aten.atan2.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
	    in, 2, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 3, 4 },
	    (double[]){ 1.5707963267948966, 1.5707963267948966,
			2.356194490192345, 0.4636476090008061, -0.0,
			-3.141592653589793, -3.141592653589793, -0.0, 0,
			3.141592653589793, 3.141592653589793, 0 });
	opk("aten.atan2.out",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
	    in, 2, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 3, 4 },
	    (double[]){ 1.5707963267948966, 1.5707963267948966,
			2.356194490192345, 0.4636476090008061, -0.0,
			-3.141592653589793, -3.141592653589793, -0.0, 0,
			3.141592653589793, 3.141592653589793, 0 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_I64, 1, (int64_t[]){ 4 },
		     (double[]){ 5, -3, 12, 0 });
	opk("aten.bitwise_and.Scalar",
	    "{\"args\": [{\"input\": 0}, 6]}",
	    in, 1, 1, 0, NPU_DT_I64, 1, (int64_t[]){ 4 },
	    (double[]){ 4, 4, 4, 0 });
	opk("aten.bitwise_or.Scalar",
	    "{\"args\": [{\"input\": 0}, -8]}",
	    in, 1, 1, 0, NPU_DT_I64, 1, (int64_t[]){ 4 },
	    (double[]){ -3, -3, -4, -8 });
	opk("aten.bitwise_xor.Scalar",
	    "{\"args\": [{\"input\": 0}, 9]}",
	    in, 1, 1, 0, NPU_DT_I64, 1, (int64_t[]){ 4 },
	    (double[]){ 12, -12, 5, 9 });
	/* bool with a bool scalar stays bool */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_BOOL, 1, (int64_t[]){ 4 },
		     (double[]){ 1, 0, 1, 0 });
	opk("aten.bitwise_and.Scalar",
	    "{\"args\": [{\"input\": 0}, true]}",
	    in, 1, 1, 0, NPU_DT_BOOL, 1, (int64_t[]){ 4 },
	    (double[]){ 1, 0, 1, 0 });
	opk("aten.bitwise_xor.Scalar",
	    "{\"args\": [{\"input\": 0}, true]}",
	    in, 1, 1, 0, NPU_DT_BOOL, 1, (int64_t[]){ 4 },
	    (double[]){ 0, 1, 0, 1 });
	/* bool with an int scalar gives int64 */
	opk("aten.bitwise_or.Scalar",
	    "{\"args\": [{\"input\": 0}, 2]}",
	    in, 1, 1, 0, NPU_DT_I64, 1, (int64_t[]){ 4 },
	    (double[]){ 3, 2, 3, 2 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 4 },
		     (double[]){ 7.5, -7.5, 7, -0.5 });
	opk("aten.div.Scalar_mode",
	    "{\"args\": [{\"input\": 0}, 2], \"kwargs\": "
	    "{\"rounding_mode\": \"floor\"}}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 4 },
	    (double[]){ 3, -4, 3, -1 });
	opk("aten.div.Scalar_mode",
	    "{\"args\": [{\"input\": 0}, -2], \"kwargs\": "
	    "{\"rounding_mode\": \"trunc\"}}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 4 },
	    (double[]){ -3, 3, -3, 0 });
	/* integers stay int64 */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 },
		     (double[]){ 7, -7, 6 });
	opk("aten.div.Scalar_mode",
	    "{\"args\": [{\"input\": 0}, 2], \"kwargs\": "
	    "{\"rounding_mode\": \"floor\"}}",
	    in, 1, 1, 0, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 3, -4, 3 });
	/* None: true division, float32 */
	opk("aten.div.Scalar_mode",
	    "{\"args\": [{\"input\": 0}, 2], \"kwargs\": "
	    "{\"rounding_mode\": null}}",
	    in, 1, 1, 0, NPU_DT_F32, 1, (int64_t[]){ 3 },
	    (double[]){ 3.5, -3.5, 3 });
	/* NaN in any operand; min > max gives max */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 5 },
		     (double[]){ 1, 5, NAN, -3, 2 });
	in[1] = tens(NPU_DT_F64, 1, (int64_t[]){ 5 },
		     (double[]){ 0, NAN, 0, 0, 3 });
	in[2] = tens(NPU_DT_F64, 1, (int64_t[]){ 5 },
		     (double[]){ 4, 4, 4, NAN, 1 });
	opk("aten.clamp.Tensor",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}]}",
	    in, 3, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 5 },
	    (double[]){ 1, NAN, NAN, NAN, 1 });
	/* min only, broadcast */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
		     (double[]){ 1, 2, 3, 4, 5, 6 });
	in[1] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 1 },
		     (double[]){ 2, 5 });
	opk("aten.clamp.Tensor",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
	    in, 2, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
	    (double[]){ 2, 2, 3, 5, 5, 6 });
	/* max only, as a keyword */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
		     (double[]){ 1, 2, 3, 4, 5, 6 });
	in[1] = tens(NPU_DT_F64, 1, (int64_t[]){ 3 },
		     (double[]){ 2.5, 0, 10 });
	opk("aten.clamp.Tensor",
	    "{\"args\": [{\"input\": 0}], \"kwargs\": {\"max\": "
	    "{\"input\": 1}}}",
	    in, 2, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
	    (double[]){ 1, 0, 3, 2.5, 0, 6 });
	/* int self, float bounds: float32 */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 },
		     (double[]){ 1, 5, -3 });
	in[1] = tens(NPU_DT_F32, 1, (int64_t[]){ 1 },
		     (double[]){ 0.5 });
	opk("aten.clamp.Tensor",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, null]}",
	    in, 2, 1, 0, NPU_DT_F32, 1, (int64_t[]){ 3 },
	    (double[]){ 1, 5, 0.5 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
}
END_TEST

START_TEST(new_shape_semantics)
{
	npu_reftensor in[6];

	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 3, 4 },
		     (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
			16, 17, 18, 19, 20, 21, 22, 23 });
	opk("aten.flip.default",
	    "{\"args\": [{\"input\": 0}, [0, -1]]}",
	    in, 1, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 3, 4 },
	    (double[]){ 15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20, 3, 2,
			1, 0, 7, 6, 5, 4, 11, 10, 9, 8 });
	opk("aten.flip.default",
	    "{\"args\": [{\"input\": 0}, [1]]}",
	    in, 1, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 3, 4 },
	    (double[]){ 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23,
			16, 17, 18, 19, 12, 13, 14, 15 });
	opk("aten.flip.default",
	    "{\"args\": [{\"input\": 0}, []]}",
	    in, 1, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 3, 4 },
	    (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
			16, 17, 18, 19, 20, 21, 22, 23 });
	opk("aten.diagonal.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 4, 2 },
	    (double[]){ 0, 16, 1, 17, 2, 18, 3, 19 });
	/* offset above, negative dim1 */
	opk("aten.diagonal.default",
	    "{\"args\": [{\"input\": 0}, 1, -1, 0]}",
	    in, 1, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 3, 1 },
	    (double[]){ 12, 16, 20 });
	/* offset below */
	opk("aten.diagonal.default",
	    "{\"args\": [{\"input\": 0}, -1, 1, 2]}",
	    in, 1, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 2 },
	    (double[]){ 4, 9, 16, 21 });
	/* past the corner: empty */
	opk("aten.diagonal.default",
	    "{\"args\": [{\"input\": 0}, 5, 1, 2]}",
	    in, 1, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 0 },
	    (double[]){ 0 });
	/* self's dtype: int32 truncates */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_I32, 2, (int64_t[]){ 2, 2 },
		     (double[]){ 1, 2, 3, 4 });
	opk("aten.fill.Scalar",
	    "{\"args\": [{\"input\": 0}, 2.7]}",
	    in, 1, 1, 0, NPU_DT_I32, 2, (int64_t[]){ 2, 2 },
	    (double[]){ 2, 2, 2, 2 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 3, 4 },
		     (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
			16, 17, 18, 19, 20, 21, 22, 23 });
	opk("aten.fill.Scalar",
	    "{\"args\": [{\"input\": 0}, -1.5]}",
	    in, 1, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 3, 4 },
	    (double[]){ -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5,
			-1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5,
			-1.5, -1.5, -1.5, -1.5, -1.5 });
	/* zeros here (unspecified in PyTorch) */
	npu_reftensor_free(&in[0]);
	opk("aten.empty_strided.default",
	    "{\"args\": [[2, 3], [1, 2]], \"kwargs\": {\"dtype\": "
	    "{\"dtype\": \"int32\"}}}",
	    in, 0, 1, 0, NPU_DT_I32, 2, (int64_t[]){ 2, 3 },
	    (double[]){ 0, 0, 0, 0, 0, 0 });
	opk("aten.empty_strided.default",
	    "{\"args\": [[4], [1]]}",
	    in, 0, 1, 0, NPU_DT_F32, 1, (int64_t[]){ 4 },
	    (double[]){ 0, 0, 0, 0 });
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 1, 2, 5 },
		     (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 });
	opk("aten.reflection_pad1d.default",
	    "{\"args\": [{\"input\": 0}, [3, 2]]}",
	    in, 1, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 1, 2, 10 },
	    (double[]){ 3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 8, 7, 6, 5, 6, 7, 8, 9,
			8, 7 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 1, 3, 4 },
		     (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 });
	opk("aten.reflection_pad2d.default",
	    "{\"args\": [{\"input\": 0}, [1, 3, 2, 0]]}",
	    in, 1, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 1, 5, 8 },
	    (double[]){ 9, 8, 9, 10, 11, 10, 9, 8, 5, 4, 5, 6, 7, 6, 5, 4, 1,
			0, 1, 2, 3, 2, 1, 0, 5, 4, 5, 6, 7, 6, 5, 4, 9, 8, 9, 10, 11,
			10, 9, 8 });
	opk("aten.replication_pad2d.default",
	    "{\"args\": [{\"input\": 0}, [2, 0, 1, 3]]}",
	    in, 1, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 1, 7, 6 },
	    (double[]){ 0, 0, 0, 1, 2, 3, 0, 0, 0, 1, 2, 3, 4, 4, 4, 5, 6, 7,
			8, 8, 8, 9, 10, 11, 8, 8, 8, 9, 10, 11, 8, 8, 8, 9, 10, 11, 8,
			8, 8, 9, 10, 11 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 5, (int64_t[]){ 1, 1, 2, 3, 4 },
		     (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
			16, 17, 18, 19, 20, 21, 22, 23 });
	opk("aten.reflection_pad3d.default",
	    "{\"args\": [{\"input\": 0}, [1, 2, 2, 1, 1, 0]]}",
	    in, 1, 1, 0, NPU_DT_F64, 5, (int64_t[]){ 1, 1, 3, 6, 7 },
	    (double[]){ 21, 20, 21, 22, 23, 22, 21, 17, 16, 17, 18, 19, 18, 17,
			13, 12, 13, 14, 15, 14, 13, 17, 16, 17, 18, 19, 18, 17, 21, 20,
			21, 22, 23, 22, 21, 17, 16, 17, 18, 19, 18, 17, 9, 8, 9, 10,
			11, 10, 9, 5, 4, 5, 6, 7, 6, 5, 1, 0, 1, 2, 3, 2, 1, 5, 4, 5,
			6, 7, 6, 5, 9, 8, 9, 10, 11, 10, 9, 5, 4, 5, 6, 7, 6, 5, 21,
			20, 21, 22, 23, 22, 21, 17, 16, 17, 18, 19, 18, 17, 13, 12, 13,
			14, 15, 14, 13, 17, 16, 17, 18, 19, 18, 17, 21, 20, 21, 22, 23,
			22, 21, 17, 16, 17, 18, 19, 18, 17 });
	opk("aten.replication_pad3d.default",
	    "{\"args\": [{\"input\": 0}, [0, 1, 1, 0, 2, 1]]}",
	    in, 1, 1, 0, NPU_DT_F64, 5, (int64_t[]){ 1, 1, 5, 4, 5 },
	    (double[]){ 0, 1, 2, 3, 3, 0, 1, 2, 3, 3, 4, 5, 6, 7, 7, 8, 9, 10,
			11, 11, 0, 1, 2, 3, 3, 0, 1, 2, 3, 3, 4, 5, 6, 7, 7, 8, 9, 10,
			11, 11, 0, 1, 2, 3, 3, 0, 1, 2, 3, 3, 4, 5, 6, 7, 7, 8, 9, 10,
			11, 11, 12, 13, 14, 15, 15, 12, 13, 14, 15, 15, 16, 17, 18, 19,
			19, 20, 21, 22, 23, 23, 12, 13, 14, 15, 15, 12, 13, 14, 15, 15,
			16, 17, 18, 19, 19, 20, 21, 22, 23, 23 });
	npu_reftensor_free(&in[0]);
}
END_TEST

START_TEST(new_reduction_semantics)
{
	npu_reftensor in[6];

	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
		     (double[]){ 1, 2, 3, 4, 5, 6.5 });
	opk("aten.prod.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 0, NULL,
	    (double[]){ 780 });
	/* integers give int64 */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_I32, 1, (int64_t[]){ 3 },
		     (double[]){ 3, -2, 7 });
	opk("aten.prod.default",
	    "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_I64, 0, NULL,
	    (double[]){ -42 });
	/* NaN times 0 is NaN; dtype keyword */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F32, 1, (int64_t[]){ 3 },
		     (double[]){ 2, NAN, 0 });
	opk("aten.prod.default",
	    "{\"args\": [{\"input\": 0}], \"kwargs\": {\"dtype\": "
	    "{\"dtype\": \"float64\"}}}",
	    in, 1, 1, 0, NPU_DT_F64, 0, NULL,
	    (double[]){ NAN });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
		     (double[]){ 1, 2, 3, 4, 5, 6.5 });
	opk("aten.var.dim",
	    "{\"args\": [{\"input\": 0}, [1]]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 2 },
	    (double[]){ 1, 1.583333333333333 });
	/* biased, keepdim */
	opk("aten.var.dim",
	    "{\"args\": [{\"input\": 0}, [0], false, true]}",
	    in, 1, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 1, 3 },
	    (double[]){ 2.25, 2.25, 3.0625 });
	/* dim None: all */
	opk("aten.var.dim",
	    "{\"args\": [{\"input\": 0}, null]}",
	    in, 1, 1, 0, NPU_DT_F64, 0, NULL,
	    (double[]){ 4.041666666666667 });
	npu_reftensor_free(&in[0]);
}
END_TEST

START_TEST(scatter_reduce_semantics)
{
	npu_reftensor in[6];

	/* repeated indices add up; src larger than index */
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
		     (double[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
	in[1] = tens(NPU_DT_I64, 2, (int64_t[]){ 2, 3 },
		     (double[]){ 0, 0, 3, 2, 1, 2 });
	in[2] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
		     (double[]){ 10, 20, 30, 99, -1, NAN, 4, 99 });
	opk("aten.scatter_add.default",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}]}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 31, 2, 3, 34, 5, NAN, 10, 8 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
		     (double[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
	in[1] = tens(NPU_DT_I64, 2, (int64_t[]){ 2, 3 },
		     (double[]){ 0, 0, 3, 2, 1, 2 });
	in[2] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
		     (double[]){ 10, 20, 30, 99, -1, 3, 4, 99 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}, \"sum\"], \"kwargs\": {\"include_self\": true}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 31, 2, 3, 34, 5, 9, 10, 8 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}, \"sum\"], \"kwargs\": {\"include_self\": false}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 30, 2, 3, 30, 5, 3, 3, 8 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}, \"prod\"], \"kwargs\": {\"include_self\": true}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 200, 2, 3, 120, 5, 18, -28, 8 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}, \"prod\"], \"kwargs\": {\"include_self\": false}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 200, 2, 3, 30, 5, 3, -4, 8 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}, \"mean\"], \"kwargs\": {\"include_self\": true}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 10.333333333333334, 2, 3, 17, 5, 4.5,
			3.3333333333333335, 8 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}, \"mean\"], \"kwargs\": {\"include_self\": false}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 15, 2, 3, 30, 5, 3, 1.5, 8 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}, \"amax\"], \"kwargs\": {\"include_self\": true}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 20, 2, 3, 30, 5, 6, 7, 8 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}, \"amax\"], \"kwargs\": {\"include_self\": false}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 20, 2, 3, 30, 5, 3, 4, 8 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}, \"amin\"], \"kwargs\": {\"include_self\": true}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 1, 2, 3, 4, 5, 3, -1, 8 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, {\"input\": "
	    "2}, \"amin\"], \"kwargs\": {\"include_self\": false}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 4 },
	    (double[]){ 10, 2, 3, 30, 5, 3, -1, 8 });
	/* NaN wins amax */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 3 },
		     (double[]){ 1, 2, 3 });
	in[1] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 },
		     (double[]){ 0, 0, 2 });
	in[2] = tens(NPU_DT_F64, 1, (int64_t[]){ 3 },
		     (double[]){ 5, NAN, 9 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 0, {\"input\": 1}, {\"input\": "
	    "2}, \"amax\", false]}",
	    in, 3, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 3 },
	    (double[]){ NAN, 2, 9 });
	/* integer mean floor-divides */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	in[0] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 },
		     (double[]){ 1, -2, 3 });
	in[1] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 },
		     (double[]){ 0, 0, 2 });
	in[2] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 },
		     (double[]){ -5, -8, 9 });
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 0, {\"input\": 1}, {\"input\": "
	    "2}, \"mean\"], \"kwargs\": {\"include_self\": true}}",
	    in, 3, 1, 0, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ -4, -2, 6 });
	/* integer mean floor-divides */
	opk("aten.scatter_reduce.two",
	    "{\"args\": [{\"input\": 0}, 0, {\"input\": 1}, {\"input\": "
	    "2}, \"mean\"], \"kwargs\": {\"include_self\": false}}",
	    in, 3, 1, 0, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ -7, -2, 9 });
	/* self [3] and mask [2, 1] broadcast to [2, 3] */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 3 },
		     (double[]){ 0, 0, 0 });
	in[1] = tens(NPU_DT_BOOL, 2, (int64_t[]){ 2, 1 },
		     (double[]){ 1, 0 });
	in[2] = tens(NPU_DT_F64, 1, (int64_t[]){ 7 },
		     (double[]){ 1, 2, 3, 4, 5, 6, 7 });
	opk("aten.masked_scatter.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}]}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
	    (double[]){ 1, 2, 3, 0, 0, 0 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
		     (double[]){ 0, 1, 2, 3, 4, 5 });
	in[1] = tens(NPU_DT_BOOL, 1, (int64_t[]){ 3 },
		     (double[]){ 1, 0, 1 });
	in[2] = tens(NPU_DT_F64, 1, (int64_t[]){ 7 },
		     (double[]){ 1, 2, 3, 4, 5, 6, 7 });
	opk("aten.masked_scatter.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}]}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
	    (double[]){ 1, 1, 2, 3, 4, 4 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
}
END_TEST

START_TEST(embedding_semantics)
{
	npu_reftensor in[6];

	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 3, 2 },
		     (double[]){ -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5 });
	in[1] = tens(NPU_DT_I64, 2, (int64_t[]){ 2, 3 },
		     (double[]){ 1, 3, 1, 0, 1, 3 });
	opk("aten.embedding_dense_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 5, -1, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 5, 2 },
	    (double[]){ 2, 2.5, 3, 4.5, 0, 0, 4, 5, 0, 0 });
	opk("aten.embedding_dense_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 5, 3, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 5, 2 },
	    (double[]){ 2, 2.5, 3, 4.5, 0, 0, 0, 0, 0, 0 });
	opk("aten.embedding_dense_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 5, -1, true]}",
	    in, 2, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 5, 2 },
	    (double[]){ 2, 2.5, 1, 1.5, 0, 0, 2, 2.5, 0, 0 });
	opk("aten.embedding_dense_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 5, 1, true]}",
	    in, 2, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 5, 2 },
	    (double[]){ 2, 2.5, 0, 0, 0, 0, 2, 2.5, 0, 0 });
	/* mode 0, an empty bag */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F32, 2, (int64_t[]){ 4, 3 },
		     (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 });
	in[1] = tens(NPU_DT_I64, 1, (int64_t[]){ 5 },
		     (double[]){ 1, 2, 0, 3, 3 });
	in[2] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 },
		     (double[]){ 0, 2, 2 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 0]}",
	    in, 3, 4, 0, NPU_DT_F32, 2, (int64_t[]){ 3, 3 },
	    (double[]){ 9, 11, 13, 0, 0, 0, 18, 21, 24 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 0]}",
	    in, 3, 4, 1, NPU_DT_I64, 1, (int64_t[]){ 0 },
	    (double[]){ 0 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 0]}",
	    in, 3, 4, 2, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 0, 0, 0 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 0]}",
	    in, 3, 4, 3, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 0, 0, 0 });
	/* mode 1, an empty bag */
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 1]}",
	    in, 3, 4, 0, NPU_DT_F32, 2, (int64_t[]){ 3, 3 },
	    (double[]){ 4.5, 5.5, 6.5, 0, 0, 0, 6, 7, 8 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 1]}",
	    in, 3, 4, 1, NPU_DT_I64, 1, (int64_t[]){ 5 },
	    (double[]){ 0, 0, 2, 2, 2 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 1]}",
	    in, 3, 4, 2, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 2, 0, 3 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 1]}",
	    in, 3, 4, 3, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 2, 0, 3 });
	/* mode 2, an empty bag */
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 2]}",
	    in, 3, 4, 0, NPU_DT_F32, 2, (int64_t[]){ 3, 3 },
	    (double[]){ 6, 7, 8, 0, 0, 0, 9, 10, 11 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 2]}",
	    in, 3, 4, 1, NPU_DT_I64, 1, (int64_t[]){ 5 },
	    (double[]){ 0, 0, 2, 2, 2 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 2]}",
	    in, 3, 4, 2, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 2, 0, 3 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 2]}",
	    in, 3, 4, 3, NPU_DT_I64, 2, (int64_t[]){ 3, 3 },
	    (double[]){ 2, 2, 2, 0, 0, 0, 3, 3, 3 });
	/* padding_idx 3 skipped */
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 1, false, null, false, 3]}",
	    in, 3, 4, 0, NPU_DT_F32, 2, (int64_t[]){ 3, 3 },
	    (double[]){ 4.5, 5.5, 6.5, 0, 0, 0, 0, 1, 2 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 1, false, null, false, 3]}",
	    in, 3, 4, 1, NPU_DT_I64, 1, (int64_t[]){ 5 },
	    (double[]){ 0, 0, 2, 2, 2 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 1, false, null, false, 3]}",
	    in, 3, 4, 2, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 2, 0, 1 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 1, false, null, false, 3]}",
	    in, 3, 4, 3, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 2, 0, 1 });
	/* padding_idx 3 skipped */
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 2, false, null, false, 3]}",
	    in, 3, 4, 0, NPU_DT_F32, 2, (int64_t[]){ 3, 3 },
	    (double[]){ 6, 7, 8, 0, 0, 0, 0, 1, 2 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 2, false, null, false, 3]}",
	    in, 3, 4, 1, NPU_DT_I64, 1, (int64_t[]){ 5 },
	    (double[]){ 0, 0, 2, 2, 2 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 2, false, null, false, 3]}",
	    in, 3, 4, 2, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 2, 0, 1 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 2, false, null, false, 3]}",
	    in, 3, 4, 3, NPU_DT_I64, 2, (int64_t[]){ 3, 3 },
	    (double[]){ 2, 2, 2, 0, 0, 0, 0, 0, 0 });
	/* per_sample_weights, include_last_offset */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	in[0] = tens(NPU_DT_F32, 2, (int64_t[]){ 4, 3 },
		     (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 });
	in[1] = tens(NPU_DT_I64, 1, (int64_t[]){ 5 },
		     (double[]){ 1, 2, 0, 3, 3 });
	in[2] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 },
		     (double[]){ 0, 2, 5 });
	in[3] = tens(NPU_DT_F32, 1, (int64_t[]){ 5 },
		     (double[]){ 1, 2, 3, 4, 5 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 0, false, {\"input\": 3}, true]}",
	    in, 4, 4, 0, NPU_DT_F32, 2, (int64_t[]){ 2, 3 },
	    (double[]){ 15, 18, 21, 81, 93, 105 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 0, false, {\"input\": 3}, true]}",
	    in, 4, 4, 1, NPU_DT_I64, 1, (int64_t[]){ 0 },
	    (double[]){ 0 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 0, false, {\"input\": 3}, true]}",
	    in, 4, 4, 2, NPU_DT_I64, 1, (int64_t[]){ 2 },
	    (double[]){ 0, 0 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "false, 0, false, {\"input\": 3}, true]}",
	    in, 4, 4, 3, NPU_DT_I64, 1, (int64_t[]){ 2 },
	    (double[]){ 0, 0 });
	/* sum with padding_idx: offset2bag filled, bag_size zeros */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	npu_reftensor_free(&in[3]);
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 4, 3 },
		     (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 });
	in[1] = tens(NPU_DT_I64, 1, (int64_t[]){ 5 },
		     (double[]){ 1, 2, 0, 3, 3 });
	in[2] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 },
		     (double[]){ 0, 2, 2 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}], "
	    "\"kwargs\": {\"mode\": 0, \"padding_idx\": 2}}",
	    in, 3, 4, 0, NPU_DT_F64, 2, (int64_t[]){ 3, 3 },
	    (double[]){ 3, 4, 5, 0, 0, 0, 18, 21, 24 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}], "
	    "\"kwargs\": {\"mode\": 0, \"padding_idx\": 2}}",
	    in, 3, 4, 1, NPU_DT_I64, 1, (int64_t[]){ 5 },
	    (double[]){ 0, 0, 2, 2, 2 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}], "
	    "\"kwargs\": {\"mode\": 0, \"padding_idx\": 2}}",
	    in, 3, 4, 2, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 0, 0, 0 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}], "
	    "\"kwargs\": {\"mode\": 0, \"padding_idx\": 2}}",
	    in, 3, 4, 3, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 0, 0, 0 });
	/* an fp64 sum is off the fast path: offset2bag filled */
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}]}",
	    in, 3, 4, 0, NPU_DT_F64, 2, (int64_t[]){ 3, 3 },
	    (double[]){ 9, 11, 13, 0, 0, 0, 18, 21, 24 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}]}",
	    in, 3, 4, 1, NPU_DT_I64, 1, (int64_t[]){ 5 },
	    (double[]){ 0, 0, 2, 2, 2 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}]}",
	    in, 3, 4, 2, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 0, 0, 0 });
	opk("aten._embedding_bag.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}]}",
	    in, 3, 4, 3, NPU_DT_I64, 1, (int64_t[]){ 3 },
	    (double[]){ 0, 0, 0 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
}
END_TEST

START_TEST(resampling_semantics)
{
	npu_reftensor in[6];

	/* overlapping windows share a maximum: gradients add */
	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 2, 2 },
		     (double[]){ 1, -2, 3, 0.5 });
	in[1] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 4, 4 },
		     (double[]){ 1, 5, 3, 4, 5, 2, 7, 8, 9, 10, 11, 12, 13, 14, 16, 16 });
	in[2] = tens(NPU_DT_I64, 4, (int64_t[]){ 1, 1, 2, 2 },
		     (double[]){ 1, 7, 13, 14 });
	opk("aten.max_pool2d_with_indices_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, [3, 3], [2, 2], "
	    "[1, 1], [1, 1], false, {\"input\": 2}]}",
	    in, 3, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 1, 4, 4 },
	    (double[]){ 0, 1, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0, 0, 3, 0.5, 0 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 2, 2 },
		     (double[]){ -1.5, -0.5, 0.5, 1.5 });
	in[1] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 4, 4 },
		     (double[]){ 1, 5, 3, 4, 5, 2, 7, 8, 9, 10, 11, 12, 13, 14, 16, 16 });
	opk("aten.avg_pool2d_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, [3, 3], [2, 2], "
	    "[1, 1], false, true, null]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 1, 4, 4 },
	    (double[]){ -0.16666666666666666, -0.2222222222222222,
			-0.05555555555555555, -0.05555555555555555,
			-0.1111111111111111, 0, 0.1111111111111111, 0.1111111111111111,
			0.05555555555555555, 0.2222222222222222, 0.16666666666666666,
			0.16666666666666666, 0.05555555555555555, 0.2222222222222222,
			0.16666666666666666, 0.16666666666666666 });
	opk("aten.avg_pool2d_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, [3, 3], [2, 2], "
	    "[1, 1], false, false, null]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 1, 4, 4 },
	    (double[]){ -0.375, -0.4583333333333333, -0.08333333333333333,
			-0.08333333333333333, -0.2916666666666667,
			-0.20833333333333334, 0.08333333333333333, 0.08333333333333333,
			0.08333333333333333, 0.25, 0.16666666666666666,
			0.16666666666666666, 0.08333333333333333, 0.25,
			0.16666666666666666, 0.16666666666666666 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 3, 3 },
		     (double[]){ -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5 });
	in[1] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 4, 4 },
		     (double[]){ 1, 5, 3, 4, 5, 2, 7, 8, 9, 10, 11, 12, 13, 14, 16, 16 });
	opk("aten.avg_pool2d_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, [2, 3], [1, 2], "
	    "[0, 1], true, true, null]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 1, 4, 4 },
	    (double[]){ -0.25, -0.3333333333333333, -0.08333333333333333,
			0.04166666666666667, 0, 0.33333333333333337,
			0.33333333333333337, 1.3333333333333335, 1, 2.3333333333333335,
			1.3333333333333333, 3.8333333333333335, 0.75,
			1.6666666666666665, 0.9166666666666666, 2.5416666666666665 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 2, 2 },
		     (double[]){ -1.5, -0.5, 0.5, 1.5 });
	in[1] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 4, 4 },
		     (double[]){ 1, 5, 3, 4, 5, 2, 7, 8, 9, 10, 11, 12, 13, 14, 16, 16 });
	opk("aten.avg_pool2d_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, [2, 2], [2, 2], "
	    "[0, 0], false, true, 3]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 1, 4, 4 },
	    (double[]){ -0.5, -0.5, -0.16666666666666666, -0.16666666666666666,
			-0.5, -0.5, -0.16666666666666666, -0.16666666666666666,
			0.16666666666666666, 0.16666666666666666, 0.5, 0.5,
			0.16666666666666666, 0.16666666666666666, 0.5, 0.5 });
	/* overlapping adaptive windows, 3-d input */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 1, 3, 2 },
		     (double[]){ 1, 1.25, 1.5, 1.75, 2, 2.25 });
	in[1] = tens(NPU_DT_F64, 3, (int64_t[]){ 1, 5, 7 },
		     (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
			16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
			32, 33, 34 });
	opk("aten._adaptive_avg_pool2d_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
	    in, 2, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 1, 5, 7 },
	    (double[]){ 0.125, 0.125, 0.125, 0.28125, 0.15625, 0.15625,
			0.15625, 0.25, 0.25, 0.25, 0.5520833333333334,
			0.30208333333333337, 0.30208333333333337, 0.30208333333333337,
			0.125, 0.125, 0.125, 0.27083333333333337, 0.14583333333333334,
			0.14583333333333334, 0.14583333333333334, 0.375, 0.375, 0.375,
			0.8020833333333334, 0.42708333333333337, 0.42708333333333337,
			0.42708333333333337, 0.25, 0.25, 0.25, 0.53125, 0.28125,
			0.28125, 0.28125 });
	/* scale factors: 1/1.45 picks other columns than 10/14 */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F32, 4, (int64_t[]){ 1, 1, 2, 10 },
		     (double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
			16, 17, 18, 19 });
	opk("aten.upsample_nearest2d.vec",
	    "{\"args\": [{\"input\": 0}, null, [1.5, 1.45]]}",
	    in, 1, 1, 0, NPU_DT_F32, 4, (int64_t[]){ 1, 1, 3, 14 },
	    (double[]){ 0, 0, 1, 2, 2, 3, 4, 4, 5, 6, 6, 7, 8, 8, 0, 0, 1, 2,
			2, 3, 4, 4, 5, 6, 6, 7, 8, 8, 10, 10, 11, 12, 12, 13, 14, 14,
			15, 16, 16, 17, 18, 18 });
	opk("aten.upsample_nearest2d.vec",
	    "{\"args\": [{\"input\": 0}, [3, 14], null]}",
	    in, 1, 1, 0, NPU_DT_F32, 4, (int64_t[]){ 1, 1, 3, 14 },
	    (double[]){ 0, 0, 1, 2, 2, 3, 4, 5, 5, 6, 7, 7, 8, 9, 0, 0, 1, 2,
			2, 3, 4, 5, 5, 6, 7, 7, 8, 9, 10, 10, 11, 12, 12, 13, 14, 15,
			15, 16, 17, 17, 18, 19 });
	/* downsampling, twice the height */
	opk("aten.upsample_nearest2d.vec",
	    "{\"args\": [{\"input\": 0}, [4, 3], null]}",
	    in, 1, 1, 0, NPU_DT_F32, 4, (int64_t[]){ 1, 1, 4, 3 },
	    (double[]){ 0, 3, 6, 0, 3, 6, 10, 13, 16, 10, 13, 16 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 2, 1, 3, 4 },
		     (double[]){ 0, 1, 4, 9, 2, -1, 3, 5, 7, 7, 0, 1, 1, 2, 3, 4, 5, 6,
			7, 8, 9, 10, 11, 12 });
	opk("aten.upsample_bilinear2d.vec",
	    "{\"args\": [{\"input\": 0}, [4, 6], false, null]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 2, 1, 4, 6 },
	    (double[]){ 0, 0.49999999999999994, 1.4999999999999996, 3.5, 6.5,
			9, 1.25, 0.5, 0.354166666666666, 2.770833333333333, 4.9375,
			6.500000000000001, 3.875, 2.9375, 1.9791666666666665,
			1.8958333333333333, 2.6875, 3.5, 7, 7, 5.833333333333334,
			1.1666666666666672, 0.5, 1, 1, 1.5, 2.1666666666666665,
			2.8333333333333335, 3.5, 4, 3.5, 3.9999999999999996,
			4.666666666666667, 5.333333333333333, 6, 6.5, 6.5, 7,
			7.666666666666667, 8.333333333333332, 9, 9.5, 9, 9.5,
			10.166666666666664, 10.833333333333334, 11.5, 12 });
	opk("aten.upsample_bilinear2d.vec",
	    "{\"args\": [{\"input\": 0}, [4, 6], true, null]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 2, 1, 4, 6 },
	    (double[]){ 0, 0.6, 1.5999999999999999, 3.3999999999999995, 6, 9,
			1.3333333333333333, 0.3333333333333334, 0.4,
			2.5999999999999996, 4.533333333333333, 6.333333333333334,
			3.666666666666666, 2.466666666666666, 1.733333333333333,
			1.9333333333333336, 2.666666666666667, 3.666666666666667, 7, 7,
			5.6000000000000005, 1.4000000000000012, 0.3999999999999999, 1,
			1, 1.6, 2.2, 2.8, 3.4, 4, 3.6666666666666665,
			4.266666666666667, 4.866666666666667, 5.466666666666667,
			6.066666666666666, 6.666666666666666, 6.333333333333333,
			6.933333333333334, 7.533333333333333, 8.133333333333333,
			8.733333333333333, 9.333333333333332, 9, 9.6, 10.2,
			10.799999999999999, 11.4, 12 });
	opk("aten.upsample_bilinear2d.vec",
	    "{\"args\": [{\"input\": 0}, null, false, [1.5, 1.7]]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 2, 1, 4, 6 },
	    (double[]){ 0, 0.3823529411764706, 0.9705882352941178,
			2.6764705882352944, 4.735294117647058, 7.676470588235294,
			0.9999999999999999, 0.6176470588235293, 0.029411764705882304,
			1.9558823529411766, 4.01470588235294, 6.073529411764706,
			2.8333333333333326, 1.877450980392156, 0.40686274509803777,
			1.5441176470588232, 2.769607843137255, 3.848039215686275,
			6.166666666666666, 5.975490196078431, 5.681372549019607,
			2.7794117647058822, 0.6715686274509806, 1.3578431372549022, 1,
			1.3823529411764706, 1.9705882352941178, 2.5588235294117645,
			3.1470588235294117, 3.735294117647059, 2.9999999999999996,
			3.38235294117647, 3.9705882352941173, 4.558823529411764,
			5.147058823529411, 5.735294117647058, 5.666666666666666,
			6.049019607843137, 6.637254901960784, 7.225490196078431,
			7.813725490196078, 8.401960784313724, 8.333333333333332,
			8.715686274509803, 9.303921568627452, 9.892156862745097,
			10.480392156862743, 11.068627450980392 });
	opk("aten.upsample_bilinear2d.vec",
	    "{\"args\": [{\"input\": 0}, null, true, [1.5, 1.7]]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 2, 1, 4, 6 },
	    (double[]){ 0, 0.6, 1.5999999999999999, 3.3999999999999995, 6, 9,
			1.3333333333333333, 0.3333333333333334, 0.4,
			2.5999999999999996, 4.533333333333333, 6.333333333333334,
			3.666666666666666, 2.466666666666666, 1.733333333333333,
			1.9333333333333336, 2.666666666666667, 3.666666666666667, 7, 7,
			5.6000000000000005, 1.4000000000000012, 0.3999999999999999, 1,
			1, 1.6, 2.2, 2.8, 3.4, 4, 3.6666666666666665,
			4.266666666666667, 4.866666666666667, 5.466666666666667,
			6.066666666666666, 6.666666666666666, 6.333333333333333,
			6.933333333333334, 7.533333333333333, 8.133333333333333,
			8.733333333333333, 9.333333333333332, 9, 9.6, 10.2,
			10.799999999999999, 11.4, 12 });
	opk("aten.upsample_bilinear2d.vec",
	    "{\"args\": [{\"input\": 0}, [2, 3], false, null]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 2, 1, 2, 3 },
	    (double[]){ 0.5, 2.125, 7.291666666666665, 5.625, 2.875,
			1.7916666666666663, 2.1666666666666665, 3.5, 4.833333333333333,
			8.166666666666666, 9.5, 10.833333333333332 });
	opk("aten.upsample_bilinear2d.vec",
	    "{\"args\": [{\"input\": 0}, [1, 1], true, null]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 2, 1, 1, 1 },
	    (double[]){ 0, 1 });
	npu_reftensor_free(&in[0]);
	/* a neighbour of weight 0 still counts, as in PyTorch's w0 * x0 + w1
	 * * x1: 0 * inf is NaN (PyTorch 1.13's values, both alignments) */
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 1, 1, 4 },
		     (double[]){ 0, INFINITY, 2, NAN });
	for (int align = 0; align < 2; align++)
		opk("aten.upsample_linear1d.vec", align ?
		    "{\"args\": [{\"input\": 0}, [8], true, null]}" :
		    "{\"args\": [{\"input\": 0}, [8], false, null]}",
		    in, 1, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 1, 1, 8 },
		    (double[]){ NAN, INFINITY, INFINITY, INFINITY, INFINITY, NAN, NAN, NAN });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 2, 3, 4 },
		     (double[]){ 0, 1, 4, 9, 2, -1, 3, 5, 7, 7, 0, 1, 1, 2, 3, 4, 5, 6,
			7, 8, 9, 10, 11, 12 });
	in[1] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 2, 4, 2 },
		     (double[]){ -1, -1, 1, 1, 0, 0, -1.3, 0.2, 0.25, -0.5, 1.2, 1.7,
			-2.6, -0.9, 0.6, 3.1 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0, 0, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 0.25, 1, 0, 3.75, 0, 0, 0, 0.25, 3, 6.5, 0, 4, 0, 0,
			0 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0, 0, true]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 1, 1, 1.6499999999999997, 3.0625,
			0.2099999999999998, 0, 0, 1, 12, 6.5, 3.1899999999999995,
			4.875, 2.519999999999998, 0, 0 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0, 1, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 1, 1, 3.499999999999999, 3.75, 1, 0,
			0.7000000000000002, 1, 12, 6.5, 6.199999999999999, 4, 12, 1,
			11.7 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0, 1, true]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 1, 1, 3, 3.0625, 1, 0.19999999999999996,
			0.40000000000000036, 1, 12, 6.5, 5.8, 4.875, 12, 1.4, 11.4 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0, 2, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 1, 1, 3.2899999999999987, 3.75, 3.200000000000003,
			7.500000000000001, 7.500000000000001, 1, 12, 6.5,
			6.299999999999999, 4, 9.799999999999997, 3.7, 3.7 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0, 2, true]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 1, 1, 1.9199999999999995, 3.0625,
			3.2900000000000005, 5.780000000000002, 5.780000000000002, 1,
			12, 6.5, 6.25, 4.875, 8.899999999999999, 3.8000000000000003,
			3.799999999999999 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 1, 0, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 0, 3, 0, 4, 0, 0, 0, 1, 0, 7, 0, 3, 0, 0, 0 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 1, 0, true]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 1, 3, 2, 4, 0, 0, 0, 1, 12, 7, 5, 3, 0, 0, 0 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 1, 1, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 1, 3, 2, 4, 1, 0, 1, 1, 12, 7, 5, 3, 12, 1, 12 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 1, 1, true]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 1, 3, 2, 4, 1, 0, 0, 1, 12, 7, 5, 3, 12, 1, 11 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 1, 2, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 1, 3, 2, 4, 5, 9, 9, 1, 12, 7, 5, 3, 8, 4, 4 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 1, 2, true]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 4 },
	    (double[]){ 0, 1, 3, 2, 4, 5, 4, 4, 1, 12, 7, 5, 3, 8, 3, 3 });
	/* nearest at pixel positions 0.5, 1.5, 2.5 rounds half to even */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 2, 3, 4 },
		     (double[]){ 0, 1, 4, 9, 2, -1, 3, 5, 7, 7, 0, 1, 1, 2, 3, 4, 5, 6,
			7, 8, 9, 10, 11, 12 });
	in[1] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 4, 2 },
		     (double[]){ -0.5, 0, 0, 0, 0.5, 0, 0.5, 0.3333333333333333 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 1, 0, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 1, 4 },
	    (double[]){ 2, 3, 3, 0, 5, 7, 7, 11 });
	/* non-finite coordinates, as PyTorch's vectorized CPU kernel: NaN
	 * weights make a bilinear sample NaN, border padding clips NaN to 0
	 * and infinities to the edges, nearest reads nothing (0) */
	npu_reftensor_free(&in[1]);
	in[1] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 3, 2 },
		     (double[]){ NAN, 0, 0, INFINITY, -INFINITY, 0.5 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0, 0, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 1, 3 },
	    (double[]){ NAN, NAN, NAN, NAN, NAN, NAN });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0, 1, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 1, 3 },
	    (double[]){ 2, 3.5, 5.75, 5, 10.5, 8 });
	opk("aten.grid_sampler_2d.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 1, 0, false]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 1, 3 },
	    (double[]){ 0, 0, 0, 0, 0, 0 });
	/* ties: the first index wins */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F64, 5, (int64_t[]){ 1, 1, 3, 3, 4 },
		     (double[]){ 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3,
			8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8 });
	opk("aten.max_pool3d_with_indices.default",
	    "{\"args\": [{\"input\": 0}, [2, 2, 2], [1, 1, 2], [0, 1, 1], "
	    "[1, 1, 1], false]}",
	    in, 1, 2, 0, NPU_DT_F64, 5, (int64_t[]){ 1, 1, 2, 4, 3 },
	    (double[]){ 9, 9, 3, 9, 9, 6, 6, 9, 8, 6, 6, 8, 9, 9, 3, 9, 9, 5,
			6, 9, 8, 6, 8, 8 });
	opk("aten.max_pool3d_with_indices.default",
	    "{\"args\": [{\"input\": 0}, [2, 2, 2], [1, 1, 2], [0, 1, 1], "
	    "[1, 1, 1], false]}",
	    in, 1, 2, 1, NPU_DT_I64, 5, (int64_t[]){ 1, 1, 2, 4, 3 },
	    (double[]){ 12, 14, 15, 12, 5, 7, 20, 5, 11, 20, 22, 11, 12, 14,
			15, 12, 14, 31, 20, 30, 35, 20, 34, 35 });
	/* ties: the first index wins */
	opk("aten.max_pool3d_with_indices.default",
	    "{\"args\": [{\"input\": 0}, [3, 2, 2], [2, 2, 2], [1, 0, 1], "
	    "[1, 1, 1], true]}",
	    in, 1, 2, 0, NPU_DT_F64, 5, (int64_t[]){ 1, 1, 2, 2, 3 },
	    (double[]){ 9, 9, 6, 6, 6, 8, 9, 9, 5, 6, 8, 8 });
	opk("aten.max_pool3d_with_indices.default",
	    "{\"args\": [{\"input\": 0}, [3, 2, 2], [2, 2, 2], [1, 0, 1], "
	    "[1, 1, 1], true]}",
	    in, 1, 2, 1, NPU_DT_I64, 5, (int64_t[]){ 1, 1, 2, 2, 3 },
	    (double[]){ 12, 5, 7, 20, 22, 11, 12, 14, 31, 20, 34, 35 });
	/* ties: the first index wins */
	opk("aten.max_pool3d_with_indices.default",
	    "{\"args\": [{\"input\": 0}, [2, 2, 2], [1, 1, 1], [0, 0, 0], "
	    "[1, 2, 1], false]}",
	    in, 1, 2, 0, NPU_DT_F64, 5, (int64_t[]){ 1, 1, 2, 1, 3 },
	    (double[]){ 9, 9, 9, 9, 9, 9 });
	opk("aten.max_pool3d_with_indices.default",
	    "{\"args\": [{\"input\": 0}, [2, 2, 2], [1, 1, 1], [0, 0, 0], "
	    "[1, 2, 1], false]}",
	    in, 1, 2, 1, NPU_DT_I64, 5, (int64_t[]){ 1, 1, 2, 1, 3 },
	    (double[]){ 12, 14, 14, 12, 14, 14 });
	/* NaN propagates */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 5, (int64_t[]){ 1, 1, 3, 3, 4 },
		     (double[]){ 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, NAN,
			8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8 });
	opk("aten.max_pool3d_with_indices.default",
	    "{\"args\": [{\"input\": 0}, [2, 2, 2], [1, 1, 1]]}",
	    in, 1, 2, 0, NPU_DT_F64, 5, (int64_t[]){ 1, 1, 2, 2, 3 },
	    (double[]){ NAN, NAN, 9, NAN, NAN, 8, NAN, NAN, 9, NAN, NAN, 9 });
	opk("aten.max_pool3d_with_indices.default",
	    "{\"args\": [{\"input\": 0}, [2, 2, 2], [1, 1, 1]]}",
	    in, 1, 2, 1, NPU_DT_I64, 5, (int64_t[]){ 1, 1, 2, 2, 3 },
	    (double[]){ 17, 17, 14, 17, 17, 11, 17, 17, 14, 17, 17, 30 });
	/* 4-d input [C, D, H, W] */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 3, 3, 4 },
		     (double[]){ 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3,
			8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8 });
	opk("aten.avg_pool3d.default",
	    "{\"args\": [{\"input\": 0}, [2, 2, 3], [1, 2, 1], [1, 1, 1], "
	    "false, true, null]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 4, 2, 4 },
	    (double[]){ 0.3333333333333333, 0.6666666666666666, 0.5,
			0.4166666666666667, 1.8333333333333333, 2.4166666666666665,
			2.75, 1.75, 1.6666666666666667, 2.75, 2.0833333333333335,
			1.4166666666666667, 2.9166666666666665, 4.666666666666667, 5,
			3.5833333333333335, 1.8333333333333333, 3.25, 2.75,
			1.9166666666666667, 2, 4.583333333333333, 5.5,
			4.333333333333333, 0.5, 1.1666666666666667, 1.1666666666666667,
			0.9166666666666666, 0.9166666666666666, 2.3333333333333335,
			3.25, 2.5 });
	/* 4-d input [C, D, H, W] */
	opk("aten.avg_pool3d.default",
	    "{\"args\": [{\"input\": 0}, [2, 2, 3], [1, 2, 1], [1, 1, 1], "
	    "false, false, null]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 4, 2, 4 },
	    (double[]){ 2, 2.6666666666666665, 2, 2.5, 5.5, 4.833333333333333,
			5.5, 5.25, 5, 5.5, 4.166666666666667, 4.25, 4.375,
			4.666666666666667, 5, 5.375, 5.5, 6.5, 5.5, 5.75, 3,
			4.583333333333333, 5.5, 6.5, 3, 4.666666666666667,
			4.666666666666667, 5.5, 2.75, 4.666666666666667, 6.5, 7.5 });
	/* 4-d input [C, D, H, W] */
	opk("aten.avg_pool3d.default",
	    "{\"args\": [{\"input\": 0}, [3, 2, 2], [2, 2, 2], [1, 0, 1], "
	    "true, true, null]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 3 },
	    (double[]){ 1.5833333333333333, 3.5833333333333335,
			1.1666666666666667, 1.8333333333333333, 2.6666666666666665, 2,
			1.3333333333333333, 4.5, 1.25, 1, 3, 2 });
	/* 4-d input [C, D, H, W] */
	opk("aten.avg_pool3d.default",
	    "{\"args\": [{\"input\": 0}, [2, 2, 2], [], [0, 0, 0], false, "
	    "true, 5]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 1, 1, 2 },
	    (double[]){ 7.8, 7.4 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 5, (int64_t[]){ 1, 1, 3, 3, 4 },
		     (double[]){ 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3,
			8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8 });
	opk("aten._adaptive_avg_pool3d.default",
	    "{\"args\": [{\"input\": 0}, [2, 2, 3]]}",
	    in, 1, 1, 0, NPU_DT_F64, 5, (int64_t[]){ 1, 1, 2, 2, 3 },
	    (double[]){ 4.875, 5.375, 4.625, 4.375, 4.75, 5.375, 4.5, 6.75,
			6.125, 3, 5.625, 6.5 });
	opk("aten._adaptive_avg_pool3d.default",
	    "{\"args\": [{\"input\": 0}, [1, 3, 1]]}",
	    in, 1, 1, 0, NPU_DT_F64, 5, (int64_t[]){ 1, 1, 1, 3, 1 },
	    (double[]){ 4.5, 5.166666666666667, 4.75 });
	opk("aten._adaptive_avg_pool3d.default",
	    "{\"args\": [{\"input\": 0}, [3, 3, 4]]}",
	    in, 1, 1, 0, NPU_DT_F64, 5, (int64_t[]){ 1, 1, 3, 3, 4 },
	    (double[]){ 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3,
			8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 1, 8, 6 },
		     (double[]){ 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5,
			7, 7.5, 8, 8.5, 9, 9.5, 10, 10.5, 11, 11.5, 12, 12.5, 13, 13.5,
			14, 14.5, 15, 15.5, 16, 16.5, 17, 17.5, 18, 18.5, 19, 19.5, 20,
			20.5, 21, 21.5, 22, 22.5, 23, 23.5 });
	opk("aten.col2im.default",
	    "{\"args\": [{\"input\": 0}, [3, 4], [2, 2], [1, 1], [1, 0], "
	    "[2, 1]]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 3, 4 },
	    (double[]){ 6, 15.5, 16.5, 10, 1.5, 6.5, 7.5, 5.5, 7.5, 18.5, 19.5,
			11.5, 18, 39.5, 40.5, 22, 13.5, 30.5, 31.5, 17.5, 19.5, 42.5,
			43.5, 23.5 });
	/* unbatched, dilated */
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 4, 2 },
		     (double[]){ -3, -2, -1, 0, 1, 2, 3, 4 });
	opk("aten.col2im.default",
	    "{\"args\": [{\"input\": 0}, [3, 3], [2, 2], [2, 1], [0, 0], "
	    "[1, 1]]}",
	    in, 1, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 1, 3, 3 },
	    (double[]){ -3, -3, 0, 0, 0, 0, 1, 5, 4 });
	npu_reftensor_free(&in[0]);
}
END_TEST

/*
 * Activation gradients (aot_autograd's backward graphs without the core
 * decompositions) against PyTorch 1.13's float64 results, and
 * hardswish's bounds as PyTorch 2.x draws them (1.13's vectorized
 * kernel took x = -3 into the middle piece and is not used there).
 */
START_TEST(act_backward_semantics)
{
	static const int64_t sh[1] = { 8 };
	static const struct { const char *target, *attrs; double want[8]; } cases[] = {
		{ "aten.threshold_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0]}",
		  { 0.0, 0.0, 0.0, 0.0, 0.0, 1.5, -2.0, 0.1 } },
		{ "aten.threshold_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0.5]}",
		  { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -2.0, 0.1 } },
		{ "aten.sigmoid_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 2}]}",
		  { 0.045000000000000005, -0.2625, 0.5, 0.1575, -0.026999999999999993,
				-0.36, -0.01980000000000002, 0.0 } },
		{ "aten.tanh_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 2}]}",
		  { 0.495, -1.1375, 1.5, 0.3825, -0.05699999999999998, 1.44,
				-0.03980000000000004, 0.1 } },
		{ "aten.silu_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
		  { -0.026332307445536454, 0.11013013251896202, 0.1446589762570265,
				0.2822174838223518, -0.15, 1.1099417809539778,
				-2.1762082120303385, 0.10702733528277183 } },
		{ "aten.gelu_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
		  { -0.00025182483061321075, 0.0149320590052299, -0.1666309411753727,
				0.22846998383727302, -0.15, 1.3012426869842444,
				-2.023891294408368, 0.10028217603536248 } },
		{ "aten.gelu_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 1}], "
		  "\"kwargs\": {\"approximate\": \"tanh\"}}",
		  { -0.00016756159856109342, 0.014480208288712059, -0.16592816769156515,
				0.22848442863670465, -0.15, 1.3010548553019636,
				-2.023168333261939, 0.10024226437601168 } },
		{ "aten.hardtanh_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 1}, -1, 3]}",
		  { 0.0, 0.0, 0.0, 0.75, -0.3, 1.5, 0.0, 0.0 } },
		{ "aten.leaky_relu_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0.2, false]}",
		  { 0.1, -0.25, 0.4, 0.15000000000000002, -0.06, 1.5, -2.0, 0.1 } },
		{ "aten.hardsigmoid_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
		  { 0.0, 0.0, 0.3333333432674408, 0.1250000037252903, -0.05000000149011612,
				0.2500000074505806, 0.0, 0.0 } },
		{ "aten.hardswish_backward.default",
		  "{\"args\": [{\"input\": 0}, {\"input\": 3}]}",
		  { 0.0, 0.41666666666666674, 0.33333333333333337, 0.3125, -0.15, 1.0,
				-2.833333333333333, 0.1 } },
	};
	npu_reftensor in[4];

	in[0] = tens(NPU_DT_F64, 1, sh, (double[]){ 0.5, -1.25, 2.0, 0.75, -0.3, 1.5, -2.0,
			0.1 });
	in[1] = tens(NPU_DT_F64, 1, sh, (double[]){ -4.0, -3.0, -1.0, -0.25, 0.0, 0.5, 3.0,
			3.5 });
	in[2] = tens(NPU_DT_F64, 1, sh, (double[]){ 0.1, 0.3, 0.5, 0.7, 0.9, -0.2, 0.99, 0.0 });
	in[3] = tens(NPU_DT_F64, 1, sh, (double[]){ -4.0, -2.5, -1.0, -0.25, 0.0, 0.5, 2.75,
			3.5 });
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		opk(cases[i].target, cases[i].attrs, in, 4, 1, 0, NPU_DT_F64, 1, sh,
		    cases[i].want);
	/* PyTorch 2.x: 0 at x <= -3, grad_output at x >= 3 */
	npu_reftensor_free(&in[1]);
	in[1] = tens(NPU_DT_F64, 1, sh, (double[]){ -3, -3.0000001, -2.9999999, 0, 1,
			2.9999999, 3, 4 });
	opk("aten.hardswish_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
	    in, 4, 1, 0, NPU_DT_F64, 1, sh,
	    (double[]){ 0, 0, 2 * (-2.9999999 / 3 + 0.5), 0.75 * 0.5, -0.3 * (1.0 / 3 + 0.5),
			1.5 * (2.9999999 / 3 + 0.5), -2, 0.1 });
	for (int i = 0; i < 4; i++)
		npu_reftensor_free(&in[i]);
}
END_TEST

/*
 * native_batch_norm_backward (training graphs without the core
 * decompositions), a host call: against PyTorch 1.13's float64 results,
 * in training (the saved statistics) and evaluation (the running ones),
 * and without a weight and with the mask leaving out two gradients.
 */
START_TEST(bn_backward_semantics)
{
	static const int64_t sh[4] = { 2, 3, 2, 2 }, c3[1] = { 3 };
	static const char *const train = "{\"args\": [{\"input\": 0}, {\"input\": 1}, "
		"{\"input\": 2}, {\"input\": 3}, {\"input\": 4}, {\"input\": 5}, "
		"{\"input\": 6}, true, 1e-05, [true, true, true]]}";
	static const char *const eval = "{\"args\": [{\"input\": 0}, {\"input\": 1}, "
		"{\"input\": 2}, {\"input\": 3}, {\"input\": 4}, {\"input\": 5}, "
		"{\"input\": 6}, false, 1e-05, [true, true, true]]}";
	static const char *const noweight = "{\"args\": [{\"input\": 0}, {\"input\": 1}, "
		"null, {\"input\": 3}, {\"input\": 4}, {\"input\": 5}, "
		"{\"input\": 6}, true, 1e-05, [true, false, false]]}";
	npu_reftensor in[7];

	in[0] = tens(NPU_DT_F64, 4, sh, (double[]){ -0.26, 0.64, -0.3, -0.83, -0.02, -0.41,
			-0.75, -0.08, -0.37, 1.02, 0.1, 1.52, -1.05, -0.51, 0.39, 0.43,
			-0.38, -0.12, -0.02, 2.18, -0.84, -0.01, 0.03, 0.04 });
	in[1] = tens(NPU_DT_F64, 4, sh, (double[]){ -0.15, 0.1, 0.47, -0.36, -1.11, -0.52,
			0.46, 0.64, 0.75, 0.24, 0.5, 0.58, 0.36, -1.07, -1.33, 0.17, 0.02,
			0.17, 0.55, -0.7, 0.83, 0.29, 0.13, -0.11 });
	in[2] = tens(NPU_DT_F64, 1, c3, (double[]){ 0.5, -1.25, 2.0 });
	in[3] = tens(NPU_DT_F64, 1, c3, (double[]){ 0.1, -0.2, 0.3 });
	in[4] = tens(NPU_DT_F64, 1, c3, (double[]){ 0.9, 1.5, 0.25 });
	in[5] = tens(NPU_DT_F64, 1, c3, (double[]){ -0.22625, -0.06125000000000001, 0.40125 });
	in[6] = tens(NPU_DT_F64, 1, c3, (double[]){ 1.6206509571127758, 1.6564694980150638,
			3.3320204519793117 });
	opk("aten.native_batch_norm_backward.default", train, in, 7, 3, 0, NPU_DT_F64, 4, sh,
	    (double[]){ -0.05257608304772436, 0.7002756050163338, -0.02656338392897347,
			-0.534250962010045, 1.4120770869205765, 1.5067475705897018,
			1.0266772281258438, -0.5780981991573302, -2.418142801453686,
			4.9602797175566655, -0.2098643302657484, 9.548696394530733,
			-0.6446733460861205, -0.34185367978379855, 0.3629381432591092,
			0.5367037065812188, 0.7921832963274631, 0.07259552389293555,
			-0.5935923001606811, -3.6385902065385096, -5.254619385139003,
			-1.718918262786194, -2.0436019089783226, -2.8638294234644466 });
	opk("aten.native_batch_norm_backward.default", train, in, 7, 3, 1, NPU_DT_F64, 1, c3,
	    (double[]){ -0.5740548271463093, -2.818151556973028, -1.3313504218439838 });
	opk("aten.native_batch_norm_backward.default", train, in, 7, 3, 2, NPU_DT_F64, 1, c3,
	    (double[]){ -1.49, 0.40000000000000013, 1.4900000000000002 });
	opk("aten.native_batch_norm_backward.default", eval, in, 7, 3, 0, NPU_DT_F64, 4, sh,
	    (double[]){ -0.13703127065790743, 0.337307743157926, -0.1581130046052778,
			-0.4374459794079353, 0.02041234648215161, 0.418453102884108,
			0.7654629930806854, 0.08164938592860645, -1.4799704008879704,
			4.079918402447918, 0.399992000239992, 6.079878403647878,
			-0.5533955161184724, -0.2687921078289723, 0.20554690598686118,
			0.22662863993423155, 0.3878345831608806, 0.12247407889290965,
			0.02041234648215161, -2.2249457665545256, -3.3599328020159325,
			-0.0399992000239992, 0.11999760007199758, 0.1599968000959968 });
	opk("aten.native_batch_norm_backward.default", eval, in, 7, 3, 1, NPU_DT_F64, 1, c3,
	    (double[]){ 0.13903403538290765, -1.3437855936130048, -0.4973900522984301 });
	opk("aten.native_batch_norm_backward.default", noweight, in, 7, 3, 0, NPU_DT_F64, 4, sh,
	    (double[]){ -0.10515216609544872, 1.4005512100326676, -0.05312676785794694,
			-1.06850192402009, -1.1296616695364612, -1.2053980564717615,
			-0.821341782500675, 0.4624785593258642, -1.209071400726843,
			2.4801398587783328, -0.1049321651328742, 4.7743481972653665,
			-1.289346692172241, -0.6837073595675971, 0.7258762865182184,
			1.0734074131624376, -0.6337466370619704, -0.058076419114348445,
			0.47487384012854483, 2.9108721652308076, -2.6273096925695016,
			-0.859459131393097, -1.0218009544891613, -1.4319147117322233 });
	for (int i = 0; i < 7; i++)
		npu_reftensor_free(&in[i]);
}
END_TEST

/* mse_loss and its gradient in their three reductions against PyTorch
 * 1.13's float64 results. */
START_TEST(mse_semantics)
{
	static const int64_t sh[2] = { 2, 3 };
	npu_reftensor in[4];

	in[0] = tens(NPU_DT_F64, 2, sh, (double[]){ 0.5, -1.25, 2.0, 0.75, -0.3, 1.5 });
	in[1] = tens(NPU_DT_F64, 2, sh, (double[]){ 0.1, 0.25, -1.0, 0.7, 0.9, -0.2 });
	in[2] = tens(NPU_DT_F64, 0, sh, (double[]){ 1.5 });
	in[3] = tens(NPU_DT_F64, 2, sh, (double[]){ 0.2, -0.4, 1.0, 2.0, 0.5, -1.5 });
	opk("aten.mse_loss.default", "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0]}",
	    in, 4, 1, 0, NPU_DT_F64, 2, sh, (double[]){ 0.16000000000000003, 2.25, 9.0,
			0.0025000000000000044, 1.44, 2.8899999999999997 });
	opk("aten.mse_loss.default", "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
	    in, 4, 1, 0, NPU_DT_F64, 0, sh, (double[]){ 2.62375 });
	opk("aten.mse_loss.default", "{\"args\": [{\"input\": 0}, {\"input\": 1}, 2]}",
	    in, 4, 1, 0, NPU_DT_F64, 0, sh, (double[]){ 15.7425 });
	opk("aten.mse_loss_backward.default",
	    "{\"args\": [{\"input\": 2}, {\"input\": 0}, {\"input\": 1}, 1]}",
	    in, 4, 1, 0, NPU_DT_F64, 2, sh, (double[]){ 0.2, -0.75, 1.5,
			0.025000000000000022, -0.6, 0.85 });
	opk("aten.mse_loss_backward.default",
	    "{\"args\": [{\"input\": 2}, {\"input\": 0}, {\"input\": 1}, 2]}",
	    in, 4, 1, 0, NPU_DT_F64, 2, sh, (double[]){ 1.2000000000000002, -4.5, 9.0,
			0.15000000000000013, -3.5999999999999996, 5.1 });
	opk("aten.mse_loss_backward.default",
	    "{\"args\": [{\"input\": 3}, {\"input\": 0}, {\"input\": 1}, 0]}",
	    in, 4, 1, 0, NPU_DT_F64, 2, sh, (double[]){ 0.16000000000000003,
			1.2000000000000002, 6.0, 0.20000000000000018, -1.2, -5.1 });
	for (int i = 0; i < 4; i++)
		npu_reftensor_free(&in[i]);
}
END_TEST

/*
 * nll_loss_forward and nll_loss_backward (host calls) against PyTorch
 * 1.13's float64 results: the three reductions, with a class weight,
 * with ignore_index hitting a target and not; without a weight; a 1-d
 * input.
 */
START_TEST(nll_semantics)
{
	static const int64_t sh[2] = { 3, 4 }, n3[1] = { 3 }, c4[1] = { 4 };
	/* reduction, ignore_index; the loss (3 values for reduction 0, else
	 * one), total_weight, grad_input */
	static const struct {
		int rd, ig;
		double loss[3], tw, gi[12];
	} cases[] = {
		{ 0, -100, { -3.0, -0.375, -0.2 }, 0.0,
		  { 0.0, 0.0, -2.25, 0.0, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.5 } },
		{ 0, 0, { -3.0, 0.0, -0.2 }, 0.0,
		  { 0.0, 0.0, -2.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.5 } },
		{ 1, -100, { -1.588888888888889, 0, 0 }, 2.25,
		  { 0.0, 0.0, -1.0, 0.0, -0.3333333333333333, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
				-0.16666666666666666 } },
		{ 1, 0, { -1.8285714285714287, 0, 0 }, 1.75,
		  { 0.0, 0.0, -1.2857142857142856, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
				-0.21428571428571427 } },
		{ 2, -100, { -3.575, 0, 0 }, 2.25,
		  { 0.0, 0.0, -2.25, 0.0, -0.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.375 } },
		{ 2, 0, { -3.2, 0, 0 }, 1.75,
		  { 0.0, 0.0, -2.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.375 } },
	};
	char a[300];
	npu_reftensor in[6];

	in[0] = tens(NPU_DT_F64, 2, sh, (double[]){ 0.5, -1.25, 2.0, 0.1, 0.75, -0.3, 1.5,
			-2.0, 0.2, 0.4, -0.6, 0.8 });
	in[1] = tens(NPU_DT_I64, 1, n3, (double[]){ 2, 0, 3 });
	in[2] = tens(NPU_DT_F64, 1, c4, (double[]){ 0.5, 2.0, 1.5, 0.25 });
	in[3] = tens(NPU_DT_F64, 1, n3, (double[]){ 1.5, -0.5, 2.0 });
	in[4] = tens(NPU_DT_F64, 0, n3, (double[]){ 1.5 });
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int rd = cases[i].rd;
		snprintf(a, sizeof a, "{\"args\": [{\"input\": 0}, {\"input\": 1}, "
			 "{\"input\": 2}, %d, %d]}", rd, cases[i].ig);
		opk("aten.nll_loss_forward.default", a, in, 5, 2, 0, NPU_DT_F64, rd ? 0 : 1, n3,
		    cases[i].loss);
		opk("aten.nll_loss_forward.default", a, in, 5, 2, 1, NPU_DT_F64, 0, n3,
		    &cases[i].tw);
		in[5] = tens(NPU_DT_F64, 0, n3, &cases[i].tw);
		snprintf(a, sizeof a, "{\"args\": [{\"input\": %d}, {\"input\": 0}, "
			 "{\"input\": 1}, {\"input\": 2}, %d, %d, {\"input\": 5}]}",
			 rd ? 4 : 3, rd, cases[i].ig);
		opk("aten.nll_loss_backward.default", a, in, 6, 1, 0, NPU_DT_F64, 2, sh,
		    cases[i].gi);
		npu_reftensor_free(&in[5]);
	}
	opk("aten.nll_loss_forward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, null, 1, -100]}",
	    in, 5, 2, 0, NPU_DT_F64, 0, n3, (double[]){ -1.1833333333333333 });
	opk("aten.nll_loss_forward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, null, 1, -100]}",
	    in, 5, 2, 1, NPU_DT_F64, 0, n3, (double[]){ 3.0 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F64, 1, c4, (double[]){ 0.5, -1.25, 2.0, 0.1 });
	in[1] = tens(NPU_DT_I64, 0, c4, (double[]){ 1 });
	opk("aten.nll_loss_forward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, 1, -100]}",
	    in, 5, 2, 0, NPU_DT_F64, 0, n3, (double[]){ 1.25 });
	opk("aten.nll_loss_forward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, 1, -100]}",
	    in, 5, 2, 1, NPU_DT_F64, 0, n3, (double[]){ 2.0 });
	for (int i = 0; i < 5; i++)
		npu_reftensor_free(&in[i]);
}
END_TEST

START_TEST(norm_backward_semantics)
{
	npu_reftensor in[6];

	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
		     (double[]){ 0.5, -1, 2, 0.25, 1, -0.75, 0, 1.5, 1, -2, 0.3, 0.6 });
	in[1] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
		     (double[]){ 0.3, -1.2, 2, 0.7, 0.1, -0.4, 1.5, 1.5, -2, 0, 0.9,
			3.1 });
	in[2] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 1, 1 },
		     (double[]){ 0.24999999999999992, 0.8333333333333334 });
	in[3] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 1, 1 },
		     (double[]){ 1.0157773511619974, 0.6377194526100632 });
	in[4] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
		     (double[]){ 1.5, -0.5, 2, 0.3, 1, -1 });
	in[5] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
		     (double[]){ 0.1, 0.2, 0.3, 0, 0, 1 });
	opk("aten.native_layer_norm_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, [2, 3], "
	    "{\"input\": 2}, {\"input\": 3}, {\"input\": 4}, {\"input\": "
	    "5}, [true, true, true]]}",
	    in, 6, 3, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
	    (double[]){ -0.48579813345083367, 0.7560681360729642,
			1.1202262362027875, -1.570330674102328, -0.03241238135176139,
			0.21224681662917178, 0.16470975098740415, -0.31357983847014326,
			0.380120881161827, -0.672219538455364, 0.17430653961973108,
			0.266662205156545 });
	opk("aten.native_layer_norm_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, [2, 3], "
	    "{\"input\": 2}, {\"input\": 3}, {\"input\": 4}, {\"input\": "
	    "5}, [true, true, true]]}",
	    in, 6, 3, 1, NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
	    (double[]){ 0.025394433779049985, 2.1105966117949593,
			1.7483489466718118, 1.1771407063558301, -0.13961221362209822,
			1.3624899142411597 });
	opk("aten.native_layer_norm_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, [2, 3], "
	    "{\"input\": 2}, {\"input\": 3}, {\"input\": 4}, {\"input\": "
	    "5}, [true, true, true]]}",
	    in, 6, 3, 2, NPU_DT_F64, 2, (int64_t[]){ 2, 3 },
	    (double[]){ 0.5, 0.5, 3, -1.75, 1.3, -0.15000000000000002 });
	/* no weight */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	npu_reftensor_free(&in[3]);
	npu_reftensor_free(&in[4]);
	npu_reftensor_free(&in[5]);
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
		     (double[]){ 0.5, -1, 2, 0.25, 1, -0.75, 0, 1.5, 1, -2, 0.3, 0.6 });
	in[1] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
		     (double[]){ 0.3, -1.2, 2, 0.7, 0.1, -0.4, 1.5, 1.5, -2, 0, 0.9,
			3.1 });
	in[2] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 2, 1 },
		     (double[]){ 0.36666666666666675, 0.1333333333333333,
			0.33333333333333326, 1.3333333333333333 });
	in[3] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 2, 1 },
		     (double[]){ 0.7649654426061111, 2.223692969243433,
			0.6060904135050587, 0.7679672629291538 });
	opk("aten.native_layer_norm_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, [3], {\"input\": "
	    "2}, {\"input\": 3}, null, null, [true, false, false]]}",
	    in, 4, 3, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
	    (double[]){ 0.04774788866007075, -0.02537278039750536,
			-0.022375108262565238, -0.8704869335520092, 1.9151830438394664,
			-1.044696110287457, -0.4545679956659941, 0.45456762459159394,
			3.710744003182498e-07, -0.5303344808539843, 0.7472820910801168,
			-0.21694761022613251 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	npu_reftensor_free(&in[3]);
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 4, 3 },
		     (double[]){ 1, 0.5403023058681398, -0.4161468365471424,
			-0.9899924966004454, -0.6536436208636119, 0.28366218546322625,
			0.960170286650366, 0.7539022543433046, -0.14550003380861354,
			-0.9111302618846769, -0.8390715290764524, 0.004425697988050785,
			0.8438539587324921, 0.9074467814501962, 0.1367372182078336,
			-0.7596879128588213, -0.9576594803233847, -0.27516333805159693,
			0.6603167082440802, 0.9887046181866692, 0.40808206181339196,
			-0.5477292602242684, -0.9999608263946371, -0.5328330203333975 });
	in[1] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 4, 3 },
		     (double[]){ 0, 1.682941969615793, 1.8185948536513634,
			0.2822400161197344, -1.5136049906158564, -1.917848549326277,
			-0.5588309963978517, 1.3139731974375781, 1.9787164932467636,
			0.8242369704835132, -1.0880422217787395, -1.999980413101407,
			-1.0731458360008699, 0.8403340736532818, 1.9812147113897407,
			1.3005756803142337, -0.5758066333301306, -1.9227949837591136,
			-1.501974493543352, 0.2997544193259047, 1.8258905014552553,
			1.6733112770721121, -0.017702618580807752, -1.6924408083503413 });
	in[2] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 2 },
		     (double[]){ 0.05872054990745959, 0.07834550498164278,
			0.09172950204452363, 0.09780637956312854 });
	in[3] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 2 },
		     (double[]){ 0.7022154809160555, 0.713664180423096,
			0.7238026392720573, 0.7291000703069437 });
	in[4] = tens(NPU_DT_F64, 1, (int64_t[]){ 4 },
		     (double[]){ 1.5, -0.5, 2, 0.25 });
	opk("aten.native_group_norm_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "{\"input\": 3}, {\"input\": 4}, 2, 4, 3, 2, [true, true, "
	    "true]]}",
	    in, 5, 3, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 4, 3 },
	    (double[]){ 0.7764136477482708, 0.29153946479187914,
			-0.7159641425486847, 0.07057311018169254, -0.04681311599734431,
			-0.3757489641758133, 1.0553815760975902, 0.7429355968700417,
			-0.5472077999803341, -0.49097491987884523,
			-0.45970460293537735, -0.30042985017307505,
			0.43921733040387323, 0.5331209549485918, -0.288818721971059,
			-0.17118591926358895, -0.12391840709627466,
			-0.38841523702154257, 0.5001564516961199, 1.008268273984058,
			0.18638582216998206, -0.5109944441106697, -0.6208836929875315,
			-0.562932410751959 });
	opk("aten.native_group_norm_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "{\"input\": 3}, {\"input\": 4}, 2, 4, 3, 2, [true, true, "
	    "true]]}",
	    in, 5, 3, 1, NPU_DT_F64, 1, (int64_t[]){ 4 },
	    (double[]){ 0.027939974169944697, 0.3718170623804219,
			-0.07959577069252702, 0.35740518919126013 });
	opk("aten.native_group_norm_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "{\"input\": 3}, {\"input\": 4}, 2, 4, 3, 2, [true, true, "
	    "true]]}",
	    in, 5, 3, 2, NPU_DT_F64, 1, (int64_t[]){ 4 },
	    (double[]){ 3.0121934277115194, -3.3524846632346343,
			3.6256758954291985, -3.8262991999253817 });
	/* no weight (expected values: PyTorch with ones), no grad_weight */
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	npu_reftensor_free(&in[3]);
	npu_reftensor_free(&in[4]);
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 4, 3 },
		     (double[]){ 1, 0.5403023058681398, -0.4161468365471424,
			-0.9899924966004454, -0.6536436208636119, 0.28366218546322625,
			0.960170286650366, 0.7539022543433046, -0.14550003380861354,
			-0.9111302618846769, -0.8390715290764524, 0.004425697988050785,
			0.8438539587324921, 0.9074467814501962, 0.1367372182078336,
			-0.7596879128588213, -0.9576594803233847, -0.27516333805159693,
			0.6603167082440802, 0.9887046181866692, 0.40808206181339196,
			-0.5477292602242684, -0.9999608263946371, -0.5328330203333975 });
	in[1] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 4, 3 },
		     (double[]){ 0, 1.682941969615793, 1.8185948536513634,
			0.2822400161197344, -1.5136049906158564, -1.917848549326277,
			-0.5588309963978517, 1.3139731974375781, 1.9787164932467636,
			0.8242369704835132, -1.0880422217787395, -1.999980413101407,
			-1.0731458360008699, 0.8403340736532818, 1.9812147113897407,
			1.3005756803142337, -0.5758066333301306, -1.9227949837591136,
			-1.501974493543352, 0.2997544193259047, 1.8258905014552553,
			1.6733112770721121, -0.017702618580807752, -1.6924408083503413 });
	in[2] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 2 },
		     (double[]){ 0.05872054990745959, 0.07834550498164278,
			0.09172950204452363, 0.09780637956312854 });
	in[3] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 2 },
		     (double[]){ 0.7022154809160555, 0.713664180423096,
			0.7238026392720573, 0.7291000703069437 });
	opk("aten.native_group_norm_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "{\"input\": 3}, null, 2, 4, 3, 2, [true, false, true]]}",
	    in, 4, 3, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 4, 3 },
	    (double[]){ 0.7309406969087192, 0.37586286686623466,
			-0.2983717184821125, -0.67187489075915, -0.40124955587149946,
			0.26469260133780803, 0.7191750025467553, 0.5341747335637798,
			-0.12111132875234325, -0.6442162007146773, -0.5541996754627684,
			0.0661774688192537, 0.6403150770267667, 0.6585363149393793,
			0.08411498927812018, -0.5548285822237162, -0.6708526265665907,
			-0.15728517245395912, 0.4899626683961476, 0.7229935015918487,
			0.2942431980498543, -0.40209719043665554, -0.7258155220314161,
			-0.37928665556977875 });
	opk("aten.native_group_norm_backward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"input\": 2}, "
	    "{\"input\": 3}, null, 2, 4, 3, 2, [true, false, true]]}",
	    in, 4, 3, 2, NPU_DT_F64, 1, (int64_t[]){ 4 },
	    (double[]){ 3.0121934277115194, -3.3524846632346343,
			3.6256758954291985, -3.8262991999253817 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[2]);
	npu_reftensor_free(&in[3]);
}
END_TEST

START_TEST(distance_semantics)
{
	npu_reftensor in[6];

	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
		     (double[]){ 0, 1, 2, 1, -1, 0.5, 3, 3, 3, 0, 0, 0 });
	in[1] = tens(NPU_DT_F64, 3, (int64_t[]){ 1, 3, 3 },
		     (double[]){ 1, 1, 1, 0, 2, -2, 0.5, 1, 2 });
	opk("aten._cdist_forward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 2.0, null]}",
	    in, 2, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
	    (double[]){ 1.4142135623730951, 4.123105625617661, 0.5,
			2.0615528128088303, 4.031128874149275, 2.5495097567963922,
			3.4641016151377544, 5.916079783099616, 3.3541019662496847,
			1.7320508075688772, 2.8284271247461903, 2.29128784747792 });
	opk("aten._cdist_forward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 1.0, null]}",
	    in, 2, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
	    (double[]){ 2, 5, 0.5, 2.5, 6.5, 4, 6, 9, 5.5, 3, 4, 3.5 });
	opk("aten._cdist_forward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0.0, null]}",
	    in, 2, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
	    (double[]){ 2, 2, 1, 2, 3, 3, 3, 3, 3, 3, 2, 3 });
	opk("aten._cdist_forward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, {\"float\": "
	    "\"inf\"}, null]}",
	    in, 2, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
	    (double[]){ 1, 4, 0.5, 2, 3, 2, 2, 5, 2.5, 1, 2, 2 });
	opk("aten._cdist_forward.default",
	    "{\"args\": [{\"input\": 0}, {\"input\": 1}, 1.5, null]}",
	    in, 2, 1, 0, NPU_DT_F64, 3, (int64_t[]){ 2, 2, 3 },
	    (double[]){ 1.5874010519681994, 4.3267487109222245, 0.5,
			2.1633743554611127, 4.687581382114941, 2.931458655923177,
			4.160167646103808, 6.708746911097502, 3.9267550683464845,
			2.080083823051904, 3.1748021039363987, 2.5957010334043913 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 4, 3 },
		     (double[]){ 0, 1, 2, 1, -1, 0.5, 3, 3, 3, 0, 1, 2 });
	opk("aten._pdist_forward.default",
	    "{\"args\": [{\"input\": 0}, 2.0]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 6 },
	    (double[]){ 2.692582403567252, 3.7416573867739413, 0,
			5.123475382979799, 2.692582403567252, 3.7416573867739413 });
	opk("aten._pdist_forward.default",
	    "{\"args\": [{\"input\": 0}, {\"float\": \"inf\"}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 6 },
	    (double[]){ 2, 3, 0, 4, 2, 3 });
	opk("aten._pdist_forward.default",
	    "{\"args\": [{\"input\": 0}, 0.5]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 6 },
	    (double[]){ 13.24201848266712, 17.191508225450303, 0,
			24.95354552482872, 13.24201848266712, 17.191508225450303 });
	npu_reftensor_free(&in[0]);
}
END_TEST

/* The kernels of ops PyTorch 1.13's traces keep whole (hand-computed). */
/*
 * Attention's CPU backward, grouped-query (two query heads on one key
 * head), a float mask with -inf, scale 0.5: from the true logsumexp and
 * from the probabilities the core ATen decomposition saves in its place.
 * The values are PyTorch's autograd in float64 of
 * softmax(q k^T / 2 + mask) v.
 */
START_TEST(sdpa_backward)
{
	static const char attrs[] = "{\"args\": [{\"input\": 0}, {\"input\": 1}, "
		"{\"input\": 2}, {\"input\": 3}, {\"input\": 0}, {\"input\": 4}, 0.0, false], "
		"\"kwargs\": {\"attn_mask\": {\"input\": 5}, \"scale\": 0.5}}";
	static const char *const op = "aten._scaled_dot_product_flash_attention_for_cpu_backward.default";
	static const double dq[] = { 0, 0.01952648240441278, -0.03619118232464787,
		0.011796693992930879, 0, 0.01952648240441278, -0.020991534825522306,
		0.0054269978117361985 };
	static const double dk[] = { -0.05647934263939901, 0.00861901117387371,
		0.06979743810397881, 0.007015839221264784, -0.013318095464579825,
		-0.015634850395138497 };
	static const double dv[] = { -0.8097248960198014, 0.0008998108642280372,
		-0.6724095906812135, -0.1776552499545284, 0.23213448670101478,
		-0.3232445609096996 };
	npu_reftensor in[6];

	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 2 },
		     (double[]){ -1, 0.25, 0.5, -0.75, -1, 0.25, 0.25, -0.25 });
	in[1] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 2 },
		     (double[]){ 0, 0.25, -0.75, -0.25, -0.75, -0.25, 0.5, -0.5 });
	in[2] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 3, 2 },
		     (double[]){ 0.75, -0.75, 0.75, -1, -0.5, -0.5 });
	in[3] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 3, 2 },
		     (double[]){ -1, 0, -0.25, 0.5, 1, 1 });
	in[5] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 2, 3 },
		     (double[]){ 0, 0, -INFINITY, 0, 0.5, 0 });
	for (int form = 0; form < 2; form++) {
		if (form == 0)
			in[4] = tens(NPU_DT_F64, 3, (int64_t[]){ 1, 2, 2 },
				     (double[]){ 0.5838942459057149, 1.2593925356413127,
						 0.5213942459057149, 1.6111526160254983 });
		else
			in[4] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 3 },
				     (double[]){ 0.5078118642792044, 0.4921881357207956, 0,
						 0.2353003406222931, 0.4002593625429675,
						 0.36444029683473944, 0.4921881357207956,
						 0.5078118642792044, 0, 0.2904997346762086,
						 0.5098429121892111, 0.1996573531345802 });
		opk(op, attrs, in, 6, 3, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 2 }, dq);
		opk(op, attrs, in, 6, 3, 1, NPU_DT_F64, 4, (int64_t[]){ 1, 1, 3, 2 }, dk);
		opk(op, attrs, in, 6, 3, 2, NPU_DT_F64, 4, (int64_t[]){ 1, 1, 3, 2 }, dv);
		npu_reftensor_free(&in[4]);
	}
	for (int i = 0; i < 6; i++)
		if (i != 4)
			npu_reftensor_free(&in[i]);
}
END_TEST

START_TEST(kept_op_semantics)
{
	npu_reftensor in[3];
	const double fmax32 = 3.4028234663852886e38;

	/* nn.Bilinear: x1 W x2 = [1 2] [[1 2] [3 4]] [5 6]^T */
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 1, 2 }, (double[]){ 1, 2 });
	in[1] = tens(NPU_DT_F64, 3, (int64_t[]){ 1, 2, 2 }, (double[]){ 1, 2, 3, 4 });
	in[2] = tens(NPU_DT_F64, 2, (int64_t[]){ 1, 2 }, (double[]){ 5, 6 });
	opk("aten._trilinear.default", "{\"args\": [{\"input\": 0}, {\"input\": 1}, "
	    "{\"input\": 2}, [1, 3], [0], [1, 2], [2, 3], 1]}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 1, 1 }, (double[]){ 95 });
	for (int i = 0; i < 3; i++)
		npu_reftensor_free(&in[i]);
	/* max_unpool2d: 5 at flat index 1, 7 at 2 */
	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 1, 1, 2 }, (double[]){ 5, 7 });
	in[1] = tens(NPU_DT_I64, 4, (int64_t[]){ 1, 1, 1, 2 }, (double[]){ 1, 2 });
	opk("aten.max_unpool2d.default", "{\"args\": [{\"input\": 0}, {\"input\": 1}, [2, 2]]}",
	    in, 2, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 1, 2, 2 }, (double[]){ 0, 5, 7, 0 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	/* the identity's grid: pixel centres at -0.5 and 0.5 */
	in[0] = tens(NPU_DT_F64, 3, (int64_t[]){ 1, 2, 3 }, (double[]){ 1, 0, 0, 0, 1, 0 });
	opk("aten.affine_grid_generator.default", "{\"args\": [{\"input\": 0}, [1, 1, 2, 2], false]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 2, 2, 2 },
	    (double[]){ -0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, 0.5 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_I64, 1, (int64_t[]){ 3 }, (double[]){ 2, 0, 1 });
	opk("aten.repeat_interleave.Tensor", "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_I64, 1, (int64_t[]){ 3 }, (double[]){ 0, 0, 2 });
	npu_reftensor_free(&in[0]);
	/* the lower median, NaN where the row holds one; cummax's latest index */
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 4 }, (double[]){ 3, 1, 2, 4, 5, NAN, 1, 0 });
	opk("aten.median.dim", "{\"args\": [{\"input\": 0}, 1]}",
	    in, 1, 2, 0, NPU_DT_F64, 1, (int64_t[]){ 2 }, (double[]){ 2, NAN });
	opk("aten.median.dim", "{\"args\": [{\"input\": 0}, 1]}",
	    in, 1, 2, 1, NPU_DT_I64, 1, (int64_t[]){ 2 }, (double[]){ 2, 1 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 5 }, (double[]){ 1, 3, 2, 3, 0 });
	opk("aten.cummax.default", "{\"args\": [{\"input\": 0}, 0]}",
	    in, 1, 2, 1, NPU_DT_I64, 1, (int64_t[]){ 5 }, (double[]){ 0, 1, 1, 3, 3 });
	npu_reftensor_free(&in[0]);
	/* logcumsumexp: -1000 stays itself next to 0 (no underflow to -inf),
	 * log(2) past a pair of zeros, -inf adds nothing */
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 4 }, (double[]){ -1000, 0, -INFINITY, 0 });
	opk("aten.logcumsumexp.default", "{\"args\": [{\"input\": 0}, 0]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 4 },
	    (double[]){ -1000, 0, 0, log(2.0) });
	npu_reftensor_free(&in[0]);
	/* index_add along dim 1 with a repeated index, alpha 2 */
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 1, 1, 1, 1, 1 });
	in[1] = tens(NPU_DT_I64, 1, (int64_t[]){ 2 }, (double[]){ 2, 2 });
	in[2] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 2 }, (double[]){ 1, 2, 3, 4 });
	opk("aten.index_add.default", "{\"args\": [{\"input\": 0}, 1, {\"input\": 1}, "
	    "{\"input\": 2}], \"kwargs\": {\"alpha\": 2}}",
	    in, 3, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 1, 7, 1, 1, 15 });
	for (int i = 0; i < 3; i++)
		npu_reftensor_free(&in[i]);
	/* masks: masked_select, and a bool index over both dims and over
	 * the first (its true positions' indices) */
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 2, 3, 4, 5, 6 });
	in[1] = tens(NPU_DT_BOOL, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 0, 1, 0, 0, 1 });
	opk("aten.masked_select.default", "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
	    in, 2, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 3 }, (double[]){ 1, 3, 6 });
	opk("aten.index.Tensor", "{\"args\": [{\"input\": 0}, [{\"input\": 1}]]}",
	    in, 2, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 3 }, (double[]){ 1, 3, 6 });
	npu_reftensor_free(&in[1]);
	in[1] = tens(NPU_DT_BOOL, 1, (int64_t[]){ 2 }, (double[]){ 0, 1 });
	opk("aten.index.Tensor", "{\"args\": [{\"input\": 0}, [{\"input\": 1}]]}",
	    in, 2, 1, 0, NPU_DT_F64, 2, (int64_t[]){ 1, 3 }, (double[]){ 4, 5, 6 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	/* rrelu in evaluation: slope (0.1 + 0.3) / 2 */
	in[1] = tens(NPU_DT_F64, 1, (int64_t[]){ 3 }, (double[]){ 0, 0, 0 });
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 3 }, (double[]){ -2, 0, 3 });
	opk("aten.rrelu_with_noise.default", "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0.1, 0.3]}",
	    in, 2, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 3 }, (double[]){ -0.4, 0, 3 });
	npu_reftensor_free(&in[1]);
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F32, 1, (int64_t[]){ 4 }, (double[]){ NAN, INFINITY, -INFINITY, 1.5 });
	opk("aten.nan_to_num.default", "{\"args\": [{\"input\": 0}, 0.5, 7.0]}",
	    in, 1, 1, 0, NPU_DT_F32, 1, (int64_t[]){ 4 }, (double[]){ 0.5, 7, -fmax32, 1.5 });
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 3 }, (double[]){ -1, 0, 2.5 });
	in[1] = tens(NPU_DT_F64, 1, (int64_t[]){ 3 }, (double[]){ 9, 9, 9 });
	opk("aten.heaviside.default", "{\"args\": [{\"input\": 0}, {\"input\": 1}]}",
	    in, 2, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 3 }, (double[]){ 0, 9, 1 });
	opk("aten.frac.default", "{\"args\": [{\"input\": 0}]}",
	    in, 1, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 3 }, (double[]){ 0, 0, 0.5 });
	opk("aten.lerp.Scalar", "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0.8]}",
	    in, 2, 1, 0, NPU_DT_F64, 1, (int64_t[]){ 3 }, (double[]){ 7, 7.2, 7.7 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	/* weight_norm: rows of norm 5 scaled to g */
	in[0] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 2 }, (double[]){ 3, 4, 0, 5 });
	in[1] = tens(NPU_DT_F64, 2, (int64_t[]){ 2, 1 }, (double[]){ 10, 1 });
	opk("aten._weight_norm_interface.default", "{\"args\": [{\"input\": 0}, {\"input\": 1}, 0]}",
	    in, 2, 2, 0, NPU_DT_F64, 2, (int64_t[]){ 2, 2 }, (double[]){ 6, 8, 0, 1 });
	npu_reftensor_free(&in[0]);
	npu_reftensor_free(&in[1]);
	/* pixel_shuffle by 2 of four 1x2 channels */
	in[0] = tens(NPU_DT_F64, 4, (int64_t[]){ 1, 4, 1, 2 }, (double[]){ 1, 2, 3, 4, 5, 6, 7, 8 });
	opk("aten.pixel_shuffle.default", "{\"args\": [{\"input\": 0}, 2]}",
	    in, 1, 1, 0, NPU_DT_F64, 4, (int64_t[]){ 1, 1, 2, 4 },
	    (double[]){ 1, 3, 2, 4, 5, 7, 6, 8 });
	npu_reftensor_free(&in[0]);
	opk("aten.linspace.default", "{\"args\": [0, 1, 5]}",
	    in, 0, 1, 0, NPU_DT_F32, 1, (int64_t[]){ 5 }, (double[]){ 0, 0.25, 0.5, 0.75, 1 });
	opk("aten.eye.m", "{\"args\": [2, 3]}",
	    in, 0, 1, 0, NPU_DT_F32, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 0, 0, 0, 1, 0 });
	/* the triangles' indices, as PyTorch lists them */
	opk("aten.triu_indices.default", "{\"args\": [3, 4, 1]}",
	    in, 0, 1, 0, NPU_DT_I64, 2, (int64_t[]){ 2, 6 },
	    (double[]){ 0, 0, 0, 1, 1, 2, 1, 2, 3, 2, 3, 3 });
	opk("aten.tril_indices.default", "{\"args\": [3, 3, -1]}",
	    in, 0, 1, 0, NPU_DT_I64, 2, (int64_t[]){ 2, 3 }, (double[]){ 1, 2, 2, 0, 0, 1 });
}
END_TEST

START_TEST(dropout_semantics)
{
	npu_reftensor in[6];

	/* eval: identity, all-true mask */
	in[0] = tens(NPU_DT_F64, 1, (int64_t[]){ 3 },
		     (double[]){ 1, -2, NAN });
	opk("aten.native_dropout.default",
	    "{\"args\": [{\"input\": 0}, 0.3, false]}",
	    in, 1, 2, 0, NPU_DT_F64, 1, (int64_t[]){ 3 },
	    (double[]){ 1, -2, NAN });
	opk("aten.native_dropout.default",
	    "{\"args\": [{\"input\": 0}, 0.3, false]}",
	    in, 1, 2, 1, NPU_DT_BOOL, 1, (int64_t[]){ 3 },
	    (double[]){ 1, 1, 1 });
	/* p = 0 keeps everything */
	opk("aten.native_dropout.default",
	    "{\"args\": [{\"input\": 0}, 0.0, true]}",
	    in, 1, 2, 0, NPU_DT_F64, 1, (int64_t[]){ 3 },
	    (double[]){ 1, -2, NAN });
	opk("aten.native_dropout.default",
	    "{\"args\": [{\"input\": 0}, 0.0, true]}",
	    in, 1, 2, 1, NPU_DT_BOOL, 1, (int64_t[]){ 3 },
	    (double[]){ 1, 1, 1 });
	/* p = 1 drops everything */
	opk("aten.native_dropout.default",
	    "{\"args\": [{\"input\": 0}, 1.0, true]}",
	    in, 1, 2, 0, NPU_DT_F64, 1, (int64_t[]){ 3 },
	    (double[]){ 0, -0.0, NAN });
	opk("aten.native_dropout.default",
	    "{\"args\": [{\"input\": 0}, 1.0, true]}",
	    in, 1, 2, 1, NPU_DT_BOOL, 1, (int64_t[]){ 3 },
	    (double[]){ 0, 0, 0 });
	npu_reftensor_free(&in[0]);
}
END_TEST

/* Ops whose PyTorch meaning cannot be reproduced, or arguments PyTorch
 * rejects, fail with a message that says why. */
START_TEST(new_op_errors)
{
	npu_reftensor in[3], out[2];
	npu_err e = { "" };

	ck_assert_int_eq(npu_ref_exec_op("aten.randn.default", "{\"args\": [[2, 3]]}",
					 NULL, 0, out, 1, &e), -1);
	ck_assert_str_eq(e.msg, "aten.randn.default: random numbers are not reproducible: "
			 "PyTorch's random stream cannot be replayed");
	ck_assert_int_eq(npu_ref_exec_op("aten.rand.default", "{\"args\": [[2]]}",
					 NULL, 0, out, 1, &e), -1);
	ck_assert_int_eq(npu_ref_exec_op("aten.randperm.default", "{\"args\": [5]}",
					 NULL, 0, out, 1, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "not reproducible"));
	in[0] = tens(NPU_DT_F32, 1, (int64_t[]){ 3 }, (double[]){ 1, 2, 3 });
	ck_assert_int_eq(npu_ref_exec_op("aten.native_dropout.default", "{\"args\": "
					 "[{\"input\": 0}, 0.5, true]}", in, 1, out, 2, &e), -1);
	ck_assert_str_eq(e.msg, "aten.native_dropout.default: dropout with p = 0.5 in "
			 "training mode draws random numbers, which are not reproducible");
	ck_assert_int_eq(npu_ref_exec_op("aten.bitwise_and.Scalar", "{\"args\": "
					 "[{\"input\": 0}, 1]}", in, 1, out, 1, &e), -1);
	ck_assert_str_eq(e.msg, "aten.bitwise_and.Scalar: bitwise ops take integer or "
			 "bool operands");
	/* a reflection pad must be smaller than its dim */
	ck_assert_int_eq(npu_ref_exec_op("aten.reflection_pad1d.default", "{\"args\": "
					 "[{\"input\": 0}, [3, 0]]}", in, 1, out, 1, &e), -1);
	ck_assert_str_eq(e.msg, "aten.reflection_pad1d.default: needs 2 pads and a 2-d "
			 "or 3-d input");
	npu_reftensor_free(&in[0]);
	in[0] = tens(NPU_DT_F32, 2, (int64_t[]){ 1, 3 }, (double[]){ 1, 2, 3 });
	ck_assert_int_eq(npu_ref_exec_op("aten.reflection_pad1d.default", "{\"args\": "
					 "[{\"input\": 0}, [3, 0]]}", in, 1, out, 1, &e), -1);
	ck_assert_str_eq(e.msg, "aten.reflection_pad1d.default: padding (3, 0) does not "
			 "fit dim 1 of size 3");
	/* masked_scatter with too few source elements */
	in[1] = tens(NPU_DT_BOOL, 1, (int64_t[]){ 3 }, (double[]){ 1, 0, 1 });
	in[2] = tens(NPU_DT_F32, 1, (int64_t[]){ 1 }, (double[]){ 9 });
	ck_assert_int_eq(npu_ref_exec_op("aten.masked_scatter.default", "{\"args\": "
					 "[{\"input\": 0}, {\"input\": 1}, {\"input\": 2}]}",
					 in, 3, out, 1, &e), -1);
	ck_assert_str_eq(e.msg, "aten.masked_scatter.default: source has 1 elements, "
			 "the mask more true positions");
	/* scatter_reduce's reduce names */
	ck_assert_int_eq(npu_ref_exec_op("aten.scatter_reduce.two", "{\"args\": "
					 "[{\"input\": 0}, 0, {\"input\": 0}, {\"input\": 0}, "
					 "\"max\"]}", in, 1, out, 1, &e), -1);
	ck_assert_str_eq(e.msg, "aten.scatter_reduce.two: reduce must be 'sum', 'prod', "
			 "'mean', 'amax' or 'amin'");
	for (int k = 0; k < 3; k++)
		npu_reftensor_free(&in[k]);
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
	/* powers, as Dynamo writes them: tighter than unary minus and *,
	 * right-associative */
	ck_assert_int_eq(npu_ref_symeval("2*s0**2", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, 98);
	ck_assert_int_eq(npu_ref_symeval("-s33**2", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, -16);
	ck_assert_int_eq(npu_ref_symeval("s33**2**2", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, 256);
	ck_assert_int_eq(npu_ref_symeval("(s0 + 1)**2 - 1", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, 63);
	/* sympy's Max and Min, any number of arguments (torchvision's
	 * box code: s20*Max(1, ((s90 + 1)//2))) */
	ck_assert_int_eq(npu_ref_symeval("s33*Max(1, ((s0 + 1)//2))", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, 16);
	ck_assert_int_eq(npu_ref_symeval("Max(1, s33 - 9)", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(npu_ref_symeval("Min(s0, s33, 5) + Max(s0)", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, 11);
	ck_assert_int_eq(npu_ref_symeval("Max(2, s0)**2", names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, 49);
	ck_assert_int_eq(npu_ref_symeval("Max(1, s0", names, vals, 2, &v, &e), -1);
	ck_assert_int_eq(npu_ref_symeval("Max()", names, vals, 2, &v, &e), -1);
	ck_assert_int_eq(npu_ref_symeval("sqrt(s0)", names, vals, 2, &v, &e), -1);
	ck_assert_str_eq(e.msg, "unknown function 'sqrt' in a symbolic expression");
	/* SymFloats: true division makes a float, which a size refuses;
	 * the roundings make integers again */
	{
		double f;
		int fl;
		ck_assert_int_eq(npu_ref_symevalf("IntTrueDiv(s0, 2*s33)", names, vals, 2,
						  &f, &fl, &e), 0);
		ck_assert(fl && f == 0.875);
		ck_assert_int_eq(npu_ref_symevalf("ToFloat(s0)/2 + Max(1, 0.25)", names, vals,
						  2, &f, &fl, &e), 0);
		ck_assert(fl && f == 4.5);
		ck_assert_int_eq(npu_ref_symevalf("s0//2", names, vals, 2, &f, &fl, &e), 0);
		ck_assert(!fl && f == 3);
		ck_assert_int_eq(npu_ref_symevalf("2.5*s33 - 0.5", names, vals, 2, &f, &fl, &e), 0);
		ck_assert(fl && f == 9.5);
	}
	ck_assert_int_eq(npu_ref_symeval("s0/2", names, vals, 2, &v, &e), -1);
	ck_assert_msg(strstr(e.msg, "is a float where a size is needed"), "%s", e.msg);
	ck_assert_int_eq(npu_ref_symeval("FloorToInt(s0/2) + CeilToInt(IntTrueDiv(s0, 2))",
					 names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(npu_ref_symeval("ceiling(ToFloat(-s0)/2) + TruncToInt(-3.5)",
					 names, vals, 2, &v, &e), 0);
	ck_assert_int_eq(v, -6);
	ck_assert_int_eq(npu_ref_symeval("IntTrueDiv(s0)", names, vals, 2, &v, &e), -1);
	ck_assert_str_eq(e.msg, "IntTrueDiv takes 2 argument(s), not 1");
	ck_assert_int_eq(npu_ref_symeval("s0**-1", names, vals, 2, &v, &e), -1);
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
	tcase_add_test(tc, conv3d_backward_semantics);
	tcase_add_test(tc, fft_real_semantics);
	tcase_add_test(tc, conv_transposed_semantics);
	tcase_add_test(tc, index_put_fmod_semantics);
	tcase_add_test(tc, pool_semantics);
	tcase_add_test(tc, new_elementwise_semantics);
	tcase_add_test(tc, new_shape_semantics);
	tcase_add_test(tc, new_reduction_semantics);
	tcase_add_test(tc, scatter_reduce_semantics);
	tcase_add_test(tc, embedding_semantics);
	tcase_add_test(tc, resampling_semantics);
	tcase_add_test(tc, norm_backward_semantics);
	tcase_add_test(tc, act_backward_semantics);
	tcase_add_test(tc, bn_backward_semantics);
	tcase_add_test(tc, mse_semantics);
	tcase_add_test(tc, nll_semantics);
	tcase_add_test(tc, distance_semantics);
	tcase_add_test(tc, kept_op_semantics);
	tcase_add_test(tc, sdpa_backward);
	tcase_add_test(tc, dropout_semantics);
	tcase_add_test(tc, new_op_errors);
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
