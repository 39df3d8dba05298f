/*
 * emit.c - the ew and row templates, and host calls: kernel IR to
 * instructions on virtual registers (mir.h).
 *
 * ew and row kernels share one skeleton.  The index space is coalesced
 * (adjacent dims merged when every operand allows it; a row kernel's
 * reduced dims stay apart) and cut into tiles of tile_m x tile_c over its
 * last two dims; outer dims and tiles are unrolled.  Each operand has
 * `bufs` SRAM slots; a tile's inputs arrive by DMA (strides from the
 * operand: 0 to broadcast), the vector unit runs the expression program
 * over the tile, a DMA engine writes the outputs.  In program order the
 * loads of tile t+1 come before the compute of tile t, so the engines
 * fetch ahead while the vector unit works; semaphores order the rest:
 *
 *   LD_q   load engine q -> vec      tile in SRAM
 *   FREE_q vec -> load engine q      input slot may be overwritten
 *   CMP    vec -> store engine       tile computed
 *   ST     store engine -> vec       output slot may be overwritten
 *   END    store engine -> scalar    kernel done (the next may start)
 *
 * The expression program is emitted on demand: each pass over a row (or
 * a tile) emits, once per loop body, the instructions its results need;
 * per-row values (reductions, constants) are computed once per row and
 * stay in registers across passes.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/driver.h"
#include "compiler/emit_int.h"

/* ----------------------------------------------------------------- */
/* Coalescing and DMA */

/*
 * Tiles are [rows, cols] over the last two dims.  When those are small
 * and an outer dim is longer (a depthwise convolution's [N, C, 4, 4]
 * taps, a padded copy of a 7x7 map), a tile would be one small plane
 * and every plane its own transfers: 144 channels of 4x4 took 3600
 * loads per tap.  An elementwise kernel may take its dims in any order,
 * so the longest outer dim moves next to the last and the rows run
 * across it (one strided transfer per operand and tile).
 */
#define TRANSPOSED_ROWS_KEPT 64

static void rows_from_outer(int64_t *n, int64_t (*st)[NPU_MAX_DIMS], int nops,
			    int m)
{
	int best = -1;

	if (m < 3 || n[m - 2] * n[m - 1] >= 32768)
		return;
	/* an operand read transposed (unit stride across the rows) is
	 * staged in SRAM a row at a time and transposed there; rows run
	 * across another dim would leave it an element a DRAM burst.  Long
	 * rows (TRANSPOSED_ROWS_KEPT elements) stay: a weight gradient's
	 * [576, 9, 512] permuted to [576, 512, 9] took 874 k cycles, 118 k
	 * for [512, 9, 512] whose rows stayed.  Short ones still move: kept
	 * whatever their length, a depthwise convolution over FocalNet's
	 * channels-last maps went 97 k -> 236 k cycles; from 32 elements up
	 * no fixture's cycles change */
	for (int o = 0; o < nops; o++)
		if (st[o][m - 2] == 1 && st[o][m - 1] != 1 && st[o][m - 1] != 0 &&
		    n[m - 2] >= TRANSPOSED_ROWS_KEPT)
			return;
	for (int d = 0; d < m - 2; d++)
		if (n[d] > n[m - 2] && (best < 0 || n[d] > n[best]))
			best = d;
	if (best < 0)
		return;
	for (int d = best; d < m - 2; d++) {
		int64_t t = n[d];
		n[d] = n[d + 1];
		n[d + 1] = t;
		for (int o = 0; o < nops; o++) {
			t = st[o][d];
			st[o][d] = st[o][d + 1];
			st[o][d + 1] = t;
		}
	}
}

int npu_emit_dims(const npu_kir *ir, const npu_kern *K, int64_t *n,
		  int64_t (*st)[NPU_MAX_DIMS], int *q)
{
	int nd = K->ndim, split = K->kind == NPU_KK_ROW ? nd - K->rdims : -1;
	int out = 0, rbig = 0, rsplit = split, seen = 0;
	int64_t cn[NPU_MAX_DIMS];

	(void)ir;
	for (int d = split < 0 ? nd : split; d < nd; d++)
		rbig += K->shape[d] != 1;
	/* drop size-1 dims: outside the row part, and in it while a longer
	 * row dim remains (their strides, often 0, would stop the merge);
	 * a row of one element keeps its last dim */
	for (int d = 0; d < nd; d++) {
		int inrow = rsplit >= 0 && d >= rsplit;
		if (K->shape[d] == 1 && nd > 1 &&
		    (!inrow || rbig || d < nd - 1))
			continue;
		cn[out] = K->shape[d];
		for (int o = 0; o < K->nops; o++)
			st[o][out] = K->ops[o].stride[d];
		if (inrow && !seen) {
			split = out;
			seen = 1;
		}
		out++;
	}
	if (split >= 0 && split > out)
		split = out;
	/* merge d into d-1 when every operand is contiguous across them */
	int m = 0;
	for (int d = 0; d < out; d++) {
		int ok = m > 0 && d != split;
		for (int o = 0; ok && o < K->nops; o++)
			ok = st[o][m - 1] == st[o][d] * cn[d];
		if (ok) {
			n[m - 1] *= cn[d];
			for (int o = 0; o < K->nops; o++)
				st[o][m - 1] = st[o][d];
		} else {
			n[m] = cn[d];
			for (int o = 0; o < K->nops; o++)
				st[o][m] = st[o][d];
			if (d == split)
				split = m;
			m++;
		}
	}
	if (K->kind == NPU_KK_ROW && m - split != 1)
		return -1; /* the reduced dims do not form one run */
	if (K->kind == NPU_KK_EW)
		rows_from_outer(n, st, K->nops, m);
	if (m == 0) {
		n[0] = 1;
		for (int o = 0; o < K->nops; o++)
			st[o][0] = 0;
		m = 1;
	}
	if (m == 1) {
		/* a second dim so that tiles are [rows, cols] */
		int64_t W = n[0];
		if (K->kind != NPU_KK_ROW && n[0] > 4096) {
			W = 1;
			for (int64_t w = 4096; w >= 1; w--)
				if (n[0] % w == 0) {
					W = w;
					break;
				}
		}
		n[1] = W;
		n[0] = W ? n[0] / W : 0;
		for (int o = 0; o < K->nops; o++) {
			st[o][1] = st[o][0];
			st[o][0] *= W;
		}
		m = 2;
	}
	*q = m;
	return 0;
}

static int64_t field(emit_t *g, int q, int fld, int64_t v)
{
	if (g->dstate[q][fld] != v || !g->dvalid[q][fld]) {
		if (v != (int64_t)(int32_t)v) {
			int x = npu_mx(g->f);
			npu_mli(g->f, x, v);
			npu_memit(g->f, NPU_OP_DCFG, q, fld, x, 0);
		} else {
			npu_memit(g->f, NPU_OP_DCFGI, q, fld, 0, v);
		}
		g->dstate[q][fld] = v;
		g->dvalid[q][fld] = 1;
	}
	return v;
}

/* (emit_int.h) */
void npu_emit_watch(emit_t *g, uint64_t a, uint64_t n)
{
	if (g->watch && a < g->watch->hi && g->watch->lo < a + n)
		g->watch->hit = 1;
}

static void watch_hit(emit_t *g, uint64_t dram)
{
	npu_emit_watch(g, dram, 1);
}

/* Is DRAM-side address a one of SRAM's, through the DMA aperture (a value
 * of the resident window, or of a dynamic program's)?  Its transfer moves
 * no DRAM bytes and waits for no DRAM latency. */
static int aperture(uint64_t a)
{
	return a >= NPU_SRAM_APERTURE;
}

/* A DRAM address into xr; in a symbolic buffer (dyn.c), plus the
 * register that says where its current block of rows is. */
static void dram_li(emit_t *g, int xr, uint64_t dram)
{
	npu_mli(g->f, xr, (int64_t)dram);
	watch_hit(g, dram);
	for (int i = 0; g->rel && i < g->rel->n; i++)
		if (dram >= g->rel->lo[i] && dram < g->rel->hi[i]) {
			npu_memit(g->f, NPU_OP_ADD, xr, xr, g->rel->xr[i], 0);
			return;
		}
}

/* Engine q holds a transfer of `bytes` (through the DRAM latency when
 * one side is DRAM): docs/timing-model.md, "DMA engines and DRAM". */
static void busy(emit_t *g, int q, int64_t bytes, int dram)
{
	const npu_target *t = g->t;

	if (q < 0 || q >= NPU_MAX_DMA)
		return;
	g->qbusy[q] += t->dma_setup + (double)bytes / t->dma_bytes_per_cycle +
		       (dram ? t->dram_latency : 0);
}

/* A transfer with every descriptor field given (op: DLD, DST, DCP). */
void npu_emit_dmaf(emit_t *g, int q, int op, uint64_t dst, uint64_t src,
		   int64_t rowb, int64_t n1, int64_t ss1, int64_t ds1,
		   int64_t n2, int64_t ss2, int64_t ds2)
{
	npu_emit_dmat(g, q, op, 0, dst, src, rowb, n1, ss1, ds1, n2, ss2, ds2);
}

/* The same for any transfer op; dt is dstc's DRAM type (imm), else 0. */
void npu_emit_dmat(emit_t *g, int q, int op, int dt, uint64_t dst,
		   uint64_t src, int64_t rowb, int64_t n1, int64_t ss1,
		   int64_t ds1, int64_t n2, int64_t ss2, int64_t ds2)
{
	int store, dram, xd = npu_mx(g->f), xs = npu_mx(g->f);

	if (rowb <= 0 || n1 <= 0 || n2 <= 0)
		return;
	store = op == NPU_OP_DST || op == NPU_OP_DSTC;
	/* does a DRAM side (dmv has two) reach DRAM, not the aperture? */
	dram = (op != NPU_OP_DCP && !store && !aperture(src)) ||
	       ((store || op == NPU_OP_DMV) && !aperture(dst));
	field(g, q, NPU_DF_ROWB, rowb);
	field(g, q, NPU_DF_N1, n1);
	field(g, q, NPU_DF_SS1, ss1);
	field(g, q, NPU_DF_DS1, ds1);
	field(g, q, NPU_DF_N2, n2);
	if (n2 > 1) {
		field(g, q, NPU_DF_SS2, ss2);
		field(g, q, NPU_DF_DS2, ds2);
	} else if (op == NPU_OP_DSTC &&
		   !(g->dvalid[q][NPU_DF_SS2] && g->dstate[q][NPU_DF_SS2] % 4 == 0)) {
		/* dstc checks its source strides, the unused one too: an
		 * engine's last kernel may have left a 2-byte one (an f16
		 * transpose) */
		field(g, q, NPU_DF_SS2, 0);
	}
	if (store)
		dram_li(g, xd, dst);
	else
		npu_mli(g->f, xd, (int64_t)dst);
	if (op == NPU_OP_DLD)
		dram_li(g, xs, src);
	else
		npu_mli(g->f, xs, (int64_t)src);
	npu_memit(g->f, op, q, xd, xs, dt);
	busy(g, q, rowb * n1 * n2, dram);
	if (dram)
		g->dram_bytes += (uint64_t)(rowb * n1 * n2);
}

/* A DMA transfer's most rows (sim/dma.c's limit, docs/timing-model.md). */
#define DMA_ROWS_MAX (1ll << 22)

/* A transfer of `bytes` between dram and local on engine q, its fields
 * set: the addresses, the instruction and the engine's time. */
static void dma_issue(emit_t *g, int q, int store, uint64_t dram,
		      uint64_t local, int64_t bytes)
{
	int xl = npu_mx(g->f), xd = npu_mx(g->f);

	npu_mli(g->f, xl, (int64_t)local);
	dram_li(g, xd, dram);
	if (store)
		npu_memit(g->f, NPU_OP_DST, q, xd, xl, 0);
	else
		npu_memit(g->f, NPU_OP_DLD, q, xl, xd, 0);
	busy(g, q, bytes, !aperture(dram));
	if (!aperture(dram))
		g->dram_bytes += (uint64_t)bytes;
}

/*
 * Columns [c0, c1) of a transposed source (a row's elements sb apart, its
 * rows next to each other) into packed local rows of `cols`: each DRAM
 * column's elements follow each other directly (one burst range), the
 * local side is written an element a row.  (store: the other way.)
 */
static void dma_transposed(emit_t *g, int q, int store, uint64_t dram,
			   uint64_t local, int esz, int64_t rows, int64_t c0,
			   int64_t c1, int64_t cols, int64_t sb)
{
	field(g, q, NPU_DF_ROWB, esz);
	field(g, q, NPU_DF_N1, rows);
	field(g, q, store ? NPU_DF_SS1 : NPU_DF_DS1, cols * esz);
	field(g, q, store ? NPU_DF_DS1 : NPU_DF_SS1, esz);
	field(g, q, NPU_DF_N2, c1 - c0);
	field(g, q, store ? NPU_DF_SS2 : NPU_DF_DS2, esz);
	field(g, q, store ? NPU_DF_DS2 : NPU_DF_SS2, sb * esz);
	dma_issue(g, q, store, dram + (uint64_t)(c0 * sb * esz),
		  local + (uint64_t)(c0 * esz), rows * (c1 - c0) * esz);
}

/* One 2-level transfer; local side packed rows of `cols` elements.
 * store: local -> DRAM. */
void npu_emit_dma(emit_t *g, int q, int store, uint64_t dram, uint64_t local,
		  int esz, int64_t rows, int64_t cols, int64_t sa, int64_t sb)
{
	if (rows <= 0 || cols <= 0)
		return;
	if (sa == 1 && rows > 1 && sb != 1) {
		int64_t step = rows < DMA_ROWS_MAX ? DMA_ROWS_MAX / rows : 1;
		for (int64_t c0 = 0; c0 < cols; c0 += step)
			dma_transposed(g, q, store, dram, local, esz, rows, c0,
				       c0 + step < cols ? c0 + step : cols, cols, sb);
		return;
	}
	if (sb == 1 || cols == 1) {
		field(g, q, NPU_DF_ROWB, cols * esz);
		field(g, q, NPU_DF_N1, rows);
		field(g, q, store ? NPU_DF_SS1 : NPU_DF_DS1, cols * esz);
		field(g, q, store ? NPU_DF_DS1 : NPU_DF_SS1, sa * esz);
		field(g, q, NPU_DF_N2, 1);
	} else {
		field(g, q, NPU_DF_ROWB, esz);
		field(g, q, NPU_DF_N1, cols);
		field(g, q, store ? NPU_DF_SS1 : NPU_DF_DS1, esz);
		field(g, q, store ? NPU_DF_DS1 : NPU_DF_SS1, sb * esz);
		field(g, q, NPU_DF_N2, rows);
		field(g, q, store ? NPU_DF_SS2 : NPU_DF_DS2, cols * esz);
		field(g, q, store ? NPU_DF_DS2 : NPU_DF_SS2, sa * esz);
	}
	dma_issue(g, q, store, dram, local, rows * cols * esz);
}

/* ----------------------------------------------------------------- */
/* Expression programs */

static int esz_idx(int esz)
{
	return esz == 1 ? 0 : esz == 2 ? 1 : esz == 4 ? 2 : 3;
}

int npu_emit_level(const npu_kern *K, int *lv, const int *rowop)
{
	for (int i = 0; i < K->nx; i++) {
		const npu_xins *x = &K->x[i];
		switch (x->op) {
		case NPU_X_LOAD: lv[i] = rowop && rowop[x->a]; break;
		case NPU_X_ACC: lv[i] = 0; break;
		case NPU_X_CONST: case NPU_X_RFIN: lv[i] = 1; break;
		case NPU_X_RED: lv[i] = 2; break;
		case NPU_X_UN: case NPU_X_BINI: case NPU_X_RND:
			lv[i] = lv[x->a] == 1; break;
		case NPU_X_BIN:
			lv[i] = lv[x->a] == 1 && lv[x->b] == 1; break;
		case NPU_X_SEL:
			lv[i] = lv[x->a] == 1 && lv[x->b] == 1 && lv[x->c] == 1; break;
		case NPU_X_STORE:
			lv[i] = K->kind == NPU_KK_ROW ? lv[x->a] : 0;
			break;
		default: lv[i] = 1; break;
		}
	}
	return 0;
}

/* The vector register holding value i in the current body. */
int npu_emit_x(emit_t *g, int i)
{
	const npu_xins *x = &g->K->x[i];
	npu_mfunc *f = g->f;
	int v, a, b, c;

	if (g->lv[i] == 1 && g->rowm[i] >= 0)
		return g->rowm[i];
	if (g->lv[i] == 0 && g->memo[i] >= 0)
		return g->memo[i];
	f->node = x->node;
	switch (x->op) {
	case NPU_X_LOAD: {
		const npu_kopnd *o = &g->K->ops[x->a];
		int dt = g->ir->v[o->val].dtype, esz = npu_dtype_size(dt);
		v = npu_mv(f);
		if (g->rowop && g->rowop[x->a]) {
			npu_memit(f, NPU_OP_VBCAST, v, g->xrow[esz_idx(esz)], dt,
				  (int64_t)g->slot[x->a]);
			break;
		}
		if (g->lanes) {
			/* column ccol of the group's rows: strided */
			int xa = npu_mx(f), e = esz_idx(esz);
			npu_memit(f, NPU_OP_ADDI, xa, g->xrowc[e], 0,
				  (int64_t)g->slot[x->a] + g->ccol * esz);
			npu_memit(f, NPU_OP_VLDS, v, xa, g->xcst[e], dt);
			break;
		}
		npu_memit(f, NPU_OP_VLD, v, g->xoff[esz_idx(esz)], dt,
			  (int64_t)g->slot[x->a] + g->ioff[esz_idx(esz)]);
		break;
	}
	case NPU_X_ACC:
		/* an integer array accumulates int32 (the load converts) */
		v = npu_mv(f);
		npu_memit(f, NPU_OP_VLD, v, g->xoff[esz_idx(4)],
			  npu_kir_isint(g->K->mm_dtype) ? NPU_DT_I32 : NPU_DT_F32,
			  (int64_t)(g->accslot + (x->a ? g->accpair : 0)) +
			  g->ioff[esz_idx(4)]);
		break;
	case NPU_X_CONST:
		v = npu_mv(f);
		npu_memit(f, NPU_OP_VLI, v, 0, 0, npu_mfimm(x->imm));
		break;
	case NPU_X_UN:
		a = npu_emit_x(g, x->a);
		v = npu_mv(f);
		npu_memit(f, x->vop, v, a, 0, 0);
		break;
	case NPU_X_BIN:
		a = npu_emit_x(g, x->a);
		b = npu_emit_x(g, x->b);
		v = npu_mv(f);
		npu_memit(f, x->vop, v, a, b, 0);
		break;
	case NPU_X_BINI:
		a = npu_emit_x(g, x->a);
		v = npu_mv(f);
		npu_memit(f, x->vop, v, a, 0, npu_mfimm(x->imm));
		break;
	case NPU_X_SEL:
		a = npu_emit_x(g, x->a);
		b = npu_emit_x(g, x->b);
		c = npu_emit_x(g, x->c);
		v = npu_mv(f);
		npu_memit(f, NPU_OP_VMOV, v, c, 0, 0);
		npu_memit(f, NPU_OP_VSEL, v, a, b, 0);
		break;
	case NPU_X_RND:
		a = npu_emit_x(g, x->a);
		v = npu_mv(f);
		npu_memit(f, NPU_OP_VRND, v, a, x->dtype, 0);
		break;
	default:
		v = npu_mv(f); /* not reached: RED/RFIN are emitted by passes */
		break;
	}
	if (g->lv[i] == 1)
		g->rowm[i] = v;
	else
		g->memo[i] = v;
	return v;
}

#define UNROLL 4

/* Emits one body instance at chunk u of the current iteration. */
static void body_at(emit_t *g, int u, void (*body)(emit_t *, void *), void *arg)
{
	for (int e = 0; e < 4; e++)
		g->ioff[e] = (int64_t)u * g->t->vlen << e;
	for (int i = 0; i < g->K->nx; i++)
		g->memo[i] = -1;
	g->uslot = u;
	body(g, arg);
	memset(g->ioff, 0, sizeof g->ioff);
}

static void bump(emit_t *g, int64_t chunks)
{
	for (int e = 0; e < 4; e++)
		if (g->emask >> e & 1)
			npu_memit(g->f, NPU_OP_ADDI, g->xoff[e], g->xoff[e], 0,
				  chunks * g->t->vlen << e);
}

static void body_stores(emit_t *g, void *arg);

/* Longest body instance (instructions) that is interleaved: four
 * instances keep up to 4 * ILV_MAX vector values live at once, which must
 * stay well within the allocatable registers (spilling them would cost
 * more than the stalls saved; mlp_fp32's GELU epilogue, 9 instructions,
 * came out wrong at that pressure). */
#define ILV_MAX 6

/* The most vector registers live at once in v[0..n) (a register is live
 * from its first mention to its last; one mentioned only once, or
 * defined before, counts over its whole span too).  The group's
 * registers in a short list (not tables by register number: those
 * scanned every virtual register per group), then one sweep. */
static int vpressure(const npu_minsn *v, int n)
{
	/* (an instruction names at most three registers) */
	int m = 3 * n + 1, *reg = malloc((size_t)(3 * m) * sizeof *reg), nr = 0;
	int *first, *last, *diff, peak = 0, live = 0;

	if (!reg)
		return 1 << 20;
	first = reg + m;
	last = first + m;
	for (int i = 0; i < n; i++) {
		const npu_fmtinfo *fi = &npu_fmttab[npu_optab[v[i].op & 0xff].fmt];
		for (int k = 0; k < fi->nopd; k++) {
			int r = fi->opd[k].kind == NPU_K_V ? v[i].f[fi->opd[k].field] : -1, j = nr - 1;
			if (r < 0)
				continue;
			while (j >= 0 && reg[j] != r)
				j--;
			if (j < 0) {
				j = nr++;
				reg[j] = r;
				first[j] = i;
			}
			last[j] = i;
		}
	}
	if (!(diff = calloc((size_t)n + 1, sizeof *diff))) {
		free(reg);
		return 1 << 20;
	}
	for (int j = 0; j < nr; j++) {
		diff[first[j]]++;
		diff[last[j] + 1]--;
	}
	for (int i = 0; i < n; i++) {
		live += diff[i];
		peak = live > peak ? live : peak;
	}
	free(diff);
	free(reg);
	return peak;
}

/* Interleaves the n body instances at[0..n) (instance u is instructions
 * at[u] .. at[u + 1]) round-robin when they have the same length and the
 * result keeps at most ILV_REGS vector registers live (spilling them
 * would cost more than the stalls saved).  Bodies of up to `max` vector
 * instructions are interleaved without counting. */
#define ILV_REGS 20

static int interleave_regs(npu_mfunc *f, const int *at, int n, int max,
			   int regs);

static void interleave(npu_mfunc *f, const int *at, int n, int max)
{
	if (interleave_regs(f, at, n, max, ILV_REGS) || n < 3)
		return;
	/* too many registers for all four: in pairs, which still issue
	 * one chain's instructions in the other's latencies (a RoPE
	 * half's 14 instructions) */
	for (int i = 0; i + 1 < n; i += 2)
		(void)interleave_regs(f, at + i, 2, max, ILV_REGS);
}

static int interleave_regs(npu_mfunc *f, const int *at, int n, int max, int regs)
{
	int len = at[1] - at[0], nvec = 0, done = 0;
	npu_minsn *tmp;

	if (f->oom || n < 2 || len < 2)
		return 0;
	for (int u = 1; u < n; u++)
		if (at[u + 1] - at[u] != len)
			return 0;
	for (int i = at[0]; i < at[1]; i++)
		nvec += npu_optab[f->v[i].op].uclass == NPU_UC_VEC;
	if (!(tmp = malloc((size_t)(n * len) * sizeof *tmp)))
		return 0;          /* in order is correct too */
	for (int i = 0, k = 0; i < len; i++)
		for (int u = 0; u < n; u++)
			tmp[k++] = f->v[at[u] + i];
	if (nvec <= max || vpressure(tmp, n * len) <= regs) {
		memcpy(f->v + at[0], tmp, (size_t)(n * len) * sizeof *tmp);
		done = 1;
	}
	free(tmp);
	return done;
}

/*
 * Emits the UNROLL body instances of one loop iteration.  Elementwise
 * store bodies are independent across instances (their own registers,
 * their own elements), so their instructions are interleaved round-robin:
 * the in-order vector unit then issues four loads before the first
 * store needs its value instead of stalling on each load's latency.
 * Instances of unequal length (one computed a per-row value the others
 * reuse) or long ones (register pressure) stay in order.
 */
static void body_group(emit_t *g, void (*body)(emit_t *, void *), void *arg)
{
	npu_mfunc *f = g->f;
	int at[UNROLL + 1];

	for (int u = 0; u < UNROLL; u++) {
		at[u] = f->n;
		body_at(g, u, body, arg);
	}
	at[UNROLL] = f->n;
	if (body == body_stores)
		interleave(f, at, UNROLL, ILV_MAX);
}

static void pass_chunks(emit_t *g, int64_t iters, int64_t left, int64_t rem,
			void (*body)(emit_t *, void *), void *arg);

/*
 * One pass over `n` elements from the current row start: body(g, arg)
 * runs once per chunk of vlen lanes.  The loop is unrolled UNROLL times
 * (the scalar unit dispatches every instruction, so loop overhead is
 * vector throughput); leftover chunks follow straight, then the tail
 * with a shorter vl.
 */
void npu_emit_pass(emit_t *g, int64_t n, void (*body)(emit_t *, void *),
		   void *arg)
{
	npu_mfunc *f = g->f;
	int64_t vlen = g->t->vlen, nfull = n / vlen, rem = n % vlen;
	int64_t iters = nfull / UNROLL, left = nfull % UNROLL;
	/* a pass that never bumps its offsets reads the row's own register
	 * (or x0) instead of a copy: a copy a row and pass is a dispatch
	 * cycle each (llama_tiny's RMSNorm: 8 of a group's 100) */
	int keep = (iters == 0 && (!left || !rem)) ||
		   (iters == 1 && !left && !rem);
	int saved[4];

	memcpy(saved, g->xoff, sizeof saved);
	for (int e = 0; e < 4; e++) {
		if (!(g->emask >> e & 1))
			continue;
		if (keep)
			g->xoff[e] = g->xrowc[e];
		else if (g->xrowc[e])
			npu_memit(f, NPU_OP_MOV, g->xoff[e], g->xrowc[e], 0, 0);
		else
			npu_memit(f, NPU_OP_LI, g->xoff[e], 0, 0, 0);
	}
	pass_chunks(g, iters, left, rem, body, arg);
	memcpy(g->xoff, saved, sizeof saved);
}

/* Values computed once per row that a pass computes before its loop
 * (pass_chunks) rather than in its first body instance. */
#define HOIST_MAX 4

/* npu_emit_pass's chunks: iters loops of UNROLL, left more, the tail. */
static void pass_chunks(emit_t *g, int64_t iters, int64_t left, int64_t rem,
			void (*body)(emit_t *, void *), void *arg)
{
	npu_mfunc *f = g->f;

	/* the values computed once per row (an operand read by vbcast,
	 * constants and what is made of them) before the loop: computed in
	 * its first body instance, they made that instance longer than the
	 * others, which then stayed in order (body_group), each chunk's
	 * load, add and store one dependent chain (a convolution's bias,
	 * `x * y + 1`'s constant), and inside the loop they ran again every
	 * iteration.  Only a few (HOIST_MAX): held across the loop, ops3's
	 * dozen constants spilled, and GPT-2's GELU constants kept its
	 * epilogue's four instances from being interleaved (ILV_REGS) */
	int nrow = 0;

	for (int i = 0; i < g->K->nx; i++)
		nrow += g->lv[i] == 1 && g->K->x[i].op != NPU_X_STORE;
	for (int i = 0; body == body_stores && i < g->K->nx; i++)
		if (g->lv[i] == 1 && g->K->x[i].op != NPU_X_STORE &&
		    (nrow <= HOIST_MAX ||
		     (g->K->x[i].op == NPU_X_LOAD && g->rowop && g->rowop[g->K->x[i].a])))
			npu_emit_x(g, i);
	if (iters == 1 && !left && !rem) {
		body_group(g, body, arg);
		return;
	}
	if (iters) {
		int xc = npu_mx(f), lab;
		npu_mli(f, xc, iters);
		lab = npu_mlabel(f);
		npu_mbind(f, lab);
		body_group(g, body, arg);
		bump(g, UNROLL);
		npu_memit(f, NPU_OP_ADDI, xc, xc, 0, -1);
		npu_memit_br(f, NPU_OP_BNE, xc, 0, lab);
	}
	{
		/* the chunks left after the loop interleaved the same way
		 * (a row of 448 is all leftovers: 3 chunks and a tail) */
		int at[UNROLL + 1];
		for (int u = 0; u < left; u++) {
			at[u] = f->n;
			body_at(g, u, body, arg);
		}
		at[left] = f->n;
		if (body == body_stores && left > 1)
			interleave(f, at, (int)left, ILV_MAX);
	}
	if (rem) {
		int xt = npu_mx(f), xv = npu_mx(f);
		if (left)
			bump(g, left);
		npu_memit(f, NPU_OP_LI, xt, 0, 0, rem);
		npu_memit(f, NPU_OP_SETVL, xv, xt, 0, 0);
		body_at(g, 0, body, arg);
		xv = npu_mx(f);
		npu_memit(f, NPU_OP_SETVL, xv, g->xvlen, 0, 0);
	}
}

static void body_red(emit_t *g, void *arg)
{
	int i = *(int *)arg;
	const npu_xins *x = &g->K->x[i];
	int v = npu_emit_x(g, x->a);
	int acc = g->nracc ? g->racc[g->uslot] : g->rowm[i];

	g->f->node = x->node;
	npu_memit(g->f, x->vop, acc, acc, v, 0);
}

/*
 * A reduction over a long row accumulates chunk c into partial c mod
 * UNROLL (the pass's unrolled instances), each lane's partials combined
 * pairwise at the end: four independent chains where one made every
 * chunk wait for the one before, and a quarter of the additions in
 * each lane's sum (a group norm of 65,025 values on npu-edge, 2,032
 * chunks a lane, was 1.6e-3 from the fp64 reference, now 1.7e-4; fuzz
 * case 10,375).  Rows of fewer than RACC_MIN chunks keep the one
 * accumulator.
 */
#define RACC_MIN (2 * UNROLL)

static void racc_begin(emit_t *g, int i, int acc)
{
	const npu_xins *x = &g->K->x[i];

	g->racc[0] = acc;
	for (int u = 1; u < UNROLL; u++) {
		g->racc[u] = npu_mv(g->f);
		npu_memit(g->f, NPU_OP_VLI, g->racc[u], 0, 0,
			  npu_mfimm(x->vop == NPU_OP_VMAX ? -INFINITY : 0.0f));
	}
	g->nracc = UNROLL;
}

/* The partials into the first (rowm's): (p0 + p1) + (p2 + p3). */
static void racc_end(emit_t *g, int i)
{
	int op = g->K->x[i].vop;

	g->f->node = g->K->x[i].node;
	for (int w = 1; w < UNROLL; w *= 2)
		for (int u = 0; u + w < UNROLL; u += 2 * w)
			npu_memit(g->f, op, g->racc[u], g->racc[u], g->racc[u + w], 0);
	g->nracc = 0;
}

static void body_stores(emit_t *g, void *arg)
{
	(void)arg;
	for (int i = 0; i < g->K->nx; i++) {
		const npu_xins *x = &g->K->x[i];
		if (x->op != NPU_X_STORE || g->lv[i] != 0)
			continue;
		const npu_kopnd *o = &g->K->ops[x->b];
		int dt = g->ir->v[o->val].dtype, esz = npu_dtype_size(dt);
		int a = x->a, v;
		/* vst converts exactly as vrnd rounds, so a rounding through
		 * the stored float type right before the store is redundant
		 * (a third of a cast epilogue's vector instructions) */
		while (g->K->x[a].op == NPU_X_RND && g->K->x[a].dtype == dt &&
		       (dt == NPU_DT_BF16 || dt == NPU_DT_F16 || dt == NPU_DT_F32))
			a = g->K->x[a].a;
		v = npu_emit_x(g, a);
		g->f->node = x->node;
		if (g->lanes) {
			int xa = npu_mx(g->f), e = esz_idx(esz);
			npu_memit(g->f, NPU_OP_ADDI, xa, g->xrowc[e], 0,
				  (int64_t)g->slot[x->b] + g->ccol * esz);
			npu_memit(g->f, NPU_OP_VSTS, v, xa, g->xcst[e], dt);
			continue;
		}
		npu_memit(g->f, NPU_OP_VST, v, g->xoff[esz_idx(esz)], dt,
			  (int64_t)g->slot[x->b] + g->ioff[esz_idx(esz)]);
	}
}

/* Computes one row (row kernels) or one whole tile (ew) of n elements. */
void npu_emit_row(emit_t *g, int64_t n)
{
	npu_mfunc *f = g->f;
	int nelem_st = 0;

	for (int i = 0; i < g->K->nx; i++)
		g->rowm[i] = -1;
	for (int i = 0; i < g->K->nx; i++) {
		const npu_xins *x = &g->K->x[i];
		f->node = x->node;
		if (x->op == NPU_X_RED) {
			int acc = npu_mv(f);
			npu_memit(f, NPU_OP_VLI, acc, 0, 0,
				  npu_mfimm(x->vop == NPU_OP_VMAX ? -INFINITY : 0.0f));
			g->rowm[i] = acc;
			if (n >= RACC_MIN * g->t->vlen)
				racc_begin(g, i, acc);
			npu_emit_pass(g, n, body_red, &i);
			if (g->nracc)
				racc_end(g, i);
		} else if (x->op == NPU_X_RFIN) {
			int v = npu_mv(f);
			const npu_xins *r = &g->K->x[x->a];
			npu_memit(f, r->vop == NPU_OP_VMAX ? NPU_OP_VREDMAX
				  : NPU_OP_VREDSUM, v, g->rowm[x->a], 0, 0);
			g->rowm[i] = v;
		} else if (x->op == NPU_X_STORE) {
			if (g->lv[i] == 0) {
				nelem_st++;
				continue;
			}
			const npu_kopnd *o = &g->K->ops[x->b];
			int dt = g->ir->v[o->val].dtype;
			int v = npu_emit_x(g, x->a), xv = npu_mx(f);
			int e = esz_idx(npu_dtype_size(dt));
			npu_memit(f, NPU_OP_SETVL, xv, g->xone, 0, 0);
			npu_memit(f, NPU_OP_VST, v, g->xrow[e] ? g->xrow[e] : 0, dt,
				  (int64_t)g->slot[x->b]);
			xv = npu_mx(f);
			npu_memit(f, NPU_OP_SETVL, xv, g->xvlen, 0, 0);
		} else if (g->lv[i] == 1 && g->K->kind == NPU_KK_ROW) {
			npu_emit_x(g, i);
		}
	}
	if (nelem_st)
		npu_emit_pass(g, n, body_stores, NULL);
}

/*
 * An elementwise pass over as many elements as register xn holds (at
 * least one), for dynamic shapes (emit_dyn.c): npu_emit_pass's loop of
 * UNROLL chunks with its count computed at run time, then the chunks
 * left one by one, the last with a shorter vl.  Per-row values (the
 * constants) come first, so that a loop that runs zero times leaves
 * none of them undefined.
 */
void npu_emit_row_x(emit_t *g, int xn)
{
	npu_mfunc *f = g->f;
	int64_t step = g->t->vlen * UNROLL;
	int xq = npu_mx(f), xit = npu_mx(f), xrem = npu_mx(f), xv;
	int lab = npu_mlabel(f), tail = npu_mlabel(f), done = npu_mlabel(f);

	for (int i = 0; i < g->K->nx; i++)
		g->rowm[i] = -1;
	for (int i = 0; i < g->K->nx; i++)
		if (g->lv[i] == 1 && g->K->x[i].op != NPU_X_STORE)
			npu_emit_x(g, i);
	for (int e = 0; e < 4; e++)
		if (g->emask >> e & 1)
			npu_memit(f, NPU_OP_LI, g->xoff[e], 0, 0, 0);
	npu_mli(f, xq, step);
	npu_memit(f, NPU_OP_DIV, xit, xn, xq, 0);
	npu_memit(f, NPU_OP_REM, xrem, xn, xq, 0);
	npu_memit_br(f, NPU_OP_BEQ, xit, 0, tail);
	npu_mbind(f, lab);
	body_group(g, body_stores, NULL);
	bump(g, UNROLL);
	npu_memit(f, NPU_OP_ADDI, xit, xit, 0, -1);
	npu_memit_br(f, NPU_OP_BNE, xit, 0, lab);
	npu_mbind(f, tail);
	for (int u = 0; u < UNROLL; u++) {
		npu_memit_br(f, NPU_OP_BGE, 0, xrem, done);
		xv = npu_mx(f);
		npu_memit(f, NPU_OP_SETVL, xv, xrem, 0, 0);
		body_at(g, 0, body_stores, NULL);
		bump(g, 1);
		npu_memit(f, NPU_OP_ADDI, xrem, xrem, 0, -g->t->vlen);
	}
	npu_mbind(f, done);
	xv = npu_mx(f);
	npu_memit(f, NPU_OP_SETVL, xv, g->xvlen, 0, 0);
}

/* ----------------------------------------------------------------- */
/* Rows across lanes */

/*
 * Short rows (a softmax over 32 keys) computed one at a time leave the
 * vector unit waiting on each row's chain of latencies (load, reduce
 * across lanes, the per-row math, the next pass: about 25 cycles per
 * pass per row) with most lanes idle.  With the rows across the lanes
 * instead, a register holds one column of up to vlen rows (a strided
 * load of the rows packed in SRAM), a reduction over the row is an
 * elementwise max or add of the column registers, per-row values are
 * ordinary registers (no vredsum, no vbcast), and every column is
 * independent work for the in-order unit.  The cost is one strided
 * access and its address per column, so it pays for short rows only.
 */
#define LANES_ILV 10      /* vector instructions per interleaved column */
#define ROW_LAT 25        /* per row and pass, one row at a time */

int npu_emit_lanes(const npu_kern *K, const npu_target *t, int64_t rows,
		   int64_t cols, double *cycles)
{
	int passes = 1, nmem = 0;
	double vl = t->vlen > 0 ? t->vlen : 1, row, lanes;

	for (int i = 0; i < K->nx; i++) {
		passes += K->x[i].op == NPU_X_RED;
		nmem += K->x[i].op == NPU_X_LOAD || K->x[i].op == NPU_X_STORE;
	}
	/* scalar dispatch bounds both: one cycle per instruction (ROW_LAT
	 * is a row's latency alone; rows interleaved four at a time,
	 * row_group, hide part of it, which this leaves out so that the
	 * choices measured before stay) */
	row = (double)rows * (ceil((double)cols / vl) * (K->nx + 3) +
			      ROW_LAT * passes);
	lanes = ceil((double)rows / vl) * (double)cols * (K->nx + nmem);
	/* rows longer than a register would gain too (a 128 x 256 RMSNorm:
	 * 12.6 k cycles -> 5.7 k), but dyn.c's versions assume that a row
	 * kernel costs per row and split 99 rows into calls of 96 and 3,
	 * whose second call's DRAM latencies then cost a fifth more than
	 * the specialized kernel: lifted together with that rule */
	if (K->kind != NPU_KK_ROW || rows < 2 || cols > t->vlen ||
	    lanes >= row) {
		if (cycles)
			*cycles = row;
		return 0;
	}
	if (cycles)
		*cycles = lanes;
	return 1;
}

static void body_cval(emit_t *g, void *arg)
{
	g->cval = npu_emit_x(g, g->K->x[*(int *)arg].a);
}

/* Columns c[0..n) through body, interleaved; the reduced values in v. */
static void lanes_cols(emit_t *g, const int64_t *c, int n,
		       void (*body)(emit_t *, void *), void *arg, int *v)
{
	int at[UNROLL + 1];

	for (int u = 0; u < n; u++) {
		at[u] = g->f->n;
		g->ccol = c[u];
		for (int i = 0; i < g->K->nx; i++)
			g->memo[i] = -1;
		body(g, arg);
		if (v)
			v[u] = g->cval;
	}
	at[n] = g->f->n;
	interleave(g->f, at, n, LANES_ILV);
}

/* Pushes a block of 2^lv lanes' partial result; equal blocks merge. */
static void tree_push(emit_t *g, int vop, int *stk, int *lvl, int *sp,
		      int r, int lv)
{
	while (*sp > 0 && lvl[*sp - 1] == lv) {
		int m = npu_mv(g->f);
		npu_memit(g->f, vop, m, stk[*sp - 1], r, 0);
		r = m;
		lv++;
		(*sp)--;
	}
	stk[*sp] = r;
	lvl[*sp] = lv;
	(*sp)++;
}

/*
 * Reduction ri over the row, rows across lanes.  Column c plays lane
 * c % vlen of chunk c / vlen in the per-row schedule: each lane sums its
 * chunks in order, then the lanes combine in vredsum's pairwise tree
 * (columns past the row are its zero lanes), so a sum comes out as the
 * per-row schedule computes it.
 */
static int lanes_red(emit_t *g, int ri, int64_t cols)
{
	int vop = g->K->x[ri].vop, stk[64], lvl[64], sp = 0;
	int64_t vlen = g->t->vlen, L = cols < vlen ? cols : vlen;

	for (int64_t l0 = 0; l0 < L; l0 += UNROLL) {
		int n = L - l0 < UNROLL ? (int)(L - l0) : UNROLL;
		int acc[UNROLL], v[UNROLL];
		for (int64_t j = 0; j * vlen + l0 < cols; j++) {
			int64_t c[UNROLL];
			int m = 0;
			while (m < n && j * vlen + l0 + m < cols) {
				c[m] = j * vlen + l0 + m;
				m++;
			}
			lanes_cols(g, c, m, body_cval, &ri, v);
			g->f->node = g->K->x[ri].node;
			for (int u = 0; u < m; u++) {
				if (j == 0) {
					acc[u] = v[u];
					continue;
				}
				int r = npu_mv(g->f);
				npu_memit(g->f, vop, r, acc[u], v[u], 0);
				acc[u] = r;
			}
		}
		for (int u = 0; u < n && sp < 60; u++)
			tree_push(g, vop, stk, lvl, &sp, acc[u], 0);
	}
	int r = stk[--sp];
	while (sp > 0) {
		int m = npu_mv(g->f);
		npu_memit(g->f, vop, m, stk[--sp], r, 0);
		r = m;
	}
	return r;
}

/* One group of rows (vl of them) at the row offsets in xrowc/xrow. */
static void lanes_group(emit_t *g, int64_t cols)
{
	npu_mfunc *f = g->f;

	for (int i = 0; i < g->K->nx; i++)
		g->rowm[i] = -1;
	for (int i = 0; i < g->K->nx; i++) {
		const npu_xins *x = &g->K->x[i];
		f->node = x->node;
		if (x->op == NPU_X_RED) {
			g->rowm[i] = lanes_red(g, i, cols);
		} else if (x->op == NPU_X_RFIN) {
			g->rowm[i] = g->rowm[x->a];
		} else if (x->op == NPU_X_STORE && g->lv[i] == 1) {
			/* a per-row result: one element per row, contiguous */
			const npu_kopnd *o = &g->K->ops[x->b];
			int dt = g->ir->v[o->val].dtype, e = esz_idx(npu_dtype_size(dt));
			npu_memit(f, NPU_OP_VST, npu_emit_x(g, x->a), g->xrow[e], dt,
				  (int64_t)g->slot[x->b]);
		} else if (g->lv[i] == 1 && x->op != NPU_X_STORE) {
			npu_emit_x(g, i);
		}
	}
	for (int64_t c0 = 0; c0 < cols; c0 += UNROLL) {
		int64_t c[UNROLL];
		int n = 0;
		while (n < UNROLL && c0 + n < cols) {
			c[n] = c0 + n;
			n++;
		}
		lanes_cols(g, c, n, body_stores, NULL, NULL);
	}
}

/* rows x cols, rows across lanes: groups of vlen rows in a loop, then
 * the last group at a shorter vl. */
static void lanes_rows(emit_t *g, int64_t rows, int64_t cols)
{
	npu_mfunc *f = g->f;
	int64_t vlen = g->t->vlen, nfull = rows / vlen, rem = rows % vlen;
	int xc = 0, lab = -1;

	g->lanes = 1;
	for (int e = 0; e < 4; e++) {
		g->xrowc[e] = g->xrow[e] = g->xcst[e] = 0;
		if (!(g->emask >> e & 1))
			continue;
		g->xrowc[e] = npu_mx(f);
		g->xrow[e] = npu_mx(f);
		g->xcst[e] = npu_mx(f);
		npu_memit(f, NPU_OP_LI, g->xrowc[e], 0, 0, 0);
		npu_memit(f, NPU_OP_LI, g->xrow[e], 0, 0, 0);
		npu_mli(f, g->xcst[e], cols << e);
	}
	if (nfull > 1) {
		xc = npu_mx(f);
		npu_mli(f, xc, nfull);
		lab = npu_mlabel(f);
		npu_mbind(f, lab);
	}
	if (nfull)
		lanes_group(g, cols);
	if (nfull > 1 || (nfull && rem)) {
		for (int e = 0; e < 4; e++) {
			if (!(g->emask >> e & 1))
				continue;
			npu_memit(f, NPU_OP_ADDI, g->xrowc[e], g->xrowc[e], 0,
				  (vlen * cols) << e);
			npu_memit(f, NPU_OP_ADDI, g->xrow[e], g->xrow[e], 0, vlen << e);
		}
	}
	if (nfull > 1) {
		npu_memit(f, NPU_OP_ADDI, xc, xc, 0, -1);
		npu_memit_br(f, NPU_OP_BNE, xc, 0, lab);
	}
	if (rem) {
		int xt = npu_mx(f), xv = npu_mx(f);
		npu_memit(f, NPU_OP_LI, xt, 0, 0, rem);
		npu_memit(f, NPU_OP_SETVL, xv, xt, 0, 0);
		lanes_group(g, cols);
		xv = npu_mx(f);
		npu_memit(f, NPU_OP_SETVL, xv, g->xvlen, 0, 0);
	}
	g->lanes = 0;
	memset(g->xrowc, 0, sizeof g->xrowc);
	memset(g->xrow, 0, sizeof g->xrow);
}

/* ----------------------------------------------------------------- */
/* The tiled skeleton */

static uint64_t dram_of(const emit_t *g, int op)
{
	const npu_kopnd *o = &g->K->ops[op];
	const npu_kval *v = &g->ir->v[o->val];

	return v->daddr + (uint64_t)(o->off * npu_dtype_size(v->dtype));
}

typedef struct tile {
	int64_t outer;       /* linear index over dims 0..q-3 */
	int64_t r0, rn, c0, cn;
	int64_t on;          /* ew: blocks of dim q-3 folded into the tile */
	int pass;            /* multi-pass rows: which pass (-1: single pass) */
	int first, last;     /* multi-pass: the row's first / last column tile */
} tile;

static void tile_dram(const emit_t *g, const tile *t, int op, int64_t *base)
{
	int64_t o = t->outer, off = 0;
	int q = g->q;

	for (int d = q - 3; d >= 0; d--) {
		off += (o % g->n[d]) * g->st[op][d];
		o /= g->n[d];
	}
	off += t->r0 * g->st[op][q - 2] + t->c0 * g->st[op][q - 1];
	*base = off;
}

/* Is operand op row-level (stride 0 over the row) in a row kernel? */
static int rowlevel_out(const emit_t *g, int op)
{
	return g->K->kind == NPU_KK_ROW && g->K->ops[op].out &&
	       g->st[op][g->q - 1] == 0;
}

/* The slot of operand o for tile t (buffer s of the two): a per-row
 * result of rows too long for SRAM is written after its reduction's
 * pass and stored after the last pass, tiles apart, so its slot follows
 * the row group, not the tile (by tile, its store read the other slot). */
static int rowslot(const emit_t *g, const tile *t, int o, int s)
{
	return t->pass >= 0 && rowlevel_out(g, o) ? g->rgroup & 1 : s;
}

/*
 * A tile's transfer of one operand may be cut into pieces on several
 * engines: one engine moves 128 bytes per cycle, DRAM serves 1600, so a
 * 32 KiB tile on one engine takes 256 cycles on top of the latency and
 * the small kernels of a transformer block are mostly that.  Below
 * PIECE_MIN bytes a piece's setup and descriptor costs more than it
 * saves.
 */
#define PIECE_MIN 2048
#define STORE_PIECES 4    /* the last tile's store: semaphores SEM_LAST + p */

static int pieces(int64_t bytes, int max)
{
	int64_t p = bytes / PIECE_MIN;

	return p < 1 ? 1 : p > max ? max : (int)p;
}

/* Piece p of np of n items: [*a, *b), in whole units of `al` items. */
static void piece_of(int64_t n, int p, int np, int64_t al, int64_t *a, int64_t *b)
{
	int64_t per = (n + np - 1) / np;

	per = (per + al - 1) / al * al;
	*a = per * p < n ? per * p : n;
	*b = per * (p + 1) < n ? per * (p + 1) : n;
}

/* A store of a tile contiguous on both sides: the next kernel may copy
 * it from the slot (npu_handoff). */
static void handoff(emit_t *g, uint64_t dram, uint64_t sram, uint64_t bytes)
{
	if (!g->ho)
		return;
	g->ho->on = 1;
	g->ho->dram = dram;
	g->ho->sram = sram;
	g->ho->bytes = bytes;
	g->ho->i0 = g->ho->i1 = 0;
	g->nho++;
}

/* Operand o's part of tile t as one contiguous DRAM range [*d, *d +
 * *bytes), packed as the slot holds it; 0 when it is not. */
static int tile_contig(const emit_t *g, const tile *t, int o, uint64_t *d,
		       uint64_t *bytes)
{
	const npu_kval *v = &g->ir->v[g->K->ops[o].val];
	int esz = npu_dtype_size(v->dtype);
	int64_t off, sa = g->st[o][g->q - 2], sb = g->st[o][g->q - 1];
	int64_t so = g->q >= 3 ? g->st[o][g->q - 3] : 0;

	if (sb != 1 || (sa != t->cn && t->rn > 1) ||
	    (t->on > 1 && so != t->rn * t->cn) || rowlevel_out(g, o) ||
	    (g->stage && g->stage[o]))
		return 0;
	tile_dram(g, t, o, &off);
	*d = dram_of(g, o) + (uint64_t)(off * esz);
	*bytes = (uint64_t)(t->on * t->rn * t->cn * esz);
	return 1;
}

/* Does what the kernel before left in SRAM (g->hin) hold operand o's
 * part of tile t?  Its SRAM address in *src. */
static int tile_from_sram(const emit_t *g, const tile *t, int o, uint64_t *src,
			  uint64_t *bytes)
{
	uint64_t d;

	if (!g->hin || g->K->ops[o].out || !tile_contig(g, t, o, &d, bytes) ||
	    d < g->hin->dram || d + *bytes > g->hin->dram + g->hin->bytes)
		return 0;
	*src = g->hin->sram + (d - g->hin->dram);
	return 1;
}

/*
 * Does operand o's part of tile t lie in the SRAM-resident window
 * (an aperture address, npu_link_resident), packed as its slot would
 * hold it?  Its SRAM address in *src: the vector unit reads it there,
 * with no copy and no transfer to wait for (over all fixtures 0.6% fewer
 * cycles, up to 5%; none slower).  The access is noted for the watch, so
 * that the store that wrote it stays.  Not when the kernel before left
 * it in a slot (tile_from_sram): that copy lets the driver drop the
 * store, and reading the slot in place instead moved the next kernel's
 * prefetch shares so that llama_tiny ran 1.6% slower.
 */
static int tile_in_window(emit_t *g, const tile *t, int o, uint64_t *src)
{
	uint64_t d, bytes, h;

	if (g->K->ops[o].out || (g->tap && g->tap[o].lead >= 0) ||
	    !tile_contig(g, t, o, &d, &bytes) || !aperture(d) ||
	    tile_from_sram(g, t, o, &h, &bytes))
		return 0;
	watch_hit(g, d);
	*src = d - NPU_SRAM_APERTURE;
	return 1;
}

/* One operand's transfer of tile t, in at most maxp pieces over engines
 * eng[(base + p) % neng]; the pieces it takes (dry: emits nothing). */
/* Operand o is an input repeated across tiles of tc > 1 columns. */
static int bcast_in(const emit_t *g, int o, int64_t tc)
{
	return !g->K->ops[o].out && g->used[o] && g->st[o][g->q - 1] == 0 &&
	       tc > 1;
}

/* Broadcast input o (bcast_in): the tile's distinct elements (one a row;
 * one in all when the rows repeat too) into slot s's staging area, then
 * repeated into the slot, both on engine q, in that order; plane by
 * plane for a tile of several (the distinct elements read once when the
 * planes repeat them). */
static void bcast_load(emit_t *g, const tile *t, int s, int o, int q,
		       uint64_t d, int esz)
{
	int64_t sa = g->st[o][g->q - 2], rn = t->rn, cn = t->cn;
	int64_t on = t->on > 1 ? t->on : 1, so = on > 1 ? g->st[o][g->q - 3] : 0;
	int64_t dn = sa == 0 || rn == 1 ? 1 : rn;
	uint64_t base = g->stage[o] + g->bstep * (uint64_t)s;

	for (int64_t pl = 0; pl < on; pl++) {
		uint64_t st = base + (uint64_t)(so ? pl * dn * esz : 0);
		uint64_t src = d + (uint64_t)(pl * so * esz);
		if (pl == 0 || so) {
			if (dn == 1 || sa == 1)
				npu_emit_dmaf(g, q, NPU_OP_DLD, st, src, dn * esz,
					      1, 0, 0, 1, 0, 0);
			else
				npu_emit_dmaf(g, q, NPU_OP_DLD, st, src, esz, dn,
					      sa * esz, esz, 1, 0, 0);
		}
		npu_emit_dmaf(g, q, NPU_OP_DCP,
			      g->slotb[o][s] + (uint64_t)(pl * rn * cn * esz), st,
			      esz, cn, 0, esz, rn, dn > 1 ? esz : 0, cn * esz);
	}
}

/*
 * Taps: inputs that are views of one buffer with the same strides at
 * different offsets (a pooling window's or a grouped convolution's
 * strided views of its padded image).  Read one by one, each transfer
 * paid the DRAM latency (25 of them a tile for a 5x5 window); instead a
 * tile reads the span they cover once into a staging area, and each tap
 * is copied out of it SRAM to SRAM, on the same engine, in order.
 */
#define TAP_MIN 3

static int tap_ok(const emit_t *g, int o)
{
	if (g->K->ops[o].out || !g->used[o] || g->stage[o] ||
	    g->st[o][g->q - 1] < 1)
		return 0;
	for (int d = 0; d < g->q; d++)
		if (g->st[o][d] < 0)
			return 0;
	return 1;
}

static int tap_same(const emit_t *g, int a, int b)
{
	const npu_kval *va = &g->ir->v[g->K->ops[a].val];
	const npu_kval *vb = &g->ir->v[g->K->ops[b].val];
	int ra = va->root < 0 ? g->K->ops[a].val : va->root;
	int rb = vb->root < 0 ? g->K->ops[b].val : vb->root;

	if (ra != rb || va->dtype != vb->dtype)
		return 0;
	for (int d = 0; d < g->q; d++)
		if (g->st[a][d] != g->st[b][d])
			return 0;
	return 1;
}

/* DRAM bytes a tile of operand o covers, from its first element. */
static int64_t tap_extent(const emit_t *g, int o, int64_t on, int64_t rn,
			  int64_t cn, int esz)
{
	int64_t e = 1 + (rn - 1) * g->st[o][g->q - 2] + (cn - 1) * g->st[o][g->q - 1];

	if (on > 1)
		e += (on - 1) * g->st[o][g->q - 3];
	return e * esz;
}

/* Groups the taps; their staging areas from *addr on, within limit. */
static void tap_groups(emit_t *g, int64_t tm, int64_t tc, int64_t fold,
		       uint64_t *addr, uint64_t limit, int nld)
{
	const npu_kern *K = g->K;
	const npu_target *t = g->t;

	for (int o = 0; o < K->nops; o++) {
		int n = 0, esz;
		uint64_t lo, hi, bytes;
		double tb, fix = t->dma_setup + t->dram_latency, bw = t->dma_bytes_per_cycle;
		if (g->tap[o].lead >= 0 || !tap_ok(g, o))
			continue;
		lo = hi = dram_of(g, o);
		for (int m = o; m < K->nops; m++)
			if (g->tap[m].lead < 0 && tap_ok(g, m) && tap_same(g, o, m)) {
				uint64_t a = dram_of(g, m);
				n++;
				lo = a < lo ? a : lo;
				hi = a > hi ? a : hi;
			}
		if (n < TAP_MIN)
			continue;
		esz = npu_dtype_size(g->ir->v[K->ops[o].val].dtype);
		bytes = (hi - lo) + (uint64_t)tap_extent(g, o, fold, tm, tc, esz);
		bytes = (bytes + 63) & ~63ull;
		/* a tile's taps one by one over the load engines, against the
		 * span once and every tap copied on one engine (a span much
		 * larger than the taps, rows across the channels of a tall
		 * image, reads what no tap needs) */
		tb = (double)(fold * tm * tc * esz);
		if (*addr + bytes > limit ||
		    fix + (double)bytes / bw + n * (t->dma_setup + tb / bw) >=
		    n * (fix + tb / bw) / (nld > 1 ? nld : 1))
			continue;
		g->tap[o].stage = *addr;
		g->tap[o].dmax = (int64_t)(hi - lo);
		*addr += bytes;
		for (int m = o; m < K->nops; m++)
			if (g->tap[m].lead < 0 && tap_ok(g, m) && tap_same(g, o, m)) {
				g->tap[m].lead = o;
				g->tap[m].d = (int64_t)(dram_of(g, m) - lo);
			}
	}
}

/* Tap m of tile t from the staging area at src into its slot s. */
static void tap_copy(emit_t *g, const tile *t, int s, int m, int q,
		     uint64_t src, int esz)
{
	int64_t sa = g->st[m][g->q - 2] * esz, sb = g->st[m][g->q - 1] * esz;
	int64_t on = t->on > 1 ? t->on : 1, so = on > 1 ? g->st[m][g->q - 3] * esz : 0;
	int64_t rb = t->cn * esz, pk = t->rn * rb;
	uint64_t dst = g->slotb[m][s];

	if (sb == esz) {
		npu_emit_dmaf(g, q, NPU_OP_DCP, dst, src, rb, t->rn, sa, rb,
			      on, so, pk);
		return;
	}
	for (int64_t pl = 0; pl < on; pl++)
		npu_emit_dmaf(g, q, NPU_OP_DCP, dst + (uint64_t)(pl * pk),
			      src + (uint64_t)(pl * so), esz, t->cn, sb, esz,
			      t->rn, sa, rb);
}

/* The loads of tap group `lead` for tile t, slot s, on engine q. */
static void tap_load(emit_t *g, const tile *t, int s, int lead, int q, int esz)
{
	int64_t off, on = t->on > 1 ? t->on : 1;
	uint64_t lo;

	tile_dram(g, t, lead, &off);
	lo = dram_of(g, lead) + (uint64_t)(off * esz) - (uint64_t)g->tap[lead].d;
	npu_emit_dmaf(g, q, NPU_OP_DLD, g->tap[lead].stage, lo,
		      g->tap[lead].dmax + tap_extent(g, lead, on, t->rn, t->cn, esz),
		      1, 0, 0, 1, 0, 0);
	for (int m = lead; m < g->K->nops; m++)
		if (g->tap[m].lead == lead)
			tap_copy(g, t, s, m, q, g->tap[lead].stage +
				 (uint64_t)g->tap[m].d, esz);
}

static int tile_io_op(emit_t *g, const tile *t, int s, int store, int o,
		      const int *eng, int neng, int base, int maxp, int dry)
{
	const npu_kval *v = &g->ir->v[g->K->ops[o].val];
	int esz = npu_dtype_size(v->dtype), q = dry ? 0 : eng[base % neng], np;
	int64_t off, sa = g->st[o][g->q - 2], sb = g->st[o][g->q - 1], a, b;
	uint64_t d;

	tile_dram(g, t, o, &off);
	d = dram_of(g, o) + (uint64_t)(off * esz);
	if (!store && tile_in_window(g, t, o, &(uint64_t){ 0 }))
		return 0;
	if (!store && g->tap && g->tap[o].lead >= 0) {
		if (!dry && g->tap[o].lead == o)
			tap_load(g, t, s, o, q, esz);
		return 1;
	}
	if (!store && g->stage && g->stage[o] && sb == 0) {
		if (!dry)
			bcast_load(g, t, s, o, q, d, esz);
		return 1;
	}
	if (!store && !dry && g->hin) {
		/* copied SRAM to SRAM in as many pieces, on the same
		 * engines, as the load from DRAM would take */
		uint64_t src, n;
		if (tile_from_sram(g, t, o, &src, &n)) {
			np = tile_io_op(g, t, s, 0, o, NULL, 1, 0, maxp, 1);
			for (int p = 0; p < np; p++) {
				piece_of((int64_t)n, p, np, 64, &a, &b);
				if (b > a)
					npu_emit_dmaf(g, eng[(base + p) % neng], NPU_OP_DCP,
						      g->slotb[o][s] + (uint64_t)a,
						      src + (uint64_t)a, b - a, 1, 0, 0, 1, 0, 0);
			}
			return np;
		}
	}
	if (t->on > 1) {
		/* three dims in one transfer: rows of cn, rn, on */
		int64_t so = g->st[o][g->q - 3] * esz, rb = t->cn * esz;
		int64_t pk = t->rn * t->cn * esz;
		int st = !store && g->stage && g->stage[o];
		/* Staged: each engine stages and transposes its own planes,
		 * in its own part of the staging area (on one engine the
		 * planes' DRAM load was one transfer of all of them).  A
		 * part must stay with its engine from tile to tile, since
		 * only the engine's order keeps the next tile's load from
		 * overwriting planes not yet transposed: the planes of a
		 * short tile are split as those of a full one. */
		int64_t span = st && g->fold > t->on ? g->fold : t->on;
		np = pieces(span * pk, maxp);
		if (store && !dry && sb == 1 && sa == t->cn && so == pk)
			handoff(g, d, g->slotb[o][s], (uint64_t)(t->on * pk));
		for (int p = 0; p < np && !dry; p++) {
			piece_of(span, p, np, 1, &a, &b);
			q = eng[(base + p) % neng];
			b = b < t->on ? b : t->on;
			if (b <= a)
				continue;
			if (st) {
				/* this engine's planes [cn][rn] as stored in one
				 * transfer, then each plane transposed on chip */
				npu_emit_dmaf(g, q, NPU_OP_DLD, g->stage[o] + (uint64_t)(a * pk),
					      d + (uint64_t)(a * so), t->rn * esz,
					      t->cn, sb * esz, t->rn * esz, b - a, so, pk);
				for (int64_t pl = a; pl < b; pl++)
					npu_emit_dmaf(g, q, NPU_OP_DCP,
						      g->slotb[o][s] + (uint64_t)(pl * pk),
						      g->stage[o] + (uint64_t)(pl * pk), esz, t->cn,
						      t->rn * esz, esz, t->rn, esz, t->cn * esz);
			} else if (store)
				npu_emit_dmaf(g, q, NPU_OP_DST, d + (uint64_t)(a * so),
					      g->slotb[o][s] + (uint64_t)(a * pk), rb,
					      t->rn, rb, sa * esz, b - a, pk, so);
			else
				npu_emit_dmaf(g, q, NPU_OP_DLD, g->slotb[o][s] + (uint64_t)(a * pk),
					      d + (uint64_t)(a * so), rb, t->rn, sa * esz, rb,
					      b - a, so, pk);
		}
		return np;
	}
	if (dry)
		; /* the counts below */
	else if (!store && g->stage && g->stage[o] && t->rn > 1) {
		/* [cn][rn] as stored, then the transpose on chip */
		npu_emit_dmaf(g, q, NPU_OP_DLD, g->stage[o], d, t->rn * esz, t->cn,
			      sb * esz, t->rn * esz, 1, 0, 0);
		npu_emit_dmaf(g, q, NPU_OP_DCP, g->slotb[o][s], g->stage[o],
			      esz, t->cn, t->rn * esz, esz,
			      t->rn, esz, t->cn * esz);
		return 1;
	} else if (rowlevel_out(g, o)) {
		npu_emit_dma(g, q, store, d, g->slotb[o][rowslot(g, t, o, s)], esz, t->rn, 1, sa, 1);
		return 1;
	}
	if ((!store && g->stage && g->stage[o] && t->rn > 1) || rowlevel_out(g, o))
		return 1;
	if (store && !dry && sb == 1 && (sa == t->cn || t->rn == 1))
		handoff(g, d, g->slotb[o][s], (uint64_t)(t->rn * t->cn * esz));
	np = pieces(t->rn * t->cn * esz, maxp);
	if (np > 1 && sb == 1 && (sa == t->cn || t->rn == 1)) {
		/* contiguous: byte ranges of whole 64-byte lines */
		int64_t n = t->rn * t->cn, al = esz < 64 ? 64 / esz : 1;
		for (int p = 0; p < np && !dry; p++) {
			piece_of(n, p, np, al, &a, &b);
			if (b > a)
				npu_emit_dma(g, eng[(base + p) % neng], store,
					     d + (uint64_t)(a * esz),
					     g->slotb[o][s] + (uint64_t)(a * esz),
					     esz, 1, b - a, 0, 1);
		}
		return np;
	}
	if (np > t->rn)
		np = (int)t->rn;
	for (int p = 0; p < np && !dry; p++) {
		piece_of(t->rn, p, np, 1, &a, &b);
		if (b > a)
			npu_emit_dma(g, eng[(base + p) % neng], store,
				     d + (uint64_t)(a * sa * esz),
				     g->slotb[o][s] + (uint64_t)(a * t->cn * esz),
				     esz, b - a, t->cn, sa, sb);
	}
	return np;
}

/*
 * The engines for tile t's loads (store 0) or stores: a transfer holds
 * its engine until its data has reached DRAM or SRAM (latency
 * included), so two transfers on one engine queue; with fewer operands
 * than engines, the largest operands take the spare engines, piece by
 * piece.  Operand o gets np[o] engines from base[o] on; the number of
 * engines used.
 */
static int share_engines(emit_t *g, const tile *t, int store, int n,
			 int *np, int *base)
{
	const npu_kern *K = g->K;
	int64_t b[64];
	int m = 0, used = 0, over = 0;

	for (int o = 0; o < K->nops; o++) {
		np[o] = 0;
		if (K->ops[o].out != store || (!store && !g->used[o]))
			continue;
		m++;
		np[o] = 1;
		b[o < 64 ? o : 63] = 0;
		if (o < 64 && tile_io_op(g, t, 0, store, o, NULL, 1, 0, 2, 1) > 1)
			b[o] = t->on * t->rn * t->cn *
			       npu_dtype_size(g->ir->v[K->ops[o].val].dtype);
	}
	if (!store && m >= n) {
		/* every engine busy already: each operand on its own */
		for (int o = 0; o < K->nops; o++)
			np[o] = np[o] ? 1 : 0;
		return n;
	}
	for (int extra = n - m; extra > 0; extra--) {
		int best = -1;
		for (int o = 0; o < K->nops && o < 64; o++)
			if (np[o] && b[o] / (np[o] + 1) >= PIECE_MIN &&
			    (best < 0 || b[o] / np[o] > b[best] / np[best]))
				best = o;
		if (best < 0)
			break;
		np[best]++;
	}
	for (int o = 0; o < K->nops; o++) {
		if (!np[o])
			continue;
		if (store && used + np[o] > n) {
			/* more outputs than engines: in turn over those
			 * taken (a queue on one engine waits its latency
			 * a transfer) */
			np[o] = 1;
			base[o] = over++ % used;
			continue;
		}
		base[o] = used;
		used += np[o];
	}
	return used > 1 ? used : 1;
}

/* The loads (or stores) of tile t; loads of operand o in at most
 * g->npc[o] pieces, stores in at most neng. */
static void tile_io(emit_t *g, const tile *t, int s, int store,
		    const int *eng, int neng)
{
	const npu_kern *K = g->K;

	for (int o = 0; o < K->nops; o++) {
		if (K->ops[o].out != store)
			continue;
		if (!store && g->used[o] == 0)
			continue;
		/* multi-pass rows: elementwise results in the last pass,
		 * per-row results after the row's last tile */
		if (store && t->pass >= 0 &&
		    (t->pass != g->npass - 1 || (rowlevel_out(g, o) && !t->last)))
			continue;
		if (store) {
			/* the instructions of a store that leaves a hand-off,
			 * which the driver drops when no kernel reads them back */
			int i0 = g->f->n, nho = g->nho;
			if (neng == 1)
				tile_io_op(g, t, s, 1, o, eng, 1, 0, 1, 0);
			else
				tile_io_op(g, t, s, 1, o, eng, neng, g->sbase[o], g->spc[o], 0);
			if (g->ho && g->nho != nho) {
				g->ho->kp = (int)(K - g->ir->k);
				g->ho->val = K->ops[o].val;
				g->ho->i0 = i0;
				g->ho->i1 = g->f->n;
			}
		} else
			tile_io_op(g, t, s, 0, o, eng, neng, g->ldeng[o], g->npc[o], 0);
	}
}

/* The per-row instructions after reduction ri's total, up to the next
 * reduction (multi-pass rows). */
static void after_red(emit_t *g, int ri)
{
	npu_mfunc *f = g->f;

	for (int i = ri + 1; i < g->K->nx && g->K->x[i].op != NPU_X_RED; i++) {
		const npu_xins *x = &g->K->x[i];
		f->node = x->node;
		if (x->op == NPU_X_RFIN) {
			int v = npu_mv(f);
			npu_memit(f, g->K->x[x->a].vop == NPU_OP_VMAX ? NPU_OP_VREDMAX
				  : NPU_OP_VREDSUM, v, g->rowm[x->a], 0, 0);
			g->rowm[i] = v;
		} else if (x->op == NPU_X_STORE && g->lv[i] == 1) {
			const npu_kopnd *o = &g->K->ops[x->b];
			int dt = g->ir->v[o->val].dtype;
			int v = npu_emit_x(g, x->a), xv = npu_mx(f);
			npu_memit(f, NPU_OP_SETVL, xv, g->xone, 0, 0);
			npu_memit(f, NPU_OP_VST, v, 0, dt, (int64_t)g->slot[x->b]);
			xv = npu_mx(f);
			npu_memit(f, NPU_OP_SETVL, xv, g->xvlen, 0, 0);
		} else if (g->lv[i] == 1 && x->op != NPU_X_STORE) {
			npu_emit_x(g, i);
		}
	}
}

static void body_red(emit_t *g, void *arg);
static void body_stores(emit_t *g, void *arg);

/* One column tile of one pass of a row too long for SRAM: the row's
 * per-row registers (accumulators, totals) live across its tiles. */
static void compute_multipass(emit_t *g, const tile *t)
{
	npu_mfunc *f = g->f;
	int ri = -1, j = 0;

	memset(g->xrowc, 0, sizeof g->xrowc);
	memset(g->xrow, 0, sizeof g->xrow);
	if (t->pass == 0 && t->first) {
		for (int i = 0; i < g->K->nx; i++)
			g->rowm[i] = -1;
		after_red(g, -1); /* per-row values before the first reduction */
	}
	for (int i = 0; i < g->K->nx; i++)
		if (g->K->x[i].op == NPU_X_RED && j++ == t->pass)
			ri = i;
	if (ri < 0) { /* the last pass: elementwise results */
		npu_emit_pass(g, t->cn, body_stores, NULL);
		return;
	}
	if (t->first) {
		int acc = npu_mv(f);
		f->node = g->K->x[ri].node;
		npu_memit(f, NPU_OP_VLI, acc, 0, 0,
			  npu_mfimm(g->K->x[ri].vop == NPU_OP_VMAX ? -INFINITY : 0.0f));
		g->rowm[ri] = acc;
		/* (a row in passes is long: its partials live across its tiles) */
		racc_begin(g, ri, acc);
	}
	npu_emit_pass(g, t->cn, body_red, &ri);
	if (t->last) {
		racc_end(g, ri);
		after_red(g, ri);
	}
}

static void compute_tile(emit_t *g, const tile *t, int s)
{
	const npu_kern *K = g->K;

	if (t->pass == 0 && t->first)
		g->rgroup++;
	for (int o = 0; o < K->nops; o++)
		if (!tile_in_window(g, t, o, &g->slot[o]))
			g->slot[o] = g->slotb[o][rowslot(g, t, o, s)];
	if (t->pass >= 0) {
		compute_multipass(g, t);
		return;
	}
	memset(g->xrowc, 0, sizeof g->xrowc);
	memset(g->xrow, 0, sizeof g->xrow);
	if (K->kind != NPU_KK_ROW) {
		npu_emit_row(g, t->on * t->rn * t->cn);
		return;
	}
	if (npu_emit_lanes(K, g->t, t->on * t->rn, t->cn, NULL))
		lanes_rows(g, t->on * t->rn, t->cn);
	else
		npu_emit_rows_ilv(g, t->on * t->rn, 0, t->cn);
}

/* Rows of a row kernel computed together (one row at a time): each
 * row's chain of latencies (load, multiply, the reduction across lanes,
 * the per-row math, the next pass) leaves the in-order vector unit
 * waiting about 50 cycles a row when rows follow each other; ROW_ILV
 * rows' instructions interleaved round-robin overlap those chains. */
#define ROW_ILV 4
/* Their interleaved instructions may keep this many vector registers
 * live (of 29 allocatable; a row kernel's loop holds nothing else). */
#define ROW_ILV_REGS 24

/* May the instructions [a, b) of f be reordered across instances?  Not
 * when they change vl (a tail, a per-row store: setvl is stamped on the
 * vector instructions dispatched after it), branch or hold a label. */
static int ilv_safe(const npu_mfunc *f, int a, int b)
{
	for (int i = a; i < b; i++)
		if (f->v[i].op == NPU_OP_SETVL || f->v[i].label >= 0 ||
		    (npu_optab[f->v[i].op].flags & NPU_BR))
			return 0;
	for (int l = 0; l < f->nlab; l++)
		if (f->lab[l] > a && f->lab[l] < b)
			return 0;
	return 1;
}

/* n rows from the row offsets in xrowc/xrow (not advanced), each with
 * row registers of its own, interleaved when that is safe and keeps the
 * vector registers within ILV_REGS. */
static void row_group(emit_t *g, int n, int64_t cols)
{
	npu_mfunc *f = g->f;
	int bc[4], br[4], bo[4], at[ROW_ILV + 1];
	int rc[ROW_ILV][4], rr[ROW_ILV][4], ro[ROW_ILV][4];

	memcpy(bc, g->xrowc, sizeof bc);
	memcpy(br, g->xrow, sizeof br);
	memcpy(bo, g->xoff, sizeof bo);
	for (int r = 0; r < n; r++)
		for (int e = 0; e < 4; e++) {
			rc[r][e] = bc[e], rr[r][e] = br[e], ro[r][e] = bo[e];
			if (!(g->emask >> e & 1) || r == 0)
				continue;
			rc[r][e] = npu_mx(f);
			rr[r][e] = npu_mx(f);
			ro[r][e] = npu_mx(f);
			npu_memit(f, NPU_OP_ADDI, rc[r][e], bc[e], 0, r * cols << e);
			npu_memit(f, NPU_OP_ADDI, rr[r][e], br[e], 0, r << e);
		}
	for (int r = 0; r < n; r++) {
		memcpy(g->xrowc, rc[r], sizeof bc);
		memcpy(g->xrow, rr[r], sizeof br);
		memcpy(g->xoff, ro[r], sizeof bo);
		at[r] = f->n;
		npu_emit_row(g, cols);
	}
	at[n] = f->n;
	memcpy(g->xrowc, bc, sizeof bc);
	memcpy(g->xrow, br, sizeof br);
	memcpy(g->xoff, bo, sizeof bo);
	npu_emit_ilv(f, at, n);
}

/* (emit_int.h) */
void npu_emit_ilv(npu_mfunc *f, const int *at, int n)
{
	if (n < 2 || !ilv_safe(f, at[0], at[n]))
		return;
	if (interleave_regs(f, at, n, 0, ROW_ILV_REGS) || n < 4)
		return;
	/* too many registers for all: in pairs */
	for (int i = 0; i + 1 < n; i += 2)
		(void)interleave_regs(f, at + i, 2, 0, ROW_ILV_REGS);
}

/* npu_emit_row for `rows` rows, or (rows < 0) as many as register xn
 * holds, at least one; the row offsets in xrowc/xrow.  With ilv > 1,
 * groups of ilv rows (row_group), then the rows left one at a time. */
static void rows_loop(emit_t *g, int64_t rows, int xn, int64_t cols, int ilv)
{
	npu_mfunc *f = g->f;
	int xc = 0, lab = -1, xg = 0, glab = -1, gskip = -1;

	for (int e = 0; e < 4; e++) {
		g->xrowc[e] = g->xrow[e] = 0;
		if (!(g->emask >> e & 1))
			continue;
		g->xrowc[e] = npu_mx(f);
		g->xrow[e] = npu_mx(f);
		npu_memit(f, NPU_OP_LI, g->xrowc[e], 0, 0, 0);
		npu_memit(f, NPU_OP_LI, g->xrow[e], 0, 0, 0);
	}
	if (ilv > 1 && (rows < 0 || rows >= ilv)) {
		/* groups: rows / ilv of them (in a register when dynamic) */
		xg = npu_mx(f);
		if (rows < 0) {
			int xq = npu_mx(f);
			npu_mli(f, xq, ilv);
			npu_memit(f, NPU_OP_DIV, xg, xn, xq, 0);
			gskip = npu_mlabel(f);
			npu_memit_br(f, NPU_OP_BEQ, xg, 0, gskip);
		} else {
			npu_mli(f, xg, rows / ilv);
		}
		glab = npu_mlabel(f);
		npu_mbind(f, glab);
		row_group(g, ilv, cols);
		for (int e = 0; e < 4; e++) {
			if (!(g->emask >> e & 1))
				continue;
			npu_memit(f, NPU_OP_ADDI, g->xrowc[e], g->xrowc[e], 0,
				  ilv * cols << e);
			npu_memit(f, NPU_OP_ADDI, g->xrow[e], g->xrow[e], 0, ilv << e);
		}
		npu_memit(f, NPU_OP_ADDI, xg, xg, 0, -1);
		npu_memit_br(f, NPU_OP_BNE, xg, 0, glab);
		if (gskip >= 0)
			npu_mbind(f, gskip);
		if (rows >= 0) {
			rows %= ilv;
			if (!rows)
				goto out;
		}
	}
	if (rows < 0 && ilv > 1) {
		/* the rows left after the groups: xn % ilv, maybe none */
		int xq = npu_mx(f);
		xc = npu_mx(f);
		npu_mli(f, xq, ilv);
		npu_memit(f, NPU_OP_REM, xc, xn, xq, 0);
		gskip = npu_mlabel(f);
		npu_memit_br(f, NPU_OP_BEQ, xc, 0, gskip);
		lab = npu_mlabel(f);
		npu_mbind(f, lab);
	} else if (rows > 1 || rows < 0) {
		xc = npu_mx(f);
		if (rows < 0)
			npu_memit(f, NPU_OP_MOV, xc, xn, 0, 0);
		else
			npu_mli(f, xc, rows);
		lab = npu_mlabel(f);
		npu_mbind(f, lab);
	}
	npu_emit_row(g, cols);
	if (xc) {
		for (int e = 0; e < 4; e++) {
			if (!(g->emask >> e & 1))
				continue;
			npu_memit(f, NPU_OP_ADDI, g->xrowc[e], g->xrowc[e], 0,
				  cols << e);
			npu_memit(f, NPU_OP_ADDI, g->xrow[e], g->xrow[e], 0, 1 << e);
		}
		npu_memit(f, NPU_OP_ADDI, xc, xc, 0, -1);
		npu_memit_br(f, NPU_OP_BNE, xc, 0, lab);
	}
	if (rows < 0 && ilv > 1)
		npu_mbind(f, gskip);
out:
	memset(g->xrowc, 0, sizeof g->xrowc);
	memset(g->xrow, 0, sizeof g->xrow);
}

/* A loop over `rows` rows of `cols` elements each (slots packed per row;
 * per-row slots one element per row), computing npu_emit_row per row. */
void npu_emit_rows(emit_t *g, int64_t rows, int64_t cols)
{
	rows_loop(g, rows, 0, cols, 1);
}

/* The same for as many rows as register xn holds (at least one; dyn). */
void npu_emit_rows_x(emit_t *g, int xn, int64_t cols)
{
	rows_loop(g, -1, xn, cols, 1);
}

/* A row kernel's rows one at a time (npu_emit_rows), ROW_ILV of them
 * interleaved (row_group); xn as in npu_emit_rows_x when rows < 0. */
void npu_emit_rows_ilv(emit_t *g, int64_t rows, int xn, int64_t cols)
{
	rows_loop(g, rows, xn, cols, ROW_ILV);
}

/*
 * The resident constants' preload (link.c, res_place), before kernel 0's
 * code: one block of DRAM copied into the window's start, a piece per
 * engine (an engine holds a transfer through the DRAM latency, so one
 * each is quickest: llama_tiny's eight constants, 17 KB, 921 cycles in
 * two transfers an engine, 510 in one).  Every engine used then signals
 * SEM_END and the scalar unit takes all the tokens, so no kernel reads
 * the window before it is whole.  f is a function of its own, the
 * program's first kernel, "preload"; each piece is attributed to the node
 * of the constant it starts in.
 */
/* g for code that only moves data: no kernel's operands or registers. */
static void emit_bare(emit_t *g, const npu_emitctx *c, const npu_kern *K,
		      npu_mfunc *f)
{
	memset(g, 0, sizeof *g);
	g->ir = c->ir;
	g->p = c->p;
	g->t = c->t;
	g->K = K;
	g->f = f;
}

void npu_emit_preload(const npu_emitctx *c, npu_mfunc *f)
{
	const npu_kir *ir = c->ir;
	int E = c->t->dma_engines < NPU_MAX_DMA ? c->t->dma_engines : NPU_MAX_DMA;
	uint64_t n = ir->pre_bytes, piece = ((n + (uint64_t)E - 1) / (uint64_t)E + 63) & ~63ull;
	int used = 0;
	emit_t g;

	emit_bare(&g, c, NULL, f);
	for (uint64_t off = 0; off < n && used < E; off += piece, used++) {
		uint64_t len = n - off < piece ? n - off : piece;
		for (int i = 0; i < ir->npre; i++)
			if (ir->v[ir->pre[i]].roff <= off)
				f->node = ir->v[ir->pre[i]].node;
		npu_emit_dmaf(&g, used, NPU_OP_DLD, ir->res_sram + off,
			      ir->pre_dram + off, (int64_t)len, 1, 0, 0, 1, 0, 0);
	}
	/* (the signals and waits: the last piece's node) */
	for (int e = 0; e < used; e++)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + e, SEM_END, 0, 0);
	for (int e = 0; e < used; e++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
}

/* (driver.h) A kernel ends when what it wrote has landed: the next kernel, a host
 * call or the program's end may read the DRAM it stored and reuse the
 * SRAM its transfers read.  Each template ends by waiting for the
 * engines of its last stores; an engine whose last write (dst, dstc,
 * dcp, dmv) no later signal of that engine follows is one it missed
 * (a convolution's store of the block before the last, MaxViT's and
 * wav2vec2's races), and the kernel's end waits for it too.  (Never
 * more than it needs: an engine's signal fires once its earlier work
 * is done, and the scalar unit waits for its stores, which the kernel
 * must have done, not for its later loads, which would have signalled.
 * SEM_PF does not count: the next kernel's array waits for it, not the
 * engines that read what this kernel stored.)
 */
void npu_emit_seal(const npu_target *t, npu_mfunc *f)
{
	int nq = t->dma_engines < NPU_MAX_DMA ? t->dma_engines : NPU_MAX_DMA;
	int open[NPU_MAX_DMA] = { 0 };

	for (int i = 0; i < f->n; i++) {
		const npu_minsn *m = &f->v[i];
		int op = m->op & 0xff;
		if ((op == NPU_OP_DST || op == NPU_OP_DSTC || op == NPU_OP_DCP ||
		     op == NPU_OP_DMV) && m->f[0] >= 0 && m->f[0] < nq)
			open[m->f[0]] = 1;
		else if (op == NPU_OP_SIG && m->f[0] >= NPU_UNIT_DMA0 &&
			 m->f[0] < NPU_UNIT_DMA0 + nq && m->f[1] != SEM_PF)
			open[m->f[0] - NPU_UNIT_DMA0] = 0;
	}
	for (int q = 0; q < nq; q++)
		if (open[q]) {
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, SEM_END, 0, 0);
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
		}
}

void npu_emit_far(const npu_emitctx *c, int j, npu_pfplan *p, npu_mfunc *f)
{
	const npu_kern *K = &c->ir->k[j];
	emit_t g;
	int q = p->fq;

	emit_bare(&g, c, K, f);
	f->node = K->nnodes ? K->nodes[0] : -1; /* (a node of its kernel's) */
	npu_emit_pf(&g, p, &q, 1, 0);
}

int npu_emit_setup(emit_t *g, const npu_emitctx *c, int k, npu_mfunc *f)
{
	memset(g, 0, sizeof *g);
	g->ir = c->ir;
	g->p = c->p;
	g->t = c->t;
	g->K = &c->ir->k[k];
	g->f = f;
	g->rel = c->rel;
	g->watch = c->watch;
	g->lv = malloc((size_t)(g->K->nx + 1) * sizeof *g->lv);
	g->memo = malloc((size_t)(g->K->nx + 1) * sizeof *g->memo);
	g->rowm = malloc((size_t)(g->K->nx + 1) * sizeof *g->rowm);
	g->st = malloc((size_t)(g->K->nops + 1) * sizeof *g->st);
	g->slot = calloc((size_t)(g->K->nops + 1), sizeof *g->slot);
	g->slotb = calloc((size_t)(g->K->nops + 1), sizeof *g->slotb);
	g->ldeng = calloc((size_t)(g->K->nops + 1), sizeof *g->ldeng);
	g->used = calloc((size_t)(g->K->nops + 1), sizeof *g->used);
	g->stage = calloc((size_t)(g->K->nops + 1), sizeof *g->stage);
	g->tap = calloc((size_t)(g->K->nops + 1), sizeof *g->tap);
	if (!g->lv || !g->memo || !g->rowm || !g->st || !g->slot || !g->slotb ||
	    !g->ldeng || !g->used || !g->stage || !g->tap)
		return -1;
	for (int o = 0; o < g->K->nops; o++)
		g->tap[o].lead = -1;
	npu_emit_level(g->K, g->lv, NULL);
	for (int i = 0; i < g->K->nx; i++)
		if (g->K->x[i].op == NPU_X_LOAD)
			g->used[g->K->x[i].a] = 1;
	g->emask = 1u << esz_idx(4); /* the accumulator */
	for (int o = 0; o < g->K->nops; o++)
		g->emask |= 1u << esz_idx(npu_dtype_size(g->ir->v[g->K->ops[o].val].dtype));
	for (int e = 0; e < 4; e++)
		g->xoff[e] = npu_mx(f);
	g->xvlen = npu_mx(f);
	g->xone = npu_mx(f);
	npu_mli(f, g->xvlen, g->t->vlen);
	npu_memit(f, NPU_OP_LI, g->xone, 0, 0, 1);
	{
		int xv = npu_mx(f);
		npu_memit(f, NPU_OP_SETVL, xv, g->xvlen, 0, 0);
	}
	return 0;
}

void npu_emit_cleanup(emit_t *g)
{
	free(g->lv);
	free(g->memo);
	free(g->rowm);
	free(g->st);
	free(g->slot);
	free(g->slotb);
	free(g->ldeng);
	free(g->used);
	free(g->stage);
	free(g->tap);
	free(g->rowop);
	free(g->npc);
}

/* Does the kernel store only into the resident window? */
static int outs_resident(const emit_t *g)
{
	int any = 0;

	for (int o = 0; o < g->K->nops; o++) {
		const npu_kval *v = &g->ir->v[g->K->ops[o].val];
		if (!g->K->ops[o].out)
			continue;
		if (!(v->root >= 0 ? g->ir->v[v->root].res : v->res))
			return 0;
		any = 1;
	}
	return any;
}

/*
 * The next kernel's first B panel (npu_emit_pf), after this kernel's
 * last loads, over up to two engines that store nothing, so that the
 * last tile's stores do not queue behind it.  When every engine stores,
 * after the stores instead (late), over every engine, the matmul's B
 * engines first: then it overlaps the last stores' DRAM latency and the
 * matmul's start only (whose A, copied from SRAM when this kernel left
 * it there, queues behind a quarter of it).
 */
static void ew_prefetch(emit_t *g, const npu_emitctx *c, const int *seng,
			int nst, uint64_t end, int late)
{
	int q[NPU_MAX_DMA], n = 0, E = c->t->dma_engines;
	npu_pfplan *p = c->pfnext;

	if (!p)
		return;
	if (late) {
		int order[4] = { 1, 3, 0, 2 };
		for (int i = 0; i < 4; i++)
			if (order[i] < E)
				q[n++] = order[i];
		npu_emit_pf(g, p, q, n, end);
		return;
	}
	/* (stores into the resident window are SRAM copies, or dead: their
	 * engines take a share of a matmul's panel too; transformers at 32
	 * tokens 4-9% faster, llama_tiny 54.9 k -> 53.6 k cycles.  Not a
	 * convolution's weight: CNNs up to 3% slower) */
	int res = p->plain && outs_resident(g), most = res ? 4 : 3;
	for (int x = E - 1; x >= 0 && n < most; x--) {
		int stores = 0;
		for (int i = 0; i < nst; i++)
			stores |= seng[i] == x;
		if (!stores || res)
			q[n++] = x;
	}
	npu_emit_pf_even(g, p, q, n, end);
}

/*
 * A one-tile kernel whose input the kernel before left in SRAM
 * (npu_handoff) copies it from there.  Its own slots start above what
 * was left (when they are below it they fit as they are), and all of it
 * stays below the prefetch areas (npu_pfplan); the new end of its SRAM.
 */
static uint64_t ew_from_sram(emit_t *g, const npu_emitctx *c, const tile *t,
			     int nbuf, uint64_t addr)
{
	const npu_handoff *h = c->hoin;
	const npu_target *tg = c->t;
	uint64_t floor = tg->sram_bytes - NPU_SPILL_BYTES, base, src, n;
	int any = 0;

	if (tg->sram_banks >= 4)
		floor = tg->sram_bytes - 4 * npu_target_bank_bytes(tg);
	if (!h || !h->on || h->sram + h->bytes > floor)
		return addr;
	g->hin = h;
	for (int o = 0; o < g->K->nops; o++)
		any |= g->used[o] && tile_from_sram(g, t, o, &src, &n);
	g->hin = NULL;
	if (!any)
		return addr;
	if (addr <= h->sram) {
		g->hin = h;
		return addr;
	}
	base = (h->sram + h->bytes + 63) & ~63ull;
	if (base + addr > floor)
		return addr;
	for (int o = 0; o < g->K->nops; o++) {
		for (int s = 0; s < nbuf; s++)
			g->slotb[o][s] += base;
		if (g->stage[o])
			g->stage[o] += base;
		if (g->tap[o].lead == o)
			g->tap[o].stage += base;
	}
	g->hin = h;
	return addr + base;
}

static int emit_ew(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e)
{
	emit_t g;
	const npu_kern *K = &c->ir->k[k];
	int rc = -1, nbuf = K->kn.bufs > 1 ? 2 : 1;
	int E = c->t->dma_engines, nld = E > 1 ? E - 1 : 1;
	int64_t tm, tc, ntr, ntc, nouter = 1, fold = 1;
	tile *tl = NULL;
	int64_t nt = 0;
	uint64_t addr = 0;
	int ldsem_used[NPU_MAX_DMA] = { 0 }, leng[NPU_MAX_DMA], seng[STORE_PIECES];
	int nst = 1, *sbase = NULL, spread;

	if (npu_emit_setup(&g, c, k, f) < 0)
		return npu_errf(e, "out of memory");
	g.ho = c->hoout;
	if (npu_kir_numel(K->ndim, K->shape) == 0 || !K->nops) {
		/* nothing runs: what the kernel before left stays */
		if (c->hoin && c->hoout)
			*c->hoout = *c->hoin;
		rc = 0;
		goto out;
	}
	if (npu_emit_dims(c->ir, K, g.n, g.st, &g.q) < 0) {
		npu_errf(e, "kernel %s: the reduced dims are not contiguous in every operand",
			 K->name);
		goto out;
	}
	tm = K->kn.tile_m > 0 ? K->kn.tile_m : 1;
	tc = K->kn.tile_c > 0 ? K->kn.tile_c : g.n[g.q - 1];
	if (K->kind == NPU_KK_ROW && tc < g.n[g.q - 1]) {
		/* rows longer than SRAM holds: one pass per reduction over
		 * column tiles, one row at a time, then the epilogue pass */
		g.npass = 1;
		for (int i = 0; i < K->nx; i++)
			g.npass += K->x[i].op == NPU_X_RED;
		tm = 1;
	}
	if (tc > g.n[g.q - 1])
		tc = g.n[g.q - 1];
	if (tm > g.n[g.q - 2])
		tm = g.n[g.q - 2];
	for (int d = 0; d < g.q - 2; d++)
		nouter *= g.n[d];
retile:
	ntr = (g.n[g.q - 2] + tm - 1) / tm;
	ntc = (g.n[g.q - 1] + tc - 1) / tc;
	/* ew tiles that cover whole [rows][cols] planes take several planes
	 * of the dim before, when every operand's rows are contiguous (the
	 * third DMA level), instead of one small tile per plane */
	fold = 1;
	/* (row kernels too when their rows run across the lanes, without
	 * per-row outputs: a softmax whose mask broadcasts over the heads
	 * kept one small tile per head) */
	if ((K->kind == NPU_KK_EW ||
	     (K->kind == NPU_KK_ROW && npu_emit_lanes(K, c->t, tm * (g.q >= 3 ? g.n[g.q - 3] : 1), tc, NULL))) &&
	    g.q >= 3 && tm == g.n[g.q - 2] && tc == g.n[g.q - 1] && !g.npass) {
		int ok = 1;
		for (int o = 0; o < K->nops; o++)
			ok &= !rowlevel_out(&g, o);
		/* (an input read transposed is staged plane by plane) */
		for (int o = 0; o < K->nops; o++)
			ok &= g.st[o][g.q - 1] == 1 || !(K->ops[o].out || g.used[o]) ||
			      (!K->ops[o].out && g.st[o][g.q - 2] == 1 &&
			       g.st[o][g.q - 1] != 0 && tm > 1) ||
			      bcast_in(&g, o, tc);
		if (ok && tm * tc < 32768) {
			fold = 32768 / (tm * tc);
			if (fold > g.n[g.q - 3])
				fold = g.n[g.q - 3];
		}
	}
	/* SRAM slots: as many folded planes as fit beside the spill area
	 * (on npu-edge's 1 MiB a depthwise convolution's ten operands of 32
	 * planes of 32 x 32 did not) */
again:
	addr = 0;
	for (int o = 0; o < K->nops; o++) {
		int esz = npu_dtype_size(c->ir->v[K->ops[o].val].dtype);
		uint64_t bytes = (uint64_t)(fold * tm * (rowlevel_out(&g, o) ? 1 : tc) * esz);
		bytes = (bytes + 63) & ~63ull;
		for (int s = 0; s < nbuf; s++) {
			g.slotb[o][s] = addr;
			addr += bytes;
		}
		g.ldeng[o] = o % nld;
		g.stage[o] = 0; /* (a layout tried before may have staged it) */
		/* a transposed input (unit stride across rows): staged in SRAM
		 * as read from DRAM, whole rows, then transposed SRAM to SRAM,
		 * instead of one DRAM burst per element */
		if (!K->ops[o].out && g.used[o] && g.st[o][g.q - 2] == 1 &&
		    g.st[o][g.q - 1] != 1 && g.st[o][g.q - 1] != 0 && tm > 1) {
			g.stage[o] = addr;
			addr += bytes;
		}
		/* an input repeated across the columns (a per-channel weight
		 * or bias, a scalar): its distinct elements, one a row or one
		 * in all, staged per slot and repeated SRAM to SRAM; read
		 * repeated from DRAM, every element paid a whole burst */
		if (bcast_in(&g, o, tc)) {
			g.bstep = (uint64_t)(fold * tm * 8 + 63) & ~63ull;
			g.stage[o] = addr;
			addr += g.bstep * (uint64_t)nbuf;
		}
	}
	if (addr > c->t->sram_bytes - NPU_SPILL_BYTES && fold > 1) {
		fold /= 2;
		goto again;
	}
	/* then smaller tiles than the tiler's, whose estimate leaves out
	 * the staging (an input read transposed, one repeated); a row
	 * kernel's columns only when its rows already take several passes
	 * (in whole vectors: a mean over 66,049 values on npu-edge, the
	 * row a per-row value is read with staged beside it) */
	if (addr > c->t->sram_bytes - NPU_SPILL_BYTES && (tm > 1 ||
	    (K->kind == NPU_KK_EW && tc > 1) ||
	    (K->kind == NPU_KK_ROW && tc < g.n[g.q - 1] && tc >= 2 * c->t->vlen))) {
		if (tm > 1)
			tm = (tm + 1) / 2;
		else if (K->kind == NPU_KK_ROW)
			tc = tc / 2 / c->t->vlen * c->t->vlen;
		else
			tc = (tc + 1) / 2;
		goto retile;
	}
	if (K->kind == NPU_KK_EW)
		tap_groups(&g, tm, tc, fold, &addr, c->t->sram_bytes - NPU_SPILL_BYTES, nld);
	if (addr > c->t->sram_bytes - NPU_SPILL_BYTES) {
		npu_errf(e, "kernel %s: tile %lldx%lld needs %llu KiB of SRAM, %llu KiB available",
			 K->name, (long long)tm, (long long)tc,
			 (unsigned long long)(addr >> 10),
			 (unsigned long long)((c->t->sram_bytes - NPU_SPILL_BYTES) >> 10));
		goto out;
	}
	g.steng = E - 1;
	g.fold = fold;
	if (fold > 1) {
		/* tiles over blocks of `fold` planes of dim q-3 */
		int64_t n3 = g.n[g.q - 3], nb3 = (n3 + fold - 1) / fold, i = 0;
		nt = nouter / n3 * nb3;
		if (!(tl = malloc((size_t)nt * sizeof *tl))) {
			npu_errf(e, "out of memory");
			goto out;
		}
		for (int64_t o = 0; o < nouter / n3; o++)
			for (int64_t b = 0; b < nb3; b++, i++) {
				memset(&tl[i], 0, sizeof tl[i]);
				tl[i].outer = o * n3 + b * fold;
				tl[i].on = n3 - b * fold < fold ? n3 - b * fold : fold;
				tl[i].rn = g.n[g.q - 2];
				tl[i].cn = g.n[g.q - 1];
				tl[i].pass = -1;
			}
		goto tiles_done;
	}
	nt = nouter * ntr * ntc * (g.npass ? g.npass : 1);
	if (!(tl = malloc((size_t)nt * sizeof *tl))) {
		npu_errf(e, "out of memory");
		goto out;
	}
	for (int64_t o = 0, i = 0; o < nouter; o++)
		for (int64_t r = 0; r < ntr; r++)
			for (int p = 0; p < (g.npass ? g.npass : 1); p++)
				for (int64_t cc = 0; cc < ntc; cc++, i++) {
					tl[i].outer = o;
					tl[i].r0 = r * tm;
					tl[i].rn = g.n[g.q - 2] - r * tm < tm ? g.n[g.q - 2] - r * tm : tm;
					tl[i].c0 = cc * tc;
					tl[i].cn = g.n[g.q - 1] - cc * tc < tc ? g.n[g.q - 1] - cc * tc : tc;
					tl[i].pass = g.npass ? p : -1;
					tl[i].first = cc == 0;
					tl[i].last = cc == ntc - 1;
					tl[i].on = 1;
				}
tiles_done:
	if (nt == 1)
		addr = ew_from_sram(&g, c, &tl[0], nbuf, addr);
	if (c->slots_end)
		*c->slots_end = addr;
	/* loads over the load engines, each operand from its own; the
	 * last tile's stores over up to STORE_PIECES engines (nothing is
	 * loaded after it), the store engine first */
	for (int q = 0; q < nld; q++)
		leng[q] = q;
	seng[0] = g.steng;
	for (int q = 0, i = 1; q < E && i < STORE_PIECES; q++)
		if (q != g.steng)
			seng[i++] = q;
	if (!(g.npc = calloc((size_t)(2 * K->nops + 2), sizeof *g.npc))) {
		npu_errf(e, "out of memory");
		goto out;
	}
	g.spc = g.npc + K->nops + 1;
	if (!(sbase = calloc((size_t)K->nops + 1, sizeof *sbase))) {
		npu_errf(e, "out of memory");
		goto out;
	}
	g.sbase = sbase;
	/* (row kernels one row at a time keep one engine per operand:
	 * rmsnorm_dynamic's 99 rows, which dyn.c splits into calls of 96
	 * and 3 rows, sit at 1.09x the specialized kernel against a target
	 * of 1.1x, and a faster 99-row kernel would cross it: see
	 * npu_emit_lanes) */
	spread = K->kind != NPU_KK_ROW || npu_emit_lanes(K, c->t, fold * tm, tc, NULL);
	if (spread && nt == 1 && E > 1) {
		/* one tile: the store engine is idle until it is computed */
		nld = E;
		for (int q = 0; q < nld; q++)
			leng[q] = q;
		for (int o = 0; o < K->nops; o++)
			g.ldeng[o] = o % nld;
	}
	share_engines(&g, &tl[0], 0, spread ? nld : 1, g.npc, g.ldeng);
	for (int o = 0; o < K->nops; o++) {
		if (!spread)
			g.ldeng[o] = o % nld;
		for (int p = 0; p < g.npc[o]; p++)
			ldsem_used[(g.ldeng[o] + p) % nld] = 1;
	}
	if (spread)
		nst = share_engines(&g, &tl[nt - 1], 1,
				    E < STORE_PIECES ? E : STORE_PIECES, g.spc, sbase);
	/* loads of tile 0, then per tile: loads of t+1, compute t, store t */
	for (int64_t t = -1; t < nt; t++) {
		int64_t lt = t + 1;
		if (lt < nt) {
			int s = (int)(lt % nbuf);
			if (lt >= nbuf)
				for (int q = 0; q < nld; q++)
					if (ldsem_used[q])
						npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q,
							  SEM_FREE + q, 0, 0);
			tile_io(&g, &tl[lt], s, 0, leng, nld);
			for (int q = 0; q < nld; q++)
				if (ldsem_used[q])
					npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + q,
						  SEM_LD + q, 0, 0);
			if (lt == nt - 1)
				ew_prefetch(&g, c, seng, nst, addr, 0);
		}
		if (t < 0)
			continue;
		int s = (int)(t % nbuf), last = t == nt - 1, ns = last ? nst : 1;
		for (int q = 0; q < nld; q++)
			if (ldsem_used[q])
				npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, SEM_LD + q, 0, 0);
		if (t >= nbuf)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, SEM_ST, 0, 0);
		compute_tile(&g, &tl[t], s);
		if (t + nbuf < nt)
			for (int q = 0; q < nld; q++)
				if (ldsem_used[q])
					npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC,
						  SEM_FREE + q, 0, 0);
		for (int p = 0; p < ns; p++)
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC,
				  last ? SEM_LAST + p : SEM_CMP, 0, 0);
		for (int p = 0; p < ns; p++)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + seng[p],
				  last ? SEM_LAST + p : SEM_CMP, 0, 0);
		tile_io(&g, &tl[t], s, 1, seng, ns);
		if (t + nbuf < nt)
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + g.steng, SEM_ST, 0, 0);
	}
	for (int p = 0; p < nst; p++)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + seng[p], SEM_END, 0, 0);
	ew_prefetch(&g, c, seng, nst, addr, 1);
	for (int p = 0; p < nst; p++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
	rc = 0;
out:
	free(tl);
	free(sbase);
	npu_emit_cleanup(&g);
	return rc;
}

static int emit_host(const npu_emitctx *c, int k, npu_mfunc *f)
{
	f->node = c->ir->k[k].hnode;
	npu_memit(f, NPU_OP_HCALL, 0, 0, 0, c->hcall[k]);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_HOST, SEM_END, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
	return 0;
}

/*
 * gather (embedding): in chunks of rows, on one DMA engine whose queue
 * keeps the order: the index list into SRAM, dgat the weight's rows into
 * SRAM, then the rows out to DRAM.
 */
/* How many units of `unitb` bytes (a row, or a group, with its index
 * entries) a gather kernel holds in SRAM at once, at most 65536; 0 when
 * not one fits. */
static int64_t gather_fit(const npu_emitctx *c, uint64_t unitb)
{
	int64_t G = (int64_t)((c->t->sram_bytes - NPU_SPILL_BYTES) / unitb);

	return G > 65536 ? 65536 : G;
}

/* A gather kernel's end: when one pass gathered everything, its rows are
 * in SRAM from 0 as in DRAM (at dram, bytes long), for the next kernel
 * to copy (npu_handoff: the RMSNorm after a transformer's embedding);
 * then the scalar unit waits for the ne engines' last stores. */
static void gather_end(const npu_emitctx *c, int k, npu_mfunc *f, int ne,
		       int one_pass, uint64_t dram, uint64_t bytes)
{
	if (one_pass && c->hoout) {
		c->hoout->on = 1;
		c->hoout->dram = dram;
		c->hoout->sram = 0;
		c->hoout->bytes = bytes;
		/* its every store is of the rows (drop_dead_store) */
		c->hoout->kp = k;
		c->hoout->val = c->ir->k[k].ops[2].val;
		c->hoout->i0 = 0;
		c->hoout->i1 = f->n;
	}
	for (int q = 0; q < ne; q++)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, SEM_END, 0, 0);
	for (int q = 0; q < ne; q++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
}

/* One dgat of runs (l, t, j), t in [a, b), of group l on engine q (a
 * gather by a run-time index, fuse.c's rtgat): its index entries into
 * SRAM at `sidx`, the runs to SRAM at `sdst` (laid out as in the
 * output), the block out to DRAM. */
static void gather_piece(emit_t *g, const npu_kern *K, int q, int64_t l,
			 int64_t a, int64_t b, uint64_t sidx, uint64_t sdst)
{
	const npu_kopnd *P = &K->ops[0];
	const npu_kval *W = &g->ir->v[P->val], *I = &g->ir->v[K->ops[1].val];
	const npu_kval *O = &g->ir->v[K->ops[2].val];
	npu_mfunc *f = g->f;
	int esz = npu_dtype_size(W->dtype), isz = npu_dtype_size(I->dtype);
	int64_t J = K->mm_n, T = K->mm_batch, D = K->mm_k;
	int64_t first = l * J * T * D + a * K->g_ds[1];
	int64_t span = (J - 1) * K->g_ds[0] + (b - a - 1) * K->g_ds[1] + D;
	int xl = npu_mx(f), xd = npu_mx(f);

	npu_emit_dmaf(g, q, NPU_OP_DLD, sidx, I->daddr + (uint64_t)((l * K->g_is + a * J) * isz),
		      (b - a) * J * isz, 1, 0, 0, 1, 0, 0);
	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_ROWB, 0, D * esz);
	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_N1, 0, J);
	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_SS1, 0, P->stride[1] * esz);
	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_DS1, 0, K->g_ds[0] * esz);
	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_N2, 0, b - a);
	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_SS2, 0, P->stride[2] * esz);
	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_DS2, 0, K->g_ds[1] * esz);
	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_IDX, 0, (int64_t)sidx);
	npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_IDXW, 0, isz);
	npu_mli(f, xl, (int64_t)sdst);
	dram_li(g, xd, W->daddr + (uint64_t)((P->off + l * P->stride[0] +
					       a * P->stride[2]) * esz));
	npu_memit(f, NPU_OP_DGAT, q, xl, xd, 0);
	memset(g->dvalid, 0, sizeof g->dvalid);
	/* the block holds a contiguous span of the output (a share of t
	 * when t is the output's outer dim; all of a group else) */
	npu_emit_dmaf(g, q, NPU_OP_DST, O->daddr + (uint64_t)(first * esz), sdst,
		      span * esz, 1, 0, 0, 1, 0, 0);
}

/*
 * A gather by a run-time index (K->mm_n > 0): groups of mm_batch x
 * mm_n runs in chunks that fit SRAM, the groups dealt to the engines in
 * turn, or, when t is the output's outer dim, one group's n2 rows shared
 * among them when every chunk has fewer groups than engines (each run a
 * burst or more of its own: at least 32 an engine).
 */
static int emit_gather_rt(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e)
{
	const npu_kern *K = &c->ir->k[k];
	const npu_kval *W = &c->ir->v[K->ops[0].val], *I = &c->ir->v[K->ops[1].val];
	emit_t g;
	int esz = npu_dtype_size(W->dtype), isz = npu_dtype_size(I->dtype);
	int64_t J = K->mm_n, T = K->mm_batch, L = K->mm_m, D = K->mm_k, G;
	uint64_t grpb = (uint64_t)(J * T * D * esz), idxb;
	int ne = c->t->dma_engines > 4 ? 4 : c->t->dma_engines;

	if (npu_emit_setup(&g, c, k, f) < 0)
		return npu_errf(e, "out of memory");
	G = gather_fit(c, grpb + (uint64_t)(J * T * isz) + 64);
	if (G < 1) {
		npu_emit_cleanup(&g);
		return npu_errf(e, "kernel %s: a gathered block of %llu bytes does not fit SRAM",
				K->name, (unsigned long long)grpb);
	}
	idxb = ((uint64_t)G * grpb + 63) & ~63ull;
	if (ne < 1)
		ne = 1;
	for (int64_t l0 = 0; l0 < L; l0 += G) {
		int64_t m = L - l0 < G ? L - l0 : G;
		for (int64_t l = 0; l < m; l++) {
			uint64_t si = idxb + (uint64_t)(l * J * T * isz), sd = (uint64_t)l * grpb;
			/* (split only when every chunk is: a group's slot stays
			 * with the engines that used it in the chunk before) */
			int split = m < ne && (G < ne || L <= G) && K->g_ds[1] == J * D;
			int np = split ? ne : 1;
			while (np > 1 && T / np * J < 32)
				np--;
			for (int p = 0; p < np; p++) {
				int64_t a = p * T / np, b = (p + 1) * T / np;
				int q = split ? p : (int)(l % ne);
				if (b > a)
					gather_piece(&g, K, q, l0 + l, a, b,
						     si + (uint64_t)(a * J * isz),
						     sd + (uint64_t)(a * K->g_ds[1] * esz));
			}
		}
	}
	gather_end(c, k, f, ne, L <= G, c->ir->v[K->ops[2].val].daddr, (uint64_t)L * grpb);
	npu_emit_cleanup(&g);
	return 0;
}

/* One dsct on engine q: n rows from SRAM `vals`, their index entries at
 * SRAM `list`, into the output's group l. */
static void scatter_one(emit_t *g, const npu_kern *K, int q, int64_t l, int64_t n,
			uint64_t vals, uint64_t list)
{
	const npu_kval *O = &g->ir->v[K->ops[2].val];
	const npu_kval *I = &g->ir->v[K->ops[1].val];
	int esz = npu_dtype_size(O->dtype), xl = npu_mx(g->f), xd = npu_mx(g->f);
	int64_t rowb = K->mm_k * esz;

	field(g, q, NPU_DF_ROWB, rowb);
	field(g, q, NPU_DF_N1, n);
	field(g, q, NPU_DF_SS1, rowb);
	field(g, q, NPU_DF_DS1, K->g_ds[0] * esz);
	field(g, q, NPU_DF_N2, 1);
	field(g, q, NPU_DF_IDX, (int64_t)list);
	field(g, q, NPU_DF_IDXW, npu_dtype_size(I->dtype));
	field(g, q, NPU_DF_IDXN, K->g_bound);
	npu_mli(g->f, xl, (int64_t)vals);
	dram_li(g, xd, O->daddr + (uint64_t)((K->ops[2].off + l * K->g_ds[1]) * esz));
	npu_memit(g->f, NPU_OP_DSCT, q, xd, xl, 0);
	busy(g, q, n * rowb, 1);
}

/* The scatter's end: idxn back to 0 on each engine (later kernels'
 * gathers leave it alone), then the scalar unit waits for them. */
static void scatter_end(emit_t *g, int ne)
{
	for (int q = 0; q < ne; q++) {
		npu_memit(g->f, NPU_OP_DCFGI, q, NPU_DF_IDXN, 0, 0);
		g->dstate[q][NPU_DF_IDXN] = 0;
	}
	for (int q = 0; q < ne; q++)
		npu_memit(g->f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, SEM_END, 0, 0);
	for (int q = 0; q < ne; q++)
		npu_memit(g->f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
}

/* A scatter whose groups do not fit an engine's part of SRAM: pieces of
 * R rows of a group, each with its index entries, a dsct each, the
 * pieces dealt to the engines in turn. */
static int scatter_rows(emit_t *g, const npu_kern *K, int ne, uint64_t part, npu_err *e)
{
	const npu_kopnd *P = &K->ops[0];
	const npu_kval *V = &g->ir->v[P->val], *I = &g->ir->v[K->ops[1].val];
	int esz = npu_dtype_size(V->dtype), isz = npu_dtype_size(I->dtype), q = 0;
	int64_t J = K->mm_n, rowb = K->mm_k * esz, R = (int64_t)((part - 64) / (uint64_t)(rowb + isz));

	if (R < 1) {
		npu_emit_cleanup(g);
		return npu_errf(e, "kernel %s: a scattered row of %lld bytes does not fit SRAM",
				K->name, (long long)rowb);
	}
	for (int64_t l = 0; l < K->mm_m; l++)
		for (int64_t j0 = 0; j0 < J; j0 += R, q = (q + 1) % ne) {
			int64_t n = J - j0 < R ? J - j0 : R;
			uint64_t vals = (uint64_t)q * part, list = vals + (((uint64_t)(n * rowb) + 63) & ~63ull);
			npu_emit_dmaf(g, q, NPU_OP_DLD, list,
				      I->daddr + (uint64_t)((l * K->g_is + j0) * isz), n * isz, 1, 0, 0, 1, 0, 0);
			npu_emit_dmaf(g, q, NPU_OP_DLD, vals, V->daddr +
				      (uint64_t)((P->off + l * P->stride[0] + j0 * P->stride[1]) * esz),
				      n * rowb, 1, 0, 0, 1, 0, 0);
			scatter_one(g, K, q, l, n, vals, list);
		}
	scatter_end(g, ne);
	npu_emit_cleanup(g);
	return 0;
}

/*
 * A scatter (fuse.c's rt_scatter; K->g_scatter): the groups split into
 * contiguous ranges, one an engine; each engine loads a shared index
 * list into its part of SRAM once (per-group lists with each chunk of
 * groups), then per chunk of its groups the values (one load) and one
 * dsct a group, its
 * idxn the indexed dim's size: an index past it is a fault, as PyTorch
 * raises, and a negative one counts from the end.  idxn goes back to 0
 * (unchecked) at the end, for the gathers of later kernels, which leave
 * it alone.
 */
static int emit_scatter(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e)
{
	const npu_kern *K = &c->ir->k[k];
	const npu_kopnd *P = &K->ops[0];
	const npu_kval *V = &c->ir->v[P->val], *I = &c->ir->v[K->ops[1].val];
	emit_t g;
	int esz = npu_dtype_size(V->dtype), isz = npu_dtype_size(I->dtype);
	int64_t L = K->mm_m, J = K->mm_n, D = K->mm_k, G;
	uint64_t rowb = (uint64_t)(D * esz), grpb = (uint64_t)J * rowb;
	uint64_t idxb = ((uint64_t)(J * isz) + 63) & ~63ull, part, unit = grpb;
	int ne = c->t->dma_engines > 4 ? 4 : c->t->dma_engines;

	if (ne < 1)
		ne = 1;
	if (ne > L)
		ne = (int)L;
	part = ((c->t->sram_bytes - NPU_SPILL_BYTES) / (uint64_t)ne) & ~63ull;
	if (K->g_is) {          /* a list a group: loaded with its values */
		unit += idxb;
		idxb = 0;
	}
	G = part > idxb ? (int64_t)((part - idxb) / unit) : 0;
	if (npu_emit_setup(&g, c, k, f) < 0)
		return npu_errf(e, "out of memory");
	if (G < 1)
		return scatter_rows(&g, K, ne, part, e);
	for (int q = 0; q < ne; q++) {
		int64_t l0 = q * L / ne, l1 = (q + 1) * L / ne;
		uint64_t base = (uint64_t)q * part, vals = base + idxb;
		if (!K->g_is && l1 > l0)
			npu_emit_dmaf(&g, q, NPU_OP_DLD, base, I->daddr, J * isz, 1, 0, 0, 1, 0, 0);
		for (int64_t a = l0; a < l1; a += G) {
			int64_t m = l1 - a < G ? l1 - a : G;
			uint64_t lists = vals + (uint64_t)m * grpb;
			if (K->g_is)    /* the chunk's lists, each J entries */
				npu_emit_dmaf(&g, q, NPU_OP_DLD, lists,
					      I->daddr + (uint64_t)(a * K->g_is * isz),
					      J * isz, m, K->g_is * isz, J * isz, 1, 0, 0);
			/* (rt_scatter's values are contiguous: the chunk's groups
			 * one block) */
			npu_emit_dmaf(&g, q, NPU_OP_DLD, vals,
				      V->daddr + (uint64_t)((P->off + a * P->stride[0]) * esz),
				      (int64_t)(m * (int64_t)grpb), 1, 0, 0, 1, 0, 0);
			for (int64_t l = a; l < a + m; l++)
				scatter_one(&g, K, q, l, J, vals + (uint64_t)(l - a) * grpb,
					    K->g_is ? lists + (uint64_t)((l - a) * J * isz) : base);
		}
	}
	scatter_end(&g, ne);
	npu_emit_cleanup(&g);
	return 0;
}

/* Engines sharing a chunk of m gathered rows: pieces of 2 KiB or more (a
 * transfer holds its engine through the DRAM latency). */
static int gather_engines(int64_t m, uint64_t rowb, int ne)
{
	int np = ne;

	while (np > 1 && (uint64_t)(m / np) * rowb < 2048)
		np--;
	return np;
}

static int emit_gather(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e)
{
	const npu_kern *K = &c->ir->k[k];
	const npu_kval *W = &c->ir->v[K->ops[0].val], *I = &c->ir->v[K->ops[1].val];
	const npu_kval *O = &c->ir->v[K->ops[2].val];
	emit_t g;
	int esz = npu_dtype_size(W->dtype), isz = npu_dtype_size(I->dtype);
	int64_t n = npu_kir_numel(I->ndim, I->shape), G;
	int64_t D = K->mm_k > 0 ? K->mm_k : W->shape[1];
	uint64_t rowb = (uint64_t)(D * esz), idxb;
	int q = 0;

	if (npu_emit_setup(&g, c, k, f) < 0)
		return npu_errf(e, "out of memory");
	G = gather_fit(c, rowb + (uint64_t)isz + 64);
	if (G < 1) {
		npu_emit_cleanup(&g);
		return npu_errf(e, "kernel %s: a row of %llu bytes does not fit SRAM",
				K->name, (unsigned long long)rowb);
	}
	idxb = ((uint64_t)(G * (int64_t)rowb) + 63) & ~63ull;
	/*
	 * The rows split over the engines (pieces of at least 2 KiB): a
	 * transfer holds its engine through the DRAM latency, so on one
	 * engine the index load, the gather and the store each waited for
	 * the one before; each engine takes its own rows' indices, rows and
	 * store.
	 */
	int ne = c->t->dma_engines > 4 ? 4 : c->t->dma_engines;
	if (ne < 1)
		ne = 1;
	/* engine q's part of SRAM: the rows it takes in a full chunk */
	int64_t full = n < G ? n : G;
	int nf = gather_engines(full, rowb, ne);
	for (int64_t r0 = 0; r0 < n; r0 += G) {
		int64_t m = n - r0 < G ? n - r0 : G;
		int np = gather_engines(m, rowb, ne);
		/* A short last chunk keeps each engine in its own part (only
		 * the engine's order keeps its next load off rows it has not
		 * yet stored): an even split of its rows where each piece fits
		 * its engine's part, else the full chunk's split, cut short. */
		int cut = 0;
		for (q = 0; q < np && !cut; q++)
			cut = q >= nf || (q + 1) * m / np - q * m / np >
			      (q + 1) * full / nf - q * full / nf;
		if (cut)
			np = nf;
		for (q = 0; q < np; q++) {
			int64_t a = q * m / np, b = (q + 1) * m / np;
			int64_t at = q * full / nf; /* SRAM rows of engine q */
			int xl = npu_mx(f), xd = npu_mx(f);
			if (cut) {
				a = at < m ? at : m;
				b = (q + 1) * full / nf < m ? (q + 1) * full / nf : m;
			}
			if (b <= a)
				continue;
			npu_emit_dmaf(&g, q, NPU_OP_DLD, idxb + (uint64_t)(at * isz),
				      I->daddr + (uint64_t)((r0 + a) * isz),
				      (b - a) * isz, 1, 0, 0, 1, 0, 0);
			npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_ROWB, 0, (int64_t)rowb);
			npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_N1, 0, b - a);
			npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_SS1, 0, (int64_t)rowb);
			npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_DS1, 0, (int64_t)rowb);
			npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_N2, 0, 1);
			npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_IDX, 0,
				  (int64_t)(idxb + (uint64_t)(at * isz)));
			npu_memit(f, NPU_OP_DCFGI, q, NPU_DF_IDXW, 0, isz);
			npu_mli(f, xl, (int64_t)((uint64_t)at * rowb));
			dram_li(&g, xd, W->daddr);
			npu_memit(f, NPU_OP_DGAT, q, xl, xd, 0);
			memset(g.dvalid, 0, sizeof g.dvalid);
			npu_emit_dmaf(&g, q, NPU_OP_DST,
				      O->daddr + (uint64_t)((r0 + a) * (int64_t)rowb),
				      (uint64_t)at * rowb, (b - a) * (int64_t)rowb,
				      1, 0, 0, 1, 0, 0);
		}
	}
	gather_end(c, k, f, ne, n <= G && n > 0, O->daddr, (uint64_t)n * rowb);
	npu_emit_cleanup(&g);
	return 0;
}

/* ----------------------------------------------------------------- */
/* Integer kernels on the scalar unit */

/* Element offset of element i (row-major over K's space) of operand o,
 * from its operand offset. */
static int64_t int_elem(const npu_kern *K, int o, int64_t i)
{
	int64_t off = 0;

	for (int d = K->ndim - 1; d >= 0; d--) {
		off += (i % K->shape[d]) * K->ops[o].stride[d];
		i /= K->shape[d];
	}
	return off;
}

/* The scalar instruction of expression x of an integer kernel, for one
 * element: r[] holds the registers of the values before it, xz zero. */
static void int_x(const npu_kern *K, const npu_xins *X, int *r, int xz,
		  const uint64_t *slot, const int64_t *lo, const int *esz,
		  int64_t i, npu_mfunc *f)
{
	int *d = &r[X - K->x], t;

	switch (X->op) {
	case NPU_X_LOAD:
		*d = npu_mx(f);
		npu_memit(f, esz[X->a] == 8 ? NPU_OP_LD : NPU_OP_LD32, *d, xz, 0,
			  (int64_t)slot[X->a] + (int_elem(K, X->a, i) - lo[X->a]) * esz[X->a]);
		break;
	case NPU_X_UN: /* VNEG */
		*d = npu_mx(f);
		npu_memit(f, NPU_OP_SUB, *d, xz, r[X->a], 0);
		break;
	case NPU_X_BIN:
		*d = npu_mx(f);
		npu_memit(f, X->vop == NPU_OP_VSUB ? NPU_OP_SUB : X->vop == NPU_OP_VMUL ?
			  NPU_OP_MUL : X->vop == NPU_OP_VMAX ? NPU_OP_MAX :
			  X->vop == NPU_OP_VMIN ? NPU_OP_MIN : NPU_OP_ADD,
			  *d, r[X->a], r[X->b], 0);
		break;
	case NPU_X_BINI:
		*d = npu_mx(f);
		t = npu_mx(f);
		npu_mli(f, t, (int64_t)X->imm);
		if (X->vop == NPU_OP_VRSUBI)
			npu_memit(f, NPU_OP_SUB, *d, t, r[X->a], 0);
		else
			npu_memit(f, X->vop == NPU_OP_VMULI ? NPU_OP_MUL : NPU_OP_ADD,
				  *d, r[X->a], t, 0);
		break;
	case NPU_X_STORE:
		npu_memit(f, esz[X->b] == 8 ? NPU_OP_ST : NPU_OP_ST32, r[X->a], xz, 0,
			  (int64_t)slot[X->b] + i * esz[X->b]);
		break;
	}
}

/*
 * An integer kernel (fuse.c's do_intk): the span of elements each input
 * reads loaded into SRAM, each input on an engine of its own; the
 * scalar unit runs the program an element at a time (ld or ld32 by the
 * operand's type, add, sub, mul, max, min, st or st32 into the output's
 * slot); one engine stores the output.  The slots lie at the bottom of
 * SRAM (fuse.c bounds the spans).
 */
static int emit_int(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e)
{
	const npu_kern *K = &c->ir->k[k];
	int64_t n = npu_kir_numel(K->ndim, K->shape), lo[4] = { 0 }, hi[4] = { 0 };
	int esz[4], r[8], ne = c->t->dma_engines < 4 ? c->t->dma_engines : 4;
	int nin = 0, out = -1, xz;
	uint64_t slot[4], at = 0;
	emit_t g;

	if (K->nops > 4 || K->nx > 8 || ne < 1)
		return npu_errf(e, "kernel %s: not an integer kernel of fuse.c's forms", K->name);
	if (npu_emit_setup(&g, c, k, f) < 0) {
		npu_emit_cleanup(&g);
		return npu_errf(e, "out of memory");
	}
	for (int o = 0; o < K->nops; o++) {
		esz[o] = npu_dtype_size(c->ir->v[K->ops[o].val].dtype);
		lo[o] = hi[o] = int_elem(K, o, 0);
		for (int64_t i = 1; i < n; i++) {
			int64_t x = int_elem(K, o, i);
			lo[o] = x < lo[o] ? x : lo[o];
			hi[o] = x > hi[o] ? x : hi[o];
		}
		slot[o] = at;
		at += ((uint64_t)((hi[o] - lo[o] + 1) * esz[o]) + 63) & ~63ull;
		if (K->ops[o].out) {
			out = o;
			continue;
		}
		npu_emit_dmaf(&g, nin % ne, NPU_OP_DLD, slot[o],
			      dram_of(&g, o) + (uint64_t)(lo[o] * esz[o]),
			      (hi[o] - lo[o] + 1) * esz[o], 1, 0, 0, 1, 0, 0);
		nin++;
	}
	for (int q = 0; q < nin && q < ne; q++)
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, SEM_LD + q, 0, 0);
	for (int q = 0; q < nin && q < ne; q++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_LD + q, 0, 0);
	xz = npu_mx(f);
	npu_mli(f, xz, 0);
	for (int64_t i = 0; i < n; i++)
		for (int x = 0; x < K->nx; x++)
			int_x(K, &K->x[x], r, xz, slot, lo, esz, i, f);
	if (out >= 0)
		npu_emit_dmaf(&g, 0, NPU_OP_DST, dram_of(&g, out), slot[out],
			      n * esz[out], 1, 0, 0, 1, 0, 0);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0, SEM_END, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
	if (c->slots_end)
		*c->slots_end = at;
	npu_emit_cleanup(&g);
	return 0;
}

int npu_emit_kernel(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e)
{
	const npu_kern *K = &c->ir->k[k];

	f->node = K->nnodes ? K->nodes[0] : -1;
	switch (K->kind) {
	case NPU_KK_HOST: return emit_host(c, k, f);
	case NPU_KK_MM:
		return K->cv == 2 ? npu_emit_convt(c, k, f, e) : npu_emit_mm(c, k, f, e);
	case NPU_KK_GATHER:
		return K->g_scatter ? emit_scatter(c, k, f, e) :
		       K->mm_n > 0 ? emit_gather_rt(c, k, f, e) : emit_gather(c, k, f, e);
	case NPU_KK_POOL: return npu_emit_pool(c, k, f, e);
	case NPU_KK_INT: return emit_int(c, k, f, e);
	default: return emit_ew(c, k, f, e);
	}
}
