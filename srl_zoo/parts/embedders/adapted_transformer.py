"""A pretrained transformer frozen under trained low-rank adapters (the accurate model's embedder): its frozen
weights read from an encoder directory built offline (`srl-zoo fetch mpnet`), never from an archive."""

from collections.abc import Callable, Sequence
from typing import Any

import torch

from srl_zoo.archive_contents import no_code_kwargs
from srl_zoo.nn.low_rank_adapters import add_low_rank_adapters

#: the encoder directories `frozen_weights` may name: the check that gives their folder or says how to build it
FROZEN_ENCODERS: dict[str, Callable[[], str]] = {}


def _mpnet_directory() -> str:
    from srl_zoo.pretrained import mpnet

    return mpnet.check_encoder_directory(mpnet.default_directory())


FROZEN_ENCODERS["mpnet"] = _mpnet_directory

PRECISIONS = {"float32": torch.float32, "bfloat16": torch.bfloat16}


def check_adapted_settings(frozen_weights: str, frozen_precision: str) -> None:
    """`ValueError` naming the setting when the frozen encoder or its precision is not one this knows."""
    if frozen_weights not in FROZEN_ENCODERS:
        raise ValueError(f"frozen_weights: unknown encoder {frozen_weights!r}; known: {sorted(FROZEN_ENCODERS)}")
    if frozen_precision not in PRECISIONS:
        raise ValueError(f"frozen_precision: {frozen_precision!r} is not one of {sorted(PRECISIONS)}")


def freeze_and_adapt(
    transformer: torch.nn.Module,
    frozen_weights: str,
    frozen_precision: str,
    adapter: tuple[int, float, float],
    adapted_modules: str,
    transformer_kwargs: dict[str, Any],
    trained_modules: Sequence[str] = (),
) -> list[str]:
    """Load the named encoder's pretrained weights into `transformer` (built from the same config), round them to
    `frozen_precision`, freeze them (all but those under `trained_modules`, which train and travel in archives)
    and wrap every linear layer under `adapted_modules` in a low-rank adapter (`adapter`: rank, alpha, dropout).
    The state-dict names of the frozen tensors (below `transformer`).
    """
    check_adapted_settings(frozen_weights, frozen_precision)
    _check_trained_modules(transformer, trained_modules)
    _load_frozen_weights(transformer, FROZEN_ENCODERS[frozen_weights](), transformer_kwargs)
    with torch.no_grad():
        for name, parameter in transformer.named_parameters():
            if frozen_precision != "float32":
                parameter.copy_(parameter.to(PRECISIONS[frozen_precision]).float())
            parameter.requires_grad = _is_under(name, trained_modules)
    rank, alpha, dropout = adapter
    add_low_rank_adapters(transformer, rank, alpha, dropout, under=adapted_modules)
    return sorted(name for name, tensor in transformer.state_dict(keep_vars=True).items() if not tensor.requires_grad)


def _is_under(name: str, modules: Sequence[str]) -> bool:
    """Whether the parameter `name` belongs to one of `modules` (qualified sub-module names)."""
    return any(name.startswith(f"{module}.") for module in modules)


def _check_trained_modules(transformer: torch.nn.Module, trained_modules: Sequence[str]) -> None:
    """`ValueError` naming the setting when one of `trained_modules` is not a sub-module with parameters."""
    names = [name for name, _ in transformer.named_parameters()]
    for module in trained_modules:
        if not any(_is_under(name, [module]) for name in names):
            raise ValueError(f"trained_modules: {module!r} names no sub-module with weights in the transformer")


def _load_frozen_weights(transformer: torch.nn.Module, directory: str, transformer_kwargs: dict[str, Any]) -> None:
    """Copy the pretrained weights of `directory` into `transformer` (built from the same config)."""
    from transformers import AutoModel
    from transformers.utils import logging as transformers_logging

    shown = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()  # a local folder: no "Loading weights" bar on the user's terminal
    try:
        pretrained = AutoModel.from_pretrained(directory, **no_code_kwargs(transformer_kwargs))
    finally:
        if shown:
            transformers_logging.enable_progress_bar()
    missing, unexpected = transformer.load_state_dict(pretrained.state_dict(), strict=False)
    if missing or unexpected:
        raise ValueError(
            f"frozen weights in {directory} do not fit the transformer: "
            f"missing {missing[:3]}, unexpected {unexpected[:3]}"
        )
