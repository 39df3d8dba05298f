/*
 * driver.h - the compiler's pipeline (npucc): options, the stages in
 * order, IR dumps, pass timing and the compile report.  Also the
 * interfaces between the back-end stages (emit*.c, link.c), which only
 * the driver calls.
 *
 *   import   graph.c      FX JSON -> graph IR
 *   passes   passes.c     normalization (when built in)
 *   fuse     fuse.c       graph -> kernel IR
 *   tile     tile.c       tiles, loop order, buffering; cost model
 *   emit     emit*.c      templates -> instructions on virtual registers
 *   regalloc regalloc.c   physical registers, spills
 *   link     link.c       DRAM layout, constants, tables -> npu_prog
 */
#ifndef NPU_DRIVER_H
#define NPU_DRIVER_H

#include <stdio.h>

#include "compiler/graph.h"
#include "compiler/kir.h"
#include "compiler/passes.h"
#include "compiler/mir.h"
#include "isa/err.h"
#include "isa/prog.h"
#include "isa/st.h"
#include "isa/target.h"

/* X(ID, "name"): the stages, in pipeline order. */
#define NPU_STAGES(X) \
	X(IMPORT, "import") X(PASSES, "passes") X(FUSE, "fuse") \
	X(TILE, "tile") X(EMIT, "emit") X(REGALLOC, "regalloc") \
	X(LINK, "link")

enum npu_stage {
#define X(id, name) NPU_STAGE_##id,
	NPU_STAGES(X)
#undef X
	NPU_NSTAGE
};
const char *npu_stage_name(int s);
int npu_stage_find(const char *name); /* -1 when unknown */

#define NPU_MAX_KNOBS 512

/* One --knob KERNEL.NAME=VALUE setting ("*" matches every kernel). */
typedef struct npu_knobset {
	char kernel[128];
	char name[32];
	long long value;
} npu_knobset;

typedef struct npu_ccopts {
	const char *graph;       /* GRAPH.json */
	const char *weights;     /* W.safetensors or NULL */
	const char *target;      /* name or path; default npu-base */
	const char *out;         /* PROG.bin */
	unsigned dump;           /* bit per stage: --dump-ir-after */
	FILE *dumpf;             /* where dumps go (stdout by default) */
	int time_passes;
	int nofuse;
	int nopasses;            /* --no-passes: skip normalization */
	int fp32prec;            /* 0 highest, 1 high, 2 medium */
	int nxr, nvr;            /* register budget (0: all) */
	const char *report;      /* --report FILE (JSON) */
	int report_text;         /* print the report as text */
	npu_knobset knobs[NPU_MAX_KNOBS];
	int nknobs;
	const char *dyn_hint;    /* --dyn-hint "s0=4,s1=32" (dyn.h) */
	const char *dyn_max;     /* --dyn-max, the same form */
	const char *specialize;  /* --specialize: SymInt dims as constants */
	int noresident;          /* --no-resident: no SRAM-resident window */
} npu_ccopts;

/* What one compile produced, for the report and the tests. */
typedef struct npu_ccresult {
	npu_prog prog;
	npu_kir ir;
	npu_graph *g;
	npu_stfile weights;
	npu_target t;
	npu_target tc;           /* t as tiler and emitter see it: without
				    the banks of the resident window */
	double seconds[NPU_NSTAGE];
	int spills;
	npu_passconsts consts;   /* constants the passes folded */
	npu_passlog plog;        /* what the passes did */
	void *cache;             /* frozen tensors in both forms (driver.c) */
	struct npu_dyn *dyn;     /* dynamic shapes (dyn.h), NULL when static */
} npu_ccresult;

/* Parses one --knob argument "KERNEL.NAME=VALUE"; 0 or -1. */
int npu_cc_parse_knob(npu_ccopts *o, const char *arg, npu_err *e);

/* Runs the whole pipeline; r must be zeroed; free it with npu_cc_free. */
int npu_cc_compile(const npu_ccopts *o, npu_ccresult *r, npu_err *e);
void npu_cc_free(npu_ccresult *r);

/* The compile report: text, or JSON. */
void npu_cc_report(const npu_ccresult *r, FILE *f);
int npu_cc_report_json(const npu_ccresult *r, const char *path, npu_err *e);

/* --- between the back-end stages --- */

/* link.c, after fusion: the new values of data-mutated inputs go into
 * the inputs' own buffers (in place when safe, else by a copy kernel). */
int npu_link_mutations(npu_kir *ir, npu_err *e);

/* link.c, before tiling: which scratch values and small constants stay
 * in SRAM (ir->res_*). */
int npu_link_resident(npu_kir *ir, const npu_target *t, npu_err *e);

/* link.c, before tiling, for a dynamic program: the top SRAM banks kept
 * for the loader to place symbolic scratch in (ir->res_banks, kval.win). */
void npu_link_dynwin(npu_kir *ir, const npu_target *t);

/* link.c, first half: a DRAM buffer for every materialized value. */
int npu_link_layout(npu_kir *ir, npu_prog *p, npu_err *e);

/* dyn.c: DRAM ranges [lo, hi) whose addresses the code moves by a
 * register (xr: where the current block of a symbolic buffer is). */
typedef struct npu_dynrel {
	int n;
	const uint64_t *lo, *hi;
	const int *xr;
} npu_dynrel;

/*
 * A matmul's first B panel (frozen weights, which no kernel writes)
 * loaded by the kernel before it, while that one computes: into one of
 * two SRAM areas at the top (kernel k's is area k & 1, so the kernel
 * running meanwhile never uses it), the engines that load it signal
 * SEM_PF once each and the matmul's matrix unit waits for as many.
 */
#define NPU_SEM_PF 31
typedef struct npu_pfplan {
	int on;                  /* the panel of kernel k + 1 can be loaded early */
	int issued;              /* kernel k emitted the loads (neng engines) */
	int neng;
	int esz;
	int area;                /* which of the two areas (0, 1) */
	uint64_t dram, local;    /* the panel, and its SRAM area */
	int64_t rows, cols, sa;  /* rows x cols elements, DRAM row stride sa */
	int isa;                 /* a convolution's weight, its A panel */
	int plain;               /* a plain matmul's B panel (not a convolution's) */
	int64_t prefix;          /* > 0: any multiple of prefix rows from the
				    first may be loaded instead (the kernel
				    before sets rows to what it loaded) */
	int far;                 /* loaded further back (driver.c, farpf), by
				    code of its own, over engine fq alone */
	int fq;
} npu_pfplan;
/* emit_mm.c: the semaphore p's loads signal, which its matmul waits for:
 * NPU_SEM_PF, or a far panel's, SEM_LD + its engine. */
int npu_pf_sem(const npu_pfplan *p);

/*
 * What a kernel leaves in SRAM: the DRAM bytes [dram, dram + bytes) it
 * stored (or loaded) last are also at sram, contiguous.  The next
 * kernel may copy them SRAM to SRAM (no DRAM latency) instead of
 * loading them, if none of its own slots overlap them.
 */
typedef struct npu_handoff {
	int on;
	uint64_t dram, sram, bytes;
	/* for dropping a store no kernel reads back (driver.c,
	 * drop_dead_store): the kernel that stored it, the value stored and
	 * the store's instructions [i0, i1) in that kernel's code (i1 = i0:
	 * none recorded) */
	int kp, val, i0, i1;
} npu_handoff;

/*
 * A convolution's padded image written into SRAM by the kernel before
 * it, which computed the image's interior: its output blocks copied
 * there as they are stored.  Two regions of NPU_IMGHO_BANKS banks below
 * the prefetch areas, by the reading kernel's parity.  Channels-last
 * for a transposed convolution (emit_convt.c, cv_hwc: pixel (y, x) at
 * (y * Wp + x) * ic elements); planes for a plain one (emit_mm.c: ng
 * groups of channels, group i (channels i * ic / ng ..) from sram + i *
 * gstride, a padded plane of hp x wp per channel).
 */
#define NPU_IMGHO_BANKS 4
typedef struct npu_imgho {
	int on;                  /* kernel k + 1 reads value val as its image */
	int val;
	int planes;              /* planes (a plain convolution's), or hwc */
	int64_t hp, wp, ic, ph, pw, ng;
	uint64_t sram, gstride;  /* the region; planes: group stride */
	int written;             /* kernel k wrote all of the interior */
} npu_imgho;

/* A DRAM range [lo, hi) whose accesses a kernel's code notes (hit = 1
 * when any transfer's DRAM address falls in it). */
typedef struct npu_dramwatch {
	uint64_t lo, hi;
	int hit;
} npu_dramwatch;

/* emit.c: kernel k's code on virtual registers. */
typedef struct npu_emitctx {
	const npu_kir *ir;
	const npu_prog *p;       /* buffers laid out */
	const npu_target *t;
	int *hcall;              /* host kernels: their host-call index */
	const npu_dynrel *rel;   /* NULL, or addresses to move (dyn.c) */
	npu_pfplan *pfnext;      /* NULL, or the next kernel's panel to load */
	uint64_t *slots_end;     /* NULL, or where the kernel's emitter puts
				    the end of its SRAM slots (elementwise,
				    row and matmul kernels) */
	const npu_pfplan *pf;    /* NULL, or this kernel's, as planned */
	npu_handoff *hoout;      /* NULL, or what this kernel leaves */
	const npu_handoff *hoin; /* NULL, or what the kernel before left */
	npu_dramwatch *watch;    /* NULL, or the range whose accesses to note */
	npu_imgho *imgout;       /* NULL, or the next kernel's image to write */
	const npu_imgho *imgin;  /* NULL, or this kernel's, as written */
} npu_emitctx;
int npu_emit_kernel(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e);
/* emit.c: the resident constants' copies into the window (ir->pre), to
 * run before kernel 0's code (npu_link_finish's pre). */
void npu_emit_preload(const npu_emitctx *c, npu_mfunc *f);
int npu_emit_mm(const npu_emitctx *c, int k, npu_mfunc *f, npu_err *e);
/* emit.c: the loads of far panel p (npu_pfplan.far) of matmul j, code of
 * their own, which runs before the kernel that loads it ahead. */
void npu_emit_far(const npu_emitctx *c, int j, npu_pfplan *p, npu_mfunc *f);
/* Kernel f's end also waits for every engine whose last write no
 * later signal of it follows (emit.c). */
void npu_emit_seal(const npu_target *t, npu_mfunc *f);
/* emit_mm.c: the plan for kernel k's first B panel (p->on = 0 when it
 * cannot be loaded early). */
void npu_mm_pf_plan(const npu_emitctx *c, int k, int from, int area,
		    npu_pfplan *p);

/* emit_pool.c: 1 when pool kernel k + 1 is computed by convolution
 * kernel k, from its accumulator (emit_mm.c); its own code is then
 * empty. */
int npu_pool_fused(const npu_kir *ir, const npu_target *t, int k);

/* SRAM kept back at the top for register spills. */
#define NPU_SPILL_BYTES (64 * 1024)

/* link.c, second half: code, kernels, provenance, host calls; pre (may
 * be empty) is the resident constants' preload, the program's first
 * kernel, "preload", whose nodes are the constants'; far[k] (may be
 * empty) the loads of matmul farj[k]'s far panel, which run before
 * kernel k, a kernel of their own, "<matmul>.pf", whose nodes are the
 * matmul's. */
int npu_link_finish(npu_kir *ir, npu_mfunc *fs, npu_mfunc *far,
		    const int *farj, npu_mfunc *pre, npu_prog *p,
		    const npu_target *t, npu_err *e);

/* hostops.c: registers npu_ref_exec_op for every ATen op. */
void npu_hostops_register_all(void);

#endif
