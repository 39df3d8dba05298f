/* tcmp.c - see tcmp.h. */
#include "isa/tcmp.h"

#include <math.h>

#include "isa/dtype.h"
#include "isa/isa.h"

static int is_int(int dt)
{
	return dt == NPU_DT_I8 || dt == NPU_DT_U8 || dt == NPU_DT_I16 ||
	       dt == NPU_DT_I32 || dt == NPU_DT_I64 || dt == NPU_DT_BOOL;
}

double npu_tcmp_default_tol(int dt)
{
	switch (dt) {
	case NPU_DT_F32: return 1e-5;
	case NPU_DT_F16: return 1e-3;
	case NPU_DT_BF16: return 8e-3;
	case NPU_DT_F64: return 1e-12;
	case NPU_DT_E4M3: case NPU_DT_E5M2: return 0.125;
	default: return 0;
	}
}

int npu_tcmp_run(const npu_tensor *out, const npu_tensor *ref, double tol,
		 npu_tcmp *r, npu_err *e)
{
	uint64_t n = npu_numel(ref->ndim, ref->shape);
	double num = 0, den = 0;
	int exact = is_int(ref->dtype) && is_int(out->dtype);

	if (out->ndim != ref->ndim)
		return npu_errf(e, "'%s': %d dimensions, reference has %d",
				out->name, out->ndim, ref->ndim);
	for (int i = 0; i < ref->ndim; i++)
		if (out->shape[i] != ref->shape[i])
			return npu_errf(e, "'%s': dimension %d is %lld, reference "
					"has %lld", out->name, i,
					(long long)out->shape[i],
					(long long)ref->shape[i]);
	*r = (npu_tcmp){ .tol = tol >= 0 ? tol : npu_tcmp_default_tol(ref->dtype) };
	for (uint64_t i = 0; i < n; i++) {
		double a = npu_load_f64(out->dtype, out->data, i);
		double b = npu_load_f64(ref->dtype, ref->data, i);
		if (!isfinite(a) || !isfinite(b)) {
			/* NaN matches NaN; an infinity matches itself only */
			if (!(isnan(a) && isnan(b)) && a != b)
				r->nonfinite_mismatch++;
			continue;
		}
		if (exact && a != b)
			r->int_mismatch++;
		num += (a - b) * (a - b);
		den += b * b;
		if (fabs(a - b) > r->max_abs)
			r->max_abs = fabs(a - b);
	}
	r->rel_err = den > 0 ? sqrt(num / den) : sqrt(num);
	r->ok = !r->nonfinite_mismatch && !r->int_mismatch &&
		r->rel_err <= r->tol;
	return 0;
}
