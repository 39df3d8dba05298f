class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "i64[2, 16]", arg1_1: "f32[128, 64]", arg2_1: "f32[32, 64]", arg3_1: "f32[64]", arg4_1: "f32[64]", arg5_1: "f32[192]", arg6_1: "f32[64, 192]", arg7_1: "f32[64]", arg8_1: "f32[64, 64]", arg9_1: "f32[64]", arg10_1: "f32[64]", arg11_1: "f32[256]", arg12_1: "f32[64, 256]", arg13_1: "f32[64]", arg14_1: "f32[256, 64]", arg15_1: "f32[64]", arg16_1: "f32[64]", arg17_1: "f32[192]", arg18_1: "f32[64, 192]", arg19_1: "f32[64]", arg20_1: "f32[64, 64]", arg21_1: "f32[64]", arg22_1: "f32[64]", arg23_1: "f32[256]", arg24_1: "f32[64, 256]", arg25_1: "f32[64]", arg26_1: "f32[256, 64]", arg27_1: "f32[64]", arg28_1: "f32[64]"):
        # File: transformers/models/gpt2/modeling_gpt2.py:549 in forward, code: input_ids = input_ids.view(-1, input_shape[-1])
        view: "i64[2, 16]" = torch.ops.aten.view.default(arg0_1, [-1, 16]);  arg0_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:569 in forward, code: inputs_embeds = self.wte(input_ids)
        embedding: "f32[2, 16, 64]" = torch.ops.aten.embedding.default(arg1_1, view);  arg1_1 = view = None

        # File: transformers/models/gpt2/modeling_gpt2.py:573 in forward, code: position_ids = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device) + past_seen_tokens
        arange: "i64[16]" = torch.ops.aten.arange.start_step(0, 16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        add: "i64[16]" = torch.ops.aten.add.Tensor(arange, 0);  arange = None

        # File: transformers/models/gpt2/modeling_gpt2.py:574 in forward, code: position_ids = position_ids.unsqueeze(0)
        unsqueeze: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add, 0);  add = None

        # File: transformers/models/gpt2/modeling_gpt2.py:576 in forward, code: position_embeds = self.wpe(position_ids)
        embedding_1: "f32[1, 16, 64]" = torch.ops.aten.embedding.default(arg2_1, unsqueeze);  arg2_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:577 in forward, code: hidden_states = inputs_embeds + position_embeds.to(inputs_embeds.device)
        add_1: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(embedding, embedding_1);  embedding = embedding_1 = None

        # File: transformers/masking_utils.py:859 in _preprocess_mask_arguments, code: position_ids = position_ids.expand(batch_size, -1)
        expand: "i64[2, 16]" = torch.ops.aten.expand.default(unsqueeze, [2, -1]);  unsqueeze = None

        # File: transformers/masking_utils.py:750 in find_packed_sequence_indices, code: first_dummy_value = position_ids[:, :1] - 1  # We just need the diff on this first value to be 1
        slice_1: "i64[2, 1]" = torch.ops.aten.slice.Tensor(expand, 1, 0, 1)
        sub: "i64[2, 1]" = torch.ops.aten.sub.Tensor(slice_1, 1);  slice_1 = None

        # File: transformers/masking_utils.py:751 in find_packed_sequence_indices, code: position_diff = torch.diff(position_ids, prepend=first_dummy_value, dim=-1)
        cat: "i64[2, 17]" = torch.ops.aten.cat.default([sub, expand], -1);  sub = expand = None
        slice_2: "i64[2, 16]" = torch.ops.aten.slice.Tensor(cat, -1, 0, 16)
        slice_3: "i64[2, 16]" = torch.ops.aten.slice.Tensor(cat, -1, 1, 17);  cat = None
        sub_1: "i64[2, 16]" = torch.ops.aten.sub.Tensor(slice_3, slice_2);  slice_3 = slice_2 = None

        # File: transformers/masking_utils.py:752 in find_packed_sequence_indices, code: packed_sequence_mask = (position_diff != 1).cumsum(-1)
        ne: "b8[2, 16]" = torch.ops.aten.ne.Scalar(sub_1, 1);  sub_1 = None
        cumsum: "i64[2, 16]" = torch.ops.aten.cumsum.default(ne, -1);  ne = None

        # File: transformers/masking_utils.py:508 in sdpa_mask, code: batch_arange = torch.arange(batch_size, device=device)
        arange_1: "i64[2]" = torch.ops.aten.arange.start_step(0, 2, layout = torch.strided, device = device(type='cpu'), pin_memory = False)

        # File: transformers/masking_utils.py:510 in sdpa_mask, code: q_arange = torch.arange(q_length, device=device) + q_offset
        arange_3: "i64[16]" = torch.ops.aten.arange.start_step(0, 16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        add_2: "i64[16]" = torch.ops.aten.add.Tensor(arange_3, 0);  arange_3 = None

        # File: transformers/masking_utils.py:511 in sdpa_mask, code: kv_arange = torch.arange(kv_length, device=device) + kv_offset
        arange_4: "i64[16]" = torch.ops.aten.arange.start_step(0, 16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        add_3: "i64[16]" = torch.ops.aten.add.Tensor(arange_4, 0);  arange_4 = None

        # File: transformers/masking_utils.py:365 in _non_vmap_expansion_sdpa, code: batch_indices = batch_indices[:, None, None, None]
        unsqueeze_1: "i64[2, 1]" = torch.ops.aten.unsqueeze.default(arange_1, 1);  arange_1 = None
        unsqueeze_2: "i64[2, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_1, 2);  unsqueeze_1 = None
        unsqueeze_3: "i64[2, 1, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_2, 3);  unsqueeze_2 = None

        # File: transformers/masking_utils.py:367 in _non_vmap_expansion_sdpa, code: q_indices = q_indices[None, None, :, None]
        unsqueeze_4: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add_2, 0);  add_2 = None
        unsqueeze_5: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze_4, 1);  unsqueeze_4 = None
        unsqueeze_6: "i64[1, 1, 16, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_5, 3);  unsqueeze_5 = None

        # File: transformers/masking_utils.py:368 in _non_vmap_expansion_sdpa, code: kv_indices = kv_indices[None, None, None, :]
        unsqueeze_7: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add_3, 0);  add_3 = None
        unsqueeze_8: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze_7, 1);  unsqueeze_7 = None
        unsqueeze_9: "i64[1, 1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze_8, 2);  unsqueeze_8 = None

        # File: transformers/masking_utils.py:55 in and_mask, code: result = q_idx.new_ones((), dtype=torch.bool)
        full: "b8[]" = torch.ops.aten.full.default([], True, dtype = torch.bool, layout = torch.strided, device = device(type='cpu'), pin_memory = False)

        # File: transformers/masking_utils.py:81 in causal_mask_function, code: return kv_idx <= q_idx
        le: "b8[1, 1, 16, 16]" = torch.ops.aten.le.Tensor(unsqueeze_9, unsqueeze_6)

        # File: transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        bitwise_and: "b8[1, 1, 16, 16]" = torch.ops.aten.bitwise_and.Tensor(full, le);  full = le = None

        # File: transformers/masking_utils.py:189 in inner_mask, code: return packed_sequence_mask[batch_idx, q_idx] == packed_sequence_mask[batch_idx, kv_idx]
        index: "i64[2, 1, 16, 1]" = torch.ops.aten.index.Tensor(cumsum, [unsqueeze_3, unsqueeze_6]);  unsqueeze_6 = None
        index_1: "i64[2, 1, 1, 16]" = torch.ops.aten.index.Tensor(cumsum, [unsqueeze_3, unsqueeze_9]);  cumsum = unsqueeze_3 = unsqueeze_9 = None
        eq: "b8[2, 1, 16, 16]" = torch.ops.aten.eq.Tensor(index, index_1);  index = index_1 = None

        # File: transformers/masking_utils.py:57 in and_mask, code: result = result & mask(batch_idx, head_idx, q_idx, kv_idx).to(result.device)
        bitwise_and_1: "b8[2, 1, 16, 16]" = torch.ops.aten.bitwise_and.Tensor(bitwise_and, eq);  bitwise_and = eq = None

        # File: transformers/masking_utils.py:519 in sdpa_mask, code: attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)
        expand_1: "b8[2, 1, 16, 16]" = torch.ops.aten.expand.default(bitwise_and_1, [2, -1, 16, 16]);  bitwise_and_1 = None

        # File: transformers/masking_utils.py:604 in eager_mask, code: mask = torch.where(mask, torch.tensor(0.0, device=mask.device, dtype=dtype), min_dtype)
        _tensor_constant0: "f32[]" = self._tensor_constant0
        lift_fresh_copy: "f32[]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant0);  _tensor_constant0 = None
        scalar_tensor: "f32[]" = torch.ops.aten.scalar_tensor.default(-3.4028234663852886e+38, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[2, 1, 16, 16]" = torch.ops.aten.where.self(expand_1, lift_fresh_copy, scalar_tensor);  expand_1 = lift_fresh_copy = scalar_tensor = None

        # File: transformers/models/gpt2/modeling_gpt2.py:603 in forward, code: hidden_states = self.drop(hidden_states)
        clone: "f32[2, 16, 64]" = torch.ops.aten.clone.default(add_1);  add_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:273 in forward, code: hidden_states = self.ln_1(hidden_states)
        native_layer_norm = torch.ops.aten.native_layer_norm.default(clone, [64], arg3_1, arg4_1, 1e-05);  arg3_1 = arg4_1 = None
        getitem: "f32[2, 16, 64]" = native_layer_norm[0];  native_layer_norm = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_1: "f32[32, 64]" = torch.ops.aten.view.default(getitem, [-1, 64]);  getitem = None
        addmm: "f32[32, 192]" = torch.ops.aten.addmm.default(arg5_1, view_1, arg6_1);  arg5_1 = view_1 = arg6_1 = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        view_2: "f32[2, 16, 192]" = torch.ops.aten.view.default(addmm, [2, 16, 192]);  addmm = None

        # File: transformers/models/gpt2/modeling_gpt2.py:185 in forward, code: query_states, key_states, value_states = self.c_attn(hidden_states).split(self.split_size, dim=2)
        split_with_sizes = torch.ops.aten.split_with_sizes.default(view_2, [64, 64, 64], 2);  view_2 = None
        getitem_3: "f32[2, 16, 64]" = split_with_sizes[0]
        getitem_4: "f32[2, 16, 64]" = split_with_sizes[1]
        getitem_5: "f32[2, 16, 64]" = split_with_sizes[2];  split_with_sizes = None

        # File: transformers/models/gpt2/modeling_gpt2.py:187 in forward, code: key_states = key_states.view(shape_kv).transpose(1, 2)
        view_3: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(getitem_4, [2, 16, -1, 32]);  getitem_4 = None
        permute: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_3, [0, 2, 1, 3]);  view_3 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:188 in forward, code: value_states = value_states.view(shape_kv).transpose(1, 2)
        view_4: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(getitem_5, [2, 16, -1, 32]);  getitem_5 = None
        permute_1: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_4, [0, 2, 1, 3]);  view_4 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:191 in forward, code: query_states = query_states.view(shape_q).transpose(1, 2)
        view_5: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(getitem_3, [2, 16, -1, 32]);  getitem_3 = None
        permute_2: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_5, [0, 2, 1, 3]);  view_5 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:58 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(-1, -2)) * scaling
        permute_3: "f32[2, 2, 32, 16]" = torch.ops.aten.permute.default(permute, [0, 1, 3, 2]);  permute = None
        expand_2: "f32[2, 2, 16, 32]" = torch.ops.aten.expand.default(permute_2, [2, 2, 16, 32]);  permute_2 = None
        clone_1: "f32[2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_2, memory_format = torch.contiguous_format);  expand_2 = None
        view_6: "f32[4, 16, 32]" = torch.ops.aten.view.default(clone_1, [4, 16, 32]);  clone_1 = None
        expand_3: "f32[2, 2, 32, 16]" = torch.ops.aten.expand.default(permute_3, [2, 2, 32, 16]);  permute_3 = None
        clone_2: "f32[2, 2, 32, 16]" = torch.ops.aten.clone.default(expand_3, memory_format = torch.contiguous_format);  expand_3 = None
        view_7: "f32[4, 32, 16]" = torch.ops.aten.view.default(clone_2, [4, 32, 16]);  clone_2 = None
        bmm: "f32[4, 16, 16]" = torch.ops.aten.bmm.default(view_6, view_7);  view_6 = view_7 = None
        view_8: "f32[2, 2, 16, 16]" = torch.ops.aten.view.default(bmm, [2, 2, 16, 16]);  bmm = None
        mul: "f32[2, 2, 16, 16]" = torch.ops.aten.mul.Tensor(view_8, 0.1767766952966369);  view_8 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:61 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_4: "f32[2, 2, 16, 16]" = torch.ops.aten.add.Tensor(mul, where);  mul = None

        # File: transformers/models/gpt2/modeling_gpt2.py:63 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        _softmax: "f32[2, 2, 16, 16]" = torch.ops.aten._softmax.default(add_4, -1, False);  add_4 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:67 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_3: "f32[2, 2, 16, 16]" = torch.ops.aten.clone.default(_softmax);  _softmax = None

        # File: transformers/models/gpt2/modeling_gpt2.py:69 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        expand_4: "f32[2, 2, 16, 16]" = torch.ops.aten.expand.default(clone_3, [2, 2, 16, 16]);  clone_3 = None
        view_9: "f32[4, 16, 16]" = torch.ops.aten.view.default(expand_4, [4, 16, 16]);  expand_4 = None
        expand_5: "f32[2, 2, 16, 32]" = torch.ops.aten.expand.default(permute_1, [2, 2, 16, 32]);  permute_1 = None
        clone_4: "f32[2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_5, memory_format = torch.contiguous_format);  expand_5 = None
        view_10: "f32[4, 16, 32]" = torch.ops.aten.view.default(clone_4, [4, 16, 32]);  clone_4 = None
        bmm_1: "f32[4, 16, 32]" = torch.ops.aten.bmm.default(view_9, view_10);  view_9 = view_10 = None
        view_11: "f32[2, 2, 16, 32]" = torch.ops.aten.view.default(bmm_1, [2, 2, 16, 32]);  bmm_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:70 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2)
        permute_4: "f32[2, 16, 2, 32]" = torch.ops.aten.permute.default(view_11, [0, 2, 1, 3]);  view_11 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:222 in forward, code: attn_output = attn_output.reshape(*attn_output.shape[:-2], -1).contiguous()
        clone_5: "f32[2, 16, 2, 32]" = torch.ops.aten.clone.default(permute_4, memory_format = torch.contiguous_format);  permute_4 = None
        view_12: "f32[2, 16, 64]" = torch.ops.aten.view.default(clone_5, [2, 16, 64]);  clone_5 = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_13: "f32[32, 64]" = torch.ops.aten.view.default(view_12, [-1, 64]);  view_12 = None
        addmm_1: "f32[32, 64]" = torch.ops.aten.addmm.default(arg7_1, view_13, arg8_1);  arg7_1 = view_13 = arg8_1 = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        view_14: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_1, [2, 16, 64]);  addmm_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:224 in forward, code: attn_output = self.resid_dropout(attn_output)
        clone_6: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_14);  view_14 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:282 in forward, code: hidden_states = attn_output + residual
        add_5: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(clone_6, clone);  clone_6 = clone = None

        # File: transformers/models/gpt2/modeling_gpt2.py:304 in forward, code: hidden_states = self.ln_2(hidden_states)
        native_layer_norm_1 = torch.ops.aten.native_layer_norm.default(add_5, [64], arg9_1, arg10_1, 1e-05);  arg9_1 = arg10_1 = None
        getitem_6: "f32[2, 16, 64]" = native_layer_norm_1[0];  native_layer_norm_1 = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_15: "f32[32, 64]" = torch.ops.aten.view.default(getitem_6, [-1, 64]);  getitem_6 = None
        addmm_2: "f32[32, 256]" = torch.ops.aten.addmm.default(arg11_1, view_15, arg12_1);  arg11_1 = view_15 = arg12_1 = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        view_16: "f32[2, 16, 256]" = torch.ops.aten.view.default(addmm_2, [2, 16, 256]);  addmm_2 = None

        # File: transformers/activations.py:66 in forward, code: return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))
        mul_1: "f32[2, 16, 256]" = torch.ops.aten.mul.Tensor(view_16, 0.5)
        pow_1: "f32[2, 16, 256]" = torch.ops.aten.pow.Tensor_Scalar(view_16, 3.0)
        mul_2: "f32[2, 16, 256]" = torch.ops.aten.mul.Tensor(pow_1, 0.044715);  pow_1 = None
        add_6: "f32[2, 16, 256]" = torch.ops.aten.add.Tensor(view_16, mul_2);  view_16 = mul_2 = None
        mul_3: "f32[2, 16, 256]" = torch.ops.aten.mul.Tensor(add_6, 0.7978845608028654);  add_6 = None
        tanh: "f32[2, 16, 256]" = torch.ops.aten.tanh.default(mul_3);  mul_3 = None
        add_7: "f32[2, 16, 256]" = torch.ops.aten.add.Tensor(tanh, 1.0);  tanh = None
        mul_4: "f32[2, 16, 256]" = torch.ops.aten.mul.Tensor(mul_1, add_7);  mul_1 = add_7 = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_17: "f32[32, 256]" = torch.ops.aten.view.default(mul_4, [-1, 256]);  mul_4 = None
        addmm_3: "f32[32, 64]" = torch.ops.aten.addmm.default(arg13_1, view_17, arg14_1);  arg13_1 = view_17 = arg14_1 = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        view_18: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_3, [2, 16, 64]);  addmm_3 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:242 in forward, code: hidden_states = self.dropout(hidden_states)
        clone_7: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_18);  view_18 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:307 in forward, code: hidden_states = residual + feed_forward_hidden_states
        add_8: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(add_5, clone_7);  add_5 = clone_7 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:273 in forward, code: hidden_states = self.ln_1(hidden_states)
        native_layer_norm_2 = torch.ops.aten.native_layer_norm.default(add_8, [64], arg15_1, arg16_1, 1e-05);  arg15_1 = arg16_1 = None
        getitem_9: "f32[2, 16, 64]" = native_layer_norm_2[0];  native_layer_norm_2 = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_19: "f32[32, 64]" = torch.ops.aten.view.default(getitem_9, [-1, 64]);  getitem_9 = None
        addmm_4: "f32[32, 192]" = torch.ops.aten.addmm.default(arg17_1, view_19, arg18_1);  arg17_1 = view_19 = arg18_1 = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        view_20: "f32[2, 16, 192]" = torch.ops.aten.view.default(addmm_4, [2, 16, 192]);  addmm_4 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:185 in forward, code: query_states, key_states, value_states = self.c_attn(hidden_states).split(self.split_size, dim=2)
        split_with_sizes_1 = torch.ops.aten.split_with_sizes.default(view_20, [64, 64, 64], 2);  view_20 = None
        getitem_12: "f32[2, 16, 64]" = split_with_sizes_1[0]
        getitem_13: "f32[2, 16, 64]" = split_with_sizes_1[1]
        getitem_14: "f32[2, 16, 64]" = split_with_sizes_1[2];  split_with_sizes_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:187 in forward, code: key_states = key_states.view(shape_kv).transpose(1, 2)
        view_21: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(getitem_13, [2, 16, -1, 32]);  getitem_13 = None
        permute_5: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_21, [0, 2, 1, 3]);  view_21 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:188 in forward, code: value_states = value_states.view(shape_kv).transpose(1, 2)
        view_22: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(getitem_14, [2, 16, -1, 32]);  getitem_14 = None
        permute_6: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_22, [0, 2, 1, 3]);  view_22 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:191 in forward, code: query_states = query_states.view(shape_q).transpose(1, 2)
        view_23: "f32[2, 16, 2, 32]" = torch.ops.aten.view.default(getitem_12, [2, 16, -1, 32]);  getitem_12 = None
        permute_7: "f32[2, 2, 16, 32]" = torch.ops.aten.permute.default(view_23, [0, 2, 1, 3]);  view_23 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:58 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(-1, -2)) * scaling
        permute_8: "f32[2, 2, 32, 16]" = torch.ops.aten.permute.default(permute_5, [0, 1, 3, 2]);  permute_5 = None
        expand_6: "f32[2, 2, 16, 32]" = torch.ops.aten.expand.default(permute_7, [2, 2, 16, 32]);  permute_7 = None
        clone_8: "f32[2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_6, memory_format = torch.contiguous_format);  expand_6 = None
        view_24: "f32[4, 16, 32]" = torch.ops.aten.view.default(clone_8, [4, 16, 32]);  clone_8 = None
        expand_7: "f32[2, 2, 32, 16]" = torch.ops.aten.expand.default(permute_8, [2, 2, 32, 16]);  permute_8 = None
        clone_9: "f32[2, 2, 32, 16]" = torch.ops.aten.clone.default(expand_7, memory_format = torch.contiguous_format);  expand_7 = None
        view_25: "f32[4, 32, 16]" = torch.ops.aten.view.default(clone_9, [4, 32, 16]);  clone_9 = None
        bmm_2: "f32[4, 16, 16]" = torch.ops.aten.bmm.default(view_24, view_25);  view_24 = view_25 = None
        view_26: "f32[2, 2, 16, 16]" = torch.ops.aten.view.default(bmm_2, [2, 2, 16, 16]);  bmm_2 = None
        mul_5: "f32[2, 2, 16, 16]" = torch.ops.aten.mul.Tensor(view_26, 0.1767766952966369);  view_26 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:61 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_9: "f32[2, 2, 16, 16]" = torch.ops.aten.add.Tensor(mul_5, where);  mul_5 = where = None

        # File: transformers/models/gpt2/modeling_gpt2.py:63 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        _softmax_1: "f32[2, 2, 16, 16]" = torch.ops.aten._softmax.default(add_9, -1, False);  add_9 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:67 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_10: "f32[2, 2, 16, 16]" = torch.ops.aten.clone.default(_softmax_1);  _softmax_1 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:69 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        expand_8: "f32[2, 2, 16, 16]" = torch.ops.aten.expand.default(clone_10, [2, 2, 16, 16]);  clone_10 = None
        view_27: "f32[4, 16, 16]" = torch.ops.aten.view.default(expand_8, [4, 16, 16]);  expand_8 = None
        expand_9: "f32[2, 2, 16, 32]" = torch.ops.aten.expand.default(permute_6, [2, 2, 16, 32]);  permute_6 = None
        clone_11: "f32[2, 2, 16, 32]" = torch.ops.aten.clone.default(expand_9, memory_format = torch.contiguous_format);  expand_9 = None
        view_28: "f32[4, 16, 32]" = torch.ops.aten.view.default(clone_11, [4, 16, 32]);  clone_11 = None
        bmm_3: "f32[4, 16, 32]" = torch.ops.aten.bmm.default(view_27, view_28);  view_27 = view_28 = None
        view_29: "f32[2, 2, 16, 32]" = torch.ops.aten.view.default(bmm_3, [2, 2, 16, 32]);  bmm_3 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:70 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2)
        permute_9: "f32[2, 16, 2, 32]" = torch.ops.aten.permute.default(view_29, [0, 2, 1, 3]);  view_29 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:222 in forward, code: attn_output = attn_output.reshape(*attn_output.shape[:-2], -1).contiguous()
        clone_12: "f32[2, 16, 2, 32]" = torch.ops.aten.clone.default(permute_9, memory_format = torch.contiguous_format);  permute_9 = None
        view_30: "f32[2, 16, 64]" = torch.ops.aten.view.default(clone_12, [2, 16, 64]);  clone_12 = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_31: "f32[32, 64]" = torch.ops.aten.view.default(view_30, [-1, 64]);  view_30 = None
        addmm_5: "f32[32, 64]" = torch.ops.aten.addmm.default(arg19_1, view_31, arg20_1);  arg19_1 = view_31 = arg20_1 = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        view_32: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_5, [2, 16, 64]);  addmm_5 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:224 in forward, code: attn_output = self.resid_dropout(attn_output)
        clone_13: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_32);  view_32 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:282 in forward, code: hidden_states = attn_output + residual
        add_10: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(clone_13, add_8);  clone_13 = add_8 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:304 in forward, code: hidden_states = self.ln_2(hidden_states)
        native_layer_norm_3 = torch.ops.aten.native_layer_norm.default(add_10, [64], arg21_1, arg22_1, 1e-05);  arg21_1 = arg22_1 = None
        getitem_15: "f32[2, 16, 64]" = native_layer_norm_3[0];  native_layer_norm_3 = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_33: "f32[32, 64]" = torch.ops.aten.view.default(getitem_15, [-1, 64]);  getitem_15 = None
        addmm_6: "f32[32, 256]" = torch.ops.aten.addmm.default(arg23_1, view_33, arg24_1);  arg23_1 = view_33 = arg24_1 = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        view_34: "f32[2, 16, 256]" = torch.ops.aten.view.default(addmm_6, [2, 16, 256]);  addmm_6 = None

        # File: transformers/activations.py:66 in forward, code: return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))
        mul_6: "f32[2, 16, 256]" = torch.ops.aten.mul.Tensor(view_34, 0.5)
        pow_2: "f32[2, 16, 256]" = torch.ops.aten.pow.Tensor_Scalar(view_34, 3.0)
        mul_7: "f32[2, 16, 256]" = torch.ops.aten.mul.Tensor(pow_2, 0.044715);  pow_2 = None
        add_11: "f32[2, 16, 256]" = torch.ops.aten.add.Tensor(view_34, mul_7);  view_34 = mul_7 = None
        mul_8: "f32[2, 16, 256]" = torch.ops.aten.mul.Tensor(add_11, 0.7978845608028654);  add_11 = None
        tanh_1: "f32[2, 16, 256]" = torch.ops.aten.tanh.default(mul_8);  mul_8 = None
        add_12: "f32[2, 16, 256]" = torch.ops.aten.add.Tensor(tanh_1, 1.0);  tanh_1 = None
        mul_9: "f32[2, 16, 256]" = torch.ops.aten.mul.Tensor(mul_6, add_12);  mul_6 = add_12 = None

        # File: transformers/pytorch_utils.py:119 in forward, code: x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        view_35: "f32[32, 256]" = torch.ops.aten.view.default(mul_9, [-1, 256]);  mul_9 = None
        addmm_7: "f32[32, 64]" = torch.ops.aten.addmm.default(arg25_1, view_35, arg26_1);  arg25_1 = view_35 = arg26_1 = None

        # File: transformers/pytorch_utils.py:120 in forward, code: x = x.view(size_out)
        view_36: "f32[2, 16, 64]" = torch.ops.aten.view.default(addmm_7, [2, 16, 64]);  addmm_7 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:242 in forward, code: hidden_states = self.dropout(hidden_states)
        clone_14: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_36);  view_36 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:307 in forward, code: hidden_states = residual + feed_forward_hidden_states
        add_13: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(add_10, clone_14);  add_10 = clone_14 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:619 in forward, code: hidden_states = self.ln_f(hidden_states)
        native_layer_norm_4 = torch.ops.aten.native_layer_norm.default(add_13, [64], arg27_1, arg28_1, 1e-05);  add_13 = arg27_1 = arg28_1 = None
        getitem_18: "f32[2, 16, 64]" = native_layer_norm_4[0];  native_layer_norm_4 = None

        # File: transformers/models/gpt2/modeling_gpt2.py:621 in forward, code: hidden_states = hidden_states.view(output_shape)
        view_37: "f32[2, 16, 64]" = torch.ops.aten.view.default(getitem_18, [-1, 16, 64]);  getitem_18 = None
        return (view_37,)
