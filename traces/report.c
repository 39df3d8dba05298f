/*
 * report.c - gnuplot charts and an index.html for one run (see report.h).
 *
 * The data come from the canned queries (kernels, units, nodes, overlap)
 * and a few reads of their own; each chart gets a data file, and one
 * script draws every chart twice, once per terminal (pngcairo, svg).
 * Long kernel names are shortened (head..tail) so axis labels stay
 * legible; the full names are in the tables.  The timeline is binned to
 * about one box per pixel column: each bin shows the state that filled
 * most of it (idle when nothing did), so a trace of millions of rows
 * draws as fast as a small one.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/afile.h"
#include "traces/report.h"
#include "traces/trace.h"

#define TOPK 15      /* kernels shown in the bar charts */
#define NBIN 1200    /* timeline bins per unit */
#define NAMELEN 24   /* chart labels longer than this are shortened */

enum {
#define X(stem, title) C_##stem,
	NPU_REPORT_CHARTS(X)
#undef X
	NCHART
};
static const struct { const char *stem, *title; } charts[] = {
#define X(stem, title) { #stem, title },
	NPU_REPORT_CHARTS(X)
#undef X
};

/* Colours of the unit states (enum npu_ustate) and of the kernel track. */
static const char *const state_rgb[NPU_NUSTATE] = {
	"#2e7d32", "#1565c0", "#ef6c00", "#c62828", "#e0e0e0"
};

typedef struct rep {
	npu_qdb *q;
	const npu_qrun *r;
	const char *dir;
	npu_err *e;
	FILE *gp;              /* the script, one chart body at a time */
	char *body[NCHART];    /* gnuplot commands of each chart, or NULL */
	npu_qres kern, units, nodes, overlap;
} rep;

/* ---- small helpers ---- */

static char *path_in(const rep *p, const char *name)
{
	size_t n = strlen(p->dir) + strlen(name) + 2;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s/%s", p->dir, name);
	return s;
}

static FILE *open_in(rep *p, const char *name)
{
	char *path = path_in(p, name);
	FILE *f = path ? fopen(path, "w") : NULL;

	if (!f)
		npu_errf(p->e, "%s/%s: cannot create: %s", p->dir, name,
			 path ? strerror(errno) : "out of memory");
	free(path);
	return f;
}

static int close_in(rep *p, FILE *f, const char *name)
{
	if (ferror(f) | fclose(f))
		return npu_errf(p->e, "%s/%s: cannot write", p->dir, name);
	return 0;
}

/* A label for a chart: no quotes, at most NAMELEN characters. */
static void shorten(const char *s, char *out)
{
	size_t n, k = 0;
	char buf[1024];

	if (!s)
		s = "?";
	n = strlen(s);
	for (size_t i = 0; i < n && k < sizeof buf - 1; i++)
		buf[k++] = s[i] == '"' || s[i] == '\\' || s[i] == '\n' ? '_' : s[i];
	buf[k] = 0;
	if (k <= NAMELEN) {
		strcpy(out, buf);
		return;
	}
	/* head..tail: generated names differ at both ends (layer and op). */
	snprintf(out, NAMELEN + 1, "%.11s..%s", buf, buf + k - (NAMELEN - 13));
}

/* Appends printf text to a chart's body. */
static int add(rep *p, int chart, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int add(rep *p, int chart, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL, *old = p->body[chart];
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return npu_errf(p->e, "out of memory");
	if (old) {
		char *j = NULL;
		n = asprintf(&j, "%s%s", old, s);
		free(s);
		if (n < 0)
			return npu_errf(p->e, "out of memory");
		free(old);
		s = j;
	}
	p->body[chart] = s;
	return 0;
}

static const char *html_escape(const char *s, char *out, size_t n)
{
	size_t k = 0;

	for (; *s && k + 7 < n; s++) {
		const char *r = *s == '<' ? "&lt;" : *s == '>' ? "&gt;" :
			*s == '&' ? "&amp;" : *s == '"' ? "&quot;" : NULL;
		if (r) {
			strcpy(out + k, r);
			k += strlen(r);
		} else {
			out[k++] = *s;
		}
	}
	out[k] = 0;
	return out;
}

static sqlite3_stmt *prep(rep *p, const char *sql)
{
	sqlite3_stmt *st;
	int i;

	if (sqlite3_prepare_v2(npu_qdb_handle(p->q), sql, -1, &st, NULL) != SQLITE_OK) {
		npu_errf(p->e, "%s: %s", npu_qdb_path(p->q),
			 sqlite3_errmsg(npu_qdb_handle(p->q)));
		return NULL;
	}
	if ((i = sqlite3_bind_parameter_index(st, ":run")))
		sqlite3_bind_int64(st, i, p->r->id);
	return st;
}

static int step_done(rep *p, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	return npu_errf(p->e, "%s: %s", npu_qdb_path(p->q),
			sqlite3_errmsg(npu_qdb_handle(p->q)));
}

/* ---- charts ---- */

/* Operational intensity (flop per DRAM byte, a MAC being 2 flops) against
 * achieved GFLOP/s, under the matrix, vector and bandwidth ceilings. */
static int roofline(rep *p)
{
	double ghz = p->r->clock_mhz / 1000, xmin = INFINITY, xmax = 0, ymax = 0;
	double ymin = INFINITY;
	double mpk = 2 * p->r->mxu_peak * ghz, vpk = p->r->vec_peak * ghz;
	double bw = p->r->mem_bw * ghz;
	sqlite3_stmt *st;
	FILE *f;
	int rc, n = 0, nk = 0;

	if (!p->r->has_target)
		return 0;
	if (!(f = open_in(p, "roofline.dat")))
		return -1;
	/* Only kernels with NPU work and DRAM traffic have a point (host
	 * calls have neither); the title counts the others. */
	st = prep(p, "SELECT s.text, sum(e.end_cycle - e.start_cycle) AS cyc,\n"
		  "  2.0 * sum(e.macs) + sum(e.vec_ops) AS flop,\n"
		  "  sum(e.dram_rd_bytes + e.dram_wr_bytes) AS bytes,\n"
		  "  (SELECT count(*) FROM kernels WHERE run_id = :run) AS nk\n"
		  "FROM kernel_execs e JOIN kernels k ON k.run_id = e.run_id AND k.kernel = e.kernel\n"
		  "JOIN strings s ON s.id = k.name_id WHERE e.run_id = :run\n"
		  "GROUP BY e.kernel HAVING cyc > 0 AND flop > 0 AND bytes > 0\n"
		  "ORDER BY cyc DESC LIMIT 40");
	if (!st) {
		fclose(f);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double cyc = sqlite3_column_double(st, 1), fl = sqlite3_column_double(st, 2);
		double by = sqlite3_column_double(st, 3), x, y;
		nk = sqlite3_column_int(st, 4);
		char name[NAMELEN + 1];
		/* No DRAM bytes or no work: no point on a log-log chart. */
		if (cyc <= 0 || fl <= 0 || by <= 0)
			continue;
		x = fl / by;
		y = fl / cyc * ghz;
		/* Labels on the 10 longest kernels only: more overlap. */
		shorten((const char *)sqlite3_column_text(st, 0), name);
		fprintf(f, "%.6g %.6g \"%s\"\n", x, y, n < 10 ? name : "");
		xmin = x < xmin ? x : xmin;
		xmax = x > xmax ? x : xmax;
		ymax = y > ymax ? y : ymax;
		ymin = y < ymin ? y : ymin;
		n++;
	}
	/* Without a point the ceilings still say where kernels could be. */
	if (!n)
		fprintf(f, "%g %g \"(no kernel with both DRAM traffic and work)\"\n",
			mpk / bw, vpk / 10);
	if (step_done(p, st, rc) | close_in(p, f, "roofline.dat"))
		return -1;
	if (!n)
		xmin = xmax = mpk / bw, ymin = ymax = vpk / 10;
	xmin = fmin(xmin / 4, mpk / bw / 16);
	xmax = fmax(xmax * 4, mpk / bw * 16);
	return add(p, C_roofline,
		"set title \"Roofline: run %" PRId64 " on %s (%.0f MHz): %d of %d kernels "
		"(the rest have no NPU work or no DRAM traffic)\"\n"
		"set logscale xy\nset grid\n"
		"set xlabel \"operational intensity (flop per DRAM byte; 1 MAC = 2 flop)\"\n"
		"set ylabel \"achieved GFLOP/s\"\n"
		"set xrange [%g:%g]\nset yrange [%g:%g]\n"
		"set key bottom right box opaque\nset samples 400\n"
		"min(a, b) = a < b ? a : b\n"
		"plot min(%g * x, %g) title \"matrix peak %.0f GFLOP/s, DRAM %.0f GB/s\" lw 2 lc rgb \"#1565c0\", \\\n"
		"  min(%g * x, %g) title \"vector peak %.0f GFLOP/s\" lw 2 dt 2 lc rgb \"#2e7d32\", \\\n"
		"  \"roofline.dat\" using 1:2 with points pt 7 ps 1.2 lc rgb \"#c62828\" title \"kernels (the 10 longest named)\", \\\n"
		"  \"roofline.dat\" using 1:2:3 with labels offset 0.6,0.6 left font \",8\" notitle\n",
		p->r->id, p->r->target_name, p->r->clock_mhz, n, nk, xmin, xmax,
		fmin(ymin / 4, bw * xmin),
		fmax(mpk, ymax) * 3, bw, mpk, mpk, bw, bw, vpk, vpk);
}

/* Stacked bars of the top kernels' cycles by category (summed over units). */
static int categories(rep *p)
{
	sqlite3_stmt *st = prep(p, "SELECT s.text, sum(e.compute_cycles), "
		"sum(e.dma_wait_cycles), sum(e.dep_stall_cycles), "
		"sum(e.bank_stall_cycles), sum(e.end_cycle - e.start_cycle) AS c "
		"FROM kernel_execs e JOIN kernels k ON k.run_id = e.run_id AND "
		"k.kernel = e.kernel JOIN strings s ON s.id = k.name_id "
		"WHERE e.run_id = :run GROUP BY e.kernel ORDER BY c DESC LIMIT 15");
	FILE *f;
	int rc, n = 0;

	if (!st)
		return -1;
	if (!(f = open_in(p, "categories.dat"))) {
		sqlite3_finalize(st);
		return -1;
	}
	fprintf(f, "# kernel compute dma_wait dep_stall bank_stall\n");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char name[NAMELEN + 1];
		shorten((const char *)sqlite3_column_text(st, 0), name);
		fprintf(f, "\"%s\"", name);
		for (int c = 1; c <= 4; c++)
			fprintf(f, " %lld", (long long)sqlite3_column_int64(st, c));
		fputc('\n', f);
		n++;
	}
	if (step_done(p, st, rc) | close_in(p, f, "categories.dat"))
		return -1;
	if (!n)
		return 0;
	return add(p, C_categories,
		"set title \"Cycles per kernel by category (top %d kernels by time)\"\n"
		"set style data histograms\nset style histogram rowstacked\n"
		"set style fill solid 0.9 border -1\nset boxwidth 0.75\n"
		"set ylabel \"unit-cycles (summed over units)\"\nset format y \"%%.1s%%c\"\n"
		"set xtics rotate by 30 right font \",9\" nomirror\nset grid ytics\n"
		"set key above horizontal\nset yrange [0:*]\nset bmargin 10\n"
		"set lmargin 16\nset rmargin 4\nset offsets 0, 0, graph 0.05, 0\n"
		"set xrange [-0.6:%d.6]\n"
		"plot \"categories.dat\" using 2:xtic(1) title \"compute\" lc rgb \"%s\", \\\n"
		"  \"\" using 3 title \"DMA wait\" lc rgb \"%s\", \\\n"
		"  \"\" using 4 title \"dependency stall\" lc rgb \"%s\", \\\n"
		"  \"\" using 5 title \"bank conflict\" lc rgb \"%s\"\n",
		n, n - 1, state_rgb[0], state_rgb[1], state_rgb[2], state_rgb[3]);
}

/* Clustered bars of DRAM bytes read and written by the top kernels. */
static int dram(rep *p)
{
	sqlite3_stmt *st = prep(p, "SELECT s.text, sum(e.dram_rd_bytes), "
		"sum(e.dram_wr_bytes), sum(e.dram_rd_bytes + e.dram_wr_bytes) AS b "
		"FROM kernel_execs e JOIN kernels k ON k.run_id = e.run_id AND "
		"k.kernel = e.kernel JOIN strings s ON s.id = k.name_id "
		"WHERE e.run_id = :run GROUP BY e.kernel HAVING b > 0 "
		"ORDER BY b DESC LIMIT 15");
	FILE *f;
	int rc, n = 0;

	if (!st)
		return -1;
	if (!(f = open_in(p, "dram.dat"))) {
		sqlite3_finalize(st);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char name[NAMELEN + 1];
		shorten((const char *)sqlite3_column_text(st, 0), name);
		fprintf(f, "\"%s\" %.6g %.6g\n", name,
			sqlite3_column_double(st, 1) / 1048576,
			sqlite3_column_double(st, 2) / 1048576);
		n++;
	}
	if (step_done(p, st, rc) | close_in(p, f, "dram.dat"))
		return -1;
	if (!n)
		return 0;
	return add(p, C_dram,
		"set title \"DRAM traffic per kernel (top %d by bytes)\"\n"
		"set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.9 border -1\n"
		"set ylabel \"MiB (payload bytes)\"\nset yrange [0:*]\n"
		"set xtics rotate by 30 right font \",9\" nomirror\nset grid ytics\n"
		"set key above horizontal\nset bmargin 10\nset lmargin 16\n"
		"set rmargin 4\nset offsets 0, 0, graph 0.05, 0\n"
		"set xrange [-0.6:%d.6]\n"
		"plot \"dram.dat\" using 2:xtic(1) title \"read\" lc rgb \"#1565c0\", \\\n"
		"  \"\" using 3 title \"written\" lc rgb \"#ef6c00\"\n", n, n - 1);
}

/* Total cycles of every finished run in the file, when there are several. */
static int runs(rep *p)
{
	sqlite3_stmt *st = prep(p, "SELECT r.id, coalesce(nullif(r.label, ''), "
		"replace(s.text, rtrim(s.text, replace(s.text, '/', '')), '')), "
		"r.total_cycles FROM runs r LEFT JOIN strings s ON s.id = r.program_id "
		"WHERE r.total_cycles IS NOT NULL ORDER BY r.id DESC LIMIT 30");
	double lo = INFINITY, hi = 0;
	char (*lines)[96] = calloc(30, sizeof *lines);
	FILE *f = NULL;
	int rc, n = 0;

	if (!st || !lines) {
		free(lines);
		sqlite3_finalize(st);
		return st ? npu_errf(p->e, "out of memory") : -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < 30) {
		char name[NAMELEN + 1];
		double c = sqlite3_column_double(st, 2);
		shorten((const char *)sqlite3_column_text(st, 1), name);
		snprintf(lines[n++], sizeof *lines, "\"%lld: %s\" %.0f",
			 (long long)sqlite3_column_int64(st, 0), name, c);
		lo = c > 0 && c < lo ? c : lo;
		hi = c > hi ? c : hi;
	}
	if (step_done(p, st, rc == SQLITE_ROW ? SQLITE_DONE : rc)) {
		free(lines);
		return -1;
	}
	if (n < 2) {
		free(lines);
		return 0;
	}
	if (!(f = open_in(p, "runs.dat"))) {
		free(lines);
		return -1;
	}
	for (int i = n - 1; i >= 0; i--)   /* oldest first */
		fprintf(f, "%s\n", lines[i]);
	free(lines);
	if (close_in(p, f, "runs.dat"))
		return -1;
	return add(p, C_runs,
		"set title \"Total cycles per run (latest %d runs in the file)\"\n"
		"set style data histograms\nset style fill solid 0.9 border -1\n"
		"set boxwidth 0.7\nset ylabel \"cycles\"\n%s"
		"set xtics rotate by 30 right font \",9\" nomirror\nset grid ytics\n"
		"set bmargin 9\nset lmargin 16\nset xrange [-0.6:%d.6]\n"
		"plot \"runs.dat\" using 2:xtic(1) notitle lc rgb \"#1565c0\"\n",
		n, hi > 100 * lo ? "set logscale y\n" : "set yrange [0:*]\nset format y \"%.1s%c\"\n",
		n - 1);
}

/* Per-unit Gantt chart, binned (see the top of the file). */
static int timeline(rep *p)
{
	uint64_t total = p->r->total_cycles;
	double w = (double)total / NBIN;
	double (*bins)[NPU_NUSTATE] = NULL;
	int used[NPU_NUNIT] = { 0 }, row[NPU_NUNIT], nrow = 0, rc;
	sqlite3_stmt *st = NULL;
	FILE *f = NULL;
	int ret = -1;

	if (!total)
		return 0;
	bins = calloc((size_t)NPU_NUNIT * NBIN, sizeof *bins);
	if (!bins)
		return npu_errf(p->e, "out of memory");
	/* The run's rowid range, scanned: faster than the run_id index. */
	if (!(st = prep(p, "SELECT unit, state, start_cycle, end_cycle FROM "
			"activity WHERE rowid BETWEEN (SELECT min(rowid) FROM "
			"activity WHERE run_id = :run) AND (SELECT max(rowid) "
			"FROM activity WHERE run_id = :run) AND +run_id = :run "
			"AND state <> 4")))
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int u = sqlite3_column_int(st, 0), s = sqlite3_column_int(st, 1);
		double a = (double)sqlite3_column_int64(st, 2);
		double z = (double)sqlite3_column_int64(st, 3);
		if (u < 0 || u >= NPU_NUNIT || s < 0 || s >= NPU_NUSTATE || z <= a)
			continue;
		used[u] = 1;
		for (int64_t b = (int64_t)(a / w); b < NBIN; b++) {
			double lo = b * w, hi = lo + w;
			double x0 = a > lo ? a : lo, x1 = z < hi ? z : hi;
			if (x0 >= z)
				break;
			if (x1 > x0)
				bins[u * NBIN + b][s] += x1 - x0;
		}
	}
	if (step_done(p, st, rc))
		goto out;
	if (!(f = open_in(p, "timeline.dat")))
		goto out;
	/* Rows from the top: kernels, then the units in id order. */
	for (int u = 0; u < NPU_NUNIT; u++)
		if (used[u])
			row[u] = ++nrow;
	for (int u = 0; u < NPU_NUNIT; u++) {
		int cur = -1;
		int64_t from = 0;
		if (!used[u])
			continue;
		for (int64_t b = 0; b <= NBIN; b++) {
			int best = -1;
			if (b < NBIN) {
				double idle = w, top = 0;
				for (int s = 0; s < NPU_US_IDLE; s++) {
					idle -= bins[u * NBIN + b][s];
					if (bins[u * NBIN + b][s] > top) {
						top = bins[u * NBIN + b][s];
						best = s;
					}
				}
				if (top < idle)
					best = -1;
			}
			if (best == cur)
				continue;
			if (cur >= 0)
				fprintf(f, "%.1f %.1f %d 0x%s\n", from * w, b * w,
					nrow - row[u] + 1, state_rgb[cur] + 1);
			cur = best;
			from = b;
		}
	}
	fputs("\n\n", f);
	/* Kernel track: executions in alternating shades, one per row. */
	st = prep(p, "SELECT start_cycle, end_cycle FROM kernel_execs "
		  "WHERE run_id = :run ORDER BY start_cycle");
	if (!st)
		goto out;
	for (int i = 0; (rc = sqlite3_step(st)) == SQLITE_ROW; i++)
		fprintf(f, "%lld %lld %d 0x%s\n", (long long)sqlite3_column_int64(st, 0),
			(long long)sqlite3_column_int64(st, 1), nrow + 1,
			i % 2 ? "7e57c2" : "b39ddb");
	if (step_done(p, st, rc))
		goto out;
	st = NULL;
	if (close_in(p, f, "timeline.dat")) {
		f = NULL;
		goto out;
	}
	f = NULL;
	if (add(p, C_timeline,
		"set title \"Unit timeline of run %" PRId64 " (%" PRIu64 " cycles, "
		"%.1f us at %.0f MHz; each bin shows its main state)\"\n"
		"set xlabel \"cycle\"\nset format x \"%%.1s%%c\"\n"
		"set yrange [0.4:%d.6]\nset xrange [0:%" PRIu64 "]\n"
		"set ytics (\"kernels\" %d", p->r->id, total,
		(double)total / p->r->clock_mhz, p->r->clock_mhz, nrow + 1,
		total, nrow + 1))
		goto out;
	for (int u = 0; u < NPU_NUNIT; u++)
		if (used[u] && add(p, C_timeline, ", \"%s\" %d", npu_unit_name(u),
				   nrow - row[u] + 1))
			goto out;
	if (add(p, C_timeline,
		")\nset grid xtics\nset key above horizontal\n"
		"set style fill solid 1.0 noborder\n"
		"plot \"timeline.dat\" index 0 using (($1+$2)/2):3:(($2-$1)/2):(0.38):4 "
		"with boxxyerror lc rgb variable notitle, \\\n"
		"  \"\" index 1 using (($1+$2)/2):3:(($2-$1)/2):(0.38):4 "
		"with boxxyerror lc rgb variable notitle")
	    || add(p, C_timeline, ", \\\n  NaN with boxes lc rgb \"%s\" title \"busy\", "
		   "NaN with boxes lc rgb \"%s\" title \"DMA wait\", "
		   "NaN with boxes lc rgb \"%s\" title \"dependency stall\", "
		   "NaN with boxes lc rgb \"%s\" title \"bank conflict\", "
		   "NaN with boxes lc rgb \"#7e57c2\" title \"kernel executions\"\n",
		   state_rgb[0], state_rgb[1], state_rgb[2], state_rgb[3]))
		goto out;
	ret = 0;
out:
	if (st)
		sqlite3_finalize(st);
	if (f)
		fclose(f);
	free(bins);
	return ret;
}

/* ---- gnuplot ---- */

static int write_script(rep *p)
{
	static const struct { const char *term, *ext; } terms[] = {
		{ "pngcairo size 1200,700 enhanced font \"sans,11\" noenhanced", "png" },
		{ "svg size 1200,700 font \"sans,11\" noenhanced", "svg" },
	};
	FILE *f = open_in(p, "report.gp");

	if (!f)
		return -1;
	fprintf(f, "# Generated by npusim report: run 'gnuplot report.gp' here.\n");
	for (int c = 0; c < NCHART; c++) {
		if (!p->body[c])
			continue;
		for (size_t t = 0; t < 2; t++)
			fprintf(f, "reset\nset terminal %s\nset output \"%s.%s\"\n%s"
				"unset output\n", terms[t].term, charts[c].stem,
				terms[t].ext, p->body[c]);
	}
	return close_in(p, f, "report.gp");
}

/* The last line of gnuplot.log, for the error message. */
static void last_log_line(rep *p, char *buf, size_t n)
{
	char *path = path_in(p, "gnuplot.log"), line[512];
	FILE *f = path ? fopen(path, "r") : NULL;

	snprintf(buf, n, "see gnuplot.log");
	while (f && fgets(line, sizeof line, f))
		if (line[strspn(line, " \t\r\n")]) {
			line[strcspn(line, "\r\n")] = 0;
			snprintf(buf, n, "%s", line);
		}
	if (f)
		fclose(f);
	free(path);
}

static int run_gnuplot(rep *p)
{
	const char *prog = getenv("NPU_GNUPLOT");
	char last[512];
	int status;
	pid_t pid;

	if (!prog || !*prog)
		prog = "gnuplot";
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return npu_errf(p->e, "cannot start %s: %s", prog, strerror(errno));
	if (pid == 0) {
		/* The child: only async-signal-safe calls until exec. */
		int fd;
		if (chdir(p->dir) < 0)
			_exit(126);
		fd = open("gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execlp(prog, prog, "report.gp", (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return npu_errf(p->e, "waiting for %s: %s", prog, strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return npu_errf(p->e, "cannot run '%s' (is gnuplot installed? "
				"$NPU_GNUPLOT names another)", prog);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		last_log_line(p, last, sizeof last);
		return npu_errf(p->e, "%s/report.gp: %s failed (%s %d): %s", p->dir,
				prog, WIFEXITED(status) ? "exit status" : "signal",
				WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
				last);
	}
	/* gnuplot reports some errors only on stderr: check every file. */
	for (int c = 0; c < NCHART; c++) {
		static const char *const ext[] = { "png", "svg" };
		for (int t = 0; p->body[c] && t < 2; t++) {
			char name[64], *path;
			struct stat sb;
			int ok;
			snprintf(name, sizeof name, "%s.%s", charts[c].stem, ext[t]);
			path = path_in(p, name);
			ok = path && stat(path, &sb) == 0 && sb.st_size > 0;
			free(path);
			if (!ok) {
				last_log_line(p, last, sizeof last);
				return npu_errf(p->e, "%s/%s: gnuplot drew nothing: %s",
						p->dir, name, last);
			}
		}
	}
	return 0;
}

/* ---- index.html ---- */

static void html_table(FILE *f, const char *title, const npu_qres *r,
		       size_t max, const char *note)
{
	char buf[4096], esc[8192];

	fprintf(f, "<h2>%s</h2>\n", title);
	if (note)
		fprintf(f, "<p class=note>%s</p>\n", note);
	if (!r->nrows) {
		fprintf(f, "<p>(no rows)</p>\n");
		return;
	}
	fprintf(f, "<table>\n<tr>");
	for (int c = 0; c < r->ncols; c++)
		fprintf(f, "<th>%s</th>", html_escape(r->names[c], esc, sizeof esc));
	fprintf(f, "</tr>\n");
	for (size_t i = 0; i < r->nrows && i < max; i++) {
		fprintf(f, "<tr>");
		for (int c = 0; c < r->ncols; c++) {
			const npu_qcell *x = &r->cells[i * (size_t)r->ncols + (size_t)c];
			char fm = r->fmt[c];
			if (x->type == NPU_QT_NULL)
				snprintf(buf, sizeof buf, "-");
			else if (x->type == NPU_QT_TEXT)
				snprintf(buf, sizeof buf, "%s", x->s);
			else if (fm == 'p')
				snprintf(buf, sizeof buf, "%.1f", npu_qres_num(r, i, c));
			else if (fm == 'f')
				snprintf(buf, sizeof buf, "%.2f", npu_qres_num(r, i, c));
			else
				snprintf(buf, sizeof buf, "%.0f", npu_qres_num(r, i, c));
			fprintf(f, "<td%s>%s</td>", x->type == NPU_QT_TEXT ? "" :
				" class=n", html_escape(buf, esc, sizeof esc));
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	if (r->nrows > max)
		fprintf(f, "<p class=note>%zu more rows: <code>npusim query</code> "
			"shows them all.</p>\n", r->nrows - max);
}

static int write_html(rep *p)
{
	char *path = path_in(p, "index.html");
	char esc[2048], esc2[256];
	npu_afile af;
	FILE *f;

	if (!path)
		return npu_errf(p->e, "%s/index.html: out of memory", p->dir);
	if (npu_afile_open(&af, path, p->e) < 0) {
		free(path);
		return -1;
	}
	free(path);
	if (!(f = npu_afile_stdio(&af, p->e))) {
		npu_afile_abort(&af);
		return -1;
	}
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
		"<title>npusim report: run %" PRId64 "</title>\n<style>\n"
		"body{font-family:sans-serif;margin:2em;max-width:1250px}\n"
		"table{border-collapse:collapse;margin-bottom:1em}\n"
		"td,th{border:1px solid #ccc;padding:2px 8px;font-size:90%%}\n"
		"th{background:#eee}td.n{text-align:right;font-family:monospace}\n"
		".note{color:#555;font-size:90%%}img{max-width:100%%;border:1px solid #ddd}\n"
		"</style></head><body>\n", p->r->id);
	fprintf(f, "<h1>Run %" PRId64 ": %s</h1>\n", p->r->id,
		html_escape(p->r->program, esc, sizeof esc));
	fprintf(f, "<p>Target <b>%s</b>%s; status %s; %" PRIu64 " cycles = %.2f us "
		"at %.0f MHz%s%s.</p>\n",
		html_escape(p->r->target_name, esc2, sizeof esc2),
		p->r->has_target ? "" : " (not found or changed since the run: "
		"no roofline, utilization or bound)", p->r->status,
		p->r->total_cycles, (double)p->r->total_cycles / p->r->clock_mhz,
		p->r->clock_mhz, *p->r->label ? "; label " : "",
		*p->r->label ? html_escape(p->r->label, esc, sizeof esc) : "");
	for (int c = 0; c < NCHART; c++)
		if (p->body[c])
			fprintf(f, "<h2>%s</h2>\n<p><a href=\"%s.svg\"><img src=\"%s.png\" "
				"alt=\"%s\"></a></p>\n", charts[c].title, charts[c].stem,
				charts[c].stem, charts[c].title);
	html_table(f, "Kernels", &p->kern, 30, "Sorted by cycles; mac_util is MACs "
		   "over the array's peak; bound compares ideal compute and memory "
		   "time (docs/queries.md).");
	html_table(f, "Units", &p->units, 20, "Share of the run's cycles in each state.");
	html_table(f, "FX nodes", &p->nodes, 20, "A fused kernel's cycles are split "
		   "equally among its nodes.");
	html_table(f, "DMA / compute overlap", &p->overlap, 30, NULL);
	fprintf(f, "</body></html>\n");
	return npu_afile_commit(&af, p->e);
}

static int canned(rep *p, const char *name, npu_qres *out)
{
	return npu_query_exec(p->q, npu_query_find(name), p->r, NULL, out, p->e);
}

int npu_report_write(npu_qdb *q, const npu_qrun *r, const char *dir,
		     npu_err *e)
{
	rep p = { .q = q, .r = r, .dir = dir, .e = e };
	char *old;
	int rc = -1;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return npu_errf(e, "%s: cannot create: %s", dir, strerror(errno));
	/* An index.html from an earlier report would claim this one worked. */
	if (!(old = path_in(&p, "index.html")))
		return npu_errf(e, "out of memory");
	if (unlink(old) < 0 && errno != ENOENT) {
		npu_errf(e, "%s: cannot remove: %s", old, strerror(errno));
		free(old);
		return -1;
	}
	free(old);
	if (canned(&p, "kernels", &p.kern) || canned(&p, "units", &p.units) ||
	    canned(&p, "nodes", &p.nodes) || canned(&p, "overlap", &p.overlap))
		goto out;
	if (roofline(&p) || categories(&p) || timeline(&p) || dram(&p) ||
	    runs(&p) || write_script(&p) || run_gnuplot(&p) || write_html(&p))
		goto out;
	rc = 0;
out:
	for (int c = 0; c < NCHART; c++)
		free(p.body[c]);
	npu_qres_free(&p.kern);
	npu_qres_free(&p.units);
	npu_qres_free(&p.nodes);
	npu_qres_free(&p.overlap);
	return rc;
}
