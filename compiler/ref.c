/*
 * ref.c - the reference interpreter's driver: tensors, argument access,
 * SymInt binding, the dispatch table (expanded from optab.def), the graph
 * loop and the single-op entry point.  The kernels live in ref_ew.c
 * (elementwise), ref_shape.c (views, movement, creation) and ref_nn.c
 * (reductions, matmul, conv, pooling, norms, quantization).
 */
#include "compiler/ref_int.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/dtype.h"
#include "isa/isa.h"

static const ref_fn dispatch[NPU_NAOP] = {
#define NPU_ATEN(id, target, cat, impl, schema, sem) [NPU_AOP_##id] = ref_##impl,
#include "compiler/optab.def"
#undef NPU_ATEN
};

/* ---- tensors ----------------------------------------------------- */

int64_t npu_reftensor_numel(const npu_reftensor *t)
{
	int64_t n = 1;

	if (t->ndim < 0)
		return 0;
	for (int i = 0; i < t->ndim; i++)
		n *= t->shape[i];
	return n;
}

int npu_reftensor_alloc(npu_reftensor *t, int dtype, int ndim,
			const int64_t *shape, npu_err *e)
{
	int64_t n = 1;

	t->data = NULL;
	t->ndim = -1;
	if (ndim < 0 || ndim > NPU_MAX_DIMS)
		return npu_errf(e, "rank %d out of range (at most %d)", ndim,
				NPU_MAX_DIMS);
	for (int i = 0; i < ndim; i++) {
		if (shape[i] < 0)
			return npu_errf(e, "negative size %lld", (long long)shape[i]);
		if (shape[i] && n > (INT64_C(1) << 40) / shape[i])
			return npu_errf(e, "tensor too large");
		n *= shape[i];
	}
	if (!(t->data = calloc(n ? (size_t)n : 1, sizeof(double))))
		return npu_errf(e, "out of memory (%lld elements)", (long long)n);
	t->dtype = dtype;
	t->ndim = ndim;
	if (ndim)
		memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
	return 0;
}

void npu_reftensor_free(npu_reftensor *t)
{
	free(t->data);
	t->data = NULL;
	t->ndim = -1;
}

int npu_reftensor_copy(npu_reftensor *dst, const npu_reftensor *src,
		       npu_err *e)
{
	if (src->ndim < 0) {
		dst->data = NULL;
		dst->ndim = -1;
		return 0;
	}
	if (npu_reftensor_alloc(dst, src->dtype, src->ndim, src->shape, e) < 0)
		return -1;
	memcpy(dst->data, src->data,
	       (size_t)npu_reftensor_numel(src) * sizeof(double));
	return 0;
}

int npu_reftensor_load(npu_reftensor *t, int dtype, int ndim,
		       const int64_t *shape, const void *raw, npu_err *e)
{
	int64_t n;

	if (npu_dtype_size(dtype) <= 0)
		return npu_errf(e, "bad dtype %d", dtype);
	if (npu_reftensor_alloc(t, dtype, ndim, shape, e) < 0)
		return -1;
	n = npu_reftensor_numel(t);
	for (int64_t i = 0; i < n; i++)
		t->data[i] = npu_load_f64(dtype, raw, (size_t)i);
	return 0;
}

void npu_reftensor_store(const npu_reftensor *t, void *raw)
{
	int64_t n = npu_reftensor_numel(t);

	for (int64_t i = 0; i < n; i++)
		npu_store_f64(t->dtype, raw, (size_t)i, t->data[i]);
}

void ref_strides(int ndim, const int64_t *shape, int64_t *st)
{
	int64_t s = 1;

	for (int i = ndim - 1; i >= 0; i--) {
		st[i] = s;
		s *= shape[i];
	}
}

void ref_iter_init(ref_iter *it, int nd, const int64_t *shape, int nops)
{
	memset(it, 0, sizeof *it);
	it->nd = nd;
	it->nops = nops;
	memcpy(it->shape, shape, (size_t)nd * sizeof *shape);
}

int ref_bshape(ref_op *op, int na, const int64_t *a, int nb, const int64_t *b,
	       int *nd, int64_t *shape)
{
	int n = na > nb ? na : nb;
	int64_t out[NPU_MAX_DIMS];

	/* shape may alias a or b (callers fold several operands in turn),
	 * so the result is built aside and copied at the end. */
	for (int i = 0; i < n; i++) {
		int64_t x = i < n - na ? 1 : a[i - (n - na)];
		int64_t y = i < n - nb ? 1 : b[i - (n - nb)];
		if (x != y && x != 1 && y != 1)
			return npu_errf(op->e, "shapes do not broadcast (dim %d: "
					"%lld vs %lld)", i, (long long)x,
					(long long)y);
		out[i] = x == 1 ? y : x;
	}
	memcpy(shape, out, (size_t)n * sizeof *out);
	*nd = n;
	return 0;
}

void ref_bstrides(const npu_reftensor *t, int nd, const int64_t *shape,
		  int64_t *st)
{
	int64_t own[NPU_MAX_DIMS];
	int lead = nd - t->ndim;

	ref_strides(t->ndim, t->shape, own);
	for (int i = 0; i < nd; i++)
		st[i] = i < lead || t->shape[i - lead] == 1 ? 0 : own[i - lead];
}

void ref_gather_strided(const npu_reftensor *src, const int64_t *st,
			int64_t off, npu_reftensor *out)
{
	int64_t n = npu_reftensor_numel(out);
	ref_iter it;

	ref_iter_init(&it, out->ndim, out->shape, 1);
	memcpy(it.st[0], st, (size_t)out->ndim * sizeof *st);
	it.off[0] = off;
	for (int64_t i = 0; i < n; i++, ref_iter_next(&it))
		out->data[i] = src->data[it.off[0]];
}

int ref_is_float(int dt)
{
	return dt == NPU_DT_F32 || dt == NPU_DT_F64 || dt == NPU_DT_BF16 ||
	       dt == NPU_DT_F16 || dt == NPU_DT_E4M3 || dt == NPU_DT_E5M2;
}

int ref_is_int(int dt)
{
	return dt == NPU_DT_I8 || dt == NPU_DT_U8 || dt == NPU_DT_I16 ||
	       dt == NPU_DT_I32 || dt == NPU_DT_I64;
}

int ref_same_shape(const npu_reftensor *a, const npu_reftensor *b)
{
	return a->ndim == b->ndim &&
	       !memcmp(a->shape, b->shape, (size_t)(a->ndim > 0 ? a->ndim : 0) * sizeof *a->shape);
}

/* Rank within a category, for promotion. */
static int dt_rank(int dt)
{
	switch (dt) {
	case NPU_DT_F64: case NPU_DT_I64: return 5;
	case NPU_DT_F32: case NPU_DT_I32: return 4;
	case NPU_DT_BF16: case NPU_DT_F16: case NPU_DT_I16: return 3;
	case NPU_DT_U8: return 2;
	default: return 1;
	}
}

static int dt_cat(int dt)
{
	return ref_is_float(dt) ? 2 : ref_is_int(dt) ? 1 : 0;
}

int ref_promote(int a, int b)
{
	if (a == b)
		return a;
	if (dt_cat(a) != dt_cat(b))
		return dt_cat(a) > dt_cat(b) ? a : b;
	if (dt_rank(a) != dt_rank(b))
		return dt_rank(a) > dt_rank(b) ? a : b;
	/* bf16 with f16, i8 with u8: PyTorch goes one size up */
	return ref_is_float(a) ? NPU_DT_F32 : NPU_DT_I16;
}

double ref_to_dtype(int dt, double x)
{
	int bits;

	switch (dt) {
	case NPU_DT_BOOL: return x != 0;
	case NPU_DT_I8: case NPU_DT_U8: bits = 8; break;
	case NPU_DT_I16: bits = 16; break;
	case NPU_DT_I32: bits = 32; break;
	case NPU_DT_I64: bits = 64; break;
	default: return x;
	}
	if (!isfinite(x))
		return 0;
	x = trunc(x);
	if (bits < 64) {
		double m = ldexp(1, bits);
		x = fmod(x, m);
		if (x < 0)
			x += m;
		if (dt != NPU_DT_U8 && x >= m / 2)
			x -= m;
	}
	return x;
}

/* Rounds x to a floating dtype as PyTorch stores it (NPU_REF_TORCH). */
static double round_to(int dt, double x)
{
	switch (dt) {
	case NPU_DT_F64: return x;
	case NPU_DT_F32: return (float)x;
	default: return npu_round_through(dt, (float)x);
	}
}

/* Gives t the dtype dt: integer values are converted, floats rounded
 * when precision is NPU_REF_TORCH. */
static void finish_dtype(npu_reftensor *t, int dt, int precision)
{
	int64_t n = npu_reftensor_numel(t);

	if (ref_is_float(dt)) {
		if (precision == NPU_REF_TORCH && dt != NPU_DT_F64)
			for (int64_t i = 0; i < n; i++)
				t->data[i] = round_to(dt, t->data[i]);
	} else {
		for (int64_t i = 0; i < n; i++)
			t->data[i] = ref_to_dtype(dt, t->data[i]);
	}
	t->dtype = dt;
}

/* ---- arguments --------------------------------------------------- */

const npu_gval *ref_arg(const ref_op *op, int i, const char *name)
{
	const npu_gval *v = NULL;

	if (i >= 0 && i < op->nargs)
		v = &op->args[i];
	else if (name)
		for (int k = 0; k < op->nkw; k++)
			if (!strcmp(op->kw[k].key, name))
				v = &op->kw[k].val;
	return v && v->kind != NPU_GV_NONE ? v : NULL;
}

static const char *argname(int i, const char *name, char *buf, size_t n)
{
	if (name)
		snprintf(buf, n, "argument '%s'", name);
	else
		snprintf(buf, n, "argument %d", i);
	return buf;
}

/* The tensor a node reference names (its first value). */
static const npu_reftensor *node_tensor(ref_op *op, int node)
{
	if (node < 0 || node >= op->cx->nvals || op->cx->vals[node].n < 1)
		return NULL;
	return &op->cx->vals[node].t[0];
}

int ref_tensor(ref_op *op, int i, const char *name, const npu_reftensor **t)
{
	const npu_gval *v = ref_arg(op, i, name);
	char buf[64];

	*t = v && v->kind == NPU_GV_NODE ? node_tensor(op, v->u.node) : NULL;
	if (!*t || (*t)->ndim < 0)
		return npu_errf(op->e, "%s must be a tensor",
				argname(i, name, buf, sizeof buf));
	return 0;
}

const npu_reftensor *ref_opt_tensor(ref_op *op, int i, const char *name)
{
	const npu_gval *v = ref_arg(op, i, name);
	const npu_reftensor *t;

	if (!v || v->kind != NPU_GV_NODE)
		return NULL;
	t = node_tensor(op, v->u.node);
	return t && t->ndim >= 0 ? t : NULL;
}

static int sym_lookup(ref_ctx *cx, const char *expr, int64_t *v, npu_err *e)
{
	return npu_ref_symeval(expr, (const char *const *)cx->sym, cx->symval,
			       cx->nsym, v, e);
}

/* The same for a SymFloat too; *fl (if not NULL) whether it is one. */
static int sym_lookupf(ref_ctx *cx, const char *expr, double *v, int *fl,
		       npu_err *e)
{
	return npu_ref_symevalf(expr, (const char *const *)cx->sym, cx->symval,
				cx->nsym, v, fl, e);
}

int ref_gval_num(ref_op *op, const npu_gval *v, double *d)
{
	const npu_reftensor *t;

	switch (v->kind) {
	case NPU_GV_INT: *d = (double)v->u.i; return 0;
	case NPU_GV_FLOAT: *d = v->u.f; return 0;
	case NPU_GV_BOOL: *d = v->u.b; return 0;
	case NPU_GV_SYM:       /* a SymFloat too */
		return sym_lookupf(op->cx, v->u.s, d, NULL, op->e);
	case NPU_GV_NODE:
		t = node_tensor(op, v->u.node);
		if (t && t->ndim >= 0 && npu_reftensor_numel(t) == 1) {
			*d = t->data[0];
			return 0;
		}
		break;
	}
	return npu_errf(op->e, "expected a number");
}

int ref_double(ref_op *op, int i, const char *name, double def, double *v)
{
	const npu_gval *g = ref_arg(op, i, name);
	char buf[64];

	*v = def;
	if (g && ref_gval_num(op, g, v) < 0)
		return npu_err_prefix(op->e, "%s", argname(i, name, buf, sizeof buf));
	return 0;
}

int ref_int(ref_op *op, int i, const char *name, int64_t def, int64_t *v)
{
	const npu_gval *g = ref_arg(op, i, name);
	double d = (double)def;
	char buf[64];

	*v = def;
	if (g && g->kind == NPU_GV_INT) {  /* exact, INT64_MAX included */
		*v = g->u.i;
		return 0;
	}
	if (ref_double(op, i, name, d, &d) < 0)
		return -1;
	if (d != trunc(d) || fabs(d) > 9.2e18)
		return npu_errf(op->e, "%s must be an integer",
				argname(i, name, buf, sizeof buf));
	if (g)
		*v = (int64_t)d;
	return 0;
}

int ref_bool(ref_op *op, int i, const char *name, int def, int *v)
{
	double d = def;

	if (ref_double(op, i, name, d, &d) < 0)
		return -1;
	*v = d != 0;
	return 0;
}

int ref_ints(ref_op *op, int i, const char *name, int64_t *v, int max, int *n)
{
	const npu_gval *g = ref_arg(op, i, name);
	char buf[64];
	double d;

	*n = 0;
	if (!g)
		return 0;
	if (g->kind != NPU_GV_LIST) {
		if (ref_gval_num(op, g, &d) < 0)
			return npu_err_prefix(op->e, "%s", argname(i, name, buf, sizeof buf));
		v[0] = (int64_t)d;
		*n = 1;
		return 1;
	}
	if (g->u.list.n > max)
		return npu_errf(op->e, "%s: more than %d entries",
				argname(i, name, buf, sizeof buf), max);
	for (int k = 0; k < g->u.list.n; k++) {
		if (ref_gval_num(op, &g->u.list.v[k], &d) < 0 || d != trunc(d))
			return npu_errf(op->e, "%s: entry %d is not an integer",
					argname(i, name, buf, sizeof buf), k);
		v[k] = (int64_t)d;
	}
	*n = g->u.list.n;
	return 1;
}

int ref_dtype(ref_op *op, int i, const char *name, int def, int *dt)
{
	const npu_gval *g = ref_arg(op, i, name);
	char buf[64];

	*dt = def;
	if (!g)
		return 0;
	if (g->kind != NPU_GV_DTYPE)
		return npu_errf(op->e, "%s must be a dtype",
				argname(i, name, buf, sizeof buf));
	*dt = g->u.dtype;
	return 0;
}

int ref_operand(ref_op *op, const npu_gval *v, npu_reftensor *tmp,
		const npu_reftensor **t, int *weak)
{
	double d;

	*weak = 0;
	if (v && v->kind == NPU_GV_NODE) {
		*t = node_tensor(op, v->u.node);
		if (*t && (*t)->ndim >= 0)
			return 0;
	}
	if (!v || ref_gval_num(op, v, &d) < 0)
		return npu_errf(op->e, "expected a tensor or a number");
	if (npu_reftensor_alloc(tmp, v->kind == NPU_GV_FLOAT ? NPU_DT_F32 :
				v->kind == NPU_GV_BOOL ? NPU_DT_BOOL : NPU_DT_I64,
				0, NULL, op->e) < 0)
		return -1;
	tmp->data[0] = d;
	*t = tmp;
	*weak = 1;
	return 0;
}

int ref_out(ref_op *op, int k, int dtype, int ndim, const int64_t *shape,
	    npu_reftensor **t)
{
	if (k >= REF_MAX_OUT)
		return npu_errf(op->e, "more than %d results", REF_MAX_OUT);
	npu_reftensor_free(&op->out[k]);
	if (npu_reftensor_alloc(&op->out[k], dtype, ndim, shape, op->e) < 0)
		return -1;
	if (op->nout <= k)
		op->nout = k + 1;
	*t = &op->out[k];
	return 0;
}

int ref_dim(ref_op *op, int64_t d, int ndim, int *out)
{
	int64_t n = ndim ? ndim : 1;  /* a 0-dim tensor takes dim 0 or -1 */

	if (d < -n || d >= n)
		return npu_errf(op->e, "dim %lld out of range for rank %d",
				(long long)d, ndim);
	*out = (int)(d < 0 ? d + n : d);
	return 0;
}

/* ---- SymInt expressions ------------------------------------------ */

/*
 * Sizes and scalars as sympy prints them (Dynamo's SymInt and SymFloat
 * metas): integers, symbols, + - * / // % **, parentheses and a few
 * functions.  Values are integers until a true division, a float
 * function or a float operand makes them floats, as in Python: int64
 * arithmetic wraps, // and % floor.
 */
typedef struct symv {
	int fl;         /* a float (SymFloat), else an integer */
	int64_t i;
	double f;
} symv;

typedef struct symp {
	const char *p;
	const char *const *names;
	const int64_t *vals;
	int n, depth;
	npu_err *e;
} symp;

static int sym_expr(symp *s, symv *v);
static int sym_atom(symp *s, symv *v);

static double sym_f(const symv *v)
{
	return v->fl ? v->f : (double)v->i;
}

static void sym_setf(symv *v, double f)
{
	v->fl = 1;
	v->f = f;
}

static void sym_ws(symp *s)
{
	while (isspace((unsigned char)*s->p))
		s->p++;
}

/* The functions: Max and Min of any number of arguments (torch.sym_max,
 * torchvision's box code), PyTorch's IntTrueDiv and FloatTrueDiv (a / b
 * as a float: F.interpolate's scales over symbolic sizes), ToFloat, and
 * the roundings to integers. */
enum { SF_MAX, SF_MIN, SF_TRUEDIV, SF_FTRUEDIV, SF_TOFLOAT, SF_FLOOR,
       SF_CEIL, SF_TRUNC, SF_FLOOR2, SF_CEIL2 };
static const struct { const char *name; int nargs; } sym_funcs[] = {
	[SF_MAX] = { "Max", -1 }, [SF_MIN] = { "Min", -1 },
	[SF_TRUEDIV] = { "IntTrueDiv", 2 }, [SF_FTRUEDIV] = { "FloatTrueDiv", 2 },
	[SF_TOFLOAT] = { "ToFloat", 1 }, [SF_FLOOR] = { "FloorToInt", 1 },
	[SF_CEIL] = { "CeilToInt", 1 }, [SF_TRUNC] = { "TruncToInt", 1 },
	[SF_FLOOR2] = { "floor", 1 }, [SF_CEIL2] = { "ceiling", 1 },
};
#define NSYM_FUNCS (int)(sizeof sym_funcs / sizeof *sym_funcs)

static int sym_less(const symv *a, const symv *b)
{
	return a->fl || b->fl ? sym_f(a) < sym_f(b) : a->i < b->i;
}

static int sym_apply(symp *s, int fn, symv *a, int na, symv *v)
{
	double x = sym_f(&a[0]);

	switch (fn) {
	case SF_MAX: case SF_MIN:
		*v = a[0];
		for (int k = 1; k < na; k++)
			if (fn == SF_MAX ? sym_less(v, &a[k]) : sym_less(&a[k], v))
				*v = a[k];
		/* a float among the arguments makes the result one */
		for (int k = 0; k < na; k++)
			if (a[k].fl && !v->fl)
				sym_setf(v, (double)v->i);
		return 0;
	case SF_TRUEDIV: case SF_FTRUEDIV:
		if (sym_f(&a[1]) == 0)
			return npu_errf(s->e, "symbolic expression divides by zero");
		sym_setf(v, x / sym_f(&a[1]));
		return 0;
	case SF_TOFLOAT:
		sym_setf(v, x);
		return 0;
	}
	if (!isfinite(x) || fabs(x) >= 9.2e18)
		return npu_errf(s->e, "symbolic expression: %s of %g",
				sym_funcs[fn].name, x);
	v->fl = 0;
	v->i = (int64_t)(fn == SF_FLOOR || fn == SF_FLOOR2 ? floor(x) :
			 fn == SF_TRUNC ? trunc(x) : ceil(x));
	return 0;
}

/* A call: name is where the function's name begins, s->p at its '('. */
static int sym_call(symp *s, const char *name, symv *v)
{
	size_t len = (size_t)(s->p - name);
	symv a[8];
	int fn, na = 0;

	for (fn = 0; fn < NSYM_FUNCS; fn++)
		if (strlen(sym_funcs[fn].name) == len &&
		    !strncmp(sym_funcs[fn].name, name, len))
			break;
	if (fn == NSYM_FUNCS)
		return npu_errf(s->e, "unknown function '%.*s' in a symbolic "
				"expression", (int)len, name);
	s->p++;
	for (;;) {
		if (na == 8)
			return npu_errf(s->e, "symbolic expression: too many arguments");
		if (sym_expr(s, &a[na++]) < 0)
			return -1;
		sym_ws(s);
		if (*s->p == ')')
			break;
		if (*s->p++ != ',')
			return npu_errf(s->e, "symbolic expression: missing ')'");
	}
	s->p++;
	if (sym_funcs[fn].nargs >= 0 && na != sym_funcs[fn].nargs)
		return npu_errf(s->e, "%s takes %d argument(s), not %d",
				sym_funcs[fn].name, sym_funcs[fn].nargs, na);
	return sym_apply(s, fn, a, na, v);
}

static int sym_name(symp *s, symv *v)
{
	const char *b = s->p;
	int k;

	while (isalnum((unsigned char)*s->p) || *s->p == '_')
		s->p++;
	if (*s->p == '(')
		return sym_call(s, b, v);
	for (k = 0; k < s->n; k++)
		if (strlen(s->names[k]) == (size_t)(s->p - b) &&
		    !strncmp(s->names[k], b, (size_t)(s->p - b)))
			break;
	if (k == s->n)
		return npu_errf(s->e, "unbound symbol '%.*s'", (int)(s->p - b), b);
	v->fl = 0;
	v->i = s->vals[k];
	return 0;
}

/* a**k, right-associative; an integer power of an integer stays one */
static int sym_power(symp *s, symv *v)
{
	symv k;

	s->p += 2;
	if (sym_atom(s, &k) < 0)
		return -1;
	if (v->fl || k.fl) {
		sym_setf(v, pow(sym_f(v), sym_f(&k)));
		return 0;
	}
	if (k.i < 0)
		return npu_errf(s->e, "symbolic expression: negative power");
	int64_t r = 1;
	for (int64_t i = 0; i < k.i && i < 64; i++)
		r = (int64_t)((uint64_t)r * (uint64_t)v->i);
	v->i = k.i > 64 ? (v->i == 0 || v->i == 1 ? v->i : 0) : r;
	return 0;
}

static int sym_atom(symp *s, symv *v)
{
	sym_ws(s);
	if (++s->depth > 64)
		return npu_errf(s->e, "symbolic expression nested too deeply");
	if (*s->p == '(') {
		s->p++;
		if (sym_expr(s, v) < 0)
			return -1;
		sym_ws(s);
		if (*s->p++ != ')')
			return npu_errf(s->e, "symbolic expression: missing ')'");
	} else if (*s->p == '-') {
		/* -a**b is -(a**b), as in Python */
		s->p++;
		if (sym_atom(s, v) < 0)
			return -1;
		if (v->fl)
			v->f = -v->f;
		else
			v->i = (int64_t)(0 - (uint64_t)v->i);
		s->depth--;
		return 0;
	} else if (isdigit((unsigned char)*s->p)) {
		const char *b = s->p;
		v->fl = 0;
		v->i = strtoll(b, (char **)&s->p, 10);
		if (*s->p == '.' || *s->p == 'e' || *s->p == 'E')
			sym_setf(v, strtod(b, (char **)&s->p));
	} else if (isalpha((unsigned char)*s->p) || *s->p == '_') {
		if (sym_name(s, v) < 0)
			return -1;
	} else {
		return npu_errf(s->e, "bad symbolic expression at '%.16s'", s->p);
	}
	sym_ws(s);
	if (s->p[0] == '*' && s->p[1] == '*' && sym_power(s, v) < 0)
		return -1;
	s->depth--;
	return 0;
}

/* v op r for * / // %: integers floor, as Python; a float makes a float */
static int sym_mulop(symp *s, int op, symv *v, const symv *r)
{
	if (op == '/' || v->fl || r->fl) {
		double a = sym_f(v), b = sym_f(r);
		if (op != '*' && b == 0)
			return npu_errf(s->e, "symbolic expression divides by zero");
		sym_setf(v, op == '*' ? a * b : op == '/' ? a / b :
			    op == 'f' ? floor(a / b) : a - floor(a / b) * b);
		return 0;
	}
	if (op == '*') {
		v->i = (int64_t)((uint64_t)v->i * (uint64_t)r->i);
		return 0;
	}
	if (r->i == 0 || (r->i == -1 && v->i == INT64_MIN))
		return npu_errf(s->e, "symbolic expression divides by zero");
	int64_t q = v->i / r->i, m = v->i % r->i;
	if (m && ((m < 0) != (r->i < 0))) {  /* floor semantics */
		q--;
		m += r->i;
	}
	v->i = op == '%' ? m : q;
	return 0;
}

static int sym_term(symp *s, symv *v)
{
	symv r;

	if (sym_atom(s, v) < 0)
		return -1;
	for (;;) {
		sym_ws(s);
		int op = *s->p;
		if (op == '/' && s->p[1] == '/') {
			s->p++;
			op = 'f';
		} else if (op != '*' && op != '/' && op != '%') {
			return 0;
		}
		s->p++;
		if (sym_atom(s, &r) < 0 || sym_mulop(s, op, v, &r) < 0)
			return -1;
	}
}

static int sym_expr(symp *s, symv *v)
{
	symv r;

	if (sym_term(s, v) < 0)
		return -1;
	for (;;) {
		sym_ws(s);
		int op = *s->p;
		if (op != '+' && op != '-')
			return 0;
		s->p++;
		if (sym_term(s, &r) < 0)
			return -1;
		if (v->fl || r.fl)
			sym_setf(v, op == '+' ? sym_f(v) + sym_f(&r) : sym_f(v) - sym_f(&r));
		else
			v->i = (int64_t)(op == '+' ? (uint64_t)v->i + (uint64_t)r.i
						   : (uint64_t)v->i - (uint64_t)r.i);
	}
}

/* The whole of expr, or -1 with a message. */
static int sym_parse(const char *expr, const char *const *names,
		     const int64_t *vals, int n, symv *v, npu_err *e)
{
	symp s = { expr, names, vals, n, 0, e };

	if (sym_expr(&s, v) < 0)
		return -1;
	sym_ws(&s);
	if (*s.p)
		return npu_errf(e, "bad symbolic expression '%s'", expr);
	return 0;
}

int npu_ref_symevalf(const char *expr, const char *const *names,
		     const int64_t *vals, int n, double *out, int *is_float,
		     npu_err *e)
{
	symv v = { 0, 0, 0 };

	if (sym_parse(expr, names, vals, n, &v, e) < 0)
		return -1;
	*out = sym_f(&v);
	if (is_float)
		*is_float = v.fl;
	return 0;
}

int npu_ref_symeval(const char *expr, const char *const *names,
		    const int64_t *vals, int n, int64_t *out, npu_err *e)
{
	symv v = { 0, 0, 0 };

	if (sym_parse(expr, names, vals, n, &v, e) < 0)
		return -1;
	if (v.fl)
		return npu_errf(e, "symbolic expression '%s' is a float where "
				"a size is needed", expr);
	*out = v.i;
	return 0;
}

/* ---- running a graph --------------------------------------------- */

static void ctx_free(ref_ctx *cx)
{
	for (int i = 0; i < cx->nvals; i++) {
		for (int k = 0; k < cx->vals[i].n; k++)
			npu_reftensor_free(&cx->vals[i].t[k]);
		free(cx->vals[i].t);
	}
	free(cx->vals);
	for (int i = 0; i < cx->nsym; i++)
		free(cx->sym[i]);
	free(cx->sym);
	free(cx->symval);
}

static int is_ident(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	return !*s;
}

/* Binds name to v, or checks an existing binding. */
static int bind_sym(ref_ctx *cx, const char *name, int64_t v, npu_err *e)
{
	char **ns;
	int64_t *vs;

	for (int i = 0; i < cx->nsym; i++)
		if (!strcmp(cx->sym[i], name)) {
			if (cx->symval[i] != v)
				return npu_errf(e, "symbol %s is %lld here but %lld "
						"elsewhere", name,
						(long long)v, (long long)cx->symval[i]);
			return 0;
		}
	ns = realloc(cx->sym, (size_t)(cx->nsym + 1) * sizeof *ns);
	if (ns)
		cx->sym = ns;
	vs = realloc(cx->symval, (size_t)(cx->nsym + 1) * sizeof *vs);
	if (vs)
		cx->symval = vs;
	if (!ns || !vs || !(cx->sym[cx->nsym] = strdup(name)))
		return npu_errf(e, "out of memory");
	cx->symval[cx->nsym++] = v;
	return 0;
}

static int node_fail(const npu_graph *g, const npu_gnode *n, npu_err *e)
{
	return npu_err_prefix(e, "%s: node '%s' (%s)", g->file, n->name,
			      n->target);
}

static int set_single(ref_val *v, npu_reftensor *t, npu_err *e)
{
	if (!(v->t = calloc(1, sizeof *v->t)))
		return npu_errf(e, "out of memory");
	v->t[0] = *t;
	v->n = 1;
	return 0;
}

/* Binds SymInts from the inputs: plain-symbol dims of tensor placeholders
 * and SymInt placeholders that were given a value. */
static int bind_inputs(const npu_graph *g, const npu_refenv *env,
		       ref_ctx *cx, npu_err *e)
{
	for (int i = 0; i < g->nnodes; i++) {
		const npu_gnode *n = &g->nodes[i];
		const npu_reftensor *t;
		const npu_gmeta *m = n->nmeta ? &n->meta[0] : NULL;

		if (n->op != NPU_GOP_PLACEHOLDER || !m)
			continue;
		t = env->lookup ? env->lookup(env->ctx, n->name) : NULL;
		if (!t)
			continue;
		if (m->kind == NPU_GM_SCALAR && m->scalar.kind == NPU_GV_SYM &&
		    is_ident(m->scalar.u.s) && npu_reftensor_numel(t) == 1 &&
		    bind_sym(cx, m->scalar.u.s, (int64_t)t->data[0], e) < 0)
			return node_fail(g, n, e);
		if (m->kind != NPU_GM_TENSOR || t->ndim != m->ndim)
			continue;
		for (int d = 0; d < m->ndim; d++)
			if (m->shape[d].sym && is_ident(m->shape[d].sym) &&
			    bind_sym(cx, m->shape[d].sym, t->shape[d], e) < 0)
				return node_fail(g, n, e);
	}
	return 0;
}

static void fmt_shape(const npu_reftensor *t, char *buf, size_t n)
{
	size_t o = (size_t)snprintf(buf, n, "%s[", npu_dtype_torch(t->dtype));

	for (int i = 0; i < t->ndim && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%lld", i ? "," : "",
				      (long long)t->shape[i]);
	if (o < n)
		snprintf(buf + o, n - o, "]");
}

/* Checks t against meta m (dims evaluated with the bindings). */
static int check_meta(ref_ctx *cx, const npu_gmeta *m, const npu_reftensor *t,
		      npu_err *e)
{
	char have[160];
	int64_t d;

	if (m->kind != NPU_GM_TENSOR)
		return 0;
	fmt_shape(t, have, sizeof have);
	if (t->ndim != m->ndim)
		return npu_errf(e, "result is %s, meta says rank %d", have, m->ndim);
	for (int i = 0; i < m->ndim; i++) {
		d = m->shape[i].v;
		if (m->shape[i].sym && sym_lookup(cx, m->shape[i].sym, &d, e) < 0)
			return -1;
		if (d != t->shape[i])
			return npu_errf(e, "result is %s, meta says dim %d is %lld",
					have, i, (long long)d);
	}
	return 0;
}

static int run_placeholder(const npu_graph *g, const npu_gnode *n,
			   const npu_refenv *env, ref_ctx *cx, ref_val *v,
			   npu_err *e)
{
	const char *key = n->name;
	char attr[512];
	const npu_reftensor *in;
	const npu_gmeta *m = n->nmeta ? &n->meta[0] : NULL;
	npu_reftensor t;

	if (n->op == NPU_GOP_GET_ATTR) {
		snprintf(attr, sizeof attr, "attr.%s", n->target);
		key = attr;
	}
	in = env->lookup ? env->lookup(env->ctx, key) : NULL;
	if (!in && m && m->kind == NPU_GM_SCALAR && m->scalar.kind == NPU_GV_SYM) {
		/* a SymInt (SymFloat) placeholder left out: its value from
		 * the shapes */
		double s;
		int fl;
		if (sym_lookupf(cx, m->scalar.u.s, &s, &fl, e) < 0 ||
		    npu_reftensor_alloc(&t, fl ? NPU_DT_F64 : NPU_DT_I64, 0, NULL, e) < 0)
			return -1;
		t.data[0] = s;
		return set_single(v, &t, e);
	}
	if (!in)
		return npu_errf(e, "no value given for '%s'", key);
	if (m && m->kind == NPU_GM_TENSOR && in->dtype != m->dtype)
		return npu_errf(e, "input is %s, the graph expects %s",
				npu_dtype_torch(in->dtype),
				npu_dtype_torch(m->dtype));
	if (m && check_meta(cx, m, in, e) < 0)
		return npu_err_prefix(e, "input");
	if (npu_reftensor_copy(&t, in, e) < 0)
		return -1;
	return set_single(v, &t, e);
}

/* Forgets op's results (after they have moved elsewhere). */
static void op_reset(ref_op *op)
{
	for (int k = 0; k < REF_MAX_OUT; k++) {
		op->out[k].data = NULL;
		op->out[k].ndim = -1;
	}
	op->nout = 0;
}

/* Frees op's results. */
static void op_clear(ref_op *op)
{
	for (int k = 0; k < op->nout; k++)
		npu_reftensor_free(&op->out[k]);
	op_reset(op);
}

/* Applies the recorded dtype of each result, rounds, checks the shape and
 * moves the results into v. */
static int finish_op(ref_op *op, const npu_gnode *n, ref_val *v)
{
	int want = n->multi ? n->nmeta : 1;

	if (n->nmeta && op->nout != want && !(n->multi == 0 && op->nout == 1))
		return npu_errf(op->e, "%d results, meta lists %d", op->nout, want);
	for (int k = 0; k < op->nout; k++) {
		const npu_gmeta *m = k < n->nmeta ? &n->meta[k] : NULL;
		npu_reftensor *t = &op->out[k];
		if (t->ndim < 0)
			continue;
		if (m && m->kind == NPU_GM_TENSOR)
			finish_dtype(t, m->dtype, op->cx->precision);
		else
			finish_dtype(t, t->dtype, op->cx->precision);
		if (m && check_meta(op->cx, m, t, op->e) < 0)
			return npu_err_prefix(op->e, "result %d", k);
	}
	if (!(v->t = calloc((size_t)op->nout + 1, sizeof *v->t)))
		return npu_errf(op->e, "out of memory");
	memcpy(v->t, op->out, (size_t)op->nout * sizeof *v->t);
	v->n = op->nout;
	op_reset(op);
	return 0;
}


/* Python's integer arithmetic on SymInts (Dynamo's "_operator.mul"
 * nodes of a dynamic graph, torch.sym_max): the value computed from the
 * operands, which must agree with the expression the meta records.  1
 * when n is one. */
static int run_symop(const npu_gnode *n, ref_op *op)
{
	static const char *const ops[] = {
		"_operator.mul", "_operator.add", "_operator.sub",
		"_operator.floordiv", "_operator.mod", "_operator.neg",
		"torch.sym_max", "torch.sym_min"
	};
	enum { NOPS = sizeof ops / sizeof *ops };
	const npu_gmeta *m = n->nmeta ? &n->meta[0] : NULL;
	double a = 0, b = 0;
	int64_t x, y, r = 0, want;
	npu_reftensor *t;
	int k;

	for (k = 0; k < NOPS && strcmp(n->target, ops[k]); k++)
		;
	if (k == NOPS || n->nargs != (k == 5 ? 1 : 2) || n->nkwargs)
		return 0;
	if (ref_gval_num(op, &n->args[0], &a) < 0 ||
	    (k != 5 && ref_gval_num(op, &n->args[1], &b) < 0))
		return -1;
	x = (int64_t)a;
	y = (int64_t)b;
	if (a != (double)x || b != (double)y)
		return npu_errf(op->e, "SymInt arithmetic on a non-integer");
	if ((k == 3 || k == 4) && y == 0)
		return npu_errf(op->e, "SymInt division by zero");
	switch (k) {
	case 0: r = x * y; break;
	case 1: r = x + y; break;
	case 2: r = x - y; break;
	case 3: r = x / y - ((x % y != 0) && ((x < 0) != (y < 0))); break;
	case 4: r = x % y; r += r != 0 && ((r < 0) != (y < 0)) ? y : 0; break;
	case 5: r = -x; break;
	case 6: r = x > y ? x : y; break;
	case 7: r = x < y ? x : y; break;
	}
	if (m && m->kind == NPU_GM_SCALAR && m->scalar.kind == NPU_GV_SYM) {
		if (sym_lookup(op->cx, m->scalar.u.s, &want, op->e) < 0)
			return -1;
		if (want != r)
			return npu_errf(op->e, "SymInt %lld, meta says %s = %lld",
					(long long)r, m->scalar.u.s, (long long)want);
	}
	if (ref_out(op, 0, NPU_DT_I64, 0, NULL, &t) < 0)
		return -1;
	t->data[0] = (double)r;
	return 1;
}

/* Python's true division of SymInts or SymFloats (operator.truediv: the
 * scale of F.interpolate over a symbolic size), a SymFloat; checked
 * against the meta's expression (IntTrueDiv(s0, 2*s0)), which divides
 * the same doubles.  1 when n is one. */
static int run_symdiv(const npu_gnode *n, ref_op *op)
{
	const npu_gmeta *m = n->nmeta ? &n->meta[0] : NULL;
	double a, b, want;
	npu_reftensor *t;

	if (strcmp(n->target, "_operator.truediv") || n->nargs != 2 || n->nkwargs)
		return 0;
	if (ref_gval_num(op, &n->args[0], &a) < 0 ||
	    ref_gval_num(op, &n->args[1], &b) < 0)
		return -1;
	if (b == 0)
		return npu_errf(op->e, "SymFloat division by zero");
	if (m && m->kind == NPU_GM_SCALAR && m->scalar.kind == NPU_GV_SYM) {
		if (sym_lookupf(op->cx, m->scalar.u.s, &want, NULL, op->e) < 0)
			return -1;
		if (want != a / b)
			return npu_errf(op->e, "SymFloat %.17g, meta says %s = %.17g",
					a / b, m->scalar.u.s, want);
	}
	if (ref_out(op, 0, NPU_DT_F64, 0, NULL, &t) < 0)
		return -1;
	t->data[0] = a / b;
	return 1;
}

/* prims.convert_element_type(a, dtype), left by some decompositions: a
 * copy, which finish_op rounds to the recorded dtype.  1 when n is one. */
static int run_prims_convert(const npu_gnode *n, ref_op *op)
{
	const npu_reftensor *in;
	npu_reftensor *t;

	if (strcmp(n->target, NPU_PRIMS_CONVERT) ||
	    n->nargs != 2 || n->args[1].kind != NPU_GV_DTYPE)
		return 0;
	if (ref_tensor(op, 0, "a", &in) < 0 ||
	    ref_out(op, 0, n->args[1].u.dtype, in->ndim, in->shape, &t) < 0)
		return -1;
	memcpy(t->data, in->data, (size_t)npu_reftensor_numel(in) * sizeof *t->data);
	return 1;
}

static int run_call(const npu_gnode *n, ref_ctx *cx, ref_op *op, ref_val *v)
{
	if (n->op != NPU_GOP_CALL_FUNCTION)
		return npu_errf(op->e, "%s nodes are not supported (run the "
				"aot graph, not the dynamo one)",
				npu_gop_name(n->op));
	op->cx = cx;
	op->id = n->aop;
	op->args = n->args;
	op->nargs = n->nargs;
	op->kw = n->kwargs;
	op->nkw = n->nkwargs;
	op_reset(op);
	if (n->aop == NPU_AOP_UNKNOWN) {
		int r = run_symop(n, op);
		if (!r)
			r = run_symdiv(n, op);
		if (!r)
			r = run_prims_convert(n, op);
		if (!r)
			return npu_errf(op->e, "unsupported operator");
		if (r < 0 || finish_op(op, n, v) < 0) {
			op_clear(op);
			return -1;
		}
		return 0;
	}
	if (dispatch[n->aop](op) < 0 || finish_op(op, n, v) < 0) {
		op_clear(op);
		return -1;
	}
	return 0;
}

static void mark_uses(const npu_gval *v, int user, int *last)
{
	if (v->kind == NPU_GV_NODE && last[v->u.node] < user)
		last[v->u.node] = user;
	if (v->kind == NPU_GV_LIST)
		for (int i = 0; i < v->u.list.n; i++)
			mark_uses(&v->u.list.v[i], user, last);
}

/* last[i]: the last node that reads node i (so its value can go). */
static int *last_uses(const npu_graph *g)
{
	int *last = calloc((size_t)g->nnodes, sizeof *last);

	if (!last)
		return NULL;
	for (int i = 0; i < g->nnodes; i++) {
		last[i] = i;
		for (int a = 0; a < g->nodes[i].nargs; a++)
			mark_uses(&g->nodes[i].args[a], i, last);
		for (int a = 0; a < g->nodes[i].nkwargs; a++)
			mark_uses(&g->nodes[i].kwargs[a].val, i, last);
	}
	return last;
}

static void drop_dead(ref_ctx *cx, const int *last, int i, int upto)
{
	for (int k = 0; k < upto; k++)
		if (last[k] == i && cx->vals[k].t) {
			for (int j = 0; j < cx->vals[k].n; j++)
				npu_reftensor_free(&cx->vals[k].t[j]);
			free(cx->vals[k].t);
			cx->vals[k].t = NULL;
			cx->vals[k].n = 0;
		}
}

static int collect_outputs(const npu_graph *g, ref_ctx *cx,
			   npu_reftensor **outs, int *nout, npu_err *e)
{
	int n;
	const npu_gval *ov = npu_graph_outputs(g, &n);
	npu_reftensor *o = calloc((size_t)n + 1, sizeof *o);

	if (!o)
		return npu_errf(e, "out of memory");
	for (int i = 0; i < n; i++) {
		o[i].ndim = -1;
		if (ov[i].kind == NPU_GV_NONE)
			continue;
		if (ov[i].kind != NPU_GV_NODE || cx->vals[ov[i].u.node].n < 1) {
			npu_ref_free_outputs(o, i);
			return npu_errf(e, "%s: output %d is not a tensor", g->file, i);
		}
		if (npu_reftensor_copy(&o[i], &cx->vals[ov[i].u.node].t[0], e) < 0) {
			npu_ref_free_outputs(o, i);
			return -1;
		}
	}
	*outs = o;
	*nout = n;
	return 0;
}

int npu_ref_run(const npu_graph *g, const npu_refenv *env,
		npu_reftensor **outs, int *nout, npu_err *e)
{
	ref_ctx cx = { 0 };
	ref_op *op = calloc(1, sizeof *op);
	int *last = last_uses(g), rc = -1;

	*outs = NULL;
	*nout = 0;
	cx.precision = env->precision;
	cx.g = g;
	cx.vals = calloc((size_t)g->nnodes, sizeof *cx.vals);
	cx.nvals = g->nnodes;
	if (!op || !last || !cx.vals) {
		npu_errf(e, "out of memory");
		goto out;
	}
	op->e = e;
	if (bind_inputs(g, env, &cx, e) < 0)
		goto out;
	for (int i = 0; i < g->nnodes; i++) {
		const npu_gnode *n = &g->nodes[i];
		int r;

		if (n->op == NPU_GOP_OUTPUT)
			break;
		if (n->op == NPU_GOP_PLACEHOLDER || n->op == NPU_GOP_GET_ATTR)
			r = run_placeholder(g, n, env, &cx, &cx.vals[i], e);
		else
			r = run_call(n, &cx, op, &cx.vals[i]);
		if (r < 0) {
			node_fail(g, n, e);
			goto out;
		}
		drop_dead(&cx, last, i, i + 1);
	}
	rc = collect_outputs(g, &cx, outs, nout, e);
out:
	ctx_free(&cx);
	free(last);
	free(op);
	return rc;
}

void npu_ref_free_outputs(npu_reftensor *outs, int n)
{
	if (!outs)
		return;
	for (int i = 0; i < n; i++)
		npu_reftensor_free(&outs[i]);
	free(outs);
}

/* ---- one operator ------------------------------------------------ */

/* A gval from the attrs JSON: the fxgraph encoding, plus {"input": K}. */
static int attr_val(json_t *j, npu_gval *v, int nin, int depth, npu_err *e)
{
	const char *key;
	json_t *val;

	memset(v, 0, sizeof *v);
	if (depth > 16)
		return npu_errf(e, "attrs nested too deeply");
	switch (json_typeof(j)) {
	case JSON_NULL: return 0;
	case JSON_TRUE: case JSON_FALSE:
		v->kind = NPU_GV_BOOL;
		v->u.b = json_is_true(j);
		return 0;
	case JSON_INTEGER:
		v->kind = NPU_GV_INT;
		v->u.i = json_integer_value(j);
		return 0;
	case JSON_REAL:
		v->kind = NPU_GV_FLOAT;
		v->u.f = json_real_value(j);
		return 0;
	case JSON_STRING:
		v->kind = NPU_GV_STR;
		v->u.s = strdup(json_string_value(j));
		return v->u.s ? 0 : npu_errf(e, "out of memory");
	case JSON_ARRAY:
		v->kind = NPU_GV_LIST;
		v->u.list.v = calloc(json_array_size(j) + 1, sizeof *v->u.list.v);
		if (!v->u.list.v)
			return npu_errf(e, "out of memory");
		for (size_t i = 0; i < json_array_size(j); i++) {
			v->u.list.n++;
			if (attr_val(json_array_get(j, i), &v->u.list.v[i], nin,
				     depth + 1, e) < 0)
				return -1;
		}
		return 0;
	case JSON_OBJECT:
		break;
	}
	if (json_object_size(j) != 1)
		return npu_errf(e, "attrs: an object must have exactly one key");
	json_object_foreach(j, key, val) {
		if (!strcmp(key, "input")) {
			if (!json_is_integer(val) || json_integer_value(val) < 0 ||
			    json_integer_value(val) >= nin)
				return npu_errf(e, "attrs: bad input index");
			v->kind = NPU_GV_NODE;
			v->u.node = (int)json_integer_value(val);
			return 0;
		}
		if (!strcmp(key, "dtype") && json_is_string(val)) {
			const char *s = json_string_value(val);
			v->kind = NPU_GV_DTYPE;
			v->u.dtype = npu_dtype_from_name(s, strlen(s));
			return v->u.dtype < 0 ?
			       npu_errf(e, "attrs: unknown dtype '%s'", s) : 0;
		}
		if (!strcmp(key, "float") && json_is_string(val)) {
			const char *s = json_string_value(val);
			v->kind = NPU_GV_FLOAT;
			v->u.f = !strcmp(s, "inf") ? INFINITY :
				 !strcmp(s, "-inf") ? -INFINITY : NAN;
			return 0;
		}
		if (json_is_string(val)) {
			v->kind = !strcmp(key, "sym") ? NPU_GV_SYM : NPU_GV_STR;
			v->u.s = strdup(json_string_value(val));
			return v->u.s ? 0 : npu_errf(e, "out of memory");
		}
	}
	return npu_errf(e, "attrs: bad value object");
}

static void attr_free(npu_gval *v)
{
	if (v->kind == NPU_GV_STR || v->kind == NPU_GV_SYM)
		free(v->u.s);
	if (v->kind == NPU_GV_LIST) {
		for (int i = 0; i < v->u.list.n; i++)
			attr_free(&v->u.list.v[i]);
		free(v->u.list.v);
	}
}

typedef struct attrs {
	npu_gval args;               /* a LIST */
	npu_gkwarg *kw;
	int nkw;
	int dtypes[REF_MAX_OUT];
	int ndtypes;
	int precision;
} attrs;

static void attrs_free(attrs *a)
{
	attr_free(&a->args);
	for (int i = 0; i < a->nkw; i++) {
		free(a->kw[i].key);
		attr_free(&a->kw[i].val);
	}
	free(a->kw);
}

static int attrs_parse(attrs *a, const char *text, int nin, npu_err *e)
{
	json_error_t je;
	json_t *root, *kw, *dts, *val;
	const char *key, *prec;
	int rc = -1;

	memset(a, 0, sizeof *a);
	a->args.kind = NPU_GV_LIST;
	if (!text || !*text) {
		a->args.u.list.v = calloc((size_t)nin + 1, sizeof(npu_gval));
		if (!a->args.u.list.v)
			return npu_errf(e, "out of memory");
		for (int i = 0; i < nin; i++) {
			a->args.u.list.v[i].kind = NPU_GV_NODE;
			a->args.u.list.v[i].u.node = i;
		}
		a->args.u.list.n = nin;
		return 0;
	}
	if (!(root = json_loads(text, 0, &je)))
		return npu_errf(e, "attrs: %s", je.text);
	if (!json_is_object(root)) {
		npu_errf(e, "attrs: not an object");
		goto out;
	}
	if (attr_val(json_object_get(root, "args") ? json_object_get(root, "args")
		     : json_array(), &a->args, nin, 0, e) < 0)
		goto out;
	if (a->args.kind != NPU_GV_LIST) {
		npu_errf(e, "attrs: 'args' must be a list");
		goto out;
	}
	kw = json_object_get(root, "kwargs");
	a->kw = calloc(json_object_size(kw) + 1, sizeof *a->kw);
	if (!a->kw) {
		npu_errf(e, "out of memory");
		goto out;
	}
	json_object_foreach(kw, key, val) {
		a->kw[a->nkw].key = strdup(key);
		if (attr_val(val, &a->kw[a->nkw++].val, nin, 0, e) < 0)
			goto out;
	}
	dts = json_object_get(root, "dtype");
	for (size_t i = 0; i < json_array_size(dts) && i < REF_MAX_OUT; i++) {
		const char *s = json_string_value(json_array_get(dts, i));
		/* null: a result that is None (convolution_backward's
		 * output_mask), whatever the op makes of it */
		a->dtypes[i] = s ? npu_dtype_from_name(s, strlen(s)) : -1;
		if (s && a->dtypes[i] < 0) {
			npu_errf(e, "attrs: bad dtype %zu", i);
			goto out;
		}
		a->ndtypes++;
	}
	prec = json_string_value(json_object_get(root, "precision"));
	a->precision = prec && !strcmp(prec, "torch") ? NPU_REF_TORCH : NPU_REF_FP64;
	rc = 0;
out:
	json_decref(root);
	return rc;
}

int npu_ref_exec_op(const char *target, const char *attrs_json,
		    const npu_reftensor *in, int nin, npu_reftensor *out,
		    int nout, npu_err *e)
{
	int id = npu_aop_find(target), rc = -1;
	ref_ctx cx = { 0 };
	ref_op *op = NULL;
	attrs a;

	for (int k = 0; k < nout; k++) {
		out[k].data = NULL;
		out[k].ndim = -1;
	}
	if (id == NPU_AOP_UNKNOWN || id == NPU_AOP_GETITEM)
		return npu_errf(e, "%s: unsupported operator", target);
	if (attrs_parse(&a, attrs_json, nin, e) < 0)
		goto out_attrs;
	cx.precision = a.precision;
	cx.nvals = nin;
	cx.vals = calloc((size_t)nin + 1, sizeof *cx.vals);
	op = calloc(1, sizeof *op);
	if (!cx.vals || !op) {
		npu_errf(e, "out of memory");
		goto out_attrs;
	}
	/* the inputs stand in for nodes 0..nin-1, not owned */
	for (int i = 0; i < nin; i++) {
		cx.vals[i].t = (npu_reftensor *)&in[i];
		cx.vals[i].n = 1;
	}
	*op = (ref_op){ .cx = &cx, .id = id, .args = a.args.u.list.v,
			.nargs = a.args.u.list.n, .kw = a.kw, .nkw = a.nkw,
			.e = e };
	op_reset(op);
	if (dispatch[id](op) < 0)
		goto out_op;
	if (op->nout != nout) {
		npu_errf(e, "%d results, the caller expects %d", op->nout, nout);
		goto out_op;
	}
	for (int k = 0; k < nout; k++) {
		if (op->out[k].ndim >= 0)
			finish_dtype(&op->out[k], k < a.ndtypes && a.dtypes[k] >= 0
				     ? a.dtypes[k] : op->out[k].dtype, cx.precision);
		out[k] = op->out[k];
	}
	op_reset(op);
	rc = 0;
out_op:
	op_clear(op);
out_attrs:
	if (rc < 0)
		npu_err_prefix(e, "%s", target);
	free(op);
	free(cx.vals);
	attrs_free(&a);
	return rc;
}
