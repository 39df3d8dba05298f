/*
 * npucc - the graph compiler: `npucc GRAPH.json -o PROG.bin`.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: npucc GRAPH.json [--weights W.safetensors] [--target FILE] -o PROG.bin\n\n"
		   "Compiles a PyTorch FX graph (JSON, see docs/) into an npusim program.\n"
		   "Exit status: 0 success, 2 bad usage or bad input.\n");
}

int main(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		printf("npucc %s\n", PACKAGE_VERSION);
		return 0;
	}
	usage(stderr);
	fprintf(stderr, "npucc: the graph compiler is not built yet (issue 4)\n");
	return 2;
}
