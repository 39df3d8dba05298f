/*
 * target.h - hardware descriptions shared by the compiler and the simulator.
 *
 * A target file is INI text (read with libinih).  Every key is listed once
 * in the key table in target.c, with its section, type, range and meaning;
 * the parser, the canonical form that is hashed and docs/target-format.md
 * all come from that table.  Unknown keys, missing keys and impossible
 * values are errors that name the file, the line and the key.
 */
#ifndef NPU_TARGET_H
#define NPU_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "isa/err.h"
#include "isa/isa.h"

/* Dataflow bits of npu_target.dataflows. */
#define NPU_DF_WS 1u /* weight-stationary */
#define NPU_DF_OS 2u /* output-stationary */

typedef struct npu_target {
	char name[64];              /* [target] name */
	double clock_mhz;           /* [target] clock_mhz */

	/* [matrix] */
	int mxu_rows;               /* rows: array rows (the K dimension) */
	int mxu_cols;               /* cols: array columns (the N dimension) */
	unsigned dataflows;         /* dataflows: "ws", "os" or "ws,os" */
	/* rate_<dtype>: MACs per processing element per cycle for inputs of
	 * that type (e.g. rate_bf16 = 1, rate_i8 = 2, rate_f32 = 0.25);
	 * 0 when the array does not take that type. */
	double mxu_rate[NPU_NDTYPE];
	int mxu_latency;            /* latency: extra cycles to the accumulator */

	/* [sram] */
	uint64_t sram_bytes;        /* size */
	int sram_banks;             /* banks: address range split in equal parts */
	int sram_port_bytes;        /* port_bytes: bytes per cycle per bank */
	uint64_t acc_bytes;         /* acc_size: accumulator SRAM */
	int acc_banks;              /* acc_banks */

	/* [vector] */
	int vlen;                   /* vlen: lanes per vector register */
	int vec_lanes;              /* lanes_per_cycle: lanes processed per cycle */
	int lat_alu;                /* lat_alu: add, sub, min, max, compare, select, moves */
	int lat_mul;                /* lat_mul: mul, fma */
	int lat_div;                /* lat_div: div, rcp, sqrt, rsqrt */
	int lat_trans;              /* lat_trans: exp, log, tanh, erf, sigmoid, sin, cos, pow */
	int ii_trans;               /* ii_trans: cycles between transcendental issues */
	int lat_red;                /* lat_red: reductions across lanes */
	int lat_ld;                 /* lat_ld: vector load latency */

	/* [scalar] */
	int queue_depth;            /* queue_depth: entries per unit queue */
	int lat_branch;             /* lat_branch: extra cycles of a taken branch */

	/* [dma] */
	int dma_engines;            /* engines: 1..8 */
	double dma_bytes_per_cycle; /* bytes_per_cycle: per engine */
	int dma_setup;              /* setup: cycles to start a transfer */

	/* [dram] */
	uint64_t dram_bytes;        /* size */
	double dram_bytes_per_cycle;/* bytes_per_cycle: all channels together */
	int dram_latency;           /* latency: cycles */
	int dram_channels;          /* channels */
	int dram_burst;             /* burst: bytes per burst (power of two) */
	int dram_interleave;        /* interleave: bytes per channel stripe */

	/* [host] */
	double host_bytes_per_cycle;/* link_bytes_per_cycle: host link */
	int host_latency;           /* latency: cycles per host call */
	double host_flops_per_cycle;/* flops_per_cycle: host compute rate */

	uint64_t hash;              /* npu_target_hash() of the values above */
} npu_target;

/* Bytes of one SRAM bank (0 for a target without banks). */
static inline uint64_t npu_target_bank_bytes(const npu_target *t)
{
	return t->sram_banks > 0 ? t->sram_bytes / (uint64_t)t->sram_banks : 0;
}

/* Reads and checks a target file; 0 or -1 (e names file:line: key). */
int npu_target_load(npu_target *t, const char *path, npu_err *e);

/* The same from memory; name is used in messages. */
int npu_target_parse(npu_target *t, const char *name, const char *text,
		     size_t len, npu_err *e);

/*
 * Hash of the canonical form (every key, in table order, with its parsed
 * value): comments, spacing and key order do not change it, any value does.
 * Stable across machines (FNV-1a 64 over the canonical text).
 */
uint64_t npu_target_hash(const npu_target *t);

/*
 * Writes the canonical form ("[section]\nkey = value\n...") into buf.
 * Returns the length of the whole text, as snprintf() does: the text was
 * cut short when that is >= n.  NPU_TARGET_TEXT_MAX always suffices.
 */
int npu_target_canonical(const npu_target *t, char *buf, size_t n);

/* A buffer size that holds any canonical form. */
#define NPU_TARGET_TEXT_MAX 8192

/*
 * Resolves a target given by name ("npu-base") or path (anything with a
 * '/' or ending in .ini) to a file path: a name is looked up as NAME.ini
 * in each folder of $NPU_TARGET_PATH (colon-separated), then in the
 * installed targets folder, then in the source tree's targets/ (both fixed
 * at configure time).  0, or -1 naming the folders searched.
 */
int npu_target_resolve(const char *name_or_path, char *out, size_t n,
		       npu_err *e);

/*
 * Markdown reference of every key and every rule across keys (the part of
 * docs/target-format.md between its keys:begin and keys:end markers).
 * Returns the whole length, as snprintf() does.
 */
int npu_target_doc(char *buf, size_t n);

#endif
