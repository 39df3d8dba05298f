/*
 * tune.h - compiler-in-the-loop autotuning: the search.
 *
 * The tuner knows nothing about kernels or the simulator; the driver hands
 * it, per distinct kernel signature, the candidates of the knob space (each
 * a canonical knob text, the cost model's estimate and, when the compiler
 * already knows it is illegal, the violated constraint), and a callback that
 * compiles and measures one candidate.  The tuner then, for every kernel
 * and within a budget of measured candidates:
 *
 *   - reuses what the tuning database already knows of this exact
 *     candidate (same signature, target hash, compiler version, knobs);
 *   - measures the candidates in the order of a corrected model: the cost
 *     model's estimate times a factor per knob value, fitted (in log space,
 *     shrunk towards 1) to the measured/model ratios seen so far, so that a
 *     knob the model misjudges is learned after a few measurements; one
 *     pick in TUNE_EXPLORE goes to the least-explored knob values instead;
 *   - runs each measurement in a forked worker process, up to `jobs` at a
 *     time, across all kernels, so a crash (signal), a hang (timeout: the
 *     worker's whole process group is killed) or an error becomes a
 *     `failed` record and the search goes on;
 *   - records every outcome in the database and returns the best ok
 *     candidate per kernel.
 */
#ifndef NPU_TUNE_H
#define NPU_TUNE_H

#include <stdint.h>

#include "compiler/tunedb.h"
#include "isa/err.h"

/* One point of a kernel's knob space. */
typedef struct npu_tune_cand {
	char *knobs;       /* canonical "name=value,..." (sorted by name) */
	double model;      /* cost model estimate, cycles (> 0), or <= 0: none */
	char *illegal;     /* NULL, or the constraint it violates (not measured) */
	int first;         /* 1: measure before the others (the default choice) */
} npu_tune_cand;

/* One distinct kernel and its space. */
typedef struct npu_tune_kernel {
	char *sig;         /* canonical signature text */
	int count;         /* kernels of the program that share it (>= 1) */
	npu_tune_cand *c;
	int nc;
} npu_tune_kernel;

/* What a measurement reports. */
typedef struct npu_tune_meas {
	int status;        /* enum npu_tune_status */
	int64_t cycles;    /* ok: simulated cycles */
	int64_t bytes;     /* ok: DRAM bytes (read + written), or -1 */
	char reason[256];  /* illegal / failed: why */
} npu_tune_meas;

/* Compiles and simulates kernel sig with the given knobs; runs in a forked
 * worker process, so it may crash, leak or take forever.  Returns 0 with
 * *m filled, or -1 (a failure; m->reason says why when set). */
typedef int (*npu_tune_measure_fn)(void *ctx, const char *sig,
				   const char *knobs, npu_tune_meas *m);

/* Measures n candidates at once, one per kernel (sigs[j] with knobs[j]),
 * filling m[j]; runs in a worker.  For kernels that are measured together
 * anyway, like the kernels of one program: one compile and one simulation
 * then measure a candidate of every kernel.  Returns 0, or -1 when all
 * failed. */
typedef int (*npu_tune_measure_batch_fn)(void *ctx, int n,
					 const char *const *sigs,
					 const char *const *knobs,
					 npu_tune_meas *m);

/* Called in the parent after each outcome (may be NULL), e.g. to print
 * progress; trial is the kernel's 1-based measurement index, best its best
 * cycles so far (-1 if none). */
typedef void (*npu_tune_progress_fn)(void *ctx, const npu_tune_kernel *k,
				     const char *knobs, int trial,
				     const npu_tune_meas *m, int64_t best);

typedef struct npu_tune_opts {
	int trials;              /* measured candidates per kernel; 0: 64 */
	int jobs;                /* worker processes; 0: the online CPUs */
	double timeout_s;        /* per candidate; 0: 600 */
	const char *db_path;     /* tuning database; NULL: none (nothing kept) */
	const char *target;      /* target name, for the records */
	const char *target_hash; /* npu_target_hash() as 16 hex digits */
	const char *compiler;    /* compiler version, e.g. PACKAGE_VERSION */
	const char *session;     /* label of this run; NULL: made from the time */
	int no_reuse;            /* 1: measure even what the database knows */
	int no_batch;            /* npu_tune_graph: 1 measures one candidate per
	                          * compile + simulation (slower; isolates) */
	unsigned seed;           /* exploration order; 0: fixed default */
	npu_tune_measure_fn measure;
	npu_tune_measure_batch_fn measure_batch; /* when set, used instead */
	npu_tune_progress_fn progress;
	void *ctx;               /* passed to the callbacks */
} npu_tune_opts;

/* The outcome for one kernel. */
typedef struct npu_tune_best {
	char *sig;               /* (not owned: the kernel's) */
	char *knobs;             /* best knobs (malloc'd), NULL when none ok */
	int64_t cycles;          /* its cycles, -1 when none */
	double model;            /* its model estimate */
	int measured;            /* candidates measured this run */
	int reused;              /* outcomes taken from the database */
	int failed, illegal;     /* of those: failed, illegal */
	double spearman;         /* model vs measured rank correlation, NAN if < 3 */
	int64_t first_cycles;    /* cycles of the candidate marked first, -1 */
} npu_tune_best;

/* Tunes the nk kernels of ks; fills best[nk].  Returns 0, or -1 when
 * tuning itself could not run (database, fork); failed candidates are not
 * errors. */
int npu_tune_run(const npu_tune_opts *o, const npu_tune_kernel *ks, int nk,
		 npu_tune_best *best, npu_err *e);

/* Frees what npu_tune_run allocated in best[n]. */
void npu_tune_best_free(npu_tune_best *best, int n);

/* Spearman rank correlation of n pairs (average ranks for ties); NAN when
 * n < 3 or either side is constant. */
double npu_tune_spearman(const double *x, const double *y, int n);

/* Canonical knob text: sorts the comma-separated "name=value" items of
 * knobs by name into buf[n] (spaces dropped).  Returns 0, or -1 when it does
 * not fit or an item has no '='. */
int npu_tune_knobs_canon(const char *knobs, char *buf, size_t n);

/* ---- the compiler binding ------------------------------------------------
 *
 * How npucc uses the tuner (docs/tuning.md):
 *
 *   npucc --tune:   npu_tune_graph(&ccopts, &tuneopts, &summary, &e), then
 *                   npu_cc_compile(&ccopts, ...) as usual: the best knobs
 *                   were appended to ccopts.knobs.
 *   npucc (plain):  when a tuning database is given (or the default one
 *                   exists), npu_tune_apply_db(&ccopts, path, &e) before
 *                   npu_cc_compile; kernels without records keep the cost
 *                   model's choice.
 *
 * Kernels are identified by npu_tune_kernel_sig(); a candidate is measured
 * in a worker by compiling the whole graph with the candidate's knobs on
 * every kernel of that signature and simulating it in timing-only mode
 * (no inputs needed), counting the cycles of those kernels only.
 */

struct npu_ccopts;
struct npu_kir;
struct npu_kern;

/* Per signature, what tuning found. */
typedef struct npu_tune_sigsum {
	char *sig;
	char *kernel;            /* the first kernel with it, for people */
	int count;               /* kernels with it */
	int space, illegal;      /* candidates; of those illegal by the model */
	char *default_knobs;     /* the cost model's choice */
	int64_t default_cycles;  /* measured, -1 if not */
	npu_tune_best best;      /* best.sig aliases sig */
} npu_tune_sigsum;

typedef struct npu_tune_summary {
	npu_tune_sigsum *s;
	int n;
	int64_t default_total;   /* whole program, cost model's knobs */
	int64_t tuned_total;     /* whole program, tuned knobs */
	int knobs_added;         /* kernels configured in the compile options */
	int knobs_dropped;       /* kernels left to the model: the options'
	                          * NPU_MAX_KNOBS settings were used up (the
	                          * biggest gains go first) */
} npu_tune_summary;

/* The canonical signature of kernel k of ir (op pattern, shapes, dtypes,
 * strides, epilogue program; not its name); malloc'd, NULL on ENOMEM. */
char *npu_tune_kernel_sig(const struct npu_kir *ir, int k);

/* The knob space of kernel k (its set knobs are cleared and restored),
 * with the cost model's estimate of each candidate and the constraint that
 * makes a candidate illegal; the model's own choice is marked first.
 * Free with npu_tune_kernel_free. */
int npu_tune_kernel_space(struct npu_kir *ir, int k, npu_tune_kernel *out,
			  npu_err *e);
void npu_tune_kernel_free(npu_tune_kernel *k);

/* Tunes every distinct kernel of the graph cc describes (o->measure,
 * o->target, o->target_hash and o->compiler are filled in when unset) and
 * appends the best knobs, where they beat the model's, to cc->knobs (the
 * biggest gains first, as many as NPU_MAX_KNOBS allows).  sum may be
 * NULL. */
int npu_tune_graph(struct npu_ccopts *cc, const npu_tune_opts *o,
		   npu_tune_summary *sum, npu_err *e);

/* Appends to cc->knobs the best records of db_path for the graph's
 * kernels on cc's target with this compiler version.  Returns how many
 * signatures it configured (0 when db_path does not exist), or -1. */
int npu_tune_apply_db(struct npu_ccopts *cc, const char *db_path, npu_err *e);

void npu_tune_summary_free(npu_tune_summary *s);

#endif
