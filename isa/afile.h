/*
 * afile.h - files that appear whole or not at all.
 *
 * Every file npusim and npucc write for others to read (programs,
 * safetensors, trace exports, reports) goes through here: the bytes go
 * to a temporary file beside the destination, which is synced and then
 * renamed over it, so a failed or interrupted run never leaves a partial
 * file under the real name, and a reader never sees one being written.
 */
#ifndef NPU_AFILE_H
#define NPU_AFILE_H

#include <stdint.h>
#include <stdio.h>

#include "isa/err.h"

typedef struct npu_afile {
	char *path;	/* the destination */
	char *tmp;	/* the temporary file beside it */
	int fd;		/* open on tmp, or -1 */
	FILE *f;	/* stdio stream on fd, once npu_afile_stdio made it */
} npu_afile;

/* Creates the temporary file (mode 0644) for path.  0, or -1 with e set. */
int npu_afile_open(npu_afile *a, const char *path, npu_err *e);

/* Writes n bytes at the current position (retrying short writes). */
int npu_afile_write(npu_afile *a, const void *p, uint64_t n, npu_err *e);

/* A stdio stream on the file, for writers that print; owned by a. */
FILE *npu_afile_stdio(npu_afile *a, npu_err *e);

/*
 * Flushes, syncs and closes the file and renames it over the destination
 * (then syncs the folder).  On failure the temporary file is removed.
 * Either way a is released.
 */
int npu_afile_commit(npu_afile *a, npu_err *e);

/* Drops the temporary file and releases a; safe after a failed open. */
void npu_afile_abort(npu_afile *a);

#endif
