/*
 * prog.c - the program container: writer, loader and consistency checks.
 *
 * A program is an ELF64 little-endian ET_EXEC file with e_machine NPU_EM,
 * no program headers, and one section per table (docs/program-format.md).
 * Every table is an array of fixed-size little-endian records; strings are
 * offsets into .npu.strtab.  Records are encoded and decoded field by field
 * with rd32/wr32 and friends, never by copying C structs, so the format does
 * not depend on the compiler's padding or the host's byte order.
 *
 * The loader trusts nothing.  It checks the ELF header and the section
 * header table against the real file size itself before it hands the image
 * to libelf (libelf believes some header fields), then checks each section
 * against the file and the others, each record against its section, each
 * string against .npu.strtab, and finally the decoded program with
 * npu_prog_check(), the same function the writer runs before it writes.
 */
#include "isa/prog.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/afile.h"
#include "isa/isa.h"
#include "isa/st.h"

/* Record layouts: byte offsets of each field, then the record size. */
enum {
	BUF_NAME = 0, BUF_DTYPE = 4, BUF_KIND = 5, BUF_NDIM = 6, BUF_FLAGS = 7,
	BUF_ADDR = 8, BUF_SIZE = 16, BUF_DATA_OFF = 24, BUF_SHAPE = 32,
	BUF_REC = BUF_SHAPE + 8 * NPU_MAX_DIMS /* 96 */
};
enum {
	KER_NAME = 0, KER_START = 4, KER_END = 8, KER_NODE_FIRST = 12,
	KER_NODE_COUNT = 16, KER_REC = 24
};
enum { NODE_NAME = 0, NODE_TARGET = 4, NODE_MODULE = 8, NODE_SOURCE = 12,
       NODE_REC = 16 };
enum {
	HC_OP = 0, HC_ATTRS = 4, HC_NIN = 8, HC_NARGS = 12, HC_ARGS_FIRST = 16,
	HC_NODE = 20, HC_REC = 24
};
enum { TGT_VERSION = 0, TGT_NAME = 4, TGT_HASH = 8, TGT_DRAM = 16,
       TGT_REC = 24 };
enum { DYN_SYMTAB = 0, DYN_PAD = 8, DYN_REC = 16 };
enum { WIN_LO = 0, WIN_HI = 8, WIN_REC = 16 };
enum { SYM_NAME = 0, SYM_HINT = 8, SYM_MIN = 16, SYM_MAX = 24, SYM_REC = 32 };
enum {
	SD_BUF = 0, SD_DIM = 4, SD_COEF = 8, SD_ADD = 16, SD_NSYMS = 24,
	SD_SYMS = 28, SD_REC = 48
};
/* Symbols a program may have (their names are checked pairwise). */
#define MAX_SYMS 64

/*
 * The sections, defined once: id, name, ELF type, record size in bytes,
 * whether a program must have it.  The writer emits them in this order.
 */
#define NPU_SECTIONS(S) \
	S(TEXT,     ".text",         SHT_PROGBITS, 8,        1) \
	S(CONST,    ".npu.const",    SHT_PROGBITS, 1,        1) \
	S(BUFS,     ".npu.bufs",     SHT_PROGBITS, BUF_REC,  1) \
	S(KERNELS,  ".npu.kernels",  SHT_PROGBITS, KER_REC,  1) \
	S(NODES,    ".npu.nodes",    SHT_PROGBITS, NODE_REC, 1) \
	S(KNODES,   ".npu.knodes",   SHT_PROGBITS, 4,        1) \
	S(INSNNODE, ".npu.insnnode", SHT_PROGBITS, 4,        0) \
	S(HCALLS,   ".npu.hcalls",   SHT_PROGBITS, HC_REC,   1) \
	S(HCARGS,   ".npu.hcargs",   SHT_PROGBITS, 4,        1) \
	S(TARGET,   ".npu.target",   SHT_PROGBITS, TGT_REC,  1) \
	S(DYN,      ".npu.dyn",      SHT_PROGBITS, DYN_REC,  0) \
	S(SYMS,     ".npu.syms",     SHT_PROGBITS, SYM_REC,  0) \
	S(SYMDIMS,  ".npu.symdims",  SHT_PROGBITS, SD_REC,   0) \
	S(WINDOW,   ".npu.window",   SHT_PROGBITS, WIN_REC,  0) \
	S(STRTAB,   ".npu.strtab",   SHT_STRTAB,   1,        1)

enum {
#define S(id, name, type, rec, req) SEC_##id,
	NPU_SECTIONS(S)
#undef S
	NSEC
};

static const struct secinfo {
	const char *name;
	uint32_t type;
	uint32_t rec;
	int required;
} secinfo[NSEC] = {
#define S(id, nm, ty, rc, rq) [SEC_##id] = { nm, ty, rc, rq },
	NPU_SECTIONS(S)
#undef S
};

#define EHDR_SIZE 64u
/* Loaded strings may take STR_BUDGET_FACTOR * file size + STR_BUDGET_MIN. */
#define STR_BUDGET_FACTOR 8u
#define STR_BUDGET_MIN (1u << 20)
#define SHDR_SIZE 64u

/* ---- little-endian fields -------------------------------------------- */

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static void wr64(uint8_t *p, uint64_t v)
{
	wr32(p, (uint32_t)v);
	wr32(p + 4, (uint32_t)(v >> 32));
}

/* ---- consistency ----------------------------------------------------- */

const char *npu_bufkind_name(int kind)
{
	static const char *const names[NPU_NBUFKIND] = {
		[NPU_BUF_INPUT] = "input", [NPU_BUF_OUTPUT] = "output",
		[NPU_BUF_CONST] = "const", [NPU_BUF_SCRATCH] = "scratch",
		[NPU_BUF_INOUT] = "inout",
	};
	return kind >= 0 && kind < NPU_NBUFKIND ? names[kind] : NULL;
}

int npu_bufkind_from_name(const char *s)
{
	for (int k = 0; s && k < NPU_NBUFKIND; k++)
		if (!strcmp(npu_bufkind_name(k), s))
			return k;
	return -1;
}

static int cmp_buf_name(const void *a, const void *b)
{
	const npu_buf *x = *(const npu_buf *const *)a;
	const npu_buf *y = *(const npu_buf *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x > y) - (x < y);
}

static int cmp_buf_addr(const void *a, const void *b)
{
	const npu_buf *x = *(const npu_buf *const *)a;
	const npu_buf *y = *(const npu_buf *const *)b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x > y) - (x < y);
}

static int check_buf(const npu_prog *p, uint32_t i, npu_err *e)
{
	const npu_buf *b = &p->bufs[i];
	uint64_t numel = 1;
	int dsize;

	if (!b->name || !b->name[0])
		return npu_errf(e, ".npu.bufs entry %u: name missing", i);
	dsize = npu_dtype_size(b->dtype);
	if (!dsize)
		return npu_errf(e, ".npu.bufs entry %u: dtype %d out of range (0..%d)",
				i, b->dtype, NPU_NDTYPE - 1);
	if (!npu_bufkind_name(b->kind))
		return npu_errf(e, ".npu.bufs entry %u: kind %d out of range (0..%d)",
				i, b->kind, NPU_NBUFKIND - 1);
	if (b->ndim < 0 || b->ndim > NPU_MAX_DIMS)
		return npu_errf(e, ".npu.bufs entry %u: ndim %d out of range (0..%d)",
				i, b->ndim, NPU_MAX_DIMS);
	for (int d = 0; d < b->ndim; d++) {
		uint64_t n = (uint64_t)b->shape[d];
		if (b->shape[d] < 0)
			return npu_errf(e, ".npu.bufs entry %u: shape[%d] is negative (%lld)",
					i, d, (long long)b->shape[d]);
		if (n && numel > UINT64_MAX / n)
			return npu_errf(e, ".npu.bufs entry %u: element count overflows", i);
		numel *= n;
	}
	if (numel > UINT64_MAX / (uint64_t)dsize ||
	    numel * (uint64_t)dsize != b->size)
		return npu_errf(e, ".npu.bufs entry %u: size %llu != %llu elements * %d bytes",
				i, (unsigned long long)b->size,
				(unsigned long long)numel, dsize);
	if (b->addr > p->dram_size || b->size > p->dram_size - b->addr)
		return npu_errf(e, ".npu.bufs entry %u: address 0x%llx + size %llu past end of DRAM (%llu bytes)",
				i, (unsigned long long)b->addr,
				(unsigned long long)b->size,
				(unsigned long long)p->dram_size);
	if (b->kind == NPU_BUF_CONST) {
		if (b->data_off > p->ncdata || b->size > p->ncdata - b->data_off)
			return npu_errf(e, ".npu.bufs entry %u: const data %llu..%llu outside .npu.const (%llu bytes)",
					i, (unsigned long long)b->data_off,
					(unsigned long long)(b->data_off + b->size),
					(unsigned long long)p->ncdata);
	} else if (b->data_off) {
		return npu_errf(e, ".npu.bufs entry %u: data offset %llu on a buffer of kind %s (only const buffers have data)",
				i, (unsigned long long)b->data_off,
				npu_bufkind_name(b->kind));
	}
	return 0;
}

/*
 * Names must be unique and nonempty DRAM ranges disjoint; both are found
 * by sorting pointers (no quadratic scans: programs have thousands of
 * buffers, and hostile files may claim more).
 */
static int check_bufs(const npu_prog *p, npu_err *e)
{
	const npu_buf **v;
	uint64_t end = 0;
	const npu_buf *last = NULL;
	int rc = 0;

	for (uint32_t i = 0; i < p->nbufs; i++)
		if (check_buf(p, i, e) < 0)
			return -1;
	if (p->nbufs < 2)
		return 0;
	if (!(v = malloc(p->nbufs * sizeof *v)))
		return npu_errf(e, "out of memory");
	for (uint32_t i = 0; i < p->nbufs; i++)
		v[i] = &p->bufs[i];
	qsort(v, p->nbufs, sizeof *v, cmp_buf_name);
	for (uint32_t i = 1; i < p->nbufs; i++)
		if (!strcmp(v[i - 1]->name, v[i]->name)) {
			rc = npu_errf(e, ".npu.bufs entries %td and %td: both named '%s'",
				      v[i - 1] - p->bufs, v[i] - p->bufs, v[i]->name);
			goto out;
		}
	qsort(v, p->nbufs, sizeof *v, cmp_buf_addr);
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = v[i];
		if (!b->size)
			continue;
		if (last && b->addr < end) {
			rc = npu_errf(e, ".npu.bufs entries %td and %td overlap in DRAM (0x%llx..0x%llx and 0x%llx..0x%llx)",
				      last - p->bufs, b - p->bufs,
				      (unsigned long long)last->addr,
				      (unsigned long long)(last->addr + last->size),
				      (unsigned long long)b->addr,
				      (unsigned long long)(b->addr + b->size));
			goto out;
		}
		if (b->addr + b->size > end) {
			end = b->addr + b->size;
			last = b;
		}
	}
out:
	free(v);
	return rc;
}

static int check_node_index(const char *table, uint32_t i, uint32_t node,
			    const npu_prog *p, int none_ok, npu_err *e)
{
	if (node < p->nnodes || (none_ok && node == NPU_NO_NODE))
		return 0;
	return npu_errf(e, "%s entry %u: node %u out of range (%u nodes)",
			table, i, node, p->nnodes);
}

static int check_kernels(const npu_prog *p, npu_err *e)
{
	for (uint32_t i = 0; i < p->nkernels; i++) {
		const npu_kernel *k = &p->kernels[i];
		if (!k->name)
			return npu_errf(e, ".npu.kernels entry %u: name missing", i);
		if (k->start > k->end)
			return npu_errf(e, ".npu.kernels entry %u: code range %u..%u is reversed",
					i, k->start, k->end);
		if (k->end > p->ncode)
			return npu_errf(e, ".npu.kernels entry %u: code range %u..%u past end of .text (%u instructions)",
					i, k->start, k->end, p->ncode);
		if (i && k->start < p->kernels[i - 1].end)
			return npu_errf(e, ".npu.kernels entry %u: code range %u..%u not after entry %u (%u..%u): ranges must be sorted and disjoint",
					i, k->start, k->end, i - 1,
					p->kernels[i - 1].start,
					p->kernels[i - 1].end);
		if ((uint64_t)k->node_first + k->node_count > p->nkernel_nodes)
			return npu_errf(e, ".npu.kernels entry %u: nodes %u + %u past end of .npu.knodes (%u entries)",
					i, k->node_first, k->node_count,
					p->nkernel_nodes);
	}
	for (uint32_t i = 0; i < p->nkernel_nodes; i++)
		if (check_node_index(".npu.knodes", i, p->kernel_nodes[i], p, 0, e) < 0)
			return -1;
	return 0;
}

static int check_hcalls(const npu_prog *p, npu_err *e)
{
	for (uint32_t i = 0; i < p->nhcalls; i++) {
		const npu_hostcall *h = &p->hcalls[i];
		if (!h->op || !h->op[0])
			return npu_errf(e, ".npu.hcalls entry %u: op missing", i);
		if (h->nin > h->nargs)
			return npu_errf(e, ".npu.hcalls entry %u: %u inputs but only %u args",
					i, h->nin, h->nargs);
		if (h->nargs && !h->args)
			return npu_errf(e, ".npu.hcalls entry %u: %u args but no array",
					i, h->nargs);
		for (uint32_t a = 0; a < h->nargs; a++)
			if (h->args[a] >= p->nbufs)
				return npu_errf(e, ".npu.hcalls entry %u: arg %u: buffer %u out of range (%u buffers)",
						i, a, h->args[a], p->nbufs);
		if (check_node_index(".npu.hcalls", i, h->node, p, 1, e) < 0)
			return -1;
	}
	return 0;
}

/* Each nonzero count needs its array (NULL arrays crash the writer). */
static int check_arrays(const npu_prog *p, npu_err *e)
{
	const struct { const char *what; uint64_t n; const void *a; } t[] = {
		{ ".text", p->ncode, p->code },
		{ ".npu.const", p->ncdata, p->cdata },
		{ ".npu.bufs", p->nbufs, p->bufs },
		{ ".npu.nodes", p->nnodes, p->nodes },
		{ ".npu.kernels", p->nkernels, p->kernels },
		{ ".npu.knodes", p->nkernel_nodes, p->kernel_nodes },
		{ ".npu.hcalls", p->nhcalls, p->hcalls },
		{ ".npu.syms", p->nsyms, p->syms },
		{ ".npu.symdims", p->nsymdims, p->symdims },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (t[i].n && !t[i].a)
			return npu_errf(e, "%s: %llu entries but no array",
					t[i].what, (unsigned long long)t[i].n);
	return 0;
}

static int ovf_mul(int64_t a, int64_t b, int64_t *r)
{
	return __builtin_mul_overflow(a, b, r);
}

int64_t npu_symdim_eval(const npu_symdim *d, const int64_t *vals)
{
	int64_t v = d->coef;

	for (uint32_t k = 0; k < d->nsyms && k < NPU_SYMDIM_MAX; k++)
		if (ovf_mul(v, vals[d->syms[k]], &v))
			return -1;
	if (__builtin_add_overflow(v, d->add, &v))
		return -1;
	return v;
}

uint32_t npu_prog_ndynbufs(const npu_prog *p)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->nsymdims; i++)
		n += i == 0 || p->symdims[i].buf != p->symdims[i - 1].buf;
	return n;
}

static int check_syms(const npu_prog *p, npu_err *e)
{
	if (p->nsyms > MAX_SYMS)
		return npu_errf(e, ".npu.syms: %u symbols, at most %d", p->nsyms, MAX_SYMS);
	for (uint32_t i = 0; i < p->nsyms; i++) {
		const npu_sym *s = &p->syms[i];
		if (!s->name || !s->name[0])
			return npu_errf(e, ".npu.syms entry %u: name missing", i);
		for (uint32_t j = 0; j < i; j++)
			if (!strcmp(p->syms[j].name, s->name))
				return npu_errf(e, ".npu.syms entries %u and %u: both named '%s'",
						j, i, s->name);
		if (s->min < 1 || s->hint < s->min || (s->max && s->max < s->hint))
			return npu_errf(e, ".npu.syms entry %u (%s): range %lld..%lld with hint %lld: need 1 <= min <= hint <= max (max 0: none)",
					i, s->name, (long long)s->min,
					(long long)s->max, (long long)s->hint);
	}
	return 0;
}

/* Each symbolic dim: in range, sorted, leading, equal to the recorded
 * shape at the hints (the shape the code was tiled for). */
static int check_symdims(const npu_prog *p, npu_err *e)
{
	int64_t hint[MAX_SYMS];

	if (!!p->nsyms != !!p->nsymdims)
		return npu_errf(e, ".npu.symdims: %u symbolic dims but %u symbols",
				p->nsymdims, p->nsyms);
	if (p->nsyms && p->symtab % 8)
		return npu_errf(e, ".npu.dyn: symbol table address 0x%llx is not 8-byte aligned",
				(unsigned long long)p->symtab);
	if (p->nsyms && (p->dynpad < 1 || p->dynpad > 64))
		return npu_errf(e, ".npu.dyn: padding %llu out of range (1..64)",
				(unsigned long long)p->dynpad);
	for (uint32_t i = 0; i < p->nsyms; i++)
		hint[i] = p->syms[i].hint;
	for (uint32_t i = 0; i < p->nsymdims; i++) {
		const npu_symdim *d = &p->symdims[i];
		const npu_buf *b;
		int first = i == 0 || p->symdims[i - 1].buf != d->buf;
		if (d->buf >= p->nbufs)
			return npu_errf(e, ".npu.symdims entry %u: buffer %u out of range (%u buffers)",
					i, d->buf, p->nbufs);
		b = &p->bufs[d->buf];
		if (d->dim >= (uint32_t)b->ndim)
			return npu_errf(e, ".npu.symdims entry %u: dim %u of buffer '%s' (%d dims)",
					i, d->dim, b->name, b->ndim);
		if (!first && p->symdims[i - 1].buf > d->buf)
			return npu_errf(e, ".npu.symdims entry %u: not sorted by buffer", i);
		if (first ? d->dim != 0 : d->dim != p->symdims[i - 1].dim + 1)
			return npu_errf(e, ".npu.symdims entry %u: dim %u of buffer '%s': only leading dims may be symbolic",
					i, d->dim, b->name);
		if (b->kind == NPU_BUF_CONST)
			return npu_errf(e, ".npu.symdims entry %u: const buffer '%s' cannot have a symbolic shape",
					i, b->name);
		if (d->nsyms < 1 || d->nsyms > NPU_SYMDIM_MAX)
			return npu_errf(e, ".npu.symdims entry %u: %u symbols (1..%d)",
					i, d->nsyms, NPU_SYMDIM_MAX);
		for (uint32_t k = 0; k < d->nsyms; k++)
			if (d->syms[k] >= p->nsyms)
				return npu_errf(e, ".npu.symdims entry %u: symbol %u out of range (%u symbols)",
						i, d->syms[k], p->nsyms);
		if (d->coef < 1 || d->add < 0)
			return npu_errf(e, ".npu.symdims entry %u: coefficient %lld and addend %lld (need >= 1 and >= 0)",
					i, (long long)d->coef, (long long)d->add);
		if (npu_symdim_eval(d, hint) != b->shape[d->dim])
			return npu_errf(e, ".npu.symdims entry %u: dim %u of buffer '%s' is %lld at the hints, the buffer says %lld",
					i, d->dim, b->name,
					(long long)npu_symdim_eval(d, hint),
					(long long)b->shape[d->dim]);
	}
	return 0;
}

static int has_window(const npu_prog *p)
{
	return p->win_hi > p->win_lo;
}

/* The symbolic dim of buffer b at dim, or NULL when it is concrete. */
static const npu_symdim *symdim_of(const npu_prog *p, uint32_t b, int dim)
{
	for (uint32_t i = 0; i < p->nsymdims; i++)
		if (p->symdims[i].buf == b && p->symdims[i].dim == (uint32_t)dim)
			return &p->symdims[i];
	return NULL;
}

/* The SRAM window: a dynamic program's, 64-byte aligned, in the
 * scratchpad's address range, clear of the symbol table; only symbolic
 * scratch buffers may be placed there. */
static int check_window(const npu_prog *p, npu_err *e)
{
	uint64_t tab = p->symtab + NPU_SYMTAB_BYTES(p);

	if (has_window(p) || p->win_lo) {
		if (!p->nsyms || !has_window(p))
			return npu_errf(e, ".npu.window: an SRAM window needs a dynamic program and lo < hi (0x%llx..0x%llx)",
					(unsigned long long)p->win_lo,
					(unsigned long long)p->win_hi);
		if (p->win_lo % 64 || p->win_hi % 64 || p->win_hi > NPU_ACC_BASE)
			return npu_errf(e, ".npu.window: 0x%llx..0x%llx is not 64-byte aligned SRAM",
					(unsigned long long)p->win_lo,
					(unsigned long long)p->win_hi);
		if (p->symtab < p->win_hi && tab > p->win_lo)
			return npu_errf(e, ".npu.window: 0x%llx..0x%llx overlaps the symbol table",
					(unsigned long long)p->win_lo,
					(unsigned long long)p->win_hi);
	}
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		if (b->flags & ~NPU_BUF_F_ALL)
			return npu_errf(e, ".npu.bufs entry %u: unknown flags 0x%x",
					i, b->flags & ~NPU_BUF_F_ALL);
		if ((b->flags & NPU_BUF_F_WINDOW) &&
		    (!has_window(p) || b->kind != NPU_BUF_SCRATCH || !symdim_of(p, i, 0)))
			return npu_errf(e, ".npu.bufs entry %u ('%s'): only a symbolic scratch buffer of a program with an SRAM window may be placed in it",
					i, b->name);
	}
	return 0;
}

int npu_prog_check(const npu_prog *p, npu_err *e)
{
	npu_insn in;

	if (check_arrays(p, e) < 0)
		return -1;
	if (!memchr(p->target_name, 0, sizeof p->target_name))
		return npu_errf(e, ".npu.target: target name is not terminated");
	for (uint32_t i = 0; i < p->ncode; i++)
		if (npu_decode(p->code[i], &in) < 0)
			return npu_errf(e, ".text: instruction %u (0x%016llx) is not a valid instruction word",
					i, (unsigned long long)p->code[i]);
	if (check_bufs(p, e) < 0)
		return -1;
	for (uint32_t i = 0; i < p->nnodes; i++)
		if (!p->nodes[i].name)
			return npu_errf(e, ".npu.nodes entry %u: name missing", i);
	if (check_kernels(p, e) < 0)
		return -1;
	for (uint32_t i = 0; p->insn_node && i < p->ncode; i++)
		if (check_node_index(".npu.insnnode", i, p->insn_node[i], p, 1, e) < 0)
			return -1;
	if (check_syms(p, e) < 0 || check_symdims(p, e) < 0 ||
	    check_window(p, e) < 0)
		return -1;
	return check_hcalls(p, e);
}

/* ---- lookups and freeing --------------------------------------------- */

int npu_prog_find_buf(const npu_prog *p, const char *name)
{
	for (uint32_t i = 0; name && i < p->nbufs; i++)
		if (p->bufs[i].name && !strcmp(p->bufs[i].name, name))
			return (int)i;
	return -1;
}

int npu_prog_kernel_at(const npu_prog *p, uint32_t pc)
{
	uint32_t lo = 0, hi = p->nkernels;

	/* The last kernel that starts at or before pc, if it holds pc. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (p->kernels[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && pc < p->kernels[lo - 1].end)
		return (int)(lo - 1);
	return -1;
}

void npu_prog_free(npu_prog *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; p->bufs && i < p->nbufs; i++)
		free(p->bufs[i].name);
	for (uint32_t i = 0; p->nodes && i < p->nnodes; i++) {
		free(p->nodes[i].name);
		free(p->nodes[i].target);
		free(p->nodes[i].module);
		free(p->nodes[i].source);
	}
	for (uint32_t i = 0; p->kernels && i < p->nkernels; i++)
		free(p->kernels[i].name);
	for (uint32_t i = 0; p->hcalls && i < p->nhcalls; i++) {
		free(p->hcalls[i].op);
		free(p->hcalls[i].attrs);
		free(p->hcalls[i].args);
	}
	for (uint32_t i = 0; p->syms && i < p->nsyms; i++)
		free(p->syms[i].name);
	free(p->syms);
	free(p->symdims);
	free(p->code);
	free(p->cdata);
	free(p->bufs);
	free(p->nodes);
	free(p->kernels);
	free(p->kernel_nodes);
	free(p->insn_node);
	free(p->hcalls);
	memset(p, 0, sizeof *p);
}

/* ---- writer ---------------------------------------------------------- */

/* A growing byte buffer; running out of memory is sticky, checked once. */
typedef struct bbuf {
	uint8_t *p;
	size_t n, cap;
	int oom;
} bbuf;

/* Appends k zero bytes; returns where they start (NULL once out of memory). */
static uint8_t *bb_grow(bbuf *b, size_t k)
{
	if (b->oom)
		return NULL;
	if (k > b->cap - b->n) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *np;
		while (cap - b->n < k) {
			if (cap > SIZE_MAX / 2) {
				b->oom = 1;
				return NULL;
			}
			cap *= 2;
		}
		if (!(np = realloc(b->p, cap))) {
			b->oom = 1;
			return NULL;
		}
		b->p = np;
		b->cap = cap;
	}
	memset(b->p + b->n, 0, k);
	b->n += k;
	return b->p + b->n - k;
}

static void bb_put32(bbuf *b, uint32_t v)
{
	uint8_t *q = bb_grow(b, 4);
	if (q)
		wr32(q, v);
}

/* Adds s (NULL counts as "") to the string table; returns its offset. */
static uint32_t bb_str(bbuf *b, const char *s)
{
	size_t off = b->n, len;
	uint8_t *q;

	if (!s || !*s)
		return 0; /* the table starts with "" */
	len = strlen(s) + 1;
	if (off > UINT32_MAX || !(q = bb_grow(b, len)))
		return b->oom = 1, 0;
	memcpy(q, s, len);
	return (uint32_t)off;
}

/* Encodes every table of p into sec[]; p has passed npu_prog_check. */
static int encode(const npu_prog *p, bbuf sec[NSEC], npu_err *e)
{
	bbuf *st = &sec[SEC_STRTAB];
	uint8_t *q;
	uint32_t nhcargs = 0;

	bb_grow(st, 1);
	for (uint32_t i = 0; i < p->ncode; i++)
		if ((q = bb_grow(&sec[SEC_TEXT], 8)))
			wr64(q, p->code[i]);
	if (p->ncdata && (q = bb_grow(&sec[SEC_CONST], p->ncdata)))
		memcpy(q, p->cdata, p->ncdata);
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		uint32_t name = bb_str(st, b->name);
		if (!(q = bb_grow(&sec[SEC_BUFS], BUF_REC)))
			break;
		wr32(q + BUF_NAME, name);
		q[BUF_DTYPE] = (uint8_t)b->dtype;
		q[BUF_KIND] = (uint8_t)b->kind;
		q[BUF_NDIM] = (uint8_t)b->ndim;
		q[BUF_FLAGS] = (uint8_t)b->flags;
		wr64(q + BUF_ADDR, b->addr);
		wr64(q + BUF_SIZE, b->size);
		wr64(q + BUF_DATA_OFF, b->data_off);
		for (int d = 0; d < b->ndim; d++)
			wr64(q + BUF_SHAPE + 8 * d, (uint64_t)b->shape[d]);
	}
	for (uint32_t i = 0; i < p->nkernels; i++) {
		const npu_kernel *k = &p->kernels[i];
		uint32_t name = bb_str(st, k->name);
		if (!(q = bb_grow(&sec[SEC_KERNELS], KER_REC)))
			break;
		wr32(q + KER_NAME, name);
		wr32(q + KER_START, k->start);
		wr32(q + KER_END, k->end);
		wr32(q + KER_NODE_FIRST, k->node_first);
		wr32(q + KER_NODE_COUNT, k->node_count);
	}
	for (uint32_t i = 0; i < p->nnodes; i++) {
		const npu_node *n = &p->nodes[i];
		uint32_t s[4] = { bb_str(st, n->name), bb_str(st, n->target),
				  bb_str(st, n->module), bb_str(st, n->source) };
		if (!(q = bb_grow(&sec[SEC_NODES], NODE_REC)))
			break;
		for (int f = 0; f < 4; f++)
			wr32(q + 4 * f, s[f]);
	}
	for (uint32_t i = 0; i < p->nkernel_nodes; i++)
		bb_put32(&sec[SEC_KNODES], p->kernel_nodes[i]);
	for (uint32_t i = 0; p->insn_node && i < p->ncode; i++)
		bb_put32(&sec[SEC_INSNNODE], p->insn_node[i]);
	for (uint32_t i = 0; i < p->nhcalls; i++) {
		const npu_hostcall *h = &p->hcalls[i];
		uint32_t op = bb_str(st, h->op), attrs = bb_str(st, h->attrs);
		if ((uint64_t)nhcargs + h->nargs > UINT32_MAX)
			return npu_errf(e, ".npu.hcargs: more than %u args in all", UINT32_MAX);
		if (!(q = bb_grow(&sec[SEC_HCALLS], HC_REC)))
			break;
		wr32(q + HC_OP, op);
		wr32(q + HC_ATTRS, attrs);
		wr32(q + HC_NIN, h->nin);
		wr32(q + HC_NARGS, h->nargs);
		wr32(q + HC_ARGS_FIRST, nhcargs);
		wr32(q + HC_NODE, h->node);
		for (uint32_t a = 0; a < h->nargs; a++)
			bb_put32(&sec[SEC_HCARGS], h->args[a]);
		nhcargs += h->nargs;
	}
	{
		uint32_t name = bb_str(st, p->target_name);
		if ((q = bb_grow(&sec[SEC_TARGET], TGT_REC))) {
			wr32(q + TGT_VERSION, NPU_PROG_VERSION);
			wr32(q + TGT_NAME, name);
			wr64(q + TGT_HASH, p->target_hash);
			wr64(q + TGT_DRAM, p->dram_size);
		}
	}
	if (p->nsyms && (q = bb_grow(&sec[SEC_DYN], DYN_REC))) {
		wr64(q + DYN_SYMTAB, p->symtab);
		wr64(q + DYN_PAD, p->dynpad);
	}
	if (has_window(p) && (q = bb_grow(&sec[SEC_WINDOW], WIN_REC))) {
		wr64(q + WIN_LO, p->win_lo);
		wr64(q + WIN_HI, p->win_hi);
	}
	for (uint32_t i = 0; i < p->nsyms; i++) {
		const npu_sym *y = &p->syms[i];
		uint32_t name = bb_str(st, y->name);
		if (!(q = bb_grow(&sec[SEC_SYMS], SYM_REC)))
			break;
		wr32(q + SYM_NAME, name);
		wr64(q + SYM_HINT, (uint64_t)y->hint);
		wr64(q + SYM_MIN, (uint64_t)y->min);
		wr64(q + SYM_MAX, (uint64_t)y->max);
	}
	for (uint32_t i = 0; i < p->nsymdims; i++) {
		const npu_symdim *d = &p->symdims[i];
		if (!(q = bb_grow(&sec[SEC_SYMDIMS], SD_REC)))
			break;
		wr32(q + SD_BUF, d->buf);
		wr32(q + SD_DIM, d->dim);
		wr64(q + SD_COEF, (uint64_t)d->coef);
		wr64(q + SD_ADD, (uint64_t)d->add);
		wr32(q + SD_NSYMS, d->nsyms);
		for (int k = 0; k < NPU_SYMDIM_MAX; k++)
			wr32(q + SD_SYMS + 4 * k, d->syms[k]);
	}
	for (int s = 0; s < NSEC; s++)
		if (sec[s].oom)
			return npu_errf(e, "out of memory (or %s over 4 GiB)",
					secinfo[s].name);
	return 0;
}

static int is_dyn_sec(int s)
{
	return s == SEC_DYN || s == SEC_SYMS || s == SEC_SYMDIMS;
}

/* Is section s written for p?  (Static programs carry no dynamic-shape
 * sections, and only a program with a window its section.) */
static int sec_wanted(const npu_prog *p, int s)
{
	if (s == SEC_INSNNODE)
		return p->insn_node != NULL;
	if (s == SEC_WINDOW)
		return has_window(p);
	return !is_dyn_sec(s) || p->nsyms;
}

/* Lays the encoded sections out as an ELF file on fd, through libelf. */
static int emit_elf(int fd, const npu_prog *p, bbuf sec[NSEC], npu_err *e)
{
	bbuf shstr = { 0 };
	uint32_t names[NSEC], shstrname;
	Elf *elf = NULL;
	Elf64_Ehdr *eh;
	Elf_Scn *scn;
	Elf64_Shdr *sh;
	Elf_Data *d;
	int rc = -1;

	bb_grow(&shstr, 1);
	for (int s = 0; s < NSEC; s++)
		if (sec_wanted(p, s))
			names[s] = bb_str(&shstr, secinfo[s].name);
	shstrname = bb_str(&shstr, ".shstrtab");
	if (shstr.oom) {
		npu_errf(e, "out of memory");
		goto out;
	}
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(elf = elf_begin(fd, ELF_C_WRITE, NULL)) ||
	    !(eh = elf64_newehdr(elf)))
		goto elf_fail;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh->e_type = ET_EXEC;
	eh->e_machine = NPU_EM;
	eh->e_version = EV_CURRENT;
	eh->e_entry = 0; /* execution starts at instruction 0 of .text */
	for (int s = 0; s <= NSEC; s++) {
		int shs = s == NSEC; /* the last one is .shstrtab */
		bbuf *b = shs ? &shstr : &sec[s];
		if (!shs && !sec_wanted(p, s))
			continue;
		if (!(scn = elf_newscn(elf)) || !(sh = elf64_getshdr(scn)))
			goto elf_fail;
		sh->sh_name = shs ? shstrname : names[s];
		sh->sh_type = shs ? SHT_STRTAB : secinfo[s].type;
		sh->sh_flags = !shs && s == SEC_TEXT ? SHF_EXECINSTR : 0;
		sh->sh_entsize = shs || secinfo[s].rec == 1 ? 0 : secinfo[s].rec;
		sh->sh_addralign = shs ? 1 : secinfo[s].rec >= 8 ? 8 : secinfo[s].rec;
		if (b->n) {
			if (!(d = elf_newdata(scn)))
				goto elf_fail;
			d->d_buf = b->p;
			d->d_size = b->n;
			d->d_type = ELF_T_BYTE;
			d->d_align = sh->sh_addralign;
			d->d_version = EV_CURRENT;
		}
		if (shs)
			eh->e_shstrndx = (Elf64_Half)elf_ndxscn(scn);
	}
	elf_flagehdr(elf, ELF_C_SET, ELF_F_DIRTY);
	if (elf_update(elf, ELF_C_WRITE) < 0)
		goto elf_fail;
	rc = 0;
	goto out;
elf_fail:
	npu_errf(e, "libelf: %s", elf_errmsg(-1));
out:
	if (elf)
		elf_end(elf);
	free(shstr.p);
	return rc;
}

int npu_prog_write(const npu_prog *p, const char *path, npu_err *e)
{
	bbuf sec[NSEC] = { { 0 } };
	npu_afile af;
	int rc = -1;
	npu_err dummy;

	if (!e)
		e = &dummy;
	npu_err_clear(e);
	if (npu_prog_check(p, e) < 0 || encode(p, sec, e) < 0) {
		npu_err_prefix(e, "%s", path);
		goto out;
	}
	if (npu_afile_open(&af, path, e) < 0)
		goto out;
	if (emit_elf(af.fd, p, sec, e) < 0) {
		npu_err_prefix(e, "%s: cannot write", path);
		npu_afile_abort(&af);
		goto out;
	}
	rc = npu_afile_commit(&af, e);
out:
	for (int s = 0; s < NSEC; s++)
		free(sec[s].p);
	return rc;
}

/* ---- loader ---------------------------------------------------------- */

/* One section as found in the file. */
typedef struct sect {
	const uint8_t *d;  /* its bytes (NULL when empty) */
	uint64_t size;
	uint32_t n;        /* records */
	int index;         /* ELF section index; 0 when absent */
} sect;

/* The state of one parse. */
typedef struct rd {
	const char *name;  /* file name for messages */
	size_t len;
	sect s[NSEC];
	uint64_t str_budget; /* bytes of strings we are still willing to copy */
	npu_err *e;
} rd;

/* A byte range of the file, for the overlap check. */
typedef struct range {
	uint64_t off, size;
	const char *what;
	int is_sec;        /* what is a section name */
} range;

static int cmp_range(const void *a, const void *b)
{
	const range *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return (x->size > y->size) - (x->size < y->size);
}

/* The ELF header, checked from the raw bytes before libelf sees them. */
static int check_ehdr(rd *r, const uint8_t *d)
{
	static const uint8_t magic[4] = { 0x7f, 'E', 'L', 'F' };
	uint64_t shoff;
	uint16_t shnum, shstrndx, machine;

	if (r->len < 4 || memcmp(d, magic, 4))
		return npu_errf(r->e, "%s: not an ELF file (bad magic)", r->name);
	if (r->len < EHDR_SIZE)
		return npu_errf(r->e, "%s: truncated ELF header (%zu bytes, need %u)",
				r->name, r->len, EHDR_SIZE);
	if (d[EI_CLASS] != ELFCLASS64)
		return npu_errf(r->e, "%s: ELF class %d, expected 64", r->name,
				d[EI_CLASS] == ELFCLASS32 ? 32 : d[EI_CLASS]);
	if (d[EI_DATA] != ELFDATA2LSB)
		return npu_errf(r->e, "%s: ELF data encoding %d is not little-endian",
				r->name, d[EI_DATA]);
	if (d[EI_VERSION] != EV_CURRENT || rd32(d + 20) != EV_CURRENT)
		return npu_errf(r->e, "%s: ELF version %u, expected %d", r->name,
				d[EI_VERSION] != EV_CURRENT ? d[EI_VERSION] : rd32(d + 20),
				EV_CURRENT);
	machine = rd16(d + 18);
	if (machine != NPU_EM)
		return npu_errf(r->e, "%s: e_machine 0x%x is not an npusim program",
				r->name, machine);
	if (rd16(d + 16) != ET_EXEC)
		return npu_errf(r->e, "%s: ELF type %u, expected ET_EXEC (%d)",
				r->name, rd16(d + 16), ET_EXEC);
	if (rd16(d + 52) != EHDR_SIZE)
		return npu_errf(r->e, "%s: e_ehsize %u, expected %u", r->name,
				rd16(d + 52), EHDR_SIZE);
	if (rd16(d + 56) != 0)
		return npu_errf(r->e, "%s: %u program headers, expected none",
				r->name, rd16(d + 56));
	shoff = rd64(d + 40);
	shnum = rd16(d + 60);
	shstrndx = rd16(d + 62);
	if (rd16(d + 58) != SHDR_SIZE)
		return npu_errf(r->e, "%s: e_shentsize %u, expected %u", r->name,
				rd16(d + 58), SHDR_SIZE);
	/* shnum 0 means "extended numbering" or "no sections": neither is ours. */
	if (shnum == 0 || shnum >= SHN_LORESERVE)
		return npu_errf(r->e, "%s: e_shnum %u: no usable section header table",
				r->name, shnum);
	if (shoff > r->len || (uint64_t)shnum * SHDR_SIZE > r->len - shoff)
		return npu_errf(r->e, "%s: section header table: offset %llu + %u * %u bytes past end of file (%zu bytes)",
				r->name, (unsigned long long)shoff, shnum,
				SHDR_SIZE, r->len);
	if (shoff < EHDR_SIZE)
		return npu_errf(r->e, "%s: section header table at %llu overlaps the ELF header",
				r->name, (unsigned long long)shoff);
	if (shstrndx == SHN_UNDEF || shstrndx >= shnum)
		return npu_errf(r->e, "%s: e_shstrndx %u out of range (%u sections)",
				r->name, shstrndx, shnum);
	return 0;
}

/* A section's file range, checked before libelf is asked for its bytes. */
static int check_bounds(rd *r, const char *what, const GElf_Shdr *sh)
{
	if (sh->sh_type == SHT_NOBITS)
		return 0;
	if (sh->sh_offset > r->len || sh->sh_size > r->len - sh->sh_offset)
		return npu_errf(r->e, "%s: section %s: offset %llu + size %llu past end of file (%zu bytes)",
				r->name, what, (unsigned long long)sh->sh_offset,
				(unsigned long long)sh->sh_size, r->len);
	return 0;
}

/* Bytes of a checked section (NULL when empty). */
static const uint8_t *sect_bytes(rd *r, Elf_Scn *scn, const char *what,
				 uint64_t size)
{
	Elf_Data *d;

	if (!size)
		return NULL;
	d = elf_rawdata(scn, NULL);
	if (!d || !d->d_buf || d->d_size != size) {
		npu_errf(r->e, "%s: section %s: cannot read: %s", r->name, what,
			 elf_errmsg(-1));
		return NULL;
	}
	return d->d_buf;
}

static int find_known(const char *name)
{
	for (int s = 0; s < NSEC; s++)
		if (!strcmp(secinfo[s].name, name))
			return s;
	return -1;
}

/*
 * Walks the section header table: names, bounds, types, duplicates, then
 * overlaps between all ranges (the ELF header and the section header table
 * included), then required sections and record sizes.
 */
static int find_sections(rd *r, Elf *elf, const uint8_t *img)
{
	uint16_t shnum = rd16(img + 60), shstrndx = rd16(img + 62);
	uint64_t shoff = rd64(img + 40);
	GElf_Shdr sh;
	Elf_Scn *scn;
	const uint8_t *shstr;
	uint64_t shstrsz;
	range *rg;
	size_t nrg = 0;
	int rc = -1;

	if (!(scn = elf_getscn(elf, shstrndx)) || !gelf_getshdr(scn, &sh))
		return npu_errf(r->e, "%s: section header %u: %s", r->name,
				shstrndx, elf_errmsg(-1));
	if (sh.sh_type != SHT_STRTAB)
		return npu_errf(r->e, "%s: section names (section %u): type %u, expected SHT_STRTAB",
				r->name, shstrndx, sh.sh_type);
	if (check_bounds(r, ".shstrtab", &sh) < 0)
		return -1;
	shstrsz = sh.sh_size;
	if (!shstrsz)
		return npu_errf(r->e, "%s: section .shstrtab is empty", r->name);
	if (!(shstr = sect_bytes(r, scn, ".shstrtab", shstrsz)))
		return -1;
	if (!(rg = calloc((size_t)shnum + 1, sizeof *rg)))
		return npu_errf(r->e, "%s: out of memory", r->name);
	rg[nrg++] = (range){ 0, EHDR_SIZE, "the ELF header", 0 };
	rg[nrg++] = (range){ shoff, (uint64_t)shnum * SHDR_SIZE,
			     "the section header table", 0 };
	for (uint16_t i = 1; i < shnum; i++) {
		const char *nm;
		int k;
		if (!(scn = elf_getscn(elf, i)) || !gelf_getshdr(scn, &sh)) {
			npu_errf(r->e, "%s: section header %u: %s", r->name, i,
				 elf_errmsg(-1));
			goto out;
		}
		if (sh.sh_name >= shstrsz ||
		    !memchr(shstr + sh.sh_name, 0, shstrsz - sh.sh_name)) {
			npu_errf(r->e, "%s: section %u: name at %u is not a string of .shstrtab (%llu bytes)",
				 r->name, i, sh.sh_name,
				 (unsigned long long)shstrsz);
			goto out;
		}
		nm = (const char *)shstr + sh.sh_name;
		if (check_bounds(r, nm, &sh) < 0)
			goto out;
		if (sh.sh_type != SHT_NOBITS && sh.sh_size)
			rg[nrg++] = (range){ sh.sh_offset, sh.sh_size, nm, 1 };
		if ((k = find_known(nm)) < 0)
			continue; /* someone else's section: bounds checked, skipped */
		if (r->s[k].index) {
			npu_errf(r->e, "%s: section %s appears twice (%d and %u)",
				 r->name, nm, r->s[k].index, i);
			goto out;
		}
		if (sh.sh_type != secinfo[k].type) {
			npu_errf(r->e, "%s: section %s: type %u, expected %u",
				 r->name, nm, sh.sh_type, secinfo[k].type);
			goto out;
		}
		if (sh.sh_size % secinfo[k].rec) {
			npu_errf(r->e, "%s: section %s: size %llu is not a multiple of the %u-byte record",
				 r->name, nm, (unsigned long long)sh.sh_size,
				 secinfo[k].rec);
			goto out;
		}
		if (sh.sh_size / secinfo[k].rec > UINT32_MAX && k != SEC_CONST) {
			npu_errf(r->e, "%s: section %s: %llu entries, more than %u",
				 r->name, nm,
				 (unsigned long long)(sh.sh_size / secinfo[k].rec),
				 UINT32_MAX);
			goto out;
		}
		r->s[k].index = i;
		r->s[k].size = sh.sh_size;
		r->s[k].n = (uint32_t)(sh.sh_size / secinfo[k].rec);
		if (sh.sh_size && !(r->s[k].d = sect_bytes(r, scn, nm, sh.sh_size)))
			goto out;
	}
	qsort(rg, nrg, sizeof *rg, cmp_range);
	for (size_t i = 1, last = 0; i < nrg; i++) {
		if (rg[i].off < rg[last].off + rg[last].size) {
			npu_errf(r->e, "%s: %s%s (offset %llu, size %llu) overlaps %s%s (offset %llu, size %llu)",
				 r->name, rg[i].is_sec ? "section " : "",
				 rg[i].what, (unsigned long long)rg[i].off,
				 (unsigned long long)rg[i].size,
				 rg[last].is_sec ? "section " : "",
				 rg[last].what, (unsigned long long)rg[last].off,
				 (unsigned long long)rg[last].size);
			goto out;
		}
		if (rg[i].off + rg[i].size > rg[last].off + rg[last].size)
			last = i;
	}
	for (int k = 0; k < NSEC; k++)
		if (secinfo[k].required && !r->s[k].index) {
			npu_errf(r->e, "%s: required section %s is missing",
				 r->name, secinfo[k].name);
			goto out;
		}
	rc = 0;
out:
	free(rg);
	return rc;
}

/*
 * Copies the string at off of .npu.strtab into *out.  Records may share
 * strings, so a small hostile file could make us copy one long string a
 * million times: the copies come out of a budget proportional to the file.
 */
static int get_str(rd *r, int sec, uint32_t i, const char *field,
		   uint32_t off, char **out)
{
	const sect *st = &r->s[SEC_STRTAB];
	const uint8_t *end;
	size_t n;

	if (off >= st->size)
		return npu_errf(r->e, "%s: section %s: entry %u: %s at %u past end of .npu.strtab (%llu bytes)",
				r->name, secinfo[sec].name, i, field, off,
				(unsigned long long)st->size);
	if (!(end = memchr(st->d + off, 0, st->size - off)))
		return npu_errf(r->e, "%s: section .npu.strtab: string at %u is not terminated",
				r->name, off);
	n = (size_t)(end - (st->d + off)) + 1;
	if (n > r->str_budget)
		return npu_errf(r->e, "%s: section %s: entry %u: strings of .npu.strtab referenced too often (more than %llu bytes in all)",
				r->name, secinfo[sec].name, i,
				(unsigned long long)(STR_BUDGET_FACTOR * r->len + STR_BUDGET_MIN));
	r->str_budget -= n;
	if (!(*out = malloc(n)))
		return npu_errf(r->e, "%s: out of memory", r->name);
	memcpy(*out, st->d + off, n);
	return 0;
}

/* calloc for n records; *out stays NULL when n is 0. */
static int alloc_n(rd *r, uint64_t n, size_t size, void *out)
{
	void *q = NULL;

	if (n && (n > SIZE_MAX / size || !(q = calloc((size_t)n, size))))
		return npu_errf(r->e, "%s: out of memory", r->name);
	memcpy(out, &q, sizeof q);
	return 0;
}

static int load_target(rd *r, npu_prog *p)
{
	const sect *s = &r->s[SEC_TARGET];
	char *name = NULL;
	uint32_t ver;

	/* The version comes first: another version may size records differently. */
	if (s->size < 4)
		return npu_errf(r->e, "%s: section .npu.target: size %llu, expected %u",
				r->name, (unsigned long long)s->size, TGT_REC);
	ver = rd32(s->d + TGT_VERSION);
	if (ver != NPU_PROG_VERSION)
		return npu_errf(r->e, "%s: section .npu.target: format version %u, this npusim reads version %u",
				r->name, ver, NPU_PROG_VERSION);
	if (s->size != TGT_REC)
		return npu_errf(r->e, "%s: section .npu.target: size %llu, expected %u",
				r->name, (unsigned long long)s->size, TGT_REC);
	if (get_str(r, SEC_TARGET, 0, "target name", rd32(s->d + TGT_NAME), &name) < 0)
		return -1;
	if (strlen(name) >= sizeof p->target_name) {
		npu_errf(r->e, "%s: section .npu.target: target name is %zu bytes, longer than %zu",
			 r->name, strlen(name), sizeof p->target_name - 1);
		free(name);
		return -1;
	}
	strcpy(p->target_name, name);
	free(name);
	p->target_hash = rd64(s->d + TGT_HASH);
	p->dram_size = rd64(s->d + TGT_DRAM);
	return 0;
}

static int load_code(rd *r, npu_prog *p)
{
	const sect *t = &r->s[SEC_TEXT], *c = &r->s[SEC_CONST];
	const sect *in = &r->s[SEC_INSNNODE];

	if (alloc_n(r, t->n, sizeof *p->code, &p->code) < 0)
		return -1;
	p->ncode = t->n;
	for (uint32_t i = 0; i < t->n; i++)
		p->code[i] = rd64(t->d + 8 * (size_t)i);
	if (alloc_n(r, c->size, 1, &p->cdata) < 0)
		return -1;
	p->ncdata = c->size;
	if (c->size)
		memcpy(p->cdata, c->d, c->size);
	if (!in->index)
		return 0;
	if (in->n != t->n)
		return npu_errf(r->e, "%s: section .npu.insnnode: %u entries, expected one per instruction (%u)",
				r->name, in->n, t->n);
	/* An empty program still has an (empty) insn_node table. */
	if (!(p->insn_node = calloc(in->n ? in->n : 1, sizeof *p->insn_node)))
		return npu_errf(r->e, "%s: out of memory", r->name);
	for (uint32_t i = 0; i < in->n; i++)
		p->insn_node[i] = rd32(in->d + 4 * (size_t)i);
	return 0;
}

static int load_bufs(rd *r, npu_prog *p)
{
	const sect *s = &r->s[SEC_BUFS];

	if (alloc_n(r, s->n, sizeof *p->bufs, &p->bufs) < 0)
		return -1;
	p->nbufs = s->n;
	for (uint32_t i = 0; i < s->n; i++) {
		const uint8_t *q = s->d + (size_t)i * BUF_REC;
		npu_buf *b = &p->bufs[i];
		if (get_str(r, SEC_BUFS, i, "name", rd32(q + BUF_NAME), &b->name) < 0)
			return -1;
		b->dtype = q[BUF_DTYPE];
		b->kind = q[BUF_KIND];
		b->ndim = q[BUF_NDIM];
		b->flags = q[BUF_FLAGS];
		b->addr = rd64(q + BUF_ADDR);
		b->size = rd64(q + BUF_SIZE);
		b->data_off = rd64(q + BUF_DATA_OFF);
		for (int d = 0; d < NPU_MAX_DIMS && d < b->ndim; d++)
			b->shape[d] = (int64_t)rd64(q + BUF_SHAPE + 8 * d);
	}
	return 0;
}

static int load_nodes(rd *r, npu_prog *p)
{
	const sect *s = &r->s[SEC_NODES], *kn = &r->s[SEC_KNODES];
	static const char *const field[4] = { "name", "target", "module", "source" };

	if (alloc_n(r, s->n, sizeof *p->nodes, &p->nodes) < 0)
		return -1;
	p->nnodes = s->n;
	for (uint32_t i = 0; i < s->n; i++) {
		const uint8_t *q = s->d + (size_t)i * NODE_REC;
		npu_node *n = &p->nodes[i];
		char **out[4] = { &n->name, &n->target, &n->module, &n->source };
		for (int f = 0; f < 4; f++)
			if (get_str(r, SEC_NODES, i, field[f], rd32(q + 4 * f), out[f]) < 0)
				return -1;
	}
	if (alloc_n(r, kn->n, sizeof *p->kernel_nodes, &p->kernel_nodes) < 0)
		return -1;
	p->nkernel_nodes = kn->n;
	for (uint32_t i = 0; i < kn->n; i++)
		p->kernel_nodes[i] = rd32(kn->d + 4 * (size_t)i);
	return 0;
}

static int load_kernels(rd *r, npu_prog *p)
{
	const sect *s = &r->s[SEC_KERNELS];

	if (alloc_n(r, s->n, sizeof *p->kernels, &p->kernels) < 0)
		return -1;
	p->nkernels = s->n;
	for (uint32_t i = 0; i < s->n; i++) {
		const uint8_t *q = s->d + (size_t)i * KER_REC;
		npu_kernel *k = &p->kernels[i];
		if (get_str(r, SEC_KERNELS, i, "name", rd32(q + KER_NAME), &k->name) < 0)
			return -1;
		k->start = rd32(q + KER_START);
		k->end = rd32(q + KER_END);
		k->node_first = rd32(q + KER_NODE_FIRST);
		k->node_count = rd32(q + KER_NODE_COUNT);
	}
	return 0;
}

static int load_hcalls(rd *r, npu_prog *p)
{
	const sect *s = &r->s[SEC_HCALLS], *a = &r->s[SEC_HCARGS];
	uint64_t next = 0;

	if (alloc_n(r, s->n, sizeof *p->hcalls, &p->hcalls) < 0)
		return -1;
	p->nhcalls = s->n;
	for (uint32_t i = 0; i < s->n; i++) {
		const uint8_t *q = s->d + (size_t)i * HC_REC;
		npu_hostcall *h = &p->hcalls[i];
		uint32_t first = rd32(q + HC_ARGS_FIRST), nargs = rd32(q + HC_NARGS);
		if (get_str(r, SEC_HCALLS, i, "op", rd32(q + HC_OP), &h->op) < 0 ||
		    get_str(r, SEC_HCALLS, i, "attrs", rd32(q + HC_ATTRS), &h->attrs) < 0)
			return -1;
		h->nin = rd32(q + HC_NIN);
		h->node = rd32(q + HC_NODE);
		if ((uint64_t)first + nargs > a->n)
			return npu_errf(r->e, "%s: section .npu.hcalls: entry %u: args %u + %u past end of .npu.hcargs (%u entries)",
					r->name, i, first, nargs, a->n);
		/* Lists are back to back, so no entry is copied twice. */
		if (first != next)
			return npu_errf(r->e, "%s: section .npu.hcalls: entry %u: args start at %u, expected %llu (lists are stored back to back)",
					r->name, i, first, (unsigned long long)next);
		next += nargs;
		if (alloc_n(r, nargs, sizeof *h->args, &h->args) < 0)
			return -1;
		h->nargs = nargs;
		for (uint32_t k = 0; k < nargs; k++)
			h->args[k] = rd32(a->d + 4 * ((size_t)first + k));
	}
	return 0;
}

static int load_dyn(rd *r, npu_prog *p)
{
	const sect *dy = &r->s[SEC_DYN], *sy = &r->s[SEC_SYMS];
	const sect *sd = &r->s[SEC_SYMDIMS];

	if (!dy->index && !sy->index && !sd->index)
		return 0;
	if (!dy->index || !sy->index || !sd->index)
		return npu_errf(r->e, "%s: sections .npu.dyn, .npu.syms and .npu.symdims come together (a dynamic-shape program has all three)",
				r->name);
	if (dy->n != 1)
		return npu_errf(r->e, "%s: section .npu.dyn: %u records, expected 1",
				r->name, dy->n);
	if (!sy->n)
		return npu_errf(r->e, "%s: section .npu.syms is empty", r->name);
	if (sy->n > MAX_SYMS)
		return npu_errf(r->e, "%s: section .npu.syms: %u symbols, at most %d",
				r->name, sy->n, MAX_SYMS);
	p->symtab = rd64(dy->d + DYN_SYMTAB);
	p->dynpad = rd64(dy->d + DYN_PAD);
	if (alloc_n(r, sy->n, sizeof *p->syms, &p->syms) < 0)
		return -1;
	p->nsyms = sy->n;
	for (uint32_t i = 0; i < sy->n; i++) {
		const uint8_t *q = sy->d + (size_t)i * SYM_REC;
		npu_sym *y = &p->syms[i];
		if (get_str(r, SEC_SYMS, i, "name", rd32(q + SYM_NAME), &y->name) < 0)
			return -1;
		y->hint = (int64_t)rd64(q + SYM_HINT);
		y->min = (int64_t)rd64(q + SYM_MIN);
		y->max = (int64_t)rd64(q + SYM_MAX);
	}
	if (alloc_n(r, sd->n, sizeof *p->symdims, &p->symdims) < 0)
		return -1;
	p->nsymdims = sd->n;
	for (uint32_t i = 0; i < sd->n; i++) {
		const uint8_t *q = sd->d + (size_t)i * SD_REC;
		npu_symdim *d = &p->symdims[i];
		d->buf = rd32(q + SD_BUF);
		d->dim = rd32(q + SD_DIM);
		d->coef = (int64_t)rd64(q + SD_COEF);
		d->add = (int64_t)rd64(q + SD_ADD);
		d->nsyms = rd32(q + SD_NSYMS);
		for (int k = 0; k < NPU_SYMDIM_MAX; k++)
			d->syms[k] = rd32(q + SD_SYMS + 4 * k);
	}
	return 0;
}

static int load_window(rd *r, npu_prog *p)
{
	const sect *w = &r->s[SEC_WINDOW];

	if (!w->index)
		return 0;
	if (w->n != 1)
		return npu_errf(r->e, "%s: section .npu.window: %u records, expected 1",
				r->name, w->n);
	p->win_lo = rd64(w->d + WIN_LO);
	p->win_hi = rd64(w->d + WIN_HI);
	return 0;
}

int npu_prog_parse(npu_prog *p, const char *name, const void *data,
		   size_t len, npu_err *e)
{
	npu_err dummy;
	rd r = { .name = name ? name : "program", .len = len, .e = e ? e : &dummy,
		 .str_budget = (uint64_t)STR_BUDGET_FACTOR * len + STR_BUDGET_MIN };
	char *img = NULL;
	Elf *elf = NULL;
	int rc = -1;

	memset(p, 0, sizeof *p);
	r.e->msg[0] = '\0';
	if (check_ehdr(&r, data) < 0)
		goto out;
	/* libelf wants a writable image; a private copy also keeps it aligned. */
	if (!(img = malloc(len))) {
		npu_errf(r.e, "%s: out of memory", r.name);
		goto out;
	}
	memcpy(img, data, len);
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    !(elf = elf_memory(img, len)) || elf_kind(elf) != ELF_K_ELF) {
		npu_errf(r.e, "%s: libelf: %s", r.name, elf_errmsg(-1));
		goto out;
	}
	if (find_sections(&r, elf, (const uint8_t *)img) < 0 ||
	    load_target(&r, p) < 0 || load_code(&r, p) < 0 ||
	    load_bufs(&r, p) < 0 || load_nodes(&r, p) < 0 ||
	    load_kernels(&r, p) < 0 || load_hcalls(&r, p) < 0 ||
	    load_dyn(&r, p) < 0 || load_window(&r, p) < 0)
		goto out;
	if (npu_prog_check(p, r.e) < 0) {
		npu_err_prefix(r.e, "%s", r.name);
		goto out;
	}
	rc = 0;
out:
	if (elf)
		elf_end(elf);
	free(img);
	if (rc < 0)
		npu_prog_free(p);
	return rc;
}

int npu_prog_read(npu_prog *p, const char *path, npu_err *e)
{
	struct stat st;
	uint8_t *buf = NULL;
	size_t got = 0;
	char eb[128];
	int fd, rc = -1;

	memset(p, 0, sizeof *p);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return npu_errf(e, "%s: cannot open: %s", path,
				npu_strerror(errno, eb, sizeof eb));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		npu_errf(e, "%s: not a regular file", path);
		goto out;
	}
	if ((uint64_t)st.st_size > SIZE_MAX ||
	    !(buf = malloc(st.st_size ? (size_t)st.st_size : 1))) {
		npu_errf(e, "%s: out of memory (%lld bytes)", path,
			 (long long)st.st_size);
		goto out;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			npu_errf(e, "%s: cannot read: %s", path,
				 n ? npu_strerror(errno, eb, sizeof eb) : "file shrank");
			goto out;
		}
		got += (size_t)n;
	}
	rc = npu_prog_parse(p, path, buf, got, e);
out:
	close(fd);
	free(buf);
	return rc;
}

/* ---- dynamic shapes at load ------------------------------------------ */

/* "256*s50", "s33*s50 + 1": a symbolic dim as the messages write it. */
static void symdim_str(const npu_prog *p, const npu_symdim *d, char *buf,
		       size_t n)
{
	size_t o = 0;

	buf[0] = '\0';
	if (d->coef != 1)
		o += (size_t)snprintf(buf, n, "%lld*", (long long)d->coef);
	for (uint32_t k = 0; k < d->nsyms && o < n; k++)
		o += (size_t)snprintf(buf + o, n - o, "%s%s", k ? "*" : "",
				      p->syms[d->syms[k]].name);
	if (d->add && o < n)
		snprintf(buf + o, n - o, " + %lld", (long long)d->add);
}

static int is_input(const npu_buf *b)
{
	return b->kind == NPU_BUF_INPUT || b->kind == NPU_BUF_INOUT;
}

/* A dim that is one symbol by itself binds that symbol. */
static int binds(const npu_symdim *d)
{
	return d->nsyms == 1 && d->coef == 1 && d->add == 0;
}

int npu_prog_bind(const npu_prog *p, npu_shape_fn shape_of, void *ctx,
		  int64_t *vals, npu_err *e)
{
	uint32_t from[MAX_SYMS], fdim[MAX_SYMS];
	int64_t shape[NPU_MAX_DIMS];
	char ex[160];
	int nd;

	for (uint32_t i = 0; i < p->nsyms; i++)
		vals[i] = -1;
	/* bind: the first input dim that is the symbol alone */
	for (uint32_t i = 0; i < p->nsymdims; i++) {
		const npu_symdim *d = &p->symdims[i];
		const npu_buf *b = &p->bufs[d->buf];
		uint32_t s = d->syms[0];
		if (!is_input(b) || !binds(d) || vals[s] >= 0 ||
		    shape_of(ctx, b->name, &nd, shape) < 0 || nd != b->ndim)
			continue;
		vals[s] = shape[d->dim];
		from[s] = d->buf;
		fdim[s] = d->dim;
	}
	for (uint32_t s = 0; s < p->nsyms; s++) {
		const npu_sym *y = &p->syms[s];
		if (vals[s] < 0)
			return npu_errf(e, "symbol %s: no input gives it (an input whose dim is %s alone is missing)",
					y->name, y->name);
		if (vals[s] < y->min || (y->max && vals[s] > y->max)) {
			if (y->max)
				snprintf(ex, sizeof ex, "%lld <= %s <= %lld",
					 (long long)y->min, y->name, (long long)y->max);
			else
				snprintf(ex, sizeof ex, "%s >= %lld", y->name,
					 (long long)y->min);
			return npu_errf(e, "input '%s' dim %u is %lld: symbol %s must satisfy %s",
					p->bufs[from[s]].name, fdim[s],
					(long long)vals[s], y->name, ex);
		}
	}
	/* every dim of every dynamic input must agree */
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *b = &p->bufs[i];
		if (!is_input(b) || !symdim_of(p, i, 0) ||
		    shape_of(ctx, b->name, &nd, shape) < 0)
			continue;
		if (nd != b->ndim)
			return npu_errf(e, "input '%s' has %d dims, the program wants %d",
					b->name, nd, b->ndim);
		for (int dd = 0; dd < nd; dd++) {
			const npu_symdim *d = symdim_of(p, i, dd);
			int64_t want = d ? npu_symdim_eval(d, vals) : b->shape[dd];
			if (shape[dd] == want)
				continue;
			if (!d)
				return npu_errf(e, "input '%s' dim %d is %lld, the program wants %lld",
						b->name, dd, (long long)shape[dd],
						(long long)want);
			symdim_str(p, d, ex, sizeof ex);
			return npu_errf(e, "input '%s' dim %d is %lld, expected %s = %lld (symbol %s = %lld from input '%s' dim %u)",
					b->name, dd, (long long)shape[dd], ex,
					(long long)want, p->syms[d->syms[0]].name,
					(long long)vals[d->syms[0]],
					p->bufs[from[d->syms[0]]].name,
					fdim[d->syms[0]]);
		}
	}
	return 0;
}

int npu_prog_relayout(npu_prog *p, const int64_t *vals, uint8_t *table,
		      npu_err *e)
{
	uint64_t addr = (p->dram_size + 63) & ~63ull, win = p->win_lo, room;
	uint32_t j = 0;

	for (uint32_t s = 0; s < p->nsyms; s++)
		wr64(table + 8 * s, (uint64_t)vals[s]);
	for (uint32_t i = 0; i < p->nbufs; i++) {
		npu_buf *b = &p->bufs[i];
		int64_t rows = 1, block = 1, elems = npu_dtype_size(b->dtype), alloc;
		uint8_t *t = table + 8 * (p->nsyms + 2 * (uint64_t)j);
		if (!symdim_of(p, i, 0))
			continue;
		for (int d = 0; d < b->ndim; d++) {
			const npu_symdim *sd = symdim_of(p, i, d);
			int64_t v = sd ? npu_symdim_eval(sd, vals) : b->shape[d];
			if (v < 0 || (sd ? ovf_mul(rows, v, &rows) || ovf_mul(block, b->shape[d], &block)
				    : ovf_mul(elems, v, &elems)))
				return npu_errf(e, "buffer '%s': its size overflows", b->name);
			b->shape[d] = v;
		}
		if (ovf_mul(block, (int64_t)p->dynpad, &block))
			return npu_errf(e, "buffer '%s': its size overflows", b->name);
		/* the code computes in blocks of the recorded rows: the last
		 * block may run past the bound rows, into room kept for it */
		if (ovf_mul((rows + block - 1) / block * block, elems, &alloc) ||
		    (uint64_t)alloc > UINT64_MAX - 64 - addr)
			return npu_errf(e, "buffer '%s': its size overflows", b->name);
		wr64(t + 8, (uint64_t)rows);
		b->size = (uint64_t)alloc;
		room = ((uint64_t)alloc + 63) & ~63ull;
		if ((b->flags & NPU_BUF_F_WINDOW) && room <= p->win_hi - win) {
			wr64(t, NPU_SRAM_APERTURE + win - b->addr);
			b->addr = NPU_SRAM_APERTURE + win;
			win += room;
		} else {
			wr64(t, addr - b->addr);
			b->addr = addr;
			addr += room;
		}
		j++;
	}
	p->dram_size = addr;
	return 0;
}

static int st_shape(void *ctx, const char *name, int *ndim, int64_t *shape)
{
	const npu_tensor *t = npu_st_find(ctx, name);

	if (!t)
		return -1;
	*ndim = t->ndim;
	memcpy(shape, t->shape, (size_t)t->ndim * sizeof *shape);
	return 0;
}

static int hint_shape(void *ctx, const char *name, int *ndim, int64_t *shape)
{
	const npu_prog *p = ctx;
	int i = npu_prog_find_buf(p, name);

	if (i < 0)
		return -1;
	*ndim = p->bufs[i].ndim;
	memcpy(shape, p->bufs[i].shape, sizeof p->bufs[i].shape);
	return 0;
}

int npu_prog_bind_inputs(npu_prog *p, const struct npu_stfile *inputs,
			 uint8_t **table, npu_err *e)
{
	int64_t vals[MAX_SYMS];

	*table = NULL;
	if (!p->nsyms)
		return 0;
	if (p->nsyms > MAX_SYMS)
		return npu_errf(e, "%u symbols, at most %d", p->nsyms, MAX_SYMS);
	if (!(*table = calloc(1, NPU_SYMTAB_BYTES(p))))
		return npu_errf(e, "out of memory");
	if ((inputs ? npu_prog_bind(p, st_shape, (void *)inputs, vals, e)
		    : npu_prog_bind(p, hint_shape, p, vals, e)) < 0 ||
	    npu_prog_relayout(p, vals, *table, e) < 0) {
		free(*table);
		*table = NULL;
		return -1;
	}
	return 0;
}
