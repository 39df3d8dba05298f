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
		in_arena[v] = res ? ir->v[v].res && ir->v[v].kind == NPU_BUF_SCRATCH
				  : wants_buf(&ir->v[v]) && ir->v[v].kind == NPU_BUF_SCRATCH &&
				    !ir->v[v].sym && !ir->v[v].res;
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
		L[n].size = (npu_kval_bytes(&ir->v[v]) + 63) & ~63ull;
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
		/* relative until the arena is placed */
		*(res ? &ir->v[L[i].v].roff : &ir->v[L[i].v].daddr) = off;
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

/* Whether kernel K only copies input in, unchanged, onto operand st
 * (a scatter's copy of self, fuse.c's rt_scatter). */
static int copies_in(const npu_kir *ir, const npu_kern *K, const npu_kopnd *st, int in)
{
	if (K->kind != NPU_KK_EW || K->nx != 2 || K->x[0].op != NPU_X_LOAD ||
	    K->x[1].op != NPU_X_STORE || K->x[1].a != 0)
		return 0;
	return root_val(ir, K->ops[K->x[0].a].val) == in && same_walk(K, &K->ops[K->x[0].a], st);
}

/*
 * Whether out, the new value of input in, may be stored straight into in's
 * buffer: one kernel writes it, and every read of the old value happens in
 * an earlier kernel, or in that same kernel element by element ahead of
 * the store (an elementwise kernel reading in exactly where it writes out,
 * or a host call, which reads all its inputs before it stores a result).
 * A scatter (a static KV cache's index_copy_) writes out after a kernel
 * that copies self, in, into it: in place that copy is the identity, and
 * the scatter then writes the rows into in's own buffer.
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
				if (k < w && ir->k[w].g_scatter && copies_in(ir, K, &K->ops[i], in))
					continue;
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
			/* an integer kernel reads all of its inputs before
			 * it stores (emit_int) */
			if (k == w && K->kind == NPU_KK_INT)
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

/* A buffer name no buffer of p has yet: base, else base.1, base.2, ... */
static char *block_name(const npu_prog *p, const char *base)
{
	char nm[64];
	int dup = 0, clash = 1;

	snprintf(nm, sizeof nm, "%s", base);
	while (clash) {
		clash = 0;
		for (uint32_t q = 0; q < p->nbufs; q++)
			clash |= !strcmp(p->bufs[q].name, nm);
		if (clash)
			snprintf(nm, sizeof nm, "%s.%d", base, ++dup);
	}
	return strdup(nm);
}

/* The resident window's addresses: those of its SRAM bytes in the DMA
 * aperture (isa/isa.h), so that every transfer kind reaches a resident
 * value as it would reach DRAM, a converting store and a gather's table
 * included, and moves it SRAM to SRAM.  The resident constants' data is
 * one DRAM buffer, "preload", laid out as the start of the window
 * (res_try), which the preload copies whole. */
static int res_place(npu_kir *ir, npu_err *e)
{
	int n = 0;

	ir->npre = 0;
	for (int i = 0; i < ir->nv && ir->res_bytes; i++)
		n += ir->v[i].res && ir->v[i].kind == NPU_BUF_CONST;
	if (n && !(ir->pre = calloc((size_t)n, sizeof *ir->pre)))
		return npu_errf(e, "out of memory");
	for (int i = 0; i < ir->nv && ir->res_bytes; i++) {
		npu_kval *v = &ir->v[i];
		if (!v->res)
			continue;
		if (v->kind == NPU_BUF_CONST)
			ir->pre[ir->npre++] = i;
		v->daddr = NPU_SRAM_APERTURE + ir->res_sram + v->roff;
	}
	return 0;
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
	n++;	/* the preload's block */
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
			b->flags = v->win ? NPU_BUF_F_WINDOW : 0;
			v->daddr = b->addr;
			v->buf = (int)p->nbufs++;
		}
	}
	/* the resident constants' block, which the preload copies whole */
	if (ir->res_bytes && ir->pre_bytes) {
		npu_buf *b = &p->bufs[p->nbufs];
		if (!(b->name = block_name(p, "preload"))) {
			free(in_arena);
			return npu_errf(e, "out of memory");
		}
		b->dtype = NPU_DT_U8;
		b->ndim = 1;
		b->shape[0] = (int64_t)ir->pre_bytes;
		b->kind = NPU_BUF_CONST;
		b->size = ir->pre_bytes;
		b->addr = addr;
		b->data_off = cdata;
		for (int i = 0; i < ir->nv; i++) {
			npu_kval *v = &ir->v[i];
			if (!v->res || v->kind != NPU_BUF_CONST)
				continue;
			memcpy(p->cdata + cdata + v->roff, v->cdata,
			       (size_t)npu_kval_bytes(v));
			v->buf = (int)p->nbufs;
		}
		ir->pre_dram = addr;
		cdata += ir->pre_bytes;
		addr += ir->pre_bytes;
		p->nbufs++;
	}
	/* the arena of shared scratch, last */
	if (arena > 0) {
		npu_buf *b = &p->bufs[p->nbufs];
		b->name = block_name(p, "scratch");
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
	return res_place(ir, e);
}

/*
 * The SRAM-resident window (docs/compiler.md).  A transformer at a few
 * tokens computes kernels of a few microseconds each, and every one of
 * them loaded its operands from DRAM and stored its result there: 400
 * cycles of DRAM latency each way, on the critical path between kernels.
 * When the shared scratch and the small constants fit in a few of the
 * top SRAM banks, they stay there instead: the tiler and the emitter see
 * a target without those banks, every resident value has an address of
 * the DMA aperture (res_place), so that each load and store of it is an
 * SRAM-to-SRAM copy, and the first kernel, "preload", copies the
 * constants in.  Values a host call touches, symbolic values and
 * every value of a dynamic program stay in DRAM here; the loader may put
 * a dynamic program's symbolic scratch in SRAM (npu_link_dynwin).
 */
#define RES_MAX_BANKS_DIV 16	/* at most 1/16 of the banks (2 of 32) */
#define RES_CONST_MAX (64 * 1024) /* constants up to this size (biases,
				     norm weights, masks, RoPE tables) */
#define RES_SCRATCH_MIN (16 * 1024) /* the smallest cap on scratch values */

/* Is v a candidate for the window?  Shared scratch of at most smax bytes
 * (want bit 0), and small constants (bit 1), which a preload copies in
 * before the first kernel. */
static int res_candidate(const npu_kval *v, int want, uint64_t smax)
{
	uint64_t bytes = npu_kval_bytes(v);

	if (!wants_buf(v) || v->sym)
		return 0;
	/* (a constant's preload is attributed to its node) */
	return ((want & 1) && v->kind == NPU_BUF_SCRATCH && bytes <= smax) ||
	       ((want & 2) && v->kind == NPU_BUF_CONST && bytes > 0 &&
		bytes <= RES_CONST_MAX && v->node >= 0);
}

/* Constants only elementwise and row kernels read: one a matmul reads is
 * its weight, or its epilogue's bias, loaded beside the weight anyway;
 * a host call receives the constant's buffer, which must be its own. */
static void res_keep_consts(npu_kir *ir)
{
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		for (int i = 0; K->kind != NPU_KK_EW && K->kind != NPU_KK_ROW &&
				i < K->nops; i++) {
			npu_kval *v = &ir->v[K->ops[i].val];
			v = v->root >= 0 ? &ir->v[v->root] : v;
			if (v->kind == NPU_BUF_CONST)
				v->res = 0;
		}
		for (int i = 0; i < K->nhin; i++)
			if (ir->v[K->hin[i]].kind == NPU_BUF_CONST)
				ir->v[K->hin[i]].res = 0;
	}
}

/* The window of the candidates in want: its bytes (0: none, or more
 * than fits, *over set; then no value is resident), -1 (ENOMEM). */
static int64_t res_try(npu_kir *ir, const npu_target *t, int want,
		       uint64_t smax, int *over)
{
	int *in_res = calloc((size_t)ir->nv + 1, sizeof *in_res), n = 0;
	uint64_t bk = npu_target_bank_bytes(t);
	uint64_t peak = 0, cbytes = 0;
	int64_t bytes;
	int nb;

	ir->res_bytes = ir->res_peak = ir->pre_bytes = 0;
	ir->res_banks = ir->res_nvals = 0;
	if (!in_res)
		return -1;
	for (int v = 0; v < ir->nv; v++)
		ir->v[v].res = res_candidate(&ir->v[v], want, smax);
	res_keep_consts(ir);
	/* the constants: a block at the window's start, live throughout */
	for (int v = 0; v < ir->nv; v++)
		if (ir->v[v].res && ir->v[v].kind == NPU_BUF_CONST) {
			ir->v[v].roff = cbytes;
			cbytes += (npu_kval_bytes(&ir->v[v]) + 63) & ~63ull;
		}
	/* the scratch by liveness after it */
	if ((bytes = arena_plan(ir, in_res, &peak, 1)) < 0) {
		free(in_res);
		return -1;
	}
	bytes += (int64_t)cbytes;
	peak += cbytes;
	for (int v = 0; v < ir->nv; v++) {
		if (in_res[v])
			ir->v[v].roff += cbytes;
		ir->v[v].res = bytes > 0 && (in_res[v] || (ir->v[v].res &&
							    ir->v[v].kind == NPU_BUF_CONST));
		n += ir->v[v].res;
	}
	free(in_res);
	if (bytes <= 0)
		return bytes;
	nb = bk ? (int)(((uint64_t)bytes + bk - 1) / bk) : 0;
	if (nb == 0 || nb > t->sram_banks / RES_MAX_BANKS_DIV) {
		for (int v = 0; v < ir->nv; v++)
			ir->v[v].res = 0;
		*over = 1;
		return 0;
	}
	ir->res_bytes = (uint64_t)bytes;
	ir->res_peak = peak;
	ir->res_banks = nb;
	ir->res_nvals = n;
	ir->res_sram = t->sram_bytes - (uint64_t)nb * bk;
	ir->pre_bytes = cbytes;
	return bytes;
}

/* Kernels after the first that read a resident constant.  The preload's
 * barrier holds kernel 0 back by about one DRAM latency; each of these
 * stops waiting about one (rmsnorm alone: 7.4 k -> 7.9 k cycles with
 * its weight preloaded). */
static int const_readers(const npu_kir *ir)
{
	int n = 0;

	for (int k = 1; k < ir->nk; k++) {
		int hit = 0;
		for (int i = 0; i < ir->k[k].nops; i++) {
			const npu_kval *v = &ir->v[ir->k[k].ops[i].val];
			v = v->root >= 0 ? &ir->v[v->root] : v;
			hit |= v->res && v->kind == NPU_BUF_CONST;
		}
		n += hit;
	}
	return n;
}

int npu_link_resident(npu_kir *ir, const npu_target *t, npu_err *e)
{
	uint64_t bk = npu_target_bank_bytes(t);
	uint64_t smax = UINT64_MAX;
	int want = 3, nc = 0, over = 0, big = 0;
	int64_t bytes = 0;

	/* all that fits; else the scratch values of at most half a bank, a
	 * quarter, ... (ResNet-18's later layers); else the constants alone */
	for (;;) {
		over = 0;
		if (!want || (bytes = res_try(ir, t, want, smax, &over)) < 0)
			break;
		big |= over;
		if (bytes > 0 && (!(want & 2) || const_readers(ir) >= 2))
			break;
		if (bytes > 0)		/* too few readers of the constants */
			want &= 1;
		else if (over && (want & 1) && smax > RES_SCRATCH_MIN)
			smax = smax == UINT64_MAX ? bk / 2 : smax / 2;
		else
			want = want == 3 ? 2 : 0;
	}
	if (want && bytes < 0)
		return npu_errf(e, "out of memory");
	if (big && (want & 1))
		npu_kir_decide(ir, 1, "scratch values of more than %llu bytes stay in "
			       "DRAM: all of it would take more than %d SRAM banks",
			       (unsigned long long)smax, t->sram_banks / RES_MAX_BANKS_DIV);
	else if (big)
		npu_kir_decide(ir, 1, "shared scratch stays in DRAM: the window would "
			       "take more than %d SRAM banks",
			       t->sram_banks / RES_MAX_BANKS_DIV);
	if (!want)
		return 0;
	for (int v = 0; v < ir->nv; v++)
		nc += ir->v[v].res && ir->v[v].kind == NPU_BUF_CONST;
	npu_kir_decide(ir, 1, "%d scratch values and %d constants (%lld bytes) "
		       "kept in the top %d SRAM bank%s, not DRAM",
		       ir->res_nvals - nc, nc, (long long)ir->res_bytes,
		       ir->res_banks, ir->res_banks > 1 ? "s" : "");
	return 0;
}

/*
 * A dynamic program's symbolic scratch has no size until the program is
 * loaded, so it cannot be placed here; the loader places it
 * (npu_prog_relayout).  When these values fit the window at their hints,
 * its banks are kept from the tiler and the emitter and the values are
 * flagged: the loader then puts each in the window while it fits, at an
 * address of the DMA aperture (isa/isa.h), else in DRAM, and the same
 * code reaches it in either.  Values a host call touches stay in DRAM.
 */
void npu_link_dynwin(npu_kir *ir, const npu_target *t)
{
	uint64_t bk = npu_target_bank_bytes(t);
	int nb = t->sram_banks / RES_MAX_BANKS_DIV;
	uint64_t bytes = 0;

	ir->win_bytes = 0;
	ir->win_nvals = 0;
	for (int v = 0; v < ir->nv; v++)
		ir->v[v].win = ir->v[v].sym && wants_buf(&ir->v[v]) &&
			       ir->v[v].kind == NPU_BUF_SCRATCH;
	for (int k = 0; k < ir->nk; k++) {
		for (int i = 0; i < ir->k[k].nhin; i++)
			ir->v[ir->k[k].hin[i]].win = 0;
		for (int i = 0; i < ir->k[k].nhout; i++)
			ir->v[ir->k[k].hout[i]].win = 0;
	}
	for (int v = 0; v < ir->nv; v++)
		if (ir->v[v].win) {
			bytes += (npu_kval_bytes(&ir->v[v]) + 63) & ~63ull;
			ir->win_nvals++;
		}
	if (!ir->win_nvals || !bk || nb < 1 || bytes > (uint64_t)nb * bk) {
		for (int v = 0; v < ir->nv; v++)
			ir->v[v].win = 0;
		if (ir->win_nvals)
			npu_kir_decide(ir, 1, "symbolic scratch stays in DRAM: %llu "
				       "bytes at the hints, more than %d SRAM banks",
				       (unsigned long long)bytes, nb);
		ir->win_nvals = 0;
		return;
	}
	ir->win_bytes = bytes;
	ir->res_banks = nb;
	ir->res_sram = t->sram_bytes - (uint64_t)nb * bk;
	npu_kir_decide(ir, 1, "%d symbolic scratch values (%llu bytes at the "
		       "hints) placed at load in the top %d SRAM banks while "
		       "they fit, else in DRAM", ir->win_nvals,
		       (unsigned long long)bytes, nb);
}

/* f's instructions into p's code at *pc, with their nodes. */
static void copy_code(npu_prog *p, const npu_mfunc *f, uint32_t *pc)
{
	for (int i = 0; i < f->n; i++) {
		npu_insn in = npu_minsn_insn(&f->v[i]);
		p->code[*pc] = npu_encode(&in);
		p->insn_node[*pc] = f->v[i].node >= 0 ? (uint32_t)f->v[i].node
						      : NPU_NO_NODE;
		(*pc)++;
	}
}

/* The preload's kernel (npu_emit_preload): the nodes of the constants it
 * copies, each once. */
static int link_preload(const npu_kir *ir, npu_mfunc *f, npu_prog *p,
			uint32_t *pc, uint32_t *nkn, npu_err *e)
{
	npu_kernel *kk;

	if (!f->n)
		return 0;
	if (npu_mfunc_finish(f, *pc, e) < 0)
		return -1;
	kk = &p->kernels[p->nkernels++];
	if (!(kk->name = xstrdup("preload")))
		return npu_errf(e, "out of memory");
	kk->start = *pc;
	kk->end = *pc + (uint32_t)f->n;
	kk->node_first = *nkn;
	for (int i = 0; i < ir->npre; i++) {
		int node = ir->v[ir->pre[i]].node, dup = 0;
		for (uint32_t j = kk->node_first; j < *nkn; j++)
			dup |= p->kernel_nodes[j] == (uint32_t)node;
		if (node >= 0 && !dup)
			p->kernel_nodes[(*nkn)++] = (uint32_t)node;
	}
	kk->node_count = *nkn - kk->node_first;
	copy_code(p, f, pc);
	return 0;
}

/* Kernel K's code f into p at *pc, as kernel `name` with K's nodes. */
static int link_kernel(const npu_kern *K, const char *name, const npu_mfunc *f,
		       npu_prog *p, uint32_t *pc, uint32_t *nkn, npu_err *e)
{
	npu_kernel *kk = &p->kernels[p->nkernels++];

	if (!(kk->name = xstrdup(name)))
		return npu_errf(e, "out of memory");
	kk->start = *pc;
	kk->end = *pc + (uint32_t)f->n;
	kk->node_first = *nkn;
	kk->node_count = (uint32_t)K->nnodes;
	for (int j = 0; j < K->nnodes; j++)
		p->kernel_nodes[(*nkn)++] = (uint32_t)K->nodes[j];
	copy_code(p, f, pc);
	return 0;
}

/* Kernel k's far panel loads (npu_link_finish's far), if any. */
static int link_far(const npu_kir *ir, npu_mfunc *far, int j, npu_prog *p,
		    uint32_t *pc, uint32_t *nkn, npu_err *e)
{
	char name[256];

	if (!far->n)
		return 0;
	if (npu_mfunc_finish(far, *pc, e) < 0)
		return -1;
	snprintf(name, sizeof name, "%s.pf", ir->k[j].name);
	return link_kernel(&ir->k[j], name, far, p, pc, nkn, e);
}

int npu_link_finish(npu_kir *ir, npu_mfunc *fs, npu_mfunc *far,
		    const int *farj, npu_mfunc *pre, npu_prog *p,
		    const npu_target *t, npu_err *e)
{
	const npu_graph *g = ir->g;
	uint32_t total = 1, pc = 0, nkn = 0, nh = 0, nfar = 0;

	total += (uint32_t)pre->n;
	for (int k = 0; k < ir->nk; k++) {
		total += (uint32_t)(fs[k].n + far[k].n);
		nfar += far[k].n > 0;
	}
	p->code = calloc(total, sizeof *p->code);
	p->insn_node = calloc(total, sizeof *p->insn_node);
	p->nodes = calloc((size_t)g->nnodes + 1, sizeof *p->nodes);
	p->kernels = calloc((size_t)ir->nk + nfar + 2, sizeof *p->kernels);
	nkn = (uint32_t)ir->npre;
	for (int k = 0; k < ir->nk; k++)
		nkn += (uint32_t)ir->k[k].nnodes +
		       (far[k].n ? (uint32_t)ir->k[farj[k]].nnodes : 0);
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
	p->nkernels = 0;
	if (link_preload(ir, pre, p, &pc, &nkn, e) < 0)
		return -1;
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		npu_mfunc *f = &fs[k];
		if (link_far(ir, &far[k], farj[k], p, &pc, &nkn, e) < 0 ||
		    npu_mfunc_finish(f, pc, e) < 0)
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
		if (f->n && link_kernel(K, K->name, f, p, &pc, &nkn, e) < 0)
			return -1;
	}
	{
		npu_insn h = { .op = NPU_OP_HALT };
		p->code[pc] = npu_encode(&h);
		p->insn_node[pc] = NPU_NO_NODE;
		pc++;
	}
	p->ncode = pc;
	p->nkernel_nodes = nkn;
	p->nhcalls = nh;
	snprintf(p->target_name, sizeof p->target_name, "%s", t->name);
	p->target_hash = t->hash;
	return npu_prog_check(p, e);
}
