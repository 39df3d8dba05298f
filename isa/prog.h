/*
 * prog.h - the program container: an ELF64 file (e_machine NPU_EM) that
 * holds code, constant data, the DRAM memory map, the kernel table, the
 * provenance tables and the host-call table.  docs/program-format.md
 * describes the sections byte by byte.
 *
 * The loader checks every offset, size, count and string before it uses
 * it; a malformed file is rejected with a message that names the file, the
 * section and what is wrong.
 */
#ifndef NPU_PROG_H
#define NPU_PROG_H

#include <stddef.h>
#include <stdint.h>

#include "isa/err.h"

#define NPU_EM 0x4e50          /* ELF e_machine of npusim programs ("NP") */
#define NPU_MAX_DIMS 8
#define NPU_NO_NODE UINT32_MAX /* insn_node entry without provenance */
#define NPU_PROG_VERSION 1     /* format version in .npu.target */

/* What a DRAM buffer is for. */
enum npu_bufkind {
	NPU_BUF_INPUT,   /* filled from --inputs before the run */
	NPU_BUF_OUTPUT,  /* written to --outputs after the run */
	NPU_BUF_CONST,   /* initialised from the constant data */
	NPU_BUF_SCRATCH, /* intermediate values */
	NPU_BUF_INOUT,   /* an input the program updates (mutation) */
	NPU_NBUFKIND
};

typedef struct npu_buf {
	char *name;                    /* "arg1_1", "output.0" */
	int dtype;                     /* enum npu_dtype */
	int ndim;                      /* 0..NPU_MAX_DIMS */
	int64_t shape[NPU_MAX_DIMS];
	int kind;                      /* enum npu_bufkind */
	uint64_t addr;                 /* DRAM byte address */
	uint64_t size;                 /* bytes */
	uint64_t data_off;             /* CONST: offset of its bytes in cdata */
	unsigned flags;                /* NPU_BUF_F_* */
} npu_buf;

/* npu_buf.flags.  NPU_BUF_F_WINDOW: a symbolic scratch buffer that the
 * loader places in the program's SRAM window when it fits at its bound
 * size (npu_prog_relayout), at its DMA-aperture address (isa/isa.h). */
#define NPU_BUF_F_WINDOW 1u
#define NPU_BUF_F_ALL NPU_BUF_F_WINDOW

/* One FX node that code came from. */
typedef struct npu_node {
	char *name;      /* FX node name */
	char *target;    /* ATen target, "aten.addmm.default" */
	char *module;    /* nn.Module path, "layers.0.mlp" ("" if none) */
	char *source;    /* "models.py:251" ("" if none) */
} npu_node;

typedef struct npu_kernel {
	char *name;
	uint32_t start, end;  /* code range [start, end), instruction indexes */
	uint32_t node_first;  /* its nodes: kernel_nodes[node_first ..] */
	uint32_t node_count;
} npu_kernel;

/*
 * Dynamic shapes.  A program compiled from a graph with SymInt dims
 * records its symbols and, for each buffer dim that depends on them, the
 * dim as add + coef * (product of up to NPU_SYMDIM_MAX symbols).  Only a
 * buffer's leading dims may be symbolic; the recorded shape is the one
 * the code was tiled for (the symbols at their hints).  At load,
 * npu_prog_bind() reads the symbols off the input shapes and checks them,
 * and npu_prog_relayout() gives every symbolic buffer its bound shape and
 * a DRAM range of its own, and fills the table the code reads at symtab.
 */
#define NPU_SYMDIM_MAX 4

typedef struct npu_sym {
	char *name;      /* "s33" */
	int64_t hint;    /* the value the code was tiled for */
	int64_t min, max; /* the range load accepts (max 0: no bound) */
} npu_sym;

typedef struct npu_symdim {
	uint32_t buf, dim;
	int64_t coef, add;
	uint32_t nsyms;  /* 1..NPU_SYMDIM_MAX */
	uint32_t syms[NPU_SYMDIM_MAX];
} npu_symdim;

/* An operation the NPU cannot run, executed by the simulator's host model. */
typedef struct npu_hostcall {
	char *op;        /* "aten.cumsum.default" */
	char *attrs;     /* JSON text of the non-tensor arguments */
	uint32_t nin;    /* args[0..nin) are inputs, the rest outputs */
	uint32_t nargs;
	uint32_t *args;  /* buffer indexes */
	uint32_t node;   /* index into nodes, or NPU_NO_NODE */
} npu_hostcall;

typedef struct npu_prog {
	uint64_t *code;        /* instruction words */
	uint32_t ncode;
	uint8_t *cdata;        /* constant data */
	uint64_t ncdata;
	npu_buf *bufs;
	uint32_t nbufs;
	uint64_t dram_size;    /* bytes of DRAM the memory map spans */
	npu_node *nodes;
	uint32_t nnodes;
	npu_kernel *kernels;
	uint32_t nkernels;
	uint32_t *kernel_nodes; /* node indexes, grouped by kernel */
	uint32_t nkernel_nodes;
	uint32_t *insn_node;   /* per instruction node index, or NULL */
	npu_hostcall *hcalls;
	uint32_t nhcalls;
	npu_sym *syms;         /* dynamic shapes (nsyms 0: a static program) */
	uint32_t nsyms;
	npu_symdim *symdims;   /* sorted by buffer, then dim */
	uint32_t nsymdims;
	uint64_t symtab;       /* SRAM address of the bound-value table */
	uint64_t dynpad;       /* symbolic buffers hold a multiple of dynpad
				  times their rows at the hints (1..64) */
	uint64_t win_lo, win_hi; /* SRAM range for NPU_BUF_F_WINDOW buffers
				    (a dynamic program's; empty: none) */
	char target_name[64];  /* target the program was built for */
	uint64_t target_hash;  /* its npu_target_hash(), 0 if none */
} npu_prog;

/* Writes p to path atomically (temporary file, then rename). */
int npu_prog_write(const npu_prog *p, const char *path, npu_err *e);

/* Reads and validates a program file. On failure *p is left empty. */
int npu_prog_read(npu_prog *p, const char *path, npu_err *e);

/* The same from memory (fuzzing); name is used in messages. */
int npu_prog_parse(npu_prog *p, const char *name, const void *data,
		   size_t len, npu_err *e);

/* Checks p's internal consistency (ranges, indexes); used by both. */
int npu_prog_check(const npu_prog *p, npu_err *e);

/* Frees everything p owns and zeroes it. */
void npu_prog_free(npu_prog *p);

/* Finds a buffer by name; -1 if none. */
int npu_prog_find_buf(const npu_prog *p, const char *name);

/* Kernel whose range holds pc; -1 if none (binary search, sorted ranges). */
int npu_prog_kernel_at(const npu_prog *p, uint32_t pc);

/*
 * The SRAM table of a dynamic program, int64 entries: the symbols' values
 * (nsyms), then per symbolic buffer, in buffer order, its DRAM address
 * minus the recorded one and its rows (the product of its symbolic dims).
 */
#define NPU_SYMTAB_BYTES(p) (8 * ((uint64_t)(p)->nsyms + 2 * (uint64_t)npu_prog_ndynbufs(p)))

/* Number of buffers with a symbolic dim. */
uint32_t npu_prog_ndynbufs(const npu_prog *p);

/* The value of a symbolic dim with the symbols bound to vals. */
int64_t npu_symdim_eval(const npu_symdim *d, const int64_t *vals);

/*
 * Binds every symbol of a dynamic program from the input buffers' shapes
 * (shape_of(ctx, name, &ndim, shape) returns 0, or -1 for an input it
 * does not have) and checks every symbolic dim and every range.  vals
 * gets nsyms values.  Errors name the input, the dim, the symbol and what
 * was expected.
 */
typedef int (*npu_shape_fn)(void *ctx, const char *name, int *ndim,
			    int64_t *shape);
int npu_prog_bind(const npu_prog *p, npu_shape_fn shape_of, void *ctx,
		  int64_t *vals, npu_err *e);

/*
 * Gives every symbolic buffer of p its bound shape and a DRAM range after
 * the others (rows rounded up to a multiple of dynpad times the recorded
 * rows: the code computes in such blocks), grows dram_size, and fills table
 * (NPU_SYMTAB_BYTES(p) bytes, little-endian int64).  A buffer flagged
 * NPU_BUF_F_WINDOW goes in the SRAM window instead, in buffer order, while
 * it fits there: its address is then NPU_SRAM_APERTURE + its SRAM address.
 */
int npu_prog_relayout(npu_prog *p, const int64_t *vals, uint8_t *table,
		      npu_err *e);

/*
 * Both, with the shapes of the tensors in inputs (NULL: every symbol at
 * its hint): *table gets the malloc'd table to copy to SRAM at symtab
 * (NULL for a static program, which is left as it is).
 */
struct npu_stfile;
int npu_prog_bind_inputs(npu_prog *p, const struct npu_stfile *inputs,
			 uint8_t **table, npu_err *e);

/* Name of a buffer kind ("input"); -1 / NULL when unknown. */
const char *npu_bufkind_name(int kind);
int npu_bufkind_from_name(const char *s);

#endif
