/*
 * cmd_query.c - reading traces: `npusim query` (canned queries and
 * read-only SQL), `npusim report` (gnuplot charts and an index.html) and
 * `npusim export-trace` (Chrome trace event JSON for Perfetto).
 * docs/queries.md describes them.  Exit: 0 ok, 2 bad usage or bad input.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cmd.h"
#include "traces/chrome.h"
#include "traces/query.h"
#include "traces/report.h"

static void query_usage(FILE *f)
{
	fprintf(f,
		"usage: npusim query TRACE.db NAME [RUN_A RUN_B] [--run N] [--format table|csv|json]\n"
		"       npusim query TRACE.db --sql \"SELECT ...\" [--format ...]\n"
		"       npusim query TRACE.db --add-index\n"
		"  --run N       the run to query (default: the latest)\n"
		"  --format F    table (aligned, default), csv or json\n"
		"  --sql TEXT    run one read-only SQL statement\n"
		"  --doc         print the reference of the canned queries (Markdown)\n"
		"  --add-index   add the index that speeds up overlap on big traces\n"
		"                (opens TRACE.db for writing once; no query runs)\n"
		"Canned queries (docs/queries.md shows their SQL):\n");
	for (int i = 0; i < npu_query_count(); i++)
		fprintf(f, "  %-9s%s %s\n", npu_query_name(i),
			npu_query_nargs(i) ? " A B" : "    ", npu_query_summary(i));
	fprintf(f, "Exit status: 0 ok, 2 bad usage or bad input.\n");
}

/* --doc: the query reference of docs/queries.md (between its markers). */
static int print_doc(void)
{
	size_t n = npu_query_doc(NULL, 0);
	char *s = malloc(n + 1);

	if (!s) {
		fprintf(stderr, "npusim query: out of memory\n");
		return NPU_EXIT_USAGE;
	}
	npu_query_doc(s, n + 1);
	fputs(s, stdout);
	free(s);
	return NPU_EXIT_OK;
}

/* A run id: a positive integer. */
static int parse_id(const char *cmd, const char *what, const char *s, int64_t *out)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (!*s || *end || v <= 0) {
		fprintf(stderr, "npusim %s: %s: '%s' is not a run id\n", cmd, what, s);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_format(const char *s, int *out)
{
	static const char *const names[] = { "table", "csv", "json" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	fprintf(stderr, "npusim query: --format: '%s' is not table, csv or json\n", s);
	return -1;
}

/* Opens the trace and picks the run; prints the error. */
static npu_qdb *open_run(const char *cmd, const char *path, int64_t run,
			 npu_qrun *r)
{
	npu_err e = { "" };
	npu_qdb *q = npu_qdb_open(path, &e);

	if (q && npu_qdb_run(q, run, r, &e) == 0)
		return q;
	fprintf(stderr, "npusim %s: %s\n", cmd, e.msg);
	npu_qdb_close(q);
	return NULL;
}

int npu_cmd_query(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "sql", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "doc", no_argument, NULL, 'd' },
		{ "add-index", no_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 }
	};
	const char *sql = NULL;
	int64_t run = 0, args[2] = { 0, 0 };
	int fmt = NPU_QF_TABLE, c, qi = -1, np, add_index = 0, rc = NPU_EXIT_USAGE;
	npu_err e = { "" };
	npu_qres res = { 0 };
	npu_qrun r;
	npu_qdb *q;

	optind = 0;
	opterr = 0;
	/* GNU getopt permutes: options may come after the trace and name. */
	while ((c = getopt_long(argc, argv, "r:f:s:h", lo, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (parse_id("query", "--run", optarg, &run))
				return NPU_EXIT_USAGE;
			break;
		case 'f':
			if (parse_format(optarg, &fmt))
				return NPU_EXIT_USAGE;
			break;
		case 's': sql = optarg; break;
		case 'h': query_usage(stdout); return NPU_EXIT_OK;
		case 'd': return print_doc();
		case 'i': add_index = 1; break;
		default:
			fprintf(stderr, "npusim query: unknown or incomplete option '%s'\n",
				argv[optind - 1]);
			query_usage(stderr);
			return NPU_EXIT_USAGE;
		}
	}
	np = argc - optind;
	if (add_index && np == 1 && !sql) {
		if (npu_qdb_add_indexes(argv[optind], &e) < 0) {
			fprintf(stderr, "npusim query: %s\n", e.msg);
			return NPU_EXIT_USAGE;
		}
		return NPU_EXIT_OK;
	}
	if (np < 1 || (np < 2 && !sql) || (sql && np > 1)) {
		fprintf(stderr, "npusim query: expected TRACE.db and a query "
			"name, or --sql\n");
		query_usage(stderr);
		return NPU_EXIT_USAGE;
	}
	if (!sql) {
		const char *name = argv[optind + 1];
		if ((qi = npu_query_find(name)) < 0) {
			fprintf(stderr, "npusim query: '%s' is not a canned "
				"query; see 'npusim query --help'\n", name);
			return NPU_EXIT_USAGE;
		}
		if (np - 2 != npu_query_nargs(qi)) {
			fprintf(stderr, "npusim query: %s takes %d run id%s\n",
				name, npu_query_nargs(qi),
				npu_query_nargs(qi) == 1 ? "" : "s");
			return NPU_EXIT_USAGE;
		}
		for (int i = 0; i < np - 2; i++)
			if (parse_id("query", name, argv[optind + 2 + i], &args[i]))
				return NPU_EXIT_USAGE;
	}
	if (!(q = open_run("query", argv[optind], run, &r)))
		return NPU_EXIT_USAGE;
	/* diff's runs must exist too, or it would compare against nothing. */
	for (int i = 0; qi >= 0 && i < npu_query_nargs(qi); i++) {
		npu_qrun other;
		if (npu_qdb_run(q, args[i], &other, &e) < 0)
			goto fail;
	}
	if ((sql ? npu_query_user(q, sql, &res, &e) :
	     npu_query_exec(q, qi, &r, args, &res, &e)) < 0 ||
	    npu_qres_print(&res, fmt, stdout, &e) < 0 || fflush(stdout))
		goto fail;
	rc = NPU_EXIT_OK;
	goto out;
fail:
	fprintf(stderr, "npusim query: %s\n", e.msg[0] ? e.msg : "cannot write");
out:
	npu_qres_free(&res);
	npu_qdb_close(q);
	return rc;
}

/* TRACE.db [--run N] -o OUT, shared by report and export-trace. */
static int parse_out(const char *cmd, int argc, char **argv, const char **trace,
		     int64_t *run, const char **out, void (*usage)(FILE *))
{
	static const struct option lo[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	optind = 0;
	opterr = 0;
	*trace = *out = NULL;
	*run = 0;
	while ((c = getopt_long(argc, argv, "r:o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (parse_id(cmd, "--run", optarg, run))
				return -1;
			break;
		case 'o': *out = optarg; break;
		case 'h': usage(stdout); return 1;
		default:
			fprintf(stderr, "npusim %s: unknown or incomplete option '%s'\n",
				cmd, argv[optind - 1]);
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1 || !*out) {
		fprintf(stderr, "npusim %s: expected TRACE.db and -o\n", cmd);
		usage(stderr);
		return -1;
	}
	*trace = argv[optind];
	return 0;
}

static void report_usage(FILE *f)
{
	fprintf(f,
		"usage: npusim report TRACE.db [--run N] -o DIR\n"
		"  --run N       the run to chart (default: the latest)\n"
		"  -o, --output  folder for the charts (PNG and SVG) and index.html\n"
		"Needs gnuplot (or $NPU_GNUPLOT).  Exit status: 0 ok, 2 bad usage\n"
		"or bad input.\n");
}

int npu_cmd_report(int argc, char **argv)
{
	const char *trace, *dir;
	int64_t run;
	npu_err e = { "" };
	npu_qrun r;
	npu_qdb *q;
	int rc = parse_out("report", argc, argv, &trace, &run, &dir, report_usage);

	if (rc)
		return rc > 0 ? NPU_EXIT_OK : NPU_EXIT_USAGE;
	if (!(q = open_run("report", trace, run, &r)))
		return NPU_EXIT_USAGE;
	rc = npu_report_write(q, &r, dir, &e);
	npu_qdb_close(q);
	if (rc < 0) {
		fprintf(stderr, "npusim report: %s\n", e.msg);
		return NPU_EXIT_USAGE;
	}
	printf("report of run %" PRId64 " in %s/index.html\n", r.id, dir);
	return NPU_EXIT_OK;
}

static void export_usage(FILE *f)
{
	fprintf(f,
		"usage: npusim export-trace TRACE.db [--run N] -o RUN.json\n"
		"  --run N       the run to export (default: the latest)\n"
		"  -o, --output  the Chrome trace event file (Perfetto UI,\n"
		"                chrome://tracing); 1 us = clock_mhz cycles\n"
		"Exit status: 0 ok, 2 bad usage or bad input.\n");
}

int npu_cmd_export_trace(int argc, char **argv)
{
	const char *trace, *out;
	int64_t run;
	npu_err e = { "" };
	npu_qrun r;
	npu_qdb *q;
	int rc = parse_out("export-trace", argc, argv, &trace, &run, &out,
			   export_usage);

	if (rc)
		return rc > 0 ? NPU_EXIT_OK : NPU_EXIT_USAGE;
	if (!(q = open_run("export-trace", trace, run, &r)))
		return NPU_EXIT_USAGE;
	rc = npu_chrome_export(q, &r, out, &e);
	npu_qdb_close(q);
	if (rc < 0) {
		fprintf(stderr, "npusim export-trace: %s\n", e.msg);
		return NPU_EXIT_USAGE;
	}
	return NPU_EXIT_OK;
}
