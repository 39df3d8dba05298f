# sim_bench_vec.s - vector-heavy: 250000 iterations of 8 register-only
# vector instructions plus the loop (2.5 million instructions).
.target npu-base
.kernel vec_loop
	li x1, 128
	setvl x1, x1
	vli v1, 0.5
	vli v2, 1.5
	li x2, 250000
loop:
	vadd v3, v1, v2
	vmul v4, v3, v1
	vfma v5, v4, v2
	vmaxi v6, v5, 0.0
	vsub v7, v6, v1
	vexp v8, v1
	vmuli v9, v2, 2.0
	vredsum v10, v3
	addi x2, x2, -1
	bne x2, x0, loop
	halt
.endkernel
