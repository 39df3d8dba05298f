/*
 * gedit.h - editing the graph IR (graph.h) without breaking its indexes.
 *
 * Arguments refer to nodes by index, so erasing or inserting a node in
 * the middle of the array would shift every later reference.  An edit
 * session therefore never moves anything while a pass runs: erased nodes
 * are only marked dead, new nodes are appended after the existing ones
 * (index g->nnodes + k) with an anchor, the old node they must precede,
 * and replacing uses rewrites references in place.  npu_gedit_commit then
 * builds the new array in one go (each new node just before its anchor,
 * dead nodes dropped), renumbers every reference, frees what was erased
 * and rebuilds the name lookup.  A new node may refer to old nodes before
 * its anchor and to new nodes added before it with the same or an earlier
 * anchor; that keeps the result topologically ordered.
 *
 * Pointers from npu_gedit_node stay valid until the next npu_gedit_add.
 */
#ifndef NPU_GEDIT_H
#define NPU_GEDIT_H

#include "compiler/graph.h"
#include "isa/err.h"

typedef struct npu_gedit {
	npu_graph *g;
	int nold;                  /* g->nnodes when the session began */
	npu_gnode *add;            /* new nodes, index nold + k */
	int *anchor;               /* the old node each new one precedes */
	int nadd, capadd;
	int *nslot;                /* the new nodes' names: k + 1, 0 empty */
	size_t nmask;              /* nslot's size - 1 (0: none yet) */
	unsigned char *dead;       /* by index, old and new */
	int *nuse;                 /* users per node (cached) */
	int **use;                 /* the users themselves */
	int dirty;                 /* the cache needs a rebuild */
	int changed;               /* anything at all was edited */
} npu_gedit;

/* Starts a session on g. */
int npu_gedit_begin(npu_gedit *ge, npu_graph *g, npu_err *e);

/* Ends it: applies the edits (see above).  The session is over either
 * way; on failure (out of memory) g is unchanged. */
int npu_gedit_commit(npu_gedit *ge, npu_err *e);

/* Ends it without applying anything added; kills and replaced uses that
 * were already made stay made, so only abort before editing or on error. */
void npu_gedit_abort(npu_gedit *ge);

/* Number of node indexes (old and new). */
int npu_gedit_n(const npu_gedit *ge);
npu_gnode *npu_gedit_node(npu_gedit *ge, int i);
int npu_gedit_dead(const npu_gedit *ge, int i);

/* Marks node i erased; its arguments stop counting as uses. */
void npu_gedit_kill(npu_gedit *ge, int i);

/*
 * Appends n (moved in: the session owns its strings from now on) before
 * anchor.  n's name is made unique first (n->name replaced by
 * "<name>_<k>" when taken).  Returns the new node's index, or -1.
 */
int npu_gedit_add(npu_gedit *ge, int anchor, npu_gnode *n, npu_err *e);

/* Every use of node from (by a live node) now uses to. */
void npu_gedit_replace_uses(npu_gedit *ge, int from, int to);

/* The live nodes that use node i (each counted once); *users points into
 * the cache, valid until the next edit.  Returns their number. */
int npu_gedit_users(npu_gedit *ge, int i, const int **users);

/* Calls fn on every node reference in n's arguments (recursively). */
void npu_gnode_refs(npu_gnode *n, void (*fn)(int *ref, void *ctx),
		    void *ctx);

/* ---- node and value helpers ------------------------------------- */
/* (npu_gval_clear, npu_gmeta_clear and npu_gnode_clear are in graph.h.) */

int npu_gval_copy(npu_gval *dst, const npu_gval *src);
int npu_gval_equal(const npu_gval *a, const npu_gval *b);
int npu_gmeta_copy(npu_gmeta *dst, const npu_gmeta *src);
int npu_gmeta_equal(const npu_gmeta *a, const npu_gmeta *b);

/* Concrete dims only: shape[0..ndim) of m, or -1 when one is symbolic. */
int npu_gmeta_shape(const npu_gmeta *m, int64_t *shape);

/*
 * How m's recorded strides lay its elements out in its storage: 0 in
 * order (contiguous; a size-1 dim's stride is free), 1 densely in
 * another order (each storage element once from the storage offset: a
 * permuted tensor), -1 otherwise (symbolic, gaps or overlaps).  ord gets
 * the dims by stride, largest first.
 */
int npu_gmeta_layout(const npu_gmeta *m, int64_t *ord);

/* Sets m to a contiguous tensor of dtype and shape. */
void npu_gmeta_set(npu_gmeta *m, int dtype, int ndim, const int64_t *shape);

/*
 * Fills n as a call_function of target with nargs arguments (copied) and
 * one tensor meta (copied; NULL: none), taking name and provenance
 * (module, class, source line, original ATen target) from like.
 */
int npu_gnode_make(npu_gnode *n, const char *name, const char *target,
		   const npu_gval *args, int nargs, const npu_gmeta *meta,
		   const npu_gnode *like);

/* Convenience gvals (no allocation except list). */
npu_gval npu_gv_node(int i);
npu_gval npu_gv_int(int64_t v);
npu_gval npu_gv_float(double f);
npu_gval npu_gv_bool(int b);
/* A list of n ints (allocated; clear with npu_gval_clear). */
int npu_gv_ints(npu_gval *v, const int64_t *x, int n);

#endif
