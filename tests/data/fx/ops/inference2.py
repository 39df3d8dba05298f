class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 2, 3, 3]", arg1_1: "f32[16]", arg2_1: "f32[2, 8, 8, 8]", arg3_1: "f32[32, 16]", arg4_1: "i64[2, 16]", arg5_1: "i64[2, 16, 16]", arg6_1: "f32[16, 16]", arg7_1: "f32[16]"):
        # File: scripts/capture_models:157 in forward, code: y = F.max_pool2d(self.conv(img), 3, stride=2, padding=1)  # [2,16,4,4]
        convolution: "f32[2, 16, 8, 8]" = torch.ops.aten.convolution.default(arg2_1, arg0_1, arg1_1, [1, 1], [1, 1], [1, 1], False, [0, 0], 4);  arg2_1 = arg0_1 = arg1_1 = None
        max_pool2d_with_indices = torch.ops.aten.max_pool2d_with_indices.default(convolution, [3, 3], [2, 2], [1, 1]);  convolution = None
        getitem: "f32[2, 16, 4, 4]" = max_pool2d_with_indices[0];  max_pool2d_with_indices = None

        # File: scripts/capture_models:158 in forward, code: y = F.hardtanh(y, -0.5, 0.5).flatten(2).transpose(1, 2)   # [2,16,16]
        hardtanh: "f32[2, 16, 4, 4]" = torch.ops.aten.hardtanh.default(getitem, -0.5, 0.5);  getitem = None
        view: "f32[2, 16, 16]" = torch.ops.aten.view.default(hardtanh, [2, 16, 16]);  hardtanh = None
        permute: "f32[2, 16, 16]" = torch.ops.aten.permute.default(view, [0, 2, 1]);  view = None

        # File: scripts/capture_models:159 in forward, code: e = self.emb(ids)                                         # [2,16,16]
        embedding: "f32[2, 16, 16]" = torch.ops.aten.embedding.default(arg3_1, arg4_1);  arg3_1 = None

        # File: scripts/capture_models:160 in forward, code: g = torch.gather(e, 1, pick)                              # [2,16,16]
        gather: "f32[2, 16, 16]" = torch.ops.aten.gather.default(embedding, 1, arg5_1);  embedding = arg5_1 = None

        # File: scripts/capture_models:161 in forward, code: c = torch.cumsum(g, dim=1)
        cumsum: "f32[2, 16, 16]" = torch.ops.aten.cumsum.default(gather, 1);  gather = None

        # File: scripts/capture_models:162 in forward, code: rows = c[:, torch.tensor([0, 3, 5, 15])]                  # aten.index
        _tensor_constant0: "i64[4]" = self._tensor_constant0
        lift_fresh_copy: "i64[4]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant0);  _tensor_constant0 = None
        index: "f32[2, 4, 16]" = torch.ops.aten.index.Tensor(cumsum, [None, lift_fresh_copy]);  lift_fresh_copy = None

        # File: scripts/capture_models:163 in forward, code: h = F.gelu(self.fc(y + c), approximate="tanh")
        add: "f32[2, 16, 16]" = torch.ops.aten.add.Tensor(permute, cumsum);  permute = cumsum = None
        permute_1: "f32[16, 16]" = torch.ops.aten.permute.default(arg6_1, [1, 0]);  arg6_1 = None
        clone: "f32[2, 16, 16]" = torch.ops.aten.clone.default(add, memory_format = torch.contiguous_format);  add = None
        view_1: "f32[32, 16]" = torch.ops.aten.view.default(clone, [32, 16]);  clone = None
        mm: "f32[32, 16]" = torch.ops.aten.mm.default(view_1, permute_1);  view_1 = permute_1 = None
        view_2: "f32[2, 16, 16]" = torch.ops.aten.view.default(mm, [2, 16, 16]);  mm = None
        add_1: "f32[2, 16, 16]" = torch.ops.aten.add.Tensor(view_2, arg7_1);  view_2 = arg7_1 = None
        gelu: "f32[2, 16, 16]" = torch.ops.aten.gelu.default(add_1, approximate = 'tanh');  add_1 = None

        # File: scripts/capture_models:164 in forward, code: h = h.masked_fill(ids.unsqueeze(-1) == 0, -1.0)
        unsqueeze: "i64[2, 16, 1]" = torch.ops.aten.unsqueeze.default(arg4_1, -1);  arg4_1 = None
        eq: "b8[2, 16, 1]" = torch.ops.aten.eq.Scalar(unsqueeze, 0);  unsqueeze = None
        scalar_tensor: "f32[]" = torch.ops.aten.scalar_tensor.default(-1.0, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[2, 16, 16]" = torch.ops.aten.where.self(eq, scalar_tensor, gelu);  eq = scalar_tensor = gelu = None

        # File: scripts/capture_models:165 in forward, code: h = torch.where(h > 0.25, h, 0.1 * h)
        gt: "b8[2, 16, 16]" = torch.ops.aten.gt.Scalar(where, 0.25)
        mul: "f32[2, 16, 16]" = torch.ops.aten.mul.Tensor(where, 0.1)
        where_1: "f32[2, 16, 16]" = torch.ops.aten.where.self(gt, where, mul);  gt = where = mul = None
        return (where_1, index)
