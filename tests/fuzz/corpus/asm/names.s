.equ N, 4
.buffer "a b" i8 [N, N] scratch
li x1, &"a b" + sizeof("a b") * 2
jmp @0
.word 0x0000000000000001
vli v1, 0x7fc00001
