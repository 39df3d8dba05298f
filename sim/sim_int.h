/*
 * sim_int.h - the simulator's insides, shared by its files:
 *   sim.c     creation, memory, the scheduler loop, dispatch, faults
 *   scalar.c  the scalar unit (fetch, execute, dispatch)
 *   vector.c  the vector unit
 *   matrix.c  the systolic matrix unit
 *   dma.c     DMA engines, DRAM channels
 *   mem.c     address checks and SRAM bank windows
 *   host.c    the host model and its op registry
 *   race.c    the race check (--check-races)
 *   stats.c   timeline intervals, kernel executions, trace rows
 *
 * Times are cycles (uint64_t).  Each unit has a local time `t`: the
 * earliest cycle it could start its next instruction.  Functional effects
 * happen when the scheduler processes an instruction, which is in program
 * order within a unit and in time order across units.
 */
#ifndef NPU_SIM_INT_H
#define NPU_SIM_INT_H

#include "sim/sim.h"

#define SIM_NONE UINT32_MAX
#define SIM_PICK_STALE (-2)
#define SIM_KXC_KEY NPU_SIM_NSTATE
#define SIM_KXC_W (NPU_SIM_NSTATE + 1)

/* Vector instruction classes (docs/timing-model.md's table). */
enum { SIM_VC_ALU, SIM_VC_MUL, SIM_VC_DIV, SIM_VC_TRANS, SIM_VC_RED, SIM_VC_LD,
       SIM_VC_ST };

/* What the scalar unit does with a fetched instruction. */
enum {
	SIM_K_SCALAR,        /* executes it */
	SIM_K_QUEUE,         /* dispatches it into an existing unit's queue */
	SIM_K_SLOW           /* anything else: illegal word, missing unit, sig or
			      * wait on the scalar unit (scalar.c: slow_insn) */
};

/* A predecoded instruction (one per code word, built once). */
typedef struct sim_insn {
	uint8_t op, a, b, c;
	int32_t imm;
	uint8_t valid;       /* decoded without error */
	uint8_t kind;        /* SIM_K_* */
	uint8_t uclass;      /* enum npu_uclass */
	uint8_t unit;        /* unit that runs it (SCL for scalar ones) */
	uint8_t xmask;       /* bit f: field f (A, B, C) is a scalar register */
	uint8_t xr[3];       /* ... that register, else NPU_NXREG (reads 0) */
	int32_t kernel;      /* kernel index of this pc, -1 if none */
	/* vector instructions (sim_vec_predecode) */
	uint8_t vcls;        /* SIM_VC_* class */
	uint8_t vsrc[3];     /* registers read; NPU_NVREG (always ready) pads */
	uint32_t vlat;       /* latency of the class on the target */
} sim_insn;

/* A queue entry: an instruction dispatched to a unit. */
typedef struct sim_entry {
	uint32_t pc;
	uint32_t kx;         /* kernel execution, SIM_NONE outside kernels */
	uint64_t t;          /* dispatch cycle; may start at t + 1 */
	int64_t x[3];        /* scalar operands A, B, C read at dispatch */
	uint32_t vl;         /* vector length at dispatch */
	uint32_t gen;        /* race check: the scalar clock's generation */
} sim_entry;

/* Semaphore tokens: times at which a sig made one unit available. */
typedef struct sim_token {
	uint64_t t;
	int src;             /* unit that signalled */
	uint32_t snap;       /* race check: the signaller's clock */
} sim_token;

typedef struct sim_sem {
	sim_token *tok;      /* sorted by time, [head, n) live */
	size_t head, n, cap;
} sim_sem;

enum { BLK_NONE, BLK_SEM, BLK_QUEUE };

typedef struct sim_binner sim_binner;
typedef struct sim_race sim_race;

typedef struct sim_unit {
	sim_entry *q;        /* ring of queue_depth entries */
	uint32_t qhead, qn;
	uint64_t t;          /* local time */
	uint64_t done;       /* latest completion of its work (sig time) */
	int blocked;         /* BLK_* */
	int bsem;            /* semaphore waited on / unit whose queue is full */
	uint64_t bsince;     /* cycle the block began */
	uint32_t bpc, bkx;   /* the blocked instruction */
	/* timeline: packed intervals (see SIM_IV_*), start = previous end */
	uint64_t rec;        /* intervals recorded up to here */
	uint64_t *iv;
	size_t niv, civ;
	int last_state;      /* of iv[niv - 1]; -1 before the first */
	uint32_t last_kx;
	uint64_t last_key;   /* key bits of iv[niv - 1]; SIM_IV_NOKEY if none */
	/* Cycles per state since kernel execution acc_kx's last switch are
	 * st.cycles - snap: they go to its row of s->kxc when the unit records
	 * for another one (sim_rec_kx), not at every interval.  kbits: its
	 * kernel bits of an interval key. */
	uint32_t acc_kx;
	uint64_t kbits;
	uint64_t snap[NPU_SIM_NSTATE];
	uint64_t kend;       /* latest completion for acc_kx since the switch */
	uint64_t kvops;      /* vector lane operations for acc_kx since then */
	npu_sim_interval *ivx; /* unpacked on request (npu_sim_intervals) */
	npu_sim_unit_stats st;
} sim_unit;

/* Latest reservation of an SRAM bank. */
typedef struct sim_bank {
	uint64_t ws, we;     /* window [ws, we) */
	int owner;           /* unit, -1 if never used */
} sim_bank;

typedef struct sim_dma {
	int64_t f[NPU_NDFIELD];  /* descriptor */
} sim_dma;

/* The matrix unit's state. */
typedef struct sim_mxu {
	int64_t K, N;
	int dt;
	int os;              /* output-stationary dataflow */
	int configured;
	int64_t istride, astride;
	int64_t waddr, wstride; /* last mldw operands (OS reads at mmac) */
	int have_w;
	float *wf;           /* weights K x N in use, as fp32 */
	int32_t *wi;         /* ... or int32 for integer inputs */
	size_t cwf, cwi;
	/* weight-stationary: the shadow buffer an mldw fills, swapped in
	 * by the next mmac without NPU_MMAC_HOLD (pending until then) */
	float *sf;
	int32_t *si;
	size_t csf, csi;
	int pending;
	uint64_t wpath_free, stream_free, wready, last_mmac_start;
	uint64_t act_ready;  /* weights in use ready (wready: the shadow's) */
	uint64_t sync;       /* time of the last wait/sig in its stream */
	int sz;              /* bytes per input element */
	/* Operands of the last mldw and mmac whose addresses were checked
	 * under the current configuration (ok_cfg: cleared by mcfg and
	 * mstride): a loop repeating them skips the checks (local memory
	 * never moves). */
	int ok_cfg;
	int64_t okw[2], ok[3];
	/* Values an mmac of dM rows derives from the configuration, for the
	 * next one of as many rows (dvalid: cleared by mcfg). */
	int dvalid;
	int64_t dM;
	uint64_t dstream, dmacs, drd, dwr;
	double dmc;          /* macs / rate */
} sim_mxu;

/*
 * Matrix inputs already converted to fp32 (matrix.c): a GEMM streams the
 * same input tile through the array once per weight tile, so converting
 * it once saves most of the conversion work.  An entry is keyed by the
 * exact operands and dropped by any write to local memory that overlaps
 * its bytes (sim_wrote), so what it holds always equals a fresh
 * conversion.
 */
#define SIM_MC_N 8
typedef struct sim_mc {
	uint64_t ia, lo, hi;  /* first row; bytes [lo, hi) it was read from */
	int64_t is, M, K;
	int dt, valid;
	float *f;             /* M x K */
	size_t cap;
} sim_mc;

struct npu_sim {
	const npu_prog *p;
	const npu_target *tg;
	npu_sim_opts o;
	int ran;

	sim_insn *code;
	uint32_t ncode;

	/* memory */
	uint8_t *sram, *acc, *dram;
	uint64_t sram_n, acc_n, dram_n;
	uint32_t *bufsort;   /* buffer indexes sorted by address */
	uint32_t nbufsort;
	uint32_t lastbuf;
	sim_bank *bank;      /* sram_banks, then acc_banks */
	uint64_t sram_bank_sz, acc_bank_sz;

	/* scalar state */
	int64_t x[NPU_NXREG + 1]; /* the last one stays 0 (see xr) */
	uint32_t pc;
	uint32_t vl;
	int halted;
	int32_t cur_kernel;  /* kernel of the last fetched pc */
	uint32_t cur_kx;

	/* vector state */
	float *v;            /* NPU_NVREG x vlen */
	uint64_t vready[NPU_NVREG + 1]; /* the last one stays 0 */
	int vlen;
	uint32_t *vocc;      /* vocc[vl] = ceil(vl / lanes_per_cycle) */

	sim_mxu m;
	sim_dma dma[NPU_MAX_DMA];
	double *chan_free;   /* per DRAM channel */
	double *chan_bytes;  /* scratch: bytes per channel of one transfer */
	uint64_t *bank_bytes;/* scratch: bytes per bank of one access */
	int *btouch;         /* scratch: banks with bytes in bank_bytes */
	int nbt;

	uint64_t start;      /* start cycle of the entry just run */
	/* The scalar unit may run while its time is below this: one past
	 * the earliest other unit's key (it wins ties) and the cycle limit;
	 * 0 while it is blocked or halted, or when a woken unit may now come
	 * first. */
	uint64_t sched_end;
	/* sim_pick()'s last answer, while no sim_ready() changed it since
	 * (SIM_PICK_STALE: to be computed). */
	int pbest;
	uint64_t pbt;

	sim_unit u[NPU_NUNIT];
	int nunits;
	uint32_t qdepth;     /* the target's queue_depth */
	uint32_t ready;      /* bit u: unit u (not scalar) has work and can run */
	/* while unit u is ready: max(its time, its oldest entry's dispatch
	 * + 1), the earliest its next entry could start (sim_ready) */
	uint64_t key[NPU_NUNIT];
	sim_sem sem[NPU_NSEM];

	npu_sim_stats st;
	npu_trace_kernel *kx;
	double *kxmac;       /* per kernel execution: macs / rate */
	/* Cycles per state of kernel execution kx in row kx + 1 (row 0, for
	 * SIM_NONE, is a sink), so recording needs no branch; copied into
	 * s->kx at the end (sim_stats_finish).  Column SIM_KXC_KEY holds the
	 * execution's kernel bits of an interval key (sim_iv_key). */
	uint64_t (*kxc)[SIM_KXC_W];
	size_t nkx, ckx, ckxmac, ckxc;
	npu_trace_dma *dmas;
	size_t ndmas, cdmas;

	/* The trace rows are handed over during the run to stream
	 * (npu_sim_stream_trace): every SIM_STREAM_STEPS steps, sim_stream
	 * hands the DMA transfers from dmas_sent on and, once the resolution
	 * is known, the activity of the intervals that are over.  The first
	 * error stops it and waits in stream_err for npu_sim_write_trace. */
	npu_trace *stream;
	uint32_t stream_steps;
	size_t dmas_sent;
	sim_binner *bins;    /* per unit, the binning so far (stats.c) */
	uint64_t binned_q;   /* resolution of the activity streamed; 0: none */
	/* While the trace's guess of the resolution is not known yet (its
	 * writer thread still opening it), what each sim_stream call saw,
	 * nunits + 1 values per call, to replay once it is (stats.c). */
	size_t *rec, nrec, caprec;
	int stream_failed;
	npu_err stream_err;

	sim_mc mc[SIM_MC_N];
	int mc_next;         /* entry to replace next */
	uint64_t mc_lo, mc_hi; /* every valid entry's bytes lie in [lo, hi) */

	/* scratch for the matrix unit, grown as needed */
	float *sa, *sw;
	size_t nsa, nsw;

	sim_race *race;      /* the race check's state, NULL when off */

	/* fault */
	int faulted;
	npu_sim_fault fault;
	npu_err *err;        /* where a fault report goes */
	int oom;
};

static inline uint64_t sim_max(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t sim_ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* sim.c */
int sim_fault(npu_sim *s, int unit, int64_t pc, uint64_t cycle,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
int sim_grow(void **p, size_t *cap, size_t need, size_t elem);
void sim_sem_post(npu_sim *s, int sem, uint64_t t, int src, uint32_t snap);
/* Disassembly of the instruction at pc (empty outside the code). */
void sim_pc_text(const npu_sim *s, int64_t pc, char *buf, size_t n);

/*
 * race.c: with s->race set, every local access goes through
 * sim_race_access (or _rows), which faults on an unordered pair; sig,
 * wait and dispatch keep the clocks (sim_race_sig, _take, _gen, _enter).
 */
int sim_race_new(npu_sim *s);
void sim_race_free(sim_race *r);
uint32_t sim_race_gen(const npu_sim *s);
void sim_race_enter(npu_sim *s, int ui, const sim_entry *e);
uint32_t sim_race_sig(npu_sim *s, int ui);
void sim_race_take(npu_sim *s, int ui, uint32_t snap);
int sim_race_access(npu_sim *s, int ui, uint32_t pc, uint64_t t, uint64_t a,
		    uint64_t n, int wr);
int sim_race_rows(npu_sim *s, int ui, uint32_t pc, uint64_t t, uint64_t a,
		  int64_t stride, int64_t rows, uint64_t len, int wr);
/* Updates unit ui's bit in s->ready and, if set, its key.  Called
 * whenever the unit's time, queue head or block changes. */
static inline void sim_ready(npu_sim *s, int ui)
{
	sim_unit *u = &s->u[ui];

	s->pbest = SIM_PICK_STALE;
	if (u->qn && !u->blocked) {
		s->ready |= 1u << ui;
		s->key[ui] = sim_max(u->t, u->q[u->qhead].t + 1);
	} else {
		s->ready &= ~(1u << ui);
	}
}
/*
 * The ready unit other than the scalar one whose next entry could start
 * earliest (ties: the lower id), and that time in *bt; -1 (and
 * UINT64_MAX) when none is ready.
 */
static inline int sim_pick(const npu_sim *s, uint64_t *bt)
{
	int best = -1;
	uint64_t b = UINT64_MAX;

	for (uint32_t m = s->ready; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		uint64_t k = s->key[i];
		if (k < b) {
			b = k;
			best = i;
		}
	}
	*bt = b;
	return best;
}
/* sig or wait of instruction pc in unit ui's stream, at t0. */
void sim_sync_exec(npu_sim *s, int ui, const sim_insn *in, uint32_t pc,
		   uint32_t kx, uint64_t t0);

/* scalar.c: runs the scalar unit for one instruction; 0 or -1 (fault). */
int sim_scalar_step(npu_sim *s);

/* vector.c: fills the vector fields of a decoded instruction. */
void sim_vec_predecode(const npu_sim *s, sim_insn *si);
/* vector.c: the parts of sim_vec_exec() below other than timing. */
int sim_vec_mem(npu_sim *s, const sim_insn *in, const sim_entry *e,
		uint64_t issue, uint64_t *occ, uint64_t *start);
void sim_vec_compute(npu_sim *s, const sim_insn *in, const sim_entry *e);

/* matrix.c, dma.c, host.c (and sim_vec_exec below): run one entry that
 * starts no earlier than `t0` (max of unit time and dispatch + 1). */
int sim_mxu_exec(npu_sim *s, const sim_insn *in, const sim_entry *e, uint64_t t0);
int sim_dma_exec(npu_sim *s, int eng, const sim_insn *in, const sim_entry *e, uint64_t t0);
int sim_host_exec(npu_sim *s, const sim_insn *in, const sim_entry *e, uint64_t t0);

/* matrix.c: local bytes [a, a + n) were written (drops stale inputs). */
void sim_mc_drop(npu_sim *s, uint64_t a, uint64_t n);
static inline void sim_wrote(npu_sim *s, uint64_t a, uint64_t n)
{
	if (a < s->mc_hi && a + n > s->mc_lo)
		sim_mc_drop(s, a, n);
}

/* mem.c */
uint8_t *sim_local(npu_sim *s, uint64_t a, uint64_t n);
uint8_t *sim_dram(npu_sim *s, uint64_t a, uint64_t n);
/* Bytes per bank of a local access: adds into s->bank_bytes. */
void sim_bank_add(npu_sim *s, uint64_t a, uint64_t n);
int sim_nbanks(const npu_sim *s);
/*
 * Earliest start >= t of an access by `unit` that holds each bank with
 * bytes in s->bank_bytes for ceil(bytes / port) cycles from its start
 * (mode 0) or ending at its end = start + len (mode 1).  Does not reserve.
 */
uint64_t sim_bank_fit(npu_sim *s, int unit, uint64_t t, uint64_t len, int end_aligned);
/* Reserves those windows for an access starting at t; clears bank_bytes. */
void sim_bank_take(npu_sim *s, int unit, uint64_t t, uint64_t len, int end_aligned);
uint64_t sim_bank_occ(const npu_sim *s); /* max cycles over touched banks */
void sim_bank_clear(npu_sim *s);

/*
 * stats.c.  A recorded interval is one uint64_t: its end in the low 40
 * bits (so runs are limited to SIM_MAX_CYCLES), the state in 3 bits and
 * kernel + 1 in the top 21; its start is the previous interval's end.
 */
#define SIM_IV_ENDBITS 40
#define SIM_MAX_CYCLES ((1ull << SIM_IV_ENDBITS) - 1)
#define SIM_IV_END(v) ((v) & SIM_MAX_CYCLES)
#define SIM_IV_STATE(v) ((int)((v) >> SIM_IV_ENDBITS & 7))
#define SIM_IV_KERNEL(v) ((int32_t)((v) >> (SIM_IV_ENDBITS + 3)) - 1)
#define SIM_IV_NOKEY 1ull /* no key has end bits set */

/* Appends idle up to a (a gap in the timeline); out of line, rare. */
void sim_rec_gap(npu_sim *s, sim_unit *u, uint64_t a);
/* Unit u records for kernel execution kx from now on (see acc_kx). */
void sim_rec_kx(npu_sim *s, sim_unit *u, uint32_t kx);
/* Starts a new interval of key (state and kernel), ending at b. */
void sim_rec_push(npu_sim *s, sim_unit *u, uint64_t key, uint64_t b);
uint32_t sim_kx_begin(npu_sim *s, int kernel, uint64_t t);
static inline npu_trace_kernel *sim_kx(npu_sim *s, uint32_t kx)
{
	return kx == SIM_NONE ? NULL : &s->kx[kx];
}

/* The kernel bits of an interval key for kernel index k (-1: none). */
static inline uint64_t sim_iv_kbits(int32_t k)
{
	/* Kernel indexes beyond the packed field's range share its last value. */
	if (k > (1 << 21) - 2)
		k = (1 << 21) - 2;
	return (uint64_t)(k + 1) << (SIM_IV_ENDBITS + 3);
}

/* The packed key (state and kernel + 1) of an interval of kx. */
static inline uint64_t sim_iv_key(const npu_sim *s, int state, uint32_t kx)
{
	return (uint64_t)state << SIM_IV_ENDBITS | s->kxc[kx + 1][SIM_KXC_KEY];
}

/*
 * Records [a, b) of unit u in a state, for kernel execution kx: the part
 * before what is already recorded is dropped, a gap before it is idle.
 * Every unit calls this a few times per instruction, so it stays inline:
 * extending the last interval is one add, a new one a compare and a store.
 */
static inline void sim_rec(npu_sim *s, sim_unit *u, uint64_t a, uint64_t b,
			   int state, uint32_t kx)
{
	uint64_t n, key;

	if (b <= u->rec || b <= a)
		return;
	if (a > u->rec)
		sim_rec_gap(s, u, a);
	if (kx != u->acc_kx)
		sim_rec_kx(s, u, kx);
	n = b - u->rec;
	u->rec = b;
	u->st.cycles[state] += n;
	/* (last_state starts at -1: equal means there is a last interval) */
	if (state == u->last_state && kx == u->last_kx) {
		u->iv[u->niv - 1] += n;
		return;
	}
	key = (uint64_t)state << SIM_IV_ENDBITS | u->kbits;
	u->last_state = state;
	u->last_kx = kx;
	if (key == u->last_key) {
		u->iv[u->niv - 1] = key | b;
	} else if (u->niv < u->civ) {
		u->iv[u->niv++] = key | b;
		u->last_key = key;
	} else {
		sim_rec_push(s, u, key, b);
	}
}
int sim_stats_finish(npu_sim *s);
/* Hands the rows finished since the last call to s->stream (stats.c). */
#define SIM_STREAM_STEPS 128
void sim_stream(npu_sim *s);
/* After a step of a unit other than the scalar one, by the scheduler or
 * inside the scalar unit's batch: a traced run hands its rows over as it
 * goes, a count and a branch per step, the work every SIM_STREAM_STEPS. */
static inline void sim_stream_tick(npu_sim *s)
{
	if (s->stream && ++s->stream_steps >= SIM_STREAM_STEPS)
		sim_stream(s);
}

/* Unit u's work (and kernel execution kx) completes no earlier than t. */
static inline void sim_done(npu_sim *s, sim_unit *u, uint32_t kx, uint64_t t)
{
	if (u->done < t)
		u->done = t;
	/* kernel execution kx's end: through the unit's own (see kend) */
	if (kx != u->acc_kx)
		sim_rec_kx(s, u, kx);
	if (u->kend < t)
		u->kend = t;
}


/*
 * One vector instruction (vector.c has the model):
 *   issue = max(t0, ready time of the registers read)
 *   occ   = max(1, vocc[vl] (x ii_trans)); loads and stores: bank windows
 *   ready = start + occ - 1 + latency of the class
 * Inline: it runs for most entries of most programs.
 */
static inline int sim_vec_exec(npu_sim *s, const sim_insn *in,
			       const sim_entry *e, uint64_t t0)
{
	sim_unit *u = &s->u[NPU_UNIT_VEC];
	int cls = in->vcls;
	uint64_t issue, start, occ, ready;

	issue = sim_max(t0, sim_max(s->vready[in->vsrc[0]],
				    sim_max(s->vready[in->vsrc[1]],
					    s->vready[in->vsrc[2]])));
	occ = s->vocc[e->vl];
	if (cls == SIM_VC_TRANS)
		occ *= (uint64_t)s->tg->ii_trans;
	if (!occ)
		occ = 1;
	start = issue;
	if (cls >= SIM_VC_LD) {
		if (sim_vec_mem(s, in, e, issue, &occ, &start) < 0)
			return -1;
	} else {
		s->st.vec_ops += e->vl;
		if (e->kx != u->acc_kx)
			sim_rec_kx(s, u, e->kx);
		u->kvops += e->vl;
		if (!s->o.timing_only)
			sim_vec_compute(s, in, e);
	}
	s->start = start;
	sim_rec(s, u, t0, issue, NPU_US_DEP_STALL, e->kx);
	if (start > issue) /* only loads and stores wait for banks */
		sim_rec(s, u, issue, start, NPU_US_BANK_STALL, e->kx);
	sim_rec(s, u, start, start + occ, NPU_US_BUSY, e->kx);
	u->t = start + occ;
	ready = start + occ - 1 + in->vlat;
	if (cls == SIM_VC_ST) {
		sim_done(s, u, e->kx, start + occ);
	} else {
		if (s->vready[in->a] < ready)
			s->vready[in->a] = ready;
		sim_done(s, u, e->kx, ready);
	}
	return 0;
}

/*
 * Runs the oldest entry of unit ui (not the scalar one) from t0, frees its
 * queue slot and unblocks the scalar unit if it waits for that slot.
 * Inline in the scheduler (sim.c) and in the scalar unit's own loop.
 */
static inline int sim_unit_step(npu_sim *s, int ui, uint64_t t0)
{
	sim_unit *u = &s->u[ui];
	/* Nothing an entry runs dispatches, so its slot stays put. */
	const sim_entry *en = &u->q[u->qhead];
	const sim_insn *in = &s->code[en->pc];
	sim_unit *sc = &s->u[NPU_UNIT_SCL];
	int rc = 0;

	s->start = t0;
	u->st.insns++;
	if (s->race)
		sim_race_enter(s, ui, en);
	switch (in->uclass) {
	case NPU_UC_VEC: rc = sim_vec_exec(s, in, en, t0); break;
	case NPU_UC_MXU: rc = sim_mxu_exec(s, in, en, t0); break;
	case NPU_UC_DMA: rc = sim_dma_exec(s, ui - NPU_UNIT_DMA0, in, en, t0); break;
	case NPU_UC_HOST: rc = sim_host_exec(s, in, en, t0); break;
	default: sim_sync_exec(s, ui, in, en->pc, en->kx, t0); break;
	}
	if (rc < 0)
		return -1;
	/* The entry has started: its queue slot is free again. */
	if (++u->qhead == s->qdepth)
		u->qhead = 0;
	u->qn--;
	sim_ready(s, ui);
	if (sc->blocked == BLK_QUEUE && sc->bsem == ui) {
		uint64_t go = sim_max(sc->bsince, s->start);
		sc->blocked = BLK_NONE;
		sim_rec(s, sc, sc->bsince, go, NPU_US_DEP_STALL, sc->bkx);
		sc->t = sim_max(sc->t, go);
	}
	return 0;
}

#endif
