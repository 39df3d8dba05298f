/*
 * query.h - questions asked of a trace database, read-only.
 *
 * The canned queries (runs, kernels, nodes, ops, modules, units, overlap,
 * diff) are data: one X-macro table in query.c holds each one's name, its
 * SQL, the formats of its columns and its description, and `npusim query
 * --help` and docs/queries.md are generated from it.  A query is bound to
 * a run (`:run`; `:a` and `:b` for diff) and to ceilings of the run's
 * target (`:mxu_peak` MACs/cycle, `:vec_peak` lane ops/cycle, `:mem_bw`
 * DRAM bytes/cycle, `:clock_mhz`), which are NULL when the target named by
 * the run cannot be found or no longer has the hash the run recorded.
 *
 * Databases are opened with SQLITE_OPEN_READONLY, and any SQL given by the
 * user must also be a single statement that sqlite3_stmt_readonly()
 * accepts, so a query cannot change a trace.  Results are read into memory
 * (npu_qres) and printed as an aligned table, CSV or JSON.
 */
#ifndef NPU_QUERY_H
#define NPU_QUERY_H

#include <stdint.h>
#include <stdio.h>

#include "isa/err.h"
#include "isa/target.h"

typedef struct sqlite3 sqlite3;
typedef struct npu_qdb npu_qdb;

enum npu_qfmt { NPU_QF_TABLE, NPU_QF_CSV, NPU_QF_JSON };

/* One cell of a result: SQLite's type and value. */
enum npu_qtype { NPU_QT_NULL, NPU_QT_INT, NPU_QT_REAL, NPU_QT_TEXT };
typedef struct npu_qcell {
	int type;              /* enum npu_qtype */
	int64_t i;
	double d;
	char *s;               /* NPU_QT_TEXT: malloc'ed */
} npu_qcell;

/* A whole result, row-major: cell (r, c) is cells[r * ncols + c]. */
typedef struct npu_qres {
	int ncols;
	size_t nrows;
	char **names;          /* column names */
	char *fmt;             /* a format letter per column (see query.c) */
	npu_qcell *cells;
} npu_qres;

/* A run's facts, with its target when it could be loaded. */
typedef struct npu_qrun {
	int64_t id;
	char program[512], target_name[64], label[256], status[16];
	uint64_t total_cycles;
	int has_target;        /* target found and its hash matches the run's */
	npu_target target;     /* valid when has_target */
	double clock_mhz;      /* the target's clock, else 1000 (1 cycle = 1 ns) */
	double mxu_peak;       /* MACs/cycle: rows * cols * rate (bf16, else the best) */
	double vec_peak;       /* vector lane operations/cycle */
	double mem_bw;         /* DRAM bytes/cycle: min(DRAM, all DMA engines) */
} npu_qrun;

/*
 * Opens a trace read-only.  A missing file, a file that is not an SQLite
 * database, another program's database and a trace of a newer schema
 * version are refused with a message naming the path.
 */
npu_qdb *npu_qdb_open(const char *path, npu_err *e);
void npu_qdb_close(npu_qdb *q);

/*
 * The one index the queries can use that the trace writer does not make:
 * activity (run_id, state, unit, start_cycle, end_cycle), read by the
 * overlap query instead of scanning every activity row of the run (about
 * 7x less CPU on millions of rows, for about 60 % more file).  The writer
 * leaves it out because appending to it costs more per row; this opens
 * the file read-write once to add it (CREATE INDEX IF NOT EXISTS).
 */
#define NPU_QUERY_INDEX "activity_run_state"
int npu_qdb_add_indexes(const char *path, npu_err *e);
sqlite3 *npu_qdb_handle(npu_qdb *q);
const char *npu_qdb_path(const npu_qdb *q);

/* Picks a run: id > 0 must exist; 0 means the latest.  Fills *r (target
 * looked up by name, as `npusim run --target NAME` would). */
int npu_qdb_run(npu_qdb *q, int64_t id, npu_qrun *r, npu_err *e);

/* Number of canned queries, and their names, argument counts and docs. */
int npu_query_count(void);
const char *npu_query_name(int i);
int npu_query_nargs(int i);            /* run ids after the name (diff: 2) */
const char *npu_query_desc(int i);
const char *npu_query_summary(int i);   /* one line, for --help */
const char *npu_query_sql(int i);
int npu_query_find(const char *name);  /* index or -1 */

/*
 * Runs canned query i for run r (args: the run ids a query takes, e.g.
 * diff's two; NULL when it takes none) into *out.  0 or -1.
 */
int npu_query_exec(npu_qdb *q, int i, const npu_qrun *r, const int64_t *args,
		   npu_qres *out, npu_err *e);

/* Runs one read-only SQL statement given by the user into *out. */
int npu_query_user(npu_qdb *q, const char *sql, npu_qres *out, npu_err *e);

/* Prints a result; 0 or -1 when writing fails. */
int npu_qres_print(const npu_qres *res, int fmt, FILE *f, npu_err *e);
void npu_qres_free(npu_qres *res);

/* Cell helpers: a number as double (0 for NULL or text), text or "". */
double npu_qres_num(const npu_qres *res, size_t row, int col);
const char *npu_qres_text(const npu_qres *res, size_t row, int col);
int npu_qres_col(const npu_qres *res, const char *name); /* index or -1 */

/* The Markdown list of canned queries (docs/queries.md, between its
 * "queries:begin" and "queries:end" markers); like snprintf. */
size_t npu_query_doc(char *buf, size_t n);

#endif
