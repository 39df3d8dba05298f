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
 * prepared once, inside one transaction per batch, with no index to keep
 * up (indexes are created when a run ends).  Buffering also keeps the
 * write lock short, which is what lets several processes append at once.
 */
#include "traces/trace.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/isa.h"

/* "NPUT": PRAGMA application_id of trace databases. */
#define APP_ID 0x4e505554
#define BUSY_TIMEOUT_MS 60000
#define BULK 64 /* rows per multi-row insert (256: 2 ms to prepare) */
/*
 * Pages in the WAL before a commit checkpoints it.  A process that opens
 * the trace reads the whole WAL back (SQLite rebuilds its index), and a
 * checkpoint costs two fsyncs: for a short run's ~60 pages the sum of
 * the two per run is least near 300-400 pages (SQLite's default: 1000).
 */
#define WAL_PAGES "400"

enum table {
#define NPU_TABLE(name, constraints, doc) T_##name,
#include "traces/schema.def"
	NTABLE
};

static const struct tabinfo {
	const char *name, *constraints, *doc;
} tabinfo[NTABLE] = {
#define NPU_TABLE(name, constraints, doc) { #name, constraints, doc },
#include "traces/schema.def"
};

/* One enumerator per table followed by one per column; a column's bind
 * index is its distance from its table's enumerator (1 for the first). */
enum colpos {
#define NPU_TABLE(name, constraints, doc) C_##name##_,
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
	"dram_to_sram", "sram_to_dram", "sram_to_sram", "dram_to_dram", "gather"
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

struct npu_trace {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *ins[NTABLE];   /* INSERT of every column, by position */
	sqlite3_stmt *bulk[NTABLE];  /* the same for BULK rows at once */
	int ncol[NTABLE];            /* columns per table */
	sqlite3_stmt *str_find;      /* id of a string */
	sqlite3_stmt *run_end;
	sqlite3_stmt *run_incomplete;
	strcache cache;
	int64_t run;                 /* run open, 0 when none */
	uint32_t nkernels;           /* kernels of its program */
	size_t batch;
	size_t pending;              /* bulk rows buffered */
	ROWVEC(struct kx_row) kx;
	ROWVEC(struct act_row) act;
	ROWVEC(struct dma_row) dma;
	ROWVEC(struct ctr_row) ctr;
	uint64_t rows;
	int indexed;                 /* every index of idxinfo exists */
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

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
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

/* Id of s in `strings`, inserting it if new; must run inside a write
 * transaction.  A cached id is valid because strings are never deleted and
 * the cache is cleared whenever a transaction that added one rolls back. */
static int intern(npu_trace *t, const char *s, int64_t *id, npu_err *e)
{
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
	sqlite3_bind_text(t->str_find, 1, s, -1, SQLITE_STATIC);
	rc = sqlite3_step(t->str_find);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(t->str_find, 0);
	sqlite3_reset(t->str_find);
	if (rc == SQLITE_DONE) {
		sqlite3_stmt *st = t->ins[T_strings];
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

static int tx_commit(npu_trace *t, npu_err *e)
{
	return exec(t, "COMMIT", "cannot commit", e);
}

static void tx_rollback(npu_trace *t)
{
	if (!sqlite3_get_autocommit(t->db))
		sqlite3_exec(t->db, "ROLLBACK", NULL, NULL, NULL);
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

static int create_tables(npu_trace *t, npu_err *e)
{
	char sql[8192];

	for (int i = 0; i < NTABLE; i++) {
		out o = { sql, sizeof sql, 0 };
		const char *sep = "";
		outf(&o, "CREATE TABLE %s (", tabinfo[i].name);
		for (size_t c = 0; c < NCOL; c++)
			if (colinfo[c].table == i) {
				outf(&o, "%s\n  %s %s", sep, colinfo[c].name,
				     colinfo[c].type);
				sep = ",";
			}
		if (*tabinfo[i].constraints)
			outf(&o, ",\n  %s", tabinfo[i].constraints);
		outf(&o, "\n)");
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

	st = t->ins[T_units];
	for (int u = 0; u < NPU_NUNIT; u++) {
		sqlite3_bind_int(st, COL(units, id), u);
		sqlite3_bind_text(st, COL(units, name), npu_unit_name(u), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, COL(units, kind), unit_kind(u), -1, SQLITE_STATIC);
		if (step_done(t, st, "cannot fill table units", e))
			return -1;
	}
	st = t->ins[T_states];
	for (int s = 0; s < NPU_NUSTATE; s++) {
		sqlite3_bind_int(st, COL(states, id), s);
		sqlite3_bind_text(st, COL(states, name), state_names[s], -1, SQLITE_STATIC);
		if (step_done(t, st, "cannot fill table states", e))
			return -1;
	}
	st = t->ins[T_dma_dirs];
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
	t->ncol[i] = k;
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

static int prepare_all(npu_trace *t, npu_err *e)
{
	for (int i = 0; i < NTABLE; i++)
		if (prepare_insert(t, i, 1, &t->ins[i], e))
			return -1;
	if (prepare_insert(t, T_activity, BULK, &t->bulk[T_activity], e) ||
	    prepare_insert(t, T_dma_xfers, BULK, &t->bulk[T_dma_xfers], e))
		return -1;
	if (prepare(t, &t->str_find, "SELECT id FROM strings WHERE text = ?1", e) ||
	    prepare(t, &t->run_end, "UPDATE runs SET total_cycles = ?1, "
		    "wall_s = ?2, status = ?3, exit_status = ?4 WHERE id = ?5", e) ||
	    prepare(t, &t->run_incomplete, "UPDATE runs SET status = "
		    "'incomplete' WHERE id = ?1 AND status = 'running'", e))
		return -1;
	return 0;
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
	if (create_tables(t, e) || prepare_all(t, e) || fill_names(t, e))
		goto fail;
	{
		char sql[96];
		snprintf(sql, sizeof sql, "PRAGMA application_id = %d; "
			 "PRAGMA user_version = %d", APP_ID,
			 NPU_TRACE_SCHEMA_VERSION);
		if (exec(t, sql, "cannot set the schema version", e))
			goto fail;
	}
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
	if (version != NPU_TRACE_SCHEMA_VERSION)
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

npu_trace *npu_trace_open(const char *path, npu_err *e)
{
	npu_trace *t = calloc(1, sizeof *t);
	int version;

	if (!t || !(t->path = strdup(path))) {
		npu_errf(e, "%s: out of memory", path);
		goto fail;
	}
	t->batch = NPU_TRACE_BATCH;
	/* NOMUTEX: a handle is used by one thread, so the per-call locking
	 * of a serialized build is pure cost. */
	if (sqlite3_open_v2(path, &t->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		if (!t->db)
			npu_errf(e, "%s: cannot open: out of memory", path);
		else
			dberr(t, e, "cannot open");
		goto fail;
	}
	sqlite3_busy_timeout(t->db, BUSY_TIMEOUT_MS);
	/* No checkpoint when the handle closes: that checkpoint costs two
	 * fsyncs and deleting and re-creating the WAL file (a third fsync,
	 * of the folder), milliseconds that a short run would pay every
	 * time.  The WAL is still checkpointed at the commit that takes it
	 * past WAL_PAGES pages, so it stays bounded; readers see it as part
	 * of the database, and the last read-write connection of another
	 * program to close (the sqlite3 shell) folds it in.
	 * docs/trace-schema.md says to copy the -wal file with the database,
	 * or to checkpoint first. */
	sqlite3_db_config(t->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
	if (pragma_int(t, "PRAGMA user_version", &version, e))
		goto fail;
	if (version > 0 && check_version(t, e))
		goto fail;
	/* WAL lets readers (queries, another appender's reads) go on while a
	 * batch is written; NORMAL skips the fsync per commit, which WAL makes
	 * safe against corruption (a power cut loses only the last batches). */
	if (set_wal(t, e) ||
	    exec(t, "PRAGMA synchronous = NORMAL", "cannot set synchronous", e) ||
	    exec(t, "PRAGMA cache_size = -32768", "cannot set the cache size", e) ||
	    exec(t, "PRAGMA wal_autocheckpoint = " WAL_PAGES, "cannot set the "
		 "checkpoint size", e))
		goto fail;
	if (version == 0) {
		if (init_schema(t, e) || check_version(t, e))
			goto fail;
	}
	if ((!t->ins[0] && prepare_all(t, e)) || count_indexes(t, e))
		goto fail;
	return t;
fail:
	npu_trace_close(t);
	return NULL;
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

static int insert_run(npu_trace *t, const npu_trace_run *run,
		      const npu_prog *p, npu_err *e)
{
	sqlite3_stmt *st = t->ins[T_runs];
	const char *tname = run->target_name;
	char started[32], hash[24];
	int64_t prog_id, tname_id;
	time_t now = time(NULL);
	struct tm tm;

	if (!tname && p)
		tname = p->target_name;
	if (intern(t, run->program, &prog_id, e) ||
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
	if (step_done(t, st, "cannot insert the run", e))
		return -1;
	t->run = sqlite3_last_insert_rowid(t->db);
	return 0;
}

static int insert_kernels(npu_trace *t, const npu_prog *p, npu_err *e)
{
	sqlite3_stmt *st = t->ins[T_kernels];

	for (uint32_t i = 0; i < p->nkernels; i++) {
		int64_t name;
		if (intern(t, p->kernels[i].name, &name, e))
			return -1;
		sqlite3_bind_int64(st, COL(kernels, run_id), t->run);
		sqlite3_bind_int64(st, COL(kernels, kernel), i);
		sqlite3_bind_int64(st, COL(kernels, name_id), name);
		sqlite3_bind_int64(st, COL(kernels, code_start), p->kernels[i].start);
		sqlite3_bind_int64(st, COL(kernels, code_end), p->kernels[i].end);
		if (step_done(t, st, "cannot insert a kernel", e))
			return -1;
		t->rows++;
	}
	st = t->ins[T_kernel_nodes];
	for (uint32_t i = 0; i < p->nkernels; i++)
		for (uint32_t j = 0; j < p->kernels[i].node_count; j++) {
			sqlite3_bind_int64(st, COL(kernel_nodes, run_id), t->run);
			sqlite3_bind_int64(st, COL(kernel_nodes, kernel), i);
			sqlite3_bind_int64(st, COL(kernel_nodes, node),
				p->kernel_nodes[p->kernels[i].node_first + j]);
			if (step_done(t, st, "cannot insert kernel provenance", e))
				return -1;
			t->rows++;
		}
	return 0;
}

static int insert_nodes(npu_trace *t, const npu_prog *p, npu_err *e)
{
	sqlite3_stmt *st = t->ins[T_nodes];

	for (uint32_t i = 0; i < p->nnodes; i++) {
		const npu_node *n = &p->nodes[i];
		int64_t name, target, module, source;
		if (intern(t, n->name, &name, e) ||
		    intern(t, n->target, &target, e) ||
		    intern(t, n->module, &module, e) ||
		    intern(t, n->source, &source, e))
			return -1;
		sqlite3_bind_int64(st, COL(nodes, run_id), t->run);
		sqlite3_bind_int64(st, COL(nodes, node), i);
		sqlite3_bind_int64(st, COL(nodes, name_id), name);
		sqlite3_bind_int64(st, COL(nodes, target_id), target);
		sqlite3_bind_int64(st, COL(nodes, module_id), module);
		sqlite3_bind_int64(st, COL(nodes, source_id), source);
		if (step_done(t, st, "cannot insert a node", e))
			return -1;
		t->rows++;
	}
	return 0;
}

int64_t npu_trace_begin(npu_trace *t, const npu_trace_run *run,
			const npu_prog *p, npu_err *e)
{
	if (t->run)
		return npu_errf(e, "%s: run %" PRId64 " is still open", t->path,
				t->run);
	if (p && check_prog(t, p, e))
		return -1;
	if (tx_begin(t, e))
		return -1;
	if (insert_run(t, run, p, e) ||
	    (p && (insert_nodes(t, p, e) || insert_kernels(t, p, e))) ||
	    tx_commit(t, e)) {
		tx_rollback(t);
		t->run = 0;
		return -1;
	}
	t->nkernels = p ? p->nkernels : 0;
	return t->run;
}

/* Binds activity row a at row offset `base` (row r: r * ncol). */
static void bind_act(sqlite3_stmt *st, int base, int64_t run,
		     const struct act_row *a)
{
	sqlite3_bind_int64(st, base + COL(activity, run_id), run);
	sqlite3_bind_int(st, base + COL(activity, unit), a->unit);
	sqlite3_bind_int(st, base + COL(activity, state), a->state);
	sqlite3_bind_int64(st, base + COL(activity, start_cycle), (int64_t)a->start);
	sqlite3_bind_int64(st, base + COL(activity, end_cycle), (int64_t)a->end);
	if (a->kernel < 0)
		sqlite3_bind_null(st, base + COL(activity, kernel));
	else
		sqlite3_bind_int(st, base + COL(activity, kernel), a->kernel);
}

static void bind_dma(sqlite3_stmt *st, int base, int64_t run,
		     const npu_trace_dma *d)
{
	sqlite3_bind_int64(st, base + COL(dma_xfers, run_id), run);
	sqlite3_bind_int(st, base + COL(dma_xfers, engine), d->engine);
	sqlite3_bind_int(st, base + COL(dma_xfers, dir), d->dir);
	sqlite3_bind_int64(st, base + COL(dma_xfers, bytes), (int64_t)d->bytes);
	sqlite3_bind_int64(st, base + COL(dma_xfers, bytes_touched), (int64_t)d->bytes_touched);
	sqlite3_bind_int64(st, base + COL(dma_xfers, issue_cycle), (int64_t)d->issue);
	sqlite3_bind_int64(st, base + COL(dma_xfers, start_cycle), (int64_t)d->start);
	sqlite3_bind_int64(st, base + COL(dma_xfers, end_cycle), (int64_t)d->end);
	if (d->kernel < 0)
		sqlite3_bind_null(st, base + COL(dma_xfers, kernel));
	else
		sqlite3_bind_int(st, base + COL(dma_xfers, kernel), d->kernel);
}

/* BULK rows per statement while there are that many, then one by one. */
static int write_act(npu_trace *t, npu_err *e)
{
	const int n = t->ncol[T_activity];
	size_t i = 0;

	for (; i + BULK <= t->act.n; i += BULK) {
		for (int r = 0; r < BULK; r++)
			bind_act(t->bulk[T_activity], r * n, t->run, &t->act.v[i + r]);
		if (step_done(t, t->bulk[T_activity], "cannot insert activity intervals", e))
			return -1;
	}
	for (; i < t->act.n; i++) {
		bind_act(t->ins[T_activity], 0, t->run, &t->act.v[i]);
		if (step_done(t, t->ins[T_activity], "cannot insert an activity interval", e))
			return -1;
	}
	return 0;
}

static int write_dma(npu_trace *t, npu_err *e)
{
	const int n = t->ncol[T_dma_xfers];
	size_t i = 0;

	for (; i + BULK <= t->dma.n; i += BULK) {
		for (int r = 0; r < BULK; r++)
			bind_dma(t->bulk[T_dma_xfers], r * n, t->run, &t->dma.v[i + r].d);
		if (step_done(t, t->bulk[T_dma_xfers], "cannot insert DMA transfers", e))
			return -1;
	}
	for (; i < t->dma.n; i++) {
		bind_dma(t->ins[T_dma_xfers], 0, t->run, &t->dma.v[i].d);
		if (step_done(t, t->ins[T_dma_xfers], "cannot insert a DMA transfer", e))
			return -1;
	}
	return 0;
}

/* Writes the buffered rows; inside a transaction. */
static int write_pending(npu_trace *t, npu_err *e)
{
	sqlite3_stmt *st;

	st = t->ins[T_kernel_execs];
	for (size_t i = 0; i < t->kx.n; i++) {
		const npu_trace_kernel *k = &t->kx.v[i].k;
		sqlite3_bind_int64(st, COL(kernel_execs, run_id), t->run);
		sqlite3_bind_int64(st, COL(kernel_execs, kernel), k->kernel);
		sqlite3_bind_int64(st, COL(kernel_execs, start_cycle), (int64_t)k->start);
		sqlite3_bind_int64(st, COL(kernel_execs, end_cycle), (int64_t)k->end);
		sqlite3_bind_int64(st, COL(kernel_execs, macs), (int64_t)k->macs);
		sqlite3_bind_int64(st, COL(kernel_execs, vec_ops), (int64_t)k->vec_ops);
		sqlite3_bind_int64(st, COL(kernel_execs, insns), (int64_t)k->insns);
		sqlite3_bind_int64(st, COL(kernel_execs, dram_rd_bytes), (int64_t)k->dram_rd);
		sqlite3_bind_int64(st, COL(kernel_execs, dram_wr_bytes), (int64_t)k->dram_wr);
		sqlite3_bind_int64(st, COL(kernel_execs, sram_rd_bytes), (int64_t)k->sram_rd);
		sqlite3_bind_int64(st, COL(kernel_execs, sram_wr_bytes), (int64_t)k->sram_wr);
		sqlite3_bind_int64(st, COL(kernel_execs, compute_cycles), (int64_t)k->compute);
		sqlite3_bind_int64(st, COL(kernel_execs, dma_wait_cycles), (int64_t)k->dma_wait);
		sqlite3_bind_int64(st, COL(kernel_execs, dep_stall_cycles), (int64_t)k->dep_stall);
		sqlite3_bind_int64(st, COL(kernel_execs, bank_stall_cycles), (int64_t)k->bank_stall);
		if (step_done(t, st, "cannot insert a kernel execution", e))
			return -1;
	}
	if (write_act(t, e) || write_dma(t, e))
		return -1;
	st = t->ins[T_counters];
	for (size_t i = 0; i < t->ctr.n; i++) {
		int64_t name;
		if (intern(t, t->ctr.v[i].name, &name, e))
			return -1;
		sqlite3_bind_int64(st, COL(counters, run_id), t->run);
		sqlite3_bind_int64(st, COL(counters, name_id), name);
		sqlite3_bind_double(st, COL(counters, value), t->ctr.v[i].value);
		if (step_done(t, st, "cannot insert a counter", e))
			return -1;
	}
	return 0;
}

/* Forgets the buffered rows once their transaction has committed. */
static void drop_pending(npu_trace *t)
{
	t->rows += t->kx.n + t->act.n + t->dma.n + t->ctr.n;
	for (size_t i = 0; i < t->ctr.n; i++)
		free(t->ctr.v[i].name);
	t->kx.n = t->act.n = t->dma.n = t->ctr.n = 0;
	t->pending = 0;
}

static int flush(npu_trace *t, npu_err *e)
{
	if (tx_begin(t, e))
		return -1;
	if (write_pending(t, e) || tx_commit(t, e)) {
		tx_rollback(t);
		return -1;
	}
	drop_pending(t);
	return 0;
}

/* Counts a buffered row and writes the batch when it is full. */
static int added(npu_trace *t, npu_err *e)
{
	if (++t->pending < t->batch)
		return 0;
	return flush(t, e);
}

static int no_run(const npu_trace *t, npu_err *e)
{
	return npu_errf(e, "%s: no run begun", t->path);
}

static int bad_kernel(const npu_trace *t, int kernel, npu_err *e)
{
	return npu_errf(e, "%s: run %" PRId64 ": kernel %d out of range "
			"(program has %u)", t->path, t->run, kernel, t->nkernels);
}

int npu_trace_kernel_exec(npu_trace *t, const npu_trace_kernel *k, npu_err *e)
{
	if (!t->run)
		return no_run(t, e);
	if (k->kernel < 0 || (uint32_t)k->kernel >= t->nkernels)
		return bad_kernel(t, k->kernel, e);
	if (k->end < k->start)
		return npu_errf(e, "%s: kernel %d: ends at cycle %" PRIu64
				" before it starts (%" PRIu64 ")", t->path,
				k->kernel, k->end, k->start);
	if (!ROWVEC_PUSH(t->kx, e, t->path))
		return -1;
	t->kx.v[t->kx.n++].k = *k;
	return added(t, e);
}

int npu_trace_activity(npu_trace *t, int unit, uint64_t start, uint64_t end,
		       int kernel, int state, npu_err *e)
{
	struct act_row *a;

	if (!t->run)
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
	if (!ROWVEC_PUSH(t->act, e, t->path))
		return -1;
	a = &t->act.v[t->act.n++];
	a->start = start;
	a->end = end;
	a->kernel = kernel;
	a->unit = (int16_t)unit;
	a->state = (int16_t)state;
	return added(t, e);
}

int npu_trace_dma_xfer(npu_trace *t, const npu_trace_dma *d, npu_err *e)
{
	if (!t->run)
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
	if (!ROWVEC_PUSH(t->dma, e, t->path))
		return -1;
	t->dma.v[t->dma.n++].d = *d;
	return added(t, e);
}

int npu_trace_counter(npu_trace *t, const char *name, double value, npu_err *e)
{
	char *copy;

	if (!t->run)
		return no_run(t, e);
	if (!name || !*name)
		return npu_errf(e, "%s: counter without a name", t->path);
	if (!ROWVEC_PUSH(t->ctr, e, t->path))
		return -1;
	if (!(copy = strdup(name)))
		return npu_errf(e, "%s: out of memory buffering rows", t->path);
	t->ctr.v[t->ctr.n].name = copy;
	t->ctr.v[t->ctr.n++].value = value;
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

int npu_trace_end(npu_trace *t, uint64_t total_cycles, double wall_s,
		  int status, npu_err *e)
{
	sqlite3_stmt *st = t->run_end;

	if (!t->run)
		return no_run(t, e);
	if (tx_begin(t, e))
		return -1;
	if (write_pending(t, e))
		goto fail;
	sqlite3_bind_int64(st, 1, (int64_t)total_cycles);
	sqlite3_bind_double(st, 2, wall_s);
	sqlite3_bind_text(st, 3, status == 0 ? "ok" : "failed", -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, status);
	sqlite3_bind_int64(st, 5, t->run);
	if (step_done(t, st, "cannot record the end of the run", e) ||
	    tx_commit(t, e))
		goto fail;
	drop_pending(t);
	t->run = 0;
	t->nkernels = 0;
	return t->indexed ? 0 : create_indexes(t, e);
fail:
	tx_rollback(t);
	return -1;
}

uint64_t npu_trace_rows(const npu_trace *t)
{
	return t->rows;
}

int64_t npu_trace_run_id(const npu_trace *t)
{
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

/* Best effort, as close cannot report: the buffered rows are written and
 * the run marked 'incomplete'; if even that fails the run stays 'running'
 * with the batches written before. */
static void abandon_run(npu_trace *t)
{
	sqlite3_stmt *st = t->run_incomplete;

	if (tx_begin(t, NULL))
		return;
	if (write_pending(t, NULL)) {
		tx_rollback(t);
		if (tx_begin(t, NULL))
			return;
	}
	sqlite3_bind_int64(st, 1, t->run);
	if (step_done(t, st, "", NULL) || tx_commit(t, NULL))
		tx_rollback(t);
	t->run = 0;
}

void npu_trace_close(npu_trace *t)
{
	if (!t)
		return;
	if (t->run && t->run_incomplete)
		abandon_run(t);
	drop_pending(t);
	for (int i = 0; i < NTABLE; i++) {
		sqlite3_finalize(t->ins[i]);
		sqlite3_finalize(t->bulk[i]);
	}
	sqlite3_finalize(t->str_find);
	sqlite3_finalize(t->run_end);
	sqlite3_finalize(t->run_incomplete);
	sqlite3_close(t->db);
	cache_clear(&t->cache);
	free(t->kx.v);
	free(t->act.v);
	free(t->dma.v);
	free(t->ctr.v);
	free(t->path);
	free(t);
}

/* ---- documentation ---- */

size_t npu_trace_schema_doc(char *buf, size_t n)
{
	out o = { buf, n, 0 };

	if (n)
		buf[0] = '\0';
	for (int i = 0; i < NTABLE; i++) {
		outf(&o, "### %s\n\n%s\n\n", tabinfo[i].name, tabinfo[i].doc);
		if (*tabinfo[i].constraints)
			outf(&o, "Constraint: `%s`.\n\n", tabinfo[i].constraints);
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
	return o.len;
}
