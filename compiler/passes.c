/*
 * passes.c - the pass driver, the change log, and the small structural
 * passes: normargs, dce, cse, convbn, noop, layout.  Constant folding
 * (pass_fold.c) and decomposition (pass_decomp.c) have files of their own.
 *
 * Each pass is one edit session (gedit.h): it marks, adds and rewires,
 * then commits, so node indexes never shift under a pass.  Nothing here
 * changes what the graph computes: every rewrite is either exact (the
 * same values, bit for bit) or, for folding, a reassociation of float
 * arithmetic on constants; docs/passes.md gives the legality conditions.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/pass_int.h"
#include "isa/dtype.h"
#include "isa/isa.h"

static const char *const pass_names[] = {
#define X(id, name, what) name,
	NPU_PASSES(X)
#undef X
};

const char *npu_pass_name(int pass)
{
	return pass >= 0 && pass < NPU_NPASS ? pass_names[pass] : "?";
}

int npu_pass_find(const char *name)
{
	for (int i = 0; i < NPU_NPASS; i++)
		if (!strcmp(pass_names[i], name))
			return i;
	return -1;
}

/* ---- folded constants -------------------------------------------- */

const npu_reftensor *npu_passconsts_find(const npu_passconsts *c,
					 const char *name)
{
	if (!c || !name)
		return NULL;
	if (!strncmp(name, "attr.", 5))
		name += 5;
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i].t;
	return NULL;
}

void npu_passconsts_free(npu_passconsts *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].origin);
		npu_reftensor_free(&c->v[i].t);
	}
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* ---- the log ----------------------------------------------------- */

void npu_passlog_init(npu_passlog *log)
{
	memset(log, 0, sizeof *log);
}

void npu_passlog_free(npu_passlog *log)
{
	if (!log)
		return;
	for (int i = 0; i < log->n; i++) {
		free(log->v[i].what);
		free(log->v[i].nodes);
	}
	free(log->v);
	for (int i = 0; i < log->nprov; i++) {
		free(log->prov_name[i]);
		free(log->prov_from[i]);
	}
	free(log->prov_name);
	free(log->prov_from);
	memset(log, 0, sizeof *log);
}

static int log_vadd(pass_cx *pc, int change, const char *nodes,
		    const char *fmt, va_list ap)
{
	npu_passlog *log = pc->log;
	npu_passentry *en;
	char *what;

	if (vasprintf(&what, fmt, ap) < 0)
		goto oom;
	if (log->n == log->cap) {
		int cap = log->cap ? 2 * log->cap : 32;
		npu_passentry *v = realloc(log->v, (size_t)cap * sizeof *v);
		if (!v) {
			free(what);
			goto oom;
		}
		log->v = v;
		log->cap = cap;
	}
	en = &log->v[log->n];
	en->pass = pc->pass;
	en->what = what;
	if (!(en->nodes = strdup(nodes ? nodes : ""))) {
		free(what);
		goto oom;
	}
	log->n++;
	if (change)
		log->changes[pc->pass]++;
	return 0;
oom:
	log->oom = 1;
	return npu_errf(pc->e, "out of memory");
}

int pass_log(pass_cx *pc, const char *nodes, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = log_vadd(pc, 1, nodes, fmt, ap);
	va_end(ap);
	return rc;
}

int pass_note(pass_cx *pc, const char *nodes, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = log_vadd(pc, 0, nodes, fmt, ap);
	va_end(ap);
	return rc;
}

static int prov_index(const npu_passlog *log, const char *node)
{
	for (int i = 0; i < log->nprov; i++)
		if (!strcmp(log->prov_name[i], node))
			return i;
	return -1;
}

const char *npu_passlog_origins(const npu_passlog *log, const char *node)
{
	int i = prov_index(log, node);

	return i < 0 ? NULL : log->prov_from[i];
}

/* Does the comma-separated list have name in it? */
static int list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *q = strchr(p, ',');
		size_t len = q ? (size_t)(q - p) : strlen(p);
		if (len == n && !strncmp(p, name, n))
			return 1;
		p = q ? q + 1 : NULL;
	}
	return 0;
}

int pass_prov(pass_cx *pc, const char *to, const char *from)
{
	npu_passlog *log = pc->log;
	const char *src = npu_passlog_origins(log, from);
	int i = prov_index(log, to);
	char *cur, *merged = NULL, *tok, *save = NULL, *copy;

	if (!src)
		src = from;
	if (i < 0) {
		if (log->nprov == log->capprov) {
			int cap = log->capprov ? 2 * log->capprov : 32;
			char **a = realloc(log->prov_name, (size_t)cap * sizeof *a);
			char **b;
			if (!a)
				goto oom;
			log->prov_name = a;
			if (!(b = realloc(log->prov_from, (size_t)cap * sizeof *b)))
				goto oom;
			log->prov_from = b;
			log->capprov = cap;
		}
		/* a node's first origin is itself, when it came from the reader */
		log->prov_name[log->nprov] = strdup(to);
		log->prov_from[log->nprov] = strdup(src);
		if (!log->prov_name[log->nprov] || !log->prov_from[log->nprov]) {
			free(log->prov_name[log->nprov]);
			free(log->prov_from[log->nprov]);
			goto oom;
		}
		log->nprov++;
		return 0;
	}
	cur = log->prov_from[i];
	if (!(copy = strdup(src)))
		goto oom;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (list_has(merged ? merged : cur, tok))
			continue;
		char *m;
		if (asprintf(&m, "%s,%s", merged ? merged : cur, tok) < 0) {
			free(copy);
			free(merged);
			goto oom;
		}
		free(merged);
		merged = m;
	}
	free(copy);
	if (merged) {
		free(log->prov_from[i]);
		log->prov_from[i] = merged;
	}
	return 0;
oom:
	log->oom = 1;
	return npu_errf(pc->e, "out of memory");
}

int pass_prov_merge(pass_cx *pc, const char *to, const char *from)
{
	if (prov_index(pc->log, to) < 0 && pass_prov(pc, to, to) < 0)
		return -1;
	return pass_prov(pc, to, from);
}

int npu_passlog_count(const npu_passlog *log, int pass, const char *prefix)
{
	int n = 0;
	size_t len = strlen(prefix);

	for (int i = 0; i < log->n; i++)
		if (log->v[i].pass == pass && !strncmp(log->v[i].what, prefix, len))
			n++;
	return n;
}

int npu_passlog_print(const npu_passlog *log, FILE *f, int timing)
{
	double total = 0;

	for (int i = 0; i < log->n; i++)
		fprintf(f, "%s: %s\n", npu_pass_name(log->v[i].pass),
			log->v[i].what);
	if (timing) {
		fprintf(f, "%-10s %12s %8s\n", "pass", "ms", "changes");
		for (int p = 0; p < NPU_NPASS; p++) {
			fprintf(f, "%-10s %12.3f %8d\n", npu_pass_name(p),
				log->seconds[p] * 1e3, log->changes[p]);
			total += log->seconds[p];
		}
		fprintf(f, "%-10s %12.3f   nodes %d -> %d\n", "total", total * 1e3,
			log->nodes_before, log->nodes_after);
	}
	return ferror(f) ? -1 : 0;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int npu_passlog_print_json(const npu_passlog *log, FILE *f)
{
	fputs("{\"entries\": [", f);
	for (int i = 0; i < log->n; i++) {
		fprintf(f, "%s\n  {\"pass\": ", i ? "," : "");
		json_str(f, npu_pass_name(log->v[i].pass));
		fputs(", \"what\": ", f);
		json_str(f, log->v[i].what);
		fputs(", \"nodes\": ", f);
		json_str(f, log->v[i].nodes);
		fputc('}', f);
	}
	fputs("],\n \"passes\": [", f);
	for (int p = 0; p < NPU_NPASS; p++) {
		fprintf(f, "%s\n  {\"name\": \"%s\", \"seconds\": %.9f, "
			"\"changes\": %d}", p ? "," : "", npu_pass_name(p),
			log->seconds[p], log->changes[p]);
	}
	fprintf(f, "],\n \"nodes_before\": %d, \"nodes_after\": %d}\n",
		log->nodes_before, log->nodes_after);
	return ferror(f) ? -1 : 0;
}

/* ---- shared helpers ---------------------------------------------- */

int pass_mutated_input(const npu_graph *g, int i)
{
	int k = 0;

	/* a backward graph's flags describe the forward graph's inputs */
	if (!g->has_aot || g->kind == NPU_GK_BACKWARD ||
	    g->nodes[i].op != NPU_GOP_PLACEHOLDER)
		return 0;
	for (int j = 0; j < i; j++)
		k += g->nodes[j].op == NPU_GOP_PLACEHOLDER;
	return k < g->ninput_mutates && g->input_mutates_data[k];
}

/* The first tensor meta of the node an argument refers to, or NULL. */
static const npu_gmeta *arg_meta(npu_gedit *ge, const npu_gval *v)
{
	const npu_gnode *n;

	if (!v || v->kind != NPU_GV_NODE)
		return NULL;
	n = npu_gedit_node(ge, v->u.node);
	return n->nmeta && n->meta[0].kind == NPU_GM_TENSOR && !n->multi ?
	       &n->meta[0] : NULL;
}

static const npu_gval *arg(const npu_gnode *n, int i, const char *kw)
{
	if (i < n->nargs)
		return &n->args[i];
	return kw ? npu_gnode_kwarg(n, kw) : NULL;
}

static int shapes_equal(const npu_gmeta *a, const npu_gmeta *b)
{
	if (!a || !b || a->ndim != b->ndim)
		return 0;
	for (int i = 0; i < a->ndim; i++) {
		if (!a->shape[i].sym != !b->shape[i].sym)
			return 0;
		if (a->shape[i].sym ? strcmp(a->shape[i].sym, b->shape[i].sym)
				    : a->shape[i].v != b->shape[i].v)
			return 0;
	}
	return 1;
}

/* Is node i used by the output node directly? */
static int is_output_value(npu_gedit *ge, int i)
{
	const int *u;
	int nu = npu_gedit_users(ge, i, &u);

	for (int k = 0; k < nu; k++)
		if (npu_gedit_node(ge, u[k])->op == NPU_GOP_OUTPUT)
			return 1;
	return 0;
}

/* An op with no table entry may do anything: never removed or merged. */
static int pure_call(const npu_gnode *n)
{
	return n->op == NPU_GOP_CALL_FUNCTION && n->aop != NPU_AOP_UNKNOWN;
}

/* ---- normargs ---------------------------------------------------- */

/* Where an op keeps its dim arguments: position, whether it is a list,
 * and how many more dims than the input the range covers. */
static int dim_slot(int aop, int *list, int *extra)
{
	*list = 0;
	*extra = 0;
	switch (aop) {
	case NPU_AOP_SOFTMAX: case NPU_AOP_LOG_SOFTMAX: case NPU_AOP_CUMSUM:
	case NPU_AOP_SELECT: case NPU_AOP_SLICE: case NPU_AOP_SQUEEZE_DIM:
	case NPU_AOP_PROD_DIM: case NPU_AOP_ANY_DIM: case NPU_AOP_ALL_DIM:
	case NPU_AOP_MAX_DIM: case NPU_AOP_MIN_DIM: case NPU_AOP_INDEX_SELECT:
	case NPU_AOP_GATHER: case NPU_AOP_TRANSPOSE:
		return 1;
	case NPU_AOP_UNSQUEEZE:
		*extra = 1;
		return 1;
	case NPU_AOP_PERMUTE: case NPU_AOP_SUM_DIM: case NPU_AOP_MEAN_DIM:
	case NPU_AOP_AMAX: case NPU_AOP_AMIN: case NPU_AOP_SQUEEZE_DIMS:
	case NPU_AOP_ANY_DIMS: case NPU_AOP_VAR: case NPU_AOP_STD:
	case NPU_AOP_VAR_MEAN:
		*list = 1;
		return 1;
	}
	return 0;
}

/* Makes one int dim non-negative; 1 when it changed. */
static int fix_dim(npu_gval *v, int rank)
{
	if (v->kind != NPU_GV_INT || v->u.i >= 0 || v->u.i < -rank)
		return 0;
	v->u.i += rank;
	return 1;
}

/*
 * A convolution's stride, padding, dilation and output_padding given as
 * one value for every spatial dim ([0] for padding="valid", SigLIP's
 * patch embedding): the list repeated to the input's spatial rank, the
 * form the lowerings read.  1 when it changed, -1 out of memory.
 */
static int conv_lists(npu_gnode *n, const npu_gmeta *in)
{
	int sp = in ? in->ndim - 2 : 0, changed = 0;

	if (n->aop != NPU_AOP_CONV || sp < 2)
		return 0;
	for (int a = 3; a <= 7 && a < n->nargs; a++) {
		npu_gval *v = &n->args[a], *nv;
		if (a == 6 || v->kind != NPU_GV_LIST || v->u.list.n != 1 ||
		    v->u.list.v[0].kind != NPU_GV_INT)   /* copied by value */
			continue;
		if (!(nv = calloc((size_t)sp, sizeof *nv)))
			return -1;
		for (int k = 0; k < sp; k++)
			nv[k] = v->u.list.v[0];
		free(v->u.list.v);
		v->u.list.v = nv;
		v->u.list.n = sp;
		changed = 1;
	}
	return changed;
}

/* n made a call of target (an op of the table). */
static int retarget(pass_cx *pc, npu_gnode *n, const char *target)
{
	char *t = strdup(target);

	if (!t)
		return npu_errf(pc->e, "out of memory");
	free(n->target);
	n->target = t;
	n->aop = npu_aop_find(t);
	return 0;
}

/* prims.convert_element_type(a, dtype), which Dynamo's decompositions
 * leave in some graphs: aten._to_copy(a, dtype=dtype), its ATen form. */
static int prims_convert(pass_cx *pc, npu_gnode *n)
{
	static const char to_copy[] = "aten._to_copy.default";
	npu_gkwarg *kw;
	char *key;

	if (strcmp(n->target, NPU_PRIMS_CONVERT) ||
	    n->nargs != 2 || n->nkwargs || n->args[1].kind != NPU_GV_DTYPE)
		return 0;
	kw = calloc(1, sizeof *kw);
	key = strdup("dtype");
	if (!kw || !key || retarget(pc, n, to_copy) < 0) {
		free(kw);
		free(key);
		return npu_errf(pc->e, "out of memory");
	}
	kw->key = key;
	kw->val = n->args[1];
	n->args[1] = (npu_gval){ .kind = NPU_GV_NONE };
	n->nargs = 1;
	free(n->kwargs);            /* the reader's empty array */
	n->kwargs = kw;
	n->nkwargs = 1;
	return pass_log(pc, n->name, "%s: prims.convert_element_type as %s",
			n->name, to_copy);
}

/* native_batch_norm(x, w, b, mean, var, training=False, momentum, eps),
 * PyTorch 1.13's inference batch norm: 2.x's form of it,
 * _native_batch_norm_legit_no_training(x, w, b, mean, var, momentum,
 * eps), which the conv-BN fold and the lowering take; in training with
 * no running statistics, _native_batch_norm_legit.no_stats. */
static int bn_eval(pass_cx *pc, npu_gnode *n)
{
	static const char legit[] = "aten._native_batch_norm_legit_no_training.default";
	static const char nostats[] = "aten._native_batch_norm_legit.no_stats";

	if (n->aop != NPU_AOP_BN_NATIVE || n->nargs != 8 || n->nkwargs ||
	    n->args[5].kind != NPU_GV_BOOL)
		return 0;
	/* training without running statistics (1.13's InstanceNorm: the
	 * batch's own over [1, N * C, ...]): the no_stats form, args 3 and
	 * 4 (None) dropped */
	if (n->args[5].u.b && n->args[3].kind == NPU_GV_NONE &&
	    n->args[4].kind == NPU_GV_NONE) {
		if (retarget(pc, n, nostats) < 0)
			return -1;
		memmove(n->args + 3, n->args + 5, 3 * sizeof *n->args);
		n->nargs = 6;
		return pass_log(pc, n->name, "%s: native_batch_norm without running "
				"statistics as %s", n->name, nostats);
	}
	if (n->args[5].u.b || n->args[3].kind != NPU_GV_NODE || n->args[4].kind != NPU_GV_NODE)
		return 0;
	if (retarget(pc, n, legit) < 0)
		return -1;
	npu_gval_clear(&n->args[5]);
	memmove(n->args + 5, n->args + 6, 2 * sizeof *n->args);
	n->nargs = 7;
	return pass_log(pc, n->name, "%s: native_batch_norm in eval mode as %s",
			n->name, legit);
}

static int normargs_node(pass_cx *pc, npu_gedit *ge, int i)
{
	npu_gnode *n = npu_gedit_node(ge, i);
	const npu_gmeta *in = n->nargs ? arg_meta(ge, &n->args[0]) : NULL;
	int list, extra, changed = 0, c;

	if ((c = conv_lists(n, in)) < 0)
		return npu_errf(pc->e, "out of memory");
	if (c && pass_log(pc, n->name, "%s: one-value lists repeated for each spatial dim",
			  n->name) < 0)
		return -1;

	/* add/sub with alpha=1: the plain op */
	if ((n->aop == NPU_AOP_ADD_TENSOR || n->aop == NPU_AOP_SUB_TENSOR) &&
	    n->nkwargs == 1 && !strcmp(n->kwargs[0].key, "alpha") &&
	    ((n->kwargs[0].val.kind == NPU_GV_INT && n->kwargs[0].val.u.i == 1) ||
	     (n->kwargs[0].val.kind == NPU_GV_FLOAT && n->kwargs[0].val.u.f == 1))) {
		free(n->kwargs[0].key);
		npu_gval_clear(&n->kwargs[0].val);
		free(n->kwargs);
		n->kwargs = NULL;
		n->nkwargs = 0;
		if (pass_log(pc, n->name, "%s: dropped alpha=1", n->name) < 0)
			return -1;
	}
	if (!in || !dim_slot(n->aop, &list, &extra))
		return 0;
	for (int a = 1; a <= (n->aop == NPU_AOP_TRANSPOSE ? 2 : 1); a++) {
		npu_gval *v = a < n->nargs ? &n->args[a] : NULL;
		if (!v && a == 1 && n->nkwargs && !strcmp(n->kwargs[0].key, "dim"))
			v = &n->kwargs[0].val;
		if (!v)
			continue;
		if (list && v->kind == NPU_GV_LIST)
			for (int k = 0; k < v->u.list.n; k++)
				changed |= fix_dim(&v->u.list.v[k], in->ndim + extra);
		else if (!list)
			changed |= fix_dim(v, in->ndim + extra);
	}
	if (changed && pass_log(pc, n->name, "%s: dims made non-negative",
				n->name) < 0)
		return -1;
	return 0;
}

static int pass_normargs(pass_cx *pc, npu_gedit *ge)
{
	for (int i = 0; i < npu_gedit_n(ge); i++) {
		npu_gnode *n = npu_gedit_node(ge, i);
		if (n->op == NPU_GOP_CALL_FUNCTION &&
		    (prims_convert(pc, n) < 0 || bn_eval(pc, n) < 0))
			return -1;
		if (pure_call(n) && normargs_node(pc, ge, i) < 0)
			return -1;
	}
	return 0;
}

/* ---- dce --------------------------------------------------------- */

static void mark_live(int *ref, void *ctx)
{
	unsigned char *live = ctx;

	live[*ref] = 1;
}

/*
 * Live: the output, placeholders (they are the program's signature),
 * anything with unknown effects, and whatever those use.  Walking
 * backward over a topological order needs one pass.
 */
static int pass_dce(pass_cx *pc, npu_gedit *ge)
{
	int n = npu_gedit_n(ge);
	unsigned char *live = calloc((size_t)n + 1, 1);

	if (!live)
		return npu_errf(pc->e, "out of memory");
	for (int i = n - 1; i >= 0; i--) {
		npu_gnode *nd = npu_gedit_node(ge, i);
		if (npu_gedit_dead(ge, i))
			continue;
		if (nd->op == NPU_GOP_OUTPUT || nd->op == NPU_GOP_PLACEHOLDER ||
		    (nd->op != NPU_GOP_GET_ATTR && !pure_call(nd)))
			live[i] = 1;
		if (live[i])
			npu_gnode_refs(nd, mark_live, live);
	}
	for (int i = 0; i < n; i++) {
		npu_gnode *nd = npu_gedit_node(ge, i);
		if (live[i] || npu_gedit_dead(ge, i))
			continue;
		npu_gedit_kill(ge, i);
		if (pass_log(pc, nd->name, "removed %s (%s, no users)", nd->name,
			     nd->target) < 0) {
			free(live);
			return -1;
		}
	}
	free(live);
	return 0;
}

/* A copy of an input the graph mutates: a snapshot of its old value,
 * which CSE and noop leave alone even when it looks redundant. */
static int snapshot_of_mutated(npu_gedit *ge, const npu_gnode *n)
{
	switch (n->aop) {
	case NPU_AOP_CLONE: case NPU_AOP_ALIAS: case NPU_AOP_LIFT_FRESH_COPY:
	case NPU_AOP_DETACH: case NPU_AOP_TO_COPY: case NPU_AOP_COPY:
		break;
	default:
		return 0;
	}
	for (int a = 0; a < n->nargs && a < 2; a++)
		if (n->args[a].kind == NPU_GV_NODE &&
		    n->args[a].u.node < ge->nold &&
		    pass_mutated_input(ge->g, n->args[a].u.node))
			return 1;
	return 0;
}

/* ---- cse --------------------------------------------------------- */

static uint64_t hash_val(uint64_t h, const npu_gval *v)
{
	h = (h ^ (uint64_t)v->kind) * 1099511628211u;
	switch (v->kind) {
	case NPU_GV_NODE: return (h ^ (uint64_t)v->u.node) * 1099511628211u;
	case NPU_GV_INT: return (h ^ (uint64_t)v->u.i) * 1099511628211u;
	case NPU_GV_LIST:
		for (int i = 0; i < v->u.list.n; i++)
			h = hash_val(h, &v->u.list.v[i]);
		return h;
	default: return h;
	}
}

static uint64_t hash_node(const npu_gnode *n)
{
	uint64_t h = 1469598103934665603u;

	for (const char *s = n->target; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	for (int i = 0; i < n->nargs; i++)
		h = hash_val(h, &n->args[i]);
	return h;
}

static int same_kwargs(const npu_gnode *a, const npu_gnode *b)
{
	if (a->nkwargs != b->nkwargs)
		return 0;
	for (int i = 0; i < a->nkwargs; i++) {
		const npu_gval *v = npu_gnode_kwarg(b, a->kwargs[i].key);
		if (!v || !npu_gval_equal(&a->kwargs[i].val, v))
			return 0;
	}
	return 1;
}

static int same_node(const npu_gnode *a, const npu_gnode *b)
{
	if (a->op != b->op || strcmp(a->target, b->target) ||
	    a->nargs != b->nargs || a->nmeta != b->nmeta ||
	    a->multi != b->multi || !same_kwargs(a, b))
		return 0;
	for (int i = 0; i < a->nargs; i++)
		if (!npu_gval_equal(&a->args[i], &b->args[i]))
			return 0;
	for (int i = 0; i < a->nmeta; i++)
		if (!npu_gmeta_equal(&a->meta[i], &b->meta[i]))
			return 0;
	return 1;
}

/*
 * Pure calls and get_attrs with the same target, arguments and meta
 * compute the same value.  Processing in order with uses rewritten as
 * we go merges whole chains in one pass: once b's inputs are replaced by
 * a's, b's duplicate successors hash like a's.
 */
static int pass_cse(pass_cx *pc, npu_gedit *ge)
{
	int n = npu_gedit_n(ge);
	size_t cap = 64;
	int *tab;
	int rc = 0;

	while (cap < (size_t)n * 2)
		cap <<= 1;
	if (!(tab = malloc(cap * sizeof *tab)))
		return npu_errf(pc->e, "out of memory");
	for (size_t k = 0; k < cap; k++)
		tab[k] = -1;
	for (int i = 0; i < n && !rc; i++) {
		npu_gnode *nd = npu_gedit_node(ge, i);
		size_t h;

		if (npu_gedit_dead(ge, i) ||
		    !(pure_call(nd) || nd->op == NPU_GOP_GET_ATTR) ||
		    snapshot_of_mutated(ge, nd))
			continue;
		h = (size_t)hash_node(nd) & (cap - 1);
		for (; tab[h] >= 0; h = (h + 1) & (cap - 1)) {
			npu_gnode *o = npu_gedit_node(ge, tab[h]);
			if (!same_node(o, nd))
				continue;
			npu_gedit_replace_uses(ge, i, tab[h]);
			npu_gedit_kill(ge, i);
			rc = pass_log(pc, nd->name, "%s = %s (same %s)", nd->name,
				      o->name, nd->target);
			if (!rc)
				rc = pass_prov_merge(pc, o->name, nd->name);
			break;
		}
		if (tab[h] < 0)
			tab[h] = i;
	}
	free(tab);
	return rc;
}

/* ---- convbn ------------------------------------------------------ */

int pass_add_call(pass_cx *pc, npu_gedit *ge, int anchor, const char *name,
		    const char *target, const npu_gval *args, int nargs,
		    const npu_gmeta *meta, int like)
{
	npu_gnode n;
	int idx;

	if (npu_gnode_make(&n, name, target, args, nargs, meta,
			   npu_gedit_node(ge, like)) < 0)
		return npu_errf(pc->e, "out of memory");
	idx = npu_gedit_add(ge, anchor, &n, pc->e);
	if (idx >= 0 && pass_prov(pc, npu_gedit_node(ge, idx)->name,
				  npu_gedit_node(ge, like)->name) < 0)
		return -1;
	return idx;
}

/* A [C] BN parameter, or none. */
static int bn_param(npu_gedit *ge, const npu_gnode *bn, int i, int c, int dt,
		    int before)
{
	const npu_gval *v = arg(bn, i, NULL);
	const npu_gmeta *m;

	if (!v || v->kind == NPU_GV_NONE)
		return -1;
	m = arg_meta(ge, v);
	if (!m || m->ndim != 1 || m->shape[0].sym || m->shape[0].v != c ||
	    m->dtype != dt || v->u.node >= before)
		return -2;
	return v->u.node;
}

/*
 * The frozen value of node i (a placeholder the graph does not mutate, a
 * get_attr tensor or an earlier folded constant) as doubles, or NULL.
 */
const npu_reftensor *pass_frozen(pass_cx *pc, npu_gedit *ge, int i)
{
	const npu_passopts *o = pc->o;
	const npu_gnode *n = npu_gedit_node(ge, i);
	const npu_reftensor *t = NULL;
	char key[512];

	if (n->op == NPU_GOP_GET_ATTR) {
		t = npu_passconsts_find(o->consts, n->target);
		snprintf(key, sizeof key, "attr.%s", n->target);
	} else if (n->op == NPU_GOP_PLACEHOLDER && !pass_mutated_input(pc->g, i)) {
		snprintf(key, sizeof key, "%s", n->name);
	} else {
		return NULL;
	}
	if (!t && o->frozen)
		t = o->frozen(o->ctx, key);
	if (!t || !n->nmeta || t->dtype != n->meta[0].dtype ||
	    t->ndim != n->meta[0].ndim)
		return NULL;
	for (int d = 0; d < t->ndim; d++)
		if (n->meta[0].shape[d].sym || t->shape[d] != n->meta[0].shape[d].v)
			return NULL;
	return t;
}

/*
 * The conv weight's elements: read raw when the caller offers raw bytes
 * (no fp64 copy of every weight is made just to be scaled once), else
 * through frozen_val.  *raw or *ref is set; 0, or -1 when not frozen.
 */
static int frozen_weight(pass_cx *pc, npu_gedit *ge, int i, const void **raw,
			 const npu_reftensor **ref)
{
	const npu_passopts *o = pc->o;
	const npu_gnode *n = npu_gedit_node(ge, i);
	int dt, nd;
	int64_t shp[NPU_MAX_DIMS];

	*raw = NULL;
	*ref = NULL;
	if (o->frozen_raw && n->op == NPU_GOP_PLACEHOLDER && n->nmeta &&
	    !pass_mutated_input(pc->g, i) &&
	    (*raw = o->frozen_raw(o->ctx, n->name, &dt, &nd, shp))) {
		if (dt != n->meta[0].dtype || nd != n->meta[0].ndim)
			return *raw = NULL, -1;
		for (int d = 0; d < nd; d++)
			if (n->meta[0].shape[d].sym || shp[d] != n->meta[0].shape[d].v)
				return *raw = NULL, -1;
		return 0;
	}
	*ref = pass_frozen(pc, ge, i);
	return *ref ? 0 : -1;
}

/* x rounded to dtype dt (a floating type), as a double. */
static double round_dt(int dt, double x)
{
	if (dt == NPU_DT_F64)
		return x;
	if (dt == NPU_DT_F32)
		return (double)(float)x;
	return (double)npu_round_through(dt, (float)x);
}

/* A new get_attr "_folded_K" holding t (moved into the constants, no copy
 * of a large weight), added before anchor with like's provenance. */
int pass_add_frozen(pass_cx *pc, npu_gedit *ge, int anchor, int like,
		    const npu_gmeta *meta, npu_reftensor *t)
{
	npu_passconsts *cs = pc->o->consts;
	npu_passconst *pcst;
	npu_gnode g;
	char name[64];
	int idx;

	if (cs->n == cs->cap) {
		int cap = cs->cap ? 2 * cs->cap : 16;
		npu_passconst *v = realloc(cs->v, (size_t)cap * sizeof *v);
		if (!v)
			return npu_errf(pc->e, "out of memory");
		cs->v = v;
		cs->cap = cap;
	}
	snprintf(name, sizeof name, "_folded_%d", cs->n);
	pcst = &cs->v[cs->n];
	memset(pcst, 0, sizeof *pcst);
	if (!(pcst->name = strdup(name)) ||
	    !(pcst->origin = strdup(npu_gedit_node(ge, like)->name))) {
		free(pcst->name);
		free(pcst->origin);
		return npu_errf(pc->e, "out of memory");
	}
	pcst->t = *t;
	t->data = NULL;
	t->ndim = -1;
	cs->n++;
	if (npu_gnode_make(&g, name, name, NULL, 0, meta,
			   npu_gedit_node(ge, like)) < 0)
		return npu_errf(pc->e, "out of memory");
	g.op = NPU_GOP_GET_ATTR;
	g.aop = NPU_AOP_UNKNOWN;
	if ((idx = npu_gedit_add(ge, anchor, &g, pc->e)) < 0)
		return -1;
	if (pass_prov(pc, name, npu_gedit_node(ge, like)->name) < 0)
		return -1;
	return idx;
}

/*
 * The frozen case of convbn_one, computed here in one loop instead of as
 * graph arithmetic for the fold pass (whose interpreter would convert
 * every weight to fp64, broadcast and round op by op):
 *   s[c]  = gamma[c] / sqrt(var[c] + eps)
 *   w'    = w * s[c] per output channel, b' = (b - mean) * s + beta
 * in fp64, each result rounded once to the weight's dtype.  Sets *w2 and
 * *b2 to the new get_attr nodes; 1 when done, 0 when some parameter is
 * not frozen (the caller emits the arithmetic), -1 on error.
 */
static int convbn_direct(pass_cx *pc, npu_gedit *ge, int ci, int bi,
			 const int *p, double eps, int C, int dt, int *w2,
			 int *b2)
{
	const npu_gnode *cv = npu_gedit_node(ge, ci);
	const npu_reftensor *pr[4] = { NULL }, *bias = NULL, *wref;
	const void *wraw;
	const npu_gmeta *wm = arg_meta(ge, &cv->args[1]);
	npu_reftensor wt = { .ndim = -1 }, bt = { .ndim = -1 };
	npu_gmeta bm;
	int64_t per, cshape[1] = { C }, wshp[NPU_MAX_DIMS];
	double *s = NULL;

	if (!pc->o->consts || (!pc->o->frozen && !pc->o->frozen_raw) ||
	    (dt != NPU_DT_F32 && dt != NPU_DT_F64 && dt != NPU_DT_BF16 &&
	     dt != NPU_DT_F16) || cv->args[1].kind != NPU_GV_NODE || !wm)
		return 0;
	for (int k = 0; k < 4; k++)
		if (p[k] >= 0 && !(pr[k] = pass_frozen(pc, ge, p[k])))
			return 0;
	if (cv->args[2].kind == NPU_GV_NODE &&
	    !(bias = pass_frozen(pc, ge, cv->args[2].u.node)))
		return 0;
	if (frozen_weight(pc, ge, cv->args[1].u.node, &wraw, &wref) < 0)
		return 0;
	/* the weight's shape is its meta's (checked by frozen_weight) */
	if (npu_gmeta_shape(wm, wshp) != wm->ndim || wm->dtype != dt)
		return 0;
	if (npu_reftensor_alloc(&wt, dt, wm->ndim, wshp, pc->e) < 0)
		return -1;
	if (npu_reftensor_alloc(&bt, dt, 1, cshape, pc->e) < 0 ||
	    !(s = malloc((size_t)C * sizeof *s))) {
		npu_reftensor_free(&wt);
		npu_reftensor_free(&bt);
		return npu_errf(pc->e, "out of memory");
	}
	per = C ? npu_reftensor_numel(&wt) / C : 0;
	for (int c = 0; c < C; c++) {
		double g = pr[0] ? pr[0]->data[c] : 1, b = bias ? bias->data[c] : 0;
		s[c] = g / sqrt(pr[3]->data[c] + eps);
		bt.data[c] = round_dt(dt, (b - pr[2]->data[c]) * s[c] +
				      (pr[1] ? pr[1]->data[c] : 0));
	}
	for (int64_t c = 0; c < C; c++) {
		double *o = wt.data + c * per;
		if (wref) {
			for (int64_t j = 0; j < per; j++)
				o[j] = round_dt(dt, wref->data[c * per + j] * s[c]);
		} else if (dt == NPU_DT_F32) {
			const unsigned char *r = (const unsigned char *)wraw +
						 (size_t)(c * per) * 4;
			for (int64_t j = 0; j < per; j++) {
				float f;
				memcpy(&f, r + 4 * j, 4);
				o[j] = (double)(float)((double)f * s[c]);
			}
		} else {
			for (int64_t j = 0; j < per; j++)
				o[j] = round_dt(dt, npu_load_f64(dt, wraw,
						(size_t)(c * per + j)) * s[c]);
		}
	}
	free(s);
	npu_gmeta_set(&bm, dt, 1, cshape);
	if ((*w2 = pass_add_frozen(pc, ge, ci, bi, wm, &wt)) < 0 ||
	    (*b2 = pass_add_frozen(pc, ge, ci, bi, &bm, &bt)) < 0) {
		npu_reftensor_free(&wt);
		npu_reftensor_free(&bt);
		return -1;
	}
	return 1;
}

/*
 * conv -> bn -> getitem 0 becomes one conv with
 *   s  = weight * rsqrt(var + eps)           (weight = 1 when none)
 *   w' = w * s.view(C, 1, ..., 1)
 *   b' = (b - mean) * s + bias               (b = 0, bias = 0 when none)
 * written as graph arithmetic on the parameters, so that the fold pass
 * (in cleanup) turns it into two constants when they are frozen, and the
 * result stays right when they are not.
 */
static int convbn_one(pass_cx *pc, npu_gedit *ge, int bi)
{
	npu_gnode *bn = npu_gedit_node(ge, bi), *cv;
	const int *u;
	int nu, ci, gi = -1, C, dt, wnd, p[4], s, r, t, w2 = -1, b2 = -1, k;
	const npu_gmeta *wm, *om;
	const npu_gval *eps;
	int64_t shp[NPU_MAX_DIMS];
	npu_gmeta m;
	npu_gval a[3];
	char nodes[512];

	if (!bn->nargs || bn->args[0].kind != NPU_GV_NODE)
		return 0;
	ci = bn->args[0].u.node;
	cv = npu_gedit_node(ge, ci);
	if (cv->aop != NPU_AOP_CONV || cv->nargs < 9)
		return 0;
	snprintf(nodes, sizeof nodes, "%s,%s", cv->name, bn->name);
	nu = npu_gedit_users(ge, ci, &u);
	if (nu != 1)
		return pass_note(pc, nodes, "kept %s (%d users)", cv->name, nu);
	if (cv->args[6].kind == NPU_GV_BOOL && cv->args[6].u.b)
		return pass_note(pc, nodes, "kept %s (transposed)", cv->name);
	nu = npu_gedit_users(ge, bi, &u);
	for (k = 0; k < nu; k++) {
		npu_gnode *gn = npu_gedit_node(ge, u[k]);
		if (gn->aop != NPU_AOP_GETITEM || gn->nargs < 2 ||
		    gn->args[1].kind != NPU_GV_INT || gn->args[1].u.i != 0 || gi >= 0)
			return pass_note(pc, nodes, "kept %s (batch norm result "
					 "%s used)", cv->name, gn->name);
		gi = u[k];
	}
	wm = arg_meta(ge, &cv->args[1]);
	om = cv->nmeta ? &cv->meta[0] : NULL;
	eps = arg(bn, 6, "eps");
	if (!wm || !om || gi < 0 || npu_gmeta_shape(wm, shp) < 2 ||
	    !eps || (eps->kind != NPU_GV_FLOAT && eps->kind != NPU_GV_INT))
		return pass_note(pc, nodes, "kept %s (shapes not concrete)",
				 cv->name);
	C = (int)shp[0];
	dt = wm->dtype;
	wnd = wm->ndim;
	for (k = 0; k < 4; k++)
		if ((p[k] = bn_param(ge, bn, k + 1, C, dt, ci)) == -2)
			return pass_note(pc, nodes, "kept %s (batch norm "
					 "parameter %d not a [%d] %s tensor "
					 "defined before it)", cv->name, k + 1,
					 C, npu_dtype_torch(dt));
	if (p[2] < 0 || p[3] < 0)
		return pass_note(pc, nodes, "kept %s (no running statistics)",
				 cv->name);
	if (cv->args[2].kind == NPU_GV_NODE) {
		const npu_gmeta *bm = arg_meta(ge, &cv->args[2]);
		if (!bm || bm->dtype != dt)
			return pass_note(pc, nodes, "kept %s (bias dtype)",
					 cv->name);
	}
	k = convbn_direct(pc, ge, ci, bi, p, eps->kind == NPU_GV_FLOAT ?
			  eps->u.f : (double)eps->u.i, C, dt, &w2, &b2);
	if (k < 0)
		return -1;
	if (k)
		goto rewire;
	/* s = [weight *] rsqrt(var + eps) */
	npu_gmeta_set(&m, dt, 1, shp);
	a[0] = npu_gv_node(p[3]);
	a[1] = *eps;
	if ((t = pass_add_call(pc, ge, ci, "bn_var_eps", "aten.add.Tensor", a, 2, &m,
			  bi)) < 0)
		return -1;
	a[0] = npu_gv_node(t);
	if ((s = pass_add_call(pc, ge, ci, "bn_rstd", "aten.rsqrt.default", a, 1, &m,
			  bi)) < 0)
		return -1;
	if (p[0] >= 0) {
		a[0] = npu_gv_node(s);
		a[1] = npu_gv_node(p[0]);
		if ((s = pass_add_call(pc, ge, ci, "bn_scale", "aten.mul.Tensor", a, 2,
				  &m, bi)) < 0)
			return -1;
	}
	/* b' = (b - mean) * s [+ bias] */
	a[0] = npu_gv_node(cv->args[2].kind == NPU_GV_NODE ? cv->args[2].u.node
							  : p[2]);
	a[1] = npu_gv_node(p[2]);
	if (cv->args[2].kind == NPU_GV_NODE)
		r = pass_add_call(pc, ge, ci, "bn_centered", "aten.sub.Tensor", a, 2,
			     &m, bi);
	else
		r = pass_add_call(pc, ge, ci, "bn_centered", "aten.neg.default", a, 1,
			     &m, bi);
	if (r < 0)
		return -1;
	a[0] = npu_gv_node(r);
	a[1] = npu_gv_node(s);
	if ((b2 = pass_add_call(pc, ge, ci, "bn_bias", "aten.mul.Tensor", a, 2, &m,
			   bi)) < 0)
		return -1;
	if (p[1] >= 0) {
		a[0] = npu_gv_node(b2);
		a[1] = npu_gv_node(p[1]);
		if ((b2 = pass_add_call(pc, ge, ci, "bn_bias", "aten.add.Tensor", a, 2,
				   &m, bi)) < 0)
			return -1;
	}
	/* w' = w * s.view(C, 1, ...) */
	for (k = 1; k < wnd; k++)
		shp[k] = 1;
	npu_gmeta_set(&m, dt, wnd, shp);
	a[0] = npu_gv_node(s);
	if (npu_gv_ints(&a[1], shp, wnd) < 0)
		return npu_errf(pc->e, "out of memory");
	t = pass_add_call(pc, ge, ci, "bn_scale_view", "aten.view.default", a, 2, &m,
		     bi);
	npu_gval_clear(&a[1]);
	if (t < 0)
		return -1;
	cv = npu_gedit_node(ge, ci);
	a[0] = cv->args[1];
	a[1] = npu_gv_node(t);
	if ((w2 = pass_add_call(pc, ge, ci, "bn_weight", "aten.mul.Tensor", a, 2,
			   arg_meta(ge, &cv->args[1]), bi)) < 0)
		return -1;
rewire:
	/* the conv itself keeps its name and takes the new operands */
	cv = npu_gedit_node(ge, ci);
	npu_gval_clear(&cv->args[1]);
	npu_gval_clear(&cv->args[2]);
	cv->args[1] = npu_gv_node(w2);
	cv->args[2] = npu_gv_node(b2);
	bn = npu_gedit_node(ge, bi);
	npu_gedit_replace_uses(ge, gi, ci);
	npu_gedit_kill(ge, gi);
	npu_gedit_kill(ge, bi);
	if (pass_prov_merge(pc, cv->name, bn->name) < 0 ||
	    pass_prov_merge(pc, cv->name, npu_gedit_node(ge, gi)->name) < 0)
		return -1;
	return pass_log(pc, nodes, "folded %s + %s", cv->name, bn->name);
}

static int pass_convbn(pass_cx *pc, npu_gedit *ge)
{
	int n = npu_gedit_n(ge);

	for (int i = 0; i < n; i++)
		if (!npu_gedit_dead(ge, i) &&
		    npu_gedit_node(ge, i)->aop == NPU_AOP_BN_INFER &&
		    convbn_one(pc, ge, i) < 0)
			return -1;
	return 0;
}

/* ---- normw ------------------------------------------------------- */

/* The frozen [K] vector among node n's two operands when n is op (mul
 * or add) of a tensor of n's own shape and last dim K (that operand, y,
 * into *y), or -1. */
static int frozen_vec(pass_cx *pc, npu_gedit *ge, const npu_gnode *n, int op, int *y)
{
	const npu_gmeta *m = n->nmeta && !n->multi ? &n->meta[0] : NULL;

	if (n->aop != op || n->nargs != 2 || n->nkwargs || !m || !m->ndim ||
	    m->shape[m->ndim - 1].sym)
		return -1;
	for (int k = 0; k < 2; k++) {
		const npu_gmeta *wm = arg_meta(ge, &n->args[k]);
		const npu_gmeta *ym = arg_meta(ge, &n->args[1 - k]);
		if (!wm || !ym || wm->ndim != 1 || wm->dtype != m->dtype ||
		    wm->shape[0].sym || wm->shape[0].v != m->shape[m->ndim - 1].v ||
		    !shapes_equal(ym, m) || ym->dtype != m->dtype ||
		    !pass_frozen(pc, ge, n->args[k].u.node))
			continue;
		*y = n->args[1 - k].u.node;
		return n->args[k].u.node;
	}
	return -1;
}

/* A norm's affine tail y * w (+ b), all the matmuls' A reads. */
typedef struct normw_t {
	int y;                      /* the normalized rows */
	int w, b;                   /* frozen [K] weight, bias (or -1) */
	int end;                    /* the product, or the sum with b */
	int64_t K;
	int dt;
} normw_t;

/* Whether view node v of the tail (last dim K kept) feeds only matmuls
 * as their A, each by a frozen B [K][N] of at most max elements; with a
 * bias, only addmm by a frozen [N] bias of its own (beta = alpha = 1). */
static int feeds_frozen_mms(pass_cx *pc, npu_gedit *ge, int v, const normw_t *t,
			    long long max)
{
	const npu_gnode *n = npu_gedit_node(ge, v);
	const npu_gmeta *m = n->nmeta && !n->multi ? &n->meta[0] : NULL;
	const int *u;
	int nu;

	if ((n->aop != NPU_AOP_VIEW && n->aop != NPU_AOP_UNSAFE_VIEW &&
	     n->aop != NPU_AOP_RESHAPE) || !m || m->ndim != 2 || m->shape[1].sym ||
	    m->shape[1].v != t->K || is_output_value(ge, v))
		return 0;
	nu = npu_gedit_users(ge, v, &u);
	for (int j = 0; j < nu; j++) {
		const npu_gnode *mm = npu_gedit_node(ge, u[j]);
		int a = mm->aop == NPU_AOP_ADDMM ? 1 : 0;
		const npu_gmeta *bm, *cm;
		if ((mm->aop != NPU_AOP_MM && mm->aop != NPU_AOP_ADDMM) ||
		    mm->nargs != a + 2 || mm->nkwargs || mm->args[a].kind != NPU_GV_NODE ||
		    mm->args[a].u.node != v || (bm = arg_meta(ge, &mm->args[a + 1])) == NULL ||
		    bm->dtype != t->dt || bm->ndim != 2 || bm->shape[0].v != t->K ||
		    bm->shape[1].sym || (long long)t->K * bm->shape[1].v > max ||
		    !pass_frozen(pc, ge, mm->args[a + 1].u.node))
			return 0;
		if (t->b >= 0 && (!a || !(cm = arg_meta(ge, &mm->args[0])) || cm->ndim != 1 ||
				  cm->dtype != t->dt || cm->shape[0].v != bm->shape[1].v ||
				  !pass_frozen(pc, ge, mm->args[0].u.node)))
			return 0;
	}
	return nu > 0;
}

/* A folded constant like node `like`'s meta (anchor: before i) holding
 * t, or -1. */
static int add_const(pass_cx *pc, npu_gedit *ge, int i, int like, npu_reftensor *t)
{
	npu_gmeta meta;
	int ni;

	if (npu_gmeta_copy(&meta, &npu_gedit_node(ge, like)->meta[0]) < 0)
		return npu_errf(pc->e, "out of memory");
	ni = pass_add_frozen(pc, ge, i, like, &meta, t);
	npu_gmeta_clear(&meta);
	if (ni < 0)
		npu_reftensor_free(t);
	return ni;
}

/* The folded constant node bi holds when matmul i is its only reader
 * (fold's transposed weight): scaled in place, no second copy of a
 * large weight.  NULL otherwise. */
static npu_reftensor *own_folded(pass_cx *pc, npu_gedit *ge, int bi, int i)
{
	const npu_gnode *n = npu_gedit_node(ge, bi);
	npu_passconsts *c = pc->o->consts;
	const int *u;

	if (n->op != NPU_GOP_GET_ATTR || npu_gedit_users(ge, bi, &u) != 1 || u[0] != i)
		return NULL;
	for (int k = 0; k < c->n; k++)
		if (!strcmp(c->v[k].name, n->target))
			return &c->v[k].t;
	return NULL;
}

/* Matmul i's B replaced by w[k] * B[k][n], and with a bias b its own c
 * by c[n] + sum_k b[k] B[k][n], each rounded once to its dtype. */
static int scale_b(pass_cx *pc, npu_gedit *ge, int i, const normw_t *nw)
{
	npu_gnode *mm = npu_gedit_node(ge, i);
	int a = mm->aop == NPU_AOP_ADDMM ? 2 : 1, bi = mm->args[a].u.node, ci = -1, nb = bi, nc;
	const npu_reftensor *b = pass_frozen(pc, ge, bi), *w = pass_frozen(pc, ge, nw->w);
	const npu_reftensor *c = NULL, *bv = nw->b >= 0 ? pass_frozen(pc, ge, nw->b) : NULL;
	npu_reftensor t = { .ndim = -1 }, tc = { .ndim = -1 }, *own = own_folded(pc, ge, bi, i);
	int64_t K = b->shape[0], N = b->shape[1];

	if (!own && npu_reftensor_alloc(&t, b->dtype, 2, b->shape, pc->e) < 0)
		return -1;
	if (bv) {
		ci = mm->args[0].u.node;
		c = pass_frozen(pc, ge, ci);
		if (npu_reftensor_alloc(&tc, c->dtype, 1, c->shape, pc->e) < 0) {
			npu_reftensor_free(&t);
			return -1;
		}
		for (int64_t n = 0; n < N; n++) {
			double s = c->data[n];
			for (int64_t k = 0; k < K; k++)
				s += bv->data[k] * b->data[k * N + n];
			tc.data[n] = round_dt(c->dtype, s);
		}
	}
	/* (after c': it reads B unscaled) */
	for (int64_t k = 0; k < K; k++)
		for (int64_t n = 0; n < N; n++)
			(own ? own : &t)->data[k * N + n] =
				round_dt(b->dtype, w->data[k] * b->data[k * N + n]);
	if (!own && (nb = add_const(pc, ge, i, bi, &t)) < 0) {
		npu_reftensor_free(&tc);
		return -1;
	}
	npu_gedit_node(ge, i)->args[a] = npu_gv_node(nb);
	if (bv) {
		if ((nc = add_const(pc, ge, i, ci, &tc)) < 0)
			return -1;
		npu_gedit_node(ge, i)->args[0] = npu_gv_node(nc);
	}
	ge->dirty = 1;
	return 0;
}

/* Node i as a norm's affine tail: mul(y, w), and add(that, b) when the
 * product's one user is such a sum.  0 when it is none. */
static int normw_tail(pass_cx *pc, npu_gedit *ge, int i, normw_t *t)
{
	const npu_gnode *n = npu_gedit_node(ge, i);
	const int *u;
	int x;

	t->b = -1;
	t->end = i;
	if ((t->w = frozen_vec(pc, ge, n, NPU_AOP_MUL_TENSOR, &t->y)) < 0 ||
	    is_output_value(ge, i))
		return 0;
	t->K = n->meta[0].shape[n->meta[0].ndim - 1].v;
	t->dt = n->meta[0].dtype;
	if (npu_gedit_users(ge, i, &u) == 1 &&
	    (t->b = frozen_vec(pc, ge, npu_gedit_node(ge, u[0]), NPU_AOP_ADD_TENSOR, &x)) >= 0) {
		if (x != i || is_output_value(ge, u[0]))
			return 0;
		t->end = u[0];
	}
	return 1;
}

/*
 * A normalization's affine tail folded into the matmuls it feeds: y
 * [.., K] times a frozen w [K] (plus a frozen b [K]), viewed [M, K] and
 * multiplied by frozen B [K, N] (plus c [N]), is y viewed [M, K] times
 * B' = w[k] * B[k][n] (plus c' = c + b B): RMSNorm's weight before
 * Llama's q/k/v and gate/up projections, LayerNorm's before GPT-2's and
 * ViT's.  The norm's row kernel then neither loads w and b nor applies
 * them.  Only when the tail feeds nothing else; B' and c' are rounded
 * once, where PyTorch rounds y * w + b once.
 */
static int normw_one(pass_cx *pc, npu_gedit *ge, int i)
{
	long long max = pc->o->fold_max_elems ? pc->o->fold_max_elems : 1LL << 24;
	normw_t t;
	const int *u;
	int nu, *vs;
	char nodes[512], end[256];

	if (!pc->o->consts || !normw_tail(pc, ge, i, &t))
		return 0;
	nu = npu_gedit_users(ge, t.end, &u);
	for (int j = 0; j < nu; j++)
		if (!feeds_frozen_mms(pc, ge, u[j], &t, max))
			return 0;
	if (!nu || !(vs = malloc((size_t)nu * sizeof *vs)))
		return nu ? npu_errf(pc->e, "out of memory") : 0;
	memcpy(vs, u, (size_t)nu * sizeof *vs);
	snprintf(nodes, sizeof nodes, "%s", npu_gedit_node(ge, i)->name);
	snprintf(end, sizeof end, "%s", npu_gedit_node(ge, t.end)->name);
	for (int j = 0; j < nu; j++) {
		const int *mu;
		int nmu = npu_gedit_users(ge, vs[j], &mu), *ms = malloc((size_t)nmu * sizeof *ms);
		if (!ms) {
			free(vs);
			return npu_errf(pc->e, "out of memory");
		}
		memcpy(ms, mu, (size_t)nmu * sizeof *ms);
		for (int k = 0; k < nmu; k++)
			if (scale_b(pc, ge, ms[k], &t) < 0 ||
			    pass_prov_merge(pc, npu_gedit_node(ge, ms[k])->name, nodes) < 0 ||
			    (t.end != i &&
			     pass_prov_merge(pc, npu_gedit_node(ge, ms[k])->name, end) < 0)) {
				free(ms);
				free(vs);
				return -1;
			}
		free(ms);
		npu_gedit_node(ge, vs[j])->args[0] = npu_gv_node(t.y);
		ge->dirty = 1;
	}
	free(vs);
	if (t.end != i)
		return pass_log(pc, nodes, "%s's weight %s and %s's bias %s folded into the %d view(s) "
				"of matmuls they fed", nodes, npu_gedit_node(ge, t.w)->name, end,
				npu_gedit_node(ge, t.b)->name, nu);
	return pass_log(pc, nodes, "%s's weight %s folded into the %d view(s) of matmuls it fed",
			nodes, npu_gedit_node(ge, t.w)->name, nu);
}

static int pass_normw(pass_cx *pc, npu_gedit *ge)
{
	int n = npu_gedit_n(ge);

	for (int i = 0; i < n; i++)
		if (!npu_gedit_dead(ge, i) && normw_one(pc, ge, i) < 0)
			return -1;
	return 0;
}

/* ---- noop -------------------------------------------------------- */

static int is_identity_perm(const npu_gval *v)
{
	if (!v || v->kind != NPU_GV_LIST)
		return 0;
	for (int i = 0; i < v->u.list.n; i++)
		if (v->u.list.v[i].kind != NPU_GV_INT || v->u.list.v[i].u.i != i)
			return 0;
	return 1;
}

/* slice(x, dim, start, end, step) covering all of dim. */
static int full_slice(const npu_gnode *n, const npu_gmeta *in)
{
	const npu_gval *d = arg(n, 1, "dim"), *s = arg(n, 2, "start"),
		       *en = arg(n, 3, "end"), *st = arg(n, 4, "step");
	int64_t dim = d && d->kind == NPU_GV_INT ? d->u.i : 0;

	if (!in || (d && d->kind != NPU_GV_INT && d->kind != NPU_GV_NONE))
		return 0;
	if (dim < 0)
		dim += in->ndim;
	if (dim < 0 || dim >= in->ndim || in->shape[dim].sym)
		return 0;
	if (s && !(s->kind == NPU_GV_NONE || (s->kind == NPU_GV_INT && s->u.i == 0)))
		return 0;
	if (st && !(st->kind == NPU_GV_NONE || (st->kind == NPU_GV_INT && st->u.i == 1)))
		return 0;
	return !en || en->kind == NPU_GV_NONE ||
	       (en->kind == NPU_GV_INT && en->u.i >= in->shape[dim].v);
}

/* Why node n (one input, args[0]) passes its input through, or NULL. */
static const char *noop_reason(npu_gedit *ge, int i)
{
	npu_gnode *n = npu_gedit_node(ge, i);
	const npu_gmeta *in = n->nargs ? arg_meta(ge, &n->args[0]) : NULL;
	const npu_gmeta *out = n->nmeta && !n->multi ? &n->meta[0] : NULL;

	if (!in || !out || out->kind != NPU_GM_TENSOR || in->dtype != out->dtype)
		return NULL;
	switch (n->aop) {
	case NPU_AOP_VIEW: case NPU_AOP_UNSAFE_VIEW: case NPU_AOP_RESHAPE:
	case NPU_AOP_VIEW_COPY: case NPU_AOP_SQUEEZE: case NPU_AOP_SQUEEZE_DIM:
	case NPU_AOP_SQUEEZE_DIMS: case NPU_AOP_EXPAND:
		return shapes_equal(in, out) ? "same shape" : NULL;
	case NPU_AOP_PERMUTE:
		return is_identity_perm(arg(n, 1, "dims")) ? "identity" : NULL;
	case NPU_AOP_TRANSPOSE: {
		const npu_gval *a = arg(n, 1, "dim0"), *b = arg(n, 2, "dim1");
		return in->ndim > 0 && a && b && a->kind == NPU_GV_INT &&
		       b->kind == NPU_GV_INT &&
		       (a->u.i - b->u.i) % in->ndim == 0 ?
		       "same dims" : NULL;
	}
	case NPU_AOP_T:
		return in->ndim < 2 ? "rank < 2" : NULL;
	case NPU_AOP_SLICE:
		return full_slice(n, in) ? "full range" : NULL;
	case NPU_AOP_CLONE: case NPU_AOP_ALIAS: case NPU_AOP_LIFT_FRESH_COPY:
	case NPU_AOP_DETACH: case NPU_AOP_TO_COPY:
		/* a mutated input is written back from the graph's results: its
		 * copies are snapshots that must stay; an output that would
		 * become a bare input keeps its copy (outputs never alias
		 * inputs) */
		if (snapshot_of_mutated(ge, n) ||
		    (n->aop != NPU_AOP_ALIAS && n->aop != NPU_AOP_DETACH &&
		     is_output_value(ge, i)))
			return NULL;
		return n->aop == NPU_AOP_TO_COPY ? "same dtype" :
		       "value not mutated";
	}
	return NULL;
}

/*
 * select(cat([.., view(y, [.., 1 at d, ..]), ..], d), d, k) where the
 * viewed input covers index k (or unsqueeze(y, d): torch.stack as
 * aot_autograd writes it): y itself (a stack read back one slice at a
 * time: the DFT's real part, @dft).  The cat, and what only it read,
 * then go with the next dce.  Returns y's index, or -1.
 */
static int stacked_source(npu_gedit *ge, const npu_gnode *n)
{
	const npu_gval *d = arg(n, 1, "dim"), *k = arg(n, 2, "index"), *l;
	const npu_gmeta *in = n->nargs ? arg_meta(ge, &n->args[0]) : NULL, *m, *ym;
	const npu_gnode *c, *u;
	int64_t dim, at, off = 0;

	if (n->aop != NPU_AOP_SELECT || !in || !d || !k || d->kind != NPU_GV_INT ||
	    k->kind != NPU_GV_INT || n->nmeta != 1 || n->multi)
		return -1;
	dim = d->u.i < 0 ? d->u.i + in->ndim : d->u.i;
	c = npu_gedit_node(ge, n->args[0].u.node);
	if (dim < 0 || dim >= in->ndim || in->shape[dim].sym || c->aop != NPU_AOP_CAT ||
	    !(l = arg(c, 0, "tensors")) || l->kind != NPU_GV_LIST || !arg(c, 1, "dim") ||
	    arg(c, 1, "dim")->kind != NPU_GV_INT ||
	    (arg(c, 1, "dim")->u.i + in->ndim) % in->ndim != dim)
		return -1;
	at = k->u.i < 0 ? k->u.i + in->shape[dim].v : k->u.i;
	for (int j = 0; j < l->u.list.n; j++) {
		if (!(m = arg_meta(ge, &l->u.list.v[j])) || m->ndim != in->ndim ||
		    m->shape[dim].sym)
			return -1;
		if (at >= off + m->shape[dim].v) {
			off += m->shape[dim].v;
			continue;
		}
		u = npu_gedit_node(ge, l->u.list.v[j].u.node);
		if (m->shape[dim].v != 1 ||
		    (u->aop != NPU_AOP_VIEW && u->aop != NPU_AOP_UNSQUEEZE) || !u->nargs ||
		    !(ym = arg_meta(ge, &u->args[0])) || ym->dtype != n->meta[0].dtype ||
		    !shapes_equal(ym, &n->meta[0]))
			return -1;
		return u->args[0].u.node;
	}
	return -1;
}

static int pass_noop(pass_cx *pc, npu_gedit *ge)
{
	for (int i = 0; i < npu_gedit_n(ge); i++) {
		npu_gnode *n = npu_gedit_node(ge, i);
		const char *why;
		int y;

		if (npu_gedit_dead(ge, i) || !pure_call(n))
			continue;
		/* (an output never becomes a bare input) */
		if ((y = stacked_source(ge, n)) >= 0 &&
		    !(npu_gedit_node(ge, y)->op == NPU_GOP_PLACEHOLDER && is_output_value(ge, i))) {
			npu_gedit_replace_uses(ge, i, y);
			npu_gedit_kill(ge, i);
			if (pass_log(pc, n->name, "removed %s (a select of a stacked value: %s)",
				     n->name, npu_gedit_node(ge, y)->name) < 0)
				return -1;
			continue;
		}
		if (!(why = noop_reason(ge, i)))
			continue;
		npu_gedit_replace_uses(ge, i, n->args[0].u.node);
		npu_gedit_kill(ge, i);
		if (pass_log(pc, n->name, "removed %s (%s, %s)", n->name,
			     n->target, why) < 0)
			return -1;
	}
	return 0;
}

/* ---- layout ------------------------------------------------------ */

/* Replaces n's target and arguments by permute(src, perm). */
static int set_permute(npu_gedit *ge, npu_gnode *n, int src, const int64_t *perm, int nd)
{
	npu_gval *args = calloc(3, sizeof *args);
	char *t = strdup("aten.permute.default");

	if (!args || !t || npu_gv_ints(&args[1], perm, nd) < 0) {
		free(args);
		free(t);
		return -1;
	}
	args[0] = npu_gv_node(src);
	for (int k = 0; k < n->nargs; k++)
		npu_gval_clear(&n->args[k]);
	free(n->args);
	for (int k = 0; k < n->nkwargs; k++) {
		free(n->kwargs[k].key);
		npu_gval_clear(&n->kwargs[k].val);
	}
	free(n->kwargs);
	n->kwargs = NULL;
	n->nkwargs = 0;
	n->args = args;
	n->nargs = 2;
	free(n->target);
	n->target = t;
	n->aop = NPU_AOP_PERMUTE;
	/* n may read another node now: the users cache is stale (sink_mul,
	 * later in the same session, counts the readers of a view) */
	ge->dirty = 1;
	return 0;
}

/* The permutation of a permute node, or -1 (also for dims that are not
 * one, which fusion then refuses, naming the node). */
static int get_perm(const npu_gnode *n, int64_t *perm)
{
	const npu_gval *v = arg(n, 1, "dims");
	unsigned seen = 0;
	int nd;

	if (n->aop != NPU_AOP_PERMUTE || !v || v->kind != NPU_GV_LIST ||
	    v->u.list.n > NPU_MAX_DIMS)
		return -1;
	nd = v->u.list.n;
	for (int i = 0; i < nd; i++) {
		int64_t d;
		if (v->u.list.v[i].kind != NPU_GV_INT)
			return -1;
		d = v->u.list.v[i].u.i;
		if (d < -nd || d >= nd || (seen >> ((d + nd) % nd) & 1))
			return -1;
		seen |= 1u << ((d + nd) % nd);
		perm[i] = d;
	}
	return nd;
}

static int layout_node(pass_cx *pc, npu_gedit *ge, int i)
{
	npu_gnode *n = npu_gedit_node(ge, i), *src;
	const npu_gmeta *in = n->nargs ? arg_meta(ge, &n->args[0]) : NULL;
	int64_t perm[NPU_MAX_DIMS], p1[NPU_MAX_DIMS];
	int nd, s;

	if (!in)
		return 0;
	nd = in->ndim;
	s = n->args[0].u.node;
	src = npu_gedit_node(ge, s);
	if ((n->aop == NPU_AOP_T && nd == 2) || n->aop == NPU_AOP_TRANSPOSE) {
		const npu_gval *a = arg(n, 1, "dim0"), *b = arg(n, 2, "dim1");
		int64_t d0 = 1, d1 = 0;
		if (n->aop == NPU_AOP_TRANSPOSE) {
			if (!a || !b || a->kind != NPU_GV_INT || b->kind != NPU_GV_INT)
				return 0;
			d0 = (a->u.i + nd) % nd;
			d1 = (b->u.i + nd) % nd;
		}
		for (int k = 0; k < nd; k++)
			perm[k] = k;
		perm[d0] = d1;
		perm[d1] = d0;
		if (set_permute(ge, n, s, perm, nd) < 0)
			return npu_errf(pc->e, "out of memory");
		return pass_log(pc, n->name, "%s: transpose as permute", n->name);
	}
	if (n->aop == NPU_AOP_PERMUTE && src->aop == NPU_AOP_PERMUTE &&
	    src->nargs && src->args[0].kind == NPU_GV_NODE) {
		int n1 = get_perm(src, p1), n2 = get_perm(n, perm);
		int64_t c[NPU_MAX_DIMS];
		if (n1 != nd || n2 != nd)
			return 0;
		/* y = x.permute(p1).permute(p2): y dim k is x dim p1[p2[k]] */
		for (int k = 0; k < nd; k++)
			c[k] = p1[(perm[k] + nd) % nd];
		for (int k = 0; k < nd; k++)
			c[k] = (c[k] + nd) % nd;
		if (set_permute(ge, n, src->args[0].u.node, c, nd) < 0)
			return npu_errf(pc->e, "out of memory");
		if (pass_prov_merge(pc, n->name, src->name) < 0)
			return -1;
		return pass_log(pc, n->name, "%s: composed with %s", n->name,
				src->name);
	}
	if ((n->aop == NPU_AOP_VIEW || n->aop == NPU_AOP_UNSAFE_VIEW ||
	     n->aop == NPU_AOP_RESHAPE) &&
	    (src->aop == NPU_AOP_VIEW || src->aop == NPU_AOP_UNSAFE_VIEW ||
	     src->aop == NPU_AOP_RESHAPE) && src->nargs &&
	    src->args[0].kind == NPU_GV_NODE) {
		/* row-major reshapes compose: only the last shape matters */
		n->args[0].u.node = src->args[0].u.node;
		ge->dirty = 1;
		if (pass_prov_merge(pc, n->name, src->name) < 0)
			return -1;
		return pass_log(pc, n->name, "%s: composed with %s", n->name,
				src->name);
	}
	return 0;
}

static int isfloat_dt(int dt)
{
	return dt == NPU_DT_F32 || dt == NPU_DT_BF16 || dt == NPU_DT_F16;
}

/* A view that moves or repeats elements without changing them. */
static int plain_view(const npu_gnode *n)
{
	switch (n->aop) {
	case NPU_AOP_PERMUTE: case NPU_AOP_VIEW: case NPU_AOP_UNSAFE_VIEW:
	case NPU_AOP_RESHAPE: case NPU_AOP_UNSQUEEZE: case NPU_AOP_EXPAND:
		return n->nargs && n->args[0].kind == NPU_GV_NODE && !n->multi;
	}
	return 0;
}

/*
 * mul(views(x), s), s a number (mul.Scalar, or mul.Tensor of one), x
 * float, each view used once: the multiply moves before the views,
 * mul(x, s) read through them (the same per element).  Llama's attention scales k^T, a permute of k
 * repeated for grouped-query attention: as written the multiply is a
 * kernel of its own that reads k transposed and stores k^T * s; moved,
 * it joins k's RoPE kernel and the matmul reads k transposed.  Only
 * where x is computed and read by the views alone (else the multiply
 * would be a kernel of its own, and a copy the views need anyway
 * would no longer do it: BERT's q and k).
 */
static int sink_mul(pass_cx *pc, npu_gedit *ge, int i)
{
	npu_gnode *n = npu_gedit_node(ge, i), *v;
	const npu_gmeta *xm, *om;
	const int *u;
	int first = -1, x, m, last, len = 0;
	char name[256];
	npu_gval args[2];

	if ((n->aop != NPU_AOP_MUL_SCALAR && n->aop != NPU_AOP_MUL_TENSOR) ||
	    n->nargs != 2 || n->nkwargs ||
	    n->args[0].kind != NPU_GV_NODE ||
	    (n->args[1].kind != NPU_GV_FLOAT && n->args[1].kind != NPU_GV_INT) ||
	    !(om = n->nmeta == 1 && !n->multi ? &n->meta[0] : NULL))
		return 0;
	for (x = n->args[0].u.node; x >= 0; x = v->args[0].u.node, len++) {
		v = npu_gedit_node(ge, x);
		if (!pure_call(v) || !plain_view(v) || npu_gedit_users(ge, x, &u) != 1)
			break;
		first = x;
	}
	if (first < 0 || len > 8 || !(xm = arg_meta(ge, &npu_gedit_node(ge, first)->args[0])) ||
	    !isfloat_dt(xm->dtype) || xm->dtype != om->dtype)
		return 0;
	/* x computed (not a view) and read only by the views: the
	 * multiply joins x's kernel */
	x = npu_gedit_node(ge, first)->args[0].u.node;
	v = npu_gedit_node(ge, x);
	if (!pure_call(v) || npu_aoptab[v->aop].cat == NPU_ACAT_VIEW ||
	    npu_gedit_users(ge, x, &u) != 1)
		return 0;
	last = n->args[0].u.node;
	args[0] = npu_gv_node(x);
	args[1] = n->args[1];
	snprintf(name, sizeof name, "%s_pre", n->name);
	if ((m = pass_add_call(pc, ge, first, name, npu_aoptab[n->aop].target, args, 2, xm, i)) < 0)
		return -1;
	/* (adding a node may move them all: n is stale) */
	npu_gedit_node(ge, first)->args[0].u.node = m;
	ge->dirty = 1;
	npu_gedit_replace_uses(ge, i, last);
	npu_gedit_kill(ge, i);
	return pass_log(pc, npu_gedit_node(ge, i)->name, "%s: the multiply moved before the %d view(s) it read, onto %s",
			npu_gedit_node(ge, i)->name, len, npu_gedit_node(ge, x)->name);
}

static int pass_layout(pass_cx *pc, npu_gedit *ge)
{
	for (int i = 0; i < npu_gedit_n(ge); i++)
		if (!npu_gedit_dead(ge, i) && pure_call(npu_gedit_node(ge, i)) &&
		    (layout_node(pc, ge, i) < 0 || sink_mul(pc, ge, i) < 0))
			return -1;
	return 0;
}

/* ---- the driver -------------------------------------------------- */

typedef int (*edit_fn)(pass_cx *pc, npu_gedit *ge);

/* Runs fn in one edit session and commits. */
static int session(pass_cx *pc, edit_fn fn)
{
	npu_gedit ge;

	if (npu_gedit_begin(&ge, pc->g, pc->e) < 0)
		return -1;
	if (fn(pc, &ge) < 0) {
		/* the edits made so far are consistent: commit them so that
		 * g stays a valid graph, then report the first error */
		npu_err keep = *pc->e;
		npu_gedit_commit(&ge, pc->e);
		*pc->e = keep;
		return -1;
	}
	return npu_gedit_commit(&ge, pc->e);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int run_one(pass_cx *pc, int pass)
{
	switch (pass) {
	case NPU_PASS_NORMARGS: return session(pc, pass_normargs);
	case NPU_PASS_DCE: return session(pc, pass_dce);
	case NPU_PASS_CSE: return session(pc, pass_cse);
	case NPU_PASS_QUANT: return session(pc, pass_quant);
	case NPU_PASS_FOLD: return pass_fold(pc);
	case NPU_PASS_CONVBN: return session(pc, pass_convbn);
	case NPU_PASS_NORMW: return session(pc, pass_normw);
	case NPU_PASS_NOOP: return session(pc, pass_noop);
	case NPU_PASS_LAYOUT: return session(pc, pass_layout);
	case NPU_PASS_DECOMP: return pass_decomp(pc);
	case NPU_PASS_ROPE: return session(pc, pass_rope);
	case NPU_PASS_SCATTER: return session(pc, pass_scatter);
	case NPU_PASS_CLEANUP:
		if (session(pc, pass_dce) < 0 || session(pc, pass_cse) < 0 ||
		    pass_fold(pc) < 0 || session(pc, pass_noop) < 0)
			return -1;
		return session(pc, pass_dce);
	}
	return npu_errf(pc->e, "unknown pass %d", pass);
}

int npu_pass_run(int pass, npu_graph *g, const npu_passopts *o,
		 npu_passlog *log, npu_err *e)
{
	static const npu_passopts none;
	npu_passlog scratch;
	pass_cx pc = { g, o ? o : &none, log ? log : &scratch, e, pass };
	double t0 = now();
	int rc;

	if (!log)
		npu_passlog_init(&scratch);
	rc = run_one(&pc, pass);
	pc.log->seconds[pass] += now() - t0;
	if (rc < 0)
		npu_err_prefix(e, "pass %s", npu_pass_name(pass));
	if (!log)
		npu_passlog_free(&scratch);
	return rc;
}

int npu_passes_run(npu_graph *g, const npu_passopts *o, npu_passlog *log,
		   npu_err *e)
{
	unsigned skip = o ? o->skip : 0;

	if (log)
		log->nodes_before = g->nnodes;
	for (int p = 0; p < NPU_NPASS; p++) {
		if (skip & (1u << p))
			continue;
		if (npu_pass_run(p, g, o, log, e) < 0)
			return -1;
		if (o && o->after)
			o->after(o->after_ctx, p, g);
	}
	if (log)
		log->nodes_after = g->nnodes;
	return 0;
}
