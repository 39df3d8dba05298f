/*
 * ref.h - the reference interpreter: runs an FX graph (graph.h) node by
 * node on the host, in float64, with PyTorch's semantics.  It is the
 * oracle that compiled programs are checked against and the host model's
 * fallback for operations the NPU cannot run, so it is deliberately naive:
 * every tensor is a fresh contiguous array of doubles, every view is a
 * copy, and nothing depends on fusion, tiling or layout.
 *
 * Values.  A tensor holds its elements as doubles plus a "logical dtype"
 * (enum npu_dtype), the dtype PyTorch would give it.  Integer and bool
 * tensors are carried exactly (integers up to 2^53 in magnitude; int64
 * beyond that loses low bits, a documented limit); conversion to an
 * integer dtype truncates toward zero and wraps to the dtype's width, as
 * a C cast would.
 *
 * Precision.  NPU_REF_FP64 never rounds a floating result: it is the
 * independent, higher-precision reference.  NPU_REF_TORCH rounds each
 * op's floating result to the op's dtype (bf16, f16, f32 through
 * isa/dtype.h, round to nearest even), which tracks PyTorch's eager
 * results closely (reductions still accumulate in fp64).
 */
#ifndef NPU_REF_H
#define NPU_REF_H

#include <stdint.h>

#include "compiler/graph.h"
#include "isa/err.h"
#include "isa/prog.h"

enum npu_ref_precision { NPU_REF_FP64, NPU_REF_TORCH };

typedef struct npu_reftensor {
	int dtype;                   /* logical dtype, enum npu_dtype */
	int ndim;                    /* -1: no value (a None output) */
	int64_t shape[NPU_MAX_DIMS];
	double *data;                /* numel elements, row-major, owned */
} npu_reftensor;

/* Elements of t (1 for a 0-dim tensor, 0 for a None). */
int64_t npu_reftensor_numel(const npu_reftensor *t);

/* Allocates t with zeros. */
int npu_reftensor_alloc(npu_reftensor *t, int dtype, int ndim,
			const int64_t *shape, npu_err *e);

/* Frees t's data and marks it None. */
void npu_reftensor_free(npu_reftensor *t);

/* Deep copy. */
int npu_reftensor_copy(npu_reftensor *dst, const npu_reftensor *src,
		       npu_err *e);

/* Loads raw little-endian elements of dtype into t (isa/dtype.h). */
int npu_reftensor_load(npu_reftensor *t, int dtype, int ndim,
		       const int64_t *shape, const void *raw, npu_err *e);

/* Stores t's elements as t->dtype into raw (numel * dtype size bytes). */
void npu_reftensor_store(const npu_reftensor *t, void *raw);

/*
 * Where a graph's inputs come from.  lookup returns the value of a
 * placeholder (by node name: "arg1_1") or of a get_attr tensor (by
 * "attr.<target>", the key the fixtures' safetensors files use), or NULL
 * when it has none.  A SymInt placeholder may be left out: its value is
 * then bound from the shapes of the tensor inputs.
 */
typedef struct npu_refenv {
	int precision;               /* enum npu_ref_precision */
	const npu_reftensor *(*lookup)(void *ctx, const char *name);
	void *ctx;
} npu_refenv;

/*
 * Runs g.  On success *outs holds one tensor per entry of the output
 * node's list (a None entry has ndim -1) and *nout their count; free them
 * with npu_ref_free_outputs.  Every op's result is checked against the
 * node's recorded meta (shape and dtype), so a wrong kernel or a
 * mismatched input shows as an error naming the node.
 */
int npu_ref_run(const npu_graph *g, const npu_refenv *env,
		npu_reftensor **outs, int *nout, npu_err *e);

void npu_ref_free_outputs(npu_reftensor *outs, int n);

/*
 * Runs one operator: the host model's fallback for host calls.
 *
 * target     an optab.def target, "aten.cumsum.default"
 * attrs_json the node's arguments in the fxgraph value encoding, as an
 *            object {"args": [...], "kwargs": {...}}; a tensor argument
 *            is written {"input": K}, meaning in[K].  NULL or "" means
 *            {"args": [in[0], in[1], ...]}.  Two optional members:
 *            "dtype": ["float32", ...], the result dtypes (otherwise
 *            PyTorch's promotion rules decide), and "precision":
 *            "fp64" (the default) or "torch".
 *            Example, cumsum along the last dim:
 *              {"args": [{"input": 0}, -1]}
 * in, nin    the tensor inputs
 * out, nout  receives the results (nout of them: 2 for max.dim); each is
 *            allocated here and freed by the caller with
 *            npu_reftensor_free.  A None result has ndim -1.
 */
int npu_ref_exec_op(const char *target, const char *attrs_json,
		    const npu_reftensor *in, int nin, npu_reftensor *out,
		    int nout, npu_err *e);

/*
 * Nearest-neighbour resampling's source index of output position dst of
 * a dim resized from in to out, as PyTorch's nearest_idx computes it:
 * min(floorf(dst * scale), in - 1) in float32, scale = 1 / s for a given
 * scale factor s > 0, else in / out.
 */
int64_t npu_ref_nearest_src(int64_t dst, int64_t in, int64_t out, double s);

/*
 * Linear resampling's source of output position dst (the same sizes and
 * s): the lower neighbour *i0, the upper one's offset *step (0 at the
 * edge) and its weight *lam, as PyTorch's area_pixel_compute_source_index
 * (align_corners: dst * (in - 1) / (out - 1); else (dst + 0.5) * scale -
 * 0.5, at least 0), in float64.
 */
void npu_ref_linear_src(int64_t dst, int64_t in, int64_t out, int align, double s,
			int64_t *i0, int64_t *step, double *lam);

/* Outputs of a pooling window along a dim of `in`: PyTorch's
 * pooling_output_shape (in ceil_mode no window starts in the right
 * padding); 0 or less when none fits. */
int64_t npu_ref_pool_len(int64_t in, int64_t k, int64_t s, int64_t pad,
			 int64_t dil, int ceil_mode);

/*
 * The DFT's twiddle factor for input j and output k of a length-n
 * transform: *c = cos(2 pi j k / n), *s = sin(2 pi j k / n), the angle
 * taken from j k mod n so that large products lose nothing.  The
 * reference (npusim.fft_real) and the decomposition's matrices share it.
 */
void npu_ref_twiddle(int64_t j, int64_t k, int64_t n, double *c, double *s);

/* The factor normalization 0 (none), 1 (1 / sqrt(n)) or 2 (1 / n) of
 * _fft_c2c / _fft_r2c applies to a transform of n points in all. */
double npu_ref_fft_scale(int normalization, double n);

/*
 * Evaluates a SymInt expression ("256*s50", "s0 + 1", "(s1 - 1)//2")
 * with the given bindings (names[i] = vals[i]).  Returns 0, or -1 with a
 * message for an unbound name or bad syntax.
 */
int npu_ref_symeval(const char *expr, const char *const *names,
		    const int64_t *vals, int n, int64_t *out, npu_err *e);
/* The same for a SymFloat too (IntTrueDiv(s0, 2), ToFloat(s1)): the value
 * as a double, *is_float (if not NULL) whether it is a float; where
 * npu_ref_symeval refuses a float value. */
int npu_ref_symevalf(const char *expr, const char *const *names,
		     const int64_t *vals, int n, double *out, int *is_float,
		     npu_err *e);

#endif
