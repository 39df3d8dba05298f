/*
 * fuzz_target.c - arbitrary bytes as a target file.  The parser must
 * reject or accept them without crashing, and whatever it accepts must
 * survive the trip through the canonical form with the same hash and the
 * same values (otherwise two programs could disagree on a target).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa/target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char canon[NPU_TARGET_TEXT_MAX];
	npu_target t, u;
	npu_err e;
	int n;

	if (npu_target_parse(&t, "fuzz.ini", (const char *)data, size, &e) < 0) {
		/* errors name the file */
		if (strncmp(e.msg, "fuzz.ini", 8))
			abort();
		return 0;
	}
	if (t.hash != npu_target_hash(&t))
		abort();
	n = npu_target_canonical(&t, canon, sizeof canon);
	if (n <= 0 || n >= (int)sizeof canon)
		abort();
	if (npu_target_parse(&u, "canon.ini", canon, (size_t)n, &e) < 0)
		abort();
	if (u.hash != t.hash || memcmp(&u, &t, sizeof t))
		abort();
	return 0;
}
