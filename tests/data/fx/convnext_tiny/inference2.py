class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 3, 4, 4]", arg1_1: "f32[16]", arg2_1: "f32[1, 3, 32, 32]", arg3_1: "f32[16]", arg4_1: "f32[16]", arg5_1: "f32[16, 1, 1]", arg6_1: "f32[16, 1, 7, 7]", arg7_1: "f32[16]", arg8_1: "f32[16]", arg9_1: "f32[16]", arg10_1: "f32[64, 16]", arg11_1: "f32[64]", arg12_1: "f32[16, 64]", arg13_1: "f32[16]", arg14_1: "f32[16]", arg15_1: "f32[16]", arg16_1: "f32[32, 16, 2, 2]", arg17_1: "f32[32]", arg18_1: "f32[32, 1, 1]", arg19_1: "f32[32, 1, 7, 7]", arg20_1: "f32[32]", arg21_1: "f32[32]", arg22_1: "f32[32]", arg23_1: "f32[128, 32]", arg24_1: "f32[128]", arg25_1: "f32[32, 128]", arg26_1: "f32[32]", arg27_1: "f32[32]", arg28_1: "f32[32]", arg29_1: "f32[10, 32]", arg30_1: "f32[10]"):
        # File: torchvision/models/convnext.py:171 in _forward_impl, code: x = self.features(x)
        convolution: "f32[1, 16, 8, 8]" = torch.ops.aten.convolution.default(arg2_1, arg0_1, arg1_1, [4, 4], [0, 0], [1, 1], False, [0, 0], 1);  arg2_1 = arg0_1 = arg1_1 = None

        # File: torchvision/models/convnext.py:33 in forward, code: x = x.permute(0, 2, 3, 1)
        permute: "f32[1, 8, 8, 16]" = torch.ops.aten.permute.default(convolution, [0, 2, 3, 1]);  convolution = None

        # File: torchvision/models/convnext.py:34 in forward, code: x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        native_layer_norm = torch.ops.aten.native_layer_norm.default(permute, [16], arg3_1, arg4_1, 1e-06);  permute = arg3_1 = arg4_1 = None
        getitem: "f32[1, 8, 8, 16]" = native_layer_norm[0];  native_layer_norm = None

        # File: torchvision/models/convnext.py:35 in forward, code: x = x.permute(0, 3, 1, 2)
        permute_1: "f32[1, 16, 8, 8]" = torch.ops.aten.permute.default(getitem, [0, 3, 1, 2]);  getitem = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        convolution_1: "f32[1, 16, 8, 8]" = torch.ops.aten.convolution.default(permute_1, arg6_1, arg7_1, [1, 1], [3, 3], [1, 1], False, [0, 0], 16);  arg6_1 = arg7_1 = None

        # File: torchvision/ops/misc.py:321 in forward, code: return torch.permute(x, self.dims)
        permute_2: "f32[1, 8, 8, 16]" = torch.ops.aten.permute.default(convolution_1, [0, 2, 3, 1]);  convolution_1 = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        native_layer_norm_1 = torch.ops.aten.native_layer_norm.default(permute_2, [16], arg8_1, arg9_1, 1e-06);  permute_2 = arg8_1 = arg9_1 = None
        getitem_3: "f32[1, 8, 8, 16]" = native_layer_norm_1[0];  native_layer_norm_1 = None
        view: "f32[64, 16]" = torch.ops.aten.view.default(getitem_3, [64, 16]);  getitem_3 = None
        permute_3: "f32[16, 64]" = torch.ops.aten.permute.default(arg10_1, [1, 0]);  arg10_1 = None
        addmm: "f32[64, 64]" = torch.ops.aten.addmm.default(arg11_1, view, permute_3);  arg11_1 = view = permute_3 = None
        view_1: "f32[1, 8, 8, 64]" = torch.ops.aten.view.default(addmm, [1, 8, 8, 64]);  addmm = None
        gelu: "f32[1, 8, 8, 64]" = torch.ops.aten.gelu.default(view_1);  view_1 = None
        view_2: "f32[64, 64]" = torch.ops.aten.view.default(gelu, [64, 64]);  gelu = None
        permute_4: "f32[64, 16]" = torch.ops.aten.permute.default(arg12_1, [1, 0]);  arg12_1 = None
        addmm_1: "f32[64, 16]" = torch.ops.aten.addmm.default(arg13_1, view_2, permute_4);  arg13_1 = view_2 = permute_4 = None
        view_3: "f32[1, 8, 8, 16]" = torch.ops.aten.view.default(addmm_1, [1, 8, 8, 16]);  addmm_1 = None

        # File: torchvision/ops/misc.py:321 in forward, code: return torch.permute(x, self.dims)
        permute_5: "f32[1, 16, 8, 8]" = torch.ops.aten.permute.default(view_3, [0, 3, 1, 2]);  view_3 = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        mul: "f32[1, 16, 8, 8]" = torch.ops.aten.mul.Tensor(arg5_1, permute_5);  arg5_1 = permute_5 = None

        # File: torchvision/models/convnext.py:66 in forward, code: result += input
        add: "f32[1, 16, 8, 8]" = torch.ops.aten.add.Tensor(mul, permute_1);  mul = permute_1 = None

        # File: torchvision/models/convnext.py:33 in forward, code: x = x.permute(0, 2, 3, 1)
        permute_7: "f32[1, 8, 8, 16]" = torch.ops.aten.permute.default(add, [0, 2, 3, 1]);  add = None

        # File: torchvision/models/convnext.py:34 in forward, code: x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        native_layer_norm_2 = torch.ops.aten.native_layer_norm.default(permute_7, [16], arg14_1, arg15_1, 1e-06);  permute_7 = arg14_1 = arg15_1 = None
        getitem_6: "f32[1, 8, 8, 16]" = native_layer_norm_2[0];  native_layer_norm_2 = None

        # File: torchvision/models/convnext.py:35 in forward, code: x = x.permute(0, 3, 1, 2)
        permute_8: "f32[1, 16, 8, 8]" = torch.ops.aten.permute.default(getitem_6, [0, 3, 1, 2]);  getitem_6 = None

        # File: torchvision/models/convnext.py:171 in _forward_impl, code: x = self.features(x)
        convolution_2: "f32[1, 32, 4, 4]" = torch.ops.aten.convolution.default(permute_8, arg16_1, arg17_1, [2, 2], [0, 0], [1, 1], False, [0, 0], 1);  permute_8 = arg16_1 = arg17_1 = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        convolution_3: "f32[1, 32, 4, 4]" = torch.ops.aten.convolution.default(convolution_2, arg19_1, arg20_1, [1, 1], [3, 3], [1, 1], False, [0, 0], 32);  arg19_1 = arg20_1 = None

        # File: torchvision/ops/misc.py:321 in forward, code: return torch.permute(x, self.dims)
        permute_9: "f32[1, 4, 4, 32]" = torch.ops.aten.permute.default(convolution_3, [0, 2, 3, 1]);  convolution_3 = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        native_layer_norm_3 = torch.ops.aten.native_layer_norm.default(permute_9, [32], arg21_1, arg22_1, 1e-06);  permute_9 = arg21_1 = arg22_1 = None
        getitem_9: "f32[1, 4, 4, 32]" = native_layer_norm_3[0];  native_layer_norm_3 = None
        view_4: "f32[16, 32]" = torch.ops.aten.view.default(getitem_9, [16, 32]);  getitem_9 = None
        permute_10: "f32[32, 128]" = torch.ops.aten.permute.default(arg23_1, [1, 0]);  arg23_1 = None
        addmm_2: "f32[16, 128]" = torch.ops.aten.addmm.default(arg24_1, view_4, permute_10);  arg24_1 = view_4 = permute_10 = None
        view_5: "f32[1, 4, 4, 128]" = torch.ops.aten.view.default(addmm_2, [1, 4, 4, 128]);  addmm_2 = None
        gelu_1: "f32[1, 4, 4, 128]" = torch.ops.aten.gelu.default(view_5);  view_5 = None
        view_6: "f32[16, 128]" = torch.ops.aten.view.default(gelu_1, [16, 128]);  gelu_1 = None
        permute_11: "f32[128, 32]" = torch.ops.aten.permute.default(arg25_1, [1, 0]);  arg25_1 = None
        addmm_3: "f32[16, 32]" = torch.ops.aten.addmm.default(arg26_1, view_6, permute_11);  arg26_1 = view_6 = permute_11 = None
        view_7: "f32[1, 4, 4, 32]" = torch.ops.aten.view.default(addmm_3, [1, 4, 4, 32]);  addmm_3 = None

        # File: torchvision/ops/misc.py:321 in forward, code: return torch.permute(x, self.dims)
        permute_12: "f32[1, 32, 4, 4]" = torch.ops.aten.permute.default(view_7, [0, 3, 1, 2]);  view_7 = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        mul_1: "f32[1, 32, 4, 4]" = torch.ops.aten.mul.Tensor(arg18_1, permute_12);  arg18_1 = permute_12 = None

        # File: torchvision/models/convnext.py:66 in forward, code: result += input
        add_1: "f32[1, 32, 4, 4]" = torch.ops.aten.add.Tensor(mul_1, convolution_2);  mul_1 = convolution_2 = None

        # File: torchvision/models/convnext.py:172 in _forward_impl, code: x = self.avgpool(x)
        mean: "f32[1, 32, 1, 1]" = torch.ops.aten.mean.dim(add_1, [-1, -2], True);  add_1 = None
        as_strided: "f32[1, 32, 1, 1]" = torch.ops.aten.as_strided.default(mean, [1, 32, 1, 1], [32, 1, 32, 32]);  mean = None

        # File: torchvision/models/convnext.py:33 in forward, code: x = x.permute(0, 2, 3, 1)
        permute_13: "f32[1, 1, 1, 32]" = torch.ops.aten.permute.default(as_strided, [0, 2, 3, 1]);  as_strided = None

        # File: torchvision/models/convnext.py:34 in forward, code: x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        native_layer_norm_4 = torch.ops.aten.native_layer_norm.default(permute_13, [32], arg27_1, arg28_1, 1e-06);  permute_13 = arg27_1 = arg28_1 = None
        getitem_12: "f32[1, 1, 1, 32]" = native_layer_norm_4[0];  native_layer_norm_4 = None

        # File: torchvision/models/convnext.py:35 in forward, code: x = x.permute(0, 3, 1, 2)
        permute_14: "f32[1, 32, 1, 1]" = torch.ops.aten.permute.default(getitem_12, [0, 3, 1, 2]);  getitem_12 = None

        # File: torchvision/models/convnext.py:173 in _forward_impl, code: x = self.classifier(x)
        view_8: "f32[1, 32]" = torch.ops.aten.view.default(permute_14, [1, 32]);  permute_14 = None
        permute_15: "f32[32, 10]" = torch.ops.aten.permute.default(arg29_1, [1, 0]);  arg29_1 = None
        addmm_4: "f32[1, 10]" = torch.ops.aten.addmm.default(arg30_1, view_8, permute_15);  arg30_1 = view_8 = permute_15 = None
        return (addmm_4,)
