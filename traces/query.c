/*
 * query.c - canned questions about a trace, as data, and the printing of
 * any result as a table, CSV or JSON.
 *
 * Each canned query is one NPU_QUERY entry below: its SQL is the whole
 * answer (no C post-processing), so `npusim query TRACE --sql` can run the
 * same text by hand and docs/queries.md shows it.  One helper is C: the
 * SQL function npu_compute_busy(run, s, e), because merging a run's
 * compute intervals with window functions took seconds on big traces.  Every query reads one
 * run through the run_id indexes the trace writer creates, so it scales
 * with the rows of that run, not of the file.  Aggregates over the
 * activity table are avoided where a per-run counter already holds the sum
 * (units reads the "UNIT.STATE" counters the simulator writes).
 *
 * Column formats, one letter per column: s text, i integer (reals are
 * rounded in tables), p percentage (one decimal), f number (two decimals).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "traces/query.h"
#include "traces/trace.h"

/* "NPUT": PRAGMA application_id of trace databases (traces/trace.c). */
#define APP_ID 0x4e505554

/*
 * Node time, shared by nodes, ops and modules: the apportioning rule for
 * fused kernels is that each execution's cycles are split equally among
 * the kernel's FX nodes.  Kernels without nodes are left out.
 */
#define NODE_CYCLES(RUN) \
	"part AS (SELECT kernel, node, 1.0 / count(*) OVER (PARTITION BY kernel) AS share\n" \
	"  FROM kernel_nodes WHERE run_id = " RUN "),\n" \
	"kc AS (SELECT kernel, sum(end_cycle - start_cycle) AS cycles\n" \
	"  FROM kernel_execs WHERE run_id = " RUN " GROUP BY kernel),\n" \
	"nc AS (SELECT part.node, count(*) AS kernels, sum(kc.cycles * part.share) AS cycles\n" \
	"  FROM part JOIN kc ON kc.kernel = part.kernel GROUP BY part.node)"

/* Merges intervals (s, e) of a CTE into disjoint islands per key k.  The
 * running maximum includes the current row and lag() shifts it, because
 * a frame ending at 1 PRECEDING makes SQLite recompute max() per row. */
#define ISLANDS(SRC, DST) \
	SRC "_max AS (SELECT k, s, e, max(e) OVER (PARTITION BY k ORDER BY s, e\n" \
	"  ROWS UNBOUNDED PRECEDING) AS m FROM " SRC "),\n" \
	SRC "_prev AS (SELECT k, s, e, lag(m) OVER (PARTITION BY k ORDER BY s, e)\n" \
	"  AS prev FROM " SRC "_max),\n" \
	SRC "_grp AS (SELECT k, s, e, sum(prev IS NULL OR s > prev) OVER (PARTITION BY k\n" \
	"  ORDER BY s, e) AS g FROM " SRC "_prev),\n" \
	DST " AS (SELECT k, min(s) AS s, max(e) AS e FROM " SRC "_grp GROUP BY k, g)"

/* NPU_QUERY(name, nargs, column formats, summary, description, SQL) */
#define NPU_QUERIES(Q) \
Q(runs, 0, "isssiifss", \
  "every run in the file", \
  "Every run in the file: program, target, status, total cycles, wall-clock " \
  "seconds, kernel executions and label.", \
  "SELECT r.id AS run, p.text AS program, t.text AS target, r.status,\n" \
  "  r.total_cycles AS cycles,\n" \
  "  (SELECT count(*) FROM kernel_execs e WHERE e.run_id = r.id) AS kernel_execs,\n" \
  "  r.wall_s, coalesce(r.label, '') AS label, r.started\n" \
  "FROM runs r\n" \
  "LEFT JOIN strings p ON p.id = r.program_id\n" \
  "LEFT JOIN strings t ON t.id = r.target_name_id\n" \
  "ORDER BY r.id") \
Q(kernels, 0, "siipfiifs", \
  "top kernels by cycles: share, MAC utilization, DRAM bytes, bound", \
  "Kernels by cycles (summed over executions), with their share of the " \
  "run's cycles, MAC utilization (MACs over the array's peak MACs/cycle " \
  "times the kernel's cycles), DRAM bytes, MACs per DRAM byte and what " \
  "bounds them: 'memory' when moving its DRAM bytes at the lower of the " \
  "DRAM and all-DMA-engines bandwidth takes longer than its MACs at the " \
  "array's peak plus its vector operations at lanes_per_cycle, else " \
  "'compute', 'latency' when neither reaches half the kernel's cycles " \
  "(waits and dependencies dominate), and 'other' for a kernel with no " \
  "MACs, vector operations or DRAM bytes (host calls, scalar code).", \
  "WITH k AS (SELECT kernel, count(*) AS calls,\n" \
  "    sum(end_cycle - start_cycle) AS cycles, sum(macs) AS macs,\n" \
  "    sum(vec_ops) AS vec_ops, sum(dram_rd_bytes) AS rd, sum(dram_wr_bytes) AS wr\n" \
  "  FROM kernel_execs WHERE run_id = :run GROUP BY kernel),\n" \
  "t AS (SELECT k.*, k.macs / :mxu_peak + k.vec_ops / :vec_peak AS t_compute,\n" \
  "    (k.rd + k.wr) / :mem_bw AS t_memory FROM k)\n" \
  "SELECT s.text AS kernel, t.calls, t.cycles,\n" \
  "  100.0 * t.cycles / nullif(r.total_cycles, 0) AS pct_run,\n" \
  "  100.0 * t.macs / (:mxu_peak * nullif(t.cycles, 0)) AS mac_util,\n" \
  "  t.rd AS dram_rd, t.wr AS dram_wr,\n" \
  "  1.0 * t.macs / nullif(t.rd + t.wr, 0) AS macs_per_byte,\n" \
  "  CASE WHEN t.t_compute IS NULL THEN NULL\n" \
  "    WHEN t.macs + t.vec_ops + t.rd + t.wr = 0 THEN 'other'\n" \
  "    WHEN max(t.t_compute, t.t_memory) < 0.5 * t.cycles THEN 'latency'\n" \
  "    WHEN t.t_memory > t.t_compute THEN 'memory' ELSE 'compute' END AS bound\n" \
  "FROM t JOIN runs r ON r.id = :run\n" \
  "JOIN kernels kk ON kk.run_id = :run AND kk.kernel = t.kernel\n" \
  "JOIN strings s ON s.id = kk.name_id\n" \
  "ORDER BY t.cycles DESC, kernel") \
Q(nodes, 0, "sssiips", \
  "time per FX node (fused kernels split equally)", \
  "Time per FX node.  Apportioning rule: each execution of a fused kernel " \
  "gives its cycles to the kernel's nodes in equal parts (a kernel " \
  "computing mm and relu gives half to each); kernels without nodes are " \
  "left out.  kernels is how many kernels compute the node.", \
  "WITH " NODE_CYCLES(":run") "\n" \
  "SELECT s.text AS node, t.text AS aten, m.text AS module, nc.kernels,\n" \
  "  nc.cycles, 100.0 * nc.cycles / nullif(r.total_cycles, 0) AS pct_run,\n" \
  "  src.text AS source\n" \
  "FROM nc JOIN nodes n ON n.run_id = :run AND n.node = nc.node\n" \
  "JOIN strings s ON s.id = n.name_id JOIN strings t ON t.id = n.target_id\n" \
  "JOIN strings m ON m.id = n.module_id JOIN strings src ON src.id = n.source_id\n" \
  "JOIN runs r ON r.id = :run\n" \
  "ORDER BY nc.cycles DESC, node") \
Q(ops, 0, "siip", \
  "time per ATen op", \
  "Time per ATen op (the nodes' time, apportioned as in nodes, summed by " \
  "ATen target).", \
  "WITH " NODE_CYCLES(":run") "\n" \
  "SELECT t.text AS aten, count(*) AS nodes, sum(nc.cycles) AS cycles,\n" \
  "  100.0 * sum(nc.cycles) / nullif(r.total_cycles, 0) AS pct_run\n" \
  "FROM nc JOIN nodes n ON n.run_id = :run AND n.node = nc.node\n" \
  "JOIN strings t ON t.id = n.target_id JOIN runs r ON r.id = :run\n" \
  "GROUP BY n.target_id ORDER BY cycles DESC, aten") \
Q(modules, 0, "siiip", \
  "time per nn.Module path, rolled up the hierarchy", \
  "Time per nn.Module path, rolled up the hierarchy: a node of module " \
  "a.b.c counts in a.b.c, a.b and a (nodes apportioned as in nodes); " \
  "nodes without a module count in '(none)'.  Rows are in tree order; " \
  "depth 1 is a top-level module.", \
  "WITH RECURSIVE " NODE_CYCLES(":run") ",\n" \
  "nm AS (SELECT m.text AS path, nc.cycles FROM nc\n" \
  "  JOIN nodes n ON n.run_id = :run AND n.node = nc.node\n" \
  "  JOIN strings m ON m.id = n.module_id),\n" \
  "split(prefix, rest, depth, cycles) AS (\n" \
  "  SELECT CASE WHEN path = '' THEN '(none)'\n" \
  "    ELSE substr(path, 1, instr(path || '.', '.') - 1) END,\n" \
  "    CASE WHEN path = '' THEN '' ELSE substr(path, instr(path || '.', '.') + 1) END,\n" \
  "    1, cycles FROM nm\n" \
  "  UNION ALL\n" \
  "  SELECT prefix || '.' || substr(rest, 1, instr(rest || '.', '.') - 1),\n" \
  "    substr(rest, instr(rest || '.', '.') + 1), depth + 1, cycles\n" \
  "  FROM split WHERE rest <> '')\n" \
  "SELECT prefix AS module, depth, count(*) AS nodes, sum(cycles) AS cycles,\n" \
  "  100.0 * sum(cycles) / nullif((SELECT total_cycles FROM runs WHERE id = :run), 0)\n" \
  "    AS pct_run\n" \
  "FROM split GROUP BY prefix ORDER BY replace(prefix, '.', char(1))") \
Q(units, 0, "ssipppppp", \
  "utilization and stall breakdown per unit", \
  "Utilization and stall breakdown per unit: the share of the run's cycles " \
  "each unit spent busy, waiting on DMA, stalled on a dependency, stalled " \
  "on an SRAM bank, and idle (from the UNIT.STATE counters the simulator " \
  "writes, which sum exactly to the run's cycles).", \
  "WITH c AS (SELECT substr(s.text, 1, instr(s.text, '.') - 1) AS unit,\n" \
  "    substr(s.text, instr(s.text, '.') + 1) AS state, c.value AS v\n" \
  "  FROM counters c JOIN strings s ON s.id = c.name_id\n" \
  "  WHERE c.run_id = :run AND instr(s.text, '.') > 0),\n" \
  "tot AS (SELECT nullif(total_cycles, 0) AS t FROM runs WHERE id = :run)\n" \
  "SELECT u.name AS unit, u.kind,\n" \
  "  sum(v * (state = 'busy')) AS busy_cycles,\n" \
  "  100.0 * sum(v * (state = 'busy')) / tot.t AS busy,\n" \
  "  100.0 * sum(v * (state = 'dma_wait')) / tot.t AS dma_wait,\n" \
  "  100.0 * sum(v * (state = 'dep_stall')) / tot.t AS dep_stall,\n" \
  "  100.0 * sum(v * (state = 'bank_stall')) / tot.t AS bank_stall,\n" \
  "  100.0 * sum(v * (state = 'idle')) / tot.t AS idle,\n" \
  "  100.0 * sum(v * (state <> 'idle')) / tot.t AS not_idle\n" \
  "FROM c JOIN units u ON u.name = c.unit, tot\n" \
  "GROUP BY u.id ORDER BY u.id") \
Q(overlap, 0, "siiiip", \
  "DMA/compute overlap per kernel", \
  "DMA/compute overlap per kernel, most DMA time first: dma_cycles is the time the kernel's " \
  "transfers were moving data (their union, so two engines at once count " \
  "once), overlapped the part of it when the vector or matrix unit was " \
  "busy (with any kernel's work), next to the kernel's cycles and the " \
  "cycles its units waited on DMA.  npu_compute_busy(RUN, S, E) is a " \
  "function of npusim's connection: the cycles of [S, E) in which the " \
  "vector or matrix unit of the run was busy (their activity merged once " \
  "per run into sorted islands with prefix sums, then two binary " \
  "searches per call), which keeps the query interactive on millions of " \
  "activity rows.", \
  "WITH xfer AS (SELECT kernel AS k, start_cycle AS s, end_cycle AS e\n" \
  "  FROM dma_xfers WHERE run_id = :run AND kernel IS NOT NULL),\n" \
  ISLANDS("xfer", "dma") ",\n" \
  "ov AS (SELECT k, sum(e - s) AS dma_cycles,\n" \
  "    sum(npu_compute_busy(:run, s, e)) AS overlapped FROM dma GROUP BY k),\n" \
  "kx AS (SELECT kernel, sum(end_cycle - start_cycle) AS cycles,\n" \
  "    sum(dma_wait_cycles) AS dma_wait FROM kernel_execs WHERE run_id = :run\n" \
  "  GROUP BY kernel)\n" \
  "SELECT s.text AS kernel, kx.cycles, kx.dma_wait AS dma_wait_cycles,\n" \
  "  ov.dma_cycles, ov.overlapped,\n" \
  "  100.0 * ov.overlapped / nullif(ov.dma_cycles, 0) AS pct_overlapped\n" \
  "FROM ov JOIN kernels k ON k.run_id = :run AND k.kernel = ov.k\n" \
  "JOIN strings s ON s.id = k.name_id\n" \
  "LEFT JOIN kx ON kx.kernel = ov.k\n" \
  "ORDER BY ov.dma_cycles DESC, kernel") \
Q(diff, 2, "ssiiip", \
  "per-kernel and per-node cycle deltas between two runs", \
  "Differences between two runs (diff RUN_A RUN_B): total cycles, then " \
  "cycles per kernel and per FX node (apportioned as in nodes), matched " \
  "by name; delta is B - A and pct is delta over A.  A name missing from " \
  "one run has an empty cell there.", \
  "WITH kc AS (SELECT e.run_id, s.text AS name, sum(e.end_cycle - e.start_cycle) AS cycles\n" \
  "  FROM kernel_execs e JOIN kernels k ON k.run_id = e.run_id AND k.kernel = e.kernel\n" \
  "  JOIN strings s ON s.id = k.name_id WHERE e.run_id IN (:a, :b)\n" \
  "  GROUP BY e.run_id, s.text),\n" \
  "part AS (SELECT run_id, kernel, node,\n" \
  "    1.0 / count(*) OVER (PARTITION BY run_id, kernel) AS share\n" \
  "  FROM kernel_nodes WHERE run_id IN (:a, :b)),\n" \
  "kt AS (SELECT run_id, kernel, sum(end_cycle - start_cycle) AS cycles\n" \
  "  FROM kernel_execs WHERE run_id IN (:a, :b) GROUP BY run_id, kernel),\n" \
  "nc AS (SELECT part.run_id, s.text AS name, sum(kt.cycles * part.share) AS cycles\n" \
  "  FROM part JOIN kt ON kt.run_id = part.run_id AND kt.kernel = part.kernel\n" \
  "  JOIN nodes n ON n.run_id = part.run_id AND n.node = part.node\n" \
  "  JOIN strings s ON s.id = n.name_id GROUP BY part.run_id, s.text),\n" \
  "d AS (\n" \
  "  SELECT 0 AS o, 'run' AS kind, 'total' AS name,\n" \
  "    (SELECT total_cycles FROM runs WHERE id = :a) AS a,\n" \
  "    (SELECT total_cycles FROM runs WHERE id = :b) AS b\n" \
  "  UNION ALL SELECT 1, 'kernel', name, max(CASE WHEN run_id = :a THEN cycles END),\n" \
  "    max(CASE WHEN run_id = :b THEN cycles END) FROM kc GROUP BY name\n" \
  "  UNION ALL SELECT 2, 'node', name, max(CASE WHEN run_id = :a THEN cycles END),\n" \
  "    max(CASE WHEN run_id = :b THEN cycles END) FROM nc GROUP BY name)\n" \
  "SELECT kind, name, a AS cycles_a, b AS cycles_b,\n" \
  "  coalesce(b, 0) - coalesce(a, 0) AS delta,\n" \
  "  100.0 * (coalesce(b, 0) - coalesce(a, 0)) / nullif(a, 0) AS pct\n" \
  "FROM d ORDER BY o, abs(delta) DESC, name")

static const struct query {
	const char *name;
	int nargs;
	const char *fmt, *summary, *desc, *sql;
} queries[] = {
#define Q(name, nargs, fmt, summary, desc, sql) { #name, nargs, fmt, summary, desc, sql },
	NPU_QUERIES(Q)
#undef Q
};
#define NQUERY ((int)(sizeof queries / sizeof *queries))

/* The compute-busy islands of one run, for npu_compute_busy(). */
typedef struct busy_cache {
	int64_t run;           /* 0: not loaded */
	size_t n;
	uint64_t *s, *e;       /* disjoint islands, sorted */
	uint64_t *before;      /* busy cycles before island i */
} busy_cache;

struct npu_qdb {
	sqlite3 *db;
	char *path;
	busy_cache busy;
};

/* ---- npu_compute_busy(run, s, e) ---- */

typedef struct ival { uint64_t s, e; } ival;

static int ival_cmp(const void *a, const void *b)
{
	const ival *x = a, *y = b;
	return x->s < y->s ? -1 : x->s > y->s ? 1 : 0;
}

static void busy_free(busy_cache *c)
{
	free(c->s);
	free(c->e);
	free(c->before);
	memset(c, 0, sizeof *c);
}

static int has_index(npu_qdb *q)
{
	sqlite3_stmt *st;
	int yes = 0;

	if (sqlite3_prepare_v2(q->db, "SELECT 1 FROM sqlite_master WHERE type = "
			       "'index' AND name = '" NPU_QUERY_INDEX "'", -1, &st,
			       NULL) != SQLITE_OK)
		return 0;
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/*
 * Loads the vector and matrix units' busy intervals of a run.  The rows of
 * a run sit in one rowid range (batches of concurrent writers interleave,
 * hence the run_id test), and scanning that range is about twice as fast
 * as visiting every row through the run_id index.
 */
static int busy_load(npu_qdb *q, int64_t run)
{
	static const char scan[] =
		"SELECT start_cycle, end_cycle FROM activity\n"
		"WHERE rowid BETWEEN (SELECT min(rowid) FROM activity WHERE run_id = ?1)\n"
		"  AND (SELECT max(rowid) FROM activity WHERE run_id = ?1)\n"
		"  AND +run_id = ?1 AND unit IN (1, 2) AND state = 0";
	/* With the index of npu_qdb_add_indexes(): only the rows wanted. */
	static const char indexed[] =
		"SELECT start_cycle, end_cycle FROM activity INDEXED BY " NPU_QUERY_INDEX "\n"
		"WHERE run_id = ?1 AND state = 0 AND unit IN (1, 2)";
	const char *sql = has_index(q) ? indexed : scan;
	sqlite3_stmt *st;
	ival *v = NULL;
	size_t n = 0, cap = 0, m = 0;
	busy_cache c = { 0 };
	int rc;

	if (sqlite3_prepare_v2(q->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			ival *nv = realloc(v, (cap = cap ? 2 * cap : 4096) * sizeof *v);
			if (!nv)
				break;
			v = nv;
		}
		v[n].s = (uint64_t)sqlite3_column_int64(st, 0);
		v[n].e = (uint64_t)sqlite3_column_int64(st, 1);
		if (v[n].e > v[n].s)
			n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		goto fail;
	if (n)
		qsort(v, n, sizeof *v, ival_cmp);
	/* Merge into islands in place; vec and mxu may be busy at once. */
	for (size_t i = 0; i < n; i++) {
		if (m && v[i].s <= v[m - 1].e) {
			if (v[i].e > v[m - 1].e)
				v[m - 1].e = v[i].e;
		} else {
			v[m++] = v[i];
		}
	}
	c.s = malloc((m + 1) * sizeof *c.s);
	c.e = malloc((m + 1) * sizeof *c.e);
	c.before = malloc((m + 1) * sizeof *c.before);
	if (!c.s || !c.e || !c.before)
		goto fail;
	for (size_t i = 0; i < m; i++) {
		c.s[i] = v[i].s;
		c.e[i] = v[i].e;
		c.before[i] = i ? c.before[i - 1] + (c.e[i - 1] - c.s[i - 1]) : 0;
	}
	c.n = m;
	c.run = run;
	free(v);
	busy_free(&q->busy);
	q->busy = c;
	return 0;
fail:
	free(v);
	busy_free(&c);
	return -1;
}

/* Busy cycles in [0, t). */
static uint64_t busy_upto(const busy_cache *c, uint64_t t)
{
	size_t lo = 0, hi = c->n;

	/* the first island starting at or after t */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->s[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	lo--;
	return c->before[lo] + ((t < c->e[lo] ? t : c->e[lo]) - c->s[lo]);
}

static void fn_compute_busy(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	npu_qdb *q = sqlite3_user_data(ctx);
	int64_t run = sqlite3_value_int64(argv[0]);
	sqlite3_int64 s = sqlite3_value_int64(argv[1]);
	sqlite3_int64 e = sqlite3_value_int64(argv[2]);

	(void)argc;
	if (q->busy.run != run && busy_load(q, run) < 0) {
		sqlite3_result_error(ctx, "npu_compute_busy: cannot read the "
				     "activity", -1);
		return;
	}
	if (s < 0)
		s = 0;
	if (e <= s) {
		sqlite3_result_int64(ctx, 0);
		return;
	}
	sqlite3_result_int64(ctx, (sqlite3_int64)(busy_upto(&q->busy, (uint64_t)e) -
						  busy_upto(&q->busy, (uint64_t)s)));
}

/* ---- opening ---- */

static int dberr(npu_qdb *q, npu_err *e, const char *what)
{
	return npu_errf(e, "%s: %s: %s", q->path, what, sqlite3_errmsg(q->db));
}

static int pragma_int(npu_qdb *q, const char *sql, int *out, npu_err *e)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(q->db, sql, -1, &st, NULL) != SQLITE_OK) {
		if (sqlite3_errcode(q->db) == SQLITE_NOTADB)
			return npu_errf(e, "%s: not an SQLite database", q->path);
		return dberr(q, e, "cannot read the schema version");
	}
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		if (rc == SQLITE_NOTADB)
			return npu_errf(e, "%s: not an SQLite database", q->path);
		return dberr(q, e, "cannot read the schema version");
	}
	return 0;
}

/* Sets *old for a trace of an older schema that npu_trace_open
 * upgrades. */
static int check_schema(npu_qdb *q, int *old, npu_err *e)
{
	int version, app;

	if (pragma_int(q, "PRAGMA user_version", &version, e) ||
	    pragma_int(q, "PRAGMA application_id", &app, e))
		return -1;
	if (app != APP_ID)
		return npu_errf(e, "%s: not an npusim trace", q->path);
	if (version > NPU_TRACE_SCHEMA_VERSION)
		return npu_errf(e, "%s: schema version %d is newer than this "
				"npusim (%d)", q->path, version,
				NPU_TRACE_SCHEMA_VERSION);
	if (version < NPU_TRACE_SCHEMA_OLDEST)
		return npu_errf(e, "%s: schema version %d is older than this "
				"npusim (%d)", q->path, version,
				NPU_TRACE_SCHEMA_VERSION);
	*old = version < NPU_TRACE_SCHEMA_VERSION;
	return 0;
}

/* Opens q->path read-only and checks its schema; a trace of an older
 * schema is upgraded first (which needs it writable), once. */
static int open_ro(npu_qdb *q, npu_err *e)
{
	for (int tries = 0;; tries++) {
		npu_trace *t;
		int old = 0;
		if (sqlite3_open_v2(q->path, &q->db, SQLITE_OPEN_READONLY |
				    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
			if (!q->db)
				return npu_errf(e, "%s: cannot open: out of "
						"memory", q->path);
			return dberr(q, e, "cannot open");
		}
		sqlite3_busy_timeout(q->db, 10000);
		if (check_schema(q, &old, e))
			return -1;
		if (!old)
			return 0;
		sqlite3_close(q->db);
		q->db = NULL;
		if (tries)
			return npu_errf(e, "%s: the schema was not upgraded",
					q->path);
		if (!(t = npu_trace_open(q->path, e)))
			return -1;
		npu_trace_close(t);
	}
}

npu_qdb *npu_qdb_open(const char *path, npu_err *e)
{
	npu_qdb *q = calloc(1, sizeof *q);
	struct stat sb;

	if (!q || !(q->path = strdup(path))) {
		npu_errf(e, "%s: out of memory", path);
		goto fail;
	}
	/* SQLite would say only "unable to open database file". */
	if (stat(path, &sb) < 0) {
		npu_errf(e, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(sb.st_mode)) {
		npu_errf(e, "%s: not a regular file", path);
		goto fail;
	}
	if (open_ro(q, e))
		goto fail;
	/* Reading pages through a map saves a copy per page on big scans. */
	sqlite3_exec(q->db, "PRAGMA mmap_size = 1073741824", NULL, NULL, NULL);
	if (sqlite3_create_function(q->db, "npu_compute_busy", 3, SQLITE_UTF8,
				    q, fn_compute_busy, NULL, NULL) != SQLITE_OK) {
		dberr(q, e, "cannot register npu_compute_busy");
		goto fail;
	}
	return q;
fail:
	npu_qdb_close(q);
	return NULL;
}

int npu_qdb_add_indexes(const char *path, npu_err *e)
{
	sqlite3 *db = NULL;
	char *msg = NULL;
	int rc = -1;
	npu_qdb *q = npu_qdb_open(path, e);   /* the same checks first */

	if (!q)
		return -1;
	npu_qdb_close(q);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		npu_errf(e, "%s: cannot open for writing: %s", path,
			 db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(db, 60000);
	if (sqlite3_exec(db, "CREATE INDEX IF NOT EXISTS " NPU_QUERY_INDEX
			 " ON activity (run_id, state, unit, start_cycle, end_cycle)",
			 NULL, NULL, &msg) != SQLITE_OK) {
		npu_errf(e, "%s: cannot create index " NPU_QUERY_INDEX ": %s", path,
			 msg ? msg : sqlite3_errmsg(db));
		goto out;
	}
	rc = 0;
out:
	sqlite3_free(msg);
	sqlite3_close(db);
	return rc;
}

void npu_qdb_close(npu_qdb *q)
{
	if (!q)
		return;
	sqlite3_close(q->db);
	busy_free(&q->busy);
	free(q->path);
	free(q);
}

sqlite3 *npu_qdb_handle(npu_qdb *q) { return q->db; }
const char *npu_qdb_path(const npu_qdb *q) { return q->path; }

/* ---- a run and its target ---- */

static void copy_col(char *dst, size_t n, sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	snprintf(dst, n, "%s", s ? (const char *)s : "");
}

/* Ceilings of the run's target, when the target can still be found under
 * its name with the hash the run recorded (else the numbers would lie). */
static void load_target(npu_qrun *r, const char *hash)
{
	char path[4096];
	npu_err e = { "" };
	const npu_target *t = &r->target;
	double rate = 0;

	r->clock_mhz = 1000;
	if (!*r->target_name ||
	    npu_target_resolve(r->target_name, path, sizeof path, &e) < 0 ||
	    npu_target_load(&r->target, path, &e) < 0)
		return;
	if (*hash && strtoull(hash, NULL, 16) != t->hash)
		return;
	r->has_target = 1;
	r->clock_mhz = t->clock_mhz;
	rate = t->mxu_rate[NPU_DT_BF16];
	for (int i = 0; !rate && i < NPU_NDTYPE; i++)
		if (t->mxu_rate[i] > rate)
			rate = t->mxu_rate[i];
	r->mxu_peak = (double)t->mxu_rows * t->mxu_cols * (rate ? rate : 1);
	r->vec_peak = t->vec_lanes;
	r->mem_bw = t->dram_bytes_per_cycle;
	if (t->dma_engines * t->dma_bytes_per_cycle < r->mem_bw)
		r->mem_bw = t->dma_engines * t->dma_bytes_per_cycle;
}

int npu_qdb_run(npu_qdb *q, int64_t id, npu_qrun *r, npu_err *e)
{
	static const char sql[] =
		"SELECT r.id, p.text, t.text, coalesce(r.label, ''), r.status,\n"
		"  coalesce(r.total_cycles, 0), coalesce(r.target_hash, ''),\n"
		"  (SELECT count(*) FROM runs)\n"
		"FROM runs r LEFT JOIN strings p ON p.id = r.program_id\n"
		"LEFT JOIN strings t ON t.id = r.target_name_id\n"
		"WHERE r.id = CASE WHEN ?1 > 0 THEN ?1 ELSE (SELECT max(id) FROM runs) END";
	sqlite3_stmt *st;
	char hash[32];
	int rc;

	memset(r, 0, sizeof *r);
	if (sqlite3_prepare_v2(q->db, sql, -1, &st, NULL) != SQLITE_OK)
		return dberr(q, e, "cannot read its runs");
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		r->id = sqlite3_column_int64(st, 0);
		copy_col(r->program, sizeof r->program, st, 1);
		copy_col(r->target_name, sizeof r->target_name, st, 2);
		copy_col(r->label, sizeof r->label, st, 3);
		copy_col(r->status, sizeof r->status, st, 4);
		r->total_cycles = (uint64_t)sqlite3_column_int64(st, 5);
		copy_col(hash, sizeof hash, st, 6);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE) {
		if (id > 0)
			return npu_errf(e, "%s: no run %" PRId64 " (see 'npusim "
					"query %s runs')", q->path, id, q->path);
		return npu_errf(e, "%s: the trace holds no runs", q->path);
	}
	if (rc != SQLITE_ROW)
		return dberr(q, e, "cannot read its runs");
	load_target(r, hash);
	return 0;
}

/* ---- the table ---- */

int npu_query_count(void) { return NQUERY; }
const char *npu_query_name(int i) { return queries[i].name; }
int npu_query_nargs(int i) { return queries[i].nargs; }
const char *npu_query_desc(int i) { return queries[i].desc; }
const char *npu_query_summary(int i) { return queries[i].summary; }
const char *npu_query_sql(int i) { return queries[i].sql; }

int npu_query_find(const char *name)
{
	for (int i = 0; i < NQUERY; i++)
		if (!strcmp(queries[i].name, name))
			return i;
	return -1;
}

size_t npu_query_doc(char *buf, size_t n)
{
	size_t len = 0;

#define ADD(...) do { \
		int k_ = snprintf(len < n ? buf + len : NULL, \
				  len < n ? n - len : 0, __VA_ARGS__); \
		len += k_ > 0 ? (size_t)k_ : 0; \
	} while (0)
	if (n)
		buf[0] = 0;
	for (int i = 0; i < NQUERY; i++) {
		const struct query *qq = &queries[i];
		ADD("### %s%s\n\n%s\n\n```sql\n%s;\n```\n\n", qq->name,
		    qq->nargs ? " RUN_A RUN_B" : "", qq->desc, qq->sql);
	}
#undef ADD
	return len;
}

/* ---- results ---- */

void npu_qres_free(npu_qres *res)
{
	if (!res)
		return;
	for (size_t i = 0; res->cells && i < res->nrows * (size_t)res->ncols; i++)
		free(res->cells[i].s);
	for (int c = 0; res->names && c < res->ncols; c++)
		free(res->names[c]);
	free(res->names);
	free(res->fmt);
	free(res->cells);
	memset(res, 0, sizeof *res);
}

/* Reads every row of st into res; fmt gives the column formats or NULL
 * (then from the first row's types). */
static int fetch(npu_qdb *q, sqlite3_stmt *st, const char *fmt, npu_qres *res,
		 npu_err *e)
{
	size_t cap = 0;
	int rc, nc = sqlite3_column_count(st);

	memset(res, 0, sizeof *res);
	res->ncols = nc;
	res->names = calloc((size_t)nc + 1, sizeof *res->names);
	res->fmt = calloc((size_t)nc + 1, 1);
	if (!res->names || !res->fmt)
		goto oom;
	for (int c = 0; c < nc; c++) {
		if (!(res->names[c] = strdup(sqlite3_column_name(st, c))))
			goto oom;
		res->fmt[c] = fmt && c < (int)strlen(fmt) ? fmt[c] : 0;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		npu_qcell *row;
		if (res->nrows == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			npu_qcell *nb = realloc(res->cells, ncap * (size_t)(nc ? nc : 1) * sizeof *nb);
			if (!nb)
				goto oom;
			res->cells = nb;
			cap = ncap;
		}
		row = res->cells + res->nrows * (size_t)nc;
		memset(row, 0, (size_t)nc * sizeof *row);
		res->nrows++;
		for (int c = 0; c < nc; c++) {
			switch (sqlite3_column_type(st, c)) {
			case SQLITE_INTEGER:
				row[c].type = NPU_QT_INT;
				row[c].i = sqlite3_column_int64(st, c);
				row[c].d = (double)row[c].i;
				break;
			case SQLITE_FLOAT:
				row[c].type = NPU_QT_REAL;
				row[c].d = sqlite3_column_double(st, c);
				break;
			case SQLITE_NULL:
				break;
			default: {
				const char *s = (const char *)sqlite3_column_text(st, c);
				row[c].type = NPU_QT_TEXT;
				if (!(row[c].s = strdup(s ? s : "")))
					goto oom;
			}
			}
			if (!res->fmt[c] && row[c].type != NPU_QT_NULL)
				res->fmt[c] = row[c].type == NPU_QT_INT ? 'i' :
					row[c].type == NPU_QT_REAL ? 'g' : 's';
		}
	}
	if (rc != SQLITE_DONE) {
		dberr(q, e, "query failed");
		goto fail;
	}
	for (int c = 0; c < nc; c++)
		if (!res->fmt[c])
			res->fmt[c] = 's';
	return 0;
oom:
	npu_errf(e, "%s: out of memory reading a result", q->path);
fail:
	npu_qres_free(res);
	return -1;
}

static void bind_num(sqlite3_stmt *st, const char *name, double v, int ok)
{
	int i = sqlite3_bind_parameter_index(st, name);

	if (!i)
		return;
	if (ok && v > 0)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void bind_id(sqlite3_stmt *st, const char *name, int64_t v)
{
	int i = sqlite3_bind_parameter_index(st, name);

	if (i)
		sqlite3_bind_int64(st, i, v);
}

int npu_query_exec(npu_qdb *q, int i, const npu_qrun *r, const int64_t *args,
		   npu_qres *out, npu_err *e)
{
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof *out);
	if (i < 0 || i >= NQUERY)
		return npu_errf(e, "no canned query %d", i);
	if (sqlite3_prepare_v2(q->db, queries[i].sql, -1, &st, NULL) != SQLITE_OK)
		return npu_errf(e, "%s: query '%s': %s", q->path, queries[i].name,
				sqlite3_errmsg(q->db));
	bind_id(st, ":run", r->id);
	if (queries[i].nargs == 2) {
		bind_id(st, ":a", args[0]);
		bind_id(st, ":b", args[1]);
	}
	bind_num(st, ":mxu_peak", r->mxu_peak, r->has_target);
	bind_num(st, ":vec_peak", r->vec_peak, r->has_target);
	bind_num(st, ":mem_bw", r->mem_bw, r->has_target);
	bind_num(st, ":clock_mhz", r->clock_mhz, r->has_target);
	rc = fetch(q, st, queries[i].fmt, out, e);
	sqlite3_finalize(st);
	return rc ? npu_err_prefix(e, "query '%s'", queries[i].name) : 0;
}

int npu_query_user(npu_qdb *q, const char *sql, npu_qres *out, npu_err *e)
{
	sqlite3_stmt *st = NULL;
	const char *tail;
	int rc;

	memset(out, 0, sizeof *out);
	if (sqlite3_prepare_v2(q->db, sql, -1, &st, &tail) != SQLITE_OK)
		return npu_errf(e, "--sql: %s", sqlite3_errmsg(q->db));
	if (!st)
		return npu_errf(e, "--sql: no statement");
	tail += strspn(tail, " \t\r\n;");
	if (*tail) {
		sqlite3_finalize(st);
		return npu_errf(e, "--sql: one statement only (more follows "
				"at '%.20s')", tail);
	}
	/* The connection is read-only already; this refuses writes before
	 * they run, with a clearer message than SQLITE_READONLY. */
	if (!sqlite3_stmt_readonly(st)) {
		sqlite3_finalize(st);
		return npu_errf(e, "--sql: only read-only statements (SELECT, "
				"WITH, read-only PRAGMA) are allowed");
	}
	rc = fetch(q, st, NULL, out, e);
	sqlite3_finalize(st);
	return rc;
}

int npu_qres_col(const npu_qres *res, const char *name)
{
	for (int c = 0; c < res->ncols; c++)
		if (!strcmp(res->names[c], name))
			return c;
	return -1;
}

double npu_qres_num(const npu_qres *res, size_t row, int col)
{
	const npu_qcell *c;

	if (row >= res->nrows || col < 0 || col >= res->ncols)
		return 0;
	c = &res->cells[row * (size_t)res->ncols + (size_t)col];
	return c->type == NPU_QT_INT ? (double)c->i :
		c->type == NPU_QT_REAL ? c->d : 0;
}

const char *npu_qres_text(const npu_qres *res, size_t row, int col)
{
	const npu_qcell *c;

	if (row >= res->nrows || col < 0 || col >= res->ncols)
		return "";
	c = &res->cells[row * (size_t)res->ncols + (size_t)col];
	return c->type == NPU_QT_TEXT && c->s ? c->s : "";
}

/* ---- printing ---- */

/* A cell as text, formatted by the column's letter; "" for NULL. */
static void cell_text(const npu_qcell *c, char f, char *buf, size_t n)
{
	double d = c->type == NPU_QT_INT ? (double)c->i : c->d;

	switch (c->type) {
	case NPU_QT_NULL:
		buf[0] = 0;
		return;
	case NPU_QT_TEXT:
		snprintf(buf, n, "%s", c->s);
		return;
	default:
		break;
	}
	if (f == 'p')
		snprintf(buf, n, "%.1f", d);
	else if (f == 'f')
		snprintf(buf, n, "%.2f", d);
	else if (c->type == NPU_QT_INT)
		snprintf(buf, n, "%" PRId64, c->i);
	else if (f == 'i' && fabs(d) < 9e15)
		snprintf(buf, n, "%.0f", d);
	else
		snprintf(buf, n, "%.6g", d);
}

static const npu_qcell *cell(const npu_qres *r, size_t row, int c)
{
	return &r->cells[row * (size_t)r->ncols + (size_t)c];
}

static int print_table(const npu_qres *r, FILE *f)
{
	size_t *w = calloc((size_t)r->ncols + 1, sizeof *w);
	char buf[4096];

	if (!w)
		return -1;
	for (int c = 0; c < r->ncols; c++)
		w[c] = strlen(r->names[c]);
	for (size_t i = 0; i < r->nrows; i++)
		for (int c = 0; c < r->ncols; c++) {
			cell_text(cell(r, i, c), r->fmt[c], buf, sizeof buf);
			if (strlen(buf) > w[c])
				w[c] = strlen(buf);
		}
	/* Text left-aligned, numbers right-aligned, as people read them. */
	for (int c = 0; c < r->ncols; c++)
		fprintf(f, "%s%*s", c ? "  " : "", r->fmt[c] != 's' ? (int)w[c] :
			c == r->ncols - 1 ? 0 : -(int)w[c], r->names[c]);
	fputc('\n', f);
	for (int c = 0; c < r->ncols; c++) {
		fputs(c ? "  " : "", f);
		for (size_t k = 0; k < w[c]; k++)
			fputc('-', f);
	}
	fputc('\n', f);
	for (size_t i = 0; i < r->nrows; i++) {
		for (int c = 0; c < r->ncols; c++) {
			const npu_qcell *x = cell(r, i, c);
			int left = x->type == NPU_QT_TEXT || r->fmt[c] == 's';
			cell_text(x, r->fmt[c], buf, sizeof buf);
			if (x->type == NPU_QT_NULL)
				snprintf(buf, sizeof buf, "-");
			if (left && c == r->ncols - 1)
				fprintf(f, "%s%s", c ? "  " : "", buf);
			else
				fprintf(f, "%s%*s", c ? "  " : "",
					left ? -(int)w[c] : (int)w[c], buf);
		}
		fputc('\n', f);
	}
	free(w);
	return 0;
}

static void csv_field(const char *s, FILE *f)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static int print_csv(const npu_qres *r, FILE *f)
{
	char buf[4096];

	for (int c = 0; c < r->ncols; c++) {
		fputs(c ? "," : "", f);
		csv_field(r->names[c], f);
	}
	fputs("\r\n", f);
	for (size_t i = 0; i < r->nrows; i++) {
		for (int c = 0; c < r->ncols; c++) {
			const npu_qcell *x = cell(r, i, c);
			fputs(c ? "," : "", f);
			/* Full precision: CSV is for machines. */
			if (x->type == NPU_QT_REAL)
				snprintf(buf, sizeof buf, "%.17g", x->d);
			else
				cell_text(x, 's', buf, sizeof buf);
			csv_field(buf, f);
		}
		fputs("\r\n", f);
	}
	return 0;
}

static int print_json(const npu_qres *r, FILE *f)
{
	json_t *a = json_array();
	int rc = -1;

	if (!a)
		return -1;
	for (size_t i = 0; i < r->nrows; i++) {
		json_t *o = json_object(), *v;
		if (!o || json_array_append_new(a, o))
			goto out;
		for (int c = 0; c < r->ncols; c++) {
			const npu_qcell *x = cell(r, i, c);
			switch (x->type) {
			case NPU_QT_INT: v = json_integer(x->i); break;
			case NPU_QT_REAL: v = isfinite(x->d) ? json_real(x->d) : json_null(); break;
			case NPU_QT_TEXT: v = json_string(x->s); break;
			default: v = json_null(); break;
			}
			/* A string that is not UTF-8 gives NULL: keep the key. */
			if (json_object_set_new(o, r->names[c], v ? v : json_null()))
				goto out;
		}
	}
	if (json_dumpf(a, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 &&
	    fputc('\n', f) != EOF)
		rc = 0;
out:
	json_decref(a);
	return rc;
}

int npu_qres_print(const npu_qres *res, int fmt, FILE *f, npu_err *e)
{
	int rc = fmt == NPU_QF_CSV ? print_csv(res, f) :
		fmt == NPU_QF_JSON ? print_json(res, f) : print_table(res, f);

	if (rc || ferror(f))
		return npu_errf(e, "cannot write the result: %s",
				errno ? strerror(errno) : "out of memory");
	return 0;
}
