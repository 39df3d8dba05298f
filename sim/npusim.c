/*
 * npusim - the simulator's front door: `npusim SUBCOMMAND [options]`.
 * Subcommands are listed once in sim/commands.def.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "sim/cmd.h"
#include "sim/sim.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *summary;
} cmds[] = {
#define NPU_CMD(name, fn, summary) { name, fn, summary },
#include "sim/commands.def"
#undef NPU_CMD
	{ NULL, NULL, NULL }
};

static void usage(FILE *f)
{
	fprintf(f, "usage: npusim SUBCOMMAND [options] (npusim SUBCOMMAND --help)\n\n"
		   "A cycle-approximate NPU simulator.  Subcommands:\n");
	for (int i = 0; cmds[i].name; i++)
		fprintf(f, "  %-14s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "\nExit status: 0 success, 1 the simulated program faulted,"
		   " 2 bad usage or bad input.\n");
}

int main(int argc, char **argv)
{
	npu_sim_blas_default();
	if (argc < 2) {
		usage(stderr);
		return NPU_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return NPU_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("npusim %s\n", PACKAGE_VERSION);
		return NPU_EXIT_OK;
	}
	for (int i = 0; cmds[i].name; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "npusim: '%s' is not a subcommand; see 'npusim --help'\n",
		argv[1]);
	return NPU_EXIT_USAGE;
}
