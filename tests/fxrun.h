/*
 * fxrun.h - the end-to-end fixture harness shared by the Check programs
 * (tests/fxrun.c): compile, simulate, compare with PyTorch's recorded
 * outputs and the fp64 reference interpreter.  Failures are Check
 * assertions, so these are for use inside START_TEST bodies only.
 */
#ifndef NPU_TESTS_FXRUN_H
#define NPU_TESTS_FXRUN_H

#include <stdint.h>

#include "compiler/driver.h"
#include "compiler/graph.h"
#include "isa/st.h"

/* One compile + run: options in, measurements out. */
typedef struct fxrun {
	npu_ccopts o;		/* compile options (target defaults to npu-base) */
	int unfrozen;		/* parameters and buffers stay run-time inputs
				   (a training step: weights change every step) */
	const char *save;	/* when set: every output and inout buffer is
				   written there after the run (safetensors) */
	const char *trace;	/* when set: the run is appended to this trace
				   database (docs/trace-schema.md) */
	uint64_t cycles, dram_rd, dram_wr, host_calls;
	double worst_rec, worst_ref;	/* worst relative error seen */
	double small;		/* outputs whose RMS is below this fraction of
				   the largest output's are zero up to
				   rounding, measured against the graph's
				   scale (0: 1e-6) */
	double tol;		/* float outputs' tolerance (0: fx_tol's): the
				   random graphs' differences of near values */
	double scale_floor;	/* the graph's scale (small's) at least this:
				   the random graphs whose every output is a
				   difference of near values */
	int nkernels;
	int inplace;		/* mutated inputs updated in place (no output.i
				   buffer, no copy) */
	int spills;
	int may_refuse;		/* a compile error is no failure: its message
				   goes to refused and nothing runs (the
				   random dynamic graphs past npucc's limits) */
	char refused[300];
	/* optional: called with the compile result before the run (tests
	 * that inspect the kernel IR or the pass log) */
	void (*inspect)(const npu_ccresult *r, void *ctx);
	void *inspect_ctx;
} fxrun;

/* the per-test temporary folder, made by fx_setup_tmp */
extern char fx_tmpdir[512];

const char *fx_srcdir(void);
void fx_setup_tmp(void);
void fx_teardown_tmp(void);

/* the relative L2 tolerance of a dtype (0: bit-exact) */
double fx_tol(int dt);
/* relative L2 error of got against want; -1 when NaN/Inf positions differ */
double fx_relerr(const double *got, const double *want, int64_t n);
/* n values of dtype dt widened to a malloc'd array of doubles */
double *fx_widen(int dt, const void *raw, int64_t n);

/*
 * Compiles GRAPH with the parameters and buffers of st frozen (only the
 * get_attr constants when fr->unfrozen), runs it
 * with the other placeholders from st, and checks every output against
 * the fp64 reference and, when has_rec, against st's output.i.
 */
void fx_run_values(const char *graph, const npu_stfile *st, int has_rec,
		   fxrun *fr);
/*
 * Only the compile of fx_run_values: GRAPH with the parameters, buffers
 * and get_attr constants of st frozen (none when st is NULL); r must be
 * zeroed, free it with npu_cc_free.
 */
void fx_compile(const char *graph, const npu_stfile *st, fxrun *fr,
		npu_ccresult *r);
/* The run of fx_run_values: p with st's inputs, every output checked.  A
 * dynamic-shape program takes the sizes of st's inputs (p is changed: run
 * a fresh copy each time, npu_prog_read). */
void fx_check_run(const char *graph, npu_prog *p, const npu_target *t,
		  const npu_stfile *st, int has_rec, fxrun *fr);
/* tests/data/fx/CG.json with CG.safetensors ("mlp_train/forward2") */
void fx_run_graph(const char *cg, fxrun *fr);
/* CASE/inference2 */
void fx_run_fixture(const char *c, fxrun *fr);
/* deterministic values for every placeholder of g, written to path
 * (int64 ones 0 to 15: token ids) */
void fx_gen_values(const npu_graph *g, const char *path);
/* the same with symbolic dims bound (sym[i] = val[i]); parameters and
 * buffers that keep has copied from it; SymInt placeholders left out */
void fx_gen_values_at(const npu_graph *g, const char *const *sym,
		      const int64_t *val, int nsym, const npu_stfile *keep,
		      const char *path);

#endif
