/*
 * passes.h - graph normalization: the passes that run on the graph IR
 * (graph.h) between the reader and fusion.  They rewrite the graph in
 * place, keep it a valid, topologically ordered graph with every node's
 * meta filled in, and never change what it computes (docs/passes.md says
 * why each rewrite is legal).
 *
 * Order (NPU_PASSES below):
 *   normargs  constant arguments in canonical form (alpha=1 dropped,
 *             integral floats of int-typed ops, negative dims)
 *   dce       nodes whose values nobody uses
 *   cse       the same target on the same arguments and meta, once
 *   quant     dequantize -> matmul patterns (quant.def) as int8 matmuls
 *             with int32 accumulation; other quantize/dequantize as
 *             elementwise ops (before fold, which would dequantize
 *             frozen int8 weights to float)
 *   fold      subgraphs whose inputs are all constants (get_attr tensors
 *             and frozen placeholders) evaluated by the reference
 *             interpreter and replaced by one constant each
 *   convbn    convolution + _native_batch_norm_legit_no_training (+
 *             getitem 0) -> one convolution with scaled weight and bias,
 *             only when the convolution has exactly one user
 *   noop      views and clones that do nothing
 *   layout    t/transpose -> permute, permute/view chains composed
 *   decomp    composite ops -> primitives (compiler/decomp.def)
 *   rope      x * cos + cat(-x2, x1) * sin -> cat(x1 * cos1 - x2 * sin1,
 *             x2 * cos2 + x1 * sin2), the same values in one kernel
 *   scatter   index_put by constant indices (F.fold) -> gathers by
 *             constant tables, added or written in index order
 *   normw     mm(view(y * w), B) -> mm(view(y), w[k] * B[k][n]) when w
 *             and B are frozen and matmuls are all the product feeds;
 *             addmm(c, view(y * w + b), B) the same with c + b B as its
 *             bias (Llama's RMSNorm and GPT-2's LayerNorm weights folded
 *             into their projections; after decomp, which exposes them)
 *   cleanup   dce, cse, fold, noop and dce again, over what the others
 *             left behind
 *
 * Every change goes to an npu_passlog: one line per decision, in text
 * or JSON, with per-pass timing.  Nodes the passes create keep their
 * origin: module path, source line and original ATen target of the node
 * they replace, and the list of FX nodes they came from
 * (npu_passlog_origins).
 */
#ifndef NPU_PASSES_H
#define NPU_PASSES_H

#include <stdio.h>

#include "compiler/graph.h"
#include "compiler/ref.h"
#include "isa/err.h"

/* X(ID, "name", "what it does"): the passes, in the order they run. */
#define NPU_PASSES(X) \
	X(NORMARGS, "normargs", "constant arguments in canonical form") \
	X(DCE,      "dce",      "dead-code elimination") \
	X(CSE,      "cse",      "common-subexpression elimination") \
	X(QUANT,    "quant",    "quantized patterns and Q/DQ lowering") \
	X(FOLD,     "fold",     "constant folding of frozen weights") \
	X(CONVBN,   "convbn",   "conv-BatchNorm folding") \
	X(NOOP,     "noop",     "removal of no-op views and clones") \
	X(LAYOUT,   "layout",   "canonical permute/view chains") \
	X(DECOMP,   "decomp",   "decomposition of composite ops") \
	X(ROPE,     "rope",     "rotate_half's negation folded into RoPE") \
	X(SCATTER,  "scatter",  "index_put by constant indices as gathers") \
	X(NORMW,    "normw",    "norm weights and biases folded into the matmuls they feed") \
	X(CLEANUP,  "cleanup",  "dce, cse, fold and noop again")

enum npu_pass {
#define X(id, name, what) NPU_PASS_##id,
	NPU_PASSES(X)
#undef X
	NPU_NPASS
};

const char *npu_pass_name(int pass);          /* "convbn" */
int npu_pass_find(const char *name);           /* -1 when unknown */

/* Constants made by folding: get_attr nodes whose target is name. */
typedef struct npu_passconst {
	char *name;                 /* get_attr target, "_folded_3" */
	char *origin;               /* the node it replaced */
	npu_reftensor t;            /* the value, in the node's dtype */
} npu_passconst;

typedef struct npu_passconsts {
	npu_passconst *v;
	int n, cap;
} npu_passconsts;

/*
 * The value of a folded constant, by get_attr target ("_folded_3") or by
 * the reference interpreter's key for it ("attr._folded_3"); NULL when
 * there is none.  The signature fits npu_refenv.lookup, so a caller can
 * chain it in front of its own lookup.
 */
const npu_reftensor *npu_passconsts_find(const npu_passconsts *c,
					 const char *name);
void npu_passconsts_free(npu_passconsts *c);

typedef struct npu_passopts {
	/*
	 * Frozen values: the tensor of a placeholder (by node name) or of a
	 * get_attr (by "attr.<target>"), NULL when it is a run-time input.
	 * Same contract as npu_refenv.lookup.  NULL: nothing is frozen
	 * (get_attr tensors without a value are not folded either).
	 */
	const npu_reftensor *(*frozen)(void *ctx, const char *name);
	void *ctx;
	/*
	 * Optional, with the same ctx and keys: the raw little-endian bytes
	 * of a frozen tensor (unaligned; dtype, rank and shape returned), so
	 * that a pass reading a large weight once (conv-BN) need not convert
	 * it all to fp64.  NULL: frozen is used.
	 */
	const void *(*frozen_raw)(void *ctx, const char *name, int *dtype,
				  int *ndim, int64_t *shape);
	/* Where folded constants go (owned by the caller; free with
	 * npu_passconsts_free); NULL disables fold and convbn's weight
	 * folding becomes run-time arithmetic. */
	npu_passconsts *consts;
	/* Ops the backend runs natively (enum npu_aop): decomp leaves them
	 * alone.  NULL: everything in decomp.def is decomposed. */
	int (*native)(void *ctx, int aop);
	void *native_ctx;
	/* The target, for the choices that weigh a host call against the
	 * NPU (@groupedmm); NULL: npu-base's figures. */
	const struct npu_target *target;
	unsigned skip;              /* bit (1u << NPU_PASS_x): skip pass x */
	long long fold_max_elems;   /* largest constant fold may create;
				       0 means 1 << 24 */
	/* After each pass, when set: called with the pass and the graph
	 * (for --dump-ir-after). */
	void (*after)(void *ctx, int pass, const npu_graph *g);
	void *after_ctx;
} npu_passopts;

/* One change a pass made (or declined to make, with the reason). */
typedef struct npu_passentry {
	int pass;                   /* enum npu_pass */
	char *what;                 /* "folded convolution_3 + ..." */
	char *nodes;                /* the nodes affected, comma-separated */
} npu_passentry;

typedef struct npu_passlog {
	npu_passentry *v;
	int n, cap;
	double seconds[NPU_NPASS];  /* wall time per pass */
	int changes[NPU_NPASS];     /* entries per pass that changed the graph */
	int nodes_before, nodes_after;
	/* provenance: node name -> the FX nodes it came from */
	char **prov_name, **prov_from;
	int nprov, capprov;
	int oom;                    /* an entry could not be recorded */
} npu_passlog;

/* Zeroes log (the same as = {0}). */
void npu_passlog_init(npu_passlog *log);
void npu_passlog_free(npu_passlog *log);

/*
 * Text: one line per entry, "convbn: folded convolution + _native_..."
 * then, when timing is set, a table of passes with time and changes.
 */
int npu_passlog_print(const npu_passlog *log, FILE *f, int timing);
/* JSON: {"entries": [{"pass", "what", "nodes"}], "passes": [{"name",
 * "seconds", "changes"}], "nodes_before", "nodes_after"}. */
int npu_passlog_print_json(const npu_passlog *log, FILE *f);

/*
 * The FX nodes a node came from, comma-separated ("convolution,
 * _native_batch_norm_legit_no_training"), or NULL when the node is one
 * the reader made (its own name is its origin).
 */
const char *npu_passlog_origins(const npu_passlog *log, const char *node);

/* Number of entries of pass whose text starts with prefix (tests). */
int npu_passlog_count(const npu_passlog *log, int pass, const char *prefix);

/*
 * Runs every pass not skipped, in order, on g.  log may be NULL.
 * Returns 0, or -1 with e naming the pass and node when the graph cannot
 * be rewritten (out of memory, a malformed node the reader let through,
 * a fold the interpreter rejects); g is then still a valid graph, but
 * possibly only partly normalized.
 */
int npu_passes_run(npu_graph *g, const npu_passopts *o, npu_passlog *log,
		   npu_err *e);

/* One pass alone (the same contract). */
int npu_pass_run(int pass, npu_graph *g, const npu_passopts *o,
		 npu_passlog *log, npu_err *e);

#endif
