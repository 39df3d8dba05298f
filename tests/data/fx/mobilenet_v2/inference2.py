class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 3, 3, 3]", arg1_1: "f32[1, 3, 64, 64]", arg2_1: "f32[8]", arg3_1: "f32[8]", arg4_1: "f32[8]", arg5_1: "f32[8]", arg6_1: "f32[8, 1, 3, 3]", arg7_1: "f32[8]", arg8_1: "f32[8]", arg9_1: "f32[8]", arg10_1: "f32[8]", arg11_1: "f32[8, 8, 1, 1]", arg12_1: "f32[8]", arg13_1: "f32[8]", arg14_1: "f32[8]", arg15_1: "f32[8]", arg16_1: "f32[48, 8, 1, 1]", arg17_1: "f32[48]", arg18_1: "f32[48]", arg19_1: "f32[48]", arg20_1: "f32[48]", arg21_1: "f32[48, 1, 3, 3]", arg22_1: "f32[48]", arg23_1: "f32[48]", arg24_1: "f32[48]", arg25_1: "f32[48]", arg26_1: "f32[8, 48, 1, 1]", arg27_1: "f32[8]", arg28_1: "f32[8]", arg29_1: "f32[8]", arg30_1: "f32[8]", arg31_1: "f32[48, 8, 1, 1]", arg32_1: "f32[48]", arg33_1: "f32[48]", arg34_1: "f32[48]", arg35_1: "f32[48]", arg36_1: "f32[48, 1, 3, 3]", arg37_1: "f32[48]", arg38_1: "f32[48]", arg39_1: "f32[48]", arg40_1: "f32[48]", arg41_1: "f32[8, 48, 1, 1]", arg42_1: "f32[8]", arg43_1: "f32[8]", arg44_1: "f32[8]", arg45_1: "f32[8]", arg46_1: "f32[48, 8, 1, 1]", arg47_1: "f32[48]", arg48_1: "f32[48]", arg49_1: "f32[48]", arg50_1: "f32[48]", arg51_1: "f32[48, 1, 3, 3]", arg52_1: "f32[48]", arg53_1: "f32[48]", arg54_1: "f32[48]", arg55_1: "f32[48]", arg56_1: "f32[8, 48, 1, 1]", arg57_1: "f32[8]", arg58_1: "f32[8]", arg59_1: "f32[8]", arg60_1: "f32[8]", arg61_1: "f32[48, 8, 1, 1]", arg62_1: "f32[48]", arg63_1: "f32[48]", arg64_1: "f32[48]", arg65_1: "f32[48]", arg66_1: "f32[48, 1, 3, 3]", arg67_1: "f32[48]", arg68_1: "f32[48]", arg69_1: "f32[48]", arg70_1: "f32[48]", arg71_1: "f32[8, 48, 1, 1]", arg72_1: "f32[8]", arg73_1: "f32[8]", arg74_1: "f32[8]", arg75_1: "f32[8]", arg76_1: "f32[48, 8, 1, 1]", arg77_1: "f32[48]", arg78_1: "f32[48]", arg79_1: "f32[48]", arg80_1: "f32[48]", arg81_1: "f32[48, 1, 3, 3]", arg82_1: "f32[48]", arg83_1: "f32[48]", arg84_1: "f32[48]", arg85_1: "f32[48]", arg86_1: "f32[16, 48, 1, 1]", arg87_1: "f32[16]", arg88_1: "f32[16]", arg89_1: "f32[16]", arg90_1: "f32[16]", arg91_1: "f32[96, 16, 1, 1]", arg92_1: "f32[96]", arg93_1: "f32[96]", arg94_1: "f32[96]", arg95_1: "f32[96]", arg96_1: "f32[96, 1, 3, 3]", arg97_1: "f32[96]", arg98_1: "f32[96]", arg99_1: "f32[96]", arg100_1: "f32[96]", arg101_1: "f32[16, 96, 1, 1]", arg102_1: "f32[16]", arg103_1: "f32[16]", arg104_1: "f32[16]", arg105_1: "f32[16]", arg106_1: "f32[96, 16, 1, 1]", arg107_1: "f32[96]", arg108_1: "f32[96]", arg109_1: "f32[96]", arg110_1: "f32[96]", arg111_1: "f32[96, 1, 3, 3]", arg112_1: "f32[96]", arg113_1: "f32[96]", arg114_1: "f32[96]", arg115_1: "f32[96]", arg116_1: "f32[24, 96, 1, 1]", arg117_1: "f32[24]", arg118_1: "f32[24]", arg119_1: "f32[24]", arg120_1: "f32[24]", arg121_1: "f32[144, 24, 1, 1]", arg122_1: "f32[144]", arg123_1: "f32[144]", arg124_1: "f32[144]", arg125_1: "f32[144]", arg126_1: "f32[144, 1, 3, 3]", arg127_1: "f32[144]", arg128_1: "f32[144]", arg129_1: "f32[144]", arg130_1: "f32[144]", arg131_1: "f32[40, 144, 1, 1]", arg132_1: "f32[40]", arg133_1: "f32[40]", arg134_1: "f32[40]", arg135_1: "f32[40]", arg136_1: "f32[240, 40, 1, 1]", arg137_1: "f32[240]", arg138_1: "f32[240]", arg139_1: "f32[240]", arg140_1: "f32[240]", arg141_1: "f32[240, 1, 3, 3]", arg142_1: "f32[240]", arg143_1: "f32[240]", arg144_1: "f32[240]", arg145_1: "f32[240]", arg146_1: "f32[80, 240, 1, 1]", arg147_1: "f32[80]", arg148_1: "f32[80]", arg149_1: "f32[80]", arg150_1: "f32[80]", arg151_1: "f32[128, 80, 1, 1]", arg152_1: "f32[128]", arg153_1: "f32[128]", arg154_1: "f32[128]", arg155_1: "f32[128]", arg156_1: "f32[10, 128]", arg157_1: "f32[10]"):
        # File: torchvision/models/mobilenetv2.py:166 in _forward_impl, code: x = self.features(x)
        convolution: "f32[1, 8, 32, 32]" = torch.ops.aten.convolution.default(arg1_1, arg0_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1);  arg1_1 = arg0_1 = None
        _native_batch_norm_legit_no_training = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution, arg4_1, arg5_1, arg2_1, arg3_1, 0.1, 1e-05);  convolution = arg4_1 = arg5_1 = arg2_1 = arg3_1 = None
        getitem: "f32[1, 8, 32, 32]" = _native_batch_norm_legit_no_training[0];  _native_batch_norm_legit_no_training = None
        hardtanh: "f32[1, 8, 32, 32]" = torch.ops.aten.hardtanh.default(getitem, 0.0, 6.0);  getitem = None

        # File: torchvision/models/mobilenetv2.py:62 in forward, code: return x + self.conv(x)
        convolution_1: "f32[1, 8, 32, 32]" = torch.ops.aten.convolution.default(hardtanh, arg6_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 8);  arg6_1 = None
        _native_batch_norm_legit_no_training_1 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_1, arg9_1, arg10_1, arg7_1, arg8_1, 0.1, 1e-05);  convolution_1 = arg9_1 = arg10_1 = arg7_1 = arg8_1 = None
        getitem_3: "f32[1, 8, 32, 32]" = _native_batch_norm_legit_no_training_1[0];  _native_batch_norm_legit_no_training_1 = None
        hardtanh_1: "f32[1, 8, 32, 32]" = torch.ops.aten.hardtanh.default(getitem_3, 0.0, 6.0);  getitem_3 = None
        convolution_2: "f32[1, 8, 32, 32]" = torch.ops.aten.convolution.default(hardtanh_1, arg11_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  hardtanh_1 = arg11_1 = None
        _native_batch_norm_legit_no_training_2 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_2, arg14_1, arg15_1, arg12_1, arg13_1, 0.1, 1e-05);  convolution_2 = arg14_1 = arg15_1 = arg12_1 = arg13_1 = None
        getitem_6: "f32[1, 8, 32, 32]" = _native_batch_norm_legit_no_training_2[0];  _native_batch_norm_legit_no_training_2 = None
        add: "f32[1, 8, 32, 32]" = torch.ops.aten.add.Tensor(hardtanh, getitem_6);  hardtanh = getitem_6 = None

        # File: torchvision/models/mobilenetv2.py:64 in forward, code: return self.conv(x)
        convolution_3: "f32[1, 48, 32, 32]" = torch.ops.aten.convolution.default(add, arg16_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  add = arg16_1 = None
        _native_batch_norm_legit_no_training_3 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_3, arg19_1, arg20_1, arg17_1, arg18_1, 0.1, 1e-05);  convolution_3 = arg19_1 = arg20_1 = arg17_1 = arg18_1 = None
        getitem_9: "f32[1, 48, 32, 32]" = _native_batch_norm_legit_no_training_3[0];  _native_batch_norm_legit_no_training_3 = None
        hardtanh_2: "f32[1, 48, 32, 32]" = torch.ops.aten.hardtanh.default(getitem_9, 0.0, 6.0);  getitem_9 = None
        convolution_4: "f32[1, 48, 16, 16]" = torch.ops.aten.convolution.default(hardtanh_2, arg21_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 48);  hardtanh_2 = arg21_1 = None
        _native_batch_norm_legit_no_training_4 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_4, arg24_1, arg25_1, arg22_1, arg23_1, 0.1, 1e-05);  convolution_4 = arg24_1 = arg25_1 = arg22_1 = arg23_1 = None
        getitem_12: "f32[1, 48, 16, 16]" = _native_batch_norm_legit_no_training_4[0];  _native_batch_norm_legit_no_training_4 = None
        hardtanh_3: "f32[1, 48, 16, 16]" = torch.ops.aten.hardtanh.default(getitem_12, 0.0, 6.0);  getitem_12 = None
        convolution_5: "f32[1, 8, 16, 16]" = torch.ops.aten.convolution.default(hardtanh_3, arg26_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  hardtanh_3 = arg26_1 = None
        _native_batch_norm_legit_no_training_5 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_5, arg29_1, arg30_1, arg27_1, arg28_1, 0.1, 1e-05);  convolution_5 = arg29_1 = arg30_1 = arg27_1 = arg28_1 = None
        getitem_15: "f32[1, 8, 16, 16]" = _native_batch_norm_legit_no_training_5[0];  _native_batch_norm_legit_no_training_5 = None

        # File: torchvision/models/mobilenetv2.py:62 in forward, code: return x + self.conv(x)
        convolution_6: "f32[1, 48, 16, 16]" = torch.ops.aten.convolution.default(getitem_15, arg31_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  arg31_1 = None
        _native_batch_norm_legit_no_training_6 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_6, arg34_1, arg35_1, arg32_1, arg33_1, 0.1, 1e-05);  convolution_6 = arg34_1 = arg35_1 = arg32_1 = arg33_1 = None
        getitem_18: "f32[1, 48, 16, 16]" = _native_batch_norm_legit_no_training_6[0];  _native_batch_norm_legit_no_training_6 = None
        hardtanh_4: "f32[1, 48, 16, 16]" = torch.ops.aten.hardtanh.default(getitem_18, 0.0, 6.0);  getitem_18 = None
        convolution_7: "f32[1, 48, 16, 16]" = torch.ops.aten.convolution.default(hardtanh_4, arg36_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 48);  hardtanh_4 = arg36_1 = None
        _native_batch_norm_legit_no_training_7 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_7, arg39_1, arg40_1, arg37_1, arg38_1, 0.1, 1e-05);  convolution_7 = arg39_1 = arg40_1 = arg37_1 = arg38_1 = None
        getitem_21: "f32[1, 48, 16, 16]" = _native_batch_norm_legit_no_training_7[0];  _native_batch_norm_legit_no_training_7 = None
        hardtanh_5: "f32[1, 48, 16, 16]" = torch.ops.aten.hardtanh.default(getitem_21, 0.0, 6.0);  getitem_21 = None
        convolution_8: "f32[1, 8, 16, 16]" = torch.ops.aten.convolution.default(hardtanh_5, arg41_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  hardtanh_5 = arg41_1 = None
        _native_batch_norm_legit_no_training_8 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_8, arg44_1, arg45_1, arg42_1, arg43_1, 0.1, 1e-05);  convolution_8 = arg44_1 = arg45_1 = arg42_1 = arg43_1 = None
        getitem_24: "f32[1, 8, 16, 16]" = _native_batch_norm_legit_no_training_8[0];  _native_batch_norm_legit_no_training_8 = None
        add_1: "f32[1, 8, 16, 16]" = torch.ops.aten.add.Tensor(getitem_15, getitem_24);  getitem_15 = getitem_24 = None

        # File: torchvision/models/mobilenetv2.py:64 in forward, code: return self.conv(x)
        convolution_9: "f32[1, 48, 16, 16]" = torch.ops.aten.convolution.default(add_1, arg46_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  add_1 = arg46_1 = None
        _native_batch_norm_legit_no_training_9 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_9, arg49_1, arg50_1, arg47_1, arg48_1, 0.1, 1e-05);  convolution_9 = arg49_1 = arg50_1 = arg47_1 = arg48_1 = None
        getitem_27: "f32[1, 48, 16, 16]" = _native_batch_norm_legit_no_training_9[0];  _native_batch_norm_legit_no_training_9 = None
        hardtanh_6: "f32[1, 48, 16, 16]" = torch.ops.aten.hardtanh.default(getitem_27, 0.0, 6.0);  getitem_27 = None
        convolution_10: "f32[1, 48, 8, 8]" = torch.ops.aten.convolution.default(hardtanh_6, arg51_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 48);  hardtanh_6 = arg51_1 = None
        _native_batch_norm_legit_no_training_10 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_10, arg54_1, arg55_1, arg52_1, arg53_1, 0.1, 1e-05);  convolution_10 = arg54_1 = arg55_1 = arg52_1 = arg53_1 = None
        getitem_30: "f32[1, 48, 8, 8]" = _native_batch_norm_legit_no_training_10[0];  _native_batch_norm_legit_no_training_10 = None
        hardtanh_7: "f32[1, 48, 8, 8]" = torch.ops.aten.hardtanh.default(getitem_30, 0.0, 6.0);  getitem_30 = None
        convolution_11: "f32[1, 8, 8, 8]" = torch.ops.aten.convolution.default(hardtanh_7, arg56_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  hardtanh_7 = arg56_1 = None
        _native_batch_norm_legit_no_training_11 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_11, arg59_1, arg60_1, arg57_1, arg58_1, 0.1, 1e-05);  convolution_11 = arg59_1 = arg60_1 = arg57_1 = arg58_1 = None
        getitem_33: "f32[1, 8, 8, 8]" = _native_batch_norm_legit_no_training_11[0];  _native_batch_norm_legit_no_training_11 = None

        # File: torchvision/models/mobilenetv2.py:62 in forward, code: return x + self.conv(x)
        convolution_12: "f32[1, 48, 8, 8]" = torch.ops.aten.convolution.default(getitem_33, arg61_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  arg61_1 = None
        _native_batch_norm_legit_no_training_12 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_12, arg64_1, arg65_1, arg62_1, arg63_1, 0.1, 1e-05);  convolution_12 = arg64_1 = arg65_1 = arg62_1 = arg63_1 = None
        getitem_36: "f32[1, 48, 8, 8]" = _native_batch_norm_legit_no_training_12[0];  _native_batch_norm_legit_no_training_12 = None
        hardtanh_8: "f32[1, 48, 8, 8]" = torch.ops.aten.hardtanh.default(getitem_36, 0.0, 6.0);  getitem_36 = None
        convolution_13: "f32[1, 48, 8, 8]" = torch.ops.aten.convolution.default(hardtanh_8, arg66_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 48);  hardtanh_8 = arg66_1 = None
        _native_batch_norm_legit_no_training_13 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_13, arg69_1, arg70_1, arg67_1, arg68_1, 0.1, 1e-05);  convolution_13 = arg69_1 = arg70_1 = arg67_1 = arg68_1 = None
        getitem_39: "f32[1, 48, 8, 8]" = _native_batch_norm_legit_no_training_13[0];  _native_batch_norm_legit_no_training_13 = None
        hardtanh_9: "f32[1, 48, 8, 8]" = torch.ops.aten.hardtanh.default(getitem_39, 0.0, 6.0);  getitem_39 = None
        convolution_14: "f32[1, 8, 8, 8]" = torch.ops.aten.convolution.default(hardtanh_9, arg71_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  hardtanh_9 = arg71_1 = None
        _native_batch_norm_legit_no_training_14 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_14, arg74_1, arg75_1, arg72_1, arg73_1, 0.1, 1e-05);  convolution_14 = arg74_1 = arg75_1 = arg72_1 = arg73_1 = None
        getitem_42: "f32[1, 8, 8, 8]" = _native_batch_norm_legit_no_training_14[0];  _native_batch_norm_legit_no_training_14 = None
        add_2: "f32[1, 8, 8, 8]" = torch.ops.aten.add.Tensor(getitem_33, getitem_42);  getitem_33 = getitem_42 = None

        # File: torchvision/models/mobilenetv2.py:64 in forward, code: return self.conv(x)
        convolution_15: "f32[1, 48, 8, 8]" = torch.ops.aten.convolution.default(add_2, arg76_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  add_2 = arg76_1 = None
        _native_batch_norm_legit_no_training_15 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_15, arg79_1, arg80_1, arg77_1, arg78_1, 0.1, 1e-05);  convolution_15 = arg79_1 = arg80_1 = arg77_1 = arg78_1 = None
        getitem_45: "f32[1, 48, 8, 8]" = _native_batch_norm_legit_no_training_15[0];  _native_batch_norm_legit_no_training_15 = None
        hardtanh_10: "f32[1, 48, 8, 8]" = torch.ops.aten.hardtanh.default(getitem_45, 0.0, 6.0);  getitem_45 = None
        convolution_16: "f32[1, 48, 4, 4]" = torch.ops.aten.convolution.default(hardtanh_10, arg81_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 48);  hardtanh_10 = arg81_1 = None
        _native_batch_norm_legit_no_training_16 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_16, arg84_1, arg85_1, arg82_1, arg83_1, 0.1, 1e-05);  convolution_16 = arg84_1 = arg85_1 = arg82_1 = arg83_1 = None
        getitem_48: "f32[1, 48, 4, 4]" = _native_batch_norm_legit_no_training_16[0];  _native_batch_norm_legit_no_training_16 = None
        hardtanh_11: "f32[1, 48, 4, 4]" = torch.ops.aten.hardtanh.default(getitem_48, 0.0, 6.0);  getitem_48 = None
        convolution_17: "f32[1, 16, 4, 4]" = torch.ops.aten.convolution.default(hardtanh_11, arg86_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  hardtanh_11 = arg86_1 = None
        _native_batch_norm_legit_no_training_17 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_17, arg89_1, arg90_1, arg87_1, arg88_1, 0.1, 1e-05);  convolution_17 = arg89_1 = arg90_1 = arg87_1 = arg88_1 = None
        getitem_51: "f32[1, 16, 4, 4]" = _native_batch_norm_legit_no_training_17[0];  _native_batch_norm_legit_no_training_17 = None

        # File: torchvision/models/mobilenetv2.py:62 in forward, code: return x + self.conv(x)
        convolution_18: "f32[1, 96, 4, 4]" = torch.ops.aten.convolution.default(getitem_51, arg91_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  arg91_1 = None
        _native_batch_norm_legit_no_training_18 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_18, arg94_1, arg95_1, arg92_1, arg93_1, 0.1, 1e-05);  convolution_18 = arg94_1 = arg95_1 = arg92_1 = arg93_1 = None
        getitem_54: "f32[1, 96, 4, 4]" = _native_batch_norm_legit_no_training_18[0];  _native_batch_norm_legit_no_training_18 = None
        hardtanh_12: "f32[1, 96, 4, 4]" = torch.ops.aten.hardtanh.default(getitem_54, 0.0, 6.0);  getitem_54 = None
        convolution_19: "f32[1, 96, 4, 4]" = torch.ops.aten.convolution.default(hardtanh_12, arg96_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 96);  hardtanh_12 = arg96_1 = None
        _native_batch_norm_legit_no_training_19 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_19, arg99_1, arg100_1, arg97_1, arg98_1, 0.1, 1e-05);  convolution_19 = arg99_1 = arg100_1 = arg97_1 = arg98_1 = None
        getitem_57: "f32[1, 96, 4, 4]" = _native_batch_norm_legit_no_training_19[0];  _native_batch_norm_legit_no_training_19 = None
        hardtanh_13: "f32[1, 96, 4, 4]" = torch.ops.aten.hardtanh.default(getitem_57, 0.0, 6.0);  getitem_57 = None
        convolution_20: "f32[1, 16, 4, 4]" = torch.ops.aten.convolution.default(hardtanh_13, arg101_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  hardtanh_13 = arg101_1 = None
        _native_batch_norm_legit_no_training_20 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_20, arg104_1, arg105_1, arg102_1, arg103_1, 0.1, 1e-05);  convolution_20 = arg104_1 = arg105_1 = arg102_1 = arg103_1 = None
        getitem_60: "f32[1, 16, 4, 4]" = _native_batch_norm_legit_no_training_20[0];  _native_batch_norm_legit_no_training_20 = None
        add_3: "f32[1, 16, 4, 4]" = torch.ops.aten.add.Tensor(getitem_51, getitem_60);  getitem_51 = getitem_60 = None

        # File: torchvision/models/mobilenetv2.py:64 in forward, code: return self.conv(x)
        convolution_21: "f32[1, 96, 4, 4]" = torch.ops.aten.convolution.default(add_3, arg106_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  add_3 = arg106_1 = None
        _native_batch_norm_legit_no_training_21 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_21, arg109_1, arg110_1, arg107_1, arg108_1, 0.1, 1e-05);  convolution_21 = arg109_1 = arg110_1 = arg107_1 = arg108_1 = None
        getitem_63: "f32[1, 96, 4, 4]" = _native_batch_norm_legit_no_training_21[0];  _native_batch_norm_legit_no_training_21 = None
        hardtanh_14: "f32[1, 96, 4, 4]" = torch.ops.aten.hardtanh.default(getitem_63, 0.0, 6.0);  getitem_63 = None
        convolution_22: "f32[1, 96, 4, 4]" = torch.ops.aten.convolution.default(hardtanh_14, arg111_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 96);  hardtanh_14 = arg111_1 = None
        _native_batch_norm_legit_no_training_22 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_22, arg114_1, arg115_1, arg112_1, arg113_1, 0.1, 1e-05);  convolution_22 = arg114_1 = arg115_1 = arg112_1 = arg113_1 = None
        getitem_66: "f32[1, 96, 4, 4]" = _native_batch_norm_legit_no_training_22[0];  _native_batch_norm_legit_no_training_22 = None
        hardtanh_15: "f32[1, 96, 4, 4]" = torch.ops.aten.hardtanh.default(getitem_66, 0.0, 6.0);  getitem_66 = None
        convolution_23: "f32[1, 24, 4, 4]" = torch.ops.aten.convolution.default(hardtanh_15, arg116_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  hardtanh_15 = arg116_1 = None
        _native_batch_norm_legit_no_training_23 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_23, arg119_1, arg120_1, arg117_1, arg118_1, 0.1, 1e-05);  convolution_23 = arg119_1 = arg120_1 = arg117_1 = arg118_1 = None
        getitem_69: "f32[1, 24, 4, 4]" = _native_batch_norm_legit_no_training_23[0];  _native_batch_norm_legit_no_training_23 = None
        convolution_24: "f32[1, 144, 4, 4]" = torch.ops.aten.convolution.default(getitem_69, arg121_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  getitem_69 = arg121_1 = None
        _native_batch_norm_legit_no_training_24 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_24, arg124_1, arg125_1, arg122_1, arg123_1, 0.1, 1e-05);  convolution_24 = arg124_1 = arg125_1 = arg122_1 = arg123_1 = None
        getitem_72: "f32[1, 144, 4, 4]" = _native_batch_norm_legit_no_training_24[0];  _native_batch_norm_legit_no_training_24 = None
        hardtanh_16: "f32[1, 144, 4, 4]" = torch.ops.aten.hardtanh.default(getitem_72, 0.0, 6.0);  getitem_72 = None
        convolution_25: "f32[1, 144, 2, 2]" = torch.ops.aten.convolution.default(hardtanh_16, arg126_1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 144);  hardtanh_16 = arg126_1 = None
        _native_batch_norm_legit_no_training_25 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_25, arg129_1, arg130_1, arg127_1, arg128_1, 0.1, 1e-05);  convolution_25 = arg129_1 = arg130_1 = arg127_1 = arg128_1 = None
        getitem_75: "f32[1, 144, 2, 2]" = _native_batch_norm_legit_no_training_25[0];  _native_batch_norm_legit_no_training_25 = None
        hardtanh_17: "f32[1, 144, 2, 2]" = torch.ops.aten.hardtanh.default(getitem_75, 0.0, 6.0);  getitem_75 = None
        convolution_26: "f32[1, 40, 2, 2]" = torch.ops.aten.convolution.default(hardtanh_17, arg131_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  hardtanh_17 = arg131_1 = None
        _native_batch_norm_legit_no_training_26 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_26, arg134_1, arg135_1, arg132_1, arg133_1, 0.1, 1e-05);  convolution_26 = arg134_1 = arg135_1 = arg132_1 = arg133_1 = None
        getitem_78: "f32[1, 40, 2, 2]" = _native_batch_norm_legit_no_training_26[0];  _native_batch_norm_legit_no_training_26 = None
        convolution_27: "f32[1, 240, 2, 2]" = torch.ops.aten.convolution.default(getitem_78, arg136_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  getitem_78 = arg136_1 = None
        _native_batch_norm_legit_no_training_27 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_27, arg139_1, arg140_1, arg137_1, arg138_1, 0.1, 1e-05);  convolution_27 = arg139_1 = arg140_1 = arg137_1 = arg138_1 = None
        getitem_81: "f32[1, 240, 2, 2]" = _native_batch_norm_legit_no_training_27[0];  _native_batch_norm_legit_no_training_27 = None
        hardtanh_18: "f32[1, 240, 2, 2]" = torch.ops.aten.hardtanh.default(getitem_81, 0.0, 6.0);  getitem_81 = None
        convolution_28: "f32[1, 240, 2, 2]" = torch.ops.aten.convolution.default(hardtanh_18, arg141_1, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 240);  hardtanh_18 = arg141_1 = None
        _native_batch_norm_legit_no_training_28 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_28, arg144_1, arg145_1, arg142_1, arg143_1, 0.1, 1e-05);  convolution_28 = arg144_1 = arg145_1 = arg142_1 = arg143_1 = None
        getitem_84: "f32[1, 240, 2, 2]" = _native_batch_norm_legit_no_training_28[0];  _native_batch_norm_legit_no_training_28 = None
        hardtanh_19: "f32[1, 240, 2, 2]" = torch.ops.aten.hardtanh.default(getitem_84, 0.0, 6.0);  getitem_84 = None
        convolution_29: "f32[1, 80, 2, 2]" = torch.ops.aten.convolution.default(hardtanh_19, arg146_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  hardtanh_19 = arg146_1 = None
        _native_batch_norm_legit_no_training_29 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_29, arg149_1, arg150_1, arg147_1, arg148_1, 0.1, 1e-05);  convolution_29 = arg149_1 = arg150_1 = arg147_1 = arg148_1 = None
        getitem_87: "f32[1, 80, 2, 2]" = _native_batch_norm_legit_no_training_29[0];  _native_batch_norm_legit_no_training_29 = None

        # File: torchvision/models/mobilenetv2.py:166 in _forward_impl, code: x = self.features(x)
        convolution_30: "f32[1, 128, 2, 2]" = torch.ops.aten.convolution.default(getitem_87, arg151_1, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  getitem_87 = arg151_1 = None
        _native_batch_norm_legit_no_training_30 = torch.ops.aten._native_batch_norm_legit_no_training.default(convolution_30, arg154_1, arg155_1, arg152_1, arg153_1, 0.1, 1e-05);  convolution_30 = arg154_1 = arg155_1 = arg152_1 = arg153_1 = None
        getitem_90: "f32[1, 128, 2, 2]" = _native_batch_norm_legit_no_training_30[0];  _native_batch_norm_legit_no_training_30 = None
        hardtanh_20: "f32[1, 128, 2, 2]" = torch.ops.aten.hardtanh.default(getitem_90, 0.0, 6.0);  getitem_90 = None

        # File: torchvision/models/mobilenetv2.py:168 in _forward_impl, code: x = nn.functional.adaptive_avg_pool2d(x, (1, 1))
        mean: "f32[1, 128, 1, 1]" = torch.ops.aten.mean.dim(hardtanh_20, [-1, -2], True);  hardtanh_20 = None

        # File: torchvision/models/mobilenetv2.py:169 in _forward_impl, code: x = torch.flatten(x, 1)
        view: "f32[1, 128]" = torch.ops.aten.view.default(mean, [1, 128]);  mean = None

        # File: torchvision/models/mobilenetv2.py:170 in _forward_impl, code: x = self.classifier(x)
        clone: "f32[1, 128]" = torch.ops.aten.clone.default(view);  view = None
        permute: "f32[128, 10]" = torch.ops.aten.permute.default(arg156_1, [1, 0]);  arg156_1 = None
        addmm: "f32[1, 10]" = torch.ops.aten.addmm.default(arg157_1, clone, permute);  arg157_1 = clone = permute = None
        return (addmm,)
