/*
 * dyn.h - dynamic shapes in npucc: a graph whose dims are SymInts
 * (PyTorch's dynamic=True capture: {"sym": "s33"} dims, "256*s50"
 * strides, SymInt placeholders) compiles once into a program whose
 * kernels take their row counts at run time.
 *
 * What is specialized and what stays symbolic.  The driver binds every
 * symbol to a hint (--dyn-hint, default NPU_DYN_HINT) and the whole
 * pipeline (passes, fusion, tiling, templates) runs on those sizes.  What
 * stays symbolic is the number of rows: a kernel whose buffers have
 * symbolic leading dims runs all of them in one execution, a run-time
 * loop over blocks of rows tiled for NPU_DYN_ROOM times the hint's rows
 * (emit_dyn.c: a matmul keeps its weight in SRAM; the last block is
 * partial, its row counts in registers), each block's DRAM addresses
 * moved by its first row.  A kernel the loops do not take runs versions:
 * code for fixed row counts around the hint, called in a loop, the last
 * call possibly computing rows past the bound ones, in room the loader
 * keeps for them, which nothing reads back (rows are independent in every
 * kernel allowed to be dynamic; see npu_dyn_plan for what is refused).
 *
 * The program records the symbols, each symbolic buffer dim as an
 * expression (isa/prog.h: npu_symdim) and the SRAM address of a table;
 * npusim binds the symbols from the input shapes, checks them, places the
 * symbolic buffers at their bound sizes and writes the table: the
 * symbols, and per symbolic buffer its address delta and its rows, which
 * each dynamic kernel loads before its loop.
 */
#ifndef NPU_DYN_H
#define NPU_DYN_H

#include <stdio.h>

#include "compiler/graph.h"
#include "compiler/kir.h"
#include "isa/err.h"
#include "isa/prog.h"
#include "isa/target.h"

/* The hint of a symbol that --dyn-hint does not name. */
#define NPU_DYN_HINT 16

/* The largest code a dynamic kernel has is for NPU_DYN_ROOM times the
 * rows at the hints (dyn.c: versions). */
#define NPU_DYN_ROOM 4

/* SRAM kept at the top (inside the spill area) for the bound-value table. */
#define NPU_DYN_TAB_BYTES 4096

typedef struct npu_dyn npu_dyn;

/*
 * Binds g's symbols to their hints: hints and maxes are "s33=4,s50=32"
 * lists (NULL: none).  Every symbolic dim, stride and offset gets its
 * value at the hints in v (the sym text stays); SymInt placeholders are
 * removed (one that a node uses as a value is refused).  *out is NULL
 * for a graph without symbols.
 */
int npu_dyn_specialize(npu_graph *g, const char *hints, const char *maxes,
		       npu_dyn **out, npu_err *e);

/* The same, and then the symbolic texts go: g becomes the static graph
 * of those sizes (npucc --specialize; what dynamic programs are measured
 * against). */
int npu_dyn_freeze(npu_graph *g, const char *sizes, npu_err *e);

/* After fusion, before the layout: marks the values with symbolic
 * leading dims (kval.sym), which keep buffers of their own. */
int npu_dyn_mark(npu_dyn *d, npu_kir *ir, npu_err *e);

/*
 * After the layout: the symbols, symbolic dims and table of p, and for
 * every kernel that touches a symbolic buffer its block loop; refuses,
 * naming the kernel and the value, what cannot run in blocks of rows.
 */
int npu_dyn_plan(npu_dyn *d, const npu_kir *ir, npu_prog *p,
		 const npu_target *t, npu_err *e);

/* Kernel k's code: npu_emit_kernel, inside its block loop if it has one.
 * d may be NULL (a static graph). */
struct npu_emitctx;
struct npu_mfunc;
int npu_dyn_emit(const npu_dyn *d, const struct npu_emitctx *c, int k,
		 struct npu_mfunc *f, npu_err *e);

/*
 * emit_dyn.c: matmul kernel k of c for the run-time rows in scalar
 * register xrows, in one execution: the weight kept in SRAM, a loop over
 * block rows of the kernel's tile_m (the last one partial), the symbolic
 * buffers' addresses moved by c->rel's registers.  1 (nothing emitted)
 * when the kernel is a form it does not take or its slots do not fit.
 */
int npu_emit_dynmm(const struct npu_emitctx *c, int k, int xrows,
		   struct npu_mfunc *f, npu_err *e);

/* The same for a row kernel (rows whole in SRAM, in one pass). */
int npu_emit_dynrow(const struct npu_emitctx *c, int k, int xrows,
		    struct npu_mfunc *f, npu_err *e);

/* One line per symbol and per dynamic kernel, for the compile report. */
void npu_dyn_report(const npu_dyn *d, const npu_kir *ir, FILE *f);

void npu_dyn_free(npu_dyn *d);

#endif
