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
 *
 * Rows of a run are buffered in memory and written a batch at a time, each
 * batch one short write transaction, so several processes can append to
 * the same database at once: each holds the write lock only while a batch
 * is written, and waits (busy timeout) while another one does.  A run that
 * is closed before npu_trace_end keeps the rows written so far and is
 * marked status 'incomplete'; a process that dies leaves it 'running'.
 * docs/trace-schema.md describes the tables and gives example queries.
 *
 * A npu_trace is used by one thread at a time; processes share a
 * database file, not a handle.  Its SQLite connection is opened without a
 * mutex and used by one thread only: the caller's, or for a handle from
 * npu_trace_open_async its writer thread, which opens the database and
 * writes the rows while the caller goes on (`npusim run --trace` opens
 * the trace and begins the run before simulating, so the cost of opening
 * is hidden by the simulation, and rows are written while later ones are
 * still being made).  The rows, and so the database, are the same either
 * way.
 */
#ifndef NPU_TRACE_H
#define NPU_TRACE_H

#include <stdint.h>

#include "isa/err.h"
#include "isa/prog.h"
#include "isa/target.h"

/* The schema version this npusim writes, and the oldest it upgrades in
 * place when it opens a trace to append (docs/trace-schema.md). */
#define NPU_TRACE_SCHEMA_VERSION 3
#define NPU_TRACE_SCHEMA_OLDEST 1

typedef struct npu_trace npu_trace;

/* Unit states in the activity table. */
enum npu_ustate {
	NPU_US_BUSY,        /* computing / moving data */
	NPU_US_DMA_WAIT,    /* waiting on a semaphore signalled by a DMA engine */
	NPU_US_DEP_STALL,   /* waiting on a register, a semaphore or a full queue */
	NPU_US_BANK_STALL,  /* waiting on an SRAM bank used by another unit */
	NPU_US_IDLE,        /* nothing queued (optional: idle time may be left out) */
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

/*
 * Opens (creating if needed) a trace database.  An empty database is
 * initialised; one with a newer schema version, another application's
 * database or a file that is not a database is refused with a message that
 * names the path.
 */
npu_trace *npu_trace_open(const char *path, npu_err *e);

/*
 * Like npu_trace_open, but the database is opened, checked and written by
 * a writer thread of the handle's own: this returns at once (NULL only
 * when out of memory or no thread can start), and the calls below queue
 * their work for that thread, checking their arguments as before.  An
 * error of the writer (the open refused, a failed insert) is sticky: it
 * is returned, with the same message as npu_trace_open's, by the next
 * call that hands rows over, by npu_trace_end and by npu_trace_sync; the
 * rows after it are dropped.  Rows are committed when a batch is full,
 * when the writer runs out of queued rows with a transaction more than
 * 2 ms old, and at npu_trace_end.
 */
npu_trace *npu_trace_open_async(const char *path, npu_err *e);

/*
 * npu_trace_open_async when a core is free for the writer thread (the
 * 1-minute load average is at most the online CPUs less one), else
 * npu_trace_open: the thread only hides work when it runs beside the
 * caller.  The environment variable NPU_TRACE_WRITER=thread or =none
 * decides instead.  `npusim run --trace` opens its trace this way.
 */
npu_trace *npu_trace_open_auto(const char *path, npu_err *e);

/* Whether t has a writer thread. */
int npu_trace_is_async(const npu_trace *t);

/* Waits until the writer thread has done everything queued; returns 0 or
 * -1 with its first error.  0 at once on a handle of npu_trace_open. */
int npu_trace_sync(npu_trace *t, npu_err *e);

/* Starts a run: records it, and its program's kernels, nodes and which
 * nodes each kernel computes unless a run of a program with the same
 * tables recorded them before (p may be NULL: a run without a program).
 * Returns the run id (> 0) or -1; on an asynchronous handle 0 once the
 * run is queued (npu_trace_run_id gives its id), and p must stay valid
 * until npu_trace_end or npu_trace_close. */
int64_t npu_trace_begin(npu_trace *t, const npu_trace_run *run,
			const npu_prog *p, npu_err *e);

/* Rows of the current run.  They are checked (unit, state, kernel and
 * direction in range, end >= start) and buffered; every NPU_TRACE_BATCH
 * rows a batch is written.  When writing fails the rows stay buffered for
 * the next attempt and -1 is returned. */
int npu_trace_kernel_exec(npu_trace *t, const npu_trace_kernel *k, npu_err *e);
int npu_trace_activity(npu_trace *t, int unit, uint64_t start, uint64_t end,
		       int kernel, int state, npu_err *e);
int npu_trace_dma_xfer(npu_trace *t, const npu_trace_dma *d, npu_err *e);
/* A named per-run counter ("dram_rd_bytes", "host_calls", ...). */
int npu_trace_counter(npu_trace *t, const char *name, double value, npu_err *e);

/* Hands the rows buffered so far to the writer thread now, if there are
 * a few, instead of when a chunk is full: for a caller that makes rows
 * in bursts while it computes (a simulation streaming its rows), so that
 * they are written, and committed, while it goes on.  Does nothing on a
 * handle without a writer thread.  0, or -1 with the writer's error. */
int npu_trace_flush(npu_trace *t, npu_err *e);

/* npu_trace_flush for a run about to end (its last rows being made): the
 * rows buffered so far go to the writer thread whatever their number, and
 * it then polls for npu_trace_end's job for a moment instead of sleeping,
 * so that the end does not wait for the thread to wake.  0, or -1 with
 * the writer's error. */
int npu_trace_ending(npu_trace *t, npu_err *e);

/* Drops the activity rows of the current run given so far: those still
 * buffered are forgotten, those written are deleted.  For rows streamed
 * during a simulation that turned out to need another resolution; the
 * rows given next take the rowids the dropped ones had when nothing else
 * was appended meanwhile, so the database is the same as if they had
 * never been given, with a writer thread or without. */
int npu_trace_drop_activity(npu_trace *t, npu_err *e);

/* Ends the run (totals, wall time, status: 0 success, else failure),
 * writes the rows still buffered, creates missing indexes.  On an
 * asynchronous handle it waits for the writer to have done all that. */
int npu_trace_end(npu_trace *t, uint64_t total_cycles, double wall_s,
		  int status, npu_err *e);

/*
 * npu_trace_end, then npu_trace_close, for a caller with other work
 * before it exits: with a writer thread neither is waited for here; the
 * thread commits the run and closes the database while the caller goes
 * on (writes its outputs, frees the simulation), and npu_trace_finish()
 * waits for it and reports its error.  Without the thread both are done
 * here.  After this call t is good only for npu_trace_finish() (or
 * npu_trace_close(), which waits without reporting).  0, or -1 with e
 * set (npu_trace_finish() does not report that error again).
 */
int npu_trace_end_close(npu_trace *t, uint64_t total_cycles, double wall_s,
			int status, npu_err *e);

/* Closes t as npu_trace_close() does, waiting for the writer thread, and
 * frees it (NULL is fine): 0, or -1 with an error of the writer thread
 * that no call returned yet (that of the end npu_trace_end_close() left
 * to it). */
int npu_trace_finish(npu_trace *t, npu_err *e);

/* Rows written so far in this process (for the benchmark). */
uint64_t npu_trace_rows(const npu_trace *t);

/* Id of the run begun last and not ended yet; 0 when none (or when the
 * writer thread of an asynchronous handle failed; it waits for that
 * thread). */
int64_t npu_trace_run_id(const npu_trace *t);

/* The counter a simulation writes its activity resolution in. */
#define NPU_TRACE_RESOLUTION "trace_resolution"

/* The NPU_TRACE_RESOLUTION counter of the last run before the current one
 * with the same program and target hash that ended ok, as a
 * guess of the current run's, in *q (0 when there is none or no run is
 * begun): 1, or 0 while it is not known yet (a writer thread that has not
 * begun the run yet; npu_trace_sync() waits for it). */
int npu_trace_prior_resolution(npu_trace *t, uint64_t *q);

/* Rows buffered before a batch is written (default NPU_TRACE_BATCH). */
#define NPU_TRACE_BATCH 65536
void npu_trace_set_batch(npu_trace *t, size_t rows);

/* Name of a unit state ("dma_wait"); "?" when unknown. */
const char *npu_trace_state_name(int state);

/* Number of DMA directions of npu_trace_dma.dir. */
#define NPU_TRACE_NDIR 6
/* Name of a DMA direction ("dram_to_sram"); "?" when unknown. */
const char *npu_trace_dir_name(int dir);

/*
 * Markdown reference of every table, column and index, generated from
 * traces/schema.def (the part of docs/trace-schema.md between its
 * "schema:begin" and "schema:end" markers).  Writes at most n bytes with a
 * terminating NUL, like snprintf, and returns the length of the full text.
 */
size_t npu_trace_schema_doc(char *buf, size_t n);

/* Closes t (NULL is fine).  A run still open is marked 'incomplete' after
 * its buffered rows are written.  An asynchronous handle's writer thread
 * finishes its queue first and is joined. */
void npu_trace_close(npu_trace *t);

#endif
