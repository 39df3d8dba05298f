/*
 * check_train.c - end to end: the training graphs aot_autograd produces
 * (forward with its saved tensors, backward with its gradients and None
 * for inputs without one), in-place mutation of inputs, and graphs split
 * by graph breaks, compiled, simulated and compared with PyTorch's
 * recorded values and the fp64 reference (tests/fxrun.c).
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fxrun.h"

/* One graph, with the parameters frozen (inference-style) and as
 * run-time inputs (what a training step needs: weights change). */
#define TRAIN_TEST(fn, cg) \
	START_TEST(fn) \
	{ \
		fxrun fr = { 0 }, fu = { .unfrozen = 1 }; \
		fx_setup_tmp(); \
		fx_run_graph(cg, &fr); \
		fx_run_graph(cg, &fu); \
		fx_teardown_tmp(); \
	} \
	END_TEST

TRAIN_TEST(t_rmsnorm_fwd, "rmsnorm_train/forward2")
TRAIN_TEST(t_rmsnorm_bwd, "rmsnorm_train/backward3")
TRAIN_TEST(t_mlp_fwd, "mlp_train/forward2")
TRAIN_TEST(t_mlp_bwd, "mlp_train/backward3")
TRAIN_TEST(t_conv_bn_fwd, "conv_bn_train/forward2")
TRAIN_TEST(t_conv_bn_bwd, "conv_bn_train/backward3")

/* BatchNorm's running statistics and its batch counter: updated in the
 * inputs' own buffers by the kernels that compute them. */
START_TEST(t_conv_bn_inplace)
{
	fxrun fr = { 0 };

	fx_setup_tmp();
	fx_run_graph("conv_bn_train/forward2", &fr);
	fx_teardown_tmp();
	ck_assert_int_eq(fr.inplace, 3);
}
END_TEST

/* In-place buffer updates, slice assignment through slice_scatter, copy,
 * lift_fresh_copy of a get_attr constant, views and a transposed copy;
 * both mutated inputs end with PyTorch's values, written in place. */
START_TEST(t_mutation_views)
{
	fxrun fr = { 0 };

	fx_setup_tmp();
	fx_run_fixture("mutation_views", &fr);
	fx_teardown_tmp();
	ck_assert_int_eq(fr.inplace, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("train");
	TCase *tc = tcase_create("train");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, t_rmsnorm_fwd);
	tcase_add_test(tc, t_rmsnorm_bwd);
	tcase_add_test(tc, t_mlp_fwd);
	tcase_add_test(tc, t_mlp_bwd);
	tcase_add_test(tc, t_conv_bn_fwd);
	tcase_add_test(tc, t_conv_bn_bwd);
	tcase_add_test(tc, t_conv_bn_inplace);
	tcase_add_test(tc, t_mutation_views);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
