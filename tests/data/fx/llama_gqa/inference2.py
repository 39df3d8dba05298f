class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "i64[2, 16]", arg1_1: "f32[128, 64]", arg2_1: "f32[8]", arg3_1: "f32[64]", arg4_1: "f32[64, 64]", arg5_1: "f32[32, 64]", arg6_1: "f32[32, 64]", arg7_1: "f32[64, 64]", arg8_1: "f32[64]", arg9_1: "f32[128, 64]", arg10_1: "f32[128, 64]", arg11_1: "f32[64, 128]", arg12_1: "f32[64]", arg13_1: "f32[64, 64]", arg14_1: "f32[32, 64]", arg15_1: "f32[32, 64]", arg16_1: "f32[64, 64]", arg17_1: "f32[64]", arg18_1: "f32[128, 64]", arg19_1: "f32[128, 64]", arg20_1: "f32[64, 128]", arg21_1: "f32[64]"):
        # File: transformers/models/llama/modeling_llama.py:381 in forward, code: inputs_embeds: torch.Tensor = self.embed_tokens(input_ids)
        embedding: "f32[2, 16, 64]" = torch.ops.aten.embedding.default(arg1_1, arg0_1);  arg1_1 = arg0_1 = None

        # File: transformers/models/llama/modeling_llama.py:388 in forward, code: position_ids = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device) + past_seen_tokens
        arange: "i64[16]" = torch.ops.aten.arange.start_step(0, 16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        add: "i64[16]" = torch.ops.aten.add.Tensor(arange, 0);  arange = None

        # File: transformers/models/llama/modeling_llama.py:389 in forward, code: position_ids = position_ids.unsqueeze(0)
        unsqueeze: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add, 0);  add = None

        # File: transformers/masking_utils.py:859 in _preprocess_mask_arguments, code: position_ids = position_ids.expand(batch_size, -1)
        expand: "i64[2, 16]" = torch.ops.aten.expand.default(unsqueeze, [2, -1])

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
        add_1: "i64[16]" = torch.ops.aten.add.Tensor(arange_3, 0);  arange_3 = None

        # File: transformers/masking_utils.py:511 in sdpa_mask, code: kv_arange = torch.arange(kv_length, device=device) + kv_offset
        arange_4: "i64[16]" = torch.ops.aten.arange.start_step(0, 16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        add_2: "i64[16]" = torch.ops.aten.add.Tensor(arange_4, 0);  arange_4 = None

        # File: transformers/masking_utils.py:365 in _non_vmap_expansion_sdpa, code: batch_indices = batch_indices[:, None, None, None]
        unsqueeze_1: "i64[2, 1]" = torch.ops.aten.unsqueeze.default(arange_1, 1);  arange_1 = None
        unsqueeze_2: "i64[2, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_1, 2);  unsqueeze_1 = None
        unsqueeze_3: "i64[2, 1, 1, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_2, 3);  unsqueeze_2 = None

        # File: transformers/masking_utils.py:367 in _non_vmap_expansion_sdpa, code: q_indices = q_indices[None, None, :, None]
        unsqueeze_4: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add_1, 0);  add_1 = None
        unsqueeze_5: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze_4, 1);  unsqueeze_4 = None
        unsqueeze_6: "i64[1, 1, 16, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_5, 3);  unsqueeze_5 = None

        # File: transformers/masking_utils.py:368 in _non_vmap_expansion_sdpa, code: kv_indices = kv_indices[None, None, None, :]
        unsqueeze_7: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add_2, 0);  add_2 = None
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

        # File: transformers/models/llama/modeling_llama.py:115 in forward, code: self.inv_freq[None, :, None].expand(position_ids.shape[0], -1, 1).to(dtype=torch.float, device=x.device)
        unsqueeze_10: "f32[1, 8]" = torch.ops.aten.unsqueeze.default(arg2_1, 0);  arg2_1 = None
        unsqueeze_11: "f32[1, 8, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_10, 2);  unsqueeze_10 = None
        expand_2: "f32[1, 8, 1]" = torch.ops.aten.expand.default(unsqueeze_11, [1, -1, 1]);  unsqueeze_11 = None

        # File: transformers/models/llama/modeling_llama.py:117 in forward, code: position_ids_expanded = position_ids[:, None, :].float()
        unsqueeze_12: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze, 1);  unsqueeze = None
        _to_copy: "f32[1, 1, 16]" = torch.ops.aten._to_copy.default(unsqueeze_12, dtype = torch.float32);  unsqueeze_12 = None

        # File: transformers/models/llama/modeling_llama.py:122 in forward, code: freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        expand_3: "f32[1, 8, 1]" = torch.ops.aten.expand.default(expand_2, [1, 8, 1]);  expand_2 = None
        view: "f32[1, 8, 1]" = torch.ops.aten.view.default(expand_3, [1, 8, 1]);  expand_3 = None
        expand_4: "f32[1, 1, 16]" = torch.ops.aten.expand.default(_to_copy, [1, 1, 16]);  _to_copy = None
        view_1: "f32[1, 1, 16]" = torch.ops.aten.view.default(expand_4, [1, 1, 16]);  expand_4 = None
        bmm: "f32[1, 8, 16]" = torch.ops.aten.bmm.default(view, view_1);  view = view_1 = None
        view_2: "f32[1, 8, 16]" = torch.ops.aten.view.default(bmm, [1, 8, 16]);  bmm = None
        permute: "f32[1, 16, 8]" = torch.ops.aten.permute.default(view_2, [0, 2, 1]);  view_2 = None

        # File: transformers/models/llama/modeling_llama.py:123 in forward, code: emb = torch.cat((freqs, freqs), dim=-1)
        cat_1: "f32[1, 16, 16]" = torch.ops.aten.cat.default([permute, permute], -1);  permute = None

        # File: transformers/models/llama/modeling_llama.py:124 in forward, code: cos = emb.cos() * self.attention_scaling
        cos: "f32[1, 16, 16]" = torch.ops.aten.cos.default(cat_1)
        mul: "f32[1, 16, 16]" = torch.ops.aten.mul.Tensor(cos, 1.0);  cos = None

        # File: transformers/models/llama/modeling_llama.py:125 in forward, code: sin = emb.sin() * self.attention_scaling
        sin: "f32[1, 16, 16]" = torch.ops.aten.sin.default(cat_1);  cat_1 = None
        mul_1: "f32[1, 16, 16]" = torch.ops.aten.mul.Tensor(sin, 1.0);  sin = None

        # File: transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_1: "f32[2, 16, 64]" = torch.ops.aten.pow.Tensor_Scalar(embedding, 2)
        mean: "f32[2, 16, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None

        # File: transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_3: "f32[2, 16, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
        rsqrt: "f32[2, 16, 1]" = torch.ops.aten.rsqrt.default(add_3);  add_3 = None
        mul_2: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(embedding, rsqrt);  rsqrt = None

        # File: transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_3: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(arg3_1, mul_2);  arg3_1 = mul_2 = None

        # File: transformers/models/llama/modeling_llama.py:254 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_1: "f32[64, 64]" = torch.ops.aten.permute.default(arg4_1, [1, 0]);  arg4_1 = None
        view_3: "f32[32, 64]" = torch.ops.aten.view.default(mul_3, [32, 64])
        mm: "f32[32, 64]" = torch.ops.aten.mm.default(view_3, permute_1);  view_3 = permute_1 = None
        view_4: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm, [2, 16, 64]);  mm = None
        view_5: "f32[2, 16, 4, 16]" = torch.ops.aten.view.default(view_4, [2, 16, -1, 16]);  view_4 = None
        permute_2: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(view_5, [0, 2, 1, 3]);  view_5 = None

        # File: transformers/models/llama/modeling_llama.py:255 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_3: "f32[64, 32]" = torch.ops.aten.permute.default(arg5_1, [1, 0]);  arg5_1 = None
        view_6: "f32[32, 64]" = torch.ops.aten.view.default(mul_3, [32, 64])
        mm_1: "f32[32, 32]" = torch.ops.aten.mm.default(view_6, permute_3);  view_6 = permute_3 = None
        view_7: "f32[2, 16, 32]" = torch.ops.aten.view.default(mm_1, [2, 16, 32]);  mm_1 = None
        view_8: "f32[2, 16, 2, 16]" = torch.ops.aten.view.default(view_7, [2, 16, -1, 16]);  view_7 = None
        permute_4: "f32[2, 2, 16, 16]" = torch.ops.aten.permute.default(view_8, [0, 2, 1, 3]);  view_8 = None

        # File: transformers/models/llama/modeling_llama.py:256 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_5: "f32[64, 32]" = torch.ops.aten.permute.default(arg6_1, [1, 0]);  arg6_1 = None
        view_9: "f32[32, 64]" = torch.ops.aten.view.default(mul_3, [32, 64]);  mul_3 = None
        mm_2: "f32[32, 32]" = torch.ops.aten.mm.default(view_9, permute_5);  view_9 = permute_5 = None
        view_10: "f32[2, 16, 32]" = torch.ops.aten.view.default(mm_2, [2, 16, 32]);  mm_2 = None
        view_11: "f32[2, 16, 2, 16]" = torch.ops.aten.view.default(view_10, [2, 16, -1, 16]);  view_10 = None
        permute_6: "f32[2, 2, 16, 16]" = torch.ops.aten.permute.default(view_11, [0, 2, 1, 3]);  view_11 = None

        # File: transformers/models/llama/modeling_llama.py:156 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_13: "f32[1, 1, 16, 16]" = torch.ops.aten.unsqueeze.default(mul, 1)

        # File: transformers/models/llama/modeling_llama.py:157 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_14: "f32[1, 1, 16, 16]" = torch.ops.aten.unsqueeze.default(mul_1, 1)

        # File: transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_4: "f32[2, 4, 16, 16]" = torch.ops.aten.mul.Tensor(permute_2, unsqueeze_13)

        # File: transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_4: "f32[2, 4, 16, 8]" = torch.ops.aten.slice.Tensor(permute_2, 3, 0, 8)

        # File: transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_5: "f32[2, 4, 16, 8]" = torch.ops.aten.slice.Tensor(permute_2, 3, 8, 9223372036854775807);  permute_2 = None

        # File: transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg: "f32[2, 4, 16, 8]" = torch.ops.aten.neg.default(slice_5);  slice_5 = None
        cat_2: "f32[2, 4, 16, 16]" = torch.ops.aten.cat.default([neg, slice_4], -1);  neg = slice_4 = None

        # File: transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_5: "f32[2, 4, 16, 16]" = torch.ops.aten.mul.Tensor(cat_2, unsqueeze_14);  cat_2 = None
        add_4: "f32[2, 4, 16, 16]" = torch.ops.aten.add.Tensor(mul_4, mul_5);  mul_4 = mul_5 = None

        # File: transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_6: "f32[2, 2, 16, 16]" = torch.ops.aten.mul.Tensor(permute_4, unsqueeze_13);  unsqueeze_13 = None

        # File: transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_6: "f32[2, 2, 16, 8]" = torch.ops.aten.slice.Tensor(permute_4, 3, 0, 8)

        # File: transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_7: "f32[2, 2, 16, 8]" = torch.ops.aten.slice.Tensor(permute_4, 3, 8, 9223372036854775807);  permute_4 = None

        # File: transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_1: "f32[2, 2, 16, 8]" = torch.ops.aten.neg.default(slice_7);  slice_7 = None
        cat_3: "f32[2, 2, 16, 16]" = torch.ops.aten.cat.default([neg_1, slice_6], -1);  neg_1 = slice_6 = None

        # File: transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_7: "f32[2, 2, 16, 16]" = torch.ops.aten.mul.Tensor(cat_3, unsqueeze_14);  cat_3 = unsqueeze_14 = None
        add_5: "f32[2, 2, 16, 16]" = torch.ops.aten.add.Tensor(mul_6, mul_7);  mul_6 = mul_7 = None

        # File: transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_15: "f32[2, 2, 1, 16, 16]" = torch.ops.aten.unsqueeze.default(add_5, 2);  add_5 = None
        expand_5: "f32[2, 2, 2, 16, 16]" = torch.ops.aten.expand.default(unsqueeze_15, [2, 2, 2, 16, 16]);  unsqueeze_15 = None

        # File: transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone: "f32[2, 2, 2, 16, 16]" = torch.ops.aten.clone.default(expand_5, memory_format = torch.contiguous_format);  expand_5 = None
        view_12: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(clone, [2, 4, 16, 16]);  clone = None

        # File: transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_16: "f32[2, 2, 1, 16, 16]" = torch.ops.aten.unsqueeze.default(permute_6, 2);  permute_6 = None
        expand_6: "f32[2, 2, 2, 16, 16]" = torch.ops.aten.expand.default(unsqueeze_16, [2, 2, 2, 16, 16]);  unsqueeze_16 = None

        # File: transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_1: "f32[2, 2, 2, 16, 16]" = torch.ops.aten.clone.default(expand_6, memory_format = torch.contiguous_format);  expand_6 = None
        view_13: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(clone_1, [2, 4, 16, 16]);  clone_1 = None

        # File: transformers/models/llama/modeling_llama.py:204 in eager_attention_forward, code: attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        permute_7: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(view_12, [0, 1, 3, 2]);  view_12 = None
        expand_7: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(add_4, [2, 4, 16, 16]);  add_4 = None
        clone_2: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(expand_7, memory_format = torch.contiguous_format);  expand_7 = None
        view_14: "f32[8, 16, 16]" = torch.ops.aten.view.default(clone_2, [8, 16, 16]);  clone_2 = None
        expand_8: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(permute_7, [2, 4, 16, 16]);  permute_7 = None
        view_15: "f32[8, 16, 16]" = torch.ops.aten.view.default(expand_8, [8, 16, 16]);  expand_8 = None
        bmm_1: "f32[8, 16, 16]" = torch.ops.aten.bmm.default(view_14, view_15);  view_14 = view_15 = None
        view_16: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(bmm_1, [2, 4, 16, 16]);  bmm_1 = None
        mul_8: "f32[2, 4, 16, 16]" = torch.ops.aten.mul.Tensor(view_16, 0.25);  view_16 = None

        # File: transformers/models/llama/modeling_llama.py:206 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_6: "f32[2, 4, 16, 16]" = torch.ops.aten.add.Tensor(mul_8, where);  mul_8 = None

        # File: transformers/models/llama/modeling_llama.py:208 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        _softmax: "f32[2, 4, 16, 16]" = torch.ops.aten._softmax.default(add_6, -1, False);  add_6 = None

        # File: transformers/models/llama/modeling_llama.py:209 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_3: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(_softmax);  _softmax = None

        # File: transformers/models/llama/modeling_llama.py:210 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value_states)
        expand_9: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(clone_3, [2, 4, 16, 16]);  clone_3 = None
        view_17: "f32[8, 16, 16]" = torch.ops.aten.view.default(expand_9, [8, 16, 16]);  expand_9 = None
        expand_10: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(view_13, [2, 4, 16, 16]);  view_13 = None
        view_18: "f32[8, 16, 16]" = torch.ops.aten.view.default(expand_10, [8, 16, 16]);  expand_10 = None
        bmm_2: "f32[8, 16, 16]" = torch.ops.aten.bmm.default(view_17, view_18);  view_17 = view_18 = None
        view_19: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(bmm_2, [2, 4, 16, 16]);  bmm_2 = None

        # File: transformers/models/llama/modeling_llama.py:211 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        permute_8: "f32[2, 16, 4, 16]" = torch.ops.aten.permute.default(view_19, [0, 2, 1, 3]);  view_19 = None
        clone_4: "f32[2, 16, 4, 16]" = torch.ops.aten.clone.default(permute_8, memory_format = torch.contiguous_format);  permute_8 = None

        # File: transformers/models/llama/modeling_llama.py:279 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_20: "f32[2, 16, 64]" = torch.ops.aten.view.default(clone_4, [2, 16, -1]);  clone_4 = None

        # File: transformers/models/llama/modeling_llama.py:280 in forward, code: attn_output = self.o_proj(attn_output)
        permute_9: "f32[64, 64]" = torch.ops.aten.permute.default(arg7_1, [1, 0]);  arg7_1 = None
        view_21: "f32[32, 64]" = torch.ops.aten.view.default(view_20, [32, 64]);  view_20 = None
        mm_3: "f32[32, 64]" = torch.ops.aten.mm.default(view_21, permute_9);  view_21 = permute_9 = None
        view_22: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_3, [2, 16, 64]);  mm_3 = None

        # File: transformers/models/llama/modeling_llama.py:317 in forward, code: hidden_states = residual + hidden_states
        add_7: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(embedding, view_22);  embedding = view_22 = None

        # File: transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_2: "f32[2, 16, 64]" = torch.ops.aten.pow.Tensor_Scalar(add_7, 2)
        mean_1: "f32[2, 16, 1]" = torch.ops.aten.mean.dim(pow_2, [-1], True);  pow_2 = None

        # File: transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_8: "f32[2, 16, 1]" = torch.ops.aten.add.Tensor(mean_1, 1e-06);  mean_1 = None
        rsqrt_1: "f32[2, 16, 1]" = torch.ops.aten.rsqrt.default(add_8);  add_8 = None
        mul_9: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(add_7, rsqrt_1);  rsqrt_1 = None

        # File: transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_10: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(arg8_1, mul_9);  arg8_1 = mul_9 = None

        # File: transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        permute_10: "f32[64, 128]" = torch.ops.aten.permute.default(arg9_1, [1, 0]);  arg9_1 = None
        view_23: "f32[32, 64]" = torch.ops.aten.view.default(mul_10, [32, 64])
        mm_4: "f32[32, 128]" = torch.ops.aten.mm.default(view_23, permute_10);  view_23 = permute_10 = None
        view_24: "f32[2, 16, 128]" = torch.ops.aten.view.default(mm_4, [2, 16, 128]);  mm_4 = None

        # File: transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        sigmoid: "f32[2, 16, 128]" = torch.ops.aten.sigmoid.default(view_24)
        mul_11: "f32[2, 16, 128]" = torch.ops.aten.mul.Tensor(view_24, sigmoid);  view_24 = sigmoid = None

        # File: transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        permute_11: "f32[64, 128]" = torch.ops.aten.permute.default(arg10_1, [1, 0]);  arg10_1 = None
        view_25: "f32[32, 64]" = torch.ops.aten.view.default(mul_10, [32, 64]);  mul_10 = None
        mm_5: "f32[32, 128]" = torch.ops.aten.mm.default(view_25, permute_11);  view_25 = permute_11 = None
        view_26: "f32[2, 16, 128]" = torch.ops.aten.view.default(mm_5, [2, 16, 128]);  mm_5 = None
        mul_12: "f32[2, 16, 128]" = torch.ops.aten.mul.Tensor(mul_11, view_26);  mul_11 = view_26 = None
        permute_12: "f32[128, 64]" = torch.ops.aten.permute.default(arg11_1, [1, 0]);  arg11_1 = None
        view_27: "f32[32, 128]" = torch.ops.aten.view.default(mul_12, [32, 128]);  mul_12 = None
        mm_6: "f32[32, 64]" = torch.ops.aten.mm.default(view_27, permute_12);  view_27 = permute_12 = None
        view_28: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_6, [2, 16, 64]);  mm_6 = None

        # File: transformers/models/llama/modeling_llama.py:323 in forward, code: hidden_states = residual + hidden_states
        add_9: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(add_7, view_28);  add_7 = view_28 = None

        # File: transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_3: "f32[2, 16, 64]" = torch.ops.aten.pow.Tensor_Scalar(add_9, 2)
        mean_2: "f32[2, 16, 1]" = torch.ops.aten.mean.dim(pow_3, [-1], True);  pow_3 = None

        # File: transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_10: "f32[2, 16, 1]" = torch.ops.aten.add.Tensor(mean_2, 1e-06);  mean_2 = None
        rsqrt_2: "f32[2, 16, 1]" = torch.ops.aten.rsqrt.default(add_10);  add_10 = None
        mul_13: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(add_9, rsqrt_2);  rsqrt_2 = None

        # File: transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_14: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(arg12_1, mul_13);  arg12_1 = mul_13 = None

        # File: transformers/models/llama/modeling_llama.py:254 in forward, code: query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_13: "f32[64, 64]" = torch.ops.aten.permute.default(arg13_1, [1, 0]);  arg13_1 = None
        view_29: "f32[32, 64]" = torch.ops.aten.view.default(mul_14, [32, 64])
        mm_7: "f32[32, 64]" = torch.ops.aten.mm.default(view_29, permute_13);  view_29 = permute_13 = None
        view_30: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_7, [2, 16, 64]);  mm_7 = None
        view_31: "f32[2, 16, 4, 16]" = torch.ops.aten.view.default(view_30, [2, 16, -1, 16]);  view_30 = None
        permute_14: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(view_31, [0, 2, 1, 3]);  view_31 = None

        # File: transformers/models/llama/modeling_llama.py:255 in forward, code: key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_15: "f32[64, 32]" = torch.ops.aten.permute.default(arg14_1, [1, 0]);  arg14_1 = None
        view_32: "f32[32, 64]" = torch.ops.aten.view.default(mul_14, [32, 64])
        mm_8: "f32[32, 32]" = torch.ops.aten.mm.default(view_32, permute_15);  view_32 = permute_15 = None
        view_33: "f32[2, 16, 32]" = torch.ops.aten.view.default(mm_8, [2, 16, 32]);  mm_8 = None
        view_34: "f32[2, 16, 2, 16]" = torch.ops.aten.view.default(view_33, [2, 16, -1, 16]);  view_33 = None
        permute_16: "f32[2, 2, 16, 16]" = torch.ops.aten.permute.default(view_34, [0, 2, 1, 3]);  view_34 = None

        # File: transformers/models/llama/modeling_llama.py:256 in forward, code: value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_17: "f32[64, 32]" = torch.ops.aten.permute.default(arg15_1, [1, 0]);  arg15_1 = None
        view_35: "f32[32, 64]" = torch.ops.aten.view.default(mul_14, [32, 64]);  mul_14 = None
        mm_9: "f32[32, 32]" = torch.ops.aten.mm.default(view_35, permute_17);  view_35 = permute_17 = None
        view_36: "f32[2, 16, 32]" = torch.ops.aten.view.default(mm_9, [2, 16, 32]);  mm_9 = None
        view_37: "f32[2, 16, 2, 16]" = torch.ops.aten.view.default(view_36, [2, 16, -1, 16]);  view_36 = None
        permute_18: "f32[2, 2, 16, 16]" = torch.ops.aten.permute.default(view_37, [0, 2, 1, 3]);  view_37 = None

        # File: transformers/models/llama/modeling_llama.py:156 in apply_rotary_pos_emb, code: cos = cos.unsqueeze(unsqueeze_dim)
        unsqueeze_17: "f32[1, 1, 16, 16]" = torch.ops.aten.unsqueeze.default(mul, 1);  mul = None

        # File: transformers/models/llama/modeling_llama.py:157 in apply_rotary_pos_emb, code: sin = sin.unsqueeze(unsqueeze_dim)
        unsqueeze_18: "f32[1, 1, 16, 16]" = torch.ops.aten.unsqueeze.default(mul_1, 1);  mul_1 = None

        # File: transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_15: "f32[2, 4, 16, 16]" = torch.ops.aten.mul.Tensor(permute_14, unsqueeze_17)

        # File: transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_8: "f32[2, 4, 16, 8]" = torch.ops.aten.slice.Tensor(permute_14, 3, 0, 8)

        # File: transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_9: "f32[2, 4, 16, 8]" = torch.ops.aten.slice.Tensor(permute_14, 3, 8, 9223372036854775807);  permute_14 = None

        # File: transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_2: "f32[2, 4, 16, 8]" = torch.ops.aten.neg.default(slice_9);  slice_9 = None
        cat_4: "f32[2, 4, 16, 16]" = torch.ops.aten.cat.default([neg_2, slice_8], -1);  neg_2 = slice_8 = None

        # File: transformers/models/llama/modeling_llama.py:158 in apply_rotary_pos_emb, code: q_embed = (q * cos) + (rotate_half(q) * sin)
        mul_16: "f32[2, 4, 16, 16]" = torch.ops.aten.mul.Tensor(cat_4, unsqueeze_18);  cat_4 = None
        add_11: "f32[2, 4, 16, 16]" = torch.ops.aten.add.Tensor(mul_15, mul_16);  mul_15 = mul_16 = None

        # File: transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_17: "f32[2, 2, 16, 16]" = torch.ops.aten.mul.Tensor(permute_16, unsqueeze_17);  unsqueeze_17 = None

        # File: transformers/models/llama/modeling_llama.py:132 in rotate_half, code: x1 = x[..., : x.shape[-1] // 2]
        slice_10: "f32[2, 2, 16, 8]" = torch.ops.aten.slice.Tensor(permute_16, 3, 0, 8)

        # File: transformers/models/llama/modeling_llama.py:133 in rotate_half, code: x2 = x[..., x.shape[-1] // 2 :]
        slice_11: "f32[2, 2, 16, 8]" = torch.ops.aten.slice.Tensor(permute_16, 3, 8, 9223372036854775807);  permute_16 = None

        # File: transformers/models/llama/modeling_llama.py:134 in rotate_half, code: return torch.cat((-x2, x1), dim=-1)
        neg_3: "f32[2, 2, 16, 8]" = torch.ops.aten.neg.default(slice_11);  slice_11 = None
        cat_5: "f32[2, 2, 16, 16]" = torch.ops.aten.cat.default([neg_3, slice_10], -1);  neg_3 = slice_10 = None

        # File: transformers/models/llama/modeling_llama.py:159 in apply_rotary_pos_emb, code: k_embed = (k * cos) + (rotate_half(k) * sin)
        mul_18: "f32[2, 2, 16, 16]" = torch.ops.aten.mul.Tensor(cat_5, unsqueeze_18);  cat_5 = unsqueeze_18 = None
        add_12: "f32[2, 2, 16, 16]" = torch.ops.aten.add.Tensor(mul_17, mul_18);  mul_17 = mul_18 = None

        # File: transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_19: "f32[2, 2, 1, 16, 16]" = torch.ops.aten.unsqueeze.default(add_12, 2);  add_12 = None
        expand_11: "f32[2, 2, 2, 16, 16]" = torch.ops.aten.expand.default(unsqueeze_19, [2, 2, 2, 16, 16]);  unsqueeze_19 = None

        # File: transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_5: "f32[2, 2, 2, 16, 16]" = torch.ops.aten.clone.default(expand_11, memory_format = torch.contiguous_format);  expand_11 = None
        view_38: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(clone_5, [2, 4, 16, 16]);  clone_5 = None

        # File: transformers/models/llama/modeling_llama.py:187 in repeat_kv, code: hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
        unsqueeze_20: "f32[2, 2, 1, 16, 16]" = torch.ops.aten.unsqueeze.default(permute_18, 2);  permute_18 = None
        expand_12: "f32[2, 2, 2, 16, 16]" = torch.ops.aten.expand.default(unsqueeze_20, [2, 2, 2, 16, 16]);  unsqueeze_20 = None

        # File: transformers/models/llama/modeling_llama.py:188 in repeat_kv, code: return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)
        clone_6: "f32[2, 2, 2, 16, 16]" = torch.ops.aten.clone.default(expand_12, memory_format = torch.contiguous_format);  expand_12 = None
        view_39: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(clone_6, [2, 4, 16, 16]);  clone_6 = None

        # File: transformers/models/llama/modeling_llama.py:204 in eager_attention_forward, code: attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        permute_19: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(view_38, [0, 1, 3, 2]);  view_38 = None
        expand_13: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(add_11, [2, 4, 16, 16]);  add_11 = None
        clone_7: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(expand_13, memory_format = torch.contiguous_format);  expand_13 = None
        view_40: "f32[8, 16, 16]" = torch.ops.aten.view.default(clone_7, [8, 16, 16]);  clone_7 = None
        expand_14: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(permute_19, [2, 4, 16, 16]);  permute_19 = None
        view_41: "f32[8, 16, 16]" = torch.ops.aten.view.default(expand_14, [8, 16, 16]);  expand_14 = None
        bmm_3: "f32[8, 16, 16]" = torch.ops.aten.bmm.default(view_40, view_41);  view_40 = view_41 = None
        view_42: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(bmm_3, [2, 4, 16, 16]);  bmm_3 = None
        mul_19: "f32[2, 4, 16, 16]" = torch.ops.aten.mul.Tensor(view_42, 0.25);  view_42 = None

        # File: transformers/models/llama/modeling_llama.py:206 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_13: "f32[2, 4, 16, 16]" = torch.ops.aten.add.Tensor(mul_19, where);  mul_19 = where = None

        # File: transformers/models/llama/modeling_llama.py:208 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        _softmax_1: "f32[2, 4, 16, 16]" = torch.ops.aten._softmax.default(add_13, -1, False);  add_13 = None

        # File: transformers/models/llama/modeling_llama.py:209 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_8: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(_softmax_1);  _softmax_1 = None

        # File: transformers/models/llama/modeling_llama.py:210 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value_states)
        expand_15: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(clone_8, [2, 4, 16, 16]);  clone_8 = None
        view_43: "f32[8, 16, 16]" = torch.ops.aten.view.default(expand_15, [8, 16, 16]);  expand_15 = None
        expand_16: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(view_39, [2, 4, 16, 16]);  view_39 = None
        view_44: "f32[8, 16, 16]" = torch.ops.aten.view.default(expand_16, [8, 16, 16]);  expand_16 = None
        bmm_4: "f32[8, 16, 16]" = torch.ops.aten.bmm.default(view_43, view_44);  view_43 = view_44 = None
        view_45: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(bmm_4, [2, 4, 16, 16]);  bmm_4 = None

        # File: transformers/models/llama/modeling_llama.py:211 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        permute_20: "f32[2, 16, 4, 16]" = torch.ops.aten.permute.default(view_45, [0, 2, 1, 3]);  view_45 = None
        clone_9: "f32[2, 16, 4, 16]" = torch.ops.aten.clone.default(permute_20, memory_format = torch.contiguous_format);  permute_20 = None

        # File: transformers/models/llama/modeling_llama.py:279 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_46: "f32[2, 16, 64]" = torch.ops.aten.view.default(clone_9, [2, 16, -1]);  clone_9 = None

        # File: transformers/models/llama/modeling_llama.py:280 in forward, code: attn_output = self.o_proj(attn_output)
        permute_21: "f32[64, 64]" = torch.ops.aten.permute.default(arg16_1, [1, 0]);  arg16_1 = None
        view_47: "f32[32, 64]" = torch.ops.aten.view.default(view_46, [32, 64]);  view_46 = None
        mm_10: "f32[32, 64]" = torch.ops.aten.mm.default(view_47, permute_21);  view_47 = permute_21 = None
        view_48: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_10, [2, 16, 64]);  mm_10 = None

        # File: transformers/models/llama/modeling_llama.py:317 in forward, code: hidden_states = residual + hidden_states
        add_14: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(add_9, view_48);  add_9 = view_48 = None

        # File: transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_4: "f32[2, 16, 64]" = torch.ops.aten.pow.Tensor_Scalar(add_14, 2)
        mean_3: "f32[2, 16, 1]" = torch.ops.aten.mean.dim(pow_4, [-1], True);  pow_4 = None

        # File: transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_15: "f32[2, 16, 1]" = torch.ops.aten.add.Tensor(mean_3, 1e-06);  mean_3 = None
        rsqrt_3: "f32[2, 16, 1]" = torch.ops.aten.rsqrt.default(add_15);  add_15 = None
        mul_20: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(add_14, rsqrt_3);  rsqrt_3 = None

        # File: transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_21: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(arg17_1, mul_20);  arg17_1 = mul_20 = None

        # File: transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        permute_22: "f32[64, 128]" = torch.ops.aten.permute.default(arg18_1, [1, 0]);  arg18_1 = None
        view_49: "f32[32, 64]" = torch.ops.aten.view.default(mul_21, [32, 64])
        mm_11: "f32[32, 128]" = torch.ops.aten.mm.default(view_49, permute_22);  view_49 = permute_22 = None
        view_50: "f32[2, 16, 128]" = torch.ops.aten.view.default(mm_11, [2, 16, 128]);  mm_11 = None

        # File: transformers/activations.py:103 in forward, code: return nn.functional.silu(input)
        sigmoid_1: "f32[2, 16, 128]" = torch.ops.aten.sigmoid.default(view_50)
        mul_22: "f32[2, 16, 128]" = torch.ops.aten.mul.Tensor(view_50, sigmoid_1);  view_50 = sigmoid_1 = None

        # File: transformers/models/llama/modeling_llama.py:175 in forward, code: down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))
        permute_23: "f32[64, 128]" = torch.ops.aten.permute.default(arg19_1, [1, 0]);  arg19_1 = None
        view_51: "f32[32, 64]" = torch.ops.aten.view.default(mul_21, [32, 64]);  mul_21 = None
        mm_12: "f32[32, 128]" = torch.ops.aten.mm.default(view_51, permute_23);  view_51 = permute_23 = None
        view_52: "f32[2, 16, 128]" = torch.ops.aten.view.default(mm_12, [2, 16, 128]);  mm_12 = None
        mul_23: "f32[2, 16, 128]" = torch.ops.aten.mul.Tensor(mul_22, view_52);  mul_22 = view_52 = None
        permute_24: "f32[128, 64]" = torch.ops.aten.permute.default(arg20_1, [1, 0]);  arg20_1 = None
        view_53: "f32[32, 128]" = torch.ops.aten.view.default(mul_23, [32, 128]);  mul_23 = None
        mm_13: "f32[32, 64]" = torch.ops.aten.mm.default(view_53, permute_24);  view_53 = permute_24 = None
        view_54: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_13, [2, 16, 64]);  mm_13 = None

        # File: transformers/models/llama/modeling_llama.py:323 in forward, code: hidden_states = residual + hidden_states
        add_16: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(add_14, view_54);  add_14 = view_54 = None

        # File: transformers/models/llama/modeling_llama.py:65 in forward, code: variance = hidden_states.pow(2).mean(-1, keepdim=True)
        pow_5: "f32[2, 16, 64]" = torch.ops.aten.pow.Tensor_Scalar(add_16, 2)
        mean_4: "f32[2, 16, 1]" = torch.ops.aten.mean.dim(pow_5, [-1], True);  pow_5 = None

        # File: transformers/models/llama/modeling_llama.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_17: "f32[2, 16, 1]" = torch.ops.aten.add.Tensor(mean_4, 1e-06);  mean_4 = None
        rsqrt_4: "f32[2, 16, 1]" = torch.ops.aten.rsqrt.default(add_17);  add_17 = None
        mul_24: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(add_16, rsqrt_4);  add_16 = rsqrt_4 = None

        # File: transformers/models/llama/modeling_llama.py:67 in forward, code: return self.weight * hidden_states.to(input_dtype)
        mul_25: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(arg21_1, mul_24);  arg21_1 = mul_24 = None
        return (mul_25,)
