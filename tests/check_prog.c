/*
 * check_prog.c - the program container: a full round trip, the section
 * list readelf sees, the loader's rejection of each kind of damage (made by
 * corrupting a good file at offsets computed from its own section headers),
 * and atomic writes that fail cleanly.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa/isa.h"
#include "isa/prog.h"

#define NCODE 120

/* ---- helpers --------------------------------------------------------- */

static char *xstrdup(const char *s)
{
	char *d = strdup(s);
	ck_assert_ptr_nonnull(d);
	return d;
}

static void *xcalloc(size_t n, size_t size)
{
	void *q = calloc(n, size);
	ck_assert_ptr_nonnull(q);
	return q;
}

static uint64_t word(int op, int a, int b, int c, int32_t imm)
{
	npu_insn in = { (uint8_t)op, (uint8_t)a, (uint8_t)b, (uint8_t)c, imm };
	return npu_encode(&in);
}

/*
 * A small program with every table non-empty: 120 instructions in two
 * kernels, an input, a const and an output buffer, three FX nodes and a
 * host call.
 */
static void make_prog(npu_prog *p)
{
	memset(p, 0, sizeof *p);
	p->ncode = NCODE;
	p->code = xcalloc(NCODE, sizeof *p->code);
	for (int i = 0; i < NCODE - 1; i++)
		p->code[i] = i % 3 ? word(NPU_OP_NOP, 0, 0, 0, 0)
				   : word(NPU_OP_LI, 1 + i % 31, 0, 0, i * 1000 - 7);
	p->code[NCODE - 1] = word(NPU_OP_HALT, 0, 0, 0, 0);
	p->insn_node = xcalloc(NCODE, sizeof *p->insn_node);
	for (int i = 0; i < NCODE; i++)
		p->insn_node[i] = i < 10 ? 0u : i == 50 ? NPU_NO_NODE : 1u + (uint32_t)i % 2;

	p->ncdata = 48;
	p->cdata = xcalloc(48, 1);
	for (int i = 0; i < 48; i++)
		p->cdata[i] = (uint8_t)(i * 7 + 1);

	p->nbufs = 3;
	p->bufs = xcalloc(3, sizeof *p->bufs);
	p->bufs[0] = (npu_buf){ xstrdup("arg1_1"), NPU_DT_F32, 2, { 2, 3 },
				NPU_BUF_INPUT, 0, 24, 0, 0 };
	p->bufs[1] = (npu_buf){ xstrdup("weight"), NPU_DT_BF16, 3, { 2, 3, 4 },
				NPU_BUF_CONST, 64, 48, 0, 0 };
	p->bufs[2] = (npu_buf){ xstrdup("output.0"), NPU_DT_I64, 1, { 5 },
				NPU_BUF_OUTPUT, 1024, 40, 0, 0 };
	p->dram_size = 4096;

	p->nnodes = 3;
	p->nodes = xcalloc(3, sizeof *p->nodes);
	p->nodes[0] = (npu_node){ xstrdup("addmm"), xstrdup("aten.addmm.default"),
				  xstrdup("layers.0.mlp"), xstrdup("models.py:251") };
	p->nodes[1] = (npu_node){ xstrdup("relu"), xstrdup("aten.relu.default"),
				  xstrdup(""), xstrdup("") };
	p->nodes[2] = (npu_node){ xstrdup("cumsum"), xstrdup("aten.cumsum.default"),
				  xstrdup("head"), xstrdup("models.py:9") };

	p->nkernel_nodes = 3;
	p->kernel_nodes = xcalloc(3, sizeof *p->kernel_nodes);
	p->kernel_nodes[0] = 0;
	p->kernel_nodes[1] = 1;
	p->kernel_nodes[2] = 2;
	p->nkernels = 2;
	p->kernels = xcalloc(2, sizeof *p->kernels);
	p->kernels[0] = (npu_kernel){ xstrdup("k0_addmm"), 0, 10, 0, 1 };
	p->kernels[1] = (npu_kernel){ xstrdup("k1_relu"), 10, NCODE - 1, 1, 2 };

	p->nhcalls = 1;
	p->hcalls = xcalloc(1, sizeof *p->hcalls);
	p->hcalls[0] = (npu_hostcall){ xstrdup("aten.cumsum.default"),
				       xstrdup("{\"dim\": 1}"), 1, 2,
				       xcalloc(2, sizeof(uint32_t)), 2 };
	p->hcalls[0].args[0] = 0;
	p->hcalls[0].args[1] = 2;

	strcpy(p->target_name, "tiny");
	p->target_hash = 0x0123456789abcdefull;
	ck_assert_msg(npu_prog_check(p, NULL) == 0, "sample program invalid");
}

static void assert_same(const npu_prog *a, const npu_prog *b)
{
	ck_assert_uint_eq(a->ncode, b->ncode);
	for (uint32_t i = 0; i < a->ncode; i++) {
		ck_assert_uint_eq(a->code[i], b->code[i]);
		ck_assert_uint_eq(a->insn_node[i], b->insn_node[i]);
	}
	ck_assert_uint_eq(a->ncdata, b->ncdata);
	ck_assert_int_eq(memcmp(a->cdata, b->cdata, a->ncdata), 0);
	ck_assert_uint_eq(a->nbufs, b->nbufs);
	for (uint32_t i = 0; i < a->nbufs; i++) {
		const npu_buf *x = &a->bufs[i], *y = &b->bufs[i];
		ck_assert_str_eq(x->name, y->name);
		ck_assert_int_eq(x->dtype, y->dtype);
		ck_assert_int_eq(x->ndim, y->ndim);
		for (int d = 0; d < x->ndim; d++)
			ck_assert_int_eq(x->shape[d], y->shape[d]);
		ck_assert_int_eq(x->kind, y->kind);
		ck_assert_uint_eq(x->addr, y->addr);
		ck_assert_uint_eq(x->size, y->size);
		ck_assert_uint_eq(x->data_off, y->data_off);
	}
	ck_assert_uint_eq(a->dram_size, b->dram_size);
	ck_assert_uint_eq(a->nnodes, b->nnodes);
	for (uint32_t i = 0; i < a->nnodes; i++) {
		ck_assert_str_eq(a->nodes[i].name, b->nodes[i].name);
		ck_assert_str_eq(a->nodes[i].target, b->nodes[i].target);
		ck_assert_str_eq(a->nodes[i].module, b->nodes[i].module);
		ck_assert_str_eq(a->nodes[i].source, b->nodes[i].source);
	}
	ck_assert_uint_eq(a->nkernels, b->nkernels);
	for (uint32_t i = 0; i < a->nkernels; i++) {
		ck_assert_str_eq(a->kernels[i].name, b->kernels[i].name);
		ck_assert_uint_eq(a->kernels[i].start, b->kernels[i].start);
		ck_assert_uint_eq(a->kernels[i].end, b->kernels[i].end);
		ck_assert_uint_eq(a->kernels[i].node_first, b->kernels[i].node_first);
		ck_assert_uint_eq(a->kernels[i].node_count, b->kernels[i].node_count);
	}
	ck_assert_uint_eq(a->nkernel_nodes, b->nkernel_nodes);
	for (uint32_t i = 0; i < a->nkernel_nodes; i++)
		ck_assert_uint_eq(a->kernel_nodes[i], b->kernel_nodes[i]);
	ck_assert_uint_eq(a->nhcalls, b->nhcalls);
	for (uint32_t i = 0; i < a->nhcalls; i++) {
		const npu_hostcall *x = &a->hcalls[i], *y = &b->hcalls[i];
		ck_assert_str_eq(x->op, y->op);
		ck_assert_str_eq(x->attrs, y->attrs);
		ck_assert_uint_eq(x->nin, y->nin);
		ck_assert_uint_eq(x->nargs, y->nargs);
		for (uint32_t k = 0; k < x->nargs; k++)
			ck_assert_uint_eq(x->args[k], y->args[k]);
		ck_assert_uint_eq(x->node, y->node);
	}
	ck_assert_str_eq(a->target_name, b->target_name);
	ck_assert_uint_eq(a->target_hash, b->target_hash);
}

/* A fresh temporary directory, removed (with its files) by rm_tmpdir. */
static char tmpdir[4096];

static void mk_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/check_prog.XXXXXX", t && *t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void rm_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *de;
	char path[8192];

	if (!d)
		return;
	chmod(tmpdir, 0700);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof path, "%s/%s", tmpdir, de->d_name);
		chmod(path, 0700);
		if (rmdir(path) < 0)
			unlink(path);
	}
	closedir(d);
	ck_assert_int_eq(rmdir(tmpdir), 0);
}

/* The bytes of a valid program file, written by npu_prog_write. */
static uint8_t *good_image(size_t *len)
{
	npu_prog p;
	npu_err e;
	char path[8192];
	FILE *f;
	uint8_t *buf;
	long n;

	make_prog(&p);
	snprintf(path, sizeof path, "%s/good.bin", tmpdir);
	ck_assert_msg(npu_prog_write(&p, path, &e) == 0, "%s", e.msg);
	npu_prog_free(&p);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = xcalloc((size_t)n, 1);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	unlink(path);
	*len = (size_t)n;
	return buf;
}

/* ---- raw ELF access, independent of the code under test --------------- */

static uint64_t get(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put(uint8_t *p, int n, uint64_t v)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

/* The section header of the section called name. */
static uint8_t *shdr(uint8_t *img, const char *name)
{
	uint64_t shoff = get(img + 40, 8);
	unsigned shnum = (unsigned)get(img + 60, 2), shstrndx = (unsigned)get(img + 62, 2);
	uint8_t *strs = img + get(img + shoff + 64 * shstrndx + 24, 8);

	for (unsigned i = 1; i < shnum; i++) {
		uint8_t *sh = img + shoff + 64 * i;
		if (!strcmp((char *)strs + get(sh, 4), name))
			return sh;
	}
	ck_abort_msg("no section %s", name);
	return NULL;
}

static uint64_t sec_off(uint8_t *img, const char *name)
{
	return get(shdr(img, name) + 24, 8);
}

static uint64_t sec_size(uint8_t *img, const char *name)
{
	return get(shdr(img, name) + 32, 8);
}

/* Parses img as "prog.bin" and expects failure with want in the message. */
static void expect_reject(const uint8_t *img, size_t len, const char *want)
{
	npu_prog p;
	npu_err e;

	memset(&p, 0x5a, sizeof p);
	ck_assert_msg(npu_prog_parse(&p, "prog.bin", img, len, &e) == -1,
		      "accepted; expected '%s'", want);
	ck_assert_msg(strstr(e.msg, want), "message '%s' lacks '%s'", e.msg, want);
	ck_assert_msg(!strncmp(e.msg, "prog.bin: ", 10), "'%s' lacks the file name", e.msg);
	ck_assert_ptr_null(p.code);
	ck_assert_ptr_null(p.bufs);
	ck_assert_uint_eq(p.nbufs, 0);
}

/* ---- tests ----------------------------------------------------------- */

START_TEST(round_trip)
{
	npu_prog a, b;
	npu_err e;
	char path[8192];

	mk_tmpdir();
	make_prog(&a);
	snprintf(path, sizeof path, "%s/prog.bin", tmpdir);
	ck_assert_msg(npu_prog_write(&a, path, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(count_entries(tmpdir), 1); /* no temporary left */
	ck_assert_msg(npu_prog_read(&b, path, &e) == 0, "%s", e.msg);
	assert_same(&a, &b);
	/* overwriting an existing file works too */
	ck_assert_msg(npu_prog_write(&b, path, &e) == 0, "%s", e.msg);
	npu_prog_free(&b);
	ck_assert_msg(npu_prog_read(&b, path, &e) == 0, "%s", e.msg);
	assert_same(&a, &b);
	npu_prog_free(&a);
	npu_prog_free(&b);
	ck_assert_ptr_null(b.code);
	ck_assert_uint_eq(b.ncode, 0);
	unlink(path);
	rm_tmpdir();
}
END_TEST

START_TEST(round_trip_minimal)
{
	npu_prog a, b;
	npu_err e;
	char path[8192];

	/* An empty program: every table empty, no insn_node. */
	mk_tmpdir();
	memset(&a, 0, sizeof a);
	snprintf(path, sizeof path, "%s/empty.bin", tmpdir);
	ck_assert_msg(npu_prog_write(&a, path, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_prog_read(&b, path, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(b.ncode, 0);
	ck_assert_ptr_null(b.insn_node);
	ck_assert_uint_eq(b.nbufs, 0);
	ck_assert_str_eq(b.target_name, "");
	npu_prog_free(&b);
	unlink(path);
	rm_tmpdir();
}
END_TEST

START_TEST(lookups)
{
	npu_prog p;

	make_prog(&p);
	ck_assert_int_eq(npu_prog_find_buf(&p, "weight"), 1);
	ck_assert_int_eq(npu_prog_find_buf(&p, "output.0"), 2);
	ck_assert_int_eq(npu_prog_find_buf(&p, "nope"), -1);
	ck_assert_int_eq(npu_prog_kernel_at(&p, 0), 0);
	ck_assert_int_eq(npu_prog_kernel_at(&p, 9), 0);
	ck_assert_int_eq(npu_prog_kernel_at(&p, 10), 1);
	ck_assert_int_eq(npu_prog_kernel_at(&p, NCODE - 2), 1);
	ck_assert_int_eq(npu_prog_kernel_at(&p, NCODE - 1), -1); /* the halt */
	ck_assert_int_eq(npu_prog_kernel_at(&p, UINT32_MAX), -1);
	/* a gap between kernels */
	p.kernels[1].start = 20;
	ck_assert_int_eq(npu_prog_kernel_at(&p, 15), -1);
	ck_assert_int_eq(npu_prog_kernel_at(&p, 20), 1);
	npu_prog_free(&p);

	for (int k = 0; k < NPU_NBUFKIND; k++)
		ck_assert_int_eq(npu_bufkind_from_name(npu_bufkind_name(k)), k);
	ck_assert_str_eq(npu_bufkind_name(NPU_BUF_INPUT), "input");
	ck_assert_str_eq(npu_bufkind_name(NPU_BUF_OUTPUT), "output");
	ck_assert_str_eq(npu_bufkind_name(NPU_BUF_CONST), "const");
	ck_assert_str_eq(npu_bufkind_name(NPU_BUF_SCRATCH), "scratch");
	ck_assert_str_eq(npu_bufkind_name(NPU_BUF_INOUT), "inout");
	ck_assert_ptr_null(npu_bufkind_name(NPU_NBUFKIND));
	ck_assert_ptr_null(npu_bufkind_name(-1));
	ck_assert_int_eq(npu_bufkind_from_name("weights"), -1);
	ck_assert_int_eq(npu_bufkind_from_name(NULL), -1);
}
END_TEST

START_TEST(readelf_lists_sections)
{
	static const char *const want[] = {
		".text", ".npu.const", ".npu.bufs", ".npu.kernels", ".npu.nodes",
		".npu.knodes", ".npu.insnnode", ".npu.hcalls", ".npu.hcargs",
		".npu.target", ".npu.strtab", ".shstrtab",
	};
	npu_prog p;
	npu_err e;
	char path[8192], cmd[8300], out[16384];
	size_t n;
	FILE *f;

	if (access("/usr/bin/readelf", X_OK) != 0) {
		fprintf(stderr, "check_prog: no /usr/bin/readelf, section list not checked\n");
		return;
	}
	mk_tmpdir();
	make_prog(&p);
	snprintf(path, sizeof path, "%s/prog.bin", tmpdir);
	ck_assert_msg(npu_prog_write(&p, path, &e) == 0, "%s", e.msg);
	npu_prog_free(&p);
	snprintf(cmd, sizeof cmd, "/usr/bin/readelf -S -W '%s' 2>&1", path);
	ck_assert_ptr_nonnull(f = popen(cmd, "r"));
	n = fread(out, 1, sizeof out - 1, f);
	out[n] = '\0';
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_msg(!strstr(out, "Warning") && !strstr(out, "Error"), "%s", out);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char pat[64];
		snprintf(pat, sizeof pat, " %s ", want[i]);
		ck_assert_msg(strstr(out, pat), "readelf lacks %s:\n%s", want[i], out);
	}
	ck_assert_msg(strstr(out, "There are 13 section headers"), "%s", out);
	unlink(path);
	rm_tmpdir();
}
END_TEST

START_TEST(reject_truncated)
{
	size_t len, cuts[8];
	uint8_t *img;

	mk_tmpdir();
	img = good_image(&len);
	expect_reject(img, 0, "not an ELF file (bad magic)");
	expect_reject(img, 3, "not an ELF file (bad magic)");
	expect_reject(img, 40, "truncated ELF header (40 bytes, need 64)");
	cuts[0] = 64; cuts[1] = 65; cuts[2] = len / 3; cuts[3] = len / 2;
	cuts[4] = len - 64; cuts[5] = len - 1; cuts[6] = sec_off(img, ".npu.strtab") + 1;
	for (int i = 0; i < 7; i++)
		expect_reject(img, cuts[i], "past end of file");
	expect_reject(img, len - 1, "section header table: offset");
	free(img);
	rm_tmpdir();
}
END_TEST

START_TEST(reject_header)
{
	size_t len;
	uint8_t *img, *bad;

	mk_tmpdir();
	img = good_image(&len);
	bad = xcalloc(len, 1);
#define FRESH() memcpy(bad, img, len)
	FRESH(); bad[1] = 'X';
	expect_reject(bad, len, "prog.bin: not an ELF file (bad magic)");
	FRESH(); bad[4] = 1; /* ELFCLASS32 */
	expect_reject(bad, len, "prog.bin: ELF class 32, expected 64");
	FRESH(); bad[5] = 2; /* big-endian */
	expect_reject(bad, len, "not little-endian");
	FRESH(); put(bad + 18, 2, 0x3e);
	expect_reject(bad, len, "prog.bin: e_machine 0x3e is not an npusim program");
	FRESH(); put(bad + 16, 2, 1); /* ET_REL */
	expect_reject(bad, len, "ELF type 1, expected ET_EXEC");
	FRESH(); put(bad + 56, 2, 3);
	expect_reject(bad, len, "3 program headers, expected none");
	/* an oversized count: more section headers than the file holds */
	FRESH(); put(bad + 60, 2, 0xfe00);
	expect_reject(bad, len, "section header table: offset");
	FRESH(); put(bad + 60, 2, 0);
	expect_reject(bad, len, "e_shnum 0");
	FRESH(); put(bad + 62, 2, 40);
	expect_reject(bad, len, "e_shstrndx 40 out of range (13 sections)");
	FRESH(); put(bad + 40, 8, UINT64_MAX - 10); /* offset that wraps */
	expect_reject(bad, len, "past end of file");
#undef FRESH
	free(bad);
	free(img);
	rm_tmpdir();
}
END_TEST

START_TEST(reject_sections)
{
	size_t len;
	uint8_t *img, *bad, *sh;
	char want[256];
	uint64_t off, size;

	mk_tmpdir();
	img = good_image(&len);
	bad = xcalloc(len, 1);
#define FRESH() memcpy(bad, img, len)
	/* section offset past end of file */
	FRESH(); sh = shdr(bad, ".npu.bufs");
	size = get(sh + 32, 8);
	put(sh + 24, 8, len + 4096 - 1000);
	snprintf(want, sizeof want, "prog.bin: section .npu.bufs: offset %zu + size %llu past end of file (%zu bytes)",
		 len + 4096 - 1000, (unsigned long long)size, len);
	expect_reject(bad, len, want);
	/* size that overflows offset + size */
	FRESH(); put(shdr(bad, ".npu.bufs") + 32, 8, UINT64_MAX - 8);
	expect_reject(bad, len, "section .npu.bufs: offset");
	/* size not a multiple of the record */
	FRESH(); put(shdr(bad, ".npu.kernels") + 32, 8, 100);
	expect_reject(bad, len, "prog.bin: section .npu.kernels: size 100 is not a multiple of the 24-byte record");
	FRESH(); put(shdr(bad, ".text") + 32, 8, sec_size(bad, ".text") - 4);
	expect_reject(bad, len, "section .text: size 956 is not a multiple of the 8-byte record");
	/* overlapping tables */
	FRESH(); put(shdr(bad, ".npu.nodes") + 24, 8, sec_off(bad, ".npu.bufs") + 8);
	expect_reject(bad, len, "overlaps section .npu.bufs");
	FRESH(); put(shdr(bad, ".npu.const") + 24, 8, 16);
	expect_reject(bad, len, "overlaps the ELF header");
	/* a required section missing (its name changed) */
	FRESH(); off = sec_off(bad, ".shstrtab") + get(shdr(bad, ".npu.nodes"), 4);
	bad[off + 9] = 'z';
	expect_reject(bad, len, "prog.bin: required section .npu.nodes is missing");
	/* a section twice */
	FRESH(); put(shdr(bad, ".npu.nodes"), 4, get(shdr(bad, ".npu.bufs"), 4));
	expect_reject(bad, len, "section .npu.bufs appears twice");
	/* wrong type */
	FRESH(); put(shdr(bad, ".npu.bufs") + 4, 4, 8 /* SHT_NOBITS */);
	expect_reject(bad, len, "section .npu.bufs: type 8, expected 1");
	/* a section name outside .shstrtab */
	FRESH(); put(shdr(bad, ".npu.bufs"), 4, 5000);
	expect_reject(bad, len, "name at 5000 is not a string of .shstrtab");
	/* unterminated string: the last one in .npu.strtab, the target name */
	FRESH(); off = sec_off(bad, ".npu.strtab");
	size = sec_size(bad, ".npu.strtab");
	ck_assert_int_eq(memcmp(bad + off + size - 5, "tiny", 5), 0);
	bad[off + size - 1] = 'x';
	snprintf(want, sizeof want, "prog.bin: section .npu.strtab: string at %llu is not terminated",
		 (unsigned long long)(size - 5));
	expect_reject(bad, len, want);
	/* string offset past the table */
	FRESH(); put(bad + sec_off(bad, ".npu.bufs"), 4, 65535);
	snprintf(want, sizeof want, "prog.bin: section .npu.bufs: entry 0: name at 65535 past end of .npu.strtab (%llu bytes)",
		 (unsigned long long)size);
	expect_reject(bad, len, want);
	/* format version */
	FRESH(); put(bad + sec_off(bad, ".npu.target"), 4, 2);
	expect_reject(bad, len, "section .npu.target: format version 2, this npusim reads version 1");
	/* insn_node count */
	FRESH(); put(shdr(bad, ".npu.insnnode") + 32, 8, 40);
	expect_reject(bad, len, "section .npu.insnnode: 10 entries, expected one per instruction (120)");
#undef FRESH
	free(bad);
	free(img);
	rm_tmpdir();
}
END_TEST

START_TEST(reject_records)
{
	size_t len;
	uint8_t *img, *bad, *q;
	char want[256];
	int illegal = -1;

	mk_tmpdir();
	img = good_image(&len);
	bad = xcalloc(len, 1);
#define FRESH() memcpy(bad, img, len)
#define REC(sec, i, rec) (bad + sec_off(bad, sec) + (size_t)(i) * (rec))
	/* kernel range past .text */
	FRESH(); put(REC(".npu.kernels", 1, 24) + 8, 4, 400);
	expect_reject(bad, len, "prog.bin: .npu.kernels entry 1: code range 10..400 past end of .text (120 instructions)");
	/* kernels not sorted / overlapping */
	FRESH(); put(REC(".npu.kernels", 1, 24) + 4, 4, 5);
	expect_reject(bad, len, ".npu.kernels entry 1: code range 5..119 not after entry 0 (0..10)");
	FRESH(); put(REC(".npu.kernels", 0, 24) + 4, 4, 11);
	expect_reject(bad, len, ".npu.kernels entry 0: code range 11..10 is reversed");
	/* count that would overflow: node_first + node_count wraps 32 bits */
	FRESH(); put(REC(".npu.kernels", 1, 24) + 16, 4, UINT32_MAX);
	expect_reject(bad, len, ".npu.kernels entry 1: nodes 1 + 4294967295 past end of .npu.knodes (3 entries)");
	FRESH(); put(REC(".npu.hcalls", 0, 24) + 12, 4, UINT32_MAX);
	expect_reject(bad, len, "section .npu.hcalls: entry 0: args 0 + 4294967295 past end of .npu.hcargs (2 entries)");
	/* node indexes out of range */
	FRESH(); put(REC(".npu.knodes", 2, 4), 4, 99);
	expect_reject(bad, len, ".npu.knodes entry 2: node 99 out of range (3 nodes)");
	FRESH(); put(REC(".npu.insnnode", 7, 4), 4, 3);
	expect_reject(bad, len, ".npu.insnnode entry 7: node 3 out of range (3 nodes)");
	FRESH(); put(REC(".npu.hcalls", 0, 24) + 20, 4, 3);
	expect_reject(bad, len, ".npu.hcalls entry 0: node 3 out of range (3 nodes)");
	/* host-call args out of range */
	FRESH(); put(REC(".npu.hcargs", 1, 4), 4, 77);
	expect_reject(bad, len, ".npu.hcalls entry 0: arg 1: buffer 77 out of range (3 buffers)");
	FRESH(); put(REC(".npu.hcalls", 0, 24) + 16, 4, 1);
	expect_reject(bad, len, "section .npu.hcalls: entry 0: args 1 + 2 past end of .npu.hcargs (2 entries)");
	FRESH(); put(REC(".npu.hcalls", 0, 24) + 16, 4, 1);
	put(REC(".npu.hcalls", 0, 24) + 12, 4, 1);
	expect_reject(bad, len, "section .npu.hcalls: entry 0: args start at 1, expected 0");
	FRESH(); put(REC(".npu.hcalls", 0, 24) + 8, 4, 3);
	expect_reject(bad, len, ".npu.hcalls entry 0: 3 inputs but only 2 args");
	/* buffers */
	FRESH(); REC(".npu.bufs", 1, 96)[4] = 200;
	expect_reject(bad, len, ".npu.bufs entry 1: dtype 200 out of range");
	FRESH(); REC(".npu.bufs", 1, 96)[5] = 9;
	expect_reject(bad, len, ".npu.bufs entry 1: kind 9 out of range");
	FRESH(); REC(".npu.bufs", 2, 96)[6] = NPU_MAX_DIMS + 1;
	expect_reject(bad, len, ".npu.bufs entry 2: ndim 9 out of range (0..8)");
	FRESH(); put(REC(".npu.bufs", 0, 96) + 16, 8, 25);
	expect_reject(bad, len, ".npu.bufs entry 0: size 25 != 6 elements * 4 bytes");
	FRESH(); q = REC(".npu.bufs", 0, 96);
	put(q + 32, 8, 1ull << 40); put(q + 40, 8, 1ull << 40);
	expect_reject(bad, len, ".npu.bufs entry 0: element count overflows");
	FRESH(); put(REC(".npu.bufs", 0, 96) + 32, 8, (uint64_t)-2);
	expect_reject(bad, len, ".npu.bufs entry 0: shape[0] is negative (-2)");
	FRESH(); put(REC(".npu.bufs", 2, 96) + 8, 8, 8);
	expect_reject(bad, len, ".npu.bufs entries 0 and 2 overlap in DRAM (0x0..0x18 and 0x8..0x30)");
	FRESH(); put(REC(".npu.bufs", 2, 96) + 8, 8, 4090);
	expect_reject(bad, len, ".npu.bufs entry 2: address 0xffa + size 40 past end of DRAM (4096 bytes)");
	FRESH(); put(REC(".npu.bufs", 1, 96) + 24, 8, 8);
	expect_reject(bad, len, ".npu.bufs entry 1: const data 8..56 outside .npu.const (48 bytes)");
	FRESH(); put(REC(".npu.bufs", 1, 96) + 24, 8, UINT64_MAX - 4);
	expect_reject(bad, len, ".npu.bufs entry 1: const data");
	FRESH(); put(REC(".npu.bufs", 0, 96) + 24, 8, 8);
	expect_reject(bad, len, ".npu.bufs entry 0: data offset 8 on a buffer of kind input");
	FRESH(); put(REC(".npu.bufs", 2, 96), 4, get(REC(".npu.bufs", 0, 96), 4));
	expect_reject(bad, len, ".npu.bufs entries 0 and 2: both named 'arg1_1'");
	FRESH(); put(REC(".npu.bufs", 2, 96), 4, 0);
	expect_reject(bad, len, ".npu.bufs entry 2: name missing");
	/* illegal instruction word */
	for (int op = 0; op < 256 && illegal < 0; op++)
		if (!npu_optab[op].mnemonic)
			illegal = op;
	ck_assert_int_ge(illegal, 0);
	FRESH(); put(REC(".text", 5, 8), 8, (uint64_t)illegal);
	snprintf(want, sizeof want, "prog.bin: .text: instruction 5 (0x%016x) is not a valid instruction word", illegal);
	expect_reject(bad, len, want);
	FRESH(); put(REC(".text", 7, 8), 8, word(NPU_OP_LI, 40, 0, 0, 0)); /* x40 */
	expect_reject(bad, len, ".text: instruction 7 (");
#undef REC
#undef FRESH
	free(bad);
	free(img);
	rm_tmpdir();
}
END_TEST

/*
 * A short file whose records all point at one long string must not make
 * the loader copy it over and over: 400 references to 200 KB would be 80 MB.
 */
START_TEST(reject_string_amplification)
{
	npu_prog p;
	npu_err e;
	char path[8192];
	size_t len, n = 100, biglen = 200000;
	uint8_t *img, *recs;
	uint32_t big;
	char *attrs;
	FILE *f;

	mk_tmpdir();
	make_prog(&p);
	for (uint32_t i = 0; i < p.nnodes; i++) {
		free(p.nodes[i].name); free(p.nodes[i].target);
		free(p.nodes[i].module); free(p.nodes[i].source);
	}
	free(p.nodes);
	p.nodes = xcalloc(n, sizeof *p.nodes);
	p.nnodes = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		char nm[32];
		snprintf(nm, sizeof nm, "n%zu", i);
		p.nodes[i] = (npu_node){ xstrdup(nm), xstrdup("aten.relu.default"),
					 xstrdup(""), xstrdup("") };
	}
	attrs = xcalloc(biglen + 1, 1);
	memset(attrs, ' ', biglen);
	attrs[0] = '{'; attrs[biglen - 1] = '}';
	free(p.hcalls[0].attrs);
	p.hcalls[0].attrs = attrs;
	snprintf(path, sizeof path, "%s/big.bin", tmpdir);
	ck_assert_msg(npu_prog_write(&p, path, &e) == 0, "%s", e.msg);
	npu_prog_free(&p);
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	img = xcalloc(len, 1);
	ck_assert_uint_eq(fread(img, 1, len, f), len);
	fclose(f);
	unlink(path);
	/* the good file loads */
	ck_assert_msg(npu_prog_parse(&p, "prog.bin", img, len, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(strlen(p.hcalls[0].attrs), biglen);
	npu_prog_free(&p);
	/* every node string -> the attrs string */
	big = (uint32_t)get(img + sec_off(img, ".npu.hcalls") + 4, 4);
	recs = img + sec_off(img, ".npu.nodes");
	for (size_t i = 0; i < 4 * n; i++)
		put(recs + 4 * i, 4, big);
	expect_reject(img, len, "strings of .npu.strtab referenced too often");
	free(img);
	rm_tmpdir();
}
END_TEST

START_TEST(read_names_file)
{
	npu_prog p;
	npu_err e;
	char path[8192];
	FILE *f;

	mk_tmpdir();
	snprintf(path, sizeof path, "%s/junk.bin", tmpdir);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	fputs("#!/bin/sh\necho not a program\n", f);
	fclose(f);
	ck_assert_int_eq(npu_prog_read(&p, path, &e), -1);
	ck_assert_msg(strstr(e.msg, "junk.bin: not an ELF file (bad magic)"), "%s", e.msg);
	unlink(path);
	ck_assert_int_eq(npu_prog_read(&p, path, &e), -1);
	ck_assert_msg(strstr(e.msg, "junk.bin: cannot open: no such file"), "%s", e.msg);
	ck_assert_int_eq(npu_prog_read(&p, tmpdir, &e), -1);
	ck_assert_msg(strstr(e.msg, "not a regular file"), "%s", e.msg);
	rm_tmpdir();
}
END_TEST

START_TEST(check_in_memory)
{
	npu_prog p;
	npu_err e;
	char path[8192];

	mk_tmpdir();
	make_prog(&p);
	ck_assert_int_eq(npu_prog_check(&p, &e), 0);
	p.bufs[0].ndim = NPU_MAX_DIMS + 1;
	ck_assert_int_eq(npu_prog_check(&p, &e), -1);
	ck_assert_msg(strstr(e.msg, "ndim 9 out of range"), "%s", e.msg);
	/* the writer refuses an invalid program and creates nothing */
	snprintf(path, sizeof path, "%s/bad.bin", tmpdir);
	ck_assert_int_eq(npu_prog_write(&p, path, &e), -1);
	ck_assert_msg(strstr(e.msg, "bad.bin: .npu.bufs entry 0: ndim 9"), "%s", e.msg);
	ck_assert_int_eq(count_entries(tmpdir), 0);
	p.bufs[0].ndim = 2;
	p.kernels[1].start = 9;
	ck_assert_int_eq(npu_prog_check(&p, &e), -1);
	ck_assert_msg(strstr(e.msg, "not after entry 0"), "%s", e.msg);
	p.kernels[1].start = 10;
	p.kernel_nodes[2] = 5;
	ck_assert_int_eq(npu_prog_check(&p, &e), -1);
	ck_assert_msg(strstr(e.msg, ".npu.knodes entry 2: node 5 out of range (3 nodes)"),
		      "%s", e.msg);
	p.kernel_nodes[2] = 2;
	memset(p.target_name, 'a', sizeof p.target_name);
	ck_assert_int_eq(npu_prog_check(&p, &e), -1);
	ck_assert_msg(strstr(e.msg, "target name is not terminated"), "%s", e.msg);
	p.target_name[0] = '\0';
	free(p.insn_node);
	p.insn_node = NULL; /* provenance per instruction is optional */
	ck_assert_int_eq(npu_prog_check(&p, &e), 0);
	p.nodes[1].module = (free(p.nodes[1].module), NULL);
	ck_assert_int_eq(npu_prog_check(&p, &e), 0); /* written as "" */
	p.ncode = 3;
	p.code[1] = 0xffffffffffffffffull;
	ck_assert_int_eq(npu_prog_check(&p, &e), -1);
	ck_assert_msg(strstr(e.msg, ".text: instruction 1 (0xffffffffffffffff)"), "%s", e.msg);
	p.ncode = NCODE;
	npu_prog_free(&p);
	rm_tmpdir();
}
END_TEST

START_TEST(atomic_write_fails_cleanly)
{
	npu_prog p;
	npu_err e;
	char path[8192], sub[8192];
	FILE *f;

	mk_tmpdir();
	make_prog(&p);
	/* nonexistent directory */
	snprintf(path, sizeof path, "%s/nope/prog.bin", tmpdir);
	ck_assert_int_eq(npu_prog_write(&p, path, &e), -1);
	ck_assert_msg(strstr(e.msg, "prog.bin: cannot create temporary file: no such file"),
		      "%s", e.msg);
	ck_assert_int_eq(count_entries(tmpdir), 0);
	/* a file where the directory should be */
	snprintf(sub, sizeof sub, "%s/file", tmpdir);
	ck_assert_ptr_nonnull(f = fopen(sub, "w"));
	fclose(f);
	snprintf(path, sizeof path, "%s/file/prog.bin", tmpdir);
	ck_assert_int_eq(npu_prog_write(&p, path, &e), -1);
	ck_assert_msg(strstr(e.msg, "cannot create temporary file"), "%s", e.msg);
	unlink(sub);
	/* a directory we may not write (root may write anywhere: skip then) */
	snprintf(sub, sizeof sub, "%s/ro", tmpdir);
	ck_assert_int_eq(mkdir(sub, 0555), 0);
	snprintf(path, sizeof path, "%s/ro/prog.bin", tmpdir);
	if (geteuid() == 0) {
		/* root ignores the mode bits; /proc refuses new files to anyone */
		fprintf(stderr, "check_prog: running as root, using /proc as the unwritable directory\n");
		ck_assert_int_eq(npu_prog_write(&p, "/proc/prog.bin", &e), -1);
		ck_assert_msg(strstr(e.msg, "/proc/prog.bin: cannot create temporary file"),
			      "%s", e.msg);
	} else {
		ck_assert_int_eq(npu_prog_write(&p, path, &e), -1);
		ck_assert_msg(strstr(e.msg, "cannot create temporary file: permission denied"),
			      "%s", e.msg);
		ck_assert_int_eq(count_entries(sub), 0);
	}
	chmod(sub, 0700);
	unlink(path);
	rmdir(sub);
	/* a write that fails halfway (file size limit) removes its temporary */
	{
		struct rlimit old, lim;
		void (*oldsig)(int) = signal(SIGXFSZ, SIG_IGN);
		ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
		lim = old;
		lim.rlim_cur = 300;
		ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
		snprintf(path, sizeof path, "%s/prog.bin", tmpdir);
		ck_assert_int_eq(npu_prog_write(&p, path, &e), -1);
		ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
		signal(SIGXFSZ, oldsig);
		ck_assert_msg(strstr(e.msg, "prog.bin: cannot write: "), "%s", e.msg);
		ck_assert_int_eq(count_entries(tmpdir), 0);
	}
	/* a failed write leaves an existing file untouched */
	snprintf(path, sizeof path, "%s/prog.bin", tmpdir);
	ck_assert_msg(npu_prog_write(&p, path, &e) == 0, "%s", e.msg);
	p.kernels[0].end = 4000;
	ck_assert_int_eq(npu_prog_write(&p, path, &e), -1);
	p.kernels[0].end = 10;
	ck_assert_int_eq(count_entries(tmpdir), 1);
	{
		npu_prog q;
		ck_assert_msg(npu_prog_read(&q, path, &e) == 0, "%s", e.msg);
		assert_same(&p, &q);
		npu_prog_free(&q);
	}
	unlink(path);
	npu_prog_free(&p);
	rm_tmpdir();
}
END_TEST

static Suite *prog_suite(void)
{
	Suite *s = suite_create("prog");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, round_trip_minimal);
	tcase_add_test(tc, lookups);
	tcase_add_test(tc, readelf_lists_sections);
	tcase_add_test(tc, reject_truncated);
	tcase_add_test(tc, reject_header);
	tcase_add_test(tc, reject_sections);
	tcase_add_test(tc, reject_records);
	tcase_add_test(tc, reject_string_amplification);
	tcase_add_test(tc, read_names_file);
	tcase_add_test(tc, check_in_memory);
	tcase_add_test(tc, atomic_write_fails_cleanly);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(prog_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
