/*
 * hostops.c - the simulator's host-call implementation of every ATen op:
 * the reference interpreter's npu_ref_exec_op, so an op the compiler
 * cannot lower runs with exactly the reference semantics (docs/fx-format.md).
 *
 * The host model hands over DRAM buffers; each input is widened to a
 * reference tensor, the op runs with the attrs the compiler recorded
 * (arguments, result dtypes, "torch" precision so results round as eager
 * PyTorch does), and each result is checked against its output buffer's
 * shape and stored in the buffer's dtype.
 */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/driver.h"
#include "compiler/ref.h"
#include "sim/sim.h"

/*
 * How many results the op makes: the length of the attrs' "dtype" list,
 * where null marks a result that is None (convolution_backward with an
 * output_mask) and has no buffer; at least nbufs.
 */
static uint32_t nresults(const char *attrs, uint32_t nbufs)
{
	json_t *root = attrs ? json_loads(attrs, 0, NULL) : NULL;
	size_t n = json_array_size(json_object_get(root, "dtype"));

	json_decref(root);
	return n > nbufs ? (uint32_t)n : nbufs;
}

static int run_op(const npu_hostop_args *a, npu_err *e)
{
	uint32_t nin = a->nin, nbuf = a->nargs - a->nin;
	uint32_t nout = nresults(a->hc->attrs, nbuf), k, q = 0;
	npu_reftensor *in = calloc(nin + 1, sizeof *in);
	npu_reftensor *out = calloc(nout + 1, sizeof *out);
	int rc = -1;
	uint32_t loaded = 0;

	if (!in || !out) {
		npu_errf(e, "out of memory");
		goto done;
	}
	/* every input is read before any result is stored, so a result may
	 * share its buffer with an input (in-place mutation) */
	for (; loaded < nin; loaded++) {
		const npu_buf *b = a->bufs[loaded];
		if (npu_reftensor_load(&in[loaded], b->dtype, b->ndim, b->shape,
				       a->data[loaded], e) < 0)
			goto done;
	}
	if (npu_ref_exec_op(a->hc->op, a->hc->attrs, in, (int)nin, out,
			    (int)nout, e) < 0)
		goto done;
	/* results that are None have no buffer: the buffers go in order to
	 * the others */
	for (k = 0; k < nout && q < nbuf; k++) {
		const npu_buf *b = a->bufs[nin + q];
		int64_t n = npu_reftensor_numel(&out[k]);
		if (out[k].ndim < 0) {
			if (nout > nbuf)
				continue;
			q++;
			continue;
		}
		if ((uint64_t)n != npu_numel(b->ndim, b->shape)) {
			npu_errf(e, "result %u has %lld elements, buffer '%s' holds %llu",
				 k, (long long)n, b->name,
				 (unsigned long long)npu_numel(b->ndim, b->shape));
			goto done;
		}
		out[k].dtype = b->dtype;
		if (n)
			npu_reftensor_store(&out[k], a->data[nin + q]);
		q++;
	}
	rc = 0;
done:
	if (in)
		for (uint32_t i = 0; i < loaded; i++)
			npu_reftensor_free(&in[i]);
	if (out)
		for (k = 0; k < nout; k++)
			npu_reftensor_free(&out[k]);
	free(in);
	free(out);
	return rc;
}

void npu_hostops_register_all(void)
{
	for (int i = 0; i < NPU_NAOP; i++)
		if (i != NPU_AOP_GETITEM)
			npu_sim_register_hostop(npu_aoptab[i].target, run_op);
}
