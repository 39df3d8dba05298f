/*
 * check_isa.c - the instruction table and its encode/decode/disassembly,
 * and the text round trip of single instructions through the assembler
 * (whole programs are in check_asm.c).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/isa.h"

/* An instruction of opcode op with every operand set to a valid value. */
static npu_insn sample(const npu_opinfo *oi, int variant)
{
	const npu_fmtinfo *fi = &npu_fmttab[oi->fmt];
	npu_insn in = { oi->opcode, 0, 0, 0, 0 };

	for (int i = 0; i < fi->nopd; i++) {
		int64_t v;
		switch (fi->opd[i].kind) {
		case NPU_K_X: case NPU_K_V: case NPU_K_S: v = (7 * i + variant) % 32; break;
		case NPU_K_U: v = (i + variant) % NPU_NUNIT; break;
		case NPU_K_Q: v = variant % NPU_MAX_DMA; break;
		case NPU_K_D: v = variant % NPU_NDFIELD; break;
		case NPU_K_T: v = variant % NPU_NDTYPE; break;
		case NPU_K_F: v = (int32_t)0x3fc00000 + variant; break;
		case NPU_K_L: v = -3 + variant; break;
		default: v = variant ? -123456 * variant : 0x7fffffff; break;
		}
		npu_opd_set(&in, &fi->opd[i], v);
	}
	return in;
}

START_TEST(encode_decode_every_opcode)
{
	ck_assert_int_gt(npu_nops(), 60);
	for (int i = 0; i < npu_nops(); i++) {
		const npu_opinfo *oi = npu_op_nth(i);
		for (int v = 0; v < 5; v++) {
			npu_insn in = sample(oi, v), out;
			uint64_t w = npu_encode(&in);
			ck_assert_msg(npu_decode(w, &out) == 0, "%s", oi->mnemonic);
			ck_assert_int_eq(out.op, in.op);
			ck_assert_int_eq(out.a, in.a);
			ck_assert_int_eq(out.b, in.b);
			ck_assert_int_eq(out.c, in.c);
			ck_assert_int_eq(out.imm, in.imm);
			ck_assert_uint_eq(npu_encode(&out), w);
		}
	}
}
END_TEST

START_TEST(illegal_words_rejected)
{
	npu_insn out;
	int illegal = 0;

	for (int op = 0; op < 256; op++)
		if (!npu_optab[op].mnemonic) {
			ck_assert_int_eq(npu_decode((uint64_t)op, &out), -1);
			illegal++;
		}
	ck_assert_int_gt(illegal, 100); /* room for new opcodes */
	/* register out of range */
	ck_assert_int_eq(npu_decode(NPU_OP_ADD | 40u << 8, &out), -1);
	/* unused field set: halt with a nonzero imm */
	ck_assert_int_eq(npu_decode(NPU_OP_HALT | 1ull << 32, &out), -1);
	/* bad dtype */
	ck_assert_int_eq(npu_decode(NPU_OP_VRND | (uint64_t)NPU_NDTYPE << 24, &out), -1);
}
END_TEST

START_TEST(mnemonics_unique_and_found)
{
	for (int i = 0; i < npu_nops(); i++) {
		const npu_opinfo *oi = npu_op_nth(i);
		ck_assert_ptr_eq(npu_op_by_mnemonic(oi->mnemonic, strlen(oi->mnemonic)), oi);
		for (int j = i + 1; j < npu_nops(); j++)
			ck_assert_str_ne(oi->mnemonic, npu_op_nth(j)->mnemonic);
	}
	ck_assert_ptr_null(npu_op_by_mnemonic("vadd.x", 6));
}
END_TEST

START_TEST(disasm_formats)
{
	char buf[128];
	npu_insn add = { NPU_OP_ADD, 1, 2, 3, 0 };
	npu_insn vld = { NPU_OP_VLD, 4, 5, NPU_DT_BF16, 64 };
	npu_insn beq = { NPU_OP_BEQ, 1, 0, 0, -2 };
	npu_insn sig = { NPU_OP_SIG, NPU_UNIT_DMA0 + 1, 3, 0, 0 };
	npu_insn vli = { NPU_OP_VLI, 2, 0, 0, 0x3f800000 };

	npu_disasm(&add, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "add x1, x2, x3");
	npu_disasm(&vld, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "vld v4, x5, 64, bf16");
	npu_disasm(&beq, 10, buf, sizeof buf);
	ck_assert_str_eq(buf, "beq x1, x0, @8");
	npu_disasm(&sig, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "sig dma1, s3");
	npu_disasm(&vli, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "vli v2, 1.0");
}
END_TEST

START_TEST(dtype_and_unit_names)
{
	ck_assert_int_eq(npu_dtype_from_name("bfloat16", 8), NPU_DT_BF16);
	ck_assert_int_eq(npu_dtype_from_name("bf16", 4), NPU_DT_BF16);
	ck_assert_int_eq(npu_dtype_size(NPU_DT_E4M3), 1);
	ck_assert_int_eq(npu_dtype_from_name("float", 5), -1);
	ck_assert_int_eq(npu_unit_from_name("dma7", 4), NPU_UNIT_DMA0 + 7);
	ck_assert_int_eq(npu_unit_from_name("dma8", 4), -1);
	ck_assert_int_eq(npu_dfield_from_name("ss2", 3), NPU_DF_SS2);
}
END_TEST

/* npu_disasm() text assembles back to the same word, for every opcode. */
START_TEST(disasm_text_assembles_back)
{
	for (int i = 0; i < npu_nops(); i++) {
		const npu_opinfo *oi = npu_op_nth(i);
		for (int v = 0; v < 5; v++) {
			npu_insn in = sample(oi, v);
			char buf[128];
			npu_prog p;
			npu_err e;
			/* at pc 0 a branch would print "@-3": put it at pc 8 */
			int n = snprintf(buf, sizeof buf, "nop\nnop\nnop\nnop\n"
					 "nop\nnop\nnop\nnop\n");
			npu_disasm(&in, 8, buf + n, sizeof buf - (size_t)n);
			ck_assert_msg(npu_asm("one.s", buf, strlen(buf), &p, &e) == 0,
				      "%s: %s", buf + n, e.msg);
			ck_assert_uint_eq(p.ncode, 9);
			ck_assert_msg(p.code[8] == npu_encode(&in), "%s", buf + n);
			npu_prog_free(&p);
		}
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("isa");
	TCase *tc = tcase_create("table");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, encode_decode_every_opcode);
	tcase_add_test(tc, illegal_words_rejected);
	tcase_add_test(tc, mnemonics_unique_and_found);
	tcase_add_test(tc, disasm_formats);
	tcase_add_test(tc, dtype_and_unit_names);
	tcase_add_test(tc, disasm_text_assembles_back);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
