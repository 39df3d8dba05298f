/*
 * regalloc.c - linear-scan register allocation of a kernel's instruction
 * stream (Poletto and Sarkar), for the scalar and the vector file apart.
 *
 * Live intervals run from a register's first to its last mention in
 * program order; a register live into a loop (the target of a backward
 * branch) stays live to the loop's end, since the next iteration reads
 * it again.  When no register is free the interval that ends last is
 * spilled as a whole: each of its definitions is stored to an SRAM slot
 * right after the instruction and each use is reloaded right before,
 * through registers reserved for that (three per file, enough for the
 * widest instruction).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/mir.h"

#define NTEMP 3

typedef struct ival {
	int reg, cls;        /* virtual register, 0 scalar / 1 vector */
	int start, end;
	int phys;            /* -1 when spilled */
	int64_t slot;        /* spill address */
} ival;

static int cmp_start(const void *a, const void *b)
{
	const ival *x = *(ival *const *)a, *y = *(ival *const *)b;

	return x->start != y->start ? (x->start < y->start ? -1 : 1)
				    : (x->reg < y->reg ? -1 : x->reg > y->reg);
}

static int scan(ival **iv, int n, int nphys, int cls, int64_t *spill_next,
		uint64_t spill_end, int vlen, int *nspill, npu_err *e)
{
	ival **active = malloc((size_t)(n + 1) * sizeof *active);
	ival **spilled = malloc((size_t)(n + 1) * sizeof *spilled);
	int nsp = 0;
	int na = 0, *freep = malloc((size_t)(nphys + 1) * sizeof *freep), nf = 0;
	int first = cls ? 0 : 1; /* x0 is not allocatable */
	int64_t slotsz = cls ? (int64_t)vlen * 4 : 8;

	if (!active || !freep || !spilled) {
		free(active);
		free(freep);
		free(spilled);
		return npu_errf(e, "out of memory");
	}
	for (int p = first + nphys - 1; p >= first; p--)
		freep[nf++] = p;
	for (int i = 0; i < n; i++) {
		ival *cur = iv[i];
		/* expire */
		for (int j = 0; j < na;) {
			if (active[j]->end < cur->start) {
				freep[nf++] = active[j]->phys;
				active[j] = active[--na];
			} else {
				j++;
			}
		}
		if (nf) {
			cur->phys = freep[--nf];
			active[na++] = cur;
			continue;
		}
		/* spill the interval that ends last */
		int far = -1;
		for (int j = 0; j < na; j++)
			if (far < 0 || active[j]->end > active[far]->end)
				far = j;
		ival *victim = cur;
		if (far >= 0 && active[far]->end > cur->end) {
			victim = active[far];
			cur->phys = victim->phys;
			active[far] = cur;
		}
		victim->phys = -1;
		(*nspill)++;
		/* a slot whose spilled interval ended before this one starts
		 * is free again (long unrolled bodies spill many short values) */
		int reuse = -1;
		for (int j = 0; j < nsp && reuse < 0; j++)
			if (spilled[j]->end < victim->start)
				reuse = j;
		if (reuse >= 0) {
			victim->slot = spilled[reuse]->slot;
			spilled[reuse] = victim;
			continue;
		}
		if ((uint64_t)(*spill_next + slotsz) > spill_end) {
			free(active);
			free(freep);
			free(spilled);
			return npu_errf(e, "register spills need more than the %llu bytes of spill space",
					(unsigned long long)spill_end);
		}
		victim->slot = *spill_next;
		*spill_next += slotsz;
		spilled[nsp++] = victim;
	}
	free(active);
	free(freep);
	free(spilled);
	return 0;
}

/* A back edge: the branch at `at` to the loop head at `head`. */
typedef struct bedge {
	int head, at;
} bedge;

static int cmp_head(const void *a, const void *b)
{
	const bedge *x = a, *y = b;
	return (x->head > y->head) - (x->head < y->head);
}

/*
 * Extends every interval live into a loop to the loop's back edge: an
 * interval [s, e] that a loop [L, i] enters (s < L <= e < i) ends at i,
 * repeated until no loop extends one (nested and chained loops).  The
 * back edges sorted by head, with a table of the latest branch over
 * every power-of-two run of them, answer "the latest back edge of the
 * loops whose heads lie in (s, e]" in constant time, so the cost is the
 * intervals' count times the few extensions each takes, not that times
 * the back edges (a 1-d convolution's kernels over 1500 positions spent
 * 25 s here).  The fixpoint is the same least one as extending by one
 * loop at a time.
 */
static int loop_ends(const npu_mfunc *f, ival **iv, const int *nreg, npu_err *e)
{
	bedge *be = NULL;
	int **mx = NULL, nb = 0, lg = 0, rc = -1;

	for (int i = 0; i < f->n; i++)
		nb += f->v[i].label >= 0 && f->lab[f->v[i].label] <= i;
	if (!nb)
		return 0;
	while ((1 << (lg + 1)) <= nb)
		lg++;
	if (!(be = malloc((size_t)nb * sizeof *be)) ||
	    !(mx = calloc((size_t)lg + 1, sizeof *mx)))
		goto oom;
	nb = 0;
	for (int i = 0; i < f->n; i++) {
		int l = f->v[i].label;
		if (l >= 0 && f->lab[l] <= i)
			be[nb++] = (bedge){ f->lab[l], i };
	}
	qsort(be, (size_t)nb, sizeof *be, cmp_head);
	for (int j = 0; j <= lg; j++) {
		if (!(mx[j] = malloc((size_t)nb * sizeof **mx)))
			goto oom;
		for (int a = 0; a + (1 << j) <= nb; a++)
			mx[j][a] = j == 0 ? be[a].at : mx[j - 1][a] > mx[j - 1][a + (1 << (j - 1))] ?
				   mx[j - 1][a] : mx[j - 1][a + (1 << (j - 1))];
	}
	for (int c = 0; c < 2; c++)
		for (int r = 0; r < nreg[c]; r++) {
			ival *v = &iv[c][r];
			int lo = 0, hi, n;
			if (v->start < 0)
				continue;
			/* the first loop whose head is after the start */
			for (int b = nb; b > 0; b /= 2)
				while (lo + b <= nb && be[lo + b - 1].head <= v->start)
					lo += b;
			for (hi = lo;;) {
				int j = 0, m;
				/* past the last loop whose head is at most the end */
				for (int b = nb; b > 0; b /= 2)
					while (hi + b <= nb && be[hi + b - 1].head <= v->end)
						hi += b;
				if (hi <= lo)
					break;
				n = hi - lo;
				while ((1 << (j + 1)) <= n)
					j++;
				m = mx[j][lo] > mx[j][hi - (1 << j)] ? mx[j][lo] : mx[j][hi - (1 << j)];
				if (m <= v->end)
					break;
				v->end = m;
			}
		}
	rc = 0;
	goto done;
oom:
	npu_errf(e, "out of memory");
done:
	if (mx)
		for (int j = 0; j <= lg; j++)
			free(mx[j]);
	free(mx);
	free(be);
	return rc;
}

int npu_regalloc(npu_mfunc *f, const npu_ra_opts *o, npu_err *e)
{
	int nreg[2] = { f->nx + 1, f->nv };
	ival *iv[2] = { NULL, NULL }, **ord[2] = { NULL, NULL };
	int nord[2] = { 0, 0 }, rc = -1;
	int64_t spill_next = (int64_t)o->spill_base;
	npu_minsn *out = NULL;
	int *map = NULL, nout = 0, capout;
	npu_mopd r[4];

	if (o->nxr < 4 || o->nxr > 31 - NTEMP || o->nvr < 2 || o->nvr > 32 - NTEMP)
		return npu_errf(e, "register budget out of range (scalar 4..%d, vector 2..%d)",
				31 - NTEMP, 32 - NTEMP);
	for (int c = 0; c < 2; c++) {
		iv[c] = malloc((size_t)(nreg[c] + 1) * sizeof *iv[c]);
		ord[c] = malloc((size_t)(nreg[c] + 1) * sizeof *ord[c]);
		if (!iv[c] || !ord[c]) {
			npu_errf(e, "out of memory");
			goto out;
		}
		for (int i = 0; i < nreg[c]; i++)
			iv[c][i] = (ival){ .reg = i, .cls = c, .start = -1,
					   .end = -1, .phys = -1 };
	}
	for (int i = 0; i < f->n; i++) {
		int n = npu_mopds(&f->v[i], r);
		for (int k = 0; k < n; k++) {
			ival *v = &iv[r[k].cls][f->v[i].f[r[k].fld]];
			if (v->start < 0)
				v->start = i;
			v->end = i;
		}
	}
	/* loops: live into a loop means live to its back edge */
	if (loop_ends(f, iv, nreg, e) < 0)
		goto out;
	for (int c = 0; c < 2; c++) {
		for (int j = 0; j < nreg[c]; j++)
			if (iv[c][j].start >= 0 && !(c == 0 && j == 0))
				ord[c][nord[c]++] = &iv[c][j];
		qsort(ord[c], (size_t)nord[c], sizeof *ord[c], cmp_start);
		if (scan(ord[c], nord[c], c ? o->nvr : o->nxr, c, &spill_next,
			 o->spill_base + o->spill_bytes, o->vlen, &f->spills, e) < 0)
			goto out;
	}
	/* rewrite, with spill code */
	capout = f->n + 16;
	out = malloc((size_t)capout * sizeof *out);
	map = malloc((size_t)(f->n + 1) * sizeof *map);
	if (!out || !map) {
		npu_errf(e, "out of memory");
		goto out;
	}
	for (int i = 0; i < f->n; i++) {
		npu_minsn m = f->v[i], ld[4], st[4];
		int nld = 0, nst = 0, tmp[2] = { 0, 0 };
		int n = npu_mopds(&m, r);
		for (int k = 0; k < n; k++) {
			ival *v = &iv[r[k].cls][f->v[i].f[r[k].fld]];
			int c = r[k].cls;
			if (v->phys >= 0) {
				m.f[r[k].fld] = v->phys;
				continue;
			}
			int t = c ? 32 - NTEMP + tmp[c] : 32 - NTEMP + tmp[c];
			/* the same spilled register twice uses one temp */
			for (int q = 0; q < k; q++)
				if (r[q].cls == c && f->v[i].f[r[q].fld] == f->v[i].f[r[k].fld])
					t = m.f[r[q].fld];
			if (t == 32 - NTEMP + tmp[c])
				tmp[c]++;
			m.f[r[k].fld] = t;
			npu_minsn s = { .label = -1, .node = m.node };
			if (r[k].rd) {
				s.op = c ? NPU_OP_VLD : NPU_OP_LD;
				s.f[0] = t;
				s.f[1] = 0;
				if (c) {
					s.f[2] = NPU_DT_F32;
					s.imm = (int32_t)v->slot;
				} else {
					s.imm = (int32_t)v->slot;
				}
				ld[nld++] = s;
			}
			if (r[k].wr) {
				s.op = c ? NPU_OP_VST : NPU_OP_ST;
				s.f[0] = t;
				s.f[1] = 0;
				s.f[2] = c ? NPU_DT_F32 : 0;
				s.imm = (int32_t)v->slot;
				st[nst++] = s;
			}
		}
		if (nout + nld + nst + 1 > capout) {
			capout = (nout + nld + nst + 1) * 2;
			npu_minsn *p = realloc(out, (size_t)capout * sizeof *p);
			if (!p) {
				npu_errf(e, "out of memory");
				goto out;
			}
			out = p;
		}
		map[i] = nout;
		for (int k = 0; k < nld; k++)
			out[nout++] = ld[k];
		out[nout++] = m;
		for (int k = 0; k < nst; k++)
			out[nout++] = st[k];
	}
	map[f->n] = nout;
	for (int l = 0; l < f->nlab; l++)
		if (f->lab[l] >= 0)
			f->lab[l] = map[f->lab[l]];
	free(f->v);
	f->v = out;
	f->n = f->cap = nout;
	if (!nout)
		f->cap = 0;
	out = NULL;
	f->allocated = 1;
	rc = 0;
out:
	free(out);
	free(map);
	for (int c = 0; c < 2; c++) {
		free(iv[c]);
		free(ord[c]);
	}
	return rc;
}
