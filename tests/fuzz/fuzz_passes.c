/*
 * fuzz_passes.c - the normalization passes on whatever graph the reader
 * accepts: once with nothing frozen, once with every small placeholder
 * and get_attr frozen (so folding runs), then the result is checked for
 * the invariants later stages rely on (references point backward, names
 * are found where they are, the output node is the last) and printed.
 * Any crash, leak, sanitizer report or broken invariant is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/gedit.h"
#include "compiler/graph.h"
#include "compiler/passes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fz {
	npu_graph *g;              /* the graph as read (names to meta) */
	npu_reftensor *t;          /* values made so far, by node index */
} fz;

/* A value for any small, concrete tensor placeholder or get_attr. */
static const npu_reftensor *frozen(void *ctx, const char *name)
{
	fz *f = ctx;
	int i = npu_graph_find(f->g, strncmp(name, "attr.", 5) ? name : name + 5);
	const npu_gmeta *m;
	int64_t shape[NPU_MAX_DIMS], n = 1;
	npu_err e;
	int nd;

	if (i < 0 && !strncmp(name, "attr.", 5))     /* get_attr: by target */
		for (int k = 0; k < f->g->nnodes && i < 0; k++)
			if (f->g->nodes[k].op == NPU_GOP_GET_ATTR &&
			    !strcmp(f->g->nodes[k].target, name + 5))
				i = k;
	if (i < 0 || !f->g->nodes[i].nmeta)
		return NULL;
	if (f->t[i].ndim >= 0)
		return &f->t[i];
	m = &f->g->nodes[i].meta[0];
	if ((nd = npu_gmeta_shape(m, shape)) < 0)
		return NULL;
	for (int k = 0; k < nd; k++)
		n *= shape[k];
	if (n > 4096 || npu_reftensor_alloc(&f->t[i], m->dtype, nd, shape, &e) < 0)
		return NULL;
	for (int64_t k = 0; k < n; k++)
		f->t[i].data[k] = (double)(k % 7 - 3) * 0.25;
	return &f->t[i];
}

static void backward_ref(int *ref, void *ctx)
{
	if (*ref < 0 || *ref >= *(int *)ctx)
		abort();
}

static void check_invariants(npu_graph *g)
{
	for (int i = 0; i < g->nnodes; i++) {
		if (npu_graph_find(g, g->nodes[i].name) != i)
			abort();
		npu_gnode_refs(&g->nodes[i], backward_ref, &i);
	}
	if (g->output != g->nnodes - 1)
		abort();
}

static void run(const uint8_t *data, size_t size, int freeze)
{
	npu_graph *g, *orig = NULL;
	npu_passconsts cs = { 0 };
	npu_passopts o = { 0 };
	npu_passlog log;
	fz f = { 0 };
	npu_err e;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	if (npu_graph_parse(&g, "fuzz.json", data, size, &e) < 0)
		return;
	if (freeze) {
		if (npu_graph_parse(&orig, "fuzz.json", data, size, &e) < 0 ||
		    !(f.t = calloc((size_t)orig->nnodes, sizeof *f.t)))
			goto out;
		for (int i = 0; i < orig->nnodes; i++)
			f.t[i].ndim = -1;
		f.g = orig;
		o.frozen = frozen;
		o.ctx = &f;
		o.consts = &cs;
	}
	npu_passlog_init(&log);
	npu_passes_run(g, &o, &log, &e);   /* may fail; g must stay valid */
	check_invariants(g);
	if ((out = open_memstream(&buf, &len))) {
		npu_graph_print(g, out);
		npu_passlog_print(&log, out, 1);
		npu_passlog_print_json(&log, out);
		fclose(out);
	}
	free(buf);
	npu_passlog_free(&log);
out:
	npu_passconsts_free(&cs);
	if (f.t)
		for (int i = 0; i < orig->nnodes; i++)
			npu_reftensor_free(&f.t[i]);
	free(f.t);
	npu_graph_free(orig);
	npu_graph_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, 0);
	run(data, size, 1);
	return 0;
}
