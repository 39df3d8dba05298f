class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[2, 3, 32, 32]", L_self_modules_conv_proj_parameters_weight_: "f32[64, 3, 8, 8]", L_self_modules_conv_proj_parameters_bias_: "f32[64]", L_self_parameters_class_token_: "f32[1, 1, 64]", L_self_modules_encoder_parameters_pos_embedding_: "f32[1, 17, 64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_1_parameters_weight_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_1_parameters_bias_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_parameters_in_proj_weight_: "f32[192, 64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_parameters_in_proj_bias_: "f32[192]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_modules_out_proj_parameters_weight_: "f32[64, 64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_modules_out_proj_parameters_bias_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_2_parameters_weight_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_2_parameters_bias_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_0_parameters_weight_: "f32[128, 64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_0_parameters_bias_: "f32[128]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_3_parameters_weight_: "f32[64, 128]", L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_3_parameters_bias_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_1_parameters_weight_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_1_parameters_bias_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_parameters_in_proj_weight_: "f32[192, 64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_parameters_in_proj_bias_: "f32[192]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_modules_out_proj_parameters_weight_: "f32[64, 64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_modules_out_proj_parameters_bias_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_2_parameters_weight_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_2_parameters_bias_: "f32[64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_0_parameters_weight_: "f32[128, 64]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_0_parameters_bias_: "f32[128]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_3_parameters_weight_: "f32[64, 128]", L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_3_parameters_bias_: "f32[64]", L_self_modules_encoder_modules_ln_parameters_weight_: "f32[64]", L_self_modules_encoder_modules_ln_parameters_bias_: "f32[64]", L_self_modules_heads_modules_head_parameters_weight_: "f32[10, 64]", L_self_modules_heads_modules_head_parameters_bias_: "f32[10]"):
        l_x_ = L_x_
        l_self_modules_conv_proj_parameters_weight_ = L_self_modules_conv_proj_parameters_weight_
        l_self_modules_conv_proj_parameters_bias_ = L_self_modules_conv_proj_parameters_bias_
        l_self_parameters_class_token_ = L_self_parameters_class_token_
        l_self_modules_encoder_parameters_pos_embedding_ = L_self_modules_encoder_parameters_pos_embedding_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_1_parameters_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_1_parameters_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_1_parameters_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_1_parameters_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_parameters_in_proj_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_parameters_in_proj_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_parameters_in_proj_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_parameters_in_proj_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_modules_out_proj_parameters_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_modules_out_proj_parameters_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_modules_out_proj_parameters_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_modules_out_proj_parameters_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_2_parameters_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_2_parameters_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_2_parameters_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_2_parameters_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_0_parameters_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_0_parameters_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_0_parameters_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_0_parameters_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_3_parameters_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_3_parameters_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_3_parameters_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_3_parameters_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_1_parameters_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_1_parameters_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_1_parameters_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_1_parameters_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_parameters_in_proj_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_parameters_in_proj_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_parameters_in_proj_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_parameters_in_proj_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_modules_out_proj_parameters_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_modules_out_proj_parameters_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_modules_out_proj_parameters_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_modules_out_proj_parameters_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_2_parameters_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_2_parameters_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_2_parameters_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_2_parameters_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_0_parameters_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_0_parameters_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_0_parameters_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_0_parameters_bias_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_3_parameters_weight_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_3_parameters_weight_
        l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_3_parameters_bias_ = L_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_3_parameters_bias_
        l_self_modules_encoder_modules_ln_parameters_weight_ = L_self_modules_encoder_modules_ln_parameters_weight_
        l_self_modules_encoder_modules_ln_parameters_bias_ = L_self_modules_encoder_modules_ln_parameters_bias_
        l_self_modules_heads_modules_head_parameters_weight_ = L_self_modules_heads_modules_head_parameters_weight_
        l_self_modules_heads_modules_head_parameters_bias_ = L_self_modules_heads_modules_head_parameters_bias_

        # File: torchvision/models/vision_transformer.py:277 in _process_input, code: x = self.conv_proj(x)
        x: "f32[2, 64, 4, 4]" = torch.conv2d(l_x_, l_self_modules_conv_proj_parameters_weight_, l_self_modules_conv_proj_parameters_bias_, (8, 8), (0, 0), (1, 1), 1);  l_x_ = l_self_modules_conv_proj_parameters_weight_ = l_self_modules_conv_proj_parameters_bias_ = None

        # File: torchvision/models/vision_transformer.py:279 in _process_input, code: x = x.reshape(n, self.hidden_dim, n_h * n_w)
        x_1: "f32[2, 64, 16]" = x.reshape(2, 64, 16);  x = None

        # File: torchvision/models/vision_transformer.py:285 in _process_input, code: x = x.permute(0, 2, 1)
        x_2: "f32[2, 16, 64]" = x_1.permute(0, 2, 1);  x_1 = None

        # File: torchvision/models/vision_transformer.py:295 in forward, code: batch_class_token = self.class_token.expand(n, -1, -1)
        batch_class_token: "f32[2, 1, 64]" = l_self_parameters_class_token_.expand(2, -1, -1);  l_self_parameters_class_token_ = None

        # File: torchvision/models/vision_transformer.py:296 in forward, code: x = torch.cat([batch_class_token, x], dim=1)
        x_3: "f32[2, 17, 64]" = torch.cat([batch_class_token, x_2], dim = 1);  batch_class_token = x_2 = None

        # File: torchvision/models/vision_transformer.py:156 in forward, code: input = input + self.pos_embedding
        input_1: "f32[2, 17, 64]" = x_3 + l_self_modules_encoder_parameters_pos_embedding_;  x_3 = l_self_modules_encoder_parameters_pos_embedding_ = None

        # File: torchvision/models/vision_transformer.py:157 in forward, code: return self.ln(self.layers(self.dropout(input)))
        dropout: "f32[2, 17, 64]" = torch.nn.functional.dropout(input_1, 0.0, False, False);  input_1 = None

        # File: torchvision/models/vision_transformer.py:112 in forward, code: x = self.ln_1(input)
        x_4: "f32[2, 17, 64]" = torch.nn.functional.layer_norm(dropout, (64,), l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_1_parameters_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_1_parameters_bias_, 1e-06);  l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_1_parameters_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_1_parameters_bias_ = None

        # File: torchvision/models/vision_transformer.py:113 in forward, code: x, _ = self.self_attention(x, x, x, need_weights=False)
        query: "f32[17, 2, 64]" = x_4.transpose(1, 0);  x_4 = None
        multi_head_attention_forward = torch.nn.functional.multi_head_attention_forward(query, query, query, 64, 2, l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_parameters_in_proj_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_parameters_in_proj_bias_, None, None, False, 0.0, l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_modules_out_proj_parameters_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_modules_out_proj_parameters_bias_, training = False, key_padding_mask = None, need_weights = False, attn_mask = None, average_attn_weights = True, is_causal = False);  query = l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_parameters_in_proj_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_parameters_in_proj_bias_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_modules_out_proj_parameters_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_self_attention_modules_out_proj_parameters_bias_ = None
        attn_output: "f32[17, 2, 64]" = multi_head_attention_forward[0];  multi_head_attention_forward = None
        x_5: "f32[2, 17, 64]" = attn_output.transpose(1, 0);  attn_output = None

        # File: torchvision/models/vision_transformer.py:114 in forward, code: x = self.dropout(x)
        x_6: "f32[2, 17, 64]" = torch.nn.functional.dropout(x_5, 0.0, False, False);  x_5 = None

        # File: torchvision/models/vision_transformer.py:115 in forward, code: x = x + input
        x_7: "f32[2, 17, 64]" = x_6 + dropout;  x_6 = dropout = None

        # File: torchvision/models/vision_transformer.py:117 in forward, code: y = self.ln_2(x)
        y: "f32[2, 17, 64]" = torch.nn.functional.layer_norm(x_7, (64,), l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_2_parameters_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_2_parameters_bias_, 1e-06);  l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_2_parameters_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_ln_2_parameters_bias_ = None

        # File: torchvision/models/vision_transformer.py:118 in forward, code: y = self.mlp(y)
        input_2: "f32[2, 17, 128]" = torch._C._nn.linear(y, l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_0_parameters_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_0_parameters_bias_);  y = l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_0_parameters_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_0_parameters_bias_ = None
        input_3: "f32[2, 17, 128]" = torch._C._nn.gelu(input_2, approximate = 'none');  input_2 = None
        input_4: "f32[2, 17, 128]" = torch.nn.functional.dropout(input_3, 0.0, False, False);  input_3 = None
        input_5: "f32[2, 17, 64]" = torch._C._nn.linear(input_4, l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_3_parameters_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_3_parameters_bias_);  input_4 = l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_3_parameters_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_0_modules_mlp_modules_3_parameters_bias_ = None
        input_6: "f32[2, 17, 64]" = torch.nn.functional.dropout(input_5, 0.0, False, False);  input_5 = None

        # File: torchvision/models/vision_transformer.py:119 in forward, code: return x + y
        input_7: "f32[2, 17, 64]" = x_7 + input_6;  x_7 = input_6 = None

        # File: torchvision/models/vision_transformer.py:112 in forward, code: x = self.ln_1(input)
        x_8: "f32[2, 17, 64]" = torch.nn.functional.layer_norm(input_7, (64,), l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_1_parameters_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_1_parameters_bias_, 1e-06);  l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_1_parameters_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_1_parameters_bias_ = None

        # File: torchvision/models/vision_transformer.py:113 in forward, code: x, _ = self.self_attention(x, x, x, need_weights=False)
        query_1: "f32[17, 2, 64]" = x_8.transpose(1, 0);  x_8 = None
        multi_head_attention_forward_1 = torch.nn.functional.multi_head_attention_forward(query_1, query_1, query_1, 64, 2, l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_parameters_in_proj_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_parameters_in_proj_bias_, None, None, False, 0.0, l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_modules_out_proj_parameters_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_modules_out_proj_parameters_bias_, training = False, key_padding_mask = None, need_weights = False, attn_mask = None, average_attn_weights = True, is_causal = False);  query_1 = l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_parameters_in_proj_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_parameters_in_proj_bias_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_modules_out_proj_parameters_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_self_attention_modules_out_proj_parameters_bias_ = None
        attn_output_1: "f32[17, 2, 64]" = multi_head_attention_forward_1[0];  multi_head_attention_forward_1 = None
        x_9: "f32[2, 17, 64]" = attn_output_1.transpose(1, 0);  attn_output_1 = None

        # File: torchvision/models/vision_transformer.py:114 in forward, code: x = self.dropout(x)
        x_10: "f32[2, 17, 64]" = torch.nn.functional.dropout(x_9, 0.0, False, False);  x_9 = None

        # File: torchvision/models/vision_transformer.py:115 in forward, code: x = x + input
        x_11: "f32[2, 17, 64]" = x_10 + input_7;  x_10 = input_7 = None

        # File: torchvision/models/vision_transformer.py:117 in forward, code: y = self.ln_2(x)
        y_1: "f32[2, 17, 64]" = torch.nn.functional.layer_norm(x_11, (64,), l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_2_parameters_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_2_parameters_bias_, 1e-06);  l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_2_parameters_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_ln_2_parameters_bias_ = None

        # File: torchvision/models/vision_transformer.py:118 in forward, code: y = self.mlp(y)
        input_8: "f32[2, 17, 128]" = torch._C._nn.linear(y_1, l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_0_parameters_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_0_parameters_bias_);  y_1 = l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_0_parameters_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_0_parameters_bias_ = None
        input_9: "f32[2, 17, 128]" = torch._C._nn.gelu(input_8, approximate = 'none');  input_8 = None
        input_10: "f32[2, 17, 128]" = torch.nn.functional.dropout(input_9, 0.0, False, False);  input_9 = None
        input_11: "f32[2, 17, 64]" = torch._C._nn.linear(input_10, l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_3_parameters_weight_, l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_3_parameters_bias_);  input_10 = l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_3_parameters_weight_ = l_self_modules_encoder_modules_layers_modules_encoder_layer_1_modules_mlp_modules_3_parameters_bias_ = None
        input_12: "f32[2, 17, 64]" = torch.nn.functional.dropout(input_11, 0.0, False, False);  input_11 = None

        # File: torchvision/models/vision_transformer.py:119 in forward, code: return x + y
        input_13: "f32[2, 17, 64]" = x_11 + input_12;  x_11 = input_12 = None

        # File: torchvision/models/vision_transformer.py:157 in forward, code: return self.ln(self.layers(self.dropout(input)))
        x_12: "f32[2, 17, 64]" = torch.nn.functional.layer_norm(input_13, (64,), l_self_modules_encoder_modules_ln_parameters_weight_, l_self_modules_encoder_modules_ln_parameters_bias_, 1e-06);  input_13 = l_self_modules_encoder_modules_ln_parameters_weight_ = l_self_modules_encoder_modules_ln_parameters_bias_ = None

        # File: torchvision/models/vision_transformer.py:301 in forward, code: x = x[:, 0]
        x_13: "f32[2, 64]" = x_12[(slice(None, None, None), 0)];  x_12 = None

        # File: torchvision/models/vision_transformer.py:303 in forward, code: x = self.heads(x)
        input_14: "f32[2, 10]" = torch._C._nn.linear(x_13, l_self_modules_heads_modules_head_parameters_weight_, l_self_modules_heads_modules_head_parameters_bias_);  x_13 = l_self_modules_heads_modules_head_parameters_weight_ = l_self_modules_heads_modules_head_parameters_bias_ = None
        return (input_14,)
