/*
 * st.h - safetensors files: an 8-byte little-endian header length, a JSON
 * header (name -> dtype, shape, data_offsets; optional __metadata__), then
 * the raw little-endian tensor bytes.  Used for inputs, outputs and frozen
 * weights.  The reader validates the header completely (offsets in range,
 * sizes equal to shape x dtype, no overlaps) before anything is used.
 *
 * Tensor data is NOT aligned: the format allows any byte offset, so read
 * elements with memcpy or the npu_load_* helpers of isa/dtype.h, never by
 * casting t->data to float * or the like.  Zero-element tensors (a 0 in
 * the shape) are valid; their data pointer must not be dereferenced.
 * docs/numerics.md lists every check.
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

/*
 * The same file built in memory: *out (malloc'd, the caller frees) gets
 * exactly the bytes npu_st_write would write.
 */
int npu_st_encode(const npu_tensor *t, size_t n, const char *metadata_json,
		  void **out, size_t *len, npu_err *e);

/* safetensors dtype code ("BF16", "F8_E4M3") of a dtype; NULL if none. */
const char *npu_st_dtype_code(int dt);

/* The dtype of a safetensors code; -1 if unknown or unsupported. */
int npu_st_dtype_from_code(const char *code);

/*
 * Number of elements of a shape (1 for ndim 0); 0 if an entry is negative,
 * UINT64_MAX if the product overflows.
 */
uint64_t npu_numel(int ndim, const int64_t *shape);

/* A shape as "[2, 3, 4]" (sep ", ") or "[2,3,4]" (sep ","), cut to n
 * bytes; returns buf. */
const char *npu_shape_str(char *buf, size_t n, int ndim, const int64_t *shape,
			  const char *sep);

#endif
