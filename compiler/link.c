/*
 * link.c - the program: DRAM layout, constant data, code, the kernel
 * table, provenance and the host-call table (isa/prog.h).
 *
 * Layout (npu_link_layout, before emission, since instructions carry DRAM
 * addresses): inputs first, in placeholder order, then outputs, then
 * constants, then scratch, each 64-byte aligned (a DRAM burst).  Every
 * materialized value that something reads gets its own buffer: the
 * simulator requires a DMA row to stay inside one buffer, and a host call
 * receives whole buffers with their shapes.
 *
 * Provenance: the program's node table is the graph's node list (index =
 * graph node), with ATen target, module path and source line; every
 * kernel lists the nodes fused into it and every instruction names its
 * node, so traces attribute each cycle to an FX node.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/driver.h"
#include "compiler/dyn.h"

static char *xstrdup(const char *s)
{
	return strdup(s ? s : "");
}

static int wants_buf(const npu_kval *v)
{
	if (v->root >= 0 || v->isconst)
		return 0;
	if (v->kind == NPU_BUF_INPUT || v->kind == NPU_BUF_OUTPUT)
		return 1;
	return v->needed;
}

/*
 * Scratch values that no host call touches share one arena buffer,
 * placed by liveness: a value lives from the kernel that writes it to the
 * last kernel that reads it, and takes the lowest offset free over that
 * interval (first fit in order of start).  Returns the arena size; *peak
 * gets the largest sum of bytes live at once, the bound it is measured
 * against.
 */
typedef struct live {
	int v;
	int start, end;
	uint64_t size, off;
} live;

static int cmp_live(const void *a, const void *b)
{
	const live *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->size > y->size ? -1 : x->size < y->size;
}

static int64_t arena_plan(npu_kir *ir, int *in_arena, uint64_t *peak, int res)
{
	int n = 0;
	live *L = calloc((size_t)ir->nv + 1, sizeof *L);
	int *start = malloc((size_t)ir->nv * sizeof *start + 1);
	int *end = malloc((size_t)ir->nv * sizeof *end + 1);
	uint64_t size = 0;

	if (!L || !start || !end) {
		free(L);
		free(start);
		free(end);
		return -1;
	}
	for (int v = 0; v < ir->nv; v++) {
		start[v] = ir->v[v].producer;
		end[v] = ir->v[v].producer;
		/* a value of symbolic shape is placed at load (dyn.c) */
		in_arena[v] = wants_buf(&ir->v[v]) && ir->v[v].kind == NPU_BUF_SCRATCH &&
			      !ir->v[v].sym && ir->v[v].res == res;
	}
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		for (int i = 0; i < K->nops; i++) {
			int v = K->ops[i].val;
			if (end[v] < k)
				end[v] = k;
			/* written in parts by several kernels (cat): from the first */
			if (K->ops[i].out && (start[v] < 0 || start[v] > k))
				start[v] = k;
		}
		for (int i = 0; i < K->nhin; i++) {
			in_arena[K->hin[i]] = 0;
			if (end[K->hin[i]] < k)
				end[K->hin[i]] = k;
		}
		for (int i = 0; i < K->nhout; i++)
			in_arena[K->hout[i]] = 0;
	}
	for (int v = 0; v < ir->nv; v++) {
		if (!in_arena[v])
			continue;
		L[n].v = v;
		L[n].start = start[v] < 0 ? 0 : start[v];
		L[n].end = end[v] < L[n].start ? L[n].start : end[v];
		L[n].size = ((uint64_t)npu_kir_numel(ir->v[v].ndim, ir->v[v].shape) *
			     (uint64_t)npu_dtype_size(ir->v[v].dtype) + 63) & ~63ull;
		n++;
	}
	qsort(L, (size_t)n, sizeof *L, cmp_live);
	*peak = 0;
	for (int i = 0; i < n; i++) {
		uint64_t off = 0, live_bytes = L[i].size;
		int moved = 1;
		/* lowest offset not overlapping any placed interval alive then */
		while (moved) {
			moved = 0;
			for (int j = 0; j < i; j++) {
				if (L[j].end < L[i].start || L[j].start > L[i].end)
					continue;
				if (off < L[j].off + L[j].size && L[j].off < off + L[i].size) {
					off = L[j].off + L[j].size;
					moved = 1;
				}
			}
		}
		L[i].off = off;
		if (off + L[i].size > size)
			size = off + L[i].size;
		for (int j = 0; j < i; j++)
			if (L[j].end >= L[i].start)
				live_bytes += L[j].size;
		if (live_bytes > *peak)
			*peak = live_bytes;
		ir->v[L[i].v].daddr = off; /* relative until the arena is placed */
	}
	free(L);
	free(start);
	free(end);
	return (int64_t)size;
}

/* ----------------------------------------------------------------- */
/*
 * Mutation (docs/fx-format.md, "Mutation"): a forward or inference graph
 * whose aot metadata flags data-mutated inputs returns their new values
 * first.  The program writes each new value into the input's own buffer,
 * which becomes an inout buffer, so a run leaves the inputs as PyTorch
 * leaves them.  Where it is safe, the kernel that computes the new value
 * stores it there directly (no output buffer, no copy); otherwise a copy
 * kernel at the end of the program writes it back and the value keeps its
 * output.i buffer too.  Either way the value written into the input's
 * buffer has kind NPU_BUF_INOUT and outidx = i until layout gives it the
 * input's buffer.
 */

/* The value a kernel operand belongs to (views resolved). */
static int root_val(const npu_kir *ir, int v)
{
	while (ir->v[v].root >= 0)
		v = ir->v[v].root;
	return v;
}

/* The input value whose new value is graph output i, or -1. */
static int mutated_input(const npu_kir *ir, int i)
{
	const npu_graph *g = ir->g;

	if (!g->has_aot || g->kind == NPU_GK_BACKWARD ||
	    i >= g->num_mutated_inputs_returned_first)
		return -1;
	for (int p = 0, c = 0; p < g->ninput_mutates; p++)
		if (g->input_mutates_data[p] && c++ == i) {
			int node = npu_graph_placeholder(g, p);
			return node < 0 ? -1 : ir->nodeval[node];
		}
	return -1;
}

/* Whether operand o of K walks the same elements in the same order as
 * operand w (dims of one element do not count). */
static int same_walk(const npu_kern *K, const npu_kopnd *o, const npu_kopnd *w)
{
	if (o->off != w->off)
		return 0;
	for (int d = 0; d < K->ndim; d++)
		if (K->shape[d] > 1 && o->stride[d] != w->stride[d])
			return 0;
	return 1;
}

/*
 * Whether out, the new value of input in, may be stored straight into in's
 * buffer: one kernel writes it, and every read of the old value happens in
 * an earlier kernel, or in that same kernel element by element ahead of
 * the store (an elementwise kernel reading in exactly where it writes out,
 * or a host call, which reads all its inputs before it stores a result).
 */
static int alias_safe(const npu_kir *ir, int in, int out)
{
	const npu_kval *I = &ir->v[in], *O = &ir->v[out];
	int w = O->producer;

	/* (the dtypes and element counts agree: npu_link_mutations checked) */
	if (w < 0 || O->root >= 0 || O->isconst || O->kind != NPU_BUF_OUTPUT ||
	    I->root >= 0 || I->kind != NPU_BUF_INPUT)
		return 0;
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		const npu_kopnd *st = NULL;
		for (int i = 0; i < K->nops; i++)
			if (K->ops[i].out && root_val(ir, K->ops[i].val) == out) {
				if (k != w || st)
					return 0;
				st = &K->ops[i];
			}
		for (int i = 0; i < K->nhout; i++)
			if (K->hout[i] == out && k != w)
				return 0;
		for (int i = 0; i < K->nhin; i++)
			if (K->hin[i] == in && k > w)
				return 0;
		for (int i = 0; i < K->nops; i++) {
			if (K->ops[i].out || root_val(ir, K->ops[i].val) != in || k < w)
				continue;
			if (k > w || K->kind != NPU_KK_EW || !st ||
			    !same_walk(K, &K->ops[i], st))
				return 0;
		}
	}
	return 1;
}

/* A copy kernel at the end of the program that writes out into the
 * buffer of the input it is the new value of. */
static int copy_back(npu_kir *ir, int out, int i, npu_err *e)
{
	char name[300];
	int k, w, o, x;
	npu_kern *K;
	int64_t st[NPU_MAX_DIMS];
	const npu_kval *O = &ir->v[out];
	npu_xins ld = { .op = NPU_X_LOAD, .node = O->node };

	if (O->dtype != NPU_DT_F32 && O->dtype != NPU_DT_BF16 &&
	    O->dtype != NPU_DT_F16)
		return npu_errf(e, "%s: output %d (the new value of a mutated input) "
				"cannot be written back in place, and a %s copy "
				"does not run on the vector unit", ir->g->file, i,
				npu_dtype_name(O->dtype));
	snprintf(name, sizeof name, "%s.writeback", O->name);
	if ((k = npu_kir_kern(ir, NPU_KK_EW, name)) < 0 ||
	    (w = npu_kir_val(ir, name, ir->v[out].node, ir->v[out].dtype,
			     ir->v[out].ndim, ir->v[out].shape)) < 0)
		return npu_errf(e, "out of memory");
	O = &ir->v[out];
	K = &ir->k[k];
	K->ndim = O->ndim;
	memcpy(K->shape, O->shape, sizeof K->shape);
	npu_kir_contig(O->ndim, O->shape, st);
	if ((O->node >= 0 && npu_kir_addnode(K, O->node) < 0) ||
	    (o = npu_kir_opnd(K, out, 0, 0, st)) < 0)
		return npu_errf(e, "out of memory");
	ld.a = o;
	if ((x = npu_kir_x(K, ld)) < 0 || (o = npu_kir_opnd(K, w, 1, 0, st)) < 0 ||
	    npu_kir_x(K, (npu_xins){ .op = NPU_X_STORE, .a = x, .b = o,
				     .node = ir->v[out].node }) < 0)
		return npu_errf(e, "out of memory");
	ir->v[out].needed = 1;
	ir->v[w].producer = k;
	ir->v[w].xdef = x;
	ir->v[w].needed = 1;
	ir->v[w].kind = NPU_BUF_INOUT;
	ir->v[w].outidx = i;
	npu_kir_decide(ir, 0, "%s: written back into mutated input %s by a copy kernel "
		       "(a later read of the old value, or no single elementwise writer)",
		       ir->v[out].name, ir->v[mutated_input(ir, i)].name);
	return 0;
}

int npu_link_mutations(npu_kir *ir, npu_err *e)
{
	for (int i = 0; i < ir->nouts; i++) {
		int in = mutated_input(ir, i), out = ir->outs[i];
		if (in < 0 || out < 0)
			continue;
		if (ir->v[in].kind != NPU_BUF_INPUT || ir->v[in].root >= 0)
			return npu_errf(e, "%s: output %d is the new value of '%s', "
					"which is not a run-time input (frozen?)",
					ir->g->file, i, ir->v[in].name);
		/* it goes into the input's buffer: as many elements of the
		 * same type (the copy back would write past a larger one) */
		if (ir->v[in].dtype != ir->v[out].dtype ||
		    npu_kir_numel(ir->v[in].ndim, ir->v[in].shape) !=
		    npu_kir_numel(ir->v[out].ndim, ir->v[out].shape))
			return npu_errf(e, "%s: output %d, the new value of '%s', is %s "
					"of %lld elements, the input %s of %lld",
					ir->g->file, i, ir->v[in].name,
					npu_dtype_name(ir->v[out].dtype),
					(long long)npu_kir_numel(ir->v[out].ndim, ir->v[out].shape),
					npu_dtype_name(ir->v[in].dtype),
					(long long)npu_kir_numel(ir->v[in].ndim, ir->v[in].shape));
		if (alias_safe(ir, in, out)) {
			ir->v[out].kind = NPU_BUF_INOUT;
			npu_kir_decide(ir, 1, "%s: stored in place into mutated input %s",
				       ir->v[out].name, ir->v[in].name);
		} else if (copy_back(ir, out, i, e) < 0) {
			return -1;
		}
	}
	return 0;
}

/* Layout of the values written into inputs' buffers: the input's buffer,
 * which becomes inout. */
static void place_inout(npu_kir *ir, npu_prog *p)
{
	for (int v = 0; v < ir->nv; v++) {
		int in;
		if (ir->v[v].kind != NPU_BUF_INOUT || ir->v[v].root >= 0 ||
		    (in = mutated_input(ir, ir->v[v].outidx)) < 0 || ir->v[in].buf < 0)
			continue;
		ir->v[v].buf = ir->v[in].buf;
		ir->v[v].daddr = ir->v[in].daddr;
		p->bufs[ir->v[in].buf].kind = NPU_BUF_INOUT;
	}
}

int npu_link_layout(npu_kir *ir, npu_prog *p, npu_err *e)
{
	static const int order[] = { NPU_BUF_INPUT, NPU_BUF_OUTPUT,
				     NPU_BUF_CONST, NPU_BUF_SCRATCH };
	uint64_t addr = 0, cdata = 0, peak = 0;
	int n = 1;
	int *in_arena = calloc((size_t)ir->nv + 1, sizeof *in_arena);
	int64_t arena;

	if (!in_arena)
		return npu_errf(e, "out of memory");
	if ((arena = arena_plan(ir, in_arena, &peak, 0)) < 0) {
		free(in_arena);
		return npu_errf(e, "out of memory");
	}
	ir->arena_bytes = (uint64_t)arena;
	ir->arena_peak = peak;
	for (int i = 0; i < ir->nv; i++)
		n += wants_buf(&ir->v[i]) && !in_arena[i];
	p->bufs = calloc((size_t)n + 1, sizeof *p->bufs);
	if (!p->bufs)
		return npu_errf(e, "out of memory");
	for (int i = 0; i < ir->nv; i++)
		if (wants_buf(&ir->v[i]) && ir->v[i].kind == NPU_BUF_CONST)
			cdata += (npu_dtype_size(ir->v[i].dtype) *
				  (uint64_t)npu_kir_numel(ir->v[i].ndim, ir->v[i].shape) + 63) & ~63ull;
	if (cdata && !(p->cdata = calloc(1, cdata))) {
		free(in_arena);
		return npu_errf(e, "out of memory");
	}
	cdata = 0;
	for (int o = 0; o < 4; o++) {
		/* outputs in output order */
		int lim = order[o] == NPU_BUF_OUTPUT ? ir->nouts : ir->nv;
		for (int j = 0; j < lim; j++) {
			int i = order[o] == NPU_BUF_OUTPUT ? ir->outs[j] : j;
			npu_kval *v;
			npu_buf *b;
			if (i < 0)	/* a None output */
				continue;
			v = &ir->v[i];
			if (!wants_buf(v) || v->kind != order[o] || v->buf >= 0 ||
			    in_arena[i] || v->res)
				continue;
			b = &p->bufs[p->nbufs];
			b->dtype = v->dtype;
			b->ndim = v->ndim;
			memcpy(b->shape, v->shape, sizeof b->shape);
			b->kind = v->kind;
			b->size = (uint64_t)npu_kir_numel(v->ndim, v->shape) *
				  (uint64_t)npu_dtype_size(v->dtype);
			b->addr = addr;
			addr += (b->size + 63) & ~63ull;
			/* a symbolic buffer's code may address more rows
			 * than the hint's (dyn.c): they must name it alone */
			if (v->sym)
				addr += ((b->size + 63) & ~63ull) * (NPU_DYN_ROOM - 1);
			/* names are unique: synthetic copies get a suffix */
			{
				char nm[300];
				int dup = 0;
				snprintf(nm, sizeof nm, "%s", v->name);
				for (;;) {
					int clash = 0;
					for (uint32_t q = 0; q < p->nbufs; q++)
						clash |= !strcmp(p->bufs[q].name, nm);
					if (!clash)
						break;
					snprintf(nm, sizeof nm, "%s.%d", v->name, ++dup);
				}
				if (!(b->name = strdup(nm))) {
					free(in_arena);
					return npu_errf(e, "out of memory");
				}
			}
			if (v->kind == NPU_BUF_CONST) {
				b->data_off = cdata;
				if (b->size)
					memcpy(p->cdata + cdata, v->cdata, b->size);
				cdata += (b->size + 63) & ~63ull;
			}
			v->daddr = b->addr;
			v->buf = (int)p->nbufs++;
		}
	}
	/* the arena of shared scratch, last */
	if (arena > 0) {
		npu_buf *b = &p->bufs[p->nbufs];
		int clash = 1, dup = 0;
		char nm[32] = "scratch";
		while (clash) {
			clash = 0;
			for (uint32_t q = 0; q < p->nbufs; q++)
				clash |= !strcmp(p->bufs[q].name, nm);
			if (clash)
				snprintf(nm, sizeof nm, "scratch.%d", ++dup);
		}
		b->name = strdup(nm);
		b->dtype = NPU_DT_U8;
		b->ndim = 1;
		b->shape[0] = arena;
		b->kind = NPU_BUF_SCRATCH;
		b->size = (uint64_t)arena;
		b->addr = addr;
		if (!b->name) {
			free(in_arena);
			return npu_errf(e, "out of memory");
		}
		for (int i = 0; i < ir->nv; i++)
			if (in_arena[i]) {
				ir->v[i].daddr += addr;
				ir->v[i].buf = (int)p->nbufs;
			}
		addr += ((uint64_t)arena + 63) & ~63ull;
		p->nbufs++;
	}
	free(in_arena);
	place_inout(ir, p);
	p->ncdata = cdata;
	p->dram_size = addr ? addr : 64;
	/* the resident window: addresses past every buffer, so that a
	 * transfer the emitter failed to turn into an SRAM copy faults */
	ir->res_lo = p->dram_size + 4096;
	for (int i = 0; i < ir->nv && ir->res_bytes; i++)
		if (ir->v[i].res)
			ir->v[i].daddr += ir->res_lo;
	return 0;
}

/*
 * The SRAM-resident window.  A transformer at a few tokens computes
 * kernels of a few microseconds each, and every one of them loaded its
 * operands from DRAM and stored its result there: 400 cycles of DRAM
 * latency each way, on the critical path between kernels.  When the
 * shared scratch fits in a few of the top SRAM banks, it stays there
 * instead: the tiler and the emitter see a target without those banks,
 * and the emitter turns every load and store of a resident value into
 * an SRAM-to-SRAM copy (emit.c, res_map).  A value that a transfer
 * cannot reach that way (a converting store, a gather's table) is named
 * in the emitter's list and the compile is redone without it
 * (npu_cc_compile).  Values a host call touches, symbolic values and
 * every value of a dynamic program stay in DRAM.
 */
#define RES_MAX_BANKS_DIV 16	/* at most 1/16 of the banks (2 of 32) */

int npu_link_resident(npu_kir *ir, const npu_target *t,
		      const unsigned char *excl, npu_err *e)
{
	int *in_res = calloc((size_t)ir->nv + 1, sizeof *in_res), n = 0;
	uint64_t bk = t->sram_banks > 0 ? t->sram_bytes / (uint64_t)t->sram_banks : 0;
	uint64_t peak = 0;
	int64_t bytes;
	int nb;

	if (!in_res)
		return npu_errf(e, "out of memory");
	ir->res_bytes = 0;
	ir->res_banks = 0;
	for (int v = 0; v < ir->nv; v++)
		ir->v[v].res = wants_buf(&ir->v[v]) &&
			       ir->v[v].kind == NPU_BUF_SCRATCH && !ir->v[v].sym &&
			       !(excl && excl[v]);
	if ((bytes = arena_plan(ir, in_res, &peak, 1)) < 0) {
		free(in_res);
		return npu_errf(e, "out of memory");
	}
	for (int v = 0; v < ir->nv; v++) {
		ir->v[v].res = in_res[v];
		n += in_res[v];
	}
	free(in_res);
	nb = bk ? (int)(((uint64_t)bytes + bk - 1) / bk) : 0;
	if (bytes <= 0 || nb > t->sram_banks / RES_MAX_BANKS_DIV) {
		for (int v = 0; v < ir->nv; v++)
			ir->v[v].res = 0;
		if (bytes > 0)
			npu_kir_decide(ir, 1, "shared scratch of %lld bytes stays in DRAM: "
				       "more than %d SRAM banks", (long long)bytes,
				       t->sram_banks / RES_MAX_BANKS_DIV);
		return 0;
	}
	ir->res_bytes = (uint64_t)bytes;
	ir->res_peak = peak;
	ir->res_banks = nb;
	ir->res_nvals = n;
	ir->res_sram = t->sram_bytes - (uint64_t)nb * bk;
	npu_kir_decide(ir, 1, "%d scratch values (%lld bytes) kept in the top %d "
		       "SRAM bank%s, not DRAM", n, (long long)bytes, nb, nb > 1 ? "s" : "");
	return 0;
}

int npu_link_finish(npu_kir *ir, npu_mfunc *fs, npu_prog *p,
		    const npu_target *t, npu_err *e)
{
	const npu_graph *g = ir->g;
	uint32_t total = 1, pc = 0, nk = 0, nkn = 0, nh = 0;

	for (int k = 0; k < ir->nk; k++)
		total += (uint32_t)fs[k].n;
	p->code = calloc(total, sizeof *p->code);
	p->insn_node = calloc(total, sizeof *p->insn_node);
	p->nodes = calloc((size_t)g->nnodes + 1, sizeof *p->nodes);
	p->kernels = calloc((size_t)ir->nk + 1, sizeof *p->kernels);
	for (int k = 0; k < ir->nk; k++)
		nkn += (uint32_t)ir->k[k].nnodes;
	p->kernel_nodes = calloc(nkn + 1, sizeof *p->kernel_nodes);
	p->hcalls = calloc((size_t)ir->nk + 1, sizeof *p->hcalls);
	if (!p->code || !p->insn_node || !p->nodes || !p->kernels ||
	    !p->kernel_nodes || !p->hcalls)
		return npu_errf(e, "out of memory");
	for (int i = 0; i < g->nnodes; i++) {
		const npu_gnode *n = &g->nodes[i];
		npu_node *d = &p->nodes[i];
		d->name = xstrdup(n->name);
		d->target = xstrdup(n->op == NPU_GOP_CALL_FUNCTION ? n->target
				    : npu_gop_name(n->op));
		d->module = xstrdup(n->module);
		d->source = xstrdup(n->srcloc);
		if (!d->name || !d->target || !d->module || !d->source)
			return npu_errf(e, "out of memory");
	}
	p->nnodes = (uint32_t)g->nnodes;
	nkn = 0;
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		npu_mfunc *f = &fs[k];
		if (npu_mfunc_finish(f, pc, e) < 0)
			return -1;
		if (K->kind == NPU_KK_HOST) {
			npu_hostcall *h = &p->hcalls[nh++];
			h->op = xstrdup(g->nodes[K->hnode].target);
			h->attrs = xstrdup(K->hattrs);
			h->nin = (uint32_t)K->nhin;
			h->nargs = (uint32_t)(K->nhin + K->nhout);
			h->args = calloc(h->nargs + 1, sizeof *h->args);
			h->node = (uint32_t)K->hnode;
			if (!h->op || !h->attrs || !h->args)
				return npu_errf(e, "out of memory");
			for (int i = 0; i < K->nhin; i++)
				h->args[i] = (uint32_t)ir->v[K->hin[i]].buf;
			for (int i = 0; i < K->nhout; i++)
				h->args[K->nhin + i] = (uint32_t)ir->v[K->hout[i]].buf;
		}
		if (!f->n)
			continue;
		npu_kernel *kk = &p->kernels[nk++];
		kk->name = xstrdup(K->name);
		kk->start = pc;
		kk->end = pc + (uint32_t)f->n;
		kk->node_first = nkn;
		kk->node_count = (uint32_t)K->nnodes;
		for (int j = 0; j < K->nnodes; j++)
			p->kernel_nodes[nkn++] = (uint32_t)K->nodes[j];
		for (int i = 0; i < f->n; i++) {
			npu_insn in = npu_minsn_insn(&f->v[i]);
			p->code[pc] = npu_encode(&in);
			p->insn_node[pc] = f->v[i].node >= 0 ? (uint32_t)f->v[i].node
							     : NPU_NO_NODE;
			pc++;
		}
	}
	{
		npu_insn h = { .op = NPU_OP_HALT };
		p->code[pc] = npu_encode(&h);
		p->insn_node[pc] = NPU_NO_NODE;
		pc++;
	}
	p->ncode = pc;
	p->nkernels = nk;
	p->nkernel_nodes = nkn;
	p->nhcalls = nh;
	snprintf(p->target_name, sizeof p->target_name, "%s", t->name);
	p->target_hash = t->hash;
	return npu_prog_check(p, e);
}
