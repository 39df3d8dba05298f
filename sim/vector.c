/*
 * vector.c - the vector unit: VLEN fp32 lanes per register, vl of them
 * processed by each instruction, lanes_per_cycle lanes a cycle.
 *
 * Timing (docs/timing-model.md):
 *   issue = max(unit free, dispatch + 1, source registers ready)
 *   occ   = ceil(vl / lanes_per_cycle) (x ii_trans for transcendental ops),
 *           at least 1; loads and stores at least the longest bank window
 *   ready = issue + occ - 1 + latency of the op's class
 * An access to a bank another unit holds moves the issue behind it.
 * The timing itself is sim_vec_exec() in sim_int.h, inline in the
 * scheduler's loops (it runs for most instructions of most programs);
 * the values and the memory accesses are here.
 *
 * Values: IEEE fp32 with libm's expf, logf, tanhf, erff, sinf, cosf, powf,
 * sqrtf; max/min propagate NaN; loads and stores convert through
 * isa/dtype.h; vredsum adds in a fixed pairwise tree (see redsum()).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "isa/dtype.h"
#include "sim/sim_int.h"

static int vclass(int op)
{
	switch (op) {
	case NPU_OP_VLD: case NPU_OP_VLDS: case NPU_OP_VBCAST: return SIM_VC_LD;
	case NPU_OP_VST: case NPU_OP_VSTS: return SIM_VC_ST;
	case NPU_OP_VMUL: case NPU_OP_VFMA: case NPU_OP_VMULI: return SIM_VC_MUL;
	case NPU_OP_VDIV: case NPU_OP_VDIVI: case NPU_OP_VRCP: case NPU_OP_VSQRT:
	case NPU_OP_VRSQRT: return SIM_VC_DIV;
	case NPU_OP_VEXP: case NPU_OP_VLOG: case NPU_OP_VTANH: case NPU_OP_VERF:
	case NPU_OP_VSIGM: case NPU_OP_VSIN: case NPU_OP_VCOS: case NPU_OP_VPOW:
	case NPU_OP_VPOWI: return SIM_VC_TRANS;
	case NPU_OP_VREDSUM: case NPU_OP_VREDMAX: case NPU_OP_VREDMIN: return SIM_VC_RED;
	default: return SIM_VC_ALU;
	}
}

static int latency(const npu_target *t, int cls)
{
	switch (cls) {
	case SIM_VC_MUL: return t->lat_mul;
	case SIM_VC_DIV: return t->lat_div;
	case SIM_VC_TRANS: return t->lat_trans;
	case SIM_VC_RED: return t->lat_red;
	case SIM_VC_LD: return t->lat_ld;
	default: return t->lat_alu;
	}
}

/* Sum in a fixed pairwise tree: the left half (n/2 rounded down) plus the
 * right half, recursively; one element is itself, none is 0. */
static float redsum(const float *a, uint32_t n)
{
	uint32_t h;

	if (n <= 1)
		return n ? a[0] : 0.0f;
	h = n / 2;
	return redsum(a, h) + redsum(a + h, n - h);
}

static float fmax_nan(float a, float b)
{
	return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
}

static float fmin_nan(float a, float b)
{
	return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
}

static float imm_f32(int32_t imm)
{
	float f;
	memcpy(&f, &imm, sizeof f);
	return f;
}

/* The value of an elementwise op on lane values b, c (and a). */
static float lane(int op, float a, float b, float c, float k, int dt)
{
	switch (op) {
	case NPU_OP_VMOV: return b;
	case NPU_OP_VADD: return b + c;
	case NPU_OP_VSUB: return b - c;
	case NPU_OP_VMUL: return b * c;
	case NPU_OP_VDIV: return b / c;
	case NPU_OP_VMAX: return fmax_nan(b, c);
	case NPU_OP_VMIN: return fmin_nan(b, c);
	case NPU_OP_VFMA: return fmaf(b, c, a);
	case NPU_OP_VPOW: return powf(b, c);
	case NPU_OP_VCMPEQ: return b == c ? 1.0f : 0.0f;
	case NPU_OP_VCMPLT: return b < c ? 1.0f : 0.0f;
	case NPU_OP_VCMPLE: return b <= c ? 1.0f : 0.0f;
	case NPU_OP_VSEL: return b != 0 ? c : a;
	case NPU_OP_VADDI: return b + k;
	case NPU_OP_VMULI: return b * k;
	case NPU_OP_VMAXI: return fmax_nan(b, k);
	case NPU_OP_VMINI: return fmin_nan(b, k);
	case NPU_OP_VRSUBI: return k - b;
	case NPU_OP_VDIVI: return b / k;
	case NPU_OP_VPOWI: return powf(b, k);
	case NPU_OP_VCMPEQI: return b == k ? 1.0f : 0.0f;
	case NPU_OP_VNEG: return -b;
	case NPU_OP_VABS: return fabsf(b);
	case NPU_OP_VEXP: return expf(b);
	case NPU_OP_VLOG: return logf(b);
	case NPU_OP_VSQRT: return sqrtf(b);
	case NPU_OP_VRSQRT: return 1.0f / sqrtf(b);
	case NPU_OP_VRCP: return 1.0f / b;
	case NPU_OP_VTANH: return tanhf(b);
	case NPU_OP_VERF: return erff(b);
	case NPU_OP_VSIGM: return 1.0f / (1.0f + expf(-b));
	case NPU_OP_VSIN: return sinf(b);
	case NPU_OP_VCOS: return cosf(b);
	case NPU_OP_VFLOOR: return floorf(b);
	case NPU_OP_VNOT: return b == 0 ? 1.0f : 0.0f;
	case NPU_OP_VRND: return npu_round_through(dt, b);
	default: return a;
	}
}

/* Address, element size, stride and count of a load or store. */
typedef struct vmem {
	uint64_t addr;
	int64_t stride;
	int dt, size;
	uint32_t n;
} vmem;

static void vmem_of(const sim_insn *in, const sim_entry *e, vmem *m)
{
	m->n = e->vl;
	switch (in->op) {
	case NPU_OP_VLDS: case NPU_OP_VSTS:
		m->dt = in->imm;
		m->addr = (uint64_t)e->x[1];
		m->stride = e->x[2];
		break;
	case NPU_OP_VBCAST:
		m->dt = in->c;
		m->addr = (uint64_t)e->x[1] + (uint64_t)(int64_t)in->imm;
		m->n = 1;
		m->stride = 0;
		break;
	default:
		m->dt = in->c;
		m->addr = (uint64_t)e->x[1] + (uint64_t)(int64_t)in->imm;
		m->stride = npu_dtype_size(in->c);
		break;
	}
	m->size = npu_dtype_size(m->dt);
}

/* Checks the access and adds its bytes to the bank counts; NULL on fault. */
static uint8_t *vmem_check(npu_sim *s, const vmem *m, uint32_t pc, uint64_t t)
{
	__int128 lo = (__int128)m->addr, hi = lo;
	__int128 span = (__int128)m->stride * (m->n ? m->n - 1 : 0);
	uint8_t *p;

	if (!m->n)
		return s->sram; /* an empty access touches nothing */
	if (span < 0)
		lo += span;
	else
		hi += span;
	hi += m->n ? m->size : 0;
	if (lo < 0 || hi > (__int128)UINT64_MAX ||
	    !(p = sim_local(s, (uint64_t)lo, (uint64_t)(hi - lo)))) {
		sim_fault(s, NPU_UNIT_VEC, pc, t,
			  "local address 0x%llx (%u elements of %d bytes, stride "
			  "%lld) is outside SRAM and the accumulator",
			  (unsigned long long)m->addr, m->n, m->size,
			  (long long)m->stride);
		return NULL;
	}
	if (m->stride == m->size || m->n <= 1)
		sim_bank_add(s, m->addr, (uint64_t)m->n * m->size);
	else
		for (uint32_t i = 0; i < m->n; i++)
			sim_bank_add(s, m->addr + (uint64_t)(m->stride * i), m->size);
	return p;
}

static void vmem_do(npu_sim *s, const sim_insn *in, const vmem *m, float *va)
{
	uint8_t *p = sim_local(s, m->addr, 0);
	int ld = vclass(in->op) == SIM_VC_LD;

	if (in->op == NPU_OP_VBCAST) {
		float f = npu_load_f32(m->dt, sim_local(s, m->addr, m->size), 0);
		for (int i = 0; i < s->vlen; i++)
			va[i] = f;
		return;
	}
	if (!ld && m->n) {
		/* the bytes vmem_check() found in range */
		int64_t span = m->stride * (int64_t)(m->n - 1);
		uint64_t lo = span < 0 ? m->addr + (uint64_t)span : m->addr;
		sim_wrote(s, lo, (uint64_t)(span < 0 ? -span : span) + (uint64_t)m->size);
	}
	if (m->stride == m->size && m->n) {
		p = sim_local(s, m->addr, (uint64_t)m->n * m->size);
		if (ld)
			npu_load_f32_n(m->dt, va, p, m->n);
		else
			npu_store_f32_n(m->dt, p, va, m->n, 0);
		return;
	}
	for (uint32_t i = 0; i < m->n; i++) {
		uint8_t *q = sim_local(s, m->addr + (uint64_t)(m->stride * i), m->size);
		if (ld)
			va[i] = npu_load_f32(m->dt, q, 0);
		else
			npu_store_f32(m->dt, q, 0, va[i]);
	}
}

/* Lanes of the values: elementwise ops, moves and reductions. */
void sim_vec_compute(npu_sim *s, const sim_insn *in, const sim_entry *e)
{
	int n = s->vlen;
	float *va = s->v + (size_t)in->a * n;
	const float *vb = s->v + (size_t)in->b * n, *vc = s->v + (size_t)in->c * n;
	float k = imm_f32(in->imm), r;
	uint32_t vl = e->vl;

	switch (in->op) {
	case NPU_OP_VLI:
		for (int i = 0; i < n; i++)
			va[i] = k;
		return;
	case NPU_OP_VMOVX:
		for (int i = 0; i < n; i++)
			va[i] = (float)e->x[1];
		return;
	case NPU_OP_VIDX:
		for (uint32_t i = 0; i < vl; i++)
			va[i] = (float)i;
		return;
	case NPU_OP_VREDSUM:
		r = redsum(vb, vl);
		goto all;
	case NPU_OP_VREDMAX:
		r = -INFINITY;
		for (uint32_t i = 0; i < vl; i++)
			r = fmax_nan(r, vb[i]);
		goto all;
	case NPU_OP_VREDMIN:
		r = INFINITY;
		for (uint32_t i = 0; i < vl; i++)
			r = fmin_nan(r, vb[i]);
		goto all;
	case NPU_OP_VADD:
		for (uint32_t i = 0; i < vl; i++)
			va[i] = vb[i] + vc[i];
		return;
	case NPU_OP_VMUL:
		for (uint32_t i = 0; i < vl; i++)
			va[i] = vb[i] * vc[i];
		return;
	default:
		for (uint32_t i = 0; i < vl; i++)
			va[i] = lane(in->op, va[i], vb[i], vc[i], k, in->c);
		return;
	}
all:
	for (int i = 0; i < n; i++)
		va[i] = r;
}

void sim_vec_predecode(const npu_sim *s, sim_insn *si)
{
	const npu_opinfo *oi = &npu_optab[si->op];
	int n = 0;

	si->vcls = (uint8_t)vclass(si->op);
	si->vlat = (uint32_t)latency(s->tg, si->vcls);
	switch (oi->fmt) {
	case NPU_FMT_VVV:
		si->vsrc[n++] = si->b;
		si->vsrc[n++] = si->c;
		break;
	case NPU_FMT_VV: case NPU_FMT_VVF: case NPU_FMT_VVT:
		si->vsrc[n++] = si->b;
		break;
	default:
		break;
	}
	if (oi->flags & NPU_RA)
		si->vsrc[n++] = si->a;
	while (n < 3)
		si->vsrc[n++] = NPU_NVREG;
}

/*
 * The load or store part of sim_vec_exec(): address checks, bank windows
 * (the start moves behind other units' windows, the occupancy grows to
 * the longest window), SRAM bytes and the values.  0 or -1 (fault).
 */
int sim_vec_mem(npu_sim *s, const sim_insn *in, const sim_entry *e,
		uint64_t issue, uint64_t *occ, uint64_t *start)
{
	npu_trace_kernel *k;
	uint64_t bo, nb;
	vmem m;

	vmem_of(in, e, &m);
	if (!vmem_check(s, &m, e->pc, issue)) {
		sim_bank_clear(s);
		return -1;
	}
	bo = sim_bank_occ(s);
	if (bo > *occ)
		*occ = bo;
	*start = sim_bank_fit(s, NPU_UNIT_VEC, issue, *occ, 0);
	sim_bank_take(s, NPU_UNIT_VEC, *start, *occ, 0);
	if (s->race && sim_race_rows(s, NPU_UNIT_VEC, e->pc, *start, m.addr,
				     m.stride, m.n, (uint64_t)m.size,
				     in->vcls != SIM_VC_LD) < 0)
		return -1;
	nb = (uint64_t)m.n * m.size;
	k = sim_kx(s, e->kx);
	if (in->vcls == SIM_VC_LD) {
		s->st.sram_rd += nb;
		if (k)
			k->sram_rd += nb;
	} else {
		s->st.sram_wr += nb;
		if (k)
			k->sram_wr += nb;
	}
	if (!s->o.timing_only)
		vmem_do(s, in, &m, s->v + (size_t)in->a * s->vlen);
	return 0;
}
