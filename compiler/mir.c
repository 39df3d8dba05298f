/*
 * mir.c - building and printing the virtual-register instruction stream.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/mir.h"

void npu_mfunc_free(npu_mfunc *f)
{
	free(f->v);
	free(f->lab);
	memset(f, 0, sizeof *f);
}

int npu_mx(npu_mfunc *f)
{
	return ++f->nx;
}

int npu_mv(npu_mfunc *f)
{
	return f->nv++;
}

int npu_mlabel(npu_mfunc *f)
{
	if (f->nlab == f->caplab) {
		int nc = f->caplab ? f->caplab * 2 : 16;
		int *p = realloc(f->lab, (size_t)nc * sizeof *p);
		if (!p) {
			f->oom = 1;
			return 0;
		}
		f->lab = p;
		f->caplab = nc;
	}
	f->lab[f->nlab] = -1;
	return f->nlab++;
}

void npu_mbind(npu_mfunc *f, int label)
{
	if (label >= 0 && label < f->nlab)
		f->lab[label] = f->n;
}

static npu_minsn *slot(npu_mfunc *f)
{
	if (f->n == f->cap) {
		int nc = f->cap ? f->cap * 2 : 256;
		npu_minsn *p = realloc(f->v, (size_t)nc * sizeof *p);
		if (!p) {
			f->oom = 1;
			return NULL;
		}
		f->v = p;
		f->cap = nc;
	}
	return &f->v[f->n];
}

int npu_memit(npu_mfunc *f, int op, int a, int b, int c, int64_t imm)
{
	npu_minsn *m = slot(f);

	if (!m)
		return -1;
	m->op = op;
	m->f[0] = a;
	m->f[1] = b;
	m->f[2] = c;
	m->imm = (int32_t)imm;
	m->label = -1;
	m->node = f->node;
	return f->n++;
}

npu_insn npu_minsn_insn(const npu_minsn *m)
{
	npu_insn in = { .op = (uint8_t)m->op, .a = (uint8_t)m->f[0],
			.b = (uint8_t)m->f[1], .c = (uint8_t)m->f[2],
			.imm = m->imm };
	return in;
}

int npu_memit_br(npu_mfunc *f, int op, int a, int b, int label)
{
	int i = npu_memit(f, op, a, b, 0, 0);

	if (i >= 0)
		f->v[i].label = label;
	return i;
}

void npu_mli(npu_mfunc *f, int xr, int64_t v)
{
	npu_memit(f, NPU_OP_LI, xr, 0, 0, (int32_t)(uint32_t)v);
	if (v != (int64_t)(int32_t)v)
		npu_memit(f, NPU_OP_LIH, xr, 0, 0,
			  (int32_t)(uint32_t)((uint64_t)v >> 32));
}

int64_t npu_mfimm(float x)
{
	uint32_t u;

	memcpy(&u, &x, sizeof u);
	return (int32_t)u;
}

int npu_mopds(const npu_minsn *m, npu_mopd *r)
{
	const npu_opinfo *oi = &npu_optab[m->op & 0xff];
	const npu_fmtinfo *fi = &npu_fmttab[oi->fmt];
	int n = 0;

	for (int k = 0; k < fi->nopd; k++) {
		const npu_operand *o = &fi->opd[k];
		if (o->kind != NPU_K_X && o->kind != NPU_K_V)
			continue;
		if (o->kind == NPU_K_X && m->f[o->field] == 0)
			continue; /* x0 */
		r[n].fld = o->field;
		r[n].cls = o->kind == NPU_K_V;
		r[n].wr = o->field == NPU_F_A && (oi->flags & NPU_WA);
		r[n].rd = !r[n].wr || (oi->flags & NPU_RA);
		n++;
	}
	return n;
}

/* Does m do nothing but write register A?  setvl also sets vl, a branch
 * moves the pc; loads only read (a dead one cannot fault usefully). */
static int pure(const npu_minsn *m)
{
	int fl = npu_optab[m->op & 0xff].flags;

	return (fl & NPU_WA) && !(fl & (NPU_BR | NPU_END)) &&
	       m->op != NPU_OP_SETVL;
}

/* Marks the registers m reads as needed; 1 if one was not yet. */
static int need_reads(const npu_minsn *m, char *nx, char *nv)
{
	npu_mopd r[4];
	int n = npu_mopds(m, r), grew = 0;

	for (int k = 0; k < n; k++) {
		char *p = r[k].cls ? &nv[m->f[r[k].fld]] : &nx[m->f[r[k].fld]];
		if (r[k].rd && !*p)
			*p = grew = 1;
	}
	return grew;
}

/* Is m kept: not a nop, and with an effect or a needed result? */
static int kept(const npu_minsn *m, const char *nx, const char *nv)
{
	if (m->op == NPU_OP_NOP)
		return 0;
	if (!pure(m))
		return 1;
	/* a pure instruction's first operand is the register it writes */
	if (npu_fmttab[npu_optab[m->op & 0xff].fmt].opd[0].kind == NPU_K_V)
		return nv[m->f[0]];
	return m->f[0] != 0 && nx[m->f[0]];
}

int npu_mfunc_dce(npu_mfunc *f)
{
	char *nx = NULL, *nv = NULL;
	int *at = NULL, grew = 1, n = 0, removed = -1;

	if (f->allocated)
		return 0;
	nx = calloc((size_t)f->nx + 1, 1);
	nv = calloc((size_t)f->nv + 1, 1);
	at = malloc(((size_t)f->n + 1) * sizeof *at);
	if (!nx || !nv || !at)
		goto out;
	while (grew) {
		grew = 0;
		for (int i = 0; i < f->n; i++)
			if (kept(&f->v[i], nx, nv))
				grew |= need_reads(&f->v[i], nx, nv);
	}
	for (int i = 0; i < f->n; i++) {
		at[i] = n;
		if (kept(&f->v[i], nx, nv))
			f->v[n++] = f->v[i];
	}
	at[f->n] = n;
	for (int l = 0; l < f->nlab; l++)
		if (f->lab[l] >= 0)
			f->lab[l] = at[f->lab[l]];
	removed = f->n - n;
	f->n = n;
out:
	free(nx);
	free(nv);
	free(at);
	return removed;
}

/* Operand value of m for field fld (A, B, C or IMM). */
static int64_t mopd(const npu_minsn *m, int fld)
{
	return fld == NPU_F_IMM ? m->imm : m->f[fld];
}

void npu_mfunc_print(const npu_mfunc *f, FILE *out)
{
	char buf[128];

	for (int i = 0; i < f->n; i++) {
		const npu_minsn *m = &f->v[i];
		const npu_opinfo *oi = &npu_optab[m->op & 0xff];
		const npu_fmtinfo *fi = &npu_fmttab[oi->fmt];

		for (int l = 0; l < f->nlab; l++)
			if (f->lab[l] == i)
				fprintf(out, "L%d:\n", l);
		if (f->allocated) {
			npu_insn t = npu_minsn_insn(m);
			if (m->label >= 0)
				t.imm = f->lab[m->label] - i;
			npu_disasm(&t, (uint32_t)i, buf, sizeof buf);
			fprintf(out, "    %s\n", buf);
			continue;
		}
		fprintf(out, "    %s", oi->mnemonic);
		for (int k = 0; k < fi->nopd; k++) {
			const npu_operand *o = &fi->opd[k];
			int64_t v = mopd(m, o->field);
			fputs(k ? ", " : " ", out);
			if (o->kind == NPU_K_X)
				fprintf(out, v ? "%%x%lld" : "x0", (long long)v);
			else if (o->kind == NPU_K_V)
				fprintf(out, "%%v%lld", (long long)v);
			else if (o->kind == NPU_K_L)
				fprintf(out, "L%d", m->label);
			else if (o->kind == NPU_K_F) {
				float x;
				uint32_t u = (uint32_t)m->imm;
				memcpy(&x, &u, sizeof x);
				fprintf(out, "%g", x);
			} else if (o->kind == NPU_K_T)
				fprintf(out, "%s", npu_dtype_name((int)v));
			else if (o->kind == NPU_K_U)
				fprintf(out, "%s", npu_unit_name((int)v));
			else if (o->kind == NPU_K_Q)
				fprintf(out, "dma%lld", (long long)v);
			else if (o->kind == NPU_K_D)
				fprintf(out, "%s", npu_dfield_name((int)v));
			else if (o->kind == NPU_K_S)
				fprintf(out, "s%lld", (long long)v);
			else
				fprintf(out, "%lld", (long long)v);
		}
		fputc('\n', out);
	}
}

int npu_mfunc_finish(npu_mfunc *f, uint32_t base, npu_err *e)
{
	(void)base;
	for (int i = 0; i < f->n; i++) {
		int l = f->v[i].label;
		if (l < 0)
			continue;
		if (l >= f->nlab || f->lab[l] < 0)
			return npu_errf(e, "internal: unbound label L%d", l);
		f->v[i].imm = f->lab[l] - i;
	}
	return 0;
}
