# sim_vchain.s - a dependent chain on the vector unit: v4 = exp(2 + 3).
# check_sim.c's vector_chain_cycles works its cycles out by hand.
	li x2, 8
	setvl x1, x2
	vli v1, 2.0
	vli v2, 3.0
	vadd v3, v1, v2
	vexp v4, v3
	halt
