/*
 * cmd_run.c - `npusim run PROG.bin`: load a program and a target, fill the
 * input buffers, simulate, write outputs and a trace, print a summary.
 * docs/cli.md describes the options.  Exit: 0 ok, 1 the program faulted,
 * 2 bad usage or bad input.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/driver.h"
#include "isa/st.h"
#include "sim/cmd.h"
#include "sim/sim.h"

typedef struct run_opts {
	const char *prog, *target, *inputs, *outputs, *trace, *label;
	int timing_only, force, quiet, races;
	uint64_t max_cycles, trace_res;
} run_opts;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: npusim run PROG.bin [options]\n"
		"  --target FILE|NAME   target description (default: the program's)\n"
		"  --inputs FILE        safetensors with a tensor per input buffer\n"
		"  --outputs FILE       write every output and inout buffer here\n"
		"  --trace FILE         append the run to this SQLite trace\n"
		"  --trace-resolution Q sum activity in windows of Q cycles (1: every\n"
		"                       interval; default: automatic)\n"
		"  --timing-only        skip vector, matrix and host values\n"
		"  --check-races        fault when two units touch the same local\n"
		"                       bytes (one writing) with no sig/wait between\n"
		"  --max-cycles N       fault past cycle N (default %llu)\n"
		"  --force              run on a target whose hash differs\n"
		"  --quiet              no summary\n"
		"  --label TEXT         label of the run in the trace\n"
		"Exit status: 0 ok, 1 the program faulted, 2 bad usage or input.\n",
		(unsigned long long)NPU_SIM_DEFAULT_MAX_CYCLES);
}

static int parse(int argc, char **argv, run_opts *o)
{
	static const struct option lo[] = {
		{ "target", required_argument, NULL, 't' },
		{ "inputs", required_argument, NULL, 'i' },
		{ "outputs", required_argument, NULL, 'o' },
		{ "trace", required_argument, NULL, 'T' },
		{ "timing-only", no_argument, NULL, 'm' },
		{ "check-races", no_argument, NULL, 'R' },
		{ "max-cycles", required_argument, NULL, 'c' },
		{ "force", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "label", required_argument, NULL, 'l' },
		{ "trace-resolution", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;
	char *end;

	optind = 0; /* reinitialise: the tests call this more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "t:i:o:T:c:fqhl:r:", lo, NULL)) != -1) {
		switch (c) {
		case 't': o->target = optarg; break;
		case 'i': o->inputs = optarg; break;
		case 'o': o->outputs = optarg; break;
		case 'T': o->trace = optarg; break;
		case 'm': o->timing_only = 1; break;
		case 'R': o->races = 1; break;
		case 'f': o->force = 1; break;
		case 'q': o->quiet = 1; break;
		case 'l': o->label = optarg; break;
		case 'c':
		case 'r': {
			uint64_t v = strtoull(optarg, &end, 10);
			if (!*optarg || *end || v == 0 || *optarg == '-') {
				fprintf(stderr, "npusim run: --%s: '%s' is not a "
					"positive number\n",
					c == 'c' ? "max-cycles" : "trace-resolution", optarg);
				return -1;
			}
			*(c == 'c' ? &o->max_cycles : &o->trace_res) = v;
			break;
		}
		case 'h':
			usage(stdout);
			return 1;
		default:
			fprintf(stderr, "npusim run: unknown or incomplete option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "npusim run: expected one program file\n");
		usage(stderr);
		return -1;
	}
	o->prog = argv[optind];
	return 0;
}

static int load_target(const npu_prog *p, const run_opts *o, npu_target *t)
{
	const char *want = o->target ? o->target : p->target_name;
	char path[4096];
	npu_err e = { "" };

	if (!want || !*want) {
		fprintf(stderr, "npusim run: %s names no target; use --target\n", o->prog);
		return -1;
	}
	if (npu_target_resolve(want, path, sizeof path, &e) < 0 ||
	    npu_target_load(t, path, &e) < 0) {
		fprintf(stderr, "npusim run: %s\n", e.msg);
		return -1;
	}
	if (p->target_hash && p->target_hash != t->hash && !o->force) {
		fprintf(stderr, "npusim run: %s was built for target '%s' (hash "
			"%016llx), but target '%s' has hash %016llx; rebuild it or "
			"use --force\n", o->prog, p->target_name,
			(unsigned long long)p->target_hash, t->name,
			(unsigned long long)t->hash);
		return -1;
	}
	return 0;
}

static int shape_eq(const npu_tensor *t, const npu_buf *b)
{
	if (t->ndim != b->ndim)
		return 0;
	for (int i = 0; i < b->ndim; i++)
		if (t->shape[i] != b->shape[i])
			return 0;
	return 1;
}

/* Bytes of a buffer's elements (a symbolic buffer's range is larger:
 * room for the whole last block of rows). */
static uint64_t buf_bytes(const npu_buf *b)
{
	uint64_t n = (uint64_t)npu_dtype_size(b->dtype);

	for (int i = 0; i < b->ndim; i++)
		n *= (uint64_t)b->shape[i];
	return n;
}

/*
 * A dynamic-shape program: the symbols from the input shapes (their
 * hints in a timing-only run without inputs), checked; the symbolic
 * buffers placed at their bound sizes; *table (malloc'd) is what the
 * code reads at p->symtab.
 */
static int bind_sizes(npu_prog *p, const run_opts *o, uint8_t **table)
{
	npu_stfile f = { 0 };
	npu_err e = { "" };
	int rc = 0;

	*table = NULL;
	if (!p->nsyms)
		return 0;
	if (o->inputs && npu_st_read(&f, o->inputs, &e) < 0) {
		fprintf(stderr, "npusim run: %s\n", e.msg);
		return -1;
	}
	if (npu_prog_bind_inputs(p, o->inputs ? &f : NULL, table, &e) < 0) {
		fprintf(stderr, "npusim run: %s: %s\n",
			o->inputs ? o->inputs : o->prog, e.msg);
		rc = -1;
	}
	npu_st_free(&f);
	return rc;
}

static int load_inputs(npu_sim *s, const npu_prog *p, const run_opts *o)
{
	npu_stfile f = { 0 };
	npu_err e = { "" };
	int rc = -1;

	if (o->inputs && npu_st_read(&f, o->inputs, &e) < 0) {
		fprintf(stderr, "npusim run: %s\n", e.msg);
		return -1;
	}
	/* A timing-only sweep needs no values: without --inputs, inputs start
	 * zeroed like scratch (said, since data-dependent control flow would
	 * then time differently). */
	if (!o->inputs && o->timing_only) {
		if (!o->quiet)
			fprintf(stderr, "npusim run: timing-only without --inputs: "
				"input buffers start zeroed\n");
		return 0;
	}
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		const npu_tensor *t;
		char s1[160], s2[160];
		if (b->kind != NPU_BUF_INPUT && b->kind != NPU_BUF_INOUT)
			continue;
		t = o->inputs ? npu_st_find(&f, b->name) : NULL;
		if (!t) {
			fprintf(stderr, "npusim run: input '%s' is missing%s%s\n", b->name,
				o->inputs ? " from " : " (no --inputs)",
				o->inputs ? o->inputs : "");
			goto out;
		}
		if (t->dtype != b->dtype) {
			fprintf(stderr, "npusim run: %s: input '%s' is %s, the program "
				"wants %s\n", o->inputs, b->name, npu_dtype_name(t->dtype),
				npu_dtype_name(b->dtype));
			goto out;
		}
		if (!shape_eq(t, b) || t->nbytes != buf_bytes(b)) {
			fprintf(stderr, "npusim run: %s: input '%s' has shape %s, the "
				"program wants %s\n", o->inputs, b->name,
				npu_shape_str(s1, sizeof s1, t->ndim, t->shape, ", "),
				npu_shape_str(s2, sizeof s2, b->ndim, b->shape, ", "));
			goto out;
		}
		memcpy(npu_sim_buf_data(s, (int)i), t->data, t->nbytes);
	}
	rc = 0;
out:
	npu_st_free(&f);
	return rc;
}

static int write_outputs(npu_sim *s, const npu_prog *p, const char *path)
{
	npu_tensor *t = calloc(p->nbufs ? p->nbufs : 1, sizeof *t);
	npu_err e = { "" };
	size_t n = 0;
	int rc;

	if (!t) {
		fprintf(stderr, "npusim run: out of memory\n");
		return -1;
	}
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		if (b->kind != NPU_BUF_OUTPUT && b->kind != NPU_BUF_INOUT)
			continue;
		t[n].name = b->name;
		t[n].dtype = b->dtype;
		t[n].ndim = b->ndim;
		memcpy(t[n].shape, b->shape, sizeof b->shape);
		t[n].nbytes = buf_bytes(b);
		t[n].data = npu_sim_buf_data(s, (int)i);
		n++;
	}
	rc = npu_st_write(path, t, n, NULL, &e);
	if (rc < 0)
		fprintf(stderr, "npusim run: %s\n", e.msg);
	free(t);
	return rc;
}

/*
 * The trace is opened, and the run begun, before the simulation, by the
 * trace's writer thread when a core is free for it (npu_trace_open_auto):
 * opening a database and preparing its statements costs a short run a
 * quarter of its time, then spent while it simulates, and so are the
 * inserts of the rows the run streams (npu_sim_stream_trace).  The
 * writer's errors wait for finish_trace, which reports them after the run
 * as before.  Without the thread the trace is opened here, before the
 * run.
 */
static npu_trace *begin_trace(const npu_prog *p, const npu_target *tg,
			      const run_opts *o, const char *cmdline, npu_err *e)
{
	npu_trace *t = npu_trace_open_auto(o->trace, e);
	npu_trace_run run = { o->prog, tg->name, tg->hash, cmdline, o->label };

	if (t && npu_trace_begin(t, &run, p, e) < 0) {
		npu_trace_close(t);
		t = NULL;
	}
	return t;
}

/*
 * The rows not streamed yet, the end and the close.  The writer thread
 * writes the rows as they come, and commits the end and closes the
 * database while the caller writes its outputs and summary
 * (npu_trace_end_close); finish_trace waits for it.
 */
static int end_trace(npu_trace *t, npu_sim *s, const run_opts *o,
		     double wall, int status, npu_err *e)
{
	if (npu_sim_write_trace(s, t, e) == 0 &&
	    npu_trace_end_close(t, npu_sim_stats_get(s)->total_cycles, wall,
				status, e) == 0)
		return 0;
	fprintf(stderr, "npusim run: trace %s: %s\n", o->trace, e->msg);
	return -1;
}

static int finish_trace(npu_trace *t, const run_opts *o, npu_err *e)
{
	if (npu_trace_finish(t, e) == 0)
		return 0;
	fprintf(stderr, "npusim run: trace %s: %s\n", o->trace, e->msg);
	return -1;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void summary(npu_sim *s, const npu_prog *p, const npu_target *tg,
		    const run_opts *o)
{
	const npu_sim_stats *st = npu_sim_stats_get(s);
	const npu_trace_kernel *kx;
	size_t nkx = npu_sim_kexecs(s, &kx);
	uint64_t T = st->total_cycles;

	printf("%s on %s%s: %llu cycles, %.3f us at %g MHz, %llu instructions\n",
	       o->prog, tg->name, o->timing_only ? " (timing only)" : "",
	       (unsigned long long)T, (double)T / tg->clock_mhz, tg->clock_mhz,
	       (unsigned long long)st->insns);
	printf("\n%-6s %8s %8s %8s %8s %8s %10s\n", "unit", "busy%", "dmawait%",
	       "dep%", "bank%", "idle%", "insns");
	for (int u = 0; u < st->nunits; u++) {
		const npu_sim_unit_stats *us = &st->unit[u];
		printf("%-6s %8.2f %8.2f %8.2f %8.2f %8.2f %10llu\n", npu_unit_name(u),
		       pct(us->cycles[NPU_US_BUSY], T), pct(us->cycles[NPU_US_DMA_WAIT], T),
		       pct(us->cycles[NPU_US_DEP_STALL], T),
		       pct(us->cycles[NPU_US_BANK_STALL], T), pct(us->cycles[NPU_US_IDLE], T),
		       (unsigned long long)us->insns);
	}
	printf("\nDRAM: %llu bytes read, %llu written (%llu in bursts); "
	       "SRAM: %llu read, %llu written\n",
	       (unsigned long long)st->dram_rd, (unsigned long long)st->dram_wr,
	       (unsigned long long)st->dram_touched, (unsigned long long)st->sram_rd,
	       (unsigned long long)st->sram_wr);
	printf("MACs: %llu (utilization %.2f%%); vector lane ops: %llu; "
	       "DMA transfers: %llu; host calls: %llu\n",
	       (unsigned long long)st->macs,
	       T ? 100.0 * st->mac_cycles / ((double)tg->mxu_rows * tg->mxu_cols * T) : 0.0,
	       (unsigned long long)st->vec_ops, (unsigned long long)st->dma_xfers,
	       (unsigned long long)st->host_calls);
	if (!nkx)
		return;
	printf("\n%-24s %6s %12s %7s %7s %12s %12s\n", "kernel", "runs", "cycles",
	       "share%", "mac%", "dram rd", "dram wr");
	for (uint32_t k = 0; k < p->nkernels; k++) {
		uint64_t cyc = 0, rd = 0, wr = 0, runs = 0;
		double mac = 0;
		for (size_t i = 0; i < nkx; i++) {
			if (kx[i].kernel != (int)k)
				continue;
			runs++;
			cyc += kx[i].end - kx[i].start;
			rd += kx[i].dram_rd;
			wr += kx[i].dram_wr;
			mac += npu_sim_kexec_mac_util(s, i) * (double)(kx[i].end - kx[i].start);
		}
		if (!runs)
			continue;
		printf("%-24s %6llu %12llu %7.2f %7.2f %12llu %12llu\n",
		       p->kernels[k].name, (unsigned long long)runs,
		       (unsigned long long)cyc, pct(cyc, T),
		       cyc ? 100.0 * mac / (double)cyc : 0.0,
		       (unsigned long long)rd, (unsigned long long)wr);
	}
}

static char *join_args(int argc, char **argv)
{
	size_t n = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		n += strlen(argv[i]) + 1;
	s = malloc(n);
	if (!s)
		return NULL;
	*s = 0;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int npu_cmd_run(int argc, char **argv)
{
	run_opts o = { 0 };
	npu_prog p = { 0 };
	npu_target t;
	npu_sim *s = NULL;
	npu_sim_opts so = { 0 };
	npu_err e = { "" }, te = { "" };
	npu_trace *tr = NULL;
	int trace_rc = 0, ended = 0;
	char *cmdline = NULL;
	uint8_t *table = NULL;
	struct timespec t0, t1;
	int rc = NPU_EXIT_USAGE, r;

	/* host calls of compiled programs run the reference interpreter */
	npu_hostops_register_all();
	r = parse(argc, argv, &o);
	if (r)
		return r > 0 ? NPU_EXIT_OK : NPU_EXIT_USAGE;
	if (npu_prog_read(&p, o.prog, &e) < 0) {
		fprintf(stderr, "npusim run: %s\n", e.msg);
		return NPU_EXIT_USAGE;
	}
	memset(&t, 0, sizeof t);
	if (load_target(&p, &o, &t) < 0)
		goto out;
	if (bind_sizes(&p, &o, &table) < 0)
		goto out;
	so.timing_only = o.timing_only;
	so.check_races = o.races;
	so.max_cycles = o.max_cycles;
	so.trace_resolution = o.trace_res;
	/* without --trace nobody reads the timeline (the summary is sums) */
	so.no_timeline = !o.trace;
	s = npu_sim_new(&p, &t, &so, &e);
	if (!s) {
		fprintf(stderr, "npusim run: %s: %s\n", o.prog, e.msg);
		goto out;
	}
	if (table) {
		uint8_t *q = npu_sim_local(s, p.symtab, NPU_SYMTAB_BYTES(&p));
		if (!q) {
			fprintf(stderr, "npusim run: %s: its size table at 0x%llx is outside SRAM\n",
				o.prog, (unsigned long long)p.symtab);
			goto out;
		}
		memcpy(q, table, NPU_SYMTAB_BYTES(&p));
	}
	if (load_inputs(s, &p, &o) < 0)
		goto out;
	cmdline = join_args(argc, argv);
	if (o.trace)
		tr = begin_trace(&p, &t, &o, cmdline ? cmdline : "", &te);
	/* rows go to the trace as the run makes them (refused only for a
	 * run without a timeline, which --trace is not: its rows would then
	 * all be written after the run, as before) */
	if (tr)
		(void)npu_sim_stream_trace(s, tr, &te);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = npu_sim_run(s, &e);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (r < 0) {
		fprintf(stderr, "npusim run: %s: %s\n", o.prog, e.msg);
		goto out;
	}
	rc = r == NPU_SIM_FAULT ? NPU_EXIT_FAULT : NPU_EXIT_OK;
	if (r == NPU_SIM_FAULT)
		fprintf(stderr, "npusim run: %s: %s\n", o.prog, e.msg);
	if (tr) {
		trace_rc = end_trace(tr, s, &o, (double)(t1.tv_sec - t0.tv_sec) +
				     1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), rc, &te);
		ended = 1;
	} else if (o.trace) {
		fprintf(stderr, "npusim run: trace %s: %s\n", o.trace, te.msg);
		trace_rc = -1;
	}
	/* a trace that failed loses neither the outputs nor the summary */
	if (rc == NPU_EXIT_OK && o.outputs && write_outputs(s, &p, o.outputs) < 0)
		rc = NPU_EXIT_USAGE;
	if (!o.quiet && rc != NPU_EXIT_USAGE)
		summary(s, &p, &t, &o);
out:
	free(cmdline);
	free(table);
	npu_sim_free(s);
	npu_prog_free(&p);
	/* the writer thread ended the run and closed the trace meanwhile */
	if (ended && trace_rc == 0)
		trace_rc = finish_trace(tr, &o, &te);
	else
		npu_trace_close(tr);
	if (trace_rc < 0 && rc != NPU_EXIT_USAGE)
		rc = NPU_EXIT_USAGE;
	return rc;
}
