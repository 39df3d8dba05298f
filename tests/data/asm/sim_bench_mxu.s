# sim_bench_mxu.s - matrix-heavy: 200000 iterations of one weight load,
# four 128-row multiply-accumulates and the loop (1.4 million
# instructions).
.target npu-base
.kernel mxu_loop
	li x1, 128
	mcfg x1, x1, bf16, 0
	li x3, 0                    # weights at 0, inputs at 32 KiB
	li x4, 256
	li x5, 32768
	li x6, 0x40000000
	li x7, 128
	li x2, 200000
loop:
	mldw x3, x4
	mmac x5, x6, x7, 1
	mmac x5, x6, x7, 1
	mmac x5, x6, x7, 1
	mmac x5, x6, x7, 1
	addi x2, x2, -1
	bne x2, x0, loop
	halt
.endkernel
