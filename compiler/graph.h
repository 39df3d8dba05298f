/*
 * graph.h - the FX graph reader: format "fxgraph" version 1 (JSON written
 * from torch.fx by the capture scripts; docs/fx-format.md) parsed into a
 * graph IR that the reference interpreter and the compiler passes walk.
 *
 * The IR keeps the graph as PyTorch gave it: nodes in topological order,
 * each with its op kind, target, arguments and recorded metadata.  Node
 * references are resolved to node indexes while reading, so every later
 * stage can index arrays by node; a reference to a node that is unknown
 * or comes later (a cycle) is an error.  Every error names the graph file
 * and the node: "graph.json: node 'add_3': argument 1 refers to unknown
 * node 'foo'".
 */
#ifndef NPU_GRAPH_H
#define NPU_GRAPH_H

#include <stdint.h>
#include <stdio.h>

#include "isa/err.h"
#include "isa/prog.h"

/* ATen operators known to npusim (compiler/optab.def). */
enum npu_aop {
#define NPU_ATEN(id, target, cat, impl, schema, sem) NPU_AOP_##id,
#include "compiler/optab.def"
#undef NPU_ATEN
	NPU_NAOP,
	NPU_AOP_UNKNOWN = -1
};

enum npu_acat {
	NPU_ACAT_ELEMWISE, NPU_ACAT_REDUCTION, NPU_ACAT_MATMUL, NPU_ACAT_CONV,
	NPU_ACAT_POOL, NPU_ACAT_NORM, NPU_ACAT_VIEW, NPU_ACAT_MOVE,
	NPU_ACAT_CREATE, NPU_ACAT_QUANT, NPU_ACAT_MISC, NPU_NACAT
};

typedef struct npu_aopinfo {
	const char *target;     /* "aten.add.Tensor" */
	int cat;                /* enum npu_acat */
	const char *schema;     /* argument notes */
	const char *semantics;  /* one line */
} npu_aopinfo;

extern const npu_aopinfo npu_aoptab[NPU_NAOP];

/* Interns an FX target; NPU_AOP_UNKNOWN when the table lacks it. */
int npu_aop_find(const char *target);
/* Writes every target npu_aop_find knows, and the targets the passes
 * rewrite into the table's, one a line (npucc --list-ops). */
void npu_aop_print(FILE *f);

/* Not in the table: the normargs pass makes it aten._to_copy, the fp64
 * reference runs it as a copy. */
#define NPU_PRIMS_CONVERT "prims.convert_element_type.default"
const char *npu_acat_name(int cat);           /* "elementwise" */

/* FX node kinds. */
enum npu_gop {
	NPU_GOP_PLACEHOLDER, NPU_GOP_GET_ATTR, NPU_GOP_CALL_FUNCTION,
	NPU_GOP_CALL_MODULE, NPU_GOP_CALL_METHOD, NPU_GOP_OUTPUT, NPU_NGOP
};
const char *npu_gop_name(int op);             /* "call_function" */

/* Argument values: a small tagged union mirroring the JSON encoding. */
enum npu_gval_kind {
	NPU_GV_NONE, NPU_GV_NODE, NPU_GV_INT, NPU_GV_FLOAT, NPU_GV_BOOL,
	NPU_GV_STR, NPU_GV_DTYPE, NPU_GV_DEVICE, NPU_GV_LAYOUT,
	NPU_GV_MEMFMT, NPU_GV_LIST, NPU_GV_SYM, NPU_GV_REPR
};

typedef struct npu_gval {
	int kind;                  /* enum npu_gval_kind */
	union {
		int node;          /* NODE: index of the referenced node */
		int64_t i;         /* INT */
		double f;          /* FLOAT (inf and nan included) */
		int b;             /* BOOL */
		int dtype;         /* DTYPE: enum npu_dtype */
		char *s;           /* STR, DEVICE, LAYOUT, MEMFMT, SYM (the
				      expression, "256*s50"), REPR */
		struct {
			struct npu_gval *v;
			int n;
		} list;            /* LIST */
	} u;
} npu_gval;

typedef struct npu_gkwarg {
	char *key;
	npu_gval val;
} npu_gkwarg;

/* A dimension, stride or offset: a number, or a symbolic expression. */
typedef struct npu_gdim {
	int64_t v;                 /* the value when sym is NULL; with sym,
				      0, or the hint npucc specialized the
				      dim to (compiler/dyn.h) */
	char *sym;                 /* "s33", "256*s50"; NULL when concrete */
} npu_gdim;

enum npu_gmeta_kind { NPU_GM_NONE, NPU_GM_TENSOR, NPU_GM_SCALAR };

/* What one value of a node is (a node has several when multi-output). */
typedef struct npu_gmeta {
	int kind;                  /* enum npu_gmeta_kind */
	int dtype;                 /* TENSOR: enum npu_dtype */
	int ndim;
	npu_gdim shape[NPU_MAX_DIMS];
	npu_gdim stride[NPU_MAX_DIMS];
	npu_gdim storage_offset;
	npu_gval scalar;           /* SCALAR: its value (INT, FLOAT, SYM, NONE) */
} npu_gmeta;

/* Placeholder kinds ("kind" in the JSON). */
enum npu_phkind {
	NPU_PH_NONE, NPU_PH_PARAMETER, NPU_PH_BUFFER, NPU_PH_INPUT,
	NPU_PH_SYMINT
};

typedef struct npu_gnode {
	char *name;
	int op;                    /* enum npu_gop */
	char *target;
	int aop;                   /* enum npu_aop, or NPU_AOP_UNKNOWN */
	npu_gval *args;
	int nargs;
	npu_gkwarg *kwargs;
	int nkwargs;
	npu_gmeta *meta;           /* nmeta entries; NULL when absent */
	int nmeta;
	int multi;                 /* meta was a list: a multi-output node */
	int inplace;               /* an in-place target read as its functional op */
	int phkind;                /* enum npu_phkind (placeholders) */
	char *phsource;            /* Dynamo-level name, or NULL */
	/* provenance */
	char *module;              /* "layers.0.mlp" ("" when none) */
	char *module_class;        /* "Linear" ("" when none) */
	char *srcloc;              /* "models.py:251" ("" when none) */
	char *original_aten;       /* NULL when absent */
	char *from_node;           /* first from_node name, NULL when absent */
} npu_gnode;

enum npu_gkind {
	NPU_GK_INFERENCE, NPU_GK_FORWARD, NPU_GK_BACKWARD, NPU_GK_DYNAMO
};

typedef struct npu_graph {
	char *file;                /* the name errors use */
	char *name;                /* "rmsnorm_float32/inference2" */
	int kind;                  /* enum npu_gkind */
	char *captured_from;       /* NULL when absent */
	npu_gnode *nodes;
	int nnodes;
	int output;                /* index of the output node */
	/* aot metadata (has_aot == 0 when absent) */
	int has_aot;
	int *input_mutates_data;   /* one flag per placeholder (of the
				      forward graph, for a backward one) */
	int ninput_mutates;
	int num_mutated_inputs_returned_first;
	int num_forward_returns;   /* -1 when absent */
	void *index;               /* name lookup (private) */
} npu_graph;

/* Reads and validates a graph file; *g is NULL on failure. */
int npu_graph_read(npu_graph **g, const char *path, npu_err *e);

/* The same from memory; name is used in messages. */
int npu_graph_parse(npu_graph **g, const char *name, const void *data,
		    size_t len, npu_err *e);

void npu_graph_free(npu_graph *g);

/* Free what a value, a meta record or a node owns, and zero it. */
void npu_gval_clear(npu_gval *v);
void npu_gmeta_clear(npu_gmeta *m);
void npu_gnode_clear(npu_gnode *n);

/* Index of the node called name, or -1. */
int npu_graph_find(const npu_graph *g, const char *name);

/* FNV-1a of a node name (the graph's name index, compiler/gedit.c's). */
size_t npu_name_hash(const char *s);

/* Rebuilds the name lookup after the node array changed (passes). */
int npu_graph_reindex(npu_graph *g, npu_err *e);

/* The output node's values (args[0]), and how many there are. */
const npu_gval *npu_graph_outputs(const npu_graph *g, int *n);

/* Number of placeholders; the i-th placeholder's node index. */
int npu_graph_nplaceholders(const npu_graph *g);
int npu_graph_placeholder(const npu_graph *g, int i);

/* A keyword argument of n, or NULL. */
const npu_gval *npu_gnode_kwarg(const npu_gnode *n, const char *key);
/* Whether node n reads node s (an argument or a keyword argument, lists
 * within). */
int npu_gnode_reads(const npu_gnode *n, int s);

/* 1 when n is a weight: a parameter or buffer placeholder, or a get_attr
 * constant (what scripts/freeze-params writes for npucc --weights). */
int npu_gnode_is_weight(const npu_gnode *n);

/*
 * Writes the graph as text, one line per node:
 *   %add = aten.add.Tensor(%arg1_1, %arg0_1) : f32[64,4096]  # models.py:251
 * Returns 0, or -1 on a write error.
 */
int npu_graph_print(const npu_graph *g, FILE *f);

/* Writes one argument value as the printer does ("[1, %x]", "-inf"). */
void npu_gval_print(const npu_graph *g, const npu_gval *v, FILE *f);

/*
 * Normalizes a Dynamo module path: "L['self'].layers[0].mlp" ->
 * "layers.0.mlp".  Writes at most n bytes (NUL included) to out.
 */
void npu_graph_module_path(const char *raw, char *out, size_t n);

#endif
