# sim_scalar.s - a counted loop on the scalar unit: x1 = 3 * 10.
# Cycles: 2 li + 10 x (addi, addi, bne) + 9 taken branches x lat_branch
# + halt.
	li x1, 0
	li x2, 10
loop:
	addi x1, x1, 3
	addi x2, x2, -1
	bne x2, x0, loop
	halt
