/*
 * stats.c - cycle accounting: every unit's timeline as intervals, kernel
 * executions, and the rows a trace receives.
 *
 * A unit's timeline is recorded left to right: sim_rec() appends [a, b)
 * in one state, fills any gap before it with idle, and clips what lies
 * before the recorded end (the matrix unit's weight and stream paths
 * overlap; the union is busy).  Consecutive intervals with the same state
 * and kernel merge, so a steady stream of work is one row, not one per
 * instruction.  At the end every timeline is padded with idle up to the
 * total, so the intervals tile [0, total) exactly; the per-state sums are
 * kept as the intervals are appended.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

/* Appends [u->rec, b) in a state of kernel execution kx (cycles only; the
 * kernel execution's own counters are the caller's). */
static void append(npu_sim *s, sim_unit *u, uint64_t b, int state, uint32_t kx)
{
	uint64_t key = sim_iv_key(s, state, kx);

	u->st.cycles[state] += b - u->rec;
	u->last_state = state;
	u->last_kx = kx;
	if (key == u->last_key)
		u->iv[u->niv - 1] = key | b;
	else
		sim_rec_push(s, u, key, b);
	u->rec = b;
}

void sim_rec_push(npu_sim *s, sim_unit *u, uint64_t key, uint64_t b)
{
	if (s->o.no_timeline && u->niv) {
		/* the last interval is overwritten: sim_rec merges into
		 * iv[niv - 1], so that slot must hold the newest one */
		u->iv[u->niv - 1] = key | b;
		u->last_key = key;
		return;
	}
	if (sim_grow((void **)&u->iv, &u->civ, u->niv + 1, sizeof *u->iv) < 0) {
		s->oom = 1;
		return;
	}
	u->iv[u->niv++] = key | b;
	u->last_key = key;
}

void sim_rec_kx(npu_sim *s, sim_unit *u, uint32_t kx)
{
	uint64_t *row = s->kxc[u->acc_kx + 1];

	for (int i = 0; i < NPU_SIM_NSTATE; i++) {
		row[i] += u->st.cycles[i] - u->snap[i];
		u->snap[i] = u->st.cycles[i];
	}
	if (u->acc_kx != SIM_NONE) {
		npu_trace_kernel *k = &s->kx[u->acc_kx];
		if (k->end < u->kend)
			k->end = u->kend;
		k->vec_ops += u->kvops;
	}
	u->kend = 0;
	u->kvops = 0;
	u->acc_kx = kx;
	u->kbits = s->kxc[kx + 1][SIM_KXC_KEY];
}

void sim_rec_gap(npu_sim *s, sim_unit *u, uint64_t a)
{
	append(s, u, a, NPU_US_IDLE, SIM_NONE);
}

uint32_t sim_kx_begin(npu_sim *s, int kernel, uint64_t t)
{
	if (sim_grow((void **)&s->kx, &s->ckx, s->nkx + 1, sizeof *s->kx) < 0 ||
	    sim_grow((void **)&s->kxmac, &s->ckxmac, s->nkx + 1, sizeof *s->kxmac) < 0 ||
	    sim_grow((void **)&s->kxc, &s->ckxc, s->nkx + 2, sizeof *s->kxc) < 0) {
		s->oom = 1;
		return SIM_NONE;
	}
	memset(s->kxc[s->nkx + 1], 0, sizeof *s->kxc);
	s->kxc[s->nkx + 1][SIM_KXC_KEY] = sim_iv_kbits(kernel);
	memset(&s->kx[s->nkx], 0, sizeof *s->kx);
	s->kx[s->nkx].kernel = kernel;
	s->kx[s->nkx].start = t;
	s->kx[s->nkx].end = t;
	s->kxmac[s->nkx] = 0;
	return (uint32_t)s->nkx++;
}

int sim_stats_finish(npu_sim *s)
{
	uint64_t total = 0;

	/* the kernel executions' ends and counts kept per unit */
	for (int i = 0; i < s->nunits; i++)
		sim_rec_kx(s, &s->u[i], SIM_NONE);
	for (int i = 0; i < s->nunits; i++) {
		sim_unit *u = &s->u[i];
		total = sim_max(total, sim_max(u->done, u->rec));
		if (i == NPU_UNIT_SCL || !u->blocked)
			total = sim_max(total, u->t);
	}
	for (size_t k = 0; k < s->nkx; k++)
		total = sim_max(total, s->kx[k].end);
	for (int i = 0; i < s->nunits; i++) {
		sim_unit *u = &s->u[i];
		/* A unit still blocked at a fault waited until the end. */
		if (u->blocked)
			sim_rec(s, u, u->bsince, total, NPU_US_DEP_STALL, u->bkx);
		if (u->rec < total)
			append(s, u, total, NPU_US_IDLE, SIM_NONE);
		sim_rec_kx(s, u, SIM_NONE);
		s->st.unit[i] = u->st;
	}
	for (size_t k = 0; k < s->nkx; k++) {
		const uint64_t *c = s->kxc[k + 1];
		s->kx[k].compute = c[NPU_US_BUSY];
		s->kx[k].dma_wait = c[NPU_US_DMA_WAIT];
		s->kx[k].dep_stall = c[NPU_US_DEP_STALL];
		s->kx[k].bank_stall = c[NPU_US_BANK_STALL];
	}
	s->st.total_cycles = total;
	return s->oom ? -1 : 0;
}

/* Rows buffered for one window of the binned activity, in the order of
 * their first cycle; slot finds the row of a state of `kernel` without a
 * search (most intervals add to a row of the kernel of the one before). */
typedef struct bin {
	int n, kernel;
	uint8_t slot[8];     /* per state: 1 + its row of `kernel`, 0 if none */
	struct { int state, kernel; uint64_t len; } r[64];
} bin;

static int flush_bin(npu_trace *t, int unit, bin *b, uint64_t *at, npu_err *e)
{
	for (int i = 0; i < b->n; i++) {
		if (b->r[i].state != NPU_US_IDLE &&
		    npu_trace_activity(t, unit, *at, *at + b->r[i].len, b->r[i].kernel,
				       b->r[i].state, e) < 0)
			return -1;
		*at += b->r[i].len;
	}
	b->n = 0;
	memset(b->slot, 0, sizeof b->slot);
	return 0;
}

/* (inlined: a call per interval cost a third of the binning) */
static inline __attribute__((always_inline)) void bin_add(bin *b, int state,
						     int kernel, uint64_t len)
{
	if (kernel != b->kernel) {
		b->kernel = kernel;
		memset(b->slot, 0, sizeof b->slot);
		for (int i = 0; i < b->n; i++)
			if (b->r[i].kernel == kernel)
				b->slot[b->r[i].state] = (uint8_t)(i + 1);
	}
	if (b->slot[state]) {
		b->r[b->slot[state] - 1].len += len;
		return;
	}
	b->r[b->n].state = state;
	b->r[b->n].kernel = kernel;
	b->r[b->n].len = len;
	b->slot[state] = (uint8_t)++b->n;
}

/*
 * The binning of one unit's timeline into activity rows at resolution q,
 * resumable at an interval boundary: sim_stream bins the intervals that
 * are over while the run goes on, npu_sim_write_trace the rest.  Within a
 * window the rows are laid end to end from the window's start, so they
 * still tile the unit's timeline and keep every state's cycles exactly.
 */
struct sim_binner {
	uint64_t q;
	size_t j;            /* the next interval */
	uint64_t a, bs, at;  /* cycle reached, its window's start, and where
			      * the window's next row starts */
	bin b;               /* the window's rows so far */
};

/* Bins the intervals of unit `unit` before `upto` (rows of windows not
 * finished yet stay in z->b).  Most intervals end inside the window they
 * start in: they only add to its rows (the first branch). */
static int bin_upto(const npu_sim *s, npu_trace *t, int unit, sim_binner *z,
		    size_t upto, npu_err *e)
{
	const uint64_t *iv = s->u[unit].iv;
	uint64_t q = z->q, a = z->a, bs = z->bs;
	size_t j = z->j;
	int rc = -1;

	for (; j < upto; j++) {
		uint64_t v = iv[j], end = SIM_IV_END(v);
		int st = SIM_IV_STATE(v), k = SIM_IV_KERNEL(v);
		if (end < bs + q && z->b.n < 64) {
			if (a < end)
				bin_add(&z->b, st, k, end - a);
			a = end;
			continue;
		}
		while (a < end) {
			uint64_t take;
			if (!z->b.n && end - a >= q) {
				/* a long stretch stays one row */
				if (st != NPU_US_IDLE &&
				    npu_trace_activity(t, unit, a, end, k, st, e) < 0)
					goto out;
				a = bs = z->at = end;
				break;
			}
			take = (end < bs + q ? end : bs + q) - a;
			if (z->b.n == 64 && flush_bin(t, unit, &z->b, &z->at, e) < 0)
				goto out;
			bin_add(&z->b, st, k, take);
			a += take;
			if (a == bs + q) {
				if (flush_bin(t, unit, &z->b, &z->at, e) < 0)
					goto out;
				bs = a;
			}
		}
	}
	rc = 0;
out:
	z->j = j;
	z->a = a;
	z->bs = bs;
	return rc;
}

/* The activity rows of a unit from where z stands to the end. */
static int bin_rest(const npu_sim *s, npu_trace *t, int unit, sim_binner *z,
		    npu_err *e)
{
	if (bin_upto(s, t, unit, z, s->u[unit].niv, e) < 0)
		return -1;
	return flush_bin(t, unit, &z->b, &z->at, e);
}

/* Activity rows a run may have at resolution 1 (else it is binned). */
static uint64_t row_budget(const npu_sim *s)
{
	return s->st.insns / 64 > 4096 ? s->st.insns / 64 : 4096;
}

static uint64_t timeline_rows(const npu_sim *s)
{
	uint64_t rows = 0;

	for (int i = 0; i < s->nunits; i++)
		rows += s->u[i].niv;
	return rows;
}

/* The window size: exact for short runs, else about insns / 64 rows. */
static uint64_t resolution(const npu_sim *s)
{
	uint64_t budget = row_budget(s), q = 1;

	if (s->o.trace_resolution)
		return s->o.trace_resolution;
	if (timeline_rows(s) <= budget)
		return 1;
	/* Binned rows: at most a few per window and unit. */
	while ((uint64_t)s->nunits * 3 * (s->st.total_cycles / q) > budget)
		q *= 2;
	return q;
}

/*
 * The resolution the activity is streamed at, 0 for none: the one given
 * (npu_sim_opts.trace_resolution); else, as the automatic choice
 * (resolution()) is only known at the end, a guess: the resolution the
 * last run of the same program and target in the trace got (`prior`,
 * npu_trace_prior_resolution: a rerun, or a sweep over inputs appending
 * to its trace, gets the same or nearly), or without one 1 while the run
 * has made at most one interval per 64 instructions (`sparse`), as then
 * it stays within its budget however long it goes on.  A run that makes
 * more later stops streaming; a wrong guess costs the activity streamed,
 * dropped and binned again at the end.  A first run denser from the
 * start (a short run within the 4096 rows, or one to be binned) streams
 * only its DMA transfers.
 */
static uint64_t stream_q(const npu_sim *s, uint64_t prior, int sparse)
{
	if (s->o.trace_resolution)
		return s->o.trace_resolution;
	return prior ? prior : (uint64_t)sparse;
}

/* Bins each unit's activity at q up to interval upto[unit]. */
static int stream_upto(npu_sim *s, uint64_t q, const size_t *upto, npu_err *e)
{
	if (!q)
		return 0;
	for (int i = 0; i < s->nunits; i++) {
		sim_binner *z = &s->bins[i];
		z->q = q;
		if (bin_upto(s, s->stream, i, z, upto[i], e) < 0)
			return -1;
		if (z->j) /* (binners that took nothing fit any q) */
			s->binned_q = q;
	}
	return 0;
}

/* Calls recorded before the trace's guess is waited for: a writer thread
 * takes a few milliseconds to open the trace, a locked one may take its
 * busy timeout. */
#define SIM_MAX_REC 65536

/*
 * One call's view (each unit's intervals over, and `sparse`) kept while
 * the guess is not known, so that the activity is then binned as it
 * would have been, call by call: the rows, rowids included, do not
 * depend on when a writer thread got there.
 */
static int record(npu_sim *s, int sparse, npu_err *e)
{
	size_t w = (size_t)s->nunits + 1, *r;

	if (s->nrec == s->caprec) {
		size_t cap = s->caprec ? 2 * s->caprec : 64;
		if (!(r = realloc(s->rec, cap * w * sizeof *r)))
			return npu_errf(e, "out of memory streaming the trace");
		s->rec = r;
		s->caprec = cap;
	}
	r = s->rec + s->nrec++ * w;
	for (int i = 0; i < s->nunits; i++)
		r[i] = s->u[i].niv ? s->u[i].niv - 1 : 0;
	r[s->nunits] = (size_t)sparse;
	return 0;
}

/* Waits for the writer thread to have begun the run, for its guess. */
static int wait_prior(npu_sim *s, uint64_t *prior, npu_err *e)
{
	if (npu_trace_sync(s->stream, e) < 0)
		return -1;
	if (!npu_trace_prior_resolution(s->stream, prior))
		return npu_errf(e, "the trace's writer has not begun the run");
	return 0;
}

static int replay(npu_sim *s, uint64_t prior, npu_err *e)
{
	size_t w = (size_t)s->nunits + 1;

	for (size_t c = 0; c < s->nrec; c++) {
		const size_t *r = s->rec + c * w;
		if (stream_upto(s, stream_q(s, prior, (int)r[s->nunits]), r, e) < 0)
			return -1;
	}
	s->nrec = 0;
	return 0;
}

/*
 * The rows finished since the last call, to the trace given to
 * npu_sim_stream_trace: the DMA transfers (final when made) and, once
 * the resolution is known, the activity rows of every unit's intervals
 * but its last (which may still grow).  Runs every SIM_STREAM_STEPS
 * steps of the run: the rows' inserts then overlap the simulation when
 * the trace has a writer thread.
 */
void sim_stream(npu_sim *s)
{
	npu_trace *t = s->stream;
	npu_err *e = &s->stream_err;
	int sparse = timeline_rows(s) * 64 <= s->st.insns;
	uint64_t prior = 0;
	size_t upto[NPU_NUNIT];

	s->stream_steps = 0;
	for (; s->dmas_sent < s->ndmas; s->dmas_sent++)
		if (npu_trace_dma_xfer(t, &s->dmas[s->dmas_sent], e) < 0)
			goto fail;
	if (!s->o.trace_resolution && !npu_trace_prior_resolution(t, &prior)) {
		if (s->nrec < SIM_MAX_REC) {
			if (record(s, sparse, e) < 0 || npu_trace_flush(t, e) < 0)
				goto fail;
			return;
		}
		if (wait_prior(s, &prior, e) < 0)
			goto fail;
	}
	if (s->nrec && replay(s, prior, e) < 0)
		goto fail;
	for (int i = 0; i < s->nunits; i++)
		upto[i] = s->u[i].niv ? s->u[i].niv - 1 : 0;
	if (stream_upto(s, stream_q(s, prior, sparse), upto, e) < 0 ||
	    npu_trace_flush(t, e) < 0)
		goto fail;
	return;
fail:
	s->stream = NULL;
	s->stream_failed = 1;
}

int npu_sim_stream_trace(npu_sim *s, npu_trace *t, npu_err *e)
{
	if (s->o.no_timeline)
		return npu_errf(e, "the run kept no timeline to trace (no_timeline)");
	if (s->ran)
		return npu_errf(e, "rows are streamed from a run not started yet");
	if (!s->bins && !(s->bins = calloc(NPU_NUNIT, sizeof *s->bins)))
		return npu_errf(e, "out of memory");
	s->stream = t;
	return 0;
}

/* The run's counters: its totals, each unit's cycles per state, and the
 * activity resolution q. */
static int write_counters(const npu_sim *s, npu_trace *t, uint64_t q,
			  npu_err *e)
{
	static const struct { const char *name; size_t off; } ctr[] = {
#define C(f) { #f, offsetof(npu_sim_stats, f) }
		C(total_cycles), C(insns), C(macs), C(vec_ops), C(dram_rd),
		C(dram_wr), C(dram_touched), C(sram_rd), C(sram_wr),
		C(host_calls), C(host_flops), C(dma_xfers),
#undef C
	};

	for (size_t c = 0; c < sizeof ctr / sizeof *ctr; c++) {
		uint64_t v;
		memcpy(&v, (const char *)&s->st + ctr[c].off, sizeof v);
		if (npu_trace_counter(t, ctr[c].name, (double)v, e) < 0)
			return -1;
	}
	for (int i = 0; i < s->nunits; i++) {
		char name[64];
		for (int st = 0; st < NPU_SIM_NSTATE; st++) {
			snprintf(name, sizeof name, "%s.%s", npu_unit_name(i),
				 npu_trace_state_name(st));
			if (npu_trace_counter(t, name, (double)s->u[i].st.cycles[st], e) < 0)
				return -1;
		}
	}
	return npu_trace_counter(t, NPU_TRACE_RESOLUTION, (double)q, e);
}

int npu_sim_write_trace(npu_sim *s, npu_trace *t, npu_err *e)
{
	uint64_t q, prior;

	if (s->o.no_timeline)
		return npu_errf(e, "the run kept no timeline to trace (no_timeline)");
	if (s->stream_failed) {
		if (e)
			*e = s->stream_err;
		return -1;
	}
	/* a run over before the writer thread had begun it streams now what
	 * it would have, so that the rows stay in the same order */
	if (s->stream && s->nrec &&
	    (wait_prior(s, &prior, e) < 0 || replay(s, prior, e) < 0))
		return -1;
	/* The rows ready as they are first, then the activity, which takes
	 * binning: with a writer thread (npu_trace_open_async) SQLite is
	 * then busy from the start while the activity is binned.  The order
	 * between tables changes nothing in the database.  What sim_stream
	 * handed over already is not written again. */
	for (size_t k = 0; k < s->nkx; k++)
		if (npu_trace_kernel_exec(t, &s->kx[k], e) < 0)
			return -1;
	for (size_t d = s->dmas_sent; d < s->ndmas; d++)
		if (npu_trace_dma_xfer(t, &s->dmas[d], e) < 0)
			return -1;
	if (npu_trace_ending(t, e) < 0)
		return -1;
	q = resolution(s);
	if (write_counters(s, t, q, e) < 0)
		return -1;
	/* streamed at another resolution than the end's: binned again */
	if (s->binned_q && s->binned_q != q &&
	    npu_trace_drop_activity(t, e) < 0)
		return -1;
	for (int i = 0; i < s->nunits; i++) {
		sim_binner z = { .q = q };
		if (s->binned_q == q)
			z = s->bins[i];
		if (bin_rest(s, t, i, &z, e) < 0)
			return -1;
	}
	return 0;
}

double npu_sim_kexec_mac_util(const npu_sim *s, size_t i)
{
	const npu_trace_kernel *k;

	if (i >= s->nkx)
		return 0;
	k = &s->kx[i];
	if (k->end <= k->start)
		return 0;
	return s->kxmac[i] / ((double)s->tg->mxu_rows * s->tg->mxu_cols *
			      (double)(k->end - k->start));
}

size_t npu_sim_intervals(npu_sim *s, int unit, const npu_sim_interval **out)
{
	sim_unit *u;
	uint64_t start = 0;

	*out = NULL;
	if (unit < 0 || unit >= s->nunits || s->o.no_timeline)
		return 0;
	u = &s->u[unit];
	free(u->ivx);
	u->ivx = malloc((u->niv ? u->niv : 1) * sizeof *u->ivx);
	if (!u->ivx)
		return 0;
	for (size_t j = 0; j < u->niv; j++) {
		uint64_t v = u->iv[j];
		u->ivx[j] = (npu_sim_interval){ start, SIM_IV_END(v), SIM_IV_KERNEL(v),
						SIM_IV_STATE(v) };
		start = SIM_IV_END(v);
	}
	*out = u->ivx;
	return u->niv;
}
