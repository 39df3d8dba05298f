.buffer".0b"i8[]scratch
li x1,2