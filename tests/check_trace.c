/*
 * check_trace.c - the trace database: appending runs, interning, refusals,
 * a half-written run, two processes appending at once, the writer thread
 * (the same rows, its errors, its hold on the write lock), dropping a run's
 * activity, a simulation streaming its rows (the same rows with and
 * without the writer thread, and as when written after the run), the
 * generated docs and every example query of docs/trace-schema.md (answers
 * worked out by hand from the rows written here).
 */
#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/asm.h"
#include "sim/sim.h"
#include "traces/query.h"
#include "traces/trace.h"

static char dir[4096];

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof dir, "%s/npu-check-trace-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[4200];

	/* the folder holds only databases (and their -wal/-shm) made here */
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static const char *db_path(const char *name)
{
	static char path[2][4200];
	static int k;

	k ^= 1;
	snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
	return path[k];
}

/*
 * A program with a fused kernel (mm + relu) and a softmax kernel; the
 * module path "fc" and the empty module path are shared by nodes.
 */
static npu_node nodes[3] = {
	{ "mm", "aten.mm.default", "fc", "m.py:10" },
	{ "relu", "aten.relu.default", "fc", "m.py:11" },
	{ "softmax", "aten._softmax.default", "", "m.py:12" },
};
static npu_kernel kernels[2] = {
	{ "fused_mm_relu", 0, 4, 0, 2 },
	{ "softmax", 4, 10, 2, 1 },
};
static uint32_t kernel_nodes[3] = { 0, 1, 2 };
static uint64_t code[10];

static npu_prog make_prog(void)
{
	npu_prog p = {
		.code = code, .ncode = 10, .nodes = nodes, .nnodes = 3,
		.kernels = kernels, .nkernels = 2,
		.kernel_nodes = kernel_nodes, .nkernel_nodes = 3,
		.target_name = "npu-base", .target_hash = 0xabcdef0123456789ull,
	};
	return p;
}

static const npu_trace_run run_info = {
	"prog.npu", "npu-base", 0xabcdef0123456789ull, "--trace t.db", "test"
};

/* First column of the first row of sql, as an integer. */
static long long q_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v;

	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK,
		      "%s: %s", sql, sqlite3_errmsg(db));
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Every row of sql as "a|b|c\n" lines. */
static char *q_text(sqlite3 *db, const char *sql)
{
	static char buf[4096];
	sqlite3_stmt *st;
	size_t len = 0;

	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK,
		      "%s: %s", sql, sqlite3_errmsg(db));
	buf[0] = '\0';
	while (sqlite3_step(st) == SQLITE_ROW)
		for (int c = 0; c < sqlite3_column_count(st); c++) {
			const unsigned char *v = sqlite3_column_text(st, c);
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%c",
				v ? (const char *)v : "NULL",
				c + 1 < sqlite3_column_count(st) ? '|' : '\n');
			ck_assert_uint_lt(len, sizeof buf);
		}
	ck_assert_msg(sqlite3_errcode(sqlite3_db_handle(st)) == SQLITE_DONE ||
		      sqlite3_errcode(sqlite3_db_handle(st)) == SQLITE_OK,
		      "%s: %s", sql, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return buf;
}

static sqlite3 *db_open(const char *path)
{
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL),
			 SQLITE_OK);
	return db;
}

/*
 * The hand-made run the example queries are checked against (total 1000
 * cycles):
 *   fused_mm_relu runs [0,300) and [300,500), softmax [500,800);
 *   scl busy [0,1000); vec busy [0,100) [150,250) [500,700), dma_wait
 *   [700,800); mxu busy [50,200);
 *   DMA of fused_mm_relu: dma0 [0,100), dma1 [80,180), dma2 [260,300);
 *   DMA of softmax: dma0 [450,600).
 */
static void write_example_run(npu_trace *t)
{
	npu_err e = { "" };
	npu_prog p = make_prog();
	npu_trace_kernel k[3] = {
		{ .kernel = 0, .start = 0, .end = 300, .macs = 1000, .insns = 4 },
		{ .kernel = 0, .start = 300, .end = 500, .macs = 1000, .insns = 4 },
		{ .kernel = 1, .start = 500, .end = 800, .vec_ops = 64, .insns = 6 },
	};
	npu_trace_dma d[4] = {
		{ 0, 0, 4096, 4096, 0, 0, 100, 0 },
		{ 1, 0, 4096, 8192, 0, 80, 180, 0 },
		{ 2, 1, 1024, 1024, 250, 260, 300, 0 },
		{ 0, 0, 2048, 2048, 440, 450, 600, 1 },
	};
	static const struct { int unit, state; uint64_t s, e; int k; } a[] = {
		{ 0, NPU_US_BUSY, 0, 1000, -1 },
		{ 1, NPU_US_BUSY, 0, 100, 0 },
		{ 1, NPU_US_BUSY, 150, 250, 0 },
		{ 2, NPU_US_BUSY, 50, 200, 0 },
		{ 1, NPU_US_BUSY, 500, 700, 1 },
		{ 1, NPU_US_DMA_WAIT, 700, 800, 1 },
	};

	/* > 0, or 0 (queued) for the writer thread */
	ck_assert_int_ge(npu_trace_begin(t, &run_info, &p, &e), 0);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(npu_trace_kernel_exec(t, &k[i], &e), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(npu_trace_dma_xfer(t, &d[i], &e), 0);
	for (size_t i = 0; i < sizeof a / sizeof a[0]; i++)
		ck_assert_int_eq(npu_trace_activity(t, a[i].unit, a[i].s, a[i].e,
						    a[i].k, a[i].state, &e), 0);
	ck_assert_int_eq(npu_trace_counter(t, "host_calls", 2, &e), 0);
	ck_assert_int_eq(npu_trace_counter(t, "dram_rd_bytes", 11264, &e), 0);
	ck_assert_msg(npu_trace_end(t, 1000, 0.25, 0, &e) == 0, "%s", e.msg);
}

START_TEST(append_two_runs)
{
	const char *path = db_path("t.db");
	npu_err e = { "" };
	npu_prog p = make_prog();
	npu_trace *t;
	sqlite3 *db;

	t = npu_trace_open(path, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	write_example_run(t);
	ck_assert_int_eq(npu_trace_run_id(t), 0);
	npu_trace_close(t);

	t = npu_trace_open(path, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	ck_assert_int_eq(npu_trace_begin(t, &run_info, &p, &e), 2);
	ck_assert_int_eq(npu_trace_activity(t, 3, 10, 20, -1, NPU_US_IDLE, &e), 0);
	ck_assert_int_eq(npu_trace_counter(t, "host_calls", 1, &e), 0);
	ck_assert_int_eq(npu_trace_counter(t, "host_calls", 5, &e), 0);
	ck_assert_int_eq(npu_trace_end(t, 50, 0.5, 3, &e), 0);
	npu_trace_close(t);

	db = db_open(path);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version"), NPU_TRACE_SCHEMA_VERSION);
	ck_assert_str_eq(q_text(db, "PRAGMA journal_mode"), "wal\n");
	ck_assert_str_eq(q_text(db, "SELECT id, status, exit_status, total_cycles, "
				"wall_s, target_hash, options, label FROM runs"),
			 "1|ok|0|1000|0.25|abcdef0123456789|--trace t.db|test\n"
			 "2|failed|3|50|0.5|abcdef0123456789|--trace t.db|test\n");
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM runs WHERE started "
			       "GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T"
			       "[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'"), 2);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM kernels"), 4);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM nodes"), 6);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM kernel_nodes"), 6);
	/* the views read one copy: both runs ran the same program */
	ck_assert_str_eq(q_text(db, "SELECT id, nkernels, nnodes, length(digest) "
				"FROM provs"), "1|2|3|32\n");
	ck_assert_str_eq(q_text(db, "SELECT group_concat(prov_id) FROM runs"), "1,1\n");
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM prov_kernels"), 2);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM prov_nodes"), 3);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM prov_kernel_nodes"), 3);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM kernel_execs"), 3);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM activity WHERE run_id = 1"), 6);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM dma_xfers WHERE run_id = 1"), 4);
	ck_assert_str_eq(q_text(db, "SELECT k.kernel, s.text, code_start, code_end "
				"FROM kernels k JOIN strings s ON s.id = k.name_id "
				"WHERE run_id = 2 ORDER BY k.kernel"),
			 "0|fused_mm_relu|0|4\n1|softmax|4|10\n");
	ck_assert_str_eq(q_text(db, "SELECT kn.kernel, s.text FROM kernel_nodes kn "
				"JOIN nodes n USING (run_id, node) "
				"JOIN strings s ON s.id = n.name_id "
				"WHERE run_id = 1 ORDER BY 1, 2"),
			 "0|mm\n0|relu\n1|softmax\n");
	ck_assert_str_eq(q_text(db, "SELECT n.node, a.text, m.text, src.text FROM nodes n "
				"JOIN strings a ON a.id = n.target_id "
				"JOIN strings m ON m.id = n.module_id "
				"JOIN strings src ON src.id = n.source_id "
				"WHERE run_id = 1 ORDER BY n.node"),
			 "0|aten.mm.default|fc|m.py:10\n"
			 "1|aten.relu.default|fc|m.py:11\n"
			 "2|aten._softmax.default||m.py:12\n");
	ck_assert_str_eq(q_text(db, "SELECT engine, dir, bytes, bytes_touched, "
				"issue_cycle, start_cycle, end_cycle, kernel "
				"FROM dma_xfers WHERE run_id = 1 AND engine = 1"),
			 "1|0|4096|8192|0|80|180|0\n");
	ck_assert_str_eq(q_text(db, "SELECT u.name, st.name, start_cycle, kernel "
				"FROM activity a JOIN units u ON u.id = a.unit "
				"JOIN states st ON st.id = a.state "
				"WHERE run_id = 2"),
			 "host|idle|10|NULL\n");
	ck_assert_str_eq(q_text(db, "SELECT kernel, start_cycle, end_cycle, macs, "
				"vec_ops, insns FROM kernel_execs ORDER BY rowid"),
			 "0|0|300|1000|0|4\n0|300|500|1000|0|4\n1|500|800|0|64|6\n");
	/* a counter set twice keeps its last value */
	ck_assert_str_eq(q_text(db, "SELECT c.run_id, s.text, c.value FROM counters c "
				"JOIN strings s ON s.id = c.name_id ORDER BY 1, 2"),
			 "1|dram_rd_bytes|11264.0\n1|host_calls|2.0\n"
			 "2|host_calls|5.0\n");
	/* interning: one row per distinct string, though two runs used them:
	 * prog.npu npu-base, 2 kernel names (softmax is also a node name),
	 * mm relu, 3 targets, fc "", 3 source lines, 2 counter names */
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM strings"), 16);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM strings WHERE text = 'fc'"), 1);
	ck_assert_int_eq(q_int(db, "SELECT count(DISTINCT program_id) FROM runs"), 1);
	ck_assert_int_eq(q_int(db, "SELECT count(DISTINCT name_id) FROM kernels"), 2);
	/* the name tables */
	ck_assert_str_eq(q_text(db, "SELECT name, kind FROM units WHERE id IN (0, 2, 4, 11)"),
			 "scl|control\nmxu|compute\ndma0|dma\ndma7|dma\n");
	ck_assert_str_eq(q_text(db, "SELECT group_concat(name, ' ') FROM states"),
			 "busy dma_wait dep_stall bank_stall idle\n");
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM dma_dirs"), NPU_TRACE_NDIR);
	/* the indexes exist after a run ended */
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM sqlite_master WHERE "
			       "type = 'index' AND name IN ('activity_run', "
			       "'dma_xfers_run', 'kernel_execs_run_kernel')"), 3);
	ck_assert_str_eq(q_text(db, "PRAGMA integrity_check"), "ok\n");
	sqlite3_close(db);
}
END_TEST

static long long file_size(const char *path, const char *suffix)
{
	char p[4300];
	struct stat st;

	snprintf(p, sizeof p, "%s%s", path, suffix);
	ck_assert_int_eq(stat(p, &st), 0);
	return (long long)st.st_size;
}

/*
 * Many short runs, each from its own handle, as `npusim run --trace`
 * appends them: each run's rows keep their own run id through the
 * INSERT ... SELECT from the row source (5000 rows a run); the
 * WAL, not checkpointed when a handle closes, stays bounded by the
 * commits that checkpoint it; an index dropped by someone is made again.
 */
START_TEST(many_short_runs)
{
	const char *path = db_path("many.db");
	char wal[4300];
	long long wal_max = 0;
	npu_err e = { "" };
	npu_prog p = make_prog();
	struct stat sb;
	sqlite3 *db;

	snprintf(wal, sizeof wal, "%s-wal", path);
	for (int r = 1; r <= 40; r++) {
		npu_trace *t = npu_trace_open(path, &e);
		ck_assert_msg(t != NULL, "%s", e.msg);
		ck_assert_int_eq(npu_trace_begin(t, &run_info, &p, &e), r);
		for (int i = 0; i < 5000; i++)
			ck_assert_int_eq(npu_trace_activity(t, i % 4, 10 * i,
				10 * i + 5 + r, i % 2, NPU_US_BUSY, &e), 0);
		ck_assert_msg(npu_trace_end(t, 50000, 0, 0, &e) == 0, "%s", e.msg);
		npu_trace_close(t);
		/* 1000 pages between checkpoints (WAL_PAGES), and one run's */
		if (stat(wal, &sb) == 0) {
			ck_assert_int_lt(sb.st_size, 1300 * 4120);
			wal_max = sb.st_size > wal_max ? sb.st_size : wal_max;
		}
		if (r == 20) {
			db = db_open(path);
			ck_assert_int_eq(sqlite3_exec(db, "DROP INDEX activity_run",
						      NULL, NULL, NULL), SQLITE_OK);
			sqlite3_close(db);
		}
	}
	/* checkpoints folded the WAL into the database: it holds more
	 * than the WAL ever did (without them it would stay a few pages) */
	ck_assert_int_gt(file_size(path, ""), wal_max);
	ck_assert_int_gt(file_size(path, ""), 1000 * 4096);
	db = db_open(path);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM activity"), 200000);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM (SELECT run_id FROM "
			       "activity GROUP BY run_id HAVING count(*) = 5000 "
			       "AND min(end_cycle - start_cycle) = 5 + run_id)"), 40);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM sqlite_master WHERE "
			       "type = 'index' AND name = 'activity_run'"), 1);
	ck_assert_str_eq(q_text(db, "PRAGMA integrity_check"), "ok\n");
	sqlite3_close(db);
}
END_TEST

START_TEST(refusals)
{
	const char *path = db_path("new.db"), *junk = db_path("junk.txt");
	char want[NPU_ERR_MAX + 64];
	npu_err e = { "" };
	npu_trace *t;
	sqlite3 *db;
	FILE *f;

	/* newer schema version */
	t = npu_trace_open(path, &e);
	ck_assert_ptr_nonnull(t);
	npu_trace_close(t);
	db = db_open(path);
	ck_assert_int_eq(sqlite3_exec(db, "PRAGMA user_version = 7", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	ck_assert_ptr_null(npu_trace_open(path, &e));
	snprintf(want, sizeof want, "%s: schema version 7 is newer than this npusim (%d)",
		 path, NPU_TRACE_SCHEMA_VERSION);
	ck_assert_str_eq(e.msg, want);

	/* not a database */
	f = fopen(junk, "w");
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 100; i++)
		fputs("this is a text file, not a database\n", f);
	fclose(f);
	ck_assert_ptr_null(npu_trace_open(junk, &e));
	snprintf(want, sizeof want, "%s: not an SQLite database", junk);
	ck_assert_str_eq(e.msg, want);

	/* another program's SQLite database */
	path = db_path("other.db");
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE runs (x)", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	ck_assert_ptr_null(npu_trace_open(path, &e));
	ck_assert_msg(strstr(e.msg, path) && strstr(e.msg, "not an npusim trace"),
		      "%s", e.msg);

	/* a folder that does not exist */
	path = db_path("nowhere/t.db");
	ck_assert_ptr_null(npu_trace_open(path, &e));
	ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0 &&
		      strstr(e.msg, "cannot open"), "%s", e.msg);

	/* an empty file (version 0) is initialised */
	path = db_path("empty.db");
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	t = npu_trace_open(path, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	npu_trace_close(t);
	db = db_open(path);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version"), NPU_TRACE_SCHEMA_VERSION);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM units"), 12);
	sqlite3_close(db);
}
END_TEST

START_TEST(bad_rows)
{
	const char *path = db_path("bad.db");
	npu_err e = { "" };
	npu_prog p = make_prog();
	npu_trace_kernel k = { .kernel = 2, .start = 0, .end = 1 };
	npu_trace_dma d = { 0, NPU_TRACE_NDIR, 1, 1, 0, 0, 1, -1 };
	npu_trace *t = npu_trace_open(path, &e);

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(npu_trace_activity(t, 0, 0, 1, -1, 0, &e), -1);
	ck_assert_msg(strstr(e.msg, path) && strstr(e.msg, "no run"), "%s", e.msg);
	ck_assert_int_gt(npu_trace_begin(t, &run_info, &p, &e), 0);
	ck_assert_int_eq(npu_trace_begin(t, &run_info, &p, &e), -1);
	ck_assert_int_eq(npu_trace_activity(t, NPU_NUNIT, 0, 1, -1, 0, &e), -1);
	ck_assert_msg(strstr(e.msg, "unit 12 out of range"), "%s", e.msg);
	ck_assert_int_eq(npu_trace_activity(t, 0, 0, 1, -1, NPU_NUSTATE, &e), -1);
	ck_assert_int_eq(npu_trace_activity(t, 0, 5, 1, -1, 0, &e), -1);
	ck_assert_int_eq(npu_trace_activity(t, 0, 0, 1, 2, 0, &e), -1);
	ck_assert_msg(strstr(e.msg, "kernel 2 out of range"), "%s", e.msg);
	ck_assert_int_eq(npu_trace_kernel_exec(t, &k, &e), -1);
	ck_assert_int_eq(npu_trace_dma_xfer(t, &d, &e), -1);
	ck_assert_msg(strstr(e.msg, "direction 6"), "%s", e.msg);
	ck_assert_int_eq(npu_trace_counter(t, "", 1, &e), -1);
	ck_assert_int_eq(npu_trace_end(t, 1, 0, 0, &e), 0);
	ck_assert_int_eq(npu_trace_end(t, 1, 0, 0, &e), -1);

	/* a program whose provenance points past its node table */
	kernel_nodes[2] = 7;
	ck_assert_int_eq(npu_trace_begin(t, &run_info, &p, &e), -1);
	kernel_nodes[2] = 2;
	ck_assert_msg(strstr(e.msg, "node 7 out of range"), "%s", e.msg);
	npu_trace_close(t);

	ck_assert_str_eq(npu_trace_state_name(NPU_US_BANK_STALL), "bank_stall");
	ck_assert_str_eq(npu_trace_state_name(-1), "?");
	ck_assert_str_eq(npu_trace_dir_name(4), "gather");
}
END_TEST

/* Closing a run that did not end: committed batches and buffered rows are
 * kept, status 'incomplete'. */
START_TEST(half_written_run)
{
	const char *path = db_path("half.db");
	npu_err e = { "" };
	npu_prog p = make_prog();
	npu_trace *t = npu_trace_open(path, &e);
	sqlite3 *db;

	ck_assert_ptr_nonnull(t);
	npu_trace_set_batch(t, 10);
	ck_assert_int_eq(npu_trace_begin(t, &run_info, &p, &e), 1);
	for (int i = 0; i < 25; i++)
		ck_assert_int_eq(npu_trace_activity(t, 1, i, i + 1, 0, 0, &e), 0);
	/* two batches of 10 are in the database while the run goes on */
	db = db_open(path);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM activity"), 20);
	ck_assert_str_eq(q_text(db, "SELECT status FROM runs"), "running\n");
	npu_trace_close(t);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM activity"), 25);
	ck_assert_str_eq(q_text(db, "SELECT status, total_cycles, exit_status FROM runs"),
			 "incomplete|NULL|NULL\n");
	sqlite3_close(db);
}
END_TEST

/* Two processes append to one new database at once, in small batches so
 * their write transactions interleave. */
#define FORK_ROWS 3000

static int append_run(const char *path, int unit)
{
	npu_err e = { "" };
	npu_prog p = make_prog();
	npu_trace *t = npu_trace_open(path, &e);
	int rc = 0;

	if (!t) {
		fprintf(stderr, "append_run: %s\n", e.msg);
		return 1;
	}
	npu_trace_set_batch(t, 100);
	if (npu_trace_begin(t, &run_info, &p, &e) < 0)
		rc = 1;
	for (int i = 0; i < FORK_ROWS && !rc; i++)
		if (npu_trace_activity(t, unit, i, i + 1, i % 2, 0, &e) ||
		    npu_trace_dma_xfer(t, &(npu_trace_dma){ unit, 0, 8, 8, i, i, i + 1, -1 }, &e))
			rc = 1;
	if (!rc && npu_trace_end(t, FORK_ROWS, 0, 0, &e))
		rc = 1;
	if (rc)
		fprintf(stderr, "append_run: %s\n", e.msg);
	npu_trace_close(t);
	return rc;
}

START_TEST(two_processes_append)
{
	const char *path = db_path("shared.db");
	int status;
	pid_t pid;
	sqlite3 *db;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(append_run(path, 1));
	ck_assert_int_eq(append_run(path, 2), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	db = db_open(path);
	ck_assert_str_eq(q_text(db, "PRAGMA integrity_check"), "ok\n");
	ck_assert_str_eq(q_text(db, "SELECT status, count(*) FROM runs GROUP BY status"),
			 "ok|2\n");
	/* each run has its own rows, all of them, from one unit */
	ck_assert_str_eq(q_text(db, "SELECT count(*), count(DISTINCT unit), "
				"min(start_cycle), max(end_cycle) FROM activity "
				"GROUP BY run_id"),
			 "3000|1|0|3000\n3000|1|0|3000\n");
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM dma_xfers"), 2 * FORK_ROWS);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM kernels"), 4);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM strings WHERE text = 'mm'"), 1);
	sqlite3_close(db);
}
END_TEST

/*
 * The writer thread (npu_trace_open_async) writes the same database as
 * the caller's thread: the example run, then a run of many rows in small
 * batches (chunks handed over, batches committed, the write transaction
 * held between chunks, npu_trace_flush and npu_trace_ending's hand-overs),
 * each table compared row by row, rowids included.
 */
static void write_big_run(npu_trace *t, int async, int end_close)
{
	npu_err e = { "" };
	npu_prog p = make_prog();

	npu_trace_set_batch(t, 700);
	ck_assert_int_ge(npu_trace_begin(t, &run_info, &p, &e), 0);
	for (int i = 0; i < 5000; i++) {
		ck_assert_int_eq(npu_trace_activity(t, i % 12, 3 * i, 3 * i + 2,
						    i % 3 - 1, i % 4, &e), 0);
		if (i % 3 == 0)
			ck_assert_int_eq(npu_trace_dma_xfer(t, &(npu_trace_dma){
				i % 8, i % 5, 64 + i, 128 + i, i, i + 1, i + 9,
				i % 2 - 1 }, &e), 0);
		if (i % 1000 == 0)
			ck_assert_int_eq(npu_trace_kernel_exec(t, &(npu_trace_kernel){
				.kernel = i % 2, .start = i, .end = i + 100,
				.macs = (uint64_t)i }, &e), 0);
		/* handed over as a simulation streams them (the writer naps
		 * between), and the hand-over before the end, as
		 * npu_sim_write_trace makes it: the same rows either way */
		if (i % 700 == 350)
			ck_assert_int_eq(npu_trace_flush(t, &e), 0);
	}
	ck_assert_int_eq(npu_trace_ending(t, &e), 0);
	for (int i = 0; i < 40; i++) {
		char name[32];
		snprintf(name, sizeof name, "counter%d", i % 30);
		ck_assert_int_eq(npu_trace_counter(t, name, i, &e), 0);
	}
	if (async)
		ck_assert_int_eq(npu_trace_run_id(t), 2);
	if (end_close)
		ck_assert_msg(npu_trace_end_close(t, 15000, 0.5, 0, &e) == 0, "%s", e.msg);
	else
		ck_assert_msg(npu_trace_end(t, 15000, 0.5, 0, &e) == 0, "%s", e.msg);
}

/* Each table and view, and the rows it compares: rowids too, but in the
 * tables WITHOUT ROWID (schema.def) and the views, which have none. */
static const char *const all_tables[][2] = {
	{ "strings", "rowid, *" }, { "units", "rowid, *" }, { "states", "rowid, *" },
	{ "dma_dirs", "rowid, *" }, { "provs", "rowid, *" },
	{ "prov_kernels", "*" }, { "prov_nodes", "*" },
	{ "prov_kernel_nodes", "*" }, { "kernels", "*" }, { "nodes", "*" },
	{ "kernel_nodes", "*" }, { "kernel_execs", "rowid, *" },
	{ "activity", "rowid, *" }, { "dma_xfers", "rowid, *" }, { "counters", "*" },
};

/* Opens database a with b attached as "b" and checks that every table
 * holds the same rows, rowids included (runs: but their start times). */
static sqlite3 *same_tables(const char *a, const char *b)
{
	char sql[4400];
	sqlite3 *db = db_open(a);

	snprintf(sql, sizeof sql, "ATTACH '%s' AS b", b);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	for (size_t i = 0; i < sizeof all_tables / sizeof *all_tables; i++) {
		const char *n = all_tables[i][0], *c = all_tables[i][1];
		snprintf(sql, sizeof sql, "SELECT (SELECT count(*) FROM main.%s) - "
			 "(SELECT count(*) FROM b.%s) + (SELECT count(*) FROM "
			 "(SELECT %s FROM main.%s EXCEPT SELECT %s FROM b.%s))",
			 n, n, c, n, c, n);
		ck_assert_msg(q_int(db, sql) == 0, "table %s differs", n);
	}
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM (SELECT id, program_id, "
			       "target_name_id, target_hash, options, label, total_cycles, "
			       "wall_s, status, exit_status FROM main.runs EXCEPT SELECT id, "
			       "program_id, target_name_id, target_hash, options, label, "
			       "total_cycles, wall_s, status, exit_status FROM b.runs)"), 0);
	return db;
}

START_TEST(writer_thread_same_rows)
{
	const char *a = db_path("sync.db"), *b = db_path("async.db");
	uint64_t rows;
	npu_err e = { "" };
	npu_trace *t;
	sqlite3 *db;

	t = npu_trace_open(a, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	write_example_run(t);
	write_big_run(t, 0, 0);
	rows = npu_trace_rows(t);
	npu_trace_close(t);
	t = npu_trace_open_async(b, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	write_example_run(t);
	write_big_run(t, 1, 0);
	/* the program's provs row and 8 rows, written once for both runs;
	 * 15 rows, and 6712 with 40 counters */
	ck_assert_uint_eq(rows, 1 + 8 + 15 + 6712);
	ck_assert_uint_eq(npu_trace_rows(t), rows);
	npu_trace_close(t);

	db = same_tables(a, b);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM b.activity"), 5006);
	ck_assert_str_eq(q_text(db, "PRAGMA b.integrity_check"), "ok\n");
	sqlite3_close(db);

	/* the same through npu_trace_end_close and npu_trace_finish, with
	 * the thread (the end committed while the caller goes on) and
	 * without */
	for (int async = 0; async < 2; async++) {
		const char *c = db_path(async ? "end_close1.db" : "end_close0.db");
		t = async ? npu_trace_open_async(c, &e) : npu_trace_open(c, &e);
		ck_assert_msg(t != NULL, "%s", e.msg);
		write_example_run(t);
		write_big_run(t, async, 1);
		ck_assert_msg(npu_trace_finish(t, &e) == 0, "%s", e.msg);
		db = same_tables(a, c);
		ck_assert_str_eq(q_text(db, "SELECT group_concat(status) FROM b.runs"),
				 "ok,ok\n");
		sqlite3_close(db);
	}
}
END_TEST

/*
 * A run's activity dropped half-way (npu_trace_drop_activity): some of it
 * committed already (batches of 50), some still buffered.  What is given
 * next takes the dropped rows' rowids, so the database is the same with
 * the writer thread and without, and the rows counted are those kept.
 */
static uint64_t write_dropped_run(npu_trace *t)
{
	npu_err e = { "" };
	npu_prog p = make_prog();
	uint64_t rows;

	npu_trace_set_batch(t, 50);
	ck_assert_int_ge(npu_trace_begin(t, &run_info, &p, &e), 0);
	for (int i = 0; i < 230; i++) {
		ck_assert_int_eq(npu_trace_activity(t, i % 4, 2 * i, 2 * i + 1,
						    0, NPU_US_BUSY, &e), 0);
		if (i % 10 == 0)
			ck_assert_int_eq(npu_trace_dma_xfer(t, &(npu_trace_dma){
				0, 0, 64, 64, i, i, i + 5, 0 }, &e), 0);
	}
	ck_assert_msg(npu_trace_drop_activity(t, &e) == 0, "%s", e.msg);
	for (int i = 0; i < 120; i++)
		ck_assert_int_eq(npu_trace_activity(t, 1, 10 * i, 10 * i + 7, 1,
						    NPU_US_DMA_WAIT, &e), 0);
	ck_assert_msg(npu_trace_end(t, 2000, 0.1, 0, &e) == 0, "%s", e.msg);
	rows = npu_trace_rows(t);
	npu_trace_close(t);
	return rows;
}

START_TEST(drop_activity)
{
	const char *a = db_path("drop0.db"), *b = db_path("drop1.db");
	npu_err e = { "" };
	npu_trace *t;
	uint64_t rows[2];

	sqlite3 *db;

	for (int k = 0; k < 2; k++) {
		t = k ? npu_trace_open_async(b, &e) : npu_trace_open(a, &e);
		ck_assert_msg(t != NULL, "%s", e.msg);
		write_example_run(t);
		rows[k] = write_dropped_run(t);
	}
	/* 1 + 8 + 15 rows of the example run, 23 + 120 of this one (its
	 * program's rows were written by the first) */
	ck_assert_uint_eq(rows[0], 1 + 8 + 15 + 23 + 120);
	ck_assert_uint_eq(rows[1], rows[0]);
	db = same_tables(a, b);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM b.activity WHERE run_id = 2"), 120);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM b.activity WHERE run_id = 2 "
			       "AND state = 1 AND unit = 1"), 120);
	ck_assert_int_eq(q_int(db, "SELECT min(rowid) FROM b.activity WHERE run_id = 2"), 7);
	ck_assert_str_eq(q_text(db, "PRAGMA b.integrity_check"), "ok\n");
	sqlite3_close(db);
	/* nothing to drop without a run */
	t = npu_trace_open(a, &e);
	ck_assert_int_eq(npu_trace_drop_activity(t, &e), -1);
	ck_assert_msg(strstr(e.msg, "no run begun"), "%s", e.msg);
	npu_trace_close(t);
}
END_TEST

/*
 * One run of demo.s traced at resolution res: its rows streamed into a
 * handle with the writer thread (mode 1) or without (0) while it runs, or
 * all written after it (2); or streamed to a writer thread that can begin
 * the run only once the simulation is over, the trace locked by another
 * connection until then (3).  Returns the DRAM bytes the simulator
 * counted.
 */
static uint64_t traced_demo(const char *db, uint64_t res, int mode)
{
	const char *srcdir = getenv("srcdir");
	char path[4200];
	npu_prog p = { 0 };
	npu_target tg;
	npu_err e = { "" };
	npu_sim_opts o = { .trace_resolution = res };
	npu_sim *s;
	npu_trace *t;
	sqlite3 *lock = NULL;
	uint64_t bytes;

	snprintf(path, sizeof path, "%s/tests/data/asm/demo.s", srcdir ? srcdir : ".");
	ck_assert_msg(npu_asm_file(path, &p, &e) == 0, "%s", e.msg);
	snprintf(path, sizeof path, "%s/targets/npu-base.ini", srcdir ? srcdir : ".");
	ck_assert_msg(npu_target_load(&tg, path, &e) == 0, "%s", e.msg);
	s = npu_sim_new(&p, &tg, &o, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	if (mode == 3) {
		lock = db_open(db);
		ck_assert_int_eq(sqlite3_exec(lock, "BEGIN IMMEDIATE", NULL, NULL, NULL),
				 SQLITE_OK);
	}
	t = mode & 1 ? npu_trace_open_async(db, &e) : npu_trace_open(db, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	ck_assert_int_ge(npu_trace_begin(t, &run_info, &p, &e), 0);
	if (mode != 2)
		ck_assert_int_eq(npu_sim_stream_trace(s, t, &e), 0);
	ck_assert_int_eq(npu_sim_run(s, &e), 0);
	if (lock) {
		uint64_t q;
		/* the writer waits for the lock: the guess is not known yet */
		ck_assert_int_eq(npu_trace_prior_resolution(t, &q), 0);
		ck_assert_int_eq(sqlite3_exec(lock, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(lock);
	}
	ck_assert_msg(npu_sim_write_trace(s, t, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_trace_end(t, npu_sim_stats_get(s)->total_cycles, 0, 0,
				    &e) == 0, "%s", e.msg);
	npu_trace_close(t);
	bytes = npu_sim_stats_get(s)->dram_rd + npu_sim_stats_get(s)->dram_wr;
	/* a run that has begun streams no longer */
	ck_assert_int_eq(npu_sim_stream_trace(s, NULL, &e), -1);
	npu_sim_free(s);
	npu_prog_free(&p);
	return bytes;
}

/* The bulk tables of h's main database hold the same rows, in any order,
 * as those of the trace at path `after` (written after the run). */
static void same_rows_as(sqlite3 *h, const char *after, const char *what)
{
	static const char *const bulk[] = {
		"kernel_execs", "activity", "dma_xfers", "counters"
	};
	char sql[4400];

	snprintf(sql, sizeof sql, "ATTACH '%s' AS c", after);
	ck_assert_int_eq(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	for (size_t i = 0; i < sizeof bulk / sizeof *bulk; i++) {
		const char *n = bulk[i];
		snprintf(sql, sizeof sql, "SELECT (SELECT count(*) FROM main.%s) - "
			 "(SELECT count(*) FROM c.%s) + (SELECT count(*) FROM "
			 "(SELECT * FROM main.%s EXCEPT SELECT * FROM c.%s))",
			 n, n, n, n);
		ck_assert_msg(q_int(h, sql) == 0, "%s: table %s differs from the "
			      "rows written after the run", what, n);
	}
}

/*
 * The rows a simulation streams while it runs (npu_sim_stream_trace) are
 * the same, rowids included, with the writer thread and without; and the
 * same rows, in another order, as those written after the run.  At the
 * automatic resolution demo.s is binned (only its DMA transfers stream),
 * at 1 and 1024 its activity streams too.  The DMA bytes add up to the
 * simulator's DRAM counters.
 */
START_TEST(simulator_streams_rows)
{
	static const uint64_t res[] = { 0, 1024, 1 };
	char sql[1024];

	for (size_t r = 0; r < sizeof res / sizeof *res; r++) {
		/* (db_path keeps two paths at a time) */
		char db[3][4200];
		uint64_t bytes = 0;
		sqlite3 *h;
		for (int m = 0; m < 3; m++) {
			char name[32];
			snprintf(name, sizeof name, "s%zu-%d.db", r, m);
			snprintf(db[m], sizeof db[m], "%s", db_path(name));
		}
		for (int m = 0; m < 3; m++) {
			bytes = traced_demo(db[m], res[r], m);
			bytes = traced_demo(db[m], res[r], m); /* appended */
		}
		h = same_tables(db[0], db[1]);
		snprintf(sql, sizeof sql, "SELECT sum(bytes) FROM b.dma_xfers WHERE run_id = 2");
		ck_assert_uint_eq((uint64_t)q_int(h, sql), bytes);
		ck_assert_int_gt(q_int(h, "SELECT count(*) FROM b.activity WHERE run_id = 2"), 100);
		sqlite3_close(h);
		h = db_open(db[0]);
		snprintf(sql, sizeof sql, "res %llu", (unsigned long long)res[r]);
		same_rows_as(h, db[2], sql);
		sqlite3_close(h);
	}
}
END_TEST

/*
 * The commit that ends a run leaves the WAL alone however long it has
 * grown (the database file keeps its size), so that the caller waiting
 * for it does not wait for a checkpoint; the next run's first commit,
 * when it begins, folds the WAL into the database.
 */
START_TEST(checkpoint_after_the_end)
{
	const char *path = db_path("ckpt.db");
	npu_err e = { "" };
	npu_prog p = make_prog();
	npu_trace *t = npu_trace_open(path, &e);
	long long db0;

	ck_assert_msg(t != NULL, "%s", e.msg);
	write_example_run(t); /* (the indexes' creation would checkpoint) */
	npu_trace_set_batch(t, 400000); /* one commit, the end's */
	ck_assert_int_ge(npu_trace_begin(t, &run_info, &p, &e), 0);
	for (int i = 0; i < 250000; i++)
		ck_assert_int_eq(npu_trace_activity(t, i % 4, 3 * i, 3 * i + 2, 0,
						    i % 4, &e), 0);
	ck_assert_msg(npu_trace_end(t, 800000, 0, 0, &e) == 0, "%s", e.msg);
	db0 = file_size(path, "");
	ck_assert_int_lt(db0, 100 * 4096);
	/* past the 1000 pages (WAL_PAGES) that make a commit checkpoint */
	ck_assert_int_gt(file_size(path, "-wal"), 1000 * 4096);
	ck_assert_int_ge(npu_trace_begin(t, &run_info, &p, &e), 0);
	ck_assert_int_gt(file_size(path, ""), db0 + 800 * 4096);
	ck_assert_msg(npu_trace_end(t, 1, 0, 0, &e) == 0, "%s", e.msg);
	npu_trace_close(t);
}
END_TEST

/* A run of r with only its resolution counter, q, ended with status. */
static void counted_run(npu_trace *t, const npu_trace_run *r, double q, int status)
{
	npu_err e = { "" };

	ck_assert_int_ge(npu_trace_begin(t, r, NULL, &e), 0);
	ck_assert_int_eq(npu_trace_counter(t, NPU_TRACE_RESOLUTION, q, &e), 0);
	ck_assert_msg(npu_trace_end(t, 100, 0, status, &e) == 0, "%s", e.msg);
}

/* The guess a run of r begun on t gets (after waiting for t's writer). */
static uint64_t prior_of(npu_trace *t, const npu_trace_run *r)
{
	npu_err e = { "" };
	uint64_t q = 99;

	ck_assert_int_ge(npu_trace_begin(t, r, NULL, &e), 0);
	ck_assert_int_eq(npu_trace_sync(t, &e), 0);
	ck_assert_int_eq(npu_trace_prior_resolution(t, &q), 1);
	ck_assert_msg(npu_trace_end(t, 1, 0, 0, &e) == 0, "%s", e.msg);
	return q;
}

/*
 * npu_trace_prior_resolution: the resolution counter of the last run that
 * ended ok with the same program and target hash, whatever its options;
 * none in a new trace or before a run begins; with and without the
 * writer thread, and from another handle.
 */
START_TEST(prior_resolution)
{
	npu_trace_run opts = run_info, prog = run_info, tgt = run_info,
		      nohash = run_info;

	opts.options = "--trace-resolution 8";
	prog.program = "other.npu";
	tgt.target_hash = 1;
	nohash.target_hash = 0;
	for (int k = 0; k < 2; k++) {
		const char *path = db_path(k ? "prior1.db" : "prior0.db");
		npu_err e = { "" };
		npu_trace *t = k ? npu_trace_open_async(path, &e) : npu_trace_open(path, &e);
		uint64_t q = 99;

		ck_assert_msg(t != NULL, "%s", e.msg);
		ck_assert_int_eq(npu_trace_prior_resolution(t, &q), 1);
		ck_assert_uint_eq(q, 0);
		ck_assert_uint_eq(prior_of(t, &run_info), 0);
		counted_run(t, &run_info, 64, 0);
		counted_run(t, &prog, 16, 0);
		counted_run(t, &tgt, 32, 0);
		counted_run(t, &nohash, 128, 0);
		counted_run(t, &run_info, 4, 1); /* failed: no guess */
		ck_assert_uint_eq(prior_of(t, &run_info), 64);
		ck_assert_uint_eq(prior_of(t, &opts), 64);
		ck_assert_uint_eq(prior_of(t, &nohash), 128);
		counted_run(t, &opts, 8, 0);
		ck_assert_uint_eq(prior_of(t, &run_info), 8);
		npu_trace_close(t);
		t = npu_trace_open(path, &e);
		ck_assert_msg(t != NULL, "%s", e.msg);
		ck_assert_uint_eq(prior_of(t, &tgt), 32);
		ck_assert_uint_eq(prior_of(t, &prog), 16);
		npu_trace_close(t);
	}
}
END_TEST

/*
 * The guess of the automatic resolution a run streams its activity at
 * (the trace's last run of the same program), right or wrong (a run at
 * 256 before), and a writer thread that begins the run only once the
 * simulation is over (it then streams what it would have): the rows,
 * rowids included, are those of a trace without the thread, and the same
 * rows as all written after the run, binned at 1024.
 */
START_TEST(simulator_guesses_resolution)
{
	static const int modes[3] = { 0, 3, 2 };

	for (int wrong = 0; wrong < 2; wrong++) {
		char db[3][4200];
		sqlite3 *h;
		for (int m = 0; m < 3; m++) {
			char name[32];
			npu_err e = { "" };
			npu_trace *t;
			snprintf(name, sizeof name, "g%d-%d.db", wrong, m);
			snprintf(db[m], sizeof db[m], "%s", db_path(name));
			t = npu_trace_open(db[m], &e);
			ck_assert_msg(t != NULL, "%s", e.msg);
			if (wrong)
				counted_run(t, &run_info, 256, 0);
			npu_trace_close(t);
			if (!wrong)
				traced_demo(db[m], 0, 2);
			traced_demo(db[m], 0, modes[m]);
		}
		h = same_tables(db[0], db[1]);
		ck_assert_int_eq(q_int(h, "SELECT c.value FROM b.counters c JOIN b.strings s "
				       "ON s.id = c.name_id WHERE c.run_id = 2 AND s.text = '"
				       NPU_TRACE_RESOLUTION "'"), 1024);
		ck_assert_int_gt(q_int(h, "SELECT count(*) FROM b.activity WHERE run_id = 2"), 100);
		same_rows_as(h, db[2], wrong ? "a wrong guess" : "a right guess");
		sqlite3_close(h);
	}
}
END_TEST

/* The writer's errors come back, with the messages of npu_trace_open,
 * at the next wait: a refused open, a database that is not a trace. */
START_TEST(writer_thread_errors)
{
	const char *path = db_path("nowhere/t.db");
	npu_err e = { "" };
	npu_prog p = make_prog();
	npu_trace *t;
	sqlite3 *db;
	int64_t rc;

	t = npu_trace_open_async(path, &e);
	ck_assert_ptr_nonnull(t);
	/* queued (0), or refused if the writer has failed already */
	rc = npu_trace_begin(t, &run_info, &p, &e);
	ck_assert(rc == 0 || rc == -1);
	for (int i = 0; i < 300 && rc == 0; i++)
		if (npu_trace_activity(t, 1, i, i + 1, 0, 0, &e))
			break;
	if (rc == 0)
		ck_assert_int_eq(npu_trace_end(t, 300, 0, 0, &e), -1);
	ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0 &&
		      strstr(e.msg, "cannot open"), "%s", e.msg);
	ck_assert_int_eq(npu_trace_sync(t, &e), -1);
	ck_assert_int_eq(npu_trace_run_id(t), 0);
	npu_trace_close(t);

	/* npu_trace_end_close leaves the end to the writer: its error comes
	 * back once, from npu_trace_end_close if the writer has failed
	 * already, else from npu_trace_finish */
	for (int i = 0; i < 20; i++) {
		int ended, finished;
		t = npu_trace_open_async(path, &e);
		ck_assert_ptr_nonnull(t);
		if (npu_trace_begin(t, &run_info, &p, &e) < 0) {
			ck_assert_int_eq(npu_trace_finish(t, &e), 0);
			continue;
		}
		e.msg[0] = '\0';
		ended = npu_trace_end_close(t, 300, 0, 0, &e);
		finished = npu_trace_finish(t, ended ? NULL : &e);
		ck_assert_int_eq(ended + finished, -1);
		ck_assert_msg(strstr(e.msg, "cannot open"), "%s", e.msg);
	}
	ck_assert_int_eq(npu_trace_finish(NULL, &e), 0);

	path = db_path("other.db");
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE runs (x)", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	t = npu_trace_open_async(path, &e);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(npu_trace_sync(t, &e), -1);
	ck_assert_msg(strstr(e.msg, path) && strstr(e.msg, "not an npusim trace"),
		      "%s", e.msg);
	/* the caller's checks still come first */
	ck_assert_int_eq(npu_trace_begin(t, &run_info, &p, &e), -1);
	ck_assert_msg(strstr(e.msg, "not an npusim trace"), "%s", e.msg);
	npu_trace_close(t);
}
END_TEST

/* The writer holds the write lock between chunks only briefly: another
 * connection gets it while the run is still going; closing before the
 * end keeps the rows and marks the run 'incomplete'. */
START_TEST(writer_thread_lock_and_close)
{
	const char *path = db_path("held.db");
	npu_err e = { "" };
	npu_prog p = make_prog();
	npu_trace *t = npu_trace_open_async(path, &e);
	sqlite3 *db;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(npu_trace_begin(t, &run_info, &p, &e), 0);
	ck_assert_int_eq(npu_trace_run_id(t), 1);
	for (int i = 0; i < 100; i++) /* a chunk goes to the writer */
		ck_assert_int_eq(npu_trace_activity(t, 1, i, i + 1, 0, 0, &e), 0);
	db = db_open(path);
	sqlite3_busy_timeout(db, 10000);
	ck_assert_int_eq(sqlite3_exec(db, "BEGIN IMMEDIATE; UPDATE runs SET label = "
				      "'other' WHERE id = 1; COMMIT", NULL, NULL, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(npu_trace_sync(t, &e), 0);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM activity"), 100);
	for (int i = 100; i < 130; i++)
		ck_assert_int_eq(npu_trace_activity(t, 1, i, i + 1, 0, 0, &e), 0);
	npu_trace_close(t);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM activity"), 130);
	ck_assert_str_eq(q_text(db, "SELECT status, label FROM runs"),
			 "incomplete|other\n");
	sqlite3_close(db);
}
END_TEST

/* npu_trace_open_auto: NPU_TRACE_WRITER decides when set; either way the
 * handle writes a run. */
START_TEST(writer_thread_auto)
{
	static const char *const modes[] = { "none", "thread" };
	npu_err e = { "" };

	for (int i = 0; i < 2; i++) {
		npu_trace *t;
		setenv("NPU_TRACE_WRITER", modes[i], 1);
		t = npu_trace_open_auto(db_path(i ? "auto1.db" : "auto0.db"), &e);
		ck_assert_msg(t != NULL, "%s", e.msg);
		ck_assert_int_eq(npu_trace_is_async(t), i);
		write_example_run(t);
		npu_trace_close(t);
	}
	unsetenv("NPU_TRACE_WRITER");
}
END_TEST

/* Runs a program with one kernel renamed, the program again, and none:
 * provenance is shared by content, and a run without a program has none. */
START_TEST(shared_provenance)
{
	const char *path = db_path("prov.db");
	npu_err e = { "" };
	npu_prog p = make_prog(), q = make_prog();
	npu_kernel renamed[2] = { kernels[0], kernels[1] };
	const npu_prog *progs[4] = { &p, &q, &p, NULL };
	npu_trace *t = npu_trace_open(path, &e);
	sqlite3 *db;

	ck_assert_msg(t != NULL, "%s", e.msg);
	renamed[1].name = "softmax_1";
	q.kernels = renamed;
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(npu_trace_begin(t, &run_info, progs[i], &e), i + 1);
		ck_assert_int_eq(npu_trace_end(t, 10, 0.1, 0, &e), 0);
	}
	npu_trace_close(t);
	db = db_open(path);
	ck_assert_str_eq(q_text(db, "SELECT id, prov_id FROM runs"),
			 "1|1\n2|2\n3|1\n4|NULL\n");
	ck_assert_int_eq(q_int(db, "SELECT count(DISTINCT digest) FROM provs"), 2);
	ck_assert_str_eq(q_text(db, "SELECT run_id, group_concat(s.text) FROM kernels k "
				"JOIN strings s ON s.id = k.name_id GROUP BY run_id"),
			 "1|fused_mm_relu,softmax\n2|fused_mm_relu,softmax_1\n"
			 "3|fused_mm_relu,softmax\n");
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM nodes WHERE run_id = 4"), 0);
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM prov_nodes"), 6);
	sqlite3_close(db);
}
END_TEST

/* Copies srcdir/name to path. */
static void copy_data(const char *name, const char *path)
{
	const char *srcdir = getenv("srcdir");
	char cmd[9000];

	snprintf(cmd, sizeof cmd, "cp '%s/%s' '%s'", srcdir ? srcdir : ".",
		 name, path);
	ck_assert_int_eq(system(cmd), 0);
}

/* What the per-run provenance of a trace reads as, whatever its schema
 * (version 1's tables or version 2's views of the same names). */
static char *provenance_text(sqlite3 *db)
{
	return q_text(db, "SELECT 'k', k.run_id, k.kernel, s.text, k.code_start, "
		      "k.code_end FROM kernels k JOIN strings s ON s.id = k.name_id "
		      "UNION ALL SELECT 'n', n.run_id, n.node, s.text, n.target_id, "
		      "n.module_id + n.source_id FROM nodes n JOIN strings s ON "
		      "s.id = n.name_id UNION ALL SELECT 'kn', run_id, kernel, node, "
		      "NULL, NULL FROM kernel_nodes ORDER BY 1, 2, 3, 4");
}

/* A version 2 trace (no scatter direction) gets the dma_dirs row of
 * direction 5 when a run is appended, and version 3. */
START_TEST(upgrade_from_v2)
{
	const char *path = db_path("v2.db");
	npu_err e = { "" };
	npu_prog p = make_prog();
	npu_trace *t;
	sqlite3 *db;

	unlink(path);
	t = npu_trace_open(path, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	ck_assert_int_eq(npu_trace_begin(t, &run_info, &p, &e), 1);
	ck_assert_int_eq(npu_trace_end(t, 10, 0.1, 0, &e), 0);
	npu_trace_close(t);
	db = db_open(path);
	ck_assert_int_eq(sqlite3_exec(db, "DELETE FROM dma_dirs WHERE id = 5; "
				      "PRAGMA user_version = 2", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	t = npu_trace_open(path, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	ck_assert_int_eq(npu_trace_begin(t, &run_info, &p, &e), 2);
	ck_assert_int_eq(npu_trace_end(t, 10, 0.1, 0, &e), 0);
	npu_trace_close(t);
	db = db_open(path);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version"), NPU_TRACE_SCHEMA_VERSION);
	ck_assert_str_eq(q_text(db, "SELECT name FROM dma_dirs WHERE id = 5"), "scatter\n");
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM runs"), 2);
	sqlite3_close(db);
}
END_TEST

/*
 * tests/data/trace/v1.db: written by schema version 1's npusim (two runs
 * of demo.s, one of conv_bn_relu compiled).  Appending a run upgrades it
 * in place: every query of the old tables reads the same through the
 * views, and the new run of a program seen before gets a provenance of
 * its own (version 1's have no digest).  npusim query's reader upgrades
 * too; a file it cannot write it reports.
 */
START_TEST(upgrade_from_v1)
{
	const char *path = db_path("v1.db");
	static char before[4096];
	npu_err e = { "" };
	npu_prog p = make_prog();
	npu_trace *t;
	npu_qdb *q;
	sqlite3 *db;

	copy_data("tests/data/trace/v1.db", path);
	db = db_open(path);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version"), 1);
	snprintf(before, sizeof before, "%s", provenance_text(db));
	ck_assert_uint_gt(strlen(before), 100);
	sqlite3_close(db);

	t = npu_trace_open(path, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	ck_assert_int_eq(npu_trace_begin(t, &run_info, &p, &e), 4);
	ck_assert_int_eq(npu_trace_end(t, 10, 0.1, 0, &e), 0);
	npu_trace_close(t);

	db = db_open(path);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version"), NPU_TRACE_SCHEMA_VERSION);
	ck_assert_str_eq(q_text(db, "SELECT type FROM sqlite_master WHERE name = 'kernels'"),
			 "view\n");
	ck_assert_str_eq(q_text(db, "SELECT id, prov_id FROM runs"),
			 "1|1\n2|2\n3|3\n4|4\n");
	ck_assert_str_eq(q_text(db, "SELECT id, digest IS NULL, nkernels, nnodes FROM provs"),
			 "1|1|2|2\n2|1|2|2\n3|1|3|18\n4|0|2|3\n");
	ck_assert_int_eq(q_int(db, "SELECT count(*) FROM kernels WHERE run_id = 4"), 2);
	ck_assert_int_eq(sqlite3_exec(db, "DELETE FROM runs WHERE id = 4", NULL,
				      NULL, NULL), SQLITE_OK);
	ck_assert_str_eq(provenance_text(db), before);
	sqlite3_close(db);

	/* the reader upgrades a copy it can write, and says so of one it cannot */
	path = db_path("v1q.db");
	copy_data("tests/data/trace/v1.db", path);
	q = npu_qdb_open(path, &e);
	ck_assert_msg(q != NULL, "%s", e.msg);
	npu_qdb_close(q);
	db = db_open(path);
	ck_assert_int_eq(q_int(db, "PRAGMA user_version"), NPU_TRACE_SCHEMA_VERSION);
	ck_assert_str_eq(provenance_text(db), before);
	sqlite3_close(db);
	if (geteuid() != 0) { /* root writes whatever the mode */
		path = db_path("v1ro.db");
		copy_data("tests/data/trace/v1.db", path);
		ck_assert_int_eq(chmod(path, 0444), 0);
		ck_assert_ptr_null(npu_qdb_open(path, &e));
		ck_assert_msg(strstr(e.msg, path) && strstr(e.msg, "readonly"),
			      "%s", e.msg);
	}
}
END_TEST

/* Reads srcdir/name into a malloc'd string. */
static char *slurp(const char *name)
{
	const char *srcdir = getenv("srcdir");
	char path[4200];
	char *buf;
	long n;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", srcdir ? srcdir : ".", name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

START_TEST(docs_match_schema)
{
	static const char begin[] = "<!-- schema:begin -->\n";
	char *doc = slurp("docs/trace-schema.md"), *a, *b, *gen;
	size_t n = npu_trace_schema_doc(NULL, 0);

	gen = malloc(n + 1);
	ck_assert_ptr_nonnull(gen);
	ck_assert_uint_eq(npu_trace_schema_doc(gen, n + 1), n);
	a = strstr(doc, begin);
	ck_assert_ptr_nonnull(a);
	a += strlen(begin);
	b = strstr(a, "<!-- schema:end -->");
	ck_assert_ptr_nonnull(b);
	*b = '\0';
	ck_assert_msg(strcmp(a, gen) == 0, "docs/trace-schema.md is out of date; "
		      "the schema part should read:\n%s", gen);
	/* every table is documented, and truncation is reported */
	ck_assert_ptr_nonnull(strstr(gen, "### dma_xfers"));
	ck_assert_uint_eq(npu_trace_schema_doc(gen, 10), n);
	ck_assert_uint_eq(strlen(gen), 9);
	free(gen);
	free(doc);
}
END_TEST

/* The expected output of each example query of the docs, for the run of
 * write_example_run(). */
static const struct {
	const char *name, *want;
} examples[] = {
	{ "top_kernels",
	  "fused_mm_relu|2|500|50.0\n"
	  "softmax|1|300|30.0\n" },
	/* fused_mm_relu's 500 cycles split between mm and relu */
	{ "node_time",
	  "softmax|aten._softmax.default|300.0\n"
	  "mm|aten.mm.default|250.0\n"
	  "relu|aten.relu.default|250.0\n" },
	/* compute busy merges into [0,250) and [500,700); fused_mm_relu's
	 * DMA into [0,180) and [260,300): 220 cycles, 180 overlapped;
	 * softmax's [450,600): 150 cycles, 100 overlapped */
	{ "dma_overlap",
	  "fused_mm_relu|220|180|81.8\n"
	  "softmax|150|100|66.7\n" },
	/* vec busy 100 + 100 + 200 (its dma_wait does not count) */
	{ "utilization",
	  "scl|1000|1000|100.0\n"
	  "vec|400|1000|40.0\n"
	  "mxu|150|1000|15.0\n" },
};
#define NEXAMPLE (sizeof examples / sizeof examples[0])

START_TEST(example_queries)
{
	const char *path = db_path("ex.db");
	char *doc = slurp("docs/trace-schema.md"), *p = doc;
	int seen[NEXAMPLE] = { 0 }, nblocks = 0;
	npu_err e = { "" };
	npu_trace *t;
	sqlite3 *db;

	/* an earlier run, so that the queries must pick the last one */
	t = npu_trace_open(path, &e);
	ck_assert_ptr_nonnull(t);
	write_example_run(t);
	write_example_run(t);
	npu_trace_close(t);
	db = db_open(path);
	ck_assert_int_eq(sqlite3_exec(db, "UPDATE activity SET end_cycle = end_cycle + 7 "
				      "WHERE run_id = 1", NULL, NULL, NULL), SQLITE_OK);

	while ((p = strstr(p, "```sql\n")) != NULL) {
		char *sql = p + 7, *end = strstr(sql, "```"), name[64];
		size_t i;

		ck_assert_ptr_nonnull(end);
		*end = '\0';
		p = end + 3;
		nblocks++;
		ck_assert_int_eq(sscanf(sql, "-- query: %63s", name), 1);
		for (i = 0; i < NEXAMPLE && strcmp(examples[i].name, name); i++)
			;
		ck_assert_msg(i < NEXAMPLE, "query %s has no expected answer", name);
		ck_assert_msg(strcmp(q_text(db, sql), examples[i].want) == 0,
			      "query %s gave\n%swanted\n%s", name, q_text(db, sql),
			      examples[i].want);
		seen[i]++;
	}
	ck_assert_int_eq(nblocks, (int)NEXAMPLE);
	for (size_t i = 0; i < NEXAMPLE; i++)
		ck_assert_msg(seen[i] == 1, "query %s not in the docs", examples[i].name);
	sqlite3_close(db);
	free(doc);
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("db");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, append_two_runs);
	tcase_add_test(tc, many_short_runs);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, bad_rows);
	tcase_add_test(tc, half_written_run);
	tcase_add_test(tc, two_processes_append);
	tcase_add_test(tc, writer_thread_same_rows);
	tcase_add_test(tc, drop_activity);
	tcase_add_test(tc, simulator_streams_rows);
	tcase_add_test(tc, prior_resolution);
	tcase_add_test(tc, checkpoint_after_the_end);
	tcase_add_test(tc, simulator_guesses_resolution);
	tcase_add_test(tc, writer_thread_errors);
	tcase_add_test(tc, writer_thread_lock_and_close);
	tcase_add_test(tc, writer_thread_auto);
	tcase_add_test(tc, shared_provenance);
	tcase_add_test(tc, upgrade_from_v1);
	tcase_add_test(tc, upgrade_from_v2);
	tcase_add_test(tc, docs_match_schema);
	tcase_add_test(tc, example_queries);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(trace_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
