/*
 * tcmp.h - comparing a computed tensor with a reference, with the
 * project's per-dtype tolerances (docs/numerics.md):
 *
 *   relative L2 error ||out - ref|| / ||ref|| <= 1e-5 fp32, 1e-3 fp16,
 *   8e-3 bf16, 1e-12 fp64, 0.125 fp8; integers and bool bit-exact;
 *   NaN and +-Inf in the same positions, always.
 *
 * The error is computed in float64 over the finite positions; when the
 * reference is all zero the absolute L2 norm of out is used instead.
 */
#ifndef NPU_TCMP_H
#define NPU_TCMP_H

#include "isa/err.h"
#include "isa/st.h"

typedef struct npu_tcmp {
	double rel_err;      /* relative (or absolute) L2 error */
	double max_abs;      /* largest |out - ref| at finite positions */
	double tol;          /* the tolerance applied */
	uint64_t nonfinite_mismatch; /* positions where NaN/Inf differ */
	uint64_t int_mismatch;       /* integer positions that differ */
	int ok;              /* 1 when within tolerance */
} npu_tcmp;

/* The default tolerance of a dtype (0 for integer types). */
double npu_tcmp_default_tol(int dtype);

/*
 * Compares out with ref (same shape; dtypes may differ, ref's dtype
 * decides the tolerance unless tol >= 0).  -1 with e set when the shapes
 * differ.
 */
int npu_tcmp_run(const npu_tensor *out, const npu_tensor *ref, double tol,
		 npu_tcmp *r, npu_err *e);

#endif
