# sim_bench_gemm.s - C = A W for 1024 x 1024 x 1024 bf16 on npu-base
# (scripts/bench times it against a host cblas_sgemm of the same shape).
#
# A and W are loaded into SRAM whole (2 MiB each, two DMA engines).  For
# each 128-column tile of C the matrix unit loads the 8 weight tiles of
# that column and streams all 1024 rows of A through each, accumulating
# into one of two fp32 accumulator tiles (1024 x 128); the vector unit
# converts the finished tile to bf16 into C in SRAM while the matrix unit
# fills the other accumulator tile.  C goes back to DRAM at the end.
#   s2/s3 accumulator tile 0/1 free    s4/s5 tile 0/1 computed
.target npu-base
.equ M, 1024
.equ K, 1024
.equ N, 1024
.equ T, 128                     # array rows = cols
.equ NT, 8                      # N / T
.equ KT, 8                      # K / T
.buffer a bf16 [M, K] input
.buffer w bf16 [K, N] input
.buffer c bf16 [M, N] output
.equ SA, 0
.equ SW, M*K*2
.equ SC, SW + K*N*2
.equ ACC, 0x40000000
.equ ACCB, M*T*4                # one accumulator tile

.kernel gemm mm=aten.mm.default
	li x1, M*K*2
	dcfg dma0, rowb, x1
	dcfg dma1, rowb, x1
	li x2, SA
	li x3, &a
	dld dma0, x2, x3
	sig dma0, s0
	li x2, SW
	li x3, &w
	dld dma1, x2, x3
	sig dma1, s1
	wait mxu, s0
	wait mxu, s1
	li x1, T
	mcfg x1, x1, bf16, 0
	li x4, K*2                  # input rows are rows of A
	li x5, T*4
	mstride x4, x5
	sig scl, s2
	sig scl, s3
	li x20, 0                   # column tile of C
ntile:
	wait mxu, s2
	li x22, ACC
	jal x31, mtile
	sig mxu, s4
	wait vec, s4
	jal x31, epi
	sig vec, s2
	addi x20, x20, 1
	wait mxu, s3
	li x22, ACC + ACCB
	jal x31, mtile
	sig mxu, s5
	wait vec, s5
	jal x31, epi
	sig vec, s3
	addi x20, x20, 1
	li x9, NT
	blt x20, x9, ntile
	sig vec, s6
	wait dma0, s6
	li x2, &c
	li x3, SC
	dst dma0, x2, x3
	halt

# mtile: accumulator x22 = A W[:, tile x20]
mtile:
	muli x24, x20, T*2
	addi x24, x24, SW           # weight tile (k = 0)
	li x27, N*2                 # weight row stride
	li x28, M
	li x25, SA                  # A columns of k tile 0
	mldw x24, x27
	mmac x25, x22, x28, 0
	li x23, 1
mk:
	addi x24, x24, T*N*2
	addi x25, x25, T*2
	mldw x24, x27
	mmac x25, x22, x28, 1
	addi x23, x23, 1
	li x9, KT
	blt x23, x9, mk
	jr x31

# epi: C[:, tile x20] = bf16(accumulator x22)
epi:
	li x1, T
	setvl x1, x1
	mov x2, x22
	muli x3, x20, T*2
	addi x3, x3, SC
	li x4, 0
	li x5, M
el:
	vld v1, x2, 0, f32
	vst v1, x3, 0, bf16
	addi x2, x2, T*4
	addi x3, x3, N*2
	addi x4, x4, 1
	blt x4, x5, el
	jr x31
.endkernel
