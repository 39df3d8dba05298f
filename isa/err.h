/*
 * err.h - error reports shared by every module.
 *
 * Functions that can fail take an `npu_err *` and return -1 (or NULL) after
 * filling it with one message in git's style: lowercase, the object named
 * first, then what is wrong ("prog.bin: section .npu.kernels: entry 3 ends
 * past the section").  Callers add context with npu_err_prefix().  Nothing
 * below the command-line layer prints or exits.
 */
#ifndef NPU_ERR_H
#define NPU_ERR_H

#include <stddef.h>

#define NPU_ERR_MAX 1024

typedef struct npu_err {
	char msg[NPU_ERR_MAX]; /* the message, "" when no error */
} npu_err;

/* Sets e's message from a printf format (e may be NULL); returns -1. */
int npu_errf(npu_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prepends "prefix: " (from a printf format) to e's message; returns -1. */
int npu_err_prefix(npu_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Clears e. */
void npu_err_clear(npu_err *e);

/* strerror(err) in buf, lowercased to read as the rest of our messages. */
const char *npu_strerror(int err, char *buf, size_t n);

#endif
