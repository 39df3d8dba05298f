/*
 * emit_int.h - private to the templates (emit*.c): the code-generation
 * context shared by the ew/row skeleton and the mm template.
 */
#ifndef NPU_EMIT_INT_H
#define NPU_EMIT_INT_H

#include "compiler/driver.h"

/* Semaphores (balanced within each kernel: every sig has its wait). */
enum {
	SEM_LD = 0,          /* + engine: tile loaded (to vec) */
	SEM_FREE = 8,        /* + engine: input slot free (from vec / mxu) */
	SEM_ST = 16,         /* output slot stored */
	SEM_CMP = 17,        /* tile computed */
	SEM_END = 18,        /* kernel done, to the scalar unit */
	SEM_MLD = 19,        /* mm: + 0/1: A/B panel loaded (to mxu) */
	SEM_MFREE = 21,      /* mm: + 0/1: A/B slot free (from mxu) */
	SEM_MMD = 23,        /* mm: block accumulated (to vec) */
	SEM_ACCF = 24,       /* mm: accumulator slot read (to mxu) */
	SEM_LAST = 25,       /* ew/row: + piece (< 4): last tile computed, to the
				engine storing that piece */
	SEM_ST2 = 29,        /* mm: output slot stored by the second store
				engine (its own semaphore: a wait on one shared
				by two engines could take the quicker engine's
				token of a later tile) */
	SEM_CMP2 = 30,       /* mm: tile computed, to the second store engine */
	SEM_PF = NPU_SEM_PF  /* the next kernel's first B panel loaded (to its
				mxu; the one semaphore balanced across two
				kernels, see npu_pfplan) */
};

/*
 * Kernel code whose SRAM slots (up to top) reach the area of panel p,
 * which the kernel before loads for it and it does not read there (a
 * kernel that reads it there keeps its slots below): the scalar unit
 * waits for p's loads before it issues anything further, so that no
 * transfer of this kernel writes the area while they still do (MNASNet's
 * convolutions on npu-edge), and gives their signals back for the matrix
 * unit's own waits.  Nothing when p was not issued or the slots stay
 * below it.
 */
void npu_pf_fence(npu_mfunc *f, const npu_pfplan *p, uint64_t top);

typedef struct emit_t {
	const npu_kir *ir;
	const npu_prog *p;
	const npu_target *t;
	const npu_kern *K;
	npu_mfunc *f;
	int *lv, *memo, *rowm;   /* per expression value */
	int64_t (*st)[NPU_MAX_DIMS]; /* per operand, coalesced strides */
	int64_t n[NPU_MAX_DIMS];
	int q;
	uint64_t *slot;          /* per operand: SRAM address this tile */
	uint64_t (*slotb)[2];    /* per operand and buffer */
	uint64_t accslot;
	uint64_t accpair;        /* mm_glu: bytes from a gate's accumulator
				    element to its up projection's (ACC a = 1) */
	int *ldeng, *used, steng;
	int qs2;                 /* mm: second store engine, -1 */
	int *rowop;              /* mm: operand read once per row (vbcast) */
	int npass;               /* row kernels in several passes: how many */
	int rgroup;              /* ... the row groups begun: their per-row
				    results alternate between the two slots
				    by it, not by tile */
	int nacc;                /* mm: accumulator regions in rotation */
	int uslot;               /* the unrolled chunk being emitted */
	int racc[4], nracc;      /* a reduction's partials (UNROLL), in
				    rotation by chunk; 0: rowm's one */
	uint64_t *stage;         /* per operand: SRAM staging for a transpose
				    or a broadcast (bstep bytes a slot), 0 */
	uint64_t bstep;
	int64_t fold;            /* ew: planes of dim q-3 a full tile holds */
	struct emit_tap {        /* per operand: taps read from one span */
		int lead;        /* the group's first operand, -1: none */
		uint64_t stage;  /* lead: SRAM staging of the span */
		int64_t d, dmax; /* DRAM bytes past the span's start; lead:
				    the largest of its group's d */
	} *tap;
	int xoff[4], xrowc[4], xrow[4], xvlen, xone;
	int64_t ioff[4];         /* unrolled chunk: byte offset per size */
	int lanes;               /* row kernels: rows across lanes (below) */
	int64_t ccol;            /* lanes: the column being computed */
	int xcst[4];             /* lanes: row stride in SRAM, per size */
	int cval;                /* lanes: a body's reduced value */
	int *npc, *spc, *sbase;  /* ew/row: pieces of each operand's loads, of
				    the last tile's stores, and their first engine */
	unsigned emask;          /* element sizes in use (bit per index) */
	int64_t dstate[NPU_MAX_DMA][NPU_NDFIELD];
	int dvalid[NPU_MAX_DMA][NPU_NDFIELD];
	uint64_t dram_bytes;
	double qbusy[NPU_MAX_DMA]; /* per engine: cycles its transfers so far
				      hold it (setup, bytes, DRAM latency) */
	const npu_dynrel *rel;   /* symbolic buffers' moving addresses */
	npu_handoff *ho;         /* ew/row: what the stores leave in SRAM */
	const npu_handoff *hin;  /* ew/row: what loads may copy from SRAM */
	int nho;                 /* ew/row: hand-offs recorded so far */
	npu_dramwatch *watch;    /* the emitctx's: DRAM accesses to note */
	npu_imgho *imgout;       /* mm: the next convolution's image, written
				    from output operand imgop as it is stored */
	int imgop;
} emit_t;

int npu_emit_setup(emit_t *g, const npu_emitctx *c, int k, npu_mfunc *f);
void npu_emit_cleanup(emit_t *g);
int npu_emit_dims(const npu_kir *ir, const npu_kern *K, int64_t *n,
		  int64_t (*st)[NPU_MAX_DIMS], int *q);
int npu_emit_level(const npu_kern *K, int *lv, const int *rowop);
void npu_emit_rows(emit_t *g, int64_t rows, int64_t cols);
void npu_emit_rows_x(emit_t *g, int xn, int64_t cols); /* dyn: rows in a register */
/* Reorders the n instances at[0..n) of one row's code (instance u is
 * instructions at[u] .. at[u + 1]) round-robin when that is safe (no vl
 * change, branch or label) and keeps the registers within budget; else
 * in pairs; else leaves them in order. */
void npu_emit_ilv(npu_mfunc *f, const int *at, int n);
/* A row kernel's rows, several interleaved (rows < 0: as many as xn). */
void npu_emit_rows_ilv(emit_t *g, int64_t rows, int xn, int64_t cols);
int npu_emit_x(emit_t *g, int i);
void npu_emit_pass(emit_t *g, int64_t n, void (*body)(emit_t *, void *),
		   void *arg);
void npu_emit_row(emit_t *g, int64_t n);
void npu_emit_row_x(emit_t *g, int xn);   /* dyn: n in a register */
/* Does a row kernel's tile of rows x cols run with its rows across the
 * vector lanes (one register per column) rather than one row at a time?
 * Also the vector cycles of either schedule, for the cost model. */
int npu_emit_lanes(const npu_kern *K, const npu_target *t, int64_t rows,
		   int64_t cols, double *cycles);
void npu_emit_dmaf(emit_t *g, int q, int op, uint64_t dst, uint64_t src,
		   int64_t rowb, int64_t n1, int64_t ss1, int64_t ds1,
		   int64_t n2, int64_t ss2, int64_t ds2);
void npu_emit_dmat(emit_t *g, int q, int op, int dt, uint64_t dst,
		   uint64_t src, int64_t rowb, int64_t n1, int64_t ss1,
		   int64_t ds1, int64_t n2, int64_t ss2, int64_t ds2);
void npu_emit_dma(emit_t *g, int q, int store, uint64_t dram, uint64_t local,
		  int esz, int64_t rows, int64_t cols, int64_t sa, int64_t sb);

/* emit_mm.c: the loads of the next kernel's first B panel (c->pfnext),
 * its rows split evenly over the nq engines of q[], if this kernel's
 * SRAM ends at or below the panel's area; marks the plan issued. */
void npu_emit_pf(emit_t *g, npu_pfplan *p, const int *q, int nq, uint64_t end);
/* The same with the rows split so that the engines, each busy for
 * g->qbusy cycles with this kernel's transfers, end together. */
void npu_emit_pf_even(emit_t *g, npu_pfplan *p, const int *q, int nq,
		      uint64_t end);

/* emit_mm.c: is h convolution K's image (its value, written whole, with
 * K's padded plane and channels)?  And K's output operand that is the
 * value of h, the next kernel's image, or -1. */
int npu_imgho_is_input(const npu_imgho *h, const npu_kern *K);
int npu_imgho_output(const npu_imgho *h, const npu_kern *K);

/* emit_mm.c: kernel k has written all of h, the next kernel's image
 * (npu_imgho), the value it stores at dram; every store of its code
 * is of that value, so the stores are dropped when the next kernel is
 * its only reader (driver.c's drop_dead_store). */
void npu_imgho_done(const npu_emitctx *c, npu_imgho *h, int k, int val,
		    uint64_t dram, int nins);

/* emit_mm.c: the epilogue of mm kernel K only copies the accumulator
 * into its one output, which a DMA store can write straight from the
 * accumulator (fp32 as it is, bf16 and f16 rounded by dstc as vst
 * would): the output's type; else -1. */
int npu_mm_acc_copy(const npu_kir *ir, const npu_kern *K);
/* emit_mm.c: columns [c0, c0 + len) of rows r .. r + rn of a matmul
 * block's epilogue, the rows interleaved (accumulator at acc, rows of nn;
 * operand o's slot at save[o], rows of w), a tail shorter than a vector
 * at its own vl: one column chunk of the last block (last_cols). */
void npu_mm_cols(emit_t *g, const npu_kern *K, const uint64_t *save,
		 uint64_t acc, int64_t r, int rn, int64_t nn, int64_t w,
		 int64_t c0, int64_t len);
/* emit_mm.c: the column chunks a last block of nn accumulator columns
 * may run in (a vector epilogue with no row reduction or row operand,
 * into outputs of unit column stride), 0 when not; both emitters. */
int64_t npu_mm_chunks(const emit_t *g, const npu_kern *K, int64_t nn);
/* emit.c: notes an access of [a, a + n) for the emitctx's watch. */
void npu_emit_watch(emit_t *g, uint64_t a, uint64_t n);

/* emit_pool.c: max pooling from whole rows in SRAM (pool kernels, which
 * fuse.c makes for windows of at most NPU_POOL_KMAX a side). */
#define NPU_POOL_KMAX 8
int npu_emit_pool(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e);
/* (npu_pool_fused: driver.h) */
/* The padded slot of pool kernel Pk: planes of hp x wp, output rows of
 * owp (the last owp - OW never stored). */
void npu_pool_band_geom(const npu_kern *Pk, int64_t *hp, int64_t *wp, int64_t *owp);
/* -inf over the border of that slot at SRAM address in (vl left at vlen). */
void npu_pool_band_border(emit_t *g, const npu_kern *Pk, uint64_t in);
/* Output rows [i0, i1) of planes [p0, p0 + np) from the slot at in, the
 * row maxima through v, into out (plane p's rows at p * (i1 - i0) *
 * owp); vl left at vlen. */
void npu_pool_band(emit_t *g, const npu_kern *Pk, uint64_t in, uint64_t v,
		   uint64_t out, int64_t p0, int64_t np, int64_t i0, int64_t i1);

/* emit_convt.c: a convolution computed transposed (mm kernels with
 * cv == 2: fuse.c's convt_ok). */
int npu_emit_convt(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e);

#endif
