"""Timing signal, masked SDPA attention, sub-layers and the deep_att encoder."""

import math

import pytest
import torch

from srl_zoo.modules import DeepAttEncoder, GatedConvolution, MultiHeadSelfAttention, SummedBiLstm, timing_signal
from srl_zoo.parts.layers.sublayers import build_sublayer


def test_timing_signal_layout():
    signal = timing_signal(5, 8)
    assert signal.shape == (5, 8)
    assert torch.allclose(signal[0], torch.tensor([0.0] * 4 + [1.0] * 4))
    # channel 0 has timescale 1: sin(position)
    assert torch.allclose(signal[:, 0], torch.sin(torch.arange(5.0)))
    # the last sine channel has the largest timescale (1e4)
    assert signal[3, 3].item() == pytest.approx(math.sin(3 / 1.0e4), abs=1e-6)
    assert timing_signal(3, 7).shape == (3, 7)


def padded_pair(module, dim=8, length=5, extra=3):
    """Outputs of `module` on a sequence alone and with `extra` padding positions of garbage."""
    torch.manual_seed(0)
    module.eval()
    real = torch.randn(1, length, dim)
    padded = torch.cat([real, 100 * torch.randn(1, extra, dim)], dim=1)
    mask = torch.tensor([[True] * length + [False] * extra])
    alone = module(real, torch.ones(1, length, dtype=torch.bool))
    together = module(padded, mask)
    return alone, together[:, :length]


@pytest.mark.parametrize(
    "factory",
    [
        lambda: MultiHeadSelfAttention(8, 2, 0.0),
        lambda: GatedConvolution(8),
        lambda: SummedBiLstm(8),
        lambda: DeepAttEncoder(8, 8, num_layers=2, num_heads=2, sublayer="glu"),
        lambda: DeepAttEncoder(8, 8, num_layers=2, num_heads=2, sublayer="bilstm"),
    ],
)
def test_padding_never_changes_real_positions(factory):
    alone, together = padded_pair(factory())
    assert torch.allclose(alone, together, atol=1e-5)


def test_attention_matches_a_plain_softmax_implementation():
    torch.manual_seed(1)
    attention = MultiHeadSelfAttention(8, 2, 0.0).eval()
    x = torch.randn(2, 4, 8)
    mask = torch.tensor([[True, True, True, False], [True, True, True, True]])
    q, k, v = attention.qkv(x).view(2, 4, 3, 2, 4).permute(2, 0, 3, 1, 4)
    scores = q @ k.transpose(-1, -2) / 2.0
    scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
    expected = attention.output((scores.softmax(-1) @ v).transpose(1, 2).reshape(2, 4, 8))
    assert torch.allclose(attention(x, mask), expected, atol=1e-5)


def test_summed_bilstm_adds_the_two_directions():
    torch.manual_seed(2)
    layer = SummedBiLstm(4)
    x = torch.randn(1, 3, 4)
    both, _ = layer.lstm(x)
    assert torch.allclose(layer(x, torch.ones(1, 3, dtype=torch.bool)), both[..., :4] + both[..., 4:], atol=1e-6)


def test_deep_att_structure_and_options():
    encoder = DeepAttEncoder(200, num_layers=10, sublayer="ffn")
    assert encoder.get_input_dim() == 200 and encoder.get_output_dim() == 200
    assert len(encoder.layers) == 10
    first = encoder.layers[0]
    assert first[0].sublayer.inner.out_features == 800  # the nonlinear sub-layer comes first
    assert isinstance(first[1].sublayer, MultiHeadSelfAttention)
    weight = first[0].sublayer.inner.weight  # orthogonal initialisation: orthonormal columns
    assert torch.allclose(weight.T @ weight, torch.eye(200), atol=1e-4)
    with pytest.raises(ValueError, match="sublayer must be one of"):
        build_sublayer("cnn", 8, 8, 0.0)
    with pytest.raises(ValueError, match="divisible by num_heads"):
        DeepAttEncoder(10, 10, num_heads=3)
