class GraphModule(torch.nn.Module):
    def forward(self, L_self_modules_features_modules_0_modules_0_parameters_weight_: "f32[16, 3, 4, 4]", L_self_modules_features_modules_0_modules_0_parameters_bias_: "f32[16]", L_x_: "f32[1, 3, 32, 32]", L_self_modules_features_modules_0_modules_1_parameters_weight_: "f32[16]", L_self_modules_features_modules_0_modules_1_parameters_bias_: "f32[16]", L_self_modules_features_modules_1_modules_0_parameters_layer_scale_: "f32[16, 1, 1]", L_self_modules_features_modules_1_modules_0_modules_block_modules_0_parameters_weight_: "f32[16, 1, 7, 7]", L_self_modules_features_modules_1_modules_0_modules_block_modules_0_parameters_bias_: "f32[16]", L_self_modules_features_modules_1_modules_0_modules_block_modules_2_parameters_weight_: "f32[16]", L_self_modules_features_modules_1_modules_0_modules_block_modules_2_parameters_bias_: "f32[16]", L_self_modules_features_modules_1_modules_0_modules_block_modules_3_parameters_weight_: "f32[64, 16]", L_self_modules_features_modules_1_modules_0_modules_block_modules_3_parameters_bias_: "f32[64]", L_self_modules_features_modules_1_modules_0_modules_block_modules_5_parameters_weight_: "f32[16, 64]", L_self_modules_features_modules_1_modules_0_modules_block_modules_5_parameters_bias_: "f32[16]", L_self_modules_features_modules_2_modules_0_parameters_weight_: "f32[16]", L_self_modules_features_modules_2_modules_0_parameters_bias_: "f32[16]", L_self_modules_features_modules_2_modules_1_parameters_weight_: "f32[32, 16, 2, 2]", L_self_modules_features_modules_2_modules_1_parameters_bias_: "f32[32]", L_self_modules_features_modules_3_modules_0_parameters_layer_scale_: "f32[32, 1, 1]", L_self_modules_features_modules_3_modules_0_modules_block_modules_0_parameters_weight_: "f32[32, 1, 7, 7]", L_self_modules_features_modules_3_modules_0_modules_block_modules_0_parameters_bias_: "f32[32]", L_self_modules_features_modules_3_modules_0_modules_block_modules_2_parameters_weight_: "f32[32]", L_self_modules_features_modules_3_modules_0_modules_block_modules_2_parameters_bias_: "f32[32]", L_self_modules_features_modules_3_modules_0_modules_block_modules_3_parameters_weight_: "f32[128, 32]", L_self_modules_features_modules_3_modules_0_modules_block_modules_3_parameters_bias_: "f32[128]", L_self_modules_features_modules_3_modules_0_modules_block_modules_5_parameters_weight_: "f32[32, 128]", L_self_modules_features_modules_3_modules_0_modules_block_modules_5_parameters_bias_: "f32[32]", L_self_modules_classifier_modules_0_parameters_weight_: "f32[32]", L_self_modules_classifier_modules_0_parameters_bias_: "f32[32]", L_self_modules_classifier_modules_2_parameters_weight_: "f32[10, 32]", L_self_modules_classifier_modules_2_parameters_bias_: "f32[10]"):
        l_self_modules_features_modules_0_modules_0_parameters_weight_ = L_self_modules_features_modules_0_modules_0_parameters_weight_
        l_self_modules_features_modules_0_modules_0_parameters_bias_ = L_self_modules_features_modules_0_modules_0_parameters_bias_
        l_x_ = L_x_
        l_self_modules_features_modules_0_modules_1_parameters_weight_ = L_self_modules_features_modules_0_modules_1_parameters_weight_
        l_self_modules_features_modules_0_modules_1_parameters_bias_ = L_self_modules_features_modules_0_modules_1_parameters_bias_
        l_self_modules_features_modules_1_modules_0_parameters_layer_scale_ = L_self_modules_features_modules_1_modules_0_parameters_layer_scale_
        l_self_modules_features_modules_1_modules_0_modules_block_modules_0_parameters_weight_ = L_self_modules_features_modules_1_modules_0_modules_block_modules_0_parameters_weight_
        l_self_modules_features_modules_1_modules_0_modules_block_modules_0_parameters_bias_ = L_self_modules_features_modules_1_modules_0_modules_block_modules_0_parameters_bias_
        l_self_modules_features_modules_1_modules_0_modules_block_modules_2_parameters_weight_ = L_self_modules_features_modules_1_modules_0_modules_block_modules_2_parameters_weight_
        l_self_modules_features_modules_1_modules_0_modules_block_modules_2_parameters_bias_ = L_self_modules_features_modules_1_modules_0_modules_block_modules_2_parameters_bias_
        l_self_modules_features_modules_1_modules_0_modules_block_modules_3_parameters_weight_ = L_self_modules_features_modules_1_modules_0_modules_block_modules_3_parameters_weight_
        l_self_modules_features_modules_1_modules_0_modules_block_modules_3_parameters_bias_ = L_self_modules_features_modules_1_modules_0_modules_block_modules_3_parameters_bias_
        l_self_modules_features_modules_1_modules_0_modules_block_modules_5_parameters_weight_ = L_self_modules_features_modules_1_modules_0_modules_block_modules_5_parameters_weight_
        l_self_modules_features_modules_1_modules_0_modules_block_modules_5_parameters_bias_ = L_self_modules_features_modules_1_modules_0_modules_block_modules_5_parameters_bias_
        l_self_modules_features_modules_2_modules_0_parameters_weight_ = L_self_modules_features_modules_2_modules_0_parameters_weight_
        l_self_modules_features_modules_2_modules_0_parameters_bias_ = L_self_modules_features_modules_2_modules_0_parameters_bias_
        l_self_modules_features_modules_2_modules_1_parameters_weight_ = L_self_modules_features_modules_2_modules_1_parameters_weight_
        l_self_modules_features_modules_2_modules_1_parameters_bias_ = L_self_modules_features_modules_2_modules_1_parameters_bias_
        l_self_modules_features_modules_3_modules_0_parameters_layer_scale_ = L_self_modules_features_modules_3_modules_0_parameters_layer_scale_
        l_self_modules_features_modules_3_modules_0_modules_block_modules_0_parameters_weight_ = L_self_modules_features_modules_3_modules_0_modules_block_modules_0_parameters_weight_
        l_self_modules_features_modules_3_modules_0_modules_block_modules_0_parameters_bias_ = L_self_modules_features_modules_3_modules_0_modules_block_modules_0_parameters_bias_
        l_self_modules_features_modules_3_modules_0_modules_block_modules_2_parameters_weight_ = L_self_modules_features_modules_3_modules_0_modules_block_modules_2_parameters_weight_
        l_self_modules_features_modules_3_modules_0_modules_block_modules_2_parameters_bias_ = L_self_modules_features_modules_3_modules_0_modules_block_modules_2_parameters_bias_
        l_self_modules_features_modules_3_modules_0_modules_block_modules_3_parameters_weight_ = L_self_modules_features_modules_3_modules_0_modules_block_modules_3_parameters_weight_
        l_self_modules_features_modules_3_modules_0_modules_block_modules_3_parameters_bias_ = L_self_modules_features_modules_3_modules_0_modules_block_modules_3_parameters_bias_
        l_self_modules_features_modules_3_modules_0_modules_block_modules_5_parameters_weight_ = L_self_modules_features_modules_3_modules_0_modules_block_modules_5_parameters_weight_
        l_self_modules_features_modules_3_modules_0_modules_block_modules_5_parameters_bias_ = L_self_modules_features_modules_3_modules_0_modules_block_modules_5_parameters_bias_
        l_self_modules_classifier_modules_0_parameters_weight_ = L_self_modules_classifier_modules_0_parameters_weight_
        l_self_modules_classifier_modules_0_parameters_bias_ = L_self_modules_classifier_modules_0_parameters_bias_
        l_self_modules_classifier_modules_2_parameters_weight_ = L_self_modules_classifier_modules_2_parameters_weight_
        l_self_modules_classifier_modules_2_parameters_bias_ = L_self_modules_classifier_modules_2_parameters_bias_

        # File: torchvision/models/convnext.py:171 in _forward_impl, code: x = self.features(x)
        input_1: "f32[1, 16, 8, 8]" = torch.conv2d(l_x_, l_self_modules_features_modules_0_modules_0_parameters_weight_, l_self_modules_features_modules_0_modules_0_parameters_bias_, (4, 4), (0, 0), (1, 1), 1);  l_x_ = l_self_modules_features_modules_0_modules_0_parameters_weight_ = l_self_modules_features_modules_0_modules_0_parameters_bias_ = None

        # File: torchvision/models/convnext.py:33 in forward, code: x = x.permute(0, 2, 3, 1)
        x: "f32[1, 8, 8, 16]" = input_1.permute(0, 2, 3, 1);  input_1 = None

        # File: torchvision/models/convnext.py:34 in forward, code: x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        x_1: "f32[1, 8, 8, 16]" = torch.nn.functional.layer_norm(x, (16,), l_self_modules_features_modules_0_modules_1_parameters_weight_, l_self_modules_features_modules_0_modules_1_parameters_bias_, 1e-06);  x = l_self_modules_features_modules_0_modules_1_parameters_weight_ = l_self_modules_features_modules_0_modules_1_parameters_bias_ = None

        # File: torchvision/models/convnext.py:35 in forward, code: x = x.permute(0, 3, 1, 2)
        x_2: "f32[1, 16, 8, 8]" = x_1.permute(0, 3, 1, 2);  x_1 = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        input_2: "f32[1, 16, 8, 8]" = torch.conv2d(x_2, l_self_modules_features_modules_1_modules_0_modules_block_modules_0_parameters_weight_, l_self_modules_features_modules_1_modules_0_modules_block_modules_0_parameters_bias_, (1, 1), (3, 3), (1, 1), 16);  l_self_modules_features_modules_1_modules_0_modules_block_modules_0_parameters_weight_ = l_self_modules_features_modules_1_modules_0_modules_block_modules_0_parameters_bias_ = None

        # File: torchvision/ops/misc.py:321 in forward, code: return torch.permute(x, self.dims)
        input_3: "f32[1, 8, 8, 16]" = torch.permute(input_2, [0, 2, 3, 1]);  input_2 = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        input_4: "f32[1, 8, 8, 16]" = torch.nn.functional.layer_norm(input_3, (16,), l_self_modules_features_modules_1_modules_0_modules_block_modules_2_parameters_weight_, l_self_modules_features_modules_1_modules_0_modules_block_modules_2_parameters_bias_, 1e-06);  input_3 = l_self_modules_features_modules_1_modules_0_modules_block_modules_2_parameters_weight_ = l_self_modules_features_modules_1_modules_0_modules_block_modules_2_parameters_bias_ = None
        input_5: "f32[1, 8, 8, 64]" = torch._C._nn.linear(input_4, l_self_modules_features_modules_1_modules_0_modules_block_modules_3_parameters_weight_, l_self_modules_features_modules_1_modules_0_modules_block_modules_3_parameters_bias_);  input_4 = l_self_modules_features_modules_1_modules_0_modules_block_modules_3_parameters_weight_ = l_self_modules_features_modules_1_modules_0_modules_block_modules_3_parameters_bias_ = None
        input_6: "f32[1, 8, 8, 64]" = torch._C._nn.gelu(input_5, approximate = 'none');  input_5 = None
        input_7: "f32[1, 8, 8, 16]" = torch._C._nn.linear(input_6, l_self_modules_features_modules_1_modules_0_modules_block_modules_5_parameters_weight_, l_self_modules_features_modules_1_modules_0_modules_block_modules_5_parameters_bias_);  input_6 = l_self_modules_features_modules_1_modules_0_modules_block_modules_5_parameters_weight_ = l_self_modules_features_modules_1_modules_0_modules_block_modules_5_parameters_bias_ = None

        # File: torchvision/ops/misc.py:321 in forward, code: return torch.permute(x, self.dims)
        input_8: "f32[1, 16, 8, 8]" = torch.permute(input_7, [0, 3, 1, 2]);  input_7 = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        result: "f32[1, 16, 8, 8]" = l_self_modules_features_modules_1_modules_0_parameters_layer_scale_ * input_8;  l_self_modules_features_modules_1_modules_0_parameters_layer_scale_ = input_8 = None

        # File: torchvision/utils.py:792 in _log_api_usage_once, code: torch._C._log_api_usage_once(f"{module}.{name}")
        _log_api_usage_once = torch._C._log_api_usage_once('torchvision.ops.stochastic_depth.stochastic_depth');  _log_api_usage_once = None

        # File: torchvision/models/convnext.py:66 in forward, code: result += input
        result += x_2;  result_1: "f32[1, 16, 8, 8]" = result;  result = x_2 = None

        # File: torchvision/models/convnext.py:33 in forward, code: x = x.permute(0, 2, 3, 1)
        x_3: "f32[1, 8, 8, 16]" = result_1.permute(0, 2, 3, 1);  result_1 = None

        # File: torchvision/models/convnext.py:34 in forward, code: x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        x_4: "f32[1, 8, 8, 16]" = torch.nn.functional.layer_norm(x_3, (16,), l_self_modules_features_modules_2_modules_0_parameters_weight_, l_self_modules_features_modules_2_modules_0_parameters_bias_, 1e-06);  x_3 = l_self_modules_features_modules_2_modules_0_parameters_weight_ = l_self_modules_features_modules_2_modules_0_parameters_bias_ = None

        # File: torchvision/models/convnext.py:35 in forward, code: x = x.permute(0, 3, 1, 2)
        x_5: "f32[1, 16, 8, 8]" = x_4.permute(0, 3, 1, 2);  x_4 = None

        # File: torchvision/models/convnext.py:171 in _forward_impl, code: x = self.features(x)
        input_9: "f32[1, 32, 4, 4]" = torch.conv2d(x_5, l_self_modules_features_modules_2_modules_1_parameters_weight_, l_self_modules_features_modules_2_modules_1_parameters_bias_, (2, 2), (0, 0), (1, 1), 1);  x_5 = l_self_modules_features_modules_2_modules_1_parameters_weight_ = l_self_modules_features_modules_2_modules_1_parameters_bias_ = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        input_10: "f32[1, 32, 4, 4]" = torch.conv2d(input_9, l_self_modules_features_modules_3_modules_0_modules_block_modules_0_parameters_weight_, l_self_modules_features_modules_3_modules_0_modules_block_modules_0_parameters_bias_, (1, 1), (3, 3), (1, 1), 32);  l_self_modules_features_modules_3_modules_0_modules_block_modules_0_parameters_weight_ = l_self_modules_features_modules_3_modules_0_modules_block_modules_0_parameters_bias_ = None

        # File: torchvision/ops/misc.py:321 in forward, code: return torch.permute(x, self.dims)
        input_11: "f32[1, 4, 4, 32]" = torch.permute(input_10, [0, 2, 3, 1]);  input_10 = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        input_12: "f32[1, 4, 4, 32]" = torch.nn.functional.layer_norm(input_11, (32,), l_self_modules_features_modules_3_modules_0_modules_block_modules_2_parameters_weight_, l_self_modules_features_modules_3_modules_0_modules_block_modules_2_parameters_bias_, 1e-06);  input_11 = l_self_modules_features_modules_3_modules_0_modules_block_modules_2_parameters_weight_ = l_self_modules_features_modules_3_modules_0_modules_block_modules_2_parameters_bias_ = None
        input_13: "f32[1, 4, 4, 128]" = torch._C._nn.linear(input_12, l_self_modules_features_modules_3_modules_0_modules_block_modules_3_parameters_weight_, l_self_modules_features_modules_3_modules_0_modules_block_modules_3_parameters_bias_);  input_12 = l_self_modules_features_modules_3_modules_0_modules_block_modules_3_parameters_weight_ = l_self_modules_features_modules_3_modules_0_modules_block_modules_3_parameters_bias_ = None
        input_14: "f32[1, 4, 4, 128]" = torch._C._nn.gelu(input_13, approximate = 'none');  input_13 = None
        input_15: "f32[1, 4, 4, 32]" = torch._C._nn.linear(input_14, l_self_modules_features_modules_3_modules_0_modules_block_modules_5_parameters_weight_, l_self_modules_features_modules_3_modules_0_modules_block_modules_5_parameters_bias_);  input_14 = l_self_modules_features_modules_3_modules_0_modules_block_modules_5_parameters_weight_ = l_self_modules_features_modules_3_modules_0_modules_block_modules_5_parameters_bias_ = None

        # File: torchvision/ops/misc.py:321 in forward, code: return torch.permute(x, self.dims)
        input_16: "f32[1, 32, 4, 4]" = torch.permute(input_15, [0, 3, 1, 2]);  input_15 = None

        # File: torchvision/models/convnext.py:64 in forward, code: result = self.layer_scale * self.block(input)
        result_2: "f32[1, 32, 4, 4]" = l_self_modules_features_modules_3_modules_0_parameters_layer_scale_ * input_16;  l_self_modules_features_modules_3_modules_0_parameters_layer_scale_ = input_16 = None

        # File: torchvision/utils.py:792 in _log_api_usage_once, code: torch._C._log_api_usage_once(f"{module}.{name}")
        _log_api_usage_once_1 = torch._C._log_api_usage_once('torchvision.ops.stochastic_depth.stochastic_depth');  _log_api_usage_once_1 = None

        # File: torchvision/models/convnext.py:66 in forward, code: result += input
        result_2 += input_9;  result_3: "f32[1, 32, 4, 4]" = result_2;  result_2 = input_9 = None

        # File: torchvision/models/convnext.py:172 in _forward_impl, code: x = self.avgpool(x)
        x_6: "f32[1, 32, 1, 1]" = torch.nn.functional.adaptive_avg_pool2d(result_3, 1);  result_3 = None

        # File: torchvision/models/convnext.py:33 in forward, code: x = x.permute(0, 2, 3, 1)
        x_7: "f32[1, 1, 1, 32]" = x_6.permute(0, 2, 3, 1);  x_6 = None

        # File: torchvision/models/convnext.py:34 in forward, code: x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        x_8: "f32[1, 1, 1, 32]" = torch.nn.functional.layer_norm(x_7, (32,), l_self_modules_classifier_modules_0_parameters_weight_, l_self_modules_classifier_modules_0_parameters_bias_, 1e-06);  x_7 = l_self_modules_classifier_modules_0_parameters_weight_ = l_self_modules_classifier_modules_0_parameters_bias_ = None

        # File: torchvision/models/convnext.py:35 in forward, code: x = x.permute(0, 3, 1, 2)
        x_9: "f32[1, 32, 1, 1]" = x_8.permute(0, 3, 1, 2);  x_8 = None

        # File: torchvision/models/convnext.py:173 in _forward_impl, code: x = self.classifier(x)
        input_17: "f32[1, 32]" = x_9.flatten(1, -1);  x_9 = None
        input_18: "f32[1, 10]" = torch._C._nn.linear(input_17, l_self_modules_classifier_modules_2_parameters_weight_, l_self_modules_classifier_modules_2_parameters_bias_);  input_17 = l_self_modules_classifier_modules_2_parameters_weight_ = l_self_modules_classifier_modules_2_parameters_bias_ = None
        return (input_18,)
