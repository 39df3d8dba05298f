/*
 * cmd_compare.c - `npusim compare OUT.safetensors REF.safetensors`:
 * checks simulated outputs against recorded ones (or a reference
 * interpreter's) with the per-dtype tolerances of isa/tcmp.h.  Exit 0 when
 * every compared tensor is within tolerance, 1 when one is not, 2 on bad
 * usage or input.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/st.h"
#include "isa/tcmp.h"
#include "sim/cmd.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: npusim compare OUT.safetensors REF.safetensors [options]\n"
		"  --tol X       relative L2 tolerance for every tensor (default:\n"
		"                by dtype: f32 1e-5, f16 1e-3, bf16 8e-3, f64 1e-12,\n"
		"                integers exact)\n"
		"  --quiet       print only failures\n"
		"Compares every tensor of OUT that REF also holds; NaN and Inf must\n"
		"be in the same places.  Exit status: 0 all within tolerance, 1 a\n"
		"tensor is not, 2 bad usage or input.\n");
}

static int compare_all(const npu_stfile *out, const npu_stfile *ref,
		       double tol, int quiet)
{
	int bad = 0, n = 0;
	npu_err e;

	if (!quiet)
		printf("%-24s %-6s %12s %12s %10s  %s\n", "tensor", "dtype",
		       "rel err", "max |diff|", "tolerance", "result");
	for (size_t i = 0; i < out->n; i++) {
		const npu_tensor *o = &out->t[i], *r = npu_st_find(ref, o->name);
		npu_tcmp c;
		if (!r)
			continue;
		n++;
		if (npu_tcmp_run(o, r, tol, &c, &e) < 0) {
			fprintf(stderr, "npusim compare: %s\n", e.msg);
			bad++;
			continue;
		}
		bad += !c.ok;
		if (quiet && c.ok)
			continue;
		printf("%-24s %-6s %12.3g %12.3g %10.3g  %s", o->name,
		       npu_dtype_name(r->dtype), c.rel_err, c.max_abs, c.tol,
		       c.ok ? "ok" : "FAIL");
		if (c.nonfinite_mismatch)
			printf(" (%llu NaN/Inf positions differ)",
			       (unsigned long long)c.nonfinite_mismatch);
		if (c.int_mismatch)
			printf(" (%llu integers differ)",
			       (unsigned long long)c.int_mismatch);
		printf("\n");
	}
	if (!n) {
		fprintf(stderr, "npusim compare: no tensor name in common\n");
		return NPU_EXIT_USAGE;
	}
	if (!quiet || bad)
		printf("%d of %d tensors within tolerance\n", n - bad, n);
	return bad ? NPU_EXIT_FAULT : NPU_EXIT_OK;
}

int npu_cmd_compare(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "tol", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	npu_stfile out = { 0 }, ref = { 0 };
	double tol = -1;
	int quiet = 0, c, rc = NPU_EXIT_USAGE;
	char *end;
	npu_err e;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 't':
			tol = strtod(optarg, &end);
			if (*end || end == optarg || !(tol >= 0)) {
				fprintf(stderr, "npusim compare: --tol: '%s' is "
					"not a non-negative number\n", optarg);
				return NPU_EXIT_USAGE;
			}
			break;
		case 'q': quiet = 1; break;
		case 'h': usage(stdout); return NPU_EXIT_OK;
		default: usage(stderr); return NPU_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		usage(stderr);
		return NPU_EXIT_USAGE;
	}
	if (npu_st_read(&out, argv[optind], &e) < 0 ||
	    npu_st_read(&ref, argv[optind + 1], &e) < 0) {
		fprintf(stderr, "npusim compare: %s\n", e.msg);
		goto out;
	}
	rc = compare_all(&out, &ref, tol, quiet);
out:
	npu_st_free(&out);
	npu_st_free(&ref);
	return rc;
}
