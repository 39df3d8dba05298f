/*
 * mir.h - the target instruction stream on virtual registers: what the
 * kernel templates (emit*.c) produce and the register allocator
 * (regalloc.c) rewrites onto x1..x31 and v0..v31.
 *
 * An instruction is an npu_insn whose scalar (X) and vector (V) register
 * operands hold virtual register numbers (scalar 0 is always x0, the zero
 * register); branches name a label instead of an offset.  Every
 * instruction carries the graph node it came from, which becomes the
 * program's per-instruction provenance.
 */
#ifndef NPU_MIR_H
#define NPU_MIR_H

#include <stdint.h>
#include <stdio.h>

#include "isa/err.h"
#include "isa/isa.h"

typedef struct npu_minsn {
	int op;              /* opcode */
	int f[3];            /* fields A, B, C: registers virtual until
				allocation (wider than the encoding's 8 bits) */
	int32_t imm;
	int label;           /* branch target label, -1 */
	int node;            /* graph node, -1 */
} npu_minsn;

/* The encodable instruction of an allocated m. */
npu_insn npu_minsn_insn(const npu_minsn *m);

typedef struct npu_mfunc {
	npu_minsn *v;
	int n, cap;
	int nx, nv;          /* virtual scalar (from 1) / vector (from 0) counts */
	int *lab;            /* label -> instruction index */
	int nlab, caplab;
	int node;            /* current provenance for new instructions */
	int oom;
	int allocated;       /* registers are physical */
	int spills;          /* values spilled by the allocator */
} npu_mfunc;

void npu_mfunc_free(npu_mfunc *f);

/* New virtual registers and labels. */
int npu_mx(npu_mfunc *f);
int npu_mv(npu_mfunc *f);
int npu_mlabel(npu_mfunc *f);
void npu_mbind(npu_mfunc *f, int label); /* label = next instruction */

/* Appends one instruction (fields as in npu_insn); its index. */
int npu_memit(npu_mfunc *f, int op, int a, int b, int c, int64_t imm);
int npu_memit_br(npu_mfunc *f, int op, int a, int b, int label);
/* li of any 64-bit value (li, plus lih when it does not fit 32 bits). */
void npu_mli(npu_mfunc *f, int xr, int64_t v);
/* fp32 immediate bits. */
int64_t npu_mfimm(float x);

/* Register operands of m: field, class (0 scalar, 1 vector), read,
 * written; x0 left out.  At most 4; their count. */
typedef struct npu_mopd {
	int fld, cls, rd, wr;
} npu_mopd;
int npu_mopds(const npu_minsn *m, npu_mopd *r);

/*
 * Removes the instructions whose only effect is a register no kept
 * instruction reads, and nops; labels move to the next kept
 * instruction.  Liveness is per virtual register over the whole stream
 * (a register read anywhere by a kept instruction keeps all its
 * writes): before allocation, where each value has its own register.
 * The count removed, or -1 when out of memory.
 */
int npu_mfunc_dce(npu_mfunc *f);

/* Prints the stream ("x%d"/"v%d" virtual, or physical once allocated). */
void npu_mfunc_print(const npu_mfunc *f, FILE *out);

/*
 * regalloc.c: linear scan over live intervals (extended across loops),
 * nxr scalar and nvr vector registers available (at most 28 and 29: the
 * rest are reserved as spill temporaries); spills go to SRAM at
 * spill_base (spill_bytes available, vlen lanes per vector slot).
 */
typedef struct npu_ra_opts {
	int nxr, nvr;
	uint64_t spill_base, spill_bytes;
	int vlen;
} npu_ra_opts;
int npu_regalloc(npu_mfunc *f, const npu_ra_opts *o, npu_err *e);

/* Resolves labels into pc-relative offsets; f must be allocated. */
int npu_mfunc_finish(npu_mfunc *f, uint32_t base, npu_err *e);

#endif
