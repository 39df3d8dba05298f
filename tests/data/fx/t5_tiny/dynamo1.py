class GraphModule(torch.nn.Module):
    def forward(self, L_ids_: "i64[2, 16]", L_self_modules_m_modules_encoder_modules_embed_tokens_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_layer_norm_parameters_weight_: "f32[64]", L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_q_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_k_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_v_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_relative_attention_bias_parameters_weight_: "f32[8, 4]", L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_o_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_layer_norm_parameters_weight_: "f32[64]", L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_DenseReluDense_modules_wi_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_DenseReluDense_modules_wo_parameters_weight_: "f32[64, 128]", L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_layer_norm_parameters_weight_: "f32[64]", L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_SelfAttention_modules_q_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_SelfAttention_modules_k_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_SelfAttention_modules_v_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_SelfAttention_modules_o_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_layer_norm_parameters_weight_: "f32[64]", L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_DenseReluDense_modules_wi_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_DenseReluDense_modules_wo_parameters_weight_: "f32[64, 128]", L_self_modules_m_modules_encoder_modules_final_layer_norm_parameters_weight_: "f32[64]"):
        l_ids_ = L_ids_
        l_self_modules_m_modules_encoder_modules_embed_tokens_parameters_weight_ = L_self_modules_m_modules_encoder_modules_embed_tokens_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_layer_norm_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_layer_norm_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_q_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_q_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_k_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_k_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_v_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_v_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_relative_attention_bias_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_o_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_SelfAttention_modules_o_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_layer_norm_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_layer_norm_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_dense_relu_dense_modules_wi_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_DenseReluDense_modules_wi_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_dense_relu_dense_modules_wo_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_DenseReluDense_modules_wo_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_layer_norm_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_layer_norm_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_q_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_SelfAttention_modules_q_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_k_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_SelfAttention_modules_k_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_v_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_SelfAttention_modules_v_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_o_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_SelfAttention_modules_o_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_layer_norm_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_layer_norm_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_dense_relu_dense_modules_wi_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_DenseReluDense_modules_wi_parameters_weight_
        l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_dense_relu_dense_modules_wo_parameters_weight_ = L_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_DenseReluDense_modules_wo_parameters_weight_
        l_self_modules_m_modules_encoder_modules_final_layer_norm_parameters_weight_ = L_self_modules_m_modules_encoder_modules_final_layer_norm_parameters_weight_

        # File: transformers/models/t5/modeling_t5.py:678 in forward, code: inputs_embeds = self.embed_tokens(input_ids)
        inputs_embeds: "f32[2, 16, 64]" = torch.nn.functional.embedding(l_ids_, l_self_modules_m_modules_encoder_modules_embed_tokens_parameters_weight_, None, None, 2.0, False, False);  l_ids_ = l_self_modules_m_modules_encoder_modules_embed_tokens_parameters_weight_ = None

        # File: transformers/masking_utils.py:508 in sdpa_mask, code: batch_arange = torch.arange(batch_size, device=device)
        batch_arange: "i64[2]" = torch.arange(2, device = device(type='cpu'));  batch_arange = None

        # File: transformers/masking_utils.py:509 in sdpa_mask, code: head_arange = torch.arange(1, device=device)
        head_arange: "i64[1]" = torch.arange(1, device = device(type='cpu'));  head_arange = None

        # File: transformers/masking_utils.py:510 in sdpa_mask, code: q_arange = torch.arange(q_length, device=device) + q_offset
        arange_2: "i64[16]" = torch.arange(16, device = device(type='cpu'))
        q_arange: "i64[16]" = arange_2 + 0;  arange_2 = None

        # File: transformers/masking_utils.py:511 in sdpa_mask, code: kv_arange = torch.arange(kv_length, device=device) + kv_offset
        arange_3: "i64[16]" = torch.arange(16, device = device(type='cpu'))
        kv_arange: "i64[16]" = arange_3 + 0;  arange_3 = kv_arange = None

        # File: transformers/masking_utils.py:367 in _non_vmap_expansion_sdpa, code: q_indices = q_indices[None, None, :, None]
        q_indices: "i64[1, 1, 16, 1]" = q_arange[(None, None, slice(None, None, None), None)];  q_arange = None

        # File: transformers/masking_utils.py:90 in bidirectional_mask_function, code: return q_idx >= 0
        attention_mask: "b8[1, 1, 16, 1]" = q_indices >= 0;  q_indices = None

        # File: transformers/masking_utils.py:519 in sdpa_mask, code: attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)
        attention_mask_1: "b8[2, 1, 16, 16]" = attention_mask.expand(2, -1, 16, 16);  attention_mask = None

        # File: transformers/masking_utils.py:604 in eager_mask, code: mask = torch.where(mask, torch.tensor(0.0, device=mask.device, dtype=dtype), min_dtype)
        tensor: "f32[]" = torch.tensor(0.0, device = device(type='cpu'), dtype = torch.float32)
        mask: "f32[2, 1, 16, 16]" = torch.where(attention_mask_1, tensor, -3.4028234663852886e+38);  attention_mask_1 = tensor = None

        # File: transformers/models/t5/modeling_t5.py:725 in forward, code: hidden_states = self.dropout(inputs_embeds)
        hidden_states: "f32[2, 16, 64]" = torch.nn.functional.dropout(inputs_embeds, 0.1, False, False);  inputs_embeds = None

        # File: transformers/models/t5/modeling_t5.py:65 in forward, code: variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        to: "f32[2, 16, 64]" = hidden_states.to(torch.float32)
        pow_1: "f32[2, 16, 64]" = to.pow(2);  to = None
        variance: "f32[2, 16, 1]" = pow_1.mean(-1, keepdim = True);  pow_1 = None

        # File: transformers/models/t5/modeling_t5.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_2: "f32[2, 16, 1]" = variance + 1e-06;  variance = None
        rsqrt: "f32[2, 16, 1]" = torch.rsqrt(add_2);  add_2 = None
        hidden_states_1: "f32[2, 16, 64]" = hidden_states * rsqrt;  rsqrt = None

        # File: transformers/models/t5/modeling_t5.py:72 in forward, code: return self.weight * hidden_states
        normed_hidden_states: "f32[2, 16, 64]" = l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_layer_norm_parameters_weight_ * hidden_states_1;  l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_layer_norm_parameters_weight_ = hidden_states_1 = None

        # File: transformers/models/t5/modeling_t5.py:304 in forward, code: query_states = self.q(hidden_states).view(hidden_shape).transpose(1, 2)
        linear: "f32[2, 16, 64]" = torch._C._nn.linear(normed_hidden_states, l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_q_parameters_weight_, None);  l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_q_parameters_weight_ = None
        view: "f32[2, 16, 4, 16]" = linear.view((2, 16, -1, 16));  linear = None
        query_states: "f32[2, 4, 16, 16]" = view.transpose(1, 2);  view = None

        # File: transformers/models/t5/modeling_t5.py:325 in forward, code: key_states = self.k(current_states).view(kv_shape).transpose(1, 2)
        linear_1: "f32[2, 16, 64]" = torch._C._nn.linear(normed_hidden_states, l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_k_parameters_weight_, None);  l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_k_parameters_weight_ = None
        view_1: "f32[2, 16, 4, 16]" = linear_1.view((2, 16, -1, 16));  linear_1 = None
        key_states: "f32[2, 4, 16, 16]" = view_1.transpose(1, 2);  view_1 = None

        # File: transformers/models/t5/modeling_t5.py:326 in forward, code: value_states = self.v(current_states).view(kv_shape).transpose(1, 2)
        linear_2: "f32[2, 16, 64]" = torch._C._nn.linear(normed_hidden_states, l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_v_parameters_weight_, None);  normed_hidden_states = l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_v_parameters_weight_ = None
        view_2: "f32[2, 16, 4, 16]" = linear_2.view((2, 16, -1, 16));  linear_2 = None
        value_states: "f32[2, 4, 16, 16]" = view_2.transpose(1, 2);  view_2 = None

        # File: transformers/models/t5/modeling_t5.py:268 in compute_bias, code: context_position = torch.arange(query_length, dtype=torch.long, device=device)[:, None] + past_seen_tokens
        arange_4: "i64[16]" = torch.arange(16, dtype = torch.int64, device = device(type='cpu'))
        getitem_4: "i64[16, 1]" = arange_4[(slice(None, None, None), None)];  arange_4 = None
        context_position: "i64[16, 1]" = getitem_4 + 0;  getitem_4 = None

        # File: transformers/models/t5/modeling_t5.py:269 in compute_bias, code: memory_position = torch.arange(key_length, dtype=torch.long, device=device)[None, :]
        arange_5: "i64[16]" = torch.arange(16, dtype = torch.int64, device = device(type='cpu'))
        memory_position: "i64[1, 16]" = arange_5[(None, slice(None, None, None))];  arange_5 = None

        # File: transformers/models/t5/modeling_t5.py:270 in compute_bias, code: relative_position = memory_position - context_position  # shape (query_length, key_length)
        relative_position: "i64[16, 16]" = memory_position - context_position;  memory_position = context_position = None

        # File: transformers/models/t5/modeling_t5.py:241 in _relative_position_bucket, code: relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        gt: "b8[16, 16]" = relative_position > 0
        to_1: "i64[16, 16]" = gt.to(torch.int64);  gt = None
        mul_2: "i64[16, 16]" = to_1 * 4;  to_1 = None
        relative_buckets: "i64[16, 16]" = 0 + mul_2;  mul_2 = None

        # File: transformers/models/t5/modeling_t5.py:242 in _relative_position_bucket, code: relative_position = torch.abs(relative_position)
        relative_position_1: "i64[16, 16]" = torch.abs(relative_position);  relative_position = None

        # File: transformers/models/t5/modeling_t5.py:249 in _relative_position_bucket, code: is_small = relative_position < max_exact
        is_small: "b8[16, 16]" = relative_position_1 < 2

        # File: transformers/models/t5/modeling_t5.py:253 in _relative_position_bucket, code: torch.log(relative_position.float() / max_exact)
        float_1: "f32[16, 16]" = relative_position_1.float()
        truediv: "f32[16, 16]" = float_1 / 2;  float_1 = None
        log: "f32[16, 16]" = torch.log(truediv);  truediv = None
        truediv_1: "f32[16, 16]" = log / 4.1588830833596715;  log = None
        mul_3: "f32[16, 16]" = truediv_1 * 2;  truediv_1 = None

        # File: transformers/models/t5/modeling_t5.py:256 in _relative_position_bucket, code: ).to(torch.long)
        to_2: "i64[16, 16]" = mul_3.to(torch.int64);  mul_3 = None

        # File: transformers/models/t5/modeling_t5.py:252 in _relative_position_bucket, code: relative_position_if_large = max_exact + (
        relative_position_if_large: "i64[16, 16]" = 2 + to_2;  to_2 = None

        # File: transformers/models/t5/modeling_t5.py:258 in _relative_position_bucket, code: relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
        full_like: "i64[16, 16]" = torch.full_like(relative_position_if_large, 3)

        # File: transformers/models/t5/modeling_t5.py:257 in _relative_position_bucket, code: relative_position_if_large = torch.min(
        relative_position_if_large_1: "i64[16, 16]" = torch.min(relative_position_if_large, full_like);  relative_position_if_large = full_like = None

        # File: transformers/models/t5/modeling_t5.py:261 in _relative_position_bucket, code: relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
        where_1: "i64[16, 16]" = torch.where(is_small, relative_position_1, relative_position_if_large_1);  is_small = relative_position_1 = relative_position_if_large_1 = None
        relative_buckets += where_1;  relative_buckets_1: "i64[16, 16]" = relative_buckets;  relative_buckets = where_1 = None

        # File: transformers/models/t5/modeling_t5.py:277 in compute_bias, code: values = self.relative_attention_bias(relative_position_bucket)  # shape (query_length, key_length, num_heads)
        values: "f32[16, 16, 4]" = torch.nn.functional.embedding(relative_buckets_1, l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_, None, None, 2.0, False, False);  relative_buckets_1 = l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_relative_attention_bias_parameters_weight_ = None

        # File: transformers/models/t5/modeling_t5.py:278 in compute_bias, code: values = values.permute([2, 0, 1]).unsqueeze(0)  # shape (1, num_heads, query_length, key_length)
        permute: "f32[4, 16, 16]" = values.permute([2, 0, 1]);  values = None
        values_1: "f32[1, 4, 16, 16]" = permute.unsqueeze(0);  permute = None

        # File: transformers/models/t5/modeling_t5.py:159 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(2, 3)) * scaling
        transpose_3: "f32[2, 4, 16, 16]" = key_states.transpose(2, 3);  key_states = None
        matmul: "f32[2, 4, 16, 16]" = torch.matmul(query_states, transpose_3);  query_states = transpose_3 = None
        attn_weights: "f32[2, 4, 16, 16]" = matmul * 1.0;  matmul = None

        # File: transformers/models/t5/modeling_t5.py:162 in eager_attention_forward, code: attn_weights = attn_weights + position_bias
        attn_weights_1: "f32[2, 4, 16, 16]" = attn_weights + values_1;  attn_weights = None

        # File: transformers/models/t5/modeling_t5.py:165 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        attn_weights_2: "f32[2, 4, 16, 16]" = attn_weights_1 + mask;  attn_weights_1 = None

        # File: transformers/models/t5/modeling_t5.py:167 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        attn_weights_3: "f32[2, 4, 16, 16]" = torch.nn.functional.softmax(attn_weights_2, dim = -1);  attn_weights_2 = None

        # File: transformers/models/t5/modeling_t5.py:168 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        attn_weights_4: "f32[2, 4, 16, 16]" = torch.nn.functional.dropout(attn_weights_3, p = 0.0, training = False);  attn_weights_3 = None

        # File: transformers/models/t5/modeling_t5.py:170 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        attn_output: "f32[2, 4, 16, 16]" = torch.matmul(attn_weights_4, value_states);  attn_weights_4 = value_states = None

        # File: transformers/models/t5/modeling_t5.py:171 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_4: "f32[2, 16, 4, 16]" = attn_output.transpose(1, 2);  attn_output = None
        attn_output_1: "f32[2, 16, 4, 16]" = transpose_4.contiguous();  transpose_4 = None

        # File: transformers/models/t5/modeling_t5.py:366 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        reshape: "f32[2, 16, 64]" = attn_output_1.reshape(2, 16, -1);  attn_output_1 = None
        attn_output_2: "f32[2, 16, 64]" = reshape.contiguous();  reshape = None

        # File: transformers/models/t5/modeling_t5.py:367 in forward, code: attn_output = self.o(attn_output)
        attn_output_3: "f32[2, 16, 64]" = torch._C._nn.linear(attn_output_2, l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_o_parameters_weight_, None);  attn_output_2 = l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_0_modules_self_attention_modules_o_parameters_weight_ = None

        # File: transformers/models/t5/modeling_t5.py:400 in forward, code: attention_output = hidden_states + self.dropout(attention_output)
        dropout_2: "f32[2, 16, 64]" = torch.nn.functional.dropout(attn_output_3, 0.1, False, False);  attn_output_3 = None
        attention_output: "f32[2, 16, 64]" = hidden_states + dropout_2;  hidden_states = dropout_2 = None

        # File: transformers/models/t5/modeling_t5.py:65 in forward, code: variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        to_3: "f32[2, 16, 64]" = attention_output.to(torch.float32)
        pow_2: "f32[2, 16, 64]" = to_3.pow(2);  to_3 = None
        variance_1: "f32[2, 16, 1]" = pow_2.mean(-1, keepdim = True);  pow_2 = None

        # File: transformers/models/t5/modeling_t5.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_9: "f32[2, 16, 1]" = variance_1 + 1e-06;  variance_1 = None
        rsqrt_1: "f32[2, 16, 1]" = torch.rsqrt(add_9);  add_9 = None
        hidden_states_2: "f32[2, 16, 64]" = attention_output * rsqrt_1;  rsqrt_1 = None

        # File: transformers/models/t5/modeling_t5.py:72 in forward, code: return self.weight * hidden_states
        forwarded_states: "f32[2, 16, 64]" = l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_layer_norm_parameters_weight_ * hidden_states_2;  l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_layer_norm_parameters_weight_ = hidden_states_2 = None

        # File: transformers/models/t5/modeling_t5.py:84 in forward, code: hidden_states = self.wi(hidden_states)
        hidden_states_3: "f32[2, 16, 128]" = torch._C._nn.linear(forwarded_states, l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_dense_relu_dense_modules_wi_parameters_weight_, None);  forwarded_states = l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_dense_relu_dense_modules_wi_parameters_weight_ = None

        # File: transformers/models/t5/modeling_t5.py:85 in forward, code: hidden_states = self.act(hidden_states)
        hidden_states_4: "f32[2, 16, 128]" = torch.nn.functional.relu(hidden_states_3, inplace = False);  hidden_states_3 = None

        # File: transformers/models/t5/modeling_t5.py:86 in forward, code: hidden_states = self.dropout(hidden_states)
        hidden_states_5: "f32[2, 16, 128]" = torch.nn.functional.dropout(hidden_states_4, 0.1, False, False);  hidden_states_4 = None

        # File: transformers/models/t5/modeling_t5.py:93 in forward, code: hidden_states = self.wo(hidden_states)
        hidden_states_6: "f32[2, 16, 64]" = torch._C._nn.linear(hidden_states_5, l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_dense_relu_dense_modules_wo_parameters_weight_, None);  hidden_states_5 = l_self_modules_m_modules_encoder_modules_block_modules_0_modules_layer_modules_1_modules_dense_relu_dense_modules_wo_parameters_weight_ = None

        # File: transformers/models/t5/modeling_t5.py:140 in forward, code: hidden_states = hidden_states + self.dropout(forwarded_states)
        dropout_4: "f32[2, 16, 64]" = torch.nn.functional.dropout(hidden_states_6, 0.1, False, False);  hidden_states_6 = None
        hidden_states_7: "f32[2, 16, 64]" = attention_output + dropout_4;  attention_output = dropout_4 = None

        # File: transformers/models/t5/modeling_t5.py:65 in forward, code: variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        to_4: "f32[2, 16, 64]" = hidden_states_7.to(torch.float32)
        pow_3: "f32[2, 16, 64]" = to_4.pow(2);  to_4 = None
        variance_2: "f32[2, 16, 1]" = pow_3.mean(-1, keepdim = True);  pow_3 = None

        # File: transformers/models/t5/modeling_t5.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_11: "f32[2, 16, 1]" = variance_2 + 1e-06;  variance_2 = None
        rsqrt_2: "f32[2, 16, 1]" = torch.rsqrt(add_11);  add_11 = None
        hidden_states_8: "f32[2, 16, 64]" = hidden_states_7 * rsqrt_2;  rsqrt_2 = None

        # File: transformers/models/t5/modeling_t5.py:72 in forward, code: return self.weight * hidden_states
        normed_hidden_states_1: "f32[2, 16, 64]" = l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_layer_norm_parameters_weight_ * hidden_states_8;  l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_layer_norm_parameters_weight_ = hidden_states_8 = None

        # File: transformers/models/t5/modeling_t5.py:304 in forward, code: query_states = self.q(hidden_states).view(hidden_shape).transpose(1, 2)
        linear_6: "f32[2, 16, 64]" = torch._C._nn.linear(normed_hidden_states_1, l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_q_parameters_weight_, None);  l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_q_parameters_weight_ = None
        view_3: "f32[2, 16, 4, 16]" = linear_6.view((2, 16, -1, 16));  linear_6 = None
        query_states_1: "f32[2, 4, 16, 16]" = view_3.transpose(1, 2);  view_3 = None

        # File: transformers/models/t5/modeling_t5.py:325 in forward, code: key_states = self.k(current_states).view(kv_shape).transpose(1, 2)
        linear_7: "f32[2, 16, 64]" = torch._C._nn.linear(normed_hidden_states_1, l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_k_parameters_weight_, None);  l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_k_parameters_weight_ = None
        view_4: "f32[2, 16, 4, 16]" = linear_7.view((2, 16, -1, 16));  linear_7 = None
        key_states_1: "f32[2, 4, 16, 16]" = view_4.transpose(1, 2);  view_4 = None

        # File: transformers/models/t5/modeling_t5.py:326 in forward, code: value_states = self.v(current_states).view(kv_shape).transpose(1, 2)
        linear_8: "f32[2, 16, 64]" = torch._C._nn.linear(normed_hidden_states_1, l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_v_parameters_weight_, None);  normed_hidden_states_1 = l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_v_parameters_weight_ = None
        view_5: "f32[2, 16, 4, 16]" = linear_8.view((2, 16, -1, 16));  linear_8 = None
        value_states_1: "f32[2, 4, 16, 16]" = view_5.transpose(1, 2);  view_5 = None

        # File: transformers/models/t5/modeling_t5.py:159 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(2, 3)) * scaling
        transpose_8: "f32[2, 4, 16, 16]" = key_states_1.transpose(2, 3);  key_states_1 = None
        matmul_2: "f32[2, 4, 16, 16]" = torch.matmul(query_states_1, transpose_8);  query_states_1 = transpose_8 = None
        attn_weights_5: "f32[2, 4, 16, 16]" = matmul_2 * 1.0;  matmul_2 = None

        # File: transformers/models/t5/modeling_t5.py:162 in eager_attention_forward, code: attn_weights = attn_weights + position_bias
        attn_weights_6: "f32[2, 4, 16, 16]" = attn_weights_5 + values_1;  attn_weights_5 = values_1 = None

        # File: transformers/models/t5/modeling_t5.py:165 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        attn_weights_7: "f32[2, 4, 16, 16]" = attn_weights_6 + mask;  attn_weights_6 = mask = None

        # File: transformers/models/t5/modeling_t5.py:167 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        attn_weights_8: "f32[2, 4, 16, 16]" = torch.nn.functional.softmax(attn_weights_7, dim = -1);  attn_weights_7 = None

        # File: transformers/models/t5/modeling_t5.py:168 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        attn_weights_9: "f32[2, 4, 16, 16]" = torch.nn.functional.dropout(attn_weights_8, p = 0.0, training = False);  attn_weights_8 = None

        # File: transformers/models/t5/modeling_t5.py:170 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        attn_output_4: "f32[2, 4, 16, 16]" = torch.matmul(attn_weights_9, value_states_1);  attn_weights_9 = value_states_1 = None

        # File: transformers/models/t5/modeling_t5.py:171 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_9: "f32[2, 16, 4, 16]" = attn_output_4.transpose(1, 2);  attn_output_4 = None
        attn_output_5: "f32[2, 16, 4, 16]" = transpose_9.contiguous();  transpose_9 = None

        # File: transformers/models/t5/modeling_t5.py:366 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        reshape_1: "f32[2, 16, 64]" = attn_output_5.reshape(2, 16, -1);  attn_output_5 = None
        attn_output_6: "f32[2, 16, 64]" = reshape_1.contiguous();  reshape_1 = None

        # File: transformers/models/t5/modeling_t5.py:367 in forward, code: attn_output = self.o(attn_output)
        attn_output_7: "f32[2, 16, 64]" = torch._C._nn.linear(attn_output_6, l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_o_parameters_weight_, None);  attn_output_6 = l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_0_modules_self_attention_modules_o_parameters_weight_ = None

        # File: transformers/models/t5/modeling_t5.py:400 in forward, code: attention_output = hidden_states + self.dropout(attention_output)
        dropout_6: "f32[2, 16, 64]" = torch.nn.functional.dropout(attn_output_7, 0.1, False, False);  attn_output_7 = None
        attention_output_1: "f32[2, 16, 64]" = hidden_states_7 + dropout_6;  hidden_states_7 = dropout_6 = None

        # File: transformers/models/t5/modeling_t5.py:65 in forward, code: variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        to_5: "f32[2, 16, 64]" = attention_output_1.to(torch.float32)
        pow_4: "f32[2, 16, 64]" = to_5.pow(2);  to_5 = None
        variance_3: "f32[2, 16, 1]" = pow_4.mean(-1, keepdim = True);  pow_4 = None

        # File: transformers/models/t5/modeling_t5.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_15: "f32[2, 16, 1]" = variance_3 + 1e-06;  variance_3 = None
        rsqrt_3: "f32[2, 16, 1]" = torch.rsqrt(add_15);  add_15 = None
        hidden_states_9: "f32[2, 16, 64]" = attention_output_1 * rsqrt_3;  rsqrt_3 = None

        # File: transformers/models/t5/modeling_t5.py:72 in forward, code: return self.weight * hidden_states
        forwarded_states_1: "f32[2, 16, 64]" = l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_layer_norm_parameters_weight_ * hidden_states_9;  l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_layer_norm_parameters_weight_ = hidden_states_9 = None

        # File: transformers/models/t5/modeling_t5.py:84 in forward, code: hidden_states = self.wi(hidden_states)
        hidden_states_10: "f32[2, 16, 128]" = torch._C._nn.linear(forwarded_states_1, l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_dense_relu_dense_modules_wi_parameters_weight_, None);  forwarded_states_1 = l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_dense_relu_dense_modules_wi_parameters_weight_ = None

        # File: transformers/models/t5/modeling_t5.py:85 in forward, code: hidden_states = self.act(hidden_states)
        hidden_states_11: "f32[2, 16, 128]" = torch.nn.functional.relu(hidden_states_10, inplace = False);  hidden_states_10 = None

        # File: transformers/models/t5/modeling_t5.py:86 in forward, code: hidden_states = self.dropout(hidden_states)
        hidden_states_12: "f32[2, 16, 128]" = torch.nn.functional.dropout(hidden_states_11, 0.1, False, False);  hidden_states_11 = None

        # File: transformers/models/t5/modeling_t5.py:93 in forward, code: hidden_states = self.wo(hidden_states)
        hidden_states_13: "f32[2, 16, 64]" = torch._C._nn.linear(hidden_states_12, l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_dense_relu_dense_modules_wo_parameters_weight_, None);  hidden_states_12 = l_self_modules_m_modules_encoder_modules_block_modules_1_modules_layer_modules_1_modules_dense_relu_dense_modules_wo_parameters_weight_ = None

        # File: transformers/models/t5/modeling_t5.py:140 in forward, code: hidden_states = hidden_states + self.dropout(forwarded_states)
        dropout_8: "f32[2, 16, 64]" = torch.nn.functional.dropout(hidden_states_13, 0.1, False, False);  hidden_states_13 = None
        hidden_states_14: "f32[2, 16, 64]" = attention_output_1 + dropout_8;  attention_output_1 = dropout_8 = None

        # File: transformers/models/t5/modeling_t5.py:65 in forward, code: variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        to_6: "f32[2, 16, 64]" = hidden_states_14.to(torch.float32)
        pow_5: "f32[2, 16, 64]" = to_6.pow(2);  to_6 = None
        variance_4: "f32[2, 16, 1]" = pow_5.mean(-1, keepdim = True);  pow_5 = None

        # File: transformers/models/t5/modeling_t5.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_17: "f32[2, 16, 1]" = variance_4 + 1e-06;  variance_4 = None
        rsqrt_4: "f32[2, 16, 1]" = torch.rsqrt(add_17);  add_17 = None
        hidden_states_15: "f32[2, 16, 64]" = hidden_states_14 * rsqrt_4;  hidden_states_14 = rsqrt_4 = None

        # File: transformers/models/t5/modeling_t5.py:72 in forward, code: return self.weight * hidden_states
        hidden_states_16: "f32[2, 16, 64]" = l_self_modules_m_modules_encoder_modules_final_layer_norm_parameters_weight_ * hidden_states_15;  l_self_modules_m_modules_encoder_modules_final_layer_norm_parameters_weight_ = hidden_states_15 = None

        # File: transformers/models/t5/modeling_t5.py:745 in forward, code: hidden_states = self.dropout(hidden_states)
        hidden_states_17: "f32[2, 16, 64]" = torch.nn.functional.dropout(hidden_states_16, 0.1, False, False);  hidden_states_16 = None
        return (hidden_states_17,)
