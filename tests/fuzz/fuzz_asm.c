/*
 * fuzz_asm.c - npu_asm() on arbitrary text.  Assembly must either fail
 * with a FILE:LINE:COL message or give a program that passes
 * npu_prog_check() and survives npu_disasm_prog() and a second assembly
 * with the same code words, buffers, constant bytes and kernels.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const npu_prog *p, const npu_prog *q)
{
	if (p->ncode != q->ncode || p->nbufs != q->nbufs ||
	    p->nkernels != q->nkernels || p->dram_size != q->dram_size ||
	    strcmp(p->target_name, q->target_name))
		return 0;
	if (p->ncode && memcmp(p->code, q->code, p->ncode * sizeof *p->code))
		return 0;
	for (uint32_t i = 0; i < p->nbufs; i++) {
		const npu_buf *a = &p->bufs[i], *b = &q->bufs[i];
		if (strcmp(a->name, b->name) || a->dtype != b->dtype ||
		    a->kind != b->kind || a->addr != b->addr || a->size != b->size)
			return 0;
		if (a->kind == NPU_BUF_CONST && a->size &&
		    memcmp(p->cdata + a->data_off, q->cdata + b->data_off, a->size))
			return 0;
	}
	for (uint32_t i = 0; i < p->nkernels; i++)
		if (strcmp(p->kernels[i].name, q->kernels[i].name) ||
		    p->kernels[i].start != q->kernels[i].start ||
		    p->kernels[i].end != q->kernels[i].end ||
		    p->kernels[i].node_count != q->kernels[i].node_count)
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	npu_prog p, q;
	npu_err e;
	char *text;

	if (npu_asm("f.s", (const char *)data, size, &p, &e) < 0) {
		if (strncmp(e.msg, "f.s:", 4))
			abort(); /* every failure names the file */
		return 0;
	}
	if (npu_prog_check(&p, &e) < 0)
		abort();
	if (!(text = npu_disasm_prog(&p)))
		abort();
	if (npu_asm("g.s", text, strlen(text), &q, &e) < 0 || !same(&p, &q))
		abort(); /* the listing must assemble back to the same program */
	free(text);
	npu_prog_free(&p);
	npu_prog_free(&q);
	return 0;
}
