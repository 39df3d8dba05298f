/*
 * check_quant.c - quantization-aware lowering end to end: the quantized
 * fixtures (PT2E Q/DQ around a linear layer; _int_mm with a per-row and
 * per-channel rescale) compile to int8 matmuls with no host call and
 * match PyTorch bit for bit; stand-alone quantize rounds half to even and
 * clamps as PyTorch does; a pattern that cannot run in int8 falls back,
 * stays correct and says why.  The harness is tests/fxrun.c.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/driver.h"
#include "isa/dtype.h"
#include "isa/st.h"
#include "tests/fxrun.h"

/* What a compile made of the graph (filled by inspect). */
typedef struct seen {
	int host, host_k, mm_i8, mm_other, mm_e4m3;
	int matched, fellback;
	const char *expect;     /* a pass-log prefix that must appear */
	int expect_n;
} seen;

static void inspect(const npu_ccresult *r, void *ctx)
{
	seen *s = ctx;

	for (int k = 0; k < r->ir.nk; k++) {
		const npu_kern *K = &r->ir.k[k];
		if (K->kind == NPU_KK_HOST)
			s->host++;
		if (K->kind == NPU_KK_HOST && K->hreason &&
		    !strncmp(K->hreason, "_int_mm with K > 1024", 21))
			s->host_k++;
		if (K->kind == NPU_KK_MM && K->nops) {
			if (K->mm_dtype == NPU_DT_I8 &&
			    r->ir.v[K->ops[K->mm_a].val].dtype == NPU_DT_I8 &&
			    r->ir.v[K->ops[K->mm_b].val].dtype == NPU_DT_I8)
				s->mm_i8++;
			else
				s->mm_other++;
			if (K->mm_dtype == NPU_DT_E4M3 &&
			    r->ir.v[K->ops[K->mm_a].val].dtype == NPU_DT_E4M3 &&
			    r->ir.v[K->ops[K->mm_b].val].dtype == NPU_DT_E4M3)
				s->mm_e4m3++;
		}
	}
	s->matched = npu_passlog_count(&r->plog, NPU_PASS_QUANT, "matched");
	s->fellback = npu_passlog_count(&r->plog, NPU_PASS_QUANT, "fell back");
	if (s->expect)
		s->expect_n = npu_passlog_count(&r->plog, NPU_PASS_QUANT, s->expect);
}

/* _int_mm with dynamic per-row int8 activations and per-channel weights */
START_TEST(t_int8_mm)
{
	seen s = { 0 };
	fxrun fr = { .inspect = inspect, .inspect_ctx = &s };

	fx_setup_tmp();
	fx_run_fixture("quant_int8_mm", &fr);
	ck_assert_int_eq(s.host, 0);
	ck_assert_uint_eq(fr.host_calls, 0);
	ck_assert_int_eq(s.mm_i8, 1);
	ck_assert_int_eq(s.mm_other, 0);
	/* the same fp32 operations as eager PyTorch, in the same order */
	ck_assert_msg(fr.worst_rec == 0, "relative error %g", fr.worst_rec);
	fx_teardown_tmp();
}
END_TEST

/* PT2E: quantize, dequantize, linear, relu, quantize, dequantize */
START_TEST(t_qdq_linear)
{
	seen s = { .expect = "matched dq_linear+relu+requantize+dequantize at addmm" };
	fxrun fr = { .inspect = inspect, .inspect_ctx = &s };

	fx_setup_tmp();
	fx_run_fixture("quant_qdq_linear", &fr);
	ck_assert_int_eq(s.host, 0);
	ck_assert_uint_eq(fr.host_calls, 0);
	ck_assert_int_eq(s.mm_i8, 1);
	ck_assert_int_eq(s.mm_other, 0);
	ck_assert_int_eq(s.expect_n, 1);
	ck_assert_int_eq(s.fellback, 0);
	/* the requantized int8 values are PyTorch's: the dequantized output
	 * is then the same float */
	ck_assert_msg(fr.worst_rec == 0, "relative error %g", fr.worst_rec);
	/* one kernel quantizes x, the other is the whole layer */
	ck_assert_int_eq(fr.nkernels, 2);
	fx_teardown_tmp();
}
END_TEST

/*
 * A graph written here (the weight's placeholder kind filled in): x
 * quantized (scale 0.5, zero point -1, so x * 2 hits every tie) and
 * returned as int8; and a linear layer whose weight has zero point 2.
 * Frozen, it runs in int8 with both zero points corrected; as a run-time
 * input it falls back (the activation's zero point needs the weight's
 * column sums at compile time) to a float matmul on dequantized
 * operands, still without a host call.  Checked against the fp64
 * reference (int8 bit-exact).
 */
static const char qgraph[] =
	"{\"format\": \"fxgraph\", \"version\": 1, \"name\": \"qfallback\","
	" \"graph_kind\": \"inference\", \"nodes\": ["
	"{\"name\": \"x\", \"op\": \"placeholder\", \"target\": \"x\", \"args\": [],"
	" \"kwargs\": {}, \"kind\": \"input\", \"meta\": {\"shape\": [8, 64],"
	" \"dtype\": \"float32\", \"stride\": [64, 1], \"storage_offset\": 0}},"
	"{\"name\": \"w\", \"op\": \"placeholder\", \"target\": \"w\", \"args\": [],"
	" \"kwargs\": {}, \"kind\": \"%s\", \"meta\": {\"shape\": [16, 64],"
	" \"dtype\": \"int8\", \"stride\": [64, 1], \"storage_offset\": 0}},"
	"{\"name\": \"q\", \"op\": \"call_function\","
	" \"target\": \"quantized_decomposed.quantize_per_tensor.default\","
	" \"args\": [{\"node\": \"x\"}, 0.5, -1, -128, 127, {\"dtype\": \"int8\"}],"
	" \"kwargs\": {}, \"meta\": {\"shape\": [8, 64], \"dtype\": \"int8\","
	" \"stride\": [64, 1], \"storage_offset\": 0}},"
	"{\"name\": \"dq\", \"op\": \"call_function\","
	" \"target\": \"quantized_decomposed.dequantize_per_tensor.default\","
	" \"args\": [{\"node\": \"q\"}, 0.5, -1, -128, 127, {\"dtype\": \"int8\"}],"
	" \"kwargs\": {}, \"meta\": {\"shape\": [8, 64], \"dtype\": \"float32\","
	" \"stride\": [64, 1], \"storage_offset\": 0}},"
	"{\"name\": \"dqw\", \"op\": \"call_function\","
	" \"target\": \"quantized_decomposed.dequantize_per_tensor.default\","
	" \"args\": [{\"node\": \"w\"}, 0.01, 2, -128, 127, {\"dtype\": \"int8\"}],"
	" \"kwargs\": {}, \"meta\": {\"shape\": [16, 64], \"dtype\": \"float32\","
	" \"stride\": [64, 1], \"storage_offset\": 0}},"
	"{\"name\": \"wt\", \"op\": \"call_function\", \"target\": \"aten.permute.default\","
	" \"args\": [{\"node\": \"dqw\"}, [1, 0]], \"kwargs\": {}, \"meta\": {\"shape\":"
	" [64, 16], \"dtype\": \"float32\", \"stride\": [1, 64], \"storage_offset\": 0}},"
	"{\"name\": \"mm\", \"op\": \"call_function\", \"target\": \"aten.mm.default\","
	" \"args\": [{\"node\": \"dq\"}, {\"node\": \"wt\"}], \"kwargs\": {}, \"meta\":"
	" {\"shape\": [8, 16], \"dtype\": \"float32\", \"stride\": [16, 1],"
	" \"storage_offset\": 0}},"
	"{\"name\": \"output\", \"op\": \"output\", \"target\": \"output\","
	" \"args\": [[{\"node\": \"q\"}, {\"node\": \"mm\"}]], \"kwargs\": {}}]}";

static void run_qgraph(const char *wkind, seen *s)
{
	fxrun fr = { .inspect = inspect, .inspect_ctx = s };
	char gpath[1024], vpath[1024];
	float x[8 * 64];
	int8_t w[16 * 64];
	npu_tensor t[2] = {
		{ .name = "x", .dtype = NPU_DT_F32, .ndim = 2, .shape = { 8, 64 },
		  .nbytes = sizeof x, .data = x },
		{ .name = "w", .dtype = NPU_DT_I8, .ndim = 2, .shape = { 16, 64 },
		  .nbytes = sizeof w, .data = w },
	};
	npu_stfile st;
	npu_err e;
	FILE *f;

	fx_setup_tmp();
	/* quarters from -64 to 64 (x * 2: every half a tie), then values
	 * beyond the clamp */
	for (int i = 0; i < 8 * 64; i++)
		x[i] = i < 8 * 64 - 16 ? (float)(i - 256) * 0.25f
				       : (i % 2 ? 1000.0f : -1000.0f);
	for (int i = 0; i < 16 * 64; i++)
		w[i] = (int8_t)((i * 37) % 255 - 127);
	snprintf(gpath, sizeof gpath, "%s/g.json", fx_tmpdir);
	snprintf(vpath, sizeof vpath, "%s/v.safetensors", fx_tmpdir);
	ck_assert_ptr_nonnull(f = fopen(gpath, "w"));
	fprintf(f, qgraph, wkind);
	fclose(f);
	ck_assert_msg(npu_st_write(vpath, t, 2, NULL, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_st_read(&st, vpath, &e) == 0, "%s", e.msg);
	fx_run_values(gpath, &st, 0, &fr);
	npu_st_free(&st);
	ck_assert_int_eq(s->expect_n, 1);
	ck_assert_int_eq(s->host, 0);
	ck_assert_uint_eq(fr.host_calls, 0);
	unlink(gpath);
	unlink(vpath);
	fx_teardown_tmp();
}

START_TEST(t_standalone_and_fallback)
{
	seen s = { .expect = "fell back dq_linear at mm: activation zero point -1 "
			     "with a weight that is not frozen" };

	run_qgraph("input", &s);
	ck_assert_int_eq(s.matched, 0);
	ck_assert_int_eq(s.mm_i8, 0);
}
END_TEST

START_TEST(t_weight_zero_point)
{
	seen s = { .expect = "matched dq_linear at mm: dq x dqw" };

	run_qgraph("buffer", &s);
	ck_assert_int_eq(s.fellback, 0);
	ck_assert_int_eq(s.mm_i8, 1);
}
END_TEST

/*
 * The quantizer styles of x86 and XNNPACK: uint8 activations with zero
 * point 128 (shifted to int8 for the array) and int8 weights with
 * per-channel scales (dequantize_per_channel); the result is requantized
 * to int8 (bit-exact against the fp64 reference) and also returned as
 * float.
 */
static const char cgraph[] =
	"{\"format\": \"fxgraph\", \"version\": 1, \"name\": \"qchannel\""
	", \"graph_kind\": \"inference\", \"nodes\": [{\"name\": \"x\""
	", \"op\": \"placeholder\", \"target\": \"x\", \"args\": [], \"kwargs\": {}"
	", \"kind\": \"input\", \"meta\": {\"shape\": [8, 64], \"dtype\": \"float32\""
	", \"stride\": [64, 1], \"storage_offset\": 0}}, {\"name\": \"w\""
	", \"op\": \"placeholder\", \"target\": \"w\", \"args\": [], \"kwargs\": {}"
	", \"kind\": \"buffer\", \"meta\": {\"shape\": [16, 64], \"dtype\": \"int8\""
	", \"stride\": [64, 1], \"storage_offset\": 0}}, {\"name\": \"ws\""
	", \"op\": \"placeholder\", \"target\": \"ws\", \"args\": [], \"kwargs\": {}"
	", \"kind\": \"buffer\", \"meta\": {\"shape\": [16], \"dtype\": \"float32\""
	", \"stride\": [1], \"storage_offset\": 0}}, {\"name\": \"wz\""
	", \"op\": \"placeholder\", \"target\": \"wz\", \"args\": [], \"kwargs\": {}"
	", \"kind\": \"buffer\", \"meta\": {\"shape\": [16], \"dtype\": \"int64\""
	", \"stride\": [1], \"storage_offset\": 0}}, {\"name\": \"b\""
	", \"op\": \"placeholder\", \"target\": \"b\", \"args\": [], \"kwargs\": {}"
	", \"kind\": \"parameter\", \"meta\": {\"shape\": [16]"
	", \"dtype\": \"float32\", \"stride\": [1], \"storage_offset\": 0}}"
	", {\"name\": \"q\", \"op\": \"call_function\""
	", \"target\": \"quantized_decomposed.quantize_per_tensor.default\""
	", \"args\": [{\"node\": \"x\"}, 0.03, 128, 0, 255, {\"dtype\": \"uint8\"}]"
	", \"kwargs\": {}, \"meta\": {\"shape\": [8, 64], \"dtype\": \"uint8\""
	", \"stride\": [64, 1], \"storage_offset\": 0}}, {\"name\": \"dq\""
	", \"op\": \"call_function\""
	", \"target\": \"quantized_decomposed.dequantize_per_tensor.default\""
	", \"args\": [{\"node\": \"q\"}, 0.03, 128, 0, 255, {\"dtype\": \"uint8\"}]"
	", \"kwargs\": {}, \"meta\": {\"shape\": [8, 64], \"dtype\": \"float32\""
	", \"stride\": [64, 1], \"storage_offset\": 0}}, {\"name\": \"dqw\""
	", \"op\": \"call_function\""
	", \"target\": \"quantized_decomposed.dequantize_per_channel.default\""
	", \"args\": [{\"node\": \"w\"}, {\"node\": \"ws\"}, {\"node\": \"wz\"}, 0"
	", -127, 127, {\"dtype\": \"int8\"}], \"kwargs\": {}"
	", \"meta\": {\"shape\": [16, 64], \"dtype\": \"float32\", \"stride\": [64"
	", 1], \"storage_offset\": 0}}, {\"name\": \"wt\""
	", \"op\": \"call_function\", \"target\": \"aten.permute.default\""
	", \"args\": [{\"node\": \"dqw\"}, [1, 0]], \"kwargs\": {}"
	", \"meta\": {\"shape\": [64, 16], \"dtype\": \"float32\", \"stride\": [1"
	", 64], \"storage_offset\": 0}}, {\"name\": \"lin\""
	", \"op\": \"call_function\", \"target\": \"aten.addmm.default\""
	", \"args\": [{\"node\": \"b\"}, {\"node\": \"dq\"}, {\"node\": \"wt\"}]"
	", \"kwargs\": {}, \"meta\": {\"shape\": [8, 16], \"dtype\": \"float32\""
	", \"stride\": [16, 1], \"storage_offset\": 0}}, {\"name\": \"qo\""
	", \"op\": \"call_function\""
	", \"target\": \"quantized_decomposed.quantize_per_tensor.default\""
	", \"args\": [{\"node\": \"lin\"}, 0.05, 0, -128, 127"
	", {\"dtype\": \"int8\"}], \"kwargs\": {}, \"meta\": {\"shape\": [8, 16]"
	", \"dtype\": \"int8\", \"stride\": [16, 1], \"storage_offset\": 0}}"
	", {\"name\": \"output\", \"op\": \"output\", \"target\": \"output\""
	", \"args\": [[{\"node\": \"qo\"}, {\"node\": \"lin\"}]], \"kwargs\": {}}]}";

START_TEST(t_uint8_per_channel)
{
	seen s = { .expect = "matched dq_linear at lin: dq x dqw" };
	fxrun fr = { .inspect = inspect, .inspect_ctx = &s };
	char gpath[1024], vpath[1024];
	float x[8 * 64], ws[16], b[16];
	int8_t w[16 * 64];
	int64_t wz[16] = { 0 };
	npu_tensor t[5] = {
		{ .name = "x", .dtype = NPU_DT_F32, .ndim = 2, .shape = { 8, 64 },
		  .nbytes = sizeof x, .data = x },
		{ .name = "w", .dtype = NPU_DT_I8, .ndim = 2, .shape = { 16, 64 },
		  .nbytes = sizeof w, .data = w },
		{ .name = "ws", .dtype = NPU_DT_F32, .ndim = 1, .shape = { 16 },
		  .nbytes = sizeof ws, .data = ws },
		{ .name = "wz", .dtype = NPU_DT_I64, .ndim = 1, .shape = { 16 },
		  .nbytes = sizeof wz, .data = wz },
		{ .name = "b", .dtype = NPU_DT_F32, .ndim = 1, .shape = { 16 },
		  .nbytes = sizeof b, .data = b },
	};
	npu_stfile st;
	npu_err e;
	FILE *f;

	fx_setup_tmp();
	for (int i = 0; i < 8 * 64; i++)
		x[i] = (float)((i * 53) % 509) / 509.0f * 8.0f - 4.0f;
	for (int i = 0; i < 16 * 64; i++)
		w[i] = (int8_t)((i * 37) % 255 - 127);
	for (int n = 0; n < 16; n++) {
		ws[n] = 0.001f * (float)(1 + n % 5);
		b[n] = 0.1f * (float)(n - 8);
	}
	snprintf(gpath, sizeof gpath, "%s/g.json", fx_tmpdir);
	snprintf(vpath, sizeof vpath, "%s/v.safetensors", fx_tmpdir);
	ck_assert_ptr_nonnull(f = fopen(gpath, "w"));
	fputs(cgraph, f);
	fclose(f);
	ck_assert_msg(npu_st_write(vpath, t, 5, NULL, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_st_read(&st, vpath, &e) == 0, "%s", e.msg);
	fx_run_values(gpath, &st, 0, &fr);
	npu_st_free(&st);
	ck_assert_int_eq(s.expect_n, 1);
	ck_assert_int_eq(s.fellback, 0);
	ck_assert_int_eq(s.host, 0);
	ck_assert_uint_eq(fr.host_calls, 0);
	ck_assert_int_eq(s.mm_i8, 1);
	unlink(gpath);
	unlink(vpath);
	fx_teardown_tmp();
}
END_TEST

/*
 * _int_mm whose int32 result is the graph's output, with the extreme
 * products (-128 * -128): bit-exact on the array for K = 1024, a host
 * call (reported) for K = 2048, where the sums may leave fp32's exact
 * range in the epilogue.
 */
static const char igraph[] =
	"{\"format\": \"fxgraph\", \"version\": 1, \"name\": \"intmm\","
	" \"graph_kind\": \"inference\", \"nodes\": ["
	"{\"name\": \"a\", \"op\": \"placeholder\", \"target\": \"a\", \"args\": [],"
	" \"kwargs\": {}, \"kind\": \"input\", \"meta\": {\"shape\": [8, %d],"
	" \"dtype\": \"int8\", \"stride\": [%d, 1], \"storage_offset\": 0}},"
	"{\"name\": \"b\", \"op\": \"placeholder\", \"target\": \"b\", \"args\": [],"
	" \"kwargs\": {}, \"kind\": \"buffer\", \"meta\": {\"shape\": [%d, 16],"
	" \"dtype\": \"int8\", \"stride\": [16, 1], \"storage_offset\": 0}},"
	"{\"name\": \"mm\", \"op\": \"call_function\", \"target\": \"aten._int_mm.default\","
	" \"args\": [{\"node\": \"a\"}, {\"node\": \"b\"}], \"kwargs\": {}, \"meta\":"
	" {\"shape\": [8, 16], \"dtype\": \"int32\", \"stride\": [16, 1],"
	" \"storage_offset\": 0}},"
	"{\"name\": \"output\", \"op\": \"output\", \"target\": \"output\","
	" \"args\": [[{\"node\": \"mm\"}]], \"kwargs\": {}}]}";

static void run_intmm(int K, seen *s, fxrun *fr)
{
	char gpath[1024], vpath[1024];
	int8_t *a = malloc((size_t)8 * K), *b = malloc((size_t)K * 16);
	npu_tensor t[2] = {
		{ .name = "a", .dtype = NPU_DT_I8, .ndim = 2, .shape = { 8, K },
		  .nbytes = (uint64_t)8 * K, .data = a },
		{ .name = "b", .dtype = NPU_DT_I8, .ndim = 2, .shape = { K, 16 },
		  .nbytes = (uint64_t)K * 16, .data = b },
	};
	npu_stfile st;
	npu_err e;
	FILE *f;

	fr->inspect = inspect;
	fr->inspect_ctx = s;
	fx_setup_tmp();
	/* row 0 and column 0 all -128: their product is K * 2^14 */
	for (int i = 0; i < 8 * K; i++)
		a[i] = i < K ? -128 : (int8_t)((i * 29) % 256 - 128);
	for (int i = 0; i < K * 16; i++)
		b[i] = i % 16 == 0 ? -128 : (int8_t)((i * 53) % 256 - 128);
	snprintf(gpath, sizeof gpath, "%s/g.json", fx_tmpdir);
	snprintf(vpath, sizeof vpath, "%s/v.safetensors", fx_tmpdir);
	ck_assert_ptr_nonnull(f = fopen(gpath, "w"));
	fprintf(f, igraph, K, K, K);
	fclose(f);
	ck_assert_msg(npu_st_write(vpath, t, 2, NULL, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_st_read(&st, vpath, &e) == 0, "%s", e.msg);
	fx_run_values(gpath, &st, 0, fr);
	npu_st_free(&st);
	free(a);
	free(b);
	unlink(gpath);
	unlink(vpath);
	fx_teardown_tmp();
}

START_TEST(t_int_mm_int32)
{
	seen s = { 0 };
	fxrun fr = { 0 };

	run_intmm(1024, &s, &fr);
	ck_assert_int_eq(s.host, 0);
	ck_assert_int_eq(s.mm_i8, 1);
	ck_assert_uint_eq(fr.host_calls, 0);
	memset(&s, 0, sizeof s);
	memset(&fr, 0, sizeof fr);
	run_intmm(2048, &s, &fr);
	ck_assert_int_eq(s.host, 1);
	ck_assert_int_eq(s.host_k, 1);
	ck_assert_int_eq(s.mm_i8, 0);
	ck_assert_uint_eq(fr.host_calls, 1);
}
END_TEST

/*
 * Convolutions: int8 activations (zero point 0, padded) and per-channel
 * weights, relu and requantize fused (int8 output, bit-exact); the same
 * weight against activations with zero point 5, which padding rules out
 * (fall-back) and which without padding runs in int8 with the column
 * corrections.
 */
static const char vgraph[] =
	"{\"format\": \"fxgraph\", \"version\": 1, \"name\": \"qconv\""
	", \"graph_kind\": \"inference\", \"nodes\": [{\"name\": \"x\""
	", \"op\": \"placeholder\", \"target\": \"x\", \"args\": [], \"kwargs\": {}"
	", \"kind\": \"input\", \"meta\": {\"shape\": [2, 8, 10, 10]"
	", \"dtype\": \"float32\", \"stride\": [800, 100, 10, 1]"
	", \"storage_offset\": 0}}, {\"name\": \"w\", \"op\": \"placeholder\""
	", \"target\": \"w\", \"args\": [], \"kwargs\": {}, \"kind\": \"buffer\""
	", \"meta\": {\"shape\": [16, 8, 3, 3], \"dtype\": \"int8\""
	", \"stride\": [72, 9, 3, 1], \"storage_offset\": 0}}, {\"name\": \"ws\""
	", \"op\": \"placeholder\", \"target\": \"ws\", \"args\": [], \"kwargs\": {}"
	", \"kind\": \"buffer\", \"meta\": {\"shape\": [16], \"dtype\": \"float32\""
	", \"stride\": [1], \"storage_offset\": 0}}, {\"name\": \"wz\""
	", \"op\": \"placeholder\", \"target\": \"wz\", \"args\": [], \"kwargs\": {}"
	", \"kind\": \"buffer\", \"meta\": {\"shape\": [16], \"dtype\": \"int64\""
	", \"stride\": [1], \"storage_offset\": 0}}, {\"name\": \"b\""
	", \"op\": \"placeholder\", \"target\": \"b\", \"args\": [], \"kwargs\": {}"
	", \"kind\": \"parameter\", \"meta\": {\"shape\": [16]"
	", \"dtype\": \"float32\", \"stride\": [1], \"storage_offset\": 0}}"
	", {\"name\": \"q1\", \"op\": \"call_function\""
	", \"target\": \"quantized_decomposed.quantize_per_tensor.default\""
	", \"args\": [{\"node\": \"x\"}, 0.05, 0, -128, 127, {\"dtype\": \"int8\"}]"
	", \"kwargs\": {}, \"meta\": {\"shape\": [2, 8, 10, 10]"
	", \"dtype\": \"int8\", \"stride\": [800, 100, 10, 1]"
	", \"storage_offset\": 0}}, {\"name\": \"dq1\", \"op\": \"call_function\""
	", \"target\": \"quantized_decomposed.dequantize_per_tensor.default\""
	", \"args\": [{\"node\": \"q1\"}, 0.05, 0, -128, 127"
	", {\"dtype\": \"int8\"}], \"kwargs\": {}, \"meta\": {\"shape\": [2, 8, 10"
	", 10], \"dtype\": \"float32\", \"stride\": [800, 100, 10, 1]"
	", \"storage_offset\": 0}}, {\"name\": \"q2\", \"op\": \"call_function\""
	", \"target\": \"quantized_decomposed.quantize_per_tensor.default\""
	", \"args\": [{\"node\": \"x\"}, 0.05, 5, -128, 127, {\"dtype\": \"int8\"}]"
	", \"kwargs\": {}, \"meta\": {\"shape\": [2, 8, 10, 10]"
	", \"dtype\": \"int8\", \"stride\": [800, 100, 10, 1]"
	", \"storage_offset\": 0}}, {\"name\": \"dq2\", \"op\": \"call_function\""
	", \"target\": \"quantized_decomposed.dequantize_per_tensor.default\""
	", \"args\": [{\"node\": \"q2\"}, 0.05, 5, -128, 127"
	", {\"dtype\": \"int8\"}], \"kwargs\": {}, \"meta\": {\"shape\": [2, 8, 10"
	", 10], \"dtype\": \"float32\", \"stride\": [800, 100, 10, 1]"
	", \"storage_offset\": 0}}, {\"name\": \"dqw\", \"op\": \"call_function\""
	", \"target\": \"quantized_decomposed.dequantize_per_channel.default\""
	", \"args\": [{\"node\": \"w\"}, {\"node\": \"ws\"}, {\"node\": \"wz\"}, 0"
	", -127, 127, {\"dtype\": \"int8\"}], \"kwargs\": {}"
	", \"meta\": {\"shape\": [16, 8, 3, 3], \"dtype\": \"float32\""
	", \"stride\": [72, 9, 3, 1], \"storage_offset\": 0}}, {\"name\": \"cv1\""
	", \"op\": \"call_function\", \"target\": \"aten.convolution.default\""
	", \"args\": [{\"node\": \"dq1\"}, {\"node\": \"dqw\"}, {\"node\": \"b\"}, [1"
	", 1], [1, 1], [1, 1], false, [0, 0], 1], \"kwargs\": {}"
	", \"meta\": {\"shape\": [2, 16, 10, 10], \"dtype\": \"float32\""
	", \"stride\": [1600, 100, 10, 1], \"storage_offset\": 0}}"
	", {\"name\": \"r1\", \"op\": \"call_function\""
	", \"target\": \"aten.relu.default\", \"args\": [{\"node\": \"cv1\"}]"
	", \"kwargs\": {}, \"meta\": {\"shape\": [2, 16, 10, 10]"
	", \"dtype\": \"float32\", \"stride\": [1600, 100, 10, 1]"
	", \"storage_offset\": 0}}, {\"name\": \"qo\", \"op\": \"call_function\""
	", \"target\": \"quantized_decomposed.quantize_per_tensor.default\""
	", \"args\": [{\"node\": \"r1\"}, 0.1, -3, -128, 127"
	", {\"dtype\": \"int8\"}], \"kwargs\": {}, \"meta\": {\"shape\": [2, 16, 10"
	", 10], \"dtype\": \"int8\", \"stride\": [1600, 100, 10, 1]"
	", \"storage_offset\": 0}}, {\"name\": \"cv2\", \"op\": \"call_function\""
	", \"target\": \"aten.convolution.default\", \"args\": [{\"node\": \"dq2\"}"
	", {\"node\": \"dqw\"}, {\"node\": \"b\"}, [1, 1], [1, 1], [1, 1], false"
	", [0, 0], 1], \"kwargs\": {}, \"meta\": {\"shape\": [2, 16, 10, 10]"
	", \"dtype\": \"float32\", \"stride\": [1600, 100, 10, 1]"
	", \"storage_offset\": 0}}, {\"name\": \"cv3\", \"op\": \"call_function\""
	", \"target\": \"aten.convolution.default\", \"args\": [{\"node\": \"dq2\"}"
	", {\"node\": \"dqw\"}, null, [1, 1], [0, 0], [1, 1], false, [0, 0]"
	", 1], \"kwargs\": {}, \"meta\": {\"shape\": [2, 16, 8, 8]"
	", \"dtype\": \"float32\", \"stride\": [1024, 64, 8, 1]"
	", \"storage_offset\": 0}}, {\"name\": \"output\", \"op\": \"output\""
	", \"target\": \"output\", \"args\": [[{\"node\": \"qo\"}, {\"node\": \"cv2\"}"
	", {\"node\": \"cv3\"}]], \"kwargs\": {}}]}";

START_TEST(t_conv)
{
	seen s = { .expect = "matched dq_conv+relu+requantize at cv1" };
	fxrun fr = { .inspect = inspect, .inspect_ctx = &s };
	char gpath[1024], vpath[1024];
	static float x[2 * 8 * 10 * 10];
	float ws[16], b[16];
	int8_t w[16 * 72];
	int64_t wz[16] = { 0 };
	npu_tensor t[5] = {
		{ .name = "x", .dtype = NPU_DT_F32, .ndim = 4, .shape = { 2, 8, 10, 10 },
		  .nbytes = sizeof x, .data = x },
		{ .name = "w", .dtype = NPU_DT_I8, .ndim = 4, .shape = { 16, 8, 3, 3 },
		  .nbytes = sizeof w, .data = w },
		{ .name = "ws", .dtype = NPU_DT_F32, .ndim = 1, .shape = { 16 },
		  .nbytes = sizeof ws, .data = ws },
		{ .name = "wz", .dtype = NPU_DT_I64, .ndim = 1, .shape = { 16 },
		  .nbytes = sizeof wz, .data = wz },
		{ .name = "b", .dtype = NPU_DT_F32, .ndim = 1, .shape = { 16 },
		  .nbytes = sizeof b, .data = b },
	};
	npu_stfile st;
	npu_err e;
	FILE *f;

	fx_setup_tmp();
	for (int i = 0; i < 2 * 8 * 10 * 10; i++)
		x[i] = (float)((i * 53) % 509) / 509.0f * 6.0f - 3.0f;
	for (int i = 0; i < 16 * 72; i++)
		w[i] = (int8_t)((i * 37) % 255 - 127);
	for (int n = 0; n < 16; n++) {
		ws[n] = 0.002f * (float)(1 + n % 3);
		b[n] = 0.05f * (float)(n - 8);
	}
	snprintf(gpath, sizeof gpath, "%s/g.json", fx_tmpdir);
	snprintf(vpath, sizeof vpath, "%s/v.safetensors", fx_tmpdir);
	ck_assert_ptr_nonnull(f = fopen(gpath, "w"));
	fputs(vgraph, f);
	fclose(f);
	ck_assert_msg(npu_st_write(vpath, t, 5, NULL, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_st_read(&st, vpath, &e) == 0, "%s", e.msg);
	fx_run_values(gpath, &st, 0, &fr);
	npu_st_free(&st);
	ck_assert_int_eq(s.expect_n, 1);
	ck_assert_int_eq(s.matched, 2);
	ck_assert_int_eq(s.fellback, 1);
	ck_assert_int_eq(s.host, 0);
	ck_assert_uint_eq(fr.host_calls, 0);
	ck_assert_int_eq(s.mm_i8, 2);
	unlink(gpath);
	unlink(vpath);
	fx_teardown_tmp();
}
END_TEST

/*
 * fp8: x scaled, clamped and cast to e4m3, times an e4m3 weight by
 * torch._scaled_mm with per-tensor scales; the array runs e4m3 with fp32
 * accumulation.  A hand-written graph (tests/data/fx/fp8_mm, values from
 * its gen.py, the expected output from the fp64 reference interpreter).
 */
START_TEST(t_fp8_mm)
{
	seen s = { 0 };
	fxrun fr = { .inspect = inspect, .inspect_ctx = &s };

	fx_setup_tmp();
	fx_run_fixture("fp8_mm", &fr);
	ck_assert_int_eq(s.host, 0);
	ck_assert_uint_eq(fr.host_calls, 0);
	ck_assert_int_eq(s.mm_i8, 0);
	ck_assert_int_eq(s.mm_other, 1);
	ck_assert_int_eq(s.mm_e4m3, 1);
	fx_teardown_tmp();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("quant");
	TCase *tc = tcase_create("quant");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, t_int8_mm);
	tcase_add_test(tc, t_int_mm_int32);
	tcase_add_test(tc, t_qdq_linear);
	tcase_add_test(tc, t_standalone_and_fallback);
	tcase_add_test(tc, t_weight_zero_point);
	tcase_add_test(tc, t_uint8_per_channel);
	tcase_add_test(tc, t_conv);
	tcase_add_test(tc, t_fp8_mm);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
