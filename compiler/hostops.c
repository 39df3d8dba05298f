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

#include <stdlib.h>
#include <string.h>

#include "compiler/driver.h"
#include "compiler/ref.h"
#include "sim/sim.h"

static int run_op(const npu_hostop_args *a, npu_err *e)
{
	uint32_t nin = a->nin, nout = a->nargs - a->nin;
	npu_reftensor *in = calloc(nin + 1, sizeof *in);
	npu_reftensor *out = calloc(nout + 1, sizeof *out);
	int rc = -1;
	uint32_t loaded = 0;

	if (!in || !out) {
		npu_errf(e, "out of memory");
		goto done;
	}
	for (; loaded < nin; loaded++) {
		const npu_buf *b = a->bufs[loaded];
		if (npu_reftensor_load(&in[loaded], b->dtype, b->ndim, b->shape,
				       a->data[loaded], e) < 0)
			goto done;
	}
	if (npu_ref_exec_op(a->hc->op, a->hc->attrs, in, (int)nin, out,
			    (int)nout, e) < 0)
		goto done;
	for (uint32_t k = 0; k < nout; k++) {
		const npu_buf *b = a->bufs[nin + k];
		int64_t n = npu_reftensor_numel(&out[k]);
		if (out[k].ndim < 0)
			continue;
		if ((uint64_t)n != npu_numel(b->ndim, b->shape)) {
			npu_errf(e, "result %u has %lld elements, buffer '%s' holds %llu",
				 k, (long long)n, b->name,
				 (unsigned long long)npu_numel(b->ndim, b->shape));
			goto done;
		}
		out[k].dtype = b->dtype;
		if (n)
			npu_reftensor_store(&out[k], a->data[nin + k]);
	}
	rc = 0;
done:
	if (in)
		for (uint32_t i = 0; i < loaded; i++)
			npu_reftensor_free(&in[i]);
	if (out)
		for (uint32_t k = 0; k < nout; k++)
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
