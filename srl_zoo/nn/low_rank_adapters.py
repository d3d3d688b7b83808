"""Low-rank adapters (LoRA, Hu et al. 2022) in plain torch: a frozen linear layer plus a trained update
`(alpha / rank) · up(down(dropout(x)))` whose `up` starts at zero, so an adapted model starts as the original."""

import math

import torch
from torch import nn


class LowRankAdapted(nn.Module):
    """A linear layer whose own weights stay as they are, plus a trained rank-`rank` update.

    # Parameters

    base : the linear layer (in_features → out_features) the update is added to; its weights are not changed here.
    rank : the update's inner width.
    alpha : the update is scaled by `alpha / rank`.
    dropout : dropout on the update's input.
    """

    def __init__(self, base: nn.Linear, rank: int, alpha: float, dropout: float) -> None:
        super().__init__()
        if rank < 1:
            raise ValueError(f"adapter rank must be at least 1, got {rank}")
        self.base = base
        self.down = nn.Parameter(torch.empty(rank, base.in_features))
        self.up = nn.Parameter(torch.zeros(base.out_features, rank))
        nn.init.kaiming_uniform_(self.down, a=math.sqrt(5))
        self.scale = alpha / rank
        self.dropout = nn.Dropout(dropout)

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        """# Parameters

        inputs : (..., in_features)

        # Returns

        (..., out_features): the base layer's output plus the scaled low-rank update.
        """
        update = nn.functional.linear(nn.functional.linear(self.dropout(inputs), self.down), self.up)
        return self.base(inputs) + self.scale * update


def merged(adapted: LowRankAdapted) -> nn.Linear:
    """One linear layer computing what `adapted` computes without dropout: its base weight plus the scaled low-rank
    product (`scale · up @ down`), so that inference pays one matrix product instead of three."""
    base = adapted.base
    layer = nn.Linear(base.in_features, base.out_features, bias=base.bias is not None)
    with torch.no_grad():
        layer.weight.copy_(base.weight + adapted.scale * (adapted.up @ adapted.down))
        if base.bias is not None:
            layer.bias.copy_(base.bias)
    return layer.requires_grad_(False).to(base.weight.device)


def merge_low_rank_adapters(module: nn.Module) -> int:
    """Replace every `LowRankAdapted` of `module` by its `merged` linear layer (for inference: training keeps the
    adapters); how many were merged."""
    targets = [name for name, child in module.named_modules() if isinstance(child, LowRankAdapted)]
    for name in targets:
        parent_name, _, child_name = name.rpartition(".")
        parent = module.get_submodule(parent_name) if parent_name else module
        setattr(parent, child_name, merged(getattr(parent, child_name)))
    return len(targets)


def add_low_rank_adapters(module: nn.Module, rank: int, alpha: float, dropout: float, under: str) -> list[str]:
    """Replace every `nn.Linear` of `module` whose qualified name starts with `under` by a `LowRankAdapted`
    around it; the names of the layers adapted (none found is an error: `under` names nothing)."""
    targets = [
        name
        for name, child in module.named_modules()
        if isinstance(child, nn.Linear) and (name == under or name.startswith(f"{under}."))
    ]
    if not targets:
        raise ValueError(f"no linear layer under {under!r} to adapt")
    for name in targets:
        parent_name, _, child_name = name.rpartition(".")
        parent = module.get_submodule(parent_name) if parent_name else module
        setattr(parent, child_name, LowRankAdapted(getattr(parent, child_name), rank, alpha, dropout))
    return targets
