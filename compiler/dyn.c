/*
 * dyn.c - dynamic shapes: the graph specialized to hints, the symbolic
 * buffers and block loops of the program (dyn.h explains the scheme).
 *
 * A symbolic dim is kept as add + coef * s_a * s_b ... (npu_symdim): the
 * forms Dynamo writes for sizes of batch-like dims ("s33", "256*s50",
 * "s0*s1", "s0 + 1").  Only leading dims of a value may be symbolic, and
 * a kernel may be dynamic only where its symbolic dims are the outer rows
 * of its index space: every symbolic buffer it touches is read or written
 * row after row (contiguous across the symbolic dims), every static one
 * is the same for every row (stride 0 there, a weight or a bias), and no
 * reduction crosses rows.  Then a block of B rows (B the rows at the
 * hints) is self-contained, and B-row blocks at successive offsets
 * compute the whole.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/driver.h"
#include "compiler/dyn.h"
#include "compiler/gedit.h"
#include "compiler/ref.h"

/* A parsed symbolic dim: add + coef * product of syms (indexes). */
typedef struct sdim {
	int64_t coef, add;
	int nsyms;
	uint32_t syms[NPU_SYMDIM_MAX];
} sdim;

/* Per value with symbolic leading dims. */
typedef struct dval {
	int lead;                 /* symbolic leading dims (0: static) */
	sdim d[NPU_MAX_DIMS];
	int64_t block;            /* rows at the hints */
	int pending;              /* a scratch value of a symbolic node, its
				     rows those of the kernel that writes it */
} dval;

/* Per kernel with a block loop. */
typedef struct dkern {
	int on;
	int lead;                 /* ew/row: index dims the rows span */
	int64_t block;            /* rows per block */
	uint32_t rows_slot;       /* table entry with the run's rows */
	int n;                    /* symbolic buffers it touches */
	uint64_t lo[64], hi[64];  /* their compile-time DRAM ranges */
	uint32_t slot[64];        /* their table entries (address delta) */
	int64_t step[64];         /* bytes per block */
} dkern;

struct npu_dyn {
	char **name;
	int64_t *hint, *max;
	int nsym;
	dval *val;                /* per kernel IR value */
	int nval;
	dkern *kern;              /* per kernel */
	int nkern;
	uint32_t nsyms_prog;      /* symbols in the program (a prefix) */
	uint64_t symtab;
};

void npu_dyn_free(npu_dyn *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->nsym; i++)
		free(d->name[i]);
	free(d->name);
	free(d->hint);
	free(d->max);
	free(d->val);
	free(d->kern);
	free(d);
}

/* ----------------------------------------------------------------- */
/* Symbols and expressions */

static int sym_find(const npu_dyn *d, const char *s, size_t n)
{
	for (int i = 0; i < d->nsym; i++)
		if (strlen(d->name[i]) == n && !strncmp(d->name[i], s, n))
			return i;
	return -1;
}

static int sym_add(npu_dyn *d, const char *s, size_t n, npu_err *e)
{
	char **nm;
	int64_t *h, *m;

	if (sym_find(d, s, n) >= 0)
		return 0;
	if (d->nsym >= 64)
		return npu_errf(e, "more than 64 symbols");
	nm = realloc(d->name, (size_t)(d->nsym + 1) * sizeof *nm);
	if (nm)
		d->name = nm;
	h = realloc(d->hint, (size_t)(d->nsym + 1) * sizeof *h);
	if (h)
		d->hint = h;
	m = realloc(d->max, (size_t)(d->nsym + 1) * sizeof *m);
	if (m)
		d->max = m;
	if (!nm || !h || !m || !(d->name[d->nsym] = strndup(s, n)))
		return npu_errf(e, "out of memory");
	d->hint[d->nsym] = NPU_DYN_HINT;
	d->max[d->nsym++] = 0;
	return 0;
}

/* Every identifier of an expression is a symbol, but for the names of
 * the functions it calls (Max(s0, 1)). */
static int syms_of(npu_dyn *d, const char *x, npu_err *e)
{
	while (x && *x) {
		if (isalpha((unsigned char)*x) || *x == '_') {
			const char *s = x;
			while (isalnum((unsigned char)*x) || *x == '_')
				x++;
			if (*x != '(' && sym_add(d, s, (size_t)(x - s), e) < 0)
				return -1;
		} else {
			x++;
		}
	}
	return 0;
}

/* "c*s1*s2 + k" and its permutations: terms joined by + or -, at most
 * one of them with symbols (a product of integers and symbols, a symbol
 * perhaps to a power: s1**2). */
static int sdim_parse(const npu_dyn *d, const char *x, sdim *o)
{
	int sign = 1, have = 0;

	memset(o, 0, sizeof *o);
	o->coef = 1;
	for (;;) {
		int64_t c = 1;
		int ns = 0;
		uint32_t sy[NPU_SYMDIM_MAX];
		for (;;) {
			while (isspace((unsigned char)*x))
				x++;
			if (isdigit((unsigned char)*x)) {
				char *end;
				long long v = strtoll(x, &end, 10);
				if (__builtin_mul_overflow(c, (int64_t)v, &c))
					return -1;
				x = end;
			} else if (isalpha((unsigned char)*x) || *x == '_') {
				const char *s = x;
				int i;
				while (isalnum((unsigned char)*x) || *x == '_')
					x++;
				long long pw = 1;
				if ((i = sym_find(d, s, (size_t)(x - s))) < 0)
					return -1;
				if (x[0] == '*' && x[1] == '*') {  /* s0**2 */
					char *end;
					pw = strtoll(x + 2, &end, 10);
					if (end == x + 2 || pw < 1)
						return -1;
					x = end;
				}
				for (long long q = 0; q < pw; q++) {
					if (ns == NPU_SYMDIM_MAX)
						return -1;
					sy[ns++] = (uint32_t)i;
				}
			} else {
				return -1;
			}
			while (isspace((unsigned char)*x))
				x++;
			if (*x != '*' || x[1] == '*')
				break;
			x++;
		}
		if (ns) {
			if (have || sign < 0 || c < 1)
				return -1;
			have = 1;
			o->coef = c;
			o->nsyms = ns;
			memcpy(o->syms, sy, sizeof sy);
		} else {
			o->add += sign * c;
		}
		if (!*x)
			break;
		if (*x != '+' && *x != '-')
			return -1;
		sign = *x++ == '+' ? 1 : -1;
	}
	return have && o->add >= 0 ? 0 : -1;
}

static void sdim_str(const npu_dyn *d, const sdim *s, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = '\0';
	if (s->coef != 1)
		o += (size_t)snprintf(buf, n, "%lld*", (long long)s->coef);
	for (int k = 0; k < s->nsyms && o < n; k++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", k ? "*" : "",
				      d->name[s->syms[k]]);
	if (s->add && o < n)
		snprintf(buf + o, n - o, " + %lld", (long long)s->add);
}

/* "s33=4,s50=32" into vals (by symbol); what names the option. */
static int parse_list(npu_dyn *d, const char *list, int64_t *vals,
		      const char *what, npu_err *e)
{
	const char *p = list;

	while (p && *p) {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');
		char *num_end;
		long long v;
		int i;
		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end)
			return npu_errf(e, "%s: '%.*s' is not SYM=N", what,
					(int)(end - p), p);
		if ((i = sym_find(d, p, (size_t)(eq - p))) < 0)
			return npu_errf(e, "%s: the graph has no symbol '%.*s'",
					what, (int)(eq - p), p);
		v = strtoll(eq + 1, &num_end, 10);
		if (num_end != end || v < 1)
			return npu_errf(e, "%s: '%.*s' is not a positive number",
					what, (int)(end - eq - 1), eq + 1);
		vals[i] = v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* ----------------------------------------------------------------- */
/* Specializing the graph */

static int spec_dim(npu_dyn *d, npu_gdim *x, npu_err *e)
{
	int64_t v;

	if (!x->sym)
		return 0;
	if (npu_ref_symeval(x->sym, (const char *const *)d->name, d->hint,
			    d->nsym, &v, e) < 0)
		return -1;
	x->v = v;
	return 0;
}

static int spec_meta(npu_dyn *d, npu_gmeta *m, npu_err *e)
{
	if (m->kind != NPU_GM_TENSOR)
		return 0;
	for (int i = 0; i < m->ndim; i++)
		if (spec_dim(d, &m->shape[i], e) < 0 ||
		    spec_dim(d, &m->stride[i], e) < 0)
			return -1;
	return spec_dim(d, &m->storage_offset, e);
}

static int collect(npu_dyn *d, const npu_graph *g, npu_err *e)
{
	for (int i = 0; i < g->nnodes; i++) {
		const npu_gnode *n = &g->nodes[i];
		for (int k = 0; k < n->nmeta; k++) {
			const npu_gmeta *m = &n->meta[k];
			if (m->kind == NPU_GM_SCALAR && m->scalar.kind == NPU_GV_SYM &&
			    syms_of(d, m->scalar.u.s, e) < 0)
				return -1;
			if (m->kind != NPU_GM_TENSOR)
				continue;
			for (int j = 0; j < m->ndim; j++)
				if (syms_of(d, m->shape[j].sym, e) < 0 ||
				    syms_of(d, m->stride[j].sym, e) < 0)
					return -1;
			if (syms_of(d, m->storage_offset.sym, e) < 0)
				return -1;
		}
	}
	return 0;
}

#define SYMINT_VALUE "%s: node '%s' uses SymInt '%s' as a value: a dynamic " \
	"program takes symbolic sizes only as tensor dims and view shapes " \
	"(--specialize compiles it static)"

/* The SymInt a node is (a SymInt placeholder, or Dynamo's arithmetic on
 * them, operator.mul ... with a symbolic scalar meta): its expression,
 * else NULL. */
static const char *symint_of(const npu_gnode *n)
{
	if (n->op != NPU_GOP_PLACEHOLDER && n->op != NPU_GOP_CALL_FUNCTION)
		return NULL;
	if (n->op == NPU_GOP_PLACEHOLDER && n->phkind != NPU_PH_SYMINT)
		return NULL;
	if (n->nmeta != 1 || n->meta[0].kind != NPU_GM_SCALAR ||
	    n->meta[0].scalar.kind != NPU_GV_SYM)
		return NULL;
	return n->meta[0].scalar.u.s;
}

/* A size list whose entries the node's own (symbolic) meta shape
 * restates: a view's or an expand's target shape. */
static int restated_sizes(const npu_gnode *n, int arg)
{
	switch (n->aop) {
	case NPU_AOP_VIEW:
	case NPU_AOP_UNSAFE_VIEW:
	case NPU_AOP_RESHAPE:
	case NPU_AOP_VIEW_COPY:
	case NPU_AOP_EXPAND:
		return arg == 1 && n->nmeta == 1 && n->meta[0].kind == NPU_GM_TENSOR;
	default:
		return 0;
	}
}

/*
 * v's references to SymInt nodes become their values at the hints.
 * Where the program stays dynamic only entries of a restated size list
 * may (the entry at dim j must be the symbolic dim j of the meta, which
 * carries it from then on: dyn_mark reads meta shapes); any other use
 * would bake a run-time size into the program, and is refused (*bad).
 */
static int subst_val(const npu_dyn *d, const npu_graph *g, npu_gval *v,
		     const npu_gmeta *restate, int freeze, int *bad, npu_err *e)
{
	if (v->kind == NPU_GV_LIST) {
		for (int j = 0; j < v->u.list.n; j++) {
			npu_gval *x = &v->u.list.v[j];
			const npu_gmeta *m = restate && j < restate->ndim &&
					     restate->shape[j].sym ? restate : NULL;
			if (x->kind == NPU_GV_NODE && m) {
				if (subst_val(d, g, x, m, 1, bad, e) < 0)
					return -1;
			} else if (subst_val(d, g, x, NULL, freeze, bad, e) < 0) {
				return -1;
			}
		}
		return 0;
	}
	if (v->kind != NPU_GV_NODE)
		return 0;
	const char *sym = symint_of(&g->nodes[v->u.node]);
	int64_t val;
	double f;
	int fl;
	if (!sym)
		return 0;
	if (!freeze) {
		if (*bad < 0)
			*bad = v->u.node;
		return 0;
	}
	/* a SymFloat (F.interpolate's scale over a symbolic size,
	 * IntTrueDiv(s0, 2*s0)) becomes a float */
	if (npu_ref_symevalf(sym, (const char *const *)d->name, d->hint,
			     d->nsym, &f, &fl, e) < 0)
		return -1;
	if (fl) {
		v->kind = NPU_GV_FLOAT;
		v->u.f = f;
		return 0;
	}
	if (npu_ref_symeval(sym, (const char *const *)d->name, d->hint,
			    d->nsym, &val, e) < 0)
		return -1;
	v->kind = NPU_GV_INT;
	v->u.i = val;
	return 0;
}

/*
 * A SymInt returned as a graph output (Dynamo hands a size on to the
 * next frame so: an input, or one computed, as Funnel's -s78) leaves the
 * program's outputs: the frontend returns the argument it was given, or
 * evaluates the node's expression at the call's sizes
 * (python/npusim/graph.py `_output`), as it returns a tensor input
 * returned as is.
 */
static void drop_symint_outputs(const npu_graph *g, npu_gval *v)
{
	if (v->kind == NPU_GV_LIST) {
		for (int j = 0; j < v->u.list.n; j++)
			drop_symint_outputs(g, &v->u.list.v[j]);
		return;
	}
	if (v->kind == NPU_GV_NODE && symint_of(&g->nodes[v->u.node]))
		v->kind = NPU_GV_NONE;
}

/*
 * SymInt nodes go: their values come from the tensors' shapes.  A use of
 * one as a value becomes its value at the hints where that is the whole
 * truth (a static program, or a size list the meta restates); any other
 * use in a dynamic program is refused.
 */
static int drop_symints(npu_dyn *d, npu_graph *g, int freeze, npu_err *e)
{
	npu_gedit ge;
	const int *users;

	for (int i = 0; i < g->nnodes; i++) {
		npu_gnode *n = &g->nodes[i];
		int bad = -1;
		if (n->op == NPU_GOP_OUTPUT) {
			for (int a = 0; a < n->nargs; a++)
				drop_symint_outputs(g, &n->args[a]);
			continue;
		}
		if (symint_of(n))
			continue;
		for (int a = 0; a < n->nargs; a++)
			if (subst_val(d, g, &n->args[a],
				      restated_sizes(n, a) ? &n->meta[0] : NULL,
				      freeze, &bad, e) < 0)
				return -1;
		for (int a = 0; a < n->nkwargs; a++)
			if (subst_val(d, g, &n->kwargs[a].val, NULL, freeze, &bad, e) < 0)
				return -1;
		if (bad >= 0)
			return npu_errf(e, SYMINT_VALUE,
					g->file, n->name, g->nodes[bad].name);
	}
	if (npu_gedit_begin(&ge, g, e) < 0)
		return -1;
	for (int i = g->nnodes - 1; i >= 0; i--) {
		const npu_gnode *n = &g->nodes[i];
		if (!symint_of(n))
			continue;
		if (npu_gedit_users(&ge, i, &users) > 0) {
			/* the message first: the edit owns users and the
			 * nodes it points at */
			npu_errf(e, SYMINT_VALUE,
				 g->file, npu_gedit_node(&ge, users[0])->name, n->name);
			npu_gedit_abort(&ge);
			return -1;
		}
		npu_gedit_kill(&ge, i);
	}
	return npu_gedit_commit(&ge, e);
}

/* aot metadata that changes what the program must do: a data-mutated
 * input (its new value written back); metadata that mutates nothing (a
 * graph after a graph break) is inert */
static int aot_mutates(const npu_graph *g)
{
	if (!g->has_aot)
		return 0;
	if (g->num_mutated_inputs_returned_first > 0)
		return 1;
	for (int i = 0; i < g->ninput_mutates; i++)
		if (g->input_mutates_data[i])
			return 1;
	return 0;
}

/* npu_dyn_specialize, and for npu_dyn_freeze (freeze: every SymInt
 * value may become its value at the hints). */
static int bind(npu_graph *g, const char *hints, const char *maxes,
		int freeze, npu_dyn **out, npu_err *e)
{
	npu_dyn *d = calloc(1, sizeof *d);

	*out = NULL;
	if (!d)
		return npu_errf(e, "out of memory");
	if (collect(d, g, e) < 0)
		goto fail;
	if (!d->nsym) {
		npu_dyn_free(d);
		if ((hints && *hints) || (maxes && *maxes))
			return npu_errf(e, "%s: --dyn-hint/--dyn-max given, but the graph has no symbolic dims",
					g->file);
		return 0;
	}
	if (aot_mutates(g)) {
		npu_errf(e, "%s: dynamic shapes with mutated inputs are not supported",
			 g->file);
		goto fail;
	}
	/* specialized, a symbol left out would take the hint's size: a
	 * program refused at load at best.  0 (which parse_list never
	 * sets) marks the symbols the sizes do not name. */
	for (int i = 0; freeze && i < d->nsym; i++)
		d->hint[i] = 0;
	if (parse_list(d, hints, d->hint, freeze ? "--specialize" : "--dyn-hint", e) < 0 ||
	    parse_list(d, maxes, d->max, "--dyn-max", e) < 0)
		goto fail;
	for (int i = 0; freeze && i < d->nsym; i++)
		if (!d->hint[i]) {
			npu_errf(e, "%s: --specialize gives no value for symbol %s",
				 g->file, d->name[i]);
			goto fail;
		}
	for (int i = 0; i < d->nsym; i++)
		if (d->max[i] && d->max[i] < d->hint[i]) {
			npu_errf(e, "--dyn-max: %s = %lld is below its hint %lld",
				 d->name[i], (long long)d->max[i],
				 (long long)d->hint[i]);
			goto fail;
		}
	for (int i = 0; i < g->nnodes; i++)
		for (int k = 0; k < g->nodes[i].nmeta; k++)
			if (spec_meta(d, &g->nodes[i].meta[k], e) < 0) {
				npu_err_prefix(e, "%s: node '%s'", g->file,
					       g->nodes[i].name);
				goto fail;
			}
	if (drop_symints(d, g, freeze, e) < 0)
		goto fail;
	*out = d;
	return 0;
fail:
	npu_dyn_free(d);
	return -1;
}

int npu_dyn_specialize(npu_graph *g, const char *hints, const char *maxes,
		       npu_dyn **out, npu_err *e)
{
	return bind(g, hints, maxes, 0, out, e);
}

static void unsym(npu_gdim *x)
{
	free(x->sym);
	x->sym = NULL;
}

int npu_dyn_freeze(npu_graph *g, const char *sizes, npu_err *e)
{
	npu_dyn *d;

	if (bind(g, sizes, NULL, 1, &d, e) < 0)
		return -1;
	if (!d)
		return 0;
	for (int i = 0; i < g->nnodes; i++)
		for (int k = 0; k < g->nodes[i].nmeta; k++) {
			npu_gmeta *m = &g->nodes[i].meta[k];
			if (m->kind != NPU_GM_TENSOR)
				continue;
			for (int j = 0; j < m->ndim; j++) {
				unsym(&m->shape[j]);
				unsym(&m->stride[j]);
			}
			unsym(&m->storage_offset);
		}
	npu_dyn_free(d);
	return 0;
}

/* ----------------------------------------------------------------- */
/* Symbolic values */

/* A view's root, or v itself */
static int root_of(const npu_kir *ir, int v)
{
	return ir->v[v].root >= 0 ? ir->v[v].root : v;
}

/* The meta a value was made from, or NULL. */
static const npu_gmeta *val_meta(const npu_kir *ir, int v)
{
	const npu_kval *x = &ir->v[v];
	const npu_gnode *n;
	int k = 0;

	if (x->node < 0 || x->node >= ir->g->nnodes)
		return NULL;
	n = &ir->g->nodes[x->node];
	if (ir->nodevals && ir->nodevals[x->node])
		for (int i = 0; i < n->nmeta; i++)
			if (ir->nodevals[x->node][i] == v)
				k = i;
	return k < n->nmeta ? &n->meta[k] : NULL;
}

/* Is v one of its node's values, or the root of one (not a scratch
 * value made for it)? */
static int listed(const npu_kir *ir, int v)
{
	int node = ir->v[v].node;

	if (ir->nodevals && ir->nodevals[node]) {
		for (int i = 0; i < ir->g->nodes[node].nmeta; i++)
			if (ir->nodevals[node][i] >= 0 &&
			    root_of(ir, ir->nodevals[node][i]) == v)
				return 1;
		return 0;
	}
	return !ir->nodeval || (ir->nodeval[node] >= 0 && root_of(ir, ir->nodeval[node]) == v);
}

/* Elements of m at the hints. */
static int64_t meta_numel(const npu_gmeta *m)
{
	int64_t n = 1;

	for (int i = 0; i < m->ndim; i++)
		n *= m->shape[i].v;
	return n;
}

static int mark_val(npu_dyn *d, npu_kir *ir, int v, npu_err *e)
{
	const npu_gmeta *m = val_meta(ir, v);
	npu_kval *x = &ir->v[v];
	dval *dv = &d->val[v];
	char s[160];

	if (!m || m->kind != NPU_GM_TENSOR)
		return 0;
	for (int i = 0; i < m->ndim; i++) {
		if (!m->shape[i].sym)
			continue;
		if (i != dv->lead)
			return npu_errf(e, "%s: node '%s': dim %d (%s) is symbolic but dim %d is not: only leading dims may be symbolic",
					ir->g->file, ir->g->nodes[x->node].name,
					i, m->shape[i].sym, dv->lead);
		if (sdim_parse(d, m->shape[i].sym, &dv->d[i]) < 0)
			return npu_errf(e, "%s: node '%s': dim %d is '%s': npucc takes symbolic dims of the form c*s1*...*sk + k (c >= 1, k >= 0)",
					ir->g->file, ir->g->nodes[x->node].name,
					i, m->shape[i].sym);
		dv->lead++;
	}
	if (!dv->lead)
		return 0;
	/* other values made for the node (a middle-dim sum's input copied
	 * with that dim last) take the rows of the kernel that writes them
	 * (mark_scratch); the node's value may be a view of x that
	 * reshapes within a row (that sum's row kernel's [s0, 2] viewed
	 * [s0, 1, 2]): x's leading dims must be the symbolic ones, and its
	 * rows as long */
	if (x->root >= 0 || x->isconst)
		goto odd;
	if (!listed(ir, v)) {
		dv->lead = 0;
		dv->pending = 1;
		return 0;
	}
	if (x->ndim < dv->lead || npu_kir_numel(x->ndim, x->shape) != meta_numel(m))
		goto odd;
	dv->block = 1;
	for (int i = 0; i < dv->lead; i++) {
		if (x->shape[i] != m->shape[i].v)
			goto odd;
		dv->block *= x->shape[i];
	}
	x->sym = dv->lead;
	return 0;
odd:
	sdim_str(d, &dv->d[0], s, sizeof s);
	return npu_errf(e, "%s: node '%s': a value of symbolic shape (%s, ...) that is not a plain materialized tensor",
			ir->g->file, ir->g->nodes[x->node].name, s);
}

/* Kernel K's pending outputs (scratch values of a symbolic node) take
 * the symbolic rows of an input whose leading dims they have; those of
 * no such kernel stay static (a weight's transposed copy), and
 * plan_kern refuses a kernel that writes one from symbolic rows. */
static void mark_scratch(npu_dyn *d, npu_kir *ir, const npu_kern *K)
{
	for (int o = 0; o < K->nops; o++) {
		int r = root_of(ir, K->ops[o].val);
		dval *dv = &d->val[r];
		npu_kval *x = &ir->v[r];
		if (!K->ops[o].out || !dv->pending)
			continue;
		for (int i = 0; i < K->nops && dv->pending; i++) {
			const dval *in = &d->val[root_of(ir, K->ops[i].val)];
			const npu_kval *y = &ir->v[root_of(ir, K->ops[i].val)];
			int same = in->lead && !K->ops[i].out && x->ndim >= in->lead;
			for (int j = 0; same && j < in->lead; j++)
				same = x->shape[j] == y->shape[j];
			if (!same)
				continue;
			*dv = *in;
			x->sym = dv->lead;
		}
	}
}

int npu_dyn_mark(npu_dyn *d, npu_kir *ir, npu_err *e)
{
	if (!d)
		return 0;
	free(d->val);
	if (!(d->val = calloc((size_t)ir->nv + 1, sizeof *d->val)))
		return npu_errf(e, "out of memory");
	d->nval = ir->nv;
	for (int v = 0; v < ir->nv; v++) {
		/* views are moved with their root */
		if (ir->v[v].root >= 0 || ir->v[v].isconst)
			continue;
		if (mark_val(d, ir, v, e) < 0)
			return -1;
	}
	for (int k = 0; k < ir->nk; k++)
		mark_scratch(d, ir, &ir->k[k]);
	return 0;
}

/* ----------------------------------------------------------------- */
/* Kernels in blocks of rows */

static int same_rows(const dval *a, const dval *b)
{
	if (a->lead != b->lead)
		return 0;
	for (int i = 0; i < a->lead; i++)
		if (a->d[i].coef != b->d[i].coef || a->d[i].add != b->d[i].add ||
		    a->d[i].nsyms != b->d[i].nsyms ||
		    memcmp(a->d[i].syms, b->d[i].syms,
			   (size_t)a->d[i].nsyms * sizeof a->d[i].syms[0]))
			return 0;
	return 1;
}

/* Table entry of buffer b's address delta (dynamic buffers in order). */
static uint32_t slot_of(const npu_dyn *d, const npu_prog *p, uint32_t b)
{
	uint32_t j = 0;

	for (uint32_t i = 0; i < p->nsymdims && p->symdims[i].buf < b; i++)
		j += i == 0 || p->symdims[i].buf != p->symdims[i - 1].buf;
	return d->nsyms_prog + 2 * j;
}

/* The row strides of operand o: n of them in rs (kernel dims [0, n)). */
static int row_strides(const npu_kern *K, int o, int L, int64_t *rs,
		       int64_t *shp)
{
	if (K->kind == NPU_KK_MM) {
		/* A keeps [batch, row, col]; the epilogue runs over [M, N] */
		rs[0] = o == K->mm_a || o == K->mm_alo ? K->ops[o].stride[1]
						       : K->ops[o].stride[0];
		shp[0] = K->mm_m;
		return 1;
	}
	for (int i = 0; i < L; i++) {
		rs[i] = K->ops[o].stride[i];
		shp[i] = K->shape[i];
	}
	return L;
}

#define KFAIL(...) do { \
		npu_errf(e, __VA_ARGS__); \
		return npu_err_prefix(e, "kernel %s", K->name); \
	} while (0)

/* Checks operand o against rows of `elems` elements each. */
static int check_opnd(const npu_dyn *d, const npu_kir *ir, const npu_kern *K,
		      int o, int L, const dval *ref, npu_err *e)
{
	const npu_kopnd *op = &K->ops[o];
	int r = root_of(ir, op->val);
	const dval *dv = &d->val[r];
	const npu_kval *x = &ir->v[r];
	int64_t rs[NPU_MAX_DIMS], shp[NPU_MAX_DIMS], elems, want;
	int n;

	if (K->kind == NPU_KK_MM && (o == K->mm_b || o == K->mm_blo)) {
		if (dv->lead)
			KFAIL("the matmul's right operand '%s' has a symbolic shape: only rows of the left operand and the output may be symbolic",
			      x->name);
		return 0;
	}
	n = row_strides(K, o, L, rs, shp);
	if (!dv->lead) {
		if (op->out)
			KFAIL("writes '%s', whose shape is static, from symbolic rows (a reduction over a symbolic dim)",
			      x->name);
		for (int i = 0; i < n; i++)
			if (shp[i] > 1 && rs[i])
				KFAIL("reads the static value '%s' along a symbolic dim",
				      x->name);
		return 0;
	}
	if (!same_rows(dv, ref))
		KFAIL("'%s' and '%s' have different symbolic dims", x->name,
		      ir->v[K->ops[0].val].name);
	elems = npu_kir_numel(x->ndim, x->shape) / dv->block;
	want = elems;
	for (int i = n - 1; i >= 0; i--) {
		if (shp[i] > 1 && rs[i] != want)
			KFAIL("reads '%s' with stride %lld along a symbolic dim, not row after row (%lld)",
			      x->name, (long long)rs[i], (long long)want);
		want *= shp[i];
	}
	if (op->off < 0 || op->off >= elems)
		KFAIL("reads '%s' from element %lld: a slice along a symbolic dim",
		      x->name, (long long)op->off);
	return 0;
}

static int plan_kern(npu_dyn *d, const npu_kir *ir, const npu_prog *p, int k,
		     npu_err *e)
{
	const npu_kern *K = &ir->k[k];
	dkern *dk = &d->kern[k];
	const dval *ref = NULL;
	int L = 0;
	int64_t prod = 1;

	for (int o = 0; o < K->nops; o++) {
		int r = root_of(ir, K->ops[o].val);
		if (d->val[r].lead && (!ref || K->ops[o].out))
			ref = &d->val[r];
	}
	for (int i = 0; i < K->nhin; i++)
		if (d->val[K->hin[i]].lead)
			ref = &d->val[K->hin[i]];
	for (int i = 0; i < K->nhout; i++)
		if (d->val[K->hout[i]].lead)
			ref = &d->val[K->hout[i]];
	if (!ref)
		return 0;
	if (K->kind == NPU_KK_HOST || K->kind == NPU_KK_GATHER || K->kind == NPU_KK_POOL ||
	    K->kind == NPU_KK_INT ||
	    (K->kind == NPU_KK_MM && (K->cv || K->ndim != 2)))
		KFAIL("touches a value of symbolic shape, but a %s kernel cannot take run-time sizes (only elementwise, row and 2-D matmul kernels can)",
		      npu_kkind_name(K->kind));
	if (K->kind == NPU_KK_MM) {
		L = 1;
		prod = K->mm_m;
	} else {
		while (L < K->ndim && prod < ref->block)
			prod *= K->shape[L++];
	}
	if (prod != ref->block)
		KFAIL("the symbolic rows (%lld at the hints) are not the outer dims of its index space",
		      (long long)ref->block);
	if (K->kind == NPU_KK_ROW && L > K->ndim - K->rdims)
		KFAIL("reduces over a symbolic dim");
	for (int o = 0; o < K->nops; o++)
		if (check_opnd(d, ir, K, o, L, ref, e) < 0)
			return -1;
	dk->on = 1;
	dk->lead = L;
	dk->block = ref->block;
	for (int o = 0; o < K->nops; o++) {
		int r = root_of(ir, K->ops[o].val);
		const npu_kval *x = &ir->v[r];
		const npu_buf *b;
		int dup = 0;
		if (!d->val[r].lead)
			continue;
		b = &p->bufs[x->buf];
		for (int i = 0; i < dk->n; i++)
			dup |= dk->lo[i] == b->addr;
		if (dup)
			continue;
		if (dk->n == 64)
			KFAIL("touches more than 64 symbolic buffers");
		dk->lo[dk->n] = b->addr;
		/* the layout keeps room after it for the largest version */
		dk->hi[dk->n] = b->addr + NPU_DYN_ROOM * b->size;
		dk->slot[dk->n] = slot_of(d, p, (uint32_t)x->buf);
		dk->step[dk->n] = (int64_t)b->size;   /* one block: the whole
							 compile-time buffer */
		if (K->ops[o].out || !dk->rows_slot)
			dk->rows_slot = dk->slot[dk->n] + 1;
		dk->n++;
	}
	return 0;
}

static int cmp_u32pair(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0])
			    : (x[1] > y[1]) - (x[1] < y[1]);
}

/* p's symbols (those of its buffers, in first-use order) and dims. */
static int plan_prog(npu_dyn *d, const npu_kir *ir, npu_prog *p,
		     const npu_target *t, npu_err *e)
{
	uint32_t (*bv)[2] = calloc((size_t)ir->nv + 1, sizeof *bv), nb = 0;
	int *used = calloc((size_t)d->nsym + 1, sizeof *used);
	int *map = calloc((size_t)d->nsym + 1, sizeof *map);
	int rc = -1;

	if (!bv || !used || !map) {
		npu_errf(e, "out of memory");
		goto out;
	}
	for (int v = 0; v < ir->nv; v++) {
		if (!d->val[v].lead)
			continue;
		if (ir->v[v].buf < 0)
			continue; /* computed and used inside one kernel */
		bv[nb][0] = (uint32_t)ir->v[v].buf;
		bv[nb++][1] = (uint32_t)v;
		for (int i = 0; i < d->val[v].lead; i++)
			for (int k = 0; k < d->val[v].d[i].nsyms; k++)
				used[d->val[v].d[i].syms[k]] = 1;
	}
	qsort(bv, nb, sizeof *bv, cmp_u32pair);
	p->syms = calloc((size_t)d->nsym + 1, sizeof *p->syms);
	p->symdims = calloc((size_t)nb * NPU_MAX_DIMS + 1, sizeof *p->symdims);
	if (!p->syms || !p->symdims) {
		npu_errf(e, "out of memory");
		goto out;
	}
	for (int s = 0; s < d->nsym; s++) {
		npu_sym *y = &p->syms[p->nsyms];
		if (!used[s])
			continue;
		map[s] = (int)p->nsyms++;
		if (!(y->name = strdup(d->name[s]))) {
			npu_errf(e, "out of memory");
			goto out;
		}
		y->hint = d->hint[s];
		y->min = 1;
		y->max = d->max[s];
	}
	for (uint32_t i = 0; i < nb; i++) {
		const dval *dv = &d->val[bv[i][1]];
		for (int j = 0; j < dv->lead; j++) {
			npu_symdim *sd = &p->symdims[p->nsymdims++];
			sd->buf = bv[i][0];
			sd->dim = (uint32_t)j;
			sd->coef = dv->d[j].coef;
			sd->add = dv->d[j].add;
			sd->nsyms = (uint32_t)dv->d[j].nsyms;
			for (int k = 0; k < dv->d[j].nsyms; k++)
				sd->syms[k] = (uint32_t)map[dv->d[j].syms[k]];
		}
	}
	d->nsyms_prog = p->nsyms;
	if (NPU_SYMTAB_BYTES(p) > NPU_DYN_TAB_BYTES) {
		npu_errf(e, "the table of %u symbols and %u symbolic buffers is over %d bytes",
			 p->nsyms, npu_prog_ndynbufs(p), NPU_DYN_TAB_BYTES);
		goto out;
	}
	p->symtab = d->symtab = t->sram_bytes - NPU_DYN_TAB_BYTES;
	p->dynpad = NPU_DYN_ROOM;
	rc = 0;
out:
	free(bv);
	free(used);
	free(map);
	return rc;
}

/* Every symbol must be some input's dim by itself, or npusim cannot
 * bind it at load. */
static int check_bindable(const npu_prog *p, npu_err *e)
{
	for (uint32_t s = 0; s < p->nsyms; s++) {
		int ok = 0;
		for (uint32_t i = 0; i < p->nsymdims && !ok; i++) {
			const npu_symdim *sd = &p->symdims[i];
			int kind = p->bufs[sd->buf].kind;
			ok = (kind == NPU_BUF_INPUT || kind == NPU_BUF_INOUT) &&
			     sd->nsyms == 1 && sd->coef == 1 && !sd->add &&
			     sd->syms[0] == s;
		}
		if (!ok)
			return npu_errf(e, "symbol %s is no input's dim by itself: npusim could not bind it from the input shapes",
					p->syms[s].name);
	}
	return 0;
}

int npu_dyn_plan(npu_dyn *d, const npu_kir *ir, npu_prog *p,
		 const npu_target *t, npu_err *e)
{
	if (!d)
		return 0;
	if (plan_prog(d, ir, p, t, e) < 0 || check_bindable(p, e) < 0)
		return -1;
	free(d->kern);
	if (!(d->kern = calloc((size_t)ir->nk + 1, sizeof *d->kern)))
		return npu_errf(e, "out of memory");
	d->nkern = ir->nk;
	for (int k = 0; k < ir->nk; k++)
		if (plan_kern(d, ir, p, k, e) < 0)
			return -1;
	return 0;
}

/* ----------------------------------------------------------------- */
/* The block loop */

/*
 * Row counts with code of their own, descending: NPU_DYN_ROOM times the
 * block B and 3/4 of it, halving down to B (the hint's own code), then
 * 2^i and 3 * 2^i below it (B = 16: 64 48 32 24 16 12 8 6 4 3 2 1).
 * Consecutive versions are at most 2x apart, so any rows are covered by
 * few calls with little padding; the largest runs as long as whole
 * blocks of it remain.
 */
static int versions(int64_t B, int64_t *v)
{
	int64_t p = 1;
	int n = 0;

	for (int64_t m = NPU_DYN_ROOM; m > 1; m /= 2) {
		v[n++] = m * B;
		if (m * B / 4 * 3 > B)
			v[n++] = m * B / 4 * 3;
	}
	v[n++] = B;
	while (p * 2 < B)
		p *= 2;
	for (; B > 1 && p >= 1; p /= 2) {
		if (p >= 2 && p / 2 * 3 < B)
			v[n++] = p / 2 * 3;
		if (p < B)
			v[n++] = p;
	}
	return n;
}

/* The smallest row count version i runs for: a matmul streams its whole
 * weight per call, so it takes the one version that covers the rows (at
 * most 1.5x); elementwise and row kernels cost per row, so they pad at
 * most an eighth and otherwise split the rows over smaller versions. */
static int64_t threshold(const npu_kern *K, const int64_t *v, int n, int i)
{
	int64_t w = i + 1 < n ? v[i + 1] : 0, t;

	if (K->kind == NPU_KK_MM)
		return w + 1;
	t = v[i] - v[i] / 8;
	return t > w + 1 ? t : w + 1;
}

/* Kernel k of ir computing `rows` rows: in *K2 (its own operands, freed
 * by the caller), tiled for them. */
static int version_kern(const npu_dyn *d, const npu_kir *ir, int k,
			int64_t rows, npu_kern *K2)
{
	const npu_kern *K = &ir->k[k];
	const dkern *dk = &d->kern[k];
	int L = dk->lead;

	*K2 = *K;
	if (!(K2->ops = malloc((size_t)(K->nops + 1) * sizeof *K2->ops)))
		return -1;
	memcpy(K2->ops, K->ops, (size_t)K->nops * sizeof *K2->ops);
	if (K->kind == NPU_KK_MM) {
		K2->mm_m = K2->shape[0] = rows;
		return 0;
	}
	/* the symbolic dims merge into one dim of `rows` rows */
	K2->ndim = K->ndim - L + 1;
	K2->shape[0] = rows;
	for (int i = 1; i < K2->ndim; i++)
		K2->shape[i] = K->shape[i + L - 1];
	for (int o = 0; o < K->nops; o++) {
		int r = root_of(ir, K->ops[o].val);
		const dval *dv = &d->val[r];
		K2->ops[o].stride[0] = dv->lead ? npu_kir_numel(ir->v[r].ndim, ir->v[r].shape) /
						  dv->block : 0;
		for (int i = 1; i < K2->ndim; i++)
			K2->ops[o].stride[i] = K->ops[o].stride[i + L - 1];
	}
	return 0;
}

/* The kernel table of c with kernel k at `rows` rows (tiled for them
 * unless they are the hint's): in *ir2, its table in *ks (the caller
 * frees ks[k].ops and ks); *ks NULL when c's own table serves. */
static int kern_at(const npu_dyn *d, const npu_emitctx *c, int k, int64_t rows,
		   npu_kir *ir2, npu_kern **ks, npu_err *e)
{
	const dkern *dk = &d->kern[k];
	npu_kern *t;

	*ir2 = *c->ir;
	*ks = NULL;
	if (rows == dk->block && (c->ir->k[k].kind == NPU_KK_MM || dk->lead == 1))
		return 0;
	if (!(t = malloc((size_t)c->ir->nk * sizeof *t)))
		return npu_errf(e, "out of memory");
	memcpy(t, c->ir->k, (size_t)c->ir->nk * sizeof *t);
	if (version_kern(d, c->ir, k, rows, &t[k]) < 0) {
		free(t);
		return npu_errf(e, "out of memory");
	}
	if (rows != dk->block) {
		/* tiles for these rows (tile.c reads only this kernel and the
		 * values' types) */
		npu_kir one = *c->ir;
		one.k = &t[k];
		one.nk = 1;
		if (npu_tile(&one, c->t, e) < 0) {
			free(t[k].ops);
			free(t);
			return npu_err_prefix(e, "kernel %s at %lld rows",
					      c->ir->k[k].name, (long long)rows);
		}
	}
	ir2->k = t;
	*ks = t;
	return 0;
}

static void kern_free(npu_kern *ks, int k)
{
	if (ks) {
		free(ks[k].ops);
		free(ks);
	}
}

/* One call of kernel k's code for `rows` rows, its DRAM addresses moved
 * by rel, then every buffer's register one call further. */
static int emit_call(const npu_dyn *d, const npu_emitctx *c, int k,
		     int64_t rows, const npu_dynrel *rel, int *xr, int xrows,
		     npu_mfunc *f, npu_err *e)
{
	const dkern *dk = &d->kern[k];
	npu_emitctx cc = *c;
	npu_kir ir2;
	npu_kern *ks;
	int rc;

	if (kern_at(d, c, k, rows, &ir2, &ks, e) < 0)
		return -1;
	cc.rel = rel;
	cc.ir = &ir2;
	rc = npu_emit_kernel(&cc, k, f, e);
	kern_free(ks, k);
	if (rc < 0)
		return rc;
	for (int i = 0; i < dk->n; i++) {
		int64_t step = dk->step[i] / dk->block * rows;
		if (step == (int32_t)step) {
			npu_memit(f, NPU_OP_ADDI, xr[i], xr[i], 0, step);
		} else {
			int x = npu_mx(f);
			npu_mli(f, x, step);
			npu_memit(f, NPU_OP_ADD, xr[i], xr[i], x, 0);
		}
	}
	npu_memit(f, NPU_OP_ADDI, xrows, xrows, 0, -rows);
	return 0;
}

/*
 * A matmul runs its rows in one execution (emit_dyn.c), with the tiles
 * the cost model picks for LOOP_ROWS times the hint's rows: blocks sized
 * for many rows, since past the hint the loop is what runs long.  1 when
 * the loop cannot take the kernel (the versions run it).
 */
#define LOOP_ROWS NPU_DYN_ROOM

static int emit_loop(const npu_dyn *d, const npu_emitctx *c, int k,
		     const npu_dynrel *rel, int xrows, npu_mfunc *f, npu_err *e)
{
	npu_emitctx cc = *c;
	npu_kir ir2;
	npu_kern *ks;
	npu_err scratch;
	int rc;

	if (c->ir->k[k].kind != NPU_KK_MM && c->ir->k[k].kind != NPU_KK_ROW &&
	    c->ir->k[k].kind != NPU_KK_EW)
		return 1;
	/* blocks that do not tile (SRAM too small for them): versions */
	if (kern_at(d, c, k, LOOP_ROWS * d->kern[k].block, &ir2, &ks, &scratch) < 0)
		return 1;
	cc.rel = rel;
	cc.ir = &ir2;
	rc = c->ir->k[k].kind == NPU_KK_MM ? npu_emit_dynmm(&cc, k, xrows, f, e)
					   : npu_emit_dynrow(&cc, k, xrows, f, e);
	kern_free(ks, k);
	return rc;
}

/* The versions in v[0, n) whose rows tile (those above the hint's may
 * not fit SRAM: npu-edge's 1 MiB and mlp_dynamic's 64 rows); how many. */
static int drop_untileable(const npu_dyn *d, const npu_emitctx *c, int k,
			   int64_t *v, int n)
{
	int m = 0;

	for (int i = 0; i < n; i++) {
		npu_kir ir2;
		npu_kern *ks;
		npu_err scratch;
		if (v[i] > d->kern[k].block &&
		    kern_at(d, c, k, v[i], &ir2, &ks, &scratch) < 0)
			continue;
		if (v[i] > d->kern[k].block)
			kern_free(ks, k);
		v[m++] = v[i];
	}
	return m;
}

/*
 *        ld   rows, table[rows of the output]
 *        ld   delta_i, table[address delta of buffer i]   (each buffer)
 *  top:  blt  rows, threshold(B), small
 *        <the kernel's code for B rows; its DRAM addresses in buffer i
 *         plus delta_i>; delta_i += B rows of buffer i; rows -= B
 *        jmp  top
 *  small:                                   (each version v below B)
 *        blt  rows, threshold(v), next_v
 *        <the code for v rows>; delta_i += v rows; rows -= v
 *  next_v:
 */
int npu_dyn_emit(const npu_dyn *d, const npu_emitctx *c, int k,
		 npu_mfunc *f, npu_err *e)
{
	const dkern *dk = d && k < d->nkern ? &d->kern[k] : NULL;
	const npu_kern *K = &c->ir->k[k];
	npu_emitctx cv;
	npu_dynrel rel;
	int64_t v[128];
	int xr[64], xrows, xt, nv, lab, skip, rc;

	if (!dk || !dk->on)
		return npu_emit_kernel(c, k, f, e);
	f->node = K->nnodes ? K->nodes[0] : -1;
	xrows = npu_mx(f);
	npu_memit(f, NPU_OP_LD, xrows, 0, 0,
		  (int64_t)(d->symtab + 8 * (uint64_t)dk->rows_slot));
	for (int i = 0; i < dk->n; i++) {
		xr[i] = npu_mx(f);
		npu_memit(f, NPU_OP_LD, xr[i], 0, 0,
			  (int64_t)(d->symtab + 8 * (uint64_t)dk->slot[i]));
	}
	rel.n = dk->n;
	rel.lo = dk->lo;
	rel.hi = dk->hi;
	rel.xr = xr;
	if ((rc = emit_loop(d, c, k, &rel, xrows, f, e)) <= 0)
		return rc;
	/* versions run 0 or more times: no prefetch in or out, and one
	 * made for this kernel is waited for once (npu_pfplan) */
	for (int i = 0; c->pf && c->pf->issued && i < c->pf->neng; i++)
		npu_memit(f, NPU_OP_WAIT, NPU_UNIT_MXU, NPU_SEM_PF, 0, 0);
	cv = *c;
	cv.pf = NULL;
	cv.pfnext = NULL;
	c = &cv;
	nv = drop_untileable(d, c, k, v, versions(dk->block, v));
	for (int i = 0; i < nv; i++) {
		lab = npu_mlabel(f);
		skip = npu_mlabel(f);
		npu_mbind(f, lab);
		xt = npu_mx(f);
		npu_mli(f, xt, threshold(K, v, nv, i));
		npu_memit_br(f, NPU_OP_BLT, xrows, xt, skip);
		if (emit_call(d, c, k, v[i], &rel, xr, xrows, f, e) < 0)
			return -1;
		if (i == 0) /* whole blocks: again */
			npu_memit_br(f, NPU_OP_JMP, 0, 0, lab);
		npu_mbind(f, skip);
	}
	return 0;
}

void npu_dyn_report(const npu_dyn *d, const npu_kir *ir, FILE *f)
{
	if (!d)
		return;
	fprintf(f, "dynamic shapes:");
	for (int s = 0; s < d->nsym; s++) {
		fprintf(f, " %s (hint %lld", d->name[s], (long long)d->hint[s]);
		if (d->max[s])
			fprintf(f, ", max %lld", (long long)d->max[s]);
		fprintf(f, ")");
	}
	fprintf(f, "\n");
	for (int k = 0; k < d->nkern && k < ir->nk; k++)
		if (d->kern[k].on)
			fprintf(f, "  %-24s run-time rows (%lld at the hints)\n",
				ir->k[k].name, (long long)d->kern[k].block);
}
