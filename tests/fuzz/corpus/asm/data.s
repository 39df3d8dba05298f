# asm_data.s - constant buffers of every data type, kernels, placement.
.target npu-base
.data f f32 [2,3] 1.5, -0.0, inf, -inf, nan, 0x7fc00001
.data d f64 [3] 0.1, -1e300, 0x7ff0000000000001
.data h bf16 [4] 1.0, 0.333, 0xffff, -2
.data g float16 [3] 65504, 0.1, 0x7e01
.data q e4m3 [3] 448, -0.5, 0x7f
.data r e5m2 [2] 57344, 0.25
.data i int8 [4] -128, 127, 0xff, 0
.data u u8 [2] 255, 0
.data s i16 [2] -32768, 32767
.data w i32 [2] -2147483648, 0x7fffffff
.data l i64 [2] -9223372036854775808, 9223372036854775807
.data t bool [3] true, false, 1
.buffer x bf16 [16,16] scratch @0x1000
.buffer y f32 [] inout
.dram 0x2000

.kernel first n1=aten.addmm.default@layers.0.mlp@"models.py:251" n2
	li x1, &x
	li x2, sizeof(x) - 1
.endkernel
	nop
.kernel second [n1, n3=aten.relu.default]
back:
	addi x1, x1, -1
	bne x1, x0, back
	jmp @0
.endkernel
.kernel empty
.endkernel
	halt
