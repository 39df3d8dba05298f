/*
 * emit_convt.c - a convolution computed transposed (fuse.c, convt_ok):
 * C^T[P][OC] = X_col^T[P][K] . W^T[K][OC], for one image.
 *
 * The plain form (emit_mm.c) streams the OC rows of the weight through
 * X_col slices of [128][P]: a 7x7 plane (P = 49) keeps 49 of the
 * array's 128 columns busy.  Here the weight slices W^T[k0..][o0..o0+128)
 * (W^T a constant fuse.c made, so each panel row is a contiguous run of
 * output channels) sit in the array and the P rows of X_col^T stream
 * through them, every column busy; at fp32's rate 49 rows take 196
 * cycles, more than the next slice's mldw (128), so the weight loads
 * stay hidden.
 *
 * X_col^T is built once: the padded image (zero border, copied from a
 * zeroed row) comes into SRAM a group of channels per engine, and each
 * engine gathers its channels' columns of X_col^T, one transfer per
 * (kh, kw, oh): IC / engines elements by OW output positions.  The
 * output channels go in blocks of the array's columns, each with its
 * own weight panel (two slots; each engine loads its own range of K
 * slices into a bank of its own, the first block's in growing parts
 * so that the array starts on the first slices) and its own
 * accumulator region.  The kernel's epilogue (bias, residual, ReLU:
 * an elementwise program over its [OC][P] space) runs on C^T itself,
 * in parts between the next block's mldw/mmac pairs, 128 lanes at a
 * time: its operands come in as [P][nn] tiles (DRAM read in its own
 * order, SRAM written across; a per-channel operand loaded once and
 * copied down the rows) and the result leaves the same way.  An
 * epilogue with per-row values instead gets the block copied out of
 * the accumulator transposed (one element a row, SRAM to SRAM) and runs
 * over [nn][P] as emit_mm.c's would.
 *
 * When every K slice is one tap's run of the array's rows of channels
 * (IC a multiple of them: K ordered (kh, kw, ic), fuse.c's cv_hwc) there
 * is no X_col^T: each engine turns its channels' padded planes around
 * into one channels-last image, a transfer per padded row (SRAM to SRAM,
 * the image's bytes once, where the gathers moved them KH * KW times),
 * and the array reads that image itself: for slice (kh, kw, channel
 * block) and output row oh, an mmac of OW rows from pixel (oh * sh + kh,
 * kw) at a stride of sw pixels.  ResNet-18's 7x7 layer-4 convolutions
 * gathered 0.9 MB a kernel before the first mmac could start.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/emit_int.h"

/* Semaphores (balanced within the kernel) */
enum {
	CT_X = 0,       /* + engine: its part of X_col^T gathered (to mxu) */
	CT_W = 4,       /* + engine: its rows of a panel chunk loaded (to mxu) */
	CT_WF = 8,      /* + engine: a panel slot read (from mxu) */
	CT_ZERO = 12,   /* the zero row written (vec to each engine) */
	CT_MMD = 13,    /* block accumulated (mxu to the post engine) */
	CT_TRD = 14,    /* block copied out transposed (to vec) */
	CT_STF = 15,    /* transposed copy read (vec to the post engine) */
	CT_ELD = 16,    /* epilogue operands loaded (to vec) */
	CT_EFREE = 17,  /* epilogue operand slot read (from vec) */
	CT_CMP = 19,    /* epilogue done (vec to the post engine) */
	CT_ST = 20,     /* output slot stored (to vec) */
	CT_ROW = 21,    /* hwc: a row group of the last block accumulated
			 * (mxu to vec) */
	CT_RCMP = 22,   /* + engine: a row group computed (vec to the
			 * engine that stores it) */
	CT_ELD2 = 26, CT_EFREE2 = 27, CT_CMP2 = 28, CT_ST2 = 29
			/* CT_ELD .. CT_ST of odd blocks (ct_qe) */
};
/* Row groups of the last block (ct_tail_rows). */
#define CT_TAILG 4
/* Engines carrying the panels and gathers (per-engine semaphores above). */
#define CT_MAXQ 4

/* K slices [ka[q], kb[q]) are engine q's (keng: each slice's, -1 for
 * none), taken by the array in the order order[] (ct_split). */
typedef struct ctsplit {
	int64_t ka[CT_MAXQ], kb[CT_MAXQ], *order;
	int *keng;
} ctsplit;

typedef struct convt {
	emit_t *g;
	const npu_kern *K;
	int dt, esz, nq, qx, epi_loads;
	int direct;           /* epilogue over C^T itself (ct_direct) */
	int hwc;              /* the array reads the channels-last image
			       * (K->cv_hwc): xcol is that image */
	int tail;             /* hwc and direct: the last block's epilogue
			       * in row groups (ct_tail_rows) */
	int tg, tparts;       /* ct_tail_plan: row groups, and the parts the
			       * last block walks one at a time */
	int64_t trow[2 * CT_TAILG + 1], prow[CT_TAILG + 1];
	int tused[CT_MAXQ];   /* engines that stored a row group */
	int64_t P, KK, OC, C, R, Hp, Wp, nb, ks;
	double rate;          /* the array's MACs per PE per cycle */
	uint64_t img[CT_MAXQ], zrow, xcol, xst, stage[2], acc0, accsz;
	int64_t c0[CT_MAXQ + 1]; /* engine q's channels [c0[q], c0[q + 1]) */
	uint64_t panel[2][CT_MAXQ], tb; /* panel regions; bytes of a K slice */
	char *first[2];       /* per slot: slices that start a transfer */
	ctsplit sp[2];        /* ct_split: block 0's, the others' */
	int64_t pfm;          /* block 0's first pfm slices were loaded by
			       * the kernel before (npu_pfplan) */
	int pfall;            /* ... or all of W^T, every block's */
	const npu_pfplan *pf;
	npu_pfplan *pfnext;   /* the next kernel's panel, to load */
	const npu_imgho *imgin; /* hwc: the image, written by the kernel before */
	npu_imgho *imgout;    /* the next kernel's image, to write */
	int oout;             /* the output operand (imgout) */
	uint64_t top;         /* SRAM bytes this kernel's slots reach */
	int64_t pj, pgrp, pnext[CT_MAXQ]; /* ct_panel: block, group size,
					   * each engine's next slice */
	uint64_t wdram;       /* W^T [K][OC] */
	int64_t wst;          /* its row stride (elements) */
	int64_t h1;           /* output rows gathered (and streamed by block
			       * 0) before the rest; OH when not split */
} convt;

static uint64_t al64(uint64_t v)
{
	return (v + 63) & ~63ull;
}

/* Columns of block j's output (its accumulator rows' width). */
static int64_t ct_nn(const convt *T, int64_t j)
{
	return T->OC - j * T->C < T->C ? T->OC - j * T->C : T->C;
}

/*
 * The engine that loads block j's epilogue operands and stores its
 * output, and the semaphore sem (CT_ELD, CT_EFREE, CT_CMP, CT_ST) of
 * that hand-over: with the epilogue over C^T and no weights to load
 * (pfall), odd blocks on the engine before the post engine (their own
 * semaphores), so that the two blocks in flight do not queue on one
 * engine (ResNet-18's layer-4 downsample: 2.1 k cycles a block there,
 * each block 0.4 k of array work; with weights to load, it held them
 * up: layer 4's last convolution 0.6 k slower).
 */
static int ct_alt(const convt *T)
{
	return T->direct && T->nq >= 2 && T->pfall;
}

static int ct_qe(const convt *T, int64_t j)
{
	return ct_alt(T) && (j & 1) ? T->qx - 1 : T->qx;
}

static int ct_sem(const convt *T, int sem, int64_t j)
{
	if (!(ct_alt(T) && (j & 1)))
		return sem;
	return sem == CT_ELD ? CT_ELD2 : sem == CT_EFREE ? CT_EFREE2 :
	       sem == CT_CMP ? CT_CMP2 : CT_ST2;
}

static uint64_t ct_dram(const convt *T, int o)
{
	const npu_kopnd *P = &T->K->ops[o];
	const npu_kval *v = &T->g->ir->v[P->val];

	return v->daddr + (uint64_t)(P->off * npu_dtype_size(v->dtype));
}

static int ct_epi_op(const convt *T, int o)
{
	const npu_kern *K = T->K;

	return o != K->mm_a && o != K->mm_b && !K->ops[o].out && T->g->used[o];
}

/* Engine q's channels [c0, c1) of the image and their zero border. */
static void ct_image(convt *T, int q, int64_t c0, int64_t c1)
{
	emit_t *g = T->g;
	const npu_kern *K = T->K;
	const npu_kopnd *X = &K->ops[K->mm_b];
	int esz = T->esz;
	int64_t nc = c1 - c0, cs = T->Hp * T->Wp * esz;
	uint64_t b0 = T->img[q];

	npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, CT_ZERO, 0, 0);
	if (nc <= 0)
		return;
	if (K->cv_ph) {
		npu_emit_dmaf(g, q, NPU_OP_DCP, b0, T->zrow, T->Wp * esz, K->cv_ph, 0,
			      T->Wp * esz, nc, 0, cs);
		npu_emit_dmaf(g, q, NPU_OP_DCP, b0 + (uint64_t)((K->cv_ph + K->cv_h) * T->Wp * esz),
			      T->zrow, T->Wp * esz, K->cv_ph, 0, T->Wp * esz, nc, 0, cs);
	}
	if (K->cv_pw) {
		npu_emit_dmaf(g, q, NPU_OP_DCP, b0 + (uint64_t)(K->cv_ph * T->Wp * esz),
			      T->zrow, K->cv_pw * esz, K->cv_h, 0, T->Wp * esz, nc, 0, cs);
		npu_emit_dmaf(g, q, NPU_OP_DCP,
			      b0 + (uint64_t)((K->cv_ph * T->Wp + K->cv_pw + K->cv_w) * esz),
			      T->zrow, K->cv_pw * esz, K->cv_h, 0, T->Wp * esz, nc, 0, cs);
	}
	npu_emit_dmaf(g, q, NPU_OP_DLD,
		      b0 + (uint64_t)((K->cv_ph * T->Wp + K->cv_pw) * esz),
		      ct_dram(T, K->mm_b) + (uint64_t)(c0 * X->stride[1] * esz),
		      K->cv_w * esz, K->cv_h, X->stride[2] * esz, T->Wp * esz,
		      nc, X->stride[1] * esz, cs);
}

/*
 * X_col^T[oh * OW + ow][(ic * KH + kh) * KW + kw] (rows xst bytes
 * apart): each engine gathers its own channels' columns (it loaded
 * them), one transfer per (oh, kh, kw), round robin over the engines
 * (with one engine's transfers emitted after the other's, the scalar
 * unit waited on the first engine's full queue while the others had
 * nothing to do).  Engine q starts at output row q * OH / engines: with
 * each engine's image in a bank of its own and X_col^T's output rows
 * spread over banks (ct_place), the engines read and write different
 * banks at once instead of queueing for two.
 */
static void ct_gather(convt *T, int part, int64_t i0, int64_t i1)
{
	emit_t *g = T->g;
	const npu_kern *K = T->K;
	int esz = T->esz;
	int64_t KHW = K->cv_kh * K->cv_kw, OH = K->cv_oh;
	/* part 0: output rows [0, h1); part 1: the rest; rows i0..i1 of it */
	int64_t b0 = part ? T->h1 : 0, nr = part ? OH - T->h1 : T->h1;

	if (i1 > nr)
		i1 = nr;
	if (i0 >= i1)
		return;
	for (int64_t i = i0; i < i1; i++)
		for (int64_t kh = 0; kh < K->cv_kh; kh++)
			for (int64_t kw = 0; kw < K->cv_kw; kw++)
				for (int q = 0; q < T->nq; q++) {
					int64_t c0 = T->c0[q], c1 = T->c0[q + 1];
					int64_t oh = b0 + (i + q * nr / T->nq) % nr;
					if (c1 <= c0)
						continue;
					npu_emit_dmaf(g, q, NPU_OP_DCP,
						      T->xcol + (uint64_t)(oh * K->cv_ow) * T->xst +
						      (uint64_t)((c0 * KHW + kh * K->cv_kw + kw) * esz),
						      T->img[q] + (uint64_t)(((oh * K->cv_sh + kh) * T->Wp + kw) * esz),
						      esz, c1 - c0, T->Hp * T->Wp * esz, KHW * esz,
						      K->cv_ow, K->cv_sw * esz, (int64_t)T->xst);
				}
	if (i1 == nr)
		for (int q = 0; q < T->nq; q++)
			npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, CT_X + q, 0, 0);
}

/*
 * hwc: engine q's channels of every padded row of its planes, across
 * into the channels-last image (pixel (y, x) at (y * Wp + x) * IC
 * elements), a transfer per row; the border comes along from the
 * zeroed planes.  Then its signal to the array.
 */
static void ct_hwc(convt *T, int q)
{
	emit_t *g = T->g;
	int64_t c0 = T->c0[q], nc = T->c0[q + 1] - c0, IC = T->K->cv_ic;
	int esz = T->esz;

	for (int64_t y = 0; y < T->Hp && nc > 0; y++)
		npu_emit_dmaf(g, q, NPU_OP_DCP,
			      T->xcol + (uint64_t)((y * T->Wp * IC + c0) * esz),
			      T->img[q] + (uint64_t)(y * T->Wp * esz), esz, T->Wp,
			      esz, IC * esz, nc, T->Hp * T->Wp * esz, esz);
	npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, CT_X + q, 0, 0);
}

/*
 * hwc with the image from the kernel before (npu_imgho), which wrote
 * its interior: the border is zeroed here, each engine a side (rows
 * above and below as pixels of IC zeros, the columns left and right of
 * each interior row), from the zero row; then each engine's signal to
 * the array.  The planes' loads and their transposes across (ResNet-18's
 * layer 2: 2.6 k cycles before the first mmac) are not needed.
 */
static void ct_border(convt *T)
{
	emit_t *g = T->g;
	const npu_kern *K = T->K;
	int esz = T->esz;
	int64_t IC = K->cv_ic, px = IC * esz, ph = K->cv_ph, pw = K->cv_pw;
	uint64_t row = (uint64_t)(T->Wp * px);

	for (int q = 0; q < T->nq; q++) {
		int side = q % 4;
		npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, CT_ZERO, 0, 0);
		if (q < 4 && ph && side < 2)
			npu_emit_dmaf(g, q, NPU_OP_DCP,
				      T->xcol + (side ? (uint64_t)(ph + K->cv_h) * row : 0),
				      T->zrow, px, ph * T->Wp, 0, px, 1, 0, 0);
		if (q < 4 && pw && side >= 2)
			npu_emit_dmaf(g, q, NPU_OP_DCP,
				      T->xcol + (uint64_t)ph * row +
				      (side == 3 ? (uint64_t)((pw + K->cv_w) * px) : 0),
				      T->zrow, pw * px, K->cv_h, 0, (int64_t)row, 1, 0, 0);
		npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, CT_X + q, 0, 0);
	}
}

/*
 * The next kernel's image (npu_imgho): output rows [r0, r1) of block j,
 * from its output slot into the image's interior, on engine q after its
 * store (the slot is not reused before the engine's signal that the
 * store is done).
 */
static void ct_img_copy(convt *T, int q, int64_t j, int64_t r0, int64_t r1)
{
	const npu_imgho *h = T->imgout;
	const npu_kern *K = T->K;
	int64_t nn = ct_nn(T, j), OW = K->cv_ow;
	int pe = T->esz;

	if (!h || r1 <= r0)
		return;
	npu_emit_dmaf(T->g, q, NPU_OP_DCP,
		      h->sram + (uint64_t)((((r0 + h->ph) * h->wp + h->pw) * h->ic + j * T->C) * pe),
		      T->g->slotb[T->oout][j & 1] + (uint64_t)(r0 * OW * nn * pe),
		      nn * pe, OW, nn * pe, h->ic * pe, r1 - r0, OW * nn * pe,
		      h->wp * h->ic * pe);
}

/*
 * K slices [a[q], b[q]) of every panel are engine q's, in a region of
 * its own (a bank of its own where they fit, so that the engines' loads
 * do not queue for one bank's port): its rows are contiguous in DRAM,
 * so a few transfers load them (each holds its engine for the DRAM
 * latency, 400 cycles on a 64 KiB slice's 512).  The post engine
 * (transposes, epilogue loads, stores) takes half a share, so that
 * its queue turns over.  The array takes the slices in the order
 * order[], round robin over the engines' ranges, so that all engines'
 * first slices are needed first.  Block 0 splits only the slices from
 * pfm on (those before came from the kernel before), and takes those
 * before first.
 */
static void ct_split1(convt *T, ctsplit *sp, int64_t from)
{
	int64_t w[CT_MAXQ], tot = 0, at = 0, n = 0, ns = T->ks - from;

	for (int q = 0; q < T->nq; q++) {
		w[q] = T->nq >= 4 && q == T->qx ? 1 : 2;
		tot += w[q];
	}
	for (int q = 0; q < T->nq; q++) {
		sp->ka[q] = from + ns * at / tot;
		at += w[q];
		sp->kb[q] = from + ns * at / tot;
	}
	for (n = 0; n < from; n++) {
		sp->order[n] = n;
		sp->keng[n] = -1;
	}
	for (int64_t i = 0; n < T->ks; i++)
		for (int q = 0; q < T->nq; q++)
			if (sp->ka[q] + i < sp->kb[q]) {
				sp->order[n++] = sp->ka[q] + i;
				sp->keng[sp->ka[q] + i] = q;
			}
}

static void ct_split(convt *T)
{
	ct_split1(T, &T->sp[0], T->pfm);
	ct_split1(T, &T->sp[1], 0);
}

/* Block j's split. */
static const ctsplit *ct_sp(const convt *T, int64_t j)
{
	return &T->sp[j != 0];
}

/* Block j's i-th K slice in the order it takes them. */
static int64_t ct_ki(const convt *T, int64_t j, int64_t i)
{
	return ct_sp(T, j)->order[i];
}

/* Where K slice ki of block j's panel lies (slot j & 1). */
static uint64_t ct_tile(const convt *T, int64_t j, int64_t ki)
{
	const ctsplit *sp = ct_sp(T, j);
	int q = sp->keng[ki];
	int64_t nn = ct_nn(T, j);

	if (T->pfall)
		return T->pf->local + (uint64_t)((ki * T->R * T->OC + j * T->C) * T->esz);
	if (q < 0)
		return T->pf->local + (uint64_t)(ki * T->R * nn * T->esz);
	return T->panel[j & 1][q] + (uint64_t)((ki - sp->ka[q]) * T->R * nn * T->esz);
}

/*
 * Up to `groups` more transfers an engine (all: -1) of block j's
 * weight panel (its slot free once block j - 2 is done; the wait comes
 * with the first).  The first block's slices come one, then two,
 * four... per engine, so that the array starts on the first; a later
 * block's panel loads during the block before, in halves.  A token per
 * transfer.
 */
static void ct_panel(convt *T, int64_t j, int groups)
{
	emit_t *g = T->g;
	int s = (int)(j & 1);
	int64_t o0 = j * T->C, nn = ct_nn(T, j);
	int left = 1;

	if (T->pfall)
		return;
	if (T->pj != j) {
		T->pj = j;
		T->pgrp = 1;
		for (int q = 0; q < T->nq; q++)
			T->pnext[q] = ct_sp(T, j)->ka[q];
		memset(T->first[s], 0, (size_t)T->ks * sizeof *T->first[s]);
		if (j >= 2)
			for (int q = 0; q < T->nq; q++)
				npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, CT_WF + q, 0, 0);
	}
	for (; left && groups; T->pgrp *= 2, groups--) {
		left = 0;
		for (int q = 0; q < T->nq; q++) {
			const ctsplit *sp = ct_sp(T, j);
			int64_t ki = T->pnext[q], m = j ? (sp->kb[q] - sp->ka[q] + 1) / 2 : T->pgrp;
			int64_t k0 = ki * T->R, k1;
			if (ki >= sp->kb[q])
				continue;
			m = m < sp->kb[q] - ki ? m : sp->kb[q] - ki;
			k1 = (ki + m) * T->R < T->KK ? (ki + m) * T->R : T->KK;
			npu_emit_dmaf(g, q, NPU_OP_DLD, ct_tile(T, j, ki),
				      T->wdram + (uint64_t)((k0 * T->wst + o0) * T->esz),
				      nn * T->esz, k1 - k0, T->wst * T->esz, nn * T->esz, 1, 0, 0);
			npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, CT_W + q, 0, 0);
			T->first[s][ki] = 1; /* the mxu waits before this slice */
			T->pnext[q] = ki + m;
			left |= T->pnext[q] < sp->kb[q];
		}
	}
}

/* Block j's epilogue operands. */
static void ct_epi_loads(convt *T, int64_t j)
{
	emit_t *g = T->g;
	const npu_kern *K = T->K;
	int s = (int)(j & 1);
	int64_t o0 = j * T->C, nn = ct_nn(T, j);

	if (!T->epi_loads)
		return;
	if (j >= 2)
		npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + ct_qe(T, j), ct_sem(T, CT_EFREE, j), 0, 0);
	for (int o = 0; o < K->nops; o++) {
		const npu_kopnd *P = &K->ops[o];
		if (!ct_epi_op(T, o))
			continue;
		int pe = npu_dtype_size(g->ir->v[P->val].dtype), ro = g->rowop && g->rowop[o];
		uint64_t src = ct_dram(T, o) + (uint64_t)(o0 * P->stride[1] * pe);
		if (T->direct && P->stride[2] == 0) {
			/* per channel: its nn values, then copied down the
			 * P rows of the [P][nn] tile (SRAM to SRAM) */
			npu_emit_dmaf(g, ct_qe(T, j), NPU_OP_DLD, g->slotb[o][s], src, pe, nn,
				      P->stride[1] * pe, pe, 1, 0, 0);
			if (T->P > 1)
				npu_emit_dmaf(g, ct_qe(T, j), NPU_OP_DCP, g->slotb[o][s] + (uint64_t)(nn * pe),
					      g->slotb[o][s], nn * pe, T->P - 1, 0, nn * pe, 1, 0, 0);
		} else if (T->direct) {
			/* [P][nn]: DRAM read in its order, SRAM written across */
			npu_emit_dmaf(g, ct_qe(T, j), NPU_OP_DLD, g->slotb[o][s], src, pe, T->P,
				      P->stride[2] * pe, nn * pe, nn, P->stride[1] * pe, pe);
		} else {
			npu_emit_dma(g, ct_qe(T, j), 0, src, g->slotb[o][s], pe, nn, ro ? 1 : T->P,
				     P->stride[1], ro ? 1 : P->stride[2]);
		}
	}
	npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_DMA0 + ct_qe(T, j), ct_sem(T, CT_ELD, j), 0, 0);
}

/*
 * The rest of block j's weight panel, then its epilogue operands, whose
 * loads wait for block j - 2's epilogue to free their slots: a signal
 * the vector unit gives at the end of the block this runs in, later in
 * the program.  The engine would queue everything from that wait on, and
 * the scalar unit stops on a full queue before it issues the signal: a
 * deadlock once the loads fill the queue (Visformer's patch embedding
 * with its residual add and BatchNorm: five operands, each a load and a
 * copy down the rows, 60 entries on one engine).  From block 2 on they
 * go after the block's end instead (ct_matrix): 1.
 */
static int ct_loads(convt *T, int64_t j)
{
	ct_panel(T, j, -1);
	if (j >= 2 && T->epi_loads)
		return 1;
	ct_epi_loads(T, j);
	return 0;
}

/* Block j's C^T out of its accumulator region, transposed to [nn][P]. */
static void ct_transpose(convt *T, int64_t j)
{
	emit_t *g = T->g;
	int64_t nn = ct_nn(T, j);

	if (j >= 2)
		npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + T->qx, CT_STF, 0, 0);
	npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + T->qx, CT_MMD, 0, 0);
	npu_emit_dmaf(g, T->qx, NPU_OP_DCP, T->stage[j & 1], T->acc0 + (uint64_t)j * T->accsz,
		      4, nn, 4, T->P * 4, T->P, nn * 4, 4);
	npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_DMA0 + T->qx, CT_TRD, 0, 0);
}

/* The vector unit's waits before block j's epilogue. */
static void ct_epi_begin(convt *T, int64_t j)
{
	emit_t *g = T->g;

	npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_VEC, T->direct ? CT_MMD : CT_TRD, 0, 0);
	if (T->epi_loads)
		npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_VEC, ct_sem(T, CT_ELD, j), 0, 0);
	if (j >= 2)
		npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_VEC, ct_sem(T, CT_ST, j), 0, 0);
	memset(g->xrowc, 0, sizeof g->xrowc);
}

/* Elements [e0, e0 + len) (whole rows of P) of block j's epilogue. */
static void ct_epi_part(convt *T, int64_t j, int64_t e0, int64_t len)
{
	emit_t *g = T->g;
	const npu_kern *K = T->K;
	int s = (int)(j & 1);

	for (int o = 0; o < K->nops; o++) {
		int64_t el = g->rowop && g->rowop[o] ? e0 / T->P : e0;
		g->slot[o] = g->slotb[o][s] +
			     (uint64_t)(el * npu_dtype_size(g->ir->v[K->ops[o].val].dtype));
	}
	g->accslot = (T->direct ? T->acc0 + (uint64_t)j * T->accsz : T->stage[s]) +
		     (uint64_t)(e0 * 4);
	if (g->rowop)
		npu_emit_rows(g, len / T->P, T->P);
	else
		npu_emit_row(g, len);
}

/* After block j's epilogue: its slots' hand-offs and its store. */
static void ct_epi_end(convt *T, int64_t j)
{
	emit_t *g = T->g;
	const npu_kern *K = T->K;
	int s = (int)(j & 1);
	int64_t o0 = j * T->C, nn = ct_nn(T, j);

	if (j + 2 < T->nb) {
		if (!T->direct)
			npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_VEC, CT_STF, 0, 0);
		if (T->epi_loads)
			npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_VEC, ct_sem(T, CT_EFREE, j), 0, 0);
	}
	npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_VEC, ct_sem(T, CT_CMP, j), 0, 0);
	npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + ct_qe(T, j), ct_sem(T, CT_CMP, j), 0, 0);
	for (int o = 0; o < K->nops; o++) {
		const npu_kopnd *P = &K->ops[o];
		if (!P->out)
			continue;
		int pe = npu_dtype_size(g->ir->v[P->val].dtype);
		uint64_t dst = ct_dram(T, o) + (uint64_t)(o0 * P->stride[1] * pe);
		if (T->direct) /* [P][nn] back across: DRAM written in its order */
			npu_emit_dmaf(g, ct_qe(T, j), NPU_OP_DST, dst, g->slotb[o][s], pe, T->P,
				      nn * pe, P->stride[2] * pe, nn, pe, P->stride[1] * pe);
		else
			npu_emit_dma(g, ct_qe(T, j), 1, dst, g->slotb[o][s], pe, nn, T->P,
				     P->stride[1], P->stride[2]);
	}
	ct_img_copy(T, ct_qe(T, j), j, 0, K->cv_oh);
	if (j + 2 < T->nb)
		npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_DMA0 + ct_qe(T, j), ct_sem(T, CT_ST, j), 0, 0);
}

/*
 * The end of block j's matrix work: its accumulator done (CT_MMD, when
 * mmd), its panel slots free for block j + 2's loads (CT_WF, when wf),
 * and the rest of block j - 1's epilogue, of which [0, done) of epn
 * elements ran between the pairs.
 */
static void ct_blk_end(convt *T, int64_t j, int mmd, int wf, int64_t done,
		       int64_t epn)
{
	npu_mfunc *f = T->g->f;

	if (mmd)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, CT_MMD, 0, 0);
	if (wf && j + 2 < T->nb)
		for (int q = 0; q < T->nq; q++)
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, CT_WF + q, 0, 0);
	if (epn) {
		if (done < epn)
			ct_epi_part(T, j - 1, done, epn - done);
		ct_epi_end(T, j - 1);
	}
}

/* Block j's matrix work, with block j - 1's epilogue in parts between
 * its pairs (so the scalar unit keeps both queues fed). */
static void ct_matrix(convt *T, int64_t j)
{
	emit_t *g = T->g;
	npu_mfunc *f = g->f;
	int64_t nn = ct_nn(T, j);
	int64_t pn = j ? ct_nn(T, j - 1) : 0;
	int64_t epn = pn * T->P, done = 0, lead = T->ks / 2;
	int64_t lastk = -1;
	int late = 0;
	uint64_t acc = T->acc0 + (uint64_t)j * T->accsz;

	if (epn)
		ct_epi_begin(T, j - 1);
	/* block 0 streams the output rows gathered first, then (after
	 * their signal) the rest, the weight slices loaded again */
	int nh = j == 0 && T->h1 < T->K->cv_oh ? 2 : 1;
	for (int hp = 0; hp < nh; hp++) {
	int64_t p0 = hp ? T->h1 * T->K->cv_ow : 0;
	int64_t pr = nh == 1 ? T->P : hp ? T->P - p0 : T->h1 * T->K->cv_ow;
	if (j == 0)
		for (int q = 0; q < T->nq; q++)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, CT_X + q, 0, 0);
	for (int64_t i = 0; i < T->ks; i++) {
		int64_t ki = ct_ki(T, j, i), k0 = ki * T->R, kt = T->KK - k0 < T->R ? T->KK - k0 : T->R;
		int xa = npu_mx(f), xb = npu_mx(f), xc = npu_mx(f);
		if (!hp && T->first[j & 1][ki])
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, CT_W + ct_sp(T, j)->keng[ki], 0, 0);
		if (kt != lastk) {
			int x1 = npu_mx(f), x2 = npu_mx(f);
			npu_mli(f, x1, kt);
			npu_mli(f, x2, nn);
			npu_memit(f, NPU_OP_MCFG, x1, x2, T->dt, 0);
			x1 = npu_mx(f);
			x2 = npu_mx(f);
			npu_mli(f, x1, (int64_t)T->xst);
			npu_mli(f, x2, nn * 4);
			npu_memit(f, NPU_OP_MSTRIDE, x1, x2, 0, 0);
			lastk = kt;
		}
		npu_mli(f, xa, (int64_t)ct_tile(T, j, ki));
		npu_mli(f, xb, nn * T->esz);
		npu_memit(f, NPU_OP_MLDW, xa, xb, 0, 0);
		xa = npu_mx(f);
		xb = npu_mx(f);
		npu_mli(f, xa, (int64_t)(T->xcol + (uint64_t)p0 * T->xst +
					 (uint64_t)(k0 * T->esz)));
		npu_mli(f, xb, (int64_t)(acc + (uint64_t)(p0 * nn * 4)));
		npu_mli(f, xc, pr);
		npu_memit(f, NPU_OP_MMAC, xa, xb, xc, i ? NPU_MMAC_ACC : 0);
		/* the next block's panel, once the array has work queued
		 * (its transfers may fill the engines' queues, and the
		 * scalar unit waits on a full queue); with block 0 in two
		 * halves, in the second, after the gathers the first
		 * half's pairs carry */
		if (hp == nh - 1 && i == (T->ks - 1 < 2 ? T->ks - 1 : 2) && j + 1 < T->nb)
			late = ct_loads(T, j + 1);
		/* the second half's gathers, spread over the first half's
		 * pairs (emitted before them, the scalar unit would wait on
		 * full engine queues before feeding the array) */
		if (nh == 2 && !hp) {
			int64_t n1 = T->K->cv_oh - T->h1;
			ct_gather(T, 1, i * n1 / T->ks, (i + 1) * n1 / T->ks);
		}
		/* whole rows of the epilogue, spread over the pairs after
		 * the first `lead` */
		while (epn && i >= lead && done < epn &&
		       done < (i + 1 - lead) * pn / (T->ks - lead) * T->P) {
			int64_t to = (i + 1 - lead) * pn / (T->ks - lead) * T->P;
			ct_epi_part(T, j - 1, done, to - done);
			done = to;
		}
	}
	}
	ct_blk_end(T, j, 1, 1, done, epn);
	if (late)
		ct_epi_loads(T, j + 1);
}

/* hwc: the array's shape for blocks of nn columns (which drops any
 * weights it holds), K slices of R rows read sw pixels apart. */
static void ct_mcfg(convt *T, int64_t nn)
{
	npu_mfunc *f = T->g->f;
	int x1 = npu_mx(f), x2 = npu_mx(f);

	npu_mli(f, x1, T->R);
	npu_mli(f, x2, nn);
	npu_memit(f, NPU_OP_MCFG, x1, x2, T->dt, 0);
	x1 = npu_mx(f);
	x2 = npu_mx(f);
	npu_mli(f, x1, T->K->cv_sw * T->K->cv_ic * T->esz);
	npu_mli(f, x2, nn * 4);
	npu_memit(f, NPU_OP_MSTRIDE, x1, x2, 0, 0);
}

/* hwc: the mldw of block j's i-th slice, after the wait for its
 * transfer when it starts one (not again when a later row group of the
 * last block loads the slice a second time: again). */
static void ct_mldw(convt *T, int64_t j, int64_t i, int again)
{
	npu_mfunc *f = T->g->f;
	int64_t ki = ct_ki(T, j, i);
	int xa = npu_mx(f), xb = npu_mx(f);

	if (T->first[j & 1][ki] && !again)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, CT_W + ct_sp(T, j)->keng[ki], 0, 0);
	npu_mli(f, xa, (int64_t)ct_tile(T, j, ki));
	npu_mli(f, xb, (T->pfall ? T->OC : ct_nn(T, j)) * T->esz);
	npu_memit(f, NPU_OP_MLDW, xa, xb, 0, 0);
}

/* hwc: slice ki's mmac of output row oh: OW pixels from (oh * sh + kh,
 * kw), channels of the slice's block, into accumulator rows oh * OW.. */
static void ct_row(convt *T, int64_t ki, uint64_t acc, int64_t nn, int64_t oh,
		   unsigned flags)
{
	const npu_kern *K = T->K;
	npu_mfunc *f = T->g->f;
	int64_t IC = K->cv_ic, k0 = ki * T->R, tap = k0 / IC;
	int64_t px = (oh * K->cv_sh + tap / K->cv_kw) * T->Wp + tap % K->cv_kw;
	int xa = npu_mx(f), xb = npu_mx(f), xc = npu_mx(f);

	npu_mli(f, xa, (int64_t)(T->xcol + (uint64_t)((px * IC + k0 % IC) * T->esz)));
	npu_mli(f, xb, (int64_t)(acc + (uint64_t)(oh * K->cv_ow * nn * 4)));
	npu_mli(f, xc, K->cv_ow);
	npu_memit(f, NPU_OP_MMAC, xa, xb, xc, (int64_t)flags);
}

/*
 * hwc with the epilogue over C^T: the last block's output rows in
 * groups (T->trow), each group's epilogue and store started as soon as
 * the array has accumulated its rows (ct_tail_rows).  When a group's
 * rows stream for at least an mldw, the block is walked a group at a
 * time through every K slice (the weight slices loaded again, their
 * loads hidden), so that all but the last group's epilogue runs under
 * the array's work (tparts); else the groups are only the last slice's
 * rows (ResNet-18's layer 4: 7 rows of 7).
 */
static void ct_tail_plan(convt *T)
{
	int64_t OH = T->K->cv_oh, P = OH < CT_TAILG ? OH : CT_TAILG, r0, n, sg;

	/* parts: as many as keep each one's stream past an mldw, up to
	 * CT_TAILG (more, and layer 2's single block was slower) */
	while (P > 1 && (double)(OH / P * T->K->cv_ow) / T->rate < (double)T->R)
		P--;
	T->tparts = (int)P;
	for (int64_t p = 0; p <= P; p++)
		T->prow[p] = p * OH / P;
	/* groups: the parts but the last, whose rows go in up to four
	 * groups (signalled at its last slice: the epilogue of the first
	 * runs while the array drains the others; as one group, layer 2's
	 * last part left a 4.7 k tail) */
	T->tg = 0;
	for (int64_t p = 0; p < P - 1; p++)
		T->trow[T->tg++] = T->prow[p];
	r0 = T->prow[P - 1];
	n = OH - r0;
	sg = n < 4 ? n : 4;
	for (int64_t g = 0; g < sg; g++)
		T->trow[T->tg++] = r0 + g * n / sg;
	T->trow[T->tg] = OH;
}

/*
 * The next kernel's first panel (npu_pfplan), loaded during the last
 * block's matrix work (`cycles` long), when its engines have nothing
 * else to do but this block's epilogue operands (the post engine's):
 * on the others, as much of it as they move in half of those cycles
 * (a prefix of whole slices when the plan allows, else all or nothing).
 * Issued later, its transfers held up the last row groups' stores and
 * so the kernel's end: a layer-4 downsample of 12.6 k cycles loading
 * 1.5 MB for the convolution after it took 16.9 k.
 */
static void ct_pf_next(convt *T, int64_t cycles)
{
	const npu_target *t = T->g->t;
	npu_pfplan *p = T->pfnext;
	int q3[CT_MAXQ], n = 0;
	double per;
	int64_t rows;

	if (!p || !p->on || p->issued)
		return;
	for (int q = 0; q < T->nq; q++)
		if (q != T->qx || T->nq == 1)
			q3[n++] = q;
	per = ((double)cycles / 2 - t->dma_setup - t->dram_latency) * t->dma_bytes_per_cycle;
	rows = per > 0 ? (int64_t)(per * n / (double)(p->cols * p->esz)) : 0;
	if (p->prefix > 0 && rows < p->rows)
		p->rows = rows / p->prefix * p->prefix;
	if (p->rows < 1 || rows < p->rows)
		return;
	npu_emit_pf(T->g, p, q3, n, T->top);
}

static void ct_grp_open(convt *T, int gi);
static void ct_grp_part(convt *T, int gi, int64_t e0, int64_t e1);
static void ct_grp_close(convt *T, int gi);

/* Is output row oh the last of a row group (ct_tail_plan)? */
static int ct_group_end(const convt *T, int64_t oh)
{
	for (int g = 1; g <= T->tg; g++)
		if (oh + 1 == T->trow[g])
			return 1;
	return 0;
}

/*
 * hwc: block j's matrix work, block j - 1's epilogue in parts between
 * its slices.  A slice is an mmac per output row (OW rows each: the
 * image's rows of pixels are Wp apart, not OW); its first swaps in its
 * weights, then comes the next slice's mldw (the next block's first
 * after the last slice), so that the weight path loads it while the
 * other rows, holding the weights, stream.  With the mldw after the
 * rows, the in-order array waited for it each slice: 297 cycles where
 * ResNet-18's layer 4 streams 196.  The last block may go a row group
 * at a time (ct_tail_plan), each group signalled when accumulated.
 */
static void ct_matrix_hwc(convt *T, int64_t j)
{
	emit_t *g = T->g;
	npu_mfunc *f = g->f;
	int64_t nn = ct_nn(T, j), oh, OH = T->K->cv_oh, ks = T->ks;
	int64_t pn = j ? ct_nn(T, j - 1) : 0, epn = pn * T->P, done = 0;
	uint64_t acc = T->acc0 + (uint64_t)j * T->accsz;
	int chain = j + 1 < T->nb && ct_nn(T, j + 1) == nn;
	int last = T->tail && j == T->nb - 1, np = last ? T->tparts : 1;
	/* the block before's epilogue over the second half of the block's
	 * slices; with none (one block), a row group's over the next
	 * group's (np > 1): beside the block before's it held up the
	 * array's feed (layer 3: 0.5 k slower), alone it took layer 2's
	 * one block of 128 channels from 37.4 k to 35-36 k */
	int64_t steps = np * ks, lead = steps / 2, gdone = 0, ge = 0;

	if (epn)
		ct_epi_begin(T, j - 1);
	/* the next kernel's panel loads from the kernel before */
	for (int q = 0; j == 0 && T->pf && T->pf->issued && q < T->pf->neng; q++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_PF, 0, 0);
	if (j == 0 || nn != pn) {
		ct_mcfg(T, nn);
		ct_mldw(T, j, 0, 0);
	}
	if (j == 0)
		for (int q = 0; q < T->nq; q++)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, CT_X + q, 0, 0);
	for (int64_t st = 0; st < steps; st++) {
		int64_t hp = st / ks, i = st % ks;
		int64_t ra = np > 1 ? T->prow[hp] : 0, rb = np > 1 ? T->prow[hp + 1] : OH;
		unsigned fl = i ? NPU_MMAC_ACC : 0;
		ct_row(T, ct_ki(T, j, i), acc, nn, ra, fl);
		/*
		 * Block 0's panel after its first group (npu_emit_convt)
		 * once the first slice is queued, the next block's once the
		 * array has more (the scalar unit waits on a full engine
		 * queue; before the mldw that may chain into it), and a
		 * block's epilogue operands halfway through it (its
		 * epilogue runs during the next block, or right after the
		 * last): with those queued with the panels, the post
		 * engine's queue filled behind weight transfers and held
		 * the scalar unit, and the array starved, about 5 k cycles
		 * a kernel; after the last slice, the last block's
		 * epilogue waited 2 k for them.
		 */
		if (j == 0 && st == 0)
			ct_panel(T, 0, -1);
		if (st == (ks - 1 < 2 ? ks - 1 : 2) && j + 1 < T->nb)
			ct_panel(T, j + 1, -1);
		if (i + 1 < ks)
			ct_mldw(T, j, i + 1, hp > 0);
		else if (hp + 1 < np)
			ct_mldw(T, j, 0, 1);
		else if (chain)
			ct_mldw(T, j + 1, 0, 0);
		for (oh = ra; oh < rb; oh++) {
			if (oh > ra)
				ct_row(T, ct_ki(T, j, i), acc, nn, oh, fl | NPU_MMAC_HOLD);
			if (last && i == ks - 1 && ct_group_end(T, oh))
				npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, CT_ROW, 0, 0);
		}
		if (st == 0 && j == T->nb - 1)
			ct_pf_next(T, ks * OH * (int64_t)ceil((double)T->K->cv_ow / T->rate));
		if (st == ks / 2)
			ct_epi_loads(T, j);
		while (epn && st >= lead && done < epn &&
		       done < (st + 1 - lead) * pn / (steps - lead) * T->P) {
			int64_t to = (st + 1 - lead) * pn / (steps - lead) * T->P;
			ct_epi_part(T, j - 1, done, to - done);
			done = to;
		}
		if (np > 1 && hp >= 1 && T->nb == 1) {
			int gi = (int)hp - 1;
			if (i == 0) {
				ct_grp_open(T, gi);
				ge = (T->trow[gi + 1] - T->trow[gi]) * T->K->cv_ow * nn;
				gdone = 0;
			}
			ct_grp_part(T, gi, gdone, (i + 1) * ge / ks);
			gdone = (i + 1) * ge / ks;
			if (i == ks - 1)
				ct_grp_close(T, gi);
		}
	}
	ct_blk_end(T, j, !last, !T->pfall, done, epn);
}

/*
 * hwc, epilogue over C^T (direct): the last block's epilogue and store
 * in row groups (ct_tail_plan), each as soon as the array has
 * accumulated its rows (CT_ROW) and stored by an engine of its own.  As
 * one piece they waited for the array's last drain and went out on one
 * engine: ResNet-18's layer-3 convolutions spent 3.4-4.4 k cycles after
 * their last mmac.  ct_matrix_hwc spreads a group's epilogue over the
 * next group's slices when the block goes a group at a time; the rest
 * come after the block (ct_tail_rows).
 */
static void ct_grp_open(convt *T, int gi)
{
	npu_mfunc *f = T->g->f;

	if (gi == 0 && T->epi_loads)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, ct_sem(T, CT_ELD, T->nb - 1), 0, 0);
	if (gi == 0 && T->nb - 1 >= 2)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, ct_sem(T, CT_ST, T->nb - 1), 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, CT_ROW, 0, 0);
}

/* Elements [e0, e1) of row group gi's epilogue (e1 <= its rows * OW * nn). */
static void ct_grp_part(convt *T, int gi, int64_t e0, int64_t e1)
{
	int64_t j = T->nb - 1, p0 = T->trow[gi] * T->K->cv_ow;

	if (e1 <= e0)
		return;
	memset(T->g->xrowc, 0, sizeof T->g->xrowc);
	ct_epi_part(T, j, p0 * ct_nn(T, j) + e0, e1 - e0);
}

/* Row group gi computed: its store, on an engine of its own. */
static void ct_grp_close(convt *T, int gi)
{
	emit_t *g = T->g;
	const npu_kern *K = T->K;
	npu_mfunc *f = g->f;
	int64_t j = T->nb - 1, s = j & 1, o0 = j * T->C, nn = ct_nn(T, j);
	int64_t p0 = T->trow[gi] * K->cv_ow, p1 = T->trow[gi + 1] * K->cv_ow;
	int q = (int)((T->qx + 1 + gi) % T->nq); /* (qx stores the block before) */
	int q2 = T->imgout && T->nq > 1 ? (q + 1) % T->nq : q; /* (the image copy) */

	npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, CT_RCMP + q, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, CT_RCMP + q, 0, 0);
	if (q2 != q) {
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, CT_RCMP + q2, 0, 0);
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q2, CT_RCMP + q2, 0, 0);
	}
	for (int o = 0; o < K->nops; o++) {
		const npu_kopnd *P = &K->ops[o];
		int pe = npu_dtype_size(g->ir->v[P->val].dtype);
		if (!P->out)
			continue;
		npu_emit_dmaf(g, q, NPU_OP_DST,
			      ct_dram(T, o) + (uint64_t)((o0 * P->stride[1] + p0 * P->stride[2]) * pe),
			      g->slotb[o][s] + (uint64_t)(p0 * nn * pe), pe, p1 - p0,
			      nn * pe, P->stride[2] * pe, nn, pe, P->stride[1] * pe);
	}
	ct_img_copy(T, q2, j, T->trow[gi], T->trow[gi + 1]);
	T->tused[q] = T->tused[q2] = 1;
}

/* Row groups g0.. of the last block whole, then the kernel's end. */
static void ct_tail_rows(convt *T, int g0)
{
	npu_mfunc *f = T->g->f;
	int64_t ge;

	for (int gi = g0; gi < T->tg; gi++) {
		ge = (T->trow[gi + 1] - T->trow[gi]) * T->K->cv_ow * ct_nn(T, T->nb - 1);
		ct_grp_open(T, gi);
		ct_grp_part(T, gi, 0, ge);
		ct_grp_close(T, gi);
	}
	for (int q = 0; q < T->nq; q++)
		if (T->tused[q]) {
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, SEM_END, 0, 0);
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
		}
}

/* Bytes of engine q's image channels. */
static uint64_t ct_imgb(const convt *T, int q)
{
	return al64((uint64_t)((T->c0[q + 1] - T->c0[q]) * T->Hp * T->Wp * T->esz));
}

/* Bytes of the channels-last image (hwc). */
static uint64_t ct_hwcb(const convt *T)
{
	return al64((uint64_t)(T->Hp * T->Wp * T->K->cv_ic * T->esz));
}

/* Bytes of zeros the image's border is copied from: a padded row of a
 * plane, or (an image from the kernel before) a border column. */
static uint64_t ct_zrowb(const convt *T)
{
	uint64_t b = (uint64_t)(T->Wp * T->esz), c = (uint64_t)(T->K->cv_pw * T->K->cv_ic * T->esz);

	if (T->imgin && (uint64_t)(T->K->cv_ic * T->esz) > c)
		c = (uint64_t)(T->K->cv_ic * T->esz);
	return T->imgin && c > b ? c : b;
}

/* The panels' regions (two slots an engine) and each engine's planes:
 * a bank each from b0 (own), else packed from a, rs bytes a panel.  The
 * address after them. */
static uint64_t ct_slots(convt *T, int own, uint64_t a, uint64_t b0,
			 uint64_t bk, uint64_t rs)
{
	for (int s = 0; s < 2; s++)
		for (int q = 0; q < T->nq; q++) {
			T->panel[s][q] = own ? b0 + (uint64_t)(s * T->nq + q) * bk : a;
			a += own ? 0 : rs;
		}
	for (int q = 0; q < T->nq; q++) {
		T->img[q] = own ? b0 + (uint64_t)(2 * T->nq + q) * bk : a;
		a += own ? 0 : ct_imgb(T, q);
	}
	return own ? b0 + 3 * (uint64_t)T->nq * bk : a;
}

/* The placement's end: SRAM used up to a (at most limit), and the
 * blocks' accumulator regions; -1 when they do not fit. */
static int ct_place_end(convt *T, const npu_target *t, uint64_t a, uint64_t limit)
{
	T->top = a;
	T->accsz = al64((uint64_t)(T->P * T->C * 4));
	T->acc0 = NPU_ACC_BASE;
	return a <= limit && (uint64_t)T->nb * T->accsz <= t->acc_bytes ? 0 : -1;
}

/*
 * ct_place's rest for hwc: the panels' regions and each engine's planes
 * a bank each from b0 when they fit so, then the channels-last image;
 * else all packed from a.
 */
static int ct_place_hwc(convt *T, const npu_target *t, uint64_t a, uint64_t b0,
			uint64_t bk, uint64_t rs, int own)
{
	uint64_t top = t->sram_bytes - NPU_SPILL_BYTES;

	if (T->imgin) {
		/* no planes: the image is where the kernel before wrote it */
		int banks = own && rs <= bk && b0 + 2 * (uint64_t)T->nq * bk <= T->imgin->sram;
		for (int s = 0; s < 2; s++)
			for (int q = 0; q < T->nq; q++) {
				T->panel[s][q] = banks ? b0 + (uint64_t)(s * T->nq + q) * bk : a;
				a += banks ? 0 : rs;
			}
		T->xcol = T->imgin->sram;
		T->xst = 0;
		return ct_place_end(T, t, banks ? b0 + 2 * (uint64_t)T->nq * bk : a, T->xcol);
	}
	own = own && rs <= bk && b0 + 3 * (uint64_t)T->nq * bk + ct_hwcb(T) <= top;
	T->xcol = ct_slots(T, own, a, b0, bk, rs);
	T->xst = 0;
	return ct_place_end(T, t, T->xcol + ct_hwcb(T), top);
}

/*
 * SRAM: the zero row, the transposed copies and the epilogue operands'
 * and outputs' slots packed from 0; then, each from a bank boundary
 * when they fit so, the panels' regions (ct_split), each engine's
 * image, and X_col^T with its rows spread over as many banks as there
 * are output rows (ct_gather); else all packed.  -1 when they do not
 * fit.
 */
static int ct_place(convt *T, const npu_target *t)
{
	const npu_kern *K = T->K;
	emit_t *g = T->g;
	uint64_t a = 0, vq = (uint64_t)t->vlen * 4, rs = 0, top = t->sram_bytes - NPU_SPILL_BYTES;
	uint64_t bk = npu_target_bank_bytes(t);
	uint64_t row = (uint64_t)(T->KK * T->esz), b0, nbk, xb;
	int own = 1;

	T->zrow = a;
	a += (ct_zrowb(T) + vq - 1) / vq * vq;
	for (int s = 0; s < 2; s++) {
		T->stage[s] = a;
		a += al64((uint64_t)(T->C * T->P * 4));
	}
	for (int o = 0; o < K->nops; o++) {
		if (o == K->mm_a || o == K->mm_b)
			continue;
		int oe = npu_dtype_size(g->ir->v[K->ops[o].val].dtype);
		int64_t cols = g->rowop && g->rowop[o] ? 1 : T->P;
		for (int s = 0; s < 2; s++) {
			g->slotb[o][s] = a;
			a += al64((uint64_t)(T->C * cols * oe));
		}
	}
	for (int q = 0; q < T->nq; q++) {
		for (int h = 0; h < 2; h++)
			if ((uint64_t)(T->sp[h].kb[q] - T->sp[h].ka[q]) * T->tb > rs)
				rs = (uint64_t)(T->sp[h].kb[q] - T->sp[h].ka[q]) * T->tb;
		own &= ct_imgb(T, q) <= bk;
	}
	b0 = (a + bk - 1) / bk * bk;
	nbk = 3 * (uint64_t)T->nq;
	if (T->hwc)
		return ct_place_hwc(T, t, a, b0, bk, rs, own);
	/* X_col^T: an output row of OW positions a bank, or as many banks
	 * as are left; rows xst bytes apart */
	xb = own && rs <= bk && b0 + nbk * bk < top ? (top - b0 - nbk * bk) / bk : 0;
	xb = xb > (uint64_t)K->cv_oh ? (uint64_t)K->cv_oh : xb;
	T->xst = xb ? xb * bk / (uint64_t)T->P / 64 * 64 : 0;
	if (T->xst < row || b0 + (nbk + xb) * bk > top)
		own = 0;
	T->xcol = ct_slots(T, own, a, b0, bk, rs);
	if (!own)
		T->xst = row;
	a = T->xcol + (own ? (uint64_t)T->P * T->xst : al64((uint64_t)T->P * row));
	return ct_place_end(T, t, a, top);
}

/* Operands read once per row of the epilogue (per output channel) are
 * broadcast (vbcast), as in emit_mm.c. */
static int ct_rowops(convt *T)
{
	emit_t *g = T->g;
	const npu_kern *K = T->K;
	int any = 0;

	T->direct = 1;
	for (int i = 0; i < K->nx; i++) {
		int op = K->x[i].op;
		T->direct &= op != NPU_X_RED && op != NPU_X_RFIN && op != NPU_X_LOOP &&
			     op != NPU_X_ENDLOOP;
	}
	for (int o = 0; o < K->nops; o++)
		T->epi_loads |= ct_epi_op(T, o);
	if (T->direct)
		return 0; /* every operand a [P][nn] tile */
	if (!(g->rowop = calloc((size_t)K->nops + 1, sizeof *g->rowop)))
		return -1;
	for (int o = 0; o < K->nops; o++)
		if (ct_epi_op(T, o) && K->ops[o].stride[2] == 0)
			any = g->rowop[o] = 1;
	if (any)
		npu_emit_level(K, g->lv, g->rowop);
	else {
		free(g->rowop);
		g->rowop = NULL;
	}
	return 0;
}

int npu_emit_convt(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e)
{
	const npu_kern *K = &c->ir->k[k];
	const npu_target *t = c->t;
	const npu_kopnd *A = &K->ops[K->mm_a];
	emit_t g;
	convt T;
	int rc = -1;

	if (npu_emit_setup(&g, c, k, f) < 0)
		return npu_errf(e, "out of memory");
	memset(&T, 0, sizeof T);
	T.g = &g;
	T.K = K;
	T.dt = K->mm_dtype;
	T.esz = npu_dtype_size(T.dt);
	T.nq = t->dma_engines < CT_MAXQ ? t->dma_engines : CT_MAXQ;
	T.qx = T.nq - 1;
	T.P = K->mm_n;
	T.KK = K->mm_k;
	T.OC = K->mm_m;
	T.C = t->mxu_cols;
	T.R = t->mxu_rows;
	T.nb = (T.OC + T.C - 1) / T.C;
	T.ks = (T.KK + T.R - 1) / T.R;
	T.tb = al64((uint64_t)(T.R * T.C * T.esz));
	T.Hp = K->cv_h + 2 * K->cv_ph;
	T.Wp = K->cv_w + 2 * K->cv_pw;
	T.wdram = ct_dram(&T, K->mm_a);
	T.wst = A->stride[2];
	/*
	 * X_col^T in two parts when block 0's stream over half of the
	 * output rows still hides the next weight slice's mldw: block 0
	 * starts once the first half's rows are gathered (the gathers, a
	 * transfer per (oh, kh, kw) on each engine, were most of its wait)
	 * and streams them through every K slice; the second half's
	 * gathers go out between those pairs, and block 1's panel after
	 * them, then block 0 streams the second half.
	 */
	T.hwc = K->cv_hwc;
	T.rate = t->mxu_rate[T.dt] > 0 ? t->mxu_rate[T.dt] : 1;
	T.h1 = K->cv_oh;
	if (!T.hwc) {
		int64_t h = K->cv_oh / 2;
		if (h >= 1 && (double)(h * K->cv_ow) / T.rate >= (double)T.R)
			T.h1 = h;
	}
	T.first[0] = calloc((size_t)T.ks + 1, 1);
	T.first[1] = calloc((size_t)T.ks + 1, 1);
	for (int h = 0; h < 2; h++) {
		T.sp[h].order = calloc((size_t)T.ks + 1, sizeof *T.sp[h].order);
		T.sp[h].keng = calloc((size_t)T.ks + 1, sizeof *T.sp[h].keng);
	}
	if (!T.first[0] || !T.first[1] || !T.sp[0].order || !T.sp[0].keng ||
	    !T.sp[1].order || !T.sp[1].keng || ct_rowops(&T) < 0) {
		npu_errf(e, "out of memory");
		goto out;
	}
	T.tail = T.hwc && T.direct;
	ct_tail_plan(&T);
	for (int q = 0; q <= T.nq; q++)
		T.c0[q] = q * K->cv_ic / T.nq;
	/*
	 * Block 0's first slices from the kernel before (convt_pf_plan in
	 * emit_mm.c) when it loaded them and this kernel's slots stay below
	 * them; the array waits for its tokens either way.
	 */
	T.pf = c->pf && c->pf->on ? c->pf : NULL;
	T.pfnext = c->pfnext;
	/* the image from the kernel before (npu_imgho), as this kernel
	 * would lay it out */
	if (T.hwc && npu_imgho_is_input(c->imgin, K) && !c->imgin->planes)
		T.imgin = c->imgin;
	if (T.hwc && T.pf && T.pf->issued && !T.pf->isa && T.pf->rows % T.R == 0 &&
	    T.pf->rows / T.R <= T.ks && T.pf->cols == ct_nn(&T, 0) && T.pf->esz == T.esz)
		T.pfm = T.pf->rows / T.R;
	if (T.hwc && T.pf && T.pf->issued && !T.pf->isa && T.pf->rows == T.KK &&
	    T.pf->cols == T.OC && T.OC > T.C && T.pf->esz == T.esz)
		T.pfall = 1;
	ct_split(&T);
	/* (with the handed-over image, its slots may reach it: then the
	 * image is built here, as without one) */
	int placed = ct_place(&T, t) == 0;
	if (!placed && T.imgin) {
		T.imgin = NULL;
		placed = ct_place(&T, t) == 0;
	}
	if (!placed) {
		npu_errf(e, "kernel %s: the transposed convolution (X_col^T %lldx%lld) does not fit SRAM",
			 K->name, (long long)T.P, (long long)T.KK);
		goto out;
	}
	if ((T.pfm || T.pfall) && T.top > T.pf->local) {
		T.pfm = T.pfall = 0;
		ct_split(&T);
	}
	npu_pf_fence(f, T.pf, T.top);
	/* the next kernel's image, when the output is its value and this
	 * kernel's slots stay below it */
	if (T.tail && c->imgout && T.top <= c->imgout->sram &&
	    (T.oout = npu_imgho_output(c->imgout, K)) >= 0)
		T.imgout = c->imgout;
	{
		/* the zero row the engines copy over the image's border */
		int vz = npu_mv(f);
		int64_t zn = (int64_t)((ct_zrowb(&T) + (uint64_t)t->vlen * 4 - 1) / ((uint64_t)t->vlen * 4));
		npu_memit(f, NPU_OP_VLI, vz, 0, 0, 0);
		for (int64_t i = 0; i < zn; i++)
			npu_memit(f, NPU_OP_VST, vz, 0, NPU_DT_F32,
				  (int64_t)(T.zrow + (uint64_t)(i * t->vlen * 4)));
		for (int q = 0; q < T.nq; q++)
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, CT_ZERO, 0, 0);
	}
	for (int q = 0; q < T.nq && !T.imgin; q++)
		ct_image(&T, q, T.c0[q], T.c0[q + 1]);
	T.pj = -1;
	for (int q = 0; q < T.nq && T.hwc && !T.imgin; q++)
		ct_hwc(&T, q);
	if (T.imgin)
		ct_border(&T);
	if (T.hwc) {
		/*
		 * The first group of block 0's panel, then its first
		 * slice's matrix work, then the rest (ct_matrix): the
		 * scalar unit waits on a full engine queue, and with the
		 * whole panel queued first it fed the array only once the
		 * last group had started, about 3 k cycles in.
		 */
		ct_panel(&T, 0, 1);
	} else {
		ct_gather(&T, 0, 0, K->cv_oh);
		ct_loads(&T, 0);
	}
	for (int64_t j = 0; j < T.nb; j++) {
		if (j >= 1 && !T.direct)
			ct_transpose(&T, j - 1);
		if (T.hwc)
			ct_matrix_hwc(&T, j);
		else
			ct_matrix(&T, j);
	}
	/* the last block's epilogue and store */
	if (T.tail) {
		ct_tail_rows(&T, T.tparts > 1 && T.nb == 1 ? T.tparts - 1 : 0);
		if (T.imgout)
			npu_imgho_done(c, T.imgout, k, K->ops[T.oout].val, ct_dram(&T, T.oout), f->n);
		rc = 0;
		goto out;
	}
	if (!T.direct)
		ct_transpose(&T, T.nb - 1);
	ct_epi_begin(&T, T.nb - 1);
	ct_epi_part(&T, T.nb - 1, 0, (T.OC - (T.nb - 1) * T.C) * T.P);
	ct_epi_end(&T, T.nb - 1);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + T.qx, SEM_END, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
	rc = 0;
out:
	free(T.first[0]);
	free(T.first[1]);
	for (int h = 0; h < 2; h++) {
		free(T.sp[h].order);
		free(T.sp[h].keng);
	}
	npu_emit_cleanup(&g);
	return rc;
}
