/*
 * report.h - a run's charts and key tables as a folder: PNG and SVG
 * charts drawn by gnuplot (run as a child process on a generated script
 * and data files) and an index.html that shows them with the kernels,
 * units, nodes and overlap tables.
 *
 * Charts: a roofline of the kernels (when the run's target is found),
 * cycles per kernel by category, a per-unit Gantt timeline, DRAM traffic
 * per kernel and, when the file holds several runs, cycles per run.
 * index.html is written last, through a temporary file renamed into
 * place, and an older one is removed first: a report that fails leaves
 * no index.html claiming it succeeded.
 */
#ifndef NPU_REPORT_H
#define NPU_REPORT_H

#include "isa/err.h"
#include "traces/query.h"

/* The charts, by file stem (each written as STEM.png and STEM.svg). */
#define NPU_REPORT_CHARTS(X) \
	X(roofline, "Roofline of the kernels") \
	X(categories, "Cycles per kernel by category") \
	X(timeline, "Unit timeline") \
	X(dram, "DRAM traffic per kernel") \
	X(runs, "Cycles per run")

/*
 * Writes the report of run r into dir (created if missing; its parent
 * must exist).  The gnuplot program is $NPU_GNUPLOT, else "gnuplot".
 * Charts without data (no roofline without a target, no runs chart for a
 * file of one run) are left out of the folder and the page.  0 or -1.
 */
int npu_report_write(npu_qdb *q, const npu_qrun *r, const char *dir,
		     npu_err *e);

#endif
