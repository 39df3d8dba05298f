.data c f32 [3] 1, 2
