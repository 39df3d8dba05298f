class GraphModule(torch.nn.Module):
    def forward(self, L_mask_: "i64[2, 16]", L_ids_: "i64[2, 16]", L_self_modules_m_modules_embeddings_buffers_position_ids_: "i64[1, 32]", L_self_modules_m_modules_embeddings_buffers_token_type_ids_: "i64[1, 32]", L_self_modules_m_modules_embeddings_modules_word_embeddings_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_embeddings_modules_token_type_embeddings_parameters_weight_: "f32[2, 64]", L_self_modules_m_modules_embeddings_modules_position_embeddings_parameters_weight_: "f32[32, 64]", L_self_modules_m_modules_embeddings_modules_LayerNorm_parameters_weight_: "f32[64]", L_self_modules_m_modules_embeddings_modules_LayerNorm_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_query_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_query_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_key_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_key_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_weight_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_intermediate_modules_dense_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_intermediate_modules_dense_parameters_bias_: "f32[128]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_dense_parameters_weight_: "f32[64, 128]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_dense_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_LayerNorm_parameters_weight_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_LayerNorm_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_query_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_query_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_key_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_key_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_value_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_value_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_dense_parameters_weight_: "f32[64, 64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_dense_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_LayerNorm_parameters_weight_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_LayerNorm_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_intermediate_modules_dense_parameters_weight_: "f32[128, 64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_intermediate_modules_dense_parameters_bias_: "f32[128]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_dense_parameters_weight_: "f32[64, 128]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_dense_parameters_bias_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_LayerNorm_parameters_weight_: "f32[64]", L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_LayerNorm_parameters_bias_: "f32[64]"):
        l_mask_ = L_mask_
        l_ids_ = L_ids_
        l_self_modules_m_modules_embeddings_buffers_position_ids_ = L_self_modules_m_modules_embeddings_buffers_position_ids_
        l_self_modules_m_modules_embeddings_buffers_token_type_ids_ = L_self_modules_m_modules_embeddings_buffers_token_type_ids_
        l_self_modules_m_modules_embeddings_modules_word_embeddings_parameters_weight_ = L_self_modules_m_modules_embeddings_modules_word_embeddings_parameters_weight_
        l_self_modules_m_modules_embeddings_modules_token_type_embeddings_parameters_weight_ = L_self_modules_m_modules_embeddings_modules_token_type_embeddings_parameters_weight_
        l_self_modules_m_modules_embeddings_modules_position_embeddings_parameters_weight_ = L_self_modules_m_modules_embeddings_modules_position_embeddings_parameters_weight_
        l_self_modules_m_modules_embeddings_modules_layer_norm_parameters_weight_ = L_self_modules_m_modules_embeddings_modules_LayerNorm_parameters_weight_
        l_self_modules_m_modules_embeddings_modules_layer_norm_parameters_bias_ = L_self_modules_m_modules_embeddings_modules_LayerNorm_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_query_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_query_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_query_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_query_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_key_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_key_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_key_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_key_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_layer_norm_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_layer_norm_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_LayerNorm_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_intermediate_modules_dense_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_intermediate_modules_dense_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_intermediate_modules_dense_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_intermediate_modules_dense_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_dense_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_dense_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_dense_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_dense_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_layer_norm_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_LayerNorm_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_layer_norm_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_LayerNorm_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_query_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_query_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_query_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_query_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_key_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_key_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_key_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_key_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_value_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_value_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_value_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_value_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_dense_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_dense_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_dense_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_dense_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_layer_norm_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_LayerNorm_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_layer_norm_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_LayerNorm_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_intermediate_modules_dense_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_intermediate_modules_dense_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_intermediate_modules_dense_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_intermediate_modules_dense_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_dense_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_dense_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_dense_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_dense_parameters_bias_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_layer_norm_parameters_weight_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_LayerNorm_parameters_weight_
        l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_layer_norm_parameters_bias_ = L_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_LayerNorm_parameters_bias_

        # File: transformers/models/bert/modeling_bert.py:84 in forward, code: position_ids = self.position_ids[:, past_key_values_length : seq_length + past_key_values_length]
        position_ids: "i64[1, 16]" = l_self_modules_m_modules_embeddings_buffers_position_ids_[(slice(None, None, None), slice(0, 16, None))];  l_self_modules_m_modules_embeddings_buffers_position_ids_ = None

        # File: transformers/models/bert/modeling_bert.py:92 in forward, code: buffered_token_type_ids = self.token_type_ids.expand(position_ids.shape[0], -1)
        buffered_token_type_ids: "i64[1, 32]" = l_self_modules_m_modules_embeddings_buffers_token_type_ids_.expand(1, -1);  l_self_modules_m_modules_embeddings_buffers_token_type_ids_ = None

        # File: transformers/models/bert/modeling_bert.py:93 in forward, code: buffered_token_type_ids = torch.gather(buffered_token_type_ids, dim=1, index=position_ids)
        buffered_token_type_ids_1: "i64[1, 16]" = torch.gather(buffered_token_type_ids, dim = 1, index = position_ids);  buffered_token_type_ids = None

        # File: transformers/models/bert/modeling_bert.py:94 in forward, code: token_type_ids = buffered_token_type_ids.expand(batch_size, seq_length)
        token_type_ids: "i64[2, 16]" = buffered_token_type_ids_1.expand(2, 16);  buffered_token_type_ids_1 = None

        # File: transformers/models/bert/modeling_bert.py:99 in forward, code: inputs_embeds = self.word_embeddings(input_ids)
        inputs_embeds: "f32[2, 16, 64]" = torch.nn.functional.embedding(l_ids_, l_self_modules_m_modules_embeddings_modules_word_embeddings_parameters_weight_, 0, None, 2.0, False, False);  l_ids_ = l_self_modules_m_modules_embeddings_modules_word_embeddings_parameters_weight_ = None

        # File: transformers/models/bert/modeling_bert.py:100 in forward, code: token_type_embeddings = self.token_type_embeddings(token_type_ids)
        token_type_embeddings: "f32[2, 16, 64]" = torch.nn.functional.embedding(token_type_ids, l_self_modules_m_modules_embeddings_modules_token_type_embeddings_parameters_weight_, None, None, 2.0, False, False);  token_type_ids = l_self_modules_m_modules_embeddings_modules_token_type_embeddings_parameters_weight_ = None

        # File: transformers/models/bert/modeling_bert.py:101 in forward, code: embeddings = inputs_embeds + token_type_embeddings
        embeddings: "f32[2, 16, 64]" = inputs_embeds + token_type_embeddings;  inputs_embeds = token_type_embeddings = None

        # File: transformers/models/bert/modeling_bert.py:103 in forward, code: position_embeddings = self.position_embeddings(position_ids)
        position_embeddings: "f32[1, 16, 64]" = torch.nn.functional.embedding(position_ids, l_self_modules_m_modules_embeddings_modules_position_embeddings_parameters_weight_, None, None, 2.0, False, False);  position_ids = l_self_modules_m_modules_embeddings_modules_position_embeddings_parameters_weight_ = None

        # File: transformers/models/bert/modeling_bert.py:104 in forward, code: embeddings = embeddings + position_embeddings
        embeddings_1: "f32[2, 16, 64]" = embeddings + position_embeddings;  embeddings = position_embeddings = None

        # File: transformers/models/bert/modeling_bert.py:106 in forward, code: embeddings = self.LayerNorm(embeddings)
        embeddings_2: "f32[2, 16, 64]" = torch.nn.functional.layer_norm(embeddings_1, (64,), l_self_modules_m_modules_embeddings_modules_layer_norm_parameters_weight_, l_self_modules_m_modules_embeddings_modules_layer_norm_parameters_bias_, 1e-12);  embeddings_1 = l_self_modules_m_modules_embeddings_modules_layer_norm_parameters_weight_ = l_self_modules_m_modules_embeddings_modules_layer_norm_parameters_bias_ = None

        # File: transformers/models/bert/modeling_bert.py:107 in forward, code: embeddings = self.dropout(embeddings)
        embeddings_3: "f32[2, 16, 64]" = torch.nn.functional.dropout(embeddings_2, 0.1, False, False);  embeddings_2 = None

        # File: transformers/masking_utils.py:825 in _preprocess_mask_arguments, code: attention_mask = attention_mask.to(device=inputs_embeds.device, dtype=torch.bool)
        attention_mask: "b8[2, 16]" = l_mask_.to(device = device(type='cpu'), dtype = torch.bool);  l_mask_ = None

        # File: transformers/masking_utils.py:508 in sdpa_mask, code: batch_arange = torch.arange(batch_size, device=device)
        batch_arange: "i64[2]" = torch.arange(2, device = device(type='cpu'))

        # File: transformers/masking_utils.py:509 in sdpa_mask, code: head_arange = torch.arange(1, device=device)
        head_arange: "i64[1]" = torch.arange(1, device = device(type='cpu'));  head_arange = None

        # File: transformers/masking_utils.py:510 in sdpa_mask, code: q_arange = torch.arange(q_length, device=device) + q_offset
        arange_2: "i64[16]" = torch.arange(16, device = device(type='cpu'))
        q_arange: "i64[16]" = arange_2 + 0;  arange_2 = None

        # File: transformers/masking_utils.py:511 in sdpa_mask, code: kv_arange = torch.arange(kv_length, device=device) + kv_offset
        arange_3: "i64[16]" = torch.arange(16, device = device(type='cpu'))
        kv_arange: "i64[16]" = arange_3 + 0;  arange_3 = None

        # File: transformers/masking_utils.py:365 in _non_vmap_expansion_sdpa, code: batch_indices = batch_indices[:, None, None, None]
        batch_indices: "i64[2, 1, 1, 1]" = batch_arange[(slice(None, None, None), None, None, None)];  batch_arange = None

        # File: transformers/masking_utils.py:367 in _non_vmap_expansion_sdpa, code: q_indices = q_indices[None, None, :, None]
        q_indices: "i64[1, 1, 16, 1]" = q_arange[(None, None, slice(None, None, None), None)];  q_arange = None

        # File: transformers/masking_utils.py:368 in _non_vmap_expansion_sdpa, code: kv_indices = kv_indices[None, None, None, :]
        kv_indices: "i64[1, 1, 1, 16]" = kv_arange[(None, None, None, slice(None, None, None))];  kv_arange = None

        # File: transformers/masking_utils.py:55 in and_mask, code: result = q_idx.new_ones((), dtype=torch.bool)
        result: "b8[]" = q_indices.new_ones((), dtype = torch.bool)

        # File: transformers/masking_utils.py:90 in bidirectional_mask_function, code: return q_idx >= 0
        ge: "b8[1, 1, 16, 1]" = q_indices >= 0;  q_indices = None

        # File: transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        to_1: "b8[1, 1, 16, 1]" = ge.to(device(type='cpu'));  ge = None
        result_1: "b8[1, 1, 16, 1]" = result & to_1;  result = to_1 = None

        # File: transformers/masking_utils.py:178 in inner_mask, code: return padding_mask[batch_idx, kv_idx]
        getitem_5: "b8[2, 1, 1, 16]" = attention_mask[(batch_indices, kv_indices)];  attention_mask = batch_indices = kv_indices = None

        # File: transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        to_2: "b8[2, 1, 1, 16]" = getitem_5.to(device(type='cpu'));  getitem_5 = None
        result_2: "b8[2, 1, 16, 16]" = result_1 & to_2;  result_1 = to_2 = None

        # File: transformers/masking_utils.py:519 in sdpa_mask, code: attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)
        attention_mask_1: "b8[2, 1, 16, 16]" = result_2.expand(2, -1, 16, 16);  result_2 = None

        # File: transformers/masking_utils.py:604 in eager_mask, code: mask = torch.where(mask, torch.tensor(0.0, device=mask.device, dtype=dtype), min_dtype)
        tensor: "f32[]" = torch.tensor(0.0, device = device(type='cpu'), dtype = torch.float32)
        mask: "f32[2, 1, 16, 16]" = torch.where(attention_mask_1, tensor, -3.4028234663852886e+38);  attention_mask_1 = tensor = None

        # File: transformers/models/bert/modeling_bert.py:175 in forward, code: query_layer = self.query(hidden_states).view(*hidden_shape).transpose(1, 2)
        linear: "f32[2, 16, 64]" = torch._C._nn.linear(embeddings_3, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_query_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_query_parameters_bias_);  l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_query_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_query_parameters_bias_ = None
        view: "f32[2, 16, 2, 32]" = linear.view(2, 16, -1, 32);  linear = None
        query_layer: "f32[2, 2, 16, 32]" = view.transpose(1, 2);  view = None

        # File: transformers/models/bert/modeling_bert.py:176 in forward, code: key_layer = self.key(hidden_states).view(*hidden_shape).transpose(1, 2)
        linear_1: "f32[2, 16, 64]" = torch._C._nn.linear(embeddings_3, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_key_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_key_parameters_bias_);  l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_key_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_key_parameters_bias_ = None
        view_1: "f32[2, 16, 2, 32]" = linear_1.view(2, 16, -1, 32);  linear_1 = None
        key_layer: "f32[2, 2, 16, 32]" = view_1.transpose(1, 2);  view_1 = None

        # File: transformers/models/bert/modeling_bert.py:177 in forward, code: value_layer = self.value(hidden_states).view(*hidden_shape).transpose(1, 2)
        linear_2: "f32[2, 16, 64]" = torch._C._nn.linear(embeddings_3, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_bias_);  l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_self_modules_value_parameters_bias_ = None
        view_2: "f32[2, 16, 2, 32]" = linear_2.view(2, 16, -1, 32);  linear_2 = None
        value_layer: "f32[2, 2, 16, 32]" = view_2.transpose(1, 2);  view_2 = None

        # File: transformers/models/bert/modeling_bert.py:125 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(2, 3)) * scaling
        transpose_3: "f32[2, 2, 32, 16]" = key_layer.transpose(2, 3);  key_layer = None
        matmul: "f32[2, 2, 16, 16]" = torch.matmul(query_layer, transpose_3);  query_layer = transpose_3 = None
        attn_weights: "f32[2, 2, 16, 16]" = matmul * 0.1767766952966369;  matmul = None

        # File: transformers/models/bert/modeling_bert.py:128 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        attn_weights_1: "f32[2, 2, 16, 16]" = attn_weights + mask;  attn_weights = None

        # File: transformers/models/bert/modeling_bert.py:130 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        attn_weights_2: "f32[2, 2, 16, 16]" = torch.nn.functional.softmax(attn_weights_1, dim = -1);  attn_weights_1 = None

        # File: transformers/models/bert/modeling_bert.py:131 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        attn_weights_3: "f32[2, 2, 16, 16]" = torch.nn.functional.dropout(attn_weights_2, p = 0.0, training = False);  attn_weights_2 = None

        # File: transformers/models/bert/modeling_bert.py:133 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        attn_output: "f32[2, 2, 16, 32]" = torch.matmul(attn_weights_3, value_layer);  attn_weights_3 = value_layer = None

        # File: transformers/models/bert/modeling_bert.py:134 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_4: "f32[2, 16, 2, 32]" = attn_output.transpose(1, 2);  attn_output = None
        attn_output_1: "f32[2, 16, 2, 32]" = transpose_4.contiguous();  transpose_4 = None

        # File: transformers/models/bert/modeling_bert.py:202 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        reshape: "f32[2, 16, 64]" = attn_output_1.reshape(2, 16, -1);  attn_output_1 = None
        attn_output_2: "f32[2, 16, 64]" = reshape.contiguous();  reshape = None

        # File: transformers/models/bert/modeling_bert.py:290 in forward, code: hidden_states = self.dense(hidden_states)
        hidden_states: "f32[2, 16, 64]" = torch._C._nn.linear(attn_output_2, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_);  attn_output_2 = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_dense_parameters_bias_ = None

        # File: transformers/models/bert/modeling_bert.py:291 in forward, code: hidden_states = self.dropout(hidden_states)
        hidden_states_1: "f32[2, 16, 64]" = torch.nn.functional.dropout(hidden_states, 0.1, False, False);  hidden_states = None

        # File: transformers/models/bert/modeling_bert.py:292 in forward, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_5: "f32[2, 16, 64]" = hidden_states_1 + embeddings_3;  hidden_states_1 = embeddings_3 = None
        hidden_states_2: "f32[2, 16, 64]" = torch.nn.functional.layer_norm(add_5, (64,), l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_layer_norm_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_layer_norm_parameters_bias_, 1e-12);  add_5 = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_layer_norm_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_attention_modules_output_modules_layer_norm_parameters_bias_ = None

        # File: transformers/models/bert/modeling_bert.py:335 in forward, code: hidden_states = self.dense(hidden_states)
        hidden_states_3: "f32[2, 16, 128]" = torch._C._nn.linear(hidden_states_2, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_intermediate_modules_dense_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_intermediate_modules_dense_parameters_bias_);  l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_intermediate_modules_dense_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_intermediate_modules_dense_parameters_bias_ = None

        # File: transformers/activations.py:89 in forward, code: return self.act(input)
        hidden_states_4: "f32[2, 16, 128]" = torch._C._nn.gelu(hidden_states_3);  hidden_states_3 = None

        # File: transformers/models/bert/modeling_bert.py:348 in forward, code: hidden_states = self.dense(hidden_states)
        hidden_states_5: "f32[2, 16, 64]" = torch._C._nn.linear(hidden_states_4, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_dense_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_dense_parameters_bias_);  hidden_states_4 = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_dense_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_dense_parameters_bias_ = None

        # File: transformers/models/bert/modeling_bert.py:349 in forward, code: hidden_states = self.dropout(hidden_states)
        hidden_states_6: "f32[2, 16, 64]" = torch.nn.functional.dropout(hidden_states_5, 0.1, False, False);  hidden_states_5 = None

        # File: transformers/models/bert/modeling_bert.py:350 in forward, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_6: "f32[2, 16, 64]" = hidden_states_6 + hidden_states_2;  hidden_states_6 = hidden_states_2 = None
        hidden_states_7: "f32[2, 16, 64]" = torch.nn.functional.layer_norm(add_6, (64,), l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_layer_norm_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_layer_norm_parameters_bias_, 1e-12);  add_6 = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_layer_norm_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_0_modules_output_modules_layer_norm_parameters_bias_ = None

        # File: transformers/models/bert/modeling_bert.py:175 in forward, code: query_layer = self.query(hidden_states).view(*hidden_shape).transpose(1, 2)
        linear_6: "f32[2, 16, 64]" = torch._C._nn.linear(hidden_states_7, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_query_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_query_parameters_bias_);  l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_query_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_query_parameters_bias_ = None
        view_3: "f32[2, 16, 2, 32]" = linear_6.view(2, 16, -1, 32);  linear_6 = None
        query_layer_1: "f32[2, 2, 16, 32]" = view_3.transpose(1, 2);  view_3 = None

        # File: transformers/models/bert/modeling_bert.py:176 in forward, code: key_layer = self.key(hidden_states).view(*hidden_shape).transpose(1, 2)
        linear_7: "f32[2, 16, 64]" = torch._C._nn.linear(hidden_states_7, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_key_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_key_parameters_bias_);  l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_key_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_key_parameters_bias_ = None
        view_4: "f32[2, 16, 2, 32]" = linear_7.view(2, 16, -1, 32);  linear_7 = None
        key_layer_1: "f32[2, 2, 16, 32]" = view_4.transpose(1, 2);  view_4 = None

        # File: transformers/models/bert/modeling_bert.py:177 in forward, code: value_layer = self.value(hidden_states).view(*hidden_shape).transpose(1, 2)
        linear_8: "f32[2, 16, 64]" = torch._C._nn.linear(hidden_states_7, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_value_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_value_parameters_bias_);  l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_value_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_self_modules_value_parameters_bias_ = None
        view_5: "f32[2, 16, 2, 32]" = linear_8.view(2, 16, -1, 32);  linear_8 = None
        value_layer_1: "f32[2, 2, 16, 32]" = view_5.transpose(1, 2);  view_5 = None

        # File: transformers/models/bert/modeling_bert.py:125 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(2, 3)) * scaling
        transpose_8: "f32[2, 2, 32, 16]" = key_layer_1.transpose(2, 3);  key_layer_1 = None
        matmul_2: "f32[2, 2, 16, 16]" = torch.matmul(query_layer_1, transpose_8);  query_layer_1 = transpose_8 = None
        attn_weights_4: "f32[2, 2, 16, 16]" = matmul_2 * 0.1767766952966369;  matmul_2 = None

        # File: transformers/models/bert/modeling_bert.py:128 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        attn_weights_5: "f32[2, 2, 16, 16]" = attn_weights_4 + mask;  attn_weights_4 = mask = None

        # File: transformers/models/bert/modeling_bert.py:130 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        attn_weights_6: "f32[2, 2, 16, 16]" = torch.nn.functional.softmax(attn_weights_5, dim = -1);  attn_weights_5 = None

        # File: transformers/models/bert/modeling_bert.py:131 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        attn_weights_7: "f32[2, 2, 16, 16]" = torch.nn.functional.dropout(attn_weights_6, p = 0.0, training = False);  attn_weights_6 = None

        # File: transformers/models/bert/modeling_bert.py:133 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        attn_output_3: "f32[2, 2, 16, 32]" = torch.matmul(attn_weights_7, value_layer_1);  attn_weights_7 = value_layer_1 = None

        # File: transformers/models/bert/modeling_bert.py:134 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        transpose_9: "f32[2, 16, 2, 32]" = attn_output_3.transpose(1, 2);  attn_output_3 = None
        attn_output_4: "f32[2, 16, 2, 32]" = transpose_9.contiguous();  transpose_9 = None

        # File: transformers/models/bert/modeling_bert.py:202 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        reshape_1: "f32[2, 16, 64]" = attn_output_4.reshape(2, 16, -1);  attn_output_4 = None
        attn_output_5: "f32[2, 16, 64]" = reshape_1.contiguous();  reshape_1 = None

        # File: transformers/models/bert/modeling_bert.py:290 in forward, code: hidden_states = self.dense(hidden_states)
        hidden_states_8: "f32[2, 16, 64]" = torch._C._nn.linear(attn_output_5, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_dense_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_dense_parameters_bias_);  attn_output_5 = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_dense_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_dense_parameters_bias_ = None

        # File: transformers/models/bert/modeling_bert.py:291 in forward, code: hidden_states = self.dropout(hidden_states)
        hidden_states_9: "f32[2, 16, 64]" = torch.nn.functional.dropout(hidden_states_8, 0.1, False, False);  hidden_states_8 = None

        # File: transformers/models/bert/modeling_bert.py:292 in forward, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_8: "f32[2, 16, 64]" = hidden_states_9 + hidden_states_7;  hidden_states_9 = hidden_states_7 = None
        hidden_states_10: "f32[2, 16, 64]" = torch.nn.functional.layer_norm(add_8, (64,), l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_layer_norm_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_layer_norm_parameters_bias_, 1e-12);  add_8 = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_layer_norm_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_attention_modules_output_modules_layer_norm_parameters_bias_ = None

        # File: transformers/models/bert/modeling_bert.py:335 in forward, code: hidden_states = self.dense(hidden_states)
        hidden_states_11: "f32[2, 16, 128]" = torch._C._nn.linear(hidden_states_10, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_intermediate_modules_dense_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_intermediate_modules_dense_parameters_bias_);  l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_intermediate_modules_dense_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_intermediate_modules_dense_parameters_bias_ = None

        # File: transformers/activations.py:89 in forward, code: return self.act(input)
        hidden_states_12: "f32[2, 16, 128]" = torch._C._nn.gelu(hidden_states_11);  hidden_states_11 = None

        # File: transformers/models/bert/modeling_bert.py:348 in forward, code: hidden_states = self.dense(hidden_states)
        hidden_states_13: "f32[2, 16, 64]" = torch._C._nn.linear(hidden_states_12, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_dense_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_dense_parameters_bias_);  hidden_states_12 = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_dense_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_dense_parameters_bias_ = None

        # File: transformers/models/bert/modeling_bert.py:349 in forward, code: hidden_states = self.dropout(hidden_states)
        hidden_states_14: "f32[2, 16, 64]" = torch.nn.functional.dropout(hidden_states_13, 0.1, False, False);  hidden_states_13 = None

        # File: transformers/models/bert/modeling_bert.py:350 in forward, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_9: "f32[2, 16, 64]" = hidden_states_14 + hidden_states_10;  hidden_states_14 = hidden_states_10 = None
        hidden_states_15: "f32[2, 16, 64]" = torch.nn.functional.layer_norm(add_9, (64,), l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_layer_norm_parameters_weight_, l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_layer_norm_parameters_bias_, 1e-12);  add_9 = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_layer_norm_parameters_weight_ = l_self_modules_m_modules_encoder_modules_layer_modules_1_modules_output_modules_layer_norm_parameters_bias_ = None
        return (hidden_states_15,)
