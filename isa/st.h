/*
 * st.h - safetensors files: an 8-byte little-endian header length, a JSON
 * header (name -> dtype, shape, data_offsets; optional __metadata__), then
 * the raw little-endian tensor bytes.  Used for inputs, outputs and frozen
 * weights.  The reader validates the header completely (offsets in range,
 * sizes equal to shape x dtype, no overlaps) before anything is used.
 */
#ifndef NPU_ST_H
#define NPU_ST_H

#include <stddef.h>
#include <stdint.h>

#include "isa/err.h"
#include "isa/prog.h"

typedef struct npu_tensor {
	char *name;
	int dtype;                      /* enum npu_dtype */
	int ndim;
	int64_t shape[NPU_MAX_DIMS];
	uint64_t nbytes;
	void *data;                     /* owned by the file or the tensor */
} npu_tensor;

typedef struct npu_stfile {
	npu_tensor *t;
	size_t n;
	char *metadata;                 /* __metadata__ as JSON text, or NULL */
	void *blob;                     /* file bytes the tensors point into */
	size_t blob_len;
} npu_stfile;

/* Reads a safetensors file; on failure f is left empty. */
int npu_st_read(npu_stfile *f, const char *path, npu_err *e);

/* The same from memory (fuzzing); data is copied. */
int npu_st_parse(npu_stfile *f, const char *name, const void *data,
		 size_t len, npu_err *e);

/* Finds a tensor; NULL if absent. */
const npu_tensor *npu_st_find(const npu_stfile *f, const char *name);

void npu_st_free(npu_stfile *f);

/*
 * Writes n tensors (data pointers are read, not owned) atomically:
 * a temporary file in the same folder, fsync, rename.
 */
int npu_st_write(const char *path, const npu_tensor *t, size_t n,
		 const char *metadata_json, npu_err *e);

/* Number of elements of a shape. */
uint64_t npu_numel(int ndim, const int64_t *shape);

#endif
