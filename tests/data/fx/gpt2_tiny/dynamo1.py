class GraphModule(torch.nn.Module):
    def forward(self, L_ids_: "i64[2, 16]", L_self_modules_m_modules_wte_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_wpe_parameters_weight_: "f32[32, 64]", L_self_modules_m_modules_h_modules_0_modules_ln_1_parameters_weight_: "f32[64]", L_self_modules_m_modules_h_modules_0_modules_ln_1_parameters_bias_: "f32[64]", L_self_modules_m_modules_h_modules_0_modules_attn_modules_c_attn_parameters_bias_: "f32[192]", L_self_modules_m_modules_h_modules_0_modules_attn_modules_c_attn_parameters_weight_: "f32[64, 192]", L_self_modules_m_modules_h_modules_0_modules_attn_modules_c_proj_parameters_bias_: "f32[64]", L_self_modules_m_modules_h_modules_0_modules_attn_modules_c_proj_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_h_modules_0_modules_ln_2_parameters_weight_: "f32[64]", L_self_modules_m_modules_h_modules_0_modules_ln_2_parameters_bias_: "f32[64]", L_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_fc_parameters_bias_: "f32[256]", L_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_fc_parameters_weight_: "f32[64, 256]", L_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_proj_parameters_bias_: "f32[64]", L_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_proj_parameters_weight_: "f32[256, 64]", L_self_modules_m_modules_h_modules_1_modules_ln_1_parameters_weight_: "f32[64]", L_self_modules_m_modules_h_modules_1_modules_ln_1_parameters_bias_: "f32[64]", L_self_modules_m_modules_h_modules_1_modules_attn_modules_c_attn_parameters_bias_: "f32[192]", L_self_modules_m_modules_h_modules_1_modules_attn_modules_c_attn_parameters_weight_: "f32[64, 192]", L_self_modules_m_modules_h_modules_1_modules_attn_modules_c_proj_parameters_bias_: "f32[64]", L_self_modules_m_modules_h_modules_1_modules_attn_modules_c_proj_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_h_modules_1_modules_ln_2_parameters_weight_: "f32[64]", L_self_modules_m_modules_h_modules_1_modules_ln_2_parameters_bias_: "f32[64]", L_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_fc_parameters_bias_: "f32[256]", L_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_fc_parameters_weight_: "f32[64, 256]", L_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_proj_parameters_bias_: "f32[64]", L_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_proj_parameters_weight_: "f32[256, 64]", L_self_modules_m_modules_ln_f_parameters_weight_: "f32[64]", L_self_modules_m_modules_ln_f_parameters_bias_: "f32[64]"):
        l_ids_ = L_ids_
        l_self_modules_m_modules_wte_parameters_weight_ = L_self_modules_m_modules_wte_parameters_weight_
        l_self_modules_m_modules_wpe_parameters_weight_ = L_self_modules_m_modules_wpe_parameters_weight_
        l_self_modules_m_modules_h_modules_0_modules_ln_1_parameters_weight_ = L_self_modules_m_modules_h_modules_0_modules_ln_1_parameters_weight_
        l_self_modules_m_modules_h_modules_0_modules_ln_1_parameters_bias_ = L_self_modules_m_modules_h_modules_0_modules_ln_1_parameters_bias_
        l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_attn_parameters_bias_ = L_self_modules_m_modules_h_modules_0_modules_attn_modules_c_attn_parameters_bias_
        l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_attn_parameters_weight_ = L_self_modules_m_modules_h_modules_0_modules_attn_modules_c_attn_parameters_weight_
        l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_proj_parameters_bias_ = L_self_modules_m_modules_h_modules_0_modules_attn_modules_c_proj_parameters_bias_
        l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_proj_parameters_weight_ = L_self_modules_m_modules_h_modules_0_modules_attn_modules_c_proj_parameters_weight_
        l_self_modules_m_modules_h_modules_0_modules_ln_2_parameters_weight_ = L_self_modules_m_modules_h_modules_0_modules_ln_2_parameters_weight_
        l_self_modules_m_modules_h_modules_0_modules_ln_2_parameters_bias_ = L_self_modules_m_modules_h_modules_0_modules_ln_2_parameters_bias_
        l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_fc_parameters_bias_ = L_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_fc_parameters_bias_
        l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_fc_parameters_weight_ = L_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_fc_parameters_weight_
        l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_proj_parameters_bias_ = L_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_proj_parameters_bias_
        l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_proj_parameters_weight_ = L_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_proj_parameters_weight_
        l_self_modules_m_modules_h_modules_1_modules_ln_1_parameters_weight_ = L_self_modules_m_modules_h_modules_1_modules_ln_1_parameters_weight_
        l_self_modules_m_modules_h_modules_1_modules_ln_1_parameters_bias_ = L_self_modules_m_modules_h_modules_1_modules_ln_1_parameters_bias_
        l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_attn_parameters_bias_ = L_self_modules_m_modules_h_modules_1_modules_attn_modules_c_attn_parameters_bias_
        l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_attn_parameters_weight_ = L_self_modules_m_modules_h_modules_1_modules_attn_modules_c_attn_parameters_weight_
        l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_proj_parameters_bias_ = L_self_modules_m_modules_h_modules_1_modules_attn_modules_c_proj_parameters_bias_
        l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_proj_parameters_weight_ = L_self_modules_m_modules_h_modules_1_modules_attn_modules_c_proj_parameters_weight_
        l_self_modules_m_modules_h_modules_1_modules_ln_2_parameters_weight_ = L_self_modules_m_modules_h_modules_1_modules_ln_2_parameters_weight_
        l_self_modules_m_modules_h_modules_1_modules_ln_2_parameters_bias_ = L_self_modules_m_modules_h_modules_1_modules_ln_2_parameters_bias_
        l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_fc_parameters_bias_ = L_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_fc_parameters_bias_
        l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_fc_parameters_weight_ = L_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_fc_parameters_weight_
        l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_proj_parameters_bias_ = L_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_proj_parameters_bias_
        l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_proj_parameters_weight_ = L_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_proj_parameters_weight_
        l_self_modules_m_modules_ln_f_parameters_weight_ = L_self_modules_m_modules_ln_f_parameters_weight_
        l_self_modules_m_modules_ln_f_parameters_bias_ = L_self_modules_m_modules_ln_f_parameters_bias_

        # File: transformers/models/gpt2/modeling_gpt2.py:549 in forward, code: input_ids = input_ids.view(-1, input_shape[-1])
        input_ids: "i64[2, 16]" = l_ids_.view(-1, 16);  l_ids_ = None

        # File: transformers/models/gpt2/modeling_gpt2.py:569 in forward, code: inputs_embeds = self.wte(input_ids)
        inputs_embeds: "f32[2, 16, 64]" = torch.nn.functional.embedding(input_ids, l_self_modules_m_modules_wte_parameters_weight_, None, None, 2.0, False, False);  input_ids = l_self_modules_m_modules_wte_parameters_weight_ = None

        # File: transformers/models/gpt2/modeling_gpt2.py:573 in forward, code: position_ids = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device) + past_seen_tokens
        arange: "i64[16]" = torch.arange(16, device = device(type='cpu'))
        position_ids: "i64[16]" = arange + 0;  arange = None

        # File: transformers/models/gpt2/modeling_gpt2.py:574 in forward, code: position_ids = position_ids.unsqueeze(0)
        position_ids_1: "i64[1, 16]" = position_ids.unsqueeze(0);  position_ids = None

        # File: transformers/models/gpt2/modeling_gpt2.py:576 in forward, code: position_embeds = self.wpe(position_ids)
        position_embeds: "f32[1, 16, 64]" = torch.nn.functional.embedding(position_ids_1, l_self_modules_m_modules_wpe_parameters_weight_, None, None, 2.0, False, False);  l_self_modules_m_modules_wpe_parameters_weight_ = None

        # File: transformers/models/gpt2/modeling_gpt2.py:577 in forward, code: hidden_states = inputs_embeds + position_embeds.to(inputs_embeds.device)
        to: "f32[1, 16, 64]" = position_embeds.to(device(type='cpu'));  position_embeds = None
        hidden_states: "f32[2, 16, 64]" = inputs_embeds + to;  inputs_embeds = to = None

        # File: transformers/masking_utils.py:859 in _preprocess_mask_arguments, code: position_ids = position_ids.expand(batch_size, -1)
        position_ids_2: "i64[2, 16]" = position_ids_1.expand(2, -1);  position_ids_1 = None

        # File: transformers/masking_utils.py:750 in find_packed_sequence_indices, code: first_dummy_value = position_ids[:, :1] - 1  # We just need the diff on this first value to be 1
        getitem: "i64[2, 1]" = position_ids_2[(slice(None, None, None), slice(None, 1, None))]
        first_dummy_value: "i64[2, 1]" = getitem - 1;  getitem = None

        # File: transformers/masking_utils.py:751 in find_packed_sequence_indices, code: position_diff = torch.diff(position_ids, prepend=first_dummy_value, dim=-1)
        position_diff: "i64[2, 16]" = torch.diff(position_ids_2, prepend = first_dummy_value, dim = -1);  position_ids_2 = first_dummy_value = None

        # File: transformers/masking_utils.py:752 in find_packed_sequence_indices, code: packed_sequence_mask = (position_diff != 1).cumsum(-1)
        ne: "b8[2, 16]" = position_diff != 1;  position_diff = None
        packed_sequence_mask: "i64[2, 16]" = ne.cumsum(-1);  ne = None

        # File: transformers/masking_utils.py:508 in sdpa_mask, code: batch_arange = torch.arange(batch_size, device=device)
        batch_arange: "i64[2]" = torch.arange(2, device = device(type='cpu'))

        # File: transformers/masking_utils.py:509 in sdpa_mask, code: head_arange = torch.arange(1, device=device)
        head_arange: "i64[1]" = torch.arange(1, device = device(type='cpu'));  head_arange = None

        # File: transformers/masking_utils.py:510 in sdpa_mask, code: q_arange = torch.arange(q_length, device=device) + q_offset
        arange_3: "i64[16]" = torch.arange(16, device = device(type='cpu'))
        q_arange: "i64[16]" = arange_3 + 0;  arange_3 = None

        # File: transformers/masking_utils.py:511 in sdpa_mask, code: kv_arange = torch.arange(kv_length, device=device) + kv_offset
        arange_4: "i64[16]" = torch.arange(16, device = device(type='cpu'))
        kv_arange: "i64[16]" = arange_4 + 0;  arange_4 = None

        # File: transformers/masking_utils.py:365 in _non_vmap_expansion_sdpa, code: batch_indices = batch_indices[:, None, None, None]
        batch_indices: "i64[2, 1, 1, 1]" = batch_arange[(slice(None, None, None), None, None, None)];  batch_arange = None

        # File: transformers/masking_utils.py:367 in _non_vmap_expansion_sdpa, code: q_indices = q_indices[None, None, :, None]
        q_indices: "i64[1, 1, 16, 1]" = q_arange[(None, None, slice(None, None, None), None)];  q_arange = None

        # File: transformers/masking_utils.py:368 in _non_vmap_expansion_sdpa, code: kv_indices = kv_indices[None, None, None, :]
        kv_indices: "i64[1, 1, 1, 16]" = kv_arange[(None, None, None, slice(None, None, None))];  kv_arange = None

        # File: transformers/masking_utils.py:55 in and_mask, code: result = q_idx.new_ones((), dtype=torch.bool)
        result: "b8[]" = q_indices.new_ones((), dtype = torch.bool)

        # File: transformers/masking_utils.py:81 in causal_mask_function, code: return kv_idx <= q_idx
        le: "b8[1, 1, 16, 16]" = kv_indices <= q_indices

        # File: transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        to_1: "b8[1, 1, 16, 16]" = le.to(device(type='cpu'));  le = None
        result_1: "b8[1, 1, 16, 16]" = result & to_1;  result = to_1 = None

        # File: transformers/masking_utils.py:189 in inner_mask, code: return packed_sequence_mask[batch_idx, q_idx] == packed_sequence_mask[batch_idx, kv_idx]
        getitem_5: "i64[2, 1, 16, 1]" = packed_sequence_mask[(batch_indices, q_indices)];  q_indices = None
        getitem_6: "i64[2, 1, 1, 16]" = packed_sequence_mask[(batch_indices, kv_indices)];  packed_sequence_mask = batch_indices = kv_indices = None
        eq: "b8[2, 1, 16, 16]" = getitem_5.__eq__(getitem_6);  getitem_5 = getitem_6 = None

        # File: transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        to_2: "b8[2, 1, 16, 16]" = eq.to(device(type='cpu'));  eq = None
        result_2: "b8[2, 1, 16, 16]" = result_1 & to_2;  result_1 = to_2 = None

        # File: transformers/masking_utils.py:519 in sdpa_mask, code: attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)
        attention_mask: "b8[2, 1, 16, 16]" = result_2.expand(2, -1, 16, 16);  result_2 = None

        # File: transformers/masking_utils.py:604 in eager_mask, code: mask = torch.where(mask, torch.tensor(0.0, device=mask.device, dtype=dtype), min_dtype)
        tensor: "f32[]" = torch.tensor(0.0, device = device(type='cpu'), dtype = torch.float32)
        mask: "f32[2, 1, 16, 16]" = torch.where(attention_mask, tensor, -3.4028234663852886e+38);  attention_mask = tensor = None

        # File: transformers/models/gpt2/modeling_gpt2.py:603 in forward, code: hidden_states = self.drop(hidden_states)
        hidden_states_1: "f32[2, 16, 64]" = torch.nn.functional.dropout(hidden_states, 0.1, False, False);  hidden_states = None

        # File: transformers/models/gpt2/modeling_gpt2.py:273 in forward, code: hidden_states = self.ln_1(hidden_states)
        hidden_states_2: "f32[2, 16, 64]" = torch.nn.functional.layer_norm(hidden_states_1, (64,), l_self_modules_m_modules_h_modules_0_modules_ln_1_parameters_weight_, l_self_modules_m_modules_h_modules_0_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_m_modules_h_modules_0_modules_ln_1_parameters_weight_ = l_self_modules_m_modules_h_modules_0_modules_ln_1_parameters_bias_ = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_1: "f32[32, 64]" = hidden_states_2.view(-1, 64);  hidden_states_2 = None
        x: "f32[32, 192]" = torch.addmm(l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_attn_parameters_bias_, view_1, l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_attn_parameters_weight_);  l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_attn_parameters_bias_ = view_1 = l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_attn_parameters_weight_ = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        x_1: "f32[2, 16, 192]" = x.view((2, 16, 192));  x = None

        # File: transformers/models/gpt2/modeling_gpt2.py:185 in forward, code: query_states, key_states, value_states = self.c_attn(hidden_states).split(self.split_size, dim=2)
        split = x_1.split(64, dim = 2);  x_1 = None
        query_states: "f32[2, 16, 64]" = split[0]
        key_states: "f32[2, 16, 64]" = split[1]
        value_states: "f32[2, 16, 64]" = split[2];  split = None

        # File: transformers/models/gpt2/modeling_gpt2.py:187 in forward, code: key_states = key_states.view(shape_kv).transpose(1, 2)
        view_3: "f32[2, 16, 2, 32]" = key_states.view((2, 16, -1, 32));  key_states = None
        key_states_1: "f32[2, 2, 16, 32]" = view_3.transpose(1, 2);  view_3 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:188 in forward, code: value_states = value_states.view(shape_kv).transpose(1, 2)
        view_4: "f32[2, 16, 2, 32]" = value_states.view((2, 16, -1, 32));  value_states = None
        value_states_1: "f32[2, 2, 16, 32]" = view_4.transpose(1, 2);  view_4 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:191 in forward, code: query_states = query_states.view(shape_q).transpose(1, 2)
        view_5: "f32[2, 16, 2, 32]" = query_states.view((2, 16, -1, 32));  query_states = None
        query_states_1: "f32[2, 2, 16, 32]" = view_5.transpose(1, 2);  view_5 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:58 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(-1, -2)) * scaling
        transpose_3: "f32[2, 2, 32, 16]" = key_states_1.transpose(-1, -2);  key_states_1 = None
        matmul: "f32[2, 2, 16, 16]" = torch.matmul(query_states_1, transpose_3);  query_states_1 = transpose_3 = None
        attn_weights: "f32[2, 2, 16, 16]" = matmul * 0.1767766952966369;  matmul = None

        # File: transformers/models/gpt2/modeling_gpt2.py:61 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        attn_weights_1: "f32[2, 2, 16, 16]" = attn_weights + mask;  attn_weights = None

        # File: transformers/models/gpt2/modeling_gpt2.py:63 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        attn_weights_2: "f32[2, 2, 16, 16]" = torch.nn.functional.softmax(attn_weights_1, dim = -1);  attn_weights_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:66 in eager_attention_forward, code: attn_weights = attn_weights.type(value.dtype)
        attn_weights_3: "f32[2, 2, 16, 16]" = attn_weights_2.type(torch.float32);  attn_weights_2 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:67 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        attn_weights_4: "f32[2, 2, 16, 16]" = torch.nn.functional.dropout(attn_weights_3, p = 0.0, training = False);  attn_weights_3 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:69 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        attn_output: "f32[2, 2, 16, 32]" = torch.matmul(attn_weights_4, value_states_1);  attn_weights_4 = value_states_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:70 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2)
        attn_output_1: "f32[2, 16, 2, 32]" = attn_output.transpose(1, 2);  attn_output = None

        # File: transformers/models/gpt2/modeling_gpt2.py:222 in forward, code: attn_output = attn_output.reshape(*attn_output.shape[:-2], -1).contiguous()
        reshape: "f32[2, 16, 64]" = attn_output_1.reshape(2, 16, -1);  attn_output_1 = None
        attn_output_2: "f32[2, 16, 64]" = reshape.contiguous();  reshape = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_6: "f32[32, 64]" = attn_output_2.view(-1, 64);  attn_output_2 = None
        x_2: "f32[32, 64]" = torch.addmm(l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_proj_parameters_bias_, view_6, l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_proj_parameters_weight_);  l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_proj_parameters_bias_ = view_6 = l_self_modules_m_modules_h_modules_0_modules_attn_modules_c_proj_parameters_weight_ = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        x_3: "f32[2, 16, 64]" = x_2.view((2, 16, 64));  x_2 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:224 in forward, code: attn_output = self.resid_dropout(attn_output)
        attn_output_3: "f32[2, 16, 64]" = torch.nn.functional.dropout(x_3, 0.1, False, False);  x_3 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:282 in forward, code: hidden_states = attn_output + residual
        hidden_states_3: "f32[2, 16, 64]" = attn_output_3 + hidden_states_1;  attn_output_3 = hidden_states_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:304 in forward, code: hidden_states = self.ln_2(hidden_states)
        hidden_states_4: "f32[2, 16, 64]" = torch.nn.functional.layer_norm(hidden_states_3, (64,), l_self_modules_m_modules_h_modules_0_modules_ln_2_parameters_weight_, l_self_modules_m_modules_h_modules_0_modules_ln_2_parameters_bias_, 1e-05);  l_self_modules_m_modules_h_modules_0_modules_ln_2_parameters_weight_ = l_self_modules_m_modules_h_modules_0_modules_ln_2_parameters_bias_ = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_8: "f32[32, 64]" = hidden_states_4.view(-1, 64);  hidden_states_4 = None
        x_4: "f32[32, 256]" = torch.addmm(l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_fc_parameters_bias_, view_8, l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_fc_parameters_weight_);  l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_fc_parameters_bias_ = view_8 = l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_fc_parameters_weight_ = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        x_5: "f32[2, 16, 256]" = x_4.view((2, 16, 256));  x_4 = None

        # File: transformers/activations.py:66 in forward, code: return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))
        mul_1: "f32[2, 16, 256]" = 0.5 * x_5
        pow_1: "f32[2, 16, 256]" = torch.pow(x_5, 3.0)
        mul_2: "f32[2, 16, 256]" = 0.044715 * pow_1;  pow_1 = None
        add_6: "f32[2, 16, 256]" = x_5 + mul_2;  x_5 = mul_2 = None
        mul_3: "f32[2, 16, 256]" = 0.7978845608028654 * add_6;  add_6 = None
        tanh: "f32[2, 16, 256]" = torch.tanh(mul_3);  mul_3 = None
        add_7: "f32[2, 16, 256]" = 1.0 + tanh;  tanh = None
        hidden_states_5: "f32[2, 16, 256]" = mul_1 * add_7;  mul_1 = add_7 = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_10: "f32[32, 256]" = hidden_states_5.view(-1, 256);  hidden_states_5 = None
        x_6: "f32[32, 64]" = torch.addmm(l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_proj_parameters_bias_, view_10, l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_proj_parameters_weight_);  l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_proj_parameters_bias_ = view_10 = l_self_modules_m_modules_h_modules_0_modules_mlp_modules_c_proj_parameters_weight_ = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        x_7: "f32[2, 16, 64]" = x_6.view((2, 16, 64));  x_6 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:242 in forward, code: hidden_states = self.dropout(hidden_states)
        hidden_states_6: "f32[2, 16, 64]" = torch.nn.functional.dropout(x_7, 0.1, False, False);  x_7 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:307 in forward, code: hidden_states = residual + feed_forward_hidden_states
        hidden_states_7: "f32[2, 16, 64]" = hidden_states_3 + hidden_states_6;  hidden_states_3 = hidden_states_6 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:273 in forward, code: hidden_states = self.ln_1(hidden_states)
        hidden_states_8: "f32[2, 16, 64]" = torch.nn.functional.layer_norm(hidden_states_7, (64,), l_self_modules_m_modules_h_modules_1_modules_ln_1_parameters_weight_, l_self_modules_m_modules_h_modules_1_modules_ln_1_parameters_bias_, 1e-05);  l_self_modules_m_modules_h_modules_1_modules_ln_1_parameters_weight_ = l_self_modules_m_modules_h_modules_1_modules_ln_1_parameters_bias_ = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_12: "f32[32, 64]" = hidden_states_8.view(-1, 64);  hidden_states_8 = None
        x_8: "f32[32, 192]" = torch.addmm(l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_attn_parameters_bias_, view_12, l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_attn_parameters_weight_);  l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_attn_parameters_bias_ = view_12 = l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_attn_parameters_weight_ = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        x_9: "f32[2, 16, 192]" = x_8.view((2, 16, 192));  x_8 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:185 in forward, code: query_states, key_states, value_states = self.c_attn(hidden_states).split(self.split_size, dim=2)
        split_1 = x_9.split(64, dim = 2);  x_9 = None
        query_states_2: "f32[2, 16, 64]" = split_1[0]
        key_states_2: "f32[2, 16, 64]" = split_1[1]
        value_states_2: "f32[2, 16, 64]" = split_1[2];  split_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:187 in forward, code: key_states = key_states.view(shape_kv).transpose(1, 2)
        view_14: "f32[2, 16, 2, 32]" = key_states_2.view((2, 16, -1, 32));  key_states_2 = None
        key_states_3: "f32[2, 2, 16, 32]" = view_14.transpose(1, 2);  view_14 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:188 in forward, code: value_states = value_states.view(shape_kv).transpose(1, 2)
        view_15: "f32[2, 16, 2, 32]" = value_states_2.view((2, 16, -1, 32));  value_states_2 = None
        value_states_3: "f32[2, 2, 16, 32]" = view_15.transpose(1, 2);  view_15 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:191 in forward, code: query_states = query_states.view(shape_q).transpose(1, 2)
        view_16: "f32[2, 16, 2, 32]" = query_states_2.view((2, 16, -1, 32));  query_states_2 = None
        query_states_3: "f32[2, 2, 16, 32]" = view_16.transpose(1, 2);  view_16 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:58 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(-1, -2)) * scaling
        transpose_8: "f32[2, 2, 32, 16]" = key_states_3.transpose(-1, -2);  key_states_3 = None
        matmul_2: "f32[2, 2, 16, 16]" = torch.matmul(query_states_3, transpose_8);  query_states_3 = transpose_8 = None
        attn_weights_5: "f32[2, 2, 16, 16]" = matmul_2 * 0.1767766952966369;  matmul_2 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:61 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        attn_weights_6: "f32[2, 2, 16, 16]" = attn_weights_5 + mask;  attn_weights_5 = mask = None

        # File: transformers/models/gpt2/modeling_gpt2.py:63 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        attn_weights_7: "f32[2, 2, 16, 16]" = torch.nn.functional.softmax(attn_weights_6, dim = -1);  attn_weights_6 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:66 in eager_attention_forward, code: attn_weights = attn_weights.type(value.dtype)
        attn_weights_8: "f32[2, 2, 16, 16]" = attn_weights_7.type(torch.float32);  attn_weights_7 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:67 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        attn_weights_9: "f32[2, 2, 16, 16]" = torch.nn.functional.dropout(attn_weights_8, p = 0.0, training = False);  attn_weights_8 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:69 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        attn_output_4: "f32[2, 2, 16, 32]" = torch.matmul(attn_weights_9, value_states_3);  attn_weights_9 = value_states_3 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:70 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2)
        attn_output_5: "f32[2, 16, 2, 32]" = attn_output_4.transpose(1, 2);  attn_output_4 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:222 in forward, code: attn_output = attn_output.reshape(*attn_output.shape[:-2], -1).contiguous()
        reshape_1: "f32[2, 16, 64]" = attn_output_5.reshape(2, 16, -1);  attn_output_5 = None
        attn_output_6: "f32[2, 16, 64]" = reshape_1.contiguous();  reshape_1 = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_17: "f32[32, 64]" = attn_output_6.view(-1, 64);  attn_output_6 = None
        x_10: "f32[32, 64]" = torch.addmm(l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_proj_parameters_bias_, view_17, l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_proj_parameters_weight_);  l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_proj_parameters_bias_ = view_17 = l_self_modules_m_modules_h_modules_1_modules_attn_modules_c_proj_parameters_weight_ = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        x_11: "f32[2, 16, 64]" = x_10.view((2, 16, 64));  x_10 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:224 in forward, code: attn_output = self.resid_dropout(attn_output)
        attn_output_7: "f32[2, 16, 64]" = torch.nn.functional.dropout(x_11, 0.1, False, False);  x_11 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:282 in forward, code: hidden_states = attn_output + residual
        hidden_states_9: "f32[2, 16, 64]" = attn_output_7 + hidden_states_7;  attn_output_7 = hidden_states_7 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:304 in forward, code: hidden_states = self.ln_2(hidden_states)
        hidden_states_10: "f32[2, 16, 64]" = torch.nn.functional.layer_norm(hidden_states_9, (64,), l_self_modules_m_modules_h_modules_1_modules_ln_2_parameters_weight_, l_self_modules_m_modules_h_modules_1_modules_ln_2_parameters_bias_, 1e-05);  l_self_modules_m_modules_h_modules_1_modules_ln_2_parameters_weight_ = l_self_modules_m_modules_h_modules_1_modules_ln_2_parameters_bias_ = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_19: "f32[32, 64]" = hidden_states_10.view(-1, 64);  hidden_states_10 = None
        x_12: "f32[32, 256]" = torch.addmm(l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_fc_parameters_bias_, view_19, l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_fc_parameters_weight_);  l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_fc_parameters_bias_ = view_19 = l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_fc_parameters_weight_ = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        x_13: "f32[2, 16, 256]" = x_12.view((2, 16, 256));  x_12 = None

        # File: transformers/activations.py:66 in forward, code: return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))
        mul_6: "f32[2, 16, 256]" = 0.5 * x_13
        pow_2: "f32[2, 16, 256]" = torch.pow(x_13, 3.0)
        mul_7: "f32[2, 16, 256]" = 0.044715 * pow_2;  pow_2 = None
        add_11: "f32[2, 16, 256]" = x_13 + mul_7;  x_13 = mul_7 = None
        mul_8: "f32[2, 16, 256]" = 0.7978845608028654 * add_11;  add_11 = None
        tanh_1: "f32[2, 16, 256]" = torch.tanh(mul_8);  mul_8 = None
        add_12: "f32[2, 16, 256]" = 1.0 + tanh_1;  tanh_1 = None
        hidden_states_11: "f32[2, 16, 256]" = mul_6 * add_12;  mul_6 = add_12 = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_21: "f32[32, 256]" = hidden_states_11.view(-1, 256);  hidden_states_11 = None
        x_14: "f32[32, 64]" = torch.addmm(l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_proj_parameters_bias_, view_21, l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_proj_parameters_weight_);  l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_proj_parameters_bias_ = view_21 = l_self_modules_m_modules_h_modules_1_modules_mlp_modules_c_proj_parameters_weight_ = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        x_15: "f32[2, 16, 64]" = x_14.view((2, 16, 64));  x_14 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:242 in forward, code: hidden_states = self.dropout(hidden_states)
        hidden_states_12: "f32[2, 16, 64]" = torch.nn.functional.dropout(x_15, 0.1, False, False);  x_15 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:307 in forward, code: hidden_states = residual + feed_forward_hidden_states
        hidden_states_13: "f32[2, 16, 64]" = hidden_states_9 + hidden_states_12;  hidden_states_9 = hidden_states_12 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:619 in forward, code: hidden_states = self.ln_f(hidden_states)
        hidden_states_14: "f32[2, 16, 64]" = torch.nn.functional.layer_norm(hidden_states_13, (64,), l_self_modules_m_modules_ln_f_parameters_weight_, l_self_modules_m_modules_ln_f_parameters_bias_, 1e-05);  hidden_states_13 = l_self_modules_m_modules_ln_f_parameters_weight_ = l_self_modules_m_modules_ln_f_parameters_bias_ = None

        # File: transformers/models/gpt2/modeling_gpt2.py:621 in forward, code: hidden_states = hidden_states.view(output_shape)
        hidden_states_15: "f32[2, 16, 64]" = hidden_states_14.view((-1, 16, 64));  hidden_states_14 = None
        return (hidden_states_15,)
