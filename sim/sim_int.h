/*
 * sim_int.h - the simulator's insides, shared by its files:
 *   sim.c     creation, memory, the scheduler loop, dispatch, faults
 *   scalar.c  the scalar unit (fetch, execute, dispatch)
 *   vector.c  the vector unit
 *   matrix.c  the systolic matrix unit
 *   dma.c     DMA engines, DRAM channels
 *   mem.c     address checks and SRAM bank windows
 *   host.c    the host model and its op registry
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

/* A predecoded instruction (one per code word, built once). */
typedef struct sim_insn {
	uint8_t op, a, b, c;
	int32_t imm;
	uint8_t valid;       /* decoded without error */
	uint8_t uclass;      /* enum npu_uclass */
	uint8_t unit;        /* unit that runs it (SCL for scalar ones) */
	uint8_t xmask;       /* bit f: field f (A, B, C) is a scalar register */
	uint8_t xr[3];       /* ... that register, else NPU_NXREG (reads 0) */
	int32_t kernel;      /* kernel index of this pc, -1 if none */
	/* vector instructions (sim_vec_predecode) */
	uint8_t vcls;        /* VC_* class */
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
} sim_entry;

/* Semaphore tokens: times at which a sig made one unit available. */
typedef struct sim_token {
	uint64_t t;
	int src;             /* unit that signalled */
} sim_token;

typedef struct sim_sem {
	sim_token *tok;      /* sorted by time, [head, n) live */
	size_t head, n, cap;
} sim_sem;

enum { BLK_NONE, BLK_SEM, BLK_QUEUE };

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
	int last_state;      /* of iv[niv - 1] */
	uint32_t last_kx;
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
	float *wf;           /* weights K x N as fp32 */
	int32_t *wi;         /* ... or int32 for integer inputs */
	size_t cwf, cwi;
	uint64_t wpath_free, stream_free, wready, last_mmac_start;
	uint64_t sync;       /* time of the last wait/sig in its stream */
	/* operands of the last mmac whose addresses were checked: a loop
	 * repeating them skips the checks (local memory never moves) */
	int64_t ok[7];
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
	uint64_t sched_lim;  /* the scalar unit may run up to this cycle */

	sim_unit u[NPU_NUNIT];
	int nunits;
	uint32_t qdepth;     /* the target's queue_depth */
	uint32_t ready;      /* bit u: unit u (not scalar) has work and can run */
	sim_sem sem[NPU_NSEM];

	npu_sim_stats st;
	npu_trace_kernel *kx;
	double *kxmac;       /* per kernel execution: macs / rate */
	/* Cycles per state of kernel execution kx in row kx + 1 (row 0, for
	 * SIM_NONE, is a sink), so recording needs no branch; copied into
	 * s->kx at the end (sim_stats_finish). */
	uint64_t (*kxc)[NPU_SIM_NSTATE];
	size_t nkx, ckx, ckxmac, ckxc;
	npu_trace_dma *dmas;
	size_t ndmas, cdmas;

	sim_mc mc[SIM_MC_N];
	int mc_next;         /* entry to replace next */
	uint64_t mc_lo, mc_hi; /* every valid entry's bytes lie in [lo, hi) */

	/* scratch for the matrix unit, grown as needed */
	float *sa, *sw;
	size_t nsa, nsw;

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
void sim_sem_post(npu_sim *s, int sem, uint64_t t, int src);
/* Updates unit u's bit in s->ready. */
static inline void sim_ready(npu_sim *s, int u)
{
	if (s->u[u].qn && !s->u[u].blocked)
		s->ready |= 1u << u;
	else
		s->ready &= ~(1u << u);
}
/* sig or wait of instruction pc in unit ui's stream, at t0. */
void sim_sync_exec(npu_sim *s, int ui, const sim_insn *in, uint32_t pc,
		   uint32_t kx, uint64_t t0);

/* scalar.c: runs the scalar unit for one instruction; 0 or -1 (fault). */
int sim_scalar_step(npu_sim *s);

/* vector.c: fills the vector fields of a decoded instruction. */
void sim_vec_predecode(const npu_sim *s, sim_insn *si);

/* vector.c, matrix.c, dma.c, host.c: run one entry that starts no
 * earlier than `t0` (max of unit time and dispatch + 1). */
int sim_vec_exec(npu_sim *s, const sim_insn *in, const sim_entry *e, uint64_t t0);
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

/* Appends idle up to a (a gap in the timeline); out of line, rare. */
void sim_rec_gap(npu_sim *s, sim_unit *u, uint64_t a);
/* Starts a new interval of key (state and kernel), ending at b. */
void sim_rec_push(npu_sim *s, sim_unit *u, uint64_t key, uint64_t b);
uint32_t sim_kx_begin(npu_sim *s, int kernel, uint64_t t);
static inline npu_trace_kernel *sim_kx(npu_sim *s, uint32_t kx)
{
	return kx == SIM_NONE ? NULL : &s->kx[kx];
}

/* The packed key (state and kernel + 1) of an interval of kx. */
static inline uint64_t sim_iv_key(const npu_sim *s, int state, uint32_t kx)
{
	int32_t k = kx == SIM_NONE ? -1 : s->kx[kx].kernel;

	/* Kernel indexes beyond the packed field's range share its last value. */
	if (k > (1 << 21) - 2)
		k = (1 << 21) - 2;
	return (uint64_t)state << SIM_IV_ENDBITS |
	       (uint64_t)(k + 1) << (SIM_IV_ENDBITS + 3);
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
	uint64_t n;

	if (b <= u->rec || b <= a)
		return;
	if (a > u->rec)
		sim_rec_gap(s, u, a);
	n = b - u->rec;
	u->st.cycles[state] += n;
	s->kxc[kx + 1][state] += n;
	if (state == u->last_state && kx == u->last_kx && u->niv) {
		u->iv[u->niv - 1] += n;
	} else {
		uint64_t key = sim_iv_key(s, state, kx);
		u->last_state = state;
		u->last_kx = kx;
		if (u->niv && (u->iv[u->niv - 1] & ~SIM_MAX_CYCLES) == key)
			u->iv[u->niv - 1] = key | b;
		else if (u->niv < u->civ)
			u->iv[u->niv++] = key | b;
		else
			sim_rec_push(s, u, key, b);
	}
	u->rec = b;
}
int sim_stats_finish(npu_sim *s);

/* Unit u's work (and kernel execution kx) completes no earlier than t. */
static inline void sim_done(npu_sim *s, sim_unit *u, uint32_t kx, uint64_t t)
{
	if (u->done < t)
		u->done = t;
	if (kx != SIM_NONE && s->kx[kx].end < t)
		s->kx[kx].end = t;
}


#endif
