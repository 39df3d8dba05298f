/*
 * pass_rope.c - rotary position embeddings with rotate_half's negation
 * folded into the products.
 *
 * Hugging Face models write RoPE as
 *
 *     y = x * cos + cat(-x2, x1) * sin        x1, x2: x's halves along d
 *
 * which fusion lowers as two kernels: one for the rotated copy (the
 * negation and the cat, stored), one for the products reading it back;
 * each pays a DRAM latency on both sides for 16-32 KiB of work.  Per
 * half the same values are
 *
 *     y1 = x1 * cos1 - x2 * sin1              y2 = x2 * cos2 + x1 * sin2
 *     y  = cat(y1, y2)
 *
 * (IEEE: (-a) * b is -(a * b) and p + -q is p - q, exactly, in every
 * float type; the sums keep their operand order), so the products, the
 * sum and the cat go into one kernel that reads x's halves and stores
 * each half of y.  A scalar multiply of y whose only input is y (the
 * attention scale of q) is done on each half first, x * s being the
 * same per element.  The halves of cos and sin are slices that cleanup
 * folds into constants when they are frozen (one slice for both halves
 * when they are equal: halves_same).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/pass_int.h"
#include "isa/isa.h"

static const npu_gmeta *tmeta(npu_gedit *ge, int i)
{
	const npu_gnode *n = i >= 0 ? npu_gedit_node(ge, i) : NULL;

	return n && n->nmeta == 1 && !n->multi &&
	       n->meta[0].kind == NPU_GM_TENSOR ? &n->meta[0] : NULL;
}

static int argnode(const npu_gnode *n, int i)
{
	return i >= 0 && i < n->nargs && n->args[i].kind == NPU_GV_NODE ?
	       n->args[i].u.node : -1;
}

/* Live node i is a call of aop with exactly one user. */
static int one_use(npu_gedit *ge, int i, int aop)
{
	const int *u;

	return i >= 0 && !npu_gedit_dead(ge, i) &&
	       npu_gedit_node(ge, i)->op == NPU_GOP_CALL_FUNCTION &&
	       npu_gedit_node(ge, i)->aop == aop && !npu_gedit_node(ge, i)->nkwargs &&
	       npu_gedit_users(ge, i, &u) == 1;
}

/* A slice of x along d from a to b (with to_end, b or past it), step
 * 1: 0, else -1. */
static int slice_of(npu_gedit *ge, int i, int *x, int d, int64_t a, int64_t b,
		    int to_end)
{
	const npu_gnode *n = npu_gedit_node(ge, i);

	if (n->aop != NPU_AOP_SLICE || n->nargs < 4 || n->nkwargs ||
	    (*x = argnode(n, 0)) < 0 || n->args[1].kind != NPU_GV_INT ||
	    n->args[1].u.i != d || n->args[2].kind != NPU_GV_INT ||
	    n->args[2].u.i != a || n->args[3].kind != NPU_GV_INT ||
	    (to_end ? n->args[3].u.i < b : n->args[3].u.i != b) ||
	    (n->nargs > 4 && (n->args[4].kind != NPU_GV_INT || n->args[4].u.i != 1)))
		return -1;
	return 0;
}

/* The pattern at add node i. */
typedef struct rope {
	int add, p, q, cat, neg, lo, hi;   /* nodes */
	int x, c, s;                       /* x, cos, sin */
	int d;                             /* the rotated dim (the last) */
	int64_t h;                         /* half its length */
	int scale;                         /* the scalar multiply after, -1 */
	double sv;
} rope;

/* Shapes: x, cos, sin and the sum of one rank, dtype and last dim 2h;
 * x and the sum the same shape (cos and sin may broadcast). */
static int rope_shapes(npu_gedit *ge, rope *r)
{
	const npu_gmeta *mx = tmeta(ge, r->x), *ma = tmeta(ge, r->add);
	const npu_gmeta *mc = tmeta(ge, r->c), *ms = tmeta(ge, r->s);
	int64_t sx[NPU_MAX_DIMS], sa[NPU_MAX_DIMS], sc[NPU_MAX_DIMS], ss[NPU_MAX_DIMS];

	if (!mx || !ma || !mc || !ms || mx->ndim < 1 ||
	    npu_gmeta_shape(mx, sx) < 0 || npu_gmeta_shape(ma, sa) < 0 ||
	    npu_gmeta_shape(mc, sc) < 0 || npu_gmeta_shape(ms, ss) < 0 ||
	    (mx->dtype != NPU_DT_F32 && mx->dtype != NPU_DT_BF16 &&
	     mx->dtype != NPU_DT_F16) || ma->ndim != mx->ndim ||
	    mc->ndim != mx->ndim || ms->ndim != mx->ndim ||
	    ma->dtype != mx->dtype || mc->dtype != mx->dtype ||
	    ms->dtype != mx->dtype || memcmp(sx, sa, sizeof(int64_t) * (size_t)mx->ndim))
		return -1;
	r->d = mx->ndim - 1;
	r->h = sx[r->d] / 2;
	if (r->h < 1 || sx[r->d] != 2 * r->h || sc[r->d] != 2 * r->h ||
	    ss[r->d] != 2 * r->h)
		return -1;
	return 0;
}

/* mul node m = a * b with a == want (either order): the other operand. */
static int mul_other(npu_gedit *ge, int m, int want)
{
	const npu_gnode *n = npu_gedit_node(ge, m);
	int a = argnode(n, 0), b = argnode(n, 1);

	if (n->nargs != 2 || a < 0 || b < 0)
		return -1;
	return a == want ? b : b == want ? a : -1;
}

/* The multiply after the sum by a number alone (mul.Scalar, or
 * mul.Tensor by a float or int), when it is the sum's only user. */
static void rope_scale(npu_gedit *ge, rope *r)
{
	const int *u;
	const npu_gnode *n;

	r->scale = -1;
	if (npu_gedit_users(ge, r->add, &u) != 1)
		return;
	n = npu_gedit_node(ge, u[0]);
	if ((n->aop != NPU_AOP_MUL_SCALAR && n->aop != NPU_AOP_MUL_TENSOR) ||
	    n->nargs != 2 || n->nkwargs || argnode(n, 0) != r->add ||
	    !tmeta(ge, u[0]) || tmeta(ge, u[0])->dtype != tmeta(ge, r->add)->dtype)
		return;
	if (n->args[1].kind == NPU_GV_FLOAT)
		r->sv = n->args[1].u.f;
	else if (n->args[1].kind == NPU_GV_INT)
		r->sv = (double)n->args[1].u.i;
	else
		return;
	r->scale = u[0];
}

/* add node i = x * cos + cat(-x2, x1) * sin (the products in either
 * order, each used once): 0 with r filled, else -1. */
static int rope_match(npu_gedit *ge, int i, rope *r)
{
	const npu_gnode *n = npu_gedit_node(ge, i), *cat;
	const npu_gval *list;
	int x1 = -1, x2 = -1;

	if (n->aop != NPU_AOP_ADD_TENSOR || n->nargs != 2 || n->nkwargs)
		return -1;
	r->add = i;
	for (int k = 0; k < 2; k++) {
		r->q = argnode(n, k);
		r->p = argnode(n, 1 - k);
		if (!one_use(ge, r->q, NPU_AOP_MUL_TENSOR) ||
		    !one_use(ge, r->p, NPU_AOP_MUL_TENSOR))
			continue;
		for (int j = 0; j < 2; j++) {
			r->cat = argnode(npu_gedit_node(ge, r->q), j);
			r->s = argnode(npu_gedit_node(ge, r->q), 1 - j);
			if (!one_use(ge, r->cat, NPU_AOP_CAT))
				continue;
			cat = npu_gedit_node(ge, r->cat);
			list = &cat->args[0];
			if (cat->nargs != 2 || list->kind != NPU_GV_LIST ||
			    list->u.list.n != 2 || cat->args[1].kind != NPU_GV_INT ||
			    list->u.list.v[0].kind != NPU_GV_NODE ||
			    list->u.list.v[1].kind != NPU_GV_NODE)
				continue;
			r->neg = list->u.list.v[0].u.node;
			r->lo = list->u.list.v[1].u.node;
			if (!one_use(ge, r->neg, NPU_AOP_NEG) ||
			    (r->hi = argnode(npu_gedit_node(ge, r->neg), 0)) < 0)
				continue;
			/* x is the first product's other operand's source */
			if (npu_gedit_node(ge, r->lo)->aop != NPU_AOP_SLICE ||
			    (r->x = argnode(npu_gedit_node(ge, r->lo), 0)) < 0 ||
			    (r->c = mul_other(ge, r->p, r->x)) < 0 ||
			    rope_shapes(ge, r) < 0 ||
			    (cat->args[1].u.i != r->d && cat->args[1].u.i != -1) ||
			    slice_of(ge, r->lo, &x1, r->d, 0, r->h, 0) < 0 ||
			    slice_of(ge, r->hi, &x2, r->d, r->h, 2 * r->h, 1) < 0 ||
			    x1 != r->x || x2 != r->x ||
			    tmeta(ge, r->lo)->dtype != tmeta(ge, r->x)->dtype)
				continue;
			rope_scale(ge, r);
			return 0;
		}
	}
	return -1;
}

/* A call of target on args before the sum, shaped like node shape_of
 * with its dim d cut to the half h, named after the sum with sfx. */
static int half_node(pass_cx *pc, npu_gedit *ge, const rope *r, const char *sfx,
		     const char *target, const npu_gval *args, int nargs, int shape_of)
{
	const npu_gmeta *m = tmeta(ge, shape_of);
	npu_gmeta mt = { 0 };
	int64_t s[NPU_MAX_DIMS];
	char name[256];
	int idx;

	npu_gmeta_shape(m, s);
	s[r->d] = r->h;
	npu_gmeta_set(&mt, m->dtype, m->ndim, s);
	snprintf(name, sizeof name, "%s_%s", npu_gedit_node(ge, r->add)->name, sfx);
	idx = pass_add_call(pc, ge, r->add, name, target, args, nargs, &mt, r->add);
	npu_gmeta_clear(&mt);
	return idx;
}

/* A call of target on two operands (nodes, or b < 0: the number bv),
 * shaped like node shape_of's half (last dim h), before anchor. */
static int half_call(pass_cx *pc, npu_gedit *ge, const rope *r, const char *sfx,
		     const char *target, int a, int b, double bv, int shape_of)
{
	npu_gval args[2] = { npu_gv_node(a), b >= 0 ? npu_gv_node(b) : npu_gv_float(bv) };

	return half_node(pc, ge, r, sfx, target, args, 2, shape_of);
}

/* slice(v, d, a, a + h) before the sum. */
static int half_slice(pass_cx *pc, npu_gedit *ge, const rope *r, int v, int64_t a,
		      const char *sfx)
{
	npu_gval args[4] = { npu_gv_node(v), npu_gv_int(r->d), npu_gv_int(a),
			     npu_gv_int(a + r->h) };

	return half_node(pc, ge, r, sfx, "aten.slice.Tensor", args, 4, v);
}

/*
 * Are the two halves of frozen value v along the last dim the same (the
 * angles of HF's RoPE, cat(freqs, freqs))?  Then one slice serves both
 * halves: the kernel reads two constants instead of four, each a load
 * that holds an engine through the DRAM latency.
 */
static int halves_same(pass_cx *pc, npu_gedit *ge, int v, int64_t h)
{
	const npu_reftensor *t = pass_frozen(pc, ge, v);
	int64_t n;

	if (!t || t->ndim < 1 || t->shape[t->ndim - 1] != 2 * h)
		return 0;
	n = npu_reftensor_numel(t);
	for (int64_t i = 0; i < n; i += 2 * h)
		if (memcmp(t->data + i, t->data + i + h, (size_t)h * sizeof *t->data))
			return 0;
	return 1;
}

/* The rewrite (rope_match's r): y1, y2 and their cat replace the sum
 * (and the scale after it). */
static int rope_rewrite(pass_cx *pc, npu_gedit *ge, const rope *r)
{
	int c1, c2, s1, s2, p1, q1, p2, q2, y1, y2, y, last;
	int csame = halves_same(pc, ge, r->c, r->h), ssame = halves_same(pc, ge, r->s, r->h);
	npu_gval args[2];
	const npu_gmeta *m = tmeta(ge, r->add);
	char name[256];

	if ((c1 = half_slice(pc, ge, r, r->c, 0, "cos1")) < 0 ||
	    (c2 = csame ? c1 : half_slice(pc, ge, r, r->c, r->h, "cos2")) < 0 ||
	    (s1 = half_slice(pc, ge, r, r->s, 0, "sin1")) < 0 ||
	    (s2 = ssame ? s1 : half_slice(pc, ge, r, r->s, r->h, "sin2")) < 0 ||
	    (p1 = half_call(pc, ge, r, "xc1", "aten.mul.Tensor", r->lo, c1, 0, r->add)) < 0 ||
	    (q1 = half_call(pc, ge, r, "xs1", "aten.mul.Tensor", r->hi, s1, 0, r->add)) < 0 ||
	    (y1 = half_call(pc, ge, r, "lo", "aten.sub.Tensor", p1, q1, 0, r->add)) < 0 ||
	    (p2 = half_call(pc, ge, r, "xc2", "aten.mul.Tensor", r->hi, c2, 0, r->add)) < 0 ||
	    (q2 = half_call(pc, ge, r, "xs2", "aten.mul.Tensor", r->lo, s2, 0, r->add)) < 0 ||
	    (y2 = half_call(pc, ge, r, "hi", "aten.add.Tensor", p2, q2, 0, r->add)) < 0)
		return -1;
	if (r->scale >= 0 &&
	    ((y1 = half_call(pc, ge, r, "lo_s", "aten.mul.Scalar", y1, -1, r->sv, r->add)) < 0 ||
	     (y2 = half_call(pc, ge, r, "hi_s", "aten.mul.Scalar", y2, -1, r->sv, r->add)) < 0))
		return -1;
	last = r->scale >= 0 ? r->scale : r->add;
	m = tmeta(ge, last);
	args[0].kind = NPU_GV_LIST;
	if (!(args[0].u.list.v = calloc(2, sizeof *args[0].u.list.v)))
		return npu_errf(pc->e, "out of memory");
	args[0].u.list.n = 2;
	args[0].u.list.v[0] = npu_gv_node(y1);
	args[0].u.list.v[1] = npu_gv_node(y2);
	args[1] = npu_gv_int(r->d);
	snprintf(name, sizeof name, "%s_cat", npu_gedit_node(ge, r->add)->name);
	y = pass_add_call(pc, ge, r->add, name, "aten.cat.default", args, 2, m, last);
	npu_gval_clear(&args[0]);
	if (y < 0)
		return -1;
	npu_gedit_replace_uses(ge, last, y);
	if (r->scale >= 0)
		npu_gedit_kill(ge, r->scale);
	npu_gedit_kill(ge, r->add);
	npu_gedit_kill(ge, r->p);
	npu_gedit_kill(ge, r->q);
	npu_gedit_kill(ge, r->cat);
	npu_gedit_kill(ge, r->neg);
	return pass_log(pc, npu_gedit_node(ge, r->add)->name,
			"%s: rotate_half's negation folded into the products, one half each%s",
			npu_gedit_node(ge, r->add)->name,
			r->scale >= 0 ? ", with the scale after it" : "");
}

int pass_rope(pass_cx *pc, npu_gedit *ge)
{
	int n = npu_gedit_n(ge);

	for (int i = 0; i < n; i++) {
		rope r;
		if (npu_gedit_dead(ge, i) ||
		    npu_gedit_node(ge, i)->op != NPU_GOP_CALL_FUNCTION ||
		    rope_match(ge, i, &r) < 0)
			continue;
		if (rope_rewrite(pc, ge, &r) < 0)
			return -1;
	}
	return 0;
}
