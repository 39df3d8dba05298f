# demo.s - y = relu(x + b) over a 64 x 4096 fp32 tensor, double-buffered.
#
# The inputs are made on the chip, so the demo needs no input file:
#   make_inputs  b[j] = 0.5 cos(0.003 j), kept in SRAM at SB;
#                x[i][j] = 3 sin(0.01 (j + 7 i)), computed a row at a time
#                into two SRAM row buffers that DMA engine 0 stores to DRAM.
#   add_relu     software-pipelined: DMA engine 0 loads row i + 1 into one
#                row buffer while the vector unit computes row i in the
#                other and DMA engine 1 stores the finished row.
# Semaphores hand each buffer from unit to unit:
#   s0/s1 generated row in S0/S1    s2/s3 S0/S1 free for generation
#   s4/s5 row loaded into S0/S1     s6/s7 row in S0/S1 computed
#   s8/s9 S0/S1 free for loading
.target npu-base
.equ R, 64
.equ C, 4096
.equ ROWB, C*4
.buffer x f32 [R, C] scratch
.buffer y f32 [R, C] output
.equ SB, 0                      # b, one row
.equ S0, ROWB                   # row buffer 0
.equ S1, 2*ROWB                 # row buffer 1

	sig scl, s2                 # every buffer starts free
	sig scl, s3
	sig scl, s8
	sig scl, s9
	dcfgi dma0, rowb, ROWB
	dcfgi dma1, rowb, ROWB

.kernel make_inputs
	li x4, 0                    # b: element index j
	li x6, C                    # elements left
bloop:
	setvl x7, x6
	vidx v1
	vmovx v2, x4
	vadd v1, v1, v2
	vmuli v1, v1, 0.003
	vcos v1, v1
	vmuli v1, v1, 0.5
	shli x8, x4, 2
	vst v1, x8, SB, f32
	add x4, x4, x7
	sub x6, x6, x7
	blt x0, x6, bloop

	li x10, 0                   # x: row i
	li x11, &x                  # DRAM address of row i
xrows:
	wait vec, s2
	li x12, S0
	jal x31, genrow
	sig vec, s0
	wait dma0, s0
	dst dma0, x11, x12
	sig dma0, s2
	addi x10, x10, 1
	addi x11, x11, ROWB
	wait vec, s3
	li x12, S1
	jal x31, genrow
	sig vec, s1
	wait dma0, s1
	dst dma0, x11, x12
	sig dma0, s3
	addi x10, x10, 1
	addi x11, x11, ROWB
	li x9, R
	blt x10, x9, xrows
	jmp main

# genrow: SRAM[x12 + 4j] = 3 sin(0.01 (j + 7 x10)) for j < C
genrow:
	muli x4, x10, 7
	li x5, 0                    # byte offset
	li x6, C
gloop:
	setvl x7, x6
	vidx v1
	vmovx v2, x4
	vadd v1, v1, v2
	vmuli v1, v1, 0.01
	vsin v1, v1
	vmuli v1, v1, 3.0
	add x13, x12, x5
	vst v1, x13, 0, f32
	add x4, x4, x7
	shli x8, x7, 2
	add x5, x5, x8
	sub x6, x6, x7
	blt x0, x6, gloop
	jr x31
.endkernel

.kernel add_relu add=aten.add.Tensor relu=aten.relu.default
main:
	li x11, &x                  # DRAM row to load next
	li x14, &y                  # DRAM row to store next
	li x10, 0                   # rows loaded so far, two per iteration
	li x9, R
	wait dma0, s8               # prologue: row 0 -> S0
	li x12, S0
	dld dma0, x12, x11
	sig dma0, s4
mrows:
	addi x11, x11, ROWB         # load row i + 1 -> S1
	wait dma0, s9
	li x12, S1
	dld dma0, x12, x11
	sig dma0, s5
	wait vec, s4                # compute and store row i (S0)
	li x12, S0
	jal x31, addrow
	sig vec, s6
	wait dma1, s6
	dst dma1, x14, x12
	sig dma1, s8
	addi x14, x14, ROWB
	addi x10, x10, 2
	bge x10, x9, last
	addi x11, x11, ROWB         # load row i + 2 -> S0
	wait dma0, s8
	li x12, S0
	dld dma0, x12, x11
	sig dma0, s4
last:
	wait vec, s5                # compute and store row i + 1 (S1)
	li x12, S1
	jal x31, addrow
	sig vec, s7
	wait dma1, s7
	dst dma1, x14, x12
	sig dma1, s9
	addi x14, x14, ROWB
	blt x10, x9, mrows
	halt

# addrow: SRAM[x12 + 4j] = max(SRAM[x12 + 4j] + b[j], 0) for j < C
addrow:
	li x5, 0
	li x6, C
aloop:
	setvl x7, x6
	add x13, x12, x5
	vld v1, x13, 0, f32
	vld v2, x5, SB, f32
	vadd v1, v1, v2
	vmaxi v1, v1, 0.0
	vst v1, x13, 0, f32
	shli x8, x7, 2
	add x5, x5, x8
	sub x6, x6, x7
	blt x0, x6, aloop
	jr x31
.endkernel
