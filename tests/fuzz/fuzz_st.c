/*
 * fuzz_st.c - npu_st_parse on arbitrary bytes.  Whatever it accepts must
 * survive the writer: encoding the tensors and parsing the result gives
 * the same names, dtypes, shapes, bytes and metadata.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa/st.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same(const npu_stfile *a, const npu_stfile *b)
{
	if (a->n != b->n)
		abort();
	if (!a->metadata != !b->metadata ||
	    (a->metadata && strcmp(a->metadata, b->metadata)))
		abort();
	for (size_t i = 0; i < a->n; i++) {
		const npu_tensor *x = &a->t[i], *y = &b->t[i];
		if (strcmp(x->name, y->name) || x->dtype != y->dtype ||
		    x->ndim != y->ndim || x->nbytes != y->nbytes ||
		    memcmp(x->shape, y->shape, sizeof x->shape[0] * (size_t)x->ndim))
			abort();
		if (x->nbytes && memcmp(x->data, y->data, x->nbytes))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	npu_stfile f, g;
	npu_err e;
	void *enc;
	size_t len;

	if (npu_st_parse(&f, "fuzz", data, size, &e) < 0)
		return 0;
	if (npu_st_encode(f.t, f.n, f.metadata, &enc, &len, &e) < 0)
		abort();
	if (npu_st_parse(&g, "again", enc, len, &e) < 0)
		abort();
	same(&f, &g);
	npu_st_free(&g);
	free(enc);
	npu_st_free(&f);
	return 0;
}
