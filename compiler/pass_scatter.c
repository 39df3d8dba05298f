/*
 * pass_scatter.c - index_put by constant indices as gathers.
 *
 * F.fold (col2im: ops4, MobileViTv2's patch folding) reaches the graph as
 * index_put(zeros, [.., I, J], values, accumulate=True) whose index grids
 * are aranges, folded to constants by now.  With the indices known, so
 * is, for every element of self, the list of value positions that land
 * on it; the result is then self plus (accumulate), or else replaced by,
 * values read through constant tables: aten.index of values by one int64
 * table per dim, which fusion lowers natively (a strided view when the
 * tables turn out affine, as a fold without overlap does, else a DMA
 * gather).  An element hit m times takes m gathers, the k-th reading each
 * element's k-th value (masked where fewer land on it), added in index
 * order as PyTorch's CPU kernel adds them.  Indices known only at run
 * time, bool masks, index dims that are not adjacent and repeated writes
 * without accumulate (whose winner PyTorch leaves unspecified) stay host
 * calls.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/pass_int.h"
#include "isa/isa.h"

/* The largest self and indexing result handled (elements), and the most
 * values that may land on one element (gathers emitted). */
#define SCATTER_MAX_ELEMS (1 << 18)
#define SCATTER_MAX_HITS 16

typedef struct scat {
	int node, self, vals, acc, dtype;
	int nd;                            /* self's dims */
	int64_t S[NPU_MAX_DIMS];           /* self's shape */
	int p, k;                          /* indexed dims p .. p+k-1 */
	const npu_reftensor *ix[NPU_MAX_DIMS];
	int bn;                            /* the indices' broadcast shape */
	int64_t bsh[NPU_MAX_DIMS];
	int rn;                            /* the indexing result's shape */
	int64_t R[NPU_MAX_DIMS];
	int64_t nself, nr;
	int64_t *first;                    /* per element: its hits in hit[] */
	int64_t *hit;                      /* positions in R (flat), by element */
	int maxhit;
} scat;

static const npu_gmeta *meta_of(npu_gedit *ge, const npu_gval *v)
{
	const npu_gnode *n;

	if (!v || v->kind != NPU_GV_NODE)
		return NULL;
	n = npu_gedit_node(ge, v->u.node);
	return n->nmeta && !n->multi && n->meta[0].kind == NPU_GM_TENSOR ?
	       &n->meta[0] : NULL;
}

static int64_t numel(const int64_t *s, int n)
{
	int64_t x = 1;

	for (int i = 0; i < n; i++)
		x *= s[i];
	return x;
}

/* Right-aligned broadcast of shape (n dims) into bsh (*bn dims). */
static int bcast_into(int64_t *bsh, int *bn, const int64_t *shape, int n)
{
	if (n > *bn) {
		memmove(bsh + (n - *bn), bsh, (size_t)*bn * sizeof *bsh);
		for (int t = 0; t < n - *bn; t++)
			bsh[t] = 1;
		*bn = n;
	}
	for (int d = 0; d < n; d++) {
		int o = *bn - n + d;
		if (bsh[o] == 1)
			bsh[o] = shape[d];
		else if (shape[d] != 1 && shape[d] != bsh[o])
			return -1;
	}
	return 0;
}

/* The index list of node i: which dims, by which constant tensors.  A
 * reason when it is not of the form handled, else NULL. */
static const char *parse_indices(pass_cx *pc, npu_gedit *ge, const npu_gval *l, scat *s)
{
	s->p = -1;
	s->k = s->bn = 0;
	if (!l || l->kind != NPU_GV_LIST || l->u.list.n > s->nd)
		return "an index list of this form";
	for (int d = 0; d < l->u.list.n; d++) {
		const npu_gval *e = &l->u.list.v[d];
		const npu_reftensor *t;
		if (e->kind == NPU_GV_NONE)
			continue;
		if (e->kind != NPU_GV_NODE)
			return "an index list of this form";
		if (s->p >= 0 && s->p + s->k != d)
			return "index dims that are not adjacent";
		if (!(t = pass_frozen(pc, ge, e->u.node)))
			return "indices known only at run time";
		if (t->dtype != NPU_DT_I64 && t->dtype != NPU_DT_I32)
			return "indices that are not integers (a mask)";
		if (bcast_into(s->bsh, &s->bn, t->shape, t->ndim) < 0)
			return "index tensors that do not broadcast";
		if (s->p < 0)
			s->p = d;
		s->ix[s->k++] = t;
	}
	return s->p < 0 ? "an index list without indices" : NULL;
}

/* Self, values and indices of node i; a reason when it stays whole. */
static const char *parse(pass_cx *pc, npu_gedit *ge, int i, scat *s)
{
	const npu_gnode *n = npu_gedit_node(ge, i);
	const npu_gval *acc = n->nargs > 3 ? &n->args[3] : npu_gnode_kwarg(n, "accumulate");
	const npu_gmeta *ms, *mv;
	int64_t vs[NPU_MAX_DIMS];
	const char *why;
	int vn;

	memset(s, 0, sizeof *s);
	s->node = i;
	if (n->nargs < 3 || !(ms = meta_of(ge, &n->args[0])) ||
	    !(mv = meta_of(ge, &n->args[2])) || (acc && acc->kind != NPU_GV_BOOL &&
						 acc->kind != NPU_GV_NONE))
		return "an index_put of this form";
	s->self = n->args[0].u.node;
	s->vals = n->args[2].u.node;
	s->acc = acc && acc->kind == NPU_GV_BOOL && acc->u.b;
	s->dtype = ms->dtype;
	if (mv->dtype != ms->dtype)
		return "values of another dtype";
	if ((s->nd = npu_gmeta_shape(ms, s->S)) < 0 || (vn = npu_gmeta_shape(mv, vs)) < 0)
		return "symbolic shapes";
	if ((why = parse_indices(pc, ge, &n->args[1], s)))
		return why;
	/* the indexing result: self's dims before p, the broadcast, the rest */
	s->rn = s->p + s->bn + (s->nd - s->p - s->k);
	if (s->rn > NPU_MAX_DIMS)
		return "too many dims";
	memcpy(s->R, s->S, (size_t)s->p * sizeof *s->R);
	memcpy(s->R + s->p, s->bsh, (size_t)s->bn * sizeof *s->R);
	memcpy(s->R + s->p + s->bn, s->S + s->p + s->k,
	       (size_t)(s->nd - s->p - s->k) * sizeof *s->R);
	if (vn > s->rn)
		return "values that do not broadcast";
	for (int d = 0; d < vn; d++)
		if (vs[d] != 1 && vs[d] != s->R[s->rn - vn + d])
			return "values that do not broadcast";
	s->nself = numel(s->S, s->nd);
	s->nr = numel(s->R, s->rn);
	if (s->nself > SCATTER_MAX_ELEMS || s->nr > SCATTER_MAX_ELEMS)
		return "more elements than the pass examines";
	return NULL;
}

/* Element of t at the broadcast position ri (bn dims, t right-aligned). */
static int64_t index_at(const npu_reftensor *t, const int64_t *ri, int bn)
{
	int64_t o = 0;

	for (int d = 0; d < t->ndim; d++) {
		int64_t x = t->shape[d] == 1 ? 0 : ri[bn - t->ndim + d];
		o = o * t->shape[d] + x;
	}
	return (int64_t)t->data[o];
}

/* The element of self that position r of the indexing result writes, or
 * -1 when an index is out of range. */
static int64_t dest_of(const scat *s, int64_t r)
{
	int64_t ri[NPU_MAX_DIMS], dst[NPU_MAX_DIMS], o = 0;

	for (int d = s->rn - 1; d >= 0; d--) {
		ri[d] = r % s->R[d];
		r /= s->R[d];
	}
	memcpy(dst, ri, (size_t)s->p * sizeof *dst);
	for (int j = 0; j < s->k; j++) {
		int64_t x = index_at(s->ix[j], ri + s->p, s->bn), len = s->S[s->p + j];
		if (x < 0)
			x += len;
		if (x < 0 || x >= len)
			return -1;
		dst[s->p + j] = x;
	}
	memcpy(dst + s->p + s->k, ri + s->p + s->bn,
	       (size_t)(s->nd - s->p - s->k) * sizeof *dst);
	for (int d = 0; d < s->nd; d++)
		o = o * s->S[d] + dst[d];
	return o;
}

/* Which positions land on which element (CSR, in index order); a reason
 * when the node stays whole. */
static const char *build_map(scat *s, npu_err *e, int *oom)
{
	int64_t *dst = malloc((size_t)s->nr * sizeof *dst);
	int64_t *fill = NULL;

	s->first = calloc((size_t)s->nself + 1, sizeof *s->first);
	s->hit = malloc(((size_t)s->nr + 1) * sizeof *s->hit);
	if (!dst || !s->first || !s->hit || !(fill = calloc((size_t)s->nself + 1, sizeof *fill))) {
		free(dst);
		*oom = npu_errf(e, "out of memory");
		return "";
	}
	for (int64_t r = 0; r < s->nr; r++) {
		if ((dst[r] = dest_of(s, r)) < 0) {
			free(dst);
			free(fill);
			return "an index out of range";
		}
		s->first[dst[r] + 1]++;
	}
	for (int64_t x = 0; x < s->nself; x++) {
		int64_t c = s->first[x + 1];
		if (c > s->maxhit)
			s->maxhit = (int)(c > SCATTER_MAX_HITS ? SCATTER_MAX_HITS + 1 : c);
		s->first[x + 1] += s->first[x];
	}
	for (int64_t r = 0; r < s->nr; r++)
		s->hit[s->first[dst[r]] + fill[dst[r]]++] = r;
	free(dst);
	free(fill);
	if (s->maxhit > SCATTER_MAX_HITS)
		return "more values landing on one element than the pass gathers";
	if (!s->acc && s->maxhit > 1)
		return "repeated indices without accumulate";
	return NULL;
}

/* A constant of self's shape: for each element, dim d of the position
 * its k-th hit reads (int64, 0 without one), or with d < 0 whether it
 * has a k-th hit (bool). */
static int add_table(pass_cx *pc, npu_gedit *ge, const scat *s, int dt, int k, int d)
{
	npu_reftensor t;
	npu_gmeta m = { 0 };
	int idx;

	if (npu_reftensor_alloc(&t, dt, s->nd, s->S, pc->e) < 0)
		return -1;
	for (int64_t x = 0; x < s->nself; x++) {
		int64_t c = s->first[x + 1] - s->first[x], r;
		if (d < 0) {                        /* the mask: k-th hit exists */
			t.data[x] = c > k;
			continue;
		}
		r = c > k ? s->hit[s->first[x] + k] : 0;
		for (int j = s->rn - 1; j > d; j--)
			r /= s->R[j];
		t.data[x] = (double)(r % s->R[d]);
	}
	npu_gmeta_set(&m, dt, s->nd, s->S);
	idx = pass_add_frozen(pc, ge, s->node, s->node, &m, &t);
	npu_gmeta_clear(&m);
	npu_reftensor_free(&t);
	return idx;
}

/* A call before the node, of self's shape and dtype dt. */
static int add_call(pass_cx *pc, npu_gedit *ge, const scat *s, const char *sfx,
		    const char *target, const npu_gval *args, int nargs, int dt,
		    const int64_t *shape, int nd)
{
	npu_gmeta m = { 0 };
	char name[256];
	int idx;

	snprintf(name, sizeof name, "%s_%s", npu_gedit_node(ge, s->node)->name, sfx);
	npu_gmeta_set(&m, dt, nd, shape);
	idx = pass_add_call(pc, ge, s->node, name, target, args, nargs, &m, s->node);
	npu_gmeta_clear(&m);
	return idx;
}

/* The k-th gather: values (broadcast to R, v) read by the k-th tables. */
static int gather_k(pass_cx *pc, npu_gedit *ge, const scat *s, int v, int k)
{
	npu_gval args[2] = { npu_gv_node(v), { .kind = NPU_GV_LIST } };
	char sfx[32];
	int g;

	if (!(args[1].u.list.v = calloc((size_t)s->rn, sizeof *args[1].u.list.v)))
		return npu_errf(pc->e, "out of memory");
	for (int d = 0; d < s->rn; d++) {
		int t = add_table(pc, ge, s, NPU_DT_I64, k, d);
		if (t < 0) {
			npu_gval_clear(&args[1]);
			return -1;
		}
		args[1].u.list.v[args[1].u.list.n++] = npu_gv_node(t);
	}
	snprintf(sfx, sizeof sfx, "gather%d", k);
	g = add_call(pc, ge, s, sfx, "aten.index.Tensor", args, 2, s->dtype, s->S, s->nd);
	npu_gval_clear(&args[1]);
	return g;
}

/* self with the k-th gather g added (accumulate) or written, where the
 * element has a k-th hit. */
static int combine(pass_cx *pc, npu_gedit *ge, const scat *s, int prev, int g, int k)
{
	int full = 1, mask, zero;
	char sfx[32];

	for (int64_t x = 0; x < s->nself && full; x++)
		full = s->first[x + 1] - s->first[x] > k;
	if (!full) {
		npu_gval za[2] = { npu_gv_node(g), npu_gv_int(0) };
		if ((mask = add_table(pc, ge, s, NPU_DT_BOOL, k, -1)) < 0)
			return -1;
		if (s->acc) {
			snprintf(sfx, sizeof sfx, "zero%d", k);
			if ((zero = add_call(pc, ge, s, sfx, "aten.full_like.default", za, 2,
					     s->dtype, s->S, s->nd)) < 0)
				return -1;
		} else {
			zero = prev;
		}
		npu_gval wa[3] = { npu_gv_node(mask), npu_gv_node(g), npu_gv_node(zero) };
		snprintf(sfx, sizeof sfx, "where%d", k);
		if ((g = add_call(pc, ge, s, sfx, "aten.where.self", wa, 3, s->dtype,
				  s->S, s->nd)) < 0)
			return -1;
	}
	if (!s->acc)
		return g;
	npu_gval aa[2] = { npu_gv_node(prev), npu_gv_node(g) };
	snprintf(sfx, sizeof sfx, "add%d", k);
	return add_call(pc, ge, s, sfx, "aten.add.Tensor", aa, 2, s->dtype, s->S, s->nd);
}

/* Builds the gathers and takes the node's place. */
static int rewrite(pass_cx *pc, npu_gedit *ge, const scat *s)
{
	const npu_gmeta *mv = &npu_gedit_node(ge, s->vals)->meta[0];
	int64_t vs[NPU_MAX_DIMS];
	int v = s->vals, cur = s->self, vn = npu_gmeta_shape(mv, vs);

	if (vn != s->rn || memcmp(vs, s->R, (size_t)vn * sizeof *vs)) {
		npu_gval ea[2] = { npu_gv_node(s->vals), { 0 } };
		if (npu_gv_ints(&ea[1], s->R, s->rn) < 0)
			return npu_errf(pc->e, "out of memory");
		v = add_call(pc, ge, s, "values", "aten.expand.default", ea, 2, s->dtype,
			     s->R, s->rn);
		npu_gval_clear(&ea[1]);
		if (v < 0)
			return -1;
	}
	for (int k = 0; k < s->maxhit; k++) {
		int g = gather_k(pc, ge, s, v, k);
		if (g < 0 || (cur = combine(pc, ge, s, cur, g, k)) < 0)
			return -1;
	}
	npu_gedit_replace_uses(ge, s->node, cur);
	npu_gedit_kill(ge, s->node);
	return pass_log(pc, npu_gedit_node(ge, s->node)->name,
			"%s: index_put by constant indices as %d gather%s%s",
			npu_gedit_node(ge, s->node)->name, s->maxhit,
			s->maxhit == 1 ? "" : "s", s->acc ? ", accumulated" : "");
}

int pass_scatter(pass_cx *pc, npu_gedit *ge)
{
	int n = npu_gedit_n(ge);

	for (int i = 0; i < n; i++) {
		const npu_gnode *nd = npu_gedit_node(ge, i);
		const char *why;
		scat s;
		int oom = 0, rc = 0;

		if (npu_gedit_dead(ge, i) || nd->op != NPU_GOP_CALL_FUNCTION ||
		    nd->aop != NPU_AOP_INDEX_PUT)
			continue;
		why = parse(pc, ge, i, &s);
		if (!why)
			why = build_map(&s, pc->e, &oom);
		if (oom)
			rc = -1;
		else if (why)
			rc = pass_note(pc, nd->name, "%s: kept: %s", nd->name, why);
		else
			rc = rewrite(pc, ge, &s);
		free(s.first);
		free(s.hit);
		if (rc < 0)
			return -1;
	}
	return 0;
}
