"""CPU speed levers: int8 quantization replaces every linear layer and keeps outputs close."""

import torch
from torch import nn

from srl_zoo.nn.inference_speed import bfloat16_autocast, quantize_linear_layers


def test_every_linear_layer_becomes_int8_and_outputs_stay_close():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Sequential(nn.Linear(64, 8))).eval()
    inputs = torch.randn(16, 32)
    expected = model(inputs)
    quantize_linear_layers(model)
    assert not any(type(module) is nn.Linear for module in model.modules())
    assert (model(inputs) - expected).abs().max() < 0.05 * expected.abs().max()


def test_bfloat16_autocast_only_when_enabled():
    layer = nn.Linear(4, 4)
    with bfloat16_autocast(True):
        assert layer(torch.randn(2, 4)).dtype == torch.bfloat16
    with bfloat16_autocast(False):
        assert layer(torch.randn(2, 4)).dtype == torch.float32
