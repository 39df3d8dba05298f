/*
 * sim.c - the simulator's core: set-up, memory, the scheduler loop,
 * semaphores and fault reports.
 *
 * The scheduler is event-driven rather than cycle-stepped: every unit has
 * a local time, and the loop repeatedly advances the runnable unit whose
 * next instruction could start earliest (ties go to the lower unit id, so
 * the scalar unit first).  A unit is runnable when it is not blocked and
 * has work: the scalar unit until `halt`, every other unit while its queue
 * holds entries.  Because units are advanced in time order, a resource
 * shared between units (DRAM channels, SRAM banks, semaphores) sees its
 * requests roughly in the order they happen, and idle stretches cost
 * nothing to simulate.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

int sim_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* Kernel name and its FX nodes, for fault reports. */
static void kernel_desc(const npu_prog *p, int k, char *buf, size_t n)
{
	const npu_kernel *kn;
	size_t len;

	if (k < 0 || (uint32_t)k >= p->nkernels) {
		snprintf(buf, n, "outside any kernel");
		return;
	}
	kn = &p->kernels[k];
	snprintf(buf, n, "in kernel '%s'", kn->name);
	for (uint32_t i = 0; i < kn->node_count; i++) {
		uint32_t ni = kn->node_first + i;
		if (ni >= p->nkernel_nodes || p->kernel_nodes[ni] >= p->nnodes)
			break;
		len = strlen(buf);
		if (len + 4 >= n)
			break;
		snprintf(buf + len, n - len, "%s%s", i ? ", " : " (nodes: ",
			 p->nodes[p->kernel_nodes[ni]].name);
	}
	len = strlen(buf);
	if (kn->node_count && len + 1 < n)
		snprintf(buf + len, n - len, ")");
}

void sim_pc_text(const npu_sim *s, int64_t pc, char *buf, size_t n)
{
	npu_insn in;
	const sim_insn *si;

	buf[0] = 0;
	if (pc < 0 || (uint64_t)pc >= s->ncode)
		return;
	si = &s->code[pc];
	in.op = si->op; in.a = si->a; in.b = si->b; in.c = si->c;
	in.imm = si->imm;
	if (si->valid)
		npu_disasm(&in, (uint32_t)pc, buf, n);
	else
		snprintf(buf, n, ".word 0x%016llx", (unsigned long long)s->p->code[pc]);
}

int sim_fault(npu_sim *s, int unit, int64_t pc, uint64_t cycle,
	      const char *fmt, ...)
{
	npu_sim_fault *f = &s->fault;
	char dis[96] = "", kd[320];
	va_list ap;

	if (s->faulted)
		return -1;
	s->faulted = 1;
	f->unit = unit;
	f->pc = pc;
	f->cycle = cycle;
	f->kernel = pc >= 0 && (uint64_t)pc < s->ncode ? s->code[pc].kernel : -1;
	va_start(ap, fmt);
	vsnprintf(f->what, sizeof f->what, fmt, ap);
	va_end(ap);
	if (pc >= 0)
		sim_pc_text(s, pc, dis, sizeof dis);
	kernel_desc(s->p, f->kernel, kd, sizeof kd);
	if (pc >= 0)
		npu_errf(s->err, "fault at cycle %llu on %s, pc %lld (%s) %s: %s",
			 (unsigned long long)cycle, npu_unit_name(unit),
			 (long long)pc, dis, kd, f->what);
	else
		npu_errf(s->err, "fault at cycle %llu on %s: %s",
			 (unsigned long long)cycle, npu_unit_name(unit), f->what);
	return -1;
}

/* --- set-up ------------------------------------------------------------ */

static int predecode(npu_sim *s, npu_err *e)
{
	const npu_prog *p = s->p;

	s->ncode = p->ncode;
	s->code = calloc(p->ncode ? p->ncode : 1, sizeof *s->code);
	if (!s->code)
		return npu_errf(e, "out of memory");
	for (uint32_t pc = 0; pc < p->ncode; pc++) {
		sim_insn *si = &s->code[pc];
		npu_insn in;
		si->kernel = npu_prog_kernel_at(p, pc);
		si->kind = SIM_K_SLOW;
		if (npu_decode(p->code[pc], &in) < 0)
			continue;
		const npu_opinfo *oi = &npu_optab[in.op];
		const npu_fmtinfo *fi = &npu_fmttab[oi->fmt];
		si->op = in.op; si->a = in.a; si->b = in.b; si->c = in.c;
		si->imm = in.imm;
		si->valid = 1;
		si->uclass = oi->uclass;
		for (int i = 0; i < fi->nopd; i++)
			if (fi->opd[i].kind == NPU_K_X && fi->opd[i].field <= NPU_F_C)
				si->xmask |= 1u << fi->opd[i].field;
		si->xr[0] = si->xmask & 1 ? si->a : NPU_NXREG;
		si->xr[1] = si->xmask & 2 ? si->b : NPU_NXREG;
		si->xr[2] = si->xmask & 4 ? si->c : NPU_NXREG;
		switch (oi->uclass) {
		case NPU_UC_SCL: si->unit = NPU_UNIT_SCL; break;
		case NPU_UC_VEC: si->unit = NPU_UNIT_VEC; break;
		case NPU_UC_MXU: si->unit = NPU_UNIT_MXU; break;
		case NPU_UC_HOST: si->unit = NPU_UNIT_HOST; break;
		case NPU_UC_DMA: si->unit = (uint8_t)(NPU_UNIT_DMA0 + in.a); break;
		default: si->unit = in.a; break; /* SYNC */
		}
		if (oi->uclass == NPU_UC_SCL)
			si->kind = SIM_K_SCALAR;
		else if (si->unit != NPU_UNIT_SCL && si->unit < s->nunits)
			si->kind = SIM_K_QUEUE;
		if (oi->uclass == NPU_UC_VEC)
			sim_vec_predecode(s, si);
	}
	return 0;
}

static int cmp_buf_addr(const void *a, const void *b, void *arg)
{
	const npu_buf *bufs = arg;
	uint64_t x = bufs[*(const uint32_t *)a].addr;
	uint64_t y = bufs[*(const uint32_t *)b].addr;
	return x < y ? -1 : x > y;
}

static int setup_memory(npu_sim *s, npu_err *e)
{
	const npu_prog *p = s->p;
	const npu_target *t = s->tg;

	s->sram_n = t->sram_bytes;
	s->acc_n = t->acc_bytes;
	s->dram_n = p->dram_size;
	/* calloc of large sizes maps zero pages lazily. */
	s->sram = calloc(s->sram_n ? s->sram_n : 1, 1);
	s->acc = calloc(s->acc_n ? s->acc_n : 1, 1);
	s->dram = calloc(s->dram_n ? s->dram_n : 1, 1);
	s->bufsort = calloc(p->nbufs ? p->nbufs : 1, sizeof *s->bufsort);
	if (!s->sram || !s->acc || !s->dram || !s->bufsort)
		return npu_errf(e, "out of memory for simulated memory "
				"(%llu bytes of DRAM)", (unsigned long long)s->dram_n);
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		/* placed in the SRAM window at load (npu_prog_relayout) */
		if (b->addr >= NPU_SRAM_APERTURE && b->kind == NPU_BUF_SCRATCH) {
			if (!sim_local(s, b->addr - NPU_SRAM_APERTURE, b->size) ||
			    b->addr - NPU_SRAM_APERTURE >= NPU_ACC_BASE)
				return npu_errf(e, "buffer '%s' lies outside SRAM", b->name);
			continue;
		}
		if (b->addr > s->dram_n || b->size > s->dram_n - b->addr)
			return npu_errf(e, "buffer '%s' lies outside DRAM", b->name);
		if (b->kind == NPU_BUF_CONST) {
			if (b->data_off > p->ncdata || b->size > p->ncdata - b->data_off)
				return npu_errf(e, "buffer '%s': constant data out of range",
						b->name);
			memcpy(s->dram + b->addr, p->cdata + b->data_off, b->size);
		}
		if (b->size)
			s->bufsort[s->nbufsort++] = i;
	}
	qsort_r(s->bufsort, s->nbufsort, sizeof *s->bufsort, cmp_buf_addr,
		(void *)p->bufs);
	return 0;
}

static int check_target(const npu_target *t, npu_err *e)
{
	if (t->vlen < 1 || t->vec_lanes < 1 || t->queue_depth < 1 ||
	    t->dma_engines < 1 || t->dma_engines > NPU_MAX_DMA ||
	    t->sram_banks < 1 || t->acc_banks < 1 || t->sram_port_bytes < 1 ||
	    t->dram_channels < 1 || t->dram_burst < 1 || t->dram_interleave < 1 ||
	    t->dram_bytes_per_cycle <= 0 || t->dma_bytes_per_cycle <= 0 ||
	    t->mxu_rows < 1 || t->mxu_cols < 1 || t->host_bytes_per_cycle <= 0 ||
	    t->host_flops_per_cycle <= 0 || t->ii_trans < 1)
		return npu_errf(e, "target '%s': impossible parameters", t->name);
	return 0;
}

npu_sim *npu_sim_new(const npu_prog *p, const npu_target *t,
		     const npu_sim_opts *o, npu_err *e)
{
	npu_sim *s;
	int nb;

	if (check_target(t, e) < 0)
		return NULL;
	s = calloc(1, sizeof *s);
	if (!s) {
		npu_errf(e, "out of memory");
		return NULL;
	}
	s->p = p;
	s->tg = t;
	if (o)
		s->o = *o;
	if (!s->o.max_cycles)
		s->o.max_cycles = NPU_SIM_DEFAULT_MAX_CYCLES;
	if (s->o.max_cycles > SIM_MAX_CYCLES)
		s->o.max_cycles = SIM_MAX_CYCLES; /* what an interval can hold */
	s->vlen = t->vlen;
	s->nunits = NPU_UNIT_DMA0 + t->dma_engines;
	s->qdepth = (uint32_t)t->queue_depth;
	s->cur_kernel = -1;
	s->cur_kx = SIM_NONE;
	s->pbest = SIM_PICK_STALE;
	if (predecode(s, e) < 0 || setup_memory(s, e) < 0)
		goto fail;
	/* row 0 of the per-state cycles: outside kernels */
	if (sim_grow((void **)&s->kxc, &s->ckxc, 1, sizeof *s->kxc) < 0) {
		npu_errf(e, "out of memory");
		goto fail;
	}
	memset(s->kxc[0], 0, sizeof *s->kxc);
	s->kxc[0][SIM_KXC_KEY] = sim_iv_kbits(-1);
	for (int u = 0; u < NPU_NUNIT; u++) {
		s->u[u].last_state = -1;
		s->u[u].last_key = SIM_IV_NOKEY;
		s->u[u].acc_kx = SIM_NONE;
		s->u[u].kbits = s->kxc[0][SIM_KXC_KEY];
	}
	s->v = calloc((size_t)NPU_NVREG * s->vlen, sizeof *s->v);
	s->vocc = calloc((size_t)s->vlen + 1, sizeof *s->vocc);
	if (s->vocc)
		for (int vl = 0; vl <= s->vlen; vl++) {
			s->vocc[vl] = (uint32_t)sim_ceil_div((uint64_t)vl,
							     (uint64_t)t->vec_lanes);
		}
	nb = t->sram_banks + t->acc_banks;
	s->bank = calloc(nb, sizeof *s->bank);
	s->bank_bytes = calloc(nb, sizeof *s->bank_bytes);
	s->btouch = calloc(nb, sizeof *s->btouch);
	s->chan_free = calloc(t->dram_channels, sizeof *s->chan_free);
	s->chan_bytes = calloc(t->dram_channels, sizeof *s->chan_bytes);
	if (!s->v || !s->vocc || !s->bank || !s->bank_bytes || !s->btouch || !s->chan_free ||
	    !s->chan_bytes) {
		npu_errf(e, "out of memory");
		goto fail;
	}
	for (int i = 0; i < nb; i++)
		s->bank[i].owner = -1;
	s->sram_bank_sz = sim_ceil_div(s->sram_n ? s->sram_n : 1, t->sram_banks);
	s->acc_bank_sz = sim_ceil_div(s->acc_n ? s->acc_n : 1, t->acc_banks);
	for (int u = 0; u < s->nunits; u++) {
		if (u == NPU_UNIT_SCL)
			continue;
		s->u[u].q = calloc(t->queue_depth, sizeof *s->u[u].q);
		if (!s->u[u].q) {
			npu_errf(e, "out of memory");
			goto fail;
		}
	}
	for (int q = 0; q < NPU_MAX_DMA; q++) {
		s->dma[q].f[NPU_DF_N1] = 1;
		s->dma[q].f[NPU_DF_N2] = 1;
		s->dma[q].f[NPU_DF_IDXW] = 4;
	}
	s->st.nunits = s->nunits;
	if (s->o.check_races && sim_race_new(s) < 0) {
		npu_errf(e, "out of memory");
		goto fail;
	}
	return s;
fail:
	npu_sim_free(s);
	return NULL;
}

void npu_sim_free(npu_sim *s)
{
	if (!s)
		return;
	for (int u = 0; u < NPU_NUNIT; u++) {
		free(s->u[u].q);
		free(s->u[u].iv);
		free(s->u[u].ivx);
	}
	for (int i = 0; i < NPU_NSEM; i++)
		free(s->sem[i].tok);
	sim_race_free(s->race);
	free(s->code);
	free(s->sram);
	free(s->acc);
	free(s->dram);
	free(s->bufsort);
	free(s->bank);
	free(s->bank_bytes);
	free(s->btouch);
	free(s->chan_free);
	free(s->chan_bytes);
	free(s->v);
	free(s->vocc);
	free(s->m.wf);
	free(s->m.wi);
	free(s->m.sf);
	free(s->m.si);
	free(s->sa);
	for (int i = 0; i < SIM_MC_N; i++)
		free(s->mc[i].f);
	free(s->sw);
	free(s->kx);
	free(s->kxmac);
	free(s->kxc);
	free(s->dmas);
	free(s->bins);
	free(s->rec);
	free(s);
}

/* --- semaphores -------------------------------------------------------- */

/* Consumes the earliest token of sem for unit u blocked since `since`. */
static void sem_take(npu_sim *s, sim_unit *u, int ui, int sem, uint64_t since,
		     uint32_t kx)
{
	sim_sem *sm = &s->sem[sem];
	sim_token tk = sm->tok[sm->head++];
	uint64_t resume = sim_max(since, tk.t);
	int state = tk.src >= NPU_UNIT_DMA0 ? NPU_US_DMA_WAIT : NPU_US_DEP_STALL;

	if (sm->head == sm->n)
		sm->head = sm->n = 0;
	if (s->race)
		sim_race_take(s, ui, tk.snap);
	sim_rec(s, u, since, resume, state, kx);
	u->t = sim_max(u->t, resume);
	if (ui == NPU_UNIT_SCL) {
		/* The scalar unit spends its usual cycle on the wait. */
		sim_rec(s, u, u->t, u->t + 1, NPU_US_BUSY, kx);
		u->t += 1;
		u->done = sim_max(u->done, u->t);
	} else if (ui == NPU_UNIT_MXU) {
		s->m.sync = sim_max(s->m.sync, u->t);
	}
	if (kx != SIM_NONE)
		s->kx[kx].end = sim_max(s->kx[kx].end, u->t);
}

void sim_sem_post(npu_sim *s, int sem, uint64_t t, int src, uint32_t snap)
{
	sim_sem *sm = &s->sem[sem];
	size_t i;

	if (sm->head > 64 && sm->head * 2 > sm->n) {
		memmove(sm->tok, sm->tok + sm->head,
			(sm->n - sm->head) * sizeof *sm->tok);
		sm->n -= sm->head;
		sm->head = 0;
	}
	if (sim_grow((void **)&sm->tok, &sm->cap, sm->n + 1, sizeof *sm->tok) < 0) {
		s->oom = 1;
		return;
	}
	/* Keep tokens sorted by time; they nearly always arrive in order. */
	i = sm->n++;
	while (i > sm->head && sm->tok[i - 1].t > t) {
		sm->tok[i] = sm->tok[i - 1];
		i--;
	}
	sm->tok[i] = (sim_token){ t, src, snap };
	s->sched_end = 0; /* a woken unit may now come first */
	/* Wake waiters, earliest first. */
	while (sm->n > sm->head) {
		int w = -1;
		for (int u = 0; u < s->nunits; u++)
			if (s->u[u].blocked == BLK_SEM && s->u[u].bsem == sem &&
			    (w < 0 || s->u[u].bsince < s->u[w].bsince))
				w = u;
		if (w < 0)
			break;
		s->u[w].blocked = BLK_NONE;
		sem_take(s, &s->u[w], w, sem, s->u[w].bsince, s->u[w].bkx);
		if (w != NPU_UNIT_SCL)
			sim_ready(s, w); /* after its time moved */
	}
}

/*
 * sig/wait in unit ui's stream at t0.  Returns 0; a wait with no token
 * blocks the unit.
 */
void sim_sync_exec(npu_sim *s, int ui, const sim_insn *in, uint32_t pc,
		   uint32_t kx, uint64_t t0)
{
	sim_unit *u = &s->u[ui];

	u->t = sim_max(u->t, t0);
	if (in->op == NPU_OP_SIG) {
		uint64_t t = sim_max(t0, u->done);
		if (ui == NPU_UNIT_SCL) {
			sim_rec(s, u, t0, t0 + 1, NPU_US_BUSY, kx);
			u->t = t0 + 1;
			u->done = sim_max(u->done, u->t);
			t = t0;
		}
		if (ui == NPU_UNIT_MXU)
			s->m.sync = sim_max(s->m.sync, t0);
		sim_done(s, u, kx, t);
		sim_sem_post(s, in->b, t, ui, s->race ? sim_race_sig(s, ui) : 0);
		return;
	}
	if (s->sem[in->b].n > s->sem[in->b].head) {
		sem_take(s, u, ui, in->b, t0, kx);
		return;
	}
	u->blocked = BLK_SEM;
	u->bsem = in->b;
	u->bsince = t0;
	u->bpc = pc;
	u->bkx = kx;
	if (ui != NPU_UNIT_SCL)
		sim_ready(s, ui);
}

static int deadlock(npu_sim *s)
{
	for (int u = 0; u < s->nunits; u++) {
		sim_unit *un = &s->u[u];
		if (un->blocked == BLK_SEM)
			return sim_fault(s, u, un->bpc, un->bsince,
					 "deadlock: waits on s%d, which no unit "
					 "will signal", un->bsem);
	}
	for (int u = 0; u < s->nunits; u++)
		if (s->u[u].blocked)
			return sim_fault(s, u, s->pc, s->u[u].bsince,
					 "deadlock: waits for a queue that never drains");
	return 0;
}

int npu_sim_run(npu_sim *s, npu_err *e)
{
	uint64_t maxc = s->o.max_cycles;
	int rc;

	if (s->ran)
		return npu_errf(e, "a simulator runs once");
	s->ran = 1;
	s->err = e;
	for (;;) {
		uint64_t bt;
		sim_unit *sc = &s->u[NPU_UNIT_SCL];
		/* The earliest ready unit other than the scalar one ... */
		int best = sim_pick(s, &bt);

		/* ... unless the scalar unit comes first (it wins ties). */
		if (!s->halted && !sc->blocked && sc->t <= bt) {
			if (sc->t > maxc) {
				sim_fault(s, NPU_UNIT_SCL, s->pc, sc->t,
					  "the run exceeds the cycle limit (%llu)",
					  (unsigned long long)maxc);
				goto faulted;
			}
			/* It runs while it stays the earliest. */
			s->sched_end = (bt < maxc ? bt : maxc) + 1;
			rc = sim_scalar_step(s);
		} else if (best < 0) {
			break;
		} else {
			if (bt > maxc) {
				sim_fault(s, best, s->u[best].q[s->u[best].qhead].pc, bt,
					  "the run exceeds the cycle limit (%llu)",
					  (unsigned long long)maxc);
				goto faulted;
			}
			rc = sim_unit_step(s, best, bt);
		}
		if (rc < 0)
			goto faulted;
		if (s->oom)
			return npu_errf(e, "out of memory");
		sim_stream_tick(s);
	}
	if (deadlock(s) < 0)
		goto faulted;
	if (sim_stats_finish(s) < 0)
		return npu_errf(e, "out of memory");
	if (s->st.total_cycles > maxc) {
		sim_fault(s, NPU_UNIT_SCL, -1, s->st.total_cycles,
			  "the run exceeds the cycle limit (%llu)",
			  (unsigned long long)maxc);
		return NPU_SIM_FAULT;
	}
	return 0;
faulted:
	if (s->oom)
		return npu_errf(e, "out of memory");
	sim_stats_finish(s);
	return NPU_SIM_FAULT;
}

/* --- accessors --------------------------------------------------------- */

uint8_t *npu_sim_buf_data(npu_sim *s, int i)
{
	uint64_t a;

	if (i < 0 || (uint32_t)i >= s->p->nbufs)
		return NULL;
	a = s->p->bufs[i].addr;
	if (a >= NPU_SRAM_APERTURE)
		return s->sram + (a - NPU_SRAM_APERTURE);
	return s->dram + a;
}

uint8_t *npu_sim_local(npu_sim *s, uint64_t addr, uint64_t n)
{
	return sim_local(s, addr, n);
}

int64_t npu_sim_xreg(const npu_sim *s, int r)
{
	return r >= 0 && r < NPU_NXREG ? s->x[r] : 0;
}

const float *npu_sim_vreg(const npu_sim *s, int r)
{
	return r >= 0 && r < NPU_NVREG ? s->v + (size_t)r * s->vlen : NULL;
}

const npu_sim_stats *npu_sim_stats_get(const npu_sim *s)
{
	return &s->st;
}

const npu_sim_fault *npu_sim_fault_info(const npu_sim *s)
{
	return s->faulted ? &s->fault : NULL;
}

size_t npu_sim_kexecs(const npu_sim *s, const npu_trace_kernel **out)
{
	*out = s->kx;
	return s->nkx;
}

size_t npu_sim_dmas(const npu_sim *s, const npu_trace_dma **out)
{
	*out = s->dmas;
	return s->ndmas;
}
