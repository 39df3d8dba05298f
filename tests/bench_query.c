/*
 * bench_query - how long the canned queries, the report and the Chrome
 * export take on a big trace.  Not a test: scripts/bench runs it.
 *
 * Usage: bench_query DIR [ACTIVITY_ROWS]
 *
 * Writes DIR/big.db: a small first run, then a synthetic run shaped like
 * a ResNet-18 run at full detail (--trace-resolution 1): 120 kernels
 * (convolutions fused with batch norm and relu, one to three FX nodes
 * each, in module paths layer1.0.conv1 ...), executed in turn, and about
 * ACTIVITY_ROWS (default 4 000 000) activity rows: the scalar, vector,
 * matrix and four DMA units switching state every few cycles, plus a
 * DMA transfer per 40 rows.  Prints the trace size and one line per
 * measurement: "name=... seconds=... rows=...".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "traces/chrome.h"
#include "traces/query.h"
#include "traces/report.h"
#include "traces/trace.h"

#define NK 120
#define NUNIT 8   /* scl vec mxu host dma0..dma3 */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, const npu_err *e)
{
	fprintf(stderr, "bench_query: %s: %s\n", what, e->msg);
	exit(1);
}

/* A deterministic generator (the trace is the same on every machine). */
static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static npu_node nodes[3 * NK];
static npu_kernel kernels[NK];
static uint32_t knodes[3 * NK];
static uint64_t code[NK * 4];
static char names[4 * NK][3][64];

static npu_prog make_prog(void)
{
	static const char *const ops[3] = { "aten.convolution.default",
		"aten._native_batch_norm_legit_no_training.default", "aten.relu.default" };
	uint32_t nn = 0;
	npu_prog p = { 0 };

	for (int k = 0; k < NK; k++) {
		int layer = 1 + k / 30, block = (k / 15) % 2, conv = 1 + k % 3;
		int parts = 1 + k % 3;
		snprintf(names[k][0], sizeof names[k][0],
			 "fused_convolution_batch_norm_relu_%d", k);
		kernels[k].name = names[k][0];
		kernels[k].start = (uint32_t)k * 4;
		kernels[k].end = (uint32_t)k * 4 + 4;
		kernels[k].node_first = nn;
		kernels[k].node_count = (uint32_t)parts;
		snprintf(names[NK + k][0], sizeof names[0][0], "layer%d.%d.conv%d",
			 layer, block, conv);
		for (int j = 0; j < parts; j++) {
			snprintf(names[2 * NK + k][j], sizeof names[0][0], "%s_%d",
				 j == 0 ? "convolution" : j == 1 ? "batch_norm" : "relu", k);
			nodes[nn].name = names[2 * NK + k][j];
			nodes[nn].target = (char *)ops[j];
			nodes[nn].module = names[NK + k][0];
			nodes[nn].source = "resnet.py:70";
			knodes[nn] = nn;
			nn++;
		}
	}
	p.code = code;
	p.ncode = NK * 4;
	p.nodes = nodes;
	p.nnodes = nn;
	p.kernels = kernels;
	p.nkernels = NK;
	p.kernel_nodes = knodes;
	p.nkernel_nodes = nn;
	snprintf(p.target_name, sizeof p.target_name, "npu-base");
	return p;
}

/* Writes one run with about `rows` activity rows; returns its cycles. */
static uint64_t write_run(const char *path, uint64_t rows, npu_err *e)
{
	npu_trace *t = npu_trace_open(path, e);
	npu_trace_run run = { "resnet18.bin", "npu-base", 0, "synthetic", "bench" };
	npu_prog p = make_prog();
	uint64_t per_kexec = 4000, total, state_cycles[NUNIT][NPU_NUSTATE] = { { 0 } };
	uint64_t nexec, written = 0;

	if (!t || npu_trace_begin(t, &run, &p, e) < 0)
		die("begin", e);
	/* ~1 row per 12 cycles per unit on 7 units */
	nexec = rows * 12 / 7 / per_kexec + 1;
	total = nexec * per_kexec;
	for (uint64_t x = 0; x < nexec; x++) {
		uint64_t s = x * per_kexec, end = s + per_kexec;
		int k = (int)(x % NK);
		npu_trace_kernel kx = { k, s, end, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
		uint64_t cyc[NPU_NUSTATE] = { 0 };

		for (int u = 0; u < NUNIT; u++) {
			uint64_t c = s;
			if (u == 3)      /* the host is idle */
				continue;
			while (c < end) {
				uint64_t len = 2 + next() % 20;
				int st = (int)(next() % 10);
				st = st < 6 ? NPU_US_BUSY : st < 7 ? NPU_US_DMA_WAIT :
					st < 8 ? NPU_US_DEP_STALL : st < 9 ?
					NPU_US_BANK_STALL : NPU_US_IDLE;
				if (c + len > end)
					len = end - c;
				state_cycles[u][st] += len;
				if (st != NPU_US_IDLE) {
					cyc[st] += len;
					if (npu_trace_activity(t, u, c, c + len, k, st, e) < 0)
						die("activity", e);
					written++;
					if (u >= 4 && written % 40 == 0) {
						npu_trace_dma d = { u - 4, (int)(next() % 2), 4096,
								    4096, c, c, c + len, k };
						if (npu_trace_dma_xfer(t, &d, e) < 0)
							die("dma", e);
					}
				}
				c += len;
			}
		}
		kx.macs = (uint64_t)(k + 1) * 100000;
		kx.vec_ops = 20000;
		kx.insns = 500;
		kx.dram_rd = 65536 * (uint64_t)(1 + k % 7);
		kx.dram_wr = 32768;
		kx.compute = cyc[NPU_US_BUSY];
		kx.dma_wait = cyc[NPU_US_DMA_WAIT];
		kx.dep_stall = cyc[NPU_US_DEP_STALL];
		kx.bank_stall = cyc[NPU_US_BANK_STALL];
		if (npu_trace_kernel_exec(t, &kx, e) < 0)
			die("kernel", e);
	}
	state_cycles[3][NPU_US_IDLE] = total;
	for (int u = 0; u < NUNIT; u++)
		for (int st = 0; st < NPU_NUSTATE; st++) {
			static const char *const un[NUNIT] = { "scl", "vec", "mxu",
				"host", "dma0", "dma1", "dma2", "dma3" };
			char name[64];
			snprintf(name, sizeof name, "%s.%s", un[u], npu_trace_state_name(st));
			if (npu_trace_counter(t, name, (double)state_cycles[u][st], e) < 0)
				die("counter", e);
		}
	if (npu_trace_end(t, total, 1.0, 0, e) < 0)
		die("end", e);
	npu_trace_close(t);
	return total;
}

int main(int argc, char **argv)
{
	uint64_t rows = argc > 2 ? strtoull(argv[2], NULL, 10) : 4000000;
	char db[4096], out[4096];
	npu_err e = { "" };
	npu_qdb *q;
	npu_qrun r;
	struct stat sb;
	double t0, worst = 0;
	clock_t c0;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_query DIR [ACTIVITY_ROWS]\n");
		return 2;
	}
	mkdir(argv[1], 0777);
	snprintf(db, sizeof db, "%s/big.db", argv[1]);
	unlink(db);
	t0 = now();
	write_run(db, 1000, &e);
	write_run(db, rows, &e);
	if (stat(db, &sb) < 0)
		return 1;
	if (!(q = npu_qdb_open(db, &e)) || npu_qdb_run(q, 0, &r, &e) < 0)
		die(db, &e);
	{
		npu_qres c;
		if (npu_query_user(q, "SELECT (SELECT count(*) FROM activity WHERE run_id = 2), "
				   "(SELECT count(*) FROM dma_xfers WHERE run_id = 2), "
				   "(SELECT count(*) FROM kernel_execs WHERE run_id = 2)",
				   &c, &e) < 0)
			die("count", &e);
		printf("trace: %.1f MB, activity_rows=%.0f dma_rows=%.0f kernel_execs=%.0f "
		       "cycles=%" PRIu64 " (written in %.1f s)\n", sb.st_size / 1e6,
		       npu_qres_num(&c, 0, 0), npu_qres_num(&c, 0, 1),
		       npu_qres_num(&c, 0, 2), r.total_cycles, now() - t0);
		npu_qres_free(&c);
	}
	for (int i = 0; i < npu_query_count(); i++) {
		static const int64_t ab[2] = { 1, 2 };
		npu_qres res;
		clock_t cq = clock();
		t0 = now();
		if (npu_query_exec(q, i, &r, ab, &res, &e) < 0)
			die(npu_query_name(i), &e);
		t0 = now() - t0;
		worst = t0 > worst ? t0 : worst;
		printf("query=%s seconds=%.3f cpu_seconds=%.3f rows=%zu\n", npu_query_name(i),
		       t0, (double)(clock() - cq) / CLOCKS_PER_SEC, res.nrows);
		npu_qres_free(&res);
	}
	snprintf(out, sizeof out, "%s/big.json", argv[1]);
	t0 = now();
	c0 = clock();
	if (npu_chrome_export(q, &r, out, &e) < 0)
		die("export", &e);
	stat(out, &sb);
	printf("export-trace seconds=%.3f cpu_seconds=%.3f bytes=%lld\n", now() - t0,
	       (double)(clock() - c0) / CLOCKS_PER_SEC, (long long)sb.st_size);
	unlink(out);
	snprintf(out, sizeof out, "%s/report", argv[1]);
	t0 = now();
	c0 = clock();
	if (npu_report_write(q, &r, out, &e) < 0)
		printf("report failed: %s\n", e.msg);
	else
		printf("report seconds=%.3f cpu_seconds=%.3f (gnuplot not counted)\n",
		       now() - t0, (double)(clock() - c0) / CLOCKS_PER_SEC);
	printf("slowest canned query: %.3f s (%s)\n", worst,
	       worst < 1 ? "under a second" : "OVER A SECOND");
	npu_qdb_close(q);
	return 0;
}
