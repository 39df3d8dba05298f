class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 3, 32, 32]", arg1_1: "f32[64, 3, 8, 8]", arg2_1: "f32[64]", arg3_1: "f32[1, 1, 64]", arg4_1: "f32[1, 17, 64]", arg5_1: "f32[64]", arg6_1: "f32[64]", arg7_1: "f32[192, 64]", arg8_1: "f32[192]", arg9_1: "f32[64, 64]", arg10_1: "f32[64]", arg11_1: "f32[64]", arg12_1: "f32[64]", arg13_1: "f32[128, 64]", arg14_1: "f32[128]", arg15_1: "f32[64, 128]", arg16_1: "f32[64]", arg17_1: "f32[64]", arg18_1: "f32[64]", arg19_1: "f32[192, 64]", arg20_1: "f32[192]", arg21_1: "f32[64, 64]", arg22_1: "f32[64]", arg23_1: "f32[64]", arg24_1: "f32[64]", arg25_1: "f32[128, 64]", arg26_1: "f32[128]", arg27_1: "f32[64, 128]", arg28_1: "f32[64]", arg29_1: "f32[64]", arg30_1: "f32[64]", arg31_1: "f32[10, 64]", arg32_1: "f32[10]"):
        # File: torchvision/models/vision_transformer.py:277 in _process_input, code: x = self.conv_proj(x)
        convolution: "f32[2, 64, 4, 4]" = torch.ops.aten.convolution.default(arg0_1, arg1_1, arg2_1, [8, 8], [0, 0], [1, 1], False, [0, 0], 1);  arg0_1 = arg1_1 = arg2_1 = None

        # File: torchvision/models/vision_transformer.py:279 in _process_input, code: x = x.reshape(n, self.hidden_dim, n_h * n_w)
        view: "f32[2, 64, 16]" = torch.ops.aten.view.default(convolution, [2, 64, 16]);  convolution = None

        # File: torchvision/models/vision_transformer.py:285 in _process_input, code: x = x.permute(0, 2, 1)
        permute: "f32[2, 16, 64]" = torch.ops.aten.permute.default(view, [0, 2, 1]);  view = None

        # File: torchvision/models/vision_transformer.py:295 in forward, code: batch_class_token = self.class_token.expand(n, -1, -1)
        expand: "f32[2, 1, 64]" = torch.ops.aten.expand.default(arg3_1, [2, -1, -1]);  arg3_1 = None

        # File: torchvision/models/vision_transformer.py:296 in forward, code: x = torch.cat([batch_class_token, x], dim=1)
        cat: "f32[2, 17, 64]" = torch.ops.aten.cat.default([expand, permute], 1);  expand = permute = None

        # File: torchvision/models/vision_transformer.py:156 in forward, code: input = input + self.pos_embedding
        add: "f32[2, 17, 64]" = torch.ops.aten.add.Tensor(cat, arg4_1);  cat = arg4_1 = None

        # File: torchvision/models/vision_transformer.py:157 in forward, code: return self.ln(self.layers(self.dropout(input)))
        clone: "f32[2, 17, 64]" = torch.ops.aten.clone.default(add);  add = None

        # File: torchvision/models/vision_transformer.py:112 in forward, code: x = self.ln_1(input)
        native_layer_norm = torch.ops.aten.native_layer_norm.default(clone, [64], arg5_1, arg6_1, 1e-06);  arg5_1 = arg6_1 = None
        getitem: "f32[2, 17, 64]" = native_layer_norm[0];  native_layer_norm = None

        # File: torchvision/models/vision_transformer.py:113 in forward, code: x, _ = self.self_attention(x, x, x, need_weights=False)
        permute_1: "f32[17, 2, 64]" = torch.ops.aten.permute.default(getitem, [1, 0, 2]);  getitem = None
        permute_2: "f32[64, 192]" = torch.ops.aten.permute.default(arg7_1, [1, 0]);  arg7_1 = None
        clone_1: "f32[17, 2, 64]" = torch.ops.aten.clone.default(permute_1, memory_format = torch.contiguous_format);  permute_1 = None
        view_1: "f32[34, 64]" = torch.ops.aten.view.default(clone_1, [34, 64]);  clone_1 = None
        mm: "f32[34, 192]" = torch.ops.aten.mm.default(view_1, permute_2);  view_1 = permute_2 = None
        view_2: "f32[17, 2, 192]" = torch.ops.aten.view.default(mm, [17, 2, 192]);  mm = None
        add_1: "f32[17, 2, 192]" = torch.ops.aten.add.Tensor(view_2, arg8_1);  view_2 = arg8_1 = None
        view_3: "f32[17, 2, 3, 64]" = torch.ops.aten.view.default(add_1, [17, 2, 3, 64]);  add_1 = None
        unsqueeze: "f32[1, 17, 2, 3, 64]" = torch.ops.aten.unsqueeze.default(view_3, 0);  view_3 = None
        permute_3: "f32[3, 17, 2, 1, 64]" = torch.ops.aten.permute.default(unsqueeze, [3, 1, 2, 0, 4]);  unsqueeze = None
        squeeze: "f32[3, 17, 2, 64]" = torch.ops.aten.squeeze.dims(permute_3, [-2]);  permute_3 = None
        clone_2: "f32[3, 17, 2, 64]" = torch.ops.aten.clone.default(squeeze, memory_format = torch.contiguous_format);  squeeze = None
        select: "f32[17, 2, 64]" = torch.ops.aten.select.int(clone_2, 0, 0)
        select_1: "f32[17, 2, 64]" = torch.ops.aten.select.int(clone_2, 0, 1)
        select_2: "f32[17, 2, 64]" = torch.ops.aten.select.int(clone_2, 0, 2);  clone_2 = None
        view_4: "f32[17, 4, 32]" = torch.ops.aten.view.default(select, [17, 4, 32]);  select = None
        permute_4: "f32[4, 17, 32]" = torch.ops.aten.permute.default(view_4, [1, 0, 2]);  view_4 = None
        view_5: "f32[17, 4, 32]" = torch.ops.aten.view.default(select_1, [17, 4, 32]);  select_1 = None
        permute_5: "f32[4, 17, 32]" = torch.ops.aten.permute.default(view_5, [1, 0, 2]);  view_5 = None
        view_6: "f32[17, 4, 32]" = torch.ops.aten.view.default(select_2, [17, 4, 32]);  select_2 = None
        permute_6: "f32[4, 17, 32]" = torch.ops.aten.permute.default(view_6, [1, 0, 2]);  view_6 = None
        view_7: "f32[2, 2, 17, 32]" = torch.ops.aten.view.default(permute_4, [2, 2, 17, 32]);  permute_4 = None
        view_8: "f32[2, 2, 17, 32]" = torch.ops.aten.view.default(permute_5, [2, 2, 17, 32]);  permute_5 = None
        view_9: "f32[2, 2, 17, 32]" = torch.ops.aten.view.default(permute_6, [2, 2, 17, 32]);  permute_6 = None
        mul: "f32[2, 2, 17, 32]" = torch.ops.aten.mul.Scalar(view_7, 0.42044820762685725);  view_7 = None
        permute_7: "f32[2, 2, 32, 17]" = torch.ops.aten.permute.default(view_8, [0, 1, 3, 2]);  view_8 = None
        mul_1: "f32[2, 2, 32, 17]" = torch.ops.aten.mul.Scalar(permute_7, 0.42044820762685725);  permute_7 = None
        expand_1: "f32[2, 2, 17, 32]" = torch.ops.aten.expand.default(mul, [2, 2, 17, 32]);  mul = None
        view_10: "f32[4, 17, 32]" = torch.ops.aten.view.default(expand_1, [4, 17, 32]);  expand_1 = None
        expand_2: "f32[2, 2, 32, 17]" = torch.ops.aten.expand.default(mul_1, [2, 2, 32, 17]);  mul_1 = None
        view_11: "f32[4, 32, 17]" = torch.ops.aten.view.default(expand_2, [4, 32, 17]);  expand_2 = None
        bmm: "f32[4, 17, 17]" = torch.ops.aten.bmm.default(view_10, view_11);  view_10 = view_11 = None
        view_12: "f32[2, 2, 17, 17]" = torch.ops.aten.view.default(bmm, [2, 2, 17, 17]);  bmm = None
        _softmax: "f32[2, 2, 17, 17]" = torch.ops.aten._softmax.default(view_12, -1, False)
        eq: "b8[2, 2, 17, 17]" = torch.ops.aten.eq.Scalar(view_12, -inf);  view_12 = None
        logical_not: "b8[2, 2, 17, 17]" = torch.ops.aten.logical_not.default(eq);  eq = None
        any_1: "b8[2, 2, 17, 1]" = torch.ops.aten.any.dim(logical_not, -1, True);  logical_not = None
        logical_not_1: "b8[2, 2, 17, 1]" = torch.ops.aten.logical_not.default(any_1);  any_1 = None
        full_like: "f32[2, 2, 17, 17]" = torch.ops.aten.full_like.default(_softmax, 0, pin_memory = False, memory_format = torch.preserve_format)
        where: "f32[2, 2, 17, 17]" = torch.ops.aten.where.self(logical_not_1, full_like, _softmax);  logical_not_1 = full_like = _softmax = None
        expand_3: "f32[2, 2, 17, 17]" = torch.ops.aten.expand.default(where, [2, 2, 17, 17]);  where = None
        view_13: "f32[4, 17, 17]" = torch.ops.aten.view.default(expand_3, [4, 17, 17]);  expand_3 = None
        expand_4: "f32[2, 2, 17, 32]" = torch.ops.aten.expand.default(view_9, [2, 2, 17, 32]);  view_9 = None
        view_14: "f32[4, 17, 32]" = torch.ops.aten.view.default(expand_4, [4, 17, 32]);  expand_4 = None
        bmm_1: "f32[4, 17, 32]" = torch.ops.aten.bmm.default(view_13, view_14);  view_13 = view_14 = None
        view_15: "f32[2, 2, 17, 32]" = torch.ops.aten.view.default(bmm_1, [2, 2, 17, 32]);  bmm_1 = None
        permute_8: "f32[17, 2, 2, 32]" = torch.ops.aten.permute.default(view_15, [2, 0, 1, 3]);  view_15 = None
        clone_3: "f32[17, 2, 2, 32]" = torch.ops.aten.clone.default(permute_8, memory_format = torch.contiguous_format);  permute_8 = None
        permute_9: "f32[2, 2, 17, 32]" = torch.ops.aten.permute.default(clone_3, [1, 2, 0, 3]);  clone_3 = None
        permute_10: "f32[17, 2, 2, 32]" = torch.ops.aten.permute.default(permute_9, [2, 0, 1, 3]);  permute_9 = None
        view_16: "f32[34, 64]" = torch.ops.aten.view.default(permute_10, [34, 64]);  permute_10 = None
        permute_11: "f32[64, 64]" = torch.ops.aten.permute.default(arg9_1, [1, 0]);  arg9_1 = None
        addmm: "f32[34, 64]" = torch.ops.aten.addmm.default(arg10_1, view_16, permute_11);  arg10_1 = view_16 = permute_11 = None
        view_17: "f32[17, 2, 64]" = torch.ops.aten.view.default(addmm, [17, 2, 64]);  addmm = None
        permute_12: "f32[2, 17, 64]" = torch.ops.aten.permute.default(view_17, [1, 0, 2]);  view_17 = None

        # File: torchvision/models/vision_transformer.py:114 in forward, code: x = self.dropout(x)
        clone_4: "f32[2, 17, 64]" = torch.ops.aten.clone.default(permute_12);  permute_12 = None

        # File: torchvision/models/vision_transformer.py:115 in forward, code: x = x + input
        add_2: "f32[2, 17, 64]" = torch.ops.aten.add.Tensor(clone_4, clone);  clone_4 = clone = None

        # File: torchvision/models/vision_transformer.py:117 in forward, code: y = self.ln_2(x)
        native_layer_norm_1 = torch.ops.aten.native_layer_norm.default(add_2, [64], arg11_1, arg12_1, 1e-06);  arg11_1 = arg12_1 = None
        getitem_3: "f32[2, 17, 64]" = native_layer_norm_1[0];  native_layer_norm_1 = None

        # File: torchvision/models/vision_transformer.py:118 in forward, code: y = self.mlp(y)
        view_18: "f32[34, 64]" = torch.ops.aten.view.default(getitem_3, [34, 64]);  getitem_3 = None
        permute_13: "f32[64, 128]" = torch.ops.aten.permute.default(arg13_1, [1, 0]);  arg13_1 = None
        addmm_1: "f32[34, 128]" = torch.ops.aten.addmm.default(arg14_1, view_18, permute_13);  arg14_1 = view_18 = permute_13 = None
        view_19: "f32[2, 17, 128]" = torch.ops.aten.view.default(addmm_1, [2, 17, 128]);  addmm_1 = None
        gelu: "f32[2, 17, 128]" = torch.ops.aten.gelu.default(view_19);  view_19 = None
        clone_5: "f32[2, 17, 128]" = torch.ops.aten.clone.default(gelu);  gelu = None
        view_20: "f32[34, 128]" = torch.ops.aten.view.default(clone_5, [34, 128]);  clone_5 = None
        permute_14: "f32[128, 64]" = torch.ops.aten.permute.default(arg15_1, [1, 0]);  arg15_1 = None
        addmm_2: "f32[34, 64]" = torch.ops.aten.addmm.default(arg16_1, view_20, permute_14);  arg16_1 = view_20 = permute_14 = None
        view_21: "f32[2, 17, 64]" = torch.ops.aten.view.default(addmm_2, [2, 17, 64]);  addmm_2 = None
        clone_6: "f32[2, 17, 64]" = torch.ops.aten.clone.default(view_21);  view_21 = None

        # File: torchvision/models/vision_transformer.py:119 in forward, code: return x + y
        add_3: "f32[2, 17, 64]" = torch.ops.aten.add.Tensor(add_2, clone_6);  add_2 = clone_6 = None

        # File: torchvision/models/vision_transformer.py:112 in forward, code: x = self.ln_1(input)
        native_layer_norm_2 = torch.ops.aten.native_layer_norm.default(add_3, [64], arg17_1, arg18_1, 1e-06);  arg17_1 = arg18_1 = None
        getitem_6: "f32[2, 17, 64]" = native_layer_norm_2[0];  native_layer_norm_2 = None

        # File: torchvision/models/vision_transformer.py:113 in forward, code: x, _ = self.self_attention(x, x, x, need_weights=False)
        permute_15: "f32[17, 2, 64]" = torch.ops.aten.permute.default(getitem_6, [1, 0, 2]);  getitem_6 = None
        permute_16: "f32[64, 192]" = torch.ops.aten.permute.default(arg19_1, [1, 0]);  arg19_1 = None
        clone_7: "f32[17, 2, 64]" = torch.ops.aten.clone.default(permute_15, memory_format = torch.contiguous_format);  permute_15 = None
        view_22: "f32[34, 64]" = torch.ops.aten.view.default(clone_7, [34, 64]);  clone_7 = None
        mm_1: "f32[34, 192]" = torch.ops.aten.mm.default(view_22, permute_16);  view_22 = permute_16 = None
        view_23: "f32[17, 2, 192]" = torch.ops.aten.view.default(mm_1, [17, 2, 192]);  mm_1 = None
        add_4: "f32[17, 2, 192]" = torch.ops.aten.add.Tensor(view_23, arg20_1);  view_23 = arg20_1 = None
        view_24: "f32[17, 2, 3, 64]" = torch.ops.aten.view.default(add_4, [17, 2, 3, 64]);  add_4 = None
        unsqueeze_1: "f32[1, 17, 2, 3, 64]" = torch.ops.aten.unsqueeze.default(view_24, 0);  view_24 = None
        permute_17: "f32[3, 17, 2, 1, 64]" = torch.ops.aten.permute.default(unsqueeze_1, [3, 1, 2, 0, 4]);  unsqueeze_1 = None
        squeeze_1: "f32[3, 17, 2, 64]" = torch.ops.aten.squeeze.dims(permute_17, [-2]);  permute_17 = None
        clone_8: "f32[3, 17, 2, 64]" = torch.ops.aten.clone.default(squeeze_1, memory_format = torch.contiguous_format);  squeeze_1 = None
        select_3: "f32[17, 2, 64]" = torch.ops.aten.select.int(clone_8, 0, 0)
        select_4: "f32[17, 2, 64]" = torch.ops.aten.select.int(clone_8, 0, 1)
        select_5: "f32[17, 2, 64]" = torch.ops.aten.select.int(clone_8, 0, 2);  clone_8 = None
        view_25: "f32[17, 4, 32]" = torch.ops.aten.view.default(select_3, [17, 4, 32]);  select_3 = None
        permute_18: "f32[4, 17, 32]" = torch.ops.aten.permute.default(view_25, [1, 0, 2]);  view_25 = None
        view_26: "f32[17, 4, 32]" = torch.ops.aten.view.default(select_4, [17, 4, 32]);  select_4 = None
        permute_19: "f32[4, 17, 32]" = torch.ops.aten.permute.default(view_26, [1, 0, 2]);  view_26 = None
        view_27: "f32[17, 4, 32]" = torch.ops.aten.view.default(select_5, [17, 4, 32]);  select_5 = None
        permute_20: "f32[4, 17, 32]" = torch.ops.aten.permute.default(view_27, [1, 0, 2]);  view_27 = None
        view_28: "f32[2, 2, 17, 32]" = torch.ops.aten.view.default(permute_18, [2, 2, 17, 32]);  permute_18 = None
        view_29: "f32[2, 2, 17, 32]" = torch.ops.aten.view.default(permute_19, [2, 2, 17, 32]);  permute_19 = None
        view_30: "f32[2, 2, 17, 32]" = torch.ops.aten.view.default(permute_20, [2, 2, 17, 32]);  permute_20 = None
        mul_2: "f32[2, 2, 17, 32]" = torch.ops.aten.mul.Scalar(view_28, 0.42044820762685725);  view_28 = None
        permute_21: "f32[2, 2, 32, 17]" = torch.ops.aten.permute.default(view_29, [0, 1, 3, 2]);  view_29 = None
        mul_3: "f32[2, 2, 32, 17]" = torch.ops.aten.mul.Scalar(permute_21, 0.42044820762685725);  permute_21 = None
        expand_5: "f32[2, 2, 17, 32]" = torch.ops.aten.expand.default(mul_2, [2, 2, 17, 32]);  mul_2 = None
        view_31: "f32[4, 17, 32]" = torch.ops.aten.view.default(expand_5, [4, 17, 32]);  expand_5 = None
        expand_6: "f32[2, 2, 32, 17]" = torch.ops.aten.expand.default(mul_3, [2, 2, 32, 17]);  mul_3 = None
        view_32: "f32[4, 32, 17]" = torch.ops.aten.view.default(expand_6, [4, 32, 17]);  expand_6 = None
        bmm_2: "f32[4, 17, 17]" = torch.ops.aten.bmm.default(view_31, view_32);  view_31 = view_32 = None
        view_33: "f32[2, 2, 17, 17]" = torch.ops.aten.view.default(bmm_2, [2, 2, 17, 17]);  bmm_2 = None
        _softmax_1: "f32[2, 2, 17, 17]" = torch.ops.aten._softmax.default(view_33, -1, False)
        eq_1: "b8[2, 2, 17, 17]" = torch.ops.aten.eq.Scalar(view_33, -inf);  view_33 = None
        logical_not_2: "b8[2, 2, 17, 17]" = torch.ops.aten.logical_not.default(eq_1);  eq_1 = None
        any_2: "b8[2, 2, 17, 1]" = torch.ops.aten.any.dim(logical_not_2, -1, True);  logical_not_2 = None
        logical_not_3: "b8[2, 2, 17, 1]" = torch.ops.aten.logical_not.default(any_2);  any_2 = None
        full_like_1: "f32[2, 2, 17, 17]" = torch.ops.aten.full_like.default(_softmax_1, 0, pin_memory = False, memory_format = torch.preserve_format)
        where_1: "f32[2, 2, 17, 17]" = torch.ops.aten.where.self(logical_not_3, full_like_1, _softmax_1);  logical_not_3 = full_like_1 = _softmax_1 = None
        expand_7: "f32[2, 2, 17, 17]" = torch.ops.aten.expand.default(where_1, [2, 2, 17, 17]);  where_1 = None
        view_34: "f32[4, 17, 17]" = torch.ops.aten.view.default(expand_7, [4, 17, 17]);  expand_7 = None
        expand_8: "f32[2, 2, 17, 32]" = torch.ops.aten.expand.default(view_30, [2, 2, 17, 32]);  view_30 = None
        view_35: "f32[4, 17, 32]" = torch.ops.aten.view.default(expand_8, [4, 17, 32]);  expand_8 = None
        bmm_3: "f32[4, 17, 32]" = torch.ops.aten.bmm.default(view_34, view_35);  view_34 = view_35 = None
        view_36: "f32[2, 2, 17, 32]" = torch.ops.aten.view.default(bmm_3, [2, 2, 17, 32]);  bmm_3 = None
        permute_22: "f32[17, 2, 2, 32]" = torch.ops.aten.permute.default(view_36, [2, 0, 1, 3]);  view_36 = None
        clone_9: "f32[17, 2, 2, 32]" = torch.ops.aten.clone.default(permute_22, memory_format = torch.contiguous_format);  permute_22 = None
        permute_23: "f32[2, 2, 17, 32]" = torch.ops.aten.permute.default(clone_9, [1, 2, 0, 3]);  clone_9 = None
        permute_24: "f32[17, 2, 2, 32]" = torch.ops.aten.permute.default(permute_23, [2, 0, 1, 3]);  permute_23 = None
        view_37: "f32[34, 64]" = torch.ops.aten.view.default(permute_24, [34, 64]);  permute_24 = None
        permute_25: "f32[64, 64]" = torch.ops.aten.permute.default(arg21_1, [1, 0]);  arg21_1 = None
        addmm_3: "f32[34, 64]" = torch.ops.aten.addmm.default(arg22_1, view_37, permute_25);  arg22_1 = view_37 = permute_25 = None
        view_38: "f32[17, 2, 64]" = torch.ops.aten.view.default(addmm_3, [17, 2, 64]);  addmm_3 = None
        permute_26: "f32[2, 17, 64]" = torch.ops.aten.permute.default(view_38, [1, 0, 2]);  view_38 = None

        # File: torchvision/models/vision_transformer.py:114 in forward, code: x = self.dropout(x)
        clone_10: "f32[2, 17, 64]" = torch.ops.aten.clone.default(permute_26);  permute_26 = None

        # File: torchvision/models/vision_transformer.py:115 in forward, code: x = x + input
        add_5: "f32[2, 17, 64]" = torch.ops.aten.add.Tensor(clone_10, add_3);  clone_10 = add_3 = None

        # File: torchvision/models/vision_transformer.py:117 in forward, code: y = self.ln_2(x)
        native_layer_norm_3 = torch.ops.aten.native_layer_norm.default(add_5, [64], arg23_1, arg24_1, 1e-06);  arg23_1 = arg24_1 = None
        getitem_9: "f32[2, 17, 64]" = native_layer_norm_3[0];  native_layer_norm_3 = None

        # File: torchvision/models/vision_transformer.py:118 in forward, code: y = self.mlp(y)
        view_39: "f32[34, 64]" = torch.ops.aten.view.default(getitem_9, [34, 64]);  getitem_9 = None
        permute_27: "f32[64, 128]" = torch.ops.aten.permute.default(arg25_1, [1, 0]);  arg25_1 = None
        addmm_4: "f32[34, 128]" = torch.ops.aten.addmm.default(arg26_1, view_39, permute_27);  arg26_1 = view_39 = permute_27 = None
        view_40: "f32[2, 17, 128]" = torch.ops.aten.view.default(addmm_4, [2, 17, 128]);  addmm_4 = None
        gelu_1: "f32[2, 17, 128]" = torch.ops.aten.gelu.default(view_40);  view_40 = None
        clone_11: "f32[2, 17, 128]" = torch.ops.aten.clone.default(gelu_1);  gelu_1 = None
        view_41: "f32[34, 128]" = torch.ops.aten.view.default(clone_11, [34, 128]);  clone_11 = None
        permute_28: "f32[128, 64]" = torch.ops.aten.permute.default(arg27_1, [1, 0]);  arg27_1 = None
        addmm_5: "f32[34, 64]" = torch.ops.aten.addmm.default(arg28_1, view_41, permute_28);  arg28_1 = view_41 = permute_28 = None
        view_42: "f32[2, 17, 64]" = torch.ops.aten.view.default(addmm_5, [2, 17, 64]);  addmm_5 = None
        clone_12: "f32[2, 17, 64]" = torch.ops.aten.clone.default(view_42);  view_42 = None

        # File: torchvision/models/vision_transformer.py:119 in forward, code: return x + y
        add_6: "f32[2, 17, 64]" = torch.ops.aten.add.Tensor(add_5, clone_12);  add_5 = clone_12 = None

        # File: torchvision/models/vision_transformer.py:157 in forward, code: return self.ln(self.layers(self.dropout(input)))
        native_layer_norm_4 = torch.ops.aten.native_layer_norm.default(add_6, [64], arg29_1, arg30_1, 1e-06);  add_6 = arg29_1 = arg30_1 = None
        getitem_12: "f32[2, 17, 64]" = native_layer_norm_4[0];  native_layer_norm_4 = None

        # File: torchvision/models/vision_transformer.py:301 in forward, code: x = x[:, 0]
        select_6: "f32[2, 64]" = torch.ops.aten.select.int(getitem_12, 1, 0);  getitem_12 = None

        # File: torchvision/models/vision_transformer.py:303 in forward, code: x = self.heads(x)
        permute_29: "f32[64, 10]" = torch.ops.aten.permute.default(arg31_1, [1, 0]);  arg31_1 = None
        addmm_6: "f32[2, 10]" = torch.ops.aten.addmm.default(arg32_1, select_6, permute_29);  arg32_1 = select_6 = permute_29 = None
        return (addmm_6,)
