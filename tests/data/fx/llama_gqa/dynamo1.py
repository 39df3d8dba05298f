class GraphModule(torch.nn.Module):
    def forward(self, L_ids_: "i64[2, 16]", L_self_modules_m_modules_embed_tokens_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_rotary_emb_buffers_inv_freq_: "f32[8]", L_self_modules_m_modules_layers_modules_0_modules_input_layernorm_parameters_weight_: "f32[64]", L_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_q_proj_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_k_proj_parameters_weight_: "f32[32, 64]", L_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_weight_: "f32[32, 64]", L_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_o_proj_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_layers_modules_0_modules_post_attention_layernorm_parameters_weight_: "f32[64]", L_self_modules_m_modules_layers_modules_0_modules_mlp_modules_gate_proj_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_: "f32[64, 128]", L_self_modules_m_modules_layers_modules_1_modules_input_layernorm_parameters_weight_: "f32[64]", L_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_k_proj_parameters_weight_: "f32[32, 64]", L_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_v_proj_parameters_weight_: "f32[32, 64]", L_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_o_proj_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_layers_modules_1_modules_post_attention_layernorm_parameters_weight_: "f32[64]", L_self_modules_m_modules_layers_modules_1_modules_mlp_modules_gate_proj_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_layers_modules_1_modules_mlp_modules_up_proj_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_: "f32[64, 128]", L_self_modules_m_modules_norm_parameters_weight_: "f32[64]"):
        l_ids_ = L_ids_
        l_self_modules_m_modules_embed_tokens_parameters_weight_ = L_self_modules_m_modules_embed_tokens_parameters_weight_
        l_self_modules_m_modules_rotary_emb_buffers_inv_freq_ = L_self_modules_m_modules_rotary_emb_buffers_inv_freq_
        l_self_modules_m_modules_layers_modules_0_modules_input_layernorm_parameters_weight_ = L_self_modules_m_modules_layers_modules_0_modules_input_layernorm_parameters_weight_
        l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_q_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_q_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_k_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_k_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_o_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_o_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_0_modules_post_attention_layernorm_parameters_weight_ = L_self_modules_m_modules_layers_modules_0_modules_post_attention_layernorm_parameters_weight_
        l_self_modules_m_modules_layers_modules_0_modules_mlp_modules_gate_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_0_modules_mlp_modules_gate_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_1_modules_input_layernorm_parameters_weight_ = L_self_modules_m_modules_layers_modules_1_modules_input_layernorm_parameters_weight_
        l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_k_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_k_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_v_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_v_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_o_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_o_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_1_modules_post_attention_layernorm_parameters_weight_ = L_self_modules_m_modules_layers_modules_1_modules_post_attention_layernorm_parameters_weight_
        l_self_modules_m_modules_layers_modules_1_modules_mlp_modules_gate_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_1_modules_mlp_modules_gate_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_1_modules_mlp_modules_up_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_1_modules_mlp_modules_up_proj_parameters_weight_
        l_self_modules_m_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_ = L_self_modules_m_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_
        l_self_modules_m_modules_norm_parameters_weight_ = L_self_modules_m_modules_norm_parameters_weight_

        # File: transformers/models/llama/modeling_llama.py:381 in forward, code: inputs_embeds: torch.Tensor = self.embed_tokens(input_ids)
        inputs_embeds: "f32[2, 16, 64]" = torch.nn.functional.embedding(l_ids_, l_self_modules_m_modules_embed_tokens_parameters_weight_, None, None, 2.0, False, False);  l_ids_ = l_self_modules_m_modules_embed_tokens_parameters_weight_ = None

        # File: transformers/models/llama/modeling_llama.py:388 in forward, code: position_ids = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device) + past_seen_tokens
        arange: "i64[16]" = torch.arange(16, device = device(type='cpu'))
        position_ids: "i64[16]" = arange + 0;  arange = None

        # File: transformers/models/llama/modeling_llama.py:389 in forward, code: position_ids = position_ids.unsqueeze(0)
        position_ids_1: "i64[1, 16]" = position_ids.unsqueeze(0);  position_ids = None

        # File: transformers/masking_utils.py:859 in _preprocess_mask_arguments, code: position_ids = position_ids.expand(batch_size, -1)
        position_ids_2: "i64[2, 16]" = position_ids_1.expand(2, -1)

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
        to: "b8[1, 1, 16, 16]" = le.to(device(type='cpu'));  le = None
        result_1: "b8[1, 1, 16, 16]" = result & to;  result = to = None

        # File: transformers/masking_utils.py:189 in inner_mask, code: return packed_sequence_mask[batch_idx, q_idx] == packed_sequence_mask[batch_idx, kv_idx]
        getitem_5: "i64[2, 1, 16, 1]" = packed_sequence_mask[(batch_indices, q_indices)];  q_indices = None
        getitem_6: "i64[2, 1, 1, 16]" = packed_sequence_mask[(batch_indices, kv_indices)];  packed_sequence_mask = batch_indices = kv_indices = None
        eq: "b8[2, 1, 16, 16]" = getitem_5.__eq__(getitem_6);  getitem_5 = getitem_6 = None

        # File: transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        to_1: "b8[2, 1, 16, 16]" = eq.to(device(type='cpu'));  eq = None
        result_2: "b8[2, 1, 16, 16]" = result_1 & to_1;  result_1 = to_1 = None

        # File: transformers/masking_utils.py:519 in sdpa_mask, code: attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)
        attention_mask: "b8[2, 1, 16, 16]" = result_2.expand(2, -1, 16, 16);  result_2 = None

        # File: transformers/masking_utils.py:604 in eager_mask, code: mask = torch.where(mask, torch.tensor(0.0, device=mask.device, dtype=dtype), min_dtype)
        tensor: "f32[]" = torch.tensor(0.0, device = device(type='cpu'), dtype = torch.float32)
        mask: "f32[2, 1, 16, 16]" = torch.where(attention_mask, tensor, -3.4028234663852886e+38);  attention_mask = tensor = None

        # File: transformers/models/llama/modeling_llama.py:115 in forward, code: self.inv_freq[None, :, None].expand(position_ids.shape[0], -1, 1).to(dtype=torch.float, device=x.device)
        getitem_7: "f32[1, 8, 1]" = l_self_modules_m_modules_rotary_emb_buffers_inv_freq_[(None, slice(None, None, None), None)];  l_self_modules_m_modules_rotary_emb_buffers_inv_freq_ = None
        expand_2: "f32[1, 8, 1]" = getitem_7.expand(1, -1, 1);  getitem_7 = None
        inv_freq_expanded: "f32[1, 8, 1]" = expand_2.to(dtype = torch.float32, device = device(type='cpu'));  expand_2 = None

        # File: transformers/models/llama/modeling_llama.py:117 in forward, code: position_ids_expanded = position_ids[:, None, :].float()
        getitem_8: "i64[1, 1, 16]" = position_ids_1[(slice(None, None, None), None, slice(None, None, None))];  position_ids_1 = None
        position_ids_expanded: "f32[1, 1, 16]" = getitem_8.float();  getitem_8 = None

        # File: transformers/models/llama/modeling_llama.py:122 in forward, code: freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        matmul: "f32[1, 8, 16]" = inv_freq_expanded @ position_ids_expanded;  inv_freq_expanded = position_ids_expanded = None
        freqs: "f32[1, 16, 8]" = matmul.transpose(1, 2);  matmul = None

        # File: transformers/models/llama/modeling_llama.py:123 in forward, code: emb = torch.cat((freqs, freqs), dim=-1)
        emb: "f32[1, 16, 16]" = torch.cat((freqs, freqs), dim = -1);  freqs = None

        # File: transformers/models/llama/modeling_llama.py:124 in forward, code: cos = emb.cos() * self.attention_scaling
        cos: "f32[1, 16, 16]" = emb.cos()
        cos_1: "f32[1, 16, 16]" = cos * 1.0;  cos = None

        # File: transformers/models/llama/modeling_llama.py:125 in forward, code: sin = emb.sin() * self.attention_scaling
        sin: "f32[1, 16, 16]" = emb.sin();  emb = None
        sin_1: "f32[1, 16, 16]" = sin * 1.0;  sin = None

        # File: transformers/models/llama/modeling_llama.py:127 in forward, code: return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)
        cos_2: "f32[1, 16, 16]" = cos_1.to(dtype = torch.float32);  cos_1 = None
        sin_2: "f32[1, 16, 16]" = sin_1.to(dtype = torch.float32);  sin_1 = None

        # File: transformers/models/llama/modeling_llama.py:402 in forward, code: for decoder_layer in self.layers[: self.config.num_hidden_layers]:
        _log_api_usage_once = torch._C._log_api_usage_once('python.nn_module');  _log_api_usage_once = None

        # File: transformers/models/llama/modeling_llama.py:64 in forward, code: hidden_states = hidden_states.to(torch.float32)
        hidden_states: "f32[2, 16, 64]" = inputs_embeds.to(torch.float32)

        # File: transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_1: "f32[2, 16, 64]" = hidden_states.pow(2)
        variance: "f32[2, 16, 1]" = pow_1.mean(-1, keepdim = True);  pow_1 = None

        # File: transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_3: "f32[2, 16, 1]" = variance + 1e-06;  variance = None
        rsqrt: "f32[2, 16, 1]" = torch.rsqrt(add_3);  add_3 = None
        hidden_states_1: "f32[2, 16, 64]" = hidden_states * rsqrt;  hidden_states = rsqrt = None

        # File: transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        to_6: "f32[2, 16, 64]" = hidden_states_1.to(torch.float32);  hidden_states_1 = None
        hidden_states_2: "f32[2, 16, 64]" = l_self_modules_m_modules_layers_modules_0_modules_input_layernorm_parameters_weight_ * to_6;  l_self_modules_m_modules_layers_modules_0_modules_input_layernorm_parameters_weight_ = to_6 = None

        # File: transformers/models/llama/modeling_llama.py:254 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        linear: "f32[2, 16, 64]" = torch._C._nn.linear(hidden_states_2, l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_q_proj_parameters_weight_, None);  l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_q_proj_parameters_weight_ = None
        view: "f32[2, 16, 4, 16]" = linear.view((2, 16, -1, 16));  linear = None
        query_states: "f32[2, 4, 16, 16]" = view.transpose(1, 2);  view = None

        # File: transformers/models/llama/modeling_llama.py:255 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        linear_1: "f32[2, 16, 32]" = torch._C._nn.linear(hidden_states_2, l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_k_proj_parameters_weight_, None);  l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_k_proj_parameters_weight_ = None
        view_1: "f32[2, 16, 2, 16]" = linear_1.view((2, 16, -1, 16));  linear_1 = None
        key_states: "f32[2, 2, 16, 16]" = view_1.transpose(1, 2);  view_1 = None

        # File: transformers/models/llama/modeling_llama.py:256 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        linear_2: "f32[2, 16, 32]" = torch._C._nn.linear(hidden_states_2, l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_weight_, None);  hidden_states_2 = l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_v_proj_parameters_weight_ = None
        view_2: "f32[2, 16, 2, 16]" = linear_2.view((2, 16, -1, 16));  linear_2 = None
        value_states: "f32[2, 2, 16, 16]" = view_2.transpose(1, 2);  view_2 = None

        # File: transformers/models/llama/modeling_llama.py:156 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        cos_3: "f32[1, 1, 16, 16]" = cos_2.unsqueeze(1)

        # File: transformers/models/llama/modeling_llama.py:157 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        sin_3: "f32[1, 1, 16, 16]" = sin_2.unsqueeze(1)

        # File: transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_4: "f32[2, 4, 16, 16]" = query_states * cos_3

        # File: transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        x1: "f32[2, 4, 16, 8]" = query_states[(Ellipsis, slice(None, 8, None))]

        # File: transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        x2: "f32[2, 4, 16, 8]" = query_states[(Ellipsis, slice(8, None, None))];  query_states = None

        # File: transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg: "f32[2, 4, 16, 8]" = -x2;  x2 = None
        cat_1: "f32[2, 4, 16, 16]" = torch.cat((neg, x1), dim = -1);  neg = x1 = None

        # File: transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_5: "f32[2, 4, 16, 16]" = cat_1 * sin_3;  cat_1 = None
        q_embed: "f32[2, 4, 16, 16]" = mul_4 + mul_5;  mul_4 = mul_5 = None

        # File: transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_6: "f32[2, 2, 16, 16]" = key_states * cos_3;  cos_3 = None

        # File: transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        x1_1: "f32[2, 2, 16, 8]" = key_states[(Ellipsis, slice(None, 8, None))]

        # File: transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        x2_1: "f32[2, 2, 16, 8]" = key_states[(Ellipsis, slice(8, None, None))];  key_states = None

        # File: transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_1: "f32[2, 2, 16, 8]" = -x2_1;  x2_1 = None
        cat_2: "f32[2, 2, 16, 16]" = torch.cat((neg_1, x1_1), dim = -1);  neg_1 = x1_1 = None

        # File: transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_7: "f32[2, 2, 16, 16]" = cat_2 * sin_3;  cat_2 = sin_3 = None
        k_embed: "f32[2, 2, 16, 16]" = mul_6 + mul_7;  mul_6 = mul_7 = None

        # File: transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        getitem_13: "f32[2, 2, 1, 16, 16]" = k_embed[(slice(None, None, None), slice(None, None, None), None, slice(None, None, None), slice(None, None, None))];  k_embed = None
        hidden_states_3: "f32[2, 2, 2, 16, 16]" = getitem_13.expand(2, 2, 2, 16, 16);  getitem_13 = None

        # File: transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        key_states_1: "f32[2, 4, 16, 16]" = hidden_states_3.reshape(2, 4, 16, 16);  hidden_states_3 = None

        # File: transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        getitem_14: "f32[2, 2, 1, 16, 16]" = value_states[(slice(None, None, None), slice(None, None, None), None, slice(None, None, None), slice(None, None, None))];  value_states = None
        hidden_states_4: "f32[2, 2, 2, 16, 16]" = getitem_14.expand(2, 2, 2, 16, 16);  getitem_14 = None

        # File: transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        value_states_1: "f32[2, 4, 16, 16]" = hidden_states_4.reshape(2, 4, 16, 16);  hidden_states_4 = None

        # File: transformers/models/llama/modeling_llama.py:204 in eager_attention_forward, code: attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        transpose_4: "f32[2, 4, 16, 16]" = key_states_1.transpose(2, 3);  key_states_1 = None
        matmul_1: "f32[2, 4, 16, 16]" = torch.matmul(q_embed, transpose_4);  q_embed = transpose_4 = None
        attn_weights: "f32[2, 4, 16, 16]" = matmul_1 * 0.25;  matmul_1 = None

        # File: transformers/models/llama/modeling_llama.py:206 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        attn_weights_1: "f32[2, 4, 16, 16]" = attn_weights + mask;  attn_weights = None

        # File: transformers/models/llama/modeling_llama.py:208 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        softmax: "f32[2, 4, 16, 16]" = torch.nn.functional.softmax(attn_weights_1, dim = -1, dtype = torch.float32);  attn_weights_1 = None
        attn_weights_2: "f32[2, 4, 16, 16]" = softmax.to(torch.float32);  softmax = None

        # File: transformers/models/llama/modeling_llama.py:209 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        attn_weights_3: "f32[2, 4, 16, 16]" = torch.nn.functional.dropout(attn_weights_2, p = 0.0, training = False);  attn_weights_2 = None

        # File: transformers/models/llama/modeling_llama.py:210 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value_states)
        attn_output: "f32[2, 4, 16, 16]" = torch.matmul(attn_weights_3, value_states_1);  attn_weights_3 = value_states_1 = None

        # File: transformers/models/llama/modeling_llama.py:211 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_5: "f32[2, 16, 4, 16]" = attn_output.transpose(1, 2);  attn_output = None
        attn_output_1: "f32[2, 16, 4, 16]" = transpose_5.contiguous();  transpose_5 = None

        # File: transformers/models/llama/modeling_llama.py:279 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        reshape_2: "f32[2, 16, 64]" = attn_output_1.reshape(2, 16, -1);  attn_output_1 = None
        attn_output_2: "f32[2, 16, 64]" = reshape_2.contiguous();  reshape_2 = None

        # File: transformers/models/llama/modeling_llama.py:280 in forward, code: attn_output = self.o_proj(attn_output)
        attn_output_3: "f32[2, 16, 64]" = torch._C._nn.linear(attn_output_2, l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_o_proj_parameters_weight_, None);  attn_output_2 = l_self_modules_m_modules_layers_modules_0_modules_self_attn_modules_o_proj_parameters_weight_ = None

        # File: transformers/models/llama/modeling_llama.py:317 in forward, code: hidden_states = residual + hidden_states
        hidden_states_5: "f32[2, 16, 64]" = inputs_embeds + attn_output_3;  inputs_embeds = attn_output_3 = None

        # File: transformers/models/llama/modeling_llama.py:64 in forward, code: hidden_states = hidden_states.to(torch.float32)
        hidden_states_6: "f32[2, 16, 64]" = hidden_states_5.to(torch.float32)

        # File: transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_2: "f32[2, 16, 64]" = hidden_states_6.pow(2)
        variance_1: "f32[2, 16, 1]" = pow_2.mean(-1, keepdim = True);  pow_2 = None

        # File: transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_8: "f32[2, 16, 1]" = variance_1 + 1e-06;  variance_1 = None
        rsqrt_1: "f32[2, 16, 1]" = torch.rsqrt(add_8);  add_8 = None
        hidden_states_7: "f32[2, 16, 64]" = hidden_states_6 * rsqrt_1;  hidden_states_6 = rsqrt_1 = None

        # File: transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        to_9: "f32[2, 16, 64]" = hidden_states_7.to(torch.float32);  hidden_states_7 = None
        hidden_states_8: "f32[2, 16, 64]" = l_self_modules_m_modules_layers_modules_0_modules_post_attention_layernorm_parameters_weight_ * to_9;  l_self_modules_m_modules_layers_modules_0_modules_post_attention_layernorm_parameters_weight_ = to_9 = None

        # File: transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        linear_4: "f32[2, 16, 128]" = torch._C._nn.linear(hidden_states_8, l_self_modules_m_modules_layers_modules_0_modules_mlp_modules_gate_proj_parameters_weight_, None);  l_self_modules_m_modules_layers_modules_0_modules_mlp_modules_gate_proj_parameters_weight_ = None

        # File: transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        silu: "f32[2, 16, 128]" = torch.nn.functional.silu(linear_4);  linear_4 = None

        # File: transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        linear_5: "f32[2, 16, 128]" = torch._C._nn.linear(hidden_states_8, l_self_modules_m_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_, None);  hidden_states_8 = l_self_modules_m_modules_layers_modules_0_modules_mlp_modules_up_proj_parameters_weight_ = None
        mul_11: "f32[2, 16, 128]" = silu * linear_5;  silu = linear_5 = None
        down_proj: "f32[2, 16, 64]" = torch._C._nn.linear(mul_11, l_self_modules_m_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_, None);  mul_11 = l_self_modules_m_modules_layers_modules_0_modules_mlp_modules_down_proj_parameters_weight_ = None

        # File: transformers/models/llama/modeling_llama.py:323 in forward, code: hidden_states = residual + hidden_states
        hidden_states_9: "f32[2, 16, 64]" = hidden_states_5 + down_proj;  hidden_states_5 = down_proj = None

        # File: transformers/models/llama/modeling_llama.py:64 in forward, code: hidden_states = hidden_states.to(torch.float32)
        hidden_states_10: "f32[2, 16, 64]" = hidden_states_9.to(torch.float32)

        # File: transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_3: "f32[2, 16, 64]" = hidden_states_10.pow(2)
        variance_2: "f32[2, 16, 1]" = pow_3.mean(-1, keepdim = True);  pow_3 = None

        # File: transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_10: "f32[2, 16, 1]" = variance_2 + 1e-06;  variance_2 = None
        rsqrt_2: "f32[2, 16, 1]" = torch.rsqrt(add_10);  add_10 = None
        hidden_states_11: "f32[2, 16, 64]" = hidden_states_10 * rsqrt_2;  hidden_states_10 = rsqrt_2 = None

        # File: transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        to_11: "f32[2, 16, 64]" = hidden_states_11.to(torch.float32);  hidden_states_11 = None
        hidden_states_12: "f32[2, 16, 64]" = l_self_modules_m_modules_layers_modules_1_modules_input_layernorm_parameters_weight_ * to_11;  l_self_modules_m_modules_layers_modules_1_modules_input_layernorm_parameters_weight_ = to_11 = None

        # File: transformers/models/llama/modeling_llama.py:254 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        linear_7: "f32[2, 16, 64]" = torch._C._nn.linear(hidden_states_12, l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_, None);  l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_q_proj_parameters_weight_ = None
        view_3: "f32[2, 16, 4, 16]" = linear_7.view((2, 16, -1, 16));  linear_7 = None
        query_states_1: "f32[2, 4, 16, 16]" = view_3.transpose(1, 2);  view_3 = None

        # File: transformers/models/llama/modeling_llama.py:255 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        linear_8: "f32[2, 16, 32]" = torch._C._nn.linear(hidden_states_12, l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_k_proj_parameters_weight_, None);  l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_k_proj_parameters_weight_ = None
        view_4: "f32[2, 16, 2, 16]" = linear_8.view((2, 16, -1, 16));  linear_8 = None
        key_states_2: "f32[2, 2, 16, 16]" = view_4.transpose(1, 2);  view_4 = None

        # File: transformers/models/llama/modeling_llama.py:256 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        linear_9: "f32[2, 16, 32]" = torch._C._nn.linear(hidden_states_12, l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_v_proj_parameters_weight_, None);  hidden_states_12 = l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_v_proj_parameters_weight_ = None
        view_5: "f32[2, 16, 2, 16]" = linear_9.view((2, 16, -1, 16));  linear_9 = None
        value_states_2: "f32[2, 2, 16, 16]" = view_5.transpose(1, 2);  view_5 = None

        # File: transformers/models/llama/modeling_llama.py:156 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        cos_4: "f32[1, 1, 16, 16]" = cos_2.unsqueeze(1);  cos_2 = None

        # File: transformers/models/llama/modeling_llama.py:157 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        sin_4: "f32[1, 1, 16, 16]" = sin_2.unsqueeze(1);  sin_2 = None

        # File: transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_14: "f32[2, 4, 16, 16]" = query_states_1 * cos_4

        # File: transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        x1_2: "f32[2, 4, 16, 8]" = query_states_1[(Ellipsis, slice(None, 8, None))]

        # File: transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        x2_2: "f32[2, 4, 16, 8]" = query_states_1[(Ellipsis, slice(8, None, None))];  query_states_1 = None

        # File: transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_2: "f32[2, 4, 16, 8]" = -x2_2;  x2_2 = None
        cat_3: "f32[2, 4, 16, 16]" = torch.cat((neg_2, x1_2), dim = -1);  neg_2 = x1_2 = None

        # File: transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_15: "f32[2, 4, 16, 16]" = cat_3 * sin_4;  cat_3 = None
        q_embed_1: "f32[2, 4, 16, 16]" = mul_14 + mul_15;  mul_14 = mul_15 = None

        # File: transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_16: "f32[2, 2, 16, 16]" = key_states_2 * cos_4;  cos_4 = None

        # File: transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        x1_3: "f32[2, 2, 16, 8]" = key_states_2[(Ellipsis, slice(None, 8, None))]

        # File: transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        x2_3: "f32[2, 2, 16, 8]" = key_states_2[(Ellipsis, slice(8, None, None))];  key_states_2 = None

        # File: transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_3: "f32[2, 2, 16, 8]" = -x2_3;  x2_3 = None
        cat_4: "f32[2, 2, 16, 16]" = torch.cat((neg_3, x1_3), dim = -1);  neg_3 = x1_3 = None

        # File: transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_17: "f32[2, 2, 16, 16]" = cat_4 * sin_4;  cat_4 = sin_4 = None
        k_embed_1: "f32[2, 2, 16, 16]" = mul_16 + mul_17;  mul_16 = mul_17 = None

        # File: transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        getitem_19: "f32[2, 2, 1, 16, 16]" = k_embed_1[(slice(None, None, None), slice(None, None, None), None, slice(None, None, None), slice(None, None, None))];  k_embed_1 = None
        hidden_states_13: "f32[2, 2, 2, 16, 16]" = getitem_19.expand(2, 2, 2, 16, 16);  getitem_19 = None

        # File: transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        key_states_3: "f32[2, 4, 16, 16]" = hidden_states_13.reshape(2, 4, 16, 16);  hidden_states_13 = None

        # File: transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        getitem_20: "f32[2, 2, 1, 16, 16]" = value_states_2[(slice(None, None, None), slice(None, None, None), None, slice(None, None, None), slice(None, None, None))];  value_states_2 = None
        hidden_states_14: "f32[2, 2, 2, 16, 16]" = getitem_20.expand(2, 2, 2, 16, 16);  getitem_20 = None

        # File: transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        value_states_3: "f32[2, 4, 16, 16]" = hidden_states_14.reshape(2, 4, 16, 16);  hidden_states_14 = None

        # File: transformers/models/llama/modeling_llama.py:204 in eager_attention_forward, code: attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        transpose_9: "f32[2, 4, 16, 16]" = key_states_3.transpose(2, 3);  key_states_3 = None
        matmul_3: "f32[2, 4, 16, 16]" = torch.matmul(q_embed_1, transpose_9);  q_embed_1 = transpose_9 = None
        attn_weights_4: "f32[2, 4, 16, 16]" = matmul_3 * 0.25;  matmul_3 = None

        # File: transformers/models/llama/modeling_llama.py:206 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        attn_weights_5: "f32[2, 4, 16, 16]" = attn_weights_4 + mask;  attn_weights_4 = mask = None

        # File: transformers/models/llama/modeling_llama.py:208 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        softmax_1: "f32[2, 4, 16, 16]" = torch.nn.functional.softmax(attn_weights_5, dim = -1, dtype = torch.float32);  attn_weights_5 = None
        attn_weights_6: "f32[2, 4, 16, 16]" = softmax_1.to(torch.float32);  softmax_1 = None

        # File: transformers/models/llama/modeling_llama.py:209 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        attn_weights_7: "f32[2, 4, 16, 16]" = torch.nn.functional.dropout(attn_weights_6, p = 0.0, training = False);  attn_weights_6 = None

        # File: transformers/models/llama/modeling_llama.py:210 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value_states)
        attn_output_4: "f32[2, 4, 16, 16]" = torch.matmul(attn_weights_7, value_states_3);  attn_weights_7 = value_states_3 = None

        # File: transformers/models/llama/modeling_llama.py:211 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_10: "f32[2, 16, 4, 16]" = attn_output_4.transpose(1, 2);  attn_output_4 = None
        attn_output_5: "f32[2, 16, 4, 16]" = transpose_10.contiguous();  transpose_10 = None

        # File: transformers/models/llama/modeling_llama.py:279 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        reshape_5: "f32[2, 16, 64]" = attn_output_5.reshape(2, 16, -1);  attn_output_5 = None
        attn_output_6: "f32[2, 16, 64]" = reshape_5.contiguous();  reshape_5 = None

        # File: transformers/models/llama/modeling_llama.py:280 in forward, code: attn_output = self.o_proj(attn_output)
        attn_output_7: "f32[2, 16, 64]" = torch._C._nn.linear(attn_output_6, l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_o_proj_parameters_weight_, None);  attn_output_6 = l_self_modules_m_modules_layers_modules_1_modules_self_attn_modules_o_proj_parameters_weight_ = None

        # File: transformers/models/llama/modeling_llama.py:317 in forward, code: hidden_states = residual + hidden_states
        hidden_states_15: "f32[2, 16, 64]" = hidden_states_9 + attn_output_7;  hidden_states_9 = attn_output_7 = None

        # File: transformers/models/llama/modeling_llama.py:64 in forward, code: hidden_states = hidden_states.to(torch.float32)
        hidden_states_16: "f32[2, 16, 64]" = hidden_states_15.to(torch.float32)

        # File: transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_4: "f32[2, 16, 64]" = hidden_states_16.pow(2)
        variance_3: "f32[2, 16, 1]" = pow_4.mean(-1, keepdim = True);  pow_4 = None

        # File: transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_15: "f32[2, 16, 1]" = variance_3 + 1e-06;  variance_3 = None
        rsqrt_3: "f32[2, 16, 1]" = torch.rsqrt(add_15);  add_15 = None
        hidden_states_17: "f32[2, 16, 64]" = hidden_states_16 * rsqrt_3;  hidden_states_16 = rsqrt_3 = None

        # File: transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        to_14: "f32[2, 16, 64]" = hidden_states_17.to(torch.float32);  hidden_states_17 = None
        hidden_states_18: "f32[2, 16, 64]" = l_self_modules_m_modules_layers_modules_1_modules_post_attention_layernorm_parameters_weight_ * to_14;  l_self_modules_m_modules_layers_modules_1_modules_post_attention_layernorm_parameters_weight_ = to_14 = None

        # File: transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        linear_11: "f32[2, 16, 128]" = torch._C._nn.linear(hidden_states_18, l_self_modules_m_modules_layers_modules_1_modules_mlp_modules_gate_proj_parameters_weight_, None);  l_self_modules_m_modules_layers_modules_1_modules_mlp_modules_gate_proj_parameters_weight_ = None

        # File: transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        silu_1: "f32[2, 16, 128]" = torch.nn.functional.silu(linear_11);  linear_11 = None

        # File: transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        linear_12: "f32[2, 16, 128]" = torch._C._nn.linear(hidden_states_18, l_self_modules_m_modules_layers_modules_1_modules_mlp_modules_up_proj_parameters_weight_, None);  hidden_states_18 = l_self_modules_m_modules_layers_modules_1_modules_mlp_modules_up_proj_parameters_weight_ = None
        mul_21: "f32[2, 16, 128]" = silu_1 * linear_12;  silu_1 = linear_12 = None
        down_proj_1: "f32[2, 16, 64]" = torch._C._nn.linear(mul_21, l_self_modules_m_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_, None);  mul_21 = l_self_modules_m_modules_layers_modules_1_modules_mlp_modules_down_proj_parameters_weight_ = None

        # File: transformers/models/llama/modeling_llama.py:323 in forward, code: hidden_states = residual + hidden_states
        hidden_states_19: "f32[2, 16, 64]" = hidden_states_15 + down_proj_1;  hidden_states_15 = down_proj_1 = None

        # File: transformers/models/llama/modeling_llama.py:64 in forward, code: hidden_states = hidden_states.to(torch.float32)
        hidden_states_20: "f32[2, 16, 64]" = hidden_states_19.to(torch.float32);  hidden_states_19 = None

        # File: transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_5: "f32[2, 16, 64]" = hidden_states_20.pow(2)
        variance_4: "f32[2, 16, 1]" = pow_5.mean(-1, keepdim = True);  pow_5 = None

        # File: transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_17: "f32[2, 16, 1]" = variance_4 + 1e-06;  variance_4 = None
        rsqrt_4: "f32[2, 16, 1]" = torch.rsqrt(add_17);  add_17 = None
        hidden_states_21: "f32[2, 16, 64]" = hidden_states_20 * rsqrt_4;  hidden_states_20 = rsqrt_4 = None

        # File: transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        to_16: "f32[2, 16, 64]" = hidden_states_21.to(torch.float32);  hidden_states_21 = None
        hidden_states_22: "f32[2, 16, 64]" = l_self_modules_m_modules_norm_parameters_weight_ * to_16;  l_self_modules_m_modules_norm_parameters_weight_ = to_16 = None
        return (hidden_states_22,)
