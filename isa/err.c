/* err.c - see err.h. */
#include "isa/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int npu_errf(npu_err *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return -1;
}

int npu_err_prefix(npu_err *e, const char *fmt, ...)
{
	char head[NPU_ERR_MAX], old[NPU_ERR_MAX];
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(head, sizeof head, fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof old);
	snprintf(e->msg, sizeof e->msg, "%s: %s", head, old);
	return -1;
}

void npu_err_clear(npu_err *e)
{
	if (e)
		e->msg[0] = '\0';
}

const char *npu_strerror(int err, char *buf, size_t n)
{
	snprintf(buf, n, "%s", strerror(err));
	/* "No such file" -> "no such file"; leave acronyms ("EOF") alone */
	if (buf[0] >= 'A' && buf[0] <= 'Z' && !(buf[1] >= 'A' && buf[1] <= 'Z'))
		buf[0] = (char)(buf[0] - 'A' + 'a');
	return buf;
}
