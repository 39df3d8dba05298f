class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "i64[2, 16]", arg1_1: "i64[2, 16]", arg2_1: "i64[1, 32]", arg3_1: "i64[1, 32]", arg4_1: "f32[128, 64]", arg5_1: "f32[2, 64]", arg6_1: "f32[32, 64]", arg7_1: "f32[64]", arg8_1: "f32[64]", arg9_1: "f32[64, 64]", arg10_1: "f32[64]", arg11_1: "f32[64, 64]", arg12_1: "f32[64]", arg13_1: "f32[64, 64]", arg14_1: "f32[64]", arg15_1: "f32[64, 64]", arg16_1: "f32[64]", arg17_1: "f32[64]", arg18_1: "f32[64]", arg19_1: "f32[128, 64]", arg20_1: "f32[128]", arg21_1: "f32[64, 128]", arg22_1: "f32[64]", arg23_1: "f32[64]", arg24_1: "f32[64]", arg25_1: "f32[64, 64]", arg26_1: "f32[64]", arg27_1: "f32[64, 64]", arg28_1: "f32[64]", arg29_1: "f32[64, 64]", arg30_1: "f32[64]", arg31_1: "f32[64, 64]", arg32_1: "f32[64]", arg33_1: "f32[64]", arg34_1: "f32[64]", arg35_1: "f32[128, 64]", arg36_1: "f32[128]", arg37_1: "f32[64, 128]", arg38_1: "f32[64]", arg39_1: "f32[64]", arg40_1: "f32[64]"):
        # File: transformers/models/bert/modeling_bert.py:84 in forward, code: position_ids = self.position_ids[:, past_key_values_length : seq_length + past_key_values_length]
        slice_1: "i64[1, 16]" = torch.ops.aten.slice.Tensor(arg2_1, 1, 0, 16);  arg2_1 = None

        # File: transformers/models/bert/modeling_bert.py:92 in forward, code: buffered_token_type_ids = self.token_type_ids.expand(position_ids.shape[0], -1)
        expand: "i64[1, 32]" = torch.ops.aten.expand.default(arg3_1, [1, -1]);  arg3_1 = None

        # File: transformers/models/bert/modeling_bert.py:93 in forward, code: buffered_token_type_ids = torch.gather(buffered_token_type_ids, dim=1, index=position_ids)
        gather: "i64[1, 16]" = torch.ops.aten.gather.default(expand, 1, slice_1);  expand = None

        # File: transformers/models/bert/modeling_bert.py:94 in forward, code: token_type_ids = buffered_token_type_ids.expand(batch_size, seq_length)
        expand_1: "i64[2, 16]" = torch.ops.aten.expand.default(gather, [2, 16]);  gather = None

        # File: transformers/models/bert/modeling_bert.py:99 in forward, code: inputs_embeds = self.word_embeddings(input_ids)
        embedding: "f32[2, 16, 64]" = torch.ops.aten.embedding.default(arg4_1, arg1_1, 0);  arg4_1 = arg1_1 = None

        # File: transformers/models/bert/modeling_bert.py:100 in forward, code: token_type_embeddings = self.token_type_embeddings(token_type_ids)
        embedding_1: "f32[2, 16, 64]" = torch.ops.aten.embedding.default(arg5_1, expand_1);  arg5_1 = expand_1 = None

        # File: transformers/models/bert/modeling_bert.py:101 in forward, code: embeddings = inputs_embeds + token_type_embeddings
        add: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(embedding, embedding_1);  embedding = embedding_1 = None

        # File: transformers/models/bert/modeling_bert.py:103 in forward, code: position_embeddings = self.position_embeddings(position_ids)
        embedding_2: "f32[1, 16, 64]" = torch.ops.aten.embedding.default(arg6_1, slice_1);  arg6_1 = slice_1 = None

        # File: transformers/models/bert/modeling_bert.py:104 in forward, code: embeddings = embeddings + position_embeddings
        add_1: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(add, embedding_2);  add = embedding_2 = None

        # File: transformers/models/bert/modeling_bert.py:106 in forward, code: embeddings = self.LayerNorm(embeddings)
        native_layer_norm = torch.ops.aten.native_layer_norm.default(add_1, [64], arg7_1, arg8_1, 1e-12);  add_1 = arg7_1 = arg8_1 = None
        getitem: "f32[2, 16, 64]" = native_layer_norm[0];  native_layer_norm = None

        # File: transformers/models/bert/modeling_bert.py:107 in forward, code: embeddings = self.dropout(embeddings)
        clone: "f32[2, 16, 64]" = torch.ops.aten.clone.default(getitem);  getitem = None

        # File: transformers/masking_utils.py:825 in _preprocess_mask_arguments, code: attention_mask = attention_mask.to(device=inputs_embeds.device, dtype=torch.bool)
        _to_copy: "b8[2, 16]" = torch.ops.aten._to_copy.default(arg0_1, dtype = torch.bool, device = device(type='cpu'));  arg0_1 = None

        # File: transformers/masking_utils.py:508 in sdpa_mask, code: batch_arange = torch.arange(batch_size, device=device)
        arange: "i64[2]" = torch.ops.aten.arange.start_step(0, 2, layout = torch.strided, device = device(type='cpu'), pin_memory = False)

        # File: transformers/masking_utils.py:510 in sdpa_mask, code: q_arange = torch.arange(q_length, device=device) + q_offset
        arange_2: "i64[16]" = torch.ops.aten.arange.start_step(0, 16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        add_2: "i64[16]" = torch.ops.aten.add.Tensor(arange_2, 0);  arange_2 = None

        # File: transformers/masking_utils.py:511 in sdpa_mask, code: kv_arange = torch.arange(kv_length, device=device) + kv_offset
        arange_3: "i64[16]" = torch.ops.aten.arange.start_step(0, 16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        add_3: "i64[16]" = torch.ops.aten.add.Tensor(arange_3, 0);  arange_3 = None

        # File: transformers/masking_utils.py:365 in _non_vmap_expansion_sdpa, code: batch_indices = batch_indices[:, None, None, None]
        unsqueeze: "i64[2, 1]" = torch.ops.aten.unsqueeze.default(arange, 1);  arange = None
        unsqueeze_1: "i64[2, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze, 2);  unsqueeze = None
        unsqueeze_2: "i64[2, 1, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_1, 3);  unsqueeze_1 = None

        # File: transformers/masking_utils.py:367 in _non_vmap_expansion_sdpa, code: q_indices = q_indices[None, None, :, None]
        unsqueeze_3: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add_2, 0);  add_2 = None
        unsqueeze_4: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze_3, 1);  unsqueeze_3 = None
        unsqueeze_5: "i64[1, 1, 16, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_4, 3);  unsqueeze_4 = None

        # File: transformers/masking_utils.py:368 in _non_vmap_expansion_sdpa, code: kv_indices = kv_indices[None, None, None, :]
        unsqueeze_6: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add_3, 0);  add_3 = None
        unsqueeze_7: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze_6, 1);  unsqueeze_6 = None
        unsqueeze_8: "i64[1, 1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze_7, 2);  unsqueeze_7 = None

        # File: transformers/masking_utils.py:55 in and_mask, code: result = q_idx.new_ones((), dtype=torch.bool)
        full: "b8[]" = torch.ops.aten.full.default([], True, dtype = torch.bool, layout = torch.strided, device = device(type='cpu'), pin_memory = False)

        # File: transformers/masking_utils.py:90 in bidirectional_mask_function, code: return q_idx >= 0
        ge: "b8[1, 1, 16, 1]" = torch.ops.aten.ge.Scalar(unsqueeze_5, 0);  unsqueeze_5 = None

        # File: transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        bitwise_and: "b8[1, 1, 16, 1]" = torch.ops.aten.bitwise_and.Tensor(full, ge);  full = ge = None

        # File: transformers/masking_utils.py:178 in inner_mask, code: return padding_mask[batch_idx, kv_idx]
        index: "b8[2, 1, 1, 16]" = torch.ops.aten.index.Tensor(_to_copy, [unsqueeze_2, unsqueeze_8]);  _to_copy = unsqueeze_2 = unsqueeze_8 = None

        # File: transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        bitwise_and_1: "b8[2, 1, 16, 16]" = torch.ops.aten.bitwise_and.Tensor(bitwise_and, index);  bitwise_and = index = None

        # File: transformers/masking_utils.py:519 in sdpa_mask, code: attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)
        expand_2: "b8[2, 1, 16, 16]" = torch.ops.aten.expand.default(bitwise_and_1, [2, -1, 16, 16]);  bitwise_and_1 = None

        # File: transformers/masking_utils.py:604 in eager_mask, code: mask = torch.where(mask, torch.tensor(0.0, device=mask.device, dtype=dtype), min_dtype)
        _tensor_constant0: "f32[]" = self._tensor_constant0
        lift_fresh_copy: "f32[]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant0);  _tensor_constant0 = None
        scalar_tensor: "f32[]" = torch.ops.aten.scalar_tensor.default(-3.4028234663852886e+38, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[2, 1, 16, 16]" = torch.ops.aten.where.self(expand_2, lift_fresh_copy, scalar_tensor);  expand_2 = lift_fresh_copy = scalar_tensor = None

        # File: transformers/models/bert/modeling_bert.py:175 in forward, code: query_layer = self.query(hidden_states).view(*hidden_shape).transpose(1, 2)
        view: "f32[32, 64]" = torch.ops.aten.view.default(clone, [32, 64])
        permute: "f32[64, 64]" = torch.ops.aten.permute.default(arg9_1, [1, 0]);  arg9_1 = None
        addmm: "f32[32, 64]" = torch.ops.aten.addmm.default(arg10_1, view, permute);  arg10_1 = view = permute = None
        view_1: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm, [2, 16, 64]);  addmm = None
        view_2: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(view_1, [2, 16, -1, 32]);  view_1 = None
        permute_1: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_2, [0, 2, 1, 3]);  view_2 = None

        # File: transformers/models/bert/modeling_bert.py:176 in forward, code: key_layer = self.key(hidden_states).view(*hidden_shape).transpose(1, 2)
        view_3: "f32[32, 64]" = torch.ops.aten.view.default(clone, [32, 64])
        permute_2: "f32[64, 64]" = torch.ops.aten.permute.default(arg11_1, [1, 0]);  arg11_1 = None
        addmm_1: "f32[32, 64]" = torch.ops.aten.addmm.default(arg12_1, view_3, permute_2);  arg12_1 = view_3 = permute_2 = None
        view_4: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_1, [2, 16, 64]);  addmm_1 = None
        view_5: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(view_4, [2, 16, -1, 32]);  view_4 = None
        permute_3: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_5, [0, 2, 1, 3]);  view_5 = None

        # File: transformers/models/bert/modeling_bert.py:177 in forward, code: value_layer = self.value(hidden_states).view(*hidden_shape).transpose(1, 2)
        view_6: "f32[32, 64]" = torch.ops.aten.view.default(clone, [32, 64])
        permute_4: "f32[64, 64]" = torch.ops.aten.permute.default(arg13_1, [1, 0]);  arg13_1 = None
        addmm_2: "f32[32, 64]" = torch.ops.aten.addmm.default(arg14_1, view_6, permute_4);  arg14_1 = view_6 = permute_4 = None
        view_7: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_2, [2, 16, 64]);  addmm_2 = None
        view_8: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(view_7, [2, 16, -1, 32]);  view_7 = None
        permute_5: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_8, [0, 2, 1, 3]);  view_8 = None

        # File: transformers/models/bert/modeling_bert.py:125 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(2, 3)) * scaling
        permute_6: "f32[2, 2, 32, 16]" = torch.ops.aten.permute.default(permute_3, [0, 1, 3, 2]);  permute_3 = None
        expand_3: "f32[2, 2, 16, 32]" = torch.ops.aten.expand.default(permute_1, [2, 2, 16, 32]);  permute_1 = None
        clone_1: "f32[2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_3, memory_format = torch.contiguous_format);  expand_3 = None
        view_9: "f32[4, 16, 32]" = torch.ops.aten.view.default(clone_1, [4, 16, 32]);  clone_1 = None
        expand_4: "f32[2, 2, 32, 16]" = torch.ops.aten.expand.default(permute_6, [2, 2, 32, 16]);  permute_6 = None
        clone_2: "f32[2, 2, 32, 16]" = torch.ops.aten.clone.default(expand_4, memory_format = torch.contiguous_format);  expand_4 = None
        view_10: "f32[4, 32, 16]" = torch.ops.aten.view.default(clone_2, [4, 32, 16]);  clone_2 = None
        bmm: "f32[4, 16, 16]" = torch.ops.aten.bmm.default(view_9, view_10);  view_9 = view_10 = None
        view_11: "f32[2, 2, 16, 16]" = torch.ops.aten.view.default(bmm, [2, 2, 16, 16]);  bmm = None
        mul: "f32[2, 2, 16, 16]" = torch.ops.aten.mul.Tensor(view_11, 0.1767766952966369);  view_11 = None

        # File: transformers/models/bert/modeling_bert.py:128 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_4: "f32[2, 2, 16, 16]" = torch.ops.aten.add.Tensor(mul, where);  mul = None

        # File: transformers/models/bert/modeling_bert.py:130 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        _softmax: "f32[2, 2, 16, 16]" = torch.ops.aten._softmax.default(add_4, -1, False);  add_4 = None

        # File: transformers/models/bert/modeling_bert.py:131 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_3: "f32[2, 2, 16, 16]" = torch.ops.aten.clone.default(_softmax);  _softmax = None

        # File: transformers/models/bert/modeling_bert.py:133 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        expand_5: "f32[2, 2, 16, 16]" = torch.ops.aten.expand.default(clone_3, [2, 2, 16, 16]);  clone_3 = None
        view_12: "f32[4, 16, 16]" = torch.ops.aten.view.default(expand_5, [4, 16, 16]);  expand_5 = None
        expand_6: "f32[2, 2, 16, 32]" = torch.ops.aten.expand.default(permute_5, [2, 2, 16, 32]);  permute_5 = None
        clone_4: "f32[2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_6, memory_format = torch.contiguous_format);  expand_6 = None
        view_13: "f32[4, 16, 32]" = torch.ops.aten.view.default(clone_4, [4, 16, 32]);  clone_4 = None
        bmm_1: "f32[4, 16, 32]" = torch.ops.aten.bmm.default(view_12, view_13);  view_12 = view_13 = None
        view_14: "f32[2, 2, 16, 32]" = torch.ops.aten.view.default(bmm_1, [2, 2, 16, 32]);  bmm_1 = None

        # File: transformers/models/bert/modeling_bert.py:134 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        permute_7: "f32[2, 16, 2, 32]" = torch.ops.aten.permute.default(view_14, [0, 2, 1, 3]);  view_14 = None
        clone_5: "f32[2, 16, 2, 32]" = torch.ops.aten.clone.default(permute_7, memory_format = torch.contiguous_format);  permute_7 = None

        # File: transformers/models/bert/modeling_bert.py:202 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_15: "f32[2, 16, 64]" = torch.ops.aten.view.default(clone_5, [2, 16, -1]);  clone_5 = None

        # File: transformers/models/bert/modeling_bert.py:290 in forward, code: hidden_states = self.dense(hidden_states)
        view_16: "f32[32, 64]" = torch.ops.aten.view.default(view_15, [32, 64]);  view_15 = None
        permute_8: "f32[64, 64]" = torch.ops.aten.permute.default(arg15_1, [1, 0]);  arg15_1 = None
        addmm_3: "f32[32, 64]" = torch.ops.aten.addmm.default(arg16_1, view_16, permute_8);  arg16_1 = view_16 = permute_8 = None
        view_17: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_3, [2, 16, 64]);  addmm_3 = None

        # File: transformers/models/bert/modeling_bert.py:291 in forward, code: hidden_states = self.dropout(hidden_states)
        clone_6: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_17);  view_17 = None

        # File: transformers/models/bert/modeling_bert.py:292 in forward, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_5: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(clone_6, clone);  clone_6 = clone = None
        native_layer_norm_1 = torch.ops.aten.native_layer_norm.default(add_5, [64], arg17_1, arg18_1, 1e-12);  add_5 = arg17_1 = arg18_1 = None
        getitem_3: "f32[2, 16, 64]" = native_layer_norm_1[0];  native_layer_norm_1 = None

        # File: transformers/models/bert/modeling_bert.py:335 in forward, code: hidden_states = self.dense(hidden_states)
        view_18: "f32[32, 64]" = torch.ops.aten.view.default(getitem_3, [32, 64])
        permute_9: "f32[64, 128]" = torch.ops.aten.permute.default(arg19_1, [1, 0]);  arg19_1 = None
        addmm_4: "f32[32, 128]" = torch.ops.aten.addmm.default(arg20_1, view_18, permute_9);  arg20_1 = view_18 = permute_9 = None
        view_19: "f32[2, 16, 128]" = torch.ops.aten.view.default(addmm_4, [2, 16, 128]);  addmm_4 = None

        # File: transformers/activations.py:89 in forward, code: return self.act(input)
        gelu: "f32[2, 16, 128]" = torch.ops.aten.gelu.default(view_19);  view_19 = None

        # File: transformers/models/bert/modeling_bert.py:348 in forward, code: hidden_states = self.dense(hidden_states)
        view_20: "f32[32, 128]" = torch.ops.aten.view.default(gelu, [32, 128]);  gelu = None
        permute_10: "f32[128, 64]" = torch.ops.aten.permute.default(arg21_1, [1, 0]);  arg21_1 = None
        addmm_5: "f32[32, 64]" = torch.ops.aten.addmm.default(arg22_1, view_20, permute_10);  arg22_1 = view_20 = permute_10 = None
        view_21: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_5, [2, 16, 64]);  addmm_5 = None

        # File: transformers/models/bert/modeling_bert.py:349 in forward, code: hidden_states = self.dropout(hidden_states)
        clone_7: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_21);  view_21 = None

        # File: transformers/models/bert/modeling_bert.py:350 in forward, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_6: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(clone_7, getitem_3);  clone_7 = getitem_3 = None
        native_layer_norm_2 = torch.ops.aten.native_layer_norm.default(add_6, [64], arg23_1, arg24_1, 1e-12);  add_6 = arg23_1 = arg24_1 = None
        getitem_6: "f32[2, 16, 64]" = native_layer_norm_2[0];  native_layer_norm_2 = None

        # File: transformers/models/bert/modeling_bert.py:175 in forward, code: query_layer = self.query(hidden_states).view(*hidden_shape).transpose(1, 2)
        view_22: "f32[32, 64]" = torch.ops.aten.view.default(getitem_6, [32, 64])
        permute_11: "f32[64, 64]" = torch.ops.aten.permute.default(arg25_1, [1, 0]);  arg25_1 = None
        addmm_6: "f32[32, 64]" = torch.ops.aten.addmm.default(arg26_1, view_22, permute_11);  arg26_1 = view_22 = permute_11 = None
        view_23: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_6, [2, 16, 64]);  addmm_6 = None
        view_24: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(view_23, [2, 16, -1, 32]);  view_23 = None
        permute_12: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_24, [0, 2, 1, 3]);  view_24 = None

        # File: transformers/models/bert/modeling_bert.py:176 in forward, code: key_layer = self.key(hidden_states).view(*hidden_shape).transpose(1, 2)
        view_25: "f32[32, 64]" = torch.ops.aten.view.default(getitem_6, [32, 64])
        permute_13: "f32[64, 64]" = torch.ops.aten.permute.default(arg27_1, [1, 0]);  arg27_1 = None
        addmm_7: "f32[32, 64]" = torch.ops.aten.addmm.default(arg28_1, view_25, permute_13);  arg28_1 = view_25 = permute_13 = None
        view_26: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_7, [2, 16, 64]);  addmm_7 = None
        view_27: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(view_26, [2, 16, -1, 32]);  view_26 = None
        permute_14: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_27, [0, 2, 1, 3]);  view_27 = None

        # File: transformers/models/bert/modeling_bert.py:177 in forward, code: value_layer = self.value(hidden_states).view(*hidden_shape).transpose(1, 2)
        view_28: "f32[32, 64]" = torch.ops.aten.view.default(getitem_6, [32, 64])
        permute_15: "f32[64, 64]" = torch.ops.aten.permute.default(arg29_1, [1, 0]);  arg29_1 = None
        addmm_8: "f32[32, 64]" = torch.ops.aten.addmm.default(arg30_1, view_28, permute_15);  arg30_1 = view_28 = permute_15 = None
        view_29: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_8, [2, 16, 64]);  addmm_8 = None
        view_30: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(view_29, [2, 16, -1, 32]);  view_29 = None
        permute_16: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_30, [0, 2, 1, 3]);  view_30 = None

        # File: transformers/models/bert/modeling_bert.py:125 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(2, 3)) * scaling
        permute_17: "f32[2, 2, 32, 16]" = torch.ops.aten.permute.default(permute_14, [0, 1, 3, 2]);  permute_14 = None
        expand_7: "f32[2, 2, 16, 32]" = torch.ops.aten.expand.default(permute_12, [2, 2, 16, 32]);  permute_12 = None
        clone_8: "f32[2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_7, memory_format = torch.contiguous_format);  expand_7 = None
        view_31: "f32[4, 16, 32]" = torch.ops.aten.view.default(clone_8, [4, 16, 32]);  clone_8 = None
        expand_8: "f32[2, 2, 32, 16]" = torch.ops.aten.expand.default(permute_17, [2, 2, 32, 16]);  permute_17 = None
        clone_9: "f32[2, 2, 32, 16]" = torch.ops.aten.clone.default(expand_8, memory_format = torch.contiguous_format);  expand_8 = None
        view_32: "f32[4, 32, 16]" = torch.ops.aten.view.default(clone_9, [4, 32, 16]);  clone_9 = None
        bmm_2: "f32[4, 16, 16]" = torch.ops.aten.bmm.default(view_31, view_32);  view_31 = view_32 = None
        view_33: "f32[2, 2, 16, 16]" = torch.ops.aten.view.default(bmm_2, [2, 2, 16, 16]);  bmm_2 = None
        mul_1: "f32[2, 2, 16, 16]" = torch.ops.aten.mul.Tensor(view_33, 0.1767766952966369);  view_33 = None

        # File: transformers/models/bert/modeling_bert.py:128 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_7: "f32[2, 2, 16, 16]" = torch.ops.aten.add.Tensor(mul_1, where);  mul_1 = where = None

        # File: transformers/models/bert/modeling_bert.py:130 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        _softmax_1: "f32[2, 2, 16, 16]" = torch.ops.aten._softmax.default(add_7, -1, False);  add_7 = None

        # File: transformers/models/bert/modeling_bert.py:131 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_10: "f32[2, 2, 16, 16]" = torch.ops.aten.clone.default(_softmax_1);  _softmax_1 = None

        # File: transformers/models/bert/modeling_bert.py:133 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        expand_9: "f32[2, 2, 16, 16]" = torch.ops.aten.expand.default(clone_10, [2, 2, 16, 16]);  clone_10 = None
        view_34: "f32[4, 16, 16]" = torch.ops.aten.view.default(expand_9, [4, 16, 16]);  expand_9 = None
        expand_10: "f32[2, 2, 16, 32]" = torch.ops.aten.expand.default(permute_16, [2, 2, 16, 32]);  permute_16 = None
        clone_11: "f32[2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_10, memory_format = torch.contiguous_format);  expand_10 = None
        view_35: "f32[4, 16, 32]" = torch.ops.aten.view.default(clone_11, [4, 16, 32]);  clone_11 = None
        bmm_3: "f32[4, 16, 32]" = torch.ops.aten.bmm.default(view_34, view_35);  view_34 = view_35 = None
        view_36: "f32[2, 2, 16, 32]" = torch.ops.aten.view.default(bmm_3, [2, 2, 16, 32]);  bmm_3 = None

        # File: transformers/models/bert/modeling_bert.py:134 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        permute_18: "f32[2, 16, 2, 32]" = torch.ops.aten.permute.default(view_36, [0, 2, 1, 3]);  view_36 = None
        clone_12: "f32[2, 16, 2, 32]" = torch.ops.aten.clone.default(permute_18, memory_format = torch.contiguous_format);  permute_18 = None

        # File: transformers/models/bert/modeling_bert.py:202 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_37: "f32[2, 16, 64]" = torch.ops.aten.view.default(clone_12, [2, 16, -1]);  clone_12 = None

        # File: transformers/models/bert/modeling_bert.py:290 in forward, code: hidden_states = self.dense(hidden_states)
        view_38: "f32[32, 64]" = torch.ops.aten.view.default(view_37, [32, 64]);  view_37 = None
        permute_19: "f32[64, 64]" = torch.ops.aten.permute.default(arg31_1, [1, 0]);  arg31_1 = None
        addmm_9: "f32[32, 64]" = torch.ops.aten.addmm.default(arg32_1, view_38, permute_19);  arg32_1 = view_38 = permute_19 = None
        view_39: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_9, [2, 16, 64]);  addmm_9 = None

        # File: transformers/models/bert/modeling_bert.py:291 in forward, code: hidden_states = self.dropout(hidden_states)
        clone_13: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_39);  view_39 = None

        # File: transformers/models/bert/modeling_bert.py:292 in forward, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_8: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(clone_13, getitem_6);  clone_13 = getitem_6 = None
        native_layer_norm_3 = torch.ops.aten.native_layer_norm.default(add_8, [64], arg33_1, arg34_1, 1e-12);  add_8 = arg33_1 = arg34_1 = None
        getitem_9: "f32[2, 16, 64]" = native_layer_norm_3[0];  native_layer_norm_3 = None

        # File: transformers/models/bert/modeling_bert.py:335 in forward, code: hidden_states = self.dense(hidden_states)
        view_40: "f32[32, 64]" = torch.ops.aten.view.default(getitem_9, [32, 64])
        permute_20: "f32[64, 128]" = torch.ops.aten.permute.default(arg35_1, [1, 0]);  arg35_1 = None
        addmm_10: "f32[32, 128]" = torch.ops.aten.addmm.default(arg36_1, view_40, permute_20);  arg36_1 = view_40 = permute_20 = None
        view_41: "f32[2, 16, 128]" = torch.ops.aten.view.default(addmm_10, [2, 16, 128]);  addmm_10 = None

        # File: transformers/activations.py:89 in forward, code: return self.act(input)
        gelu_1: "f32[2, 16, 128]" = torch.ops.aten.gelu.default(view_41);  view_41 = None

        # File: transformers/models/bert/modeling_bert.py:348 in forward, code: hidden_states = self.dense(hidden_states)
        view_42: "f32[32, 128]" = torch.ops.aten.view.default(gelu_1, [32, 128]);  gelu_1 = None
        permute_21: "f32[128, 64]" = torch.ops.aten.permute.default(arg37_1, [1, 0]);  arg37_1 = None
        addmm_11: "f32[32, 64]" = torch.ops.aten.addmm.default(arg38_1, view_42, permute_21);  arg38_1 = view_42 = permute_21 = None
        view_43: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_11, [2, 16, 64]);  addmm_11 = None

        # File: transformers/models/bert/modeling_bert.py:349 in forward, code: hidden_states = self.dropout(hidden_states)
        clone_14: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_43);  view_43 = None

        # File: transformers/models/bert/modeling_bert.py:350 in forward, code: hidden_states = self.LayerNorm(hidden_states + input_tensor)
        add_9: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(clone_14, getitem_9);  clone_14 = getitem_9 = None
        native_layer_norm_4 = torch.ops.aten.native_layer_norm.default(add_9, [64], arg39_1, arg40_1, 1e-12);  add_9 = arg39_1 = arg40_1 = None
        getitem_12: "f32[2, 16, 64]" = native_layer_norm_4[0];  native_layer_norm_4 = None
        return (getitem_12,)
