/*
 * pass_int.h - private to the normalization passes (passes.c, pass_*.c):
 * the context every pass receives and the logging helpers.
 */
#ifndef NPU_PASS_INT_H
#define NPU_PASS_INT_H

#include "compiler/gedit.h"
#include "compiler/passes.h"

typedef struct pass_cx {
	npu_graph *g;
	const npu_passopts *o;
	npu_passlog *log;           /* never NULL inside a pass */
	npu_err *e;
	int pass;                   /* enum npu_pass, for log entries */
} pass_cx;

/* Records a change (counts toward the pass's changes); nodes is the
 * comma-separated list of node names affected.  Returns 0 or -1. */
/* Adds a get_attr "_folded_K" before anchor holding t (moved into the
 * folded-constant table), with like's provenance; its index or -1. */
int pass_add_frozen(pass_cx *pc, npu_gedit *ge, int anchor, int like,
		    const npu_gmeta *meta, npu_reftensor *t);
int pass_log(pass_cx *pc, const char *nodes, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Records a decision not to change anything, with its reason. */
int pass_note(pass_cx *pc, const char *nodes, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Adds the origins of node `from` (its own name when it has none) to
 * those of node `to`, a node a pass created. */
int pass_prov(pass_cx *pc, const char *to, const char *from);

/* The same for a node that already existed: its own name stays first. */
int pass_prov_merge(pass_cx *pc, const char *to, const char *from);

/* True when node i of g is a placeholder whose data the graph mutates
 * (aot input_mutates_data). */
int pass_mutated_input(const npu_graph *g, int i);

/* A call_function node of target (args copied, meta copied) added before
 * anchor, with like's provenance; its index or -1. */
int pass_add_call(pass_cx *pc, npu_gedit *ge, int anchor, const char *name,
		  const char *target, const npu_gval *args, int nargs,
		  const npu_gmeta *meta, int like);

/* The frozen value of node i (a placeholder the graph does not mutate, a
 * get_attr tensor or a folded constant) as doubles, or NULL. */
const npu_reftensor *pass_frozen(pass_cx *pc, npu_gedit *ge, int i);

/* The passes that live in their own files. */
int pass_fold(pass_cx *pc);
int pass_quant(pass_cx *pc, npu_gedit *ge);
int pass_decomp(pass_cx *pc);
int pass_rope(pass_cx *pc, npu_gedit *ge);
int pass_scatter(pass_cx *pc, npu_gedit *ge);

#endif
