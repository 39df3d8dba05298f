/*
 * fuzz_graph.c - the FX graph reader on arbitrary bytes: parse, print
 * the result, free.  Any crash, leak or sanitizer report is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "compiler/graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	npu_graph *g;
	npu_err e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (npu_graph_parse(&g, "fuzz.json", data, size, &e) < 0)
		return 0;
	for (int i = 0; i < g->nnodes; i++)
		if (npu_graph_find(g, g->nodes[i].name) != i)
			abort();
	if ((f = open_memstream(&buf, &len))) {
		npu_graph_print(g, f);
		fclose(f);
	}
	free(buf);
	npu_graph_free(g);
	return 0;
}
