/*
 * emit_pool.c - the pool template: 2-d max pooling from whole rows in
 * SRAM.
 *
 * As an ew kernel over KH*KW strided views, max_pool2d loaded every tap
 * element by its own DMA row (a DRAM burst for 4 bytes at stride 2),
 * after a padded copy of its input.  Here a group of planes is loaded
 * once, contiguous rows from DRAM, into an SRAM slot of Hp x Wp per
 * plane whose border (the padding, ceil_mode's overhang) holds -inf,
 * written once per slot: the loads only ever write the interior.  The
 * vector unit then takes the max down each window's rows, a row of Wp at
 * a time, into V (a loaded row stays in its register for the next
 * window that shares it), and across the window's columns with strided
 * loads over V: V's rows are Wp = SW * OWp wide, so output element j of
 * the group (OWp per row; the last OWp - OW of a row are never stored)
 * reads V[SW * j + kw], one stride over the whole group.  The store takes
 * OW of every OWp.  The loads of group t+1 run while group t is
 * computed (two input and two output slots, each in its own SRAM bank
 * where they fit, so DMA and vector windows do not collide); the
 * semaphores are the ew template's (emit_int.h).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "compiler/emit_int.h"

/* Rows (and chunks) computed together: the in-order vector unit issues
 * their loads back to back instead of stalling on each one's latency. */
#define POOL_ILV 4
/* The largest window side (fuse.c's pool_kern takes no larger), so
 * that a group's rows and taps stay within the vector registers. */
#define POOL_KMAX NPU_POOL_KMAX
/* Rows (and taps) of one group live in vector registers at once. */
#define POOL_ROWS 16
/* SRAM bytes of one input slot to aim for: small enough that the first
 * group's load (not hidden behind any compute) is short. */
#define POOL_SLOT (96 * 1024)

typedef struct pool {
	emit_t *g;
	const npu_kern *K;
	int dt, esz;
	int64_t planes, H, W, Hp, Wp, OH, OW, OWp, G;
	uint64_t in[2], v, out[2];
	uint64_t src, dst;      /* DRAM: input plane 0 row 0, output */
	int64_t sn, sc, sh;     /* input strides (elements): n, c, row */
	int xvl;                /* register holding the current vl */
	int64_t vl;
} pool;

static void pool_setvl(pool *P, int64_t n)
{
	npu_mfunc *f = P->g->f;
	int xv;

	if (n == P->vl)
		return;
	xv = npu_mx(f);
	npu_mli(f, P->xvl, n);
	npu_memit(f, NPU_OP_SETVL, xv, P->xvl, 0, 0);
	P->vl = n;
}

/* -inf over n elements from SRAM address a, in chunks of vlen. */
static void pool_fill(pool *P, int ninf, uint64_t a, int64_t n)
{
	int64_t vlen = P->g->t->vlen;

	for (int64_t c = 0; c < n; c += vlen) {
		pool_setvl(P, n - c < vlen ? n - c : vlen);
		npu_memit(P->g->f, NPU_OP_VST, ninf, 0, P->dt,
			  (int64_t)(a + (uint64_t)(c * P->esz)));
	}
}

/* The border of both input slots: whole rows above and below the
 * interior, and per interior row its columns left and right of it
 * (strided stores, one per column and vlen rows). */
static void pool_border(pool *P)
{
	npu_mfunc *f = P->g->f;
	const npu_kern *K = P->K;
	int64_t top = K->cv_ph, bot = P->Hp - P->H - top, vlen = P->g->t->vlen;
	int64_t rows = P->G * P->Hp;
	int ninf = npu_mv(f), xst = npu_mx(f);
	/* (one slot when both are the same one: a fused pool's band) */
	int ns = P->in[1] == P->in[0] ? 1 : 2;

	pool_setvl(P, vlen);
	npu_memit(f, NPU_OP_VLI, ninf, 0, 0, npu_mfimm(-INFINITY));
	npu_mli(f, xst, P->Wp * P->esz);
	for (int s = 0; s < ns; s++)
		for (int64_t g = 0; g < P->G; g++) {
			uint64_t b = P->in[s] + (uint64_t)(g * P->Hp * P->Wp * P->esz);
			pool_fill(P, ninf, b, top * P->Wp);
			pool_fill(P, ninf, b + (uint64_t)((top + P->H) * P->Wp * P->esz),
				  bot * P->Wp);
		}
	/* the columns: every row of the slot, interior or not (the rows
	 * above and below are -inf already, so rewriting them is harmless) */
	for (int s = 0; s < ns; s++)
		for (int64_t c = 0; c < P->Wp; c++) {
			if (c >= K->cv_pw && c < K->cv_pw + P->W)
				continue;
			for (int64_t r = 0; r < rows; r += vlen) {
				int xa = npu_mx(f);
				pool_setvl(P, rows - r < vlen ? rows - r : vlen);
				npu_mli(f, xa, (int64_t)(P->in[s] +
					(uint64_t)((r * P->Wp + c) * P->esz)));
				npu_memit(f, NPU_OP_VSTS, ninf, xa, xst, P->dt);
			}
		}
}

/* Plane rows [r0, r1) of the group at plane p0 (row index g * H + h)
 * into slot s on engine q: a partial plane, whole planes, a partial
 * plane, each one transfer. */
static void pool_ld_rows(pool *P, int q, int s, int64_t p0, int64_t r0, int64_t r1)
{
	const npu_kern *K = P->K;
	int esz = P->esz;

	while (r0 < r1) {
		int64_t g = r0 / P->H, h = r0 % P->H, p = p0 + g;
		int64_t n = p / K->cv_ic, c = p % K->cv_ic;
		uint64_t src = P->src + (uint64_t)((n * P->sn + c * P->sc + h * P->sh) * esz);
		uint64_t dst = P->in[s] + (uint64_t)(((g * P->Hp + K->cv_ph + h) * P->Wp +
						      K->cv_pw) * esz);
		int64_t np = 1, nr;
		if (h == 0 && r1 - r0 >= P->H) {
			/* whole planes of one image, one plane stride apart */
			np = (r1 - r0) / P->H;
			if (np > K->cv_ic - c)
				np = K->cv_ic - c;
			nr = P->H;
		} else {
			nr = P->H - h < r1 - r0 ? P->H - h : r1 - r0;
		}
		npu_emit_dmaf(P->g, q, NPU_OP_DLD, dst, src, P->W * esz, nr,
			      P->sh * esz, P->Wp * esz, np, P->sc * esz,
			      P->Hp * P->Wp * esz);
		r0 += np * nr;
	}
}

/* The max down the window's rows: V row (g, oh) over columns [c0, c0 + cn)
 * for the group's planes, POOL_ILV output rows at a time. */
static void pool_rows(pool *P, int s, int64_t ng, int64_t c0, int64_t cn)
{
	npu_mfunc *f = P->g->f;
	const npu_kern *K = P->K;
	int64_t KH = K->cv_kh, SH = K->cv_sh, ilv = POOL_ILV;
	int reg[POOL_ROWS], prev[POOL_ROWS], m[POOL_ILV];

	/* fewer rows at a time where a window's rows would not fit */
	while (ilv > 1 && (ilv - 1) * SH + KH > POOL_ROWS)
		ilv--;
	pool_setvl(P, cn);
	for (int64_t g = 0; g < ng; g++) {
		int64_t lo = -1, hi = -1; /* rows [lo, hi) in prev[r - lo] */
		for (int64_t o0 = 0; o0 < P->OH; o0 += ilv) {
			int64_t o1 = o0 + ilv < P->OH ? o0 + ilv : P->OH;
			int64_t r0 = o0 * SH, r1 = (o1 - 1) * SH + KH;
			for (int64_t r = r0; r < r1; r++) {
				if ((r - r0) % SH >= KH && r - r0 < (o1 - o0) * SH)
					continue; /* between windows (stride > kernel) */
				if (r >= lo && r < hi) {
					reg[r - r0] = prev[r - lo];
					continue;
				}
				reg[r - r0] = npu_mv(f);
				npu_memit(f, NPU_OP_VLD, reg[r - r0], 0, P->dt,
					  (int64_t)(P->in[s] + (uint64_t)(((g * P->Hp + r) * P->Wp + c0) * P->esz)));
			}
			for (int64_t o = o0; o < o1; o++)
				m[o - o0] = reg[o * SH - r0];
			for (int64_t kh = 1; kh < KH; kh++)
				for (int64_t o = o0; o < o1; o++) {
					int d = npu_mv(f);
					npu_memit(f, NPU_OP_VMAX, d, m[o - o0], reg[o * SH + kh - r0], 0);
					m[o - o0] = d;
				}
			for (int64_t o = o0; o < o1; o++)
				npu_memit(f, NPU_OP_VST, m[o - o0], 0, P->dt,
					  (int64_t)(P->v + (uint64_t)(((g * P->OH + o) * P->Wp + c0) * P->esz)));
			lo = r0;
			hi = r1;
			memcpy(prev, reg, (size_t)(r1 - r0) * sizeof *reg);
		}
	}
}

/* The max across the window's columns: n outputs of the group into
 * output slot s, chunks of vlen, up to POOL_ILV of them at a time (a
 * shorter last chunk alone, at its own vl). */
static void pool_cols(pool *P, int s, int64_t n)
{
	npu_mfunc *f = P->g->f;
	const npu_kern *K = P->K;
	int64_t vlen = P->g->t->vlen, KW = K->cv_kw, SW = K->cv_sw;
	int64_t most = POOL_ROWS / KW < 1 ? 1 : POOL_ROWS / KW;
	int xst = npu_mx(f), m[POOL_ILV], ld[POOL_ILV][POOL_KMAX];

	if (most > POOL_ILV)
		most = POOL_ILV;
	npu_mli(f, xst, SW * P->esz);
	for (int64_t j0 = 0, nc; j0 < n; j0 += nc * vlen) {
		int64_t full = (n - j0) / vlen;
		nc = full < 1 ? 1 : full < most ? full : most;
		pool_setvl(P, full < 1 ? n - j0 : vlen);
		for (int64_t kw = 0; kw < KW; kw++)
			for (int64_t u = 0; u < nc; u++) {
				int xa = npu_mx(f);
				ld[u][kw] = npu_mv(f);
				npu_mli(f, xa, (int64_t)(P->v + (uint64_t)((SW * (j0 + u * vlen) + kw) * P->esz)));
				npu_memit(f, NPU_OP_VLDS, ld[u][kw], xa, xst, P->dt);
			}
		for (int64_t u = 0; u < nc; u++)
			m[u] = ld[u][0];
		for (int64_t kw = 1; kw < KW; kw++)
			for (int64_t u = 0; u < nc; u++) {
				int d = npu_mv(f);
				npu_memit(f, NPU_OP_VMAX, d, m[u], ld[u][kw], 0);
				m[u] = d;
			}
		/* a ReLU moved past the pool (fuse.c) */
		for (int64_t u = 0; K->pool_relu && u < nc; u++) {
			int d = npu_mv(f);
			npu_memit(f, NPU_OP_VMAXI, d, m[u], 0, npu_mfimm(0));
			m[u] = d;
		}
		for (int64_t u = 0; u < nc; u++)
			npu_memit(f, NPU_OP_VST, m[u], 0, P->dt,
				  (int64_t)(P->out[s] + (uint64_t)((j0 + u * vlen) * P->esz)));
	}
}

/* Places the slots: each in a bank of its own when they all fit so,
 * else packed; 0, or -1 when one plane's slots do not fit. */
static int pool_place(pool *P, const npu_target *t)
{
	uint64_t bank = npu_target_bank_bytes(t);
	uint64_t avail = t->sram_bytes - NPU_SPILL_BYTES, al = 64;
	uint64_t in, v, out, at = 0, sz[5];
	uint64_t *dst[5] = { &P->in[0], &P->in[1], &P->v, &P->out[0], &P->out[1] };
	int own;

	for (;;) {
		in = (uint64_t)(P->G * P->Hp * P->Wp * P->esz);
		v = (uint64_t)((P->G * P->OH * P->Wp + P->K->cv_kw) * P->esz);
		out = (uint64_t)(P->G * P->OH * P->OWp * P->esz);
		if (2 * in + v + 2 * out + 5 * al <= avail || P->G == 1)
			break;
		P->G = (P->G + 1) / 2;
	}
	sz[0] = sz[1] = in;
	sz[2] = v;
	sz[3] = sz[4] = out;
	own = in <= bank && v <= bank && out <= bank && 5 * bank <= avail;
	for (int i = 0; i < 5; i++) {
		*dst[i] = own ? (uint64_t)i * bank : at;
		at = own ? (uint64_t)(i + 1) * bank : (at + sz[i] + al - 1) / al * al;
	}
	return own || at <= avail ? 0 : -1;
}

/* The slot geometry of pool kernel K: padded planes Hp x Wp, Wp = SW *
 * OWp (see the top of this file). */
static void pool_geom(pool *P, const npu_kern *K)
{
	P->K = K;
	P->planes = K->shape[0] * K->shape[1];
	P->H = K->cv_h;
	P->W = K->cv_w;
	P->OH = K->cv_oh;
	P->OW = K->cv_ow;
	P->Hp = (P->OH - 1) * K->cv_sh + K->cv_kh;
	if (P->Hp < P->H + K->cv_ph)
		P->Hp = P->H + K->cv_ph;
	P->Wp = (P->OW - 1) * K->cv_sw + K->cv_kw;
	if (P->Wp < P->W + K->cv_pw)
		P->Wp = P->W + K->cv_pw;
	P->OWp = (P->Wp + K->cv_sw - 1) / K->cv_sw;
	P->Wp = P->OWp * K->cv_sw;
}

/*
 * Max pooling computed by the convolution kernel before it (emit_mm.c):
 * the convolution's blocks (all of its channels, whole output rows) go
 * from the accumulator straight into one padded SRAM slot of every
 * plane, and the vector unit, which a convolution stored straight from
 * the accumulator leaves idle, pools the output rows each block
 * completes while the array computes the next block.  The pool kernel
 * itself then emits nothing.  1 when kernel k + 1 is such a pool.
 */
int npu_pool_fused(const npu_kir *ir, const npu_target *t, int k)
{
	const npu_kern *K = &ir->k[k], *Pk;
	pool P;
	int v;

	if (k + 1 >= ir->nk || K->kind != NPU_KK_MM || K->cv != 1 ||
	    K->mm_batch != 1 || t->dma_engines < 4 || ir->nofuse)
		return 0;
	Pk = &ir->k[k + 1];
	if (Pk->kind != NPU_KK_POOL || Pk->nops != 2 ||
	    npu_mm_acc_copy(ir, K) != NPU_DT_F32 ||
	    (K->kn.tile_m > 0 && K->kn.tile_m < K->mm_m) ||
	    K->kn.tile_n <= 0 || K->kn.tile_n % K->cv_ow ||
	    Pk->shape[0] != 1 || Pk->cv_ic != K->mm_m ||
	    Pk->cv_h != K->cv_oh || Pk->cv_w != K->cv_ow)
		return 0;
	v = Pk->ops[0].val;
	if (K->ops[K->x[K->nx - 1].b].val != v || ir->v[v].outidx >= 0 ||
	    Pk->ops[0].off || Pk->ops[0].stride[3] != 1 ||
	    Pk->ops[0].stride[2] != Pk->cv_w ||
	    Pk->ops[0].stride[1] != Pk->cv_h * Pk->cv_w ||
	    ir->v[v].dtype != NPU_DT_F32)
		return 0;
	/* nothing else reads the convolution's output */
	for (int j = 0; j < ir->nk; j++) {
		const npu_kern *J = &ir->k[j];
		if (j == k || j == k + 1)
			continue;
		for (int o = 0; o < J->nops; o++)
			if (J->ops[o].val == v || ir->v[J->ops[o].val].root == v)
				return 0;
		for (int h = 0; h < J->nhin; h++)
			if (J->hin[h] == v)
				return 0;
	}
	memset(&P, 0, sizeof P);
	pool_geom(&P, Pk);
	/* its slot in at most a third of SRAM */
	return (double)P.planes * P.Hp * P.Wp * 4 <= (double)(t->sram_bytes - NPU_SPILL_BYTES) / 3;
}

/* (emit_int.h) */
void npu_pool_band_geom(const npu_kern *Pk, int64_t *hp, int64_t *wp, int64_t *owp)
{
	pool P;

	memset(&P, 0, sizeof P);
	pool_geom(&P, Pk);
	*hp = P.Hp;
	*wp = P.Wp;
	*owp = P.OWp;
}

/* P for bands of Pk's pooling run inside another kernel (fp32 rows) */
static void band_init(pool *P, emit_t *g, const npu_kern *Pk)
{
	memset(P, 0, sizeof *P);
	pool_geom(P, Pk);
	P->g = g;
	P->dt = NPU_DT_F32;
	P->esz = 4;
	P->xvl = npu_mx(g->f);
	P->vl = g->t->vlen;
}

/* (emit_int.h) */
void npu_pool_band_border(emit_t *g, const npu_kern *Pk, uint64_t in)
{
	pool P;

	band_init(&P, g, Pk);
	P.G = P.planes;
	P.in[0] = P.in[1] = in;
	pool_border(&P);
	pool_setvl(&P, g->t->vlen);
}

/* (emit_int.h) */
void npu_pool_band(emit_t *g, const npu_kern *Pk, uint64_t in, uint64_t v,
		   uint64_t out, int64_t p0, int64_t np, int64_t i0, int64_t i1)
{
	pool P;

	band_init(&P, g, Pk);
	/* the band as a pool of i1 - i0 output rows whose planes start at
	 * padded row i0 * SH of plane p0 */
	P.in[0] = in + (uint64_t)((p0 * P.Hp + i0 * Pk->cv_sh) * P.Wp * 4);
	P.v = v;
	P.out[0] = out + (uint64_t)(p0 * (i1 - i0) * P.OWp * 4);
	P.OH = i1 - i0;
	for (int64_t c0 = 0; c0 < P.Wp; c0 += g->t->vlen)
		pool_rows(&P, 0, np, c0, P.Wp - c0 < g->t->vlen ? P.Wp - c0 : g->t->vlen);
	pool_cols(&P, 0, np * P.OH * P.OWp);
	pool_setvl(&P, g->t->vlen);
}

int npu_emit_pool(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e)
{
	const npu_kern *K = &c->ir->k[k];
	const npu_kopnd *I = &K->ops[0], *O = &K->ops[1];
	const npu_kval *X = &c->ir->v[I->val];
	int E = c->t->dma_engines, nld = E > 1 ? E - 1 : 1, steng = E - 1;
	int64_t nt;
	emit_t g;
	pool P;

	if (k > 0 && npu_pool_fused(c->ir, c->t, k - 1))
		return 0; /* computed by the convolution before it */
	if (npu_emit_setup(&g, c, k, f) < 0)
		return npu_errf(e, "out of memory");
	memset(&P, 0, sizeof P);
	P.g = &g;
	P.K = K;
	P.dt = X->dtype;
	P.esz = npu_dtype_size(P.dt);
	pool_geom(&P, K);
	P.sn = I->stride[0];
	P.sc = I->stride[1];
	P.sh = I->stride[2];
	P.src = X->daddr + (uint64_t)(I->off * P.esz);
	P.dst = c->ir->v[O->val].daddr + (uint64_t)(O->off * P.esz);
	P.G = (int64_t)(POOL_SLOT / (uint64_t)(P.Hp * P.Wp * P.esz));
	P.G = P.G < 1 ? 1 : P.G > P.planes ? P.planes : P.G;
	if (pool_place(&P, c->t) < 0) {
		npu_emit_cleanup(&g);
		return npu_errf(e, "kernel %s: a plane of %lldx%lld does not fit SRAM",
				K->name, (long long)P.Hp, (long long)P.Wp);
	}
	P.xvl = npu_mx(f);
	P.vl = c->t->vlen;
	nt = (P.planes + P.G - 1) / P.G;
	pool_border(&P);
	/* loads of group 0, then per group: loads of t+1, compute t, store t */
	for (int64_t t = -1; t < nt; t++) {
		int64_t lt = t + 1;
		if (lt < nt) {
			int64_t p0 = lt * P.G, ng = P.planes - p0 < P.G ? P.planes - p0 : P.G;
			int s = (int)(lt & 1);
			for (int q = 0; q < nld; q++) {
				if (lt >= 2)
					npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + q, SEM_FREE + q, 0, 0);
				pool_ld_rows(&P, q, s, p0, q * ng * P.H / nld,
					     (q + 1) * ng * P.H / nld);
				npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + q, SEM_LD + q, 0, 0);
			}
		}
		if (t < 0)
			continue;
		int64_t p0 = t * P.G, ng = P.planes - p0 < P.G ? P.planes - p0 : P.G;
		int s = (int)(t & 1);
		for (int q = 0; q < nld; q++)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, SEM_LD + q, 0, 0);
		if (t >= 2)
			npu_memit(f, NPU_OP_WAIT, NPU_UNIT_VEC, SEM_ST, 0, 0);
		for (int64_t c0 = 0; c0 < P.Wp; c0 += c->t->vlen)
			pool_rows(&P, s, ng, c0, P.Wp - c0 < c->t->vlen ? P.Wp - c0 : c->t->vlen);
		if (t + 2 < nt)
			for (int q = 0; q < nld; q++)
				npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, SEM_FREE + q, 0, 0);
		pool_cols(&P, s, ng * P.OH * P.OWp);
		npu_memit(f, NPU_OP_SIG, NPU_UNIT_VEC, SEM_CMP, 0, 0);
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_DMA0 + steng, SEM_CMP, 0, 0);
		npu_emit_dmaf(&g, steng, NPU_OP_DST,
			      P.dst + (uint64_t)(p0 * P.OH * P.OW * P.esz), P.out[s],
			      P.OW * P.esz, ng * P.OH, P.OWp * P.esz, P.OW * P.esz, 1, 0, 0);
		if (t + 2 < nt)
			npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + steng, SEM_ST, 0, 0);
	}
	pool_setvl(&P, c->t->vlen);
	npu_memit(f, NPU_OP_SIG, NPU_UNIT_DMA0 + steng, SEM_END, 0, 0);
	npu_memit(f, NPU_OP_WAIT, NPU_UNIT_SCL, SEM_END, 0, 0);
	npu_emit_cleanup(&g);
	return 0;
}
