/*
 * check_dyn.c - dynamic shapes end to end: graphs with SymInt dims
 * compiled once (compiler/dyn.c), run at the recorded sizes against
 * PyTorch's outputs and at other sizes (tails, 1, several blocks)
 * against the fp64 reference; bad sizes refused at load with the input,
 * dim and symbol named; what npucc cannot run in blocks refused at
 * compile time; static graphs untouched.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/driver.h"
#include "sim/cmd.h"
#include "tests/fxrun.h"

static void setup(void)
{
	fx_setup_tmp();
}

static void teardown(void)
{
	fx_teardown_tmp();
}

static void fixture_paths(const char *c, char *graph, char *vals, size_t n)
{
	snprintf(graph, n, "%s/tests/data/fx/%s/inference2.json", fx_srcdir(), c);
	snprintf(vals, n, "%s/tests/data/fx/%s/inference2.safetensors", fx_srcdir(), c);
}

/* Compiles a fixture with its parameters frozen into tmp/PROG.bin. */
static void compile_fixture(const char *c, fxrun *fr, const char *prog,
			    npu_ccresult *r)
{
	char graph[1024], vals[1024], out[1024];
	npu_stfile st;
	npu_err e = { "" };

	fixture_paths(c, graph, vals, sizeof graph);
	snprintf(out, sizeof out, "%s/%s", fx_tmpdir, prog);
	ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
	fr->o.out = out;
	fx_compile(graph, &st, fr, r);
	npu_st_free(&st);
}

/* ---- at the recorded sizes: PyTorch's outputs ---- */

static const char *const fixtures[] = { "rmsnorm_dynamic", "mlp_dynamic" };

START_TEST(test_recorded)
{
	fxrun fr = { 0 };

	/* the default hints (16 per symbol), not the recorded sizes */
	fx_run_fixture(fixtures[_i], &fr);
	ck_assert_double_le(fr.worst_rec, 1e-5);
	ck_assert_double_le(fr.worst_ref, 1e-5);
}
END_TEST

/* ---- one program, several sizes: the fp64 reference ---- */

typedef struct size_case {
	const char *fixture, *hint;
	int nsym;
	const char *sym[2];
	int64_t val[6][2];
	int nval;
	const char *target;      /* NULL: npu-base */
} size_case;

static const size_case sizes[] = {
	/* blocks of 128 rows: 99 rows (a tail), 1, 35, 360 (three blocks
	 * and a tail), the hint itself */
	{ "rmsnorm_dynamic", "s33=4,s50=32", 2, { "s33", "s50" },
	  { { 3, 33 }, { 1, 1 }, { 5, 7 }, { 9, 40 }, { 4, 32 } }, 5, NULL },
	/* blocks of 16 rows */
	{ "mlp_dynamic", "s77=16", 1, { "s77" },
	  { { 1 }, { 13 }, { 16 }, { 37 }, { 50 } }, 5, NULL },
	/* other hints: other tiles, block rows and slot periods (the
	 * matmul's loop unrolls over them) */
	{ "mlp_dynamic", "s77=5", 1, { "s77" },
	  { { 1 }, { 7 }, { 21 }, { 33 }, { 300 } }, 5, NULL },
	{ "mlp_dynamic", "s77=100", 1, { "s77" },
	  { { 1 }, { 99 }, { 401 }, { 1029 } }, 4, NULL },
	{ "rmsnorm_dynamic", "s33=1,s50=3", 2, { "s33", "s50" },
	  { { 2, 2 }, { 7, 9 }, { 50, 50 }, { 1, 1 } }, 4, NULL },
	/* 1 MiB of SRAM: the weight does not stay, versions run, those
	 * above 32 rows do not tile (nor would a specialized program) */
	{ "mlp_dynamic", "s77=16", 1, { "s77" },
	  { { 1 }, { 17 }, { 100 } }, 3, "npu-edge" },
};

START_TEST(test_sizes)
{
	const size_case *sc = &sizes[_i];
	char graph[1024], vals[1024], prog[1024], in[1024];
	npu_ccresult r = { 0 };
	npu_stfile rec, st;
	npu_graph *g;
	npu_err e = { "" };
	fxrun fr = { 0 };

	fixture_paths(sc->fixture, graph, vals, sizeof graph);
	fr.o.dyn_hint = sc->hint;
	fr.o.target = sc->target;
	compile_fixture(sc->fixture, &fr, "dyn.bin", &r);
	ck_assert_uint_eq(r.prog.nsyms, (unsigned)sc->nsym);
	npu_cc_free(&r);
	snprintf(prog, sizeof prog, "%s/dyn.bin", fx_tmpdir);
	snprintf(in, sizeof in, "%s/in.safetensors", fx_tmpdir);
	ck_assert_msg(npu_st_read(&rec, vals, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_graph_read(&g, graph, &e) == 0, "%s", e.msg);
	for (int i = 0; i < sc->nval; i++) {
		npu_prog p;
		npu_target t;
		char tpath[4096];
		/* the parameters as recorded, the inputs generated */
		fx_gen_values_at(g, sc->sym, sc->val[i], sc->nsym, &rec, in);
		ck_assert_msg(npu_st_read(&st, in, &e) == 0, "%s", e.msg);
		ck_assert_msg(npu_prog_read(&p, prog, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(npu_target_resolve(sc->target ? sc->target : "npu-base",
						    tpath, sizeof tpath, &e), 0);
		ck_assert_msg(npu_target_load(&t, tpath, &e) == 0, "%s", e.msg);
		fr.worst_ref = 0;
		fx_check_run(graph, &p, &t, &st, 0, &fr);
		/* the program ran at these sizes: output.0 has them */
		{
			int b = npu_prog_find_buf(&p, "output.0");
			ck_assert_int_ge(b, 0);
			ck_assert_int_eq(p.bufs[b].shape[0], sc->val[i][0]);
			if (sc->nsym > 1)
				ck_assert_int_eq(p.bufs[b].shape[1], sc->val[i][1]);
		}
		ck_assert_msg(fr.worst_ref <= 1e-5, "%s at %lld: %g", sc->fixture,
			      (long long)sc->val[i][0], fr.worst_ref);
		npu_prog_free(&p);
		npu_st_free(&st);
	}
	npu_graph_free(g);
	npu_st_free(&rec);
}
END_TEST

/* ---- sizes the program refuses ---- */

typedef struct fake_in {
	const char *name;
	int ndim;
	int64_t shape[4];
} fake_in;

static int fake_shape(void *ctx, const char *name, int *ndim, int64_t *shape)
{
	const fake_in *f = ctx;

	for (; f->name; f++)
		if (!strcmp(f->name, name)) {
			*ndim = f->ndim;
			memcpy(shape, f->shape, sizeof f->shape);
			return 0;
		}
	return -1;
}

static void expect_refused(const npu_prog *p, const fake_in *in,
			   const char *want)
{
	int64_t vals[64];
	npu_err e = { "" };

	ck_assert_int_lt(npu_prog_bind(p, fake_shape, (void *)in, vals, &e), 0);
	ck_assert_msg(strstr(e.msg, want) != NULL, "message '%s' lacks '%s'",
		      e.msg, want);
}

START_TEST(test_bad_sizes)
{
	npu_ccresult r = { 0 };
	fxrun fr = { 0 };
	char graph[1024], prog[1024], in[1024], bad[1024];
	npu_graph *g;
	npu_err e = { "" };
	int64_t v[2] = { 3, 5 };
	char *argv[] = { "run", prog, "--inputs", bad, "--quiet", NULL };
	static const char *const s0[] = { "s0" };

	/* two inputs sharing s0, s0 at most 8 */
	snprintf(graph, sizeof graph, "%s/tests/data/dyn/add2.json", fx_srcdir());
	snprintf(prog, sizeof prog, "%s/add2.bin", fx_tmpdir);
	fr.o.graph = graph;
	fr.o.target = "npu-base";
	fr.o.out = prog;
	fr.o.dyn_hint = "s0=4";
	fr.o.dyn_max = "s0=8";
	ck_assert_msg(npu_cc_compile(&fr.o, &r, &e) == 0, "%s", e.msg);
	{
		const fake_in ok[] = { { "x", 2, { 5, 64 } }, { "y", 2, { 5, 64 } }, { 0 } };
		const fake_in agree[] = { { "x", 2, { 5, 64 } }, { "y", 2, { 4, 64 } }, { 0 } };
		const fake_in fixed[] = { { "x", 2, { 5, 64 } }, { "y", 2, { 5, 63 } }, { 0 } };
		const fake_in range[] = { { "x", 2, { 9, 64 } }, { "y", 2, { 9, 64 } }, { 0 } };
		const fake_in zero[] = { { "x", 2, { 0, 64 } }, { "y", 2, { 0, 64 } }, { 0 } };
		const fake_in rank[] = { { "x", 2, { 5, 64 } }, { "y", 3, { 5, 64, 1 } }, { 0 } };
		int64_t vals[64];
		ck_assert_int_eq(npu_prog_bind(&r.prog, fake_shape, (void *)ok, vals, &e), 0);
		ck_assert_int_eq(vals[0], 5);
		expect_refused(&r.prog, agree,
			       "input 'y' dim 0 is 4, expected s0 = 5 (symbol s0 = 5 from input 'x' dim 0)");
		expect_refused(&r.prog, fixed, "input 'y' dim 1 is 63, the program wants 64");
		expect_refused(&r.prog, range, "input 'x' dim 0 is 9: symbol s0 must satisfy 1 <= s0 <= 8");
		expect_refused(&r.prog, zero, "input 'x' dim 0 is 0: symbol s0 must satisfy");
		expect_refused(&r.prog, rank, "input 'y' has 3 dims, the program wants 2");
	}
	npu_cc_free(&r);
	/* and npusim run says so with exit status 2 */
	ck_assert_msg(npu_graph_read(&g, graph, &e) == 0, "%s", e.msg);
	snprintf(in, sizeof in, "%s/x.safetensors", fx_tmpdir);
	snprintf(bad, sizeof bad, "%s/y.safetensors", fx_tmpdir);
	fx_gen_values_at(g, s0, &v[0], 1, NULL, in);
	{
		/* x at s0 = 3, y at s0 = 5 in one file */
		npu_stfile a, b;
		npu_tensor t[2];
		fx_gen_values_at(g, s0, &v[1], 1, NULL, bad);
		ck_assert_int_eq(npu_st_read(&a, in, &e), 0);
		ck_assert_int_eq(npu_st_read(&b, bad, &e), 0);
		t[0] = *npu_st_find(&a, "x");
		t[1] = *npu_st_find(&b, "y");
		ck_assert_int_eq(npu_st_write(bad, t, 2, NULL, &e), 0);
		npu_st_free(&a);
		npu_st_free(&b);
	}
	ck_assert_int_eq(npu_cmd_run(5, argv), NPU_EXIT_USAGE);
	{
		/* getopt reorders argv: a fresh one */
		char *ok[] = { "run", prog, "--inputs", in, "--quiet", NULL };
		ck_assert_int_eq(npu_cmd_run(5, ok), NPU_EXIT_OK);
	}
	npu_graph_free(g);
}
END_TEST

/* ---- what cannot run in blocks of rows is refused at compile time ---- */

START_TEST(test_refused)
{
	npu_ccopts o = { 0 };
	npu_ccresult r = { 0 };
	npu_err e = { "" };
	char graph[1024];

	snprintf(graph, sizeof graph, "%s/tests/data/dyn/sum0.json", fx_srcdir());
	o.graph = graph;
	o.target = "npu-base";
	ck_assert_int_lt(npu_cc_compile(&o, &r, &e), 0);
	/* a reduction over the symbolic dim: its kernels cannot run in
	 * blocks of rows (the copy that puts the reduced dim last, or a
	 * host call) */
	ck_assert_msg(strstr(e.msg, "kernel sum_1") && strstr(e.msg, "symbolic"),
		      "%s", e.msg);
	npu_cc_free(&r);
	memset(&r, 0, sizeof r);
	o.dyn_hint = "t9=4";
	snprintf(graph, sizeof graph, "%s/tests/data/dyn/add2.json", fx_srcdir());
	ck_assert_int_lt(npu_cc_compile(&o, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "--dyn-hint: the graph has no symbol 't9'"), "%s", e.msg);
	npu_cc_free(&r);
	/* torch.compile(dynamic=True) of a ViT and a BERT (capture_models
	 * NAME_dyn): the views' and expands' SymInt sizes are taken (the
	 * meta restates them), but the ViT's batch is dim 1 of its
	 * sequence-first attention and the BERT's sequence length a slice
	 * bound: refused by node, naming --specialize */
	for (int i = 0; i < 2; i++) {
		memset(&r, 0, sizeof r);
		o.dyn_hint = NULL;
		snprintf(graph, sizeof graph, "%s/tests/data/fx/%s/inference2.json", fx_srcdir(),
			 i ? "bert_tiny_dyn" : "vit_tiny_dyn");
		ck_assert_int_lt(npu_cc_compile(&o, &r, &e), 0);
		if (i)
			ck_assert_msg(strstr(e.msg, "node 'slice_1' uses SymInt 'arg1_1' as a value") &&
				      strstr(e.msg, "--specialize"), "%s", e.msg);
		else
			ck_assert_msg(strstr(e.msg, "only leading dims may be symbolic"),
				      "%s", e.msg);
		npu_cc_free(&r);
	}
}
END_TEST

/* A SymInt returned as an output (Dynamo hands a size on to the next
 * frame so: Switch Transformers' router an input, Funnel's relative
 * positions one computed) is no program output: the frontend returns the
 * argument, or evaluates the expression.  Dynamic and specialized alike. */
START_TEST(test_symint_output)
{
	npu_ccopts o = { 0 };
	npu_ccresult r = { 0 };
	npu_err e = { "" };
	char graph[1024];

	snprintf(graph, sizeof graph, "%s/tests/data/dyn/symout.json", fx_srcdir());
	o.graph = graph;
	o.target = "npu-base";
	for (int spec = 0; spec < 2; spec++) {
		o.specialize = spec ? "s0=3" : NULL;
		memset(&r, 0, sizeof r);
		ck_assert_msg(npu_cc_compile(&o, &r, &e) == 0, "%s", e.msg);
		ck_assert_int_ge(npu_prog_find_buf(&r.prog, "output.0"), 0);
		/* the input s0, and -s0 and 2*s0 computed */
		for (int i = 1; i <= 3; i++) {
			char nm[16];
			snprintf(nm, sizeof nm, "output.%d", i);
			ck_assert_int_lt(npu_prog_find_buf(&r.prog, nm), 0);
		}
		ck_assert_uint_eq(r.prog.nsyms, spec ? 0 : 1);
		npu_cc_free(&r);
	}
}
END_TEST

/* ---- graphs a dynamic program cannot take, compiled static ---- */

/* Every SymInt value (view and expand sizes, slice bounds, aranges,
 * SymInt arithmetic) becomes its value at --specialize: the recorded
 * outputs, at the recorded sizes. */
START_TEST(test_specialized_values)
{
	static const struct { const char *fixture, *sizes; } c[] = {
		{ "vit_tiny_dyn", "s77=2" },
		{ "bert_tiny_dyn", "s31=2,s64=16" },
	};
	fxrun fr = { 0 };
	npu_ccresult r = { 0 };

	fr.o.specialize = c[_i].sizes;
	compile_fixture(c[_i].fixture, &fr, "spec.bin", &r);
	ck_assert_uint_eq(r.prog.nsyms, 0);
	{
		char graph[1024], vals[1024];
		npu_stfile st;
		npu_err e = { "" };

		fixture_paths(c[_i].fixture, graph, vals, sizeof graph);
		ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
		fx_check_run(graph, &r.prog, &r.t, &st, 1, &fr);
		npu_st_free(&st);
	}
	ck_assert_double_le(fr.worst_rec, 1e-5);
	npu_cc_free(&r);
}
END_TEST

/*
 * A graph whose SymInt values are used as values (an arange's end, a
 * tensor times a SymFloat), compiled static at s0 = v: output.0 has
 * `rows` rows and matches the fp64 reference, which evaluates the same
 * expressions.
 */
static void check_spec(const char *graph, int64_t v, int64_t rows)
{
	static const char *const s0[] = { "s0" };
	char prog[1024], in[1024], spec[32], tpath[4096];
	fxrun fr = { 0 };
	npu_ccresult r = { 0 };
	npu_graph *g;
	npu_stfile st;
	npu_prog p;
	npu_target t;
	npu_err e = { "" };
	int b;

	snprintf(prog, sizeof prog, "%s/spec.bin", fx_tmpdir);
	snprintf(in, sizeof in, "%s/in.safetensors", fx_tmpdir);
	snprintf(spec, sizeof spec, "s0=%lld", (long long)v);
	fr.o.specialize = spec;
	fr.o.target = "npu-base";
	fr.o.out = prog;
	fx_compile(graph, NULL, &fr, &r);
	npu_cc_free(&r);
	ck_assert_msg(npu_graph_read(&g, graph, &e) == 0, "%s", e.msg);
	fx_gen_values_at(g, s0, &v, 1, NULL, in);
	npu_graph_free(g);
	ck_assert_msg(npu_st_read(&st, in, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_prog_read(&p, prog, &e) == 0, "%s", e.msg);
	b = npu_prog_find_buf(&p, "output.0");
	ck_assert_int_ge(b, 0);
	ck_assert_int_eq(p.bufs[b].shape[0], rows);
	ck_assert_int_eq(npu_target_resolve("npu-base", tpath, sizeof tpath, &e), 0);
	ck_assert_msg(npu_target_load(&t, tpath, &e) == 0, "%s", e.msg);
	fx_check_run(graph, &p, &t, &st, 0, &fr);
	ck_assert_double_le(fr.worst_ref, 1e-6);
	npu_prog_free(&p);
	npu_st_free(&st);
}

/* A dynamic program refuses a SymInt used as a value, naming
 * --specialize; --specialize must then give every symbol. */
static void expect_static_only(const char *graph, const char *node)
{
	npu_ccopts o = { 0 };
	npu_ccresult r = { 0 };
	npu_err e = { "" };
	char want[128];

	o.graph = graph;
	o.target = "npu-base";
	snprintf(want, sizeof want, "uses SymInt '%s' as a value", node);
	ck_assert_int_lt(npu_cc_compile(&o, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, want) && strstr(e.msg, "--specialize"), "%s", e.msg);
	npu_cc_free(&r);
	memset(&r, 0, sizeof r);
	o.specialize = "";
	ck_assert_int_lt(npu_cc_compile(&o, &r, &e), 0);
	ck_assert_msg(strstr(e.msg, "--specialize gives no value for symbol s0"), "%s", e.msg);
	npu_cc_free(&r);
}

/* Size arithmetic beyond c*s + k, each graph at two sizes: */
static const struct {
	const char *file, *node;   /* the SymInt used as a value */
	int64_t v[2], rows[2];
} symgraphs[] = {
	/* sympy's Max in sizes and torch.sym_max computing one
	 * (torchvision's box and mask code): the graph's one symbol is
	 * s0, not "Max" */
	{ "symmax", "sym_max", { 1, 5 }, { 3, 5 } },
	/* a SymFloat (F.interpolate's scales over symbolic sizes:
	 * operator.truediv, IntTrueDiv(s0, 3*s0)) times a tensor, and
	 * true_divide (div's other name) */
	{ "symfloat", "truediv", { 3, 7 }, { 3, 7 } },
};

START_TEST(test_symexpr)
{
	char graph[1024];

	snprintf(graph, sizeof graph, "%s/tests/data/dyn/%s.json", fx_srcdir(),
		 symgraphs[_i].file);
	expect_static_only(graph, symgraphs[_i].node);
	for (int k = 0; k < 2; k++)
		check_spec(graph, symgraphs[_i].v[k], symgraphs[_i].rows[k]);
}
END_TEST

/* ---- at the hint, within 1% of the specialized program ---- */

START_TEST(test_vs_specialized)
{
	static const char *const hint[] = { "s33=4,s50=32", "s77=16" };
	npu_ccresult rd = { 0 }, rs = { 0 };
	fxrun fd = { 0 }, fs = { 0 };
	char graph[1024], vals[1024];
	npu_stfile st;
	npu_err e = { "" };

	fixture_paths(fixtures[_i], graph, vals, sizeof graph);
	ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
	fd.o.dyn_hint = hint[_i];
	fs.o.specialize = hint[_i];
	/* (the same memory plan, scratch in DRAM, within 1%: what the
	 * dynamic machinery costs; test_perf holds both programs as npucc
	 * makes them by default to 10%) */
	fs.o.noresident = 1;
	fd.o.noresident = 1;
	fx_compile(graph, &st, &fd, &rd);
	fx_compile(graph, &st, &fs, &rs);
	ck_assert_uint_gt(rd.prog.nsyms, 0);
	ck_assert_uint_eq(rs.prog.nsyms, 0);
	fx_check_run(graph, &rd.prog, &rd.t, &st, 1, &fd);
	fx_check_run(graph, &rs.prog, &rs.t, &st, 1, &fs);
	ck_assert_msg(fd.cycles * 100 <= fs.cycles * 101, "%s: dynamic %llu cycles, specialized %llu",
		      fixtures[_i], (unsigned long long)fd.cycles,
		      (unsigned long long)fs.cycles);
	npu_cc_free(&rd);
	npu_cc_free(&rs);
	npu_st_free(&st);
}
END_TEST

/* ---- the loader checks the dynamic-shape sections ---- */

START_TEST(test_loader)
{
	static const struct { const char *file, *want; } c[] = {
		{ "dyn-add2.bin", NULL },
		{ "dyn-nonleading.bin", ".npu.symdims entry 0: dim 1 of buffer 'x': only leading dims may be symbolic" },
		{ "dyn-badsym.bin", ".npu.symdims entry 0: symbol 7 out of range (1 symbols)" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char path[1024];
		npu_prog p;
		npu_err e = { "" };
		snprintf(path, sizeof path, "%s/tests/fuzz/corpus/prog/%s", fx_srcdir(), c[i].file);
		if (!c[i].want) {
			ck_assert_msg(npu_prog_read(&p, path, &e) == 0, "%s", e.msg);
			ck_assert_uint_eq(p.nsyms, 1);
			ck_assert_str_eq(p.syms[0].name, "s0");
			ck_assert_int_eq(p.syms[0].hint, 4);
			npu_prog_free(&p);
			continue;
		}
		ck_assert_int_lt(npu_prog_read(&p, path, &e), 0);
		ck_assert_msg(strstr(e.msg, c[i].want) != NULL, "%s", e.msg);
	}
}
END_TEST

/* ---- away from the hint: within 10% of the specialized program ---- */

typedef struct perf_case {
	const char *fixture, *hint, *size;
	int nsym;
	const char *sym[2];
	int64_t val[2];
} perf_case;

/*
 * One program per fixture, hinted at the recorded sizes, at sizes around
 * and far from the hint: tails, one row, a row past a block, sizes past
 * the largest version (16x and 60x the hint's rows), awkward shapes.
 * scripts/bench prints the same table.
 */
#define RMS "rmsnorm_dynamic", "s33=4,s50=32"
#define MLP "mlp_dynamic", "s77=16"
static const perf_case perf[] = {
	{ RMS, "s33=3,s50=33", 2, { "s33", "s50" }, { 3, 33 } },
	{ RMS, "s33=8,s50=32", 2, { "s33", "s50" }, { 8, 32 } },
	{ RMS, "s33=5,s50=7", 2, { "s33", "s50" }, { 5, 7 } },
	{ RMS, "s33=1,s50=1", 2, { "s33", "s50" }, { 1, 1 } },
	{ RMS, "s33=17,s50=3", 2, { "s33", "s50" }, { 17, 3 } },
	{ RMS, "s33=2,s50=129", 2, { "s33", "s50" }, { 2, 129 } },
	{ RMS, "s33=64,s50=32", 2, { "s33", "s50" }, { 64, 32 } },
	{ MLP, "s77=1", 1, { "s77" }, { 1 } },
	{ MLP, "s77=13", 1, { "s77" }, { 13 } },
	{ MLP, "s77=17", 1, { "s77" }, { 17 } },
	{ MLP, "s77=32", 1, { "s77" }, { 32 } },
	{ MLP, "s77=64", 1, { "s77" }, { 64 } },
	{ MLP, "s77=65", 1, { "s77" }, { 65 } },
	{ MLP, "s77=100", 1, { "s77" }, { 100 } },
	{ MLP, "s77=257", 1, { "s77" }, { 257 } },
	{ MLP, "s77=1000", 1, { "s77" }, { 1000 } },
};
#define NPERF ((int)(sizeof perf / sizeof perf[0]))

START_TEST(test_perf)
{
	const perf_case *pc = &perf[_i];
	npu_ccresult rd = { 0 }, rs = { 0 };
	fxrun fd = { 0 }, fs = { 0 };
	char graph[1024], vals[1024], in[1024];
	npu_stfile rec, st;
	npu_graph *g;
	npu_err e = { "" };

	fixture_paths(pc->fixture, graph, vals, sizeof graph);
	snprintf(in, sizeof in, "%s/in.safetensors", fx_tmpdir);
	ck_assert_msg(npu_st_read(&rec, vals, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_graph_read(&g, graph, &e) == 0, "%s", e.msg);
	fx_gen_values_at(g, pc->sym, pc->val, pc->nsym, &rec, in);
	ck_assert_msg(npu_st_read(&st, in, &e) == 0, "%s", e.msg);
	fd.o.dyn_hint = pc->hint;
	fs.o.specialize = pc->size;
	/* (npucc's defaults on both sides: the dynamic program's symbolic
	 * scratch in the loader's SRAM window while it fits, the
	 * specialized one's scratch in its resident window) */
	fx_compile(graph, &rec, &fd, &rd);
	fx_compile(graph, &rec, &fs, &rs);
	fx_check_run(graph, &rd.prog, &rd.t, &st, 0, &fd);
	fx_check_run(graph, &rs.prog, &rs.t, &st, 0, &fs);
	ck_assert_msg(fd.worst_ref <= 1e-5, "%s at %s: %g from the reference",
		      pc->fixture, pc->size, fd.worst_ref);
	ck_assert_msg(fd.cycles * 10 <= fs.cycles * 11, "%s at %s: dynamic %llu cycles, specialized %llu",
		      pc->fixture, pc->size, (unsigned long long)fd.cycles,
		      (unsigned long long)fs.cycles);
	npu_cc_free(&rd);
	npu_cc_free(&rs);
	npu_st_free(&st);
	npu_st_free(&rec);
	npu_graph_free(g);
}
END_TEST

/* tests/data/dyn/FILE (its one symbol s0) into graph and *g, and inputs
 * generated at s0 = rows into *st. */
static void dyn_inputs(const char *file, int64_t rows, char *graph, size_t n,
		       npu_graph **g, npu_stfile *st)
{
	static const char *const s0[] = { "s0" };
	char in[1024];
	npu_err e = { "" };

	snprintf(graph, n, "%s/tests/data/dyn/%s", fx_srcdir(), file);
	snprintf(in, sizeof in, "%s/in.safetensors", fx_tmpdir);
	ck_assert_msg(npu_graph_read(g, graph, &e) == 0, "%s", e.msg);
	fx_gen_values_at(*g, s0, &rows, 1, NULL, in);
	ck_assert_msg(npu_st_read(st, in, &e) == 0, "%s", e.msg);
}

/* ---- an elementwise kernel: the same, against the reference ---- */

static const int64_t ew_sizes[] = { 1, 5, 17, 100, 1000, 10000 };

START_TEST(test_ew)
{
	char graph[1024], size[32];
	npu_ccopts od = { 0 }, os = { 0 };
	npu_ccresult rd = { 0 }, rs = { 0 };
	fxrun fd = { 0 }, fs = { 0 };
	npu_stfile st;
	npu_graph *g;
	npu_err e = { "" };

	/* x + y over [s0, 64], hinted at 4 rows */
	snprintf(size, sizeof size, "s0=%lld", (long long)ew_sizes[_i]);
	dyn_inputs("add2.json", ew_sizes[_i], graph, sizeof graph, &g, &st);
	od.graph = os.graph = graph;
	od.target = os.target = "npu-base";
	od.dyn_hint = "s0=4";
	os.specialize = size;
	ck_assert_msg(npu_cc_compile(&od, &rd, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_cc_compile(&os, &rs, &e) == 0, "%s", e.msg);
	fx_check_run(graph, &rd.prog, &rd.t, &st, 0, &fd);
	fx_check_run(graph, &rs.prog, &rs.t, &st, 0, &fs);
	ck_assert_msg(fd.worst_ref <= 1e-5, "add2 at %s: %g from the reference",
		      size, fd.worst_ref);
	ck_assert_msg(fd.cycles * 10 <= fs.cycles * 11, "add2 at %s: dynamic %llu cycles, specialized %llu",
		      size, (unsigned long long)fd.cycles,
		      (unsigned long long)fs.cycles);
	npu_cc_free(&rd);
	npu_cc_free(&rs);
	npu_st_free(&st);
	npu_graph_free(g);
}
END_TEST

/* ---- symbolic scratch in the SRAM window, placed at load ---- */

static const int64_t win_sizes[] = { 16, 1, 17, 100, 5000 };

/*
 * tests/data/dyn/chain.json: softmax, matmul + relu, softmax, matmul +
 * residual over [s0, 256], hinted at 16 rows: four kernels, three
 * symbolic scratch values.  The program keeps the top SRAM banks for
 * them; the loader places them there while they fit (every size here
 * but 5000 rows: 5 MB each), at aperture addresses the same code uses.
 * Against the reference; the DRAM writes are the output's alone when
 * they fit; never slower than without the window (npucc --no-resident),
 * at the hint at least 15% faster (10.5 k -> 8.5 k cycles); within 10%
 * of the program specialized to the size up to a block past the hint.
 * (At 64 and 100 rows it is 13-14% slower: each kernel's block loop,
 * not memory; scripts/bench prints the table.)
 */
START_TEST(test_window)
{
	int64_t rows = win_sizes[_i];
	char graph[1024], size[32], bin[1024];
	npu_ccopts od = { 0 }, on = { 0 }, os = { 0 };
	npu_ccresult rd = { 0 }, rn = { 0 }, rs = { 0 };
	fxrun fd = { 0 }, fn = { 0 }, fs = { 0 };
	uint64_t out = (uint64_t)rows * 256 * 4;
	npu_stfile st;
	npu_graph *g;
	npu_prog back;
	npu_err e = { "" };
	int flagged = 0;

	snprintf(size, sizeof size, "s0=%lld", (long long)rows);
	dyn_inputs("chain.json", rows, graph, sizeof graph, &g, &st);
	od.graph = on.graph = os.graph = graph;
	od.target = on.target = os.target = "npu-base";
	od.dyn_hint = on.dyn_hint = "s0=16";
	on.noresident = 1;
	os.specialize = size;
	ck_assert_msg(npu_cc_compile(&od, &rd, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_cc_compile(&on, &rn, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_cc_compile(&os, &rs, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(rd.ir.nk, 4);
	ck_assert_int_eq(rd.ir.win_nvals, 3);
	ck_assert_uint_eq(rd.prog.win_hi, rd.t.sram_bytes);
	ck_assert_uint_lt(rd.prog.win_lo, rd.prog.win_hi);
	ck_assert_uint_eq(rn.prog.win_hi, 0);
	/* the window and the flags survive the file */
	snprintf(bin, sizeof bin, "%s/chain.bin", fx_tmpdir);
	ck_assert_msg(npu_prog_write(&rd.prog, bin, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_prog_read(&back, bin, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(back.win_lo, rd.prog.win_lo);
	ck_assert_uint_eq(back.win_hi, rd.prog.win_hi);
	for (uint32_t i = 0; i < back.nbufs; i++) {
		ck_assert_uint_eq(back.bufs[i].flags, rd.prog.bufs[i].flags);
		flagged += (back.bufs[i].flags & NPU_BUF_F_WINDOW) != 0;
	}
	ck_assert_int_eq(flagged, 3);
	npu_prog_free(&back);
	fx_check_run(graph, &rd.prog, &rd.t, &st, 0, &fd);
	fx_check_run(graph, &rn.prog, &rn.t, &st, 0, &fn);
	fx_check_run(graph, &rs.prog, &rs.t, &st, 0, &fs);
	ck_assert_msg(fd.worst_ref <= 1e-5, "chain at %s: %g from the reference",
		      size, fd.worst_ref);
	if (rows <= 100)
		ck_assert_msg(fd.dram_wr == out, "chain at %s: %llu bytes written to DRAM, "
			      "the output is %llu", size, (unsigned long long)fd.dram_wr,
			      (unsigned long long)out);
	else
		ck_assert_uint_gt(fd.dram_wr, out);
	ck_assert_msg(fd.cycles <= fn.cycles, "chain at %s: %llu cycles with the window, %llu without",
		      size, (unsigned long long)fd.cycles, (unsigned long long)fn.cycles);
	if (rows <= 17)
		ck_assert_msg(fd.cycles * 10 <= fs.cycles * 11, "chain at %s: dynamic %llu cycles, specialized %llu",
			      size, (unsigned long long)fd.cycles, (unsigned long long)fs.cycles);
	if (rows == 16)
		ck_assert_msg(fd.cycles * 100 <= fn.cycles * 85, "chain at %s: %llu cycles with the window, %llu without",
			      size, (unsigned long long)fd.cycles, (unsigned long long)fn.cycles);
	npu_cc_free(&rd);
	npu_cc_free(&rn);
	npu_cc_free(&rs);
	npu_st_free(&st);
	npu_graph_free(g);
}
END_TEST

/* The loader's checks of the window (npu_prog_check, as it reads). */
START_TEST(test_window_bad)
{
	char graph[1024];
	npu_ccopts od = { 0 };
	npu_ccresult rd = { 0 };
	npu_stfile st;
	npu_graph *g;
	npu_err e = { "" };
	npu_prog *p = &rd.prog;
	uint64_t lo;
	int x, w = -1;

	dyn_inputs("chain.json", 16, graph, sizeof graph, &g, &st);
	od.graph = graph;
	od.target = "npu-base";
	od.dyn_hint = "s0=16";
	ck_assert_msg(npu_cc_compile(&od, &rd, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_prog_check(p, &e) == 0, "%s", e.msg);
	lo = p->win_lo;
	x = npu_prog_find_buf(p, "x");
	for (uint32_t i = 0; i < p->nbufs; i++)
		if (p->bufs[i].flags)
			w = (int)i;
	ck_assert_int_ge(x, 0);
	ck_assert_int_ge(w, 0);
	p->bufs[x].flags = NPU_BUF_F_WINDOW;
	ck_assert_int_lt(npu_prog_check(p, &e), 0);
	ck_assert_msg(strstr(e.msg, "'x'): only a symbolic scratch buffer") != NULL, "%s", e.msg);
	p->bufs[x].flags = 0x80;
	ck_assert_int_lt(npu_prog_check(p, &e), 0);
	ck_assert_msg(strstr(e.msg, "unknown flags 0x80") != NULL, "%s", e.msg);
	p->bufs[x].flags = 0;
	p->win_lo = lo + 8;
	ck_assert_int_lt(npu_prog_check(p, &e), 0);
	ck_assert_msg(strstr(e.msg, "not 64-byte aligned") != NULL, "%s", e.msg);
	p->win_lo = p->symtab & ~63ull;
	ck_assert_int_lt(npu_prog_check(p, &e), 0);
	ck_assert_msg(strstr(e.msg, "overlaps the symbol table") != NULL, "%s", e.msg);
	p->win_lo = p->win_hi;
	ck_assert_int_lt(npu_prog_check(p, &e), 0);
	ck_assert_msg(strstr(e.msg, "needs a dynamic program and lo < hi") != NULL, "%s", e.msg);
	/* no window: a flagged buffer is refused */
	p->win_lo = p->win_hi = 0;
	ck_assert_int_lt(npu_prog_check(p, &e), 0);
	ck_assert_msg(strstr(e.msg, "only a symbolic scratch buffer") != NULL, "%s", e.msg);
	for (uint32_t i = 0; i < p->nbufs; i++)
		p->bufs[i].flags = 0;
	ck_assert_msg(npu_prog_check(p, &e) == 0, "%s", e.msg);
	npu_cc_free(&rd);
	npu_st_free(&st);
	npu_graph_free(g);
}
END_TEST

/* ---- a matmul of run-time rows by a transposed input ---- */

static const int64_t mmt_sizes[] = { 1, 5, 37, 300 };

/* a[s0, 96] @ b.t(), b an input [72, 96]: B loaded transposed (no copy
 * kernel) in a program whose rows come at run time, against the
 * reference at sizes below, at and past the hint (4). */
START_TEST(test_mm_transposed)
{
	char graph[1024];
	npu_ccopts od = { 0 };
	npu_ccresult rd = { 0 };
	fxrun fd = { 0 };
	npu_stfile st;
	npu_graph *g;
	npu_err e = { "" };

	dyn_inputs("mmt.json", mmt_sizes[_i], graph, sizeof graph, &g, &st);
	od.graph = graph;
	od.target = "npu-base";
	od.dyn_hint = "s0=4";
	ck_assert_msg(npu_cc_compile(&od, &rd, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(rd.prog.nsyms, 1);
	ck_assert_int_eq(rd.ir.nk, 1);
	fx_check_run(graph, &rd.prog, &rd.t, &st, 0, &fd);
	ck_assert_msg(fd.worst_ref <= 1e-5, "mmt at %lld: %g from the reference",
		      (long long)mmt_sizes[_i], fd.worst_ref);
	npu_cc_free(&rd);
	npu_st_free(&st);
	npu_graph_free(g);
}
END_TEST

/* ---- rows of more than one dim: [s0, 2, 3] reduced over the last ---- */

static const int64_t rows3d_sizes[] = { 1, 2, 7, 12, 100 };

/*
 * tests/data/dyn/rows3d.json: RMSNorm's pattern and a layer norm over the
 * last dim of x [s0, 2, 3], hinted at 7 (check_fuzzgraph's case 186 and
 * its layer norms).  A row kernel's rows are its outer dims merged, 2 per
 * symbolic row: the run-time loop took its row count for them and
 * computed half (every size, the hint's too).  The layer norm was kept
 * whole and refused (a host kernel cannot take run-time sizes): its
 * decomposition's metas refused symbolic shapes; they keep them now.
 * midsum.json: a sum over the middle dim of x [s0, 3, 2] and a softmax
 * over it: their copies of x with that dim last, and the sum's row
 * kernel output [s0, 2] viewed [s0, 1, 2], were refused ("not a plain
 * materialized tensor"); they take the rows of the kernel writing them.
 */
START_TEST(test_rows3d)
{
	char graph[1024];
	npu_ccopts od = { 0 };
	npu_stfile st;
	npu_graph *g;
	npu_err e = { "" };
	static const char *const files[] = { "rows3d.json", "midsum.json" };

	for (int i = 0; i < 2; i++) {
		npu_ccresult rd = { 0 };
		fxrun fd = { 0 };
		dyn_inputs(files[i], rows3d_sizes[_i], graph, sizeof graph, &g, &st);
		od.graph = graph;
		od.target = "npu-base";
		od.dyn_hint = "s0=7";
		ck_assert_msg(npu_cc_compile(&od, &rd, &e) == 0, "%s: %s", files[i], e.msg);
		ck_assert_uint_eq(rd.prog.nsyms, 1);
		fx_check_run(graph, &rd.prog, &rd.t, &st, 0, &fd);
		ck_assert_uint_eq(fd.host_calls, 0);
		ck_assert_msg(fd.worst_ref <= 1e-5, "%s at %lld: %g from the reference",
			      files[i], (long long)rows3d_sizes[_i], fd.worst_ref);
		npu_cc_free(&rd);
		npu_st_free(&st);
		npu_graph_free(g);
	}
}
END_TEST

/* ---- static graphs: no dynamic sections, no loop ---- */

START_TEST(test_static)
{
	npu_ccresult r = { 0 };
	fxrun fr = { 0 };
	char path[1024];
	FILE *f;
	char *buf;
	long n;

	compile_fixture("rmsnorm_float32", &fr, "static.bin", &r);
	ck_assert_uint_eq(r.prog.nsyms, 0);
	ck_assert_ptr_null(r.dyn);
	npu_cc_free(&r);
	snprintf(path, sizeof path, "%s/static.bin", fx_tmpdir);
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	ck_assert_int_eq((long)fread(buf, 1, (size_t)n, f), n);
	fclose(f);
	ck_assert_ptr_null(memmem(buf, (size_t)n, ".npu.dyn", 8));
	ck_assert_ptr_null(memmem(buf, (size_t)n, ".npu.syms", 9));
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dyn");
	TCase *tc = tcase_create("dyn");
	SRunner *sr;
	int nf;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_recorded, 0, (int)(sizeof fixtures / sizeof fixtures[0]));
	tcase_add_loop_test(tc, test_sizes, 0, (int)(sizeof sizes / sizeof sizes[0]));
	tcase_add_test(tc, test_bad_sizes);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_symint_output);
	tcase_add_loop_test(tc, test_symexpr, 0, (int)(sizeof symgraphs / sizeof symgraphs[0]));
	tcase_add_loop_test(tc, test_specialized_values, 0, 2);
	tcase_add_loop_test(tc, test_vs_specialized, 0, 2);
	tcase_add_loop_test(tc, test_perf, 0, NPERF);
	tcase_add_loop_test(tc, test_ew, 0, (int)(sizeof ew_sizes / sizeof ew_sizes[0]));
	tcase_add_loop_test(tc, test_mm_transposed, 0,
			    (int)(sizeof mmt_sizes / sizeof mmt_sizes[0]));
	tcase_add_loop_test(tc, test_window, 0,
			    (int)(sizeof win_sizes / sizeof win_sizes[0]));
	tcase_add_test(tc, test_window_bad);
	tcase_add_test(tc, test_loader);
	tcase_add_test(tc, test_static);
	tcase_add_loop_test(tc, test_rows3d, 0,
			    (int)(sizeof rows3d_sizes / sizeof rows3d_sizes[0]));
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
