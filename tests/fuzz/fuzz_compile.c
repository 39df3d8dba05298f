/*
 * fuzz_compile.c - npucc's whole pipeline on whatever graph the reader
 * accepts, twice: with nothing frozen, then with the parameter and buffer
 * placeholders and get_attr constants frozen to generated values (those
 * of up to FROZEN_MAX elements), as --weights does.  A refusal must say
 * why; a program it makes must pass npu_prog_check() and run on the
 * simulator, timing only and with the race check on, to its end: the
 * compiler must not emit code that faults or races.  (Dynamic programs,
 * which need their sizes, and programs of more than SIM_MAX_DRAM bytes of
 * DRAM are not run; a run stops at SIM_MAX_CYCLES cycles, a limit that is
 * not a fault of the compiler.)  Any crash, leak or sanitizer report is a
 * bug.
 *
 * The graph and the weights go through two temporary files (npucc reads
 * paths), made once per process in $TMPDIR and removed at exit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/driver.h"
#include "compiler/gedit.h"
#include "isa/dtype.h"
#include "sim/sim.h"

#define FROZEN_MAX 65536
#define SIM_MAX_DRAM (256u << 20)
#define SIM_MAX_CYCLES 5000000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char gpath[512], wpath[512];

static void cleanup(void)
{
	if (gpath[0])
		unlink(gpath);
	if (wpath[0])
		unlink(wpath);
}

/* Once per process: the two temporary files, and the host ops (as
 * npusim run registers them). */
static void init_once(void)
{
	const char *dir = getenv("TMPDIR");
	int fg, fw;

	if (gpath[0])
		return;
	npu_hostops_register_all();
	snprintf(gpath, sizeof gpath, "%s/fuzz_compile.XXXXXX", dir ? dir : "/tmp");
	snprintf(wpath, sizeof wpath, "%s/fuzz_compile.XXXXXX", dir ? dir : "/tmp");
	fg = mkstemp(gpath);
	fw = mkstemp(wpath);
	if (fg < 0 || fw < 0)
		abort();
	close(fg);
	close(fw);
	atexit(cleanup);
}

static void put_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
}

/*
 * The weights file for g: each frozen node with a concrete tensor meta
 * of a dtype safetensors can hold, small values (k % 7 - 3) / 4.  0, or
 * -1 when there is none to freeze.
 */
static int gen_weights(const npu_graph *g)
{
	npu_tensor *t = calloc((size_t)g->nnodes + 1, sizeof *t);
	void *blob = NULL;
	size_t n = 0, len = 0;
	npu_err e;
	int rc = -1;

	if (!t)
		abort();
	for (int i = 0; i < g->nnodes; i++) {
		const npu_gnode *nd = &g->nodes[i];
		const npu_gmeta *m = nd->nmeta ? &nd->meta[0] : NULL;
		char key[600];
		int64_t numel = 1;
		int rank;
		int sz;
		if (!npu_gnode_is_weight(nd) || !m || m->kind != NPU_GM_TENSOR ||
		    !npu_st_dtype_code(m->dtype) || (sz = npu_dtype_size(m->dtype)) <= 0 ||
		    (rank = npu_gmeta_shape(m, t[n].shape)) < 0)
			continue;
		for (int k = 0; k < rank && numel <= FROZEN_MAX; k++)
			numel = t[n].shape[k] < 0 ? FROZEN_MAX + 1 : numel * t[n].shape[k];
		if (numel > FROZEN_MAX)
			continue;
		if (nd->op == NPU_GOP_GET_ATTR)
			snprintf(key, sizeof key, "attr.%s", nd->target ? nd->target : "");
		else
			snprintf(key, sizeof key, "%s", nd->name);
		if (!(t[n].name = strdup(key)) ||
		    !(t[n].data = calloc((size_t)numel + 1, (size_t)sz)))
			abort();
		t[n].dtype = m->dtype;
		t[n].ndim = rank;
		t[n].nbytes = (uint64_t)numel * (uint64_t)sz;
		for (int64_t k = 0; k < numel; k++)
			npu_store_f32(m->dtype, t[n].data, (size_t)k,
				      (float)(k % 7 - 3) * 0.25f);
		n++;
	}
	/* duplicate names (two get_attr of one target) the encoder refuses */
	if (n && npu_st_encode(t, n, NULL, &blob, &len, &e) == 0) {
		put_file(wpath, blob, len);
		rc = 0;
	}
	free(blob);
	for (size_t i = 0; i < n; i++) {
		free(t[i].name);
		free(t[i].data);
	}
	free(t);
	return rc;
}

/* Runs what the compiler made; the rules in the comment at the top. */
static void simulate(const npu_ccresult *r)
{
	npu_sim_opts so = { .timing_only = 1, .no_timeline = 1,
			    .check_races = 1, .max_cycles = SIM_MAX_CYCLES };
	npu_err e = { "" };
	npu_sim *s;
	int rc;

	if (r->dyn || r->prog.dram_size > SIM_MAX_DRAM)
		return;
	if (!(s = npu_sim_new(&r->prog, &r->t, &so, &e))) {
		fprintf(stderr, "fuzz_compile: the program does not load: %s\n", e.msg);
		abort();
	}
	rc = npu_sim_run(s, &e);
	if (rc == NPU_SIM_FAULT && !strstr(e.msg, "exceeds the cycle limit")) {
		fprintf(stderr, "fuzz_compile: the program faulted: %s\n", e.msg);
		abort();
	}
	if (rc < 0)
		abort();
	npu_sim_free(s);
}

static void compile(int frozen)
{
	npu_ccopts o = { .graph = gpath, .target = "npu-base" };
	npu_ccresult r;
	npu_err e = { "" };

	memset(&r, 0, sizeof r);
	o.weights = frozen ? wpath : NULL;
	if (npu_cc_compile(&o, &r, &e) < 0) {
		if (!e.msg[0])
			abort(); /* a refusal says why */
	} else {
		if (npu_prog_check(&r.prog, &e) < 0) {
			fprintf(stderr, "fuzz_compile: npu_prog_check: %s\n", e.msg);
			abort();
		}
		simulate(&r);
	}
	npu_cc_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	npu_graph *g;
	npu_err e;

	if (npu_graph_parse(&g, "fuzz.json", data, size, &e) < 0)
		return 0;
	init_once();
	put_file(gpath, data, size);
	compile(0);
	if (gen_weights(g) == 0)
		compile(1);
	npu_graph_free(g);
	return 0;
}
