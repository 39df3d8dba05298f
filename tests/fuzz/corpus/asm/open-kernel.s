.kernel k
nop
