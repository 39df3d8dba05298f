/*
 * ref_shape.c - views, data movement and creation kernels of the
 * reference interpreter.  Views are copies here: a view reads its input
 * through (strides, offset) once and owns the result, which keeps every
 * tensor contiguous and the kernels simple.
 */
#include "compiler/ref_int.h"

#include "compiler/gedit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/dtype.h"
#include "isa/isa.h"

static void unravel(int64_t i, int nd, const int64_t *shape, int64_t *idx)
{
	for (int d = nd - 1; d >= 0; d--) {
		idx[d] = shape[d] ? i % shape[d] : 0;
		i = shape[d] ? i / shape[d] : 0;
	}
}

/* PyTorch's slice bounds: negative from the end, clamped. */
static void slice_bounds(int64_t size, int64_t *start, int64_t *end)
{
	if (*start < 0)
		*start += size;
	if (*end < 0)
		*end += size;
	if (*start < 0)
		*start = 0;
	if (*start > size)
		*start = size;
	if (*end < *start)
		*end = *start;
	if (*end > size)
		*end = size;
}

/* ---- reshape family ---------------------------------------------- */

/* The target shape of view/reshape, with one -1 inferred. */
static int view_shape(ref_op *op, const npu_reftensor *x, int64_t *shape,
		      int *nd)
{
	int infer = -1;
	int64_t known = 1, numel = npu_reftensor_numel(x);

	if (ref_ints(op, 1, "size", shape, NPU_MAX_DIMS, nd) < 0)
		return -1;
	for (int i = 0; i < *nd; i++) {
		if (shape[i] == -1 && infer < 0)
			infer = i;
		else if (shape[i] < 0)
			return npu_errf(op->e, "bad size %lld", (long long)shape[i]);
		else
			known *= shape[i];
	}
	if (infer >= 0) {
		if (!known)
			return npu_errf(op->e, "cannot infer -1 with zero elements");
		shape[infer] = numel / known;
		known *= shape[infer];
	}
	if (known != numel)
		return npu_errf(op->e, "shape has %lld elements, input %lld",
				(long long)known, (long long)numel);
	return 0;
}

int ref_reshape(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t shape[NPU_MAX_DIMS], dims[NPU_MAX_DIMS];
	int nd = 0, nd2, d, drop[NPU_MAX_DIMS] = { 0 };

	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	switch (op->id) {
	case NPU_AOP_SQUEEZE: case NPU_AOP_SQUEEZE_DIM: case NPU_AOP_SQUEEZE_DIMS:
		if (op->id == NPU_AOP_SQUEEZE) {
			for (int i = 0; i < x->ndim; i++)
				drop[i] = 1;
		} else {
			if (ref_ints(op, 1, "dim", dims, NPU_MAX_DIMS, &nd2) < 0)
				return -1;
			for (int i = 0; i < nd2; i++) {
				if (ref_dim(op, dims[i], x->ndim, &d) < 0)
					return -1;
				drop[d] = 1;
			}
		}
		for (int i = 0; i < x->ndim; i++)
			if (!drop[i] || x->shape[i] != 1)
				shape[nd++] = x->shape[i];
		break;
	case NPU_AOP_UNSQUEEZE:
		if (ref_ints(op, 1, "dim", dims, 1, &nd2) < 0 || nd2 != 1 ||
		    ref_dim(op, dims[0], x->ndim + 1, &d) < 0)
			return npu_errf(op->e, "bad dim");
		if (x->ndim >= NPU_MAX_DIMS)
			return npu_errf(op->e, "rank too large");
		for (int i = 0; i <= x->ndim; i++)
			shape[nd++] = i == d ? 1 : x->shape[i < d ? i : i - 1];
		break;
	default:
		if (view_shape(op, x, shape, &nd) < 0)
			return -1;
	}
	if (ref_out(op, 0, x->dtype, nd, shape, &y) < 0)
		return -1;
	memcpy(y->data, x->data, (size_t)npu_reftensor_numel(x) * sizeof(double));
	return 0;
}

/* ---- strided views ----------------------------------------------- */

/* diagonal(offset, dim1, dim2) as a view of x (contiguous strides st):
 * the other dims in order, then the diagonal, stride st[d1] + st[d2],
 * starting at column offset (row -offset below the main diagonal). */
static int diag_view(ref_op *op, const npu_reftensor *x, const int64_t *st,
		     int64_t *shape, int64_t *ost, int *nd, int64_t *off)
{
	int64_t k, a, b, len;
	int d, d2;

	if (ref_int(op, 1, "offset", 0, &k) < 0 || ref_int(op, 2, "dim1", 0, &a) < 0 ||
	    ref_int(op, 3, "dim2", 1, &b) < 0 || ref_dim(op, a, x->ndim, &d) < 0 ||
	    ref_dim(op, b, x->ndim, &d2) < 0)
		return -1;
	if (x->ndim < 2 || d == d2)
		return npu_errf(op->e, "diagonal needs two different dims");
	if (k >= 0)
		len = x->shape[d] < x->shape[d2] - k ? x->shape[d] : x->shape[d2] - k;
	else
		len = x->shape[d] + k < x->shape[d2] ? x->shape[d] + k : x->shape[d2];
	len = len > 0 ? len : 0;
	*off = len ? (k >= 0 ? k * st[d2] : -k * st[d]) : 0;
	*nd = 0;
	for (int i = 0; i < x->ndim; i++)
		if (i != d && i != d2) {
			shape[*nd] = x->shape[i];
			ost[(*nd)++] = st[i];
		}
	shape[*nd] = len;
	ost[(*nd)++] = st[d] + st[d2];
	return 0;
}

/* flip(dims) as a view of x: each flipped dim read with a negative
 * stride from its last element. */
static int flip_view(ref_op *op, const npu_reftensor *x, const int64_t *st,
		     int64_t *shape, int64_t *ost, int *nd, int64_t *off)
{
	int64_t v[NPU_MAX_DIMS];
	int n, d, seen[NPU_MAX_DIMS] = { 0 };

	if (ref_ints(op, 1, "dims", v, NPU_MAX_DIMS, &n) < 0)
		return -1;
	*nd = x->ndim;
	memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
	memcpy(ost, st, (size_t)x->ndim * sizeof *st);
	for (int i = 0; i < n; i++) {
		if (ref_dim(op, v[i], x->ndim, &d) < 0)
			return -1;
		if (seen[d]++)
			return npu_errf(op->e, "repeated dim in flip");
		if (!x->ndim || !shape[d])
			continue;
		*off += (shape[d] - 1) * st[d];
		ost[d] = -st[d];
	}
	return 0;
}

/*
 * The size, stride and storage_offset arguments (from argument i) of an
 * as_strided view over a storage of numel elements: sizes and strides
 * >= 0, every element of a non-empty view inside it (what names the op).
 */
static int strided_args(ref_op *op, int i, const char *what, int64_t numel,
			int64_t *shape, int64_t *st, int *nd, int64_t *off)
{
	int64_t last = 0, step;
	int n, empty = 0;

	if (ref_ints(op, i, "size", shape, NPU_MAX_DIMS, nd) < 0 ||
	    ref_ints(op, i + 1, "stride", st, NPU_MAX_DIMS, &n) < 0 ||
	    ref_int(op, i + 2, "storage_offset", 0, off) < 0)
		return -1;
	if (n != *nd || *off < 0)
		return npu_errf(op->e, "%s: %d sizes, %d strides, offset %lld", what,
				*nd, n, (long long)*off);
	for (int d = 0; d < *nd; d++) {
		if (shape[d] < 0 || st[d] < 0)
			return npu_errf(op->e, "%s: negative size or stride", what);
		empty |= shape[d] == 0;
		if (shape[d] && (__builtin_mul_overflow(shape[d] - 1, st[d], &step) ||
				 __builtin_add_overflow(last, step, &last)))
			return npu_errf(op->e, "%s: the view overflows", what);
	}
	if (!empty && (*off >= numel || last >= numel - *off))
		return npu_errf(op->e, "%s: element %lld of %lld", what,
				(long long)(*off + last), (long long)numel);
	return 0;
}

/*
 * as_strided reads self's storage.  When the graph recorded self's
 * strides and they lay its elements out densely in another order
 * (npu_gmeta_layout: Longformer chunks a permuted view, [4, 8, 32, 64]
 * of strides [64, 8192, 256, 1]), *st gets that storage (each element at
 * its position less self's storage offset); else st is left empty and
 * self's elements in order are its storage (a contiguous self, or a
 * layout with gaps the values cannot fill).  *off0: self's recorded
 * storage offset (0 when none).
 */
static int storage_order(ref_op *op, const npu_reftensor *x, npu_reftensor *st,
			 int64_t *off0)
{
	const npu_gnode *src;
	const npu_gmeta *m;
	int64_t n = npu_reftensor_numel(x), ord[NPU_MAX_DIMS], idx[NPU_MAX_DIMS] = { 0 }, pos;
	int lay;

	*off0 = 0;
	if (!op->cx->g || op->nargs < 1 || op->args[0].kind != NPU_GV_NODE)
		return 0;
	src = &op->cx->g->nodes[op->args[0].u.node];
	m = src->nmeta && !src->multi ? &src->meta[0] : NULL;
	if (!m || m->ndim != x->ndim || m->storage_offset.sym)
		return 0;
	*off0 = m->storage_offset.v;
	if ((lay = npu_gmeta_layout(m, ord)) <= 0 || !n)
		return 0;
	if (!(st->data = calloc((size_t)n, sizeof *st->data)))
		return npu_errf(op->e, "out of memory");
	for (int64_t i = 0; i < n; i++) {
		pos = 0;
		for (int d = 0; d < x->ndim; d++)
			pos += idx[d] * m->stride[d].v;
		st->data[pos] = x->data[i];
		for (int d = x->ndim - 1; d >= 0 && ++idx[d] == x->shape[d]; d--)
			idx[d] = 0;
	}
	st->dtype = x->dtype;
	st->ndim = 1;
	st->shape[0] = n;
	return 0;
}

int ref_strided(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t st[NPU_MAX_DIMS], ost[NPU_MAX_DIMS], shape[NPU_MAX_DIMS];
	int64_t v[NPU_MAX_DIMS], off = 0, off0 = 0, a, b, step;
	int nd = 0, n, d, d2, seen[NPU_MAX_DIMS] = { 0 };
	npu_reftensor tmp = { 0 };

	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	ref_strides(x->ndim, x->shape, st);
	switch (op->id) {
	case NPU_AOP_PERMUTE:
		if (ref_ints(op, 1, "dims", v, NPU_MAX_DIMS, &n) < 0)
			return -1;
		if (n != x->ndim)
			return npu_errf(op->e, "permute of rank %d with %d dims",
					x->ndim, n);
		for (int i = 0; i < n; i++) {
			if (ref_dim(op, v[i], x->ndim, &d) < 0)
				return -1;
			if (seen[d]++)
				return npu_errf(op->e, "repeated dim in permute");
			shape[i] = x->shape[d];
			ost[i] = st[d];
		}
		nd = n;
		break;
	case NPU_AOP_TRANSPOSE: case NPU_AOP_T:
		if (op->id == NPU_AOP_T) {
			if (x->ndim > 2)
				return npu_errf(op->e, "t() of a rank-%d tensor", x->ndim);
			a = 0;
			b = x->ndim - 1;
		} else if (ref_int(op, 1, "dim0", 0, &a) < 0 ||
			   ref_int(op, 2, "dim1", 0, &b) < 0) {
			return -1;
		}
		if (ref_dim(op, a, x->ndim, &d) < 0 || ref_dim(op, b, x->ndim, &d2) < 0)
			return -1;
		nd = x->ndim;
		memcpy(shape, x->shape, (size_t)nd * sizeof *shape);
		memcpy(ost, st, (size_t)nd * sizeof *st);
		if (nd) {
			shape[d] = x->shape[d2]; shape[d2] = x->shape[d];
			ost[d] = st[d2]; ost[d2] = st[d];
		}
		break;
	case NPU_AOP_EXPAND:
		if (ref_ints(op, 1, "size", v, NPU_MAX_DIMS, &n) < 0)
			return -1;
		if (n < x->ndim)
			return npu_errf(op->e, "expand to fewer dims");
		for (int i = 0; i < n; i++) {
			int k = i - (n - x->ndim);
			int64_t have = k >= 0 ? x->shape[k] : 1;
			shape[i] = v[i] == -1 && k >= 0 ? have : v[i];
			if (shape[i] < 0 || (have != 1 && have != shape[i]))
				return npu_errf(op->e, "cannot expand dim %d of size "
						"%lld to %lld", i, (long long)have,
						(long long)v[i]);
			ost[i] = k >= 0 && have == shape[i] && have != 1 ? st[k] : 0;
		}
		nd = n;
		break;
	case NPU_AOP_SELECT:
		if (ref_int(op, 1, "dim", 0, &a) < 0 || ref_int(op, 2, "index", 0, &b) < 0 ||
		    ref_dim(op, a, x->ndim, &d) < 0)
			return -1;
		if (!x->ndim || b < -x->shape[d] || b >= x->shape[d])
			return npu_errf(op->e, "index %lld out of range", (long long)b);
		if (b < 0)
			b += x->shape[d];
		off = b * st[d];
		for (int i = 0; i < x->ndim; i++)
			if (i != d) {
				shape[nd] = x->shape[i];
				ost[nd++] = st[i];
			}
		break;
	case NPU_AOP_AS_STRIDED: case NPU_AOP_RESHAPE_ALIAS:
		/* over x's storage: its elements in order, or as its recorded
		 * strides lay them out (storage_order) */
		if (storage_order(op, x, &tmp, &off0) < 0 ||
		    strided_args(op, 1, "as_strided", npu_reftensor_numel(x),
				 shape, ost, &nd, &off) < 0) {
			free(tmp.data);
			return -1;
		}
		/* an absolute storage offset; none: self's own */
		off = ref_arg(op, 3, "storage_offset") ? off - off0 : 0;
		if (off < 0) {
			free(tmp.data);
			return npu_errf(op->e, "as_strided: a view before self's first element");
		}
		if (tmp.data)
			x = &tmp;
		break;
	case NPU_AOP_DIAGONAL:
		if (diag_view(op, x, st, shape, ost, &nd, &off) < 0)
			return -1;
		break;
	case NPU_AOP_UNFOLD:
		if (ref_int(op, 1, "dimension", 0, &a) < 0 || ref_int(op, 2, "size", 0, &b) < 0 ||
		    ref_int(op, 3, "step", 1, &step) < 0 || !x->ndim ||
		    ref_dim(op, a, x->ndim, &d) < 0)
			return -1;
		if (step <= 0 || b < 0 || b > x->shape[d] || x->ndim >= NPU_MAX_DIMS)
			return npu_errf(op->e, "unfold of %lld elements by windows of "
					"%lld, step %lld", (long long)x->shape[d],
					(long long)b, (long long)step);
		nd = x->ndim + 1;
		memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
		memcpy(ost, st, (size_t)x->ndim * sizeof *st);
		shape[d] = (x->shape[d] - b) / step + 1;
		ost[d] = st[d] * step;
		shape[nd - 1] = b;
		ost[nd - 1] = st[d];
		break;
	case NPU_AOP_FLIP:
		if (flip_view(op, x, st, shape, ost, &nd, &off) < 0)
			return -1;
		break;
	default: /* slice */
		if (ref_int(op, 1, "dim", 0, &a) < 0 || ref_dim(op, a, x->ndim, &d) < 0 ||
		    ref_int(op, 2, "start", 0, &b) < 0 ||
		    ref_int(op, 3, "end", INT64_MAX, &v[0]) < 0 ||
		    ref_int(op, 4, "step", 1, &step) < 0)
			return -1;
		if (step <= 0 || !x->ndim)
			return npu_errf(op->e, "slice step must be positive");
		slice_bounds(x->shape[d], &b, &v[0]);
		nd = x->ndim;
		memcpy(shape, x->shape, (size_t)nd * sizeof *shape);
		memcpy(ost, st, (size_t)nd * sizeof *st);
		shape[d] = (v[0] - b + step - 1) / step;
		ost[d] = st[d] * step;
		off = b * st[d];
	}
	if (ref_out(op, 0, x->dtype, nd, shape, &y) < 0) {
		free(tmp.data);
		return -1;
	}
	ref_gather_strided(x, ost, off, y);
	free(tmp.data);
	return 0;
}

/* alias, clone, lift_fresh_copy, detach, _to_copy, copy, item. */
int ref_copy(ref_op *op)
{
	const npu_reftensor *x, *src;
	npu_reftensor *y;
	int64_t st[NPU_MAX_DIMS];
	int dt;

	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	if (op->id == NPU_AOP_COPY) {
		if (ref_tensor(op, 1, "src", &src) < 0)
			return -1;
		if (src->ndim > x->ndim)
			return npu_errf(op->e, "src has more dims than self");
		for (int i = 0; i < src->ndim; i++) {
			int64_t s = src->shape[i], t = x->shape[i + x->ndim - src->ndim];
			if (s != 1 && s != t)
				return npu_errf(op->e, "src does not broadcast to self");
		}
		if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
			return -1;
		ref_bstrides(src, x->ndim, x->shape, st);
		ref_gather_strided(src, st, 0, y);
		for (int64_t i = 0, n = npu_reftensor_numel(y); i < n; i++)
			y->data[i] = ref_to_dtype(x->dtype, y->data[i]);
		return 0;
	}
	if (op->id == NPU_AOP_ITEM && npu_reftensor_numel(x) != 1)
		return npu_errf(op->e, "item() of a tensor with %lld elements",
				(long long)npu_reftensor_numel(x));
	dt = x->dtype;
	if (op->id == NPU_AOP_TO_COPY && ref_dtype(op, -1, "dtype", x->dtype, &dt) < 0)
		return -1;
	if (ref_out(op, 0, dt, op->id == NPU_AOP_ITEM ? 0 : x->ndim, x->shape, &y) < 0)
		return -1;
	memcpy(y->data, x->data, (size_t)npu_reftensor_numel(x) * sizeof(double));
	/* A cast to a float8 type is a quantization step: its rounding is
	 * part of what the graph computes (as quantize_per_tensor's is), so
	 * it applies in the fp64 mode too.  PyTorch rounds through fp32. */
	if (x->dtype != dt && (dt == NPU_DT_E4M3 || dt == NPU_DT_E5M2))
		for (int64_t i = 0, n = npu_reftensor_numel(y); i < n; i++)
			y->data[i] = npu_round_through(dt, (float)y->data[i]);
	return 0;
}

/* ---- movement ---------------------------------------------------- */

/* The tensors of a list argument. */
static int tensor_list(ref_op *op, int i, const char *name,
		       const npu_reftensor **ts, int max, int *n)
{
	const npu_gval *l = ref_arg(op, i, name);

	if (!l || l->kind != NPU_GV_LIST || !l->u.list.n || l->u.list.n > max)
		return npu_errf(op->e, "expected a list of 1 to %d tensors", max);
	for (int k = 0; k < l->u.list.n; k++) {
		const npu_gval *v = &l->u.list.v[k];
		if (v->kind != NPU_GV_NODE || v->u.node >= op->cx->nvals ||
		    op->cx->vals[v->u.node].n < 1 ||
		    op->cx->vals[v->u.node].t[0].ndim < 0)
			return npu_errf(op->e, "list entry %d is not a tensor", k);
		ts[k] = &op->cx->vals[v->u.node].t[0];
	}
	*n = l->u.list.n;
	return 0;
}

int ref_cat(ref_op *op)
{
	const npu_reftensor *ts[256], *ref = NULL;
	npu_reftensor *y;
	int64_t dim, shape[NPU_MAX_DIMS], pos = 0;
	int n = 0, d, nd, dt = -1, stack = op->id == NPU_AOP_STACK;

	if (tensor_list(op, 0, "tensors", ts, 256, &n) < 0 ||
	    ref_int(op, 1, "dim", 0, &dim) < 0)
		return -1;
	/* legacy: 1-d empty tensors are skipped by cat */
	for (int k = 0; k < n; k++)
		if (stack || !(ts[k]->ndim == 1 && ts[k]->shape[0] == 0) || !ref)
			if (!ref || ref->ndim < ts[k]->ndim)
				ref = ts[k];
	nd = ref->ndim + stack;
	if (nd > NPU_MAX_DIMS || ref_dim(op, dim, nd, &d) < 0)
		return -1;
	memcpy(shape, ref->shape, sizeof shape);
	if (stack) {
		memmove(shape + d + 1, shape + d, (size_t)(ref->ndim - d) * sizeof *shape);
		shape[d] = 0;
	} else if (!nd) {
		return npu_errf(op->e, "cannot cat 0-dim tensors");
	} else {
		shape[d] = 0;
	}
	for (int k = 0; k < n; k++) {
		if (!stack && ts[k]->ndim == 1 && ts[k]->shape[0] == 0 && ref->ndim != 1)
			continue;
		if (ts[k]->ndim != ref->ndim)
			return npu_errf(op->e, "tensor %d has rank %d, not %d", k,
					ts[k]->ndim, ref->ndim);
		for (int i = 0; i < ref->ndim; i++)
			if ((stack || i != d) && ts[k]->shape[i] != ref->shape[i])
				return npu_errf(op->e, "tensor %d: size mismatch in dim %d", k, i);
		shape[d] += stack ? 1 : ts[k]->shape[d];
		dt = dt < 0 ? ts[k]->dtype : ref_promote(dt, ts[k]->dtype);
	}
	if (ref_out(op, 0, dt, nd, shape, &y) < 0)
		return -1;
	/* copy each input as [outer, its part of dim d * inner] blocks */
	int64_t outer = 1, inner = 1;
	for (int i = 0; i < d; i++)
		outer *= shape[i];
	for (int i = d + 1; i < nd; i++)
		inner *= shape[i];
	for (int k = 0; k < n; k++) {
		int64_t part;
		if (!stack && ts[k]->ndim == 1 && ts[k]->shape[0] == 0 && ref->ndim != 1)
			continue;
		part = (stack ? 1 : ts[k]->shape[d]) * inner;
		for (int64_t o = 0; o < outer; o++)
			memcpy(y->data + o * shape[d] * inner + pos,
			       ts[k]->data + o * part, (size_t)part * sizeof(double));
		pos += part;
	}
	return 0;
}

/* split, split_with_sizes, unbind: several results. */
int ref_split(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t sizes[REF_MAX_OUT], dimv, chunk, shape[NPU_MAX_DIMS];
	int n = 0, d, unbind = op->id == NPU_AOP_UNBIND;
	int64_t outer = 1, inner = 1, pos = 0;

	if (ref_tensor(op, 0, "self", &x) < 0 ||
	    ref_int(op, unbind ? 1 : 2, "dim", 0, &dimv) < 0 ||
	    ref_dim(op, dimv, x->ndim, &d) < 0 || !x->ndim)
		return x && !x->ndim ? npu_errf(op->e, "cannot split a 0-dim tensor") : -1;
	if (op->id == NPU_AOP_SPLIT_SIZES) {
		if (ref_ints(op, 1, "split_sizes", sizes, REF_MAX_OUT, &n) < 0)
			return -1;
	} else {
		chunk = 1;
		if (!unbind && ref_int(op, 1, "split_size", 1, &chunk) < 0)
			return -1;
		if (chunk <= 0)
			return npu_errf(op->e, "split_size must be positive");
		for (int64_t s = 0; s < x->shape[d] || (!n && !s); s += chunk) {
			if (n >= REF_MAX_OUT)
				return npu_errf(op->e, "more than %d pieces", REF_MAX_OUT);
			sizes[n++] = x->shape[d] - s < chunk ? x->shape[d] - s : chunk;
		}
	}
	for (int i = 0, tot = 0; i <= n; i++) {
		if (i == n) {
			if (tot != x->shape[d])
				return npu_errf(op->e, "sizes sum to %d, dim is %lld",
						tot, (long long)x->shape[d]);
			break;
		}
		if (sizes[i] < 0)
			return npu_errf(op->e, "negative split size");
		tot += (int)sizes[i];
	}
	for (int i = 0; i < d; i++)
		outer *= x->shape[i];
	for (int i = d + 1; i < x->ndim; i++)
		inner *= x->shape[i];
	for (int k = 0; k < n; k++) {
		int nd = 0;
		for (int i = 0; i < x->ndim; i++)
			if (!unbind || i != d)
				shape[nd++] = i == d ? sizes[k] : x->shape[i];
		if (ref_out(op, k, x->dtype, nd, shape, &y) < 0)
			return -1;
		for (int64_t o = 0; o < outer; o++)
			memcpy(y->data + o * sizes[k] * inner,
			       x->data + (o * x->shape[d] + pos) * inner,
			       (size_t)(sizes[k] * inner) * sizeof(double));
		pos += sizes[k];
	}
	return 0;
}

/* An index value checked against a size (negative counts from the end). */
static int fix_index(ref_op *op, double v, int64_t size, int64_t *out)
{
	int64_t i = (int64_t)v;

	*out = 0;
	if (i < -size || i >= size)
		return npu_errf(op->e, "index %lld out of range for size %lld",
				(long long)i, (long long)size);
	*out = i < 0 ? i + size : i;
	return 0;
}

/*
 * A bool index (a mask over dims at..at + ndim - 1 of x) as the int64
 * index tensors of its true positions, one a dim, into own[*nown...]
 * and ix[at...], as PyTorch reads it (nonzero).
 */
static int mask_index(ref_op *op, const npu_reftensor *x, const npu_reftensor *m,
		      int at, const npu_reftensor **ix, npu_reftensor *own, int *nown)
{
	int64_t n = npu_reftensor_numel(m), cnt[1] = { 0 }, idx[NPU_MAX_DIMS];

	if (at + m->ndim > x->ndim)
		return npu_errf(op->e, "a mask index past self's %d dims", x->ndim);
	for (int d = 0; d < m->ndim; d++)
		if (m->shape[d] != x->shape[at + d])
			return npu_errf(op->e, "a mask index's shape does not match self's");
	for (int64_t i = 0; i < n; i++)
		cnt[0] += m->data[i] != 0;
	for (int d = 0; d < m->ndim; d++) {
		if (npu_reftensor_alloc(&own[*nown], NPU_DT_I64, 1, cnt, op->e) < 0)
			return -1;
		ix[at + d] = &own[(*nown)++];
	}
	for (int64_t i = 0, k = 0; i < n; i++) {
		if (m->data[i] == 0)
			continue;
		unravel(i, m->ndim, m->shape, idx);
		for (int d = 0; d < m->ndim; d++)
			own[*nown - m->ndim + d].data[k] = (double)idx[d];
		k++;
	}
	return 0;
}

static int index_walk_ix(ref_op *op, const npu_reftensor *x, const npu_reftensor **ix,
			 int n, int64_t *shape, int *ndp, int64_t **offs);

/*
 * Advanced indexing of x by a list of optional index tensors l (index.Tensor,
 * index_put): the result's shape (the broadcast index dims in place of the
 * indexed dims when those are adjacent, else first) in shape/nd, and for
 * each of its elements the offset in x it reads (or writes), in *offs
 * (malloc'd).  A bool index stands for the int64 indices of its true
 * positions (a mask over as many dims as it has).
 */
static int index_walk(ref_op *op, const npu_reftensor *x, const npu_gval *l,
		      int64_t *shape, int *ndp, int64_t **offs)
{
	const npu_reftensor *ix[NPU_MAX_DIMS] = { 0 };
	npu_reftensor own[NPU_MAX_DIMS];
	int n = 0, nown = 0, rc = -1;

	*offs = NULL;
	if (!l || l->kind != NPU_GV_LIST || l->u.list.n > x->ndim)
		return npu_errf(op->e, "indices must be a list of at most %d", x->ndim);
	for (int k = 0; k < l->u.list.n; k++) {
		const npu_gval *v = &l->u.list.v[k];
		const npu_reftensor *t;
		if (v->kind == NPU_GV_NONE) {
			if (n >= x->ndim)
				goto bad;
			ix[n++] = NULL;
			continue;
		}
		if (v->kind != NPU_GV_NODE || op->cx->vals[v->u.node].n < 1) {
			npu_errf(op->e, "index %d is not a tensor", k);
			goto out;
		}
		t = &op->cx->vals[v->u.node].t[0];
		if (ref_is_float(t->dtype)) {
			npu_errf(op->e, "index %d: a float index tensor", k);
			goto out;
		}
		if (t->dtype == NPU_DT_BOOL) {
			if (mask_index(op, x, t, n, ix, own, &nown) < 0)
				goto out;
			n += t->ndim;
			continue;
		}
		if (n >= x->ndim)
			goto bad;
		ix[n++] = t;
	}
	rc = index_walk_ix(op, x, ix, n, shape, ndp, offs);
	goto out;
bad:
	npu_errf(op->e, "more indices than self's %d dims", x->ndim);
out:
	for (int i = 0; i < nown; i++)
		npu_reftensor_free(&own[i]);
	return rc;
}

/* index_walk over the index tensors ix[0..n) (NULL: a whole dim). */
static int index_walk_ix(ref_op *op, const npu_reftensor *x, const npu_reftensor **ix,
			 int n, int64_t *shape, int *ndp, int64_t **offs)
{
	int64_t bshape[NPU_MAX_DIMS], xst[NPU_MAX_DIMS];
	int64_t ist[NPU_MAX_DIMS][NPU_MAX_DIMS], oidx[NPU_MAX_DIMS], cnt, *o;
	int nb = 0, first = -1, lastd = -1, adjacent = 1, nd = 0, bpos, nix = 0;

	for (int k = 0; k < n; k++) {
		if (!ix[k])
			continue;
		nix++;
		if (first < 0)
			first = k;
		else if (lastd != k - 1)
			adjacent = 0;
		lastd = k;
		if (ref_bshape(op, nb, bshape, ix[k]->ndim, ix[k]->shape, &nb, bshape) < 0)
			return -1;
	}
	if (first < 0)
		return npu_errf(op->e, "no index tensor");
	bpos = adjacent ? first : 0;
	/* the indexed dims give way to the indices' broadcast shape */
	if (nb + x->ndim - nix > NPU_MAX_DIMS)
		return npu_errf(op->e, "result rank too large");
	for (int i = 0; i <= x->ndim; i++) {
		if (i == bpos) {
			memcpy(shape + nd, bshape, (size_t)nb * sizeof *bshape);
			nd += nb;
		}
		if (i < x->ndim && (i >= n || !ix[i]))
			shape[nd++] = x->shape[i];
	}
	*ndp = nd;
	ref_strides(x->ndim, x->shape, xst);
	for (int k = 0; k < n; k++)
		if (ix[k]) {
			npu_reftensor tmp = *ix[k];
			ref_bstrides(&tmp, nb, bshape, ist[k]);
		}
	cnt = 1;
	for (int i = 0; i < nd; i++)
		cnt *= shape[i];
	if (!(o = malloc((size_t)(cnt + 1) * sizeof *o)))
		return npu_errf(op->e, "out of memory");
	for (int64_t i = 0; i < cnt; i++) {
		int64_t off = 0, bo[NPU_MAX_DIMS], od = 0;
		unravel(i, nd, shape, oidx);
		memcpy(bo, oidx + bpos, (size_t)nb * sizeof *bo);
		for (int k = 0; k < x->ndim; k++) {
			int64_t v = 0;
			if (k < n && ix[k]) {
				int64_t io = 0;
				for (int j = 0; j < nb; j++)
					io += bo[j] * ist[k][j];
				if (fix_index(op, ix[k]->data[io], x->shape[k], &v) < 0) {
					free(o);
					return -1;
				}
			} else {
				if (od == bpos)
					od += nb;
				v = oidx[od++];
			}
			off += v * xst[k];
		}
		o[i] = off;
	}
	*offs = o;
	return 0;
}

/* index.Tensor: advanced indexing by a list of optional index tensors. */
int ref_index(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t shape[NPU_MAX_DIMS], *offs;
	int nd;

	if (ref_tensor(op, 0, "self", &x) < 0 ||
	    index_walk(op, x, ref_arg(op, 1, "indices"), shape, &nd, &offs) < 0)
		return -1;
	if (ref_out(op, 0, x->dtype, nd, shape, &y) < 0) {
		free(offs);
		return -1;
	}
	for (int64_t i = 0, cnt = npu_reftensor_numel(y); i < cnt; i++)
		y->data[i] = x->data[offs[i]];
	free(offs);
	return 0;
}

/* index_put: self with self[indices] = values (broadcast to the indexed
 * shape), or += when accumulating, in element order (a repeated index
 * accumulates every value; without accumulate the last one stays). */
int ref_index_put(ref_op *op)
{
	const npu_reftensor *x, *v;
	npu_reftensor *y, tmp;
	int64_t shape[NPU_MAX_DIMS], vst[NPU_MAX_DIMS], idx[NPU_MAX_DIMS], *offs, cnt = 1;
	int nd, acc = 0, nb;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_tensor(op, 2, "values", &v) < 0 ||
	    ref_bool(op, 3, "accumulate", 0, &acc) < 0 ||
	    index_walk(op, x, ref_arg(op, 1, "indices"), shape, &nd, &offs) < 0)
		return -1;
	if (ref_bshape(op, nd, shape, v->ndim, v->shape, &nb, idx) < 0 || nb != nd ||
	    memcmp(idx, shape, (size_t)nd * sizeof *idx)) {
		free(offs);
		return npu_errf(op->e, "values do not broadcast to the indexed shape");
	}
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0) {
		free(offs);
		return -1;
	}
	memcpy(y->data, x->data, (size_t)npu_reftensor_numel(x) * sizeof(double));
	tmp = *v;
	ref_bstrides(&tmp, nd, shape, vst);
	for (int i = 0; i < nd; i++)
		cnt *= shape[i];
	for (int64_t i = 0; i < cnt; i++) {
		int64_t vo = 0;
		unravel(i, nd, shape, idx);
		for (int k = 0; k < nd; k++)
			vo += idx[k] * vst[k];
		y->data[offs[i]] = ref_to_dtype(x->dtype, acc ? y->data[offs[i]] + v->data[vo]
							     : v->data[vo]);
	}
	free(offs);
	return 0;
}

/* index_add: self with alpha * source[.., i, ..] added at [.., index[i],
 * ..] along dim, in index order (a repeated index adds every slice);
 * index_copy: the slices stored there instead (the last of a repeated
 * index stays; PyTorch leaves which unspecified), each index in [0, n). */
int ref_index_add(ref_op *op)
{
	const npu_reftensor *x, *ix, *src;
	npu_reftensor *y;
	int64_t dimv, outer, n, inner, m;
	double alpha = 1;
	int d, copy = op->id == NPU_AOP_INDEX_COPY;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_int(op, 1, "dim", 0, &dimv) < 0 ||
	    ref_dim(op, dimv, x->ndim ? x->ndim : 1, &d) < 0 ||
	    ref_tensor(op, 2, "index", &ix) < 0 || ref_tensor(op, 3, "source", &src) < 0 ||
	    (!copy && ref_double(op, 4, "alpha", 1, &alpha) < 0))
		return -1;
	m = npu_reftensor_numel(ix);
	if (ix->ndim > 1 || src->ndim != x->ndim)
		return npu_errf(op->e, "%s: index must be 1-d and source of self's rank",
				copy ? "index_copy" : "index_add");
	for (int i = 0; i < x->ndim; i++)
		if (src->shape[i] != (i == d ? m : x->shape[i]))
			return npu_errf(op->e, "%s: source's shape does not match",
					copy ? "index_copy" : "index_add");
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
		return -1;
	memcpy(y->data, x->data, (size_t)npu_reftensor_numel(x) * sizeof(double));
	outer = inner = 1;
	for (int i = 0; i < x->ndim; i++)
		if (i < d)
			outer *= x->shape[i];
		else if (i > d)
			inner *= x->shape[i];
	n = x->ndim ? x->shape[d] : 1;
	for (int64_t j = 0; j < m; j++) {
		int64_t at;
		if (copy && ix->data[j] < 0)
			return npu_errf(op->e, "index_copy: index %lld is out of bounds",
					(long long)ix->data[j]);
		if (fix_index(op, ix->data[j], n, &at) < 0)
			return -1;
		for (int64_t o = 0; o < outer; o++)
			for (int64_t k = 0; k < inner; k++) {
				double *p = &y->data[(o * n + at) * inner + k];
				double s = src->data[(o * m + j) * inner + k];
				*p = copy ? s : ref_to_dtype(x->dtype, *p + alpha * s);
			}
	}
	return 0;
}

/* scatter.value, scatter.src: self with self[..., index[i], ...] (along
 * dim) = value or src[i] for every position i of index. */
int ref_scatterv(ref_op *op)
{
	const npu_reftensor *x, *ix, *src = NULL;
	npu_reftensor *y;
	int64_t dimv, xst[NPU_MAX_DIMS], idx[NPU_MAX_DIMS], sst[NPU_MAX_DIMS];
	double val = 0;
	int d, sv = op->id == NPU_AOP_SCATTER_SRC;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_int(op, 1, "dim", 0, &dimv) < 0 ||
	    ref_dim(op, dimv, x->ndim, &d) < 0 || ref_tensor(op, 2, "index", &ix) < 0 ||
	    (sv ? ref_tensor(op, 3, "src", &src) : ref_double(op, 3, "value", 0, &val)) < 0)
		return -1;
	if (ix->ndim != x->ndim || (src && src->ndim != x->ndim))
		return npu_errf(op->e, "index (and src) must have self's rank");
	for (int i = 0; i < x->ndim; i++)
		if ((i != d && ix->shape[i] > x->shape[i]) ||
		    (src && ix->shape[i] > src->shape[i]))
			return npu_errf(op->e, "index is larger than self or src in dim %d", i);
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
		return -1;
	memcpy(y->data, x->data, (size_t)npu_reftensor_numel(x) * sizeof(double));
	ref_strides(x->ndim, x->shape, xst);
	if (src)
		ref_strides(src->ndim, src->shape, sst);
	for (int64_t i = 0, n = npu_reftensor_numel(ix); i < n; i++) {
		int64_t off = 0, so = 0, at;
		unravel(i, ix->ndim, ix->shape, idx);
		if (fix_index(op, ix->data[i], x->shape[d], &at) < 0)
			return -1;
		for (int k = 0; k < x->ndim; k++) {
			off += (k == d ? at : idx[k]) * xst[k];
			so += src ? idx[k] * sst[k] : 0;
		}
		y->data[off] = ref_to_dtype(x->dtype, src ? src->data[so] : val);
	}
	return 0;
}

/* index_select, gather, embedding. */
int ref_gather(ref_op *op)
{
	const npu_reftensor *x, *ix;
	npu_reftensor *y;
	int64_t dimv = 0, shape[NPU_MAX_DIMS], idx[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
	int d = 0, nd;

	if (op->id == NPU_AOP_EMBEDDING) {
		if (ref_tensor(op, 0, "weight", &x) < 0 ||
		    ref_tensor(op, 1, "indices", &ix) < 0)
			return -1;
		if (x->ndim != 2 || ix->ndim >= NPU_MAX_DIMS)
			return npu_errf(op->e, "embedding weight must be 2-d");
		memcpy(shape, ix->shape, (size_t)ix->ndim * sizeof *shape);
		shape[ix->ndim] = x->shape[1];
		if (ref_out(op, 0, x->dtype, ix->ndim + 1, shape, &y) < 0)
			return -1;
		for (int64_t i = 0, n = npu_reftensor_numel(ix); i < n; i++) {
			int64_t r;
			if (fix_index(op, ix->data[i], x->shape[0], &r) < 0)
				return -1;
			memcpy(y->data + i * x->shape[1], x->data + r * x->shape[1],
			       (size_t)x->shape[1] * sizeof(double));
		}
		return 0;
	}
	if (ref_tensor(op, 0, "self", &x) < 0 || ref_int(op, 1, "dim", 0, &dimv) < 0 ||
	    ref_tensor(op, 2, "index", &ix) < 0 || ref_dim(op, dimv, x->ndim, &d) < 0)
		return -1;
	ref_strides(x->ndim, x->shape, st);
	if (op->id == NPU_AOP_INDEX_SELECT) {
		if (ix->ndim > 1)
			return npu_errf(op->e, "index must be 0-d or 1-d");
		nd = x->ndim;
		memcpy(shape, x->shape, (size_t)nd * sizeof *shape);
		if (nd)
			shape[d] = npu_reftensor_numel(ix);
	} else {
		if (ix->ndim != x->ndim)
			return npu_errf(op->e, "index rank differs from self");
		nd = ix->ndim;
		memcpy(shape, ix->shape, (size_t)nd * sizeof *shape);
	}
	if (ref_out(op, 0, x->dtype, nd, shape, &y) < 0)
		return -1;
	for (int64_t i = 0, n = npu_reftensor_numel(y); i < n; i++) {
		int64_t off = 0, r;
		unravel(i, nd, shape, idx);
		double iv = op->id == NPU_AOP_INDEX_SELECT ? ix->data[nd ? idx[d] : 0]
							   : ix->data[i];
		if (fix_index(op, iv, x->ndim ? x->shape[d] : 1, &r) < 0)
			return -1;
		for (int k = 0; k < nd; k++) {
			if (k != d && idx[k] >= x->shape[k])
				return npu_errf(op->e, "index larger than self in dim %d", k);
			off += (k == d ? r : idx[k]) * st[k];
		}
		y->data[i] = x->data[off];
	}
	return 0;
}

/* slice_scatter, select_scatter. */
int ref_scatter(ref_op *op)
{
	const npu_reftensor *x, *src;
	npu_reftensor *y;
	int64_t dimv, start, end = INT64_MAX, step = 1, st[NPU_MAX_DIMS];
	int64_t sshape[NPU_MAX_DIMS], idx[NPU_MAX_DIMS];
	int d, nd = 0, sel = op->id == NPU_AOP_SELECT_SCATTER;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_tensor(op, 1, "src", &src) < 0 ||
	    ref_int(op, 2, "dim", 0, &dimv) < 0 || ref_dim(op, dimv, x->ndim, &d) < 0 ||
	    ref_int(op, 3, sel ? "index" : "start", 0, &start) < 0 ||
	    (!sel && (ref_int(op, 4, "end", INT64_MAX, &end) < 0 ||
		      ref_int(op, 5, "step", 1, &step) < 0)))
		return -1;
	if (!x->ndim || step <= 0)
		return npu_errf(op->e, "bad self rank or step");
	if (sel) {
		if (fix_index(op, (double)start, x->shape[d], &start) < 0)
			return -1;
		end = start + 1;
	} else {
		slice_bounds(x->shape[d], &start, &end);
	}
	for (int i = 0; i < x->ndim; i++)
		if (!sel || i != d)
			sshape[nd++] = i == d ? (end - start + step - 1) / step : x->shape[i];
	if (nd != src->ndim || memcmp(sshape, src->shape, (size_t)nd * sizeof *sshape))
		return npu_errf(op->e, "src shape does not match the slice");
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
		return -1;
	memcpy(y->data, x->data, (size_t)npu_reftensor_numel(x) * sizeof(double));
	ref_strides(x->ndim, x->shape, st);
	for (int64_t i = 0, n = npu_reftensor_numel(src); i < n; i++) {
		int64_t off = 0;
		unravel(i, nd, sshape, idx);
		for (int k = 0, s = 0; k < x->ndim; k++)
			off += (k == d ? start + (sel ? 0 : idx[s] * step) : idx[s]) * st[k],
			s += !(sel && k == d);
		y->data[off] = ref_to_dtype(x->dtype, src->data[i]);
	}
	return 0;
}

/*
 * as_strided_scatter: self with the elements of self.as_strided(size,
 * stride, storage_offset) replaced by src's, the view over self's
 * elements in order (as ref_strided's as_strided, over the storage of
 * the contiguous tensors the captures apply it to).  A view that writes
 * an element twice leaves it src's last (row-major) value there.
 */
int ref_strided_scatter(ref_op *op)
{
	const npu_reftensor *x, *src;
	npu_reftensor *y;
	int64_t shape[NPU_MAX_DIMS], st[NPU_MAX_DIMS], idx[NPU_MAX_DIMS];
	int64_t off, numel;
	int nd;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_tensor(op, 1, "src", &src) < 0)
		return -1;
	numel = npu_reftensor_numel(x);
	if (strided_args(op, 2, "as_strided_scatter", numel, shape, st, &nd, &off) < 0)
		return -1;
	if (nd != src->ndim || memcmp(shape, src->shape, (size_t)nd * sizeof *shape))
		return npu_errf(op->e, "as_strided_scatter: src's shape is not size");
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
		return -1;
	memcpy(y->data, x->data, (size_t)numel * sizeof(double));
	for (int64_t i = 0, m = npu_reftensor_numel(src); i < m; i++) {
		int64_t o = off;
		unravel(i, nd, shape, idx);
		for (int k = 0; k < nd; k++)
			o += idx[k] * st[k];
		y->data[o] = ref_to_dtype(x->dtype, src->data[i]);
	}
	return 0;
}

int ref_pad(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t pad[2 * NPU_MAX_DIMS], shape[NPU_MAX_DIMS], lo[NPU_MAX_DIMS] = { 0 };
	int64_t idx[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
	double val;
	int np;

	if (ref_tensor(op, 0, "self", &x) < 0 ||
	    ref_ints(op, 1, "pad", pad, 2 * NPU_MAX_DIMS, &np) < 0 ||
	    ref_double(op, 2, "value", 0, &val) < 0)
		return -1;
	if (np % 2 || np / 2 > x->ndim)
		return npu_errf(op->e, "pad needs pairs for at most %d dims", x->ndim);
	memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
	for (int k = 0; k < np / 2; k++) {
		int d = x->ndim - 1 - k;
		lo[d] = pad[2 * k];
		shape[d] += pad[2 * k] + pad[2 * k + 1];
		if (shape[d] < 0)
			return npu_errf(op->e, "padding makes dim %d negative", d);
	}
	if (ref_out(op, 0, x->dtype, x->ndim, shape, &y) < 0)
		return -1;
	ref_strides(x->ndim, x->shape, st);
	for (int64_t i = 0, n = npu_reftensor_numel(y); i < n; i++) {
		int64_t off = 0;
		int in = 1;
		unravel(i, x->ndim, shape, idx);
		for (int k = 0; k < x->ndim; k++) {
			int64_t s = idx[k] - lo[k];
			in &= s >= 0 && s < x->shape[k];
			off += s * st[k];
		}
		y->data[i] = in ? x->data[off] : val;
	}
	return 0;
}

/* repeat_interleave.Tensor(repeats): 0 repeats[0] times, 1 repeats[1]
 * times, ... */
static int repeat_idx(ref_op *op)
{
	const npu_reftensor *r;
	npu_reftensor *y;
	int64_t n = 0, at = 0;

	if (ref_tensor(op, 0, "repeats", &r) < 0)
		return -1;
	if (r->ndim > 1)
		return npu_errf(op->e, "repeats must be 0-d or 1-d");
	for (int64_t i = 0; i < npu_reftensor_numel(r); i++) {
		if (!(r->data[i] >= 0 && r->data[i] <= 0x1p40) || r->data[i] != floor(r->data[i]))
			return npu_errf(op->e, "repeats must be non-negative integers below 2^40");
		if (n > (INT64_C(1) << 40))
			return npu_errf(op->e, "too many repeats");
		n += (int64_t)r->data[i];
	}
	if (ref_out(op, 0, NPU_DT_I64, 1, &n, &y) < 0)
		return -1;
	for (int64_t i = 0; i < npu_reftensor_numel(r); i++)
		for (int64_t k = 0; k < (int64_t)r->data[i]; k++)
			y->data[at++] = (double)i;
	return 0;
}

int ref_repeat(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t rep[NPU_MAX_DIMS], shape[NPU_MAX_DIMS], xs[NPU_MAX_DIMS];
	int64_t idx[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
	int n;

	if (op->id == NPU_AOP_REPEAT_INTERLEAVE_T)
		return repeat_idx(op);
	if (ref_tensor(op, 0, "self", &x) < 0 ||
	    ref_ints(op, 1, "repeats", rep, NPU_MAX_DIMS, &n) < 0)
		return -1;
	if (n < x->ndim)
		return npu_errf(op->e, "fewer repeats than dims");
	for (int i = 0; i < n; i++) {
		xs[i] = i < n - x->ndim ? 1 : x->shape[i - (n - x->ndim)];
		if (rep[i] < 0)
			return npu_errf(op->e, "negative repeat");
		shape[i] = xs[i] * rep[i];
	}
	if (ref_out(op, 0, x->dtype, n, shape, &y) < 0)
		return -1;
	ref_strides(n, xs, st);
	for (int64_t i = 0, cnt = npu_reftensor_numel(y); i < cnt; i++) {
		int64_t off = 0;
		unravel(i, n, shape, idx);
		for (int k = 0; k < n; k++)
			off += (idx[k] % xs[k]) * st[k];
		y->data[i] = x->data[off];
	}
	return 0;
}

/* pixel_shuffle [*, C*r*r, H, W] -> [*, C, H*r, W*r] and its inverse:
 * out[c][h*r + i][w*r + j] = in[c*r*r + i*r + j][h][w]. */
int ref_pixshuf(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t r, shape[NPU_MAX_DIMS], planes = 1, c, h, w;
	int nd, up = op->id == NPU_AOP_PIXEL_SHUFFLE;

	if (ref_tensor(op, 0, "self", &x) < 0 ||
	    ref_int(op, 1, up ? "upscale_factor" : "downscale_factor", 1, &r) < 0)
		return -1;
	nd = x->ndim;
	if (nd < 3 || r <= 0)
		return npu_errf(op->e, "needs a 3-d or wider input and a positive factor");
	memcpy(shape, x->shape, sizeof shape);
	if (up) {
		if (x->shape[nd - 3] % (r * r))
			return npu_errf(op->e, "channels not divisible by the factor squared");
		c = x->shape[nd - 3] / (r * r);
		h = x->shape[nd - 2];
		w = x->shape[nd - 1];
		shape[nd - 3] = c;
		shape[nd - 2] = h * r;
		shape[nd - 1] = w * r;
	} else {
		if (x->shape[nd - 2] % r || x->shape[nd - 1] % r)
			return npu_errf(op->e, "height or width not divisible by the factor");
		c = x->shape[nd - 3];
		h = x->shape[nd - 2] / r;
		w = x->shape[nd - 1] / r;
		shape[nd - 3] = c * r * r;
		shape[nd - 2] = h;
		shape[nd - 1] = w;
	}
	for (int i = 0; i < nd - 3; i++)
		planes *= x->shape[i];
	if (ref_out(op, 0, x->dtype, nd, shape, &y) < 0)
		return -1;
	for (int64_t b = 0; b < planes; b++)
		for (int64_t k = 0; k < c * r * r; k++)
			for (int64_t yy = 0; yy < h; yy++)
				for (int64_t xx = 0; xx < w; xx++) {
					/* the shuffled side's element, the packed side's */
					int64_t ch = k / (r * r), i = k / r % r, j = k % r;
					int64_t big = ((b * c + ch) * h * r + yy * r + i) * w * r + xx * r + j;
					int64_t small = ((b * c * r * r + k) * h + yy) * w + xx;
					if (up)
						y->data[big] = x->data[small];
					else
						y->data[small] = x->data[big];
				}
	return 0;
}

/* ---- creation ---------------------------------------------------- */

int ref_create(ref_op *op)
{
	const npu_reftensor *like = NULL;
	const npu_gval *fv = NULL;
	npu_reftensor *y;
	int64_t shape[NPU_MAX_DIMS];
	int nd = 0, dt, is_like = 0;
	double fill = 0;

	switch (op->id) {
	case NPU_AOP_FULL_LIKE: case NPU_AOP_ZEROS_LIKE: case NPU_AOP_ONES_LIKE:
	case NPU_AOP_EMPTY_LIKE:
		if (ref_tensor(op, 0, "self", &like) < 0)
			return -1;
		nd = like->ndim;
		memcpy(shape, like->shape, (size_t)nd * sizeof *shape);
		is_like = 1;
		break;
	case NPU_AOP_NEW_ZEROS: case NPU_AOP_NEW_ONES: case NPU_AOP_NEW_FULL:
	case NPU_AOP_NEW_EMPTY: case NPU_AOP_NEW_EMPTY_STRIDED:
		/* self gives the dtype only */
		if (ref_tensor(op, 0, "self", &like) < 0 ||
		    ref_ints(op, 1, "size", shape, NPU_MAX_DIMS, &nd) < 0)
			return -1;
		is_like = 1;
		if (op->id == NPU_AOP_NEW_FULL && !(fv = ref_arg(op, 2, "fill_value")))
			return npu_errf(op->e, "missing fill value");
		break;
	case NPU_AOP_SCALAR_TENSOR:
		fv = ref_arg(op, 0, "s");
		break;
	case NPU_AOP_FILL_S: case NPU_AOP_FILL_T:
		if (ref_tensor(op, 0, "self", &like) < 0)
			return -1;
		nd = like->ndim;
		memcpy(shape, like->shape, (size_t)nd * sizeof *shape);
		is_like = 1;
		if (!(fv = ref_arg(op, 1, "value")))
			return npu_errf(op->e, "missing fill value");
		break;
	default:
		if (ref_ints(op, 0, "size", shape, NPU_MAX_DIMS, &nd) < 0)
			return -1;
	}
	if (op->id == NPU_AOP_FULL || op->id == NPU_AOP_FULL_LIKE)
		fv = ref_arg(op, 1, "fill_value");
	if (op->id == NPU_AOP_ONES || op->id == NPU_AOP_ONES_LIKE ||
	    op->id == NPU_AOP_NEW_ONES)
		fill = 1;
	if (fv && ref_gval_num(op, fv, &fill) < 0)
		return -1;
	if ((op->id == NPU_AOP_FULL || op->id == NPU_AOP_FULL_LIKE ||
	     op->id == NPU_AOP_SCALAR_TENSOR) && !fv)
		return npu_errf(op->e, "missing fill value");
	dt = is_like ? like->dtype : NPU_DT_F32;
	if (op->id == NPU_AOP_FULL && fv)
		dt = fv->kind == NPU_GV_BOOL ? NPU_DT_BOOL :
		     fv->kind == NPU_GV_INT ? NPU_DT_I64 : NPU_DT_F32;
	if (ref_dtype(op, -1, "dtype", dt, &dt) < 0 ||
	    ref_out(op, 0, dt, nd, shape, &y) < 0)
		return -1;
	for (int64_t i = 0, n = npu_reftensor_numel(y); i < n; i++)
		y->data[i] = fill;
	return 0;
}

/* linspace as ATen's CPU kernel computes it: the first half from start,
 * the second back from end, so that both ends are exact. */
static int ref_linspace(ref_op *op)
{
	double a, b;
	int64_t n;
	int dt;
	npu_reftensor *y;

	if (ref_gval_num(op, ref_arg(op, 0, "start"), &a) < 0 ||
	    ref_gval_num(op, ref_arg(op, 1, "end"), &b) < 0 ||
	    ref_int(op, 2, "steps", -1, &n) < 0)
		return -1;
	if (n < 0 || !isfinite(a) || !isfinite(b))
		return npu_errf(op->e, "bad steps or range");
	if (ref_dtype(op, -1, "dtype", NPU_DT_F32, &dt) < 0 ||
	    ref_out(op, 0, dt, 1, &n, &y) < 0)
		return -1;
	for (int64_t i = 0; i < n; i++) {
		double step = n > 1 ? (b - a) / (double)(n - 1) : 0;
		y->data[i] = i < n / 2 ? a + step * (double)i
				       : b - step * (double)(n - 1 - i);
	}
	return 0;
}

/* eye(n) and eye(n, m): 1 where row == column. */
static int ref_eye(ref_op *op)
{
	int64_t sh[2];
	int dt;
	npu_reftensor *y;

	if (ref_int(op, 0, "n", -1, &sh[0]) < 0 ||
	    ref_int(op, 1, "m", sh[0], &sh[1]) < 0)
		return -1;
	if (op->id == NPU_AOP_EYE)
		sh[1] = sh[0];
	if (sh[0] < 0 || sh[1] < 0)
		return npu_errf(op->e, "negative size");
	if (ref_dtype(op, -1, "dtype", NPU_DT_F32, &dt) < 0 ||
	    ref_out(op, 0, dt, 2, sh, &y) < 0)
		return -1;
	for (int64_t i = 0; i < sh[0] && i < sh[1]; i++)
		y->data[i * sh[1] + i] = 1;
	return 0;
}

/* triu_indices and tril_indices (row, col, offset): [2, N] int64, the
 * rows then the columns of the triangle's elements in row-major order;
 * triu keeps j - i >= offset, tril j - i <= offset. */
static int ref_triidx(ref_op *op)
{
	int64_t r, c, off, n = 0, sh[2];
	int up = op->id == NPU_AOP_TRIU_INDICES;
	npu_reftensor *y;

	if (ref_int(op, 0, "row", -1, &r) < 0 || ref_int(op, 1, "col", -1, &c) < 0 ||
	    ref_int(op, 2, "offset", 0, &off) < 0)
		return -1;
	if (r < 0 || c < 0 || r > (1 << 20) || c > (1 << 20))
		return npu_errf(op->e, "row and col must be in [0, 2^20]");
	for (int64_t i = 0; i < r; i++)
		for (int64_t j = 0; j < c; j++)
			n += up ? j - i >= off : j - i <= off;
	sh[0] = 2, sh[1] = n;
	if (ref_out(op, 0, NPU_DT_I64, 2, sh, &y) < 0)
		return -1;
	n = 0;
	for (int64_t i = 0; i < r; i++)
		for (int64_t j = 0; j < c; j++)
			if (up ? j - i >= off : j - i <= off) {
				y->data[n] = (double)i;
				y->data[sh[1] + n++] = (double)j;
			}
	return 0;
}

int ref_arange(ref_op *op)
{
	const npu_gval *g[3] = { NULL, NULL, NULL };
	double v[3] = { 0, 0, 1 };
	npu_reftensor *y;
	int64_t n;
	int dt = NPU_DT_I64, first = op->id == NPU_AOP_ARANGE ? 1 : 0;
	int cnt = op->id == NPU_AOP_ARANGE_STEP ? 3 : 2;  /* v[first..cnt) given */

	if (op->id == NPU_AOP_LINSPACE)
		return ref_linspace(op);
	if (op->id == NPU_AOP_EYE || op->id == NPU_AOP_EYE_M)
		return ref_eye(op);
	if (op->id == NPU_AOP_TRIU_INDICES || op->id == NPU_AOP_TRIL_INDICES)
		return ref_triidx(op);

	for (int i = first; i < cnt; i++) {
		g[i] = ref_arg(op, i - first, NULL);
		if (!g[i] && i < 2)
			return npu_errf(op->e, "missing argument %d", i - first);
		if (g[i] && ref_gval_num(op, g[i], &v[i]) < 0)
			return -1;
		if (g[i] && g[i]->kind == NPU_GV_FLOAT)
			dt = NPU_DT_F32;
	}
	if (v[2] == 0 || !isfinite(v[0]) || !isfinite(v[1]))
		return npu_errf(op->e, "bad range");
	n = (int64_t)ceil((v[1] - v[0]) / v[2]);
	if (n < 0)
		n = 0;
	if (ref_dtype(op, -1, "dtype", dt, &dt) < 0 ||
	    ref_out(op, 0, dt, 1, &n, &y) < 0)
		return -1;
	for (int64_t i = 0; i < n; i++)
		y->data[i] = v[0] + (double)i * v[2];
	return 0;
}

/* ---- plumbing ---------------------------------------------------- */

int ref_getitem(ref_op *op)
{
	const npu_gval *src = ref_arg(op, 0, NULL);
	int64_t k;
	npu_reftensor *y;
	const ref_val *v;

	if (!src || src->kind != NPU_GV_NODE || ref_int(op, 1, NULL, 0, &k) < 0)
		return npu_errf(op->e, "getitem needs a node and an index");
	v = &op->cx->vals[src->u.node];
	if (k < 0 || k >= v->n || v->t[k].ndim < 0)
		return npu_errf(op->e, "no result %lld", (long long)k);
	if (ref_out(op, 0, v->t[k].dtype, v->t[k].ndim, v->t[k].shape, &y) < 0)
		return -1;
	memcpy(y->data, v->t[k].data,
	       (size_t)npu_reftensor_numel(y) * sizeof(double));
	return 0;
}

int ref_symsize(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t dimv;
	int d;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_int(op, 1, "dim", 0, &dimv) < 0 ||
	    ref_dim(op, dimv, x->ndim, &d) < 0 ||
	    ref_out(op, 0, NPU_DT_I64, 0, NULL, &y) < 0)
		return -1;
	y->data[0] = x->ndim ? (double)x->shape[d] : 1;
	return 0;
}

/* ---- scatter reductions, masked_scatter --------------------------- */

/* The reduction of scatter_reduce's `reduce` string; scatter_add sums. */
enum { SR_SUM, SR_PROD, SR_MEAN, SR_AMAX, SR_AMIN };

static int scatter_mode(ref_op *op, int *mode, int *incl)
{
	static const char *const names[] = { "sum", "prod", "mean", "amax", "amin" };
	const npu_gval *r;

	*mode = SR_SUM;
	*incl = 1;
	if (op->id == NPU_AOP_SCATTER_ADD)
		return 0;
	r = ref_arg(op, 4, "reduce");
	if (ref_bool(op, 5, "include_self", 1, incl) < 0)
		return -1;
	for (int k = 0; r && r->kind == NPU_GV_STR && k < 5; k++)
		if (!strcmp(r->u.s, names[k])) {
			*mode = k;
			return 0;
		}
	return npu_errf(op->e, "reduce must be 'sum', 'prod', 'mean', 'amax' or 'amin'");
}

static double scatter_combine(int mode, double a, double b)
{
	switch (mode) {
	case SR_PROD: return a * b;
	case SR_AMAX: return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
	case SR_AMIN: return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
	default: return a + b;
	}
}

/*
 * scatter_add and scatter_reduce.two.  With include_self false a written
 * position starts from its first src value instead of self's (PyTorch
 * starts from the reduction's identity, the same thing); mean divides by
 * the number of values reduced, self's included, floor-dividing
 * integers as PyTorch does.
 */
int ref_scatter_red(ref_op *op)
{
	const npu_reftensor *x, *ix, *src;
	npu_reftensor *y;
	int64_t dimv, xst[NPU_MAX_DIMS], sst[NPU_MAX_DIMS], idx[NPU_MAX_DIMS], *cnt;
	int d, mode, incl;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_int(op, 1, "dim", 0, &dimv) < 0 ||
	    ref_dim(op, dimv, x->ndim, &d) < 0 || ref_tensor(op, 2, "index", &ix) < 0 ||
	    ref_tensor(op, 3, "src", &src) < 0 || scatter_mode(op, &mode, &incl) < 0)
		return -1;
	if (ix->ndim != x->ndim || src->ndim != x->ndim)
		return npu_errf(op->e, "index and src must have self's rank");
	for (int i = 0; i < x->ndim; i++)
		if ((i != d && ix->shape[i] > x->shape[i]) || ix->shape[i] > src->shape[i])
			return npu_errf(op->e, "index is larger than self or src in dim %d", i);
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
		return -1;
	memcpy(y->data, x->data, (size_t)npu_reftensor_numel(x) * sizeof(double));
	if (!(cnt = calloc((size_t)npu_reftensor_numel(x) + 1, sizeof *cnt)))
		return npu_errf(op->e, "out of memory");
	ref_strides(x->ndim, x->shape, xst);
	ref_strides(src->ndim, src->shape, sst);
	for (int64_t i = 0, n = npu_reftensor_numel(ix); i < n; i++) {
		int64_t off = 0, so = 0, at;
		double v;
		unravel(i, ix->ndim, ix->shape, idx);
		if (fix_index(op, ix->data[i], x->ndim ? x->shape[d] : 1, &at) < 0) {
			free(cnt);
			return -1;
		}
		for (int k = 0; k < x->ndim; k++) {
			off += (k == d ? at : idx[k]) * xst[k];
			so += idx[k] * sst[k];
		}
		v = ref_to_dtype(x->dtype, src->data[so]);
		y->data[off] = !incl && !cnt[off] ? v : scatter_combine(mode, y->data[off], v);
		cnt[off]++;
	}
	for (int64_t i = 0, n = npu_reftensor_numel(x); mode == SR_MEAN && i < n; i++) {
		double c = (double)(cnt[i] + incl);
		if (!cnt[i])
			continue;
		y->data[i] = ref_is_float(x->dtype) ? y->data[i] / c : floor(y->data[i] / c);
	}
	free(cnt);
	return 0;
}

/* masked_scatter: self and mask broadcast; the true positions, in
 * row-major order, take source's elements in order. */
int ref_masked_scatter(ref_op *op)
{
	const npu_reftensor *x, *m, *src;
	npu_reftensor *y;
	int64_t shape[NPU_MAX_DIMS], n, k = 0;
	int nd;
	ref_iter it;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_tensor(op, 1, "mask", &m) < 0 ||
	    ref_tensor(op, 2, "source", &src) < 0 ||
	    ref_bshape(op, x->ndim, x->shape, m->ndim, m->shape, &nd, shape) < 0 ||
	    ref_out(op, 0, x->dtype, nd, shape, &y) < 0)
		return -1;
	ref_iter_init(&it, nd, shape, 2);
	ref_bstrides(x, nd, shape, it.st[0]);
	ref_bstrides(m, nd, shape, it.st[1]);
	n = npu_reftensor_numel(y);
	for (int64_t i = 0; i < n; i++, ref_iter_next(&it)) {
		if (m->data[it.off[1]] == 0) {
			y->data[i] = x->data[it.off[0]];
			continue;
		}
		if (k >= npu_reftensor_numel(src))
			return npu_errf(op->e, "source has %lld elements, the mask more true "
					"positions", (long long)npu_reftensor_numel(src));
		y->data[i] = ref_to_dtype(x->dtype, src->data[k++]);
	}
	return 0;
}

/* masked_select: self's elements where mask (both broadcast) is true,
 * in row-major order, as a 1-d tensor of as many (a data-dependent size:
 * a host call checks it against its buffer). */
int ref_masked_select(ref_op *op)
{
	const npu_reftensor *x, *m;
	npu_reftensor *y;
	int64_t shape[NPU_MAX_DIMS], n = 1, k = 0, cnt[1] = { 0 };
	int nd;
	ref_iter it;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_tensor(op, 1, "mask", &m) < 0 ||
	    ref_bshape(op, x->ndim, x->shape, m->ndim, m->shape, &nd, shape) < 0)
		return -1;
	for (int d = 0; d < nd; d++)
		n *= shape[d];
	ref_iter_init(&it, nd, shape, 2);
	ref_bstrides(x, nd, shape, it.st[0]);
	ref_bstrides(m, nd, shape, it.st[1]);
	for (int64_t i = 0; i < n; i++, ref_iter_next(&it))
		cnt[0] += m->data[it.off[1]] != 0;
	if (ref_out(op, 0, x->dtype, 1, cnt, &y) < 0)
		return -1;
	ref_iter_init(&it, nd, shape, 2);
	ref_bstrides(x, nd, shape, it.st[0]);
	ref_bstrides(m, nd, shape, it.st[1]);
	for (int64_t i = 0; i < n; i++, ref_iter_next(&it))
		if (m->data[it.off[1]] != 0)
			y->data[k++] = x->data[it.off[0]];
	return 0;
}

/* ---- reflection and replication padding -------------------------- */

/* Source index of padded position o in a dim of n with left pad lo:
 * mirrored without repeating the edge, or clamped to it. */
static int64_t pad_src(int64_t o, int64_t lo, int64_t n, int reflect)
{
	int64_t i = o - lo;

	if (reflect) {
		if (i < 0)
			i = -i;
		if (i >= n)
			i = 2 * (n - 1) - i;
		return i;
	}
	return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* reflection_pad{1,2,3}d, replication_pad{2,3}d: padding = [left, right]
 * for the last dim, then the one before, ...; each pad of a reflection
 * must be smaller than its dim. */
int ref_padmode(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t pad[6], shape[NPU_MAX_DIMS], lo[NPU_MAX_DIMS] = { 0 };
	int64_t idx[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
	int k, np, reflect;

	switch (op->id) {
	case NPU_AOP_REFLECTION_PAD1D: k = 1; break;
	case NPU_AOP_REFLECTION_PAD2D: case NPU_AOP_REPLICATION_PAD2D: k = 2; break;
	default: k = 3;
	}
	reflect = op->id == NPU_AOP_REFLECTION_PAD1D || op->id == NPU_AOP_REFLECTION_PAD2D ||
		  op->id == NPU_AOP_REFLECTION_PAD3D;
	if (ref_tensor(op, 0, "self", &x) < 0 || ref_ints(op, 1, "padding", pad, 6, &np) < 0)
		return -1;
	if (np != 2 * k || (x->ndim != k + 1 && x->ndim != k + 2))
		return npu_errf(op->e, "needs %d pads and a %d-d or %d-d input", 2 * k,
				k + 1, k + 2);
	memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
	for (int j = 0; j < k; j++) {
		int d = x->ndim - 1 - j;
		if (pad[2 * j] < 0 || pad[2 * j + 1] < 0 || !x->shape[d] ||
		    (reflect && (pad[2 * j] >= x->shape[d] || pad[2 * j + 1] >= x->shape[d])))
			return npu_errf(op->e, "padding (%lld, %lld) does not fit dim %d of "
					"size %lld", (long long)pad[2 * j],
					(long long)pad[2 * j + 1], d, (long long)x->shape[d]);
		lo[d] = pad[2 * j];
		shape[d] += pad[2 * j] + pad[2 * j + 1];
	}
	if (ref_out(op, 0, x->dtype, x->ndim, shape, &y) < 0)
		return -1;
	ref_strides(x->ndim, x->shape, st);
	for (int64_t i = 0, n = npu_reftensor_numel(y); i < n; i++) {
		int64_t off = 0;
		unravel(i, x->ndim, shape, idx);
		for (int d = 0; d < x->ndim; d++)
			off += (d < x->ndim - k ? idx[d] : pad_src(idx[d], lo[d], x->shape[d],
								   reflect)) * st[d];
		y->data[i] = x->data[off];
	}
	return 0;
}

/* ---- embedding backward and bags --------------------------------- */

/* embedding_dense_backward: grad_output [*indices.shape, D] summed into
 * the rows its indices name; rows equal to padding_idx get nothing, and
 * scale_grad_by_freq divides each contribution by its index's count. */
int ref_embed_bwd(ref_op *op)
{
	const npu_reftensor *go, *ix;
	npu_reftensor *y;
	int64_t nw, pad, shape[2], n, dim, *freq;
	int scale;

	if (ref_tensor(op, 0, "grad_output", &go) < 0 ||
	    ref_tensor(op, 1, "indices", &ix) < 0 ||
	    ref_int(op, 2, "num_weights", 0, &nw) < 0 ||
	    ref_int(op, 3, "padding_idx", -1, &pad) < 0 ||
	    ref_bool(op, 4, "scale_grad_by_freq", 0, &scale) < 0)
		return -1;
	n = npu_reftensor_numel(ix);
	dim = go->ndim ? go->shape[go->ndim - 1] : 0;
	if (go->ndim != ix->ndim + 1 || n * dim != npu_reftensor_numel(go) || nw < 0)
		return npu_errf(op->e, "grad_output must be [*indices.shape, D]");
	shape[0] = nw;
	shape[1] = dim;
	if (ref_out(op, 0, go->dtype, 2, shape, &y) < 0)
		return -1;
	if (!(freq = calloc((size_t)nw + 1, sizeof *freq)))
		return npu_errf(op->e, "out of memory");
	for (int64_t i = 0; i < n; i++) {
		int64_t r = (int64_t)ix->data[i];
		if (r < 0 || r >= nw) {
			free(freq);
			return npu_errf(op->e, "index %lld out of range for %lld rows",
					(long long)r, (long long)nw);
		}
		freq[r]++;
	}
	for (int64_t i = 0; i < n; i++) {
		int64_t r = (int64_t)ix->data[i];
		double f = scale ? (double)freq[r] : 1;
		if (r == pad)
			continue;
		for (int64_t j = 0; j < dim; j++)
			y->data[r * dim + j] += go->data[i * dim + j] / f;
	}
	free(freq);
	return 0;
}

/* The [start, end) range of bag b: offsets[b] to the next offset, the
 * last bag to the end of indices (unless include_last_offset). */
static void bag_range(const npu_reftensor *off, int64_t b, int64_t nbags,
		      int last, int64_t nidx, int64_t *s, int64_t *e)
{
	*s = (int64_t)off->data[b];
	*e = b + 1 < nbags || last ? (int64_t)off->data[b + 1] : nidx;
	*s = *s < 0 ? 0 : *s > nidx ? nidx : *s;
	*e = *e < *s ? *s : *e > nidx ? nidx : *e;
}

/* Reduces the weight rows of indices [s, e) into row (dim values): sum
 * (weighted by psw), mean, or max with the row of each maximum in mi.
 * Returns the number of rows used (padding_idx skipped), -1 on error. */
static int64_t bag_reduce(ref_op *op, const npu_reftensor *w, const npu_reftensor *ix,
			  const npu_reftensor *psw, int64_t pad, int mode, int64_t s,
			  int64_t e, double *row, double *mi)
{
	int64_t cnt = 0, dim = w->shape[1];

	for (int64_t i = s; i < e; i++) {
		int64_t r = (int64_t)ix->data[i];
		if (r < 0 || r >= w->shape[0])
			return npu_errf(op->e, "index %lld out of range", (long long)r);
		if (r == pad)
			continue;
		for (int64_t j = 0; j < dim; j++) {
			double v = w->data[r * dim + j] * (psw ? psw->data[i] : 1);
			if (mode != 2)
				row[j] += v;
			else if (!cnt || v > row[j] || isnan(v)) {
				row[j] = v;
				mi[j] = (double)r;
			}
		}
		cnt++;
	}
	for (int64_t j = 0; mode == 1 && cnt && j < dim; j++)
		row[j] /= (double)cnt;
	return cnt;
}

/*
 * _embedding_bag, modes 0 sum (times per_sample_weights if given), 1
 * mean, 2 max; rows equal to padding_idx are skipped; an empty bag is 0.
 * The auxiliary results follow PyTorch's CPU kernel: offset2bag is the
 * bag of each index ([0], unused, for fp32/fp16 sums without padding_idx),
 * bag_size the bag's count of non-padding indices (zeros for sum),
 * max_indices [B, D] the row each maximum came from (0 for an empty bag)
 * in max mode, else bag_size again.
 */
int ref_embed_bag(ref_op *op)
{
	const npu_reftensor *w, *ix, *off, *psw;
	npu_reftensor *y, *o2b, *bsz, *mi;
	int64_t mode, pad, nbags, nidx, dim, shape[2], no2b;
	int last;

	if (ref_tensor(op, 0, "weight", &w) < 0 || ref_tensor(op, 1, "indices", &ix) < 0 ||
	    ref_tensor(op, 2, "offsets", &off) < 0 || ref_int(op, 4, "mode", 0, &mode) < 0 ||
	    ref_bool(op, 7, "include_last_offset", 0, &last) < 0 ||
	    ref_int(op, 8, "padding_idx", -1, &pad) < 0)
		return -1;
	psw = ref_opt_tensor(op, 6, "per_sample_weights");
	nidx = npu_reftensor_numel(ix);
	if (w->ndim != 2 || ix->ndim != 1 || off->ndim != 1 || mode < 0 || mode > 2 ||
	    (psw && (mode != 0 || npu_reftensor_numel(psw) != nidx)))
		return npu_errf(op->e, "needs a 2-d weight, 1-d indices and offsets, mode 0-2 "
				"(per_sample_weights only with mode 0, one per index)");
	nbags = off->shape[0] - (last ? 1 : 0);
	nbags = nbags < 0 ? 0 : nbags;
	dim = w->shape[1];
	shape[0] = nbags;
	shape[1] = dim;
	/* PyTorch's fast path (fp32 and fp16 sums without padding_idx)
	 * leaves offset2bag empty */
	no2b = mode == 0 && pad < 0 && (w->dtype == NPU_DT_F32 || w->dtype == NPU_DT_F16)
	       ? 0 : nidx;
	if (ref_out(op, 0, w->dtype, 2, shape, &y) < 0 ||
	    ref_out(op, 1, NPU_DT_I64, 1, &no2b, &o2b) < 0 ||
	    ref_out(op, 2, NPU_DT_I64, 1, &nbags, &bsz) < 0 ||
	    ref_out(op, 3, NPU_DT_I64, mode == 2 ? 2 : 1, shape, &mi) < 0)
		return -1;
	for (int64_t b = 0; b < nbags; b++) {
		int64_t s, e, cnt;
		bag_range(off, b, nbags, last, nidx, &s, &e);
		if ((cnt = bag_reduce(op, w, ix, psw, pad, (int)mode, s, e, y->data + b * dim,
				      mi->data + (mode == 2 ? b * dim : 0))) < 0)
			return -1;
		for (int64_t i = s; no2b && i < e; i++)
			o2b->data[i] = (double)b;
		bsz->data[b] = mode ? (double)cnt : 0;
		if (mode != 2)
			mi->data[b] = bsz->data[b];
	}
	return 0;
}

/* ---- random ------------------------------------------------------ */

/*
 * PyTorch's random stream (Philox on GPU, mt19937 on CPU, consumed in
 * kernel-specific order) cannot be reproduced here, so the random ops
 * fail with a clear message.  native_dropout is deterministic when it
 * does not drop: train false or p == 0 give the input and an all-true
 * mask, p == 1 gives input * 0 and an all-false mask (bernoulli(0)).
 */
int ref_random(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y, *mask;
	double p;
	int train;

	if (op->id != NPU_AOP_DROPOUT)
		return npu_errf(op->e, "random numbers are not reproducible: PyTorch's "
				"random stream cannot be replayed");
	if (ref_tensor(op, 0, "input", &x) < 0 || ref_double(op, 1, "p", 0.5, &p) < 0 ||
	    ref_bool(op, 2, "train", 1, &train) < 0)
		return -1;
	if (train && p != 0 && p != 1)
		return npu_errf(op->e, "dropout with p = %g in training mode draws random "
				"numbers, which are not reproducible", p);
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0 ||
	    ref_out(op, 1, NPU_DT_BOOL, x->ndim, x->shape, &mask) < 0)
		return -1;
	for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++) {
		int keep = !train || p == 0;
		y->data[i] = keep ? x->data[i] : x->data[i] * 0;
		mask->data[i] = keep;
	}
	return 0;
}
