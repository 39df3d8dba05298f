/*
 * pass_fold.c - constant folding of frozen weights.
 *
 * A value is constant when it is a get_attr tensor or a frozen
 * placeholder (npu_passopts.frozen) that the graph does not mutate, or a
 * pure call whose node arguments are all constant.  Each constant that a
 * run-time value (or the output) uses is computed here with the reference
 * interpreter, one op at a time (npu_ref_exec_op, rounding to each op's
 * dtype as PyTorch would), stored in the caller's npu_passconsts and
 * replaced by a get_attr node "_folded_K" carrying the node's meta; the
 * constant subgraph behind it then has no users and goes with DCE.
 *
 * Not folded: anything with a symbolic argument or shape (its size is not
 * known here), results larger than fold_max_elems (a broadcast of a
 * scalar to a huge tensor is cheaper to compute than to store), multi-
 * output nodes themselves (their getitems fold instead).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/pass_int.h"
#include "isa/isa.h"

typedef struct cval {
	npu_reftensor *t;          /* NULL: not constant (or not loaded yet) */
	int n;
	int borrowed;              /* t is the caller's (frozen): not freed */
	int lazy;                  /* a frozen source, loaded when first read */
	int kept;                  /* constant, but computed at run time
				      (expands), so its inputs are needed */
} cval;

struct fold_cx;

typedef struct fold_cx {
	pass_cx *pc;
	npu_gedit *ge;
	cval *v;                   /* per node of the session's start */
	int nv;
	const npu_reftensor **in;  /* tensor inputs of the op being built */
	int nin, capin;
	int bad;                   /* an argument is not foldable */
} fold_cx;

static const npu_reftensor *source_value(struct fold_cx *fx, int i);

/* Node i's constant value (a frozen source is loaded on first use: the
 * caller converts it to fp64, which only the folded ones need), or
 * NULL when it has none. */
static cval *cval_get(struct fold_cx *fx, int i);

/* True when node i is constant, without loading it. */
static int cval_is(struct fold_cx *fx, int i);

static void cval_free(cval *c)
{
	if (c->borrowed) {
		c->t = NULL;
		c->n = c->borrowed = 0;
		return;
	}
	for (int k = 0; k < c->n; k++)
		npu_reftensor_free(&c->t[k]);
	free(c->t);
	c->t = NULL;
	c->n = 0;
}

static int cval_set1(cval *c, const npu_reftensor *src, npu_err *e)
{
	if (!(c->t = calloc(1, sizeof *c->t)))
		return npu_errf(e, "out of memory");
	c->n = 1;
	if (npu_reftensor_copy(&c->t[0], src, e) < 0) {
		cval_free(c);
		return -1;
	}
	return 0;
}

/* Elements of a concrete tensor meta, or -1. */
static long long meta_numel(const npu_gmeta *m)
{
	long long n = 1;

	if (m->kind != NPU_GM_TENSOR)
		return -1;
	for (int i = 0; i < m->ndim; i++) {
		if (m->shape[i].sym)
			return -1;
		n *= m->shape[i].v;
	}
	return n;
}

/* ---- arguments as the interpreter's attrs JSON ------------------- */

static json_t *tagged(const char *tag, const char *s)
{
	return json_pack("{s:s}", tag, s ? s : "");
}

static json_t *enc_val(fold_cx *fx, const npu_gval *v)
{
	json_t *j;

	switch (v->kind) {
	case NPU_GV_NONE: return json_null();
	case NPU_GV_INT: return json_integer((json_int_t)v->u.i);
	case NPU_GV_BOOL: return json_boolean(v->u.b);
	case NPU_GV_FLOAT:
		if (isnan(v->u.f))
			return tagged("float", "nan");
		if (isinf(v->u.f))
			return tagged("float", v->u.f > 0 ? "inf" : "-inf");
		return json_real(v->u.f);
	case NPU_GV_STR: return json_string(v->u.s);
	case NPU_GV_DTYPE: return tagged("dtype", npu_dtype_torch(v->u.dtype));
	case NPU_GV_DEVICE: return tagged("device", v->u.s);
	case NPU_GV_LAYOUT: return tagged("layout", v->u.s);
	case NPU_GV_MEMFMT: return tagged("memory_format", v->u.s);
	case NPU_GV_NODE: {
		cval *c = cval_get(fx, v->u.node);
		if (!c || c->n != 1) {
			fx->bad = 1;
			return json_null();
		}
		if (fx->nin == fx->capin) {
			int cap = fx->capin ? 2 * fx->capin : 8;
			const npu_reftensor **a = realloc(fx->in,
							   (size_t)cap * sizeof *a);
			if (!a)
				return NULL;
			fx->in = a;
			fx->capin = cap;
		}
		fx->in[fx->nin] = &c->t[0];
		return json_pack("{s:i}", "input", fx->nin++);
	}
	case NPU_GV_LIST:
		if (!(j = json_array()))
			return NULL;
		for (int i = 0; i < v->u.list.n; i++)
			if (json_array_append_new(j, enc_val(fx, &v->u.list.v[i])) < 0) {
				json_decref(j);
				return NULL;
			}
		return j;
	default:                   /* SYM, REPR: not a compile-time value */
		fx->bad = 1;
		return json_null();
	}
}

static char *enc_attrs(fold_cx *fx, const npu_gnode *n)
{
	json_t *root = json_object(), *args = json_array(), *kw = json_object(),
	       *dt = json_array();
	char *s = NULL;

	if (!root || !args || !kw || !dt)
		goto out;
	json_object_set(root, "args", args);
	json_object_set(root, "kwargs", kw);
	json_object_set(root, "dtype", dt);
	json_object_set_new(root, "precision", json_string("torch"));
	for (int i = 0; i < n->nargs; i++)
		json_array_append_new(args, enc_val(fx, &n->args[i]));
	for (int i = 0; i < n->nkwargs; i++)
		json_object_set_new(kw, n->kwargs[i].key,
				    enc_val(fx, &n->kwargs[i].val));
	for (int i = 0; i < n->nmeta; i++)
		json_array_append_new(dt, json_string(
			npu_dtype_torch(n->meta[i].dtype)));
	s = json_dumps(root, JSON_COMPACT);
out:
	json_decref(root);
	json_decref(args);
	json_decref(kw);
	json_decref(dt);
	return s;
}

/* ---- deciding and computing -------------------------------------- */

/* The frozen value of placeholder / get_attr i, or NULL. */
static const npu_reftensor *source_value(fold_cx *fx, int i)
{
	const npu_passopts *o = fx->pc->o;
	npu_gnode *n = npu_gedit_node(fx->ge, i);
	char key[512];
	const npu_reftensor *t = NULL;

	if (n->op == NPU_GOP_GET_ATTR) {
		t = npu_passconsts_find(o->consts, n->target);
		snprintf(key, sizeof key, "attr.%s", n->target);
	} else {
		if (pass_mutated_input(fx->pc->g, i))
			return NULL;
		snprintf(key, sizeof key, "%s", n->name);
	}
	if (!t && o->frozen)
		t = o->frozen(o->ctx, key);
	if (!t || !n->nmeta || n->meta[0].kind != NPU_GM_TENSOR ||
	    t->dtype != n->meta[0].dtype || t->ndim != n->meta[0].ndim ||
	    meta_numel(&n->meta[0]) != npu_reftensor_numel(t))
		return NULL;
	return t;
}

/*
 * Whether placeholder / get_attr i may have a frozen value, without
 * converting it: exact when the caller offers raw access, otherwise a
 * guess that cval_get corrects.
 */
static int source_known(fold_cx *fx, int i)
{
	const npu_passopts *o = fx->pc->o;
	npu_gnode *n = npu_gedit_node(fx->ge, i);
	int64_t shape[NPU_MAX_DIMS];
	int dt, nd;
	char key[512];

	if (n->op == NPU_GOP_GET_ATTR) {
		if (npu_passconsts_find(o->consts, n->target))
			return 1;
		snprintf(key, sizeof key, "attr.%s", n->target);
	} else {
		if (pass_mutated_input(fx->pc->g, i))
			return 0;
		snprintf(key, sizeof key, "%s", n->name);
	}
	if (!o->frozen)
		return 0;
	if (!o->frozen_raw)
		return 1;
	return o->frozen_raw(o->ctx, key, &dt, &nd, shape) != NULL;
}

static cval *cval_get(fold_cx *fx, int i)
{
	cval *c = &fx->v[i];

	if (c->lazy && !c->t) {
		c->lazy = 0;
		if ((c->t = (npu_reftensor *)source_value(fx, i))) {
			c->n = 1;
			c->borrowed = 1;
		}
	}
	return c->t ? c : NULL;
}

static int cval_is(fold_cx *fx, int i)
{
	return fx->v[i].t || fx->v[i].lazy;
}

typedef struct allcx { fold_cx *fx; int all; } allcx;

static void const_ref(int *ref, void *ctx)
{
	allcx *a = ctx;

	if (!cval_is(a->fx, *ref))
		a->all = 0;
}

/* True when every node n reads is constant: checked before anything is
 * loaded or encoded, so a run-time op never converts its weights. */
static int all_const(fold_cx *fx, npu_gnode *n)
{
	allcx a = { fx, 1 };

	npu_gnode_refs(n, const_ref, &a);
	return a.all;
}

/* Checks a result against node meta k. */
static int result_ok(const npu_gnode *n, int k, const npu_reftensor *t)
{
	const npu_gmeta *m = &n->meta[k];

	if (m->kind != NPU_GM_TENSOR)
		return 0;
	if (t->ndim != m->ndim || t->dtype != m->dtype)
		return 0;
	for (int d = 0; d < m->ndim; d++)
		if (t->shape[d] != m->shape[d].v)
			return 0;
	return 1;
}

static int eval_call(fold_cx *fx, int i, long long limit)
{
	npu_gnode *n = npu_gedit_node(fx->ge, i);
	cval *c = &fx->v[i];
	int nout = n->multi ? n->nmeta : 1;
	char *attrs;
	npu_err e2;
	npu_reftensor *out;

	if (!n->nmeta || nout > 64 || !all_const(fx, n))
		return 0;
	for (int k = 0; k < n->nmeta; k++) {
		long long ne = meta_numel(&n->meta[k]);
		if (ne < 0 || ne > limit)
			return 0;
	}
	if ((n->aop == NPU_AOP_ALIAS || n->aop == NPU_AOP_CLONE ||
	     n->aop == NPU_AOP_LIFT_FRESH_COPY || n->aop == NPU_AOP_DETACH) &&
	    n->nargs && n->args[0].kind == NPU_GV_NODE &&
	    npu_gedit_node(fx->ge, n->args[0].u.node)->op != NPU_GOP_CALL_FUNCTION)
		return 0;           /* a copy of a stored constant: noop's job */
	if (n->aop == NPU_AOP_GETITEM) {
		const npu_gval *s = n->nargs == 2 ? &n->args[0] : NULL;
		const npu_gval *k = n->nargs == 2 ? &n->args[1] : NULL;
		cval *src;
		if (!s || s->kind != NPU_GV_NODE || k->kind != NPU_GV_INT)
			return 0;
		if (!(src = cval_get(fx, s->u.node)))
			return 0;
		if (k->u.i < 0 || k->u.i >= src->n ||
		    src->t[k->u.i].ndim < 0 || !result_ok(n, 0, &src->t[k->u.i]))
			return 0;
		return cval_set1(c, &src->t[k->u.i], fx->pc->e);
	}
	fx->nin = 0;
	fx->bad = 0;
	if (!(attrs = enc_attrs(fx, n)))
		return npu_errf(fx->pc->e, "out of memory");
	if (fx->bad) {
		free(attrs);
		return 0;
	}
	if (!(out = calloc((size_t)nout, sizeof *out))) {
		free(attrs);
		return npu_errf(fx->pc->e, "out of memory");
	}
	{
		/* the interpreter takes the inputs by value: shallow copies,
		 * the data stays owned by fx->v */
		npu_reftensor *in = calloc((size_t)fx->nin + 1, sizeof *in);
		int rc;

		if (!in) {
			free(attrs);
			free(out);
			return npu_errf(fx->pc->e, "out of memory");
		}
		for (int k = 0; k < fx->nin; k++)
			in[k] = *fx->in[k];
		/* the interpreter refusing is no error of the graph's: the
		 * node just stays a run-time computation */
		rc = npu_ref_exec_op(n->target, attrs, in, fx->nin, out, nout,
				     &e2);
		free(in);
		free(attrs);
		if (rc < 0) {
			free(out);
			return 0;
		}
	}
	for (int k = 0; k < nout; k++)
		if (out[k].ndim >= 0 && !result_ok(n, k, &out[k])) {
			for (int j = 0; j < nout; j++)
				npu_reftensor_free(&out[j]);
			free(out);
			return 0;
		}
	c->t = out;
	c->n = nout;
	return 0;
}

/* Is node i (constant) needed by something that is not constant? */
static int needed_at_runtime(fold_cx *fx, int i)
{
	const int *u;
	int nu = npu_gedit_users(fx->ge, i, &u);

	for (int k = 0; k < nu; k++)
		if (!fx->v[u[k]].t || fx->v[u[k]].kept)
			return 1;
	return 0;
}

typedef struct sumcx { fold_cx *fx; long long n; } sumcx;

static void sum_ref(int *ref, void *ctx)
{
	sumcx *s = ctx;
	const npu_gnode *n;
	cval *c;

	if (*ref >= s->fx->nv) {
		/* a constant this session folded (add_const), by its meta */
		n = npu_gedit_node(s->fx->ge, *ref);
		if (n->nmeta > 0 && n->meta[0].kind == NPU_GM_TENSOR) {
			long long e = 1;
			for (int d = 0; d < n->meta[0].ndim; d++)
				e *= n->meta[0].shape[d].v;
			s->n += e;
		}
		return;
	}
	c = &s->fx->v[*ref];
	for (int k = 0; c->t && k < c->n; k++)
		s->n += npu_reftensor_numel(&c->t[k]);
}

/* Elements of the constant tensors a node reads. */
static long long input_elems(fold_cx *fx, npu_gnode *n)
{
	sumcx s = { fx, 0 };

	npu_gnode_refs(n, sum_ref, &s);
	return s.n;
}

/* A large result made from much less data (full, arange, an expand of a
 * scalar): storing it in the program would cost more DRAM than
 * computing it, so it stays a run-time op on its (folded) inputs. */
static int expands(fold_cx *fx, int i)
{
	long long out = npu_reftensor_numel(&fx->v[i].t[0]);

	return out > 65536 && out > 2 * input_elems(fx, npu_gedit_node(fx->ge, i));
}

/* Constant node i, needed at run time by a user that is not. */
static int foldable(fold_cx *fx, int i)
{
	npu_gnode *nd = npu_gedit_node(fx->ge, i);

	return fx->v[i].t && fx->v[i].n == 1 && !nd->multi &&
	       nd->op == NPU_GOP_CALL_FUNCTION && !npu_gedit_dead(fx->ge, i) &&
	       fx->v[i].t[0].ndim >= 0 && needed_at_runtime(fx, i);
}

static int add_const(fold_cx *fx, int i)
{
	pass_cx *pc = fx->pc;
	npu_passconsts *cs = pc->o->consts;
	npu_gnode *n;
	int idx;

	/* the node stays marked constant for the users still to be visited */
	idx = pass_add_frozen(pc, fx->ge, i, i, &npu_gedit_node(fx->ge, i)->meta[0],
			      &fx->v[i].t[0]);
	if (idx < 0)
		return -1;
	n = npu_gedit_node(fx->ge, i);
	npu_gedit_replace_uses(fx->ge, i, idx);
	npu_gedit_kill(fx->ge, i);
	return pass_log(pc, n->name, "folded %s (%s, %lld elements) into %s",
			n->name, n->target,
			(long long)npu_reftensor_numel(&cs->v[cs->n - 1].t),
			cs->v[cs->n - 1].name);
}

static int fold_session(pass_cx *pc, npu_gedit *ge)
{
	fold_cx fx = { .pc = pc, .ge = ge };
	int n = npu_gedit_n(ge), rc = -1;
	long long limit = pc->o->fold_max_elems ? pc->o->fold_max_elems
						: 1LL << 24;

	if (!(fx.v = calloc((size_t)n + 1, sizeof *fx.v)))
		return npu_errf(pc->e, "out of memory");
	fx.nv = n;
	for (int i = 0; i < n; i++) {
		npu_gnode *nd = npu_gedit_node(ge, i);

		if (npu_gedit_dead(ge, i))
			continue;
		if (nd->op == NPU_GOP_PLACEHOLDER || nd->op == NPU_GOP_GET_ATTR) {
			/* frozen tensors are read in place, and only when an
			 * op that folds reads them: converting every weight
			 * would cost more than the folding */
			fx.v[i].lazy = source_known(&fx, i);
		} else if (nd->op == NPU_GOP_CALL_FUNCTION &&
			   nd->aop != NPU_AOP_UNKNOWN &&
			   eval_call(&fx, i, limit) < 0)
			goto out;
	}
	/* which constants stay computed (a causal mask of [S, S] from two
	 * aranges), users before their inputs: the inputs of one are then
	 * needed at run time, folded below */
	for (int i = n - 1; i >= 0; i--)
		fx.v[i].kept = foldable(&fx, i) && expands(&fx, i);
	for (int i = 0; i < n; i++) {
		npu_gnode *nd = npu_gedit_node(ge, i);
		if (!foldable(&fx, i))
			continue;
		if (fx.v[i].kept) {
			if (pass_note(pc, nd->name, "kept %s (%lld elements made "
				      "from %lld: cheaper to compute than to "
				      "store)", nd->name,
				      (long long)npu_reftensor_numel(&fx.v[i].t[0]),
				      input_elems(&fx, nd)) < 0)
				goto out;
			continue;
		}
		if (add_const(&fx, i) < 0)
			goto out;
	}
	rc = 0;
out:
	for (int i = 0; i < n; i++)
		cval_free(&fx.v[i]);
	free(fx.v);
	free(fx.in);
	return rc;
}

static void mark(int *ref, void *ctx)
{
	((unsigned char *)ctx)[*ref] = 1;
}

/* What the folded constants left behind: pure calls no one uses. */
static int sweep(pass_cx *pc, npu_gedit *ge)
{
	int n = npu_gedit_n(ge);
	unsigned char *live = calloc((size_t)n + 1, 1);

	if (!live)
		return npu_errf(pc->e, "out of memory");
	for (int i = n - 1; i >= 0; i--) {
		npu_gnode *nd = npu_gedit_node(ge, i);
		if (npu_gedit_dead(ge, i))
			continue;
		if (nd->op != NPU_GOP_GET_ATTR &&
		    !(nd->op == NPU_GOP_CALL_FUNCTION && nd->aop != NPU_AOP_UNKNOWN))
			live[i] = 1;
		if (live[i])
			npu_gnode_refs(nd, mark, live);
	}
	for (int i = 0; i < n; i++)
		if (!live[i] && !npu_gedit_dead(ge, i))
			npu_gedit_kill(ge, i);
	free(live);
	return 0;
}

static int in_session(pass_cx *pc, int (*fn)(pass_cx *, npu_gedit *))
{
	npu_gedit ge;

	if (npu_gedit_begin(&ge, pc->g, pc->e) < 0)
		return -1;
	if (fn(pc, &ge) < 0) {
		npu_err keep = *pc->e;
		npu_gedit_commit(&ge, pc->e);
		*pc->e = keep;
		return -1;
	}
	return npu_gedit_commit(&ge, pc->e);
}

int pass_fold(pass_cx *pc)
{
	if (!pc->o->consts)
		return 0;
	if (in_session(pc, fold_session) < 0)
		return -1;
	return in_session(pc, sweep);
}
