/*
 * check_asm.c - the assembler, the program disassembler, docs/ISA.md and
 * the asm/disasm/isa-doc subcommands.
 *
 * The central property: for every opcode and many operand values,
 * text -> program -> text -> program gives the same words, and a whole
 * program (buffers, constant data, kernels) survives npu_disasm_prog()
 * and a trip through a program file.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/asm.h"
#include "isa/isa.h"
#include "isa/prog.h"

static const char *srcdir(void)
{
	const char *s = getenv("srcdir");
	return s ? s : ".";
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

static void asm_ok(const char *text, npu_prog *p)
{
	npu_err e = { "" };
	int rc = npu_asm("t.s", text, strlen(text), p, &e);

	ck_assert_msg(rc == 0, "%s\n--- in:\n%s", e.msg, text);
}

/* Checks that text fails with exactly msg. */
static void asm_fails(const char *text, const char *msg)
{
	npu_err e = { "" };
	npu_prog p;

	ck_assert_msg(npu_asm("t.s", text, strlen(text), &p, &e) == -1,
		      "accepted: %s", text);
	ck_assert_msg(!strcmp(e.msg, msg), "for:\n%s\ngot:  %s\nwant: %s",
		      text, e.msg, msg);
	ck_assert_uint_eq(p.ncode, 0);
	ck_assert_ptr_null(p.bufs);
}

static const uint8_t *buf_bytes(const npu_prog *p, const npu_buf *b)
{
	ck_assert_uint_le(b->data_off + b->size, p->ncdata);
	return p->cdata + b->data_off;
}

/* Same code, buffers (and constant bytes), kernels with their nodes. */
static void progs_equal(const npu_prog *p, const npu_prog *q)
{
	ck_assert_uint_eq(p->ncode, q->ncode);
	for (uint32_t i = 0; i < p->ncode; i++)
		ck_assert_msg(p->code[i] == q->code[i], "word %u: %016llx != %016llx",
			      i, (unsigned long long)p->code[i],
			      (unsigned long long)q->code[i]);
	ck_assert_str_eq(p->target_name, q->target_name);
	ck_assert_uint_eq(p->dram_size, q->dram_size);
	ck_assert_uint_eq(p->nbufs, q->nbufs);
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *a = &p->bufs[i], *b = &q->bufs[i];
		ck_assert_str_eq(a->name, b->name);
		ck_assert_int_eq(a->dtype, b->dtype);
		ck_assert_int_eq(a->kind, b->kind);
		ck_assert_int_eq(a->ndim, b->ndim);
		for (int d = 0; d < a->ndim; d++)
			ck_assert_int_eq(a->shape[d], b->shape[d]);
		ck_assert_uint_eq(a->addr, b->addr);
		ck_assert_uint_eq(a->size, b->size);
		if (a->kind == NPU_BUF_CONST)
			ck_assert_msg(!memcmp(buf_bytes(p, a), buf_bytes(q, b), a->size),
				      "data of %s differs", a->name);
	}
	ck_assert_uint_eq(p->nkernels, q->nkernels);
	for (uint32_t i = 0; i < p->nkernels; i++) {
		const npu_kernel *a = &p->kernels[i], *b = &q->kernels[i];
		ck_assert_str_eq(a->name, b->name);
		ck_assert_uint_eq(a->start, b->start);
		ck_assert_uint_eq(a->end, b->end);
		ck_assert_uint_eq(a->node_count, b->node_count);
		for (uint32_t j = 0; j < a->node_count; j++) {
			const npu_node *x = &p->nodes[p->kernel_nodes[a->node_first + j]];
			const npu_node *y = &q->nodes[q->kernel_nodes[b->node_first + j]];
			ck_assert_str_eq(x->name, y->name);
			ck_assert_str_eq(x->target, y->target);
			ck_assert_str_eq(x->module, y->module);
			ck_assert_str_eq(x->source, y->source);
		}
	}
}

/* p -> text -> program, which must equal p. */
static void disasm_round_trip(const npu_prog *p)
{
	char *text = npu_disasm_prog(p);
	npu_prog q;

	ck_assert_ptr_nonnull(text);
	asm_ok(text, &q);
	progs_equal(p, &q);
	npu_prog_free(&q);
	free(text);
}

/* ---- every opcode ---------------------------------------------------- */

static const uint32_t fsamples[] = {
	0x3fc00000, 0x00000000, 0x80000000, 0x7f800000, 0xff800000,
	0x7fc00000, 0x7fc00001, 0xffc00000, 0x00000001, 0x7f7fffff,
	0x3dcccccd, 0xc2f6e979,
};
static const int32_t isamples[] = {
	0, 1, -1, 64, INT32_MAX, INT32_MIN, -123456, 0x40000000,
};

/* Operand value number v of kind k, for an instruction at pc. */
static int64_t sample_opd(int k, int i, int v, uint32_t pc)
{
	switch (k) {
	case NPU_K_X: case NPU_K_V: case NPU_K_S: return (7 * i + 5 * v) % 32;
	case NPU_K_U: return (i + v) % NPU_NUNIT;
	case NPU_K_Q: return v % NPU_MAX_DMA;
	case NPU_K_D: return v % NPU_NDFIELD;
	case NPU_K_T: return v % NPU_NDTYPE;
	case NPU_K_F: return (int32_t)fsamples[v % 12];
	case NPU_K_L: return v % 3 == 0 ? -(int64_t)pc : v % 3 == 1 ? 1 : 2 - v;
	default: return isamples[v % 8];
	}
}

#define NVAR 12

START_TEST(round_trip_every_opcode)
{
	int n = npu_nops() * NVAR;
	uint64_t *words = calloc((size_t)n, sizeof *words);
	char *text = malloc((size_t)n * 80 + 1), line[128];
	size_t len = 0;
	uint32_t pc = 0;
	npu_prog p, q;
	char *again;

	ck_assert_ptr_nonnull(words);
	for (int i = 0; i < npu_nops(); i++) {
		const npu_opinfo *oi = npu_op_nth(i);
		const npu_fmtinfo *fi = &npu_fmttab[oi->fmt];
		for (int v = 0; v < NVAR; v++, pc++) {
			npu_insn in = { oi->opcode, 0, 0, 0, 0 };
			for (int o = 0; o < fi->nopd; o++)
				npu_opd_set(&in, &fi->opd[o],
					    sample_opd(fi->opd[o].kind, o, v, pc));
			ck_assert_int_eq(npu_insn_valid(&in), 0);
			words[pc] = npu_encode(&in);
			npu_disasm(&in, pc, line, sizeof line);
			len += (size_t)sprintf(text + len, "%s\n", line);
		}
	}
	asm_ok(text, &p);
	ck_assert_uint_eq(p.ncode, (uint32_t)n);
	for (int i = 0; i < n; i++)
		ck_assert_msg(p.code[i] == words[i], "line %d: %016llx != %016llx",
			      i + 1, (unsigned long long)p.code[i],
			      (unsigned long long)words[i]);
	/* The program disassembler names branch targets with labels. */
	again = npu_disasm_prog(&p);
	ck_assert_ptr_nonnull(again);
	ck_assert_ptr_nonnull(strstr(again, "\nL0:\n"));
	ck_assert_ptr_nonnull(strstr(again, "jmp L"));
	asm_ok(again, &q);
	progs_equal(&p, &q);
	npu_prog_free(&p);
	npu_prog_free(&q);
	free(again);
	free(text);
	free(words);
}
END_TEST

START_TEST(operand_spellings)
{
	npu_prog p;
	npu_insn in;

	asm_ok("start: add x1, x2, x3   # comment\n"
	       "\tvld v4, x5, 64, bfloat16 ; another\n"
	       "sig dma1, s3\n"
	       "vli v2, -inf\n"
	       "vli v2, 0x7fc00001\n"
	       "vli v2, 1e-3\n"
	       "beq x1, x0, start\n"
	       "beq x1, x0, @0\n"
	       "jmp end\n"
	       "dcfgi dma7, idxw, 0x8\n"
	       "vrnd v0, v31, float8_e4m3fn\n"
	       "end: li x31, -2147483648\n", &p);
	ck_assert_uint_eq(p.ncode, 12);
	ck_assert_uint_eq(p.code[0], npu_encode(&(npu_insn){ NPU_OP_ADD, 1, 2, 3, 0 }));
	ck_assert_uint_eq(p.code[1], npu_encode(&(npu_insn){ NPU_OP_VLD, 4, 5, NPU_DT_BF16, 64 }));
	ck_assert_uint_eq(p.code[2], npu_encode(&(npu_insn){ NPU_OP_SIG, NPU_UNIT_DMA0 + 1, 3, 0, 0 }));
	ck_assert_uint_eq(p.code[3] >> 32, 0xff800000u);
	ck_assert_uint_eq(p.code[4] >> 32, 0x7fc00001u);
	ck_assert_uint_eq(p.code[5] >> 32, 0x3a83126fu); /* 1e-3f */
	npu_decode(p.code[6], &in);
	ck_assert_int_eq(in.imm, -6);
	npu_decode(p.code[7], &in);
	ck_assert_int_eq(in.imm, -7);
	npu_decode(p.code[8], &in);
	ck_assert_int_eq(in.imm, 3);
	ck_assert_uint_eq(p.code[9], npu_encode(&(npu_insn){ NPU_OP_DCFGI, 7, NPU_DF_IDXW, 0, 8 }));
	ck_assert_uint_eq(p.code[10], npu_encode(&(npu_insn){ NPU_OP_VRND, 0, 31, NPU_DT_E4M3, 0 }));
	ck_assert_uint_eq(p.code[11], npu_encode(&(npu_insn){ NPU_OP_LI, 31, 0, 0, INT32_MIN }));
	npu_prog_free(&p);
}
END_TEST

/* ---- directives ------------------------------------------------------ */

START_TEST(buffers_and_layout)
{
	npu_prog p;

	asm_ok(".target npu-edge\n"
	       ".equ N, 3 * 4\n"
	       ".buffer a f32 [N] input\n"
	       ".buffer \"out.0\" bfloat16 [2, 3, 5] output\n"
	       ".buffer s i8 [1] scratch\n"
	       ".buffer m i64 [] inout\n"
	       ".data k f32 [2] 1, 2\n"
	       "li x1, &a\n"
	       "li x2, &\"out.0\" + 4\n"
	       "li x3, sizeof(\"out.0\")\n"
	       "li x4, N - (1 + 2) * 2\n"
	       "li x5, &k\n", &p);
	ck_assert_str_eq(p.target_name, "npu-edge");
	ck_assert_uint_eq(p.target_hash, 0);
	ck_assert_uint_eq(p.nbufs, 5);
	ck_assert_str_eq(p.bufs[0].name, "a");
	ck_assert_int_eq(p.bufs[0].kind, NPU_BUF_INPUT);
	ck_assert_uint_eq(p.bufs[0].addr, 0);
	ck_assert_uint_eq(p.bufs[0].size, 48);
	ck_assert_str_eq(p.bufs[1].name, "out.0");
	ck_assert_int_eq(p.bufs[1].dtype, NPU_DT_BF16);
	ck_assert_int_eq(p.bufs[1].ndim, 3);
	ck_assert_int_eq(p.bufs[1].shape[2], 5);
	ck_assert_int_eq(p.bufs[1].kind, NPU_BUF_OUTPUT);
	ck_assert_uint_eq(p.bufs[1].addr, 64);
	ck_assert_uint_eq(p.bufs[1].size, 60);
	ck_assert_uint_eq(p.bufs[2].addr, 128);
	ck_assert_int_eq(p.bufs[2].kind, NPU_BUF_SCRATCH);
	ck_assert_uint_eq(p.bufs[3].addr, 192);
	ck_assert_int_eq(p.bufs[3].ndim, 0);
	ck_assert_uint_eq(p.bufs[3].size, 8);
	ck_assert_int_eq(p.bufs[3].kind, NPU_BUF_INOUT);
	ck_assert_uint_eq(p.bufs[4].addr, 256);
	ck_assert_int_eq(p.bufs[4].kind, NPU_BUF_CONST);
	ck_assert_uint_eq(p.dram_size, 320);
	ck_assert_uint_eq(p.code[0] >> 32, 0);
	ck_assert_uint_eq(p.code[1] >> 32, 68);
	ck_assert_uint_eq(p.code[2] >> 32, 60);
	ck_assert_uint_eq(p.code[3] >> 32, 6);
	ck_assert_uint_eq(p.code[4] >> 32, 256);
	disasm_round_trip(&p);
	npu_prog_free(&p);
}
END_TEST

/* Names the listing must quote to read them back: a leading dot and
 * digit lexes as a number (".0b", found by fuzz_asm), spaces and quotes
 * as several tokens; a dash between identifier characters stays bare. */
START_TEST(names_round_trip)
{
	npu_prog p;
	char *text;

	asm_ok(".buffer \".0b\" i8 [] scratch\n"
	       ".buffer \".5\" f32 [1] input\n"
	       ".buffer \"a b\\\"c\" f32 [1] output\n"
	       ".buffer npu-base f32 [1] scratch\n"
	       ".kernel \".9k\"\n"
	       "li x1, &\".0b\"\n"
	       ".endkernel\n", &p);
	ck_assert_str_eq(p.bufs[0].name, ".0b");
	ck_assert_str_eq(p.bufs[1].name, ".5");
	ck_assert_str_eq(p.bufs[2].name, "a b\"c");
	ck_assert_str_eq(p.kernels[0].name, ".9k");
	text = npu_disasm_prog(&p);
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(strstr(text, ".buffer \".0b\" i8"));
	ck_assert_ptr_nonnull(strstr(text, ".buffer npu-base f32"));
	free(text);
	disasm_round_trip(&p);
	npu_prog_free(&p);
}
END_TEST

static const npu_buf *buf(const npu_prog *p, const char *name)
{
	int i = npu_prog_find_buf(p, name);

	ck_assert_int_ge(i, 0);
	return &p->bufs[i];
}

START_TEST(const_data_every_dtype)
{
	char path[4096];
	npu_prog p;
	npu_err e = { "" };
	const uint8_t *d;
	float f;
	double x;

	snprintf(path, sizeof path, "%s/tests/data/asm/asm_data.s", srcdir());
	ck_assert_msg(npu_asm_file(path, &p, &e) == 0, "%s", e.msg);
	d = buf_bytes(&p, buf(&p, "f"));
	memcpy(&f, d, 4);
	ck_assert(f == 1.5f);
	ck_assert_mem_eq(d + 4, "\x00\x00\x00\x80", 4);     /* -0.0 */
	ck_assert_mem_eq(d + 8, "\x00\x00\x80\x7f", 4);     /* inf */
	ck_assert_mem_eq(d + 20, "\x01\x00\xc0\x7f", 4);    /* raw NaN bits */
	d = buf_bytes(&p, buf(&p, "d"));
	memcpy(&x, d, 8);
	ck_assert(x == 0.1);
	d = buf_bytes(&p, buf(&p, "h"));
	ck_assert_mem_eq(d, "\x80\x3f", 2);                 /* bf16 1.0 */
	ck_assert_mem_eq(d + 2, "\xaa\x3e", 2);             /* 0.333 rounded */
	ck_assert_mem_eq(d + 6, "\x00\xc0", 2);             /* -2 */
	d = buf_bytes(&p, buf(&p, "g"));
	ck_assert_mem_eq(d, "\xff\x7b", 2);                 /* f16 65504 */
	d = buf_bytes(&p, buf(&p, "q"));
	ck_assert_mem_eq(d, "\x7e\xb0\x7f", 3);             /* e4m3 */
	d = buf_bytes(&p, buf(&p, "i"));
	ck_assert_mem_eq(d, "\x80\x7f\xff\x00", 4);
	d = buf_bytes(&p, buf(&p, "l"));
	ck_assert_mem_eq(d, "\x00\x00\x00\x00\x00\x00\x00\x80", 8);
	d = buf_bytes(&p, buf(&p, "t"));
	ck_assert_mem_eq(d, "\x01\x00\x01", 3);
	ck_assert_uint_eq(buf(&p, "x")->addr, 0x1000);
	ck_assert_uint_eq(buf(&p, "y")->addr, 0x1200);
	ck_assert_uint_eq(p.dram_size, 0x2000);
	/* kernels: ranges and nodes (n1 shared by two kernels) */
	ck_assert_uint_eq(p.nkernels, 3);
	ck_assert_str_eq(p.kernels[0].name, "first");
	ck_assert_uint_eq(p.kernels[0].start, 0);
	ck_assert_uint_eq(p.kernels[0].end, 2);
	ck_assert_uint_eq(p.kernels[1].start, 3);
	ck_assert_uint_eq(p.kernels[1].end, 6);
	ck_assert_uint_eq(p.kernels[2].start, 6);
	ck_assert_uint_eq(p.kernels[2].end, 6);
	ck_assert_uint_eq(p.nnodes, 3);
	ck_assert_str_eq(p.nodes[0].target, "aten.addmm.default");
	ck_assert_str_eq(p.nodes[0].module, "layers.0.mlp");
	ck_assert_str_eq(p.nodes[0].source, "models.py:251");
	ck_assert_str_eq(p.nodes[1].target, "");
	ck_assert_uint_eq(p.kernels[1].node_count, 2);
	ck_assert_uint_eq(p.kernel_nodes[p.kernels[1].node_first], 0);
	ck_assert_str_eq(p.nodes[2].target, "aten.relu.default");
	disasm_round_trip(&p);
	npu_prog_free(&p);
}
END_TEST

/* ---- errors ---------------------------------------------------------- */

START_TEST(error_messages)
{
	static const struct { const char *in, *msg; } t[] = {
		{ "nop\nnop\n add x1, x2, x32\n", "t.s:3:14: unknown register 'x32'" },
		{ "vadd v1, v2, x3", "t.s:1:14: expected a vector register, got 'x3'" },
		{ "\n\n\n\nvadx v1, v2, v3\n", "t.s:5:1: unknown mnemonic 'vadx'" },
		{ "nop\nnop\nnop\nnop\nnop\nnop\n\tbne x1, x0, loop\n",
		  "t.s:7:14: label 'loop' is not defined" },
		{ "nop\naddi x1, x2, 4294967296\n",
		  "t.s:2:14: value 4294967296 does not fit in 32 bits" },
		{ "li x1, 2147483648", "t.s:1:8: value 2147483648 does not fit in 32 bits" },
		{ "li x1, 99999999999999999999", "t.s:1:8: value 99999999999999999999 does not fit in 64 bits" },
		{ "nop\n.endkernel\n", "t.s:2:1: .endkernel without .kernel" },
		{ ".kernel k\nnop\n", "t.s:1:1: kernel 'k' has no .endkernel" },
		{ ".kernel k\n.kernel j\n", "t.s:2:1: .kernel inside the kernel started at line 1 (missing .endkernel)" },
		{ "add x1, x2", "t.s:1:11: 'add' takes 3 operands, got 2" },
		{ "halt x1", "t.s:1:6: unexpected 'x1' at end of line" },
		{ "add x1, x2, x3, x4", "t.s:1:15: 'add' takes 3 operands, got more" },
		{ "add x1 x2, x3", "t.s:1:8: expected ',', got 'x2'" },
		{ "a: nop\na: nop\n", "t.s:2:1: label 'a' is already defined at line 1" },
		{ ".buffer b f32 [1] input\n.buffer b f32 [1] input\n",
		  "t.s:2:9: buffer 'b' is already defined at line 1" },
		{ ".buffer b f32 [1] const\n", "t.s:1:19: a const buffer takes its values: use .data" },
		{ ".buffer b f32 [1] weird\n", "t.s:1:19: unknown buffer kind 'weird'" },
		{ ".buffer b f33 [1] input\n", "t.s:1:11: unknown data type 'f33'" },
		{ ".data c f32 [3] 1, 2\n", "t.s:1:21: buffer 'c' has 3 elements, got 2 values" },
		{ ".data c f32 [1] 1, 2\n", "t.s:1:20: buffer 'c' has 1 elements, got more values" },
		{ ".data c i8 [1] 128\n", "t.s:1:16: value 128 does not fit in i8" },
		{ ".data c f32 [1] 1.5x\n", "t.s:1:17: invalid number '1.5x'" },
		{ "li x1, &nope", "t.s:1:9: buffer 'nope' is not defined" },
		{ "li x1, sizeof(nope)", "t.s:1:15: buffer 'nope' is not defined" },
		{ "li x1, N", "t.s:1:8: 'N' is not defined (.equ)" },
		{ ".equ N, 1\n.equ N, 2\n", "t.s:2:6: 'N' is already defined at line 1" },
		{ "sig dma9, s0", "t.s:1:5: unknown unit 'dma9'" },
		{ "wait vec, s32", "t.s:1:11: unknown semaphore 's32'" },
		{ "dcfg dma8, rowb, x1", "t.s:1:6: unknown DMA engine 'dma8'" },
		{ "dcfg dma0, rows, x1", "t.s:1:12: unknown DMA field 'rows'" },
		{ "vli v0, one", "t.s:1:9: expected a float, got 'one'" },
		{ "vli v0, 0x100000000", "t.s:1:9: value 0x100000000 does not fit in 32 bits" },
		{ "jmp 5", "t.s:1:5: expected a label or @N, got '5'" },
		{ ".frob 1", "t.s:1:1: unknown directive '.frob'" },
		{ "li x1, \"abc", "t.s:1:8: unterminated string" },
		{ "li x1, 1 ! 2", "t.s:1:10: unexpected '!' at end of line" },
		{ ".target a\n.target b\n", "t.s:2:9: .target is given twice" },
		{ ".buffer a f32 [4] input\n.buffer b f32 [4] input @8\n",
		  "t.s:2:9: buffer 'b' overlaps buffer 'a' in DRAM" },
		{ ".buffer a f32 [4] input\n.dram 8\n",
		  "t.s:2:7: .dram 8 is smaller than the buffers, which end at 16" },
		{ ".word 0xff", "t.s:1:7: 0x00000000000000ff is not a valid instruction word" },
		{ "li x1, 1 +", "t.s:1:11: expected an integer, got end of line" },
		{ "li x1, 0x7fffffffffffffff * 2", "t.s:1:27: integer overflow in expression" },
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		asm_fails(t[i].in, t[i].msg);
}
END_TEST

START_TEST(no_crash_on_junk)
{
	static const char *const junk[] = {
		"", "\n\n", ":", "@", "&", "li x1, ((((((((((((((((1", "\"", ".kernel",
		".data", ".data x", ".data x f32", ".data x f32 [", ".data x f32 [1",
		".buffer x f32 [1,2,3,4,5,6,7,8,9] input", "li x1, --------1",
		".kernel k a=\n.endkernel", "vli v0, -", "\x00\x01\xff", "x: y: z:",
		".equ", ".equ A", ".kernel \"\\q\"", ".buffer \"\" f32 [1] input",
	};
	char deep[400];
	npu_err e;
	npu_prog p;

	for (size_t i = 0; i < sizeof junk / sizeof *junk; i++) {
		size_t n = i && !junk[i][0] ? 3 : strlen(junk[i]);
		if (npu_asm("j.s", junk[i], n, &p, &e) == 0)
			npu_prog_free(&p);
		else
			ck_assert_msg(!strncmp(e.msg, "j.s:", 4), "%s", e.msg);
	}
	memset(deep, '(', sizeof deep);
	memcpy(deep, "li x1, ", 7);
	ck_assert_int_eq(npu_asm("d.s", deep, sizeof deep, &p, &e), -1);
	ck_assert_str_eq(e.msg, "d.s:1:73: expression nested too deeply");
}
END_TEST

/* Linear time: 200000 instructions and labels assemble quickly. */
START_TEST(large_input)
{
	size_t n = 200000, len = 0;
	char *text = malloc(n * 64);
	npu_prog p;

	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "l%zu: addi x1, x1, %zu\n bne x1, x0, l%zu\n",
				       i, i, (i * 7919) % n);
	asm_ok(text, &p);
	ck_assert_uint_eq(p.ncode, 2 * n);
	npu_prog_free(&p);
	free(text);
}
END_TEST

/* ---- files and commands ---------------------------------------------- */

static char tmpdir[4096];

static void mk_tmp(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof tmpdir, "%s/check_asm-XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rm_tmp(void)
{
	char cmd[8192];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(file_round_trip)
{
	char src[4096], bin[4096];
	npu_prog p, q;
	npu_err e = { "" };

	mk_tmp();
	snprintf(src, sizeof src, "%s/tests/data/asm/asm_data.s", srcdir());
	snprintf(bin, sizeof bin, "%s/data.bin", tmpdir);
	ck_assert_msg(npu_asm_file(src, &p, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_prog_write(&p, bin, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_prog_read(&q, bin, &e) == 0, "%s", e.msg);
	progs_equal(&p, &q);
	disasm_round_trip(&q);
	npu_prog_free(&p);
	npu_prog_free(&q);
	rm_tmp();
}
END_TEST

/* Runs the npusim program with args; returns its exit status. */
static int npusim(const char *args, const char *out)
{
	const char *top = getenv("top_builddir");
	char cmd[16384];
	int st;

	snprintf(cmd, sizeof cmd, "'%s/npusim' %s >'%s/%s' 2>'%s/err'",
		 top ? top : ".", args, tmpdir, out, tmpdir);
	st = system(cmd);
	ck_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static char *tmp_file(const char *name)
{
	char path[8192];

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	return slurp(path, NULL);
}

START_TEST(subcommands)
{
	char args[16384], *out, *err, *doc;
	npu_prog p, q;
	npu_err e = { "" };

	mk_tmp();
	snprintf(args, sizeof args, "asm '%s/tests/data/asm/asm_vadd.s' -o '%s/v.bin'",
		 srcdir(), tmpdir);
	ck_assert_int_eq(npusim(args, "out"), 0);
	snprintf(args, sizeof args, "disasm '%s/v.bin'", tmpdir);
	ck_assert_int_eq(npusim(args, "v.s"), 0);
	/* The listing assembles back to the same program. */
	snprintf(args, sizeof args, "asm '%s/v.s' -o '%s/v2.bin'", tmpdir, tmpdir);
	ck_assert_int_eq(npusim(args, "out"), 0);
	snprintf(args, sizeof args, "%s/v.bin", tmpdir);
	ck_assert_msg(npu_prog_read(&p, args, &e) == 0, "%s", e.msg);
	snprintf(args, sizeof args, "%s/v2.bin", tmpdir);
	ck_assert_msg(npu_prog_read(&q, args, &e) == 0, "%s", e.msg);
	progs_equal(&p, &q);
	ck_assert_str_eq(p.target_name, "npu-base");
	ck_assert_uint_eq(p.target_hash, 0);
	npu_prog_free(&p);
	npu_prog_free(&q);
	out = tmp_file("v.s");
	ck_assert_ptr_nonnull(strstr(out, "\tvadd v3, v1, v2\n"));
	free(out);

	/* --target records the target's name and hash */
	snprintf(args, sizeof args, "asm '%s/tests/data/asm/asm_vadd.s' -o '%s/t.bin' "
		 "--target '%s/targets/npu-base.ini'", srcdir(), tmpdir, srcdir());
	ck_assert_int_eq(npusim(args, "out"), 0);
	snprintf(args, sizeof args, "%s/t.bin", tmpdir);
	ck_assert_msg(npu_prog_read(&p, args, &e) == 0, "%s", e.msg);
	ck_assert_str_eq(p.target_name, "npu-base");
	ck_assert_uint_ne(p.target_hash, 0);
	npu_prog_free(&p);
	snprintf(args, sizeof args, "asm '%s/tests/data/asm/asm_vadd.s' -o '%s/t.bin' "
		 "--target '%s/targets/npu-edge.ini'", srcdir(), tmpdir, srcdir());
	ck_assert_int_eq(npusim(args, "out"), 2);

	/* bad input and bad usage: exit 2, message on stderr */
	snprintf(args, sizeof args, "%s/bad.s", tmpdir);
	FILE *f = fopen(args, "w");
	fputs("nop\n  frob x1\n", f);
	fclose(f);
	snprintf(args, sizeof args, "asm '%s/bad.s' -o '%s/b.bin'", tmpdir, tmpdir);
	ck_assert_int_eq(npusim(args, "out"), 2);
	err = tmp_file("err");
	ck_assert_ptr_nonnull(strstr(err, "bad.s:2:3: unknown mnemonic 'frob'"));
	free(err);
	ck_assert_int_eq(npusim("asm", "out"), 2);
	ck_assert_int_eq(npusim("asm x.s", "out"), 2);
	ck_assert_int_eq(npusim("disasm", "out"), 2);
	snprintf(args, sizeof args, "disasm '%s/bad.s'", tmpdir);
	ck_assert_int_eq(npusim(args, "out"), 2);
	ck_assert_int_eq(npusim("isa-doc extra", "out"), 2);
	ck_assert_int_eq(npusim("asm --help", "out"), 0);
	ck_assert_int_eq(npusim("disasm --help", "out"), 0);
	ck_assert_int_eq(npusim("isa-doc --help", "out"), 0);

	/* isa-doc prints npu_isa_doc() */
	ck_assert_int_eq(npusim("isa-doc", "isa.md"), 0);
	out = tmp_file("isa.md");
	doc = npu_isa_doc();
	ck_assert_str_eq(out, doc);
	free(out);
	free(doc);
	rm_tmp();
}
END_TEST

/* ---- docs/ISA.md ------------------------------------------------------ */

START_TEST(isa_doc_is_current)
{
	char path[4096], *want, *doc = npu_isa_doc();
	size_t n;

	snprintf(path, sizeof path, "%s/docs/ISA.md", srcdir());
	ck_assert_ptr_nonnull(doc);
	want = slurp(path, &n);
	ck_assert_msg(want != NULL, "%s is missing", path);
	ck_assert_msg(n == strlen(doc) && !memcmp(want, doc, n),
		      "docs/ISA.md is stale: regenerate it with "
		      "`npusim isa-doc > docs/ISA.md`");
	/* every mnemonic and opcode is in it */
	for (int i = 0; i < npu_nops(); i++) {
		char row[64];
		snprintf(row, sizeof row, "| `%s` | 0x%02x |",
			 npu_op_nth(i)->mnemonic, npu_op_nth(i)->opcode);
		ck_assert_msg(strstr(doc, row), "%s missing", row);
	}
	ck_assert_ptr_nonnull(strstr(doc, "0x40000000"));
	free(want);
	free(doc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("asm");
	TCase *tc = tcase_create("asm");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, round_trip_every_opcode);
	tcase_add_test(tc, operand_spellings);
	tcase_add_test(tc, buffers_and_layout);
	tcase_add_test(tc, names_round_trip);
	tcase_add_test(tc, const_data_every_dtype);
	tcase_add_test(tc, error_messages);
	tcase_add_test(tc, no_crash_on_junk);
	tcase_add_test(tc, large_input);
	tcase_add_test(tc, file_round_trip);
	tcase_add_test(tc, subcommands);
	tcase_add_test(tc, isa_doc_is_current);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
