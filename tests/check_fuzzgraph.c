/*
 * check_fuzzgraph.c - random graphs, compiled and run, against the fp64
 * reference interpreter.
 *
 * The fixtures are graphs people wrote; fusion has to be right on every
 * graph.  Each case here is a random inference graph of float32
 * elementwise ops, broadcasts, reductions with and without keepdim,
 * softmax, RMSNorm's pattern, layer norm, gelu, cumsum, where, cat, mm,
 * bmm, 2x2 average pooling and views (view, unsqueeze, permute, expand,
 * slices with offsets and steps), over shapes drawn so that dims often
 * coincide: a square matrix's row sums taken without keepdim broadcast
 * along its rows, not per row, and only a generator that makes such
 * shapes on purpose finds what treats them alike; every fourth case's
 * dims lie at the vector length and the tiles' edges, and every other
 * case runs on npu-edge (32 lanes, 1 MiB of SRAM: rows too long for
 * it).  The graph goes through npucc's pipeline and the simulator
 * (tests/fxrun.c) and every output is compared with the reference.
 *
 * Deterministic: case i is seeded by i.  NPU_FUZZ_GRAPHS=N runs N cases
 * (default 300), NPU_FUZZ_FIRST=K starts at case K (to rerun one);
 * NPU_FUZZ_FILE=G.json runs graph G on generated values instead (on
 * NPU_FUZZ_VALUES=V.safetensors's, its inputs and parameters, if given).
 */
#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/graph.h"
#include "isa/st.h"
#include "tests/fxrun.h"

#define MAXV 48     /* values a graph holds */
#define MAXD 4
#define MAXEL (1 << 17)	/* elements a value holds at most */

typedef struct gval {
	int nd;
	int64_t shape[MAXD], stride[MAXD], off;
	int view;               /* a view (no new storage): never an output */
	int isbool;             /* a comparison's result (operand of where
				   only), or layer norm's tuple (none) */
	int isbf16;             /* bfloat16 (between op_bf16's casts only) */
} gval;

typedef struct gen {
	uint64_t s;             /* xorshift state */
	gval v[MAXV];
	int n;
	int lowp;               /* a bfloat16 op: its rounding reaches outputs */
	char *js;               /* the nodes' JSON so far */
	size_t len, cap;
} gen;

static uint64_t rnd(gen *g)
{
	g->s ^= g->s << 13;
	g->s ^= g->s >> 7;
	g->s ^= g->s << 17;
	return g->s;
}

static int pick(gen *g, int n)
{
	return (int)(rnd(g) % (uint64_t)n);
}

static void put(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(g->js + g->len, g->cap - g->len, fmt, ap);
		va_end(ap);
		ck_assert_int_ge(n, 0);
		if (g->len + (size_t)n < g->cap)
			break;
		g->cap = 2 * g->cap + (size_t)n;
		ck_assert_ptr_nonnull(g->js = realloc(g->js, g->cap));
	}
	g->len += (size_t)n;
}

/* x's strides made contiguous (a new float value's) */
static void contig(gval *x)
{
	int64_t st = 1;

	x->isbool = x->isbf16 = 0;
	for (int d = x->nd - 1; d >= 0; d--) {
		x->stride[d] = st;
		st *= x->shape[d];
	}
	x->off = 0;
}

static void put_ints(gen *g, const int64_t *a, int n)
{
	put(g, "[");
	for (int i = 0; i < n; i++)
		put(g, "%s%lld", i ? "," : "", (long long)a[i]);
	put(g, "]");
}

static void put_meta(gen *g, const gval *x)
{
	put(g, "{\"shape\":");
	put_ints(g, x->shape, x->nd);
	put(g, ",\"dtype\":\"%s\",\"stride\":",
	    x->isbool ? "bool" : x->isbf16 ? "bfloat16" : "float32");
	put_ints(g, x->stride, x->nd);
	put(g, ",\"storage_offset\":%lld}", (long long)x->off);
}

/* Appends node v%d (value x) computing target over args and kwargs
 * (JSON). */
static int add_node_kw(gen *g, const gval *x, const char *target, const char *args,
		       const char *kwargs)
{
	ck_assert_int_lt(g->n, MAXV);
	g->v[g->n] = *x;
	put(g, ",{\"name\":\"v%d\",\"op\":\"call_function\",\"target\":\"%s\",\"args\":%s,"
	    "\"kwargs\":%s,\"meta\":", g->n, target, args, kwargs);
	put_meta(g, x);
	put(g, "}");
	return g->n++;
}

static int add_node(gen *g, const gval *x, const char *target, const char *args)
{
	return add_node_kw(g, x, target, args, "{}");
}

/* A shape whose dims are often equal: from {1, S, S, S+1, 2}. */
static void rand_shape(gen *g, gval *x, int64_t S, int big)
{
	x->nd = 1 + pick(g, big ? 2 : 3);
	for (int d = 0; d < x->nd; d++) {
		int k = pick(g, 5);
		x->shape[d] = k == 0 ? 1 : k == 3 ? S + 1 : k == 4 ? 2 : S;
	}
	contig(x);
	x->view = 0;
}

static int64_t numel(const gval *x)
{
	int64_t n = 1;

	for (int d = 0; d < x->nd; d++)
		n *= x->shape[d];
	return n;
}

/* Right-aligned broadcast of a and b into out; 0 when they do not (or
 * it would be too large). */
static int bcast(const gval *a, const gval *b, gval *out)
{
	int nd = a->nd > b->nd ? a->nd : b->nd;

	out->nd = nd;
	for (int d = 0; d < nd; d++) {
		int da = d - (nd - a->nd), db = d - (nd - b->nd);
		int64_t sa = da >= 0 ? a->shape[da] : 1, sb = db >= 0 ? b->shape[db] : 1;
		if (sa != sb && sa != 1 && sb != 1)
			return 0;
		out->shape[d] = sa > sb ? sa : sb;
	}
	contig(out);
	out->view = 0;
	return numel(out) <= MAXEL;
}

static int is_contig(const gval *x)
{
	gval c = *x;

	contig(&c);
	c.isbool = x->isbool;
	return !x->off && !memcmp(c.stride, x->stride, (size_t)x->nd * sizeof *x->stride);
}

static int is_f32(const gval *x)
{
	return !x->isbool && !x->isbf16;
}

/* A float32 operand: any value but a comparison's or a bfloat16. */
static int pick_float(gen *g)
{
	int a;

	do
		a = pick(g, g->n);
	while (!is_f32(&g->v[a]));
	return a;
}

/* A float32 operand, and *x a new value of its shape (contiguous) */
static int pick_fresh(gen *g, gval *x)
{
	int a = pick_float(g);

	*x = g->v[a];
	contig(x);
	x->view = 0;
	return a;
}

static void op_unary(gen *g)
{
	static const char *const un[] = { "aten.relu.default", "aten.neg.default",
		"aten.tanh.default", "aten.sigmoid.default", "aten.abs.default" };
	int a;
	gval x;
	char args[64];

	a = pick_fresh(g, &x);
	if (pick(g, 3) == 0) {
		snprintf(args, sizeof args, "[{\"node\":\"v%d\"},0.5]", a);
		add_node(g, &x, "aten.mul.Tensor", args);
		return;
	}
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"}]", a);
	add_node(g, &x, un[pick(g, 5)], args);
}

static void op_binary(gen *g)
{
	static const char *const bin[] = { "aten.add.Tensor", "aten.sub.Tensor",
		"aten.mul.Tensor", "aten.maximum.default" };
	int a = pick_float(g), cand[MAXV], nc = 0, b;
	gval x;
	char args[96];

	/* most recent values first: chains, not only leaves */
	for (int i = 0; i < g->n; i++)
		if (is_f32(&g->v[i]) && bcast(&g->v[a], &g->v[i], &x))
			cand[nc++] = i;
	b = cand[nc - 1 - pick(g, nc < 4 ? nc : 4)];
	if (pick(g, 2))
		b = cand[pick(g, nc)];
	bcast(&g->v[a], &g->v[b], &x);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},{\"node\":\"v%d\"}]", a, b);
	add_node(g, &x, bin[pick(g, 4)], args);
}

static void op_reduce(gen *g)
{
	static const char *const red[] = { "aten.sum.dim_IntList", "aten.amax.default",
		"aten.mean.dim" };
	int a = g->n - 1 - pick(g, g->n < 3 ? g->n : 3), dim, keep = pick(g, 2), k = 0;
	gval x, y, z;

	if (!is_f32(&g->v[a]))
		a = pick_float(g);
	x = g->v[a];
	char args[128];

	dim = pick(g, x.nd);
	y.nd = 0;
	for (int d = 0; d < x.nd; d++)
		if (d != dim)
			y.shape[y.nd++] = x.shape[d];
		else if (keep)
			y.shape[y.nd++] = 1;
	if (!y.nd) {
		/* a 0-d result: keep the dim instead */
		keep = 1;
		y.nd = 1;
		y.shape[0] = 1;
	}
	contig(&y);
	y.view = 0;
	k = pick(g, 3);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},[%d],%s]", a,
		 pick(g, 2) ? dim - x.nd : dim, keep ? "true" : "false");
	k = add_node(g, &y, red[k], args);
	/* often the normalizing pattern (softmax's, layer norm's): the
	 * input less its reduction, which broadcasts from the right when
	 * the dims allow, keepdim or not */
	if (pick(g, 2) && bcast(&x, &y, &z)) {
		snprintf(args, sizeof args, "[{\"node\":\"v%d\"},{\"node\":\"v%d\"}]", a, k);
		add_node(g, &z, pick(g, 2) ? "aten.sub.Tensor" : "aten.mul.Tensor", args);
	}
}

/* An op along one dim of an operand, of its shape (softmax, cumsum);
 * tail: its arguments after the dim */
static void op_along(gen *g, const char *target, const char *tail)
{
	int a;
	gval x;
	char args[96];

	a = pick_fresh(g, &x);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},%d%s]", a, pick(g, x.nd), tail);
	add_node(g, &x, target, args);
}

/* args = [v<a>, [l0, l1, ...]] (a shape or a permutation) */
static void node_ints(char *args, size_t size, int a, const int64_t *l, int n)
{
	size_t at = (size_t)snprintf(args, size, "[{\"node\":\"v%d\"},[", a);

	for (int i = 0; i < n && at < size; i++)
		at += (size_t)snprintf(args + at, size - at, "%s%lld", i ? "," : "", (long long)l[i]);
	if (at < size)
		snprintf(args + at, size - at, "]]");
}

/* unsqueeze, permute, expand, slice, or view of a contiguous value */
static void op_view(gen *g)
{
	int a = g->n - 1 - pick(g, g->n < 3 ? g->n : 3), k = pick(g, 5), d;
	gval x, y;
	char args[160];
	int64_t p[MAXD];

	if (!is_f32(&g->v[a]))
		a = pick_float(g);
	x = y = g->v[a];
	y.view = 1;
	if (k == 0 && x.nd < MAXD) {
		d = pick(g, x.nd + 1);
		memmove(y.shape + d + 1, y.shape + d, (size_t)(x.nd - d) * sizeof *y.shape);
		memmove(y.stride + d + 1, y.stride + d, (size_t)(x.nd - d) * sizeof *y.stride);
		y.shape[d] = 1;
		y.stride[d] = d < x.nd ? x.shape[d] * x.stride[d] : 1;
		y.nd++;
		snprintf(args, sizeof args, "[{\"node\":\"v%d\"},%d]", a, d);
		add_node(g, &y, "aten.unsqueeze.default", args);
	} else if (k == 1 && x.nd >= 2) {
		for (int i = 0; i < x.nd; i++)
			p[i] = i;
		for (int i = x.nd - 1; i > 0; i--) {
			int j = pick(g, i + 1);
			int64_t t = p[i];
			p[i] = p[j];
			p[j] = t;
		}
		for (int i = 0; i < x.nd; i++) {
			y.shape[i] = x.shape[p[i]];
			y.stride[i] = x.stride[p[i]];
		}
		node_ints(args, sizeof args, a, p, x.nd);
		add_node(g, &y, "aten.permute.default", args);
	} else if (k == 2) {
		for (d = 0; d < x.nd && x.shape[d] != 1; d++)
			;
		if (d == x.nd) {
			op_unary(g);
			return;
		}
		y.shape[d] = 3 + pick(g, 2);
		y.stride[d] = 0;
		if (numel(&y) > MAXEL) {
			op_unary(g);
			return;
		}
		node_ints(args, sizeof args, a, y.shape, y.nd);
		add_node(g, &y, "aten.expand.default", args);
	} else if (k == 4) {
		/* a slice: an offset view, every other element or a run */
		int64_t st = pick(g, 2) ? 2 : 1, n0;
		d = pick(g, x.nd);
		if (x.shape[d] < 2) {
			op_unary(g);
			return;
		}
		n0 = st == 2 ? 0 : 1;
		y.shape[d] = (x.shape[d] - n0 + st - 1) / st;
		y.off = x.off + n0 * x.stride[d];
		y.stride[d] = x.stride[d] * st;
		snprintf(args, sizeof args, "[{\"node\":\"v%d\"},%d,%lld,%lld,%lld]", a, d,
			 (long long)n0, (long long)x.shape[d], (long long)st);
		add_node(g, &y, "aten.slice.Tensor", args);
	} else if (is_contig(&x) && x.nd >= 2) {
		/* merge two adjacent dims */
		d = pick(g, x.nd - 1);
		y.shape[d] = x.shape[d] * x.shape[d + 1];
		memmove(y.shape + d + 1, y.shape + d + 2, (size_t)(x.nd - d - 2) * sizeof *y.shape);
		y.nd = x.nd - 1;
		contig(&y);
		y.view = 1;
		node_ints(args, sizeof args, a, y.shape, y.nd);
		add_node(g, &y, "aten.view.default", args);
	} else {
		op_unary(g);
	}
}

/* where(a > b, a, b) or where(a > b, b, 0.5 * a) for broadcastable a, b */
static void op_where(gen *g)
{
	int a = pick_float(g), b, c;
	gval x, cmp;
	char args[128];

	do
		b = pick_float(g);
	while (!bcast(&g->v[a], &g->v[b], &x));
	cmp = x;
	cmp.isbool = 1;		/* (after bcast's contig) */
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},{\"node\":\"v%d\"}]", a, b);
	c = add_node(g, &cmp, "aten.gt.Tensor", args);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},{\"node\":\"v%d\"},{\"node\":\"v%d\"}]",
		 c, pick(g, 2) ? a : b, pick(g, 2) ? b : a);
	add_node(g, &x, "aten.where.self", args);
}

/* cat of two values of one shape along a dim */
static void op_cat(gen *g)
{
	int a = pick_float(g), cand[MAXV], nc = 0, b, d;
	gval y;
	char args[128];

	for (int i = 0; i < g->n; i++)
		if (is_f32(&g->v[i]) && g->v[i].nd == g->v[a].nd &&
		    !memcmp(g->v[i].shape, g->v[a].shape, (size_t)g->v[a].nd * sizeof *g->v[a].shape))
			cand[nc++] = i;
	b = cand[pick(g, nc)];
	d = pick(g, g->v[a].nd);
	if (2 * numel(&g->v[a]) > MAXEL) {
		op_unary(g);
		return;
	}
	y = g->v[a];
	y.shape[d] *= 2;
	contig(&y);
	y.view = 0;
	snprintf(args, sizeof args, "[[{\"node\":\"v%d\"},{\"node\":\"v%d\"}],%d]", a, b, d);
	add_node(g, &y, "aten.cat.default", args);
}

/* a @ b of nd-d values (mm, or bmm of 3-d) whose batch and inner dims
 * agree (often: dims coincide); none, a bmm is an mm, an mm a binary op */
static void op_matmul(gen *g, int nd)
{
	int cand[MAXV][2], nc = 0, k;
	gval y;
	char args[96];

	for (int i = 0; i < g->n; i++)
		for (int j = 0; j < g->n; j++) {
			const gval *p = &g->v[i], *q = &g->v[j];
			if (is_f32(p) && is_f32(q) && p->nd == nd && q->nd == nd &&
			    (nd == 2 || p->shape[0] == q->shape[0]) &&
			    p->shape[nd - 1] == q->shape[nd - 2] && nc < MAXV)
				cand[nc][0] = i, cand[nc++][1] = j;
		}
	if (!nc) {
		if (nd == 3)
			op_matmul(g, 2);
		else
			op_binary(g);
		return;
	}
	k = pick(g, nc);
	y = g->v[cand[k][0]];
	y.shape[nd - 1] = g->v[cand[k][1]].shape[nd - 1];
	contig(&y);
	y.view = 0;
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},{\"node\":\"v%d\"}]",
		 cand[k][0], cand[k][1]);
	add_node(g, &y, nd == 2 ? "aten.mm.default" : "aten.bmm.default", args);
}

/* RMSNorm's pattern: x * rsqrt(mean(x * x, [dims], keepdim) + eps),
 * over the last dim or the last two */
static void op_rmsnorm(gen *g)
{
	int a, sq, m, e, r, two;
	gval x, y;
	char args[128];

	a = pick_fresh(g, &x);
	two = x.nd >= 2 && pick(g, 2);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},{\"node\":\"v%d\"}]", a, a);
	sq = add_node(g, &x, "aten.mul.Tensor", args);
	y = x;
	y.shape[x.nd - 1] = 1;
	if (two)
		y.shape[x.nd - 2] = 1;
	contig(&y);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},%s,true]", sq, two ? "[-2,-1]" : "[-1]");
	m = add_node(g, &y, "aten.mean.dim", args);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},1e-05]", m);
	e = add_node(g, &y, "aten.add.Tensor", args);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"}]", e);
	r = add_node(g, &y, "aten.rsqrt.default", args);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},{\"node\":\"v%d\"}]", a, r);
	add_node(g, &x, "aten.mul.Tensor", args);
}

/* x cast to bfloat16, an op in it (PyTorch computes in fp32 and rounds),
 * and back to float32 */
static void op_bf16(gen *g)
{
	int a, b;
	gval x, y;
	char args[128];

	a = pick_fresh(g, &x);
	y = x;
	y.isbf16 = 1;
	g->lowp = 1;
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"}]", a);
	b = add_node_kw(g, &y, "aten._to_copy.default", args, "{\"dtype\":{\"dtype\":\"bfloat16\"}}");
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},{\"node\":\"v%d\"}]", b, b);
	b = add_node(g, &y, pick(g, 2) ? "aten.mul.Tensor" : "aten.add.Tensor", args);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"}]", b);
	add_node_kw(g, &x, "aten._to_copy.default", args, "{\"dtype\":{\"dtype\":\"float32\"}}");
}

/* gelu, exact or tanh's */
static void op_gelu(gen *g)
{
	int a;
	gval x;
	char args[64];

	a = pick_fresh(g, &x);
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"}]", a);
	add_node_kw(g, &x, "aten.gelu.default", args,
		    pick(g, 2) ? "{}" : "{\"approximate\":\"tanh\"}");
}

/* layer norm over the last dim, without affine parameters: the
 * multi-output native_layer_norm and its getitem 0 */
static void op_layernorm(gen *g)
{
	int a, ln;
	gval x, st;
	char args[128];

	a = pick_fresh(g, &x);
	st = x;
	st.shape[st.nd - 1] = 1;
	contig(&st);
	ck_assert_int_lt(g->n, MAXV - 1);
	ln = g->n;
	g->v[g->n] = x;
	g->v[g->n].isbool = 1;  /* (a tuple: never an operand) */
	put(g, ",{\"name\":\"v%d\",\"op\":\"call_function\",\"target\":"
	    "\"aten.native_layer_norm.default\",\"args\":[{\"node\":\"v%d\"},[%lld],null,null,"
	    "1e-05],\"kwargs\":{},\"meta\":[", ln, a, (long long)x.shape[x.nd - 1]);
	put_meta(g, &x);
	put(g, ",");
	put_meta(g, &st);
	put(g, ",");
	put_meta(g, &st);
	put(g, "]}");
	g->n++;
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},0]", ln);
	add_node(g, &x, "_operator.getitem", args);
}

/* 2x2 average pooling, stride 2 (or 1), of a 3-d [C, H, W] value made
 * [1, C, H, W] (unbatched pooling is a host call: not generated) */
static void op_pool(gen *g)
{
	int a = pick_float(g), st = 1 + pick(g, 2), u;
	gval x = g->v[a], b, y;
	char args[128];

	if (x.nd != 3 || x.shape[1] < 2 || x.shape[2] < 2) {
		op_gelu(g);
		return;
	}
	b = x;
	b.nd = 4;
	b.shape[0] = 1;
	memcpy(b.shape + 1, x.shape, 3 * sizeof *x.shape);
	b.stride[0] = x.shape[0] * x.stride[0];
	memcpy(b.stride + 1, x.stride, 3 * sizeof *x.stride);
	b.view = 1;
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},0]", a);
	u = add_node(g, &b, "aten.unsqueeze.default", args);
	y = b;
	y.shape[2] = (x.shape[1] - 2) / st + 1;
	y.shape[3] = (x.shape[2] - 2) / st + 1;
	contig(&y);
	y.view = 0;
	snprintf(args, sizeof args, "[{\"node\":\"v%d\"},[2,2],[%d,%d]]", u, st, st);
	add_node(g, &y, "aten.avg_pool2d.default", args);
}

/* Case `seed` as a graph file at path; 1 when it computes in bfloat16
 * somewhere. */
static int make_graph(uint64_t seed, const char *path)
{
	gen g = { .s = seed * 0x9e3779b97f4a7c15ull + 1 };
	/* every fourth case past the vector length (128 lanes) and its
	 * tiles' edges, in at most 2 dims (rand_shape's big flag) */
	static const int64_t bigS[] = { 127, 128, 129, 255, 257 };
	int big = seed % 4 == 3;
	int64_t S = big ? bigS[(seed / 4) % 5] : 3 + (int64_t)(seed % 3);
	int nin = 1 + (int)(seed % 3), nops;
	int outs[3], no = 0;
	FILE *f;

	for (int i = 0; i < 4; i++)
		rnd(&g);
	g.cap = 4096;
	ck_assert_ptr_nonnull(g.js = malloc(g.cap));
	put(&g, "{\"format\":\"fxgraph\",\"version\":1,\"name\":\"fuzz/%llu\","
	    "\"graph_kind\":\"inference\",\"nodes\":[", (unsigned long long)seed);
	for (int i = 0; i < nin; i++) {
		rand_shape(&g, &g.v[i], S, big);
		put(&g, "%s{\"name\":\"v%d\",\"op\":\"placeholder\",\"target\":\"v%d\",\"args\":[],"
		    "\"kwargs\":{},\"meta\":", i ? "," : "", i, i);
		put_meta(&g, &g.v[i]);
		put(&g, ",\"source\":\"l_x%d_\",\"kind\":\"input\"}", i);
		g.v[i].view = 1;        /* an input is never an output */
	}
	g.n = nin;
	nops = 4 + pick(&g, 9);
	for (int i = 0; i < nops && g.n < MAXV - 8; i++) {
		switch (pick(&g, 20)) {
		case 16: op_gelu(&g); break;
		case 17: op_layernorm(&g); break;
		case 18: op_matmul(&g, 3); break;
		case 19: op_pool(&g); break;
		case 15: op_bf16(&g); break;
		case 13: op_along(&g, "aten.cumsum.default", ""); break;
		case 14: op_rmsnorm(&g); break;
		case 0: case 1: op_unary(&g); break;
		case 2: case 3: case 4: op_binary(&g); break;
		case 5: case 6: op_reduce(&g); break;
		case 7: op_along(&g, "aten._softmax.default", ",false"); break;
		case 8: op_where(&g); break;
		case 9: op_cat(&g); break;
		case 10: op_matmul(&g, 2); break;
		default: op_view(&g); break;
		}
	}
	/* outputs: the last value that is not a view, and up to two more */
	for (int i = g.n - 1; i >= nin && no < 3; i--)
		if (!g.v[i].view && is_f32(&g.v[i]) && (no == 0 || pick(&g, 3) == 0))
			outs[no++] = i;
	if (!no) {
		gval x = g.v[g.n - 1];
		x.isbool = 0;
		char args[64];
		contig(&x);
		x.view = 0;
		snprintf(args, sizeof args, "[{\"node\":\"v%d\"}]", g.n - 1);
		outs[no++] = add_node(&g, &x, "aten.neg.default", args);
	}
	put(&g, ",{\"name\":\"output\",\"op\":\"output\",\"target\":\"output\",\"args\":[[");
	for (int i = 0; i < no; i++)
		put(&g, "%s{\"node\":\"v%d\"}", i ? "," : "", outs[i]);
	put(&g, "]],\"kwargs\":{}}]}\n");
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_int_eq(fwrite(g.js, 1, g.len, f), g.len);
	ck_assert_int_eq(fclose(f), 0);
	free(g.js);
	return g.lowp;
}

static long env_long(const char *name, long dflt)
{
	const char *s = getenv(name);

	return s && *s ? strtol(s, NULL, 10) : dflt;
}

/* NPU_FUZZ_FILE=graph.json: that graph instead (a developer's check of
 * any captured graph against the reference, on generated values) */
static void run_file(const char *path)
{
	char vals[1024];
	fxrun fr = { 0 };
	npu_graph *gr;
	npu_stfile st;
	npu_err e = { "" };

	snprintf(vals, sizeof vals, "%s/file.safetensors", fx_tmpdir);
	ck_assert_msg(npu_graph_read(&gr, path, &e) == 0, "%s", e.msg);
	if (getenv("NPU_FUZZ_VALUES"))
		snprintf(vals, sizeof vals, "%s", getenv("NPU_FUZZ_VALUES"));
	else
		fx_gen_values(gr, vals);
	npu_graph_free(gr);
	ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "%s", e.msg);
	fr.unfrozen = 1;
	fx_run_values(path, &st, 0, &fr);
	printf("%s: %llu cycles, %llu host calls, error %.3g against the reference\n", path,
	       (unsigned long long)fr.cycles, (unsigned long long)fr.host_calls, fr.worst_ref);
	npu_st_free(&st);
}

START_TEST(t_random_graphs)
{
	long n = env_long("NPU_FUZZ_GRAPHS", 300), first = env_long("NPU_FUZZ_FIRST", 0);
	char path[1024], vals[1024];

	fx_setup_tmp();
	if (getenv("NPU_FUZZ_FILE")) {
		run_file(getenv("NPU_FUZZ_FILE"));
		fx_teardown_tmp();
		return;
	}
	for (long i = first; i < first + n; i++) {
		fxrun fr = { 0 };
		npu_graph *gr;
		npu_stfile st;
		npu_err e = { "" };
		int lowp;

		/* (named by case: a failure's message names the file) */
		snprintf(path, sizeof path, "%s/case%ld.json", fx_tmpdir, i);
		snprintf(vals, sizeof vals, "%s/case%ld.safetensors", fx_tmpdir, i);
		lowp = make_graph((uint64_t)i, path);
		ck_assert_msg(npu_graph_read(&gr, path, &e) == 0, "case %ld: %s", i, e.msg);
		fx_gen_values(gr, vals);
		npu_graph_free(gr);
		ck_assert_msg(npu_st_read(&st, vals, &e) == 0, "case %ld: %s", i, e.msg);
		/* an output of differences of near values (sigmoids less their
		 * max, a mean of values less their mean) keeps fp32's absolute
		 * error, large relative to its own size: measured against the
		 * graph's scale (at least the inputs', about 1) below 1% of
		 * it, and within 1e-4 (a wrong broadcast is off by 1e-2 and
		 * more); 3e-2 where bfloat16 rounded a value on the way (the
		 * reference computes in fp64 throughout); 1e-3 for the large
		 * cases, whose sums of 16 k values less the values carry the
		 * sums' fp32 error into every element */
		fr.o.target = i % 2 ? "npu-edge" : "npu-base";
		fr.small = 1e-2;
		fr.scale_floor = 1;
		fr.tol = lowp ? 3e-2 : i % 4 == 3 ? 1e-3 : 1e-4;
		fx_run_values(path, &st, 0, &fr);
		npu_st_free(&st);
		ck_assert_msg(fr.host_calls == 0, "case %ld: %llu host calls", i,
			      (unsigned long long)fr.host_calls);
	}
	fx_teardown_tmp();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fuzzgraph");
	TCase *tc = tcase_create("random");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, t_random_graphs);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
