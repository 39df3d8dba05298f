/*
 * bench_compile.c - compiler benchmarks (not a test; scripts/bench runs it):
 *
 *   gemm  matrix-unit utilization of compiled GEMMs on npu-base, as the
 *         roofline bound max(MACs / (rows * cols * rate), bytes / DRAM
 *         bytes per cycle) over the simulated cycles, for M = N = K in
 *         64 .. 2048, bf16 and fp32 (highest: the array's fp32 mode)
 *   time  compile time of resnet18 and llama_tiny (best of 5)
 *   model resnet18 (generated weights) and llama_tiny (its recorded
 *         ones), frozen: simulated cycles against the model's roofline
 *         and the three kernels that lose most against their own
 *
 * usage: bench_compile [SRCDIR]   (default $srcdir or ".")
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compiler/driver.h"
#include "sim/sim.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int write_gemm(const char *path, int n, const char *dt)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "{\"format\": \"fxgraph\", \"version\": 1, \"name\": \"gemm%d\", "
		   "\"graph_kind\": \"inference\", \"nodes\": ["
		   "{\"name\": \"a\", \"op\": \"placeholder\", \"target\": \"a\", \"args\": [], \"kwargs\": {}, "
		   "\"meta\": {\"shape\": [%d, %d], \"dtype\": \"%s\"}},"
		   "{\"name\": \"b\", \"op\": \"placeholder\", \"target\": \"b\", \"args\": [], \"kwargs\": {}, "
		   "\"meta\": {\"shape\": [%d, %d], \"dtype\": \"%s\"}},"
		   "{\"name\": \"mm\", \"op\": \"call_function\", \"target\": \"aten.mm.default\", "
		   "\"args\": [{\"node\": \"a\"}, {\"node\": \"b\"}], \"kwargs\": {}, "
		   "\"meta\": {\"shape\": [%d, %d], \"dtype\": \"%s\"}},"
		   "{\"name\": \"output\", \"op\": \"output\", \"target\": \"output\", "
		   "\"args\": [[{\"node\": \"mm\"}]], \"kwargs\": {}}]}\n",
		n, n, n, dt, n, n, dt, n, n, dt);
	return fclose(f);
}

/* Simulated cycles of a compiled program (timing only). */
static int simulate(npu_ccresult *r, uint64_t *cycles, double *macc)
{
	npu_sim_opts so = { .timing_only = 1 };
	npu_err e;
	npu_sim *s = npu_sim_new(&r->prog, &r->t, &so, &e);

	if (!s || npu_sim_run(s, &e)) {
		fprintf(stderr, "bench_compile: %s\n", e.msg);
		npu_sim_free(s);
		return -1;
	}
	*cycles = npu_sim_stats_get(s)->total_cycles;
	*macc = npu_sim_stats_get(s)->mac_cycles;
	npu_sim_free(s);
	return 0;
}

/* A temporary file name under $TMPDIR (or /tmp). */
static int tmpname(char *buf, size_t n, const char *stem)
{
	const char *d = getenv("TMPDIR");
	int fd;

	snprintf(buf, n, "%s/%sXXXXXX", d && *d ? d : "/tmp", stem);
	fd = mkstemp(buf);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -1 : 0;
}

static void gemm(const char *dt, int dtid)
{
	char path[1024];
	int fd = tmpname(path, sizeof path, "bench_compile");
	static const int sizes[] = { 64, 128, 256, 512, 1024, 2048 };

	if (fd < 0)
		return;
	printf("gemm %s on npu-base: M=N=K, roofline = max(MACs/(rows*cols*rate), bytes/DRAM rate)\n", dt);
	printf("%6s %12s %12s %8s %8s\n", "size", "cycles", "roofline", "util%", "tiles");
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		int n = sizes[i];
		npu_ccopts o = { .graph = path, .target = "npu-base" };
		npu_ccresult r = { 0 };
		npu_err e;
		uint64_t cyc;
		double macc, comp, mem, roof;
		int esz = npu_dtype_size(dtid);
		if (write_gemm(path, n, dt) < 0 || npu_cc_compile(&o, &r, &e) < 0) {
			fprintf(stderr, "bench_compile: %s\n", e.msg);
			break;
		}
		if (simulate(&r, &cyc, &macc) < 0) {
			npu_cc_free(&r);
			break;
		}
		comp = (double)n * n * n / (r.t.mxu_rows * r.t.mxu_cols * r.t.mxu_rate[dtid]);
		mem = 3.0 * n * n * esz / r.t.dram_bytes_per_cycle;
		roof = comp > mem ? comp : mem;
		for (int k = 0; k < r.ir.nk; k++)
			if (r.ir.k[k].kind == NPU_KK_MM)
				printf("%6d %12llu %12.0f %8.1f %4lldx%-4lld\n", n,
				       (unsigned long long)cyc, roof, 100 * roof / (double)cyc,
				       (long long)r.ir.k[k].kn.tile_m,
				       (long long)r.ir.k[k].kn.tile_n);
		npu_cc_free(&r);
	}
	unlink(path);
}

static void compile_time(const char *src, const char *name)
{
	char g[1024];
	double best = 1e9;

	snprintf(g, sizeof g, "%s/tests/data/fx/%s/inference2.json", src, name);
	for (int i = 0; i < 5; i++) {
		npu_ccopts o = { .graph = g, .target = "npu-base" };
		npu_ccresult r = { 0 };
		npu_err e;
		double t0 = now(), t;
		if (npu_cc_compile(&o, &r, &e) < 0) {
			fprintf(stderr, "bench_compile: %s\n", e.msg);
			return;
		}
		t = now() - t0;
		if (t < best)
			best = t;
		if (i == 4)
			printf("compile %-12s %8.4f s  (%d kernels, %u instructions)\n",
			       name, best, r.ir.nk, r.prog.ncode);
		npu_cc_free(&r);
	}
}

/*
 * The frozen weights of g: the fixture's recorded tensors where it has
 * them (st may be NULL), else deterministic values (resnet18 has no
 * recorded parameters), as the frozen weights of a deployment.
 */
static int gen_weights(const npu_graph *g, const npu_stfile *st, const char *path)
{
	npu_tensor *t = calloc((size_t)g->nnodes + 1, sizeof *t);
	char **names = calloc((size_t)g->nnodes + 1, sizeof *names);
	size_t n = 0, nown = 0;
	void **own = calloc((size_t)g->nnodes + 1, sizeof *own);
	uint64_t seed = 12345;
	npu_err e;
	int rc = -1;

	if (!t || !names || !own)
		goto out;
	for (int i = 0; i < g->nnodes; i++) {
		const npu_gnode *nd = &g->nodes[i];
		const npu_gmeta *m = nd->meta;
		const npu_tensor *rec;
		char key[512];
		int64_t numel = 1;
		float *d;
		double a = 1;
		const char *src = nd->phsource ? nd->phsource : "";
		if (!npu_gnode_is_weight(nd) || !m)
			continue;
		if (nd->op == NPU_GOP_GET_ATTR)
			snprintf(key, sizeof key, "attr.%s", nd->target);
		else
			snprintf(key, sizeof key, "%s", nd->name);
		if (st && (rec = npu_st_find(st, key))) {
			t[n++] = *rec;
			continue;
		}
		if (!(names[nown] = strdup(key)))
			goto out;
		t[n].name = names[nown];
		t[n].dtype = m->dtype;
		t[n].ndim = m->ndim;
		for (int k = 0; k < m->ndim; k++) {
			t[n].shape[k] = m->shape[k].v;
			numel *= m->shape[k].v;
		}
		if (m->ndim >= 2 && m->shape[0].v)
			a = 1 / sqrt((double)(numel / m->shape[0].v));
		if (!(d = malloc((size_t)numel * 4 + 4)))
			goto out;
		own[nown++] = d;
		for (int64_t k = 0; k < numel; k++) {
			double u;
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			u = (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
			d[k] = (float)(strstr(src, "running_var") ? 1 + 0.5 * fabs(u)
				       : m->ndim == 1 ? 0.1 * u : a * u);
		}
		t[n].data = d;
		t[n].nbytes = (uint64_t)numel * 4;
		n++;
	}
	rc = npu_st_write(path, t, n, NULL, &e);
out:
	for (size_t i = 0; own && i < nown; i++) {
		free(own[i]);
		free(names[i]);
	}
	free(own);
	free(names);
	free(t);
	return rc;
}

static double numel_of(const npu_gmeta *m)
{
	double el = 1;

	for (int d = 0; d < m->ndim; d++)
		el *= (double)m->shape[d].v;
	return el;
}

/*
 * The model's roofline: every convolution and matmul on the array at its
 * type's rate, against the graph's inputs and weights read once from
 * DRAM; the larger of the two.
 */
static double model_roofline(const npu_ccresult *r, double *gmacs)
{
	double comp = 0, bytes = 0, macs = 0;
	const npu_target *t = &r->t;

	for (int i = 0; i < r->g->nnodes; i++) {
		const npu_gnode *n = &r->g->nodes[i];
		double m = 0;
		if (!n->meta)
			continue;
		if (n->aop == NPU_AOP_CONV) {
			const npu_gnode *w = &r->g->nodes[n->args[1].u.node];
			m = numel_of(&n->meta[0]) * numel_of(&w->meta[0]) /
			    (double)w->meta[0].shape[0].v;
		} else if (n->aop == NPU_AOP_MM || n->aop == NPU_AOP_BMM ||
			   n->aop == NPU_AOP_ADDMM) {
			const npu_gnode *a = &r->g->nodes[n->args[n->aop == NPU_AOP_ADDMM].u.node];
			m = numel_of(&n->meta[0]) *
			    (double)a->meta[0].shape[a->meta[0].ndim - 1].v;
		}
		if (m > 0) {
			double rate = t->mxu_rate[n->meta[0].dtype];
			macs += m;
			comp += m / (t->mxu_rows * t->mxu_cols * (rate > 0 ? rate : 1));
		}
		if (n->op == NPU_GOP_PLACEHOLDER || n->op == NPU_GOP_GET_ATTR)
			bytes += numel_of(&n->meta[0]) * npu_dtype_size(n->meta[0].dtype);
	}
	*gmacs = macs / 1e9;
	bytes /= t->dram_bytes_per_cycle;
	return comp > bytes ? comp : bytes;
}

typedef struct klost {
	const char *name;
	double cycles, bound;
} klost;

static int by_lost(const void *a, const void *b)
{
	const klost *x = a, *y = b;
	double lx = x->cycles - x->bound, ly = y->cycles - y->bound;

	return lx < ly ? 1 : lx > ly ? -1 : 0;
}

/*
 * Per kernel (summed over executions): cycles against its own roofline,
 * max(MACs at its type's rate, DRAM bytes at DRAM bandwidth); prints the
 * top three by lost cycles (cycles - bound).  A far panel's loads
 * ("<matmul>.pf", driver.c) run beside the kernels after them, which
 * their cycles overlap: left out.
 */
static void top_lost(const char *model, const npu_ccresult *r, const npu_sim *s)
{
	const npu_trace_kernel *kx;
	size_t nx = npu_sim_kexecs(s, &kx);
	klost *kl = calloc((size_t)r->prog.nkernels + 1, sizeof *kl);
	const npu_target *t = &r->t;

	if (!kl)
		return;
	for (uint32_t k = 0; k < r->prog.nkernels; k++) {
		double macs = 0, bytes = 0, rate = 1;
		kl[k].name = r->prog.kernels[k].name;
		for (int i = 0; i < r->ir.nk; i++)
			if (r->ir.k[i].kind == NPU_KK_MM &&
			    !strcmp(r->ir.k[i].name, kl[k].name) &&
			    t->mxu_rate[r->ir.k[i].mm_dtype] > 0)
				rate = t->mxu_rate[r->ir.k[i].mm_dtype];
		size_t len = strlen(kl[k].name);
		if (len > 3 && !strcmp(kl[k].name + len - 3, ".pf"))
			continue;
		for (size_t x = 0; x < nx; x++)
			if (kx[x].kernel == (int)k) {
				kl[k].cycles += (double)(kx[x].end - kx[x].start);
				macs += (double)kx[x].macs;
				bytes += (double)(kx[x].dram_rd + kx[x].dram_wr);
			}
		macs /= t->mxu_rows * t->mxu_cols * rate;
		bytes /= t->dram_bytes_per_cycle;
		kl[k].bound = macs > bytes ? macs : bytes;
	}
	qsort(kl, r->prog.nkernels, sizeof *kl, by_lost);
	printf("%s: top kernels by lost cycles (cycles - kernel roofline)\n", model);
	printf("  %-28s %10s %10s %10s\n", "kernel", "cycles", "bound", "lost");
	for (uint32_t k = 0; k < r->prog.nkernels && k < (getenv("NPU_BENCH_TOP") ? (uint32_t)atoi(getenv("NPU_BENCH_TOP")) : 3); k++)
		printf("  %-28s %10.0f %10.0f %10.0f\n", kl[k].name, kl[k].cycles,
		       kl[k].bound, kl[k].cycles - kl[k].bound);
	free(kl);
}

/* A model fixture with frozen weights: compile time by stage (resnet18),
 * then cycles against the roofline and the kernels that lose most. */
static void model(const char *src, const char *name, int stages)
{
	char g[1024], vals[1024], wpath[1024];
	npu_ccopts o = { .graph = g, .target = "npu-base" };
	npu_ccresult r = { 0 };
	npu_stfile st = { 0 };
	int have_st;
	npu_err e;
	npu_graph *gr;
	npu_sim_opts so = { .timing_only = 1 };
	npu_sim *s = NULL;
	int fd = tmpname(wpath, sizeof wpath, "bench_model");

	snprintf(g, sizeof g, "%s/tests/data/fx/%s/inference2.json", src, name);
	snprintf(vals, sizeof vals, "%s/tests/data/fx/%s/inference2.safetensors", src, name);
	if (fd < 0)
		return;
	if (npu_graph_read(&gr, g, &e) < 0) {
		fprintf(stderr, "bench_compile: %s\n", e.msg);
		goto out;
	}
	have_st = access(vals, R_OK) == 0 && npu_st_read(&st, vals, &e) == 0;
	gen_weights(gr, have_st ? &st : NULL, wpath);
	if (have_st)
		npu_st_free(&st);
	npu_graph_free(gr);
	o.weights = wpath;
	/* compile time with the weights frozen (best of 5), by stage */
	if (stages) {
		double best = 1e9, tst[NPU_NSTAGE] = { 0 };
		for (int i = 0; i < 5; i++) {
			double t0 = now(), t;
			if (npu_cc_compile(&o, &r, &e) < 0) {
				fprintf(stderr, "bench_compile: %s\n", e.msg);
				goto out;
			}
			t = now() - t0;
			if (t < best) {
				best = t;
				memcpy(tst, r.seconds, sizeof tst);
			}
			npu_cc_free(&r);
		}
		printf("compile %s with weights %8.4f s  (", name, best);
		for (int k = 0; k < NPU_NSTAGE; k++)
			printf("%s%s %.3f", k ? ", " : "", npu_stage_name(k), tst[k]);
		printf(")\n");
	}
	if (npu_cc_compile(&o, &r, &e) < 0) {
		fprintf(stderr, "bench_compile: %s\n", e.msg);
		goto out;
	}
	if (!(s = npu_sim_new(&r.prog, &r.t, &so, &e)) || npu_sim_run(s, &e)) {
		fprintf(stderr, "bench_compile: %s\n", e.msg);
	} else {
		double gm, roof = model_roofline(&r, &gm);
		uint64_t cyc = npu_sim_stats_get(s)->total_cycles;
		printf("%s: %llu cycles simulated, roofline %.0f (%.3f GMACs), %.1f%% of roofline, %d kernels, %llu host calls\n",
		       name, (unsigned long long)cyc, roof, gm, 100 * roof / (double)cyc,
		       r.ir.nk, (unsigned long long)r.prog.nhcalls);
		top_lost(name, &r, s);
	}
	npu_sim_free(s);
	npu_cc_free(&r);
out:
	unlink(wpath);
}

int main(int argc, char **argv)
{
	npu_sim_blas_default(); /* as npucc and npusim */
	const char *src = argc > 1 ? argv[1] : getenv("srcdir") ? getenv("srcdir") : ".";

	npu_hostops_register_all();
	gemm("bfloat16", NPU_DT_BF16);
	gemm("float32", NPU_DT_F32);
	compile_time(src, "resnet18");
	compile_time(src, "llama_tiny");
	model(src, "resnet18", 1);
	model(src, "llama_tiny", 0);
	return 0;
}
