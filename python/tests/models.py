"""Small models for the frontend's tests (and the exporter's examples):
RMSNorm + MLP, conv-BN-ReLU, causal attention, and a module with buffer
mutation.  Written with ops PyTorch 1.13 has (no nn.RMSNorm, no SDPA)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim) + 0.1 * torch.randn(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class RMSNormMLP(nn.Module):
    def __init__(self, dim=64, hidden=128):
        super().__init__()
        self.norm = RMSNorm(dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


class ConvBN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 1.5)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


class Attention(nn.Module):
    def __init__(self, dim=32, heads=2):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) / math.sqrt(D // self.h)
        mask = torch.ones(T, T, dtype=torch.bool).tril()
        s = s.masked_fill(~mask, float("-inf"))
        y = (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
        return self.o(y)


class Counter(nn.Module):
    """Updates a buffer in place: the aot mutation path."""

    def __init__(self):
        super().__init__()
        self.register_buffer("acc", torch.zeros(16))

    def forward(self, x):
        self.acc.mul_(0.5).add_(x.mean(0))
        return x * 2


def rmsnorm_mlp():
    torch.manual_seed(1)
    return RMSNormMLP().eval(), [torch.randn(4, 64)]


def conv_bn():
    torch.manual_seed(2)
    return ConvBN().eval(), [torch.randn(2, 4, 8, 8)]


def attention():
    torch.manual_seed(3)
    return Attention().eval(), [torch.randn(2, 8, 32)]


class Encoder(nn.Module):
    """nn.TransformerEncoder (post-norm, ReLU) after nn.MultiheadAttention
    with a key padding mask: in eval mode both take PyTorch's fused fast
    path (_transformer_encoder_layer_fwd, _native_multi_head_attention),
    which the exporter spells out as the ops they are made of."""

    def __init__(self):
        super().__init__()
        self.mha = nn.MultiheadAttention(32, 4, batch_first=True)
        layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, x):
        pad = torch.zeros(x.shape[0], x.shape[1], dtype=torch.bool)
        pad[:, -1] = True
        a = self.mha(x, x, x, key_padding_mask=pad, need_weights=False)[0]
        return self.enc(x + a)


def encoder():
    torch.manual_seed(5)
    return Encoder().eval(), [torch.randn(2, 6, 32)]


class TCN(nn.Module):
    """A dilated causal 1-d convolution with weight_norm (a model that
    copy.deepcopy refuses on 1.13: its weight is computed, not a leaf),
    then a plain one and a residual."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.utils.weight_norm(nn.Conv1d(4, 8, 3, padding=4, dilation=2))
        self.c2 = nn.Conv1d(8, 4, 3, padding=2)

    def forward(self, x):
        y = F.relu(self.c1(x))[..., :-4]
        return F.relu(self.c2(y)[..., :-2] + x)


def tcn():
    torch.manual_seed(6)
    return TCN().eval(), [torch.randn(2, 4, 20)]


def counter():
    torch.manual_seed(4)
    return Counter(), [torch.randn(4, 16)]


class ComplexRoPE(nn.Module):
    """Rotary embeddings as Meta's reference Llama applies them: the last
    dim's pairs as complex numbers (view_as_complex) times a complex
    buffer (polar), then view_as_real; a slice of the buffer, and a
    complex number computed in the graph (polar of a computed angle)."""

    def __init__(self, seq=16, hd=8):
        super().__init__()
        self.q = nn.Linear(32, 32)
        f = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
        ang = torch.outer(torch.arange(seq).float(), f)
        self.register_buffer("cis", torch.polar(torch.ones_like(ang), ang))

    def forward(self, x):
        b, s, _ = x.shape
        q = self.q(x).view(b, s, 4, 8)
        c = self.cis[:s].unsqueeze(1)
        qc = torch.view_as_complex(q.reshape(b, s, 4, 4, 2))
        r = torch.view_as_real(qc * c).flatten(3)
        z = torch.polar(x[..., :4].abs() + 0.5, x[..., 4:8])
        return r.sum(-1) + torch.view_as_real(z * 2.0 + qc[:, :, 0]).sum(-1).sum(-1, keepdim=True)


class ComplexParts(nn.Module):
    """Complex values read as parts, magnitudes and conjugates."""

    def forward(self, x):
        c = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
        p = c * c.conj()
        return torch.cat([c.real, c.imag, c.abs(), torch.view_as_real(p).flatten(-2)], -1)


def complex_parts():
    torch.manual_seed(9)
    return ComplexParts().eval(), [torch.randn(3, 5, 8)]


def complex_rope():
    torch.manual_seed(7)
    return ComplexRoPE().eval(), [torch.randn(2, 12, 32)]


class FourierMix(nn.Module):
    """FNet's token mixing: the real part of a 2-d FFT over the hidden
    and sequence dims; its complex values are npucc's to decompose."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        return torch.fft.fftn(self.fc(x), dim=(-2, -1)).real


def fourier_mix():
    torch.manual_seed(8)
    return FourierMix().eval(), [torch.randn(2, 8, 16)]



_LIB = []


def _custom_ops_library():
    """torch.library ops npucc has no entry for (defined once a process):
    softclip(x) = x / (1 + |x|), and halves(x), the two halves of the last
    dim as two tensors."""
    if _LIB:
        return
    lib = torch.library.Library("npusim_test", "DEF")
    lib.define("softclip(Tensor x) -> Tensor")
    lib.define("halves(Tensor x) -> (Tensor, Tensor)")

    def halves(x):
        a, b = x.chunk(2, -1)
        return a.clone(), b.clone()

    def halves_meta(x):
        shape = x.shape[:-1] + (x.shape[-1] // 2,)
        return x.new_empty(shape), x.new_empty(shape)

    lib.impl("softclip", lambda x: x / (1 + x.abs()), "CPU")
    lib.impl("softclip", lambda x: torch.empty_like(x), "Meta")
    lib.impl("halves", halves, "CPU")
    lib.impl("halves", halves_meta, "Meta")
    _LIB.append(lib)


class CustomOps(nn.Module):
    """A GLU-style block around two custom ops, with a buffer updated in
    place: the frontend cuts its graph around the ops."""

    def __init__(self):
        super().__init__()
        _custom_ops_library()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(16, 16)
        self.register_buffer("acc", torch.zeros(16))

    def forward(self, x):
        h = torch.ops.npusim_test.softclip(self.fc1(x))
        a, b = torch.ops.npusim_test.halves(h)
        y = self.fc2(a * torch.sigmoid(b))
        self.acc.mul_(0.5).add_(y.mean(0))
        return y + x


def custom_ops():
    torch.manual_seed(9)
    return CustomOps().eval(), [torch.randn(8, 16)]


class CondBranches(nn.Module):
    """torch.cond (PyTorch 2.x) between two linear layers: its branches
    are subgraphs, which the frontend leaves to PyTorch."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        y = self.fc1(x)
        y = torch.cond(y.sum() > 0, lambda t: t.relu() * 2, lambda t: t.sigmoid(), (y,))
        return self.fc2(y)


def cond_branches():
    torch.manual_seed(10)
    return CondBranches().eval(), [torch.randn(8, 16)]


class DataDependent(nn.Module):
    """Sizes that come from data (PyTorch 2.x with Dynamo's
    capture_dynamic_output_shape_ops and capture_scalar_outputs): a
    boolean mask's index and nonzero, whose counts then enter the
    arithmetic of dense work on either side."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 32)

    def forward(self, x):
        y = self.fc(x)
        return y[y > 0].sum() + torch.nonzero(y > 0.5).shape[0] + y.tanh()


def data_dependent():
    torch.manual_seed(11)
    return DataDependent().eval(), [torch.randn(4, 32)]


def custom_train():
    """PyTorch 2.4+: a torch.library.custom_op with its autograd formula
    (softclip, d/dx = 1 / (1 + |x|)^2) between two linear layers, for a
    training step: the forward graph holds the op, the backward graph the
    formula's ATen ops."""
    if not hasattr(torch.library, "custom_op"):
        return None
    if not hasattr(torch.ops.npusim_test, "softclip_ad"):
        @torch.library.custom_op("npusim_test::softclip_ad", mutates_args=())
        def softclip_ad(x: torch.Tensor) -> torch.Tensor:
            return x / (1 + x.abs())

        @softclip_ad.register_fake
        def _(x):
            return torch.empty_like(x)

        def setup(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g / (1 + x.abs()) ** 2

        softclip_ad.register_autograd(backward, setup_context=setup)

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(16, 32)
            self.fc2 = nn.Linear(32, 16)

        def forward(self, x):
            return self.fc2(torch.ops.npusim_test.softclip_ad(self.fc1(x)))

    torch.manual_seed(12)
    return M().train(), [torch.randn(8, 16)]
