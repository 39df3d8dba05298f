/*
 * graph.c - reads fxgraph JSON (see graph.h, docs/fx-format.md).
 *
 * Reading happens in two passes over the node array: the first collects
 * every node name into a hash table (finding duplicates), the second
 * parses each node, resolving references through that table.  Knowing all
 * names up front lets the reader tell a reference to a node that does not
 * exist from one to a node that comes later, which in a topologically
 * sorted graph can only be a cycle.
 *
 * Nothing here trusts the input: depths, counts and ranks are bounded so
 * that the fuzzer cannot make the reader recurse or allocate without end.
 */
#include "compiler/graph.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

#define MAX_DEPTH 16        /* nesting of list arguments */

const npu_aopinfo npu_aoptab[NPU_NAOP] = {
#define NPU_ATEN(id, target, cat, impl, schema, sem) \
	[NPU_AOP_##id] = { target, NPU_ACAT_##cat, schema, sem },
#include "compiler/optab.def"
#undef NPU_ATEN
};

static const char *const acat_names[NPU_NACAT] = {
	"elementwise", "reduction", "matmul", "conv", "pool", "norm", "view",
	"data movement", "creation", "quantization", "misc"
};

static const char *const gop_names[NPU_NGOP] = {
	"placeholder", "get_attr", "call_function", "call_module",
	"call_method", "output"
};

/* Targets that are another op of the table under a second name: the
 * unchecked twins PyTorch 1.13's traces keep (2.x decomposes them). */
static const struct { const char *target; int aop; } aop_alias[] = {
	{ "aten.unsafe_split.Tensor", NPU_AOP_SPLIT },
	{ "aten.unsafe_split_with_sizes.default", NPU_AOP_SPLIT_SIZES },
	{ "aten._embedding_bag_forward_only.default", NPU_AOP_EMBEDDING_BAG },
	/* in place, left by 1.13's traces (index_add's composite: a clone
	 * and this; index_copy_ on a clone of a buffer, a static KV
	 * cache's update); inplace_ok checks that nothing reads self after
	 * it */
	{ "aten.index_add_.default", NPU_AOP_INDEX_ADD },
	{ "aten.index_copy_.default", NPU_AOP_INDEX_COPY },
	/* sort(stable=True) and argsort(stable=True): keywords only, the
	 * sort the table's is (stable) */
	{ "aten.sort.stable", NPU_AOP_SORT },
	/* true_divide's overloads are div's (the decompositions of
	 * F.interpolate over symbolic sizes leave them) */
	{ "aten.true_divide.Tensor", NPU_AOP_DIV_TENSOR },
	{ "aten.true_divide.Scalar", NPU_AOP_DIV_SCALAR },
};

int npu_aop_find(const char *target)
{
	for (int i = 0; i < NPU_NAOP; i++)
		if (!strcmp(npu_aoptab[i].target, target))
			return i;
	for (size_t i = 0; i < sizeof aop_alias / sizeof *aop_alias; i++)
		if (!strcmp(aop_alias[i].target, target))
			return aop_alias[i].aop;
	return NPU_AOP_UNKNOWN;
}

void npu_aop_print(FILE *f)
{
	for (int i = 0; i < NPU_NAOP; i++)
		fprintf(f, "%s\n", npu_aoptab[i].target);
	for (size_t i = 0; i < sizeof aop_alias / sizeof *aop_alias; i++)
		fprintf(f, "%s\n", aop_alias[i].target);
	fprintf(f, "%s\n", NPU_PRIMS_CONVERT);
}

const char *npu_acat_name(int cat)
{
	return cat >= 0 && cat < NPU_NACAT ? acat_names[cat] : NULL;
}

const char *npu_gop_name(int op)
{
	return op >= 0 && op < NPU_NGOP ? gop_names[op] : NULL;
}

/* ---- name index: open addressing over node indexes ---------------- */

typedef struct name_index {
	int *slot;       /* node index + 1; 0 = empty */
	size_t mask;
} name_index;

size_t npu_name_hash(const char *s)
{
	size_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int index_init(name_index *ix, int n)
{
	size_t cap = 16;

	while (cap < (size_t)n * 2)
		cap <<= 1;
	ix->slot = calloc(cap, sizeof *ix->slot);
	ix->mask = cap - 1;
	return ix->slot ? 0 : -1;
}

/* The slot for name: the one holding it, or the empty one to fill. */
static int *index_slot(const name_index *ix, const npu_gnode *nodes,
		       const char *name)
{
	size_t h = npu_name_hash(name) & ix->mask;

	while (ix->slot[h] && strcmp(nodes[ix->slot[h] - 1].name, name))
		h = (h + 1) & ix->mask;
	return &ix->slot[h];
}

int npu_graph_find(const npu_graph *g, const char *name)
{
	const name_index *ix = g->index;

	if (!ix)
		return -1;
	return *index_slot(ix, g->nodes, name) - 1;
}

/* Rebuilds the name index after nodes were added, removed or reordered
 * (compiler/gedit.c); names must still be unique. */
int npu_graph_reindex(npu_graph *g, npu_err *e)
{
	name_index *ix = g->index;

	if (!ix && !(ix = g->index = calloc(1, sizeof *ix)))
		return npu_errf(e, "out of memory");
	free(ix->slot);
	ix->slot = NULL;
	if (index_init(ix, g->nnodes) < 0)
		return npu_errf(e, "out of memory");
	for (int i = 0; i < g->nnodes; i++) {
		int *slot = index_slot(ix, g->nodes, g->nodes[i].name);
		if (*slot)
			return npu_errf(e, "%s: node '%s': duplicate name",
					g->file, g->nodes[i].name);
		*slot = i + 1;
	}
	return 0;
}

/* ---- freeing ----------------------------------------------------- */

/* Frees what v owns and leaves it NONE (also used by graph editing). */
void npu_gval_clear(npu_gval *v)
{
	switch (v->kind) {
	case NPU_GV_STR: case NPU_GV_DEVICE: case NPU_GV_LAYOUT:
	case NPU_GV_MEMFMT: case NPU_GV_SYM: case NPU_GV_REPR:
		free(v->u.s);
		break;
	case NPU_GV_LIST:
		for (int i = 0; i < v->u.list.n; i++)
			npu_gval_clear(&v->u.list.v[i]);
		free(v->u.list.v);
		break;
	}
	memset(v, 0, sizeof *v);
}

void npu_gmeta_clear(npu_gmeta *m)
{
	for (int i = 0; i < m->ndim; i++) {
		free(m->shape[i].sym);
		free(m->stride[i].sym);
	}
	free(m->storage_offset.sym);
	npu_gval_clear(&m->scalar);
	memset(m, 0, sizeof *m);
}

void npu_gnode_clear(npu_gnode *n)
{
	free(n->name);
	free(n->target);
	for (int i = 0; i < n->nargs; i++)
		npu_gval_clear(&n->args[i]);
	free(n->args);
	for (int i = 0; i < n->nkwargs; i++) {
		free(n->kwargs[i].key);
		npu_gval_clear(&n->kwargs[i].val);
	}
	free(n->kwargs);
	for (int i = 0; i < n->nmeta; i++)
		npu_gmeta_clear(&n->meta[i]);
	free(n->meta);
	free(n->phsource);
	free(n->module);
	free(n->module_class);
	free(n->srcloc);
	free(n->original_aten);
	free(n->from_node);
	memset(n, 0, sizeof *n);
}

void npu_graph_free(npu_graph *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->nnodes; i++)
		npu_gnode_clear(&g->nodes[i]);
	free(g->nodes);
	free(g->file);
	free(g->name);
	free(g->captured_from);
	free(g->input_mutates_data);
	if (g->index)
		free(((name_index *)g->index)->slot);
	free(g->index);
	free(g);
}

/* ---- parsing ----------------------------------------------------- */

typedef struct rd {
	npu_graph *g;
	int cur;            /* node being parsed */
	npu_err *e;
} rd;

/* Fails with "FILE: node 'NAME': <message>". */
static int node_err(rd *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int node_err(rd *r, const char *fmt, ...)
{
	char msg[NPU_ERR_MAX];
	va_list ap;
	const char *name = r->cur >= 0 && r->cur < r->g->nnodes ?
			   r->g->nodes[r->cur].name : NULL;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (name)
		return npu_errf(r->e, "%s: node '%s': %s", r->g->file, name, msg);
	return npu_errf(r->e, "%s: node #%d: %s", r->g->file, r->cur, msg);
}

static char *dupstr(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int parse_dtype(rd *r, const char *s, int *dt, const char *what)
{
	*dt = npu_dtype_from_name(s, strlen(s));
	if (*dt < 0)
		return node_err(r, "%s: unknown dtype '%s'", what, s);
	return 0;
}

/* The one key of a tagged value object, or NULL. */
static const char *tag_of(json_t *j, json_t **val)
{
	const char *key;

	if (json_object_size(j) != 1)
		return NULL;
	json_object_foreach(j, key, *val)
		return key;
	return NULL;
}

static int parse_val(rd *r, json_t *j, npu_gval *v, int depth,
		     const char *what);

static int parse_list(rd *r, json_t *j, npu_gval *v, int depth,
		      const char *what)
{
	size_t n = json_array_size(j);

	if (depth >= MAX_DEPTH)
		return node_err(r, "%s: lists nested too deeply", what);
	v->kind = NPU_GV_LIST;
	v->u.list.n = 0;
	v->u.list.v = calloc(n ? n : 1, sizeof *v->u.list.v);
	if (!v->u.list.v)
		return node_err(r, "out of memory");
	for (size_t i = 0; i < n; i++) {
		v->u.list.n++;
		if (parse_val(r, json_array_get(j, i), &v->u.list.v[i],
			      depth + 1, what) < 0)
			return -1;
	}
	return 0;
}

static int parse_ref(rd *r, const char *name, npu_gval *v, const char *what)
{
	npu_graph *g = r->g;
	int idx = *index_slot(g->index, g->nodes, name) - 1;

	if (idx < 0)
		return node_err(r, "%s refers to unknown node '%s'", what, name);
	if (idx >= r->cur)
		return node_err(r, "%s refers to node '%s', which comes later "
				"(a cycle)", what, name);
	if (g->nodes[idx].op == NPU_GOP_OUTPUT)
		return node_err(r, "%s refers to the output node", what);
	v->kind = NPU_GV_NODE;
	v->u.node = idx;
	return 0;
}

static int parse_tagged(rd *r, json_t *j, npu_gval *v, const char *what)
{
	json_t *val;
	const char *tag = tag_of(j, &val), *s;
	static const struct { const char *tag; int kind; } strtags[] = {
		{ "device", NPU_GV_DEVICE }, { "layout", NPU_GV_LAYOUT },
		{ "memory_format", NPU_GV_MEMFMT }, { "sym", NPU_GV_SYM },
		{ "repr", NPU_GV_REPR },
	};

	if (!tag)
		return node_err(r, "%s: an object must have exactly one key", what);
	if (!json_is_string(val))
		return node_err(r, "%s: '%s' must be a string", what, tag);
	s = json_string_value(val);
	if (!strcmp(tag, "node"))
		return parse_ref(r, s, v, what);
	if (!strcmp(tag, "dtype")) {
		v->kind = NPU_GV_DTYPE;
		return parse_dtype(r, s, &v->u.dtype, what);
	}
	if (!strcmp(tag, "float")) {
		v->kind = NPU_GV_FLOAT;
		if (!strcmp(s, "inf"))
			v->u.f = INFINITY;
		else if (!strcmp(s, "-inf"))
			v->u.f = -INFINITY;
		else if (!strcmp(s, "nan"))
			v->u.f = NAN;
		else
			return node_err(r, "%s: bad float '%s'", what, s);
		return 0;
	}
	for (size_t i = 0; i < sizeof strtags / sizeof *strtags; i++)
		if (!strcmp(tag, strtags[i].tag)) {
			if (!(v->u.s = strdup(s)))
				return node_err(r, "out of memory");
			v->kind = strtags[i].kind;
			return 0;
		}
	return node_err(r, "%s: unknown value kind '%s'", what, tag);
}

static int parse_val(rd *r, json_t *j, npu_gval *v, int depth,
		     const char *what)
{
	v->kind = NPU_GV_NONE;
	switch (json_typeof(j)) {
	case JSON_NULL:
		return 0;
	case JSON_TRUE: case JSON_FALSE:
		v->kind = NPU_GV_BOOL;
		v->u.b = json_is_true(j);
		return 0;
	case JSON_INTEGER:
		v->kind = NPU_GV_INT;
		v->u.i = json_integer_value(j);
		return 0;
	case JSON_REAL:
		v->kind = NPU_GV_FLOAT;
		v->u.f = json_real_value(j);
		return 0;
	case JSON_STRING:
		v->kind = NPU_GV_STR;
		if (!(v->u.s = strdup(json_string_value(j))))
			return node_err(r, "out of memory");
		return 0;
	case JSON_ARRAY:
		return parse_list(r, j, v, depth, what);
	case JSON_OBJECT:
		return parse_tagged(r, j, v, what);
	}
	return node_err(r, "%s: bad value", what);
}

/* A dimension: an integer, or {"sym": expr}. */
static int parse_dim(rd *r, json_t *j, npu_gdim *d, int nonneg,
		     const char *what)
{
	json_t *val;
	const char *tag;

	if (json_is_integer(j)) {
		d->v = json_integer_value(j);
		if (nonneg && d->v < 0)
			return node_err(r, "meta: %s is negative", what);
		return 0;
	}
	tag = json_is_object(j) ? tag_of(j, &val) : NULL;
	if (!tag || strcmp(tag, "sym") || !json_is_string(val))
		return node_err(r, "meta: %s is not an integer", what);
	if (!(d->sym = strdup(json_string_value(val))))
		return node_err(r, "out of memory");
	return 0;
}

static int parse_dims(rd *r, json_t *arr, npu_gdim *dims, int ndim,
		      int nonneg, const char *what)
{
	char w[64];

	if (!json_is_array(arr) || (int)json_array_size(arr) != ndim)
		return node_err(r, "meta: %s must be a list of %d entries",
				what, ndim);
	for (int i = 0; i < ndim; i++) {
		snprintf(w, sizeof w, "%s[%d]", what, i);
		if (parse_dim(r, json_array_get(arr, i), &dims[i], nonneg, w) < 0)
			return -1;
	}
	return 0;
}

/*
 * Shapes past 2^48 elements are refused, whatever the zeros among their
 * dims: the stages after the reader multiply dims and strides in int64
 * (numel, byte sizes, offsets) and may then rely on it not overflowing.
 * 1 when m's concrete dims multiply past that, or one alone does.
 */
#define MAX_NUMEL_LOG2 48
static int too_many(const npu_gmeta *m)
{
	int64_t n = 1;

	for (int i = 0; i < m->ndim; i++) {
		int64_t v = m->shape[i].sym ? 1 : m->shape[i].v;
		if (v > (1ll << MAX_NUMEL_LOG2))
			return 1;
		if (v > 0 && (n *= v) > (1ll << MAX_NUMEL_LOG2))
			return 1;
	}
	return 0;
}

static int parse_meta1(rd *r, json_t *j, npu_gmeta *m)
{
	json_t *shape, *dt, *stride, *off;

	if (json_is_null(j))
		return 0;
	if (!json_is_object(j))
		return node_err(r, "meta must be an object or a list");
	if (json_object_get(j, "scalar")) {
		m->kind = NPU_GM_SCALAR;
		return parse_val(r, json_object_get(j, "scalar"), &m->scalar,
				 MAX_DEPTH - 1, "meta scalar");
	}
	shape = json_object_get(j, "shape");
	if (!shape)
		return node_err(r, "meta has neither 'shape' nor 'scalar'");
	if (!json_is_array(shape))
		return node_err(r, "meta: shape must be a list");
	if (json_array_size(shape) > NPU_MAX_DIMS)
		return node_err(r, "meta: %zu dims (at most %d)",
				json_array_size(shape), NPU_MAX_DIMS);
	m->kind = NPU_GM_TENSOR;
	m->ndim = (int)json_array_size(shape);
	if (parse_dims(r, shape, m->shape, m->ndim, 1, "shape") < 0)
		return -1;
	if (too_many(m))
		return node_err(r, "meta: a shape of more than 2^%d elements "
				"(what npusim handles)", MAX_NUMEL_LOG2);
	dt = json_object_get(j, "dtype");
	if (!json_is_string(dt))
		return node_err(r, "meta: missing dtype");
	if (parse_dtype(r, json_string_value(dt), &m->dtype, "meta") < 0)
		return -1;
	stride = json_object_get(j, "stride");
	if (stride && parse_dims(r, stride, m->stride, m->ndim, 0, "stride") < 0)
		return -1;
	off = json_object_get(j, "storage_offset");
	if (off && parse_dim(r, off, &m->storage_offset, 1, "storage_offset") < 0)
		return -1;
	return 0;
}

static int parse_meta(rd *r, json_t *j, npu_gnode *n)
{
	size_t cnt = json_is_array(j) ? json_array_size(j) : 1;

	if (!j || json_is_null(j))
		return 0;
	if (cnt > 64)
		return node_err(r, "meta: %zu outputs (at most 64)", cnt);
	n->meta = calloc(cnt ? cnt : 1, sizeof *n->meta);
	if (!n->meta)
		return node_err(r, "out of memory");
	n->multi = json_is_array(j);
	for (size_t i = 0; i < cnt; i++) {
		n->nmeta++;
		if (parse_meta1(r, n->multi ? json_array_get(j, i) : j,
				&n->meta[i]) < 0)
			return -1;
	}
	return 0;
}

void npu_graph_module_path(const char *raw, char *out, size_t n)
{
	const char *p = raw;
	size_t o = 0;

	if (!n)
		return;
	/* The root is the frame-local (L) or global (G) the module came
	 * from: L['self'], L['s'], L['fn']; it names the traced module. */
	if ((p[0] == 'L' || p[0] == 'G') && p[1] == '[') {
		const char *close = strchr(p, ']');
		p = close ? close + 1 : p + strlen(p);
		if (*p == '.')
			p++;
	}
	while (*p && o + 1 < n) {
		if (*p == '[') {
			/* [0] -> .0 and ['key'] -> .key */
			const char *close = strchr(p, ']');
			if (!close)
				break;
			if (o && o + 1 < n)
				out[o++] = '.';
			for (const char *q = p + 1; q < close && o + 1 < n; q++)
				if (*q != '\'' && *q != '"')
					out[o++] = *q;
			p = close + 1;
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
}

/* "File \"models.py\", line 251, in forward" -> "models.py:251". */
static char *parse_srcloc(json_t *trace)
{
	char buf[512];
	const char *best = NULL;

	for (size_t i = 0; i < json_array_size(trace); i++) {
		const char *s = json_string_value(json_array_get(trace, i));
		if (s && !strncmp(s, "File \"", 6))
			best = s;
	}
	if (best) {
		const char *f = best + 6, *q = strchr(f, '"');
		const char *ln = q ? strstr(q, ", line ") : NULL;
		if (ln) {
			snprintf(buf, sizeof buf, "%.*s:%ld", (int)(q - f), f,
				 strtol(ln + 7, NULL, 10));
			return strdup(buf);
		}
	}
	return strdup("");
}

static int parse_provenance(rd *r, json_t *p, npu_gnode *n)
{
	json_t *stack = json_object_get(p, "nn_module_stack");
	json_t *last = json_array_get(stack, json_array_size(stack) - 1);
	json_t *from = json_object_get(p, "from_node");
	const char *s;
	char path[512];

	path[0] = '\0';
	if ((s = json_string_value(json_array_get(last, 1))))
		npu_graph_module_path(s, path, sizeof path);
	s = json_string_value(json_array_get(last, 2));
	n->module = strdup(path);
	n->module_class = strdup(s ? s : "");
	n->srcloc = parse_srcloc(json_object_get(p, "stack_trace"));
	n->original_aten = dupstr(json_string_value(json_object_get(p, "original_aten")));
	s = json_string_value(json_object_get(json_array_get(from, 0), "name"));
	n->from_node = dupstr(s);
	if (!n->module || !n->module_class || !n->srcloc)
		return node_err(r, "out of memory");
	return 0;
}

static int parse_op(rd *r, const char *s, int *op)
{
	for (int i = 0; i < NPU_NGOP; i++)
		if (!strcmp(s, gop_names[i])) {
			*op = i;
			return 0;
		}
	return node_err(r, "unknown op '%s'", s);
}

static int parse_phkind(rd *r, json_t *j, npu_gnode *n)
{
	static const char *const names[] = {
		"", "parameter", "buffer", "input", "symint"
	};
	const char *s = json_string_value(j);

	if (!j)
		return 0;
	for (int i = 1; s && i < 5; i++)
		if (!strcmp(s, names[i])) {
			n->phkind = i;
			return 0;
		}
	return node_err(r, "bad placeholder kind");
}

static int parse_args(rd *r, json_t *args, json_t *kwargs, npu_gnode *n)
{
	char what[128];
	const char *key;
	json_t *val;

	if (!json_is_array(args))
		return node_err(r, "missing 'args' list");
	if (!json_is_object(kwargs))
		return node_err(r, "missing 'kwargs' object");
	n->args = calloc(json_array_size(args) + 1, sizeof *n->args);
	n->kwargs = calloc(json_object_size(kwargs) + 1, sizeof *n->kwargs);
	if (!n->args || !n->kwargs)
		return node_err(r, "out of memory");
	for (size_t i = 0; i < json_array_size(args); i++) {
		snprintf(what, sizeof what, "argument %zu", i);
		n->nargs++;
		if (parse_val(r, json_array_get(args, i), &n->args[i], 0, what) < 0)
			return -1;
	}
	json_object_foreach(kwargs, key, val) {
		npu_gkwarg *kw = &n->kwargs[n->nkwargs++];
		snprintf(what, sizeof what, "keyword argument '%.64s'", key);
		if (!(kw->key = strdup(key)))
			return node_err(r, "out of memory");
		if (parse_val(r, val, &kw->val, 0, what) < 0)
			return -1;
	}
	return 0;
}

static int parse_node(rd *r, json_t *j)
{
	npu_gnode *n = &r->g->nodes[r->cur];
	json_t *op = json_object_get(j, "op"), *target = json_object_get(j, "target");
	json_t *prov = json_object_get(j, "provenance");
	const char *src;

	if (!json_is_string(op))
		return node_err(r, "missing 'op'");
	if (parse_op(r, json_string_value(op), &n->op) < 0)
		return -1;
	if (!json_is_string(target))
		return node_err(r, "missing 'target'");
	if (!(n->target = strdup(json_string_value(target))))
		return node_err(r, "out of memory");
	n->aop = n->op == NPU_GOP_CALL_FUNCTION ? npu_aop_find(n->target)
						: NPU_AOP_UNKNOWN;
	if (n->aop != NPU_AOP_UNKNOWN && strcmp(n->target, npu_aoptab[n->aop].target)) {
		/* an alias: the node is the table's op from here on (the
		 * host call that may run it is registered by that name) */
		n->inplace = strstr(n->target, "_.") != NULL;
		free(n->target);
		if (!(n->target = strdup(npu_aoptab[n->aop].target)))
			return node_err(r, "out of memory");
	}
	if (parse_args(r, json_object_get(j, "args"),
		       json_object_get(j, "kwargs"), n) < 0)
		return -1;
	if (parse_meta(r, json_object_get(j, "meta"), n) < 0)
		return -1;
	if (parse_phkind(r, json_object_get(j, "kind"), n) < 0)
		return -1;
	src = json_string_value(json_object_get(j, "source"));
	n->phsource = dupstr(src);
	if (prov && !json_is_object(prov))
		return node_err(r, "'provenance' must be an object");
	return parse_provenance(r, prov, n);
}

/* Whether v (a node reference, or a list holding some) reads node s. */
static int gval_reads(const npu_gval *v, int s)
{
	if (v->kind == NPU_GV_NODE)
		return v->u.node == s;
	if (v->kind == NPU_GV_LIST)
		for (int i = 0; i < v->u.list.n; i++)
			if (gval_reads(&v->u.list.v[i], s))
				return 1;
	return 0;
}

/*
 * An in-place op read as its functional form (aop_alias: 1.13's
 * index_add_ on the clone its composite makes) computes the same only
 * when nothing reads self after it and self is no graph input (whose
 * mutation the caller would have to see).
 */
static int inplace_ok(rd *r)
{
	npu_graph *g = r->g;

	for (r->cur = 0; r->cur < g->nnodes; r->cur++) {
		const npu_gnode *n = &g->nodes[r->cur];
		int s;
		if (!n->inplace || !n->nargs || n->args[0].kind != NPU_GV_NODE)
			continue;
		s = n->args[0].u.node;
		if (g->nodes[s].op == NPU_GOP_PLACEHOLDER)
			return node_err(r, "in-place %s mutates a graph input (not functionalized)",
					n->target);
		for (int i = r->cur + 1; i < g->nnodes; i++)
			if (npu_gnode_reads(&g->nodes[i], s))
				return node_err(r, "in-place %s mutates '%s', which node '%s' reads "
						"after it (not functionalized)", n->target,
						g->nodes[s].name, g->nodes[i].name);
	}
	return 0;
}

/* The output node: last, exactly one, returning a list. */
static int check_output(rd *r)
{
	npu_graph *g = r->g;

	g->output = -1;
	for (int i = 0; i < g->nnodes; i++)
		if (g->nodes[i].op == NPU_GOP_OUTPUT) {
			r->cur = i;
			if (g->output >= 0)
				return node_err(r, "a second output node");
			g->output = i;
		}
	if (g->output < 0)
		return npu_errf(r->e, "%s: no output node", g->file);
	r->cur = g->output;
	if (g->output != g->nnodes - 1)
		return node_err(r, "the output node is not the last node");
	if (g->nodes[g->output].nargs < 1)
		return node_err(r, "the output node has no argument");
	return 0;
}

static int parse_aot(rd *r, json_t *aot)
{
	npu_graph *g = r->g;
	json_t *flags = json_object_get(aot, "input_mutates_data");
	json_t *nmut = json_object_get(aot, "num_mutated_inputs_returned_first");
	json_t *nfwd = json_object_get(aot, "num_forward_returns");
	int nph = npu_graph_nplaceholders(g), nout;

	g->num_forward_returns = -1;
	if (!aot)
		return 0;
	if (!json_is_object(aot) || !json_is_array(flags) || !json_is_integer(nmut))
		return npu_errf(r->e, "%s: aot: missing input_mutates_data or "
				"num_mutated_inputs_returned_first", g->file);
	/* a backward graph carries its forward's flags */
	if (g->kind != NPU_GK_BACKWARD && (int)json_array_size(flags) != nph)
		return npu_errf(r->e, "%s: aot: %zu input_mutates_data flags for "
				"%d placeholders", g->file,
				json_array_size(flags), nph);
	g->has_aot = 1;
	nph = (int)json_array_size(flags);
	g->input_mutates_data = calloc((size_t)nph + 1, sizeof(int));
	if (!g->input_mutates_data)
		return npu_errf(r->e, "out of memory");
	g->ninput_mutates = nph;
	for (int i = 0; i < nph; i++)
		g->input_mutates_data[i] = json_is_true(json_array_get(flags, i));
	npu_graph_outputs(g, &nout);
	g->num_mutated_inputs_returned_first = (int)json_integer_value(nmut);
	if (g->num_mutated_inputs_returned_first < 0 ||
	    g->num_mutated_inputs_returned_first > nout)
		return npu_errf(r->e, "%s: aot: num_mutated_inputs_returned_first "
				"%d out of range (%d outputs)", g->file,
				g->num_mutated_inputs_returned_first, nout);
	if (json_is_integer(nfwd))
		g->num_forward_returns = (int)json_integer_value(nfwd);
	return 0;
}

static int parse_header(rd *r, json_t *root)
{
	static const char *const kinds[] = {
		"inference", "forward", "backward", "dynamo"
	};
	npu_graph *g = r->g;
	json_t *fmt = json_object_get(root, "format");
	json_t *ver = json_object_get(root, "version");
	const char *kind = json_string_value(json_object_get(root, "graph_kind"));
	const char *s;

	if (!json_is_string(fmt) || strcmp(json_string_value(fmt), "fxgraph"))
		return npu_errf(r->e, "%s: not an fxgraph file (format is not "
				"\"fxgraph\")", g->file);
	if (!json_is_integer(ver) || json_integer_value(ver) != 1)
		return npu_errf(r->e, "%s: unsupported fxgraph version "
				"(expected 1)", g->file);
	if (!kind)
		return npu_errf(r->e, "%s: missing graph_kind", g->file);
	g->kind = -1;
	for (int i = 0; i < 4; i++)
		if (!strcmp(kind, kinds[i]))
			g->kind = i;
	if (g->kind < 0)
		return npu_errf(r->e, "%s: unknown graph_kind '%s'", g->file, kind);
	s = json_string_value(json_object_get(root, "name"));
	g->name = strdup(s ? s : g->file);
	g->captured_from = dupstr(json_string_value(json_object_get(root,
							 "captured_from")));
	return g->name ? 0 : npu_errf(r->e, "out of memory");
}

/* First pass: names into the index; every node must be an object with a
 * unique string name. */
static int index_names(rd *r, json_t *nodes)
{
	npu_graph *g = r->g;
	name_index *ix = calloc(1, sizeof *ix);

	g->index = ix;
	if (!ix || index_init(ix, g->nnodes) < 0)
		return npu_errf(r->e, "out of memory");
	for (r->cur = 0; r->cur < g->nnodes; r->cur++) {
		json_t *j = json_array_get(nodes, r->cur);
		json_t *name = json_object_get(j, "name");
		int *slot;

		if (!json_is_object(j))
			return node_err(r, "not an object");
		if (!json_is_string(name) || !*json_string_value(name))
			return node_err(r, "missing 'name'");
		if (!(g->nodes[r->cur].name = strdup(json_string_value(name))))
			return node_err(r, "out of memory");
		slot = index_slot(ix, g->nodes, g->nodes[r->cur].name);
		if (*slot)
			return node_err(r, "duplicate name (first at node #%d)",
					*slot - 1);
		*slot = r->cur + 1;
	}
	return 0;
}

/* ---- complex FFTs of real tensors, folded before parsing ---------- */

/* The node object named name (and its index), or NULL. */
static json_t *node_named(json_t *nodes, const char *name, size_t *at)
{
	for (size_t i = 0; name && i < json_array_size(nodes); i++) {
		json_t *n = json_array_get(nodes, i);
		const char *s = json_string_value(json_object_get(n, "name"));
		if (s && !strcmp(s, name)) {
			*at = i;
			return n;
		}
	}
	return NULL;
}

/* The node a tagged value {"node": NAME} refers to, or NULL. */
static const char *node_ref(json_t *j)
{
	json_t *v;
	const char *tag = tag_of(j, &v);

	return tag && !strcmp(tag, "node") ? json_string_value(v) : NULL;
}

/* How many references to node name j holds (an args or kwargs tree). */
static int refs_to(json_t *j, const char *name)
{
	const char *key, *s;
	json_t *v;
	size_t i;
	int k = 0;

	if ((s = node_ref(j)))
		return !strcmp(s, name);
	if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			k += refs_to(v, name);
	} else if (json_is_object(j)) {
		json_object_foreach(j, key, v)
			k += refs_to(v, name);
	}
	return k;
}

static int users_of(json_t *nodes, const char *name)
{
	size_t i;
	json_t *n;
	int k = 0;

	json_array_foreach(nodes, i, n)
		k += refs_to(json_object_get(n, "args"), name) +
		     refs_to(json_object_get(n, "kwargs"), name);
	return k;
}

/* args[i] of node n when it is a node reference: its name. */
static const char *arg_node(json_t *n, size_t i)
{
	return node_ref(json_array_get(json_object_get(n, "args"), i));
}

static int target_is(json_t *n, const char *t)
{
	const char *s = json_string_value(json_object_get(n, "target"));

	return n && s && !strcmp(s, t);
}

/* A dtype value naming complex64: tagged ({"dtype": "complex64"}, as
 * the exporter writes it) or a bare string. */
static int is_complex64(json_t *v)
{
	json_t *t;
	const char *tag = tag_of(v, &t), *s;

	s = json_string_value(tag && !strcmp(tag, "dtype") ? t : v);
	return s && !strcmp(s, "complex64");
}

/* F's meta (complex, of int dims) as the real [..., 2] of its parts,
 * contiguous; NULL when a dim is symbolic. */
static json_t *parts_meta(json_t *f)
{
	json_t *sh = json_object_get(json_object_get(f, "meta"), "shape"), *ns, *st;
	size_t n = json_array_size(sh);
	json_int_t stride = 2;

	if (!json_is_array(sh) || n + 1 > NPU_MAX_DIMS || !(ns = json_copy(sh)))
		return NULL;
	st = json_array();
	json_array_append_new(ns, json_integer(2));
	json_array_append_new(st, json_integer(1));
	for (size_t i = n; i-- > 0;) {
		json_t *d = json_array_get(sh, i);
		if (!json_is_integer(d)) {
			json_decref(ns);
			json_decref(st);
			return NULL;
		}
		json_array_insert_new(st, 0, json_integer(stride));
		stride *= json_integer_value(d);
	}
	return json_pack("{s:o,s:s,s:o,s:i}", "shape", ns, "dtype", "float32", "stride", st,
			 "storage_offset", 0);
}

/* Node u's reading of node f: 1 view_as_real(f), 2 abs(f), else 0. */
static int fft_use(json_t *u, const char *f)
{
	json_t *a = json_object_get(u, "args");

	if (json_array_size(a) != 1 || json_object_size(json_object_get(u, "kwargs")) ||
	    !arg_node(u, 0) || strcmp(arg_node(u, 0), f))
		return 0;
	return target_is(u, "aten.view_as_real.default") ? 1 :
	       target_is(u, "aten.abs.default") ? 2 : 0;
}

/*
 * The graph IR has no complex dtypes, and a real tensor's FFT reaches it
 * as _fft_c2c(_to_copy(x, complex64)) or _fft_r2c(x) (FNet's token
 * mixing, TimesNet's periods), read through view_as_real or as its
 * magnitude, abs.  Such an FFT of a float32 x becomes one real node,
 * npusim.fft_real(x, dim, normalization, forward, onesided), of the
 * parts [..., 2], which pass_decomp lowers to matrix products; its
 * view_as_real becomes an alias, its abs the 2-norm of the parts.  Any
 * other complex value is still an unknown dtype.
 */
static void fold_fft(json_t *nodes)
{
	for (size_t i = 0; i < json_array_size(nodes); i++) {
		json_t *f = json_array_get(nodes, i), *t = NULL, *x, *a, *m, *u, *n2;
		const char *fname = json_string_value(json_object_get(f, "name"));
		const char *xname = arg_node(f, 0), *xdt;
		size_t ti = 0, xi, j;
		int c2c = target_is(f, "aten._fft_c2c.default"), nu = 0;

		if ((!c2c && !target_is(f, "aten._fft_r2c.default")) || !fname ||
		    json_array_size(json_object_get(f, "args")) != 4)
			continue;
		if (c2c) {
			t = node_named(nodes, xname, &ti);
			if (!target_is(t, "aten._to_copy.default") || ti >= i ||
			    !is_complex64(json_object_get(json_object_get(t, "kwargs"), "dtype")) ||
			    users_of(nodes, xname) != 1)
				continue;
			xname = arg_node(t, 0);
		}
		x = node_named(nodes, xname, &xi);
		xdt = json_string_value(json_object_get(json_object_get(x, "meta"), "dtype"));
		if (!x || !xdt || strcmp(xdt, "float32"))
			continue;
		json_array_foreach(nodes, j, u)
			if (j > i && fft_use(u, fname))
				nu++;
		if (!nu || nu != users_of(nodes, fname) || !(m = parts_meta(f)))
			continue;
		/* an abs reads the 2-norm of the parts: its new args */
		n2 = json_pack("[{s:s}i[i]]", "node", fname, 2, -1);
		a = json_pack("[{s:s}OOOO]", "node", xname,
			      json_array_get(json_object_get(f, "args"), 1),
			      json_array_get(json_object_get(f, "args"), 2),
			      c2c ? json_array_get(json_object_get(f, "args"), 3) : json_true(),
			      c2c ? json_false() : json_array_get(json_object_get(f, "args"), 3));
		if (!a || !n2) {
			json_decref(a);
			json_decref(n2);
			json_decref(m);
			continue;
		}
		json_array_foreach(nodes, j, u) {
			int k = j > i ? fft_use(u, fname) : 0;
			if (k == 1)
				json_object_set_new(u, "target", json_string("aten.alias.default"));
			if (k == 2) {
				json_object_set_new(u, "target",
						    json_string("aten.linalg_vector_norm.default"));
				json_object_set(u, "args", n2);
			}
		}
		json_decref(n2);
		json_object_set_new(f, "target", json_string("npusim.fft_real.default"));
		json_object_set_new(f, "args", a);
		json_object_set_new(f, "meta", m);
		if (t) {                        /* the complex copy goes */
			json_array_remove(nodes, ti);
			i--;
		}
	}
}

static int parse_root(rd *r, json_t *root)
{
	npu_graph *g = r->g;
	json_t *nodes = json_object_get(root, "nodes");

	if (!json_is_object(root))
		return npu_errf(r->e, "%s: not a JSON object", g->file);
	if (parse_header(r, root) < 0)
		return -1;
	if (!json_is_array(nodes) || !json_array_size(nodes))
		return npu_errf(r->e, "%s: missing 'nodes' list", g->file);
	fold_fft(nodes);
	g->nodes = calloc(json_array_size(nodes), sizeof *g->nodes);
	if (!g->nodes)
		return npu_errf(r->e, "out of memory");
	g->nnodes = (int)json_array_size(nodes);
	if (index_names(r, nodes) < 0)
		return -1;
	for (r->cur = 0; r->cur < g->nnodes; r->cur++)
		if (parse_node(r, json_array_get(nodes, r->cur)) < 0)
			return -1;
	if (check_output(r) < 0 || inplace_ok(r) < 0)
		return -1;
	return parse_aot(r, json_object_get(root, "aot"));
}

int npu_graph_parse(npu_graph **gp, const char *name, const void *data,
		    size_t len, npu_err *e)
{
	json_error_t je;
	json_t *root;
	rd r = { NULL, -1, e };

	*gp = NULL;
	if (!(r.g = calloc(1, sizeof *r.g)) || !(r.g->file = strdup(name))) {
		free(r.g);
		return npu_errf(e, "out of memory");
	}
	root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		npu_errf(e, "%s:%d: %s", name, je.line, je.text);
		goto out_free_graph;
	}
	if (parse_root(&r, root) < 0)
		goto out_free_json;
	json_decref(root);
	*gp = r.g;
	return 0;
out_free_json:
	json_decref(root);
out_free_graph:
	npu_graph_free(r.g);
	return -1;
}

int npu_graph_read(npu_graph **g, const char *path, npu_err *e)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	const char *base = strrchr(path, '/');
	int rc = -1;

	*g = NULL;
	if (!f)
		return npu_errf(e, "%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		npu_errf(e, "%s: cannot read", path);
		goto out_close;
	}
	if (!(buf = malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		npu_errf(e, "%s: cannot read", path);
		goto out_close;
	}
	/* Messages name the file as the user knows it: its base name. */
	rc = npu_graph_parse(g, base ? base + 1 : path, buf, (size_t)n, e);
out_close:
	free(buf);
	fclose(f);
	return rc;
}

/* ---- queries ----------------------------------------------------- */

const npu_gval *npu_graph_outputs(const npu_graph *g, int *n)
{
	const npu_gval *v = &g->nodes[g->output].args[0];

	if (v->kind == NPU_GV_LIST) {
		*n = v->u.list.n;
		return v->u.list.v;
	}
	*n = 1;
	return v;
}

int npu_graph_nplaceholders(const npu_graph *g)
{
	int n = 0;

	for (int i = 0; i < g->nnodes; i++)
		n += g->nodes[i].op == NPU_GOP_PLACEHOLDER;
	return n;
}

int npu_graph_placeholder(const npu_graph *g, int i)
{
	for (int k = 0; k < g->nnodes; k++)
		if (g->nodes[k].op == NPU_GOP_PLACEHOLDER && i-- == 0)
			return k;
	return -1;
}

const npu_gval *npu_gnode_kwarg(const npu_gnode *n, const char *key)
{
	for (int i = 0; i < n->nkwargs; i++)
		if (!strcmp(n->kwargs[i].key, key))
			return &n->kwargs[i].val;
	return NULL;
}

int npu_gnode_reads(const npu_gnode *n, int s)
{
	for (int a = 0; a < n->nargs; a++)
		if (gval_reads(&n->args[a], s))
			return 1;
	for (int a = 0; a < n->nkwargs; a++)
		if (gval_reads(&n->kwargs[a].val, s))
			return 1;
	return 0;
}

int npu_gnode_is_weight(const npu_gnode *n)
{
	return n->op == NPU_GOP_GET_ATTR ||
	       (n->op == NPU_GOP_PLACEHOLDER &&
		(n->phkind == NPU_PH_PARAMETER || n->phkind == NPU_PH_BUFFER));
}

/* ---- printing ---------------------------------------------------- */

/* Shortest "%g" form that reads back as the same double. */
static void print_float(double d, FILE *f)
{
	char buf[40];

	if (isnan(d)) {
		fputs("nan", f);
		return;
	}
	if (isinf(d)) {
		fputs(d < 0 ? "-inf" : "inf", f);
		return;
	}
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	/* keep floats recognizable: 2 -> 2.0 */
	if (!strpbrk(buf, ".eE"))
		strcat(buf, ".0");
	fputs(buf, f);
}

void npu_gval_print(const npu_graph *g, const npu_gval *v, FILE *f)
{
	switch (v->kind) {
	case NPU_GV_NONE: fputs("None", f); break;
	case NPU_GV_NODE: fprintf(f, "%%%s", g->nodes[v->u.node].name); break;
	case NPU_GV_INT: fprintf(f, "%lld", (long long)v->u.i); break;
	case NPU_GV_FLOAT: print_float(v->u.f, f); break;
	case NPU_GV_BOOL: fputs(v->u.b ? "True" : "False", f); break;
	case NPU_GV_STR: fprintf(f, "'%s'", v->u.s); break;
	case NPU_GV_DTYPE: fputs(npu_dtype_torch(v->u.dtype), f); break;
	case NPU_GV_DEVICE: case NPU_GV_LAYOUT: case NPU_GV_MEMFMT:
	case NPU_GV_REPR:
		fputs(v->u.s, f);
		break;
	case NPU_GV_SYM: fprintf(f, "Sym(%s)", v->u.s); break;
	case NPU_GV_LIST:
		fputc('[', f);
		for (int i = 0; i < v->u.list.n; i++) {
			if (i)
				fputs(", ", f);
			npu_gval_print(g, &v->u.list.v[i], f);
		}
		fputc(']', f);
		break;
	}
}

static void print_meta1(const npu_graph *g, const npu_gmeta *m, FILE *f)
{
	switch (m->kind) {
	case NPU_GM_NONE:
		fputs("None", f);
		break;
	case NPU_GM_SCALAR:
		if (m->scalar.kind == NPU_GV_SYM)
			fprintf(f, "Sym(%s)", m->scalar.u.s);
		else
			npu_gval_print(g, &m->scalar, f);
		break;
	case NPU_GM_TENSOR:
		fprintf(f, "%s[", npu_dtype_name(m->dtype));
		for (int i = 0; i < m->ndim; i++) {
			if (i)
				fputc(',', f);
			if (m->shape[i].sym)
				fputs(m->shape[i].sym, f);
			else
				fprintf(f, "%lld", (long long)m->shape[i].v);
		}
		fputc(']', f);
		break;
	}
}

static void print_meta(const npu_graph *g, const npu_gnode *n, FILE *f)
{
	if (!n->nmeta)
		return;
	fputs(" : ", f);
	if (n->multi)
		fputc('(', f);
	for (int i = 0; i < n->nmeta; i++) {
		if (i)
			fputs(", ", f);
		print_meta1(g, &n->meta[i], f);
	}
	if (n->multi)
		fputc(')', f);
}

static void print_node(const npu_graph *g, const npu_gnode *n, FILE *f)
{
	static const char *const phk[] = {
		"", "parameter", "buffer", "input", "symint"
	};

	if (n->op == NPU_GOP_OUTPUT) {
		fputs("return ", f);
		npu_gval_print(g, &n->args[0], f);
		fputc('\n', f);
		return;
	}
	fprintf(f, "%%%s = ", n->name);
	if (n->op == NPU_GOP_PLACEHOLDER || n->op == NPU_GOP_GET_ATTR) {
		fputs(gop_names[n->op], f);
		if (n->op == NPU_GOP_GET_ATTR)
			fprintf(f, " %s", n->target);
	} else {
		if (n->op != NPU_GOP_CALL_FUNCTION)
			fprintf(f, "%s ", gop_names[n->op]);
		fprintf(f, "%s(", n->target);
		for (int i = 0; i < n->nargs; i++) {
			if (i)
				fputs(", ", f);
			npu_gval_print(g, &n->args[i], f);
		}
		for (int i = 0; i < n->nkwargs; i++) {
			fprintf(f, "%s%s=", i || n->nargs ? ", " : "",
				n->kwargs[i].key);
			npu_gval_print(g, &n->kwargs[i].val, f);
		}
		fputc(')', f);
	}
	print_meta(g, n, f);
	if (n->phkind)
		fprintf(f, "  # %s %s", phk[n->phkind],
			n->phsource ? n->phsource : "");
	else if (n->srcloc && *n->srcloc)
		fprintf(f, "  # %s", n->srcloc);
	fputc('\n', f);
}

int npu_graph_print(const npu_graph *g, FILE *f)
{
	fprintf(f, "graph %s (%s)\n", g->name,
		(const char *[]){ "inference", "forward", "backward",
				  "dynamo" }[g->kind]);
	for (int i = 0; i < g->nnodes; i++)
		print_node(g, &g->nodes[i], f);
	return ferror(f) ? -1 : 0;
}
