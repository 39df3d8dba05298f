/*
 * kir.h - the kernel IR: what fusion (fuse.c) makes of the graph and what
 * tiling (tile.c) and the templates (emit*.c) consume.
 *
 * Values.  Every tensor the backend sees is an npu_kval: either
 * materialized (it owns a DRAM buffer, contiguous, row-major) or a view
 * of a materialized value (an offset and element strides into the root's
 * buffer).  Views cost nothing: a kernel reads its inputs through their
 * strides, with DMA descriptors (stride 0 for broadcast, any stride for
 * permute, select or slice).  A value may also be a constant fill (full,
 * scalar_tensor, full_like) that kernels inline as an immediate.
 *
 * Kernels.  A kernel is one instance of a template (ew, row, mm, host);
 * the computation inside ew, row and the mm epilogue is data: an
 * expression program (npu_xins) over fp32 vector values, so fusion adds
 * instructions to a program instead of code to the compiler.
 *
 * Expression programs.  Instruction i defines value i.  Operand kinds:
 * LOAD reads kernel operand `a` at the current element; ACC is the matrix
 * unit's accumulator (mm epilogues); RED accumulates `a` across the row
 * (row kernels) and RFIN finishes it into a per-row value all later
 * instructions can use.  Row programs are split in phases by LOOP/ENDLOOP
 * markers: instructions between them run once per chunk of the row, the
 * others once per row.
 */
#ifndef NPU_KIR_H
#define NPU_KIR_H

#include <stdint.h>
#include <stdio.h>

#include "compiler/graph.h"
#include "isa/err.h"
#include "isa/prog.h"
#include "isa/target.h"

/* The most operands a kernel takes (the emitters' tables, tile.c). */
#define NPU_KERN_MAX_OPS 64

/* NPU_KK_INT: integer arithmetic of at most NPU_INTK_MAX elements on the
 * scalar unit (fuse.c's do_intk), its program one op over loads */
enum npu_kkind { NPU_KK_EW, NPU_KK_ROW, NPU_KK_MM, NPU_KK_HOST, NPU_KK_GATHER,
		 NPU_KK_POOL, NPU_KK_INT, NPU_NKK };
#define NPU_INTK_MAX 64
const char *npu_kkind_name(int k);

typedef struct npu_kval {
	char *name;          /* node name ("add"), "getitem" style for outputs */
	int node;            /* graph node, -1 when synthetic */
	int dtype, ndim;
	int64_t shape[NPU_MAX_DIMS];
	int root;            /* -1: materialized here; else the value viewed */
	int64_t off;         /* view: element offset into root */
	int64_t stride[NPU_MAX_DIMS]; /* view: element strides into root */
	int isconst;         /* constant fill: every element is fill */
	double fill;
	int kind;            /* materialized: enum npu_bufkind */
	const void *cdata;   /* NPU_BUF_CONST: the bytes (not owned) */
	void *cown;          /* constant bytes this IR made (owned) */
	int producer;        /* kernel that writes it, -1 if none */
	int xdef;            /* producer's expression value, -1 */
	int buf;             /* link: buffer index (the arena for shared scratch) */
	uint64_t daddr;      /* link: DRAM address of element 0 (for a
				resident value, its aperture address) */
	int res;             /* link: kept in the SRAM window (npu_link_resident) */
	int win;             /* link: symbolic scratch the loader may place
				in the SRAM window (npu_link_dynwin) */
	uint64_t roff;       /* link: a resident value's offset in the window */
	int outidx;          /* graph output index, -1 */
	int needed;          /* read by another kernel, a host call or output */
	int lastk;           /* last kernel that reads it */
	int sym;             /* leading dims that are symbolic (dyn.c) */
} npu_kval;

/* A kernel operand: value v read (or written) over the kernel's index space. */
typedef struct npu_kopnd {
	int val;             /* the value as consumed (view or root) */
	int out;             /* 1: written by the kernel (materialized, contiguous) */
	int64_t off;         /* element offset into the root buffer */
	int64_t stride[NPU_MAX_DIMS]; /* over the kernel's index space */
	/* a matmul's A only: when kseg > 0, column k of A is element
	 * (k / kseg) * kstride + (k % kseg) * stride[2] (a permuted
	 * operand read without a copy: the heads' outputs as the o
	 * projection's rows); 0: plain strides */
	int64_t kseg, kstride;
} npu_kopnd;

enum npu_xop {
	NPU_X_LOAD,   /* a: operand */
	NPU_X_CONST,  /* imm */
	NPU_X_ACC,    /* accumulator element (mm) */
	NPU_X_UN,     /* vop(a) */
	NPU_X_BIN,    /* vop(a, b) */
	NPU_X_BINI,   /* vop(a, imm) */
	NPU_X_SEL,    /* a != 0 ? b : c */
	NPU_X_RND,    /* round a through dtype */
	NPU_X_STORE,  /* operand b = a */
	NPU_X_RED,    /* reduce a across the row: vop VADD (sum) or VMAX */
	NPU_X_RFIN,   /* a: the RED value; per-row total */
	NPU_X_LOOP,   /* row programs: start of a pass over the row */
	NPU_X_ENDLOOP,
	NPU_NXOP
};

typedef struct npu_xins {
	int op;              /* enum npu_xop */
	int vop;             /* NPU_OP_* of the vector instruction */
	int a, b, c;
	float imm;
	int dtype;           /* RND */
	int node;            /* graph node it came from, -1 */
} npu_xins;

/* Tiling knobs (tile.c fills them from the cost model unless set). */
typedef struct npu_knobs {
	int64_t tile_m, tile_n, tile_k; /* mm: block sizes; ew/row: tile_m rows */
	int64_t tile_c;                 /* ew: columns per tile */
	int bufs;                       /* buffering depth: 1 or 2 */
	int loop_order;                 /* mm: 0 n outer, 1 m outer */
} npu_knobs;

typedef struct npu_kern {
	int kind;            /* enum npu_kkind */
	char *name;
	int *nodes, nnodes;  /* provenance: FX nodes fused here */
	int ndim;            /* index space (ew/row: the output's shape) */
	int64_t shape[NPU_MAX_DIMS];
	int rdims;           /* row: trailing dims reduced */
	npu_kopnd *ops;
	int nops;
	npu_xins *x;
	int nx;
	/* mm: C[b] = A[b] (M x K) . B[b] (K x N); epilogue in x (ACC);
	 * gather: mm_k > 0 is the row length in elements (the source read
	 * as [numel / mm_k][mm_k]), else the source's dim 1; mm_n > 0:
	 * by a run-time index (fuse.c's rtgat), mm_m groups, mm_batch n2
	 * rows, mm_n entries, runs of mm_k elements: run (l, t, j) is the
	 * source's off + l * stride[0] + index * stride[1] + t * stride[2],
	 * index entry l * g_is + t * mm_n + j, stored at l * mm_n *
	 * mm_batch * mm_k + j * g_ds[0] + t * g_ds[1] */
	int mm_a, mm_b;      /* operand indexes */
	int64_t mm_batch, mm_m, mm_n, mm_k;
	int mm_dtype;        /* input type the array runs */
	int mm_passes;       /* precision passes (1 or 3) */
	int mm_blo, mm_alo;  /* high: the lo parts' operands, -1 */
	/* gated (fuse.c's mm_glu): B's columns in blocks of 2 * mm_glu, a
	 * block of the gate's then the same of the up projection's; the
	 * output has half the columns, out[m][b * mm_glu + c] from
	 * accumulator columns b * 2 * mm_glu + c (ACC) and + mm_glu (ACC
	 * with a = 1); 0: a plain matmul */
	int64_t mm_glu;
	int64_t g_ds[2], g_is; /* gather by a run-time index: output
				  strides; index entries a group */
	/* gather kind, g_scatter: a scatter (fuse.c's rt_scatter), the
	 * output ops[2] holding self already: group l < mm_m's mm_n rows of
	 * mm_k elements of the values (ops[0]: group stride stride[0], rows
	 * contiguous) go to ops[2]'s rows l * g_ds[1] + idx[j] * g_ds[0],
	 * idx (ops[1]) shared by the groups (g_is 0) or entries l * g_is +
	 * j, each in [-g_bound, g_bound) */
	int g_scatter;
	int64_t g_bound;
	/* conv (implicit GEMM, mm with B = im2col of the input, built in
	 * SRAM): A = weight [OC][IC*KH*KW], C[n] = [OC][OH*OW] (NCHW); pool
	 * kernels: the window (cv_ic the channels, cv_h/cv_w the input's
	 * plane, cv_kh.. the kernel, stride and padding) */
	int cv;              /* 1; 2: computed transposed (emit_convt.c),
				A the constant W^T [K][OC] */
	int cv_hwc;          /* cv 2: K ordered (kh, kw, ic), the image
				read channels-last from SRAM by the array
				itself, no X_col^T (emit_convt.c) */
	int64_t cv_ic, cv_h, cv_w, cv_kh, cv_kw, cv_sh, cv_sw, cv_ph, cv_pw,
		cv_oh, cv_ow;
	int cv_one;          /* conv: A's last column is the bias and X_col's
				last row ones (mm_k = IC*KH*KW + 1) */
	int pool_relu;       /* pool: ReLU of the max (moved past it) */
	/* host: the graph node it runs */
	int hnode;
	int *hin, nhin, *hout, nhout; /* value indexes */
	char *hattrs;        /* JSON attrs for npu_ref_exec_op */
	char *hreason;
	npu_knobs kn;
	npu_knobs set;       /* knobs set from the command line (0 = free) */
	double cost;         /* cost model estimate, cycles */
	uint64_t dram_bytes; /* model: DRAM traffic */
} npu_kern;

/* A fusion decision, for the report. */
typedef struct npu_kdecision {
	int fused;           /* 1 fused, 0 rejected */
	char *what;          /* "fused relu into add (ew)" */
} npu_kdecision;

typedef struct npu_kir {
	const npu_graph *g;
	npu_kval *v;
	int nv, capv;
	npu_kern *k;
	int nk, capk;
	int *nodeval;        /* per graph node: its value (first output), -1 */
	int **nodevals;      /* per node: multi-output values, NULL */
	int *outs;           /* graph outputs: value indexes */
	int nouts;
	npu_kdecision *d;
	int nd, capd;
	const npu_target *t;
	int nofuse;
	int fp32prec;        /* 0 highest, 1 high, 2 medium */
	int tile_failed;     /* npu_tile: the kernel it could not tile, -1 */
	uint64_t arena_bytes, arena_peak; /* link: shared scratch, its bound */
	/* link: the SRAM-resident window (npu_link_resident): res_bytes
	 * from res_sram, the top res_banks banks that the tiler and emitter
	 * do not see; a value there has the DMA aperture's address of its
	 * SRAM bytes (isa/isa.h) as its daddr */
	uint64_t res_bytes, res_peak, res_sram;
	int res_banks, res_nvals;
	/* a dynamic program's window (npu_link_dynwin): res_banks banks from
	 * res_sram, res_bytes 0; win_nvals values of win_bytes at the hints */
	uint64_t win_bytes;
	int win_nvals;
	/* link: resident constants, the first pre_bytes of the window (each
	 * at its roff), copied there from one block of DRAM at pre_dram
	 * before the first kernel (npu_emit_preload) */
	int *pre;            /* their value indexes */
	int npre;
	uint64_t pre_dram, pre_bytes;
} npu_kir;

void npu_kir_free(npu_kir *ir);

/* Appends a value / kernel / operand / instruction; index or -1 (ENOMEM). */
int npu_kir_val(npu_kir *ir, const char *name, int node, int dtype,
		int ndim, const int64_t *shape);
int npu_kir_kern(npu_kir *ir, int kind, const char *name);
int npu_kir_opnd(npu_kern *k, int val, int out, int64_t off,
		 const int64_t *stride);
int npu_kir_x(npu_kern *k, npu_xins x);
int npu_kir_addnode(npu_kern *k, int node);
void npu_kir_decide(npu_kir *ir, int fused, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An integer type the vector unit holds exactly in fp32 lanes when the
 * values are small enough (i8, u8, i16, i32; not i64 or bool). */
int npu_kir_isint(int dt);

/* Row-major contiguous strides of a shape. */
void npu_kir_contig(int ndim, const int64_t *shape, int64_t *stride);
int64_t npu_kir_numel(int ndim, const int64_t *shape);
/* Bytes of a value's elements. */
uint64_t npu_kval_bytes(const npu_kval *v);

/* Prints the kernel IR (after fuse, after tile: with knobs and costs). */
void npu_kir_print(const npu_kir *ir, FILE *f);

/* fuse.c: graph -> kernels.  consts(name) gives frozen tensors. */
typedef struct npu_fuse_env {
	const void *(*frozen)(void *ctx, const char *name, int *dtype,
			      int *ndim, int64_t *shape);
	void *ctx;
	/* by graph node: NULL, or why it is a host call whatever its op
	 * (the driver's next try when its kernel did not fit SRAM) */
	char *const *to_host;
} npu_fuse_env;
int npu_fuse(npu_kir *ir, const npu_graph *g, const npu_fuse_env *env,
	     npu_err *e);

/* tile.c: knobs and cost of every kernel; fails with numbers (and
 * ir->tile_failed set to the kernel). */
int npu_tile(npu_kir *ir, const npu_target *t, npu_err *e);

/* support.def: how the backend lowers an ATen op. */
enum npu_lowkind { NPU_LK_EW, NPU_LK_RED, NPU_LK_SOFTMAX, NPU_LK_MM,
		   NPU_LK_VIEW, NPU_LK_CONST, NPU_LK_CONV, NPU_LK_BN,
		   NPU_LK_GATHER, NPU_LK_CAT, NPU_LK_POOL, NPU_LK_SCAN,
		   NPU_LK_INDEX, NPU_LK_SCATTER, NPU_LK_HOST };
/* Template kind that lowers aop natively; NPU_LK_HOST when none. */
int npu_support_kind(int aop);
const char *npu_lowkind_name(int lk);

#endif
