/*
 * ref_ew.c - elementwise kernels of the reference interpreter: unary
 * math, clamps, broadcasting binary ops and where/masked_fill.
 *
 * Result dtypes follow PyTorch's promotion: categories bool < integer <
 * float; a Python scalar or 0-dim tensor does not widen a dimensioned
 * tensor of its category; integer inputs to transcendental functions
 * give float32.  In a graph the node's meta dtype overrides this anyway.
 */
#include "compiler/ref_int.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "isa/isa.h"

static int cat_of(int dt)
{
	return ref_is_float(dt) ? 2 : ref_is_int(dt) ? 1 : 0;
}

/* Result dtype of a op b, where w* marks Python scalars. */
static int promote_operands(const npu_reftensor *a, int wa,
			    const npu_reftensor *b, int wb)
{
	int za = wa || a->ndim == 0, zb = wb || b->ndim == 0;
	int ca = cat_of(a->dtype), cb = cat_of(b->dtype);

	if (za == zb) {
		if (wa != wb && ca == cb)  /* weak scalar vs 0-dim tensor */
			return wa ? b->dtype : a->dtype;
		return ref_promote(a->dtype, b->dtype);
	}
	if (za) {  /* make b the scalar-like one */
		const npu_reftensor *t = a;
		int w = wa;
		a = b; wa = wb; b = t; wb = w;
		ca = cat_of(a->dtype);
		cb = cat_of(b->dtype);
	}
	if (cb <= ca)
		return a->dtype;
	return wb ? (cb == 2 ? NPU_DT_F32 : NPU_DT_I64) : b->dtype;
}

/* ---- unary ------------------------------------------------------- */

static double f_abs(double x) { return fabs(x); }
static double f_neg(double x) { return -x; }
static double f_relu(double x) { return x > 0 ? x : isnan(x) ? x : 0; }
static double f_relu6(double x) { return isnan(x) ? x : x < 0 ? 0 : x > 6 ? 6 : x; }
static double f_sigmoid(double x) { return 1 / (1 + exp(-x)); }
static double f_silu(double x) { return x / (1 + exp(-x)); }
static double f_hardsigmoid(double x) { return f_relu6(x + 3) / 6; }
static double f_hardswish(double x) { return x * f_relu6(x + 3) / 6; }
static double f_rsqrt(double x) { return 1 / sqrt(x); }
static double f_recip(double x) { return 1 / x; }
static double f_sign(double x) { return isnan(x) ? x : (x > 0) - (x < 0); }
static double f_not(double x) { return x == 0; }
static double f_bnot(double x) { return (double)~(int64_t)x; }
static double f_isnan(double x) { return isnan(x) != 0; }
static double f_isinf(double x) { return isinf(x) != 0; }
static double f_isposinf(double x) { return isinf(x) && x > 0; }
static double f_isneginf(double x) { return isinf(x) && x < 0; }
static double f_frac(double x) { return x - trunc(x); }
static double f_signbit(double x) { return signbit(x) != 0; }
static double f_angle(double x) { return isnan(x) ? x : x < 0 ? M_PI : 0; }

/* The inverse of erf: Winitzki's approximation (within 2e-3), then
 * Newton's steps on (1 - |y|) - erfc(x), which keeps its digits near
 * |y| = 1 where erf(x) - y would cancel. */
static double f_erfinv(double y)
{
	double a = fabs(y), l, t, x;

	if (!(a <= 1))
		return NAN;
	if (a == 1)
		return y > 0 ? INFINITY : -INFINITY;
	l = log((1 - a) * (1 + a));
	t = 2 / (M_PI * 0.147) + l / 2;
	x = sqrt(sqrt(t * t - l / 0.147) - t);
	for (int i = 0; i < 6; i++)
		x -= ((1 - a) - erfc(x)) / (2 / sqrt(M_PI) * exp(-x * x));
	return y < 0 ? -x : x;
}

/* digamma: the reflection psi(1 - x) - pi / tan(pi x) below 0, the
 * recurrence psi(x) = psi(x + 1) - 1 / x up to 10, then the asymptotic
 * series in 1 / x^2 (Bernoulli numbers; within 1e-17 from 10 up). */
static double f_digamma(double x)
{
	static const double c[] = { 1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132,
				    -691.0 / 32760, 1.0 / 12 };
	double r = 0, z, s = 0;

	if (x == 0)
		return signbit(x) ? INFINITY : -INFINITY;
	if (x < 0)
		return x == trunc(x) ? NAN : f_digamma(1 - x) - M_PI / tan(M_PI * (x - trunc(x)));
	if (isnan(x) || isinf(x))
		return x;
	for (; x < 10; x += 1)
		r -= 1 / x;
	z = 1 / (x * x);
	for (int k = 6; k >= 0; k--)
		s = s * z + c[k];
	return r + log(x) - 0.5 / x - s * z;
}

/* I0(x) = sum of (x/2)^2k / k!^2: positive terms, summed until they no
 * longer change the sum (about |x| terms). */
static double f_i0(double x)
{
	double q = x * x / 4, t = 1, s = 1;

	if (isnan(x))
		return x;
	for (int k = 1; k < 2000 && t > s * 1e-18; k++) {
		t *= q / ((double)k * k);
		s += t;
	}
	return s;
}

/* exp(x^2) erfc(x): directly while exp(x^2) fits, then the asymptotic
 * series 1 / (x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4) - 15/(8x^6)) */
static double f_erfcx(double x)
{
	double z;

	if (x < 26)
		return exp(x * x) * erfc(x);
	z = 1 / (x * x);
	return (1 - z / 2 + 0.75 * z * z - 1.875 * z * z * z) / (x * sqrt(M_PI));
}

typedef double (*unary_fn)(double);

static unary_fn pick_unary(int id, int *float_out, int *bool_out)
{
	*float_out = 1;
	*bool_out = 0;
	switch (id) {
	case NPU_AOP_SIGMOID: return f_sigmoid;
	case NPU_AOP_SILU: return f_silu;
	case NPU_AOP_HARDSWISH: return f_hardswish;
	case NPU_AOP_HARDSIGMOID: return f_hardsigmoid;
	case NPU_AOP_TANH: return tanh;
	case NPU_AOP_EXP: return exp;
	case NPU_AOP_EXPM1: return expm1;
	case NPU_AOP_LOG: return log;
	case NPU_AOP_LOG1P: return log1p;
	case NPU_AOP_LOG2: return log2;
	case NPU_AOP_SQRT: return sqrt;
	case NPU_AOP_RSQRT: return f_rsqrt;
	case NPU_AOP_RECIPROCAL: return f_recip;
	case NPU_AOP_SIN: return sin;
	case NPU_AOP_COS: return cos;
	case NPU_AOP_ERF: return erf;
	case NPU_AOP_ACOS: return acos;
	case NPU_AOP_ACOSH: return acosh;
	case NPU_AOP_ASIN: return asin;
	case NPU_AOP_ASINH: return asinh;
	case NPU_AOP_ATAN: return atan;
	case NPU_AOP_ATANH: return atanh;
	case NPU_AOP_COSH: return cosh;
	case NPU_AOP_SINH: return sinh;
	case NPU_AOP_TAN: return tan;
	case NPU_AOP_LOG10: return log10;
	case NPU_AOP_EXP2: return exp2;
	case NPU_AOP_ERFC: return erfc;
	case NPU_AOP_ERFINV: return f_erfinv;
	case NPU_AOP_LGAMMA: return lgamma;
	case NPU_AOP_DIGAMMA: return f_digamma;
	case NPU_AOP_I0: return f_i0;
	case NPU_AOP_ERFCX: return f_erfcx;
	case NPU_AOP_ANGLE: return f_angle;
	}
	*float_out = 0;
	switch (id) {
	case NPU_AOP_ABS: return f_abs;
	case NPU_AOP_NEG: return f_neg;
	case NPU_AOP_RELU: return f_relu;
	case NPU_AOP_RELU6: return f_relu6;
	case NPU_AOP_ROUND: return nearbyint;   /* half to even */
	case NPU_AOP_FLOOR: return floor;
	case NPU_AOP_CEIL: return ceil;
	case NPU_AOP_TRUNC: return trunc;
	case NPU_AOP_SIGN: return f_sign;
	case NPU_AOP_BITWISE_NOT: return f_bnot;
	case NPU_AOP_FRAC: return f_frac;
	}
	*bool_out = 1;
	switch (id) {
	case NPU_AOP_LOGICAL_NOT: return f_not;
	case NPU_AOP_ISNAN: return f_isnan;
	case NPU_AOP_ISINF: return f_isinf;
	case NPU_AOP_ISPOSINF: return f_isposinf;
	case NPU_AOP_ISNEGINF: return f_isneginf;
	case NPU_AOP_SIGNBIT: return f_signbit;
	}
	return NULL;
}

int ref_unary(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int fl, bo, dt;
	unary_fn f = pick_unary(op->id, &fl, &bo);

	if (!f)
		return npu_errf(op->e, "no unary kernel");
	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	dt = bo ? NPU_DT_BOOL : fl && !ref_is_float(x->dtype) ? NPU_DT_F32 : x->dtype;
	if (op->id == NPU_AOP_BITWISE_NOT && x->dtype == NPU_DT_BOOL)
		f = f_not;
	if (ref_out(op, 0, dt, x->ndim, x->shape, &y) < 0)
		return -1;
	for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++)
		y->data[i] = f(x->data[i]);
	return 0;
}

/* gelu's (and its gradient's) argument i, approximate: *tanh_approx
 * for 'tanh', 0 for 'none' or absent. */
static int gelu_approx(ref_op *op, int i, int *tanh_approx)
{
	const npu_gval *ap = ref_arg(op, i, "approximate");

	*tanh_approx = 0;
	if (!ap || ap->kind != NPU_GV_STR)
		return 0;
	*tanh_approx = !strcmp(ap->u.s, "tanh");
	if (!*tanh_approx && strcmp(ap->u.s, "none"))
		return npu_errf(op->e, "approximate must be 'none' or 'tanh'");
	return 0;
}

int ref_gelu(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	int tanh_approx;

	if (gelu_approx(op, 1, &tanh_approx) < 0 || ref_tensor(op, 0, "self", &x) < 0 ||
	    ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
		return -1;
	for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++) {
		double v = x->data[i];
		if (tanh_approx)
			y->data[i] = 0.5 * v * (1 + tanh(sqrt(2 / M_PI) *
					(v + 0.044715 * v * v * v)));
		else
			y->data[i] = 0.5 * v * (1 + erf(v / M_SQRT2));
	}
	return 0;
}

/* gelu's derivative, as ATen's CPU kernel computes it. */
static double gelu_grad(double x, int tanh_approx)
{
	if (tanh_approx) {
		double kb = M_SQRT2 * M_2_SQRTPI * 0.5, kk = 0.044715;
		double t = tanh(kb * (x + kk * x * x * x));
		return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * kb * (1 + 3 * kk * x * x);
	}
	return 0.5 * (1 + erf(x / M_SQRT2)) + x * exp(-0.5 * x * x) * M_2_SQRTPI * M_SQRT1_2 * 0.5;
}

/* One element of an activation's gradient: g times the derivative at v
 * (self, or the forward's result); a and b the op's numbers. */
static double act_grad(int id, double g, double v, double a, double b, int tanh_approx)
{
	double s;

	switch (id) {
	case NPU_AOP_THRESHOLD_BWD: return v <= a ? 0 : g;
	case NPU_AOP_SIGMOID_BWD: return g * (1 - v) * v;
	case NPU_AOP_TANH_BWD: return g * (1 - v * v);
	case NPU_AOP_SILU_BWD:
		s = 1 / (1 + exp(-v));
		return g * s * (1 + v * (1 - s));
	case NPU_AOP_GELU_BWD: return g * gelu_grad(v, tanh_approx);
	case NPU_AOP_HARDTANH_BWD: return v <= a || v >= b ? 0 : g;
	case NPU_AOP_LEAKY_RELU_BWD: return v > 0 ? g : g * a;
	/* PyTorch 2.x's bounds (1.13's vectorized kernel took x = -3 into
	 * the middle piece) */
	case NPU_AOP_HARDSWISH_BWD: return v <= -3 ? 0 : v < 3 ? g * (v / 3 + 0.5) : g;
	/* hardsigmoid: ATen multiplies by 1/6 rounded to float */
	default: return -3 < v && v < 3 ? g * (double)(1.0f / 6.0f) : 0;
	}
}

/* threshold_backward and the other activation gradients (optab.def):
 * grad_output and self (or output) of one shape, the result grad's. */
int ref_act_bwd(ref_op *op)
{
	/* the op's first number, argument 2, if it has one */
	const char *an = op->id == NPU_AOP_THRESHOLD_BWD ? "threshold" :
			 op->id == NPU_AOP_HARDTANH_BWD ? "min_val" :
			 op->id == NPU_AOP_LEAKY_RELU_BWD ? "negative_slope" : NULL;
	const npu_reftensor *g, *x;
	npu_reftensor *y;
	double a = 0, b = 0;
	int tanh_approx = 0;

	if (ref_tensor(op, 0, "grad_output", &g) < 0 || ref_tensor(op, 1, "self", &x) < 0)
		return -1;
	if (!ref_same_shape(g, x))
		return npu_errf(op->e, "grad_output and self differ in shape");
	if ((an && ref_gval_num(op, ref_arg(op, 2, an), &a) < 0) ||
	    (op->id == NPU_AOP_HARDTANH_BWD && ref_gval_num(op, ref_arg(op, 3, "max_val"), &b) < 0))
		return -1;
	if (op->id == NPU_AOP_GELU_BWD && gelu_approx(op, 2, &tanh_approx) < 0)
		return -1;
	if (ref_out(op, 0, g->dtype, g->ndim, g->shape, &y) < 0)
		return -1;
	for (int64_t i = 0, n = npu_reftensor_numel(g); i < n; i++)
		y->data[i] = act_grad(op->id, g->data[i], x->data[i], a, b, tanh_approx);
	return 0;
}

/* clamp, clamp_min, clamp_max, hardtanh, leaky_relu, rrelu in
 * evaluation, elu. */
int ref_clamp(ref_op *op)
{
	const npu_reftensor *x;
	npu_reftensor *y;
	double lo = -INFINITY, hi = INFINITY, slope = 0, al = 1, sc = 1, is = 1;
	int leaky = op->id == NPU_AOP_LEAKY_RELU || op->id == NPU_AOP_RRELU_NOISE;

	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	if (op->id == NPU_AOP_NAN_TO_NUM) {
		double big = x->dtype == NPU_DT_F64 ? DBL_MAX : x->dtype == NPU_DT_F16 ? 65504.0 :
			     x->dtype == NPU_DT_BF16 ? 3.3895313892515355e38 : FLT_MAX;
		double nv, pv, mv;
		if (ref_double(op, 1, "nan", 0, &nv) < 0 || ref_double(op, 2, "posinf", big, &pv) < 0 ||
		    ref_double(op, 3, "neginf", -big, &mv) < 0 ||
		    ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
			return -1;
		for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++) {
			double v = x->data[i];
			y->data[i] = isnan(v) ? nv : isinf(v) ? (v > 0 ? pv : mv) : v;
		}
		return 0;
	}
	if (op->id == NPU_AOP_ROUND_DEC) {    /* in x's type, as ATen */
		int64_t dec;
		double p;
		if (ref_int(op, 1, "decimals", 0, &dec) < 0 ||
		    ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
			return -1;
		p = ref_to_dtype(x->dtype == NPU_DT_F64 ? NPU_DT_F64 : NPU_DT_F32,
				 pow(10, (double)(dec < 0 ? -dec : dec)));
		for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++)
			y->data[i] = dec < 0 ? nearbyint(x->data[i] / p) * p
					     : nearbyint(x->data[i] * p) / p;
		return 0;
	}
	if (op->id == NPU_AOP_HARDSHRINK || op->id == NPU_AOP_SOFTSHRINK) {
		double l;
		if (ref_double(op, 1, "lambd", 0.5, &l) < 0 ||
		    ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
			return -1;
		for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++) {
			double v = x->data[i];
			if (op->id == NPU_AOP_HARDSHRINK)   /* NaN passes */
				y->data[i] = v >= -l && v <= l ? 0 : v;
			else                                /* NaN gives 0 */
				y->data[i] = v > l ? v - l : v < -l ? v + l : 0;
		}
		return 0;
	}
	if (op->id == NPU_AOP_ELU) {
		if (ref_double(op, 1, "alpha", 1, &al) < 0 ||
		    ref_double(op, 2, "scale", 1, &sc) < 0 ||
		    ref_double(op, 3, "input_scale", 1, &is) < 0 ||
		    ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
			return -1;
		for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++) {
			double v = x->data[i];
			y->data[i] = sc * (v > 0 ? v : al * expm1(is * v));
		}
		return 0;
	}
	switch (op->id) {
	case NPU_AOP_LEAKY_RELU:
		if (ref_double(op, 1, "negative_slope", 0.01, &slope) < 0)
			return -1;
		break;
	case NPU_AOP_RRELU_NOISE: {
		int tr;
		if (ref_double(op, 2, "lower", 0.125, &lo) < 0 ||
		    ref_double(op, 3, "upper", 1.0 / 3, &hi) < 0 ||
		    ref_bool(op, 4, "training", 0, &tr) < 0)
			return -1;
		if (tr)
			return npu_errf(op->e, "rrelu in training draws random slopes");
		slope = (lo + hi) / 2; /* as ATen: the bounds' mean in double */
		lo = -INFINITY;
		hi = INFINITY;
		break;
	}
	case NPU_AOP_HARDTANH:
		if (ref_double(op, 1, "min_val", -1, &lo) < 0 ||
		    ref_double(op, 2, "max_val", 1, &hi) < 0)
			return -1;
		break;
	case NPU_AOP_CLAMP_MAX:
		if (ref_double(op, 1, "max", hi, &hi) < 0)
			return -1;
		break;
	default:
		if (ref_double(op, 1, "min", lo, &lo) < 0 ||
		    ref_double(op, 2, "max", hi, &hi) < 0)
			return -1;
	}
	if (ref_out(op, 0, x->dtype, x->ndim, x->shape, &y) < 0)
		return -1;
	for (int64_t i = 0, n = npu_reftensor_numel(x); i < n; i++) {
		double v = x->data[i];
		if (leaky)
			v = v > 0 ? v : v * slope;
		else if (v < lo)   /* NaN compares false: it stays NaN */
			v = lo;
		else if (v > hi)
			v = hi;
		if (!leaky && lo > hi)  /* PyTorch: max wins */
			v = isnan(x->data[i]) ? x->data[i] : hi;
		y->data[i] = v;
	}
	return 0;
}

/* ---- binary ------------------------------------------------------ */

typedef double (*binary_fn)(double a, double b, double alpha);

static double b_add(double a, double b, double al) { return a + al * b; }
static double b_sub(double a, double b, double al) { return a - al * b; }
static double b_rsub(double a, double b, double al) { return b - al * a; }
static double b_mul(double a, double b, double al) { return a * b; }
static double b_div(double a, double b, double al) { return a / b; }
static double b_divtrunc(double a, double b, double al) { return trunc(a / b); }
/* PyTorch's floor division (ATen's div_floor_floating): from C fmod, so
 * that an infinite dividend gives NaN, not floor(inf / b); a / b for a
 * zero divisor; exact on integers. */
static double b_divfloor(double a, double b, double al)
{
	double m, d, f;

	if (b == 0)
		return a / b;
	m = fmod(a, b);
	d = (a - m) / b;
	if (m != 0 && (b < 0) != (m < 0))
		d -= 1;
	if (d == 0)
		return copysign(0, a / b);
	f = floor(d);
	return d - f > 0.5 ? f + 1 : f;
}
static double b_rem(double a, double b, double al)
{
	double r = fmod(a, b);
	return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}
static double b_fmod(double a, double b, double al) { return fmod(a, b); }
static double b_pow(double a, double b, double al) { return pow(a, b); }
static double b_atan2(double a, double b, double al) { return atan2(a, b); }
static double b_hypot(double a, double b, double al) { return hypot(a, b); }
static double b_max(double a, double b, double al)
{
	return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
}
/* heaviside(x, values): values where x is 0, else x > 0 (NaN: 0) */
static double b_heaviside(double a, double b, double al) { return a == 0 ? b : a > 0; }
/* fmax/fmin: NaN only when both are */
static double b_fmax(double a, double b, double al) { return isnan(a) ? b : isnan(b) ? a : a > b ? a : b; }
static double b_fmin(double a, double b, double al) { return isnan(a) ? b : isnan(b) ? a : a < b ? a : b; }
/* lerp with the weight where alpha goes, as ATen computes it */
static double b_lerp(double a, double b, double w)
{
	return fabs(w) < 0.5 ? a + w * (b - a) : b - (b - a) * (1 - w);
}
static double b_min(double a, double b, double al)
{
	return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
}
static double b_eq(double a, double b, double al) { return a == b; }
static double b_ne(double a, double b, double al) { return a != b; }
static double b_lt(double a, double b, double al) { return a < b; }
static double b_le(double a, double b, double al) { return a <= b; }
static double b_gt(double a, double b, double al) { return a > b; }
static double b_ge(double a, double b, double al) { return a >= b; }
static double b_land(double a, double b, double al) { return a != 0 && b != 0; }
static double b_lor(double a, double b, double al) { return a != 0 || b != 0; }
static double b_lxor(double a, double b, double al) { return (a != 0) != (b != 0); }
static double b_copysign(double a, double b, double al) { return copysign(a, b); }
static double b_ldexp(double a, double b, double al) { return a * pow(2, b); }
static double b_band(double a, double b, double al) { return (double)((int64_t)a & (int64_t)b); }
static double b_bor(double a, double b, double al) { return (double)((int64_t)a | (int64_t)b); }
static double b_bxor(double a, double b, double al) { return (double)((int64_t)a ^ (int64_t)b); }

/* The kernel of op id; *kind: 0 arithmetic, 1 bool result, 2 true
 * division (integers give float32). */
static binary_fn pick_binary(ref_op *op, int *kind)
{
	const npu_gval *mode;

	*kind = 0;
	switch (op->id) {
	case NPU_AOP_ADD_TENSOR: case NPU_AOP_ADD_SCALAR: return b_add;
	case NPU_AOP_SUB_TENSOR: case NPU_AOP_SUB_SCALAR: return b_sub;
	case NPU_AOP_RSUB_SCALAR: return b_rsub;
	case NPU_AOP_MUL_TENSOR: case NPU_AOP_MUL_SCALAR: return b_mul;
	case NPU_AOP_FLOOR_DIVIDE: return b_divfloor;
	case NPU_AOP_REMAINDER_T: case NPU_AOP_REMAINDER_S: return b_rem;
	case NPU_AOP_FMOD_T: case NPU_AOP_FMOD_S: return b_fmod;
	case NPU_AOP_POW_TS: case NPU_AOP_POW_TT: case NPU_AOP_POW_ST: return b_pow;
	case NPU_AOP_MAXIMUM: return b_max;
	case NPU_AOP_MINIMUM: return b_min;
	case NPU_AOP_HEAVISIDE: return b_heaviside;
	case NPU_AOP_FMAX: return b_fmax;
	case NPU_AOP_FMIN: return b_fmin;
	case NPU_AOP_LERP_S:
		*kind = 2;
		return b_lerp;
	case NPU_AOP_BITWISE_AND: case NPU_AOP_BITWISE_AND_S: return b_band;
	case NPU_AOP_BITWISE_OR: case NPU_AOP_BITWISE_OR_S: return b_bor;
	case NPU_AOP_BITWISE_XOR: case NPU_AOP_BITWISE_XOR_S: return b_bxor;
	case NPU_AOP_DIV_MODE: case NPU_AOP_DIV_SMODE:
		mode = ref_arg(op, 2, "rounding_mode");
		if (mode && mode->kind == NPU_GV_STR && !strcmp(mode->u.s, "trunc"))
			return b_divtrunc;
		if (mode && mode->kind == NPU_GV_STR && !strcmp(mode->u.s, "floor"))
			return b_divfloor;
		*kind = 2;  /* None: true division */
		return b_div;
	case NPU_AOP_DIV_TENSOR: case NPU_AOP_DIV_SCALAR:
		*kind = 2;
		return b_div;
	case NPU_AOP_ATAN2: case NPU_AOP_ATAN2_OUT:
		*kind = 2;  /* integers give float32, like true division */
		return b_atan2;
	case NPU_AOP_HYPOT:
		*kind = 2;
		return b_hypot;
	case NPU_AOP_COPYSIGN:
		*kind = 2;
		return b_copysign;
	case NPU_AOP_LDEXP:
		*kind = 2;
		return b_ldexp;
	}
	*kind = 1;
	switch (op->id) {
	case NPU_AOP_EQ_TENSOR: case NPU_AOP_EQ_SCALAR: return b_eq;
	case NPU_AOP_NE_TENSOR: case NPU_AOP_NE_SCALAR: return b_ne;
	case NPU_AOP_LT_TENSOR: case NPU_AOP_LT_SCALAR: return b_lt;
	case NPU_AOP_LE_TENSOR: case NPU_AOP_LE_SCALAR: return b_le;
	case NPU_AOP_GT_TENSOR: case NPU_AOP_GT_SCALAR: return b_gt;
	case NPU_AOP_GE_TENSOR: case NPU_AOP_GE_SCALAR: return b_ge;
	case NPU_AOP_LOGICAL_AND: return b_land;
	case NPU_AOP_LOGICAL_OR: return b_lor;
	case NPU_AOP_LOGICAL_XOR: return b_lxor;
	}
	return NULL;
}

int ref_binary(ref_op *op)
{
	npu_reftensor ta = { .ndim = -1 }, tb = { .ndim = -1 }, *y;
	const npu_reftensor *a, *b;
	int wa, wb, kind, nd, dt, rc = -1;
	int64_t shape[NPU_MAX_DIMS], n;
	double alpha;
	binary_fn f = pick_binary(op, &kind);
	ref_iter it;

	if (!f)
		return npu_errf(op->e, "no binary kernel");
	if (ref_operand(op, ref_arg(op, 0, "self"), &ta, &a, &wa) < 0 ||
	    ref_operand(op, ref_arg(op, 1, "other"), &tb, &b, &wb) < 0 ||
	    ref_double(op, 2, op->id == NPU_AOP_LERP_S ? "weight" : "alpha", 1, &alpha) < 0 ||
	    ref_bshape(op, a->ndim, a->shape, b->ndim, b->shape, &nd, shape) < 0)
		goto out;
	dt = promote_operands(a, wa, b, wb);
	if ((f == b_band || f == b_bor || f == b_bxor) && ref_is_float(dt)) {
		npu_errf(op->e, "bitwise ops take integer or bool operands");
		goto out;
	}
	if (kind == 1)
		dt = NPU_DT_BOOL;
	else if (kind == 2 && !ref_is_float(dt))
		dt = NPU_DT_F32;
	if (ref_out(op, 0, dt, nd, shape, &y) < 0)
		goto out;
	ref_iter_init(&it, nd, shape, 2);
	ref_bstrides(a, nd, shape, it.st[0]);
	ref_bstrides(b, nd, shape, it.st[1]);
	n = npu_reftensor_numel(y);
	for (int64_t i = 0; i < n; i++, ref_iter_next(&it))
		y->data[i] = f(a->data[it.off[0]], b->data[it.off[1]], alpha);
	rc = 0;
out:
	npu_reftensor_free(&ta);
	npu_reftensor_free(&tb);
	return rc;
}

/* where(cond, a, b) and masked_fill(self, mask, value). */
/* The result of dtype dt of an op over p, q, r broadcast together, and
 * an iterator over it with their three strides. */
static int out3(ref_op *op, const npu_reftensor *p, const npu_reftensor *q,
		const npu_reftensor *r, int dt, npu_reftensor **y, ref_iter *it)
{
	int64_t shape[NPU_MAX_DIMS];
	int nd;

	if (ref_bshape(op, p->ndim, p->shape, q->ndim, q->shape, &nd, shape) < 0 ||
	    ref_bshape(op, nd, shape, r->ndim, r->shape, &nd, shape) < 0 ||
	    ref_out(op, 0, dt, nd, shape, y) < 0)
		return -1;
	ref_iter_init(it, nd, shape, 3);
	ref_bstrides(p, nd, shape, it->st[0]);
	ref_bstrides(q, nd, shape, it->st[1]);
	ref_bstrides(r, nd, shape, it->st[2]);
	return 0;
}

int ref_where(ref_op *op)
{
	npu_reftensor ta = { .ndim = -1 }, tb = { .ndim = -1 }, *y;
	const npu_reftensor *c, *a, *b;
	int wa, wb, dt, rc = -1;
	int64_t n;
	ref_iter it;

	if (op->id == NPU_AOP_WHERE) {
		if (ref_tensor(op, 0, "condition", &c) < 0 ||
		    ref_operand(op, ref_arg(op, 1, "self"), &ta, &a, &wa) < 0 ||
		    ref_operand(op, ref_arg(op, 2, "other"), &tb, &b, &wb) < 0)
			goto out;
		dt = promote_operands(a, wa, b, wb);
	} else {
		/* masked_fill: the fill value is "a", self is "b" */
		if (ref_tensor(op, 0, "self", &b) < 0 ||
		    ref_tensor(op, 1, "mask", &c) < 0 ||
		    ref_operand(op, ref_arg(op, 2, "value"), &ta, &a, &wa) < 0)
			goto out;
		dt = b->dtype;
	}
	if (out3(op, c, a, b, dt, &y, &it) < 0)
		goto out;
	n = npu_reftensor_numel(y);
	for (int64_t i = 0; i < n; i++, ref_iter_next(&it))
		y->data[i] = c->data[it.off[0]] != 0 ? a->data[it.off[1]]
						     : b->data[it.off[2]];
	rc = 0;
out:
	npu_reftensor_free(&ta);
	npu_reftensor_free(&tb);
	return rc;
}

/* clamp.Tensor: min and max are tensors (either may be None) broadcast
 * with self.  PyTorch computes min(max(x, lo), hi) with NaN in any of
 * the three giving NaN, and the result dtype promotes all three. */
int ref_clamp_t(ref_op *op)
{
	npu_reftensor tl = { .ndim = -1 }, th = { .ndim = -1 }, *y;
	npu_reftensor inf_lo = { .ndim = -1 }, inf_hi = { .ndim = -1 };
	const npu_reftensor *x, *lo, *hi;
	int dt, wl, wh, rc = -1;
	int64_t n;
	ref_iter it;

	if (ref_tensor(op, 0, "self", &x) < 0)
		return -1;
	dt = x->dtype;
	if (npu_reftensor_alloc(&inf_lo, dt, 0, NULL, op->e) < 0 ||
	    npu_reftensor_alloc(&inf_hi, dt, 0, NULL, op->e) < 0)
		goto out;
	inf_lo.data[0] = -INFINITY;
	inf_hi.data[0] = INFINITY;
	lo = &inf_lo;
	hi = &inf_hi;
	if (ref_arg(op, 1, "min") &&
	    ref_operand(op, ref_arg(op, 1, "min"), &tl, &lo, &wl) < 0)
		goto out;
	if (ref_arg(op, 2, "max") &&
	    ref_operand(op, ref_arg(op, 2, "max"), &th, &hi, &wh) < 0)
		goto out;
	if (lo == &inf_lo && hi == &inf_hi) {
		npu_errf(op->e, "clamp needs min or max");
		goto out;
	}
	if (lo != &inf_lo)
		dt = promote_operands(x, 0, lo, 0);
	if (hi != &inf_hi)
		dt = ref_promote(dt, promote_operands(x, 0, hi, 0));
	if (out3(op, x, lo, hi, dt, &y, &it) < 0)
		goto out;
	n = npu_reftensor_numel(y);
	for (int64_t i = 0; i < n; i++, ref_iter_next(&it))
		y->data[i] = b_min(b_max(x->data[it.off[0]], lo->data[it.off[1]], 1),
				   hi->data[it.off[2]], 1);
	rc = 0;
out:
	npu_reftensor_free(&tl);
	npu_reftensor_free(&th);
	npu_reftensor_free(&inf_lo);
	npu_reftensor_free(&inf_hi);
	return rc;
}
