/*
 * emit_dyn.c - the kernels of dynamic shapes (dyn.c) for a run-time
 * number of rows, each in one kernel execution: matmuls, row kernels and
 * elementwise kernels.
 *
 * Calls of fixed-size code (dyn.c's versions) each pay the pipeline's
 * fill and drain, and a matmul's stream its whole weight again; past the
 * largest version that cost grows with the rows, and between versions
 * rows are padded or split over calls.  Here a run-time loop walks the
 * rows in blocks spread evenly over them (ceil(R / ceil(R / mb)) rows
 * each), the last one possibly shorter: DMA row counts and mmac rows come
 * from registers, so no row past the bound ones is loaded or stored.
 *
 * A matmul keeps its weight B [K][N] in SRAM for the whole execution
 * (loaded once, panel by panel, while the first block row runs); each
 * block row is the A panel [mb][K] and, per column block of nb, the
 * matrix work into an accumulator region, the epilogue on the vector unit
 * (in row groups, those past the block's rows skipped) and the store.
 *
 * The pipeline is emit_mm.c's: in program order the loads of block t+1,
 * the matrix work of block t with the epilogue of block t-1 interleaved
 * between its mldw/mmac pairs, then the store of t-1.  Since the number
 * of blocks is only known at run time, every slot is a credit semaphore:
 * the consumer's side signals one token per free slot at the start,
 * every use waits for one and gives one back when done, and the tokens
 * left at the end are drained, so the signals balance for any count.
 * Slot parities (A panel, epilogue slots, accumulator regions) depend on
 * the block's index, so the loop body is unrolled over U block rows
 * (the period of those parities), and the first block row, which loads
 * the weight panels, is emitted apart.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/dyn.h"
#include "compiler/emit_int.h"

/* Semaphores (credits: seeded at the start, drained at the end). */
enum {
	DS_ALD = 0,      /* + half: A panel loaded (DMA -> mxu) */
	DS_AFREE = 2,    /* + half: A slot free (mxu -> DMA), 2 credits */
	DS_BLD = 4,      /* + part: weight panel loaded (DMA -> mxu) */
	DS_ELD = 8,      /* epilogue inputs loaded (DMA -> vec) */
	DS_EFREE = 9,    /* epilogue input slot free (vec -> DMA), 2 credits */
	DS_MMD = 10,     /* block accumulated (mxu -> vec) */
	DS_ACCF = 11,    /* accumulator region read (vec -> mxu), nacc credits */
	DS_CMP = 12,     /* + half: block computed (vec -> store engine) */
	DS_ST = 14,      /* + half: output slot stored (store engine -> vec), 2 */
	DS_END = 16      /* a unit is done (to the scalar unit) */
};

typedef struct dmm {
	emit_t g;
	const npu_emitctx *c;
	const npu_kern *K;
	npu_mfunc *f;
	int dt, esz;
	int64_t KK, N, mb, nb, nbn, U;
	int64_t R, C;                /* the array's rows and columns */
	uint64_t slotA[2], slotB, accs[3];
	uint64_t top;                /* the end of its SRAM places */
	uint64_t slotB0;             /* column block 0's weight, 0: in slotB */
	int pfin;                    /* ... loaded before the kernel (npu_pfplan) */
	int pfall;                   /* every block's, as rows of N at slotB0 */
	int nacc, epi_loads;
	int qa, qa2, qe, qs[2], nst;
	int qw[4], nqw;              /* the engines of the weight panels */
	int *stat;                   /* per operand: the same for every row */
	int xR, xm0, xrn;            /* rows; first row and rows of this block row */
	int xbr;                     /* rows per block row (all but the last) */
} dmm;

/* The register that moves DRAM address a (a symbolic buffer), or 0. */
static int rel_of(const dmm *m, uint64_t a)
{
	const npu_dynrel *r = m->c->rel;

	for (int i = 0; r && i < r->n; i++)
		if (a >= r->lo[i] && a < r->hi[i])
			return r->xr[i];
	return 0;
}

static uint64_t dram_of(const dmm *m, int o)
{
	const npu_kopnd *P = &m->K->ops[o];
	const npu_kval *v = &m->c->ir->v[P->val];

	return v->daddr + (uint64_t)(P->off * npu_dtype_size(v->dtype));
}

/* Register: DRAM address of operand o at row (register xrow, 0: row 0)
 * and byte offset off, its row stride rstride bytes. */
static int dram_at(dmm *m, int o, int xrow, int64_t rstride, int64_t off)
{
	npu_mfunc *f = m->f;
	uint64_t a = dram_of(m, o);
	int x = npu_mx(f), xd = rel_of(m, a);

	npu_mli(f, x, (int64_t)a + off);
	if (xd)
		npu_memit(f, NPU_OP_ADD, x, x, xd, 0);
	if (xrow && rstride) {
		int y = npu_mx(f);
		if (rstride == (int32_t)rstride) {
			npu_memit(f, NPU_OP_MULI, y, xrow, 0, rstride);
		} else {
			int z = npu_mx(f);
			npu_mli(f, z, rstride);
			npu_memit(f, NPU_OP_MUL, y, xrow, z, 0);
		}
		npu_memit(f, NPU_OP_ADD, x, x, y, 0);
	}
	return x;
}

/* Rows of rowb contiguous bytes, as many as register xn holds, between
 * DRAM (register xd, row stride dstr) and SRAM local (row stride lstr). */
static void xfer(dmm *m, int q, int store, int xd, uint64_t local,
		 int64_t rowb, int xn, int64_t dstr, int64_t lstr)
{
	npu_mfunc *f = m->f;
	int xl = npu_mx(f);

	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_ROWB, 0, rowb);
	npu_memit(f, NPU_OP_DCFG, q, NPU_DF_N1, xn, 0);
	npu_memit(f, NPU_OP_DCFGI, q, store ? NPU_DF_SS1 : NPU_DF_DS1, 0, lstr);
	npu_memit(f, NPU_OP_DCFGI, q, store ? NPU_DF_DS1 : NPU_DF_SS1, 0, dstr);
	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_N2, 0, 1);
	npu_mli(f, xl, (int64_t)local);
	if (store)
		npu_memit(f, NPU_OP_DST, q, xd, xl, 0);
	else
		npu_memit(f, NPU_OP_DLD, q, xl, xd, 0);
}

/* A register with min(v, xn) and one with xn - that (the two halves of
 * xn rows when the first takes at most v). */
static void halves(dmm *m, int xn, int64_t v, int *x1, int *x2)
{
	npu_mfunc *f = m->f;
	int xv = npu_mx(f);

	*x1 = npu_mx(f);
	*x2 = npu_mx(f);
	npu_mli(f, xv, v);
	npu_memit(f, NPU_OP_MIN, *x1, xn, xv, 0);
	npu_memit(f, NPU_OP_SUB, *x2, xn, *x1, 0);
}

/* Rows [0, xn) of operand o between DRAM (rows from xrow) and a packed
 * SRAM slot of `cols` elements per row, over engines q[0] and q[1] (one
 * half each; q[1] < 0: all on q[0]); columns from c0. */
static void rows_xfer(dmm *m, int o, int store, const int *q, int xrow,
		      int xn, uint64_t local, int64_t c0, int64_t cols,
		      int64_t rstride_el)
{
	const npu_kval *v = &m->c->ir->v[m->K->ops[o].val];
	const npu_kopnd *P = &m->K->ops[o];
	int pe = npu_dtype_size(v->dtype), nd = m->K->ndim;
	int64_t cst = P->stride[nd - 1];    /* 0 for a per-row operand */
	int64_t rs = rstride_el * pe, rowb = cols * pe;
	int64_t h = q[1] >= 0 ? (m->mb + 1) / 2 : m->mb;
	int x1, x2, skip;

	halves(m, xn, h, &x1, &x2);
	xfer(m, q[0], store, dram_at(m, o, xrow, rs, c0 * cst * pe), local,
	     rowb, x1, rs, rowb);
	if (q[1] < 0)
		return;
	skip = npu_mlabel(m->f);
	npu_memit_br(m->f, NPU_OP_BEQ, x2, 0, skip);
	{
		/* the second half starts h rows further */
		int xr2 = npu_mx(m->f);
		if (xrow)
			npu_memit(m->f, NPU_OP_ADDI, xr2, xrow, 0, h);
		else
			npu_mli(m->f, xr2, h);
		xfer(m, q[1], store, dram_at(m, o, xr2, rs, c0 * cst * pe),
		     local + (uint64_t)(h * rowb), rowb, x2, rs, rowb);
	}
	npu_mbind(m->f, skip);
}

static int is_ab(const npu_kern *K, int o)
{
	return o == K->mm_a || o == K->mm_b;
}

static int64_t cols_of(const dmm *m, int j)
{
	return m->N - j * m->nb < m->nb ? m->N - j * m->nb : m->nb;
}

/* Elements per row of operand o's slots. */
static int64_t ocols(const dmm *m, int o)
{
	return m->g.rowop && m->g.rowop[o] ? 1 : m->nb;
}

/* Static operand o's slot for column block j (slotb[o][0]: the first). */
static uint64_t stat_slot(const dmm *m, int o, int j)
{
	int oe = npu_dtype_size(m->c->ir->v[m->K->ops[o].val].dtype);

	return m->g.slotb[o][0] + (uint64_t)(j * m->mb * ocols(m, o) * oe);
}

/* Block t (mod the period) of column block j: its slots. */
static void use_slots(dmm *m, int64_t t, int j)
{
	for (int o = 0; o < m->K->nops; o++)
		m->g.slot[o] = m->stat[o] ? stat_slot(m, o, j) : m->g.slotb[o][t & 1];
	m->g.accslot = m->accs[t % m->nacc];
}

/*
 * Epilogue inputs of block (rows from xrow, xn of them; column block j)
 * into slot s.  An input that is the same for every row (a bias) is
 * loaded once, in the first block row (first), into a slot per column
 * block, replicated over a block's rows (xbr).
 */
static void load_epi(dmm *m, int j, int64_t t, int xrow, int xn, int first)
{
	const npu_kern *K = m->K;
	int q[2] = { m->qe, -1 }, nd = K->ndim;

	if (!m->epi_loads)
		return;
	npu_memit(m->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + m->qe, DS_EFREE, 0, 0);
	for (int o = 0; o < K->nops; o++) {
		const npu_kopnd *P = &K->ops[o];
		int64_t cols = m->g.rowop && m->g.rowop[o] ? 1 : cols_of(m, j);
		if (is_ab(K, o) || P->out || !m->g.used[o] || (m->stat[o] && !first))
			continue;
		if (m->stat[o])
			rows_xfer(m, o, 0, q, 0, m->xbr, stat_slot(m, o, j),
				  j * m->nb, cols, 0);
		else
			rows_xfer(m, o, 0, q, xrow, xn, m->g.slotb[o][t & 1],
				  j * m->nb, cols, P->stride[nd - 2]);
	}
	npu_memit(m->f, NPU_OP_SIG, NPU_UNIT_DMA0 + m->qe, DS_ELD, 0, 0);
}

/* K column where A's second half starts (its engines split K, so that
 * the array can start on the first K slices when half of A is in). */
static int64_t a_split(const dmm *m)
{
	int64_t k = (m->KK / 2 + m->R - 1) / m->R * m->R;

	return m->qa2 >= 0 && k < m->KK ? k : m->KK;
}

/* The A panel of the block row starting at register xrow (xn rows) into
 * A slot s, K columns split over two engines. */
static void load_a(dmm *m, int s, int xrow, int xn)
{
	const npu_kopnd *A = &m->K->ops[m->K->mm_a];
	int q[2] = { m->qa, m->qa2 };
	int64_t cut[3] = { 0, a_split(m), m->KK }, rs = A->stride[1] * m->esz;

	for (int i = 0; i < 2; i++) {
		if (q[i] < 0)
			continue;
		npu_memit(m->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q[i], DS_AFREE + i, 0, 0);
		if (cut[i + 1] > cut[i])
			xfer(m, q[i], 0, dram_at(m, m->K->mm_a, xrow, rs, cut[i] * m->esz),
			     m->slotA[s] + (uint64_t)(cut[i] * m->esz),
			     (cut[i + 1] - cut[i]) * m->esz, xn, rs, m->KK * m->esz);
		npu_memit(m->f, NPU_OP_SIG, NPU_UNIT_DMA0 + q[i], DS_ALD + i, 0, 0);
	}
}

/* Weight panel j (B[K][j*nb ...]) into its place, packed [K][cols], its
 * K rows over every engine: only the first block row loads weights, and
 * there they are nearly all the DMA work. */
/* The SRAM of column block j's weight panel. */
static uint64_t bslot(const dmm *m, int j)
{
	if (m->pfall)
		return m->slotB0 + (uint64_t)(j * m->nb * m->esz);
	if (j == 0 && m->slotB0)
		return m->slotB0;
	return m->slotB + (uint64_t)(j * m->nb * m->KK * m->esz);
}

/* Elements per SRAM row of column block j's weight panel. */
static int64_t bld(const dmm *m, int j)
{
	return m->pfall ? m->N : cols_of(m, j);
}

static void load_b(dmm *m, int j)
{
	const npu_kopnd *W = &m->K->ops[m->K->mm_b];
	int64_t cols = cols_of(m, j);
	uint64_t local = bslot(m, j);
	int64_t rs = W->stride[1] * m->esz;

	for (int i = 0; i < m->nqw; i++) {
		int64_t k0 = i * m->KK / m->nqw, kn = (i + 1) * m->KK / m->nqw - k0;
		int xn = npu_mx(m->f);
		if (kn <= 0 || (m->pfin && (j == 0 || m->pfall)))
			continue;
		npu_mli(m->f, xn, kn);
		xfer(m, m->qw[i], 0,
		     dram_at(m, m->K->mm_b, 0, 0,
			     (k0 * W->stride[1] + j * m->nb * W->stride[2]) * m->esz),
		     local + (uint64_t)(k0 * cols * m->esz), cols * m->esz, xn,
		     rs, cols * m->esz);
	}
	for (int i = 0; i < m->nqw; i++)
		npu_memit(m->f, NPU_OP_SIG, NPU_UNIT_DMA0 + m->qw[i], DS_BLD + i, 0, 0);
}

/* An epilogue being emitted: block t (slots), its rows in register xn
 * (at most mb), the first of them in register xrow, column block j. */
typedef struct epi {
	int on;
	int64_t t;
	int j, xn, xrow;
	int64_t done, pr;            /* rows emitted, rows per part */
} epi;

/*
 * Rows per epilogue part: np parts per block, and since any block may
 * have fewer rows than mb (the rows are spread over the blocks at run
 * time), parts short enough that little is computed past its rows, but
 * of at least four vector chunks (the template interleaves four: fewer
 * stall on the vector unit's latencies).
 */
static int64_t part_rows(const dmm *m, const epi *E, int64_t np)
{
	int64_t pr = (m->mb + np - 1) / np, nn = cols_of(m, E->j);
	int64_t fine = (4 * m->c->t->vlen + nn - 1) / nn;

	if (fine < pr)
		pr = fine;
	return pr > 0 ? pr : 1;
}

/*
 * Column chunks of column block j when it is the last (emit_mm.c,
 * last_cols): the kernel ends with its epilogue and store, which then
 * start chunk by chunk while the array works on the next (mlp_dynamic:
 * as its specialized program does).  Not with per-row operands or row
 * reductions; 0: not chunked.
 */
static int64_t dchunks(const dmm *m, int j)
{
	if (j != m->nbn - 1 || m->nst < 2 || m->K->mm_glu)
		return 0;
	return npu_mm_chunks(&m->g, m->K, cols_of(m, j));
}

/* Waits for block E (all its chunks: dchunks), its inputs and slots. */
static void epi_begin(dmm *m, epi *E)
{
	npu_mfunc *f = m->f;
	int64_t nc = dchunks(m, E->j);

	for (int64_t c = 0; c < (nc ? nc : 1); c++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, DS_MMD, 0, 0);
	if (m->epi_loads)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, DS_ELD, 0, 0);
	for (int h = 0; h < m->nst; h++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, DS_ST + h, 0, 0);
	E->done = 0;
}

/* Epilogue rows [done, upto): row groups of pr, each skipped when it
 * starts past the bound rows. */
static void epi_rows(dmm *m, epi *E, int64_t upto)
{
	npu_mfunc *f = m->f;
	const npu_kern *K = m->K;
	int64_t nn = cols_of(m, E->j);

	while (E->done < upto && E->done < m->mb) {
		int64_t r0 = E->done, rn = m->mb - r0 < E->pr ? m->mb - r0 : E->pr;
		int skip = -1;
		uint64_t save[64], acc;
		if (r0) {
			int xt = npu_mx(f);
			skip = npu_mlabel(f);
			npu_mli(f, xt, r0);
			npu_memit_br(f, NPU_OP_BGE, xt, E->xn, skip);
		}
		use_slots(m, E->t, E->j);
		acc = m->g.accslot;
		for (int o = 0; o < K->nops && o < 64; o++) {
			int64_t el = m->g.rowop && m->g.rowop[o] ? r0 : r0 * nn;
			save[o] = m->g.slot[o];
			m->g.slot[o] += (uint64_t)(el * npu_dtype_size(m->c->ir->v[K->ops[o].val].dtype));
		}
		m->g.accslot = acc + (uint64_t)(r0 * nn * 4);
		memset(m->g.xrowc, 0, sizeof m->g.xrowc);
		if (m->g.rowop)
			npu_emit_rows(&m->g, rn, nn);
		else
			npu_emit_row(&m->g, rn * nn);
		for (int o = 0; o < K->nops && o < 64; o++)
			m->g.slot[o] = save[o];
		if (skip >= 0)
			npu_mbind(f, skip);
		E->done += rn;
	}
}

/* The rest of the epilogue, the hand-offs and the store. */
static void epi_end(dmm *m, epi *E)
{
	npu_mfunc *f = m->f;
	const npu_kern *K = m->K;
	int nd = K->ndim;

	epi_rows(m, E, m->mb);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, DS_ACCF, 0, 0);
	if (m->epi_loads)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, DS_EFREE, 0, 0);
	for (int h = 0; h < m->nst; h++) {
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, DS_CMP + h, 0, 0);
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + m->qs[h], DS_CMP + h, 0, 0);
	}
	for (int o = 0; o < K->nops; o++) {
		const npu_kopnd *P = &K->ops[o];
		if (!P->out)
			continue;
		rows_xfer(m, o, 1, m->qs, E->xrow, E->xn, m->g.slotb[o][E->t & 1],
			  E->j * m->nb, cols_of(m, E->j), P->stride[nd - 2]);
	}
	for (int h = 0; h < m->nst; h++)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + m->qs[h], DS_ST + h, 0, 0);
	E->on = 0;
}

/*
 * The kernel's last block, E, in column chunks (dchunks): each chunk's
 * epilogue once it is accumulated, rows in groups of four skipped past
 * the block's rows, then its store, alternately on the two store
 * engines.
 */
static void epi_chunks(dmm *m, epi *E)
{
	npu_mfunc *f = m->f;
	const npu_kern *K = m->K;
	int64_t nc = dchunks(m, E->j), nn = cols_of(m, E->j), C = m->C;
	int nd = K->ndim, n = K->nops < 64 ? K->nops : 64;
	uint64_t save[64], acc;

	if (m->epi_loads)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, DS_ELD, 0, 0);
	for (int h = 0; h < m->nst; h++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, DS_ST + h, 0, 0);
	use_slots(m, E->t, E->j);
	acc = m->g.accslot;
	for (int o = 0; o < n; o++)
		save[o] = m->g.slot[o];
	for (int64_t c = 0; c < nc; c++) {
		int64_t c0 = c * C, cl = nn - c0 < C ? nn - c0 : C;
		int q = m->qs[c & 1], sem = DS_CMP + (int)(c & 1);
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, DS_MMD, 0, 0);
		for (int64_t r0 = 0; r0 < m->mb; r0 += 4) {
			int skip = -1;
			if (r0) {
				int xt = npu_mx(f);
				skip = npu_mlabel(f);
				npu_mli(f, xt, r0);
				npu_memit_br(f, NPU_OP_BGE, xt, E->xn, skip);
			}
			npu_mm_cols(&m->g, K, save, acc, r0, m->mb - r0 < 4 ?
				    (int)(m->mb - r0) : 4, nn, nn, c0, cl);
			if (skip >= 0)
				npu_mbind(f, skip);
		}
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, sem, 0, 0);
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, sem, 0, 0);
		for (int o = 0; o < n; o++) {
			const npu_kopnd *P = &K->ops[o];
			int pe = npu_dtype_size(m->c->ir->v[P->val].dtype);
			int64_t rs = P->stride[nd - 2] * pe;
			if (!P->out)
				continue;
			xfer(m, q, 1, dram_at(m, o, E->xrow, rs, (E->j * m->nb + c0) * pe),
			     save[o] + (uint64_t)(c0 * pe), cl * pe, E->xn, rs, nn * pe);
		}
	}
	for (int o = 0; o < n; o++)
		m->g.slot[o] = save[o];
	m->g.accslot = acc;
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, DS_ACCF, 0, 0);
	if (m->epi_loads)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, DS_EFREE, 0, 0);
	for (int h = 0; h < m->nst; h++)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + m->qs[h], DS_ST + h, 0, 0);
	E->on = 0;
}

/* Matrix work of block (A slot sa, column block j, accumulator of t),
 * with epilogue E interleaved. */
static void matrix(dmm *m, int sa, int j, int64_t t, int first, epi *E)
{
	npu_mfunc *f = m->f;
	int64_t nn = cols_of(m, j), KK = m->KK;
	int64_t ks = (KK + m->R - 1) / m->R, ncol = (nn + m->C - 1) / m->C;
	int64_t pairs = ks * ncol, nc = dchunks(m, j);
	int64_t lead = pairs - 1 < 8 ? pairs - 1 : 8, pi = 0, lastk = -1, lastn = -1;
	uint64_t pb = bslot(m, j);
	uint64_t acc = m->accs[t % m->nacc];
	int wa = j == 0 ? 0 : 2, wb = first ? 0 : m->nqw;  /* next to wait */

	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, DS_ACCF, 0, 0);
	if (E->on) {
		E->pr = part_rows(m, E, pairs < 16 ? pairs : 16);
		epi_begin(m, E);
	}
	/* by K slice, then columns; in chunks (dchunks), by column, then
	 * K slice, each column's accumulation signalled */
	for (int64_t si = 0; si < pairs; si++) {
			int64_t k0 = (nc ? si % ks : si / ncol) * m->R;
			int64_t n0 = (nc ? si / ks : si % ncol) * m->C;
			int64_t kt = KK - k0 < m->R ? KK - k0 : m->R;
			int64_t ntl = nn - n0 < m->C ? nn - n0 : m->C;
			int xa = npu_mx(f), xb = npu_mx(f);
			/* the A half and weight parts this K slice reads */
			for (; wa < 2 && (wa ? a_split(m) : 0) < k0 + kt; wa++)
				if (wa == 0 || m->qa2 >= 0)
					npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, DS_ALD + wa, 0, 0);
			for (; wb < m->nqw && wb * KK / m->nqw < k0 + kt; wb++)
				npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, DS_BLD + wb, 0, 0);
			if (kt != lastk || ntl != lastn) {
				int x1 = npu_mx(f), x2 = npu_mx(f);
				npu_mli(f, x1, kt);
				npu_mli(f, x2, ntl);
				npu_memit(f, NPU_OP_MCFG, x1, x2, m->dt, 0);
				x1 = npu_mx(f);
				x2 = npu_mx(f);
				npu_mli(f, x1, KK * m->esz);
				npu_mli(f, x2, nn * 4);
				npu_memit(f, NPU_OP_MSTRIDE, x1, x2, 0, 0);
				lastk = kt;
				lastn = ntl;
			}
			npu_mli(f, xa, (int64_t)(pb + (uint64_t)((k0 * bld(m, j) + n0) * m->esz)));
			npu_mli(f, xb, bld(m, j) * m->esz);
			npu_memit(f, NPU_OP_MLDW, xa, xb, 0, 0);
			xa = npu_mx(f);
			xb = npu_mx(f);
			npu_mli(f, xa, (int64_t)(m->slotA[sa] + (uint64_t)(k0 * m->esz)));
			npu_mli(f, xb, (int64_t)(acc + (uint64_t)(n0 * 4)));
			npu_memit(f, NPU_OP_MMAC, xa, xb, m->xrn, k0 ? NPU_MMAC_ACC : 0);
			pi++;
			if (nc && si % ks == ks - 1)
				npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, DS_MMD, 0, 0);
			/* the epilogue of the block before, spread over the
			 * pairs once the array's queue holds work (emit_mm.c) */
			if (E->on && pi > lead)
				epi_rows(m, E, (pi - lead) * m->mb / (pairs - lead));
		}
	/* an A half or weight part no K slice read (a short K): its signal
	 * still wants its wait */
	for (; wa < 2; wa++)
		if (wa == 0 || m->qa2 >= 0)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, DS_ALD + wa, 0, 0);
	for (; wb < m->nqw; wb++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, DS_BLD + wb, 0, 0);
	if (!nc)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, DS_MMD, 0, 0);
	if (j == m->nbn - 1)
		for (int i = 0; i < (m->qa2 >= 0 ? 2 : 1); i++)
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_MXU, DS_AFREE + i, 0, 0);
}

/* The rows of the next block row: first row in *xr1, count in *xn1, and
 * a label jumped to when there is none (bound by the caller). */
static int next_row(dmm *m, int *xr1, int *xn1)
{
	npu_mfunc *f = m->f;
	int none = npu_mlabel(f);

	*xr1 = npu_mx(f);
	*xn1 = npu_mx(f);
	npu_memit(f, NPU_OP_ADD, *xr1, m->xm0, m->xbr, 0);
	npu_memit_br(f, NPU_OP_BGE, *xr1, m->xR, none);
	npu_memit(f, NPU_OP_SUB, *xn1, m->xR, *xr1, 0);
	npu_memit(f, NPU_OP_MIN, *xn1, *xn1, m->xbr, 0);
	return none;
}

/* The next kernel's first weight panel, on the A engines, once the
 * first block row has queued the loads of this kernel's whole weight
 * (each column block has its own slot: none waits for the array), so
 * that it overlaps this kernel's work, not follows it. */
static void prefetch_next(dmm *m)
{
	int pq[2] = { m->qa, m->qa2 };

	npu_emit_pf(&m->g, m->c->pfnext, pq, m->qa2 >= 0 ? 2 : 1, m->top);
}

/*
 * One block row in phase p (its index mod U): blocks t = p * nbn + j.
 * first: the row that loads the weight panels (p = 0).  The epilogue of
 * the block before this row's first (the last of the row before, xbr
 * rows: only the last row may have fewer) runs during its matrix work.
 */
static void row_body(dmm *m, int64_t p, int first)
{
	npu_mfunc *f = m->f;
	int64_t per = m->U * m->nbn;
	epi E = { 0 };

	if (!first) {
		int xprev = npu_mx(f);
		npu_memit(f, NPU_OP_SUB, xprev, m->xm0, m->xbr, 0);
		E.on = 1;
		E.t = (p * m->nbn + per - 1) % per;
		E.j = (int)m->nbn - 1;
		E.xn = m->xbr;
		E.xrow = xprev;
	}
	for (int j = 0; j < m->nbn; j++) {
		int64_t t = p * m->nbn + j;
		/* loads of block t + 1 */
		if (j + 1 < m->nbn) {
			if (first)
				load_b(m, j + 1);
			/* block 0's epilogue inputs after block 1's weight: qe
			 * loads a weight part too, which the array wants first */
			if (first && j == 0)
				load_epi(m, 0, 0, 0, m->xrn, 1);
			if (first && j + 2 == m->nbn)
				prefetch_next(m);
			load_epi(m, j + 1, t + 1, m->xm0, m->xrn, first);
		} else {
			int xr1, xn1, none = next_row(m, &xr1, &xn1);
			load_a(m, (int)((p + 1) & 1), xr1, xn1);
			load_epi(m, 0, (t + 1) % per, xr1, xn1, 0);
			npu_mbind(f, none);
		}
		matrix(m, (int)(p & 1), j, t, first, &E);
		if (E.on)
			epi_end(m, &E);
		E.on = 1;
		E.t = t;
		E.j = j;
		E.xn = m->xrn;
		E.xrow = m->xm0;
	}
}

/* The period of the slot parities over block rows: A slots alternate per
 * row, epilogue slots per block, accumulator regions every nacc blocks. */
static int64_t period(int64_t nbn, int nacc)
{
	for (int64_t u = 2;; u += 2)
		if (u * nbn % nacc == 0)
			return u;
}

/* The next slot of `bytes` at *addr; bank-aligned when bk (a bank's
 * bytes) is not 0. */
static uint64_t take(uint64_t *addr, uint64_t bytes, uint64_t bk)
{
	uint64_t a = *addr;

	if (bk)
		a = (a + bk - 1) / bk * bk;
	*addr = a + ((bytes + 63) & ~63ull);
	return a;
}

/*
 * SRAM and accumulator places; 0 when they fit.  A bank serves one unit
 * at a time, so every slot starts a bank of its own when SRAM has the
 * room (the A panel loads, the weight reads of the array, the vector
 * unit's epilogue and the stores then never share one); else packed.
 */
static int place(dmm *m)
{
	const npu_kern *K = m->K;
	const npu_target *t = m->c->t;
	uint64_t acc1, bk = npu_target_bank_bytes(t);
	uint64_t room = t->sram_bytes - NPU_SPILL_BYTES;

	for (int pass = 0; pass < 2; pass++, bk = 0) {
		uint64_t addr = 0;
		for (int s = 0; s < 2; s++)
			m->slotA[s] = take(&addr, (uint64_t)(m->mb * m->KK * m->esz), bk);
		m->slotB = take(&addr, (uint64_t)(m->KK * m->nbn * m->nb * m->esz), bk);
		for (int o = 0; o < K->nops; o++) {
			int oe;
			uint64_t b;
			if (is_ab(K, o))
				continue;
			oe = npu_dtype_size(m->c->ir->v[K->ops[o].val].dtype);
			b = (uint64_t)(m->mb * ocols(m, o) * oe);
			if (m->stat[o])
				m->g.slotb[o][0] = take(&addr, (uint64_t)m->nbn * b, bk);
			else
				for (int s = 0; s < 2; s++)
					m->g.slotb[o][s] = take(&addr, b, bk);
			if (!K->ops[o].out && m->g.used[o])
				m->epi_loads = 1;
		}
		m->top = addr;
		if (addr <= room)
			break;
		if (!bk)
			return 1;
	}
	acc1 = ((uint64_t)(m->mb * m->nb * 4) + 63) & ~63ull;
	m->nacc = 3 * acc1 <= t->acc_bytes ? 3 : 2;
	if (2 * acc1 > t->acc_bytes)
		return 1;
	/* three regions only where they keep the unrolled body short */
	if (m->nacc == 3 && m->nbn % 3)
		m->nacc = 2;
	for (int i = 0; i < 3; i++)
		m->accs[i] = NPU_ACC_BASE + (uint64_t)i * acc1;
	return 0;
}

/* What the loop cannot take: emit_mm.c's other forms. */
static int supported(const npu_emitctx *c, const npu_kern *K)
{
	int nd = K->ndim;

	if (K->kind != NPU_KK_MM || K->cv || nd != 2 || K->mm_batch != 1 ||
	    K->mm_alo >= 0 || K->mm_blo >= 0 || K->ops[K->mm_a].kseg ||
	    c->ir->v[K->ops[K->mm_a].val].dtype != K->mm_dtype ||
	    K->ops[K->mm_a].stride[2] != 1 || K->ops[K->mm_b].stride[2] != 1)
		return 0;
	for (int o = 0; o < K->nops; o++)
		if (!is_ab(K, o) && K->ops[o].stride[nd - 1] != 1 &&
		    K->ops[o].stride[nd - 1] != 0)
			return 0;
	return K->nops <= 64;
}

static void rowops(dmm *m)
{
	const npu_kern *K = m->K;
	int any = 0;

	for (int o = 0; o < K->nops; o++)
		if (!is_ab(K, o) && !K->ops[o].out &&
		    K->ops[o].stride[K->ndim - 1] == 0 && m->g.used[o])
			any = m->g.rowop[o] = 1;
	if (any) {
		npu_emit_level(K, m->g.lv, m->g.rowop);
	} else {
		free(m->g.rowop);
		m->g.rowop = NULL;
	}
}

static void seed(dmm *m, int sem, int n)
{
	for (int i = 0; i < n; i++)
		npu_memit(m->f, NPU_OP_SIG, NPU_UNIT_SCL, sem, 0, 0);
}

static void drain(dmm *m, int unit, int sem, int n)
{
	for (int i = 0; i < n; i++)
		npu_memit(m->f, NPU_OP_WAIT, unit, sem, 0, 0);
}

/* n credits of sem for its consumer unit: given at the start (end 0),
 * taken back at the end (end 1). */
static void credit(dmm *m, int end, int unit, int sem, int n)
{
	if (end)
		drain(m, unit, sem, n);
	else
		seed(m, sem, n);
}

/* Every slot's credits: two per double-buffered slot, nacc regions. */
static void credits(dmm *m, int end)
{
	credit(m, end, NPU_UNIT_DMA0 + m->qa, DS_AFREE, 2);
	if (m->qa2 >= 0)
		credit(m, end, NPU_UNIT_DMA0 + m->qa2, DS_AFREE + 1, 2);
	if (m->epi_loads)
		credit(m, end, NPU_UNIT_DMA0 + m->qe, DS_EFREE, 2);
	credit(m, end, NPU_UNIT_MXU, DS_ACCF, m->nacc);
	for (int h = 0; h < m->nst; h++)
		credit(m, end, NPU_UNIT_VEC, DS_ST + h, 2);
}

/* Every unit signals the scalar unit once its work (and drain) is done. */
static void finish(dmm *m)
{
	int E = m->c->t->dma_engines;

	credits(m, 1);
	for (int q = 0; q < E; q++) {
		/* an A engine that took the next kernel's weight panel: the
		 * array waited for each of its loads, and the panel is the
		 * next kernel's to wait for (SEM_PF) */
		if (m->c->pfnext && m->c->pfnext->issued && (q == m->qa || q == m->qa2))
			continue;
		npu_memit(m->f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, DS_END, 0, 0);
		npu_memit(m->f, NPU_OP_WAIT, NPU_UNIT_SCL, DS_END, 0, 0);
	}
	npu_memit(m->f, NPU_OP_SIG, NPU_UNIT_VEC, DS_END, 0, 0);
	npu_memit(m->f, NPU_OP_WAIT, NPU_UNIT_SCL, DS_END, 0, 0);
	npu_memit(m->f, NPU_OP_SIG, NPU_UNIT_MXU, DS_END, 0, 0);
	npu_memit(m->f, NPU_OP_WAIT, NPU_UNIT_SCL, DS_END, 0, 0);
}

/* Advances xm0 to the next block row; jumps to `last` when there is none. */
static void advance(dmm *m, int last)
{
	npu_mfunc *f = m->f;
	int x = npu_mx(f);

	npu_memit(f, NPU_OP_ADD, x, m->xm0, m->xbr, 0);
	npu_memit_br(f, NPU_OP_BGE, x, m->xR, last);
	npu_memit(f, NPU_OP_MOV, m->xm0, x, 0, 0);
	npu_memit(f, NPU_OP_SUB, m->xrn, m->xR, m->xm0, 0);
	npu_memit(f, NPU_OP_MIN, m->xrn, m->xrn, m->xbr, 0);
}

static void setup_engines(dmm *m)
{
	int E = m->c->t->dma_engines;

	m->qa = 0;
	m->qe = E > 1 ? 1 : 0; /* 1: no A */
	m->qa2 = E >= 4 ? 2 : -1;
	m->qs[0] = E - 1;
	/* not an A engine: the next kernel's weight panel goes there
	 * (prefetch_next), and a store would queue behind it */
	m->qs[1] = E >= 4 ? 1 : -1;
	m->nst = m->qs[1] >= 0 ? 2 : 1;
	m->nqw = E < 4 ? E : 4;
	/* the first K rows on the engines that load no A: the array starts
	 * on them (engines 0 and 2 load A's halves first) */
	for (int i = 0; i < m->nqw; i++)
		m->qw[i] = E >= 4 ? (int[]){ 1, 3, 0, 2 }[i] : (i + 1) % m->nqw;
}

static void emit_loop(dmm *m)
{
	npu_mfunc *f = m->f;
	int tails[64], top, end, xmb;

	m->xm0 = npu_mx(f);
	m->xrn = npu_mx(f);
	m->xbr = npu_mx(f);
	xmb = npu_mx(f);
	credits(m, 0);
	/* the weight loaded while the kernel before ran (npu_pfplan) */
	for (int i = 0; m->c->pf && m->c->pf->issued && i < m->c->pf->neng; i++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, SEM_PF, 0, 0);
	npu_memit(f, NPU_OP_LI, m->xm0, 0, 0, 0);
	/* ceil(R / ceil(R / mb)) rows per block row: R = 65 with mb = 64
	 * runs 33 + 32 rows, not 64 + 1, whose lone row would wait for the
	 * whole pipeline */
	npu_mli(f, xmb, m->mb);
	npu_memit(f, NPU_OP_ADD, m->xbr, m->xR, xmb, 0);
	npu_memit(f, NPU_OP_ADDI, m->xbr, m->xbr, 0, -1);
	npu_memit(f, NPU_OP_DIV, m->xbr, m->xbr, xmb, 0);     /* block rows */
	npu_memit(f, NPU_OP_ADD, m->xrn, m->xR, m->xbr, 0);
	npu_memit(f, NPU_OP_ADDI, m->xrn, m->xrn, 0, -1);
	npu_memit(f, NPU_OP_DIV, m->xbr, m->xrn, m->xbr, 0);
	npu_memit(f, NPU_OP_MOV, m->xrn, m->xbr, 0, 0);
	load_a(m, 0, 0, m->xrn);
	load_b(m, 0);
	if (m->nbn == 1) {
		load_epi(m, 0, 0, 0, m->xrn, 1);
		prefetch_next(m);
	}
	for (int64_t p = 0; p < m->U; p++)
		tails[p] = npu_mlabel(f);
	end = npu_mlabel(f);
	top = npu_mlabel(f);
	row_body(m, 0, 1);
	advance(m, tails[0]);
	npu_mbind(f, top);
	for (int64_t p = 1; p <= m->U; p++) {
		row_body(m, p % m->U, 0);
		advance(m, tails[p % m->U]);
	}
	npu_memit_br(f, NPU_OP_JMP, 0, 0, top);
	/* the last block row's last block: epilogue and store */
	for (int64_t p = 0; p < m->U; p++) {
		epi E = { 0 };
		npu_mbind(f, tails[p]);
		E.on = 1;
		E.t = p * m->nbn + m->nbn - 1;
		E.j = (int)m->nbn - 1;
		E.xn = m->xrn;
		E.xrow = m->xm0;
		E.pr = part_rows(m, &E, 16);
		if (dchunks(m, E.j)) {
			epi_chunks(m, &E);
		} else {
			epi_begin(m, &E);
			epi_end(m, &E);
		}
		npu_memit_br(f, NPU_OP_JMP, 0, 0, end);
	}
	npu_mbind(f, end);
	finish(m);
}

int npu_emit_dynmm(const npu_emitctx *c, int k, int xrows, npu_mfunc *f,
		   npu_err *e)
{
	const npu_kern *K = &c->ir->k[k];
	dmm m;
	int rc = 1;
	int at;

	if (!supported(c, K))
		return 1;
	memset(&m, 0, sizeof m);
	m.c = c;
	m.K = K;
	m.f = f;
	m.dt = K->mm_dtype;
	m.esz = npu_dtype_size(m.dt);
	m.KK = K->mm_k;
	m.N = K->mm_n;
	m.R = c->t->mxu_rows;
	m.C = c->t->mxu_cols;
	m.mb = K->kn.tile_m > 0 && K->kn.tile_m < K->mm_m ? K->kn.tile_m : K->mm_m;
	m.nb = K->kn.tile_n > 0 && K->kn.tile_n < m.N ? K->kn.tile_n : m.N;
	m.nbn = (m.N + m.nb - 1) / m.nb;
	setup_engines(&m);
	at = f->n;
	if (npu_emit_setup(&m.g, c, k, f) < 0) {
		rc = npu_errf(e, "out of memory");
		goto out;
	}
	if (!(m.g.rowop = calloc((size_t)K->nops + 1, sizeof *m.g.rowop))) {
		rc = npu_errf(e, "out of memory");
		goto out;
	}
	rowops(&m);
	if (!(m.stat = calloc((size_t)K->nops + 1, sizeof *m.stat))) {
		rc = npu_errf(e, "out of memory");
		goto out;
	}
	for (int o = 0; o < K->nops; o++)
		m.stat[o] = !is_ab(K, o) && !K->ops[o].out &&
			    !K->ops[o].stride[K->ndim - 2] &&
			    !rel_of(&m, dram_of(&m, o));
	if (place(&m))
		goto undo;
	m.U = period(m.nbn, m.nacc);
	if (m.U > 64)
		goto undo;
	/* column block 0's weight panel where the kernel before loaded it
	 * (npu_pfplan), or, when it could not, loaded there as the others */
	if (c->pf && c->pf->on && c->pf->rows == m.KK && c->pf->esz == m.esz &&
	    (c->pf->cols == cols_of(&m, 0) || c->pf->cols == m.N) &&
	    m.top <= c->pf->local) {
		m.slotB0 = c->pf->local;
		m.pfin = c->pf->issued;
		m.pfall = c->pf->issued && c->pf->cols == m.N;
	}
	m.xR = xrows;
	emit_loop(&m);
	rc = f->oom ? npu_errf(e, "out of memory") : 0;
	goto out;
undo:
	f->n = at; /* nothing emitted: the caller takes another way */
out:
	free(m.stat);
	npu_emit_cleanup(&m.g);
	return rc;
}

/* ----------------------------------------------------------------- */
/* Row kernels */

/*
 * A row kernel over run-time rows, in one execution: tiles of tm rows
 * (the last partial), each loaded, computed row by row in a run-time
 * loop and stored, with the loads of tile t+1 ahead of the compute of
 * tile t as in emit.c; slots are credits as above.  A static operand
 * (the same row for every row: a weight) is loaded once.
 */
enum {
	RS_LD = 0,       /* + engine: tile loaded (DMA -> vec) */
	RS_FREE = 4,     /* + engine: input slot free (vec -> DMA), 2 credits */
	RS_CMP = 8,      /* tile computed (vec -> store engine) */
	RS_ST = 9,       /* output slot stored (store engine -> vec), 2 */
	RS_W = 10,       /* static operands loaded (DMA -> vec) */
	RS_END = 11,
	RS_CMP2 = 12     /* last tile computed (vec -> spare engine) */
};

typedef struct drow {
	dmm m;                       /* the shared parts: c, K, f, g, rows */
	int64_t tm, cols;
	int nld, steng, used_eng[4];
	int ldeng[64], stat[64];     /* per operand: engine; loaded once */
	int ldeng2[64];              /* per operand: a second engine, or -1 */
	int ldeng1[64];              /* ... for the first tile */
	int pro_only[4];             /* engines only the first tile's loads use */
	int spare;                   /* an engine the loop loads nothing on */
	int done;                    /* label after a tile's store */
	int64_t ocols[64];           /* per operand: elements per row in SRAM */
} drow;

/* Rows [xrow, xrow + xn) of operand o between DRAM and slot local (a
 * load, or a store when store): the first ceil(xn / 2) on engine q1, the
 * rest on q2 (tiles spread over the engines, as emit.c spreads them). */
static void split_xfer(drow *r, int o, int store, int q1, int q2, int xrow,
		       int xn, uint64_t local)
{
	dmm *m = &r->m;
	npu_mfunc *f = m->f;
	int pe = npu_dtype_size(m->c->ir->v[m->K->ops[o].val].dtype);
	int64_t rs = m->g.st[o][0] * pe, rowb = r->ocols[o] * pe;
	int x1 = npu_mx(f), x2 = npu_mx(f), xr2 = npu_mx(f), xl = npu_mx(f);
	int xb = npu_mx(f), xd, skip = npu_mlabel(f);

	npu_memit(f, NPU_OP_ADDI, x1, xn, 0, 1);
	npu_memit(f, NPU_OP_SHRI, x1, x1, 0, 1);
	npu_memit(f, NPU_OP_SUB, x2, xn, x1, 0);
	xfer(m, q1, store, dram_at(m, o, xrow, rs, 0), local, rowb, x1, rs, rowb);
	npu_memit_br(f, NPU_OP_BEQ, x2, 0, skip);
	if (xrow)
		npu_memit(f, NPU_OP_ADD, xr2, xrow, x1, 0);
	else
		npu_memit(f, NPU_OP_MOV, xr2, x1, 0, 0);
	/* the second half's SRAM rows start x1 rows into the slot */
	npu_memit(f, NPU_OP_MULI, xl, x1, 0, rowb);
	npu_mli(f, xb, (int64_t)local);
	npu_memit(f, NPU_OP_ADD, xl, xl, xb, 0);
	xd = dram_at(m, o, xr2, rs, 0);
	npu_memit(f, NPU_OP_DCFGI, q2, NPU_DF_ROWB, 0, rowb);
	npu_memit(f, NPU_OP_DCFG, q2, NPU_DF_N1, x2, 0);
	npu_memit(f, NPU_OP_DCFGI, q2, store ? NPU_DF_SS1 : NPU_DF_DS1, 0, rowb);
	npu_memit(f, NPU_OP_DCFGI, q2, store ? NPU_DF_DS1 : NPU_DF_SS1, 0, rs);
	npu_memit(f, NPU_OP_DCFGI, q2, NPU_DF_N2, 0, 1);
	if (store)
		npu_memit(f, NPU_OP_DST, q2, xd, xl, 0);
	else
		npu_memit(f, NPU_OP_DLD, q2, xl, xd, 0);
	npu_mbind(f, skip);
}

/* Loads (store 0) or stores of the tile in slot s, rows from xrow;
 * first: the first tile's loads (ldeng1). */
static void row_io(drow *r, int s, int store, int xrow, int xn, int first)
{
	dmm *m = &r->m;
	const npu_kern *K = m->K;

	for (int o = 0; o < K->nops; o++) {
		int pe = npu_dtype_size(m->c->ir->v[K->ops[o].val].dtype);
		int q = store ? r->steng : r->ldeng[o];
		int q2 = first ? r->ldeng1[o] : r->ldeng2[o];
		if (K->ops[o].out != store || r->stat[o] ||
		    (!store && !m->g.used[o]))
			continue;
		if (!store && q2 >= 0) {
			split_xfer(r, o, 0, q, q2, xrow, xn, m->g.slotb[o][s]);
			continue;
		}
		xfer(m, q, store, dram_at(m, o, xrow, m->g.st[o][0] * pe, 0),
		     m->g.slotb[o][s], r->ocols[o] * pe, xn,
		     m->g.st[o][0] * pe, r->ocols[o] * pe);
	}
}

/* The next tile's loads, into slot s, when there is a next tile. */
static void row_next(drow *r, int s)
{
	dmm *m = &r->m;
	int xr1, xn1, none = next_row(m, &xr1, &xn1);

	for (int q = 0; q < r->nld; q++)
		if (r->used_eng[q])
			npu_memit(m->f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, RS_FREE + q, 0, 0);
	row_io(r, s, 0, xr1, xn1, 0);
	for (int q = 0; q < r->nld; q++)
		if (r->used_eng[q])
			npu_memit(m->f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, RS_LD + q, 0, 0);
	npu_mbind(m->f, none);
}

/* The rows of the tile (xrn): a row kernel row by row, npu_emit_rows_ilv
 * with the count in a register; an elementwise one as one run of
 * elements. */
static void row_compute(drow *r)
{
	dmm *m = &r->m;
	npu_mfunc *f = m->f;

	if (m->K->kind == NPU_KK_EW) {
		int xe = npu_mx(f), xcols = npu_mx(f);
		npu_mli(f, xcols, r->cols);
		npu_memit(f, NPU_OP_MUL, xe, m->xrn, xcols, 0);
		npu_emit_row_x(&m->g, xe);
		return;
	}
	npu_emit_rows_ilv(&m->g, -1, m->xrn, r->cols);
}

static void last_store(drow *r, int s);

/* Compute and store of the tile in slot s (xrn rows from xm0). */
static void row_tile(drow *r, int s)
{
	dmm *m = &r->m;
	npu_mfunc *f = m->f;
	emit_t *g = &m->g;

	for (int q = 0; q < r->nld; q++)
		if (r->used_eng[q])
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, RS_LD + q, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, RS_ST, 0, 0);
	for (int o = 0; o < m->K->nops; o++)
		g->slot[o] = g->slotb[o][r->stat[o] ? 0 : s];
	row_compute(r);
	for (int q = 0; q < r->nld; q++)
		if (r->used_eng[q])
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, RS_FREE + q, 0, 0);
	if (r->spare >= 0)
		last_store(r, s);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, RS_CMP, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + r->steng, RS_CMP, 0, 0);
	row_io(r, s, 1, m->xm0, m->xrn, 0);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + r->steng, RS_ST, 0, 0);
	if (r->spare >= 0)
		npu_mbind(f, r->done);
}

/*
 * The last tile's store, half on the spare engine (nothing is loaded
 * after it), as emit.c spreads the last tile's stores; other tiles take
 * the plain store after it (the branch skips this).  Ends with a jump
 * past the plain store, to r->done.
 */
static void last_store(drow *r, int s)
{
	dmm *m = &r->m;
	npu_mfunc *f = m->f;
	int x = npu_mx(f), plain = npu_mlabel(f);

	r->done = npu_mlabel(f);
	npu_memit(f, NPU_OP_ADD, x, m->xm0, m->xrn, 0);
	npu_memit_br(f, NPU_OP_BLT, x, m->xR, plain);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, RS_CMP, 0, 0);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, RS_CMP2, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + r->steng, RS_CMP, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + r->spare, RS_CMP2, 0, 0);
	for (int o = 0; o < m->K->nops; o++)
		if (m->K->ops[o].out)
			split_xfer(r, o, 1, r->steng, r->spare, m->xm0, m->xrn,
				   m->g.slotb[o][s]);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + r->steng, RS_ST, 0, 0);
	npu_memit_br(f, NPU_OP_JMP, 0, 0, r->done);
	npu_mbind(f, plain);
}

/* Elements per elementwise tile (emit.c folds planes up to this). */
#define EW_TILE 32768

/* An elementwise kernel as [rows][cols]: its dims after the rows merged
 * when every operand is contiguous across them; 0 when they are. */
static int ew_dims(drow *r)
{
	const npu_kern *K = r->m.K;
	emit_t *g = &r->m.g;

	if (K->ndim < 2)
		return 1;
	g->q = 2;
	g->n[0] = K->shape[0];
	g->n[1] = K->shape[K->ndim - 1];
	for (int o = 0; o < K->nops; o++) {
		g->st[o][0] = K->ops[o].stride[0];
		g->st[o][1] = K->ops[o].stride[K->ndim - 1];
	}
	for (int d = K->ndim - 2; d >= 1; d--) {
		for (int o = 0; o < K->nops; o++)
			if (K->ops[o].stride[d] != g->st[o][1] * g->n[1])
				return 1;
		g->n[1] *= K->shape[d];
	}
	return 0;
}

/*
 * An elementwise kernel's n streamed operands load each tile's second
 * half on a second engine (i + n) when there are engines for it, as
 * emit.c spreads its tiles.  The first tile's loads may also take the
 * store engine, idle until that tile is computed: ldeng1 are those
 * engines, pro_only the ones that load nothing else (the later tiles'
 * slot credits do not involve them).
 */
static void spread_loads(drow *r, int n)
{
	const npu_kern *K = r->m.K;
	int E = r->m.c->t->dma_engines, loop = 2 * n <= r->nld;

	if (K->kind != NPU_KK_EW || !n || 2 * n > (E > 4 ? 4 : E))
		return;
	for (int o = 0; o < K->nops; o++)
		if (!K->ops[o].out && !r->stat[o] && r->m.g.used[o]) {
			int q = r->ldeng[o] + n;
			r->ldeng1[o] = q;
			if (loop) {
				r->ldeng2[o] = q;
				r->used_eng[q] = 1;
			} else {
				r->pro_only[q] = 1;
			}
		}
}

/* Is every output of the kernel whole rows (not one value per row)? */
static int outs_rows(const drow *r)
{
	for (int o = 0; o < r->m.K->nops; o++)
		if (r->m.K->ops[o].out && r->ocols[o] != r->cols)
			return 0;
	return 1;
}

/* Operands, engines and slots; 0 when the kernel fits the template. */
static int row_plan(drow *r)
{
	dmm *m = &r->m;
	const npu_kern *K = m->K;
	emit_t *g = &m->g;
	int E = m->c->t->dma_engines, n = 0;
	uint64_t addr = 0;

	if (K->nops > 64 || (K->kind == NPU_KK_EW ? ew_dims(r)
			     : K->kind != NPU_KK_ROW ||
			       npu_emit_dims(m->c->ir, K, g->n, g->st, &g->q) < 0 ||
			       g->q != 2))
		return 1;
	r->cols = g->n[1];
	if (K->kind == NPU_KK_EW) {
		/* the cost model's tiles are of the kernel's coalesced shape,
		 * not these rows: tiles of emit.c's folded size instead */
		r->tm = EW_TILE / r->cols > 1 ? EW_TILE / r->cols : 1;
	} else {
		r->tm = K->kn.tile_m > 0 && K->kn.tile_m < g->n[0] ? K->kn.tile_m
								   : g->n[0];
		if (K->kn.tile_c > 0 && K->kn.tile_c < r->cols)
			return 1; /* rows in several passes */
	}
	r->nld = E > 5 ? 4 : E > 1 ? E - 1 : 1; /* RS_LD .. RS_FREE */
	r->steng = E - 1;

	for (int o = 0; o < K->nops; o++) {
		int pe = npu_dtype_size(m->c->ir->v[K->ops[o].val].dtype);
		int sym = rel_of(m, dram_of(m, o)) != 0;
		if (!K->ops[o].out && !g->used[o])
			continue;
		/* rows after rows (symbolic), or one row for all (static) */
		if (sym != (g->st[o][0] != 0) || (sym && K->ops[o].out == 0 &&
						   g->st[o][1] != 1))
			return 1;
		if (K->ops[o].out && !sym)
			return 1;
		if (K->ops[o].out && g->st[o][1] == 0) {
			if (g->st[o][0] != 1)
				return 1;
			r->ocols[o] = 1;   /* one value per row */
		} else if (g->st[o][1] == 1) {
			r->ocols[o] = r->cols;
			if (sym && g->st[o][0] != r->cols)
				return 1;
		} else {
			return 1;
		}
		r->stat[o] = !sym;
		for (int s = 0; s < (r->stat[o] ? 1 : 2); s++)
			g->slotb[o][s] = take(&addr, (uint64_t)(r->tm * r->ocols[o] * pe), 0);
		r->ldeng2[o] = r->ldeng1[o] = -1;
		if (!K->ops[o].out) {
			r->ldeng[o] = n++ % r->nld;
			if (!r->stat[o])
				r->used_eng[r->ldeng[o]] = 1;
		}
	}
	spread_loads(r, n);
	/* a spare engine for the last tile's store: one output of whole
	 * rows, an engine the loop loads nothing on (rmsnorm_dynamic at its
	 * hint: 7.5 k -> 7.2 k cycles once row kernels took one too) */
	r->spare = -1;
	for (int q = 0; q < r->steng && q < 4; q++)
		if (!r->used_eng[q] && outs_rows(r)) {
			r->spare = q;
			break;
		}
	return addr > m->c->t->sram_bytes - NPU_SPILL_BYTES;
}

/* Static operands: the same row replicated over the slot's tm rows. */
static void row_static(drow *r)
{
	dmm *m = &r->m;
	const npu_kern *K = m->K;

	for (int o = 0; o < K->nops; o++) {
		int pe = npu_dtype_size(m->c->ir->v[K->ops[o].val].dtype);
		if (!r->stat[o] || K->ops[o].out || !m->g.used[o])
			continue;
		/* as many rows as a tile has at these sizes */
		xfer(m, r->ldeng[o], 0, dram_at(m, o, 0, 0, 0), m->g.slotb[o][0],
		     r->ocols[o] * pe, m->xbr, 0, r->ocols[o] * pe);
		npu_memit(m->f, NPU_OP_SIG, NPU_UNIT_DMA0 + r->ldeng[o], RS_W, 0, 0);
		npu_memit(m->f, NPU_OP_WAIT, NPU_UNIT_VEC, RS_W, 0, 0);
	}
}

static void row_loop(drow *r)
{
	dmm *m = &r->m;
	npu_mfunc *f = m->f;
	int xmb = npu_mx(f), top = npu_mlabel(f), end = npu_mlabel(f);
	int E = m->c->t->dma_engines;

	m->xm0 = npu_mx(f);
	m->xrn = npu_mx(f);
	m->xbr = npu_mx(f);
	m->mb = r->tm;
	for (int q = 0; q < r->nld; q++)
		if (r->used_eng[q])
			seed(m, RS_FREE + q, 2);
	seed(m, RS_ST, 2);
	npu_memit(f, NPU_OP_LI, m->xm0, 0, 0, 0);
	/* balanced tiles, as the matmul's block rows */
	npu_mli(f, xmb, r->tm);
	npu_memit(f, NPU_OP_ADD, m->xbr, m->xR, xmb, 0);
	npu_memit(f, NPU_OP_ADDI, m->xbr, m->xbr, 0, -1);
	npu_memit(f, NPU_OP_DIV, m->xbr, m->xbr, xmb, 0);
	npu_memit(f, NPU_OP_ADD, m->xrn, m->xR, m->xbr, 0);
	npu_memit(f, NPU_OP_ADDI, m->xrn, m->xrn, 0, -1);
	npu_memit(f, NPU_OP_DIV, m->xbr, m->xrn, m->xbr, 0);
	npu_memit(f, NPU_OP_MOV, m->xrn, m->xbr, 0, 0);
	row_static(r);
	for (int q = 0; q < r->nld; q++)
		if (r->used_eng[q])
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, RS_FREE + q, 0, 0);
	row_io(r, 0, 0, 0, m->xrn, 1);
	for (int q = 0; q < r->nld; q++)
		if (r->used_eng[q])
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, RS_LD + q, 0, 0);
	/* the first tile's halves on engines the loop does not load on:
	 * the vector unit takes their one signal before the loop */
	for (int q = 0; q < 4; q++)
		if (r->pro_only[q]) {
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, RS_LD + q, 0, 0);
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, RS_LD + q, 0, 0);
		}
	npu_mbind(f, top);
	for (int s = 0; s < 2; s++) {
		row_next(r, !s);
		row_tile(r, s);
		advance(m, end);
	}
	npu_memit_br(f, NPU_OP_JMP, 0, 0, top);
	npu_mbind(f, end);
	for (int q = 0; q < r->nld; q++)
		if (r->used_eng[q])
			drain(m, NPU_UNIT_DMA0 + q, RS_FREE + q, 2);
	drain(m, NPU_UNIT_VEC, RS_ST, 2);
	for (int q = 0; q < E; q++) {
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, RS_END, 0, 0);
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, RS_END, 0, 0);
	}
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, RS_END, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, RS_END, 0, 0);
}

int npu_emit_dynrow(const npu_emitctx *c, int k, int xrows, npu_mfunc *f,
		    npu_err *e)
{
	drow r;
	int at = f->n, rc = 1;

	memset(&r, 0, sizeof r);
	r.m.c = c;
	r.m.K = &c->ir->k[k];
	r.m.f = f;
	r.m.xR = xrows;
	if (r.m.K->kind != NPU_KK_ROW && r.m.K->kind != NPU_KK_EW)
		return 1;
	if (npu_emit_setup(&r.m.g, c, k, f) < 0) {
		rc = npu_errf(e, "out of memory");
		goto out;
	}
	if (row_plan(&r)) {
		f->n = at;
		goto out;
	}
	/* xrows counts the merged symbolic dim (dyn.c's version_kern); a
	 * row kernel's rows are its outer dims merged, [s0, 2, 3] reduced
	 * over the last: 2 rows per symbolic row */
	if (r.m.K->kind == NPU_KK_ROW && r.m.g.n[0] != r.m.K->shape[0]) {
		r.m.xR = npu_mx(f);
		npu_memit(f, NPU_OP_MULI, r.m.xR, xrows, 0, r.m.g.n[0] / r.m.K->shape[0]);
	}
	row_loop(&r);
	rc = f->oom ? npu_errf(e, "out of memory") : 0;
out:
	npu_emit_cleanup(&r.m.g);
	return rc;
}
