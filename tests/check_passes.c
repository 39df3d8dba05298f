/*
 * check_passes.c - the normalization passes (compiler/passes.h).
 *
 * Semantics: every captured graph with recorded values runs through the
 * reference interpreter before and after the passes, parameters and
 * buffers frozen, and the outputs must agree: bit for bit when no pass
 * changed arithmetic, within 1e-6 relative L2 error (fp32/fp64) when
 * folding or decomposition reassociated it.  Structure: conv-BN folding
 * on conv_bn_relu, the kept conv of conv_bn_shared, DCE/CSE counts,
 * no-op removal, layout canonicalization and decompositions on small
 * hand-made graphs, mutated inputs and their copies kept.
 */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/gedit.h"
#include "compiler/graph.h"
#include "compiler/passes.h"
#include "compiler/ref.h"
#include "isa/isa.h"
#include "isa/st.h"
#include "isa/target.h"

/* ---- values ------------------------------------------------------ */

typedef struct env {
	npu_stfile f;
	int loaded;
	npu_reftensor *t;          /* from the safetensors file */
	int nt;
	char **gen_name;           /* generated values (resnet18) */
	npu_reftensor *gen;
	int ngen;
	const npu_graph *g;        /* the graph frozen values are taken from */
	npu_passconsts consts;
} env;

static const npu_reftensor *env_value(env *s, const char *name)
{
	for (int i = 0; i < s->nt; i++)
		if (!strcmp(s->f.t[i].name, name))
			return &s->t[i];
	for (int i = 0; i < s->ngen; i++)
		if (!strcmp(s->gen_name[i], name))
			return &s->gen[i];
	return NULL;
}

/* Run-time lookup: folded constants first, then the recorded values. */
static const npu_reftensor *run_lookup(void *ctx, const char *name)
{
	env *s = ctx;
	const npu_reftensor *t = npu_passconsts_find(&s->consts, name);

	return t ? t : env_value(s, name);
}

/* Frozen: parameters, buffers and get_attr tensors. */
static const npu_reftensor *frozen_lookup(void *ctx, const char *name)
{
	env *s = ctx;
	int i;

	if (!strncmp(name, "attr.", 5))
		return env_value(s, name);
	i = npu_graph_find(s->g, name);
	if (i < 0 || (s->g->nodes[i].phkind != NPU_PH_PARAMETER &&
		      s->g->nodes[i].phkind != NPU_PH_BUFFER))
		return NULL;
	return env_value(s, name);
}

static void path_of(char *buf, size_t n, const char *rel)
{
	const char *srcdir = getenv("srcdir");

	snprintf(buf, n, "%s/tests/data/fx/%s", srcdir ? srcdir : ".", rel);
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

static void env_load(env *s, const char *graph)
{
	char rel[512], path[1024];
	npu_err e = { "" };

	memset(s, 0, sizeof *s);
	snprintf(rel, sizeof rel, "%s.safetensors", graph);
	path_of(path, sizeof path, rel);
	ck_assert_msg(npu_st_read(&s->f, path, &e) == 0, "%s", e.msg);
	s->loaded = 1;
	s->nt = (int)s->f.n;
	s->t = calloc(s->f.n + 1, sizeof *s->t);
	for (size_t i = 0; i < s->f.n; i++)
		ck_assert_msg(npu_reftensor_load(&s->t[i], s->f.t[i].dtype,
						 s->f.t[i].ndim, s->f.t[i].shape,
						 s->f.t[i].data, &e) == 0, "%s", e.msg);
}

static void env_free(env *s)
{
	for (int i = 0; i < s->nt; i++)
		npu_reftensor_free(&s->t[i]);
	free(s->t);
	for (int i = 0; i < s->ngen; i++) {
		npu_reftensor_free(&s->gen[i]);
		free(s->gen_name[i]);
	}
	free(s->gen);
	free(s->gen_name);
	if (s->loaded)
		npu_st_free(&s->f);
	npu_passconsts_free(&s->consts);
}

/* Deterministic values for every placeholder of g (no recorded ones):
 * small, centred weights; variances positive. */
static void env_generate(env *s, const npu_graph *g)
{
	uint64_t x = 88172645463325252u;
	npu_err e = { "" };
	int n = npu_graph_nplaceholders(g);

	memset(s, 0, sizeof *s);
	s->gen = calloc((size_t)n + 1, sizeof *s->gen);
	s->gen_name = calloc((size_t)n + 1, sizeof *s->gen_name);
	for (int i = 0; i < n; i++) {
		const npu_gnode *p = &g->nodes[npu_graph_placeholder(g, i)];
		const npu_gmeta *m = &p->meta[0];
		int64_t shape[NPU_MAX_DIMS];
		npu_reftensor *t = &s->gen[s->ngen];
		int var = strstr(p->phsource ? p->phsource : "", "running_var") != NULL;
		ck_assert_int_ge(npu_gmeta_shape(m, shape), 0);
		ck_assert_msg(npu_reftensor_alloc(t, m->dtype, m->ndim, shape, &e)
			      == 0, "%s", e.msg);
		for (int64_t k = 0; k < npu_reftensor_numel(t); k++) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			t->data[k] = (double)(x >> 40) / (double)(1 << 24) - 0.5;
			if (var)
				t->data[k] += 1.0;
			t->data[k] = (double)(float)t->data[k];
		}
		s->gen_name[s->ngen++] = strdup(p->name);
	}
}

/* ---- comparing runs ---------------------------------------------- */

static double rel_err(const char *what, const npu_reftensor *a,
		      const npu_reftensor *b, int exact)
{
	double num = 0, den = 0;
	int64_t n = npu_reftensor_numel(b);

	ck_assert_msg(a->ndim == b->ndim, "%s: rank %d vs %d", what, a->ndim,
		      b->ndim);
	for (int i = 0; i < a->ndim; i++)
		ck_assert_msg(a->shape[i] == b->shape[i], "%s: dim %d", what, i);
	ck_assert_msg(a->dtype == b->dtype, "%s: dtype", what);
	for (int64_t i = 0; i < n; i++) {
		double x = a->data[i], y = b->data[i];
		if (exact || !isfinite(x) || !isfinite(y)) {
			ck_assert_msg((isnan(x) && isnan(y)) || x == y,
				      "%s: element %lld is %.17g, was %.17g", what,
				      (long long)i, x, y);
			continue;
		}
		num += (x - y) * (x - y);
		den += y * y;
	}
	return den > 0 ? sqrt(num / den) : sqrt(num);
}

static int arithmetic_changed(const npu_passlog *log)
{
	return log->changes[NPU_PASS_FOLD] || log->changes[NPU_PASS_CONVBN] ||
	       log->changes[NPU_PASS_DECOMP] || log->changes[NPU_PASS_NORMW] ||
	       npu_passlog_count(log, NPU_PASS_CLEANUP, "folded");
}

static int count_aop(const npu_graph *g, int aop)
{
	int n = 0;

	for (int i = 0; i < g->nnodes; i++)
		n += g->nodes[i].aop == aop;
	return n;
}

/* The target roundtrip's passes see (NULL: none, as npucc without one). */
static const npu_target *rt_target;

/* Runs g, the passes on it, and g again; compares.  Returns the log in
 * *logp when asked. */
static void roundtrip(const char *what, npu_graph *g, env *s,
		      npu_passlog *logp, double tol)
{
	npu_refenv renv = { NPU_REF_FP64, run_lookup, s };
	npu_passopts o = { .target = rt_target };
	npu_passlog log;
	npu_reftensor *before, *after;
	int nb, na, exact;
	npu_err e = { "" };

	s->g = g;
	ck_assert_msg(npu_ref_run(g, &renv, &before, &nb, &e) == 0,
		      "%s before: %s", what, e.msg);
	o.frozen = frozen_lookup;
	o.ctx = s;
	o.consts = &s->consts;
	npu_passlog_init(&log);
	ck_assert_msg(npu_passes_run(g, &o, &log, &e) == 0, "%s: %s", what,
		      e.msg);
	ck_assert_msg(npu_ref_run(g, &renv, &after, &na, &e) == 0,
		      "%s after: %s", what, e.msg);
	ck_assert_int_eq(na, nb);
	exact = !arithmetic_changed(&log);
	for (int i = 0; i < nb; i++) {
		char w[256];
		double err;
		snprintf(w, sizeof w, "%s output %d", what, i);
		if (before[i].ndim < 0) {
			ck_assert_int_lt(after[i].ndim, 0);
			continue;
		}
		err = rel_err(w, &after[i], &before[i], exact);
		ck_assert_msg(err <= tol, "%s: rel. L2 error %.3g", w, err);
	}
	npu_ref_free_outputs(before, nb);
	npu_ref_free_outputs(after, na);
	{
		/* a fixpoint: a second run changes nothing */
		npu_passlog again;
		int changes = 0;
		npu_passlog_init(&again);
		ck_assert_msg(npu_passes_run(g, &o, &again, &e) == 0, "%s again: %s",
			      what, e.msg);
		for (int p = 0; p < NPU_NPASS; p++)
			changes += again.changes[p];
		for (int k = 0; k < again.n && changes; k++)
			fprintf(stderr, "%s again: %s: %s\n", what,
				npu_pass_name(again.v[k].pass), again.v[k].what);
		ck_assert_msg(changes == 0, "%s: %d changes on a second run", what,
			      changes);
		npu_passlog_free(&again);
	}
	if (logp)
		*logp = log;
	else
		npu_passlog_free(&log);
}

static double dtype_tol(const npu_graph *g)
{
	for (int i = 0; i < g->nnodes; i++)
		if (g->nodes[i].nmeta && (g->nodes[i].meta[0].dtype == NPU_DT_BF16 ||
					  g->nodes[i].meta[0].dtype == NPU_DT_F16))
			return 8e-3;
	return 1e-6;
}

static const char *const fixtures[] = {
	"attention_manual/inference2", "attention_sdpa/inference2",
	"bias_relu/inference2", "conv_bn_relu/inference2",
	"conv_bn_shared/inference2", "conv_bn_train/forward2",
	"conv_bn_train/backward3", "graph_breaks/inference2",
	"graph_breaks/inference4", "graph_breaks/inference6",
	"llama_tiny/inference2", "mlp_bf16/inference2",
	"mlp_dynamic/inference2", "mlp_fp32/inference2",
	"mlp_train/forward2", "mlp_train/backward3",
	"mutation_views/inference2", "quant_int8_mm/inference2",
	"quant_qdq_linear/inference2", "rmsnorm_bfloat16/inference2",
	"rmsnorm_dynamic/inference2", "rmsnorm_empty/inference2",
	"rmsnorm_eps1e-6_noaffine/inference2", "rmsnorm_float32/inference2",
	"rmsnorm_float64/inference2", "rmsnorm_noncontig/inference2",
	"rmsnorm_train/forward2", "rmsnorm_train/backward3",
};

START_TEST(fixture_semantics)
{
	const char *name = fixtures[_i];
	npu_graph *g = graph_load(name);
	env s;

	env_load(&s, name);
	roundtrip(name, g, &s, NULL, dtype_tol(g));
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

/* ---- conv-BN ----------------------------------------------------- */

START_TEST(conv_bn_relu_folded)
{
	npu_graph *g = graph_load("conv_bn_relu/inference2");
	npu_passlog log;
	env s;
	const char *org;
	int c;

	env_load(&s, "conv_bn_relu/inference2");
	roundtrip("conv_bn_relu", g, &s, &log, 1e-6);
	ck_assert_int_eq(count_aop(g, NPU_AOP_BN_INFER), 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_CONV), 1);
	ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_CONVBN,
		"folded convolution + _native_batch_norm_legit_no_training"), 1);
	/* the conv keeps its name and remembers the BN */
	c = npu_graph_find(g, "convolution");
	ck_assert_int_ge(c, 0);
	org = npu_passlog_origins(&log, "convolution");
	ck_assert_ptr_nonnull(org);
	ck_assert_str_eq(org, "convolution,_native_batch_norm_legit_no_training,"
			 "getitem");
	/* frozen: the new weight and bias are folded constants */
	ck_assert_int_eq(g->nodes[c].args[1].kind, NPU_GV_NODE);
	ck_assert_int_eq(g->nodes[g->nodes[c].args[1].u.node].op, NPU_GOP_GET_ATTR);
	ck_assert_int_eq(g->nodes[g->nodes[c].args[2].u.node].op, NPU_GOP_GET_ATTR);
	ck_assert_int_ge(s.consts.n, 2);
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

START_TEST(conv_bn_shared_kept)
{
	npu_graph *g = graph_load("conv_bn_shared/inference2");
	npu_passlog log;
	env s;
	int c, w;

	env_load(&s, "conv_bn_shared/inference2");
	roundtrip("conv_bn_shared", g, &s, &log, 1e-6);
	ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_CONVBN,
					   "kept convolution (2 users)"), 1);
	ck_assert_int_eq(log.changes[NPU_PASS_CONVBN], 0);
	c = npu_graph_find(g, "convolution");
	ck_assert_int_ge(c, 0);
	w = g->nodes[c].args[1].u.node;
	ck_assert_str_eq(g->nodes[w].name, "arg0_1");   /* weight untouched */
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

/* Without frozen values conv-BN still folds, as run-time arithmetic on
 * the parameters. */
START_TEST(conv_bn_unfrozen)
{
	npu_graph *g = graph_load("conv_bn_relu/inference2");
	npu_refenv renv;
	npu_passlog log;
	npu_reftensor *before, *after;
	int nb, na;
	env s;
	npu_err e = { "" };

	env_load(&s, "conv_bn_relu/inference2");
	renv = (npu_refenv){ NPU_REF_FP64, run_lookup, &s };
	ck_assert(npu_ref_run(g, &renv, &before, &nb, &e) == 0);
	npu_passlog_init(&log);
	ck_assert_msg(npu_passes_run(g, NULL, &log, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(count_aop(g, NPU_AOP_BN_INFER), 0);
	ck_assert_int_eq(log.changes[NPU_PASS_CONVBN], 1);
	ck_assert_msg(npu_ref_run(g, &renv, &after, &na, &e) == 0, "%s", e.msg);
	ck_assert_double_le(rel_err("unfrozen", &after[0], &before[0], 0), 1e-6);
	npu_ref_free_outputs(before, nb);
	npu_ref_free_outputs(after, na);
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

START_TEST(resnet18_generated)
{
	npu_graph *g = graph_load("resnet18/inference2");
	npu_passlog log;
	env s;
	struct timespec t0, t1;
	double secs;
	int convs = count_aop(g, NPU_AOP_CONV);

	env_generate(&s, g);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	roundtrip("resnet18", g, &s, &log, 1e-6);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	ck_assert_int_eq(count_aop(g, NPU_AOP_BN_INFER), 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_CONV), convs);
	ck_assert_int_eq(log.changes[NPU_PASS_CONVBN], convs);
	double ptime = 0;
	for (int p = 0; p < NPU_NPASS; p++)
		ptime += log.seconds[p];
	fprintf(stderr, "resnet18: %d conv-bn folds, passes %.1f ms "
		"(with two reference runs %.2f s), nodes %d -> %d\n",
		convs, ptime * 1e3, secs, log.nodes_before, log.nodes_after);
	ck_assert_double_lt(ptime, 5.0);      /* generous: sanitizer builds */
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

/* ---- hand-made graphs -------------------------------------------- */

#define PH(name, shape) "{\"name\":\"" name "\",\"op\":\"placeholder\"," \
	"\"target\":\"" name "\",\"args\":[],\"kwargs\":{},\"meta\":" shape "}"
#define F32(...) "{\"shape\":[" #__VA_ARGS__ "],\"dtype\":\"float32\"}"
#define CALL(name, target, args, meta) ",{\"name\":\"" name "\"," \
	"\"op\":\"call_function\",\"target\":\"" target "\",\"args\":" args \
	",\"kwargs\":{},\"meta\":" meta "}"
#define CALLKW(name, target, args, kw, meta) ",{\"name\":\"" name "\"," \
	"\"op\":\"call_function\",\"target\":\"" target "\",\"args\":" args \
	",\"kwargs\":" kw ",\"meta\":" meta "}"
#define OUT(args) ",{\"name\":\"output\",\"op\":\"output\"," \
	"\"target\":\"output\",\"args\":[" args "],\"kwargs\":{}}"
#define N(x) "{\"node\":\"" x "\"}"
#define GRAPH(nodes) "{\"format\":\"fxgraph\",\"version\":1,\"name\":\"t\"," \
	"\"graph_kind\":\"inference\",\"nodes\":[" nodes "]}"

static npu_graph *parse(const char *json)
{
	npu_graph *g;
	npu_err e = { "" };

	ck_assert_msg(npu_graph_parse(&g, "t.json", json, strlen(json), &e) == 0,
		      "%s", e.msg);
	return g;
}

/* Random inputs for every placeholder of a hand-made graph. */
static void env_random(env *s, const npu_graph *g)
{
	env_generate(s, g);
	for (int i = 0; i < s->ngen; i++)
		for (int64_t k = 0; k < npu_reftensor_numel(&s->gen[i]); k++)
			s->gen[i].data[k] *= 4;
}

static int run_one(npu_graph *g, int pass, npu_passlog *log)
{
	npu_err e = { "" };
	int rc = npu_pass_run(pass, g, NULL, log, &e);

	ck_assert_msg(rc == 0, "%s", e.msg);
	return log->changes[pass];
}

START_TEST(dce_and_cse_counts)
{
	npu_graph *g = parse(GRAPH(PH("x", F32(4, 8))
		CALL("a", "aten.relu.default", "[" N("x") "]", F32(4, 8))
		CALL("b", "aten.relu.default", "[" N("x") "]", F32(4, 8))
		CALL("c", "aten.exp.default", "[" N("a") "]", F32(4, 8))
		CALL("d", "aten.exp.default", "[" N("b") "]", F32(4, 8))
		CALL("s", "aten.add.Tensor", "[" N("c") "," N("d") "]", F32(4, 8))
		CALL("m1", "aten.mul.Tensor", "[" N("s") ", 2]", F32(4, 8))
		CALL("m2", "aten.mul.Tensor", "[" N("s") ", 2.0]", F32(4, 8))
		CALL("dead1", "aten.neg.default", "[" N("x") "]", F32(4, 8))
		CALL("dead2", "aten.tanh.default", "[" N("dead1") "]", F32(4, 8))
		CALL("o", "aten.add.Tensor", "[" N("m1") "," N("m2") "]", F32(4, 8))
		OUT("[" N("o") "]")));
	npu_passlog log;

	npu_passlog_init(&log);
	ck_assert_int_eq(run_one(g, NPU_PASS_DCE, &log), 2);
	ck_assert_int_eq(g->nnodes, 10);
	ck_assert_int_lt(npu_graph_find(g, "dead1"), 0);
	/* b = a, then d = c; m1 and m2 differ (int 2 vs float 2.0) */
	ck_assert_int_eq(run_one(g, NPU_PASS_CSE, &log), 2);
	ck_assert_int_eq(g->nnodes, 8);
	ck_assert_int_lt(npu_graph_find(g, "d"), 0);
	ck_assert_int_ge(npu_graph_find(g, "m2"), 0);
	ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_CSE, "b = a"), 1);
	ck_assert_str_eq(npu_passlog_origins(&log, "a"), "a,b");
	ck_assert_ptr_null(npu_passlog_origins(&log, "s"));
	/* indexes stay consistent: s uses c twice now */
	{
		const npu_gnode *s = &g->nodes[npu_graph_find(g, "s")];
		ck_assert_int_eq(s->args[0].u.node, npu_graph_find(g, "c"));
		ck_assert_int_eq(s->args[1].u.node, npu_graph_find(g, "c"));
	}
	ck_assert_int_eq(g->output, g->nnodes - 1);
	npu_passlog_free(&log);
	npu_graph_free(g);
}
END_TEST

/* New nodes get FX's names, unique against the graph's and each other's
 * (a hash of the session's names, grown as it fills): "relu" taken by
 * the graph, 3,000 more are relu_1 .. relu_3000 wherever they are added,
 * "x_1" already taken as a name. */
START_TEST(gedit_unique_names)
{
	npu_graph *g = parse(GRAPH(PH("x", F32(4, 8)) "," PH("x_1", F32(4, 8))
		CALL("relu", "aten.relu.default", "[" N("x") "]", F32(4, 8))
		OUT("[" N("relu") "]")));
	int r = npu_graph_find(g, "relu"), n0 = g->nnodes;
	npu_gval a = npu_gv_node(npu_graph_find(g, "x"));
	npu_gedit ge;
	npu_err e = { "" };
	char want[32];

	ck_assert_int_eq(npu_gedit_begin(&ge, g, &e), 0);
	for (int k = 0; k < 3000; k++) {
		npu_gnode n;
		ck_assert_int_eq(npu_gnode_make(&n, "relu", "aten.relu.default", &a, 1,
						&g->nodes[r].meta[0], &g->nodes[r]), 0);
		ck_assert_int_eq(npu_gedit_add(&ge, r, &n, &e), n0 + k);
		snprintf(want, sizeof want, "relu_%d", k + 1);
		ck_assert_str_eq(npu_gedit_node(&ge, n0 + k)->name, want);
	}
	{
		npu_gnode n;
		ck_assert_int_eq(npu_gnode_make(&n, "x", "aten.relu.default", &a, 1,
						&g->nodes[r].meta[0], &g->nodes[r]), 0);
		ck_assert_int_eq(npu_gedit_add(&ge, r, &n, &e), n0 + 3000);
		ck_assert_str_eq(npu_gedit_node(&ge, n0 + 3000)->name, "x_2");
	}
	ck_assert_int_eq(npu_gedit_commit(&ge, &e), 0);
	ck_assert_int_eq(g->nnodes, n0 + 3001);
	ck_assert_int_ge(npu_graph_find(g, "relu_3000"), 0);
	ck_assert_int_ge(npu_graph_find(g, "x_2"), 0);
	npu_graph_free(g);
}
END_TEST

START_TEST(noop_views_removed)
{
	npu_graph *g = parse(GRAPH(PH("x", F32(4, 8))
		CALL("v", "aten.view.default", "[" N("x") ", [4, 8]]", F32(4, 8))
		CALL("p", "aten.permute.default", "[" N("v") ", [0, 1]]", F32(4, 8))
		CALL("e", "aten.expand.default", "[" N("p") ", [4, 8]]", F32(4, 8))
		CALL("sl", "aten.slice.Tensor", "[" N("e") ", 1, 0, 9223372036854775807]", F32(4, 8))
		CALL("sl2", "aten.slice.Tensor", "[" N("sl") ", 1, 0, 4]", F32(4, 4))
		CALL("c", "aten.clone.default", "[" N("sl2") "]", F32(4, 4))
		CALL("r", "aten.relu.default", "[" N("c") "]", F32(4, 4))
		CALL("c2", "aten.clone.default", "[" N("r") "]", F32(4, 4))
		OUT("[" N("c2") "]")));
	npu_passlog log;
	env s;

	npu_passlog_init(&log);
	ck_assert_int_eq(run_one(g, NPU_PASS_NOOP, &log), 5);
	/* kept: the real slice, and the clone that is the graph's output */
	ck_assert_int_ge(npu_graph_find(g, "sl2"), 0);
	ck_assert_int_ge(npu_graph_find(g, "c2"), 0);
	ck_assert_int_eq(g->nodes[npu_graph_find(g, "sl2")].args[0].u.node,
			 npu_graph_find(g, "x"));
	env_random(&s, g);
	roundtrip("noop", g, &s, NULL, 0);
	env_free(&s);
	npu_passlog_free(&log);
	npu_graph_free(g);
}
END_TEST

/*
 * Folding: frozen values folded into constants (a0 = w * 3 and a = w * 2,
 * which x + a0 and x + a need at run time), the second's other user an
 * expand of it past 65,536 elements (kept at run time: cheaper to
 * compute than to store).  Weighing that expand read the node of a
 * constant the session had added, past the session's table: npucc
 * crashed on a ResNet-50's training forward graph with every parameter
 * frozen.
 */
START_TEST(fold_expand_of_folded)
{
	npu_graph *g = parse(GRAPH("{\"name\":\"w\",\"op\":\"placeholder\",\"target\":\"w\","
		"\"args\":[],\"kwargs\":{},\"kind\":\"parameter\",\"meta\":" F32(1, 256) "},"
		PH("x", F32(300, 256))
		CALL("a0", "aten.mul.Tensor", "[" N("w") ", 3.0]", F32(1, 256))
		CALL("c0", "aten.add.Tensor", "[" N("x") "," N("a0") "]", F32(300, 256))
		CALL("a", "aten.mul.Tensor", "[" N("w") ", 2.0]", F32(1, 256))
		CALL("c1", "aten.add.Tensor", "[" N("x") "," N("a") "]", F32(300, 256))
		CALL("b", "aten.expand.default", "[" N("a") ", [300, 256]]", F32(300, 256))
		CALL("c2", "aten.mul.Tensor", "[" N("x") "," N("b") "]", F32(300, 256))
		OUT("[" N("c0") "," N("c1") "," N("c2") "]")));
	npu_passlog log;
	env s;

	env_random(&s, g);
	roundtrip("fold_expand", g, &s, &log, 1e-6);
	ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_FOLD, "folded a "), 1);
	ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_FOLD, "kept b (76800 elements made from 256"), 1);
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

START_TEST(layout_canonical)
{
	npu_graph *g = parse(GRAPH(PH("x", F32(2, 3, 4))
		CALL("t1", "aten.transpose.int", "[" N("x") ", 0, -1]", F32(4, 3, 2))
		CALL("p", "aten.permute.default", "[" N("t1") ", [1, 0, 2]]", F32(3, 4, 2))
		CALL("v1", "aten.view.default", "[" N("p") ", [12, 2]]", F32(12, 2))
		CALL("v2", "aten.view.default", "[" N("v1") ", [24]]", F32(24))
		CALL("m", "aten.view.default", "[" N("x") ", [6, 4]]", F32(6, 4))
		CALL("tt", "aten.t.default", "[" N("m") "]", F32(4, 6))
		CALL("e", "aten.expand.default", "[" N("v2") ", [2, 24]]", F32(2, 24))
		OUT("[" N("e") "," N("tt") "]")));
	npu_passlog log;
	env s;
	int p;
	const npu_gval *perm;

	env_random(&s, g);
	roundtrip("layout", g, &s, &log, 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_TRANSPOSE), 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_T), 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_EXPAND), 1);
	/* x.transpose(0, 2).permute(1, 0, 2) = x.permute(1, 2, 0) */
	p = npu_graph_find(g, "p");
	ck_assert_int_ge(p, 0);
	ck_assert_int_eq(g->nodes[p].args[0].u.node, npu_graph_find(g, "x"));
	perm = &g->nodes[p].args[1];
	ck_assert_int_eq(perm->u.list.v[0].u.i, 1);
	ck_assert_int_eq(perm->u.list.v[1].u.i, 2);
	ck_assert_int_eq(perm->u.list.v[2].u.i, 0);
	/* view chains: v2 reads p directly, v1 is gone */
	ck_assert_int_lt(npu_graph_find(g, "v1"), 0);
	ck_assert_int_eq(g->nodes[npu_graph_find(g, "v2")].args[0].u.node, p);
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

/* A multiply by a number of views moves onto the computed value the
 * views read (it then joins that value's kernel); not onto an input. */
START_TEST(layout_sink_mul)
{
	npu_graph *g = parse(GRAPH(PH("x", F32(2, 4, 6))
		CALL("r", "aten.relu.default", "[" N("x") "]", F32(2, 4, 6))
		CALL("u", "aten.unsqueeze.default", "[" N("r") ", 1]", F32(2, 1, 4, 6))
		CALL("e", "aten.expand.default", "[" N("u") ", [2, 3, 4, 6]]", F32(2, 3, 4, 6))
		CALL("p", "aten.permute.default", "[" N("e") ", [0, 1, 3, 2]]", F32(2, 3, 6, 4))
		CALL("m", "aten.mul.Scalar", "[" N("p") ", 0.5]", F32(2, 3, 6, 4))
		CALL("p2", "aten.permute.default", "[" N("x") ", [0, 2, 1]]", F32(2, 6, 4))
		CALL("m2", "aten.mul.Tensor", "[" N("p2") ", 0.25]", F32(2, 6, 4))
		OUT("[" N("m") "," N("m2") "]")));
	npu_passlog log;
	env s;
	int pre, p;

	env_random(&s, g);
	roundtrip("layout", g, &s, &log, 0);
	ck_assert_int_lt(npu_graph_find(g, "m"), 0);
	pre = npu_graph_find(g, "m_pre");
	ck_assert_int_ge(pre, 0);
	ck_assert_int_eq(g->nodes[pre].args[0].u.node, npu_graph_find(g, "r"));
	ck_assert_int_eq(g->nodes[npu_graph_find(g, "u")].args[0].u.node, pre);
	ck_assert_int_ge(p = npu_graph_find(g, "m2"), 0);
	ck_assert_int_eq(g->nodes[p].args[0].u.node, npu_graph_find(g, "p2"));
	ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_LAYOUT, "m:"), 1);
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

/* A view chain that another reader shares keeps its values: GPT-2's k
 * (a permute of a view of the qkv matmul) is a graph output, saved for
 * the backward, and its transpose, composed into one permute of the view
 * by this same session, is scaled; the multiply must not move onto the
 * matmul (m2 first builds the session's readers, which the composition
 * then changed). */
START_TEST(layout_sink_mul_shared)
{
	npu_graph *g = parse(GRAPH(PH("x", F32(2, 4, 6))
		CALL("r", "aten.relu.default", "[" N("x") "]", F32(2, 4, 6))
		CALL("p2", "aten.permute.default", "[" N("x") ", [0, 2, 1]]", F32(2, 6, 4))
		CALL("m2", "aten.mul.Tensor", "[" N("p2") ", 0.25]", F32(2, 6, 4))
		CALL("v", "aten.view.default", "[" N("r") ", [2, 4, 2, 3]]", F32(2, 4, 2, 3))
		CALL("p", "aten.permute.default", "[" N("v") ", [0, 2, 1, 3]]", F32(2, 2, 4, 3))
		CALL("p3", "aten.permute.default", "[" N("p") ", [0, 1, 3, 2]]", F32(2, 2, 3, 4))
		CALL("m", "aten.mul.Scalar", "[" N("p3") ", 0.5]", F32(2, 2, 3, 4))
		OUT("[" N("p") "," N("m") "," N("m2") "]")));
	npu_passlog log;
	env s;

	env_random(&s, g);
	roundtrip("layout", g, &s, &log, 0);
	ck_assert_int_lt(npu_graph_find(g, "m_pre"), 0);
	ck_assert_int_eq(g->nodes[npu_graph_find(g, "v")].args[0].u.node, npu_graph_find(g, "r"));
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

START_TEST(decompositions)
{
	npu_graph *g = parse(GRAPH(PH("x", F32(4, 8)) "," PH("w", F32(8)) ","
		PH("b", F32(8)) "," PH("m", F32(8, 8))
		CALL("si", "aten.silu.default", "[" N("x") "]", F32(4, 8))
		CALL("hs", "aten.hardswish.default", "[" N("si") "]", F32(4, 8))
		CALL("hg", "aten.hardsigmoid.default", "[" N("hs") "]", F32(4, 8))
		CALL("ls", "aten._log_softmax.default", "[" N("hg") ", -1, false]", F32(4, 8))
		CALL("ln", "aten.native_layer_norm.default", "[" N("ls") ", [8], "
		     N("w") "," N("b") ", 1e-5]", "[" F32(4, 8) "," F32(4, 1) ","
		     F32(4, 1) "]")
		CALL("g0", "_operator.getitem", "[" N("ln") ", 0]", F32(4, 8))
		CALL("g2", "_operator.getitem", "[" N("ln") ", 2]", F32(4, 1))
		CALLKW("vm", "aten.var_mean.correction", "[" N("g0") ", [0]]",
		       "{\"correction\": 1, \"keepdim\": true}",
		       "[" F32(1, 8) "," F32(1, 8) "]")
		CALL("v0", "_operator.getitem", "[" N("vm") ", 0]", F32(1, 8))
		CALL("v1", "_operator.getitem", "[" N("vm") ", 1]", F32(1, 8))
		CALLKW("am", "aten.addmm.default", "[" N("b") "," N("x") "," N("m") "]",
		       "{\"beta\": 0.5, \"alpha\": 2}", F32(4, 8))
		CALL("am1", "aten.addmm.default", "[" N("b") "," N("x") "," N("m") "]",
		     F32(4, 8))
		OUT("[" N("g0") "," N("g2") "," N("v0") "," N("v1") "," N("am") ","
		    N("am1") "]")));
	static const int composite[] = {
		NPU_AOP_SILU, NPU_AOP_HARDSWISH, NPU_AOP_HARDSIGMOID,
		NPU_AOP_LOG_SOFTMAX, NPU_AOP_LAYER_NORM, NPU_AOP_VAR_MEAN,
		NPU_AOP_VAR, NPU_AOP_GETITEM,
	};
	npu_passlog log;
	env s;

	env_random(&s, g);
	roundtrip("decompositions", g, &s, &log, 1e-9);
	for (size_t i = 0; i < sizeof composite / sizeof *composite; i++)
		ck_assert_msg(count_aop(g, composite[i]) == 0, "%s left",
			      npu_aoptab[composite[i]].target);
	/* addmm with alpha = beta = 1 is a primitive and stays */
	ck_assert_int_eq(count_aop(g, NPU_AOP_ADDMM), 1);
	ck_assert_int_eq(log.changes[NPU_PASS_DECOMP], 7);
	ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_DECOMP,
					   "decomposed ln (aten.native_layer_norm"), 1);
	/* new nodes keep the composite's origin */
	for (int i = 0; i < g->nnodes; i++)
		if (g->nodes[i].aop == NPU_AOP_RSQRT) {
			const char *o = npu_passlog_origins(&log, g->nodes[i].name);
			ck_assert_ptr_nonnull(o);
			ck_assert_ptr_nonnull(strstr(o, "ln"));
		}
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

/* The elementwise composites of the core ATen set that decompose into
 * native ops: every one is expanded, the values match the composite's in
 * fp64, and with every primitive rounded to fp32 (what the vector unit
 * computes) they stay within the fp32 bar of rel. L2 1e-5 of the exact
 * composite, element by element: sinh's series below |x| = 0.5 avoids
 * e^x - e^-x's cancellation (inputs in [-2, 2), and a few tiny ones). */
#define EWDECOMP GRAPH(PH("x", F32(4, 8)) "," PH("lo", F32(8)) "," PH("hi", F32(4, 1)) \
	CALL("t", "aten.tan.default", "[" N("x") "]", F32(4, 8)) \
	CALL("a", "aten.abs.default", "[" N("x") "]", F32(4, 8)) \
	CALL("l", "aten.log10.default", "[" N("a") "]", F32(4, 8)) \
	CALL("ch", "aten.cosh.default", "[" N("x") "]", F32(4, 8)) \
	CALL("sh", "aten.sinh.default", "[" N("x") "]", F32(4, 8)) \
	CALL("c2", "aten.clamp.Tensor", "[" N("x") "," N("lo") "," N("hi") "]", F32(4, 8)) \
	CALL("c1", "aten.clamp.Tensor", "[" N("x") ", null, " N("hi") "]", F32(4, 8)) \
	CALL("f", "aten.fill.Scalar", "[" N("x") ", 2.5]", F32(4, 8)) \
	CALL("v", "aten.var.dim", "[" N("x") ", [1], false, true]", F32(4, 1)) \
	CALL("vu", "aten.var.dim", "[" N("x") ", [0]]", F32(8)) \
	OUT("[" N("t") "," N("l") "," N("ch") "," N("sh") "," N("c2") "," N("c1") "," \
	    N("f") "," N("v") "," N("vu") "]"))

START_TEST(core_elementwise_decomposed)
{
	npu_graph *g = parse(EWDECOMP), *g0 = parse(EWDECOMP);
	static const int composite[] = {
		NPU_AOP_TAN, NPU_AOP_LOG10, NPU_AOP_COSH, NPU_AOP_SINH,
		NPU_AOP_CLAMP_T, NPU_AOP_FILL_S, NPU_AOP_VAR_DIM, NPU_AOP_VAR,
	};
	npu_refenv r64 = { NPU_REF_FP64, run_lookup, NULL };
	npu_refenv r32 = { NPU_REF_TORCH, run_lookup, NULL };
	npu_reftensor *want, *got;
	int nw, ng;
	npu_err e = { "" };
	npu_passlog log;
	env s;

	env_random(&s, g);
	/* tiny values, where e^x - e^-x loses its digits, and both sides of
	 * sinh's switch to the series */
	ck_assert_str_eq(s.gen_name[0], "x");
	s.gen[0].data[0] = (float)1e-4;
	s.gen[0].data[1] = (float)-2.5e-6;
	s.gen[0].data[2] = (float)0.4999;
	s.gen[0].data[3] = 0.5;
	roundtrip("core elementwise", g, &s, &log, 1e-9);
	for (size_t i = 0; i < sizeof composite / sizeof *composite; i++)
		ck_assert_msg(count_aop(g, composite[i]) == 0, "%s left",
			      npu_aoptab[composite[i]].target);
	ck_assert_int_eq(log.changes[NPU_PASS_DECOMP], 9);
	ck_assert_int_eq(count_aop(g, NPU_AOP_FULL_LIKE), 1);
	r64.ctx = r32.ctx = &s;
	s.g = g0;
	ck_assert_msg(npu_ref_run(g0, &r64, &want, &nw, &e) == 0, "%s", e.msg);
	s.g = g;
	ck_assert_msg(npu_ref_run(g, &r32, &got, &ng, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(ng, nw);
	for (int i = 0; i < nw; i++) {
		char w[64];
		double err;
		snprintf(w, sizeof w, "fp32 output %d", i);
		err = rel_err(w, &got[i], &want[i], 0);
		ck_assert_msg(err <= 1e-5, "%s: rel. L2 error %.3g", w, err);
		/* and element by element: the L2 norm would hide a small
		 * sinh(x) computed with a cancellation */
		for (int64_t k = 0; k < npu_reftensor_numel(&want[i]); k++) {
			double a = got[i].data[k], b = want[i].data[k];
			ck_assert_msg(fabs(a - b) <= 1e-5 * fabs(b), "%s [%lld]: %.9g, "
				      "want %.9g", w, (long long)k, a, b);
		}
	}
	npu_ref_free_outputs(want, nw);
	npu_ref_free_outputs(got, ng);
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
	npu_graph_free(g0);
}
END_TEST

/* convolution_backward(go, x, w) of a 3x3 convolution with the given
 * stride, padding and dilation, its results read through getitem; m0
 * ("true"/"false") asks for grad_input, gi0 its meta, out0 "" or the
 * output of it. */
#define CBWD(...) CBWD_(__VA_ARGS__)
#define CBWD_(st, pd, dl, oh, m0, gi0, gicall, out0) GRAPH(PH("go", F32(2, 4, oh, oh)) "," \
	PH("x", F32(2, 3, 9, 9)) "," PH("w", F32(4, 3, 3, 3)) \
	CALL("cb", "aten.convolution_backward.default", "[" N("go") "," N("x") \
	     "," N("w") ", [4], [" #st "," #st "], [" #pd "," #pd "], [" #dl "," \
	     #dl "], false, [0, 0], 1, [" m0 ", true, true]]", \
	     "[" gi0 "," F32(4, 3, 3, 3) "," F32(4) "]") \
	gicall \
	CALL("gw", "_operator.getitem", "[" N("cb") ", 1]", F32(4, 3, 3, 3)) \
	CALL("gb", "_operator.getitem", "[" N("cb") ", 2]", F32(4)) \
	OUT("[" out0 N("gw") "," N("gb") "]"))
#define NOGI "false", "{\"scalar\":null}", "", ""
#define GI "true", F32(2, 3, 9, 9), \
	CALL("gi", "_operator.getitem", "[" N("cb") ", 0]", F32(2, 3, 9, 9)), N("gi") ","

/* The same with groups: x [2, ci, 9, 9], w [co, ci / g, k, k]. */
#define GCBWD(st, pd, dl, oh, ci, co, g, k, cig) GRAPH(PH("go", F32(2, co, oh, oh)) "," \
	PH("x", F32(2, ci, 9, 9)) "," PH("w", F32(co, cig, k, k)) \
	CALL("cb", "aten.convolution_backward.default", "[" N("go") "," N("x") \
	     "," N("w") ", [" #co "], [" #st "," #st "], [" #pd "," #pd "], [" #dl "," \
	     #dl "], false, [0, 0], " #g ", [true, true, true]]", \
	     "[" F32(2, ci, 9, 9) "," F32(co, cig, k, k) "," F32(co) "]") \
	CALL("gi", "_operator.getitem", "[" N("cb") ", 0]", F32(2, ci, 9, 9)) \
	CALL("gw", "_operator.getitem", "[" N("cb") ", 1]", F32(co, cig, k, k)) \
	CALL("gb", "_operator.getitem", "[" N("cb") ", 2]", F32(co)) \
	OUT("[" N("gi") "," N("gw") "," N("gb") "]"))

/* A 3-d convolution's (video: R(2+1)D, R3D): x [2, 3, 5, 7, 7], w [4, 3,
 * kd, kh, kh], stride (sd, sh, sh), padding (pd, ph, ph), go [2, 4, od,
 * oh, oh]. */
#define CBWD3(kd, kh, sd, sh, pd, ph, od, oh) GRAPH(PH("go", F32(2, 4, od, oh, oh)) "," \
	PH("x", F32(2, 3, 5, 7, 7)) "," PH("w", F32(4, 3, kd, kh, kh)) \
	CALL("cb", "aten.convolution_backward.default", "[" N("go") "," N("x") \
	     "," N("w") ", [4], [" #sd "," #sh "," #sh "], [" #pd "," #ph "," #ph "], " \
	     "[1, 1, 1], false, [0, 0, 0], 1, [true, true, true]]", \
	     "[" F32(2, 3, 5, 7, 7) "," F32(4, 3, kd, kh, kh) "," F32(4) "]") \
	CALL("gi", "_operator.getitem", "[" N("cb") ", 0]", F32(2, 3, 5, 7, 7)) \
	CALL("gw", "_operator.getitem", "[" N("cb") ", 1]", F32(4, 3, kd, kh, kh)) \
	CALL("gb", "_operator.getitem", "[" N("cb") ", 2]", F32(4)) \
	OUT("[" N("gi") "," N("gw") "," N("gb") "]"))

/* A 1-d convolution's (Mamba's causal depthwise one): x [2, ci, 9], w
 * [co, ci / g, k], go [2, co, ol]. */
#define CBWD1(st, pd, dl, ol, ci, co, g, k, cig) GRAPH(PH("go", F32(2, co, ol)) "," \
	PH("x", F32(2, ci, 9)) "," PH("w", F32(co, cig, k)) \
	CALL("cb", "aten.convolution_backward.default", "[" N("go") "," N("x") \
	     "," N("w") ", [" #co "], [" #st "], [" #pd "], [" #dl "], false, [0], " #g \
	     ", [true, true, true]]", "[" F32(2, ci, 9) "," F32(co, cig, k) "," F32(co) "]") \
	CALL("gi", "_operator.getitem", "[" N("cb") ", 0]", F32(2, ci, 9)) \
	CALL("gw", "_operator.getitem", "[" N("cb") ", 1]", F32(co, cig, k)) \
	CALL("gb", "_operator.getitem", "[" N("cb") ", 2]", F32(co)) \
	OUT("[" N("gi") "," N("gw") "," N("gb") "]"))

/* Attention's CPU backward from the saved probabilities, two heads:
 * decomposed into batched products (the values equal the reference's
 * for the op); with dropout the op is kept (its mask is no operand). */
#define SDPA_BWD(p) GRAPH(PH("go", F32(1, 2, 3, 4)) "," PH("q", F32(1, 2, 3, 4)) "," \
	PH("k", F32(1, 2, 5, 4)) "," PH("v", F32(1, 2, 5, 4)) "," PH("o", F32(1, 2, 3, 4)) "," \
	PH("p", F32(1, 2, 3, 5)) \
	CALLKW("sb", "aten._scaled_dot_product_flash_attention_for_cpu_backward.default", \
	       "[" N("go") "," N("q") "," N("k") "," N("v") "," N("o") "," N("p") ", " #p ", false]", \
	       "{\"scale\": 0.5}", "[" F32(1, 2, 3, 4) "," F32(1, 2, 5, 4) "," F32(1, 2, 5, 4) "]") \
	CALL("dq", "_operator.getitem", "[" N("sb") ", 0]", F32(1, 2, 3, 4)) \
	CALL("dk", "_operator.getitem", "[" N("sb") ", 1]", F32(1, 2, 5, 4)) \
	CALL("dv", "_operator.getitem", "[" N("sb") ", 2]", F32(1, 2, 5, 4)) \
	OUT("[" N("dq") "," N("dk") "," N("dv") "]"))

START_TEST(sdpa_backward_decomposed)
{
	npu_graph *g = parse(SDPA_BWD(0.0));
	npu_passlog log;
	env s;

	env_random(&s, g);
	roundtrip("sdpa backward", g, &s, &log, 1e-9);
	ck_assert_int_eq(count_aop(g, NPU_AOP_SDPA_CPU_BWD), 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_BMM), 4);   /* dP, dQ, dK, dV */
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
	g = parse(SDPA_BWD(0.1));
	npu_passlog_init(&log);
	run_one(g, NPU_PASS_DECOMP, &log);
	ck_assert_int_eq(count_aop(g, NPU_AOP_SDPA_CPU_BWD), 1);
	npu_passlog_free(&log);
	npu_graph_free(g);
}
END_TEST

/* Case i of a convolution_backward table: its roundtrip through the
 * passes (values against the reference's for the op), the op kept or
 * not, and the convolutions left; the graph and the log for the
 * caller's own checks (free both). */
static npu_graph *cbwd_case(const char *json, const char *kind, size_t i, int kept,
			    int convs, npu_passlog *log)
{
	npu_graph *g = parse(json);
	env s;
	char what[64];

	snprintf(what, sizeof what, "%s %zu", kind, i);
	env_random(&s, g);
	roundtrip(what, g, &s, log, 1e-9);
	ck_assert_msg(count_aop(g, NPU_AOP_CONV_BWD) == kept, "%s", what);
	ck_assert_msg(count_aop(g, NPU_AOP_CONV) == convs, "%s: %d convolutions", what,
		      count_aop(g, NPU_AOP_CONV));
	env_free(&s);
	return g;
}

/* Depthwise convolutions' gradients: grad_input the grouped convolution
 * of grad_output with zeros inserted along the stride, by the flipped
 * weight; grad_weight one product and reduction a tap (with two input
 * channels a group, each group's products over its slices, the groups'
 * concatenated). */
START_TEST(conv_backward_grouped)
{
	static const struct {
		const char *json;
		int kept, convs;
	} c[] = {
		{ GCBWD(2, 1, 1, 5, 4, 4, 4, 3, 1), 0, 1 },
		/* two outputs an input channel, dilation 2 */
		{ GCBWD(1, 2, 2, 9, 3, 6, 3, 3, 1), 0, 1 },
		/* stride 3, padding 0: output_padding 2 */
		{ GCBWD(3, 0, 1, 3, 4, 4, 4, 3, 1), 0, 1 },
		/* 5x5 at stride 2 (EfficientNet's) */
		{ GCBWD(2, 2, 1, 5, 4, 4, 4, 5, 1), 0, 1 },
		/* two input channels a group: each group's grad_weight
		 * over its slices, concatenated */
		{ GCBWD(2, 1, 1, 5, 4, 4, 2, 3, 2), 0, 1 },
		/* one group, a 1x1 window padded by 1 (more than the window
		 * spans): grad_input the transposed convolution as ever */
		{ GCBWD(1, 1, 1, 11, 3, 4, 1, 1, 3), 0, 1 },
	};

	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		npu_passlog log;
		npu_graph *g = cbwd_case(c[i].json, "grouped convolution_backward", i,
					 c[i].kept, c[i].convs, &log);

		npu_passlog_free(&log);
		npu_graph_free(g);
	}
}
END_TEST

/* convolution_backward's grad_weight (a product a tap of grad_output by
 * the input's window there, strided by the forward stride, dilated by
 * its dilation) and grad_bias (a sum) replace it, and grad_input (a
 * transposed convolution) at any stride; the values equal the
 * reference's for the op. */
START_TEST(conv_backward_decomposed)
{
	static const struct {
		const char *json;
		int kept, convs, mms;
	} c[] = {
		{ CBWD(1, 2, 2, 9, NOGI), 0, 0, 1 },
		{ CBWD(1, 1, 1, 9, NOGI), 0, 0, 1 },
		/* stride 2: each tap's window strided by 2, a product a tap */
		{ CBWD(2, 1, 1, 5, NOGI), 0, 0, 9 },
		/* grad_input: a transposed convolution (output_padding 0) */
		{ CBWD(1, 1, 1, 9, GI), 0, 1, 1 },
		/* stride 2: output_padding 0 (9 = (5 - 1) * 2 - 2 + 2 + 1) */
		{ CBWD(2, 1, 1, 5, GI), 0, 1, 9 },
		/* stride 2, padding 0: 9 = (4 - 1) * 2 + 2 + 1 */
		{ CBWD(2, 0, 1, 4, GI), 0, 1, 9 },
		/* stride 3, padding 0: 9 = (3 - 1) * 3 + 2 + 1 + output_padding 2
		 * (the input's last two rows reach no output) */
		{ CBWD(3, 0, 1, 3, GI), 0, 1, 9 },
		/* dilation 2 (check_fuzzgraph): the backend runs no dilated
		 * transposed convolution; the convolution of the padded
		 * grad_output by the flipped weight, dilated */
		{ CBWD(1, 2, 2, 9, GI), 0, 1, 1 },
	};

	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		npu_passlog log;
		npu_graph *g = cbwd_case(c[i].json, "convolution_backward", i, c[i].kept,
					 c[i].convs, &log);

		/* grad_weight: one product by the im2col matrix of the
		 * 3x3 window's taps, or at a stride one a tap */
		ck_assert_int_eq(count_aop(g, NPU_AOP_MM), c[i].mms);
		ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_DECOMP,
						   "decomposed cb (aten.convolution_backward"),
				 !c[i].kept);
		npu_passlog_free(&log);
		npu_graph_free(g);
	}
}
END_TEST

/* A table of convolution_backward graphs (all decomposed, one
 * convolution left for grad_input) and the matrix products each leaves:
 * one by the im2col matrix of the taps' windows, one a tap at a stride,
 * none for a depthwise one (a product and reduction a tap). */
typedef struct cbwd_mm_case {
	const char *json;
	int mms;
} cbwd_mm_case;

static void cbwd_mm_cases(const cbwd_mm_case *c, size_t n, const char *kind)
{
	for (size_t i = 0; i < n; i++) {
		npu_passlog log;
		npu_graph *g = cbwd_case(c[i].json, kind, i, 0, 1, &log);

		ck_assert_msg(count_aop(g, NPU_AOP_MM) == c[i].mms, "%s %zu: %d products", kind,
			      i, count_aop(g, NPU_AOP_MM));
		npu_passlog_free(&log);
		npu_graph_free(g);
	}
}

/* 3-d convolutions' gradients: grad_input the 3-d convolution of
 * grad_output with zeros inserted along the stride, padded, by the
 * flipped weight (the backend runs no transposed 3-d one); grad_weight
 * as a 2-d one's.  R(2+1)D's spatial (1x3x3, stride 1x2x2) and temporal
 * (3x1x1, stride 2x1x1) halves, R3D's 3x3x3 at strides 1 and 2 and its
 * 1x1x1 downsample. */
START_TEST(conv3d_backward_decomposed)
{
	static const cbwd_mm_case c[] = {
		{ CBWD3(1, 3, 1, 2, 0, 1, 5, 4), 9 },
		{ CBWD3(3, 1, 2, 1, 1, 0, 3, 7), 3 },
		{ CBWD3(3, 3, 1, 1, 1, 1, 5, 7), 1 },
		{ CBWD3(3, 3, 2, 2, 1, 1, 3, 4), 27 },
		{ CBWD3(1, 1, 2, 2, 0, 0, 3, 4), 1 },
	};

	cbwd_mm_cases(c, sizeof c / sizeof *c, "3-d convolution_backward");
}
END_TEST

/* grad_weight with input channels that fill the array's 128 columns: a
 * product a tap (im2col would save only the array's fill and drain);
 * with fewer, one product by the im2col matrix. */
START_TEST(conv_backward_wide)
{
	static const cbwd_mm_case c[] = {
		{ GCBWD(1, 1, 1, 9, 128, 4, 1, 3, 128), 9 },
		{ GCBWD(1, 1, 1, 9, 96, 4, 1, 3, 96), 1 },
	};

	cbwd_mm_cases(c, sizeof c / sizeof *c, "wide convolution_backward");
}
END_TEST

/* 1-d convolutions' gradients, as 2-d ones of height 1 viewed back:
 * Mamba's causal depthwise convolution (kernel 4, padding 3), a strided
 * one of one group, a dilated one, one of two groups. */
START_TEST(conv1d_backward_decomposed)
{
	static const cbwd_mm_case c[] = {
		{ CBWD1(1, 3, 1, 12, 4, 4, 4, 4, 1), 0 },
		{ CBWD1(2, 1, 1, 5, 3, 4, 1, 3, 3), 3 },
		{ CBWD1(1, 2, 2, 9, 3, 4, 1, 3, 3), 1 },
		/* two groups of two channels: each group's product */
		{ CBWD1(1, 1, 1, 9, 4, 4, 2, 3, 2), 2 },
	};

	cbwd_mm_cases(c, sizeof c / sizeof *c, "1-d convolution_backward");
}
END_TEST

/*
 * Linear, bilinear and trilinear resizes and affine grids decomposed
 * (pass_decomp.c @uplin, @affgrid): the values equal the reference's for
 * the op (the weights rounded to float32), each resized dim two indexes
 * by constant tables.  They are chosen by an estimate against the host
 * call: with a host slower than any (a target of a 10^9-cycle latency)
 * every case decomposes; on npu-base (no target: its figures) the small
 * grids do, while the resizes and the large grid stay host calls.
 */
START_TEST(resample_decomposed)
{
	static const struct {
		const char *json;
		int aop, base_kept;
	} c[] = {
		{ GRAPH(PH("x", F32(2, 3, 7)) CALL("u", "aten.upsample_linear1d.vec",
			"[" N("x") ", [12], false, null]", F32(2, 3, 12)) OUT("[" N("u") "]")),
		  NPU_AOP_UPSAMPLE_LINEAR1D, 1 },
		{ GRAPH(PH("x", F32(2, 3, 7)) CALL("u", "aten.upsample_linear1d.vec",
			"[" N("x") ", null, true, [0.6]]", F32(2, 3, 4)) OUT("[" N("u") "]")),
		  NPU_AOP_UPSAMPLE_LINEAR1D, 1 },
		{ GRAPH(PH("x", F32(8, 64, 512)) CALL("u", "aten.upsample_linear1d.vec",
			"[" N("x") ", [1024], false, null]", F32(8, 64, 1024)) OUT("[" N("u") "]")),
		  NPU_AOP_UPSAMPLE_LINEAR1D, 1 },
		{ GRAPH(PH("x", F32(1, 2, 5, 6)) CALL("u", "aten.upsample_bilinear2d.vec",
			"[" N("x") ", [9, 4], true, null]", F32(1, 2, 9, 4)) OUT("[" N("u") "]")),
		  NPU_AOP_UPSAMPLE_BILINEAR2D, 1 },
		{ GRAPH(PH("x", F32(1, 2, 3, 4, 5)) CALL("u", "aten.upsample_trilinear3d.vec",
			"[" N("x") ", null, false, [1.5, 2.0, 1.3]]", F32(1, 2, 4, 8, 6))
			OUT("[" N("u") "]")),
		  NPU_AOP_UPSAMPLE_TRILINEAR3D, 1 },
		{ GRAPH(PH("t", F32(2, 2, 3)) CALL("a", "aten.affine_grid_generator.default",
			"[" N("t") ", [2, 1, 4, 5], false]", F32(2, 4, 5, 2)) OUT("[" N("a") "]")),
		  NPU_AOP_AFFINE_GRID, 0 },
		{ GRAPH(PH("t", F32(1, 3, 4)) CALL("a", "aten.affine_grid_generator.default",
			"[" N("t") ", [1, 1, 2, 3, 4], true]", F32(1, 2, 3, 4, 3)) OUT("[" N("a") "]")),
		  NPU_AOP_AFFINE_GRID, 0 },
		{ GRAPH(PH("t", F32(4, 2, 3)) CALL("a", "aten.affine_grid_generator.default",
			"[" N("t") ", [4, 1, 64, 64], false]", F32(4, 64, 64, 2)) OUT("[" N("a") "]")),
		  NPU_AOP_AFFINE_GRID, 1 },
	};
	/* (the figures the estimates read) */
	static const npu_target slow_host = {
		.vec_lanes = 128, .dma_engines = 4, .dma_bytes_per_cycle = 128,
		.dram_bytes_per_cycle = 1600, .dram_latency = 400, .dram_burst = 64,
		.host_latency = 1000000000, .host_bytes_per_cycle = 32,
		.host_flops_per_cycle = 20,
	};

	for (int slow = 0; slow < 2; slow++)
		for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
			npu_graph *g = parse(c[i].json);
			char what[64];
			env s;
			snprintf(what, sizeof what, "resample %zu%s", i, slow ? " (slow host)" : "");
			env_random(&s, g);
			rt_target = slow ? &slow_host : NULL;
			roundtrip(what, g, &s, NULL, 1e-6);
			rt_target = NULL;
			ck_assert_msg(count_aop(g, c[i].aop) == (slow ? 0 : c[i].base_kept),
				      "%s: %d kept", what, count_aop(g, c[i].aop));
			if (slow && c[i].aop != NPU_AOP_AFFINE_GRID)
				ck_assert_msg(count_aop(g, NPU_AOP_INDEX) > 0, "%s", what);
			env_free(&s);
			npu_graph_free(g);
		}
}
END_TEST

/* A float32 meta of shape s (dims up to the first 0, at most 5). */
static void f32_meta(char *buf, size_t n, const int64_t *s)
{
	size_t k = (size_t)snprintf(buf, n, "{\"shape\":[");

	for (int d = 0; d < 5 && s[d] && k < n; d++)
		k += (size_t)snprintf(buf + k, n - k, "%s%lld", d ? "," : "", (long long)s[d]);
	if (k < n)
		snprintf(buf + k, n - k, "],\"dtype\":\"float32\"}");
}

/*
 * Convolutions fuse.c does not run as they are, rewritten as ones it
 * does (pass_decomp.c's @convx): grouped, depthwise and dilated 3-d ones
 * as 2-d ones over their depth taps stacked into the channels;
 * transposed 3-d, grouped (1-d and 2-d) and dilated ones as
 * convolutions of the input with zeros inserted.  Every rewrite against
 * the reference's op under a target whose host is slow, and which ones
 * npu-base keeps as host calls (the host's estimate is the lower: small
 * ones, depthwise ones); one padded past its window is kept on both.
 */
START_TEST(conv_rewritten)
{
	static const struct {
		int64_t x[5], w[5], out[5];
		const char *args;
		int bias, base;         /* base: rewritten on npu-base; -1 never */
	} c[] = {
		{ { 1, 3, 2, 3, 3 }, { 3, 2, 2, 2, 2 }, { 1, 2, 4, 6, 6 },
		  "[2,2,2],[0,0,0],[1,1,1],true,[0,0,0],1", 1, 0 },
		{ { 1, 16, 3, 8, 8 }, { 16, 8, 3, 3, 3 }, { 1, 8, 6, 16, 16 },
		  "[2,2,2],[1,1,1],[1,1,1],true,[1,1,1],1", 0, 1 },
		{ { 1, 24, 4, 14, 14 }, { 48, 4, 3, 3, 3 }, { 1, 48, 4, 7, 7 },
		  "[1,2,2],[1,1,1],[1,1,1],false,[0,0,0],6", 1, 1 },
		{ { 1, 8, 3, 6, 6 }, { 8, 1, 3, 3, 3 }, { 1, 8, 3, 6, 6 },
		  "[1,1,1],[1,1,1],[1,1,1],false,[0,0,0],8", 1, 0 },
		{ { 1, 8, 6, 12, 12 }, { 8, 8, 3, 3, 3 }, { 1, 8, 6, 12, 12 },
		  "[1,1,1],[2,2,2],[2,2,2],false,[0,0,0],1", 0, 1 },
		{ { 1, 6, 5, 7, 7 }, { 6, 2, 3, 3, 3 }, { 1, 6, 3, 5, 7 },
		  "[2,1,1],[1,0,2],[1,1,2],false,[0,0,0],3", 1, 0 },
		{ { 1, 16, 8, 8 }, { 16, 16, 3, 3 }, { 1, 16, 16, 16 },
		  "[2,2],[2,2],[2,2],true,[1,1],1", 1, 1 },
		{ { 1, 16, 6, 6 }, { 16, 2, 4, 4 }, { 1, 16, 12, 12 },
		  "[2,2],[1,1],[1,1],true,[0,0],8", 1, 0 },
		{ { 2, 16, 50 }, { 16, 4, 4 }, { 2, 16, 100 },
		  "[2],[1],[1],true,[0],4", 0, 0 },
		{ { 2, 4, 9 }, { 4, 6, 3 }, { 2, 6, 28 },
		  "[3],[1],[2],true,[1],1", 1, 0 },
		{ { 1, 4, 3, 4, 4 }, { 4, 4, 2, 2, 2 }, { 1, 4, 2, 4, 4 },
		  "[2,2,2],[2,2,2],[1,1,1],true,[0,0,0],1", 0, -1 },
	};
	static const npu_target slow_host = {
		.mxu_rows = 128, .mxu_cols = 128, .vec_lanes = 128, .dma_engines = 4,
		.dma_bytes_per_cycle = 128, .dram_bytes_per_cycle = 1600, .dram_latency = 400,
		.dram_burst = 64, .host_latency = 1000000000, .host_bytes_per_cycle = 32,
		.host_flops_per_cycle = 20,
	};

	for (int slow = 0; slow < 2; slow++)
		for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
			char json[2048], mx[128], mw[128], mb[128], mo[128], what[64];
			int64_t bs[5] = { c[i].out[1] };
			npu_graph *g;
			int n0;
			env s;
			f32_meta(mx, sizeof mx, c[i].x);
			f32_meta(mw, sizeof mw, c[i].w);
			f32_meta(mb, sizeof mb, bs);
			f32_meta(mo, sizeof mo, c[i].out);
			snprintf(json, sizeof json, GRAPH(PH("x", "%s") "," PH("w", "%s") "," PH("b", "%s")
				 CALL("c", "aten.convolution.default", "[" N("x") "," N("w") ",%s,%s]", "%s")
				 OUT("[" N("c") "]")),
				 mx, mw, mb, c[i].bias ? N("b") : "null", c[i].args, mo);
			g = parse(json);
			n0 = g->nnodes;
			snprintf(what, sizeof what, "convolution %zu%s", i, slow ? " (slow host)" : "");
			env_random(&s, g);
			rt_target = slow ? &slow_host : NULL;
			roundtrip(what, g, &s, NULL, 1e-6);
			rt_target = NULL;
			ck_assert_msg((g->nnodes > n0) == (c[i].base >= 0 && (slow || c[i].base)),
				      "%s: %d nodes (%d before)", what, g->nnodes, n0);
			env_free(&s);
			npu_graph_free(g);
		}
}
END_TEST

/* avg_pool2d_backward(go [1, 2, oh, ow], x [1, 2, 5, 7], args) */
#define PBWD(oh, ow, args) GRAPH(PH("go", F32(1, 2, oh, ow)) "," PH("x", F32(1, 2, 5, 7)) \
	CALL("pb", "aten.avg_pool2d_backward.default", "[" N("go") "," N("x") "," args "]", \
	     F32(1, 2, 5, 7)) OUT("[" N("pb") "]"))

/* Average pooling's gradient where the windows tile the plane: each
 * window's gradient over its divisor, repeated over it, zeros where no
 * window reaches (the values equal the reference's for the op); the
 * adaptive pool's; windows that overlap or pad are kept. */
START_TEST(pool_backward_decomposed)
{
	static const struct {
		const char *json;
		int kept;
	} c[] = {
		/* 2 x 2 windows over 5 x 7: the last row and column no
		 * window's */
		{ PBWD(2, 3, "[2, 2], [2, 2], [0, 0], false, true, null"), 0 },
		/* 1 x 7 windows, a divisor override, ceil_mode changing
		 * nothing */
		{ PBWD(5, 1, "[1, 7], [1, 7], [0, 0], true, false, 3"), 0 },
		/* stride 1: the windows overlap */
		{ PBWD(4, 6, "[2, 2], [1, 1], [0, 0], false, true, null"), 1 },
		/* padding */
		{ PBWD(3, 4, "[2, 2], [2, 2], [1, 1], false, true, null"), 1 },
		{ GRAPH(PH("go", F32(1, 2, 5, 1)) "," PH("x", F32(1, 2, 5, 7))
			CALL("pb", "aten._adaptive_avg_pool2d_backward.default",
			     "[" N("go") "," N("x") "]", F32(1, 2, 5, 7)) OUT("[" N("pb") "]")), 0 },
	};

	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		npu_graph *g = parse(c[i].json);
		npu_passlog log;
		env s;
		char what[48];

		snprintf(what, sizeof what, "pooling backward %zu", i);
		env_random(&s, g);
		roundtrip(what, g, &s, &log, 1e-9);
		ck_assert_msg(count_aop(g, NPU_AOP_AVG_POOL2D_BWD) +
			      count_aop(g, NPU_AOP_ADAPTIVE_AVG_POOL2D_BWD) == c[i].kept, "%s", what);
		npu_passlog_free(&log);
		env_free(&s);
		npu_graph_free(g);
	}
}
END_TEST

#define AOT(flags) ",\"aot\":{\"input_mutates_data\":[" flags "]," \
	"\"num_mutated_inputs_returned_first\":1}"
#define GRAPH_AOT(nodes, flags) "{\"format\":\"fxgraph\",\"version\":1," \
	"\"name\":\"t\",\"graph_kind\":\"inference\"" AOT(flags) \
	",\"nodes\":[" nodes "]}"

/* A buffer updated in place: its new value is returned first; the old
 * value's snapshots (two identical clones) are neither merged nor
 * removed, and the buffer is not frozen even when a value is offered. */
START_TEST(mutated_inputs_kept)
{
	npu_graph *g = parse(GRAPH_AOT(PH("buf", F32(8)) "," PH("x", F32(8))
		CALL("c1", "aten.clone.default", "[" N("buf") "]", F32(8))
		CALL("c2", "aten.clone.default", "[" N("buf") "]", F32(8))
		CALL("n", "aten.add.Tensor", "[" N("buf") ", 1]", F32(8))
		CALL("y", "aten.mul.Tensor", "[" N("c1") "," N("c2") "]", F32(8))
		CALL("z", "aten.add.Tensor", "[" N("y") "," N("x") "]", F32(8))
		OUT("[" N("n") "," N("z") "]"), "true, false"));
	npu_passopts o = { 0 };
	npu_passlog log;
	env s;
	npu_err e = { "" };

	env_random(&s, g);
	o.frozen = run_lookup;     /* offers everything, buf included */
	o.ctx = &s;
	o.consts = &s.consts;
	npu_passlog_init(&log);
	ck_assert_msg(npu_passes_run(g, &o, &log, &e) == 0, "%s", e.msg);
	ck_assert_int_ge(npu_graph_find(g, "buf"), 0);
	ck_assert_int_ge(npu_graph_find(g, "c1"), 0);
	ck_assert_int_ge(npu_graph_find(g, "c2"), 0);
	ck_assert_int_ge(npu_graph_find(g, "n"), 0);
	ck_assert_int_eq(s.consts.n, 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_CLONE), 2);
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

/* ---- rope ---------------------------------------------------------- */

/* x * cos + cat(-x2, x1) * sin, the attention scale after it: the halves
 * computed apart (x1 * cos1 - x2 * sin1, x2 * cos2 + x1 * sin2), scaled,
 * and their cat; the same values bit for bit.  A rotated copy that
 * something else reads too stays as it is. */
#define ROPE_NODES(extra) PH("x", F32(2, 3, 8)) "," PH("c", F32(1, 3, 8)) "," \
	PH("s", F32(1, 3, 8)) \
	CALL("xc", "aten.mul.Tensor", "[" N("x") ", " N("c") "]", F32(2, 3, 8)) \
	CALL("x1", "aten.slice.Tensor", "[" N("x") ", 2, 0, 4]", F32(2, 3, 4)) \
	CALL("x2", "aten.slice.Tensor", "[" N("x") ", 2, 4, 9223372036854775807]", F32(2, 3, 4)) \
	CALL("ng", "aten.neg.default", "[" N("x2") "]", F32(2, 3, 4)) \
	CALL("rot", "aten.cat.default", "[[" N("ng") ", " N("x1") "], -1]", F32(2, 3, 8)) \
	CALL("rs", "aten.mul.Tensor", "[" N("rot") ", " N("s") "]", F32(2, 3, 8)) \
	CALL("y", "aten.add.Tensor", "[" N("xc") ", " N("rs") "]", F32(2, 3, 8)) \
	CALL("ys", "aten.mul.Scalar", "[" N("y") ", 0.3535533905932738]", F32(2, 3, 8)) \
	extra

START_TEST(rope_halves)
{
	npu_graph *g = parse(GRAPH(ROPE_NODES("") OUT("[" N("ys") "]")));
	npu_passlog log;
	env s;

	npu_passlog_init(&log);
	ck_assert_int_eq(run_one(g, NPU_PASS_ROPE, &log), 1);
	ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_ROPE, "y: rotate_half"), 1);
	ck_assert_int_lt(npu_graph_find(g, "ng"), 0);
	ck_assert_int_lt(npu_graph_find(g, "ys"), 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_NEG), 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_SUB_TENSOR), 1);
	ck_assert_int_eq(count_aop(g, NPU_AOP_MUL_SCALAR), 2);
	env_random(&s, g);
	roundtrip("rope", g, &s, NULL, 0);
	env_free(&s);
	npu_passlog_free(&log);
	npu_graph_free(g);
	/* the rotated copy is also an output: left alone */
	g = parse(GRAPH(ROPE_NODES("") OUT("[" N("ys") ", " N("rot") "]")));
	npu_passlog_init(&log);
	ck_assert_int_eq(run_one(g, NPU_PASS_ROPE, &log), 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_NEG), 1);
	npu_passlog_free(&log);
	npu_graph_free(g);
}
END_TEST

/* Frozen cos and sin: cos's halves differ, sin's are the same (as HF's
 * angles, cat(freqs, freqs)), so one slice of sin serves both halves. */
static double rope_c[24], rope_s[24];

static const npu_reftensor *rope_frozen(void *ctx, const char *name)
{
	static npu_reftensor c = { NPU_DT_F32, 3, { 1, 3, 8 }, rope_c };
	static npu_reftensor sn = { NPU_DT_F32, 3, { 1, 3, 8 }, rope_s };

	(void)ctx;
	return !strcmp(name, "c") ? &c : !strcmp(name, "s") ? &sn : NULL;
}

START_TEST(rope_frozen_halves)
{
	npu_graph *g = parse(GRAPH(ROPE_NODES("") OUT("[" N("ys") "]")));
	npu_passopts o = { .frozen = rope_frozen };
	npu_passlog log;
	npu_err e = { "" };

	for (int i = 0; i < 24; i++) {
		rope_c[i] = 0.25 * i;
		rope_s[i] = 0.5 * (i % 4) - (i / 8);
	}
	npu_passlog_init(&log);
	ck_assert_msg(npu_pass_run(NPU_PASS_ROPE, g, &o, &log, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(log.changes[NPU_PASS_ROPE], 1);
	ck_assert_int_ge(npu_graph_find(g, "y_cos2"), 0);
	ck_assert_int_lt(npu_graph_find(g, "y_sin2"), 0);
	ck_assert_int_eq(count_aop(g, NPU_AOP_SLICE), 2 + 3);
	npu_passlog_free(&log);
	npu_graph_free(g);
}
END_TEST

/* llama_tiny: q's and k's RoPE in each of its two layers. */
START_TEST(rope_llama)
{
	const char *name = "llama_tiny/inference2";
	npu_graph *g = graph_load(name);
	npu_passlog log;
	env s;

	env_load(&s, name);
	roundtrip(name, g, &s, &log, dtype_tol(g));
	ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_ROPE, "add_"), 4);
	ck_assert_int_eq(count_aop(g, NPU_AOP_NEG), 0);
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

/* llama_tiny: its five RMSNorm weights (two a layer and the final one)
 * go into the matmuls they feed, as scaled folded weights; the
 * projections remember the multiply.  gpt2_tiny: each layer's two
 * LayerNorms' weights and biases go into the addmm after them (its
 * weight scaled, its bias plus the norm's bias times the weight); the
 * final one feeds the tied LM head, an mm with no bias to take the
 * norm's: kept.  rmsnorm_float32's norm is the graph's output: kept. */
/* Loads fixture name, runs the passes on it through the reference
 * (roundtrip) and returns it, its env in *s and its log in *log. */
static npu_graph *normw_run(const char *name, env *s, npu_passlog *log)
{
	npu_graph *g = graph_load(name);

	env_load(s, name);
	roundtrip(name, g, s, log, dtype_tol(g));
	return g;
}

static void normw_done(npu_graph *g, env *s, npu_passlog *log)
{
	npu_passlog_free(log);
	env_free(s);
	npu_graph_free(g);
}

START_TEST(normw_llama)
{
	npu_passlog log;
	env s;
	npu_graph *g = normw_run("llama_tiny/inference2", &s, &log);
	int mm, found;

	ck_assert_int_eq(log.changes[NPU_PASS_NORMW], 5);
	ck_assert_int_eq(npu_passlog_count(&log, NPU_PASS_NORMW, "mul_3's weight arg3_1 folded"), 1);
	ck_assert_int_lt(npu_graph_find(g, "mul_3"), 0);
	mm = npu_graph_find(g, "mm");
	ck_assert_int_ge(mm, 0);
	ck_assert_int_eq(g->nodes[g->nodes[mm].args[1].u.node].op, NPU_GOP_GET_ATTR);
	ck_assert_ptr_nonnull(strstr(npu_passlog_origins(&log, "mm"), "mul_3"));
	normw_done(g, &s, &log);

	g = normw_run("gpt2_tiny/inference2", &s, &log);
	ck_assert_int_eq(log.changes[NPU_PASS_NORMW], 4);
	for (int k = found = 0; k < log.n; k++)   /* (the product's name is decomp's) */
		found += log.v[k].pass == NPU_PASS_NORMW &&
			 strstr(log.v[k].what, "'s weight arg3_1 and add_2's bias arg4_1 folded");
	ck_assert_int_eq(found, 1);
	ck_assert_int_lt(npu_graph_find(g, "add_2"), 0);
	mm = npu_graph_find(g, "addmm");
	ck_assert_int_ge(mm, 0);
	ck_assert_int_eq(g->nodes[g->nodes[mm].args[0].u.node].op, NPU_GOP_GET_ATTR);
	ck_assert_int_eq(g->nodes[g->nodes[mm].args[2].u.node].op, NPU_GOP_GET_ATTR);
	ck_assert_str_eq(npu_passlog_origins(&log, "addmm"), "addmm,native_layer_norm");
	normw_done(g, &s, &log);

	g = normw_run("rmsnorm_float32/inference2", &s, &log);
	ck_assert_int_eq(log.changes[NPU_PASS_NORMW], 0);
	normw_done(g, &s, &log);
}
END_TEST

/* The log as text and as JSON (parsed back), with timing. */
START_TEST(log_formats)
{
	npu_graph *g = graph_load("conv_bn_shared/inference2");
	npu_passlog log;
	env s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	json_t *j;
	json_error_t je;

	env_load(&s, "conv_bn_shared/inference2");
	roundtrip("conv_bn_shared", g, &s, &log, 1e-6);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(npu_passlog_print(&log, f, 1), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "convbn: kept convolution (2 users)\n"));
	ck_assert_ptr_nonnull(strstr(buf, "decomp: decomposed "
				     "_native_batch_norm_legit_no_training"));
	ck_assert_ptr_nonnull(strstr(buf, "total"));
	free(buf);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(npu_passlog_print_json(&log, f), 0);
	fclose(f);
	j = json_loads(buf, 0, &je);
	ck_assert_msg(j != NULL, "%s", je.text);
	ck_assert_int_eq((int)json_array_size(json_object_get(j, "entries")),
			 log.n);
	ck_assert_int_eq((int)json_array_size(json_object_get(j, "passes")),
			 NPU_NPASS);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(
		json_object_get(j, "passes"), NPU_PASS_CONVBN), "name")), "convbn");
	json_decref(j);
	free(buf);
	ck_assert_int_eq(npu_pass_find("decomp"), NPU_PASS_DECOMP);
	ck_assert_int_eq(npu_pass_find("nope"), -1);
	npu_passlog_free(&log);
	env_free(&s);
	npu_graph_free(g);
}
END_TEST

/* normargs: alpha=1 dropped, negative dims made positive, values kept. */
START_TEST(normargs_canonical)
{
	npu_graph *g = parse(GRAPH(PH("x", F32(4, 8)) "," PH("y", F32(4, 8))
		CALLKW("a", "aten.add.Tensor", "[" N("x") "," N("y") "]",
		       "{\"alpha\": 1}", F32(4, 8))
		CALL("s", "aten._softmax.default", "[" N("a") ", -1, false]", F32(4, 8))
		CALL("m", "aten.mean.dim", "[" N("s") ", [-2], true]", F32(1, 8))
		OUT("[" N("m") "]")));
	npu_passlog log;
	env s;

	npu_passlog_init(&log);
	ck_assert_int_eq(run_one(g, NPU_PASS_NORMARGS, &log), 3);
	ck_assert_int_eq(g->nodes[npu_graph_find(g, "a")].nkwargs, 0);
	ck_assert_int_eq(g->nodes[npu_graph_find(g, "s")].args[1].u.i, 1);
	ck_assert_int_eq(g->nodes[npu_graph_find(g, "m")].args[1].u.list.v[0].u.i, 0);
	env_random(&s, g);
	roundtrip("normargs", g, &s, NULL, 0);
	env_free(&s);
	npu_passlog_free(&log);
	npu_graph_free(g);
}
END_TEST

/* PyTorch 1.13's inference batch norm becomes 2.x's form of it, with
 * the same values; in training mode it stays. */
START_TEST(normargs_bn_eval)
{
	npu_graph *g = parse(GRAPH(PH("x", F32(2, 4, 3, 3)) "," PH("w", F32(4)) ","
		PH("b", F32(4)) "," PH("rm", F32(4)) "," PH("rv", F32(4))
		CALL("bn", "aten.native_batch_norm.default", "[" N("x") "," N("w") ","
		     N("b") "," N("rm") "," N("rv") ", false, 0.1, 1e-5]",
		     "[" F32(2, 4, 3, 3) "," F32(0) "," F32(0) "]")
		CALL("y", "_operator.getitem", "[" N("bn") ", 0]", F32(2, 4, 3, 3))
		CALL("bt", "aten.native_batch_norm.default", "[" N("y") "," N("w") ","
		     N("b") "," N("rm") "," N("rv") ", true, 0.1, 1e-5]",
		     "[" F32(2, 4, 3, 3) "," F32(4) "," F32(4) "]")
		CALL("z", "_operator.getitem", "[" N("bt") ", 0]", F32(2, 4, 3, 3))
		CALL("in", "aten.native_batch_norm.default", "[" N("z") "," N("w") ","
		     N("b") ", null, null, true, 0.1, 1e-5]",
		     "[" F32(2, 4, 3, 3) "," F32(4) "," F32(4) "]")
		CALL("zz", "_operator.getitem", "[" N("in") ", 0]", F32(2, 4, 3, 3))
		OUT(N("zz"))));
	npu_passlog log;
	env s;
	const npu_gnode *bn, *bt, *in;

	npu_passlog_init(&log);
	env_random(&s, g);
	for (int i = 0; i < s.ngen; i++)  /* a variance is positive */
		if (s.gen[i].ndim == 1)
			for (int k = 0; k < 4; k++)
				s.gen[i].data[k] = fabs(s.gen[i].data[k]) + 0.5;
	ck_assert_int_ge(run_one(g, NPU_PASS_NORMARGS, &log), 1);
	bn = &g->nodes[npu_graph_find(g, "bn")];
	bt = &g->nodes[npu_graph_find(g, "bt")];
	ck_assert_int_eq(bn->aop, NPU_AOP_BN_INFER);
	ck_assert_int_eq(bn->nargs, 7);
	ck_assert_str_eq(bn->target, "aten._native_batch_norm_legit_no_training.default");
	ck_assert_int_eq(bt->aop, NPU_AOP_BN_NATIVE);
	/* training without running statistics (1.13's InstanceNorm) */
	in = &g->nodes[npu_graph_find(g, "in")];
	ck_assert_int_eq(in->aop, NPU_AOP_BN_NOSTATS);
	ck_assert_int_eq(in->nargs, 6);
	roundtrip("normargs", g, &s, NULL, 1e-12);
	env_free(&s);
	npu_passlog_free(&log);
	npu_graph_free(g);
}
END_TEST

static int silu_native(void *ctx, int aop)
{
	(void)ctx;
	return aop == NPU_AOP_SILU;
}

static void count_after(void *ctx, int pass, const npu_graph *g)
{
	int *calls = ctx;

	ck_assert_int_ge(pass, 0);
	ck_assert_int_gt(g->nnodes, 0);
	(*calls)++;
}

/* native ops stay, skipped passes do not run, the hook sees each pass. */
START_TEST(options_respected)
{
	const char *json = GRAPH(PH("x", F32(4, 8))
		CALL("si", "aten.silu.default", "[" N("x") "]", F32(4, 8))
		CALL("hs", "aten.hardswish.default", "[" N("si") "]", F32(4, 8))
		CALL("d", "aten.neg.default", "[" N("x") "]", F32(4, 8))
		OUT("[" N("hs") "]"));
	npu_graph *g = parse(json);
	npu_passopts o = { 0 };
	npu_passlog log;
	npu_err e = { "" };
	int calls = 0;

	o.native = silu_native;
	o.after = count_after;
	o.after_ctx = &calls;
	o.skip = 1u << NPU_PASS_DCE | 1u << NPU_PASS_CLEANUP;
	npu_passlog_init(&log);
	ck_assert_msg(npu_passes_run(g, &o, &log, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(calls, NPU_NPASS - 2);
	ck_assert_int_eq(count_aop(g, NPU_AOP_SILU), 1);
	ck_assert_int_eq(count_aop(g, NPU_AOP_HARDSWISH), 0);
	ck_assert_int_ge(npu_graph_find(g, "d"), 0);      /* no DCE ran */
	ck_assert_double_eq(log.seconds[NPU_PASS_DCE], 0);
	ck_assert_int_eq(log.nodes_before, 5);
	ck_assert_int_eq(log.nodes_after, g->nnodes);
	npu_passlog_free(&log);
	npu_graph_free(g);
}
END_TEST

static Suite *passes_suite(void)
{
	Suite *s = suite_create("passes");
	TCase *tc = tcase_create("fixtures");

	tcase_add_loop_test(tc, fixture_semantics, 0,
			    (int)(sizeof fixtures / sizeof fixtures[0]));
	tcase_add_test(tc, conv_bn_relu_folded);
	tcase_add_test(tc, fold_expand_of_folded);
	tcase_add_test(tc, conv_bn_shared_kept);
	tcase_add_test(tc, conv_bn_unfrozen);
	tcase_add_test(tc, resnet18_generated);
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	tc = tcase_create("structure");
	tcase_add_test(tc, dce_and_cse_counts);
	tcase_add_test(tc, gedit_unique_names);
	tcase_add_test(tc, noop_views_removed);
	tcase_add_test(tc, layout_canonical);
	tcase_add_test(tc, layout_sink_mul);
	tcase_add_test(tc, layout_sink_mul_shared);
	tcase_add_test(tc, decompositions);
	tcase_add_test(tc, conv_backward_decomposed);
	tcase_add_test(tc, conv_backward_grouped);
	tcase_add_test(tc, conv3d_backward_decomposed);
	tcase_add_test(tc, conv1d_backward_decomposed);
	tcase_add_test(tc, resample_decomposed);
	tcase_add_test(tc, conv_rewritten);
	tcase_add_test(tc, conv_backward_wide);
	tcase_add_test(tc, pool_backward_decomposed);
	tcase_add_test(tc, sdpa_backward_decomposed);
	tcase_add_test(tc, core_elementwise_decomposed);
	tcase_add_test(tc, rope_halves);
	tcase_add_test(tc, rope_frozen_halves);
	tcase_add_test(tc, rope_llama);
	tcase_add_test(tc, normw_llama);
	tcase_add_test(tc, mutated_inputs_kept);
	tcase_add_test(tc, log_formats);
	tcase_add_test(tc, normargs_canonical);
	tcase_add_test(tc, normargs_bn_eval);
	tcase_add_test(tc, options_respected);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(passes_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
