/*
 * pass_quant.c - quantization-aware lowering on the graph IR.
 *
 * PT2E graphs carry quantization as quantize_per_tensor and
 * dequantize_per_tensor (quantized_decomposed.*) around float ops: run as
 * written, the matmul would multiply dequantized floats.  This pass runs
 * before fold (which would otherwise turn a frozen int8 weight and its
 * dequantize into a float weight) and does two things in one session:
 *
 * 1. Patterns (compiler/quant.def): dequantize(int8 x, s_x, z_x) and
 *    dequantize(int8 w, s_w, z_w) (or dequantize_per_channel, s_w[n])
 *    feeding a float matmul or convolution become
 *
 *        acc  = _int_mm(x, w)                       int8 x int8 -> int32
 *        y    = (f32(acc) + c[n] + r[m]) * f32(s_x * s_w) + bias
 *        c[n] = -z_x * sum_k (w[k][n] - z_w)        (a frozen constant)
 *        r[m] = -z_w * sum_k x[m][k]                (a row sum, z_w != 0)
 *
 *    which is s_x s_w sum_k (x - z_x)(w - z_w).  uint8 activations are
 *    shifted to int8 first (x - 128, z_x - 128); a convolution keeps its
 *    form on the int8 tensors (int32 result).  Every step before the
 *    scale is exact in fp32 lanes while the sums stay within 2^24 (the
 *    match checks the bounds from quant_min/quant_max); fusion then puts
 *    the cast, the corrections, the scale, the bias and whatever follows
 *    (relu, the requantize, a dequantize for float consumers) in the
 *    matmul's epilogue.
 *
 * 2. The quantize and dequantize nodes left over become elementwise aten
 *    ops, lowered on the vector unit like any other:
 *
 *        quantize:   _to_copy(clamp(round(x * f32(1 / s)) + z, qmin, qmax))
 *        dequantize: (f32(q) - z) * f32(s)
 *
 *    exactly PyTorch's decomposition (torch/ao/quantization/fx/
 *    _decomposed.py), fp32 arithmetic and round half to even included,
 *    so the integers they produce are bit-exact.
 *
 * Every match and every refusal goes to the pass log with the nodes and
 * the reason, and so into the compile report.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/pass_int.h"
#include "isa/dtype.h"
#include "isa/isa.h"

enum { QW_KN, QW_NK, QW_OIHW };

typedef struct qpat {
	const char *name;
	int anchor, bias, act, wt, layout;
} qpat;

static const qpat qpats[] = {
#define NPU_QPAT(id, name, anchor, bias, act, wt, layout) \
	{ name, NPU_AOP_##anchor, bias, act, wt, QW_##layout },
#include "compiler/quant.def"
#undef NPU_QPAT
};

static const struct qtail {
	int aop;
	const char *name;
} qtails[] = {
#define NPU_QTAIL(aop, name) { NPU_AOP_##aop, name },
#include "compiler/quant.def"
#undef NPU_QTAIL
};

#define NQPAT ((int)(sizeof qpats / sizeof qpats[0]))
#define NQTAIL ((int)(sizeof qtails / sizeof qtails[0]))

/* 2^24: the largest magnitude below which fp32 holds every integer */
#define EXACT_F32 16777216.0

/* Per-tensor parameters of a quantize or dequantize node. */
typedef struct qparm {
	int node, src;              /* the node and its tensor input */
	double scale;
	int64_t zp, qmin, qmax;
	int dtype;                  /* the integer type */
	const npu_reftensor *scales; /* per channel (frozen), else NULL */
	int64_t axis;
} qparm;

/* One matched (or refused) pattern. */
typedef struct qmatch {
	const qpat *p;
	int anchor, wview, bias;    /* wview: the transpose (NK), -1 */
	qparm x, w;
	int shift;                  /* uint8 activations: 128 subtracted */
	int padded;                 /* convolution with padding */
	int64_t M, K, N;
} qmatch;

static int qint(int dt)
{
	return dt == NPU_DT_I8 || dt == NPU_DT_U8 || dt == NPU_DT_I16 ||
	       dt == NPU_DT_I32;
}

static int num(const npu_gval *v, double *d)
{
	if (v && v->kind == NPU_GV_INT)
		return *d = (double)v->u.i, 0;
	if (v && v->kind == NPU_GV_FLOAT)
		return *d = v->u.f, 0;
	return -1;
}

static const npu_gval *qarg(const npu_gnode *n, int i, const char *kw)
{
	return i < n->nargs ? &n->args[i] : npu_gnode_kwarg(n, kw);
}

static int argnode(const npu_gnode *n, int i)
{
	return i >= 0 && i < n->nargs && n->args[i].kind == NPU_GV_NODE ?
	       n->args[i].u.node : -1;
}

static const npu_gmeta *tmeta(npu_gedit *ge, int i)
{
	const npu_gnode *n = i >= 0 ? npu_gedit_node(ge, i) : NULL;

	return n && n->nmeta == 1 && !n->multi &&
	       n->meta[0].kind == NPU_GM_TENSOR ? &n->meta[0] : NULL;
}

/* Concrete 2-d shape of node i: 0, or -1. */
static int shape2(npu_gedit *ge, int i, int64_t *r, int64_t *c)
{
	const npu_gmeta *m = tmeta(ge, i);
	int64_t s[NPU_MAX_DIMS];

	if (!m || m->ndim != 2 || npu_gmeta_shape(m, s) < 0)
		return -1;
	*r = s[0];
	*c = s[1];
	return 0;
}

/* The parameters of Q/DQ node i: 0, or -1 when they are not plain
 * per-tensor numbers (or the output type is not float32). */
static int qparams(npu_gedit *ge, int i, qparm *q)
{
	const npu_gnode *n = npu_gedit_node(ge, i);
	const npu_gval *dt = qarg(n, 5, "dtype"), *od;
	double s, z, lo, hi;

	if ((n->aop != NPU_AOP_QUANTIZE && n->aop != NPU_AOP_DEQUANTIZE) ||
	    argnode(n, 0) < 0 || num(qarg(n, 1, "scale"), &s) ||
	    num(qarg(n, 2, "zero_point"), &z) ||
	    num(qarg(n, 3, "quant_min"), &lo) ||
	    num(qarg(n, 4, "quant_max"), &hi) || !dt ||
	    dt->kind != NPU_GV_DTYPE || !(s > 0) || !isfinite(s) ||
	    fabs(z) > 65536 || lo > hi || fabs(lo) > 65536 || fabs(hi) > 65536)
		return -1;
	od = npu_gnode_kwarg(n, "out_dtype");
	if (od && od->kind == NPU_GV_DTYPE && od->u.dtype != NPU_DT_F32)
		return -1;
	q->node = i;
	q->src = argnode(n, 0);
	q->scale = s;
	q->zp = (int64_t)z;
	q->qmin = (int64_t)lo;
	q->qmax = (int64_t)hi;
	q->dtype = dt->u.dtype;
	return 0;
}

/*
 * dequantize_per_channel of a weight: frozen scales, zero points all 0
 * (symmetric), plain numbers for the rest.  0, or -1 with why set.
 */
static int qparams_pc(pass_cx *pc, npu_gedit *ge, int i, qparm *q,
		      const char **why)
{
	const npu_gnode *n = npu_gedit_node(ge, i);
	const npu_gval *dt = qarg(n, 6, "dtype"), *od = npu_gnode_kwarg(n, "out_dtype");
	const npu_reftensor *z;
	double ax, lo, hi;

	*why = "dequantize_per_channel with non-constant arguments or a non-float32 result";
	if (argnode(n, 0) < 0 || argnode(n, 1) < 0 || argnode(n, 2) < 0 ||
	    num(qarg(n, 3, "axis"), &ax) || num(qarg(n, 4, "quant_min"), &lo) ||
	    num(qarg(n, 5, "quant_max"), &hi) || !dt || dt->kind != NPU_GV_DTYPE ||
	    lo > hi || fabs(lo) > 65536 || fabs(hi) > 65536 ||
	    (od && od->kind == NPU_GV_DTYPE && od->u.dtype != NPU_DT_F32))
		return -1;
	*why = "per-channel scales or zero points that are not frozen";
	if (!(q->scales = pass_frozen(pc, ge, argnode(n, 1))) ||
	    !(z = pass_frozen(pc, ge, argnode(n, 2))))
		return -1;
	*why = "per-channel zero points other than 0";
	for (int64_t c = 0, nc = npu_reftensor_numel(z); c < nc; c++)
		if (z->data[c] != 0)
			return -1;
	*why = "per-channel scales that are not positive";
	for (int64_t c = 0, nc = npu_reftensor_numel(q->scales); c < nc; c++)
		if (!(q->scales->data[c] > 0) || !isfinite(q->scales->data[c]))
			return -1;
	q->node = i;
	q->src = argnode(n, 0);
	q->scale = 1;
	q->zp = 0;
	q->axis = (int64_t)ax;
	q->qmin = (int64_t)lo;
	q->qmax = (int64_t)hi;
	q->dtype = dt->u.dtype;
	return 0;
}

/* permute [1, 0] or t of node i: the tensor transposed, else -1. */
static int transposed(npu_gedit *ge, int i)
{
	const npu_gnode *n = npu_gedit_node(ge, i);
	const npu_gval *p = qarg(n, 1, "dims");

	if (n->aop == NPU_AOP_T)
		return argnode(n, 0);
	if (n->aop != NPU_AOP_PERMUTE || !p || p->kind != NPU_GV_LIST ||
	    p->u.list.n != 2 || p->u.list.v[0].kind != NPU_GV_INT ||
	    p->u.list.v[1].kind != NPU_GV_INT || p->u.list.v[0].u.i != 1 ||
	    p->u.list.v[1].u.i != 0)
		return -1;
	return argnode(n, 0);
}

/* Largest |q - z| over quant_min..quant_max. */
static double qrange(const qparm *q)
{
	return fmax(fabs((double)(q->qmin - q->zp)), fabs((double)(q->qmax - q->zp)));
}

/*
 * A convolution the int8 form covers: 2-d, not transposed, groups 1,
 * dilation 1 (the matrix unit's implicit GEMM), concrete sizes.  Sets
 * M = N = output channels, K = IC * KH * KW.  NULL, or the reason.
 */
static const char *conv_refusal(const npu_gnode *n, const npu_gmeta *wm,
				qmatch *m)
{
	int64_t ws[NPU_MAX_DIMS];
	double tr = 1, groups = 0;
	const npu_gval *pad = n->nargs > 4 ? &n->args[4] : NULL,
		       *dil = n->nargs > 5 ? &n->args[5] : NULL;

	if (n->nargs > 6 && n->args[6].kind == NPU_GV_BOOL)
		tr = n->args[6].u.b;
	if (n->nargs < 9 || n->args[6].kind != NPU_GV_BOOL ||
	    num(&n->args[8], &groups) ||
	    !pad || pad->kind != NPU_GV_LIST || !dil || dil->kind != NPU_GV_LIST)
		return "a convolution with arguments the int8 form does not read";
	if (tr || groups != 1 || wm->ndim != 4 || npu_gmeta_shape(wm, ws) < 0)
		return "a transposed, grouped or not 2-d convolution";
	for (int d = 0; d < dil->u.list.n; d++)
		if (dil->u.list.v[d].kind != NPU_GV_INT || dil->u.list.v[d].u.i != 1)
			return "a dilated convolution";
	for (int d = 0; d < pad->u.list.n; d++)
		if (pad->u.list.v[d].kind != NPU_GV_INT || pad->u.list.v[d].u.i)
			m->padded = 1;
	m->M = m->N = ws[0];
	m->K = ws[1] * ws[2] * ws[3];
	return NULL;
}

/*
 * Whether pattern p matches at node i: 0 (not this pattern: no
 * dequantize feeds it), 1 (matched, m filled), 2 (a quantized pattern
 * that must fall back; the reason in why).
 */
static int try_pat(pass_cx *pc, npu_gedit *ge, int i, const qpat *p,
		   qmatch *m, char *why, size_t nwhy)
{
	const npu_gnode *n = npu_gedit_node(ge, i);
	int a = argnode(n, p->act), w = argnode(n, p->wt), dx, dw;
	const npu_gmeta *om = tmeta(ge, i), *am, *wm;
	const char *pcwhy;
	int64_t kr, kc;
	double s;

	if (a < 0 || w < 0 || !om)
		return 0;
	memset(m, 0, sizeof *m);
	m->p = p;
	m->anchor = i;
	m->wview = -1;
	if (p->layout == QW_NK) {
		if ((w = transposed(ge, w)) < 0)
			return 0;
		m->wview = argnode(n, p->wt);
	}
	dx = npu_gedit_node(ge, a)->aop == NPU_AOP_DEQUANTIZE;
	dw = npu_gedit_node(ge, w)->aop == NPU_AOP_DEQUANTIZE ? 1 :
	     npu_gedit_node(ge, w)->aop == NPU_AOP_DEQUANTIZE_PC ? 2 : 0;
	if (!dx && !dw)
		return 0;
	m->bias = p->bias >= 0 ? argnode(n, p->bias) : -1;
#define FALL(...) return snprintf(why, nwhy, __VA_ARGS__), 2
	if (!dx || !dw)
		FALL("the %s is not dequantized", dx ? "weight" : "activation");
	if (qparams(ge, a, &m->x) < 0 ||
	    (dw == 1 && qparams(ge, w, &m->w) < 0))
		FALL("dequantize with tensor parameters or a non-float32 result");
	if (dw == 2 && qparams_pc(pc, ge, w, &m->w, &pcwhy) < 0)
		FALL("%s", pcwhy);
	if ((num(npu_gnode_kwarg(n, "alpha"), &s) == 0 && s != 1) ||
	    (num(npu_gnode_kwarg(n, "beta"), &s) == 0 && s != 1))
		FALL("addmm with alpha or beta");
	am = tmeta(ge, m->x.src);
	wm = tmeta(ge, m->w.src);
	if (!am || !wm || (am->dtype != NPU_DT_I8 && am->dtype != NPU_DT_U8) ||
	    wm->dtype != NPU_DT_I8)
		FALL("operands of type %s x %s (the array multiplies int8 x int8)",
		     am ? npu_dtype_name(am->dtype) : "?",
		     wm ? npu_dtype_name(wm->dtype) : "?");
	if (om->dtype != NPU_DT_F32 ||
	    (m->bias >= 0 && (!tmeta(ge, m->bias) ||
			      tmeta(ge, m->bias)->dtype != NPU_DT_F32)))
		FALL("a result or bias other than float32");
	if (p->layout == QW_OIHW) {
		const char *cw = conv_refusal(n, wm, m);
		if (cw)
			FALL("%s", cw);
	} else if (shape2(ge, m->x.src, &m->M, &m->K) < 0 ||
		   shape2(ge, m->w.src, &kr, &kc) < 0) {
		FALL("operands that are not 2-d with concrete sizes");
	} else {
		m->N = p->layout == QW_NK ? kr : kc;
		if ((p->layout == QW_NK ? kc : kr) != m->K)
			FALL("inner sizes that differ");
	}
	if (m->w.scales && (m->w.axis != (p->layout == QW_KN ? 1 : 0) ||
			    npu_reftensor_numel(m->w.scales) != m->N))
		FALL("per-channel weight scales along the reduced dimension");
	if (am->dtype == NPU_DT_U8) {
		/* x - z_x = (x - 128) - (z_x - 128): the array gets int8 */
		m->shift = 128;
		m->x.zp -= 128;
		m->x.qmin -= 128;
		m->x.qmax -= 128;
		if (m->x.qmin < -128 || m->x.qmax > 127)
			FALL("uint8 activations outside 0..255");
	}
	if (m->x.zp != 0 && !pass_frozen(pc, ge, m->w.src))
		FALL("activation zero point %lld with a weight that is not frozen "
		     "(the column sums are precomputed)", (long long)m->x.zp);
	if (p->layout == QW_OIHW && m->w.zp != 0)
		FALL("weight zero point %lld (a convolution would need window "
		     "sums of the activation)", (long long)m->w.zp);
	if (p->layout == QW_OIHW && m->x.zp != 0 && m->padded)
		FALL("activation zero point %lld with padding (the padded taps "
		     "would have to hold the zero point)", (long long)m->x.zp);
	/* raw sums of int8 products, the corrections and the corrected sums
	 * must all be exact in fp32 lanes */
	if (m->K > 1024 || (double)m->K * qrange(&m->x) * qrange(&m->w) > EXACT_F32 ||
	    (double)m->K * (128.0 + fabs((double)m->w.zp)) *
	    fabs((double)m->x.zp) > EXACT_F32 ||
	    (double)m->K * 128.0 * fabs((double)m->w.zp) > EXACT_F32)
		FALL("K = %lld: int32 sums may leave fp32's exact range",
		     (long long)m->K);
#undef FALL
	return 1;
}

/* The pattern's full name with the tail ops that follow it (for the
 * report), and their node names appended to nodes. */
static void tail_name(npu_gedit *ge, const qmatch *m, char *name, size_t nn,
		      char *nodes, size_t nnodes)
{
	int cur = m->anchor;
	const int *u;

	snprintf(name, nn, "%s", m->p->name);
	for (int t = 0; t < NQTAIL; t++) {
		if (npu_gedit_users(ge, cur, &u) != 1 ||
		    npu_gedit_node(ge, u[0])->aop != qtails[t].aop)
			continue;
		cur = u[0];
		snprintf(name + strlen(name), nn - strlen(name), "+%s",
			 qtails[t].name);
		snprintf(nodes + strlen(nodes), nnodes - strlen(nodes), ",%s",
			 npu_gedit_node(ge, cur)->name);
	}
}

/* A call node of target with args before anchor, tensor meta (dtype,
 * shape of like_meta), provenance of like; its index or -1. */
static int call(pass_cx *pc, npu_gedit *ge, int anchor, const char *name,
		const char *target, const npu_gval *args, int nargs, int dtype,
		const npu_gmeta *shape_of, int like)
{
	npu_gmeta mt = { 0 };
	int64_t s[NPU_MAX_DIMS];
	int idx;

	if (npu_gmeta_shape(shape_of, s) < 0)
		return npu_errf(pc->e, "node '%s': symbolic shape", name);
	npu_gmeta_set(&mt, dtype, shape_of->ndim, s);
	idx = pass_add_call(pc, ge, anchor, name, target, args, nargs, &mt, like);
	npu_gmeta_clear(&mt);
	return idx;
}

/* _to_copy(x, dtype=dt): the cast, with its dtype keyword. */
static int cast(pass_cx *pc, npu_gedit *ge, int anchor, int x, int dt,
		const npu_gmeta *shape_of, int like)
{
	npu_gval a = npu_gv_node(x);
	char name[256];
	npu_gnode *n;
	int idx;

	snprintf(name, sizeof name, "%s_to_%s", npu_gedit_node(ge, like)->name,
		 npu_dtype_name(dt));
	idx = call(pc, ge, anchor, name, "aten._to_copy.default", &a, 1, dt,
		   shape_of, like);
	if (idx < 0)
		return -1;
	n = npu_gedit_node(ge, idx);
	if (!(n->kwargs = calloc(1, sizeof *n->kwargs)) ||
	    !(n->kwargs[0].key = strdup("dtype")))
		return npu_errf(pc->e, "out of memory");
	n->nkwargs = 1;
	n->kwargs[0].val.kind = NPU_GV_DTYPE;
	n->kwargs[0].val.u.dtype = dt;
	return idx;
}

/* op(x, scalar) for the Scalar variants and round/clamp. */
static int scalar_op(pass_cx *pc, npu_gedit *ge, int anchor, int x,
		     const char *target, const char *suffix, int nsc,
		     double s0, double s1, const npu_gmeta *shape_of, int like)
{
	npu_gval a[3] = { npu_gv_node(x), npu_gv_float(s0), npu_gv_float(s1) };
	char name[256];

	snprintf(name, sizeof name, "%s_%s", npu_gedit_node(ge, like)->name,
		 suffix);
	return call(pc, ge, anchor, name, target, a, 1 + nsc, NPU_DT_F32,
		    shape_of, like);
}

/*
 * A frozen float32 [N] per output column; its node or -1.
 *   scales 0: c[n] = -z_x * sum_k (w[k][n] - z_w) (the zero-point
 *             correction of the columns)
 *   scales 1: f32(s_x * s_w[n]) (per-channel weight scales)
 */
static int frozen_row(pass_cx *pc, npu_gedit *ge, const qmatch *m, int scales)
{
	const npu_reftensor *w = pass_frozen(pc, ge, m->w.src);
	npu_reftensor c;
	npu_gmeta mt = { 0 };
	int64_t N = m->N, K = m->K, idx;

	if (!scales && !w)
		return npu_errf(pc->e, "node '%s': weight not frozen",
				npu_gedit_node(ge, m->w.src)->name);
	if (npu_reftensor_alloc(&c, NPU_DT_F32, 1, &N, pc->e) < 0)
		return -1;
	for (int64_t n = 0; n < N; n++) {
		double sum = 0;
		if (scales) {
			c.data[n] = (double)(float)(m->x.scale * m->w.scales->data[n]);
			continue;
		}
		for (int64_t k = 0; k < K; k++)
			sum += m->p->layout != QW_KN ? w->data[n * K + k]
						     : w->data[k * N + n];
		c.data[n] = -(double)m->x.zp * (sum - (double)(K * m->w.zp));
	}
	{
		/* a convolution's per-channel values broadcast over [H][W] */
		int64_t cs[3] = { N, 1, 1 };
		npu_gmeta_set(&mt, NPU_DT_F32, m->p->layout == QW_OIHW ? 3 : 1, cs);
	}
	if (m->p->layout == QW_OIHW) {
		c.ndim = 3;
		c.shape[1] = c.shape[2] = 1;
	}
	idx = pass_add_frozen(pc, ge, m->anchor, m->w.node, &mt, &c);
	npu_gmeta_clear(&mt);
	npu_reftensor_free(&c);
	return (int)idx;
}

/* The int8 activation: x itself, or for uint8 x the int8 x - 128 (an
 * elementwise kernel, or part of the quantize that made x). */
static int activation(pass_cx *pc, npu_gedit *ge, const qmatch *m)
{
	const npu_gmeta *xm = tmeta(ge, m->x.src);
	int y;

	if (!m->shift)
		return m->x.src;
	if ((y = cast(pc, ge, m->anchor, m->x.src, NPU_DT_F32, xm, m->x.node)) < 0 ||
	    (y = scalar_op(pc, ge, m->anchor, y, "aten.add.Scalar", "shift", 1,
			   -(double)m->shift, 0, xm, m->x.node)) < 0)
		return -1;
	return cast(pc, ge, m->anchor, y, NPU_DT_I8, xm, m->x.node);
}

/*
 * r[m] = -z_w * sum_k x[m][k], [M, 1]: the weight zero point's term, from
 * a row sum of the int8 activation (a row kernel, exact: the sums are
 * integers below 2^24).  Made before the matmul so that its epilogue
 * stays one kernel.  Its node, or -1.
 */
static int row_correction(pass_cx *pc, npu_gedit *ge, const qmatch *m, int xv)
{
	int64_t one = 1, rs[2] = { m->M, 1 };
	npu_gmeta mt = { 0 };
	npu_gval a[3];
	char name[256];
	int i = m->anchor, s;

	if ((s = cast(pc, ge, i, xv, NPU_DT_F32, tmeta(ge, m->x.src), m->x.node)) < 0)
		return -1;
	a[0] = npu_gv_node(s);
	if (npu_gv_ints(&a[1], &one, 1) < 0)
		return npu_errf(pc->e, "out of memory");
	a[2] = npu_gv_bool(1);
	npu_gmeta_set(&mt, NPU_DT_F32, 2, rs);
	snprintf(name, sizeof name, "%s_rowsum", npu_gedit_node(ge, m->x.node)->name);
	s = pass_add_call(pc, ge, i, name, "aten.sum.dim_IntList", a, 3, &mt,
			  m->x.node);
	npu_gval_clear(&a[1]);
	if (s >= 0)
		s = scalar_op(pc, ge, i, s, "aten.mul.Scalar", "wzp", 1,
			      -(double)m->w.zp, 0, &mt, m->x.node);
	npu_gmeta_clear(&mt);
	return s;
}

/* op(y, c) over the anchor's shape, named after it with suffix. */
static int binary(pass_cx *pc, npu_gedit *ge, const qmatch *m,
		  const char *target, const char *suffix, int y, int c)
{
	npu_gval a[2] = { npu_gv_node(y), npu_gv_node(c) };
	char name[256];

	snprintf(name, sizeof name, "%s_%s", npu_gedit_node(ge, m->anchor)->name,
		 suffix);
	return call(pc, ge, m->anchor, name, target, a, 2, NPU_DT_F32,
		    tmeta(ge, m->anchor), m->anchor);
}

/*
 * The convolution form: the same convolution on the int8 tensors (an
 * int32 result: the mm template's implicit GEMM in int8), then the
 * cast, the correction, the scale and the bias as [OC, 1, 1] rows.
 */
static int rewrite_conv(pass_cx *pc, npu_gedit *ge, const qmatch *m)
{
	int i = m->anchor, y, c, xv;
	const npu_gnode *n = npu_gedit_node(ge, i);
	const npu_gmeta *om = tmeta(ge, i);
	npu_gval a[9];
	char name[256];

	if ((xv = activation(pc, ge, m)) < 0)
		return -1;
	for (int k = 0; k < 9; k++)
		a[k] = n->args[k];          /* copied by the node maker */
	a[0] = npu_gv_node(xv);
	a[1] = npu_gv_node(m->w.src);
	a[2].kind = NPU_GV_NONE;
	snprintf(name, sizeof name, "%s_int8", n->name);
	if ((y = call(pc, ge, i, name, "aten.convolution.default", a, 9,
		      NPU_DT_I32, om, i)) < 0 ||
	    pass_prov(pc, name, npu_gedit_node(ge, m->x.node)->name) < 0 ||
	    pass_prov(pc, name, npu_gedit_node(ge, m->w.node)->name) < 0 ||
	    (y = cast(pc, ge, i, y, NPU_DT_F32, om, i)) < 0)
		return -1;
	if (m->x.zp) {
		if ((c = frozen_row(pc, ge, m, 0)) < 0 ||
		    (y = binary(pc, ge, m, "aten.add.Tensor", "zp", y, c)) < 0)
			return -1;
	}
	if (m->w.scales) {
		if ((c = frozen_row(pc, ge, m, 1)) < 0 ||
		    (y = binary(pc, ge, m, "aten.mul.Tensor", "scale", y, c)) < 0)
			return -1;
	} else if ((y = scalar_op(pc, ge, i, y, "aten.mul.Scalar", "scale", 1,
				  m->x.scale * m->w.scale, 0, om, i)) < 0) {
		return -1;
	}
	if (m->bias >= 0) {
		/* bias [OC] as [OC, 1, 1] (a view: no code) */
		int64_t bs[3] = { m->N, 1, 1 };
		npu_gmeta mt = { 0 };
		a[0] = npu_gv_node(m->bias);
		if (npu_gv_ints(&a[1], bs, 3) < 0)
			return npu_errf(pc->e, "out of memory");
		npu_gmeta_set(&mt, NPU_DT_F32, 3, bs);
		snprintf(name, sizeof name, "%s_bias3", n->name);
		c = pass_add_call(pc, ge, i, name, "aten.view.default", a, 2, &mt, i);
		npu_gval_clear(&a[1]);
		npu_gmeta_clear(&mt);
		if (c < 0 || (y = binary(pc, ge, m, "aten.add.Tensor", "bias", y, c)) < 0)
			return -1;
	}
	npu_gedit_replace_uses(ge, i, y);
	npu_gedit_kill(ge, i);
	return 0;
}

/* Replaces the matched matmul by the int8 form (top of the file). */
static int rewrite(pass_cx *pc, npu_gedit *ge, const qmatch *m)
{
	int i = m->anchor, wv = m->w.src, y, c, xv, r = -1;
	const npu_gmeta *om = tmeta(ge, i);
	const int *u;
	npu_gval a[2];
	char name[256];

	if (m->p->layout == QW_OIHW)
		return rewrite_conv(pc, ge, m);
	if (m->wview >= 0) {
		/* the int8 weight through the same transpose */
		int64_t perm[2] = { 1, 0 }, ks[2] = { m->K, m->N };
		npu_gmeta mt = { 0 };
		a[0] = npu_gv_node(m->w.src);
		if (npu_gv_ints(&a[1], perm, 2) < 0)
			return npu_errf(pc->e, "out of memory");
		npu_gmeta_set(&mt, NPU_DT_I8, 2, ks);
		mt.stride[0].v = 1;
		mt.stride[1].v = m->K;
		snprintf(name, sizeof name, "%s_t", npu_gedit_node(ge, m->w.src)->name);
		wv = pass_add_call(pc, ge, i, name, "aten.permute.default", a, 2,
				   &mt, m->wview);
		npu_gval_clear(&a[1]);
		npu_gmeta_clear(&mt);
		if (wv < 0)
			return -1;
	}
	if ((xv = activation(pc, ge, m)) < 0 ||
	    (m->w.zp && (r = row_correction(pc, ge, m, xv)) < 0))
		return -1;
	a[0] = npu_gv_node(xv);
	a[1] = npu_gv_node(wv);
	snprintf(name, sizeof name, "%s_int8", npu_gedit_node(ge, i)->name);
	if ((y = call(pc, ge, i, name, "aten._int_mm.default", a, 2, NPU_DT_I32,
		      om, i)) < 0 ||
	    pass_prov(pc, name, npu_gedit_node(ge, m->x.node)->name) < 0 ||
	    pass_prov(pc, name, npu_gedit_node(ge, m->w.node)->name) < 0 ||
	    (y = cast(pc, ge, i, y, NPU_DT_F32, om, i)) < 0)
		return -1;
	if (m->x.zp) {
		if ((c = frozen_row(pc, ge, m, 0)) < 0)
			return -1;
		a[0] = npu_gv_node(y);
		a[1] = npu_gv_node(c);
		snprintf(name, sizeof name, "%s_zp", npu_gedit_node(ge, i)->name);
		if ((y = call(pc, ge, i, name, "aten.add.Tensor", a, 2, NPU_DT_F32,
			      om, i)) < 0)
			return -1;
	}
	if (r >= 0) {
		a[0] = npu_gv_node(y);
		a[1] = npu_gv_node(r);
		snprintf(name, sizeof name, "%s_wzp", npu_gedit_node(ge, i)->name);
		if ((y = call(pc, ge, i, name, "aten.add.Tensor", a, 2, NPU_DT_F32,
			      om, i)) < 0)
			return -1;
	}
	if (m->w.scales) {
		if ((c = frozen_row(pc, ge, m, 1)) < 0)
			return -1;
		a[0] = npu_gv_node(y);
		a[1] = npu_gv_node(c);
		snprintf(name, sizeof name, "%s_scale", npu_gedit_node(ge, i)->name);
		if ((y = call(pc, ge, i, name, "aten.mul.Tensor", a, 2, NPU_DT_F32,
			      om, i)) < 0)
			return -1;
	} else if ((y = scalar_op(pc, ge, i, y, "aten.mul.Scalar", "scale", 1,
				  m->x.scale * m->w.scale, 0, om, i)) < 0) {
		return -1;
	}
	if (m->bias >= 0) {
		a[0] = npu_gv_node(y);
		a[1] = npu_gv_node(m->bias);
		snprintf(name, sizeof name, "%s_bias", npu_gedit_node(ge, i)->name);
		if ((y = call(pc, ge, i, name, "aten.add.Tensor", a, 2, NPU_DT_F32,
			      om, i)) < 0)
			return -1;
	}
	npu_gedit_replace_uses(ge, i, y);
	npu_gedit_kill(ge, i);
	/* the float transpose of the weight goes with it (so its
	 * dequantize is not lowered for nothing) */
	if (m->wview >= 0 && !npu_gedit_users(ge, m->wview, &u))
		npu_gedit_kill(ge, m->wview);
	return 0;
}

/* Tries every pattern of quant.def at node i. */
static int match_node(pass_cx *pc, npu_gedit *ge, int i)
{
	const npu_gnode *n = npu_gedit_node(ge, i);
	char why[256], name[128], nodes[512];
	qmatch m;
	int r = 0;

	for (int p = 0; p < NQPAT && r == 0; p++)
		if (qpats[p].anchor == n->aop)
			r = try_pat(pc, ge, i, &qpats[p], &m, why, sizeof why);
	if (r == 0)
		return 0;
	snprintf(nodes, sizeof nodes, "%s", n->name);
	tail_name(ge, &m, name, sizeof name, nodes, sizeof nodes);
	if (r == 2)
		return pass_note(pc, nodes, "fell back %s at %s: %s; the matmul "
				 "runs in float on dequantized operands",
				 name, n->name, why);
	if (pass_log(pc, nodes, "matched %s at %s: %s x %s as int8 x int8 -> "
		     "int32 on the array (M=%lld N=%lld K=%lld)%s, z_x=%lld "
		     "corrected by %s%s, %s scale in the epilogue",
		     name, n->name, npu_gedit_node(ge, m.x.node)->name,
		     npu_gedit_node(ge, m.w.node)->name, (long long)m.M,
		     (long long)m.N, (long long)m.K,
		     m.shift ? ", uint8 x shifted by -128" : "",
		     (long long)m.x.zp,
		     m.x.zp ? "precomputed column sums" : "nothing (zero)",
		     m.w.zp ? ", z_w by row sums of x" : "",
		     m.w.scales ? "per-channel" : "per-tensor") < 0)
		return -1;
	return rewrite(pc, ge, &m);
}

/* quantize / dequantize left over -> elementwise ops (top of the file). */
static int lower_qdq(pass_cx *pc, npu_gedit *ge, int i)
{
	const npu_gnode *n = npu_gedit_node(ge, i);
	const npu_gmeta *om = tmeta(ge, i), *im;
	const int *u;
	qparm q;
	int y, quant = n->aop == NPU_AOP_QUANTIZE;

	if (!npu_gedit_users(ge, i, &u))
		return 0;       /* dead: dce removes it */
	if (qparams(ge, i, &q) < 0 || !om || !(im = tmeta(ge, q.src)))
		return pass_note(pc, n->name, "%s stays a host call: tensor "
				 "parameters or a non-float32 result", n->name);
	if (quant ? im->dtype != NPU_DT_F32 || !qint(om->dtype)
		  : om->dtype != NPU_DT_F32 || !qint(im->dtype))
		return pass_note(pc, n->name, "%s stays a host call: %s to %s",
				 n->name, npu_dtype_name(im->dtype),
				 npu_dtype_name(om->dtype));
	if (quant) {
		if ((y = scalar_op(pc, ge, i, q.src, "aten.mul.Scalar", "inv", 1,
				   1.0 / q.scale, 0, om, i)) < 0 ||
		    (y = scalar_op(pc, ge, i, y, "aten.round.default", "round", 0,
				   0, 0, om, i)) < 0 ||
		    (q.zp && (y = scalar_op(pc, ge, i, y, "aten.add.Scalar", "zp",
					    1, (double)q.zp, 0, om, i)) < 0) ||
		    (y = scalar_op(pc, ge, i, y, "aten.clamp.default", "clamp", 2,
				   (double)q.qmin, (double)q.qmax, om, i)) < 0 ||
		    (y = cast(pc, ge, i, y, om->dtype, om, i)) < 0)
			return -1;
	} else {
		if ((y = cast(pc, ge, i, q.src, NPU_DT_F32, om, i)) < 0 ||
		    (q.zp && (y = scalar_op(pc, ge, i, y, "aten.sub.Scalar", "zp",
					    1, (double)q.zp, 0, om, i)) < 0) ||
		    (y = scalar_op(pc, ge, i, y, "aten.mul.Scalar", "scale", 1,
				   q.scale, 0, om, i)) < 0)
			return -1;
	}
	npu_gedit_replace_uses(ge, i, y);
	npu_gedit_kill(ge, i);
	return pass_log(pc, n->name, "lowered %s as elementwise ops: %s", n->name,
			quant ? "clamp(round(x * f32(1/s)) + z, qmin, qmax), cast"
			      : "(f32(q) - z) * f32(s)");
}

int pass_quant(pass_cx *pc, npu_gedit *ge)
{
	int n0 = npu_gedit_n(ge);

	for (int i = 0; i < n0; i++)
		if (!npu_gedit_dead(ge, i) &&
		    npu_gedit_node(ge, i)->op == NPU_GOP_CALL_FUNCTION &&
		    match_node(pc, ge, i) < 0)
			return -1;
	for (int i = 0; i < n0; i++) {
		int aop = npu_gedit_node(ge, i)->aop;
		if (!npu_gedit_dead(ge, i) &&
		    (aop == NPU_AOP_QUANTIZE || aop == NPU_AOP_DEQUANTIZE) &&
		    lower_qdq(pc, ge, i) < 0)
			return -1;
	}
	return 0;
}
