/*
 * check_compile.c - end to end: compile the FX fixtures (tests/data/fx)
 * with npucc's pipeline, run them on the simulator and compare every
 * output with PyTorch's recorded value and with the reference
 * interpreter in float64.
 *
 * Tolerances (docs/compiler.md): relative L2 error ||out - ref|| / ||ref||
 * at most 1e-5 for fp32, 1e-3 for fp16, 8e-3 for bf16, 1e-12 for fp64;
 * NaN and Inf in the same places; integer and bool outputs bit-exact.
 * Parameters and buffers of a fixture are frozen (written to a weights
 * file in a temporary folder); the other placeholders are inputs.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/driver.h"
#include "compiler/ref.h"
#include "isa/dtype.h"
#include "sim/sim.h"

static char tmpdir[512];

static const char *srcdir(void)
{
	const char *s = getenv("srcdir");
	return s ? s : ".";
}

static void setup_tmp(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/check_compile.XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown_tmp(void)
{
	char p[1024];
	static const char *files[] = { "w.safetensors", "p.bin", "in.safetensors",
				       "out.safetensors", "report.json" };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(p, sizeof p, "%s/%s", tmpdir, files[i]);
		unlink(p);
	}
	rmdir(tmpdir);
}

static double tol_of(int dt)
{
	switch (dt) {
	case NPU_DT_F32: return 1e-5;
	case NPU_DT_F16: return 1e-3;
	case NPU_DT_BF16: return 8e-3;
	case NPU_DT_F64: return 1e-12;
	default: return 0;
	}
}

/* Relative L2 error of got against want (n doubles); -1 when NaN/Inf
 * positions differ. */
static double relerr(const double *got, const double *want, int64_t n)
{
	double num = 0, den = 0;

	for (int64_t i = 0; i < n; i++) {
		if (isnan(want[i]) || isinf(want[i])) {
			if (isnan(want[i]) != isnan(got[i]) ||
			    (isinf(want[i]) && got[i] != want[i]))
				return -1;
			continue;
		}
		if (isnan(got[i]) || isinf(got[i]))
			return -1;
		num += (got[i] - want[i]) * (got[i] - want[i]);
		den += want[i] * want[i];
	}
	if (den == 0)
		return sqrt(num);
	return sqrt(num / den);
}

static double *widen(int dt, const void *raw, int64_t n)
{
	double *d = malloc((size_t)(n ? n : 1) * sizeof *d);
	npu_reftensor t;
	npu_err e;
	int64_t shape[1] = { n };

	ck_assert_ptr_nonnull(d);
	if (!n)
		return d;
	ck_assert_int_eq(npu_reftensor_load(&t, dt, 1, shape, raw, &e), 0);
	memcpy(d, t.data, (size_t)n * sizeof *d);
	npu_reftensor_free(&t);
	return d;
}

static int is_frozen(const npu_gnode *n)
{
	return n->op == NPU_GOP_GET_ATTR ||
	       (n->op == NPU_GOP_PLACEHOLDER &&
		(n->phkind == NPU_PH_PARAMETER || n->phkind == NPU_PH_BUFFER));
}

/* ref interpreter lookup over a safetensors file */
typedef struct refctx {
	const npu_stfile *st;
	npu_reftensor *cache;
	char **names;
	int n;
} refctx;

static const npu_reftensor *ref_lookup(void *ctx, const char *name)
{
	refctx *c = ctx;
	const npu_tensor *t = npu_st_find(c->st, name);
	npu_err e;

	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->names[i], name))
			return &c->cache[i];
	if (!t)
		return NULL;
	c->cache = realloc(c->cache, (size_t)(c->n + 1) * sizeof *c->cache);
	c->names = realloc(c->names, (size_t)(c->n + 1) * sizeof *c->names);
	if (npu_reftensor_load(&c->cache[c->n], t->dtype, t->ndim, t->shape,
			       t->data, &e) < 0)
		return NULL;
	c->names[c->n] = strdup(name);
	return &c->cache[c->n++];
}

typedef struct fxrun {
	npu_ccopts o;
	uint64_t cycles, dram_rd, dram_wr, host_calls;
	double worst_rec, worst_ref;
	int nkernels;
} fxrun;

/*
 * Compiles tests/data/fx/CASE/GRAPH.json with values from st (NULL: the
 * fixture's own file), runs it, checks every output.  vals: the values
 * file (inputs, parameters, and recorded outputs when has_rec).
 */
static void run_values(const char *graph, const npu_stfile *st, int has_rec,
		       fxrun *fr)
{
	npu_graph *g;
	npu_err e = { "" };
	char wpath[1024];
	npu_tensor *wt;
	size_t nw = 0;
	npu_ccresult r = { 0 };
	npu_sim *s;
	npu_sim_opts so = { 0 };
	refctx rc = { .st = st };
	npu_refenv env = { .precision = NPU_REF_FP64, .lookup = ref_lookup, .ctx = &rc };
	npu_reftensor *routs;
	int nrout;

	ck_assert_msg(npu_graph_read(&g, graph, &e) == 0, "%s", e.msg);
	wt = calloc((size_t)g->nnodes + 1, sizeof *wt);
	for (int i = 0; i < g->nnodes; i++) {
		char key[512];
		const npu_tensor *t;
		if (!is_frozen(&g->nodes[i]))
			continue;
		if (g->nodes[i].op == NPU_GOP_GET_ATTR)
			snprintf(key, sizeof key, "attr.%s", g->nodes[i].target);
		else
			snprintf(key, sizeof key, "%s", g->nodes[i].name);
		if (!(t = npu_st_find(st, key)))
			continue;
		wt[nw] = *t;
		wt[nw++].name = t->name;
	}
	snprintf(wpath, sizeof wpath, "%s/w.safetensors", tmpdir);
	ck_assert_msg(npu_st_write(wpath, wt, nw, NULL, &e) == 0, "%s", e.msg);
	free(wt);
	fr->o.graph = graph;
	fr->o.weights = wpath;
	if (!fr->o.target)
		fr->o.target = "npu-base";
	ck_assert_msg(npu_cc_compile(&fr->o, &r, &e) == 0, "%s: %s", graph, e.msg);
	fr->nkernels = r.ir.nk;
	npu_hostops_register_all();
	s = npu_sim_new(&r.prog, &r.t, &so, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	for (uint32_t i = 0; i < r.prog.nbufs; i++) {
		const npu_buf *b = &r.prog.bufs[i];
		const npu_tensor *t;
		if (b->kind != NPU_BUF_INPUT)
			continue;
		t = npu_st_find(st, b->name);
		ck_assert_msg(t != NULL, "%s: no value for input %s", graph, b->name);
		ck_assert_uint_eq(t->nbytes, b->size);
		if (b->size)
			memcpy(npu_sim_buf_data(s, (int)i), t->data, b->size);
	}
	ck_assert_msg(npu_sim_run(s, &e) == 0, "%s: %s", graph, e.msg);
	fr->cycles = npu_sim_stats_get(s)->total_cycles;
	fr->dram_rd = npu_sim_stats_get(s)->dram_rd;
	fr->dram_wr = npu_sim_stats_get(s)->dram_wr;
	fr->host_calls = npu_sim_stats_get(s)->host_calls;
	/* the reference interpreter, fp64 */
	ck_assert_msg(npu_ref_run(g, &env, &routs, &nrout, &e) == 0, "%s: ref: %s",
		      graph, e.msg);
	for (int k = 0; k < nrout; k++) {
		char name[32];
		int bi;
		const npu_buf *b;
		int64_t n;
		double *got, err;
		snprintf(name, sizeof name, "output.%d", k);
		bi = npu_prog_find_buf(&r.prog, name);
		ck_assert_msg(bi >= 0, "%s: no buffer %s", graph, name);
		b = &r.prog.bufs[bi];
		n = (int64_t)npu_numel(b->ndim, b->shape);
		got = widen(b->dtype, npu_sim_buf_data(s, bi), n);
		if (has_rec) {
			const npu_tensor *t = npu_st_find(st, name);
			double *want;
			ck_assert_msg(t != NULL, "%s: no recorded %s", graph, name);
			ck_assert_int_eq(t->dtype, b->dtype);
			want = widen(t->dtype, t->data, n);
			err = relerr(got, want, n);
			if (tol_of(b->dtype) == 0)
				ck_assert_msg(err == 0, "%s %s: integer output differs (%g)", graph, name, err);
			ck_assert_msg(err >= 0 && err <= tol_of(b->dtype),
				      "%s %s: relative error %g vs recorded (tolerance %g)",
				      graph, name, err, tol_of(b->dtype));
			if (err > fr->worst_rec)
				fr->worst_rec = err;
			free(want);
		}
		err = relerr(got, routs[k].data, n);
		ck_assert_msg(err >= 0 && err <= (tol_of(b->dtype) ? tol_of(b->dtype) : 0),
			      "%s %s: relative error %g vs the fp64 reference (tolerance %g)",
			      graph, name, err, tol_of(b->dtype));
		if (err > fr->worst_ref)
			fr->worst_ref = err;
		free(got);
	}
	npu_ref_free_outputs(routs, nrout);
	for (int i = 0; i < rc.n; i++) {
		npu_reftensor_free(&rc.cache[i]);
		free(rc.names[i]);
	}
	free(rc.cache);
	free(rc.names);
	npu_sim_free(s);
	npu_cc_free(&r);
	npu_graph_free(g);
}

static void run_fixture(const char *c, fxrun *fr)
{
	char graph[1024], vals[1024];
	npu_stfile st;
	npu_err e;

	snprintf(graph, sizeof graph, "%s/tests/data/fx/%s/inference2.json", srcdir(), c);
	snprintf(vals, sizeof vals, "%s/tests/data/fx/%s/inference2.safetensors", srcdir(), c);
	ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
	run_values(graph, &st, 1, fr);
	npu_st_free(&st);
}

#define FIXTURE_TEST(fn, name) \
	START_TEST(fn) \
	{ \
		fxrun fr = { 0 }; \
		setup_tmp(); \
		run_fixture(name, &fr); \
		teardown_tmp(); \
	} \
	END_TEST

FIXTURE_TEST(t_rmsnorm_float32, "rmsnorm_float32")
FIXTURE_TEST(t_rmsnorm_bfloat16, "rmsnorm_bfloat16")
FIXTURE_TEST(t_rmsnorm_eps, "rmsnorm_eps1e-6_noaffine")
FIXTURE_TEST(t_rmsnorm_noncontig, "rmsnorm_noncontig")
FIXTURE_TEST(t_rmsnorm_empty, "rmsnorm_empty")
FIXTURE_TEST(t_rmsnorm_float64, "rmsnorm_float64")
FIXTURE_TEST(t_mlp_fp32, "mlp_fp32")
FIXTURE_TEST(t_mlp_bf16, "mlp_bf16")
FIXTURE_TEST(t_conv_bn_relu, "conv_bn_relu")
FIXTURE_TEST(t_conv_bn_shared, "conv_bn_shared")
FIXTURE_TEST(t_attention_sdpa, "attention_sdpa")
FIXTURE_TEST(t_attention_manual, "attention_manual")
FIXTURE_TEST(t_llama_tiny, "llama_tiny")

/* bias_relu, fused and not: the trace of DRAM traffic shows 3n vs 5n. */
START_TEST(t_bias_relu_traffic)
{
	fxrun a = { 0 }, b = { 0 };
	uint64_t n = 64 * 4096 * 4;

	setup_tmp();
	run_fixture("bias_relu", &a);
	b.o.nofuse = 1;
	run_fixture("bias_relu", &b);
	teardown_tmp();
	ck_assert_int_eq(a.nkernels, 1);
	ck_assert_int_eq(b.nkernels, 2);
	ck_assert_uint_eq(a.dram_rd + a.dram_wr, 3 * n);
	ck_assert_uint_eq(b.dram_rd + b.dram_wr, 5 * n);
	ck_assert_uint_lt(a.cycles, b.cycles);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compile");
	TCase *tc = tcase_create("fixtures");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, t_bias_relu_traffic);
	tcase_add_test(tc, t_rmsnorm_float32);
	tcase_add_test(tc, t_rmsnorm_bfloat16);
	tcase_add_test(tc, t_rmsnorm_eps);
	tcase_add_test(tc, t_rmsnorm_noncontig);
	tcase_add_test(tc, t_rmsnorm_empty);
	tcase_add_test(tc, t_rmsnorm_float64);
	tcase_add_test(tc, t_mlp_fp32);
	tcase_add_test(tc, t_mlp_bf16);
	tcase_add_test(tc, t_conv_bn_relu);
	tcase_add_test(tc, t_conv_bn_shared);
	tcase_add_test(tc, t_attention_sdpa);
	tcase_add_test(tc, t_attention_manual);
	tcase_add_test(tc, t_llama_tiny);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
