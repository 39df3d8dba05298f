# simple.s - three kernels whose cycles and bytes tests/check_query.c works
# out by hand (docs/timing-model.md, target qtest.ini):
#   load      dma0 reads a (256 bytes) into SRAM; the scalar unit waits
#   addrelu   a fused kernel of two FX nodes (add, relu) on the vector unit
#   store     dma1 writes SRAM to c (256 bytes); the scalar unit waits
# Modules: a_in in enc, add in enc.fc, relu in enc, st in none.
.target qtest
.buffer a f32 [64] scratch
.buffer c f32 [64] output

.kernel load a_in=aten.clone.default@enc@"m.py:1"
	dcfgi dma0, rowb, 256
	li x1, 0
	li x2, &a
	dld dma0, x1, x2
	sig dma0, s0
	wait scl, s0
.endkernel

.kernel addrelu add=aten.add.Tensor@enc.fc@"m.py:2" relu=aten.relu.default@enc@"m.py:3"
	li x3, 8
	setvl x4, x3
	vli v1, 2.0
	vadd v2, v1, v1
	vmaxi v3, v2, 0.0
.endkernel

.kernel store st=aten.copy_.default
	dcfgi dma1, rowb, 256
	li x5, &c
	dst dma1, x5, x1
	sig dma1, s1
	wait scl, s1
.endkernel
	halt
