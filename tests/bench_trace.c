/*
 * bench_trace.c - how fast the trace database takes the bulk rows
 * (activity intervals and DMA transfers), the rows a long simulation
 * writes by the million.  Not a test; scripts/bench runs it.
 *
 * usage: tests/bench_trace [ROWS]   (default 2000000 per run)
 *
 * Appends two runs to a fresh database in a temporary folder: the first
 * loads without indexes, the second appends to tables that already have
 * them.  Prints rows/s for the inserts and for the whole run, index
 * creation included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "traces/trace.h"

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static int one_run(npu_trace *t, const npu_prog *p, long rows, int n,
		   npu_err *e)
{
	npu_trace_run run = { "bench.npu", "npu-base", 0x1234, "--bench", NULL };
	uint64_t before = npu_trace_rows(t), cyc = 0;
	double t0, t1, t2, c0, c1;

	if (npu_trace_begin(t, &run, p, e) < 0)
		return -1;
	t0 = now();
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	for (long i = 0; i < rows; i++) {
		int kernel = (int)(i / 1000 % p->nkernels);
		if (i % 4 == 3) {
			npu_trace_dma d = { (int)(i % 8), (int)(i % 5), 4096, 4096,
					    cyc, cyc + 2, cyc + 70, kernel };
			if (npu_trace_dma_xfer(t, &d, e))
				return -1;
		} else if (npu_trace_activity(t, (int)(i % 4), cyc, cyc + 17,
					      kernel, (int)(i % NPU_NUSTATE), e)) {
			return -1;
		}
		cyc += 5;
	}
	t1 = now();
	c1 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	if (npu_trace_end(t, cyc, t1 - t0, 0, e))
		return -1;
	t2 = now();
	/* CPU time too: on a shared machine it is the steadier measure */
	printf("run %d: %ld activity+dma rows: insert %.3f s, %.2f M rows/s "
	       "(%.2f M rows per CPU second); with end and indexes %.3f s, "
	       "%.2f M rows/s\n", n, rows, t1 - t0,
	       (double)rows / (t1 - t0) / 1e6, (double)rows / (c1 - c0) / 1e6,
	       t2 - t0, (double)(npu_trace_rows(t) - before) / (t2 - t0) / 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	char dir[4096], path[4200];
	const char *tmp = getenv("TMPDIR");
	long rows = argc > 1 ? atol(argv[1]) : 2000000;
	npu_node nodes[2] = { { "mm", "aten.mm.default", "fc", "m.py:1" },
			      { "relu", "aten.relu.default", "fc", "m.py:2" } };
	npu_kernel kernels[2] = { { "k_mm", 0, 4, 0, 1 }, { "k_relu", 4, 8, 1, 1 } };
	uint32_t kn[2] = { 0, 1 };
	uint64_t code[8] = { 0 };
	npu_prog p = { .code = code, .ncode = 8, .nodes = nodes, .nnodes = 2,
		       .kernels = kernels, .nkernels = 2, .kernel_nodes = kn,
		       .nkernel_nodes = 2 };
	npu_err e = { "" };
	npu_trace *t;
	int rc = 1;

	if (rows <= 0) {
		fprintf(stderr, "usage: bench_trace [ROWS]\n");
		return 2;
	}
	snprintf(dir, sizeof dir, "%s/npu-bench-trace-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("bench_trace: mkdtemp");
		return 1;
	}
	snprintf(path, sizeof path, "%s/trace.db", dir);
	t = npu_trace_open(path, &e);
	if (t && one_run(t, &p, rows, 1, &e) == 0 && one_run(t, &p, rows, 2, &e) == 0)
		rc = 0;
	if (rc)
		fprintf(stderr, "bench_trace: %s\n", e.msg);
	npu_trace_close(t);
	for (int i = 0; i < 3; i++) {
		static const char *const suffix[] = { "", "-wal", "-shm" };
		char f[4300];
		snprintf(f, sizeof f, "%s/trace.db%s", dir, suffix[i]);
		unlink(f);
	}
	rmdir(dir);
	return rc;
}
