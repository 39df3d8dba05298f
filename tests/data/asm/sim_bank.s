# sim_bank.s - a bank conflict: DMA engine 0 loads 256 bytes into SRAM
# bank 0 (holding it for the last 16 cycles of the transfer) while the
# vector unit, after a chain of exponentials, loads from the same bank.
.buffer a u8 [4096] input
	dcfgi dma0, rowb, 256
	li x1, 0
	li x2, &a
	dld dma0, x1, x2        # SRAM[0..256) <- DRAM a: ends at 66
	li x3, 8
	setvl x3, x3
	vli v1, 0.5
	vexp v1, v1
	vexp v1, v1
	vexp v1, v1
	vexp v1, v1
	vld v2, x0, 1024, f32   # bank 0 again: waits for the DMA's window
	halt
