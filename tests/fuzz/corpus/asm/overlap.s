.buffer a f32 [4] input
.buffer b f32 [4] input @8
