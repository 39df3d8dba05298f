/*
 * kir.c - the kernel IR: construction helpers, the support table and the
 * printer (--dump-ir-after=fuse|tile).
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/kir.h"
#include "isa/isa.h"

static const char *const kkind_names[NPU_NKK] = { "ew", "row", "mm", "host",
						    "gather", "pool", "int" };

const char *npu_kkind_name(int k)
{
	return k >= 0 && k < NPU_NKK ? kkind_names[k] : "?";
}

int npu_support_kind(int aop)
{
	switch (aop) {
#define NPU_SUPPORT(aop, how, note) case NPU_AOP_##aop: return NPU_LK_##how;
#include "compiler/support.def"
#undef NPU_SUPPORT
	default:
		return NPU_LK_HOST;
	}
}

int npu_kir_isint(int dt)
{
	return dt == NPU_DT_I8 || dt == NPU_DT_U8 || dt == NPU_DT_I16 ||
	       dt == NPU_DT_I32;
}

const char *npu_lowkind_name(int lk)
{
	static const char *const n[] = { "ew", "row", "row", "mm", "view",
					 "const", "conv", "ew", "gather", "ew",
					 "ew", "ew", "view", "ew", "host" };
	return lk >= 0 && lk <= NPU_LK_HOST ? n[lk] : "?";
}

static int grow(void **p, int *cap, int n, size_t sz)
{
	void *q;
	int nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	if (!(q = realloc(*p, (size_t)nc * sz)))
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

void npu_kir_contig(int ndim, const int64_t *shape, int64_t *stride)
{
	int64_t s = 1;

	for (int d = ndim - 1; d >= 0; d--) {
		stride[d] = s;
		s *= shape[d];
	}
}

int64_t npu_kir_numel(int ndim, const int64_t *shape)
{
	int64_t n = 1;

	for (int d = 0; d < ndim; d++)
		n *= shape[d];
	return n;
}

uint64_t npu_kval_bytes(const npu_kval *v)
{
	return (uint64_t)npu_kir_numel(v->ndim, v->shape) *
	       (uint64_t)npu_dtype_size(v->dtype);
}

int npu_kir_val(npu_kir *ir, const char *name, int node, int dtype,
		int ndim, const int64_t *shape)
{
	npu_kval *v;
	int64_t sh[NPU_MAX_DIMS];
	char *nm;

	/* name and shape may point into ir->v, which grow() moves */
	if (ndim < 0 || ndim > NPU_MAX_DIMS || !(nm = strdup(name)))
		return -1;
	memcpy(sh, shape, (size_t)ndim * sizeof *shape);
	shape = sh;
	if (grow((void **)&ir->v, &ir->capv, ir->nv, sizeof *ir->v) < 0) {
		free(nm);
		return -1;
	}
	v = &ir->v[ir->nv];
	memset(v, 0, sizeof *v);
	v->name = nm;
	v->node = node;
	v->dtype = dtype;
	v->ndim = ndim;
	memcpy(v->shape, shape, (size_t)ndim * sizeof *shape);
	npu_kir_contig(ndim, shape, v->stride);
	v->root = -1;
	v->kind = NPU_BUF_SCRATCH;
	v->producer = -1;
	v->xdef = -1;
	v->buf = -1;
	v->outidx = -1;
	v->lastk = -1;
	return ir->nv++;
}

int npu_kir_kern(npu_kir *ir, int kind, const char *name)
{
	npu_kern *k;

	if (grow((void **)&ir->k, &ir->capk, ir->nk, sizeof *ir->k) < 0)
		return -1;
	k = &ir->k[ir->nk];
	memset(k, 0, sizeof *k);
	if (!(k->name = strdup(name)))
		return -1;
	k->kind = kind;
	k->mm_a = k->mm_b = k->mm_alo = k->mm_blo = -1;
	k->hnode = -1;
	k->mm_passes = 1;
	return ir->nk++;
}

int npu_kir_opnd(npu_kern *k, int val, int out, int64_t off,
		 const int64_t *stride)
{
	npu_kopnd *o;

	if (!(k->nops & 7)) {
		o = realloc(k->ops, (size_t)(k->nops + 8) * sizeof *o);
		if (!o)
			return -1;
		k->ops = o;
	}
	o = &k->ops[k->nops];
	memset(o, 0, sizeof *o);
	o->val = val;
	o->out = out;
	o->off = off;
	if (stride)
		memcpy(o->stride, stride, sizeof o->stride);
	return k->nops++;
}

int npu_kir_x(npu_kern *k, npu_xins x)
{
	npu_xins *p;

	if (!(k->nx & 31)) {
		p = realloc(k->x, (size_t)(k->nx + 32) * sizeof *p);
		if (!p)
			return -1;
		k->x = p;
	}
	k->x[k->nx] = x;
	return k->nx++;
}

int npu_kir_addnode(npu_kern *k, int node)
{
	int *p;

	for (int i = 0; i < k->nnodes; i++)
		if (k->nodes[i] == node)
			return 0;
	if (!(p = realloc(k->nodes, (size_t)(k->nnodes + 1) * sizeof *p)))
		return -1;
	k->nodes = p;
	k->nodes[k->nnodes++] = node;
	return 0;
}

void npu_kir_decide(npu_kir *ir, int fused, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (grow((void **)&ir->d, &ir->capd, ir->nd, sizeof *ir->d) < 0)
		return;
	ir->d[ir->nd].fused = fused;
	if ((ir->d[ir->nd].what = strdup(buf)))
		ir->nd++;
}

void npu_kir_free(npu_kir *ir)
{
	for (int i = 0; i < ir->nv; i++) {
		free(ir->v[i].name);
		free(ir->v[i].cown);
	}
	for (int i = 0; i < ir->nk; i++) {
		npu_kern *k = &ir->k[i];
		free(k->name);
		free(k->nodes);
		free(k->ops);
		free(k->x);
		free(k->hin);
		free(k->hout);
		free(k->hattrs);
		free(k->hreason);
	}
	for (int i = 0; i < ir->nd; i++)
		free(ir->d[i].what);
	if (ir->nodevals && ir->g)
		for (int i = 0; i < ir->g->nnodes; i++)
			free(ir->nodevals[i]);
	free(ir->nodevals);
	free(ir->d);
	free(ir->pre);
	free(ir->v);
	free(ir->k);
	free(ir->nodeval);
	free(ir->outs);
	memset(ir, 0, sizeof *ir);
}

static void print_shape(FILE *f, int ndim, const int64_t *s)
{
	fputc('[', f);
	for (int d = 0; d < ndim; d++)
		fprintf(f, "%s%lld", d ? "," : "", (long long)s[d]);
	fputc(']', f);
}

static const char *xop_names[NPU_NXOP] = {
	"load", "const", "acc", "un", "bin", "bini", "sel", "rnd", "store",
	"red", "rfin", "loop", "endloop"
};

static void print_x(const npu_kern *k, int i, FILE *f)
{
	const npu_xins *x = &k->x[i];
	const char *mn = npu_optab[x->vop & 0xff].mnemonic;

	fprintf(f, "      %%%d = %s", i, xop_names[x->op]);
	switch (x->op) {
	case NPU_X_LOAD: fprintf(f, " op%d", x->a); break;
	case NPU_X_ACC: if (x->a) fputs(" up", f); break; /* mm_glu's half */
	case NPU_X_CONST: fprintf(f, " %g", x->imm); break;
	case NPU_X_UN: fprintf(f, " %s %%%d", mn, x->a); break;
	case NPU_X_BIN: fprintf(f, " %s %%%d, %%%d", mn, x->a, x->b); break;
	case NPU_X_BINI: fprintf(f, " %s %%%d, %g", mn, x->a, x->imm); break;
	case NPU_X_SEL: fprintf(f, " %%%d ? %%%d : %%%d", x->a, x->b, x->c); break;
	case NPU_X_RND: fprintf(f, " %%%d, %s", x->a, npu_dtype_name(x->dtype)); break;
	case NPU_X_STORE: fprintf(f, " op%d <- %%%d", x->b, x->a); break;
	case NPU_X_RED: fprintf(f, " %s %%%d", mn, x->a); break;
	case NPU_X_RFIN: fprintf(f, " %%%d", x->a); break;
	default: break;
	}
	fputc('\n', f);
}

void npu_kir_print(const npu_kir *ir, FILE *f)
{
	for (int i = 0; i < ir->nk; i++) {
		const npu_kern *k = &ir->k[i];

		fprintf(f, "kernel %d %s (%s) space ", i, k->name,
			npu_kkind_name(k->kind));
		print_shape(f, k->ndim, k->shape);
		fprintf(f, " nodes:");
		for (int j = 0; j < k->nnodes; j++)
			fprintf(f, " %s", ir->g->nodes[k->nodes[j]].name);
		fputc('\n', f);
		if (k->kind == NPU_KK_MM)
			fprintf(f, "    mm batch %lld M %lld N %lld K %lld type %s passes %d\n",
				(long long)k->mm_batch, (long long)k->mm_m,
				(long long)k->mm_n, (long long)k->mm_k,
				npu_dtype_name(k->mm_dtype), k->mm_passes);
		if (k->kind == NPU_KK_MM && k->mm_glu)
			fprintf(f, "    gated: blocks of %lld gate and %lld up columns\n",
				(long long)k->mm_glu, (long long)k->mm_glu);
		if (k->kind == NPU_KK_HOST)
			fprintf(f, "    host %s: %s\n", k->hattrs ? k->hattrs : "",
				k->hreason ? k->hreason : "");
		for (int j = 0; j < k->nops; j++) {
			const npu_kopnd *o = &k->ops[j];
			const npu_kval *v = &ir->v[o->val];
			fprintf(f, "    op%d %s %s %s", j, o->out ? "out" : "in",
				v->name, npu_dtype_name(v->dtype));
			print_shape(f, v->ndim, v->shape);
			fprintf(f, " off %lld strides ", (long long)o->off);
			print_shape(f, k->ndim, o->stride);
			if (o->kseg)
				fprintf(f, " kseg %lld kstride %lld", (long long)o->kseg,
					(long long)o->kstride);
			fputc('\n', f);
		}
		for (int j = 0; j < k->nhin; j++)
			fprintf(f, "    in %s\n", ir->v[k->hin[j]].name);
		for (int j = 0; j < k->nhout; j++)
			fprintf(f, "    out %s\n", ir->v[k->hout[j]].name);
		for (int j = 0; j < k->nx; j++)
			print_x(k, j, f);
		if (k->cost > 0)
			fprintf(f, "    tile m %lld c %lld n %lld k %lld bufs %d order %d; cost %.0f cycles, DRAM %llu bytes\n",
				(long long)k->kn.tile_m, (long long)k->kn.tile_c,
				(long long)k->kn.tile_n, (long long)k->kn.tile_k,
				k->kn.bufs, k->kn.loop_order, k->cost,
				(unsigned long long)k->dram_bytes);
	}
}
