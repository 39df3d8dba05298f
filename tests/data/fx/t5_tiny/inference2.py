class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "i64[2, 16]", arg1_1: "f32[128, 64]", arg2_1: "f32[64]", arg3_1: "f32[64, 64]", arg4_1: "f32[64, 64]", arg5_1: "f32[64, 64]", arg6_1: "f32[8, 4]", arg7_1: "f32[64, 64]", arg8_1: "f32[64]", arg9_1: "f32[128, 64]", arg10_1: "f32[64, 128]", arg11_1: "f32[64]", arg12_1: "f32[64, 64]", arg13_1: "f32[64, 64]", arg14_1: "f32[64, 64]", arg15_1: "f32[64, 64]", arg16_1: "f32[64]", arg17_1: "f32[128, 64]", arg18_1: "f32[64, 128]", arg19_1: "f32[64]"):
        # File: transformers/models/t5/modeling_t5.py:678 in forward, code: inputs_embeds = self.embed_tokens(input_ids)
        embedding: "f32[2, 16, 64]" = torch.ops.aten.embedding.default(arg1_1, arg0_1);  arg1_1 = arg0_1 = None

        # File: transformers/masking_utils.py:510 in sdpa_mask, code: q_arange = torch.arange(q_length, device=device) + q_offset
        arange_2: "i64[16]" = torch.ops.aten.arange.start_step(0, 16, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        add: "i64[16]" = torch.ops.aten.add.Tensor(arange_2, 0);  arange_2 = None

        # File: transformers/masking_utils.py:367 in _non_vmap_expansion_sdpa, code: q_indices = q_indices[None, None, :, None]
        unsqueeze: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(add, 0);  add = None
        unsqueeze_1: "i64[1, 1, 16]" = torch.ops.aten.unsqueeze.default(unsqueeze, 1);  unsqueeze = None
        unsqueeze_2: "i64[1, 1, 16, 1]" = torch.ops.aten.unsqueeze.default(unsqueeze_1, 3);  unsqueeze_1 = None

        # File: transformers/masking_utils.py:90 in bidirectional_mask_function, code: return q_idx >= 0
        ge: "b8[1, 1, 16, 1]" = torch.ops.aten.ge.Scalar(unsqueeze_2, 0);  unsqueeze_2 = None

        # File: transformers/masking_utils.py:519 in sdpa_mask, code: attention_mask = attention_mask.expand(batch_size, -1, q_length, kv_length)
        expand: "b8[2, 1, 16, 16]" = torch.ops.aten.expand.default(ge, [2, -1, 16, 16]);  ge = None

        # File: transformers/masking_utils.py:604 in eager_mask, code: mask = torch.where(mask, torch.tensor(0.0, device=mask.device, dtype=dtype), min_dtype)
        _tensor_constant0: "f32[]" = self._tensor_constant0
        lift_fresh_copy: "f32[]" = torch.ops.aten.lift_fresh_copy.default(_tensor_constant0);  _tensor_constant0 = None
        scalar_tensor: "f32[]" = torch.ops.aten.scalar_tensor.default(-3.4028234663852886e+38, dtype = torch.float32, layout = torch.strided, device = device(type='cpu'))
        where: "f32[2, 1, 16, 16]" = torch.ops.aten.where.self(expand, lift_fresh_copy, scalar_tensor);  expand = lift_fresh_copy = scalar_tensor = None

        # File: transformers/models/t5/modeling_t5.py:725 in forward, code: hidden_states = self.dropout(inputs_embeds)
        clone: "f32[2, 16, 64]" = torch.ops.aten.clone.default(embedding);  embedding = None

        # File: transformers/models/t5/modeling_t5.py:65 in forward, code: variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        pow_1: "f32[2, 16, 64]" = torch.ops.aten.pow.Tensor_Scalar(clone, 2)
        mean: "f32[2, 16, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None

        # File: transformers/models/t5/modeling_t5.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_2: "f32[2, 16, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06);  mean = None
        rsqrt: "f32[2, 16, 1]" = torch.ops.aten.rsqrt.default(add_2);  add_2 = None
        mul: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(clone, rsqrt);  rsqrt = None

        # File: transformers/models/t5/modeling_t5.py:72 in forward, code: return self.weight * hidden_states
        mul_1: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(arg2_1, mul);  arg2_1 = mul = None

        # File: transformers/models/t5/modeling_t5.py:304 in forward, code: query_states = self.q(hidden_states).view(hidden_shape).transpose(1, 2)
        permute: "f32[64, 64]" = torch.ops.aten.permute.default(arg3_1, [1, 0]);  arg3_1 = None
        view: "f32[32, 64]" = torch.ops.aten.view.default(mul_1, [32, 64])
        mm: "f32[32, 64]" = torch.ops.aten.mm.default(view, permute);  view = permute = None
        view_1: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm, [2, 16, 64]);  mm = None
        view_2: "f32[2, 16, 4, 16]" = torch.ops.aten.view.default(view_1, [2, 16, -1, 16]);  view_1 = None
        permute_1: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(view_2, [0, 2, 1, 3]);  view_2 = None

        # File: transformers/models/t5/modeling_t5.py:325 in forward, code: key_states = self.k(current_states).view(kv_shape).transpose(1, 2)
        permute_2: "f32[64, 64]" = torch.ops.aten.permute.default(arg4_1, [1, 0]);  arg4_1 = None
        view_3: "f32[32, 64]" = torch.ops.aten.view.default(mul_1, [32, 64])
        mm_1: "f32[32, 64]" = torch.ops.aten.mm.default(view_3, permute_2);  view_3 = permute_2 = None
        view_4: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_1, [2, 16, 64]);  mm_1 = None
        view_5: "f32[2, 16, 4, 16]" = torch.ops.aten.view.default(view_4, [2, 16, -1, 16]);  view_4 = None
        permute_3: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(view_5, [0, 2, 1, 3]);  view_5 = None

        # File: transformers/models/t5/modeling_t5.py:326 in forward, code: value_states = self.v(current_states).view(kv_shape).transpose(1, 2)
        permute_4: "f32[64, 64]" = torch.ops.aten.permute.default(arg5_1, [1, 0]);  arg5_1 = None
        view_6: "f32[32, 64]" = torch.ops.aten.view.default(mul_1, [32, 64]);  mul_1 = None
        mm_2: "f32[32, 64]" = torch.ops.aten.mm.default(view_6, permute_4);  view_6 = permute_4 = None
        view_7: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_2, [2, 16, 64]);  mm_2 = None
        view_8: "f32[2, 16, 4, 16]" = torch.ops.aten.view.default(view_7, [2, 16, -1, 16]);  view_7 = None
        permute_5: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(view_8, [0, 2, 1, 3]);  view_8 = None

        # File: transformers/models/t5/modeling_t5.py:268 in compute_bias, code: context_position = torch.arange(query_length, dtype=torch.long, device=device)[:, None] + past_seen_tokens
        arange_4: "i64[16]" = torch.ops.aten.arange.start_step(0, 16, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        unsqueeze_3: "i64[16, 1]" = torch.ops.aten.unsqueeze.default(arange_4, 1);  arange_4 = None
        add_3: "i64[16, 1]" = torch.ops.aten.add.Tensor(unsqueeze_3, 0);  unsqueeze_3 = None

        # File: transformers/models/t5/modeling_t5.py:269 in compute_bias, code: memory_position = torch.arange(key_length, dtype=torch.long, device=device)[None, :]
        arange_5: "i64[16]" = torch.ops.aten.arange.start_step(0, 16, dtype = torch.int64, layout = torch.strided, device = device(type='cpu'), pin_memory = False)
        unsqueeze_4: "i64[1, 16]" = torch.ops.aten.unsqueeze.default(arange_5, 0);  arange_5 = None

        # File: transformers/models/t5/modeling_t5.py:270 in compute_bias, code: relative_position = memory_position - context_position  # shape (query_length, key_length)
        sub: "i64[16, 16]" = torch.ops.aten.sub.Tensor(unsqueeze_4, add_3);  unsqueeze_4 = add_3 = None

        # File: transformers/models/t5/modeling_t5.py:241 in _relative_position_bucket, code: relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        gt: "b8[16, 16]" = torch.ops.aten.gt.Scalar(sub, 0)
        _to_copy: "i64[16, 16]" = torch.ops.aten._to_copy.default(gt, dtype = torch.int64);  gt = None
        mul_2: "i64[16, 16]" = torch.ops.aten.mul.Tensor(_to_copy, 4);  _to_copy = None
        add_4: "i64[16, 16]" = torch.ops.aten.add.Tensor(mul_2, 0);  mul_2 = None

        # File: transformers/models/t5/modeling_t5.py:242 in _relative_position_bucket, code: relative_position = torch.abs(relative_position)
        abs_1: "i64[16, 16]" = torch.ops.aten.abs.default(sub);  sub = None

        # File: transformers/models/t5/modeling_t5.py:249 in _relative_position_bucket, code: is_small = relative_position < max_exact
        lt: "b8[16, 16]" = torch.ops.aten.lt.Scalar(abs_1, 2)

        # File: transformers/models/t5/modeling_t5.py:253 in _relative_position_bucket, code: torch.log(relative_position.float() / max_exact)
        _to_copy_1: "f32[16, 16]" = torch.ops.aten._to_copy.default(abs_1, dtype = torch.float32)
        div: "f32[16, 16]" = torch.ops.aten.div.Tensor(_to_copy_1, 2);  _to_copy_1 = None
        log: "f32[16, 16]" = torch.ops.aten.log.default(div);  div = None
        div_1: "f32[16, 16]" = torch.ops.aten.div.Tensor(log, 4.1588830833596715);  log = None
        mul_3: "f32[16, 16]" = torch.ops.aten.mul.Tensor(div_1, 2);  div_1 = None

        # File: transformers/models/t5/modeling_t5.py:256 in _relative_position_bucket, code: ).to(torch.long)
        _to_copy_2: "i64[16, 16]" = torch.ops.aten._to_copy.default(mul_3, dtype = torch.int64);  mul_3 = None

        # File: transformers/models/t5/modeling_t5.py:252 in _relative_position_bucket, code: relative_position_if_large = max_exact + (
        add_5: "i64[16, 16]" = torch.ops.aten.add.Tensor(_to_copy_2, 2);  _to_copy_2 = None

        # File: transformers/models/t5/modeling_t5.py:258 in _relative_position_bucket, code: relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
        full_like: "i64[16, 16]" = torch.ops.aten.full_like.default(add_5, 3, pin_memory = False)

        # File: transformers/models/t5/modeling_t5.py:257 in _relative_position_bucket, code: relative_position_if_large = torch.min(
        minimum: "i64[16, 16]" = torch.ops.aten.minimum.default(add_5, full_like);  add_5 = full_like = None

        # File: transformers/models/t5/modeling_t5.py:261 in _relative_position_bucket, code: relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
        where_1: "i64[16, 16]" = torch.ops.aten.where.self(lt, abs_1, minimum);  lt = abs_1 = minimum = None
        add_6: "i64[16, 16]" = torch.ops.aten.add.Tensor(add_4, where_1);  add_4 = where_1 = None

        # File: transformers/models/t5/modeling_t5.py:277 in compute_bias, code: values = self.relative_attention_bias(relative_position_bucket)  # shape (query_length, key_length, num_heads)
        embedding_1: "f32[16, 16, 4]" = torch.ops.aten.embedding.default(arg6_1, add_6);  arg6_1 = add_6 = None

        # File: transformers/models/t5/modeling_t5.py:278 in compute_bias, code: values = values.permute([2, 0, 1]).unsqueeze(0)  # shape (1, num_heads, query_length, key_length)
        permute_6: "f32[4, 16, 16]" = torch.ops.aten.permute.default(embedding_1, [2, 0, 1]);  embedding_1 = None
        unsqueeze_5: "f32[1, 4, 16, 16]" = torch.ops.aten.unsqueeze.default(permute_6, 0);  permute_6 = None

        # File: transformers/models/t5/modeling_t5.py:159 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(2, 3)) * scaling
        permute_7: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(permute_3, [0, 1, 3, 2]);  permute_3 = None
        expand_1: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(permute_1, [2, 4, 16, 16]);  permute_1 = None
        clone_1: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(expand_1, memory_format = torch.contiguous_format);  expand_1 = None
        view_9: "f32[8, 16, 16]" = torch.ops.aten.view.default(clone_1, [8, 16, 16]);  clone_1 = None
        expand_2: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(permute_7, [2, 4, 16, 16]);  permute_7 = None
        clone_2: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(expand_2, memory_format = torch.contiguous_format);  expand_2 = None
        view_10: "f32[8, 16, 16]" = torch.ops.aten.view.default(clone_2, [8, 16, 16]);  clone_2 = None
        bmm: "f32[8, 16, 16]" = torch.ops.aten.bmm.default(view_9, view_10);  view_9 = view_10 = None
        view_11: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(bmm, [2, 4, 16, 16]);  bmm = None
        mul_4: "f32[2, 4, 16, 16]" = torch.ops.aten.mul.Tensor(view_11, 1.0);  view_11 = None

        # File: transformers/models/t5/modeling_t5.py:162 in eager_attention_forward, code: attn_weights = attn_weights + position_bias
        add_7: "f32[2, 4, 16, 16]" = torch.ops.aten.add.Tensor(mul_4, unsqueeze_5);  mul_4 = None

        # File: transformers/models/t5/modeling_t5.py:165 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_8: "f32[2, 4, 16, 16]" = torch.ops.aten.add.Tensor(add_7, where);  add_7 = None

        # File: transformers/models/t5/modeling_t5.py:167 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        _softmax: "f32[2, 4, 16, 16]" = torch.ops.aten._softmax.default(add_8, -1, False);  add_8 = None

        # File: transformers/models/t5/modeling_t5.py:168 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_3: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(_softmax);  _softmax = None

        # File: transformers/models/t5/modeling_t5.py:170 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        expand_3: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(clone_3, [2, 4, 16, 16]);  clone_3 = None
        view_12: "f32[8, 16, 16]" = torch.ops.aten.view.default(expand_3, [8, 16, 16]);  expand_3 = None
        expand_4: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(permute_5, [2, 4, 16, 16]);  permute_5 = None
        clone_4: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(expand_4, memory_format = torch.contiguous_format);  expand_4 = None
        view_13: "f32[8, 16, 16]" = torch.ops.aten.view.default(clone_4, [8, 16, 16]);  clone_4 = None
        bmm_1: "f32[8, 16, 16]" = torch.ops.aten.bmm.default(view_12, view_13);  view_12 = view_13 = None
        view_14: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(bmm_1, [2, 4, 16, 16]);  bmm_1 = None

        # File: transformers/models/t5/modeling_t5.py:171 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        permute_8: "f32[2, 16, 4, 16]" = torch.ops.aten.permute.default(view_14, [0, 2, 1, 3]);  view_14 = None
        clone_5: "f32[2, 16, 4, 16]" = torch.ops.aten.clone.default(permute_8, memory_format = torch.contiguous_format);  permute_8 = None

        # File: transformers/models/t5/modeling_t5.py:366 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_15: "f32[2, 16, 64]" = torch.ops.aten.view.default(clone_5, [2, 16, -1]);  clone_5 = None

        # File: transformers/models/t5/modeling_t5.py:367 in forward, code: attn_output = self.o(attn_output)
        permute_9: "f32[64, 64]" = torch.ops.aten.permute.default(arg7_1, [1, 0]);  arg7_1 = None
        view_16: "f32[32, 64]" = torch.ops.aten.view.default(view_15, [32, 64]);  view_15 = None
        mm_3: "f32[32, 64]" = torch.ops.aten.mm.default(view_16, permute_9);  view_16 = permute_9 = None
        view_17: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_3, [2, 16, 64]);  mm_3 = None

        # File: transformers/models/t5/modeling_t5.py:400 in forward, code: attention_output = hidden_states + self.dropout(attention_output)
        clone_6: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_17);  view_17 = None
        add_9: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(clone, clone_6);  clone = clone_6 = None

        # File: transformers/models/t5/modeling_t5.py:65 in forward, code: variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        pow_2: "f32[2, 16, 64]" = torch.ops.aten.pow.Tensor_Scalar(add_9, 2)
        mean_1: "f32[2, 16, 1]" = torch.ops.aten.mean.dim(pow_2, [-1], True);  pow_2 = None

        # File: transformers/models/t5/modeling_t5.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_10: "f32[2, 16, 1]" = torch.ops.aten.add.Tensor(mean_1, 1e-06);  mean_1 = None
        rsqrt_1: "f32[2, 16, 1]" = torch.ops.aten.rsqrt.default(add_10);  add_10 = None
        mul_5: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(add_9, rsqrt_1);  rsqrt_1 = None

        # File: transformers/models/t5/modeling_t5.py:72 in forward, code: return self.weight * hidden_states
        mul_6: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(arg8_1, mul_5);  arg8_1 = mul_5 = None

        # File: transformers/models/t5/modeling_t5.py:84 in forward, code: hidden_states = self.wi(hidden_states)
        permute_10: "f32[64, 128]" = torch.ops.aten.permute.default(arg9_1, [1, 0]);  arg9_1 = None
        view_18: "f32[32, 64]" = torch.ops.aten.view.default(mul_6, [32, 64]);  mul_6 = None
        mm_4: "f32[32, 128]" = torch.ops.aten.mm.default(view_18, permute_10);  view_18 = permute_10 = None
        view_19: "f32[2, 16, 128]" = torch.ops.aten.view.default(mm_4, [2, 16, 128]);  mm_4 = None

        # File: transformers/models/t5/modeling_t5.py:85 in forward, code: hidden_states = self.act(hidden_states)
        relu: "f32[2, 16, 128]" = torch.ops.aten.relu.default(view_19);  view_19 = None

        # File: transformers/models/t5/modeling_t5.py:86 in forward, code: hidden_states = self.dropout(hidden_states)
        clone_7: "f32[2, 16, 128]" = torch.ops.aten.clone.default(relu);  relu = None

        # File: transformers/models/t5/modeling_t5.py:93 in forward, code: hidden_states = self.wo(hidden_states)
        permute_11: "f32[128, 64]" = torch.ops.aten.permute.default(arg10_1, [1, 0]);  arg10_1 = None
        view_20: "f32[32, 128]" = torch.ops.aten.view.default(clone_7, [32, 128]);  clone_7 = None
        mm_5: "f32[32, 64]" = torch.ops.aten.mm.default(view_20, permute_11);  view_20 = permute_11 = None
        view_21: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_5, [2, 16, 64]);  mm_5 = None

        # File: transformers/models/t5/modeling_t5.py:140 in forward, code: hidden_states = hidden_states + self.dropout(forwarded_states)
        clone_8: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_21);  view_21 = None
        add_11: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(add_9, clone_8);  add_9 = clone_8 = None

        # File: transformers/models/t5/modeling_t5.py:65 in forward, code: variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        pow_3: "f32[2, 16, 64]" = torch.ops.aten.pow.Tensor_Scalar(add_11, 2)
        mean_2: "f32[2, 16, 1]" = torch.ops.aten.mean.dim(pow_3, [-1], True);  pow_3 = None

        # File: transformers/models/t5/modeling_t5.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_12: "f32[2, 16, 1]" = torch.ops.aten.add.Tensor(mean_2, 1e-06);  mean_2 = None
        rsqrt_2: "f32[2, 16, 1]" = torch.ops.aten.rsqrt.default(add_12);  add_12 = None
        mul_7: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(add_11, rsqrt_2);  rsqrt_2 = None

        # File: transformers/models/t5/modeling_t5.py:72 in forward, code: return self.weight * hidden_states
        mul_8: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(arg11_1, mul_7);  arg11_1 = mul_7 = None

        # File: transformers/models/t5/modeling_t5.py:304 in forward, code: query_states = self.q(hidden_states).view(hidden_shape).transpose(1, 2)
        permute_12: "f32[64, 64]" = torch.ops.aten.permute.default(arg12_1, [1, 0]);  arg12_1 = None
        view_22: "f32[32, 64]" = torch.ops.aten.view.default(mul_8, [32, 64])
        mm_6: "f32[32, 64]" = torch.ops.aten.mm.default(view_22, permute_12);  view_22 = permute_12 = None
        view_23: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_6, [2, 16, 64]);  mm_6 = None
        view_24: "f32[2, 16, 4, 16]" = torch.ops.aten.view.default(view_23, [2, 16, -1, 16]);  view_23 = None
        permute_13: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(view_24, [0, 2, 1, 3]);  view_24 = None

        # File: transformers/models/t5/modeling_t5.py:325 in forward, code: key_states = self.k(current_states).view(kv_shape).transpose(1, 2)
        permute_14: "f32[64, 64]" = torch.ops.aten.permute.default(arg13_1, [1, 0]);  arg13_1 = None
        view_25: "f32[32, 64]" = torch.ops.aten.view.default(mul_8, [32, 64])
        mm_7: "f32[32, 64]" = torch.ops.aten.mm.default(view_25, permute_14);  view_25 = permute_14 = None
        view_26: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_7, [2, 16, 64]);  mm_7 = None
        view_27: "f32[2, 16, 4, 16]" = torch.ops.aten.view.default(view_26, [2, 16, -1, 16]);  view_26 = None
        permute_15: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(view_27, [0, 2, 1, 3]);  view_27 = None

        # File: transformers/models/t5/modeling_t5.py:326 in forward, code: value_states = self.v(current_states).view(kv_shape).transpose(1, 2)
        permute_16: "f32[64, 64]" = torch.ops.aten.permute.default(arg14_1, [1, 0]);  arg14_1 = None
        view_28: "f32[32, 64]" = torch.ops.aten.view.default(mul_8, [32, 64]);  mul_8 = None
        mm_8: "f32[32, 64]" = torch.ops.aten.mm.default(view_28, permute_16);  view_28 = permute_16 = None
        view_29: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_8, [2, 16, 64]);  mm_8 = None
        view_30: "f32[2, 16, 4, 16]" = torch.ops.aten.view.default(view_29, [2, 16, -1, 16]);  view_29 = None
        permute_17: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(view_30, [0, 2, 1, 3]);  view_30 = None

        # File: transformers/models/t5/modeling_t5.py:159 in eager_attention_forward, code: attn_weights = torch.matmul(query, key.transpose(2, 3)) * scaling
        permute_18: "f32[2, 4, 16, 16]" = torch.ops.aten.permute.default(permute_15, [0, 1, 3, 2]);  permute_15 = None
        expand_5: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(permute_13, [2, 4, 16, 16]);  permute_13 = None
        clone_9: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(expand_5, memory_format = torch.contiguous_format);  expand_5 = None
        view_31: "f32[8, 16, 16]" = torch.ops.aten.view.default(clone_9, [8, 16, 16]);  clone_9 = None
        expand_6: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(permute_18, [2, 4, 16, 16]);  permute_18 = None
        clone_10: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(expand_6, memory_format = torch.contiguous_format);  expand_6 = None
        view_32: "f32[8, 16, 16]" = torch.ops.aten.view.default(clone_10, [8, 16, 16]);  clone_10 = None
        bmm_2: "f32[8, 16, 16]" = torch.ops.aten.bmm.default(view_31, view_32);  view_31 = view_32 = None
        view_33: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(bmm_2, [2, 4, 16, 16]);  bmm_2 = None
        mul_9: "f32[2, 4, 16, 16]" = torch.ops.aten.mul.Tensor(view_33, 1.0);  view_33 = None

        # File: transformers/models/t5/modeling_t5.py:162 in eager_attention_forward, code: attn_weights = attn_weights + position_bias
        add_13: "f32[2, 4, 16, 16]" = torch.ops.aten.add.Tensor(mul_9, unsqueeze_5);  mul_9 = unsqueeze_5 = None

        # File: transformers/models/t5/modeling_t5.py:165 in eager_attention_forward, code: attn_weights = attn_weights + attention_mask
        add_14: "f32[2, 4, 16, 16]" = torch.ops.aten.add.Tensor(add_13, where);  add_13 = where = None

        # File: transformers/models/t5/modeling_t5.py:167 in eager_attention_forward, code: attn_weights = nn.functional.softmax(attn_weights, dim=-1)
        _softmax_1: "f32[2, 4, 16, 16]" = torch.ops.aten._softmax.default(add_14, -1, False);  add_14 = None

        # File: transformers/models/t5/modeling_t5.py:168 in eager_attention_forward, code: attn_weights = nn.functional.dropout(attn_weights, p=dropout, training=module.training)
        clone_11: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(_softmax_1);  _softmax_1 = None

        # File: transformers/models/t5/modeling_t5.py:170 in eager_attention_forward, code: attn_output = torch.matmul(attn_weights, value)
        expand_7: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(clone_11, [2, 4, 16, 16]);  clone_11 = None
        view_34: "f32[8, 16, 16]" = torch.ops.aten.view.default(expand_7, [8, 16, 16]);  expand_7 = None
        expand_8: "f32[2, 4, 16, 16]" = torch.ops.aten.expand.default(permute_17, [2, 4, 16, 16]);  permute_17 = None
        clone_12: "f32[2, 4, 16, 16]" = torch.ops.aten.clone.default(expand_8, memory_format = torch.contiguous_format);  expand_8 = None
        view_35: "f32[8, 16, 16]" = torch.ops.aten.view.default(clone_12, [8, 16, 16]);  clone_12 = None
        bmm_3: "f32[8, 16, 16]" = torch.ops.aten.bmm.default(view_34, view_35);  view_34 = view_35 = None
        view_36: "f32[2, 4, 16, 16]" = torch.ops.aten.view.default(bmm_3, [2, 4, 16, 16]);  bmm_3 = None

        # File: transformers/models/t5/modeling_t5.py:171 in eager_attention_forward, code: attn_output = attn_output.transpose(1, 2).contiguous()
        permute_19: "f32[2, 16, 4, 16]" = torch.ops.aten.permute.default(view_36, [0, 2, 1, 3]);  view_36 = None
        clone_13: "f32[2, 16, 4, 16]" = torch.ops.aten.clone.default(permute_19, memory_format = torch.contiguous_format);  permute_19 = None

        # File: transformers/models/t5/modeling_t5.py:366 in forward, code: attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        view_37: "f32[2, 16, 64]" = torch.ops.aten.view.default(clone_13, [2, 16, -1]);  clone_13 = None

        # File: transformers/models/t5/modeling_t5.py:367 in forward, code: attn_output = self.o(attn_output)
        permute_20: "f32[64, 64]" = torch.ops.aten.permute.default(arg15_1, [1, 0]);  arg15_1 = None
        view_38: "f32[32, 64]" = torch.ops.aten.view.default(view_37, [32, 64]);  view_37 = None
        mm_9: "f32[32, 64]" = torch.ops.aten.mm.default(view_38, permute_20);  view_38 = permute_20 = None
        view_39: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_9, [2, 16, 64]);  mm_9 = None

        # File: transformers/models/t5/modeling_t5.py:400 in forward, code: attention_output = hidden_states + self.dropout(attention_output)
        clone_14: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_39);  view_39 = None
        add_15: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(add_11, clone_14);  add_11 = clone_14 = None

        # File: transformers/models/t5/modeling_t5.py:65 in forward, code: variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        pow_4: "f32[2, 16, 64]" = torch.ops.aten.pow.Tensor_Scalar(add_15, 2)
        mean_3: "f32[2, 16, 1]" = torch.ops.aten.mean.dim(pow_4, [-1], True);  pow_4 = None

        # File: transformers/models/t5/modeling_t5.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_16: "f32[2, 16, 1]" = torch.ops.aten.add.Tensor(mean_3, 1e-06);  mean_3 = None
        rsqrt_3: "f32[2, 16, 1]" = torch.ops.aten.rsqrt.default(add_16);  add_16 = None
        mul_10: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(add_15, rsqrt_3);  rsqrt_3 = None

        # File: transformers/models/t5/modeling_t5.py:72 in forward, code: return self.weight * hidden_states
        mul_11: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(arg16_1, mul_10);  arg16_1 = mul_10 = None

        # File: transformers/models/t5/modeling_t5.py:84 in forward, code: hidden_states = self.wi(hidden_states)
        permute_21: "f32[64, 128]" = torch.ops.aten.permute.default(arg17_1, [1, 0]);  arg17_1 = None
        view_40: "f32[32, 64]" = torch.ops.aten.view.default(mul_11, [32, 64]);  mul_11 = None
        mm_10: "f32[32, 128]" = torch.ops.aten.mm.default(view_40, permute_21);  view_40 = permute_21 = None
        view_41: "f32[2, 16, 128]" = torch.ops.aten.view.default(mm_10, [2, 16, 128]);  mm_10 = None

        # File: transformers/models/t5/modeling_t5.py:85 in forward, code: hidden_states = self.act(hidden_states)
        relu_1: "f32[2, 16, 128]" = torch.ops.aten.relu.default(view_41);  view_41 = None

        # File: transformers/models/t5/modeling_t5.py:86 in forward, code: hidden_states = self.dropout(hidden_states)
        clone_15: "f32[2, 16, 128]" = torch.ops.aten.clone.default(relu_1);  relu_1 = None

        # File: transformers/models/t5/modeling_t5.py:93 in forward, code: hidden_states = self.wo(hidden_states)
        permute_22: "f32[128, 64]" = torch.ops.aten.permute.default(arg18_1, [1, 0]);  arg18_1 = None
        view_42: "f32[32, 128]" = torch.ops.aten.view.default(clone_15, [32, 128]);  clone_15 = None
        mm_11: "f32[32, 64]" = torch.ops.aten.mm.default(view_42, permute_22);  view_42 = permute_22 = None
        view_43: "f32[2, 16, 64]" = torch.ops.aten.view.default(mm_11, [2, 16, 64]);  mm_11 = None

        # File: transformers/models/t5/modeling_t5.py:140 in forward, code: hidden_states = hidden_states + self.dropout(forwarded_states)
        clone_16: "f32[2, 16, 64]" = torch.ops.aten.clone.default(view_43);  view_43 = None
        add_17: "f32[2, 16, 64]" = torch.ops.aten.add.Tensor(add_15, clone_16);  add_15 = clone_16 = None

        # File: transformers/models/t5/modeling_t5.py:65 in forward, code: variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        pow_5: "f32[2, 16, 64]" = torch.ops.aten.pow.Tensor_Scalar(add_17, 2)
        mean_4: "f32[2, 16, 1]" = torch.ops.aten.mean.dim(pow_5, [-1], True);  pow_5 = None

        # File: transformers/models/t5/modeling_t5.py:66 in forward, code: hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        add_18: "f32[2, 16, 1]" = torch.ops.aten.add.Tensor(mean_4, 1e-06);  mean_4 = None
        rsqrt_4: "f32[2, 16, 1]" = torch.ops.aten.rsqrt.default(add_18);  add_18 = None
        mul_12: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(add_17, rsqrt_4);  add_17 = rsqrt_4 = None

        # File: transformers/models/t5/modeling_t5.py:72 in forward, code: return self.weight * hidden_states
        mul_13: "f32[2, 16, 64]" = torch.ops.aten.mul.Tensor(arg19_1, mul_12);  arg19_1 = mul_12 = None

        # File: transformers/models/t5/modeling_t5.py:745 in forward, code: hidden_states = self.dropout(hidden_states)
        clone_17: "f32[2, 16, 64]" = torch.ops.aten.clone.default(mul_13);  mul_13 = None
        return (clone_17,)
