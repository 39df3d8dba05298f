/*
 * trace.h - run traces in SQLite.
 *
 * One database holds many runs (appending is the normal case).  The schema
 * is one X-macro table list in traces/schema.def, expanded into CREATE
 * TABLE statements, insert statements and docs/trace-schema.md; its version
 * is PRAGMA user_version.  Rows are written with prepared statements inside
 * one transaction per run (committed in batches), in WAL mode; indexes are
 * created after loading.  Repeated strings (kernel names, FX node names,
 * ATen targets, module paths) are interned in a `strings` table.
 */
#ifndef NPU_TRACE_H
#define NPU_TRACE_H

#include <stdint.h>

#include "isa/err.h"
#include "isa/prog.h"
#include "isa/target.h"

#define NPU_TRACE_SCHEMA_VERSION 1

typedef struct npu_trace npu_trace;

/* Unit states in the activity table. */
enum npu_ustate {
	NPU_US_BUSY,        /* computing / moving data */
	NPU_US_DMA_WAIT,    /* waiting on a semaphore signalled by a DMA engine */
	NPU_US_DEP_STALL,   /* waiting on a register, a semaphore or a full queue */
	NPU_US_BANK_STALL,  /* waiting on an SRAM bank used by another unit */
	NPU_NUSTATE
};

typedef struct npu_trace_run {
	const char *program;        /* path of the program file */
	const char *target_name;
	uint64_t target_hash;
	const char *options;        /* command-line options, as text */
	const char *label;          /* free text (e.g. the Python call), or NULL */
} npu_trace_run;

/* One kernel execution. */
typedef struct npu_trace_kernel {
	int kernel;                 /* index in the program's kernel table */
	uint64_t start, end;        /* cycles */
	uint64_t macs, vec_ops, insns;
	uint64_t dram_rd, dram_wr;  /* bytes */
	uint64_t sram_rd, sram_wr;  /* bytes */
	uint64_t compute, dma_wait, dep_stall, bank_stall; /* cycles, summed over units */
} npu_trace_kernel;

typedef struct npu_trace_dma {
	int engine;
	int dir;                    /* 0 DRAM->SRAM, 1 SRAM->DRAM, 2 SRAM->SRAM, 3 DRAM->DRAM, 4 gather */
	uint64_t bytes;             /* bytes kept */
	uint64_t bytes_touched;     /* bytes of the DRAM bursts paid for */
	uint64_t issue, start, end; /* cycles */
	int kernel;                 /* -1 if outside any kernel */
} npu_trace_dma;

/* Opens (creating if needed) a trace database. Fails on a newer schema. */
npu_trace *npu_trace_open(const char *path, npu_err *e);

/* Starts a run: records it, its program's kernels, nodes and provenance.
 * Returns the run id (> 0) or -1. */
int64_t npu_trace_begin(npu_trace *t, const npu_trace_run *run,
			const npu_prog *p, npu_err *e);

/* Rows of the current run. */
int npu_trace_kernel_exec(npu_trace *t, const npu_trace_kernel *k, npu_err *e);
int npu_trace_activity(npu_trace *t, int unit, uint64_t start, uint64_t end,
		       int kernel, int state, npu_err *e);
int npu_trace_dma_xfer(npu_trace *t, const npu_trace_dma *d, npu_err *e);
/* A named per-run counter ("dram_rd_bytes", "host_calls", ...). */
int npu_trace_counter(npu_trace *t, const char *name, double value, npu_err *e);

/* Ends the run (totals, wall time), commits, creates missing indexes. */
int npu_trace_end(npu_trace *t, uint64_t total_cycles, double wall_s,
		  int status, npu_err *e);

/* Rows written so far in this process (for the benchmark). */
uint64_t npu_trace_rows(const npu_trace *t);

void npu_trace_close(npu_trace *t);

#endif
