/*
 * scalar.c - the scalar unit: fetches the one instruction stream from pc 0,
 * executes scalar instructions (1 cycle each, a taken branch lat_branch
 * more) and dispatches everything else into the queue of its unit (1
 * cycle, see dispatch()).
 *
 * sim_scalar_step() runs instructions until the scalar unit is no longer
 * the earliest unit (s->sched_lim), blocks, halts or faults: most programs
 * spend most steps here, so the loop avoids the scheduler's scan.
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

	if (!m)
		return sim_fault(s, NPU_UNIT_SCL, pc, s->u[NPU_UNIT_SCL].t,
				 "local address 0x%llx (%d bytes) is outside SRAM "
				 "and the accumulator", (unsigned long long)a, n);
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
	case NPU_OP_HALT: s->halted = 1; wr = 0; break;
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
 * Dispatches pc's non-scalar instruction into its unit's queue: 1 done,
 * 0 blocked on a full queue, -1 fault.
 */
static int dispatch(npu_sim *s, const sim_insn *in, uint32_t pc)
{
	sim_unit *sc = &s->u[NPU_UNIT_SCL];
	int ui = in->unit;
	sim_unit *u;
	sim_entry *en;
	uint32_t slot;

	if (ui >= s->nunits)
		return sim_fault(s, NPU_UNIT_SCL, pc, sc->t,
				 "unit %s does not exist on target '%s' "
				 "(%d DMA engines)", npu_unit_name(ui),
				 s->tg->name, s->tg->dma_engines);
	if (ui == NPU_UNIT_SCL) {
		/* sig/wait on the scalar unit itself */
		sim_sync_exec(s, NPU_UNIT_SCL, in, pc, s->cur_kx, sc->t);
		s->pc = pc + 1;
		return 1;
	}
	u = &s->u[ui];
	if (u->qn == s->qdepth) {
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
	if (!u->qn++) {
		/* The unit becomes runnable: the scalar unit's batch ends there. */
		uint64_t k = sim_max(u->t, en->t + 1);
		if (k < s->sched_lim)
			s->sched_lim = k;
		sim_ready(s, ui);
	}
	sim_rec(s, sc, sc->t, sc->t + 1, NPU_US_BUSY, s->cur_kx);
	sc->t += 1;
	s->pc = pc + 1;
	return 1;
}

int sim_scalar_step(npu_sim *s)
{
	sim_unit *u = &s->u[NPU_UNIT_SCL];

	do {
		uint32_t pc = s->pc, npc;
		const sim_insn *in;
		int extra, rc;

		if (pc >= s->ncode)
			return sim_fault(s, NPU_UNIT_SCL, -1, u->t,
					 "pc %u is outside the code (%u instructions)",
					 pc, s->ncode);
		in = &s->code[pc];
		if (in->kernel != s->cur_kernel) {
			s->cur_kernel = in->kernel;
			s->cur_kx = in->kernel >= 0 ? sim_kx_begin(s, in->kernel, u->t)
						    : SIM_NONE;
			if (s->oom)
				return -1;
		}
		if (!in->valid)
			return sim_fault(s, NPU_UNIT_SCL, pc, u->t,
					 "illegal instruction word 0x%016llx",
					 (unsigned long long)s->p->code[pc]);
		if (in->uclass != NPU_UC_SCL) {
			rc = dispatch(s, in, pc);
			if (rc <= 0)
				return rc;
		} else {
			extra = scalar_exec(s, in, pc, &npc);
			if (extra < 0)
				return -1;
			sim_rec(s, u, u->t, u->t + 1 + extra, NPU_US_BUSY, s->cur_kx);
			u->t += 1 + extra;
			s->pc = npc;
		}
		u->st.insns++;
		s->st.insns++;
		if (s->cur_kx != SIM_NONE) {
			s->kx[s->cur_kx].insns++;
			if (s->kx[s->cur_kx].end < u->t)
				s->kx[s->cur_kx].end = u->t;
		}
		u->done = u->t;
	} while (!s->halted && !u->blocked && u->t <= s->sched_lim);
	return 0;
}
