/*
 * tile.c - tile sizes, loop order and buffering depth for every kernel,
 * chosen by an analytical cost model built from the target's numbers
 * (docs/timing-model.md), unless the command line fixed them (--knob).
 *
 * Model, per kernel: tiles run as a pipeline (double-buffered), so the
 * time is about the number of tiles times the slowest stage (DMA in,
 * compute, DMA out), plus one tile of fill.  DMA time is bytes over the
 * engines' rate (capped by DRAM bandwidth) plus setup and latency per
 * transfer; vector time is one cycle per instruction per chunk of vlen
 * lanes (the scalar unit dispatches one instruction per cycle); matrix
 * time per (K slice, N slice) is the larger of the weight load (K rows)
 * and the stream (mb / rate).  Choices that do not fit SRAM or the
 * accumulator are illegal; when none fits, the error says which
 * constraint failed and by how much.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "compiler/emit_int.h"

static double dma_time(const npu_target *t, double bytes, int engines)
{
	double bw = t->dma_bytes_per_cycle * engines;

	if (bw > t->dram_bytes_per_cycle)
		bw = t->dram_bytes_per_cycle;
	return bytes / bw + t->dma_setup + t->dram_latency;
}

static int tile_ew(npu_kir *ir, npu_kern *K, const npu_target *t, npu_err *e)
{
	int64_t n[NPU_MAX_DIMS], st[NPU_KERN_MAX_OPS][NPU_MAX_DIMS], tm, tc, numel, target;
	int q, E = t->dma_engines;
	double bpe = 0, bprow = 0, budget = (double)(t->sram_bytes - NPU_SPILL_BYTES);
	int bufs = K->set.bufs ? K->set.bufs : 2;
	int64_t (*stp)[NPU_MAX_DIMS] = st;

	numel = npu_kir_numel(K->ndim, K->shape);
	if (!numel || !K->nops || K->nops > NPU_KERN_MAX_OPS) {
		K->kn.bufs = bufs;
		K->kn.tile_m = K->kn.tile_c = 1;
		if (K->nops > NPU_KERN_MAX_OPS)
			return npu_errf(e, "kernel %s: more than %d operands", K->name,
					NPU_KERN_MAX_OPS);
		return 0;
	}
	if (npu_emit_dims(ir, K, n, stp, &q) < 0)
		return npu_errf(e, "kernel %s: the reduced dims are not contiguous in every operand",
				K->name);
	for (int o = 0; o < K->nops; o++) {
		int esz = npu_dtype_size(ir->v[K->ops[o].val].dtype);
		if (K->kind == NPU_KK_ROW && K->ops[o].out && st[o][q - 1] == 0)
			bprow += esz;
		else
			bpe += esz;
	}
	/* ~32K elements per tile amortizes DMA setup and latency */
	target = 32768;
	if ((double)target * bpe * bufs > budget)
		target = (int64_t)(budget / (bpe * bufs));
	if (K->kind == NPU_KK_ROW) {
		tc = n[q - 1];
		double row = (double)tc * bpe + bprow;
		if (K->set.tile_c && K->set.tile_c < tc) {
			tc = K->set.tile_c; /* multi-pass, asked for */
			tm = 1;
		} else if (row * bufs > budget) {
			/* the row does not fit: one DRAM pass per reduction */
			tc = (int64_t)((budget - bprow * bufs) / (bpe * bufs));
			tc = tc > t->vlen ? tc / t->vlen * t->vlen : tc;
			if (tc > 32768)
				tc = 32768;
			tm = 1;
		} else {
			tm = target / (tc ? tc : 1);
			if (tm < 1)
				tm = 1;
			if ((double)tm * row * bufs > budget)
				tm = (int64_t)(budget / (row * bufs));
		}
	} else {
		tc = n[q - 1] < target ? n[q - 1] : (target / t->vlen) * t->vlen;
		if (tc < 1)
			tc = 1;
		tm = target / tc;
		if (tm < 1)
			tm = 1;
	}
	if (tm > n[q - 2])
		tm = n[q - 2];
	if (K->set.tile_m)
		tm = K->set.tile_m;
	if (K->set.tile_c && K->kind != NPU_KK_ROW)
		tc = K->set.tile_c;
	if (tc < 1)
		return npu_errf(e, "kernel %s: not even one element per tile fits SRAM", K->name);
	if ((double)tm * ((double)tc * bpe + bprow) * bufs > budget)
		return npu_errf(e, "kernel %s: tile %lldx%lld needs %.0f KiB with %d buffers, SRAM holds %.0f KiB",
				K->name, (long long)tm, (long long)tc,
				(double)tm * ((double)tc * bpe + bprow) * bufs / 1024,
				bufs, budget / 1024);
	K->kn.tile_m = tm;
	K->kn.tile_c = tc;
	K->kn.bufs = bufs;
	/* cost */
	{
		double tiles = ceil((double)numel / (double)(tm * tc));
		double el = (double)tm * (double)tc;
		double passes = 1;
		for (int i = 0; i < K->nx; i++)
			passes += K->x[i].op == NPU_X_RED;
		double vec = el / t->vlen * (K->nx + 3) * passes;
		if (K->kind == NPU_KK_ROW && tm > 1)
			npu_emit_lanes(K, t, tm, tc, &vec); /* emit.c's schedule */
		double in = el * bpe, dma = dma_time(t, in, E > 1 ? E - 1 : 1);
		double stage = vec > dma ? vec : dma;
		K->cost = tiles * stage + (bufs > 1 ? (vec < dma ? vec : dma) : tiles * (vec < dma ? vec : dma));
		K->dram_bytes = (uint64_t)((double)numel * bpe + (double)numel / tc * bprow);
	}
	return 0;
}

/*
 * A plain GEMM whose blocks are stored straight from the accumulator
 * (npu_mm_acc_copy, four engines or more; emit_mm.c): no vector stage.
 * The first block's panels arrive (the first part of them when K is
 * loaded in two parts), then the resources work in parallel: the array
 * (blocks x its slices), the A engines (half a panel each, a quarter
 * when the block keeps its B panel and the B engines share A) and the B
 * engines (half of B when it changes, else a quarter of A, and half of
 * each block's output), each transfer holding its engine for setup and
 * DRAM latency; then the array's drain and the last row group's store.
 */
static double mm_cost_direct(const npu_kern *K, const npu_target *t,
			     int64_t mb, int64_t nb, int osz, double mx)
{
	int esz = npu_dtype_size(K->mm_dtype);
	double rate = t->mxu_rate[K->mm_dtype] > 0 ? t->mxu_rate[K->mm_dtype] : 1;
	double bpc = t->dma_bytes_per_cycle, per = t->dram_latency + t->dma_setup;
	double la = (double)mb * K->mm_k * esz, lb = (double)K->mm_k * nb * esz;
	double nbm = ceil((double)K->mm_m / mb);
	double blocks = K->mm_batch * nbm * ceil((double)K->mm_n / nb);
	/* share of blocks that load a new B panel (N outer: one a column) */
	double fb = K->kn.loop_order ? 1 : 1 / nbm;
	/* a quarter of A: two of the four engines fill each bank of the
	 * slot, and the later one waits for the other's bank window */
	double qa = la / 4 / bpc + per + la / 4 / t->sram_port_bytes;
	double ea = fb * (la / 2 / bpc + per) + (1 - fb) * qa;
	double eb = fb * (lb / 2 / bpc + per) + (1 - fb) * qa +
		    (double)mb * nb * osz / 2 / bpc + per;
	double dram = (la + fb * lb + (double)mb * nb * osz) / t->dram_bytes_per_cycle;
	int64_t kh = K->mm_k % (2 * t->mxu_rows) ? 0 : K->mm_k / (2 * t->mxu_rows);
	double first = (la > lb ? la : lb) / 2 / bpc;
	double minr = floor(t->mxu_rows * rate + 0.5), ng, rn, next, st;
	double work = blocks * mx;

	/* (the two parts as emit_mm.c decides them) */
	if (kh >= 2 && K->mm_alo < 0 &&
	    (double)((kh + 1) / 2) * 2 * ceil((double)nb / t->mxu_cols) *
	    fmax(ceil(mb / rate), t->mxu_rows) > per &&
	    (blocks == 1 || mx >= (la > lb ? la : lb) / 2 / bpc + 2 * per))
		first *= (double)((kh + 1) / 2) / kh;
	if (!K->kn.loop_order && nbm > 1) {
		/*
		 * A new B panel goes to the slot block t - 2 read, so its
		 * load (and the half of A on the A engines) waits until the
		 * array is done with block t - 2, which is a drain after its
		 * stream ends, and must be in by the end of block t - 1:
		 * what does not fit stalls the array once a column.
		 */
		double win = mx - (t->mxu_rows + t->mxu_cols - 2 + t->mxu_latency);
		double x = (la > lb ? la : lb) / 2 / bpc + per - win;
		if (x > 0)
			work += (blocks / nbm - 1) * x;
	}
	if (work < (blocks - 1) * ea)
		work = (blocks - 1) * ea;
	if (work < (blocks - 1) * eb)
		work = (blocks - 1) * eb;
	if (work < blocks * dram)
		work = blocks * dram;
	ng = floor(mb / (minr > 1 ? minr : 1));
	ng = ng > 4 ? 4 : ng < 1 ? 1 : ng;
	rn = mb / ng;
	next = ceil((double)K->mm_k / t->mxu_rows) * ceil((double)nb / t->mxu_cols) *
	       ceil(rn / rate);
	st = per + rn * nb * osz / 4 / bpc;
	if (ng > 1 && next < st)
		st = per + rn * nb * osz / 2 / bpc;
	return per + first + t->mxu_rows + work + t->mxu_rows + t->mxu_cols - 2 +
	       t->mxu_latency + st;
}

static double mm_cost(const npu_kir *ir, const npu_kern *K, const npu_target *t,
		      int64_t mb, int64_t nb, double *bytes)
{
	int esz = npu_dtype_size(K->mm_dtype);
	double rate = t->mxu_rate[K->mm_dtype] > 0 ? t->mxu_rate[K->mm_dtype] : 1;
	double ks = ceil((double)K->mm_k / t->mxu_rows);
	double ns = ceil((double)nb / t->mxu_cols);
	double stream = ceil(mb / rate);
	double mx = ks * ns * (stream > t->mxu_rows ? stream : t->mxu_rows) * K->mm_passes;
	double la = (double)mb * K->mm_k * esz, lb = (double)K->mm_k * nb * esz;
	double dma = dma_time(t, la > lb ? la : lb, t->dma_engines >= 4 ? 2 : 1);
	double fill = dma;
	if (K->cv) {
		/*
		 * SRAM-to-SRAM gathers spread over every engine (at stride 1
		 * one per tap and engine, over its channels; else one per k), and
		 * the two engines of the weight panel carry half of it each.
		 * With N blocks outer, the M blocks of one column of blocks
		 * reuse the gathered X_col (emit_mm.c): it is gathered once
		 * per column, and only the first block waits for all of it.
		 * Per block the gathers count twice: the scalar unit issues
		 * each (three or more instructions) between the matrix and
		 * epilogue work it also feeds (measured on resnet18: this
		 * picks the faster blocks more often than the plain rate).
		 */
		int ge = t->dma_engines >= 4 ? 4 : 1;
		double nbm = K->kn.loop_order ? 1 : ceil((double)K->mm_m / mb);
		double ntr = K->cv_sw == 1 ? (double)(K->cv_kh * K->cv_kw)
				 : ceil((double)K->cv_ic / ge) * K->cv_kh * K->cv_kw;
		double gath = ntr * t->dma_setup + (double)K->mm_k * nb * esz /
			      (ge * t->dma_bytes_per_cycle);
		double wa = la / (ge > 1 ? 2 : 1) / t->dma_bytes_per_cycle +
			    t->dma_setup + t->dram_latency;
		double img = (double)K->cv_ic * K->cv_h * K->cv_w * esz /
			     (ge * t->dma_bytes_per_cycle) + t->dram_latency;
		/* (a stride-1 spatial one of one block row loads its
		 * weight once, or gets it from the kernel before: not a
		 * cost per block) */
		dma = (mb >= K->mm_m && K->mm_batch == 1 && K->cv_sw == 1 && K->cv_kh > 1 ? 0 : wa) +
		      2 * gath / nbm;
		fill = wa + gath + img;
	}
	double epi = (double)mb * nb / t->vlen * (K->nx + 4);
	double blocks = K->mm_batch * ceil((double)K->mm_m / mb) * ceil((double)K->mm_n / nb);
	double stage = mx;

	if (dma > stage)
		stage = dma;
	if (epi > stage)
		stage = epi;
	*bytes = blocks * (la + lb + (double)mb * nb * 4);
	int eload = 0;
	for (int o = 0; o < K->nops; o++)
		eload |= o != K->mm_a && o != K->mm_b && o != K->mm_alo &&
			 o != K->mm_blo && !K->ops[o].out;
	/* (kernels whose epilogue loads operands keep the per-block model
	 * below: the smaller blocks this one picks for them expose a wrong
	 * result of emit_mm with many such blocks, see docs/compiler.md) */
	int dct = K->cv ? -1 : npu_mm_acc_copy(ir, K);
	if (dct >= 0 && t->dma_engines >= 4)
		return mm_cost_direct(K, t, mb, nb, npu_dtype_size(dct), mx);
	if (!K->cv && !eload && t->dma_engines >= 4) {
		/*
		 * Plain GEMMs pipeline across blocks (panels, accumulator
		 * regions and outputs rotate, and no block waits for the one
		 * before), so fill and drain show once: before the first
		 * block's matrix work and after the last one's.  Per block,
		 * the busiest engines carry half a panel and half the output
		 * block (emit_mm.c), each transfer paying DRAM latency on its
		 * engine.
		 */
		double per = t->dram_latency + t->dma_setup, hc = (double)mb * nb * esz / 2;
		double e0 = (la / 2 + hc) / t->dma_bytes_per_cycle + 2 * per;
		double e3 = (lb / 2 + hc) / t->dma_bytes_per_cycle + 2 * per;
		double dram = (la + lb + 2 * hc) / t->dram_bytes_per_cycle + per;
		/* the epilogue's chunks are interleaved four at a time
		 * (emit.c): about one vector instruction per step */
		double ep = (double)mb * nb / t->vlen * (K->nx + 1);
		double pst = fmax(fmax(mx, ep), fmax(fmax(e0, e3), dram));
		return blocks * (pst + 4.0 * t->dma_setup) + dma +
		       t->mxu_rows + t->mxu_cols + t->mxu_latency + ep +
		       (double)mb * nb * 4 / t->dma_bytes_per_cycle +
		       t->dram_latency;
	}
	/* per block: the slowest stage plus what does not overlap (DRAM
	 * latency, transfer setup, the array's fill and drain); then the
	 * first block's loads and the last block's epilogue and store.  A
	 * convolution's last column of blocks, narrower than nb, counts
	 * its slowest stage by its share of nb (its matrix work, gathers
	 * and epilogue are that much shorter; the fixed costs are not).
	 * Only for spatial kernels in blocks of at least the array's rows:
	 * measured on resnet18, 1x1 kernels and blocks of fewer rows ran
	 * slower in the wider blocks this picks for them (layers 2-3's 3x3
	 * convolutions: 224 columns instead of 112, 2 k cycles faster each);
	 * and for blocks of whole slices of the array's columns that cut
	 * rows, whose last block has that many fewer slices (layer 1's 3x3
	 * convolutions: 512 columns instead of 448) */
	if (K->cv && K->mm_n % nb && K->cv_kh > 1 &&
	    (mb >= t->mxu_rows || nb % K->cv_ow))
		stage *= (double)K->mm_n / nb / ceil((double)K->mm_n / nb);
	/* a stride-1 spatial convolution's blocks pipeline (gathers of
	 * block t + 1 between block t's pairs, three accumulator regions):
	 * its fixed costs show once, not per block; counted per block, the
	 * model took 512 columns for ResNet-18's layer 1, where 256 were
	 * 1.3 k cycles faster (measured: 37.9 k -> 36.7 k); for blocks of
	 * at least two slices of the array's columns, one block row of at
	 * least half the array's rows, and one image: smaller ones do not
	 * hide them (conv_bn_shared, two images, 2.3x slower; vgg_tiny's
	 * 16 channels 2% slower); and for four K slices or more: with
	 * fewer, a block has too few pairs to hide the next one's gathers
	 * between (VGG-16's first convolution, K = 28, in 256 columns: 108
	 * k -> 207 k cycles; Inception-v3's third, K = 289: 144 k -> 170
	 * k).  A kernel whose epilogue loads an operand (a residual) needs
	 * three slices: at two its epilogue's loads do not hide (layer 1's
	 * second convolutions: 384 columns measured 0.6 k cycles faster
	 * each than 256) */
	if (K->cv && K->cv_sw == 1 && K->cv_kh > 1 && mb >= K->mm_m && ks >= 4 &&
	    nb >= (eload ? 3 : 2) * t->mxu_cols && K->mm_batch == 1 &&
	    2 * K->mm_m >= t->mxu_rows)
		return blocks * stage + t->dram_latency + 4.0 * t->dma_setup +
		       t->mxu_rows + t->mxu_cols + t->mxu_latency +
		       fill + epi + (double)mb * nb * 4 / t->dma_bytes_per_cycle;
	return blocks * (stage + t->dram_latency + 4.0 * t->dma_setup +
			 t->mxu_rows + t->mxu_cols + t->mxu_latency) +
	       fill + epi + (double)mb * nb * 4 / t->dma_bytes_per_cycle;
}

/* Does a 1x1 convolution fit one block, with at most 4 k cycles of
 * array work? */
static int conv1_small(const npu_kir *ir, const npu_kern *K, const npu_target *t)
{
	int esz = npu_dtype_size(K->mm_dtype);
	double rate = t->mxu_rate[K->mm_dtype] > 0 ? t->mxu_rate[K->mm_dtype] : 1;
	double ks = ceil((double)K->mm_k / t->mxu_rows), ns = ceil((double)K->mm_n / t->mxu_cols);
	double mx = ks * ns * fmax(ceil((double)K->mm_m / rate), (double)t->mxu_rows);
	double need = 2.0 * ((double)K->mm_m * K->mm_k + (double)K->mm_k * K->mm_n) * esz +
		      2.0 * K->cv_ic * (K->cv_h + 2 * K->cv_ph) * (K->cv_w + 2 * K->cv_pw) * esz;

	for (int o = 0; o < K->nops; o++)
		if (o != K->mm_a && o != K->mm_b)
			need += 2.0 * K->mm_m * K->mm_n * npu_dtype_size(ir->v[K->ops[o].val].dtype);
	return mx <= 4096 && need <= 0.5 * (double)(t->sram_bytes - NPU_SPILL_BYTES) &&
	       2.0 * K->mm_m * K->mm_n * 4 <= (double)t->acc_bytes && K->mm_m <= 65536;
}

static int tile_mm(npu_kir *ir, npu_kern *K, const npu_target *t, npu_err *e)
{
	static const int64_t cand[] = { 64, 128, 256, 384, 512, 1024 };
	int esz = npu_dtype_size(K->mm_dtype);
	double best = -1, budget = (double)(t->sram_bytes - NPU_SPILL_BYTES);
	int64_t bm = 0, bn = 0;
	double need_min = -1;
	int64_t need_m = 0, need_n = 0;

	K->kn.bufs = 2;
	K->kn.loop_order = K->set.loop_order;
	/* conv: column blocks are whole output rows; the padded image
	 * (two slots) sits in SRAM too */
	static const int64_t rowc[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256 };
	int nj = K->cv ? (int)(sizeof rowc / sizeof *rowc) : (int)(sizeof cand / sizeof *cand);
	/* (stride-1 plain ones also in 1 to 4 whole slices of the
	 * array's columns, which may start and end inside a row: emit_mm.c's
	 * conv_rows_part; the model then picked 8 slices for ResNet-18's
	 * layer 1, measured 4 k cycles slower each than the 4 it takes now) */
	int nslc = K->cv == 1 && K->cv_sw == 1 ? 4 : 0;
	double imgs = 0;
	if (K->cv)
		imgs = 2.0 * K->cv_ic * (K->cv_h + 2 * K->cv_ph) *
		       (K->cv_w + 2 * K->cv_pw) * esz + 2 * 4 * t->vlen +
		       (K->cv_w + 2 * K->cv_pw) * esz + 4 * t->vlen;
	/* a knob's block size is a candidate too (index -2), if the
	 * template can take it: a convolution's column blocks are whole
	 * output rows unless stride-1 plain ones cut rows */
	if (K->set.tile_n && K->cv && !K->mm_glu && K->set.tile_n % K->cv_ow &&
	    !(K->cv == 1 && K->cv_sw == 1))
		return npu_errf(e, "kernel %s: tile_n %lld is not a whole number of output rows of %lld",
				K->name, (long long)K->set.tile_n, (long long)K->cv_ow);
	for (int i = -2; i < (int)(sizeof cand / sizeof *cand); i++)
		for (int j = -2; j < nj + nslc; j++) {
			if ((i == -2 && !K->set.tile_m) || (j == -2 && !K->set.tile_n))
				continue;
			int64_t mb = i == -2 ? K->set.tile_m : i < 0 ? K->mm_m : cand[i];
			int64_t nb = j == -2 ? K->set.tile_n : j < 0 ? K->mm_n :
				     j >= nj ? (int64_t)t->mxu_cols * (j - nj + 1) :
				     K->cv ? rowc[j] * K->cv_ow : cand[j];
			/* a gated matmul's blocks are its weight's (kir.h;
			 * a tile_n knob cannot change them) */
			if (K->mm_glu)
				nb = j < 0 ? (2 * K->mm_glu < K->mm_n ? 2 * K->mm_glu : K->mm_n) : 0;
			double bytes, c, need;
			if (mb > K->mm_m || nb > K->mm_n || mb < 1 || nb < 1)
				continue;
			if (K->set.tile_m && mb != K->set.tile_m)
				continue;
			if (K->set.tile_n && nb != K->set.tile_n && !K->mm_glu)
				continue;
			need = 2.0 * ((double)mb * K->mm_k + (double)K->mm_k * nb) * esz *
			       (K->mm_passes > 1 ? 2 : 1) + imgs;
			for (int o = 0; o < K->nops; o++)
				if (o != K->mm_a && o != K->mm_b)
					need += 2.0 * mb * nb * npu_dtype_size(ir->v[K->ops[o].val].dtype);
			if (need > budget || 2.0 * mb * nb * 4 > (double)t->acc_bytes || mb > 65536) {
				if (need_min < 0 || need < need_min)
					need_min = need, need_m = mb, need_n = nb;
				continue;
			}
			c = mm_cost(ir, K, t, mb, nb, &bytes);
			if (best < 0 || c < best) {
				best = c;
				bm = mb;
				bn = nb;
				K->dram_bytes = (uint64_t)bytes;
			}
		}
	if (best < 0) {
		if ((K->set.tile_m || K->set.tile_n) && need_min >= 0)
			return npu_errf(e, "kernel %s: K tile %lld with blocks %lldx%lld needs %.0f KiB, SRAM holds %.0f KiB",
					K->name, (long long)K->mm_k,
					(long long)(K->set.tile_m ? K->set.tile_m : need_m),
					(long long)(K->set.tile_n ? K->set.tile_n : need_n),
					need_min / 1024, budget / 1024);
		return npu_errf(e, "kernel %s: K tile %lld needs %.0f KiB even with %lldx%lld blocks, SRAM holds %.0f KiB",
				K->name, (long long)K->mm_k, need_min / 1024,
				(long long)need_m, (long long)need_n, budget / 1024);
	}
	/* a small strided 1x1 convolution in one block when it fits: its
	 * fixed costs are most of it, and blocks only repeat them (ResNet-18's
	 * downsamples, 2-4 k cycles of array work: 8.6 k -> 7.7 k and
	 * 9.5 k -> 8.6 k, where the model took two blocks; stride-1 ones,
	 * MobileNet's pointwise, were up to 0.6% slower) */
	if (K->cv == 1 && K->cv_kh == 1 && K->cv_kw == 1 && K->cv_sh * K->cv_sw > 1 &&
	    !K->set.tile_m &&
	    !K->set.tile_n && K->mm_batch == 1 && conv1_small(ir, K, t)) {
		double bytes;
		best = mm_cost(ir, K, t, K->mm_m, K->mm_n, &bytes);
		bm = K->mm_m;
		bn = K->mm_n;
		K->dram_bytes = (uint64_t)bytes;
	}
	K->kn.tile_m = bm;
	K->kn.tile_n = bn;
	K->kn.tile_k = K->mm_k;
	K->cost = best;
	return 0;
}

/*
 * A pool kernel (emit_pool.c): the vector unit's work, as it holds each
 * SRAM bank for bytes / port cycles per access: every input row read
 * once, the row maxima written and read back at the column taps, the
 * output written; the input's and output's DRAM traffic overlaps it.
 */
static void tile_pool(const npu_kir *ir, npu_kern *K, const npu_target *t)
{
	int esz = npu_dtype_size(ir->v[K->ops[0].val].dtype);
	double planes = (double)(K->shape[0] * K->shape[1]), port = t->sram_port_bytes;
	double wp = (double)(K->cv_w + 2 * K->cv_pw), oh = (double)K->cv_oh;
	double ow = (double)K->cv_ow, rows = oh * (K->cv_sh < K->cv_kh ? K->cv_sh : K->cv_kh) +
		    (double)(K->cv_kh > K->cv_sh ? K->cv_kh - K->cv_sh : 0);
	double row = ceil(wp * esz / port), vec, in, out;

	vec = planes * (rows * row + oh * (double)(K->cv_kh - 1) + oh * row +
			oh * ow * (double)K->cv_kw * esz / port * 2);
	in = planes * (double)(K->cv_h * K->cv_w) * esz;
	out = planes * oh * ow * esz;
	K->dram_bytes = (uint64_t)(in + out);
	K->cost = vec + dma_time(t, in / planes, 1);
}

/* An integer kernel (emit.c's emit_int): its operands' spans loaded
 * together, a few scalar instructions an element, the result stored. */
static void tile_int(npu_kir *ir, npu_kern *K, const npu_target *t)
{
	double in = 0, out = 0, n = (double)npu_kir_numel(K->ndim, K->shape);

	for (int i = 0; i < K->nops; i++) {
		double b = n * npu_dtype_size(ir->v[K->ops[i].val].dtype);
		if (K->ops[i].out)
			out += b;
		else
			in += b;
	}
	K->dram_bytes = (uint64_t)(in + out);
	K->cost = dma_time(t, in, 1) + n * (K->nx + 1) + dma_time(t, out, 1);
}

int npu_tile(npu_kir *ir, const npu_target *t, npu_err *e)
{
	ir->tile_failed = -1;
	for (int k = 0; k < ir->nk; k++) {
		npu_kern *K = &ir->k[k];
		int rc = 0;
		if (K->kind == NPU_KK_EW || K->kind == NPU_KK_ROW)
			rc = tile_ew(ir, K, t, e);
		else if (K->kind == NPU_KK_MM)
			rc = tile_mm(ir, K, t, e);
		else if (K->kind == NPU_KK_POOL)
			tile_pool(ir, K, t);
		else if (K->kind == NPU_KK_INT)
			tile_int(ir, K, t);
		else if (K->kind == NPU_KK_GATHER) {
			const npu_kval *O = &ir->v[K->ops[2].val];
			double b = (double)npu_kir_numel(O->ndim, O->shape) * npu_dtype_size(O->dtype);
			K->dram_bytes = (uint64_t)(2 * b);
			K->cost = 2 * dma_time(t, b, 1);
		}
		else {
			double bytes = 0;
			for (int i = 0; i < K->nhin; i++)
				bytes += (double)npu_kir_numel(ir->v[K->hin[i]].ndim, ir->v[K->hin[i]].shape) *
					 npu_dtype_size(ir->v[K->hin[i]].dtype);
			for (int i = 0; i < K->nhout; i++)
				bytes += (double)npu_kir_numel(ir->v[K->hout[i]].ndim, ir->v[K->hout[i]].shape) *
					 npu_dtype_size(ir->v[K->hout[i]].dtype);
			K->dram_bytes = (uint64_t)bytes;
			K->cost = t->host_latency + bytes / t->host_bytes_per_cycle;
		}
		if (rc < 0) {
			ir->tile_failed = k;
			return -1;
		}
	}
	return 0;
}
