/*
 * dma.c - DMA engines and the DRAM they share.
 *
 * An engine runs its queue in order.  dcfg/dcfgi set descriptor fields and
 * take no time; a transfer copies, for i2 < n2 and i1 < n1, rowb bytes from
 * src + i1*ss1 + i2*ss2 to dst + i1*ds1 + i2*ds2 (a gather takes row i's
 * source offset from the index list instead: idx[i2*n1 + i1] * ss1; a
 * scatter its destination offset: idx[i2*n1 + i1] * ds1).  With idxn > 0
 * an index must lie in [-idxn, idxn), a negative one counting from idxn
 * (PyTorch's rule); any other is a fault, as PyTorch raises.
 *
 * Timing (docs/timing-model.md):
 *   start  = max(engine free, dispatch + 1)
 *   engine = start + setup + bytes / bytes_per_cycle
 *   DRAM   every burst-aligned range a row touches is charged to the
 *          channels its interleave stripes map to (channel =
 *          addr / interleave % channels); channel c finishes at
 *          max(free_c, start + setup) + bytes_c / (dram_bw / channels)
 *   end    = ceil(max(engine, finish of every channel used) + latency)
 *          (no DRAM side: ceil(engine))
 * and the SRAM banks of the local side are held for
 * ceil(bytes on bank / port_bytes) cycles ending at `end`; a conflict with
 * another unit's window moves the end later (a bank stall).
 *
 * dstc is a store that converts: local fp32 rows become bf16 or f16 rows
 * in DRAM, rounded exactly as vst rounds (isa/dtype.h).  Like a real
 * NPU's output path from the accumulator (the matmul result leaves
 * without a vector-unit pass), the engine runs at its byte rate on its
 * narrower side: rowb and `bytes` count DRAM bytes, the formulas above
 * apply unchanged, and the local side reads twice as many bytes, which
 * hold its banks for twice as long.
 *
 * A DRAM-side address at or past NPU_SRAM_APERTURE names SRAM byte
 * (address - NPU_SRAM_APERTURE): that side is local, and a transfer with
 * no DRAM side left is timed, counted and traced as a copy.  A dynamic
 * program's loader puts symbolic scratch there when it fits (isa/prog.h).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "isa/dtype.h"
#include "sim/sim_int.h"

#define DMA_MAX_ROWS (1ll << 22)     /* rows of one transfer */
#define DMA_MAX_BYTES (1ll << 36)    /* bytes of one transfer */

enum { DIR_LD, DIR_ST, DIR_CP, DIR_MV, DIR_GAT, DIR_SCT };

typedef struct xfer {
	uint64_t src, dst;       /* addresses, the aperture's made local */
	int src_dram, dst_dram, gather, scatter;
	int cvt;                 /* dstc: the DRAM type, else 0 */
	int64_t srow;            /* bytes of a source row */
	uint64_t touched;        /* DRAM burst bytes charged */
	uint64_t ps, pe;         /* pending contiguous DRAM range to charge */
} xfer;

/* Adds [a, a + n) (burst aligned already) to the channels' byte counts. */
static void chan_add(npu_sim *s, uint64_t a, uint64_t n)
{
	uint64_t il = (uint64_t)s->tg->dram_interleave;
	uint64_t nc = (uint64_t)s->tg->dram_channels, period = il * nc;

	while (n) {
		if (a % il == 0 && n >= period) {
			double each = (double)(n / period * il);
			for (uint64_t c = 0; c < nc; c++)
				s->chan_bytes[c] += each;
			a += n / period * period;
			n %= period;
			continue;
		}
		uint64_t room = il - a % il, k = n < room ? n : room;
		s->chan_bytes[a / il % nc] += (double)k;
		a += k;
		n -= k;
	}
}

/* Charges the bursts of DRAM range [a, a + n). */
static void charge(npu_sim *s, xfer *x, uint64_t a, uint64_t n)
{
	uint64_t b = (uint64_t)s->tg->dram_burst, first, end;

	if (!n)
		return;
	first = a - a % b;
	end = a + n;
	if (end % b)
		end += b - end % b;
	x->touched += end - first;
	chan_add(s, first, end - first);
}

/* Rows that follow each other in DRAM are one range, not many. */
static void charge_row(npu_sim *s, xfer *x, uint64_t a, uint64_t n)
{
	if (x->pe == a && x->pe != x->ps) {
		x->pe += n;
		return;
	}
	charge(s, x, x->ps, x->pe - x->ps);
	x->ps = a;
	x->pe = a + n;
}

static uint8_t *side(npu_sim *s, int dram, uint64_t a, uint64_t n)
{
	return dram ? sim_dram(s, a, n) : sim_local(s, a, n);
}

static int side_fault(npu_sim *s, const sim_entry *e, int eng, uint64_t t,
		      const char *what, int dram, uint64_t a, int64_t n)
{
	return sim_fault(s, NPU_UNIT_DMA0 + eng, e->pc, t,
			 "%s address 0x%llx (%lld bytes) is outside %s", what,
			 (unsigned long long)a, (long long)n,
			 dram ? "every DRAM buffer" : "SRAM and the accumulator");
}

/* The race check's view of one row: read on the local source side,
 * written on the local destination side. */
static int race_row(npu_sim *s, int eng, const sim_entry *e, uint64_t t0,
		    const xfer *x, uint64_t sa, uint64_t da, int64_t rowb)
{
	int u = NPU_UNIT_DMA0 + eng;

	if (!x->src_dram && sim_race_access(s, u, e->pc, t0, sa, (uint64_t)x->srow, 0) < 0)
		return -1;
	if (!x->dst_dram && sim_race_access(s, u, e->pc, t0, da, (uint64_t)rowb, 1) < 0)
		return -1;
	return 0;
}

/* Entry i of the index list (width w) in *v, checked against idxn
 * when it is set: [-idxn, idxn), a negative entry counting from idxn;
 * -1 on a fault.  --timing-only computes no values, so an index the
 * vector unit would have written may be anything: there an entry out
 * of range reads as 0. */
static int index_at(npu_sim *s, int eng, const sim_entry *e, uint64_t t0,
		    const uint8_t *idx, int64_t w, int64_t i, int64_t *v)
{
	int64_t n = s->dma[eng].f[NPU_DF_IDXN];

	if (w == 4) {
		int32_t v4;
		memcpy(&v4, idx + i * 4, 4);
		*v = v4;
	} else {
		memcpy(v, idx + i * 8, 8);
	}
	if (n <= 0)
		return 0;
	if (*v < -n || *v >= n) {
		if (s->o.timing_only) {
			*v = 0;
			return 0;
		}
		return sim_fault(s, NPU_UNIT_DMA0 + eng, e->pc, t0,
				 "index %lld (entry %lld) is outside [-%lld, %lld)",
				 (long long)*v, (long long)i, (long long)n, (long long)n);
	}
	if (*v < 0)
		*v += n;
	return 0;
}

/* Copies the rows and counts bytes; -1 on a fault. */
static int move(npu_sim *s, int eng, const sim_entry *e, uint64_t t0, xfer *x)
{
	const int64_t *f = s->dma[eng].f;
	uint64_t src = x->src, dst = x->dst;
	int64_t rowb = f[NPU_DF_ROWB], n1 = f[NPU_DF_N1], n2 = f[NPU_DF_N2];
	int64_t w = f[NPU_DF_IDXW];
	const uint8_t *idx = NULL;

	if (x->gather || x->scatter) {
		if (w != 4 && w != 8)
			return sim_fault(s, NPU_UNIT_DMA0 + eng, e->pc, t0,
					 "%s index width %lld is not 4 or 8",
					 x->gather ? "gather" : "scatter", (long long)w);
		idx = sim_local(s, (uint64_t)f[NPU_DF_IDX], (uint64_t)(n1 * n2 * w));
		if (!idx)
			return side_fault(s, e, eng, t0, "index list", 0,
					  (uint64_t)f[NPU_DF_IDX], n1 * n2 * w);
		if (s->race && sim_race_access(s, NPU_UNIT_DMA0 + eng, e->pc, t0,
					       (uint64_t)f[NPU_DF_IDX],
					       (uint64_t)(n1 * n2 * w), 0) < 0)
			return -1;
	}
	for (int64_t i2 = 0; i2 < n2; i2++) {
		for (int64_t i1 = 0; i1 < n1; i1++) {
			uint64_t sa, da;
			uint8_t *ps, *pd;
			int64_t off = i1, so = i1, dof = i1;
			if (idx) {
				if (index_at(s, eng, e, t0, idx, w, i2 * n1 + i1, &off) < 0)
					return -1;
				*(x->gather ? &so : &dof) = off;
			}
			sa = src + (uint64_t)so * (uint64_t)f[NPU_DF_SS1] +
			     (uint64_t)i2 * (uint64_t)f[NPU_DF_SS2];
			da = dst + (uint64_t)dof * (uint64_t)f[NPU_DF_DS1] +
			     (uint64_t)i2 * (uint64_t)f[NPU_DF_DS2];
			ps = side(s, x->src_dram, sa, (uint64_t)x->srow);
			/* --timing-only computes no values, so an index the
			 * vector unit would have written may be anything: it
			 * reads row 0 instead (a gather's timing does not
			 * depend on its indices, below) */
			if (!ps && x->gather && s->o.timing_only) {
				sa = src + (uint64_t)i2 * (uint64_t)f[NPU_DF_SS2];
				ps = side(s, x->src_dram, sa, (uint64_t)x->srow);
			}
			if (!ps)
				return side_fault(s, e, eng, t0, "source",
						  x->src_dram, sa, x->srow);
			pd = side(s, x->dst_dram, da, (uint64_t)rowb);
			if (!pd && x->scatter && s->o.timing_only) {
				da = dst + (uint64_t)i2 * (uint64_t)f[NPU_DF_DS2];
				pd = side(s, x->dst_dram, da, (uint64_t)rowb);
			}
			if (!pd)
				return side_fault(s, e, eng, t0, "destination",
						  x->dst_dram, da, rowb);
			if (x->cvt) /* (cvt_check: the fp32 rows are aligned) */
				npu_store_f32_n(x->cvt, pd, (const float *)(void *)ps,
						(size_t)(x->srow / 4), NPU_CVT_RNE);
			else
				memmove(pd, ps, (size_t)rowb);
			if (!x->dst_dram)
				sim_wrote(s, da, (uint64_t)rowb);
			if (x->src_dram && !x->gather)
				charge_row(s, x, sa, (uint64_t)rowb);
			if (x->dst_dram && !x->scatter)
				charge_row(s, x, da, (uint64_t)rowb);
			if (!x->src_dram)
				sim_bank_add(s, sa, (uint64_t)x->srow);
			if (!x->dst_dram)
				sim_bank_add(s, da, (uint64_t)rowb);
			if (s->race && race_row(s, eng, e, t0, x, sa, da, rowb) < 0)
				return -1;
		}
	}
	charge(s, x, x->ps, x->pe - x->ps);
	if (((x->gather && x->src_dram) || (x->scatter && x->dst_dram)) &&
	    rowb > 0 && n1 * n2 > 0) {
		/* Every gathered (scattered) row is charged as if it started
		 * at the alignment of the base address, one after the other,
		 * so the timing does not depend on the index values. */
		uint64_t b = (uint64_t)s->tg->dram_burst, base = x->gather ? src : dst;
		uint64_t first = base - base % b, end = base + (uint64_t)rowb;
		if (end % b)
			end += b - end % b;
		x->touched += (end - first) * (uint64_t)(n1 * n2);
		chan_add(s, first, (end - first) * (uint64_t)(n1 * n2));
	}
	return 0;
}

/*
 * dstc's operands: a 2-byte float type, whole elements per row, and fp32
 * source rows at multiples of 4 bytes (an fp32 word is read whole, as the
 * matrix unit requires of the accumulator).  Only the strides the
 * transfer steps by count: a descriptor field keeps its value from the
 * engine's earlier transfers (the emitter writes a field only when it
 * changes), so a 1-level store finds ss2 as a load of 2-byte rows left
 * it, which it never adds.  Sets x->cvt; -1 on a fault.
 */
static int cvt_check(npu_sim *s, int eng, const sim_insn *in,
		     const sim_entry *e, uint64_t t0, xfer *x)
{
	const int64_t *f = s->dma[eng].f;
	int dt = in->imm, ui = NPU_UNIT_DMA0 + eng;

	if (dt != NPU_DT_BF16 && dt != NPU_DT_F16)
		return sim_fault(s, ui, e->pc, t0,
				 "dstc converts fp32 to bf16 or f16, not %s",
				 npu_dtype_name(dt) ? npu_dtype_name(dt) : "an unknown type");
	if (f[NPU_DF_ROWB] % 2)
		return sim_fault(s, ui, e->pc, t0,
				 "dstc row of %lld bytes is not whole %s elements",
				 (long long)f[NPU_DF_ROWB], npu_dtype_name(dt));
	if ((uint64_t)e->x[2] % 4 || (f[NPU_DF_N1] > 1 && f[NPU_DF_SS1] % 4) ||
	    (f[NPU_DF_N2] > 1 && f[NPU_DF_SS2] % 4))
		return sim_fault(s, ui, e->pc, t0,
				 "dstc source 0x%llx or its strides (%lld, %lld) "
				 "are not multiples of 4",
				 (unsigned long long)e->x[2],
				 (long long)f[NPU_DF_SS1], (long long)f[NPU_DF_SS2]);
	x->cvt = dt;
	return 0;
}

static int transfer(npu_sim *s, int eng, const sim_insn *in,
		    const sim_entry *e, uint64_t t0)
{
	const npu_target *tg = s->tg;
	const int64_t *f = s->dma[eng].f;
	int ui = NPU_UNIT_DMA0 + eng;
	sim_unit *u = &s->u[ui];
	int64_t rowb = f[NPU_DF_ROWB], n1 = f[NPU_DF_N1], n2 = f[NPU_DF_N2];
	xfer x = { 0 };
	uint64_t bytes, lbytes, end, shift = 0, start = t0;
	double fin;
	int dir;
	npu_trace_dma *d;

	switch (in->op) {
	case NPU_OP_DLD: x.src_dram = 1; dir = DIR_LD; break;
	case NPU_OP_DST: x.dst_dram = 1; dir = DIR_ST; break;
	case NPU_OP_DCP: dir = DIR_CP; break;
	case NPU_OP_DSTC: x.dst_dram = 1; dir = DIR_ST; break;
	case NPU_OP_DMV: x.src_dram = x.dst_dram = 1; dir = DIR_MV; break;
	case NPU_OP_DSCT: x.dst_dram = x.scatter = 1; dir = DIR_SCT; break;
	default: x.src_dram = x.gather = 1; dir = DIR_GAT; break;
	}
	/* a DRAM side in the aperture is SRAM: the transfer is a copy */
	x.src = (uint64_t)e->x[2];
	x.dst = (uint64_t)e->x[1];
	if (x.src_dram && x.src >= NPU_SRAM_APERTURE)
		x.src -= NPU_SRAM_APERTURE, x.src_dram = 0;
	if (x.dst_dram && x.dst >= NPU_SRAM_APERTURE)
		x.dst -= NPU_SRAM_APERTURE, x.dst_dram = 0;
	if (!x.gather && !x.scatter)
		dir = x.src_dram ? (x.dst_dram ? DIR_MV : DIR_LD)
				 : (x.dst_dram ? DIR_ST : DIR_CP);
	if (rowb < 0 || n1 < 0 || n2 < 0 || rowb > DMA_MAX_BYTES ||
	    n1 > DMA_MAX_ROWS || n2 > DMA_MAX_ROWS || n1 * n2 > DMA_MAX_ROWS ||
	    rowb * n1 * n2 > DMA_MAX_BYTES)
		return sim_fault(s, ui, e->pc, t0,
				 "descriptor rowb %lld, n1 %lld, n2 %lld is out of "
				 "range (at most %lld rows and %lld bytes)",
				 (long long)rowb, (long long)n1, (long long)n2,
				 DMA_MAX_ROWS, DMA_MAX_BYTES);
	if (in->op == NPU_OP_DSTC && cvt_check(s, eng, in, e, t0, &x) < 0)
		return -1;
	/* a converting store reads 4 bytes for every 2 it writes */
	x.srow = x.cvt ? rowb * 2 : rowb;
	bytes = (uint64_t)(rowb * n1 * n2);
	lbytes = x.cvt ? 2 * bytes : bytes;
	for (int c = 0; c < tg->dram_channels; c++)
		s->chan_bytes[c] = 0;
	if (move(s, eng, e, t0, &x) < 0) {
		sim_bank_clear(s);
		return -1;
	}
	fin = (double)start + tg->dma_setup + (double)bytes / tg->dma_bytes_per_cycle;
	if (x.src_dram || x.dst_dram) {
		double bw = tg->dram_bytes_per_cycle / tg->dram_channels;
		for (int c = 0; c < tg->dram_channels; c++) {
			double cf;
			if (s->chan_bytes[c] <= 0)
				continue;
			cf = s->chan_free[c];
			if (cf < (double)(start + tg->dma_setup))
				cf = (double)(start + tg->dma_setup);
			cf += s->chan_bytes[c] / bw;
			s->chan_free[c] = cf;
			if (cf > fin)
				fin = cf;
		}
		fin += tg->dram_latency;
	}
	end = (uint64_t)ceil(fin);
	if (s->nbt) {
		uint64_t st2 = sim_bank_fit(s, ui, start, end - start, 1);
		shift = st2 - start;
		sim_bank_take(s, ui, st2, end - start, 1);
		end += shift;
	}
	s->start = start;
	sim_rec(s, u, start, end - shift, NPU_US_BUSY, e->kx);
	sim_rec(s, u, end - shift, end, NPU_US_BANK_STALL, e->kx);
	u->t = end;
	sim_done(s, u, e->kx, end);

	s->st.dma_xfers++;
	s->st.dram_touched += x.touched;
	if (x.src_dram)
		s->st.dram_rd += bytes;
	else
		s->st.sram_rd += lbytes;
	if (x.dst_dram)
		s->st.dram_wr += bytes;
	else
		s->st.sram_wr += bytes;
	if (e->kx != SIM_NONE) {
		npu_trace_kernel *k = &s->kx[e->kx];
		*(x.src_dram ? &k->dram_rd : &k->sram_rd) += x.src_dram ? bytes : lbytes;
		*(x.dst_dram ? &k->dram_wr : &k->sram_wr) += bytes;
	}
	if (sim_grow((void **)&s->dmas, &s->cdmas, s->ndmas + 1, sizeof *s->dmas) < 0) {
		s->oom = 1;
		return -1;
	}
	d = &s->dmas[s->ndmas++];
	d->engine = eng;
	d->dir = dir;
	d->bytes = bytes;
	d->bytes_touched = x.touched;
	d->issue = e->t;
	d->start = start;
	d->end = end;
	d->kernel = s->code[e->pc].kernel;
	return 0;
}

int sim_dma_exec(npu_sim *s, int eng, const sim_insn *in, const sim_entry *e,
		 uint64_t t0)
{
	sim_unit *u = &s->u[NPU_UNIT_DMA0 + eng];

	switch (in->op) {
	case NPU_OP_DCFG:
		s->dma[eng].f[in->b] = e->x[2];
		u->t = t0;
		return 0;
	case NPU_OP_DCFGI:
		s->dma[eng].f[in->b] = in->imm;
		u->t = t0;
		return 0;
	default:
		return transfer(s, eng, in, e, t0);
	}
}
