/*
 * fuse.c - partition the graph into kernels (kernel IR, kir.h).
 *
 * One walk over the nodes in topological order keeps one open kernel.  A
 * node joins it when the template can take it (support.def says how the
 * op lowers) and every tensor it reads is either computed in that kernel
 * over the same index space ("in register") or comes from a kernel that
 * is already closed; otherwise the open kernel closes and the node starts
 * a new one.  Kernels are therefore contiguous runs of the topological
 * order, so they can never depend on each other in a cycle, and a value
 * computed inside a kernel is written to DRAM only when something outside
 * reads it.  Each decision, and each refusal with its reason, goes to the
 * report.
 *
 * Views (support.def VIEW) make no code: they become offsets and strides
 * into the materialized value they view, and kernels read them through
 * DMA descriptors.  Constant fills become immediates.  Ops the backend
 * does not lower, and float64 or integer arithmetic, become host kernels
 * that run the reference interpreter's implementation of the op.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/emit_int.h"
#include "compiler/kir.h"
#include "isa/dtype.h"
#include "isa/isa.h"
#include "isa/st.h"

typedef struct fz {
	npu_kir *ir;
	const npu_graph *g;
	const npu_fuse_env *env;
	npu_err *e;
	int cur;            /* open kernel, -1 */
	int *level;         /* per value: 0 elem, 1 row (in its producer) */
	int nlevel;
	int *ord, *pos;     /* the walk's order of the nodes, and its inverse */
	int at;             /* position of the node being walked */
	unsigned char *moved; /* per node: moved in the order once already */
	unsigned char *done;  /* per node: walked already (ahead of its turn) */
	unsigned char *alone; /* per node: starts a kernel of its own */
	unsigned char *prelu; /* per node: a max pool whose ReLU moved past it */
	struct irng *rng;     /* per node: integer value range (node_rng) */
	int banding;          /* conv_bands is emitting its bands */
	int *pending;         /* per node: its users not walked yet (ew_full) */
} fz;

enum { FZ_DEFER = 3 };  /* do_node: the node moved later in the order */

/* integer ranges (below) */
typedef struct irng {
	double lo, hi;       /* lo > hi: not computed yet */
} irng;
static irng node_rng(fz *z, int node);
static int rng_small(irng r);
static int isintdt(int dt);
static int int_lanes(fz *z, int node);
static int rng_fits(fz *z, int node, int dt);

enum { LV_ELEM, LV_ROW };

static int fz_level(fz *z, int v)
{
	return v < z->nlevel ? z->level[v] : LV_ELEM;
}

static int set_level(fz *z, int v, int lv)
{
	if (v >= z->nlevel) {
		int n = z->ir->capv > v ? z->ir->capv : v + 16;
		int *p = realloc(z->level, (size_t)n * sizeof *p);
		if (!p)
			return -1;
		memset(p + z->nlevel, 0, (size_t)(n - z->nlevel) * sizeof *p);
		z->level = p;
		z->nlevel = n;
	}
	z->level[v] = lv;
	return 0;
}

static int isfloat(int dt)
{
	return dt == NPU_DT_F32 || dt == NPU_DT_BF16 || dt == NPU_DT_F16;
}

static int isfp8(int dt)
{
	return dt == NPU_DT_E4M3 || dt == NPU_DT_E5M2;
}

static int vecok(int dt)
{
	return isfloat(dt) || dt == NPU_DT_BOOL;
}

/*
 * PyTorch's view stride rule: strides of newshape over the same memory
 * as (oshape, ostride), or -1 when the view would need a copy.
 */
static int restride(int on, const int64_t *oshape, const int64_t *ostride,
		    int nn, const int64_t *nshape, int64_t *nstride)
{
	int64_t numel = npu_kir_numel(on, oshape), base, tn = 1, vn = 1;
	int vd = nn - 1;

	if (numel != npu_kir_numel(nn, nshape))
		return -1;
	if (numel == 0 || on == 0) {
		npu_kir_contig(nn, nshape, nstride);
		if (on == 0)
			for (int d = 0; d < nn; d++)
				nstride[d] = 0;
		return 0;
	}
	base = ostride[on - 1];
	for (int td = on - 1; td >= 0; td--) {
		tn *= oshape[td];
		if (td == 0 || (oshape[td - 1] != 1 &&
				ostride[td - 1] != tn * base)) {
			while (vd >= 0 && (vn < tn || nshape[vd] == 1)) {
				nstride[vd] = vn * base;
				vn *= nshape[vd];
				vd--;
			}
			if (vn != tn)
				return -1;
			if (td > 0) {
				base = ostride[td - 1];
				tn = vn = 1;
			}
		}
	}
	return vd == -1 ? 0 : -1;
}

static int iscontig(const npu_kval *v)
{
	int64_t s[NPU_MAX_DIMS];

	npu_kir_contig(v->ndim, v->shape, s);
	for (int d = 0; d < v->ndim; d++)
		if (v->shape[d] != 1 && s[d] != v->stride[d])
			return 0;
	return v->off == 0;
}

/* Is v the transpose (last two dims swapped) of a contiguous tensor? */
static int transposed_contig(const npu_kval *v)
{
	npu_kval t = *v;
	int nd = v->ndim;

	if (nd < 2)
		return 0;
	t.shape[nd - 2] = v->shape[nd - 1];
	t.shape[nd - 1] = v->shape[nd - 2];
	t.stride[nd - 2] = v->stride[nd - 1];
	t.stride[nd - 1] = v->stride[nd - 2];
	return iscontig(&t);
}

/* The tensor meta of node n's output k, or NULL. */
static const npu_gmeta *tmeta(const npu_gnode *n, int k)
{
	if (!n->meta || k >= n->nmeta || n->meta[k].kind != NPU_GM_TENSOR)
		return NULL;
	/* a symbolic dim is concrete here once the driver specialized it to
	 * its hint (compiler/dyn.c records what stays symbolic) */
	for (int d = 0; d < n->meta[k].ndim; d++)
		if (n->meta[k].shape[d].sym && n->meta[k].shape[d].v < 1)
			return NULL;
	return &n->meta[k];
}

static int meta_val(fz *z, int node, int k, const char *name)
{
	const npu_gmeta *m = tmeta(&z->g->nodes[node], k);
	int64_t shape[NPU_MAX_DIMS];

	if (!m)
		return npu_errf(z->e, "%s: node '%s': no concrete tensor meta (dynamic shapes are not supported)",
				z->g->file, z->g->nodes[node].name);
	for (int d = 0; d < m->ndim; d++)
		shape[d] = m->shape[d].v;
	return npu_kir_val(z->ir, name, node, m->dtype, m->ndim, shape);
}

/* 1 when the elements [off + sum i_d * st_d] of a view of shape reach
 * outside [0, n) (or past what int64 holds: a graph's sizes are
 * arbitrary). */
static int view_outside(int ndim, const int64_t *shape, int64_t off,
			const int64_t *st, int64_t n)
{
	int64_t lo = off, hi = off, step;

	for (int d = 0; d < ndim; d++)
		if (shape[d] <= 0)
			return 0; /* no element */
	for (int d = 0; d < ndim; d++) {
		if (__builtin_mul_overflow(shape[d] - 1, st[d], &step) ||
		    __builtin_add_overflow(st[d] < 0 ? lo : hi, step,
					   st[d] < 0 ? &lo : &hi))
			return 1;
	}
	return lo < 0 || hi >= n;
}

/* A view value of src (root or view) with given shape, offset, strides. */
static int view_val(fz *z, int node, int src, int ndim, const int64_t *shape,
		    int64_t off, const int64_t *stride)
{
	npu_kir *ir = z->ir;
	int64_t st[NPU_MAX_DIMS];
	int v, root;

	/* A view stays inside the value it views.  The lowerings take its
	 * shape from the graph's meta and its strides and offset from the
	 * arguments; where a graph has them disagree (a permutation that is
	 * not one, a meta shape the op does not give: fuzz_compile made
	 * such) the code would read and write past the buffer. */
	root = ir->v[src].root < 0 ? src : ir->v[src].root;
	if (view_outside(ndim, shape, off, stride,
			 npu_kir_numel(ir->v[root].ndim, ir->v[root].shape)))
		return npu_errf(z->e, "%s: node '%s': its meta shape and arguments "
				"make a view reaching outside '%s' (%lld elements)",
				z->g->file, z->g->nodes[node].name, ir->v[root].name,
				(long long)npu_kir_numel(ir->v[root].ndim, ir->v[root].shape));
	/* shape and stride may point into ir->v, which npu_kir_val may move */
	memcpy(st, stride, (size_t)ndim * sizeof *stride);
	v = npu_kir_val(ir, z->g->nodes[node].name, node, ir->v[src].dtype, ndim,
			shape);
	if (v < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[v].root = root;
	ir->v[v].off = off;
	memcpy(ir->v[v].stride, st, (size_t)ndim * sizeof *st);
	ir->v[v].isconst = ir->v[src].isconst;
	ir->v[v].fill = ir->v[src].fill;
	return v;
}

static int root_of(const npu_kir *ir, int v)
{
	return ir->v[v].root < 0 ? v : ir->v[v].root;
}

/* Value v is no longer needed unless a kernel other than `except` reads
 * it (a repeated copy that its reader now does without). */
static void drop_unread(npu_kir *ir, int v, int except)
{
	for (int j = 0; j < ir->nk; j++)
		for (int i = 0; j != except && i < ir->k[j].nops; i++)
			if (ir->k[j].ops[i].val == v)
				return;
	ir->v[v].needed = 0;
}

/* ----------------------------------------------------------------- */
/* Kernels */

static void close_cur(fz *z)
{
	z->cur = -1;
}

static int new_kern(fz *z, int kind, int node)
{
	int k;

	close_cur(z);
	k = npu_kir_kern(z->ir, kind, z->g->nodes[node].name);
	if (k < 0)
		return npu_errf(z->e, "out of memory");
	if (npu_kir_addnode(&z->ir->k[k], node) < 0)
		return npu_errf(z->e, "out of memory");
	return k;
}

/* Element strides of value v read over index space (ndim, shape) with
 * broadcasting (right-aligned); -1 when v does not broadcast to it. */
static int bcast_strides(const npu_kval *v, int ndim, const int64_t *shape,
			 int64_t *st)
{
	int sh = ndim - v->ndim;

	if (sh < 0)
		return -1;
	for (int d = 0; d < ndim; d++) {
		int vd = d - sh;
		if (vd < 0)
			st[d] = 0;
		else if (v->shape[vd] == shape[d])
			st[d] = v->shape[vd] == 1 ? 0 : v->stride[vd];
		else if (v->shape[vd] == 1)
			st[d] = 0;
		else
			return -1;
	}
	return 0;
}

/* Operand of kernel k reading value v (broadcast to the op's shape os,
 * then re-expressed over the kernel's space); -1 when not expressible. */
static int ext_opnd(fz *z, int k, int v, int ondim, const int64_t *oshape)
{
	npu_kir *ir = z->ir;
	npu_kern *K = &ir->k[k];
	int64_t st[NPU_MAX_DIMS], kst[NPU_MAX_DIMS];
	int root = root_of(ir, v);

	if (bcast_strides(&ir->v[v], ondim, oshape, st) < 0)
		return -1;
	if (ondim != K->ndim || memcmp(oshape, K->shape, (size_t)ondim * sizeof *oshape)) {
		if (restride(ondim, oshape, st, K->ndim, K->shape, kst) < 0)
			return -1;
	} else {
		memcpy(kst, st, sizeof st);
	}
	/* a matmul's A and B operands have strides over their own [K]
	 * spaces, not the kernel's: equal numbers there (a square A read
	 * again by the epilogue) are not the same operand */
	for (int i = 0; i < K->nops; i++)
		if (!K->ops[i].out && K->ops[i].val == root &&
		    i != K->mm_a && i != K->mm_b && i != K->mm_alo &&
		    i != K->mm_blo && K->ops[i].off == ir->v[v].off &&
		    !memcmp(K->ops[i].stride, kst, (size_t)K->ndim * sizeof *kst))
			return i;
	ir->v[root].needed = 1;
	return npu_kir_opnd(K, root, 0, ir->v[v].off, kst);
}

static int xadd(fz *z, int k, int op, int vop, int a, int b, int c,
		float imm, int node)
{
	npu_xins x = { .op = op, .vop = vop, .a = a, .b = b, .c = c,
		       .imm = imm, .dtype = 0, .node = node };
	int r = npu_kir_x(&z->ir->k[k], x);

	if (r < 0)
		npu_errf(z->e, "out of memory");
	return r;
}

/*
 * Whether V, a per-row value of kernel K (one a row) or a view of it, is
 * read where a node's output (ondim, oshape) has its rows: an op over the
 * rows alone (flat order is row order), or broadcast along K's reduced
 * dims only.  PyTorch broadcasts from the right: `x - x.sum(-1)` of a
 * square x subtracts the sums along each row, as does the sums viewed
 * [1, N]; neither is a per-row read.
 */
static int row_aligned(const npu_kern *K, const npu_kval *V, int ondim,
		       const int64_t *oshape)
{
	int r = K->ndim - K->rdims;

	if (npu_kir_numel(ondim, oshape) == npu_kir_numel(V->ndim, V->shape))
		return 1;
	if (ondim != K->ndim || memcmp(oshape, K->shape, (size_t)ondim * sizeof *oshape))
		return 0;
	for (int d = 0; d < K->ndim; d++) {
		int vd = d - (ondim - V->ndim);
		int64_t n = vd >= 0 ? V->shape[vd] : 1;
		if (d >= r ? n != 1 : n != K->shape[d])
			return 0;
	}
	return 1;
}

/*
 * An argument of an elementwise node as an expression value of kernel k:
 * in register when computed there, an immediate for a constant fill,
 * else a LOAD of a new operand.  -2 when it cannot be read in k.
 */
static int arg_x(fz *z, int k, int v, int ondim, const int64_t *oshape,
		 int node, int *lv)
{
	npu_kir *ir = z->ir;
	const npu_kval *V = &ir->v[v];
	int root = root_of(ir, v), o;

	if (V->isconst) {
		*lv = LV_ROW;
		return xadd(z, k, NPU_X_CONST, 0, 0, 0, 0, (float)V->fill, node);
	}
	if (ir->v[root].producer == k) {
		/* in register: the value itself, or a contiguous reshape */
		if (v != root && !(iscontig(V) &&
				   npu_kir_numel(V->ndim, V->shape) ==
				   npu_kir_numel(ir->v[root].ndim, ir->v[root].shape)))
			return -2;
		*lv = fz_level(z, root);
		if (*lv == LV_ROW && !row_aligned(&ir->k[k], V, ondim, oshape))
			return -2;
		return ir->v[root].xdef;
	}
	if (ir->v[root].producer >= 0 && ir->v[root].xdef >= 0 &&
	    ir->v[root].producer == z->cur && k == z->cur)
		return -2;
	o = ext_opnd(z, k, v, ondim, oshape);
	if (o < 0)
		return -2;
	*lv = LV_ELEM;
	/* one load per operand: x * sigmoid(x) read x twice per element */
	for (int i = 0; i < ir->k[k].nx; i++)
		if (ir->k[k].x[i].op == NPU_X_LOAD && ir->k[k].x[i].a == o)
			return i;
	return xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node);
}

/* ----------------------------------------------------------------- */
/* Elementwise ops as expression programs */

static const npu_gval *arg(const npu_gnode *n, int i)
{
	return i < n->nargs ? &n->args[i] : NULL;
}

static int gnum(const npu_gval *v, double *out)
{
	if (!v)
		return -1;
	if (v->kind == NPU_GV_INT)
		*out = (double)v->u.i;
	else if (v->kind == NPU_GV_FLOAT)
		*out = v->u.f;
	else if (v->kind == NPU_GV_BOOL)
		*out = v->u.b;
	else
		return -1;
	return 0;
}

/*
 * Whether expression value x of kernel K holds an integer in every lane
 * (so that a store to an integer type, which rounds, equals PyTorch's
 * truncating cast): loads of integer operands, an integer array's
 * accumulator, rounding through an integer type, and what min, max, add,
 * sub, mul and neg make of integers, and comparisons and logical not
 * (0 or 1).  ROUND's select (|x| < 2^23 ?
 * vrnd(x) : x) counts: every float from 2^23 up is integral.
 */
static int integral(const npu_kir *ir, const npu_kern *K, int x)
{
	const npu_xins *X;

	if (x < 0 || x >= K->nx)
		return 0;
	X = &K->x[x];
	switch (X->op) {
	case NPU_X_LOAD: /* int64 rounds to an integral float */
		return npu_kir_isint(ir->v[K->ops[X->a].val].dtype) ||
		       ir->v[K->ops[X->a].val].dtype == NPU_DT_I64 ||
		       ir->v[K->ops[X->a].val].dtype == NPU_DT_BOOL;
	case NPU_X_ACC: return npu_kir_isint(K->mm_dtype);
	case NPU_X_CONST: return X->imm == rintf(X->imm);
	case NPU_X_RND: return npu_kir_isint(X->dtype);
	case NPU_X_UN:
		return X->vop == NPU_OP_VFLOOR || X->vop == NPU_OP_VNOT ||
		       ((X->vop == NPU_OP_VNEG || X->vop == NPU_OP_VABS) &&
			integral(ir, K, X->a));
	case NPU_X_BINI:
		if (X->vop == NPU_OP_VCMPEQI)	/* comparisons give 0 or 1 */
			return 1;
		return (X->vop == NPU_OP_VMAXI || X->vop == NPU_OP_VMINI ||
			X->vop == NPU_OP_VADDI || X->vop == NPU_OP_VMULI) &&
		       X->imm == rintf(X->imm) && integral(ir, K, X->a);
	case NPU_X_BIN:
		if (X->vop == NPU_OP_VCMPEQ || X->vop == NPU_OP_VCMPLT ||
		    X->vop == NPU_OP_VCMPLE)
			return 1;
		return (X->vop == NPU_OP_VADD || X->vop == NPU_OP_VSUB ||
			X->vop == NPU_OP_VMUL || X->vop == NPU_OP_VMAX ||
			X->vop == NPU_OP_VMIN) &&
		       integral(ir, K, X->a) && integral(ir, K, X->b);
	case NPU_X_SEL:
		return integral(ir, K, X->b) &&
		       (integral(ir, K, X->c) ||
			(K->x[X->b].op == NPU_X_RND && K->x[X->b].a == X->c));
	default:
		return 0;
	}
}

/* An integer-to-integer cast that can change a value: to a type of the
 * same size or narrower (it wraps; a store saturates). */
static int narrowing(const npu_graph *g, const npu_gnode *n)
{
	const npu_gmeta *in;

	if (!n->nargs || n->args[0].kind != NPU_GV_NODE ||
	    !(in = tmeta(&g->nodes[n->args[0].u.node], 0)))
		return 1;
	return npu_kir_isint(in->dtype) && in->dtype != tmeta(n, 0)->dtype &&
	       npu_dtype_size(in->dtype) >= npu_dtype_size(tmeta(n, 0)->dtype);
}

/* div.Tensor_mode's and div.Scalar_mode's rounding: 1 floor, 2 trunc,
 * 0 none or unknown. */
static int divmode_of(const npu_gnode *n)
{
	const npu_gval *m = npu_gnode_kwarg(n, "rounding_mode");

	if (!m && n->nargs > 2)
		m = &n->args[2];
	if (!m || m->kind != NPU_GV_STR)
		return 0;
	return !strcmp(m->u.s, "floor") ? 1 : !strcmp(m->u.s, "trunc") ? 2 : 0;
}

/* Whether expression value x of kernel k is the constant c. */
static int is_const(const fz *z, int k, int x, float c)
{
	const npu_kern *K = &z->ir->k[k];

	return x >= 0 && x < K->nx && K->x[x].op == NPU_X_CONST && K->x[x].imm == c;
}

/* Emits the op of node n into kernel k given its tensor args' values x[]
 * (scalars read from the node); the result value, -1 on error, -3 when
 * the op's form is not supported natively. */
static int ew_expr(fz *z, int k, const npu_gnode *n, int node, const int *x,
		   int nx)
{
	double s = 0, s2 = 0;
	int a = nx > 0 ? x[0] : -1, b = nx > 1 ? x[1] : -1, t, u;
	const npu_gval *kw;

#define UN(v, src) xadd(z, k, NPU_X_UN, NPU_OP_##v, (src), 0, 0, 0, node)
#define BIN(v, p, q) xadd(z, k, NPU_X_BIN, NPU_OP_##v, (p), (q), 0, 0, node)
#define BINI(v, p, f) xadd(z, k, NPU_X_BINI, NPU_OP_##v, (p), 0, 0, (float)(f), node)
#define CST(f) xadd(z, k, NPU_X_CONST, 0, 0, 0, 0, (float)(f), node)
	switch (n->aop) {
	case NPU_AOP_ABS: return UN(VABS, a);
	case NPU_AOP_NEG: return UN(VNEG, a);
	case NPU_AOP_RELU: return BINI(VMAXI, a, 0);
	case NPU_AOP_RELU6: return BINI(VMINI, BINI(VMAXI, a, 0), 6);
	case NPU_AOP_SIGMOID: return UN(VSIGM, a);
	case NPU_AOP_SILU: return BIN(VMUL, a, UN(VSIGM, a));
	case NPU_AOP_TANH: return UN(VTANH, a);
	case NPU_AOP_EXP: return UN(VEXP, a);
	case NPU_AOP_LOG: return UN(VLOG, a);
	case NPU_AOP_SQRT: return UN(VSQRT, a);
	case NPU_AOP_RSQRT: return UN(VRSQRT, a);
	case NPU_AOP_RECIPROCAL: return UN(VRCP, a);
	case NPU_AOP_SIN: return UN(VSIN, a);
	case NPU_AOP_COS: return UN(VCOS, a);
	case NPU_AOP_ERF: return UN(VERF, a);
	case NPU_AOP_FLOOR: return UN(VFLOOR, a);
	case NPU_AOP_LOGICAL_NOT: return UN(VNOT, a);
	case NPU_AOP_GELU:
		kw = npu_gnode_kwarg(n, "approximate");
		if (!kw && n->nargs > 1)
			kw = &n->args[1];
		if (kw && kw->kind == NPU_GV_STR && !strcmp(kw->u.s, "tanh")) {
			/* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
			t = BIN(VMUL, BIN(VMUL, a, a), a);
			t = BIN(VADD, a, BINI(VMULI, t, 0.044715));
			t = UN(VTANH, BINI(VMULI, t, 0.7978845608028654));
			return BIN(VMUL, BINI(VMULI, a, 0.5), BINI(VADDI, t, 1));
		}
		/* x * 0.5 * (1 + erf(x / sqrt 2)) */
		t = UN(VERF, BINI(VMULI, a, 0.7071067811865476));
		return BIN(VMUL, BINI(VMULI, a, 0.5), BINI(VADDI, t, 1));
	case NPU_AOP_HARDTANH:
	case NPU_AOP_CLAMP:
		t = a;
		if (n->aop == NPU_AOP_HARDTANH) {
			s = -1, s2 = 1;
			gnum(arg(n, 1), &s);
			gnum(arg(n, 2), &s2);
			return BINI(VMINI, BINI(VMAXI, a, s), s2);
		}
		if (!gnum(arg(n, 1), &s))
			t = BINI(VMAXI, t, s);
		if (!gnum(arg(n, 2), &s2))
			t = BINI(VMINI, t, s2);
		return t;
	case NPU_AOP_CLAMP_MIN:
		return gnum(arg(n, 1), &s) ? -3 : BINI(VMAXI, a, s);
	case NPU_AOP_CLAMP_MAX:
		return gnum(arg(n, 1), &s) ? -3 : BINI(VMINI, a, s);
	case NPU_AOP_ADD_TENSOR:
	case NPU_AOP_SUB_TENSOR:
		kw = npu_gnode_kwarg(n, "alpha");
		if (kw && !gnum(kw, &s) && s != 1)
			b = BINI(VMULI, b, s);
		return n->aop == NPU_AOP_ADD_TENSOR ? BIN(VADD, a, b)
						    : BIN(VSUB, a, b);
	case NPU_AOP_ADD_SCALAR:
	case NPU_AOP_SUB_SCALAR:
	case NPU_AOP_RSUB_SCALAR:
	case NPU_AOP_MUL_SCALAR:
	case NPU_AOP_DIV_SCALAR:
		if (gnum(arg(n, 1), &s))
			return -3;
		kw = npu_gnode_kwarg(n, "alpha");
		if (kw && !gnum(kw, &s2) && s2 != 1)
			s *= s2;
		switch (n->aop) {
		case NPU_AOP_ADD_SCALAR: return BINI(VADDI, a, s);
		case NPU_AOP_SUB_SCALAR: return BINI(VADDI, a, -s);
		case NPU_AOP_RSUB_SCALAR: return BINI(VRSUBI, a, s);
		case NPU_AOP_MUL_SCALAR: return BINI(VMULI, a, s);
		default: return BINI(VDIVI, a, s);
		}
	case NPU_AOP_MUL_TENSOR:
		/* x * 1 is x in the lanes, whatever x's type (decomp.def makes
		 * a float of a bool so; the store converts) */
		if (is_const(z, k, b, 1))
			return a;
		if (is_const(z, k, a, 1))
			return b;
		return BIN(VMUL, a, b);
	case NPU_AOP_DIV_TENSOR: return BIN(VDIV, a, b);
	case NPU_AOP_DIV_MODE: case NPU_AOP_DIV_SMODE:
		/* integers only (do_node's int_lanes): floor(a / b), exact
		 * while |a| + |b| < 2^24 (divmode_exact); trunc rounds a
		 * negative quotient up */
		switch (divmode_of(n)) {
		case 1:
			return UN(VFLOOR, BIN(VDIV, a, b));
		case 2:
			t = BIN(VDIV, a, b);
			u = BIN(VCMPLT, t, CST(0));
			return xadd(z, k, NPU_X_SEL, 0, u, UN(VNEG, UN(VFLOOR, UN(VNEG, t))),
				    UN(VFLOOR, t), 0, node);
		default:
			return -3;
		}
	case NPU_AOP_POW_TS:
		if (gnum(arg(n, 1), &s))
			return -3;
		if (s == 2)
			return BIN(VMUL, a, a);
		if (s == 1)
			return a;
		if (s == 0.5)
			return UN(VSQRT, a);
		return BINI(VPOWI, a, s);
	case NPU_AOP_POW_TT:
	case NPU_AOP_POW_ST: /* a: the base, a number, as a constant */
		return BIN(VPOW, a, b);
	case NPU_AOP_MAXIMUM: return BIN(VMAX, a, b);
	case NPU_AOP_MINIMUM: return BIN(VMIN, a, b);
	case NPU_AOP_EQ_TENSOR: return BIN(VCMPEQ, a, b);
	case NPU_AOP_NE_TENSOR: return UN(VNOT, BIN(VCMPEQ, a, b));
	case NPU_AOP_LT_TENSOR: return BIN(VCMPLT, a, b);
	case NPU_AOP_LE_TENSOR: return BIN(VCMPLE, a, b);
	case NPU_AOP_GT_TENSOR: return BIN(VCMPLT, b, a);
	case NPU_AOP_GE_TENSOR: return BIN(VCMPLE, b, a);
	case NPU_AOP_EQ_SCALAR:
	case NPU_AOP_NE_SCALAR:
	case NPU_AOP_LT_SCALAR:
	case NPU_AOP_LE_SCALAR:
	case NPU_AOP_GT_SCALAR:
	case NPU_AOP_GE_SCALAR:
		if (gnum(arg(n, 1), &s))
			return -3;
		if (n->aop == NPU_AOP_EQ_SCALAR)
			return BINI(VCMPEQI, a, s);
		if (n->aop == NPU_AOP_NE_SCALAR)
			return UN(VNOT, BINI(VCMPEQI, a, s));
		t = CST(s);
		switch (n->aop) {
		case NPU_AOP_LT_SCALAR: return BIN(VCMPLT, a, t);
		case NPU_AOP_LE_SCALAR: return BIN(VCMPLE, a, t);
		case NPU_AOP_GT_SCALAR: return BIN(VCMPLT, t, a);
		default: return BIN(VCMPLE, t, a);
		}
	case NPU_AOP_LOGICAL_AND:
	case NPU_AOP_BITWISE_AND:
		t = UN(VNOT, UN(VNOT, a));
		u = UN(VNOT, UN(VNOT, b));
		return BIN(VMUL, t, u);
	case NPU_AOP_LOGICAL_OR:
	case NPU_AOP_BITWISE_OR:
		t = UN(VNOT, UN(VNOT, a));
		u = UN(VNOT, UN(VNOT, b));
		return BIN(VMAX, t, u);
	case NPU_AOP_LOGICAL_XOR:
	case NPU_AOP_BITWISE_XOR:
		t = UN(VNOT, UN(VNOT, a));
		u = UN(VNOT, UN(VNOT, b));
		return UN(VNOT, BIN(VCMPEQ, t, u));
	case NPU_AOP_WHERE:
		return xadd(z, k, NPU_X_SEL, 0, a, b, x[2], 0, node);
	case NPU_AOP_MASKED_FILL_S:
		if (gnum(arg(n, 2), &s))
			return -3;
		return xadd(z, k, NPU_X_SEL, 0, b, CST(s), a, 0, node);
	case NPU_AOP_MASKED_FILL_T:	/* the value a 0-d tensor, broadcast */
		return nx > 2 && x[2] >= 0 ? xadd(z, k, NPU_X_SEL, 0, b, x[2], a, 0, node) : -3;
	case NPU_AOP_ROUND:
		/* vrnd through i32 rounds half to even but saturates at
		 * 2^31; from 2^23 up every float is an integer already, and
		 * NaN must stay NaN, so those lanes keep x */
		t = BIN(VCMPLT, UN(VABS, a), CST(8388608.0));
		u = xadd(z, k, NPU_X_RND, 0, a, 0, 0, 0, node);
		z->ir->k[k].x[u].dtype = NPU_DT_I32;
		return xadd(z, k, NPU_X_SEL, 0, t, u, a, 0, node);
	case NPU_AOP_TO_COPY:
		/* a float -> integer cast truncates in PyTorch; the store
		 * rounds, which agrees only on integral values (quantize's
		 * round and clamp produce them) */
		if (isintdt(tmeta(n, 0)->dtype) && tmeta(n, 0)->dtype != NPU_DT_BOOL &&
		    (!integral(z->ir, &z->ir->k[k], a) ||
		     (narrowing(z->g, n) && !(arg(n, 0)->kind == NPU_GV_NODE &&
					     rng_fits(z, arg(n, 0)->u.node, tmeta(n, 0)->dtype)))))
			return -3;
		return a;
	case NPU_AOP_CLONE:
		return a;
	case NPU_AOP_COPY:
		return b;
	default:
		return -3;
	}
#undef UN
#undef BIN
#undef BINI
#undef CST
}

/* Tensor arguments of a node (node refs in args, lists flattened one level). */
static int tensor_args(const npu_gnode *n, int *out, int max)
{
	int c = 0;

	for (int i = 0; i < n->nargs; i++) {
		const npu_gval *v = &n->args[i];
		if (v->kind == NPU_GV_NODE && c < max)
			out[c++] = v->u.node;
		else if (v->kind == NPU_GV_LIST)
			for (int j = 0; j < v->u.list.n; j++)
				if (v->u.list.v[j].kind == NPU_GV_NODE && c < max)
					out[c++] = v->u.list.v[j].u.node;
	}
	return c;
}

static int node_val(fz *z, int node)
{
	return z->ir->nodeval[node];
}

/* ----------------------------------------------------------------- */
/* Host kernels and copies */

/* A load of value v in kernel k, broadcast to the kernel's shape. */
static int ew_load(fz *z, int k, int v, int node)
{
	npu_kir *ir = z->ir;
	int64_t sst[NPU_MAX_DIMS];
	int o;

	/* a fill kept to be computed (pass_fold) has no buffer to load */
	if (ir->v[v].isconst)
		return xadd(z, k, NPU_X_CONST, 0, 0, 0, 0, (float)ir->v[v].fill, node);
	bcast_strides(&ir->v[v], ir->k[k].ndim, ir->k[k].shape, sst);
	ir->v[root_of(ir, v)].needed = 1;
	o = npu_kir_opnd(&ir->k[k], root_of(ir, v), 0, ir->v[v].off, sst);
	return o < 0 ? -1 : xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node);
}

/* A copy kernel that materializes value v contiguously; the new value. */
static int copy_val(fz *z, int v, int node, const char *why)
{
	npu_kir *ir = z->ir;
	int k, nv, x;
	char name[256];

	snprintf(name, sizeof name, "%s.copy", ir->v[v].name);
	if ((k = new_kern(z, NPU_KK_EW, node)) < 0)
		return -1;
	free(ir->k[k].name);
	ir->k[k].name = strdup(name);
	ir->k[k].ndim = ir->v[v].ndim;
	memcpy(ir->k[k].shape, ir->v[v].shape, sizeof ir->k[k].shape);
	if ((nv = npu_kir_val(ir, name, ir->v[v].node, ir->v[v].dtype,
			      ir->v[v].ndim, ir->v[v].shape)) < 0)
		return npu_errf(z->e, "out of memory");
	if ((x = ew_load(z, k, v, node)) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[nv].producer = k;
	ir->v[nv].xdef = x;
	ir->v[nv].needed = 1;
	set_level(z, nv, LV_ELEM);
	npu_kir_decide(ir, 0, "%s: materialized by a copy kernel (%s)",
		       ir->v[v].name, why);
	close_cur(z);
	return nv;
}

static void json_str(char **p, size_t *n, size_t *cap, const char *s);

static int jput(char **p, size_t *n, size_t *cap, const char *s)
{
	size_t l = strlen(s);

	if (*n + l + 1 > *cap) {
		size_t nc = (*cap + l + 1) * 2;
		char *q = realloc(*p, nc);
		if (!q)
			return -1;
		*p = q;
		*cap = nc;
	}
	memcpy(*p + *n, s, l + 1);
	*n += l;
	return 0;
}

static void json_str(char **p, size_t *n, size_t *cap, const char *s)
{
	char c[8];

	jput(p, n, cap, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\') {
			c[0] = '\\', c[1] = *s, c[2] = 0;
		} else if ((unsigned char)*s < 0x20) {
			snprintf(c, sizeof c, "\\u%04x", (unsigned char)*s);
		} else {
			c[0] = *s, c[1] = 0;
		}
		jput(p, n, cap, c);
	}
	jput(p, n, cap, "\"");
}

/* Writes v in the fxgraph value encoding, node refs as {"input": K}. */
static int json_val(fz *z, const npu_gval *v, const int *innode, int nin,
		    char **p, size_t *n, size_t *cap)
{
	char b[64];

	switch (v->kind) {
	case NPU_GV_NONE: return jput(p, n, cap, "null");
	case NPU_GV_NODE:
		for (int i = 0; i < nin; i++)
			if (innode[i] == v->u.node) {
				snprintf(b, sizeof b, "{\"input\": %d}", i);
				return jput(p, n, cap, b);
			}
		return -1;
	case NPU_GV_INT:
		snprintf(b, sizeof b, "%lld", (long long)v->u.i);
		return jput(p, n, cap, b);
	case NPU_GV_FLOAT:
		if (isnan(v->u.f))
			return jput(p, n, cap, "{\"float\": \"nan\"}");
		if (isinf(v->u.f))
			return jput(p, n, cap, v->u.f > 0 ? "{\"float\": \"inf\"}"
						   : "{\"float\": \"-inf\"}");
		snprintf(b, sizeof b, "%.17g", v->u.f);
		if (!strpbrk(b, ".eE"))
			strcat(b, ".0");
		return jput(p, n, cap, b);
	case NPU_GV_BOOL: return jput(p, n, cap, v->u.b ? "true" : "false");
	case NPU_GV_STR: json_str(p, n, cap, v->u.s); return 0;
	case NPU_GV_DTYPE:
		jput(p, n, cap, "{\"dtype\": ");
		json_str(p, n, cap, npu_dtype_torch(v->u.dtype));
		return jput(p, n, cap, "}");
	case NPU_GV_DEVICE:
	case NPU_GV_LAYOUT:
	case NPU_GV_MEMFMT:
		snprintf(b, sizeof b, "{\"%s\": ", v->kind == NPU_GV_DEVICE ? "device"
			 : v->kind == NPU_GV_LAYOUT ? "layout" : "memory_format");
		jput(p, n, cap, b);
		json_str(p, n, cap, v->u.s);
		return jput(p, n, cap, "}");
	case NPU_GV_LIST:
		jput(p, n, cap, "[");
		for (int i = 0; i < v->u.list.n; i++) {
			if (i)
				jput(p, n, cap, ", ");
			if (json_val(z, &v->u.list.v[i], innode, nin, p, n, cap) < 0)
				return -1;
		}
		return jput(p, n, cap, "]");
	default:
		return -1;
	}
}

static int host_kern(fz *z, int node, const char *reason)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int tn[64], nt = tensor_args(n, tn, 64), k, *vals;
	int innode[64], nin = 0;
	char *js = NULL;
	size_t jn = 0, jc = 0;
	char nm[300];

	/* inputs: materialized and contiguous */
	int inv[64];
	for (int i = 0; i < nt; i++) {
		int v = node_val(z, tn[i]), dup = 0;
		if (v < 0)
			return npu_errf(z->e, "%s: node '%s': argument '%s' has no tensor value",
					z->g->file, n->name, z->g->nodes[tn[i]].name);
		for (int j = 0; j < nin; j++)
			dup |= innode[j] == tn[i];
		if (dup)
			continue;
		if (ir->v[v].root >= 0 || ir->v[v].isconst) {
			if (ir->v[v].root >= 0 && !ir->v[v].isconst &&
			    iscontig(&ir->v[v]) &&
			    npu_kir_numel(ir->v[v].ndim, ir->v[v].shape) ==
			    npu_kir_numel(ir->v[ir->v[v].root].ndim, ir->v[ir->v[v].root].shape)) {
				/* a contiguous reshape: host gets a copy anyway */
			}
			if ((v = copy_val(z, v, node, "a host call reads it")) < 0)
				return -1;
		}
		inv[nin] = v;
		innode[nin++] = tn[i];
	}
	if ((k = new_kern(z, NPU_KK_HOST, node)) < 0)
		return -1;
	ir->k[k].hnode = node;
	ir->k[k].hreason = strdup(reason);
	ir->k[k].hin = malloc((size_t)(nin + 1) * sizeof(int));
	if (!ir->k[k].hin)
		return npu_errf(z->e, "out of memory");
	for (int i = 0; i < nin; i++) {
		ir->k[k].hin[i] = inv[i];
		ir->v[inv[i]].needed = 1;
	}
	ir->k[k].nhin = nin;
	/* attrs */
	jput(&js, &jn, &jc, "{\"args\": [");
	for (int i = 0; i < n->nargs; i++) {
		if (i)
			jput(&js, &jn, &jc, ", ");
		if (json_val(z, &n->args[i], innode, nin, &js, &jn, &jc) < 0)
			goto bad;
	}
	jput(&js, &jn, &jc, "], \"kwargs\": {");
	for (int i = 0; i < n->nkwargs; i++) {
		if (i)
			jput(&js, &jn, &jc, ", ");
		json_str(&js, &jn, &jc, n->kwargs[i].key);
		jput(&js, &jn, &jc, ": ");
		if (json_val(z, &n->kwargs[i].val, innode, nin, &js, &jn, &jc) < 0)
			goto bad;
	}
	jput(&js, &jn, &jc, "}, \"dtype\": [");
	vals = calloc((size_t)(n->nmeta + 1), sizeof *vals);
	ir->k[k].hout = malloc((size_t)(n->nmeta + 1) * sizeof(int));
	if (!vals || !ir->k[k].hout || !js) {
		free(vals);
		free(js);
		return npu_errf(z->e, "out of memory");
	}
	for (int i = 0; i < n->nmeta; i++) {
		int v;
		if (i)
			jput(&js, &jn, &jc, ", ");
		if (n->meta[i].kind != NPU_GM_TENSOR) {
			jput(&js, &jn, &jc, "null");
			vals[i] = -1;
			continue;
		}
		json_str(&js, &jn, &jc, npu_dtype_torch(n->meta[i].dtype));
		snprintf(nm, sizeof nm, n->multi ? "%s.%d" : "%s", n->name, i);
		if ((v = meta_val(z, node, i, nm)) < 0) {
			free(vals);
			free(js);
			return -1;
		}
		ir->v[v].producer = k;
		ir->v[v].needed = 1; /* the host writes every result */
		vals[i] = v;
		ir->k[k].hout[ir->k[k].nhout++] = v;
	}
	jput(&js, &jn, &jc, "], \"precision\": \"torch\"}");
	ir->k[k].hattrs = js;
	ir->nodeval[node] = vals[0];
	if (n->multi)
		ir->nodevals[node] = vals;
	else
		free(vals);
	close_cur(z);
	return 0;
bad:
	free(js);
	return npu_errf(z->e, "%s: node '%s': an argument cannot be passed to a host call",
			z->g->file, n->name);
}

/* ----------------------------------------------------------------- */
/* Views */

static int64_t wrapdim(int64_t d, int nd)
{
	return d < 0 ? d + nd : d;
}

/*
 * split, split_with_sizes, unbind: every result is a view of the input
 * (an offset along dim and the input's strides; unbind drops the dim), so
 * no code at all.  Results no getitem reads are made all the same.
 */
static int do_split(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int x, *vals, nd;
	double dd = 0;
	int64_t dim, at = 0;

	if (n->nargs < 1 || n->args[0].kind != NPU_GV_NODE ||
	    (x = node_val(z, n->args[0].u.node)) < 0)
		return host_kern(z, node, "split of this form");
	nd = ir->v[x].ndim;
	if (n->aop == NPU_AOP_UNBIND ? n->nargs > 1 && gnum(&n->args[1], &dd)
				     : n->nargs > 2 && gnum(&n->args[2], &dd))
		return host_kern(z, node, "split of this form");
	dim = wrapdim((int64_t)dd, nd);
	for (int i = 0; i < n->nmeta; i++)
		if (!tmeta(n, i))
			return host_kern(z, node, "split with symbolic meta");
	if (!(vals = calloc((size_t)n->nmeta + 1, sizeof *vals)))
		return npu_errf(z->e, "out of memory");
	for (int i = 0; i < n->nmeta; i++) {
		const npu_gmeta *m = tmeta(n, i);
		int64_t shape[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
		int k = 0;
		for (int d = 0; d < nd; d++) {
			if (n->aop == NPU_AOP_UNBIND && d == dim)
				continue;
			st[k] = ir->v[x].stride[d];
			shape[k] = m->shape[k].v;
			k++;
		}
		vals[i] = view_val(z, node, x, k, shape,
				   ir->v[x].off + at * ir->v[x].stride[dim], st);
		if (vals[i] < 0) {
			free(vals);
			return -1;
		}
		at += n->aop == NPU_AOP_UNBIND ? 1 : shape[dim];
	}
	ir->nodevals[node] = vals;
	npu_kir_decide(ir, 1, "%s: %d views of its input, no code", n->name, n->nmeta);
	return 0;
}

static int ilist(const npu_gval *v, int64_t *out, int n);

/* Computes the view node's value; 1 when it needs a copy (not expressible). */
static int do_view(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int src, v;
	int64_t shape[NPU_MAX_DIMS], st[NPU_MAX_DIMS], off;
	const npu_kval *S;
	int nd;
	double d0, d1, d2;

	if (!m || n->nargs < 1 || n->args[0].kind != NPU_GV_NODE)
		return npu_errf(z->e, "%s: node '%s': a view without a tensor input and meta",
				z->g->file, n->name);
	src = node_val(z, n->args[0].u.node);
	if (src < 0)
		return npu_errf(z->e, "%s: node '%s': its input has no value",
				z->g->file, n->name);
	S = &ir->v[src];
	nd = m->ndim;
	for (int d = 0; d < nd; d++)
		shape[d] = m->shape[d].v;
	off = S->off;
	if (npu_kir_numel(nd, shape) == 0) {
		npu_kir_contig(nd, shape, st);
		goto make;
	}
	switch (n->aop) {
	case NPU_AOP_VIEW:
	case NPU_AOP_UNSAFE_VIEW:
	case NPU_AOP_RESHAPE:
	case NPU_AOP_SQUEEZE:
	case NPU_AOP_SQUEEZE_DIM:
	case NPU_AOP_SQUEEZE_DIMS:
	case NPU_AOP_UNSQUEEZE:
		if (restride(S->ndim, S->shape, S->stride, nd, shape, st) < 0) {
			/* PyTorch would copy too: materialize, then view */
			if ((src = copy_val(z, src, node, "a view of it needs a copy")) < 0)
				return -1;
			S = &ir->v[src];
			off = 0;
			npu_kir_contig(nd, shape, st);
		}
		break;
	case NPU_AOP_PERMUTE: {
		const npu_gval *l = arg(n, 1);
		unsigned seen = 0;
		if (!l || l->kind != NPU_GV_LIST || l->u.list.n != S->ndim)
			return 1;
		for (int d = 0; d < nd; d++) {
			int64_t p = l->u.list.v[d].kind == NPU_GV_INT ?
				    wrapdim(l->u.list.v[d].u.i, nd) : -1;
			if (p < 0 || p >= S->ndim || nd != S->ndim ||
			    (seen >> p & 1) || shape[d] != S->shape[p])
				return npu_errf(z->e, "%s: node '%s': its dims are not a "
						"permutation of its input's %d, or its meta "
						"shape is not the permuted one", z->g->file,
						n->name, S->ndim);
			seen |= 1u << p;
			st[d] = S->stride[p];
		}
		break;
	}
	case NPU_AOP_TRANSPOSE:
	case NPU_AOP_T:
		memcpy(st, S->stride, sizeof st);
		if (S->ndim >= 2) {
			int64_t a = S->ndim - 2, b = S->ndim - 1, t;
			if (n->aop == NPU_AOP_TRANSPOSE) {
				if (gnum(arg(n, 1), &d0) || gnum(arg(n, 2), &d1))
					return 1;
				a = wrapdim((int64_t)d0, nd);
				b = wrapdim((int64_t)d1, nd);
			}
			t = st[a], st[a] = st[b], st[b] = t;
		}
		break;
	case NPU_AOP_EXPAND: {
		int sh = nd - S->ndim;
		for (int d = 0; d < nd; d++) {
			int sd = d - sh;
			st[d] = sd < 0 || (S->shape[sd] == 1 && shape[d] != 1) ? 0
				: S->stride[sd];
		}
		break;
	}
	case NPU_AOP_SELECT: {
		int64_t dim, idx;
		if (gnum(arg(n, 1), &d0) || gnum(arg(n, 2), &d1))
			return 1;
		dim = wrapdim((int64_t)d0, S->ndim);
		idx = (int64_t)d1;
		if (idx < 0)
			idx += S->shape[dim];
		off += idx * S->stride[dim];
		for (int d = 0, j = 0; d < S->ndim; d++)
			if (d != dim)
				st[j++] = S->stride[d];
		break;
	}
	case NPU_AOP_SLICE: {
		int64_t dim = 0, start = 0, step = 1;
		if (!gnum(arg(n, 1), &d0))
			dim = wrapdim((int64_t)d0, S->ndim);
		if (!gnum(arg(n, 2), &d1))
			start = d1 < -9e18 ? 0 : (int64_t)d1;
		if (!gnum(arg(n, 4), &d2))
			step = (int64_t)d2;
		if (start < 0)
			start += S->shape[dim];
		if (start < 0)
			start = 0;
		if (start > S->shape[dim])
			start = S->shape[dim];
		memcpy(st, S->stride, sizeof st);
		off += start * S->stride[dim];
		st[dim] *= step;
		break;
	}
	case NPU_AOP_DIAGONAL: {
		/* the other dims in order, then the diagonal, whose stride is
		 * the sum of the two dims' */
		int64_t o = 0, a = 0, b = 1;
		if (n->nargs > 1 && !gnum(arg(n, 1), &d0))
			o = (int64_t)d0;
		if (n->nargs > 2 && !gnum(arg(n, 2), &d1))
			a = wrapdim((int64_t)d1, S->ndim);
		if (n->nargs > 3 && !gnum(arg(n, 3), &d2))
			b = wrapdim((int64_t)d2, S->ndim);
		if (a == b || nd != S->ndim - 1)
			return 1;
		off += o >= 0 ? o * S->stride[b] : -o * S->stride[a];
		for (int d = 0, j = 0; d < S->ndim; d++)
			if (d != a && d != b)
				st[j++] = S->stride[d];
		st[nd - 1] = S->stride[a] + S->stride[b];
		break;
	}
	case NPU_AOP_UNFOLD: {
		/* windows along dim a, step b apart: that dim strides b
		 * elements, the new last dim (a window's) one (HaloNet's
		 * neighbourhoods) */
		int64_t a;
		if (nd != S->ndim + 1 || n->nargs < 4 || gnum(arg(n, 1), &d0) ||
		    gnum(arg(n, 3), &d2) || d2 < 1 || S->ndim < 1)
			return 1;
		a = wrapdim((int64_t)d0, S->ndim);
		memcpy(st, S->stride, sizeof st);
		st[a] = S->stride[a] * (int64_t)d2;
		st[nd - 1] = S->stride[a];
		break;
	}
	case NPU_AOP_AS_STRIDED: {
		/* strides over the storage: the input's, once contiguous */
		double so = 0;
		if (!iscontig(S) &&
		    (src = copy_val(z, src, node, "as_strided reads a contiguous storage")) < 0)
			return -1;
		S = &ir->v[src];
		if (ilist(arg(n, 2), st, nd) ||
		    (n->nargs > 3 && n->args[3].kind != NPU_GV_NONE && gnum(arg(n, 3), &so)))
			return 1;
		off = S->off + (int64_t)so;
		break;
	}
	default: /* alias, detach, lift_fresh_copy, clone as a view */
		if (nd != S->ndim)
			return 1;
		memcpy(st, S->stride, sizeof st);
		break;
	}
make:
	if ((v = view_val(z, node, src, nd, shape, off, st)) < 0)
		return -1;
	ir->nodeval[node] = v;
	return 0;
}

/* ----------------------------------------------------------------- */
/* The walk */

/* Finishes a computed value of kernel k at expression x (rounding to the
 * node's dtype as eager PyTorch does after every op). */
static int def_val_to(fz *z, int k, int node, int x, int lv, int v);

static int def_val(fz *z, int k, int node, int x, int lv)
{
	int v = meta_val(z, node, 0, z->g->nodes[node].name);

	return v < 0 ? -1 : def_val_to(z, k, node, x, lv, v);
}

/* def_val into a value of the caller's (a shape other than the node's) */
static int def_val_to(fz *z, int k, int node, int x, int lv, int v)
{
	npu_kir *ir = z->ir;

	if (ir->v[v].dtype == NPU_DT_BF16 || ir->v[v].dtype == NPU_DT_F16 ||
	    isfp8(ir->v[v].dtype)) {
		npu_xins r = { .op = NPU_X_RND, .a = x, .dtype = ir->v[v].dtype,
			       .node = node };
		if ((x = npu_kir_x(&ir->k[k], r)) < 0)
			return npu_errf(z->e, "out of memory");
	}
	ir->v[v].producer = k;
	ir->v[v].xdef = x;
	if (set_level(z, v, lv) < 0)
		return npu_errf(z->e, "out of memory");
	ir->nodeval[node] = v;
	npu_kir_addnode(&ir->k[k], node);
	return 0;
}

/* Tries to put elementwise node n into kernel k; 1 when it does not fit. */
static int rows_contiguous(const npu_kir *ir, const npu_kern *K, int rd);

static int try_ew(fz *z, int k, int node, int fresh)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int tn[8], nt = tensor_args(n, tn, 8), x[8], lv = LV_ROW, l;
	int nx0 = ir->k[k].nx, nops0 = ir->k[k].nops, r;
	int64_t shape[NPU_MAX_DIMS], numel, knumel;
	npu_kern *K = &ir->k[k];

	for (int d = 0; d < m->ndim; d++)
		shape[d] = m->shape[d].v;
	numel = npu_kir_numel(m->ndim, shape);
	knumel = npu_kir_numel(K->ndim, K->shape);
	/* x[i]: positional argument i (a tensor, or a number as a constant) */
	(void)tn;
	nt = n->nargs < 8 ? n->nargs : 8;
	for (int i = 0; i < nt; i++) {
		const npu_gval *a = &n->args[i];
		int v;
		double num;
		x[i] = -1;
		if (a->kind != NPU_GV_NODE) {
			if (!gnum(a, &num))
				x[i] = xadd(z, k, NPU_X_CONST, 0, 0, 0, 0, (float)num, node);
			continue;
		}
		if ((v = node_val(z, a->u.node)) < 0)
			return npu_errf(z->e, "%s: node '%s': argument '%s' has no tensor value",
					z->g->file, n->name, z->g->nodes[a->u.node].name);
		if ((x[i] = arg_x(z, k, v, m->ndim, shape, node, &l)) < 0) {
			if (x[i] == -1)
				return -1;
			goto nofit;
		}
		if (l == LV_ELEM)
			lv = LV_ELEM;
	}
	/* an operand whose rows are not one run (GroupNorm's per-channel
	 * weight over [N, G, C/G, H*W] rows of C/G * H*W) starts a kernel of
	 * its own instead */
	if (K->kind == NPU_KK_ROW && !rows_contiguous(ir, K, K->rdims))
		goto nofit;
	if (lv == LV_ROW && K->kind == NPU_KK_ROW) {
		int64_t rows = knumel;
		for (int d = K->ndim - K->rdims; d < K->ndim; d++)
			rows /= K->shape[d] ? K->shape[d] : 1;
		if (numel != rows && numel != knumel)
			goto nofit;
		if (numel != rows)
			lv = LV_ELEM;
	} else {
		lv = LV_ELEM;
		if (numel != knumel)
			goto nofit;
		if (K->kind == NPU_KK_ROW && fz_level(z, 0) < 0)
			goto nofit;
	}
	r = ew_expr(z, k, n, node, x, nt);
	if (r == -1)
		return -1;
	if (r == -3) {
		ir->k[k].nx = nx0;
		ir->k[k].nops = nops0;
		return 2;
	}
	if (!fresh)
		npu_kir_decide(ir, 1, "%s: fused into kernel %s (%s)", n->name,
			       K->name, npu_kkind_name(K->kind));
	return def_val(z, k, node, r, lv);
nofit:
	ir->k[k].nx = nx0;
	ir->k[k].nops = nops0;
	return 1;
}

/* Does node n read node m (an argument, a list element or a keyword)? */
static int reads(const npu_gnode *n, int m)
{
	for (int i = 0; i < n->nargs + n->nkwargs; i++) {
		const npu_gval *v = i < n->nargs ? &n->args[i] : &n->kwargs[i - n->nargs].val;
		if (v->kind == NPU_GV_NODE && v->u.node == m)
			return 1;
		if (v->kind == NPU_GV_LIST)
			for (int j = 0; j < v->u.list.n; j++)
				if (v->u.list.v[j].kind == NPU_GV_NODE && v->u.list.v[j].u.node == m)
					return 1;
	}
	return 0;
}

/* Moves the node at order position a to position b (the nodes between
 * shift by one); the caller checked that no dependence is crossed. */
static void order_move(fz *z, int a, int b)
{
	int n = z->ord[a];

	if (a < b)
		memmove(z->ord + a, z->ord + a + 1, (size_t)(b - a) * sizeof *z->ord);
	else
		memmove(z->ord + b + 1, z->ord + b, (size_t)(a - b) * sizeof *z->ord);
	z->ord[b] = n;
	for (int i = a < b ? a : b; i <= (a < b ? b : a); i++)
		z->pos[z->ord[i]] = i;
	z->moved[n] = 1;
}

/*
 * An elementwise node that fits neither the open kernel nor anything
 * before it waits until just before its first user when that user is
 * elementwise and other nodes come between: it then starts or joins the
 * kernel its user computes in, instead of a kernel of its own whose
 * result makes a DRAM round trip (RoPE's q * cos sat alone between the
 * projections and rotate_half).  The graph is functional, so moving a
 * node later, up to its first user, keeps every dependence.  1 when
 * moved.
 */
static int defer(fz *z, int node)
{
	const npu_graph *g = z->g;
	int f = -1;

	if (!z->ord || z->moved[node] || z->ir->nofuse)
		return 0;
	for (int i = z->at + 1; i < g->nnodes && f < 0; i++)
		if (reads(&g->nodes[z->ord[i]], node))
			f = i;
	if (f <= z->at + 1 || g->nodes[z->ord[f]].op != NPU_GOP_CALL_FUNCTION ||
	    npu_support_kind(g->nodes[z->ord[f]].aop) != NPU_LK_EW)
		return 0;
	npu_kir_decide(z->ir, 1, "%s: moved to just before its user %s, to compute in its kernel",
		       g->nodes[node].name, g->nodes[z->ord[f]].name);
	order_move(z, z->at, f - 1);
	return 1;
}

/*
 * The other direction: after a node, an elementwise node further on whose
 * inputs are all computed by now and one of them in the open kernel
 * moves up to come next, and so computes in that kernel from the value
 * in register (RoPE's result times the attention scale waited behind the
 * other head's RoPE).  Only nodes within a short window move.
 */
#define PULL_WINDOW 32

static void pull_forward(fz *z)
{
	const npu_graph *g = z->g;
	npu_kir *ir = z->ir;
	int k = z->cur;

	/* (ew kernels only: pulled into a matmul, a softmax's mask ops
	 * left the row kernel that took them with the softmax) */
	if (!z->ord || k < 0 || ir->nofuse || ir->k[k].kind != NPU_KK_EW ||
	    z->at + 1 >= g->nnodes)
		return;
	for (int j = z->at + 1; j < g->nnodes && j <= z->at + PULL_WINDOW; j++) {
		const npu_gnode *c = &g->nodes[z->ord[j]];
		int tn[16], nt, ready = 1, here = 0;
		if (c->op != NPU_GOP_CALL_FUNCTION || c->aop == NPU_AOP_UNKNOWN ||
		    npu_support_kind(c->aop) != NPU_LK_EW)
			continue;
		nt = tensor_args(c, tn, 16);
		for (int a = 0; a < nt && ready; a++) {
			int v = z->pos[tn[a]] <= z->at ? node_val(z, tn[a]) : -1;
			if (v < 0) {
				ready = 0;
				break;
			}
			/* in register: the value, or a contiguous reshape */
			here |= ir->v[root_of(ir, v)].producer == k &&
				ir->v[root_of(ir, v)].xdef >= 0 &&
				(root_of(ir, v) == v ||
				 (iscontig(&ir->v[v]) &&
				  npu_kir_numel(ir->v[v].ndim, ir->v[v].shape) ==
				  npu_kir_numel(ir->v[root_of(ir, v)].ndim,
						ir->v[root_of(ir, v)].shape)));
		}
		for (int a = 0; a < c->nkwargs && ready; a++)
			ready = c->kwargs[a].val.kind != NPU_GV_NODE &&
				c->kwargs[a].val.kind != NPU_GV_LIST;
		if (j == z->at + 1) {
			if (here || !ready)
				return; /* the next node uses the kernel already */
			continue;
		}
		if (!ready || !here || z->moved[z->ord[j]])
			continue;
		npu_kir_decide(ir, 1, "%s: moved up to follow %s, whose kernel %s computes its input",
			       c->name, g->nodes[z->ord[z->at]].name, ir->k[k].name);
		order_move(z, j, z->at + 1);
		return;
	}
}

/*
 * An elementwise node whose one user is a reduction, on a matmul's output
 * that is stored anyway (RMSNorm's square of the residual sum): in the
 * matmul's epilogue it is one more output stored and loaded again by the
 * reduction's kernel; computed there instead, it is the row kernel's
 * prologue.  It moves to just before its user and starts a kernel
 * there.  1 when so.
 */
static int defer_to_reduction(fz *z, int node)
{
	const npu_graph *g = z->g;
	npu_kir *ir = z->ir;
	const npu_gnode *n = &g->nodes[node];
	int f = -1, nu = 0, stored = 0, tn[8], nt = tensor_args(n, tn, 8);

	if (!z->ord || z->moved[node] || ir->nofuse || z->cur < 0 ||
	    ir->k[z->cur].kind != NPU_KK_MM)
		return 0;
	for (int i = z->at + 1; i < g->nnodes; i++)
		if (reads(&g->nodes[z->ord[i]], node)) {
			f = f < 0 ? i : f;
			nu++;
		}
	if (nu != 1 || g->nodes[z->ord[f]].op != NPU_GOP_CALL_FUNCTION ||
	    g->nodes[z->ord[f]].aop == NPU_AOP_UNKNOWN ||
	    npu_support_kind(g->nodes[z->ord[f]].aop) != NPU_LK_RED)
		return 0;
	/* an input of the matmul's kernel that another node reads as well */
	for (int a = 0; a < nt && !stored; a++) {
		int v = node_val(z, tn[a]), users = 0;
		if (v < 0 || ir->v[root_of(ir, v)].producer != z->cur)
			continue;
		/* (the nodes after this one: it is not among them) */
		for (int i = z->at + 1; i < g->nnodes; i++)
			users += reads(&g->nodes[z->ord[i]], tn[a]);
		stored = users > 0;
	}
	if (!stored)
		return 0;
	npu_kir_decide(ir, 1, "%s: moved out of matmul %s's epilogue to just before its reduction %s, whose row kernel computes it",
		       n->name, ir->k[z->cur].name, g->nodes[z->ord[f]].name);
	z->alone[node] = 1;
	order_move(z, z->at, f - 1);
	return 1;
}

/*
 * A kernel takes at most NPU_KERN_MAX_OPS operands (tile.c).  A long chain of
 * elementwise ops on fresh inputs (DenseNet's backward adds the gradients
 * of every layer that read a feature map: 60 and more) would pass that;
 * the kernel is closed before a node that could, with room kept for the
 * outputs its values may still need: at least KERN_OUT_ROOM, and one for
 * each of its nodes that a node not walked yet reads (live_outs).
 */
#define KERN_OUT_ROOM 8

/* The nodes of kernel K whose values may still be read after it, each
 * an output to come (add_stores): DenseNet's backward interleaves the
 * gradient sums of several feature maps in one kernel, each sum read by
 * a later kernel (19 outputs: PyTorch 2.11's densenet121 training graph
 * failed with 75 operands). */
static int live_outs(const fz *z, const npu_kern *K)
{
	int c = 0;

	for (int i = 0; i < K->nnodes; i++)
		c += z->pending[K->nodes[i]] > 0;
	return c;
}

static int ew_full(fz *z, int node)
{
	int tn[8], nt = tensor_args(&z->g->nodes[node], tn, 8);
	const npu_kern *K = &z->ir->k[z->cur];

	return K->nops + nt + KERN_OUT_ROOM > NPU_KERN_MAX_OPS ||
	       K->nops + nt + 1 + live_outs(z, K) > NPU_KERN_MAX_OPS;
}

static int do_ew(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int k, r;

	if (defer_to_reduction(z, node))
		return FZ_DEFER;
	if (z->alone && z->alone[node])
		close_cur(z); /* (moved here to start a kernel) */
	if (z->cur >= 0 && ew_full(z, node)) {
		npu_kir_decide(ir, 0, "%s: not fused into kernel %s: it has %d operands, near a kernel's %d",
			       n->name, ir->k[z->cur].name, ir->k[z->cur].nops, NPU_KERN_MAX_OPS);
		close_cur(z);
	}
	if (z->cur >= 0 && !ir->nofuse && ir->k[z->cur].kind != NPU_KK_HOST) {
		r = try_ew(z, z->cur, node, 0);
		if (r <= 0)
			return r;
		if (r == 2)
			return host_kern(z, node, "this form of the op has no lowering");
		if (defer(z, node))
			return FZ_DEFER;
		npu_kir_decide(ir, 0, "%s: not fused into kernel %s: %s", n->name,
			       ir->k[z->cur].name,
			       "different index space, or reads a view of a value computed there");
	} else if (z->cur >= 0 && ir->nofuse) {
		npu_kir_decide(ir, 0, "%s: not fused: fusion is off (--no-fuse)", n->name);
	} else if (defer(z, node)) {
		return FZ_DEFER;
	}
	if ((k = new_kern(z, NPU_KK_EW, node)) < 0)
		return -1;
	ir->k[k].ndim = m->ndim;
	for (int d = 0; d < m->ndim; d++)
		ir->k[k].shape[d] = m->shape[d].v;
	z->cur = k;
	r = try_ew(z, k, node, 1);
	if (r == 1 || r == 2) {
		/* cannot even start a kernel with it */
		ir->nk--;
		free(ir->k[k].name);
		free(ir->k[k].nodes);
		free(ir->k[k].ops);
		free(ir->k[k].x);
		z->cur = -1;
		return host_kern(z, node, "operands not expressible as strided reads");
	}
	return r;
}

/* Reduction dims of a RED node: count of trailing dims reduced, 0 if not trailing. */
static int red_dims(const npu_gnode *n, int nd)
{
	const npu_gval *l = arg(n, 1);
	int mask = 0, r = 0;

	if (n->aop == NPU_AOP_VAR) {
		if (!l || l->kind == NPU_GV_NONE)
			return 0;
	}
	if (!l || l->kind == NPU_GV_NONE)
		return 0;
	if (l->kind == NPU_GV_INT) {
		mask = 1 << wrapdim(l->u.i, nd);
	} else if (l->kind == NPU_GV_LIST) {
		if (!l->u.list.n)
			return 0;
		for (int i = 0; i < l->u.list.n; i++) {
			int64_t d = wrapdim(l->u.list.v[i].u.i, nd);
			if (d < 0 || d >= nd)
				return 0;
			mask |= 1 << d;
		}
	} else {
		return 0;
	}
	for (int d = nd - 1; d >= 0 && (mask >> d & 1); d--)
		r++;
	return (mask >> (nd - r)) == ((1 << r) - 1) && !(mask & ((1 << (nd - r)) - 1)) ? r : 0;
}

/* Whether kernel K, made a row kernel over its last rd dims, would read
 * every operand's rows as one contiguous run (a strided view, such as a
 * pooling or grouped-convolution tap, does not: such a kernel cannot take
 * the reduction). */
static int rows_contiguous(const npu_kir *ir, const npu_kern *K, int rd)
{
	npu_kern t = *K;
	int64_t n[NPU_MAX_DIMS], st[NPU_KERN_MAX_OPS][NPU_MAX_DIMS];
	int q;

	if (K->nops > NPU_KERN_MAX_OPS)
		return 0;
	t.kind = NPU_KK_ROW;
	t.rdims = rd;
	return npu_emit_dims(ir, &t, n, st, &q) == 0;
}

/*
 * The value of a copy kernel copy_val made earlier of exactly view v (its
 * one load of the same root, offset and strides, over v's shape, and
 * nothing fused since), or -1: a BatchNorm's mean and variance reduce the
 * same input over N, H and W, each through a copy that puts those dims
 * last, and the second copy would repeat the first.
 */
static int copy_of(fz *z, int v)
{
	const npu_kir *ir = z->ir;
	const npu_kval *V = &ir->v[v];
	int64_t st[NPU_MAX_DIMS];
	int root = root_of(ir, v);

	if (V->isconst || bcast_strides(V, V->ndim, V->shape, st) < 0)
		return -1;
	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		if (K->kind != NPU_KK_EW || K->nops != 1 || K->nx != 1 ||
		    K->x[0].op != NPU_X_LOAD || K->ops[0].out || K->ops[0].val != root ||
		    K->ops[0].off != V->off || K->ndim != V->ndim ||
		    memcmp(K->shape, V->shape, (size_t)V->ndim * sizeof *V->shape) ||
		    memcmp(K->ops[0].stride, st, (size_t)V->ndim * sizeof *st))
			continue;
		for (int w = 0; w < ir->nv; w++)
			if (ir->v[w].producer == k && ir->v[w].xdef == 0 &&
			    ir->v[w].root < 0 && ir->v[w].dtype == V->dtype)
				return w;
	}
	return -1;
}

/*
 * View v of a value the open elementwise kernel computes, with its dims
 * permuted (red_trailing's), stored by that kernel a second time in the
 * permuted order, contiguous: the new value, -2 when v is not such a
 * view (no copy kernel then reloads what the kernel has just stored: a
 * backward graph's BatchNorm and bias gradients sum over N, H, W what
 * the kernel before them computes).  Closes the kernel, so that the
 * reduction does not join it over the other order.
 */
static int store_permuted(fz *z, int v, int node)
{
	npu_kir *ir = z->ir;
	const npu_kval *V = &ir->v[v];
	int root = root_of(ir, v), k = z->cur, perm[NPU_MAX_DIMS], nv, o;
	unsigned taken = 0;
	int64_t cst[NPU_MAX_DIMS], vst[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
	const npu_kval *R = &ir->v[root];
	const npu_kern *K;
	char name[256];

	if (k < 0 || ir->nofuse || root == v || V->isconst || V->off ||
	    R->producer != k || R->xdef < 0 || fz_level(z, root) != LV_ELEM ||
	    R->ndim != V->ndim)
		return -2;
	K = &ir->k[k];
	if (K->kind != NPU_KK_EW || K->ndim != R->ndim ||
	    memcmp(K->shape, R->shape, (size_t)R->ndim * sizeof *R->shape))
		return -2;
	/* v's dim d is R's dim perm[d]: a dim of more than one element the
	 * one of its size and stride, a dim of one any of R's left (its
	 * index is always 0) */
	npu_kir_contig(R->ndim, R->shape, cst);
	for (int one = 0; one < 2; one++)
		for (int d = 0; d < V->ndim; d++) {
			if ((V->shape[d] == 1) != one)
				continue;
			perm[d] = -1;
			for (int e = 0; e < R->ndim && perm[d] < 0; e++)
				if (!(taken >> e & 1) && V->shape[d] == R->shape[e] &&
				    (one || V->stride[d] == cst[e]))
					perm[d] = e;
			if (perm[d] < 0)
				return -2;
			taken |= 1u << perm[d];
		}
	snprintf(name, sizeof name, "%s.perm", V->name);
	if ((nv = npu_kir_val(ir, name, V->node, V->dtype, V->ndim, V->shape)) < 0)
		return npu_errf(z->e, "out of memory");
	V = &ir->v[v];  /* (the table may have moved) */
	R = &ir->v[root];
	/* its elements over the kernel's space: R's element at index i of
	 * dim perm[d] goes to nv's dim d */
	npu_kir_contig(V->ndim, V->shape, vst);
	for (int d = 0; d < V->ndim; d++)
		st[perm[d]] = vst[d];
	/* (the store is the reduction's: the kernel lists its node too) */
	if ((o = npu_kir_opnd(&ir->k[k], nv, 1, 0, st)) < 0 ||
	    xadd(z, k, NPU_X_STORE, 0, ir->v[root].xdef, o, 0, 0, node) < 0 ||
	    npu_kir_addnode(&ir->k[k], node) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[nv].producer = k;
	ir->v[nv].needed = 1;
	npu_kir_decide(ir, 1, "%s: kernel %s also stores %s with the reduced dims last (no copy)",
		       z->g->nodes[node].name, ir->k[k].name, R->name);
	close_cur(z);
	return nv;
}

/* A contiguous copy of view v for a reduction (why): copy_of's, the
 * kernel computing it storing it so too, else a copy kernel. */
static int red_copy(fz *z, int v, int node, const char *why)
{
	int cp = copy_of(z, v);

	if (cp >= 0) {
		npu_kir_decide(z->ir, 1, "%s: reads the copy %s made of the same view",
			       z->g->nodes[node].name, z->ir->v[cp].name);
		return cp;
	}
	if ((cp = store_permuted(z, v, node)) != -2)
		return cp;
	return copy_val(z, v, node, why);
}

/*
 * A reduction over dims that are not the trailing ones (a bias gradient
 * sums over dim 0, BatchNorm's over 0, 2, 3; dims [] or None mean all):
 * the same reduction over the trailing dims of a copy of the input with
 * the kept dims first, in order, and the reduced ones last, so the
 * reduced rows are contiguous and the results come out in the kept dims'
 * order, which is the output's.  *src and *rd change; *rd stays 0 when
 * the dims are not a list of distinct dims.
 */
static int red_trailing(fz *z, int node, int *src, int *rd)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gval *l = arg(n, 1);
	const npu_kval *S = &ir->v[*src];
	int nd = S->ndim, mask = 0, perm[NPU_MAX_DIMS], np = 0, v, ident = 1;
	int64_t sh[NPU_MAX_DIMS], st[NPU_MAX_DIMS];

	if (!l || l->kind == NPU_GV_NONE || (l->kind == NPU_GV_LIST && !l->u.list.n)) {
		mask = (1 << nd) - 1;
	} else if (l->kind == NPU_GV_INT) {
		mask = 1 << wrapdim(l->u.i, nd);
	} else if (l->kind == NPU_GV_LIST) {
		for (int i = 0; i < l->u.list.n; i++) {
			int64_t d = l->u.list.v[i].kind == NPU_GV_INT
				    ? wrapdim(l->u.list.v[i].u.i, nd) : -1;
			if (d < 0 || d >= nd || (mask >> d & 1))
				return 0;
			mask |= 1 << d;
		}
	} else {
		return 0;
	}
	for (int d = 0; d < nd; d++)
		if (!(mask >> d & 1))
			perm[np++] = d;
	*rd = nd - np;
	for (int d = 0; d < nd; d++)
		if (mask >> d & 1)
			perm[np++] = d;
	for (int d = 0; d < nd; d++) {
		sh[d] = S->shape[perm[d]];
		st[d] = S->stride[perm[d]];
		ident &= perm[d] == d;
	}
	if (ident)
		return 0;
	if ((v = view_val(z, node, *src, nd, sh, S->off, st)) < 0)
		return -1;
	if ((v = red_copy(z, v, node, "a reduction over dims that are not trailing reads it with those dims last")) < 0)
		return -1;
	*src = v;
	return 0;
}

/* Row kernel k's softmax of expression x over its reduced dim: the max,
 * the exponentials of x less it, their sum, the quotients. */
static int softmax_x(fz *z, int k, int x, int node)
{
#define XA(op, vop, a, b) xadd(z, k, NPU_X_##op, NPU_OP_##vop, a, b, 0, 0, node)
	int mx = XA(RFIN, NOP, XA(RED, VMAX, x, 0), 0);
	int ex = XA(UN, VEXP, XA(BIN, VSUB, x, mx), 0);
	int s = XA(RFIN, NOP, XA(RED, VADD, ex, 0), 0);

	return XA(BIN, VDIV, ex, s);
#undef XA
}

/*
 * Softmax over dim dd, not the last (ConvBERT's over its kernel taps):
 * a copy of the input with dd moved last, a row kernel over that order,
 * and the node's value a view of its result with the dims put back.
 */
static int softmax_moved(fz *z, int node, int src, int dd)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int nd = ir->v[src].ndim, perm[NPU_MAX_DIMS], k, x, lv, r, pv, v;
	int64_t sh[NPU_MAX_DIMS], st[NPU_MAX_DIMS], osh[NPU_MAX_DIMS], ost[NPU_MAX_DIMS];
	char name[300];

	for (int d = 0, o = 0; d < nd; d++)
		if (d != dd)
			perm[o++] = d;
	perm[nd - 1] = dd;
	for (int d = 0; d < nd; d++) {
		sh[d] = ir->v[src].shape[perm[d]];
		st[d] = ir->v[src].stride[perm[d]];
		osh[d] = ir->v[src].shape[d];
	}
	if ((v = view_val(z, node, src, nd, sh, ir->v[src].off, st)) < 0 ||
	    (v = copy_val(z, v, node, "a softmax over a dim that is not the last reads it with that dim last")) < 0 ||
	    (k = new_kern(z, NPU_KK_ROW, node)) < 0)
		return -1;
	ir->k[k].ndim = nd;
	memcpy(ir->k[k].shape, sh, sizeof sh);
	ir->k[k].rdims = 1;
	z->cur = k;
	if ((x = arg_x(z, k, v, nd, sh, node, &lv)) < 0)
		return x == -1 ? -1 : host_kern(z, node, "input not readable");
	r = softmax_x(z, k, x, node);
	snprintf(name, sizeof name, "%s.moved", n->name);
	if (r < 0 || !tmeta(n, 0) ||
	    (pv = npu_kir_val(ir, name, node, tmeta(n, 0)->dtype, nd, sh)) < 0)
		return npu_errf(z->e, "out of memory");
	if (def_val_to(z, k, node, r, LV_ELEM, pv) < 0)
		return -1;
	ir->v[pv].needed = 1;
	/* pv is contiguous in the moved order: dim perm[d] has its stride */
	for (int d = 0; d < nd; d++)
		ost[perm[d]] = ir->v[pv].stride[d];
	if ((v = view_val(z, node, pv, nd, osh, 0, ost)) < 0)
		return -1;
	ir->nodeval[node] = v;
	npu_kir_decide(ir, 1, "%s: softmax over dim %d as a row kernel over a copy with that dim last",
		       n->name, dd);
	close_cur(z);
	return 0;
}

/* Whether the last rd dims of S (size-1 dims aside) are one run, as a
 * row kernel reads its reduced dims (npu_emit_dims): a sum of every
 * element of a column slice (chunk's last piece) is not. */
static int red_one_run(const npu_kval *S, int rd)
{
	int64_t prev = -1;

	for (int d = S->ndim - 1; d >= S->ndim - rd; d--) {
		if (S->shape[d] == 1)
			continue;
		if (prev >= 0 && S->stride[d] != S->stride[prev] * S->shape[prev])
			return 0;
		prev = d;
	}
	return 1;
}

static int do_red(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int src = node_val(z, n->args[0].u.node), k = -1, x, lv, r, rd;
	const npu_kval *S = &ir->v[src];
	int64_t C = 1;
	double corr = 1;
	int sm = n->aop == NPU_AOP_SOFTMAX, moved = 0;

	if (sm) {
		double dim;
		if (gnum(arg(n, 1), &dim) || S->ndim == 0)
			return host_kern(z, node, "softmax of this form");
		if (wrapdim((int64_t)dim, S->ndim) != S->ndim - 1)
			return softmax_moved(z, node, src, (int)wrapdim((int64_t)dim, S->ndim));
		rd = 1;
	} else {
		rd = red_dims(n, S->ndim);
	}
	if (!rd && S->ndim > 0 && !sm) {
		int before = src;
		if ((r = red_trailing(z, node, &src, &rd)) < 0)
			return -1;
		moved = src != before;
		S = &ir->v[src];
	}
	if (!rd || S->ndim == 0)
		return host_kern(z, node, "reduction over dims that are not trailing");
	if (!red_one_run(S, rd)) {
		if ((src = red_copy(z, src, node, "a reduction reads a contiguous copy of a view whose reduced dims are not one run")) < 0)
			return -1;
		S = &ir->v[src];
	}
	if (n->aop == NPU_AOP_SUM_DIM && npu_gnode_kwarg(n, "dtype"))
		return host_kern(z, node, "sum with a dtype argument");
	if (n->aop == NPU_AOP_VAR) {
		const npu_gval *c = npu_gnode_kwarg(n, "correction");
		if (c && gnum(c, &corr))
			corr = 1;
	}
	for (int d = S->ndim - rd; d < S->ndim; d++)
		C *= S->shape[d];
	/* join: the open kernel computes src elementwise over src's shape */
	if (z->cur >= 0 && !ir->nofuse) {
		npu_kern *K = &ir->k[z->cur];
		int root = root_of(ir, src);
		if ((K->kind == NPU_KK_EW || (K->kind == NPU_KK_ROW && K->rdims == rd)) &&
		    ir->v[root].producer == z->cur && root == src &&
		    fz_level(z, src) == LV_ELEM && K->ndim == S->ndim &&
		    !memcmp(K->shape, S->shape, (size_t)S->ndim * sizeof *S->shape) &&
		    rows_contiguous(ir, K, rd)) {
			k = z->cur;
			if (K->kind == NPU_KK_EW)
				npu_kir_decide(ir, 1, "%s: reduction fused with its elementwise prologue in kernel %s (row)",
					       n->name, K->name);
			else
				npu_kir_decide(ir, 1, "%s: reduction fused into row kernel %s",
					       n->name, K->name);
			K->kind = NPU_KK_ROW;
			K->rdims = rd;
		} else {
			npu_kir_decide(ir, 0, "%s: reduction not fused into kernel %s: its input is not computed there over the same rows",
				       n->name, K->name);
		}
	}
	if (k < 0) {
		if ((k = new_kern(z, NPU_KK_ROW, node)) < 0)
			return -1;
		ir->k[k].ndim = S->ndim;
		memcpy(ir->k[k].shape, S->shape, sizeof S->shape);
		ir->k[k].rdims = rd;
		z->cur = k;
	}
	if ((x = arg_x(z, k, src, S->ndim, S->shape, node, &lv)) < 0)
		return x == -1 ? -1 : host_kern(z, node, "input not readable");
#define XA(op, vop, a, b, c, f) xadd(z, k, NPU_X_##op, NPU_OP_##vop, a, b, c, (float)(f), node)
	switch (n->aop) {
	case NPU_AOP_SUM_DIM:
		r = XA(RFIN, NOP, XA(RED, VADD, x, 0, 0, 0), 0, 0, 0);
		break;
	case NPU_AOP_MEAN_DIM:
		r = XA(RFIN, NOP, XA(RED, VADD, x, 0, 0, 0), 0, 0, 0);
		r = XA(BINI, VDIVI, r, 0, 0, (double)C);
		break;
	case NPU_AOP_AMAX:
		r = XA(RFIN, NOP, XA(RED, VMAX, x, 0, 0, 0), 0, 0, 0);
		break;
	case NPU_AOP_ANY_DIM: /* max of (x != 0) */
		x = XA(UN, VNOT, XA(UN, VNOT, x, 0, 0, 0), 0, 0, 0);
		r = XA(RFIN, NOP, XA(RED, VMAX, x, 0, 0, 0), 0, 0, 0);
		break;
	case NPU_AOP_VAR: {
		int mean = XA(RFIN, NOP, XA(RED, VADD, x, 0, 0, 0), 0, 0, 0), d;
		mean = XA(BINI, VDIVI, mean, 0, 0, (double)C);
		d = XA(BIN, VSUB, x, mean, 0, 0);
		d = XA(BIN, VMUL, d, d, 0, 0);
		r = XA(RFIN, NOP, XA(RED, VADD, d, 0, 0, 0), 0, 0, 0);
		r = XA(BINI, VDIVI, r, 0, 0, (double)C - corr);
		break;
	}
	default: /* _softmax */
		return def_val(z, k, node, softmax_x(z, k, x, node), LV_ELEM);
	}
#undef XA
	r = def_val(z, k, node, r, LV_ROW);
	/* the kernel walks the input with the reduced dims moved last: an
	 * elementwise op over the input's own order must not join it */
	if (moved)
		close_cur(z);
	return r;
}

/* Constant operand for mm: the view of a CONST folded into a new
 * contiguous CONST (the weight transposes of linear layers). */
/* Copies the elements of constant view v (of a value with cdata) to dst
 * at element offset off with strides dst_st (v's shape). */
static void const_copy(const npu_kir *ir, int v, uint8_t *dst, int64_t off,
		       const int64_t *dst_st)
{
	const npu_kval *V = &ir->v[v];
	const uint8_t *src = ir->v[root_of(ir, v)].cdata;
	int esz = npu_dtype_size(V->dtype);
	int64_t n = npu_kir_numel(V->ndim, V->shape), idx[NPU_MAX_DIMS] = { 0 };

	for (int64_t i = 0; i < n; i++) {
		int64_t so = V->off, to = off;
		for (int d = 0; d < V->ndim; d++) {
			so += idx[d] * V->stride[d];
			to += idx[d] * dst_st[d];
		}
		memcpy(dst + to * esz, src + so * esz, (size_t)esz);
		for (int d = V->ndim - 1; d >= 0; d--) {
			if (++idx[d] < V->shape[d])
				break;
			idx[d] = 0;
		}
	}
}

/* A new value owning `bytes` (malloc'd) as its constant data. */
static void own_const(npu_kir *ir, int nv, uint8_t *bytes)
{
	ir->v[nv].kind = NPU_BUF_CONST;
	ir->v[nv].cown = bytes;
	ir->v[nv].cdata = bytes;
	ir->v[nv].needed = 1;
}

static int fold_const_view(fz *z, int v)
{
	npu_kir *ir = z->ir;
	const npu_kval *V = &ir->v[v];
	int nv, esz = npu_dtype_size(V->dtype);
	int64_t n = npu_kir_numel(V->ndim, V->shape), st[NPU_MAX_DIMS];
	uint8_t *dst;

	if ((nv = npu_kir_val(ir, V->name, V->node, V->dtype, V->ndim, V->shape)) < 0)
		return npu_errf(z->e, "out of memory");
	if (!(dst = malloc((size_t)(n * esz) + 1)))
		return npu_errf(z->e, "out of memory");
	npu_kir_contig(ir->v[v].ndim, ir->v[v].shape, st);
	const_copy(ir, v, dst, 0, st);
	own_const(ir, nv, dst);
	npu_kir_decide(ir, 1, "%s: constant view folded at compile time", ir->v[v].name);
	return nv;
}

/*
 * Is V a transposed matrix (a row's elements apart, its column's next to
 * each other): a matmul's A or B panel loads it as it is, each DRAM
 * column one burst range (npu_emit_dma), so k^T, or X^T in a weight's
 * gradient, needs no copy of its own.
 */
static int transposed_mat(const npu_kval *V)
{
	int nd = V->ndim;

	return !V->isconst && nd >= 2 && V->stride[nd - 2] == 1 && V->shape[nd - 2] > 1 &&
	       V->shape[nd - 1] > 1 && V->stride[nd - 1] >= V->shape[nd - 2] &&
	       (nd < 3 || V->stride[0] != 0 || V->shape[0] == 1);
}

/* A matmul operand: contiguous rows (inner stride 1, no broadcast
 * rows), or transposed, else a copy that has them. */
static int mm_operand(fz *z, int v, int node)
{
	npu_kir *ir = z->ir;
	const npu_kval *V = &ir->v[v];
	int nd = V->ndim, root = root_of(ir, v);

	if (!V->isconst && nd >= 2 && (V->stride[nd - 1] == 1 || V->shape[nd - 1] == 1) &&
	    V->stride[nd - 2] >= V->shape[nd - 1] && (nd < 3 || V->stride[0] != 0 || V->shape[0] == 1))
		return v;
	if (transposed_mat(V))
		return v;
	if (!V->isconst && ir->v[root].kind == NPU_BUF_CONST && ir->v[root].cdata)
		return fold_const_view(z, v);
	return copy_val(z, v, node, "a matmul operand needs contiguous rows");
}

/*
 * fp32 matmul precision high/medium: the operand as bf16 parts, hi =
 * bf16(x) and (high) lo = bf16(x - hi), so that hi.hi + lo.hi + hi.lo
 * recovers about 16 bits of each product.  Constants are split here, at
 * compile time; other values by an ew kernel.  Writes the parts' values.
 */
static int split_bf16(fz *z, int v, int node, int nparts, int *hi, int *lo)
{
	npu_kir *ir = z->ir;
	const npu_kval *V = &ir->v[v];
	int root = root_of(ir, v), k, x, h, o;
	int64_t n = npu_kir_numel(V->ndim, V->shape), st[NPU_MAX_DIMS];
	char nm[300];

	*lo = -1;
	snprintf(nm, sizeof nm, "%s.hi", V->name);
	if ((*hi = npu_kir_val(ir, nm, V->node, NPU_DT_BF16, V->ndim, V->shape)) < 0)
		return npu_errf(z->e, "out of memory");
	if (nparts > 1) {
		snprintf(nm, sizeof nm, "%s.lo", ir->v[v].name);
		if ((*lo = npu_kir_val(ir, nm, ir->v[v].node, NPU_DT_BF16,
				       ir->v[v].ndim, ir->v[v].shape)) < 0)
			return npu_errf(z->e, "out of memory");
	}
	V = &ir->v[v];
	if (!V->isconst && V->root < 0 && V->kind == NPU_BUF_CONST && V->cdata) {
		uint16_t *ph = malloc((size_t)n * 2 + 2), *pl = malloc((size_t)n * 2 + 2);
		if (!ph || !pl) {
			free(ph);
			free(pl);
			return npu_errf(z->e, "out of memory");
		}
		for (int64_t i = 0; i < n; i++) {
			float f = npu_load_f32(NPU_DT_F32, V->cdata, (size_t)i);
			ph[i] = npu_f32_to_bf16(f);
			pl[i] = npu_f32_to_bf16(f - npu_bf16_to_f32(ph[i]));
		}
		ir->v[*hi].kind = NPU_BUF_CONST;
		ir->v[*hi].cdata = ir->v[*hi].cown = ph;
		ir->v[*hi].needed = 1;
		if (*lo >= 0) {
			ir->v[*lo].kind = NPU_BUF_CONST;
			ir->v[*lo].cdata = ir->v[*lo].cown = pl;
			ir->v[*lo].needed = 1;
		} else {
			free(pl);
		}
		npu_kir_decide(ir, 1, "%s: split into %d bf16 part(s) at compile time",
			       V->name, nparts);
		return 0;
	}
	if ((k = new_kern(z, NPU_KK_EW, node)) < 0)
		return -1;
	snprintf(nm, sizeof nm, "%s.split", ir->v[v].name);
	free(ir->k[k].name);
	ir->k[k].name = strdup(nm);
	ir->k[k].ndim = ir->v[v].ndim;
	memcpy(ir->k[k].shape, ir->v[v].shape, sizeof ir->k[k].shape);
	if (bcast_strides(&ir->v[v], ir->v[v].ndim, ir->v[v].shape, st) < 0)
		return npu_errf(z->e, "internal: split of %s", ir->v[v].name);
	ir->v[root].needed = 1;
	o = npu_kir_opnd(&ir->k[k], root, 0, ir->v[v].off, st);
	x = xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node);
	h = xadd(z, k, NPU_X_RND, 0, x, 0, 0, 0, node);
	ir->k[k].x[h].dtype = NPU_DT_BF16;
	ir->v[*hi].producer = k;
	ir->v[*hi].xdef = h;
	ir->v[*hi].needed = 1;
	set_level(z, *hi, LV_ELEM);
	if (*lo >= 0) {
		int d = xadd(z, k, NPU_X_BIN, NPU_OP_VSUB, x, h, 0, 0, node);
		ir->v[*lo].producer = k;
		ir->v[*lo].xdef = d;
		ir->v[*lo].needed = 1;
		set_level(z, *lo, LV_ELEM);
	}
	npu_kir_decide(ir, 1, "%s: split into %d bf16 part(s) by kernel %s",
		       ir->v[v].name, nparts, nm);
	close_cur(z);
	return 0;
}

/*
 * Why _int_mm cannot run on the array, or NULL.  The epilogue reads the
 * int32 accumulator into fp32 lanes, exact while |sum| <= 2^24: int8
 * products are at most 2^14 in magnitude, so K <= 1024 keeps every sum
 * (and the int32 result stored back) bit-exact.
 */
static const char *int_mm_refusal(const npu_kir *ir, int a, int b,
				  const npu_gmeta *m)
{
	const npu_kval *A = &ir->v[a], *B = &ir->v[b];

	if (A->dtype != NPU_DT_I8 || B->dtype != NPU_DT_I8 ||
	    m->dtype != NPU_DT_I32)
		return "_int_mm other than int8 x int8 -> int32";
	if (A->shape[A->ndim - 1] > 1024)
		return "_int_mm with K > 1024 (int32 sums beyond fp32's exact "
		       "range in the epilogue)";
	return NULL;
}

/*
 * Why _scaled_mm cannot run on the array, or NULL: both operands of one
 * float8 type (the array converts them exactly and accumulates in fp32),
 * a float32/bf16/fp16 result, no scale_result.  The scales and the bias
 * are epilogue operands.
 */
static const char *scaled_mm_refusal(fz *z, const npu_gnode *n, int a, int b)
{
	const npu_gval *sr = n->nargs > 5 ? &n->args[5] : npu_gnode_kwarg(n, "scale_result");

	if (!isfp8(z->ir->v[a].dtype) || z->ir->v[a].dtype != z->ir->v[b].dtype)
		return "_scaled_mm other than float8 x float8 of one type";
	if (!isfloat(tmeta(n, 0)->dtype))
		return "_scaled_mm with a float8 result";
	if (sr && sr->kind != NPU_GV_NONE)
		return "_scaled_mm with scale_result";
	return NULL;
}

/* _scaled_mm's epilogue: acc * scale_a * scale_b (+ bias); the value,
 * -1 on error, -2 when an operand does not broadcast. */
static int scaled_epilogue(fz *z, int k, int node, int x, const int64_t *oshape)
{
	static const char *const names[] = { "scale_a", "scale_b", "bias" };
	const npu_gnode *n = &z->g->nodes[node];

	for (int i = 2; i <= 4 && x >= 0; i++) {
		const npu_gval *g = i < n->nargs ? &n->args[i]
						 : npu_gnode_kwarg(n, names[i - 2]);
		int v, lv, sx;
		if (!g || g->kind == NPU_GV_NONE)
			continue;
		if (g->kind != NPU_GV_NODE || (v = node_val(z, g->u.node)) < 0)
			return -2;
		if ((sx = arg_x(z, k, v, 2, oshape, node, &lv)) < 0)
			return sx == -1 ? -1 : -2;
		x = xadd(z, k, NPU_X_BIN, i < 4 ? NPU_OP_VMUL : NPU_OP_VADD, x, sx,
			 0, 0, node);
	}
	return x;
}

/*
 * Plain matmuls of one input by frozen weights (a transformer's q, k and v
 * projections; the MLP's gate and up) a few nodes apart: one matmul over
 * the weights side by side, each node's value a slice of its columns.
 * Each of them was a kernel of its own that paid the DRAM latencies, the
 * array's fill and drain and a hand-off, for 32 rows.  Their epilogues
 * are lost (an op on a slice reads it from DRAM in a kernel of its own),
 * so only matmuls that have none on their own are taken along, and the
 * first only when others join it.
 */
#define MMG_WINDOW 16
#define MMG_MAX 4

static int do_placeholder(fz *z, int node);

/* A constant [kk][n] value of type dt holding data, which the IR then
 * owns (freed here on failure); its index or -1. */
static int own_matrix(fz *z, int node, const char *name, int dt, int64_t kk,
		      int64_t n, void *data)
{
	npu_kir *ir = z->ir;
	int64_t shp[2] = { kk, n };
	int b = npu_kir_val(ir, name, node, dt, 2, shp);

	if (b < 0) {
		free(data);
		return npu_errf(z->e, "out of memory");
	}
	ir->v[b].kind = NPU_BUF_CONST;
	ir->v[b].cdata = ir->v[b].cown = data;
	ir->v[b].needed = 1;
	return b;
}

/*
 * One matmul kernel C[m][n] = A . B by that constant B [kk][n] (mm_group,
 * adaptive_mm), A read from value a at element offset aoff with row and
 * column strides ars, acs; C a new contiguous value `name` of type odt,
 * its result.  Its index (the kernel in *kp), or -1.
 */
static int mm_by_const(fz *z, int node, const char *name, int a, int64_t aoff,
		       int64_t ars, int64_t acs, int b, int64_t m, int64_t n,
		       int64_t kk, int dt, int odt, int *kp)
{
	npu_kir *ir = z->ir;
	int64_t shp[2] = { m, n };
	int64_t sa[NPU_MAX_DIMS] = { 0, ars, acs }, sb[NPU_MAX_DIMS] = { 0, n, 1 };
	int ov, k, x;

	if ((ov = npu_kir_val(ir, name, node, odt, 2, shp)) < 0 ||
	    (k = new_kern(z, NPU_KK_MM, node)) < 0)
		return npu_errf(z->e, "out of memory");
	npu_kern *K = &ir->k[k];
	K->ndim = 2;
	K->shape[0] = m;
	K->shape[1] = n;
	K->mm_batch = 1;
	K->mm_m = m;
	K->mm_n = n;
	K->mm_k = kk;
	K->mm_dtype = dt;
	K->mm_passes = 1;
	ir->v[root_of(ir, a)].needed = 1;
	K->mm_a = npu_kir_opnd(K, root_of(ir, a), 0, aoff, sa);
	K->mm_b = npu_kir_opnd(K, b, 0, 0, sb);
	if (K->mm_a < 0 || K->mm_b < 0 ||
	    (x = xadd(z, k, NPU_X_ACC, 0, 0, 0, 0, 0, node)) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[ov].producer = k;
	ir->v[ov].xdef = x;
	ir->v[ov].needed = 1;
	if (set_level(z, ov, LV_ELEM) < 0)
		return npu_errf(z->e, "out of memory");
	*kp = k;
	return ov;
}


/* The frozen, contiguous [K][N] weight value of B node b (walked now if
 * it is a placeholder or get_attr still ahead), or -1. */
static int mmg_weight(fz *z, int b)
{
	npu_kir *ir = z->ir;
	const npu_gnode *bn = &z->g->nodes[b];
	int v;

	if (z->pos[b] > z->at) {
		if (bn->op != NPU_GOP_PLACEHOLDER && bn->op != NPU_GOP_GET_ATTR)
			return -1; /* (no arguments: walking it early is safe) */
		if (do_placeholder(z, b) < 0)
			return -2;
		z->done[b] = 1;
	}
	v = node_val(z, b);
	if (v < 0 || ir->v[v].root >= 0 || ir->v[v].kind != NPU_BUF_CONST ||
	    !ir->v[v].cdata || ir->v[v].ndim != 2 || !iscontig(&ir->v[v]))
		return -1;
	return v;
}

/* Does node c have an elementwise user, directly or through reshapes
 * (an epilogue it would lose)?  (Users through permutes and slices read
 * a view, which no epilogue takes.) */
static int mmg_epilogue(fz *z, int c, int depth)
{
	const npu_graph *g = z->g;

	for (int i = z->pos[c] + 1; i < g->nnodes; i++) {
		const npu_gnode *u = &g->nodes[z->ord[i]];
		if (u->op != NPU_GOP_CALL_FUNCTION || u->aop == NPU_AOP_UNKNOWN ||
		    !reads(u, c))
			continue;
		if (npu_support_kind(u->aop) == NPU_LK_EW)
			return 1;
		if ((u->aop == NPU_AOP_VIEW || u->aop == NPU_AOP_UNSAFE_VIEW ||
		     u->aop == NPU_AOP_RESHAPE || u->aop == NPU_AOP_UNSQUEEZE ||
		     u->aop == NPU_AOP_SQUEEZE || u->aop == NPU_AOP_SQUEEZE_DIM) &&
		    depth < 4 && mmg_epilogue(z, z->ord[i], depth + 1))
			return 1;
	}
	return 0;
}

/* 1 when node (an mm with A value a, weight value b) was computed with
 * partners; 0 when it goes alone; -1 on error. */
static int mm_group(fz *z, int node, int a, int b)
{
	npu_kir *ir = z->ir;
	const npu_graph *g = z->g;
	const npu_gnode *n = &g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int part[MMG_MAX], w[MMG_MAX], np = 1, dt = ir->v[a].dtype, k, ov;
	int64_t M, KK, N = 0, at = 0, esz = npu_dtype_size(dt);
	uint8_t *cat;
	char name[256];

	if (!z->ord || ir->nofuse || n->aop != NPU_AOP_MM || m->ndim != 2 ||
	    m->shape[0].sym || m->shape[1].sym || ir->v[a].ndim != 2 ||
	    (dt == NPU_DT_F32 && ir->fp32prec > 0) || ir->v[b].root >= 0 ||
	    ir->v[b].kind != NPU_BUF_CONST || !ir->v[b].cdata || !iscontig(&ir->v[b]) ||
	    n->args[0].kind != NPU_GV_NODE || mmg_epilogue(z, node, 0))
		return 0;
	M = m->shape[0].v;
	KK = ir->v[b].shape[0];
	part[0] = node;
	w[0] = b;
	for (int j = z->at + 1; j < g->nnodes && j <= z->at + MMG_WINDOW && np < MMG_MAX; j++) {
		int c = z->ord[j], wv;
		const npu_gnode *cn = &g->nodes[c];
		const npu_gmeta *cm = tmeta(cn, 0);
		if (cn->op != NPU_GOP_CALL_FUNCTION || cn->aop != NPU_AOP_MM ||
		    cn->nargs < 2 || cn->args[0].kind != NPU_GV_NODE ||
		    cn->args[0].u.node != n->args[0].u.node ||
		    cn->args[1].kind != NPU_GV_NODE || !cm || cm->ndim != 2 ||
		    cm->dtype != m->dtype || cm->shape[1].sym || mmg_epilogue(z, c, 0))
			continue;
		if ((wv = mmg_weight(z, cn->args[1].u.node)) == -2)
			return -1;
		if (wv < 0 || ir->v[wv].dtype != dt || ir->v[wv].shape[0] != KK)
			continue;
		part[np] = c;
		w[np++] = wv;
	}
	if (np < 2)
		return 0;
	for (int i = 0; i < np; i++)
		N += ir->v[w[i]].shape[1];
	if (!(cat = malloc((size_t)(KK * N * esz) + 1)))
		return npu_errf(z->e, "out of memory");
	for (int64_t r = 0; r < KK; r++)
		for (int i = 0, c0 = 0; i < np; c0 += (int)ir->v[w[i]].shape[1], i++) {
			int64_t wn = ir->v[w[i]].shape[1];
			memcpy(cat + (r * N + c0) * esz,
			       (const uint8_t *)ir->v[w[i]].cdata + r * wn * esz,
			       (size_t)(wn * esz));
		}
	snprintf(name, sizeof name, "%s.w", n->name);
	if ((b = own_matrix(z, node, name, dt, KK, N, cat)) < 0)
		return -1;
	/* the matmul over all of them, into a value of its own */
	snprintf(name, sizeof name, "%s.cat", n->name);
	if ((ov = mm_by_const(z, node, name, a, ir->v[a].off, ir->v[a].stride[0],
			      ir->v[a].stride[1], b, M, N, KK, dt, m->dtype, &k)) < 0)
		return -1;
	for (int i = 0; i < np; i++) {
		int64_t sh[2] = { M, ir->v[w[i]].shape[1] }, st[2] = { N, 1 };
		int v = view_val(z, part[i], ov, 2, sh, at, st);
		if (v < 0)
			return -1;
		ir->nodeval[part[i]] = v;
		if (i && npu_kir_addnode(&ir->k[k], part[i]) < 0)
			return npu_errf(z->e, "out of memory");
		z->done[part[i]] = 1;
		at += sh[1];
	}
	npu_kir_decide(ir, 1, "%s: one matmul with %d others of the same input by frozen weights side by side (N %lld), each a slice of its columns",
		       n->name, np - 1, (long long)N);
	close_cur(z);
	return 1;
}

/*
 * The MLP's SiLU gating, silu(x . Wg) * (x . Wu) with frozen Wg and Wu of
 * one shape: one matmul over both weights, interleaved at compile time
 * in blocks of nbo columns (the gate's, then the up projection's same
 * columns), whose epilogue reads a block's two halves of the
 * accumulator and stores silu(g) * u, half as many columns (kir.h,
 * mm_glu).  As two kernels the up projection's epilogue read the gate's
 * whole output back from DRAM, and each kernel paid its own weight
 * wait, the array's fill and drain and its last block's store.  nbo:
 * half of N rounded up to GLU_AL, so that a block's 2 * nbo columns are
 * whole slices of a 128-column array (two blocks, as the cost model
 * picked for each projection alone; more blocks paid more per block
 * than the shorter last epilogue saved).
 */
#define GLU_AL 64

/* The one user of node c (walk order), or -1 (none, several, output). */
static int one_user(fz *z, int c)
{
	const npu_graph *g = z->g;
	int u = -1;

	for (int i = z->pos[c] + 1; i < g->nnodes; i++) {
		const npu_gnode *n = &g->nodes[z->ord[i]];
		if (!reads(n, c))
			continue;
		if (u >= 0 || n->op != NPU_GOP_CALL_FUNCTION)
			return -1;
		u = z->ord[i];
	}
	return u;
}

/* Node v is a view of node of with the same number of elements (only
 * used as asked); the viewed node, else -1. */
static int view_of(const npu_graph *g, int v)
{
	const npu_gnode *n = &g->nodes[v];

	return (n->aop == NPU_AOP_VIEW || n->aop == NPU_AOP_RESHAPE ||
		n->aop == NPU_AOP_UNSAFE_VIEW) && n->nargs >= 1 &&
	       n->args[0].kind == NPU_GV_NODE ? n->args[0].u.node : -1;
}

/* The other operand node of binary node n when one is node x, else -1. */
static int other_arg(const npu_gnode *n, int x)
{
	if (n->nargs != 2 || n->nkwargs || n->args[0].kind != NPU_GV_NODE ||
	    n->args[1].kind != NPU_GV_NODE)
		return -1;
	return n->args[0].u.node == x ? n->args[1].u.node :
	       n->args[1].u.node == x ? n->args[0].u.node : -1;
}

/* Gate mm node `node`: gv = view(node), mul(gv, sigmoid(gv)) = s, an mm
 * u of the same A within MMG_WINDOW whose view uv has s * uv = y as its
 * one user.  y's node, or -1; nd[] = { u, gv, sigmoid, s, uv }, *wu u's
 * weight node. */
static int glu_match(fz *z, int node, int *nd, int *wu)
{
	const npu_graph *g = z->g;
	const npu_gnode *n = &g->nodes[node], *cn;
	int gv = one_user(z, node), sg, s, y, uv, u;

	if (gv < 0 || view_of(g, gv) != node)
		return -1;
	/* gv's two users: sigmoid(gv) and mul(gv, sigmoid) */
	sg = -1;
	for (int i = z->pos[gv] + 1; i < g->nnodes; i++) {
		const npu_gnode *x = &g->nodes[z->ord[i]];
		if (reads(x, gv) && x->aop == NPU_AOP_SIGMOID) {
			sg = z->ord[i];
			break;
		}
	}
	if (sg < 0 || (s = one_user(z, sg)) < 0 ||
	    g->nodes[s].aop != NPU_AOP_MUL_TENSOR || other_arg(&g->nodes[s], sg) != gv ||
	    (y = one_user(z, s)) < 0 || g->nodes[y].aop != NPU_AOP_MUL_TENSOR)
		return -1;
	for (int i = z->pos[gv] + 1; i < g->nnodes; i++) {
		int c = z->ord[i];
		if (c != s && c != sg && reads(&g->nodes[c], gv))
			return -1;  /* gv has a third user */
	}
	if ((uv = other_arg(&g->nodes[y], s)) < 0 || (u = view_of(g, uv)) < 0 ||
	    one_user(z, uv) != y || one_user(z, u) != uv ||
	    z->pos[u] <= z->at || z->pos[u] > z->at + MMG_WINDOW)
		return -1;
	cn = &g->nodes[u];
	if (cn->op != NPU_GOP_CALL_FUNCTION || cn->aop != NPU_AOP_MM ||
	    cn->nargs < 2 || cn->args[0].kind != NPU_GV_NODE ||
	    n->args[0].kind != NPU_GV_NODE ||
	    cn->args[0].u.node != n->args[0].u.node ||
	    cn->args[1].kind != NPU_GV_NODE || !tmeta(cn, 0) || !tmeta(&g->nodes[y], 0) ||
	    tmeta(cn, 0)->dtype != tmeta(n, 0)->dtype ||
	    tmeta(&g->nodes[y], 0)->dtype != tmeta(n, 0)->dtype)
		return -1;
	nd[0] = u;
	nd[1] = gv;
	nd[2] = sg;
	nd[3] = s;
	nd[4] = uv;
	*wu = cn->args[1].u.node;
	return y;
}

/* x rounded to dt when it is a half type (def_val's rule), else x. */
static int glu_rnd(fz *z, int k, int x, int dt, int node)
{
	npu_xins r = { .op = NPU_X_RND, .a = x, .dtype = dt, .node = node };

	if (x < 0 || (dt != NPU_DT_BF16 && dt != NPU_DT_F16))
		return x;
	return npu_kir_x(&z->ir->k[k], r);
}

/* 1 when gate mm `node` (A value a, weight value b) and its partner
 * became one gated matmul (mm_glu); 0 when the pattern does not apply;
 * -1 on error. */
static int mm_glu(fz *z, int node, int a, int b)
{
	npu_kir *ir = z->ir;
	const npu_graph *g = z->g;
	const npu_gnode *n = &g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0), *ym;
	int nd[5], up, wun, y, wu, dt = ir->v[a].dtype, k, ov, xg, xu, x;
	int64_t M, KK, N, NA, nbo, esz = npu_dtype_size(dt);
	uint8_t *w;
	char name[256];

	if (!z->ord || ir->nofuse || n->aop != NPU_AOP_MM || !m || m->ndim != 2 ||
	    m->shape[0].sym || m->shape[1].sym || ir->v[a].ndim != 2 ||
	    (dt == NPU_DT_F32 && ir->fp32prec > 0) || ir->v[b].root >= 0 ||
	    ir->v[b].kind != NPU_BUF_CONST || !ir->v[b].cdata || !iscontig(&ir->v[b]) ||
	    (y = glu_match(z, node, nd, &wun)) < 0)
		return 0;
	up = nd[0];
	if ((wu = mmg_weight(z, wun)) == -2)
		return -1;
	ym = tmeta(&g->nodes[y], 0);
	M = m->shape[0].v;
	KK = ir->v[b].shape[0];
	N = ir->v[b].shape[1];
	if (wu < 0 || ir->v[wu].dtype != dt || ir->v[wu].shape[0] != KK ||
	    ir->v[wu].shape[1] != N || N != m->shape[1].v)
		return 0;
	{
		int64_t ne = 1;
		for (int d = 0; d < ym->ndim; d++) {
			if (ym->shape[d].sym)
				return 0;
			ne *= ym->shape[d].v;
		}
		if (ne != M * N)
			return 0;
	}
	NA = 2 * N;
	nbo = ((N + 1) / 2 + GLU_AL - 1) / GLU_AL * GLU_AL;
	/* its blocks must fit, double-buffered, as tile.c counts them
	 * (a small target keeps the two matmuls) */
	if (!ir->t || 2.0 * ((double)M * KK + (double)KK * 2 * nbo + (double)M * 2 * nbo) * esz >
		      (double)(ir->t->sram_bytes - NPU_SPILL_BYTES) / 2 ||
	    2.0 * M * 2 * nbo * 4 > (double)ir->t->acc_bytes)
		return 0;
	if (!(w = malloc((size_t)(KK * NA * esz) + 1)))
		return npu_errf(z->e, "out of memory");
	/* row r: per block of nbo columns, the gate's then the up's */
	for (int64_t r = 0; r < KK; r++)
		for (int64_t c0 = 0; c0 < N; c0 += nbo) {
			int64_t cn = N - c0 < nbo ? N - c0 : nbo;
			uint8_t *d = w + (r * NA + 2 * c0) * esz;
			memcpy(d, (const uint8_t *)ir->v[b].cdata + (r * N + c0) * esz,
			       (size_t)(cn * esz));
			memcpy(d + cn * esz, (const uint8_t *)ir->v[wu].cdata + (r * N + c0) * esz,
			       (size_t)(cn * esz));
		}
	snprintf(name, sizeof name, "%s.glu", n->name);
	if ((b = own_matrix(z, node, name, dt, KK, NA, w)) < 0)
		return -1;
	snprintf(name, sizeof name, "%s.acc", n->name);
	if ((ov = mm_by_const(z, node, name, a, ir->v[a].off, ir->v[a].stride[0],
			      ir->v[a].stride[1], b, M, NA, KK, dt, m->dtype, &k)) < 0)
		return -1;
	/* the epilogue: silu(g) * u as PyTorch writes it, g * sigmoid(g)
	 * times u; the value mm_by_const made (the accumulator) is not the
	 * output, the product is, [M][N] */
	ir->v[ov].needed = 0;
	ir->v[ov].producer = -1;
	ir->nodeval[node] = ir->nodeval[up] = ov;
	{
		int64_t shp[2] = { M, N };
		int yv = npu_kir_val(ir, g->nodes[y].name, y, ym->dtype, 2, shp);
		/* (each result rounded to a half type as eager PyTorch
		 * stores it: the projections, the sigmoid, the products) */
		if (yv < 0 ||
		    (xg = glu_rnd(z, k, ir->v[ov].xdef, m->dtype, node)) < 0 ||
		    (xu = xadd(z, k, NPU_X_ACC, 0, 1, 0, 0, 0, up)) < 0 ||
		    (xu = glu_rnd(z, k, xu, m->dtype, up)) < 0 ||
		    (x = xadd(z, k, NPU_X_UN, NPU_OP_VSIGM, xg, 0, 0, 0, nd[2])) < 0 ||
		    (x = glu_rnd(z, k, x, m->dtype, nd[2])) < 0 ||
		    (x = xadd(z, k, NPU_X_BIN, NPU_OP_VMUL, xg, x, 0, 0, nd[3])) < 0 ||
		    (x = glu_rnd(z, k, x, m->dtype, nd[3])) < 0 ||
		    (x = xadd(z, k, NPU_X_BIN, NPU_OP_VMUL, x, xu, 0, 0, y)) < 0 ||
		    (x = glu_rnd(z, k, x, ym->dtype, y)) < 0)
			return npu_errf(z->e, "out of memory");
		ir->v[yv].producer = k;
		ir->v[yv].xdef = x;
		ir->v[yv].needed = 1;
		if (set_level(z, yv, LV_ELEM) < 0)
			return npu_errf(z->e, "out of memory");
		ov = yv;
	}
	ir->k[k].mm_glu = nbo;
	{
		/* y's own shape ([1, M, N]) as a view of the [M, N] value */
		int64_t sh[NPU_MAX_DIMS], st[NPU_MAX_DIMS], acc = 1;
		for (int d = ym->ndim - 1; d >= 0; d--) {
			sh[d] = ym->shape[d].v;
			st[d] = acc;
			acc *= sh[d];
		}
		int v = ym->ndim == 2 ? ov : view_val(z, y, ov, ym->ndim, sh, 0, st);
		if (v < 0)
			return -1;
		ir->nodeval[y] = v;
	}
	z->done[y] = 1;
	for (int i = 0; i < 5; i++) {
		z->done[nd[i]] = 1;
		if (i != 1 && i != 4 && npu_kir_addnode(&ir->k[k], nd[i]) < 0)
			return npu_errf(z->e, "out of memory");
	}
	if (npu_kir_addnode(&ir->k[k], y) < 0)
		return npu_errf(z->e, "out of memory");
	npu_kir_decide(ir, 1, "%s: with %s, one matmul over both weights in blocks of %lld columns each (N %lld), the SiLU gating in its epilogue",
		       n->name, g->nodes[up].name, (long long)nbo, (long long)NA);
	close_cur(z);
	return 1;
}

/*
 * Grouped-query attention: bmm(A [B, M, K], copy of expand(kv)) where the
 * copy repeats each of G key/value heads R times (B = G * R) reads the
 * heads themselves: the R query heads of one group are consecutive rows
 * of A, so the product is G matmuls of R * M rows by the unrepeated head,
 * into the same [B, M, N] layout, and the copy kernel goes when nothing
 * else reads it.  1 when done, 0 when the pattern does not apply.
 */
/* Is R a repeat: a lone-load copy kernel's value whose leading dims of
 * more than one element are G (with a stride) then R (stride 0)?  Its
 * kernel in *kc, those two dims in d[0], d[1]. */
static int repeat_copy(const npu_kir *ir, int R, int *kc, int *d)
{
	const npu_kern *C;
	int nd = 0;

	if ((*kc = ir->v[R].producer) < 0 || ir->v[R].root >= 0 || ir->v[R].xdef != 0)
		return 0;
	C = &ir->k[*kc];
	if (C->kind != NPU_KK_EW || C->nops != 1 || C->nx != 1 ||
	    C->x[0].op != NPU_X_LOAD || C->ndim != ir->v[R].ndim || C->ndim < 4)
		return 0;
	for (int i = 0; i < C->ndim - 2; i++)
		if (C->shape[i] > 1) {
			if (nd == 2)
				return 0;
			d[nd++] = i;
		}
	return nd == 2 && C->ops[0].stride[d[0]] != 0 && C->ops[0].stride[d[1]] == 0;
}

/* Is node `to` the one user of node `from`, directly or through a chain
 * of views that each have one user? */
static int sole_user(fz *z, int from, int to)
{
	const npu_graph *g = z->g;

	for (int depth = 0; depth < 8; depth++) {
		int u = -1, nu = 0;
		for (int i = 0; i < g->nnodes; i++)
			if (reads(&g->nodes[i], from)) {
				u = i;
				nu++;
			}
		if (nu != 1)
			return 0;
		if (u == to)
			return 1;
		if (g->nodes[u].op != NPU_GOP_CALL_FUNCTION || g->nodes[u].aop == NPU_AOP_UNKNOWN ||
		    npu_support_kind(g->nodes[u].aop) != NPU_LK_VIEW)
			return 0;
		from = u;
	}
	return 0;
}

/*
 * The other operand of attention, k^T * scale: an ew kernel computed
 * over the B repeated heads from the repeat copy alone.  When its value
 * has no other user it is recomputed over the G heads themselves, read
 * from the copy's source (strides composed: each of its dims steps the
 * copy's dim of the same contiguous stride), and *kc, d[] describe it as
 * repeat_copy would with R = 1.  1 when done.
 */
static int unrepeat_ew(fz *z, int node, int R, int *kc, int *d)
{
	npu_kir *ir = z->ir;
	npu_kern *Km;
	int R2, kc2, d2[2], hb = -1, nd = ir->v[R].ndim, cd[NPU_MAX_DIMS];
	int64_t cs[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
	const npu_kopnd *src;

	if ((*kc = ir->v[R].producer) < 0 || ir->v[R].root >= 0 || ir->v[R].node < 0 ||
	    ir->v[R].outidx >= 0)
		return 0;
	Km = &ir->k[*kc];
	if (Km->kind != NPU_KK_EW || Km->nops != 1 || Km->ops[0].out ||
	    Km->ndim != nd || memcmp(Km->shape, ir->v[R].shape, (size_t)nd * sizeof *Km->shape) ||
	    Km->ops[0].off != 0 || !sole_user(z, ir->v[R].node, node))
		return 0;
	R2 = Km->ops[0].val;
	if (!repeat_copy(ir, R2, &kc2, d2) || ir->v[R2].ndim != nd + 1)
		return 0;
	src = &ir->k[kc2].ops[0];
	npu_kir_contig(ir->v[R2].ndim, ir->v[R2].shape, cs);
	/* each dim of Km: the copy's dim it steps (the heads: g and r) */
	for (int i = 0; i < nd; i++) {
		cd[i] = -1;
		if (Km->shape[i] == 1)
			continue;
		if (Km->ops[0].stride[i] == cs[d2[1]] &&
		    Km->shape[i] == ir->v[R2].shape[d2[0]] * ir->v[R2].shape[d2[1]]) {
			if (hb >= 0)
				return 0;
			hb = i;
			continue;
		}
		for (int j = 0; j < nd + 1; j++)
			if (j != d2[0] && j != d2[1] && cs[j] == Km->ops[0].stride[i] &&
			    ir->v[R2].shape[j] == Km->shape[i])
				cd[i] = j;
		if (cd[i] < 0)
			return 0;
	}
	if (hb != nd - 3) /* the heads: the dim before the matrix */
		return 0;
	for (int i = 0; i < nd; i++)
		st[i] = i == hb ? src->stride[d2[0]] : cd[i] >= 0 ? src->stride[cd[i]] : 0;
	/* Km over the G heads, reading the copy's source */
	Km->shape[hb] = ir->v[R2].shape[d2[0]];
	Km->ops[0].val = src->val;
	Km->ops[0].off = src->off;
	memcpy(Km->ops[0].stride, st, sizeof st);
	ir->v[src->val].needed = 1;
	ir->v[R].shape[hb] = Km->shape[hb];
	npu_kir_contig(nd, ir->v[R].shape, ir->v[R].stride);
	npu_kir_decide(ir, 1, "kernel %s: over the %lld key/value heads, read from %s, not their repeated copy",
		       Km->name, (long long)Km->shape[hb], ir->v[src->val].name);
	drop_unread(ir, R2, kc2);
	d[0] = hb;
	d[1] = -1;
	return 1;
}

static int gqa_bmm(fz *z, int node, int a, int b)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int R = root_of(ir, b), kc, d[2], dt = ir->v[a].dtype, k, x, unrep = 0, tb = 0;
	const npu_kern *C;
	npu_kopnd srcv;
	const npu_kopnd *src = &srcv;
	int64_t G, Rr, M, KK, N, B;

	if (ir->nofuse || n->aop != NPU_AOP_BMM || m->ndim != 3 || ir->v[a].ndim != 3 ||
	    (dt == NPU_DT_F32 && ir->fp32prec > 0))
		return 0;
	if (ir->v[b].off != 0 || npu_kir_numel(ir->v[b].ndim, ir->v[b].shape) !=
	    npu_kir_numel(ir->v[R].ndim, ir->v[R].shape))
		return 0;
	/* b itself, or (tb) its last two dims swapped: k^T of the
	 * repeated keys, read transposed (transposed_mat) */
	if (!iscontig(&ir->v[b]) && !(tb = transposed_contig(&ir->v[b])))
		return 0;
	B = m->shape[0].v;
	M = m->shape[1].v;
	N = m->shape[2].v;
	KK = ir->v[a].shape[2];
	if (ir->v[a].stride[2] != 1 || ir->v[a].stride[0] != M * ir->v[a].stride[1])
		return 0;
	if (repeat_copy(ir, R, &kc, d)) {
		C = &ir->k[kc];
		srcv = C->ops[0];
		G = C->shape[d[0]];
		Rr = C->shape[d[1]];
		if (C->shape[C->ndim - 2] != (tb ? N : KK) ||
		    C->shape[C->ndim - 1] != (tb ? KK : N))
			return 0;
	} else if (tb) {
		return 0;
	} else {
		/* k^T * scale over the repeated heads: its kernel recomputed
		 * over the key/value heads (R is then [.., G, K, N]) */
		int64_t nh = 1;
		for (int i = 0; i < ir->v[R].ndim - 2; i++)
			nh *= ir->v[R].shape[i];
		if (nh != B || ir->v[R].shape[ir->v[R].ndim - 2] != KK ||
		    ir->v[R].shape[ir->v[R].ndim - 1] != N || !unrepeat_ew(z, node, R, &kc, d))
			return 0;
		G = ir->v[R].shape[d[0]];
		Rr = B / G;
		memset(&srcv, 0, sizeof srcv);
		srcv.val = R;
		npu_kir_contig(ir->v[R].ndim, ir->v[R].shape, srcv.stride);
		unrep = 1;
	}
	{
		int nd0 = unrep ? ir->v[R].ndim : ir->k[kc].ndim;
		if (G * Rr != B || src->stride[nd0 - 1] != 1 ||
		    src->stride[nd0 - 2] < (tb ? KK : N))
			return 0;
	}
	if ((k = new_kern(z, NPU_KK_MM, node)) < 0)
		return -1;
	npu_kern *K = &ir->k[k];
	int64_t sa[NPU_MAX_DIMS] = { Rr * ir->v[a].stride[0], ir->v[a].stride[1], 1 };
	int nds = unrep ? ir->v[R].ndim : ir->k[kc].ndim;
	int64_t sb[NPU_MAX_DIMS] = { src->stride[d[0]], src->stride[nds - 2], 1 };
	if (tb) {
		sb[1] = 1;
		sb[2] = src->stride[nds - 2];
	}
	K->ndim = 3;
	K->shape[0] = G;
	K->shape[1] = Rr * M;
	K->shape[2] = N;
	K->mm_batch = G;
	K->mm_m = Rr * M;
	K->mm_n = N;
	K->mm_k = KK;
	K->mm_dtype = dt;
	K->mm_passes = 1;
	ir->v[root_of(ir, a)].needed = 1;
	ir->v[src->val].needed = 1;
	K->mm_a = npu_kir_opnd(K, root_of(ir, a), 0, ir->v[a].off, sa);
	K->mm_b = npu_kir_opnd(K, src->val, 0, src->off, sb);
	if (K->mm_a < 0 || K->mm_b < 0)
		return npu_errf(z->e, "out of memory");
	/* the repeated copy: dropped unless another kernel reads it */
	if (!unrep)
		drop_unread(ir, R, kc);
	npu_kir_decide(ir, 1, "%s: %lld groups of %lld query heads by their key/value head (%s, not a repeated copy)",
		       n->name, (long long)G, (long long)Rr, ir->v[src->val].name);
	z->cur = k;
	if ((x = xadd(z, k, NPU_X_ACC, 0, 0, 0, 0, 0, node)) < 0)
		return -1;
	return def_val(z, k, node, x, LV_ELEM) < 0 ? -1 : 1;
}

/*
 * A matmul's A that is a permuting copy's output read as rows of heads
 * (the attention output [T, H, D] as [T, H * D] for the o projection):
 * read from the copy's source in K segments of D (kseg, kstride), and
 * the copy goes unless another kernel reads it.  1 with the operand in
 * *o and the copy's kernel in *kc when it applies.
 */
static int perm_a(fz *z, int a, const npu_gmeta *m, npu_kopnd *o, int *kc)
{
	npu_kir *ir = z->ir;
	const npu_kval *V = &ir->v[a];
	int R = root_of(ir, a), nd;
	const npu_kval *RV = &ir->v[R];
	const npu_kern *C;
	const npu_kopnd *S;
	int64_t T, H, D;

	if (ir->nofuse || m->ndim != 2 || m->shape[0].sym || m->shape[1].sym ||
	    V->ndim != 2 || !iscontig(V) || V->sym || RV->sym || RV->root >= 0 ||
	    (*kc = RV->producer) < 0 || RV->xdef != 0 || !iscontig(RV) ||
	    (V->dtype == NPU_DT_F32 && ir->fp32prec > 0))
		return 0;
	C = &ir->k[*kc];
	nd = C->ndim;
	if (C->kind != NPU_KK_EW || C->nops != 1 || C->nx != 1 ||
	    C->x[0].op != NPU_X_LOAD || nd != RV->ndim || nd < 3 ||
	    memcmp(C->shape, RV->shape, (size_t)nd * sizeof *C->shape))
		return 0;
	for (int i = 0; i < nd - 3; i++)
		if (C->shape[i] != 1)
			return 0;
	T = C->shape[nd - 3];
	H = C->shape[nd - 2];
	D = C->shape[nd - 1];
	S = &C->ops[0];
	if (T != V->shape[0] || H * D != V->shape[1] || H < 2 || S->kseg ||
	    S->stride[nd - 1] != 1 || S->stride[nd - 2] <= 0 || S->stride[nd - 3] <= 0 ||
	    ir->v[S->val].dtype != RV->dtype || ir->v[S->val].root >= 0 ||
	    ir->v[S->val].sym)
		return 0;
	memset(o, 0, sizeof *o);
	o->val = S->val;
	o->off = S->off;
	o->stride[1] = S->stride[nd - 3];
	o->stride[2] = 1;
	o->kseg = D;
	o->kstride = S->stride[nd - 2];
	return 1;
}

/*
 * A [batch,] M x K by B [batch,] K x N gives the recorded [batch,] M x N:
 * the templates take M, N and the batch from the meta and K from A, so
 * a graph whose shapes disagree (fuzz_compile made an _int_mm whose A
 * had half the rows) is refused, naming the node.  0, or -1 with z->e.
 */
static int mm_shape_check(fz *z, int node, int a, int b, const npu_gmeta *m)
{
	const npu_gnode *n = &z->g->nodes[node];
	const npu_kval *A, *B;
	int nd;

	if (a < 0 || b < 0 || !m)
		return 0;
	A = &z->ir->v[a];
	B = &z->ir->v[b];
	nd = m->ndim;
	if ((nd != 2 && nd != 3) || A->ndim != nd || B->ndim != nd)
		return npu_errf(z->e, "%s: node '%s': operands of rank %d and %d for a "
				"result of rank %d (a matrix product takes 2 or 3, all alike)",
				z->g->file, n->name, A->ndim, B->ndim, nd);
	if (A->shape[nd - 1] == B->shape[nd - 2] && A->shape[nd - 2] == m->shape[nd - 2].v &&
	    B->shape[nd - 1] == m->shape[nd - 1].v &&
	    (nd == 2 || (A->shape[0] == m->shape[0].v && B->shape[0] == m->shape[0].v)))
		return 0;
	return npu_errf(z->e, "%s: node '%s': operands of %lld x %lld and %lld x %lld "
			"(batch %lld, %lld) do not give its meta's %lld x %lld (batch %lld)",
			z->g->file, n->name, (long long)A->shape[nd - 2],
			(long long)A->shape[nd - 1], (long long)B->shape[nd - 2],
			(long long)B->shape[nd - 1], (long long)(nd == 3 ? A->shape[0] : 1),
			(long long)(nd == 3 ? B->shape[0] : 1), (long long)m->shape[nd - 2].v,
			(long long)m->shape[nd - 1].v, (long long)(nd == 3 ? m->shape[0].v : 1));
}

static int do_mm(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int ai = n->aop == NPU_AOP_ADDMM ? 1 : 0, a, b, k, x, bias = -1, r;
	int alo = -1, blo = -1, pr = 0, pk = -1, ta;
	npu_kopnd pa;
	int64_t oshape[NPU_MAX_DIMS];
	double alpha = 1, beta = 1;
	const npu_gval *kw;

	if ((kw = npu_gnode_kwarg(n, "alpha")))
		gnum(kw, &alpha);
	if ((kw = npu_gnode_kwarg(n, "beta")))
		gnum(kw, &beta);
	if (alpha != 1 || beta != 1)
		return host_kern(z, node, "addmm with alpha or beta");
	a = node_val(z, n->args[ai].u.node);
	b = node_val(z, n->args[ai + 1].u.node);
	if (mm_shape_check(z, node, a, b, m) < 0)
		return -1;
	if (n->aop == NPU_AOP_INT_MM || n->aop == NPU_AOP_SCALED_MM) {
		const char *why = n->aop == NPU_AOP_INT_MM ? int_mm_refusal(ir, a, b, m)
							   : scaled_mm_refusal(z, n, a, b);
		if (why)
			return host_kern(z, node, why);
	} else if (!isfloat(ir->v[a].dtype) || ir->v[a].dtype != ir->v[b].dtype ||
		   m->dtype != ir->v[a].dtype) {
		return host_kern(z, node, "matmul of float64 or integer tensors");
	}
	if (n->aop != NPU_AOP_INT_MM && n->aop != NPU_AOP_SCALED_MM)
		pr = perm_a(z, a, m, &pa, &pk);
	if (!pr && (a = mm_operand(z, a, node)) < 0)
		return -1;
	if (!pr && (r = gqa_bmm(z, node, a, b)) != 0)
		return r < 0 ? -1 : 0;
	if ((b = mm_operand(z, b, node)) < 0)
		return -1;
	/* (the grouped forms take A with rows as it is) */
	ta = !pr && transposed_mat(&ir->v[a]);
	if (!pr && !ta && (r = mm_glu(z, node, a, b)) != 0)
		return r < 0 ? -1 : 0;
	if (!pr && !ta && (r = mm_group(z, node, a, b)) != 0)
		return r < 0 ? -1 : 0;
	if (ir->v[a].dtype == NPU_DT_F32 && ir->fp32prec > 0) {
		int np = ir->fp32prec == 1 ? 3 : 1, ah, al, bh, bl;
		if (split_bf16(z, a, node, np > 1 ? 2 : 1, &ah, &al) < 0 ||
		    split_bf16(z, b, node, np > 1 ? 2 : 1, &bh, &bl) < 0)
			return -1;
		a = ah, b = bh;
		alo = al, blo = bl;
	}
	if (ai) {
		bias = node_val(z, n->args[0].u.node);
		if (ir->v[bias].ndim > 2)
			return host_kern(z, node, "addmm bias of more than 2 dims");
	}
	if ((k = new_kern(z, NPU_KK_MM, node)) < 0)
		return -1;
	npu_kern *K = &ir->k[k];
	K->ndim = m->ndim;
	for (int d = 0; d < m->ndim; d++)
		oshape[d] = K->shape[d] = m->shape[d].v;
	K->mm_batch = m->ndim == 3 ? oshape[0] : 1;
	K->mm_m = oshape[m->ndim - 2];
	K->mm_n = oshape[m->ndim - 1];
	K->mm_k = ir->v[a].shape[ir->v[a].ndim - 1];
	K->mm_dtype = ir->v[a].dtype;
	K->mm_passes = alo >= 0 ? 3 : 1;
	/* operands 0 and 1: A and B with their own strides (not over the space) */
	ir->v[pr ? pa.val : root_of(ir, a)].needed = 1;
	ir->v[root_of(ir, b)].needed = 1;
	/* A and B keep their own strides, as [batch, row, col] */
	{
		int64_t sa[NPU_MAX_DIMS] = { 0 }, sb[NPU_MAX_DIMS] = { 0 };
		const npu_kval *VA = &ir->v[a], *VB = &ir->v[b];
		sa[0] = VA->ndim == 3 ? VA->stride[0] : 0;
		sa[1] = VA->stride[VA->ndim - 2];
		sa[2] = VA->stride[VA->ndim - 1];
		sb[0] = VB->ndim == 3 ? VB->stride[0] : 0;
		sb[1] = VB->stride[VB->ndim - 2];
		sb[2] = VB->stride[VB->ndim - 1];
		if (pr) {
			K->mm_a = npu_kir_opnd(K, pa.val, 0, pa.off, pa.stride);
			if (K->mm_a >= 0) {
				K->ops[K->mm_a].kseg = pa.kseg;
				K->ops[K->mm_a].kstride = pa.kstride;
			}
		} else {
			K->mm_a = npu_kir_opnd(K, root_of(ir, a), 0, VA->off, sa);
		}
		K->mm_b = npu_kir_opnd(K, root_of(ir, b), 0, VB->off, sb);
		if (alo >= 0) {
			/* the lo parts: contiguous like the hi parts */
			ir->v[alo].needed = ir->v[blo].needed = 1;
			K->mm_alo = npu_kir_opnd(K, alo, 0, 0, sa);
			K->mm_blo = npu_kir_opnd(K, blo, 0, 0, sb);
		}
	}
	if (K->mm_a < 0 || K->mm_b < 0)
		return npu_errf(z->e, "out of memory");
	if (pr) {
		drop_unread(ir, root_of(ir, a), pk);
		npu_kir_decide(ir, 1, "%s: A read from %s in segments of %lld columns %lld apart (not a permuted copy)",
			       n->name, ir->v[pa.val].name, (long long)pa.kseg, (long long)pa.kstride);
	}
	z->cur = k;
	x = xadd(z, k, NPU_X_ACC, 0, 0, 0, 0, 0, node);
	if (n->aop == NPU_AOP_SCALED_MM && (x = scaled_epilogue(z, k, node, x, oshape)) < 0)
		return x == -1 ? -1 : npu_errf(z->e, "%s: node '%s': a scale or the bias does not broadcast",
					       z->g->file, n->name);
	if (bias >= 0) {
		int lv, bx = arg_x(z, k, bias, m->ndim, oshape, node, &lv);
		if (bx < 0)
			return npu_errf(z->e, "%s: node '%s': bias does not broadcast",
					z->g->file, n->name);
		x = xadd(z, k, NPU_X_BIN, NPU_OP_VADD, x, bx, 0, 0, node);
	}
	return def_val(z, k, node, x, LV_ELEM);
}

static int ilist(const npu_gval *v, int64_t *out, int n)
{
	if (!v || v->kind != NPU_GV_LIST || v->u.list.n != n)
		return -1;
	for (int i = 0; i < n; i++) {
		if (v->u.list.v[i].kind != NPU_GV_INT)
			return -1;
		out[i] = v->u.list.v[i].u.i;
	}
	return 0;
}

static int fill_kern(fz *z, int node, const char *name, int ndim,
		     const int64_t *shape, int src, double f, int dst,
		     int64_t off, const int64_t *st);

/* taps of a grouped convolution one ew kernel takes: each reads two
 * operands (image view, weight) and a kernel has at most 64; a 5x5
 * depthwise window fits.  Larger windows chain kernels through partial
 * sums, up to GCONV_MAX_PARTS of them. */
#define GCONV_MAX_TAPS 25
#define GCONV_MAX_PARTS 16

/* Kernel k's part of a grouped convolution: the sum over the group's
 * input channels and the window of (strided view of the padded image) *
 * (per-channel weight), for output channel o of every group.  The space
 * is [N, G, OH, OW] (G = C_out when o is fixed by the space itself). */
static int gconv_taps(fz *z, int k, int node, int xv, const int64_t *xst,
		      const int64_t *tst, int64_t xoff, int w, int64_t wch,
		      int64_t o, const int64_t *ks, const int64_t *dil,
		      int64_t t0, int64_t t1)
{
	npu_kir *ir = z->ir;
	const npu_kval *W = &ir->v[w];
	int64_t wst[NPU_MAX_DIMS] = { 0 };
	int r = -1;

	wst[1] = wch;
	for (int64_t t = t0; t < t1; t++) {
		int64_t j = t / (ks[0] * ks[1]), kh = t / ks[1] % ks[0];
		int64_t kw = t % ks[1];
		int64_t xo = xoff + j * tst[0] + kh * dil[0] * tst[1] +
			     kw * dil[1] * tst[2];
		int64_t wo = W->off + o * W->stride[0] + j * W->stride[1] +
			     kh * W->stride[2] + kw * W->stride[3];
		int ox = npu_kir_opnd(&ir->k[k], xv, 0, xo, xst);
		int ow = npu_kir_opnd(&ir->k[k], root_of(ir, w), 0, wo, wst);
		int lx = xadd(z, k, NPU_X_LOAD, 0, ox, 0, 0, 0, node);
		int lw = xadd(z, k, NPU_X_LOAD, 0, ow, 0, 0, 0, node);
		int p = xadd(z, k, NPU_X_BIN, NPU_OP_VMUL, lx, lw, 0, 0, node);
		if (ox < 0 || ow < 0 || lx < 0 || lw < 0 || p < 0)
			return npu_errf(z->e, "out of memory");
		r = r < 0 ? p : xadd(z, k, NPU_X_BIN, NPU_OP_VADD, r, p, 0, 0, node);
	}
	return r;
}

/* A kernel of the grouped convolution over [N, G, OH, OW]. */
static int gconv_kern(fz *z, int node, const int64_t *osh, int64_t g,
		      int64_t o, int64_t t0)
{
	npu_kir *ir = z->ir;
	int k = new_kern(z, NPU_KK_EW, node);
	char nm[300];

	if (k < 0)
		return -1;
	ir->k[k].ndim = 4;
	ir->k[k].shape[0] = osh[0];
	ir->k[k].shape[1] = g;
	ir->k[k].shape[2] = osh[2];
	ir->k[k].shape[3] = osh[3];
	if (o || t0) {
		snprintf(nm, sizeof nm, "%s.%lld.%lld", z->g->nodes[node].name,
			 (long long)o, (long long)t0);
		free(ir->k[k].name);
		ir->k[k].name = strdup(nm);
	}
	return k;
}

/* A partial sum (or max: op) of taps: stored by kernel k into a new
 * fp32 buffer of its shape (*part, when store) or read from it and
 * combined with r (when not). */
static int tap_part(fz *z, int k, int node, int r, int *part, int store, int op)
{
	npu_kir *ir = z->ir;
	npu_kern *K = &ir->k[k];
	int64_t st[NPU_MAX_DIMS];
	int o, l;
	char nm[300];

	if (store) {
		snprintf(nm, sizeof nm, "%s.part", K->name);
		if ((*part = npu_kir_val(ir, nm, node, NPU_DT_F32, K->ndim, K->shape)) < 0)
			return npu_errf(z->e, "out of memory");
		ir->v[*part].needed = 1;
	}
	npu_kir_contig(K->ndim, ir->v[*part].shape, st);
	o = npu_kir_opnd(K, *part, store, 0, st);
	if (o < 0)
		return npu_errf(z->e, "out of memory");
	if (store) {
		npu_xins sx = { .op = NPU_X_STORE, .a = r, .b = o, .node = node };
		if (npu_kir_x(K, sx) < 0)
			return npu_errf(z->e, "out of memory");
		ir->v[*part].producer = k;
		close_cur(z);
		return 0;
	}
	if ((l = xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node)) < 0)
		return -1;
	return xadd(z, k, NPU_X_BIN, op, l, r, 0, 0, node);
}

/*
 * Grouped and depthwise convolution (MobileNet, ResNeXt): a GEMM per
 * group would be K = C_in/G * KH * KW deep (9 for a depthwise 3x3), far
 * too thin for the array, so it runs on the vector unit instead, the way
 * max_pool2d does: the image copied into a zero-padded buffer (when there
 * is padding), then per output channel of a group one ew kernel summing
 * C_in/G * KH * KW strided views of it times the weight, broadcast per
 * channel.  With one output channel per group (depthwise) the kernel's
 * space is the output itself and the epilogue (batch norm, ReLU6) fuses
 * into it; otherwise each kernel stores every OCg-th channel.
 */
/* A zero-padded copy of image x [N, C, H, W] (pad[0] rows and pad[1]
 * columns each side), by a zero fill and a copy into its interior; its
 * contiguous strides in pst.  The new value (x itself, its strides in
 * pst, when there is no padding), or -1. */
/* A copy of 4-d value v padded with f by lo[i] rows (i 0) or columns
 * (i 1) before and hi[i] after, of type dt: a fill (kernel vname, which
 * names the new value too) and a copy into its interior (kernel iname).
 * The new value, its contiguous strides in st, the interior's offset in
 * *off; -1 on error. */
static int pad_fill(fz *z, int node, int v, const int64_t *lo, const int64_t *hi,
		    double f, int dt, const char *vname, const char *iname,
		    int64_t *off, int64_t *st)
{
	npu_kir *ir = z->ir;
	int64_t sh[NPU_MAX_DIMS];
	int pv;

	memcpy(sh, ir->v[v].shape, 4 * sizeof *sh);
	sh[2] += lo[0] + hi[0];
	sh[3] += lo[1] + hi[1];
	if ((pv = npu_kir_val(ir, vname, node, dt, 4, sh)) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[pv].needed = 1;
	npu_kir_contig(4, sh, st);
	*off = lo[0] * st[2] + lo[1] * st[3];
	if (fill_kern(z, node, vname, 4, sh, -1, f, pv, 0, st) < 0 ||
	    fill_kern(z, node, iname, 4, ir->v[v].shape, v, 0, pv, *off, st) < 0)
		return -1;
	return pv;
}

static int pad_copy(fz *z, int node, int x, const int64_t *pad, int64_t *pst)
{
	const char *name = z->g->nodes[node].name;
	char vn[300], in[300];
	int64_t off;

	if (!pad[0] && !pad[1]) {
		memcpy(pst, z->ir->v[x].stride, 4 * sizeof *pst);
		return x;
	}
	snprintf(vn, sizeof vn, "%s.pad", name);
	snprintf(in, sizeof in, "%s.in", name);
	return pad_fill(z, node, x, pad, pad, 0, z->ir->v[x].dtype, vn, in, &off, pst);
}

static int do_gconv(fz *z, int node, int x, int w, int bias, int64_t g,
		    const int64_t *st, const int64_t *pad, const int64_t *dil,
		    const int64_t *osh)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int xv, out = -1, r = -1, oned = m && m->ndim == 3;
	int64_t ks[2], icg, ocg, ntaps, xst[NPU_MAX_DIMS] = { 0 }, tst[3];
	int64_t sp[NPU_MAX_DIMS], xoff;
	char nm[300];

	if (x < 0 || w < 0 || !m || ir->v[x].ndim != 4 ||
	    ir->v[w].ndim != 4 || !isfloat(m->dtype) ||
	    ir->v[x].dtype != m->dtype || ir->v[w].dtype != m->dtype ||
	    ir->v[x].isconst || ir->v[w].isconst ||
	    (bias >= 0 && (ir->v[bias].ndim != 1 || ir->v[bias].isconst)))
		return host_kern(z, node, "grouped convolution of other types or ranks");
	icg = ir->v[w].shape[1];
	ocg = osh[1] / g;
	ks[0] = ir->v[w].shape[2];
	ks[1] = ir->v[w].shape[3];
	ntaps = icg * ks[0] * ks[1];
	if (ntaps > GCONV_MAX_TAPS * GCONV_MAX_PARTS)
		return host_kern(z, node, "grouped convolution with too many taps per output");
	if (pad[0] || pad[1]) {
		if ((xv = pad_copy(z, node, x, pad, sp)) < 0)
			return -1;
		xoff = 0;
	} else {
		xv = root_of(ir, x);
		ir->v[xv].needed = 1;
		memcpy(sp, ir->v[x].stride, 4 * sizeof *sp);
		xoff = ir->v[x].off;
	}
	/* strides over the space (n, group, oh, ow) and of a tap (channel,
	 * kh, kw) */
	xst[0] = sp[0];
	xst[1] = icg * sp[1];
	xst[2] = st[0] * sp[2];
	xst[3] = st[1] * sp[3];
	tst[0] = sp[1];
	tst[1] = sp[2];
	tst[2] = sp[3];
	ir->v[root_of(ir, w)].needed = 1;
	if (bias >= 0)
		ir->v[root_of(ir, bias)].needed = 1;
	if (ocg > 1 || oned) {
		/* [N, OC, 1, L] of a 1-d one: the node's value is its view */
		snprintf(nm, sizeof nm, "%s%s", n->name, oned ? ".2d" : "");
		if ((out = npu_kir_val(ir, nm, node, m->dtype, 4, osh)) < 0)
			return npu_errf(z->e, "out of memory");
		ir->v[out].needed = 1;
	}
	for (int64_t o = 0; o < ocg; o++) {
		int k = -1, part = -1;
		/* a kernel takes GCONV_MAX_TAPS taps; more add up through
		 * fp32 partial sums (a 7x7 depthwise window: two) */
		for (int64_t t0 = 0; t0 < ntaps; t0 += GCONV_MAX_TAPS) {
			int64_t t1 = t0 + GCONV_MAX_TAPS < ntaps ? t0 + GCONV_MAX_TAPS : ntaps;
			if ((k = gconv_kern(z, node, osh, g, o, t0)) < 0)
				return -1;
			r = gconv_taps(z, k, node, xv, xst, tst, xoff, w,
				       ocg * ir->v[w].stride[0], o, ks, dil, t0, t1);
			if (r >= 0 && part >= 0)
				r = tap_part(z, k, node, r, &part, 0, NPU_OP_VADD);
			if (r < 0)
				return -1;
			if (t1 < ntaps && tap_part(z, k, node, r, &part, 1, 0) < 0)
				return -1;
		}
		if (bias >= 0) {
			int64_t bs[NPU_MAX_DIMS] = { 0 };
			int ob, lb;
			bs[1] = ocg * ir->v[bias].stride[0];
			ob = npu_kir_opnd(&ir->k[k], root_of(ir, bias), 0,
					  ir->v[bias].off + o * ir->v[bias].stride[0], bs);
			lb = xadd(z, k, NPU_X_LOAD, 0, ob, 0, 0, 0, node);
			if (ob < 0 || lb < 0 ||
			    (r = xadd(z, k, NPU_X_BIN, NPU_OP_VADD, r, lb, 0, 0, node)) < 0)
				return npu_errf(z->e, "out of memory");
		}
		if (ocg == 1 && !oned) {
			z->cur = k;
			if (def_val(z, k, node, r, LV_ELEM) < 0)
				return -1;
			break;
		}
		{
			int64_t ost[NPU_MAX_DIMS];
			int oo;
			memcpy(ost, ir->v[out].stride, 4 * sizeof *ost);
			ost[1] *= ocg;
			oo = npu_kir_opnd(&ir->k[k], out, 1, o * ir->v[out].stride[1], ost);
			if (m->dtype != NPU_DT_F32) {
				npu_xins rx = { .op = NPU_X_RND, .a = r, .dtype = m->dtype,
						.node = node };
				if ((r = npu_kir_x(&ir->k[k], rx)) < 0)
					return npu_errf(z->e, "out of memory");
			}
			npu_xins sx = { .op = NPU_X_STORE, .a = r, .b = oo, .node = node };
			if (oo < 0 || npu_kir_x(&ir->k[k], sx) < 0)
				return npu_errf(z->e, "out of memory");
			ir->v[out].producer = k;
			close_cur(z);
		}
	}
	if (oned) {
		int64_t sh3[3] = { osh[0], osh[1], osh[3] }, st3[3];
		npu_kir_contig(3, sh3, st3);
		if ((out = view_val(z, node, out, 3, sh3, 0, st3)) < 0)
			return -1;
	}
	if (ocg > 1 || oned)
		ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: grouped convolution (groups %lld) as %lld ew kernel%s of %lld strided taps",
		       n->name, (long long)g,
		       (long long)(ocg * ((ntaps + GCONV_MAX_TAPS - 1) / GCONV_MAX_TAPS)),
		       ocg > 1 || ntaps > GCONV_MAX_TAPS ? "s" : "", (long long)ntaps);
	return 0;
}

/*
 * convolution as an implicit GEMM on the matrix unit: per image,
 * C[OC][OH*OW] = W[OC][IC*KH*KW] . X_col[IC*KH*KW][OH*OW]; C is the NCHW
 * output as it is, W the weight as it is, and X_col is gathered in SRAM
 * from a zero-padded copy of the image (emit_mm.c).  Transposed, dilated
 * and 1-d convolutions become such a convolution of spread or reshaped
 * operands (do_tconv, spread_val, do_conv1d).
 */
static int conv_mm(fz *z, int node, int x, int w, int bias, const int64_t *st,
		   const int64_t *pad, const int64_t *osh);
static int conv_mm_to(fz *z, int node, int x, int w, int bias, const int64_t *st,
		      const int64_t *pad, const int64_t *osh, int ov);
static int conv_mm_add(fz *z, int node, int x, int w, int bias, const int64_t *st,
		       const int64_t *pad, const int64_t *osh, int ov, int addend);
static int conv_taps(fz *z, int node, int x, int w, int bias, const int64_t *st,
		     const int64_t *pad, const int64_t *dil, const int64_t *osh);

/*
 * v [N, C, H, W] spread over its last two dims: f - 1 zeros between
 * elements, lo zeros before and hi after, as a new contiguous value.  A
 * frozen constant is spread at compile time; anything else by a zero
 * fill and a strided copy (two kernels).  For a transposed convolution's
 * input and a dilated convolution's weight.
 */
static int spread_val(fz *z, int node, int v, const int64_t *f,
		      const int64_t *lo, const int64_t *hi, const char *tag)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	/* strides are read NPU_MAX_DIMS at a time (npu_kir_opnd) */
	int64_t sh[4], zst[NPU_MAX_DIMS] = { 0 }, dst[NPU_MAX_DIMS] = { 0 }, off;
	int root = root_of(ir, v), sv;
	char nm[300];

	memcpy(sh, ir->v[v].shape, sizeof sh);
	for (int i = 0; i < 2; i++)
		sh[2 + i] = (sh[2 + i] - 1) * f[i] + 1 + lo[i] + hi[i];
	snprintf(nm, sizeof nm, "%s.%s", n->name, tag);
	if ((sv = npu_kir_val(ir, nm, node, ir->v[v].dtype, 4, sh)) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[sv].needed = 1;
	npu_kir_contig(4, sh, zst);
	for (int i = 0; i < 4; i++)
		dst[i] = i < 2 ? zst[i] : f[i - 2] * zst[i];
	off = lo[0] * zst[2] + lo[1] * zst[3];
	if (ir->v[root].kind == NPU_BUF_CONST && ir->v[root].cdata && !ir->v[v].isconst) {
		int esz = npu_dtype_size(ir->v[v].dtype);
		uint8_t *dstb = calloc((size_t)(npu_kir_numel(4, sh) * esz) + 1, 1);
		if (!dstb)
			return npu_errf(z->e, "out of memory");
		const_copy(ir, v, dstb, off, dst);
		own_const(ir, sv, dstb);
		npu_kir_decide(ir, 1, "%s: constant spread at compile time", nm);
		return sv;
	}
	if (fill_kern(z, node, nm, 4, sh, -1, 0, sv, 0, zst) < 0)
		return -1;
	snprintf(nm, sizeof nm, "%s.%s.in", n->name, tag);
	if (fill_kern(z, node, nm, 4, ir->v[v].shape, v, 0, sv, off, dst) < 0)
		return -1;
	return sv;
}

/*
 * A transposed convolution (groups 1, no dilation) is the convolution,
 * with stride 1 and no padding, of x spread out by the stride (s - 1
 * zeros between elements) and padded by KH - 1 - p (plus output_padding
 * at the end), by the weight with its channel dims swapped and its
 * window flipped: W'[oc, ic, kh, kw] = w[ic, oc, KH-1-kh, KW-1-kw].  The
 * spread copy is a zero fill and a strided store; the weight is folded
 * at compile time when it is frozen, else KH*KW copy kernels.
 */
static int do_tconv(fz *z, int node, int x, int w, int bias, const int64_t *st,
		    const int64_t *pad, const int64_t *opad, const int64_t *osh1)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int64_t ws[4], P[2], lo[2], hi[2];
	int64_t zero[2] = { 0, 0 }, wsh[4], wst[4], cst[4], woff, osh[4];
	const npu_gmeta *m = tmeta(n, 0);
	int xz, wt;
	char nm[300];

	if (ir->v[x].ndim != 4 || ir->v[w].ndim != 4 || !isfloat(ir->v[x].dtype) ||
	    ir->v[x].isconst || ir->v[w].isconst || !m || (!osh1 && m->ndim != 4))
		return host_kern(z, node, "transposed convolution of other types or ranks");
	for (int i = 0; i < 4; i++)
		osh[i] = osh1 ? osh1[i] : m->shape[i].v;
	memcpy(ws, ir->v[w].shape, sizeof ws);
	for (int i = 0; i < 2; i++) {
		P[i] = ws[2 + i] - 1 - pad[i];
		if (P[i] < 0 || opad[i] < 0)
			return host_kern(z, node, "transposed convolution with padding beyond its window");
	}
	/* the spread, padded input */
	for (int i = 0; i < 2; i++) {
		lo[i] = P[i];
		hi[i] = P[i] + opad[i];
	}
	if ((xz = spread_val(z, node, x, st, lo, hi, "spread")) < 0)
		return -1;
	/* the weight, channels swapped and flipped */
	wsh[0] = ws[1];
	wsh[1] = ws[0];
	wsh[2] = ws[2];
	wsh[3] = ws[3];
	memcpy(wst, ir->v[w].stride, sizeof wst);
	woff = ir->v[w].off + (ws[2] - 1) * wst[2] + (ws[3] - 1) * wst[3];
	cst[0] = wst[1];
	cst[1] = wst[0];
	cst[2] = -wst[2];
	cst[3] = -wst[3];
	if (ir->v[root_of(ir, w)].kind == NPU_BUF_CONST && ir->v[root_of(ir, w)].cdata) {
		if ((wt = view_val(z, node, w, 4, wsh, woff, cst)) < 0 ||
		    (wt = fold_const_view(z, wt)) < 0)
			return -1;
	} else {
		int64_t tsh[2] = { wsh[0], wsh[1] }, tst[2] = { wst[1], wst[0] }, ost[4];
		snprintf(nm, sizeof nm, "%s.weight", n->name);
		if ((wt = npu_kir_val(ir, nm, node, ir->v[w].dtype, 4, wsh)) < 0)
			return npu_errf(z->e, "out of memory");
		ir->v[wt].needed = 1;
		npu_kir_contig(4, wsh, ost);
		for (int64_t kh = 0; kh < ws[2]; kh++)
			for (int64_t kw = 0; kw < ws[3]; kw++) {
				int64_t o = ir->v[w].off + kh * wst[2] + kw * wst[3];
				int tap = view_val(z, node, w, 2, tsh, o, tst);
				int64_t to = (ws[2] - 1 - kh) * ost[2] + (ws[3] - 1 - kw) * ost[3];
				int64_t tdst[NPU_MAX_DIMS] = { ost[0], ost[1] };
				if (tap < 0)
					return -1;
				snprintf(nm, sizeof nm, "%s.weight.%lld", n->name,
					 (long long)(kh * ws[3] + kw));
				if (fill_kern(z, node, nm, 2, tsh, tap, 0, wt, to, tdst) < 0)
					return -1;
			}
	}
	npu_kir_decide(ir, 1, "%s: transposed convolution as a convolution of the "
		       "input spread by the stride (%lldx%lld) by the flipped weight",
		       n->name, (long long)st[0], (long long)st[1]);
	return conv_mm(z, node, xz, wt, bias, (int64_t[]){ 1, 1 }, zero, osh);
}

/*
 * A 1-d convolution (no dilation when groups = 1) is the 2-d one of x
 * viewed [N, C, 1, L] by w viewed [OC, C/G, 1, K], stride (1, s), padding
 * (0, p): its result [N, OC, 1, L'] is the node's [N, OC, L'].  Depthwise
 * ones (Conformer's, Mamba's causal one) take do_gconv's vector-unit sums.
 */
/* v made contiguous: itself, folded when a constant view, else copied */
static int contig_val(fz *z, int v, int node, const char *why)
{
	npu_kir *ir = z->ir;

	if (iscontig(&ir->v[v]) && ir->v[v].root < 0)
		return v;
	if (ir->v[root_of(ir, v)].kind == NPU_BUF_CONST && ir->v[root_of(ir, v)].cdata &&
	    !ir->v[v].isconst)
		return fold_const_view(z, v);
	return copy_val(z, v, node, why);
}

/*
 * A grouped 1x1 convolution (stride 1, no padding) with several input
 * channels a group (SqueezeBERT's projections, ShuffleNet v1) as one
 * batched matmul over the N*G (image, group) pairs: C[b] = W[b % G] .
 * X[b], X [N*G][C/G][H*W] the input itself (contiguous), the result
 * [N*G][OC/G][H*W] the output's own layout.  The weight and bias,
 * repeated per image when N > 1 (folded when frozen, else one copy
 * each), give every batch its group's rows at a uniform stride.
 */
static int gconv_bmm(fz *z, int node, int x, int w, int bias, int64_t g)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int64_t N = ir->v[x].shape[0], C = ir->v[x].shape[1], OC = ir->v[w].shape[0];
	int64_t P = ir->v[x].shape[2] * ir->v[x].shape[3], icg = C / g, ocg = OC / g;
	int64_t sh[NPU_MAX_DIMS], st[NPU_MAX_DIMS] = { 0 }, sa[NPU_MAX_DIMS] = { 0 };
	int64_t sb[NPU_MAX_DIMS] = { 0 };
	int k, r, wv, bv = -1, dt = ir->v[x].dtype;

	if (!m || dt != ir->v[w].dtype || m->dtype != dt ||
	    (dt == NPU_DT_F32 && ir->fp32prec > 0))
		return host_kern(z, node, "grouped 1x1 convolution of these types or precision");
	if ((x = contig_val(z, x, node, "a grouped convolution's input as a matmul operand")) < 0)
		return -1;
	/* the weight [N][OC][C/G] (A of batch b = n*G + g at b * OC/G * C/G) */
	sh[0] = N; sh[1] = OC; sh[2] = icg;
	st[0] = 0; st[1] = ir->v[w].stride[0]; st[2] = ir->v[w].stride[1];
	if ((wv = view_val(z, node, w, 3, sh, ir->v[w].off, st)) < 0)
		return -1;
	if (N > 1 || !iscontig(&ir->v[w]))
		wv = contig_val(z, wv, node, "a grouped convolution's weight repeated per image");
	if (wv < 0)
		return -1;
	if (bias >= 0) {
		int64_t bsh[2] = { N, OC }, bst[2] = { 0, ir->v[bias].stride[0] };
		if ((bv = view_val(z, node, bias, 2, bsh, ir->v[bias].off, bst)) < 0 ||
		    (bv = contig_val(z, bv, node, "a grouped convolution's bias repeated per image")) < 0)
			return -1;
	}
	if ((k = new_kern(z, NPU_KK_MM, node)) < 0)
		return -1;
	npu_kern *K = &ir->k[k];
	K->ndim = 3;
	K->shape[0] = K->mm_batch = N * g;
	K->shape[1] = K->mm_m = ocg;
	K->shape[2] = K->mm_n = P;
	K->mm_k = icg;
	K->mm_dtype = dt;
	sa[0] = ocg * icg; sa[1] = icg; sa[2] = 1;
	sb[0] = icg * P; sb[1] = P; sb[2] = 1;
	ir->v[root_of(ir, wv)].needed = ir->v[root_of(ir, x)].needed = 1;
	K->mm_a = npu_kir_opnd(K, root_of(ir, wv), 0, ir->v[wv].off, sa);
	K->mm_b = npu_kir_opnd(K, root_of(ir, x), 0, ir->v[x].off, sb);
	if (K->mm_a < 0 || K->mm_b < 0)
		return npu_errf(z->e, "out of memory");
	z->cur = k;
	r = xadd(z, k, NPU_X_ACC, 0, 0, 0, 0, 0, node);
	if (bv >= 0) {
		int64_t bs[NPU_MAX_DIMS] = { ocg, 1, 0 };
		int o, bx;
		ir->v[root_of(ir, bv)].needed = 1;
		o = npu_kir_opnd(K, root_of(ir, bv), 0, ir->v[bv].off, bs);
		bx = xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node);
		r = xadd(z, k, NPU_X_BIN, NPU_OP_VADD, r, bx, 0, 0, node);
	}
	npu_kir_decide(ir, 1, "%s: grouped 1x1 convolution as a matmul batched over %lld (image, group) pairs (M=%lld N=%lld K=%lld)",
		       n->name, (long long)(N * g), (long long)ocg, (long long)P, (long long)icg);
	return def_val(z, k, node, r, LV_ELEM);
}

/*
 * A grouped 1-d convolution with several input channels a group and K
 * taps (Wav2Vec2's and HuBERT's positional convolution) as the 1x1 one
 * of gconv_bmm: the taps stacked into each group's channels, X'[n][g*K*
 * icg + t*icg + c][p] = xpad[n][g*icg + c][p*s + t*d] (one copy kernel
 * per tap, after a zero-padded copy when p > 0), the weight's taps next
 * to its channels, W'[o][t*icg + c] = w[o][c][t] (folded when frozen).
 * x4 and w4 are the 4-d [N, C, 1, L] and [OC, icg, 1, K] views.
 */
static int gconv1d_taps(fz *z, int node, int x4, int w4, int bias, int64_t g,
			int64_t s1, int64_t p1, int64_t d1, int64_t OL)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int64_t N = ir->v[x4].shape[0], C = ir->v[x4].shape[1];
	int64_t icg = C / g, K = ir->v[w4].shape[3], O = ir->v[w4].shape[0];
	int64_t xst[NPU_MAX_DIMS] = { 0 }, cs[NPU_MAX_DIMS];
	int64_t cst[NPU_MAX_DIMS] = { 0 }, vs[NPU_MAX_DIMS], vst[NPU_MAX_DIMS] = { 0 };
	int64_t dst[NPU_MAX_DIMS] = { 0 }, ws[NPU_MAX_DIMS], wst[NPU_MAX_DIMS] = { 0 };
	int xp = x4, xc, xv, wv;
	char nm[300];

	if (p1 && (xp = pad_copy(z, node, x4, (int64_t[]){ 0, p1 }, xst)) < 0)
		return -1;
	cs[0] = N; cs[1] = g * K * icg; cs[2] = 1; cs[3] = OL;
	snprintf(nm, sizeof nm, "%s.taps", n->name);
	if ((xc = npu_kir_val(ir, nm, node, ir->v[x4].dtype, 4, cs)) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[xc].needed = 1;
	npu_kir_contig(4, cs, cst);
	/* tap t: [N, G, icg, OL] of xpad into its slot of each group */
	vs[0] = N; vs[1] = g; vs[2] = icg; vs[3] = OL;
	dst[0] = cst[0]; dst[1] = K * icg * cst[1]; dst[2] = cst[1]; dst[3] = 1;
	for (int64_t t = 0; t < K; t++) {
		const npu_kval *P = &ir->v[xp];
		vst[0] = P->stride[0]; vst[1] = icg * P->stride[1]; vst[2] = P->stride[1];
		vst[3] = s1 * P->stride[3];
		snprintf(nm, sizeof nm, "%s.tap%lld", n->name, (long long)t);
		if ((xv = view_val(z, node, xp, 4, vs, P->off + t * d1 * P->stride[3], vst)) < 0 ||
		    fill_kern(z, node, nm, 4, vs, xv, 0, xc, t * icg * cst[1], dst) < 0)
			return -1;
	}
	/* W' [O, K, icg] from w [O, icg, 1, K], contiguous, viewed [O, K*icg, 1, 1] */
	ws[0] = O; ws[1] = K; ws[2] = icg;
	wst[0] = ir->v[w4].stride[0]; wst[1] = ir->v[w4].stride[3]; wst[2] = ir->v[w4].stride[1];
	if ((wv = view_val(z, node, w4, 3, ws, ir->v[w4].off, wst)) < 0 ||
	    (wv = contig_val(z, wv, node, "a grouped 1-d convolution's weight with its taps next to its channels")) < 0)
		return -1;
	ws[0] = O; ws[1] = K * icg; ws[2] = 1; ws[3] = 1;
	npu_kir_contig(4, ws, wst);
	if ((wv = view_val(z, node, wv, 4, ws, 0, wst)) < 0)
		return -1;
	npu_kir_decide(ir, 1, "%s: grouped 1-d convolution with its %lld taps stacked into each group's channels",
		       n->name, (long long)K);
	return gconv_bmm(z, node, xc, wv, bias, g);
}

/*
 * A 1-d convolution's operands as a 2-d one's: x [N, C, L] viewed
 * [N, C, 1, L] (*x4), w [A, B, K] viewed [A, B, 1, K] (*w4), and the
 * result's shape [N, OC, 1, L'] from the node's [N, OC, L'] (m).
 */
static int views_2d(fz *z, int node, int x, int w, const npu_gmeta *m,
		    int *x4, int *w4, int64_t *osh)
{
	npu_kir *ir = z->ir;
	int64_t xsh[4], xst[4], wsh[4], wst[4];

	/* dims 0, 1, (new) 2, 3 <- 0, 1, -, 2; the new dim has size 1 */
	for (int i = 0; i < 4; i++) {
		int j = i < 2 ? i : 2;
		xsh[i] = i == 2 ? 1 : ir->v[x].shape[j];
		xst[i] = ir->v[x].stride[j];
		wsh[i] = i == 2 ? 1 : ir->v[w].shape[j];
		wst[i] = ir->v[w].stride[j];
	}
	osh[0] = m->shape[0].v;
	osh[1] = m->shape[1].v;
	osh[2] = 1;
	osh[3] = m->shape[2].v;
	if ((*x4 = view_val(z, node, x, 4, xsh, ir->v[x].off, xst)) < 0 ||
	    (*w4 = view_val(z, node, w, 4, wsh, ir->v[w].off, wst)) < 0)
		return -1;
	return 0;
}

/*
 * A dilated convolution whose weight spread by its dilation would have
 * more rows than this (K = C * ((KH - 1) d + 1) * ((KW - 1) d + 1); the
 * spread multiplies the MACs by that over C * KH * KW) is computed by
 * conv_taps instead: DeepLabv3's ASPP at dilation 12 had K = 600,000.
 */
#define CONV_SPREAD_MAX_K 4096

/*
 * A dilated 2-d convolution (groups 1, float, 4-d weight): the sum over
 * its window of 1x1 convolutions when its weight spread by the dilation
 * would be too deep (conv_taps), else the convolution by that spread
 * weight; else the host.
 */
static int conv_dilated(fz *z, int node, int x, int w, int bias, int64_t *st,
			int64_t *pad, int64_t *dil, int64_t *osh)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int64_t zero[2] = { 0, 0 };

	if (w < 0 || ir->v[w].ndim != 4 || !isfloat(ir->v[w].dtype) || ir->v[w].isconst)
		return host_kern(z, node, "dilated convolution of other types");
	if (ir->v[w].shape[1] * ((ir->v[w].shape[2] - 1) * dil[0] + 1) *
	    ((ir->v[w].shape[3] - 1) * dil[1] + 1) > CONV_SPREAD_MAX_K)
		return conv_taps(z, node, x, w, bias, st, pad, dil, osh);
	if ((w = spread_val(z, node, w, dil, zero, zero, "dilated")) < 0)
		return -1;
	npu_kir_decide(ir, 1, "%s: dilated convolution (%lldx%lld) as one by its "
		       "spread weight", n->name, (long long)dil[0], (long long)dil[1]);
	return conv_mm(z, node, x, w, bias, st, pad, osh);
}

static int do_conv1d(fz *z, int node, int x, int w, int bias, int64_t groups)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int64_t s1, p1, d1, osh[4];
	int64_t st[2], pad[2];
	int x4, w4;

	if (w < 0 || ir->v[w].ndim != 3 || !m || m->ndim != 3 ||
	    ilist(&n->args[3], &s1, 1) || ilist(&n->args[4], &p1, 1) ||
	    ilist(&n->args[5], &d1, 1) || (groups > 1 && !isfloat(ir->v[x].dtype)))
		return host_kern(z, node, "1-d convolution of this form (other ranks)");
	st[0] = 1;
	st[1] = s1;
	pad[0] = 0;
	pad[1] = p1;
	if (views_2d(z, node, x, w, m, &x4, &w4, osh) < 0)
		return -1;
	if (groups > 1) {
		int64_t dil[2] = { 1, d1 };
		/* several input channels a group: the vector unit's sums of
		 * C/G x K taps per output (Wav2Vec2's 16 x 16) cost ten times
		 * the host's call; they want a GEMM per group */
		int64_t cg = ir->v[w4].shape[1], kw = ir->v[w4].shape[3];
		if (cg > 1 && kw == 1 && s1 == 1 && p1 == 0)
			return gconv_bmm(z, node, x4, w4, bias, groups);
		if (cg > 1)
			return gconv1d_taps(z, node, x4, w4, bias, groups, s1, p1, d1, osh[3]);
		return do_gconv(z, node, x4, w4, bias, groups, st, pad, dil, osh);
	}
	if (d1 != 1)
		return conv_dilated(z, node, x4, w4, bias, st, pad,
				    (int64_t[]){ 1, d1 }, osh);
	return conv_mm(z, node, x4, w4, bias, st, pad, osh);
}

/*
 * 3-d convolution (video: R3D) as one 2-d convolution.  The KD depth
 * taps are stacked into the channels: X'[n][od][t*C + c][h][w] =
 * x[n][c][od*SD + t - PD][h][w] (KD copy kernels, after a zero-padded
 * copy along D when PD > 0), so that the KD*C*KH*KW-deep implicit GEMM
 * over [N*OD, KD*C, H, W] with the weight's taps moved next to its
 * channels (W'[o][t*C + c] = w[o][c][t]: folded when frozen) gives
 * Y'[n*OD + od][o] = y[n][o][od]; the node's value is that view of Y'.
 * Groups 1, no dilation, float; else the host.
 */
static int do_conv3d(fz *z, int node, int x, int w, int bias)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	/* strides are read NPU_MAX_DIMS at a time (npu_kir_opnd) */
	int64_t st[3], pd[3], dl[3], xs[NPU_MAX_DIMS], xst[NPU_MAX_DIMS] = { 0 };
	int64_t csh[NPU_MAX_DIMS], cst[NPU_MAX_DIMS] = { 0 }, vsh[NPU_MAX_DIMS];
	int64_t vst[NPU_MAX_DIMS] = { 0 }, x4[4], w5[5], ws5[NPU_MAX_DIMS] = { 0 }, o4[4];
	int64_t ost[NPU_MAX_DIMS] = { 0 }, N, C, D, OD, KD, O;
	int xp = x, xc, xv, wv, ov, v;
	char nm[300];

	if (!m || m->ndim != 5 || ir->v[x].ndim != 5 || w < 0 || ir->v[w].ndim != 5 ||
	    !isfloat(ir->v[x].dtype) || ir->v[x].isconst ||
	    ilist(&n->args[3], st, 3) || ilist(&n->args[4], pd, 3) ||
	    ilist(&n->args[5], dl, 3) || dl[0] != 1 || dl[1] != 1 || dl[2] != 1 ||
	    ir->v[w].shape[1] != ir->v[x].shape[1])
		return host_kern(z, node, "3-d convolution of this form (grouped, dilated or not float)");
	N = ir->v[x].shape[0];
	C = ir->v[x].shape[1];
	D = ir->v[x].shape[2];
	KD = ir->v[w].shape[2];
	O = ir->v[w].shape[0];
	OD = m->shape[2].v;
	if (pd[0]) {
		memcpy(xs, ir->v[x].shape, sizeof xs);
		xs[2] = D + 2 * pd[0];
		snprintf(nm, sizeof nm, "%s.dpad", n->name);
		if ((xp = npu_kir_val(ir, nm, node, ir->v[x].dtype, 5, xs)) < 0)
			return npu_errf(z->e, "out of memory");
		ir->v[xp].needed = 1;
		npu_kir_contig(5, xs, xst);
		if (fill_kern(z, node, nm, 5, xs, -1, 0, xp, 0, xst) < 0)
			return -1;
		snprintf(nm, sizeof nm, "%s.dpad.in", n->name);
		if (fill_kern(z, node, nm, 5, ir->v[x].shape, x, 0, xp, pd[0] * xst[2], xst) < 0)
			return -1;
	}
	/* the stacked input X' [N, OD, KD*C, H, W] */
	csh[0] = N; csh[1] = OD; csh[2] = KD * C;
	csh[3] = ir->v[x].shape[3]; csh[4] = ir->v[x].shape[4];
	snprintf(nm, sizeof nm, "%s.taps", n->name);
	if ((xc = npu_kir_val(ir, nm, node, ir->v[x].dtype, 5, csh)) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[xc].needed = 1;
	npu_kir_contig(5, csh, cst);
	for (int64_t t = 0; t < KD; t++) {
		const npu_kval *P = &ir->v[xp];
		int64_t off = P->off;
		vsh[0] = N; vsh[1] = OD; vsh[2] = C; vsh[3] = csh[3]; vsh[4] = csh[4];
		vst[0] = P->stride[0]; vst[1] = st[0] * P->stride[2]; vst[2] = P->stride[1];
		vst[3] = P->stride[3]; vst[4] = P->stride[4];
		snprintf(nm, sizeof nm, "%s.tap%lld", n->name, (long long)t);
		if ((xv = view_val(z, node, xp, 5, vsh, off + t * P->stride[2], vst)) < 0 ||
		    fill_kern(z, node, nm, 5, vsh, xv, 0, xc, t * C * cst[2], cst) < 0)
			return -1;
	}
	x4[0] = N * OD; x4[1] = KD * C; x4[2] = csh[3]; x4[3] = csh[4];
	if ((xv = view_val(z, node, xc, 4, x4, 0, cst + 1)) < 0)   /* contiguous */
		return -1;
	/* the weight with its depth taps next to its channels, contiguous */
	w5[0] = O; w5[1] = KD; w5[2] = C; w5[3] = ir->v[w].shape[3]; w5[4] = ir->v[w].shape[4];
	ws5[0] = ir->v[w].stride[0]; ws5[1] = ir->v[w].stride[2]; ws5[2] = ir->v[w].stride[1];
	ws5[3] = ir->v[w].stride[3]; ws5[4] = ir->v[w].stride[4];
	if ((wv = view_val(z, node, w, 5, w5, ir->v[w].off, ws5)) < 0)
		return -1;
	if ((wv = contig_val(z, wv, node, "a 3-d convolution's weight with its depth taps next to its channels")) < 0)
		return -1;
	{
		int64_t w4[4] = { O, KD * C, w5[3], w5[4] }, wst[NPU_MAX_DIMS];
		npu_kir_contig(4, w4, wst);
		if ((wv = view_val(z, node, wv, 4, w4, 0, wst)) < 0)
			return -1;
	}
	o4[0] = N * OD; o4[1] = O; o4[2] = m->shape[3].v; o4[3] = m->shape[4].v;
	snprintf(nm, sizeof nm, "%s.2d", n->name);
	if ((ov = npu_kir_val(ir, nm, node, m->dtype, 4, o4)) < 0)
		return npu_errf(z->e, "out of memory");
	if (conv_mm_to(z, node, xv, wv, bias, st + 1, pd + 1, o4, ov) < 0)
		return -1;
	if (ir->nodeval[node] != ov)    /* conv_mm sent it to the host */
		return 0;
	/* y[n][o][od][oh][ow] = Y'[n*OD + od][o][oh][ow] */
	{
		int64_t osh[5] = { N, O, OD, o4[2], o4[3] }, s4[NPU_MAX_DIMS];
		npu_kir_contig(4, o4, s4);
		ost[0] = OD * s4[0]; ost[1] = s4[1]; ost[2] = s4[0]; ost[3] = s4[2]; ost[4] = s4[3];
		if ((v = view_val(z, node, ov, 5, osh, 0, ost)) < 0)
			return -1;
	}
	ir->nodeval[node] = v;
	close_cur(z);
	npu_kir_decide(ir, 1, "%s: 3-d convolution as a 2-d one over its %lld depth taps stacked into the channels",
		       n->name, (long long)KD);
	return 0;
}

/* A convolution node's MACs, from the graph's meta (0: unknown). */
static double conv_macs(const npu_graph *g, const npu_gnode *n)
{
	const npu_gmeta *m = tmeta(n, 0), *wm;
	double o = 1, w = 1;

	if (!m || n->nargs < 2 || n->args[1].kind != NPU_GV_NODE ||
	    !(wm = tmeta(&g->nodes[n->args[1].u.node], 0)) || wm->ndim < 1 ||
	    wm->shape[0].v <= 0)
		return 0;
	for (int d = 0; d < m->ndim; d++)
		o *= (double)m->shape[d].v;
	for (int d = 0; d < wm->ndim; d++)
		w *= (double)wm->shape[d].v;
	return o * w / (double)wm->shape[0].v;
}

/*
 * Two convolutions summed (ResNet's block output plus its downsample):
 * the add and what follows it join the kernel of whichever convolution
 * is walked last, as its epilogue.  In graph order that is the 1x1
 * downsample, whose matrix work is short, so its last block's epilogue
 * (bias, the other's output loaded, add, ReLU) ran after the array with
 * nothing to hide behind (14-16 k cycles for a 1.6 k bound).  When the
 * one after this node in the walk has fewer MACs and its inputs are all
 * computed, it moves up to be walked first, so the add goes into this
 * node's epilogue, under its longer matrix work.  1 when moved.
 */
static int conv_cheap_first(fz *z, int node)
{
	const npu_graph *g = z->g;
	const npu_gmeta *m;
	int u = -1, nu = 0, o = -1;

	if (!z->ord || z->ir->nofuse)
		return 0;
	for (int i = z->at + 1; i < g->nnodes; i++)
		if (reads(&g->nodes[z->ord[i]], node)) {
			u = u < 0 ? i : u;
			nu++;
		}
	if (nu != 1 || g->nodes[z->ord[u]].aop != NPU_AOP_ADD_TENSOR ||
	    g->nodes[z->ord[u]].nargs != 2 || g->nodes[z->ord[u]].nkwargs)
		return 0;
	for (int a = 0; a < 2; a++) {
		const npu_gval *v = &g->nodes[z->ord[u]].args[a];
		if (v->kind == NPU_GV_NODE && v->u.node != node)
			o = v->u.node;
	}
	if (o < 0 || z->pos[o] <= z->at || z->pos[o] >= u || z->moved[o] ||
	    z->done[o] || g->nodes[o].op != NPU_GOP_CALL_FUNCTION ||
	    npu_support_kind(g->nodes[o].aop) != NPU_LK_CONV)
		return 0;
	/* the other node's users: only the add */
	for (int i = z->at + 1; i < g->nnodes; i++)
		if (i != u && reads(&g->nodes[z->ord[i]], o))
			return 0;
	if (conv_macs(g, &g->nodes[o]) <= 0 ||
	    conv_macs(g, &g->nodes[o]) >= conv_macs(g, &g->nodes[node]))
		return 0;
	/* (not for planes narrower than the array: ResNet's layer 4, 7x7,
	 * computed transposed, took 3.9 k cycles more for the residual than
	 * its downsample saved) */
	m = tmeta(&g->nodes[node], 0);
	if (!m || m->ndim != 4 || (z->ir->t && m->shape[2].v * m->shape[3].v < z->ir->t->mxu_cols))
		return 0;
	/* its inputs computed by now, or constants (get_attr nodes of the
	 * fold pass, placed just before it: they move up with it) */
	for (int i = 0; i < g->nodes[o].nargs; i++) {
		const npu_gval *v = &g->nodes[o].args[i];
		if (v->kind == NPU_GV_NODE && z->pos[v->u.node] >= z->at &&
		    g->nodes[v->u.node].op != NPU_GOP_GET_ATTR)
			return 0;
		for (int j = 0; v->kind == NPU_GV_LIST && j < v->u.list.n; j++)
			if (v->u.list.v[j].kind == NPU_GV_NODE)
				return 0;
	}
	if (g->nodes[o].nkwargs)
		return 0;
	npu_kir_decide(z->ir, 1, "%s: moved up before %s, so that their sum %s goes into %s's epilogue (more matrix work to hide it)",
		       g->nodes[o].name, g->nodes[node].name, g->nodes[z->ord[u]].name,
		       g->nodes[node].name);
	order_move(z, z->pos[o], z->at);
	for (int i = 0; i < g->nodes[o].nargs; i++) {
		const npu_gval *v = &g->nodes[o].args[i];
		if (v->kind == NPU_GV_NODE && z->pos[v->u.node] > z->at)
			order_move(z, z->pos[v->u.node], z->at);
	}
	return 1;
}

/*
 * A 1-d transposed convolution (groups 1, no dilation: EnCodec's and
 * the vocoders' upsamplers) is the 2-d one of x viewed [N, C, 1, L] by w
 * viewed [C, OC, 1, K], stride (1, s), padding (0, p), output padding
 * (0, op): its [N, OC, 1, L'] is the node's [N, OC, L'].
 */
static int do_tconv1d(fz *z, int node, int x, int w, int bias)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int64_t s1, p1, d1, o1, osh[4];
	int x4, w4;

	if (w < 0 || ir->v[w].ndim != 3 || !m || m->ndim != 3 ||
	    ilist(&n->args[3], &s1, 1) || ilist(&n->args[4], &p1, 1) ||
	    ilist(&n->args[5], &d1, 1) || ilist(&n->args[7], &o1, 1) || d1 != 1)
		return host_kern(z, node, "1-d transposed convolution of this form (dilated)");
	if (views_2d(z, node, x, w, m, &x4, &w4, osh) < 0)
		return -1;
	return do_tconv(z, node, x4, w4, bias, (int64_t[]){ 1, s1 }, (int64_t[]){ 0, p1 },
			(int64_t[]){ 0, o1 }, osh);
}


/*
 * A dilated convolution as the sum over its window of 1x1 convolutions:
 * tap (kh, kw) multiplies W[:, :, kh, kw] by the padded image's view at
 * (kh * dh, kw * dw) strided by the stride, and its epilogue adds the
 * taps before it (the first one the bias), so the last tap's kernel
 * holds the result, open to the ops that follow.  A tap whose rows or
 * columns all fall in the padding adds nothing and is left out.
 */
static int conv_taps(fz *z, int node, int x, int w, int bias, const int64_t *st,
		     const int64_t *pad, const int64_t *dil, const int64_t *osh)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int64_t KH = ir->v[w].shape[2], KW = ir->v[w].shape[3], H = ir->v[x].shape[2];
	int64_t Wd = ir->v[x].shape[3], pst[NPU_MAX_DIMS], zero[2] = { 0, 0 };
	int64_t vsh[4], wsh[4];
	int live[64], nlive = 0, xp = x, acc = -1;
	char nm[300];

	if (KH * KW > 64)
		return host_kern(z, node, "dilated convolution of a window over 64 taps");
	for (int t = 0; t < KH * KW; t++) {
		int64_t r0 = t / KW * dil[0], c0 = t % KW * dil[1];
		int64_t r1 = r0 + (osh[2] - 1) * st[0], c1 = c0 + (osh[3] - 1) * st[1];
		/* rows [r0, r1] and columns [c0, c1] of the padded image
		 * meet the image's [pad, pad + H) and [pad, pad + W) */
		if (r1 >= pad[0] && r0 < pad[0] + H && c1 >= pad[1] && c0 < pad[1] + Wd)
			live[nlive++] = t;
	}
	if (!nlive)
		return host_kern(z, node, "dilated convolution that reads only its padding");
	if ((xp = pad_copy(z, node, x, pad, pst)) < 0)
		return -1;
	vsh[0] = osh[0];
	vsh[1] = ir->v[x].shape[1];
	vsh[2] = (osh[2] - 1) * st[0] + 1;
	vsh[3] = (osh[3] - 1) * st[1] + 1;
	wsh[0] = ir->v[w].shape[0];
	wsh[1] = ir->v[w].shape[1];
	wsh[2] = wsh[3] = 1;
	for (int i = 0; i < nlive; i++) {
		int64_t kh = live[i] / KW, kw = live[i] % KW;
		int64_t xo = ir->v[xp].off + kh * dil[0] * pst[2] + kw * dil[1] * pst[3];
		int64_t wo = ir->v[w].off + kh * ir->v[w].stride[2] + kw * ir->v[w].stride[3];
		int xt = view_val(z, node, xp, 4, vsh, xo, pst), wt, ov = -1;
		if (xt < 0 || (wt = view_val(z, node, w, 4, wsh, wo, ir->v[w].stride)) < 0)
			return -1;
		if (i < nlive - 1) {
			snprintf(nm, sizeof nm, "%s.tap%d", n->name, i);
			if ((ov = npu_kir_val(ir, nm, node, ir->v[x].dtype, 4, osh)) < 0)
				return npu_errf(z->e, "out of memory");
			ir->v[ov].needed = 1;
		}
		if (conv_mm_add(z, node, xt, wt, i ? -1 : bias, st, zero, osh, ov, acc) < 0)
			return -1;
		if (ov >= 0 && ir->nodeval[node] != ov)
			return 0;     /* sent to the host */
		if (ov >= 0)
			close_cur(z);
		acc = ov;
	}
	npu_kir_decide(ir, 1, "%s: dilated convolution (%lldx%lld) as %d 1x1 convolutions of "
		       "the padded image's shifted views, each adding the ones before "
		       "(%lld taps in the padding alone left out)", n->name,
		       (long long)dil[0], (long long)dil[1], nlive, (long long)(KH * KW - nlive));
	return 0;
}

/*
 * A grouped convolution with at least GCONV_MM_MIN_CG channels a group
 * and GCONV_MM_MIN_K taps per output (its group's channels times its
 * window) is one implicit GEMM per group (gconv_mm) rather than sums on
 * the vector unit (do_gconv), which had taken hundreds of ew kernels a
 * convolution: regnet_x_1_6gf (groups of 24 to 912 channels) 120.2 M ->
 * 4.2 M cycles, resnext50_32x4d (4 to 32) 68.1 M -> 7.8 M (14.0 M with
 * K >= 64, which left its groups of 4 channels on the vector unit).
 * Depthwise and other narrow groups stay there: a GEMM per group of one
 * or two channels would be a kernel per channel.
 */
#define GCONV_MM_MIN_CG 4
#define GCONV_MM_MIN_K 32

/* Piece nm of a convolution (conv_mm_to of the views x, w, bias, of
 * shape sh) into a value of its own, copied into out at off (strides
 * ost).  1 when conv_mm_to sent the node to the host instead; -1 on
 * error. */
static int conv_piece(fz *z, int node, const char *nm, int x, int w, int bias,
		      const int64_t *st, const int64_t *pad, const int64_t *sh,
		      int out, int64_t off, const int64_t *ost)
{
	npu_kir *ir = z->ir;
	int v = npu_kir_val(ir, nm, node, ir->v[out].dtype, 4, sh);

	if (v < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[v].needed = 1;
	if (conv_mm_to(z, node, x, w, bias, st, pad, sh, v) < 0)
		return -1;
	if (ir->nodeval[node] != v)
		return 1;
	close_cur(z);
	return fill_kern(z, node, nm, 4, sh, v, 0, out, off, ost) < 0 ? -1 : 0;
}

/*
 * A grouped convolution as g convolutions of channel slices: group i's
 * image view (channels i * C/g on), weight rows and bias, each an
 * implicit GEMM (conv_mm_to) into a value of its own, copied into its
 * channels of the output.
 */
static int gconv_mm(fz *z, int node, int x, int w, int bias, int64_t g,
		    const int64_t *st, const int64_t *pad, const int64_t *osh)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int64_t cg = ir->v[x].shape[1] / g, ocg = osh[1] / g, ost[NPU_MAX_DIMS];
	int out;
	char nm[300];

	if (x < 0 || ir->v[x].ndim != 4 || ir->v[x].shape[1] % g || osh[1] % g ||
	    ir->v[w].shape[0] != osh[1] || ir->v[w].shape[1] != cg ||
	    (bias >= 0 && ir->v[bias].ndim != 1))
		return host_kern(z, node, "grouped convolution of this form");
	if ((out = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	ir->v[out].needed = 1;
	npu_kir_contig(4, osh, ost);
	for (int64_t i = 0; i < g; i++) {
		int64_t xsh[4], wsh[4], gsh[4], bsh[1] = { ocg };
		int xg, wg, bg = -1, rc;
		memcpy(xsh, ir->v[x].shape, sizeof xsh);
		memcpy(wsh, ir->v[w].shape, sizeof wsh);
		memcpy(gsh, osh, sizeof gsh);
		xsh[1] = cg;
		wsh[0] = gsh[1] = ocg;
		snprintf(nm, sizeof nm, "%s.g%lld", n->name, (long long)i);
		if ((xg = view_val(z, node, x, 4, xsh, ir->v[x].off + i * cg * ir->v[x].stride[1],
				   ir->v[x].stride)) < 0 ||
		    (wg = view_val(z, node, w, 4, wsh, ir->v[w].off + i * ocg * ir->v[w].stride[0],
				   ir->v[w].stride)) < 0 ||
		    (bias >= 0 && (bg = view_val(z, node, bias, 1, bsh, ir->v[bias].off +
						 i * ocg * ir->v[bias].stride[0],
						 ir->v[bias].stride)) < 0))
			return -1;
		rc = conv_piece(z, node, nm, xg, wg, bg, st, pad, gsh, out, i * ocg * ost[1], ost);
		if (rc)
			return rc < 0 ? -1 : 0; /* 1: sent to the host */
	}
	ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: grouped convolution (groups %lld) as %lld implicit GEMMs "
		       "of K = %lld, each copied into its channels", n->name, (long long)g,
		       (long long)g, (long long)(cg * ir->v[w].shape[2] * ir->v[w].shape[3]));
	return 0;
}

/*
 * The recorded output shape of convolution node against the one PyTorch
 * computes from its input, weight, stride, padding, dilation, output
 * padding and groups.  The templates size their loops and buffers from
 * the meta, so a graph that disagrees (hand-edited, corrupt; fuzz_compile
 * made one whose code raced) is refused, naming the node.  Forms it does
 * not know (other ranks, lists of other lengths) are left to do_conv.
 * 0, or -1 with z->e set.
 */
/* Strides, dilations and paddings past this are refused (and keep the
 * shape arithmetic below far from int64 overflow: dims are < 2^31). */
#define CONV_ARG_MAX (1ll << 24)

static int conv_geom_check(fz *z, int node, int x, int w, double tr,
			   double groups)
{
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int64_t st[3], pad[3], dil[3], opad[3], want[5], got[5], cin;
	const npu_kval *X, *W;
	char sg[96], sw[96], sx[96], sk[96];
	int nd, bad;

	if (x < 0 || w < 0 || !m)
		return 0;
	X = &z->ir->v[x];
	W = &z->ir->v[w];
	nd = X->ndim - 2;
	if (nd < 1 || nd > 3 || W->ndim != nd + 2 || m->ndim != nd + 2 ||
	    ilist(&n->args[3], st, nd) || ilist(&n->args[4], pad, nd) ||
	    ilist(&n->args[5], dil, nd) || ilist(&n->args[7], opad, nd))
		return 0;
	if (groups < 1 || groups != (double)(int64_t)groups)
		return npu_errf(z->e, "%s: node '%s': convolution with groups %g",
				z->g->file, n->name, groups);
	cin = tr ? W->shape[0] : W->shape[1] * (int64_t)groups;
	if (X->shape[1] != cin)
		return npu_errf(z->e, "%s: node '%s': input %s has %lld channels, "
				"weight %s with groups %lld takes %lld", z->g->file,
				n->name, npu_shape_str(sx, sizeof sx, X->ndim, X->shape, ", "),
				(long long)X->shape[1],
				npu_shape_str(sw, sizeof sw, W->ndim, W->shape, ", "),
				(long long)groups, (long long)cin);
	for (int i = 0; i < nd; i++)
		if (st[i] < 1 || dil[i] < 1 || pad[i] < 0 || opad[i] < 0 ||
		    st[i] > CONV_ARG_MAX || dil[i] > CONV_ARG_MAX ||
		    pad[i] > CONV_ARG_MAX || opad[i] > CONV_ARG_MAX)
			return npu_errf(z->e, "%s: node '%s': convolution with a stride "
					"or dilation below 1 or above %lld, or a padding "
					"below 0 or above it", z->g->file, n->name,
					(long long)CONV_ARG_MAX);
	want[0] = X->shape[0];
	want[1] = tr ? W->shape[1] * (int64_t)groups : W->shape[0];
	bad = 0;
	for (int i = 0; i < nd; i++) {
		int64_t in = X->shape[2 + i], span = dil[i] * (W->shape[2 + i] - 1) + 1;
		if (tr)
			want[2 + i] = (in - 1) * st[i] - 2 * pad[i] + span + opad[i];
		else
			want[2 + i] = st[i] < 1 || in + 2 * pad[i] < span ? -1 :
				      (in + 2 * pad[i] - span) / st[i] + 1;
	}
	for (int i = 0; i < nd + 2; i++) {
		got[i] = m->shape[i].v;
		bad |= want[i] != got[i];
	}
	if (!bad)
		return 0;
	return npu_errf(z->e, "%s: node '%s': its meta shape %s is not the %s that "
			"a convolution of input %s by weight %s gives with its stride, "
			"padding and dilation", z->g->file, n->name,
			npu_shape_str(sg, sizeof sg, nd + 2, got, ", "),
			npu_shape_str(sk, sizeof sk, nd + 2, want, ", "),
			npu_shape_str(sx, sizeof sx, X->ndim, X->shape, ", "),
			npu_shape_str(sw, sizeof sw, W->ndim, W->shape, ", "));
}

static int do_conv(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int x, w, bias = -1;
	int64_t st[2], pad[2], dil[2], opad[2], osh[4];
	double groups = 1, tr = 0;

	if (conv_cheap_first(z, node))
		return FZ_DEFER;
	if (n->nargs < 9 || n->args[0].kind != NPU_GV_NODE ||
	    n->args[1].kind != NPU_GV_NODE || gnum(&n->args[6], &tr) ||
	    gnum(&n->args[8], &groups))
		return host_kern(z, node, "convolution of this form");
	x = node_val(z, n->args[0].u.node);
	w = node_val(z, n->args[1].u.node);
	if (n->args[2].kind == NPU_GV_NODE)
		bias = node_val(z, n->args[2].u.node);
	if (conv_geom_check(z, node, x, w, tr, groups) < 0)
		return -1;
	if (x >= 0 && ir->v[x].ndim == 3 && !tr)
		return do_conv1d(z, node, x, w, bias, (int64_t)groups);
	if (x >= 0 && ir->v[x].ndim == 3 && groups == 1)
		return do_tconv1d(z, node, x, w, bias);
	if (x >= 0 && ir->v[x].ndim == 5 && !tr && groups == 1)
		return do_conv3d(z, node, x, w, bias);
	if (ilist(&n->args[3], st, 2) || ilist(&n->args[4], pad, 2) ||
	    ilist(&n->args[5], dil, 2) || ilist(&n->args[7], opad, 2))
		return host_kern(z, node, "convolution that is not 1-d or 2-d");
	if (!tr && groups > 1 && isfloat(ir->v[x].dtype)) {
		if (!m || m->ndim != 4)
			return host_kern(z, node, "grouped convolution of other ranks");
		for (int i = 0; i < 4; i++)
			osh[i] = m->shape[i].v;
		if (w >= 0 && ir->v[w].ndim == 4 && dil[0] == 1 && dil[1] == 1 &&
		    ir->v[w].shape[1] >= GCONV_MM_MIN_CG &&
		    ir->v[w].shape[1] * ir->v[w].shape[2] * ir->v[w].shape[3] >= GCONV_MM_MIN_K)
			return gconv_mm(z, node, x, w, bias, (int64_t)groups, st, pad, osh);
		return do_gconv(z, node, x, w, bias, (int64_t)groups, st, pad, dil, osh);
	}
	if (tr && groups == 1 && dil[0] == 1 && dil[1] == 1)
		return do_tconv(z, node, x, w, bias, st, pad, opad, NULL);
	if (tr || groups != 1)
		return host_kern(z, node, "grouped transposed or dilated transposed convolution");
	if (!m || m->ndim != 4)
		return host_kern(z, node, "convolution of other ranks");
	for (int i = 0; i < 4; i++)
		osh[i] = m->shape[i].v;
	if (dil[0] != 1 || dil[1] != 1)
		return conv_dilated(z, node, x, w, bias, st, pad, dil, osh);
	return conv_mm(z, node, x, w, bias, st, pad, osh);
}

/*
 * A 2-d convolution (groups 1, no dilation) of x by w as an implicit
 * GEMM on the matrix unit, with the bias in its epilogue; the result
 * [N, OC, OH, OW] = osh is the node's value ([N, OC, OH * OW] in memory:
 * a 1-d convolution's [N, OC, L] when OH = 1).
 */
/*
 * A convolution computed transposed (emit_convt.c): C^T[P][OC] =
 * X_col^T . W^T, the output positions streamed through the array and
 * the output channels across its columns.  A small plane (ResNet's 7x7
 * layer-4 ones: P = 49 of 128 columns) leaves most columns of the plain
 * form idle; transposed it streams 49 rows per K slice instead of OC.
 * Taken when that is a fifth fewer array cycles (and more than a few
 * DRAM latencies) and the weight is a frozen constant (W^T, [K][OC],
 * is made here), for one
 * image whose X_col^T, two weight panels and image fit in SRAM and
 * whose blocks' accumulators fit side by side.
 */
static int convt_ok(const npu_kir *ir, int x, int w, const int64_t *osh)
{
	const npu_target *t = ir->t;
	const npu_kval *X = &ir->v[x], *W = &ir->v[w];
	int dt = X->dtype, esz = npu_dtype_size(dt);
	int64_t OC = W->shape[0], KK = W->shape[1] * W->shape[2] * W->shape[3];
	int64_t P = osh[2] * osh[3], R, C, ks;
	double rate, plain, tr, sram;

	if (!t || !isfloat(dt) || osh[0] != 1 || t->mxu_rate[dt] <= 0 ||
	    ir->v[root_of(ir, w)].kind != NPU_BUF_CONST || !ir->v[root_of(ir, w)].cdata ||
	    (dt == NPU_DT_F32 && ir->fp32prec == 2))
		return 0;
	R = t->mxu_rows;
	C = t->mxu_cols;
	rate = t->mxu_rate[dt];
	ks = (KK + R - 1) / R;
	plain = (double)ks * (double)((P + C - 1) / C) * fmax(ceil((double)OC / rate), (double)R);
	tr = (double)ks * (double)((OC + C - 1) / C) * fmax(ceil((double)P / rate), (double)R);
	sram = (double)esz * ((double)X->shape[1] * (X->shape[2] + 2 * 3) * (X->shape[3] + 2 * 3) +
			      (double)P * KK + 2.0 * KK * C) + 4.0 * 2 * C * P * 2;
	/* (its fixed costs, the gathers and the first panel slices before
	 * the first mmac, are a few DRAM latencies more than the plain
	 * form's; four: ResNet-18's layer-4 downsample, 2.5 k array cycles
	 * fewer transposed, went from 15.3 k to 12.3 k cycles, where eight
	 * had kept it plain; two or none were slower on resnext_tiny) */
	/* (a channels-last one, with no X_col^T to gather: at a tenth
	 * fewer, ResNet-18's layer-2 3x3 convolutions, 28.2 k array cycles
	 * for 32.3 k, went from 37.3-37.4 k to 34.9-36.0 k; gathered, they
	 * had taken 48-54 k; not for 1x1 ones, whose X_col is the image
	 * itself: ResNeXt-50's 256-to-512 downsample at a tenth fewer
	 * went from 38.7 k to 54.9 k) */
	double gain = X->shape[1] % R == 0 && W->shape[2] * W->shape[3] > 1 ? 0.9 : 0.8;

	return tr <= gain * plain && plain - tr >= 4.0 * (t->dram_latency + t->dma_setup) &&
	       P <= 65536 &&
	       sram <= (double)(t->sram_bytes - NPU_SPILL_BYTES) * 0.75 &&
	       (double)((OC + C - 1) / C) * C * P * 4 <= (double)t->acc_bytes;
}

/*
 * The transposed convolution reads its image channels-last straight
 * from SRAM (emit_convt.c, cv_hwc) when every K slice of the array's
 * rows is one tap's run of channels: IC a multiple of the rows.
 */
static int convt_hwc(const npu_kir *ir, int x)
{
	int64_t R = ir->t ? ir->t->mxu_rows : 0;

	return R > 0 && ir->v[x].shape[1] % R == 0;
}

/* W^T [K][OC] of a constant weight view w [OC][IC][KH][KW]: a new
 * constant, K ordered (ic, kh, kw), or (kh, kw, ic) for hwc; the value,
 * or -1. */
static int convt_weight(fz *z, int w, int hwc)
{
	npu_kir *ir = z->ir;
	const npu_kval *W = &ir->v[w];
	int64_t OC = W->shape[0], IC = W->shape[1], KK = IC * W->shape[2] * W->shape[3];
	int64_t sh[2] = { KK, OC }, dst[4] = { 1, W->shape[2] * W->shape[3] * OC,
					       W->shape[3] * OC, OC };
	if (hwc) {
		dst[1] = OC;
		dst[2] = W->shape[3] * IC * OC;
		dst[3] = IC * OC;
	}
	int nv, esz = npu_dtype_size(W->dtype);
	uint8_t *b;
	char nm[300];

	snprintf(nm, sizeof nm, "%s.t", W->name);
	if ((nv = npu_kir_val(ir, nm, W->node, W->dtype, 2, sh)) < 0 ||
	    !(b = malloc((size_t)(KK * OC * esz) + 1)))
		return npu_errf(z->e, "out of memory");
	const_copy(ir, w, b, 0, dst);
	own_const(ir, nv, b);
	return nv;
}

/*
 * The bias as one more K row: A [OC][K + 1] whose last column is the
 * bias (a constant made here), against a row of ones under X_col
 * (emit_mm.c).  Free on the array when K leaves room in its last slice
 * of the array's rows (the stem's K = 147 fills its second slice to
 * 15%), and it takes the bias out of the epilogue, which may then be a
 * plain copy stored straight from the accumulator.  The new weight
 * value, -1 when it does not apply, -2 on error.
 */
static int conv_bias_row(fz *z, int w, int bias)
{
	npu_kir *ir = z->ir;
	const npu_kval *W = &ir->v[w], *Bv;
	int64_t OC, KK, sh[2], dst[4], bst[1];
	int nv, esz;
	uint8_t *b;
	char nm[300];

	if (bias < 0 || !ir->t || W->ndim != 4 || ir->fp32prec == 2)
		return -1;
	Bv = &ir->v[bias];
	OC = W->shape[0];
	KK = W->shape[1] * W->shape[2] * W->shape[3];
	if (!isfloat(W->dtype) || Bv->dtype != W->dtype || Bv->ndim != 1 ||
	    Bv->shape[0] != OC || KK % ir->t->mxu_rows == 0 ||
	    ir->v[root_of(ir, w)].kind != NPU_BUF_CONST || !ir->v[root_of(ir, w)].cdata ||
	    ir->v[root_of(ir, bias)].kind != NPU_BUF_CONST || !ir->v[root_of(ir, bias)].cdata)
		return -1;
	esz = npu_dtype_size(W->dtype);
	sh[0] = OC;
	sh[1] = KK + 1;
	dst[0] = KK + 1;
	dst[1] = W->shape[2] * W->shape[3];
	dst[2] = W->shape[3];
	dst[3] = 1;
	bst[0] = KK + 1;
	snprintf(nm, sizeof nm, "%s.b", W->name);
	if ((nv = npu_kir_val(ir, nm, W->node, W->dtype, 2, sh)) < 0 ||
	    !(b = malloc((size_t)(OC * (KK + 1) * esz) + 1))) {
		npu_errf(z->e, "out of memory");
		return -2;
	}
	const_copy(ir, w, b, 0, dst);
	const_copy(ir, bias, b, KK, bst);
	own_const(ir, nv, b);
	return nv;
}

static int conv_mm(fz *z, int node, int x, int w, int bias, const int64_t *st,
		   const int64_t *pad, const int64_t *osh)
{
	return conv_mm_to(z, node, x, w, bias, st, pad, osh, -1);
}

/* conv_mm, its result in value ov ([N, OC, OH, OW], contiguous) when
 * ov >= 0 rather than in the node's own */
static int conv_mm_to(fz *z, int node, int x, int w, int bias, const int64_t *st,
		      const int64_t *pad, const int64_t *osh, int ov)
{
	return conv_mm_add(z, node, x, w, bias, st, pad, osh, ov, -1);
}

/*
 * The SRAM the tiler's smallest blocks of a convolution take (tile.c's
 * tile_mm: two image slots, two A panels of 64 rows, two X_col panels
 * of one output row, or of one slice of the array's columns when the
 * stride is 1), and the budget a convolution keeps below: the emitter's
 * spread slots and epilogue operands come on top.
 */
static int conv_fits(const npu_kir *ir, const npu_kval *X, const npu_kval *W,
		     const int64_t *st, const int64_t *pad, const int64_t *osh)
{
	const npu_target *t = ir->t;
	double esz = npu_dtype_size(X->dtype);
	double KK = (double)W->shape[1] * W->shape[2] * W->shape[3] + 1;
	double mb = W->shape[0] < 64 ? (double)W->shape[0] : 64;
	double nb = (double)osh[3];
	double img = (double)X->shape[1] * (X->shape[2] + 2 * pad[0]) *
		     (X->shape[3] + 2 * pad[1]) * esz;

	if (!t)
		return 1;
	if (st[1] == 1 && nb > t->mxu_cols)
		nb = t->mxu_cols;
	return 2 * img + 2 * (mb * KK + KK * nb) * esz + 2 * mb * nb * 4 <=
	       0.7 * (double)(t->sram_bytes - NPU_SPILL_BYTES);
}

/* conv_bands' bands of ob outputs along dim sd: each a convolution of
 * the padded image xp's rows (strides pst) it reads, copied into out. */
static int conv_band_each(fz *z, int node, int xp, const int64_t *pst, int w,
			  int bias, const int64_t *st, const int64_t *osh, int sd,
			  int64_t ob, int out)
{
	npu_kir *ir = z->ir;
	const char *name = z->g->nodes[node].name;
	int64_t O = osh[sd], KS = ir->v[w].shape[sd], S = st[sd - 2];
	int64_t ost[NPU_MAX_DIMS], zero[2] = { 0, 0 };
	char nm[300];

	npu_kir_contig(4, osh, ost);
	for (int64_t o0 = 0; o0 < O; o0 += ob) {
		int64_t o1 = o0 + ob < O ? o0 + ob : O, xsh[4], bo[4];
		int xb;
		memcpy(xsh, ir->v[xp].shape, sizeof xsh);
		memcpy(bo, osh, sizeof bo);
		xsh[sd] = (o1 - o0 - 1) * S + KS;
		bo[sd] = o1 - o0;
		snprintf(nm, sizeof nm, "%s.band%lld", name, (long long)(o0 / ob));
		/* (its types were checked before banding: no piece goes to
		 * the host) */
		if ((xb = view_val(z, node, xp, 4, xsh, ir->v[xp].off + o0 * S * pst[sd], pst)) < 0 ||
		    conv_piece(z, node, nm, xb, w, bias, st, zero, bo, out, o0 * ost[sd], ost) < 0)
			return -1;
	}
	return 0;
}

/*
 * A convolution too large for SRAM in one piece (VGG's 224x224 layers,
 * Whisper's and Wav2Vec2's 1-d ones over thousands of samples) computed
 * in bands of output rows (of output columns when it has one row), each
 * its own convolution of the padded image's rows it reads, its result
 * copied into the output.  ov as conv_mm_to's.
 */
static int conv_bands(fz *z, int node, int x, int w, int bias, const int64_t *st,
		      const int64_t *pad, const int64_t *osh, int ov)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int sd = osh[2] > 1 ? 2 : 3, xp, out = ov, rc;
	int64_t O = osh[sd], KS = ir->v[w].shape[sd], S = st[sd - 2];
	int64_t pst[NPU_MAX_DIMS], zero[2] = { 0, 0 }, nb, ob;

	if ((xp = pad_copy(z, node, x, pad, pst)) < 0)
		return -1;
	if (out < 0 && (out = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	ir->v[out].needed = 1;
	for (nb = 2; nb < O; nb++) {
		npu_kval X = ir->v[xp];   /* a band's image */
		int64_t bo[4];
		ob = (O + nb - 1) / nb;
		memcpy(bo, osh, sizeof bo);
		X.shape[sd] = (ob - 1) * S + KS;
		bo[sd] = ob;
		if (conv_fits(ir, &X, &ir->v[w], st, zero, bo))
			break;
	}
	ob = (O + nb - 1) / nb;
	z->banding = 1;
	rc = conv_band_each(z, node, xp, pst, w, bias, st, osh, sd, ob, out);
	z->banding = 0;
	if (rc < 0)
		return -1;
	ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: convolution in %lld bands of %lld output %s (one piece "
		       "does not fit in SRAM), each copied into the output", n->name,
		       (long long)((O + ob - 1) / ob), (long long)ob, sd == 2 ? "rows" : "columns");
	return 0;
}

/* conv_mm_to whose epilogue also adds value addend ([N, OC, OH, OW],
 * contiguous) when addend >= 0 */
static int conv_mm_add(fz *z, int node, int x, int w, int bias, const int64_t *st,
		       const int64_t *pad, const int64_t *osh, int ov, int addend)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int k, r;
	int64_t sw[NPU_MAX_DIMS] = { 0 };
	const npu_kval *X, *W;

	if (ir->v[x].ndim != 4 || ir->v[w].ndim != 4 ||
	    ir->v[x].dtype != ir->v[w].dtype ||
	    !(isfloat(ir->v[x].dtype) ? m->dtype == ir->v[x].dtype
	      : ir->v[x].dtype == NPU_DT_I8 && m->dtype == NPU_DT_I32 &&
		ir->v[w].shape[1] * ir->v[w].shape[2] * ir->v[w].shape[3] <= 1024))
		return host_kern(z, node, "convolution of other types or ranks "
				 "(int8 needs K <= 1024)");
	if (!z->banding && addend < 0 && osh[2] * osh[3] > 1 &&
	    !conv_fits(ir, &ir->v[x], &ir->v[w], st, pad, osh))
		return conv_bands(z, node, x, w, bias, st, pad, osh, ov);
	/* the image rows must be contiguous; the weight [OC][K] contiguous */
	if (ir->v[x].isconst || ir->v[x].stride[3] != 1)
		if ((x = copy_val(z, x, node, "a convolution input needs contiguous rows")) < 0)
			return -1;
	if (ir->v[w].root >= 0 && !iscontig(&ir->v[w])) {
		if (ir->v[root_of(ir, w)].kind == NPU_BUF_CONST && ir->v[root_of(ir, w)].cdata)
			w = fold_const_view(z, w);
		else
			w = copy_val(z, w, node, "a convolution weight must be contiguous");
		if (w < 0)
			return -1;
	}
	if (ir->v[x].dtype == NPU_DT_F32 && ir->fp32prec == 2) {
		/* medium: one bf16 pass (high is served by the fp32 mode) */
		int xh, xl, wh, wl;
		if (split_bf16(z, x, node, 1, &xh, &xl) < 0 ||
		    split_bf16(z, w, node, 1, &wh, &wl) < 0)
			return -1;
		x = xh;
		w = wh;
	}
	int tr = ir->v[x].dtype == ir->v[w].dtype && pad[0] <= 3 && pad[1] <= 3 &&
		 convt_ok(ir, x, w, osh);
	int hwc = tr && convt_hwc(ir, x);
	int wt = tr ? convt_weight(z, w, hwc) : -1;
	if (tr && wt < 0)
		return -1;
	int wb = tr ? -1 : conv_bias_row(z, w, bias);
	if (wb == -2)
		return -1;
	if ((k = new_kern(z, NPU_KK_MM, node)) < 0)
		return -1;
	npu_kern *K = &ir->k[k];
	X = &ir->v[x];
	W = &ir->v[w];
	K->cv = tr ? 2 : 1;
	K->cv_hwc = hwc;
	K->cv_ic = X->shape[1];
	K->cv_h = X->shape[2];
	K->cv_w = X->shape[3];
	K->cv_kh = W->shape[2];
	K->cv_kw = W->shape[3];
	K->cv_sh = st[0];
	K->cv_sw = st[1];
	K->cv_ph = pad[0];
	K->cv_pw = pad[1];
	K->cv_oh = osh[2];
	K->cv_ow = osh[3];
	K->ndim = 3;
	K->shape[0] = osh[0];
	K->shape[1] = osh[1];
	K->shape[2] = K->cv_oh * K->cv_ow;
	K->mm_batch = K->shape[0];
	K->mm_m = K->shape[1];
	K->mm_n = K->shape[2];
	K->mm_k = K->cv_ic * K->cv_kh * K->cv_kw + (wb >= 0);
	K->cv_one = wb >= 0;
	K->mm_dtype = X->dtype;
	sw[0] = 0;
	sw[1] = K->mm_k;
	sw[2] = 1;
	ir->v[root_of(ir, x)].needed = 1;
	if (tr) {
		/* A[oc][k] = W^T[k][oc] */
		sw[1] = 1;
		sw[2] = K->mm_m;
		K->mm_a = npu_kir_opnd(K, wt, 0, 0, sw);
	} else if (wb >= 0) {
		K->mm_a = npu_kir_opnd(K, wb, 0, 0, sw);
	} else {
		ir->v[root_of(ir, w)].needed = 1;
		K->mm_a = npu_kir_opnd(K, root_of(ir, w), 0, W->off, sw);
	}
	K->mm_b = npu_kir_opnd(K, root_of(ir, x), 0, X->off, X->stride);
	if (K->mm_a < 0 || K->mm_b < 0)
		return npu_errf(z->e, "out of memory");
	z->cur = k;
	r = xadd(z, k, NPU_X_ACC, 0, 0, 0, 0, 0, node);
	if (bias >= 0 && wb < 0) {
		int64_t bs[NPU_MAX_DIMS] = { 0 };
		int o, bx;
		if (ir->v[bias].ndim != 1 || ir->v[bias].isconst)
			return npu_errf(z->e, "%s: node '%s': convolution bias is not a vector",
					z->g->file, n->name);
		bs[1] = ir->v[bias].stride[0];
		ir->v[root_of(ir, bias)].needed = 1;
		o = npu_kir_opnd(K, root_of(ir, bias), 0, ir->v[bias].off, bs);
		bx = xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node);
		r = xadd(z, k, NPU_X_BIN, NPU_OP_VADD, r, bx, 0, 0, node);
	}
	if (addend >= 0) {
		int64_t as[NPU_MAX_DIMS] = { 0 };
		int o, ax;
		as[0] = K->shape[1] * K->shape[2];
		as[1] = K->shape[2];
		as[2] = 1;
		ir->v[addend].needed = 1;
		o = npu_kir_opnd(&ir->k[k], addend, 0, 0, as);
		ax = o < 0 ? -1 : xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node);
		if (ax < 0 || (r = xadd(z, k, NPU_X_BIN, NPU_OP_VADD, r, ax, 0, 0, node)) < 0)
			return npu_errf(z->e, "out of memory");
	}
	npu_kir_decide(ir, 1, "%s: convolution as an implicit GEMM (M=%lld N=%lld K=%lld per image%s)",
		       n->name, (long long)K->mm_m, (long long)K->mm_n, (long long)K->mm_k,
		       tr ? ", computed transposed" : wb >= 0 ? ", the bias as a K row of ones" : "");
	return ov < 0 ? def_val(z, k, node, r, LV_ELEM) : def_val_to(z, k, node, r, LV_ELEM, ov);
}

/*
 * Inference batch norm (_native_batch_norm_legit_no_training) as an
 * elementwise op with per-channel operands: (x - mean) * rsqrt(var + eps)
 * * w + b, fused like any ew op (into a convolution's epilogue when it
 * follows one).  Its other two results are empty.
 */
static int bn_try(fz *z, int k, int node, const int *pv, double eps)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	npu_kern *K = &ir->k[k];
	int nx0 = K->nx, nops0 = K->nops, x[5], lv;
	int64_t shape[NPU_MAX_DIMS];

	for (int d = 0; d < m->ndim; d++)
		shape[d] = m->shape[d].v;
	if (npu_kir_numel(m->ndim, shape) != npu_kir_numel(K->ndim, K->shape) ||
	    K->kind == NPU_KK_HOST)
		return 1;
	for (int i = 0; i < 5; i++) {
		x[i] = -1;
		if (pv[i] < 0)
			continue;
		if ((x[i] = arg_x(z, k, pv[i], m->ndim, shape, node, &lv)) < 0) {
			K = &ir->k[k];
			K->nx = nx0;
			K->nops = nops0;
			return x[i] == -1 ? -1 : 1;
		}
	}
	/* a row kernel loads its operands a row at a time: per-channel
	 * parameters that vary inside its rows (a batch norm of [1, 2, 1,
	 * 4] in the kernel of a mean over all of a [2, 4]) start a kernel
	 * of their own, as try_ew's operands do */
	K = &ir->k[k];
	if (K->kind == NPU_KK_ROW && !rows_contiguous(ir, K, K->rdims)) {
		K->nx = nx0;
		K->nops = nops0;
		return 1;
	}
#define XA(op, vop, a, b, f) xadd(z, k, NPU_X_##op, NPU_OP_##vop, a, b, 0, (float)(f), node)
	int r = XA(BIN, VSUB, x[0], x[3], 0);
	int sd = XA(UN, VRSQRT, XA(BINI, VADDI, x[4], 0, eps), 0, 0);
	r = XA(BIN, VMUL, r, sd, 0);
	if (x[1] >= 0)
		r = XA(BIN, VMUL, r, x[1], 0);
	if (x[2] >= 0)
		r = XA(BIN, VADD, r, x[2], 0);
#undef XA
	return def_val(z, k, node, r, LV_ELEM);
}

static int do_bn(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int pv[5] = { -1, -1, -1, -1, -1 }, *vals, r, k;
	double eps = 1e-5;
	static const int argi[5] = { 0, 1, 2, 3, 4 };

	if (!m || n->nargs < 7 || n->args[0].kind != NPU_GV_NODE || m->ndim < 2 ||
	    !isfloat(m->dtype) || gnum(&n->args[6], &eps))
		return host_kern(z, node, "batch norm of this form");
	for (int i = 0; i < 5; i++) {
		const npu_gval *a = &n->args[argi[i]];
		int v;
		if (a->kind != NPU_GV_NODE)
			continue;
		v = node_val(z, a->u.node);
		if (v < 0 || !isfloat(ir->v[v].dtype))
			return host_kern(z, node, "batch norm of other types");
		if (i > 0) {
			/* [C] -> [C, 1, ...] so it broadcasts over channels */
			int64_t sh[NPU_MAX_DIMS], st[NPU_MAX_DIMS] = { 0 };
			if (ir->v[v].ndim != 1)
				return host_kern(z, node, "batch norm parameters that are not vectors");
			sh[0] = ir->v[v].shape[0];
			st[0] = ir->v[v].stride[0];
			for (int d = 1; d < m->ndim - 1; d++)
				sh[d] = 1;
			if ((v = view_val(z, node, v, m->ndim - 1, sh, ir->v[v].off, st)) < 0)
				return -1;
		}
		pv[i] = v;
	}
	r = 1;
	if (z->cur >= 0 && !ir->nofuse) {
		r = bn_try(z, z->cur, node, pv, eps);
		if (r < 0)
			return -1;
		if (r == 0)
			npu_kir_decide(ir, 1, "%s: fused into kernel %s", n->name, ir->k[z->cur].name);
	}
	if (r) {
		if ((k = new_kern(z, NPU_KK_EW, node)) < 0)
			return -1;
		ir->k[k].ndim = m->ndim;
		for (int d = 0; d < m->ndim; d++)
			ir->k[k].shape[d] = m->shape[d].v;
		z->cur = k;
		if ((r = bn_try(z, k, node, pv, eps)) != 0)
			return r < 0 ? -1 : npu_errf(z->e, "%s: node '%s': batch norm operands not readable",
						     z->g->file, n->name);
	}
	/* the other results: empty tensors nobody reads */
	if (!(vals = calloc((size_t)n->nmeta + 1, sizeof *vals)))
		return npu_errf(z->e, "out of memory");
	vals[0] = ir->nodeval[node];
	for (int i = 1; i < n->nmeta; i++) {
		char nm[300];
		snprintf(nm, sizeof nm, "%s.%d", n->name, i);
		vals[i] = -1;
		if (n->meta[i].kind != NPU_GM_TENSOR)
			continue;
		if ((vals[i] = meta_val(z, node, i, nm)) < 0) {
			free(vals);
			return -1;
		}
		ir->v[vals[i]].isconst = 1;
	}
	ir->nodevals[node] = vals;
	return 0;
}

static int dma_copy(fz *z, int node, int v);

/* embedding(weight [V, D], indices): rows gathered by DMA (dgat). */
static int do_embedding(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int w, ix, k, v, o;

	if (n->nargs < 2 || n->args[0].kind != NPU_GV_NODE ||
	    n->args[1].kind != NPU_GV_NODE || !tmeta(n, 0))
		return host_kern(z, node, "embedding of this form");
	w = node_val(z, n->args[0].u.node);
	ix = node_val(z, n->args[1].u.node);
	if (ix >= 0 && ir->v[ix].root >= 0 && !ir->v[ix].isconst && w >= 0 &&
	    ir->v[w].ndim == 2 && ir->v[w].root < 0 && !ir->v[w].isconst &&
	    (ir->v[ix].dtype == NPU_DT_I64 || ir->v[ix].dtype == NPU_DT_I32)) {
		int c = dma_copy(z, node, ix);
		if (c == -1)
			return -1;
		ix = c >= 0 ? c : ix;
	}
	/* a table that is a view (a reshape of an input: @idxsel's rows)
	 * is gathered from a copy of its own */
	if (w >= 0 && ix >= 0 && ir->v[w].ndim == 2 && ir->v[w].root >= 0 && !ir->v[w].isconst &&
	    ir->v[ix].root < 0 && !ir->v[ix].isconst &&
	    (w = copy_val(z, w, node, "an embedding's table, a view")) < 0)
		return -1;
	if (w < 0 || ix < 0 || ir->v[w].ndim != 2 || ir->v[w].root >= 0 ||
	    ir->v[w].isconst || ir->v[ix].root >= 0 || ir->v[ix].isconst ||
	    (ir->v[ix].dtype != NPU_DT_I64 && ir->v[ix].dtype != NPU_DT_I32))
		return host_kern(z, node, "embedding of a view or of other index types");
	if ((k = new_kern(z, NPU_KK_GATHER, node)) < 0)
		return -1;
	if ((v = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	ir->v[w].needed = ir->v[ix].needed = ir->v[v].needed = 1;
	ir->v[v].producer = k;
	if (npu_kir_opnd(&ir->k[k], w, 0, 0, NULL) < 0 ||
	    npu_kir_opnd(&ir->k[k], ix, 0, 0, NULL) < 0 ||
	    (o = npu_kir_opnd(&ir->k[k], v, 1, 0, NULL)) < 0)
		return npu_errf(z->e, "out of memory");
	ir->nodeval[node] = v;
	npu_kir_decide(ir, 1, "%s: embedding as a DMA gather", n->name);
	close_cur(z);
	return 0;
}

/*
 * cat: each input copied by an ew kernel into its slice of the result
 * (an output operand with an offset), so no host call and no extra copy.
 * A kernel takes at most 64 operands (tile.c): a copy kernel that has
 * them leaves the next inputs to a new one (Mamba's selective scan
 * stacks one state per token: 64 and more).
 */
#define CAT_MAX_OPS NPU_KERN_MAX_OPS
static int do_cat(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	const npu_gval *l = arg(n, 0);
	double dd = 0;
	int64_t dim, at = 0;
	int out, ncopy = 0;

	/* integers pass through fp32 lanes exactly within 2^24 */
	if (!m || !l || l->kind != NPU_GV_LIST ||
	    (!vecok(m->dtype) && !(isintdt(m->dtype) && rng_small(node_rng(z, node)))))
		return host_kern(z, node, "cat of this form");
	if (n->nargs > 1 && gnum(&n->args[1], &dd))
		return host_kern(z, node, "cat of this form");
	dim = wrapdim((int64_t)dd, m->ndim);
	for (int i = 0; i < l->u.list.n; i++) {
		int v;
		if (l->u.list.v[i].kind != NPU_GV_NODE ||
		    (v = node_val(z, l->u.list.v[i].u.node)) < 0)
			return host_kern(z, node, "cat of inputs of other ranks or types");
		/* PyTorch's legacy rule: a 1-d empty input is skipped whatever
		 * the others' rank and type (transformers' key/value caches
		 * start as torch.tensor([]) and cat each step's keys to it);
		 * the loop below copies nothing of it */
		if (ir->v[v].ndim == 1 && ir->v[v].shape[0] == 0 && m->ndim != 1)
			continue;
		if (ir->v[v].ndim != m->ndim || ir->v[v].dtype != m->dtype)
			return host_kern(z, node, "cat of inputs of other ranks or types");
	}
	if ((out = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	ir->v[out].needed = 1;
	for (int i = 0; i < l->u.list.n; i++) {
		int v = node_val(z, l->u.list.v[i].u.node), k = z->cur, x = -2, oo, lv;
		char nm[300];
		if (npu_kir_numel(ir->v[v].ndim, ir->v[v].shape) == 0)
			continue;
		/*
		 * Into the open ew kernel when it runs over this input's
		 * shape: an input computed there is stored from its register
		 * into the slice (no DRAM round trip, no copy kernel), any
		 * other is copied alongside; the copy kernel a cat starts
		 * takes the next inputs of its shape the same way.  (RoPE's
		 * rotate_half: cat(-x2, x1) was three kernels, now one.)
		 * Room is kept for the values of the kernel's nodes read
		 * later, each an output when it closes (a bidirectional
		 * LSTM's last cell, which also stacks the 30 steps before
		 * it: 65 operands).
		 */
		if (k >= 0 && !ir->nofuse && ir->k[k].kind == NPU_KK_EW &&
		    ir->k[k].nops + 2 + live_outs(z, &ir->k[k]) <= CAT_MAX_OPS &&
		    ir->k[k].ndim == ir->v[v].ndim &&
		    !memcmp(ir->k[k].shape, ir->v[v].shape,
			    (size_t)ir->v[v].ndim * sizeof *ir->v[v].shape)) {
			int nx0 = ir->k[k].nx, nops0 = ir->k[k].nops;
			x = arg_x(z, k, v, ir->v[v].ndim, ir->v[v].shape, node, &lv);
			if (x == -1)
				return -1;
			if (x < 0) {
				ir->k[k].nx = nx0;
				ir->k[k].nops = nops0;
			} else {
				if (npu_kir_addnode(&ir->k[k], node) < 0)
					return npu_errf(z->e, "out of memory");
				npu_kir_decide(ir, 1, "%s: input %d %s its slice in kernel %s",
					       n->name, i, ir->v[root_of(ir, v)].producer == k ?
					       "stored from its register into" : "copied into",
					       ir->k[k].name);
			}
		}
		if (x < 0) {
			if ((k = new_kern(z, NPU_KK_EW, node)) < 0)
				return -1;
			snprintf(nm, sizeof nm, "%s.%d", n->name, i);
			free(ir->k[k].name);
			ir->k[k].name = strdup(nm);
			ir->k[k].ndim = ir->v[v].ndim;
			memcpy(ir->k[k].shape, ir->v[v].shape, sizeof ir->k[k].shape);
			if ((x = ew_load(z, k, v, node)) < 0)
				return npu_errf(z->e, "out of memory");
			z->cur = k;
			ncopy++;
		}
		oo = npu_kir_opnd(&ir->k[k], out, 1, at * ir->v[out].stride[dim],
				  ir->v[out].stride);
		if (oo < 0 || x < 0)
			return npu_errf(z->e, "out of memory");
		npu_xins sx = { .op = NPU_X_STORE, .a = x, .b = oo, .node = node };
		if (npu_kir_x(&ir->k[k], sx) < 0)
			return npu_errf(z->e, "out of memory");
		ir->v[out].producer = k;
		at += ir->v[v].shape[dim];
	}
	/* the result is read from DRAM from here on */
	close_cur(z);
	ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: cat of %d inputs into slices of the result, %d copy kernel(s)",
		       n->name, l->u.list.n, ncopy);
	return 0;
}

/* A new ew kernel NAME over `shape`; the caller adds its loads and store. */
static int ew_kern(fz *z, int node, const char *name, int ndim,
		   const int64_t *shape)
{
	npu_kir *ir = z->ir;
	int k = new_kern(z, NPU_KK_EW, node);

	if (k < 0)
		return -1;
	free(ir->k[k].name);
	ir->k[k].name = strdup(name);
	ir->k[k].ndim = ndim;
	memcpy(ir->k[k].shape, shape, (size_t)ndim * sizeof *shape);
	return k;
}

/* Stores x into value dst at offset off with strides st; ends kernel k. */
/* Kernel k stores x into value dst at offset off with strides st (one
 * of its stores; the kernel stays open). */
static int store_at(fz *z, int k, int x, int dst, int64_t off, const int64_t *st,
		    int node)
{
	npu_kir *ir = z->ir;
	int o = x < 0 ? -1 : npu_kir_opnd(&ir->k[k], dst, 1, off, st);
	npu_xins sx = { .op = NPU_X_STORE, .a = x, .b = o, .node = node };

	if (o < 0 || npu_kir_x(&ir->k[k], sx) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[dst].producer = k;
	return 0;
}

static int ew_store(fz *z, int k, int x, int dst, int64_t off,
		    const int64_t *st, int node)
{
	if (store_at(z, k, x, dst, off, st, node) < 0)
		return -1;
	close_cur(z);
	return 0;
}

/* An ew kernel over `shape` that stores constant f, or value src (read
 * through its strides), into value dst at offset off with strides st. */
static int fill_kern(fz *z, int node, const char *name, int ndim,
		     const int64_t *shape, int src, double f, int dst,
		     int64_t off, const int64_t *st)
{
	int k = ew_kern(z, node, name, ndim, shape);

	if (k < 0)
		return -1;
	return ew_store(z, k, src < 0 ? xadd(z, k, NPU_X_CONST, 0, 0, 0, 0, (float)f, node)
				 : ew_load(z, k, src, node), dst, off, st, node);
}

/* The result of a scatter (node's meta) with self (value x) copied in
 * by a kernel of its own; -1 on error. */
static int scatter_self(fz *z, int node, int x)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	char nm[300];
	int out = meta_val(z, node, 0, n->name);

	if (out < 0)
		return -1;
	ir->v[out].needed = 1;
	snprintf(nm, sizeof nm, "%s.self", n->name);
	if (fill_kern(z, node, nm, ir->v[x].ndim, ir->v[x].shape, x, 0, out, 0,
		      ir->v[out].stride) < 0)
		return -1;
	return out;
}

/*
 * slice_scatter and select_scatter: self copied into the result, then
 * src into the result's slice (offset start * stride[dim], stride
 * step * stride[dim]; select drops the dim), as two copy kernels in that
 * order, like a padded copy.  Bounds as PyTorch clamps them.
 */
static int do_scatter(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int sel = n->aop == NPU_AOP_SELECT_SCATTER, x, src, out, nd = 0;
	double dd = 0, a = 0, b = (double)INT64_MAX, c = 1;
	int64_t d, start, end, step, sst[NPU_MAX_DIMS], ssh[NPU_MAX_DIMS], len;
	char nm[300];

	if (!m || n->nargs < 2 || n->args[0].kind != NPU_GV_NODE ||
	    n->args[1].kind != NPU_GV_NODE || !vecok(m->dtype) ||
	    (x = node_val(z, n->args[0].u.node)) < 0 ||
	    (src = node_val(z, n->args[1].u.node)) < 0 ||
	    ir->v[x].ndim != m->ndim || !m->ndim || ir->v[x].dtype != m->dtype ||
	    ir->v[src].dtype != m->dtype ||
	    (n->nargs > 2 && gnum(&n->args[2], &dd)) ||
	    (n->nargs > 3 && n->args[3].kind != NPU_GV_NONE && gnum(&n->args[3], &a)) ||
	    (!sel && n->nargs > 4 && n->args[4].kind != NPU_GV_NONE && gnum(&n->args[4], &b)) ||
	    (!sel && n->nargs > 5 && gnum(&n->args[5], &c)) || c < 1)
		return host_kern(z, node, "scatter of this form");
	d = wrapdim((int64_t)dd, m->ndim);
	len = ir->v[x].shape[d];
	start = (int64_t)a;
	end = sel ? start + 1 : b >= (double)INT64_MAX ? len : (int64_t)b;
	step = (int64_t)c;
	if (sel && start < 0)
		start += len, end += len;
	if (start < 0)
		start = start + len < 0 ? 0 : start + len;
	if (end < 0)
		end = end + len < 0 ? 0 : end + len;
	start = start > len ? len : start;
	end = end > len ? len : end < start ? start : end;
	if (sel && start >= len)
		return host_kern(z, node, "select_scatter index out of range");
	if ((out = scatter_self(z, node, x)) < 0)
		return -1;
	for (int i = 0; i < m->ndim; i++) {
		if (sel && i == d)
			continue;
		ssh[nd] = i == d ? (end - start + step - 1) / step : ir->v[x].shape[i];
		sst[nd++] = i == d ? step * ir->v[out].stride[i] : ir->v[out].stride[i];
	}
	if (ir->v[src].ndim != nd ||
	    memcmp(ir->v[src].shape, ssh, (size_t)nd * sizeof *ssh))
		return npu_errf(z->e, "%s: node '%s': src does not match the slice",
				z->g->file, n->name);
	if (npu_kir_numel(nd, ssh) > 0) {
		snprintf(nm, sizeof nm, "%s.src", n->name);
		if (fill_kern(z, node, nm, nd, ssh, src, 0, out,
			      start * ir->v[out].stride[d], sst) < 0)
			return -1;
	}
	ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: %s as a copy of self and a copy of src into its slice",
		       n->name, sel ? "select_scatter" : "slice_scatter");
	return 0;
}

/* Does the view (shape, st, off) of an n-element storage write each
 * element at most once and stay inside it?  Its dims by increasing
 * stride must each step past all that the smaller ones span. */
static int view_disjoint(int nd, const int64_t *shape, const int64_t *st,
			 int64_t off, int64_t n)
{
	int ord[NPU_MAX_DIMS], m = 0;
	int64_t span = 0, step;

	if (off < 0 || view_outside(nd, shape, off, st, n))
		return 0;
	for (int d = 0; d < nd; d++) {
		if (shape[d] == 0)
			return 1; /* no element */
		if (shape[d] > 1)
			ord[m++] = d;
	}
	for (int i = 1; i < m; i++)
		for (int j = i; j > 0 && st[ord[j]] < st[ord[j - 1]]; j--) {
			int t = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	for (int i = 0; i < m; i++) {
		int64_t s = st[ord[i]];
		if (s <= span || __builtin_mul_overflow(shape[ord[i]] - 1, s, &step) ||
		    __builtin_add_overflow(span, step, &span))
			return 0;
	}
	return 1;
}

/*
 * as_strided_scatter (aot_autograd's functionalized backward of a view
 * written in place: ConvNeXt's and Swin's): self copied into the result,
 * then src into the result's storage through size, stride and
 * storage_offset, as two copy kernels, as slice_scatter.  The strides
 * are over self's storage once contiguous, as do_view takes as_strided's.
 * A view that writes an element twice (whose winner PyTorch leaves
 * unspecified) or leaves the result is a host call.
 */
static int do_strided_scatter(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int64_t size[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
	double so = 0;
	int x, src, out, nd;
	char nm[300];

	if (!m || n->nargs < 4 || n->args[0].kind != NPU_GV_NODE ||
	    n->args[1].kind != NPU_GV_NODE || !vecok(m->dtype) ||
	    (x = node_val(z, n->args[0].u.node)) < 0 ||
	    (src = node_val(z, n->args[1].u.node)) < 0 ||
	    ir->v[x].ndim != m->ndim || ir->v[x].dtype != m->dtype ||
	    ir->v[src].dtype != m->dtype || (nd = ir->v[src].ndim) < 0 ||
	    ilist(&n->args[2], size, nd) || ilist(&n->args[3], st, nd) ||
	    (n->nargs > 4 && n->args[4].kind != NPU_GV_NONE && gnum(&n->args[4], &so)) ||
	    !(so >= 0 && so <= 4e18) || so != (double)(int64_t)so)
		return host_kern(z, node, "as_strided_scatter of this form");
	if (memcmp(size, ir->v[src].shape, (size_t)nd * sizeof *size))
		return npu_errf(z->e, "%s: node '%s': src does not match the view's size",
				z->g->file, n->name);
	for (int d = 0; d < m->ndim; d++)
		if (ir->v[x].shape[d] != m->shape[d].v)
			return npu_errf(z->e, "%s: node '%s': self does not match the meta",
					z->g->file, n->name);
	if (!view_disjoint(nd, size, st, (int64_t)so,
			   npu_kir_numel(ir->v[x].ndim, ir->v[x].shape)))
		return host_kern(z, node, "as_strided_scatter view writes an element twice or leaves self");
	if ((out = scatter_self(z, node, x)) < 0)
		return -1;
	if (npu_kir_numel(nd, size) > 0) {
		snprintf(nm, sizeof nm, "%s.src", n->name);
		if (fill_kern(z, node, nm, nd, size, src, 0, out, (int64_t)so, st) < 0)
			return -1;
	}
	ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: as_strided_scatter as a copy of self and a copy of src through the view",
		       n->name);
	return 0;
}

/*
 * constant_pad_nd with pads >= 0: the value filled over the result, then
 * the input copied into its interior (pad lists the last dims first:
 * [left, right, top, bottom, ...]).  Negative pads (crops) stay host.
 */
static int do_pad(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int64_t pd[2 * NPU_MAX_DIMS], off = 0;
	double f = 0;
	int x, out, np, nd;
	const npu_gval *l = arg(n, 1);
	char nm[300];

	if (!m || !l || l->kind != NPU_GV_LIST || n->args[0].kind != NPU_GV_NODE ||
	    (x = node_val(z, n->args[0].u.node)) < 0 || !vecok(m->dtype) ||
	    ir->v[x].dtype != m->dtype || (np = l->u.list.n) % 2 ||
	    np > 2 * (nd = ir->v[x].ndim) || ilist(l, pd, np) ||
	    (n->nargs > 2 && n->args[2].kind != NPU_GV_NONE && gnum(&n->args[2], &f)))
		return host_kern(z, node, "pad of this form");
	/* negative pads crop: the input's view without those rows first */
	{
		int64_t sh[NPU_MAX_DIMS], crop = 0, any = 0, nz = 0;
		memcpy(sh, ir->v[x].shape, sizeof sh);
		for (int i = 0; i < np / 2; i++) {
			int d = nd - 1 - i;
			if (pd[2 * i] < 0) {
				crop += -pd[2 * i] * ir->v[x].stride[d];
				sh[d] += pd[2 * i];
				pd[2 * i] = 0;
				any = 1;
			}
			if (pd[2 * i + 1] < 0) {
				sh[d] += pd[2 * i + 1];
				pd[2 * i + 1] = 0;
				any = 1;
			}
			if (sh[d] < 0)
				return host_kern(z, node, "pad that crops more than the input");
			nz |= pd[2 * i] || pd[2 * i + 1];
		}
		if (any && (x = view_val(z, node, x, nd, sh, ir->v[x].off + crop,
					 ir->v[x].stride)) < 0)
			return -1;
		if (any && !nz) {
			ir->nodeval[node] = x;
			npu_kir_decide(ir, 1, "%s: pad by negative amounts only: a view, no code", n->name);
			return 0;
		}
	}
	if ((out = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	ir->v[out].needed = 1;
	for (int i = 0; i < np / 2; i++)
		off += pd[2 * i] * ir->v[out].stride[nd - 1 - i];
	snprintf(nm, sizeof nm, "%s.fill", n->name);
	if (fill_kern(z, node, nm, nd, ir->v[out].shape, -1, f, out, 0,
		      ir->v[out].stride) < 0)
		return -1;
	if (npu_kir_numel(nd, ir->v[x].shape) > 0) {
		snprintf(nm, sizeof nm, "%s.in", n->name);
		if (fill_kern(z, node, nm, nd, ir->v[x].shape, x, 0, out, off,
			      ir->v[out].stride) < 0)
			return -1;
	}
	ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: pad as a fill and a copy into the interior", n->name);
	return 0;
}

/* An ew kernel over `shape` storing vop(a, b) (values read through their
 * own offsets and strides) into dst at offset off with strides st. */
static int bin_kern(fz *z, int node, const char *name, int ndim,
		    const int64_t *shape, int vop, int a, int b, int dst,
		    int64_t off, const int64_t *st)
{
	int k = ew_kern(z, node, name, ndim, shape), la, lb;

	if (k < 0)
		return -1;
	if ((la = ew_load(z, k, a, node)) < 0 || (lb = ew_load(z, k, b, node)) < 0)
		return npu_errf(z->e, "out of memory");
	return ew_store(z, k, xadd(z, k, NPU_X_BIN, vop, la, lb, 0, 0, node),
			dst, off, st, node);
}

/* The view of value v that takes [at, at + len) along dim. */
static int dim_slice(fz *z, int node, int v, int dim, int64_t at, int64_t len)
{
	npu_kir *ir = z->ir;
	int64_t shape[NPU_MAX_DIMS];

	memcpy(shape, ir->v[v].shape, sizeof shape);
	shape[dim] = len;
	return view_val(z, node, v, ir->v[v].ndim, shape,
			ir->v[v].off + at * ir->v[v].stride[dim], ir->v[v].stride);
}

/* Stores x into the slice at `at` along dim of value dst in kernel k. */
static int store_slice(fz *z, int k, int x, int dst, int dim, int64_t at, int node)
{
	const npu_kval *D = &z->ir->v[dst];

	return store_at(z, k, x, dst, at * D->stride[dim], D->stride, node);
}

/* do_cumsum: scans up to this long run in one kernel, in order */
#define SCAN_SEQ 32

/*
 * A scan of L <= SCAN_SEQ elements along dim as one kernel over the
 * shape with that dim 1: y[0] = x[0], y[i] = y[i-1] op x[i] in
 * PyTorch's order, each stored to its slice of out (instead of the 2
 * ceil(log2 L) kernels of the tree below: ResNet-style short scans).
 */
static int scan_seq(fz *z, int node, int x, int out, int dim, int64_t L, int vop)
{
	npu_kir *ir = z->ir;
	int64_t shape[NPU_MAX_DIMS];
	int k, acc = -1, nd = ir->v[x].ndim;
	char nm[300];

	memcpy(shape, ir->v[x].shape, sizeof shape);
	shape[dim] = 1;
	snprintf(nm, sizeof nm, "%s.scan", z->g->nodes[node].name);
	if ((k = ew_kern(z, node, nm, nd, shape)) < 0)
		return -1;
	for (int64_t i = 0; i < L; i++) {
		int a = dim_slice(z, node, x, dim, i, 1), la;
		if (a < 0)
			return -1;
		if ((la = ew_load(z, k, a, node)) < 0)
			return npu_errf(z->e, "out of memory");
		acc = i ? xadd(z, k, NPU_X_BIN, vop, acc, la, 0, 0, node) : la;
		if (store_slice(z, k, acc, out, dim, i, node) < 0)
			return -1;
	}
	close_cur(z);
	return 0;
}

/*
 * cumsum (cumprod) of a float tensor as a scan (Hillis-Steele): ceil(log2
 * L) steps over the L elements along dim, step s computing y[i] = x[i] +
 * x[i - s] (times) for i >= s and copying the first s, between two fp32
 * buffers (the last step stores the result in its dtype).  2 ceil(log2
 * L) ew kernels instead of a host call; the sums (products) are
 * associated differently from PyTorch's sequential loop, well within
 * fp32's tolerance (a product's rounding errors add up the same way, a
 * few ulps each step).  Integer cumsums whose sums stay within 2^24
 * (int_lanes) take the same scan, exactly.
 */
static int do_cumsum(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int x, out, cur, nd, dim;
	double dd;
	int64_t L, shape[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
	char nm[300];

	if (!m || n->nargs < 2 || n->args[0].kind != NPU_GV_NODE ||
	    gnum(&n->args[1], &dd) || (x = node_val(z, n->args[0].u.node)) < 0)
		return host_kern(z, node, "cumsum of this form");
	nd = ir->v[x].ndim;
	if ((!isfloat(m->dtype) || ir->v[x].dtype != m->dtype || nd == 0 ||
	     ir->v[x].isconst) &&
	    (!int_lanes(z, node) || nd == 0 || ir->v[x].isconst))
		return host_kern(z, node, n->aop == NPU_AOP_CUMPROD ?
				 "cumprod of integers, bool or float64" :
				 "cumsum of integers or bool whose sums may pass 2^24, or of float64");
	dim = (int)wrapdim((int64_t)dd, nd);
	L = ir->v[x].shape[dim];
	memcpy(shape, ir->v[x].shape, sizeof shape);
	if ((out = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	ir->v[out].needed = 1;
	if (L > 1 && L <= SCAN_SEQ) {
		if (scan_seq(z, node, x, out, dim, L,
			     n->aop == NPU_AOP_CUMPROD ? NPU_OP_VMUL : NPU_OP_VADD) < 0)
			return -1;
		ir->nodeval[node] = out;
		npu_kir_decide(ir, 1, "%s: %s over %lld elements in order in one kernel",
			       n->name, n->aop == NPU_AOP_CUMPROD ? "cumprod" : "cumsum",
			       (long long)L);
		return 0;
	}
	cur = x;
	for (int64_t s = 1, step = 0; ; s *= 2, step++) {
		int last = 2 * s >= L, dst, a, b;
		if (last)
			dst = out;
		else {
			snprintf(nm, sizeof nm, "%s.scan%lld", n->name, (long long)step);
			if ((dst = npu_kir_val(ir, nm, node, NPU_DT_F32, nd, shape)) < 0)
				return npu_errf(z->e, "out of memory");
			ir->v[dst].needed = 1;
		}
		memcpy(st, ir->v[dst].stride, sizeof st);
		if (L <= 1) {
			snprintf(nm, sizeof nm, "%s.copy", n->name);
			if (fill_kern(z, node, nm, nd, shape, cur, 0, dst, 0, st) < 0)
				return -1;
			break;
		}
		/* the first s elements are done: copied */
		snprintf(nm, sizeof nm, "%s.head%lld", n->name, (long long)step);
		if ((a = dim_slice(z, node, cur, dim, 0, s)) < 0)
			return -1;
		memcpy(shape, ir->v[a].shape, sizeof shape);
		if (fill_kern(z, node, nm, nd, shape, a, 0, dst, 0, st) < 0)
			return -1;
		/* the rest: y[i] = x[i] + x[i - s] */
		snprintf(nm, sizeof nm, "%s.add%lld", n->name, (long long)step);
		if ((a = dim_slice(z, node, cur, dim, s, L - s)) < 0 ||
		    (b = dim_slice(z, node, cur, dim, 0, L - s)) < 0)
			return -1;
		memcpy(shape, ir->v[a].shape, sizeof shape);
		if (bin_kern(z, node, nm, nd, shape,
			     n->aop == NPU_AOP_CUMPROD ? NPU_OP_VMUL : NPU_OP_VADD,
			     a, b, dst, s * st[dim], st) < 0)
			return -1;
		memcpy(shape, ir->v[x].shape, sizeof shape);
		cur = dst;
		if (last)
			break;
	}
	ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: %s over %lld elements as a scan of %d steps",
		       n->name, n->aop == NPU_AOP_CUMPROD ? "cumprod" : "cumsum", (long long)L, L > 1 ? (int)ceil(log2((double)L)) : 1);
	return 0;
}

/* do_cumext: past this many steps, the host call (a kernel every 20 or
 * 31 steps, each waiting on the DRAM: about what the host's latency
 * costs) */
#define CUMEXT_MAX 256

#define UN(v, p) xadd(z, k, NPU_X_UN, NPU_OP_##v, (p), 0, 0, 0, node)
#define BIN(v, p, q) xadd(z, k, NPU_X_BIN, NPU_OP_##v, (p), (q), 0, 0, node)
#define BINI(v, p, f) xadd(z, k, NPU_X_BINI, NPU_OP_##v, (p), 0, 0, (float)(f), node)
#define CST(f) xadd(z, k, NPU_X_CONST, 0, 0, 0, 0, (float)(f), node)
#define SEL(c, p, q) xadd(z, k, NPU_X_SEL, 0, (c), (p), (q), 0, node)

/*
 * One step of PyTorch's CPU loops, element x at position pos after the
 * running state (*v, *i): cummax (cummin) takes x when it is NaN or not
 * below (above) *v, so the latest of equal values wins and a NaN, once
 * met, stays (no comparison with it holds); logcumsumexp adds it as
 * max + log1p(exp(min - max)), where a pair of equal infinities keeps
 * max and NaN spreads through both.  log1p in the lanes as log(u) e /
 * (u - 1), u = 1 + e (e itself where u rounds to 1): as exact as log1p
 * for the e in [0, 1] that occur.
 */
static void cumext_step(fz *z, int k, int node, int aop, int x, int pos, int *v, int *i)
{
	int take;

	if (aop == NPU_AOP_LOGCUMSUMEXP) {
		int hi = BIN(VMAX, *v, x), d = BIN(VSUB, BIN(VMIN, *v, x), hi);
		int e = UN(VEXP, d), u = BINI(VADDI, e, 1), um = BINI(VADDI, u, -1);
		int l = BIN(VDIV, BIN(VMUL, UN(VLOG, u), e), um);

		l = SEL(BINI(VCMPEQI, um, 0), e, l);
		*v = BIN(VADD, hi, SEL(BIN(VCMPEQ, d, d), l, CST(0)));
		return;
	}
	take = BIN(VMAX, UN(VNOT, BIN(VCMPEQ, x, x)),
		   aop == NPU_AOP_CUMMAX ? BIN(VCMPLE, *v, x) : BIN(VCMPLE, x, *v));

	*v = SEL(take, x, *v);
	*i = SEL(take, CST(pos), *i);
}

/* Whether result j of node is itself a graph output, a DRAM buffer: the
 * node (j 0) or its getitem j among the outputs. */
static int is_output(fz *z, int node, int j)
{
	int no;
	const npu_gval *o = npu_graph_outputs(z->g, &no);

	for (int i = 0; i < no; i++) {
		const npu_gnode *u;
		if (o[i].kind != NPU_GV_NODE)
			continue;
		if (o[i].u.node == node && !j)
			return 1;
		u = &z->g->nodes[o[i].u.node];
		if (u->aop == NPU_AOP_GETITEM && u->nargs == 2 && u->args[0].kind == NPU_GV_NODE &&
		    u->args[0].u.node == node && u->args[1].kind == NPU_GV_INT && u->args[1].u.i == j)
			return 1;
	}
	return 0;
}

/*
 * cummax and cummin (values and int64 indices) and logcumsumexp along
 * dim, as PyTorch's CPU loops run them (cumext_step): kernels over the
 * shape with that dim 1, each taking as many slices in order as its
 * operands allow (a load and a store a result each, the state's load and
 * store: 20 steps, logcumsumexp's 31) and storing every step; the next
 * kernel starts from the last one's state, kept in fp32 (the positions
 * as floats, exact).  No tree as cumsum's:
 * a state of two values, and the host's latency buys CUMEXT_MAX steps.
 * A step's slices are stored one a transfer: a graph output's go to a
 * scratch value first (in the SRAM window, not a DRAM latency each) and
 * are copied out by one kernel (ops10's logcumsumexp of [4, 9] along
 * its rows: 2.4 k cycles -> 1.6 k).  Floats, and integers fuse.c's
 * ranges keep within 2^24 (cummax, cummin).
 */
static int do_cumext(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int lcse = n->aop == NPU_AOP_LOGCUMSUMEXP, x, nd, dim, out[2] = { -1, -1 };
	int cv = -1, ci = -1, dst[2] = { -1, -1 }, nout, blk;
	int64_t L, sh1[NPU_MAX_DIMS];
	double dd;
	char nm[300];

	if (!tmeta(n, 0) || (!lcse && !tmeta(n, 1)) || n->nargs < 2 ||
	    n->args[0].kind != NPU_GV_NODE || gnum(&n->args[1], &dd) ||
	    (x = node_val(z, n->args[0].u.node)) < 0 || (nd = ir->v[x].ndim) == 0 ||
	    ir->v[x].isconst)
		return host_kern(z, node, "a running extreme or logcumsumexp of this form (0-d, constant or symbolic)");
	if (!isfloat(ir->v[x].dtype) &&
	    (lcse || !isintdt(ir->v[x].dtype) || !rng_small(node_rng(z, n->args[0].u.node))))
		return host_kern(z, node, "a running extreme of integers not known within 2^24, "
				 "or of float64");
	dim = (int)wrapdim((int64_t)dd, nd);
	if ((L = ir->v[x].shape[dim]) > CUMEXT_MAX)
		return host_kern(z, node, "a running extreme or logcumsumexp of more than 256 "
				 "steps (a kernel every 20 or 31: the host call's latency is less)");
	nout = 2 - lcse;
	blk = (NPU_KERN_MAX_OPS - 2 * nout) / (1 + nout);
	memcpy(sh1, ir->v[x].shape, sizeof sh1);
	sh1[dim] = 1;
	for (int j = 0; j < nout; j++) {
		snprintf(nm, sizeof nm, lcse ? "%s" : "%s.%d", n->name, j);
		if ((out[j] = dst[j] = meta_val(z, node, j, nm)) < 0)
			return -1;
		ir->v[out[j]].needed = 1;
		if (L > 1 && is_output(z, node, j)) {
			snprintf(nm, sizeof nm, "%s.steps%d", n->name, j);
			if ((dst[j] = meta_val(z, node, j, nm)) < 0)
				return -1;
			ir->v[dst[j]].needed = 1;
		}
	}
	for (int64_t b = 0; b < L; b += blk) {
		int k, v = -1, i = -1, last = b + blk >= L;
		snprintf(nm, sizeof nm, "%s.scan%lld", n->name, (long long)(b / blk));
		if ((k = ew_kern(z, node, nm, nd, sh1)) < 0)
			return -1;
		if (b && ((v = ew_load(z, k, cv, node)) < 0 ||
			  (!lcse && (i = ew_load(z, k, ci, node)) < 0)))
			return npu_errf(z->e, "out of memory");
		for (int64_t p = b; p < L && p < b + blk; p++) {
			int a = dim_slice(z, node, x, dim, p, 1), la;
			if (a < 0)
				return -1;
			if ((la = ew_load(z, k, a, node)) < 0)
				return npu_errf(z->e, "out of memory");
			if (p)
				cumext_step(z, k, node, n->aop, la, (int)p, &v, &i);
			else {
				v = la;
				i = CST(0);
			}
			if (store_slice(z, k, v, dst[0], dim, p, node) < 0 ||
			    (!lcse && store_slice(z, k, i, dst[1], dim, p, node) < 0))
				return -1;
		}
		if (!last) {	/* the state, for the next kernel */
			snprintf(nm, sizeof nm, "%s.carry%lld", n->name, (long long)(b / blk));
			if ((cv = npu_kir_val(ir, nm, node, NPU_DT_F32, nd, sh1)) < 0)
				return npu_errf(z->e, "out of memory");
			snprintf(nm, sizeof nm, "%s.carryi%lld", n->name, (long long)(b / blk));
			if (!lcse && (ci = npu_kir_val(ir, nm, node, NPU_DT_F32, nd, sh1)) < 0)
				return npu_errf(z->e, "out of memory");
			ir->v[cv].needed = 1;
			if (store_slice(z, k, v, cv, dim, 0, node) < 0 ||
			    (!lcse && (ir->v[ci].needed = 1, store_slice(z, k, i, ci, dim, 0, node)) < 0))
				return -1;
		}
		close_cur(z);
	}
	for (int j = 0; j < nout; j++) {
		snprintf(nm, sizeof nm, "%s.out%d", n->name, j);
		if (dst[j] != out[j] &&
		    fill_kern(z, node, nm, nd, ir->v[out[j]].shape, dst[j], 0, out[j], 0,
			      ir->v[out[j]].stride) < 0)
			return -1;
	}
	ir->nodeval[node] = out[0];
	if (!lcse) {
		int *vals = malloc(2 * sizeof *vals);
		if (!vals)
			return npu_errf(z->e, "out of memory");
		memcpy(vals, out, sizeof out);
		ir->nodevals[node] = vals;
	}
	npu_kir_decide(ir, 1, "%s: %s over %lld elements in order, %lld kernel(s) of up to %d steps",
		       n->name, n->target, (long long)L, (long long)((L + blk - 1) / blk), blk);
	return 0;
}

#undef UN
#undef BIN
#undef BINI
#undef CST
#undef SEL

/*
 * A 1-d constant index is copied one kernel a run of consecutive indices
 * (index_copies) while it has at most INDEX_COPY_RUNS runs: each kernel
 * waits for its DRAM latency, one after another (about 450 cycles on
 * npu-base), where one DMA gather by a table of the positions
 * (index_gather) takes about 850 in all.  A nearest upsampling of 1 x 8
 * x 16 x 16 to 24 x 40 (a run an element along W) took 16.4 k cycles in
 * 40 copies, 2.2 k in a gather.
 */
#define INDEX_COPY_RUNS 2

/* The runs of consecutive source offsets (stride xs apart) in offs[B]. */
static int64_t index_runs(int64_t xs, const int64_t *offs, int64_t B)
{
	int64_t runs = B > 0;

	for (int64_t e = 1; e < B; e++)
		runs += !xs || offs[e] != offs[e - 1] + xs;
	return runs;
}

/* Result of a 1-d constant index along dim p (offs: the B source offsets
 * along it): one copy kernel per run of consecutive indices. */
static int index_copies(fz *z, int node, int x, int p, int64_t *offs, int64_t B)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int out = meta_val(z, node, 0, n->name), runs = 0;
	int64_t xs = ir->v[x].stride[p];
	char nm[300];

	if (out < 0) {
		free(offs);
		return -1;
	}
	ir->v[out].needed = 1;
	for (int64_t b = 0, e; b < B; b = e) {
		int64_t shape[NPU_MAX_DIMS];
		int src;
		for (e = b + 1; e < B && xs && offs[e] == offs[e - 1] + xs; e++)
			;
		memcpy(shape, ir->v[out].shape, sizeof shape);
		shape[p] = e - b;
		snprintf(nm, sizeof nm, "%s.%d", n->name, runs++);
		if ((src = view_val(z, node, x, ir->v[x].ndim, shape,
				    ir->v[x].off + offs[b], ir->v[x].stride)) < 0 ||
		    fill_kern(z, node, nm, ir->v[out].ndim, shape, src, 0, out,
			      b * ir->v[out].stride[p], ir->v[out].stride) < 0) {
			free(offs);
			return -1;
		}
	}
	free(offs);
	ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: index by a constant list: %d copies of runs of rows",
		       n->name, runs);
	return 0;
}

/* index values the compiler may read: a frozen or folded constant */
static const void *const_index(const npu_kir *ir, int v)
{
	const npu_kval *R = &ir->v[root_of(ir, v)];

	if (ir->v[v].isconst || R->kind != NPU_BUF_CONST || !R->cdata ||
	    (ir->v[v].dtype != NPU_DT_I64 && ir->v[v].dtype != NPU_DT_I32))
		return NULL;
	return R->cdata;
}

/* The constant indices of an aten.index: dims p .. p+k-1 of value x
 * indexed by values iv[] (strides ist[] over the broadcast shape bsh[bn],
 * B positions). */
typedef struct index_set {
	int x, p, k;
	const int *iv;
	int64_t (*ist)[NPU_MAX_DIMS];
	const int64_t *bsh;
	int bn;
	int64_t B;
} index_set;

/* The element offset in a tensor of x's shape with strides st of every
 * position of the broadcast index shape; -1 when an index is out of range. */
static int index_offsets(const npu_kir *ir, const index_set *q, const int64_t *st,
			 int64_t *offs)
{
	for (int64_t b = 0; b < q->B; b++) {
		int64_t r = b, pos[NPU_MAX_DIMS], o = 0;
		for (int d = q->bn - 1; d >= 0; d--) {
			pos[d] = r % q->bsh[d];
			r /= q->bsh[d];
		}
		for (int j = 0; j < q->k; j++) {
			const npu_kval *I = &ir->v[q->iv[j]];
			int64_t e = I->off, len = ir->v[q->x].shape[q->p + j], v;
			for (int d = 0; d < q->bn; d++)
				e += pos[d] * q->ist[j][d];
			v = (int64_t)npu_load_f64(I->dtype, const_index(ir, q->iv[j]), (size_t)e);
			if (v < -len || v >= len)
				return -1;
			o += (v < 0 ? v + len : v) * st[q->p + j];
		}
		offs[b] = o;
	}
	return 0;
}

/* cap on the index positions examined at compile time (8 MiB of
 * offsets): MobileViTv2's F.fold at 256 x 256 gathers 131,072 */
#define INDEX_MAX_POS (1 << 20)
/* cap on a gather table's runs (int32 or int64 each): segmentation
 * heads' bilinear upsampling of 21 classes to 224 x 224 is 1.05 M */
#define INDEX_MAX_RUNS (INDEX_MAX_POS * 64)

/* A gather's table of run numbers, each below `limit`: int32 when they
 * fit, else int64 (index_gather, do_flip, dma_copy build one). */
typedef struct runtab {
	void *t;
	int dt;
} runtab;

static int runtab_new(fz *z, runtab *rt, int64_t n, int64_t limit)
{
	rt->dt = limit <= INT32_MAX ? NPU_DT_I32 : NPU_DT_I64;
	rt->t = malloc((size_t)(n ? n : 1) * (size_t)npu_dtype_size(rt->dt));
	return rt->t ? 0 : npu_errf(z->e, "out of memory");
}

static void runtab_set(runtab *rt, int64_t i, int64_t run)
{
	if (rt->dt == NPU_DT_I32)
		((int32_t *)rt->t)[i] = (int32_t)run;
	else
		((int64_t *)rt->t)[i] = run;
}

/*
 * The node's value as a DMA gather (the embedding's kernel) from the
 * contiguous root x read as runs of D elements: output run r is x's run
 * t[r] (t: `rows` run numbers of type dt, malloc'd, owned from here on).
 */
static int gather_into(fz *z, int node, int x, int64_t D, int64_t rows,
		       runtab *rt, int out, const char *what)
{
	npu_kir *ir = z->ir;
	int tab, k;
	char nm[300];

	snprintf(nm, sizeof nm, "%s.runs", ir->v[out].name);
	if ((tab = own_matrix(z, node, nm, rt->dt, rows, 1, rt->t)) < 0 ||
	    (k = new_kern(z, NPU_KK_GATHER, node)) < 0)
		return -1;
	ir->v[x].needed = ir->v[out].needed = 1;
	ir->v[out].producer = k;
	ir->k[k].mm_k = D;
	if (npu_kir_opnd(&ir->k[k], x, 0, 0, NULL) < 0 ||
	    npu_kir_opnd(&ir->k[k], tab, 0, 0, NULL) < 0 ||
	    npu_kir_opnd(&ir->k[k], out, 1, 0, NULL) < 0)
		return npu_errf(z->e, "out of memory");
	npu_kir_decide(ir, 1, "%s: %s as a DMA gather of %lld runs of %lld elements",
		       ir->v[out].name, what, (long long)rows, (long long)D);
	close_cur(z);
	return 0;
}

/* gather_into the node's own value */
static int gather_runs(fz *z, int node, int x, int64_t D, int64_t rows,
		       runtab *rt, const char *what)
{
	int out = meta_val(z, node, 0, z->g->nodes[node].name);

	if (out < 0) {
		free(rt->t);
		return -1;
	}
	if (gather_into(z, node, x, D, rows, rt, out, what) < 0)
		return -1;
	z->ir->nodeval[node] = out;
	return 0;
}

/*
 * A contiguous copy of view v made by DMA alone (a gather of its runs),
 * so that it is bit-exact for any type: the int64 index tensors of an
 * embedding that arrive as views (a column of LayoutLM's boxes, XLNet's
 * transposed ids), which fp32 lanes would round.  -2 when the view has
 * too many runs.
 */
static int dma_copy(fz *z, int node, int v)
{
	npu_kir *ir = z->ir;
	const npu_kval *V = &ir->v[v], *R;
	int nd = V->ndim, out;
	int64_t D = 1, rows;
	char nm[300];
	runtab rt;

	/* a run: the last dim when it is contiguous and the offsets align */
	if (nd && V->stride[nd - 1] == 1 && V->shape[nd - 1] > 0) {
		D = V->shape[nd - 1];
		for (int d = 0; d < nd - 1 && D > 1; d++)
			if (V->stride[d] % D || V->off % D)
				D = 1;
	}
	rows = npu_kir_numel(nd, V->shape) / (D ? D : 1);
	if (rows > INDEX_MAX_RUNS)
		return -2;
	R = &ir->v[root_of(ir, v)];
	if (runtab_new(z, &rt, rows, npu_kir_numel(R->ndim, R->shape) / D) < 0)
		return -1;
	for (int64_t r = 0; r < rows; r++) {
		int64_t q = r, src = V->off;
		for (int d = (D > 1 ? nd - 2 : nd - 1); d >= 0; d--) {
			src += q % V->shape[d] * V->stride[d];
			q /= V->shape[d];
		}
		runtab_set(&rt, r, src / D);
	}
	snprintf(nm, sizeof nm, "%s.dmacopy", V->name);
	if ((out = npu_kir_val(ir, nm, node, V->dtype, nd, V->shape)) < 0) {
		free(rt.t);
		return npu_errf(z->e, "out of memory");
	}
	ir->v[out].needed = 1;
	if (gather_into(z, node, root_of(ir, v), D, rows, &rt, out, "a contiguous copy of a view") < 0)
		return -1;
	return out;
}

/* Element offset of position `pos` (row-major over shape) in a view with
 * strides st and offset off, with dim `rep` given by `at` instead. */
static int64_t elem_at(int nd, const int64_t *shape, const int64_t *st,
		       int64_t off, int64_t pos, int rep, int64_t at)
{
	for (int d = nd - 1; d >= 0; d--) {
		int64_t c = pos % shape[d];
		pos /= shape[d];
		off += (d == rep ? at : c) * st[d];
	}
	return off;
}

/*
 * gather(x, dim, index) by constant indices (DeBERTa's relative
 * positions, folded from aranges): a table of the source elements, each
 * a run of one element of x's root, checked against x's size at compile
 * time as PyTorch checks it at run time.
 */
static int gather_const(fz *z, int node, int x, int ix, int dim)
{
	npu_kir *ir = z->ir;
	const npu_kval *X = &ir->v[x], *I = &ir->v[ix];
	const uint8_t *cd = ir->v[root_of(ir, ix)].cdata;
	int nd = I->ndim, esz = npu_dtype_size(I->dtype);
	int64_t n = npu_kir_numel(nd, I->shape);
	int R = root_of(ir, x);
	runtab rt;

	if (n > INDEX_MAX_RUNS)
		return host_kern(z, node, "gather by more constant indices than the compiler examines");
	if (runtab_new(z, &rt, n, npu_kir_numel(ir->v[R].ndim, ir->v[R].shape)) < 0)
		return -1;
	for (int64_t p = 0; p < n; p++) {
		int64_t io = elem_at(nd, I->shape, I->stride, I->off, p, -1, 0), iv;
		if (esz == 8) {
			memcpy(&iv, cd + io * 8, 8);
		} else {
			int32_t v32;
			memcpy(&v32, cd + io * 4, 4);
			iv = v32;
		}
		if (iv < 0 || iv >= X->shape[dim]) {
			free(rt.t);
			return npu_errf(z->e, "%s: node '%s': gather index %lld is out of range for dim %d of size %lld",
					z->g->file, z->g->nodes[node].name, (long long)iv,
					dim, (long long)X->shape[dim]);
		}
		runtab_set(&rt, p, elem_at(nd, I->shape, X->stride, X->off, p, dim, iv));
	}
	return gather_runs(z, node, R, 1, n, &rt, "gather by constant indices");
}

/* Whether dims [a, b) of view X, over `shape`, step by one stride: *st
 * (0 when they hold one element), their element count in *n. */
static int one_stride(const npu_kval *X, const int64_t *shape, int a, int b,
		      int64_t *st, int64_t *n)
{
	*st = 0;
	*n = 1;
	for (int d = b - 1; d >= a; d--) {
		if (shape[d] == 1)
			continue;
		if (*n > 1 && X->stride[d] != *st * *n)
			return 0;
		if (*n == 1)
			*st = X->stride[d];
		*n *= shape[d];
	}
	return 1;
}

/*
 * A DMA gather by a run-time index list (emit.c's emit_gather_rt): runs
 * of D elements (l, t, j), l < L groups, t < T, j < J, run (l, t, j)
 * from x's root at off + l * gs + t * ts + index * js, index entry l *
 * is + t * J + j, stored at l * J * T * D + j * ods + t * odt.  The
 * index must be a contiguous int64 or int32 value.
 */
typedef struct rtgat {
	int64_t L, T, J, D;
	int64_t gs, ts, js;     /* source strides, elements */
	int64_t is;             /* index entries a group (0: shared) */
	int64_t ods, odt;       /* output strides of j and t, elements */
} rtgat;

static int rt_gather(fz *z, int node, int x, int ix, const rtgat *q, const char *what)
{
	npu_kir *ir = z->ir;
	int k, v;
	int64_t st[NPU_MAX_DIMS] = { 0 };

	if ((k = new_kern(z, NPU_KK_GATHER, node)) < 0 ||
	    (v = meta_val(z, node, 0, z->g->nodes[node].name)) < 0)
		return -1;
	st[0] = q->gs;
	st[1] = q->js;
	st[2] = q->ts;
	ir->v[root_of(ir, x)].needed = ir->v[ix].needed = ir->v[v].needed = 1;
	ir->v[v].producer = k;
	ir->k[k].mm_m = q->L;
	ir->k[k].mm_batch = q->T;
	ir->k[k].mm_n = q->J;
	ir->k[k].mm_k = q->D;
	ir->k[k].g_ds[0] = q->ods;
	ir->k[k].g_ds[1] = q->odt;
	ir->k[k].g_is = q->is;
	if (npu_kir_opnd(&ir->k[k], root_of(ir, x), 0, ir->v[x].off, st) < 0 ||
	    npu_kir_opnd(&ir->k[k], ix, 0, 0, NULL) < 0 ||
	    npu_kir_opnd(&ir->k[k], v, 1, 0, NULL) < 0)
		return npu_errf(z->e, "out of memory");
	ir->nodeval[node] = v;
	npu_kir_decide(ir, 1, "%s: %s as %lld DMA gather(s) of %lld x %lld runs of %lld elements by the run-time index",
		       z->g->nodes[node].name, what, (long long)q->L, (long long)q->T,
		       (long long)q->J, (long long)q->D);
	close_cur(z);
	return 0;
}

/* The index value ix as a contiguous one (a DMA copy of a view: exact);
 * -2 (after a host call for the node) when it cannot be copied. */
static int contig_index(fz *z, int node, int ix)
{
	int c;

	if (z->ir->v[ix].root < 0 && iscontig(&z->ir->v[ix]))
		return ix;
	if ((c = dma_copy(z, node, ix)) == -1)
		return -1;
	if (c < 0)
		return host_kern(z, node, "an index view too large to copy") < 0 ? -1 : -2;
	return c;
}

/*
 * gather by a run-time index: single elements, the index itself the
 * list, as [groups][n2][J] (J the gathered dim's entries, n2 a second
 * dim of one source stride): along the last dim the rows before it are
 * n2 and one group; else the dims after it are n2, each value of the
 * dims before a group, and the index is first copied with the gathered
 * dim moved last (a DMA copy, exact).
 */
static int gather_rt(fz *z, int node, int x, int ix, int dim)
{
	npu_kir *ir = z->ir;
	int nd = ir->v[x].ndim, tail = 1;
	int64_t sh[NPU_MAX_DIMS];
	rtgat q = { .J = ir->v[ix].shape[dim], .D = 1, .js = ir->v[x].stride[dim] };

	memcpy(sh, ir->v[ix].shape, sizeof sh);
	for (int d = dim + 1; d < nd; d++)
		tail &= sh[d] == 1;
	if (tail ? !one_stride(&ir->v[x], sh, 0, dim, &q.ts, &q.T) :
	    !one_stride(&ir->v[x], sh, dim + 1, nd, &q.ts, &q.T) ||
	    !one_stride(&ir->v[x], sh, 0, dim, &q.gs, &q.L))
		return host_kern(z, node, "gather by a run-time index whose rows are not one stride apart");
	if (tail) {
		q.L = 1;
		q.gs = 0;
	} else {
		/* the index viewed with dim last: [before, after, J] */
		int64_t psh[NPU_MAX_DIMS], pst[NPU_MAX_DIMS];
		int o = 0;
		for (int d = 0; d < nd; d++)
			if (d != dim) {
				psh[o] = sh[d];
				pst[o++] = ir->v[ix].stride[d];
			}
		psh[o] = q.J;
		pst[o] = ir->v[ix].stride[dim];
		if ((ix = view_val(z, node, ix, nd, psh, ir->v[ix].off, pst)) < 0)
			return -1;
	}
	if ((ix = contig_index(z, node, ix)) < 0)
		return ix == -1 ? -1 : 0;
	q.is = q.T * q.J;
	/* out (l, t, j): then j * T + t, or t * J + j along the last dim */
	q.ods = tail ? 1 : q.T;
	q.odt = tail ? q.J : 1;
	return rt_gather(z, node, x, ix, &q, "gather");
}

/* Whether X's dims before p are of one stride (when `groups`: q->gs,
 * q->L) and those after p one contiguous run (q->ods, *n elements). */
static int rows_runs(const npu_kval *X, const int64_t *sh, int p, int groups, rtgat *q,
		     int64_t *n)
{
	return (!groups || one_stride(X, sh, 0, p, &q->gs, &q->L)) &&
	       one_stride(X, sh, p + 1, X->ndim, &q->ods, n) && (*n <= 1 || q->ods == 1);
}

/*
 * A DMA scatter by a run-time index (emit.c's emit_scatter) over out,
 * which holds self already: for each group l < L, the J rows of D
 * elements of vals (contiguous: copied so when a view) go to out's
 * rows l * ogs + idx * ods, the index entries shared (is 0) or l * is +
 * j, each in [-bound, bound) (a fault past it).
 */
typedef struct rtscat {
	int64_t L, J, D;
	int64_t ods, ogs;       /* out's strides of a row and a group */
	int64_t is, bound;
} rtscat;

static int rt_scatter(fz *z, int node, int out, int vals, int ix, const rtscat *q,
		      const char *what)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int64_t st[NPU_MAX_DIMS] = { 0 };
	int k;
	char nm[300];

	ir->nodeval[node] = out;
	if (!q->L || !q->J || !q->D || !q->bound)   /* nothing to scatter: self */
		return 0;
	if (!iscontig(&ir->v[vals]) &&
	    (vals = copy_val(z, vals, node, "a scatter's values, made contiguous")) < 0)
		return -1;
	if ((ix = contig_index(z, node, ix)) < 0)
		return ix == -1 ? -1 : 0;
	if ((k = new_kern(z, NPU_KK_GATHER, node)) < 0)
		return -1;
	snprintf(nm, sizeof nm, "%s.scatter", n->name);
	free(ir->k[k].name);
	ir->k[k].name = strdup(nm);
	ir->k[k].g_scatter = 1;
	ir->k[k].g_bound = q->bound;
	ir->k[k].g_is = q->is;
	ir->k[k].mm_m = q->L;
	ir->k[k].mm_n = q->J;
	ir->k[k].mm_k = q->D;
	ir->k[k].g_ds[0] = q->ods;
	ir->k[k].g_ds[1] = q->ogs;
	st[0] = q->J * q->D;
	st[1] = q->D;
	ir->v[root_of(ir, vals)].needed = ir->v[ix].needed = 1;
	if (npu_kir_opnd(&ir->k[k], root_of(ir, vals), 0, ir->v[vals].off, st) < 0 ||
	    npu_kir_opnd(&ir->k[k], ix, 0, 0, NULL) < 0 ||
	    npu_kir_opnd(&ir->k[k], out, 1, 0, NULL) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[out].producer = k;
	npu_kir_decide(ir, 1, "%s: %s %lld DMA scatter(s) of %lld rows of %lld elements by "
		       "the run-time index", n->name, what, (long long)q->L,
		       (long long)q->J, (long long)q->D);
	close_cur(z);
	return 0;
}

/*
 * scatter.src by a run-time index along the last dim (a router's
 * `zeros.scatter(-1, topk_ids, weights)` past @scatsrc's 8 entries a
 * row): self copied into the result, then each row's src elements
 * DMA-scattered to the columns its own index row gives.  The index and
 * src of one shape, whose rows are self's.
 */
static int do_scatter_rt(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	double dd;
	int x, ix, src, out, nd;
	rtscat q = { .D = 1, .ods = 1 };

	if (!m || n->nargs < 4 || n->args[0].kind != NPU_GV_NODE || gnum(&n->args[1], &dd) ||
	    n->args[2].kind != NPU_GV_NODE || n->args[3].kind != NPU_GV_NODE ||
	    !vecok(m->dtype) || !m->ndim ||
	    (x = node_val(z, n->args[0].u.node)) < 0 ||
	    (ix = node_val(z, n->args[2].u.node)) < 0 ||
	    (src = node_val(z, n->args[3].u.node)) < 0)
		return host_kern(z, node, "scatter of this form");
	nd = m->ndim;
	if (wrapdim((int64_t)dd, nd) != nd - 1 || ir->v[x].dtype != m->dtype ||
	    ir->v[src].dtype != m->dtype || ir->v[ix].ndim != nd || ir->v[src].ndim != nd ||
	    memcmp(ir->v[ix].shape, ir->v[src].shape, (size_t)nd * sizeof(int64_t)) ||
	    memcmp(ir->v[ix].shape, ir->v[x].shape, (size_t)(nd - 1) * sizeof(int64_t)) ||
	    (ir->v[ix].dtype != NPU_DT_I64 && ir->v[ix].dtype != NPU_DT_I32))
		return host_kern(z, node, "scatter along another dim, or by an index of "
				 "another shape than src's and self's rows");
	q.J = q.is = ir->v[ix].shape[nd - 1];
	q.ogs = q.bound = ir->v[x].shape[nd - 1];
	q.L = q.J ? npu_kir_numel(nd, ir->v[ix].shape) / q.J : 0;
	if ((out = scatter_self(z, node, x)) < 0)
		return -1;
	close_cur(z);
	return rt_scatter(z, node, out, src, ix, &q, "scatter as a copy of self and");
}

/*
 * max_unpool2d (SegNet's decoder): the output zero-filled, then each
 * plane's values DMA-scattered to the flat positions its own indices
 * give (a list a plane), bounded by the output plane's size (PyTorch
 * raises past it; an index from max_pool2d is always inside).
 */
static int do_max_unpool(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int x, ix, out, nd;
	int64_t sh[NPU_MAX_DIMS], ost[NPU_MAX_DIMS];
	rtscat q = { .D = 1, .ods = 1 };
	char nm[300];

	if (!m || n->nargs < 3 || n->args[0].kind != NPU_GV_NODE ||
	    n->args[1].kind != NPU_GV_NODE || !vecok(m->dtype) ||
	    (m->ndim != 3 && m->ndim != 4) ||
	    (x = node_val(z, n->args[0].u.node)) < 0 ||
	    (ix = node_val(z, n->args[1].u.node)) < 0 ||
	    ir->v[x].ndim != m->ndim || ir->v[ix].ndim != m->ndim ||
	    memcmp(ir->v[x].shape, ir->v[ix].shape, (size_t)m->ndim * sizeof *sh) ||
	    ir->v[x].dtype != m->dtype ||
	    (ir->v[ix].dtype != NPU_DT_I64 && ir->v[ix].dtype != NPU_DT_I32))
		return host_kern(z, node, "max_unpool2d of this form");
	nd = m->ndim;
	for (int d = 0; d < nd; d++)
		sh[d] = m->shape[d].v;
	q.J = ir->v[x].shape[nd - 2] * ir->v[x].shape[nd - 1];
	q.ogs = q.bound = sh[nd - 2] * sh[nd - 1];
	q.L = q.J ? npu_kir_numel(nd, ir->v[x].shape) / q.J : 0;
	q.is = q.J;
	if ((out = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	ir->v[out].needed = 1;
	npu_kir_contig(nd, sh, ost);
	snprintf(nm, sizeof nm, "%s.zero", n->name);
	if (fill_kern(z, node, nm, nd, sh, -1, 0, out, 0, ost) < 0)
		return -1;
	close_cur(z);
	return rt_scatter(z, node, out, x, ix, &q, "max_unpool2d as a zero fill and");
}

/*
 * index_put(self, [None, .., idx, ..], values) with one integer index at
 * dim p (the static KV cache's index_copy_ by cache_position, `x[:, i] =
 * v`; constant indices are pass_scatter.c's): self copied into the
 * result by a copy kernel, then the values' rows DMA-scattered over it
 * (emit.c's emit_scatter): for each group of the dims before p, the
 * index's entries (J, any shape flattened) pick the rows of the dims
 * after p, runs of D elements.  Values of another shape are broadcast
 * to the one the indexing gives; a view of them is copied contiguous.
 * A repeated index leaves one of its rows, as PyTorch leaves it
 * unspecified; accumulate keeps the host call (repeats add).  Integer
 * values (MoE routers' inverse permutation) are copied and scattered
 * whole by DMA, which never passes them through the lanes.
 */
static int do_index_put(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	const npu_gval *l = n->nargs > 1 ? &n->args[1] : NULL;
	const npu_gval *acc = n->nargs > 3 ? &n->args[3] : npu_gnode_kwarg(n, "accumulate");
	int x, vals, ix, out, p = -1, nd;
	int64_t J, L = 1, D = 1, want[NPU_MAX_DIMS], w = 0;
	rtscat q = { 0 };

	if (!m || !l || l->kind != NPU_GV_LIST || n->args[0].kind != NPU_GV_NODE ||
	    n->nargs < 3 || n->args[2].kind != NPU_GV_NODE ||
	    (!vecok(m->dtype) && m->dtype != NPU_DT_I64 && m->dtype != NPU_DT_I32) ||
	    (acc && acc->kind == NPU_GV_BOOL && acc->u.b))
		return host_kern(z, node, "index_put accumulating, or of this form");
	for (int d = 0; d < l->u.list.n; d++)
		if (l->u.list.v[d].kind != NPU_GV_NONE) {
			if (p >= 0 || l->u.list.v[d].kind != NPU_GV_NODE)
				return host_kern(z, node, "index_put by more than one index");
			p = d;
		}
	if (p < 0 || (x = node_val(z, n->args[0].u.node)) < 0 ||
	    (vals = node_val(z, n->args[2].u.node)) < 0 ||
	    (ix = node_val(z, l->u.list.v[p].u.node)) < 0)
		return p < 0 ? host_kern(z, node, "index_put without an index") : -1;
	nd = ir->v[x].ndim;
	if (p >= nd || ir->v[x].dtype != m->dtype || ir->v[vals].dtype != m->dtype ||
	    (ir->v[ix].dtype != NPU_DT_I64 && ir->v[ix].dtype != NPU_DT_I32))
		return host_kern(z, node, "index_put of mixed types, or by a bool mask");
	J = npu_kir_numel(ir->v[ix].ndim, ir->v[ix].shape);
	for (int d = 0; d < nd; d++)
		if (d < p)
			want[w++] = ir->v[x].shape[d], L *= ir->v[x].shape[d];
		else if (d == p)
			for (int i = 0; i < ir->v[ix].ndim; i++)
				want[w++] = ir->v[ix].shape[i];
		else
			want[w++] = ir->v[x].shape[d], D *= ir->v[x].shape[d];
	if (ir->v[vals].ndim != w || memcmp(ir->v[vals].shape, want, (size_t)w * sizeof *want)) {
		/* values that broadcast (`x[:, idx] = 0`): their view over the
		 * indexed shape, which rt_scatter copies contiguous */
		int64_t bst[NPU_MAX_DIMS];
		if (!vecok(m->dtype) || bcast_strides(&ir->v[vals], w, want, bst) < 0)
			return host_kern(z, node, "index_put whose values do not broadcast to "
					 "the indexed shape, or integers that do");
		if ((vals = view_val(z, node, vals, w, want, ir->v[vals].off, bst)) < 0)
			return -1;
	}
	/* integers (a router's inverse permutation) are copied by DMA, whole */
	if ((out = vecok(m->dtype) ? scatter_self(z, node, x) : dma_copy(z, node, x)) < 0)
		return out == -1 ? -1 : host_kern(z, node, "an integer index_put whose self is too "
						  "scattered to copy");
	close_cur(z);
	q.L = L, q.J = J, q.D = D, q.bound = ir->v[x].shape[p];
	q.ods = ir->v[out].stride[p];
	q.ogs = p ? ir->v[out].stride[p - 1] : 0;
	return rt_scatter(z, node, out, vals, ix, &q, "index_put as a copy of self and");
}

/*
 * aten.index by one run-time index at dim p after Nones (x[:, idx]), or
 * by arange(B) and a run-time [B] at dims 0 and 1 (x[arange(B), idx]:
 * GPT-2's and CLIP's pooling at one token a row): rows of the dims after
 * them, contiguous runs, gathered by the index itself.  -2: not this
 * form (the caller goes on).
 */
static int index_rt(fz *z, int node, int x, const npu_gval *l)
{
	npu_kir *ir = z->ir;
	const npu_kval *X = &ir->v[x];
	int nd = X->ndim, p = -1, ix, ia = -1, cnt = 0;
	int64_t sh[NPU_MAX_DIMS], n;
	rtgat q = { .T = 1 };

	for (int d = 0; d < l->u.list.n && d < nd; d++)
		if (l->u.list.v[d].kind != NPU_GV_NONE) {
			if (l->u.list.v[d].kind != NPU_GV_NODE)
				return -2;
			cnt++;
			p = p < 0 ? d : p;
		}
	if (cnt == 2 && p == 0 && l->u.list.n >= 2 &&
	    l->u.list.v[1].kind == NPU_GV_NODE) {
		ia = node_val(z, l->u.list.v[0].u.node);
		ix = node_val(z, l->u.list.v[1].u.node);
	} else if (cnt == 1) {
		ix = node_val(z, l->u.list.v[p].u.node);
	} else {
		return -2;
	}
	if (ix < 0 || const_index(ir, ix) || ir->v[ix].isconst ||
	    (ir->v[ix].dtype != NPU_DT_I64 && ir->v[ix].dtype != NPU_DT_I32))
		return -2;
	if (ia >= 0) {
		/* the first index must be 0 .. B-1, the second of shape [B] */
		const void *a = ia >= 0 ? const_index(ir, ia) : NULL;
		const npu_kval *A = &ir->v[ia];
		if (!a || A->ndim != 1 || ir->v[ix].ndim != 1 ||
		    A->shape[0] != ir->v[ix].shape[0] || A->shape[0] > X->shape[0])
			return -2;
		for (int64_t b = 0; b < A->shape[0]; b++)
			if (npu_load_f64(A->dtype, a, (size_t)(A->off + b * A->stride[0])) != (double)b)
				return -2;
		p = 1;
		q.T = A->shape[0];
		q.ts = X->stride[0];
		q.J = 1;
	} else {
		q.J = npu_kir_numel(ir->v[ix].ndim, ir->v[ix].shape);
	}
	/* the groups: the dims before p, of one stride; the run: the dims
	 * after p, contiguous.  A view that has neither (a permuted value
	 * viewed as rows, `f.permute(0, 2, 3, 1).reshape(-1, C)[idx]`, whose
	 * reshape's copy the noop pass drops) is copied contiguous first,
	 * as PyTorch's reshape would. */
	memcpy(sh, X->shape, sizeof sh);
	if (!rows_runs(X, sh, p, ia < 0, &q, &n)) {
		if ((x = copy_val(z, x, node, "an index's rows, made runs")) < 0)
			return -1;
		X = &ir->v[x];
		if (!rows_runs(X, sh, p, ia < 0, &q, &n))
			return npu_errf(z->e, "index %s: a contiguous copy is not runs",
					z->g->nodes[node].name);
		q.ts = ia >= 0 ? X->stride[0] : q.ts;
	}
	q.L = q.L ? q.L : 1;
	q.D = n;
	q.js = X->stride[p];
	if ((ix = contig_index(z, node, ix)) < 0)
		return ix == -1 ? -1 : 0;
	q.is = ia >= 0 ? q.T : 0;  /* x[:, idx]: every group reads all of it */
	q.ods = q.D;
	q.odt = q.D * q.J;
	return rt_gather(z, node, x, ix, &q, "index");
}

/*
 * aten.gather(x, dim, index): out[p] = x[p with dim replaced by
 * index[p]], index the shape of out (no larger than x but along dim).
 * Bytes move by DMA, so any type gathers exactly.  An index outside
 * [0, size) reads another element or faults: PyTorch raises instead.
 */
static int do_gather(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int x, ix, nd;
	double dd;
	int64_t dim;

	if (!tmeta(n, 0) || n->nargs < 3 || n->args[0].kind != NPU_GV_NODE ||
	    gnum(&n->args[1], &dd) || n->args[2].kind != NPU_GV_NODE ||
	    (x = node_val(z, n->args[0].u.node)) < 0 ||
	    (ix = node_val(z, n->args[2].u.node)) < 0)
		return host_kern(z, node, "gather of this form");
	nd = ir->v[x].ndim;
	dim = wrapdim((int64_t)dd, nd);
	if (ir->v[ix].ndim != nd || dim < 0 || dim >= nd || ir->v[x].isconst ||
	    ir->v[ix].isconst ||
	    (ir->v[ix].dtype != NPU_DT_I64 && ir->v[ix].dtype != NPU_DT_I32))
		return host_kern(z, node, "gather of a constant, or by an index of another rank or type");
	for (int d = 0; d < nd; d++)
		if (d != dim && ir->v[ix].shape[d] > ir->v[x].shape[d])
			return host_kern(z, node, "gather by an index larger than its input");
	if (npu_kir_numel(nd, ir->v[ix].shape) == 0)
		return host_kern(z, node, "gather of no elements");
	if (ir->v[root_of(ir, ix)].kind == NPU_BUF_CONST && ir->v[root_of(ir, ix)].cdata)
		return gather_const(z, node, x, ix, (int)dim);
	return gather_rt(z, node, x, ix, (int)dim);
}

/*
 * aten.index by constant indices that are neither a view nor a short
 * list of rows (interpolation's [OH, 1] and [OW] grids, any pattern): a
 * DMA gather (the embedding's kernel) of the input's runs of the dims
 * after the indexed ones, by a constant table of run numbers built here,
 * one per output run; with the last dims indexed a run is one element.
 * offs (freed here) holds the element offset, in x, of each of the B
 * positions of the indices' broadcast shape.
 */
static int index_gather(fz *z, int node, const index_set *q, int64_t *offs)
{
	npu_kir *ir = z->ir;
	int x = q->x, p = q->p, k = q->k, nd = ir->v[x].ndim;
	int64_t D = 1, pre = 1, rows, nrow = 1, B = q->B;
	const npu_kval *X;
	runtab rt;

	/* every dim indexed (runs of one element: index_put's gathers): a
	 * view's elements are read where they lie in its root, the view's
	 * offset and strides folded into the table, no copy first */
	if (p == 0 && k == nd && ir->v[x].root >= 0 && !ir->v[x].isconst) {
		const npu_kval *R = &ir->v[ir->v[x].root];
		if (R->root < 0 && iscontig(R) && !R->isconst && vecok(R->dtype) &&
		    B <= INDEX_MAX_RUNS) {
			int64_t n = 1;
			for (int d = 0; d < R->ndim; d++)
				n *= R->shape[d];
			if (runtab_new(z, &rt, B, n) < 0) {
				free(offs);
				return -1;
			}
			for (int64_t b = 0; b < B; b++)
				runtab_set(&rt, b, ir->v[x].off + offs[b]);
			free(offs);
			return gather_runs(z, node, ir->v[x].root, 1, B, &rt,
					   "index by constant indices");
		}
	}
	/* the gather reads whole runs of D elements of a contiguous root:
	 * of a view, a copy, and the offsets again in the copy */
	if ((ir->v[x].root >= 0 || !iscontig(&ir->v[x])) && !ir->v[x].isconst &&
	    vecok(ir->v[x].dtype)) {
		int64_t cst[NPU_MAX_DIMS];
		if ((x = contig_val(z, x, node, "a gather by constant indices reads a contiguous copy")) < 0) {
			free(offs);
			return -1;
		}
		npu_kir_contig(nd, ir->v[x].shape, cst);
		index_offsets(ir, q, cst, offs);   /* in range: checked before */
	}
	X = &ir->v[x];
	for (int d = p + k; d < nd; d++)
		D *= X->shape[d];
	for (int d = 0; d < p; d++)
		pre *= X->shape[d];
	for (int d = 0; d < nd; d++)
		nrow *= X->shape[d];
	if (X->root >= 0 || !iscontig(X) || X->isconst || !vecok(X->dtype) || !D ||
	    pre * B > INDEX_MAX_RUNS) {
		free(offs);
		return host_kern(z, node, "index by constant indices of a view that is not a gather");
	}
	rows = pre * B;
	if (runtab_new(z, &rt, rows, nrow / D) < 0) {
		free(offs);
		return -1;
	}
	/* run (i, b): x's element i * (its size past dim p - 1) + offs[b] */
	for (int64_t i = 0; i < pre; i++)
		for (int64_t b = 0; b < B; b++)
			runtab_set(&rt, i * B + b, (i * (p ? X->stride[p - 1] : 0) + offs[b]) / D);
	free(offs);
	return gather_runs(z, node, x, D, rows, &rt, "index by constant indices");
}

/*
 * repeat: one copy kernel from a view of the input that is broadcast
 * (stride 0) over each repeat count, into the result viewed with every
 * dim split into (count, size).  At most NPU_MAX_DIMS split dims.
 */
static int do_repeat(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gval *l = arg(n, 1);
	int64_t r[NPU_MAX_DIMS], sh[NPU_MAX_DIMS], sst[NPU_MAX_DIMS], dst[NPU_MAX_DIMS];
	int x, out, R, nd, k = 0, sv;
	char nm[300];

	if (!l || l->kind != NPU_GV_LIST || n->args[0].kind != NPU_GV_NODE ||
	    (x = node_val(z, n->args[0].u.node)) < 0 || ir->v[x].isconst ||
	    !vecok(ir->v[x].dtype) || (R = l->u.list.n) < (nd = ir->v[x].ndim) ||
	    R > NPU_MAX_DIMS || ilist(l, r, R))
		return host_kern(z, node, "repeat of this form");
	if ((out = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	for (int i = 0; i < R; i++) {
		int xd = i - (R - nd);
		int64_t size = xd < 0 ? 1 : ir->v[x].shape[xd];
		int64_t xs = xd < 0 ? 0 : ir->v[x].stride[xd];
		if (r[i] < 0)
			return host_kern(z, node, "repeat by a negative count");
		/* the copy writes what the meta says: a meta that is not the
		 * repeat's shape would have it write past the result */
		if (ir->v[out].ndim != R || ir->v[out].shape[i] != size * r[i])
			return npu_errf(z->e, "%s: node '%s': its meta's shape is not the "
					"repeat's (dim %d: %lld, the input's %lld times %lld)",
					z->g->file, n->name, i,
					(long long)(ir->v[out].ndim == R ? ir->v[out].shape[i] : -1),
					(long long)size, (long long)r[i]);
		if (r[i] != 1) {
			if (k == NPU_MAX_DIMS)
				return host_kern(z, node, "repeat of too many dims");
			sh[k] = r[i], sst[k] = 0, dst[k++] = size * ir->v[out].stride[i];
		}
		if (size != 1 || r[i] == 1) {
			if (k == NPU_MAX_DIMS)
				return host_kern(z, node, "repeat of too many dims");
			sh[k] = size, sst[k] = xs, dst[k++] = ir->v[out].stride[i];
		}
	}
	ir->v[out].needed = 1;
	snprintf(nm, sizeof nm, "%s.copy", n->name);
	if ((sv = view_val(z, node, x, k, sh, ir->v[x].off, sst)) < 0 ||
	    (npu_kir_numel(k, sh) > 0 && fill_kern(z, node, nm, k, sh, sv, 0, out, 0, dst) < 0))
		return -1;
	ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: repeat as one copy of a broadcast view", n->name);
	return 0;
}

/*
 * flip: the runs after the last flipped dim gathered in reversed order
 * along the flipped dims (one element each when the last dim is flipped).
 */
static int do_flip(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gval *l = arg(n, 1);
	int x, nd, last = -1, rev[NPU_MAX_DIMS] = { 0 };
	int64_t D = 1, rows = 1, cst[NPU_MAX_DIMS];
	runtab rt;

	if (!l || l->kind != NPU_GV_LIST || n->args[0].kind != NPU_GV_NODE ||
	    (x = node_val(z, n->args[0].u.node)) < 0 || ir->v[x].isconst ||
	    !vecok(ir->v[x].dtype) || !(nd = ir->v[x].ndim))
		return host_kern(z, node, "flip of this form");
	for (int i = 0; i < l->u.list.n; i++) {
		int64_t d;
		if (l->u.list.v[i].kind != NPU_GV_INT)
			return host_kern(z, node, "flip of this form");
		d = wrapdim(l->u.list.v[i].u.i, nd);
		rev[d] = 1;
		last = (int)d > last ? (int)d : last;
	}
	if (last < 0)
		return host_kern(z, node, "flip of no dims");
	if ((x = contig_val(z, x, node, "a flip gathers from a contiguous copy")) < 0)
		return -1;
	npu_kir_contig(nd, ir->v[x].shape, cst);
	for (int d = last + 1; d < nd; d++)
		D *= ir->v[x].shape[d];
	for (int d = 0; d <= last; d++)
		rows *= ir->v[x].shape[d];
	if (rows > INDEX_MAX_RUNS)
		return host_kern(z, node, "flip of too many runs");
	if (runtab_new(z, &rt, rows, rows) < 0)
		return -1;
	for (int64_t r = 0; r < rows; r++) {
		int64_t q = r, src = 0;
		for (int d = last; d >= 0; d--) {
			int64_t len = ir->v[x].shape[d], i = q % len;
			q /= len;
			src += (rev[d] ? len - 1 - i : i) * (cst[d] / D);
		}
		runtab_set(&rt, r, src);
	}
	return gather_runs(z, node, x, D, rows, &rt, "flip");
}

/*
 * aten.index (advanced indexing) with constant indices (frozen, or
 * folded: the arange grids of attention masks, a fixed list of rows).
 * The indexed dims must be adjacent.  When the source offsets turn out
 * affine in the result's position (arange grids) the result is a strided
 * view of the input, no code; with one 1-d index it is one copy kernel
 * per run of consecutive indices; otherwise one DMA gather by a constant
 * table (index_gather).  Indices known only at run time go to the host.
 */
static int do_index(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	const npu_gval *l = arg(n, 1);
	int x, p = -1, k = 0, iv[NPU_MAX_DIMS], bn = 0, nd, affine = 1;
	int64_t bsh[NPU_MAX_DIMS], ist[NPU_MAX_DIMS][NPU_MAX_DIMS], B = 1;
	int64_t off0 = 0, bstep[NPU_MAX_DIMS] = { 0 }, *offs;
	int64_t shape[NPU_MAX_DIMS], st[NPU_MAX_DIMS];

	if (!m || !l || l->kind != NPU_GV_LIST || n->args[0].kind != NPU_GV_NODE ||
	    (x = node_val(z, n->args[0].u.node)) < 0 || (!vecok(m->dtype) && !isintdt(m->dtype)))
		return host_kern(z, node, "index of this form");
	if (!vecok(m->dtype)) {
		/* integers past the lanes: only a DMA gather copies them whole */
		int r = index_rt(z, node, x, l);
		return r != -2 ? r : host_kern(z, node, "index of integers the lanes do not hold, "
					       "not by one run-time index");
	}
	nd = ir->v[x].ndim;
	for (int d = 0; d < l->u.list.n && d < nd; d++) {
		const npu_gval *e = &l->u.list.v[d];
		if (e->kind == NPU_GV_NONE)
			continue;
		if (e->kind != NPU_GV_NODE || (p >= 0 && p + k != d) ||
		    (iv[k] = node_val(z, e->u.node)) < 0 || !const_index(ir, iv[k])) {
			int r = index_rt(z, node, x, l);
			return r != -2 ? r :
			       host_kern(z, node, "index by run-time or non-adjacent indices");
		}
		if (p < 0)
			p = d;
		k++;
	}
	if (p < 0)
		return host_kern(z, node, "index of this form");
	/* the indices' broadcast shape */
	for (int j = 0; j < k; j++) {
		const npu_kval *I = &ir->v[iv[j]];
		if (I->ndim > bn) {
			memmove(bsh + (I->ndim - bn), bsh, (size_t)bn * sizeof *bsh);
			for (int t = 0; t < I->ndim - bn; t++)
				bsh[t] = 1;
			bn = I->ndim;
		}
		for (int d = 0; d < I->ndim; d++) {
			int o = bn - I->ndim + d;
			if (bsh[o] == 1)
				bsh[o] = I->shape[d];
			else if (I->shape[d] != 1 && I->shape[d] != bsh[o])
				return host_kern(z, node, "index tensors that do not broadcast");
		}
	}
	for (int j = 0; j < k; j++)
		if (bcast_strides(&ir->v[iv[j]], bn, bsh, ist[j]) < 0)
			return host_kern(z, node, "index tensors that do not broadcast");
	for (int d = 0; d < bn; d++)
		B *= bsh[d];
	if (m->ndim != nd - k + bn || B > INDEX_MAX_POS)
		return host_kern(z, node, "index of this form");
	if (!(offs = malloc((size_t)(B ? B : 1) * sizeof *offs)))
		return npu_errf(z->e, "out of memory");
	if (index_offsets(ir, &(index_set){ x, p, k, iv, ist, bsh, bn, B },
			  ir->v[x].stride, offs) < 0) {
		free(offs);
		return host_kern(z, node, "index out of range");
	}
	off0 = B ? offs[0] : 0;
	for (int d = 0; d < bn; d++) {
		int64_t inner = 1;
		for (int e = d + 1; e < bn; e++)
			inner *= bsh[e];
		bstep[d] = bsh[d] > 1 ? offs[inner] - off0 : 0;
	}
	for (int64_t b = 0; b < B && affine; b++) {
		int64_t r = b, o = off0;
		for (int d = bn - 1; d >= 0; d--) {
			o += (r % bsh[d]) * bstep[d];
			r /= bsh[d];
		}
		affine = o == offs[b];
	}
	for (int d = 0; d < m->ndim; d++)
		shape[d] = m->shape[d].v;
	if (affine) {
		int v;
		for (int d = 0, o = 0; d < nd; d++) {
			if (d == p)
				for (int e = 0; e < bn; e++)
					st[o++] = bstep[e];
			if (d < p || d >= p + k)
				st[o++] = ir->v[x].stride[d];
		}
		free(offs);
		if ((v = view_val(z, node, x, m->ndim, shape, ir->v[x].off + off0, st)) < 0)
			return -1;
		ir->nodeval[node] = v;
		npu_kir_decide(ir, 1, "%s: index by constant affine indices: a view, no code", n->name);
		return 0;
	}
	if (k != 1 || bn != 1 || index_runs(ir->v[x].stride[p], offs, B) > INDEX_COPY_RUNS)
		return index_gather(z, node, &(index_set){ x, p, k, iv, ist, bsh, bn, B }, offs);
	return index_copies(z, node, x, p, offs, B);
}

/* A 2-d pooling window: kernel, stride, padding; avg: the divisor. */
typedef struct poolwin {
	int64_t ks[2], st[2], pd[2], dl[2]; /* dl: max pooling's dilation */
	int avg;
	double div;
	int edge, incl;         /* avg: a divisor that varies at the edges */
	int idx;                /* max: its indices are read */
} poolwin;

/* Whether a user reads a max pool's indices (its output 1). */
static int pool_index_used(fz *z, int node)
{
	for (int i = 0; i < z->g->nnodes; i++) {
		const npu_gnode *u = &z->g->nodes[i];
		double idx;
		if (u->aop == NPU_AOP_GETITEM && u->nargs > 1 &&
		    u->args[0].kind == NPU_GV_NODE && u->args[0].u.node == node &&
		    !gnum(&u->args[1], &idx) && idx != 0)
			return 1;
	}
	return 0;
}

/* A max pool's window from the node's arguments kernel_size, stride,
 * padding, dilation at a, a + 1, ...: the forward's from 1, its
 * backward's from 2.  1: not lists of two ints. */
static int maxpool_win(const npu_gnode *n, int a, poolwin *pw)
{
	if (ilist(arg(n, a), pw->ks, 2))
		return 1;
	if (n->nargs < a + 2 || ilist(arg(n, a + 1), pw->st, 2))
		pw->st[0] = pw->ks[0], pw->st[1] = pw->ks[1];
	if ((n->nargs > a + 2 && ilist(arg(n, a + 2), pw->pd, 2)) ||
	    (n->nargs > a + 3 && ilist(arg(n, a + 3), pw->dl, 2)))
		return 1;
	return pw->dl[0] < 1 || pw->dl[1] < 1 || pw->st[0] < 1 || pw->st[1] < 1 ||
	       pw->ks[0] < 1 || pw->ks[1] < 1 || pw->pd[0] < 0 || pw->pd[1] < 0;
}

/* max_pool2d's arguments, and adaptive_max_pool2d's when the sizes
 * divide (a max_pool2d with kernel = stride = in / out); 1: not a form
 * the ew lowering takes */
static int maxpool_args(fz *z, int node, int64_t h, int64_t w, poolwin *pw)
{
	const npu_gnode *n = &z->g->nodes[node];
	int64_t os[2];

	if (n->aop == NPU_AOP_ADAPTIVE_MAX_POOL2D) {
		if (ilist(&n->args[1], os, 2) || os[0] <= 0 || os[1] <= 0 ||
		    h % os[0] || w % os[1])
			return 1;
		pw->ks[0] = pw->st[0] = h / os[0];
		pw->ks[1] = pw->st[1] = w / os[1];
		pw->idx = pool_index_used(z, node);
		return 0;
	}
	pw->idx = pool_index_used(z, node);
	/* ceil_mode (args[5]) needs nothing here: windows past the end
	 * read the -inf padding (do_pool); a dilated window's taps are
	 * views dl apart */
	return maxpool_win(n, 1, pw);
}

/* An average pool's window and divisors from the node's arguments
 * kernel_size, stride, padding, ceil_mode, count_include_pad,
 * divisor_override at a, a + 1, ...: the forward's from 1, its
 * backward's from 2.  1: not of lists and numbers. */
static int avgpool_win(const npu_gnode *n, int a, poolwin *pw)
{
	double ceil_mode = 0, incl = 1, dv = 0;

	pw->avg = 1;
	if (ilist(arg(n, a), pw->ks, 2))
		return 1;
	if (ilist(arg(n, a + 1), pw->st, 2))
		pw->st[0] = pw->ks[0], pw->st[1] = pw->ks[1];
	if (n->nargs > a + 2 && ilist(arg(n, a + 2), pw->pd, 2))
		return 1;
	if (n->nargs > a + 3)
		gnum(arg(n, a + 3), &ceil_mode);
	if (n->nargs > a + 4)
		gnum(arg(n, a + 4), &incl);
	pw->div = (double)(pw->ks[0] * pw->ks[1]);
	pw->incl = incl != 0;
	if (n->nargs > a + 5 && arg(n, a + 5)->kind != NPU_GV_NONE) {
		if (gnum(arg(n, a + 5), &dv) || dv == 0)
			return 1;
		pw->div = dv;
	} else {
		/* without the padding in the count, or with ceil_mode's
		 * windows that hang over the end, the divisor varies at the
		 * edges */
		pw->edge = ceil_mode || (!pw->incl && (pw->pd[0] || pw->pd[1]));
	}
	return pw->st[0] < 1 || pw->st[1] < 1 || pw->ks[0] < 1 || pw->ks[1] < 1 ||
	       pw->pd[0] < 0 || pw->pd[1] < 0;
}

/* avg_pool2d's, and _adaptive_avg_pool2d's when the sizes divide (then
 * it is an avg_pool2d with kernel = stride = in / out) */
static int avgpool_args(fz *z, int node, int64_t h, int64_t w, poolwin *pw)
{
	const npu_gnode *n = &z->g->nodes[node];
	int64_t os[2];

	pw->avg = 1;
	if (n->aop == NPU_AOP_ADAPTIVE_AVG_POOL2D) {
		if (ilist(&n->args[1], os, 2) || os[0] <= 0 || os[1] <= 0 ||
		    h % os[0] || w % os[1])
			return 1;
		pw->ks[0] = pw->st[0] = h / os[0];
		pw->ks[1] = pw->st[1] = w / os[1];
		pw->div = (double)(pw->ks[0] * pw->ks[1]);
		return 0;
	}
	return avgpool_win(n, 1, pw);
}

/*
 * Average pooling window (y, x) of an h x w plane: the input rows
 * [r[0], r[1]) and columns [r[2], r[3]) it sums, and the divisor
 * PyTorch gives it: the override, or the window clipped to the padded
 * input and then, without count_include_pad, to the input.
 */
static double pool_window(const poolwin *pw, int64_t h, int64_t w, int64_t y,
			  int64_t x, int64_t *r)
{
	int64_t h0 = y * pw->st[0] - pw->pd[0], w0 = x * pw->st[1] - pw->pd[1];
	int64_t h1 = h0 + pw->ks[0], w1 = w0 + pw->ks[1], cnt;

	h1 = h1 < h + pw->pd[0] ? h1 : h + pw->pd[0];
	w1 = w1 < w + pw->pd[1] ? w1 : w + pw->pd[1];
	cnt = (h1 - h0) * (w1 - w0);
	r[0] = h0 > 0 ? h0 : 0;
	r[1] = h1 < h ? h1 : h;
	r[2] = w0 > 0 ? w0 : 0;
	r[3] = w1 < w ? w1 : w;
	if (!pw->incl)
		cnt = (r[1] - r[0]) * (r[3] - r[2]);
	return pw->edge ? (double)cnt : pw->div;
}

/*
 * The divisors of avg_pool2d's windows when they vary (pw->edge), as
 * PyTorch counts them: the window clipped to the padded input, then,
 * without count_include_pad, to the input itself.  A constant [oh][ow]
 * fp32 value, or -1.
 */
static int pool_divisors(fz *z, int node, const poolwin *pw, int64_t h,
			 int64_t w, int64_t oh, int64_t ow)
{
	float *d = malloc((size_t)(oh * ow) * sizeof *d);
	int64_t r[4];
	char nm[300];

	if (!d)
		return npu_errf(z->e, "out of memory");
	for (int64_t y = 0; y < oh; y++)
		for (int64_t x = 0; x < ow; x++)
			d[y * ow + x] = (float)pool_window(pw, h, w, y, x, r);
	snprintf(nm, sizeof nm, "%s.divisors", z->g->nodes[node].name);
	return own_matrix(z, node, nm, NPU_DT_F32, oh, ow, d);
}

/* max_pool2d's unused indices: an empty placeholder value */
static int pool_indices(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	char nm[300];
	int *vals;

	if (!n->multi)
		return 0;
	if (!(vals = calloc((size_t)n->nmeta + 1, sizeof *vals)))
		return npu_errf(z->e, "out of memory");
	vals[0] = ir->nodeval[node];
	for (int i = 1; i < n->nmeta; i++) {
		snprintf(nm, sizeof nm, "%s.%d", n->name, i);
		vals[i] = -1;
		if (n->meta[i].kind == NPU_GM_TENSOR &&
		    (vals[i] = meta_val(z, node, i, nm)) >= 0)
			ir->v[vals[i]].isconst = 1;
	}
	ir->nodevals[node] = vals;
	return 0;
}

/*
 * max_pool2d from whole rows in SRAM (a pool kernel, emit_pool.c): the
 * input's rows must be contiguous and its planes one stride apart, and
 * one plane's slots must fit in SRAM.  The window goes in the kernel's
 * cv_ fields (cv_ic: the channels); op 0 is the input with its own
 * N, C, H, W strides, op 1 the output.  1: not this form.
 */
static int pool_kern(fz *z, int node, int x, const poolwin *pw, const int64_t *ex)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_kval *X = &ir->v[x];
	int64_t st[NPU_MAX_DIMS], OH, OW, Wp, need;
	int k, v, r = root_of(ir, x), esz = npu_dtype_size(X->dtype);
	npu_kern *K;

	if (X->root >= 0)
		memcpy(st, X->stride, sizeof st);
	else
		npu_kir_contig(4, X->shape, st);
	OH = tmeta(n, 0)->shape[2].v;
	OW = tmeta(n, 0)->shape[3].v;
	Wp = X->shape[3] + 2 * pw->pd[1] + ex[1];
	Wp = (Wp + pw->st[1] - 1) / pw->st[1] * pw->st[1];
	need = (2 * (X->shape[2] + 2 * pw->pd[0] + ex[0]) * Wp + OH * Wp +
		pw->ks[1] + 2 * OH * (Wp / pw->st[1])) * esz;
	if (!ir->t || pw->dl[0] != 1 || pw->dl[1] != 1 || st[3] != 1 ||
	    (X->shape[0] > 1 && st[0] != X->shape[1] * st[1]) ||
	    tmeta(n, 0)->dtype != X->dtype || X->shape[3] < 32 || OH < 1 || OW < 1 ||
	    pw->ks[0] > NPU_POOL_KMAX || pw->ks[1] > NPU_POOL_KMAX ||
	    need > (int64_t)(ir->t->sram_bytes - NPU_SPILL_BYTES) / 2)
		return 1;
	if ((k = new_kern(z, NPU_KK_POOL, node)) < 0 ||
	    (v = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	X = &ir->v[x];  /* (the new value may have moved ir->v) */
	K = &ir->k[k];
	K->ndim = 4;
	for (int d = 0; d < 4; d++)
		K->shape[d] = tmeta(n, 0)->shape[d].v;
	K->cv_ic = X->shape[1];
	K->cv_h = X->shape[2];
	K->cv_w = X->shape[3];
	K->cv_kh = pw->ks[0];
	K->cv_kw = pw->ks[1];
	K->cv_sh = pw->st[0];
	K->cv_sw = pw->st[1];
	K->cv_ph = pw->pd[0];
	K->cv_pw = pw->pd[1];
	K->cv_oh = OH;
	K->cv_ow = OW;
	K->pool_relu = z->prelu[node];
	ir->v[r].needed = ir->v[v].needed = 1;
	ir->v[v].producer = k;
	if (npu_kir_opnd(K, r, 0, X->root >= 0 ? X->off : 0, st) < 0 ||
	    npu_kir_opnd(K, v, 1, 0, NULL) < 0)
		return npu_errf(z->e, "out of memory");
	ir->nodeval[node] = v;
	if (pool_indices(z, node) < 0)
		return -1;
	npu_kir_decide(ir, 1, "%s: max of %lldx%lld windows from whole rows in SRAM (pool kernel)",
		       n->name, (long long)pw->ks[0], (long long)pw->ks[1]);
	return 0;
}

/*
 * Average pooling as a matmul.  _adaptive_avg_pool2d whose sizes do not
 * divide (AlexNet's 6x6 and VGG's 7x7 of a smaller map): output cell
 * (i, j) averages rows [floor(i*H/OH), ceil((i+1)*H/OH)) by the same of
 * columns, windows of varying size, so it is no set of strided views;
 * and avg_pool2d (pw) whose windows have more taps than an elementwise
 * kernel has operands.  Both are linear: Y[N*C][OH*OW] = X[N*C][H*W] . P,
 * where P's column (i, j) holds 1/divisor over that window, a constant
 * made here.  One fp32 matmul; 1 when done, 0 when it does not apply
 * (another type, P too large).
 */
#define ADAPTIVE_MM_MAX (1 << 20) /* elements of P */

static int pool_mm(fz *z, int node, int x, int64_t oh, int64_t ow,
		   const poolwin *pw)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_kval *X = &ir->v[x];
	int64_t H = X->shape[2], W = X->shape[3], R, HW, OHW, wr[4];
	int64_t osh[4], ost[4];
	float *pm;
	int b, ov, k, v;
	char name[300];

	if (X->dtype != NPU_DT_F32 || H * W * oh * ow > ADAPTIVE_MM_MAX)
		return 0;
	/* the matmul reads rows of H * W: a view of other strides (the
	 * channels-last stages of a ConvNeXt backbone) is copied first */
	if (X->stride[3] != 1 || X->stride[2] != W ||
	    X->stride[0] != X->shape[1] * X->stride[1]) {
		if ((x = contig_val(z, x, node, "pooling's matmul reads rows of H * W")) < 0)
			return -1;
		X = &ir->v[x];
	}
	R = X->shape[0] * X->shape[1];
	HW = H * W;
	OHW = oh * ow;
	if (!(pm = calloc((size_t)(HW * OHW), sizeof *pm)))
		return npu_errf(z->e, "out of memory");
	for (int64_t i = 0; i < oh; i++)
		for (int64_t j = 0; j < ow; j++) {
			double dv;
			if (pw) {
				dv = pool_window(pw, H, W, i, j, wr);
			} else {
				wr[0] = i * H / oh, wr[1] = ((i + 1) * H + oh - 1) / oh;
				wr[2] = j * W / ow, wr[3] = ((j + 1) * W + ow - 1) / ow;
				dv = (double)((wr[1] - wr[0]) * (wr[3] - wr[2]));
			}
			for (int64_t h = wr[0]; h < wr[1]; h++)
				for (int64_t w = wr[2]; w < wr[3]; w++)
					pm[(h * W + w) * OHW + i * ow + j] = (float)(1.0 / dv);
		}
	snprintf(name, sizeof name, "%s.p", n->name);
	if ((b = own_matrix(z, node, name, NPU_DT_F32, HW, OHW, pm)) < 0)
		return -1;
	X = &ir->v[x];  /* (the new value may have moved ir->v) */
	snprintf(name, sizeof name, "%s.mm", n->name);
	if ((ov = mm_by_const(z, node, name, x, X->off, X->stride[1], 1, b, R,
			      OHW, HW, NPU_DT_F32, NPU_DT_F32, &k)) < 0)
		return -1;
	X = &ir->v[x]; /* (new values may have moved ir->v) */
	osh[0] = X->shape[0];
	osh[1] = X->shape[1];
	osh[2] = oh;
	osh[3] = ow;
	npu_kir_contig(4, osh, ost);
	if ((v = view_val(z, node, ov, 4, osh, 0, ost)) < 0)
		return -1;
	ir->nodeval[node] = v;
	close_cur(z);
	npu_kir_decide(ir, 1, "%s: average pooling %lldx%lld -> %lldx%lld (%s) as a "
		       "matmul by a constant %lldx%lld pooling matrix", n->name,
		       (long long)H, (long long)W, (long long)oh, (long long)ow,
		       pw ? "windows of more taps than a kernel's operands" :
		       "adaptive windows of varying size",
		       (long long)HW, (long long)OHW);
	return 1;
}

static int adaptive_mm(fz *z, int node, int x)
{
	int64_t os[2];

	if (ilist(&z->g->nodes[node].args[1], os, 2) || os[0] <= 0 || os[1] <= 0)
		return 0;
	return pool_mm(z, node, x, os[0], os[1], NULL);
}

/*
 * max_pool2d whose indices are read (a training graph's, for its
 * backward) runs ATen's CPU loop in the lanes: one ew kernel over the
 * output takes the taps in window order, and a tap greater than the
 * running max, or NaN, replaces it and its flat h*W+w index replaces
 * the running index (so a later NaN wins, as in ATen).  Padding is
 * -inf, never greater and never NaN; a window of -inf keeps its first
 * tap inside the input, where the index starts.  Indices are integers
 * below 2^24, exact in fp32 lanes, stored as int64.  0 when it
 * applies, 1 for a window of more taps than a kernel has operands
 * (each tap one, and the two index planes and two results), 2 for a
 * plane past 2^24 elements or indices not int64.
 */
static int maxidx_ok(fz *z, int node, int x, const poolwin *pw)
{
	const npu_gmeta *im = tmeta(&z->g->nodes[node], 1);
	const npu_kval *X = &z->ir->v[x];

	if (!im || im->dtype != NPU_DT_I64 ||
	    (double)X->shape[2] * (double)X->shape[3] >= 16777216.0)
		return 2;
	return pw->ks[0] * pw->ks[1] + 4 > NPU_KERN_MAX_OPS;
}

/* An [oh][ow] int32 plane of window indices: each window's top-left
 * tap (padding included) when !first, else its first tap inside the
 * input (ATen's starting index).  The constant value, or -1. */
static int maxidx_plane(fz *z, int node, const poolwin *pw, int64_t w,
			int64_t oh, int64_t ow, int first)
{
	int32_t *d = malloc((size_t)(oh * ow) * sizeof *d);
	char nm[300];

	if (!d)
		return npu_errf(z->e, "out of memory");
	for (int64_t y = 0; y < oh; y++)
		for (int64_t x = 0; x < ow; x++) {
			int64_t h0 = y * pw->st[0] - pw->pd[0], w0 = x * pw->st[1] - pw->pd[1];
			while (first && h0 < 0)
				h0 += pw->dl[0];
			while (first && w0 < 0)
				w0 += pw->dl[1];
			d[y * ow + x] = (int32_t)(h0 * w + w0);
		}
	snprintf(nm, sizeof nm, "%s.%s", z->g->nodes[node].name, first ? "first" : "corner");
	return own_matrix(z, node, nm, NPU_DT_I32, oh, ow, d);
}

/* A load of the [oh][ow] plane p in ew kernel k over [N, C, oh, ow]. */
static int plane_load(fz *z, int k, int node, int p)
{
	int64_t st[NPU_MAX_DIMS] = { 0, 0, z->ir->v[p].shape[1], 1 };
	int o = p < 0 ? -1 : npu_kir_opnd(&z->ir->k[k], p, 0, 0, st);

	return o < 0 ? -1 : xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node);
}

/* do_pool's kernel k when the indices are read (maxidx_ok): the taps
 * are views of pv (offset poff, strides pst; ist over the output) */
static int maxidx_taps(fz *z, int k, int node, int x, const poolwin *pw,
		       int pv, int64_t poff, const int64_t *pst, const int64_t *ist)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	int64_t W = ir->v[x].shape[3], OH = tmeta(n, 0)->shape[2].v, OW = tmeta(n, 0)->shape[3].v;
	int corner = plane_load(z, k, node, maxidx_plane(z, node, pw, W, OH, OW, 0));
	int ix = plane_load(z, k, node, maxidx_plane(z, node, pw, W, OH, OW, 1));
	int mx = xadd(z, k, NPU_X_CONST, 0, 0, 0, 0, -INFINITY, node), iv, *vals;
	char nm[300];

	for (int64_t kh = 0; kh < pw->ks[0]; kh++)
		for (int64_t kw = 0; kw < pw->ks[1]; kw++) {
			int64_t dh = kh * pw->dl[0], dw = kw * pw->dl[1];
			int o = npu_kir_opnd(&ir->k[k], pv, 0, poff + dh * pst[2] + dw * pst[3], ist);
			int l = o < 0 ? -1 : xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node);
			int gt = xadd(z, k, NPU_X_BIN, NPU_OP_VCMPLT, mx, l, 0, 0, node);
			int eq = xadd(z, k, NPU_X_BIN, NPU_OP_VCMPEQ, l, l, 0, 0, node);
			int nan = xadd(z, k, NPU_X_UN, NPU_OP_VNOT, eq, 0, 0, 0, node);
			int c = xadd(z, k, NPU_X_BIN, NPU_OP_VADD, gt, nan, 0, 0, node);
			int at = xadd(z, k, NPU_X_BINI, NPU_OP_VADDI, corner, 0, 0,
				      (float)(dh * W + dw), node);
			if (corner < 0 || ix < 0 || mx < 0 || l < 0 || gt < 0 || eq < 0 ||
			    nan < 0 || c < 0 || at < 0)
				return -1;
			mx = xadd(z, k, NPU_X_SEL, 0, c, l, mx, 0, node);
			ix = xadd(z, k, NPU_X_SEL, 0, c, at, ix, 0, node);
		}
	if (mx < 0 || ix < 0)
		return -1;
	z->cur = k;
	if (def_val(z, k, node, mx, LV_ELEM) < 0)
		return -1;
	snprintf(nm, sizeof nm, "%s.1", n->name);
	if ((iv = meta_val(z, node, 1, nm)) < 0)
		return -1;
	ir->v[iv].producer = k;
	ir->v[iv].xdef = ix;
	if (set_level(z, iv, LV_ELEM) < 0 ||
	    !(vals = calloc((size_t)n->nmeta + 1, sizeof *vals)))
		return npu_errf(z->e, "out of memory");
	for (int i = 0; i < n->nmeta; i++)
		vals[i] = i ? -1 : ir->nodeval[node];
	vals[1] = iv;
	ir->nodevals[node] = vals;
	npu_kir_decide(ir, 1, "%s: max of %lld strided views and its first index (ATen's order), "
		       "one kernel", n->name, (long long)(pw->ks[0] * pw->ks[1]));
	return 0;
}

/*
 * max_pool2d (its indices unused), avg_pool2d and _adaptive_avg_pool2d
 * (when the sizes divide): max pooling of wide enough rows as a pool
 * kernel (pool_kern); else the input copied into a padded buffer (-inf
 * for max, 0 for avg; no copy without padding), then one ew kernel takes
 * the max, or the sum divided by the window, of KH*KW strided views.
 */
static int do_pool(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	poolwin pw = { .pd = { 0, 0 }, .dl = { 1, 1 } };
	int64_t pst[NPU_MAX_DIMS], ist[NPU_MAX_DIMS], poff = 0, ex[2];
	int x, pv, k, r = -1, bad;
	char nm[300];

	if (!m || n->nargs < 2 || n->args[0].kind != NPU_GV_NODE ||
	    (x = node_val(z, n->args[0].u.node)) < 0 || ir->v[x].ndim != 4 ||
	    m->ndim != 4 || !isfloat(ir->v[x].dtype) || ir->v[x].isconst)
		return host_kern(z, node, "pooling of other types or ranks");
	bad = n->aop == NPU_AOP_MAX_POOL2D || n->aop == NPU_AOP_ADAPTIVE_MAX_POOL2D
	      ? maxpool_args(z, node, ir->v[x].shape[2], ir->v[x].shape[3], &pw)
	      : avgpool_args(z, node, ir->v[x].shape[2], ir->v[x].shape[3], &pw);
	if (bad && n->aop == NPU_AOP_ADAPTIVE_AVG_POOL2D) {
		int done = adaptive_mm(z, node, x);
		if (done)
			return done < 0 ? -1 : 0;
	}
	if (bad)
		return host_kern(z, node, n->aop == NPU_AOP_ADAPTIVE_AVG_POOL2D
				 ? "adaptive pooling of this form (not float32, or too large)"
				 : n->aop == NPU_AOP_ADAPTIVE_MAX_POOL2D
				 ? "adaptive max pooling whose sizes do not divide"
				 : "max pooling or average pooling of this form");
	/*
	 * A tap past the padded input reads only padding (0, or -inf),
	 * which changes no sum and no max: a window larger than the input
	 * (EfficientNet's AvgPool2d(2560, ceil_mode=True) over 7 x 7) keeps
	 * the taps that reach it.  Its divisors do not change: PyTorch
	 * clips each window to the padded input first.  ceil_mode's last
	 * windows may still reach past the padded input.
	 */
	for (int i = 0; i < 2; i++) {
		int64_t hp = ir->v[x].shape[2 + i] + 2 * pw.pd[i], kt = (hp + pw.dl[i] - 1) / pw.dl[i];
		pw.ks[i] = pw.ks[i] < kt ? pw.ks[i] : kt;
		ex[i] = (m->shape[2 + i].v - 1) * pw.st[i] + (pw.ks[i] - 1) * pw.dl[i] + 1 - hp;
		ex[i] = ex[i] < 0 ? 0 : ex[i];
	}
	if (pw.idx && (r = maxidx_ok(z, node, x, &pw)) != 0)
		return r < 0 ? -1 : host_kern(z, node, r == 1
			? "max pooling with indices of more taps than a kernel has operands"
			: "max pooling with indices of a plane past 2^24 elements, or not int64");
	if (!pw.avg && !pw.idx && (r = pool_kern(z, node, x, &pw, ex)) <= 0)
		return r;
	if (pw.avg && pw.ks[0] * pw.ks[1] + 2 > NPU_KERN_MAX_OPS) {
		int done = pool_mm(z, node, x, m->shape[2].v, m->shape[3].v, &pw);
		if (done)
			return done < 0 ? -1 : 0;
		return host_kern(z, node, "average pooling of more taps than a kernel has operands, too large for a matmul");
	}
	r = -1;
	if (pw.pd[0] || pw.pd[1] || ex[0] || ex[1]) {
		int64_t hi[2] = { pw.pd[0] + ex[0], pw.pd[1] + ex[1] }, ioff;
		char in[300];
		snprintf(nm, sizeof nm, "%s.pad", n->name);
		snprintf(in, sizeof in, "%s.in", n->name);
		if ((pv = pad_fill(z, node, x, pw.pd, hi, pw.avg ? 0 : -INFINITY,
				   ir->v[x].dtype, nm, in, &ioff, pst)) < 0)
			return -1;
	} else {
		/* no padding: the windows are views of the input itself */
		pv = root_of(ir, x);
		ir->v[pv].needed = 1;
		memcpy(pst, ir->v[x].stride, sizeof pst);
		poff = ir->v[x].off;
	}
	if ((k = new_kern(z, NPU_KK_EW, node)) < 0)
		return -1;
	ir->k[k].ndim = 4;
	for (int d = 0; d < 4; d++)
		ir->k[k].shape[d] = m->shape[d].v;
	ist[0] = pst[0];
	ist[1] = pst[1];
	ist[2] = pw.st[0] * pst[2];
	ist[3] = pw.st[1] * pst[3];
	if (pw.idx)
		return maxidx_taps(z, k, node, x, &pw, pv, poff, pst, ist);
	for (int64_t kh = 0; kh < pw.ks[0]; kh++)
		for (int64_t kw = 0; kw < pw.ks[1]; kw++) {
			int o = npu_kir_opnd(&ir->k[k], pv, 0, poff + kh * pw.dl[0] * pst[2] +
					     kw * pw.dl[1] * pst[3], ist);
			int l = xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node);
			if (o < 0 || l < 0)
				return npu_errf(z->e, "out of memory");
			r = r < 0 ? l : xadd(z, k, NPU_X_BIN, pw.avg ? NPU_OP_VADD : NPU_OP_VMAX,
					     r, l, 0, 0, node);
		}
	if (pw.avg && pw.edge) {
		/* the sum over each window divided by its own count */
		int64_t dst[NPU_MAX_DIMS] = { 0, 0, m->shape[3].v, 1 };
		int dv = pool_divisors(z, node, &pw, ir->v[x].shape[2], ir->v[x].shape[3],
				       m->shape[2].v, m->shape[3].v), o, l;
		if (dv < 0 || (o = npu_kir_opnd(&ir->k[k], dv, 0, 0, dst)) < 0 ||
		    (l = xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node)) < 0 ||
		    (r = xadd(z, k, NPU_X_BIN, NPU_OP_VDIV, r, l, 0, 0, node)) < 0)
			return -1;
	} else if (pw.avg && pw.div != 1 &&
		   (r = xadd(z, k, NPU_X_BINI, NPU_OP_VDIVI, r, 0, 0, (float)pw.div, node)) < 0) {
		return -1;
	}
	if (z->prelu[node] &&
	    (r = xadd(z, k, NPU_X_BINI, NPU_OP_VMAXI, r, 0, 0, 0, node)) < 0)
		return -1;
	z->cur = k;
	if (def_val(z, k, node, r, LV_ELEM) < 0)
		return -1;
	if (pool_indices(z, node) < 0)
		return -1;
	npu_kir_decide(ir, 1, "%s: %s of %lld strided views%s", n->name,
		       pw.avg ? "average" : "max", (long long)(pw.ks[0] * pw.ks[1]),
		       pw.pd[0] || pw.pd[1] || ex[0] || ex[1] ? " of a padded copy" : " of the input");
	return 0;
}

/*
 * max_pool2d_with_indices_backward (go, self, kernel_size, stride,
 * padding, dilation, ceil_mode, indices): grad_input[h][w] sums
 * go[oh][ow] over the windows whose index is h*W+w.  A window reaches a
 * row h by one tap only, i, from output row oh = (h + p - i*d) / s; the
 * rows of one phase (h + p) mod s are reached by the taps whose i*d has
 * that phase.  So one ew kernel per phase of rows and of columns, over
 * its strided view of grad_input, sums over its taps where(indices ==
 * h*W+w, go, 0) of views of go and indices shifted by the tap (copies
 * padded with 0 and -1 where a tap reaches past the output).  Taps go
 * in descending order, so that output rows and columns ascend as in
 * ATen's loop: the sums are its, bit for bit.
 * avg_pool2d_backward (go, self, kernel_size, stride, padding,
 * ceil_mode, count_include_pad, divisor_override) whose windows overlap
 * or pad (those that tile the plane are decomposed, decomp.def) is the
 * same sum of every tap's go / divisor (ATen's grad_delta), divided
 * once into a padded copy.
 */
#define MPB_MAXT 16     /* taps of a dim */

typedef struct mpbdim {
	int64_t n, on, s, p;          /* input and output size, stride, padding */
	int64_t h0[MPB_MAXT], nr[MPB_MAXT];    /* per phase: first row, rows */
	int64_t off[MPB_MAXT][MPB_MAXT];       /* phase, k-th tap: first output row */
	int nt[MPB_MAXT];             /* per phase: its taps, descending */
	int64_t lo, hi;               /* padding the taps need before, after */
} mpbdim;

/* The phases of one dim; 1 when they are more than MPB_MAXT. */
static int mpb_dim(mpbdim *m, int64_t k, int64_t d)
{
	if (m->s > MPB_MAXT || k > MPB_MAXT)
		return 1;
	m->lo = m->hi = 0;
	for (int64_t a = 0; a < m->s; a++) {
		int64_t h = a - m->p;
		if (h < 0)
			h += (-h + m->s - 1) / m->s * m->s;
		m->h0[a] = h;
		m->nr[a] = h < m->n ? (m->n - h + m->s - 1) / m->s : 0;
		m->nt[a] = 0;
		for (int64_t i = k - 1; i >= 0 && m->nr[a]; i--) {
			int64_t o = (h + m->p - i * d) / m->s;
			if ((i * d) % m->s != a || o >= m->on || o + m->nr[a] <= 0)
				continue;       /* another phase's, or past the output */
			m->off[a][m->nt[a]++] = o;
			m->lo = -o > m->lo ? -o : m->lo;
			m->hi = o + m->nr[a] - m->on > m->hi ? o + m->nr[a] - m->on : m->hi;
		}
	}
	return 0;
}

/* Value v [N, C, OH, OW] padded by lo/hi rows and columns with f into a
 * new value of type dt (v itself without padding); its root in *pv,
 * offset *off, strides st. */
static int mpb_pad(fz *z, int node, int v, const mpbdim *m, double f, int dt,
		   const char *tag, int *pv, int64_t *off, int64_t *st)
{
	npu_kir *ir = z->ir;
	int64_t lo[2] = { m[0].lo, m[1].lo }, hi[2] = { m[0].hi, m[1].hi };
	char vn[300], in[300];

	if (!lo[0] && !hi[0] && !lo[1] && !hi[1]) {
		*pv = root_of(ir, v);
		*off = ir->v[v].off;
		memcpy(st, ir->v[v].stride, 4 * sizeof *st);
		ir->v[*pv].needed = 1;
		return 0;
	}
	snprintf(vn, sizeof vn, "%s.%s", z->g->nodes[node].name, tag);
	snprintf(in, sizeof in, "%s.%s.in", z->g->nodes[node].name, tag);
	*pv = pad_fill(z, node, v, lo, hi, f, dt, vn, in, off, st);
	return *pv < 0 ? -1 : 0;
}

/* The kernel of phase (a, b): grad_input's rows h0 + s i, columns
 * w0 + s j from the taps of the padded go and indices (pv), or of the
 * padded go / divisor alone (avg) */
static int mpb_phase(fz *z, int node, const mpbdim *m, int64_t a, int64_t b, int avg,
		     int out, const int *pv, const int64_t *poff, int64_t (*pst)[NPU_MAX_DIMS])
{
	npu_kir *ir = z->ir;
	const npu_kval *O = &ir->v[out];
	int64_t sh[4] = { O->shape[0], O->shape[1], m[0].nr[a], m[1].nr[b] };
	int64_t ost[NPU_MAX_DIMS] = { O->stride[0], O->stride[1], m[0].s * O->stride[2],
				      m[1].s * O->stride[3] };
	int64_t oo = m[0].h0[a] * O->stride[2] + m[1].h0[b] * O->stride[3];
	int32_t *pos;
	int k, r = -1, zero = -1, at = -1;
	char nm[300];

	snprintf(nm, sizeof nm, "%s.%lld.%lld", z->g->nodes[node].name, (long long)a, (long long)b);
	if (!m[0].nt[a] || !m[1].nt[b])
		return fill_kern(z, node, nm, 4, sh, -1, 0, out, oo, ost);
	if ((k = ew_kern(z, node, nm, 4, sh)) < 0)
		return -1;
	if (!avg) {
		if (!(pos = malloc((size_t)(sh[2] * sh[3]) * sizeof *pos)))
			return npu_errf(z->e, "out of memory");
		for (int64_t i = 0; i < sh[2]; i++)
			for (int64_t j = 0; j < sh[3]; j++)
				pos[i * sh[3] + j] = (int32_t)((m[0].h0[a] + i * m[0].s) * m[1].n +
							       m[1].h0[b] + j * m[1].s);
		if ((at = own_matrix(z, node, nm, NPU_DT_I32, sh[2], sh[3], pos)) < 0 ||
		    (at = plane_load(z, k, node, at)) < 0 ||
		    (zero = xadd(z, k, NPU_X_CONST, 0, 0, 0, 0, 0, node)) < 0)
			return -1;
	}
	for (int ti = 0; ti < m[0].nt[a]; ti++)
		for (int tj = 0; tj < m[1].nt[b]; tj++) {
			int l[2], eq, t;
			for (int q = 0; q < 2 - avg; q++) {
				int64_t off = poff[q] + m[0].off[a][ti] * pst[q][2] +
					      m[1].off[b][tj] * pst[q][3];
				int o = npu_kir_opnd(&ir->k[k], pv[q], 0, off, pst[q]);
				if ((l[q] = o < 0 ? -1 : xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node)) < 0)
					return npu_errf(z->e, "out of memory");
			}
			t = l[0];
			if ((!avg && ((eq = xadd(z, k, NPU_X_BIN, NPU_OP_VCMPEQ, l[1], at, 0, 0, node)) < 0 ||
				      (t = xadd(z, k, NPU_X_SEL, 0, eq, l[0], zero, 0, node)) < 0)) ||
			    (r = r < 0 ? t : xadd(z, k, NPU_X_BIN, NPU_OP_VADD, r, t, 0, 0, node)) < 0)
				return -1;
		}
	return ew_store(z, k, r, out, oo, ost, node);
}

/* go / divisor (avg_pool2d_backward), padded with 0 as mpb_pad pads:
 * one fill and one ew kernel into its interior. */
static int mpb_divided(fz *z, int node, int g, const mpbdim *m, const poolwin *pw,
		       int *pv, int64_t *off, int64_t *st)
{
	npu_kir *ir = z->ir;
	int64_t sh[NPU_MAX_DIMS];
	char nm[300];
	int k, x, dv;

	memcpy(sh, ir->v[g].shape, 4 * sizeof *sh);
	sh[2] += m[0].lo + m[0].hi;
	sh[3] += m[1].lo + m[1].hi;
	snprintf(nm, sizeof nm, "%s.divided", z->g->nodes[node].name);
	if ((*pv = npu_kir_val(ir, nm, node, NPU_DT_F32, 4, sh)) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[*pv].needed = 1;
	npu_kir_contig(4, sh, st);
	*off = m[0].lo * st[2] + m[1].lo * st[3];
	if ((sh[2] != ir->v[g].shape[2] || sh[3] != ir->v[g].shape[3]) &&
	    fill_kern(z, node, nm, 4, sh, -1, 0, *pv, 0, st) < 0)
		return -1;
	if ((k = ew_kern(z, node, nm, 4, ir->v[g].shape)) < 0 ||
	    (x = ew_load(z, k, g, node)) < 0)
		return -1;
	if (pw->edge) {
		dv = pool_divisors(z, node, pw, m[0].n, m[1].n, m[0].on, m[1].on);
		if (dv < 0 || (dv = plane_load(z, k, node, dv)) < 0 ||
		    (x = xadd(z, k, NPU_X_BIN, NPU_OP_VDIV, x, dv, 0, 0, node)) < 0)
			return -1;
	} else if ((x = xadd(z, k, NPU_X_BINI, NPU_OP_VDIVI, x, 0, 0, (float)pw->div, node)) < 0) {
		return -1;
	}
	return ew_store(z, k, x, *pv, *off, st, node);
}

/* max_pool2d_with_indices_backward, and avg_pool2d_backward of windows
 * that overlap or pad (above) */
static int do_pool_bwd(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	poolwin pw = { .pd = { 0, 0 }, .dl = { 1, 1 } };
	int avg = n->aop == NPU_AOP_AVG_POOL2D_BWD;
	const char *what = avg ? "average pooling's gradient" : "max pooling's gradient";
	mpbdim d[2];
	int g, ix = -1, out, pv[2] = { -1, -1 };
	int64_t poff[2], pst[2][NPU_MAX_DIMS];
	char why[160];

	if (!m || m->ndim != 4 || n->nargs < (avg ? 5 : 8) || arg(n, 0)->kind != NPU_GV_NODE ||
	    (!avg && arg(n, 7)->kind != NPU_GV_NODE) ||
	    (g = node_val(z, arg(n, 0)->u.node)) < 0 ||
	    (!avg && (ix = node_val(z, arg(n, 7)->u.node)) < 0) || ir->v[g].ndim != 4 ||
	    !isfloat(ir->v[g].dtype) || ir->v[g].isconst ||
	    (!avg && (ir->v[ix].ndim != 4 || ir->v[ix].isconst ||
		      memcmp(ir->v[ix].shape, ir->v[g].shape, 4 * sizeof *ir->v[g].shape))) ||
	    (avg ? avgpool_win(n, 2, &pw) : maxpool_win(n, 2, &pw))) {
		snprintf(why, sizeof why, "%s of other ranks or arguments", what);
		return host_kern(z, node, why);
	}
	for (int i = 0; i < 2; i++) {
		d[i] = (mpbdim){ .n = m->shape[2 + i].v, .on = ir->v[g].shape[2 + i],
				 .s = pw.st[i], .p = pw.pd[i] };
		if (mpb_dim(&d[i], pw.ks[i], pw.dl[i])) {
			snprintf(why, sizeof why, "%s of a window or stride past 16", what);
			return host_kern(z, node, why);
		}
		if (ir->v[g].shape[i] != m->shape[i].v) {
			snprintf(why, sizeof why, "%s whose shapes disagree", what);
			return host_kern(z, node, why);
		}
	}
	for (int64_t a = 0; a < d[0].s; a++)
		for (int64_t b = 0; b < d[1].s; b++)
			if ((2 - avg) * d[0].nt[a] * d[1].nt[b] + 2 > NPU_KERN_MAX_OPS) {
				snprintf(why, sizeof why, "%s of more taps a phase than a kernel "
					 "has operands", what);
				return host_kern(z, node, why);
			}
	if (!avg && (double)m->shape[2].v * (double)m->shape[3].v >= 16777216.0)
		return host_kern(z, node, "max pooling's gradient of a plane past 2^24 elements");
	if ((avg ? mpb_divided(z, node, g, d, &pw, &pv[0], &poff[0], pst[0]) :
	     mpb_pad(z, node, g, d, 0, ir->v[g].dtype, "go", &pv[0], &poff[0], pst[0])) < 0 ||
	    (!avg && mpb_pad(z, node, ix, d, -1, NPU_DT_I32, "indices", &pv[1], &poff[1],
			     pst[1]) < 0) ||
	    (out = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	ir->v[out].needed = 1;
	for (int64_t a = 0; a < d[0].s; a++)
		for (int64_t b = 0; b < d[1].s; b++)
			if (mpb_phase(z, node, d, a, b, avg, out, pv, poff, pst) < 0)
				return -1;
	ir->nodeval[node] = out;
	npu_kir_decide(ir, 1, "%s: %s as %lld kernels, one a phase of the stride, each "
		       "summing its taps%s", n->name, what, (long long)(d[0].s * d[1].s),
		       avg ? "' go / divisor" : "' go where the indices point at its elements");
	return 0;
}

/* A 3-d pooling argument: an int, or a list of 1 or 3 (dflt: absent or
 * an empty list, stride's default); -1 when neither. */
static int triple(const npu_gval *v, int64_t *out, const int64_t *dflt)
{
	double d;

	if (!v || v->kind == NPU_GV_NONE ||
	    (v->kind == NPU_GV_LIST && v->u.list.n == 0 && dflt)) {
		if (!dflt)
			return -1;
		memcpy(out, dflt, 3 * sizeof *out);
		return 0;
	}
	if (!gnum(v, &d)) {
		out[0] = out[1] = out[2] = (int64_t)d;
		return 0;
	}
	if (v->kind != NPU_GV_LIST || (v->u.list.n != 1 && v->u.list.n != 3))
		return -1;
	for (int i = 0; i < 3; i++)
		if (gnum(&v->u.list.v[v->u.list.n == 1 ? 0 : i], &d))
			return -1;
		else
			out[i] = (int64_t)d;
	return 0;
}

/*
 * max_pool3d (values only) and avg_pool3d (count_include_pad, or a
 * divisor_override) over [N, C, D, H, W]: a copy padded with -inf (0)
 * by the padding and the windows ceil_mode adds past the end (none
 * without them: the input read in place), then one
 * ew kernel of the KD*KH*KW strided views of it, max- or sum-combined (a
 * max NaN-propagating as PyTorch's).  Dilation 1.
 */
/*
 * The windows of do_pool3d: ks[0] x ks[1] x ks[2] strided views of pv
 * (from poff, strides ist) sum- or max-combined, POOL3D_MAX_TAPS a
 * kernel (S3D's 2 x 7 x 7 average: two), a kernel's result handed to the
 * next through an fp32 partial.  Returns the last kernel, its result in
 * *r; -1 on error.
 */
#define POOL3D_MAX_TAPS 56
static int pool3d_taps(fz *z, int node, const npu_gmeta *m, int pv, int64_t poff,
		       const int64_t *pst, const int64_t *ist, const int64_t *ks,
		       int avg, int *r)
{
	npu_kir *ir = z->ir;
	int64_t ntaps = ks[0] * ks[1] * ks[2], osh[5];
	int k = -1, part = -1, op = avg ? NPU_OP_VADD : NPU_OP_VMAX;
	char nm[300];

	for (int d = 0; d < 5; d++)
		osh[d] = m->shape[d].v;
	for (int64_t t0 = 0; t0 < ntaps; t0 += POOL3D_MAX_TAPS) {
		int64_t t1 = t0 + POOL3D_MAX_TAPS < ntaps ? t0 + POOL3D_MAX_TAPS : ntaps;
		if (t0)
			snprintf(nm, sizeof nm, "%s.%lld", z->g->nodes[node].name, (long long)t0);
		else
			snprintf(nm, sizeof nm, "%s", z->g->nodes[node].name);
		if ((k = ew_kern(z, node, nm, 5, osh)) < 0)
			return -1;
		*r = -1;
		for (int64_t t = t0; t < t1; t++) {
			int64_t a = t / (ks[1] * ks[2]), b = t / ks[2] % ks[1], c = t % ks[2];
			int o = npu_kir_opnd(&ir->k[k], pv, 0, poff +
					     a * pst[2] + b * pst[3] + c * pst[4], ist);
			int l = xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, node);
			if (o < 0 || l < 0)
				return npu_errf(z->e, "out of memory");
			*r = *r < 0 ? l : xadd(z, k, NPU_X_BIN, op, *r, l, 0, 0, node);
		}
		if (*r >= 0 && part >= 0)
			*r = tap_part(z, k, node, *r, &part, 0, op);
		if (*r < 0)
			return -1;
		if (t1 < ntaps && tap_part(z, k, node, *r, &part, 1, 0) < 0)
			return -1;
	}
	return k;
}

static int do_pool3d(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int avg = n->aop == NPU_AOP_AVG_POOL3D, x, pv, k, r = -1;
	int64_t ks[3], st[3], pd[3], one[3] = { 1, 1, 1 }, dl[3], ex[3], div;
	int64_t psh[NPU_MAX_DIMS], pst[NPU_MAX_DIMS] = { 0 }, ist[NPU_MAX_DIMS] = { 0 };
	int64_t poff = 0;
	double dv = 0, incl = 1;
	char nm[300];

	if (!m || m->ndim != 5 || n->args[0].kind != NPU_GV_NODE ||
	    (x = node_val(z, n->args[0].u.node)) < 0 || ir->v[x].ndim != 5 ||
	    !isfloat(ir->v[x].dtype) || ir->v[x].isconst ||
	    triple(arg(n, 1), ks, NULL) || triple(arg(n, 2), st, ks) ||
	    triple(arg(n, 3), pd, (int64_t[3]){ 0, 0, 0 }) ||
	    (!avg && triple(arg(n, 4), dl, one)) ||
	    (!avg && (dl[0] != 1 || dl[1] != 1 || dl[2] != 1)))
		return host_kern(z, node, "3-d pooling of this form (dilated, other ranks or types)");
	if (avg && ((n->nargs > 5 && !gnum(arg(n, 5), &incl) && !incl) ||
		    (npu_gnode_kwarg(n, "count_include_pad") &&
		     !gnum(npu_gnode_kwarg(n, "count_include_pad"), &incl) && !incl)))
		return host_kern(z, node, "avg_pool3d without the padding in its count");
	if (avg && ((n->nargs > 6 && !gnum(arg(n, 6), &dv)) ||
		    (npu_gnode_kwarg(n, "divisor_override") &&
		     !gnum(npu_gnode_kwarg(n, "divisor_override"), &dv))) && dv <= 0)
		return host_kern(z, node, "avg_pool3d of this divisor");
	if (!avg && pool_index_used(z, node))
		return host_kern(z, node, "max_pool3d whose indices are used");
	memcpy(psh, ir->v[x].shape, sizeof psh);
	for (int i = 0; i < 3; i++) {
		ex[i] = (m->shape[2 + i].v - 1) * st[i] + ks[i] - (psh[2 + i] + 2 * pd[i]);
		ex[i] = ex[i] < 0 ? 0 : ex[i];
		if (avg && ex[i])  /* ceil_mode's windows count less */
			return host_kern(z, node, "avg_pool3d whose ceil_mode windows pass the end");
		psh[2 + i] += 2 * pd[i] + ex[i];
	}
	if (memcmp(psh, ir->v[x].shape, 5 * sizeof *psh)) {
		snprintf(nm, sizeof nm, "%s.pad", n->name);
		if ((pv = npu_kir_val(ir, nm, node, ir->v[x].dtype, 5, psh)) < 0)
			return npu_errf(z->e, "out of memory");
		ir->v[pv].needed = 1;
		npu_kir_contig(5, psh, pst);
		if (fill_kern(z, node, nm, 5, psh, -1, avg ? 0 : -INFINITY, pv, 0, pst) < 0)
			return -1;
		snprintf(nm, sizeof nm, "%s.in", n->name);
		if (fill_kern(z, node, nm, 5, ir->v[x].shape, x, 0, pv,
			      pd[0] * pst[2] + pd[1] * pst[3] + pd[2] * pst[4], pst) < 0)
			return -1;
	} else {
		/* no padding: the windows are views of the input itself */
		pv = root_of(ir, x);
		ir->v[pv].needed = 1;
		memcpy(pst, ir->v[x].stride, 5 * sizeof *pst);
		poff = ir->v[x].off;
	}
	ist[0] = pst[0];
	ist[1] = pst[1];
	for (int i = 0; i < 3; i++)
		ist[2 + i] = st[i] * pst[2 + i];
	if ((k = pool3d_taps(z, node, m, pv, poff, pst, ist, ks, avg, &r)) < 0)
		return -1;
	div = dv > 0 ? (int64_t)dv : ks[0] * ks[1] * ks[2];
	if (avg && div != 1 &&
	    (r = xadd(z, k, NPU_X_BINI, NPU_OP_VDIVI, r, 0, 0, (float)div, node)) < 0)
		return -1;
	z->cur = k;
	if (def_val(z, k, node, r, LV_ELEM) < 0 || pool_indices(z, node) < 0)
		return -1;
	npu_kir_decide(ir, 1, "%s: 3-d %s pool of %lld strided views of a padded copy", n->name,
		       avg ? "average" : "max", (long long)(ks[0] * ks[1] * ks[2]));
	return 0;
}

/* Bytes of constant data a fill of a type the lanes do not hold may
 * take (a mask or index table; a larger one is a host call). */
#define TYPED_FILL_MAX (1 << 20)

/*
 * A fill of an integer, float64 or float8 type (zeros_like(x,
 * dtype=torch.int64), a position table's start): constant data made at
 * compile time, read by its users as a frozen weight is.  1 when it is
 * too large, or not a value of its integer type.
 */
static int typed_fill(fz *z, int node, int v, double f)
{
	npu_kir *ir = z->ir;
	const npu_kval *V = &ir->v[v];
	int esz = npu_dtype_size(V->dtype);
	int64_t n = 1;
	uint8_t *dst;

	for (int d = 0; d < V->ndim; d++)
		n += (V->shape[d] - 1) * V->stride[d];
	if (npu_kir_numel(V->ndim, V->shape) == 0)
		n = 0;
	if (n * esz > TYPED_FILL_MAX || (isintdt(V->dtype) && f != floor(f)))
		return 1;
	if (!(dst = calloc((size_t)(n * esz) + 1, 1)))
		return npu_errf(z->e, "out of memory");
	for (int64_t i = 0; i < n; i++)
		npu_store_f64(V->dtype, dst, (size_t)i, f);
	own_const(ir, v, dst);
	ir->nodeval[node] = v;
	npu_kir_decide(ir, 1, "%s: a fill of %s made at compile time", z->g->nodes[node].name,
		       npu_dtype_name(V->dtype));
	return 0;
}

static int do_const(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	double f = 0;
	int v;

	switch (n->aop) {
	case NPU_AOP_FULL: if (gnum(arg(n, 1), &f)) return 1; break;
	case NPU_AOP_FULL_LIKE: if (gnum(arg(n, 1), &f)) return 1; break;
	case NPU_AOP_NEW_FULL: if (gnum(arg(n, 2), &f)) return 1; break;
	case NPU_AOP_SCALAR_TENSOR: if (gnum(arg(n, 0), &f)) return 1; break;
	case NPU_AOP_ONES: case NPU_AOP_ONES_LIKE: case NPU_AOP_NEW_ONES: f = 1; break;
	default: f = 0; break;
	}
	if ((v = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	if (!vecok(ir->v[v].dtype))
		return typed_fill(z, node, v, f);
	ir->v[v].isconst = 1;
	ir->v[v].fill = f;
	ir->nodeval[node] = v;
	return 0;
}

static int do_placeholder(fz *z, int node)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	char key[512];
	int v, dt, nd;
	int64_t sh[NPU_MAX_DIMS];
	const void *data = NULL;

	if (n->phkind == NPU_PH_SYMINT || !m)
		return npu_errf(z->e, "%s: node '%s': symbolic or non-tensor placeholders are not supported (dynamic shapes)",
				z->g->file, n->name);
	if (n->op == NPU_GOP_GET_ATTR)
		snprintf(key, sizeof key, "attr.%s", n->target);
	else
		snprintf(key, sizeof key, "%s", n->name);
	if ((v = meta_val(z, node, 0, n->name)) < 0)
		return -1;
	if (z->env && z->env->frozen)
		data = z->env->frozen(z->env->ctx, key, &dt, &nd, sh);
	if (data) {
		if (dt != ir->v[v].dtype || nd != ir->v[v].ndim ||
		    memcmp(sh, ir->v[v].shape, (size_t)nd * sizeof *sh)) {
			char a[128], b[128];
			return npu_errf(z->e, "%s: node '%s': weights hold %s%s, the graph says %s%s",
					z->g->file, n->name, npu_dtype_name(dt),
					npu_shape_str(a, sizeof a, nd, sh, ","),
					npu_dtype_name(ir->v[v].dtype),
					npu_shape_str(b, sizeof b, ir->v[v].ndim, ir->v[v].shape, ","));
		}
		ir->v[v].kind = NPU_BUF_CONST;
		ir->v[v].cdata = data;
	} else if (n->op == NPU_GOP_GET_ATTR) {
		return npu_errf(z->e, "%s: node '%s': get_attr tensor '%s' is not in the weights",
				z->g->file, n->name, n->target);
	} else {
		ir->v[v].kind = NPU_BUF_INPUT;
	}
	ir->nodeval[node] = v;
	return 0;
}

/* ----------------------------------------------------------------- */
/* Integer ranges */

/*
 * Bounds of the values of integer and bool tensors, so that integer
 * arithmetic whose operands and result all stay within 2^24 runs on the
 * vector unit's fp32 lanes, where every such value and every sum,
 * difference and product of them is exact (RoBERTa's position ids: the
 * cumsum of a padding mask, times the mask, plus the padding index).
 * Known: bool, constants (their data), fills and aranges, what exact
 * ops make of known operands, and a gather's table.  A run-time integer
 * input is unbounded: it reaches the lanes only through comparisons
 * (small_int_compare) and DMA.
 */
#define RNG_EXACT 16777216.0

static int isintdt(int dt)
{
	return dt == NPU_DT_I64 || npu_kir_isint(dt) || dt == NPU_DT_BOOL;
}

/* Range of argument i of n: its node's, or the scalar's own value. */
static irng arg_rng(fz *z, const npu_gnode *n, int i)
{
	const npu_gval *a = arg(n, i);
	irng r = { -INFINITY, INFINITY };
	double c;

	if (a && a->kind == NPU_GV_NODE)
		return node_rng(z, a->u.node);
	if (!gnum(a, &c))
		r.lo = r.hi = c;
	return r;
}

/* [lo, hi] of a constant integer value's data (NaN-free by type). */
static irng const_rng(const npu_kval *V)
{
	irng r = { INFINITY, -INFINITY };
	int64_t n = npu_kir_numel(V->ndim, V->shape);

	if (V->root >= 0 || V->kind != NPU_BUF_CONST || !V->cdata || n > (1 << 22)) {
		r.lo = -INFINITY;
		r.hi = INFINITY;
		return r;
	}
	for (int64_t i = 0; i < n; i++) {
		double d = npu_load_f64(V->dtype, V->cdata, (size_t)i);
		r.lo = d < r.lo ? d : r.lo;
		r.hi = d > r.hi ? d : r.hi;
	}
	if (n == 0)
		r.lo = r.hi = 0;
	return r;
}

static irng rng_mul(irng a, irng b)
{
	double p[4] = { a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi };
	irng r = { INFINITY, -INFINITY };

	for (int i = 0; i < 4; i++) {
		double v = isnan(p[i]) ? 0 : p[i];	/* 0 * inf: 0 */
		r.lo = v < r.lo ? v : r.lo;
		r.hi = v > r.hi ? v : r.hi;
	}
	return r;
}

/* Elements a result element of a reduction or scan sums: the input's
 * dim `dim` for cumsum; numel(in) / numel(out) for sum. */
static double sum_count(const npu_gnode *in, const npu_gnode *n, int scan)
{
	double a = 1, b = 1;

	if (!tmeta(in, 0) || !tmeta(n, 0))
		return INFINITY;
	if (scan) {
		double dd;
		int64_t d;
		if (gnum(arg(n, 1), &dd))
			return INFINITY;
		d = wrapdim((int64_t)dd, tmeta(in, 0)->ndim);
		return d < 0 || d >= tmeta(in, 0)->ndim ? INFINITY :
		       (double)tmeta(in, 0)->shape[d].v;
	}
	for (int d = 0; d < tmeta(in, 0)->ndim; d++)
		a *= (double)tmeta(in, 0)->shape[d].v;
	for (int d = 0; d < tmeta(n, 0)->ndim; d++)
		b *= (double)tmeta(n, 0)->shape[d].v;
	return b > 0 ? a / b : 0;
}

/* A float node whose values are integers: a cast of integers or bool,
 * and its sums (rng_compute bounds them below 2^24, where fp32 sums are
 * exact).  MoE routers count their tokens per expert so, then cumsum the
 * counts to int32 row offsets. */
static int float_of_ints(fz *z, const npu_gnode *n)
{
	const npu_gval *a = arg(n, 0);
	const npu_gmeta *am = a && a->kind == NPU_GV_NODE ?
			      tmeta(&z->g->nodes[a->u.node], 0) : NULL;

	if (!am || n->op != NPU_GOP_CALL_FUNCTION || !isfloat(tmeta(n, 0)->dtype) ||
	    tmeta(n, 0)->dtype == NPU_DT_F64)
		return 0;
	return n->aop == NPU_AOP_TO_COPY ? isintdt(am->dtype) :
	       n->aop == NPU_AOP_SUM || n->aop == NPU_AOP_SUM_DIM || n->aop == NPU_AOP_CUMSUM;
}

/* Elements of node argument a, or infinity. */
static double numel_of(const npu_gval *a, fz *z)
{
	const npu_gmeta *m = a && a->kind == NPU_GV_NODE ? tmeta(&z->g->nodes[a->u.node], 0) : NULL;
	double e = 1;

	if (!m)
		return INFINITY;
	for (int d = 0; d < m->ndim; d++)
		e *= m->shape[d].sym ? INFINITY : (double)m->shape[d].v;
	return e;
}

/* getitem of an order statistic (topk, sort, max.dim, kthvalue, ...):
 * item 0 holds elements of its input, item 1 their positions along a
 * dim, below the input's element count.  MoE routers sort the top-k
 * expert ids and divide the positions by k. */
static irng item_rng(fz *z, const npu_gnode *n)
{
	const npu_gval *src = arg(n, 0);
	const npu_gnode *s;
	double i;

	if (!src || src->kind != NPU_GV_NODE || gnum(arg(n, 1), &i))
		return (irng){ -INFINITY, INFINITY };
	s = &z->g->nodes[src->u.node];
	switch (s->aop) {
	case NPU_AOP_TOPK: case NPU_AOP_SORT: case NPU_AOP_MAX_DIM: case NPU_AOP_MIN_DIM:
	case NPU_AOP_KTHVALUE: case NPU_AOP_MEDIAN_DIM: case NPU_AOP_CUMMAX: case NPU_AOP_CUMMIN:
		if (i == 0)
			return arg_rng(z, s, 0);
		if (i == 1)
			return (irng){ 0, fmax(0, numel_of(arg(s, 0), z) - 1) };
		break;
	default:
		break;
	}
	return (irng){ -INFINITY, INFINITY };
}

static irng rng_compute(fz *z, int node)
{
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	irng u = { -INFINITY, INFINITY }, a, b, r;
	double c = 1;
	int v;

	if (!m || n->multi || (!isintdt(m->dtype) && !float_of_ints(z, n)))
		return u;
	if (m->dtype == NPU_DT_BOOL)
		return (irng){ 0, 1 };
	if (n->op == NPU_GOP_PLACEHOLDER || n->op == NPU_GOP_GET_ATTR)
		return (v = node_val(z, node)) >= 0 ? const_rng(&z->ir->v[v]) : u;
	if (n->op != NPU_GOP_CALL_FUNCTION)
		return u;
	switch (n->aop) {
	case NPU_AOP_TO_COPY: case NPU_AOP_CLONE: case NPU_AOP_ALIAS:
	case NPU_AOP_DETACH: case NPU_AOP_LIFT_FRESH_COPY: case NPU_AOP_VIEW:
	case NPU_AOP_UNSAFE_VIEW: case NPU_AOP_RESHAPE: case NPU_AOP_SQUEEZE:
	case NPU_AOP_SQUEEZE_DIM: case NPU_AOP_SQUEEZE_DIMS: case NPU_AOP_UNSQUEEZE:
	case NPU_AOP_PERMUTE: case NPU_AOP_TRANSPOSE: case NPU_AOP_T:
	case NPU_AOP_EXPAND: case NPU_AOP_SELECT: case NPU_AOP_SLICE:
	case NPU_AOP_REPEAT: case NPU_AOP_FLIP:
	case NPU_AOP_EMBEDDING: case NPU_AOP_GATHER: case NPU_AOP_INDEX:
	case NPU_AOP_INDEX_SELECT: case NPU_AOP_AMAX: case NPU_AOP_AMIN:
		/* the values of argument 0 (the table of a gather) */
		return arg_rng(z, n, 0);
	case NPU_AOP_ADD_TENSOR: case NPU_AOP_ADD_SCALAR:
	case NPU_AOP_SUB_TENSOR: case NPU_AOP_SUB_SCALAR:
		if (npu_gnode_kwarg(n, "alpha") && gnum(npu_gnode_kwarg(n, "alpha"), &c))
			return u;
		a = arg_rng(z, n, 0);
		b = rng_mul(arg_rng(z, n, 1), (irng){ c, c });
		if (n->aop == NPU_AOP_SUB_TENSOR || n->aop == NPU_AOP_SUB_SCALAR)
			b = (irng){ -b.hi, -b.lo };
		return (irng){ a.lo + b.lo, a.hi + b.hi };
	case NPU_AOP_RSUB_SCALAR:       /* c - x */
		if ((npu_gnode_kwarg(n, "alpha") && gnum(npu_gnode_kwarg(n, "alpha"), &c)) ||
		    c != 1 || gnum(arg(n, 1), &c))
			return u;
		a = arg_rng(z, n, 0);
		return (irng){ c - a.hi, c - a.lo };
	case NPU_AOP_MUL_TENSOR: case NPU_AOP_MUL_SCALAR:
		return rng_mul(arg_rng(z, n, 0), arg_rng(z, n, 1));
	case NPU_AOP_NEG:
		a = arg_rng(z, n, 0);
		return (irng){ -a.hi, -a.lo };
	case NPU_AOP_ABS:
		a = arg_rng(z, n, 0);
		r.hi = fmax(fabs(a.lo), fabs(a.hi));
		r.lo = a.lo <= 0 && a.hi >= 0 ? 0 : fmin(fabs(a.lo), fabs(a.hi));
		return r;
	case NPU_AOP_MAXIMUM: case NPU_AOP_MINIMUM: case NPU_AOP_WHERE:
		a = arg_rng(z, n, n->aop == NPU_AOP_WHERE);
		b = arg_rng(z, n, 1 + (n->aop == NPU_AOP_WHERE));
		if (n->aop == NPU_AOP_MAXIMUM)
			return (irng){ fmax(a.lo, b.lo), fmax(a.hi, b.hi) };
		if (n->aop == NPU_AOP_MINIMUM)
			return (irng){ fmin(a.lo, b.lo), fmin(a.hi, b.hi) };
		return (irng){ fmin(a.lo, b.lo), fmax(a.hi, b.hi) };
	case NPU_AOP_CLAMP: case NPU_AOP_CLAMP_MIN: case NPU_AOP_CLAMP_MAX:
		r = arg_rng(z, n, 0);
		if (n->aop != NPU_AOP_CLAMP_MAX && !gnum(arg(n, 1), &c))
			r = (irng){ fmax(r.lo, c), fmax(r.hi, c) };
		if (!gnum(arg(n, n->aop == NPU_AOP_CLAMP ? 2 : 1), &c) &&
		    n->aop != NPU_AOP_CLAMP_MIN)
			r = (irng){ fmin(r.lo, c), fmin(r.hi, c) };
		return r;
	case NPU_AOP_FULL: case NPU_AOP_FULL_LIKE:
		return arg_rng(z, n, 1);
	case NPU_AOP_NEW_FULL:
		return arg_rng(z, n, 2);
	case NPU_AOP_ZEROS: case NPU_AOP_ZEROS_LIKE: case NPU_AOP_NEW_ZEROS:
		return (irng){ 0, 0 };
	case NPU_AOP_ONES: case NPU_AOP_ONES_LIKE: case NPU_AOP_NEW_ONES:
		return (irng){ 1, 1 };
	case NPU_AOP_CAT:
		/* the union of the inputs' */
		if (!arg(n, 0) || arg(n, 0)->kind != NPU_GV_LIST)
			return u;
		r = (irng){ INFINITY, -INFINITY };
		for (int i = 0; i < arg(n, 0)->u.list.n; i++) {
			const npu_gval *e = &arg(n, 0)->u.list.v[i];
			if (e->kind != NPU_GV_NODE)
				return u;
			a = node_rng(z, e->u.node);
			r = (irng){ fmin(r.lo, a.lo), fmax(r.hi, a.hi) };
		}
		return r;
	case NPU_AOP_GETITEM:
		return item_rng(z, n);
	case NPU_AOP_DIV_MODE: case NPU_AOP_DIV_SMODE:
		/* a quotient of integers, b's sign fixed: between the corners' */
		a = arg_rng(z, n, 0);
		b = arg_rng(z, n, 1);
		if (!(b.lo > 0 || b.hi < 0) || !isfinite(a.lo) || !isfinite(a.hi))
			return u;
		r.lo = fmin(fmin(a.lo / b.lo, a.lo / b.hi), fmin(a.hi / b.lo, a.hi / b.hi));
		r.hi = fmax(fmax(a.lo / b.lo, a.lo / b.hi), fmax(a.hi / b.lo, a.hi / b.hi));
		return (irng){ floor(r.lo), ceil(r.hi) };
	case NPU_AOP_ARGMAX: case NPU_AOP_ARGMIN:
		/* a flat index at most (dim none) */
		return (irng){ 0, fmax(0, numel_of(arg(n, 0), z) - 1) };
	case NPU_AOP_CUMSUM: case NPU_AOP_SUM: case NPU_AOP_SUM_DIM:
		if (!arg(n, 0) || arg(n, 0)->kind != NPU_GV_NODE)
			return u;
		c = sum_count(&z->g->nodes[arg(n, 0)->u.node], n, n->aop == NPU_AOP_CUMSUM);
		a = arg_rng(z, n, 0);
		if (c == 0)
			return (irng){ 0, 0 };
		/* partial sums of 1..c elements each in [lo, hi]; a float sum
		 * is of integers only while exact */
		r = (irng){ fmin(a.lo, c * a.lo), fmax(a.hi, c * a.hi) };
		return isintdt(m->dtype) || (r.lo > -16777216.0 && r.hi < 16777216.0) ? r : u;
	default:
		return u;
	}
}

/* A view whose elements are all of its input's (arg 0), each at least
 * once: its values' bounds are the input's. */
static int whole_view(int aop)
{
	switch (aop) {
	case NPU_AOP_VIEW: case NPU_AOP_UNSAFE_VIEW: case NPU_AOP_RESHAPE:
	case NPU_AOP_UNSQUEEZE: case NPU_AOP_SQUEEZE: case NPU_AOP_SQUEEZE_DIM:
	case NPU_AOP_SQUEEZE_DIMS: case NPU_AOP_PERMUTE: case NPU_AOP_CLONE:
	case NPU_AOP_ALIAS:
		return 1;
	default:
		return 0;
	}
}

/* Node n as x + c (1) or c - x (-1) of its first operand x and an
 * integer c (add or sub by a number, rsub), else 0. */
static int shift_of(const npu_gnode *n, double *c)
{
	const npu_gval *kw = npu_gnode_kwarg(n, "alpha");
	double a = 1;

	switch (n->aop) {
	case NPU_AOP_ADD_TENSOR: case NPU_AOP_ADD_SCALAR: case NPU_AOP_SUB_TENSOR:
	case NPU_AOP_SUB_SCALAR: case NPU_AOP_RSUB_SCALAR:
		break;
	default:
		return 0;
	}
	if (gnum(arg(n, 1), c) || (kw && gnum(kw, &a)) || *c * a != floor(*c * a))
		return 0;
	/* (rsub's alpha scales x: c - a x) */
	if (n->aop == NPU_AOP_RSUB_SCALAR)
		return a == 1 ? -1 : 0;
	*c *= a;
	if (n->aop == NPU_AOP_SUB_TENSOR || n->aop == NPU_AOP_SUB_SCALAR)
		*c = -*c;
	return 1;
}

/*
 * What node's values are limited to by its uses as indices: an embedding
 * or index_select index (arg 1 or 2) in [0, rows - 1], a gather index in
 * [0, size - 1] along its dim; PyTorch raises on anything else, so on
 * every input it computes the graph for the values lie there (LayoutLM's
 * box widths: the difference of two coordinates, each itself an index).
 * Through views that keep every element (nll_loss's gather reads its
 * targets unsqueezed) and shifts by a constant (OPT's position ids plus
 * its offset of 2, an embedding index: the ids lie 2 lower), a few deep.
 */
static irng use_rng_at(fz *z, int node, int depth)
{
	irng r = { -INFINITY, INFINITY };

	for (int u = node + 1; u < z->g->nnodes; u++) {
		const npu_gnode *n = &z->g->nodes[u];
		int ia = n->aop == NPU_AOP_EMBEDDING ? 1 :
			 n->aop == NPU_AOP_INDEX_SELECT || n->aop == NPU_AOP_GATHER ? 2 : -1;
		const npu_gval *x = arg(n, ia < 0 ? 0 : ia), *t = arg(n, 0);
		const npu_gmeta *tm;
		double dd = 0, c = 0;
		int64_t d;
		int sh = 0;
		if (depth < 4 && n->op == NPU_GOP_CALL_FUNCTION && x && x->kind == NPU_GV_NODE &&
		    x->u.node == node && (whole_view(n->aop) || (sh = shift_of(n, &c)) != 0)) {
			irng v = use_rng_at(z, u, depth + 1);
			if (sh)
				v = sh > 0 ? (irng){ v.lo - c, v.hi - c } : (irng){ c - v.hi, c - v.lo };
			r = (irng){ fmax(r.lo, v.lo), fmin(r.hi, v.hi) };
			continue;
		}
		if (n->op != NPU_GOP_CALL_FUNCTION || ia < 0 || !x ||
		    x->kind != NPU_GV_NODE || x->u.node != node || !t ||
		    t->kind != NPU_GV_NODE || !(tm = tmeta(&z->g->nodes[t->u.node], 0)) ||
		    (n->aop != NPU_AOP_EMBEDDING && gnum(arg(n, 1), &dd)))
			continue;
		d = n->aop == NPU_AOP_EMBEDDING ? 0 : wrapdim((int64_t)dd, tm->ndim);
		if (d < 0 || d >= tm->ndim || tm->shape[d].sym)
			continue;
		r.lo = fmax(r.lo, 0);
		r.hi = fmin(r.hi, (double)tm->shape[d].v - 1);
	}
	return r;
}

/*
 * Whether every use of node (through whole views of it) converts its
 * integers to a float type first, as PyTorch's type promotion does: a
 * comparison with a float tensor, an add, sub, mul or div with a float
 * result, a cast to a float type (the cross-entropy's backward compares
 * its targets, the ignored index replaced by 0, with a float iota).  A
 * graph output or any other use is not.
 */
static int float_uses(fz *z, int node, int depth)
{
	for (int u = node + 1; u < z->g->nnodes; u++) {
		const npu_gnode *n = &z->g->nodes[u];
		const npu_gmeta *m = tmeta(n, 0), *om;
		const npu_gval *o;
		if (!npu_gnode_reads(n, node))
			continue;
		if (n->op != NPU_GOP_CALL_FUNCTION || !m || n->nargs < 1)
			return 0;
		if (whole_view(n->aop)) {
			if (depth >= 4 || !float_uses(z, u, depth + 1))
				return 0;
			continue;
		}
		switch (n->aop) {
		case NPU_AOP_EQ_TENSOR: case NPU_AOP_NE_TENSOR: case NPU_AOP_LT_TENSOR:
		case NPU_AOP_LE_TENSOR: case NPU_AOP_GT_TENSOR: case NPU_AOP_GE_TENSOR:
			o = n->nargs > 1 ? &n->args[n->args[0].kind == NPU_GV_NODE &&
						    n->args[0].u.node == node] : NULL;
			om = o && o->kind == NPU_GV_NODE ? tmeta(&z->g->nodes[o->u.node], 0) : NULL;
			if (!om || !isfloat(om->dtype))
				return 0;
			break;
		case NPU_AOP_ADD_TENSOR: case NPU_AOP_SUB_TENSOR: case NPU_AOP_MUL_TENSOR:
		case NPU_AOP_DIV_TENSOR: case NPU_AOP_TO_COPY:
			if (!isfloat(m->dtype))
				return 0;
			break;
		default:
			return 0;
		}
	}
	return 1;
}

static irng use_rng(fz *z, int node)
{
	return use_rng_at(z, node, 0);
}

static irng node_rng(fz *z, int node)
{
	if (!z->rng)
		return (irng){ -INFINITY, INFINITY };
	if (z->rng[node].lo > z->rng[node].hi) {
		irng r = rng_compute(z, node), b = use_rng(z, node);
		/* (an empty intersection: the graph always raises) */
		if (fmax(r.lo, b.lo) <= fmin(r.hi, b.hi))
			r = (irng){ fmax(r.lo, b.lo), fmin(r.hi, b.hi) };
		z->rng[node] = r;
	}
	return z->rng[node];
}

static int rng_small(irng r)
{
	return r.lo >= -RNG_EXACT && r.hi <= RNG_EXACT;
}

/*
 * Whether floor(fp32(a) / fp32(b)) is a's and b's integer floor division:
 * with a = b q + r (0 < |r| < |b|), the true quotient lies |r / b| >= 1 /
 * |b| from the integer, more than half the spacing of fp32 near q while
 * |b q| < 2^24, so rounding never reaches it; exact quotients are exact.
 * So |a| + |b| < 2^24, and b never 0 (PyTorch raises on that).
 */
static int divmode_exact(fz *z, const npu_gnode *n)
{
	irng a = arg_rng(z, n, 0), b = arg_rng(z, n, 1);
	double am = fmax(fabs(a.lo), fabs(a.hi)), bm = fmax(fabs(b.lo), fabs(b.hi));

	return am + bm < RNG_EXACT && (b.lo > 0 || b.hi < 0);
}

/*
 * Node n on integer operands or with an integer result, computed in fp32
 * lanes: an op exact on integers (add, sub, mul, neg, abs, max, min,
 * clamp, where, casts, comparisons, logic, cumsum, sum, amax; true
 * division to a float) whose integer
 * operands and result are known within 2^24 (and a cast that narrows
 * only when the range fits the narrower type).
 */
static int int_lanes(fz *z, int node)
{
	const npu_gnode *n = &z->g->nodes[node];
	const npu_gmeta *m = tmeta(n, 0);
	int tn[16], nt = tensor_args(n, tn, 16), ints = 0, fcomp = 0;

	if (!m || n->multi)
		return 0;
	switch (n->aop) {
	case NPU_AOP_ADD_TENSOR: case NPU_AOP_ADD_SCALAR: case NPU_AOP_SUB_TENSOR:
	case NPU_AOP_SUB_SCALAR: case NPU_AOP_RSUB_SCALAR: case NPU_AOP_MUL_TENSOR:
	case NPU_AOP_MUL_SCALAR:
	case NPU_AOP_NEG: case NPU_AOP_ABS: case NPU_AOP_MAXIMUM: case NPU_AOP_MINIMUM:
	case NPU_AOP_CLAMP: case NPU_AOP_CLAMP_MIN: case NPU_AOP_CLAMP_MAX:
	case NPU_AOP_WHERE: case NPU_AOP_TO_COPY: case NPU_AOP_CLONE:
	case NPU_AOP_EQ_TENSOR: case NPU_AOP_EQ_SCALAR: case NPU_AOP_NE_TENSOR:
	case NPU_AOP_NE_SCALAR: case NPU_AOP_LT_TENSOR: case NPU_AOP_LT_SCALAR:
	case NPU_AOP_LE_TENSOR: case NPU_AOP_LE_SCALAR: case NPU_AOP_GT_TENSOR:
	case NPU_AOP_GT_SCALAR: case NPU_AOP_GE_TENSOR: case NPU_AOP_GE_SCALAR:
	case NPU_AOP_LOGICAL_AND: case NPU_AOP_LOGICAL_OR: case NPU_AOP_LOGICAL_NOT:
	case NPU_AOP_LOGICAL_XOR: case NPU_AOP_CUMSUM: case NPU_AOP_SUM:
	case NPU_AOP_SUM_DIM: case NPU_AOP_AMAX:
		break;
	case NPU_AOP_DIV_TENSOR: case NPU_AOP_DIV_SCALAR:
		/* true division: exact integers made float, as PyTorch does */
		if (!isfloat(m->dtype))
			return 0;
		break;
	case NPU_AOP_DIV_MODE: case NPU_AOP_DIV_SMODE:
		/* integer division rounded: the fp32 quotient's floor */
		if (!isintdt(m->dtype) || m->dtype == NPU_DT_BOOL || !divmode_of(n) ||
		    !divmode_exact(z, n))
			return 0;
		break;
	default:
		return 0;
	}
	if (m->dtype == NPU_DT_F64)
		return 0;
	/* computed in a float type (a float result, or a comparison with a
	 * float operand): PyTorch converts the integers to it first, as the
	 * load does, so their range does not matter */
	for (int j = 0; j < nt; j++) {
		const npu_gmeta *am = tmeta(&z->g->nodes[tn[j]], 0);
		fcomp |= am && isfloat(am->dtype);
	}
	fcomp = isfloat(m->dtype) || (fcomp && m->dtype == NPU_DT_BOOL);
	for (int j = 0; j < nt; j++) {
		const npu_gmeta *am = tmeta(&z->g->nodes[tn[j]], 0);
		/* a selection's values need only be exact where chosen,
		 * which the result's range (checked below) covers: fp32
		 * rounding is monotonic, so a far value stays on its side */
		int chosen = isintdt(m->dtype) && m->dtype != NPU_DT_BOOL &&
			     (n->aop == NPU_AOP_WHERE ? j > 0 :
			      n->aop == NPU_AOP_CLAMP || n->aop == NPU_AOP_CLAMP_MIN ||
			      n->aop == NPU_AOP_CLAMP_MAX || n->aop == NPU_AOP_MINIMUM ||
			      n->aop == NPU_AOP_MAXIMUM);
		if (!am || am->dtype == NPU_DT_F64 ||
		    (isintdt(am->dtype) && !fcomp && !chosen && !rng_small(node_rng(z, tn[j]))))
			return 0;
		ints |= am->dtype != NPU_DT_BOOL && isintdt(am->dtype);
	}
	/* only the integer cases: the rest is narrow_ok's and vecok's.  A
	 * selection of unknown range whose every use converts it to a float
	 * first gives those uses what PyTorch's do: fp32 rounding is
	 * monotonic, so it commutes with choosing */
	if (m->dtype != NPU_DT_BOOL && isintdt(m->dtype))
		return rng_small(node_rng(z, node)) ||
		       ((n->aop == NPU_AOP_WHERE || n->aop == NPU_AOP_MAXIMUM ||
			 n->aop == NPU_AOP_MINIMUM || n->aop == NPU_AOP_CLAMP ||
			 n->aop == NPU_AOP_CLAMP_MIN || n->aop == NPU_AOP_CLAMP_MAX) &&
			float_uses(z, node, 0));
	return ints;
}

/* Whether every value of node `node` fits integer type dt. */
static int rng_fits(fz *z, int node, int dt)
{
	irng r = node_rng(z, node);
	double lo, hi;

	switch (dt) {
	case NPU_DT_I8: lo = -128; hi = 127; break;
	case NPU_DT_U8: lo = 0; hi = 255; break;
	case NPU_DT_I16: lo = -32768; hi = 32767; break;
	case NPU_DT_I32: lo = -2147483648.0; hi = 2147483647.0; break;
	case NPU_DT_BOOL: return 0;
	default: lo = -9.2e18; hi = 9.2e18; break;
	}
	return r.lo >= lo && r.hi <= hi;
}

/*
 * Integer and float8 tensors the templates take (the rest are host
 * calls): _int_mm and _scaled_mm on the array, and casts, which convert
 * on load and store (an integer result is checked for integral values
 * in ew_expr).  Integer arithmetic stays on the host: it wraps, fp32
 * lanes would not.
 */
/*
 * A comparison of an integer tensor with an integer c, |c| < 2^24 (token
 * ids against a padding or a type id): the load's rounding to fp32 is
 * monotonic and exact below 2^24, so fp32(x) compares with c as x does.
 */
static int small_int_compare(const npu_gnode *n)
{
	double c;

	switch (n->aop) {
	case NPU_AOP_EQ_SCALAR: case NPU_AOP_NE_SCALAR: case NPU_AOP_LT_SCALAR:
	case NPU_AOP_LE_SCALAR: case NPU_AOP_GT_SCALAR: case NPU_AOP_GE_SCALAR:
		return !gnum(arg(n, 1), &c) && c == floor(c) && fabs(c) < 16777216.0 &&
		       tmeta(n, 0) && tmeta(n, 0)->dtype == NPU_DT_BOOL;
	default:
		return 0;
	}
}

static int narrow_ok(fz *z, int node, int dt)
{
	const npu_gnode *n = &z->g->nodes[node];

	if (int_lanes(z, node))
		return 1;
	/* int64 -> bool or float: the load rounds to fp32 as the cast does,
	 * and never makes a nonzero value 0 (BERT's attention mask) */
	if ((dt == NPU_DT_I64 || npu_kir_isint(dt)) && small_int_compare(n))
		return 1;
	if (dt == NPU_DT_I64)
		return n->aop == NPU_AOP_TO_COPY && tmeta(n, 0) &&
		       (tmeta(n, 0)->dtype == NPU_DT_BOOL || isfloat(tmeta(n, 0)->dtype));
	if (npu_kir_isint(dt))
		return n->aop == NPU_AOP_INT_MM || n->aop == NPU_AOP_TO_COPY ||
		       n->aop == NPU_AOP_CONV;
	if (isfp8(dt))
		return n->aop == NPU_AOP_SCALED_MM || n->aop == NPU_AOP_TO_COPY;
	return 0;
}

/*
 * relu(x) read only by a max pool whose indices are unused: max commutes
 * with ReLU (NaN included), so the pool takes x and applies the ReLU to
 * its result, a quarter of the elements (3x3 stride 2).  Its producer
 * then stores x as it is: ResNet-18's stem, its bias a K row of ones,
 * becomes a plain copy out of the accumulator.  1 when moved.
 */
static int relu_past_pool(fz *z, int node)
{
	const npu_graph *g = z->g;
	const npu_gnode *n = &g->nodes[node];
	int u = -1, nu = 0, x;
	poolwin pw = { .pd = { 0, 0 }, .dl = { 1, 1 } };

	if (!z->ord || z->ir->nofuse || n->aop != NPU_AOP_RELU || n->nargs != 1 ||
	    n->nkwargs || n->args[0].kind != NPU_GV_NODE)
		return 0;
	for (int i = z->at + 1; i < g->nnodes; i++)
		if (reads(&g->nodes[z->ord[i]], node)) {
			u = z->ord[i];
			nu++;
		}
	if (nu != 1 || g->nodes[u].aop != NPU_AOP_MAX_POOL2D ||
	    g->nodes[u].args[0].kind != NPU_GV_NODE || g->nodes[u].args[0].u.node != node ||
	    maxpool_args(z, u, 0, 0, &pw) || pw.idx ||
	    (x = node_val(z, n->args[0].u.node)) < 0 ||
	    !isfloat(z->ir->v[x].dtype) || z->ir->v[x].ndim != 4)
		return 0;
	z->ir->nodeval[node] = x;
	z->prelu[u] = 1;
	npu_kir_decide(z->ir, 1, "%s: moved past its max pool %s (max commutes with it)",
		       n->name, g->nodes[u].name);
	return 1;
}

/* ----------------------------------------------------------------- */
/* Integer kernels on the scalar unit */

/*
 * Integer arithmetic the fp32 lanes cannot hold exactly, on operands of
 * unknown range (a training BatchNorm's num_batches_tracked + 1, int64),
 * runs on the scalar unit's 64-bit registers, one element at a time,
 * while the result has at most NPU_INTK_MAX elements: add, sub, rsub and
 * mul of int64 and int32 tensors (any views, broadcast) and integer
 * scalars within 2^24 (an expression immediate is an fp32), maximum and
 * minimum of two tensors, and neg.
 * The program is one op over loads (emit.c's emit_int runs it as
 * ld/add/sub/mul/max/min/st); int32 results wrap as PyTorch's do
 * (computed in 64 bits, their low 32 stored).  Each input's span of
 * elements is loaded whole: at most INTK_SPAN.  Anything else stays a
 * host call.
 */
#define INTK_SPAN 4096
static int intk_dtype(int dt)
{
	return dt == NPU_DT_I64 || dt == NPU_DT_I32;
}

/* The scalar operand of node n as an expression immediate, or -1. */
static int intk_imm(const npu_gnode *n, int i, double *c)
{
	const npu_gval *kw = npu_gnode_kwarg(n, "alpha");
	double a = 1;

	if (gnum(arg(n, i), c) || (kw && gnum(kw, &a)))
		return -1;
	*c *= a;
	return *c == floor(*c) && fabs(*c) <= RNG_EXACT ? 0 : -1;
}

/* Is node n, with nt tensor operands, one of the forms above? */
static int intk_form(const npu_gnode *n, int nt)
{
	const npu_gval *kw = npu_gnode_kwarg(n, "alpha");
	double c, a = 1;

	switch (n->aop) {
	case NPU_AOP_NEG:
		return nt == 1;
	case NPU_AOP_MAXIMUM: case NPU_AOP_MINIMUM:
		return nt == 2;
	case NPU_AOP_ADD_TENSOR: case NPU_AOP_SUB_TENSOR: case NPU_AOP_MUL_TENSOR:
		if (nt == 2)
			return n->nargs > 1 && n->args[1].kind == NPU_GV_NODE &&
			       (!kw || (!gnum(kw, &a) && a == 1));
		/* a scalar second operand */
		return nt == 1 && !intk_imm(n, 1, &c);
	case NPU_AOP_ADD_SCALAR: case NPU_AOP_SUB_SCALAR: case NPU_AOP_MUL_SCALAR:
	case NPU_AOP_RSUB_SCALAR:
		return nt == 1 && !intk_imm(n, 1, &c);
	default:
		return 0;
	}
}

/* Node n's op (intk_form) over loads x0 and x1 (a tensor, or -1) in
 * kernel k: the expression value, or -1 (out of memory). */
static int intk_op(fz *z, int k, const npu_gnode *n, int x0, int x1)
{
	int node = (int)(n - z->g->nodes), sub, mul;
	double c = 0;

	if (n->aop == NPU_AOP_NEG)
		return xadd(z, k, NPU_X_UN, NPU_OP_VNEG, x0, 0, 0, 0, node);
	sub = n->aop == NPU_AOP_SUB_TENSOR || n->aop == NPU_AOP_SUB_SCALAR;
	mul = n->aop == NPU_AOP_MUL_TENSOR || n->aop == NPU_AOP_MUL_SCALAR;
	if (x1 >= 0)
		return xadd(z, k, NPU_X_BIN, sub ? NPU_OP_VSUB : mul ? NPU_OP_VMUL :
			    n->aop == NPU_AOP_MAXIMUM ? NPU_OP_VMAX :
			    n->aop == NPU_AOP_MINIMUM ? NPU_OP_VMIN : NPU_OP_VADD,
			    x0, x1, 0, 0, node);
	intk_imm(n, 1, &c);
	return xadd(z, k, NPU_X_BINI, mul ? NPU_OP_VMULI :
		    n->aop == NPU_AOP_RSUB_SCALAR ? NPU_OP_VRSUBI : NPU_OP_VADDI,
		    x0, 0, 0, (float)(sub ? -c : c), node);
}

/* Node i as an integer kernel: 0 done, 1 not of those forms, -1 error. */
static int do_intk(fz *z, int i)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[i];
	const npu_gmeta *m = tmeta(n, 0);
	int tn[4], nt = tensor_args(n, tn, 4), x[2] = { -1, -1 }, k, v, r, o;
	int64_t shape[NPU_MAX_DIMS], st[NPU_MAX_DIMS];

	if (!m || n->multi || !intk_dtype(m->dtype) || nt < 1 || nt > 2 ||
	    n->args[0].kind != NPU_GV_NODE || !intk_form(n, nt))
		return 1;
	for (int d = 0; d < m->ndim; d++)
		shape[d] = m->shape[d].v;
	if (npu_kir_numel(m->ndim, shape) > NPU_INTK_MAX)
		return 1;
	for (int j = 0; j < nt; j++) {
		int64_t span = 1;
		v = node_val(z, tn[j]);
		if (v < 0 || !intk_dtype(ir->v[v].dtype) || ir->v[v].isconst ||
		    bcast_strides(&ir->v[v], m->ndim, shape, st) < 0)
			return 1;
		for (int d = 0; d < m->ndim; d++)
			span += (shape[d] - 1) * (st[d] < 0 ? -st[d] : st[d]);
		if (span > INTK_SPAN)
			return 1;
	}
	if ((k = new_kern(z, NPU_KK_INT, i)) < 0 ||
	    (v = meta_val(z, i, 0, n->name)) < 0)
		return -1;
	ir->k[k].ndim = m->ndim;
	memcpy(ir->k[k].shape, shape, sizeof shape);
	for (int j = 0; j < nt; j++)
		if ((o = ext_opnd(z, k, node_val(z, tn[j]), m->ndim, shape)) < 0 ||
		    (x[j] = xadd(z, k, NPU_X_LOAD, 0, o, 0, 0, 0, i)) < 0)
			return npu_errf(z->e, "out of memory");
	npu_kir_contig(m->ndim, shape, st);
	if ((r = intk_op(z, k, n, x[0], x[1])) < 0 ||
	    (o = npu_kir_opnd(&ir->k[k], v, 1, 0, st)) < 0 ||
	    xadd(z, k, NPU_X_STORE, 0, r, o, 0, 0, i) < 0)
		return npu_errf(z->e, "out of memory");
	ir->v[v].producer = k;
	ir->v[v].needed = 1;
	ir->nodeval[i] = v;
	npu_kir_decide(ir, 1, "%s: integer arithmetic on the scalar unit (operands of unknown range)",
		       n->name);
	close_cur(z);
	return 0;
}

/* Node i, whose operand or result of type dt the fp32 lanes cannot hold:
 * an integer kernel when it is one, else a host call (why). */
static int off_lanes(fz *z, int i, int dt, const char *why)
{
	int r;

	if (dt == NPU_DT_F64)
		return host_kern(z, i, "float64: runs on the host in fp64");
	if ((r = do_intk(z, i)) <= 0)
		return r;
	return host_kern(z, i, why);
}

/* Whether the target's array takes every float and int8 operand among
 * the nt tensor arguments tn (npu-edge has no fp16 rate, nor e5m2). */
static int array_takes(fz *z, const int *tn, int nt)
{
	const npu_target *t = z->ir->t;

	for (int j = 0; t && j < nt; j++) {
		int dt = z->ir->v[node_val(z, tn[j])].dtype;
		if ((isfloat(dt) || isfp8(dt) || dt == NPU_DT_I8) && t->mxu_rate[dt] <= 0)
			return 0;
	}
	return 1;
}

static int do_node(fz *z, int i)
{
	npu_kir *ir = z->ir;
	const npu_gnode *n = &z->g->nodes[i];
	int lk, tn[16], nt, r;

	if (n->op == NPU_GOP_PLACEHOLDER || n->op == NPU_GOP_GET_ATTR)
		return do_placeholder(z, i);
	if (n->op == NPU_GOP_OUTPUT)
		return 0;
	if (n->op != NPU_GOP_CALL_FUNCTION)
		return npu_errf(z->e, "%s: node '%s': %s nodes are not supported",
				z->g->file, n->name, npu_gop_name(n->op));
	if (n->aop == NPU_AOP_GETITEM) {
		double idx;
		int src = n->args[0].kind == NPU_GV_NODE ? n->args[0].u.node : -1;
		if (src < 0 || gnum(arg(n, 1), &idx) || !ir->nodevals[src] ||
		    idx < 0 || idx >= z->g->nodes[src].nmeta)
			return npu_errf(z->e, "%s: node '%s': getitem of something that is not a multi-output node",
					z->g->file, n->name);
		ir->nodeval[i] = ir->nodevals[src][(int)idx];
		return 0;
	}
	if (n->aop == NPU_AOP_UNKNOWN)
		return npu_errf(z->e, "%s: node '%s': unknown operator '%s'",
				z->g->file, n->name, n->target);
	if (z->env && z->env->to_host && z->env->to_host[i])
		return host_kern(z, i, z->env->to_host[i]);
	lk = npu_support_kind(n->aop);
	if (lk == NPU_LK_BN)
		return do_bn(z, i);
	if (lk == NPU_LK_POOL)
		return n->aop == NPU_AOP_MAX_POOL3D || n->aop == NPU_AOP_AVG_POOL3D ?
		       do_pool3d(z, i) : n->aop == NPU_AOP_MAX_POOL2D_BWD ||
		       n->aop == NPU_AOP_AVG_POOL2D_BWD ? do_pool_bwd(z, i) : do_pool(z, i);
	if (lk == NPU_LK_GATHER)
		return n->aop == NPU_AOP_GATHER ? do_gather(z, i) : do_embedding(z, i);
	if (lk == NPU_LK_CAT)
		return do_cat(z, i);
	if (lk == NPU_LK_VIEW && n->multi)
		return do_split(z, i);
	if (lk == NPU_LK_SCAN)
		return n->aop == NPU_AOP_CUMSUM || n->aop == NPU_AOP_CUMPROD ?
		       do_cumsum(z, i) : do_cumext(z, i);
	if (lk == NPU_LK_INDEX)
		return n->aop == NPU_AOP_FLIP ? do_flip(z, i) :
		       n->aop == NPU_AOP_REPEAT ? do_repeat(z, i) : do_index(z, i);
	if (lk == NPU_LK_SCATTER)
		return n->aop == NPU_AOP_PAD ? do_pad(z, i) :
		       n->aop == NPU_AOP_INDEX_PUT ? do_index_put(z, i) :
		       n->aop == NPU_AOP_MAX_UNPOOL2D ? do_max_unpool(z, i) :
		       n->aop == NPU_AOP_SCATTER_SRC ? do_scatter_rt(z, i) :
		       n->aop == NPU_AOP_AS_STRIDED_SCATTER ? do_strided_scatter(z, i) :
		       do_scatter(z, i);
	if (lk != NPU_LK_HOST && (n->multi || !tmeta(n, 0)))
		return host_kern(z, i, "multi-output or symbolic meta");
	nt = tensor_args(n, tn, 16);
	if (lk == NPU_LK_VIEW) {
		if ((r = do_view(z, i)) <= 0)
			return r;
		return host_kern(z, i, "a view that needs a copy");
	}
	if (lk == NPU_LK_CONST) {
		if ((r = do_const(z, i)) <= 0)
			return r;
		return host_kern(z, i, "a fill of a type the lanes do not hold, past 1 MiB or not of its type");
	}
	if (lk == NPU_LK_HOST)
		return host_kern(z, i, "no native lowering (not in support.def)");
	if ((n->aop == NPU_AOP_DIV_MODE || n->aop == NPU_AOP_DIV_SMODE) && !int_lanes(z, i))
		return host_kern(z, i, "a rounded division of integers of unknown range (or "
				 "of floats not float32, which decomp.def spells out)");
	for (int j = 0; j < nt; j++) {
		int v = node_val(z, tn[j]);
		if (v < 0)
			return npu_errf(z->e, "%s: node '%s': argument '%s' has no tensor value",
					z->g->file, n->name, z->g->nodes[tn[j]].name);
		if (!vecok(ir->v[v].dtype) && !narrow_ok(z, i, ir->v[v].dtype))
			return off_lanes(z, i, ir->v[v].dtype, "integer operands");
	}
	if (!vecok(tmeta(n, 0)->dtype) && !narrow_ok(z, i, tmeta(n, 0)->dtype))
		return off_lanes(z, i, tmeta(n, 0)->dtype, "integer result");
	if ((lk == NPU_LK_MM || lk == NPU_LK_CONV) && !array_takes(z, tn, nt))
		return host_kern(z, i, "a matmul or convolution of a type this target's array does not take (its rate is 0)");
	if (lk == NPU_LK_MM)
		return do_mm(z, i);
	if (lk == NPU_LK_CONV)
		return do_conv(z, i);
	if (lk == NPU_LK_RED || lk == NPU_LK_SOFTMAX) {
		if (!isfloat(tmeta(n, 0)->dtype) && n->aop != NPU_AOP_ANY_DIM &&
		    !int_lanes(z, i))
			return host_kern(z, i, "reduction of bool");
		return do_red(z, i);
	}
	if (relu_past_pool(z, i))
		return 0;
	return do_ew(z, i);
}

/* Graph outputs: each gets its own OUTPUT buffer "output.i" (None: none). */
/*
 * An output that is a contiguous reshape of a whole value a kernel
 * computes (the logits viewed [1, 32, V]) is that value, given the
 * output's shape, instead of a copy kernel; not when a host call reads
 * the value (it gets whole buffers with their shapes) or its rows are
 * symbolic.  1 when v's root can be the output.
 */
static int output_alias(fz *z, int v)
{
	npu_kir *ir = z->ir;
	npu_kval *V = &ir->v[v], *R = &ir->v[V->root];
	int r = V->root;

	if (V->isconst || V->off != 0 || !iscontig(V) || R->isconst ||
	    R->kind != NPU_BUF_SCRATCH || R->outidx >= 0 || R->producer < 0 ||
	    R->sym || V->sym || R->dtype != V->dtype ||
	    npu_kir_numel(V->ndim, V->shape) != npu_kir_numel(R->ndim, R->shape))
		return 0;
	/* (another output of the same value would get the new shape) */
	{
		int no, same = 0;
		const npu_gval *o = npu_graph_outputs(z->g, &no);
		for (int i = 0; i < no; i++) {
			int w = o[i].kind == NPU_GV_NODE ? node_val(z, o[i].u.node) : -1;
			same += w >= 0 && root_of(ir, w) == r;
		}
		if (same != 1)
			return 0;
	}
	for (int k = 0; k < ir->nk; k++) {
		for (int i = 0; i < ir->k[k].nhin; i++)
			if (ir->k[k].hin[i] == r)
				return 0;
		for (int i = 0; i < ir->k[k].nhout; i++)
			if (ir->k[k].hout[i] == r)
				return 0;
	}
	R->ndim = V->ndim;
	memcpy(R->shape, V->shape, sizeof R->shape);
	npu_kir_contig(R->ndim, R->shape, R->stride);
	npu_kir_decide(ir, 1, "%s: the graph output is the value it reshapes, %s (no copy)",
		       V->name, R->name);
	return 1;
}

static int do_outputs(fz *z)
{
	npu_kir *ir = z->ir;
	int n;
	const npu_gval *o = npu_graph_outputs(z->g, &n);
	char name[32];

	if (!(ir->outs = calloc((size_t)n + 1, sizeof *ir->outs)))
		return npu_errf(z->e, "out of memory");
	for (int i = 0; i < n; i++) {
		int v;
		/* a backward graph returns None for an input without a
		 * gradient: no buffer, the other outputs keep their index */
		if (o[i].kind == NPU_GV_NONE) {
			ir->outs[i] = -1;
			continue;
		}
		if (o[i].kind != NPU_GV_NODE || (v = node_val(z, o[i].u.node)) < 0)
			return npu_errf(z->e, "%s: output %d is not a tensor", z->g->file, i);
		if (ir->v[v].root >= 0 && output_alias(z, v))
			v = ir->v[v].root;
		if (ir->v[v].root >= 0 || ir->v[v].isconst || ir->v[v].kind != NPU_BUF_SCRATCH ||
		    ir->v[v].outidx >= 0) {
			close_cur(z);
			if ((v = copy_val(z, v, o[i].u.node, "a graph output")) < 0)
				return -1;
		}
		snprintf(name, sizeof name, "output.%d", i);
		free(ir->v[v].name);
		ir->v[v].name = strdup(name);
		ir->v[v].kind = NPU_BUF_OUTPUT;
		ir->v[v].outidx = i;
		ir->v[v].needed = 1;
		ir->outs[i] = v;
	}
	ir->nouts = n;
	return 0;
}

/* Adds STORE operands for every value computed in a kernel and needed
 * outside it. */
static int add_stores(fz *z)
{
	npu_kir *ir = z->ir;

	for (int v = 0; v < ir->nv; v++) {
		npu_kval *V = &ir->v[v];
		npu_kern *K;
		int o, s;
		if (!V->needed || V->producer < 0 || V->xdef < 0)
			continue;
		K = &ir->k[V->producer];
		if (K->kind == NPU_KK_HOST)
			continue;
		if ((o = npu_kir_opnd(K, v, 1, 0, NULL)) < 0)
			return npu_errf(z->e, "out of memory");
		/* over the kernel's space: contiguous, or row-level per row */
		if (fz_level(z, v) == LV_ROW && K->kind == NPU_KK_ROW) {
			int64_t sh[NPU_MAX_DIMS];
			memcpy(sh, K->shape, sizeof sh);
			for (int d = K->ndim - K->rdims; d < K->ndim; d++)
				sh[d] = 1;
			npu_kir_contig(K->ndim, sh, K->ops[o].stride);
			for (int d = K->ndim - K->rdims; d < K->ndim; d++)
				K->ops[o].stride[d] = 0;
		} else if (K->mm_glu) {
			/* half the accumulator's columns (kir.h) */
			int64_t sh[NPU_MAX_DIMS];
			memcpy(sh, K->shape, sizeof sh);
			sh[K->ndim - 1] /= 2;
			npu_kir_contig(K->ndim, sh, K->ops[o].stride);
		} else {
			npu_kir_contig(K->ndim, K->shape, K->ops[o].stride);
		}
		npu_xins st = { .op = NPU_X_STORE, .a = V->xdef, .b = o,
				.node = V->node };
		/* a copy materializes a view: its node is provenance too */
		if (V->node >= 0 && npu_kir_addnode(K, V->node) < 0)
			return npu_errf(z->e, "out of memory");
		if ((s = npu_kir_x(K, st)) < 0)
			return npu_errf(z->e, "out of memory");
	}
	return 0;
}

/*
 * Every operand of an elementwise kernel (the copies, fills and math
 * kernels: their operands' strides are over the kernel's index space)
 * stays inside the value it reads or writes.  The lowerings trust the
 * graph's meta shapes; where a graph has them disagree with its ops (a
 * slice_scatter whose result is smaller than its input: fuzz_compile
 * made one, whose program stored outside its buffer) this refuses it,
 * naming the kernel's node, before any code is made.
 */
static int check_bounds(fz *z)
{
	const npu_kir *ir = z->ir;

	for (int k = 0; k < ir->nk; k++) {
		const npu_kern *K = &ir->k[k];
		for (int i = 0; K->kind == NPU_KK_EW && i < K->nops; i++) {
			const npu_kopnd *o = &K->ops[i];
			const npu_kval *R = &ir->v[root_of(ir, o->val)];
			int64_t n = npu_kir_numel(R->ndim, R->shape);
			if (!view_outside(K->ndim, K->shape, o->off, o->stride, n))
				continue;
			return npu_errf(z->e, "%s: node '%s': its kernel would %s '%s' "
					"outside its %lld elements: the graph's meta shapes "
					"disagree with its ops", z->g->file,
					K->nnodes ? z->g->nodes[K->nodes[0]].name : K->name,
					o->out ? "write" : "read", R->name, (long long)n);
		}
	}
	return 0;
}

/* Adds d to the count of every node that node i reads (args, lists one
 * level deep, as tensor_args). */
static void count_reads(const npu_graph *g, int i, int *cnt, int d)
{
	const npu_gnode *n = &g->nodes[i];

	for (int a = 0; a < n->nargs; a++) {
		const npu_gval *v = &n->args[a];
		if (v->kind == NPU_GV_NODE)
			cnt[v->u.node] += d;
		else if (v->kind == NPU_GV_LIST)
			for (int j = 0; j < v->u.list.n; j++)
				if (v->u.list.v[j].kind == NPU_GV_NODE)
					cnt[v->u.list.v[j].u.node] += d;
	}
}

int npu_fuse(npu_kir *ir, const npu_graph *g, const npu_fuse_env *env,
	     npu_err *e)
{
	fz z = { .ir = ir, .g = g, .env = env, .e = e, .cur = -1 };
	int rc = -1;

	ir->g = g;
	ir->nodeval = malloc((size_t)g->nnodes * sizeof *ir->nodeval);
	ir->nodevals = calloc((size_t)g->nnodes, sizeof *ir->nodevals);
	if (!ir->nodeval || !ir->nodevals) {
		npu_errf(e, "out of memory");
		goto out;
	}
	for (int i = 0; i < g->nnodes; i++)
		ir->nodeval[i] = -1;
	z.ord = malloc((size_t)(g->nnodes + 1) * sizeof *z.ord);
	z.pos = malloc((size_t)(g->nnodes + 1) * sizeof *z.pos);
	z.moved = calloc((size_t)g->nnodes + 1, 1);
	z.done = calloc((size_t)g->nnodes + 1, 1);
	z.alone = calloc((size_t)g->nnodes + 1, 1);
	z.prelu = calloc((size_t)g->nnodes + 1, 1);
	z.rng = malloc(((size_t)g->nnodes + 1) * sizeof *z.rng);
	z.pending = calloc((size_t)g->nnodes + 1, sizeof *z.pending);
	if (!z.ord || !z.pos || !z.moved || !z.done || !z.alone || !z.prelu || !z.rng ||
	    !z.pending) {
		npu_errf(e, "out of memory");
		goto out;
	}
	for (int i = 0; i < g->nnodes; i++) {
		z.ord[i] = z.pos[i] = i;
		z.rng[i] = (irng){ 1, 0 };	/* not computed */
		count_reads(g, i, z.pending, 1);
	}
	for (z.at = 0; z.at < g->nnodes; z.at++) {
		int r;
		if (z.done[z.ord[z.at]])
			continue; /* computed with an earlier node */
		r = do_node(&z, z.ord[z.at]);
		if (r < 0)
			goto out;
		if (r == FZ_DEFER) {
			z.at--; /* the node now here is walked next */
			continue;
		}
		count_reads(g, z.ord[z.at], z.pending, -1);
		pull_forward(&z);
	}
	if (do_outputs(&z) < 0 || add_stores(&z) < 0)
		goto out;
	/* drop kernels that store nothing (dead code) */
	for (int k = 0; k < ir->nk; k++) {
		npu_kern *K = &ir->k[k];
		int outs = 0;
		for (int i = 0; i < K->nops; i++)
			outs += K->ops[i].out;
		if (K->kind != NPU_KK_HOST && !outs) {
			npu_kir_decide(ir, 0, "kernel %s: nothing it computes is used; dropped", K->name);
			K->nops = 0;
			K->nx = 0;
			K->ndim = 1;
			K->shape[0] = 0;
		}
	}
	if (check_bounds(&z) < 0)
		goto out;
	rc = 0;
out:
	free(z.level);
	free(z.ord);
	free(z.pos);
	free(z.moved);
	free(z.done);
	free(z.alone);
	free(z.prelu);
	free(z.rng);
	free(z.pending);
	return rc;
}
