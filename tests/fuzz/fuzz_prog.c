/*
 * fuzz_prog.c - npu_prog_parse() on arbitrary bytes.  A parse must either
 * fail with a message or yield a program that passes npu_prog_check(),
 * whose lookups stay in range; sanitizers catch reads out of bounds, UB and
 * leaks.
 */
#include <stdint.h>
#include <stdlib.h>

#include "isa/prog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	npu_prog p;
	npu_err e;

	if (npu_prog_parse(&p, "fuzz.bin", data, size, &e) < 0) {
		if (!e.msg[0])
			abort(); /* every failure must say why */
		return 0;
	}
	if (npu_prog_check(&p, &e) < 0)
		abort(); /* the loader let an inconsistent program through */
	for (uint32_t i = 0; i < p.ncode; i++)
		if (npu_prog_kernel_at(&p, i) >= (int)p.nkernels)
			abort();
	for (uint32_t i = 0; i < p.nbufs; i++)
		if (npu_prog_find_buf(&p, p.bufs[i].name) != (int)i)
			abort(); /* names are unique */
	npu_prog_free(&p);
	return 0;
}
