/*
 * npucc - the graph compiler: `npucc GRAPH.json -o PROG.bin`.
 * Options are documented in docs/compiler.md; the work is in driver.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/driver.h"
#include "compiler/tune.h"
#include "sim/sim.h"

/* --tune and the tuning database (docs/tuning.md). */
typedef struct tune_args {
	int tune;            /* --tune */
	int trials, jobs;    /* --trials N, -j N (0: defaults) */
	const char *db;      /* --tuning-db FILE */
} tune_args;

static void usage(FILE *f)
{
	fprintf(f, "usage: npucc GRAPH.json [--weights W.safetensors] [--target FILE] -o PROG.bin\n"
		   "             [--dump-ir-after=STAGE|all] [--time-passes] [--report FILE]\n"
		   "             [--report-text] [--no-fuse] [--no-passes] [--no-resident]\n"
		   "             [--fp32-matmul-precision highest|high|medium]\n"
		   "             [--knob KERNEL.NAME=VALUE] [--max-vregs N] [--max-xregs N]\n"
		   "             [--tune [--trials N] [-j JOBS]] [--tuning-db TUNE.db]\n"
		   "             [--dyn-hint SYM=N,...] [--dyn-max SYM=N,...] [--specialize SYM=N,...]\n"
		   "       npucc --list-ops\n\n"
		   "Compiles a PyTorch FX graph (JSON, see docs/fx-format.md) into an npusim\n"
		   "program.  Stages: import passes fuse tile emit regalloc link.\n"
		   "Knobs: tile_m tile_n tile_k tile_c bufs loop_order (KERNEL '*' = all).\n"
		   "--tune measures candidate knobs on the simulator (timing-only) and\n"
		   "keeps every measurement in --tuning-db; without --tune, the best\n"
		   "records of --tuning-db for this target configure the compile.\n"
		   "--dyn-hint sets the sizes a graph's SymInt dims are tiled for (default\n"
		   "16); --dyn-max bounds what npusim run accepts; --specialize compiles\n"
		   "them as constants instead (a static program of those sizes; every\n"
		   "symbol must be given).\n"
		   "--no-resident keeps scratch and constants in DRAM, not in an SRAM window\n"
		   "(nor a dynamic program's symbolic scratch: docs/compiler.md).\n"
		   "--list-ops prints the FX targets npucc knows, one a line (any other\n"
		   "target is an error; the frontend runs such nodes in PyTorch).\n"
		   "Exit status: 0 success, 2 bad usage or bad input.\n");
}

static const char *optval(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (!strcmp(argv[*i], name) && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int positive(const char *opt, const char *v, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (*end || end == v || n < 1 || n > 1000000) {
		fprintf(stderr, "npucc: %s: '%s' is not a positive number\n", opt, v);
		return -1;
	}
	*out = (int)n;
	return 0;
}

static void print_tuning(const npu_tune_summary *sum)
{
	fprintf(stderr, "npucc: tuned %d kernel signatures:\n", sum->n);
	for (int i = 0; i < sum->n; i++) {
		const npu_tune_sigsum *g = &sum->s[i];
		fprintf(stderr, "  %-24s x%-3d default %10lld  best %10lld"
			"  (%d measured, %d reused)\n", g->kernel, g->count,
			(long long)g->default_cycles, (long long)g->best.cycles,
			g->best.measured, g->best.reused);
	}
	fprintf(stderr, "npucc: whole program %lld -> %lld cycles\n",
		(long long)sum->default_total, (long long)sum->tuned_total);
}

/* Adds tuned knobs to o: by searching (--tune) or from the database. */
static int apply_tuning(npu_ccopts *o, const tune_args *t, npu_err *e)
{
	npu_tune_opts to = { .trials = t->trials, .jobs = t->jobs,
			     .db_path = t->db, .compiler = PACKAGE_VERSION };
	npu_tune_summary sum = { 0 };

	if (!t->tune)
		return t->db ? npu_tune_apply_db(o, t->db, e) : 0;
	if (npu_tune_graph(o, &to, &sum, e) < 0)
		return -1;
	print_tuning(&sum);
	npu_tune_summary_free(&sum);
	return 0;
}

int main(int argc, char **argv)
{
	tune_args ta = { 0 };
	npu_ccopts o = { 0 };
	npu_ccresult r = { 0 };
	npu_err e = { "" };
	const char *v;
	int rc;

	npu_sim_blas_default();
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			printf("npucc %s\n", PACKAGE_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "--list-ops")) {
			npu_aop_print(stdout);
			return fflush(stdout) || ferror(stdout) ? 2 : 0;
		} else if ((v = optval(argc, argv, &i, "-o"))) {
			o.out = v;
		} else if ((v = optval(argc, argv, &i, "--weights"))) {
			o.weights = v;
		} else if ((v = optval(argc, argv, &i, "--target"))) {
			o.target = v;
		} else if ((v = optval(argc, argv, &i, "--report"))) {
			o.report = v;
		} else if (!strcmp(argv[i], "--report-text")) {
			o.report_text = 1;
		} else if (!strcmp(argv[i], "--time-passes")) {
			o.time_passes = 1;
		} else if (!strcmp(argv[i], "--no-fuse")) {
			o.nofuse = 1;
		} else if (!strcmp(argv[i], "--no-passes")) {
			o.nopasses = 1;
		} else if (!strcmp(argv[i], "--no-resident")) {
			o.noresident = 1;
		} else if ((v = optval(argc, argv, &i, "--dump-ir-after"))) {
			int s = npu_stage_find(v);
			if (!strcmp(v, "all"))
				o.dump = ~0u;
			else if (s < 0) {
				fprintf(stderr, "npucc: unknown stage '%s' (import passes fuse tile emit regalloc link all)\n", v);
				return 2;
			} else
				o.dump |= 1u << s;
		} else if ((v = optval(argc, argv, &i, "--fp32-matmul-precision"))) {
			if (!strcmp(v, "highest"))
				o.fp32prec = 0;
			else if (!strcmp(v, "high"))
				o.fp32prec = 1;
			else if (!strcmp(v, "medium"))
				o.fp32prec = 2;
			else {
				fprintf(stderr, "npucc: --fp32-matmul-precision: '%s' is not highest, high or medium\n", v);
				return 2;
			}
		} else if ((v = optval(argc, argv, &i, "--knob"))) {
			if (npu_cc_parse_knob(&o, v, &e) < 0) {
				fprintf(stderr, "npucc: %s\n", e.msg);
				return 2;
			}
		} else if (!strcmp(argv[i], "--tune")) {
			ta.tune = 1;
		} else if ((v = optval(argc, argv, &i, "--trials"))) {
			if (positive("--trials", v, &ta.trials) < 0)
				return 2;
		} else if ((v = optval(argc, argv, &i, "-j"))) {
			if (positive("-j", v, &ta.jobs) < 0)
				return 2;
		} else if ((v = optval(argc, argv, &i, "--tuning-db"))) {
			ta.db = v;
		} else if ((v = optval(argc, argv, &i, "--dyn-hint"))) {
			o.dyn_hint = v;
		} else if ((v = optval(argc, argv, &i, "--dyn-max"))) {
			o.dyn_max = v;
		} else if ((v = optval(argc, argv, &i, "--specialize"))) {
			o.specialize = v;
		} else if ((v = optval(argc, argv, &i, "--max-vregs"))) {
			o.nvr = atoi(v);
		} else if ((v = optval(argc, argv, &i, "--max-xregs"))) {
			o.nxr = atoi(v);
		} else if (argv[i][0] == '-' || o.graph) {
			usage(stderr);
			fprintf(stderr, "npucc: unexpected argument '%s'\n", argv[i]);
			return 2;
		} else {
			o.graph = argv[i];
		}
	}
	if (!o.graph || (!o.out && !o.dump && !o.report && !o.report_text)) {
		usage(stderr);
		return 2;
	}
	if (apply_tuning(&o, &ta, &e) < 0) {
		fprintf(stderr, "npucc: %s\n", e.msg);
		return 2;
	}
	rc = npu_cc_compile(&o, &r, &e);
	if (rc < 0)
		fprintf(stderr, "npucc: %s\n", e.msg);
	else if (o.report_text)
		npu_cc_report(&r, stdout);
	npu_cc_free(&r);
	return rc < 0 ? 2 : 0;
}
