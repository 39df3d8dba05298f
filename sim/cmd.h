/*
 * cmd.h - subcommands of the npusim program.  Each is a function that
 * takes its own argv (argv[0] is the subcommand's name), parses its
 * options with getopt_long, answers --help, and returns the exit status:
 * 0 success, 1 a fault in the simulated program, 2 bad usage or bad input
 * (message on stderr).  The list of subcommands is sim/commands.def.
 */
#ifndef NPU_CMD_H
#define NPU_CMD_H

enum { NPU_EXIT_OK = 0, NPU_EXIT_FAULT = 1, NPU_EXIT_USAGE = 2 };

#define NPU_CMD(name, fn, summary) int fn(int argc, char **argv);
#include "sim/commands.def"
#undef NPU_CMD

#endif
