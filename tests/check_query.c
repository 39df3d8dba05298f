/*
 * check_query.c - trace queries, reports and the Chrome export, checked on
 * tests/data/query/simple.s, whose cycles and bytes are worked out by hand
 * below (docs/timing-model.md, target tests/data/query/qtest.ini):
 *
 * Run 1 (qtest):
 *   load: dcfgi [0,1), li [1,2), li [2,3), dld dispatched [3,4) starts 4:
 *     engine 4 + 10 + 256/8 = 46; DRAM 128 bytes per channel at 8/cycle:
 *     4 + 10 + 16 = 30; end max(46, 30) + 20 = 66.  sig [4,5), wait
 *     blocks [5,66) (dma_wait 61), busy [66,67): the kernel is [0,67).
 *   addrelu: li [67,68), setvl [68,69); vli issue 70 (occ 8/4 = 2) busy
 *     [70,72), ready 73; vadd stalls [72,73), busy [73,75), ready 76; vmaxi
 *     stalls [75,76), busy [76,78), ready 79: the kernel is [67,79); 24
 *     lane ops.
 *   store: fetched at 72: dcfgi, li, dst dispatched [74,75) starts 75:
 *     engine 75 + 10 + 32 = 117, channels 85 + 16 = 101, end 117 + 20 =
 *     137; sig [75,76), wait [76,137), busy [137,138): [72,138).
 *   halt [138,139): 139 cycles.  Scalar busy 17 (5 + 1 + 5 + 4 + 1 + 1),
 *   dma_wait 122; vec busy 6, dep_stall 2; dma0 and dma1 busy 62 each.
 * Nodes: a_in 67 (enc); add and relu split addrelu's 12: 6 each (enc.fc
 *   and enc); st 66 (no module).  Modules: enc 67 + 6 + 6 = 79 over 3
 *   nodes, enc.fc 6, (none) 66.
 * Overlap: load's transfer [4,66) meets no compute: 62, 0; store's
 *   [75,137) meets vec busy [76,78): 62, 2.
 * Run 2 (qtest-slow, DRAM latency 40): load ends at 87 (+20), addrelu
 *   [87,99) (12), store [92,178) (86, +20), 179 cycles (+40).
 */
#include <check.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/asm.h"
#include "sim/cmd.h"
#include "sim/sim.h"
#include "traces/chrome.h"
#include "traces/query.h"
#include "traces/report.h"

static char dir[4096], db[4200];

static const char *srcdir(void)
{
	const char *s = getenv("srcdir");
	return s && *s ? s : ".";
}

static const char *in_dir(const char *name)
{
	static char path[16][4300];
	static int k;

	k = (k + 1) % 16;
	snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
	return path[k];
}

/* Simulates simple.s on a target and appends the run to the trace. */
static void sim_run(const char *target)
{
	char src[4200], tpath[4200];
	npu_err e = { "" };
	npu_prog p;
	npu_target t;
	npu_sim_opts o = { 0 };
	npu_sim *s;
	npu_trace *tr;
	npu_trace_run run = { "simple.bin", NULL, 0, "test", NULL };

	snprintf(src, sizeof src, "%s/tests/data/query/simple.s", srcdir());
	ck_assert_msg(npu_asm_file(src, &p, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_target_resolve(target, tpath, sizeof tpath, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_target_load(&t, tpath, &e) == 0, "%s", e.msg);
	o.trace_resolution = 1;
	s = npu_sim_new(&p, &t, &o, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	ck_assert_msg(npu_sim_run(s, &e) == 0, "%s", e.msg);
	tr = npu_trace_open(db, &e);
	ck_assert_msg(tr != NULL, "%s", e.msg);
	run.target_name = t.name;
	run.target_hash = t.hash;
	ck_assert_msg(npu_trace_begin(tr, &run, &p, &e) > 0, "%s", e.msg);
	ck_assert_msg(npu_sim_write_trace(s, tr, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_trace_end(tr, npu_sim_stats_get(s)->total_cycles, 0.01,
				    0, &e) == 0, "%s", e.msg);
	npu_trace_close(tr);
	npu_sim_free(s);
	npu_prog_free(&p);
}

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");
	char tp[4200];

	snprintf(dir, sizeof dir, "%s/npu-check-query-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/t.db", dir);
	/* The runs name their targets; queries find them the same way. */
	snprintf(tp, sizeof tp, "%s/tests/data/query", srcdir());
	setenv("NPU_TARGET_PATH", tp, 1);
	sim_run("qtest");
	sim_run("qtest-slow");
}

static void teardown(void)
{
	char cmd[4300];

	/* the folder holds only what these tests made */
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Runs canned query `name` on run `id` (0: latest). */
static void query(const char *name, int64_t id, const int64_t *args, npu_qres *res)
{
	npu_err e = { "" };
	npu_qdb *q = npu_qdb_open(db, &e);
	npu_qrun r;

	ck_assert_msg(q != NULL, "%s", e.msg);
	ck_assert_msg(npu_qdb_run(q, id, &r, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_query_exec(q, npu_query_find(name), &r, args, res, &e) == 0,
		      "%s", e.msg);
	npu_qdb_close(q);
}

/* The row whose column `key` is `val`, or -1. */
static long row_of(const npu_qres *r, const char *key, const char *val)
{
	int c = npu_qres_col(r, key);

	ck_assert_int_ge(c, 0);
	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(npu_qres_text(r, i, c), val))
			return (long)i;
	return -1;
}

static double num(const npu_qres *r, long row, const char *col)
{
	int c = npu_qres_col(r, col);

	ck_assert_msg(c >= 0, "no column %s", col);
	ck_assert_int_ge(row, 0);
	return npu_qres_num(r, (size_t)row, c);
}

static const char *text(const npu_qres *r, long row, const char *col)
{
	int c = npu_qres_col(r, col);

	ck_assert_msg(c >= 0, "no column %s", col);
	ck_assert_int_ge(row, 0);
	return npu_qres_text(r, (size_t)row, c);
}

#define NEAR(a, b) ck_assert_msg(fabs((a) - (b)) < 1e-6, "%s = %g, want %g", #a, (double)(a), (double)(b))

START_TEST(runs_query)
{
	npu_qres r;

	query("runs", 0, NULL, &r);
	ck_assert_uint_eq(r.nrows, 2);
	NEAR(num(&r, 0, "cycles"), 139);
	NEAR(num(&r, 1, "cycles"), 179);
	ck_assert_str_eq(text(&r, 0, "target"), "qtest");
	ck_assert_str_eq(text(&r, 1, "target"), "qtest-slow");
	NEAR(num(&r, 0, "kernel_execs"), 3);
	ck_assert_str_eq(text(&r, 0, "status"), "ok");
	npu_qres_free(&r);
}
END_TEST

START_TEST(kernels_query)
{
	npu_qres r;
	long l, a, s;

	query("kernels", 1, NULL, &r);
	ck_assert_uint_eq(r.nrows, 3);
	/* by cycles: load 67, store 66, addrelu 12 */
	ck_assert_str_eq(text(&r, 0, "kernel"), "load");
	ck_assert_str_eq(text(&r, 1, "kernel"), "store");
	ck_assert_str_eq(text(&r, 2, "kernel"), "addrelu");
	l = 0, s = 1, a = 2;
	NEAR(num(&r, l, "cycles"), 67);
	NEAR(num(&r, s, "cycles"), 66);
	NEAR(num(&r, a, "cycles"), 12);
	NEAR(num(&r, l, "pct_run"), 100.0 * 67 / 139);
	NEAR(num(&r, l, "dram_rd"), 256);
	NEAR(num(&r, l, "dram_wr"), 0);
	NEAR(num(&r, s, "dram_wr"), 256);
	NEAR(num(&r, l, "mac_util"), 0);
	/* ceilings of qtest: 16 MACs, 4 lanes, min(16, 2 x 8) = 16 bytes per
	 * cycle.  load: memory 256/16 = 16 < 67/2: latency.  addrelu: compute
	 * 24/4 = 6, not below 12/2: compute. */
	ck_assert_str_eq(text(&r, l, "bound"), "latency");
	ck_assert_str_eq(text(&r, s, "bound"), "latency");
	ck_assert_str_eq(text(&r, a, "bound"), "compute");
	npu_qres_free(&r);
	/* the latest run by default */
	query("kernels", 0, NULL, &r);
	NEAR(num(&r, 0, "cycles"), 87);
	npu_qres_free(&r);
}
END_TEST

START_TEST(nodes_ops_modules)
{
	npu_qres r;

	query("nodes", 1, NULL, &r);
	ck_assert_uint_eq(r.nrows, 4);
	NEAR(num(&r, row_of(&r, "node", "a_in"), "cycles"), 67);
	NEAR(num(&r, row_of(&r, "node", "st"), "cycles"), 66);
	/* the fused kernel's 12 cycles split equally */
	NEAR(num(&r, row_of(&r, "node", "add"), "cycles"), 6);
	NEAR(num(&r, row_of(&r, "node", "relu"), "cycles"), 6);
	ck_assert_str_eq(text(&r, row_of(&r, "node", "add"), "module"), "enc.fc");
	ck_assert_str_eq(text(&r, row_of(&r, "node", "add"), "source"), "m.py:2");
	npu_qres_free(&r);

	query("ops", 1, NULL, &r);
	ck_assert_uint_eq(r.nrows, 4);
	NEAR(num(&r, row_of(&r, "aten", "aten.relu.default"), "cycles"), 6);
	NEAR(num(&r, row_of(&r, "aten", "aten.clone.default"), "cycles"), 67);
	npu_qres_free(&r);

	query("modules", 1, NULL, &r);
	ck_assert_uint_eq(r.nrows, 3);
	/* tree order */
	ck_assert_str_eq(text(&r, 0, "module"), "(none)");
	ck_assert_str_eq(text(&r, 1, "module"), "enc");
	ck_assert_str_eq(text(&r, 2, "module"), "enc.fc");
	NEAR(num(&r, 1, "cycles"), 79);
	NEAR(num(&r, 1, "nodes"), 3);
	NEAR(num(&r, 1, "depth"), 1);
	NEAR(num(&r, 2, "cycles"), 6);
	NEAR(num(&r, 2, "depth"), 2);
	NEAR(num(&r, 0, "cycles"), 66);
	npu_qres_free(&r);
}
END_TEST

START_TEST(units_overlap)
{
	npu_qres r;
	long u;

	query("units", 1, NULL, &r);
	ck_assert_uint_eq(r.nrows, 6);
	u = row_of(&r, "unit", "scl");
	NEAR(num(&r, u, "busy_cycles"), 17);
	NEAR(num(&r, u, "dma_wait"), 100.0 * 122 / 139);
	u = row_of(&r, "unit", "vec");
	NEAR(num(&r, u, "busy_cycles"), 6);
	NEAR(num(&r, u, "dep_stall"), 100.0 * 2 / 139);
	NEAR(num(&r, u, "idle"), 100.0 * 131 / 139);
	NEAR(num(&r, row_of(&r, "unit", "dma1"), "busy_cycles"), 62);
	NEAR(num(&r, row_of(&r, "unit", "mxu"), "idle"), 100);
	npu_qres_free(&r);

	query("overlap", 1, NULL, &r);
	ck_assert_uint_eq(r.nrows, 2);
	u = row_of(&r, "kernel", "load");
	NEAR(num(&r, u, "dma_cycles"), 62);
	NEAR(num(&r, u, "overlapped"), 0);
	NEAR(num(&r, u, "dma_wait_cycles"), 61);
	u = row_of(&r, "kernel", "store");
	NEAR(num(&r, u, "dma_cycles"), 62);
	NEAR(num(&r, u, "overlapped"), 2);
	NEAR(num(&r, u, "pct_overlapped"), 100.0 * 2 / 62);
	npu_qres_free(&r);

	/* The same answers through the optional index. */
	{
		npu_err e = { "" };
		char *argv[] = { "query", db, "--add-index", NULL };
		ck_assert_int_eq(npu_cmd_query(3, argv), 0);
		ck_assert_msg(npu_qdb_add_indexes(db, &e) == 0, "%s", e.msg);
	}
	query("overlap", 1, NULL, &r);
	NEAR(num(&r, row_of(&r, "kernel", "store"), "overlapped"), 2);
	NEAR(num(&r, row_of(&r, "kernel", "load"), "dma_cycles"), 62);
	npu_qres_free(&r);
	query("overlap", 2, NULL, &r);
	/* run 2: store's transfer [95,177) meets vec busy [96,98) */
	NEAR(num(&r, row_of(&r, "kernel", "store"), "overlapped"), 2);
	NEAR(num(&r, row_of(&r, "kernel", "store"), "dma_cycles"), 82);
	npu_qres_free(&r);
}
END_TEST

START_TEST(diff_query)
{
	static const int64_t ab[2] = { 1, 2 };
	npu_qres r;

	query("diff", 0, ab, &r);
	ck_assert_uint_eq(r.nrows, 1 + 3 + 4);
	ck_assert_str_eq(text(&r, 0, "kind"), "run");
	NEAR(num(&r, 0, "cycles_a"), 139);
	NEAR(num(&r, 0, "cycles_b"), 179);
	NEAR(num(&r, 0, "delta"), 40);
	/* kernels, biggest change first */
	ck_assert_str_eq(text(&r, 1, "kind"), "kernel");
	ck_assert_str_eq(text(&r, 1, "name"), "load");
	NEAR(num(&r, 1, "delta"), 20);
	ck_assert_str_eq(text(&r, 2, "name"), "store");
	NEAR(num(&r, 2, "cycles_b"), 86);
	ck_assert_str_eq(text(&r, 3, "name"), "addrelu");
	NEAR(num(&r, 3, "delta"), 0);
	ck_assert_str_eq(text(&r, 4, "kind"), "node");
	ck_assert_str_eq(text(&r, 4, "name"), "a_in");
	NEAR(num(&r, 4, "pct"), 100.0 * 20 / 67);
	npu_qres_free(&r);
}
END_TEST

/* Runs a subcommand with stdout sent to a file; returns its exit status. */
static int cli(const char *out, int argc, char **argv)
{
	int fd, saved, rc;

	fflush(stdout);
	saved = dup(1);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	dup2(fd, 1);
	close(fd);
	rc = !strcmp(argv[0], "query") ? npu_cmd_query(argc, argv) :
		!strcmp(argv[0], "report") ? npu_cmd_report(argc, argv) :
		npu_cmd_export_trace(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return rc;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	buf[n] = 0;
	fclose(f);
	return buf;
}

START_TEST(output_formats)
{
	const char *out = in_dir("out.txt");
	char *argv[8];
	json_error_t je;
	json_t *j;
	char *s, *l2;

	/* getopt permutes argv: build it afresh for each call */
#define ARGS(fmt) (argv[0] = "query", argv[1] = db, argv[2] = "kernels", \
		   argv[3] = "--run", argv[4] = "1", argv[5] = "--format", \
		   argv[6] = fmt, argv[7] = NULL, argv)
	ck_assert_int_eq(cli(out, 7, ARGS("json")), 0);
	s = slurp(out);
	j = json_loads(s, 0, &je);
	ck_assert_msg(j != NULL, "%s", je.text);
	ck_assert(json_is_array(j));
	ck_assert_int_eq(json_array_size(j), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(j, 0), "kernel")), "load");
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(j, 0), "cycles")), 67);
	json_decref(j);
	free(s);

	ck_assert_int_eq(cli(out, 7, ARGS("csv")), 0);
	s = slurp(out);
	ck_assert_msg(!strncmp(s, "kernel,calls,cycles,pct_run,", 28), "%s", s);
	ck_assert_ptr_nonnull(strstr(s, "\r\nload,1,67,"));
	free(s);

	/* table: the header, dashes as wide as each column, aligned rows */
	ck_assert_int_eq(cli(out, 5, ARGS("table")), 0);
#undef ARGS
	s = slurp(out);
	l2 = strchr(s, '\n') + 1;
	ck_assert_msg(!strncmp(s, "kernel   calls  cycles  pct_run  mac_util", 41), "%s", s);
	ck_assert_msg(!strncmp(l2, "-------  -----  ------  -------  --------", 41), "%s", s);
	ck_assert_ptr_nonnull(strstr(s, "\nload         1      67     48.2"));
	free(s);

	/* options before the names work too; diff's two run ids */
	{
		char *d[] = { "query", "--format", "csv", db, "diff", "1", "2", NULL };
		ck_assert_int_eq(cli(out, 7, d), 0);
		s = slurp(out);
		ck_assert_ptr_nonnull(strstr(s, "run,total,139,179,40,"));
		free(s);
	}
}
END_TEST

START_TEST(sql_read_only)
{
	const char *out = in_dir("out.txt");
	char *ok[] = { "query", db, "--sql", "SELECT count(*) AS n FROM kernel_execs",
		       "--format", "csv", NULL };
	char *bad[][5] = {
		{ "query", db, "--sql", "DELETE FROM runs", NULL },
		{ "query", db, "--sql", "SELECT 1; DROP TABLE runs", NULL },
		{ "query", db, "--sql", "CREATE TABLE x (a)", NULL },
		{ "query", db, "--sql", "SELEC 1", NULL },
	};
	npu_err e = { "" };
	npu_qdb *q;
	npu_qres r;
	char *s;

	ck_assert_int_eq(cli(out, 6, ok), 0);
	s = slurp(out);
	ck_assert_str_eq(s, "n\r\n6\r\n");
	free(s);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_int_eq(cli(out, 4, bad[i]), NPU_EXIT_USAGE);
	q = npu_qdb_open(db, &e);
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(npu_query_user(q, "UPDATE runs SET label = 'x'", &r, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "read-only"));
	/* the connection itself is read-only too */
	ck_assert_int_ne(sqlite3_exec(npu_qdb_handle(q), "DELETE FROM runs",
				      NULL, NULL, NULL), SQLITE_OK);
	npu_qdb_close(q);
	query("runs", 0, NULL, &r);
	ck_assert_uint_eq(r.nrows, 2);
	npu_qres_free(&r);
}
END_TEST

START_TEST(bad_inputs)
{
	const char *out = in_dir("out.txt"), *newer = in_dir("newer.db");
	const char *notdb = in_dir("notes.txt"), *other = in_dir("other.db");
	char *cases[][6] = {
		{ "query", (char *)in_dir("missing.db"), "runs", NULL },
		{ "query", db, "kernels", "--run", "9", NULL },
		{ "query", db, "diff", "1", "9", NULL },
		{ "query", db, "nosuch", NULL },
		{ "query", db, "diff", "1", NULL },
		{ "query", db, "kernels", "--format", "xml", NULL },
		{ "query", db, "kernels", "--run", "x", NULL },
		{ "query", (char *)newer, "runs", NULL },
		{ "query", (char *)notdb, "runs", NULL },
		{ "query", (char *)other, "runs", NULL },
		{ "report", db, "--run", "9", "-o", (char *)in_dir("rep") },
		{ "export-trace", db, "--run", "9", "-o", (char *)in_dir("x.json") },
		{ "export-trace", (char *)newer, "-o", (char *)in_dir("x.json"), NULL },
	};
	npu_err e = { "" };
	sqlite3 *h;
	FILE *f;

	ck_assert_int_eq(sqlite3_open(newer, &h), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(h, "PRAGMA application_id = 1313887572; "
				      "PRAGMA user_version = 99; CREATE TABLE runs (id)",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	ck_assert_int_eq(sqlite3_open(other, &h), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(h, "CREATE TABLE t (a)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	f = fopen(notdb, "w");
	ck_assert_ptr_nonnull(f);
	fputs("these are notes, not a database, and long enough to tell\n", f);
	fclose(f);

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int n = 0;
		while (n < 6 && cases[i][n])
			n++;
		ck_assert_msg(cli(out, n, cases[i]) == NPU_EXIT_USAGE, "case %zu", i);
	}
	ck_assert_ptr_null(npu_qdb_open(newer, &e));
	ck_assert_msg(strstr(e.msg, "schema version 99 is newer") != NULL, "%s", e.msg);
	ck_assert_ptr_null(npu_qdb_open(notdb, &e));
	ck_assert_msg(strstr(e.msg, "not an SQLite database") != NULL, "%s", e.msg);
	ck_assert_ptr_null(npu_qdb_open(other, &e));
	ck_assert_msg(strstr(e.msg, "not an npusim trace") != NULL, "%s", e.msg);
	{
		npu_qdb *q = npu_qdb_open(db, &e);
		npu_qrun r;
		ck_assert_ptr_nonnull(q);
		ck_assert_int_eq(npu_qdb_run(q, 9, &r, &e), -1);
		ck_assert_msg(strstr(e.msg, "no run 9") != NULL, "%s", e.msg);
		npu_qdb_close(q);
	}
	/* nothing was written for the failed report and export */
	ck_assert_int_ne(access(in_dir("x.json"), F_OK), 0);
}
END_TEST

static long file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

START_TEST(report_files)
{
	const char *out = in_dir("out.txt"), *rep = in_dir("rep");
	char *argv[] = { "report", db, "--run", "1", "-o", (char *)rep, NULL };
	static const char *const stems[] = { "roofline", "categories", "timeline",
					     "dram", "runs" };
	char path[4400], *html;

	ck_assert_int_eq(cli(out, 6, argv), 0);
	snprintf(path, sizeof path, "%s/index.html", rep);
	html = slurp(path);
	for (size_t i = 0; i < sizeof stems / sizeof *stems; i++) {
		char ref[64];
		snprintf(path, sizeof path, "%s/%s.png", rep, stems[i]);
		ck_assert_msg(file_size(path) > 1000, "%s", path);
		snprintf(path, sizeof path, "%s/%s.svg", rep, stems[i]);
		ck_assert_msg(file_size(path) > 1000, "%s", path);
		snprintf(ref, sizeof ref, "src=\"%s.png\"", stems[i]);
		ck_assert_msg(strstr(html, ref) != NULL, "%s", ref);
	}
	/* the key tables, with the hand-computed numbers */
	ck_assert_ptr_nonnull(strstr(html, "<td>addrelu</td>"));
	ck_assert_ptr_nonnull(strstr(html, "<tr><td>load</td><td class=n>1</td>"
				     "<td class=n>67</td>"));
	ck_assert_ptr_nonnull(strstr(html, "139 cycles"));
	free(html);

	/* A report whose gnuplot fails leaves no index.html behind. */
	setenv("NPU_GNUPLOT", "false", 1);
	ck_assert_int_eq(cli(out, 6, argv), NPU_EXIT_USAGE);
	snprintf(path, sizeof path, "%s/index.html", rep);
	ck_assert_int_ne(access(path, F_OK), 0);
	setenv("NPU_GNUPLOT", "npu-no-such-gnuplot", 1);
	ck_assert_int_eq(cli(out, 6, argv), NPU_EXIT_USAGE);
	ck_assert_int_ne(access(path, F_OK), 0);
	unsetenv("NPU_GNUPLOT");

	/* Without its target the run has no ceilings: no roofline, said so. */
	setenv("NPU_TARGET_PATH", dir, 1);
	{
		char *a2[] = { "report", db, "--run", "1", "-o", (char *)in_dir("rep2"), NULL };
		ck_assert_int_eq(cli(out, 6, a2), 0);
	}
	snprintf(path, sizeof path, "%s/index.html", in_dir("rep2"));
	html = slurp(path);
	ck_assert_ptr_null(strstr(html, "roofline.png"));
	ck_assert_ptr_nonnull(strstr(html, "timeline.png"));
	ck_assert_ptr_nonnull(strstr(html, "not found or changed since the run"));
	free(html);
}
END_TEST

/* Chrome trace events: the fields each phase requires. */
START_TEST(chrome_export)
{
	const char *out = in_dir("out.txt"), *js = in_dir("run.json");
	char *argv[] = { "export-trace", db, "--run", "1", "-o", (char *)js, NULL };
	int nx_kernel = 0, nx_dma = 0, nx_act = 0, nc = 0, nthread = 0;
	json_error_t je;
	json_t *root, *evs, *ev;
	size_t i;

	ck_assert_int_eq(cli(out, 6, argv), 0);
	root = json_load_file(js, 0, &je);
	ck_assert_msg(root != NULL, "%s: %s", js, je.text);
	evs = json_object_get(root, "traceEvents");
	ck_assert(json_is_array(evs));
	ck_assert_str_eq(json_string_value(json_object_get(root, "displayTimeUnit")), "ns");
	NEAR(json_number_value(json_object_get(json_object_get(root, "otherData"),
					       "clock_mhz")), 1000);
	json_array_foreach(evs, i, ev) {
		const char *ph = json_string_value(json_object_get(ev, "ph"));
		json_t *args = json_object_get(ev, "args");
		ck_assert_ptr_nonnull(ph);
		ck_assert(json_is_string(json_object_get(ev, "name")));
		ck_assert(json_is_integer(json_object_get(ev, "pid")));
		ck_assert(json_is_integer(json_object_get(ev, "tid")));
		ck_assert(json_is_object(args));
		if (!strcmp(ph, "M")) {
			if (!strcmp(json_string_value(json_object_get(ev, "name")), "thread_name"))
				nthread++;
			continue;
		}
		ck_assert(json_is_number(json_object_get(ev, "ts")));
		if (!strcmp(ph, "C")) {
			ck_assert(json_is_number(json_object_get(args, "read")));
			ck_assert(json_is_number(json_object_get(args, "write")));
			nc++;
			continue;
		}
		ck_assert_str_eq(ph, "X");
		ck_assert(json_is_number(json_object_get(ev, "dur")));
		ck_assert(json_number_value(json_object_get(ev, "dur")) >= 0);
		if (!strcmp(json_string_value(json_object_get(ev, "cat")), "kernel")) {
			const char *n = json_string_value(json_object_get(ev, "name"));
			json_t *nodes = json_object_get(args, "nodes");
			ck_assert_int_eq(json_integer_value(json_object_get(ev, "tid")),
					 NPU_CHROME_TID_KERNELS);
			ck_assert(json_is_array(nodes));
			if (!strcmp(n, "addrelu")) {
				/* [67, 79) cycles at 1000 MHz */
				NEAR(json_number_value(json_object_get(ev, "ts")), 0.067);
				NEAR(json_number_value(json_object_get(ev, "dur")), 0.012);
				ck_assert_int_eq(json_array_size(nodes), 2);
				ck_assert_str_eq(json_string_value(json_array_get(nodes, 0)),
						 "add (aten.add.Tensor)");
			}
			nx_kernel++;
		} else if (!strcmp(json_string_value(json_object_get(ev, "cat")), "dma")) {
			ck_assert(json_is_array(json_object_get(args, "nodes")));
			ck_assert_int_eq(json_integer_value(json_object_get(args, "bytes")), 256);
			nx_dma++;
		} else {
			nx_act++;
		}
	}
	ck_assert_int_eq(nx_kernel, 3);
	ck_assert_int_eq(nx_dma, 2);
	/* scl, vec, dma0, dma1 rows of the run without idle: at least the
	 * stalls and busy stretches worked out above */
	ck_assert_int_ge(nx_act, 8);
	ck_assert_int_gt(nc, 0);
	/* kernels, 6 units, 2 transfer tracks */
	ck_assert_int_eq(nthread, 1 + 6 + 2);
	json_decref(root);
}
END_TEST

START_TEST(docs_in_sync)
{
	char path[4200], *doc, *gen, *b, *e;
	size_t n = npu_query_doc(NULL, 0);

	gen = malloc(n + 1);
	ck_assert_ptr_nonnull(gen);
	ck_assert_uint_eq(npu_query_doc(gen, n + 1), n);
	snprintf(path, sizeof path, "%s/docs/queries.md", srcdir());
	doc = slurp(path);
	b = strstr(doc, "<!-- queries:begin -->\n");
	e = strstr(doc, "<!-- queries:end -->");
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(e);
	b += strlen("<!-- queries:begin -->\n");
	ck_assert_msg((size_t)(e - b) == n && !memcmp(b, gen, n),
		      "docs/queries.md is out of date: regenerate the part between "
		      "its markers from npu_query_doc()");
	free(doc);
	free(gen);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("query");
	TCase *t = tcase_create("query");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, runs_query);
	tcase_add_test(t, kernels_query);
	tcase_add_test(t, nodes_ops_modules);
	tcase_add_test(t, units_overlap);
	tcase_add_test(t, diff_query);
	tcase_add_test(t, output_formats);
	tcase_add_test(t, sql_read_only);
	tcase_add_test(t, bad_inputs);
	tcase_add_test(t, report_files);
	tcase_add_test(t, chrome_export);
	suite_add_tcase(s, t);
	t = tcase_create("docs");
	tcase_add_test(t, docs_in_sync);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
