class GraphModule(torch.nn.Module):
    def forward(self, L_self_modules_conv_parameters_weight_: "f32[16, 2, 3, 3]", L_self_modules_conv_parameters_bias_: "f32[16]", L_img_: "f32[2, 8, 8, 8]", L_self_modules_emb_parameters_weight_: "f32[32, 16]", L_ids_: "i64[2, 16]", L_pick_: "i64[2, 16, 16]", L_self_modules_fc_parameters_weight_: "f32[16, 16]", L_self_modules_fc_parameters_bias_: "f32[16]"):
        l_self_modules_conv_parameters_weight_ = L_self_modules_conv_parameters_weight_
        l_self_modules_conv_parameters_bias_ = L_self_modules_conv_parameters_bias_
        l_img_ = L_img_
        l_self_modules_emb_parameters_weight_ = L_self_modules_emb_parameters_weight_
        l_ids_ = L_ids_
        l_pick_ = L_pick_
        l_self_modules_fc_parameters_weight_ = L_self_modules_fc_parameters_weight_
        l_self_modules_fc_parameters_bias_ = L_self_modules_fc_parameters_bias_

        # File: scripts/capture_models:157 in forward, code: y = F.max_pool2d(self.conv(img), 3, stride=2, padding=1)  # [2,16,4,4]
        conv2d: "f32[2, 16, 8, 8]" = torch.conv2d(l_img_, l_self_modules_conv_parameters_weight_, l_self_modules_conv_parameters_bias_, (1, 1), (1, 1), (1, 1), 4);  l_img_ = l_self_modules_conv_parameters_weight_ = l_self_modules_conv_parameters_bias_ = None
        y: "f32[2, 16, 4, 4]" = torch.nn.functional.max_pool2d(conv2d, 3, stride = 2, padding = 1);  conv2d = None

        # File: scripts/capture_models:158 in forward, code: y = F.hardtanh(y, -0.5, 0.5).flatten(2).transpose(1, 2)   # [2,16,16]
        hardtanh: "f32[2, 16, 4, 4]" = torch.nn.functional.hardtanh(y, -0.5, 0.5);  y = None
        flatten: "f32[2, 16, 16]" = hardtanh.flatten(2);  hardtanh = None
        y_1: "f32[2, 16, 16]" = flatten.transpose(1, 2);  flatten = None

        # File: scripts/capture_models:159 in forward, code: e = self.emb(ids)                                         # [2,16,16]
        e: "f32[2, 16, 16]" = torch.nn.functional.embedding(l_ids_, l_self_modules_emb_parameters_weight_, None, None, 2.0, False, False);  l_self_modules_emb_parameters_weight_ = None

        # File: scripts/capture_models:160 in forward, code: g = torch.gather(e, 1, pick)                              # [2,16,16]
        g: "f32[2, 16, 16]" = torch.gather(e, 1, l_pick_);  e = l_pick_ = None

        # File: scripts/capture_models:161 in forward, code: c = torch.cumsum(g, dim=1)
        c: "f32[2, 16, 16]" = torch.cumsum(g, dim = 1);  g = None

        # File: scripts/capture_models:162 in forward, code: rows = c[:, torch.tensor([0, 3, 5, 15])]                  # aten.index
        tensor: "i64[4]" = torch.tensor([0, 3, 5, 15])
        rows: "f32[2, 4, 16]" = c[(slice(None, None, None), tensor)];  tensor = None

        # File: scripts/capture_models:163 in forward, code: h = F.gelu(self.fc(y + c), approximate="tanh")
        add: "f32[2, 16, 16]" = y_1 + c;  y_1 = c = None
        linear: "f32[2, 16, 16]" = torch._C._nn.linear(add, l_self_modules_fc_parameters_weight_, l_self_modules_fc_parameters_bias_);  add = l_self_modules_fc_parameters_weight_ = l_self_modules_fc_parameters_bias_ = None
        h: "f32[2, 16, 16]" = torch._C._nn.gelu(linear, approximate = 'tanh');  linear = None

        # File: scripts/capture_models:164 in forward, code: h = h.masked_fill(ids.unsqueeze(-1) == 0, -1.0)
        unsqueeze: "i64[2, 16, 1]" = l_ids_.unsqueeze(-1);  l_ids_ = None
        eq: "b8[2, 16, 1]" = unsqueeze.__eq__(0);  unsqueeze = None
        h_1: "f32[2, 16, 16]" = h.masked_fill(eq, -1.0);  h = eq = None

        # File: scripts/capture_models:165 in forward, code: h = torch.where(h > 0.25, h, 0.1 * h)
        gt: "b8[2, 16, 16]" = h_1 > 0.25
        mul: "f32[2, 16, 16]" = 0.1 * h_1
        h_2: "f32[2, 16, 16]" = torch.where(gt, h_1, mul);  gt = h_1 = mul = None
        return (h_2, rows)
