/*
 * npucc - the graph compiler: `npucc GRAPH.json -o PROG.bin`.
 * Options are documented in docs/compiler.md; the work is in driver.c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/driver.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: npucc GRAPH.json [--weights W.safetensors] [--target FILE] -o PROG.bin\n"
		   "             [--dump-ir-after=STAGE|all] [--time-passes] [--report FILE]\n"
		   "             [--report-text] [--no-fuse] [--no-passes] [--fp32-matmul-precision highest|high|medium]\n"
		   "             [--knob KERNEL.NAME=VALUE] [--max-vregs N] [--max-xregs N]\n\n"
		   "Compiles a PyTorch FX graph (JSON, see docs/fx-format.md) into an npusim\n"
		   "program.  Stages: import passes fuse tile emit regalloc link.\n"
		   "Knobs: tile_m tile_n tile_k tile_c bufs loop_order (KERNEL '*' = all).\n"
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

int main(int argc, char **argv)
{
	npu_ccopts o = { 0 };
	npu_ccresult r = { 0 };
	npu_err e = { "" };
	const char *v;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			printf("npucc %s\n", PACKAGE_VERSION);
			return 0;
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
	rc = npu_cc_compile(&o, &r, &e);
	if (rc < 0)
		fprintf(stderr, "npucc: %s\n", e.msg);
	else if (o.report_text)
		npu_cc_report(&r, stdout);
	npu_cc_free(&r);
	return rc < 0 ? 2 : 0;
}
