class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 3, 3, 3]", arg1_1: "f32[1, 3, 64, 64]", arg2_1: "f32[8]", arg3_1: "f32[8]", arg4_1: "f32[8]", arg5_1: "f32[8]", arg6_1: "f32[8, 1, 3, 3]", arg7_1: "f32[8]", arg8_1: "f32[8]", arg9_1: "f32[8]", arg10_1: "f32[8]", arg11_1: "f32[2, 8, 1, 1]", arg12_1: "f32[2]", arg13_1: "f32[8, 2, 1, 1]", arg14_1: "f32[8]", arg15_1: "f32[8, 8, 1, 1]", arg16_1: "f32[8]", arg17_1: "f32[8]", arg18_1: "f32[8]", arg19_1: "f32[8]", arg20_1: "f32[48, 8, 1, 1]", arg21_1: "f32[48]", arg22_1: "f32[48]", arg23_1: "f32[48]", arg24_1: "f32[48]", arg25_1: "f32[48, 1, 3, 3]", arg26_1: "f32[48]", arg27_1: "f32[48]", arg28_1: "f32[48]", arg29_1: "f32[48]", arg30_1: "f32[2, 48, 1, 1]", arg31_1: "f32[2]", arg32_1: "f32[48, 2, 1, 1]", arg33_1: "f32[48]", arg34_1: "f32[8, 48, 1, 1]", arg35_1: "f32[8]", arg36_1: "f32[8]", arg37_1: "f32[8]", arg38_1: "f32[8]", arg39_1: "f32[48, 8, 1, 1]", arg40_1: "f32[48]", arg41_1: "f32[48]", arg42_1: "f32[48]", arg43_1: "f32[48]", arg44_1: "f32[48, 1, 5, 5]", arg45_1: "f32[48]", arg46_1: "f32[48]", arg47_1: "f32[48]", arg48_1: "f32[48]", arg49_1: "f32[2, 48, 1, 1]", arg50_1: "f32[2]", arg51_1: "f32[48, 2, 1, 1]", arg52_1: "f32[48]", arg53_1: "f32[16, 48, 1, 1]", arg54_1: "f32[16]", arg55_1: "f32[16]", arg56_1: "f32[16]", arg57_1: "f32[16]", arg58_1: "f32[96, 16, 1, 1]", arg59_1: "f32[96]", arg60_1: "f32[96]", arg61_1: "f32[96]", arg62_1: "f32[96]", arg63_1: "f32[96, 1, 3, 3]", arg64_1: "f32[96]", arg65_1: "f32[96]", arg66_1: "f32[96]", arg67_1: "f32[96]", arg68_1: "f32[4, 96, 1, 1]", arg69_1: "f32[4]", arg70_1: "f32[96, 4, 1, 1]", arg71_1: "f32[96]", arg72_1: "f32[24, 96, 1, 1]", arg73_1: "f32[24]", arg74_1: "f32[24]", arg75_1: "f32[24]", arg76_1: "f32[24]", arg77_1: "f32[144, 24, 1, 1]", arg78_1: "f32[144]", arg79_1: "f32[144]", arg80_1: "f32[144]", arg81_1: "f32[144]", arg82_1: "f32[144, 1, 5, 5]", arg83_1: "f32[144]", arg84_1: "f32[144]", arg85_1: "f32[144]", arg86_1: "f32[144]", arg87_1: "f32[6, 144, 1, 1]", arg88_1: "f32[6]", arg89_1: "f32[144, 6, 1, 1]", arg90_1: "f32[144]", arg91_1: "f32[32, 144, 1, 1]", arg92_1: "f32[32]", arg93_1: "f32[32]", arg94_1: "f32[32]", arg95_1: "f32[32]", arg96_1: "f32[192, 32, 1, 1]", arg97_1: "f32[192]", arg98_1: "f32[192]", arg99_1: "f32[192]", arg100_1: "f32[192]", arg101_1: "f32[192, 1, 5, 5]", arg102_1: "f32[192]", arg103_1: "f32[192]", arg104_1: "f32[192]", arg105_1: "f32[192]", arg106_1: "f32[8, 192, 1, 1]", arg107_1: "f32[8]", arg108_1: "f32[192, 8, 1, 1]", arg109_1: "f32[192]", arg110_1: "f32[48, 192, 1, 1]", arg111_1: "f32[48]", arg112_1: "f32[48]", arg113_1: "f32[48]", arg114_1: "f32[48]", arg115_1: "f32[288, 48, 1, 1]", arg116_1: "f32[288]", arg117_1: "f32[288]", arg118_1: "f32[288]", arg119_1: "f32[288]", arg120_1: "f32[288, 1, 3, 3]", arg121_1: "f32[288]", arg122_1: "f32[288]", arg123_1: "f32[288]", arg124_1: "f32[288]", arg125_1: "f32[12, 288, 1, 1]", arg126_1: "f32[12]", arg127_1: "f32[288, 12, 1, 1]", arg128_1: "f32[288]", arg129_1: "f32[80, 288, 1, 1]", arg130_1: "f32[80]", arg131_1: "f32[80]", arg132_1: "f32[80]", arg133_1: "f32[80]", arg134_1: "f32[128, 80, 1, 1]", arg135_1: "f32[128]", arg136_1: "f32[128]", arg137_1: "f32[128]", arg138_1: "f32[128]", arg139_1: "f32[10, 128]", arg140_1: "f32[10]"):
        # File: torchvision/models/efficientnet.py:334 in _forward_impl, code: x = self.features(x)
        convolution: "f32[1, 8, 32, 32]" = torch.ops.aten.convolution.default(arg1_1, arg0_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1);  arg1_1 = arg0_1 = None
        _native_batch_norm_legit_no_training = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution, arg4_1, arg5_1, arg2_1, arg3_1, 0.1, 1e-05);  convolution = arg4_1 = arg5_1 = arg2_1 = arg3_1 = None
        getitem: "f32[1, 8, 32, 32]" = _native_batch_norm_legit_no_training[0];  _native_batch_norm_legit_no_training = None
        sigmoid: "f32[1, 8, 32, 32]" = torch.ops.aten.sigmoid.default(getitem)
        mul: "f32[1, 8, 32, 32]" = torch.ops.aten.mul.Tensor(getitem, sigmoid);  getitem = sigmoid = None

        # File: torchvision/models/efficientnet.py:165 in forward, code: result = self.block(input)
        convolution_1: "f32[1, 8, 32, 32]" = torch.ops.aten.convolution.default(mul, arg6_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 8);  arg6_1 = None
        _native_batch_norm_legit_no_training_1 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_1, arg9_1, arg10_1, arg7_1, arg8_1, 0.1, 1e-05);  convolution_1 = arg9_1 = arg10_1 = arg7_1 = arg8_1 = None
        getitem_3: "f32[1, 8, 32, 32]" = _native_batch_norm_legit_no_training_1[0];  _native_batch_norm_legit_no_training_1 = None
        sigmoid_1: "f32[1, 8, 32, 32]" = torch.ops.aten.sigmoid.default(getitem_3)
        mul_1: "f32[1, 8, 32, 32]" = torch.ops.aten.mul.Tensor(getitem_3, sigmoid_1);  getitem_3 = sigmoid_1 = None

        # File: torchvision/ops/misc.py:253 in _scale, code: scale = self.avgpool(input)
        mean: "f32[1, 8, 1, 1]" = torch.ops.aten.mean.dim(mul_1, [-1, -2], True)

        # File: torchvision/ops/misc.py:254 in _scale, code: scale = self.fc1(scale)
        convolution_2: "f32[1, 2, 1, 1]" = torch.ops.aten.convolution.default(mean, arg11_1, arg12_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mean = arg11_1 = arg12_1 = None

        # File: torchvision/ops/misc.py:255 in _scale, code: scale = self.activation(scale)
        sigmoid_2: "f32[1, 2, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_2)
        mul_2: "f32[1, 2, 1, 1]" = torch.ops.aten.mul.Tensor(convolution_2, sigmoid_2);  convolution_2 = sigmoid_2 = None

        # File: torchvision/ops/misc.py:256 in _scale, code: scale = self.fc2(scale)
        convolution_3: "f32[1, 8, 1, 1]" = torch.ops.aten.convolution.default(mul_2, arg13_1, arg14_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_2 = arg13_1 = arg14_1 = None

        # File: torchvision/ops/misc.py:257 in _scale, code: return self.scale_activation(scale)
        sigmoid_3: "f32[1, 8, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_3);  convolution_3 = None

        # File: torchvision/ops/misc.py:261 in forward, code: return scale * input
        mul_3: "f32[1, 8, 32, 32]" = torch.ops.aten.mul.Tensor(sigmoid_3, mul_1);  sigmoid_3 = mul_1 = None

        # File: torchvision/models/efficientnet.py:165 in forward, code: result = self.block(input)
        convolution_4: "f32[1, 8, 32, 32]" = torch.ops.aten.convolution.default(mul_3, arg15_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_3 = arg15_1 = None
        _native_batch_norm_legit_no_training_2 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_4, arg18_1, arg19_1, arg16_1, arg17_1, 0.1, 1e-05);  convolution_4 = arg18_1 = arg19_1 = arg16_1 = arg17_1 = None
        getitem_6: "f32[1, 8, 32, 32]" = _native_batch_norm_legit_no_training_2[0];  _native_batch_norm_legit_no_training_2 = None

        # File: torchvision/models/efficientnet.py:168 in forward, code: result += input
        add: "f32[1, 8, 32, 32]" = torch.ops.aten.add.Tensor(getitem_6, mul);  getitem_6 = mul = None

        # File: torchvision/models/efficientnet.py:165 in forward, code: result = self.block(input)
        convolution_5: "f32[1, 48, 32, 32]" = torch.ops.aten.convolution.default(add, arg20_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  add = arg20_1 = None
        _native_batch_norm_legit_no_training_3 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_5, arg23_1, arg24_1, arg21_1, arg22_1, 0.1, 1e-05);  convolution_5 = arg23_1 = arg24_1 = arg21_1 = arg22_1 = None
        getitem_9: "f32[1, 48, 32, 32]" = _native_batch_norm_legit_no_training_3[0];  _native_batch_norm_legit_no_training_3 = None
        sigmoid_4: "f32[1, 48, 32, 32]" = torch.ops.aten.sigmoid.default(getitem_9)
        mul_4: "f32[1, 48, 32, 32]" = torch.ops.aten.mul.Tensor(getitem_9, sigmoid_4);  getitem_9 = sigmoid_4 = None
        convolution_6: "f32[1, 48, 16, 16]" = torch.ops.aten.convolution.default(mul_4, arg25_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 48);  mul_4 = arg25_1 = None
        _native_batch_norm_legit_no_training_4 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_6, arg28_1, arg29_1, arg26_1, arg27_1, 0.1, 1e-05);  convolution_6 = arg28_1 = arg29_1 = arg26_1 = arg27_1 = None
        getitem_12: "f32[1, 48, 16, 16]" = _native_batch_norm_legit_no_training_4[0];  _native_batch_norm_legit_no_training_4 = None
        sigmoid_5: "f32[1, 48, 16, 16]" = torch.ops.aten.sigmoid.default(getitem_12)
        mul_5: "f32[1, 48, 16, 16]" = torch.ops.aten.mul.Tensor(getitem_12, sigmoid_5);  getitem_12 = sigmoid_5 = None

        # File: torchvision/ops/misc.py:253 in _scale, code: scale = self.avgpool(input)
        mean_1: "f32[1, 48, 1, 1]" = torch.ops.aten.mean.dim(mul_5, [-1, -2], True)

        # File: torchvision/ops/misc.py:254 in _scale, code: scale = self.fc1(scale)
        convolution_7: "f32[1, 2, 1, 1]" = torch.ops.aten.convolution.default(mean_1, arg30_1, arg31_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mean_1 = arg30_1 = arg31_1 = None

        # File: torchvision/ops/misc.py:255 in _scale, code: scale = self.activation(scale)
        sigmoid_6: "f32[1, 2, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_7)
        mul_6: "f32[1, 2, 1, 1]" = torch.ops.aten.mul.Tensor(convolution_7, sigmoid_6);  convolution_7 = sigmoid_6 = None

        # File: torchvision/ops/misc.py:256 in _scale, code: scale = self.fc2(scale)
        convolution_8: "f32[1, 48, 1, 1]" = torch.ops.aten.convolution.default(mul_6, arg32_1, arg33_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_6 = arg32_1 = arg33_1 = None

        # File: torchvision/ops/misc.py:257 in _scale, code: return self.scale_activation(scale)
        sigmoid_7: "f32[1, 48, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_8);  convolution_8 = None

        # File: torchvision/ops/misc.py:261 in forward, code: return scale * input
        mul_7: "f32[1, 48, 16, 16]" = torch.ops.aten.mul.Tensor(sigmoid_7, mul_5);  sigmoid_7 = mul_5 = None

        # File: torchvision/models/efficientnet.py:165 in forward, code: result = self.block(input)
        convolution_9: "f32[1, 8, 16, 16]" = torch.ops.aten.convolution.default(mul_7, arg34_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_7 = arg34_1 = None
        _native_batch_norm_legit_no_training_5 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_9, arg37_1, arg38_1, arg35_1, arg36_1, 0.1, 1e-05);  convolution_9 = arg37_1 = arg38_1 = arg35_1 = arg36_1 = None
        getitem_15: "f32[1, 8, 16, 16]" = _native_batch_norm_legit_no_training_5[0];  _native_batch_norm_legit_no_training_5 = None
        convolution_10: "f32[1, 48, 16, 16]" = torch.ops.aten.convolution.default(getitem_15, arg39_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  getitem_15 = arg39_1 = None
        _native_batch_norm_legit_no_training_6 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_10, arg42_1, arg43_1, arg40_1, arg41_1, 0.1, 1e-05);  convolution_10 = arg42_1 = arg43_1 = arg40_1 = arg41_1 = None
        getitem_18: "f32[1, 48, 16, 16]" = _native_batch_norm_legit_no_training_6[0];  _native_batch_norm_legit_no_training_6 = None
        sigmoid_8: "f32[1, 48, 16, 16]" = torch.ops.aten.sigmoid.default(getitem_18)
        mul_8: "f32[1, 48, 16, 16]" = torch.ops.aten.mul.Tensor(getitem_18, sigmoid_8);  getitem_18 = sigmoid_8 = None
        convolution_11: "f32[1, 48, 8, 8]" = torch.ops.aten.convolution.default(mul_8, arg44_1, None, [2, 2], [2, 2], [1, 1], False, [0, 0], 48);  mul_8 = arg44_1 = None
        _native_batch_norm_legit_no_training_7 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_11, arg47_1, arg48_1, arg45_1, arg46_1, 0.1, 1e-05);  convolution_11 = arg47_1 = arg48_1 = arg45_1 = arg46_1 = None
        getitem_21: "f32[1, 48, 8, 8]" = _native_batch_norm_legit_no_training_7[0];  _native_batch_norm_legit_no_training_7 = None
        sigmoid_9: "f32[1, 48, 8, 8]" = torch.ops.aten.sigmoid.default(getitem_21)
        mul_9: "f32[1, 48, 8, 8]" = torch.ops.aten.mul.Tensor(getitem_21, sigmoid_9);  getitem_21 = sigmoid_9 = None

        # File: torchvision/ops/misc.py:253 in _scale, code: scale = self.avgpool(input)
        mean_2: "f32[1, 48, 1, 1]" = torch.ops.aten.mean.dim(mul_9, [-1, -2], True)

        # File: torchvision/ops/misc.py:254 in _scale, code: scale = self.fc1(scale)
        convolution_12: "f32[1, 2, 1, 1]" = torch.ops.aten.convolution.default(mean_2, arg49_1, arg50_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mean_2 = arg49_1 = arg50_1 = None

        # File: torchvision/ops/misc.py:255 in _scale, code: scale = self.activation(scale)
        sigmoid_10: "f32[1, 2, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_12)
        mul_10: "f32[1, 2, 1, 1]" = torch.ops.aten.mul.Tensor(convolution_12, sigmoid_10);  convolution_12 = sigmoid_10 = None

        # File: torchvision/ops/misc.py:256 in _scale, code: scale = self.fc2(scale)
        convolution_13: "f32[1, 48, 1, 1]" = torch.ops.aten.convolution.default(mul_10, arg51_1, arg52_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_10 = arg51_1 = arg52_1 = None

        # File: torchvision/ops/misc.py:257 in _scale, code: return self.scale_activation(scale)
        sigmoid_11: "f32[1, 48, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_13);  convolution_13 = None

        # File: torchvision/ops/misc.py:261 in forward, code: return scale * input
        mul_11: "f32[1, 48, 8, 8]" = torch.ops.aten.mul.Tensor(sigmoid_11, mul_9);  sigmoid_11 = mul_9 = None

        # File: torchvision/models/efficientnet.py:165 in forward, code: result = self.block(input)
        convolution_14: "f32[1, 16, 8, 8]" = torch.ops.aten.convolution.default(mul_11, arg53_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_11 = arg53_1 = None
        _native_batch_norm_legit_no_training_8 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_14, arg56_1, arg57_1, arg54_1, arg55_1, 0.1, 1e-05);  convolution_14 = arg56_1 = arg57_1 = arg54_1 = arg55_1 = None
        getitem_24: "f32[1, 16, 8, 8]" = _native_batch_norm_legit_no_training_8[0];  _native_batch_norm_legit_no_training_8 = None
        convolution_15: "f32[1, 96, 8, 8]" = torch.ops.aten.convolution.default(getitem_24, arg58_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  getitem_24 = arg58_1 = None
        _native_batch_norm_legit_no_training_9 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_15, arg61_1, arg62_1, arg59_1, arg60_1, 0.1, 1e-05);  convolution_15 = arg61_1 = arg62_1 = arg59_1 = arg60_1 = None
        getitem_27: "f32[1, 96, 8, 8]" = _native_batch_norm_legit_no_training_9[0];  _native_batch_norm_legit_no_training_9 = None
        sigmoid_12: "f32[1, 96, 8, 8]" = torch.ops.aten.sigmoid.default(getitem_27)
        mul_12: "f32[1, 96, 8, 8]" = torch.ops.aten.mul.Tensor(getitem_27, sigmoid_12);  getitem_27 = sigmoid_12 = None
        convolution_16: "f32[1, 96, 4, 4]" = torch.ops.aten.convolution.default(mul_12, arg63_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 96);  mul_12 = arg63_1 = None
        _native_batch_norm_legit_no_training_10 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_16, arg66_1, arg67_1, arg64_1, arg65_1, 0.1, 1e-05);  convolution_16 = arg66_1 = arg67_1 = arg64_1 = arg65_1 = None
        getitem_30: "f32[1, 96, 4, 4]" = _native_batch_norm_legit_no_training_10[0];  _native_batch_norm_legit_no_training_10 = None
        sigmoid_13: "f32[1, 96, 4, 4]" = torch.ops.aten.sigmoid.default(getitem_30)
        mul_13: "f32[1, 96, 4, 4]" = torch.ops.aten.mul.Tensor(getitem_30, sigmoid_13);  getitem_30 = sigmoid_13 = None

        # File: torchvision/ops/misc.py:253 in _scale, code: scale = self.avgpool(input)
        mean_3: "f32[1, 96, 1, 1]" = torch.ops.aten.mean.dim(mul_13, [-1, -2], True)

        # File: torchvision/ops/misc.py:254 in _scale, code: scale = self.fc1(scale)
        convolution_17: "f32[1, 4, 1, 1]" = torch.ops.aten.convolution.default(mean_3, arg68_1, arg69_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mean_3 = arg68_1 = arg69_1 = None

        # File: torchvision/ops/misc.py:255 in _scale, code: scale = self.activation(scale)
        sigmoid_14: "f32[1, 4, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_17)
        mul_14: "f32[1, 4, 1, 1]" = torch.ops.aten.mul.Tensor(convolution_17, sigmoid_14);  convolution_17 = sigmoid_14 = None

        # File: torchvision/ops/misc.py:256 in _scale, code: scale = self.fc2(scale)
        convolution_18: "f32[1, 96, 1, 1]" = torch.ops.aten.convolution.default(mul_14, arg70_1, arg71_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_14 = arg70_1 = arg71_1 = None

        # File: torchvision/ops/misc.py:257 in _scale, code: return self.scale_activation(scale)
        sigmoid_15: "f32[1, 96, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_18);  convolution_18 = None

        # File: torchvision/ops/misc.py:261 in forward, code: return scale * input
        mul_15: "f32[1, 96, 4, 4]" = torch.ops.aten.mul.Tensor(sigmoid_15, mul_13);  sigmoid_15 = mul_13 = None

        # File: torchvision/models/efficientnet.py:165 in forward, code: result = self.block(input)
        convolution_19: "f32[1, 24, 4, 4]" = torch.ops.aten.convolution.default(mul_15, arg72_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_15 = arg72_1 = None
        _native_batch_norm_legit_no_training_11 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_19, arg75_1, arg76_1, arg73_1, arg74_1, 0.1, 1e-05);  convolution_19 = arg75_1 = arg76_1 = arg73_1 = arg74_1 = None
        getitem_33: "f32[1, 24, 4, 4]" = _native_batch_norm_legit_no_training_11[0];  _native_batch_norm_legit_no_training_11 = None
        convolution_20: "f32[1, 144, 4, 4]" = torch.ops.aten.convolution.default(getitem_33, arg77_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  getitem_33 = arg77_1 = None
        _native_batch_norm_legit_no_training_12 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_20, arg80_1, arg81_1, arg78_1, arg79_1, 0.1, 1e-05);  convolution_20 = arg80_1 = arg81_1 = arg78_1 = arg79_1 = None
        getitem_36: "f32[1, 144, 4, 4]" = _native_batch_norm_legit_no_training_12[0];  _native_batch_norm_legit_no_training_12 = None
        sigmoid_16: "f32[1, 144, 4, 4]" = torch.ops.aten.sigmoid.default(getitem_36)
        mul_16: "f32[1, 144, 4, 4]" = torch.ops.aten.mul.Tensor(getitem_36, sigmoid_16);  getitem_36 = sigmoid_16 = None
        convolution_21: "f32[1, 144, 4, 4]" = torch.ops.aten.convolution.default(mul_16, arg82_1, None, [1, 1], [2, 2], [1, 1], False, [0, 0], 144);  mul_16 = arg82_1 = None
        _native_batch_norm_legit_no_training_13 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_21, arg85_1, arg86_1, arg83_1, arg84_1, 0.1, 1e-05);  convolution_21 = arg85_1 = arg86_1 = arg83_1 = arg84_1 = None
        getitem_39: "f32[1, 144, 4, 4]" = _native_batch_norm_legit_no_training_13[0];  _native_batch_norm_legit_no_training_13 = None
        sigmoid_17: "f32[1, 144, 4, 4]" = torch.ops.aten.sigmoid.default(getitem_39)
        mul_17: "f32[1, 144, 4, 4]" = torch.ops.aten.mul.Tensor(getitem_39, sigmoid_17);  getitem_39 = sigmoid_17 = None

        # File: torchvision/ops/misc.py:253 in _scale, code: scale = self.avgpool(input)
        mean_4: "f32[1, 144, 1, 1]" = torch.ops.aten.mean.dim(mul_17, [-1, -2], True)

        # File: torchvision/ops/misc.py:254 in _scale, code: scale = self.fc1(scale)
        convolution_22: "f32[1, 6, 1, 1]" = torch.ops.aten.convolution.default(mean_4, arg87_1, arg88_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mean_4 = arg87_1 = arg88_1 = None

        # File: torchvision/ops/misc.py:255 in _scale, code: scale = self.activation(scale)
        sigmoid_18: "f32[1, 6, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_22)
        mul_18: "f32[1, 6, 1, 1]" = torch.ops.aten.mul.Tensor(convolution_22, sigmoid_18);  convolution_22 = sigmoid_18 = None

        # File: torchvision/ops/misc.py:256 in _scale, code: scale = self.fc2(scale)
        convolution_23: "f32[1, 144, 1, 1]" = torch.ops.aten.convolution.default(mul_18, arg89_1, arg90_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_18 = arg89_1 = arg90_1 = None

        # File: torchvision/ops/misc.py:257 in _scale, code: return self.scale_activation(scale)
        sigmoid_19: "f32[1, 144, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_23);  convolution_23 = None

        # File: torchvision/ops/misc.py:261 in forward, code: return scale * input
        mul_19: "f32[1, 144, 4, 4]" = torch.ops.aten.mul.Tensor(sigmoid_19, mul_17);  sigmoid_19 = mul_17 = None

        # File: torchvision/models/efficientnet.py:165 in forward, code: result = self.block(input)
        convolution_24: "f32[1, 32, 4, 4]" = torch.ops.aten.convolution.default(mul_19, arg91_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_19 = arg91_1 = None
        _native_batch_norm_legit_no_training_14 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_24, arg94_1, arg95_1, arg92_1, arg93_1, 0.1, 1e-05);  convolution_24 = arg94_1 = arg95_1 = arg92_1 = arg93_1 = None
        getitem_42: "f32[1, 32, 4, 4]" = _native_batch_norm_legit_no_training_14[0];  _native_batch_norm_legit_no_training_14 = None
        convolution_25: "f32[1, 192, 4, 4]" = torch.ops.aten.convolution.default(getitem_42, arg96_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  getitem_42 = arg96_1 = None
        _native_batch_norm_legit_no_training_15 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_25, arg99_1, arg100_1, arg97_1, arg98_1, 0.1, 1e-05);  convolution_25 = arg99_1 = arg100_1 = arg97_1 = arg98_1 = None
        getitem_45: "f32[1, 192, 4, 4]" = _native_batch_norm_legit_no_training_15[0];  _native_batch_norm_legit_no_training_15 = None
        sigmoid_20: "f32[1, 192, 4, 4]" = torch.ops.aten.sigmoid.default(getitem_45)
        mul_20: "f32[1, 192, 4, 4]" = torch.ops.aten.mul.Tensor(getitem_45, sigmoid_20);  getitem_45 = sigmoid_20 = None
        convolution_26: "f32[1, 192, 2, 2]" = torch.ops.aten.convolution.default(mul_20, arg101_1, None, [2, 2], [2, 2], [1, 1], False, [0, 0], 192);  mul_20 = arg101_1 = None
        _native_batch_norm_legit_no_training_16 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_26, arg104_1, arg105_1, arg102_1, arg103_1, 0.1, 1e-05);  convolution_26 = arg104_1 = arg105_1 = arg102_1 = arg103_1 = None
        getitem_48: "f32[1, 192, 2, 2]" = _native_batch_norm_legit_no_training_16[0];  _native_batch_norm_legit_no_training_16 = None
        sigmoid_21: "f32[1, 192, 2, 2]" = torch.ops.aten.sigmoid.default(getitem_48)
        mul_21: "f32[1, 192, 2, 2]" = torch.ops.aten.mul.Tensor(getitem_48, sigmoid_21);  getitem_48 = sigmoid_21 = None

        # File: torchvision/ops/misc.py:253 in _scale, code: scale = self.avgpool(input)
        mean_5: "f32[1, 192, 1, 1]" = torch.ops.aten.mean.dim(mul_21, [-1, -2], True)

        # File: torchvision/ops/misc.py:254 in _scale, code: scale = self.fc1(scale)
        convolution_27: "f32[1, 8, 1, 1]" = torch.ops.aten.convolution.default(mean_5, arg106_1, arg107_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mean_5 = arg106_1 = arg107_1 = None

        # File: torchvision/ops/misc.py:255 in _scale, code: scale = self.activation(scale)
        sigmoid_22: "f32[1, 8, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_27)
        mul_22: "f32[1, 8, 1, 1]" = torch.ops.aten.mul.Tensor(convolution_27, sigmoid_22);  convolution_27 = sigmoid_22 = None

        # File: torchvision/ops/misc.py:256 in _scale, code: scale = self.fc2(scale)
        convolution_28: "f32[1, 192, 1, 1]" = torch.ops.aten.convolution.default(mul_22, arg108_1, arg109_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_22 = arg108_1 = arg109_1 = None

        # File: torchvision/ops/misc.py:257 in _scale, code: return self.scale_activation(scale)
        sigmoid_23: "f32[1, 192, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_28);  convolution_28 = None

        # File: torchvision/ops/misc.py:261 in forward, code: return scale * input
        mul_23: "f32[1, 192, 2, 2]" = torch.ops.aten.mul.Tensor(sigmoid_23, mul_21);  sigmoid_23 = mul_21 = None

        # File: torchvision/models/efficientnet.py:165 in forward, code: result = self.block(input)
        convolution_29: "f32[1, 48, 2, 2]" = torch.ops.aten.convolution.default(mul_23, arg110_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_23 = arg110_1 = None
        _native_batch_norm_legit_no_training_17 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_29, arg113_1, arg114_1, arg111_1, arg112_1, 0.1, 1e-05);  convolution_29 = arg113_1 = arg114_1 = arg111_1 = arg112_1 = None
        getitem_51: "f32[1, 48, 2, 2]" = _native_batch_norm_legit_no_training_17[0];  _native_batch_norm_legit_no_training_17 = None
        convolution_30: "f32[1, 288, 2, 2]" = torch.ops.aten.convolution.default(getitem_51, arg115_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  getitem_51 = arg115_1 = None
        _native_batch_norm_legit_no_training_18 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_30, arg118_1, arg119_1, arg116_1, arg117_1, 0.1, 1e-05);  convolution_30 = arg118_1 = arg119_1 = arg116_1 = arg117_1 = None
        getitem_54: "f32[1, 288, 2, 2]" = _native_batch_norm_legit_no_training_18[0];  _native_batch_norm_legit_no_training_18 = None
        sigmoid_24: "f32[1, 288, 2, 2]" = torch.ops.aten.sigmoid.default(getitem_54)
        mul_24: "f32[1, 288, 2, 2]" = torch.ops.aten.mul.Tensor(getitem_54, sigmoid_24);  getitem_54 = sigmoid_24 = None
        convolution_31: "f32[1, 288, 2, 2]" = torch.ops.aten.convolution.default(mul_24, arg120_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 288);  mul_24 = arg120_1 = None
        _native_batch_norm_legit_no_training_19 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_31, arg123_1, arg124_1, arg121_1, arg122_1, 0.1, 1e-05);  convolution_31 = arg123_1 = arg124_1 = arg121_1 = arg122_1 = None
        getitem_57: "f32[1, 288, 2, 2]" = _native_batch_norm_legit_no_training_19[0];  _native_batch_norm_legit_no_training_19 = None
        sigmoid_25: "f32[1, 288, 2, 2]" = torch.ops.aten.sigmoid.default(getitem_57)
        mul_25: "f32[1, 288, 2, 2]" = torch.ops.aten.mul.Tensor(getitem_57, sigmoid_25);  getitem_57 = sigmoid_25 = None

        # File: torchvision/ops/misc.py:253 in _scale, code: scale = self.avgpool(input)
        mean_6: "f32[1, 288, 1, 1]" = torch.ops.aten.mean.dim(mul_25, [-1, -2], True)

        # File: torchvision/ops/misc.py:254 in _scale, code: scale = self.fc1(scale)
        convolution_32: "f32[1, 12, 1, 1]" = torch.ops.aten.convolution.default(mean_6, arg125_1, arg126_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mean_6 = arg125_1 = arg126_1 = None

        # File: torchvision/ops/misc.py:255 in _scale, code: scale = self.activation(scale)
        sigmoid_26: "f32[1, 12, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_32)
        mul_26: "f32[1, 12, 1, 1]" = torch.ops.aten.mul.Tensor(convolution_32, sigmoid_26);  convolution_32 = sigmoid_26 = None

        # File: torchvision/ops/misc.py:256 in _scale, code: scale = self.fc2(scale)
        convolution_33: "f32[1, 288, 1, 1]" = torch.ops.aten.convolution.default(mul_26, arg127_1, arg128_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_26 = arg127_1 = arg128_1 = None

        # File: torchvision/ops/misc.py:257 in _scale, code: return self.scale_activation(scale)
        sigmoid_27: "f32[1, 288, 1, 1]" = torch.ops.aten.sigmoid.default(convolution_33);  convolution_33 = None

        # File: torchvision/ops/misc.py:261 in forward, code: return scale * input
        mul_27: "f32[1, 288, 2, 2]" = torch.ops.aten.mul.Tensor(sigmoid_27, mul_25);  sigmoid_27 = mul_25 = None

        # File: torchvision/models/efficientnet.py:165 in forward, code: result = self.block(input)
        convolution_34: "f32[1, 80, 2, 2]" = torch.ops.aten.convolution.default(mul_27, arg129_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  mul_27 = arg129_1 = None
        _native_batch_norm_legit_no_training_20 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_34, arg132_1, arg133_1, arg130_1, arg131_1, 0.1, 1e-05);  convolution_34 = arg132_1 = arg133_1 = arg130_1 = arg131_1 = None
        getitem_60: "f32[1, 80, 2, 2]" = _native_batch_norm_legit_no_training_20[0];  _native_batch_norm_legit_no_training_20 = None

        # File: torchvision/models/efficientnet.py:334 in _forward_impl, code: x = self.features(x)
        convolution_35: "f32[1, 128, 2, 2]" = torch.ops.aten.convolution.default(getitem_60, arg134_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  getitem_60 = arg134_1 = None
        _native_batch_norm_legit_no_training_21 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_35, arg137_1, arg138_1, arg135_1, arg136_1, 0.1, 1e-05);  convolution_35 = arg137_1 = arg138_1 = arg135_1 = arg136_1 = None
        getitem_63: "f32[1, 128, 2, 2]" = _native_batch_norm_legit_no_training_21[0];  _native_batch_norm_legit_no_training_21 = None
        sigmoid_28: "f32[1, 128, 2, 2]" = torch.ops.aten.sigmoid.default(getitem_63)
        mul_28: "f32[1, 128, 2, 2]" = torch.ops.aten.mul.Tensor(getitem_63, sigmoid_28);  getitem_63 = sigmoid_28 = None

        # File: torchvision/models/efficientnet.py:336 in _forward_impl, code: x = self.avgpool(x)
        mean_7: "f32[1, 128, 1, 1]" = torch.ops.aten.mean.dim(mul_28, [-1, -2], True);  mul_28 = None

        # File: torchvision/models/efficientnet.py:337 in _forward_impl, code: x = torch.flatten(x, 1)
        view: "f32[1, 128]" = torch.ops.aten.view.default(mean_7, [1, 128]);  mean_7 = None

        # File: torchvision/models/efficientnet.py:339 in _forward_impl, code: x = self.classifier(x)
        permute: "f32[128, 10]" = torch.ops.aten.permute.default(arg139_1, [1, 0]);  arg139_1 = None
        addmm: "f32[1, 10]" = torch.ops.aten.addmm.default(arg140_1, view, permute);  arg140_1 = view = permute = None
        return (addmm,)
