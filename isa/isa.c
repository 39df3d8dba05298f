/*
 * isa.c - tables expanded from npu.def, encoding, decoding, disassembly.
 *
 * The decode table is indexed by the opcode byte, so decoding one word is a
 * single lookup plus operand range checks.
 */
#include "isa/isa.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define OPD(f, k) { NPU_F_##f, NPU_K_##k }
const npu_fmtinfo npu_fmttab[NPU_NFMT] = {
#define NPU_FMT(nm, n, ...) [NPU_FMT_##nm] = { #nm, n, { __VA_ARGS__ } },
#include "isa/npu.def"
#undef NPU_FMT
};
#undef OPD

#define SCL NPU_UC_SCL
#define VEC NPU_UC_VEC
#define MXU NPU_UC_MXU
#define DMA NPU_UC_DMA
#define HOST NPU_UC_HOST
#define SYNC NPU_UC_SYNC
#define WA NPU_WA
#define RA NPU_RA
#define BR NPU_BR
#define END NPU_END
const npu_opinfo npu_optab[256] = {
#define NPU_OP(nm, code, mn, fmt, unit, flags, sem) \
	[code] = { mn, #nm, code, NPU_FMT_##fmt, unit, flags, sem },
#include "isa/npu.def"
#undef NPU_OP
};

/* Opcodes in table order, for listings and docs. */
static const uint8_t op_order[] = {
#define NPU_OP(nm, code, mn, fmt, unit, flags, sem) code,
#include "isa/npu.def"
#undef NPU_OP
};
#undef SCL
#undef VEC
#undef MXU
#undef DMA
#undef HOST
#undef SYNC
#undef WA
#undef RA
#undef BR
#undef END

static const struct {
	const char *name, *torch;
	int size;
} dtypes[NPU_NDTYPE] = {
#define NPU_DTYPE(nm, asm, size, torch) [NPU_DT_##nm] = { asm, torch, size },
#include "isa/npu.def"
#undef NPU_DTYPE
};

static const char *const dfields[NPU_NDFIELD] = {
#define NPU_DFIELD(nm, asm, doc) [NPU_DF_##nm] = asm,
#include "isa/npu.def"
#undef NPU_DFIELD
};

static const char *const units[NPU_NUNIT] = {
	"scl", "vec", "mxu", "host",
	"dma0", "dma1", "dma2", "dma3", "dma4", "dma5", "dma6", "dma7"
};

int npu_nops(void)
{
	return (int)sizeof op_order;
}

const npu_opinfo *npu_op_nth(int i)
{
	if (i < 0 || i >= npu_nops())
		return NULL;
	return &npu_optab[op_order[i]];
}

static int name_eq(const char *a, const char *s, size_t len)
{
	return strlen(a) == len && memcmp(a, s, len) == 0;
}

const npu_opinfo *npu_op_by_mnemonic(const char *mn, size_t len)
{
	for (size_t i = 0; i < sizeof op_order; i++)
		if (name_eq(npu_optab[op_order[i]].mnemonic, mn, len))
			return &npu_optab[op_order[i]];
	return NULL;
}

uint64_t npu_encode(const npu_insn *in)
{
	return (uint64_t)in->op | (uint64_t)in->a << 8 | (uint64_t)in->b << 16 |
	       (uint64_t)in->c << 24 | (uint64_t)(uint32_t)in->imm << 32;
}

/* Is v a valid value for an operand of kind k? */
static int kind_ok(int k, int64_t v)
{
	switch (k) {
	case NPU_K_X: return v >= 0 && v < NPU_NXREG;
	case NPU_K_V: return v >= 0 && v < NPU_NVREG;
	case NPU_K_U: return v >= 0 && v < NPU_NUNIT;
	case NPU_K_S: return v >= 0 && v < NPU_NSEM;
	case NPU_K_Q: return v >= 0 && v < NPU_MAX_DMA;
	case NPU_K_D: return v >= 0 && v < NPU_NDFIELD;
	case NPU_K_T: return v >= 0 && v < NPU_NDTYPE;
	default: return 1;
	}
}

int64_t npu_opd_get(const npu_insn *in, const npu_operand *o)
{
	switch (o->field) {
	case NPU_F_A: return in->a;
	case NPU_F_B: return in->b;
	case NPU_F_C: return in->c;
	default: return in->imm;
	}
}

void npu_opd_set(npu_insn *in, const npu_operand *o, int64_t v)
{
	switch (o->field) {
	case NPU_F_A: in->a = (uint8_t)v; break;
	case NPU_F_B: in->b = (uint8_t)v; break;
	case NPU_F_C: in->c = (uint8_t)v; break;
	default: in->imm = (int32_t)v; break;
	}
}

int npu_insn_valid(const npu_insn *in)
{
	const npu_opinfo *oi = &npu_optab[in->op];
	const npu_fmtinfo *fi;
	int used[4] = { 0, 0, 0, 0 };

	if (!oi->mnemonic)
		return -1;
	fi = &npu_fmttab[oi->fmt];
	for (int i = 0; i < fi->nopd; i++) {
		used[fi->opd[i].field] = 1;
		if (!kind_ok(fi->opd[i].kind, npu_opd_get(in, &fi->opd[i])))
			return -1;
	}
	/* Unused fields must be zero, so every word has one spelling. */
	if ((!used[NPU_F_A] && in->a) || (!used[NPU_F_B] && in->b) ||
	    (!used[NPU_F_C] && in->c) || (!used[NPU_F_IMM] && in->imm))
		return -1;
	return 0;
}

int npu_decode(uint64_t w, npu_insn *out)
{
	out->op = (uint8_t)w;
	out->a = (uint8_t)(w >> 8);
	out->b = (uint8_t)(w >> 16);
	out->c = (uint8_t)(w >> 24);
	out->imm = (int32_t)(uint32_t)(w >> 32);
	return npu_insn_valid(out);
}

/* Prints an fp32 immediate so that the assembler reads back the same bits. */
static int print_f32(char *buf, size_t n, int32_t bits)
{
	float f;
	uint32_t u = (uint32_t)bits;
	char tmp[64];

	memcpy(&f, &u, sizeof f);
	if (isnan(f))
		return snprintf(buf, n, u == 0x7fc00000u ? "nan" : "0x%08x", u);
	if (isinf(f))
		return snprintf(buf, n, f < 0 ? "-inf" : "inf");
	snprintf(tmp, sizeof tmp, "%.9g", (double)f);
	/* Keep a decimal point so the operand reads as a float. */
	if (!strpbrk(tmp, ".en"))
		strcat(tmp, ".0");
	return snprintf(buf, n, "%s", tmp);
}

static int print_opd(char *buf, size_t n, int kind, int64_t v, uint32_t pc)
{
	switch (kind) {
	case NPU_K_X: return snprintf(buf, n, "x%d", (int)v);
	case NPU_K_V: return snprintf(buf, n, "v%d", (int)v);
	case NPU_K_S: return snprintf(buf, n, "s%d", (int)v);
	case NPU_K_U: return snprintf(buf, n, "%s", npu_unit_name((int)v));
	case NPU_K_Q: return snprintf(buf, n, "dma%d", (int)v);
	case NPU_K_D: return snprintf(buf, n, "%s", npu_dfield_name((int)v));
	case NPU_K_T: return snprintf(buf, n, "%s", npu_dtype_name((int)v));
	case NPU_K_F: return print_f32(buf, n, (int32_t)v);
	case NPU_K_L: return snprintf(buf, n, "@%lld", (long long)pc + v);
	default: return snprintf(buf, n, "%lld", (long long)v);
	}
}

int npu_disasm(const npu_insn *in, uint32_t pc, char *buf, size_t n)
{
	const npu_opinfo *oi = &npu_optab[in->op];
	const npu_fmtinfo *fi;
	size_t len;

	if (!n)
		return 0;
	if (npu_insn_valid(in) < 0)
		return snprintf(buf, n, ".word 0x%016llx",
				(unsigned long long)npu_encode(in));
	fi = &npu_fmttab[oi->fmt];
	snprintf(buf, n, "%s", oi->mnemonic);
	for (int i = 0; i < fi->nopd; i++) {
		len = strlen(buf);
		if (len + 2 >= n)
			break;
		strcpy(buf + len, i ? ", " : " ");
		len += i ? 2 : 1;
		print_opd(buf + len, n - len, fi->opd[i].kind,
			  npu_opd_get(in, &fi->opd[i]), pc);
	}
	return (int)strlen(buf);
}

const char *npu_dtype_name(int dt)
{
	return dt >= 0 && dt < NPU_NDTYPE ? dtypes[dt].name : NULL;
}

const char *npu_dtype_torch(int dt)
{
	return dt >= 0 && dt < NPU_NDTYPE ? dtypes[dt].torch : NULL;
}

int npu_dtype_size(int dt)
{
	return dt >= 0 && dt < NPU_NDTYPE ? dtypes[dt].size : 0;
}

int npu_dtype_from_name(const char *s, size_t len)
{
	for (int i = 0; i < NPU_NDTYPE; i++)
		if (name_eq(dtypes[i].name, s, len) ||
		    name_eq(dtypes[i].torch, s, len))
			return i;
	return -1;
}

const char *npu_unit_name(int u)
{
	return u >= 0 && u < NPU_NUNIT ? units[u] : "?";
}

int npu_unit_from_name(const char *s, size_t len)
{
	for (int i = 0; i < NPU_NUNIT; i++)
		if (name_eq(units[i], s, len))
			return i;
	return -1;
}

const char *npu_dfield_name(int f)
{
	return f >= 0 && f < NPU_NDFIELD ? dfields[f] : "?";
}

int npu_dfield_from_name(const char *s, size_t len)
{
	for (int i = 0; i < NPU_NDFIELD; i++)
		if (name_eq(dfields[i], s, len))
			return i;
	return -1;
}
