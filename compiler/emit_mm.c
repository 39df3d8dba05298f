/*
 * emit_mm.c - the mm template: C[b] = A[b] . B[b] on the matrix unit,
 * weight-stationary, with the fused epilogue (bias, activation, residual,
 * cast) on the vector unit reading the accumulator.
 *
 * The output is cut into blocks of tile_m x tile_n (K whole: the A panel
 * [mb][K] and the B panel [K][nb] both sit in SRAM, packed).  For each
 * block the matrix unit walks K in slices of the array's rows and N in
 * slices of its columns: mldw loads a [Kt][Nt] weight slice, mmac streams
 * the mb rows of A through it into the accumulator ([mb][nb], packed),
 * accumulating after the first K slice.  The next mldw overlaps the
 * current mmac's stream, so the array stays busy when mb >= its rows.
 *
 * Everything is double-buffered: panel slots, epilogue input slots,
 * output slots and accumulator slots alternate between blocks.  Program
 * order is loads(t+1), matrix work(t), epilogue(t-1), store(t-1), so DMA,
 * the array and the vector unit overlap; semaphores (emit_int.h) keep
 * each slot from being overwritten before its reader is done.  When the
 * epilogue is a plain copy (npu_mm_acc_copy) there is no vector stage:
 * blocks leave straight from the accumulator by DMA (dst, or dstc
 * rounding to bf16 / f16), in the order loads(t+1), store(t-1), matrix
 * work(t) (dstore below).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/emit_int.h"

/* Hand-off of the last block's odd row groups to panel engines 1 and 2
 * (4 and 5; the ew template's per-engine SEM_LD numbers, unused here),
 * and of its odd column chunks to engine 1 (epi_chunks). */
enum { SEM_GST = 4 };

typedef struct blk {
	int64_t b, m0, mn, n0, nn;
	int bs;    /* B panel slot */
	int bkeep; /* same B panel as the block before: kept, not loaded */
} blk;

static uint64_t dram_of(const emit_t *g, int op)
{
	const npu_kopnd *o = &g->K->ops[op];
	const npu_kval *v = &g->ir->v[o->val];

	return v->daddr +
	       (uint64_t)(o->off * npu_dtype_size(v->dtype));
}

/* A panel of rows x cols, rows sa apart and their elements sb (1, or a
 * transposed operand's: sa 1), packed: split in halves over two engines
 * when there is a second one (q2 >= 0). */
static void panel(emit_t *g, int q1, int q2, uint64_t dram, uint64_t local,
		  int esz, int64_t rows, int64_t cols, int64_t sa, int64_t sb)
{
	int64_t h = q2 >= 0 && rows > 1 ? rows / 2 : rows;

	npu_emit_dma(g, q1, 0, dram, local, esz, h, cols, sa, sb);
	if (h < rows)
		npu_emit_dma(g, q2, 0, dram + (uint64_t)(h * sa * esz),
			     local + (uint64_t)(h * cols * esz), esz, rows - h,
			     cols, sa, sb);
}

/* Columns [c0, c1) of a panel of rows x ld elements (DRAM row stride
 * sa, element stride sb: 1, or a transposed operand's, whose columns
 * are then all of ld), its rows split evenly over the n engines q[]. */
static void panel_q(emit_t *g, const int *q, int n, uint64_t dram,
		    uint64_t local, int esz, int64_t rows, int64_t c0,
		    int64_t c1, int64_t ld, int64_t sa, int64_t sb)
{
	for (int h = 0; h < n; h++) {
		int64_t r0 = h * rows / n, r1 = (h + 1) * rows / n;
		if (sb != 1) {
			npu_emit_dma(g, q[h], 0, dram + (uint64_t)(r0 * sa * esz),
				     local + (uint64_t)(r0 * ld * esz), esz, r1 - r0,
				     ld, sa, sb);
			continue;
		}
		npu_emit_dmaf(g, q[h], NPU_OP_DLD,
			      local + (uint64_t)((r0 * ld + c0) * esz),
			      dram + (uint64_t)((r0 * sa + c0) * esz),
			      (c1 - c0) * esz, r1 - r0, sa * esz, ld * esz, 1, 0, 0);
	}
}

/* A panel of rows x KK of an A operand in K segments (kseg): each
 * engine's rows of every segment in one transfer, segment j's columns
 * [j * kseg, (j + 1) * kseg) from DRAM kstride elements on. */
static void panel_kseg(emit_t *g, const int *q, int n, uint64_t dram,
		       uint64_t local, int esz, int64_t rows, int64_t KK,
		       const npu_kopnd *A)
{
	if (n > rows)
		n = (int)rows;
	for (int h = 0; h < n; h++) {
		int64_t r0 = h * rows / n, r1 = (h + 1) * rows / n;
		npu_emit_dmaf(g, q[h], NPU_OP_DLD,
			      local + (uint64_t)(r0 * KK * esz),
			      dram + (uint64_t)(r0 * A->stride[1] * esz),
			      A->kseg * esz, r1 - r0, A->stride[1] * esz, KK * esz,
			      KK / A->kseg, A->kstride * esz, A->kseg * esz);
	}
}

/*
 * conv: the B panel X_col[K][nn] of block L (output rows oh0.. of image
 * L->b), gathered SRAM to SRAM from the zero-padded image, one transfer
 * per k = (ic, kh, kw); first loads the image when the block starts one.
 * Channels split over two engines, each gathering from what it loaded.
 */
/* Units of conv_panel's work: at stride 1 a tap (kh, kw), its rows of
 * X_col for all of each engine's channels in one transfer (rows of X_col
 * one channel apart are KH * KW rows apart, as the image's channels are
 * a plane apart); else a round of channels (one per engine) and a
 * kernel row kh. */
static int64_t conv_units(const npu_kern *K, int ne)
{
	if (K->cv_sw == 1)
		return K->cv_kh * K->cv_kw;
	return ((K->cv_ic + ne - 1) / ne + 1) * K->cv_kh;
}

/*
 * The image's channel groups (one an engine, h * IC / ne ..) each from a
 * bank boundary of their own above the kernel's other slots, gx bytes
 * more between groups than between planes: its gathers, every engine's
 * from the group it loaded, then read four banks instead of sharing one
 * or two, whose windows (256 bytes a cycle) held four engines' 128 to
 * about half their rate (ResNet-18's layer 1: 484 cycles for a 32 KiB
 * tap's gather, 268 alone).  Kept below the two areas at the top where
 * the next kernel's panel is loaded (npu_pfplan) and only where the
 * groups fit a bank each; else img and gx stay (gx = 0: contiguous).
 */
static void img_spread(const npu_target *t, const npu_kern *K, int64_t Hp,
		       int64_t Wp, int esz, int ne, uint64_t *addr,
		       uint64_t *img, int64_t *gx)
{
	uint64_t bk = npu_target_bank_bytes(t);
	uint64_t pl = (uint64_t)(Hp * Wp * esz), base, end;
	int64_t IC = K->cv_ic, gmin = IC;

	if (ne < 2 || bk < 64 || t->sram_banks < 8)
		return;
	for (int h = 0; h < ne; h++) {
		int64_t n = (h + 1) * IC / ne - h * IC / ne;
		if ((uint64_t)n * pl > bk)
			return;
		gmin = n && n < gmin ? n : gmin; /* (the stem's first has none) */
	}
	base = (*addr + bk - 1) / bk * bk;
	/* group h at base + (h * IC / ne) * pl + h * gx: with gx = bk -
	 * gmin * pl, on its own bank's boundary when the groups are even */
	end = base + (uint64_t)IC * pl + (uint64_t)(ne - 1) * (bk - (uint64_t)gmin * pl);
	if (end > t->sram_bytes - 4 * bk)
		return;
	*img = base;
	*gx = (int64_t)(bk - (uint64_t)gmin * pl);
	*addr = end;
}

/*
 * X_col's rows a bank apart for each engine's channel group (its rows
 * (c * KH + kh) * KW + kw, a contiguous range of K): the two slots
 * moved above the kernel's others, each from a bank boundary, rows rs
 * elements apart where a group's rows fill about a bank.  Contiguous,
 * a quarter of the slot an engine, two engines' gathers wrote each
 * bank and stalled on each other's windows (12-13 k engine cycles in
 * each of ResNet-18's layer-1 convolutions).  brs stays 0 (rows of nn)
 * where it would not fit below the next kernel's panel areas.
 */
static void panel_spread(const npu_target *t, const npu_kern *K, int64_t KK,
			 int64_t nb, int esz, int ne, uint64_t *addr,
			 uint64_t *slotB, int64_t *brs)
{
	uint64_t bk = npu_target_bank_bytes(t);
	int64_t IC = K->cv_ic, gmax = 0, rg;
	uint64_t rb, sz, base;

	if (ne < 2 || bk < 64 || t->sram_banks < 8)
		return;
	for (int h = 0; h < ne; h++) {
		int64_t n = (h + 1) * IC / ne - h * IC / ne;
		gmax = n > gmax ? n : gmax;
	}
	rg = gmax * K->cv_kh * K->cv_kw;
	if (rg < 1)
		return;
	rb = bk / (uint64_t)rg / 64 * 64;
	if (rb <= (uint64_t)(nb * esz) || rb % (uint64_t)esz)
		return;
	sz = ((uint64_t)KK * rb + bk - 1) / bk * bk;
	base = (*addr + bk - 1) / bk * bk;
	if (base + 2 * sz > t->sram_bytes - 4 * bk)
		return;
	slotB[0] = base;
	slotB[1] = base + sz;
	*brs = (int64_t)(rb / (uint64_t)esz);
	*addr = base + 2 * sz;
}

/* Rows [r0, r1) of image L->b (unpadded rows) into its padded slot,
 * channel group h = [h * IC / ne, (h + 1) * IC / ne) on engine eng[h].
 * A window of one row at a stride of more skips the rows between the
 * windows (no gather reads them): a 1x1 stride-2 convolution loads
 * half of its image. */
static void conv_img(emit_t *g, const npu_kern *K, const npu_emitctx *c,
		     const blk *L, uint64_t img, int64_t Hp, int64_t Wp, int64_t gx,
		     const int *eng, int ne, int64_t r0, int64_t r1)
{
	const npu_kopnd *X = &K->ops[K->mm_b];
	int esz = npu_dtype_size(K->mm_dtype);
	int64_t IC = K->cv_ic, step = 1, nr;
	uint64_t xbase = c->ir->v[X->val].daddr;

	if (K->cv_kh == 1 && K->cv_sh > 1) {
		step = K->cv_sh;
		while (r0 < r1 && (r0 + K->cv_ph) % step)
			r0++;
	}
	nr = r0 < r1 ? (r1 - 1 - r0) / step + 1 : 0;
	for (int h = 0; h < ne && nr > 0; h++) {
		int64_t c0 = h * IC / ne, c1 = (h + 1) * IC / ne;
		if (c0 >= c1)
			continue;
		npu_emit_dmaf(g, eng[h], NPU_OP_DLD,
			      img + (uint64_t)(h * gx + (c0 * Hp * Wp + (K->cv_ph + r0) * Wp + K->cv_pw) * esz),
			      xbase + (uint64_t)((X->off + L->b * X->stride[0] + c0 * X->stride[1] +
						  r0 * X->stride[2]) * esz),
			      K->cv_w * esz, nr, step * X->stride[2] * esz, step * Wp * esz,
			      c1 - c0, X->stride[1] * esz, Hp * Wp * esz);
	}
}

/* The image rows block L's gathers read (all of them but the padding
 * below its last output row's window). */
static int64_t conv_rows_of(const npu_kern *K, const blk *L)
{
	int64_t oh1 = (L->n0 + L->nn + K->cv_ow - 1) / K->cv_ow;
	int64_t r = (oh1 - 1) * K->cv_sh + K->cv_kh - K->cv_ph;

	return r < 1 ? 1 : r > K->cv_h ? K->cv_h : r;
}

/*
 * A stride-1 tap's X_col rows for block L when it starts or ends inside
 * an output row (blocks of whole slices of the array's columns): the
 * partial first row, the whole rows, the partial last row, a transfer
 * each, over nc channels (source and destination channel strides cs, ds
 * in bytes); src is the tap's (kh, kw) element of output row 0.
 */
static void conv_rows_part(emit_t *g, const npu_kern *K, const blk *L, int q,
			   uint64_t dst, uint64_t src, int64_t Wp, int64_t nc,
			   int64_t cs, int64_t ds)
{
	int esz = npu_dtype_size(K->mm_dtype);
	int64_t OW = K->cv_ow, p = L->n0, end = L->n0 + L->nn;

	while (p < end) {
		int64_t oh = p / OW, ow = p % OW, n = OW - ow, r = 1;
		if (ow == 0 && end - p >= OW) { /* whole rows */
			r = (end - p) / OW;
			n = OW;
		} else if (n > end - p) {
			n = end - p;
		}
		npu_emit_dmaf(g, q, NPU_OP_DCP, dst + (uint64_t)((p - L->n0) * esz),
			      src + (uint64_t)((oh * K->cv_sh * Wp + ow) * esz),
			      n * esz, r, K->cv_sh * Wp * esz, OW * esz, nc, cs, ds);
		p += r * n;
	}
}

/* (hr: the rows of a new image to load first; the caller loads the rest
 * after the signal that the block's panels are in) */
static void conv_panel(emit_t *g, const npu_kern *K, const npu_emitctx *c,
		       const blk *L, int newimg, uint64_t img, int64_t Hp,
		       int64_t Wp, int64_t gx, uint64_t panelb, int64_t rs,
		       const int *eng, int ne,
		       int64_t u0, int64_t u1, int64_t hr, uint64_t ones)
{
	int esz = npu_dtype_size(K->mm_dtype);
	int64_t IC = K->cv_ic;
	int64_t OW = K->cv_ow, oh0 = L->n0 / OW, rows = L->nn / OW;

	/* channel group h = [h * IC / ne, (h + 1) * IC / ne) on engine eng[h] */
	if (newimg && u0 == 0)
		conv_img(g, K, c, L, img, Hp, Wp, gx, eng, ne, 0, hr);
	/* the bias's row of ones under X_col (cv_one), on the last engine
	 * (with fewer channels than engines the first has none to gather) */
	if (K->cv_one && u0 == 0)
		npu_emit_dmaf(g, eng[ne - 1], NPU_OP_DCP,
			      panelb + (uint64_t)((K->mm_k - 1) * rs * esz), ones,
			      L->nn * esz, 1, 0, 0, 1, 0, 0);
	/*
	 * Round robin over the engines, a channel and kernel row at a time
	 * (units u0 .. u1 - 1): each engine's queue holds few entries, and
	 * with the channel groups emitted one after the other the scalar
	 * unit waited on the first engine's full queue while the others had
	 * nothing to do.
	 */
	for (int64_t u = u0; K->cv_sw == 1 && u < u1; u++)
		for (int h = 0; h < ne; h++) {
			int64_t c0 = h * IC / ne, c1 = (h + 1) * IC / ne;
			int64_t kh = u / K->cv_kw, kw = u % K->cv_kw, KHW = K->cv_kh * K->cv_kw;
			uint64_t dst = panelb + (uint64_t)(((c0 * K->cv_kh + kh) * K->cv_kw + kw) * rs * esz);
			if (c0 >= c1)
				continue;
			if (L->n0 % OW || L->nn % OW) {
				conv_rows_part(g, K, L, eng[h], dst, img + (uint64_t)(h * gx + (c0 * Hp * Wp + kh * Wp + kw) * esz),
					       Wp, c1 - c0, Hp * Wp * esz, KHW * rs * esz);
				continue;
			}
			npu_emit_dmaf(g, eng[h], NPU_OP_DCP, dst,
				      img + (uint64_t)(h * gx + (c0 * Hp * Wp + (oh0 * K->cv_sh + kh) * Wp + kw) * esz),
				      OW * esz, rows, K->cv_sh * Wp * esz, OW * esz,
				      c1 - c0, Hp * Wp * esz, KHW * rs * esz);
		}
	for (int64_t u = u0; K->cv_sw != 1 && u < u1; u++)
		for (int h = 0; h < ne; h++) {
			int64_t ic = h * IC / ne + u / K->cv_kh, kh = u % K->cv_kh;
			if (ic >= (h + 1) * IC / ne)
				continue;
			for (int64_t kw = 0; kw < K->cv_kw; kw++) {
				int64_t k = (ic * K->cv_kh + kh) * K->cv_kw + kw;
				int q = eng[h]; /* the engine that loaded channel ic */
				uint64_t src = img + (uint64_t)(h * gx + (ic * Hp * Wp + (oh0 * K->cv_sh + kh) * Wp + kw) * esz);
				uint64_t dst = panelb + (uint64_t)(k * rs * esz);
				npu_emit_dmaf(g, q, NPU_OP_DCP, dst, src, esz, OW,
					      K->cv_sw * esz, esz, rows,
					      K->cv_sh * Wp * esz, OW * esz);
			}
		}
}

/* Epilogue of block et: waits, then parts over its elements, then signals
 * and the store. */
static void epi_begin(emit_t *g, const npu_kern *K, const blk *T, int64_t et,
		      int64_t nt, int epi_loads, const uint64_t *accs)
{
	npu_mfunc *f = g->f;
	int s = (int)(et & 1);

	(void)T;
	(void)nt;
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, SEM_MMD, 0, 0);
	if (epi_loads)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, SEM_LD, 0, 0);
	if (et >= 2)
		for (int i = 0; i < (g->qs2 >= 0 ? 2 : 1); i++)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, i ? SEM_ST2 : SEM_ST, 0, 0);
	for (int o = 0; o < K->nops; o++)
		g->slot[o] = g->slotb[o][s];
	g->accslot = accs[et % g->nacc];
	memset(g->xrowc, 0, sizeof g->xrowc);
}

static void epi_part(emit_t *g, const npu_kern *K, int64_t e0, int64_t len,
		     int64_t nn);

/* Rows of a gated matmul's epilogue computed together (npu_emit_ilv). */
#define GLU_ILV 4

/* Columns [c0, c0 + len) of rows r .. r + rn of a block's epilogue (rows
 * of nn accumulator elements, w in the operands' slots: nn / 2 outputs of
 * a gated block), each row one instance. */
static void cols_rows(emit_t *g, const npu_kern *K, const uint64_t *save,
		      uint64_t acc, int64_t r, int rn, int64_t nn, int64_t w,
		      int64_t c0, int64_t len)
{
	int n = K->nops < 64 ? K->nops : 64, at[GLU_ILV + 1];

	memset(g->xrowc, 0, sizeof g->xrowc);
	for (int i = 0; i < rn; i++) {
		for (int o = 0; o < n; o++)
			g->slot[o] = save[o] + (uint64_t)(((r + i) * w + c0) *
				npu_dtype_size(g->ir->v[K->ops[o].val].dtype));
		g->accslot = acc + (uint64_t)(((r + i) * nn + c0) * 4);
		at[i] = g->f->n;
		npu_emit_row(g, len);
	}
	at[rn] = g->f->n;
	npu_emit_ilv(g->f, at, rn);
}

/*
 * A gated matmul's part of a block's epilogue: the rows that start in
 * [e0, e0 + len) of its accumulator elements (rows of nn), each whole.
 * Of a row only the gate's half (the first nn / 2) makes output, the up
 * projection's element nn / 2 further along the accumulator row; the
 * output slot's rows are nn / 2 wide.  One row at a time waited on its
 * chain of latencies (the sigmoid's 12 cycles among them): GLU_ILV rows
 * are interleaved, their whole chunks first, then their tails at one vl.
 */
static void epi_part_glu(emit_t *g, const npu_kern *K, int64_t e0, int64_t len,
			 int64_t nn)
{
	uint64_t save[64], acc = g->accslot;
	int n = K->nops < 64 ? K->nops : 64;
	int64_t h = nn / 2, vl = g->t->vlen, full = h / vl * vl, tail = h - full;
	int64_t r0 = (e0 + nn - 1) / nn, r1 = (e0 + len + nn - 1) / nn;
	npu_mfunc *f = g->f;

	for (int o = 0; o < n; o++)
		save[o] = g->slot[o];
	g->accpair = (uint64_t)(h * 4);
	for (int64_t r = r0; r < r1; r += GLU_ILV) {
		int rn = r1 - r < GLU_ILV ? (int)(r1 - r) : GLU_ILV;
		if (full)
			cols_rows(g, K, save, acc, r, rn, nn, h, 0, full);
		if (tail) {
			int xt = npu_mx(f), xv = npu_mx(f);
			npu_memit(f, NPU_OP_LI, xt, 0, 0, tail);
			npu_memit(f, NPU_OP_SETVL, xv, xt, 0, 0);
			cols_rows(g, K, save, acc, r, rn, nn, h, full, vl);
			xv = npu_mx(f);
			npu_memit(f, NPU_OP_SETVL, xv, g->xvlen, 0, 0);
		}
	}
	for (int o = 0; o < n; o++)
		g->slot[o] = save[o];
	g->accslot = acc;
	g->accpair = 0;
}

static void epi_part(emit_t *g, const npu_kern *K, int64_t e0, int64_t len,
		     int64_t nn)
{
	if (K->mm_glu) {
		epi_part_glu(g, K, e0, len, nn);
		return;
	}
	{
	uint64_t save[64], acc = g->accslot;
	int n = K->nops < 64 ? K->nops : 64;

	for (int o = 0; o < n; o++) {
		int64_t el = g->rowop && g->rowop[o] ? e0 / nn : e0;
		save[o] = g->slot[o];
		g->slot[o] += (uint64_t)(el * npu_dtype_size(g->ir->v[K->ops[o].val].dtype));
	}
	g->accslot += (uint64_t)(e0 * 4);
	if (g->rowop)
		npu_emit_rows(g, len / nn, nn);
	else
		npu_emit_row(g, len);
	for (int o = 0; o < n; o++)
		g->slot[o] = save[o];
	g->accslot = acc;
	}
}

/* The store of rows [r0, r0 + rn) of block T from output slot s: over
 * two engines when there are four, each after its own hand-off. */
/* Engines q[0], q[1] (q[1] < 0: one engine), hand-off semaphores sem[];
 * from the output slot, or from the accumulator region acc when not 0. */
/*
 * The next convolution's image (npu_imgho): output rows [a, a + an) of
 * block T (channels m0 + a..; positions n0.. of nn, read from src at nn
 * elements a row) copied into the image's interior on engine q.  Planes:
 * a transfer per group of channels and run of whole or part output
 * rows.  Channels-last (a transposed convolution's): a transfer per run
 * of an output row, an element a row across (its channels an element
 * apart, its positions ic).
 */
static void img_out_rows(emit_t *g, const npu_kern *K, const blk *T, uint64_t src,
			 int64_t a, int64_t an, int q)
{
	const npu_imgho *h = g->imgout;
	int pe = npu_dtype_size(g->ir->v[K->ops[g->imgop].val].dtype);
	int64_t OW = K->cv_ow, cpg = h->ic / h->ng, plane = h->hp * h->wp * pe;
	int64_t c = T->m0 + a, cend = c + an, end = T->n0 + T->nn;

	for (int64_t p = T->n0; !h->planes && p < end;) {
		int64_t oh = p / OW, ow = p % OW, len = OW - ow < end - p ? OW - ow : end - p;
		npu_emit_dmaf(g, q, NPU_OP_DCP,
			      h->sram + (uint64_t)((((oh + h->ph) * h->wp + h->pw + ow) * h->ic + c) * pe),
			      src + (uint64_t)((p - T->n0) * pe), pe, len, pe, h->ic * pe,
			      an, T->nn * pe, pe);
		p += len;
	}
	if (!h->planes)
		return;
	while (c < cend) {
		int64_t grp = c / cpg, n = (grp + 1) * cpg < cend ? (grp + 1) * cpg - c : cend - c;
		uint64_t dc = h->sram + (uint64_t)grp * h->gstride + (uint64_t)((c - grp * cpg) * plane);
		uint64_t sc = src + (uint64_t)((c - T->m0 - a) * T->nn * pe);
		for (int64_t p = T->n0; p < end;) {
			int64_t oh = p / OW, ow = p % OW, r = 1, len = OW - ow;
			uint64_t d = dc + (uint64_t)((((oh + h->ph) * h->wp) + h->pw + ow) * pe);
			uint64_t s0 = sc + (uint64_t)((p - T->n0) * pe);
			if (ow == 0 && end - p >= OW) {
				r = (end - p) / OW;
				npu_emit_dmaf(g, q, NPU_OP_DCP, d, s0, OW * pe, r, OW * pe,
					      h->wp * pe, n, T->nn * pe, plane);
				p += r * OW;
				continue;
			}
			len = len < end - p ? len : end - p;
			npu_emit_dmaf(g, q, NPU_OP_DCP, d, s0, len * pe, n, T->nn * pe, plane,
				      1, 0, 0);
			p += len;
		}
		c += n;
	}
}

static void epi_store(emit_t *g, const npu_kern *K, const blk *T, int s,
		      int64_t r0, int64_t rn, const int *qv, const int *semv,
		      int nd, uint64_t acc)
{
	npu_mfunc *f = g->f;
	int nq = qv[1] >= 0 && rn > 1 ? 2 : 1;

	for (int h = 0; h < nq; h++) {
		int q = qv[h];
		int64_t a = r0 + (h ? rn / 2 : 0), an = nq == 1 ? rn : h ? rn - rn / 2 : rn / 2;
		/* One semaphore per store engine: with a shared one, the engine
		 * that runs ahead could take the other's token and store its
		 * next block before the epilogue wrote it. */
		int sem = semv[h];
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, sem, 0, 0);
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, sem, 0, 0);
		for (int o = 0; o < K->nops; o++) {
			const npu_kopnd *P = &K->ops[o];
			if (!P->out)
				continue;
			int pe = npu_dtype_size(g->ir->v[P->val].dtype);
			/* a gated matmul's output: half the block's columns */
			int64_t n0 = K->mm_glu ? T->n0 / 2 : T->n0;
			int64_t nn = K->mm_glu ? T->nn / 2 : T->nn;
			int64_t off = (T->m0 + a) * P->stride[nd - 2] + n0 * P->stride[nd - 1];
			if (nd == 3)
				off += T->b * P->stride[0];
			npu_emit_dma(g, q, 1, dram_of(g, o) + (uint64_t)(off * pe),
				     (acc ? acc : g->slotb[o][s]) + (uint64_t)(a * nn * pe), pe, an,
				     nn, P->stride[nd - 2], P->stride[nd - 1]);
			if (g->imgout && o == g->imgop)
				img_out_rows(g, K, T, (acc ? acc : g->slotb[o][s]) +
					     (uint64_t)(a * nn * pe), a, an, q);
		}
	}
}

static void epi_end(emit_t *g, const npu_kern *K, const blk *T, int64_t et,
		    int64_t nt, int epi_loads, int qs, int nd)
{
	npu_mfunc *f = g->f;
	int s = (int)(et & 1);

	if (et + g->nacc < nt)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, SEM_ACCF, 0, 0);
	if (et + 2 < nt && epi_loads)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, SEM_FREE, 0, 0);
	int qv[2] = { qs, g->qs2 }, semv[2] = { SEM_CMP, SEM_CMP2 };
	epi_store(g, K, T, s, 0, T->mn, qv, semv, nd, 0);
	if (et + 2 < nt)
		for (int h = 0; h < (g->qs2 >= 0 ? 2 : 1); h++)
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + (h ? g->qs2 : qs),
				  h ? SEM_ST2 : SEM_ST, 0, 0);
}

/*
 * Row groups of the last block.  Nothing follows it to hide its
 * epilogue and store behind, so its matrix work runs group by group (all
 * of K and N for rows [r0, r0 + rn), then the next rows) and each group's
 * epilogue and store start as soon as its rows are accumulated, while
 * the array works on the next group.  A group keeps at least as many rows
 * as the array has (at its rate), so that each mmac's stream still hides
 * the next mldw; at most four groups, since each store pays DRAM latency.
 */
static int64_t last_groups(const npu_target *t, int dt, const blk *T)
{
	double rate = t->mxu_rate[dt] > 0 ? t->mxu_rate[dt] : 1;
	int64_t minr = (int64_t)((double)t->mxu_rows * rate + 0.5), ng;

	if (minr < 1)
		minr = 1;
	ng = T->mn / minr;
	return ng > 4 ? 4 : ng < 1 ? 1 : ng;
}

/*
 * Column chunks of the last block, when it is one row group (a
 * transformer's few tokens; last_groups): its epilogue and store waited
 * for the array to finish and drain, 0.5 to 1.9 k cycles after each of
 * llama_tiny's matmuls.  Instead its matrix work runs chunk by chunk,
 * all of K for the columns [c0, c0 + C) (a gated matmul's: the gate's and
 * the up projection's columns of one output chunk; mm_step), and each
 * chunk's epilogue and store (epi_chunks) start as soon as it is
 * accumulated, while the array works on the next.  For a vector epilogue
 * with no row reduction, row operand or image to write, into outputs of
 * unit column stride; `other`: row groups, a fused pool or split
 * operands.  With three engines too (the kernels a far panel runs
 * beside, driver.c, see three): the stores alternate between the store
 * engine and the B engine as with four (llama_tiny's o projections
 * under the far panel: 49.4 k -> 48.8 k cycles; mlp_fp32 on a
 * three-engine target 15.3 k -> 14.4 k).  The chunks, or 0: not chunked.
 */
static int64_t last_cols(const emit_t *g, const npu_kern *K, const blk *T,
			 int dct, int other)
{
	if (dct >= 0 || other || K->cv || g->imgout || g->t->dma_engines < 3)
		return 0;
	return npu_mm_chunks(g, K, T->nn);
}

/* (emit_int.h) */
int64_t npu_mm_chunks(const emit_t *g, const npu_kern *K, int64_t nn)
{
	int64_t C = g->t->mxu_cols, w = K->mm_glu ? nn / 2 : nn;

	if (g->rowop || (K->mm_glu && nn % 2))
		return 0;
	for (int i = 0; i < K->nx; i++)
		if (K->x[i].op == NPU_X_RED || K->x[i].op == NPU_X_RFIN)
			return 0;
	for (int o = 0; o < K->nops; o++)
		if (K->ops[o].out && K->ops[o].stride[K->ndim - 1] != 1)
			return 0;
	return w > C ? (w + C - 1) / C : 0;
}

/* Step i of block T's matrix work: K slice *ki of columns [*n0, *n0 +
 * *ntl).  By K slice, then columns; in nc column chunks (last_cols), by
 * chunk, then its column ranges (two in a gated matmul), then K slice.
 * 1 when the step completes a chunk. */
static int mm_step(const npu_kern *K, const blk *T, int64_t C, int64_t ks,
		   int64_t nc, int64_t i, int64_t *ki, int64_t *n0, int64_t *ntl)
{
	int64_t per = K->mm_glu ? 2 : 1, w = K->mm_glu ? T->nn / 2 : T->nn;
	int64_t r, c0;

	if (!nc) {
		int64_t ncol = (T->nn + C - 1) / C;
		*ki = i / ncol;
		*n0 = i % ncol * C;
		*ntl = T->nn - *n0 < C ? T->nn - *n0 : C;
		return 0;
	}
	r = i % (per * ks);
	c0 = i / (per * ks) * C;
	*ki = r % ks;
	*n0 = c0 + r / ks * w;
	*ntl = w - c0 < C ? w - c0 : C;
	return r == per * ks - 1;
}

/* (emit_int.h) cols_rows, a tail shorter than a vector at its own vl,
 * so that the rows still interleave (a vl change inside a row keeps them
 * apart: a gated chunk of 64 columns took 900 cycles). */
void npu_mm_cols(emit_t *g, const npu_kern *K, const uint64_t *save,
		 uint64_t acc, int64_t r, int rn, int64_t nn, int64_t w,
		 int64_t c0, int64_t len)
{
	npu_mfunc *f = g->f;
	int64_t vl = g->t->vlen, full = len / vl * vl, tail = len - full;

	if (full)
		cols_rows(g, K, save, acc, r, rn, nn, w, c0, full);
	if (tail) {
		int xt = npu_mx(f), xv = npu_mx(f);
		npu_memit(f, NPU_OP_LI, xt, 0, 0, tail);
		npu_memit(f, NPU_OP_SETVL, xv, xt, 0, 0);
		cols_rows(g, K, save, acc, r, rn, nn, w, c0 + full, vl);
		xv = npu_mx(f);
		npu_memit(f, NPU_OP_SETVL, xv, g->xvlen, 0, 0);
	}
}

/* Steps of block T's matrix work (mm_step). */
static int64_t mm_steps(const npu_kern *K, const blk *T, int64_t C,
			int64_t ks, int64_t nc)
{
	return nc ? nc * (K->mm_glu ? 2 : 1) * ks : ks * ((T->nn + C - 1) / C);
}

/*
 * The last block's epilogue and store in its nc column chunks
 * (last_cols), each after its accumulation (epi_begin waited for the
 * first).  The stores alternate between engines qs and qb, which load B
 * panels (the next kernel's panel goes on the A engines), one semaphore
 * each, so that neither takes the other's token.
 */
static void epi_chunks(emit_t *g, const npu_kern *K, const blk *T,
		       int64_t nc, int qs, int qb, int nd)
{
	npu_mfunc *f = g->f;
	int64_t C = g->t->mxu_cols, nn = T->nn, w = K->mm_glu ? nn / 2 : nn;
	int64_t n0 = K->mm_glu ? T->n0 / 2 : T->n0;
	int n = K->nops < 64 ? K->nops : 64;
	uint64_t save[64], acc = g->accslot;

	for (int o = 0; o < n; o++)
		save[o] = g->slot[o];
	g->accpair = K->mm_glu ? (uint64_t)(w * 4) : 0;
	for (int64_t j = 0; j < nc; j++) {
		int64_t c0 = j * C, cl = w - c0 < C ? w - c0 : C;
		int q = j & 1 ? qb : qs, sem = j & 1 ? SEM_GST : SEM_CMP;
		if (j)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, SEM_MMD, 0, 0);
		for (int64_t r = 0; r < T->mn; r += GLU_ILV)
			npu_mm_cols(g, K, save, acc, r, T->mn - r < GLU_ILV ?
				    (int)(T->mn - r) : GLU_ILV, nn, w, c0, cl);
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, sem, 0, 0);
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, sem, 0, 0);
		for (int o = 0; o < n; o++) {
			const npu_kopnd *P = &K->ops[o];
			int pe = npu_dtype_size(g->ir->v[P->val].dtype);
			int64_t off = T->m0 * P->stride[nd - 2] + n0 + c0;
			if (!P->out)
				continue;
			if (nd == 3)
				off += T->b * P->stride[0];
			npu_emit_dmaf(g, q, NPU_OP_DST, dram_of(g, o) + (uint64_t)(off * pe),
				      save[o] + (uint64_t)(c0 * pe), cl * pe, T->mn,
				      w * pe, P->stride[nd - 2] * pe, 1, 0, 0);
		}
	}
	for (int o = 0; o < n; o++)
		g->slot[o] = save[o];
	g->accslot = acc;
	g->accpair = 0;
}

static void grp_rows(const blk *T, int64_t ng, int64_t gi, int64_t *r0, int64_t *rn)
{
	*r0 = gi * T->mn / ng;
	*rn = (gi + 1) * T->mn / ng - *r0;
}

/* (emit_int.h) */
int npu_mm_acc_copy(const npu_kir *ir, const npu_kern *K)
{
	const npu_xins *x = K->x, *st = &x[K->nx - 1];
	int nout = 0, dt, a, n = 1;

	for (int o = 0; o < K->nops; o++)
		nout += K->ops[o].out;
	if (nout != 1 || K->nx < 2 || x[0].op != NPU_X_ACC ||
	    st->op != NPU_X_STORE || !K->ops[st->b].out)
		return -1;
	dt = ir->v[K->ops[st->b].val].dtype;
	if (dt != NPU_DT_F32 && dt != NPU_DT_BF16 && dt != NPU_DT_F16)
		return -1;
	/* roundings through the output's type are what the store does */
	for (a = st->a; a > 0 && a < K->nx && x[a].op == NPU_X_RND &&
	     x[a].dtype == dt && x[a].a < a; a = x[a].a)
		n++;
	return a == 0 && n + 1 == K->nx ? dt : -1;
}

/*
 * Direct stores: when the epilogue is a plain copy (npu_mm_acc_copy), every
 * block leaves straight from its accumulator region, so the vector unit
 * has no work at all (a bf16 epilogue was a vld of 128 fp32 values, two
 * cycles of the accumulator's bank, and a vst: 1.6 k cycles per 256x256
 * block, and the last blocks' epilogues all ran after the array was
 * done).  The hand-offs go between the matrix unit and each store engine
 * q, on the ew template's per-engine numbers (no vector stage runs here):
 * SEM_LD + q "rows accumulated" (mxu -> engine) and SEM_FREE + q
 * "accumulator region read" (engine -> mxu).  One semaphore per engine,
 * for the reason SEM_CMP2 exists: with a shared one, an engine that ran
 * ahead could hand the mxu a region another engine still reads.
 */
enum { SEM_DCMP = SEM_LD, SEM_DFREE = SEM_FREE };

/*
 * How many of the n engines store each of the ng row groups of the last
 * block (rn rows): all of them when one group's store (each engine
 * holding its transfer until the data is in DRAM) is done before the
 * next group's rows are, else half, the groups alternating between the
 * two halves so that a store never queues behind the one before.
 */
static int last_engines(const npu_target *t, int dt, int odt, const blk *T,
			int64_t KK, int64_t rn, int n)
{
	double rate = t->mxu_rate[dt] > 0 ? t->mxu_rate[dt] : 1;
	double next = ceil((double)KK / t->mxu_rows) *
		      ceil((double)T->nn / t->mxu_cols) * ceil(rn / rate);
	double st = t->dma_setup + t->dram_latency +
		    (double)rn * T->nn * npu_dtype_size(odt) / n / t->dma_bytes_per_cycle;

	return n < 4 || next >= st ? n : n / 2;
}

/*
 * The next kernel's first panel goes out on the A engines after the last
 * block's loads (npu_emit_pf): does its half outlast the last block's
 * matrix work?  Then the last block's stores stay on the B engines
 * instead of queueing behind it (probs @ V's behind the o projection's
 * 128 KiB halves ended 0.6 k cycles later).  A panel that the array
 * outlasts is done by the stores (swinv2_tiny 1.2 k slower on two).
 */
static int pf_outlasts(const npu_emitctx *c, const npu_kern *K, const blk *L,
		       uint64_t end)
{
	const npu_target *t = c->t;
	const npu_pfplan *p = c->pfnext;
	double rate = t->mxu_rate[K->mm_dtype] > 0 ? t->mxu_rate[K->mm_dtype] : 1;
	double mx, pc;

	if (!p || !p->on || p->issued || end > p->local)
		return 0;
	mx = ceil((double)K->mm_k / t->mxu_rows) * ceil((double)L->nn / t->mxu_cols) *
	     ceil((double)L->mn / rate);
	pc = t->dma_setup + t->dram_latency +
	     (double)(p->rows * p->cols * p->esz) / 2 / t->dma_bytes_per_cycle;
	return pc > mx + t->dram_latency;
}

/* The matrix unit hands rows r0.. (rn of them) to the n engines q[]. */
static void dsig(emit_t *g, int64_t rn, const int *q, int n)
{
	for (int h = 0; h < n && h < rn; h++)
		npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_MXU, SEM_DCMP + q[h], 0, 0);
}

/* The copy engines' "block in the slot" semaphores, to the vector unit
 * (SEM_LD + 6: the ew template's numbers for engines 6 and 7, unused) */
static const int pz_sem[4] = { SEM_CMP, SEM_CMP2, SEM_MMD, SEM_LD + 6 };

/* A max pool computed by this convolution (npu_pool_fused): its pool
 * kernel, the padded slot of every plane, the row maxima, the two
 * output slots, the engine that stores them; per block the output rows
 * it completes, [i0[t], i1[t]), in parts of planes. */
typedef struct pfuse {
	const npu_kern *P;
	uint64_t in, v, out[2];
	int64_t hp, wp, owp, *i0, *i1, nparts;
	int ncp;                /* engines that copy a block in (pz_sem) */
	int qp;
} pfuse;

/* Rows [r0, r0 + rn) of block T from accumulator region acc to the
 * output, split over the n engines q[], each after its hand-off; with a
 * fused pool (pf), into its padded slot instead, a transfer of whole
 * image rows per engine. */
static void dstore(emit_t *g, const npu_kern *K, const blk *T, int nd,
		   uint64_t acc, int dt, int64_t r0, int64_t rn, int64_t c0,
		   int64_t cn, const int *q, int n, const pfuse *pf)
{
	int out = K->x[K->nx - 1].b;
	const npu_kopnd *P = &K->ops[out];
	int pe = npu_dtype_size(dt), op = dt == NPU_DT_F32 ? NPU_OP_DST : NPU_OP_DSTC;
	int64_t sa = P->stride[nd - 2], sb = P->stride[nd - 1];

	if (n > rn)
		n = (int)rn;
	for (int h = 0; h < n; h++) {
		int64_t a = r0 + h * rn / n, an = r0 + (h + 1) * rn / n - a;
		int64_t off = (T->m0 + a) * sa + (T->n0 + c0) * sb;
		uint64_t dram, loc = acc + (uint64_t)((a * T->nn + c0) * 4);
		if (nd == 3)
			off += T->b * P->stride[0];
		dram = dram_of(g, out) + (uint64_t)(off * pe);
		npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q[h], SEM_DCMP + q[h], 0, 0);
		if (pf) { /* planes m0 + a.., image rows of OW */
			int64_t OW = K->cv_ow;
			uint64_t dst = pf->in + (uint64_t)((((T->m0 + a) * pf->hp + pf->P->cv_ph +
							     (T->n0 + c0) / OW) * pf->wp + pf->P->cv_pw) * 4);
			npu_emit_dmaf(g, q[h], NPU_OP_DCP, dst, loc, OW * 4, cn / OW, OW * 4,
				      pf->wp * 4, an, T->nn * 4, pf->hp * pf->wp * 4);
		} else if (sb == 1 || cn == 1) /* whole rows */
			npu_emit_dmat(g, q[h], op, op == NPU_OP_DSTC ? dt : 0, dram, loc,
				      cn * pe, an, T->nn * 4, sa * pe, 1, 0, 0);
		else /* one element per row of the descriptor */
			npu_emit_dmat(g, q[h], op, op == NPU_OP_DSTC ? dt : 0, dram, loc,
				      pe, cn, 4, sb * pe, an, T->nn * 4, sa * pe);
	}
}

/*
 * Epilogue and store of the last block (it needs none of the signals that
 * free slots for later blocks), one row group at a time.  A transfer holds
 * its engine until its data has reached DRAM, so with four engines the
 * groups alternate between the two store engines and the two panel
 * engines (idle by now: every load is done), each group's store starting
 * without waiting for the one before.  When the epilogue is a plain copy
 * into fp32, the groups leave straight from the accumulator.
 */
static void epi_groups(emit_t *g, const npu_kern *K, const blk *T, int64_t et,
		       int64_t ng, int qs, int nd)
{
	int copy = npu_mm_acc_copy(g->ir, K) == NPU_DT_F32;

	for (int64_t gi = 0; gi < ng; gi++) {
		int64_t r0, rn;
		int odd = (gi & 1) && g->qs2 >= 0 && g->t->dma_engines >= 4;
		int qv[2] = { odd ? 1 : qs, odd ? 2 : g->qs2 };
		int semv[2] = { odd ? SEM_GST : SEM_CMP, odd ? SEM_GST + 1 : SEM_CMP2 };
		grp_rows(T, ng, gi, &r0, &rn);
		if (gi) /* epi_begin waited for the first group */
			npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_VEC, SEM_MMD, 0, 0);
		if (copy) /* the vector unit only hands the group on */
			epi_store(g, K, T, (int)(et & 1), r0, rn, qv, semv, nd,
				  g->accslot);
		else {
			epi_part(g, K, r0 * T->nn, rn * T->nn, T->nn);
			epi_store(g, K, T, (int)(et & 1), r0, rn, qv, semv, nd, 0);
		}
	}
}

/*
 * SRAM banks are address ranges (bank = offset / (size / banks)) and a
 * bank serves one unit at a time, so panels packed one after another put
 * all four engines' loads into one or two banks, and they wait for each
 * other.  When there is room, each slot is instead centred on a bank
 * boundary: the half its first engine fills lies in one bank, the half
 * of the second engine in the next, and no two slots share a bank.
 * Leaves everything as it is when some half exceeds a bank or the slots
 * need more banks than SRAM has.
 */
static void spread_slots(emit_t *g, const npu_kern *K, const npu_target *t,
			 int64_t mb, int64_t nb, int64_t KK, int esz, int split,
			 uint64_t *slotA, uint64_t *slotB, uint64_t *slotAl,
			 uint64_t *slotBl, uint64_t *addr)
{
	uint64_t bk = npu_target_bank_bytes(t);
	uint64_t next = bk, ua[2], ub[2], ual[2], ubl[2], uo[64][2];
	uint64_t pa = (uint64_t)(mb * KK * esz), pb = (uint64_t)(KK * nb * esz);
	uint64_t ha = (uint64_t)((mb > 1 ? mb / 2 : mb) * KK * esz);
	uint64_t hb = (uint64_t)((KK > 1 ? KK / 2 : KK) * nb * esz);
	int ok = bk >= 64 && K->nops <= 64;

#define PLACE(dst, half, total) do {                                       \
		uint64_t h_ = ((half) + 63) & ~63ull;                       \
		if (h_ > bk || (total) > h_ + bk)                           \
			ok = 0;                                             \
		(dst) = next - h_;                                          \
		next += 2 * bk;                                             \
	} while (0)
	for (int s = 0; ok && s < 2; s++) {
		PLACE(ua[s], ha, pa);
		PLACE(ub[s], hb, pb);
		if (split) {
			PLACE(ual[s], ha, pa);
			PLACE(ubl[s], hb, pb);
		}
	}
	for (int o = 0; ok && o < K->nops; o++) {
		if (o == K->mm_a || o == K->mm_b || o == K->mm_alo || o == K->mm_blo)
			continue;
		int oe = npu_dtype_size(g->ir->v[K->ops[o].val].dtype);
		int64_t cols = g->rowop && g->rowop[o] ? 1 : nb;
		uint64_t tot = (uint64_t)(mb * cols * oe);
		uint64_t half = (uint64_t)((mb > 1 ? mb / 2 : mb) * cols * oe);
		for (int s = 0; s < 2; s++)
			PLACE(uo[o][s], half, tot);
	}
#undef PLACE
	if (!ok || next - bk > t->sram_bytes - NPU_SPILL_BYTES)
		return;
	for (int s = 0; s < 2; s++) {
		slotA[s] = ua[s];
		slotB[s] = ub[s];
		if (split) {
			slotAl[s] = ual[s];
			slotBl[s] = ubl[s];
		}
	}
	for (int o = 0; o < K->nops; o++)
		if (o != K->mm_a && o != K->mm_b && o != K->mm_alo && o != K->mm_blo)
			for (int s = 0; s < 2; s++)
				g->slotb[o][s] = uo[o][s];
	*addr = next - bk;
}

/*
 * Slices in the first part of the first block's panels (0: one part),
 * T0 that block, kh slices in each engine's half of K, mx the larger of
 * its block sizes.  Worth it when the first part's matrix work outlasts
 * a transfer's setup and latency (the second part ends that much later
 * than whole halves would, the block that much earlier) and, with
 * blocks after it, when a block's matrix work leaves its engines room
 * for one more latency: every later load queues behind the second part.
 */
static int64_t first_parts(const npu_target *t, int dt, const blk *T0,
			   int64_t nt, int64_t KK, int64_t kh, int64_t mx, int esz)
{
	double rate = t->mxu_rate[dt] > 0 ? t->mxu_rate[dt] : 1;
	double per = t->dram_latency + t->dma_setup;
	double pair = fmax(ceil((double)T0->mn / rate), (double)t->mxu_rows);
	double ns = ceil((double)T0->nn / t->mxu_cols);
	double ks = ceil((double)KK / t->mxu_rows), kp = (double)((kh + 1) / 2);
	double half = (double)mx * KK * esz / 2 / t->dma_bytes_per_cycle;

	if (kh < 2 || kp * 2 * ns * pair <= per)
		return 0;
	return nt == 1 || ks * ns * pair >= half + 2 * per ? (kh + 1) / 2 : 0;
}

/* The first block's K slices: in order, or with two parts (kp slices of
 * each half of kh), the first part's slices of both halves first. */
static void first_order(int64_t *korder, int64_t ks, int64_t kh, int64_t kp)
{
	int64_t n = 0;

	for (int64_t i = 0; i < ks; i++)
		korder[i] = i;
	for (int64_t p = 0; kp && p < 2; p++)
		for (int64_t h = 0; h < 2; h++)
			for (int64_t i = p ? kp : 0; i < (p ? kh : kp); i++)
				korder[n++] = h * kh + i;
}

/* Epilogue operands of block L (lt in order, slot s) on engine qe. */
static void load_epi(emit_t *g, const npu_kern *K, const blk *L, int64_t lt,
		     int s, int qe, int nd)
{
	npu_mfunc *f = g->f;

	if (lt >= 2)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + qe, SEM_FREE, 0, 0);
	for (int o = 0; o < K->nops; o++) {
		const npu_kopnd *P = &K->ops[o];
		if (o == K->mm_a || o == K->mm_b || o == K->mm_alo ||
		    o == K->mm_blo || P->out || !g->used[o])
			continue;
		int pe = npu_dtype_size(g->ir->v[P->val].dtype);
		int64_t off = L->m0 * P->stride[nd - 2] + L->n0 * P->stride[nd - 1];
		if (nd == 3)
			off += L->b * P->stride[0];
		npu_emit_dma(g, qe, 0, dram_of(g, o) + (uint64_t)(off * pe),
			     g->slotb[o][s], pe, L->mn,
			     g->rowop && g->rowop[o] ? 1 : L->nn,
			     P->stride[nd - 2],
			     g->rowop && g->rowop[o] ? 1 : P->stride[nd - 1]);
	}
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + qe, SEM_LD, 0, 0);
}

/* The second panel engines' semaphores, and the conv padding's zeroing */
enum { SEM_MLD2 = 25, SEM_MFREE2 = 27, SEM_ZERO = 29 };

/* Each panel engine: its loads of the next block are done (to the mxu). */
static void sig_loaded(npu_mfunc *f, int qa, int qb, int qa2, int qb2)
{
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + qa, SEM_MLD, 0, 0);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + qb, SEM_MLD + 1, 0, 0);
	if (qa2 >= 0) {
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + qa2, SEM_MLD2, 0, 0);
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + qb2, SEM_MLD2 + 1, 0, 0);
	}
}

/* The bytes of the first half of K of a rows x cols panel, 64-aligned. */
static uint64_t pf_half(int64_t rows, int64_t cols, int esz)
{
	return ((uint64_t)((rows > 1 ? rows / 2 : rows) * cols * esz) + 63) & ~63ull;
}

/* Does a rows x cols panel fit area `area` (npu_mm_pf_plan)? */
static int pf_fits(const npu_target *t, int area, int64_t rows, int64_t cols,
		   int esz, uint64_t bk)
{
	uint64_t tot = (uint64_t)(rows * cols * esz), hb = pf_half(rows, cols, esz);
	uint64_t mid = t->sram_bytes - (area ? 1 : 3) * bk;
	uint64_t top = area ? t->sram_bytes - NPU_SPILL_BYTES : mid + bk;

	return hb <= bk && mid - hb + tot <= top;
}

/*
 * A convolution's weight panel (its A, [OC][K], frozen), loaded while the
 * kernel before runs, when one block row reads all of it (emit_mm keeps
 * it for every block): in layer 2 of ResNet-18 it is 590 KB, 2.3 k
 * cycles on two engines before the first block could start.
 */
static void conv_pf_plan(const npu_emitctx *c, int k, int area, npu_pfplan *p)
{
	const npu_kern *K = &c->ir->k[k];
	const npu_target *t = c->t;
	const npu_kopnd *A = &K->ops[K->mm_a];
	const npu_kval *v = &c->ir->v[A->val];
	const npu_kval *root = v->root >= 0 ? &c->ir->v[v->root] : v;
	int esz = npu_dtype_size(K->mm_dtype);
	uint64_t bk = npu_target_bank_bytes(t);

	if (K->mm_batch != 1 || !K->mm_m || !K->mm_n || K->mm_alo >= 0 ||
	    (K->kn.tile_m > 0 && K->kn.tile_m < K->mm_m) || t->dma_engines < 4 ||
	    t->sram_banks < 4 || root->kind != NPU_BUF_CONST ||
	    v->dtype != K->mm_dtype || A->stride[2] != 1 ||
	    !pf_fits(t, area, K->mm_m, K->mm_k, esz, bk))
		return;
	/* (the area the driver passes, never the one the kernel before
	 * reads its own panel from: by k's parity, a convolution two
	 * kernels on, past a fused pool, would take the area of the
	 * kernel that loads it) */
	p->local = t->sram_bytes - (area ? 1 : 3) * bk - pf_half(K->mm_m, K->mm_k, esz);
	p->area = area;
	p->dram = v->daddr + (uint64_t)(A->off * esz);
	p->rows = K->mm_m;
	p->cols = K->mm_k;
	p->sa = A->stride[1];
	p->esz = esz;
	p->isa = 1;
	p->on = 1;
}

int npu_imgho_is_input(const npu_imgho *h, const npu_kern *K)
{
	return h && h->written && h->val == K->ops[K->mm_b].val &&
	       h->hp == K->cv_h + 2 * K->cv_ph && h->wp == K->cv_w + 2 * K->cv_pw &&
	       h->ic == K->cv_ic && h->ph == K->cv_ph && h->pw == K->cv_pw;
}

int npu_imgho_output(const npu_imgho *h, const npu_kern *K)
{
	for (int o = 0; h && o < K->nops; o++)
		if (K->ops[o].out && K->ops[o].val == h->val)
			return o;
	return -1;
}

void npu_imgho_done(const npu_emitctx *c, npu_imgho *h, int k, int val,
		    uint64_t dram, int nins)
{
	h->written = 1;
	if (!c->hoout)
		return;
	/* (bytes 0: the image is padded, so no SRAM copy of the value's
	 * DRAM bytes for kernels of other templates) */
	c->hoout->on = 1;
	c->hoout->dram = dram;
	c->hoout->sram = 0;
	c->hoout->bytes = 0;
	c->hoout->kp = k;
	c->hoout->val = val;
	c->hoout->i0 = 0;
	c->hoout->i1 = nins;
}

/*
 * A channels-last transposed convolution's (emit_convt.c, cv_hwc) first
 * K slices of its first block of output channels (rows [0, m * R) of
 * W^T by its first R columns, at most 24 slices), loaded while the
 * kernel before runs: the array starts on them while its engines load
 * the image and the rest of the block's weights (ResNet-18's layer 4
 * waited 2.4 k cycles for its first slices and 1.6 k more for the ones
 * after).  All of W^T when it fits (rows of OC): then no block loads
 * weights (layer 4's downsample, 0.5 MB, had waited for each of its
 * four blocks' 128 KiB).
 */
static void convt_pf_plan(const npu_emitctx *c, int k, int from, int area,
			  npu_pfplan *p)
{
	const npu_kern *K = &c->ir->k[k];
	const npu_target *t = c->t;
	const npu_kopnd *A = &K->ops[K->mm_a];
	const npu_kval *v = &c->ir->v[A->val];
	int esz = npu_dtype_size(K->mm_dtype);
	int64_t R = t->mxu_rows, ks = (K->mm_k + R - 1) / R, m = ks < 24 ? ks : 24;
	int64_t nn = K->mm_m < t->mxu_cols ? K->mm_m : t->mxu_cols;
	uint64_t bk = npu_target_bank_bytes(t);

	if (!K->cv_hwc || K->mm_batch != 1 || t->sram_banks < 4 || v->root >= 0 ||
	    v->kind != NPU_BUF_CONST || v->dtype != K->mm_dtype)
		return;
	if (pf_fits(t, area, ks * R, K->mm_m, esz, bk) &&
	    (from < 0 || c->ir->k[from].cv_hwc)) {
		nn = K->mm_m;
		m = ks;
	}
	/* (a kernel of another template issues the plan whole, at its
	 * end: a few slices; emit_convt loads as many as it has room for) */
	if (from >= 0 && !c->ir->k[from].cv_hwc && m > 4)
		m = 4;
	while (m > 0 && !pf_fits(t, area, m * R, nn, esz, bk))
		m--;
	if (m < 1)
		return;
	p->local = t->sram_bytes - (area ? 1 : 3) * bk - pf_half(m * R, nn, esz);
	p->area = area;
	p->dram = v->daddr + (uint64_t)(A->off * esz);
	p->rows = m * R;
	p->cols = nn;
	p->sa = A->stride[2];
	p->esz = esz;
	p->prefix = nn == K->mm_m && nn > t->mxu_cols ? 0 : R; /* (whole: all or none) */
	p->on = 1;
}

/*
 * Kernel k's first B panel (block 0: all of K by the first nb columns,
 * batch 0), to be loaded while the kernel before runs: a matmul, not a
 * convolution nor split, whose B is frozen weights (which no kernel
 * writes), loaded by kernel `from` (the kernel before, or the one
 * before the copies that do nothing between them).  Its area (0 or 1)
 * is one of the two highest pairs of banks at the top of SRAM, below
 * the spill area, never the one `from` reads its own panel from;
 * centred on a bank boundary so that each engine's half of K has a bank
 * of its own, as spread_slots places panels.
 */
void npu_mm_pf_plan(const npu_emitctx *c, int k, int from, int area,
		    npu_pfplan *p)
{
	const npu_kern *K = &c->ir->k[k];
	const npu_target *t = c->t;

	memset(p, 0, sizeof *p);
	if (K->kind == NPU_KK_MM && K->cv == 1) {
		conv_pf_plan(c, k, area, p);
		return;
	}
	if (K->kind == NPU_KK_MM && K->cv == 2) {
		convt_pf_plan(c, k, from, area, p);
		return;
	}
	if (K->kind != NPU_KK_MM || K->cv || K->mm_alo >= 0 || !K->mm_m ||
	    !K->mm_n || !K->mm_batch || t->dma_engines < 2 || t->sram_banks < 4)
		return;
	const npu_kopnd *W = &K->ops[K->mm_b];
	const npu_kval *v = &c->ir->v[W->val];
	const npu_kval *root = v->root >= 0 ? &c->ir->v[v->root] : v;
	int esz = npu_dtype_size(K->mm_dtype);
	int64_t KK = K->mm_k, nb = K->kn.tile_n;
	if (root->kind != NPU_BUF_CONST || v->dtype != K->mm_dtype)
		return;
	if (nb <= 0 || nb > K->mm_n)
		nb = K->mm_n;
	uint64_t bk = npu_target_bank_bytes(t);
	/* the whole weight (every column block, rows of N) when one batch
	 * has it and it fits, the matmul then loading no B at all: after an
	 * elementwise or row kernel, whose engines are idle while it
	 * computes, or after a matmul, once its operands come from the
	 * SRAM-resident window, which only a static program has
	 * (llama_tiny's down projections load nothing: 53.6 k -> 52.5 k
	 * cycles; before, with A from DRAM, the MLP's three matmuls in a
	 * row were slower; a dynamic program's matmul loops were,
	 * mlp_dynamic by 10%) */
	const npu_kern *F = from >= 0 ? &c->ir->k[from] : NULL;
	if (F && (F->kind == NPU_KK_EW || F->kind == NPU_KK_ROW ||
		  (F->kind == NPU_KK_MM && !F->cv && c->ir->res_bytes)) &&
	    !K->mm_glu && K->mm_batch == 1 && W->stride[2] == 1 && nb < K->mm_n &&
	    pf_fits(t, area, KK, K->mm_n, esz, bk))
		nb = K->mm_n;
	if (!pf_fits(t, area, KK, nb, esz, bk))
		return;
	p->local = t->sram_bytes - (area ? 1 : 3) * bk - pf_half(KK, nb, esz);
	p->area = area;
	p->dram = v->daddr + (uint64_t)(W->off * esz);
	p->rows = KK;
	p->cols = nb;
	p->sa = W->stride[1];
	p->esz = esz;
	p->plain = 1;
	p->on = 1;
}

/* The loads of p's rows [r0, r0 + rn) on engine q. */
static void pf_rows(emit_t *g, npu_pfplan *p, int q, int64_t r0, int64_t rn)
{
	if (rn <= 0)
		return;
	npu_emit_dma(g, q, 0, p->dram + (uint64_t)(r0 * p->sa * p->esz),
		     p->local + (uint64_t)(r0 * p->cols * p->esz), p->esz,
		     rn, p->cols, p->sa, 1);
	npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, npu_pf_sem(p), 0, 0);
	p->neng++;
}

int npu_pf_sem(const npu_pfplan *p)
{
	return p->far ? SEM_LD + p->fq : SEM_PF;
}

/* (emit_int.h) */
void npu_pf_fence(npu_mfunc *f, const npu_pfplan *p, uint64_t top)
{
	int s;

	if (!p || !p->on || !p->issued || top <= p->local)
		return;
	s = npu_pf_sem(p);
	for (int i = 0; i < p->neng; i++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, s, 0, 0);
	for (int i = 0; i < p->neng; i++)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_SCL, s, 0, 0);
}

void npu_emit_pf(emit_t *g, npu_pfplan *p, const int *q, int nq, uint64_t end)
{
	if (!p || !p->on || p->issued || nq < 1 || end > p->local)
		return;
	for (int i = 0; i < nq; i++)
		pf_rows(g, p, q[i], i * p->rows / nq, (i + 1) * p->rows / nq - i * p->rows / nq);
	p->issued = 1;
}

/*
 * Each engine's share of the panel ends at about the same time: with
 * its piece's own setup and latency f, engine i (busy b_i) takes
 * (T - b_i - f) * rate bytes, T such that the shares add up to the
 * panel; an engine busy past T takes none.  (An RMSNorm's engines: one
 * loads x, one the weight repeated over the rows, one nothing, each
 * transfer holding its engine 400 cycles of DRAM latency.)
 */
void npu_emit_pf_even(emit_t *g, npu_pfplan *p, const int *q, int nq,
		      uint64_t end)
{
	const npu_target *t = g->t;
	double f = t->dma_setup + t->dram_latency, rate = t->dma_bytes_per_cycle;
	double rowc = (double)(p ? p->cols * p->esz : 0) / rate, T = 0, sh[NPU_MAX_DMA];
	int on[NPU_MAX_DMA], n = nq, again = 1;
	int64_t r0 = 0;

	if (!p || !p->on || p->issued || nq < 1 || nq > NPU_MAX_DMA ||
	    end > p->local)
		return;
	for (int i = 0; i < nq; i++)
		on[i] = 1;
	while (again && n > 0) {
		double sum = (double)p->rows * rowc;
		again = 0;
		for (int i = 0; i < nq; i++)
			if (on[i])
				sum += g->qbusy[q[i]] + f;
		T = sum / n;
		for (int i = 0; i < nq; i++)
			if (on[i] && T - g->qbusy[q[i]] - f <= rowc) {
				on[i] = 0;
				n--;
				again = 1;
			}
	}
	if (n <= 0) {
		npu_emit_pf(g, p, q, nq, end);
		return;
	}
	for (int i = 0; i < nq; i++)
		sh[i] = on[i] ? (T - g->qbusy[q[i]] - f) / rowc : 0;
	for (int i = 0, seen = 0; i < nq; i++) {
		double acc = 0;
		int64_t r1;
		if (!on[i])
			continue;
		for (int j = 0; j <= i; j++)
			acc += sh[j];
		r1 = ++seen == n ? p->rows : (int64_t)(acc + 0.5);
		if (r1 > p->rows)
			r1 = p->rows;
		pf_rows(g, p, q[i], r0, r1 - r0);
		r0 = r1 > r0 ? r1 : r0;
	}
	p->issued = 1;
}

/*
 * The A panel's SRAM source when the kernel before left it there
 * (npu_handoff), else 0: one batch and one block row, A's rows
 * contiguous and inside what it left, none of this kernel's slots over
 * it, and all of it below the prefetch areas (the next kernel's panel
 * is loaded while this one runs).
 */
static uint64_t a_handoff(const npu_emitctx *c, const npu_kern *K,
			  const uint64_t *slot, const uint64_t *len, int n,
			  uint64_t adram, uint64_t bytes)
{
	const npu_handoff *h = c->hoin;
	const npu_target *t = c->t;
	uint64_t floor = t->sram_bytes, src;

	if (t->sram_banks >= 4)
		floor -= 4 * npu_target_bank_bytes(t);
	if (!h || !h->on || K->cv || K->mm_alo >= 0 || K->mm_batch != 1 ||
	    K->ops[K->mm_a].kseg || K->ops[K->mm_a].stride[1] != K->mm_k ||
	    K->ops[K->mm_a].stride[2] != 1 || adram < h->dram ||
	    adram + bytes > h->dram + h->bytes)
		return 0;
	src = h->sram + (adram - h->dram);
	if (h->sram + h->bytes > floor)
		return 0;
	/* (a slot that is src itself already holds A: slot[0..1] are A's) */
	for (int i = 0; i < n; i++)
		if (len[i] && slot[i] < src + bytes && src < slot[i] + len[i] &&
		    !(i < 2 && slot[i] == src))
			return 0;
	return src;
}

/*
 * A's SRAM address when it lies in the SRAM-resident window (an
 * aperture address, npu_link_resident) as a panel of one block row
 * holds it, else 0: the array reads it there, as from a hand-off
 * (a_handoff), with no copy.  (The window's banks are no slot's; the
 * read is noted for the watch, so that the store that wrote it stays.)
 */
static uint64_t a_window(emit_t *g, const npu_kern *K, uint64_t adram,
			 uint64_t bytes)
{
	const npu_kopnd *A = &K->ops[K->mm_a];

	if (adram < NPU_SRAM_APERTURE || K->cv || K->mm_alo >= 0 ||
	    K->mm_batch != 1 || A->kseg || A->stride[1] != K->mm_k ||
	    A->stride[2] != 1)
		return 0;
	npu_emit_watch(g, adram, bytes);
	return adram - NPU_SRAM_APERTURE;
}

/*
 * What the kernel leaves in SRAM (npu_handoff): its output when one
 * block computed all of it through the vector unit (the slot holds it
 * as DRAM does: rows of N), else the last block's A panel when A's rows
 * are contiguous and one block row read them all.
 */
static void mm_handoff(const emit_t *g, const npu_emitctx *c,
		       const npu_kern *K, int64_t nt, int dct, uint64_t adram,
		       uint64_t aslot, uint64_t abytes)
{
	int nd = K->ndim, no = 0, out = -1;
	npu_handoff *h = c->hoout;

	if (!h || K->cv || K->mm_alo >= 0 || K->mm_batch != 1)
		return;
	for (int o = 0; o < K->nops; o++)
		if (K->ops[o].out) {
			no++;
			out = o;
		}
	if (nt == 1 && dct < 0 && no == 1 && npu_mm_acc_copy(c->ir, K) < 0 &&
	    K->ops[out].stride[nd - 1] == 1 && K->ops[out].stride[nd - 2] == K->mm_n) {
		int pe = npu_dtype_size(c->ir->v[K->ops[out].val].dtype);
		h->on = 1;
		h->dram = dram_of(g, out);
		h->sram = g->slotb[out][0];
		h->bytes = (uint64_t)(K->mm_m * K->mm_n * pe);
		/* every store so far is of this one output (drop_dead_store) */
		h->kp = (int)(K - c->ir->k);
		h->val = K->ops[out].val;
		h->i0 = 0;
		h->i1 = g->f->n;
		return;
	}
	if (!K->ops[K->mm_a].kseg &&
	    K->ops[K->mm_a].stride[1] == K->mm_k && K->ops[K->mm_a].stride[2] == 1 &&
	    K->mm_m <= (K->kn.tile_m > 0 ? K->kn.tile_m : K->mm_m)) {
		h->on = 1;
		h->dram = adram;
		h->sram = aslot;
		h->bytes = abytes;
	}
}

/* A panel of `bytes` copied SRAM to SRAM from src, halves on q1, q2. */
static void a_copy(emit_t *g, int q1, int q2, uint64_t src, uint64_t dst,
		   uint64_t bytes)
{
	uint64_t h = q2 >= 0 && bytes > 128 ? (bytes / 2 + 63) & ~63ull : bytes;

	npu_emit_dmaf(g, q1, NPU_OP_DCP, dst, src, (int64_t)h, 1, 0, 0, 1, 0, 0);
	if (h < bytes)
		npu_emit_dmaf(g, q2, NPU_OP_DCP, dst + h, src + h,
			      (int64_t)(bytes - h), 1, 0, 0, 1, 0, 0);
}

/*
 * Part j of pf->nparts of block t's pool band (its output rows, planes
 * j * M / nparts ..): the first waits for the block's rows in the slot
 * (both store engines) and, from block 2 on, for the output slot's store
 * two blocks back; the last hands the band to engine qp, which stores
 * it.
 */
/* Is block t's pooled band stored whole, after its last part?  When its
 * store takes under 512 cycles of an engine. */
static int band_whole(const emit_t *g, const pfuse *pf, int64_t t)
{
	double b = (double)pf->P->cv_ic * (pf->i1[t] - pf->i0[t]) * pf->P->cv_ow * 4;

	return b < 512.0 * g->t->dma_bytes_per_cycle;
}

static void band_part(emit_t *g, const pfuse *pf, int64_t t, int64_t nt,
		      int64_t j)
{
	npu_mfunc *f = g->f;
	const npu_kern *P = pf->P;
	int64_t planes = P->cv_ic, p0 = j * planes / pf->nparts;
	int64_t p1 = (j + 1) * planes / pf->nparts, i0 = pf->i0[t], i1 = pf->i1[t];
	int s = (int)(t & 1);

	if (j == 0) {
		for (int h = 0; h < pf->ncp; h++)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, pz_sem[h], 0, 0);
		if (t >= 2)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, SEM_ST, 0, 0);
	}
	if (p1 > p0 && i1 > i0)
		npu_pool_band(g, P, pf->in, pf->v, pf->out[s], p0, p1 - p0, i0, i1);
	/*
	 * A large band's planes are stored part by part as they are pooled
	 * (stored whole after the last part, ResNet-18's 114 KiB band held
	 * its engine 1.3 k cycles at the kernel's end, and the copy of the
	 * stem's last block queued behind the band before it: 2.2 k); a
	 * small one whole (a store a part, vgg_tiny's 8-channel stem: 3.6 k
	 * -> 5.9 k, its engine waiting on the vector unit every part)
	 */
	if (band_whole(g, pf, t) && j < pf->nparts - 1)
		return;
	if (band_whole(g, pf, t))
		p0 = 0;
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, SEM_ACCF, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + pf->qp, SEM_ACCF, 0, 0);
	if (i1 > i0 && p1 > p0) {
		const npu_kval *O = &g->ir->v[P->ops[1].val];
		uint64_t dram = O->daddr + (uint64_t)((P->ops[1].off + p0 * P->cv_oh * P->cv_ow +
						       i0 * P->cv_ow) * 4);
		npu_emit_dmaf(g, pf->qp, NPU_OP_DST, dram,
			      pf->out[s] + (uint64_t)(p0 * (i1 - i0) * pf->owp * 4),
			      P->cv_ow * 4, i1 - i0, pf->owp * 4, P->cv_ow * 4, p1 - p0,
			      (i1 - i0) * pf->owp * 4, P->cv_oh * P->cv_ow * 4);
	}
	if (j == pf->nparts - 1 && t + 2 < nt)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + pf->qp, SEM_ST, 0, 0);
}

int npu_emit_mm(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e)
{
	const npu_kern *K = &c->ir->k[k];
	const npu_target *t = c->t;
	emit_t g;
	int rc = -1, E = t->dma_engines;
	int dt = K->mm_dtype, esz = npu_dtype_size(dt), nd = K->ndim;
	int64_t M = K->mm_m, N = K->mm_n, KK = K->mm_k, B = K->mm_batch;
	int64_t mb = K->kn.tile_m, nb = K->kn.tile_n, nbm, nbn, nt;
	int64_t R = t->mxu_rows, C = t->mxu_cols;
	const npu_kopnd *A = &K->ops[K->mm_a], *W = &K->ops[K->mm_b];
	uint64_t addr = 0, slotA[2], slotB[2], slotAl[2], slotBl[2], accs[4];
	int split = K->mm_alo >= 0;
	const npu_kopnd *Al = split ? &K->ops[K->mm_alo] : NULL;
	const npu_kopnd *Wl = split ? &K->ops[K->mm_blo] : NULL;
	int qa = 0, qb = E > 1 ? 1 : 0, qe = E > 2 ? 2 : 0, qs = E - 1;
	/* with four engines or more each panel streams over two */
	int qa2 = E >= 4 ? 2 : -1, qb2 = E >= 4 ? 3 : -1;
	/* conv: the engines that load the image and gather X_col; each
	 * engine signals its panel semaphore after all of its loads */
	int ceng[4], nce = 0;
	if (qa2 >= 0) {
		ceng[nce++] = qb;
		ceng[nce++] = qb2;
		ceng[nce++] = qa;
		ceng[nce++] = qa2;
	} else {
		ceng[nce++] = qb;
	}
	blk *bl = NULL;
	int64_t *korder = NULL; /* the first block's K slices, in order */
	pfuse pfs, *pz = NULL;  /* a max pool computed here */
	int64_t *pfi = NULL;
	int epi_loads = 0;
	int b4 = 0; /* B streamed over all four engines (A read in place) */

	if (npu_emit_setup(&g, c, k, f) < 0)
		return npu_errf(e, "out of memory");
	g.qs2 = E >= 4 ? qa : -1;
	/* direct stores (dstore): the output type, and the engines that
	 * store a block (those of the B panel, which a block loads only
	 * when its column changes) and the last block's groups (every one:
	 * no loads are left by then) */
	int dct = K->cv == 2 ? -1 : npu_mm_acc_copy(c->ir, K);
	int own = 0; /* direct: the last block has accumulator region 3 */
	int dq[4] = { qb2 >= 0 ? qb2 : qs, qb }, ndq = qb2 >= 0 ? 2 : 1;
	int dql[4] = { qb2 >= 0 ? qb2 : qs, qb, qa, qa2 }, ndql = qb2 >= 0 ? 4 : 1;
	if (!M || !N || !B) {
		rc = 0;
		goto out;
	}
	/* epilogue operands constant along a row (per output channel, or a
	 * column vector) are read once per row and broadcast (vbcast) */
	{
		int any = 0;
		g.rowop = calloc((size_t)K->nops + 1, sizeof *g.rowop);
		if (!g.rowop) {
			npu_errf(e, "out of memory");
			goto out;
		}
		for (int o = 0; o < K->nops; o++)
			if (o != K->mm_a && o != K->mm_b && o != K->mm_alo &&
			    o != K->mm_blo && !K->ops[o].out &&
			    K->ops[o].stride[nd - 1] == 0 && g.used[o])
				any = g.rowop[o] = 1;
		if (any)
			npu_emit_level(K, g.lv, g.rowop);
		else {
			free(g.rowop);
			g.rowop = NULL;
		}
	}
	if (dt != c->ir->v[A->val].dtype) {
		/* The template streams operand A as it is stored; a type
		 * other than the array's would need a conversion pass first. */
		npu_errf(e, "kernel %s: operand A is %s but the array runs %s "
			 "(no conversion was planned)", K->name,
			 npu_dtype_name(c->ir->v[A->val].dtype), npu_dtype_name(dt));
		goto out;
	}
	if (mb <= 0 || mb > M)
		mb = M;
	if (nb <= 0 || nb > N)
		nb = N;
	nbm = (M + mb - 1) / mb;
	nbn = (N + nb - 1) / nb;
	nt = B * nbm * nbn;
	/*
	 * A convolution of one block row reads the same weight panel in
	 * every block: it is loaded once, into slot 0, and stays.  Loaded
	 * per block, it took its two engines (which gather X_col as well)
	 * 2.7 k cycles a block in ResNet-18's layer 2 (128 x 1152 fp32).
	 */
	int akeep = K->cv == 1 && nbm == 1 && B == 1;
	/* SRAM: conv images, panels, then epilogue operands [mb][nb] */
	uint64_t img[2] = { 0, 0 }, imgb = 0, zrow = 0, ones = 0;
	int64_t gx = 0; /* bytes between the image's channel groups (img_spread) */
	int64_t brs = 0; /* X_col's row stride (elements) when not nn (panel_spread) */
	int64_t Hp = K->cv_h + 2 * K->cv_ph, Wp = K->cv_w + 2 * K->cv_pw;
	int64_t onen = K->cv_one ? (nb + t->vlen - 1) / t->vlen : 0; /* its chunks */
	if (K->cv) {
		uint64_t q = (uint64_t)t->vlen * 4;
		imgb = ((uint64_t)(K->cv_ic * Hp * Wp * esz) + q - 1) / q * q;
		img[0] = 0;
		img[1] = imgb;
		zrow = 2 * imgb;
		addr = zrow + ((uint64_t)(Wp * esz) + q - 1) / q * q;
		/* the row of ones the bias row of A meets (cv_one) */
		ones = addr;
		addr += (uint64_t)onen * q;
	}
	for (int s = 0; s < 2; s++) {
		slotA[s] = addr;
		addr += ((uint64_t)(mb * KK * esz) + 63) & ~63ull;
		slotB[s] = addr;
		addr += ((uint64_t)(KK * nb * esz) + 63) & ~63ull;
		slotAl[s] = slotBl[s] = 0;
		if (split) {
			slotAl[s] = addr;
			addr += ((uint64_t)(mb * KK * esz) + 63) & ~63ull;
			slotBl[s] = addr;
			addr += ((uint64_t)(KK * nb * esz) + 63) & ~63ull;
		}
	}
	for (int o = 0; o < K->nops; o++) {
		if (o == K->mm_a || o == K->mm_b || o == K->mm_alo || o == K->mm_blo)
			continue;
		int oe = npu_dtype_size(c->ir->v[K->ops[o].val].dtype);
		int64_t cols = g.rowop && g.rowop[o] ? 1 : nb;
		for (int s = 0; s < 2; s++) {
			g.slotb[o][s] = addr;
			addr += ((uint64_t)(mb * cols * oe) + 63) & ~63ull;
		}
		if (!K->ops[o].out && g.used[o])
			epi_loads = 1;
	}
	if (!K->cv && qa2 >= 0)
		spread_slots(&g, K, t, mb, nb, KK, esz, split, slotA, slotB,
			     slotAl, slotBl, &addr);
	if (dct >= 0 && npu_pool_fused(c->ir, t, k)) {
		/* the fused pool's slots (pfuse) and each block's band */
		const npu_kern *Pk = &c->ir->k[k + 1];
		int64_t ncb = (N + nb - 1) / nb, bh = 0, prev = 0;
		memset(&pfs, 0, sizeof pfs);
		pfs.P = Pk;
		npu_pool_band_geom(Pk, &pfs.hp, &pfs.wp, &pfs.owp);
		if (!(pfi = calloc((size_t)(2 * ncb + 2), sizeof *pfi))) {
			npu_errf(e, "out of memory");
			goto out;
		}
		pfs.i0 = pfi;
		pfs.i1 = pfi + ncb + 1;
		for (int64_t j = 0; j < ncb; j++) {
			/* output rows whose windows end within the image rows
			 * computed by now (all of them after the last block) */
			int64_t rows = ((j + 1) * nb < N ? (j + 1) * nb : N) / K->cv_ow;
			int64_t e1 = rows - Pk->cv_kh + Pk->cv_ph;
			int64_t i1 = j == ncb - 1 ? Pk->cv_oh : e1 < 0 ? 0 : e1 / Pk->cv_sh + 1;
			i1 = i1 > Pk->cv_oh ? Pk->cv_oh : i1 < prev ? prev : i1;
			pfs.i0[j] = prev;
			pfs.i1[j] = i1;
			bh = i1 - prev > bh ? i1 - prev : bh;
			prev = i1;
		}
		/* (parts of 8 planes: 16 of 4 measured 0.6 k cycles slower
		 * on the stem, 32 of 2 1.9 k) */
		pfs.nparts = M < 8 ? M : 8;
		pfs.qp = qb;
		addr = (addr + 63) & ~63ull;
		pfs.in = addr;
		addr += ((uint64_t)(M * pfs.hp * pfs.wp * 4) + 63) & ~63ull;
		pfs.v = addr;
		addr += ((uint64_t)((((M + pfs.nparts - 1) / pfs.nparts) * bh * pfs.wp +
				     Pk->cv_kw) * 4) + 63) & ~63ull;
		for (int s2 = 0; s2 < 2; s2++) {
			pfs.out[s2] = addr;
			addr += ((uint64_t)(M * bh * pfs.owp * 4) + 63) & ~63ull;
		}
		pz = &pfs;
		/* each block copied in over all four engines: the band's
		 * vector work is about the block's matrix work, and it
		 * cannot start before the copy is done */
		memcpy(dq, dql, sizeof dq);
		ndq = ndql;
		pfs.ncp = ndq;
	}
	if (K->cv && B == 1)
		img_spread(t, K, Hp, Wp, esz, nce, &addr, &img[0], &gx);
	if (K->cv && B == 1 && !split)
		panel_spread(t, K, KK, nb, esz, nce, &addr, slotB, &brs);
	/*
	 * The image from the kernel before (npu_imgho: it wrote the interior
	 * of each channel group's planes, a bank a group, as img_spread lays
	 * them out), when this kernel's slots stay below it: no image loads,
	 * only the border zeroed (layer 1: 0.8 MB, whose rest held every
	 * engine 1.8 k cycles after block 0's gathers); and the next one's,
	 * written as the output is stored.
	 */
	int imgin = 0;
	const npu_imgho *ih = c->imgin;
	if (K->cv == 1 && B == 1 && npu_imgho_is_input(ih, K) && ih->planes &&
	    ih->ng == nce && addr <= ih->sram) {
		img[0] = ih->sram;
		gx = (int64_t)ih->gstride - K->cv_ic / nce * Hp * Wp * esz;
		imgin = 1;
	}
	if (K->cv == 1 && B == 1 && dct < 0 && c->imgout && addr <= c->imgout->sram &&
	    (g.imgop = npu_imgho_output(c->imgout, K)) >= 0)
		g.imgout = c->imgout;
	if (addr > t->sram_bytes - NPU_SPILL_BYTES) {
		npu_errf(e, "kernel %s: K tile %lld with blocks %lldx%lld needs %llu KiB, SRAM holds %llu KiB",
			 K->name, (long long)KK, (long long)mb, (long long)nb,
			 (unsigned long long)(addr >> 10),
			 (unsigned long long)((t->sram_bytes - NPU_SPILL_BYTES) >> 10));
		goto out;
	}
	if (c->slots_end)
		*c->slots_end = addr;
	npu_pf_fence(f, c->pf, addr);
	/* block 0's B panel in the area the kernel before loaded it into
	 * (pfin), or, when it could not, loads it there itself */
	const npu_pfplan *pf = c->pf && c->pf->on ? c->pf : NULL;
	int pfin = 0, pfall = 0; /* pfall: every block's B is there */
	if (pf && !pf->isa && addr <= pf->local && pf->rows == KK && pf->esz == esz &&
	    (pf->cols == nb || (pf->cols == N && B == 1))) {
		slotB[0] = pf->local;
		pfin = pf->issued;
		pfall = pf->issued && pf->cols == N && nb < N;
	}
	/* a convolution's weight from the kernel before (conv_pf_plan) */
	int ain = 0;
	if (pf && pf->isa && akeep && addr <= pf->local && pf->rows == M &&
	    pf->cols == KK && pf->esz == esz) {
		slotA[0] = pf->local;
		ain = pf->issued;
	}
	if ((uint64_t)(2 * mb * nb * 4) > t->acc_bytes) {
		npu_errf(e, "kernel %s: block %lldx%lld needs %llu KiB of accumulator, it holds %llu KiB",
			 K->name, (long long)mb, (long long)nb,
			 (unsigned long long)((2 * mb * nb * 4) >> 10),
			 (unsigned long long)(t->acc_bytes >> 10));
		goto out;
	}
	/* three accumulator regions when they fit: the matrix unit can start
	 * block t + 1 while the epilogue of block t - 1 still reads */
	g.nacc = 3 * (((uint64_t)(mb * nb * 4) + 63) & ~63ull) <= t->acc_bytes ? 3 : 2;
	for (int i = 0; i < 3; i++)
		accs[i] = NPU_ACC_BASE + (uint64_t)i * (((uint64_t)(mb * nb * 4) + 63) & ~63ull);
	{
		/*
		 * Direct stores read a region with two engines at once (and a
		 * converting one reads twice the bytes it writes), so, as
		 * spread_slots does for SRAM, each region is centred on a
		 * bank boundary when the banks allow: each engine's half of
		 * the rows in a bank of its own.
		 */
		uint64_t ab = t->acc_banks > 0 ? t->acc_bytes / (uint64_t)t->acc_banks : 0;
		uint64_t half = ((uint64_t)(((mb + 1) / 2) * nb * 4) + 63) & ~63ull;
		uint64_t rest = (uint64_t)(mb * nb * 4) - half;
		if (dct >= 0 && ab >= 64 && half <= ab && rest <= ab &&
		    (uint64_t)t->acc_banks >= 2 * (uint64_t)g.nacc) {
			for (int i = 0; i < g.nacc; i++)
				accs[i] = NPU_ACC_BASE + (uint64_t)(2 * i + 1) * ab - half;
			/* the last block's region on its last group's middle
			 * row: that group leaves by column slices over pairs
			 * of engines, one engine of a pair in each bank */
			blk last = { .mn = M - (nbm - 1) * mb, .nn = N - (nbn - 1) * nb };
			int64_t r0, rn, ng = last_groups(t, dt, &last);
			int li = (int)((nt - 1) % g.nacc);
			grp_rows(&last, ng, ng - 1, &r0, &rn);
			uint64_t mid = (uint64_t)((r0 + rn / 2) * last.nn * 4) & ~63ull;
			/* (a region of its own when there are banks for it,
			 * else the one it shares with block nt - 1 - nacc,
			 * whose store then shares a bank) */
			int ok = mid <= ab && (uint64_t)(last.mn * last.nn * 4) - mid <= ab;
			if (ok && nt > g.nacc &&
			    (uint64_t)t->acc_banks >= 2 * (uint64_t)g.nacc + 2) {
				own = 1;
				accs[3] = NPU_ACC_BASE + (uint64_t)(2 * g.nacc + 1) * ab - mid;
			} else if (ok && (uint64_t)(mb * nb * 4) - mid <= ab) {
				accs[li] = NPU_ACC_BASE + (uint64_t)(2 * li + 1) * ab - mid;
			}
		}
	}
	if (!(bl = malloc((size_t)nt * sizeof *bl))) {
		npu_errf(e, "out of memory");
		goto out;
	}
	{
		int64_t i = 0;
		for (int64_t b = 0; b < B; b++)
			for (int64_t x = 0; x < (K->kn.loop_order ? nbm : nbn); x++)
				for (int64_t y = 0; y < (K->kn.loop_order ? nbn : nbm); y++, i++) {
					int64_t im = K->kn.loop_order ? x : y;
					int64_t in = K->kn.loop_order ? y : x;
					bl[i].b = b;
					bl[i].m0 = im * mb;
					bl[i].mn = M - im * mb < mb ? M - im * mb : mb;
					bl[i].n0 = in * nb;
					bl[i].nn = N - in * nb < nb ? N - in * nb : nb;
				}
		/*
		 * Blocks in a row that read the same B panel (N outer: the M
		 * blocks of one column of blocks; for a convolution, the same
		 * gathered X_col) keep it in its slot instead of loading or
		 * gathering it again.  A panel that changes goes to the other
		 * slot, whose last reader ran at least two blocks before, and
		 * SEM_MFREE already waits for that one.
		 */
		for (i = 0; i < nt; i++) {
			const blk *P = i ? &bl[i - 1] : NULL;
			bl[i].bkeep = P && P->b == bl[i].b && P->n0 == bl[i].n0 &&
				      P->nn == bl[i].nn;
			bl[i].bs = !P ? 0 : bl[i].bkeep ? P->bs : !P->bs;
		}
	}
	if (dct >= 0 && ndql == 4 && !K->cv && pf_outlasts(c, K, &bl[nt - 1], addr))
		ndql = 2;
	if (K->cv) {
		/*
		 * The padding of both image slots is never written by the
		 * image loads: zero it once.  The vector unit zeroes one
		 * padded row; each engine copies it (stride 0) over the
		 * border rows and columns of the channels it loads.
		 */
		int vz = npu_mv(f), xa = npu_mx(f);
		int64_t zn = (Wp * esz + t->vlen * 4 - 1) / (t->vlen * 4);
		npu_memit(f, NPU_OP_VLI, vz, 0, 0, 0);
		npu_mli(f, xa, (int64_t)zrow);
		for (int64_t i = 0; i < zn; i++)
			npu_memit(f, NPU_OP_VST, vz, xa, NPU_DT_F32, i * t->vlen * 4);
		if (onen) {
			int v1 = npu_mv(f), xo = npu_mx(f);
			npu_memit(f, NPU_OP_VLI, v1, 0, 0, npu_mfimm(1.0f));
			npu_mli(f, xo, (int64_t)ones);
			for (int64_t i = 0; i < onen; i++)
				npu_memit(f, NPU_OP_VST, v1, xo, dt, i * t->vlen * esz);
		}
		for (int i = 0; i < nce; i++) {
			int64_t c0 = i * K->cv_ic / nce, c1 = (i + 1) * K->cv_ic / nce;
			int q = ceng[i];
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, SEM_ZERO, 0, 0);
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, SEM_ZERO, 0, 0);
			if (c0 >= c1)
				continue;
			/* (the second slot only holds images after the first;
			 * img_spread moves the first alone: B == 1) */
			for (int sl = 0; sl < (B > 1 ? 2 : 1); sl++) {
				uint64_t b0 = img[sl] + (uint64_t)(i * gx + c0 * Hp * Wp * esz);
				int64_t cs = Hp * Wp * esz, nc = c1 - c0;
				if (K->cv_ph) {
					npu_emit_dmaf(&g, q, NPU_OP_DCP, b0, zrow, Wp * esz,
						      K->cv_ph, 0, Wp * esz, nc, 0, cs);
					npu_emit_dmaf(&g, q, NPU_OP_DCP,
						      b0 + (uint64_t)((K->cv_ph + K->cv_h) * Wp * esz),
						      zrow, Wp * esz, K->cv_ph, 0, Wp * esz, nc, 0, cs);
				}
				if (K->cv_pw) {
					npu_emit_dmaf(&g, q, NPU_OP_DCP,
						      b0 + (uint64_t)(K->cv_ph * Wp * esz),
						      zrow, K->cv_pw * esz, K->cv_h, 0, Wp * esz,
						      nc, 0, cs);
					npu_emit_dmaf(&g, q, NPU_OP_DCP,
						      b0 + (uint64_t)((K->cv_ph * Wp + K->cv_pw + K->cv_w) * esz),
						      zrow, K->cv_pw * esz, K->cv_h, 0, Wp * esz,
						      nc, 0, cs);
				}
			}
		}
	}
	/*
	 * The first block's panels come in two parts (below): of each
	 * engine's half of K (kh slices of R rows), the first kp slices,
	 * then the rest; the block's K slices run in that order (korder).
	 */
	int64_t ks = (KK + R - 1) / R, kh = KK % (2 * R) ? 0 : KK / (2 * R), kp = 0;
	korder = malloc((size_t)ks * sizeof *korder);
	if (!korder) {
		npu_errf(e, "out of memory");
		goto out;
	}
	/* A from the kernel before's SRAM (one block row: every block
	 * reads all of A) */
	uint64_t asrc = 0, awin = 0, abytes = (uint64_t)(M * KK * esz);
	uint64_t adram0 = c->ir->v[A->val].daddr + (uint64_t)(A->off * esz);
	if (nbm == 1) {
		uint64_t sl[4 + 2 * 64] = { slotA[0], slotA[1], slotB[0], slotB[1] };
		uint64_t ln[4 + 2 * 64] = { abytes, abytes, (uint64_t)(KK * (brs ? brs : nb) * esz),
					    (uint64_t)(KK * (brs ? brs : nb) * esz) };
		int ns = 4;
		for (int o = 0; o < K->nops && o < 64; o++)
			if (o != K->mm_a && o != K->mm_b)
				for (int s = 0; s < 2; s++) {
					sl[ns] = g.slotb[o][s];
					ln[ns++] = (uint64_t)(mb * nb * 8);
				}
		asrc = a_handoff(c, K, sl, ln, ns, adram0, abytes);
		if (!asrc)
			asrc = awin = a_window(&g, K, adram0, abytes);
		/* every block reads A where the kernel before left it, no
		 * copy at all: a copy per block queued behind the stores on
		 * the A engines and held the array back each block (none
		 * of this kernel's slots lies over it: a_handoff) */
		if (asrc && !split && !K->cv)
			slotA[0] = slotA[1] = asrc;
	}
	if (!K->cv && !split && qa2 >= 0 && !pfin && !asrc && !A->kseg && A->stride[2] == 1)
		kp = first_parts(t, dt, &bl[0], nt, KK, kh, mb > nb ? mb : nb, esz);
	first_order(korder, ks, kh, kp);
	/* the last block's column chunks (last_cols) */
	int64_t lastc = last_cols(&g, K, &bl[nt - 1], dct,
				  pz || split || last_groups(t, dt, &bl[nt - 1]) > 1);
	const blk *late = NULL; /* epilogue operands to load after the epilogue */
	for (int64_t it = -1; it <= nt; it++) {
		/* loads of block it + 1 */
		int64_t lt = it + 1, gdone = 0, gun = 0;
		const blk *pend = NULL; /* its X_col still to be gathered */
		int64_t hrest = K->cv_h; /* image rows loaded after the signal */
		if (lt < nt) {
			const blk *L = &bl[lt];
			int s = (int)(lt & 1);
			int64_t aoff = A->off + L->m0 * A->stride[1] + L->b * A->stride[0];
			int64_t boff = W->off + L->n0 * W->stride[2] + L->b * W->stride[0];
			if (lt >= 2) {
				npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + qa, SEM_MFREE, 0, 0);
				npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + qb, SEM_MFREE + 1, 0, 0);
				if (qa2 >= 0) {
					npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + qa2, SEM_MFREE2, 0, 0);
					npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + qb2, SEM_MFREE2 + 1, 0, 0);
				}
			}
			uint64_t adram = c->ir->v[A->val].daddr + (uint64_t)(aoff * esz);
			uint64_t bdram = c->ir->v[W->val].daddr + (uint64_t)(boff * esz);
			int qa4[4] = { qa, qb, qa2, qb2 }, qa2v[2] = { qa, qa2 };
			if (lt == 0 && kp) {
				/*
				 * The first block's panels in two parts, so that
				 * the array starts on the first: each engine's
				 * half of K, its first kp slices and then the
				 * rest.  A transfer holds its engine for the
				 * DRAM latency, so the second part ends no
				 * sooner than a whole half would, but the array
				 * has the first part's work until then.  Each
				 * part keeps to the engine's half, so the two
				 * engines of a panel still write different
				 * banks (spread_slots).
				 */
				for (int p = 0; p < 2; p++) {
					int64_t c0 = p ? kp * R : 0, cn = (p ? kh - kp : kp) * R;
					for (int h = 0; h < 2; h++) {
						int64_t r0 = h * L->mn / 2, rn = (h + 1) * L->mn / 2 - r0;
						npu_emit_dmaf(&g, qa2v[h], NPU_OP_DLD,
							      slotA[s] + (uint64_t)((r0 * KK + c0) * esz),
							      adram + (uint64_t)((r0 * A->stride[1] + c0) * esz),
							      cn * esz, rn, A->stride[1] * esz, KK * esz,
							      2, KK / 2 * esz, KK / 2 * esz);
						npu_emit_dma(&g, h ? qb2 : qb, 0,
							     bdram + (uint64_t)((h * KK / 2 + c0) * W->stride[1] * esz),
							     slotB[L->bs] + (uint64_t)((h * KK / 2 + c0) * L->nn * esz),
							     esz, cn, L->nn, W->stride[1], W->stride[2]);
					}
					if (!p)
						sig_loaded(f, qa, qb, qa2, qb2);
				}
			} else if (akeep && (lt > 0 || ain)) {
				; /* A stays in slot 0 */
			} else if (asrc) {
				if (asrc != slotA[s])
					a_copy(&g, qa, qa2, asrc, slotA[s], abytes);
			} else if (A->kseg) {
				/* over all four engines when the B ones are idle */
				int qk[4] = { qa, qa2, qb, qb2 };
				int nk = qa2 < 0 ? 1 : L->bkeep ? 4 : 2;
				panel_kseg(&g, qk, nk, adram, slotA[s], esz, L->mn, KK, A);
			} else if (L->bkeep && qa2 >= 0 && !split && !K->cv) {
				/* the B engines have no panel to load: A over all four */
				panel_q(&g, qa4, 4, adram, slotA[s], esz, L->mn, 0, KK, KK, A->stride[1], A->stride[2]);
			} else {
				panel(&g, qa, qa2, adram, slotA[s], esz, L->mn, KK, A->stride[1], A->stride[2]);
			}
			if (L->bkeep || (lt == 0 && (kp || pfin)) || pfall)
				;
			else if (K->cv && it >= 0)
				pend = L; /* gathered between block it's pairs */
			else if (K->cv) {
				/* the first block's image rows, then its gathers;
				 * the rest of the image after its signal, so that
				 * the array starts on block 0 while it comes in */
				hrest = lt == 0 ? conv_rows_of(K, L) : K->cv_h;
				conv_panel(&g, K, c, L, !imgin && (lt == 0 || bl[lt - 1].b != L->b),
					   img[L->b & 1], Hp, Wp, gx, slotB[L->bs], brs ? brs : L->nn, ceng, nce,
					   0, conv_units(K, nce), hrest, ones);
			}
			else if (((asrc && slotA[s] == asrc && !awin) ||
				  ((uint64_t)(L->mn * KK * esz) <= 4096 &&
				   (uint64_t)(KK * L->nn * esz) >= 256 * 1024)) &&
				 qa2 >= 0 && !split) {
				/* A is read in place, or is a few rows (a
				 * classifier's one) against a large B: its
				 * engines are idle, so B streams over all four
				 * (in the order of spread_slots' halves;
				 * ResNet-18's classifier waited 2 k cycles for
				 * its second 0.5 MB; with smaller panels,
				 * levit_tiny and timesformer_tiny were 7-15%
				 * slower).  Not A read in the window (a_window):
				 * mobilebert_tiny's matmuls took 0.4 k cycles
				 * longer, their epilogue loads behind a share
				 * of B. */
				int q4[4] = { qb, qa, qb2, qa2 };
				b4 = 1;
				panel_q(&g, q4, 4, bdram, slotB[L->bs], esz, KK, 0, L->nn,
					L->nn, W->stride[1], W->stride[2]);
			} else
				panel(&g, qb, qb2, bdram, slotB[L->bs], esz, KK, L->nn, W->stride[1], W->stride[2]);
			if (split) {
				panel(&g, qa, qa2, c->ir->v[Al->val].daddr + (uint64_t)((Al->off + L->m0 * Al->stride[1] + L->b * Al->stride[0]) * esz),
				      slotAl[s], esz, L->mn, KK, Al->stride[1], 1);
				if (!L->bkeep)
					panel(&g, qb, qb2, c->ir->v[Wl->val].daddr + (uint64_t)((Wl->off + L->n0 * Wl->stride[2] + L->b * Wl->stride[0]) * esz),
					      slotBl[L->bs], esz, KK, L->nn, Wl->stride[1], Wl->stride[2]);
			}
			if (!pend)
				sig_loaded(f, qa, qb, qa2, qb2);
			if (hrest < K->cv_h && !imgin)
				conv_img(&g, K, c, L, img[L->b & 1], Hp, Wp, gx, ceng, nce,
					 hrest, K->cv_h);
			if (epi_loads && !pend && lt < 2)
				load_epi(&g, K, L, lt, s, qe, nd);
			else if (epi_loads && !pend)
				late = L; /* (after the epilogue, below) */
			/* the next kernel's first B panel, after the last
			 * block's loads, over the A engines (they load the
			 * least); over all four, each its share by what it
			 * carries already, when B streamed over all four
			 * (llama_tiny's gate and up projections, A from the
			 * RMSNorm: the down projection's 0.7 MB on two
			 * engines ended 1.4 k cycles after the rest); over
			 * all three when it sees three (under a far panel,
			 * driver.c: probs @ V loaded the o projection's on
			 * one, 1 k cycles later) */
			if (lt == nt - 1 && (!K->cv || !pend)) {
				int pq[4] = { qa, qa2, qb, qb2 };
				int p3[3] = { qa, qb, qe };
				if (b4)
					npu_emit_pf_even(&g, c->pfnext, pq, 4, addr);
				else if (E == 3)
					npu_emit_pf_even(&g, c->pfnext, p3, 3, addr);
				else
					npu_emit_pf(&g, c->pfnext, pq, qa2 >= 0 ? 2 : 1, addr);
			}
		}
		/*
		 * Direct: the store of block it - 1 after the loads of block
		 * it + 1 in its engines' queues.  Both wait for block it - 1
		 * (its accumulator, its panel slot), but the loads are needed
		 * by the next block and the store only by the block that
		 * reuses its accumulator region, nacc blocks on.
		 */
		if (dct >= 0 && it >= 1 && it < nt) {
			const blk *P = &bl[it - 1];
			dstore(&g, K, P, nd, accs[(it - 1) % g.nacc], dct, 0, P->mn, 0, P->nn,
			       dq, ndq, pz);
			if (it - 1 + g.nacc < nt && !(own && it - 1 + g.nacc == nt - 1))
				for (int h = 0; h < ndq && h < P->mn; h++)
					npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + dq[h],
						  SEM_DFREE + dq[h], 0, 0);
			for (int h = 0; pz && h < ndq; h++) /* its rows are in the slot */
				npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + dq[h], pz_sem[h], 0, 0);
		}
		/*
		 * Matrix work of block it, with the epilogue of block it - 1
		 * interleaved in parts between its mldw/mmac pairs, so that
		 * the scalar unit keeps both queues fed.
		 */
		int64_t et = it - 1;
		const blk *ET = dct < 0 && et >= 0 && et < nt ? &bl[et] : NULL;
		int64_t epn = ET ? ET->mn * ET->nn : 0, pairs = 1, done = 0, pi = 0, bdone = 0;
		int64_t nparts = 1, plen = epn;
		int64_t ng = it >= 0 && it < nt && !pz ? (it == nt - 1 ? last_groups(t, dt, &bl[it]) : 1) : 1;
		int64_t ncol = it == nt - 1 ? lastc : 0;
		if (it >= 0 && it < nt)
			pairs = mm_steps(K, &bl[it], C, ks, ncol) * ng;
		if (ET) {
			int64_t q = t->vlen * 4;
			nparts = pairs < 16 ? pairs : 16;
			plen = ((epn + nparts - 1) / nparts + q - 1) / q * q;
			if (g.rowop) /* whole rows */
				plen = (epn / ET->nn + nparts - 1) / nparts * ET->nn;
			epi_begin(&g, K, ET, et, nt, epi_loads, accs);
		}
		/* the fused pool's -inf border (350 vector stores on the
		 * stem) once block 0's loads are out: before them, the
		 * padding's copies, which wait for the vector unit's zero
		 * row, and so every gather, started 0.7 k cycles late */
		if (pz && it == 0)
			npu_pool_band_border(&g, pz->P, pz->in);
		/* matrix work of block it */
		if (it >= 0 && it < nt) {
			const blk *T = &bl[it];
			int s = (int)(it & 1);
			int64_t lastk = -1, lastn = -1;
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_MLD, 0, 0);
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_MLD + 1, 0, 0);
			if (qa2 >= 0) {
				npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_MLD2, 0, 0);
				npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_MLD2 + 1, 0, 0);
			}
			/* A far panel's token (SEM_LD + its engine) is the
			 * semaphore this kernel's direct stores on that engine
			 * use too: a store's wait there, issued before the
			 * matrix unit's, took the token and the store ran before
			 * its rows were computed, the matrix unit then waiting
			 * for ever (timm's BoTNet on PyTorch 2.11).  The scalar
			 * unit takes it instead, before it issues anything
			 * after; the panel was loaded kernels ago. */
			for (int i = 0; it == 0 && c->pf && c->pf->issued && i < c->pf->neng; i++)
				npu_memit(f, NPU_OP_WAIT, c->pf->far ? NPU_UNIT_SCL : NPU_UNIT_MXU,
					  npu_pf_sem(c->pf), 0, 0);
			if (it >= g.nacc && dct >= 0) /* block it - nacc stored */
				for (int h = 0; h < ndq && h < bl[it - g.nacc].mn &&
						!(own && it == nt - 1); h++)
					npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_DFREE + dq[h], 0, 0);
			else if (it >= g.nacc)
				npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_ACCF, 0, 0);
			for (int64_t gi = 0; gi < ng; gi++) {
			int64_t r0, rn;
			grp_rows(T, ng, gi, &r0, &rn);
			/* the kernel's last rows: by columns (tq: a pair of
			 * engines a column slice, one engine per bank) */
			int tailcols = dct >= 0 && !pz && it == nt - 1 && gi == ng - 1 &&
				       ndql == 4 && T->nn > C && rn > 1 &&
				       (ng == 1 || last_engines(t, dt, dct, T, KK, rn, ndql) == ndql);
			int tq[4] = { dql[0], dql[2], dql[1], dql[3] };
			for (int64_t si = 0; si < pairs / ng; si++) {
					int64_t ki, n0, ntl;
					int cend = mm_step(K, T, C, ks, ncol, si, &ki, &n0, &ntl);
					int64_t k0 = (it ? ki : korder[ki]) * R;
					int64_t kt = KK - k0 < R ? KK - k0 : R;
					int xa = npu_mx(f), xb = npu_mx(f), xc = npu_mx(f);
					if (it == 0 && gi == 0 && kp && ki == 2 * kp && n0 == 0) {
						/* the rest of the first panels */
						npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_MLD, 0, 0);
						npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_MLD + 1, 0, 0);
						npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_MLD2, 0, 0);
						npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_MLD2 + 1, 0, 0);
					}
					if (kt != lastk || ntl != lastn) {
						int x1 = npu_mx(f), x2 = npu_mx(f);
						npu_mli(f, x1, kt);
						npu_mli(f, x2, ntl);
						npu_memit(f, NPU_OP_MCFG, x1, x2, dt, 0);
						x1 = npu_mx(f);
						x2 = npu_mx(f);
						npu_mli(f, x1, KK * esz);
						npu_mli(f, x2, T->nn * 4);
						npu_memit(f, NPU_OP_MSTRIDE, x1, x2, 0, 0);
						lastk = kt;
						lastn = ntl;
					}
					if (pfall) { /* rows of N, block T at column n0 */
						npu_mli(f, xa, (int64_t)(pf->local + (uint64_t)((k0 * N + T->n0 + n0) * esz)));
						npu_mli(f, xb, N * esz);
					} else {
						int64_t rs = brs ? brs : T->nn;
						npu_mli(f, xa, (int64_t)(slotB[T->bs] + (uint64_t)((k0 * rs + n0) * esz)));
						npu_mli(f, xb, rs * esz);
					}
					npu_memit(f, NPU_OP_MLDW, xa, xb, 0, 0);
					xa = npu_mx(f);
					xb = npu_mx(f);
					npu_mli(f, xa, (int64_t)(slotA[akeep ? 0 : s] + (uint64_t)((r0 * KK + k0) * esz)));
					npu_mli(f, xb, (int64_t)(accs[own && it == nt - 1 ? 3 : it % g.nacc] +
								 (uint64_t)((r0 * T->nn + n0) * 4)));
					npu_mli(f, xc, rn);
					npu_memit(f, NPU_OP_MMAC, xa, xb, xc, ki ? NPU_MMAC_ACC : 0);
					pi++;
					if (cend) /* a column chunk accumulated */
						npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, SEM_MMD, 0, 0);
					if (split) {
						/* lo(A).hi(B), then hi(A).lo(B) */
						int xl = npu_mx(f), xw = npu_mx(f), xs = npu_mx(f);
						npu_mli(f, xl, (int64_t)(slotAl[s] + (uint64_t)((r0 * KK + k0) * esz)));
						npu_memit(f, NPU_OP_MMAC, xl, xb, xc, NPU_MMAC_ACC);
						npu_mli(f, xw, (int64_t)(slotBl[T->bs] + (uint64_t)((k0 * T->nn + n0) * esz)));
						npu_mli(f, xs, T->nn * esz);
						npu_memit(f, NPU_OP_MLDW, xw, xs, 0, 0);
						npu_memit(f, NPU_OP_MMAC, xa, xb, xc, NPU_MMAC_ACC);
					}
					if (tailcols && ki == ks - 1) {
						/* the last group's columns leave as the
						 * last K slice completes them, each over
						 * two engines, a bank each */
						const int *cq = (n0 / C) & 1 ? tq + 2 : tq;
						dsig(&g, rn, cq, 2);
						dstore(&g, K, T, nd, accs[own ? 3 : it % g.nacc], dct,
						       r0, rn, n0, ntl, cq, 2, NULL);
					}
					/* the epilogue starts `lead` pairs in: the
					 * scalar unit stalls on a full vector queue
					 * (the epilogue waits for the previous
					 * block's last mmac), so the matrix unit's
					 * queue must already hold work by then */
					int64_t lead = pairs - 1 < 8 ? pairs - 1 : 8;
					while (ET && done < epn && pi > lead &&
					       done < (pi - lead) * epn / (pairs - lead)) {
						int64_t len = epn - done < plen ? epn - done : plen;
						epi_part(&g, K, done, len, ET->nn);
						done += len;
					}
					/* the next block's gathers, spread the same way,
					 * so the scalar unit never waits long on a full
					 * engine queue while the array runs dry */
					/* the pool band of block it - 1, spread the same
					 * way (its first part waits for the block's rows in
					 * the slot) */
					while (pz && it >= 1 && bdone < pz->nparts && pi > lead &&
					       bdone < (pi - lead) * pz->nparts / (pairs - lead))
						band_part(&g, pz, it - 1, nt, bdone++);
					gun = pend ? conv_units(K, nce) : 0;
					while (pend && gdone < gun && gdone < pi * gun / pairs) {
						conv_panel(&g, K, c, pend, !imgin && (lt == 0 || bl[lt - 1].b != pend->b),
							   img[pend->b & 1], Hp, Wp, gx, slotB[pend->bs], brs ? brs : pend->nn,
							   ceng, nce, gdone, gdone + 1, K->cv_h, ones);
						gdone++;
					}
				}
			/* rows [r0, r0 + rn) accumulated (once per group); the
			 * last block's groups are stored right away */
			if (dct >= 0 && it == nt - 1 && pz) {
				/* into the pool's slot on the store engines,
				 * which tell the vector unit */
				dsig(&g, rn, dq, ndq);
				dstore(&g, K, T, nd, accs[own ? 3 : it % g.nacc], dct,
				       r0, rn, 0, T->nn, dq, ndq, pz);
				for (int h = 0; h < ndq; h++)
					npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + dq[h], pz_sem[h], 0, 0);
			} else if (dct >= 0 && it == nt - 1) {
				const int *gq = dql;
				int ngq = ng > 1 ? last_engines(t, dt, dct, T, KK, rn, ndql) : ndql;
				if (ngq < ndql && (gi & 1))
					gq += ngq;
				if (!tailcols) {
					dsig(&g, rn, gq, ngq);
					dstore(&g, K, T, nd, accs[own ? 3 : it % g.nacc], dct,
					       r0, rn, 0, T->nn, gq, ngq, NULL);
				}
			} else if (dct >= 0) {
				dsig(&g, rn, dq, ndq);
			} else if (!ncol) {
				npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, SEM_MMD, 0, 0);
			}
			}
			while (pz && it >= 1 && bdone < pz->nparts)
				band_part(&g, pz, it - 1, nt, bdone++);
			if (pend) {
				gun = conv_units(K, nce);
				if (gdone < gun)
					conv_panel(&g, K, c, pend, !imgin && (lt == 0 || bl[lt - 1].b != pend->b),
						   img[pend->b & 1], Hp, Wp, gx, slotB[pend->bs], brs ? brs : pend->nn,
						   ceng, nce, gdone, gun, K->cv_h, ones);
				sig_loaded(f, qa, qb, qa2, qb2);
				/* after the gathers: its wait for the epilogue of
				 * block it - 1 must not hold them up in the queue */
				if (epi_loads && lt < 2)
					load_epi(&g, K, pend, lt, (int)(lt & 1), qe, nd);
				else if (epi_loads)
					late = pend;
				/* the next kernel's panel after the last block's
				 * gathers, on the A engines (A is loaded once) */
				if (lt == nt - 1) {
					int pq[2] = { qa, qa2 };
					npu_emit_pf(&g, c->pfnext, pq, qa2 >= 0 ? 2 : 1, addr);
				}
			}
			if (it + 2 < nt) {
				npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, SEM_MFREE, 0, 0);
				npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, SEM_MFREE + 1, 0, 0);
				if (qa2 >= 0) {
					npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, SEM_MFREE2, 0, 0);
					npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, SEM_MFREE2 + 1, 0, 0);
				}
			}
		}
		/* the rest of the epilogue, then the store of block it - 1 */
		if (ET && et == nt - 1 && last_groups(t, dt, ET) > 1) {
			epi_groups(&g, K, ET, et, last_groups(t, dt, ET), qs, nd);
		} else if (ET && et == nt - 1 && lastc) {
			/* (no matrix work runs beside it to take parts) */
			epi_chunks(&g, K, ET, lastc, qs, qb, nd);
		} else if (ET) {
			if (done < epn)
				epi_part(&g, K, done, epn - done, ET->nn);
			epi_end(&g, K, ET, et, nt, epi_loads, qs, nd);
		}
		/*
		 * Block it + 1's epilogue operands (from block 2 on) after
		 * block it - 1's epilogue: their engine first waits for that
		 * epilogue to free their slots, and issued before its end
		 * (its signal later in the program) the engine would queue
		 * everything behind that wait, the scalar unit stopping on a
		 * full queue before it issues the signal.  Fixtures with
		 * queues of 8 entries deadlocked so (conv_bn_shared,
		 * gpt_neo_tiny, swinv2_tiny); so did Visformer's transposed
		 * convolution with 32 (emit_convt.c, ct_loads).
		 */
		if (late) {
			load_epi(&g, K, late, it + 1, (int)((it + 1) & 1), qe, nd);
			late = NULL;
		}
	}
	for (int64_t j = 0; pz && j < pz->nparts; j++)
		band_part(&g, pz, nt - 1, nt, j);
	mm_handoff(&g, c, K, nt, dct, adram0, slotA[akeep ? 0 : (nt - 1) & 1], abytes);
	if (g.imgout)
		npu_imgho_done(c, g.imgout, k, K->ops[g.imgop].val, dram_of(&g, g.imgop), f->n);
	/* the kernel ends when its stores have: the next kernel, or a host
	 * call, reads what they wrote */
	if (dct >= 0) {
		for (int h = 0; h < ndql; h++) {
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + dql[h], SEM_END, 0, 0);
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
		}
		rc = 0;
		goto out;
	}
	{
		/* (the last block's chunks were stored by qs and qb) */
		int qend[3], nend = 0;
		qend[nend++] = qs;
		if (g.qs2 >= 0)
			qend[nend++] = g.qs2;
		if (lastc > 1 && qb != qs && qb != g.qs2)
			qend[nend++] = qb;
		for (int h = 0; h < nend; h++) {
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + qend[h], SEM_END, 0, 0);
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
		}
	}
	/* the last block's odd row groups left over engines 1 and 2: the
	 * kernel ends when their stores have, too (the next kernel, or a
	 * host call, reads what they wrote)) */
	if (last_groups(t, dt, &bl[nt - 1]) > 1 && g.qs2 >= 0 && E >= 4)
		for (int q = 1; q <= 2; q++) {
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, SEM_END, 0, 0);
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
		}
	rc = 0;
out:
	free(pfi);
	free(korder);
	free(bl);
	npu_emit_cleanup(&g);
	return rc;
}
