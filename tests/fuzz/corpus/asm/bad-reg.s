loop: add x1, x2, x32
