/*
 * chrome.h - a run as a Chrome trace event file (the JSON that Perfetto UI
 * and chrome://tracing load).
 *
 * One process per run; one track (thread) per unit with its activity
 * (busy, dma_wait, dep_stall, bank_stall; idle is left out), a "kernels"
 * track with every kernel execution, a track per DMA engine with its
 * transfers, all as complete ('X') events, and a "DRAM bandwidth" counter
 * ('C') in GB/s.  Kernels and transfers carry the kernel's FX nodes in
 * args.  Time: ts and dur are microseconds, cycles / clock_mhz of the
 * run's target (1000 MHz, 1 cycle = 1 ns, when the target is not found).
 */
#ifndef NPU_CHROME_H
#define NPU_CHROME_H

#include "isa/err.h"
#include "traces/query.h"

/* Track ids (tid) of the export. */
#define NPU_CHROME_TID_KERNELS 0
#define NPU_CHROME_TID_UNIT(u) (1 + (u))       /* activity of unit u */
#define NPU_CHROME_TID_DMA(n) (100 + (n))      /* transfers of engine n */

/* Writes run r of q to path (through a temporary file renamed at the
 * end, so a failed export leaves no partial file).  0 or -1. */
int npu_chrome_export(npu_qdb *q, const npu_qrun *r, const char *path,
		      npu_err *e);

#endif
