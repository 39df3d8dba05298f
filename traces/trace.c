/*
 * trace.c - see trace.h.
 *
 * Everything about the schema comes from traces/schema.def: the table,
 * column and index lists below are its expansions, the SQL is assembled
 * from them when a database is opened, and an insert binds a column by
 * its position in the .def (COL()), so the C code cannot disagree with
 * the SQL about column order.
 *
 * Speed: the bulk rows (activity, DMA transfers, kernel executions) are
 * kept in plain arrays and written a batch at a time with statements
 * prepared once (activity and DMA transfers by one INSERT ... SELECT from
 * a virtual table over the arrays, see "the row source"), inside one
 * transaction per batch, with no index to keep up in a new database
 * (indexes are created when a run ends).  Buffering also keeps the
 * write lock short, which is what lets several processes append at once.
 *
 * Threads: the functions that use the connection (db_*, tx_*, w_*,
 * write_*, insert_*, intern) run on the thread that owns it: the caller's for npu_trace_open, the writer thread for
 * npu_trace_open_async.  The public calls check their arguments and
 * buffer rows on the caller's thread, and either write them there or
 * hand them to the writer as jobs (J_*), done in order.  The only state
 * both threads touch is the queue, busy, napping, failed, err and rows,
 * under mu.
 */
#include "traces/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "isa/isa.h"

/* "NPUT": PRAGMA application_id of trace databases. */
#define APP_ID 0x4e505554
#define BUSY_TIMEOUT_MS 60000
/*
 * Pages in the WAL before a commit checkpoints it (SQLite's default).  A
 * process that opens the trace reads the whole WAL back (SQLite rebuilds
 * its index), and a checkpoint costs two fsyncs and the copy.  With a
 * writer thread the reading is done while the simulation runs, but a
 * checkpoint (4 to 5 ms on a 2-core virtual machine) outlasts a short
 * run, whose end then waits for it: 120 `npusim run --trace` processes
 * of demo.s (a 6.5 ms process, 65 pages a run) took 7.62 ms on average
 * at 400 pages (90th percentile 8.47), 7.47 ms at 1000 (7.60) and 7.46
 * ms at 2000 (7.51).
 */
#define WAL_PAGES 1000

enum table {
#define NPU_TABLE(name, constraints, options, doc) T_##name,
#include "traces/schema.def"
	NTABLE
};

static const struct tabinfo {
	const char *name, *constraints, *options, *doc;
} tabinfo[NTABLE] = {
#define NPU_TABLE(name, constraints, options, doc) { #name, constraints, options, doc },
#include "traces/schema.def"
};

/* One enumerator per table followed by one per column; a column's bind
 * index is its distance from its table's enumerator (1 for the first). */
enum colpos {
#define NPU_TABLE(name, constraints, options, doc) C_##name##_,
#define NPU_COL(table, name, sqltype, doc) C_##table##_##name,
#include "traces/schema.def"
	NCOLPOS
};
#define COL(table, name) (C_##table##_##name - C_##table##_)

static const struct colinfo {
	int table;
	const char *name, *type, *doc;
} colinfo[] = {
#define NPU_COL(table, name, sqltype, doc) { T_##table, #name, sqltype, doc },
#include "traces/schema.def"
};
#define NCOL (sizeof colinfo / sizeof colinfo[0])

static const struct idxinfo {
	const char *name, *table, *cols, *doc;
} idxinfo[] = {
#define NPU_INDEX(name, table, columns, doc) { #name, #table, columns, doc },
#include "traces/schema.def"
};
#define NINDEX (sizeof idxinfo / sizeof idxinfo[0])

static const struct viewinfo {
	const char *name;
	int table;
	const char *doc;
} viewinfo[] = {
#define NPU_VIEW(name, table, doc) { #name, T_##table, doc },
#include "traces/schema.def"
};
#define NVIEW (sizeof viewinfo / sizeof viewinfo[0])

static const char *const state_names[] = {
	[NPU_US_BUSY] = "busy",
	[NPU_US_DMA_WAIT] = "dma_wait",
	[NPU_US_DEP_STALL] = "dep_stall",
	[NPU_US_BANK_STALL] = "bank_stall",
	[NPU_US_IDLE] = "idle",
};
_Static_assert(sizeof state_names / sizeof state_names[0] == NPU_NUSTATE,
	       "a unit state has no name");

static const char *const dir_names[NPU_TRACE_NDIR] = {
	"dram_to_sram", "sram_to_dram", "sram_to_sram", "dram_to_dram", "gather",
	"scatter"
};

/* The statements other than the inserts, each prepared when first used
 * (stmt()). */
enum stmt {
	S_STR_FIND,        /* id of a string */
	S_PROV_FIND,       /* id of a provenance, by digest */
	S_RUN_END,
	S_RUN_INCOMPLETE,
	S_ACT_DROP,
	S_PRIOR_RES,
	NSTMT
};

static const char *const stmt_sql[NSTMT] = {
	[S_STR_FIND] = "SELECT id FROM strings WHERE text = ?1",
	[S_PROV_FIND] = "SELECT id FROM provs WHERE digest = ?1",
	[S_RUN_END] = "UPDATE runs SET total_cycles = ?1, wall_s = ?2, "
		"status = ?3, exit_status = ?4 WHERE id = ?5",
	[S_RUN_INCOMPLETE] = "UPDATE runs SET status = 'incomplete' "
		"WHERE id = ?1 AND status = 'running'",
	[S_ACT_DROP] = "DELETE FROM activity WHERE rowid >= ?1 AND run_id = ?2",
	[S_PRIOR_RES] = "SELECT c.value FROM runs r JOIN counters c "
		"ON c.run_id = r.id WHERE r.id < ?1 AND r.status = 'ok' "
		"AND r.program_id = ?2 AND r.target_hash IS ?3 "
		"AND c.name_id = (SELECT id FROM strings WHERE text = '"
		NPU_TRACE_RESOLUTION "') ORDER BY r.id DESC LIMIT 1",
};

/* ---- text assembly (SQL and docs) into a caller's buffer ---- */

typedef struct out {
	char *buf;
	size_t n, len; /* len counts what did not fit, too */
} out;

static void outf(out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void outf(out *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(o->len < o->n ? o->buf + o->len : NULL,
		      o->len < o->n ? o->n - o->len : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->len += (size_t)k;
}

/* ---- string interning ---- */

typedef struct strent {
	char *s;          /* NULL: empty slot */
	uint64_t h;
	int64_t id;
} strent;

typedef struct strcache {
	strent *v;
	size_t n, cap;    /* cap is 0 or a power of two */
} strcache;

struct kx_row { npu_trace_kernel k; };
struct act_row { uint64_t start, end; int32_t kernel; int16_t unit, state; };
struct dma_row { npu_trace_dma d; };
struct ctr_row { char *name; double value; };

/* A growable array of rows of one kind. */
#define ROWVEC(type) struct { type *v; size_t n, cap; void *grown; }

/* Rows of the current run not written yet: filled by the caller, written
 * by whoever owns the connection (the writer thread, when there is one). */
typedef struct rowbuf {
	ROWVEC(struct kx_row) kx;
	ROWVEC(struct act_row) act;
	ROWVEC(struct dma_row) dma;
	ROWVEC(struct ctr_row) ctr;
} rowbuf;

/* Work queued for the writer thread, done in order. */
enum jobkind {
	J_BEGIN,  /* record a run: run, p */
	J_ROWS,   /* write rows; commit: a batch is full */
	J_END,    /* write rows, end the run: end_* */
	J_SYNC,   /* commit what is written */
	J_DROP,   /* delete the run's activity rows written so far */
	J_CLOSE   /* write rows, mark an open run 'incomplete', close */
};

typedef struct job {
	struct job *next;
	enum jobkind kind;
	rowbuf rows;
	int commit;
	npu_trace_run run;          /* its strings owned by the job */
	const npu_prog *p;
	uint64_t end_cycles;
	double end_wall;
	int end_status;
	int ending;                 /* the run's end follows (npu_trace_ending) */
} job;

/* Which rows the virtual table npu_rows_<table> of a connection reads. */
typedef struct srcaux {
	npu_trace *t;
	int table;                   /* T_activity, T_dma_xfers, T_kernel_execs
					or T_counters */
} srcaux;

struct npu_trace {
	char *path;
	/* The connection and its state: used by the thread that owns it
	 * (the caller's, or the writer thread of an asynchronous handle). */
	sqlite3 *db;
	sqlite3_stmt *ins[NTABLE];   /* the insert into each table (ins()) */
	sqlite3_stmt *st[NSTMT];     /* the other statements (stmt()) */
	srcaux srcs[4];              /* those virtual tables' aux (src_tables) */
	const rowbuf *src;           /* the rows they read while one is stepped */
	int64_t *ctr_ids;            /* and the interned names of its counters */
	size_t ctr_cap;
	strcache cache;
	int64_t run;                 /* run open in the database, 0 when none */
	/* npu_trace_prior_resolution, and whether the writer has set it
	 * (under mu if async) */
	uint64_t prior;
	int prior_known;
	int indexed;                 /* every index of idxinfo exists */
	int ending;                  /* committing the end of a run */
	uint64_t rows;               /* rows committed (under mu if async) */
	int64_t tx_rows;             /* rows written (less dropped) in the open transaction */
	/* Rowid of the run's first activity row committed, and of the first
	 * in the open transaction (0: none), for npu_trace_drop_activity. */
	int64_t act_first, act_first_tx;
	struct timespec tx_since;    /* when w_rows began it (CLOCK_MONOTONIC) */
	/* The caller's side. */
	int begun;                   /* a run begun and not ended */
	uint32_t nkernels;           /* kernels of its program */
	size_t batch;
	size_t pending;              /* rows since the last batch */
	size_t inbuf;                /* bulk rows in buf */
	int handed;                  /* rows of the run handed to the writer */
	struct timespec hand_at;     /* when npu_trace_flush last did */
	rowbuf buf;
	/* The writer thread of an asynchronous handle; mu guards the queue,
	 * busy, napping, failed, err and rows. */
	int async;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t work, idle;
	job *head, **tail;
	size_t queued;               /* rows queued */
	job *closer;                 /* the J_CLOSE job, made at open */
	int closing;                 /* queued (npu_trace_end_close) */
	int reported;                /* the caller was given an error */
	rowbuf spare;                /* a done job's emptied buffers, for the
				      * caller's next rows (no allocation) */
	int busy;                    /* the writer is doing a job */
	int napping;                 /* it looks for jobs itself (nap_locked) */
	long nap_ns;                 /* for this long */
	atomic_int exited;           /* the writer is done with the handle */
#ifdef __GLIBC__
	cpu_set_t cpus;              /* the caller's CPUs (start_writer) */
#endif
	int pinned;                  /* the writer started off the caller's CPU */
	int failed;                  /* err holds the writer's first error */
	npu_err err;
};

/* Makes room for one more row in a ROWVEC: true, or false with e set
 * (the rows already there are kept). */
#define ROWVEC_PUSH(vec, e, path) \
	((vec).n < (vec).cap || \
	 (((vec).grown = grow((vec).v, &(vec).cap, sizeof *(vec).v)) ? \
	  ((vec).v = (vec).grown, 1) : oom((e), (path))))

/* realloc to twice the rows; NULL (v untouched) when out of memory. */
static void *grow(void *v, size_t *cap, size_t size)
{
	size_t ncap = *cap ? *cap * 2 : 1024;
	void *p = realloc(v, ncap * size);

	if (p)
		*cap = ncap;
	return p;
}

static int oom(npu_err *e, const char *path)
{
	npu_errf(e, "%s: out of memory buffering rows", path);
	return 0;
}

static int dberr(const npu_trace *t, npu_err *e, const char *what)
{
	return npu_errf(e, "%s: %s: %s", t->path, what, sqlite3_errmsg(t->db));
}

/* FNV-1a 64: the intern cache's hash, and one lane of a provenance's
 * digest. */
#define FNV_BASIS 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t hash_str(const char *s)
{
	uint64_t h = FNV_BASIS;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * FNV_PRIME;
	return h;
}

static void cache_clear(strcache *c)
{
	for (size_t i = 0; i < c->cap; i++)
		free(c->v[i].s);
	free(c->v);
	memset(c, 0, sizeof *c);
}

static strent *cache_slot(const strcache *c, const char *s, uint64_t h)
{
	size_t mask = c->cap - 1, i = (size_t)h & mask;

	while (c->v[i].s && (c->v[i].h != h || strcmp(c->v[i].s, s) != 0))
		i = (i + 1) & mask;
	return &c->v[i];
}

/* Adds s -> id; the cache stays at most half full.  On failure the string
 * is simply not cached. */
static void cache_add(strcache *c, const char *s, uint64_t h, int64_t id)
{
	char *copy;
	strent *slot;

	if (2 * (c->n + 1) > c->cap) {
		strcache big = { NULL, 0, c->cap ? c->cap * 2 : 256 };
		big.v = calloc(big.cap, sizeof *big.v);
		if (!big.v)
			return;
		for (size_t i = 0; i < c->cap; i++)
			if (c->v[i].s)
				*cache_slot(&big, c->v[i].s, c->v[i].h) = c->v[i];
		big.n = c->n;
		free(c->v);
		*c = big;
	}
	copy = strdup(s);
	if (!copy)
		return;
	slot = cache_slot(c, s, h);
	slot->s = copy;
	slot->h = h;
	slot->id = id;
	c->n++;
}

static sqlite3_stmt *ins(npu_trace *t, int table, npu_err *e);
static sqlite3_stmt *stmt(npu_trace *t, enum stmt s, npu_err *e);

/* Id of s in `strings`, inserting it if new; must run inside a write
 * transaction.  A cached id is valid because strings are never deleted and
 * the cache is cleared whenever a transaction that added one rolls back. */
static int intern(npu_trace *t, const char *s, int64_t *id, npu_err *e)
{
	sqlite3_stmt *find, *st;
	uint64_t h;
	int rc;

	if (!s)
		s = "";
	h = hash_str(s);
	if (t->cache.cap) {
		strent *slot = cache_slot(&t->cache, s, h);
		if (slot->s) {
			*id = slot->id;
			return 0;
		}
	}
	if (!(find = stmt(t, S_STR_FIND, e)))
		return -1;
	sqlite3_bind_text(find, 1, s, -1, SQLITE_STATIC);
	rc = sqlite3_step(find);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(find, 0);
	sqlite3_reset(find);
	if (rc == SQLITE_DONE) {
		if (!(st = ins(t, T_strings, e)))
			return -1;
		sqlite3_bind_text(st, COL(strings, text), s, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		*id = sqlite3_last_insert_rowid(t->db);
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return npu_errf(e, "%s: cannot intern '%s': %s", t->path, s,
				sqlite3_errmsg(t->db));
	cache_add(&t->cache, s, h, *id);
	return 0;
}

/* ---- transactions ---- */

static int exec(npu_trace *t, const char *sql, const char *what, npu_err *e)
{
	if (sqlite3_exec(t->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return dberr(t, e, what);
	return 0;
}

/* IMMEDIATE takes the write lock now, so the busy timeout covers waiting
 * for another appender instead of failing half-way through a batch. */
static int tx_begin(npu_trace *t, npu_err *e)
{
	return exec(t, "BEGIN IMMEDIATE", "cannot start a write transaction", e);
}

/* Commits, counting the rows written as committed. */
static int tx_commit(npu_trace *t, npu_err *e)
{
	if (exec(t, "COMMIT", "cannot commit", e))
		return -1;
	if (t->async)
		pthread_mutex_lock(&t->mu);
	t->rows = (uint64_t)((int64_t)t->rows + t->tx_rows);
	if (t->async)
		pthread_mutex_unlock(&t->mu);
	t->tx_rows = 0;
	if (!t->act_first)
		t->act_first = t->act_first_tx;
	t->act_first_tx = 0;
	return 0;
}

static void tx_rollback(npu_trace *t)
{
	if (!sqlite3_get_autocommit(t->db))
		sqlite3_exec(t->db, "ROLLBACK", NULL, NULL, NULL);
	t->tx_rows = 0;
	t->act_first_tx = 0;
	cache_clear(&t->cache); /* it may hold ids that were rolled back */
}

/* Steps an insert statement and resets it. */
static int step_done(npu_trace *t, sqlite3_stmt *st, const char *what,
		     npu_err *e)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return dberr(t, e, what);
	return 0;
}

/* ---- the row source ---- */

/*
 * The bulk rows are written by one statement per table,
 *   INSERT INTO activity (run_id, ...) SELECT run_id, ... FROM npu_rows_activity
 * where npu_rows_activity is an eponymous virtual table of this connection
 * whose rows are the buffered rows being written (t->src), read column by
 * column straight from their arrays.  It writes any number of rows, binds
 * nothing and is quick to prepare: the 64-row multi-row INSERT it replaces
 * took 0.2 ms to prepare, on every open, and about 15% longer per row.
 */
typedef struct srcvtab {
	sqlite3_vtab base;
	const srcaux *aux;
} srcvtab;

typedef struct srccur {
	sqlite3_vtab_cursor base;
	size_t i;
} srccur;

static int src_connect(sqlite3 *db, void *aux, int argc,
		       const char *const *argv, sqlite3_vtab **vt, char **err)
{
	const srcaux *a = aux;
	srcvtab *v;
	char sql[1024];
	out o = { sql, sizeof sql, 0 };
	const char *sep = "";

	outf(&o, "CREATE TABLE x(");
	for (size_t c = 0; c < NCOL; c++)
		if (colinfo[c].table == a->table) {
			outf(&o, "%s%s", sep, colinfo[c].name);
			sep = ", ";
		}
	outf(&o, ")");
	if (o.len >= o.n || sqlite3_declare_vtab(db, sql) != SQLITE_OK)
		return SQLITE_ERROR;
	v = sqlite3_malloc(sizeof *v);
	if (!v)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof *v);
	v->aux = a;
	*vt = &v->base;
	return SQLITE_OK;
}

static int src_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	info->estimatedCost = 1e6;
	return SQLITE_OK;
}

static int src_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

static int src_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **cur)
{
	srccur *c = sqlite3_malloc(sizeof *c);

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	*cur = &c->base;
	return SQLITE_OK;
}

static int src_close(sqlite3_vtab_cursor *cur)
{
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int src_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr,
		      int argc, sqlite3_value **argv)
{
	((srccur *)cur)->i = 0;
	return SQLITE_OK;
}

static int src_next(sqlite3_vtab_cursor *cur)
{
	((srccur *)cur)->i++;
	return SQLITE_OK;
}

static const srcaux *src_aux(const sqlite3_vtab_cursor *cur);

static int src_eof(sqlite3_vtab_cursor *cur)
{
	const srcaux *a = src_aux(cur);
	const rowbuf *b = a->t->src;
	size_t n = 0;

	if (b)
		switch (a->table) {
		case T_activity: n = b->act.n; break;
		case T_dma_xfers: n = b->dma.n; break;
		case T_kernel_execs: n = b->kx.n; break;
		case T_counters: n = b->ctr.n; break;
		}
	return ((srccur *)cur)->i >= n;
}

static void result_u64(sqlite3_context *ctx, uint64_t v)
{
	sqlite3_result_int64(ctx, (int64_t)v);
}

/* Column col (0-based, schema.def order) of activity row a. */
static void act_column(sqlite3_context *ctx, int64_t run,
		       const struct act_row *a, int col)
{
	switch (col + 1) {
	case COL(activity, run_id): sqlite3_result_int64(ctx, run); break;
	case COL(activity, unit): sqlite3_result_int(ctx, a->unit); break;
	case COL(activity, state): sqlite3_result_int(ctx, a->state); break;
	case COL(activity, start_cycle): result_u64(ctx, a->start); break;
	case COL(activity, end_cycle): result_u64(ctx, a->end); break;
	case COL(activity, kernel):
		if (a->kernel < 0)
			sqlite3_result_null(ctx);
		else
			sqlite3_result_int(ctx, a->kernel);
		break;
	}
}

static void dma_column(sqlite3_context *ctx, int64_t run,
		       const npu_trace_dma *d, int col)
{
	switch (col + 1) {
	case COL(dma_xfers, run_id): sqlite3_result_int64(ctx, run); break;
	case COL(dma_xfers, engine): sqlite3_result_int(ctx, d->engine); break;
	case COL(dma_xfers, dir): sqlite3_result_int(ctx, d->dir); break;
	case COL(dma_xfers, bytes): result_u64(ctx, d->bytes); break;
	case COL(dma_xfers, bytes_touched): result_u64(ctx, d->bytes_touched); break;
	case COL(dma_xfers, issue_cycle): result_u64(ctx, d->issue); break;
	case COL(dma_xfers, start_cycle): result_u64(ctx, d->start); break;
	case COL(dma_xfers, end_cycle): result_u64(ctx, d->end); break;
	case COL(dma_xfers, kernel):
		if (d->kernel < 0)
			sqlite3_result_null(ctx);
		else
			sqlite3_result_int(ctx, d->kernel);
		break;
	}
}

static void kx_column(sqlite3_context *ctx, int64_t run,
		      const npu_trace_kernel *k, int col)
{
	switch (col + 1) {
	case COL(kernel_execs, run_id): sqlite3_result_int64(ctx, run); break;
	case COL(kernel_execs, kernel): sqlite3_result_int(ctx, k->kernel); break;
	case COL(kernel_execs, start_cycle): result_u64(ctx, k->start); break;
	case COL(kernel_execs, end_cycle): result_u64(ctx, k->end); break;
	case COL(kernel_execs, macs): result_u64(ctx, k->macs); break;
	case COL(kernel_execs, vec_ops): result_u64(ctx, k->vec_ops); break;
	case COL(kernel_execs, insns): result_u64(ctx, k->insns); break;
	case COL(kernel_execs, dram_rd_bytes): result_u64(ctx, k->dram_rd); break;
	case COL(kernel_execs, dram_wr_bytes): result_u64(ctx, k->dram_wr); break;
	case COL(kernel_execs, sram_rd_bytes): result_u64(ctx, k->sram_rd); break;
	case COL(kernel_execs, sram_wr_bytes): result_u64(ctx, k->sram_wr); break;
	case COL(kernel_execs, compute_cycles): result_u64(ctx, k->compute); break;
	case COL(kernel_execs, dma_wait_cycles): result_u64(ctx, k->dma_wait); break;
	case COL(kernel_execs, dep_stall_cycles): result_u64(ctx, k->dep_stall); break;
	case COL(kernel_execs, bank_stall_cycles): result_u64(ctx, k->bank_stall); break;
	}
}

/* Counter i's columns: its name interned beforehand (write_ctr). */
static void ctr_column(sqlite3_context *ctx, const npu_trace *t, size_t i,
		       int col)
{
	switch (col + 1) {
	case COL(counters, run_id): sqlite3_result_int64(ctx, t->run); break;
	case COL(counters, name_id): sqlite3_result_int64(ctx, t->ctr_ids[i]); break;
	case COL(counters, value): sqlite3_result_double(ctx, t->src->ctr.v[i].value); break;
	}
}

static int src_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const srcaux *a = src_aux(cur);
	const npu_trace *t = a->t;
	size_t i = ((srccur *)cur)->i;

	switch (a->table) {
	case T_activity: act_column(ctx, t->run, &t->src->act.v[i], col); break;
	case T_dma_xfers: dma_column(ctx, t->run, &t->src->dma.v[i].d, col); break;
	case T_kernel_execs: kx_column(ctx, t->run, &t->src->kx.v[i].k, col); break;
	case T_counters: ctr_column(ctx, t, i, col); break;
	}
	return SQLITE_OK;
}

static int src_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = (sqlite3_int64)((srccur *)cur)->i;
	return SQLITE_OK;
}

/* Eponymous only (no xCreate): there is nothing to CREATE VIRTUAL TABLE. */
static const sqlite3_module src_module = {
	.iVersion = 0,
	.xConnect = src_connect,
	.xBestIndex = src_best_index,
	.xDisconnect = src_disconnect,
	.xOpen = src_open,
	.xClose = src_close,
	.xFilter = src_filter,
	.xNext = src_next,
	.xEof = src_eof,
	.xColumn = src_column,
	.xRowid = src_rowid,
};

static const srcaux *src_aux(const sqlite3_vtab_cursor *cur)
{
	return ((const srcvtab *)cur->pVtab)->aux;
}

/* The tables written through a row source: all that a run's rows go to
 * after it began.  For the few dozen kernel executions and counters a
 * short run ends with, one statement is half the cost of a bound insert
 * per row, which was a third of what its trace cost after the run. */
static const int src_tables[] = {
	T_activity, T_dma_xfers, T_kernel_execs, T_counters
};
#define NSRC (sizeof src_tables / sizeof *src_tables)

/* ---- opening ---- */

static int pragma_int(npu_trace *t, const char *sql, int *v, npu_err *e)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(t->db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*v = sqlite3_column_int(st, 0);
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_OK)
		return 0;
	if ((sqlite3_errcode(t->db) & 0xff) == SQLITE_NOTADB)
		return npu_errf(e, "%s: not an SQLite database", t->path);
	return dberr(t, e, "cannot read the database header");
}

/* CREATE TABLE IF NOT EXISTS of every table: all of them in an empty
 * database, the new ones in one being upgraded. */
static int create_tables(npu_trace *t, npu_err *e)
{
	char sql[8192];

	for (int i = 0; i < NTABLE; i++) {
		out o = { sql, sizeof sql, 0 };
		const char *sep = "";
		outf(&o, "CREATE TABLE IF NOT EXISTS %s (", tabinfo[i].name);
		for (size_t c = 0; c < NCOL; c++)
			if (colinfo[c].table == i) {
				outf(&o, "%s\n  %s %s", sep, colinfo[c].name,
				     colinfo[c].type);
				sep = ",";
			}
		if (*tabinfo[i].constraints)
			outf(&o, ",\n  %s", tabinfo[i].constraints);
		outf(&o, "\n) %s", tabinfo[i].options);
		if (o.len >= o.n)
			return npu_errf(e, "%s: table %s: statement too long",
					t->path, tabinfo[i].name);
		if (sqlite3_exec(t->db, sql, NULL, NULL, NULL) != SQLITE_OK)
			return npu_errf(e, "%s: cannot create table %s: %s",
					t->path, tabinfo[i].name,
					sqlite3_errmsg(t->db));
	}
	return 0;
}

/*
 * The per-run views of the provenance tables:
 *   CREATE VIEW kernels AS SELECT r.id AS run_id, p.kernel, ...
 *     FROM runs r JOIN prov_kernels p ON p.prov_id = r.prov_id
 * SQLite flattens them into the queries that read them, so a lookup by
 * run and kernel is a lookup of the run's row and one of the table's key.
 */
static int create_views(npu_trace *t, npu_err *e)
{
	char sql[2048];

	for (size_t v = 0; v < NVIEW; v++) {
		out o = { sql, sizeof sql, 0 };
		int first = 1;
		outf(&o, "CREATE VIEW %s AS SELECT r.id AS run_id", viewinfo[v].name);
		for (size_t c = 0; c < NCOL; c++)
			if (colinfo[c].table == viewinfo[v].table) {
				if (!first)
					outf(&o, ", p.%s", colinfo[c].name);
				first = 0;
			}
		outf(&o, " FROM runs r JOIN %s p ON p.prov_id = r.prov_id",
		     tabinfo[viewinfo[v].table].name);
		if (o.len >= o.n)
			return npu_errf(e, "%s: view %s: statement too long",
					t->path, viewinfo[v].name);
		if (sqlite3_exec(t->db, sql, NULL, NULL, NULL) != SQLITE_OK)
			return npu_errf(e, "%s: cannot create view %s: %s",
					t->path, viewinfo[v].name,
					sqlite3_errmsg(t->db));
	}
	return 0;
}

static const char *unit_kind(int u)
{
	switch (u) {
	case NPU_UNIT_SCL: return "control";
	case NPU_UNIT_VEC: case NPU_UNIT_MXU: return "compute";
	case NPU_UNIT_HOST: return "host";
	default: return "dma";
	}
}

/* The name tables (units, states, dma_dirs): written once, so queries can
 * join names instead of spelling ids. */
static int fill_names(npu_trace *t, npu_err *e)
{
	sqlite3_stmt *st;

	if (!(st = ins(t, T_units, e)))
		return -1;
	for (int u = 0; u < NPU_NUNIT; u++) {
		sqlite3_bind_int(st, COL(units, id), u);
		sqlite3_bind_text(st, COL(units, name), npu_unit_name(u), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, COL(units, kind), unit_kind(u), -1, SQLITE_STATIC);
		if (step_done(t, st, "cannot fill table units", e))
			return -1;
	}
	if (!(st = ins(t, T_states, e)))
		return -1;
	for (int s = 0; s < NPU_NUSTATE; s++) {
		sqlite3_bind_int(st, COL(states, id), s);
		sqlite3_bind_text(st, COL(states, name), state_names[s], -1, SQLITE_STATIC);
		if (step_done(t, st, "cannot fill table states", e))
			return -1;
	}
	if (!(st = ins(t, T_dma_dirs, e)))
		return -1;
	for (int d = 0; d < NPU_TRACE_NDIR; d++) {
		sqlite3_bind_int(st, COL(dma_dirs, id), d);
		sqlite3_bind_text(st, COL(dma_dirs, name), dir_names[d], -1, SQLITE_STATIC);
		if (step_done(t, st, "cannot fill table dma_dirs", e))
			return -1;
	}
	return 0;
}

static int prepare(npu_trace *t, sqlite3_stmt **st, const char *sql,
		   npu_err *e)
{
	if (sqlite3_prepare_v3(t->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
			       NULL) != SQLITE_OK)
		return npu_errf(e, "%s: cannot prepare '%s': %s", t->path, sql,
				sqlite3_errmsg(t->db));
	return 0;
}

/*
 * The insert of `rows` rows into table i: every column, parameter
 * r * ncol + k for column k of row r, so that parameters never bound (the
 * INTEGER PRIMARY KEY) are NULL and get an id.  Several rows per statement
 * share one statement's start-up and clean-up, which is most of the cost
 * of a small row.  The parameters are anonymous ("?", numbered in order):
 * a numbered one that repeats ("?1" for every row's run_id) is looked up
 * in a list as the statement is parsed, which made preparing a 256-row
 * insert cost milliseconds on every open.
 */
static int prepare_insert(npu_trace *t, int i, int rows, sqlite3_stmt **st,
			  npu_err *e)
{
	char sql[32768];
	out o = { sql, sizeof sql, 0 };
	const char *sep = "";
	int k = 0;

	outf(&o, "INSERT INTO %s (", tabinfo[i].name);
	for (size_t c = 0; c < NCOL; c++)
		if (colinfo[c].table == i) {
			outf(&o, "%s%s", sep, colinfo[c].name);
			sep = ", ";
			k++;
		}
	outf(&o, ") VALUES ");
	for (int r = 0; r < rows; r++) {
		outf(&o, "%s(", r ? ", " : "");
		for (int p = 1; p <= k; p++)
			outf(&o, "%s?", p > 1 ? ", " : "");
		outf(&o, ")");
	}
	if (o.len >= o.n)
		return npu_errf(e, "%s: table %s: statement too long", t->path,
				tabinfo[i].name);
	return prepare(t, st, sql, e);
}

/* INSERT INTO table (cols) SELECT cols FROM npu_rows_<table>. */
static int prepare_from_src(npu_trace *t, int i, sqlite3_stmt **st, npu_err *e)
{
	char sql[2048], cols[1024];
	out o = { cols, sizeof cols, 0 };
	const char *sep = "";

	for (size_t c = 0; c < NCOL; c++)
		if (colinfo[c].table == i) {
			outf(&o, "%s%s", sep, colinfo[c].name);
			sep = ", ";
		}
	if (o.len >= o.n)
		return npu_errf(e, "%s: table %s: statement too long", t->path,
				tabinfo[i].name);
	snprintf(sql, sizeof sql, "INSERT INTO %s (%s) SELECT %s FROM npu_rows_%s",
		 tabinfo[i].name, cols, cols, tabinfo[i].name);
	return prepare(t, st, sql, e);
}

/*
 * The insert into table i, prepared when first used: a table that a
 * run's rows go to through a row source gets INSERT ... SELECT from it,
 * any other a bound one-row insert.  Preparing is a fifth of what opening
 * a trace costs the writer, and a run appended with its program's
 * provenance already recorded needs few of them (prepare_hot).
 */
static sqlite3_stmt *ins(npu_trace *t, int table, npu_err *e)
{
	int src = 0;

	if (t->ins[table])
		return t->ins[table];
	for (size_t j = 0; j < NSRC; j++)
		src |= src_tables[j] == table;
	if (src ? prepare_from_src(t, table, &t->ins[table], e) :
		  prepare_insert(t, table, 1, &t->ins[table], e))
		return NULL;
	return t->ins[table];
}

static sqlite3_stmt *stmt(npu_trace *t, enum stmt s, npu_err *e)
{
	if (!t->st[s] && prepare(t, &t->st[s], stmt_sql[s], e))
		return NULL;
	return t->st[s];
}

/* The statements every run uses, prepared at open: the writer thread
 * opens while the simulation runs, and the end of a run, which the
 * caller waits for, then prepares nothing. */
static int prepare_hot(npu_trace *t, npu_err *e)
{
	static const enum stmt hot[] = { S_STR_FIND, S_PROV_FIND, S_RUN_END,
					 S_PRIOR_RES };

	for (size_t i = 0; i < sizeof hot / sizeof *hot; i++)
		if (!stmt(t, hot[i], e))
			return -1;
	for (size_t i = 0; i < NSRC; i++)
		if (!ins(t, src_tables[i], e))
			return -1;
	return ins(t, T_runs, e) ? 0 : -1;
}

static int set_version(npu_trace *t, npu_err *e)
{
	char sql[96];

	snprintf(sql, sizeof sql, "PRAGMA application_id = %d; "
		 "PRAGMA user_version = %d", APP_ID, NPU_TRACE_SCHEMA_VERSION);
	return exec(t, sql, "cannot set the schema version", e);
}

/* Creates the schema of an empty database.  Two processes may get here at
 * once, so the version is read again under the write lock. */
static int init_schema(npu_trace *t, npu_err *e)
{
	int version, tables;

	if (tx_begin(t, e))
		return -1;
	if (pragma_int(t, "PRAGMA user_version", &version, e))
		goto fail;
	if (version != 0) {
		tx_rollback(t);
		return 0;
	}
	if (pragma_int(t, "SELECT count(*) FROM sqlite_master", &tables, e))
		goto fail;
	if (tables) {
		npu_errf(e, "%s: not an npusim trace (an SQLite database with "
			 "other tables and no schema version)", t->path);
		goto fail;
	}
	if (create_tables(t, e) || create_views(t, e) || fill_names(t, e) ||
	    set_version(t, e))
		goto fail;
	return tx_commit(t, e) ? (tx_rollback(t), -1) : 0;
fail:
	tx_rollback(t);
	return -1;
}

/*
 * Version 1 kept a copy of the program's kernel and node tables per run
 * (tables kernels, nodes, kernel_nodes, keyed by run_id); version 2 keeps
 * one per distinct program (prov_*) and reads them per run through views
 * of those names.  Each run of version 1 gets a provenance of its own
 * (digest NULL), so its rows and every query's results stay as they
 * were.  The version is read again under the write lock, as another
 * process may have upgraded the file meanwhile.
 */
static const char upgrade_v1_sql[] =
	"ALTER TABLE runs ADD COLUMN prov_id INTEGER REFERENCES provs(id);"
	"INSERT INTO provs (id, digest, nkernels, nnodes) "
	"  SELECT r.id, NULL, (SELECT count(*) FROM kernels k WHERE k.run_id = r.id),"
	"  (SELECT count(*) FROM nodes n WHERE n.run_id = r.id) FROM runs r"
	"  WHERE r.id IN (SELECT run_id FROM kernels UNION SELECT run_id FROM nodes);"
	"UPDATE runs SET prov_id = id WHERE id IN (SELECT id FROM provs);"
	"INSERT INTO prov_kernels (prov_id, kernel, name_id, code_start, code_end)"
	"  SELECT run_id, kernel, name_id, code_start, code_end FROM kernels;"
	"INSERT INTO prov_nodes (prov_id, node, name_id, target_id, module_id, source_id)"
	"  SELECT run_id, node, name_id, target_id, module_id, source_id FROM nodes;"
	"INSERT INTO prov_kernel_nodes (prov_id, kernel, node)"
	"  SELECT run_id, kernel, node FROM kernel_nodes;"
	"DROP TABLE kernel_nodes; DROP TABLE nodes; DROP TABLE kernels;";

/* Version 3 named DMA direction 5, the scatter (dsct). */
static const char upgrade_v2_sql[] =
	"INSERT OR IGNORE INTO dma_dirs (id, name) VALUES (5, 'scatter');";

static int upgrade(npu_trace *t, npu_err *e)
{
	int version;

	if (tx_begin(t, e))
		return -1;
	if (pragma_int(t, "PRAGMA user_version", &version, e))
		goto fail;
	if (version == NPU_TRACE_SCHEMA_VERSION) {
		tx_rollback(t);
		return 0;
	}
	if (version < 2 &&
	    (create_tables(t, e) ||
	     exec(t, upgrade_v1_sql, "cannot upgrade from schema version 1", e) ||
	     create_views(t, e)))
		goto fail;
	if (exec(t, upgrade_v2_sql, "cannot upgrade from schema version 2", e) ||
	    set_version(t, e))
		goto fail;
	return tx_commit(t, e) ? (tx_rollback(t), -1) : 0;
fail:
	tx_rollback(t);
	return -1;
}

static int check_version(npu_trace *t, npu_err *e)
{
	int version, app;

	if (pragma_int(t, "PRAGMA user_version", &version, e) ||
	    pragma_int(t, "PRAGMA application_id", &app, e))
		return -1;
	if (app != 0 && app != APP_ID)
		return npu_errf(e, "%s: not an npusim trace (application id "
				"0x%08x)", t->path, (unsigned)app);
	if (version > NPU_TRACE_SCHEMA_VERSION)
		return npu_errf(e, "%s: schema version %d is newer than this "
				"npusim (%d)", t->path, version,
				NPU_TRACE_SCHEMA_VERSION);
	if (version < NPU_TRACE_SCHEMA_OLDEST)
		return npu_errf(e, "%s: schema version %d is older than this "
				"npusim (%d) and cannot be upgraded", t->path,
				version, NPU_TRACE_SCHEMA_VERSION);
	if (app != APP_ID)
		return npu_errf(e, "%s: not an npusim trace (no application "
				"id)", t->path);
	return 0;
}

/* Whether the database has every index already (appending to one that
 * has, the normal case, need not ask SQLite to create them again). */
static int count_indexes(npu_trace *t, npu_err *e)
{
	char sql[1024];
	out o = { sql, sizeof sql, 0 };
	int n;

	outf(&o, "SELECT count(*) FROM sqlite_master WHERE type = 'index' "
	     "AND name IN (");
	for (size_t i = 0; i < NINDEX; i++)
		outf(&o, "%s'%s'", i ? ", " : "", idxinfo[i].name);
	outf(&o, ")");
	if (o.len >= o.n)
		return npu_errf(e, "%s: index query too long", t->path);
	if (pragma_int(t, sql, &n, e))
		return -1;
	t->indexed = n == (int)NINDEX;
	return 0;
}

/*
 * PRAGMA journal_mode = WAL.  Turning a new database to WAL while another
 * process opens it too fails with "database is locked" at once, without
 * the busy handler (two `npusim run --trace` of a sweep starting
 * together), so that case is retried for the busy timeout.
 */
static int set_wal(npu_trace *t, npu_err *e)
{
	for (int waited = 0;; waited += 2) {
		int rc = sqlite3_exec(t->db, "PRAGMA journal_mode = WAL", NULL,
				      NULL, NULL);
		if (rc == SQLITE_OK)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			break;
		if (waited >= BUSY_TIMEOUT_MS)
			break;
		sqlite3_sleep(2);
	}
	return dberr(t, e, "cannot enable WAL");
}

/*
 * SQLite's automatic checkpoint, but for the commit that ends a run: the
 * caller waits for that one (npu_trace_end), and its checkpoint would add
 * two fsyncs, milliseconds, to a short run.  The next commit checkpoints
 * instead: the next run's first, made when it begins, which a writer
 * thread does while the simulation runs.  A checkpoint that cannot finish
 * (readers in the way) is done again at a later commit.
 */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
	const npu_trace *t = arg;

	if (pages >= WAL_PAGES && !t->ending)
		sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE,
					  NULL, NULL);
	return SQLITE_OK;
}

/* Opens the connection, checks the schema (creating it in an empty
 * database) and prepares the statements. */
static int db_open(npu_trace *t, npu_err *e)
{
	int version;

	/* NOMUTEX: a connection is used by one thread (the caller's, or the
	 * writer thread's), so the per-call locking of a serialized build is
	 * pure cost. */
	if (sqlite3_open_v2(t->path, &t->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		if (!t->db)
			return npu_errf(e, "%s: cannot open: out of memory", t->path);
		return dberr(t, e, "cannot open");
	}
	sqlite3_busy_timeout(t->db, BUSY_TIMEOUT_MS);
	for (size_t i = 0; i < NSRC; i++) {
		char name[64];
		t->srcs[i] = (srcaux){ t, src_tables[i] };
		snprintf(name, sizeof name, "npu_rows_%s", tabinfo[src_tables[i]].name);
		if (sqlite3_create_module(t->db, name, &src_module, &t->srcs[i]))
			return dberr(t, e, "cannot register the row sources");
	}
	/* No checkpoint when the handle closes: that checkpoint costs two
	 * fsyncs and deleting and re-creating the WAL file (a third fsync,
	 * of the folder), milliseconds that a short run would pay every
	 * time.  The WAL is still checkpointed at a commit that finds it
	 * past WAL_PAGES pages (wal_hook), so it stays bounded; readers see
	 * it as part of the database, and the last read-write connection of another
	 * program to close (the sqlite3 shell) folds it in.
	 * docs/trace-schema.md says to copy the -wal file with the database,
	 * or to checkpoint first. */
	sqlite3_db_config(t->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
	if (pragma_int(t, "PRAGMA user_version", &version, e))
		return -1;
	if (version > 0 && check_version(t, e))
		return -1;
	/* WAL lets readers (queries, another appender's reads) go on while a
	 * batch is written; NORMAL skips the fsync per commit, which WAL makes
	 * safe against corruption (a power cut loses only the last batches). */
	if (set_wal(t, e) ||
	    exec(t, "PRAGMA synchronous = NORMAL", "cannot set synchronous", e) ||
	    exec(t, "PRAGMA cache_size = -32768", "cannot set the cache size", e))
		return -1;
	sqlite3_wal_hook(t->db, wal_hook, t);
	if (version == 0) {
		if (init_schema(t, e) || check_version(t, e))
			return -1;
	} else if (version < NPU_TRACE_SCHEMA_VERSION && upgrade(t, e)) {
		return -1;
	}
	if (prepare_hot(t, e) || count_indexes(t, e))
		return -1;
	return 0;
}

static void db_close(npu_trace *t)
{
	for (int i = 0; i < NTABLE; i++) {
		sqlite3_finalize(t->ins[i]);
		t->ins[i] = NULL;
	}
	for (int i = 0; i < NSTMT; i++) {
		sqlite3_finalize(t->st[i]);
		t->st[i] = NULL;
	}
	sqlite3_close(t->db);
	t->db = NULL;
	cache_clear(&t->cache);
}

/*
 * The most recent strings, into the intern cache: a run's kernel, node
 * and counter names are mostly those of the runs before it, and looking
 * each up is a query.  Only the writer thread does this, while the
 * simulation runs; failing just leaves the cache colder.
 */
#define PRELOAD_STRINGS 4096

static void preload_strings(npu_trace *t)
{
	sqlite3_stmt *st = NULL;
	char sql[96];

	snprintf(sql, sizeof sql, "SELECT id, text FROM strings ORDER BY id "
		 "DESC LIMIT %d", PRELOAD_STRINGS);
	if (sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 1);
		if (s)
			cache_add(&t->cache, s, hash_str(s),
				  sqlite3_column_int64(st, 0));
	}
	sqlite3_finalize(st);
}

/*
 * Reads the last pages of the tables a run's rows go to after it began
 * (kernel_execs, activity, dma_xfers, counters) and of their run_id
 * indexes: max() walks down their right edge, where the rows will go.  The
 * writer thread does it while the simulation runs, so the rows are then
 * written into pages already in the cache (that took the first chunk of a
 * short run twice as long).  One statement, as each costs a prepare.
 * Best effort, like preload_strings.
 */
static void warm_pages(npu_trace *t)
{
	static const char *const tables[] = {
		"kernel_execs", "activity", "dma_xfers", "counters"
	};
	char sql[512];
	out o = { sql, sizeof sql, 0 };
	sqlite3_stmt *st = NULL;

	outf(&o, "SELECT ");
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		outf(&o, "%s(SELECT max(rowid) FROM %s), (SELECT max(run_id) "
		     "FROM %s)", i ? ", " : "", tables[i], tables[i]);
	if (o.len < o.n &&
	    sqlite3_prepare_v2(t->db, sql, -1, &st, NULL) == SQLITE_OK)
		sqlite3_step(st);
	sqlite3_finalize(st);
}

static npu_trace *trace_new(const char *path, npu_err *e)
{
	npu_trace *t = calloc(1, sizeof *t);

	if (!t || !(t->path = strdup(path))) {
		npu_errf(e, "%s: out of memory", path);
		free(t);
		return NULL;
	}
	t->batch = NPU_TRACE_BATCH;
	return t;
}

npu_trace *npu_trace_open(const char *path, npu_err *e)
{
	npu_trace *t = trace_new(path, e);

	if (t && db_open(t, e)) {
		npu_trace_close(t);
		return NULL;
	}
	return t;
}

/* ---- a run ---- */

static int check_prog(const npu_trace *t, const npu_prog *p, npu_err *e)
{
	for (uint32_t i = 0; i < p->nkernels; i++) {
		const npu_kernel *k = &p->kernels[i];
		if (k->end < k->start)
			return npu_errf(e, "%s: kernel %u ends before it starts",
					t->path, i);
		if ((uint64_t)k->node_first + k->node_count > p->nkernel_nodes)
			return npu_errf(e, "%s: kernel %u: nodes past the "
					"kernel_nodes table", t->path, i);
	}
	for (uint32_t i = 0; i < p->nkernel_nodes; i++)
		if (p->kernel_nodes[i] >= p->nnodes)
			return npu_errf(e, "%s: kernel_nodes[%u]: node %u out "
					"of range", t->path, i, p->kernel_nodes[i]);
	return 0;
}

/*
 * The activity resolution of the last run before this one of the same
 * program and target that ended ok (its NPU_TRACE_RESOLUTION counter), 0
 * when none: a guess of this run's (whatever the options: a sweep's
 * differ in file names, and the resolution follows the cycles), so that
 * a simulation can bin its activity while it runs
 * (npu_trace_prior_resolution).  The runs
 * are scanned from the newest; a failed lookup only loses the guess.
 */
static uint64_t prior_resolution(npu_trace *t, int64_t prog_id,
				 const char *hash)
{
	sqlite3_stmt *st = stmt(t, S_PRIOR_RES, NULL);
	double v = 0;

	if (!st)
		return 0;
	sqlite3_bind_int64(st, 1, t->run);
	sqlite3_bind_int64(st, 2, prog_id);
	if (hash[0])
		sqlite3_bind_text(st, 3, hash, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, 3);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return v >= 1 && v <= 0x1p62 ? (uint64_t)v : 0;
}

static int insert_run(npu_trace *t, const npu_trace_run *run,
		      const npu_prog *p, int64_t prov, npu_err *e)
{
	uint64_t prior;
	sqlite3_stmt *st = ins(t, T_runs, e);
	const char *tname = run->target_name;
	char started[32], hash[24];
	int64_t prog_id, tname_id;
	time_t now = time(NULL);
	struct tm tm;

	if (!tname && p)
		tname = p->target_name;
	if (!st || intern(t, run->program, &prog_id, e) ||
	    intern(t, tname, &tname_id, e))
		return -1;
	gmtime_r(&now, &tm);
	strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(hash, sizeof hash, "%016" PRIx64, run->target_hash);
	if (!run->target_hash) /* 0: no target hash */
		hash[0] = '\0';
	sqlite3_bind_int64(st, COL(runs, program_id), prog_id);
	sqlite3_bind_int64(st, COL(runs, target_name_id), tname_id);
	if (hash[0])
		sqlite3_bind_text(st, COL(runs, target_hash), hash, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, COL(runs, target_hash));
	sqlite3_bind_text(st, COL(runs, options), run->options, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, COL(runs, label), run->label, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, COL(runs, started), started, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, COL(runs, status), "running", -1, SQLITE_STATIC);
	if (prov)
		sqlite3_bind_int64(st, COL(runs, prov_id), prov);
	else
		sqlite3_bind_null(st, COL(runs, prov_id));
	if (step_done(t, st, "cannot insert the run", e))
		return -1;
	t->run = sqlite3_last_insert_rowid(t->db);
	t->act_first = t->act_first_tx = 0;
	prior = prior_resolution(t, prog_id, hash);
	if (t->async)
		pthread_mutex_lock(&t->mu);
	t->prior = prior;
	t->prior_known = 1;
	if (t->async)
		pthread_mutex_unlock(&t->mu);
	return 0;
}

/* ---- a program's provenance ---- */

/*
 * The digest that tells one program's provenance from another's: two
 * 64-bit hashes over every byte of its kernel and node tables, FNV-1a
 * and a multiply-xorshift one.  Runs whose programs have equal tables
 * share their rows (two different programs with equal tables, recompiled
 * code say, rightly share them too); 128 bits make an accidental match
 * of different tables no practical concern.
 */
typedef struct digest {
	uint64_t a, b;
} digest;

static void dg_add(digest *d, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++) {
		d->a = (d->a ^ s[i]) * FNV_PRIME;
		d->b = (d->b + s[i] + 1) * 0x9e3779b97f4a7c15ull;
		d->b ^= d->b >> 29;
	}
}

/* With its NUL, so that "ab" "c" and "a" "bc" differ. */
static void dg_str(digest *d, const char *s)
{
	if (!s)
		s = "";
	dg_add(d, s, strlen(s) + 1);
}

static void dg_u32(digest *d, uint32_t v)
{
	unsigned char b[4] = { v & 0xff, v >> 8 & 0xff, v >> 16 & 0xff, v >> 24 };

	dg_add(d, b, sizeof b);
}

static void prov_digest(const npu_prog *p, char hex[33])
{
	digest d = { FNV_BASIS, 0x243f6a8885a308d3ull };

	dg_u32(&d, p->nnodes);
	for (uint32_t i = 0; i < p->nnodes; i++) {
		dg_str(&d, p->nodes[i].name);
		dg_str(&d, p->nodes[i].target);
		dg_str(&d, p->nodes[i].module);
		dg_str(&d, p->nodes[i].source);
	}
	dg_u32(&d, p->nkernels);
	for (uint32_t i = 0; i < p->nkernels; i++) {
		const npu_kernel *k = &p->kernels[i];
		dg_str(&d, k->name);
		dg_u32(&d, k->start);
		dg_u32(&d, k->end);
		dg_u32(&d, k->node_count);
		for (uint32_t j = 0; j < k->node_count; j++)
			dg_u32(&d, p->kernel_nodes[k->node_first + j]);
	}
	snprintf(hex, 33, "%016" PRIx64 "%016" PRIx64, d.a, d.b);
}

static int insert_kernels(npu_trace *t, const npu_prog *p, int64_t prov,
			  npu_err *e)
{
	sqlite3_stmt *st = ins(t, T_prov_kernels, e);

	if (!st)
		return -1;
	for (uint32_t i = 0; i < p->nkernels; i++) {
		int64_t name;
		if (intern(t, p->kernels[i].name, &name, e))
			return -1;
		sqlite3_bind_int64(st, COL(prov_kernels, prov_id), prov);
		sqlite3_bind_int64(st, COL(prov_kernels, kernel), i);
		sqlite3_bind_int64(st, COL(prov_kernels, name_id), name);
		sqlite3_bind_int64(st, COL(prov_kernels, code_start), p->kernels[i].start);
		sqlite3_bind_int64(st, COL(prov_kernels, code_end), p->kernels[i].end);
		if (step_done(t, st, "cannot insert a kernel", e))
			return -1;
		t->tx_rows++;
	}
	if (!(st = ins(t, T_prov_kernel_nodes, e)))
		return -1;
	for (uint32_t i = 0; i < p->nkernels; i++)
		for (uint32_t j = 0; j < p->kernels[i].node_count; j++) {
			sqlite3_bind_int64(st, COL(prov_kernel_nodes, prov_id), prov);
			sqlite3_bind_int64(st, COL(prov_kernel_nodes, kernel), i);
			sqlite3_bind_int64(st, COL(prov_kernel_nodes, node),
				p->kernel_nodes[p->kernels[i].node_first + j]);
			if (step_done(t, st, "cannot insert kernel provenance", e))
				return -1;
			t->tx_rows++;
		}
	return 0;
}

static int insert_nodes(npu_trace *t, const npu_prog *p, int64_t prov,
			npu_err *e)
{
	sqlite3_stmt *st = ins(t, T_prov_nodes, e);

	if (!st)
		return -1;
	for (uint32_t i = 0; i < p->nnodes; i++) {
		const npu_node *n = &p->nodes[i];
		int64_t name, target, module, source;
		if (intern(t, n->name, &name, e) ||
		    intern(t, n->target, &target, e) ||
		    intern(t, n->module, &module, e) ||
		    intern(t, n->source, &source, e))
			return -1;
		sqlite3_bind_int64(st, COL(prov_nodes, prov_id), prov);
		sqlite3_bind_int64(st, COL(prov_nodes, node), i);
		sqlite3_bind_int64(st, COL(prov_nodes, name_id), name);
		sqlite3_bind_int64(st, COL(prov_nodes, target_id), target);
		sqlite3_bind_int64(st, COL(prov_nodes, module_id), module);
		sqlite3_bind_int64(st, COL(prov_nodes, source_id), source);
		if (step_done(t, st, "cannot insert a node", e))
			return -1;
		t->tx_rows++;
	}
	return 0;
}

/*
 * The id of p's provenance in provs, its tables written first if no run
 * recorded them before: a sweep's runs of one program, the normal case,
 * write none of its rows after the first.  Inside the write transaction
 * that records the run, so two processes appending the same new program
 * at once write it once.
 */
static int prov_id(npu_trace *t, const npu_prog *p, int64_t *id, npu_err *e)
{
	sqlite3_stmt *find = stmt(t, S_PROV_FIND, e), *st;
	char hex[33];
	int rc;

	if (!find)
		return -1;
	prov_digest(p, hex);
	sqlite3_bind_text(find, 1, hex, -1, SQLITE_STATIC);
	rc = sqlite3_step(find);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(find, 0);
	sqlite3_reset(find);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return dberr(t, e, "cannot look up the program's provenance");
	if (!(st = ins(t, T_provs, e)))
		return -1;
	sqlite3_bind_text(st, COL(provs, digest), hex, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, COL(provs, nkernels), p->nkernels);
	sqlite3_bind_int64(st, COL(provs, nnodes), p->nnodes);
	if (step_done(t, st, "cannot insert the program's provenance", e))
		return -1;
	*id = sqlite3_last_insert_rowid(t->db);
	t->tx_rows++;
	return insert_nodes(t, p, *id, e) || insert_kernels(t, p, *id, e) ? -1 : 0;
}

/* Records a run: the writer's side of npu_trace_begin. */
static int w_begin(npu_trace *t, const npu_trace_run *run, const npu_prog *p,
		   npu_err *e)
{
	int64_t prov = 0;

	if (tx_begin(t, e))
		return -1;
	if ((p && prov_id(t, p, &prov, e)) ||
	    insert_run(t, run, p, prov, e) || tx_commit(t, e)) {
		tx_rollback(t);
		t->run = 0;
		return -1;
	}
	return 0;
}

/* The rows of b of table i, by one INSERT ... SELECT from its row source. */
static int write_src(npu_trace *t, const rowbuf *b, int i, const char *what,
		     npu_err *e)
{
	sqlite3_stmt *st = ins(t, i, e);
	int rc;

	if (!st)
		return -1;
	t->src = b;
	rc = step_done(t, st, what, e);
	t->src = NULL;
	return rc;
}

static int write_act(npu_trace *t, const rowbuf *b, npu_err *e)
{
	if (!b->act.n)
		return 0;
	if (write_src(t, b, T_activity, "cannot insert activity intervals", e))
		return -1;
	/* one statement's rows have consecutive rowids */
	if (!t->act_first && !t->act_first_tx)
		t->act_first_tx = sqlite3_last_insert_rowid(t->db) -
				  (int64_t)b->act.n + 1;
	return 0;
}

static int write_dma(npu_trace *t, const rowbuf *b, npu_err *e)
{
	if (!b->dma.n)
		return 0;
	return write_src(t, b, T_dma_xfers, "cannot insert DMA transfers", e);
}

static int write_kx(npu_trace *t, const rowbuf *b, npu_err *e)
{
	if (!b->kx.n)
		return 0;
	return write_src(t, b, T_kernel_execs, "cannot insert kernel executions", e);
}

/* The names first, each a query or an insert of its own, then the rows. */
static int write_ctr(npu_trace *t, const rowbuf *b, npu_err *e)
{
	if (!b->ctr.n)
		return 0;
	if (b->ctr.n > t->ctr_cap) {
		int64_t *v = realloc(t->ctr_ids, b->ctr.n * sizeof *v);
		if (!v) {
			oom(e, t->path);
			return -1;
		}
		t->ctr_ids = v;
		t->ctr_cap = b->ctr.n;
	}
	for (size_t i = 0; i < b->ctr.n; i++)
		if (intern(t, b->ctr.v[i].name, &t->ctr_ids[i], e))
			return -1;
	return write_src(t, b, T_counters, "cannot insert counters", e);
}

/* Writes the rows of b; inside a transaction. */
static int write_rows(npu_trace *t, const rowbuf *b, npu_err *e)
{
	if (write_kx(t, b, e) || write_act(t, b, e) || write_dma(t, b, e) ||
	    write_ctr(t, b, e))
		return -1;
	t->tx_rows += (int64_t)(b->kx.n + b->act.n + b->dma.n + b->ctr.n);
	return 0;
}

/* Forgets the rows of b (once written, or when they cannot be). */
static void rowbuf_clear(rowbuf *b)
{
	for (size_t i = 0; i < b->ctr.n; i++)
		free(b->ctr.v[i].name);
	b->kx.n = b->act.n = b->dma.n = b->ctr.n = 0;
}

static void rowbuf_free(rowbuf *b)
{
	rowbuf_clear(b);
	free(b->kx.v);
	free(b->act.v);
	free(b->dma.v);
	free(b->ctr.v);
	memset(b, 0, sizeof *b);
}

/* Writes rows of the run, in the open write transaction or a new one,
 * which is committed when `commit` is set.  On failure the transaction
 * rolls back and b is left as it was. */
static int w_rows(npu_trace *t, const rowbuf *b, int commit, npu_err *e)
{
	if (sqlite3_get_autocommit(t->db)) {
		if (tx_begin(t, e))
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &t->tx_since);
	}
	if (write_rows(t, b, e) || (commit && tx_commit(t, e))) {
		tx_rollback(t);
		return -1;
	}
	return 0;
}

/*
 * Deletes the activity rows of the run written so far (the writer's side
 * of npu_trace_drop_activity): those from its first one on, in the open
 * write transaction or a new one.  Rows that were committed may have
 * been seen by readers meanwhile, as rows of a run still 'running'.
 */
static int w_drop(npu_trace *t, npu_err *e)
{
	sqlite3_stmt *st;
	int64_t first = t->act_first ? t->act_first : t->act_first_tx;

	if (!first)
		return 0;
	if (!(st = stmt(t, S_ACT_DROP, e)))
		return -1;
	if (sqlite3_get_autocommit(t->db)) {
		if (tx_begin(t, e))
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &t->tx_since);
	}
	sqlite3_bind_int64(st, 1, first);
	sqlite3_bind_int64(st, 2, t->run);
	if (step_done(t, st, "cannot drop activity intervals", e)) {
		tx_rollback(t);
		return -1;
	}
	t->tx_rows -= sqlite3_changes(t->db);
	t->act_first = t->act_first_tx = 0;
	return 0;
}

static int create_indexes(npu_trace *t, npu_err *e)
{
	char sql[512];

	if (tx_begin(t, e))
		return -1;
	for (size_t i = 0; i < NINDEX; i++) {
		snprintf(sql, sizeof sql, "CREATE INDEX IF NOT EXISTS %s ON %s (%s)",
			 idxinfo[i].name, idxinfo[i].table, idxinfo[i].cols);
		if (sqlite3_exec(t->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
			npu_errf(e, "%s: cannot create index %s: %s", t->path,
				 idxinfo[i].name, sqlite3_errmsg(t->db));
			tx_rollback(t);
			return -1;
		}
	}
	if (tx_commit(t, e)) {
		tx_rollback(t);
		return -1;
	}
	t->indexed = 1;
	return 0;
}

/* The writer's side of npu_trace_end: the last rows, the totals, one
 * commit; then the indexes if some are missing. */
static int w_end(npu_trace *t, const rowbuf *b, uint64_t total_cycles,
		 double wall_s, int status, npu_err *e)
{
	sqlite3_stmt *st = stmt(t, S_RUN_END, e);

	if (!st || w_rows(t, b, 0, e))
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)total_cycles);
	sqlite3_bind_double(st, 2, wall_s);
	sqlite3_bind_text(st, 3, status == 0 ? "ok" : "failed", -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, status);
	sqlite3_bind_int64(st, 5, t->run);
	t->ending = 1;
	if (step_done(t, st, "cannot record the end of the run", e) ||
	    tx_commit(t, e)) {
		t->ending = 0;
		tx_rollback(t);
		return -1;
	}
	t->ending = 0;
	t->run = 0;
	return t->indexed ? 0 : create_indexes(t, e);
}

/* Best effort, as close cannot report: the rows of b are written and the
 * run marked 'incomplete'; if even that fails the run stays 'running'
 * with the batches written before. */
static void w_abandon(npu_trace *t, const rowbuf *b)
{
	sqlite3_stmt *st;

	if (w_rows(t, b, 0, NULL) && tx_begin(t, NULL))
		return;
	st = stmt(t, S_RUN_INCOMPLETE, NULL);
	if (st)
		sqlite3_bind_int64(st, 1, t->run);
	if ((st && step_done(t, st, "", NULL)) || tx_commit(t, NULL))
		tx_rollback(t);
	t->run = 0;
}

/* ---- the writer thread ---- */

static void job_free(job *j)
{
	if (!j)
		return;
	rowbuf_free(&j->rows);
	free((char *)j->run.program);
	free((char *)j->run.target_name);
	free((char *)j->run.options);
	free((char *)j->run.label);
	free(j);
}

static size_t job_rows(const job *j)
{
	return j->rows.kx.n + j->rows.act.n + j->rows.dma.n + j->rows.ctr.n;
}

/* Does one job; -1 with e set when it failed. */
static int w_job(npu_trace *t, job *j, npu_err *e)
{
	switch (j->kind) {
	case J_BEGIN:
		return w_begin(t, &j->run, j->p, e);
	case J_ROWS:
		return t->run ? w_rows(t, &j->rows, j->commit, e) : 0;
	case J_END:
		return t->run ? w_end(t, &j->rows, j->end_cycles, j->end_wall,
				      j->end_status, e) : 0;
	case J_DROP:
		return t->run ? w_drop(t, e) : 0;
	case J_SYNC:
		if (!sqlite3_get_autocommit(t->db) && tx_commit(t, e)) {
			tx_rollback(t);
			return -1;
		}
		return 0;
	case J_CLOSE:
		if (t->run)
			w_abandon(t, &j->rows);
		return 0;
	}
	return 0;
}

/* Commits the rows written so far (the writer, with mu held). */
static void w_commit_locked(npu_trace *t)
{
	npu_err e = { "" };
	int rc;

	pthread_mutex_unlock(&t->mu);
	rc = tx_commit(t, &e);
	if (rc)
		tx_rollback(t);
	pthread_mutex_lock(&t->mu);
	if (rc && !t->failed) {
		t->failed = 1;
		t->err = e;
	}
}

/*
 * Waking a thread from pthread_cond_wait takes tens of microseconds, as
 * long as writing a short run's last rows: the waits that a run's end
 * makes both threads do (the writer for the end's job, the caller for it
 * to be done) poll for up to POLL_NS first.
 */
#define POLL_NS 1000000L

/* A spin-wait hint to the core (it yields to a hyperthread sibling). */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

/* One turn of a polling loop.  It yields the CPU too: a new process's
 * writer thread often starts on its caller's CPU, and a poll that only
 * spun there kept the other thread from running until POLL_NS ran out
 * (`npusim run --trace` waited 1 ms at the end and 1 ms at the close). */
static void spin_pause(void)
{
	for (int k = 0; k < 16; k++)
		cpu_relax();
	sched_yield();
}

/* *t plus ns nanoseconds (ns < 1 s). */
static void ts_add(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	t->tv_sec += t->tv_nsec / 1000000000L;
	t->tv_nsec %= 1000000000L;
}

static long ns_since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a->tv_sec) * 1000000000L + (b.tv_nsec - a->tv_nsec);
}

/* Polls (mu held, released in between) until a job is queued, the
 * writer is idle (its caller's side), or POLL_NS have passed. */
static void poll_wait(npu_trace *t, int for_idle)
{
	struct timespec a;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned i = 1;; i++) {
		if (for_idle ? !t->head && !t->busy : t->head != NULL)
			return;
		pthread_mutex_unlock(&t->mu);
		spin_pause();
		pthread_mutex_lock(&t->mu);
		if (i % 32 == 0 && ns_since(&a) > POLL_NS)
			return;
	}
}

/*
 * The next job, waiting for one.  A write transaction stays open while
 * the writer waits for the next rows (a commit per chunk would cost more
 * than writing it), but no longer than HOLD_MS after it began, so that
 * another process appending waits at most that long for the lock, and
 * so that the rows streamed during a run are mostly committed while it
 * runs: a commit writes every page its transaction changed to the WAL,
 * which for the bundled demo's rows took 0.4 to 1.3 ms when all waited
 * for the end (HOLD_MS 50), most of what its trace cost after the run.
 */
#define HOLD_MS 2

/*
 * While a run streams its rows the writer naps and looks for them instead
 * of waiting to be woken: a wake-up cost the simulation's thread a system
 * call a hand-off (the demo's 3 ms run makes 12 to 24; on a 2-core
 * virtual machine they made its trace cost 15% instead of 9%).  The naps
 * grow from NAP_NS to NAP_MAX_NS while nothing comes, so that a long
 * run's writer does not wake 10,000 times a second.  Commits an open
 * transaction after HOLD_MS, as next_job does.
 */
#define NAP_NS 100000L
#define NAP_MAX_NS 2000000L

static void nap_locked(npu_trace *t)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	ts_add(&until, t->nap_ns);
	t->napping = 1;
	pthread_cond_timedwait(&t->work, &t->mu, &until);
	t->napping = 0;
	if (!t->head && t->nap_ns < NAP_MAX_NS)
		t->nap_ns *= 2;
	if (!t->head && !sqlite3_get_autocommit(t->db) &&
	    ns_since(&t->tx_since) >= HOLD_MS * 1000000L)
		w_commit_locked(t);
}

static job *next_job(npu_trace *t, int poll)
{
	job *j;

	pthread_mutex_lock(&t->mu);
	t->busy = 0;
	pthread_cond_broadcast(&t->idle);
	if (poll)
		poll_wait(t, 0);
	t->nap_ns = NAP_NS;
	while (!t->head) {
		struct timespec until = t->tx_since;
		if (t->run && t->db && !t->failed) {
			nap_locked(t);
			continue;
		}
		if (!t->db || t->failed || sqlite3_get_autocommit(t->db)) {
			pthread_cond_wait(&t->work, &t->mu);
			continue;
		}
		ts_add(&until, HOLD_MS * 1000000L);
		if (pthread_cond_timedwait(&t->work, &t->mu, &until) == ETIMEDOUT &&
		    !t->head)
			w_commit_locked(t);
	}
	j = t->head;
	t->head = j->next;
	if (!t->head)
		t->tail = &t->head;
	t->queued -= job_rows(j);
	t->busy = 1;
	pthread_mutex_unlock(&t->mu);
	return j;
}

/* Keeps a done job's row buffers, emptied, as the caller's next ones. */
static void keep_spare(npu_trace *t, job *j)
{
	rowbuf_clear(&j->rows);
	pthread_mutex_lock(&t->mu);
	if (!t->spare.act.v && !t->spare.dma.v && !t->spare.kx.v &&
	    !t->spare.ctr.v) {
		t->spare = j->rows;
		memset(&j->rows, 0, sizeof j->rows);
	}
	pthread_mutex_unlock(&t->mu);
}

/*
 * The writer thread owns the connection from opening to closing: it
 * opens the database (the schema check and the statements are most of
 * the cost of a short run's trace) while the caller goes on, then does
 * the queued jobs in order.  After its first error it only drains the
 * queue; the error is the caller's at its next wait.
 */
static void *writer(void *arg)
{
	npu_trace *t = arg;
	npu_err e = { "" };
	int open_failed;
	job *j;

#ifdef __GLIBC__
	if (t->pinned)
		pthread_setaffinity_np(pthread_self(), sizeof t->cpus, &t->cpus);
#endif
	open_failed = db_open(t, &e) != 0;

	if (open_failed) {
		pthread_mutex_lock(&t->mu);
		t->failed = 1;
		t->err = e;
		pthread_mutex_unlock(&t->mu);
	} else {
		preload_strings(t);
		warm_pages(t);
	}
	for (int poll = 0;;) {
		enum jobkind kind;
		j = next_job(t, poll);
		kind = j->kind;
		/* from the hand-over before the end to the end, and for
		 * the close that usually follows the end */
		poll = j->ending || (poll && kind == J_ROWS) || kind == J_END;
		if (!t->failed || kind == J_CLOSE) {
			if (t->db && w_job(t, j, &e)) {
				pthread_mutex_lock(&t->mu);
				if (!t->failed) {
					t->failed = 1;
					t->err = e;
				}
				pthread_mutex_unlock(&t->mu);
			}
		}
		keep_spare(t, j);
		job_free(j);
		if (kind == J_CLOSE)
			break;
	}
	db_close(t);
	pthread_mutex_lock(&t->mu);
	t->busy = 0;
	pthread_cond_broadcast(&t->idle);
	pthread_mutex_unlock(&t->mu);
	/* the last touch of t: close_async may free it from now on */
	atomic_store_explicit(&t->exited, 1, memory_order_release);
	return NULL;
}

static int writer_error(npu_trace *t, npu_err *e)
{
	t->reported = 1;
	if (e)
		*e = t->err;
	return -1;
}

/* Queues j (taking it) once fewer than QUEUE_ROWS rows wait; -1 with the
 * writer's error if it has failed. */
#define QUEUE_ROWS 65536

static int submit(npu_trace *t, job *j, npu_err *e)
{
	pthread_mutex_lock(&t->mu);
	while (t->queued > QUEUE_ROWS && !t->failed)
		pthread_cond_wait(&t->idle, &t->mu);
	if (t->failed) {
		pthread_mutex_unlock(&t->mu);
		job_free(j);
		return writer_error(t, e);
	}
	j->next = NULL;
	*t->tail = j;
	t->tail = &j->next;
	t->queued += job_rows(j);
	if (!t->napping || j->kind != J_ROWS || j->ending)
		pthread_cond_signal(&t->work);
	pthread_mutex_unlock(&t->mu);
	return 0;
}

static job *job_new(enum jobkind kind, npu_trace *t, npu_err *e)
{
	job *j = calloc(1, sizeof *j);

	if (!j) {
		npu_errf(e, "%s: out of memory queueing rows", t->path);
		return NULL;
	}
	j->kind = kind;
	return j;
}

/* A job taking the rows buffered so far. */
static job *rows_job(enum jobkind kind, npu_trace *t, npu_err *e)
{
	job *j = job_new(kind, t, e);

	if (j) {
		j->rows = t->buf;
		pthread_mutex_lock(&t->mu);
		t->buf = t->spare;
		memset(&t->spare, 0, sizeof t->spare);
		pthread_mutex_unlock(&t->mu);
		t->inbuf = 0;
	}
	return j;
}

/* Waits until the writer has done every job queued: 0, or its error. */
static int wait_idle(npu_trace *t, npu_err *e)
{
	int failed;

	pthread_mutex_lock(&t->mu);
	while (t->head || t->busy)
		pthread_cond_wait(&t->idle, &t->mu);
	failed = t->failed;
	pthread_mutex_unlock(&t->mu);
	return failed ? writer_error(t, e) : 0;
}

/* The writer's timed waits are on CLOCK_MONOTONIC, like tx_since. */
static int cond_init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t a;
	int rc;

	if (pthread_condattr_init(&a))
		return -1;
	rc = pthread_condattr_setclock(&a, CLOCK_MONOTONIC) ||
	     pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
	return rc ? -1 : 0;
}

/*
 * Starts the writer thread on another CPU than the caller's, where it can
 * open the trace while the caller simulates: Linux often starts a new
 * thread on its creator's CPU and moves it only when it balances the
 * load, which took 1.4 to 3.9 ms in one `npusim run --trace` of three on
 * a 2-core machine, longer than the bundled demo's whole run.  The
 * thread then takes back every CPU the caller may use (writer()).
 */
static int start_writer(npu_trace *t)
{
	pthread_attr_t a;
	int rc;

	if (pthread_attr_init(&a))
		return -1;
#ifdef __GLIBC__
	{
		cpu_set_t others;
		int me = sched_getcpu();
		if (me >= 0 && me < CPU_SETSIZE &&
		    !sched_getaffinity(0, sizeof t->cpus, &t->cpus)) {
			others = t->cpus;
			CPU_CLR(me, &others);
			t->pinned = CPU_COUNT(&others) > 0 &&
				!pthread_attr_setaffinity_np(&a, sizeof others, &others);
		}
	}
#endif
	rc = pthread_create(&t->thread, &a, writer, t);
	pthread_attr_destroy(&a);
	return rc ? -1 : 0;
}

npu_trace *npu_trace_open_async(const char *path, npu_err *e)
{
	npu_trace *t = trace_new(path, e);

	if (!t)
		return NULL;
	t->async = 1;
	t->tail = &t->head;
	t->busy = 1; /* opening */
	atomic_init(&t->exited, 0);
	/* made now, so that closing cannot run out of memory */
	if (!(t->closer = job_new(J_CLOSE, t, e))) {
		free(t->path);
		free(t);
		return NULL;
	}
	if (pthread_mutex_init(&t->mu, NULL))
		goto fail_mutex;
	if (cond_init_monotonic(&t->work))
		goto fail_work;
	if (pthread_cond_init(&t->idle, NULL))
		goto fail_idle;
	if (start_writer(t))
		goto fail_thread;
	return t;
fail_thread:
	pthread_cond_destroy(&t->idle);
fail_idle:
	pthread_cond_destroy(&t->work);
fail_work:
	pthread_mutex_destroy(&t->mu);
fail_mutex:
	npu_errf(e, "%s: cannot start the trace writer thread", path);
	free(t->closer);
	free(t->path);
	free(t);
	return NULL;
}

/*
 * The 1-minute load average and the threads runnable now, this one
 * included (Linux: /proc/loadavg's first and fourth fields), read once
 * with a plain read: getloadavg() and stdio read the file twice and cost
 * 40 us, 1% of a short run.  0, or -1 when they cannot be read.
 */
static int load_now(double *load, long *runnable)
{
	char buf[128];
	ssize_t n;
	int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return sscanf(buf, "%lf %*f %*f %ld/", load, runnable) == 2 ? 0 : -1;
}

/* CPUs this process may run on (sysconf reads a file: 20 us). */
static long cpus_usable(void)
{
#ifdef __GLIBC__
	cpu_set_t s;

	if (!sched_getaffinity(0, sizeof s, &s))
		return CPU_COUNT(&s);
#endif
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/*
 * The writer thread pays only when a core is free for it.  With every core
 * busy (a sweep running one npusim per core, say) it is one more thread to
 * schedule, and costs more than it hides: on a 2-core machine at a load
 * of 5, `npusim run --trace` of demo.s paid 63% over the untraced run with
 * it and 33% without.  So: the thread when the load average leaves a core
 * idle, or when the threads runnable now (this one among them) do: the
 * load average lags a minute, and a sweep that runs one traced run after
 * another on one core holds it near 1 (on 2 cores scripts/bench's
 * llama_tiny paid 29% without the thread, 10% with it).
 * NPU_TRACE_WRITER=thread or =none decides instead.
 */
static int writer_pays(void)
{
	const char *v = getenv("NPU_TRACE_WRITER");
	long ncpu, run;
	double load;

	if (v && *v)
		return strcmp(v, "none") != 0;
	if ((ncpu = cpus_usable()) < 2)
		return 0;
	if (load_now(&load, &run))
		return 1;
	return load + 1.0 <= (double)ncpu || (run > 0 && run + 1 <= ncpu);
}

npu_trace *npu_trace_open_auto(const char *path, npu_err *e)
{
	return writer_pays() ? npu_trace_open_async(path, e) :
			       npu_trace_open(path, e);
}

int npu_trace_is_async(const npu_trace *t)
{
	return t->async;
}

int npu_trace_sync(npu_trace *t, npu_err *e)
{
	job *j;

	if (!t->async)
		return 0;
	if (!(j = rows_job(J_ROWS, t, e)))
		return -1;
	if (submit(t, j, e) || !(j = job_new(J_SYNC, t, e)) || submit(t, j, e))
		return -1;
	return wait_idle(t, e);
}

/* ---- the caller's side of a run ---- */

static int no_run(const npu_trace *t, npu_err *e)
{
	return npu_errf(e, "%s: no run begun", t->path);
}

static int bad_kernel(const npu_trace *t, int kernel, npu_err *e)
{
	return npu_errf(e, "%s: kernel %d out of range (program has %u)",
			t->path, kernel, t->nkernels);
}

/* Copies the run's strings into j (NULL stays NULL). */
static int copy_run(job *j, const npu_trace_run *run)
{
	const char *src[4] = { run->program, run->target_name, run->options,
			       run->label };
	char *dst[4] = { NULL };

	for (int i = 0; i < 4; i++)
		if (src[i] && !(dst[i] = strdup(src[i])))
			goto fail;
	j->run = (npu_trace_run){ dst[0], dst[1], run->target_hash, dst[2], dst[3] };
	return 0;
fail:
	for (int i = 0; i < 4; i++)
		free(dst[i]);
	return -1;
}

static int64_t begin_async(npu_trace *t, const npu_trace_run *run,
			   const npu_prog *p, npu_err *e)
{
	job *j = job_new(J_BEGIN, t, e);

	if (!j)
		return -1;
	if (copy_run(j, run)) {
		job_free(j);
		return npu_errf(e, "%s: out of memory queueing the run", t->path);
	}
	j->p = p;
	return submit(t, j, e);
}

int64_t npu_trace_begin(npu_trace *t, const npu_trace_run *run,
			const npu_prog *p, npu_err *e)
{
	if (t->begun && !t->async)
		return npu_errf(e, "%s: run %" PRId64 " is still open", t->path,
				t->run);
	if (t->begun)
		return npu_errf(e, "%s: a run is still open", t->path);
	if (p && check_prog(t, p, e))
		return -1;
	if (t->async) {
		/* the last run's guess is gone until the writer finds this one's */
		pthread_mutex_lock(&t->mu);
		t->prior = 0;
		t->prior_known = 0;
		pthread_mutex_unlock(&t->mu);
		if (begin_async(t, run, p, e))
			return -1;
	} else if (w_begin(t, run, p, e)) {
		return -1;
	}
	t->begun = 1;
	t->pending = t->inbuf = 0;
	t->handed = 0;
	t->nkernels = p ? p->nkernels : 0;
	return t->async ? 0 : t->run;
}

/* Rows handed to the writer thread at a time: small enough that it
 * starts writing while the caller still makes rows; the first chunk of a
 * run smaller still, as the writer waits for it. */
#define CHUNK 256
#define FIRST_CHUNK 64
/* npu_trace_flush hands over no fewer rows, and, after the first, no
 * sooner than FLUSH_GAP_NS after the last hand-over: a job costs the
 * caller an allocation and a wake-up, and the writer a statement per
 * table (the demo's 3-5 ms run on a 2-core machine: about
 * 50 jobs without the gap, 12 to 24 with it). */
#define FLUSH_ROWS 16
#define FLUSH_GAP_NS 250000

/* Counts a buffered row and writes the batch when it is full (hands a
 * chunk to the writer thread, if there is one). */
static int added(npu_trace *t, npu_err *e)
{
	int full = ++t->pending >= t->batch;
	job *j;

	t->inbuf++;
	if (!t->async) {
		if (!full)
			return 0;
		if (w_rows(t, &t->buf, 1, e))
			return -1;
		rowbuf_clear(&t->buf);
		t->pending = t->inbuf = 0;
		return 0;
	}
	if (!full && t->inbuf < (t->handed ? CHUNK : FIRST_CHUNK))
		return 0;
	t->handed = 1;
	if (!(j = rows_job(J_ROWS, t, e)))
		return -1;
	j->commit = full;
	if (full)
		t->pending = 0;
	return submit(t, j, e);
}

int npu_trace_kernel_exec(npu_trace *t, const npu_trace_kernel *k, npu_err *e)
{
	if (!t->begun)
		return no_run(t, e);
	if (k->kernel < 0 || (uint32_t)k->kernel >= t->nkernels)
		return bad_kernel(t, k->kernel, e);
	if (k->end < k->start)
		return npu_errf(e, "%s: kernel %d: ends at cycle %" PRIu64
				" before it starts (%" PRIu64 ")", t->path,
				k->kernel, k->end, k->start);
	if (!ROWVEC_PUSH(t->buf.kx, e, t->path))
		return -1;
	t->buf.kx.v[t->buf.kx.n++].k = *k;
	return added(t, e);
}

int npu_trace_activity(npu_trace *t, int unit, uint64_t start, uint64_t end,
		       int kernel, int state, npu_err *e)
{
	struct act_row *a;

	if (!t->begun)
		return no_run(t, e);
	if (unit < 0 || unit >= NPU_NUNIT)
		return npu_errf(e, "%s: activity: unit %d out of range", t->path, unit);
	if (state < 0 || state >= NPU_NUSTATE)
		return npu_errf(e, "%s: activity: state %d out of range", t->path, state);
	if (kernel < -1 || (kernel >= 0 && (uint32_t)kernel >= t->nkernels))
		return bad_kernel(t, kernel, e);
	if (end < start)
		return npu_errf(e, "%s: activity of %s: ends at cycle %" PRIu64
				" before it starts (%" PRIu64 ")", t->path,
				npu_unit_name(unit), end, start);
	if (!ROWVEC_PUSH(t->buf.act, e, t->path))
		return -1;
	a = &t->buf.act.v[t->buf.act.n++];
	a->start = start;
	a->end = end;
	a->kernel = kernel;
	a->unit = (int16_t)unit;
	a->state = (int16_t)state;
	return added(t, e);
}

int npu_trace_dma_xfer(npu_trace *t, const npu_trace_dma *d, npu_err *e)
{
	if (!t->begun)
		return no_run(t, e);
	if (d->engine < 0 || d->engine >= NPU_MAX_DMA)
		return npu_errf(e, "%s: DMA engine %d out of range", t->path, d->engine);
	if (d->dir < 0 || d->dir >= NPU_TRACE_NDIR)
		return npu_errf(e, "%s: DMA direction %d out of range", t->path, d->dir);
	if (d->kernel < -1 || (d->kernel >= 0 && (uint32_t)d->kernel >= t->nkernels))
		return bad_kernel(t, d->kernel, e);
	if (d->end < d->start || d->start < d->issue)
		return npu_errf(e, "%s: DMA transfer on dma%d: cycles out of "
				"order (issue %" PRIu64 ", start %" PRIu64
				", end %" PRIu64 ")", t->path, d->engine,
				d->issue, d->start, d->end);
	if (!ROWVEC_PUSH(t->buf.dma, e, t->path))
		return -1;
	t->buf.dma.v[t->buf.dma.n++].d = *d;
	return added(t, e);
}

int npu_trace_counter(npu_trace *t, const char *name, double value, npu_err *e)
{
	char *copy;

	if (!t->begun)
		return no_run(t, e);
	if (!name || !*name)
		return npu_errf(e, "%s: counter without a name", t->path);
	if (!ROWVEC_PUSH(t->buf.ctr, e, t->path))
		return -1;
	if (!(copy = strdup(name)))
		return npu_errf(e, "%s: out of memory buffering rows", t->path);
	t->buf.ctr.v[t->buf.ctr.n].name = copy;
	t->buf.ctr.v[t->buf.ctr.n++].value = value;
	return 0;
}

int npu_trace_flush(npu_trace *t, npu_err *e)
{
	job *j;

	struct timespec now;

	if (!t->async || !t->begun || t->inbuf < FLUSH_ROWS)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (t->handed && (now.tv_sec - t->hand_at.tv_sec) * 1000000000L +
	    (now.tv_nsec - t->hand_at.tv_nsec) < FLUSH_GAP_NS)
		return 0;
	t->hand_at = now;
	t->handed = 1;
	if (!(j = rows_job(J_ROWS, t, e)))
		return -1;
	return submit(t, j, e);
}

int npu_trace_ending(npu_trace *t, npu_err *e)
{
	job *j;

	if (!t->async || !t->begun)
		return 0;
	if (!(j = rows_job(J_ROWS, t, e)))
		return -1;
	j->ending = 1;
	t->handed = 1;
	clock_gettime(CLOCK_MONOTONIC, &t->hand_at);
	return submit(t, j, e);
}

int npu_trace_drop_activity(npu_trace *t, npu_err *e)
{
	size_t n = t->buf.act.n;
	job *j;

	if (!t->begun)
		return no_run(t, e);
	/* the rows still buffered here are only forgotten */
	t->buf.act.n = 0;
	t->inbuf -= n;
	t->pending -= n < t->pending ? n : t->pending;
	if (!t->async)
		return w_drop(t, e);
	if (!(j = job_new(J_DROP, t, e)))
		return -1;
	return submit(t, j, e);
}

/* npu_trace_end of an asynchronous handle: the last rows and the end go
 * to the writer, and the run is over for the caller whatever happens. */
static int end_async(npu_trace *t, uint64_t total_cycles, double wall_s,
		     int status, npu_err *e)
{
	job *j = rows_job(J_END, t, e);

	t->begun = 0;
	if (!j)
		return -1;
	j->end_cycles = total_cycles;
	j->end_wall = wall_s;
	j->end_status = status;
	if (submit(t, j, e))
		return -1;
	pthread_mutex_lock(&t->mu);
	poll_wait(t, 1);
	pthread_mutex_unlock(&t->mu);
	return wait_idle(t, e);
}

int npu_trace_end(npu_trace *t, uint64_t total_cycles, double wall_s,
		  int status, npu_err *e)
{
	if (!t->begun)
		return no_run(t, e);
	if (t->async)
		return end_async(t, total_cycles, wall_s, status, e);
	if (w_end(t, &t->buf, total_cycles, wall_s, status, e)) {
		/* the run ended if only the indexes failed */
		t->begun = t->run != 0;
		if (!t->begun)
			rowbuf_clear(&t->buf);
		return -1;
	}
	rowbuf_clear(&t->buf);
	t->begun = 0;
	t->nkernels = 0;
	return 0;
}

uint64_t npu_trace_rows(const npu_trace *t)
{
	uint64_t n;

	if (!t->async)
		return t->rows;
	pthread_mutex_lock((pthread_mutex_t *)&t->mu);
	n = t->rows;
	pthread_mutex_unlock((pthread_mutex_t *)&t->mu);
	return n;
}

int npu_trace_prior_resolution(npu_trace *t, uint64_t *q)
{
	int known = 1;

	*q = 0;
	if (!t->begun)
		return 1;
	if (t->async)
		pthread_mutex_lock(&t->mu);
	if (t->prior_known)
		*q = t->prior;
	else
		known = 0;
	if (t->async)
		pthread_mutex_unlock(&t->mu);
	return known;
}

int64_t npu_trace_run_id(const npu_trace *t)
{
	if (t->async && wait_idle((npu_trace *)t, NULL))
		return 0;
	return t->run;
}

void npu_trace_set_batch(npu_trace *t, size_t rows)
{
	t->batch = rows ? rows : 1;
}

const char *npu_trace_state_name(int state)
{
	return state >= 0 && state < NPU_NUSTATE ? state_names[state] : "?";
}

const char *npu_trace_dir_name(int dir)
{
	return dir >= 0 && dir < NPU_TRACE_NDIR ? dir_names[dir] : "?";
}

/* Whether the writer thread is done with t, polling for up to POLL_NS. */
static int poll_exited(npu_trace *t)
{
	struct timespec a;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (unsigned i = 1;; i++) {
		if (atomic_load_explicit(&t->exited, memory_order_acquire))
			return 1;
		spin_pause();
		if (i % 32 == 0 && ns_since(&a) > POLL_NS)
			return 0;
	}
}

/* Queues the J_CLOSE job: the writer writes what is buffered, marks a
 * run still open 'incomplete' and closes the connection. */
static void queue_closer(npu_trace *t)
{
	job *j = t->closer;

	j->rows = t->buf;
	memset(&t->buf, 0, sizeof t->buf);
	pthread_mutex_lock(&t->mu);
	*t->tail = j;
	t->tail = &j->next;
	pthread_cond_signal(&t->work);
	pthread_mutex_unlock(&t->mu);
	t->closing = 1;
}

/* Waits for the writer thread to be done with t. */
static void wait_closed(npu_trace *t)
{
	/* poll for the writer's last touch of t rather than sleep in
	 * pthread_join for a wake-up (tens of microseconds) */
	if (poll_exited(t))
		pthread_detach(t->thread);
	else
		pthread_join(t->thread, NULL);
	pthread_cond_destroy(&t->idle);
	pthread_cond_destroy(&t->work);
	pthread_mutex_destroy(&t->mu);
}

/* The close of a handle without a writer thread. */
static void close_sync(npu_trace *t)
{
	if (!t->db)
		return;
	if (t->run)
		w_abandon(t, &t->buf);
	db_close(t);
}

int npu_trace_end_close(npu_trace *t, uint64_t total_cycles, double wall_s,
			int status, npu_err *e)
{
	job *j;
	int rc = 0;

	if (!t->async) {
		rc = npu_trace_end(t, total_cycles, wall_s, status, e);
		close_sync(t);
		return rc;
	}
	if (!t->begun) {
		rc = no_run(t, e);
	} else if (!(j = rows_job(J_END, t, e))) {
		rc = -1;
	} else {
		t->begun = 0;
		j->end_cycles = total_cycles;
		j->end_wall = wall_s;
		j->end_status = status;
		rc = submit(t, j, e);
	}
	queue_closer(t);
	if (rc < 0)
		t->reported = 1;
	return rc;
}

static void trace_free(npu_trace *t)
{
	rowbuf_free(&t->buf);
	rowbuf_free(&t->spare);
	free(t->ctr_ids);
	free(t->path);
	free(t);
}

int npu_trace_finish(npu_trace *t, npu_err *e)
{
	int rc = 0;

	if (!t)
		return 0;
	if (t->async) {
		if (!t->closing)
			queue_closer(t);
		wait_closed(t);
		if (t->failed && !t->reported) {
			if (e)
				*e = t->err;
			rc = -1;
		}
	} else {
		close_sync(t);
	}
	trace_free(t);
	return rc;
}

void npu_trace_close(npu_trace *t)
{
	(void)npu_trace_finish(t, NULL);
}

/* ---- documentation ---- */

/* A view's section: its columns are run_id and its table's but the
 * first, with their meanings. */
static void view_doc(out *o, const struct viewinfo *v)
{
	int first = 1;

	outf(o, "\n### %s (view)\n\n%s  For each run, the rows of `%s` of its program's provenance.\n\n"
	     "| column | type | meaning |\n|---|---|---|\n"
	     "| `run_id` | `INTEGER` | run (runs.id) |\n", v->name, v->doc,
	     tabinfo[v->table].name);
	for (size_t c = 0; c < NCOL; c++)
		if (colinfo[c].table == v->table) {
			if (!first)
				outf(o, "| `%s` | `%s` | %s |\n", colinfo[c].name,
				     colinfo[c].type, colinfo[c].doc);
			first = 0;
		}
}

size_t npu_trace_schema_doc(char *buf, size_t n)
{
	out o = { buf, n, 0 };

	if (n)
		buf[0] = '\0';
	for (int i = 0; i < NTABLE; i++) {
		outf(&o, "### %s\n\n%s\n\n", tabinfo[i].name, tabinfo[i].doc);
		if (*tabinfo[i].constraints)
			outf(&o, "Constraint: `%s`%s%s.\n\n", tabinfo[i].constraints,
			     *tabinfo[i].options ? "; " : "", tabinfo[i].options);
		outf(&o, "| column | type | meaning |\n|---|---|---|\n");
		for (size_t c = 0; c < NCOL; c++)
			if (colinfo[c].table == i)
				outf(&o, "| `%s` | `%s` | %s |\n", colinfo[c].name,
				     colinfo[c].type, colinfo[c].doc);
		outf(&o, "\n");
	}
	outf(&o, "### Indexes\n\nCreated when a run ends, if missing.\n\n"
	     "| index | on | for |\n|---|---|---|\n");
	for (size_t i = 0; i < NINDEX; i++)
		outf(&o, "| `%s` | `%s (%s)` | %s |\n", idxinfo[i].name,
		     idxinfo[i].table, idxinfo[i].cols, idxinfo[i].doc);
	for (size_t v = 0; v < NVIEW; v++)
		view_doc(&o, &viewinfo[v]);
	return o.len;
}
