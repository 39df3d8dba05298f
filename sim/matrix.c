/*
 * matrix.c - the systolic matrix unit: a rows x cols array (K x N).
 *
 * Weight-stationary (default): mldw shifts K x N weights into a shadow
 * buffer along the weight path; mmac streams M input rows through the
 * array, which holds the previous weights until the stream starts (the
 * first mmac after the mldw swaps them in, unless it holds: several
 * mmacs on one set of weights with the next mldw among them).
 * Output-stationary (mcfg imm bit 0): mldw records where the weights are;
 * mmac keeps an M x N output tile in the array and streams K.
 * docs/timing-model.md has the formulas; the code below follows them term
 * by term.
 *
 * Values: float inputs (bf16, f16, e4m3, e5m2, f32) are converted to fp32
 * and multiplied with cblas_sgemm into the fp32 accumulator (beta 1 when
 * accumulating), so within one mmac the sum order is the BLAS library's
 * (deterministic for a given build), and across mmacs program order.
 * Integer inputs accumulate exactly in int32 (wrapping) with plain loops.
 */
#include "config.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

#include "isa/dtype.h"
#include "sim/sim_int.h"

#ifdef HAVE_BLAS_THREAD_SHUTDOWN_
/* OpenBLAS's own (its fork handler's): joins the pool's workers; a later
 * threaded call would start them again.  Not in its cblas.h. */
int blas_thread_shutdown_(void);
#endif

void npu_sim_blas_default(void)
{
	if (getenv("OPENBLAS_NUM_THREADS") || getenv("OMP_NUM_THREADS"))
		return;
#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
	openblas_set_num_threads(1);
#endif
#ifdef HAVE_BLAS_THREAD_SHUTDOWN_
	blas_thread_shutdown_();
#endif
}

#define MXU_MAX_M 65536      /* rows one mmac may stream */
#define MXU_MAX_K 65536      /* K of an output-stationary tile */

static int is_int(int dt)
{
	return dt == NPU_DT_I8 || dt == NPU_DT_U8 || dt == NPU_DT_I16 ||
	       dt == NPU_DT_I32 || dt == NPU_DT_I64 || dt == NPU_DT_BOOL;
}

static int32_t load_int(int dt, const uint8_t *p)
{
	switch (dt) {
	case NPU_DT_I8: return (int8_t)*p;
	case NPU_DT_U8: case NPU_DT_BOOL: return *p;
	case NPU_DT_I16: { int16_t v; memcpy(&v, p, 2); return v; }
	case NPU_DT_I32: { int32_t v; memcpy(&v, p, 4); return v; }
	default: { int64_t v; memcpy(&v, p, 8); return (int32_t)v; }
	}
}

#define mfault(s, e, t, ...) sim_fault(s, NPU_UNIT_MXU, (e)->pc, t, __VA_ARGS__)

static int mcfg(npu_sim *s, const sim_insn *in, const sim_entry *e, uint64_t t0)
{
	const npu_target *tg = s->tg;
	sim_mxu *m = &s->m;
	int os = in->imm & NPU_MXU_OS;

	if (os && !(tg->dataflows & NPU_DF_OS))
		return sim_fault(s, NPU_UNIT_MXU, e->pc, t0, "target has no output-stationary dataflow");
	if (!os && !(tg->dataflows & NPU_DF_WS))
		return sim_fault(s, NPU_UNIT_MXU, e->pc, t0, "target has no weight-stationary dataflow");
	if (tg->mxu_rate[in->c] <= 0)
		return sim_fault(s, NPU_UNIT_MXU, e->pc, t0,
				 "the array does not take %s inputs (rate 0)",
				 npu_dtype_name(in->c));
	if (e->x[0] < 1 || (!os && e->x[0] > tg->mxu_rows) || e->x[0] > MXU_MAX_K)
		return mfault(s, e, t0, "K = %lld does not fit the array", (long long)e->x[0]);
	if (e->x[1] < 1 || e->x[1] > tg->mxu_cols)
		return mfault(s, e, t0, "N = %lld does not fit the array", (long long)e->x[1]);
	m->K = e->x[0];
	m->N = e->x[1];
	m->dt = in->c;
	m->os = os;
	m->configured = 1;
	m->have_w = 0;
	m->pending = 0;
	m->sz = npu_dtype_size(m->dt);
	m->istride = m->K * m->sz;
	m->astride = m->N * 4;
	m->ok_cfg = 0;
	m->dvalid = 0;
	return 0;
}

/* Checks rows r of len bytes at a + i*stride, i < r; the base or NULL. */
static uint8_t *rows_ok(npu_sim *s, uint64_t a, int64_t stride, int64_t r,
			int64_t len)
{
	__int128 lo = (__int128)a, hi;
	__int128 span = (__int128)stride * (r - 1);

	if (r <= 0)
		return s->sram;
	hi = lo;
	if (span < 0)
		lo += span;
	else
		hi += span;
	hi += len;
	if (lo < 0 || hi > (__int128)UINT64_MAX)
		return NULL;
	if (!sim_local(s, (uint64_t)lo, (uint64_t)(hi - lo)))
		return NULL;
	return sim_local(s, a, 0) ? sim_local(s, a, 0) : s->sram;
}

/* Reads weights K x N at a (row stride ws) into m->wf or m->wi, or
 * (shadow) m->sf or m->si. */
static int load_weights(npu_sim *s, uint64_t a, int64_t ws, int shadow)
{
	sim_mxu *m = &s->m;
	int sz = npu_dtype_size(m->dt);
	size_t cnt = (size_t)(m->K * m->N);
	float **f = shadow ? &m->sf : &m->wf;
	int32_t **w = shadow ? &m->si : &m->wi;

	if (sim_grow((void **)f, shadow ? &m->csf : &m->cwf, cnt, sizeof **f) < 0 ||
	    sim_grow((void **)w, shadow ? &m->csi : &m->cwi, cnt, sizeof **w) < 0) {
		s->oom = 1;
		return -1;
	}
	for (int64_t k = 0; k < m->K; k++) {
		const uint8_t *row = sim_local(s, a + (uint64_t)(k * ws), m->N * sz);
		if (!is_int(m->dt)) {
			npu_load_f32_n(m->dt, *f + k * m->N, row, (size_t)m->N);
			continue;
		}
		for (int64_t n = 0; n < m->N; n++)
			(*w)[k * m->N + n] = load_int(m->dt, row + n * sz);
	}
	return 0;
}

static int mldw(npu_sim *s, const sim_insn *in, const sim_entry *e, uint64_t t0)
{
	sim_mxu *m = &s->m;
	sim_unit *u = &s->u[NPU_UNIT_MXU];
	uint64_t start, end;
	int sz;

	if (!m->configured)
		return sim_fault(s, NPU_UNIT_MXU, e->pc, t0, "mldw before mcfg");
	sz = m->sz;
	if (!(m->ok_cfg & 1) || m->okw[0] != e->x[0] || m->okw[1] != e->x[1]) {
		if (!rows_ok(s, (uint64_t)e->x[0], e->x[1], m->K, m->N * sz))
			return sim_fault(s, NPU_UNIT_MXU, e->pc, t0,
					 "weights at local address 0x%llx (%lld x %lld, row "
					 "stride %lld) are outside SRAM and the accumulator",
					 (unsigned long long)e->x[0], (long long)m->K,
					 (long long)m->N, (long long)e->x[1]);
		m->okw[0] = e->x[0];
		m->okw[1] = e->x[1];
		m->ok_cfg |= 1;
	}
	if (m->os) {
		start = t0;
		end = start + 1;
		m->waddr = e->x[0];
		m->wstride = e->x[1];
	} else {
		start = sim_max(t0, sim_max(m->wpath_free, m->last_mmac_start));
		end = start + m->K;
		if (s->race && sim_race_rows(s, NPU_UNIT_MXU, e->pc, start, (uint64_t)e->x[0],
					     e->x[1], m->K, (uint64_t)(m->N * sz), 0) < 0)
			return -1;
		if (!s->o.timing_only &&
		    load_weights(s, (uint64_t)e->x[0], e->x[1], 1) < 0)
			return -1;
	}
	if (m->os)
		m->have_w = 1;
	else
		m->pending = 1;
	m->wpath_free = end;
	m->wready = end;
	s->st.sram_rd += (uint64_t)(m->K * m->N * sz);
	if (e->kx != SIM_NONE)
		s->kx[e->kx].sram_rd += (uint64_t)(m->K * m->N * sz);
	s->start = start;
	sim_rec(s, u, t0, start, NPU_US_DEP_STALL, e->kx);
	sim_rec(s, u, start, end, NPU_US_BUSY, e->kx);
	u->t = start;
	sim_done(s, u, e->kx, end);
	return 0;
}

void sim_mc_drop(npu_sim *s, uint64_t a, uint64_t n)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (int i = 0; i < SIM_MC_N; i++) {
		sim_mc *c = &s->mc[i];
		if (c->valid && a < c->hi && a + n > c->lo)
			c->valid = 0;
		if (c->valid) {
			lo = c->lo < lo ? c->lo : lo;
			hi = c->hi > hi ? c->hi : hi;
		}
	}
	s->mc_lo = lo;
	s->mc_hi = hi;
}

/* Bytes an input block covers, as rows_ok() checked them. */
static void in_span(uint64_t ia, int64_t is, int64_t M, int64_t len,
		    uint64_t *lo, uint64_t *hi)
{
	int64_t span = is * (M - 1);

	*lo = span < 0 ? ia + (uint64_t)span : ia;
	*hi = (span > 0 ? ia + (uint64_t)span : ia) + (uint64_t)len;
}

/*
 * The mmac's M x K inputs at ia (row stride is) as fp32: a cached
 * conversion when one matches, else a new one (into the cache when it
 * is small enough, else the scratch buffer).  NULL when out of memory.
 */
static const float *inputs_f32(npu_sim *s, uint64_t ia, int64_t M)
{
	sim_mxu *m = &s->m;
	int sz = npu_dtype_size(m->dt);
	int64_t K = m->K, is = m->istride;
	size_t cnt = (size_t)(M * K);
	float *f;
	sim_mc *c = NULL;

	for (int i = 0; i < SIM_MC_N; i++) {
		c = &s->mc[i];
		if (c->valid && c->ia == ia && c->is == is && c->M == M &&
		    c->K == K && c->dt == m->dt)
			return c->f;
	}
	if (cnt <= ((size_t)8 << 20) / sizeof(float)) {
		c = &s->mc[s->mc_next];
		s->mc_next = (s->mc_next + 1) % SIM_MC_N;
		c->valid = 0;
		if (sim_grow((void **)&c->f, &c->cap, cnt, sizeof *c->f) < 0)
			return NULL;
		f = c->f;
	} else {
		c = NULL;
		if (sim_grow((void **)&s->sa, &s->nsa, cnt, sizeof *s->sa) < 0)
			return NULL;
		f = s->sa;
	}
	for (int64_t i = 0; i < M; i++) {
		const uint8_t *in = sim_local(s, ia + (uint64_t)(i * is), K * sz);
		npu_load_f32_n(m->dt, f + i * K, in, (size_t)K);
	}
	if (c) {
		*c = (sim_mc){ ia, 0, 0, is, M, K, m->dt, 1, c->f, c->cap };
		in_span(ia, is, M, K * sz, &c->lo, &c->hi);
		if (s->mc_hi == 0 || c->lo < s->mc_lo)
			s->mc_lo = c->lo;
		if (c->hi > s->mc_hi)
			s->mc_hi = c->hi;
	}
	return f;
}

/* The values of one mmac: acc[m][n] (+)= sum_k in[m][k] * W[k][n]. */
static int mmac_values(npu_sim *s, const sim_entry *e, int64_t M, int acc)
{
	sim_mxu *m = &s->m;
	int sz = npu_dtype_size(m->dt);
	int64_t K = m->K, N = m->N, is = m->istride, as = m->astride;
	uint64_t ia = (uint64_t)e->x[0], oa = (uint64_t)e->x[1], lo, hi;
	const float *a;

	if (m->os && load_weights(s, (uint64_t)m->waddr, m->wstride, 0) < 0)
		return -1;
	/* The outputs overwrite local memory: drop conversions they touch
	 * (after this mmac has converted its own inputs, if they overlap). */
	in_span(oa, as, M, N * 4, &lo, &hi);
	if (is_int(m->dt)) {
		sim_wrote(s, lo, hi - lo);
		for (int64_t i = 0; i < M; i++) {
			const uint8_t *in = sim_local(s, ia + (uint64_t)(i * is), K * sz);
			uint8_t *out = sim_local(s, oa + (uint64_t)(i * as), N * 4);
			for (int64_t n = 0; n < N; n++) {
				int32_t sum;
				uint32_t us = 0;
				if (acc)
					memcpy(&sum, out + n * 4, 4), us = (uint32_t)sum;
				for (int64_t k = 0; k < K; k++)
					us += (uint32_t)(load_int(m->dt, in + k * sz) *
							 m->wi[k * N + n]);
				memcpy(out + n * 4, &us, 4);
			}
		}
		return 0;
	}
	if (!(a = inputs_f32(s, ia, M)))
		return -1;
	sim_wrote(s, lo, hi - lo);
	if (as >= N * 4 && as % 4 == 0) {
		float *c = (float *)(void *)sim_local(s, oa, 0);
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)M, (int)N,
			    (int)K, 1.0f, a, (int)K, m->wf, (int)N,
			    acc ? 1.0f : 0.0f, c, (int)(as / 4));
		return 0;
	}
	/* Overlapping output rows: one row at a time, in order. */
	for (int64_t i = 0; i < M; i++) {
		float *c = (float *)(void *)sim_local(s, oa + (uint64_t)(i * as), 0);
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 1, (int)N,
			    (int)K, 1.0f, a + i * K, (int)K, m->wf, (int)N,
			    acc ? 1.0f : 0.0f, c, (int)N);
	}
	return 0;
}

/*
 * What an mmac of M rows costs under the current configuration: its
 * stream cycles (output-stationary: K / rate, plus the M cycles that
 * shift the outputs out; weight-stationary: M / rate), MACs and bytes.
 */
static void mmac_derive(npu_sim *s, int64_t M)
{
	sim_mxu *m = &s->m;
	double rate = s->tg->mxu_rate[m->dt];
	double len = m->os ? (double)m->K : (double)M;
	uint64_t stream = (uint64_t)(len / rate);

	if ((double)stream * rate < len)
		stream++;
	m->dstream = m->os ? stream + (uint64_t)M : stream;
	m->dmacs = (uint64_t)(M * m->K * m->N);
	m->dmc = (double)m->dmacs / rate;
	m->drd = (uint64_t)(M * m->K * m->sz);
	m->dwr = (uint64_t)(M * m->N * 4);
	m->dM = M;
	m->dvalid = 1;
}

/* The race check's view of an mmac of M rows: its inputs (and, output
 * stationary, its weights) read, its accumulator rows written. */
static int mmac_race(npu_sim *s, const sim_entry *e, int64_t M, uint64_t t)
{
	sim_mxu *m = &s->m;

	if (sim_race_rows(s, NPU_UNIT_MXU, e->pc, t, (uint64_t)e->x[0], m->istride, M,
			  (uint64_t)(m->K * m->sz), 0) < 0 ||
	    (m->os && sim_race_rows(s, NPU_UNIT_MXU, e->pc, t, (uint64_t)m->waddr,
				    m->wstride, m->K, (uint64_t)(m->N * m->sz), 0) < 0))
		return -1;
	return sim_race_rows(s, NPU_UNIT_MXU, e->pc, t, (uint64_t)e->x[1], m->astride, M,
			     (uint64_t)(m->N * 4), 1);
}

/* The shadow weights (the last mldw's) become the ones in use. */
static void swap_in(sim_mxu *m)
{
	float *f = m->wf;
	int32_t *w = m->wi;
	size_t cf = m->cwf, cw = m->cwi;

	m->wf = m->sf;
	m->wi = m->si;
	m->cwf = m->csf;
	m->cwi = m->csi;
	m->sf = f;
	m->si = w;
	m->csf = cf;
	m->csi = cw;
	m->act_ready = m->wready;
	m->pending = 0;
	m->have_w = 1;
}

static int mmac(npu_sim *s, const sim_insn *in, const sim_entry *e, uint64_t t0)
{
	const npu_target *tg = s->tg;
	sim_mxu *m = &s->m;
	sim_unit *u = &s->u[NPU_UNIT_MXU];
	int64_t M = e->x[2];
	uint64_t start, done, macs;
	int sz, hold = (in->imm & NPU_MMAC_HOLD) != 0;

	if (!m->configured || (!m->have_w && (hold || !m->pending)))
		return sim_fault(s, NPU_UNIT_MXU, e->pc, t0, "mmac without weights (mcfg and mldw first)");
	if (hold && m->os)
		return sim_fault(s, NPU_UNIT_MXU, e->pc, t0,
				 "mmac holds weights in the output-stationary dataflow");
	if (!hold && m->pending)
		swap_in(m);
	if (M < 0 || M > MXU_MAX_M || (m->os && M > tg->mxu_rows))
		return mfault(s, e, t0, "M = %lld rows is out of range", (long long)M);
	sz = m->sz;
	if ((m->ok_cfg & 2) && m->ok[0] == e->x[0] && m->ok[1] == e->x[1] &&
	    m->ok[2] == M)
		goto checked;
	if ((uint64_t)e->x[1] % 4 || m->astride % 4)
		return sim_fault(s, NPU_UNIT_MXU, e->pc, t0,
				 "accumulator address 0x%llx or row stride %lld is "
				 "not a multiple of 4", (unsigned long long)e->x[1],
				 (long long)m->astride);
	if (!rows_ok(s, (uint64_t)e->x[0], m->istride, M, m->K * sz))
		return sim_fault(s, NPU_UNIT_MXU, e->pc, t0,
				 "inputs at local address 0x%llx (%lld x %lld, row "
				 "stride %lld) are outside SRAM and the accumulator",
				 (unsigned long long)e->x[0], (long long)M,
				 (long long)m->K, (long long)m->istride);
	if (!rows_ok(s, (uint64_t)e->x[1], m->astride, M, m->N * 4))
		return sim_fault(s, NPU_UNIT_MXU, e->pc, t0,
				 "outputs at local address 0x%llx (%lld x %lld, row "
				 "stride %lld) are outside SRAM and the accumulator",
				 (unsigned long long)e->x[1], (long long)M,
				 (long long)m->N, (long long)m->astride);
	m->ok[0] = e->x[0];
	m->ok[1] = e->x[1];
	m->ok[2] = M;
	m->ok_cfg |= 2;
checked:
	if (!m->dvalid || m->dM != M)
		mmac_derive(s, M);
	start = sim_max(t0, sim_max(m->stream_free, m->os ? m->wready : m->act_ready));
	if (s->race && mmac_race(s, e, M, start) < 0)
		return -1;
	m->stream_free = start + m->dstream;
	done = m->stream_free + tg->mxu_rows + tg->mxu_cols - 2 + tg->mxu_latency;
	m->last_mmac_start = start;
	macs = m->dmacs;
	s->st.macs += macs;
	s->st.mac_cycles += m->dmc;
	s->st.sram_rd += m->drd;
	s->st.sram_wr += m->dwr;
	if (e->kx != SIM_NONE) {
		s->kx[e->kx].macs += macs;
		s->kxmac[e->kx] += m->dmc;
		s->kx[e->kx].sram_rd += m->drd;
		s->kx[e->kx].sram_wr += m->dwr;
	}
	if (!s->o.timing_only && M > 0 &&
	    mmac_values(s, e, M, in->imm & NPU_MMAC_ACC) < 0) {
		s->oom = 1;
		return -1;
	}
	s->start = start;
	sim_rec(s, u, t0, start, NPU_US_DEP_STALL, e->kx);
	sim_rec(s, u, start, m->stream_free, NPU_US_BUSY, e->kx);
	u->t = start;
	sim_done(s, u, e->kx, done);
	return 0;
}

int sim_mxu_exec(npu_sim *s, const sim_insn *in, const sim_entry *e, uint64_t t0)
{
	sim_unit *u = &s->u[NPU_UNIT_MXU];

	switch (in->op) {
	case NPU_OP_MCFG:
		u->t = t0;
		return mcfg(s, in, e, t0);
	case NPU_OP_MSTRIDE:
		s->m.istride = e->x[0];
		s->m.astride = e->x[1];
		s->m.ok_cfg = 0;
		u->t = t0;
		return 0;
	case NPU_OP_MLDW:
		return mldw(s, in, e, t0);
	default:
		return mmac(s, in, e, t0);
	}
}
