/*
 * afile.c - temporary file beside the destination, fsync, rename.
 *
 * The temporary file must live in the destination's folder: rename() is
 * atomic only within one file system.  fsync before rename orders the
 * data before the name on crash; the folder's fsync after it makes the
 * new name itself durable.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/afile.h"

static void release(npu_afile *a)
{
	free(a->path);
	free(a->tmp);
	a->path = a->tmp = NULL;
	a->fd = -1;
	a->f = NULL;
}

int npu_afile_open(npu_afile *a, const char *path, npu_err *e)
{
	size_t n = strlen(path) + 16;
	char eb[128];

	a->fd = -1;
	a->f = NULL;
	a->path = strdup(path);
	a->tmp = malloc(n);
	if (!a->path || !a->tmp) {
		release(a);
		return npu_errf(e, "%s: out of memory", path);
	}
	snprintf(a->tmp, n, "%s.tmpXXXXXX", path);
	a->fd = mkostemp(a->tmp, O_CLOEXEC);
	/* mkstemp makes it 0600; what we write is shared like any file */
	if (a->fd < 0 || fchmod(a->fd, 0644) < 0) {
		npu_errf(e, "%s: cannot create temporary file: %s", path,
			 npu_strerror(errno, eb, sizeof eb));
		npu_afile_abort(a);
		return -1;
	}
	return 0;
}

int npu_afile_write(npu_afile *a, const void *p, uint64_t n, npu_err *e)
{
	const char *c = p;
	char eb[128];

	while (n) {
		size_t chunk = n > (1u << 30) ? (1u << 30) : (size_t)n;
		ssize_t w = write(a->fd, c, chunk);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return npu_errf(e, "%s: cannot write: %s", a->path,
					w < 0 ? npu_strerror(errno, eb, sizeof eb) : "no progress");
		c += w;
		n -= (uint64_t)w;
	}
	return 0;
}

FILE *npu_afile_stdio(npu_afile *a, npu_err *e)
{
	char eb[128];

	if (!a->f && !(a->f = fdopen(a->fd, "w")))
		npu_errf(e, "%s: %s", a->path, npu_strerror(errno, eb, sizeof eb));
	return a->f;
}

static void sync_folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	if (!slash)
		dir = strdup(".");
	else
		dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
	if (!dir)
		return;
	/* a folder that cannot be opened or synced is no error: the data is */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

int npu_afile_commit(npu_afile *a, npu_err *e)
{
	char eb[128];
	int bad = 0;

	/* a write error may surface only at flush or close (NFS): check all */
	if (a->f)
		bad = fflush(a->f) != 0 || ferror(a->f);
	if (!bad)
		bad = fsync(a->fd) < 0;
	if (!bad) {
		bad = (a->f ? fclose(a->f) : close(a->fd)) != 0;
		a->f = NULL;
		a->fd = -1;
	}
	if (bad) {
		npu_errf(e, "%s: cannot write: %s", a->path, npu_strerror(errno, eb, sizeof eb));
		npu_afile_abort(a);
		return -1;
	}
	if (rename(a->tmp, a->path) < 0) {
		npu_errf(e, "%s: cannot rename the temporary file into place: %s",
			 a->path, npu_strerror(errno, eb, sizeof eb));
		npu_afile_abort(a);
		return -1;
	}
	sync_folder_of(a->path);
	release(a);
	return 0;
}

void npu_afile_abort(npu_afile *a)
{
	if (a->f)
		fclose(a->f);
	else if (a->fd >= 0)
		close(a->fd);
	if (a->tmp)
		unlink(a->tmp);
	release(a);
}
