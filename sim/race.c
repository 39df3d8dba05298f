/*
 * race.c - the race check (npu_sim_opts.check_races, `npusim run
 * --check-races`): a fault when two units touch the same local bytes, one
 * of them writing, and no chain of sig/wait orders the two.  The
 * simulator itself always resolves such a pair the same way (in time
 * order), so the values it computes look right; on hardware, or under
 * another target's timing, the other order is as likely.
 *
 * Ordering is kept with vector clocks.  Unit u's clock is vc[u][.]; its
 * own entry vc[u][u] is its epoch, which each sig it makes ends.  A sig's
 * token carries a copy of the signaller's clock, which the wait that takes
 * the token joins into the waiter's.  A queue entry carries the scalar
 * unit's clock at dispatch (by generation: that clock changes only at the
 * scalar unit's own sig and wait), joined into the unit's clock when the
 * entry starts: an instruction dispatched after a wait comes after what
 * the wait waited for.  An access of unit u in its epoch e is ordered
 * before unit v's iff e <= vc[v][u].
 *
 * Per 64-byte line of SRAM and of the accumulator the check keeps the
 * latest write (unit, epoch, bytes, pc) and per unit its latest reads (in
 * one epoch: bytes, pc).  Keeping only the latest can miss a race but
 * never invents one: a write by another unit keeps only its own bytes,
 * reads in a new epoch forget the bytes read in the old one.  DRAM is not
 * checked (kernels hand DRAM over through the scalar unit's waits).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "sim/sim_int.h"

#define LINE 64

typedef struct rmark {
	uint64_t m;          /* bytes of the line */
	uint32_t e;          /* epoch of the access (0: none yet) */
	uint32_t pc;
} rmark;

struct sim_race {
	int nu;
	uint32_t *vc;        /* nu x nu */
	uint32_t *snap;      /* token clocks, nu each; free ones chained */
	uint32_t nsnap, free;
	size_t csnap;        /* (capacities in uint32_t) */
	uint32_t *ghist;     /* scalar clock per generation, nu each */
	uint32_t ngen;
	size_t cghist;
	uint32_t *gen;       /* per unit: generation last joined */
	uint64_t sram_lines, nlines;
	rmark *w;            /* per line: latest write */
	uint8_t *wu;         /* ... its unit */
	rmark *r;            /* per line and unit: latest reads */
};

static uint32_t *clock_of(sim_race *r, int u)
{
	return r->vc + (size_t)u * (size_t)r->nu;
}

static void join(sim_race *r, uint32_t *into, const uint32_t *from)
{
	for (int i = 0; i < r->nu; i++)
		if (into[i] < from[i])
			into[i] = from[i];
}

/* Record i of a growing array of clocks, holding a copy of clock c; NULL
 * when out of memory. */
static uint32_t *keep_clock(sim_race *r, uint32_t **a, size_t *cap, uint32_t i,
			    const uint32_t *c)
{
	if (sim_grow((void **)a, cap, (size_t)(i + 1) * r->nu, sizeof **a) < 0)
		return NULL;
	return memcpy(*a + (size_t)i * r->nu, c, (size_t)r->nu * sizeof **a);
}

/* The scalar unit's clock as a new generation for its dispatches. */
static int new_gen(sim_race *r)
{
	if (!keep_clock(r, &r->ghist, &r->cghist, r->ngen, clock_of(r, NPU_UNIT_SCL)))
		return -1;
	r->ngen++;
	return 0;
}

int sim_race_new(npu_sim *s)
{
	sim_race *r = calloc(1, sizeof *r);
	int nu = s->nunits;

	if (!r)
		return -1;
	s->race = r;
	r->nu = nu;
	r->sram_lines = (s->sram_n + LINE - 1) / LINE;
	r->nlines = r->sram_lines + (s->acc_n + LINE - 1) / LINE;
	r->vc = calloc((size_t)nu * (size_t)nu, sizeof *r->vc);
	r->gen = calloc((size_t)nu, sizeof *r->gen);
	r->w = calloc(r->nlines, sizeof *r->w);
	r->wu = calloc(r->nlines, 1);
	r->r = calloc(r->nlines * (uint64_t)nu, sizeof *r->r);
	if (!r->vc || !r->gen || !r->w || !r->wu || !r->r)
		return -1;
	r->free = UINT32_MAX;
	for (int u = 0; u < nu; u++)
		clock_of(r, u)[u] = 1; /* epoch 0 means "no access" */
	return new_gen(r);
}

void sim_race_free(sim_race *r)
{
	if (!r)
		return;
	free(r->vc);
	free(r->snap);
	free(r->ghist);
	free(r->gen);
	free(r->w);
	free(r->wu);
	free(r->r);
	free(r);
}

/* The generation a dispatch made now carries. */
uint32_t sim_race_gen(const npu_sim *s)
{
	return s->race->ngen - 1;
}

/* Unit ui starts entry e: it comes after what the scalar unit knew. */
void sim_race_enter(npu_sim *s, int ui, const sim_entry *e)
{
	sim_race *r = s->race;

	if (e->gen == r->gen[ui])
		return;
	r->gen[ui] = e->gen;
	join(r, clock_of(r, ui), r->ghist + (size_t)e->gen * r->nu);
}

/* A sig by ui: the token's clock (a snapshot id), and ui's next epoch. */
uint32_t sim_race_sig(npu_sim *s, int ui)
{
	sim_race *r = s->race;
	uint32_t id = r->free;

	if (id != UINT32_MAX)
		r->free = r->snap[(size_t)id * r->nu];
	else
		id = r->nsnap;
	if (!keep_clock(r, &r->snap, &r->csnap, id, clock_of(r, ui))) {
		s->oom = 1;
		return UINT32_MAX;
	}
	if (id == r->nsnap)
		r->nsnap++;
	clock_of(r, ui)[ui]++;
	if (ui == NPU_UNIT_SCL && new_gen(r) < 0)
		s->oom = 1;
	return id;
}

/* A wait by ui took a token with snapshot id. */
void sim_race_take(npu_sim *s, int ui, uint32_t id)
{
	sim_race *r = s->race;

	if (id == UINT32_MAX)
		return;
	join(r, clock_of(r, ui), r->snap + (size_t)id * r->nu);
	r->snap[(size_t)id * r->nu] = r->free;
	r->free = id;
	if (ui == NPU_UNIT_SCL && new_gen(r) < 0)
		s->oom = 1;
}

/* A race with unit other's access at pc opc: a fault at ui's. */
static int race(npu_sim *s, int ui, uint32_t pc, uint64_t t, uint64_t a,
		const char *mine, const char *theirs, int other, uint32_t opc)
{
	char dis[96];

	sim_pc_text(s, opc, dis, sizeof dis);
	return sim_fault(s, ui, pc, t,
			 "race at local address 0x%llx: this %s and the %s by %s "
			 "at pc %u (%s) are not ordered by any sig/wait",
			 (unsigned long long)a, mine, theirs, npu_unit_name(other),
			 opc, dis);
}

/* One line's part [lo, hi) of an access; -1 on a race (a fault). */
static int line_access(npu_sim *s, int ui, uint32_t pc, uint64_t t, uint64_t li,
		       uint64_t a, unsigned lo, unsigned hi, int wr)
{
	sim_race *r = s->race;
	const uint32_t *vc = clock_of(r, ui);
	uint32_t e = vc[ui];
	uint64_t m = (hi - lo == 64 ? ~0ull : ((1ull << (hi - lo)) - 1) << lo);
	rmark *w = &r->w[li], *rd = &r->r[li * (uint64_t)r->nu];
	int wu = r->wu[li];

	if ((w->m & m) && wu != ui && w->e > vc[wu])
		return race(s, ui, pc, t, a, wr ? "write" : "read", "write", wu, w->pc);
	if (!wr) {
		rmark *mine = &rd[ui];
		if (mine->e != e)
			mine->m = 0, mine->e = e;
		mine->m |= m;
		mine->pc = pc;
		return 0;
	}
	for (int u = 0; u < r->nu; u++)
		if (u != ui && (rd[u].m & m) && rd[u].e > vc[u])
			return race(s, ui, pc, t, a, "write", "read", u, rd[u].pc);
	if (wu != ui || w->e != e)
		w->m = 0, w->e = e, r->wu[li] = (uint8_t)ui;
	w->m |= m;
	w->pc = pc;
	return 0;
}

int sim_race_access(npu_sim *s, int ui, uint32_t pc, uint64_t t, uint64_t a,
		    uint64_t n, int wr)
{
	sim_race *r = s->race;
	uint64_t off;

	if (!n)
		return 0;
	if (a < s->sram_n)
		off = a;
	else if (a >= NPU_ACC_BASE && a - NPU_ACC_BASE < s->acc_n)
		off = r->sram_lines * LINE + (a - NPU_ACC_BASE);
	else
		return 0; /* the caller's own check faults */
	for (uint64_t li = off / LINE, end = off + n; li * LINE < end; li++) {
		uint64_t l0 = li * LINE;
		unsigned lo = off > l0 ? (unsigned)(off - l0) : 0;
		unsigned hi = end < l0 + LINE ? (unsigned)(end - l0) : LINE;
		if (line_access(s, ui, pc, t, li, a + (l0 + lo - off), lo, hi, wr) < 0)
			return -1;
	}
	return 0;
}

/* rows accesses of len bytes, stride apart, from a. */
int sim_race_rows(npu_sim *s, int ui, uint32_t pc, uint64_t t, uint64_t a,
		  int64_t stride, int64_t rows, uint64_t len, int wr)
{
	if (stride == (int64_t)len && rows > 0)
		return sim_race_access(s, ui, pc, t, a, len * (uint64_t)rows, wr);
	for (int64_t i = 0; i < rows; i++)
		if (sim_race_access(s, ui, pc, t, a + (uint64_t)(i * stride), len, wr) < 0)
			return -1;
	return 0;
}
