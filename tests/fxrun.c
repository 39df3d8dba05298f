/*
 * fxrun.c - the end-to-end harness shared by the fixture tests: compile
 * an FX fixture (tests/data/fx/CASE/GRAPH.json) with npucc's pipeline,
 * its parameters and buffers frozen, run it on the simulator and compare
 * every output with PyTorch's recorded value and with the reference
 * interpreter in float64.
 *
 * Tolerances (docs/compiler.md): relative L2 error ||out - ref|| / ||ref||
 * at most 1e-5 for fp32, 1e-3 for fp16, 8e-3 for bf16, 1e-12 for fp64;
 * NaN and Inf in the same places; integer and bool outputs bit-exact.
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/ref.h"
#include "isa/dtype.h"
#include "sim/sim.h"
#include "traces/trace.h"
#include "tests/fxrun.h"

char fx_tmpdir[512];

const char *fx_srcdir(void)
{
	const char *s = getenv("srcdir");
	return s ? s : ".";
}

void fx_setup_tmp(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(fx_tmpdir, sizeof fx_tmpdir, "%s/fxrun.XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(fx_tmpdir));
}

/* removes the folder and every file a test left in it */
void fx_teardown_tmp(void)
{
	DIR *d = opendir(fx_tmpdir);
	struct dirent *de;
	char p[1024];

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", fx_tmpdir, de->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(fx_tmpdir);
}

double fx_tol(int dt)
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
double fx_relerr(const double *got, const double *want, int64_t n)
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

double *fx_widen(int dt, const void *raw, int64_t n)
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

/* A weight frozen into the program (unfrozen: only the get_attr
 * constants, as in a training step). */
static int is_frozen(const npu_gnode *n, int unfrozen)
{
	return npu_gnode_is_weight(n) && (!unfrozen || n->op == NPU_GOP_GET_ATTR);
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


/* RMS of a tensor's values */
static double rms(const double *x, int64_t n)
{
	double s = 0;

	for (int64_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			s += x[i] * x[i];
	return n ? sqrt(s / (double)n) : 0;
}

/* The magnitude of a graph's results: the largest RMS of its outputs. */
static double out_scale(const npu_reftensor *o, int n)
{
	double m = 0;

	for (int k = 0; k < n; k++)
		if (o[k].ndim >= 0) {
			double r = rms(o[k].data, npu_reftensor_numel(&o[k]));
			m = r > m ? r : m;
		}
	return m;
}

/*
 * The error of got against want.  Relative L2, except for an output that
 * is zero up to rounding next to the others (RMS below 1e-6 of the
 * largest output's, or below fxrun.small of it: the gradient of a conv
 * bias that a training-mode BatchNorm follows is exactly zero, and both
 * PyTorch's and our values are rounding noise); that one is measured
 * against the graph's scale.
 */
static double err_of(const double *got, const double *want, int64_t n,
		     double scale, double small)
{
	double w, d = 0;

	if (n == 0)             /* an empty result (a masked_select of none) */
		return 0;
	w = rms(want, n);
	if (!(w < (small > 0 ? small : 1e-6) * scale))
		return fx_relerr(got, want, n);
	for (int64_t i = 0; i < n; i++) {
		if (isnan(got[i]) != isnan(want[i]) ||
		    (isinf(want[i]) && got[i] != want[i]))
			return -1;
		if (isfinite(want[i]))
			d += (got[i] - want[i]) * (got[i] - want[i]);
	}
	return sqrt(d / (double)n) / scale;
}

/* Elements times element size (a symbolic buffer's range is larger:
 * room for the last call of its code). */
static uint64_t buf_bytes(const npu_buf *b)
{
	return npu_numel(b->ndim, b->shape) * (uint64_t)npu_dtype_size(b->dtype);
}

/* How far PyTorch's recorded value is from the fp64 reference, counted
 * only while it is itself within tol of it (so a recording far off
 * cannot widen the checks); 0 for integers. */
static double rec_off(const double *want, const npu_reftensor *ref, int64_t n,
		      double scale, double small, double tol)
{
	double d;

	if (tol == 0)
		return 0;
	d = err_of(want, ref->data, n, scale, small);
	return d > 0 && d <= tol ? d : 0;
}

/*
 * Compares one result buffer with the recorded value (when t) and the
 * fp64 reference ref.  Against fp64 the bound is the dtype's tolerance,
 * or three times PyTorch's own distance from fp64 where that is larger
 * (a BatchNorm over 8 values amplifies any summation order's rounding:
 * PyTorch's float32 is 5e-6 to 8e-6 off there, ours 1.2x to 1.7x that
 * with one BLAS's kernels, and another CPU's kernels sum in another
 * order).  Against PyTorch the bound is that plus PyTorch's own distance
 * (the triangle inequality).  Both widen by at most 3x, and only where
 * PyTorch itself is that far.
 */
static void check_buf(const char *graph, const npu_buf *b, const void *data,
		      const npu_tensor *t, const npu_reftensor *ref,
		      double scale, fxrun *fr)
{
	int64_t n = (int64_t)npu_numel(b->ndim, b->shape);
	double *got = fx_widen(b->dtype, data, n), err, tol = fx_tol(b->dtype);

	if (fr->tol > 0 && tol > 0)
		tol = fr->tol;
	double off = 0, tol_ref = tol;

	ck_assert_msg(npu_reftensor_numel(ref) == n, "%s %s: %lld values, the reference has %lld",
		      graph, b->name, (long long)n, (long long)npu_reftensor_numel(ref));
	if (t) {
		double *want;
		ck_assert_int_eq(t->dtype, b->dtype);
		ck_assert_uint_eq(t->nbytes, buf_bytes(b));
		want = fx_widen(t->dtype, t->data, n);
		err = err_of(got, want, n, scale, fr->small);
		if (tol == 0)
			ck_assert_msg(err == 0, "%s %s: integer output differs (%g)", graph, b->name, err);
		off = rec_off(want, ref, n, scale, fr->small, tol);
		tol_ref = 3 * off > tol ? 3 * off : tol;
		ck_assert_msg(err >= 0 && err <= tol_ref + off,
			      "%s %s: relative error %g vs recorded (tolerance %g)",
			      graph, b->name, err, tol_ref + off);
		if (err > fr->worst_rec)
			fr->worst_rec = err;
		free(want);
	}
	err = err_of(got, ref->data, n, scale, fr->small);
	ck_assert_msg(err >= 0 && err <= tol_ref,
		      "%s %s: relative error %g vs the fp64 reference (tolerance %g)",
		      graph, b->name, err, tol_ref);
	if (err > fr->worst_ref)
		fr->worst_ref = err;
	free(got);
}

/* The placeholder whose new value is output k (k < the graph's number
 * of mutated inputs returned first): the k-th flagged one. */
static int mut_ph(const npu_graph *g, int k)
{
	for (int i = 0, c = 0; i < g->ninput_mutates; i++)
		if (g->input_mutates_data[i] && c++ == k)
			return npu_graph_placeholder(g, i);
	ck_abort_msg("%s: no mutated input for output %d", g->file, k);
	return -1;
}


/* Writes the tensors of st that g freezes to wpath (--weights). */
static void freeze(const npu_graph *g, const npu_stfile *st, int unfrozen,
		   const char *wpath)
{
	npu_tensor *wt = calloc((size_t)g->nnodes + 1, sizeof *wt);
	size_t nw = 0;
	npu_err e;

	ck_assert_ptr_nonnull(wt);
	for (int i = 0; i < g->nnodes; i++) {
		char key[512];
		const npu_tensor *t;
		if (!is_frozen(&g->nodes[i], unfrozen))
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
	ck_assert_msg(npu_st_write(wpath, wt, nw, NULL, &e) == 0, "%s", e.msg);
	free(wt);
}

void fx_compile(const char *graph, const npu_stfile *st, fxrun *fr,
		npu_ccresult *r)
{
	npu_graph *g;
	npu_err e = { "" };
	static char wpath[1024];
	int rc;

	ck_assert_msg(npu_graph_read(&g, graph, &e) == 0, "%s", e.msg);
	snprintf(wpath, sizeof wpath, "%s/w.safetensors", fx_tmpdir);
	if (st)
		freeze(g, st, fr->unfrozen, wpath);
	npu_graph_free(g);
	fr->o.graph = graph;
	fr->o.weights = st ? wpath : NULL;
	if (!fr->o.target)
		fr->o.target = "npu-base";
	rc = npu_cc_compile(&fr->o, r, &e);
	if (rc && fr->may_refuse) {
		snprintf(fr->refused, sizeof fr->refused, "%s", e.msg);
		return;
	}
	ck_assert_msg(rc == 0, "%s: %s", graph, e.msg);
}

/* Appends the finished run to the trace database at path. */
static void write_trace(const char *graph, const npu_prog *p,
			const npu_target *tg, npu_sim *s, const char *path)
{
	npu_err e = { "" };
	npu_trace *t = npu_trace_open(path, &e);
	npu_trace_run run = { graph, tg->name, tg->hash, "fxrun", NULL };

	ck_assert_msg(t != NULL, "%s", e.msg);
	ck_assert_msg(npu_trace_begin(t, &run, p, &e) > 0 &&
		      npu_sim_write_trace(s, t, &e) == 0 &&
		      npu_trace_end(t, npu_sim_stats_get(s)->total_cycles, 0, 0, &e) == 0,
		      "%s", e.msg);
	npu_trace_close(t);
}

/* Writes every output and inout buffer of a finished run to path, by
 * buffer name (what npusim run --outputs writes). */
static void save_outputs(const npu_prog *p, npu_sim *s, const char *path)
{
	npu_tensor *t = calloc((size_t)p->nbufs + 1, sizeof *t);
	size_t n = 0;
	npu_err e;

	ck_assert_ptr_nonnull(t);
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		if (b->kind != NPU_BUF_OUTPUT && b->kind != NPU_BUF_INOUT)
			continue;
		t[n].name = b->name;
		t[n].dtype = b->dtype;
		t[n].ndim = b->ndim;
		memcpy(t[n].shape, b->shape, sizeof b->shape);
		t[n].nbytes = buf_bytes(b);
		t[n++].data = npu_sim_buf_data(s, (int)i);
	}
	ck_assert_msg(npu_st_write(path, t, n, NULL, &e) == 0, "%s", e.msg);
	free(t);
}

/* What every compile of fx_run_values is checked for. */
static void compile_checks(const char *graph, const npu_ccresult *r,
			   fxrun *fr)
{
	fr->nkernels = r->ir.nk;
	if (fr->inspect)
		fr->inspect(r, fr->inspect_ctx);
	fr->spills += r->spills;
	/* shared scratch stays close to the largest live set: within 1.5x
	 * on the fixtures; first fit in order of start can leave a hole
	 * more on a small arena (random graphs: 1.56x of 3.6 KB) */
	ck_assert_uint_le(r->ir.arena_bytes, 2 * r->ir.arena_peak + 64);
	/* provenance: every instruction of a kernel names one of its nodes */
	for (uint32_t k = 0; k < r->prog.nkernels; k++) {
		const npu_kernel *kk = &r->prog.kernels[k];
		for (uint32_t pc = kk->start; pc < kk->end; pc++) {
			uint32_t nd = r->prog.insn_node[pc], j;
			for (j = 0; j < kk->node_count; j++)
				if (r->prog.kernel_nodes[kk->node_first + j] == nd)
					break;
			ck_assert_msg(j < kk->node_count, "%s: kernel %s, pc %u: node %u is not the kernel's",
				      graph, kk->name, pc, nd);
		}
	}
}

/* A simulator for p with st's inputs in place (timing_only: --timing-only);
 * a dynamic-shape program first takes the sizes of st's inputs (p is
 * changed). */
static npu_sim *load(const char *graph, npu_prog *p, const npu_target *t,
		     const npu_stfile *st, int timing_only)
{
	npu_sim_opts so = { .check_races = 1, .timing_only = timing_only };
	npu_err e = { "" };
	uint8_t *table;
	npu_sim *s;

	ck_assert_msg(npu_prog_bind_inputs(p, st, &table, &e) == 0, "%s: %s",
		      graph, e.msg);
	npu_hostops_register_all();
	s = npu_sim_new(p, t, &so, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	if (table) {
		uint8_t *q = npu_sim_local(s, p->symtab, NPU_SYMTAB_BYTES(p));
		ck_assert_ptr_nonnull(q);
		memcpy(q, table, NPU_SYMTAB_BYTES(p));
		free(table);
	}
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		const npu_tensor *in;
		if (b->kind != NPU_BUF_INPUT && b->kind != NPU_BUF_INOUT)
			continue;
		in = npu_st_find(st, b->name);
		ck_assert_msg(in != NULL, "%s: no value for input %s", graph, b->name);
		ck_assert_uint_eq(in->nbytes, buf_bytes(b));
		if (in->nbytes)
			memcpy(npu_sim_buf_data(s, (int)i), in->data, in->nbytes);
	}
	return s;
}

/* --timing-only computes no value and must count the same cycles and
 * bytes as the full run fr (a gather by indices the vector unit
 * computes faulted there: check_sim dma_gather_computed_index). */
static void timing_only_same(const char *graph, npu_prog *p, const npu_target *tg,
			     const npu_stfile *st, const fxrun *fr)
{
	npu_err e = { "" };
	npu_sim *s = load(graph, p, tg, st, 1);
	const npu_sim_stats *ss;

	ck_assert_msg(npu_sim_run(s, &e) == 0, "%s: timing only: %s", graph, e.msg);
	ss = npu_sim_stats_get(s);
	ck_assert_msg(ss->total_cycles == fr->cycles && ss->dram_rd == fr->dram_rd &&
		      ss->dram_wr == fr->dram_wr,
		      "%s: timing only %llu cycles, %llu/%llu DRAM bytes; the full run %llu, %llu/%llu",
		      graph, (unsigned long long)ss->total_cycles,
		      (unsigned long long)ss->dram_rd, (unsigned long long)ss->dram_wr,
		      (unsigned long long)fr->cycles, (unsigned long long)fr->dram_rd,
		      (unsigned long long)fr->dram_wr);
	npu_sim_free(s);
}

/*
 * The program runs (timing only) with unit queues of 8 entries too.  The
 * compiler does not count queue entries: a wait issued before the signal
 * it needs, later in the program, holds every entry after it in its
 * unit's queue, and the scalar unit stops on a full queue before it
 * issues the signal.  With 8 entries such an inversion shows long before
 * it fills a target's own queues (Visformer's transposed convolution
 * with 32; three fixtures' matmuls with 8).
 */
static void short_queues_run(const char *graph, npu_prog *p, const npu_target *tg,
			     const npu_stfile *st)
{
	npu_target t8 = *tg;
	npu_err e = { "" };
	npu_sim *s;

	if (t8.queue_depth <= 8)
		return;
	t8.queue_depth = 8;
	s = load(graph, p, &t8, st, 1);
	ck_assert_msg(npu_sim_run(s, &e) == 0, "%s: with 8-entry queues: %s", graph, e.msg);
	npu_sim_free(s);
}

void fx_check_run(const char *graph, npu_prog *p, const npu_target *tg,
		  const npu_stfile *st, int has_rec, fxrun *fr)
{
	npu_graph *g;
	npu_err e = { "" };
	npu_sim *s;
	refctx rc = { .st = st };
	npu_refenv env = { .precision = NPU_REF_FP64, .lookup = ref_lookup, .ctx = &rc };
	npu_reftensor *routs;
	int nrout, nmut = 0;
	double scale;

	ck_assert_msg(npu_graph_read(&g, graph, &e) == 0, "%s", e.msg);
	s = load(graph, p, tg, st, 0);
	ck_assert_msg(npu_sim_run(s, &e) == 0, "%s: %s", graph, e.msg);
	fr->cycles = npu_sim_stats_get(s)->total_cycles;
	fr->dram_rd = npu_sim_stats_get(s)->dram_rd;
	fr->dram_wr = npu_sim_stats_get(s)->dram_wr;
	fr->host_calls = npu_sim_stats_get(s)->host_calls;
	/* (a dynamic program's sizes are bound into p once, by load) */
	if (!p->nsyms) {
		timing_only_same(graph, p, tg, st, fr);
		short_queues_run(graph, p, tg, st);
	}
	if (fr->save)
		save_outputs(p, s, fr->save);
	if (fr->trace)
		write_trace(graph, p, tg, s, fr->trace);
	if (g->has_aot && g->kind != NPU_GK_BACKWARD)
		nmut = g->num_mutated_inputs_returned_first;
	/* the reference interpreter, fp64 */
	ck_assert_msg(npu_ref_run(g, &env, &routs, &nrout, &e) == 0, "%s: ref: %s",
		      graph, e.msg);
	scale = out_scale(routs, nrout);
	if (scale < fr->scale_floor)
		scale = fr->scale_floor;
	for (int k = 0; k < nrout; k++) {
		char name[32];
		int bi;
		const npu_tensor *t;
		snprintf(name, sizeof name, "output.%d", k);
		bi = npu_prog_find_buf(p, name);
		t = has_rec ? npu_st_find(st, name) : NULL;
		if (routs[k].ndim < 0) {
			/* None: no buffer, nothing recorded */
			ck_assert_msg(bi < 0, "%s: None output %d has a buffer", graph, k);
			ck_assert_msg(!t, "%s: None output %d was recorded", graph, k);
			continue;
		}
		ck_assert_msg(!has_rec || t, "%s: no recorded %s", graph, name);
		if (k < nmut) {
			/* the new value of a mutated input: in the input's own
			 * buffer, whether or not output.k exists too */
			int ib = npu_prog_find_buf(p, g->nodes[mut_ph(g, k)].name);
			ck_assert_msg(ib >= 0 && p->bufs[ib].kind == NPU_BUF_INOUT,
				      "%s: mutated input %s is not an inout buffer", graph,
				      g->nodes[mut_ph(g, k)].name);
			check_buf(graph, &p->bufs[ib], npu_sim_buf_data(s, ib), t,
				  &routs[k], scale, fr);
			if (bi < 0) {
				fr->inplace++;
				continue;
			}
		}
		ck_assert_msg(bi >= 0, "%s: no buffer %s", graph, name);
		check_buf(graph, &p->bufs[bi], npu_sim_buf_data(s, bi), t,
			  &routs[k], scale, fr);
	}
	npu_ref_free_outputs(routs, nrout);
	for (int i = 0; i < rc.n; i++) {
		npu_reftensor_free(&rc.cache[i]);
		free(rc.names[i]);
	}
	free(rc.cache);
	free(rc.names);
	npu_sim_free(s);
	npu_graph_free(g);
}

void fx_run_values(const char *graph, const npu_stfile *st, int has_rec,
		   fxrun *fr)
{
	npu_ccresult r = { 0 };

	fx_compile(graph, st, fr, &r);
	if (fr->refused[0])
		return;
	compile_checks(graph, &r, fr);
	fx_check_run(graph, &r.prog, &r.t, st, has_rec, fr);
	npu_cc_free(&r);
}

void fx_run_graph(const char *cg, fxrun *fr)
{
	char graph[1024], vals[1024];
	npu_stfile st;
	npu_err e;

	snprintf(graph, sizeof graph, "%s/tests/data/fx/%s.json", fx_srcdir(), cg);
	snprintf(vals, sizeof vals, "%s/tests/data/fx/%s.safetensors", fx_srcdir(), cg);
	ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
	fx_run_values(graph, &st, 1, fr);
	npu_st_free(&st);
}

void fx_run_fixture(const char *c, fxrun *fr)
{
	char cg[512];

	snprintf(cg, sizeof cg, "%s/inference2", c);
	fx_run_graph(cg, fr);
}

/* Deterministic values for every placeholder of a graph (resnet18 has no
 * recorded values): uniform in [-a, a], a = 1/sqrt(fan-in) for weights;
 * BatchNorm scales near 1, running variances positive.  Symbolic dims
 * take the values bound to them (sym[i] = val[i]); parameters and
 * buffers that keep has are copied from it; SymInt placeholders are
 * left out. */
void fx_gen_values_at(const npu_graph *g, const char *const *sym,
		      const int64_t *val, int nsym, const npu_stfile *keep,
		      const char *path)
{
	npu_tensor *t = calloc((size_t)g->nnodes + 1, sizeof *t);
	size_t n = 0;
	uint64_t seed = 12345;
	npu_err e;
	char *own = calloc((size_t)g->nnodes + 1, 1);

	for (int i = 0; i < g->nnodes; i++) {
		const npu_gnode *nd = &g->nodes[i];
		const npu_gmeta *m = nd->meta;
		const npu_tensor *kt = keep && is_frozen(nd, 0) ?
				       npu_st_find(keep, nd->name) : NULL;
		int64_t numel = 1;
		float *d;
		double a = 1;
		const char *src = nd->phsource ? nd->phsource : "";
		if (nd->op != NPU_GOP_PLACEHOLDER || !m ||
		    (m->kind == NPU_GM_SCALAR && m->scalar.kind == NPU_GV_SYM))
			continue;
		if (kt) {
			t[n++] = *kt;
			continue;
		}
		t[n].name = nd->name;
		t[n].dtype = m->dtype;
		t[n].ndim = m->ndim;
		for (int d2 = 0; d2 < m->ndim; d2++) {
			int64_t v = m->shape[d2].v;
			if (m->shape[d2].sym)
				ck_assert_msg(npu_ref_symeval(m->shape[d2].sym, sym, val,
							      nsym, &v, &e) == 0, "%s", e.msg);
			t[n].shape[d2] = v;
			numel *= v;
		}
		if (m->ndim >= 2 && t[n].shape[0])
			a = 1 / sqrt((double)(numel / t[n].shape[0]));
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
		if (m->dtype == NPU_DT_I64) {
			/* token ids and other indices: 0 to 15, in range of
			 * any table of 16 rows or more */
			int64_t *c = malloc((size_t)numel * 8 + 8);
			ck_assert_ptr_nonnull(c);
			for (int64_t k = 0; k < numel; k++)
				c[k] = (k * 7 + 3) % 16;
			free(d);
			t[n].data = c;
			t[n].nbytes = (uint64_t)numel * 8;
		}
		if (m->dtype == NPU_DT_BOOL) {
			/* masks: one element in four set */
			uint8_t *c = malloc((size_t)numel + 1);
			ck_assert_ptr_nonnull(c);
			for (int64_t k = 0; k < numel; k++)
				c[k] = k % 4 == 3;
			free(d);
			t[n].data = c;
			t[n].nbytes = (uint64_t)numel;
		}
		if (m->dtype == NPU_DT_BF16 || m->dtype == NPU_DT_F16) {
			/* an op case in a 2-byte type: the values rounded to it */
			uint8_t *c = malloc((size_t)numel * 2 + 2);
			ck_assert_ptr_nonnull(c);
			npu_store_f32_n(m->dtype, c, d, (size_t)numel, NPU_CVT_RNE);
			free(d);
			t[n].data = c;
			t[n].nbytes = (uint64_t)numel * (uint64_t)npu_dtype_size(m->dtype);
		}
		own[n++] = 1;
	}
	ck_assert_msg(npu_st_write(path, t, n, NULL, &e) == 0, "%s", e.msg);
	for (size_t i = 0; i < n; i++)
		if (own[i])
			free(t[i].data);
	free(t);
	free(own);
}

void fx_gen_values(const npu_graph *g, const char *path)
{
	fx_gen_values_at(g, NULL, NULL, 0, NULL, path);
}
