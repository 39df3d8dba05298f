/*
 * replay.c - runs a fuzz target over its seed corpus, so that every build
 * (the sanitizer build included) checks the parsers against the inputs that
 * once found bugs.  With --enable-fuzz the target links libFuzzer instead,
 * and this file contributes nothing.
 *
 * Usage: fuzz_NAME [FILE|DIR ...]; with no argument it reads
 * $srcdir/tests/fuzz/corpus/NAME/ (NAME from its own program name).
 */
#ifndef NPU_LIBFUZZER
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f) {
		perror(path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto fail;
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		goto fail;
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
fail:
	fprintf(stderr, "%s: cannot read\n", path);
	free(buf);
	fclose(f);
	return -1;
}

static int run_path(const char *path, int *count)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	char sub[4096];
	int rc = 0;

	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		++*count;
		return run_file(path);
	}
	if (!(d = opendir(path))) {
		perror(path);
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
		if (run_path(sub, count) < 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	char dir[4096];
	const char *base, *srcdir = getenv("srcdir");
	int count = 0, rc = 0;

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			if (run_path(argv[i], &count) < 0)
				rc = 1;
	} else {
		base = strrchr(argv[0], '/');
		base = base ? base + 1 : argv[0];
		if (!strncmp(base, "lt-", 3))
			base += 3;
		if (!strncmp(base, "fuzz_", 5))
			base += 5;
		snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s",
			 srcdir ? srcdir : ".", base);
		if (run_path(dir, &count) < 0)
			rc = 1;
	}
	printf("%s: %d corpus inputs replayed\n", argv[0], count);
	return rc;
}
#endif
