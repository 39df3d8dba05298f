/*
 * pass_decomp.c - decomposition of composite ops: an interpreter for the
 * expressions of compiler/decomp.def (the syntax is described there).
 *
 * Evaluating an expression builds nodes: each call becomes a new node
 * placed just before the composite, with its meta inferred from its
 * operands (the few rules below cover the ops the table uses) and the
 * composite's provenance.  A call whose target is itself in the table is
 * expanded on the spot rather than built and revisited, which keeps the
 * new nodes in dependency order.  The last node of each output is
 * checked against the composite's recorded meta before any use is
 * rewired, so a table mistake leaves the op in place (with the reason in
 * the log) instead of producing a wrong graph.
 *
 * A bf16 or f16 composite is expanded in fp32, its half operands
 * converted first and each result converted back (expand_result):
 * PyTorch computes it in the opmath type and rounds once, which a chain
 * of bf16 ops would not reproduce.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/kir.h"
#include "compiler/pass_int.h"
#include "compiler/ref.h"
#include "isa/isa.h"

typedef struct dentry {
	int aop;
	const char *target, *params, *when, *outs;
} dentry;

static const dentry dtab[] = {
#define NPU_DECOMP(id, target, params, when, outs) \
	{ NPU_AOP_##id, target, params, when, outs },
#include "compiler/decomp.def"
#undef NPU_DECOMP
};
#define NDECOMP ((int)(sizeof dtab / sizeof dtab[0]))

#define MAX_PARAMS 12

typedef struct bind {
	char name[32];
	npu_gval v;                /* owned */
	int given;                 /* from the node, not the default */
	npu_gval dflt;             /* NONE when no default */
} bind;

typedef struct dcx {
	pass_cx *pc;
	npu_gedit *ge;
	int site;                  /* the composite node */
	int made;                  /* nodes built */
	int depth;
	int opmath;                /* a bf16/f16 composite: computed in fp32 */
	char why[200];             /* why an expansion failed */
} dcx;

typedef struct scope {
	bind b[MAX_PARAMS];
	int n;
} scope;

/* aop's entry; none for an op lowered natively, unless its entry's
 * "when" is "!" (decomp.def) */
static const dentry *find_entry(pass_cx *pc, int aop)
{
	int native = aop >= 0 && pc->o->native && pc->o->native(pc->o->native_ctx, aop);

	for (int i = 0; aop >= 0 && i < NDECOMP; i++)
		if (dtab[i].aop == aop)
			return native && strcmp(dtab[i].when, "!") ? NULL : &dtab[i];
	return NULL;
}

static void scope_free(scope *s)
{
	for (int i = 0; i < s->n; i++) {
		npu_gval_clear(&s->b[i].v);
		npu_gval_clear(&s->b[i].dflt);
	}
	s->n = 0;
}

static int fail(dcx *d, const char *fmt, const char *arg)
{
	if (!d->why[0])
		snprintf(d->why, sizeof d->why, fmt, arg);
	return -1;
}

/* ---- lexing ------------------------------------------------------ */

typedef struct lex {
	const char *p;
} lex;

static void skip(lex *l)
{
	while (isspace((unsigned char)*l->p))
		l->p++;
}

static int accept(lex *l, char c)
{
	skip(l);
	if (*l->p != c)
		return 0;
	l->p++;
	return 1;
}

static int ident(lex *l, char *buf, size_t n)
{
	size_t k = 0;

	skip(l);
	while ((isalnum((unsigned char)*l->p) || *l->p == '_' || *l->p == '.') &&
	       k + 1 < n)
		buf[k++] = *l->p++;
	buf[k] = 0;
	return k ? 0 : -1;
}

/* A literal from the params list ("1", "-1", "none", "false"). */
static int literal(const char *s, npu_gval *v)
{
	char *end;

	memset(v, 0, sizeof *v);
	if (!strcmp(s, "none"))
		return 0;
	if (!strcmp(s, "true") || !strcmp(s, "false")) {
		*v = npu_gv_bool(s[0] == 't');
		return 0;
	}
	if (strpbrk(s, ".e")) {
		*v = npu_gv_float(strtod(s, &end));
		return *end ? -1 : 0;
	}
	*v = npu_gv_int(strtoll(s, &end, 10));
	return *end ? -1 : 0;
}

/* An int or a list of one or two ints as two (a pooling size); 0 when
 * v is neither. */
static int ints2(const npu_gval *v, int64_t *out)
{
	if (v->kind == NPU_GV_INT) {
		out[0] = out[1] = v->u.i;
		return 1;
	}
	if (v->kind != NPU_GV_LIST || v->u.list.n < 1 || v->u.list.n > 2)
		return 0;
	for (int i = 0; i < v->u.list.n; i++)
		if (v->u.list.v[i].kind != NPU_GV_INT)
			return 0;
	out[0] = v->u.list.v[0].u.i;
	out[1] = v->u.list.v[v->u.list.n - 1].u.i;
	return 1;
}

/* A list of at most NPU_MAX_DIMS ints into out, *n of them; 0 when v
 * is not one. */
static int ints_of(const npu_gval *v, int64_t *out, int *n)
{
	if (v->kind != NPU_GV_LIST || v->u.list.n > NPU_MAX_DIMS)
		return 0;
	for (int i = 0; i < v->u.list.n; i++) {
		if (v->u.list.v[i].kind != NPU_GV_INT)
			return 0;
		out[i] = v->u.list.v[i].u.i;
	}
	*n = v->u.list.n;
	return 1;
}

/* ---- meta inference ---------------------------------------------- */

static int is_num(const npu_gval *v, double x)
{
	return (v->kind == NPU_GV_INT && v->u.i == x) ||
	       (v->kind == NPU_GV_FLOAT && v->u.f == x);
}

/* A number argument's value in *x; 0 when v is no number. */
static int is_number(const npu_gval *v, double *x)
{
	if (v->kind == NPU_GV_INT)
		*x = (double)v->u.i;
	else if (v->kind == NPU_GV_FLOAT)
		*x = v->u.f;
	else
		return 0;
	return 1;
}

/* Is v a list of n ints, each at least lo? */
static int ints_ge(const npu_gval *v, int n, int64_t lo)
{
	if (v->kind != NPU_GV_LIST || v->u.list.n != n)
		return 0;
	for (int i = 0; i < n; i++)
		if (v->u.list.v[i].kind != NPU_GV_INT || v->u.list.v[i].u.i < lo)
			return 0;
	return 1;
}

static int ints_are(const npu_gval *v, int n, int64_t k)
{
	if (v->kind != NPU_GV_LIST || v->u.list.n != n)
		return 0;
	for (int i = 0; i < n; i++)
		if (v->u.list.v[i].kind != NPU_GV_INT ||
		    (k >= 0 && v->u.list.v[i].u.i != k) || v->u.list.v[i].u.i < 1)
			return 0;
	return 1;
}


static int dt_rank(int dt)
{
	switch (dt) {
	case NPU_DT_F64: return 5;
	case NPU_DT_F32: return 4;
	case NPU_DT_BF16: case NPU_DT_F16: return 3;
	case NPU_DT_BOOL: return 0;
	default: return 1;
	}
}

static const npu_gmeta *node_meta(dcx *d, const npu_gval *v)
{
	const npu_gnode *n;

	if (v->kind != NPU_GV_NODE)
		return NULL;
	n = npu_gedit_node(d->ge, v->u.node);
	return n->nmeta && !n->multi && n->meta[0].kind == NPU_GM_TENSOR ?
	       &n->meta[0] : NULL;
}

/* Broadcast of the tensor operands; dtype by a simplified promotion
 * (enough for the table: float tensors, scalars of any kind). */
/* comparisons and logical ops: a bool result whatever the operands */
static int is_predicate(int aop)
{
	switch (aop) {
	case NPU_AOP_EQ_TENSOR: case NPU_AOP_EQ_SCALAR: case NPU_AOP_NE_TENSOR:
	case NPU_AOP_NE_SCALAR: case NPU_AOP_LT_TENSOR: case NPU_AOP_LT_SCALAR:
	case NPU_AOP_LE_TENSOR: case NPU_AOP_LE_SCALAR: case NPU_AOP_GT_TENSOR:
	case NPU_AOP_GT_SCALAR: case NPU_AOP_GE_TENSOR: case NPU_AOP_GE_SCALAR:
	case NPU_AOP_LOGICAL_AND: case NPU_AOP_LOGICAL_OR: case NPU_AOP_LOGICAL_XOR:
	case NPU_AOP_LOGICAL_NOT: case NPU_AOP_ISNAN: case NPU_AOP_ISINF:
		return 1;
	default:
		return 0;
	}
}

/*
 * A dynamic graph's metas keep their symbolic dims (dyn.c specialized
 * them: .v holds the hint, .sym the expression).  The rules below that
 * take them work at the hints and give a result dim its operand's
 * expression where it is that dim (elementwise, reductions); the others
 * refuse symbolic shapes, so no node of a fixed size stands in for one
 * of run-time size.
 */
static int hint_shape(const npu_gmeta *m, int64_t *shape)
{
	if (!m || m->kind != NPU_GM_TENSOR)
		return -1;
	for (int i = 0; i < m->ndim; i++)
		shape[i] = m->shape[i].v;
	return m->ndim;
}

/* Result dim o takes src's expression, if it has one and o is its size. */
static int sym_dim(dcx *d, npu_gmeta *m, int o, const npu_gdim *src)
{
	if (!src->sym || m->shape[o].sym || m->shape[o].v != src->v)
		return 0;
	if (!(m->shape[o].sym = strdup(src->sym)))
		return npu_errf(d->pc->e, "out of memory");
	return 0;
}

static int infer_ew(dcx *d, int aop, const npu_gval *a, int na, npu_gmeta *m)
{
	int64_t shp[NPU_MAX_DIMS], s[NPU_MAX_DIMS];
	int nd = 0, dt = -1, fscalar = 0;

	for (int i = 0; i < na; i++) {
		const npu_gmeta *am = node_meta(d, &a[i]);
		int k;
		if (!am) {
			fscalar |= a[i].kind == NPU_GV_FLOAT;
			continue;
		}
		if ((k = hint_shape(am, s)) < 0)
			return fail(d, "%s", "no shape");
		for (int j = 0; j < k; j++) {         /* align right */
			int o = nd > k ? nd - k + j : j;
			if (k > nd) {
				memmove(shp + (k - nd), shp, (size_t)nd * sizeof *shp);
				for (int t = 0; t < k - nd; t++)
					shp[t] = 1;
				nd = k;
				o = j;
			}
			if (shp[o] == 1)
				shp[o] = s[j];
			else if (s[j] != 1 && s[j] != shp[o])
				return fail(d, "%s", "shapes do not broadcast");
		}
		/* where's condition does not take part in the promotion */
		if ((aop != NPU_AOP_WHERE || i > 0) &&
		    (dt < 0 || dt_rank(am->dtype) > dt_rank(dt)))
			dt = am->dtype;
	}
	if (dt < 0)
		return fail(d, "%s", "no tensor operand");
	if (fscalar && dt_rank(dt) < 3)
		dt = NPU_DT_F32;
	if (dt_rank(dt) < 3 && aop != NPU_AOP_ADD_TENSOR &&
	    aop != NPU_AOP_MUL_TENSOR && aop != NPU_AOP_SUB_TENSOR &&
	    aop != NPU_AOP_NEG && aop != NPU_AOP_CLAMP && aop != NPU_AOP_WHERE &&
	    aop != NPU_AOP_MAXIMUM && aop != NPU_AOP_MINIMUM && aop != NPU_AOP_ABS)
		dt = NPU_DT_F32;          /* sqrt, exp, div of integers */
	npu_gmeta_set(m, is_predicate(aop) ? NPU_DT_BOOL : dt, nd, shp);
	/* each dim's expression from an operand of that size there */
	for (int i = 0; i < na; i++) {
		const npu_gmeta *am = node_meta(d, &a[i]);
		for (int j = 0; am && j < am->ndim; j++)
			if (sym_dim(d, m, nd - am->ndim + j, &am->shape[j]) < 0)
				return -1;
	}
	return 0;
}

static int infer_reduce(dcx *d, const npu_gval *a, int na, const npu_gkwarg *kw,
			int nkw, npu_gmeta *m)
{
	const npu_gmeta *in = na ? node_meta(d, &a[0]) : NULL;
	int64_t shp[NPU_MAX_DIMS], out[NPU_MAX_DIMS];
	int red[NPU_MAX_DIMS] = { 0 }, nd, keep = 0, k = 0;
	const npu_gval *dims = na > 1 ? &a[1] : NULL;

	if (na > 2 && a[2].kind == NPU_GV_BOOL)
		keep = a[2].u.b;
	for (int i = 0; i < nkw; i++)
		if (!strcmp(kw[i].key, "keepdim") && kw[i].val.kind == NPU_GV_BOOL)
			keep = kw[i].val.u.b;
	if (!in || (nd = hint_shape(in, shp)) < 0)
		return fail(d, "%s", "no shape");
	if (!dims || dims->kind == NPU_GV_NONE ||
	    (dims->kind == NPU_GV_LIST && !dims->u.list.n))
		for (int i = 0; i < nd; i++)
			red[i] = 1;
	else if (dims->kind == NPU_GV_INT && dims->u.i >= -nd && dims->u.i < nd)
		red[dims->u.i < 0 ? dims->u.i + nd : dims->u.i] = 1;
	else if (dims->kind == NPU_GV_LIST)
		for (int i = 0; i < dims->u.list.n; i++) {
			int64_t x = dims->u.list.v[i].u.i;
			if (dims->u.list.v[i].kind != NPU_GV_INT || x < -nd || x >= nd)
				return fail(d, "%s", "bad reduction dim");
			red[x < 0 ? x + nd : x] = 1;
		}
	else
		return fail(d, "%s", "bad reduction dims");
	for (int i = 0; i < nd; i++)
		if (!red[i])
			out[k++] = shp[i];
		else if (keep)
			out[k++] = 1;
	npu_gmeta_set(m, in->dtype, k, out);
	for (int i = 0, o = 0; i < nd; i++) {
		if (!red[i] && sym_dim(d, m, o, &in->shape[i]) < 0)
			return -1;
		o += !red[i] || keep;
	}
	return 0;
}

static int infer_view(dcx *d, const npu_gval *a, int na, npu_gmeta *m)
{
	const npu_gmeta *in = na ? node_meta(d, &a[0]) : NULL;
	int64_t shp[NPU_MAX_DIMS], out[NPU_MAX_DIMS], numel = 1, known = 1;
	int nd, k, infer = -1;

	if (!in || (nd = npu_gmeta_shape(in, shp)) < 0 || na < 2 ||
	    a[1].kind != NPU_GV_LIST || a[1].u.list.n > NPU_MAX_DIMS)
		return fail(d, "%s", "view of unknown shape");
	for (int i = 0; i < nd; i++)
		numel *= shp[i];
	k = a[1].u.list.n;
	for (int i = 0; i < k; i++) {
		out[i] = a[1].u.list.v[i].u.i;
		if (out[i] == -1)
			infer = i;
		else
			known *= out[i];
	}
	if (infer >= 0)
		out[infer] = known ? numel / known : 0;
	npu_gmeta_set(m, in->dtype, k, out);
	return 0;
}

/* mm [m, k] x [k, n], or bmm [b, m, k] x [b, k, n] (r = 3) */
static int infer_mm(dcx *d, const npu_gval *a, int na, int r, npu_gmeta *m)
{
	const npu_gmeta *x = na > 1 ? node_meta(d, &a[0]) : NULL;
	const npu_gmeta *y = na > 1 ? node_meta(d, &a[1]) : NULL;
	int64_t sx[NPU_MAX_DIMS], sy[NPU_MAX_DIMS], o[3];

	if (!x || !y || npu_gmeta_shape(x, sx) != r ||
	    npu_gmeta_shape(y, sy) != r || sx[r - 1] != sy[r - 2] ||
	    (r == 3 && sx[0] != sy[0]))
		return fail(d, "%s", "mm of unknown shapes");
	o[0] = sx[0];
	o[r - 2] = sx[r - 2];
	o[r - 1] = sy[r - 1];
	npu_gmeta_set(m, x->dtype, r, o);
	return 0;
}

static int infer_permute(dcx *d, const npu_gval *a, int na, npu_gmeta *m)
{
	const npu_gmeta *x = na > 1 ? node_meta(d, &a[0]) : NULL;
	int64_t s[NPU_MAX_DIMS], o[NPU_MAX_DIMS];
	int nd, seen = 0;

	if (!x || (nd = npu_gmeta_shape(x, s)) < 0 || a[1].kind != NPU_GV_LIST ||
	    a[1].u.list.n != nd)
		return fail(d, "%s", "permute of unknown shape");
	for (int i = 0; i < nd; i++) {
		int64_t k = a[1].u.list.v[i].u.i;
		if (a[1].u.list.v[i].kind != NPU_GV_INT || k < 0 || k >= nd ||
		    seen & 1 << k)
			return fail(d, "%s", "bad permutation");
		seen |= 1 << k;
		o[i] = s[k];
	}
	npu_gmeta_set(m, x->dtype, nd, o);
	return 0;
}

/* 2-d or 3-d: (input, weight, bias, stride, padding, dilation,
 * transposed, output_padding, groups). */
static int infer_conv(dcx *d, const npu_gval *a, int na, npu_gmeta *m)
{
	const npu_gmeta *x = na > 1 ? node_meta(d, &a[0]) : NULL;
	const npu_gmeta *w = na > 1 ? node_meta(d, &a[1]) : NULL;
	int64_t sx[NPU_MAX_DIMS], sw[NPU_MAX_DIMS], o[5], g;
	int tr, nd = x ? npu_gmeta_shape(x, sx) : -1, ns = nd - 2;

	if (!x || !w || na < 9 || (nd != 4 && nd != 5) ||
	    npu_gmeta_shape(w, sw) != nd || !ints_are(&a[3], ns, -1) ||
	    !ints_ge(&a[4], ns, 0) || !ints_are(&a[5], ns, -1) || a[6].kind != NPU_GV_BOOL ||
	    a[8].kind != NPU_GV_INT || (g = a[8].u.i) < 1 ||
	    ((tr = a[6].u.b) && !ints_ge(&a[7], ns, 0)) ||
	    (tr ? sx[1] != sw[0] : sx[1] != sw[1] * g))
		return fail(d, "%s", "convolution of unknown shapes");
	o[0] = sx[0];
	o[1] = tr ? sw[1] * g : sw[0];
	for (int i = 0; i < ns; i++) {
		int64_t st = a[3].u.list.v[i].u.i, dl = a[5].u.list.v[i].u.i;
		int64_t p = a[4].u.list.v[i].u.i, span;
		if (tr) {
			o[2 + i] = (sx[2 + i] - 1) * st - 2 * p + dl * (sw[2 + i] - 1) +
				   a[7].u.list.v[i].u.i + 1;
			continue;
		}
		span = sx[2 + i] + 2 * p - dl * (sw[2 + i] - 1) - 1;
		if (span < 0)
			return fail(d, "%s", "convolution window larger than its input");
		o[2 + i] = span / st + 1;
	}
	npu_gmeta_set(m, x->dtype, nd, o);
	return 0;
}

/* index.Tensor with one 1-d index tensor after Nones (@idxlist): the
 * indexed dim takes the index's length. */
static int infer_index(dcx *d, const npu_gval *a, int na, npu_gmeta *m)
{
	const npu_gmeta *x = na > 1 ? node_meta(d, &a[0]) : NULL, *ix;
	int64_t s[NPU_MAX_DIMS];
	int nd, k;

	if (!x || (nd = npu_gmeta_shape(x, s)) < 1 || a[1].kind != NPU_GV_LIST ||
	    (k = a[1].u.list.n - 1) < 0 || k >= nd ||
	    !(ix = node_meta(d, &a[1].u.list.v[k])) || ix->ndim != 1 || ix->shape[0].sym)
		return fail(d, "%s", "index of unknown shape");
	for (int i = 0; i < k; i++)
		if (a[1].u.list.v[i].kind != NPU_GV_NONE)
			return fail(d, "%s", "index of unknown shape");
	s[k] = ix->shape[0].v;
	npu_gmeta_set(m, x->dtype, nd, s);
	return 0;
}

/* _to_copy(x, dtype=dt): x's shape in dt. */
static int infer_cast(dcx *d, const npu_gval *a, int na, const npu_gkwarg *kw,
		      int nkw, npu_gmeta *m)
{
	const npu_gmeta *x = na ? node_meta(d, &a[0]) : NULL;
	int64_t s[NPU_MAX_DIMS];
	int nd, dt = x ? x->dtype : -1;

	for (int i = 0; i < nkw; i++)
		if (!strcmp(kw[i].key, "dtype") && kw[i].val.kind == NPU_GV_DTYPE)
			dt = kw[i].val.u.dtype;
	if (!x || (nd = npu_gmeta_shape(x, s)) < 0)
		return fail(d, "%s", "conversion of unknown shape");
	npu_gmeta_set(m, dt, nd, s);
	return 0;
}

/* slice.Tensor(x, dim, start, end[, step]), bounds clamped. */
static int infer_slice(dcx *d, const npu_gval *a, int na, npu_gmeta *m)
{
	const npu_gmeta *x = na > 3 ? node_meta(d, &a[0]) : NULL;
	int64_t s[NPU_MAX_DIMS], dm, lo, hi, step = na > 4 && a[4].kind == NPU_GV_INT ? a[4].u.i : 1;
	int nd;

	if (!x || (nd = npu_gmeta_shape(x, s)) < 1 || a[1].kind != NPU_GV_INT ||
	    a[2].kind != NPU_GV_INT || a[3].kind != NPU_GV_INT ||
	    (dm = a[1].u.i) < 0 || dm >= nd || step < 1 ||
	    (na > 4 && a[4].kind != NPU_GV_INT))
		return fail(d, "%s", "slice of unknown shape");
	lo = a[2].u.i < 0 ? 0 : a[2].u.i > s[dm] ? s[dm] : a[2].u.i;
	hi = a[3].u.i < lo ? lo : a[3].u.i > s[dm] ? s[dm] : a[3].u.i;
	s[dm] = (hi - lo + step - 1) / step;
	npu_gmeta_set(m, x->dtype, nd, s);
	return 0;
}

/* select.int(x, dim, index): x's shape without dim */
static int infer_select(dcx *d, const npu_gval *a, int na, npu_gmeta *m)
{
	const npu_gmeta *x = na > 2 ? node_meta(d, &a[0]) : NULL;
	int64_t s[NPU_MAX_DIMS], dm;
	int nd;

	if (!x || (nd = npu_gmeta_shape(x, s)) < 1 || a[1].kind != NPU_GV_INT ||
	    a[2].kind != NPU_GV_INT || (dm = a[1].u.i) < -nd || dm >= nd)
		return fail(d, "%s", "select of unknown shape");
	dm = dm < 0 ? dm + nd : dm;
	if (a[2].u.i < -s[dm] || a[2].u.i >= s[dm])
		return fail(d, "%s", "select: index out of range");
	memmove(s + dm, s + dm + 1, (size_t)(nd - dm - 1) * sizeof *s);
	npu_gmeta_set(m, x->dtype, nd - 1, s);
	return 0;
}

/* constant_pad_nd(x, pad): pairs of pads from the last dim; expand(x,
 * sizes): -1 keeps a dim; flip(x, dims): x's shape. */
static int infer_move(dcx *d, int aop, const npu_gval *a, int na, npu_gmeta *m)
{
	const npu_gmeta *x = na > 1 ? node_meta(d, &a[0]) : NULL;
	int64_t s[NPU_MAX_DIMS], o[NPU_MAX_DIMS];
	int nd, k = na > 1 && a[1].kind == NPU_GV_LIST ? a[1].u.list.n : -1;

	if (!x || (nd = npu_gmeta_shape(x, s)) < 0 || k < 0)
		return fail(d, "%s", "a pad, expand or flip of unknown shape");
	for (int i = 0; i < k; i++)
		if (a[1].u.list.v[i].kind != NPU_GV_INT)
			return fail(d, "%s", "a pad, expand or flip of unknown sizes");
	if (aop == NPU_AOP_PAD) {
		if (k % 2 || k / 2 > nd)
			return fail(d, "%s", "a pad of more dims than its input's");
		for (int i = 0; i < k / 2; i++) {
			s[nd - 1 - i] += a[1].u.list.v[2 * i].u.i + a[1].u.list.v[2 * i + 1].u.i;
			if (s[nd - 1 - i] < 0)
				return fail(d, "%s", "a pad past its input");
		}
	} else if (aop == NPU_AOP_EXPAND) {
		if (k < nd || k > NPU_MAX_DIMS)
			return fail(d, "%s", "an expand to fewer dims");
		for (int i = 0; i < k; i++) {
			int j = i - (k - nd);
			int64_t v = a[1].u.list.v[i].u.i;
			o[i] = v == -1 && j >= 0 ? s[j] : v;
			if (o[i] < 0 || (j >= 0 && s[j] != 1 && s[j] != o[i]))
				return fail(d, "%s", "an expand of another size");
		}
		memcpy(s, o, (size_t)k * sizeof *s);
		nd = k;
	}
	npu_gmeta_set(m, x->dtype, nd, s);
	return 0;
}

/* full_like(x, v) without keywords (a dtype would change the meta):
 * x's shape and dtype. */
static int infer_like(dcx *d, const npu_gval *a, int na, int nkw, npu_gmeta *m)
{
	const npu_gmeta *x = na > 1 ? node_meta(d, &a[0]) : NULL;
	int64_t s[NPU_MAX_DIMS];
	int nd;

	if (!x || nkw || (nd = npu_gmeta_shape(x, s)) < 0)
		return fail(d, "%s", "full_like of unknown shape");
	npu_gmeta_set(m, x->dtype, nd, s);
	return 0;
}

/* cat.default([tensors], dim): their shapes summed along dim (@topk's) */
static int infer_cat(dcx *d, const npu_gval *a, int na, npu_gmeta *m)
{
	int64_t s[NPU_MAX_DIMS], t[NPU_MAX_DIMS], dm;
	int nd = -1, dt = -1;

	if (na != 2 || a[0].kind != NPU_GV_LIST || a[1].kind != NPU_GV_INT ||
	    a[0].u.list.n < 1)
		return fail(d, "%s", "cat of another form");
	for (int i = 0; i < a[0].u.list.n; i++) {
		const npu_gmeta *x = node_meta(d, &a[0].u.list.v[i]);
		int k = x ? npu_gmeta_shape(x, i ? t : s) : -1;
		if (k < 1 || (i && k != nd))
			return fail(d, "%s", "cat of unknown or unequal ranks");
		dm = a[1].u.i < 0 ? a[1].u.i + k : a[1].u.i;
		if (dm < 0 || dm >= k)
			return fail(d, "%s", "cat: bad dim");
		if (i)
			s[dm] += t[dm];
		nd = k;
		dt = x->dtype;
	}
	npu_gmeta_set(m, dt, nd, s);
	return 0;
}

/* unsqueeze(x, dim) and squeeze.dim(x, dim): x's shape with a 1 put in
 * at dim, or dim's 1 taken out (a dim that is not 1 stays) */
static int infer_squeeze(dcx *d, int aop, const npu_gval *a, int na, npu_gmeta *m)
{
	const npu_gmeta *x = na == 2 ? node_meta(d, &a[0]) : NULL;
	int64_t s[NPU_MAX_DIMS + 1], dm;
	int nd = x ? npu_gmeta_shape(x, s) : -1, up = aop == NPU_AOP_UNSQUEEZE;

	if (nd < 0 || a[1].kind != NPU_GV_INT || nd + up > NPU_MAX_DIMS)
		return fail(d, "%s", "squeeze or unsqueeze of another form");
	dm = a[1].u.i < 0 ? a[1].u.i + nd + up : a[1].u.i;
	if (dm < 0 || dm >= nd + up)
		return fail(d, "%s", "squeeze or unsqueeze: bad dim");
	if (up) {
		memmove(s + dm + 1, s + dm, (size_t)(nd - dm) * sizeof *s);
		s[dm] = 1;
		nd++;
	} else if (s[dm] == 1) {
		memmove(s + dm, s + dm + 1, (size_t)(nd - dm - 1) * sizeof *s);
		nd--;
	}
	npu_gmeta_set(m, x->dtype, nd, s);
	return 0;
}

/* avg_pool2d(x, kernel, stride, padding, ceil_mode, ...) and
 * _adaptive_avg_pool2d(x, output_size): x's shape with its last two dims
 * pooled */
static int infer_pool(dcx *d, int aop, const npu_gval *a, int na, npu_gmeta *m)
{
	const npu_gmeta *x = na >= 2 ? node_meta(d, &a[0]) : NULL;
	int64_t s[NPU_MAX_DIMS], k[2], st[2], pd[2] = { 0, 0 };
	int nd = x ? npu_gmeta_shape(x, s) : -1, ceil = 0;

	if (nd < 3 || !ints2(&a[1], k))
		return fail(d, "%s", "pooling of another form");
	if (aop == NPU_AOP_AVG_POOL2D) {
		if (na < 3 || a[2].kind == NPU_GV_NONE ||
		    (a[2].kind == NPU_GV_LIST && !a[2].u.list.n))
			st[0] = k[0], st[1] = k[1];
		else if (!ints2(&a[2], st))
			return fail(d, "%s", "pooling of another form");
		if ((na > 3 && !ints2(&a[3], pd)) ||
		    (na > 4 && a[4].kind != NPU_GV_BOOL && a[4].kind != NPU_GV_INT))
			return fail(d, "%s", "pooling of another form");
		ceil = na > 4 && (a[4].kind == NPU_GV_BOOL ? a[4].u.b : a[4].u.i != 0);
		for (int i = 0; i < 2; i++)
			if (st[i] <= 0 ||
			    (k[i] = npu_ref_pool_len(s[nd - 2 + i], k[i], st[i], pd[i], 1, ceil)) <= 0)
				return fail(d, "%s", "a pool larger than its input");
	}
	s[nd - 2] = k[0];
	s[nd - 1] = k[1];
	npu_gmeta_set(m, x->dtype, nd, s);
	return 0;
}

/* arange.default(end): [end] int64 (@iota's) */
static int infer_arange(dcx *d, const npu_gval *a, int na, npu_gmeta *m)
{
	int64_t n;

	if (na != 1 || a[0].kind != NPU_GV_INT || a[0].u.i < 0)
		return fail(d, "%s", "arange of another form");
	n = a[0].u.i;
	npu_gmeta_set(m, NPU_DT_I64, 1, &n);
	return 0;
}

/* The meta of a result of a[0]'s dtype and a[si]'s shape (3 args at
 * least), or fails with why. */
static int infer_from(dcx *d, const npu_gval *a, int na, int si, const char *why,
		      npu_gmeta *m)
{
	const npu_gmeta *x = na > 2 ? node_meta(d, &a[0]) : NULL;
	const npu_gmeta *sm = x ? node_meta(d, &a[si]) : NULL;
	int64_t s[NPU_MAX_DIMS];
	int nd;

	if (!sm || (nd = npu_gmeta_shape(sm, s)) < 0)
		return fail(d, "%s", why);
	npu_gmeta_set(m, x->dtype, nd, s);
	return 0;
}

static int infer(dcx *d, int aop, const npu_gval *a, int na,
		 const npu_gkwarg *kw, int nkw, npu_gmeta *m)
{
	if (aop < 0)
		return fail(d, "%s", "unknown op in decomp.def");
	switch (aop) {
	case NPU_AOP_VIEW: case NPU_AOP_RESHAPE:
		return infer_view(d, a, na, m);
	case NPU_AOP_MM:
		return infer_mm(d, a, na, 2, m);
	case NPU_AOP_BMM:
		return infer_mm(d, a, na, 3, m);
	case NPU_AOP_PERMUTE:
		return infer_permute(d, a, na, m);
	case NPU_AOP_CONV:
		return infer_conv(d, a, na, m);
	case NPU_AOP_INDEX:
		return infer_index(d, a, na, m);
	case NPU_AOP_GATHER:            /* (x, dim, index): index's shape, x's type */
		return infer_from(d, a, na, 2, "gather of unknown shape", m);
	case NPU_AOP_EMBEDDING: {       /* (w, indices): indices' shape + [D] */
		const npu_gmeta *w = na > 1 ? node_meta(d, &a[0]) : NULL;
		const npu_gmeta *ix = w ? node_meta(d, &a[1]) : NULL;
		int64_t s[NPU_MAX_DIMS], ws[NPU_MAX_DIMS];
		int nd;
		if (!ix || npu_gmeta_shape(w, ws) != 2 || (nd = npu_gmeta_shape(ix, s)) < 0 ||
		    nd + 1 > NPU_MAX_DIMS)
			return fail(d, "%s", "embedding of unknown shape");
		s[nd] = ws[1];
		npu_gmeta_set(m, w->dtype, nd + 1, s);
		return 0;
	}
	case NPU_AOP_SLICE:
		return infer_slice(d, a, na, m);
	case NPU_AOP_TO_COPY: case NPU_AOP_CLONE:
		return infer_cast(d, a, na, kw, nkw, m);
	case NPU_AOP_SUM_DIM:           /* bool and integers sum in int64 */
		if (infer_reduce(d, a, na, kw, nkw, m) < 0)
			return -1;
		if (m->dtype == NPU_DT_BOOL || npu_kir_isint(m->dtype))
			m->dtype = NPU_DT_I64;
		return 0;
	case NPU_AOP_MEAN_DIM: case NPU_AOP_AMAX: case NPU_AOP_AMIN:
		return infer_reduce(d, a, na, kw, nkw, m);
	case NPU_AOP_ANY_DIM:           /* (x, dim, keepdim): bool */
		if (infer_reduce(d, a, na, kw, nkw, m) < 0)
			return -1;
		m->dtype = NPU_DT_BOOL;
		return 0;
	case NPU_AOP_SELECT:            /* (x, dim, index): x without dim */
		return infer_select(d, a, na, m);
	case NPU_AOP_VAR:       /* kept when the target reduces it natively */
		return infer_reduce(d, a, na > 2 ? 2 : na, kw, nkw, m);
	case NPU_AOP_FULL_LIKE:
		return infer_like(d, a, na, nkw, m);
	case NPU_AOP_ARANGE:
		return infer_arange(d, a, na, m);
	case NPU_AOP_UNSQUEEZE: case NPU_AOP_SQUEEZE_DIM:
		return infer_squeeze(d, aop, a, na, m);
	case NPU_AOP_AVG_POOL2D: case NPU_AOP_ADAPTIVE_AVG_POOL2D:
		return infer_pool(d, aop, a, na, m);
	case NPU_AOP_CAT:
		return infer_cat(d, a, na, m);
	case NPU_AOP_PAD: case NPU_AOP_EXPAND: case NPU_AOP_FLIP:
		return infer_move(d, aop, a, na, m);
	case NPU_AOP_CUMSUM: case NPU_AOP_CUMPROD: { /* x's shape; bool and integers in int64 */
		const npu_gmeta *x = na > 0 ? node_meta(d, &a[0]) : NULL;
		int64_t s[NPU_MAX_DIMS];
		int nd;
		if (!x || (nd = npu_gmeta_shape(x, s)) < 0 || nkw)
			return fail(d, "%s", "cumsum of unknown shape, or with a dtype");
		npu_gmeta_set(m, npu_kir_isint(x->dtype) || x->dtype == NPU_DT_BOOL ||
			      x->dtype == NPU_DT_I64 ? NPU_DT_I64 : x->dtype, nd, s);
		return 0;
	}
	case NPU_AOP_AS_STRIDED:        /* (x, size, stride, storage_offset) */
	case NPU_AOP_RESHAPE_ALIAS: {
		const npu_gmeta *x = na > 2 ? node_meta(d, &a[0]) : NULL;
		int64_t s[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
		int nd = -1, ns = -1;
		if (!x || !ints_of(&a[1], s, &nd) || !ints_of(&a[2], st, &ns) || nd != ns)
			return fail(d, "%s", "as_strided of another form");
		npu_gmeta_set(m, x->dtype, nd, s);
		for (int k = 0; k < nd; k++)
			m->stride[k].v = st[k];
		m->storage_offset.v = na > 3 && a[3].kind == NPU_GV_INT ? a[3].u.i : 0;
		return 0;
	}
	case NPU_AOP_INDEX_PUT:         /* self's shape and dtype */
		return infer_from(d, a, na, 0, "index_put of unknown shape", m);
	}
	if (npu_aoptab[aop].cat == NPU_ACAT_ELEMWISE)
		return infer_ew(d, aop, a, na, m);
	return fail(d, "no meta rule for %s", npu_aoptab[aop].target);
}

/* ---- evaluation -------------------------------------------------- */

static int eval(dcx *d, lex *l, scope *s, npu_gval *out);
static int expand(dcx *d, const dentry *en, int out_k, const npu_gval *a,
		  int na, const npu_gkwarg *kw, int nkw, npu_gval *res);

/* Whether tensor t combined with number c keeps t's type: not for a
 * bool t (a number promotes it), nor an integer t and a float c
 * (`mul.Tensor(x > 0, 1.0)` is how decomp.def makes a float of a bool). */
static int same_type(dcx *d, const npu_gval *t, const npu_gval *c)
{
	const npu_gmeta *m = t->kind == NPU_GV_NODE ? node_meta(d, t) : NULL;

	if (!m)
		return 1;
	return m->dtype != NPU_DT_BOOL &&
	       !((npu_kir_isint(m->dtype) || m->dtype == NPU_DT_I64) &&
		 c->kind == NPU_GV_FLOAT);
}

/* The identities of decomp.def's header: none operands, *1, +0, -0, /1
 * (where they keep the type).  Returns 1 with *res set when one applies. */
static int simplify(dcx *d, int aop, const npu_gval *a, int na, npu_gval *res)
{
	int bin = aop == NPU_AOP_ADD_TENSOR || aop == NPU_AOP_SUB_TENSOR ||
		  aop == NPU_AOP_MUL_TENSOR || aop == NPU_AOP_DIV_TENSOR ||
		  aop == NPU_AOP_MAXIMUM || aop == NPU_AOP_MINIMUM;
	int mul = aop == NPU_AOP_MUL_TENSOR || aop == NPU_AOP_DIV_TENSOR;
	int add = aop == NPU_AOP_ADD_TENSOR || aop == NPU_AOP_SUB_TENSOR;

	if (!bin || na != 2)
		return 0;
	if (a[1].kind == NPU_GV_NONE ||
	    (((mul && is_num(&a[1], 1)) || (add && is_num(&a[1], 0))) &&
	     same_type(d, &a[0], &a[1])))
		return npu_gval_copy(res, &a[0]) < 0 ? -1 : 1;
	if ((a[0].kind == NPU_GV_NONE && aop != NPU_AOP_SUB_TENSOR &&
	     aop != NPU_AOP_DIV_TENSOR) ||
	    (((aop == NPU_AOP_MUL_TENSOR && is_num(&a[0], 1)) ||
	      (aop == NPU_AOP_ADD_TENSOR && is_num(&a[0], 0))) &&
	     same_type(d, &a[1], &a[0])))
		return npu_gval_copy(res, &a[1]) < 0 ? -1 : 1;
	return 0;
}

/* Builds one call node (or expands it, when composite itself). */
static int make_call(dcx *d, const char *target, npu_gval *a, int na,
		     npu_gkwarg *kw, int nkw, npu_gval *res)
{
	int aop = npu_aop_find(target), idx, r;
	const dentry *en;
	npu_gnode n;
	npu_gmeta m = { 0 };
	const npu_gnode *site = npu_gedit_node(d->ge, d->site);
	char name[96];

	if ((r = simplify(d, aop, a, na, res)) != 0)
		return r < 0 ? npu_errf(d->pc->e, "out of memory") : 0;
	if (aop == NPU_AOP_MEAN_DIM || aop == NPU_AOP_SUM_DIM || aop == NPU_AOP_AMAX)
		if (na > 1 && a[1].kind == NPU_GV_NONE) {
			a[1].kind = NPU_GV_LIST;   /* all dims: [] */
			a[1].u.list.v = NULL;
			a[1].u.list.n = 0;
		}
	if ((en = find_entry(d->pc, aop))) {
		/* a composite inside another one that cannot be expanded
		 * (index_put by integer indices inside index_add) stays as
		 * it is, as it would on its own; nodes its attempt built
		 * have no users and go with DCE */
		if ((r = expand(d, en, 0, a, na, kw, nkw, res)) >= 0 || !d->why[0])
			return r;
		d->why[0] = 0;
	}
	if (infer(d, aop, a, na, kw, nkw, &m) < 0) {
		npu_gmeta_clear(&m);
		return -1;
	}
	snprintf(name, sizeof name, "%s", target + (strncmp(target, "aten.", 5)
						   ? 0 : 5));
	*strchrnul(name, '.') = 0;
	r = npu_gnode_make(&n, name, target, a, na, &m, site);
	npu_gmeta_clear(&m);
	if (r < 0)
		return npu_errf(d->pc->e, "out of memory");
	if (nkw) {
		n.kwargs = calloc((size_t)nkw, sizeof *n.kwargs);
		for (int i = 0; n.kwargs && i < nkw; i++) {
			n.nkwargs++;
			n.kwargs[i].key = strdup(kw[i].key);
			if (!n.kwargs[i].key ||
			    npu_gval_copy(&n.kwargs[i].val, &kw[i].val) < 0)
				break;
		}
		if (n.nkwargs != nkw || !n.kwargs[nkw - 1].key) {
			npu_gnode_clear(&n);
			return npu_errf(d->pc->e, "out of memory");
		}
	}
	if ((idx = npu_gedit_add(d->ge, d->site, &n, d->pc->e)) < 0)
		return -1;
	if (pass_prov(d->pc, npu_gedit_node(d->ge, idx)->name,
		      npu_gedit_node(d->ge, d->site)->name) < 0)
		return -1;
	d->made++;
	*res = npu_gv_node(idx);
	return 0;
}

static void free_args(npu_gval *a, int na, npu_gkwarg *kw, int nkw)
{
	for (int i = 0; i < na; i++)
		npu_gval_clear(&a[i]);
	for (int i = 0; i < nkw; i++) {
		free(kw[i].key);
		npu_gval_clear(&kw[i].val);
	}
}

/* "(a, b, key=v)" after a call's name. */
static int eval_args(dcx *d, lex *l, scope *s, npu_gval *a, int *na,
		     npu_gkwarg *kw, int *nkw)
{
	*na = *nkw = 0;
	if (!accept(l, '('))
		return fail(d, "%s", "decomp.def: '(' expected");
	if (accept(l, ')'))
		return 0;
	do {
		const char *save = l->p;
		char key[32];
		if (*na >= MAX_PARAMS || *nkw >= MAX_PARAMS)
			return fail(d, "%s", "decomp.def: too many arguments");
		if (!ident(l, key, sizeof key) && accept(l, '=')) {
			if (!(kw[*nkw].key = strdup(key)))
				return npu_errf(d->pc->e, "out of memory");
			(*nkw)++;
			if (eval(d, l, s, &kw[*nkw - 1].val) < 0)
				return -1;
			continue;
		}
		l->p = save;
		memset(&a[*na], 0, sizeof a[*na]);
		(*na)++;
		if (eval(d, l, s, &a[*na - 1]) < 0)
			return -1;
	} while (accept(l, ','));
	return accept(l, ')') ? 0 : fail(d, "%s", "decomp.def: ')' expected");
}

/* A call of target on (a, b); b a node or a number. */
static int call2(dcx *d, const char *target, npu_gval a, npu_gval b, npu_gval *res)
{
	npu_gval v[2] = { a, b };

	return make_call(d, target, v, 2, NULL, 0, res);
}

static int call1(dcx *d, const char *target, npu_gval a, npu_gval *res)
{
	return make_call(d, target, &a, 1, NULL, 0, res);
}

static int call3(dcx *d, const char *target, npu_gval a, npu_gval b, npu_gval c,
		 npu_gval *res)
{
	npu_gval v[3] = { a, b, c };

	return make_call(d, target, v, 3, NULL, 0, res);
}

/*
 * @atan(x) from the native ops: t = |x| reduced to [0, 1] by 1/t (atan t
 * = pi/2 - atan(1/t)), then past tan(pi/8) by w = (u - 1) / (u + 1)
 * (atan u = pi/4 + atan w), so that |w| <= 0.4143 and the Taylor series
 * to w^17 is within 3e-9 of atan w; the sign put back.  NaN propagates,
 * +-inf gives +-pi/2.  (Nodes are built once each and shared.)
 */
static int build_atan(dcx *d, npu_gval x, npu_gval *res)
{
	npu_gval t, big, inv, u, mid, um, up, wm, w, z, p, q, r, neg, lt;

	if (call1(d, "aten.abs.default", x, &t) ||
	    call2(d, "aten.gt.Scalar", t, npu_gv_float(1), &big) ||
	    call1(d, "aten.reciprocal.default", t, &inv) ||
	    call3(d, "aten.where.self", big, inv, t, &u) ||
	    call2(d, "aten.gt.Scalar", u, npu_gv_float(0.41421356237309503), &mid) ||
	    call2(d, "aten.sub.Tensor", u, npu_gv_float(1), &um) ||
	    call2(d, "aten.add.Tensor", u, npu_gv_float(1), &up) ||
	    call2(d, "aten.div.Tensor", um, up, &wm) ||
	    call3(d, "aten.where.self", mid, wm, u, &w) ||
	    call2(d, "aten.mul.Tensor", w, w, &z))
		return -1;
	/* w * sum over k of (-1)^k z^k / (2k + 1), k = 0..8, by Horner */
	p = npu_gv_float(1.0 / 17);
	for (int k = 7; k >= 0; k--)
		if (call2(d, "aten.mul.Tensor", z, p, &q) ||
		    call2(d, "aten.add.Tensor", q,
			  npu_gv_float((k % 2 ? -1.0 : 1.0) / (2 * k + 1)), &p))
			return -1;
	if (call2(d, "aten.mul.Tensor", p, w, &r) ||
	    /* past tan(pi/8): pi/4 + r; past 1: pi/2 - that */
	    call2(d, "aten.add.Tensor", r, npu_gv_float(0.78539816339744831), &up) ||
	    call3(d, "aten.where.self", mid, up, r, &r) ||
	    call1(d, "aten.neg.default", r, &neg) ||
	    call2(d, "aten.add.Tensor", neg, npu_gv_float(1.5707963267948966), &up) ||
	    call3(d, "aten.where.self", big, up, r, &r) ||
	    call2(d, "aten.lt.Scalar", x, npu_gv_float(0), &lt) ||
	    call1(d, "aten.neg.default", r, &neg) ||
	    call3(d, "aten.where.self", lt, neg, r, res))
		return -1;
	return 0;
}

#define F32_ONLY "not float32 (integers and half types stay whole)"

/* @f32(x), @bool(x): x itself when its dtype is dt, else the op stays
 * whole (one host call). */
static int of_dtype(dcx *d, const npu_gval *a, const npu_gmeta *x0, int dt,
		    npu_gval *res)
{
	if (!x0 || x0->dtype != dt)
		return fail(d, "%s", dt == NPU_DT_F32 ? F32_ONLY : "not bool (integers stay whole)");
	return npu_gval_copy(res, &a[0]) < 0 ? npu_errf(d->pc->e, "out of memory") : 0;
}

/* div.Tensor_mode and div.Scalar_mode on float32: a / b, trunc(a / b)
 * (PyTorch's trunc mode), or floor_divide(a, b) (its floor mode, which
 * decomp.def spells out); a scalar b becomes a full_like of a. */
static int build_divmode(dcx *d, npu_gval *a, int na, const npu_gmeta *x0,
			 npu_gval *res)
{
	const char *m = na > 2 && a[2].kind == NPU_GV_STR ? a[2].u.s : NULL;
	npu_gval q, b;

	if (na < 3 || (a[2].kind != NPU_GV_NONE && !m))
		return fail(d, "%s", "@divmode: bad operands");
	if (!x0 || x0->dtype != NPU_DT_F32)
		return fail(d, "%s", F32_ONLY);
	if (!m)
		return call2(d, "aten.div.Tensor", a[0], a[1], res);
	if (!strcmp(m, "trunc"))
		return call2(d, "aten.div.Tensor", a[0], a[1], &q) ||
		       call1(d, "aten.trunc.default", q, res) ? -1 : 0;
	if (strcmp(m, "floor"))
		return fail(d, "%s", "an unknown rounding mode");
	b = a[1];
	if (b.kind != NPU_GV_NODE &&
	    call2(d, "aten.full_like.default", a[0], a[1], &b))
		return -1;
	return call2(d, "aten.floor_divide.default", a[0], b, res);
}

/* 0 .. n-1 along dim `dm` of a shape (nd dims), as int64 [n, 1, ...]
 * (an arange, folded to a constant). */
static int build_iota(dcx *d, int nd, const int64_t *shp, int dm, npu_gval *res)
{
	int64_t vs[NPU_MAX_DIMS];
	npu_gval va[2];
	int r;

	va[0] = npu_gv_int(shp[dm]);
	if (make_call(d, "aten.arange.default", va, 1, NULL, 0, &va[0]) < 0)
		return -1;
	vs[0] = shp[dm];
	for (int i = 1; i < nd - dm; i++)
		vs[i] = 1;
	if (npu_gv_ints(&va[1], vs, nd - dm) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = make_call(d, "aten.view.default", va, 2, NULL, 0, res);
	npu_gval_clear(&va[1]);
	return r;
}

/* build_iota's numbers in float32: compared with an int64 index, as
 * PyTorch compares int64 with float. */
static int float_iota(dcx *d, int nd, const int64_t *shp, int dm, npu_gval *res)
{
	npu_gkwarg kw = { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = NPU_DT_F32 } };
	npu_gval io = { 0 };
	int r;

	if ((r = build_iota(d, nd, shp, dm, &io)) < 0)
		return r;
	r = make_call(d, "aten._to_copy.default", &io, 1, &kw, 1, res);
	npu_gval_clear(&io);
	return r;
}

/*
 * @scatval(x, dim, index, value): scatter.value with one index along dim
 * for every position of x's other dims (nll_loss's backward: a one-hot
 * of the targets), as where(fp32(iota along dim) == index, value, x).
 * The comparison runs in float, as PyTorch's would of int64 and float:
 * an index it accepts lies in [0, n) and compares exactly.  Fails
 * (keeping the op) for other index shapes.
 */
/* The index of a scatter along dim (a[1]) whose index (a[2], int64)
 * covers x's other dims whole: *dm the dim, *k the index's size along
 * it, shp x's shape.  0, or -1 (fail, keeping the op). */
static int scat_index(dcx *d, const npu_gval *a, int na, const npu_gmeta *x0,
		      int64_t *shp, int64_t *dm, int64_t *k)
{
	const npu_gmeta *im = na > 2 ? node_meta(d, &a[2]) : NULL;
	int64_t ish[NPU_MAX_DIMS];
	int nd = x0 ? npu_gmeta_shape(x0, shp) : -1;

	if (nd < 1 || a[1].kind != NPU_GV_INT || !im || im->dtype != NPU_DT_I64 ||
	    npu_gmeta_shape(im, ish) != nd || x0->dtype == NPU_DT_F64)
		return fail(d, "%s", "a scatter of another form");
	*dm = a[1].u.i < 0 ? a[1].u.i + nd : a[1].u.i;
	if (*dm < 0 || *dm >= nd)
		return fail(d, "%s", "a scatter of another form");
	for (int i = 0; i < nd; i++)
		if (i != *dm && ish[i] != shp[i])
			return fail(d, "%s", "a scatter whose index does not cover whole rows");
	*k = ish[*dm];
	return 0;
}

static int scatval(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	int64_t shp[NPU_MAX_DIMS], dm, k;
	npu_gval fio, hit, fill;

	if (na < 4)
		return fail(d, "%s", "a scatter of another form");
	if (scat_index(d, a, na, x0, shp, &dm, &k) < 0)
		return -1;
	if (k != 1 || (a[3].kind != NPU_GV_INT && a[3].kind != NPU_GV_FLOAT))
		return fail(d, "%s", "a scatter of more than one index per row");
	if (float_iota(d, x0->ndim, shp, (int)dm, &fio) < 0 ||
	    call2(d, "aten.eq.Tensor", fio, a[2], &hit) < 0 ||
	    call2(d, "aten.full_like.default", a[0], a[3], &fill) < 0)
		return -1;
	return call3(d, "aten.where.self", hit, fill, a[0], res);
}

static int copy_to(dcx *d, npu_gval *res, const npu_gval *v);
static int call_ints(dcx *d, const char *target, npu_gval x, const int64_t *v, int n,
		     npu_gval *res);
static int slice_of(dcx *d, npu_gval x, int dim, int64_t start, int64_t end, int64_t step,
		    npu_gval *res);

/* Tensor t (its own dtype and shape) as a folded constant, in *res. */
static int table_const(dcx *d, npu_reftensor *t, npu_gval *res)
{
	npu_gmeta m;
	int ni;

	npu_gmeta_set(&m, t->dtype, t->ndim, t->shape);
	if ((ni = pass_add_frozen(d->pc, d->ge, d->site, d->site, &m, t)) < 0) {
		npu_reftensor_free(t);
		return -1;
	}
	*res = npu_gv_node(ni);
	return 0;
}

/* *cur indexed along dim by table t (L positions): index.Tensor(cur,
 * [None, ..., t]), which the backend runs natively for constant tables
 * (rows copied in runs, the last dim gathered). */
static int index_by_table(dcx *d, npu_gval *cur, int dim, npu_reftensor *t)
{
	npu_gval l[2], next;
	int r;

	if (table_const(d, t, &next) < 0)
		return -1;
	l[0] = *cur;
	l[1].kind = NPU_GV_LIST;
	if (!(l[1].u.list.v = calloc((size_t)dim + 1, sizeof *l[1].u.list.v)))
		return npu_errf(d->pc->e, "out of memory");
	l[1].u.list.n = dim + 1;
	l[1].u.list.v[dim] = next;
	r = make_call(d, "aten.index.Tensor", l, 2, NULL, 0, &next);
	npu_gval_clear(&l[1]);
	if (r < 0)
		return -1;
	*cur = next;
	return 0;
}

/*
 * @padidx(x, padding, reflect): reflection_pad or replication_pad of
 * the last len(padding) / 2 dims (1.13's traces keep them whole) as one
 * index by a constant table a padded dim: output position o of a dim of
 * n with lo more before it reads o - lo mirrored about the edges
 * without repeating them (reflect) or clamped to them.  Fails, keeping
 * the op, for pads a mirror cannot fill (>= the size).
 */
static int padidx(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	int64_t shp[NPU_MAX_DIMS], pad[6];
	int nd = x0 ? npu_gmeta_shape(x0, shp) : -1, k = 0;
	npu_gval cur = na ? a[0] : npu_gv_int(0);

	if (nd >= 1 && na >= 3 && a[1].kind == NPU_GV_LIST && a[2].kind == NPU_GV_BOOL)
		k = a[1].u.list.n;
	if (k < 2 || k > 6 || k % 2 || k / 2 > nd)
		return fail(d, "%s", "a padding of another form");
	for (int i = 0; i < k; i++) {
		if (a[1].u.list.v[i].kind != NPU_GV_INT || a[1].u.list.v[i].u.i < 0)
			return fail(d, "%s", "a negative or symbolic padding");
		pad[i] = a[1].u.list.v[i].u.i;
	}
	for (int j = 0; j < k / 2; j++) {
		int dim = nd - 1 - j;
		int64_t n = shp[dim], lo = pad[2 * j], L = n + lo + pad[2 * j + 1];
		npu_reftensor t = { .ndim = -1 };
		if (L == n)
			continue;
		if (n < 1 || (a[2].u.b && (lo >= n || pad[2 * j + 1] >= n)))
			return fail(d, "%s", "a reflection padding past the size");
		if (npu_reftensor_alloc(&t, NPU_DT_I64, 1, &L, d->pc->e) < 0)
			return -1;
		for (int64_t o = 0; o < L; o++) {
			int64_t i = o - lo;
			if (a[2].u.b)
				i = n - 1 - llabs(n - 1 - llabs(i));
			t.data[o] = (double)(i < 0 ? 0 : i >= n ? n - 1 : i);
		}
		if (index_by_table(d, &cur, dim, &t) < 0)
			return -1;
	}
	return copy_to(d, res, &cur);
}

/*
 * *cur (of shape shp, nd dims) with each element of dim repeated s times
 * in place: viewed with a 1 after dim, times a folded [s, 1, ...] of ones
 * (exact for every value, NaN and -0 included: one broadcast elementwise
 * kernel), viewed back with dim s times longer; shp is updated.
 */
static int repeat_dim(dcx *d, npu_gval *cur, int64_t *shp, int nd, int dim, int64_t s,
		      int dt)
{
	int64_t vs[NPU_MAX_DIMS + 1], os[NPU_MAX_DIMS + 1];
	npu_reftensor t = { .ndim = -1 };
	npu_gval a[2], ones, v;
	int r;

	if (nd + 1 > NPU_MAX_DIMS)
		return fail(d, "%s", "too many dims");
	for (int i = 0, k = 0; i < nd; i++) {
		vs[k++] = shp[i];
		if (i == dim)
			vs[k++] = 1;
	}
	os[0] = s;
	for (int i = 1; i < nd - dim; i++)
		os[i] = 1;
	if (npu_reftensor_alloc(&t, dt, nd - dim, os, d->pc->e) < 0)
		return -1;
	for (int64_t i = 0; i < s; i++)
		t.data[i] = 1;
	if (table_const(d, &t, &ones) < 0)
		return -1;
	a[0] = *cur;
	if (npu_gv_ints(&a[1], vs, nd + 1) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = make_call(d, "aten.view.default", a, 2, NULL, 0, &v);
	npu_gval_clear(&a[1]);
	if (r < 0 || call2(d, "aten.mul.Tensor", v, ones, &v) < 0)
		return -1;
	shp[dim] *= s;
	a[0] = v;
	if (npu_gv_ints(&a[1], shp, nd) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = make_call(d, "aten.view.default", a, 2, NULL, 0, cur);
	npu_gval_clear(&a[1]);
	return r;
}

/* The output sizes o[] and scale factors sc[] (0 where not given) of an
 * upsampling of x0 (shape shp) over its last *k dims, from output_size
 * os or scale_factors sf; fails for forms it cannot tell. */
static int up_sizes(dcx *d, const npu_gval *os, const npu_gval *sf, const npu_gmeta *x0,
		    int64_t *shp, int64_t *o, double *sc, int *k)
{
	int nd = x0 ? npu_gmeta_shape(x0, shp) : -1;

	*k = os && os->kind == NPU_GV_LIST ? os->u.list.n :
	     sf && sf->kind == NPU_GV_LIST ? sf->u.list.n : 0;
	if (*k < 1 || *k > 3 || nd != *k + 2)
		return fail(d, "%s", "an upsampling of another form");
	for (int i = 0; i < *k; i++) {
		int64_t in = shp[2 + i];
		sc[i] = 0;
		if (os->kind == NPU_GV_LIST) {
			if (os->u.list.v[i].kind != NPU_GV_INT)
				return fail(d, "%s", "a symbolic output size");
			o[i] = os->u.list.v[i].u.i;
		} else if (!is_number(&sf->u.list.v[i], &sc[i]) || !(sc[i] > 0) ||
			   !(floor((double)in * sc[i]) <= 0x1p40)) {
			return fail(d, "%s", "a scale factor out of range");
		} else {
			o[i] = (int64_t)floor((double)in * sc[i]);
		}
		if (o[i] < 1 || in < 1 || o[i] > (1 << 24))
			return fail(d, "%s", "an empty or huge output size");
	}
	return 0;
}

/*
 * @upnear(x, output_size, scale_factors): nearest upsampling over the
 * last 1, 2 or 3 dims (1.13's traces keep upsample_nearest*d.vec) as
 * one index a resized dim by the table of npu_ref_nearest_src, the
 * reference's own rule (PyTorch's, in float32), or, when that table is
 * j / s for a whole factor s, each element repeated s times
 * (repeat_dim: one broadcast kernel, not a gather).  Fails, keeping
 * the op, for sizes it cannot tell.
 */
static int upnear(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	int64_t shp[NPU_MAX_DIMS], o[3];
	double sc[3];
	int nd, k;
	npu_gval cur = na ? a[0] : npu_gv_int(0);
	const npu_gval *os = na > 1 ? &a[1] : NULL, *sf = na > 2 ? &a[2] : NULL;

	if (up_sizes(d, os, sf, x0, shp, o, sc, &k) < 0)
		return -1;
	nd = k + 2;
	for (int i = k - 1; i >= 0; i--) {
		int64_t in = shp[2 + i], L = o[i], s = L / in;
		npu_reftensor t = { .ndim = -1 };
		int whole = L % in == 0;
		if (L == in && (os->kind == NPU_GV_LIST || sc[i] == 1))
			continue;
		if (npu_reftensor_alloc(&t, NPU_DT_I64, 1, &L, d->pc->e) < 0)
			return -1;
		for (int64_t j = 0; j < L; j++) {
			t.data[j] = (double)npu_ref_nearest_src(j, in, L, sc[i]);
			whole &= t.data[j] == (double)(j / s);
		}
		if (whole && x0->dtype != NPU_DT_F64 && x0->dtype != NPU_DT_I64) {
			npu_reftensor_free(&t);
			if (repeat_dim(d, &cur, shp, nd, 2 + i, s, x0->dtype) < 0)
				return -1;
			continue;
		}
		if (index_by_table(d, &cur, 2 + i, &t) < 0)
			return -1;
		shp[2 + i] = L;
	}
	return copy_to(d, res, &cur);
}

/* npu-base's figures, for the estimates below when the passes run
 * without a target (check_passes). */
static const npu_target est_base = {
	.mxu_rows = 128, .mxu_cols = 128, .vec_lanes = 128, .dma_engines = 4,
	.dma_bytes_per_cycle = 128, .dram_bytes_per_cycle = 1600, .dram_latency = 400,
	.dram_burst = 64, .host_bytes_per_cycle = 32, .host_latency = 2000,
	.host_flops_per_cycle = 20,
};

static const npu_target *est_target(const npu_target *t)
{
	return t ? t : &est_base;
}

/* A host call's cycles (docs/timing-model.md): its latency, the bytes
 * over the link and the flops at the host's rate. */
static double host_cycles(const npu_target *t, double bytes, double flops)
{
	return t->host_latency + bytes / t->host_bytes_per_cycle + flops / t->host_flops_per_cycle;
}

/*
 * Whether a resampling decomposed into kernels that wait on the DRAM
 * `waits` times one after another and move `gathered` single elements
 * by DMA gathers and `laned` through the vector lanes beats its host
 * call, which moves `bytes` and computes an output element a flop.
 * Fitted on npu-base and scaled by the target's figures: a wait is the
 * DRAM latency and 50 cycles; a gathered element 2.24 cycles over the
 * elements a cycle the DMA engines and the DRAM move in bursts (npu-base
 * 8: 0.28), a laned one 41 over the lanes (0.32).  A 1-d resize, three
 * kernels (two gathers by constant tables, a weighted sum) that wait six
 * times, of [2, 3, 7] to 12 columns took 2,612 cycles against the host
 * call's 2,068, of [8, 64, 512] to 1024 150 k against 126 k; an affine
 * grid (an elementwise kernel, a transposing copy: three waits) of 2 x 4
 * x 5 1,429 against 2,019, of 4 x 64 x 64 11.7 k against 7.7 k.  So on
 * npu-base the host keeps the resizes and the larger grids; a target
 * whose host is farther away (npu-edge) runs the small ones natively.
 */
static int resample_native(dcx *d, double waits, double gathered, double laned,
			   double bytes, double outs)
{
	const npu_target *t = est_target(d->pc->o->target);
	double bw = fmin(t->dram_bytes_per_cycle, t->dma_engines * t->dma_bytes_per_cycle);
	double nat = waits * (t->dram_latency + 50) + gathered * 2.24 * t->dram_burst / bw +
		     laned * 41.0 / t->vec_lanes;

	return nat <= host_cycles(t, bytes, outs);
}

/* A float32 constant of shape [n, 1, ..., 1] (nd dims) holding v[], which
 * broadcasts along the dim nd - 1 places before a tensor's last. */
static int column_const(dcx *d, const double *v, int64_t n, int nd, npu_gval *res)
{
	int64_t shp[NPU_MAX_DIMS];
	npu_reftensor t = { .ndim = -1 };

	shp[0] = n;
	for (int i = 1; i < nd; i++)
		shp[i] = 1;
	if (npu_reftensor_alloc(&t, NPU_DT_F32, nd, shp, d->pc->e) < 0)
		return -1;
	for (int64_t i = 0; i < n; i++)
		t.data[i] = (float)v[i];
	return table_const(d, &t, res);
}

/* One step of @uplin: *cur (shape shp, nd dims) resized along dim to L,
 * x[i0] * (1 - l) + x[i1] * l. */
static int lin_step(dcx *d, npu_gval *cur, int64_t *shp, int nd, int dim, int64_t L,
		    int align, double s)
{
	int64_t in = shp[dim];
	npu_reftensor t0 = { .ndim = -1 }, t1 = { .ndim = -1 };
	double *w = malloc(2 * (size_t)L * sizeof *w);
	npu_gval lo = *cur, hi = *cur, w0, w1;
	int r = w ? 0 : npu_errf(d->pc->e, "out of memory");

	if (!r && (npu_reftensor_alloc(&t0, NPU_DT_I64, 1, &L, d->pc->e) < 0 ||
		   npu_reftensor_alloc(&t1, NPU_DT_I64, 1, &L, d->pc->e) < 0))
		r = -1;
	for (int64_t j = 0; !r && j < L; j++) {
		int64_t i0, step;
		double lam;
		npu_ref_linear_src(j, in, L, align, s, &i0, &step, &lam);
		t0.data[j] = (double)i0;
		t1.data[j] = (double)(i0 + step);
		w[j] = 1 - lam;
		w[L + j] = lam;
	}
	if (!r && (column_const(d, w, L, nd - dim, &w0) < 0 ||
		   column_const(d, w + L, L, nd - dim, &w1) < 0))
		r = -1;
	free(w);
	if (r) {
		npu_reftensor_free(&t0);
		npu_reftensor_free(&t1);
		return -1;
	}
	if (index_by_table(d, &lo, dim, &t0) < 0) {
		npu_reftensor_free(&t1);
		return -1;
	}
	if (index_by_table(d, &hi, dim, &t1) < 0 || call2(d, "aten.mul.Tensor", lo, w0, &lo) < 0 ||
	    call2(d, "aten.mul.Tensor", hi, w1, &hi) < 0)
		return -1;
	shp[dim] = L;
	return call2(d, "aten.add.Tensor", lo, hi, cur);
}

/* Float types whose composites the vector unit computes (half ones in
 * fp32); float64 stays one host call rather than many. */
static int lanes_float(const npu_gmeta *m)
{
	return m && (m->dtype == NPU_DT_F32 || m->dtype == NPU_DT_BF16 ||
		     m->dtype == NPU_DT_F16);
}

/* resample_native for @uplin: six waits and the step's result a
 * resized dim, the last first. */
static int uplin_native(dcx *d, const int64_t *shp, const int64_t *o, int k)
{
	double in = (double)shp[0] * (double)shp[1], cur, elems = 0, waits = 0;

	for (int i = 0; i < k; i++)
		in *= (double)shp[2 + i];
	cur = in;
	for (int i = k - 1; i >= 0; i--) {
		cur = cur / (double)shp[2 + i] * (double)o[i];
		elems += cur;
		waits += 6;
	}
	return resample_native(d, waits, elems, 0, 4 * (in + cur), cur);
}

/*
 * @uplin(x, output_size, align_corners, scale_factors): linear, bilinear
 * and trilinear upsampling (2.11's traces keep the 1-d and 3-d ones,
 * 1.13's all three) as one step a resized dim, the last first: x[i0] *
 * (1 - l) + x[i1] * l along it, the neighbours indexes by constant
 * tables and the weights constants broadcast along the dim, by
 * npu_ref_linear_src (the reference's rule, PyTorch's).  PyTorch sums
 * the 2^k corners, each weighted by its dims' weights' product; the
 * steps compute that sum factored, equal to fp32 rounding.
 */
static int uplin(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	int64_t shp[NPU_MAX_DIMS], o[3];
	double sc[3];
	int k;
	npu_gval cur = na ? a[0] : npu_gv_int(0);

	if (na < 4 || a[2].kind != NPU_GV_BOOL || !lanes_float(x0))
		return fail(d, "%s", "an upsampling of another form or type");
	if (up_sizes(d, &a[1], &a[3], x0, shp, o, sc, &k) < 0)
		return -1;
	if (!uplin_native(d, shp, o, k))
		return fail(d, "%s", "a resize whose host call costs less (its estimate)");
	for (int i = k - 1; i >= 0; i--) {
		if (o[i] == shp[2 + i] && (sc[i] == 0 || sc[i] == 1))
			continue;       /* the source is the destination */
		if (lin_step(d, &cur, shp, k + 2, 2 + i, o[i], a[2].u.b, sc[i]) < 0)
			return -1;
	}
	return copy_to(d, res, &cur);
}

/* PyTorch's linspace_from_neg_one in float32: n points from -1 to 1 (0
 * for one), scaled by (n - 1) / n unless align. */
static double affine_coord(int64_t i, int64_t n, int align)
{
	float step, v;

	if (n <= 1)
		return 0;
	step = 2.0f / (float)(n - 1);
	v = i < n / 2 ? -1.0f + step * (float)i : 1.0f - step * (float)(n - 1 - i);
	return align ? v : (float)(v * (float)(n - 1)) / (float)n;
}

/*
 * @affgrid(theta, size, align_corners): affine_grid_generator, [N, H, W,
 * 2] (or [N, D, H, W, 3]) of theta [N, k, k + 1] times each position's
 * normalized (x, y[, z], 1), where PyTorch runs a bmm of K = k + 1: sum_c
 * theta[:, :, c] * base_c + theta[:, :, k] over [N, k, P], the P
 * positions along the lanes, base_c a constant row of each position's
 * coordinate c (x along the last dim), then transposed to [N, P, k] (k
 * along the lanes would use k of them).
 */
static int affgrid(dcx *d, npu_gval *a, int na, npu_gval *res)
{
	const npu_gmeta *tm = na > 0 ? node_meta(d, &a[0]) : NULL;
	int64_t sz[5], ts[3], P = 1, out[5], tr[3] = { 0, 2, 1 };
	int n = 0, k;
	npu_gval acc = npu_gv_int(0);

	if (na < 3 || !ints_of(&a[1], sz, &n) || (n != 4 && n != 5) ||
	    a[2].kind != NPU_GV_BOOL || !lanes_float(tm) || npu_gmeta_shape(tm, ts) != 3)
		return fail(d, "%s", "an affine grid of another form");
	k = n - 2;
	if (ts[0] != sz[0] || ts[1] != k || ts[2] != k + 1)
		return fail(d, "%s", "an affine grid of another form");
	for (int i = 2; i < n; i++)
		P *= sz[i];
	if (P < 1 || P > (1 << 24))
		return fail(d, "%s", "an empty or huge affine grid");
	if (!resample_native(d, 3, 0, (double)sz[0] * P * k,
			     4.0 * (double)sz[0] * (P * k + k * (k + 1)), (double)sz[0] * P * k))
		return fail(d, "%s", "an affine grid whose host call costs less (its estimate)");
	for (int c = 0; c <= k; c++) {
		npu_gval term;
		if (slice_of(d, a[0], 2, c, c + 1, 1, &term) < 0)
			return -1;
		if (c < k) {            /* coordinate c: dim n - 1 - c of size */
			double *v = malloc((size_t)P * sizeof *v);
			int64_t inner = 1, len = sz[n - 1 - c];
			npu_gval base;
			int r;
			if (!v)
				return npu_errf(d->pc->e, "out of memory");
			for (int i = n - 1; i > n - 1 - c; i--)
				inner *= sz[i];
			for (int64_t p = 0; p < P; p++)
				v[p] = affine_coord(p / inner % len, len, a[2].u.b);
			r = column_const(d, v, P, 1, &base);
			free(v);
			if (r < 0 || call2(d, "aten.mul.Tensor", term, base, &term) < 0)
				return -1;
		}
		if (c > 0 && call2(d, "aten.add.Tensor", acc, term, &term) < 0)
			return -1;
		acc = term;
	}
	out[0] = sz[0];
	for (int i = 2; i < n; i++)
		out[i - 1] = sz[i];
	out[n - 1] = k;
	if (call_ints(d, "aten.permute.default", acc, tr, 3, &acc) < 0 ||
	    call1(d, "aten.clone.default", acc, &acc) < 0)
		return -1;
	return call_ints(d, "aten.view.default", acc, out, n, res);
}

/*
 * The one-hot products below (an embedding's gradient): onehot(idx)^T @
 * values, [V, D], for T indices into a table of V rows.  The [T, V]
 * one-hot is built in pieces of rows, each at most the size of the
 * gradient itself (or ONEHOT_CHUNK_ELEMS), and the pieces' products are
 * concatenated: BERT's 30,522-row vocabulary at 128 tokens is one piece,
 * GPT-2's 50,257 at 1,024 tokens two.  Its MACs are bounded too: T * V *
 * D past ONEHOT_MAX_MACS (2.1 M cycles of npu-base's 128 x 128 array in
 * float32) stays a host call, where a gather-and-add of the T rows is
 * cheaper than the products.  Rows are numbered in float32, exact below
 * 2^24.
 */
#define ONEHOT_CHUNK_ELEMS (1 << 20)
#define ONEHOT_MAX_CHUNKS 64
#define ONEHOT_MAX_MACS (1ll << 33)

static int64_t onehot_rows_per_piece(int64_t T, int64_t V, int64_t D)
{
	int64_t cap = V * D > ONEHOT_CHUNK_ELEMS ? V * D : ONEHOT_CHUNK_ELEMS;

	return cap / T;
}

static int onehot_fits(int64_t T, int64_t V, int64_t D)
{
	int64_t rows;

	if (T < 1 || V < 1 || D < 1 || V >= (1 << 24) || T * V > ONEHOT_MAX_MACS / D)
		return 0;
	rows = onehot_rows_per_piece(T, V, D);
	return rows > 0 && (V + rows - 1) / rows <= ONEHOT_MAX_CHUNKS;
}

/*
 * The T indices idx as a float32 column [T, 1] of the rows they hit: a
 * negative index counting from the end (neg: index_put's) moved up by V,
 * the padding index (pad >= 0: embedding's) and one out of range made -1,
 * which hits none.  Per index, so that each one-hot element costs one
 * compare.  An index of 2^24 or more rounds to a float that is still out
 * of range.
 */
static int onehot_index(dcx *d, npu_gval idx, int64_t T, int64_t V, int neg, int64_t pad,
			npu_gval *res)
{
	npu_gkwarg kw = { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = NPU_DT_F32 } };
	int64_t col[2] = { T, 1 };
	npu_gval t[6] = { { 0 } };
	int r = call_ints(d, "aten.reshape.default", idx, col, 2, &t[0]);

	if (!r)
		r = make_call(d, "aten._to_copy.default", &t[0], 1, &kw, 1, &t[1]);
	if (!r && neg) {
		r = call2(d, "aten.add.Tensor", t[1], npu_gv_float((double)V), &t[2]);
		if (!r)
			r = call2(d, "aten.lt.Scalar", t[1], npu_gv_float(0), &t[3]);
		if (!r)
			r = call3(d, "aten.where.self", t[3], t[2], t[1], &t[4]);
	} else if (!r) {
		r = npu_gval_copy(&t[4], &t[1]) < 0 ? -1 : 0;
	}
	/* one equal to pad, or below 0 after the shift, hits no row */
	if (!r)
		r = call2(d, "aten.lt.Scalar", t[4], npu_gv_float(0), &t[5]);
	if (!r && pad >= 0) {
		npu_gval p = { 0 }, both = { 0 };
		r = call2(d, "aten.eq.Scalar", t[4], npu_gv_float((double)pad), &p);
		if (!r)
			r = call2(d, "aten.logical_or.default", t[5], p, &both);
		npu_gval_clear(&p);
		npu_gval_clear(&t[5]);
		t[5] = both;
	}
	if (!r)
		r = call3(d, "aten.where.self", t[5], npu_gv_float(-1), t[4], res);
	for (int i = 0; i < 6; i++)
		npu_gval_clear(&t[i]);
	return r;
}

/* Rows [v0, v0 + n) of onehot^T @ v2 for the float rows ix [T, 1]
 * (onehot_index) and v2 [T, D]. */
static int onehot_rows(dcx *d, npu_gval ix, npu_gval v2, int64_t v0, int64_t n, npu_gval *res)
{
	npu_gkwarg kw = { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = NPU_DT_F32 } };
	int64_t row[2] = { 1, n }, tr[2] = { 1, 0 };
	npu_gval t[5] = { { 0 } };
	int r = float_iota(d, 2, row, 1, &t[0]);

	if (!r && v0)
		r = call2(d, "aten.add.Tensor", t[0], npu_gv_float((double)v0), &t[1]);
	else if (!r)
		r = npu_gval_copy(&t[1], &t[0]) < 0 ? -1 : 0;
	if (!r)
		r = call2(d, "aten.eq.Tensor", ix, t[1], &t[2]);
	if (!r)
		r = make_call(d, "aten._to_copy.default", &t[2], 1, &kw, 1, &t[3]);
	if (!r)
		r = call_ints(d, "aten.permute.default", t[3], tr, 2, &t[4]);
	if (!r)
		r = call2(d, "aten.mm.default", t[4], v2, res);
	for (int i = 0; i < 5; i++)
		npu_gval_clear(&t[i]);
	return r;
}

/* onehot(idx)^T @ values, [V, D], for idx of T indices (any shape) and
 * values of T * D, in pieces of rows as above; the caller checked
 * onehot_fits. */
static int onehot_mm(dcx *d, npu_gval idx, npu_gval values, int64_t T, int64_t V, int64_t D,
		     int neg, int64_t pad, npu_gval *res)
{
	int64_t flat[2] = { T, D }, rows = onehot_rows_per_piece(T, V, D);
	int n = (int)((V + rows - 1) / rows), r;
	npu_gval ix = { 0 }, v2 = { 0 }, lst = { .kind = NPU_GV_LIST };

	if (!(lst.u.list.v = calloc((size_t)n, sizeof *lst.u.list.v)))
		return npu_errf(d->pc->e, "out of memory");
	r = onehot_index(d, idx, T, V, neg, pad, &ix);
	if (!r)
		r = call_ints(d, "aten.reshape.default", values, flat, 2, &v2);
	for (int k = 0; !r && k < n; k++) {
		int64_t v0 = k * rows;
		r = onehot_rows(d, ix, v2, v0, V - v0 < rows ? V - v0 : rows, &lst.u.list.v[k]);
		lst.u.list.n += !r;
	}
	if (!r && n == 1) {
		r = npu_gval_copy(res, &lst.u.list.v[0]) < 0 ? -1 : 0;
	} else if (!r) {
		npu_gval ca[2] = { lst, npu_gv_int(0) };
		r = make_call(d, "aten.cat.default", ca, 2, NULL, 0, res);
	}
	npu_gval_clear(&lst);
	npu_gval_clear(&ix);
	npu_gval_clear(&v2);
	return r;
}

/* A fill with zeros (the buffer an embedding's gradient is accumulated
 * into): adding to it changes nothing, as a sum starting from +0 is
 * never -0. */
static int zero_fill(dcx *d, const npu_gval *v)
{
	const npu_gnode *n;

	if (v->kind != NPU_GV_NODE)
		return 0;
	n = npu_gedit_node(d->ge, v->u.node);
	if (n->aop == NPU_AOP_ZEROS)
		return 1;
	if (n->aop != NPU_AOP_FULL || n->nargs < 2)
		return 0;
	return (n->args[1].kind == NPU_GV_INT && n->args[1].u.i == 0) ||
	       (n->args[1].kind == NPU_GV_FLOAT && n->args[1].u.f == 0);
}

/*
 * x.index_put_([idx], values, accumulate=True) with one run-time integer
 * index tensor over dim 0 of a float32 x [V, ...] (an embedding's
 * gradient: aot_autograd's embedding_dense_backward), as
 * x + onehot(idx)^T @ values on the matrix unit (onehot_mm).  An index
 * out of [-V, V) (PyTorch's error) adds nothing.  Constant indices are
 * the scatter pass's.
 */
static int onehotput(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	const npu_gmeta *im, *vm;
	int64_t xs[NPU_MAX_DIMS], is[NPU_MAX_DIMS], vs[NPU_MAX_DIMS], T = 1, D = 1;
	int nd = x0 ? npu_gmeta_shape(x0, xs) : -1, ni, nv, r;
	npu_gval pr = { 0 }, pv = { 0 };

	if (nd < 1 || na < 4 || a[3].kind != NPU_GV_BOOL || !a[3].u.b ||
	    x0->dtype != NPU_DT_F32 || a[1].kind != NPU_GV_LIST || a[1].u.list.n != 1 ||
	    a[1].u.list.v[0].kind != NPU_GV_NODE ||
	    npu_gedit_node(d->ge, a[1].u.list.v[0].u.node)->op == NPU_GOP_GET_ATTR ||
	    !(im = node_meta(d, &a[1].u.list.v[0])) ||
	    (im->dtype != NPU_DT_I64 && im->dtype != NPU_DT_I32) ||
	    (ni = npu_gmeta_shape(im, is)) < 0 || !(vm = node_meta(d, &a[2])) ||
	    vm->dtype != NPU_DT_F32 || (nv = npu_gmeta_shape(vm, vs)) != ni + nd - 1)
		return fail(d, "%s", "an index_put of another form");
	for (int i = 0; i < ni; i++)
		if (vs[i] != is[i])
			return fail(d, "%s", "an index_put of another form");
	for (int i = 0; i < ni; i++)
		T *= is[i];
	for (int i = 1; i < nd; i++) {
		if (vs[ni + i - 1] != xs[i])
			return fail(d, "%s", "an index_put of another form");
		D *= xs[i];
	}
	if (!onehot_fits(T, xs[0], D))
		return fail(d, "%s", "an index_put by run-time indices past the one-hot's size");
	r = onehot_mm(d, a[1].u.list.v[0], a[2], T, xs[0], D, 1, -1, &pr);
	if (!r && zero_fill(d, &a[0])) {
		r = call_ints(d, "aten.reshape.default", pr, xs, nd, res);
	} else if (!r) {
		r = call_ints(d, "aten.reshape.default", pr, xs, nd, &pv);
		if (!r)
			r = call2(d, "aten.add.Tensor", a[0], pv, res);
	}
	npu_gval_clear(&pr);
	npu_gval_clear(&pv);
	return r;
}

/*
 * @embbwd(go, indices, num_weights, padding_idx, scale_grad_by_freq):
 * embedding_dense_backward (PyTorch 1.13's training graphs; 2.x
 * decomposes it into the index_put above) as onehot(idx)^T @ go
 * (onehot_mm), the padding index's rows left out.  float32, no
 * scale_grad_by_freq; else fails.
 */
static int embbwd(dcx *d, npu_gval *a, int na, npu_gval *res)
{
	const npu_gmeta *gm = na > 4 ? node_meta(d, &a[0]) : NULL, *im = na > 4 ? node_meta(d, &a[1]) : NULL;
	int64_t gs[NPU_MAX_DIMS], is[NPU_MAX_DIMS], T = 1, G = 1, D;
	int ng = gm ? npu_gmeta_shape(gm, gs) : -1, ni = im ? npu_gmeta_shape(im, is) : -1;

	if (ng < 1 || ni < 0 || gm->dtype != NPU_DT_F32 || a[2].kind != NPU_GV_INT ||
	    a[3].kind != NPU_GV_INT || (a[4].kind == NPU_GV_BOOL && a[4].u.b) ||
	    (im->dtype != NPU_DT_I64 && im->dtype != NPU_DT_I32))
		return fail(d, "%s", "@embbwd: not float32, or scale_grad_by_freq");
	for (int i = 0; i < ni; i++)
		T *= is[i];
	for (int i = 0; i < ng; i++)
		G *= gs[i];
	D = gs[ng - 1];
	if (T * D != G || !onehot_fits(T, a[2].u.i, D))
		return fail(d, "%s", "@embbwd: past the one-hot's size");
	return onehot_mm(d, a[1], a[0], T, a[2].u.i, D, 0, a[3].u.i, res);
}

/*
 * @maskput(x, indices, values, accumulate): index_put by one bool mask of
 * x's shape (`x[mask] = v`, `x[mask] += v`) with one value for every true
 * position, as where(mask, v (+ x), x).  Fails (keeping the op) for
 * other indices, or values given one per true position.
 */
static int maskput(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	const npu_gmeta *mm, *vm;
	int64_t xs[NPU_MAX_DIMS], ms[NPU_MAX_DIMS], vs[NPU_MAX_DIMS], nv = 1;
	int nd = x0 ? npu_gmeta_shape(x0, xs) : -1, vn;
	npu_gval put;

	if (na > 1 && a[1].kind == NPU_GV_LIST && a[1].u.list.n == 1 &&
	    (mm = node_meta(d, &a[1].u.list.v[0])) && mm->dtype != NPU_DT_BOOL)
		return onehotput(d, a, na, x0, res);
	if (nd < 0 || na < 4 || a[1].kind != NPU_GV_LIST || a[1].u.list.n != 1 ||
	    !(mm = node_meta(d, &a[1].u.list.v[0])) || mm->dtype != NPU_DT_BOOL ||
	    npu_gmeta_shape(mm, ms) != nd || memcmp(ms, xs, (size_t)nd * sizeof *xs) ||
	    !(vm = node_meta(d, &a[2])) || (vn = npu_gmeta_shape(vm, vs)) < 0 ||
	    a[3].kind != NPU_GV_BOOL || x0->dtype == NPU_DT_F64)
		return fail(d, "%s", "an index_put of another form");
	for (int i = 0; i < vn; i++)
		nv *= vs[i];
	if (nv != 1)
		return fail(d, "%s", "an index_put of several values");
	if (a[3].u.b) {
		if (call2(d, "aten.add.Tensor", a[0], a[2], &put) < 0)
			return -1;
	} else {
		put = a[2];
	}
	return call3(d, "aten.where.self", a[1].u.list.v[0], put, a[0], res);
}

/* histc's elements times bins examined at most (one [N, bins] compare) */
#define HISTC_MAX (1 << 20)

/*
 * @histc(x, bins, min, max) of float32 with min < max, as ATen's CPU
 * kernel bins: pos = (x - min) / (max - min) * bins truncated, in that
 * order (a value on a bin's edge lands where PyTorch puts it), the last
 * bin taking x = max, values outside [min, max] and NaN not counted.
 * Here the positions of x flattened to [N, 1] are compared with an iota
 * of the bins and the [N, bins] hits summed over N in float32 (exact
 * below 2^24).  min == max (the data's own range) stays whole.
 */
static int build_histc(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	double lo = 0, hi = 0, nb = 0;
	int64_t n = 1, shp[2] = { 1, 0 }, m1 = -1;
	npu_gval xf, t, inr, lt, io, hit, v[2];
	/* the hits as float32 before the sum: a sum of bool would be int64 */
	npu_gkwarg kw = { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = NPU_DT_F32 } };
	int r;

	if (na < 4 || !x0 || x0->dtype != NPU_DT_F32 || !is_number(&a[1], &nb) ||
	    !is_number(&a[2], &lo) || !is_number(&a[3], &hi) || nb < 1 || nb != floor(nb))
		return fail(d, "%s", "histc of this form (not float32)");
	if (!(lo < hi))
		return fail(d, "%s", "histc over the data's own range (min == max)");
	for (int i = 0; i < x0->ndim; i++) {
		if (x0->shape[i].sym)
			return fail(d, "%s", "histc of a symbolic shape");
		n *= x0->shape[i].v;
	}
	if (n * nb > HISTC_MAX)
		return fail(d, "%s", "histc of more elements times bins than the pass examines");
	shp[1] = (int64_t)nb;
	v[0] = a[0];
	if (npu_gv_ints(&v[1], (int64_t[]){ m1, 1 }, 2) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = make_call(d, "aten.view.default", v, 2, NULL, 0, &xf);
	npu_gval_clear(&v[1]);
	if (r < 0 ||
	    call2(d, "aten.sub.Tensor", xf, npu_gv_float(lo), &t) ||
	    call2(d, "aten.div.Tensor", t, npu_gv_float(hi - lo), &t) ||
	    call2(d, "aten.mul.Tensor", t, npu_gv_float(nb), &t) ||
	    call1(d, "aten.trunc.default", t, &t) ||
	    call2(d, "aten.clamp_max.default", t, npu_gv_float(nb - 1), &t) ||
	    call2(d, "aten.ge.Scalar", xf, npu_gv_float(lo), &inr) ||
	    call2(d, "aten.le.Scalar", xf, npu_gv_float(hi), &lt) ||
	    call2(d, "aten.logical_and.default", inr, lt, &inr) ||
	    build_iota(d, 2, shp, 1, &io) ||
	    call2(d, "aten.eq.Tensor", t, io, &hit) ||
	    call2(d, "aten.logical_and.default", inr, hit, &hit) ||
	    make_call(d, "aten._to_copy.default", &hit, 1, &kw, 1, &v[0]) < 0)
		return -1;
	if (npu_gv_ints(&v[1], (int64_t[]){ 0 }, 1) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = make_call(d, "aten.sum.dim_IntList", v, 2, NULL, 0, res);
	npu_gval_clear(&v[1]);
	return r;
}

/* topk of up to this many by rounds (build_topk) */
#define TOPK_MAX 8

/*
 * @topk(x, k, dim, largest, sorted, which): the k largest along dim in
 * k rounds, each the max of what no round chose yet and its first
 * position (NaN counting as the largest, as PyTorch's topk has it), then
 * that position marked chosen; which 0: the values, 1: the int64
 * indices, each round's concatenated along dim.  Ties go to the lower
 * index.  The k smallest likewise by the min, NaN last: a round takes
 * the first NaN left only when no number is (topk_small_round).
 */
typedef struct topk_ctx {
	npu_gval x, iota, nfill, dims, chosen;
	int64_t n;              /* the dim's size */
	int first;              /* the first round: nothing chosen yet */
} topk_ctx;

/* amin or amax of v over the ctx's dim, kept */
static int topk_red(dcx *d, topk_ctx *c, const char *op, npu_gval v, npu_gval *res)
{
	npu_gval ra[3] = { v, c->dims, npu_gv_bool(1) };

	return make_call(d, op, ra, 3, NULL, 0, res);
}

/* The first position where hit holds along dim (n where none does) */
static int topk_first(dcx *d, topk_ctx *c, npu_gval hit, npu_gval *idx)
{
	npu_gval t;

	return call3(d, "aten.where.self", hit, c->iota, c->nfill, &t) < 0 ? -1 :
	       topk_red(d, c, "aten.amin.default", t, idx);
}

/* x with the chosen positions set to fill (x itself in the first round) */
static int topk_left(dcx *d, topk_ctx *c, npu_gval fill, npu_gval *xm)
{
	return c->first ? (npu_gval_copy(xm, &c->x) < 0 ? -1 : 0) :
	       call3(d, "aten.where.self", c->chosen, fill, c->x, xm);
}

/* hit where no round chose yet */
static int topk_unchosen(dcx *d, topk_ctx *c, npu_gval *hit)
{
	npu_gval u;

	if (c->first)
		return 0;
	return call1(d, "aten.logical_not.default", c->chosen, &u) < 0 ? -1 :
	       call2(d, "aten.logical_and.default", *hit, u, hit);
}

static int topk_large_round(dcx *d, topk_ctx *c, npu_gval fill, npu_gval *m, npu_gval *idx)
{
	npu_gval xm, t, nan, hit;

	if (topk_left(d, c, fill, &xm) < 0 ||
	    topk_red(d, c, "aten.amax.default", xm, m) < 0 ||
	    call2(d, "aten.eq.Tensor", xm, *m, &t) < 0 ||
	    call1(d, "aten.isnan.default", xm, &nan) < 0 ||
	    call2(d, "aten.logical_or.default", t, nan, &hit) < 0 ||
	    topk_unchosen(d, c, &hit) < 0)
		return -1;
	return topk_first(d, c, hit, idx);
}

/* the smallest number left, or the first NaN left when no number is
 * (chosen positions hold +inf, so NaN here is a NaN not yet chosen) */
static int topk_small_round(dcx *d, topk_ctx *c, npu_gval fill, npu_gval *m, npu_gval *idx)
{
	npu_gval xm, xn, nan, num, t, hit, i1, i2, none, nanf;

	if (topk_left(d, c, fill, &xm) < 0 ||
	    call1(d, "aten.isnan.default", xm, &nan) < 0 ||
	    call3(d, "aten.where.self", nan, fill, xm, &xn) < 0 ||
	    topk_red(d, c, "aten.amin.default", xn, m) < 0 ||
	    call2(d, "aten.eq.Tensor", xn, *m, &t) < 0 ||
	    call1(d, "aten.logical_not.default", nan, &num) < 0 ||
	    call2(d, "aten.logical_and.default", t, num, &hit) < 0 ||
	    topk_unchosen(d, c, &hit) < 0)
		return -1;
	if (topk_first(d, c, hit, &i1) < 0 || topk_first(d, c, nan, &i2) < 0 ||
	    call2(d, "aten.eq.Scalar", i1, npu_gv_int(c->n), &none) < 0 ||
	    call3(d, "aten.where.self", none, i2, i1, idx) < 0 ||
	    call2(d, "aten.full_like.default", *m, npu_gv_float(NAN), &nanf) < 0)
		return -1;
	return call3(d, "aten.where.self", none, nanf, *m, m);
}

static int build_topk(dcx *d, npu_gval x, int nd, const int64_t *shp, int dm,
		      int64_t k, int largest, int which, npu_gval *res)
{
	topk_ctx c = { .x = x, .n = shp[dm], .first = 1 };
	npu_gval fill, part[TOPK_MAX], lst, m, idx, pick;
	int64_t one = dm;
	int r = -1;

	if (build_iota(d, nd, shp, dm, &c.iota) < 0 ||
	    call2(d, "aten.full_like.default", c.iota, npu_gv_int(shp[dm]), &c.nfill) < 0 ||
	    call2(d, "aten.full_like.default", x,
		  npu_gv_float(largest ? -INFINITY : INFINITY), &fill) < 0)
		return -1;
	if (npu_gv_ints(&c.dims, &one, 1) < 0)
		return npu_errf(d->pc->e, "out of memory");
	for (int64_t i = 0; i < k; i++, c.first = 0) {
		if ((largest ? topk_large_round(d, &c, fill, &m, &idx)
			     : topk_small_round(d, &c, fill, &m, &idx)) < 0 ||
		    call2(d, "aten.eq.Tensor", c.iota, idx, &pick) < 0 ||
		    (c.first ? npu_gval_copy(&c.chosen, &pick) :
			       call2(d, "aten.logical_or.default", c.chosen, pick, &c.chosen)) < 0)
			goto done;
		part[i] = which ? idx : m;
	}
	lst.kind = NPU_GV_LIST;
	lst.u.list.v = part;
	lst.u.list.n = (int)k;
	{
		npu_gval ca[2] = { lst, npu_gv_int(dm) };
		r = k == 1 ? (npu_gval_copy(res, &part[0]) < 0 ? -1 : 0)
			   : make_call(d, "aten.cat.default", ca, 2, NULL, 0, res);
	}
done:
	npu_gval_clear(&c.dims);
	return r;
}

static int unsq(dcx *d, npu_gval x, int64_t dm, npu_gval *res);

/* 1 for a float16, bfloat16 or float32 node, 0 for integers and bool,
 * -1 otherwise (float64, unknown) */
static int x0_float(dcx *d, const npu_gval *x)
{
	const npu_gmeta *m = node_meta(d, x);

	if (!m || m->dtype == NPU_DT_F64 ||
	    m->dtype == NPU_DT_E4M3 || m->dtype == NPU_DT_E5M2)
		return -1;
	return lanes_float(m);
}

/*
 * Whether the integers of node v provably lie within 2^24, where fp32
 * lanes compare them exactly: bool, positions (an order statistic's
 * indices, argmax, arange), fills by such a number, and what views,
 * selections (where, amax, amin), neg and cat make of them, a few deep
 * (the MoE routers' expert ids: topk's indices, decomposed into amins,
 * negated amaxes, over a where of an iota).  A subset of fuse.c's
 * ranges, which come later: a decomposition of unbounded integers would
 * make host calls of its parts.
 */
static int small_ints(dcx *d, const npu_gval *v, int depth)
{
	const npu_gnode *n;

	if (v->kind == NPU_GV_INT)
		return v->u.i > -16777216 && v->u.i < 16777216;
	if (v->kind != NPU_GV_NODE || depth > 12)
		return 0;
	n = npu_gedit_node(d->ge, v->u.node);
	if (n->nmeta && !n->multi && n->meta[0].kind == NPU_GM_TENSOR &&
	    n->meta[0].dtype == NPU_DT_BOOL)
		return 1;
	if (n->op != NPU_GOP_CALL_FUNCTION || n->nargs < 1)
		return 0;
	switch (n->aop) {
	case NPU_AOP_VIEW: case NPU_AOP_RESHAPE: case NPU_AOP_UNSAFE_VIEW:
	case NPU_AOP_CLONE: case NPU_AOP_ALIAS: case NPU_AOP_UNSQUEEZE:
	case NPU_AOP_SQUEEZE: case NPU_AOP_SQUEEZE_DIM: case NPU_AOP_PERMUTE:
	case NPU_AOP_EXPAND: case NPU_AOP_SLICE: case NPU_AOP_SELECT:
	case NPU_AOP_AMAX: case NPU_AOP_AMIN: case NPU_AOP_NEG:
		return small_ints(d, &n->args[0], depth + 1);
	case NPU_AOP_WHERE:
		return n->nargs == 3 && small_ints(d, &n->args[1], depth + 1) &&
		       small_ints(d, &n->args[2], depth + 1);
	case NPU_AOP_FULL_LIKE:
		return n->nargs > 1 && n->args[1].kind == NPU_GV_INT &&
		       small_ints(d, &n->args[1], depth + 1);
	case NPU_AOP_CAT:
		if (n->args[0].kind != NPU_GV_LIST)
			return 0;
		for (int i = 0; i < n->args[0].u.list.n; i++)
			if (!small_ints(d, &n->args[0].u.list.v[i], depth + 1))
				return 0;
		return 1;
	case NPU_AOP_ARANGE:
		return n->nargs == 1 && small_ints(d, &n->args[0], depth + 1);
	case NPU_AOP_ARGMAX: case NPU_AOP_ARGMIN:
		return 1;
	case NPU_AOP_GETITEM: {	/* positions, below 2^24 in any real graph */
		const npu_gnode *s = n->args[0].kind == NPU_GV_NODE ?
				     npu_gedit_node(d->ge, n->args[0].u.node) : NULL;
		return s && n->nargs == 2 && n->args[1].kind == NPU_GV_INT && n->args[1].u.i == 1 &&
		       (s->aop == NPU_AOP_TOPK || s->aop == NPU_AOP_SORT ||
			s->aop == NPU_AOP_MAX_DIM || s->aop == NPU_AOP_MIN_DIM ||
			s->aop == NPU_AOP_KTHVALUE);
	}
	default:
		return 0;
	}
}

/* sort by ranks of at most this many pairs (build_sort): 64 elements,
 * the MoE routers' at 32 tokens.  Their kernels grow as the pairs: alone
 * 64 took 7.1 k cycles, 128 14.6 k, against the host call's 2.0 k and
 * 2.1 k; in Mixtral's graph 64 saved 1.1 k against the host call's
 * pipeline break, and in Granite-4's hybrid MoE (2.11, 64 tokens) four
 * sorts of 128 cost 17.7 k more natively (3.641 M against 3.623 M). */
#define SORT_PAIRS 4096

/*
 * @sort(x, dim, descending, which): a stable sort along the last dim by
 * ranks, with no data-dependent control: over the pairs (i, j) of
 * positions, j goes before i when x[j] sorts strictly before x[i] (NaN
 * after every number ascending, before descending, as PyTorch's sort
 * puts it) or ties with it and j < i; i's rank is the count of such j.
 * Position r of the result is then the i of rank r, an int64 amax over
 * the one-hot M[r, i] = (rank[i] == r) (which = 1), and its value the
 * same selection of x for floats, an amax (-inf elsewhere: NaN and -0
 * kept), or x gathered at those positions for integers (which = 0).
 * Both reduce along the last dim, the lanes' rows.  The comparisons are
 * exact for floats and for integers small_ints bounds within 2^24.
 * Fails (keeping the op: one host call) for several rows (row kernels
 * a row at a time: ops3's 4 x 8 took 2.2 k cycles more than the host
 * call), along another dim (reductions' took 5.4 k more) and past
 * SORT_PAIRS pairs, where the host's n log n beats the lanes' n^2.  One
 * row is slower than its host call alone, but keeps the kernels around
 * it pipelined (docs/compiler.md: mixtral_tiny 83.8 k -> 80.9 k cycles).
 */
static int build_sort(dcx *d, npu_gval x, int nd, const int64_t *shp, int dm,
		      int desc, int which, npu_gval *res)
{
	int64_t psh[NPU_MAX_DIMS + 1], pairs = shp[dm], one = nd;
	int isf = x0_float(d, &x), r;
	npu_gval xi, xj, io_i, io_j, jlt, bef, tie, t, u, rank, m, fill, dims;
	npu_gkwarg kw = { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = NPU_DT_F32 } };

	for (int i = 0; i < nd; i++)
		pairs *= shp[i];
	if (dm != nd - 1 || pairs != shp[dm] * shp[dm] || pairs > SORT_PAIRS || isf < 0 ||
	    nd + 1 > NPU_MAX_DIMS)
		return fail(d, "%s", "a sort of several rows, along another dim than the last, "
			    "of more than 64 elements, or of float64");
	if (!isf && !small_ints(d, &x, 0))
		return fail(d, "%s", "a sort of integers not known within 2^24");
	memcpy(psh, shp, (size_t)nd * sizeof *psh);
	psh[nd] = shp[dm];
	if (unsq(d, x, nd, &xi) < 0 || unsq(d, x, dm, &xj) < 0 ||
	    build_iota(d, nd + 1, psh, dm, &io_i) < 0 ||
	    build_iota(d, nd + 1, psh, nd, &io_j) < 0 ||
	    call2(d, "aten.lt.Tensor", io_j, io_i, &jlt) < 0 ||
	    call2(d, desc ? "aten.gt.Tensor" : "aten.lt.Tensor", xj, xi, &bef) < 0 ||
	    call2(d, "aten.eq.Tensor", xj, xi, &tie) < 0)
		return -1;
	if (isf) {      /* NaN: after (before, descending) every number, ties NaN */
		npu_gval ni, nj, nn;
		if (call1(d, "aten.isnan.default", xi, &ni) < 0 ||
		    call1(d, "aten.isnan.default", xj, &nj) < 0 ||
		    call1(d, "aten.logical_not.default", desc ? ni : nj, &nn) < 0 ||
		    call2(d, "aten.logical_and.default", desc ? nj : ni, nn, &t) < 0 ||
		    call2(d, "aten.logical_or.default", bef, t, &bef) < 0 ||
		    call2(d, "aten.logical_and.default", ni, nj, &t) < 0 ||
		    call2(d, "aten.logical_or.default", tie, t, &tie) < 0)
			return -1;
	}
	if (npu_gv_ints(&dims, &one, 1) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = call2(d, "aten.logical_and.default", tie, jlt, &t) < 0 ||
	    call2(d, "aten.logical_or.default", bef, t, &u) < 0 ||
	    make_call(d, "aten._to_copy.default", &u, 1, &kw, 1, &t) < 0 ||
	    call2(d, "aten.sum.dim_IntList", t, dims, &rank) < 0 ||
	    /* M[r, i]: rank's i along the last dim, r along dm */
	    unsq(d, rank, dm, &u) < 0 || float_iota(d, nd + 1, psh, dm, &t) < 0 ||
	    call2(d, "aten.eq.Tensor", u, t, &m) < 0 ? -1 : 0;
	if (!r && (which || !isf))
		r = call2(d, "aten.full_like.default", io_j, npu_gv_int(0), &fill) < 0 ||
		    call3(d, "aten.where.self", m, io_j, fill, &t) < 0 ||
		    call2(d, "aten.amax.default", t, dims, &u) < 0 ||
		    (which ? copy_to(d, res, &u) :
		     call3(d, "aten.gather.default", x, npu_gv_int(dm), u, res)) < 0 ? -1 : 0;
	else if (!r)	/* floats: amax(where(M, x, -inf)) keeps NaN and -0 */
		r = call2(d, "aten.full_like.default", xj, npu_gv_float(-INFINITY), &fill) < 0 ||
		    call3(d, "aten.where.self", m, xj, fill, &t) < 0 ||
		    call2(d, "aten.amax.default", t, dims, res) < 0 ? -1 : 0;
	npu_gval_clear(&dims);
	return r;
}

/* *res = a copy of v. */
static int copy_to(dcx *d, npu_gval *res, const npu_gval *v)
{
	return npu_gval_copy(res, v) < 0 ? npu_errf(d->pc->e, "out of memory") : 0;
}

/* A loss's reduction: 0 the elements, 1 their mean, 2 their sum. */
static int lossred(dcx *d, npu_gval *a, int na, npu_gval *res)
{
	if (na < 2 || a[1].kind != NPU_GV_INT || a[1].u.i < 0 || a[1].u.i > 2)
		return fail(d, "%s", "@lossred: a reduction other than 0, 1 or 2");
	if (a[1].u.i == 0)
		return copy_to(d, res, &a[0]);
	return make_call(d, a[1].u.i == 1 ? "aten.mean.default" : "aten.sum.default",
			 a, 1, NULL, 0, res);
}

/* mse_loss_backward's factor: 2 / numel(x) for the mean, else 2 (a
 * static shape only). */
static int msenorm(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	int64_t shp[NPU_MAX_DIMS], n = 1;
	int nd = x0 ? npu_gmeta_shape(x0, shp) : -1;

	if (na < 2 || a[1].kind != NPU_GV_INT || a[1].u.i < 0 || a[1].u.i > 2 || nd < 0)
		return fail(d, "%s", "@msenorm: a reduction other than 0, 1 or 2, or no static shape");
	for (int i = 0; i < nd; i++)
		n *= shp[i];
	if (n <= 0)
		return fail(d, "%s", "@msenorm: an empty input");
	*res = npu_gv_float(a[1].u.i == 1 ? 2.0 / (double)n : 2.0);
	return 0;
}

/* @bucket(x, b, out_int32, right, side, sorter): bucketize and
 * searchsorted by one 1-d row of boundaries, as the count of boundaries
 * the binary search steps past: !(b >= x) (right: !(b > x)), summed
 * over b ([.., M] compares, up to 2^22), NaN counting past all, as
 * ATen's search has it for sorted boundaries (which it requires).
 * int64 results, float values. */
static int bucket(dcx *d, npu_gval *a, int na, npu_gval *res)
{
	const npu_gmeta *xm = na > 1 ? node_meta(d, &a[0]) : NULL;
	const npu_gmeta *bm = xm ? node_meta(d, &a[1]) : NULL;
	int64_t xs[NPU_MAX_DIMS], bs[NPU_MAX_DIMS], n = 1, one = -1;
	int nd = xm ? npu_gmeta_shape(xm, xs) : -1, right;
	npu_gval xu, t, dims;

	if (na < 6 || !bm || nd < 0 || npu_gmeta_shape(bm, bs) != 1 || !lanes_float(xm) ||
	    bm->dtype != xm->dtype || a[2].kind != NPU_GV_BOOL || a[2].u.b ||
	    a[3].kind != NPU_GV_BOOL || a[5].kind != NPU_GV_NONE ||
	    (a[4].kind != NPU_GV_NONE && a[4].kind != NPU_GV_STR))
		return fail(d, "%s", "a bucketize of another form (1-d float boundaries, int64 results)");
	for (int i = 0; i < nd; i++)
		n *= xs[i];
	if (n * bs[0] > (1 << 22))
		return fail(d, "%s", "a bucketize of more than 2^22 comparisons");
	right = a[4].kind == NPU_GV_STR ? !strcmp(a[4].u.s, "right") : a[3].u.b;
	if (npu_gv_ints(&dims, &one, 1) < 0)
		return npu_errf(d->pc->e, "out of memory");
	if (unsq(d, a[0], -1, &xu) < 0 ||
	    call2(d, right ? "aten.gt.Tensor" : "aten.ge.Tensor", a[1], xu, &t) < 0 ||
	    call1(d, "aten.logical_not.default", t, &t) < 0 ||
	    call3(d, "aten.sum.dim_IntList", t, dims, npu_gv_bool(0), res) < 0) {
		npu_gval_clear(&dims);
		return -1;
	}
	npu_gval_clear(&dims);
	return 0;
}

/* @rounddec(x, decimals): round.decimals as ATen's CPU kernel computes
 * it in float: nearbyint(x * p) / p, p = 10^d in float32 (d < 0:
 * nearbyint(x / p) * p, p = 10^-d); the lanes' multiply, round and
 * divide are those same float32 operations. */
static int rounddec(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	npu_gval t;
	double p;

	if (na < 2 || a[1].kind != NPU_GV_INT || !lanes_float(x0) || a[1].u.i > 38 ||
	    a[1].u.i < -38)
		return fail(d, "%s", "@rounddec: bad operands");
	if (a[1].u.i == 0)
		return call1(d, "aten.round.default", a[0], res);
	p = (float)pow(10, (double)(a[1].u.i < 0 ? -a[1].u.i : a[1].u.i));
	if (a[1].u.i < 0)
		return call2(d, "aten.div.Tensor", a[0], npu_gv_float(p), &t) < 0 ||
		       call1(d, "aten.round.default", t, &t) < 0 ? -1 :
		       call2(d, "aten.mul.Tensor", t, npu_gv_float(p), res);
	return call2(d, "aten.mul.Tensor", a[0], npu_gv_float(p), &t) < 0 ||
	       call1(d, "aten.round.default", t, &t) < 0 ? -1 :
	       call2(d, "aten.div.Tensor", t, npu_gv_float(p), res);
}

/* linalg_vector_norm of an order other than 2 (x, ord, dim, keepdim), as
 * ATen's CPU kernel defines it: the count of nonzeros for 0, the largest
 * and smallest |x| for +-inf, sum(|x|^p)^(1/p) otherwise (1: sum |x|). */
static int pnorm(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	npu_gval ax, t, ra[3];
	double p;

	if (na < 4 || !is_number(&a[1], &p) || !lanes_float(x0))
		return fail(d, "%s", "@pnorm: bad operands");
	if (p == 0)
		return call2(d, "aten.ne.Scalar", a[0], npu_gv_int(0), &t) < 0 ||
		       call2(d, "aten.mul.Tensor", t, npu_gv_float(1), &t) < 0 ||
		       call3(d, "aten.sum.dim_IntList", t, a[2], a[3], res) < 0 ? -1 : 0;
	if (call1(d, "aten.abs.default", a[0], &ax) < 0)
		return -1;
	if (isinf(p)) {
		ra[0] = ax, ra[1] = a[2], ra[2] = a[3];
		if (ra[1].kind == NPU_GV_NONE)
			ra[1].kind = NPU_GV_LIST, ra[1].u.list.v = NULL, ra[1].u.list.n = 0;
		return make_call(d, p > 0 ? "aten.amax.default" : "aten.amin.default",
				 ra, 3, NULL, 0, res);
	}
	if (p == 1)
		return call3(d, "aten.sum.dim_IntList", ax, a[2], a[3], res);
	return call2(d, "aten.pow.Tensor_Scalar", ax, npu_gv_float(p), &t) < 0 ||
	       call3(d, "aten.sum.dim_IntList", t, a[2], a[3], &t) < 0 ||
	       call2(d, "aten.pow.Tensor_Scalar", t, npu_gv_float(1 / p), res) < 0 ? -1 : 0;
}

/* @aap3d(x, output_size): adaptive average pooling in 3-d as two 2-d
 * ones, the planes first ([N, C*D, H, W] to [.., OH, OW]), then the
 * depth ([N, C, D, OH*OW] to [.., OD, OH*OW], a window of one along the
 * last dim): each dim's windows are its own, so the mean over a box is
 * the mean over its depth of the planes' means.  A pass whose sizes
 * stay is left out. */
static int aap3d(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	int64_t s[NPU_MAX_DIMS], o[NPU_MAX_DIMS], v[5];
	int nd = x0 ? npu_gmeta_shape(x0, s) : -1, nb = nd - 4, no = 0;
	npu_gval t;

	if ((nd != 5 && nd != 4) || na < 2 || !ints_of(&a[1], o, &no) || no != 3 ||
	    o[0] <= 0 || o[1] <= 0 || o[2] <= 0 || !lanes_float(x0))
		return fail(d, "%s", "@aap3d: bad operands or symbolic shape");
	/* s[nb..]: C, D, H, W (nb: a batch dim or none) */
	v[0] = nb ? s[0] : 1;
	if (copy_to(d, &t, &a[0]) < 0)
		return -1;
	v[1] = s[nb] * s[nb + 1], v[2] = s[nb + 2], v[3] = s[nb + 3];
	if ((o[1] != s[nb + 2] || o[2] != s[nb + 3]) &&
	    (call_ints(d, "aten.view.default", t, v, 4, &t) < 0 ||
	     call_ints(d, "aten._adaptive_avg_pool2d.default", t, o + 1, 2, &t) < 0))
		return -1;
	v[1] = s[nb], v[2] = s[nb + 1], v[3] = o[1] * o[2];
	if (o[0] != s[nb + 1] &&
	    (call_ints(d, "aten.view.default", t, v, 4, &t) < 0 ||
	     call_ints(d, "aten._adaptive_avg_pool2d.default", t,
		       (int64_t[]){ o[0], v[3] }, 2, &t) < 0))
		return -1;
	v[0] = s[0];
	v[nb] = s[nb], v[nb + 1] = o[0], v[nb + 2] = o[1], v[nb + 3] = o[2];
	return call_ints(d, "aten.view.default", t, v, nd, res);
}

/*
 * @asstrided(x, size, stride, storage_offset): as_strided reads x's
 * storage, laid out as x's recorded strides say, not x's elements in
 * order (which the reference and npucc's view take as the storage: right
 * for a contiguous x).  Longformer chunks a permuted view so ([4, 8, 32,
 * 64] of strides [64, 8192, 256, 1]): read in logical order, its chunks
 * were other elements (2.6e-3 from eager on 2.11).  An x whose strides
 * are a dense permutation (npu_gmeta_layout) is permuted into storage
 * order, and the view taken over that, storage_offset less x's.  Contiguous
 * inputs keep the op; other layouts (gaps, overlaps, symbolic) too.
 */
static int asstrided(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	int64_t ord[NPU_MAX_DIMS], off0, so;
	npu_gval va[4], p;
	int lay = x0 ? npu_gmeta_layout(x0, ord) : -1, r;

	if (na < 3 || (na > 3 && a[3].kind != NPU_GV_INT && a[3].kind != NPU_GV_NONE))
		return fail(d, "%s", "@asstrided: bad operands");
	if (lay < 0)
		return fail(d, "%s", "an input whose strides are symbolic, leave gaps or overlap");
	if (!lay)
		return fail(d, "%s", "a contiguous input (its elements are its storage)");
	off0 = x0->storage_offset.v;
	so = na > 3 && a[3].kind == NPU_GV_INT ? a[3].u.i : off0;
	if (so < off0)
		return fail(d, "%s", "a view before the input's first element");
	va[0] = a[0];
	if (npu_gv_ints(&va[1], ord, x0->ndim) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = make_call(d, "aten.permute.default", va, 2, NULL, 0, &p);
	npu_gval_clear(&va[1]);
	if (r < 0)
		return -1;
	/* (the view over the permuted input reads it contiguous: fuse.c
	 * copies it in storage order first) */
	va[0] = p;
	va[1] = a[1];
	va[2] = a[2];
	va[3] = npu_gv_int(so - off0);
	return make_call(d, "aten.as_strided.default", va, 4, NULL, 0, res);
}

/*
 * pixel_shuffle (up) as views and one permute: [*B, C*r*r, H, W] viewed
 * [*B, C, r, r, H, W], permuted to [*B, C, H, r, W, r], viewed [*B, C,
 * H*r, W*r]; pixel_unshuffle the reverse ([*B, C, H, r, W, r] to [*B,
 * C, r, r, H, W]).  Static shapes only.
 */
static int pixshuf(dcx *d, npu_gval *a, int na, const npu_gmeta *x0,
		   npu_gval *res)
{
	int64_t shp[NPU_MAX_DIMS], mid[NPU_MAX_DIMS], out[NPU_MAX_DIMS], perm[NPU_MAX_DIMS];
	int nd = x0 ? npu_gmeta_shape(x0, shp) : -1, nb, up, r0;
	int64_t r, c, h, w;
	npu_gval va[2], t1 = { 0 }, t2 = { 0 };

	if (nd < 3 || nd + 3 > NPU_MAX_DIMS || na < 3 || a[1].kind != NPU_GV_INT ||
	    a[1].u.i <= 0 || a[2].kind != NPU_GV_INT)
		return fail(d, "%s", "@pixshuf: bad operands or symbolic shape");
	r = a[1].u.i;
	up = (int)a[2].u.i;
	nb = nd - 3;
	if (up ? shp[nb] % (r * r) : shp[nb + 1] % r || shp[nb + 2] % r)
		return fail(d, "%s", "@pixshuf: sizes not divisible by the factor");
	c = up ? shp[nb] / (r * r) : shp[nb];
	h = up ? shp[nb + 1] : shp[nb + 1] / r;
	w = up ? shp[nb + 2] : shp[nb + 2] / r;
	memcpy(mid, shp, (size_t)nb * sizeof *shp);
	memcpy(out, shp, (size_t)nb * sizeof *shp);
	for (int i = 0; i < nb; i++)
		perm[i] = i;
	/* the packed side's 6 dims (C, r, r, H, W) or the spread side's
	 * (C, H, r, W, r), and where each of the other's comes from */
	{
		int64_t packed[5] = { c, r, r, h, w }, spread[5] = { c, h, r, w, r };
		static const int to_spread[5] = { 0, 3, 1, 4, 2 }, to_packed[5] = { 0, 2, 4, 1, 3 };
		for (int i = 0; i < 5; i++) {
			mid[nb + i] = up ? packed[i] : spread[i];
			perm[nb + i] = nb + (up ? to_spread[i] : to_packed[i]);
		}
	}
	out[nb] = up ? c : c * r * r;
	out[nb + 1] = up ? h * r : h;
	out[nb + 2] = up ? w * r : w;
	va[0] = a[0];
	if (npu_gv_ints(&va[1], mid, nb + 5) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r0 = make_call(d, "aten.view.default", va, 2, NULL, 0, &t1);
	npu_gval_clear(&va[1]);
	if (r0 < 0)
		return -1;
	va[0] = t1;
	if (npu_gv_ints(&va[1], perm, nb + 5) < 0)
		r0 = npu_errf(d->pc->e, "out of memory");
	else
		r0 = make_call(d, "aten.permute.default", va, 2, NULL, 0, &t2);
	npu_gval_clear(&va[1]);
	if (r0 < 0)
		goto out;
	va[0] = t2;
	if (npu_gv_ints(&va[1], out, nb + 3) < 0)
		r0 = npu_errf(d->pc->e, "out of memory");
	else
		r0 = make_call(d, "aten.view.default", va, 2, NULL, 0, res);
	npu_gval_clear(&va[1]);
out:
	npu_gval_clear(&t1);
	npu_gval_clear(&t2);
	return r0;
}

/* x viewed with a dim of 1 inserted at dim (negative: from the end). */
static int unsq(dcx *d, npu_gval x, int64_t dm, npu_gval *res)
{
	const npu_gmeta *m = node_meta(d, &x);
	int64_t shp[NPU_MAX_DIMS];
	int nd = m ? npu_gmeta_shape(m, shp) : -1, r;
	npu_gval va[2];

	dm = dm < 0 ? dm + nd + 1 : dm;
	if (nd < 0 || dm < 0 || dm > nd || nd + 1 > NPU_MAX_DIMS)
		return fail(d, "%s", "@unsq: bad operands");
	memmove(shp + dm + 1, shp + dm, (size_t)(nd - dm) * sizeof *shp);
	shp[dm] = 1;
	va[0] = x;
	if (npu_gv_ints(&va[1], shp, nd + 1) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = make_call(d, "aten.view.default", va, 2, NULL, 0, res);
	npu_gval_clear(&va[1]);
	return r;
}

/* lerp(a, b, w) for a number w, as ATen: a + w (b - a) for |w| < 0.5,
 * else b - (b - a)(1 - w). */
static int lerpw(dcx *d, npu_gval *a, int na, npu_gval *res)
{
	npu_gval va[2], diff = { 0 }, prod = { 0 };
	double w;
	int r, lo;

	if (na < 3 || (a[2].kind != NPU_GV_INT && a[2].kind != NPU_GV_FLOAT))
		return fail(d, "%s", "@lerpw: a weight that is not a number");
	w = a[2].kind == NPU_GV_INT ? (double)a[2].u.i : a[2].u.f;
	lo = fabs(w) < 0.5;
	va[0] = a[1];
	va[1] = a[0];
	if (make_call(d, "aten.sub.Tensor", va, 2, NULL, 0, &diff) < 0)
		return -1;
	va[0] = diff;
	va[1] = npu_gv_float(lo ? w : 1 - w);
	r = make_call(d, "aten.mul.Tensor", va, 2, NULL, 0, &prod);
	if (r == 0) {
		va[0] = lo ? a[0] : a[1];
		va[1] = prod;
		r = make_call(d, lo ? "aten.add.Tensor" : "aten.sub.Tensor", va, 2, NULL, 0, res);
	}
	npu_gval_clear(&diff);
	npu_gval_clear(&prod);
	return r;
}

/* stack(tensors, dim) as the cat along dim of each tensor viewed with a
 * dim of 1 there. */
static int stack(dcx *d, npu_gval *a, int na, npu_gval *res)
{
	npu_gval l = { .kind = NPU_GV_LIST }, va[2];
	const npu_gmeta *m;
	int64_t dm;
	int n, r = -1;

	if (na < 2 || a[0].kind != NPU_GV_LIST || !(n = a[0].u.list.n) ||
	    a[1].kind != NPU_GV_INT || !(m = node_meta(d, &a[0].u.list.v[0])))
		return fail(d, "%s", "@stack: bad operands");
	dm = a[1].u.i < 0 ? a[1].u.i + m->ndim + 1 : a[1].u.i;
	if (dm < 0 || dm > m->ndim)
		return fail(d, "%s", "@stack: bad dim");
	if (!(l.u.list.v = calloc((size_t)n, sizeof *l.u.list.v)))
		return npu_errf(d->pc->e, "out of memory");
	for (int i = 0; i < n; i++) {
		if (unsq(d, a[0].u.list.v[i], dm, &l.u.list.v[l.u.list.n]) < 0)
			goto out;
		l.u.list.n++;
	}
	va[0] = l;
	va[1] = npu_gv_int(dm);
	r = make_call(d, "aten.cat.default", va, 2, NULL, 0, res);
out:
	npu_gval_clear(&l);
	return r;
}

/* ---- the DFT of a real tensor as matrix products ------------------- */

/* DFT matrices of at most this many elements (a 2048-point transform);
 * a longer transform stays whole (a host call) */
#define DFT_MAX (1 << 22)

typedef struct dftdim {
	int dim, nd;
	int64_t shp[NPU_MAX_DIMS];   /* the operand's shape */
	int64_t m;                   /* output points (n / 2 + 1 onesided) */
} dftdim;

/*
 * The real or imaginary part (im) of the DFT matrix of this dim, times
 * sc, as a folded constant: [n, m] when the dim is the last one
 * (x [rows, n] @ it), else its transpose [m, n] (it @ x [n, rest]).
 * sg -1 forward, 1 inverse.
 */
static int dft_const(dcx *d, const dftdim *t, int im, int sg, double sc, npu_gval *res)
{
	int64_t n = t->shp[t->dim], last = t->dim == t->nd - 1;
	int64_t sh[2] = { last ? n : t->m, last ? t->m : n };
	npu_reftensor c = { .ndim = -1 };

	if (npu_reftensor_alloc(&c, NPU_DT_F32, 2, sh, d->pc->e) < 0)
		return -1;
	for (int64_t j = 0; j < n; j++)
		for (int64_t k = 0; k < t->m; k++) {
			double cv, sv;
			npu_ref_twiddle(j, k, n, &cv, &sv);
			c.data[last ? j * t->m + k : k * n + j] = (im ? sg * sv : cv) * sc;
		}
	return table_const(d, &c, res);
}

/* x contracted with matrix w along t->dim: mm over [rows, n], or w @ x
 * viewed [n, rest] (bmm with w expanded over a leading batch). */
static int dft_apply(dcx *d, const dftdim *t, npu_gval x, npu_gval w, npu_gval *res)
{
	int64_t b = 1, rest = 1, n = t->shp[t->dim], v[3], out[NPU_MAX_DIMS];
	npu_gval xv, y;

	for (int i = 0; i < t->dim; i++)
		b *= t->shp[i];
	for (int i = t->dim + 1; i < t->nd; i++)
		rest *= t->shp[i];
	memcpy(out, t->shp, (size_t)t->nd * sizeof *out);
	out[t->dim] = t->m;
	if (t->dim == t->nd - 1) {
		v[0] = b;
		v[1] = n;
		if (call_ints(d, "aten.view.default", x, v, 2, &xv) < 0 ||
		    call2(d, "aten.mm.default", xv, w, &y) < 0)
			return -1;
	} else if (b == 1) {
		v[0] = n;
		v[1] = rest;
		if (call_ints(d, "aten.view.default", x, v, 2, &xv) < 0 ||
		    call2(d, "aten.mm.default", w, xv, &y) < 0)
			return -1;
	} else {
		npu_gval we;
		v[0] = b;
		v[1] = t->m;
		v[2] = n;
		if (call_ints(d, "aten.expand.default", w, v, 3, &we) < 0)
			return -1;
		v[1] = n;
		v[2] = rest;
		if (call_ints(d, "aten.view.default", x, v, 3, &xv) < 0 ||
		    call2(d, "aten.bmm.default", we, xv, &y) < 0)
			return -1;
	}
	return call_ints(d, "aten.view.default", y, out, t->nd, res);
}

/* Whether meta m is contiguous (the views above need it). */
static int contiguous(const npu_gmeta *m, const int64_t *shp, int nd)
{
	int64_t st = 1;

	for (int i = nd - 1; i >= 0; i--) {
		if (shp[i] != 1 && (m->stride[i].sym || m->stride[i].v != st))
			return 0;
		st *= shp[i];
	}
	return 1;
}

/*
 * @dft(x, dim, normalization, forward, onesided): npusim.fft_real as
 * matrix products on the array.  Per dim, (R + iI) times the DFT matrix
 * C + iS (S = -sin forward, +sin inverse): R' = R C - I S, I' = I C + R S,
 * the first dim (I = 0) two products, each later one four; the last
 * listed dim goes first, with only its n / 2 + 1 columns when onesided,
 * and the normalization is folded into the first dim's matrices.  The
 * results are stacked as [..., 2].  Fails, keeping the op (a host call),
 * for symbolic or non-contiguous x and matrices past DFT_MAX.
 */
static int build_dft(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	dftdim t;
	int ax[NPU_MAX_DIMS], k = 0, sg;
	int64_t nt = 1;
	npu_gval re, im = { .kind = NPU_GV_NONE }, st[2], l;
	double sc;

	if (!x0 || x0->dtype != NPU_DT_F32 || (t.nd = npu_gmeta_shape(x0, t.shp)) < 1 ||
	    na < 5 || a[1].kind != NPU_GV_LIST || !(k = a[1].u.list.n) || k > t.nd ||
	    a[2].kind != NPU_GV_INT || a[2].u.i < 0 || a[2].u.i > 2 ||
	    a[3].kind != NPU_GV_BOOL || a[4].kind != NPU_GV_BOOL ||
	    !contiguous(x0, t.shp, t.nd))
		return fail(d, "%s", "a transform of another form");
	for (int i = 0; i < k; i++) {
		const npu_gval *v = &a[1].u.list.v[k - 1 - i];   /* the last first */
		int64_t dm = v->kind == NPU_GV_INT ? v->u.i : INT64_MIN;
		if (dm < -t.nd || dm >= t.nd)
			return fail(d, "%s", "a bad dim");
		ax[i] = (int)(dm < 0 ? dm + t.nd : dm);
		for (int j = 0; j < i; j++)
			if (ax[j] == ax[i])
				return fail(d, "%s", "a dim given twice");
		if (t.shp[ax[i]] < 1 || t.shp[ax[i]] * t.shp[ax[i]] > DFT_MAX)
			return fail(d, "%s", "a transform too long for a matrix");
		nt *= t.shp[ax[i]];
	}
	sg = a[3].u.b ? -1 : 1;
	sc = npu_ref_fft_scale((int)a[2].u.i, (double)nt);
	re = a[0];
	for (int i = 0; i < k; i++) {
		npu_gval c, s, rc, rs, ic, is;
		t.dim = ax[i];
		t.m = i == 0 && a[4].u.b ? t.shp[t.dim] / 2 + 1 : t.shp[t.dim];
		if (dft_const(d, &t, 0, sg, i ? 1 : sc, &c) < 0 ||
		    dft_const(d, &t, 1, sg, i ? 1 : sc, &s) < 0 ||
		    dft_apply(d, &t, re, c, &rc) < 0 || dft_apply(d, &t, re, s, &rs) < 0)
			return -1;
		if (i == 0) {
			re = rc;
			im = rs;
		} else if (dft_apply(d, &t, im, c, &ic) < 0 || dft_apply(d, &t, im, s, &is) < 0 ||
			   call2(d, "aten.sub.Tensor", rc, is, &re) < 0 ||
			   call2(d, "aten.add.Tensor", ic, rs, &im) < 0) {
			return -1;
		}
		t.shp[t.dim] = t.m;
	}
	st[0] = re;
	st[1] = im;
	l.kind = NPU_GV_LIST;
	l.u.list.n = 2;
	l.u.list.v = st;
	{
		npu_gval va[2] = { l, npu_gv_int(-1) };
		return stack(d, va, 2, res);
	}
}

/* ---- convolution's gradients -------------------------------------- */

/* target(x, [v...]): view, reshape, permute, flip, expand. */
static int call_ints(dcx *d, const char *target, npu_gval x, const int64_t *v, int n,
		     npu_gval *res)
{
	npu_gval va[2];
	int r;

	/* a view of a view is one of its base (what the layout pass would
	 * make of it, a run later) */
	while (!strcmp(target, "aten.view.default") && x.kind == NPU_GV_NODE &&
	       npu_gedit_node(d->ge, x.u.node)->aop == NPU_AOP_VIEW &&
	       npu_gedit_node(d->ge, x.u.node)->args[0].kind == NPU_GV_NODE)
		x = npu_gedit_node(d->ge, x.u.node)->args[0];
	va[0] = x;
	if (npu_gv_ints(&va[1], v, n) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = make_call(d, target, va, 2, NULL, 0, res);
	npu_gval_clear(&va[1]);
	return r;
}

/* x[..., start:end:step, ...] along dim. */
static int slice_of(dcx *d, npu_gval x, int dim, int64_t start, int64_t end, int64_t step,
		    npu_gval *res)
{
	npu_gval va[5] = { x, npu_gv_int(dim), npu_gv_int(start), npu_gv_int(end),
			   npu_gv_int(step) };

	return make_call(d, "aten.slice.Tensor", va, 5, NULL, 0, res);
}

/* A convolution node of ns spatial dims, transposed or not, without a
 * bias. */
static int conv_of(dcx *d, int ns, npu_gval x, npu_gval w, const int64_t *st, const int64_t *pad,
		   const int64_t *dil, int tr, const int64_t *opad, int64_t groups,
		   npu_gval *res)
{
	npu_gval va[9] = { x, w };
	const int64_t *l[4] = { st, pad, dil, opad };
	static const int at[4] = { 3, 4, 5, 7 };
	int r = 0;

	va[2].kind = NPU_GV_NONE;
	va[6].kind = NPU_GV_BOOL;
	va[6].u.b = tr;
	va[8] = npu_gv_int(groups);
	for (int i = 0; i < 4 && !r; i++)
		if (npu_gv_ints(&va[at[i]], l[i], ns) < 0)
			r = npu_errf(d->pc->e, "out of memory");
	if (!r)
		r = make_call(d, "aten.convolution.default", va, 9, NULL, 0, res);
	for (int i = 0; i < 4; i++)
		npu_gval_clear(&va[at[i]]);
	return r;
}

/* The operands of @cbwd_in and @cbwd_gw: (go, x, w, stride, padding,
 * dilation, transposed, groups) of a 2-d or (one group) 3-d convolution,
 * not transposed; ns its spatial dims.  A 1-d one (Mamba's causal
 * depthwise convolution) as a 2-d one of height 1: go, x and w views
 * with a unit dim 2 (one_d). */
typedef struct cbwd {
	npu_gval go, x, w;
	int64_t sg[NPU_MAX_DIMS], sx[NPU_MAX_DIMS], sw[NPU_MAX_DIMS];
	int64_t st[3], pad[3], dil[3], g;
	int ns, one_d;
} cbwd;

/* A result's shape s (the 2-d or 3-d convolution's), or a 1-d one's
 * own: s without its unit dim 2, in buf; *nd its dims. */
static const int64_t *own_shape(const cbwd *c, const int64_t *s, int64_t *buf, int *nd)
{
	*nd = c->one_d ? 3 : 2 + c->ns;
	if (!c->one_d)
		return s;
	buf[0] = s[0], buf[1] = s[1], buf[2] = s[3];
	return buf;
}

/* cbwd_args' 1-d convolution as a 2-d one of height 1. */
/* A 1-d convolution's n operands (src[k], shapes sh[k]) as views with a
 * unit dim 2 (in *v[k]), its stride, padding and dilation moved to dim
 * 1 of a 2-d one's. */
static int one_d_as_2d(dcx *d, cbwd *c, const npu_gval *src, int64_t *const *sh,
		       npu_gval *const *v, int n)
{
	for (int k = 0; k < n; k++) {
		sh[k][3] = sh[k][2];
		sh[k][2] = 1;
		if (unsq(d, src[k], 2, v[k]) < 0)
			return -1;
	}
	c->st[1] = c->st[0], c->pad[1] = c->pad[0], c->dil[1] = c->dil[0];
	c->st[0] = c->dil[0] = 1, c->pad[0] = 0;
	c->ns = 2;
	c->one_d = 1;
	return 0;
}

static int cbwd_as_2d(dcx *d, const npu_gval *a, cbwd *c)
{
	return one_d_as_2d(d, c, a, (int64_t *const[]){ c->sg, c->sx, c->sw },
			   (npu_gval *const[]){ &c->go, &c->x, &c->w }, 3);
}

static int cbwd_args(dcx *d, const npu_gval *a, int na, cbwd *c)
{
	const npu_gmeta *m[3];
	int nd;

	for (int i = 0; i < 3; i++)
		if (i >= na || !(m[i] = node_meta(d, &a[i])))
			return fail(d, "%s", "convolution gradients of unknown operands");
	nd = npu_gmeta_shape(m[0], c->sg);
	c->ns = nd - 2;
	c->one_d = 0;
	if (na < 8 || nd < 3 || nd > 5 || npu_gmeta_shape(m[1], c->sx) != nd ||
	    npu_gmeta_shape(m[2], c->sw) != nd || !ints_are(&a[3], c->ns, -1) ||
	    !ints_ge(&a[4], c->ns, 0) || !ints_are(&a[5], c->ns, -1) || a[6].kind != NPU_GV_BOOL ||
	    a[6].u.b || a[7].kind != NPU_GV_INT || a[7].u.i < 1)
		return fail(d, "%s", "gradients of a transposed convolution, or not 1-d to 3-d");
	if (c->ns == 3 && a[7].u.i != 1)
		return fail(d, "%s", "gradients of a grouped 3-d convolution");
	c->go = a[0], c->x = a[1], c->w = a[2], c->g = a[7].u.i;
	for (int i = 0; i < c->ns; i++) {
		c->st[i] = a[3].u.list.v[i].u.i;
		c->pad[i] = a[4].u.list.v[i].u.i;
		c->dil[i] = a[5].u.list.v[i].u.i;
	}
	return c->ns == 1 ? cbwd_as_2d(d, a, c) : 0;
}

/* x padded by pads (pairs from the last dim, as constant_pad_nd's), or
 * x itself when they are all 0. */
static int pad_of(dcx *d, npu_gval x, const int64_t *pads, int n, npu_gval *res)
{
	npu_gval va[3] = { x };
	int any = 0, r;

	for (int i = 0; i < n; i++)
		any |= pads[i] != 0;
	if (!any)
		return npu_gval_copy(res, &x) < 0 ? npu_errf(d->pc->e, "out of memory") : 0;
	va[2] = npu_gv_float(0);
	if (npu_gv_ints(&va[1], pads, n) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = make_call(d, "aten.constant_pad_nd.default", va, 3, NULL, 0, res);
	npu_gval_clear(&va[1]);
	return r;
}

/* go with stride - 1 zeros after each element along its spatial dims
 * (none after the last): [N, C, (H - 1) s0 + 1, (W - 1) s1 + 1] of a 2-d
 * one.  One pad of go viewed with a unit dim after each spatial dim. */
static int zero_insert(dcx *d, const cbwd *c, npu_gval *res)
{
	int64_t v[NPU_MAX_DIMS], m[NPU_MAX_DIMS], pads[4 * 3] = { 0 };
	int ns = c->ns, r;
	npu_gval t[2 + 3] = { { 0 } };

	v[0] = m[0] = c->sg[0];
	v[1] = m[1] = c->sg[1];
	for (int i = 0; i < ns; i++) {
		v[2 + 2 * i] = c->sg[2 + i];
		v[3 + 2 * i] = 1;
		m[2 + i] = c->sg[2 + i] * c->st[i];
		/* pads run from the last dim: the unit dim after spatial
		 * dim i is pair 2 (ns - 1 - i) */
		pads[4 * (ns - 1 - i) + 1] = c->st[i] - 1;
	}
	r = call_ints(d, "aten.view.default", c->go, v, 2 + 2 * ns, &t[0]);
	if (!r)
		r = pad_of(d, t[0], pads, 4 * ns - 2, &t[1]);
	if (!r)
		r = call_ints(d, "aten.view.default", t[1], m, 2 + ns, &t[2]);
	for (int i = 0; !r && i < ns; i++)
		r = slice_of(d, t[2 + i], 2 + i, 0, (c->sg[2 + i] - 1) * c->st[i] + 1, 1,
			     i == ns - 1 ? res : &t[3 + i]);
	for (int i = 0; i < 2 + ns; i++)
		npu_gval_clear(&t[i]);
	return r;
}

/* The grouped convolution equal to the transposed one of weight w [Ci,
 * Co / g, K...] (Ci its input channels): w with each group's in and out
 * channels swapped, flipped in space. */
static int tconv_weight(dcx *d, const cbwd *c, npu_gval *res)
{
	int64_t g = c->g, ci = c->sw[0] / g, co = c->sw[1];
	int64_t v5[NPU_MAX_DIMS] = { g, ci, co }, p5[NPU_MAX_DIMS] = { 0, 2, 1 };
	int64_t v4[NPU_MAX_DIMS] = { g * co, ci }, fl[3];
	int ns = c->ns, r;
	npu_gval t[3] = { { 0 } };

	for (int i = 0; i < ns; i++) {
		v5[3 + i] = v4[2 + i] = c->sw[2 + i];
		p5[3 + i] = 3 + i;
		fl[i] = 2 + i;
	}
	r = call_ints(d, "aten.view.default", c->w, v5, 3 + ns, &t[0]);
	if (!r)
		r = call_ints(d, "aten.permute.default", t[0], p5, 3 + ns, &t[1]);
	if (!r)
		r = call_ints(d, "aten.reshape.default", t[1], v4, 2 + ns, &t[2]);
	if (!r)
		r = call_ints(d, "aten.flip.default", t[2], fl, ns, res);
	for (int i = 0; i < 3; i++)
		npu_gval_clear(&t[i]);
	return r;
}

/* The stride-1 convolution a transposed one equals: c->go with zeros
 * inserted along the stride (when strided), padded by pads (pairs from
 * the last dim), by tconv_weight, at c's dilation and groups. */
static int stuffed_conv(dcx *d, const cbwd *c, const int64_t *pads, int strided,
			npu_gval *res)
{
	int64_t one[3] = { 1, 1, 1 }, zero[3] = { 0, 0, 0 };
	npu_gval z = { 0 }, zp = { 0 }, wt = { 0 };
	int r;

	if (strided)
		r = zero_insert(d, c, &z);
	else
		r = npu_gval_copy(&z, &c->go) < 0 ? npu_errf(d->pc->e, "out of memory") : 0;
	if (!r)
		r = pad_of(d, z, pads, 2 * c->ns, &zp);
	if (!r)
		r = tconv_weight(d, c, &wt);
	if (!r)
		r = conv_of(d, c->ns, zp, wt, one, zero, c->dil, 0, zero, c->g, res);
	npu_gval_clear(&z);
	npu_gval_clear(&zp);
	npu_gval_clear(&wt);
	return r;
}

/*
 * @cbwd_in: grad_input, the transposed convolution of go by w, whose
 * output_padding makes up the rows the forward stride skipped.  With
 * groups (depthwise convolutions), dilation or three spatial dims, which
 * the backend does not run transposed: go with zeros inserted between its
 * elements along the stride, padded by dilation (k - 1) - padding (and
 * the output padding after), then the grouped convolution by
 * tconv_weight, at stride 1 (a 3-d one runs natively without dilation).
 */
static int cbwd_in_of(dcx *d, const cbwd *c, npu_gval *res)
{
	int64_t op[3], pads[6];
	int strided = 0, dilated = 0;

	for (int i = 0; i < c->ns; i++) {
		int64_t s = c->st[i], dl = c->dil[i], *p = &pads[2 * (c->ns - 1 - i)];
		op[i] = c->sx[2 + i] - ((c->sg[2 + i] - 1) * s - 2 * c->pad[i] + dl * (c->sw[2 + i] - 1) + 1);
		if (op[i] < 0 || (op[i] >= s && op[i] >= dl))
			return fail(d, "%s", "grad_input: sizes that do not invert");
		p[0] = dl * (c->sw[2 + i] - 1) - c->pad[i];
		p[1] = p[0] + op[i];
		strided |= s > 1;
		dilated |= dl > 1;
	}
	for (int i = 0; i < c->ns; i++)
		if ((c->g > 1 || dilated || c->ns == 3) && pads[2 * i] < 0)
			return fail(d, "%s", "grad_input of a grouped, dilated or 3-d convolution padded past its window");
	if (c->ns == 3 && dilated)
		return fail(d, "%s", "grad_input of a dilated 3-d convolution");
	/* (the backend runs 2-d transposed convolutions of one group and no
	 * dilation; a dilated one's gradient, as a grouped or 3-d one's, is
	 * the convolution below) */
	if (c->ns == 2 && c->g == 1 && !dilated)
		return conv_of(d, 2, c->go, c->w, c->st, c->pad, c->dil, 1, op, 1, res);
	return stuffed_conv(d, c, pads, strided, res);
}

/* One tap's part of grad_weight, from grad_output and the (padded)
 * input's window at the tap. */
typedef int (*gw_tap_fn)(dcx *d, const cbwd *c, npu_gval go, npu_gval win, npu_gval *res);

/*
 * grad_weight a tap: for each tap (i, j) of the window (i, j, k of a 3-d
 * one), the view of src (the input padded, [N, C, Hp, Wp]) at (i d0,
 * j d1) strided by the stride, its part by fn; the parts stacked along
 * dim sdim and viewed as wsh (nw dims).
 */
static int gw_by_taps(dcx *d, const cbwd *c, npu_gval src, npu_gval go, gw_tap_fn fn,
		      int sdim, const int64_t *wsh, int nw, npu_gval *res)
{
	int64_t K = 1;
	npu_gval taps = { .kind = NPU_GV_LIST }, st = { 0 };
	int ns = c->ns, r = 0;

	for (int i = 0; i < ns; i++)
		K *= c->sw[2 + i];
	if (!(taps.u.list.v = calloc((size_t)K, sizeof *taps.u.list.v)))
		return npu_errf(d->pc->e, "out of memory");
	for (int64_t t = 0; !r && t < K; t++) {
		npu_gval win[4] = { src };
		int64_t rest = t;
		/* tap t's offsets, the last dim's fastest */
		for (int i = ns - 1; !r && i >= 0; i--) {
			int64_t o = rest % c->sw[2 + i] * c->dil[i];
			rest /= c->sw[2 + i];
			r = slice_of(d, win[ns - 1 - i], 2 + i, o, o + (c->sg[2 + i] - 1) * c->st[i] + 1,
				     c->st[i], &win[ns - i]);
		}
		if (!r)
			r = fn(d, c, go, win[ns], &taps.u.list.v[taps.u.list.n++]);
		for (int i = 1; i <= ns; i++)
			npu_gval_clear(&win[i]);
	}
	if (!r) {
		npu_gval sa[2] = { taps, npu_gv_int(sdim) };
		r = stack(d, sa, 2, &st);
	}
	if (!r)
		r = call_ints(d, "aten.view.default", st, wsh, nw, res);
	npu_gval_clear(&taps);
	npu_gval_clear(&st);
	return r;
}

/* A depthwise tap: go times the window, summed over n, y, x: [Co]. */
static int gw_tap_dw(dcx *d, const cbwd *c, npu_gval go, npu_gval win, npu_gval *res)
{
	int64_t red[3] = { 0, 2, 3 };
	npu_gval prod = { 0 }, va[3];
	int r;

	(void)c;
	if ((r = call2(d, "aten.mul.Tensor", go, win, &prod)) < 0)
		return r;
	va[0] = prod;
	va[2].kind = NPU_GV_BOOL;
	va[2].u.b = 0;
	if (npu_gv_ints(&va[1], red, 3) < 0)
		r = npu_errf(d->pc->e, "out of memory");
	else
		r = make_call(d, "aten.sum.dim_IntList", va, 3, NULL, 0, res);
	npu_gval_clear(&va[1]);
	npu_gval_clear(&prod);
	return r;
}

/* grad_weight of one group a channel (depthwise, m = Co / Ci output
 * channels an input channel): tap (i, j) of channel o is the sum over
 * n, y, x of go[n, o, y, x] times the padded input's channel o / m at
 * (y s0 + i d0, x s1 + j d1): a strided view, a product and a reduction
 * a tap, the taps stacked. */
static int cbwd_gw_depthwise(dcx *d, const cbwd *c, npu_gval *res)
{
	int64_t N = c->sx[0], Ci = c->sx[1], Co = c->sg[1], m = Co / Ci;
	int64_t Hp = c->sx[2] + 2 * c->pad[0], Wp = c->sx[3] + 2 * c->pad[1];
	int64_t pads[4] = { c->pad[1], c->pad[1], c->pad[0], c->pad[0] };
	int64_t ex[5] = { N, Ci, m, Hp, Wp }, v4[4] = { N, Co, Hp, Wp };
	int64_t wsh[4] = { Co, 1, c->sw[2], c->sw[3] };
	npu_gval xp = { 0 }, xe = { 0 };
	int nw, r = pad_of(d, c->x, pads, 4, &xp);
	int64_t buf[3];
	const int64_t *gs = own_shape(c, wsh, buf, &nw);

	if (!r && m > 1) {
		npu_gval u = { 0 }, e = { 0 };
		r = unsq(d, xp, 2, &u);
		if (!r)
			r = call_ints(d, "aten.expand.default", u, ex, 5, &e);
		if (!r)
			r = call_ints(d, "aten.reshape.default", e, v4, 4, &xe);
		npu_gval_clear(&u);
		npu_gval_clear(&e);
	} else if (!r) {
		r = npu_gval_copy(&xe, &xp) < 0 ? npu_errf(d->pc->e, "out of memory") : 0;
	}
	if (!r)
		r = gw_by_taps(d, c, xe, c->go, gw_tap_dw, 1, gs, nw, res);
	npu_gval_clear(&xp);
	npu_gval_clear(&xe);
	return r;
}

/* A tap's window [N, Ci, Ho, Wo] of one group as [N, Ho, Wo, Ci], a
 * slice of the im2col matrix below. */
static int gw_tap_win(dcx *d, const cbwd *c, npu_gval g, npu_gval win, npu_gval *res)
{
	int64_t last[NPU_MAX_DIMS] = { 0 };

	(void)g;
	for (int i = 0; i < c->ns; i++)
		last[1 + i] = 2 + i;
	last[1 + c->ns] = 1;
	return call_ints(d, "aten.permute.default", win, last, 2 + c->ns, res);
}

/* A tap's product of one group: go [Co, N Ho Wo] times the window as
 * [N Ho Wo, Ci]. */
static int gw_tap_mm(dcx *d, const cbwd *c, npu_gval g, npu_gval win, npu_gval *res)
{
	int64_t x2[2] = { c->sg[0], c->sx[1] };
	npu_gval wp = { 0 }, w2 = { 0 };
	int r = gw_tap_win(d, c, g, win, &wp);

	for (int i = 0; i < c->ns; i++)
		x2[0] *= c->sg[2 + i];
	if (!r)
		r = call_ints(d, "aten.reshape.default", wp, x2, 2, &w2);
	if (!r)
		r = call2(d, "aten.mm.default", g, w2, res);
	npu_gval_clear(&wp);
	npu_gval_clear(&w2);
	return r;
}

/* The matrix unit's columns (npu-base's 128 without a target). */
static int64_t cols_of(dcx *d)
{
	const npu_target *t = d->pc->o->target;

	return t && t->mxu_cols > 0 ? t->mxu_cols : 128;
}

/*
 * grad_weight of one group: gw[:, :, i, j] = go [Co, N Ho Wo] x the
 * padded input's window at tap (i, j), strided by the stride, as [N Ho
 * Wo, Ci].  At stride 1 and Ci below the array's columns, one product: the
 * K taps' windows, stacked along a dim before the channels, are the
 * im2col matrix [N Ho Wo, K Ci] (cat stores each window into its slice),
 * so that one product [Co, K Ci] does what K of [Co, Ci] did, its columns
 * filling the array where one tap's Ci would not, and paying the array's
 * fill and drain once; viewed [Co, K, Ci], permuted to [Co, Ci, K] and K
 * split into the window's dims (a 3x3 gradient of 64 channels at 16 x 16,
 * batch 2: 56.8 k -> 48.5 k cycles).  A strided window's elements are a
 * column apart, which the cat's copy gathers one by one (64 -> 64
 * channels at stride 2, 64 x 64: 91 k cycles a tap, 291 k as im2col;
 * ResNet's 7 x 7 stem 332 k, 1.34 M), so a strided convolution keeps a
 * product a tap, the products stacked.  So does one whose Ci alone fills
 * the array's columns: im2col then saves only the fill and drain, and its
 * large matrix, unlike the taps' windows, finds no room in the
 * SRAM-resident window (link.c): DenseNet-121's backward (3x3 gradients
 * of 128 to 32 channels) took 8.14 M cycles with im2col, 6.73 M a
 * tap.  The convolution of the swapped operands (stride: the forward
 * dilation, dilation: the forward stride) has the same MACs but gathers a
 * window of Ho x Wo taps a column over only N channels: at batch 2,
 * MobileNetV2's 1x1 grad_weights took 235 k cycles each that way, its
 * backward 2.68 M cycles against 1.05 M a tap.
 */
static int cbwd_gw_taps(dcx *d, const cbwd *c, npu_gval *res)
{
	int64_t Co = c->sg[1], Ci = c->sx[1], K = 1, pads[6];
	int64_t swap[NPU_MAX_DIMS] = { 1, 0 }, g2[2] = { Co, c->sg[0] }, cols[2], kc[3];
	int64_t tr3[3] = { 0, 2, 1 }, wsh[NPU_MAX_DIMS] = { Co, Ci }, buf[3];
	const int64_t *gs;
	npu_gval t[6] = { { 0 } };
	int ns = c->ns, strided = 0, nw, r;

	for (int i = 0; i < ns; i++) {
		pads[2 * (ns - 1 - i)] = pads[2 * (ns - 1 - i) + 1] = c->pad[i];
		swap[2 + i] = 2 + i;
		g2[1] *= c->sg[2 + i];
		K *= c->sw[2 + i];
		wsh[2 + i] = c->sw[2 + i];
		strided |= c->st[i] > 1;
	}
	kc[0] = Co, kc[1] = K, kc[2] = Ci;
	cols[0] = g2[1], cols[1] = K * Ci;
	gs = own_shape(c, wsh, buf, &nw);
	r = call_ints(d, "aten.permute.default", c->go, swap, 2 + ns, &t[0]);
	if (!r)
		r = call_ints(d, "aten.reshape.default", t[0], g2, 2, &t[1]);
	if (!r)
		r = pad_of(d, c->x, pads, 2 * ns, &t[2]);
	if (!r && (strided || Ci >= cols_of(d))) {
		r = gw_by_taps(d, c, t[2], t[1], gw_tap_mm, 2, gs, nw, res);
		goto out;
	}
	if (!r)
		r = gw_by_taps(d, c, t[2], t[1], gw_tap_win, 1 + ns, cols, 2, &t[3]);
	if (!r)
		r = call2(d, "aten.mm.default", t[1], t[3], &t[4]);
	/* [Co, K, Ci] -> [Co, Ci, K], then K split into the window's dims
	 * (a transposition of three dims copies faster than one of five) */
	if (!r)
		r = call_ints(d, "aten.view.default", t[4], kc, 3, &t[5]);
	if (!r)
		r = call_ints(d, "aten.permute.default", t[5], tr3, 3, &t[3]);
	if (!r)
		r = call_ints(d, "aten.reshape.default", t[3], gs, nw, res);
out:
	for (int i = 0; i < 6; i++)
		npu_gval_clear(&t[i]);
	return r;
}

/* The most groups of several channels whose grad_weights are computed
 * one by one (ResNeXt's 32; more would make a node per group and tap) */
#define GW_GROUPS_MAX 64

/*
 * grad_weight of g groups of several channels (ResNeXt, RegNet): each
 * group's as one group's (cbwd_gw_taps) over its slices of go and x,
 * the groups' concatenated along the output channels.
 */
static int cbwd_gw_groups(dcx *d, const cbwd *c, npu_gval *res)
{
	int64_t og = c->sg[1] / c->g, ic = c->sx[1] / c->g;
	npu_gval l = { .kind = NPU_GV_LIST }, va[2];
	int r = 0;

	if (c->g > GW_GROUPS_MAX)
		return fail(d, "%s", "grad_weight of more groups of several channels than decomposed");
	if (!(l.u.list.v = calloc((size_t)c->g, sizeof *l.u.list.v)))
		return npu_errf(d->pc->e, "out of memory");
	for (int64_t i = 0; i < c->g && !r; i++) {
		cbwd cg = *c;
		npu_gval go = { 0 }, x = { 0 };
		cg.g = 1;
		cg.sg[1] = cg.sw[0] = og;
		cg.sx[1] = ic;
		r = slice_of(d, c->go, 1, i * og, (i + 1) * og, 1, &go);
		if (!r)
			r = slice_of(d, c->x, 1, i * ic, (i + 1) * ic, 1, &x);
		cg.go = go, cg.x = x;
		if (!r && !(r = cbwd_gw_taps(d, &cg, &l.u.list.v[i])))
			l.u.list.n++;
		npu_gval_clear(&go);
		npu_gval_clear(&x);
	}
	if (!r) {
		va[0] = l;
		va[1] = npu_gv_int(0);
		r = make_call(d, "aten.cat.default", va, 2, NULL, 0, res);
	}
	npu_gval_clear(&l);
	return r;
}

/*
 * @cbwd_gw: grad_weight.  One group: one product by the im2col matrix,
 * or a product a tap (cbwd_gw_taps says when).  One input channel a group
 * (depthwise): cbwd_gw_depthwise.  Groups of several: each group's
 * (cbwd_gw_groups).
 */
static int cbwd_gw_of(dcx *d, const cbwd *c, npu_gval *res)
{
	if (c->g == 1)
		return cbwd_gw_taps(d, c, res);
	return c->sw[1] == 1 ? cbwd_gw_depthwise(d, c, res) : cbwd_gw_groups(d, c, res);
}

/* @cbwd_in (gw 0) or @cbwd_gw (1); a 1-d convolution's computed as a
 * 2-d one's of height 1, grad_input viewed back (grad_weight's last view
 * makes its shape: own_shape). */
static int cbwd_run(dcx *d, npu_gval *a, int na, int gw, npu_gval *res)
{
	npu_gval t = { 0 };
	int64_t buf[3];
	cbwd c;
	int r, nd;

	if (cbwd_args(d, a, na, &c) < 0)
		return -1;
	if (gw)
		return cbwd_gw_of(d, &c, res);
	r = cbwd_in_of(d, &c, c.one_d ? &t : res);
	if (!r && c.one_d) {
		const int64_t *xs = own_shape(&c, c.sx, buf, &nd);
		r = call_ints(d, "aten.view.default", t, xs, nd, res);
	}
	npu_gval_clear(&t);
	return r;
}

/* ---- convolutions the backend runs in another form ----------------- */

/*
 * A grouped or dilated 3-d convolution as a 2-d one, which the backend
 * runs in every grouping and dilation: the depth taps stacked into the
 * channels group by group, X'[n OD + od][(j KD + t) Cg + c] =
 * x_pad[n][j Cg + c][od SD + t DD] (x padded along its depth only), the
 * weight's taps moved next to its channels ([O, KD Cg, KH, KW]: folded
 * when frozen), and the result's rows back to depth:
 * y[n][o][od] = Y'[n OD + od][o].
 */
static int conv3d_as_2d(dcx *d, const cbwd *c, npu_gval *res)
{
	int64_t N = c->sx[0], C = c->sx[1], D = c->sx[2], H = c->sx[3], W = c->sx[4];
	int64_t O = c->sw[0], KD = c->sw[2], g = c->g, cg = C / g, zero[2] = { 0, 0 };
	int64_t OD = (D + 2 * c->pad[0] - c->dil[0] * (KD - 1) - 1) / c->st[0] + 1;
	int64_t pads[6] = { 0, 0, 0, 0, c->pad[0], c->pad[0] }, v[NPU_MAX_DIMS];
	static const int64_t px[7] = { 0, 4, 1, 3, 2, 5, 6 }, pw[5] = { 0, 2, 1, 3, 4 };
	npu_gval taps = { .kind = NPU_GV_LIST }, t[9] = { { 0 } }, va[2];
	const npu_gmeta *m;
	int r;

	if (OD < 1)
		return fail(d, "%s", "a 3-d convolution of no output depth");
	if (!(taps.u.list.v = calloc((size_t)KD, sizeof *taps.u.list.v)))
		return npu_errf(d->pc->e, "out of memory");
	r = pad_of(d, c->x, pads, 6, &t[0]);
	for (int64_t k = 0; !r && k < KD; k++, taps.u.list.n++)
		r = slice_of(d, t[0], 2, k * c->dil[0], k * c->dil[0] + (OD - 1) * c->st[0] + 1,
			     c->st[0], &taps.u.list.v[k]);
	va[0] = taps;
	va[1] = npu_gv_int(2);
	if (!r)                                 /* [N, C, KD, OD, H, W] */
		r = stack(d, va, 2, &t[1]);
	if (!r)
		r = call_ints(d, "aten.view.default", t[1],
			      (int64_t[]){ N, g, cg, KD, OD, H, W }, 7, &t[2]);
	if (!r)                                 /* [N, OD, G, KD, Cg, H, W] */
		r = call_ints(d, "aten.permute.default", t[2], px, 7, &t[3]);
	if (!r)
		r = call_ints(d, "aten.reshape.default", t[3],
			      (int64_t[]){ N * OD, C * KD, H, W }, 4, &t[4]);
	if (!r)
		r = call_ints(d, "aten.permute.default", c->w, pw, 5, &t[5]);
	if (!r)
		r = call_ints(d, "aten.reshape.default", t[5],
			      (int64_t[]){ O, KD * cg, c->sw[3], c->sw[4] }, 4, &t[6]);
	if (!r)
		r = conv_of(d, 2, t[4], t[6], c->st + 1, c->pad + 1, c->dil + 1, 0, zero, g, &t[7]);
	if (!r && (!(m = node_meta(d, &t[7])) || npu_gmeta_shape(m, v) != 4))
		r = fail(d, "%s", "a 3-d convolution's 2-d form of unknown shape");
	if (!r)
		r = call_ints(d, "aten.view.default", t[7],
			      (int64_t[]){ N, OD, O, v[2], v[3] }, 5, &t[8]);
	if (!r)
		r = call_ints(d, "aten.permute.default", t[8], pw, 5, res);
	npu_gval_clear(&taps);
	for (int i = 0; i < 9; i++)
		npu_gval_clear(&t[i]);
	return r;
}

/*
 * A transposed convolution the backend does not run as one (3-d, grouped
 * or dilated) as the convolution it equals: x with stride - 1 zeros
 * inserted between its elements, padded by dilation (k - 1) - padding
 * (and the output padding after), convolved at stride 1 by the weight
 * with each group's in and out channels swapped, flipped in space
 * (cbwd_in_of's form, with x in grad_output's place).
 */
static int convt_as_conv(dcx *d, const cbwd *c, const int64_t *op, npu_gval *res)
{
	int64_t pads[6];
	int strided = 0;

	for (int i = 0; i < c->ns; i++) {
		int64_t *p = &pads[2 * (c->ns - 1 - i)];
		p[0] = c->dil[i] * (c->sw[2 + i] - 1) - c->pad[i];
		p[1] = p[0] + op[i];
		if (p[0] < 0)
			return fail(d, "%s", "a transposed convolution padded past its window");
		strided |= c->st[i] > 1;
	}
	return stuffed_conv(d, c, pads, strided, res);
}

/*
 * Whether the rewritten convolution c (tr: transposed, op its output
 * padding) beats its host call, by estimates from the target: the
 * rewrite's six or so kernels wait on the DRAM three times each (copies
 * of a small convolution take 1.3 k to 1.7 k cycles on npu-base), move
 * the input once per depth tap and the output, and compute every tap,
 * zeros inserted included: on the matrix unit at a quarter of the
 * columns the output channels fill where fuse.c's do_conv runs it as
 * GEMMs (one group; groups of 4 channels and 32-deep products), else a
 * tap at a time in the lanes at a fifteenth of their rate.  Fitted on
 * npu-base: a transposed 3-d convolution of [1, 64, 4, 16, 16] to 32
 * channels, 3x3x3, stride 2, took 486 k cycles natively against 22.7 M
 * as the host call, a dilated one 109 k against 2.2 M; but ops8's [1, 3,
 * 2, 3, 3] 5.6 k against 2.5 k, a depthwise 3-d one of [1, 48, 8, 28,
 * 28] 950 k against 890 k and a depthwise transposed 2-d one of [1, 32,
 * 16, 16] 84 k against 60 k.  The host call's figures are
 * sim/host.c's: 2 flops per output and weight element of an output
 * channel.
 */
static int conv_native(dcx *d, const cbwd *c, int tr, const int64_t *op)
{
	const npu_target *t = est_target(d->pc->o->target);
	double bw = fmin(t->dram_bytes_per_cycle, t->dma_engines * t->dma_bytes_per_cycle);
	int64_t co = tr ? c->sw[1] * c->g : c->sw[0], cig = tr ? c->sw[0] / c->g : c->sw[1];
	double out = (double)(c->sx[0] * co), in = (double)(c->sx[0] * c->sx[1]), kv = 1;
	double taps = c->ns == 3 ? (double)c->sw[2] : 1, cg2, k2, macs, nat, plain = 1;

	for (int i = 0; i < c->ns; i++) {
		int64_t k = c->sw[2 + i];
		out *= (double)(tr ? (c->sx[2 + i] - 1) * c->st[i] - 2 * c->pad[i] +
				     c->dil[i] * (k - 1) + op[i] + 1 :
				     (c->sx[2 + i] + 2 * c->pad[i] - c->dil[i] * (k - 1) - 1) /
				     c->st[i] + 1);
		in *= (double)(tr ? (c->sx[2 + i] - 1) * c->st[i] + 1 : c->sx[2 + i]);
		kv *= (double)k;
		plain *= c->dil[i] == 1 || (c->ns == 3 && i == 0);
	}
	macs = out * (double)cig * kv;
	cg2 = (double)cig * taps;
	k2 = cg2 * kv / taps;
	nat = 6 * 3 * (t->dram_latency + 50) + 4 * (in * (taps + 1) + out) / bw;
	if (c->g == 1 || (plain && cg2 >= 4 && k2 >= 32))
		nat += 4 * macs / (t->mxu_rows * fmin(t->mxu_cols, (double)(co / c->g)));
	else
		nat += 15 * macs / t->vec_lanes;
	return nat <= host_cycles(t, 4 * (in + out + (double)(c->sw[0] * c->sw[1]) * kv),
				  2 * out * (double)c->sw[1] * kv);
}

/*
 * @convx(x, w, stride, padding, dilation, transposed, output_padding,
 * groups): a convolution in a form the backend does not run (fuse.c's
 * do_conv) as one it does: a grouped or dilated 3-d one as a 2-d one
 * (conv3d_as_2d), a 3-d, grouped or dilated transposed one as a
 * convolution (convt_as_conv; a 1-d one as a 2-d one of height 1).
 * Fails, keeping the op, for the forms it runs.  The bias is added
 * after (decomp.def).
 */
static int convx_run(dcx *d, npu_gval *a, int na, npu_gval *res)
{
	const npu_gmeta *mx = na > 1 ? node_meta(d, &a[0]) : NULL;
	const npu_gmeta *mw = na > 1 ? node_meta(d, &a[1]) : NULL;
	int64_t op[3] = { 0 }, buf[NPU_MAX_DIMS];
	npu_gval t = { 0 };
	int nd, tr, plain = 1, r;
	cbwd c = { 0 };

	if (na < 8 || !mx || !mw || a[5].kind != NPU_GV_BOOL || a[7].kind != NPU_GV_INT ||
	    a[7].u.i < 1 || (nd = npu_gmeta_shape(mx, c.sx)) < 3 || nd > 5 ||
	    npu_gmeta_shape(mw, c.sw) != nd)
		return fail(d, "%s", "a convolution of unknown or symbolic shapes");
	c.ns = nd - 2;
	c.g = a[7].u.i;
	tr = a[5].u.b;
	if (!ints_are(&a[2], c.ns, -1) || !ints_ge(&a[3], c.ns, 0) ||
	    !ints_are(&a[4], c.ns, -1) || !ints_ge(&a[6], c.ns, 0))
		return fail(d, "%s", "a convolution whose lists do not match its dims");
	for (int i = 0; i < c.ns; i++) {
		c.st[i] = a[2].u.list.v[i].u.i;
		c.pad[i] = a[3].u.list.v[i].u.i;
		c.dil[i] = a[4].u.list.v[i].u.i;
		op[i] = a[6].u.list.v[i].u.i;
		plain &= c.dil[i] == 1;
	}
	plain &= c.g == 1;
	if (tr ? c.ns < 3 && plain : c.ns < 3 || plain)
		return fail(d, "%s", "a convolution the backend runs as it is");
	if (tr ? c.sw[0] != c.sx[1] || c.sw[0] % c.g :
		 c.sx[1] % c.g || c.sw[0] % c.g || c.sw[1] != c.sx[1] / c.g)
		return fail(d, "%s", "a convolution of mismatched channels");
	if (!conv_native(d, &c, tr, op))
		return fail(d, "%s", "a convolution whose host call costs less (its estimate)");
	if (!tr) {
		c.x = a[0], c.w = a[1];
		return conv3d_as_2d(d, &c, res);
	}
	if (c.ns > 1) {
		c.go = a[0], c.w = a[1];
		memcpy(c.sg, c.sx, sizeof c.sg);
		return convt_as_conv(d, &c, op, res);
	}
	/* 1-d: x [N, C, 1, L], w [Ci, Co/g, 1, K] */
	memcpy(c.sg, c.sx, sizeof c.sg);
	op[1] = op[0], op[0] = 0;
	r = one_d_as_2d(d, &c, a, (int64_t *const[]){ c.sg, c.sw },
			(npu_gval *const[]){ &c.go, &c.w }, 2);
	if (!r)
		r = convt_as_conv(d, &c, op, &t);
	if (!r && (!(mx = node_meta(d, &t)) || npu_gmeta_shape(mx, buf) != 4))
		r = fail(d, "%s", "a 1-d transposed convolution's 2-d form of unknown shape");
	if (!r)
		r = call_ints(d, "aten.view.default", t, (int64_t[]){ buf[0], buf[1], buf[3] }, 3, res);
	npu_gval_clear(&c.go);
	npu_gval_clear(&c.w);
	npu_gval_clear(&t);
	return r;
}

/* x [B, H, L, E] as [B*H, L, E]: attention's heads folded into bmm's
 * batch. */
static int sdpa_fold(dcx *d, const npu_gval *x, npu_gval *res)
{
	const npu_gmeta *m = node_meta(d, x);
	int64_t shp[NPU_MAX_DIMS];
	npu_gval va[2];
	int r;

	if (!m || npu_gmeta_shape(m, shp) != 4)
		return fail(d, "%s", "attention operands that are not 4-d, or symbolic");
	shp[0] *= shp[1];
	shp[1] = shp[2];
	shp[2] = shp[3];
	va[0] = *x;
	if (npu_gv_ints(&va[1], shp, 3) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = make_call(d, "aten.reshape.default", va, 2, NULL, 0, res);
	npu_gval_clear(&va[1]);
	return r;
}

/* (lse, q, k, v, dropout_p): the probabilities the forward saved as
 * logsumexp, folded; only [B,H,L,S] with q, k, v of H heads each, and
 * no dropout (its mask is no operand). */
static int sdpa_probs(dcx *d, const npu_gval *a, int na, npu_gval *res)
{
	const npu_gmeta *m[4];
	int64_t s[4][NPU_MAX_DIMS];
	double p;

	if (na < 5 || !is_number(&a[4], &p) || p != 0)
		return fail(d, "%s", "attention's backward with dropout");
	for (int i = 0; i < 4; i++)
		if (i >= na || !(m[i] = node_meta(d, &a[i])) || npu_gmeta_shape(m[i], s[i]) != 4)
			return fail(d, "%s", "a logsumexp, not the probabilities (or symbolic sizes)");
	if (s[0][0] != s[1][0] || s[0][1] != s[1][1] || s[0][2] != s[1][2] ||
	    s[0][3] != s[2][2] || s[2][1] != s[1][1] || s[3][1] != s[1][1])
		return fail(d, "%s", "grouped-query heads, or probabilities of another shape");
	return sdpa_fold(d, &a[0], res);
}

/*
 * @scatsrc(x, dim, index, src): scatter.src with at most SCATSRC_MAX
 * indices along dim per position of the other dims, src the index's
 * shape (Llama 4's router: the top expert's score into a row of zeros),
 * as where(fp32(iota along dim) == index[..., j], src[..., j], x) for j in
 * order: a later index to the same place wins, as on PyTorch's CPU,
 * which writes them in order.  Fails (keeping the op) for other shapes.
 */
#define SCATSRC_MAX 8

static int scatsrc(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	const npu_gmeta *sm = na > 3 ? node_meta(d, &a[3]) : NULL;
	int64_t shp[NPU_MAX_DIMS], ssh[NPU_MAX_DIMS], dm, k;
	npu_gval fio, cur, ix, sv, hit;
	int nd;

	if (na < 4)
		return fail(d, "%s", "a scatter of another form");
	if (scat_index(d, a, na, x0, shp, &dm, &k) < 0)
		return -1;
	nd = x0->ndim;
	if (!sm || npu_gmeta_shape(sm, ssh) != nd || sm->dtype != x0->dtype || !lanes_float(x0))
		return fail(d, "%s", "a scatter of another form");
	for (int i = 0; i < nd; i++)
		if (ssh[i] != (i == dm ? k : shp[i]))
			return fail(d, "%s", "a scatter whose index and src differ in shape");
	if (k < 1 || k > SCATSRC_MAX)
		return fail(d, "%s", "a scatter of more than 8 indices a row");
	if (float_iota(d, nd, shp, (int)dm, &fio) < 0 || copy_to(d, &cur, &a[0]) < 0)
		return -1;
	for (int64_t j = 0; j < k; j++) {
		if (slice_of(d, a[2], (int)dm, j, j + 1, 1, &ix) < 0 ||
		    slice_of(d, a[3], (int)dm, j, j + 1, 1, &sv) < 0 ||
		    call2(d, "aten.eq.Tensor", fio, ix, &hit) < 0 ||
		    call3(d, "aten.where.self", hit, sv, cur, &cur) < 0)
			return -1;
	}
	return copy_to(d, res, &cur);
}

/*
 * @maskscat(x, mask, source): masked_scatter by a mask that is one value
 * per row of x's last dim (vision-language models put image features
 * into the image tokens' embeddings: the token mask [.., L, 1]), as
 * where(mask, source_rows[cumsum(mask) - 1], x): the k-th masked row
 * takes source's k-th run of D elements, in order, as PyTorch's does;
 * the row numbers a cumsum of bool (exact in fp32 lanes), the rows a DMA
 * gather by them.  Fails (keeping the op) for other masks, or a source
 * that is not whole rows.
 */
static int maskscat(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	const npu_gmeta *mm = na > 1 ? node_meta(d, &a[1]) : NULL;
	const npu_gmeta *sm = na > 2 ? node_meta(d, &a[2]) : NULL;
	int64_t xs[NPU_MAX_DIMS], ms[NPU_MAX_DIMS], ss[NPU_MAX_DIMS], v[2], R = 1, n = 1, D;
	int nd = x0 ? npu_gmeta_shape(x0, xs) : -1, sd;
	npu_gval row, c, idx, src, lst, ia[2], rows, mask = na > 1 ? a[1] : npu_gv_int(0);

	if (nd < 2 || !mm || !sm || mm->dtype != NPU_DT_BOOL || sm->dtype != x0->dtype ||
	    npu_gmeta_shape(mm, ms) != nd || (sd = npu_gmeta_shape(sm, ss)) < 1)
		return fail(d, "%s", "a masked_scatter of another form");
	/* transformers expand the token mask over the hidden dim first */
	if (ms[nd - 1] != 1 && a[1].kind == NPU_GV_NODE) {
		const npu_gnode *e = npu_gedit_node(d->ge, a[1].u.node);
		const npu_gmeta *em = e->aop == NPU_AOP_EXPAND && e->nargs > 0 ?
				      node_meta(d, &e->args[0]) : NULL;
		if (em && em->dtype == NPU_DT_BOOL && npu_gmeta_shape(em, ms) == nd &&
		    ms[nd - 1] == 1) {
			mask = e->args[0];
		} else {
			ms[nd - 1] = 0;
		}
	}
	D = xs[nd - 1];
	for (int i = 0; i < nd - 1; i++) {
		if (ms[i] != xs[i])
			return fail(d, "%s", "a masked_scatter whose mask is not one value a row");
		R *= xs[i];
	}
	for (int i = 0; i < sd; i++)
		n *= ss[i];
	if (ms[nd - 1] != 1 || D < 1 || n % D || n < D || R >= (1 << 24))
		return fail(d, "%s", "a masked_scatter whose mask is not one value a row, or whose source is not whole rows");
	n /= D;
	v[0] = R;
	v[1] = D;
	if (call_ints(d, "aten.view.default", mask, v, 1, &row) < 0 ||
	    call2(d, "aten.cumsum.default", row, npu_gv_int(0), &c) < 0 ||
	    call2(d, "aten.sub.Tensor", c, npu_gv_int(1), &c) < 0 ||
	    call3(d, "aten.clamp.default", c, npu_gv_int(0), npu_gv_int(n - 1), &idx) < 0)
		return -1;
	v[0] = n;
	if (call_ints(d, "aten.view.default", a[2], v, 2, &src) < 0)
		return -1;
	lst.kind = NPU_GV_LIST;
	lst.u.list.v = &idx;
	lst.u.list.n = 1;
	ia[0] = src;
	ia[1] = lst;
	if (make_call(d, "aten.index.Tensor", ia, 2, NULL, 0, &rows) < 0 ||
	    call_ints(d, "aten.view.default", rows, xs, nd, &rows) < 0)
		return -1;
	return call3(d, "aten.where.self", mask, rows, a[0], res);
}

/*
 * @embbag(w, indices, offsets, mode, psw, include_last_offset, padding_idx,
 * which): an embedding bag's sums (mode 0, each row times its
 * per-sample weight) or means (1) as the rows gathered, G = w[indices]
 * [N, D], times the bags' membership M [B, N] on the array: bag b holds
 * positions offsets[b] <= i < offsets[b + 1] (N for the last, unless
 * include_last_offset gives it), less those whose index is padding_idx.
 * Positions and offsets compare in float32, exact: PyTorch raises unless
 * the offsets lie in [0, N], and N stays below 2^24.  A mean divides by
 * the bag's count, at least 1 (an empty bag is 0, as in PyTorch); bf16
 * and f16 rows are summed in float32 and rounded once.  Max (2), float64,
 * the other results (offset2bag, bag_size, max_indices) and bags whose
 * products cost more than the host call (embbag_native) fail, keeping
 * the op: a host call.
 */

/* Whether the bag products' estimate beats the host call's, from the
 * target's figures: five kernels' DRAM waits (the gather, the
 * membership's compares, the product, the mean), the rows gathered over
 * the DMA engines, M's B N elements a few times in the lanes, the
 * product's MACs at 40% of the array's peak; against the host call,
 * which moves the whole table (and the indices, offsets and result)
 * over the link and adds N rows of D.  Right at each of nine sizes
 * measured on npu-base (docs/compiler.md): 100,000 x 64 rows, 2,048
 * indices in 128 bags 76.1 k cycles natively against 805 k; 1,000 x 32,
 * 8,192 in 512 bags 983 k against 13.8 k. */
static int embbag_native(const npu_target *t, int64_t R, int64_t D, int64_t N, int64_t B,
			 double esz)
{
	double peak, nat;

	t = est_target(t);
	peak = (double)t->mxu_rows * t->mxu_cols * 0.25;
	nat = 5.0 * t->dram_latency + 2.0 * (t->mxu_rows + t->mxu_cols) +
	      (double)N * D * esz / ((double)t->dma_engines * t->dma_bytes_per_cycle) +
	      6.0 * B * N / (t->vec_lanes > 0 ? t->vec_lanes : 128) +
	      (double)B * N * D / (0.4 * peak);
	return nat <= host_cycles(t, (double)(R * D + B * D) * esz + 8.0 * (N + B),
				  (double)N * D);
}

/* EMBBAG_MAX: membership elements (B N) at most */
#define EMBBAG_MAX (1ll << 22)

/* The bags' membership M [B, N], float32: offsets[b] <= i < offsets[b + 1]
 * (the last bag's end N, a pad, unless ilo), the index not pad (>= 0). */
static int bag_members(dcx *d, npu_gval indices, npu_gval offsets, int64_t N, int64_t B,
		       int ilo, int64_t pad, npu_gval *res)
{
	npu_gkwarg kw = { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = NPU_DT_F32 } };
	int64_t row[2] = { 1, N }, col[2] = { B, 1 }, pd[2] = { 0, 1 };
	npu_gval rows, offs, lo, hi, m, t, pa[3];
	int r;

	if (float_iota(d, 2, row, 1, &rows) < 0 ||
	    make_call(d, "aten._to_copy.default", &offsets, 1, &kw, 1, &offs) < 0 ||
	    slice_of(d, offs, 0, 0, B, 1, &lo) < 0 ||
	    slice_of(d, offs, 0, 1, B + 1 - !ilo, 1, &hi) < 0)
		return -1;
	if (!ilo) {
		pa[0] = hi;
		pa[2] = npu_gv_float((double)N);
		if (npu_gv_ints(&pa[1], pd, 2) < 0)
			return npu_errf(d->pc->e, "out of memory");
		r = make_call(d, "aten.constant_pad_nd.default", pa, 3, NULL, 0, &hi);
		npu_gval_clear(&pa[1]);
		if (r < 0)
			return -1;
	}
	if (call_ints(d, "aten.view.default", lo, col, 2, &lo) < 0 ||
	    call_ints(d, "aten.view.default", hi, col, 2, &hi) < 0 ||
	    call2(d, "aten.ge.Tensor", rows, lo, &lo) < 0 ||
	    call2(d, "aten.lt.Tensor", rows, hi, &hi) < 0 ||
	    call2(d, "aten.logical_and.default", lo, hi, &m) < 0)
		return -1;
	if (pad >= 0 &&
	    (make_call(d, "aten._to_copy.default", &indices, 1, &kw, 1, &t) < 0 ||
	     call2(d, "aten.ne.Scalar", t, npu_gv_float((double)pad), &t) < 0 ||
	     call_ints(d, "aten.view.default", t, row, 2, &t) < 0 ||
	     call2(d, "aten.logical_and.default", m, t, &m) < 0))
		return -1;
	return make_call(d, "aten._to_copy.default", &m, 1, &kw, 1, res);
}

static int embbag(dcx *d, npu_gval *a, int na, npu_gval *res)
{
	const npu_gmeta *wm = na > 7 ? node_meta(d, &a[0]) : NULL;
	const npu_gmeta *im = wm ? node_meta(d, &a[1]) : NULL, *om = im ? node_meta(d, &a[2]) : NULL;
	npu_gkwarg kw = { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = NPU_DT_F32 } };
	int64_t ws[NPU_MAX_DIMS], is[NPU_MAX_DIMS], os[NPU_MAX_DIMS], col[2], one = 1, N, B;
	npu_gval g, m, t, sa[3];
	int r;

	if (!om || npu_gmeta_shape(wm, ws) != 2 || npu_gmeta_shape(im, is) != 1 ||
	    npu_gmeta_shape(om, os) != 1 || x0_float(d, &a[0]) != 1 ||
	    (im->dtype != NPU_DT_I64 && im->dtype != NPU_DT_I32) || om->dtype != im->dtype ||
	    a[3].kind != NPU_GV_INT || a[5].kind != NPU_GV_BOOL || a[7].kind != NPU_GV_INT ||
	    (a[6].kind != NPU_GV_INT && a[6].kind != NPU_GV_NONE))
		return fail(d, "%s", "an embedding bag of another form");
	N = is[0];
	B = os[0] - a[5].u.b;
	if (a[7].u.i != 0 || (a[3].u.i != 0 && a[3].u.i != 1) ||
	    (a[4].kind != NPU_GV_NONE && a[3].u.i != 0))
		return fail(d, "%s", "an embedding bag's max, or its offset2bag, bag_size or "
			    "max_indices");
	if (B < 1 || N < 1 || N >= (1 << 24) || ws[0] >= (1 << 24) || B * N > EMBBAG_MAX ||
	    !embbag_native(d->pc->o->target, ws[0], ws[1], N, B, npu_dtype_size(wm->dtype)))
		return fail(d, "%s", "an embedding bag whose products cost more than the host call "
			    "(or empty, or past 2^24 positions)");
	/* G [N, D] in float32, times the per-sample weights, summed by M */
	col[0] = N;
	col[1] = 1;
	if (call2(d, "aten.embedding.default", a[0], a[1], &g) < 0 ||
	    (wm->dtype != NPU_DT_F32 &&
	     make_call(d, "aten._to_copy.default", &g, 1, &kw, 1, &g) < 0) ||
	    (a[4].kind != NPU_GV_NONE &&
	     (call_ints(d, "aten.view.default", a[4], col, 2, &t) < 0 ||
	      call2(d, "aten.mul.Tensor", g, t, &g) < 0)) ||
	    bag_members(d, a[1], a[2], N, B, a[5].u.b, a[6].kind == NPU_GV_INT ? a[6].u.i : -1,
			&m) < 0 ||
	    call2(d, "aten.mm.default", m, g, &g) < 0)
		return -1;
	if (a[3].u.i == 1) {	/* the mean: over the count, at least 1 */
		sa[0] = m;
		sa[2] = npu_gv_bool(1);
		if (npu_gv_ints(&sa[1], &one, 1) < 0)
			return npu_errf(d->pc->e, "out of memory");
		r = make_call(d, "aten.sum.dim_IntList", sa, 3, NULL, 0, &t);
		npu_gval_clear(&sa[1]);
		if (r < 0 || call2(d, "aten.clamp_min.default", t, npu_gv_float(1), &t) < 0 ||
		    call2(d, "aten.div.Tensor", g, t, &g) < 0)
			return -1;
	}
	if (wm->dtype == NPU_DT_F32)
		return copy_to(d, res, &g);
	kw.val.u.dtype = wm->dtype;
	return make_call(d, "aten._to_copy.default", &g, 1, &kw, 1, res);
}

/*
 * @idxsel(x, indices): x[..., i1, ..., ik], k >= 2 run-time index tensors
 * of one shape at x's last k dims (DLRM's interactions, z[:, iu[0],
 * iu[1]], its triu_indices a plain attribute and so a graph input):
 * each position's offset in x's last dims, lin = sum wrap(i_m) * stride_m,
 * in float32 (exact: PyTorch raises for an index outside [-S, S)), then
 * the element at it, amax over those dims flattened of where(iota == lin,
 * x, -inf), so that NaN, infinities and -0 come through as they are.
 * Past IDXSEL_MAX selections, a gather of rows (idxgather).  Fails, the
 * op staying (do_index: a host call for such indices), for other forms,
 * constant indices (do_index's own) and one index (index_rt's).
 */
#define IDXSEL_MAX (1 << 20)

/*
 * Past IDXSEL_MAX: x's indexed dims flattened into M rows of its P
 * leading elements each ([M, P], a transposing copy when P > 1), the
 * rows gathered by the offsets made int64 (an embedding: its index's
 * range, [0, M - 1], is what lets fuse.c cast the float offsets in the
 * lanes, integral as they are), moved back behind the leading dims.
 */
static int idxgather(dcx *d, npu_gval x, npu_gval lin, const int64_t *xs, int p,
		     const int64_t *is, int ni, int64_t P, int64_t M, npu_gval *res)
{
	npu_gkwarg kw = { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = NPU_DT_I64 } };
	int64_t sh[NPU_MAX_DIMS], perm[NPU_MAX_DIMS];
	npu_gval t, ix;

	sh[0] = P, sh[1] = M;
	perm[0] = 1, perm[1] = 0;
	if (make_call(d, "aten._to_copy.default", &lin, 1, &kw, 1, &ix) < 0 ||
	    call_ints(d, "aten.reshape.default", x, sh, 2, &t) < 0 ||
	    call_ints(d, "aten.permute.default", t, perm, 2, &t) < 0 ||
	    call1(d, "aten.clone.default", t, &t) < 0 ||
	    call2(d, "aten.embedding.default", t, ix, &t) < 0)
		return -1;
	/* [I..., P] -> [P, I...] -> [pre..., I...] */
	perm[0] = ni;
	for (int m = 0; m < ni; m++)
		perm[m + 1] = m;
	memcpy(sh, xs, (size_t)p * sizeof *sh);
	memcpy(sh + p, is, (size_t)ni * sizeof *sh);
	if (call_ints(d, "aten.permute.default", t, perm, ni + 1, &t) < 0)
		return -1;
	return call_ints(d, "aten.reshape.default", t, sh, p + ni, res);
}

/* The offsets, float32, of the positions the index tensors l[p..nd)
 * pick in x's dims p..nd of sizes xs: Horner, negative indices wrapped. */
static int idx_offsets(dcx *d, const npu_gval *l, const int64_t *xs, int p, int nd,
		       npu_gval *res)
{
	npu_gkwarg kw = { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = NPU_DT_F32 } };
	npu_gval lin = { 0 }, f, t, up;

	for (int m = p; m < nd; m++) {
		if (make_call(d, "aten._to_copy.default", &l->u.list.v[m], 1, &kw, 1, &f) < 0 ||
		    call2(d, "aten.lt.Scalar", f, npu_gv_float(0), &t) < 0 ||
		    call2(d, "aten.add.Tensor", f, npu_gv_float((double)xs[m]), &up) < 0 ||
		    call3(d, "aten.where.self", t, up, f, &f) < 0)
			return -1;
		if (m > p && (call2(d, "aten.mul.Tensor", lin, npu_gv_float((double)xs[m]), &lin) < 0 ||
			      call2(d, "aten.add.Tensor", lin, f, &f) < 0))
			return -1;
		lin = f;
	}
	*res = lin;
	return 0;
}

static int idxsel(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	int64_t xs[NPU_MAX_DIMS], is[NPU_MAX_DIMS], js[NPU_MAX_DIMS], sh[NPU_MAX_DIMS];
	int64_t P = 1, M = 1, K = 1, ax = 2;
	int nd = x0 ? npu_gmeta_shape(x0, xs) : -1, ni = -1, p = -1, r;
	npu_gval lin, f, t, io, fill, dims;
	const npu_gval *l = na > 1 ? &a[1] : NULL;

	if (nd < 2 || !l || l->kind != NPU_GV_LIST || l->u.list.n != nd || x0_float(d, &a[0]) != 1)
		return fail(d, "%s", "an index of another form");
	for (int m = 0; m < nd; m++) {
		const npu_gval *e = &l->u.list.v[m];
		const npu_gmeta *im;
		int nj;
		if (e->kind == NPU_GV_NONE && p < 0)
			continue;
		if (e->kind != NPU_GV_NODE ||
		    npu_gedit_node(d->ge, e->u.node)->op == NPU_GOP_GET_ATTR ||
		    !(im = node_meta(d, e)) || (im->dtype != NPU_DT_I64 && im->dtype != NPU_DT_I32) ||
		    (nj = npu_gmeta_shape(im, js)) < 0 || (ni >= 0 && (nj != ni ||
		     memcmp(js, is, (size_t)ni * sizeof *is))))
			return fail(d, "%s", "an index of another form (not run-time indices "
				    "of one shape at the last dims)");
		if (p < 0) {
			p = m;
			ni = nj;
			memcpy(is, js, sizeof is);
		}
	}
	if (p < 0 || p > nd - 2 || p + ni > NPU_MAX_DIMS)
		return fail(d, "%s", "an index by one run-time index (index_rt's) or none");
	for (int m = 0; m < nd; m++)
		*(m < p ? &P : &M) *= xs[m];
	for (int m = 0; m < ni; m++)
		K *= is[m];
	if (M >= (1 << 24))
		return fail(d, "%s", "an index by run-time indices into 2^24 elements or more");
	if (idx_offsets(d, l, xs, p, nd, &lin) < 0)
		return -1;
	if (P * K * M > IDXSEL_MAX)
		return idxgather(d, a[0], lin, xs, p, is, ni, P, M, res);
	sh[0] = 1, sh[1] = K, sh[2] = 1;
	if (call_ints(d, "aten.reshape.default", lin, sh, 3, &lin) < 0)
		return -1;
	sh[1] = 1, sh[2] = M;
	if (float_iota(d, 3, sh, 2, &io) < 0 || call2(d, "aten.eq.Tensor", io, lin, &t) < 0)
		return -1;
	sh[0] = P;
	if (call_ints(d, "aten.reshape.default", a[0], sh, 3, &f) < 0 ||
	    call2(d, "aten.full_like.default", f, npu_gv_float(-INFINITY), &fill) < 0 ||
	    call3(d, "aten.where.self", t, f, fill, &f) < 0)
		return -1;
	if (npu_gv_ints(&dims, &ax, 1) < 0)
		return npu_errf(d->pc->e, "out of memory");
	r = call2(d, "aten.amax.default", f, dims, &f);
	npu_gval_clear(&dims);
	if (r < 0)
		return -1;
	memcpy(sh, xs, (size_t)p * sizeof *sh);
	memcpy(sh + p, is, (size_t)ni * sizeof *sh);
	return call_ints(d, "aten.reshape.default", f, sh, p + ni, res);
}

/*
 * @groupedmm(x, w, offs): transformers' grouped_mm_fallback (the MoE
 * experts of Mixtral, Qwen-MoE, OLMoE, DeepSeek, GPT-OSS in transformers
 * 5): rows [offs[e-1], offs[e]) of x [T, K] times w[e] [K, N], rows past
 * offs[E-1] zero.  The row ranges are data, so each expert's matmul runs
 * over all T rows on the array and a where keeps the rows in its range
 * (the row numbers compared in fp32 with the offsets, exact below 2^24):
 * E times the MACs, but no host call, which moves every expert's weight
 * over the host link.  A row is one expert's dot products either way, so
 * the values are the host's.  Chosen while its estimate (below) is the
 * smaller: many small experts (512 of 128 x 64) are cheaper on the host,
 * and so are many experts over many rows.
 */

/* Cycles of the E matmuls and wheres, and of the host call, from the
 * target's figures.  The native estimate was fitted on npu-base to runs
 * of T 64..4096, E 16..512, K N 8 k..128 k (within 10%): per expert
 * two kernels' boundaries, 2 (DRAM latency + array rows + cols), its
 * weight over the DMA engines, and its MACs at 40% of the array's peak
 * (the rows stream the weight tiles one at a time, the where's lanes
 * and output stores after them).  The host's is docs/timing-model.md's
 * formula with mm's flops. */
static int groupedmm_native(const npu_target *t, int dt, int64_t T, int64_t E, int64_t K,
			    int64_t N)
{
	double esz = npu_dtype_size(dt), rate, peak, nat;

	t = est_target(t);
	rate = t == &est_base ? (dt == NPU_DT_F32 ? 0.25 : 1) : t->mxu_rate[dt];
	peak = (double)t->mxu_rows * t->mxu_cols * (rate > 0 ? rate : 0.25);
	nat = (double)E * (2.0 * (t->dram_latency + t->mxu_rows + t->mxu_cols) +
			   (double)K * N * esz / (t->dma_engines * t->dma_bytes_per_cycle) +
			   (double)T * K * N / (0.4 * peak));
	return nat <= host_cycles(t, (double)(T * K + E * K * N + T * N) * esz,
				  2.0 * T * K * N);
}

static int groupedmm(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	const npu_gmeta *wm = na > 1 ? node_meta(d, &a[1]) : NULL;
	const npu_gmeta *om = na > 2 ? node_meta(d, &a[2]) : NULL;
	npu_gkwarg kw = { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = NPU_DT_F32 } };
	int64_t xs[NPU_MAX_DIMS], ws[NPU_MAX_DIMS], os[NPU_MAX_DIMS], v[2];
	npu_gval rows, offs, out = { 0 }, t, we, m, in, lo;

	if (!x0 || !wm || !om || npu_gmeta_shape(x0, xs) != 2 || npu_gmeta_shape(wm, ws) != 3 ||
	    npu_gmeta_shape(om, os) != 1 || ws[1] != xs[1] || os[0] != ws[0] ||
	    x0->dtype != wm->dtype || (!npu_kir_isint(om->dtype) && om->dtype != NPU_DT_I64))
		return fail(d, "%s", "a grouped matmul of another form");
	if (ws[0] < 1 || xs[0] >= (1 << 24))
		return fail(d, "%s", "a grouped matmul of no experts (or 2^24 rows)");
	if (!groupedmm_native(d->pc->o->target, x0->dtype, xs[0], ws[0], ws[1], ws[2]))
		return fail(d, "%s", "a grouped matmul whose experts cost more on the NPU than "
			    "the host call (many small experts, or many rows)");
	v[0] = xs[0];
	v[1] = 1;
	if (float_iota(d, 2, v, 0, &rows) < 0 ||
	    make_call(d, "aten._to_copy.default", &a[2], 1, &kw, 1, &offs) < 0)
		return -1;
	for (int64_t e = 0; e < ws[0]; e++) {
		/* w[e] as [K, N]; its rows: offs[e-1] <= r < offs[e] */
		v[0] = ws[1];
		v[1] = ws[2];
		if (slice_of(d, a[1], 0, e, e + 1, 1, &t) < 0 ||
		    call_ints(d, "aten.view.default", t, v, 2, &we) < 0 ||
		    call2(d, "aten.mm.default", a[0], we, &m) < 0 ||
		    slice_of(d, offs, 0, e, e + 1, 1, &t) < 0 ||
		    call2(d, "aten.lt.Tensor", rows, t, &in) < 0)
			return -1;
		if (e && (slice_of(d, offs, 0, e - 1, e, 1, &t) < 0 ||
			  call2(d, "aten.ge.Tensor", rows, t, &lo) < 0 ||
			  call2(d, "aten.logical_and.default", in, lo, &in) < 0))
			return -1;
		if (!e && call2(d, "aten.full_like.default", m, npu_gv_float(0), &out) < 0)
			return -1;
		if (call3(d, "aten.where.self", in, m, out, &out) < 0)
			return -1;
	}
	return copy_to(d, res, &out);
}

/*
 * @gpool: [-2, -1] when average pooling x takes one window over all of
 * each plane (no padding, the kernel at least the plane, no divisor
 * override: the mean of the plane, however far the window hangs over)
 * and that window has more taps than an elementwise kernel has
 * operands, the form the pooling's own lowering takes (fuse.c): a
 * global average pool over 14 x 14 is a mean over the last two dims.
 * Smaller ones (ResNet's 7 x 7) keep that lowering.  A kernel size
 * given as none is the plane's (_adaptive_avg_pool2d to 1 x 1, its
 * output size as the padding argument).
 */
static int gpool(dcx *d, const npu_gval *a, int na, const npu_gmeta *x0,
		 npu_gval *res)
{
	int64_t shp[NPU_MAX_DIMS], ks[2], pd[2] = { 0, 0 }, dm[2] = { -2, -1 };
	int nd = x0 ? npu_gmeta_shape(x0, shp) : -1;

	if (na < 4 || (nd != 3 && nd != 4))
		return fail(d, "%s", "@gpool: bad operands");
	if (a[1].kind == NPU_GV_NONE) {
		if (!ints2(&a[2], ks) || ks[0] != 1 || ks[1] != 1)
			return fail(d, "%s", "not a global pool");
		ks[0] = shp[nd - 2];
		ks[1] = shp[nd - 1];
	} else if (!ints2(&a[1], ks) || !ints2(&a[2], pd)) {
		return fail(d, "%s", "@gpool: bad operands");
	}
	if (pd[0] || pd[1] || a[3].kind != NPU_GV_NONE ||
	    ks[0] < shp[nd - 2] || ks[1] < shp[nd - 1])
		return fail(d, "%s", "not a global pool");
	if (shp[nd - 2] * shp[nd - 1] + 2 <= NPU_KERN_MAX_OPS)
		return fail(d, "%s", "a global pool the pooling kernel takes");
	return npu_gv_ints(res, dm, 2) < 0 ? npu_errf(d->pc->e, "out of memory") : 0;
}

/*
 * The window of avg_pool2d_backward (go, x, kernel_size, stride, padding,
 * ceil_mode, count_include_pad, divisor_override) or, kernel none,
 * _adaptive_avg_pool2d_backward's (sizes that divide) when windows do not
 * overlap and share one divisor: kernel = stride, no padding, no partial
 * window.  In k and *div; 0 when it is not that form.
 */
static int pool_tiles(const npu_gval *a, int na, const int64_t *in, const int64_t *out,
		      int64_t *k, double *div)
{
	int64_t st[2], pd[2];

	if (a[2].kind == NPU_GV_NONE) {         /* adaptive */
		for (int i = 0; i < 2; i++)
			if (out[i] <= 0 || in[i] % out[i])
				return 0;
		k[0] = in[0] / out[0];
		k[1] = in[1] / out[1];
		*div = (double)(k[0] * k[1]);
		return 1;
	}
	if (na < 8 || !ints2(&a[2], k) || !ints2(&a[4], pd) || pd[0] || pd[1])
		return 0;
	if (a[3].kind == NPU_GV_NONE || (a[3].kind == NPU_GV_LIST && !a[3].u.list.n))
		st[0] = k[0], st[1] = k[1];
	else if (!ints2(&a[3], st))
		return 0;
	if (st[0] != k[0] || st[1] != k[1])
		return 0;
	for (int i = 0; i < 2; i++)             /* every window whole */
		if (k[i] <= 0 || out[i] * k[i] > in[i] || (in[i] - k[i]) / k[i] + 1 != out[i])
			return 0;
	*div = (double)(k[0] * k[1]);
	if (a[7].kind != NPU_GV_NONE && (a[7].kind != NPU_GV_INT || !a[7].u.i))
		return 0;
	if (a[7].kind == NPU_GV_INT)
		*div = (double)a[7].u.i;
	return 1;
}

/*
 * @avgpoolbwd: average pooling's gradient when its windows tile the
 * plane (pool_tiles): each window's gradient over its divisor, repeated
 * over the window (a view [.., oh, 1, ow, 1] expanded to the window and
 * reshaped), the rows and columns no window covers zero.  Else fails,
 * keeping the op (a host call).
 */
static int avgpoolbwd(dcx *d, npu_gval *a, int na, npu_gval *res)
{
	const npu_gmeta *gm = na > 1 ? node_meta(d, &a[0]) : NULL, *xm = na > 1 ? node_meta(d, &a[1]) : NULL;
	int64_t gs[NPU_MAX_DIMS], xs[NPU_MAX_DIMS], v[NPU_MAX_DIMS], k[2], pad[4];
	int nd = gm ? npu_gmeta_shape(gm, gs) : -1, b, r;
	double div;
	npu_gval t[4] = { { 0 } }, sa[2];

	if (nd < 3 || nd + 2 > NPU_MAX_DIMS || !xm || npu_gmeta_shape(xm, xs) != nd ||
	    !pool_tiles(a, na, xs + nd - 2, gs + nd - 2, k, &div))
		return fail(d, "%s", "an average pooling whose windows overlap, pad or differ in size");
	b = nd - 2;
	sa[0] = a[0];
	sa[1] = npu_gv_float(div);     /* (divided, as ATen's kernel does) */
	if ((r = make_call(d, "aten.div.Tensor", sa, 2, NULL, 0, &t[0])) < 0)
		goto out;
	memcpy(v, gs, (size_t)b * sizeof *v);
	v[b] = gs[b], v[b + 1] = 1, v[b + 2] = gs[b + 1], v[b + 3] = 1;
	if ((r = call_ints(d, "aten.reshape.default", t[0], v, nd + 2, &t[1])) < 0)
		goto out;
	v[b + 1] = k[0], v[b + 3] = k[1];
	if ((r = call_ints(d, "aten.expand.default", t[1], v, nd + 2, &t[2])) < 0)
		goto out;
	v[b] = gs[b] * k[0], v[b + 1] = gs[b + 1] * k[1];
	pad[0] = 0, pad[1] = xs[b + 1] - v[b + 1], pad[2] = 0, pad[3] = xs[b] - v[b];
	if (!pad[1] && !pad[3]) {
		r = call_ints(d, "aten.reshape.default", t[2], v, nd, res);
		goto out;
	}
	if ((r = call_ints(d, "aten.reshape.default", t[2], v, nd, &t[3])) < 0)
		goto out;
	r = call_ints(d, "aten.constant_pad_nd.default", t[3], pad, 4, res);
out:
	for (int i = 0; i < 4; i++)
		npu_gval_clear(&t[i]);
	return r;
}

/*
 * @adaptbwd(go, x): _adaptive_avg_pool2d_backward whose windows vary in
 * size or overlap (VGG's 7 x 7 pool of a 2 x 2 map, upsampling; AlexNet's
 * 6 x 6 of 5 x 5).  The gradient is linear in go and separable: output
 * (i, j)'s window is rows [floor(i H / OH), ceil((i + 1) H / OH)) by the
 * same of columns, so grad = Qh go Qw, Qw[j][w] = 1 / kw_j over window j
 * ([OW, W]), Qh[h][i] = 1 / kh_i ([H, OH]): go viewed [B OH, OW] @ Qw,
 * then Qh (expanded over B) @ that viewed [B, OH, W], B = N C.  Two fp32
 * matmuls by folded constants (ATen divides go by kh, then kw: within an
 * ulp or two of these products).  float32 only; else fails.
 */
#define ADAPTBWD_MAX (1 << 20)  /* elements of Qh, of Qw */

/* Qw (rows 0) or Qh (1) of n input positions, m windows. */
static int adapt_q(dcx *d, int64_t n, int64_t m, int rows, npu_gval *res)
{
	int64_t sh[2] = { rows ? n : m, rows ? m : n };
	npu_reftensor q = { .ndim = -1 };

	if (npu_reftensor_alloc(&q, NPU_DT_F32, 2, sh, d->pc->e) < 0)
		return -1;
	for (int64_t i = 0; i < m; i++) {
		int64_t a = i * n / m, b = ((i + 1) * n + m - 1) / m;
		double f = (float)(1.0 / (double)(b - a));
		for (int64_t h = a; h < b; h++)
			q.data[rows ? h * m + i : i * n + h] = f;
	}
	return table_const(d, &q, res);
}

static int adaptbwd(dcx *d, npu_gval *a, int na, npu_gval *res)
{
	const npu_gmeta *gm = na > 1 ? node_meta(d, &a[0]) : NULL, *xm = na > 1 ? node_meta(d, &a[1]) : NULL;
	int64_t gs[NPU_MAX_DIMS], xs[NPU_MAX_DIMS], v[3], B = 1, H, W, OH, OW;
	npu_gval t[7] = { { 0 } };
	int nd = gm ? npu_gmeta_shape(gm, gs) : -1, r = -1;

	if (nd < 3 || !xm || npu_gmeta_shape(xm, xs) != nd || gm->dtype != NPU_DT_F32)
		return fail(d, "%s", "@adaptbwd: not a float32 pooling's gradient");
	H = xs[nd - 2], W = xs[nd - 1], OH = gs[nd - 2], OW = gs[nd - 1];
	for (int i = 0; i < nd - 2; i++)
		B *= gs[i];
	if (OH <= 0 || OW <= 0 || H <= 0 || W <= 0 || (double)OW * (double)W > ADAPTBWD_MAX ||
	    (double)OH * (double)H > ADAPTBWD_MAX)
		return fail(d, "%s", "@adaptbwd: a pooling matrix past 2^20 elements");
	v[0] = B * OH, v[1] = OW;
	if (adapt_q(d, W, OW, 0, &t[0]) < 0 || adapt_q(d, H, OH, 1, &t[1]) < 0 ||
	    call_ints(d, "aten.reshape.default", a[0], v, 2, &t[2]) < 0 ||
	    call2(d, "aten.mm.default", t[2], t[0], &t[3]) < 0)
		goto out;
	v[0] = B, v[1] = OH, v[2] = W;
	if (call_ints(d, "aten.view.default", t[3], v, 3, &t[4]) < 0)
		goto out;
	v[1] = H, v[2] = OH;
	if (call_ints(d, "aten.expand.default", t[1], v, 3, &t[5]) < 0 ||
	    call2(d, "aten.bmm.default", t[5], t[4], &t[6]) < 0)
		goto out;
	r = call_ints(d, "aten.reshape.default", t[6], xs, nd, res);
out:
	for (int i = 0; i < 7; i++)
		npu_gval_clear(&t[i]);
	return r;
}

/*
 * @ksplit(a, b): a @ b of a K too long for the matmul template, which
 * keeps whole K panels of A and B in SRAM (tile.c: 2 (mb + nb) K
 * elements at the smallest blocks, mb and nb at most 64): the sum of the
 * products of K chunks that take at most half of SRAM so.  A weight's
 * gradient over a batch of images has K = N * OH * OW (a 3x3
 * convolution's over 2 x 64 x 128 on npu-edge: 16,383).  Fails (the mm
 * stays) when K fits.
 */
static int ksplit(dcx *d, npu_gval *a, int na, const npu_gmeta *x0, npu_gval *res)
{
	const npu_target *t = d->pc->o->target;
	const npu_gmeta *bm = na > 1 ? node_meta(d, &a[1]) : NULL;
	int64_t as[NPU_MAX_DIMS], bs[NPU_MAX_DIMS], K, kc, mb, nb;
	npu_gval acc = { 0 }, sa = { 0 }, sb = { 0 }, p = { 0 };
	int r = 0;

	if (!t || !x0 || !bm || npu_gmeta_shape(x0, as) != 2 || npu_gmeta_shape(bm, bs) != 2)
		return fail(d, "%s", "@ksplit: no target, or not 2-d");
	K = as[1];
	mb = as[0] < 64 ? as[0] : 64;
	nb = bs[1] < 64 ? bs[1] : 64;
	kc = (int64_t)(t->sram_bytes / 2) / (2 * (mb + nb) * npu_dtype_size(x0->dtype));
	kc -= kc % 64;
	if (kc < 64 || K <= kc)
		return fail(d, "%s", "its K fits SRAM");
	for (int64_t k0 = 0; k0 < K && r >= 0; k0 += kc) {
		int64_t k1 = k0 + kc < K ? k0 + kc : K;
		r = slice_of(d, a[0], 1, k0, k1, 1, &sa);
		if (r >= 0)
			r = slice_of(d, a[1], 0, k0, k1, 1, &sb);
		if (r >= 0)
			r = call2(d, "aten.mm.default", sa, sb, &p);
		npu_gval_clear(&sa);
		npu_gval_clear(&sb);
		if (r >= 0 && !k0) {
			acc = p;
			p = (npu_gval){ 0 };
		} else if (r >= 0) {
			npu_gval sum = { 0 };
			r = call2(d, "aten.add.Tensor", acc, p, &sum);
			npu_gval_clear(&acc);
			acc = sum;
		}
		npu_gval_clear(&p);
	}
	if (r < 0) {
		npu_gval_clear(&acc);
		return -1;
	}
	*res = acc;
	return 0;
}

static int builtin(dcx *d, const char *name, npu_gval *a, int na,
		   npu_gval *res)
{
	const npu_gmeta *x = na > 1 ? node_meta(d, &a[1]) : NULL;
	const npu_gmeta *x0 = na > 0 ? node_meta(d, &a[0]) : NULL;
	int64_t shp[NPU_MAX_DIMS];

	memset(res, 0, sizeof *res);
	if (!strcmp(name, "rdims")) {               /* (x, ns) */
		int k = na > 1 && a[1].kind == NPU_GV_LIST ? a[1].u.list.n : -1;
		int nd = x0 ? x0->ndim : -1;
		if (k < 0 || nd < k)
			return fail(d, "%s", "@rdims: bad operands");
		for (int i = 0; i < k; i++)
			shp[i] = nd - k + i;
		return npu_gv_ints(res, shp, k) < 0 ?
		       npu_errf(d->pc->e, "out of memory") : 0;
	}
	if (!strcmp(name, "ch")) {                  /* (v, x) */
		npu_gval va[2];
		int r;
		if (na > 0 && a[0].kind == NPU_GV_NONE)
			return 0;
		if (!x0 || !x || x0->ndim != 1 || x->ndim < 2 ||
		    x0->shape[0].sym)
			return fail(d, "%s", "@ch: bad operands");
		if (x->ndim == 2)
			return npu_gval_copy(res, &a[0]);
		shp[0] = x0->shape[0].v;
		for (int i = 1; i < x->ndim - 1; i++)
			shp[i] = 1;
		va[0] = a[0];
		if (npu_gv_ints(&va[1], shp, x->ndim - 1) < 0)
			return npu_errf(d->pc->e, "out of memory");
		r = make_call(d, "aten.view.default", va, 2, NULL, 0, res);
		npu_gval_clear(&va[1]);
		return r;
	}
	if (!strcmp(name, "bessel")) {              /* (x, dims, c) */
		int nd = x0 ? npu_gmeta_shape(x0, shp) : -1;
		double n = 1, c;
		if (nd < 0 || na < 3)
			return fail(d, "%s", "@bessel: bad operands");
		c = a[2].kind == NPU_GV_INT ? (double)a[2].u.i :
		    a[2].kind == NPU_GV_FLOAT ? a[2].u.f : 1;
		if (a[1].kind == NPU_GV_LIST && a[1].u.list.n)
			for (int i = 0; i < a[1].u.list.n; i++) {
				int64_t k = a[1].u.list.v[i].u.i;
				if (k < -nd || k >= nd)
					return fail(d, "%s", "@bessel: bad dim");
				n *= (double)shp[k < 0 ? k + nd : k];
			}
		else if (a[1].kind == NPU_GV_INT)
			n = (double)shp[a[1].u.i < 0 ? a[1].u.i + nd : a[1].u.i];
		else
			for (int i = 0; i < nd; i++)
				n *= (double)shp[i];
		*res = npu_gv_float(n / (n - c));
		return 0;
	}
	if (!strcmp(name, "int")) {                 /* (b) */
		if (na < 1 || a[0].kind != NPU_GV_BOOL)
			return fail(d, "%s", "@int: not a bool");
		*res = npu_gv_int(a[0].u.b);
		return 0;
	}
	if (!strcmp(name, "bndims")) {              /* (x, training) */
		/* the dims batch statistics reduce: all but the channels' */
		int nd = x0 ? x0->ndim : -1;
		if (nd < 2 || na < 2 || a[1].kind != NPU_GV_BOOL)
			return fail(d, "%s", "@bndims: bad operands");
		if (!a[1].u.b)
			return fail(d, "%s", "not in training mode");
		shp[0] = 0;
		for (int i = 2; i < nd; i++)
			shp[i - 1] = i;
		return npu_gv_ints(res, shp, nd - 1) < 0 ?
		       npu_errf(d->pc->e, "out of memory") : 0;
	}
	if (!strcmp(name, "cbwd_in"))         /* (go, x, w, st, pad, dil, tr, groups) */
		return cbwd_run(d, a, na, 0, res);
	if (!strcmp(name, "cbwd_gw"))         /* (go, x, w, st, pad, dil, tr, groups) */
		return cbwd_run(d, a, na, 1, res);
	if (!strcmp(name, "convx"))           /* (x, w, st, pad, dil, tr, opad, groups) */
		return convx_run(d, a, na, res);
	if (!strcmp(name, "wdim")) {                /* (w, i) */
		int nd = x0 ? npu_gmeta_shape(x0, shp) : -1;
		if (na < 2 || a[1].kind != NPU_GV_INT || a[1].u.i < 0 || a[1].u.i >= nd)
			return fail(d, "%s", "@wdim: bad operands");
		*res = npu_gv_int(shp[a[1].u.i]);
		return 0;
	}
	if (!strcmp(name, "shape")) {               /* (x) */
		int nd = x0 ? npu_gmeta_shape(x0, shp) : -1;
		if (nd < 0)
			return fail(d, "%s", "@shape: symbolic or no shape");
		return npu_gv_ints(res, shp, nd) < 0 ? npu_errf(d->pc->e, "out of memory") : 0;
	}
	if (!strcmp(name, "ord2")) {                /* (x, ord) */
		if (!x0 || na < 2 || !is_num(&a[1], 2))
			return fail(d, "%s", "a norm of another order");
		return copy_to(d, res, &a[0]);
	}
	if (!strcmp(name, "aap3d"))                 /* (x, output_size) */
		return aap3d(d, a, na, x0, res);
	if (!strcmp(name, "bucket"))                /* (x, b, out_int32, right, side, sorter) */
		return bucket(d, a, na, res);
	if (!strcmp(name, "rounddec"))              /* (x, decimals) */
		return rounddec(d, a, na, x0, res);
	if (!strcmp(name, "pnorm"))                 /* (x, ord, dim, keepdim) */
		return pnorm(d, a, na, x0, res);
	if (!strcmp(name, "idxlist")) {             /* (x, dim, index) */
		int nd = x0 ? x0->ndim : -1;
		int64_t dm = na > 1 && a[1].kind == NPU_GV_INT ? a[1].u.i : -1;
		if (nd < 1 || na < 3 || a[2].kind != NPU_GV_NODE || dm < -nd || dm >= nd)
			return fail(d, "%s", "@idxlist: bad operands");
		dm = dm < 0 ? dm + nd : dm;
		res->kind = NPU_GV_LIST;
		if (!(res->u.list.v = calloc((size_t)dm + 1, sizeof *res->u.list.v)))
			return npu_errf(d->pc->e, "out of memory");
		res->u.list.n = (int)dm + 1;
		res->u.list.v[dm] = a[2];
		return 0;
	}
	if (!strcmp(name, "iota") || !strcmp(name, "len")) { /* (x, dim) */
		int nd = x0 ? npu_gmeta_shape(x0, shp) : -1;
		int64_t dm = na > 1 && a[1].kind == NPU_GV_INT ? a[1].u.i : -(int64_t)nd - 1;
		if (nd < 1 || dm < -nd || dm >= nd)
			return fail(d, "%s", "an index reduction over every dim or of unknown shape");
		dm = dm < 0 ? dm + nd : dm;
		if (!strcmp(name, "len")) {
			*res = npu_gv_int(shp[dm]);
			return 0;
		}
		return build_iota(d, nd, shp, (int)dm, res);
	}
	if (!strcmp(name, "topk")) {        /* (x, k, dim, largest, sorted, which) */
		int nd = x0 ? npu_gmeta_shape(x0, shp) : -1;
		int64_t dm = na > 2 && a[2].kind == NPU_GV_INT ? a[2].u.i : -1;
		if (nd < 1 || na < 6 || a[1].kind != NPU_GV_INT || a[1].u.i < 1 ||
		    a[1].u.i > TOPK_MAX || dm < -nd || dm >= nd ||
		    a[3].kind != NPU_GV_BOOL || a[4].kind != NPU_GV_BOOL ||
		    a[5].kind != NPU_GV_INT)
			return fail(d, "%s", "topk of more than 8");
		dm = dm < 0 ? dm + nd : dm;
		/* unsorted: an order PyTorch leaves open, but its CPU kernel
		 * sorts the k first by partial_sort where k * 64 <= n, and
		 * for one and two its nth_element at k - 1 = 1 leaves the one
		 * element before it not below it, the largest (DeepSeek-V3's
		 * top-2 expert groups): the sorted order either way */
		if (!a[4].u.b && a[1].u.i > 2 && a[1].u.i * 64 > shp[dm])
			return fail(d, "%s", "topk unsorted (k > 2, k * 64 > n: nth_element's order)");
		if (a[1].u.i > shp[dm])
			return fail(d, "%s", "topk: k past the dim's size");
		return build_topk(d, a[0], nd, shp, (int)dm, a[1].u.i, a[3].u.b, (int)a[5].u.i,
				  res);
	}
	if (!strcmp(name, "sort")) {        /* (x, dim, descending, which) */
		int nd = x0 ? npu_gmeta_shape(x0, shp) : -1;
		int64_t dm = na > 1 && a[1].kind == NPU_GV_INT ? a[1].u.i : -1;
		if (nd < 1 || na < 4 || dm < -nd || dm >= nd || a[2].kind != NPU_GV_BOOL ||
		    a[3].kind != NPU_GV_INT)
			return fail(d, "%s", "a sort of another form");
		dm = dm < 0 ? dm + nd : dm;
		return build_sort(d, a[0], nd, shp, (int)dm, a[2].u.b, (int)a[3].u.i, res);
	}
	if (!strcmp(name, "f32"))                   /* (x) */
		return of_dtype(d, a, x0, NPU_DT_F32, res);
	if (!strcmp(name, "bool"))                  /* (x) */
		return of_dtype(d, a, x0, NPU_DT_BOOL, res);
	if (!strcmp(name, "histc"))                 /* (x, bins, min, max) */
		return build_histc(d, a, na, x0, res);
	if (!strcmp(name, "divmode"))               /* (a, b, rounding_mode) */
		return build_divmode(d, a, na, x0, res);
	if (!strcmp(name, "atan")) {                /* (x) */
		if (!x0)
			return fail(d, "%s", "@atan: bad operand");
		return build_atan(d, a[0], res);
	}
	if (!strcmp(name, "unsq"))                  /* (x, dim): x with a 1 at dim */
		return unsq(d, a[0], na > 1 && a[1].kind == NPU_GV_INT ? a[1].u.i
								: NPU_MAX_DIMS + 2, res);
	if (!strcmp(name, "p2")) {                  /* (x, p): x when p is 2 */
		if (!x0 || na < 2 || !is_num(&a[1], 2))
			return fail(d, "%s", "a distance of another order");
		return copy_to(d, res, &a[0]);
	}
	if (!strcmp(name, "lossred"))          /* (l, reduction) */
		return lossred(d, a, na, res);
	if (!strcmp(name, "msenorm"))          /* (x, reduction) */
		return msenorm(d, a, na, x0, res);
	if (!strcmp(name, "half")) {           /* (b): the number b / 2 */
		if (na < 1 || (a[0].kind != NPU_GV_INT && a[0].kind != NPU_GV_FLOAT))
			return fail(d, "%s", "@half: not a number");
		*res = npu_gv_float((a[0].kind == NPU_GV_INT ? (double)a[0].u.i
							    : a[0].u.f) / 2);
		return 0;
	}
	if (!strcmp(name, "upnear"))           /* (x, output_size, scale_factors) */
		return upnear(d, a, na, x0, res);
	if (!strcmp(name, "uplin"))            /* (x, output_size, align, scale_factors) */
		return uplin(d, a, na, x0, res);
	if (!strcmp(name, "affgrid"))          /* (theta, size, align) */
		return affgrid(d, a, na, res);
	if (!strcmp(name, "scatsrc"))          /* (x, dim, index, src) */
		return scatsrc(d, a, na, x0, res);
	if (!strcmp(name, "maskscat"))         /* (x, mask, source) */
		return maskscat(d, a, na, x0, res);
	if (!strcmp(name, "groupedmm"))        /* (x, w, offs) */
		return groupedmm(d, a, na, x0, res);
	if (!strcmp(name, "embbag"))           /* (w, indices, offsets, mode, psw, ilo, pad, which) */
		return embbag(d, a, na, res);
	if (!strcmp(name, "idxsel"))           /* (x, indices) */
		return idxsel(d, a, na, x0, res);
	if (!strcmp(name, "padidx"))           /* (x, padding, reflect) */
		return padidx(d, a, na, x0, res);
	if (!strcmp(name, "embbwd"))           /* (go, indices, V, padding_idx, sgf) */
		return embbwd(d, a, na, res);
	if (!strcmp(name, "maskput"))          /* (x, indices, values, acc) */
		return maskput(d, a, na, x0, res);
	if (!strcmp(name, "scatval"))          /* (x, dim, index, value) */
		return scatval(d, a, na, x0, res);
	if (!strcmp(name, "mid")) {            /* (a, b): the number (a + b) / 2 */
		double u, v;
		if (na < 2 || !is_number(&a[0], &u) || !is_number(&a[1], &v))
			return fail(d, "%s", "@mid: not numbers");
		*res = npu_gv_float((u + v) / 2);
		return 0;
	}
	if (!strcmp(name, "gelunone")) {       /* (x, a): x when a is 'none' */
		if (na < 2 || (a[1].kind != NPU_GV_NONE &&
			       (a[1].kind != NPU_GV_STR || strcmp(a[1].u.s, "none"))))
			return fail(d, "%s", "gelu's tanh form");
		return copy_to(d, res, &a[0]);
	}
	if (!strcmp(name, "iffalse")) {        /* (x, b): x when b is false */
		if (na < 2 || a[1].kind != NPU_GV_BOOL || a[1].u.b)
			return fail(d, "%s", "not false (in training)");
		return copy_to(d, res, &a[0]);
	}
	if (!strcmp(name, "ksplit"))          /* (a, b) */
		return ksplit(d, a, na, x0, res);
	if (!strcmp(name, "avgpoolbwd"))      /* (go, x, kernel, stride, padding, ...) */
		return avgpoolbwd(d, a, na, res);
	if (!strcmp(name, "adaptbwd"))        /* (go, x) */
		return adaptbwd(d, a, na, res);
	if (!strcmp(name, "unbat")) {               /* (x) */
		npu_gval ua[2];
		if (!x0 || x0->ndim != 3)
			return fail(d, "%s", "not an unbatched image");
		ua[0] = a[0];
		ua[1] = npu_gv_int(0);
		return make_call(d, "aten.unsqueeze.default", ua, 2, NULL, 0, res);
	}
	if (!strcmp(name, "asstrided"))        /* (x, size, stride, storage_offset) */
		return asstrided(d, a, na, x0, res);
	if (!strcmp(name, "pixshuf"))          /* (x, r, up) */
		return pixshuf(d, a, na, x0, res);
	if (!strcmp(name, "nodtype")) {        /* (x, dtype): x when dtype is none */
		if (na < 2 || a[1].kind != NPU_GV_NONE)
			return fail(d, "%s", "a reduction with a dtype argument");
		return copy_to(d, res, &a[0]);
	}
	if (!strcmp(name, "nzor")) {           /* (x, b): x, none when b is 0 */
		double b;
		if (na < 2 || !is_number(&a[1], &b))
			return fail(d, "%s", "@nzor: not a number");
		if (b == 0) {
			res->kind = NPU_GV_NONE;
			return 0;
		}
		return copy_to(d, res, &a[0]);
	}
	if (!strcmp(name, "kd")) {             /* (x, dim, keepdim) */
		if (na < 3 || a[1].kind != NPU_GV_INT || a[2].kind != NPU_GV_BOOL)
			return fail(d, "%s", "@kd: bad operands");
		if (!a[2].u.b)
			return copy_to(d, res, &a[0]);
		return make_call(d, "aten.unsqueeze.default", a, 2, NULL, 0, res);
	}
	if (!strcmp(name, "dft"))              /* (x, dim, normalization, forward, onesided) */
		return build_dft(d, a, na, x0, res);
	if (!strcmp(name, "stack"))            /* (tensors, dim) */
		return stack(d, a, na, res);
	if (!strcmp(name, "lerpw"))            /* (a, b, w): w a number */
		return lerpw(d, a, na, res);
	if (!strcmp(name, "numor")) {          /* (v, d): v, or d when v is none */
		if (na < 2)
			return fail(d, "%s", "@numor: bad operands");
		return copy_to(d, res, a[0].kind == NPU_GV_NONE ? &a[1] : &a[0]);
	}
	if (!strcmp(name, "f32only")) {        /* (x): x when float32 */
		if (!x0 || x0->dtype != NPU_DT_F32)
			return fail(d, "%s", "not float32");
		return copy_to(d, res, &a[0]);
	}
	if (!strcmp(name, "tens")) {           /* (a, b): b, a number as a tensor like a */
		if (na < 2)
			return fail(d, "%s", "@tens: bad operands");
		if (a[1].kind == NPU_GV_NODE)
			return copy_to(d, res, &a[1]);
		return make_call(d, "aten.full_like.default", a, 2, NULL, 0, res);
	}
	if (!strcmp(name, "sdpaf"))            /* (x): [B*H, L, E] */
		return na < 1 ? fail(d, "%s", "@sdpaf: bad operand") : sdpa_fold(d, &a[0], res);
	if (!strcmp(name, "sdpap"))            /* (lse, q, k, v) */
		return sdpa_probs(d, a, na, res);
	if (!strcmp(name, "sdpascale")) {      /* (scale, q) */
		int64_t shp2[NPU_MAX_DIMS];
		double v;
		if (na > 0 && is_number(&a[0], &v)) {
			*res = npu_gv_float(v);
			return 0;
		}
		if (na < 2 || !x || npu_gmeta_shape(x, shp2) < 1 || shp2[x->ndim - 1] <= 0)
			return fail(d, "%s", "@sdpascale: bad operands");
		*res = npu_gv_float(1 / sqrt((double)shp2[x->ndim - 1]));
		return 0;
	}
	if (!strcmp(name, "gpool"))            /* (x, kernel_size, padding, divisor) */
		return gpool(d, a, na, x0, res);
	if (!strcmp(name, "wdims")) {          /* (x, dim): every dim but dim */
		int nd = x0 ? x0->ndim : -1, k = 0;
		int64_t dm = na > 1 && a[1].kind == NPU_GV_INT ? a[1].u.i : -(int64_t)nd - 1;
		if (nd < 1 || dm < -nd || dm >= nd)
			return fail(d, "%s", "@wdims: bad operands");
		dm = dm < 0 ? dm + nd : dm;
		for (int i = 0; i < nd; i++)
			if (i != dm)
				shp[k++] = i;
		return npu_gv_ints(res, shp, k) < 0 ? npu_errf(d->pc->e, "out of memory") : 0;
	}
	return fail(d, "decomp.def: unknown builtin @%s", name);
}

static int eval(dcx *d, lex *l, scope *s, npu_gval *out)
{
	char name[64], target[80];
	npu_gval a[MAX_PARAMS];
	npu_gkwarg kw[MAX_PARAMS];
	int na = 0, nkw = 0, rc;

	memset(out, 0, sizeof *out);
	skip(l);
	if (accept(l, '$')) {
		if (ident(l, name, sizeof name) < 0)
			return fail(d, "%s", "decomp.def: name expected after $");
		for (int i = 0; i < s->n; i++)
			if (!strcmp(s->b[i].name, name))
				return npu_gval_copy(out, &s->b[i].v) < 0 ?
				       npu_errf(d->pc->e, "out of memory") : 0;
		return fail(d, "decomp.def: unknown parameter $%s", name);
	}
	if (accept(l, '[')) {
		out->kind = NPU_GV_LIST;
		out->u.list.v = calloc(NPU_MAX_DIMS + 1, sizeof *out->u.list.v);
		if (!out->u.list.v)
			return npu_errf(d->pc->e, "out of memory");
		if (accept(l, ']'))
			return 0;
		do {
			if (out->u.list.n >= NPU_MAX_DIMS)
				return fail(d, "%s", "decomp.def: list too long");
			if (eval(d, l, s, &out->u.list.v[out->u.list.n++]) < 0)
				return -1;
		} while (accept(l, ','));
		return accept(l, ']') ? 0 : fail(d, "%s", "decomp.def: ']' expected");
	}
	if (*l->p == '-' || isdigit((unsigned char)*l->p)) {
		char *end;
		size_t len = strspn(l->p, "-+.0123456789e");
		snprintf(name, sizeof name, "%.*s", (int)len, l->p);
		l->p += len;
		if (literal(name, out) < 0)
			return fail(d, "decomp.def: bad number '%s'", name);
		(void)end;
		return 0;
	}
	if (accept(l, '@')) {
		if (ident(l, name, sizeof name) < 0)
			return fail(d, "%s", "decomp.def: builtin name expected");
		rc = eval_args(d, l, s, a, &na, kw, &nkw);
		if (!rc)
			rc = builtin(d, name, a, na, out);
		free_args(a, na, kw, nkw);
		return rc;
	}
	if (ident(l, name, sizeof name) < 0)
		return fail(d, "decomp.def: unexpected '%.20s'", l->p);
	if (!strcmp(name, "none") || !strcmp(name, "true") || !strcmp(name, "false"))
		return literal(name, out);
	snprintf(target, sizeof target, "aten.%s%s", name,
		 strchr(name, '.') ? "" : ".default");
	rc = eval_args(d, l, s, a, &na, kw, &nkw);
	if (!rc)
		rc = make_call(d, target, a, na, kw, nkw, out);
	free_args(a, na, kw, nkw);
	return rc;
}

/* Binds an entry's parameters to arguments a / keywords kw. */
static int bind_params(dcx *d, const dentry *en, const npu_gval *a, int na,
		       const npu_gkwarg *kw, int nkw, scope *s)
{
	const char *p = en->params;

	s->n = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		char item[64], *eq;
		bind *b = &s->b[s->n];
		if (s->n >= MAX_PARAMS || len >= sizeof item)
			return fail(d, "%s", "decomp.def: bad params");
		memcpy(item, p, len);
		item[len] = 0;
		p += len + (p[len] == ',');
		memset(b, 0, sizeof *b);
		if ((eq = strchr(item, '='))) {
			*eq = 0;
			if (literal(eq + 1, &b->dflt) < 0)
				return fail(d, "decomp.def: bad default '%s'", eq + 1);
		}
		snprintf(b->name, sizeof b->name, "%s", item);
		s->n++;
		if (s->n - 1 < na) {
			b->given = 1;
			if (npu_gval_copy(&b->v, &a[s->n - 1]) < 0)
				return npu_errf(d->pc->e, "out of memory");
			continue;
		}
		for (int k = 0; k < nkw; k++)
			if (!strcmp(kw[k].key, b->name)) {
				b->given = 1;
				if (npu_gval_copy(&b->v, &kw[k].val) < 0)
					return npu_errf(d->pc->e, "out of memory");
			}
		if (!b->given && npu_gval_copy(&b->v, &b->dflt) < 0)
			return npu_errf(d->pc->e, "out of memory");
	}
	return 0;
}

/* Does the node need decomposing: some "when" parameter off its default? */
static int wanted(const dentry *en, const scope *s)
{
	const char *p = en->when;

	if (!*p || !strcmp(p, "!"))
		return 1;
	while (*p) {
		size_t len = strcspn(p, ",");
		for (int i = 0; i < s->n; i++)
			if (strlen(s->b[i].name) == len &&
			    !strncmp(s->b[i].name, p, len) && s->b[i].given &&
			    !(is_num(&s->b[i].v, s->b[i].dflt.kind == NPU_GV_INT ?
				     (double)s->b[i].dflt.u.i : s->b[i].dflt.u.f)))
				return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

/* The next '|' or (stop_bar 0) ';' of p outside brackets, or its end. */
static const char *alt_end(const char *p, int stop_bar)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '(' || *p == '[')
			depth++;
		else if (*p == ')' || *p == ']')
			depth--;
		else if (!depth && (*p == ';' || (stop_bar && *p == '|')))
			break;
	}
	return p;
}

/*
 * An output's alternatives, "a | b": the first whose expansion succeeds
 * (a builtin's condition holds); a failed one's nodes have no users and
 * go with DCE.  An error (out of memory) ends the search.
 */
static int eval_alts(dcx *d, lex *l, scope *s, npu_gval *res)
{
	char why[sizeof d->why] = "";

	for (;;) {
		const char *next = alt_end(l->p, 1);
		if (eval(d, l, s, res) == 0) {
			skip(l);
			if (*l->p == '|')
				l->p = alt_end(l->p, 0);
			return 0;
		}
		npu_gval_clear(res);
		if (!d->why[0])
			return -1;
		/* the reasons of every alternative, "a; b" */
		if (why[0]) {
			char last[sizeof d->why];
			memcpy(last, d->why, sizeof last);
			snprintf(d->why, sizeof d->why, "%s; %s", why, last);
		}
		if (*next != '|')
			return -1;
		memcpy(why, d->why, sizeof why);
		d->why[0] = 0;
		l->p = next + 1;
	}
}

/* Evaluates output out_k of en with the given arguments. */
static int expand(dcx *d, const dentry *en, int out_k, const npu_gval *a,
		  int na, const npu_gkwarg *kw, int nkw, npu_gval *res)
{
	scope s;
	lex l = { en->outs };
	int rc;

	if (++d->depth > 8) {
		d->depth--;
		return fail(d, "%s", "decomp.def: expansion too deep");
	}
	rc = bind_params(d, en, a, na, kw, nkw, &s);
	for (int k = 0; !rc && k < out_k; k++) {     /* skip to output k */
		l.p = strchr(l.p, ';');
		if (!l.p)
			rc = fail(d, "%s", "no such output");
		else
			l.p++;
	}
	if (!rc)
		rc = eval_alts(d, &l, &s, res);
	if (!rc) {
		skip(&l);
		if (*l.p && *l.p != ';')
			rc = fail(d, "decomp.def: junk '%.20s'", l.p);
	}
	scope_free(&s);
	d->depth--;
	return rc;
}

/* ---- the pass ---------------------------------------------------- */

static int meta_matches(dcx *d, const npu_gval *v, const npu_gmeta *want)
{
	const npu_gmeta *m = node_meta(d, v);
	int64_t a[NPU_MAX_DIMS], b[NPU_MAX_DIMS];
	int na, nb;

	if (!m || m->dtype != want->dtype)
		return 0;
	na = hint_shape(m, a);
	nb = hint_shape(want, b);
	if (na != nb || na < 0 || memcmp(a, b, (size_t)na * sizeof *a))
		return 0;
	for (int i = 0; i < na; i++)     /* symbolic where the graph's is */
		if (!m->shape[i].sym != !want->shape[i].sym ||
		    (m->shape[i].sym && strcmp(m->shape[i].sym, want->shape[i].sym)))
			return 0;
	return 1;
}

/* v converted to dtype dt (v itself when it has it already). */
static int cast_to(dcx *d, const npu_gval *v, int dt, npu_gval *res)
{
	const npu_gmeta *m = node_meta(d, v);
	npu_gval a[1];
	npu_gkwarg kw[1] = { { "dtype", { .kind = NPU_GV_DTYPE, .u.dtype = dt } } };

	if (!m || m->dtype == dt)
		return npu_gval_copy(res, v) < 0 ? npu_errf(d->pc->e, "out of memory") : 0;
	a[0] = *v;
	return make_call(d, "aten._to_copy.default", a, 1, kw, 1, res);
}

/*
 * Output k of en for node n, in opmath when d->opmath: PyTorch computes a
 * bf16/f16 composite (layer norm, silu, ...) in fp32 and rounds once, so
 * its half tensor operands are converted to fp32 first and the result
 * back to the recorded type.
 */
static int expand_result(dcx *d, const dentry *en, int k, npu_gnode *n,
			 int want_dt, npu_gval *res)
{
	npu_gval a[MAX_PARAMS], r;
	int na = n->nargs < MAX_PARAMS ? n->nargs : MAX_PARAMS, rc = 0, i;

	if (!d->opmath)
		return expand(d, en, k, n->args, n->nargs, n->kwargs, n->nkwargs, res);
	memset(a, 0, sizeof a);
	for (i = 0; i < na && !rc; i++) {
		const npu_gmeta *m = node_meta(d, &n->args[i]);
		rc = m && (m->dtype == NPU_DT_BF16 || m->dtype == NPU_DT_F16)
		     ? cast_to(d, &n->args[i], NPU_DT_F32, &a[i])
		     : (npu_gval_copy(&a[i], &n->args[i]) < 0 ? npu_errf(d->pc->e, "out of memory") : 0);
		n = npu_gedit_node(d->ge, d->site);   /* the edit may move nodes */
	}
	if (!rc)
		rc = expand(d, en, k, a, na, n->kwargs, n->nkwargs, &r);
	if (!rc) {
		rc = r.kind == NPU_GV_NODE ? cast_to(d, &r, want_dt, res) : npu_gval_copy(res, &r);
		npu_gval_clear(&r);
	}
	for (int j = 0; j < i; j++)
		npu_gval_clear(&a[j]);
	return rc;
}

/* Expands output k of node i for replacing `user` (i itself when the
 * node has a single output). */
static int replace_output(dcx *d, const dentry *en, int i, int k, int user,
			  const npu_gmeta *want)
{
	npu_gnode *n = npu_gedit_node(d->ge, i);
	npu_gval res;

	if (expand_result(d, en, k, n, want->dtype, &res) < 0)
		return -1;
	if (res.kind != NPU_GV_NODE || !meta_matches(d, &res, want)) {
		npu_gval_clear(&res);
		return fail(d, "%s", "result does not match the recorded meta");
	}
	npu_gedit_replace_uses(d->ge, user, res.u.node);
	npu_gedit_kill(d->ge, user);
	return 0;
}

static int decomp_node(pass_cx *pc, npu_gedit *ge, int i, const dentry *en)
{
	dcx d = { pc, ge, i, 0, 0, 0, "" };
	npu_gnode *n = npu_gedit_node(ge, i);
	const int *u;
	int nu, *users = NULL, rc = 0, t0 = 0;
	scope s;
	char *name = n->name;

	/* the first tensor result gives the dtype (convolution_backward's
	 * grad_input may be None) */
	while (t0 < n->nmeta && n->meta[t0].kind != NPU_GM_TENSOR)
		t0++;
	if (t0 == n->nmeta || (t0 && !n->multi))
		return 0;
	rc = bind_params(&d, en, n->args, n->nargs, n->kwargs, n->nkwargs, &s);
	if (!rc && !wanted(en, &s)) {
		scope_free(&s);
		return 0;
	}
	scope_free(&s);
	d.opmath = n->meta[t0].dtype == NPU_DT_BF16 || n->meta[t0].dtype == NPU_DT_F16;
	/* a bool result (isnan, isinf) comes of comparisons, exact in any
	 * input type; argmax's and argmin's int64 of an integer min,
	 * bucketize's and searchsorted's of a count of comparisons; a
	 * sort's of integers, comparisons and a gather */
	if (!d.opmath && n->meta[t0].dtype != NPU_DT_F32 && n->meta[t0].dtype != NPU_DT_F64 &&
	    n->meta[t0].dtype != NPU_DT_BOOL && n->aop != NPU_AOP_SORT &&
	    !(n->meta[t0].dtype == NPU_DT_I64 &&
	      (n->aop == NPU_AOP_ARGMAX || n->aop == NPU_AOP_ARGMIN ||
	       n->aop == NPU_AOP_BUCKETIZE || n->aop == NPU_AOP_SEARCHSORTED)))
		return pass_note(pc, name, "kept %s (%s results)",
				 name, npu_dtype_torch(n->meta[t0].dtype));
	if (!n->multi) {
		if (!rc)
			rc = replace_output(&d, en, i, 0, i, &n->meta[0]);
		goto out;
	}
	/* multi-output: each getitem user gets its own expansion */
	nu = npu_gedit_users(ge, i, &u);
	if (nu < 0 || !(users = malloc(((size_t)nu + 1) * sizeof *users)))
		return npu_errf(pc->e, "out of memory");
	memcpy(users, u, (size_t)nu * sizeof *users);
	for (int k = 0; k < nu && !rc; k++) {
		npu_gnode *g = npu_gedit_node(ge, users[k]);
		if (g->aop != NPU_AOP_GETITEM || g->nargs != 2 ||
		    g->args[1].kind != NPU_GV_INT || !g->nmeta ||
		    g->args[1].u.i < 0 || g->args[1].u.i >= n->nmeta) {
			rc = fail(&d, "%s", "used other than through getitem");
			break;
		}
		rc = replace_output(&d, en, i, (int)g->args[1].u.i, users[k],
				    &g->meta[0]);
	}
	free(users);
	if (!rc)
		npu_gedit_kill(ge, i);
out:
	n = npu_gedit_node(ge, i);
	if (rc < 0 && !d.why[0])
		return -1;
	if (rc < 0)
		return pass_note(pc, n->name, "kept %s (%s)", n->name, d.why);
	if (!n->multi)
		npu_gedit_kill(ge, i);
	return pass_log(pc, n->name, "decomposed %s (%s) into %d nodes", n->name,
			n->target, d.made);
}

static int decomp_session(pass_cx *pc, npu_gedit *ge)
{
	int n = npu_gedit_n(ge);

	for (int i = 0; i < n; i++) {
		npu_gnode *nd = npu_gedit_node(ge, i);
		const dentry *en;
		if (npu_gedit_dead(ge, i) || nd->op != NPU_GOP_CALL_FUNCTION ||
		    !(en = find_entry(pc, nd->aop)))
			continue;
		if (decomp_node(pc, ge, i, en) < 0)
			return -1;
	}
	return 0;
}

int pass_decomp(pass_cx *pc)
{
	npu_gedit ge;

	if (npu_gedit_begin(&ge, pc->g, pc->e) < 0)
		return -1;
	if (decomp_session(pc, &ge) < 0) {
		npu_err keep = *pc->e;
		npu_gedit_commit(&ge, pc->e);
		*pc->e = keep;
		return -1;
	}
	return npu_gedit_commit(&ge, pc->e);
}
