/*
 * bench_compile.c - compiler benchmarks (not a test; scripts/bench runs it):
 *
 *   gemm  matrix-unit utilization of compiled GEMMs on npu-base, as the
 *         roofline bound max(MACs / (rows * cols * rate), bytes / DRAM
 *         bytes per cycle) over the simulated cycles, for M = N = K in
 *         64 .. 2048, bf16 and fp32 (highest: the array's fp32 mode)
 *   time  compile time of resnet18 and llama_tiny (best of 5)
 *   model resnet18's simulated cycles against its roofline
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

/* Deterministic weights for every parameter and buffer of g (resnet18 has
 * no recorded values), as the frozen weights of a deployment. */
static int gen_weights(const npu_graph *g, const char *path)
{
	npu_tensor *t = calloc((size_t)g->nnodes + 1, sizeof *t);
	size_t n = 0;
	uint64_t seed = 12345;
	npu_err e;
	int rc;

	if (!t)
		return -1;
	for (int i = 0; i < g->nnodes; i++) {
		const npu_gnode *nd = &g->nodes[i];
		const npu_gmeta *m = nd->meta;
		int64_t numel = 1;
		float *d;
		double a = 1;
		const char *src = nd->phsource ? nd->phsource : "";
		if (nd->op != NPU_GOP_PLACEHOLDER || !m || nd->phkind == NPU_PH_INPUT)
			continue;
		t[n].name = nd->name;
		t[n].dtype = m->dtype;
		t[n].ndim = m->ndim;
		for (int k = 0; k < m->ndim; k++) {
			t[n].shape[k] = m->shape[k].v;
			numel *= m->shape[k].v;
		}
		if (m->ndim >= 2 && m->shape[0].v)
			a = 1 / sqrt((double)(numel / m->shape[0].v));
		d = malloc((size_t)numel * 4 + 4);
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
	for (size_t i = 0; i < n; i++)
		free(t[i].data);
	free(t);
	return rc;
}

static void resnet(const char *src)
{
	char g[1024];
	npu_ccopts o = { .graph = g, .target = "npu-base" };
	npu_ccresult r = { 0 };
	npu_err e;
	uint64_t cyc;
	double macc, macs = 0, bytes = 0, comp, mem;

	char wpath[1024];
	int fd = tmpname(wpath, sizeof wpath, "bench_resnet");
	npu_graph *gr;

	snprintf(g, sizeof g, "%s/tests/data/fx/resnet18/inference2.json", src);
	if (fd < 0 || npu_graph_read(&gr, g, &e) < 0)
		return;
	gen_weights(gr, wpath);
	npu_graph_free(gr);
	o.weights = wpath;
	/* compile time with the weights frozen (best of 5), by stage */
	{
		double best = 1e9, st[NPU_NSTAGE] = { 0 };
		for (int i = 0; i < 5; i++) {
			double t0 = now(), t;
			if (npu_cc_compile(&o, &r, &e) < 0) {
				fprintf(stderr, "bench_compile: %s\n", e.msg);
				unlink(wpath);
				return;
			}
			t = now() - t0;
			if (t < best) {
				best = t;
				memcpy(st, r.seconds, sizeof st);
			}
			npu_cc_free(&r);
		}
		printf("compile resnet18 with weights %8.4f s  (", best);
		for (int s = 0; s < NPU_NSTAGE; s++)
			printf("%s%s %.3f", s ? ", " : "", npu_stage_name(s), st[s]);
		printf(")\n");
	}
	if (npu_cc_compile(&o, &r, &e) < 0) {
		fprintf(stderr, "bench_compile: %s\n", e.msg);
		unlink(wpath);
		return;
	}
	if (simulate(&r, &cyc, &macc) == 0) {
		/* roofline: every conv and matmul on the array in fp32 mode,
		 * and the weights and activations read once */
		for (int i = 0; i < r.g->nnodes; i++) {
			const npu_gnode *n = &r.g->nodes[i];
			if (n->aop == NPU_AOP_CONV && n->meta) {
				const npu_gnode *w = &r.g->nodes[n->args[1].u.node];
				double outn = 1, k = 1;
				for (int d = 0; d < n->meta[0].ndim; d++)
					outn *= (double)n->meta[0].shape[d].v;
				for (int d = 1; d < w->meta[0].ndim; d++)
					k *= (double)w->meta[0].shape[d].v;
				macs += outn * k;
			}
			if (n->op == NPU_GOP_PLACEHOLDER && n->meta) {
				double el = 1;
				for (int d = 0; d < n->meta[0].ndim; d++)
					el *= (double)n->meta[0].shape[d].v;
				bytes += el * 4;
			}
		}
		comp = macs / (r.t.mxu_rows * r.t.mxu_cols * r.t.mxu_rate[NPU_DT_F32]);
		mem = bytes / r.t.dram_bytes_per_cycle;
		printf("resnet18: %llu cycles simulated, roofline %.0f (%.2f GMACs), %.1f%% of roofline, %llu host calls\n",
		       (unsigned long long)cyc, comp > mem ? comp : mem, macs / 1e9,
		       100 * (comp > mem ? comp : mem) / (double)cyc,
		       (unsigned long long)r.prog.nhcalls);
		printf("resnet18: %d kernels; weights frozen (conv-BN folded by the passes)\n", r.ir.nk);
	}
	npu_cc_free(&r);
	unlink(wpath);
}

int main(int argc, char **argv)
{
	const char *src = argc > 1 ? argv[1] : getenv("srcdir") ? getenv("srcdir") : ".";

	npu_hostops_register_all();
	gemm("bfloat16", NPU_DT_BF16);
	gemm("float32", NPU_DT_F32);
	compile_time(src, "resnet18");
	compile_time(src, "llama_tiny");
	resnet(src);
	return 0;
}
