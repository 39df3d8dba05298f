beq x1, x0, nowhere
