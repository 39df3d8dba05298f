/*
 * fuzz_sim.c - the simulator on arbitrary code: whatever the words, a run
 * must end (done or a fault), never crash, hang or leak, and a timing-only
 * run must give the same cycles.
 *
 * Input: one byte of flags (bit 0: output-stationary allowed), then
 * little-endian 64-bit instruction words (at most 512).  The program has
 * two DRAM buffers and a small target; runs stop at 200000 cycles.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void target(npu_target *t, int os)
{
	memset(t, 0, sizeof *t);
	strcpy(t->name, "fuzz");
	t->clock_mhz = 1000;
	t->mxu_rows = t->mxu_cols = 4;
	t->dataflows = NPU_DF_WS | (os ? NPU_DF_OS : 0);
	t->mxu_rate[NPU_DT_BF16] = 1;
	t->mxu_rate[NPU_DT_F32] = 0.5;
	t->mxu_rate[NPU_DT_I8] = 2;
	t->mxu_latency = 3;
	t->sram_bytes = 16384;
	t->sram_banks = 4;
	t->sram_port_bytes = 16;
	t->acc_bytes = 4096;
	t->acc_banks = 2;
	t->vlen = 8;
	t->vec_lanes = 4;
	t->lat_alu = 2; t->lat_mul = 3; t->lat_div = 8; t->lat_trans = 12;
	t->ii_trans = 2; t->lat_red = 5; t->lat_ld = 4;
	t->queue_depth = 4;
	t->lat_branch = 1;
	t->dma_engines = 2;
	t->dma_bytes_per_cycle = 8;
	t->dma_setup = 10;
	t->dram_bytes = 1u << 20;
	t->dram_bytes_per_cycle = 16;
	t->dram_latency = 20;
	t->dram_channels = 2;
	t->dram_burst = 16;
	t->dram_interleave = 64;
	t->host_bytes_per_cycle = 8;
	t->host_latency = 100;
	t->host_flops_per_cycle = 4;
}

static uint64_t run(const npu_prog *p, const npu_target *t, int timing_only)
{
	npu_sim_opts o = { .timing_only = timing_only, .max_cycles = 200000 };
	npu_err e = { "" };
	npu_sim *s = npu_sim_new(p, t, &o, &e);
	uint64_t total;
	int rc;

	if (!s)
		abort();
	rc = npu_sim_run(s, &e);
	if (rc < 0)
		abort();
	total = npu_sim_stats_get(s)->total_cycles;
	npu_sim_free(s);
	return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char na[] = "a", nb[] = "b", op[] = "copy", attrs[] = "{}";
	npu_buf bufs[2];
	npu_hostcall hc;
	uint32_t args[2] = { 0, 1 };
	npu_prog p;
	npu_target t;
	uint64_t code[512];
	size_t n;

	if (size < 1)
		return 0;
	n = (size - 1) / 8;
	if (n > 512)
		n = 512;
	memcpy(code, data + 1, n * 8);
	memset(&p, 0, sizeof p);
	memset(bufs, 0, sizeof bufs);
	bufs[0] = (npu_buf){ na, NPU_DT_F32, 1, { 256 }, NPU_BUF_INPUT, 0, 1024, 0, 0 };
	bufs[1] = (npu_buf){ nb, NPU_DT_F32, 1, { 256 }, NPU_BUF_OUTPUT, 1024, 1024, 0, 0 };
	hc = (npu_hostcall){ op, attrs, 1, 2, args, NPU_NO_NODE };
	p.code = code;
	p.ncode = (uint32_t)n;
	p.bufs = bufs;
	p.nbufs = 2;
	p.dram_size = 2048;
	p.hcalls = &hc;
	p.nhcalls = 1;
	target(&t, data[0] & 1);
	if (run(&p, &t, 0) != run(&p, &t, 1))
		abort();
	return 0;
}
