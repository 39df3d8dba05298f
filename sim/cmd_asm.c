/*
 * cmd_asm.c - `npusim asm`, `npusim disasm` and `npusim isa-doc`: thin
 * command-line wrappers around isa/asm.h.  All the work, and every error
 * message, comes from the library; here are only options and exit codes.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/asm.h"
#include "isa/prog.h"
#include "isa/target.h"
#include "sim/cmd.h"

/* Parses only --help; 1 when it was given, -1 on a bad option. */
static int help_only(int argc, char **argv, int *nargs)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		return -1;
	}
	*nargs = argc - optind;
	return 0;
}

static const char asm_usage[] =
	"usage: npusim asm FILE.s -o PROG.bin [--target TARGET]\n\n"
	"Assembles FILE.s (see docs/assembly.md) into a program file.\n\n"
	"  -o, --output PROG.bin  the program to write\n"
	"  -t, --target TARGET    a target name or .ini file: its name and hash\n"
	"                         are recorded in the program (without it, the\n"
	"                         name of the .target directive and hash 0)\n"
	"  -h, --help             this text\n";

/* Records the --target in p; it must agree with the source's .target. */
static int set_target(npu_prog *p, const char *arg, npu_err *e)
{
	char path[4096];
	npu_target t;

	if (npu_target_resolve(arg, path, sizeof path, e) < 0 ||
	    npu_target_load(&t, path, e) < 0)
		return -1;
	if (p->target_name[0] && strncmp(p->target_name, t.name,
					 sizeof p->target_name))
		return npu_errf(e, "the program is written for target '%.63s' "
				"(.target), not '%s'", p->target_name, t.name);
	snprintf(p->target_name, sizeof p->target_name, "%s", t.name);
	p->target_hash = t.hash;
	return 0;
}

int npu_cmd_asm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "target", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *target = NULL;
	npu_prog p;
	npu_err e = { "" };
	int c, rc = NPU_EXIT_USAGE;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 't': target = optarg; break;
		case 'h': fputs(asm_usage, stdout); return NPU_EXIT_OK;
		default: fputs(asm_usage, stderr); return NPU_EXIT_USAGE;
		}
	}
	if (argc - optind != 1 || !out) {
		fprintf(stderr, "npusim asm: %s\n%s", argc - optind != 1 ?
			"expected one source file" : "missing -o PROG.bin",
			asm_usage);
		return NPU_EXIT_USAGE;
	}
	if (npu_asm_file(argv[optind], &p, &e) < 0)
		goto fail;
	if ((target && set_target(&p, target, &e) < 0) ||
	    npu_prog_write(&p, out, &e) < 0) {
		npu_prog_free(&p);
		goto fail;
	}
	npu_prog_free(&p);
	return NPU_EXIT_OK;
fail:
	fprintf(stderr, "npusim asm: %s\n", e.msg);
	return rc;
}

static const char disasm_usage[] =
	"usage: npusim disasm PROG.bin\n\n"
	"Prints a program as assembly text that `npusim asm` reads back into\n"
	"the same program (code, buffers, constant data, kernels).\n\n"
	"  -h, --help  this text\n";

int npu_cmd_disasm(int argc, char **argv)
{
	npu_prog p;
	npu_err e = { "" };
	char *text;
	int n = 0, h = help_only(argc, argv, &n);

	if (h > 0) {
		fputs(disasm_usage, stdout);
		return NPU_EXIT_OK;
	}
	if (h < 0 || n != 1) {
		fprintf(stderr, "npusim disasm: expected one program file\n%s",
			disasm_usage);
		return NPU_EXIT_USAGE;
	}
	if (npu_prog_read(&p, argv[optind], &e) < 0) {
		fprintf(stderr, "npusim disasm: %s\n", e.msg);
		return NPU_EXIT_USAGE;
	}
	text = npu_disasm_prog(&p);
	npu_prog_free(&p);
	if (!text) {
		fprintf(stderr, "npusim disasm: out of memory\n");
		return NPU_EXIT_USAGE;
	}
	fputs(text, stdout);
	free(text);
	return NPU_EXIT_OK;
}

static const char isa_doc_usage[] =
	"usage: npusim isa-doc\n\n"
	"Prints the instruction set reference (docs/ISA.md), generated from\n"
	"the instruction table.\n\n"
	"  -h, --help  this text\n";

int npu_cmd_isa_doc(int argc, char **argv)
{
	char *text;
	int n = 0, h = help_only(argc, argv, &n);

	if (h > 0) {
		fputs(isa_doc_usage, stdout);
		return NPU_EXIT_OK;
	}
	if (h < 0 || n != 0) {
		fprintf(stderr, "npusim isa-doc: takes no arguments\n%s",
			isa_doc_usage);
		return NPU_EXIT_USAGE;
	}
	if (!(text = npu_isa_doc())) {
		fprintf(stderr, "npusim isa-doc: out of memory\n");
		return NPU_EXIT_USAGE;
	}
	fputs(text, stdout);
	free(text);
	return NPU_EXIT_OK;
}
