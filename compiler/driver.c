/*
 * driver.c - npucc's pipeline: runs the stages in order (driver.h), with
 * --dump-ir-after, --time-passes, --knob and the compile report.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/driver.h"
#include "compiler/dyn.h"
#include "compiler/ref.h"
#include "isa/afile.h"
#include "isa/isa.h"

static const char *const stage_names[NPU_NSTAGE] = {
#define X(id, name) name,
	NPU_STAGES(X)
#undef X
};

const char *npu_stage_name(int s)
{
	return s >= 0 && s < NPU_NSTAGE ? stage_names[s] : "?";
}

int npu_stage_find(const char *name)
{
	for (int i = 0; i < NPU_NSTAGE; i++)
		if (!strcmp(name, stage_names[i]))
			return i;
	return -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Knobs: KERNEL.NAME=VALUE; names from this table. */
#define KNOBS(X) \
	X(tile_m) X(tile_n) X(tile_k) X(tile_c) X(bufs) X(loop_order)

int npu_cc_parse_knob(npu_ccopts *o, const char *arg, npu_err *e)
{
	const char *eq = strchr(arg, '='), *dot;
	npu_knobset *k;
	char *end;
	int ok = 0;

	if (!eq)
		return npu_errf(e, "--knob '%s': expected KERNEL.NAME=VALUE", arg);
	dot = eq;
	while (dot > arg && dot[-1] != '.')
		dot--;
	if (dot == arg || o->nknobs == NPU_MAX_KNOBS)
		return npu_errf(e, "--knob '%s': expected KERNEL.NAME=VALUE", arg);
	k = &o->knobs[o->nknobs];
	snprintf(k->kernel, sizeof k->kernel, "%.*s", (int)(dot - 1 - arg), arg);
	snprintf(k->name, sizeof k->name, "%.*s", (int)(eq - dot), dot);
#define X(n) ok |= !strcmp(k->name, #n);
	KNOBS(X)
#undef X
	if (!strcmp(k->name, "fuse"))
		ok = 1;
	if (!ok)
		return npu_errf(e, "--knob '%s': unknown knob '%s' (tile_m tile_n tile_k tile_c bufs loop_order fuse)",
				arg, k->name);
	k->value = strtoll(eq + 1, &end, 10);
	if (end == eq + 1 || *end || k->value < 0)
		return npu_errf(e, "--knob '%s': the value must be a non-negative integer", arg);
	o->nknobs++;
	return 0;
}

static void apply_knobs(const npu_ccopts *o, npu_kir *ir)
{
	for (int i = 0; i < o->nknobs; i++) {
		const npu_knobset *s = &o->knobs[i];
		for (int k = 0; k < ir->nk; k++) {
			npu_kern *K = &ir->k[k];
			if (strcmp(s->kernel, "*") && strcmp(s->kernel, K->name))
				continue;
#define X(n) if (!strcmp(s->name, #n)) K->set.n = s->value;
			KNOBS(X)
#undef X
		}
	}
}

/*
 * Frozen tensors: the weights file, plus the constants the passes fold.
 * The passes read them as reference tensors, fusion as raw bytes; both
 * forms are made on demand and kept until npu_cc_free.
 */
typedef struct ccache {
	const npu_stfile *st;
	const npu_graph *g;      /* its mutated inputs are never frozen */
	const npu_passconsts *pc;
	npu_reftensor **rt;      /* each its own allocation: callers keep them */
	char **rname;
	int nrt;
	void **raw;
	int nraw;
} ccache;

/*
 * A weights entry for an input the graph mutates (BatchNorm running
 * statistics in training) is ignored: the program must update it in
 * place, so it stays a run-time input (an inout buffer).
 */
static const npu_tensor *weight(const ccache *c, const char *name)
{
	const npu_graph *g = c->g;

	if (!c->st)
		return NULL;
	if (g && g->has_aot && g->kind != NPU_GK_BACKWARD)
		for (int i = 0; i < g->ninput_mutates; i++) {
			int n;
			if (g->input_mutates_data[i] &&
			    (n = npu_graph_placeholder(g, i)) >= 0 &&
			    !strcmp(g->nodes[n].name, name))
				return NULL;
		}
	return npu_st_find(c->st, name);
}

static const npu_reftensor *frozen_ref(void *ctx, const char *name)
{
	ccache *c = ctx;
	const npu_tensor *t = weight(c, name);
	npu_reftensor **rt, *x;
	char **rn;
	npu_err e;

	if (!t)
		return NULL;
	for (int i = 0; i < c->nrt; i++)
		if (!strcmp(c->rname[i], name))
			return c->rt[i];
	rt = realloc(c->rt, (size_t)(c->nrt + 1) * sizeof *rt);
	if (!rt)
		return NULL;
	c->rt = rt;
	rn = realloc(c->rname, (size_t)(c->nrt + 1) * sizeof *rn);
	if (!rn)
		return NULL;
	c->rname = rn;
	if (!(x = calloc(1, sizeof *x)))
		return NULL;
	if (npu_reftensor_load(x, t->dtype, t->ndim, t->shape, t->data, &e) < 0) {
		free(x);
		return NULL;
	}
	if (!(c->rname[c->nrt] = strdup(name))) {
		npu_reftensor_free(x);
		free(x);
		return NULL;
	}
	c->rt[c->nrt] = x;
	return c->rt[c->nrt++];
}

static const void *frozen(void *ctx, const char *name, int *dtype, int *ndim,
			  int64_t *shape)
{
	ccache *c = ctx;
	const npu_tensor *t = weight(c, name);
	const npu_reftensor *r;
	void **raw;
	size_t n;

	if (t) {
		*dtype = t->dtype;
		*ndim = t->ndim;
		memcpy(shape, t->shape, (size_t)t->ndim * sizeof *shape);
		return t->nbytes ? t->data : (const void *)"";
	}
	if (!c->pc || !(r = npu_passconsts_find(c->pc, name)) || r->ndim < 0)
		return NULL;
	n = (size_t)npu_reftensor_numel(r) * (size_t)npu_dtype_size(r->dtype);
	if (!(raw = realloc(c->raw, (size_t)(c->nraw + 1) * sizeof *raw)))
		return NULL;
	c->raw = raw;
	if (!(c->raw[c->nraw] = malloc(n + 1)))
		return NULL;
	if (r->dtype == NPU_DT_F32) {
		/* the common case (folded fp32 weights, millions of
		 * elements) without the general store's per-element dispatch;
		 * the cast rounds to nearest even as the store does */
		unsigned char *o = c->raw[c->nraw];
		for (int64_t i = 0, ne = npu_reftensor_numel(r); i < ne; i++) {
			float f = (float)r->data[i];
			memcpy(o + 4 * i, &f, 4);
		}
	} else {
		npu_reftensor_store(r, c->raw[c->nraw]);
	}
	*dtype = r->dtype;
	*ndim = r->ndim;
	memcpy(shape, r->shape, (size_t)r->ndim * sizeof *shape);
	return c->raw[c->nraw++];
}

static void ccache_free(ccache *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nrt; i++) {
		npu_reftensor_free(c->rt[i]);
		free(c->rt[i]);
		free(c->rname[i]);
	}
	for (int i = 0; i < c->nraw; i++)
		free(c->raw[i]);
	free(c->rt);
	free(c->rname);
	free(c->raw);
	free(c);
}

static int native(void *ctx, int aop)
{
	(void)ctx;
	return npu_support_kind(aop) != NPU_LK_HOST;
}

static void dump(const npu_ccopts *o, npu_ccresult *r, int stage,
		 npu_mfunc *fs)
{
	FILE *f = o->dumpf ? o->dumpf : stdout;

	if (!(o->dump >> stage & 1))
		return;
	fprintf(f, "; ---- IR after %s ----\n", npu_stage_name(stage));
	switch (stage) {
	case NPU_STAGE_IMPORT:
	case NPU_STAGE_PASSES:
		npu_graph_print(r->g, f);
		break;
	case NPU_STAGE_FUSE:
	case NPU_STAGE_TILE:
		npu_kir_print(&r->ir, f);
		break;
	case NPU_STAGE_EMIT:
	case NPU_STAGE_REGALLOC:
		for (int k = 0; k < r->ir.nk; k++) {
			fprintf(f, "kernel %d %s:\n", k, r->ir.k[k].name);
			npu_mfunc_print(&fs[k], f);
		}
		break;
	default:
		fprintf(f, "program: %u instructions, %u kernels, %u buffers, %u host calls, %llu bytes of DRAM, %llu bytes of constants\n",
			r->prog.ncode, r->prog.nkernels, r->prog.nbufs,
			r->prog.nhcalls, (unsigned long long)r->prog.dram_size,
			(unsigned long long)r->prog.ncdata);
		for (uint32_t i = 0; i < r->prog.nbufs; i++)
			fprintf(f, "  buf %s %s at 0x%llx, %llu bytes\n",
				r->prog.bufs[i].name,
				npu_bufkind_name(r->prog.bufs[i].kind),
				(unsigned long long)r->prog.bufs[i].addr,
				(unsigned long long)r->prog.bufs[i].size);
		break;
	}
}

/* A kernel that runs nothing (a copy fusion dropped: emit_ew emits no
 * transfer and passes on what the kernel before left in SRAM). */
static int kern_idle(const npu_kern *K)
{
	return K->kind == NPU_KK_EW &&
	       (npu_kir_numel(K->ndim, K->shape) == 0 || !K->nops);
}

/* A max pool computed by the convolution before it (npu_pool_fused):
 * it emits nothing, so the convolution loads the next kernel's panel
 * (ResNet-18's stem, layer 1's first convolution's weight). */
static int pool_in(const npu_kir *ir, const npu_target *t, int k)
{
	return k > 0 && ir->k[k].kind == NPU_KK_POOL && npu_pool_fused(ir, t, k - 1);
}

/*
 * An elementwise or row kernel small enough (its operands, double
 * buffered, in the bottom quarter of SRAM) that the convolution before
 * it may load the next matmul's panel past it, into an area at the top
 * that it never reaches: ResNet-18's global average pool, between the
 * last convolution (31 k cycles) and the classifier, whose 2 MB weight
 * it had loaded in 4 k cycles of its own.  (After a matmul, not: a
 * transformer's RMSNorm loads all of the next projection's weight while
 * it computes, where the matmul before would load only a panel.)
 */
static int kern_small(const npu_kir *ir, const npu_target *t, int k)
{
	const npu_kern *K = &ir->k[k];
	uint64_t bytes = 0;

	if ((K->kind != NPU_KK_EW && K->kind != NPU_KK_ROW) || k + 1 >= ir->nk ||
	    ir->k[k + 1].kind != NPU_KK_MM || ir->k[k + 1].cv)
		return 0;
	for (int o = 0; o < K->nops; o++) {
		const npu_kval *v = &ir->v[K->ops[o].val];
		bytes += npu_kval_bytes(v);
	}
	return 2 * bytes < t->sram_bytes / 4;
}

static int reads_over(const npu_kir *ir, int j, int r, int c, uint64_t lo,
		      uint64_t hi);

static void imgho_plan(const npu_kir *ir, const npu_target *t, int k, int j,
		       npu_imgho *h);

/* Does kernel j read or write any value kernel k writes? */
static int kern_touches(const npu_kir *ir, int j, int k)
{
	const npu_kern *J = &ir->k[j], *K = &ir->k[k];

	for (int a = 0; a < K->nops; a++)
		for (int b = 0; K->ops[a].out && b < J->nops; b++) {
			int x = K->ops[a].val, y = J->ops[b].val;
			if ((ir->v[x].root >= 0 ? ir->v[x].root : x) ==
			    (ir->v[y].root >= 0 ? ir->v[y].root : y))
				return 1;
		}
	return 0;
}

/*
 * Convolutions in an order that hands images over in SRAM (npu_imgho,
 * which needs the reader right after the writer): of convolutions A, B,
 * C in a row where C's image is A's output and B is independent of A
 * (neither touches what the other writes), B goes first.  ResNet's
 * downsample sits between a block's first convolution and its second,
 * whose epilogue adds it (fuse.c's conv_cheap_first): layer 2's second
 * convolution 34.9 k -> 31.7 k.
 */
static void order_for_images(npu_kir *ir, const npu_target *t)
{
	for (int k = 0; k + 2 < ir->nk; k++) {
		npu_imgho h;
		npu_kern *A = &ir->k[k], *B = &ir->k[k + 1], *C = &ir->k[k + 2];
		int img = 0;
		if (A->kind != NPU_KK_MM || B->kind != NPU_KK_MM || C->kind != NPU_KK_MM ||
		    !A->cv || !B->cv || !C->cv || kern_touches(ir, k + 1, k) ||
		    kern_touches(ir, k, k + 1))
			continue;
		for (int o = 0; o < A->nops; o++)
			img |= A->ops[o].out && A->ops[o].val == C->ops[C->mm_b].val &&
			       ir->v[A->ops[o].val].kind == NPU_BUF_SCRATCH;
		/* (not when A's own image comes from the kernel before it,
		 * which B would then stand between: layer 3's first
		 * convolution lost 2.7 k where its second gained 1.9 k) */
		if (k > 0)
			imgho_plan(ir, t, k - 1, k, &h);
		if (!img || (k > 0 && h.on))
			continue;
		npu_kir_decide(ir, 1, "kernel %s: moved before %s, whose output %s reads from SRAM",
			       B->name, A->name, C->name);
		npu_kern tmp = *A;
		*A = *B;
		*B = tmp;
		for (int v = 0; v < ir->nv; v++)
			if (ir->v[v].producer == k || ir->v[v].producer == k + 1)
				ir->v[v].producer = ir->v[v].producer == k ? k + 1 : k;
	}
}

/* Does any kernel but k and j read value r, or is it a graph output? */
static int read_elsewhere(const npu_kir *ir, int r, int k, int j)
{
	for (int i = 0; i < ir->nv; i++)
		if ((i == r || ir->v[i].root == r) && ir->v[i].outidx >= 0)
			return 1;
	for (int i = 0; i < ir->nk; i++)
		if (i != k && i != j && reads_over(ir, i, r, j, 0, 0))
			return 1;
	return 0;
}

/*
 * Kernel j's image written into SRAM by kernel k (npu_imgho): j a
 * convolution whose image is the value convolution k computes, whole
 * and contiguous, in j's input type; a plain k only when j is that
 * value's one reader.
 */
static void imgho_plan(const npu_kir *ir, const npu_target *t, int k, int j,
		       npu_imgho *h)
{
	const npu_kern *P = &ir->k[k], *Q = &ir->k[j];
	const npu_kopnd *X;
	const npu_kval *v;
	uint64_t bk = npu_target_bank_bytes(t);
	int out = -1;

	memset(h, 0, sizeof *h);
	/* transposed channels-last to the same, plain to plain, or plain
	 * to transposed channels-last */
	if (P->kind != NPU_KK_MM || Q->kind != NPU_KK_MM || P->mm_batch != 1 ||
	    Q->mm_batch != 1 || bk == 0 ||
	    !((P->cv == 2 && P->cv_hwc && Q->cv == 2 && Q->cv_hwc) ||
	      (P->cv == 1 && !P->mm_glu && P->mm_alo < 0 &&
	       ((Q->cv == 1 && Q->mm_alo < 0) || (Q->cv == 2 && Q->cv_hwc)))))
		return;
	for (int o = 0; o < P->nops; o++)
		if (P->ops[o].out)
			out = out < 0 ? o : -2;
	if (out < 0)
		return;
	X = &Q->ops[Q->mm_b];
	v = &ir->v[P->ops[out].val];
	if (X->val != P->ops[out].val || v->root >= 0 || X->off != 0 ||
	    v->dtype != Q->mm_dtype || Q->cv_ic != P->mm_m ||
	    Q->cv_h != P->cv_oh || Q->cv_w != P->cv_ow)
		return;
	h->hp = Q->cv_h + 2 * Q->cv_ph;
	h->wp = Q->cv_w + 2 * Q->cv_pw;
	h->ic = Q->cv_ic;
	h->ph = Q->cv_ph;
	h->pw = Q->cv_pw;
	h->planes = Q->cv == 1;
	/* (a plain convolution writes the image beside its store: with
	 * the store kept for another reader, the copies made it slower than
	 * the reader got faster, ResNet-18's layer-1 second block by 1.5 k;
	 * with only the reader, the store is dropped) */
	if (P->cv == 1 && read_elsewhere(ir, X->val, k, j))
		return;
	/* (planes: a group of channels an engine, each from a bank of its
	 * own, as emit_mm.c's img_spread lays out an image) */
	h->ng = h->planes && t->dma_engines >= 4 ? 4 : 1;
	h->gstride = bk;
	uint64_t pl = (uint64_t)(h->hp * h->wp * npu_dtype_size(v->dtype));
	uint64_t need = h->planes ? (uint64_t)((h->ic + h->ng - 1) / h->ng) * pl : pl * (uint64_t)h->ic;
	if (need > (h->planes ? bk : NPU_IMGHO_BANKS * bk) || h->ng > NPU_IMGHO_BANKS ||
	    t->sram_banks < 4 + 2 * NPU_IMGHO_BANKS + 8 ||
	    (h->planes && (Q->cv_ic % h->ng || Q->cv_sh != 1 || Q->cv_sw != 1)))
		return;
	h->sram = t->sram_bytes - (4 + (uint64_t)((j & 1) + 1) * NPU_IMGHO_BANKS) * bk;
	h->val = X->val;
	h->on = 1;
}

/* Does kernel j read, or view, value r's DRAM?  Through an operand of r
 * or a view of it, or (a kernel after c) of any value over r's bytes
 * written no later than c: a value laid out over r's bytes by a copy
 * that did nothing. */
static int reads_over(const npu_kir *ir, int j, int r, int c, uint64_t lo,
		      uint64_t hi)
{
	const npu_kern *K = &ir->k[j];
	int n = K->kind == NPU_KK_HOST ? K->nhin + K->nhout : K->nops;

	for (int i = 0; i < n; i++) {
		int v = K->kind != NPU_KK_HOST ? K->ops[i].val
			: i < K->nhin ? K->hin[i] : K->hout[i - K->nhin];
		int rv = ir->v[v].root >= 0 ? ir->v[v].root : v;
		const npu_kval *R = &ir->v[rv];
		uint64_t a = R->daddr, b = a + npu_kval_bytes(R);

		if (rv == r)
			return 1;
		if (j > c && a < hi && lo < b && R->producer <= c &&
		    (K->kind == NPU_KK_HOST || !K->ops[i].out))
			return 1;
	}
	return 0;
}

/*
 * Kernel p's store of its hand-off h is dead when the kernel after it, c,
 * read the value from SRAM and read none of its DRAM (watch), and no other
 * kernel, host call or graph output reads it: a scratch value whose only
 * reader took it from the slot p left it in (an RMSNorm read in place by
 * the projection after it).  Its transfers become nops; the engines'
 * signals after them stay, so the kernels' order is kept.
 */
static void drop_dead_store(const npu_kir *ir, npu_mfunc *fs, int c,
			    const npu_handoff *h, const npu_dramwatch *w)
{
	int p = h->kp, r = h->val;

	if (w->hit || h->i1 <= h->i0 || p < 0 || p >= c)
		return;
	r = ir->v[r].root >= 0 ? ir->v[r].root : r;
	if (ir->v[r].kind != NPU_BUF_SCRATCH || ir->v[r].producer != p ||
	    (ir->k[c].kind != NPU_KK_EW && ir->k[c].kind != NPU_KK_ROW &&
	     ir->k[c].kind != NPU_KK_MM))
		return;
	for (int i = 0; i < ir->nv; i++)
		if ((i == r || ir->v[i].root == r) && ir->v[i].outidx >= 0)
			return;
	for (int j = 0; j < ir->nk; j++)
		if (j != p && j != c && reads_over(ir, j, r, c, w->lo, w->hi))
			return;
	for (int i = h->i0; i < h->i1 && i < fs[p].n; i++) {
		npu_minsn *m = &fs[p].v[i];
		if (m->op == NPU_OP_DST || m->op == NPU_OP_DSTC) {
			m->op = NPU_OP_NOP;
			m->f[0] = m->f[1] = m->f[2] = 0;
			m->imm = 0;
		}
	}
}

/* The emission's state carried from one kernel to the next. */
typedef struct emitstate {
	/* the plan for the next kernel that runs (copies that do nothing
	 * are passed over), made and issued while kernel k is emitted, in
	 * the area that k's own plan does not use; pl[cur] is the plan of
	 * kernel pk */
	npu_pfplan pl[2];
	int cur, pk;
	/* what kernel k - 1 left in SRAM, ho[k & 1] (not in dynamic
	 * programs, whose DRAM addresses move at run time) */
	npu_handoff ho[2];
	/* the image kernel k writes for kernel k + 1 (im[k & 1]) */
	npu_imgho im[2];
} emitstate;

/*
 * A matmul's first panel loaded further ahead than by the kernel before
 * it (far_target): code of its own (the program's kernel "<matmul>.pf",
 * so that the trace charges the load to the matmul's nodes) loads the
 * panel of matmul j before kernel k, over the last engine alone, which
 * every kernel from k until j leaves to it (they see the target with
 * one engine fewer), and signals semaphore SEM_LD + that engine, which
 * none of them uses then.  That they do not, and that their slots stay
 * below the panel's area, is known once they are emitted (far_broken);
 * if one does not, the emission goes back to kernel k, in the state
 * saved before it, and on without this panel.
 */
typedef struct farpf {
	npu_pfplan p;
	int k, j;                /* the kernel that loads it, its matmul;
				    j < 0: none in flight */
	int block;               /* none loaded by kernels up to this one */
	npu_target view;         /* the target without the last engine */
	emitstate saved;         /* the state before kernel k */
	npu_minsn *prev;         /* and kernel k - 1's code (drop_dead_store) */
	int nprev;
} farpf;

/*
 * May a far panel's load run through kernel k?  An elementwise, row or
 * plain matmul kernel whose values are all in the SRAM-resident window
 * (but a matmul's frozen weight, which its own panels bring): its
 * engines copy SRAM to SRAM, a little, and it does not miss the last
 * one much.  (With llama_tiny's values in DRAM the attention's kernels
 * load and store on every engine: 67.8 k -> 71.6 k cycles.)
 */
static int far_over(const npu_kir *ir, int k)
{
	const npu_kern *K = &ir->k[k];

	if (kern_idle(K))
		return 1;
	if (K->kind != NPU_KK_EW && K->kind != NPU_KK_ROW &&
	    (K->kind != NPU_KK_MM || K->cv))
		return 0;
	for (int o = 0; o < K->nops; o++) {
		const npu_kval *v = &ir->v[K->ops[o].val];
		const npu_kval *R = v->root >= 0 ? &ir->v[v->root] : v;
		if (!R->res && !(K->kind == NPU_KK_MM && o == K->mm_b &&
				 R->kind == NPU_BUF_CONST))
			return 0;
	}
	return 1;
}

/*
 * The matmul whose panel kernel k loads ahead, or -1: the second matmul
 * after k whose first panel can be loaded early, when the kernel before
 * it is an elementwise or row kernel and every kernel from k to it is an
 * elementwise, row or plain matmul kernel (a transformer's attention,
 * then the o projection, whose panel its kernel before loads, then the
 * RMSNorm and the MLP's gate and up projections: the RMSNorm's work is
 * 1 k cycles, their panel 0.8 MB, and the attention's engines idle), at
 * most FAR_KERNELS of them that do something, which run with an engine
 * fewer (a transformer's attention is seven; mamba2_tiny's first panel
 * after 46 was 2.7% slower).  *first: the first such matmul.
 */
#define FAR_KERNELS 12

/* Is kernel i a matmul whose first panel can be loaded early? */
static int pf_plannable(const npu_emitctx *c, int i)
{
	npu_pfplan p;

	if (c->ir->k[i].kind != NPU_KK_MM)
		return 0;
	npu_mm_pf_plan(c, i, i - 1, 1, &p);
	return p.on && p.plain;
}

static int far_target(const npu_emitctx *c, int k, int *first)
{
	const npu_kir *ir = c->ir;
	int busy = 1, b;

	*first = -1;
	if (c->t->dma_engines < 4 || kern_idle(&ir->k[k]) || !far_over(ir, k))
		return -1;
	for (int i = k + 1; i < ir->nk && far_over(ir, i) && busy <= FAR_KERNELS; i++) {
		if (pf_plannable(c, i)) {
			if (*first < 0) {
				*first = i;
			} else {
				for (b = i - 1; b > k && kern_idle(&ir->k[b]); b--)
					;
				return ir->k[b].kind == NPU_KK_EW ||
				       ir->k[b].kind == NPU_KK_ROW ? i : -1;
			}
		}
		busy += !kern_idle(&ir->k[i]);
	}
	return -1;
}

/* Plans a far panel to load before kernel k (none: f->j < 0), its code
 * into *code, and saves the state to go back to; -1 when out of memory. */
static int far_begin(npu_emitctx *c, const emitstate *st, npu_mfunc *fs,
		     int k, farpf *f, npu_mfunc *code)
{
	int t1 = -1, j, avoid;

	f->j = -1;
	if (k <= f->block || (j = far_target(c, k, &t1)) < 0)
		return 0;
	/* the other area than the first matmul's, whose kernel before
	 * plans it into area t1 & 1, or than the panel already planned for
	 * a kernel still to come: one planned while another far panel was
	 * in flight took the other area than that one's (plan_for), and
	 * this panel's load would overwrite it before its matmul ran
	 * (ModernBERT's MLP on PyTorch 2.11: a race the simulator's check
	 * reports, wrong values without it) */
	avoid = t1 & 1;
	if (st->pk >= k && st->pl[st->cur].on)
		avoid = st->pl[st->cur].area;
	npu_mm_pf_plan(c, j, k, !avoid, &f->p);
	if (!f->p.on)
		return 0;
	free(f->prev);
	f->prev = NULL;
	f->nprev = k ? fs[k - 1].n : 0;
	if (f->nprev && !(f->prev = malloc((size_t)f->nprev * sizeof *f->prev)))
		return -1;
	if (f->nprev)
		memcpy(f->prev, fs[k - 1].v, (size_t)f->nprev * sizeof *f->prev);
	f->p.far = 1;
	f->p.fq = f->view.dma_engines;
	f->k = k;
	f->j = j;
	f->saved = *st;
	npu_emit_far(c, j, &f->p, code);
	return code->oom ? -1 : 0;
}

/* Does f's code use DMA engine q or semaphore s? */
static int uses_engine(const npu_mfunc *f, int q, int s)
{
	for (int i = 0; i < f->n; i++) {
		const npu_minsn *m = &f->v[i];
		int uc = npu_optab[m->op & 0xff].uclass;
		if ((uc == NPU_UC_DMA && m->f[0] == q) ||
		    (uc == NPU_UC_SYNC && (m->f[0] == NPU_UNIT_DMA0 + q || m->f[1] == s)))
			return 1;
	}
	return 0;
}

/* Has kernel i, from the one f's loads run before on, broken f's plan
 * (its slots over the panel's area, the panel it loads for the kernel
 * after it into that area, or its code on the panel's engine or
 * semaphore)? */
static int far_broken(const farpf *f, const npu_mfunc *fs, int i,
		      uint64_t slots_end, const npu_pfplan *next)
{
	const npu_pfplan *p = &f->p;

	return slots_end > p->local || (next && next->area == p->area) ||
	       uses_engine(&fs[i], p->fq, npu_pf_sem(p));
}

/* Goes back to the state before f's loads, kernels k .. i and the loads
 * forgotten; the kernel to emit next. */
static int far_undo(farpf *f, emitstate *st, npu_mfunc *fs, npu_mfunc *far,
		    int i)
{
	npu_mfunc_free(&far[f->k]);
	for (int x = f->k; x <= i; x++)
		npu_mfunc_free(&fs[x]);
	if (f->nprev)
		memcpy(fs[f->k - 1].v, f->prev, (size_t)f->nprev * sizeof *f->prev);
	*st = f->saved;
	f->block = i;
	f->j = -1;
	return f->k;
}

/* Do kernels [i, j) only copy (every expression a load or a store)? */
static int kerns_copy(const npu_kir *ir, int i, int j)
{
	for (; i < j; i++)
		for (int x = 0; x < ir->k[i].nx; x++)
			if (ir->k[i].x[x].op != NPU_X_LOAD && ir->k[i].x[x].op != NPU_X_STORE)
				return 0;
	return 1;
}

/*
 * The next kernel that runs after k whose panel k loads (copies that do
 * nothing and fused pools passed over), from j on; with `past`, after
 * a matmul, past a small ew or row kernel too (kern_small), the matmul
 * after it.  plan_next passes it after a convolution always, after
 * another matmul of a static program when the panel is at least
 * SKIP_PANEL bytes or the kernel passed over only copies.  (llama_tiny's down projection, whose engines are idle by its
 * end, loads the next layer's q/k/v panel, 0.5 MB, that the RMSNorm
 * before it had loaded in 1.4 k cycles of its 1 k of work: 48.8 k ->
 * 47.7 k cycles; a copy kernel, bert's permute before its o projection,
 * no longer waits 0.4 k cycles for a 16 KiB panel: 49 fixtures 0.5-4.9%
 * faster.  A small panel past another kernel made the matmul's end wait
 * for it: mixer_tiny +0.6%, gemma2 +0.3%.)
 */
#define SKIP_PANEL (128 * 1024)

static int next_run(const npu_ccresult *r, int k, int j, int past)
{
	const npu_kir *ir = &r->ir;

	while (j < ir->nk && (kern_idle(&ir->k[j]) || pool_in(ir, &r->tc, j) ||
			      (past && ir->k[k].kind == NPU_KK_MM &&
			       kern_small(ir, &r->tc, j))))
		j++;
	return j;
}

/* Kernel k's plan for kernel j into st->pl[cur ^ 1]; its bytes (0: none). */
static uint64_t plan_for(npu_emitctx *c, emitstate *st, int k, int j,
			 int farj)
{
	npu_pfplan *next = &st->pl[st->cur ^ 1];

	memset(next, 0, sizeof *next);
	if (j < c->ir->nk && !(st->pk == j && st->pl[st->cur].on) && j != farj)
		npu_mm_pf_plan(c, j, k, c->pf ? !c->pf->area : j & 1, next);
	return next->on ? (uint64_t)(next->rows * next->cols * next->esz) : 0;
}

/* Kernel k's plan for the next kernel that runs, into st->pl[cur ^ 1]:
 * c->pfnext, and that kernel (or -1). */
static int plan_next(const npu_ccresult *r, npu_emitctx *c, emitstate *st,
		     int k, int farj)
{
	const npu_kir *ir = &r->ir;
	const npu_kern *K = &ir->k[k];
	uint64_t bytes;
	int j0, j;

	c->pfnext = NULL;
	if (kern_idle(K) || pool_in(ir, &r->tc, k))
		return -1;
	j0 = next_run(r, k, k + 1, 0);
	j = next_run(r, k, j0, K->cv || !r->dyn);
	bytes = plan_for(c, st, k, j, farj);
	if (j != j0 && !K->cv && bytes < SKIP_PANEL && !kerns_copy(ir, j0, j)) {
		j = j0;
		plan_for(c, st, k, j, farj);
	}
	c->pfnext = st->pl[st->cur ^ 1].on ? &st->pl[st->cur ^ 1] : NULL;
	return c->pfnext ? j : -1;
}

/* What crosses into and out of kernel k: its hand-off in and out, its
 * image in and out, and the DRAM range to watch (w) for drop_dead_store. */
static void set_crossings(const npu_ccresult *r, npu_emitctx *c, emitstate *st,
			  int k, npu_dramwatch *w)
{
	const npu_kir *ir = &r->ir;

	c->hoin = k && st->ho[k & 1].on && !r->dyn ? &st->ho[k & 1] : NULL;
	c->hoout = &st->ho[(k + 1) & 1];
	memset(c->hoout, 0, sizeof *c->hoout);
	c->imgin = k && st->im[(k - 1) & 1].on && st->im[(k - 1) & 1].written &&
		   !r->dyn ? &st->im[(k - 1) & 1] : NULL;
	c->imgout = NULL;
	if (k + 1 < ir->nk && !r->dyn) {
		imgho_plan(ir, &r->tc, k, k + 1, &st->im[k & 1]);
		c->imgout = st->im[k & 1].on ? &st->im[k & 1] : NULL;
	}
	memset(w, 0, sizeof *w);
	c->watch = NULL;
	if (c->hoin && c->hoin->i1 > c->hoin->i0) {
		const npu_kval *v = &ir->v[c->hoin->val];
		const npu_kval *R = v->root >= 0 ? &ir->v[v->root] : v;
		w->lo = R->daddr;
		w->hi = w->lo + npu_kval_bytes(R);
		c->watch = w;
	}
}

/* Every kernel's code, on virtual registers, the far panels' loads
 * before kernel k (far[k], for matmul farj[k]) and the preload's. */
static int emit_kernels(npu_ccresult *r, npu_mfunc *fs, npu_mfunc *far,
			int *farj, npu_mfunc *pre, const int *hcall, npu_err *e)
{
	npu_emitctx c = { .ir = &r->ir, .p = &r->prog, .t = &r->tc,
			  .hcall = (int *)hcall };
	emitstate st = { .pk = -1 };
	farpf fp = { .j = -1, .block = -1, .view = r->tc };
	int rc = -1;

	fp.view.dma_engines--;
	if (r->ir.npre)
		npu_emit_preload(&c, pre);
	for (int k = 0; k < r->ir.nk; k++) {
		npu_dramwatch w;
		/* (a kernel that does nothing takes none) */
		uint64_t slots_end = kern_idle(&r->ir.k[k]) ? 0 : UINT64_MAX;
		int j;

		c.t = &r->tc;
		c.pf = st.pk == k && st.pl[st.cur].on ? &st.pl[st.cur] : NULL;
		c.slots_end = &slots_end;
		farj[k] = -1;
		if (fp.j < 0 && !r->dyn && !c.pf) {
			if (far_begin(&c, &st, fs, k, &fp, &far[k]) < 0) {
				npu_errf(e, "out of memory");
				goto out;
			}
			farj[k] = fp.j;
		}
		if (fp.j >= 0 && k < fp.j)
			c.t = &fp.view;
		if (k == fp.j)
			c.pf = &fp.p;
		set_crossings(r, &c, &st, k, &w);
		j = plan_next(r, &c, &st, k, fp.j);
		if (npu_dyn_emit(r->dyn, &c, k, &fs[k], e) < 0)
			goto out;
		if (c.watch)
			drop_dead_store(&r->ir, fs, k, c.hoin, &w);
		npu_emit_seal(&r->tc, &fs[k]);
		if (fs[k].oom) {
			npu_errf(e, "out of memory");
			goto out;
		}
		if (fp.j > k && far_broken(&fp, fs, k, slots_end, c.pfnext)) {
			farj[fp.k] = -1;
			k = far_undo(&fp, &st, fs, far, k) - 1;
			continue;
		}
		if (k == fp.j)
			fp.j = -1;
		if (j >= 0) {
			st.cur ^= 1;
			st.pk = j;
		}
	}
	rc = 0;
out:
	free(fp.prev);
	return rc;
}

/* The resident window (npu_link_resident); the compile view r->tc of the
 * target. */
static int plan_resident(const npu_ccopts *o, npu_ccresult *r, npu_err *e)
{
	r->tc = r->t;
	if (o->noresident)
		return 0;
	if (r->dyn)
		npu_link_dynwin(&r->ir, &r->t);
	else if (npu_link_resident(&r->ir, &r->t, e) < 0)
		return -1;
	if (r->ir.res_banks) {
		uint64_t bk = npu_target_bank_bytes(&r->t);
		r->tc.sram_banks -= r->ir.res_banks;
		r->tc.sram_bytes -= (uint64_t)r->ir.res_banks * bk;
	}
	return 0;
}

/* One fusion and tiling of r->g (to_host: nodes lowered as host calls
 * whatever their op, fuse.c); -2 when the tiler failed. */
static int fuse_tile(const npu_ccopts *o, npu_ccresult *r, char *const *to_host,
		     npu_err *e)
{
	npu_fuse_env env = { .frozen = frozen, .ctx = r->cache, .to_host = to_host };
	double t0 = now();

	r->ir.nofuse = o->nofuse;
	r->ir.fp32prec = o->fp32prec;
	r->ir.t = &r->t;
	if (npu_fuse(&r->ir, r->g, &env, e) < 0)
		return -1;
	/* (before the mutations are linked: whether an output may be
	 * stored in place into its input depends on the kernels' order) */
	if (!r->dyn)
		order_for_images(&r->ir, &r->t);
	if (npu_link_mutations(&r->ir, e) < 0 ||
	    npu_dyn_mark(r->dyn, &r->ir, e) < 0 ||
	    plan_resident(o, r, e) < 0)
		return -1;
	r->ir.t = &r->tc;
	r->seconds[NPU_STAGE_FUSE] = now() - t0;
	dump(o, r, NPU_STAGE_FUSE, NULL);
	t0 = now();
	apply_knobs(o, &r->ir);
	if (npu_tile(&r->ir, &r->tc, e) < 0)
		return -2;
	r->seconds[NPU_STAGE_TILE] = now() - t0;
	dump(o, r, NPU_STAGE_TILE, NULL);
	return 0;
}

/*
 * Fuse and tile.  A matmul or convolution keeps all of K in SRAM (and a
 * convolution its padded image): where even its smallest blocks do not
 * fit the target's (ResNet-18's third stage on npu-edge's 1 MiB), its
 * node becomes a host call, with the tiler's numbers as the reason, and
 * the graph is fused again, rather than the whole graph refused.  Not
 * in a dynamic program, whose tiles are sized at its hints.
 */
/* A host call of an op whose decomposition declined (decomp's note for
 * the node, "kept NAME (why)") says why after fuse.c's "no native
 * lowering": a grouped matmul cheaper on the host, a scatter of too many
 * indices a row. */
static int host_why(npu_ccresult *r, npu_err *e)
{
	for (int k = 0; k < r->ir.nk; k++) {
		npu_kern *K = &r->ir.k[k];
		const char *nm, *w;
		size_t n;
		char *s;

		if (K->kind != NPU_KK_HOST || K->hnode < 0 || !K->hreason ||
		    strncmp(K->hreason, "no native lowering", 18))
			continue;
		nm = r->g->nodes[K->hnode].name;
		n = strlen(nm);
		for (int i = 0; i < r->plog.n; i++) {
			w = r->plog.v[i].what;
			if (r->plog.v[i].pass != NPU_PASS_DECOMP || strcmp(r->plog.v[i].nodes, nm) ||
			    strncmp(w, "kept ", 5) || strlen(w) < 8 + n)
				continue;
			w += 7 + n;     /* past "kept NAME (" */
			if (!(s = malloc(strlen(K->hreason) + strlen(w) + 40)))
				return npu_errf(e, "out of memory");
			/* (w ends with the note's closing parenthesis) */
			sprintf(s, "%s; its decomposition declined: %.*s", K->hreason,
				(int)strlen(w) - 1, w);
			free(K->hreason);
			K->hreason = s;
			break;
		}
	}
	return 0;
}

static int lower(const npu_ccopts *o, npu_ccresult *r, npu_err *e)
{
	char **why = NULL;
	int rc, k, node;

	for (int tries = 0;; tries++) {
		static const npu_knobs none;
		/* (a knob's block that does not fit stays an error) */
		if ((rc = fuse_tile(o, r, why, e)) != -2 || r->dyn || tries == 64 ||
		    (k = r->ir.tile_failed) < 0 || r->ir.k[k].kind != NPU_KK_MM ||
		    r->ir.k[k].nnodes < 1 ||
		    memcmp(&r->ir.k[k].set, &none, sizeof none))
			break;
		node = r->ir.k[k].nodes[0];
		if (!why && !(why = calloc((size_t)r->g->nnodes, sizeof *why))) {
			rc = npu_errf(e, "out of memory");
			break;
		}
		if (why[node])
			break;
		if (!(why[node] = malloc(strlen(e->msg) + 64))) {
			rc = npu_errf(e, "out of memory");
			break;
		}
		sprintf(why[node], "its kernel does not fit the target's SRAM (%s)", e->msg);
		npu_kir_free(&r->ir);
	}
	for (int i = 0; why && i < r->g->nnodes; i++)
		free(why[i]);
	free(why);
	return rc < 0 ? -1 : 0;
}

/*
 * The whole pipeline: import, passes, fuse (and link the mutations and
 * the resident window), tile, emit, regalloc, link.
 */
int npu_cc_compile(const npu_ccopts *o, npu_ccresult *r, npu_err *e)
{
	char tpath[4096];
	npu_mfunc *fs = NULL, pre = { 0 };
	int rc = -1, *hcall = NULL, *farj = NULL, nh = 0;
	double t0;

	/* import */
	t0 = now();
	if (npu_graph_read(&r->g, o->graph, e) < 0)
		return -1;
	if (o->weights && npu_st_read(&r->weights, o->weights, e) < 0)
		return -1;
	if (npu_target_resolve(o->target ? o->target : "npu-base", tpath,
			       sizeof tpath, e) < 0 ||
	    npu_target_load(&r->t, tpath, e) < 0)
		return -1;
	if (o->specialize ? npu_dyn_freeze(r->g, o->specialize, e) < 0
			  : npu_dyn_specialize(r->g, o->dyn_hint, o->dyn_max,
					       &r->dyn, e) < 0)
		return -1;
	r->seconds[NPU_STAGE_IMPORT] = now() - t0;
	dump(o, r, NPU_STAGE_IMPORT, NULL);
	/* passes */
	t0 = now();
	if (!(r->cache = calloc(1, sizeof(ccache))))
		return npu_errf(e, "out of memory");
	((ccache *)r->cache)->st = o->weights ? &r->weights : NULL;
	((ccache *)r->cache)->pc = &r->consts;
	((ccache *)r->cache)->g = r->g;
	if (!o->nopasses) {
		npu_passopts po = { 0 };
		if (o->weights) {
			po.frozen = frozen_ref;
			po.frozen_raw = frozen;
			po.ctx = r->cache;
		}
		po.consts = &r->consts;
		po.native = native;
		po.target = &r->t;
		if (npu_passes_run(r->g, &po, &r->plog, e) < 0)
			return -1;
	}
	r->seconds[NPU_STAGE_PASSES] = now() - t0;
	dump(o, r, NPU_STAGE_PASSES, NULL);
	if (lower(o, r, e) < 0 || host_why(r, e) < 0)
		return -1;
	/* emit */
	t0 = now();
	if (npu_link_layout(&r->ir, &r->prog, e) < 0 ||
	    npu_dyn_plan(r->dyn, &r->ir, &r->prog, &r->tc, e) < 0)
		return -1;
	if (r->ir.win_nvals) {
		r->prog.win_lo = r->ir.res_sram;
		r->prog.win_hi = r->t.sram_bytes;
	}
	/* fs[nk + k]: the far panel loads before kernel k (emit_kernels) */
	fs = calloc(2 * (size_t)r->ir.nk + 1, sizeof *fs);
	hcall = calloc((size_t)r->ir.nk + 1, sizeof *hcall);
	farj = calloc((size_t)r->ir.nk + 1, sizeof *farj);
	if (!fs || !hcall || !farj) {
		npu_errf(e, "out of memory");
		goto out;
	}
	for (int k = 0; k < r->ir.nk; k++)
		hcall[k] = r->ir.k[k].kind == NPU_KK_HOST ? nh++ : -1;
	if (emit_kernels(r, fs, fs + r->ir.nk, farj, &pre, hcall, e) < 0)
		goto out;
	r->seconds[NPU_STAGE_EMIT] = now() - t0;
	dump(o, r, NPU_STAGE_EMIT, fs);
	/* regalloc */
	t0 = now();
	{
		npu_ra_opts ra = { .nxr = o->nxr ? o->nxr : 28,
				   .nvr = o->nvr ? o->nvr : 29,
				   .spill_base = r->tc.sram_bytes - NPU_SPILL_BYTES,
				   /* the top of the spill area holds the
				    * bound sizes of a dynamic program */
				   .spill_bytes = NPU_SPILL_BYTES -
						  (r->dyn ? NPU_DYN_TAB_BYTES : 0),
				   .vlen = r->t.vlen };
		for (int k = 0; k < 2 * r->ir.nk; k++) {
			if (npu_mfunc_dce(&fs[k]) < 0) {
				npu_errf(e, "out of memory");
				goto out;
			}
			if ((k < r->ir.nk || fs[k].n) && npu_regalloc(&fs[k], &ra, e) < 0) {
				npu_err_prefix(e, "kernel %s%s", r->ir.k[k % r->ir.nk].name,
					       k < r->ir.nk ? "" : " (far panel before it)");
				goto out;
			}
			r->spills += fs[k].spills;
		}
		if (npu_mfunc_dce(&pre) < 0) {
			npu_errf(e, "out of memory");
			goto out;
		}
		if (pre.n && npu_regalloc(&pre, &ra, e) < 0) {
			npu_err_prefix(e, "kernel preload");
			goto out;
		}
	}
	r->seconds[NPU_STAGE_REGALLOC] = now() - t0;
	dump(o, r, NPU_STAGE_REGALLOC, fs);
	/* link */
	t0 = now();
	if (npu_link_finish(&r->ir, fs, fs + r->ir.nk, farj, &pre,
			    &r->prog, &r->t, e) < 0)
		goto out;
	r->seconds[NPU_STAGE_LINK] = now() - t0;
	dump(o, r, NPU_STAGE_LINK, fs);
	if (o->out && npu_prog_write(&r->prog, o->out, e) < 0)
		goto out;
	if (o->time_passes) {
		double tot = 0;
		fprintf(stderr, "%-10s %10s\n", "stage", "seconds");
		for (int s = 0; s < NPU_NSTAGE; s++) {
			fprintf(stderr, "%-10s %10.6f\n", npu_stage_name(s), r->seconds[s]);
			tot += r->seconds[s];
		}
		fprintf(stderr, "%-10s %10.6f\n", "total", tot);
	}
	if (o->report && npu_cc_report_json(r, o->report, e) < 0)
		goto out;
	rc = 0;
out:
	if (fs)
		for (int k = 0; k < 2 * r->ir.nk; k++)
			npu_mfunc_free(&fs[k]);
	npu_mfunc_free(&pre);
	free(fs);
	free(hcall);
	free(farj);
	return rc;
}

void npu_cc_free(npu_ccresult *r)
{
	npu_prog_free(&r->prog);
	npu_kir_free(&r->ir);
	npu_graph_free(r->g);
	npu_st_free(&r->weights);
	npu_passconsts_free(&r->consts);
	npu_passlog_free(&r->plog);
	ccache_free(r->cache);
	npu_dyn_free(r->dyn);
	memset(r, 0, sizeof *r);
}

/* ----------------------------------------------------------------- */
/* The report */

/*
 * What happened to each op of the graph, for both forms of the report:
 * lowered natively (in a kernel of the NPU), decomposed by the passes
 * (into the nodes whose provenance names it), fused (kernels of several
 * nodes), or sent to the host (node, reason, bytes each way).
 */

/* Whether the comma-separated list has name in it. */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *q = strchr(p, ',');
		size_t len = q ? (size_t)(q - p) : strlen(p);
		while (len && *p == ' ') {
			p++;
			len--;
		}
		if (len == n && !strncmp(p, name, n))
			return 1;
		p = q ? q + 1 : NULL;
	}
	return 0;
}

/* The node a decomposition entry names, or NULL for other entries. */
static const char *decomposed_node(const npu_passentry *en)
{
	return en->pass == NPU_PASS_DECOMP && !strncmp(en->what, "decomposed ", 11)
	       ? en->nodes : NULL;
}

/* Bytes a host call reads (in) and writes (out). */
static void host_bytes(const npu_kir *ir, const npu_kern *K, uint64_t *in,
		       uint64_t *out)
{
	*in = *out = 0;
	for (int i = 0; i < K->nhin; i++)
		*in += npu_kval_bytes(&ir->v[K->hin[i]]);
	for (int i = 0; i < K->nhout; i++)
		*out += npu_kval_bytes(&ir->v[K->hout[i]]);
}

typedef struct rsum {
	int native, decomposed, fused, host;
	uint64_t host_bytes;
} rsum;

static rsum summarize(const npu_ccresult *r)
{
	const npu_kir *ir = &r->ir;
	rsum t = { 0 };

	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		if (K->kind == NPU_KK_HOST) {
			uint64_t a, b;
			host_bytes(ir, K, &a, &b);
			t.host++;
			t.host_bytes += a + b;
			continue;
		}
		t.native += K->nnodes;
		t.fused += K->nnodes > 1;
	}
	for (int i = 0; i < r->plog.n; i++)
		t.decomposed += decomposed_node(&r->plog.v[i]) != NULL;
	return t;
}

/* Text: the summary, then each decomposition with what it became. */
static void report_ops_text(const npu_ccresult *r, FILE *f)
{
	const npu_graph *g = r->g;
	rsum t = summarize(r);

	fprintf(f, "graph %s (%s): %d ops lowered natively, %d decomposed, %d fused kernels, %d host calls (%llu bytes across the boundary)\n",
		g->name ? g->name : g->file,
		g->kind == NPU_GK_BACKWARD ? "backward" : g->kind == NPU_GK_FORWARD
		? "forward" : g->kind == NPU_GK_DYNAMO ? "dynamo" : "inference",
		t.native, t.decomposed, t.fused, t.host,
		(unsigned long long)t.host_bytes);
	for (int i = 0; i < r->plog.n; i++) {
		const char *d = decomposed_node(&r->plog.v[i]);
		int first = 1;
		if (!d)
			continue;
		fprintf(f, "decomposed: %s into", d);
		for (int j = 0; j < g->nnodes; j++) {
			const char *o = npu_passlog_origins(&r->plog, g->nodes[j].name);
			if (g->nodes[j].op != NPU_GOP_CALL_FUNCTION || !in_list(o, d))
				continue;
			fprintf(f, "%s %s (%s)", first ? "" : ",", g->nodes[j].name,
				g->nodes[j].target);
			first = 0;
		}
		fprintf(f, "%s\n", first ? " nothing (no node left)" : "");
	}
}

void npu_cc_report(const npu_ccresult *r, FILE *f)
{
	const npu_kir *ir = &r->ir;
	int native = 0, host = 0;

	report_ops_text(r, f);
	if (r->plog.n) {
		fprintf(f, "normalization passes:\n");
		npu_passlog_print(&r->plog, f, 0);
	}
	npu_dyn_report(r->dyn, ir, f);
	fprintf(f, "kernels: %d\n", ir->nk);
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		fprintf(f, "  %-24s %-4s", K->name, npu_kkind_name(K->kind));
		for (int j = 0; j < K->nnodes; j++)
			fprintf(f, " %s", ir->g->nodes[K->nodes[j]].name);
		if (K->kind == NPU_KK_MM)
			fprintf(f, "  [%s x%d]", npu_dtype_name(K->mm_dtype), K->mm_passes);
		fprintf(f, "  (model %.0f cycles)\n", K->cost);
		if (K->kind == NPU_KK_HOST)
			host++;
		else
			native += K->nnodes;
	}
	fprintf(f, "nodes lowered natively: %d; host calls: %d\n", native, host);
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		uint64_t a, b;
		if (K->kind != NPU_KK_HOST)
			continue;
		host_bytes(ir, K, &a, &b);
		fprintf(f, "host: %s (%s): %s; %llu bytes across the boundary (%llu in, %llu out)\n",
			ir->g->nodes[K->hnode].name, ir->g->nodes[K->hnode].target,
			K->hreason, (unsigned long long)(a + b),
			(unsigned long long)a, (unsigned long long)b);
	}
	for (int i = 0; i < ir->nd; i++)
		fprintf(f, "%s: %s\n", ir->d[i].fused ? "fused" : "not fused",
			ir->d[i].what);
	fprintf(f, "register spills: %d\n", r->spills);
	fprintf(f, "DRAM scratch arena: %llu bytes (largest live set %llu bytes)\n",
		(unsigned long long)ir->arena_bytes,
		(unsigned long long)ir->arena_peak);
	fprintf(f, "SRAM-resident window: %llu bytes in %d bank%s (%d values, "
		"%d of them constants preloaded, %llu bytes; largest live set "
		"%llu bytes)\n", (unsigned long long)ir->res_bytes,
		ir->res_banks, ir->res_banks == 1 ? "" : "s", ir->res_nvals,
		ir->npre, (unsigned long long)ir->pre_bytes,
		(unsigned long long)ir->res_peak);
	if (ir->win_nvals)
		fprintf(f, "SRAM window placed at load: %d symbolic scratch values "
			"(%llu bytes at the hints), each in the window while it fits\n",
			ir->win_nvals, (unsigned long long)ir->win_bytes);
}

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* JSON: the per-op sections (docs/compiler.md, "The compile report"). */
static void report_ops_json(const npu_ccresult *r, FILE *f)
{
	const npu_kir *ir = &r->ir;
	const npu_graph *g = r->g;
	rsum t = summarize(r);
	int first = 1;

	fputs("\"graph\": {\"name\": ", f);
	jstr(f, g->name ? g->name : "");
	fputs(", \"file\": ", f);
	jstr(f, g->file ? g->file : "");
	fprintf(f, ", \"kind\": \"%s\", \"nodes\": %d}",
		g->kind == NPU_GK_BACKWARD ? "backward" : g->kind == NPU_GK_FORWARD
		? "forward" : g->kind == NPU_GK_DYNAMO ? "dynamo" : "inference",
		g->nnodes);
	fprintf(f, ",\n \"summary\": {\"native\": %d, \"decomposed\": %d, \"fused_kernels\": %d, \"host_calls\": %d, \"host_bytes\": %llu}",
		t.native, t.decomposed, t.fused, t.host,
		(unsigned long long)t.host_bytes);
	fputs(",\n \"native\": [", f);
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		if (K->kind == NPU_KK_HOST)
			continue;
		for (int j = 0; j < K->nnodes; j++) {
			const npu_gnode *n = &g->nodes[K->nodes[j]];
			fputs(first ? "\n  {\"node\": " : ",\n  {\"node\": ", f);
			jstr(f, n->name);
			fputs(", \"target\": ", f);
			jstr(f, n->op == NPU_GOP_CALL_FUNCTION ? n->target : npu_gop_name(n->op));
			fputs(", \"kernel\": ", f);
			jstr(f, K->name);
			fprintf(f, ", \"kernel_kind\": \"%s\"}", npu_kkind_name(K->kind));
			first = 0;
		}
	}
	fputs("],\n \"decomposed\": [", f);
	first = 1;
	for (int i = 0; i < r->plog.n; i++) {
		const char *d = decomposed_node(&r->plog.v[i]);
		int f2 = 1;
		if (!d)
			continue;
		fputs(first ? "\n  {\"node\": " : ",\n  {\"node\": ", f);
		jstr(f, d);
		fputs(", \"what\": ", f);
		jstr(f, r->plog.v[i].what);
		fputs(", \"into\": [", f);
		for (int j = 0; j < g->nnodes; j++) {
			const char *o = npu_passlog_origins(&r->plog, g->nodes[j].name);
			if (g->nodes[j].op != NPU_GOP_CALL_FUNCTION || !in_list(o, d))
				continue;
			fputs(f2 ? "{\"node\": " : ", {\"node\": ", f);
			jstr(f, g->nodes[j].name);
			fputs(", \"target\": ", f);
			jstr(f, g->nodes[j].target);
			fputc('}', f);
			f2 = 0;
		}
		fputs("]}", f);
		first = 0;
	}
	fputs("],\n \"fused\": [", f);
	first = 1;
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		if (K->kind == NPU_KK_HOST || K->nnodes < 2)
			continue;
		fputs(first ? "\n  {\"kernel\": " : ",\n  {\"kernel\": ", f);
		jstr(f, K->name);
		fprintf(f, ", \"kind\": \"%s\", \"nodes\": [", npu_kkind_name(K->kind));
		for (int j = 0; j < K->nnodes; j++) {
			fputs(j ? ", " : "", f);
			jstr(f, g->nodes[K->nodes[j]].name);
		}
		fputs("]}", f);
		first = 0;
	}
	fputs("],\n \"host\": [", f);
	first = 1;
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		uint64_t a, b;
		if (K->kind != NPU_KK_HOST)
			continue;
		host_bytes(ir, K, &a, &b);
		fputs(first ? "\n  {\"node\": " : ",\n  {\"node\": ", f);
		jstr(f, g->nodes[K->hnode].name);
		fputs(", \"target\": ", f);
		jstr(f, g->nodes[K->hnode].target);
		fputs(", \"kernel\": ", f);
		jstr(f, K->name);
		fputs(", \"reason\": ", f);
		jstr(f, K->hreason ? K->hreason : "");
		fprintf(f, ", \"bytes_in\": %llu, \"bytes_out\": %llu, \"bytes\": %llu}",
			(unsigned long long)a, (unsigned long long)b,
			(unsigned long long)(a + b));
		first = 0;
	}
	fputs("],\n ", f);
}

int npu_cc_report_json(const npu_ccresult *r, const char *path, npu_err *e)
{
	const npu_kir *ir = &r->ir;
	npu_afile af;
	FILE *f;

	/* whole or not at all, like the program written next to it */
	if (npu_afile_open(&af, path, e) < 0)
		return -1;
	if (!(f = npu_afile_stdio(&af, e))) {
		npu_afile_abort(&af);
		return -1;
	}
	fputc('{', f);
	report_ops_json(r, f);
	fprintf(f, "\"kernels\": [");
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		fprintf(f, "%s{\"name\": ", k ? ", " : "");
		jstr(f, K->name);
		fprintf(f, ", \"kind\": \"%s\", \"nodes\": [", npu_kkind_name(K->kind));
		for (int j = 0; j < K->nnodes; j++) {
			fputs(j ? ", " : "", f);
			jstr(f, ir->g->nodes[K->nodes[j]].name);
		}
		fprintf(f, "], \"cost\": %.0f, \"dram_bytes\": %llu", K->cost,
			(unsigned long long)K->dram_bytes);
		if (K->kind == NPU_KK_MM)
			fprintf(f, ", \"mm_dtype\": \"%s\", \"passes\": %d, \"tile_m\": %lld, \"tile_n\": %lld",
				npu_dtype_name(K->mm_dtype), K->mm_passes,
				(long long)K->kn.tile_m, (long long)K->kn.tile_n);
		if (K->kind == NPU_KK_HOST) {
			uint64_t b = 0;
			for (int i = 0; i < K->nhin; i++)
				b += npu_kval_bytes(&ir->v[K->hin[i]]);
			for (int i = 0; i < K->nhout; i++)
				b += npu_kval_bytes(&ir->v[K->hout[i]]);
			fprintf(f, ", \"reason\": ");
			jstr(f, K->hreason ? K->hreason : "");
			fprintf(f, ", \"host_bytes\": %llu", (unsigned long long)b);
		}
		fputc('}', f);
	}
	fprintf(f, "], \"decisions\": [");
	for (int i = 0; i < ir->nd; i++) {
		fprintf(f, "%s{\"fused\": %s, \"what\": ", i ? ", " : "",
			ir->d[i].fused ? "true" : "false");
		jstr(f, ir->d[i].what);
		fputc('}', f);
	}
	/* ATen ops lowered natively (in a non-host kernel), with counts */
	fprintf(f, "], \"native_ops\": {");
	{
		int first = 1;
		for (int a = 0; a < NPU_NAOP; a++) {
			int cnt = 0;
			for (int k = 0; k < ir->nk; k++)
				if (ir->k[k].kind != NPU_KK_HOST)
					for (int j = 0; j < ir->k[k].nnodes; j++)
						cnt += ir->g->nodes[ir->k[k].nodes[j]].aop == a;
			if (!cnt)
				continue;
			fprintf(f, "%s\"%s\": %d", first ? "" : ", ", npu_aoptab[a].target, cnt);
			first = 0;
		}
	}
	fprintf(f, "}, \"passes\": ");
	npu_passlog_print_json(&r->plog, f);
	fprintf(f, ", \"spills\": %d, \"arena_bytes\": %llu, \"arena_peak\": %llu",
		r->spills, (unsigned long long)ir->arena_bytes,
		(unsigned long long)ir->arena_peak);
	fprintf(f, ", \"resident\": {\"bytes\": %llu, \"peak\": %llu, \"banks\": %d, "
		"\"values\": %d, \"constants\": %d, \"preload_bytes\": %llu, "
		"\"load_values\": %d, \"load_hint_bytes\": %llu}}\n",
		(unsigned long long)ir->res_bytes,
		(unsigned long long)ir->res_peak, ir->res_banks, ir->res_nvals,
		ir->npre, (unsigned long long)ir->pre_bytes,
		ir->win_nvals, (unsigned long long)ir->win_bytes);
	return npu_afile_commit(&af, e);
}
