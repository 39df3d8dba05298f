/* check_tcmp.c - tensor comparison and its tolerances (isa/tcmp.h). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "isa/dtype.h"
#include "isa/isa.h"
#include "isa/tcmp.h"

static npu_tensor f32(const char *name, float *v, int64_t n)
{
	npu_tensor t = { (char *)name, NPU_DT_F32, 1, { n }, (uint64_t)n * 4, v };
	return t;
}

START_TEST(within_and_beyond_tolerance)
{
	float a[4] = { 1, 2, 3, 4 }, b[4] = { 1, 2, 3, 4.0001f };
	npu_tensor ta = f32("x", a, 4), tb = f32("x", b, 4);
	npu_tcmp r;
	npu_err e;

	ck_assert_int_eq(npu_tcmp_run(&ta, &ta, -1, &r, &e), 0);
	ck_assert(r.ok);
	ck_assert(r.rel_err == 0);
	/* 1e-4 / sqrt(30) = 1.8e-5 > 1e-5 */
	ck_assert_int_eq(npu_tcmp_run(&tb, &ta, -1, &r, &e), 0);
	ck_assert(!r.ok);
	ck_assert(fabs(r.rel_err - ((double)b[3] - 4) / sqrt(30)) < 1e-12);
	ck_assert_int_eq(npu_tcmp_run(&tb, &ta, 1e-4, &r, &e), 0);
	ck_assert(r.ok);
}
END_TEST

START_TEST(nonfinite_positions_must_match)
{
	float a[3] = { NAN, INFINITY, 1 }, b[3] = { NAN, -INFINITY, 1 };
	float c[3] = { 0, INFINITY, 1 };
	npu_tensor ta = f32("x", a, 3), tb = f32("x", b, 3), tc = f32("x", c, 3);
	npu_tcmp r;
	npu_err e;

	ck_assert_int_eq(npu_tcmp_run(&ta, &ta, -1, &r, &e), 0);
	ck_assert(r.ok);
	ck_assert_int_eq(npu_tcmp_run(&tb, &ta, 1, &r, &e), 0);
	ck_assert(!r.ok);
	ck_assert_uint_eq(r.nonfinite_mismatch, 1);
	ck_assert_int_eq(npu_tcmp_run(&tc, &ta, 1, &r, &e), 0);
	ck_assert_uint_eq(r.nonfinite_mismatch, 1);
}
END_TEST

START_TEST(integers_exact_and_shapes_checked)
{
	int8_t a[3] = { 1, -2, 3 }, b[3] = { 1, -2, 4 };
	npu_tensor ta = { "q", NPU_DT_I8, 1, { 3 }, 3, a };
	npu_tensor tb = { "q", NPU_DT_I8, 1, { 3 }, 3, b };
	npu_tensor tc = { "q", NPU_DT_I8, 2, { 1, 3 }, 3, b };
	npu_tcmp r;
	npu_err e;

	ck_assert_int_eq(npu_tcmp_run(&tb, &ta, -1, &r, &e), 0);
	ck_assert(!r.ok);
	ck_assert_uint_eq(r.int_mismatch, 1);
	ck_assert_int_eq(npu_tcmp_run(&tc, &ta, -1, &r, &e), -1);
	ck_assert_str_eq(e.msg, "'q': 2 dimensions, reference has 1");
	ck_assert(npu_tcmp_default_tol(NPU_DT_BF16) == 8e-3);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tcmp");
	TCase *tc = tcase_create("tcmp");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, within_and_beyond_tolerance);
	tcase_add_test(tc, nonfinite_positions_must_match);
	tcase_add_test(tc, integers_exact_and_shapes_checked);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
