class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 3, 7, 7]", arg1_1: "f32[1, 3, 32, 32]", arg2_1: "f32[16]", arg3_1: "f32[16]", arg4_1: "f32[16]", arg5_1: "f32[16]", arg6_1: "f32[16]", arg7_1: "f32[16]", arg8_1: "f32[16]", arg9_1: "f32[16]", arg10_1: "f32[16, 16, 1, 1]", arg11_1: "f32[16]", arg12_1: "f32[16]", arg13_1: "f32[16]", arg14_1: "f32[16]", arg15_1: "f32[8, 16, 3, 3]", arg16_1: "f32[24]", arg17_1: "f32[24]", arg18_1: "f32[24]", arg19_1: "f32[24]", arg20_1: "f32[16, 24, 1, 1]", arg21_1: "f32[16]", arg22_1: "f32[16]", arg23_1: "f32[16]", arg24_1: "f32[16]", arg25_1: "f32[8, 16, 3, 3]", arg26_1: "f32[32]", arg27_1: "f32[32]", arg28_1: "f32[32]", arg29_1: "f32[32]", arg30_1: "f32[16, 32, 1, 1]", arg31_1: "f32[16]", arg32_1: "f32[16]", arg33_1: "f32[16]", arg34_1: "f32[16]", arg35_1: "f32[16, 16, 1, 1]", arg36_1: "f32[16]", arg37_1: "f32[16]", arg38_1: "f32[16]", arg39_1: "f32[16]", arg40_1: "f32[8, 16, 3, 3]", arg41_1: "f32[24]", arg42_1: "f32[24]", arg43_1: "f32[24]", arg44_1: "f32[24]", arg45_1: "f32[16, 24, 1, 1]", arg46_1: "f32[16]", arg47_1: "f32[16]", arg48_1: "f32[16]", arg49_1: "f32[16]", arg50_1: "f32[8, 16, 3, 3]", arg51_1: "f32[32]", arg52_1: "f32[32]", arg53_1: "f32[32]", arg54_1: "f32[32]", arg55_1: "f32[10, 32]", arg56_1: "f32[10]"):
        # File: torchvision/models/densenet.py:213 in forward, code: features = self.features(x)
        convolution: "f32[1, 16, 16, 16]" = torch.ops.aten.convolution.default(arg1_1, arg0_1, None, [2, 2], [3, 3], [1, 1], False, [0, 0], 1);  arg1_1 = arg0_1 = None
        _native_batch_norm_legit_no_training = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution, arg4_1, arg5_1, arg2_1, arg3_1, 0.1, 1e-05);  convolution = arg4_1 = arg5_1 = arg2_1 = arg3_1 = None
        getitem: "f32[1, 16, 16, 16]" = _native_batch_norm_legit_no_training[0];  _native_batch_norm_legit_no_training = None
        relu: "f32[1, 16, 16, 16]" = torch.ops.aten.relu.default(getitem);  getitem = None
        max_pool2d_with_indices = torch.ops.aten.max_pool2d_with_indices.default(relu, [3, 3], [2, 2], [1, 1]);  relu = None
        getitem_3: "f32[1, 16, 8, 8]" = max_pool2d_with_indices[0];  max_pool2d_with_indices = None

        # File: torchvision/models/densenet.py:48 in bn_function, code: concated_features = torch.cat(inputs, 1)
        cat: "f32[1, 16, 8, 8]" = torch.ops.aten.cat.default([getitem_3], 1)

        # File: torchvision/models/densenet.py:49 in bn_function, code: bottleneck_output = self.conv1(self.relu1(self.norm1(concated_features)))  # noqa: T484
        _native_batch_norm_legit_no_training_1 = torch.ops.aten._native_batch_norm_legit_no_training.default(cat, arg8_1, arg9_1, arg6_1, arg7_1, 0.1, 1e-05);  cat = arg8_1 = arg9_1 = arg6_1 = arg7_1 = None
        getitem_5: "f32[1, 16, 8, 8]" = _native_batch_norm_legit_no_training_1[0];  _native_batch_norm_legit_no_training_1 = None
        relu_1: "f32[1, 16, 8, 8]" = torch.ops.aten.relu.default(getitem_5);  getitem_5 = None
        convolution_1: "f32[1, 16, 8, 8]" = torch.ops.aten.convolution.default(relu_1, arg10_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  relu_1 = arg10_1 = None

        # File: torchvision/models/densenet.py:90 in forward, code: new_features = self.conv2(self.relu2(self.norm2(bottleneck_output)))
        _native_batch_norm_legit_no_training_2 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_1, arg13_1, arg14_1, arg11_1, arg12_1, 0.1, 1e-05);  convolution_1 = arg13_1 = arg14_1 = arg11_1 = arg12_1 = None
        getitem_8: "f32[1, 16, 8, 8]" = _native_batch_norm_legit_no_training_2[0];  _native_batch_norm_legit_no_training_2 = None
        relu_2: "f32[1, 16, 8, 8]" = torch.ops.aten.relu.default(getitem_8);  getitem_8 = None
        convolution_2: "f32[1, 8, 8, 8]" = torch.ops.aten.convolution.default(relu_2, arg15_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu_2 = arg15_1 = None

        # File: torchvision/models/densenet.py:48 in bn_function, code: concated_features = torch.cat(inputs, 1)
        cat_1: "f32[1, 24, 8, 8]" = torch.ops.aten.cat.default([getitem_3, convolution_2], 1)

        # File: torchvision/models/densenet.py:49 in bn_function, code: bottleneck_output = self.conv1(self.relu1(self.norm1(concated_features)))  # noqa: T484
        _native_batch_norm_legit_no_training_3 = torch.ops.aten._native_batch_norm_legit_no_training.default(cat_1, arg18_1, arg19_1, arg16_1, arg17_1, 0.1, 1e-05);  cat_1 = arg18_1 = arg19_1 = arg16_1 = arg17_1 = None
        getitem_11: "f32[1, 24, 8, 8]" = _native_batch_norm_legit_no_training_3[0];  _native_batch_norm_legit_no_training_3 = None
        relu_3: "f32[1, 24, 8, 8]" = torch.ops.aten.relu.default(getitem_11);  getitem_11 = None
        convolution_3: "f32[1, 16, 8, 8]" = torch.ops.aten.convolution.default(relu_3, arg20_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  relu_3 = arg20_1 = None

        # File: torchvision/models/densenet.py:90 in forward, code: new_features = self.conv2(self.relu2(self.norm2(bottleneck_output)))
        _native_batch_norm_legit_no_training_4 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_3, arg23_1, arg24_1, arg21_1, arg22_1, 0.1, 1e-05);  convolution_3 = arg23_1 = arg24_1 = arg21_1 = arg22_1 = None
        getitem_14: "f32[1, 16, 8, 8]" = _native_batch_norm_legit_no_training_4[0];  _native_batch_norm_legit_no_training_4 = None
        relu_4: "f32[1, 16, 8, 8]" = torch.ops.aten.relu.default(getitem_14);  getitem_14 = None
        convolution_4: "f32[1, 8, 8, 8]" = torch.ops.aten.convolution.default(relu_4, arg25_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu_4 = arg25_1 = None

        # File: torchvision/models/densenet.py:124 in forward, code: return torch.cat(features, 1)
        cat_2: "f32[1, 32, 8, 8]" = torch.ops.aten.cat.default([getitem_3, convolution_2, convolution_4], 1);  getitem_3 = convolution_2 = convolution_4 = None

        # File: torchvision/models/densenet.py:213 in forward, code: features = self.features(x)
        _native_batch_norm_legit_no_training_5 = torch.ops.aten._native_batch_norm_legit_no_training.default(cat_2, arg28_1, arg29_1, arg26_1, arg27_1, 0.1, 1e-05);  cat_2 = arg28_1 = arg29_1 = arg26_1 = arg27_1 = None
        getitem_17: "f32[1, 32, 8, 8]" = _native_batch_norm_legit_no_training_5[0];  _native_batch_norm_legit_no_training_5 = None
        relu_5: "f32[1, 32, 8, 8]" = torch.ops.aten.relu.default(getitem_17);  getitem_17 = None
        convolution_5: "f32[1, 16, 8, 8]" = torch.ops.aten.convolution.default(relu_5, arg30_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  relu_5 = arg30_1 = None
        avg_pool2d: "f32[1, 16, 4, 4]" = torch.ops.aten.avg_pool2d.default(convolution_5, [2, 2], [2, 2]);  convolution_5 = None

        # File: torchvision/models/densenet.py:48 in bn_function, code: concated_features = torch.cat(inputs, 1)
        cat_3: "f32[1, 16, 4, 4]" = torch.ops.aten.cat.default([avg_pool2d], 1)

        # File: torchvision/models/densenet.py:49 in bn_function, code: bottleneck_output = self.conv1(self.relu1(self.norm1(concated_features)))  # noqa: T484
        _native_batch_norm_legit_no_training_6 = torch.ops.aten._native_batch_norm_legit_no_training.default(cat_3, arg33_1, arg34_1, arg31_1, arg32_1, 0.1, 1e-05);  cat_3 = arg33_1 = arg34_1 = arg31_1 = arg32_1 = None
        getitem_20: "f32[1, 16, 4, 4]" = _native_batch_norm_legit_no_training_6[0];  _native_batch_norm_legit_no_training_6 = None
        relu_6: "f32[1, 16, 4, 4]" = torch.ops.aten.relu.default(getitem_20);  getitem_20 = None
        convolution_6: "f32[1, 16, 4, 4]" = torch.ops.aten.convolution.default(relu_6, arg35_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  relu_6 = arg35_1 = None

        # File: torchvision/models/densenet.py:90 in forward, code: new_features = self.conv2(self.relu2(self.norm2(bottleneck_output)))
        _native_batch_norm_legit_no_training_7 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_6, arg38_1, arg39_1, arg36_1, arg37_1, 0.1, 1e-05);  convolution_6 = arg38_1 = arg39_1 = arg36_1 = arg37_1 = None
        getitem_23: "f32[1, 16, 4, 4]" = _native_batch_norm_legit_no_training_7[0];  _native_batch_norm_legit_no_training_7 = None
        relu_7: "f32[1, 16, 4, 4]" = torch.ops.aten.relu.default(getitem_23);  getitem_23 = None
        convolution_7: "f32[1, 8, 4, 4]" = torch.ops.aten.convolution.default(relu_7, arg40_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu_7 = arg40_1 = None

        # File: torchvision/models/densenet.py:48 in bn_function, code: concated_features = torch.cat(inputs, 1)
        cat_4: "f32[1, 24, 4, 4]" = torch.ops.aten.cat.default([avg_pool2d, convolution_7], 1)

        # File: torchvision/models/densenet.py:49 in bn_function, code: bottleneck_output = self.conv1(self.relu1(self.norm1(concated_features)))  # noqa: T484
        _native_batch_norm_legit_no_training_8 = torch.ops.aten._native_batch_norm_legit_no_training.default(cat_4, arg43_1, arg44_1, arg41_1, arg42_1, 0.1, 1e-05);  cat_4 = arg43_1 = arg44_1 = arg41_1 = arg42_1 = None
        getitem_26: "f32[1, 24, 4, 4]" = _native_batch_norm_legit_no_training_8[0];  _native_batch_norm_legit_no_training_8 = None
        relu_8: "f32[1, 24, 4, 4]" = torch.ops.aten.relu.default(getitem_26);  getitem_26 = None
        convolution_8: "f32[1, 16, 4, 4]" = torch.ops.aten.convolution.default(relu_8, arg45_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  relu_8 = arg45_1 = None

        # File: torchvision/models/densenet.py:90 in forward, code: new_features = self.conv2(self.relu2(self.norm2(bottleneck_output)))
        _native_batch_norm_legit_no_training_9 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_8, arg48_1, arg49_1, arg46_1, arg47_1, 0.1, 1e-05);  convolution_8 = arg48_1 = arg49_1 = arg46_1 = arg47_1 = None
        getitem_29: "f32[1, 16, 4, 4]" = _native_batch_norm_legit_no_training_9[0];  _native_batch_norm_legit_no_training_9 = None
        relu_9: "f32[1, 16, 4, 4]" = torch.ops.aten.relu.default(getitem_29);  getitem_29 = None
        convolution_9: "f32[1, 8, 4, 4]" = torch.ops.aten.convolution.default(relu_9, arg50_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1);  relu_9 = arg50_1 = None

        # File: torchvision/models/densenet.py:124 in forward, code: return torch.cat(features, 1)
        cat_5: "f32[1, 32, 4, 4]" = torch.ops.aten.cat.default([avg_pool2d, convolution_7, convolution_9], 1);  avg_pool2d = convolution_7 = convolution_9 = None

        # File: torchvision/models/densenet.py:213 in forward, code: features = self.features(x)
        _native_batch_norm_legit_no_training_10 = torch.ops.aten._native_batch_norm_legit_no_training.default(cat_5, arg53_1, arg54_1, arg51_1, arg52_1, 0.1, 1e-05);  cat_5 = arg53_1 = arg54_1 = arg51_1 = arg52_1 = None
        getitem_32: "f32[1, 32, 4, 4]" = _native_batch_norm_legit_no_training_10[0];  _native_batch_norm_legit_no_training_10 = None

        # File: torchvision/models/densenet.py:214 in forward, code: out = F.relu(features, inplace=True)
        relu_10: "f32[1, 32, 4, 4]" = torch.ops.aten.relu.default(getitem_32);  getitem_32 = None

        # File: torchvision/models/densenet.py:215 in forward, code: out = F.adaptive_avg_pool2d(out, (1, 1))
        mean: "f32[1, 32, 1, 1]" = torch.ops.aten.mean.dim(relu_10, [-1, -2], True);  relu_10 = None

        # File: torchvision/models/densenet.py:216 in forward, code: out = torch.flatten(out, 1)
        view: "f32[1, 32]" = torch.ops.aten.view.default(mean, [1, 32]);  mean = None

        # File: torchvision/models/densenet.py:217 in forward, code: out = self.classifier(out)
        permute: "f32[32, 10]" = torch.ops.aten.permute.default(arg55_1, [1, 0]);  arg55_1 = None
        addmm: "f32[1, 10]" = torch.ops.aten.addmm.default(arg56_1, view, permute);  arg56_1 = view = permute = None
        return (addmm,)
