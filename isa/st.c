/*
 * st.c - safetensors reader and writer (see st.h, docs/numerics.md).
 *
 * A file is: u64 little-endian N, N bytes of JSON header, then the data
 * area.  The reader maps the whole file as one private copy-on-write blob
 * (weights files are tens of megabytes and most consumers read each tensor
 * once, so copying them through read() would double the cost), validates the
 * header completely (every rule below names the file and the tensor when
 * it fails), and points each tensor into the blob.  Nothing in the blob is
 * aligned: data_offsets are arbitrary byte offsets, so consumers copy with
 * memcpy or use the npu_load_* helpers of dtype.h.
 *
 * The writer produces what the reference implementation produces: compact
 * JSON, tensors laid out back to back in the given order, and the header
 * padded with spaces so that the data area starts at a multiple of 8.
 */
#include "isa/st.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/afile.h"
#include "isa/isa.h"

/* Header lengths above this are refused before anything is allocated. */
#define ST_MAX_HEADER 100000000u

/* safetensors dtype codes, indexed by enum npu_dtype. */
static const char *const st_codes[NPU_NDTYPE] = {
	[NPU_DT_F32] = "F32",  [NPU_DT_BF16] = "BF16", [NPU_DT_F16] = "F16",
	[NPU_DT_E4M3] = "F8_E4M3", [NPU_DT_E5M2] = "F8_E5M2",
	[NPU_DT_I8] = "I8",    [NPU_DT_U8] = "U8",     [NPU_DT_I32] = "I32",
	[NPU_DT_I64] = "I64",  [NPU_DT_BOOL] = "BOOL", [NPU_DT_F64] = "F64",
	[NPU_DT_I16] = "I16",
};

const char *npu_st_dtype_code(int dt)
{
	return dt >= 0 && dt < NPU_NDTYPE ? st_codes[dt] : NULL;
}

int npu_st_dtype_from_code(const char *code)
{
	for (int dt = 0; dt < NPU_NDTYPE; dt++)
		if (st_codes[dt] && !strcmp(st_codes[dt], code))
			return dt;
	return -1;
}

uint64_t npu_numel(int ndim, const int64_t *shape)
{
	uint64_t n = 1;

	for (int i = 0; i < ndim; i++) {
		if (shape[i] < 0)
			return 0;
		if (__builtin_mul_overflow(n, (uint64_t)shape[i], &n))
			return UINT64_MAX;
	}
	return n;
}

const char *npu_shape_str(char *buf, size_t n, int ndim, const int64_t *shape,
			  const char *sep)
{
	size_t k = (size_t)snprintf(buf, n, "[");

	for (int i = 0; i < ndim && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? sep : "",
				      (long long)shape[i]);
	if (k < n)
		snprintf(buf + k, n - k, "]");
	return buf;
}

/* Bytes of a tensor, or -1 with e set when they overflow 64 bits. */
static int tensor_bytes(const npu_tensor *t, uint64_t *bytes, npu_err *e)
{
	uint64_t n = 1;

	for (int i = 0; i < t->ndim; i++)
		if (__builtin_mul_overflow(n, (uint64_t)t->shape[i], &n))
			goto overflow;
	if (__builtin_mul_overflow(n, (uint64_t)npu_dtype_size(t->dtype), &n))
		goto overflow;
	*bytes = n;
	return 0;
overflow:
	return npu_errf(e, "shape holds more than 2^64 bytes");
}

/*
 * The blob is always a mapping (of the file, or anonymous for parsed
 * memory and empty files), so that freeing needs no flag: blob_len bytes,
 * at least 1.
 */
static void *blob_map(int fd, size_t len)
{
	void *p = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE,
		       fd >= 0 && len ? MAP_PRIVATE : MAP_PRIVATE | MAP_ANONYMOUS,
		       fd >= 0 && len ? fd : -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void npu_st_free(npu_stfile *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->t[i].name);
	free(f->t);
	free(f->metadata);
	if (f->blob)
		munmap(f->blob, f->blob_len ? f->blob_len : 1);
	memset(f, 0, sizeof *f);
}

const npu_tensor *npu_st_find(const npu_stfile *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->t[i].name, name))
			return &f->t[i];
	return NULL;
}

/* ---- reading ---------------------------------------------------------- */

/* A JSON integer in [0, INT64_MAX], or -1 with e set (what names it). */
static int json_count(const json_t *v, int64_t *out, const char *what,
		      npu_err *e)
{
	if (!json_is_integer(v))
		return npu_errf(e, "%s is not an integer", what);
	if (json_integer_value(v) < 0)
		return npu_errf(e, "%s is negative (%lld)", what,
				(long long)json_integer_value(v));
	*out = json_integer_value(v);
	return 0;
}

/* The dtype/shape/data_offsets of one entry; offsets into begin/end. */
static int parse_info(npu_tensor *t, const json_t *info, uint64_t data_len,
		      uint64_t *begin, uint64_t *end, npu_err *e)
{
	const char *key, *code;
	json_t *v, *dt = NULL, *shape = NULL, *offs = NULL;
	int64_t b, en;
	uint64_t need;
	char what[64], sbuf[256];

	if (!json_is_object(info))
		return npu_errf(e, "entry is not an object");
	json_object_foreach((json_t *)info, key, v) {
		if (!strcmp(key, "dtype"))
			dt = v;
		else if (!strcmp(key, "shape"))
			shape = v;
		else if (!strcmp(key, "data_offsets"))
			offs = v;
		else
			return npu_errf(e, "unknown key '%s'", key);
	}
	if (!dt || !shape || !offs)
		return npu_errf(e, "missing '%s'",
				!dt ? "dtype" : !shape ? "shape" : "data_offsets");
	if (!(code = json_string_value(dt)))
		return npu_errf(e, "dtype is not a string");
	if ((t->dtype = npu_st_dtype_from_code(code)) < 0)
		return npu_errf(e, "unsupported dtype '%s'", code);
	if (!json_is_array(shape))
		return npu_errf(e, "shape is not an array");
	if (json_array_size(shape) > NPU_MAX_DIMS)
		return npu_errf(e, "shape has %zu dimensions, at most %d supported",
				json_array_size(shape), NPU_MAX_DIMS);
	t->ndim = (int)json_array_size(shape);
	for (int i = 0; i < t->ndim; i++) {
		snprintf(what, sizeof what, "shape[%d]", i);
		if (json_count(json_array_get(shape, (size_t)i), &t->shape[i],
			       what, e) < 0)
			return -1;
	}
	if (tensor_bytes(t, &t->nbytes, e) < 0)
		return -1;
	if (!json_is_array(offs) || json_array_size(offs) != 2)
		return npu_errf(e, "data_offsets is not an array of two integers");
	if (json_count(json_array_get(offs, 0), &b, "data_offsets[0]", e) < 0 ||
	    json_count(json_array_get(offs, 1), &en, "data_offsets[1]", e) < 0)
		return -1;
	if (b > en)
		return npu_errf(e, "data_offsets [%lld, %lld] end before they begin",
				(long long)b, (long long)en);
	if ((uint64_t)en > data_len)
		return npu_errf(e, "data_offsets [%lld, %lld] run past the data "
				"area (%llu bytes)", (long long)b, (long long)en,
				(unsigned long long)data_len);
	need = t->nbytes;
	if ((uint64_t)(en - b) != need)
		return npu_errf(e, "data_offsets [%lld, %lld] hold %llu bytes, "
				"shape %s %s needs %llu", (long long)b,
				(long long)en, (unsigned long long)(en - b),
				npu_shape_str(sbuf, sizeof sbuf, t->ndim, t->shape, ","),
				npu_dtype_torch(t->dtype), (unsigned long long)need);
	*begin = (uint64_t)b;
	*end = (uint64_t)en;
	return 0;
}

/* __metadata__: an object of strings, kept as compact JSON text. */
static int parse_metadata(npu_stfile *f, const json_t *md, npu_err *e)
{
	const char *key;
	json_t *v;

	if (!json_is_object(md))
		return npu_errf(e, "__metadata__ is not an object");
	json_object_foreach((json_t *)md, key, v)
		if (!json_is_string(v))
			return npu_errf(e, "__metadata__: '%s' is not a string", key);
	if (!(f->metadata = json_dumps(md, JSON_COMPACT)))
		return npu_errf(e, "__metadata__: out of memory");
	return 0;
}

struct span {
	uint64_t begin, end;
	size_t idx;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/* Tensors with bytes may not share any; empty ones may sit anywhere. */
static int check_overlaps(const npu_stfile *f, struct span *sp, npu_err *e)
{
	uint64_t reach = 0;
	size_t last = 0;
	int any = 0;

	qsort(sp, f->n, sizeof *sp, span_cmp);
	for (size_t i = 0; i < f->n; i++) {
		if (sp[i].begin == sp[i].end)
			continue;
		if (any && sp[i].begin < reach)
			return npu_errf(e, "tensor '%s': data_offsets [%llu, %llu] "
					"overlap those of '%s'",
					f->t[sp[i].idx].name,
					(unsigned long long)sp[i].begin,
					(unsigned long long)sp[i].end,
					f->t[last].name);
		if (sp[i].end > reach || !any) {
			reach = sp[i].end;
			last = sp[i].idx;
		}
		any = 1;
	}
	return 0;
}

/* Validates the header of the blob in f and fills f's tensors. */
static int parse_blob(npu_stfile *f, npu_err *e)
{
	const unsigned char *p = f->blob;
	uint64_t hlen = 0, data_len;
	json_t *root = NULL, *v;
	json_error_t jerr;
	struct span *sp = NULL;
	const char *key;
	size_t n = 0;
	int rc = -1;

	if (f->blob_len < 8)
		return npu_errf(e, "file too short for the header length (%zu bytes)",
				f->blob_len);
	for (int i = 7; i >= 0; i--)
		hlen = hlen << 8 | p[i];
	if (hlen > ST_MAX_HEADER)
		return npu_errf(e, "header length %llu exceeds the limit of %u bytes",
				(unsigned long long)hlen, ST_MAX_HEADER);
	if (hlen > f->blob_len - 8)
		return npu_errf(e, "header length %llu runs past the end of the "
				"file (%zu bytes)", (unsigned long long)hlen,
				f->blob_len);
	data_len = f->blob_len - 8 - hlen;
	root = json_loadb((const char *)p + 8, (size_t)hlen,
			  JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return npu_errf(e, "header: %s (line %d, column %d)", jerr.text,
				jerr.line, jerr.column);
	if (!json_is_object(root)) {
		npu_errf(e, "header is not a JSON object");
		goto out;
	}
	n = json_object_size(root);
	f->t = calloc(n ? n : 1, sizeof *f->t);
	sp = calloc(n ? n : 1, sizeof *sp);
	if (!f->t || !sp) {
		npu_errf(e, "out of memory for %zu tensors", n);
		goto out;
	}
	json_object_foreach(root, key, v) {
		npu_tensor *t;
		uint64_t b = 0, en = 0;

		if (!strcmp(key, "__metadata__")) {
			if (parse_metadata(f, v, e) < 0)
				goto out;
			continue;
		}
		t = &f->t[f->n];
		if (!(t->name = strdup(key))) {
			npu_errf(e, "out of memory");
			goto out;
		}
		f->n++;
		if (parse_info(t, v, data_len, &b, &en, e) < 0) {
			npu_err_prefix(e, "tensor '%s'", key);
			goto out;
		}
		t->data = (unsigned char *)f->blob + 8 + hlen + b;
		sp[f->n - 1] = (struct span){ b, en, f->n - 1 };
	}
	if (check_overlaps(f, sp, e) < 0)
		goto out;
	rc = 0;
out:
	free(sp);
	json_decref(root);
	return rc;
}

int npu_st_parse(npu_stfile *f, const char *name, const void *data,
		 size_t len, npu_err *e)
{
	memset(f, 0, sizeof *f);
	if (!(f->blob = blob_map(-1, len)))
		return npu_errf(e, "%s: out of memory for %zu bytes", name, len);
	if (len)
		memcpy(f->blob, data, len);
	f->blob_len = len;
	if (parse_blob(f, e) < 0) {
		npu_err_prefix(e, "%s", name);
		npu_st_free(f);
		return -1;
	}
	return 0;
}

int npu_st_read(npu_stfile *f, const char *path, npu_err *e)
{
	struct stat st;
	int fd;

	memset(f, 0, sizeof *f);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return npu_errf(e, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		npu_errf(e, "%s: not a regular file", path);
		goto fail;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		npu_errf(e, "%s: too large to map", path);
		goto fail;
	}
	/* a mapping, not a copy; the file must not shrink while in use
	 * (the same contract as any mmap reader) */
	if (!(f->blob = blob_map(fd, (size_t)st.st_size))) {
		npu_errf(e, "%s: cannot map %lld bytes: %s", path,
			 (long long)st.st_size, strerror(errno));
		goto fail;
	}
	f->blob_len = (size_t)st.st_size;
	close(fd);
	fd = -1;
	if (parse_blob(f, e) < 0) {
		npu_err_prefix(e, "%s", path);
		goto fail;
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	npu_st_free(f);
	return -1;
}

/* ---- writing ---------------------------------------------------------- */

/*
 * Builds the header (with its length prefix and padding) for t; *data_len
 * gets the size of the data area.  Checks every tensor first.
 */
static int build_header(const npu_tensor *t, size_t n, const char *metadata,
			char **out, size_t *out_len, uint64_t *data_len,
			npu_err *e)
{
	json_t *root = json_object(), *md = NULL, *info;
	json_error_t jerr;
	uint64_t off = 0, bytes = 0;
	char *text = NULL;
	size_t tlen, hlen;
	int rc = -1;

	if (!root)
		return npu_errf(e, "out of memory");
	if (metadata) {
		const char *k;
		json_t *v;
		md = json_loads(metadata, JSON_REJECT_DUPLICATES, &jerr);
		if (!md) {
			npu_errf(e, "__metadata__: %s", jerr.text);
			goto out;
		}
		if (!json_is_object(md)) {
			npu_errf(e, "__metadata__ is not an object");
			goto out;
		}
		json_object_foreach(md, k, v)
			if (!json_is_string(v)) {
				npu_errf(e, "__metadata__: '%s' is not a string", k);
				goto out;
			}
		json_object_set(root, "__metadata__", md);
	}
	for (size_t i = 0; i < n; i++) {
		const npu_tensor *ti = &t[i];
		json_t *shape;
		const char *name = ti->name ? ti->name : "";

		if (!ti->name || !strcmp(name, "__metadata__") ||
		    json_object_get(root, name)) {
			npu_errf(e, "tensor %zu ('%s'): %s", i, name,
				 !ti->name ? "has no name" : "name used twice");
			goto out;
		}
		if (!npu_st_dtype_code(ti->dtype)) {
			npu_errf(e, "tensor '%s': unknown dtype %d", name, ti->dtype);
			goto out;
		}
		if (ti->ndim < 0 || ti->ndim > NPU_MAX_DIMS) {
			npu_errf(e, "tensor '%s': %d dimensions", name, ti->ndim);
			goto out;
		}
		for (int d = 0; d < ti->ndim; d++)
			if (ti->shape[d] < 0) {
				npu_errf(e, "tensor '%s': shape[%d] is negative", name, d);
				goto out;
			}
		if (tensor_bytes(ti, &bytes, e) < 0) {
			npu_err_prefix(e, "tensor '%s'", name);
			goto out;
		}
		if (bytes != ti->nbytes) {
			npu_errf(e, "tensor '%s': nbytes is %llu, shape and dtype "
				 "need %llu", name, (unsigned long long)ti->nbytes,
				 (unsigned long long)bytes);
			goto out;
		}
		if (bytes && !ti->data) {
			npu_errf(e, "tensor '%s': no data", name);
			goto out;
		}
		shape = json_array();
		for (int d = 0; d < ti->ndim; d++)
			json_array_append_new(shape, json_integer(ti->shape[d]));
		info = json_pack("{s:s, s:o, s:[I,I]}", "dtype",
				 npu_st_dtype_code(ti->dtype), "shape", shape,
				 "data_offsets", (json_int_t)off,
				 (json_int_t)(off + bytes));
		if (!info || json_object_set_new(root, name, info) < 0) {
			npu_errf(e, "tensor '%s': out of memory", name);
			goto out;
		}
		off += bytes;
	}
	if (!(text = json_dumps(root, JSON_COMPACT))) {
		npu_errf(e, "out of memory");
		goto out;
	}
	tlen = strlen(text);
	hlen = (tlen + 7) & ~(size_t)7;   /* data starts 8-aligned */
	if (!(*out = malloc(8 + hlen))) {
		npu_errf(e, "out of memory");
		goto out;
	}
	for (int i = 0; i < 8; i++)
		(*out)[i] = (char)((uint64_t)hlen >> (8 * i));
	memcpy(*out + 8, text, tlen);
	memset(*out + 8 + tlen, ' ', hlen - tlen);
	*out_len = 8 + hlen;
	*data_len = off;
	rc = 0;
out:
	free(text);
	json_decref(md);
	json_decref(root);
	return rc;
}

int npu_st_encode(const npu_tensor *t, size_t n, const char *metadata_json,
		  void **out, size_t *len, npu_err *e)
{
	char *head = NULL, *buf;
	size_t hlen;
	uint64_t dlen;

	*out = NULL;
	*len = 0;
	if (build_header(t, n, metadata_json, &head, &hlen, &dlen, e) < 0)
		return -1;
	if (dlen > SIZE_MAX - hlen || !(buf = realloc(head, hlen + dlen))) {
		free(head);
		return npu_errf(e, "out of memory for %llu bytes",
				(unsigned long long)dlen);
	}
	for (size_t i = 0, off = hlen; i < n; off += t[i].nbytes, i++)
		if (t[i].nbytes)
			memcpy(buf + off, t[i].data, t[i].nbytes);
	*out = buf;
	*len = hlen + dlen;
	return 0;
}

int npu_st_write(const char *path, const npu_tensor *t, size_t n,
		 const char *metadata_json, npu_err *e)
{
	char *head = NULL;
	size_t hlen;
	uint64_t dlen;
	npu_afile af;
	int rc = -1;

	if (build_header(t, n, metadata_json, &head, &hlen, &dlen, e) < 0)
		return npu_err_prefix(e, "%s", path);
	if (npu_afile_open(&af, path, e) < 0)
		goto out;
	if (npu_afile_write(&af, head, hlen, e) < 0)
		goto fail;
	for (size_t i = 0; i < n; i++)
		if (t[i].nbytes && npu_afile_write(&af, t[i].data, t[i].nbytes, e) < 0)
			goto fail;
	rc = npu_afile_commit(&af, e);
	goto out;
fail:
	npu_afile_abort(&af);
out:
	free(head);
	return rc;
}
