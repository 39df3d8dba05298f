/*
 * isa.h - the npusim instruction set: opcodes, formats, encode, decode,
 * disassemble.  Everything here is expanded from isa/npu.def.
 *
 * Machine model in one paragraph: a scalar unit fetches one instruction
 * stream.  It executes scalar instructions itself and dispatches every other
 * instruction, with its scalar register operands already read, to the queue
 * of the unit that runs it (vector, matrix, host, or one of the DMA
 * engines).  Each unit runs its queue in order; units overlap unless a
 * `wait` on a semaphore, signalled by another unit's `sig`, orders them.
 * Local memory is the SRAM scratchpad (addresses from 0) and the
 * accumulator SRAM (addresses from NPU_ACC_BASE); DRAM is reached only by
 * DMA and host calls, and DMA reaches the scratchpad also through an
 * aperture of DRAM's address space (NPU_SRAM_APERTURE).
 */
#ifndef NPU_ISA_H
#define NPU_ISA_H

#include <stddef.h>
#include <stdint.h>

#define NPU_NXREG 32          /* scalar registers x0..x31 */
#define NPU_NVREG 32          /* vector registers v0..v31 */
#define NPU_NSEM 32           /* semaphores s0..s31 */
#define NPU_MAX_DMA 8         /* DMA engines dma0..dma7 */
#define NPU_ACC_BASE 0x40000000u /* local address of accumulator SRAM */
/* DMA addresses from here on name the SRAM scratchpad, not DRAM: a
 * transfer whose DRAM side lies there copies SRAM to SRAM (as dcp), so
 * the same code reaches a buffer the compiler or the loader placed in
 * either memory.  The top 2 GiB of the address space, so that one li
 * (a sign-extended 32-bit immediate) names any of its addresses, as it
 * names a local one: a DRAM address past 4 GiB takes two. */
#define NPU_SRAM_APERTURE (~0ull << 31)
#define NPU_MXU_OS 1u         /* mcfg imm bit: output-stationary */
#define NPU_MMAC_ACC 1u       /* mmac imm bit: accumulate, not overwrite */
#define NPU_MMAC_HOLD 2u      /* mmac imm bit: keep the weights in use
				 (weight-stationary: no swap to an mldw's) */

/* Opcodes: the enum value is the opcode byte. */
enum npu_opcode {
#define NPU_OP(name, code, mn, fmt, unit, flags, sem) NPU_OP_##name = code,
#include "isa/npu.def"
#undef NPU_OP
};

/* Instruction formats. */
enum npu_fmt {
#define NPU_FMT(name, n, ...) NPU_FMT_##name,
#include "isa/npu.def"
#undef NPU_FMT
	NPU_NFMT
};

/* Fields of an instruction word. */
enum npu_field { NPU_F_A, NPU_F_B, NPU_F_C, NPU_F_IMM };

/* Operand kinds, see npu.def. */
enum npu_kind {
	NPU_K_X, NPU_K_V, NPU_K_U, NPU_K_S, NPU_K_Q, NPU_K_D, NPU_K_T,
	NPU_K_I, NPU_K_F, NPU_K_L
};

/* Which unit class runs an instruction. */
enum npu_uclass {
	NPU_UC_SCL, NPU_UC_VEC, NPU_UC_MXU, NPU_UC_DMA, NPU_UC_HOST, NPU_UC_SYNC
};

/* Unit ids, as operands of sig/wait and in traces. */
enum npu_unit {
	NPU_UNIT_SCL = 0, NPU_UNIT_VEC = 1, NPU_UNIT_MXU = 2, NPU_UNIT_HOST = 3,
	NPU_UNIT_DMA0 = 4, NPU_NUNIT = NPU_UNIT_DMA0 + NPU_MAX_DMA
};

/* Instruction flags. */
enum {
	NPU_WA = 1 << 0,  /* field A is a register that is written */
	NPU_RA = 1 << 1,  /* field A is a register that is read */
	NPU_BR = 1 << 2,  /* may change the pc */
	NPU_END = 1 << 3  /* ends the stream */
};

/* Data types. */
enum npu_dtype {
#define NPU_DTYPE(name, asm, size, torch) NPU_DT_##name,
#include "isa/npu.def"
#undef NPU_DTYPE
	NPU_NDTYPE
};

/* DMA descriptor fields. */
enum npu_dfield {
#define NPU_DFIELD(name, asm, doc) NPU_DF_##name,
#include "isa/npu.def"
#undef NPU_DFIELD
	NPU_NDFIELD
};

typedef struct npu_operand {
	uint8_t field; /* enum npu_field */
	uint8_t kind;  /* enum npu_kind */
} npu_operand;

typedef struct npu_fmtinfo {
	const char *name;
	int nopd;               /* operands, in assembly order */
	npu_operand opd[4];
} npu_fmtinfo;

typedef struct npu_opinfo {
	const char *mnemonic;   /* NULL for an illegal opcode */
	const char *name;       /* enum name, e.g. "VADD" */
	uint8_t opcode;
	uint8_t fmt;            /* enum npu_fmt */
	uint8_t uclass;         /* enum npu_uclass */
	uint8_t flags;
	const char *semantics;  /* one line */
} npu_opinfo;

/* A decoded instruction. */
typedef struct npu_insn {
	uint8_t op, a, b, c;
	int32_t imm;
} npu_insn;

/* Per-opcode properties; .mnemonic is NULL for an illegal opcode. */
extern const npu_opinfo npu_optab[256];
extern const npu_fmtinfo npu_fmttab[NPU_NFMT];

/* Number of defined opcodes and the i-th of them (in table order). */
int npu_nops(void);
const npu_opinfo *npu_op_nth(int i);

/* Looks up a mnemonic; NULL when unknown. */
const npu_opinfo *npu_op_by_mnemonic(const char *mn, size_t len);

/* Encodes one instruction word. */
uint64_t npu_encode(const npu_insn *in);

/*
 * Decodes one word into *out; returns 0, or -1 when the opcode is illegal
 * or an operand is out of range for its kind (register >= 32, unknown
 * unit, dtype or DMA field).
 */
int npu_decode(uint64_t word, npu_insn *out);

/* Checks every operand of in against its kind; 0 if valid, else -1. */
int npu_insn_valid(const npu_insn *in);

/* Reads operand i (in assembly order) of in, and sets it. */
int64_t npu_opd_get(const npu_insn *in, const npu_operand *o);
void npu_opd_set(npu_insn *in, const npu_operand *o, int64_t v);

/*
 * Disassembles in, at instruction index pc, into buf.  Branch targets are
 * printed as absolute instruction indexes ("@12") unless label names one.
 * Returns the length written (truncated to n - 1).
 */
int npu_disasm(const npu_insn *in, uint32_t pc, char *buf, size_t n);

/* Data types. */
const char *npu_dtype_name(int dt);      /* "bf16"; NULL if out of range */
const char *npu_dtype_torch(int dt);     /* "bfloat16" */
int npu_dtype_size(int dt);              /* bytes; 0 if out of range */
int npu_dtype_from_name(const char *s, size_t len); /* asm or torch name; -1 */

/* Units: "vec", "dma3"; unit ids from enum npu_unit. */
const char *npu_unit_name(int unit);
int npu_unit_from_name(const char *s, size_t len); /* -1 if unknown */

/* DMA descriptor field names. */
const char *npu_dfield_name(int f);
int npu_dfield_from_name(const char *s, size_t len);

#endif
