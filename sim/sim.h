/*
 * sim.h - the simulator: runs an npu_prog on the machine an npu_target
 * describes, computing real values and counting cycles, stalls and bytes.
 *
 * The model is event-driven (docs/timing-model.md has every formula): the
 * scalar unit fetches the one instruction stream and dispatches work into
 * per-unit in-order queues; the simulator repeatedly advances the runnable
 * unit with the smallest local time, so idle time costs nothing.  A run
 * either completes, or stops at a fault (bad address, illegal word,
 * deadlock, cycle limit, ...) that names the unit, the instruction, the
 * kernel and the cycle.  Nothing here prints.
 *
 * Typical use:
 *   npu_sim *s = npu_sim_new(prog, target, &opts, &e);
 *   memcpy(npu_sim_buf_data(s, i), input, prog->bufs[i].size);
 *   rc = npu_sim_run(s, &e);       0 done, NPU_SIM_FAULT, or -1
 *   ... npu_sim_stats(s), npu_sim_buf_data(s, out) ...
 *   npu_sim_free(s);
 */
#ifndef NPU_SIM_H
#define NPU_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "isa/err.h"
#include "isa/isa.h"
#include "isa/prog.h"
#include "isa/target.h"
#include "traces/trace.h"

#define NPU_SIM_FAULT 1                /* npu_sim_run(): the program faulted */
#define NPU_SIM_DEFAULT_MAX_CYCLES 1000000000000ull
#define NPU_SIM_NSTATE NPU_NUSTATE     /* states, NPU_US_IDLE included */

typedef struct npu_sim npu_sim;

typedef struct npu_sim_opts {
	int timing_only;       /* skip vector, matrix and host value computation */
	uint64_t max_cycles;   /* fault past this cycle; 0 means the default */
	/* Activity rows of the trace: 1 writes every interval as it is; Q > 1
	 * sums the states within windows of Q cycles (each window's rows keep
	 * their exact per-state, per-kernel cycles, in order of first
	 * appearance; an interval of Q cycles or more stays one row); 0 picks
	 * Q automatically so that a run writes at most about max(4096, insns / 64) rows. */
	uint64_t trace_resolution;
	/* Keep no timeline: the per-state and per-kernel sums are the same,
	 * but npu_sim_intervals() returns none and npu_sim_write_trace()
	 * refuses.  For runs that write no trace (sweeps): the timeline grows
	 * with the program (a few intervals per instruction), this keeps the
	 * run's memory constant. */
	int no_timeline;
	/* Fault on a race: two units touching the same SRAM or accumulator
	 * bytes, one writing, with no sig/wait ordering them (race.c). */
	int check_races;
} npu_sim_opts;

/* One stretch of a unit's timeline, [start, end), in one state. */
typedef struct npu_sim_interval {
	uint64_t start, end;
	int32_t kernel;        /* kernel index of the instruction, -1 if none */
	int32_t state;         /* enum npu_ustate (NPU_US_IDLE for gaps) */
} npu_sim_interval;

typedef struct npu_sim_unit_stats {
	uint64_t cycles[NPU_SIM_NSTATE]; /* per state; sums to total_cycles */
	uint64_t insns;        /* instructions this unit executed */
} npu_sim_unit_stats;

typedef struct npu_sim_stats {
	uint64_t total_cycles; /* latest completion of anything */
	uint64_t insns;        /* instructions fetched by the scalar unit */
	uint64_t macs;         /* multiply-accumulates of every mmac */
	double mac_cycles;     /* sum of macs / rate[dtype]: array cycles used */
	uint64_t vec_ops;      /* vector lane operations (vl per compute insn) */
	uint64_t dram_rd, dram_wr;  /* payload bytes */
	uint64_t dram_touched; /* bytes of the DRAM bursts paid for */
	uint64_t sram_rd, sram_wr;  /* SRAM + accumulator bytes */
	uint64_t host_calls;
	uint64_t host_flops;
	uint64_t dma_xfers;
	int nunits;            /* units in use: 4 + the target's DMA engines */
	npu_sim_unit_stats unit[NPU_NUNIT];
} npu_sim_stats;

/* What stopped a run that faulted. */
typedef struct npu_sim_fault {
	int unit;              /* enum npu_unit */
	int64_t pc;            /* instruction index, -1 when none */
	uint64_t cycle;
	int kernel;            /* -1 when outside every kernel */
	char what[256];        /* the reason, without the context */
} npu_sim_fault;

/*
 * Creates a simulator for p on t; p and t must outlive it.  Memory is set
 * up: SRAM and accumulator zeroed, DRAM sized by p->dram_size with CONST
 * buffers copied in and everything else zeroed.
 */
npu_sim *npu_sim_new(const npu_prog *p, const npu_target *t,
		     const npu_sim_opts *o, npu_err *e);
void npu_sim_free(npu_sim *s);

/*
 * The host BLAS's threads, for a process's start (npusim, npucc): one
 * thread, its pool stopped, unless OPENBLAS_NUM_THREADS or
 * OMP_NUM_THREADS says how many.  OpenBLAS's workers start with the
 * library and spin for about 0.1 s each time they run out of work, a core
 * taken from the trace writer and from the runs a sweep starts beside
 * this one; an mmac's product (at most the array's K x N) gains little
 * from them.  Results do not depend on it: OpenBLAS splits sgemm by rows
 * and columns, never along K.
 */
void npu_sim_blas_default(void);

/*
 * Runs to completion.  Returns 0, NPU_SIM_FAULT (e holds the full report
 * and npu_sim_fault_info() the parts), or -1 on an internal error.
 * A simulator runs once.
 */
int npu_sim_run(npu_sim *s, npu_err *e);

/* Bytes of DRAM buffer i (p->bufs[i].size of them); NULL if i is bad. */
uint8_t *npu_sim_buf_data(npu_sim *s, int i);

/* n bytes of local memory at a local address (SRAM from 0, accumulator
 * from NPU_ACC_BASE); NULL when out of range. */
uint8_t *npu_sim_local(npu_sim *s, uint64_t addr, uint64_t n);

/* Register state after a run. */
int64_t npu_sim_xreg(const npu_sim *s, int r);
const float *npu_sim_vreg(const npu_sim *s, int r); /* VLEN lanes */

const npu_sim_stats *npu_sim_stats_get(const npu_sim *s);
const npu_sim_fault *npu_sim_fault_info(const npu_sim *s); /* NULL if none */

/* The recorded timeline of a unit: intervals in time order that tile
 * [0, total_cycles) exactly once the run is over.  The array is built on
 * each call (the simulator keeps a packed form) and lives until the next
 * call for that unit or npu_sim_free().  None (0) when the run kept no
 * timeline (npu_sim_opts.no_timeline). */
size_t npu_sim_intervals(npu_sim *s, int unit, const npu_sim_interval **out);

/* Kernel executions, in start order (trace rows). */
size_t npu_sim_kexecs(const npu_sim *s, const npu_trace_kernel **out);

/* MAC utilization of kernel execution i: sum of macs / rate over
 * (rows * cols * its cycles); 0 for an empty execution. */
double npu_sim_kexec_mac_util(const npu_sim *s, size_t i);

/* DMA transfers, in the order engines started them. */
size_t npu_sim_dmas(const npu_sim *s, const npu_trace_dma **out);

/*
 * Streams the run's trace rows into t, whose run npu_trace_begin() has
 * started, while npu_sim_run() goes on: every 128 simulation steps the
 * DMA transfers made since and, once the resolution is known, the
 * activity rows of the unit intervals that are over.  It is known when
 * trace_resolution gives it; the automatic one only at the end, so its
 * activity streams at a guess: the resolution of the trace's last run of
 * the same program and target (npu_trace_prior_resolution), or
 * without one exact while the run has made at most one interval per 64
 * instructions.  If the end bins it otherwise, what was streamed is
 * dropped and written again.  With a trace writer thread
 * (npu_trace_open_async) their inserts overlap the simulation, and only
 * the tail is left for npu_sim_write_trace(), which must then be given
 * the same t.  The rows, and their order, are the same whatever t's
 * writer: activity rows come in the order the units finished them (in
 * time order per unit).  Call before npu_sim_run(); an error when the
 * run keeps no timeline.  An error of t while streaming stops it and is
 * returned by npu_sim_write_trace().
 */
int npu_sim_stream_trace(npu_sim *s, npu_trace *t, npu_err *e);

/*
 * Appends the run's rows (kernel executions, activity without idle, DMA
 * transfers, counters) to a trace whose run npu_trace_begin() started,
 * less those npu_sim_stream_trace() handed over already.  An error when
 * the run kept no timeline.
 */
int npu_sim_write_trace(npu_sim *s, npu_trace *t, npu_err *e);

/*
 * Host operations.  A host call runs the function registered for its op
 * name (ATen name, e.g. "aten.cumsum.default"; built in: "copy", "fill").
 */
typedef struct npu_hostop_args {
	const npu_prog *prog;
	const npu_hostcall *hc;
	uint8_t **data;          /* data[i]: DRAM bytes of argument i */
	const npu_buf **bufs;    /* bufs[i]: its buffer */
	uint32_t nin, nargs;     /* args [0, nin) inputs, the rest outputs */
} npu_hostop_args;

typedef int (*npu_hostop_fn)(const npu_hostop_args *a, npu_err *e);

/* Registers (or replaces) the function of an op; 0 or -1 (table full). */
int npu_sim_register_hostop(const char *name, npu_hostop_fn fn);
npu_hostop_fn npu_sim_find_hostop(const char *name);

/* The host model's flop estimate for a call (docs/timing-model.md). */
uint64_t npu_sim_host_flops(const npu_prog *p, const npu_hostcall *hc);

#endif
