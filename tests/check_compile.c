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
	int spills;
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
	fr->spills += r.spills;
	/* shared scratch stays close to the largest live set */
	ck_assert_uint_le(r.ir.arena_bytes, r.ir.arena_peak + r.ir.arena_peak / 2 + 64);
	/* provenance: every instruction of a kernel names one of its nodes */
	for (uint32_t k = 0; k < r.prog.nkernels; k++) {
		const npu_kernel *kk = &r.prog.kernels[k];
		for (uint32_t pc = kk->start; pc < kk->end; pc++) {
			uint32_t nd = r.prog.insn_node[pc], j;
			for (j = 0; j < kk->node_count; j++)
				if (r.prog.kernel_nodes[kk->node_first + j] == nd)
					break;
			ck_assert_msg(j < kk->node_count, "%s: kernel %s, pc %u: node %u is not the kernel's",
				      graph, kk->name, pc, nd);
		}
	}
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

/* Rows longer than a tile: one DRAM pass per reduction, then the
 * epilogue pass (forced here with the tile_c knob). */
START_TEST(t_multipass)
{
	fxrun one = { 0 }, multi = { 0 }, sm = { 0 };
	npu_err e;

	setup_tmp();
	run_fixture("rmsnorm_float32", &one);
	ck_assert_int_eq(npu_cc_parse_knob(&multi.o, "*.tile_c=100", &e), 0);
	run_fixture("rmsnorm_float32", &multi);
	/* RMSNorm reads x twice (the mean of squares, then the scaling) */
	ck_assert_uint_gt(multi.dram_rd, one.dram_rd + 4 * 32 * 256 * 4 / 2);
	memset(&multi, 0, sizeof multi);
	ck_assert_int_eq(npu_cc_parse_knob(&multi.o, "*.tile_c=64", &e), 0);
	run_fixture("rmsnorm_bfloat16", &multi);
	ck_assert_int_eq(npu_cc_parse_knob(&sm.o, "_softmax.tile_c=32", &e), 0);
	run_fixture("attention_sdpa", &sm);
	teardown_tmp();
}
END_TEST

/* The small target: 32x32 array, 1 MiB SRAM, two DMA engines. */
START_TEST(t_edge)
{
	static const char *const cases[] = { "bias_relu", "rmsnorm_bfloat16",
		"mlp_fp32", "conv_bn_relu", "attention_sdpa", "llama_tiny" };

	setup_tmp();
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		fxrun fr = { 0 };
		fr.o.target = "npu-edge";
		run_fixture(cases[i], &fr);
	}
	teardown_tmp();
}
END_TEST

/* Provenance of bias_relu: the fused kernel names add and relu, with
 * their ATen targets and source line; every IR dump works. */
START_TEST(t_provenance_dumps)
{
	char graph[1024];
	npu_ccopts o = { 0 };
	npu_ccresult r = { 0 };
	npu_err e;
	FILE *f = tmpfile();
	long len;

	snprintf(graph, sizeof graph, "%s/tests/data/fx/bias_relu/inference2.json", srcdir());
	o.graph = graph;
	o.dump = ~0u;
	o.dumpf = f;
	ck_assert_msg(npu_cc_compile(&o, &r, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(r.prog.nkernels, 1);
	ck_assert_uint_eq(r.prog.kernels[0].node_count, 2);
	{
		const npu_node *a = &r.prog.nodes[r.prog.kernel_nodes[0]];
		const npu_node *b = &r.prog.nodes[r.prog.kernel_nodes[1]];
		ck_assert_str_eq(a->name, "add");
		ck_assert_str_eq(a->target, "aten.add.Tensor");
		ck_assert_str_eq(a->source, "models.py:251");
		ck_assert_str_eq(b->name, "relu");
	}
	len = ftell(f);
	ck_assert_int_gt(len, 1000);
	fclose(f);
	npu_cc_free(&r);
}
END_TEST


/* Deterministic values for every placeholder of a graph (resnet18 has no
 * recorded values): uniform in [-a, a], a = 1/sqrt(fan-in) for weights;
 * BatchNorm scales near 1, running variances positive. */
static void gen_values(const npu_graph *g, const char *path)
{
	npu_tensor *t = calloc((size_t)g->nnodes + 1, sizeof *t);
	size_t n = 0;
	uint64_t seed = 12345;
	npu_err e;

	for (int i = 0; i < g->nnodes; i++) {
		const npu_gnode *nd = &g->nodes[i];
		const npu_gmeta *m = nd->meta;
		int64_t numel = 1;
		float *d;
		double a = 1;
		const char *src = nd->phsource ? nd->phsource : "";
		if (nd->op != NPU_GOP_PLACEHOLDER || !m)
			continue;
		t[n].name = nd->name;
		t[n].dtype = m->dtype;
		t[n].ndim = m->ndim;
		for (int d2 = 0; d2 < m->ndim; d2++) {
			t[n].shape[d2] = m->shape[d2].v;
			numel *= m->shape[d2].v;
		}
		if (m->ndim >= 2 && m->shape[0].v)
			a = 1 / sqrt((double)(numel / m->shape[0].v));
		d = malloc((size_t)numel * 4 + 4);
		for (int64_t k = 0; k < numel; k++) {
			double u;
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			u = (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
			if (strstr(src, "running_var"))
				d[k] = (float)(1 + 0.5 * fabs(u));
			else if (m->ndim == 1 && strstr(src, "weight"))
				d[k] = (float)(1 + 0.1 * u);
			else if (m->ndim == 1)
				d[k] = (float)(0.1 * u);
			else
				d[k] = (float)(a * u);
		}
		t[n].data = d;
		t[n].nbytes = (uint64_t)numel * 4;
		n++;
	}
	ck_assert_msg(npu_st_write(path, t, n, NULL, &e) == 0, "%s", e.msg);
	for (size_t i = 0; i < n; i++)
		free(t[i].data);
	free(t);
}

START_TEST(t_resnet18)
{
	char graph[1024], vals[1024];
	npu_graph *g;
	npu_stfile st;
	npu_err e;
	fxrun fr = { 0 };

	setup_tmp();
	snprintf(graph, sizeof graph, "%s/tests/data/fx/resnet18/inference2.json", srcdir());
	snprintf(vals, sizeof vals, "%s/in.safetensors", tmpdir);
	ck_assert_msg(npu_graph_read(&g, graph, &e) == 0, "%s", e.msg);
	gen_values(g, vals);
	npu_graph_free(g);
	ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
	run_values(graph, &st, 0, &fr);
	npu_st_free(&st);
	teardown_tmp();
	ck_assert(fr.worst_ref <= 1e-5);
}
END_TEST

/* The spill path: a vector budget of 4 registers and 6 scalar ones. */
START_TEST(t_spills)
{
	fxrun fr = { 0 };

	setup_tmp();
	fr.o.nvr = 4;
	fr.o.nxr = 6;
	run_fixture("mlp_fp32", &fr);
	fr.o.nvr = 3;
	run_fixture("rmsnorm_bfloat16", &fr);
	run_fixture("attention_sdpa", &fr);
	teardown_tmp();
	ck_assert_int_gt(fr.spills, 0);
}
END_TEST

/* fp32 matmul precision: high (bf16 x3) meets 1e-5, medium (bf16 x1) 1e-2. */
static double prec_err(int prec)
{
	char graph[1024], vals[1024];
	npu_stfile st;
	npu_err e;
	npu_ccresult r = { 0 };
	npu_ccopts o = { 0 };
	npu_sim *s;
	npu_sim_opts so = { 0 };
	double err;

	snprintf(graph, sizeof graph, "%s/tests/data/fx/mlp_fp32/inference2.json", srcdir());
	snprintf(vals, sizeof vals, "%s/tests/data/fx/mlp_fp32/inference2.safetensors", srcdir());
	ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
	o.graph = graph;
	o.fp32prec = prec;
	ck_assert_msg(npu_cc_compile(&o, &r, &e) == 0, "%s", e.msg);
	for (int k = 0; k < r.ir.nk; k++)
		if (r.ir.k[k].kind == NPU_KK_MM)
			ck_assert_int_eq(r.ir.k[k].mm_passes, prec == 1 ? 3 : 1);
	npu_hostops_register_all();
	s = npu_sim_new(&r.prog, &r.t, &so, &e);
	ck_assert_ptr_nonnull(s);
	for (uint32_t i = 0; i < r.prog.nbufs; i++)
		if (r.prog.bufs[i].kind == NPU_BUF_INPUT)
			memcpy(npu_sim_buf_data(s, (int)i),
			       npu_st_find(&st, r.prog.bufs[i].name)->data,
			       r.prog.bufs[i].size);
	ck_assert_msg(npu_sim_run(s, &e) == 0, "%s", e.msg);
	{
		int bi = npu_prog_find_buf(&r.prog, "output.0");
		int64_t n = (int64_t)npu_numel(r.prog.bufs[bi].ndim, r.prog.bufs[bi].shape);
		double *got = widen(NPU_DT_F32, npu_sim_buf_data(s, bi), n);
		double *want = widen(NPU_DT_F32, npu_st_find(&st, "output.0")->data, n);
		err = relerr(got, want, n);
		free(got);
		free(want);
	}
	npu_sim_free(s);
	npu_cc_free(&r);
	npu_st_free(&st);
	return err;
}

START_TEST(t_fp32_precision)
{
	double hi = prec_err(1), med = prec_err(2), top = prec_err(0);

	ck_assert_msg(top <= 1e-5, "highest: %g", top);
	ck_assert_msg(hi <= 1e-5, "high: %g", hi);
	ck_assert_msg(med <= 1e-2 && med > hi, "medium: %g", med);
}
END_TEST

/* Once through the real command lines: npucc, then npusim run. */
START_TEST(t_cli)
{
	char cmd[4096], out[1024];
	const char *b = getenv("top_builddir");
	npu_stfile got, want;
	npu_err e;
	double *x, *y;

	if (!b)
		b = ".";
	setup_tmp();
	snprintf(cmd, sizeof cmd,
		 "%s/npucc %s/tests/data/fx/bias_relu/inference2.json -o %s/p.bin --time-passes "
		 "--report %s/report.json 2>/dev/null && %s/npusim run %s/p.bin --quiet "
		 "--inputs %s/tests/data/fx/bias_relu/inference2.safetensors --outputs %s/out.safetensors",
		 b, srcdir(), tmpdir, tmpdir, b, tmpdir, srcdir(), tmpdir);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(out, sizeof out, "%s/out.safetensors", tmpdir);
	ck_assert_msg(npu_st_read(&got, out, &e) == 0, "%s", e.msg);
	snprintf(out, sizeof out, "%s/tests/data/fx/bias_relu/inference2.safetensors", srcdir());
	ck_assert_msg(npu_st_read(&want, out, &e) == 0, "%s", e.msg);
	x = widen(NPU_DT_F32, npu_st_find(&got, "output.0")->data, 64 * 4096);
	y = widen(NPU_DT_F32, npu_st_find(&want, "output.0")->data, 64 * 4096);
	ck_assert(relerr(x, y, 64 * 4096) == 0);
	free(x);
	free(y);
	npu_st_free(&got);
	npu_st_free(&want);
	teardown_tmp();
}
END_TEST

/* Errors name the node and what is wrong; knobs that do not fit say why. */
START_TEST(t_errors)
{
	char graph[1024], path[1024];
	npu_ccopts o = { 0 };
	npu_ccresult r = { 0 };
	npu_err e = { "" };
	npu_tensor t = { 0 };
	float z[4] = { 0 };

	setup_tmp();
	snprintf(graph, sizeof graph, "%s/tests/data/fx/bias_relu/inference2.json", srcdir());
	/* weights of the wrong shape */
	snprintf(path, sizeof path, "%s/w.safetensors", tmpdir);
	t.name = "arg0_1";
	t.dtype = NPU_DT_F32;
	t.ndim = 1;
	t.shape[0] = 4;
	t.nbytes = sizeof z;
	t.data = z;
	ck_assert_int_eq(npu_st_write(path, &t, 1, NULL, &e), 0);
	o.graph = graph;
	o.weights = path;
	ck_assert_int_eq(npu_cc_compile(&o, &r, &e), -1);
	ck_assert_msg(strstr(e.msg, "arg0_1") && strstr(e.msg, "f32[4]"), "%s", e.msg);
	npu_cc_free(&r);
	/* a tile that cannot fit */
	memset(&o, 0, sizeof o);
	o.graph = graph;
	ck_assert_int_eq(npu_cc_parse_knob(&o, "add.tile_m=100000", &e), 0);
	ck_assert_int_eq(npu_cc_parse_knob(&o, "add.nonsense=1", &e), -1);
	ck_assert_int_eq(npu_cc_compile(&o, &r, &e), -1);
	ck_assert_msg(strstr(e.msg, "KiB") && strstr(e.msg, "SRAM holds"), "%s", e.msg);
	npu_cc_free(&r);
	/* a knob that fits changes the tiling */
	memset(&o, 0, sizeof o);
	o.graph = graph;
	ck_assert_int_eq(npu_cc_parse_knob(&o, "*.tile_m=2", &e), 0);
	ck_assert_int_eq(npu_cc_compile(&o, &r, &e), 0);
	ck_assert_int_eq(r.ir.k[0].kn.tile_m, 2);
	npu_cc_free(&r);
	teardown_tmp();
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
	tcase_add_test(tc, t_resnet18);
	tcase_add_test(tc, t_spills);
	tcase_add_test(tc, t_fp32_precision);
	tcase_add_test(tc, t_cli);
	tcase_add_test(tc, t_errors);
	tcase_add_test(tc, t_provenance_dumps);
	tcase_add_test(tc, t_edge);
	tcase_add_test(tc, t_multipass);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
