/*
 * bench_sim.c - measurements for scripts/bench (not a test):
 *   bench_sim gemm  PROG.s TARGET [N] functional GEMM vs host cblas_sgemm,
 *                                   alternately N times each (medians)
 *   bench_sim speed PROG.s TARGET   timing-only instructions and cycles/s
 *   bench_sim trace PROG.s TARGET DB [RES [sync|thread|auto [after]]]
 *                                   full runs without a trace, traced
 *                                   into a new DB and appended to it,
 *                                   medians of 7 rounds (RES: trace
 *                                   resolution, 0 auto; sync/thread:
 *                                   without/with the writer thread, auto
 *                                   as npusim run decides; the rows are
 *                                   streamed during the run as npusim
 *                                   run does, or with `after` all written
 *                                   after it, which rows_per_s needs);
 *                                   then 21 more appended to one DB
 *                                   (means: the steady state)
 *   bench_sim procs PROG.bin TARGET DB NPUSIM [N [quiet]]
 *                                   whole `npusim run` processes, N
 *                                   (default 60) without --trace and
 *                                   with it (appending to DB)
 *                                   alternately, given the inputs filled
 *                                   as below: writing the summary and
 *                                   the outputs, as a user has them, or
 *                                   with `quiet` neither
 * PROG is assembly (.s) or a program file (.bin, as npucc writes it);
 * its inputs are filled with values in [-1, 1) of their dtype (0 for
 * integer inputs such as token ids).
 * Each prints one line of key=value pairs.
 */
#include <cblas.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>

#include "isa/asm.h"
#include "isa/dtype.h"
#include "isa/st.h"
#include "sim/sim.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void die(const char *what, const npu_err *e)
{
	fprintf(stderr, "bench_sim: %s: %s\n", what, e ? e->msg : "");
	exit(2);
}

/* Fills input buffers with values in [-1, 1) of their dtype. */
static void fill_inputs(npu_sim *s, const npu_prog *p)
{
	uint32_t seed = 12345;

	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		uint64_t n = b->size / (uint64_t)npu_dtype_size(b->dtype);
		if (b->kind != NPU_BUF_INPUT)
			continue;
		for (uint64_t j = 0; j < n; j++) {
			seed = seed * 1664525u + 1013904223u;
			npu_store_f32(b->dtype, npu_sim_buf_data(s, (int)i), j,
				      (float)(seed >> 8) / (float)(1u << 23) - 1.0f);
		}
	}
}

static uint64_t trace_res; /* bench_sim trace ... RES */

/* mode: 0 values and the timeline a trace needs; 1 timing only, with
 * the timeline; 2 timing only, without; 3 values without the timeline
 * (`npusim run` without --trace). */
static npu_sim *make(const npu_prog *p, const npu_target *t, int mode)
{
	npu_sim_opts o = { .timing_only = mode == 1 || mode == 2,
			    .trace_resolution = trace_res,
			    .no_timeline = mode >= 2 };
	npu_err e = { "" };
	npu_sim *s = npu_sim_new(p, t, &o, &e);

	if (!s)
		die("npu_sim_new", &e);
	fill_inputs(s, p);
	return s;
}

static double run(npu_sim *s)
{
	npu_err e = { "" };
	double t0 = now();

	if (npu_sim_run(s, &e) != 0)
		die("run", &e);
	return now() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/*
 * The simulator against the host, alternately, `reps` times each (a fresh
 * simulator every time: its set-up, DMA, conversions and page faults all
 * count); the ratio is of the medians, so a busy machine slows both
 * sides alike.  Both use the same OpenBLAS threads: one process.
 */
static int gemm(const npu_prog *p, const npu_target *t, int reps)
{
	int ia = npu_prog_find_buf(p, "a"), iw = npu_prog_find_buf(p, "w");
	int ic = npu_prog_find_buf(p, "c");
	const npu_buf *ba = &p->bufs[ia], *bw = &p->bufs[iw];
	int M = (int)ba->shape[0], K = (int)ba->shape[1], N = (int)bw->shape[1];
	npu_sim *s = make(p, t, 0);
	float *a = malloc((size_t)M * K * 4), *w = malloc((size_t)K * N * 4);
	float *c = malloc((size_t)M * N * 4);
	double tsim[64], thost[64], maxerr = 0, t0;
	uint64_t cycles;

	if (reps < 1 || reps > 64)
		reps = 3;
	/* The same product on the host, from the same bf16 inputs. */
	npu_load_f32_n(NPU_DT_BF16, a, npu_sim_buf_data(s, ia), (size_t)M * K);
	npu_load_f32_n(NPU_DT_BF16, w, npu_sim_buf_data(s, iw), (size_t)K * N);
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, a, K,
		    w, N, 0.0f, c, N); /* warm-up: thread pool, pages */
	for (int r = 0; r < reps; r++) {
		if (r) {
			npu_sim_free(s);
			s = make(p, t, 0);
		}
		tsim[r] = run(s);
		t0 = now();
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f,
			    a, K, w, N, 0.0f, c, N);
		thost[r] = now() - t0;
	}
	for (size_t i = 0; i < (size_t)M * N; i++) {
		float got = npu_load_f32(NPU_DT_BF16, npu_sim_buf_data(s, ic), i);
		double err = fabs((double)got - c[i]) / (1.0 + fabs(c[i]));
		if (err > maxerr)
			maxerr = err;
	}
	cycles = npu_sim_stats_get(s)->total_cycles;
	qsort(tsim, (size_t)reps, sizeof *tsim, cmp_double);
	qsort(thost, (size_t)reps, sizeof *thost, cmp_double);
	printf("shape=%dx%dx%d threads=%d reps=%d sim_s=%.4f host_sgemm_s=%.4f "
	       "ratio=%.2f cycles=%llu max_rel_err=%.2g\n", M, K, N,
	       openblas_get_num_threads(), reps, tsim[reps / 2], thost[reps / 2],
	       tsim[reps / 2] / thost[reps / 2], (unsigned long long)cycles, maxerr);
	npu_sim_free(s);
	free(a);
	free(w);
	free(c);
	return maxerr < 1e-2 ? 0 : 1;
}

/* As `npusim run --timing-only` runs: without a trace (no timeline kept),
 * then with one (the timeline kept for the trace, not written). */
static int speed(const npu_prog *p, const npu_target *t)
{
	npu_sim *s = make(p, t, 2);
	double dt = run(s), dtl;
	const npu_sim_stats *st = npu_sim_stats_get(s);
	uint64_t insns = st->insns, cycles = st->total_cycles;

	npu_sim_free(s);
	s = make(p, t, 1);
	dtl = run(s);
	if (npu_sim_stats_get(s)->total_cycles != cycles)
		die("speed", &(npu_err){ "the timeline changed the cycles" });
	printf("insns=%llu cycles=%llu seconds=%.4f minsn_per_s=%.1f mcycles_per_s=%.1f "
	       "seconds_tl=%.4f minsn_per_s_tl=%.1f\n",
	       (unsigned long long)insns, (unsigned long long)cycles, dt,
	       (double)insns / dt / 1e6, (double)cycles / dt / 1e6, dtl,
	       (double)insns / dtl / 1e6);
	npu_sim_free(s);
	return 0;
}

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* bench_sim trace ... RES sync|thread: without or with the writer thread;
 * by default as `npusim run --trace` decides (npu_trace_open_auto). */
static const char *trace_writer = "";
static int wrote_async;
static int trace_after; /* bench_sim trace ... after: no streaming */

/* Times of one traced run, in seconds. */
typedef struct trace_times {
	double run;   /* from beginning the run to its rows committed */
	double write; /* writing the rows and ending the run */
	double open;  /* from opening the trace to closing it */
	double cpu;   /* CPU time of the process over the same span */
} trace_times;

/*
 * One traced run appended to db, as `npusim run --trace` does it: the
 * trace opened and the run begun before simulating, by the writer thread
 * when a core is free for it (npu_trace_open_auto; `sync` or `thread`
 * decide instead).
 */
static void traced_run(const npu_prog *p, const npu_target *t, const char *db,
		       trace_times *tt, uint64_t *rows)
{
	npu_sim *s = make(p, t, 0);
	npu_err e = { "" };
	npu_trace *tr;
	npu_trace_run r = { "bench", t->name, t->hash, "", "bench_sim" };
	double t0, w, o = now(), c = cpu_now();

	if (!strcmp(trace_writer, "sync"))
		tr = npu_trace_open(db, &e);
	else if (!strcmp(trace_writer, "thread"))
		tr = npu_trace_open_async(db, &e);
	else
		tr = npu_trace_open_auto(db, &e);
	if (!tr)
		die(db, &e);
	wrote_async = npu_trace_is_async(tr);
	t0 = now();
	if (npu_trace_begin(tr, &r, p, &e) < 0 ||
	    (!trace_after && npu_sim_stream_trace(s, tr, &e) < 0))
		die("trace", &e);
	run(s);
	w = now();
	if (npu_sim_write_trace(s, tr, &e) < 0 ||
	    npu_trace_end(tr, npu_sim_stats_get(s)->total_cycles, 0, 0, &e) < 0)
		die("trace", &e);
	tt->write = now() - w;
	tt->run = now() - t0;
	*rows = npu_trace_rows(tr);
	npu_trace_close(tr);
	tt->open = now() - o;
	tt->cpu = cpu_now() - c;
	npu_sim_free(s);
}

#define TRACE_REPS 7
/* Runs appended one after another to one trace for the steady state. */
#define STEADY_RUNS 21

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n / 2];
}

/*
 * The steady state of a trace that runs keep being appended to:
 * STEADY_RUNS runs appended to db one after another, each after a run
 * without a trace.  Means, not medians: every few runs the WAL is
 * checkpointed (two fsyncs), and the mean is what a run pays for that.
 */
static void steady(const npu_prog *p, const npu_target *t, const char *db,
		   double *plain, double *traced, double *open)
{
	trace_times tt;
	uint64_t rows;

	*plain = *traced = *open = 0;
	for (int i = 0; i < STEADY_RUNS; i++) {
		npu_sim *s = make(p, t, 3);
		*plain += run(s) / STEADY_RUNS;
		npu_sim_free(s);
		traced_run(p, t, db, &tt, &rows);
		*traced += tt.run / STEADY_RUNS;
		*open += tt.open / STEADY_RUNS;
	}
}

/*
 * TRACE_REPS rounds, each: the run without a trace, traced into a new db
 * (schema, indexes: the file is removed first), then appended to it (the
 * normal case).  Medians of each, so that a run of a few milliseconds on
 * a shared machine still gives a steady ratio; overhead_pct is the
 * appended run's from its start to its rows committed, overhead_open_pct
 * the same from opening the trace to closing it (all that `npusim run
 * --trace` pays), overhead_open_cpu_pct that in CPU time (the writer
 * thread's included), overhead_new_pct the new trace's.
 */
static int trace(const npu_prog *p, const npu_target *t, const char *db)
{
	double plain[TRACE_REPS], pcpu[TRACE_REPS], first[TRACE_REPS];
	double traced[TRACE_REPS], tw0[TRACE_REPS], tw[TRACE_REPS];
	double to[TRACE_REPS], tc[TRACE_REPS];
	double pm, fm, tm, om, pcm, tcm, sp, st, so;
	uint64_t rows0 = 0, rows = 0;
	trace_times tt;
	char side[4200];

	for (int i = 0; i < TRACE_REPS; i++) {
		/* as `npusim run` runs without --trace: no timeline kept */
		npu_sim *s = make(p, t, 3);
		double c = cpu_now();
		plain[i] = run(s);
		pcpu[i] = cpu_now() - c;
		npu_sim_free(s);
		remove(db);
		for (const char *x = "-wal\0-shm\0"; *x; x += strlen(x) + 1) {
			snprintf(side, sizeof side, "%s%s", db, x);
			remove(side);
		}
		traced_run(p, t, db, &tt, &rows0);
		first[i] = tt.run;
		tw0[i] = tt.write;
		traced_run(p, t, db, &tt, &rows);
		traced[i] = tt.run;
		tw[i] = tt.write;
		to[i] = tt.open;
		tc[i] = tt.cpu;
	}
	steady(p, t, db, &sp, &st, &so);
	pm = median(plain, TRACE_REPS);
	pcm = median(pcpu, TRACE_REPS);
	fm = median(first, TRACE_REPS);
	tm = median(traced, TRACE_REPS);
	om = median(to, TRACE_REPS);
	tcm = median(tc, TRACE_REPS);
	printf("rows=%llu run_s=%.4f traced_s=%.4f trace_write_s=%.4f rows_per_s=%.0f "
	       "overhead_pct=%.1f traced_new_s=%.4f rows_per_s_new=%.0f overhead_new_pct=%.1f "
	       "traced_open_s=%.4f overhead_open_pct=%.1f run_cpu_s=%.4f "
	       "traced_open_cpu_s=%.4f overhead_open_cpu_pct=%.1f "
	       "steady_run_s=%.4f steady_traced_s=%.4f overhead_steady_pct=%.1f "
	       "steady_open_s=%.4f overhead_steady_open_pct=%.1f writer=%s\n",
	       (unsigned long long)rows, pm, tm, median(tw, TRACE_REPS),
	       (double)rows / median(tw, TRACE_REPS), 100.0 * (tm - pm) / pm, fm,
	       (double)rows0 / median(tw0, TRACE_REPS), 100.0 * (fm - pm) / pm,
	       om, 100.0 * (om - pm) / pm, pcm, tcm, 100.0 * (tcm - pcm) / pcm,
	       sp, st, 100.0 * (st - sp) / sp, so, 100.0 * (so - sp) / sp,
	       wrote_async ? "thread" : "none");
	return 0;
}

extern char **environ;

/* Runs argv[0] with argv, its output to /dev/null: seconds, from before
 * the process is made to after it is reaped. */
static double spawn_wait(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	double t0;
	pid_t pid;
	int st;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	t0 = now();
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0)
		die(argv[0], NULL);
	posix_spawn_file_actions_destroy(&fa);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die("npusim run failed", NULL);
	return now() - t0;
}

static double mean(const double *v, int n)
{
	double m = 0;

	for (int i = 0; i < n; i++)
		m += v[i] / n;
	return m;
}

/* Writes the inputs a run of p gets here (fill_inputs) to path, for
 * `npusim run --inputs`. */
static void write_inputs(const npu_prog *p, const npu_target *t, const char *path)
{
	npu_tensor *v = calloc(p->nbufs + 1, sizeof *v);
	npu_sim *s = make(p, t, 3);
	npu_err e = { "" };
	size_t n = 0;

	if (!v)
		die("out of memory", NULL);
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		if (b->kind != NPU_BUF_INPUT && b->kind != NPU_BUF_INOUT)
			continue;
		v[n] = (npu_tensor){ .name = b->name, .dtype = b->dtype, .ndim = b->ndim,
				     .nbytes = (uint64_t)npu_dtype_size(b->dtype),
				     .data = npu_sim_buf_data(s, (int)i) };
		memcpy(v[n].shape, b->shape, sizeof b->shape);
		for (int d = 0; d < b->ndim; d++)
			v[n].nbytes *= (uint64_t)b->shape[d];
		n++;
	}
	if (npu_st_write(path, v, n, NULL, &e) < 0)
		die(path, &e);
	npu_sim_free(s);
	free(v);
}

#define PROCS_MAX 1000
#define PROCS_WARM 3

/*
 * The trace's cost as a user of `npusim run --trace` pays it: whole
 * processes, one without the trace and one appending to db, n times
 * alternately (after PROCS_WARM of each not counted).  Medians, and
 * means (a WAL checkpoint every 15 or so short runs is in the mean).
 */
static int procs(const npu_prog *p, const npu_target *t, const char *prog,
		 const char *target, const char *db, const char *npusim, int n,
		 int quiet)
{
	static double plain[PROCS_MAX], traced[PROCS_MAX];
	double pa, ta, pm, tm;
	char out[4200], in[4200];
	char *argv[14];
	int k = 0, at;

	if (n < 1 || n > PROCS_MAX)
		return 2;
	snprintf(out, sizeof out, "%s.out.safetensors", db);
	snprintf(in, sizeof in, "%s.in.safetensors", db);
	write_inputs(p, t, in);
	argv[k++] = (char *)npusim;
	argv[k++] = "run";
	argv[k++] = (char *)prog;
	argv[k++] = "--target";
	argv[k++] = (char *)target;
	argv[k++] = "--inputs";
	argv[k++] = in;
	if (quiet) {
		argv[k++] = "--quiet";
	} else {
		argv[k++] = "--outputs";
		argv[k++] = out;
	}
	at = k;
	for (int i = -PROCS_WARM; i < n; i++) {
		double a, b;
		argv[at] = NULL;
		a = spawn_wait(argv);
		argv[at] = "--trace";
		argv[at + 1] = (char *)db;
		argv[at + 2] = NULL;
		b = spawn_wait(argv);
		if (i >= 0) {
			plain[i] = a;
			traced[i] = b;
		}
	}
	remove(out);
	remove(in);
	pa = mean(plain, n);
	ta = mean(traced, n);
	pm = median(plain, n);
	tm = median(traced, n);
	printf("procs=%d plain_s=%.5f traced_s=%.5f overhead_pct=%.1f "
	       "plain_mean_s=%.5f traced_mean_s=%.5f overhead_mean_pct=%.1f\n",
	       n, pm, tm, 100.0 * (tm - pm) / pm, pa, ta, 100.0 * (ta - pa) / pa);
	return 0;
}

/* PROG: assembly, or a program file (.bin: a compiled graph). */
static int load_prog(const char *path, npu_prog *p, npu_err *e)
{
	size_t n = strlen(path);

	if (n > 4 && !strcmp(path + n - 4, ".bin"))
		return npu_prog_read(p, path, e);
	return npu_asm_file(path, p, e);
}

int main(int argc, char **argv)
{
	/* as npusim: one BLAS thread unless OPENBLAS_NUM_THREADS says */
	npu_sim_blas_default();
	npu_prog p = { 0 };
	npu_target t;
	npu_err e = { "" };
	int rc;

	if (argc < 4) {
		fprintf(stderr, "usage: bench_sim gemm|speed|trace PROG.s TARGET [DB]\n");
		return 2;
	}
	if (load_prog(argv[2], &p, &e) < 0)
		die(argv[2], &e);
	if (npu_target_load(&t, argv[3], &e) < 0)
		die(argv[3], &e);
	if (!strcmp(argv[1], "gemm"))
		rc = gemm(&p, &t, argc > 4 ? atoi(argv[4]) : 3);
	else if (!strcmp(argv[1], "speed"))
		rc = speed(&p, &t);
	else if (!strcmp(argv[1], "trace") && argc > 4) {
		trace_res = argc > 5 ? strtoull(argv[5], NULL, 10) : 0;
		trace_writer = argc > 6 ? argv[6] : "";
		trace_after = argc > 7 && !strcmp(argv[7], "after");
		rc = trace(&p, &t, argv[4]);
	} else if (!strcmp(argv[1], "procs") && argc > 5) {
		rc = procs(&p, &t, argv[2], argv[3], argv[4], argv[5],
			   argc > 6 ? atoi(argv[6]) : 60,
			   argc > 7 && !strcmp(argv[7], "quiet"));
	} else
		rc = 2;
	npu_prog_free(&p);
	return rc;
}
