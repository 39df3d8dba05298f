class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 16]", arg1_1: "f32[16]", arg2_1: "f32[8, 16]", arg3_1: "f32[16, 16]", arg4_1: "f32[16]"):
        # File: python/tests/models.py:261 in forward, code: y = self.fc1(x)
        permute: "f32[16, 16]" = torch.ops.aten.permute.default(arg0_1, [1, 0]);  arg0_1 = None
        addmm: "f32[8, 16]" = torch.ops.aten.addmm.default(arg1_1, arg2_1, permute);  arg1_1 = arg2_1 = permute = None

        # File: python/tests/models.py:262 in forward, code: y = torch.cond(y.sum() > 0, lambda t: t.relu() * 2, lambda t: t.sigmoid(), (y,))
        sum_1: "f32[]" = torch.ops.aten.sum.dim_IntList(addmm, [])
        gt: "b8[]" = torch.ops.aten.gt.Scalar(sum_1, 0);  sum_1 = None
        true_graph_0 = self.true_graph_0
        false_graph_0 = self.false_graph_0
        cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, (addmm,));  gt = true_graph_0 = false_graph_0 = addmm = None
        getitem: "f32[8, 16]" = cond[0];  cond = None

        # File: python/tests/models.py:263 in forward, code: return self.fc2(y)
        permute_1: "f32[16, 16]" = torch.ops.aten.permute.default(arg3_1, [1, 0]);  arg3_1 = None
        addmm_1: "f32[8, 16]" = torch.ops.aten.addmm.default(arg4_1, getitem, permute_1);  arg4_1 = getitem = permute_1 = None
        return (addmm_1,)

    class true_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "f32[8, 16]"):
            # File: python/tests/models.py:262 in <lambda>, code: y = torch.cond(y.sum() > 0, lambda t: t.relu() * 2, lambda t: t.sigmoid(), (y,))
            relu: "f32[8, 16]" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
            mul: "f32[8, 16]" = torch.ops.aten.mul.Tensor(relu, 2);  relu = None
            return (mul,)

    class false_graph_0(torch.nn.Module):
        def forward(self, arg0_1: "f32[8, 16]"):
            # File: python/tests/models.py:262 in <lambda>, code: y = torch.cond(y.sum() > 0, lambda t: t.relu() * 2, lambda t: t.sigmoid(), (y,))
            sigmoid: "f32[8, 16]" = torch.ops.aten.sigmoid.default(arg0_1);  arg0_1 = None
            return (sigmoid,)
