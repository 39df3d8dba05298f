/*
 * ref_int.h - private to the reference interpreter (ref.c, ref_*.c): the
 * op-call structure every kernel receives, argument accessors and tensor
 * helpers.
 *
 * A kernel reads its arguments through ref_arg() and friends (positional
 * index first, then the keyword name, so both spellings of a call work),
 * writes its results into op->out[] with ref_out(), and returns 0 or -1
 * with a message in op->e.  The caller then applies the node's recorded
 * dtype, rounds (NPU_REF_TORCH) and checks the shape against the meta.
 */
#ifndef NPU_REF_INT_H
#define NPU_REF_INT_H

#include "compiler/ref.h"

#define REF_MAX_OUT 64

/* The values a node produced (several for a multi-output node). */
typedef struct ref_val {
	npu_reftensor *t;
	int n;
} ref_val;

typedef struct ref_ctx {
	const npu_graph *g;          /* the graph run (NULL: one op alone) */
	ref_val *vals;               /* by node index (or input index) */
	int nvals;
	int precision;
	char **sym;                  /* SymInt bindings */
	int64_t *symval;
	int nsym;
} ref_ctx;

typedef struct ref_op {
	ref_ctx *cx;
	int id;                      /* enum npu_aop */
	const npu_gval *args;
	int nargs;
	const npu_gkwarg *kw;
	int nkw;
	npu_reftensor out[REF_MAX_OUT];
	int nout;
	npu_err *e;
} ref_op;

typedef int (*ref_fn)(ref_op *op);

/* One kernel per impl column of optab.def. */
#define NPU_ATEN(id, target, cat, impl, schema, sem) int ref_##impl(ref_op *op);
#include "compiler/optab.def"
#undef NPU_ATEN

/* ---- arguments (ref.c) ---- */

/* Positional argument i, else keyword name; NULL when absent or None. */
const npu_gval *ref_arg(const ref_op *op, int i, const char *name);
/* A required tensor argument. */
int ref_tensor(ref_op *op, int i, const char *name, const npu_reftensor **t);
/* An optional tensor argument: NULL when absent or None. */
const npu_reftensor *ref_opt_tensor(ref_op *op, int i, const char *name);
/* Scalars, with a default when absent. */
int ref_int(ref_op *op, int i, const char *name, int64_t def, int64_t *v);
int ref_double(ref_op *op, int i, const char *name, double def, double *v);
int ref_bool(ref_op *op, int i, const char *name, int def, int *v);
/* A list of ints (a single int counts as a list of one).  Returns 1 when
 * present, 0 when absent or None, -1 on error. */
int ref_ints(ref_op *op, int i, const char *name, int64_t *v, int max, int *n);
/* The dtype keyword (or positional) argument; def when absent. */
int ref_dtype(ref_op *op, int i, const char *name, int def, int *dt);
/* Tensor of a gval: a node's tensor, or a 0-dim tensor made from a number
 * in *tmp (weak: a Python scalar, which does not promote tensors). */
int ref_operand(ref_op *op, const npu_gval *v, npu_reftensor *tmp,
		const npu_reftensor **t, int *weak);
/* The value of a gval as a number (int, float, bool, sym, 0-dim tensor). */
int ref_gval_num(ref_op *op, const npu_gval *v, double *d);

/* ---- tensors (ref.c) ---- */

/* Allocates op->out[k]. */
int ref_out(ref_op *op, int k, int dtype, int ndim, const int64_t *shape,
	    npu_reftensor **t);
/* Normalizes a possibly negative dim for a rank; -1 with a message. */
int ref_dim(ref_op *op, int64_t d, int ndim, int *out);
int ref_is_float(int dt);
int ref_is_int(int dt);          /* integer, not bool */
int ref_same_shape(const npu_reftensor *a, const npu_reftensor *b);
int ref_promote(int a, int b);   /* result dtype of two tensor dtypes */
/* Converts a double to dtype's value set: int truncates and wraps. */
double ref_to_dtype(int dt, double x);
/* Contiguous strides of a shape. */
void ref_strides(int ndim, const int64_t *shape, int64_t *st);
/* Broadcast shape of a and b; -1 when they do not broadcast. */
int ref_bshape(ref_op *op, int na, const int64_t *a, int nb, const int64_t *b,
	       int *nd, int64_t *shape);
/* Strides that read t broadcast to (nd, shape): 0 on broadcast dims. */
void ref_bstrides(const npu_reftensor *t, int nd, const int64_t *shape,
		  int64_t *st);
/* out = src read through (strides, offset) with out's shape. */
void ref_gather_strided(const npu_reftensor *src, const int64_t *st,
			int64_t off, npu_reftensor *out);

/* Multi-index iteration over a shape with up to 3 strided operands. */
typedef struct ref_iter {
	int nd, nops;
	int64_t shape[NPU_MAX_DIMS], ctr[NPU_MAX_DIMS];
	int64_t st[3][NPU_MAX_DIMS];
	int64_t off[3];
} ref_iter;

void ref_iter_init(ref_iter *it, int nd, const int64_t *shape, int nops);

static inline void ref_iter_next(ref_iter *it)
{
	for (int d = it->nd - 1; d >= 0; d--) {
		for (int k = 0; k < it->nops; k++)
			it->off[k] += it->st[k][d];
		if (++it->ctr[d] < it->shape[d])
			return;
		for (int k = 0; k < it->nops; k++)
			it->off[k] -= it->st[k][d] * it->shape[d];
		it->ctr[d] = 0;
	}
}

#endif
