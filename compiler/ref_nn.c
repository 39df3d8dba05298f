/*
 * ref_nn.c - reductions, softmax, matrix products, convolution (forward
 * and backward), pooling, normalization and quantization kernels of the
 * reference interpreter.
 *
 * Sums accumulate in fp64 in index order; products go through OpenBLAS's
 * dgemm (exact for the integer products of _int_mm, whose sums stay far
 * below 2^53).  Convolution is im2col followed by one dgemm per image and
 * group, which keeps ResNet-18 at 224x224 to a few seconds.
 */
#include "compiler/ref_int.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

/* ---- reductions -------------------------------------------------- */

typedef struct red {
	int mask[NPU_MAX_DIMS];      /* reduced dims of the input */
	int nd;                      /* result rank */
	int64_t shape[NPU_MAX_DIMS]; /* result shape */
	int64_t ist[NPU_MAX_DIMS];   /* per input dim: stride into the result */
	int64_t count;               /* input elements per result element */
} red;

/* Sets up a reduction of x over dims (ndims < 0: all dims). */
static int red_setup(ref_op *op, const npu_reftensor *x, const int64_t *dims,
		     int ndims, int keep, red *r)
{
	int64_t kshape[NPU_MAX_DIMS], kst[NPU_MAX_DIMS];
	int d;

	memset(r, 0, sizeof *r);
	for (int i = 0; i < (ndims < 0 ? x->ndim : ndims); i++) {
		if (ndims < 0)
			d = i;
		else if (ref_dim(op, dims[i], x->ndim, &d) < 0)
			return -1;
		if (x->ndim)
			r->mask[d] = 1;
	}
	r->count = 1;
	for (int i = 0; i < x->ndim; i++) {
		kshape[i] = r->mask[i] ? 1 : x->shape[i];
		if (r->mask[i])
			r->count *= x->shape[i];
		if (keep || !r->mask[i])
			r->shape[r->nd++] = kshape[i];
	}
	ref_strides(x->ndim, kshape, kst);
	for (int i = 0; i < x->ndim; i++)
		r->ist[i] = r->mask[i] ? 0 : kst[i];
	return 0;
}

/* The dims argument: a list, one int, or None / [] for all (-1). */
static int red_dims(ref_op *op, int i, const char *name, int64_t *dims, int *n)
{
	int present = ref_ints(op, i, name, dims, NPU_MAX_DIMS, n);

	if (present < 0)
		return -1;
	if (!present || !*n)
		*n = -1;
	return 0;
}

int ref_reduce(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t dims[NPU_MAX_DIMS], n;
	int nd = -1, keep = 0, id = op->id, dt;
	int all = id == NPU_AOP_SUM || id == NPU_AOP_MEAN || id == NPU_AOP_ANY ||
		  id == NPU_AOP_ALL || id == NPU_AOP_PROD || id == NPU_AOP_MAX ||
		  id == NPU_AOP_MIN;
	red r;
	ref_iter it;
	double init;

	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	if (!all && (red_dims(op, 1, "dim", dims, &nd) < 0 ||
		     ref_bool(op, 2, "keepdim", 0, &keep) < 0))
		return -1;
	if (red_setup(op, x, dims, nd, keep, &r) < 0)
		return -1;
	dt = x->dtype;
	switch (id) {
	case NPU_AOP_ANY_DIM: case NPU_AOP_ANY_DIMS: case NPU_AOP_ANY:
		init = 0;
		dt = NPU_DT_BOOL;
		break;
	case NPU_AOP_ALL_DIM: case NPU_AOP_ALL:
		init = 1;
		dt = NPU_DT_BOOL;
		break;
	case NPU_AOP_MAX: case NPU_AOP_MIN:
		if (!npu_reftensor_numel(x))
			return npu_errf(op->e, "%s of an empty tensor (PyTorch "
					"refuses it too)", op->id == NPU_AOP_MAX ? "max" : "min");
		init = id == NPU_AOP_MAX ? -INFINITY : INFINITY;
		break;
	case NPU_AOP_AMAX: init = -INFINITY; break;
	case NPU_AOP_AMIN: init = INFINITY; break;
	default:
		/* sum, mean, prod: integers accumulate as int64 */
		init = id == NPU_AOP_PROD_DIM || id == NPU_AOP_PROD;
		if (!ref_is_float(dt))
			dt = NPU_DT_I64;
		if (ref_dtype(op, -1, "dtype", dt, &dt) < 0)
			return -1;
	}
	if (ref_out(op, 0, dt, r.nd, r.shape, &y) < 0)
		return -1;
	for (int64_t i = 0, m = npu_reftensor_numel(y); i < m; i++)
		y->data[i] = init;
	ref_iter_init(&it, x->ndim, x->shape, 1);
	memcpy(it.st[0], r.ist, sizeof r.ist);
	n = npu_reftensor_numel(x);
	for (int64_t i = 0; i < n; i++, ref_iter_next(&it)) {
		double v = x->data[i], *o = &y->data[it.off[0]];
		switch (id) {
		case NPU_AOP_AMAX: case NPU_AOP_MAX:
			if (isnan(v) || v > *o)
				*o = v;
			break;
		case NPU_AOP_AMIN: case NPU_AOP_MIN:
			if (isnan(v) || v < *o)
				*o = v;
			break;
		case NPU_AOP_PROD_DIM: case NPU_AOP_PROD: *o *= v; break;
		case NPU_AOP_ANY_DIM: case NPU_AOP_ANY_DIMS: case NPU_AOP_ANY:
			*o = *o != 0 || v != 0; break;
		case NPU_AOP_ALL_DIM: case NPU_AOP_ALL:
			*o = *o != 0 && v != 0; break;
		default: *o += v;
		}
	}
	if (id == NPU_AOP_MEAN || id == NPU_AOP_MEAN_DIM)
		for (int64_t i = 0, m = npu_reftensor_numel(y); i < m; i++)
			y->data[i] /= (double)r.count;
	return 0;
}

/* var, std, var_mean (correction: the divisor is N - correction); var.dim
 * spells the correction as a positional `unbiased` flag (1 or 0). */
int ref_var(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *v, *mean;
	int64_t dims[NPU_MAX_DIMS], n;
	int nd, keep, dt, unbiased, vd = op->id == NPU_AOP_VAR_DIM;
	double corr;
	red r;
	ref_iter it;

	if (ref_tensor(op, 0, "self", &x) < 0 || red_dims(op, 1, "dim", dims, &nd) < 0)
		return -1;
	if (vd) {
		if (ref_bool(op, 2, "unbiased", 1, &unbiased) < 0 ||
		    ref_bool(op, 3, "keepdim", 0, &keep) < 0)
			return -1;
		corr = unbiased;
	} else if (ref_double(op, -1, "correction", 1, &corr) < 0 ||
		   ref_bool(op, -1, "keepdim", 0, &keep) < 0) {
		return -1;
	}
	if (red_setup(op, x, dims, nd, keep, &r) < 0)
		return -1;
	dt = ref_is_float(x->dtype) ? x->dtype : NPU_DT_F32;
	if (ref_out(op, 0, dt, r.nd, r.shape, &v) < 0 ||
	    ref_out(op, 1, dt, r.nd, r.shape, &mean) < 0)
		return -1;
	n = npu_reftensor_numel(x);
	for (int pass = 0; pass < 2; pass++) {
		ref_iter_init(&it, x->ndim, x->shape, 1);
		memcpy(it.st[0], r.ist, sizeof r.ist);
		for (int64_t i = 0; i < n; i++, ref_iter_next(&it)) {
			double d = x->data[i];
			if (pass == 0)
				mean->data[it.off[0]] += d;
			else
				v->data[it.off[0]] += (d - mean->data[it.off[0]]) *
						      (d - mean->data[it.off[0]]);
		}
		for (int64_t i = 0, m = npu_reftensor_numel(v); i < m; i++)
			if (pass == 0)
				mean->data[i] /= (double)r.count;
			else
				v->data[i] /= fmax(0, (double)r.count - corr);
	}
	if (op->id == NPU_AOP_STD || op->id == NPU_AOP_STD_MEAN)
		for (int64_t i = 0, m = npu_reftensor_numel(v); i < m; i++)
			v->data[i] = sqrt(v->data[i]);
	if (op->id != NPU_AOP_VAR_MEAN && op->id != NPU_AOP_STD_MEAN) {
		npu_reftensor_free(&op->out[1]);
		op->nout = 1;
	}
	return 0;
}

/* x as [outer, n, inner] around dim d. */
static void split3(const npu_reftensor *x, int d, int64_t *outer, int64_t *n,
		   int64_t *inner)
{
	*outer = *inner = 1;
	*n = x->ndim ? x->shape[d] : 1;
	for (int i = 0; i < d; i++)
		*outer *= x->shape[i];
	for (int i = d + 1; i < x->ndim; i++)
		*inner *= x->shape[i];
}

/* max.dim, min.dim, argmax, argmin: the first extreme wins; NaN is the
 * extreme (PyTorch propagates it). */
int ref_argred(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *val = NULL, *idx;
	int64_t dimv, outer, n, inner, shape[NPU_MAX_DIMS];
	int d = 0, keep, nd = 0, flat, id = op->id;
	int ismax = id == NPU_AOP_MAX_DIM || id == NPU_AOP_ARGMAX;
	npu_reftensor flatx;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_bool(op, 2, "keepdim", 0, &keep) < 0)
		return -1;
	flat = !ref_arg(op, 1, "dim");
	if (flat && (id == NPU_AOP_MAX_DIM || id == NPU_AOP_MIN_DIM))
		return npu_errf(op->e, "missing dim");
	if (!flat && (ref_int(op, 1, "dim", 0, &dimv) < 0 ||
		      ref_dim(op, dimv, x->ndim, &d) < 0))
		return -1;
	if (npu_reftensor_numel(x) == 0)
		return npu_errf(op->e, "reduction of an empty tensor");
	flatx = *x;
	if (flat) {
		flatx.ndim = 1;
		flatx.shape[0] = npu_reftensor_numel(x);
		for (int i = 0; keep && i < x->ndim; i++)
			shape[nd++] = 1;
	} else {
		for (int i = 0; i < x->ndim; i++)
			if (i != d || keep)
				shape[nd++] = i == d ? 1 : x->shape[i];
	}
	split3(&flatx, d, &outer, &n, &inner);
	if ((ismax ? id == NPU_AOP_MAX_DIM : id == NPU_AOP_MIN_DIM) &&
	    ref_out(op, 0, x->dtype, nd, shape, &val) < 0)
		return -1;
	if (ref_out(op, val ? 1 : 0, NPU_DT_I64, nd, shape, &idx) < 0)
		return -1;
	for (int64_t o = 0; o < outer; o++)
		for (int64_t in = 0; in < inner; in++) {
			const double *p = flatx.data + o * n * inner + in;
			double best = p[0];
			int64_t bi = 0;
			for (int64_t k = 1; k < n && !isnan(best); k++) {
				double v = p[k * inner];
				if (isnan(v) || (ismax ? v > best : v < best)) {
					best = v;
					bi = k;
				}
			}
			if (val)
				val->data[o * inner + in] = best;
			idx->data[o * inner + in] = (double)bi;
		}
	return 0;
}

/* smooth_l1_loss, huber_loss and l1_loss of equal shapes, then the reduction: 0
 * none, 1 mean, 2 sum. */
int ref_loss(ref_op *op)
{
	const npu_reftensor *x, *t;
	npu_reftensor *y;
	int64_t rd, n;
	double beta = 1, acc = 0;
	int smooth = op->id == NPU_AOP_SMOOTH_L1_LOSS, huber = op->id == NPU_AOP_HUBER_LOSS;
	int mse = op->id == NPU_AOP_MSE_LOSS;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_tensor(op, 1, "target", &t) < 0 ||
	    ref_int(op, 2, "reduction", 1, &rd) < 0 ||
	    (smooth && ref_double(op, 3, "beta", 1.0, &beta) < 0) ||
	    (huber && ref_double(op, 3, "delta", 1.0, &beta) < 0))
		return -1;
	if (!ref_same_shape(x, t))
		return npu_errf(op->e, "self and target differ in shape");
	if (rd < 0 || rd > 2 || beta < 0)
		return npu_errf(op->e, "bad reduction or beta");
	n = npu_reftensor_numel(x);
	if (ref_out(op, 0, x->dtype, rd ? 0 : x->ndim, x->shape, &y) < 0)
		return -1;
	for (int64_t i = 0; i < n; i++) {
		double d = fabs(x->data[i] - t->data[i]), l = d;
		if (smooth && d < beta)
			l = 0.5 * d * d / beta;
		else if (smooth)
			l = d - 0.5 * beta;
		else if (huber)   /* beta holds delta */
			l = d < beta ? 0.5 * d * d : beta * (d - 0.5 * beta);
		else if (mse)
			l = d * d;
		if (rd)
			acc += l;
		else
			y->data[i] = l;
	}
	if (rd)
		y->data[0] = rd == 1 ? acc / (double)n : acc;
	return 0;
}

/* mse_loss_backward(grad_output, self, target, reduction), as ATen's
 * kernel: norm * (self - target) * grad_output, grad_output one value
 * for the mean (norm 2 / numel) and the sum (norm 2), else elementwise. */
int ref_loss_bwd(ref_op *op)
{
	const npu_reftensor *g, *x, *t;
	npu_reftensor *y;
	int64_t rd, n;
	double norm;

	if (ref_tensor(op, 0, "grad_output", &g) < 0 || ref_tensor(op, 1, "self", &x) < 0 ||
	    ref_tensor(op, 2, "target", &t) < 0 || ref_int(op, 3, "reduction", 1, &rd) < 0)
		return -1;
	n = npu_reftensor_numel(x);
	if (!ref_same_shape(x, t))
		return npu_errf(op->e, "self and target differ in shape");
	if (rd < 0 || rd > 2 || npu_reftensor_numel(g) != (rd ? 1 : n))
		return npu_errf(op->e, "bad reduction, or grad_output of the wrong size");
	norm = rd == 1 ? 2.0 / (double)n : 2.0;
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
		return -1;
	for (int64_t i = 0; i < n; i++)
		y->data[i] = norm * (x->data[i] - t->data[i]) * g->data[rd ? 0 : i];
	return 0;
}

/*
 * nll_loss_forward(self, target, weight, reduction, ignore_index) and
 * nll_loss_backward(grad_output, self, target, weight, reduction,
 * ignore_index, total_weight), as ATen's CPU kernels: self [N, C] with
 * target [N], or [C] with a 0-dim target; a target equal to ignore_index
 * counts nothing.
 */
int ref_nll(ref_op *op)
{
	int bwd = op->id == NPU_AOP_NLL_BWD, k = bwd;
	const npu_reftensor *g = NULL, *x, *t, *w, *tw = NULL;
	npu_reftensor *y, *y2 = NULL;
	int64_t rd, ig, N, C;
	double sum = 0, wsum = 0;

	if ((bwd && ref_tensor(op, 0, "grad_output", &g) < 0) ||
	    ref_tensor(op, k, "self", &x) < 0 || ref_tensor(op, k + 1, "target", &t) < 0 ||
	    ref_int(op, k + 3, "reduction", 1, &rd) < 0 ||
	    ref_int(op, k + 4, "ignore_index", -100, &ig) < 0 ||
	    (bwd && ref_tensor(op, 6, "total_weight", &tw) < 0))
		return -1;
	w = ref_opt_tensor(op, k + 2, "weight");
	if (x->ndim < 1 || x->ndim > 2 || rd < 0 || rd > 2)
		return npu_errf(op->e, "self of 1 or 2 dims and a reduction of 0, 1 or 2");
	N = x->ndim == 2 ? x->shape[0] : 1;
	C = x->shape[x->ndim - 1];
	if (npu_reftensor_numel(t) != N || (w && npu_reftensor_numel(w) != C) ||
	    (g && npu_reftensor_numel(g) != (rd || x->ndim == 1 ? 1 : N)))
		return npu_errf(op->e, "target, weight or grad_output of the wrong size");
	if (bwd ? ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0 :
	    ref_out(op, 0, x->dtype, rd || x->ndim == 1 ? 0 : 1, &N, &y) < 0 ||
	    ref_out(op, 1, x->dtype, 0, &N, &y2) < 0)
		return -1;
	op->nout = bwd ? 1 : 2;
	for (int64_t n = 0; n < N; n++) {
		int64_t c = (int64_t)t->data[n];
		double wc, l;
		if (c == ig)
			continue;
		if (c < 0 || c >= C)
			return npu_errf(op->e, "target %lld is out of bounds for %lld classes",
					(long long)c, (long long)C);
		wc = w ? w->data[c] : 1;
		wsum += wc;
		if (bwd) {
			l = g->data[rd || x->ndim == 1 ? 0 : n];
			y->data[n * C + c] = -wc * (rd == 1 ? l / tw->data[0] : l);
		} else {
			l = -x->data[n * C + c] * wc;
			if (rd || x->ndim == 1)
				sum += l;
			else
				y->data[n] = l;
		}
	}
	if (!bwd) {
		if (rd || x->ndim == 1)
			y->data[0] = rd == 1 ? sum / wsum : sum;
		y2->data[0] = rd || x->ndim == 1 ? wsum : 0;
	}
	return 0;
}

/* prelu: the weight is one value, or one per channel along dim 1 (dim 0
 * of a 1-d input). */
int ref_prelu(ref_op *op)
{
	const npu_reftensor *x, *w;
	npu_reftensor *y;
	int64_t n, c, inner = 1, nw;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_tensor(op, 1, "weight", &w) < 0)
		return -1;
	nw = npu_reftensor_numel(w);
	c = x->ndim >= 2 ? x->shape[1] : x->ndim == 1 ? x->shape[0] : 1;
	if (nw != 1 && nw != c)
		return npu_errf(op->e, "weight of %lld values for %lld channels",
				(long long)nw, (long long)c);
	for (int i = x->ndim >= 2 ? 2 : 1; i < x->ndim; i++)
		inner *= x->shape[i];
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
		return -1;
	n = npu_reftensor_numel(x);
	for (int64_t i = 0; i < n; i++) {
		double v = x->data[i], k = w->data[nw == 1 ? 0 : i / inner % c];
		y->data[i] = v > 0 ? v : k * v;
	}
	return 0;
}

/* _weight_norm_interface(v, g, dim): w = v * g / |v|, the norm over every
 * dim of v but dim (shaped as v with those dims 1), and that norm. */
int ref_weightnorm(ref_op *op)
{
	const npu_reftensor *v, *g;
	npu_reftensor *w, *nrm;
	int64_t dimv, outer, n, inner, shape[NPU_MAX_DIMS];
	int d;

	if (ref_tensor(op, 0, "v", &v) < 0 || ref_tensor(op, 1, "g", &g) < 0 ||
	    ref_int(op, 2, "dim", 0, &dimv) < 0 || ref_dim(op, dimv, v->ndim, &d) < 0)
		return -1;
	split3(v, d, &outer, &n, &inner);
	if (npu_reftensor_numel(g) != n)
		return npu_errf(op->e, "g has %lld values for a dim of %lld",
				(long long)npu_reftensor_numel(g), (long long)n);
	for (int i = 0; i < v->ndim; i++)
		shape[i] = i == d ? n : 1;
	if (ref_out(op, 0, v->dtype, v->ndim, v->shape, &w) < 0 ||
	    ref_out(op, 1, v->dtype, v->ndim, shape, &nrm) < 0)
		return -1;
	for (int64_t k = 0; k < n; k++) {
		double s = 0;
		for (int64_t o = 0; o < outer; o++)
			for (int64_t in = 0; in < inner; in++) {
				double x = v->data[(o * n + k) * inner + in];
				s += x * x;
			}
		nrm->data[k] = sqrt(s);
		for (int64_t o = 0; o < outer; o++)
			for (int64_t in = 0; in < inner; in++) {
				int64_t at = (o * n + k) * inner + in;
				w->data[at] = v->data[at] * (g->data[k] / nrm->data[k]);
			}
	}
	return 0;
}

int ref_cumsum(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t dimv, outer, n, inner;
	int d, dt, prod = op->id == NPU_AOP_CUMPROD;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_int(op, 1, "dim", 0, &dimv) < 0 ||
	    ref_dim(op, dimv, x->ndim, &d) < 0)
		return -1;
	dt = ref_is_float(x->dtype) ? x->dtype : NPU_DT_I64;
	if (ref_dtype(op, -1, "dtype", dt, &dt) < 0 ||
	    ref_out(op, 0, dt, x->ndim, x->shape, &y) < 0)
		return -1;
	split3(x, d, &outer, &n, &inner);
	for (int64_t o = 0; o < outer; o++)
		for (int64_t in = 0; in < inner; in++) {
			double s = prod ? 1 : 0;
			for (int64_t k = 0; k < n; k++) {
				int64_t at = (o * n + k) * inner + in;
				s = prod ? s * x->data[at] : s + x->data[at];
				y->data[at] = ref_to_dtype(dt, s);
			}
		}
	return 0;
}

/* histc: counts in bins equal-width bins over [min, max] (the data's
 * range when min == max, widened by 1 when that is one value), the
 * value max in the last bin, values outside ignored; PyTorch refuses
 * non-finite bounds. */
int ref_histc(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t bins, n, nb;
	double lo, hi;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_int(op, 1, "bins", 100, &bins) < 0 ||
	    ref_double(op, 2, "min", 0, &lo) < 0 || ref_double(op, 3, "max", 0, &hi) < 0)
		return -1;
	if (bins < 1 || lo > hi)
		return npu_errf(op->e, "histc: bins must be positive and min <= max");
	n = npu_reftensor_numel(x);
	if (lo == hi && n > 0) {
		lo = hi = x->data[0];
		for (int64_t i = 1; i < n; i++) {
			lo = x->data[i] < lo ? x->data[i] : lo;
			hi = x->data[i] > hi ? x->data[i] : hi;
		}
	}
	if (lo == hi) {
		lo -= 1;
		hi += 1;
	}
	if (!isfinite(lo) || !isfinite(hi))
		return npu_errf(op->e, "histc: range of [%g, %g] is not finite", lo, hi);
	nb = bins;
	if (ref_out(op, 0, ref_is_float(x->dtype) ? x->dtype : NPU_DT_F32, 1, &nb, &y) < 0)
		return -1;
	for (int64_t i = 0; i < n; i++) {
		double v = x->data[i];
		int64_t b;
		if (!(v >= lo && v <= hi))
			continue;
		/* which bin is PyTorch's decision, made in the input's type and
		 * in this order: a float32 value on a bin's edge goes where its
		 * float32 arithmetic puts it, not where exact arithmetic would */
		if (x->dtype == NPU_DT_F32)
			b = (int64_t)(((float)v - (float)lo) / ((float)hi - (float)lo) * (float)bins);
		else
			b = (int64_t)((v - lo) / (hi - lo) * (double)bins);
		y->data[b < bins ? b : bins - 1] += 1;
	}
	return 0;
}

/*
 * bucketize(self, boundaries) and searchsorted(sorted_sequence, self):
 * for each value, ATen's binary search over its row of the boundaries
 * (one 1-d row for all, or one per leading index): the first position
 * whose boundary is not below the value (>= it; right or side 'right':
 * above it), NaN counting as above every number.  int64, or int32 by
 * out_int32.
 */
int ref_bucket(ref_op *op)
{
	int srt = op->id == NPU_AOP_SEARCHSORTED, right, i32;
	const npu_reftensor *v, *b;
	const npu_gval *side = ref_arg(op, 4, "side");
	npu_reftensor *y;
	int64_t n, m, k;

	if (ref_tensor(op, srt ? 1 : 0, "self", &v) < 0 ||
	    ref_tensor(op, srt ? 0 : 1, srt ? "sorted_sequence" : "boundaries", &b) < 0 ||
	    ref_bool(op, 2, "out_int32", 0, &i32) < 0 || ref_bool(op, 3, "right", 0, &right) < 0)
		return -1;
	if (srt && side && side->kind == NPU_GV_STR)
		right = !strcmp(side->u.s, "right");
	if (ref_arg(op, 5, "sorter") && ref_arg(op, 5, "sorter")->kind != NPU_GV_NONE)
		return npu_errf(op->e, "searchsorted: a sorter is not supported");
	if (b->ndim < 1 || (b->ndim > 1 && (b->ndim != v->ndim ||
	    memcmp(b->shape, v->shape, (size_t)(b->ndim - 1) * sizeof *b->shape))))
		return npu_errf(op->e, "the boundaries must be 1-d or match the values' leading dims");
	m = b->shape[b->ndim - 1];
	n = npu_reftensor_numel(v);
	k = v->ndim ? v->shape[v->ndim - 1] : 1;
	if (ref_out(op, 0, i32 ? NPU_DT_I32 : NPU_DT_I64, v->ndim, v->shape, &y) < 0)
		return -1;
	for (int64_t i = 0; i < n; i++) {
		const double *row = b->data + (b->ndim > 1 ? i / k * m : 0);
		int64_t lo = 0, hi = m;
		while (lo < hi) {
			int64_t mid = lo + ((hi - lo) >> 1);
			if (right ? !(row[mid] > v->data[i]) : !(row[mid] >= v->data[i]))
				lo = mid + 1;
			else
				hi = mid;
		}
		y->data[i] = (double)lo;
	}
	return 0;
}

/* One |x| into a norm's running value y (its start norm_init's), and
 * the norm of the final one: sum |x|^ord ^ (1/ord); inf, -inf: max,
 * min |x| (NaN sticks); 0: the count of nonzeros. */
static double norm_init(double ord)
{
	return isinf(ord) && ord < 0 ? INFINITY : 0;
}

static double norm_step(double y, double a, double ord)
{
	if (isinf(ord))
		return ord > 0 ? (a > y || isnan(a) ? a : y) : (a < y || isnan(a) ? a : y);
	return y + (ord == 0 ? a != 0 : ord == 2 ? a * a : ord == 1 ? a : pow(a, ord));
}

static double norm_end(double y, double ord)
{
	return isinf(ord) || ord == 0 || ord == 1 ? y : ord == 2 ? sqrt(y) : pow(y, 1 / ord);
}

/* linalg_vector_norm over dims (norm_step's orders) */
int ref_vecnorm(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	double ord;
	int64_t dims[NPU_MAX_DIMS];
	int nd, keep;
	red r;
	ref_iter it;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_double(op, 1, "ord", 2, &ord) < 0 ||
	    red_dims(op, 2, "dim", dims, &nd) < 0 || ref_bool(op, 3, "keepdim", 0, &keep) < 0 ||
	    red_setup(op, x, dims, nd, keep, &r) < 0 ||
	    ref_out(op, 0, ref_is_float(x->dtype) ? x->dtype : NPU_DT_F32, r.nd, r.shape, &y) < 0)
		return -1;
	for (int64_t i = 0, m = npu_reftensor_numel(y); i < m; i++)
		y->data[i] = norm_init(ord);
	ref_iter_init(&it, x->ndim, x->shape, 1);
	memcpy(it.st[0], r.ist, sizeof r.ist);
	for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++, ref_iter_next(&it))
		y->data[it.off[0]] = norm_step(y->data[it.off[0]], fabs(x->data[i]), ord);
	for (int64_t i = 0, m = npu_reftensor_numel(y); i < m; i++)
		y->data[i] = norm_end(y->data[i], ord);
	return 0;
}

/* dist(self, other, p): the p-norm of self - other (broadcast) over
 * every element (norm_step's orders). */
int ref_dist(ref_op *op)
{
	const npu_reftensor *a, *b;
	npu_reftensor *y;
	int64_t shape[NPU_MAX_DIMS], n = 1;
	double p, s;
	int nd;
	ref_iter it;

	if (ref_tensor(op, 0, "self", &a) < 0 || ref_tensor(op, 1, "other", &b) < 0 ||
	    ref_double(op, 2, "p", 2, &p) < 0 ||
	    ref_bshape(op, a->ndim, a->shape, b->ndim, b->shape, &nd, shape) < 0 ||
	    ref_out(op, 0, ref_promote(a->dtype, b->dtype), 0, NULL, &y) < 0)
		return -1;
	for (int d = 0; d < nd; d++)
		n *= shape[d];
	ref_iter_init(&it, nd, shape, 2);
	ref_bstrides(a, nd, shape, it.st[0]);
	ref_bstrides(b, nd, shape, it.st[1]);
	s = norm_init(p);
	for (int64_t i = 0; i < n; i++, ref_iter_next(&it))
		s = norm_step(s, fabs(a->data[it.off[0]] - b->data[it.off[1]]), p);
	y->data[0] = norm_end(s, p);
	return 0;
}

/* Orders positions a, b of row p (stride st) for sort/topk: descending
 * puts larger first; NaN counts as the largest (PyTorch); ties keep the
 * index order (stable). */
typedef struct sortcx {
	const double *p;
	int64_t st;
	int desc;
} sortcx;

static int before(const sortcx *c, int64_t a, int64_t b)
{
	double x = c->p[a * c->st], y = c->p[b * c->st];
	int xn = isnan(x), yn = isnan(y);

	if (xn || yn)
		return xn && !yn ? c->desc : !xn && yn ? !c->desc : a < b;
	if (x != y)
		return c->desc ? x > y : x < y;
	return a < b;
}

/* A stable merge sort of idx[0, n) by before(). */
static void msort(const sortcx *c, int64_t *idx, int64_t *tmp, int64_t n)
{
	int64_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	msort(c, idx, tmp, h);
	msort(c, idx + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = before(c, idx[j], idx[i]) ? idx[j++] : idx[i++];
	while (i < h)
		tmp[k++] = idx[i++];
	while (j < n)
		tmp[k++] = idx[j++];
	memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

/* sort (all of dim, ascending unless descending) and topk (the k first
 * in descending order when largest, else ascending). */
/* The index and scratch arrays of order() for slices of n. */
static int order_bufs(ref_op *op, int64_t n, int64_t **idx, int64_t **tmp)
{
	*idx = malloc((size_t)(n + 1) * sizeof **idx);
	*tmp = malloc((size_t)(n + 1) * sizeof **tmp);
	if (*idx && *tmp)
		return 0;
	free(*idx);
	free(*tmp);
	return npu_errf(op->e, "out of memory");
}

/* idx[0..n): the slice c's positions in sorted order (stable). */
static void order(const sortcx *c, int64_t *idx, int64_t *tmp, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		idx[i] = i;
	msort(c, idx, tmp, n);
}

/*
 * topk's order as PyTorch's CPU kernel leaves it, ties included
 * (aten/src/ATen/native/TopKImpl.h): when k * 64 <= n, std::partial_sort
 * of the first k; else std::nth_element at k - 1, then, if sorted,
 * std::sort of the k - 1 before it.  Their comparison has no tie-break
 * (x > y, NaN the largest; x < y, NaN last, for the smallest), so which
 * of equal values come first is decided by the algorithms' swaps: those
 * below are libstdc++'s (stl_algo.h, stl_heap.h), step for step, as
 * PyTorch's Linux builds run them.  Random weights make ties common
 * (most of RT-DETR's anchors score alike), and a different choice among
 * them changes every result downstream.
 */
static int cmp_lt(const sortcx *c, int64_t a, int64_t b)
{
	double x = c->p[a * c->st], y = c->p[b * c->st];

	if (c->desc)
		return (isnan(x) && !isnan(y)) || x > y;
	return (!isnan(x) && isnan(y)) || x < y;
}

static void iswap(int64_t *a, int64_t i, int64_t j)
{
	int64_t t = a[i];

	a[i] = a[j];
	a[j] = t;
}

static void push_heap(const sortcx *c, int64_t *a, int64_t hole, int64_t top,
		      int64_t v)
{
	int64_t parent = (hole - 1) / 2;

	while (hole > top && cmp_lt(c, a[parent], v)) {
		a[hole] = a[parent];
		hole = parent;
		parent = (hole - 1) / 2;
	}
	a[hole] = v;
}

static void adjust_heap(const sortcx *c, int64_t *a, int64_t hole, int64_t len,
			int64_t v)
{
	int64_t top = hole, child = hole;

	while (child < (len - 1) / 2) {
		child = 2 * (child + 1);
		if (cmp_lt(c, a[child], a[child - 1]))
			child--;
		a[hole] = a[child];
		hole = child;
	}
	if ((len & 1) == 0 && child == (len - 2) / 2) {
		child = 2 * (child + 1);
		a[hole] = a[child - 1];
		hole = child - 1;
	}
	push_heap(c, a, hole, top, v);
}

/* The heap a[0, len) gives its top to a[at], which it takes in. */
static void pop_heap(const sortcx *c, int64_t *a, int64_t len, int64_t at)
{
	int64_t v = a[at];

	a[at] = a[0];
	adjust_heap(c, a, 0, len, v);
}

static void heap_select(const sortcx *c, int64_t *a, int64_t mid, int64_t n)
{
	for (int64_t p = mid >= 2 ? (mid - 2) / 2 : -1; p >= 0; p--)
		adjust_heap(c, a, p, mid, a[p]);
	for (int64_t i = mid; i < n; i++)
		if (cmp_lt(c, a[i], a[0]))
			pop_heap(c, a, mid, i);
}

static void partial_sort(const sortcx *c, int64_t *a, int64_t mid, int64_t n)
{
	heap_select(c, a, mid, n);
	for (int64_t len = mid; len > 1; len--)
		pop_heap(c, a, len - 1, len - 1);
}

static void linear_insert(const sortcx *c, int64_t *a, int64_t i)
{
	int64_t v = a[i];

	for (; cmp_lt(c, v, a[i - 1]); i--)
		a[i] = a[i - 1];
	a[i] = v;
}

static void insertion_sort(const sortcx *c, int64_t *a, int64_t n)
{
	for (int64_t i = 1; i < n; i++) {
		if (cmp_lt(c, a[i], a[0])) {
			int64_t v = a[i];
			memmove(a + 1, a, (size_t)i * sizeof *a);
			a[0] = v;
		} else {
			linear_insert(c, a, i);
		}
	}
}

/* The median of a[x], a[y], a[z] swapped into a[0]; then Hoare's
 * partition of a[1, n) around it: the cut. */
static int64_t partition_pivot(const sortcx *c, int64_t *a, int64_t n)
{
	int64_t x = 1, y = n / 2, z = n - 1, lo = 1, hi = n;

	if (cmp_lt(c, a[x], a[y]))
		iswap(a, 0, cmp_lt(c, a[y], a[z]) ? y : cmp_lt(c, a[x], a[z]) ? z : x);
	else
		iswap(a, 0, cmp_lt(c, a[x], a[z]) ? x : cmp_lt(c, a[y], a[z]) ? z : y);
	for (;;) {
		while (cmp_lt(c, a[lo], a[0]))
			lo++;
		hi--;
		while (cmp_lt(c, a[0], a[hi]))
			hi--;
		if (lo >= hi)
			return lo;
		iswap(a, lo, hi);
		lo++;
	}
}

static int lg2(int64_t n)
{
	return 63 - __builtin_clzll((unsigned long long)n);
}

/* std::nth_element(a, a + nth, a + n). */
static void nth_element(const sortcx *c, int64_t *a, int64_t nth, int64_t n)
{
	int depth = lg2(n) * 2;

	while (n > 3) {
		int64_t cut;
		if (depth-- == 0) {
			heap_select(c, a, nth + 1, n);
			iswap(a, 0, nth);
			return;
		}
		cut = partition_pivot(c, a, n);
		if (cut <= nth) {
			a += cut;
			nth -= cut;
			n -= cut;
		} else {
			n = cut;
		}
	}
	insertion_sort(c, a, n);
}

static void introsort(const sortcx *c, int64_t *a, int64_t n, int depth)
{
	while (n > 16) {
		int64_t cut;
		if (depth-- == 0) {
			partial_sort(c, a, n, n);
			return;
		}
		cut = partition_pivot(c, a, n);
		introsort(c, a + cut, n - cut, depth);
		n = cut;
	}
}

/* std::sort(a, a + n). */
static void std_sort(const sortcx *c, int64_t *a, int64_t n)
{
	if (n < 2)
		return;
	introsort(c, a, n, lg2(n) * 2);
	if (n > 16) {
		insertion_sort(c, a, 16);
		for (int64_t i = 16; i < n; i++)
			linear_insert(c, a, i);
	} else {
		insertion_sort(c, a, n);
	}
}

/* idx[0..k): topk's positions of the slice c, in PyTorch CPU's order. */
static void topk_order(const sortcx *c, int64_t *idx, int64_t n, int64_t k,
		       int sorted)
{
	for (int64_t i = 0; i < n; i++)
		idx[i] = i;
	if (k == 0)
		return;
	if (k * 64 <= n) {
		partial_sort(c, idx, k, n);
	} else {
		nth_element(c, idx, k - 1, n);
		if (sorted)
			std_sort(c, idx, k - 1);
	}
}

int ref_sort(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *val, *ind;
	int64_t dimv = -1, k, outer, n, inner, shape[NPU_MAX_DIMS], *idx, *tmp;
	int d, desc = 0, topk = op->id == NPU_AOP_TOPK, largest = 1, sorted = 1;

	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	if (topk ? ref_int(op, 1, "k", 1, &k) < 0 || ref_int(op, 2, "dim", -1, &dimv) < 0 ||
		   ref_bool(op, 3, "largest", 1, &largest) < 0 ||
		   ref_bool(op, 4, "sorted", 1, &sorted) < 0
		 : ref_int(op, 1, "dim", -1, &dimv) < 0 ||
		   ref_bool(op, 2, "descending", 0, &desc) < 0)
		return -1;
	if (ref_dim(op, dimv, x->ndim, &d) < 0)
		return -1;
	split3(x, d, &outer, &n, &inner);
	if (!topk)
		k = n;
	else
		desc = largest;
	if (k < 0 || k > n)
		return npu_errf(op->e, "k = %lld is out of range for a dim of %lld",
				(long long)k, (long long)n);
	memcpy(shape, x->shape, sizeof shape);
	if (x->ndim)
		shape[d] = k;
	if (ref_out(op, 0, x->dtype, x->ndim, shape, &val) < 0 ||
	    ref_out(op, 1, NPU_DT_I64, x->ndim, shape, &ind) < 0)
		return -1;
	if (order_bufs(op, n, &idx, &tmp) < 0)
		return -1;
	for (int64_t o = 0; o < outer; o++)
		for (int64_t in = 0; in < inner; in++) {
			sortcx c = { x->data + o * n * inner + in, inner, desc };
			if (topk)
				topk_order(&c, idx, n, k, sorted);
			else
				order(&c, idx, tmp, n);
			for (int64_t i = 0; i < k; i++) {
				int64_t at = (o * k + i) * inner + in;
				val->data[at] = c.p[idx[i] * inner];
				ind->data[at] = (double)idx[i];
			}
		}
	free(idx);
	free(tmp);
	return 0;
}

/*
 * median (of all, or along dim) and kthvalue along dim: the element at
 * (n - 1) / 2, or k - 1, of the slice sorted ascending (stable, NaN
 * last), and its index; a median of a slice holding NaN is NaN, at its
 * first NaN, as PyTorch's.  The dim goes unless keepdim.
 */
int ref_ostat(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *val, *ind = NULL;
	int64_t dimv = -1, k = 1, outer, n, inner, shape[NPU_MAX_DIMS], *idx, *tmp;
	int d = 0, keep = 0, nd, all = op->id == NPU_AOP_MEDIAN;
	int med = op->id != NPU_AOP_KTHVALUE;

	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	if (!all && (med ? ref_int(op, 1, "dim", -1, &dimv) < 0 ||
			   ref_bool(op, 2, "keepdim", 0, &keep) < 0
			 : ref_int(op, 1, "k", 1, &k) < 0 ||
			   ref_int(op, 2, "dim", -1, &dimv) < 0 ||
			   ref_bool(op, 3, "keepdim", 0, &keep) < 0))
		return -1;
	if (!all && ref_dim(op, dimv, x->ndim, &d) < 0)
		return -1;
	if (all) {
		outer = inner = 1;
		n = npu_reftensor_numel(x);
		nd = 0;
	} else {
		split3(x, d, &outer, &n, &inner);
		memcpy(shape, x->shape, sizeof shape);
		nd = x->ndim;
		if (nd && keep)
			shape[d] = 1;
		else if (nd)
			memmove(shape + d, shape + d + 1, (size_t)(--nd - d) * sizeof *shape);
	}
	if (n == 0 || k < 1 || k > n)
		return npu_errf(op->e, "k = %lld is out of range for a dim of %lld",
				(long long)k, (long long)n);
	if (med)
		k = (n - 1) / 2 + 1;
	if (ref_out(op, 0, x->dtype, nd, shape, &val) < 0 ||
	    (!all && ref_out(op, 1, NPU_DT_I64, nd, shape, &ind) < 0))
		return -1;
	if (order_bufs(op, n, &idx, &tmp) < 0)
		return -1;
	for (int64_t o = 0; o < outer; o++)
		for (int64_t in = 0; in < inner; in++) {
			sortcx c = { x->data + o * n * inner + in, inner, 0 };
			int64_t pick, at = o * inner + in;
			order(&c, idx, tmp, n);
			pick = idx[k - 1];
			for (int64_t i = 0; med && i < n; i++)
				if (isnan(c.p[i * inner])) {
					pick = i;
					break;
				}
			val->data[at] = c.p[pick * inner];
			if (ind)
				ind->data[at] = (double)pick;
		}
	free(idx);
	free(tmp);
	return 0;
}

/* cummax and cummin along dim: the running extreme and the index it came
 * from (the latest of equal values; NaN, once met, stays with its
 * index), as PyTorch's CPU kernel. */
int ref_cumext(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *val, *ind;
	int64_t dimv, outer, n, inner;
	int d, mx = op->id == NPU_AOP_CUMMAX;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_int(op, 1, "dim", 0, &dimv) < 0 ||
	    ref_dim(op, dimv, x->ndim, &d) < 0)
		return -1;
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &val) < 0 ||
	    ref_out(op, 1, NPU_DT_I64, x->ndim, x->shape, &ind) < 0)
		return -1;
	split3(x, d, &outer, &n, &inner);
	for (int64_t o = 0; o < outer; o++)
		for (int64_t in = 0; in < inner; in++) {
			double best = 0;
			int64_t bi = 0;
			for (int64_t i = 0; i < n; i++) {
				int64_t at = (o * n + i) * inner + in;
				double v = x->data[at];
				if (i == 0 || isnan(v) ||
				    (!isnan(best) && (mx ? v >= best : v <= best))) {
					best = v;
					bi = i;
				}
				val->data[at] = best;
				ind->data[at] = (double)bi;
			}
		}
	return 0;
}

/* logcumsumexp along dim: each step log(e^a + e^b) as the larger plus
 * log1p(e^-|a - b|), so that nothing overflows or underflows to -inf
 * (PyTorch's CPU kernel's form); -inf pairs stay -inf, NaN spreads. */
int ref_lcse(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t dimv, outer, n, inner;
	int d;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_int(op, 1, "dim", 0, &dimv) < 0 ||
	    ref_dim(op, dimv, x->ndim, &d) < 0 ||
	    ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
		return -1;
	split3(x, d, &outer, &n, &inner);
	for (int64_t o = 0; o < outer; o++)
		for (int64_t in = 0; in < inner; in++) {
			double s = -INFINITY;
			for (int64_t i = 0; i < n; i++) {
				int64_t at = (o * n + i) * inner + in;
				double v = x->data[at], hi = fmax(s, v), lo = fmin(s, v);
				if (isnan(s) || isnan(v))
					s = NAN;
				else if (lo == -INFINITY || hi == INFINITY)
					s = hi;
				else
					s = hi + log1p(exp(lo - hi));
				y->data[at] = s;
			}
		}
	return 0;
}

int ref_softmax(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t dimv, outer, n, inner;
	int d, half, dt, logsm = op->id == NPU_AOP_LOG_SOFTMAX;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_int(op, 1, "dim", 0, &dimv) < 0 ||
	    ref_bool(op, 2, "half_to_float", 0, &half) < 0 ||
	    ref_dim(op, dimv, x->ndim, &d) < 0)
		return -1;
	dt = half || !ref_is_float(x->dtype) ? NPU_DT_F32 : x->dtype;
	if (ref_out(op, 0, dt, x->ndim, x->shape, &y) < 0)
		return -1;
	split3(x, d, &outer, &n, &inner);
	for (int64_t o = 0; o < outer; o++)
		for (int64_t in = 0; in < inner; in++) {
			const double *p = x->data + o * n * inner + in;
			double *q = y->data + o * n * inner + in, m = -INFINITY, s = 0;
			for (int64_t k = 0; k < n; k++)
				m = p[k * inner] > m || isnan(p[k * inner]) ? p[k * inner] : m;
			for (int64_t k = 0; k < n; k++)
				s += exp(p[k * inner] - m);
			for (int64_t k = 0; k < n; k++)
				q[k * inner] = logsm ? p[k * inner] - m - log(s)
						     : exp(p[k * inner] - m) / s;
		}
	return 0;
}

/* ---- matrix products --------------------------------------------- */

/* c[m,n] = a[m,k] x b[k,n] (+ beta * c), all row-major contiguous. */
static void gemm(int64_t m, int64_t n, int64_t k, double alpha,
		 const double *a, const double *b, double beta, double *c)
{
	if (!m || !n)
		return;
	if (!k) {
		for (int64_t i = 0; i < m * n; i++)
			c[i] *= beta;
		return;
	}
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n,
		    (int)k, alpha, a, (int)k, b, (int)n, beta, c, (int)n);
}

/*
 * torch._scaled_mm: (a @ b) * scale_a * scale_b (+ bias) for float8 a
 * and b, each scale one value or one per row of a / column of b.  The
 * products of float8 values are exact in fp64, so this is the exact
 * result rounded once to out_dtype (default: a's type).
 */
static int scaled_mm(ref_op *op)
{
	const npu_reftensor *a, *b, *sa, *sb, *bias;
	npu_reftensor *y;
	int64_t shape[2], m, n, k, na, nb;
	int dt;

	if (ref_tensor(op, 0, "self", &a) < 0 ||
	    ref_tensor(op, 1, "mat2", &b) < 0 ||
	    ref_tensor(op, 2, "scale_a", &sa) < 0 ||
	    ref_tensor(op, 3, "scale_b", &sb) < 0)
		return -1;
	bias = ref_opt_tensor(op, 4, "bias");
	if (ref_dtype(op, 6, "out_dtype", a->dtype, &dt) < 0)
		return -1;
	if (a->ndim != 2 || b->ndim != 2 || a->shape[1] != b->shape[0])
		return npu_errf(op->e, "matrix shapes do not match");
	m = shape[0] = a->shape[0];
	n = shape[1] = b->shape[1];
	k = a->shape[1];
	na = npu_reftensor_numel(sa);
	nb = npu_reftensor_numel(sb);
	if ((na != 1 && na != m) || (nb != 1 && nb != n))
		return npu_errf(op->e, "scales must be one value, or one per row "
				"of self and per column of mat2");
	if (bias && npu_reftensor_numel(bias) != n)
		return npu_errf(op->e, "bias must have one value per column");
	if (ref_out(op, 0, dt, 2, shape, &y) < 0)
		return -1;
	gemm(m, n, k, 1, a->data, b->data, 0, y->data);
	for (int64_t i = 0; i < m; i++)
		for (int64_t j = 0; j < n; j++)
			y->data[i * n + j] = y->data[i * n + j] *
					     sa->data[na == 1 ? 0 : i] *
					     sb->data[nb == 1 ? 0 : j] +
					     (bias ? bias->data[j] : 0);
	return 0;
}

/* transformers' grouped_mm_fallback: out[r] = input[r] . weight[e] for
 * offs[e-1] <= r < offs[e] (offs[-1] = 0), rows past offs[E-1] zero. */
int ref_grouped_mm(ref_op *op)
{
	const npu_reftensor *a, *w, *o;
	npu_reftensor *y;
	int64_t shape[2], k, nn, start = 0;

	if (ref_tensor(op, 0, "input", &a) < 0 || ref_tensor(op, 1, "weight", &w) < 0 ||
	    ref_tensor(op, 2, "offs", &o) < 0)
		return -1;
	if (a->ndim != 2 || w->ndim != 3 || o->ndim != 1 || w->shape[1] != a->shape[1] ||
	    o->shape[0] != w->shape[0])
		return npu_errf(op->e, "grouped_mm: shapes do not match");
	shape[0] = a->shape[0];
	shape[1] = nn = w->shape[2];
	k = a->shape[1];
	if (ref_out(op, 0, ref_promote(a->dtype, w->dtype), 2, shape, &y) < 0)
		return -1;
	for (int64_t e = 0; e < o->shape[0]; e++) {
		int64_t end = (int64_t)o->data[e];
		if (end < start || end > shape[0])
			return npu_errf(op->e, "grouped_mm: offsets not increasing within %lld rows",
					(long long)shape[0]);
		if (end > start)
			gemm(end - start, nn, k, 1, a->data + start * k, w->data + e * k * nn, 0,
			     y->data + start * nn);
		start = end;
	}
	return 0;
}

/* addmv(self, mat, vec, beta, alpha): beta * self + alpha * mat @ vec,
 * self broadcast to [m] and left out for beta 0 (its NaN too, as
 * ATen). */
static int addmv(ref_op *op)
{
	const npu_reftensor *s, *a, *v;
	npu_reftensor *y;
	int64_t m, k, st[NPU_MAX_DIMS], bs[NPU_MAX_DIMS];
	double alpha, beta;
	int nd;

	if (ref_tensor(op, 0, "self", &s) < 0 || ref_tensor(op, 1, "mat", &a) < 0 ||
	    ref_tensor(op, 2, "vec", &v) < 0 || ref_double(op, -1, "beta", 1, &beta) < 0 ||
	    ref_double(op, -1, "alpha", 1, &alpha) < 0)
		return -1;
	if (a->ndim != 2 || v->ndim != 1 || a->shape[1] != v->shape[0])
		return npu_errf(op->e, "addmv: matrix and vector shapes do not match");
	m = a->shape[0], k = a->shape[1];
	if (ref_bshape(op, s->ndim, s->shape, 1, &m, &nd, bs) < 0 || nd != 1 || bs[0] != m)
		return npu_errf(op->e, "addmv: self does not broadcast to the product");
	if (ref_out(op, 0, ref_promote(a->dtype, v->dtype), 1, &m, &y) < 0)
		return -1;
	ref_bstrides(s, 1, &m, st);
	for (int64_t i = 0; i < m; i++) {
		double acc = 0;
		for (int64_t j = 0; j < k; j++)
			acc += a->data[i * k + j] * v->data[j];
		y->data[i] = (beta != 0 ? beta * s->data[i * st[0]] : 0) + alpha * acc;
	}
	return 0;
}

int ref_matmul(ref_op *op)
{
	const npu_reftensor *a, *b, *bias = NULL;
	npu_reftensor *y;
	int64_t shape[3], batch = 1;
	double alpha = 1, beta = 1;
	int bmm = op->id == NPU_AOP_BMM || op->id == NPU_AOP_BADDBMM;
	int base = 0, dt, r = bmm ? 3 : 2;

	if (op->id == NPU_AOP_SCALED_MM)
		return scaled_mm(op);
	if (op->id == NPU_AOP_ADDMV)
		return addmv(op);
	if (op->id == NPU_AOP_ADDMM || op->id == NPU_AOP_BADDBMM) {
		if (ref_tensor(op, 0, "self", &bias) < 0 ||
		    ref_double(op, -1, "beta", 1, &beta) < 0 ||
		    ref_double(op, -1, "alpha", 1, &alpha) < 0)
			return -1;
		base = 1;
	}
	if (ref_tensor(op, base, !base ? "self" : bmm ? "batch1" : "mat1", &a) < 0 ||
	    ref_tensor(op, base + 1, !base ? "mat2" : bmm ? "batch2" : "mat2", &b) < 0)
		return -1;
	if (a->ndim != r || b->ndim != r || a->shape[r - 1] != b->shape[r - 2] ||
	    (bmm && a->shape[0] != b->shape[0]))
		return npu_errf(op->e, "matrix shapes do not match");
	if (bmm)
		batch = shape[0] = a->shape[0];
	shape[r - 2] = a->shape[r - 2];
	shape[r - 1] = b->shape[r - 1];
	dt = op->id == NPU_AOP_INT_MM ? NPU_DT_I32 : ref_promote(a->dtype, b->dtype);
	if (ref_out(op, 0, dt, r, shape, &y) < 0)
		return -1;
	int64_t m = shape[r - 2], n = shape[r - 1], k = a->shape[r - 1];
	if (bias) {
		int nd;
		int64_t bs[NPU_MAX_DIMS], st[NPU_MAX_DIMS];
		if (ref_bshape(op, bias->ndim, bias->shape, r, shape, &nd, bs) < 0 ||
		    nd != r || memcmp(bs, shape, (size_t)r * sizeof *bs))
			return npu_errf(op->e, "bias does not broadcast to the product");
		ref_bstrides(bias, r, shape, st);
		ref_gather_strided(bias, st, 0, y);
		for (int64_t i = 0; i < batch * m * n; i++)
			y->data[i] *= beta;
	}
	for (int64_t i = 0; i < batch; i++)
		gemm(m, n, k, alpha, a->data + i * m * k, b->data + i * k * n,
		     bias ? 1 : 0, y->data + i * m * n);
	return 0;
}

/* ---- convolution ------------------------------------------------- */

typedef struct convp {
	int64_t n, c, h, w;          /* input */
	int64_t o, kh, kw, groups;   /* weight [o, c/groups, kh, kw] */
	int64_t sh, sw, ph, pw, dh, dw;
	int64_t oh, ow;
	int spatial;                 /* 1 or 2 */
} convp;

/* A pair from an int list of 1 or 2 entries (1-d conv: the H entry is
 * the identity). */
static int pair(ref_op *op, int i, const char *name, int spatial, int64_t id,
		int64_t *a, int64_t *b)
{
	int64_t v[2];
	int n;

	if (ref_ints(op, i, name, v, 2, &n) < 0)
		return -1;
	if (n == 0)
		v[0] = v[1] = id;
	else if (n == 1)
		v[1] = v[0];
	if (spatial == 1) {
		*a = id == 0 ? 0 : 1;
		*b = v[0];
	} else {
		*a = v[0];
		*b = v[1];
	}
	return 0;
}

static int conv_params(ref_op *op, const npu_reftensor *x,
		       const npu_reftensor *w, int base, convp *p, int *tr)
{
	int transposed;
	int64_t oph = 0, opw = 0;

	if (x->ndim != 3 && x->ndim != 4)
		return npu_errf(op->e, "input must be 3-d, 4-d or 5-d (NCL, NCHW or NCDHW)");
	if (w->ndim != x->ndim)
		return npu_errf(op->e, "weight rank differs from input");
	p->spatial = x->ndim - 2;
	p->n = x->shape[0];
	p->c = x->shape[1];
	p->h = p->spatial == 2 ? x->shape[2] : 1;
	p->w = x->shape[x->ndim - 1];
	p->o = w->shape[0];
	p->kh = p->spatial == 2 ? w->shape[2] : 1;
	p->kw = w->shape[w->ndim - 1];
	if (pair(op, base, "stride", p->spatial, 1, &p->sh, &p->sw) < 0 ||
	    pair(op, base + 1, "padding", p->spatial, 0, &p->ph, &p->pw) < 0 ||
	    pair(op, base + 2, "dilation", p->spatial, 1, &p->dh, &p->dw) < 0 ||
	    ref_bool(op, base + 3, "transposed", 0, &transposed) < 0 ||
	    ref_int(op, base + 5, "groups", 1, &p->groups) < 0)
		return -1;
	if (transposed && !tr)
		return npu_errf(op->e, "transposed convolution is not supported here");
	if (tr)
		*tr = transposed;
	if (transposed) {
		/* the convolution whose input gradient this is: from the
		 * result [n, w[1] * groups, oh, ow] to x [n, w[0], h, w] */
		if (pair(op, base + 4, "output_padding", p->spatial, 0, &oph, &opw) < 0)
			return -1;
		if (p->groups <= 0 || x->shape[1] != w->shape[0] || p->c % p->groups)
			return npu_errf(op->e, "channels do not match the groups");
		if (p->sh <= 0 || p->sw <= 0 || p->dh <= 0 || p->dw <= 0 ||
		    p->ph < 0 || p->pw < 0 || oph < 0 || opw < 0 ||
		    (oph >= p->sh && oph >= p->dh) || (opw >= p->sw && opw >= p->dw))
			return npu_errf(op->e, "bad stride, padding, dilation or output_padding");
		p->o = p->c;
		p->c = w->shape[1] * p->groups;
		p->oh = p->h;
		p->ow = p->w;
		p->h = (p->oh - 1) * p->sh - 2 * p->ph + p->dh * (p->kh - 1) + oph + 1;
		p->w = (p->ow - 1) * p->sw - 2 * p->pw + p->dw * (p->kw - 1) + opw + 1;
		if (p->spatial == 1)
			p->h = 1;
		if (p->h <= 0 || p->w <= 0)
			return npu_errf(op->e, "the padding is larger than the result");
		return 0;
	}
	if (p->groups <= 0 || p->c % p->groups || p->o % p->groups ||
	    w->shape[1] * p->groups != p->c)
		return npu_errf(op->e, "channels do not match the groups");
	if (p->sh <= 0 || p->sw <= 0 || p->dh <= 0 || p->dw <= 0 || p->ph < 0 || p->pw < 0)
		return npu_errf(op->e, "bad stride, padding or dilation");
	p->oh = (p->h + 2 * p->ph - p->dh * (p->kh - 1) - 1) / p->sh + 1;
	p->ow = (p->w + 2 * p->pw - p->dw * (p->kw - 1) - 1) / p->sw + 1;
	if (p->oh <= 0 || p->ow <= 0)
		return npu_errf(op->e, "the kernel is larger than the padded input");
	return 0;
}

/* col[(c*kh + i)*kw + j][oy*ow + ox] for the channels [c0, c0 + cg). */
static void im2col(const convp *p, const double *img, int64_t c0, int64_t cg,
		   double *col)
{
	int64_t hw = p->oh * p->ow;

	for (int64_t c = 0; c < cg; c++)
		for (int64_t i = 0; i < p->kh; i++)
			for (int64_t j = 0; j < p->kw; j++) {
				double *row = col + ((c * p->kh + i) * p->kw + j) * hw;
				const double *plane = img + (c0 + c) * p->h * p->w;
				for (int64_t oy = 0; oy < p->oh; oy++) {
					int64_t y = oy * p->sh - p->ph + i * p->dh;
					for (int64_t ox = 0; ox < p->ow; ox++) {
						int64_t x = ox * p->sw - p->pw + j * p->dw;
						row[oy * p->ow + ox] =
							y >= 0 && y < p->h && x >= 0 && x < p->w
							? plane[y * p->w + x] : 0;
					}
				}
			}
}

/* The inverse scatter-add of im2col. */
static void col2im(const convp *p, const double *col, int64_t c0, int64_t cg,
		   double *img)
{
	int64_t hw = p->oh * p->ow;

	for (int64_t c = 0; c < cg; c++)
		for (int64_t i = 0; i < p->kh; i++)
			for (int64_t j = 0; j < p->kw; j++) {
				const double *row = col + ((c * p->kh + i) * p->kw + j) * hw;
				double *plane = img + (c0 + c) * p->h * p->w;
				for (int64_t oy = 0; oy < p->oh; oy++) {
					int64_t y = oy * p->sh - p->ph + i * p->dh;
					if (y < 0 || y >= p->h)
						continue;
					for (int64_t ox = 0; ox < p->ow; ox++) {
						int64_t x = ox * p->sw - p->pw + j * p->dw;
						if (x >= 0 && x < p->w)
							plane[y * p->w + x] += row[oy * p->ow + ox];
					}
				}
			}
}

/* The shape of p's output side ([n, o, oh, ow]) or, with in, of its
 * image side ([n, c, h, w]); [n, ., w] when 1-d. */
static void side_shape(const convp *p, int in, int64_t *shape)
{
	shape[0] = p->n;
	shape[1] = in ? p->c : p->o;
	if (p->spatial == 2) {
		shape[2] = in ? p->h : p->oh;
		shape[3] = in ? p->w : p->ow;
	} else {
		shape[2] = in ? p->w : p->ow;
	}
}

/*
 * A transposed convolution is the input gradient of the convolution p
 * describes (x its output side, w its weight [x's channels, c / groups,
 * kh, kw]): y = col2im(w_g^T x_g) per image and group, plus the bias.
 */
static int conv_transposed(ref_op *op, const npu_reftensor *x,
			   const npu_reftensor *w, const convp *p)
{
	const npu_reftensor *bias = ref_opt_tensor(op, 2, "bias");
	npu_reftensor *y;
	int64_t shape[4], cg = p->c / p->groups, og = p->o / p->groups;
	int64_t k = cg * p->kh * p->kw, hw = p->oh * p->ow, pl = p->h * p->w;
	double *gcol;

	if (bias && npu_reftensor_numel(bias) != p->c)
		return npu_errf(op->e, "bias has %lld entries, not %lld",
				(long long)npu_reftensor_numel(bias), (long long)p->c);
	side_shape(p, 1, shape);
	if (ref_out(op, 0, ref_promote(x->dtype, w->dtype), x->ndim, shape, &y) < 0)
		return -1;
	if (!(gcol = malloc((size_t)(k * hw + 1) * sizeof *gcol)))
		return npu_errf(op->e, "out of memory");
	for (int64_t n = 0; n < p->n; n++)
		for (int64_t g = 0; g < p->groups; g++) {
			/* gcol[k, hw] = w_g^T[k, og] x x_g[og, hw] */
			cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans,
				    (int)k, (int)hw, (int)og, 1.0,
				    w->data + g * og * k, (int)k,
				    x->data + (n * p->o + g * og) * hw, (int)hw,
				    0.0, gcol, (int)hw);
			col2im(p, gcol, g * cg, cg, y->data + n * p->c * pl);
		}
	free(gcol);
	for (int64_t n = 0; bias && n < p->n; n++)
		for (int64_t c = 0; c < p->c; c++)
			for (int64_t i = 0; i < pl; i++)
				y->data[(n * p->c + c) * pl + i] += bias->data[c];
	return 0;
}

/* A 3-int argument: one int stands for all three, absent gives def. */
static int triple(ref_op *op, int i, const char *name, int64_t def, int64_t *v)
{
	int n;

	if (ref_ints(op, i, name, v, 3, &n) < 0)
		return -1;
	if (n == 0)
		v[0] = v[1] = v[2] = def;
	else if (n == 1)
		v[1] = v[2] = v[0];
	else if (n != 3)
		return npu_errf(op->e, "%s needs 1 or 3 values", name);
	return 0;
}

/* The offset of x[n][c] at volume position pos, or -1 in the padding. */
static int64_t vol_off(const int64_t *sh, int64_t n, int64_t c, const int64_t *pos)
{
	for (int i = 0; i < 3; i++)
		if (pos[i] < 0 || pos[i] >= sh[2 + i])
			return -1;
	return (((n * sh[1] + c) * sh[2] + pos[0]) * sh[3] + pos[1]) * sh[4] + pos[2];
}

/* x[n][c] at volume position (d, h, w), 0 outside (the padding) */
static double vol_at(const npu_reftensor *x, int64_t n, int64_t c,
		     const int64_t *pos)
{
	int64_t off = vol_off(x->shape, n, c, pos);

	return off < 0 ? 0 : x->data[off];
}

/*
 * Transposed 3-d convolution, x [n, c, d, h, w] and w [c, o/groups, kd,
 * kh, kw]: every input element times every tap of its channel's weights,
 * added where the forward convolution would have read it from (in fp64,
 * in input order), then the bias.
 */
static int conv3d_transposed(ref_op *op, const npu_reftensor *x,
			     const npu_reftensor *w, const npu_reftensor *bias,
			     const int64_t *st, const int64_t *pd, const int64_t *dl,
			     int64_t g)
{
	int64_t op3[3], os[5], cg, og, vol = 1, k[3];
	npu_reftensor *y;

	if (triple(op, 7, "output_padding", 0, op3) < 0)
		return -1;
	if (w->ndim != 5 || g <= 0 || x->shape[1] % g || w->shape[0] != x->shape[1])
		return npu_errf(op->e, "weight does not match the input and groups");
	cg = x->shape[1] / g;
	og = w->shape[1];
	os[0] = x->shape[0];
	os[1] = og * g;
	if (bias && npu_reftensor_numel(bias) != os[1])
		return npu_errf(op->e, "bias has %lld entries, not %lld",
				(long long)npu_reftensor_numel(bias), (long long)os[1]);
	for (int i = 0; i < 3; i++) {
		k[i] = w->shape[2 + i];
		if (st[i] <= 0 || dl[i] <= 0 || pd[i] < 0 || op3[i] < 0)
			return npu_errf(op->e, "bad stride, padding or dilation");
		os[2 + i] = (x->shape[2 + i] - 1) * st[i] - 2 * pd[i] + dl[i] * (k[i] - 1) +
			    op3[i] + 1;
		if (os[2 + i] <= 0)
			return npu_errf(op->e, "empty output");
		vol *= os[2 + i];
	}
	if (ref_out(op, 0, ref_promote(x->dtype, w->dtype), 5, os, &y) < 0)
		return -1;
	for (int64_t n = 0; n < os[0]; n++)
		for (int64_t c = 0; c < x->shape[1]; c++)
			for (int64_t i0 = 0; i0 < x->shape[2]; i0++)
				for (int64_t i1 = 0; i1 < x->shape[3]; i1++)
					for (int64_t i2 = 0; i2 < x->shape[4]; i2++) {
						int64_t in[3] = { i0, i1, i2 };
						double v = vol_at(x, n, c, in);
						const double *wk = w->data + c * og * k[0] * k[1] * k[2];
						for (int64_t o = 0; o < og; o++)
							for (int64_t a = 0; a < k[0]; a++)
								for (int64_t b = 0; b < k[1]; b++)
									for (int64_t e = 0; e < k[2]; e++, wk++) {
										int64_t pos[3] = { i0 * st[0] - pd[0] + a * dl[0],
												   i1 * st[1] - pd[1] + b * dl[1],
												   i2 * st[2] - pd[2] + e * dl[2] };
										int inside = 1;
										for (int q = 0; q < 3; q++)
											inside &= pos[q] >= 0 && pos[q] < os[2 + q];
										if (inside)
											y->data[((n * os[1] + c / cg * og + o) * os[2] + pos[0]) * os[3] * os[4] +
												pos[1] * os[4] + pos[2]] += v * *wk;
									}
					}
	for (int64_t n = 0; bias && n < os[0]; n++)
		for (int64_t o = 0; o < os[1]; o++)
			for (int64_t i = 0; i < vol; i++)
				y->data[(n * os[1] + o) * vol + i] += bias->data[o];
	return 0;
}

/* The result shape os of a 3-d convolution (not transposed) of x by w,
 * after checking that they, the groups, stride, padding and dilation
 * agree. */
static int conv3d_shape(ref_op *op, const npu_reftensor *x, const npu_reftensor *w,
			const int64_t *st, const int64_t *pd, const int64_t *dl, int64_t g,
			int64_t *os)
{
	if (w->ndim != 5 || g <= 0 || x->shape[1] % g || w->shape[0] % g ||
	    w->shape[1] * g != x->shape[1])
		return npu_errf(op->e, "weight does not match the input and groups");
	os[0] = x->shape[0];
	os[1] = w->shape[0];
	for (int i = 0; i < 3; i++) {
		if (st[i] <= 0 || dl[i] <= 0 || pd[i] < 0)
			return npu_errf(op->e, "bad stride, padding or dilation");
		os[2 + i] = (x->shape[2 + i] + 2 * pd[i] - dl[i] * (w->shape[2 + i] - 1) - 1) / st[i] + 1;
		if (os[2 + i] <= 0)
			return npu_errf(op->e, "the kernel is larger than the padded input");
	}
	return 0;
}

/*
 * 3-d convolution (video models: R3D, X3D), x [n, c, d, h, w] and w [o,
 * c/groups, kd, kh, kw], by direct loops in fp64: each output a sum over
 * its group's channels, then the taps in order.  Not transposed.
 */
static int conv3d(ref_op *op, const npu_reftensor *x, const npu_reftensor *w)
{
	const npu_reftensor *bias = ref_opt_tensor(op, 2, "bias");
	int64_t st[3], pd[3], dl[3], os[5], g, cg, og;
	npu_reftensor *y;
	int tr;

	if (triple(op, 3, "stride", 1, st) < 0 || triple(op, 4, "padding", 0, pd) < 0 ||
	    triple(op, 5, "dilation", 1, dl) < 0 ||
	    ref_bool(op, 6, "transposed", 0, &tr) < 0 || ref_int(op, 8, "groups", 1, &g) < 0)
		return -1;
	if (tr)
		return conv3d_transposed(op, x, w, bias, st, pd, dl, g);
	if (conv3d_shape(op, x, w, st, pd, dl, g, os) < 0)
		return -1;
	if (bias && npu_reftensor_numel(bias) != w->shape[0])
		return npu_errf(op->e, "bias has %lld entries, not %lld",
				(long long)npu_reftensor_numel(bias), (long long)w->shape[0]);
	if (ref_out(op, 0, ref_promote(x->dtype, w->dtype), 5, os, &y) < 0)
		return -1;
	cg = x->shape[1] / g;
	og = w->shape[0] / g;
	double *out = y->data;
	for (int64_t n = 0; n < os[0]; n++)
		for (int64_t o = 0; o < os[1]; o++)
			for (int64_t od = 0; od < os[2]; od++)
				for (int64_t oh = 0; oh < os[3]; oh++)
					for (int64_t ow = 0; ow < os[4]; ow++) {
						int64_t at[3] = { od, oh, ow };
						double acc = 0;
						const double *wk = w->data + o * cg * w->shape[2] * w->shape[3] * w->shape[4];
						for (int64_t c = 0; c < cg; c++)
							for (int64_t a = 0; a < w->shape[2]; a++)
								for (int64_t b = 0; b < w->shape[3]; b++)
									for (int64_t e = 0; e < w->shape[4]; e++) {
										int64_t pos[3] = { at[0] * st[0] - pd[0] + a * dl[0],
												   at[1] * st[1] - pd[1] + b * dl[1],
												   at[2] * st[2] - pd[2] + e * dl[2] };
										acc += *wk++ * vol_at(x, n, o / og * cg + c, pos);
									}
						*out++ = acc + (bias ? bias->data[o] : 0);
					}
	return 0;
}

int ref_conv(ref_op *op)
{
	const npu_reftensor *x, *w, *bias;
	npu_reftensor *y;
	int64_t shape[4], cg, og, k, hw;
	double *col;
	convp p;
	int tr;

	if (ref_tensor(op, 0, "input", &x) < 0 || ref_tensor(op, 1, "weight", &w) < 0)
		return -1;
	if (x->ndim == 5)
		return conv3d(op, x, w);
	if (conv_params(op, x, w, 3, &p, &tr) < 0)
		return -1;
	if (tr)
		return conv_transposed(op, x, w, &p);
	bias = ref_opt_tensor(op, 2, "bias");
	if (bias && npu_reftensor_numel(bias) != p.o)
		return npu_errf(op->e, "bias has %lld entries, not %lld",
				(long long)npu_reftensor_numel(bias), (long long)p.o);
	side_shape(&p, 0, shape);
	/* int8 x int8 accumulates in int32, as _int_mm (the quant pass makes
	 * this form; PyTorch has no integer convolution) */
	if (ref_out(op, 0, x->dtype == NPU_DT_I8 && w->dtype == NPU_DT_I8 ?
			   NPU_DT_I32 : ref_promote(x->dtype, w->dtype),
		    x->ndim, shape, &y) < 0)
		return -1;
	cg = p.c / p.groups;
	og = p.o / p.groups;
	k = cg * p.kh * p.kw;
	hw = p.oh * p.ow;
	if (!(col = malloc((size_t)(k * hw) * sizeof *col)))
		return npu_errf(op->e, "out of memory");
	for (int64_t n = 0; n < p.n; n++)
		for (int64_t g = 0; g < p.groups; g++) {
			double *out = y->data + (n * p.o + g * og) * hw;
			im2col(&p, x->data + n * p.c * p.h * p.w, g * cg, cg, col);
			gemm(og, hw, k, 1.0, w->data + g * og * k, col, 0, out);
		}
	free(col);
	for (int64_t n = 0; bias && n < p.n; n++)
		for (int64_t o = 0; o < p.o; o++)
			for (int64_t i = 0; i < hw; i++)
				y->data[(n * p.o + o) * hw + i] += bias->data[o];
	return 0;
}

/* grad_output element d, of batch n, channel o and output position p,
 * into the gradients: times every tap of o's group's channels. */
static void conv3d_bwd_at(double d, const npu_reftensor *x, const npu_reftensor *w,
			  int64_t n, int64_t o, int64_t p, const int64_t *os,
			  const int64_t *st, const int64_t *pd, const int64_t *dl,
			  int64_t cg, int64_t og, npu_reftensor *gx, npu_reftensor *gw,
			  npu_reftensor *gb)
{
	const int64_t *k = w->shape + 2, at[3] = { p / (os[3] * os[4]), p / os[4] % os[3],
						   p % os[4] };
	int64_t kv = k[0] * k[1] * k[2], wo = o * cg * kv;

	if (gb)
		gb->data[o] += d;
	for (int64_t c = 0; c < cg; c++)
		for (int64_t t = 0; t < kv; t++, wo++) {
			int64_t tap[3] = { t / (k[1] * k[2]), t / k[2] % k[1], t % k[2] }, pos[3], xo;
			for (int q = 0; q < 3; q++)
				pos[q] = at[q] * st[q] - pd[q] + tap[q] * dl[q];
			if ((xo = vol_off(x->shape, n, o / og * cg + c, pos)) < 0)
				continue;
			if (gw)
				gw->data[wo] += d * x->data[xo];
			if (gx)
				gx->data[xo] += d * w->data[wo];
		}
}

/*
 * The gradients of conv3d (not transposed), by the same direct loops:
 * each grad_output element times every tap of its group's channels,
 * added into grad_weight (times the input it read) and grad_input (times
 * the weight), in output order; grad_bias sums grad_output.
 */
static int conv3d_bwd(ref_op *op, const npu_reftensor *gy, const npu_reftensor *x,
		      const npu_reftensor *w)
{
	int64_t st[3], pd[3], dl[3], g, mask[3] = { 1, 1, 1 }, os[5], cg, og, ov;
	npu_reftensor *gx = NULL, *gw = NULL, *gb = NULL;
	int tr, nm;

	if (triple(op, 4, "stride", 1, st) < 0 || triple(op, 5, "padding", 0, pd) < 0 ||
	    triple(op, 6, "dilation", 1, dl) < 0 ||
	    ref_bool(op, 7, "transposed", 0, &tr) < 0 || ref_int(op, 9, "groups", 1, &g) < 0 ||
	    ref_ints(op, 10, "output_mask", mask, 3, &nm) < 0)
		return -1;
	if (tr)
		return npu_errf(op->e, "the gradient of a transposed 3-d convolution "
				"is not supported");
	if (conv3d_shape(op, x, w, st, pd, dl, g, os) < 0)
		return -1;
	if (gy->ndim != 5 || memcmp(gy->shape, os, sizeof os))
		return npu_errf(op->e, "grad_output has the wrong shape");
	if ((mask[0] && ref_out(op, 0, x->dtype, 5, x->shape, &gx) < 0) ||
	    (mask[1] && ref_out(op, 1, w->dtype, 5, w->shape, &gw) < 0) ||
	    (mask[2] && ref_out(op, 2, gy->dtype, 1, &os[1], &gb) < 0))
		return -1;
	op->nout = 3;
	cg = x->shape[1] / g;
	og = w->shape[0] / g;
	ov = os[2] * os[3] * os[4];
	for (int64_t n = 0; n < os[0]; n++)
		for (int64_t o = 0; o < os[1]; o++)
			for (int64_t p = 0; p < ov; p++)
				conv3d_bwd_at(gy->data[(n * os[1] + o) * ov + p], x, w, n, o, p,
					      os, st, pd, dl, cg, og, gx, gw, gb);
	return 0;
}

int ref_conv_bwd(ref_op *op)
{
	const npu_reftensor *gy, *x, *w;
	npu_reftensor *gx = NULL, *gw = NULL, *gb = NULL;
	int64_t mask[3] = { 1, 1, 1 }, cg, og, k, hw, shape[4];
	int nm;
	double *col = NULL, *gcol = NULL;
	convp p;

	if (ref_tensor(op, 0, "grad_output", &gy) < 0 ||
	    ref_tensor(op, 1, "input", &x) < 0 || ref_tensor(op, 2, "weight", &w) < 0)
		return -1;
	if (x->ndim == 5)
		return conv3d_bwd(op, gy, x, w);
	if (conv_params(op, x, w, 4, &p, NULL) < 0 ||
	    ref_ints(op, 10, "output_mask", mask, 3, &nm) < 0)
		return -1;
	side_shape(&p, 0, shape);
	if (gy->ndim != x->ndim || memcmp(gy->shape, shape, (size_t)x->ndim * sizeof *shape))
		return npu_errf(op->e, "grad_output has the wrong shape");
	if ((mask[0] && ref_out(op, 0, x->dtype, x->ndim, x->shape, &gx) < 0) ||
	    (mask[1] && ref_out(op, 1, w->dtype, w->ndim, w->shape, &gw) < 0) ||
	    (mask[2] && ref_out(op, 2, gy->dtype, 1, &p.o, &gb) < 0))
		return -1;
	op->nout = 3;
	cg = p.c / p.groups;
	og = p.o / p.groups;
	k = cg * p.kh * p.kw;
	hw = p.oh * p.ow;
	col = malloc((size_t)(k * hw) * sizeof *col);
	gcol = malloc((size_t)(k * hw) * sizeof *gcol);
	if (!col || !gcol) {
		free(col);
		free(gcol);
		return npu_errf(op->e, "out of memory");
	}
	for (int64_t n = 0; n < p.n; n++)
		for (int64_t g = 0; g < p.groups; g++) {
			const double *go = gy->data + (n * p.o + g * og) * hw;
			if (gw) {
				/* gw_g[og, k] += go[og, hw] x col^T[hw, k] */
				im2col(&p, x->data + n * p.c * p.h * p.w, g * cg, cg, col);
				cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans,
					    (int)og, (int)k, (int)hw, 1.0, go, (int)hw,
					    col, (int)hw, 1.0, gw->data + g * og * k, (int)k);
			}
			if (gx) {
				/* gcol[k, hw] = w_g^T[k, og] x go[og, hw] */
				cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans,
					    (int)k, (int)hw, (int)og, 1.0,
					    w->data + g * og * k, (int)k, go, (int)hw,
					    0.0, gcol, (int)hw);
				col2im(&p, gcol, g * cg, cg, gx->data + n * p.c * p.h * p.w);
			}
		}
	free(col);
	free(gcol);
	for (int64_t n = 0; gb && n < p.n; n++)
		for (int64_t o = 0; o < p.o; o++)
			for (int64_t i = 0; i < hw; i++)
				gb->data[o] += gy->data[(n * p.o + o) * hw + i];
	return 0;
}

/* ---- the discrete Fourier transform of a real tensor --------------- */

void npu_ref_twiddle(int64_t j, int64_t k, int64_t n, double *c, double *s)
{
	double a = 2 * M_PI * (double)((j % n) * (k % n) % n) / (double)n;

	*c = cos(a);
	*s = sin(a);
}

double npu_ref_fft_scale(int normalization, double n)
{
	return normalization == 1 ? 1 / sqrt(n) : normalization == 2 ? 1 / n : 1;
}

/* The complex (re, im) transformed in place along dim (n points, inner
 * elements apart), sg -1 forward (e^(-i...)) or 1 inverse. */
static int dft_dim(ref_op *op, double *re, double *im, int64_t outer, int64_t n,
		   int64_t inner, int sg)
{
	double *lr = malloc((size_t)(2 * n) * sizeof *lr), *li = lr + n;

	if (!lr)
		return npu_errf(op->e, "out of memory");
	for (int64_t o = 0; o < outer; o++)
		for (int64_t i = 0; i < inner; i++) {
			double *r = re + o * n * inner + i, *m = im + o * n * inner + i;
			for (int64_t j = 0; j < n; j++) {
				lr[j] = r[j * inner];
				li[j] = m[j * inner];
			}
			for (int64_t k = 0; k < n; k++) {
				double sr = 0, si = 0, c, s;
				for (int64_t j = 0; j < n; j++) {
					npu_ref_twiddle(j, k, n, &c, &s);
					sr += lr[j] * c - sg * li[j] * s;
					si += li[j] * c + sg * lr[j] * s;
				}
				r[k * inner] = sr;
				m[k * inner] = si;
			}
		}
	free(lr);
	return 0;
}

/*
 * npusim.fft_real(x, dim, normalization, forward, onesided): the real
 * and imaginary parts of x's DFT over dim, as view_as_real of
 * _fft_c2c(x as complex) or _fft_r2c(x) gives them ([..., 2]), each dim
 * by its definition in fp64 (one sum of n terms an output point), the
 * last listed dim cut to n / 2 + 1 points when onesided.
 */
int ref_fftreal(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t dv[NPU_MAX_DIMS], nm, shp[NPU_MAX_DIMS + 1], n = 1, total = 1, m;
	int nd, fw, one, ax[NPU_MAX_DIMS], last;
	double *re = NULL, *im, sc;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_ints(op, 1, "dim", dv, NPU_MAX_DIMS, &nd) < 0 ||
	    ref_int(op, 2, "normalization", 0, &nm) < 0 || ref_bool(op, 3, "forward", 1, &fw) < 0 ||
	    ref_bool(op, 4, "onesided", 0, &one) < 0)
		return -1;
	if (!ref_is_float(x->dtype) || nd < 1 || nm < 0 || nm > 2 || x->ndim >= NPU_MAX_DIMS)
		return npu_errf(op->e, "a real float tensor, one or more dims and a normalization of 0, 1 or 2");
	for (int i = 0; i < nd; i++) {
		if (ref_dim(op, dv[i], x->ndim, &ax[i]) < 0)
			return -1;
		for (int k = 0; k < i; k++)
			if (ax[k] == ax[i])
				return npu_errf(op->e, "dim %d given twice", ax[i]);
		n *= x->shape[ax[i]];
	}
	total = npu_reftensor_numel(x);
	if (total && !(re = calloc((size_t)(2 * total), sizeof *re)))
		return npu_errf(op->e, "out of memory");
	im = re + total;
	for (int64_t i = 0; i < total; i++)
		re[i] = x->data[i];
	for (int i = 0; i < nd && total; i++) {
		int64_t outer = 1, inner = 1;
		for (int k = 0; k < ax[i]; k++)
			outer *= x->shape[k];
		for (int k = ax[i] + 1; k < x->ndim; k++)
			inner *= x->shape[k];
		if (dft_dim(op, re, im, outer, x->shape[ax[i]], inner, fw ? -1 : 1) < 0) {
			free(re);
			return -1;
		}
	}
	last = ax[nd - 1];
	memcpy(shp, x->shape, (size_t)x->ndim * sizeof *shp);
	m = one ? x->shape[last] / 2 + 1 : x->shape[last];
	shp[last] = m;
	shp[x->ndim] = 2;
	if (ref_out(op, 0, x->dtype, x->ndim + 1, shp, &y) < 0) {
		free(re);
		return -1;
	}
	sc = npu_ref_fft_scale((int)nm, (double)n);
	{
		int64_t inner = 1, len = x->shape[last];
		for (int k = last + 1; k < x->ndim; k++)
			inner *= x->shape[k];
		for (int64_t i = 0, o = 0; i < total; i++) {
			if ((i / inner) % len >= m)
				continue;
			y->data[2 * o] = re[i] * sc;
			y->data[2 * o + 1] = im[i] * sc;
			o++;
		}
	}
	free(re);
	return 0;
}

/* ---- pooling ----------------------------------------------------- */

int64_t npu_ref_pool_len(int64_t in, int64_t k, int64_t s, int64_t pad,
			 int64_t dil, int ceil_mode)
{
	int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
	int64_t out = (num < 0 ? num - s + 1 : num) / s + 1;

	/* the last window must start inside the input or the left padding */
	if (ceil_mode && (out - 1) * s >= in + pad)
		out--;
	return out;
}

int ref_pool(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y, *yi = NULL;
	int64_t kh, kw, sh, sw, ph = 0, pw = 0, dh = 1, dw = 1, oh, ow, h, w, planes;
	int64_t shape[4], div_override = 0;
	int ceil_mode = 0, incl = 1, nd, id = op->id;

	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	if (x->ndim != 3 && x->ndim != 4)
		return npu_errf(op->e, "input must be 3-d or 4-d");
	nd = x->ndim;
	h = x->shape[nd - 2];
	w = x->shape[nd - 1];
	planes = h && w ? npu_reftensor_numel(x) / (h * w) : 0;
	if (id == NPU_AOP_ADAPTIVE_AVG_POOL2D || id == NPU_AOP_ADAPTIVE_MAX_POOL2D) {
		if (pair(op, 1, "output_size", 2, 1, &oh, &ow) < 0)
			return -1;
		kh = kw = sh = sw = 1;
	} else {
		if (pair(op, 1, "kernel_size", 2, 1, &kh, &kw) < 0)
			return -1;
		sh = kh;
		sw = kw;
		if (pair(op, 2, "stride", 2, 0, &sh, &sw) < 0 ||
		    pair(op, 3, "padding", 2, 0, &ph, &pw) < 0)
			return -1;
		if (!sh && !sw) {  /* stride=[] means the kernel size */
			sh = kh;
			sw = kw;
		}
		if (id == NPU_AOP_MAX_POOL2D) {
			if (pair(op, 4, "dilation", 2, 1, &dh, &dw) < 0 ||
			    ref_bool(op, 5, "ceil_mode", 0, &ceil_mode) < 0)
				return -1;
		} else if (ref_bool(op, 4, "ceil_mode", 0, &ceil_mode) < 0 ||
			   ref_bool(op, 5, "count_include_pad", 1, &incl) < 0 ||
			   ref_int(op, 6, "divisor_override", 0, &div_override) < 0) {
			return -1;
		}
		if (kh <= 0 || kw <= 0 || sh <= 0 || sw <= 0 || ph < 0 || pw < 0 ||
		    dh <= 0 || dw <= 0 || 2 * ph > kh || 2 * pw > kw)
			return npu_errf(op->e, "bad kernel, stride, padding or dilation");
		oh = npu_ref_pool_len(h, kh, sh, ph, dh, ceil_mode);
		ow = npu_ref_pool_len(w, kw, sw, pw, dw, ceil_mode);
	}
	if (oh <= 0 || ow <= 0)
		return npu_errf(op->e, "empty pooling output");
	memcpy(shape, x->shape, sizeof shape);
	shape[nd - 2] = oh;
	shape[nd - 1] = ow;
	if (ref_out(op, 0, x->dtype, nd, shape, &y) < 0 ||
	    ((id == NPU_AOP_MAX_POOL2D || id == NPU_AOP_ADAPTIVE_MAX_POOL2D) &&
	     ref_out(op, 1, NPU_DT_I64, nd, shape, &yi) < 0))
		return -1;
	for (int64_t pl = 0; pl < planes; pl++)
		for (int64_t oy = 0; oy < oh; oy++)
			for (int64_t ox = 0; ox < ow; ox++) {
				const double *src = x->data + pl * h * w;
				int64_t y0, y1, x0, x1, at = (pl * oh + oy) * ow + ox;
				double acc = id == NPU_AOP_MAX_POOL2D ? -INFINITY : 0, cnt;
				int64_t best = -1;
				if (id == NPU_AOP_ADAPTIVE_MAX_POOL2D) {
					y0 = oy * h / oh; y1 = ((oy + 1) * h + oh - 1) / oh;
					x0 = ox * w / ow; x1 = ((ox + 1) * w + ow - 1) / ow;
					for (int64_t yy = y0; yy < y1; yy++)
						for (int64_t xx = x0; xx < x1; xx++) {
							double v = src[yy * w + xx];
							if (best < 0 || v > acc || isnan(v)) {
								acc = v;
								best = yy * w + xx;
							}
						}
					y->data[at] = acc;
					yi->data[at] = (double)best;
					continue;
				}
				if (id == NPU_AOP_ADAPTIVE_AVG_POOL2D) {
					y0 = oy * h / oh; y1 = ((oy + 1) * h + oh - 1) / oh;
					x0 = ox * w / ow; x1 = ((ox + 1) * w + ow - 1) / ow;
					cnt = (double)((y1 - y0) * (x1 - x0));
				} else if (id == NPU_AOP_MAX_POOL2D) {
					for (int64_t i = 0; i < kh; i++)
						for (int64_t j = 0; j < kw; j++) {
							int64_t yy = oy * sh - ph + i * dh;
							int64_t xx = ox * sw - pw + j * dw;
							if (yy < 0 || yy >= h || xx < 0 || xx >= w)
								continue;
							double v = src[yy * w + xx];
							if (best < 0 || v > acc || isnan(v)) {
								acc = v;
								best = yy * w + xx;
							}
						}
					y->data[at] = acc;
					yi->data[at] = (double)best;
					continue;
				} else {
					y0 = oy * sh - ph; x0 = ox * sw - pw;
					y1 = y0 + kh < h + ph ? y0 + kh : h + ph;
					x1 = x0 + kw < w + pw ? x0 + kw : w + pw;
					cnt = (double)((y1 - y0) * (x1 - x0));
					y0 = y0 < 0 ? 0 : y0; x0 = x0 < 0 ? 0 : x0;
					y1 = y1 > h ? h : y1; x1 = x1 > w ? w : x1;
					if (!incl)
						cnt = (double)((y1 - y0) * (x1 - x0));
					if (div_override)
						cnt = (double)div_override;
				}
				for (int64_t yy = y0; yy < y1; yy++)
					for (int64_t xx = x0; xx < x1; xx++)
						acc += src[yy * w + xx];
				y->data[at] = acc / cnt;
			}
	return 0;
}

/* ---- normalization ----------------------------------------------- */

/* Per-channel statistics of x [N, C, ...]: mean and biased variance. */
static void channel_stats(const npu_reftensor *x, double *mean, double *var,
			  int64_t *count)
{
	int64_t c = x->shape[1], inner = 1, n = x->shape[0];

	for (int i = 2; i < x->ndim; i++)
		inner *= x->shape[i];
	*count = n * inner;
	for (int64_t ch = 0; ch < c; ch++) {
		double s = 0, q = 0;
		for (int64_t b = 0; b < n; b++)
			for (int64_t i = 0; i < inner; i++)
				s += x->data[(b * c + ch) * inner + i];
		mean[ch] = *count ? s / (double)*count : 0;
		for (int64_t b = 0; b < n; b++)
			for (int64_t i = 0; i < inner; i++) {
				double d = x->data[(b * c + ch) * inner + i] - mean[ch];
				q += d * d;
			}
		var[ch] = *count ? q / (double)*count : 0;
	}
}

int ref_batchnorm(ref_op *op)
{
	const npu_reftensor *x, *w, *b, *rm, *rv;
	npu_reftensor *y, *smean, *srstd, *nrm, *nrv;
	int training = 0, id = op->id, base = 5;
	double mom, eps;
	int64_t c, inner = 1, count = 0, zero = 0;

	if (ref_tensor(op, 0, "input", &x) < 0)
		return -1;
	if (x->ndim < 2)
		return npu_errf(op->e, "input must be at least 2-d");
	w = ref_opt_tensor(op, 1, "weight");
	b = ref_opt_tensor(op, 2, "bias");
	if (id == NPU_AOP_BN_NOSTATS) {
		rm = rv = NULL;
		base = 3;
	} else {
		rm = ref_opt_tensor(op, 3, "running_mean");
		rv = ref_opt_tensor(op, 4, "running_var");
	}
	if (id != NPU_AOP_BN_INFER && ref_bool(op, base++, "training", 0, &training) < 0)
		return -1;
	if (ref_double(op, base, "momentum", 0.1, &mom) < 0 ||
	    ref_double(op, base + 1, "eps", 1e-5, &eps) < 0)
		return -1;
	c = x->shape[1];
	for (int i = 2; i < x->ndim; i++)
		inner *= x->shape[i];
	if ((w && npu_reftensor_numel(w) != c) || (b && npu_reftensor_numel(b) != c) ||
	    (rm && npu_reftensor_numel(rm) != c) || (rv && npu_reftensor_numel(rv) != c))
		return npu_errf(op->e, "per-channel tensors must have %lld entries",
				(long long)c);
	if (!training && (!rm || !rv))
		return npu_errf(op->e, "evaluation needs the running statistics");
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0 ||
	    ref_out(op, 1, x->dtype, 1, training ? &c : &zero, &smean) < 0 ||
	    ref_out(op, 2, x->dtype, 1, training ? &c : &zero, &srstd) < 0)
		return -1;
	double *mean = calloc((size_t)c + 1, sizeof *mean);
	double *var = calloc((size_t)c + 1, sizeof *var);
	if (!mean || !var) {
		free(mean);
		free(var);
		return npu_errf(op->e, "out of memory");
	}
	if (training) {
		channel_stats(x, mean, var, &count);
	} else {
		memcpy(mean, rm->data, (size_t)c * sizeof *mean);
		memcpy(var, rv->data, (size_t)c * sizeof *var);
	}
	for (int64_t ch = 0; ch < c; ch++) {
		double rstd = 1 / sqrt(var[ch] + eps);
		double sc = rstd * (w ? w->data[ch] : 1), sh = b ? b->data[ch] : 0;
		for (int64_t n = 0; n < x->shape[0]; n++)
			for (int64_t i = 0; i < inner; i++) {
				int64_t at = (n * c + ch) * inner + i;
				y->data[at] = (x->data[at] - mean[ch]) * sc + sh;
			}
		if (training) {
			smean->data[ch] = mean[ch];
			srstd->data[ch] = rstd;
		}
	}
	if (id == NPU_AOP_BN_FUNC) {
		if (!rm || !rv) {
			free(mean);
			free(var);
			return npu_errf(op->e, "missing running statistics");
		}
		if (ref_out(op, 3, rm->dtype, 1, &c, &nrm) < 0 ||
		    ref_out(op, 4, rv->dtype, 1, &c, &nrv) < 0) {
			free(mean);
			free(var);
			return -1;
		}
		for (int64_t ch = 0; ch < c; ch++) {
			double unb = count > 1 ? var[ch] * (double)count / (double)(count - 1)
					       : var[ch];
			nrm->data[ch] = training ? (1 - mom) * rm->data[ch] + mom * mean[ch]
						 : rm->data[ch];
			nrv->data[ch] = training ? (1 - mom) * rv->data[ch] + mom * unb
						 : rv->data[ch];
		}
	}
	free(mean);
	free(var);
	return 0;
}

/* native_group_norm: each image's channels in `group` groups of C /
 * group, normalized by the group's mean and biased variance over its
 * channels and HxW positions, then per-channel weight and bias. */
int ref_groupnorm(ref_op *op)
{
	const npu_reftensor *x, *w, *b;
	npu_reftensor *y, *mo, *ro;
	int64_t N, C, HW, G, cg, sz[2];
	double eps;

	if (ref_tensor(op, 0, "input", &x) < 0 || ref_int(op, 3, "N", 0, &N) < 0 ||
	    ref_int(op, 4, "C", 0, &C) < 0 || ref_int(op, 5, "HxW", 0, &HW) < 0 ||
	    ref_int(op, 6, "group", 1, &G) < 0 || ref_double(op, 7, "eps", 1e-5, &eps) < 0)
		return -1;
	w = ref_opt_tensor(op, 1, "weight");
	b = ref_opt_tensor(op, 2, "bias");
	if (G <= 0 || C % G || N * C * HW != npu_reftensor_numel(x) ||
	    (w && npu_reftensor_numel(w) != C) || (b && npu_reftensor_numel(b) != C))
		return npu_errf(op->e, "sizes do not match the input and the groups");
	sz[0] = N;
	sz[1] = G;
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0 ||
	    ref_out(op, 1, x->dtype, 2, sz, &mo) < 0 ||
	    ref_out(op, 2, x->dtype, 2, sz, &ro) < 0)
		return -1;
	cg = C / G;
	for (int64_t n = 0; n < N; n++)
		for (int64_t g = 0; g < G; g++) {
			const double *p = x->data + (n * C + g * cg) * HW;
			int64_t cnt = cg * HW;
			double s = 0, q = 0, mean, rstd;
			for (int64_t i = 0; i < cnt; i++)
				s += p[i];
			mean = cnt ? s / (double)cnt : 0;
			for (int64_t i = 0; i < cnt; i++)
				q += (p[i] - mean) * (p[i] - mean);
			rstd = 1 / sqrt((cnt ? q / (double)cnt : 0) + eps);
			mo->data[n * G + g] = mean;
			ro->data[n * G + g] = rstd;
			for (int64_t c = 0; c < cg; c++) {
				int64_t ch = g * cg + c;
				double sc = rstd * (w ? w->data[ch] : 1), sh = b ? b->data[ch] : 0;
				for (int64_t i = 0; i < HW; i++) {
					int64_t at = (n * C + ch) * HW + i;
					y->data[at] = (x->data[at] - mean) * sc + sh;
				}
			}
		}
	return 0;
}

int ref_layernorm(ref_op *op)
{
	const npu_reftensor *x, *w, *b;
	npu_reftensor *y, *mo, *ro;
	int64_t ns[NPU_MAX_DIMS], shape[NPU_MAX_DIMS], outer = 1, inner = 1;
	int nn, axis;
	double eps;

	if (ref_tensor(op, 0, "input", &x) < 0 ||
	    ref_ints(op, 1, "normalized_shape", ns, NPU_MAX_DIMS, &nn) < 0 ||
	    ref_double(op, 4, "eps", 1e-5, &eps) < 0)
		return -1;
	axis = x->ndim - nn;
	if (axis < 0)
		return npu_errf(op->e, "normalized_shape longer than the input");
	for (int i = 0; i < x->ndim; i++) {
		if (i >= axis && x->shape[i] != ns[i - axis])
			return npu_errf(op->e, "normalized_shape does not match");
		shape[i] = i < axis ? x->shape[i] : 1;
		if (i < axis)
			outer *= x->shape[i];
		else
			inner *= x->shape[i];
	}
	w = ref_opt_tensor(op, 2, "weight");
	b = ref_opt_tensor(op, 3, "bias");
	if ((w && npu_reftensor_numel(w) != inner) || (b && npu_reftensor_numel(b) != inner))
		return npu_errf(op->e, "weight or bias has the wrong size");
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0 ||
	    ref_out(op, 1, x->dtype, x->ndim, shape, &mo) < 0 ||
	    ref_out(op, 2, x->dtype, x->ndim, shape, &ro) < 0)
		return -1;
	for (int64_t o = 0; o < outer; o++) {
		const double *p = x->data + o * inner;
		double s = 0, q = 0, m, r;
		for (int64_t i = 0; i < inner; i++)
			s += p[i];
		m = inner ? s / (double)inner : 0;
		for (int64_t i = 0; i < inner; i++)
			q += (p[i] - m) * (p[i] - m);
		r = 1 / sqrt((inner ? q / (double)inner : 0) + eps);
		for (int64_t i = 0; i < inner; i++)
			y->data[o * inner + i] = (p[i] - m) * r * (w ? w->data[i] : 1) +
						 (b ? b->data[i] : 0);
		mo->data[o] = m;
		ro->data[o] = r;
	}
	return 0;
}

/* ---- quantization ------------------------------------------------ */

/*
 * quantize_per_tensor is computed the way PyTorch's decomposition does,
 * in the input's precision: fp32 inputs multiply by (float)(1 / scale)
 * in fp32, round half to even, add the zero point, clamp.  The rounding
 * step makes this exactness part of the semantics, so it holds in both
 * precision modes.
 */
/* dequantize_per_channel: (x - zp[c]) * scale[c] along axis. */
static int dequant_pc(ref_op *op)
{
	const npu_reftensor *x, *s, *z;
	npu_reftensor *y;
	int64_t axis, inner = 1, c;
	int dt;

	if (ref_tensor(op, 0, "input", &x) < 0 ||
	    ref_tensor(op, 1, "scales", &s) < 0 ||
	    ref_tensor(op, 2, "zero_points", &z) < 0 ||
	    ref_int(op, 3, "axis", 0, &axis) < 0 ||
	    ref_dtype(op, -1, "out_dtype", NPU_DT_F32, &dt) < 0)
		return -1;
	if (axis < 0)
		axis += x->ndim;
	if (axis < 0 || axis >= x->ndim)
		return npu_errf(op->e, "axis out of range");
	c = x->shape[axis];
	if (npu_reftensor_numel(s) != c || npu_reftensor_numel(z) != c)
		return npu_errf(op->e, "scales and zero_points need %lld values",
				(long long)c);
	for (int d = (int)axis + 1; d < x->ndim; d++)
		inner *= x->shape[d];
	if (ref_out(op, 0, dt, x->ndim, x->shape, &y) < 0)
		return -1;
	for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++) {
		int64_t ch = inner ? i / inner % c : 0;
		y->data[i] = (x->data[i] - z->data[ch]) * s->data[ch];
	}
	return 0;
}

int ref_quant(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	double scale, zp, qmin, qmax;
	int dt, f32;

	if (op->id == NPU_AOP_DEQUANTIZE_PC)
		return dequant_pc(op);
	if (ref_tensor(op, 0, "input", &x) < 0 ||
	    ref_double(op, 1, "scale", 1, &scale) < 0 ||
	    ref_double(op, 2, "zero_point", 0, &zp) < 0 ||
	    ref_double(op, 3, "quant_min", 0, &qmin) < 0 ||
	    ref_double(op, 4, "quant_max", 0, &qmax) < 0 ||
	    ref_dtype(op, 5, "dtype", NPU_DT_I8, &dt) < 0)
		return -1;
	if (op->id == NPU_AOP_DEQUANTIZE) {
		if (ref_dtype(op, -1, "out_dtype", NPU_DT_F32, &dt) < 0 ||
		    ref_out(op, 0, dt, x->ndim, x->shape, &y) < 0)
			return -1;
		for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++)
			y->data[i] = (x->data[i] - zp) * scale;
		return 0;
	}
	if (ref_out(op, 0, dt, x->ndim, x->shape, &y) < 0)
		return -1;
	f32 = x->dtype != NPU_DT_F64;
	for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++) {
		double v = f32 ? (double)((float)x->data[i] * (float)(1.0 / scale))
			       : x->data[i] * (1.0 / scale);
		v = nearbyint(v) + zp;
		y->data[i] = v < qmin ? qmin : v > qmax ? qmax : v;
	}
	return 0;
}

/* ---- pooling backward -------------------------------------------- */

/* The input window [y0, y1) x [x0, x1) of output (oy, ox) of an average
 * pool (adaptive when k[0] == 0) and the divisor of its sum, exactly as
 * ref_pool computes them. */
typedef struct poolw {
	int64_t h, w, oh, ow, kh, kw, sh, sw, ph, pw, div_override;
	int incl, adaptive;
} poolw;

static double avg_window(const poolw *p, int64_t oy, int64_t ox, int64_t *y0,
			 int64_t *y1, int64_t *x0, int64_t *x1)
{
	double cnt;

	if (p->adaptive) {
		*y0 = oy * p->h / p->oh; *y1 = ((oy + 1) * p->h + p->oh - 1) / p->oh;
		*x0 = ox * p->w / p->ow; *x1 = ((ox + 1) * p->w + p->ow - 1) / p->ow;
		return (double)((*y1 - *y0) * (*x1 - *x0));
	}
	*y0 = oy * p->sh - p->ph; *x0 = ox * p->sw - p->pw;
	*y1 = *y0 + p->kh < p->h + p->ph ? *y0 + p->kh : p->h + p->ph;
	*x1 = *x0 + p->kw < p->w + p->pw ? *x0 + p->kw : p->w + p->pw;
	cnt = (double)((*y1 - *y0) * (*x1 - *x0));
	*y0 = *y0 < 0 ? 0 : *y0; *x0 = *x0 < 0 ? 0 : *x0;
	*y1 = *y1 > p->h ? p->h : *y1; *x1 = *x1 > p->w ? p->w : *x1;
	if (!p->incl)
		cnt = (double)((*y1 - *y0) * (*x1 - *x0));
	if (p->div_override)
		cnt = (double)p->div_override;
	return cnt;
}

/* avg_pool2d_backward's kernel, stride, padding and divisor arguments. */
static int avg_bwd_params(ref_op *op, poolw *p)
{
	if (pair(op, 2, "kernel_size", 2, 1, &p->kh, &p->kw) < 0)
		return -1;
	p->sh = p->kh;
	p->sw = p->kw;
	if (pair(op, 3, "stride", 2, 0, &p->sh, &p->sw) < 0 ||
	    pair(op, 4, "padding", 2, 0, &p->ph, &p->pw) < 0 ||
	    ref_bool(op, 6, "count_include_pad", 1, &p->incl) < 0 ||
	    ref_int(op, 7, "divisor_override", 0, &p->div_override) < 0)
		return -1;
	if (!p->sh && !p->sw) {
		p->sh = p->kh;
		p->sw = p->kw;
	}
	if (p->kh <= 0 || p->kw <= 0 || p->sh <= 0 || p->sw <= 0)
		return npu_errf(op->e, "bad kernel or stride");
	return 0;
}

/* max_pool2d_with_indices_backward, avg_pool2d_backward,
 * _adaptive_avg_pool2d_backward: the output window sizes come from
 * grad_output's shape, the windows from the forward's arguments. */
int ref_pool_bwd(ref_op *op)
{
	const npu_reftensor *go, *x, *ix = NULL;
	npu_reftensor *gi;
	poolw p = { .incl = 1 };
	int64_t planes;
	int nd;

	if (ref_tensor(op, 0, "grad_output", &go) < 0 ||
	    ref_tensor(op, 1, "self", &x) < 0)
		return -1;
	nd = x->ndim;
	if ((nd != 3 && nd != 4) || go->ndim != nd)
		return npu_errf(op->e, "input and grad_output must be 3-d or 4-d");
	p.h = x->shape[nd - 2];
	p.w = x->shape[nd - 1];
	p.oh = go->shape[nd - 2];
	p.ow = go->shape[nd - 1];
	planes = p.h && p.w ? npu_reftensor_numel(x) / (p.h * p.w) : 0;
	if (planes * p.oh * p.ow != npu_reftensor_numel(go))
		return npu_errf(op->e, "grad_output does not match the input's planes");
	if (op->id == NPU_AOP_MAX_POOL2D_BWD) {
		if (ref_tensor(op, 7, "indices", &ix) < 0)
			return -1;
		if (npu_reftensor_numel(ix) != npu_reftensor_numel(go))
			return npu_errf(op->e, "indices do not match grad_output");
	} else if (op->id == NPU_AOP_ADAPTIVE_AVG_POOL2D_BWD) {
		p.adaptive = 1;
	} else if (avg_bwd_params(op, &p) < 0) {
		return -1;
	}
	if (ref_out(op, 0, go->dtype, nd, x->shape, &gi) < 0)
		return -1;
	for (int64_t pl = 0; pl < planes; pl++)
		for (int64_t oy = 0; oy < p.oh; oy++)
			for (int64_t ox = 0; ox < p.ow; ox++) {
				int64_t at = (pl * p.oh + oy) * p.ow + ox, y0, y1, x0, x1;
				double *dst = gi->data + pl * p.h * p.w, g = go->data[at], cnt;
				if (ix) {
					int64_t k = (int64_t)ix->data[at];
					if (k < 0 || k >= p.h * p.w)
						return npu_errf(op->e, "index %lld outside the plane",
								(long long)k);
					dst[k] += g;
					continue;
				}
				cnt = avg_window(&p, oy, ox, &y0, &y1, &x0, &x1);
				for (int64_t yy = y0; yy < y1; yy++)
					for (int64_t xx = x0; xx < x1; xx++)
						dst[yy * p.w + xx] += g / cnt;
			}
	return 0;
}

/* ---- resampling -------------------------------------------------- */

int64_t npu_ref_nearest_src(int64_t dst, int64_t in, int64_t out, double s)
{
	float scale;
	int64_t src;

	if (out == in)
		return dst;
	if (out == 2 * in)
		return dst >> 1;
	scale = s > 0 ? (float)(1.0 / s) : (float)in / (float)out;
	src = (int64_t)floorf((float)dst * scale);
	return src < in - 1 ? src : in - 1;
}

void npu_ref_linear_src(int64_t dst, int64_t in, int64_t out, int align, double s,
			int64_t *i0, int64_t *step, double *lam)
{
	double scale, src;

	if (align)
		scale = out > 1 ? (double)(in - 1) / (double)(out - 1) : 0;
	else
		scale = s > 0 ? 1.0 / s : (double)in / (double)out;
	src = align ? scale * (double)dst : scale * ((double)dst + 0.5) - 0.5;
	if (!align && src < 0)
		src = 0;
	*i0 = (int64_t)src;
	*step = *i0 < in - 1 ? 1 : 0;
	*lam = src - (double)*i0;
}

/*
 * upsample_* (nearest, and linear, bilinear, trilinear) over k = 1, 2 or
 * 3 spatial dims.  The output size is output_size, or floor(in * s) for
 * scale_factors s.  The source index uses PyTorch's scale: in / out, or
 * 1 / s when scale factors were given (so an output size rounded down
 * does not change the sampling).  Per dim npu_ref_nearest_src (in float32, as
 * PyTorch's nearest_idx() does: floorf(dst * scale)), or npu_ref_linear_src's
 * two neighbours and weight (fp64), the 2^k corners summed.
 */
static int upsample_nd(ref_op *op, const npu_reftensor *x, int k, int lin)
{
	npu_reftensor *y;
	int64_t o[3], shape[5], planes, iv[3], n, in = 1, out = 1, idx[3];
	double sc[3] = { 0, 0, 0 };
	const npu_gval *sf = ref_arg(op, lin ? 3 : 2, "scale_factors");
	int align = 0, nn;

	if (x->ndim != k + 2)
		return npu_errf(op->e, "input must be %d-d", k + 2);
	if (ref_ints(op, 1, "output_size", o, 3, &nn) < 0 ||
	    (lin && ref_bool(op, 2, "align_corners", 0, &align) < 0))
		return -1;
	if (nn != k) {
		if (!sf || sf->kind != NPU_GV_LIST || sf->u.list.n != k)
			return npu_errf(op->e, "needs output_size or scale_factors of %d values", k);
		for (int i = 0; i < k; i++) {
			double f;
			if (ref_gval_num(op, &sf->u.list.v[i], &sc[i]) < 0)
				return -1;
			f = floor((double)x->shape[2 + i] * sc[i]);
			if (!(f >= 0 && f <= 0x1p40))
				return npu_errf(op->e, "scale factor out of range");
			o[i] = (int64_t)f;
		}
	}
	memcpy(shape, x->shape, sizeof shape);
	for (int i = 0; i < k; i++) {
		if (o[i] <= 0)
			return npu_errf(op->e, "empty output size");
		iv[i] = x->shape[2 + i];
		shape[2 + i] = o[i];
		in *= iv[i];
		out *= o[i];
	}
	if (ref_out(op, 0, x->dtype, k + 2, shape, &y) < 0)
		return -1;
	planes = x->shape[0] * x->shape[1];
	for (int64_t pl = 0; pl < planes; pl++)
		for (n = 0; n < out; n++) {
			const double *src = x->data + pl * in;
			int64_t r = n, i0[3], st[3];
			double lam[3], acc = 0;
			for (int i = k - 1; i >= 0; i--) {
				idx[i] = r % o[i];
				r /= o[i];
			}
			for (int i = 0; i < k; i++) {
				if (lin) {
					npu_ref_linear_src(idx[i], iv[i], o[i], align, sc[i], &i0[i], &st[i],
							   &lam[i]);
				} else {
					i0[i] = npu_ref_nearest_src(idx[i], iv[i], o[i], sc[i]);
					st[i] = 0;
					lam[i] = 0;
				}
			}
			for (int c = 0; c < 1 << k; c++) {
				double wgt = 1;
				int64_t off = 0;
				for (int i = 0; i < k; i++) {
					int hi = c >> i & 1;
					wgt *= hi ? lam[i] : 1 - lam[i];
					off = off * iv[i] + i0[i] + (hi ? st[i] : 0);
				}
				/* nearest's other corners (weight 0) are none;
				 * linear's count even at weight 0, as PyTorch's
				 * w0 * x0 + w1 * x1 does (0 * inf is NaN) */
				if (lin || wgt != 0)
					acc += wgt * src[off];
			}
			y->data[pl * out + n] = acc;
		}
	return 0;
}

/* affine_grid_generator(theta, size, align_corners): for each output
 * position the normalized coordinates (x, y[, z], 1) times theta [N, k,
 * k + 1], k = 2 (size [N, C, H, W]) or 3 (size [N, C, D, H, W]). */
int ref_affgrid(ref_op *op)
{
	const npu_reftensor *th;
	npu_reftensor *y;
	int64_t sz[5], shape[5], pos = 0;
	int n, k, align;

	if (ref_tensor(op, 0, "theta", &th) < 0 || ref_ints(op, 1, "size", sz, 5, &n) < 0 ||
	    ref_bool(op, 2, "align_corners", 0, &align) < 0)
		return -1;
	k = n - 2;
	if ((k != 2 && k != 3) || th->ndim != 3 || th->shape[0] != sz[0] ||
	    th->shape[1] != k || th->shape[2] != k + 1)
		return npu_errf(op->e, "theta must be [N, 2, 3] (size 4-d) or [N, 3, 4] (size 5-d)");
	shape[0] = sz[0];
	for (int i = 0; i < k; i++)
		shape[1 + i] = sz[2 + i];
	shape[1 + k] = k;
	if (ref_out(op, 0, th->dtype, k + 2, shape, &y) < 0)
		return -1;
	for (int64_t b = 0; b < sz[0]; b++) {
		int64_t npos = 1;
		for (int i = 0; i < k; i++)
			npos *= sz[2 + i];
		for (int64_t p = 0; p < npos; p++) {
			/* the coordinates in x, y, z order: the last dim is x */
			double c[4];
			int64_t r = p;
			for (int i = k - 1; i >= 0; i--) {
				int64_t len = sz[2 + i], at = r % len;
				r /= len;
				c[k - 1 - i] = align ? (len > 1 ? 2.0 * (double)at / (double)(len - 1) - 1 : 0)
						     : (2.0 * (double)at + 1) / (double)len - 1;
			}
			c[k] = 1;
			for (int j = 0; j < k; j++) {
				double acc = 0;
				for (int i = 0; i <= k; i++)
					acc += th->data[(b * k + j) * (k + 1) + i] * c[i];
				y->data[pos++] = acc;
			}
		}
	}
	return 0;
}

/* max_unpool2d(self, indices, output_size): each value written at its
 * flat index into a zeroed [.., oh, ow] plane. */
int ref_unpool(ref_op *op)
{
	const npu_reftensor *x, *ix;
	npu_reftensor *y;
	int64_t os[2], shape[4], planes, inpl, outpl;
	int n;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_tensor(op, 1, "indices", &ix) < 0 ||
	    ref_ints(op, 2, "output_size", os, 2, &n) < 0)
		return -1;
	if (n != 2 || x->ndim < 3 || x->ndim > 4 || ix->ndim != x->ndim ||
	    npu_reftensor_numel(ix) != npu_reftensor_numel(x))
		return npu_errf(op->e, "needs 3-d or 4-d values, indices of their shape, and [oh, ow]");
	memcpy(shape, x->shape, sizeof shape);
	shape[x->ndim - 2] = os[0];
	shape[x->ndim - 1] = os[1];
	if (ref_out(op, 0, x->dtype, x->ndim, shape, &y) < 0)
		return -1;
	inpl = x->shape[x->ndim - 2] * x->shape[x->ndim - 1];
	outpl = os[0] * os[1];
	planes = inpl ? npu_reftensor_numel(x) / inpl : 0;
	for (int64_t p = 0; p < planes; p++)
		for (int64_t i = 0; i < inpl; i++) {
			double at = ix->data[p * inpl + i];
			if (at < 0 || at >= (double)outpl)
				return npu_errf(op->e, "index %g outside an output plane of %lld",
						at, (long long)outpl);
			y->data[p * outpl + (int64_t)at] = x->data[p * inpl + i];
		}
	return 0;
}

/*
 * _trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim):
 * each input with size-1 dims inserted at its expand list's positions
 * (all then of one rank R), their broadcast product summed over sumdim,
 * those dims dropped (nn.Bilinear: x1 W x2).
 */
int ref_trilinear(ref_op *op)
{
	const npu_reftensor *t[3];
	npu_reftensor *y;
	int64_t ex[3][NPU_MAX_DIMS], sd[NPU_MAX_DIMS], st[3][NPU_MAX_DIMS], size[NPU_MAX_DIMS];
	int64_t oshape[NPU_MAX_DIMS], ost[NPU_MAX_DIMS], total = 1, idx[NPU_MAX_DIMS];
	int nex[3], nsd, R = -1, on = 0, summed[NPU_MAX_DIMS] = { 0 };
	static const char *const nm[3] = { "i1", "i2", "i3" }, *const en[3] = { "expand1", "expand2", "expand3" };

	for (int k = 0; k < 3; k++)
		if (ref_tensor(op, k, nm[k], &t[k]) < 0 ||
		    ref_ints(op, 3 + k, en[k], ex[k], NPU_MAX_DIMS, &nex[k]) < 0)
			return -1;
	if (ref_ints(op, 6, "sumdim", sd, NPU_MAX_DIMS, &nsd) < 0)
		return -1;
	for (int k = 0; k < 3; k++) {
		int r = t[k]->ndim + nex[k], j = 0;
		if ((R >= 0 && r != R) || r > NPU_MAX_DIMS)
			return npu_errf(op->e, "the expanded inputs differ in rank");
		R = r;
		for (int d = 0; d < R; d++) {
			int ins = 0;
			for (int e = 0; e < nex[k]; e++)
				ins |= ex[k][e] == d;
			st[k][d] = ins ? -1 : j++;   /* the input's dim, or -1 */
		}
	}
	for (int i = 0; i < nsd; i++) {
		if (sd[i] < 0 || sd[i] >= R)
			return npu_errf(op->e, "bad sumdim");
		summed[sd[i]] = 1;
	}
	for (int d = 0; d < R; d++) {
		size[d] = 1;
		for (int k = 0; k < 3; k++)
			if (st[k][d] >= 0 && t[k]->shape[st[k][d]] != 1) {
				int64_t n = t[k]->shape[st[k][d]];
				if (size[d] != 1 && size[d] != n)
					return npu_errf(op->e, "sizes do not broadcast");
				size[d] = n;
			}
		total *= size[d];
		if (!summed[d])
			oshape[on++] = size[d];
	}
	if (ref_out(op, 0, ref_promote(t[0]->dtype, t[1]->dtype), on, oshape, &y) < 0)
		return -1;
	ref_strides(on, oshape, ost);
	/* strides of each input over the R dims (0 where broadcast) */
	int64_t bs[3][NPU_MAX_DIMS];
	for (int k = 0; k < 3; k++) {
		int64_t is[NPU_MAX_DIMS];
		ref_strides(t[k]->ndim, t[k]->shape, is);
		for (int d = 0; d < R; d++)
			bs[k][d] = st[k][d] < 0 || t[k]->shape[st[k][d]] == 1 ? 0 : is[st[k][d]];
	}
	for (int64_t n = 0; n < total; n++) {
		int64_t r = n, off[3] = { 0, 0, 0 }, o = 0;
		double v = 1;
		for (int d = R - 1; d >= 0; d--) {
			idx[d] = r % size[d];
			r /= size[d];
		}
		for (int d = 0, q = 0; d < R; d++) {
			for (int k = 0; k < 3; k++)
				off[k] += idx[d] * bs[k][d];
			if (!summed[d])
				o += idx[d] * ost[q++];
		}
		for (int k = 0; k < 3; k++)
			v *= t[k]->data[off[k]];
		y->data[o] += v;
	}
	return 0;
}

int ref_upsample(ref_op *op)
{
	const npu_reftensor *x;

	if (ref_tensor(op, 0, "input", &x) < 0)
		return -1;
	switch (op->id) {
	case NPU_AOP_UPSAMPLE_NEAREST1D: return upsample_nd(op, x, 1, 0);
	case NPU_AOP_UPSAMPLE_NEAREST2D: return upsample_nd(op, x, 2, 0);
	case NPU_AOP_UPSAMPLE_NEAREST3D: return upsample_nd(op, x, 3, 0);
	case NPU_AOP_UPSAMPLE_LINEAR1D: return upsample_nd(op, x, 1, 1);
	case NPU_AOP_UPSAMPLE_BILINEAR2D: return upsample_nd(op, x, 2, 1);
	default: return upsample_nd(op, x, 3, 1);   /* trilinear */
	}
}

/* PyTorch's reflect_coordinates: x mirrored into [lo2/2, hi2/2]. */
static double gs_reflect(double x, int64_t lo2, int64_t hi2)
{
	double mn = (double)lo2 / 2, span = (double)(hi2 - lo2) / 2, extra, flips;

	if (lo2 == hi2)
		return 0;
	x = fabs(x - mn);
	extra = fmod(x, span);
	flips = floor(x / span);
	return fmod(flips, 2) == 0 ? extra + mn : span - extra + mn;
}

/* PyTorch's clip_coordinates as its vectorized CPU kernel computes it
 * (GridSamplerKernel.cpp: clamp_max(size - 1, clamp_min(0, x)), whose
 * operand order makes NaN 0). */
static double gs_clip(double x, int64_t size)
{
	x = x > 0 ? x : 0;
	return x < (double)(size - 1) ? x : (double)(size - 1);
}

/* grid_sampler_compute_source_index as the vectorized CPU kernel, which
 * runs every float grid_sampler_2d on the CPU: a normalized coordinate
 * to pixels, then padded.  Non-finite results stay so (its corners lie
 * outside; bilinear weights of NaN make the sample NaN). */
static double gs_source(double c, int64_t size, int pad, int align)
{
	c = align ? (c + 1) / 2 * (double)(size - 1) : ((c + 1) * (double)size - 1) / 2;
	if (pad == 1) {
		c = gs_clip(c, size);
	} else if (pad == 2) {
		c = align ? gs_reflect(c, 0, 2 * (size - 1)) : gs_reflect(c, -1, 2 * size - 1);
		c = gs_clip(c, size);
	}
	return c;
}

/* p[y][x], or 0 outside (NaN coordinates too: the kernel's integer
 * conversion makes them INT_MIN). */
static double gs_at(const double *p, int64_t h, int64_t w, double y, double x)
{
	return y >= 0 && y < (double)h && x >= 0 && x < (double)w ?
	       p[(int64_t)y * w + (int64_t)x] : 0;
}

int ref_gridsample(ref_op *op)
{
	const npu_reftensor *x, *g;
	npu_reftensor *y;
	int64_t mode, pad, shape[4], n, c, h, w, oh, ow;
	int align;

	if (ref_tensor(op, 0, "input", &x) < 0 || ref_tensor(op, 1, "grid", &g) < 0 ||
	    ref_int(op, 2, "interpolation_mode", 0, &mode) < 0 ||
	    ref_int(op, 3, "padding_mode", 0, &pad) < 0 ||
	    ref_bool(op, 4, "align_corners", 0, &align) < 0)
		return -1;
	if (x->ndim != 4 || g->ndim != 4 || g->shape[0] != x->shape[0] || g->shape[3] != 2)
		return npu_errf(op->e, "input must be [N, C, H, W] and grid [N, H', W', 2]");
	if (mode != 0 && mode != 1)
		return npu_errf(op->e, "interpolation mode %lld: only bilinear (0) and "
				"nearest (1)", (long long)mode);
	if (pad < 0 || pad > 2)
		return npu_errf(op->e, "padding mode %lld (0 zeros, 1 border, 2 reflection)",
				(long long)pad);
	n = x->shape[0]; c = x->shape[1]; h = x->shape[2]; w = x->shape[3];
	oh = g->shape[1]; ow = g->shape[2];
	shape[0] = n; shape[1] = c; shape[2] = oh; shape[3] = ow;
	if (ref_out(op, 0, x->dtype, 4, shape, &y) < 0)
		return -1;
	for (int64_t b = 0; b < n; b++)
		for (int64_t i = 0; i < oh * ow; i++) {
			const double *gp = g->data + (b * oh * ow + i) * 2;
			double ix = gs_source(gp[0], w, (int)pad, align);
			double iy = gs_source(gp[1], h, (int)pad, align);
			double fx = floor(ix), fy = floor(iy), ex = ix - fx, ey = iy - fy;
			double nx = nearbyint(ix), ny = nearbyint(iy);
			for (int64_t ch = 0; ch < c; ch++) {
				const double *p = x->data + (b * c + ch) * h * w;
				double *d = &y->data[(b * c + ch) * oh * ow + i];
				if (mode == 1) {
					*d = gs_at(p, h, w, ny, nx);
					continue;
				}
				*d = gs_at(p, h, w, fy, fx) * (1 - ex) * (1 - ey) +
				     gs_at(p, h, w, fy, fx + 1) * ex * (1 - ey) +
				     gs_at(p, h, w, fy + 1, fx) * (1 - ex) * ey +
				     gs_at(p, h, w, fy + 1, fx + 1) * ex * ey;
			}
		}
	return 0;
}

/* torchvision's bilinear_interpolate for roi_align: zero outside
 * [-1, size]; clamped to the last row or column within it. */
static double roi_bilinear(const double *p, int64_t h, int64_t w, double y, double x)
{
	int64_t y0, x0, y1, x1;
	double ly, lx;

	if (y < -1.0 || y > (double)h || x < -1.0 || x > (double)w)
		return 0;
	y = y <= 0 ? 0 : y;
	x = x <= 0 ? 0 : x;
	y0 = (int64_t)y;
	x0 = (int64_t)x;
	if (y0 >= h - 1) {
		y0 = y1 = h - 1;
		y = (double)y0;
	} else {
		y1 = y0 + 1;
	}
	if (x0 >= w - 1) {
		x0 = x1 = w - 1;
		x = (double)x0;
	} else {
		x1 = x0 + 1;
	}
	ly = y - (double)y0;
	lx = x - (double)x0;
	return (1 - ly) * (1 - lx) * p[y0 * w + x0] + (1 - ly) * lx * p[y0 * w + x1] +
	       ly * (1 - lx) * p[y1 * w + x0] + ly * lx * p[y1 * w + x1];
}

/* Samples a bin takes at most: more is a malformed box or ratio. */
#define ROI_MAX_SAMPLES (1 << 16)

/* One roi's [C, ph, pw] bins (torchvision's roi_align_forward_kernel);
 * -1 when its samples per bin pass ROI_MAX_SAMPLES.  A roi with a
 * non-finite coordinate gives NaN bins. */
static int roi_one(const double *img, int64_t c, int64_t h, int64_t w,
		   const double *roi, double scale, int64_t ph, int64_t pw,
		   int64_t ratio, int aligned, double *out)
{
	double off = aligned ? 0.5 : 0;
	double x1 = roi[1] * scale - off, y1 = roi[2] * scale - off;
	double rw = roi[3] * scale - off - x1, rh = roi[4] * scale - off - y1;
	double bh, bw, sh, sw;
	int64_t gh, gw;

	if (!isfinite(x1) || !isfinite(y1) || !isfinite(rw) || !isfinite(rh)) {
		for (int64_t i = 0; i < c * ph * pw; i++)
			out[i] = NAN;
		return 0;
	}
	if (!aligned) {         /* malformed rois forced to 1x1 */
		rw = rw > 1 ? rw : 1;
		rh = rh > 1 ? rh : 1;
	}
	bh = rh / (double)ph;
	bw = rw / (double)pw;
	sh = ratio > 0 ? (double)ratio : ceil(bh);
	sw = ratio > 0 ? (double)ratio : ceil(bw);
	if (sh * sw > ROI_MAX_SAMPLES)
		return -1;
	gh = (int64_t)sh;       /* <= 0 for an empty aligned roi: no samples */
	gw = (int64_t)sw;
	for (int64_t ch = 0; ch < c; ch++)
		for (int64_t i = 0; i < ph; i++)
			for (int64_t j = 0; j < pw; j++) {
				double sum = 0, n = (double)(gh * gw > 1 ? gh * gw : 1);
				for (int64_t iy = 0; iy < gh; iy++)
					for (int64_t ix = 0; ix < gw; ix++)
						sum += roi_bilinear(img + ch * h * w, h, w,
							y1 + (double)i * bh + ((double)iy + 0.5) * bh / (double)gh,
							x1 + (double)j * bw + ((double)ix + 0.5) * bw / (double)gw);
				out[(ch * ph + i) * pw + j] = sum / n;
			}
	return 0;
}

/* torchvision.roi_align: a host call wherever it appears (the rois are
 * data: Faster and Mask R-CNN's box heads). */
int ref_roialign(ref_op *op)
{
	const npu_reftensor *x, *r;
	npu_reftensor *y;
	double scale;
	int64_t ph, pw, ratio, shape[4], n, c, h, w;
	int aligned;

	if (ref_tensor(op, 0, "input", &x) < 0 || ref_tensor(op, 1, "rois", &r) < 0 ||
	    ref_double(op, 2, "spatial_scale", 1, &scale) < 0 ||
	    ref_int(op, 3, "pooled_height", 1, &ph) < 0 ||
	    ref_int(op, 4, "pooled_width", 1, &pw) < 0 ||
	    ref_int(op, 5, "sampling_ratio", -1, &ratio) < 0 ||
	    ref_bool(op, 6, "aligned", 0, &aligned) < 0)
		return -1;
	if (x->ndim != 4 || r->ndim != 2 || r->shape[1] != 5 || ph <= 0 || pw <= 0 ||
	    x->shape[2] <= 0 || x->shape[3] <= 0)
		return npu_errf(op->e, "input must be [N, C, H, W] of pixels, rois "
				"[K, 5], the pooled sizes positive");
	n = x->shape[0]; c = x->shape[1]; h = x->shape[2]; w = x->shape[3];
	shape[0] = r->shape[0]; shape[1] = c; shape[2] = ph; shape[3] = pw;
	if (ref_out(op, 0, x->dtype, 4, shape, &y) < 0)
		return -1;
	for (int64_t k = 0; k < r->shape[0]; k++) {
		const double *roi = r->data + k * 5;
		if (!(roi[0] >= 0 && roi[0] < (double)n))
			return npu_errf(op->e, "roi %lld: batch index %g out of range",
					(long long)k, roi[0]);
		if (roi_one(x->data + (int64_t)roi[0] * c * h * w, c, h, w, roi, scale, ph, pw, ratio,
			    aligned, y->data + k * c * ph * pw) < 0)
			return npu_errf(op->e, "roi %lld: more than %d samples a bin",
					(long long)k, ROI_MAX_SAMPLES);
	}
	return 0;
}

/* col2im (fold): column l = (ly, lx) of row (c, i, j) adds to pixel
 * (ly*sh - ph + i*dh, lx*sw - pw + j*dw) of channel c. */
int ref_col2im(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t oh, ow, kh, kw, dh, dw, ph, pw, sh, sw, lh, lw, n, c, shape[4];
	int batched;

	if (ref_tensor(op, 0, "self", &x) < 0 ||
	    pair(op, 1, "output_size", 2, 1, &oh, &ow) < 0 ||
	    pair(op, 2, "kernel_size", 2, 1, &kh, &kw) < 0 ||
	    pair(op, 3, "dilation", 2, 1, &dh, &dw) < 0 ||
	    pair(op, 4, "padding", 2, 0, &ph, &pw) < 0 ||
	    pair(op, 5, "stride", 2, 1, &sh, &sw) < 0)
		return -1;
	batched = x->ndim == 3;
	if ((x->ndim != 2 && !batched) || kh <= 0 || kw <= 0 || sh <= 0 || sw <= 0 ||
	    dh <= 0 || dw <= 0)
		return npu_errf(op->e, "input must be 2-d or 3-d; kernel, stride, "
				"dilation positive");
	n = batched ? x->shape[0] : 1;
	c = x->shape[batched] / (kh * kw);
	lh = (oh + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
	lw = (ow + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
	if (c * kh * kw != x->shape[batched] || lh * lw != x->shape[batched + 1])
		return npu_errf(op->e, "input [%lld, %lld] does not fit the blocks",
				(long long)x->shape[batched], (long long)x->shape[batched + 1]);
	shape[0] = n; shape[1] = c; shape[2] = oh; shape[3] = ow;
	if (ref_out(op, 0, x->dtype, batched ? 4 : 3, batched ? shape : shape + 1, &y) < 0)
		return -1;
	for (int64_t b = 0; b < n; b++)
		for (int64_t r = 0; r < c * kh * kw; r++) {
			int64_t ch = r / (kh * kw), i = r / kw % kh, j = r % kw;
			for (int64_t l = 0; l < lh * lw; l++) {
				int64_t yy = l / lw * sh - ph + i * dh, xx = l % lw * sw - pw + j * dw;
				if (yy < 0 || yy >= oh || xx < 0 || xx >= ow)
					continue;
				y->data[((b * c + ch) * oh + yy) * ow + xx] +=
					x->data[(b * c * kh * kw + r) * lh * lw + l];
			}
		}
	return 0;
}

/* ---- normalization backward -------------------------------------- */

/*
 * One normalized group of m elements, x at stride 1 from xp, each
 * element's weight from wt (a channel of cw elements, or per element when
 * cw == 0): dx = rstd * (g - mean(g) - xhat * mean(g * xhat)) with
 * g = dy * w, xhat = (x - mean) * rstd.
 */
static void norm_group_bwd(const double *dy, const double *xp, int64_t m,
			   double mean, double rstd, const double *wt, int64_t cw,
			   double *dx)
{
	double sg = 0, sgx = 0;

	for (int64_t i = 0; i < m; i++) {
		double g = dy[i] * (wt ? wt[cw ? i / cw : i] : 1);
		sg += g;
		sgx += g * (xp[i] - mean) * rstd;
	}
	for (int64_t i = 0; i < m; i++) {
		double g = dy[i] * (wt ? wt[cw ? i / cw : i] : 1);
		double xh = (xp[i] - mean) * rstd;
		dx[i] = rstd * (g - sg / (double)m - xh * sgx / (double)m);
	}
}

/* What the two norm backwards share: the saved statistics, the weight
 * and which gradients to build; the input seen as rows of m elements,
 * weight index i / cw within a row (cw == 0: per element), C weights. */
typedef struct normb {
	const npu_reftensor *mean, *rstd, *w;
	int64_t mask[3], ns[NPU_MAX_DIMS], rows, m, cw, C, G;
	int nn;
} normb;

/* native_layer_norm_backward(grad_out, input, normalized_shape, mean,
 * rstd, weight, bias, output_mask). */
static int ln_bwd_args(ref_op *op, const npu_reftensor *x, normb *q)
{
	int nm;

	if (ref_ints(op, 2, "normalized_shape", q->ns, NPU_MAX_DIMS, &q->nn) < 0 ||
	    ref_tensor(op, 3, "mean", &q->mean) < 0 || ref_tensor(op, 4, "rstd", &q->rstd) < 0 ||
	    ref_ints(op, 7, "output_mask", q->mask, 3, &nm) < 0)
		return -1;
	q->w = ref_opt_tensor(op, 5, "weight");
	q->m = 1;
	for (int i = 0; i < q->nn; i++)
		q->m *= q->ns[i];
	if (q->nn > x->ndim || !q->m)
		return npu_errf(op->e, "normalized_shape does not fit the input");
	q->rows = npu_reftensor_numel(x) / q->m;
	q->C = q->m;
	q->cw = 0;
	q->G = 1;
	return 0;
}

/* native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C,
 * HxW, group, output_mask): rows are the (image, group) pairs. */
static int gn_bwd_args(ref_op *op, const npu_reftensor *x, normb *q)
{
	int64_t N, HW;
	int nm;

	if (ref_tensor(op, 2, "mean", &q->mean) < 0 || ref_tensor(op, 3, "rstd", &q->rstd) < 0 ||
	    ref_int(op, 5, "N", 0, &N) < 0 || ref_int(op, 6, "C", 0, &q->C) < 0 ||
	    ref_int(op, 7, "HxW", 0, &HW) < 0 || ref_int(op, 8, "group", 1, &q->G) < 0 ||
	    ref_ints(op, 9, "output_mask", q->mask, 3, &nm) < 0)
		return -1;
	q->w = ref_opt_tensor(op, 4, "weight");
	if (q->G <= 0 || q->C % q->G || N * q->C * HW != npu_reftensor_numel(x))
		return npu_errf(op->e, "sizes do not match the input and the groups");
	q->rows = N * q->G;
	q->m = q->C / q->G * HW;
	q->cw = HW;
	q->ns[0] = q->C;
	q->nn = 1;
	return 0;
}

/* native_layer_norm_backward and native_group_norm_backward. */
int ref_norm_bwd(ref_op *op)
{
	const npu_reftensor *dy, *x;
	npu_reftensor *dx = NULL, *dw = NULL, *db = NULL;
	normb q = { .mask = { 1, 1, 1 } };
	int ln = op->id == NPU_AOP_LAYER_NORM_BWD;

	if (ref_tensor(op, 0, "grad_out", &dy) < 0 || ref_tensor(op, 1, "input", &x) < 0 ||
	    (ln ? ln_bwd_args(op, x, &q) : gn_bwd_args(op, x, &q)) < 0)
		return -1;
	if (npu_reftensor_numel(dy) != npu_reftensor_numel(x) ||
	    npu_reftensor_numel(q.mean) != q.rows || npu_reftensor_numel(q.rstd) != q.rows ||
	    (q.w && npu_reftensor_numel(q.w) != q.C))
		return npu_errf(op->e, "grad_out, mean, rstd or weight has the wrong size");
	if ((q.mask[0] && ref_out(op, 0, x->dtype, x->ndim, x->shape, &dx) < 0) ||
	    (q.mask[1] && ref_out(op, 1, x->dtype, q.nn, q.ns, &dw) < 0) ||
	    (q.mask[2] && ref_out(op, 2, x->dtype, q.nn, q.ns, &db) < 0))
		return -1;
	op->nout = 3;
	for (int64_t r = 0; r < q.rows; r++) {
		/* layer norm: row r, weight per element; group norm: group
		 * r % G of image r / G, weight per channel of HxW elements */
		int64_t base = r * q.m, c0 = ln ? 0 : r % q.G * (q.C / q.G);
		double mu = q.mean->data[r], rs = q.rstd->data[r];
		if (dx)
			norm_group_bwd(dy->data + base, x->data + base, q.m, mu, rs,
				       q.w ? q.w->data + c0 : NULL, q.cw, dx->data + base);
		for (int64_t i = 0; i < q.m; i++) {
			int64_t ch = c0 + (q.cw ? i / q.cw : i);
			if (dw)
				dw->data[ch] += dy->data[base + i] * (x->data[base + i] - mu) * rs;
			if (db)
				db->data[ch] += dy->data[base + i];
		}
	}
	return 0;
}

/* native_batch_norm_backward(grad_out, input, weight, running_mean,
 * running_var, save_mean, save_invstd, train, eps, output_mask), as
 * ATen's CPU kernel: per channel c of dim 1, over its n elements,
 * sum = sum(dy), dotp = sum((x - mean) * dy); in training
 * dx = (dy - sum / n - (x - mean) * dotp * invstd^2 / n) * invstd * w
 * from the saved statistics, in evaluation dx = dy * invstd * w from the
 * running ones; dw = dotp * invstd, db = sum. */
int ref_bn_bwd(ref_op *op)
{
	const npu_reftensor *dy, *x, *w, *mean, *var;
	npu_reftensor *dx = NULL, *dw = NULL, *db = NULL;
	int64_t mask[3] = { 1, 1, 1 }, C, inner = 1, outer, n;
	double eps = 1e-5;
	int train, nm;

	if (ref_tensor(op, 0, "grad_out", &dy) < 0 || ref_tensor(op, 1, "input", &x) < 0 ||
	    ref_bool(op, 7, "train", 1, &train) < 0 ||
	    ref_gval_num(op, ref_arg(op, 8, "eps"), &eps) < 0 ||
	    ref_ints(op, 9, "output_mask", mask, 3, &nm) < 0)
		return -1;
	w = ref_opt_tensor(op, 2, "weight");
	mean = ref_opt_tensor(op, train ? 5 : 3, train ? "save_mean" : "running_mean");
	var = ref_opt_tensor(op, train ? 6 : 4, train ? "save_invstd" : "running_var");
	if (x->ndim < 2 || !mean || !var)
		return npu_errf(op->e, "needs an input of 2 dims or more and its %s statistics",
				train ? "saved" : "running");
	C = x->shape[1];
	for (int i = 2; i < x->ndim; i++)
		inner *= x->shape[i];
	outer = x->shape[0];
	n = outer * inner;
	if (npu_reftensor_numel(dy) != npu_reftensor_numel(x) || npu_reftensor_numel(mean) != C ||
	    npu_reftensor_numel(var) != C || (w && npu_reftensor_numel(w) != C) || !n)
		return npu_errf(op->e, "grad_out, weight or the statistics have the wrong size");
	if ((mask[0] && ref_out(op, 0, x->dtype, x->ndim, x->shape, &dx) < 0) ||
	    (mask[1] && ref_out(op, 1, x->dtype, 1, &C, &dw) < 0) ||
	    (mask[2] && ref_out(op, 2, x->dtype, 1, &C, &db) < 0))
		return -1;
	op->nout = 3;
	for (int64_t c = 0; c < C; c++) {
		double mu = mean->data[c], sum = 0, dotp = 0, k, wc = w ? w->data[c] : 1;
		double invstd = train ? var->data[c] : 1 / sqrt(var->data[c] + eps);
		for (int64_t b = 0; b < outer; b++)
			for (int64_t i = 0, at = (b * C + c) * inner; i < inner; i++) {
				sum += dy->data[at + i];
				dotp += (x->data[at + i] - mu) * dy->data[at + i];
			}
		k = dotp * invstd * invstd / (double)n;
		for (int64_t b = 0; dx && b < outer; b++)
			for (int64_t i = 0, at = (b * C + c) * inner; i < inner; i++)
				dx->data[at + i] = train ?
					(dy->data[at + i] - sum / (double)n -
					 (x->data[at + i] - mu) * k) * invstd * wc :
					dy->data[at + i] * invstd * wc;
		if (dw)
			dw->data[c] = dotp * invstd;
		if (db)
			db->data[c] = sum;
	}
	return 0;
}

/* ---- distances --------------------------------------------------- */

/* The p-norm of the difference of two rows of m elements: p = 0 counts
 * the nonzero differences, p = inf takes the largest. */
static double pdist_row(const double *a, const double *b, int64_t m, double p)
{
	double s = 0;

	for (int64_t k = 0; k < m; k++) {
		double d = fabs(a[k] - b[k]);
		if (p == 0)
			s += d != 0;
		else if (isinf(p))
			s = d > s || isnan(d) ? d : s;
		else
			s += p == 1 ? d : p == 2 ? d * d : pow(d, p);
	}
	if (p == 0 || p == 1 || isinf(p))
		return s;
	return p == 2 ? sqrt(s) : pow(s, 1 / p);
}

static int pdist(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int64_t n, m, k = 0, len;
	double p;

	if (ref_tensor(op, 0, "self", &x) < 0 || ref_double(op, 1, "p", 2, &p) < 0)
		return -1;
	if (x->ndim != 2 || p < 0)
		return npu_errf(op->e, "input must be 2-d and p >= 0");
	n = x->shape[0];
	m = x->shape[1];
	len = n > 1 ? n * (n - 1) / 2 : 0;
	if (ref_out(op, 0, x->dtype, 1, &len, &y) < 0)
		return -1;
	for (int64_t i = 0; i < n; i++)
		for (int64_t j = i + 1; j < n; j++)
			y->data[k++] = pdist_row(x->data + i * m, x->data + j * m, m, p);
	return 0;
}

/* _cdist_forward (compute_mode only picks PyTorch's algorithm) and
 * _pdist_forward. */
int ref_cdist(ref_op *op)
{
	const npu_reftensor *a, *b;
	npu_reftensor *y;
	int64_t shape[NPU_MAX_DIMS], bs[NPU_MAX_DIMS], pr, r, m, nb;
	int nd;
	double p;
	ref_iter it;

	if (op->id == NPU_AOP_PDIST)
		return pdist(op);
	if (ref_tensor(op, 0, "x1", &a) < 0 || ref_tensor(op, 1, "x2", &b) < 0 ||
	    ref_double(op, 2, "p", 2, &p) < 0)
		return -1;
	if (a->ndim < 2 || b->ndim < 2 || a->shape[a->ndim - 1] != b->shape[b->ndim - 1] ||
	    p < 0)
		return npu_errf(op->e, "x1 [..., P, M] and x2 [..., R, M] need the same M, "
				"p >= 0");
	pr = a->shape[a->ndim - 2];
	r = b->shape[b->ndim - 2];
	m = a->shape[a->ndim - 1];
	if (ref_bshape(op, a->ndim - 2, a->shape, b->ndim - 2, b->shape, &nd, shape) < 0)
		return -1;
	shape[nd] = pr;
	shape[nd + 1] = r;
	if (ref_out(op, 0, a->dtype, nd + 2, shape, &y) < 0)
		return -1;
	/* batch strides in units of whole [P, M] / [R, M] matrices */
	ref_iter_init(&it, nd, shape, 2);
	{
		npu_reftensor ta = *a, tb = *b;
		ta.ndim = a->ndim - 2;
		tb.ndim = b->ndim - 2;
		ref_bstrides(&ta, nd, shape, it.st[0]);
		ref_bstrides(&tb, nd, shape, it.st[1]);
	}
	memcpy(bs, shape, sizeof bs);
	nb = 1;
	for (int i = 0; i < nd; i++)
		nb *= bs[i];
	for (int64_t bi = 0; bi < nb; bi++, ref_iter_next(&it))
		for (int64_t i = 0; i < pr; i++)
			for (int64_t j = 0; j < r; j++)
				y->data[(bi * pr + i) * r + j] =
					pdist_row(a->data + (it.off[0] * pr + i) * m,
						  b->data + (it.off[1] * r + j) * m, m, p);
	return 0;
}

/* ---- 3-d pooling ------------------------------------------------- */

/* Per spatial dim of a 3-d pool: sizes, kernel, stride, padding,
 * dilation. */
typedef struct pool3 {
	int64_t in[3], out[3], k[3], s[3], p[3], dl[3], div_override;
	int incl, ceil_mode;
} pool3;

static int pool3_params(ref_op *op, pool3 *q)
{
	int mx = op->id == NPU_AOP_MAX_POOL3D;

	q->incl = 1;
	if (op->id == NPU_AOP_ADAPTIVE_AVG_POOL3D) {
		if (triple(op, 1, "output_size", 1, q->out) < 0)
			return -1;
		for (int i = 0; i < 3; i++)
			if (q->out[i] <= 0)
				return npu_errf(op->e, "empty pooling output");
		return 0;
	}
	if (triple(op, 1, "kernel_size", 1, q->k) < 0 || triple(op, 2, "stride", 0, q->s) < 0 ||
	    triple(op, 3, "padding", 0, q->p) < 0 ||
	    (mx ? triple(op, 4, "dilation", 1, q->dl) < 0 ||
		  ref_bool(op, 5, "ceil_mode", 0, &q->ceil_mode) < 0
		: ref_bool(op, 4, "ceil_mode", 0, &q->ceil_mode) < 0 ||
		  ref_bool(op, 5, "count_include_pad", 1, &q->incl) < 0 ||
		  ref_int(op, 6, "divisor_override", 0, &q->div_override) < 0))
		return -1;
	for (int i = 0; i < 3; i++) {
		if (!mx)
			q->dl[i] = 1;
		if (!q->s[i])  /* stride=[] means the kernel size */
			q->s[i] = q->k[i];
		if (q->k[i] <= 0 || q->s[i] <= 0 || q->p[i] < 0 || q->dl[i] <= 0 ||
		    2 * q->p[i] > q->k[i])
			return npu_errf(op->e, "bad kernel, stride, padding or dilation");
		q->out[i] = npu_ref_pool_len(q->in[i], q->k[i], q->s[i], q->p[i], q->dl[i],
					     q->ceil_mode);
		if (q->out[i] <= 0)
			return npu_errf(op->e, "empty pooling output");
	}
	return 0;
}

/* The max of window o (index in *at) of one volume, as ATen's loop
 * finds it: the first maximum wins, and a NaN replaces it, a later NaN
 * an earlier one. */
static double max3(const pool3 *q, const double *v, const int64_t *o, int64_t *at)
{
	double acc = -INFINITY;

	*at = -1;
	for (int64_t a = 0; a < q->k[0]; a++)
		for (int64_t b = 0; b < q->k[1]; b++)
			for (int64_t c = 0; c < q->k[2]; c++) {
				int64_t z = o[0] * q->s[0] - q->p[0] + a * q->dl[0];
				int64_t y = o[1] * q->s[1] - q->p[1] + b * q->dl[1];
				int64_t x = o[2] * q->s[2] - q->p[2] + c * q->dl[2];
				int64_t i = (z * q->in[1] + y) * q->in[2] + x;
				if (z < 0 || z >= q->in[0] || y < 0 || y >= q->in[1] ||
				    x < 0 || x >= q->in[2])
					continue;
				if (*at < 0 || v[i] > acc || isnan(v[i])) {
					acc = v[i];
					*at = i;
				}
			}
	return acc;
}

/* The average of window o of one volume, divided as ref_pool divides. */
static double avg3(const pool3 *q, const double *v, const int64_t *o, int adaptive)
{
	int64_t lo[3], hi[3];
	double span = 1, clipped = 1, sum = 0;

	for (int i = 0; i < 3; i++) {
		if (adaptive) {
			lo[i] = o[i] * q->in[i] / q->out[i];
			hi[i] = ((o[i] + 1) * q->in[i] + q->out[i] - 1) / q->out[i];
		} else {
			lo[i] = o[i] * q->s[i] - q->p[i];
			hi[i] = lo[i] + q->k[i] < q->in[i] + q->p[i] ? lo[i] + q->k[i]
								  : q->in[i] + q->p[i];
		}
		span *= (double)(hi[i] - lo[i]);
		lo[i] = lo[i] < 0 ? 0 : lo[i];
		hi[i] = hi[i] > q->in[i] ? q->in[i] : hi[i];
		clipped *= (double)(hi[i] - lo[i]);
	}
	for (int64_t z = lo[0]; z < hi[0]; z++)
		for (int64_t y = lo[1]; y < hi[1]; y++)
			for (int64_t x = lo[2]; x < hi[2]; x++)
				sum += v[(z * q->in[1] + y) * q->in[2] + x];
	if (q->div_override)
		return sum / (double)q->div_override;
	return sum / (adaptive || q->incl ? span : clipped);
}

/* max_pool3d_with_indices, avg_pool3d, _adaptive_avg_pool3d over the last
 * three dims of a 4-d or 5-d input. */
int ref_pool3d(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y, *yi = NULL;
	int64_t shape[5], vols, vin, vout, o[3];
	pool3 q = { .incl = 1 };
	int nd, mx = op->id == NPU_AOP_MAX_POOL3D;

	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	nd = x->ndim;
	if (nd != 4 && nd != 5)
		return npu_errf(op->e, "input must be 4-d or 5-d");
	for (int i = 0; i < 3; i++)
		q.in[i] = x->shape[nd - 3 + i];
	if (pool3_params(op, &q) < 0)
		return -1;
	memcpy(shape, x->shape, (size_t)nd * sizeof *shape);
	for (int i = 0; i < 3; i++)
		shape[nd - 3 + i] = q.out[i];
	if (ref_out(op, 0, x->dtype, nd, shape, &y) < 0 ||
	    (mx && ref_out(op, 1, NPU_DT_I64, nd, shape, &yi) < 0))
		return -1;
	vin = q.in[0] * q.in[1] * q.in[2];
	vout = q.out[0] * q.out[1] * q.out[2];
	vols = vin ? npu_reftensor_numel(x) / vin : 0;
	for (int64_t v = 0; v < vols; v++)
		for (int64_t j = 0; j < vout; j++) {
			const double *src = x->data + v * vin;
			int64_t at;
			o[0] = j / (q.out[1] * q.out[2]);
			o[1] = j / q.out[2] % q.out[1];
			o[2] = j % q.out[2];
			if (!mx) {
				y->data[v * vout + j] = avg3(&q, src, o,
							     op->id == NPU_AOP_ADAPTIVE_AVG_POOL3D);
				continue;
			}
			y->data[v * vout + j] = max3(&q, src, o, &at);
			yi->data[v * vout + j] = (double)at;
		}
	return 0;
}

/* ---- attention's backward ---------------------------------------- */

/* The operands of _scaled_dot_product_flash_attention_for_cpu_backward:
 * q [B,H,L,E], k [B,Hk,S,E], v [B,Hk,S,Ev] (Hk divides H: grouped-query
 * attention), grad_out [B,H,L,Ev]; its "logsumexp" is the true one,
 * [B,H,L], or, as PyTorch's core ATen decomposition of the forward
 * saves it, the attention probabilities [B,H,L,S]. */
typedef struct sdpab {
	const npu_reftensor *go, *q, *k, *v, *lse, *mask;
	int64_t B, H, Hk, L, S, E, Ev, mst[NPU_MAX_DIMS];
	double scale;
	int causal, probs;
} sdpab;

static int sdpa_bwd_args(ref_op *op, sdpab *a)
{
	double drop;
	int64_t sh[4];

	if (ref_tensor(op, 0, "grad_out", &a->go) < 0 || ref_tensor(op, 1, "query", &a->q) < 0 ||
	    ref_tensor(op, 2, "key", &a->k) < 0 || ref_tensor(op, 3, "value", &a->v) < 0 ||
	    ref_tensor(op, 5, "logsumexp", &a->lse) < 0 ||
	    ref_double(op, 6, "dropout_p", 0, &drop) < 0 ||
	    ref_bool(op, 7, "is_causal", 0, &a->causal) < 0)
		return -1;
	if (drop != 0)
		return npu_errf(op->e, "dropout_p %g: the dropout mask is not an operand", drop);
	if (a->q->ndim != 4 || a->k->ndim != 4 || a->v->ndim != 4 || a->go->ndim != 4)
		return npu_errf(op->e, "query, key, value and grad_out must be 4-d");
	a->B = a->q->shape[0], a->H = a->q->shape[1], a->L = a->q->shape[2];
	a->E = a->q->shape[3], a->Hk = a->k->shape[1], a->S = a->k->shape[2];
	a->Ev = a->v->shape[3];
	if (a->k->shape[0] != a->B || a->v->shape[0] != a->B || a->k->shape[3] != a->E ||
	    a->v->shape[1] != a->Hk || a->v->shape[2] != a->S || !a->Hk || a->H % a->Hk ||
	    a->go->shape[0] != a->B || a->go->shape[1] != a->H || a->go->shape[2] != a->L ||
	    a->go->shape[3] != a->Ev)
		return npu_errf(op->e, "shapes of query, key, value and grad_out do not match");
	a->probs = a->lse->ndim == 4;
	if (a->lse->ndim < 3 || a->lse->ndim > 4 || a->lse->shape[0] != a->B ||
	    a->lse->shape[1] != a->H || a->lse->shape[2] != a->L ||
	    (a->probs && a->lse->shape[3] != a->S))
		return npu_errf(op->e, "logsumexp must be [B,H,L] or the probabilities [B,H,L,S]");
	if (ref_double(op, 9, "scale", 1 / sqrt((double)(a->E ? a->E : 1)), &a->scale) < 0)
		return -1;
	if ((a->mask = ref_opt_tensor(op, 8, "attn_mask"))) {
		sh[0] = a->B, sh[1] = a->H, sh[2] = a->L, sh[3] = a->S;
		if (a->mask->ndim > 4)
			return npu_errf(op->e, "attn_mask does not broadcast to [B,H,L,S]");
		for (int d = 0; d < a->mask->ndim; d++) {
			int64_t m = a->mask->shape[d], w = sh[4 - a->mask->ndim + d];
			if (m != 1 && m != w)
				return npu_errf(op->e, "attn_mask does not broadcast to [B,H,L,S]");
		}
		ref_bstrides(a->mask, 4, sh, a->mst);
	}
	return 0;
}

/* Row l of head (b, h)'s probabilities into p[S]: given, or
 * exp(scale q.k + mask - logsumexp), causal rows cut at l. */
static void sdpa_probs(const sdpab *a, int64_t b, int64_t h, int64_t l, double *p)
{
	const double *q = a->q->data + ((b * a->H + h) * a->L + l) * a->E;
	int64_t hk = h / (a->H / a->Hk);

	if (a->probs) {
		memcpy(p, a->lse->data + ((b * a->H + h) * a->L + l) * a->S, (size_t)a->S * sizeof *p);
		return;
	}
	for (int64_t s = 0; s < a->S; s++) {
		const double *k = a->k->data + ((b * a->Hk + hk) * a->S + s) * a->E;
		double x = 0;
		for (int64_t e = 0; e < a->E; e++)
			x += q[e] * k[e];
		x *= a->scale;
		if (a->mask) {
			double m = a->mask->data[b * a->mst[0] + h * a->mst[1] + l * a->mst[2] +
						 s * a->mst[3]];
			x = a->mask->dtype == NPU_DT_BOOL ? (m != 0 ? x : -INFINITY) : x + m;
		}
		if (a->causal && s > l)
			x = -INFINITY;
		p[s] = exp(x - a->lse->data[(b * a->H + h) * a->L + l]);
	}
}

/* One query row: dV += p^T go, dS = p (dP - p.dP), dQ = scale dS k,
 * dK += scale dS^T q. */
static void sdpa_bwd_row(const sdpab *a, int64_t b, int64_t h, int64_t l, double *p,
			 double *dp, npu_reftensor *gq, npu_reftensor *gk, npu_reftensor *gv)
{
	int64_t hk = h / (a->H / a->Hk), r = (b * a->H + h) * a->L + l;
	const double *go = a->go->data + r * a->Ev, *q = a->q->data + r * a->E;
	double dot = 0;

	sdpa_probs(a, b, h, l, p);
	for (int64_t s = 0; s < a->S; s++) {
		const double *v = a->v->data + ((b * a->Hk + hk) * a->S + s) * a->Ev;
		double *dv = gv->data + ((b * a->Hk + hk) * a->S + s) * a->Ev;
		dp[s] = 0;
		for (int64_t e = 0; e < a->Ev; e++) {
			dp[s] += go[e] * v[e];
			dv[e] += p[s] * go[e];
		}
		dot += p[s] * dp[s];
	}
	for (int64_t s = 0; s < a->S; s++) {
		const double *k = a->k->data + ((b * a->Hk + hk) * a->S + s) * a->E;
		double *dk = gk->data + ((b * a->Hk + hk) * a->S + s) * a->E;
		double ds = p[s] * (dp[s] - dot) * a->scale;
		if (ds == 0)
			continue;
		for (int64_t e = 0; e < a->E; e++) {
			gq->data[r * a->E + e] += ds * k[e];
			dk[e] += ds * q[e];
		}
	}
}

/* _scaled_dot_product_flash_attention_for_cpu_backward: (grad_query,
 * grad_key, grad_value); out, the forward's result, is not needed. */
int ref_sdpa_bwd(ref_op *op)
{
	sdpab a = { 0 };
	npu_reftensor *gq, *gk, *gv;
	double *p, *dp;

	if (sdpa_bwd_args(op, &a) < 0 ||
	    ref_out(op, 0, a.q->dtype, 4, a.q->shape, &gq) < 0 ||
	    ref_out(op, 1, a.k->dtype, 4, a.k->shape, &gk) < 0 ||
	    ref_out(op, 2, a.v->dtype, 4, a.v->shape, &gv) < 0)
		return -1;
	p = malloc(((size_t)a.S + 1) * sizeof *p);
	dp = malloc(((size_t)a.S + 1) * sizeof *dp);
	if (!p || !dp) {
		free(p);
		free(dp);
		return npu_errf(op->e, "out of memory");
	}
	for (int64_t b = 0; b < a.B; b++)
		for (int64_t h = 0; h < a.H; h++)
			for (int64_t l = 0; l < a.L; l++)
				sdpa_bwd_row(&a, b, h, l, p, dp, gq, gk, gv);
	free(p);
	free(dp);
	return 0;
}
