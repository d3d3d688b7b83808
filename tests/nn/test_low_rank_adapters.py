"""Low-rank adapters against the merged linear layer they stand for (brute force), and their placement."""

import pytest
import torch
from torch import nn

from srl_zoo.nn.low_rank_adapters import LowRankAdapted, add_low_rank_adapters, merge_low_rank_adapters


def test_an_adapted_layer_starts_as_its_base_and_equals_the_merged_weight_once_trained():
    torch.manual_seed(0)
    base = nn.Linear(6, 5)
    adapted = LowRankAdapted(base, rank=2, alpha=4.0, dropout=0.0).eval()
    inputs = torch.randn(3, 4, 6)
    assert torch.equal(adapted(inputs), base(inputs))  # `up` starts at zero
    with torch.no_grad():
        adapted.up.normal_()
    merged = nn.Linear(6, 5)
    with torch.no_grad():
        merged.weight.copy_(base.weight + (4.0 / 2) * adapted.up @ adapted.down)
        merged.bias.copy_(base.bias)
    torch.testing.assert_close(adapted(inputs), merged(inputs))


def test_only_the_adapters_learn_when_the_base_is_frozen():
    torch.manual_seed(0)
    base = nn.Linear(4, 4)
    base.requires_grad_(False)
    adapted = LowRankAdapted(base, rank=1, alpha=1.0, dropout=0.1)
    adapted(torch.randn(2, 4)).sum().backward()
    assert base.weight.grad is None
    assert adapted.up.grad is not None and adapted.down.grad is not None
    with pytest.raises(ValueError, match="rank must be at least 1"):
        LowRankAdapted(nn.Linear(2, 2), rank=0, alpha=1.0, dropout=0.0)


def test_adapters_go_on_every_linear_layer_under_the_named_module_only():
    model = nn.Module()
    model.encoder = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 2)))
    model.head = nn.Linear(2, 2)
    adapted = add_low_rank_adapters(model, rank=1, alpha=1.0, dropout=0.0, under="encoder")
    assert adapted == ["encoder.0", "encoder.2.0"]
    assert isinstance(model.encoder[0], LowRankAdapted) and isinstance(model.encoder[2][0], LowRankAdapted)
    assert isinstance(model.head, nn.Linear)
    with pytest.raises(ValueError, match="no linear layer under 'decoder'"):
        add_low_rank_adapters(model, rank=1, alpha=1.0, dropout=0.0, under="decoder")


def test_merged_adapters_compute_what_the_adapted_layers_do_in_one_linear_layer():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Sequential(nn.Linear(16, 8, bias=False)))
    add_low_rank_adapters(model, rank=4, alpha=8.0, dropout=0.3, under="0")
    add_low_rank_adapters(model, rank=4, alpha=8.0, dropout=0.3, under="2")
    for adapted in (m for m in model.modules() if isinstance(m, LowRankAdapted)):
        nn.init.normal_(adapted.up)  # as after training: the update is not zero
    model.eval()
    inputs = torch.randn(5, 7, 12)
    expected = model(inputs)
    assert merge_low_rank_adapters(model) == 2
    assert not any(isinstance(m, LowRankAdapted) for m in model.modules())
    assert [type(m) for m in model.modules() if isinstance(m, nn.Linear)] == [nn.Linear, nn.Linear]
    assert model[2][0].bias is None
    torch.testing.assert_close(model(inputs), expected, rtol=1e-5, atol=1e-5)
