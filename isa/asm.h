/*
 * asm.h - the assembler.  Text in, npu_prog out; see docs/assembly.md.
 *
 * Syntax: one instruction per line, `mnemonic op, op, ...` with operands in
 * the order npu.def's format lists them; labels `name:`; comments from `#`
 * or `;` to the end of the line.  Directives:
 *   .target NAME                  target the program is written for
 *   .buffer NAME DTYPE [d0,d1,..] KIND   a DRAM buffer (input, output,
 *                                 scratch, inout)
 *   .data NAME DTYPE [dims] v0, v1, ...  a constant buffer with its values
 *   .kernel NAME [NODE ...]       starts a kernel (its FX nodes optional)
 *   .endkernel
 *   .equ NAME, VALUE              a named integer
 * Integer operands accept decimal or 0x hex, `&BUF` (the DRAM address of a
 * buffer), `sizeof(BUF)` and .equ names.  Errors name file:line:column.
 */
#ifndef NPU_ASM_H
#define NPU_ASM_H

#include <stddef.h>

#include "isa/err.h"
#include "isa/prog.h"

/* Assembles text (len bytes, not NUL-terminated) into *out. */
int npu_asm(const char *name, const char *text, size_t len, npu_prog *out,
	    npu_err *e);

/* Assembles a file. */
int npu_asm_file(const char *path, npu_prog *out, npu_err *e);

/*
 * Writes p as assembly text that npu_asm() reads back into the same
 * program (labels for branch targets, directives for buffers and kernels).
 * Returns a malloc'ed string or NULL.
 */
char *npu_disasm_prog(const npu_prog *p);

/* docs/ISA.md, generated from npu.def. Returns a malloc'ed string. */
char *npu_isa_doc(void);

#endif
