/*
 * gedit.c - edit sessions on the graph IR: mark, append, rewrite, then
 * compact once (gedit.h explains why nothing moves before the commit).
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "compiler/gedit.h"

/* ---- values ------------------------------------------------------ */

static int is_str_kind(int k)
{
	return k == NPU_GV_STR || k == NPU_GV_DEVICE || k == NPU_GV_LAYOUT ||
	       k == NPU_GV_MEMFMT || k == NPU_GV_SYM || k == NPU_GV_REPR;
}


int npu_gval_copy(npu_gval *dst, const npu_gval *src)
{
	*dst = *src;
	if (is_str_kind(src->kind)) {
		dst->u.s = strdup(src->u.s ? src->u.s : "");
		return dst->u.s ? 0 : -1;
	}
	if (src->kind != NPU_GV_LIST)
		return 0;
	dst->u.list.n = 0;
	dst->u.list.v = calloc((size_t)src->u.list.n + 1, sizeof *dst->u.list.v);
	if (!dst->u.list.v) {
		dst->kind = NPU_GV_NONE;
		return -1;
	}
	for (int i = 0; i < src->u.list.n; i++) {
		dst->u.list.n++;
		if (npu_gval_copy(&dst->u.list.v[i], &src->u.list.v[i]) < 0)
			return -1;
	}
	return 0;
}

/* Structural equality; floats compare by bits so that NaN equals NaN and
 * -0.0 differs from 0.0 (both matter to the result). */
int npu_gval_equal(const npu_gval *a, const npu_gval *b)
{
	if (a->kind != b->kind)
		return 0;
	switch (a->kind) {
	case NPU_GV_NONE: return 1;
	case NPU_GV_NODE: return a->u.node == b->u.node;
	case NPU_GV_INT: return a->u.i == b->u.i;
	case NPU_GV_FLOAT: return !memcmp(&a->u.f, &b->u.f, sizeof a->u.f);
	case NPU_GV_BOOL: return !a->u.b == !b->u.b;
	case NPU_GV_DTYPE: return a->u.dtype == b->u.dtype;
	case NPU_GV_LIST:
		if (a->u.list.n != b->u.list.n)
			return 0;
		for (int i = 0; i < a->u.list.n; i++)
			if (!npu_gval_equal(&a->u.list.v[i], &b->u.list.v[i]))
				return 0;
		return 1;
	default:
		return !strcmp(a->u.s ? a->u.s : "", b->u.s ? b->u.s : "");
	}
}

npu_gval npu_gv_node(int i)
{
	npu_gval v = { .kind = NPU_GV_NODE, .u.node = i };
	return v;
}

npu_gval npu_gv_int(int64_t x)
{
	npu_gval v = { .kind = NPU_GV_INT, .u.i = x };
	return v;
}

npu_gval npu_gv_float(double f)
{
	npu_gval v = { .kind = NPU_GV_FLOAT, .u.f = f };
	return v;
}

npu_gval npu_gv_bool(int b)
{
	npu_gval v = { .kind = NPU_GV_BOOL, .u.b = !!b };
	return v;
}

int npu_gv_ints(npu_gval *v, const int64_t *x, int n)
{
	memset(v, 0, sizeof *v);
	v->u.list.v = calloc((size_t)n + 1, sizeof *v->u.list.v);
	if (!v->u.list.v)
		return -1;
	v->kind = NPU_GV_LIST;
	v->u.list.n = n;
	for (int i = 0; i < n; i++)
		v->u.list.v[i] = npu_gv_int(x[i]);
	return 0;
}

/* ---- meta -------------------------------------------------------- */


static int dim_copy(npu_gdim *d, const npu_gdim *s)
{
	d->v = s->v;
	d->sym = s->sym ? strdup(s->sym) : NULL;
	return s->sym && !d->sym ? -1 : 0;
}

int npu_gmeta_copy(npu_gmeta *dst, const npu_gmeta *src)
{
	int rc = 0;

	*dst = *src;
	for (int i = 0; i < src->ndim; i++) {
		rc |= dim_copy(&dst->shape[i], &src->shape[i]);
		rc |= dim_copy(&dst->stride[i], &src->stride[i]);
	}
	rc |= dim_copy(&dst->storage_offset, &src->storage_offset);
	rc |= npu_gval_copy(&dst->scalar, &src->scalar);
	return rc ? -1 : 0;
}

static int dim_equal(const npu_gdim *a, const npu_gdim *b)
{
	if (!a->sym != !b->sym)
		return 0;
	return a->sym ? !strcmp(a->sym, b->sym) : a->v == b->v;
}

int npu_gmeta_equal(const npu_gmeta *a, const npu_gmeta *b)
{
	if (a->kind != b->kind || a->dtype != b->dtype || a->ndim != b->ndim)
		return 0;
	for (int i = 0; i < a->ndim; i++)
		if (!dim_equal(&a->shape[i], &b->shape[i]) ||
		    !dim_equal(&a->stride[i], &b->stride[i]))
			return 0;
	return dim_equal(&a->storage_offset, &b->storage_offset) &&
	       npu_gval_equal(&a->scalar, &b->scalar);
}

int npu_gmeta_shape(const npu_gmeta *m, int64_t *shape)
{
	if (!m || m->kind != NPU_GM_TENSOR)
		return -1;
	for (int i = 0; i < m->ndim; i++) {
		if (m->shape[i].sym)
			return -1;
		shape[i] = m->shape[i].v;
	}
	return m->ndim;
}

int npu_gmeta_layout(const npu_gmeta *m, int64_t *ord)
{
	int64_t dense = 1;
	int perm = 0;

	if (!m || m->kind != NPU_GM_TENSOR || m->storage_offset.sym)
		return -1;
	for (int k = 0; k < m->ndim; k++) {
		if (m->shape[k].sym || m->stride[k].sym || m->stride[k].v < 0)
			return -1;
		ord[k] = k;
	}
	for (int k = 1; k < m->ndim; k++)
		for (int j = k; j > 0 && m->stride[ord[j]].v > m->stride[ord[j - 1]].v; j--) {
			int64_t t = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	for (int k = m->ndim - 1; k >= 0; k--) {
		int64_t d = ord[k];
		if (m->shape[d].v <= 1)
			continue;
		if (m->stride[d].v != dense)
			return -1;
		perm |= d != k;
		dense *= m->shape[d].v;
	}
	return perm;
}

void npu_gmeta_set(npu_gmeta *m, int dtype, int ndim, const int64_t *shape)
{
	int64_t st = 1;

	memset(m, 0, sizeof *m);
	m->kind = NPU_GM_TENSOR;
	m->dtype = dtype;
	m->ndim = ndim;
	for (int i = ndim - 1; i >= 0; i--) {
		m->shape[i].v = shape[i];
		m->stride[i].v = st;
		st *= shape[i] > 1 ? shape[i] : 1;
	}
}

/* ---- nodes ------------------------------------------------------- */


static char *dupor(const char *s, const char *dflt)
{
	return s ? strdup(s) : dflt ? strdup(dflt) : NULL;
}

int npu_gnode_make(npu_gnode *n, const char *name, const char *target,
		   const npu_gval *args, int nargs, const npu_gmeta *meta,
		   const npu_gnode *like)
{
	memset(n, 0, sizeof *n);
	n->op = NPU_GOP_CALL_FUNCTION;
	n->name = strdup(name);
	n->target = strdup(target);
	n->aop = npu_aop_find(target);
	n->args = calloc((size_t)nargs + 1, sizeof *n->args);
	n->module = dupor(like ? like->module : NULL, "");
	n->module_class = dupor(like ? like->module_class : NULL, "");
	n->srcloc = dupor(like ? like->srcloc : NULL, "");
	n->original_aten = like ? dupor(like->original_aten ?
				like->original_aten : like->target, NULL) : NULL;
	n->from_node = like ? dupor(like->from_node, NULL) : NULL;
	if (!n->name || !n->target || !n->args || !n->module ||
	    !n->module_class || !n->srcloc)
		goto fail;
	for (int i = 0; i < nargs; i++) {
		n->nargs++;
		if (npu_gval_copy(&n->args[i], &args[i]) < 0)
			goto fail;
	}
	if (meta) {
		if (!(n->meta = calloc(1, sizeof *n->meta)))
			goto fail;
		n->nmeta = 1;
		if (npu_gmeta_copy(n->meta, meta) < 0)
			goto fail;
	}
	return 0;
fail:
	npu_gnode_clear(n);
	return -1;
}

static void refs_val(npu_gval *v, void (*fn)(int *, void *), void *ctx)
{
	if (v->kind == NPU_GV_NODE)
		fn(&v->u.node, ctx);
	else if (v->kind == NPU_GV_LIST)
		for (int i = 0; i < v->u.list.n; i++)
			refs_val(&v->u.list.v[i], fn, ctx);
}

void npu_gnode_refs(npu_gnode *n, void (*fn)(int *ref, void *ctx), void *ctx)
{
	for (int i = 0; i < n->nargs; i++)
		refs_val(&n->args[i], fn, ctx);
	for (int i = 0; i < n->nkwargs; i++)
		refs_val(&n->kwargs[i].val, fn, ctx);
}

/* ---- sessions ---------------------------------------------------- */

int npu_gedit_begin(npu_gedit *ge, npu_graph *g, npu_err *e)
{
	memset(ge, 0, sizeof *ge);
	ge->g = g;
	ge->nold = g->nnodes;
	ge->dead = calloc((size_t)g->nnodes + 1, 1);
	ge->dirty = 1;
	return ge->dead ? 0 : npu_errf(e, "out of memory");
}

int npu_gedit_n(const npu_gedit *ge)
{
	return ge->nold + ge->nadd;
}

npu_gnode *npu_gedit_node(npu_gedit *ge, int i)
{
	return i < ge->nold ? &ge->g->nodes[i] : &ge->add[i - ge->nold];
}

int npu_gedit_dead(const npu_gedit *ge, int i)
{
	return ge->dead[i];
}

void npu_gedit_kill(npu_gedit *ge, int i)
{
	ge->dead[i] = 1;
	ge->dirty = ge->changed = 1;
}

/* The new nodes' names are hashed as they are added, so that a pass
 * that adds thousands of nodes (a grouped matmul of 256 experts) does
 * not compare each new name with every one added before it. */
static int *new_slot(const npu_gedit *ge, const char *name)
{
	size_t h = npu_name_hash(name) & ge->nmask;

	while (ge->nslot[h] && strcmp(ge->add[ge->nslot[h] - 1].name, name))
		h = (h + 1) & ge->nmask;
	return &ge->nslot[h];
}

/* Makes room in nslot for one more name (kept under half full). */
static int names_grow(npu_gedit *ge)
{
	size_t cap = ge->nmask + 1;
	int *old = ge->nslot;

	if (ge->nmask && (size_t)(ge->nadd + 1) * 2 <= cap)
		return 0;
	cap = ge->nmask ? 2 * cap : 64;
	if (!(ge->nslot = calloc(cap, sizeof *ge->nslot))) {
		ge->nslot = old;
		return -1;
	}
	ge->nmask = cap - 1;
	free(old);
	for (int k = 0; k < ge->nadd; k++)
		*new_slot(ge, ge->add[k].name) = k + 1;
	return 0;
}

static int name_taken(npu_gedit *ge, const char *name)
{
	return npu_graph_find(ge->g, name) >= 0 || (ge->nmask && *new_slot(ge, name));
}

/* Makes n->name unique: "mul" -> "mul_7" (FX's own habit). */
static int uniquify(npu_gedit *ge, npu_gnode *n)
{
	size_t len = strlen(n->name) + 24;
	char *buf;

	if (!name_taken(ge, n->name))
		return 0;
	if (!(buf = malloc(len)))
		return -1;
	for (int k = 1;; k++) {
		snprintf(buf, len, "%s_%d", n->name, k);
		if (!name_taken(ge, buf))
			break;
	}
	free(n->name);
	n->name = buf;
	return 0;
}

int npu_gedit_add(npu_gedit *ge, int anchor, npu_gnode *n, npu_err *e)
{
	if (ge->nadd == ge->capadd) {
		int cap = ge->capadd ? 2 * ge->capadd : 16;
		npu_gnode *a = realloc(ge->add, (size_t)cap * sizeof *a);
		int *an;
		unsigned char *d;

		if (a)
			ge->add = a;
		an = a ? realloc(ge->anchor, (size_t)cap * sizeof *an) : NULL;
		if (an)
			ge->anchor = an;
		d = an ? realloc(ge->dead, (size_t)(ge->nold + cap) + 1) : NULL;
		if (!d)
			goto oom;
		ge->dead = d;
		ge->capadd = cap;
	}
	if (names_grow(ge) < 0 || uniquify(ge, n) < 0)
		goto oom;
	while (anchor >= ge->nold)       /* a new node's anchor: its own */
		anchor = ge->anchor[anchor - ge->nold];
	ge->add[ge->nadd] = *n;
	*new_slot(ge, n->name) = ge->nadd + 1;
	ge->anchor[ge->nadd] = anchor;
	ge->dead[ge->nold + ge->nadd] = 0;
	memset(n, 0, sizeof *n);
	ge->dirty = ge->changed = 1;
	return ge->nold + ge->nadd++;
oom:
	npu_gnode_clear(n);
	npu_errf(e, "out of memory");
	return -1;
}

typedef struct repl { int from, to; } repl;

static void repl_ref(int *ref, void *ctx)
{
	repl *r = ctx;

	if (*ref == r->from)
		*ref = r->to;
}

void npu_gedit_replace_uses(npu_gedit *ge, int from, int to)
{
	repl r = { from, to };

	for (int i = 0; i < npu_gedit_n(ge); i++)
		if (!ge->dead[i] && i != to)
			npu_gnode_refs(npu_gedit_node(ge, i), repl_ref, &r);
	ge->dirty = ge->changed = 1;
}

/* ---- the users cache --------------------------------------------- */

typedef struct ucx { npu_gedit *ge; int user; int *last; } ucx;

/* Records u->user as a user of *ref, once per user. */
static void use_ref(int *ref, void *ctx)
{
	ucx *u = ctx;
	npu_gedit *ge = u->ge;

	if (*ref < 0 || *ref >= npu_gedit_n(ge) || u->last[*ref] == u->user)
		return;
	u->last[*ref] = u->user;
	if (ge->use[*ref])
		ge->use[*ref][ge->nuse[*ref]] = u->user;
	ge->nuse[*ref]++;
}

static void free_users(npu_gedit *ge)
{
	if (ge->use)
		free(ge->use[0]);
	free(ge->use);
	free(ge->nuse);
	ge->use = NULL;
	ge->nuse = NULL;
}

static void walk_users(npu_gedit *ge, ucx *u)
{
	int n = npu_gedit_n(ge);

	for (int i = 0; i < n; i++)
		u->last[i] = -1;
	for (int i = 0; i < n; i++)
		if (!ge->dead[i]) {
			u->user = i;
			npu_gnode_refs(npu_gedit_node(ge, i), use_ref, u);
		}
}

/* Two walks: count (use[] all NULL), then fill. */
static int build_users(npu_gedit *ge)
{
	int n = npu_gedit_n(ge);
	int *all = NULL;
	size_t total = 0;
	ucx u = { ge, 0, NULL };

	free_users(ge);
	ge->nuse = calloc((size_t)n + 1, sizeof *ge->nuse);
	ge->use = calloc((size_t)n + 1, sizeof *ge->use);
	u.last = malloc(((size_t)n + 1) * sizeof *u.last);
	if (!ge->nuse || !ge->use || !u.last)
		goto oom;
	walk_users(ge, &u);
	for (int i = 0; i < n; i++)
		total += (size_t)ge->nuse[i];
	if (!(all = malloc((total + 1) * sizeof *all)))
		goto oom;
	total = 0;
	for (int i = 0; i < n; i++) {
		ge->use[i] = all + total;
		total += (size_t)ge->nuse[i];
		ge->nuse[i] = 0;
	}
	if (!n)
		ge->use[0] = all;
	walk_users(ge, &u);
	free(u.last);
	ge->dirty = 0;
	return 0;
oom:
	free(u.last);
	free(all);
	free_users(ge);
	return -1;
}

int npu_gedit_users(npu_gedit *ge, int i, const int **users)
{
	if (ge->dirty && build_users(ge) < 0) {
		*users = NULL;
		return -1;
	}
	*users = ge->use[i];
	return ge->nuse[i];
}

/* ---- commit ------------------------------------------------------ */

static void renum_ref(int *ref, void *ctx)
{
	const int *map = ctx;

	*ref = map[*ref];
}

typedef struct ocx { const int *map; int self, bad; } ocx;

static void order_ref(int *ref, void *ctx)
{
	ocx *o = ctx;

	if (*ref < 0 || o->map[*ref] < 0 || o->map[*ref] >= o->self)
		o->bad = 1;
}

/* Every live node must refer only to live nodes placed before it: a
 * pass that broke this has a bug, and committing would corrupt g. */
static int check_order(npu_gedit *ge, const int *map, const int *order,
		       int m, npu_err *e)
{
	for (int j = 0; j < m; j++) {
		npu_gnode *nd = npu_gedit_node(ge, order[j]);
		ocx o = { map, j, 0 };

		npu_gnode_refs(nd, order_ref, &o);
		if (o.bad)
			return npu_errf(e, "%s: node '%s': refers to a removed or "
					"later node after editing", ge->g->file,
					nd->name);
	}
	return 0;
}

static void session_free(npu_gedit *ge)
{
	for (int k = 0; k < ge->nadd; k++)
		npu_gnode_clear(&ge->add[k]);
	free(ge->add);
	free(ge->anchor);
	free(ge->dead);
	free(ge->nslot);
	free_users(ge);
	memset(ge, 0, sizeof *ge);
}

void npu_gedit_abort(npu_gedit *ge)
{
	session_free(ge);
}

int npu_gedit_commit(npu_gedit *ge, npu_err *e)
{
	npu_graph *g = ge->g;
	int n = npu_gedit_n(ge), m = 0;
	int *map = malloc(((size_t)n + 1) * sizeof *map);
	int *order = malloc(((size_t)n + 1) * sizeof *order);
	npu_gnode *nodes = calloc((size_t)n + 1, sizeof *nodes);

	if (!map || !order || !nodes) {
		free(map);
		free(order);
		free(nodes);
		session_free(ge);
		return npu_errf(e, "out of memory");
	}
	/* the new order: each new node just before its anchor; a stable
	 * bucket by anchor keeps creation order among siblings */
	for (int i = 0; i < ge->nold; i++) {
		for (int k = 0; k < ge->nadd; k++)
			if (ge->anchor[k] == i && !ge->dead[ge->nold + k])
				order[m++] = ge->nold + k;
		if (!ge->dead[i])
			order[m++] = i;
	}
	for (int i = 0; i < n; i++)
		map[i] = -1;
	for (int j = 0; j < m; j++)
		map[order[j]] = j;
	if (check_order(ge, map, order, m, e) < 0) {
		free(map);
		free(order);
		free(nodes);
		session_free(ge);
		return -1;
	}
	for (int j = 0; j < m; j++) {
		nodes[j] = *npu_gedit_node(ge, order[j]);
		memset(npu_gedit_node(ge, order[j]), 0, sizeof nodes[j]);
		npu_gnode_refs(&nodes[j], renum_ref, map);
	}
	for (int i = 0; i < ge->nold; i++)      /* the erased ones */
		npu_gnode_clear(&g->nodes[i]);
	free(g->nodes);
	g->nodes = nodes;
	g->nnodes = m;
	g->output = -1;
	for (int j = 0; j < m; j++)
		if (nodes[j].op == NPU_GOP_OUTPUT)
			g->output = j;
	free(map);
	free(order);
	session_free(ge);
	return npu_graph_reindex(g, e);
}
