/*
 * chrome.c - Chrome trace event export (see chrome.h).
 *
 * A full-detail trace has millions of activity rows, so the file is
 * streamed: each event is built as a small Jansson object, dumped and
 * freed, and only the kernel table (names and FX nodes) is kept in memory.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/afile.h"
#include "traces/chrome.h"
#include "traces/trace.h"

#define PID 1
#define NBW 1000   /* bins of the DRAM bandwidth counter */

typedef struct kinfo {
	char *name;
	json_t *nodes;   /* ["mm (aten.mm.default)", ...] */
} kinfo;

typedef struct exporter {
	npu_qdb *q;
	const npu_qrun *r;
	FILE *f;
	int first;       /* no event written yet */
	kinfo *k;
	int nk;
	npu_err *e;
} exporter;

static int dberr(exporter *x, const char *what)
{
	return npu_errf(x->e, "%s: %s: %s", npu_qdb_path(x->q), what,
			sqlite3_errmsg(npu_qdb_handle(x->q)));
}

static sqlite3_stmt *prep(exporter *x, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(npu_qdb_handle(x->q), sql, -1, &st, NULL) != SQLITE_OK) {
		dberr(x, "cannot read the run");
		return NULL;
	}
	if (sqlite3_bind_parameter_index(st, ":run"))
		sqlite3_bind_int64(st, sqlite3_bind_parameter_index(st, ":run"),
				   x->r->id);
	return st;
}

/* Writes one event and frees it.  Dumped into a buffer first: Jansson
 * writes a stream in many small pieces, and fwrite per piece was the
 * biggest cost of a large export. */
static int emit(exporter *x, json_t *ev)
{
	enum { FLAGS = JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) };
	char buf[8192], *big = NULL;
	size_t n;
	int rc = -1;

	if (!ev)
		return npu_errf(x->e, "out of memory");
	n = json_dumpb(ev, buf, sizeof buf, FLAGS);
	if (n > sizeof buf) {   /* a kernel with many nodes */
		big = json_dumps(ev, FLAGS);
		n = big ? strlen(big) : 0;
	}
	if (n && fputs(x->first ? "\n" : ",\n", x->f) != EOF &&
	    fwrite(big ? big : buf, 1, n, x->f) == n)
		rc = 0;
	x->first = 0;
	free(big);
	json_decref(ev);
	return rc ? npu_errf(x->e, "cannot write: %s", strerror(errno)) : 0;
}

static double us(const exporter *x, uint64_t cycles)
{
	return (double)cycles / x->r->clock_mhz;
}

static int meta(exporter *x, const char *what, int tid, json_t *args)
{
	return emit(x, json_pack("{s:s,s:s,s:i,s:i,s:o}", "name", what, "ph", "M",
				 "pid", PID, "tid", tid, "args", args));
}

static int thread(exporter *x, int tid, const char *name)
{
	return meta(x, "thread_name", tid, json_pack("{s:s}", "name", name)) ||
	       meta(x, "thread_sort_index", tid, json_pack("{s:i}", "sort_index", tid));
}

static json_t *x_event(exporter *x, const char *name, const char *cat, int tid,
		       uint64_t s, uint64_t e, json_t *args)
{
	return json_pack("{s:s,s:s,s:s,s:f,s:f,s:i,s:i,s:o}", "name", name,
			 "cat", cat, "ph", "X", "ts", us(x, s), "dur", us(x, e - s),
			 "pid", PID, "tid", tid, "args", args ? args : json_object());
}

static const char *col_text(sqlite3_stmt *st, int c)
{
	const unsigned char *s = sqlite3_column_text(st, c);
	return s ? (const char *)s : "";
}

/* The kernel table with each kernel's FX nodes. */
static int load_kernels(exporter *x)
{
	sqlite3_stmt *st = prep(x, "SELECT k.kernel, s.text FROM kernels k "
				"JOIN strings s ON s.id = k.name_id "
				"WHERE k.run_id = :run ORDER BY k.kernel");
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int k = sqlite3_column_int(st, 0);
		if (k < 0 || k > 1 << 24)
			continue;
		if (k >= x->nk) {
			kinfo *nk = realloc(x->k, (size_t)(k + 1) * sizeof *nk);
			if (!nk)
				break;
			memset(nk + x->nk, 0, (size_t)(k + 1 - x->nk) * sizeof *nk);
			x->k = nk;
			x->nk = k + 1;
		}
		free(x->k[k].name);
		x->k[k].name = strdup(col_text(st, 1));
		if (!x->k[k].nodes)
			x->k[k].nodes = json_array();
		if (!x->k[k].name || !x->k[k].nodes)
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc == SQLITE_ROW ? npu_errf(x->e, "out of memory") :
			dberr(x, "cannot read its kernels");
	st = prep(x, "SELECT kn.kernel, s.text, t.text FROM kernel_nodes kn "
		  "JOIN nodes n ON n.run_id = kn.run_id AND n.node = kn.node "
		  "JOIN strings s ON s.id = n.name_id JOIN strings t ON t.id = n.target_id "
		  "WHERE kn.run_id = :run ORDER BY kn.kernel, kn.node");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int k = sqlite3_column_int(st, 0);
		char buf[1024];
		if (k < 0 || k >= x->nk || !x->k[k].nodes)
			continue;
		snprintf(buf, sizeof buf, "%s (%s)", col_text(st, 1), col_text(st, 2));
		json_array_append_new(x->k[k].nodes, json_string(buf));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : dberr(x, "cannot read its nodes");
}

static const char *kname(const exporter *x, sqlite3_stmt *st, int c)
{
	int k;

	if (sqlite3_column_type(st, c) == SQLITE_NULL)
		return NULL;
	k = sqlite3_column_int(st, c);
	return k >= 0 && k < x->nk && x->k[k].name ? x->k[k].name : "?";
}

static json_t *knodes(const exporter *x, sqlite3_stmt *st, int c)
{
	int k;

	if (sqlite3_column_type(st, c) == SQLITE_NULL)
		return json_array();
	k = sqlite3_column_int(st, c);
	return k >= 0 && k < x->nk && x->k[k].nodes ?
		json_deep_copy(x->k[k].nodes) : json_array();
}

/* Metadata: the process and one named track per unit the run used. */
static int tracks(exporter *x)
{
	char name[1024];
	sqlite3_stmt *st;
	int rc;

	snprintf(name, sizeof name, "run %" PRId64 ": %s on %s", x->r->id,
		 x->r->program, x->r->target_name);
	if (emit(x, json_pack("{s:s,s:s,s:i,s:i,s:{s:s}}", "name", "process_name",
			      "ph", "M", "pid", PID, "tid", 0, "args", "name", name)) ||
	    thread(x, NPU_CHROME_TID_KERNELS, "kernels"))
		return -1;
	/* The simulator writes UNIT.busy for every unit of the machine. */
	st = prep(x, "SELECT u.id, u.name, u.kind FROM units u WHERE EXISTS ("
		  "SELECT 1 FROM counters c JOIN strings s ON s.id = c.name_id "
		  "WHERE c.run_id = :run AND s.text = u.name || '.busy') ORDER BY u.id");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int u = sqlite3_column_int(st, 0);
		if (thread(x, NPU_CHROME_TID_UNIT(u), col_text(st, 1)))
			break;
		if (!strcmp(col_text(st, 2), "dma")) {
			snprintf(name, sizeof name, "%s transfers", col_text(st, 1));
			if (thread(x, NPU_CHROME_TID_DMA(u - 4), name))
				break;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_ROW ? -1 :
		dberr(x, "cannot read its units");
}

static int kernels(exporter *x)
{
	sqlite3_stmt *st = prep(x, "SELECT kernel, start_cycle, end_cycle, macs, "
				"vec_ops, insns, dram_rd_bytes, dram_wr_bytes, "
				"compute_cycles, dma_wait_cycles, dep_stall_cycles, "
				"bank_stall_cycles FROM kernel_execs "
				"WHERE run_id = :run ORDER BY rowid");
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t s = (uint64_t)sqlite3_column_int64(st, 1);
		uint64_t e = (uint64_t)sqlite3_column_int64(st, 2);
		const char *n = kname(x, st, 0);
		json_t *args = json_pack("{s:i,s:o,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
			"kernel", sqlite3_column_int(st, 0), "nodes", knodes(x, st, 0),
			"cycles", (json_int_t)(e - s),
			"macs", (json_int_t)sqlite3_column_int64(st, 3),
			"vec_ops", (json_int_t)sqlite3_column_int64(st, 4),
			"insns", (json_int_t)sqlite3_column_int64(st, 5),
			"dram_rd_bytes", (json_int_t)sqlite3_column_int64(st, 6),
			"dram_wr_bytes", (json_int_t)sqlite3_column_int64(st, 7),
			"compute_cycles", (json_int_t)sqlite3_column_int64(st, 8),
			"dma_wait_cycles", (json_int_t)sqlite3_column_int64(st, 9),
			"dep_stall_cycles", (json_int_t)sqlite3_column_int64(st, 10),
			"bank_stall_cycles", (json_int_t)sqlite3_column_int64(st, 11));
		if (!args || emit(x, x_event(x, n ? n : "?", "kernel",
					     NPU_CHROME_TID_KERNELS, s, e, args)))
			break;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_ROW ? -1 :
		dberr(x, "cannot read its kernel executions");
}

/*
 * Activity rows are most of a trace, so one event object is reused:
 * its values are set in place for each row (with the kernel names made
 * once), instead of building and hashing a new object per event.
 */
static int activity(exporter *x)
{
	/* The run's rowid range, scanned: faster than the run_id index. */
	sqlite3_stmt *st = prep(x, "SELECT unit, state, start_cycle, end_cycle, "
		"kernel FROM activity WHERE rowid BETWEEN (SELECT min(rowid) "
		"FROM activity WHERE run_id = :run) AND (SELECT max(rowid) FROM "
		"activity WHERE run_id = :run) AND +run_id = :run AND state <> 4");
	json_t *ev = json_pack("{s:s,s:s,s:s,s:f,s:f,s:i,s:i,s:{s:n}}", "name", "",
			       "cat", "activity", "ph", "X", "ts", 0.0, "dur", 0.0,
			       "pid", PID, "tid", 0, "args", "kernel");
	json_t *name, *ts, *dur, *tid, *args, *null = json_null();
	json_t **kn = calloc((size_t)x->nk + 1, sizeof *kn);
	int rc = SQLITE_ERROR;

	if (!st || !ev || !kn) {
		if (st && (!ev || !kn))
			npu_errf(x->e, "out of memory");
		goto out;
	}
	name = json_object_get(ev, "name");
	ts = json_object_get(ev, "ts");
	dur = json_object_get(ev, "dur");
	tid = json_object_get(ev, "tid");
	args = json_object_get(ev, "args");
	for (int k = 0; k < x->nk; k++)
		kn[k] = json_string(x->k[k].name ? x->k[k].name : "?");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint64_t s = (uint64_t)sqlite3_column_int64(st, 2);
		uint64_t e = (uint64_t)sqlite3_column_int64(st, 3);
		int k = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 :
			sqlite3_column_int(st, 4);
		json_string_set(name, npu_trace_state_name(sqlite3_column_int(st, 1)));
		json_real_set(ts, us(x, s));
		json_real_set(dur, us(x, e - s));
		json_integer_set(tid, NPU_CHROME_TID_UNIT(sqlite3_column_int(st, 0)));
		json_object_set(args, "kernel", k >= 0 && k < x->nk && kn[k] ? kn[k] : null);
		json_incref(ev);  /* emit() drops one reference */
		if (emit(x, ev))
			break;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		dberr(x, "cannot read its activity");
out:
	sqlite3_finalize(st);
	for (int k = 0; kn && k < x->nk; k++)
		json_decref(kn[k]);
	free(kn);
	json_decref(ev);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Spreads n bytes evenly over [s, e) into the bins of bw. */
static void spread(double *bw, uint64_t total, uint64_t s, uint64_t e, double n)
{
	double w = (double)total / NBW;

	if (e <= s || !total)
		return;
	for (uint64_t b = (uint64_t)(s / w); b < NBW; b++) {
		double lo = b * w, hi = lo + w;
		double a = (double)s > lo ? (double)s : lo;
		double z = (double)e < hi ? (double)e : hi;
		if (a >= (double)e)
			break;
		if (z > a)
			bw[b] += n * (z - a) / (double)(e - s);
	}
}

static int dmas(exporter *x, double *rd, double *wr)
{
	sqlite3_stmt *st = prep(x, "SELECT engine, dir, bytes, bytes_touched, "
				"issue_cycle, start_cycle, end_cycle, kernel "
				"FROM dma_xfers WHERE run_id = :run ORDER BY rowid");
	uint64_t total = x->r->total_cycles;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int dir = sqlite3_column_int(st, 1);
		double touched = (double)sqlite3_column_int64(st, 3);
		uint64_t s = (uint64_t)sqlite3_column_int64(st, 5);
		uint64_t e = (uint64_t)sqlite3_column_int64(st, 6);
		const char *k = kname(x, st, 7);
		json_t *args = json_pack("{s:I,s:I,s:I,s:s?,s:o}",
			"bytes", (json_int_t)sqlite3_column_int64(st, 2),
			"bytes_touched", (json_int_t)touched,
			"issue_cycle", (json_int_t)sqlite3_column_int64(st, 4),
			"kernel", k, "nodes", knodes(x, st, 7));
		if (emit(x, x_event(x, npu_trace_dir_name(dir), "dma",
				    NPU_CHROME_TID_DMA(sqlite3_column_int(st, 0)),
				    s, e, args)))
			break;
		/* DRAM side: reads for loads and gathers, writes for stores
		 * and scatters, both halves of a DRAM-to-DRAM copy's bursts. */
		if (dir == 0 || dir == 4)
			spread(rd, total, s, e, touched);
		else if (dir == 1 || dir == 5)
			spread(wr, total, s, e, touched);
		else if (dir == 3) {
			spread(rd, total, s, e, touched / 2);
			spread(wr, total, s, e, touched / 2);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_ROW ? -1 :
		dberr(x, "cannot read its DMA transfers");
}

/* The DRAM bandwidth counter, GB/s per bin (bytes/cycle * MHz / 1000). */
static int bandwidth(exporter *x, const double *rd, const double *wr)
{
	double w = (double)x->r->total_cycles / NBW;
	double scale = x->r->clock_mhz / 1000 / w;

	if (!x->r->total_cycles)
		return 0;
	for (int b = 0; b <= NBW; b++) {
		double r = b < NBW ? rd[b] * scale : 0, v = b < NBW ? wr[b] * scale : 0;
		if (emit(x, json_pack("{s:s,s:s,s:f,s:i,s:i,s:{s:f,s:f}}",
				      "name", "DRAM bandwidth (GB/s)", "ph", "C",
				      "ts", b * w / x->r->clock_mhz, "pid", PID,
				      "tid", 0, "args", "read", r, "write", v)))
			return -1;
	}
	return 0;
}

static int write_all(exporter *x)
{
	double *rd = calloc(2 * NBW, sizeof *rd);
	json_t *other;
	int rc = -1;

	if (!rd)
		return npu_errf(x->e, "out of memory");
	if (fputs("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [", x->f) == EOF ||
	    load_kernels(x) || tracks(x) || kernels(x) || activity(x) ||
	    dmas(x, rd, rd + NBW) || bandwidth(x, rd, rd + NBW))
		goto out;
	other = json_pack("{s:I,s:s,s:s,s:f,s:b,s:s,s:I}",
		"run", (json_int_t)x->r->id, "program", x->r->program,
		"target", x->r->target_name, "clock_mhz", x->r->clock_mhz,
		"target_found", x->r->has_target,
		"time_unit", "ts and dur in microseconds: cycles / clock_mhz",
		"total_cycles", (json_int_t)x->r->total_cycles);
	if (!other) {
		npu_errf(x->e, "out of memory");
		goto out;
	}
	if (fputs("\n], \"otherData\": ", x->f) == EOF ||
	    json_dumpf(other, x->f, JSON_COMPACT | JSON_PRESERVE_ORDER) ||
	    fputs("}\n", x->f) == EOF) {
		json_decref(other);
		npu_errf(x->e, "cannot write: %s", strerror(errno));
		goto out;
	}
	json_decref(other);
	rc = 0;
out:
	free(rd);
	return rc;
}

int npu_chrome_export(npu_qdb *q, const npu_qrun *r, const char *path,
		      npu_err *e)
{
	exporter x = { q, r, NULL, 1, NULL, 0, e };
	npu_afile af;
	int rc = -1;

	if (npu_afile_open(&af, path, e) < 0)
		return -1;
	if (!(x.f = npu_afile_stdio(&af, e)))
		npu_afile_abort(&af);
	else if (write_all(&x) == 0)
		rc = npu_afile_commit(&af, e);
	else {
		npu_err_prefix(e, "%s", path);
		npu_afile_abort(&af);
	}
	for (int i = 0; i < x.nk; i++) {
		free(x.k[i].name);
		json_decref(x.k[i].nodes);
	}
	free(x.k);
	return rc;
}
