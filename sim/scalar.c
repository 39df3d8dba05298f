/*
 * scalar.c - the scalar unit: fetches the one instruction stream from pc 0,
 * executes scalar instructions (1 cycle each, a taken branch lat_branch
 * more) and dispatches everything else into the queue of its unit (1
 * cycle, see dispatch()).
 *
 * sim_scalar_step() runs instructions until the scalar unit halts or
 * faults, and in between the other units' steps in the scheduler's order
 * (other_step), so most programs spend most of their run in its loop.
 */
#include "config.h"

#include <string.h>

#include "sim/sim_int.h"

/* Loads or stores 4 or 8 bytes of local memory. */
static int scalar_mem(npu_sim *s, const sim_insn *in, uint32_t pc)
{
	int64_t *x = s->x;
	uint64_t a = (uint64_t)(x[in->b] + in->imm);
	int n = in->op == NPU_OP_LD || in->op == NPU_OP_ST ? 8 : 4;
	uint8_t *m = sim_local(s, a, n);
	int wr = in->op == NPU_OP_ST || in->op == NPU_OP_ST32;

	if (!m)
		return sim_fault(s, NPU_UNIT_SCL, pc, s->u[NPU_UNIT_SCL].t,
				 "local address 0x%llx (%d bytes) is outside SRAM "
				 "and the accumulator", (unsigned long long)a, n);
	if (s->race && sim_race_access(s, NPU_UNIT_SCL, pc, s->u[NPU_UNIT_SCL].t,
				       a, (uint64_t)n, wr) < 0)
		return -1;
	switch (in->op) {
	case NPU_OP_LD: {
		int64_t v;
		memcpy(&v, m, 8);
		x[in->a] = v;
		break;
	}
	case NPU_OP_LD32: {
		int32_t v;
		memcpy(&v, m, 4);
		x[in->a] = v;
		break;
	}
	case NPU_OP_ST:
		memcpy(m, &x[in->a], 8);
		sim_wrote(s, a, 8);
		break;
	default: {
		int32_t v = (int32_t)x[in->a];
		memcpy(m, &v, 4);
		sim_wrote(s, a, 4);
		break;
	}
	}
	s->st.sram_rd += in->op == NPU_OP_LD || in->op == NPU_OP_LD32 ? n : 0;
	s->st.sram_wr += in->op == NPU_OP_ST || in->op == NPU_OP_ST32 ? n : 0;
	return 0;
}

/*
 * Executes one scalar instruction.  Returns the next pc in *npc and the
 * extra cycles (taken branch) through the return value, or -1.
 */
static int scalar_exec(npu_sim *s, const sim_insn *in, uint32_t pc,
		       uint32_t *npc)
{
	int64_t *x = s->x;
	int64_t b = x[in->b], c = x[in->c], r = 0;
	int taken = 0, wr = 1;
	uint64_t tgt = (uint64_t)((int64_t)pc + in->imm);

	*npc = pc + 1;
	switch (in->op) {
	case NPU_OP_NOP: wr = 0; break;
	case NPU_OP_HALT: s->halted = 1; s->sched_end = 0; wr = 0; break;
	case NPU_OP_LI: r = in->imm; break;
	case NPU_OP_LIH:
		r = (int64_t)(((uint64_t)x[in->a] & 0xffffffffu) |
			      ((uint64_t)(uint32_t)in->imm << 32));
		break;
	case NPU_OP_MOV: r = b; break;
	case NPU_OP_ADD: r = (int64_t)((uint64_t)b + (uint64_t)c); break;
	case NPU_OP_SUB: r = (int64_t)((uint64_t)b - (uint64_t)c); break;
	case NPU_OP_MUL: r = (int64_t)((uint64_t)b * (uint64_t)c); break;
	case NPU_OP_DIV:
	case NPU_OP_REM:
		if (c == 0)
			return sim_fault(s, NPU_UNIT_SCL, pc, s->u[NPU_UNIT_SCL].t,
					 "division by zero");
		if (b == INT64_MIN && c == -1)
			r = in->op == NPU_OP_DIV ? INT64_MIN : 0;
		else
			r = in->op == NPU_OP_DIV ? b / c : b % c;
		break;
	case NPU_OP_AND: r = b & c; break;
	case NPU_OP_OR: r = b | c; break;
	case NPU_OP_XOR: r = b ^ c; break;
	case NPU_OP_SHL: r = (int64_t)((uint64_t)b << (c & 63)); break;
	case NPU_OP_SHR: r = (int64_t)((uint64_t)b >> (c & 63)); break;
	case NPU_OP_SRA: r = b >> (c & 63); break;
	case NPU_OP_SLT: r = b < c; break;
	case NPU_OP_SLTU: r = (uint64_t)b < (uint64_t)c; break;
	case NPU_OP_MIN: r = b < c ? b : c; break;
	case NPU_OP_MAX: r = b > c ? b : c; break;
	case NPU_OP_ADDI: r = (int64_t)((uint64_t)b + (uint64_t)(int64_t)in->imm); break;
	case NPU_OP_MULI: r = (int64_t)((uint64_t)b * (uint64_t)(int64_t)in->imm); break;
	case NPU_OP_ANDI: r = b & in->imm; break;
	case NPU_OP_SHLI: r = (int64_t)((uint64_t)b << (in->imm & 63)); break;
	case NPU_OP_SHRI: r = (int64_t)((uint64_t)b >> (in->imm & 63)); break;
	case NPU_OP_SLTI: r = b < in->imm; break;
	case NPU_OP_LD: case NPU_OP_LD32: case NPU_OP_ST: case NPU_OP_ST32:
		if (scalar_mem(s, in, pc) < 0)
			return -1;
		return 0;
	case NPU_OP_BEQ: taken = x[in->a] == b; wr = 0; break;
	case NPU_OP_BNE: taken = x[in->a] != b; wr = 0; break;
	case NPU_OP_BLT: taken = x[in->a] < b; wr = 0; break;
	case NPU_OP_BGE: taken = x[in->a] >= b; wr = 0; break;
	case NPU_OP_JMP: taken = 1; wr = 0; break;
	case NPU_OP_JAL: r = pc + 1; taken = 1; break;
	case NPU_OP_JR: tgt = (uint64_t)x[in->a]; taken = 1; wr = 0; break;
	case NPU_OP_SETVL:
		r = b < 0 ? 0 : b > s->vlen ? s->vlen : b;
		s->vl = (uint32_t)r;
		break;
	default:
		return sim_fault(s, NPU_UNIT_SCL, pc, s->u[NPU_UNIT_SCL].t,
				 "instruction not handled by the scalar unit");
	}
	if (wr && in->a)
		x[in->a] = r;
	if (!taken)
		return 0;
	/* A target outside the code faults when it is fetched. */
	*npc = tgt > UINT32_MAX ? UINT32_MAX : (uint32_t)tgt;
	return s->tg->lat_branch;
}

/*
 * A batch of scalar instructions not yet accounted for: the scalar unit is
 * busy without a break from `from` to its time, and `n` instructions were
 * fetched for the current kernel execution.  Recording the stretch once
 * gives the same intervals and sums as recording each instruction's cycle
 * (they are contiguous, of one state and kernel execution), and a kernel
 * execution's end only ever grows to the latest time, so doing it at the
 * batch's end gives the same value.
 */
typedef struct batch {
	uint64_t from;
	uint64_t n;
} batch;

static void batch_flush(npu_sim *s, batch *b)
{
	sim_unit *u = &s->u[NPU_UNIT_SCL];

	sim_rec(s, u, b->from, u->t, NPU_US_BUSY, s->cur_kx);
	b->from = u->t;
	u->st.insns += b->n;
	s->st.insns += b->n;
	if (s->cur_kx != SIM_NONE) {
		s->kx[s->cur_kx].insns += b->n;
		if (s->kx[s->cur_kx].end < u->t)
			s->kx[s->cur_kx].end = u->t;
	}
	b->n = 0;
	u->done = u->t;
}

/*
 * Dispatches pc's non-scalar instruction into its unit's queue: 1 done,
 * 0 blocked on a full queue.  The unit exists (SIM_K_QUEUE).
 */
static int dispatch(npu_sim *s, const sim_insn *in, uint32_t pc)
{
	sim_unit *sc = &s->u[NPU_UNIT_SCL];
	int ui = in->unit;
	sim_unit *u = &s->u[ui];
	sim_entry *en;
	uint32_t slot;

	if (u->qn == s->qdepth) {
		s->sched_end = 0;
		sc->blocked = BLK_QUEUE;
		sc->bsem = ui;
		sc->bsince = sc->t;
		sc->bkx = s->cur_kx;
		return 0;
	}
	slot = u->qhead + u->qn;
	if (slot >= s->qdepth)
		slot -= s->qdepth;
	en = &u->q[slot];
	en->pc = pc;
	en->kx = s->cur_kx;
	en->t = sc->t;
	en->x[0] = s->x[in->xr[0]];
	en->x[1] = s->x[in->xr[1]];
	en->x[2] = s->x[in->xr[2]];
	en->vl = s->vl;
	en->gen = s->race ? sim_race_gen(s) : 0;
	if (!u->qn++) {
		/* The unit becomes runnable: the scalar unit's batch ends there. */
		uint64_t k = sim_max(u->t, en->t + 1);
		if (k + 1 < s->sched_end)
			s->sched_end = k + 1;
		sim_ready(s, ui);
	}
	sc->t += 1;
	s->pc = pc + 1;
	return 1;
}

/*
 * The scalar unit is blocked or no longer the earliest: runs the step the
 * scheduler (npu_sim_run) would run next, the earliest other unit's
 * oldest entry, and updates s->sched_end.  Doing it here keeps the
 * scalar unit's batch open: a stream of dispatches into a busy unit, the
 * common case, alternates between the two at every entry.  1: go on,
 * 0: back to the scheduler (nothing else to run, or a cycle limit, which
 * it reports), -1: fault.
 */
static int other_step(npu_sim *s)
{
	sim_unit *sc = &s->u[NPU_UNIT_SCL];
	uint64_t bt, maxc = s->o.max_cycles;
	int best = s->pbest;

	if (best == SIM_PICK_STALE)
		best = sim_pick(s, &bt);
	else
		bt = s->pbt;
	if (!sc->blocked && sc->t <= bt) {
		/* the scalar unit comes first after all (the end was lowered) */
		s->pbest = best;
		s->pbt = bt;
		s->sched_end = (bt < maxc ? bt : maxc) + 1;
		return sc->t < s->sched_end;
	}
	if (best < 0 || bt > maxc)
		return 0;
	if (sim_unit_step(s, best, bt) < 0 || s->oom)
		return -1;
	sim_stream_tick(s);
	s->pbest = sim_pick(s, &bt);
	s->pbt = bt;
	s->sched_end = sc->blocked ? 0 : (bt < maxc ? bt : maxc) + 1;
	return 1;
}

/*
 * The rare instructions: an illegal word, a unit the target lacks, and
 * sig/wait on the scalar unit itself.  The batch is flushed: these record
 * on the scalar unit's timeline themselves.  1 done, 0 blocked, -1 fault.
 */
static int slow_insn(npu_sim *s, const sim_insn *in, uint32_t pc)
{
	sim_unit *sc = &s->u[NPU_UNIT_SCL];

	if (!in->valid)
		return sim_fault(s, NPU_UNIT_SCL, pc, sc->t,
				 "illegal instruction word 0x%016llx",
				 (unsigned long long)s->p->code[pc]);
	if (in->unit >= s->nunits)
		return sim_fault(s, NPU_UNIT_SCL, pc, sc->t,
				 "unit %s does not exist on target '%s' "
				 "(%d DMA engines)", npu_unit_name(in->unit),
				 s->tg->name, s->tg->dma_engines);
	sim_sync_exec(s, NPU_UNIT_SCL, in, pc, s->cur_kx, sc->t);
	s->pc = pc + 1;
	return 1;
}

int sim_scalar_step(npu_sim *s)
{
	sim_unit *u = &s->u[NPU_UNIT_SCL];
	batch b = { u->t, 0 };
	int rc = 0;

	for (;;) {
		uint32_t pc = s->pc, npc;
		const sim_insn *in;
		int extra;

		if (u->t >= s->sched_end) {
			if (s->halted)
				break;
			/* Its busy stretch was recorded up to the block, and an
			 * unblocking records the wait up to its new time, so the
			 * batch goes on from there (sim_rec clips). */
			rc = other_step(s);
			if (rc <= 0)
				break;
			rc = 0;
			continue;
		}
		if (pc >= s->ncode) {
			batch_flush(s, &b);
			return sim_fault(s, NPU_UNIT_SCL, -1, u->t,
					 "pc %u is outside the code (%u instructions)",
					 pc, s->ncode);
		}
		in = &s->code[pc];
		if (in->kernel != s->cur_kernel) {
			batch_flush(s, &b);
			s->cur_kernel = in->kernel;
			s->cur_kx = in->kernel >= 0 ? sim_kx_begin(s, in->kernel, u->t)
						    : SIM_NONE;
			if (s->oom)
				return -1;
		}
		switch (in->kind) {
		case SIM_K_SCALAR:
			extra = scalar_exec(s, in, pc, &npc);
			if (extra < 0) {
				rc = -1;
				goto out;
			}
			u->t += 1 + extra;
			s->pc = npc;
			break;
		case SIM_K_QUEUE:
			if (dispatch(s, in, pc))
				break;
			/* blocked: the busy stretch ends here; the same
			 * instruction is fetched again once unblocked */
			sim_rec(s, u, b.from, u->t, NPU_US_BUSY, s->cur_kx);
			continue;
		default:
			batch_flush(s, &b);
			rc = slow_insn(s, in, pc);
			if (rc < 0 || s->oom) {
				rc = -1;
				goto out;
			}
			rc = 0;
			if (u->blocked)
				s->sched_end = 0;
			break;
		}
		b.n++;
	}
out:
	batch_flush(s, &b);
	return rc;
}
