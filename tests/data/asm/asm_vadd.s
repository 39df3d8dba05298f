# asm_vadd.s - c = (a + b) * 0.5 over N fp32 values, VLEN lanes at a time.
# DMA engine 0 brings a and b into SRAM, the vector unit loops over them,
# DMA engine 1 writes c back; semaphores order the three units.
.target npu-base
.equ N, 256
.buffer a f32 [N] input
.buffer b float32 [N] input
.buffer c f32 [N] output

.equ SA, 0                      # SRAM addresses of the three tiles
.equ SB, SA + N*4
.equ SC, SB + N*4

.kernel vadd add=aten.add.Tensor mul=aten.mul.Tensor
	li x1, sizeof(a)
	dcfg dma0, rowb, x1         # one row of N*4 bytes
	li x2, SA
	li x3, &a
	dld dma0, x2, x3            # SRAM[SA] <- DRAM[&a]
	li x2, SB
	li x3, &b
	dld dma0, x2, x3
	sig dma0, s0                # both loads done ...
	wait vec, s0                # ... before the vector unit starts
	li x4, 0                    # byte offset
	li x6, N                    # elements left
loop:
	setvl x7, x6                # vl = min(left, VLEN)
	vld v1, x4, SA, f32
	vld v2, x4, SB, f32
	vadd v3, v1, v2
	vmuli v3, v3, 0.5
	vst v3, x4, SC, f32
	shli x8, x7, 2
	add x4, x4, x8
	sub x6, x6, x7
	blt x0, x6, loop            # while left > 0
	sig vec, s1                 # results stored ...
	wait dma1, s1               # ... before DMA engine 1 reads them
	dcfgi dma1, rowb, sizeof(c)
	li x2, SC
	li x3, &c
	dst dma1, x3, x2            # DRAM[&c] <- SRAM[SC]
	sig dma1, s2
	wait scl, s2                # the scalar unit waits for the store
	halt
.endkernel
