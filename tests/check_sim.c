/*
 * check_sim.c - the simulator: values of every unit, cycle counts against
 * the formulas of docs/timing-model.md computed by hand, faults, and the
 * command line end to end.
 *
 * Every program goes through run_prog(), which also runs it a second time
 * (the results must be bit-identical) and with --timing-only (the cycle
 * counts, intervals and transfers must be identical), and checks on each
 * run that every unit's intervals tile [0, total) with per-state sums
 * that match the reported ones.
 *
 * Most tests use a small hand-made target (test_target()) whose numbers
 * make the hand computations short.
 */
#include <cblas.h>
#include <check.h>
#include <sqlite3.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isa/asm.h"
#include "isa/dtype.h"
#include "isa/st.h"
#include "sim/sim.h"

#define ACC "0x40000000"

static npu_target T;

static void test_target(npu_target *t)
{
	memset(t, 0, sizeof *t);
	strcpy(t->name, "test");
	t->clock_mhz = 1000;
	t->mxu_rows = 4;
	t->mxu_cols = 4;
	t->dataflows = NPU_DF_WS | NPU_DF_OS;
	t->mxu_rate[NPU_DT_BF16] = 1;
	t->mxu_rate[NPU_DT_F16] = 1;
	t->mxu_rate[NPU_DT_F32] = 0.5;
	t->mxu_rate[NPU_DT_I8] = 2;
	t->mxu_latency = 3;
	t->sram_bytes = 65536;
	t->sram_banks = 4;          /* 16 KiB each */
	t->sram_port_bytes = 16;
	t->acc_bytes = 16384;
	t->acc_banks = 2;
	t->vlen = 8;
	t->vec_lanes = 4;
	t->lat_alu = 2;
	t->lat_mul = 3;
	t->lat_div = 8;
	t->lat_trans = 12;
	t->ii_trans = 2;
	t->lat_red = 5;
	t->lat_ld = 4;
	t->queue_depth = 4;
	t->lat_branch = 1;
	t->dma_engines = 2;
	t->dma_bytes_per_cycle = 8;
	t->dma_setup = 10;
	t->dram_bytes = 1ull << 30;
	t->dram_bytes_per_cycle = 16;
	t->dram_latency = 20;
	t->dram_channels = 2;
	t->dram_burst = 16;
	t->dram_interleave = 64;
	t->host_bytes_per_cycle = 8;
	t->host_latency = 100;
	t->host_flops_per_cycle = 4;
}

/* --- the harness --------------------------------------------------------- */

typedef struct run {
	npu_prog p;
	npu_sim *s;
	npu_err e;
	int rc;
	uint64_t max_cycles;
	/* filled before the run by the test */
	void (*setup)(npu_sim *s, struct run *r);
	void *arg;
} run;

/* The accounting identity, checked on the recorded intervals. */
static void check_tiling(npu_sim *s)
{
	const npu_sim_stats *st = npu_sim_stats_get(s);

	for (int u = 0; u < st->nunits; u++) {
		const npu_sim_interval *iv;
		size_t n = npu_sim_intervals(s, u, &iv);
		uint64_t sum[NPU_SIM_NSTATE] = { 0 }, at = 0, all = 0;
		for (size_t i = 0; i < n; i++) {
			ck_assert_msg(iv[i].start == at, "unit %s: interval %zu starts "
				      "at %llu, previous ended at %llu", npu_unit_name(u),
				      i, (unsigned long long)iv[i].start,
				      (unsigned long long)at);
			ck_assert_uint_gt(iv[i].end, iv[i].start);
			ck_assert_int_ge(iv[i].state, 0);
			ck_assert_int_lt(iv[i].state, NPU_SIM_NSTATE);
			sum[iv[i].state] += iv[i].end - iv[i].start;
			at = iv[i].end;
		}
		ck_assert_msg(at == st->total_cycles, "unit %s: timeline ends at "
			      "%llu, total %llu", npu_unit_name(u),
			      (unsigned long long)at,
			      (unsigned long long)st->total_cycles);
		for (int k = 0; k < NPU_SIM_NSTATE; k++) {
			ck_assert_uint_eq(sum[k], st->unit[u].cycles[k]);
			all += sum[k];
		}
		ck_assert_uint_eq(all, st->total_cycles);
	}
}

static int asm_text(npu_prog *p, const char *text)
{
	npu_err e = { "" };
	int rc = npu_asm("test.s", text, strlen(text), p, &e);

	ck_assert_msg(rc == 0, "asm: %s", e.msg);
	return rc;
}

static char *read_data(const char *name)
{
	const char *dir = getenv("srcdir") ? getenv("srcdir") : ".";
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof path, "%s/tests/data/asm/%s", dir, name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* mode 0: full, 1: timing only, 2: timing only without a timeline */
static npu_sim *one(run *r, int mode)
{
	npu_sim_opts o = { .timing_only = mode > 0, .max_cycles = r->max_cycles,
			    .no_timeline = mode == 2 };
	npu_err e = { "" };
	npu_sim *s = npu_sim_new(&r->p, &T, &o, &e);

	ck_assert_msg(s != NULL, "npu_sim_new: %s", e.msg);
	if (r->setup)
		r->setup(s, r);
	return s;
}

static void same_timing(npu_sim *a, npu_sim *b)
{
	const npu_sim_stats *x = npu_sim_stats_get(a), *y = npu_sim_stats_get(b);
	const npu_trace_dma *da, *db;
	const npu_trace_kernel *ka, *kb;
	size_t nd, nk;

	ck_assert_uint_eq(x->total_cycles, y->total_cycles);
	ck_assert_uint_eq(x->insns, y->insns);
	ck_assert_uint_eq(x->macs, y->macs);
	ck_assert_uint_eq(x->dram_rd, y->dram_rd);
	ck_assert_uint_eq(x->dram_wr, y->dram_wr);
	ck_assert_int_eq(memcmp(x->unit, y->unit, sizeof x->unit), 0);
	for (int u = 0; u < x->nunits; u++) {
		const npu_sim_interval *ia, *ib;
		size_t na = npu_sim_intervals(a, u, &ia), nb = npu_sim_intervals(b, u, &ib);
		if (!ib)
			continue; /* b kept no timeline */
		ck_assert_uint_eq(na, nb);
		ck_assert_int_eq(memcmp(ia, ib, na * sizeof *ia), 0);
	}
	nd = npu_sim_dmas(a, &da);
	ck_assert_uint_eq(nd, npu_sim_dmas(b, &db));
	for (size_t i = 0; i < nd; i++) {
		ck_assert_int_eq(da[i].engine, db[i].engine);
		ck_assert_int_eq(da[i].dir, db[i].dir);
		ck_assert_int_eq(da[i].kernel, db[i].kernel);
		ck_assert_uint_eq(da[i].bytes, db[i].bytes);
		ck_assert_uint_eq(da[i].bytes_touched, db[i].bytes_touched);
		ck_assert_uint_eq(da[i].issue, db[i].issue);
		ck_assert_uint_eq(da[i].start, db[i].start);
		ck_assert_uint_eq(da[i].end, db[i].end);
	}
	nk = npu_sim_kexecs(a, &ka);
	ck_assert_uint_eq(nk, npu_sim_kexecs(b, &kb));
	if (nk)
		ck_assert_int_eq(memcmp(ka, kb, nk * sizeof *ka), 0);
}

/*
 * Runs r->p: returns the simulator of the full run (kept in r->s), after
 * checking determinism, timing-only equality and the accounting identity.
 */
static npu_sim *run_prog(run *r)
{
	npu_sim *b, *c;
	npu_err eb = { "" }, ec = { "" };
	int rb, rcc;

	r->s = one(r, 0);
	r->rc = npu_sim_run(r->s, &r->e);
	ck_assert_msg(r->rc >= 0, "run: %s", r->e.msg);
	check_tiling(r->s);

	/* determinism: a second full run is bit-identical */
	b = one(r, 0);
	rb = npu_sim_run(b, &eb);
	ck_assert_int_eq(rb, r->rc);
	check_tiling(b);
	same_timing(r->s, b);
	for (uint32_t i = 0; i < r->p.nbufs; i++)
		ck_assert_int_eq(memcmp(npu_sim_buf_data(r->s, (int)i),
					npu_sim_buf_data(b, (int)i), r->p.bufs[i].size), 0);
	ck_assert_int_eq(memcmp(npu_sim_local(r->s, 0, T.sram_bytes),
				npu_sim_local(b, 0, T.sram_bytes), T.sram_bytes), 0);
	ck_assert_int_eq(memcmp(npu_sim_local(r->s, NPU_ACC_BASE, T.acc_bytes),
				npu_sim_local(b, NPU_ACC_BASE, T.acc_bytes), T.acc_bytes), 0);
	for (int v = 0; v < NPU_NVREG; v++)
		ck_assert_int_eq(memcmp(npu_sim_vreg(r->s, v), npu_sim_vreg(b, v),
					T.vlen * sizeof(float)), 0);
	ck_assert_str_eq(eb.msg, r->e.msg);
	npu_sim_free(b);

	/* timing only: the same cycles */
	c = one(r, 1);
	rcc = npu_sim_run(c, &ec);
	ck_assert_int_eq(rcc, r->rc);
	check_tiling(c);
	same_timing(r->s, c);
	npu_sim_free(c);

	/* without a timeline: the same sums, no intervals, no trace */
	c = one(r, 2);
	rcc = npu_sim_run(c, &ec);
	ck_assert_int_eq(rcc, r->rc);
	same_timing(r->s, c);
	for (int u = 0; u < npu_sim_stats_get(c)->nunits; u++) {
		const npu_sim_interval *iv;
		ck_assert_uint_eq(npu_sim_intervals(c, u, &iv), 0);
	}
	ck_assert_int_lt(npu_sim_write_trace(c, NULL, &ec), 0);
	npu_sim_free(c);
	return r->s;
}

static npu_sim *run_text(run *r, const char *text)
{
	asm_text(&r->p, text);
	return run_prog(r);
}

static npu_sim *run_file(run *r, const char *name)
{
	char *text = read_data(name);
	npu_err e = { "" };
	int rc = npu_asm(name, text, strlen(text), &r->p, &e);

	ck_assert_msg(rc == 0, "asm %s: %s", name, e.msg);
	free(text);
	return run_prog(r);
}

static void run_free(run *r)
{
	npu_sim_free(r->s);
	npu_prog_free(&r->p);
	memset(r, 0, sizeof *r);
}

static const npu_sim_stats *stats(run *r)
{
	return npu_sim_stats_get(r->s);
}

static uint64_t ucyc(run *r, int unit, int state)
{
	return stats(r)->unit[unit].cycles[state];
}

static float *sram_f32(run *r, uint64_t addr, size_t n)
{
	return (float *)(void *)npu_sim_local(r->s, addr, n * 4);
}

/* --- scalar ----------------------------------------------------------- */

START_TEST(scalar_loop_cycles)
{
	run r = { 0 };

	run_file(&r, "sim_scalar.s");
	ck_assert_int_eq(r.rc, 0);
	/* 2 li + 10 x (addi, addi, bne) + 9 taken branches x lat_branch + halt */
	ck_assert_uint_eq(stats(&r)->total_cycles, 2 + 30 + 9 + 1);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_SCL, NPU_US_BUSY), 42);
	ck_assert_int_eq(npu_sim_xreg(r.s, 1), 30);
	ck_assert_uint_eq(stats(&r)->insns, 2 + 30 + 1);
	run_free(&r);
}
END_TEST

START_TEST(scalar_ops_values)
{
	run r = { 0 };

	run_text(&r,
		 "li x1, -7\n li x2, 2\n"
		 "div x3, x1, x2\n rem x4, x1, x2\n mul x5, x1, x2\n"
		 "shli x6, x2, 40\n sra x7, x1, x2\n shr x8, x1, x2\n"
		 "slt x9, x1, x2\n sltu x10, x1, x2\n min x11, x1, x2\n max x12, x1, x2\n"
		 "li x13, 5\n lih x13, 1\n"
		 "li x14, 64\n st x13, x14, 8\n ld x15, x14, 8\n"
		 "st32 x1, x14, 0\n ld32 x16, x14, 0\n"
		 "jal x17, sub\n li x18, 99\n halt\n"
		 "sub: li x19, 3\n jr x17\n");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_int_eq(npu_sim_xreg(r.s, 3), -3);
	ck_assert_int_eq(npu_sim_xreg(r.s, 4), -1);
	ck_assert_int_eq(npu_sim_xreg(r.s, 5), -14);
	ck_assert_int_eq(npu_sim_xreg(r.s, 6), 2ll << 40);
	ck_assert_int_eq(npu_sim_xreg(r.s, 7), -2);
	ck_assert_int_eq(npu_sim_xreg(r.s, 8), (int64_t)(~(uint64_t)6 >> 2));
	ck_assert_int_eq(npu_sim_xreg(r.s, 9), 1);
	ck_assert_int_eq(npu_sim_xreg(r.s, 10), 0);
	ck_assert_int_eq(npu_sim_xreg(r.s, 11), -7);
	ck_assert_int_eq(npu_sim_xreg(r.s, 12), 2);
	ck_assert_int_eq(npu_sim_xreg(r.s, 13), (1ll << 32) | 5);
	ck_assert_int_eq(npu_sim_xreg(r.s, 15), (1ll << 32) | 5);
	ck_assert_int_eq(npu_sim_xreg(r.s, 16), -7);
	ck_assert_int_eq(npu_sim_xreg(r.s, 17), 20);
	ck_assert_int_eq(npu_sim_xreg(r.s, 18), 99);
	ck_assert_int_eq(npu_sim_xreg(r.s, 19), 3);
	run_free(&r);
}
END_TEST

/* --- vector ----------------------------------------------------------- */

START_TEST(vector_chain_cycles)
{
	run r = { 0 };
	const npu_sim_interval *iv;

	run_file(&r, "sim_vchain.s");
	ck_assert_int_eq(r.rc, 0);
	/*
	 * li t0, setvl t1, vli/vli/vadd/vexp dispatched at 2, 3, 4, 5.
	 * occ = ceil(8 / 4) = 2.  vli v1: issue 3, busy [3,5), ready 3+1+2 = 6.
	 * vli v2: issue 5, busy [5,7), ready 8.  vadd: unit free 7, sources
	 * ready 8: stall [7,8), busy [8,10), ready 8+1+2 = 11.  vexp: free 10,
	 * source ready 11: stall [10,11), occ 2*ii_trans = 4, busy [11,15),
	 * ready 11+3+12 = 26 = total.
	 */
	ck_assert_uint_eq(stats(&r)->total_cycles, 26);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_VEC, NPU_US_BUSY), 10);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_VEC, NPU_US_DEP_STALL), 2);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_VEC, NPU_US_IDLE), 14);
	ck_assert_uint_eq(npu_sim_intervals(r.s, NPU_UNIT_VEC, &iv), 7);
	ck_assert_uint_eq(iv[0].end, 3);
	ck_assert_uint_eq(iv[1].start, 3);
	ck_assert_uint_eq(iv[1].end, 7);
	ck_assert_int_eq(iv[2].state, NPU_US_DEP_STALL);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_SCL, NPU_US_BUSY), 7);
	ck_assert(npu_sim_vreg(r.s, 3)[7] == 5.0f);
	ck_assert(npu_sim_vreg(r.s, 4)[0] == expf(5.0f));
	run_free(&r);
}
END_TEST

typedef struct vop {
	const char *text;      /* v3 = OP(v1, v2) */
	float (*fn)(float b, float c, float a);
} vop;

static float f_add(float b, float c, float a) { (void)a; return b + c; }
static float f_sub(float b, float c, float a) { (void)a; return b - c; }
static float f_mul(float b, float c, float a) { (void)a; return b * c; }
static float f_div(float b, float c, float a) { (void)a; return b / c; }
static float f_max(float b, float c, float a) { (void)a; return b > c ? b : c; }
static float f_min(float b, float c, float a) { (void)a; return b < c ? b : c; }
static float f_fma(float b, float c, float a) { return fmaf(b, c, a); }
static float f_pow(float b, float c, float a) { (void)a; return powf(b, c); }
static float f_eq(float b, float c, float a) { (void)a; return b == c; }
static float f_lt(float b, float c, float a) { (void)a; return b < c; }
static float f_le(float b, float c, float a) { (void)a; return b <= c; }
static float f_sel(float b, float c, float a) { return b != 0 ? c : a; }
static float f_addi(float b, float c, float a) { (void)a; (void)c; return b + 1.5f; }
static float f_muli(float b, float c, float a) { (void)a; (void)c; return b * -2.0f; }
static float f_maxi(float b, float c, float a) { (void)a; (void)c; return b > 0.5f ? b : 0.5f; }
static float f_mini(float b, float c, float a) { (void)a; (void)c; return b < 0.5f ? b : 0.5f; }
static float f_rsubi(float b, float c, float a) { (void)a; (void)c; return 1.0f - b; }
static float f_divi(float b, float c, float a) { (void)a; (void)c; return b / 3.0f; }
static float f_powi(float b, float c, float a) { (void)a; (void)c; return powf(b, 2.0f); }
static float f_eqi(float b, float c, float a) { (void)a; (void)c; return b == 0.5f; }
static float f_neg(float b, float c, float a) { (void)a; (void)c; return -b; }
static float f_abs(float b, float c, float a) { (void)a; (void)c; return fabsf(b); }
static float f_exp(float b, float c, float a) { (void)a; (void)c; return expf(b); }
static float f_log(float b, float c, float a) { (void)a; (void)c; return logf(b); }
static float f_sqrt(float b, float c, float a) { (void)a; (void)c; return sqrtf(b); }
static float f_rsqrt(float b, float c, float a) { (void)a; (void)c; return 1.0f / sqrtf(b); }
static float f_rcp(float b, float c, float a) { (void)a; (void)c; return 1.0f / b; }
static float f_tanh(float b, float c, float a) { (void)a; (void)c; return tanhf(b); }
static float f_erf(float b, float c, float a) { (void)a; (void)c; return erff(b); }
static float f_sigm(float b, float c, float a) { (void)a; (void)c; return 1.0f / (1.0f + expf(-b)); }
static float f_sin(float b, float c, float a) { (void)a; (void)c; return sinf(b); }
static float f_cos(float b, float c, float a) { (void)a; (void)c; return cosf(b); }
static float f_floor(float b, float c, float a) { (void)a; (void)c; return floorf(b); }
static float f_not(float b, float c, float a) { (void)a; (void)c; return b == 0; }
static float f_rnd(float b, float c, float a) { (void)a; (void)c; return npu_round_through(NPU_DT_BF16, b); }
static float f_rndi(float b, float c, float a) { (void)a; (void)c; return npu_round_through(NPU_DT_I8, b); }
static float f_mov(float b, float c, float a) { (void)a; (void)c; return b; }

static const vop vops[] = {
	{ "vadd v3, v1, v2", f_add }, { "vsub v3, v1, v2", f_sub },
	{ "vmul v3, v1, v2", f_mul }, { "vdiv v3, v1, v2", f_div },
	{ "vmax v3, v1, v2", f_max }, { "vmin v3, v1, v2", f_min },
	{ "vfma v3, v1, v2", f_fma }, { "vpow v3, v1, v2", f_pow },
	{ "vcmpeq v3, v1, v2", f_eq }, { "vcmplt v3, v1, v2", f_lt },
	{ "vcmple v3, v1, v2", f_le }, { "vsel v3, v1, v2", f_sel },
	{ "vaddi v3, v1, 1.5", f_addi }, { "vmuli v3, v1, -2.0", f_muli },
	{ "vmaxi v3, v1, 0.5", f_maxi }, { "vmini v3, v1, 0.5", f_mini },
	{ "vrsubi v3, v1, 1.0", f_rsubi }, { "vdivi v3, v1, 3.0", f_divi },
	{ "vpowi v3, v1, 2.0", f_powi }, { "vcmpeqi v3, v1, 0.5", f_eqi },
	{ "vneg v3, v1", f_neg }, { "vabs v3, v1", f_abs },
	{ "vexp v3, v1", f_exp }, { "vlog v3, v1", f_log },
	{ "vsqrt v3, v1", f_sqrt }, { "vrsqrt v3, v1", f_rsqrt },
	{ "vrcp v3, v1", f_rcp }, { "vtanh v3, v1", f_tanh },
	{ "verf v3, v1", f_erf }, { "vsigm v3, v1", f_sigm },
	{ "vsin v3, v1", f_sin }, { "vcos v3, v1", f_cos },
	{ "vfloor v3, v1", f_floor }, { "vnot v3, v1", f_not },
	{ "vrnd v3, v1, bf16", f_rnd }, { "vrnd v3, v1, i8", f_rndi },
	{ "vmov v3, v1", f_mov },
};

/* Inputs: v1 = {-2.5, -1, -0.0, 0.5, 0.5, 1.3, 2.5, 7}, v2 = {...}; v3 is
 * preset to 9.0 for the ops that read it. */
static const float vin1[8] = { -2.5f, -1.0f, -0.0f, 0.5f, 0.5f, 1.3f, 2.5f, 7.0f };
static const float vin2[8] = { 0.5f, -1.0f, 0.0f, 3.0f, 0.5f, -2.0f, 1.5f, 0.25f };

static void setup_vin(npu_sim *s, run *r)
{
	(void)r;
	memcpy(npu_sim_local(s, 0, 32), vin1, 32);
	memcpy(npu_sim_local(s, 32, 32), vin2, 32);
}

START_TEST(vector_op_values)
{
	char *text = malloc(16384);
	size_t n = 0, nops = sizeof vops / sizeof *vops;
	run r = { 0 };

	n += sprintf(text + n, "li x1, 8\n setvl x1, x1\n"
		     "vld v1, x0, 0, f32\n vld v2, x0, 32, f32\n");
	for (size_t i = 0; i < nops; i++)
		n += sprintf(text + n, "vli v3, 9.0\n %s\n vst v3, x0, %zu, f32\n",
			     vops[i].text, 64 + 32 * i);
	sprintf(text + n, "halt\n");
	r.setup = setup_vin;
	run_text(&r, text);
	ck_assert_int_eq(r.rc, 0);
	for (size_t i = 0; i < nops; i++) {
		const float *got = sram_f32(&r, 64 + 32 * i, 8);
		for (int l = 0; l < 8; l++) {
			float want = vops[i].fn(vin1[l], vin2[l], 9.0f);
			ck_assert_msg(memcmp(&got[l], &want, 4) == 0 ||
				      (isnan(got[l]) && isnan(want)),
				      "%s lane %d: got %a, want %a", vops[i].text, l,
				      (double)got[l], (double)want);
		}
	}
	free(text);
	run_free(&r);
}
END_TEST

START_TEST(vector_nan_reduce_moves)
{
	run r = { 0 };
	const float *v;
	float tree;

	r.setup = setup_vin;
	run_text(&r,
		 "li x1, 8\n setvl x1, x1\n vld v1, x0, 0, f32\n"
		 "vli v2, nan\n vmax v3, v1, v2\n vmini v4, v2, 1.0\n"
		 "vredsum v5, v1\n vredmax v6, v1\n vredmin v7, v1\n"
		 "li x2, -3\n vmovx v8, x2\n vidx v9\n vbcast v10, x0, 20, f32\n"
		 "li x3, 5\n setvl x3, x3\n vredsum v11, v1\n"
		 "li x4, 8\n setvl x4, x4\n vredmax v12, v3\n halt\n");
	ck_assert_int_eq(r.rc, 0);
	ck_assert(isnan(npu_sim_vreg(r.s, 3)[0]));
	ck_assert(isnan(npu_sim_vreg(r.s, 4)[5]));
	/* pairwise: ((a0+a1)+(a2+a3)) + ((a4+a5)+(a6+a7)) */
	tree = ((vin1[0] + vin1[1]) + (vin1[2] + vin1[3])) +
	       ((vin1[4] + vin1[5]) + (vin1[6] + vin1[7]));
	v = npu_sim_vreg(r.s, 5);
	for (int l = 0; l < 8; l++)
		ck_assert(memcmp(&v[l], &tree, 4) == 0);
	ck_assert(npu_sim_vreg(r.s, 6)[2] == 7.0f);
	ck_assert(npu_sim_vreg(r.s, 7)[7] == -2.5f);
	ck_assert(npu_sim_vreg(r.s, 8)[4] == -3.0f);
	ck_assert(npu_sim_vreg(r.s, 9)[6] == 6.0f);
	ck_assert(npu_sim_vreg(r.s, 10)[0] == 1.3f);
	/* vl 5: a0+a1 + (a2 + (a3+a4)) */
	tree = (vin1[0] + vin1[1]) + (vin1[2] + (vin1[3] + vin1[4]));
	ck_assert(npu_sim_vreg(r.s, 11)[0] == tree);
	ck_assert(isnan(npu_sim_vreg(r.s, 12)[0]));
	run_free(&r);
}
END_TEST

START_TEST(vector_dtype_load_store)
{
	static const int dts[] = { NPU_DT_BF16, NPU_DT_F16, NPU_DT_E4M3,
				   NPU_DT_E5M2, NPU_DT_I8, NPU_DT_U8, NPU_DT_I32,
				   NPU_DT_I16 };
	static const char *names[] = { "bf16", "f16", "e4m3", "e5m2", "i8", "u8",
				       "i32", "i16" };
	char text[4096];
	size_t n = 0;
	run r = { 0 };

	n += sprintf(text + n, "li x1, 8\n setvl x1, x1\n vld v1, x0, 0, f32\n"
		     "vmuli v1, v1, 3.3\n");
	for (int i = 0; i < 8; i++)
		n += sprintf(text + n, "vst v1, x0, %d, %s\n vld v%d, x0, %d, %s\n",
			     1024 + 64 * i, names[i], 2 + i, 1024 + 64 * i, names[i]);
	/* strided: every other f32 of 64..; store as bf16 with stride 6 */
	n += sprintf(text + n, "li x2, 4096\n li x3, 6\n vsts v1, x2, x3, bf16\n"
		     "vlds v20, x2, x3, bf16\n halt\n");
	r.setup = setup_vin;
	run_text(&r, text);
	ck_assert_int_eq(r.rc, 0);
	for (int i = 0; i < 8; i++) {
		const float *got = npu_sim_vreg(r.s, 2 + i);
		for (int l = 0; l < 8; l++) {
			float want = npu_round_through(dts[i], vin1[l] * 3.3f);
			ck_assert_msg(memcmp(&got[l], &want, 4) == 0,
				      "%s lane %d: %g != %g", names[i], l,
				      (double)got[l], (double)want);
		}
	}
	for (int l = 0; l < 8; l++) {
		uint16_t h;
		memcpy(&h, npu_sim_local(r.s, 4096 + 6 * l, 2), 2);
		ck_assert_uint_eq(h, npu_f32_to_bf16(vin1[l] * 3.3f));
		ck_assert(npu_sim_vreg(r.s, 20)[l] == npu_bf16_to_f32(h));
	}
	run_free(&r);
}
END_TEST

/* --- matrix ------------------------------------------------------------ */

typedef struct gemm {
	int dt, M, K, N;
	uint64_t a_addr, w_addr;
	float a[64 * 16], w[16 * 4];
} gemm;

/* Deterministic small values that are exact in every input type. */
static float val(int i, int j, int salt)
{
	return (float)(((i * 7 + j * 3 + salt) % 9) - 4) * (salt & 1 ? 0.5f : 1.0f);
}

static void setup_gemm(npu_sim *s, run *r)
{
	gemm *g = r->arg;
	int sz = npu_dtype_size(g->dt);

	for (int i = 0; i < g->M; i++)
		for (int k = 0; k < g->K; k++) {
			g->a[i * g->K + k] = npu_round_through(g->dt, val(i, k, 1));
			npu_store_f32(g->dt, npu_sim_local(s, g->a_addr, 0),
				      (size_t)(i * g->K + k), g->a[i * g->K + k]);
		}
	for (int k = 0; k < g->K; k++)
		for (int n = 0; n < g->N; n++) {
			g->w[k * g->N + n] = npu_round_through(g->dt, val(k, n, 2));
			npu_store_f32(g->dt, npu_sim_local(s, g->w_addr, 0),
				      (size_t)(k * g->N + n), g->w[k * g->N + n]);
		}
	(void)sz;
}

/* Checks acc[m][n] = times * sum_k a[m][k] w[k][n] (exact: small ints). */
static void check_gemm(run *r, const gemm *g, int times, int is_int)
{
	for (int i = 0; i < g->M; i++)
		for (int n = 0; n < g->N; n++) {
			double ref = 0;
			for (int k = 0; k < g->K; k++)
				ref += (double)g->a[i * g->K + k] * g->w[k * g->N + n];
			ref *= times;
			uint8_t *p = npu_sim_local(r->s, NPU_ACC_BASE + (uint64_t)(i * g->N + n) * 4, 4);
			if (is_int) {
				int32_t v;
				memcpy(&v, p, 4);
				ck_assert_int_eq(v, (int32_t)ref);
			} else {
				float v;
				memcpy(&v, p, 4);
				ck_assert_msg(fabs(v - ref) <= 1e-5 * (1 + fabs(ref)),
					      "acc[%d][%d] = %g, want %g", i, n, (double)v, ref);
			}
		}
}

static const char *gemm_prog =
	"li x1, %d\n li x2, %d\n mcfg x1, x2, %s, %d\n"
	"li x3, %d\n li x4, %d\n mldw x3, x4\n"
	"li x5, %d\n li x6, " ACC "\n li x7, %d\n mmac x5, x6, x7, 0\n%s"
	"halt\n";

START_TEST(matrix_ws_bf16)
{
	gemm g = { .dt = NPU_DT_BF16, .M = 6, .K = 4, .N = 4, .w_addr = 1024 };
	char text[1024];
	run r = { 0 };

	snprintf(text, sizeof text, gemm_prog, 4, 4, "bf16", 0, 1024, 8, 0, 6, "");
	r.setup = setup_gemm;
	r.arg = &g;
	run_text(&r, text);
	ck_assert_int_eq(r.rc, 0);
	check_gemm(&r, &g, 1, 0);
	/*
	 * mcfg dispatched at 2 (0 cycles), mldw at 5: start 6, K = 4 cycles,
	 * weights ready 10.  mmac dispatched at 9: start max(10, 0, 10) = 10,
	 * stream ceil(6 / 1) = 6, done 10 + 6 + 4 + 4 - 2 + 3 = 25.
	 */
	ck_assert_uint_eq(stats(&r)->total_cycles, 25);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_MXU, NPU_US_BUSY), 4 + 6);
	ck_assert_uint_eq(stats(&r)->macs, 6 * 4 * 4);
	run_free(&r);
}
END_TEST

/*
 * The same mmac operands four times, with the inputs rewritten in between
 * by a scalar store, a vector store and a DMA copy: each mmac must see the
 * bytes as they are then (the simulator keeps converted inputs and must
 * drop them when local memory under them changes).  With identity
 * weights, each output tile is the inputs it read.
 */
static const char *reuse_prog =
	"	li x1, 4\n"
	"	mcfg x1, x1, bf16, 0\n"
	"	li x2, 1024\n"
	"	li x3, 8\n"
	"	mldw x2, x3\n"
	"	li x4, 0\n"
	"	li x6, 2\n"
	"	li x5, " ACC "\n"
	"	mmac x4, x5, x6, 0\n"
	"	sig mxu, s0\n"
	"	wait scl, s0\n"
	"	li x7, 0x3f80\n"          /* row 0 = 1, 0, 0, 0 */
	"	st x7, x4, 0\n"
	"	li x5, " ACC " + 32\n"
	"	mmac x4, x5, x6, 0\n"
	"	sig mxu, s1\n"
	"	wait vec, s1\n"
	"	setvl x9, x1\n"
	"	vli v1, 3.0\n"
	"	vst v1, x4, 8, bf16\n"      /* row 1 = 3, 3, 3, 3 */
	"	sig vec, s2\n"
	"	wait mxu, s2\n"
	"	li x5, " ACC " + 64\n"
	"	mmac x4, x5, x6, 0\n"
	"	sig mxu, s3\n"
	"	wait dma0, s3\n"
	"	dcfgi dma0, rowb, 8\n"
	"	li x8, 2048\n"
	"	dcp dma0, x4, x8\n"         /* row 0 = 9, 10, 11, 12 */
	"	sig dma0, s4\n"
	"	wait mxu, s4\n"
	"	li x5, " ACC " + 96\n"
	"	mmac x4, x5, x6, 0\n"
	"	halt\n";

static void setup_reuse(npu_sim *s, run *r)
{
	uint8_t *a = npu_sim_local(s, 0, 16), *w = npu_sim_local(s, 1024, 32);
	uint8_t *c = npu_sim_local(s, 2048, 8);

	(void)r;
	for (int i = 0; i < 8; i++)
		npu_store_f32(NPU_DT_BF16, a, (size_t)i, (float)(i + 1));
	for (int k = 0; k < 4; k++)
		for (int n = 0; n < 4; n++)
			npu_store_f32(NPU_DT_BF16, w, (size_t)(k * 4 + n), k == n);
	for (int i = 0; i < 4; i++)
		npu_store_f32(NPU_DT_BF16, c, (size_t)i, (float)(i + 9));
}

START_TEST(matrix_inputs_rewritten)
{
	static const float want[4][8] = {
		{ 1, 2, 3, 4, 5, 6, 7, 8 },
		{ 1, 0, 0, 0, 5, 6, 7, 8 },
		{ 1, 0, 0, 0, 3, 3, 3, 3 },
		{ 9, 10, 11, 12, 3, 3, 3, 3 },
	};
	run r = { 0 };

	r.setup = setup_reuse;
	run_text(&r, reuse_prog);
	ck_assert_msg(r.rc == 0, "%s", r.e.msg);
	for (int t = 0; t < 4; t++) {
		const float *o = sram_f32(&r, NPU_ACC_BASE + 32 * (uint64_t)t, 8);
		for (int i = 0; i < 8; i++)
			ck_assert_msg(o[i] == want[t][i], "mmac %d, element %d: %g, want %g",
				      t, i, o[i], want[t][i]);
	}
	run_free(&r);
}
END_TEST

START_TEST(matrix_ws_int8_accumulate)
{
	gemm g = { .dt = NPU_DT_I8, .M = 6, .K = 4, .N = 3, .w_addr = 1024 };
	char text[1024];
	run r = { 0 };

	/* a second mmac accumulates: stream ceil(6 / 2) = 3 each; the second
	 * starts when the stream path frees at 10 + 3 = 13, done 13 + 3 + 9 = 25 */
	snprintf(text, sizeof text, gemm_prog, 4, 3, "i8", 0, 1024, 3, 0, 6,
		 "mmac x5, x6, x7, 1\n");
	r.setup = setup_gemm;
	r.arg = &g;
	run_text(&r, text);
	ck_assert_int_eq(r.rc, 0);
	check_gemm(&r, &g, 2, 1);
	ck_assert_uint_eq(stats(&r)->total_cycles, 25);
	run_free(&r);
}
END_TEST

START_TEST(matrix_ws_f32_strided)
{
	gemm g = { .dt = NPU_DT_F32, .M = 5, .K = 3, .N = 4, .w_addr = 1024 };
	char text[1024];
	run r = { 0 };

	/* f32 at rate 0.5: stream ceil(5 / 0.5) = 10; done 10 + 10 + 9 = 29 */
	snprintf(text, sizeof text, gemm_prog, 3, 4, "f32", 0, 1024, 16, 0, 5, "");
	r.setup = setup_gemm;
	r.arg = &g;
	run_text(&r, text);
	ck_assert_int_eq(r.rc, 0);
	check_gemm(&r, &g, 1, 0);
	ck_assert_uint_eq(stats(&r)->total_cycles, 10 + 10 + 9);
	run_free(&r);
}
END_TEST

START_TEST(matrix_os_bf16)
{
	gemm g = { .dt = NPU_DT_BF16, .M = 4, .K = 16, .N = 4, .w_addr = 1024 };
	char text[1024];
	run r = { 0 };

	/*
	 * Output-stationary: K = 16 > rows is fine.  mldw at 5: start 6, one
	 * cycle, ready 7.  mmac at 9: start 10, stream ceil(16 / 1) = 16,
	 * shift-out M = 4: stream path busy [10, 30), done 30 + 4 + 4 - 2 + 3 = 39.
	 */
	snprintf(text, sizeof text, gemm_prog, 16, 4, "bf16", 1, 1024, 8, 0, 4, "");
	r.setup = setup_gemm;
	r.arg = &g;
	run_text(&r, text);
	ck_assert_int_eq(r.rc, 0);
	check_gemm(&r, &g, 1, 0);
	ck_assert_uint_eq(stats(&r)->total_cycles, 39);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_MXU, NPU_US_BUSY), 1 + 20);
	run_free(&r);
}
END_TEST

START_TEST(matrix_weight_double_buffer)
{
	gemm g = { .dt = NPU_DT_BF16, .M = 6, .K = 4, .N = 4, .w_addr = 1024 };
	char text[1024];
	run r = { 0 };

	/*
	 * The second mldw (dispatched at 10) may start at the first mmac's
	 * start (10): [11, 15) overlaps the stream [10, 16); the second mmac
	 * starts when both the stream path (16) and the weights (15) are
	 * free: 16, done 16 + 6 + 9 = 31.
	 */
	snprintf(text, sizeof text, gemm_prog, 4, 4, "bf16", 0, 1024, 8, 0, 6,
		 "mldw x3, x4\n mmac x5, x6, x7, 1\n");
	r.setup = setup_gemm;
	r.arg = &g;
	run_text(&r, text);
	ck_assert_int_eq(r.rc, 0);
	check_gemm(&r, &g, 2, 0);
	ck_assert_uint_eq(stats(&r)->total_cycles, 31);
	/* busy: [6, 10) weights, [10, 22) streams (the second mldw overlaps) */
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_MXU, NPU_US_BUSY), 4 + 12);
	run_free(&r);
}
END_TEST

/* W1 = the gemm's weights at 1024, W2 = 2 * W1 at 2048. */
static void setup_hold(npu_sim *s, run *r)
{
	gemm *g = r->arg;

	setup_gemm(s, r);
	for (int i = 0; i < g->K * g->N; i++)
		npu_store_f32(g->dt, npu_sim_local(s, 2048, 0), (size_t)i, 2 * g->w[i]);
}

/*
 * An mmac with NPU_MMAC_HOLD keeps the weights in use though an mldw
 * has filled the shadow buffer since; the next mmac without it swaps.
 * Rows 0-2 and 3-5 of the first product both come from W1 (the second
 * mmac holds), the whole second product from W2.
 */
START_TEST(matrix_weight_hold)
{
	gemm g = { .dt = NPU_DT_BF16, .M = 6, .K = 4, .N = 4, .w_addr = 1024 };
	run r = { 0 };

	r.setup = setup_hold;
	r.arg = &g;
	run_text(&r, "li x1, 4\n li x2, 4\n mcfg x1, x2, bf16, 0\n"
		 "li x3, 1024\n li x4, 8\n mldw x3, x4\n"
		 "li x5, 0\n li x6, " ACC "\n li x7, 3\n mmac x5, x6, x7, 0\n"
		 "li x3, 2048\n mldw x3, x4\n"
		 "li x5, 24\n li x6, " ACC " + 48\n mmac x5, x6, x7, 2\n"
		 "li x5, 0\n li x6, " ACC " + 128\n li x7, 6\n mmac x5, x6, x7, 0\n"
		 "halt\n");
	ck_assert_msg(r.rc == 0, "%s", r.e.msg);
	check_gemm(&r, &g, 1, 0);
	for (int i = 0; i < g.M; i++)
		for (int n = 0; n < g.N; n++) {
			float ref = 0, v;
			for (int k = 0; k < g.K; k++)
				ref += g.a[i * g.K + k] * 2 * g.w[k * g.N + n];
			memcpy(&v, npu_sim_local(r.s, NPU_ACC_BASE + 128 + (uint64_t)(i * g.N + n) * 4, 4), 4);
			ck_assert_msg(v == ref, "second product [%d][%d] = %g, want %g", i, n,
				      (double)v, (double)ref);
		}
	/*
	 * mldw at 5: [6, 10).  mmac at 9: start 10, stream 3 to 13.  The
	 * second mldw (dispatched at 11) starts at 12 (after the first
	 * mmac started): [12, 16).  The holding mmac (dispatched at 14)
	 * needs only the weights in use (ready at 10): start 15, stream to
	 * 18.  The last (dispatched at 18) swaps in W2 (ready 16): start 19,
	 * stream 6 to 25, done 25 + 4 + 4 - 2 + 3 = 34.
	 */
	ck_assert_uint_eq(stats(&r)->total_cycles, 34);
	/* busy: [6, 18) weights and streams, [19, 25) */
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_MXU, NPU_US_BUSY), 12 + 6);
	run_free(&r);
}
END_TEST

/* --- DMA ---------------------------------------------------------------- */

static void setup_dram_pattern(npu_sim *s, run *r)
{
	for (uint32_t i = 0; i < r->p.nbufs; i++) {
		uint8_t *d = npu_sim_buf_data(s, (int)i);
		if (r->p.bufs[i].kind == NPU_BUF_INPUT)
			for (uint64_t j = 0; j < r->p.bufs[i].size; j++)
				d[j] = (uint8_t)(j * 13 + i);
	}
}

static const char *dma_prog =
	".buffer a u8 [4096] input\n"
	".buffer b u8 [4096] output\n"
	"%s"
	"sig dma0, s0\n wait scl, s0\n halt\n";

static void dma_run(run *r, const char *body)
{
	char text[4096];

	snprintf(text, sizeof text, dma_prog, body);
	r->setup = setup_dram_pattern;
	run_text(r, text);
	ck_assert_int_eq(r->rc, 0);
}

START_TEST(dma_1d_cycles)
{
	run r = { 0 };
	const npu_trace_dma *d;
	const uint8_t *a, *m;

	dma_run(&r, "dcfgi dma0, rowb, 256\n li x1, 0\n li x2, &a\n dld dma0, x1, x2\n");
	/*
	 * dld dispatched at 3, starts 4.  Engine: 4 + 10 + 256/8 = 46.  DRAM:
	 * 256 bytes in stripes of 64 alternate between the 2 channels: 128
	 * each at 16/2 = 8 bytes/cycle: 4 + 10 + 16 = 30.  End = max(46, 30)
	 * + 20 = 66.  The wait (scalar, at 5) ends at 66: dma_wait 61; then
	 * wait and halt: total 68.
	 */
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 1);
	ck_assert_uint_eq(d[0].start, 4);
	ck_assert_uint_eq(d[0].end, 66);
	ck_assert_uint_eq(d[0].issue, 3);
	ck_assert_uint_eq(d[0].bytes, 256);
	ck_assert_uint_eq(d[0].bytes_touched, 256);
	ck_assert_uint_eq(stats(&r)->total_cycles, 68);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_SCL, NPU_US_DMA_WAIT), 61);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_DMA0, NPU_US_BUSY), 62);
	a = npu_sim_buf_data(r.s, 0);
	m = npu_sim_local(r.s, 0, 256);
	ck_assert_int_eq(memcmp(a, m, 256), 0);
	ck_assert_uint_eq(stats(&r)->dram_rd, 256);
	run_free(&r);
}
END_TEST

START_TEST(dma_2d_strided_unaligned)
{
	run r = { 0 };
	const npu_trace_dma *d;
	const uint8_t *a;

	/*
	 * 4 rows of 32 bytes, source stride 128 from &a + 8: each row touches
	 * bursts [16k, 16k + 48): 48 bytes, all on channel 0 (offsets 0, 128,
	 * 256, 384 are stripes 0, 2, 4, 6).  dld dispatched at 7, start 8:
	 * engine 8 + 10 + 128/8 = 34; channel 0: 8 + 10 + 192/8 = 42; end
	 * 42 + 20 = 62.
	 */
	dma_run(&r, "dcfgi dma0, rowb, 32\n dcfgi dma0, n1, 4\n dcfgi dma0, ss1, 128\n"
		"dcfgi dma0, ds1, 32\n li x1, 512\n li x2, &a\n addi x2, x2, 8\n"
		"dld dma0, x1, x2\n");
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 1);
	ck_assert_uint_eq(d[0].start, 8);
	ck_assert_uint_eq(d[0].bytes, 128);
	ck_assert_uint_eq(d[0].bytes_touched, 4 * 48);
	ck_assert_uint_eq(d[0].end, 62);
	a = npu_sim_buf_data(r.s, 0);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(memcmp(npu_sim_local(r.s, 512 + 32 * i, 32),
					a + 8 + 128 * i, 32), 0);
	run_free(&r);
}
END_TEST

START_TEST(dma_3d_store)
{
	run r = { 0 };
	const npu_trace_dma *d;
	const uint8_t *b;
	uint8_t *sram;

	/*
	 * SRAM -> DRAM, 2 x 3 rows of 16 bytes: source (SRAM) strides 16 and
	 * 64, destination strides 32 and 256.  Rows at &b + {0, 32, 64} and
	 * {256, 288, 320}: bursts of 16, 96 bytes in total; stripes 0, 0, 1
	 * and 4, 4, 5: channel 0 gets 64 bytes, channel 1 32.  dst dispatched
	 * at 9, start 10: engine 10 + 10 + 96/8 = 32; channel 0: 20 + 8 = 28;
	 * end 32 + 20 = 52.
	 */
	dma_run(&r, "dcfgi dma0, rowb, 16\n dcfgi dma0, n1, 3\n dcfgi dma0, ss1, 16\n"
		"dcfgi dma0, ds1, 32\n dcfgi dma0, n2, 2\n dcfgi dma0, ss2, 64\n"
		"dcfgi dma0, ds2, 256\n li x1, &b\n li x2, 0\n dst dma0, x1, x2\n");
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 1);
	ck_assert_int_eq(d[0].dir, 1);
	ck_assert_uint_eq(d[0].start, 10);
	ck_assert_uint_eq(d[0].bytes, 96);
	ck_assert_uint_eq(d[0].bytes_touched, 96);
	ck_assert_uint_eq(d[0].end, 52);
	b = npu_sim_buf_data(r.s, 1);
	sram = npu_sim_local(r.s, 0, 256);
	for (int i2 = 0; i2 < 2; i2++)
		for (int i1 = 0; i1 < 3; i1++)
			ck_assert_int_eq(memcmp(b + 256 * i2 + 32 * i1,
						sram + 64 * i2 + 16 * i1, 16), 0);
	ck_assert_uint_eq(stats(&r)->dram_wr, 96);
	run_free(&r);
}
END_TEST

/* fp32 values around bf16 and f16 rounding ties, 2 rows of 8 at
 * NPU_ACC_BASE with a row stride of 64 bytes */
static const float cvt_in[16] = {
	1.0f, 1.00390625f,      /* 1 + 2^-8: a bf16 tie, even is 1.0 */
	1.01171875f,            /* 1 + 3 * 2^-8: a tie, even is 1 + 2^-6 */
	1.0009765625f,          /* 1 + 2^-10: below bf16's half ulp; f16 exact */
	1.00048828125f,         /* 1 + 2^-11: an f16 tie, even is 1.0 */
	-2.5f, 3.0e38f,         /* bf16 keeps it, f16 overflows to inf */
	0.0f,
	-0.0f, 1e-45f, 65520.0f, /* 65520: an f16 tie between 65504 and inf */
	-1.00146484375f,        /* -(1 + 3 * 2^-11): an f16 tie, even up */
	0.1f, 100.0f, 1e-8f, 7.0f, /* 1e-8: below half f16's least subnormal */
};

static void setup_cvt(npu_sim *s, run *r)
{
	(void)r;
	for (int i = 0; i < 2; i++)
		memcpy(npu_sim_local(s, NPU_ACC_BASE + 64 * (uint64_t)i, 32),
		       cvt_in + 8 * i, 32);
}

static void cvt_run(run *r, const char *type)
{
	char body[1024], text[4096];

	snprintf(body, sizeof body,
		 "dcfgi dma0, rowb, 16\n dcfgi dma0, n1, 2\n dcfgi dma0, ss1, 64\n"
		 "dcfgi dma0, ds1, 16\n li x1, &b\n li x2, " ACC "\n"
		 "dstc dma0, x1, x2, %s\n", type);
	snprintf(text, sizeof text, dma_prog, body);
	r->setup = setup_cvt;
	run_text(r, text);
	ck_assert_int_eq(r->rc, 0);
}

START_TEST(dma_store_convert)
{
	static const uint16_t bf[16] = {
		0x3f80, 0x3f80, 0x3f82, 0x3f80, 0x3f80, 0xc020, 0x7f62, 0x0000,
		0x8000, 0x0000, 0x4780, 0xbf80, 0x3dcd, 0x42c8, 0x322c, 0x40e0,
	};
	static const uint16_t hf[16] = {
		0x3c00, 0x3c04, 0x3c0c, 0x3c01, 0x3c00, 0xc100, 0x7c00, 0x0000,
		0x8000, 0x0000, 0x7c00, 0xbc02, 0x2e66, 0x5640, 0x0000, 0x4700,
	};
	run r = { 0 };
	const npu_trace_dma *d;
	const uint8_t *b;

	/*
	 * 2 rows of 8 fp32 (32 bytes, source stride 64) from the
	 * accumulator into 2 rows of 8 bf16 (rowb 16) at &b, &b + 16.  The
	 * engine counts the 32 DRAM bytes: dstc dispatched at 6, starts 7;
	 * engine 7 + 10 + 32/8 = 21; the rows form one range of 2 bursts in
	 * stripe 0: channel 0, 7 + 10 + 32/8 = 21; end 21 + 20 = 41, as a dst
	 * of 32 bytes.  Its local side reads 64 bytes (4 cycles of
	 * accumulator bank 0, no conflict).  sig, wait, halt: total 43.
	 */
	cvt_run(&r, "bf16");
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 1);
	ck_assert_int_eq(d[0].dir, 1);
	ck_assert_uint_eq(d[0].start, 7);
	ck_assert_uint_eq(d[0].end, 41);
	ck_assert_uint_eq(d[0].bytes, 32);
	ck_assert_uint_eq(d[0].bytes_touched, 32);
	ck_assert_uint_eq(stats(&r)->total_cycles, 43);
	ck_assert_uint_eq(stats(&r)->dram_wr, 32);
	ck_assert_uint_eq(stats(&r)->sram_rd, 64);
	b = npu_sim_buf_data(r.s, 1);
	for (int i = 0; i < 16; i++) {
		uint16_t h;
		memcpy(&h, b + 2 * i, 2);
		ck_assert_msg(h == bf[i] && h == npu_f32_to_bf16(cvt_in[i]),
			      "bf16 %d: 0x%04x", i, h);
	}
	ck_assert_int_eq(b[32], 0); /* nothing past the rows */
	run_free(&r);

	r = (run){ 0 };
	cvt_run(&r, "f16");
	ck_assert_uint_eq(stats(&r)->total_cycles, 43);
	b = npu_sim_buf_data(r.s, 1);
	for (int i = 0; i < 16; i++) {
		uint16_t h;
		memcpy(&h, b + 2 * i, 2);
		ck_assert_msg(h == hf[i] && h == npu_f32_to_f16(cvt_in[i]),
			      "f16 %d: 0x%04x", i, h);
	}
	run_free(&r);

	/*
	 * Two engines convert the same rows at once: the local side holds
	 * accumulator bank 0 for the 64 bytes it reads, ceil(64 / 16) = 4
	 * cycles (not the 2 of its 32 DRAM bytes).  dma0's dstc starts at
	 * 12: engine and channel 0 both 12 + 10 + 4 = 26, end 46, bank
	 * window [42, 46).  dma1's starts at 13 and writes &b + 64, stripe 1:
	 * channel 1, end 47, window [43, 47), which overlaps dma0's: moved
	 * behind it, [46, 50), end 50 (a bank stall of 3); total 50.
	 */
	r = (run){ 0 };
	{
		char text[4096];
		snprintf(text, sizeof text, dma_prog,
			 "dcfgi dma0, rowb, 16\n dcfgi dma0, n1, 2\n dcfgi dma0, ss1, 64\n"
			 "dcfgi dma0, ds1, 16\n dcfgi dma1, rowb, 16\n dcfgi dma1, n1, 2\n"
			 "dcfgi dma1, ss1, 64\n dcfgi dma1, ds1, 16\n li x1, &b\n"
			 "li x2, " ACC "\n addi x3, x1, 64\n dstc dma0, x1, x2, bf16\n"
			 "dstc dma1, x3, x2, bf16\n");
		r.setup = setup_cvt;
		run_text(&r, text);
	}
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 2);
	ck_assert_uint_eq(d[0].start, 12);
	ck_assert_uint_eq(d[0].end, 46);
	ck_assert_uint_eq(d[1].start, 13);
	ck_assert_uint_eq(d[1].end, 50);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_DMA0 + 1, NPU_US_BANK_STALL), 3);
	ck_assert_uint_eq(stats(&r)->total_cycles, 50);
	b = npu_sim_buf_data(r.s, 1);
	ck_assert_int_eq(memcmp(b, b + 64, 32), 0);
	run_free(&r);

	/*
	 * Strides the transfer never steps by do not count: n2 = 1 with
	 * ss2 (and ds2) left at 18 by an earlier transfer of 9 bf16 rows,
	 * as the emitter leaves descriptor fields it does not change.  The
	 * same rows as the first run (a convolution stored straight from
	 * the accumulator into bf16 faulted on this).
	 */
	r = (run){ 0 };
	{
		char text[4096];
		snprintf(text, sizeof text, dma_prog,
			 "dcfgi dma0, ss2, 18\n dcfgi dma0, ds2, 18\n dcfgi dma0, n2, 1\n"
			 "dcfgi dma0, rowb, 16\n dcfgi dma0, n1, 2\n dcfgi dma0, ss1, 64\n"
			 "dcfgi dma0, ds1, 16\n li x1, &b\n li x2, " ACC "\n"
			 "dstc dma0, x1, x2, bf16\n");
		r.setup = setup_cvt;
		run_text(&r, text);
	}
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(stats(&r)->total_cycles, 46); /* 3 more dcfgi */
	b = npu_sim_buf_data(r.s, 1);
	for (int i = 0; i < 16; i++) {
		uint16_t h;
		memcpy(&h, b + 2 * i, 2);
		ck_assert_msg(h == bf[i], "bf16 %d after a stale ss2: 0x%04x", i, h);
	}
	run_free(&r);
}
END_TEST

static void setup_gather(npu_sim *s, run *r)
{
	static const int32_t idx[5] = { 7, 0, 3, 3, 12 };

	setup_dram_pattern(s, r);
	memcpy(npu_sim_local(s, 8192, sizeof idx), idx, sizeof idx);
}

START_TEST(dma_gather)
{
	static const int32_t idx[5] = { 7, 0, 3, 3, 12 };
	run r = { 0 };
	const npu_trace_dma *d;
	const uint8_t *a;
	char text[4096];

	/*
	 * 5 rows of 24 bytes at a + idx*100, charged as if they were 5
	 * consecutive rows of 32 bytes (24 rounded up to the burst from the
	 * base's alignment) from &a: 160 bytes, stripes 0 (64 B), 1 (64 B),
	 * 2 (32 B): channel 0 gets 96 bytes, channel 1 64.  dgat dispatched
	 * at 7, start 8: engine 8 + 10 + 120/8 = 33; channel 0: 18 + 12 = 30;
	 * end 33 + 20 = 53.
	 */
	snprintf(text, sizeof text, dma_prog,
		 "dcfgi dma0, rowb, 24\n dcfgi dma0, n1, 5\n dcfgi dma0, ss1, 100\n"
		 "dcfgi dma0, ds1, 24\n dcfgi dma0, idx, 8192\n li x1, 0\n li x2, &a\n"
		 "dgat dma0, x1, x2\n");
	r.setup = setup_gather;
	run_text(&r, text);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 1);
	ck_assert_int_eq(d[0].dir, 4);
	ck_assert_uint_eq(d[0].bytes, 120);
	ck_assert_uint_eq(d[0].bytes_touched, 160);
	ck_assert_uint_eq(d[0].start, 8);
	ck_assert_uint_eq(d[0].end, 53);
	a = npu_sim_buf_data(r.s, 0);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(memcmp(npu_sim_local(r.s, 24 * i, 24),
					a + idx[i] * 100, 24), 0);
	run_free(&r);
}
END_TEST

/* Rows 0..4 of 24 bytes at SRAM 0 and the index list of dma_scatter. */
static void setup_scatter(npu_sim *s, run *r)
{
	static const int32_t idx[5] = { 7, 0, 3, -2, 12 };
	uint8_t *l = npu_sim_local(s, 0, 120);

	(void)r;
	for (int i = 0; i < 120; i++)
		l[i] = (uint8_t)(i * 7 + 1);
	memcpy(npu_sim_local(s, 8192, sizeof idx), idx, sizeof idx);
}

/*
 * dsct, the gather's mirror: 5 rows of 24 bytes from SRAM to b +
 * idx*100 (idxn 13: -2 is row 11), charged as 5 consecutive rows from
 * &b's alignment, as the gather's are from &a's (b is 4096 bytes after
 * a): 160 bytes, channel 0 96, channel 1 64.  Dispatched at 8 (one
 * dcfgi more than dma_gather), start 9: engine 9 + 10 + 120/8 = 34;
 * channel 0 19 + 12 = 31; end 34 + 20 = 54.  Then an index past idxn
 * is a fault naming it, for a gather too, and so is a negative one past
 * -idxn; --timing-only (run_prog) reads such an index as 0.
 */
START_TEST(dma_scatter)
{
	static const int rows[5] = { 7, 0, 3, 11, 12 };
	run r = { 0 };
	const npu_trace_dma *d;
	const uint8_t *b;
	char text[4096];

	snprintf(text, sizeof text, dma_prog,
		 "dcfgi dma0, rowb, 24\n dcfgi dma0, n1, 5\n dcfgi dma0, ss1, 24\n"
		 "dcfgi dma0, ds1, 100\n dcfgi dma0, idx, 8192\n dcfgi dma0, idxn, 13\n"
		 "li x1, &b\n li x2, 0\n dsct dma0, x1, x2\n");
	r.setup = setup_scatter;
	run_text(&r, text);
	ck_assert_msg(r.rc == 0, "%s", r.e.msg);
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 1);
	ck_assert_int_eq(d[0].dir, 5);
	ck_assert_str_eq(npu_trace_dir_name(d[0].dir), "scatter");
	ck_assert_uint_eq(d[0].bytes, 120);
	ck_assert_uint_eq(d[0].bytes_touched, 160);
	ck_assert_uint_eq(d[0].start, 9);
	ck_assert_uint_eq(d[0].end, 54);
	ck_assert_uint_eq(npu_sim_stats_get(r.s)->dram_wr, 120);
	b = npu_sim_buf_data(r.s, 1);
	for (int i = 0; i < 5; i++)
		ck_assert_int_eq(memcmp(npu_sim_local(r.s, 24 * i, 24), b + rows[i] * 100, 24), 0);
	ck_assert_uint_eq(b[100], 0);         /* row 1: not written */
	run_free(&r);

	/* (a full run only: run_prog's timing-only run reads them as 0) */
	for (int k = 0; k < 3; k++) {
		static const struct {
			const char *op, *base, *ss1, *ds1, *n1, *idx, *bound, *want;
		} c[3] = {
			{ "dsct dma0, x1, x2", "b", "24", "100", "5", "8192", "12",
			  "index 12 (entry 4) is outside [-12, 12)" },
			{ "dsct dma0, x1, x2", "b", "24", "100", "1", "8204", "1",
			  "index -2 (entry 0) is outside [-1, 1)" },
			{ "dgat dma0, x2, x1", "a", "100", "24", "5", "8192", "12",
			  "index 12 (entry 4) is outside [-12, 12)" },
		};
		npu_sim *sf;
		memset(&r, 0, sizeof r);
		snprintf(text, sizeof text,
			 ".buffer a u8 [4096] input\n.buffer b u8 [4096] output\n"
			 "dcfgi dma0, rowb, 24\n dcfgi dma0, n1, %s\n dcfgi dma0, ss1, %s\n"
			 "dcfgi dma0, ds1, %s\n dcfgi dma0, idx, %s\n dcfgi dma0, idxn, %s\n"
			 "li x1, &%s\n li x2, 0\n %s\n sig dma0, s0\n wait scl, s0\n halt\n",
			 c[k].n1, c[k].ss1, c[k].ds1, c[k].idx, c[k].bound, c[k].base, c[k].op);
		r.setup = setup_scatter;
		asm_text(&r.p, text);
		sf = one(&r, 0);
		ck_assert_int_eq(npu_sim_run(sf, &r.e), NPU_SIM_FAULT);
		ck_assert_msg(strstr(r.e.msg, c[k].want), "%s", r.e.msg);
		npu_sim_free(sf);
		npu_prog_free(&r.p);
	}
}
END_TEST

static void setup_ff(npu_sim *s, run *r)
{
	memset(npu_sim_buf_data(s, 0), 0xff, r->p.bufs[0].size);
}

/*
 * A gather whose indices the vector unit computes (zeros stored over a
 * list of 0xff bytes loaded first): --timing-only computes no values, so
 * its indices are the -1s; it reads row 0 for each (the timing does not
 * depend on the indices), where it faulted outside every DRAM buffer
 * (LayoutLM's and Speech2Text's embeddings on npu-edge).  run_prog
 * checks the timing-only run against the full one.
 */
START_TEST(dma_gather_computed_index)
{
	run r = { 0 };
	char text[4096];

	snprintf(text, sizeof text, dma_prog,
		 "dcfgi dma0, rowb, 20\n li x1, &a\n li x2, 8192\n dld dma0, x2, x1\n"
		 "sig dma0, s1\n wait vec, s1\n li x3, 5\n setvl x4, x3\n vli v0, 0.0\n"
		 "vst v0, x0, 8192, f32\n sig vec, s2\n wait dma0, s2\n"
		 "dcfgi dma0, rowb, 24\n dcfgi dma0, n1, 5\n dcfgi dma0, ss1, 100\n"
		 "dcfgi dma0, ds1, 24\n dcfgi dma0, idx, 8192\n li x1, 0\n li x2, &a\n"
		 "dgat dma0, x1, x2\n");
	r.setup = setup_ff;
	run_text(&r, text);
	ck_assert_msg(r.rc == 0, "%s", r.e.msg);
	run_free(&r);
}
END_TEST

START_TEST(dma_local_and_dram_copies)
{
	run r = { 0 };
	const npu_trace_dma *d;

	/*
	 * dcp: SRAM -> SRAM 100 bytes at 3: start 4, end 4 + 10 + 12.5 ->
	 * 27 (rounded up).  dmv: DRAM -> DRAM 128 bytes, a -> b (b is
	 * 4096 bytes after a, so both sides alternate channels from stripe
	 * 0): 128 bytes per channel, dispatched at 6: the engine is free at
	 * 27: engine 27 + 10 + 16 = 53; channels 37 + 16 = 53; end 73.
	 */
	dma_run(&r, "dcfgi dma0, rowb, 100\n li x1, 4096\n li x2, 0\n dcp dma0, x1, x2\n"
		"dcfgi dma0, rowb, 128\n li x3, &a\n li x4, &b\n dmv dma0, x4, x3\n");
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 2);
	ck_assert_int_eq(d[0].dir, 2);
	ck_assert_uint_eq(d[0].start, 4);
	ck_assert_uint_eq(d[0].end, 27);
	ck_assert_int_eq(d[1].dir, 3);
	ck_assert_uint_eq(d[1].start, 27);
	ck_assert_uint_eq(d[1].bytes_touched, 256);
	ck_assert_uint_eq(d[1].end, 73);
	ck_assert_int_eq(memcmp(npu_sim_buf_data(r.s, 0), npu_sim_buf_data(r.s, 1), 128), 0);
	run_free(&r);
}
END_TEST

static void setup_sram_pattern(npu_sim *s, run *r)
{
	uint8_t *m = npu_sim_local(s, 4096, 512);

	(void)r;
	for (int j = 0; j < 512; j++)
		m[j] = (uint8_t)(j * 7 + 3);
}

START_TEST(dma_aperture)
{
	run r = { 0 };
	const npu_trace_dma *d;
	char text[4096];
	const npu_sim_stats *st;

	/*
	 * DRAM-side addresses from NPU_SRAM_APERTURE name SRAM: a dld from
	 * the aperture + 4096 is the dcp of dma_local_and_dram_copies (no
	 * DRAM latency, no channel, direction sram_to_sram): 100 bytes end
	 * 10 + 12.5 -> 23 cycles after they start; a dst into the aperture
	 * the same; a gather's rows from the aperture likewise (24 bytes of
	 * each of 2 rows: 10 + 6).  No DRAM byte moves.
	 */
	snprintf(text, sizeof text, dma_prog,
		 "dcfgi dma0, rowb, 100\n li x1, -2147483648\n"
		 " addi x3, x1, 1024\n addi x1, x1, 4096\n li x2, 0\n"
		 " dld dma0, x2, x1\n dst dma0, x3, x2\n"
		 "dcfgi dma0, rowb, 24\n dcfgi dma0, n1, 2\n dcfgi dma0, ss1, 100\n"
		 "dcfgi dma0, ds1, 24\n dcfgi dma0, idx, 8192\n li x4, 2048\n"
		 "dgat dma0, x4, x1\n");
	r.setup = setup_sram_pattern;
	run_text(&r, text);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 3);
	ck_assert_int_eq(d[0].dir, 2);
	ck_assert_int_eq(d[1].dir, 2);
	ck_assert_int_eq(d[2].dir, 4);
	ck_assert_uint_eq(d[0].end, d[0].start + 23);
	ck_assert_uint_eq(d[1].start, d[0].end);
	ck_assert_uint_eq(d[1].end, d[1].start + 23);
	ck_assert_uint_eq(d[2].end, d[2].start + 16);
	ck_assert_uint_eq(d[0].bytes_touched + d[1].bytes_touched + d[2].bytes_touched, 0);
	st = npu_sim_stats_get(r.s);
	ck_assert_uint_eq(st->dram_rd + st->dram_wr, 0);
	ck_assert_int_eq(memcmp(npu_sim_local(r.s, 0, 100), npu_sim_local(r.s, 4096, 100), 100), 0);
	ck_assert_int_eq(memcmp(npu_sim_local(r.s, 1024, 100), npu_sim_local(r.s, 4096, 100), 100), 0);
	/* the index list is zeroed SRAM: both rows are row 0 */
	ck_assert_int_eq(memcmp(npu_sim_local(r.s, 2048, 24), npu_sim_local(r.s, 4096, 24), 24), 0);
	ck_assert_int_eq(memcmp(npu_sim_local(r.s, 2072, 24), npu_sim_local(r.s, 4096, 24), 24), 0);
	run_free(&r);

	/* past SRAM's end through the aperture: a fault naming SRAM */
	snprintf(text, sizeof text, dma_prog,
		 "dcfgi dma0, rowb, 100\n li x1, -1\n"
		 " li x2, 0\n dld dma0, x2, x1\n");
	memset(&r, 0, sizeof r);
	run_text(&r, text);
	ck_assert_int_eq(r.rc, NPU_SIM_FAULT);
	ck_assert_ptr_nonnull(strstr(r.e.msg, "outside SRAM"));
	run_free(&r);
}
END_TEST

START_TEST(dma_channels_shared)
{
	run r = { 0 };
	const npu_trace_dma *d;

	/*
	 * Two engines each load 1024 contiguous bytes at once: 512 bytes per
	 * channel each.  dma0 (dispatched at 3, start 4): engine 4 + 10 + 128
	 * = 142, channels 14 + 64 = 78, end 162.  dma1 (dispatched at 5,
	 * start 6): its channels queue behind dma0's: 78 + 64 = 142; engine
	 * 6 + 10 + 128 = 144; end 164.
	 */
	dma_run(&r, "dcfgi dma0, rowb, 1024\n dcfgi dma1, rowb, 1024\n li x2, &a\n"
		"dld dma0, x0, x2\n li x1, 16384\n dld dma1, x1, x2\n sig dma1, s0\n"
		"wait scl, s0\n");
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 2);
	ck_assert_uint_eq(d[0].end, 162);
	ck_assert_uint_eq(d[1].start, 6);
	ck_assert_uint_eq(d[1].end, 164);
	run_free(&r);
}
END_TEST

/* --- semaphores, overlap, banks ----------------------------------------- */

START_TEST(bank_conflict_vector_waits)
{
	run r = { 0 };
	const npu_trace_dma *d;

	/*
	 * The DMA load into bank 0 ends at 66 (see dma_1d_cycles) and holds
	 * the bank for 256/16 = 16 cycles: [50, 66).  The vector unit runs
	 * four dependent vexp (each ready 15 cycles after issue plus one:
	 * issues at 6, 22, 38, 54 ... see below) and then loads from bank 0.
	 */
	run_file(&r, "sim_bank.s");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(npu_sim_dmas(r.s, &d), 1);
	ck_assert_uint_eq(d[0].end, 66);
	/*
	 * vli at 7 (ready 10), vexp issues at 10, 25, 40, 55 (each 4 cycles
	 * busy, ready 15 later); vld when the unit frees at 59, but bank 0 is
	 * the DMA's until 66.
	 */
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_VEC, NPU_US_BANK_STALL), 66 - 59);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_DMA0, NPU_US_BANK_STALL), 0);
	run_free(&r);
}
END_TEST

START_TEST(bank_conflict_dma_waits)
{
	int stalled = 0;

	/*
	 * The vector unit's store to bank 1 issues when exp's result is ready,
	 * 11 cycles after the unit is free: the simulator processes it (and
	 * reserves the bank) before a DMA copy that starts a little later but
	 * whose SRAM window (its last cycles) falls on the store's.  Which
	 * delay lines the two up depends on the dispatch times, so try a few:
	 * at least one must stall the DMA, and every transfer must last its
	 * formula plus exactly its bank stall.
	 */
	for (int d = 0; d < 12; d++) {
		char text[2048];
		size_t n = 0;
		run r = { 0 };
		const npu_trace_dma *dm;
		uint64_t stall;

		n += sprintf(text + n, "li x1, 8\n setvl x1, x1\n dcfgi dma0, rowb, 16\n"
			     "li x2, 16400\n li x3, 20000\n vli v1, 0.5\n vexp v1, v1\n"
			     "vst v1, x0, 16384, f32\n");
		for (int i = 0; i < d; i++)
			n += sprintf(text + n, "nop\n");
		sprintf(text + n, "dcp dma0, x3, x2\n halt\n");
		run_text(&r, text);
		ck_assert_int_eq(r.rc, 0);
		ck_assert_uint_eq(npu_sim_dmas(r.s, &dm), 1);
		stall = ucyc(&r, NPU_UNIT_DMA0, NPU_US_BANK_STALL);
		/* SRAM to SRAM: setup + 16 / 8 */
		ck_assert_uint_eq(dm[0].end - dm[0].start, 10 + 2 + stall);
		stalled += stall > 0;
		run_free(&r);
	}
	ck_assert_int_gt(stalled, 0);
}
END_TEST

/* Cycles in which both units are busy. */
static uint64_t busy_overlap(npu_sim *s, int ua, int ub)
{
	const npu_sim_interval *a, *b;
	size_t na = npu_sim_intervals(s, ua, &a), nb = npu_sim_intervals(s, ub, &b);
	size_t i = 0, j = 0;
	uint64_t sum = 0;

	while (i < na && j < nb) {
		uint64_t lo = a[i].start > b[j].start ? a[i].start : b[j].start;
		uint64_t hi = a[i].end < b[j].end ? a[i].end : b[j].end;
		if (hi > lo && a[i].state == NPU_US_BUSY && b[j].state == NPU_US_BUSY)
			sum += hi - lo;
		if (a[i].end < b[j].end)
			i++;
		else
			j++;
	}
	return sum;
}

START_TEST(semaphore_overlap_demo)
{
	run r = { 0 };
	const float *x, *b, *y;
	const npu_trace_kernel *kx;
	int ix, iy;

	run_file(&r, "demo.s");
	ck_assert_int_eq(r.rc, 0);
	ix = npu_prog_find_buf(&r.p, "x");
	iy = npu_prog_find_buf(&r.p, "y");
	ck_assert_int_ge(ix, 0);
	ck_assert_int_ge(iy, 0);
	x = (const float *)(const void *)npu_sim_buf_data(r.s, ix);
	b = sram_f32(&r, 0, 4096);
	y = (const float *)(const void *)npu_sim_buf_data(r.s, iy);
	ck_assert(x[5 * 4096 + 100] == 3.0f * sinf((100.0f + 35.0f) * 0.01f));
	ck_assert(b[1000] == 0.5f * cosf(1000.0f * 0.003f));
	for (int i = 0; i < 64; i++)
		for (int j = 0; j < 4096; j++) {
			float v = x[i * 4096 + j] + b[j];
			float want = v > 0 ? v : 0;
			ck_assert_msg(memcmp(&y[i * 4096 + j], &want, 4) == 0,
				      "y[%d][%d]", i, j);
		}
	/* DMA and compute overlap: both engines move data while the vector
	 * unit computes. */
	ck_assert_uint_gt(busy_overlap(r.s, NPU_UNIT_VEC, NPU_UNIT_DMA0), 10000);
	ck_assert_uint_gt(busy_overlap(r.s, NPU_UNIT_VEC, NPU_UNIT_DMA0 + 1), 10000);
	ck_assert_uint_gt(ucyc(&r, NPU_UNIT_VEC, NPU_US_DMA_WAIT), 0);
	ck_assert_uint_eq(npu_sim_kexecs(r.s, &kx), 2);
	ck_assert_uint_eq(kx[1].dram_rd, 64 * 4096 * 4);
	ck_assert_uint_eq(stats(&r)->dram_rd, 64 * 4096 * 4);
	ck_assert_uint_eq(stats(&r)->dram_wr, 2 * 64 * 4096 * 4);
	run_free(&r);
}
END_TEST

START_TEST(kernels_executions)
{
	run r = { 0 };
	const npu_trace_kernel *kx;

	/* k1 runs twice (called from a loop outside it), k2 once. */
	run_text(&r,
		 "li x1, 2\n"
		 "top:\n jal x31, k1\n addi x1, x1, -1\n bne x1, x0, top\n"
		 "jal x31, k2\n halt\n"
		 ".kernel k1 n1=aten.add.Tensor\n"
		 "k1:\n li x2, 8\n setvl x2, x2\n vli v1, 1.0\n jr x31\n"
		 ".endkernel\n"
		 ".kernel k2\n"
		 "k2:\n vli v2, 2.0\n vexp v3, v2\n jr x31\n"
		 ".endkernel\n");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(npu_sim_kexecs(r.s, &kx), 3);
	ck_assert_int_eq(kx[0].kernel, 0);
	ck_assert_int_eq(kx[1].kernel, 0);
	ck_assert_int_eq(kx[2].kernel, 1);
	ck_assert_uint_eq(kx[0].insns, 4);
	ck_assert_uint_eq(kx[2].insns, 3);
	ck_assert_uint_eq(kx[2].vec_ops, 16);
	/* k2 lasts until vexp's result: after the scalar unit left it */
	ck_assert_uint_eq(kx[2].end, stats(&r)->total_cycles);
	ck_assert_uint_gt(kx[1].start, kx[0].end - 1);
	run_free(&r);
}
END_TEST

START_TEST(queue_full_stalls_scalar)
{
	run r = { 0 };

	/* 6 transcendental ops on one register: queue depth 4, so the scalar
	 * unit waits for the vector unit to start older entries. */
	run_text(&r, "li x1, 8\n setvl x1, x1\n vli v1, 0.5\n"
		 "vexp v1, v1\n vexp v1, v1\n vexp v1, v1\n vexp v1, v1\n"
		 "vexp v1, v1\n vexp v1, v1\n halt\n");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_gt(ucyc(&r, NPU_UNIT_SCL, NPU_US_DEP_STALL), 0);
	run_free(&r);
}
END_TEST

/* --- host calls ------------------------------------------------------- */

static int custom_calls;

static int op_double(const npu_hostop_args *a, npu_err *e)
{
	const float *in = (const float *)(const void *)a->data[0];
	float *out = (float *)(void *)a->data[1];

	(void)e;
	custom_calls++;
	for (uint64_t i = 0; i < a->bufs[0]->size / 4; i++)
		out[i] = 2 * in[i];
	return 0;
}

static void add_hcall(npu_prog *p, const char *op, const char *attrs,
		      uint32_t in, uint32_t out)
{
	npu_hostcall *h;

	p->hcalls = realloc(p->hcalls, (p->nhcalls + 1) * sizeof *p->hcalls);
	h = &p->hcalls[p->nhcalls++];
	memset(h, 0, sizeof *h);
	h->op = strdup(op);
	h->attrs = strdup(attrs);
	h->nin = in == UINT32_MAX ? 0 : 1;
	h->nargs = h->nin + 1;
	h->args = calloc(2, sizeof *h->args);
	if (h->nin)
		h->args[0] = in;
	h->args[h->nin] = out;
	h->node = NPU_NO_NODE;
}

START_TEST(host_copy_fill_custom)
{
	run r = { 0 };
	const float *a, *b, *c, *d;

	ck_assert_int_eq(npu_sim_register_hostop("test.double", op_double), 0);
	asm_text(&r.p, ".buffer a f32 [64] input\n .buffer b f32 [64] output\n"
		 ".buffer c f32 [16] output\n .buffer d f32 [64] output\n"
		 "hcall 0\n hcall 1\n hcall 2\n sig host, s0\n wait scl, s0\n halt\n");
	add_hcall(&r.p, "copy", "{}", 0, 1);
	add_hcall(&r.p, "fill", "{\"value\": 2.5}", UINT32_MAX, 2);
	add_hcall(&r.p, "test.double", "{}", 0, 3);
	r.setup = setup_dram_pattern;
	custom_calls = 0;
	run_prog(&r);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_int_eq(custom_calls, 2); /* full runs only */
	a = (const float *)(const void *)npu_sim_buf_data(r.s, 0);
	b = (const float *)(const void *)npu_sim_buf_data(r.s, 1);
	c = (const float *)(const void *)npu_sim_buf_data(r.s, 2);
	d = (const float *)(const void *)npu_sim_buf_data(r.s, 3);
	ck_assert_int_eq(memcmp(a, b, 256), 0);
	for (int i = 0; i < 16; i++)
		ck_assert(c[i] == 2.5f);
	for (int i = 0; i < 64; i++)
		ck_assert(memcmp(&d[i], &(float){ 2 * a[i] }, 4) == 0 || isnan(a[i]));
	/*
	 * copy: 100 + 512/8 = 164 (no flops); fill: 100 + 64/8 = 108; double:
	 * 100 + 512/8 + 64 flops / 4 = 180.  Dispatched at 0: 1 -> 165 -> 273
	 * -> 453; the scalar unit waits, then wait and halt: 455.
	 */
	ck_assert_uint_eq(stats(&r)->host_calls, 3);
	ck_assert_uint_eq(ucyc(&r, NPU_UNIT_HOST, NPU_US_BUSY), 164 + 108 + 180);
	ck_assert_uint_eq(stats(&r)->total_cycles, 455);
	run_free(&r);
}
END_TEST

/* The host's flop estimate (docs/timing-model.md): products 2 * M * N *
 * K (K from addmm's second input, after the bias), interpolation (whose
 * names say linear), cummax and lgamma (whose names hold "mm") and the
 * rest one an output element, copies none. */
START_TEST(host_flops_rules)
{
	npu_prog p = { 0 };
	static const struct { const char *op; uint64_t flops; } c[] = {
		{ "aten.mm.default", 2 * 8 * 6 * 5 },
		{ "aten.bmm.default", 2 * 8 * 6 * 5 },
		{ "aten._scaled_mm.default", 2 * 8 * 6 * 5 },
		{ "aten.linear.default", 2 * 8 * 6 * 5 },
		{ "aten._trilinear.default", 2 * 8 * 6 * 5 },
		{ "aten.addmm.default", 2 * 8 * 6 * 7 },
		{ "aten.upsample_linear1d.vec", 8 * 6 },
		{ "aten.upsample_bilinear2d.vec", 8 * 6 },
		{ "aten.upsample_trilinear3d.vec", 8 * 6 },
		{ "aten.cummax.default", 8 * 6 },
		{ "aten.lgamma.default", 8 * 6 },
		{ "aten.sigmoid.default", 8 * 6 },
		{ "copy", 0 },
	};

	ck_assert_int_eq(asm_text(&p, ".buffer a f32 [8, 5] input\n"
				  " .buffer b f32 [8, 6] output\n"
				  " .buffer c f32 [6, 7] input\n halt\n"), 0);
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		add_hcall(&p, c[i].op, "{}", 0, 1);
		if (!strcmp(c[i].op, "aten.addmm.default")) {
			/* (bias a, mat1 c; out b): K from c */
			p.hcalls[i].nin = 2;
			p.hcalls[i].nargs = 3;
			p.hcalls[i].args = realloc(p.hcalls[i].args, 3 * sizeof *p.hcalls[i].args);
			ck_assert_ptr_nonnull(p.hcalls[i].args);
			p.hcalls[i].args[1] = 2;
			p.hcalls[i].args[2] = 1;
		}
		ck_assert_msg(npu_sim_host_flops(&p, &p.hcalls[i]) == c[i].flops, "%s: %llu flops",
			      c[i].op, (unsigned long long)npu_sim_host_flops(&p, &p.hcalls[i]));
	}
	npu_prog_free(&p);
}
END_TEST

/* --- faults -------------------------------------------------------------- */

typedef struct fcase {
	const char *text;
	int unit;
	int64_t pc;
	const char *what;
	uint64_t max_cycles;
} fcase;

static const fcase faults[] = {
	{ "li x1, 65536\n li x2, 8\n setvl x2, x2\n vld v1, x1, -16, f32\n halt\n",
	  NPU_UNIT_VEC, 3, "outside SRAM", 0 },
	{ "li x1, " ACC "\n li x2, 8\n setvl x2, x2\n vst v1, x1, 16380, f32\n halt\n",
	  NPU_UNIT_VEC, 3, "outside SRAM", 0 },
	{ ".buffer a f32 [16] input\n dcfgi dma0, rowb, 65\n li x1, &a\n"
	  "dld dma0, x0, x1\n halt\n", NPU_UNIT_DMA0, 2, "every DRAM buffer", 0 },
	{ "dcfgi dma1, rowb, 16\n li x1, 65536\n dcp dma1, x1, x0\n halt\n",
	  NPU_UNIT_DMA0 + 1, 2, "destination", 0 },
	{ "#illegal\n nop\n nop\n halt\n", NPU_UNIT_SCL, 1, "illegal instruction", 0 },
	{ "li x1, 3\n div x2, x1, x0\n halt\n", NPU_UNIT_SCL, 1, "division by zero", 0 },
	{ "li x1, 3\n rem x2, x1, x0\n halt\n", NPU_UNIT_SCL, 1, "division by zero", 0 },
	{ "li x1, 8\n setvl x1, x1\n wait vec, s5\n vli v1, 1.0\n halt\n",
	  NPU_UNIT_VEC, 2, "deadlock", 0 },
	{ "wait scl, s1\n halt\n", NPU_UNIT_SCL, 0, "deadlock", 0 },
	{ "li x1, 1\n jmp @5\n halt\n", NPU_UNIT_SCL, -1, "outside the code", 0 },
	{ "nop\n", NPU_UNIT_SCL, -1, "outside the code", 0 },
	{ "top: jmp top\n", NPU_UNIT_SCL, 0, "cycle limit", 1000 },
	{ "li x1, 4\n mcfg x1, x1, bf16, 0\n li x2, 0\n mmac x2, x2, x1, 0\n halt\n",
	  NPU_UNIT_MXU, 3, "without weights", 0 },
	{ "li x1, 4\n mcfg x1, x1, bf16, 0\n li x2, 0\n mldw x2, x1\n"
	  "mmac x2, x2, x1, 2\n halt\n", NPU_UNIT_MXU, 4, "without weights", 0 },
	{ "li x1, 4\n mcfg x1, x1, bf16, 1\n li x2, 0\n mldw x2, x1\n"
	  "mmac x2, x2, x1, 2\n halt\n", NPU_UNIT_MXU, 4, "output-stationary", 0 },
	{ "li x1, 5\n li x2, 4\n mcfg x1, x2, bf16, 0\n halt\n",
	  NPU_UNIT_MXU, 2, "does not fit", 0 },
	{ "li x1, 4\n mcfg x1, x1, e4m3, 0\n halt\n", NPU_UNIT_MXU, 1, "rate 0", 0 },
	{ "li x1, 4\n mcfg x1, x1, bf16, 0\n li x2, 65530\n mldw x2, x0\n halt\n",
	  NPU_UNIT_MXU, 3, "weights", 0 },
	{ "dcfgi dma3, rowb, 4\n halt\n", NPU_UNIT_SCL, 0, "does not exist", 0 },
	{ "hcall 0\n halt\n", NPU_UNIT_HOST, 0, "not in the table", 0 },
	{ "dcfgi dma0, rowb, -1\n dld dma0, x0, x0\n halt\n", NPU_UNIT_DMA0, 1,
	  "out of range", 0 },
	{ ".buffer b u8 [64] output\n dcfgi dma0, rowb, 8\n li x1, &b\n"
	  "dstc dma0, x1, x0, e4m3\n halt\n", NPU_UNIT_DMA0, 2, "bf16 or f16", 0 },
	{ ".buffer b u8 [64] output\n dcfgi dma0, rowb, 7\n li x1, &b\n"
	  "dstc dma0, x1, x0, bf16\n halt\n", NPU_UNIT_DMA0, 2, "whole bf16", 0 },
	{ ".buffer b u8 [64] output\n dcfgi dma0, rowb, 8\n li x1, &b\n"
	  "li x2, 2\n dstc dma0, x1, x2, f16\n halt\n", NPU_UNIT_DMA0, 3,
	  "multiples of 4", 0 },
	{ ".buffer b u8 [64] output\n dcfgi dma0, rowb, 8\n dcfgi dma0, n1, 2\n"
	  "dcfgi dma0, ss1, 18\n li x1, &b\n dstc dma0, x1, x0, f16\n halt\n",
	  NPU_UNIT_DMA0, 4, "multiples of 4", 0 },
	{ ".buffer b u8 [64] output\n dcfgi dma0, rowb, 64\n li x1, &b\n"
	  "li x2, 65500\n dstc dma0, x1, x2, bf16\n halt\n", NPU_UNIT_DMA0, 3,
	  "source", 0 },
	{ ".buffer b u8 [64] output\n dcfgi dma0, rowb, 8\n dcfgi dma0, n2, 2\n"
	  "dcfgi dma0, ss2, 18\n li x1, &b\n dstc dma0, x1, x0, f16\n halt\n",
	  NPU_UNIT_DMA0, 4, "multiples of 4", 0 },
};

START_TEST(fault_kinds)
{
	const fcase *f = &faults[_i];
	run r = { 0 };
	const npu_sim_fault *fi;

	r.max_cycles = f->max_cycles;
	asm_text(&r.p, f->text);
	if (!strncmp(f->text, "#illegal", 8))
		r.p.code[1] = 0xff; /* the assembler refuses to write one */
	run_prog(&r);
	ck_assert_int_eq(r.rc, NPU_SIM_FAULT);
	fi = npu_sim_fault_info(r.s);
	ck_assert_ptr_nonnull(fi);
	ck_assert_msg(fi->unit == f->unit, "case %d: unit %s, want %s (%s)", _i,
		      npu_unit_name(fi->unit), npu_unit_name(f->unit), r.e.msg);
	ck_assert_msg(fi->pc == f->pc, "case %d: pc %lld (%s)", _i,
		      (long long)fi->pc, r.e.msg);
	ck_assert_msg(strstr(r.e.msg, f->what), "case %d: %s", _i, r.e.msg);
	ck_assert_msg(strstr(r.e.msg, "fault at cycle"), "%s", r.e.msg);
	ck_assert_msg(strstr(r.e.msg, npu_unit_name(f->unit)), "%s", r.e.msg);
	run_free(&r);
}
END_TEST

START_TEST(fault_report_names_kernel)
{
	run r = { 0 };

	run_text(&r, ".kernel bad add=aten.add.Tensor relu\n li x1, 7\n div x1, x1, x0\n"
		 ".endkernel\n halt\n");
	ck_assert_int_eq(r.rc, NPU_SIM_FAULT);
	ck_assert_msg(strstr(r.e.msg, "kernel 'bad'"), "%s", r.e.msg);
	ck_assert_msg(strstr(r.e.msg, "add, relu"), "%s", r.e.msg);
	ck_assert_msg(strstr(r.e.msg, "div x1, x1, x0"), "%s", r.e.msg);
	ck_assert_msg(strstr(r.e.msg, "cycle 1"), "%s", r.e.msg);
	run_free(&r);
}
END_TEST

START_TEST(unregistered_host_op_faults)
{
	run r = { 0 };

	asm_text(&r.p, ".buffer a f32 [4] input\n .buffer b f32 [4] output\n"
		 "hcall 0\n halt\n");
	add_hcall(&r.p, "aten.nothing.default", "{}", 0, 1);
	run_prog(&r);
	ck_assert_int_eq(r.rc, NPU_SIM_FAULT);
	ck_assert_msg(strstr(r.e.msg, "not registered"), "%s", r.e.msg);
	run_free(&r);
}
END_TEST

/* --- the race check ------------------------------------------------------ */

/* Each program with the race check on: race (1) or not; want names the
 * two units a race report names. */
typedef struct rcase {
	const char *text;
	int race;
	const char *want[2];
} rcase;

#define RLOAD ".buffer a f32 [64] input\n dcfgi dma0, rowb, 64\n li x1, &a\n" \
	" li x2, 16\n setvl x2, x2\n"
#define RMM "li x1, 4\n mcfg x1, x1, f32, 0\n li x3, 16\n mstride x3, x3\n" \
	" mldw x0, x3\n li x4, " ACC "\n mmac x0, x4, x1, 0\n li x2, 16\n setvl x2, x2\n"

static const rcase races[] = {
	/* a load read before it is waited for */
	{ RLOAD "dld dma0, x0, x1\n vld v1, x0, 0, f32\n halt\n", 1, { "vec", "dma0" } },
	{ RLOAD "dld dma0, x0, x1\n sig dma0, s0\n wait vec, s0\n vld v1, x0, 0, f32\n"
	  "halt\n", 0, { 0 } },
	/* ordered through the scalar unit: dispatched after its wait */
	{ RLOAD "dld dma0, x0, x1\n sig dma0, s0\n wait scl, s0\n vld v1, x0, 0, f32\n"
	  "halt\n", 0, { 0 } },
	/* reads elsewhere race with nothing */
	{ RLOAD "dld dma0, x0, x1\n vld v1, x0, 64, f32\n sig dma0, s0\n wait vec, s0\n"
	  "halt\n", 0, { 0 } },
	/* a semaphore two engines signal: a wait late enough to find both
	 * tokens takes the quicker engine's, which orders nothing of the
	 * other's transfer */
	{ RLOAD "dcfgi dma0, rowb, 256\n dcfgi dma1, rowb, 4\n li x3, 1024\n"
	  "dld dma1, x3, x1\n sig dma1, s0\n dld dma0, x0, x1\n sig dma0, s0\n"
	  "vexp v3, v3\n vexp v3, v3\n vexp v3, v3\n vexp v3, v3\n vexp v3, v3\n"
	  "vexp v3, v3\n vexp v3, v3\n vexp v3, v3\n vexp v3, v3\n vexp v3, v3\n"
	  "wait vec, s0\n vld v1, x0, 0, f32\n wait vec, s0\n halt\n", 1, { "vec", "dma0" } },
	/* a load over bytes the vector unit still reads */
	{ RLOAD "vld v1, x0, 0, f32\n dld dma0, x0, x1\n halt\n", 1, { "dma0", "vec" } },
	{ RLOAD "vld v1, x0, 0, f32\n sig vec, s1\n wait dma0, s1\n dld dma0, x0, x1\n"
	  "halt\n", 0, { 0 } },
	/* the accumulator: an mmac's rows read by the vector unit */
	{ RMM "vld v1, x4, 0, f32\n halt\n", 1, { "vec", "mxu" } },
	{ RMM "sig mxu, s2\n wait vec, s2\n vld v1, x4, 0, f32\n halt\n", 0, { 0 } },
	/* a store of bytes the vector unit writes again */
	{ ".buffer b f32 [16] output\n li x2, 16\n setvl x2, x2\n vst v1, x0, 0, f32\n"
	  "sig vec, s0\n wait dma1, s0\n dcfgi dma1, rowb, 64\n li x1, &b\n"
	  "dst dma1, x1, x0\n vst v2, x0, 0, f32\n halt\n", 1, { "vec", "dma1" } },
};

START_TEST(race_check)
{
	const rcase *c = &races[_i];

	for (int mode = 0; mode < 2; mode++) {
		npu_sim_opts o = { .check_races = 1, .timing_only = mode };
		npu_err e = { "" };
		npu_prog p = { 0 };
		npu_sim *s;
		int rc;

		asm_text(&p, c->text);
		ck_assert_ptr_nonnull(s = npu_sim_new(&p, &T, &o, &e));
		rc = npu_sim_run(s, &e);
		if (!c->race) {
			ck_assert_msg(rc == 0, "case %d: %s", _i, e.msg);
		} else {
			ck_assert_msg(rc == NPU_SIM_FAULT, "case %d: no race found", _i);
			ck_assert_msg(strstr(e.msg, "race at local address"), "%s", e.msg);
			ck_assert_msg(strstr(e.msg, c->want[0]) && strstr(e.msg, c->want[1]),
				      "case %d: %s", _i, e.msg);
		}
		/* and without the check, no fault */
		npu_sim_free(s);
		o.check_races = 0;
		ck_assert_ptr_nonnull(s = npu_sim_new(&p, &T, &o, &e));
		ck_assert_msg(npu_sim_run(s, &e) == 0, "case %d: %s", _i, e.msg);
		npu_sim_free(s);
		npu_prog_free(&p);
	}
}
END_TEST

/* --- command line ------------------------------------------------------ */

static char tmpdir[256];

static void mk_tmp(void)
{
	const char *t = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(tmpdir, sizeof tmpdir, "%s/check_sim.XXXXXX", t);
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rm_tmp(void)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(cli_end_to_end)
{
	const char *top = getenv("top_builddir") ? getenv("top_builddir") : ".";
	const char *src = getenv("srcdir") ? getenv("srcdir") : ".";
	char npusim[4096], path[4600];
	npu_tensor in[2];
	float x[16], y[16];
	npu_stfile out = { 0 };
	npu_err e = { "" };
	npu_prog p = { 0 };
	FILE *f;

	snprintf(npusim, sizeof npusim, "%s/npusim", top);
	mk_tmp();
	snprintf(path, sizeof path, "%s/p.s", tmpdir);
	f = fopen(path, "w");
	fputs(".target npu-base\n .buffer x f32 [16] input\n .buffer y f32 [16] output\n"
	      ".kernel k\n li x1, 16\n setvl x1, x1\n"
	      "dcfgi dma0, rowb, 64\n li x2, &x\n dld dma0, x0, x2\n sig dma0, s0\n"
	      "wait vec, s0\n vld v1, x0, 0, f32\n vmuli v1, v1, 2.0\n"
	      "vst v1, x0, 64, f32\n sig vec, s1\n wait dma0, s1\n li x3, &y\n"
	      "li x4, 64\n dst dma0, x3, x4\n sig dma0, s2\n wait scl, s2\n halt\n"
	      ".endkernel\n", f);
	fclose(f);
	ck_assert_int_eq(sh("'%s' asm '%s/p.s' -o '%s/p.bin'", npusim, tmpdir, tmpdir), 0);
	for (int i = 0; i < 16; i++)
		x[i] = (float)i - 3.25f;
	memset(in, 0, sizeof in);
	in[0].name = "x";
	in[0].dtype = NPU_DT_F32;
	in[0].ndim = 1;
	in[0].shape[0] = 16;
	in[0].nbytes = 64;
	in[0].data = x;
	in[1] = in[0];
	in[1].name = "unused";
	snprintf(path, sizeof path, "%s/in.safetensors", tmpdir);
	ck_assert_msg(npu_st_write(path, in, 2, NULL, &e) == 0, "%s", e.msg);

	/* ok: outputs, trace (twice: appended), summary */
	ck_assert_int_eq(sh("'%s' run '%s/p.bin' --target '%s/targets/npu-base.ini' "
			    "--inputs '%s/in.safetensors' --outputs '%s/out.safetensors' "
			    "--trace '%s/t.db' --label test > '%s/sum.txt'", npusim, tmpdir,
			    src, tmpdir, tmpdir, tmpdir, tmpdir), 0);
	ck_assert_int_eq(sh("grep -q 'cycles' '%s/sum.txt'", tmpdir), 0);
	ck_assert_int_eq(sh("grep -q '^k ' '%s/sum.txt'", tmpdir), 0);
	snprintf(path, sizeof path, "%s/out.safetensors", tmpdir);
	ck_assert_msg(npu_st_read(&out, path, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(out.n, 1);
	memcpy(y, npu_st_find(&out, "y")->data, 64);
	for (int i = 0; i < 16; i++)
		ck_assert(y[i] == 2 * x[i]);
	npu_st_free(&out);
	/* the program's own target by name, timing only, quiet */
	ck_assert_int_eq(sh("'%s' run '%s/p.bin' --inputs '%s/in.safetensors' "
			    "--timing-only --quiet --trace '%s/t.db' > '%s/q.txt'",
			    npusim, tmpdir, tmpdir, tmpdir, tmpdir), 0);
	ck_assert_int_eq(sh("test -s '%s/q.txt'", tmpdir), 1);
	ck_assert_int_eq(sh("test \"$(sqlite3 '%s/t.db' 'select count(*) from runs')\" = 2",
			    tmpdir), 0);

	/* a trace that cannot be opened (the writer thread finds out while
	 * the program runs): 2, the path and why, but the outputs and the
	 * summary are still written */
	snprintf(path, sizeof path, "%s/out.safetensors", tmpdir);
	remove(path);
	ck_assert_int_eq(sh("'%s' run '%s/p.bin' --inputs '%s/in.safetensors' "
			    "--outputs '%s/out.safetensors' --trace '%s/nowhere/t.db' "
			    "> '%s/sum.txt' 2> '%s/err.txt'", npusim, tmpdir, tmpdir,
			    tmpdir, tmpdir, tmpdir, tmpdir), 2);
	ck_assert_int_eq(sh("test \"$(grep -c \"trace .*/nowhere/t.db: .*cannot open\" "
			    "'%s/err.txt')\" = 1", tmpdir), 0);
	ck_assert_int_eq(sh("grep -q 'cycles' '%s/sum.txt'", tmpdir), 0);
	ck_assert_msg(npu_st_read(&out, path, &e) == 0, "%s", e.msg);
	npu_st_free(&out);

	/* usage and input errors: 2 */
	ck_assert_int_eq(sh("'%s' run 2>/dev/null", npusim), 2);
	ck_assert_int_eq(sh("'%s' run --bogus '%s/p.bin' 2>/dev/null", npusim, tmpdir), 2);
	ck_assert_int_eq(sh("'%s' run '%s/p.bin' --quiet 2>'%s/err.txt'", npusim,
			    tmpdir, tmpdir), 2);
	ck_assert_int_eq(sh("grep -q \"input 'x' is missing\" '%s/err.txt'", tmpdir), 0);
	ck_assert_int_eq(sh("'%s' run '%s/nothing.bin' 2>/dev/null", npusim, tmpdir), 2);
	ck_assert_int_eq(sh("'%s' run '%s/p.bin' --max-cycles x 2>/dev/null", npusim,
			    tmpdir), 2);
	in[0].shape[0] = 8;
	in[0].nbytes = 32;
	snprintf(path, sizeof path, "%s/bad.safetensors", tmpdir);
	ck_assert_int_eq(npu_st_write(path, in, 1, NULL, &e), 0);
	ck_assert_int_eq(sh("'%s' run '%s/p.bin' --inputs '%s' 2>'%s/err.txt'", npusim,
			    tmpdir, path, tmpdir), 2);
	ck_assert_int_eq(sh("grep -q 'shape' '%s/err.txt'", tmpdir), 0);
	ck_assert_int_eq(sh("'%s' run --help | grep -q max-cycles", npusim), 0);

	/* a fault: 1, with a report */
	ck_assert_int_eq(sh("'%s' run '%s/p.bin' --inputs '%s/in.safetensors' "
			    "--max-cycles 10 --quiet 2>'%s/err.txt'", npusim, tmpdir,
			    tmpdir, tmpdir), 1);
	ck_assert_int_eq(sh("grep -q 'cycle limit' '%s/err.txt'", tmpdir), 0);

	/* target hash mismatch: 2 unless --force */
	snprintf(path, sizeof path, "%s/p.bin", tmpdir);
	ck_assert_int_eq(npu_prog_read(&p, path, &e), 0);
	p.target_hash = 0x1234;
	snprintf(path, sizeof path, "%s/h.bin", tmpdir);
	ck_assert_int_eq(npu_prog_write(&p, path, &e), 0);
	npu_prog_free(&p);
	ck_assert_int_eq(sh("'%s' run '%s' --inputs '%s/in.safetensors' --quiet "
			    "2>'%s/err.txt'", npusim, path, tmpdir, tmpdir), 2);
	ck_assert_int_eq(sh("grep -q 'npu-base' '%s/err.txt'", tmpdir), 0);
	ck_assert_int_eq(sh("'%s' run '%s' --inputs '%s/in.safetensors' --quiet --force",
			    npusim, path, tmpdir), 0);
	rm_tmp();
}
END_TEST

START_TEST(demo_on_npu_base)
{
	const char *src = getenv("srcdir") ? getenv("srcdir") : ".";
	char path[4096];
	npu_target t;
	npu_err e = { "" };
	run r = { 0 };
	npu_sim *s;
	char *text = read_data("demo.s");

	snprintf(path, sizeof path, "%s/targets/npu-base.ini", src);
	ck_assert_msg(npu_target_load(&t, path, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(npu_asm("demo.s", text, strlen(text), &r.p, &e), 0);
	free(text);
	s = npu_sim_new(&r.p, &t, NULL, &e);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(npu_sim_run(s, &e), 0);
	r.s = s;
	check_tiling(s);
	ck_assert_uint_gt(stats(&r)->total_cycles, 1000);
	run_free(&r);
}
END_TEST

/* Sums of the trace's activity rows per unit and state equal the run's. */
static void check_trace_sums(npu_sim *s, const char *db, int64_t run_id)
{
	const npu_sim_stats *st = npu_sim_stats_get(s);
	uint64_t sum[NPU_NUNIT][NPU_SIM_NSTATE] = { { 0 } };
	sqlite3 *d;
	sqlite3_stmt *q;

	ck_assert_int_eq(sqlite3_open(db, &d), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(d, "select unit, state, "
		"sum(end_cycle - start_cycle), min(start_cycle), max(end_cycle) "
		"from activity where run_id = ? group by unit, state", -1, &q, NULL),
		SQLITE_OK);
	sqlite3_bind_int64(q, 1, run_id);
	while (sqlite3_step(q) == SQLITE_ROW) {
		int u = sqlite3_column_int(q, 0), k = sqlite3_column_int(q, 1);
		ck_assert_int_lt(u, st->nunits);
		ck_assert_int_lt(k, NPU_US_IDLE);
		sum[u][k] = (uint64_t)sqlite3_column_int64(q, 2);
		ck_assert_uint_le((uint64_t)sqlite3_column_int64(q, 4), st->total_cycles);
	}
	sqlite3_finalize(q);
	sqlite3_close(d);
	for (int u = 0; u < st->nunits; u++)
		for (int k = 0; k < NPU_US_IDLE; k++)
			ck_assert_msg(sum[u][k] == st->unit[u].cycles[k], "unit %d state "
				      "%d: trace %llu, run %llu", u, k,
				      (unsigned long long)sum[u][k],
				      (unsigned long long)st->unit[u].cycles[k]);
}

START_TEST(trace_rows_exact_and_binned)
{
	uint64_t rows[2];
	char db[512];
	npu_err e = { "" };

	mk_tmp();
	snprintf(db, sizeof db, "%s/t.db", tmpdir);
	for (int i = 0; i < 2; i++) {
		run r = { 0 };
		char *text = read_data("demo.s");
		npu_sim_opts o = { .trace_resolution = i ? 4096 : 1 };
		npu_trace_run tr = { "demo.s", T.name, 0, "", NULL };
		npu_trace *t = npu_trace_open(db, &e);
		int64_t id;

		ck_assert_ptr_nonnull(t);
		ck_assert_int_eq(npu_asm("demo.s", text, strlen(text), &r.p, &e), 0);
		free(text);
		r.s = npu_sim_new(&r.p, &T, &o, &e);
		ck_assert_int_eq(npu_sim_run(r.s, &e), 0);
		id = npu_trace_begin(t, &tr, &r.p, &e);
		ck_assert_int_gt(id, 0);
		ck_assert_msg(npu_sim_write_trace(r.s, t, &e) == 0, "%s", e.msg);
		ck_assert_int_eq(npu_trace_end(t, stats(&r)->total_cycles, 0, 0, &e), 0);
		rows[i] = npu_trace_rows(t);
		npu_trace_close(t);
		check_trace_sums(r.s, db, id);
		run_free(&r);
	}
	/* binning keeps every sum but writes far fewer rows */
	ck_assert_uint_lt(rows[1] * 4, rows[0]);
	rm_tmp();
}
END_TEST

/* FNV-1a over 64-bit words. */
static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ull;
	}
	return h;
}

/*
 * Everything a timing-only run reports, hashed field by field: stats,
 * every unit's intervals, kernel executions and DMA transfers.
 */
static uint64_t timing_hash(npu_sim *s)
{
	const npu_sim_stats *st = npu_sim_stats_get(s);
	const npu_trace_kernel *k;
	const npu_trace_dma *d;
	uint64_t h = 0xcbf29ce484222325ull;
	size_t n;

	h = fnv(h, st->total_cycles);
	h = fnv(h, st->insns);
	h = fnv(h, st->macs);
	h = fnv(h, st->vec_ops);
	h = fnv(h, st->dram_rd);
	h = fnv(h, st->dram_wr);
	h = fnv(h, st->dram_touched);
	h = fnv(h, st->sram_rd);
	h = fnv(h, st->sram_wr);
	h = fnv(h, st->dma_xfers);
	for (int u = 0; u < st->nunits; u++) {
		const npu_sim_interval *iv;
		for (int i = 0; i < NPU_SIM_NSTATE; i++)
			h = fnv(h, st->unit[u].cycles[i]);
		h = fnv(h, st->unit[u].insns);
		n = npu_sim_intervals(s, u, &iv);
		for (size_t i = 0; i < n; i++) {
			h = fnv(h, iv[i].start);
			h = fnv(h, iv[i].end);
			h = fnv(h, (uint64_t)iv[i].kernel << 32 | (uint32_t)iv[i].state);
		}
	}
	n = npu_sim_kexecs(s, &k);
	for (size_t i = 0; i < n; i++) {
		uint64_t f[] = { (uint64_t)k[i].kernel, k[i].start, k[i].end,
				 k[i].macs, k[i].vec_ops, k[i].insns, k[i].dram_rd,
				 k[i].dram_wr, k[i].sram_rd, k[i].sram_wr, k[i].compute,
				 k[i].dma_wait, k[i].dep_stall, k[i].bank_stall };
		for (size_t j = 0; j < sizeof f / sizeof *f; j++)
			h = fnv(h, f[j]);
	}
	n = npu_sim_dmas(s, &d);
	for (size_t i = 0; i < n; i++) {
		uint64_t f[] = { (uint64_t)d[i].engine, (uint64_t)d[i].dir, d[i].bytes,
				 d[i].bytes_touched, d[i].issue, d[i].start, d[i].end,
				 (uint64_t)d[i].kernel };
		for (size_t j = 0; j < sizeof f / sizeof *f; j++)
			h = fnv(h, f[j]);
	}
	return h;
}

/*
 * The bundled programs on npu-base, timing only, give the cycles and
 * timelines they gave before the scheduler was made faster (the values
 * were recorded then): a change to the simulator's speed must not change
 * what it computes.  A deliberate change to the timing model updates them.
 */
static const struct golden {
	const char *file;
	uint64_t cycles, hash;
} goldens[] = {
	{ "demo.s", 112192, 0x12f5f0d625cb9634ull },
	{ "sim_bench_vec.s", 4250015, 0x17104bd74c78453dull },
	{ "sim_bench_mxu.s", 102400647, 0xc8937fd0a241848dull },
	{ "sim_bench_gemm.s", 161860, 0x5b0042d38d8f2958ull },
	{ "sim_bank.s", 423, 0x597067062f59ee3cull },
	{ "sim_vchain.s", 23, 0x21d2f2c5c08a58b2ull },
	{ "sim_scalar.s", 42, 0x28ce11d0e2e97ccbull },
	{ "asm_vadd.s", 1307, 0xc627bd58029060f3ull },
};

START_TEST(timing_unchanged)
{
	const struct golden *g = &goldens[_i];
	const char *src = getenv("srcdir") ? getenv("srcdir") : ".";
	npu_sim_opts o = { .timing_only = 1 };
	char path[4096];
	npu_target t;
	npu_err e = { "" };
	npu_prog p = { 0 };
	npu_sim *s;
	char *text = read_data(g->file);
	uint64_t h;

	snprintf(path, sizeof path, "%s/targets/npu-base.ini", src);
	ck_assert_msg(npu_target_load(&t, path, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_asm(g->file, text, strlen(text), &p, &e) == 0, "%s", e.msg);
	free(text);
	s = npu_sim_new(&p, &t, &o, &e);
	ck_assert_ptr_nonnull(s);
	ck_assert_msg(npu_sim_run(s, &e) == 0, "%s: %s", g->file, e.msg);
	check_tiling(s);
	h = timing_hash(s);
	ck_assert_msg(npu_sim_stats_get(s)->total_cycles == g->cycles && h == g->hash,
		      "%s: %llu cycles, hash 0x%016llx; expected %llu, 0x%016llx",
		      g->file, (unsigned long long)npu_sim_stats_get(s)->total_cycles,
		      (unsigned long long)h, (unsigned long long)g->cycles,
		      (unsigned long long)g->hash);
	npu_sim_free(s);
	npu_prog_free(&p);
}
END_TEST

/* sim_bench_gemm.s (1024^3 bf16) on npu-base with its inputs filled;
 * returns its output c, malloc'd. */
static uint8_t *bench_gemm_output(uint64_t *bytes)
{
	const char *src = getenv("srcdir") ? getenv("srcdir") : ".";
	char path[4096], *text = read_data("sim_bench_gemm.s");
	npu_sim_opts o = { .no_timeline = 1 };
	npu_target t;
	npu_err e = { "" };
	npu_prog p = { 0 };
	npu_sim *s;
	uint8_t *out;
	int ic;

	snprintf(path, sizeof path, "%s/targets/npu-base.ini", src);
	ck_assert_msg(npu_target_load(&t, path, &e) == 0, "%s", e.msg);
	ck_assert_msg(npu_asm("sim_bench_gemm.s", text, strlen(text), &p, &e) == 0,
		      "%s", e.msg);
	free(text);
	ck_assert_ptr_nonnull(s = npu_sim_new(&p, &t, &o, &e));
	for (int i = 0; i < (int)p.nbufs; i++)
		if (p.bufs[i].kind == NPU_BUF_INPUT)
			for (uint64_t j = 0; j < p.bufs[i].size / 2; j++)
				npu_store_f32(NPU_DT_BF16, npu_sim_buf_data(s, i), j,
					      (float)((j * 2654435761u + (uint64_t)i) % 2001) /
						      1000.0f - 1.0f);
	ck_assert_msg(npu_sim_run(s, &e) == 0, "%s", e.msg);
	ic = npu_prog_find_buf(&p, "c");
	ck_assert(ic >= 0);
	*bytes = p.bufs[ic].size;
	out = malloc(*bytes);
	memcpy(out, npu_sim_buf_data(s, ic), *bytes);
	npu_sim_free(s);
	npu_prog_free(&p);
	return out;
}

/*
 * npu_sim_blas_default: one BLAS thread unless the environment names a
 * count, and the matrix unit's values the same bit for bit from run to
 * run at a given count (a 1024^3 product, which OpenBLAS does split
 * between two threads).  Not the same at one thread as at two: with
 * some CPU types' kernels (OPENBLAS_CORETYPE=Haswell, say) the columns
 * a thread's block ends on are summed by another kernel.
 */
START_TEST(matrix_blas_threads)
{
	uint64_t n1, n2;
	uint8_t *two, *again;

	openblas_set_num_threads(2);
	two = bench_gemm_output(&n2);
	again = bench_gemm_output(&n1);
	ck_assert_uint_eq(n1, n2);
	ck_assert_msg(!memcmp(again, two, n1), "values differ from run to run");
	setenv("OPENBLAS_NUM_THREADS", "2", 1);
	npu_sim_blas_default();
	ck_assert_int_eq(openblas_get_num_threads(), 2); /* the user's */
	unsetenv("OPENBLAS_NUM_THREADS");
	unsetenv("OMP_NUM_THREADS");
	npu_sim_blas_default();
	ck_assert_int_eq(openblas_get_num_threads(), 1);
	free(again);
	free(two);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sim");
	TCase *tc;

	tc = tcase_create("scalar");
	tcase_add_test(tc, scalar_loop_cycles);
	tcase_add_test(tc, scalar_ops_values);
	suite_add_tcase(s, tc);

	tc = tcase_create("vector");
	tcase_add_test(tc, vector_chain_cycles);
	tcase_add_test(tc, vector_op_values);
	tcase_add_test(tc, vector_nan_reduce_moves);
	tcase_add_test(tc, vector_dtype_load_store);
	suite_add_tcase(s, tc);

	tc = tcase_create("matrix");
	tcase_add_test(tc, matrix_ws_bf16);
	tcase_add_test(tc, matrix_inputs_rewritten);
	tcase_add_test(tc, matrix_ws_int8_accumulate);
	tcase_add_test(tc, matrix_ws_f32_strided);
	tcase_add_test(tc, matrix_os_bf16);
	tcase_add_test(tc, matrix_weight_double_buffer);
	tcase_add_test(tc, matrix_weight_hold);
	tcase_add_test(tc, matrix_blas_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("dma");
	tcase_add_test(tc, dma_1d_cycles);
	tcase_add_test(tc, dma_store_convert);
	tcase_add_test(tc, dma_2d_strided_unaligned);
	tcase_add_test(tc, dma_3d_store);
	tcase_add_test(tc, dma_gather);
	tcase_add_test(tc, dma_gather_computed_index);
	tcase_add_test(tc, dma_scatter);
	tcase_add_test(tc, dma_local_and_dram_copies);
	tcase_add_test(tc, dma_aperture);
	tcase_add_test(tc, dma_channels_shared);
	suite_add_tcase(s, tc);

	tc = tcase_create("sync");
	tcase_add_test(tc, bank_conflict_vector_waits);
	tcase_add_test(tc, bank_conflict_dma_waits);
	tcase_add_test(tc, semaphore_overlap_demo);
	tcase_add_test(tc, kernels_executions);
	tcase_add_test(tc, queue_full_stalls_scalar);
	tcase_add_test(tc, host_copy_fill_custom);
	tcase_add_test(tc, host_flops_rules);
	suite_add_tcase(s, tc);

	tc = tcase_create("faults");
	tcase_add_loop_test(tc, fault_kinds, 0, sizeof faults / sizeof *faults);
	tcase_add_loop_test(tc, race_check, 0, sizeof races / sizeof *races);
	tcase_add_test(tc, fault_report_names_kernel);
	tcase_add_test(tc, unregistered_host_op_faults);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, cli_end_to_end);
	tcase_add_test(tc, demo_on_npu_base);
	tcase_add_test(tc, trace_rows_exact_and_binned);
	suite_add_tcase(s, tc);

	tc = tcase_create("golden");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, timing_unchanged, 0, sizeof goldens / sizeof *goldens);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	test_target(&T);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
