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

#include "isa/st.h"
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

/* The tensor called name in the safetensors file at path (read into *st). */
static const npu_tensor *st_get(npu_stfile *st, const char *path, const char *name)
{
	npu_err e;
	const npu_tensor *t;

	ck_assert_msg(npu_st_read(st, path, &e) == 0, "%s", e.msg);
	t = npu_st_find(st, name);
	ck_assert_msg(t != NULL, "%s: no tensor %s", path, name);
	return t;
}

/*
 * Runs graph CG with its one placeholder arg0_1 set to x, checking its
 * output.0 against want (and the fp64 reference); the outputs are saved
 * to save.
 */
static void run_next(const char *cg, const npu_tensor *x, const npu_tensor *want,
		     const char *save)
{
	char graph[1024];
	npu_tensor t[2] = { *x, *want };
	npu_stfile st = { .t = t, .n = 2 };
	fxrun fr = { .save = save };

	t[0].name = "arg0_1";
	t[1].name = "output.0";
	snprintf(graph, sizeof graph, "%s/tests/data/fx/%s.json", fx_srcdir(), cg);
	fx_run_values(graph, &st, 1, &fr);
}

/* Relative L2 error of two f32 tensors of the same shape. */
static double st_err(const npu_tensor *a, const npu_tensor *b)
{
	int64_t n = (int64_t)npu_numel(a->ndim, a->shape);
	double *x, *y, r;

	ck_assert_int_eq(a->dtype, b->dtype);
	ck_assert_uint_eq(a->nbytes, b->nbytes);
	x = fx_widen(a->dtype, a->data, n);
	y = fx_widen(b->dtype, b->data, n);
	r = fx_relerr(x, y, n);
	free(x);
	free(y);
	return r;
}

/*
 * graph_breaks: `y = sin(x) * 2; if y.sum().item() > 0: y = y + 1;
 * print(...); return cos(y)` is three graphs.  inference2 returns
 * (sum, y); Python takes the branch on the sum; inference4 computes
 * y + 1; inference6 cos(y).  Each runs on the values the previous one
 * left (its outputs, not the recorded inputs), and the last result
 * matches the model's eager output.
 */
START_TEST(t_graph_breaks)
{
	char dir[1024], p1[600], p2[600], p3[600];
	npu_stfile s1, s2, s3, rec4, rec6, eager;
	const npu_tensor *sum, *y, *y2, *out;
	fxrun fr = { 0 };
	float s;

	fx_setup_tmp();
	snprintf(dir, sizeof dir, "%s/tests/data/fx/graph_breaks", fx_srcdir());
	snprintf(p1, sizeof p1, "%s/g2.safetensors", fx_tmpdir);
	snprintf(p2, sizeof p2, "%s/g4.safetensors", fx_tmpdir);
	snprintf(p3, sizeof p3, "%s/g6.safetensors", fx_tmpdir);
	fr.save = p1;
	fx_run_graph("graph_breaks/inference2", &fr);
	sum = st_get(&s1, p1, "output.0");
	y = npu_st_find(&s1, "output.1");
	ck_assert_ptr_nonnull(y);
	memcpy(&s, sum->data, 4);
	/* the recorded run took the branch: inference4 ran */
	ck_assert_msg(s > 0, "sum %g: the branch the fixture recorded is not taken", s);
	{
		char path[1200];
		snprintf(path, sizeof path, "%s/inference4.safetensors", dir);
		ck_assert_double_le(st_err(y, st_get(&rec4, path, "arg0_1")), 1e-5);
		run_next("graph_breaks/inference4", y, npu_st_find(&rec4, "output.0"), p2);
		snprintf(path, sizeof path, "%s/inference6.safetensors", dir);
		y2 = st_get(&s2, p2, "output.0");
		ck_assert_double_le(st_err(y2, st_get(&rec6, path, "arg0_1")), 1e-5);
		snprintf(path, sizeof path, "%s/eager.safetensors", dir);
		run_next("graph_breaks/inference6", y2,
			 st_get(&eager, path, "model_output.0"), p3);
	}
	out = st_get(&s3, p3, "output.0");
	ck_assert_double_le(st_err(out, npu_st_find(&eager, "model_output.0")), 1e-5);
	npu_st_free(&s1);
	npu_st_free(&s2);
	npu_st_free(&s3);
	npu_st_free(&rec4);
	npu_st_free(&rec6);
	npu_st_free(&eager);
	fx_teardown_tmp();
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
	tcase_add_test(tc, t_graph_breaks);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
