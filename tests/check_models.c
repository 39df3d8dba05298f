/*
 * check_models.c - breadth: small models of the common CNN and
 * transformer families (MobileNet v2 and v3, ViT, BERT, GPT-2, Llama with
 * grouped-query attention) and a model of loose ops (max pooling,
 * grouped convolution, embedding, gather, cumsum, advanced indexing,
 * masked_fill, where), captured from PyTorch 2.11 by
 * scripts/capture_models.  Each compiles, runs on the simulator and
 * matches PyTorch's recorded outputs and the fp64 reference (the harness:
 * tests/fxrun.c).
 *
 * Each case also states how many host calls its program may make: the
 * ops left to the host are listed in docs/compiler.md ("Model
 * coverage"), and a lowering that quietly falls back shows up here.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>

#include "tests/fxrun.h"

typedef struct zoo_case {
	const char *name;
	uint64_t max_host_calls;
} zoo_case;

static const zoo_case zoo[] = {
	{ "mobilenet_v2", 0 },
	{ "mobilenet_v3_small", 0 },
	{ "vit_tiny", 0 },
	{ "bert_tiny", 2 },		/* the padding mask: int64 cast, index */
	{ "gpt2_tiny", 0 },
	{ "llama_gqa", 0 },
	{ "ops", 4 },			/* gather, cumsum, index, int eq */
};

START_TEST(t_model)
{
	const zoo_case *c = &zoo[_i];
	fxrun fr = { 0 };

	fx_setup_tmp();
	fx_run_fixture(c->name, &fr);
	fx_teardown_tmp();
	ck_assert_uint_gt(fr.cycles, 0);
	ck_assert_msg(fr.host_calls <= c->max_host_calls,
		      "%s: %llu host calls (at most %llu expected)", c->name,
		      (unsigned long long)fr.host_calls,
		      (unsigned long long)c->max_host_calls);
	printf("%-20s %10llu cycles %3d kernels %3llu host calls, error %.2g (recorded) %.2g (fp64)\n",
	       c->name, (unsigned long long)fr.cycles, fr.nkernels,
	       (unsigned long long)fr.host_calls, fr.worst_rec, fr.worst_ref);
}
END_TEST

static Suite *models_suite(void)
{
	Suite *s = suite_create("models");
	TCase *tc = tcase_create("models");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, t_model, 0, (int)(sizeof zoo / sizeof zoo[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(models_suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
