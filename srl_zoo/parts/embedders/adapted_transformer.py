"""A pretrained transformer frozen under trained low-rank adapters (the accurate model's embedder): its frozen
weights read from an encoder directory built offline (`srl-zoo fetch mpnet`), never from an archive."""

import os
from collections.abc import Callable, Sequence

import torch

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
    trained_modules: Sequence[str] = (),
) -> list[str]:
    """Load the named encoder's pretrained weights into `transformer` (built from the same config), round them to
    `frozen_precision`, freeze them (all but those under `trained_modules`, which train and travel in archives)
    and wrap every linear layer under `adapted_modules` in a low-rank adapter (`adapter`: rank, alpha, dropout).
    The state-dict names of the frozen tensors (below `transformer`).
    """
    check_adapted_settings(frozen_weights, frozen_precision)
    _check_trained_modules(transformer, trained_modules)
    _load_frozen_weights(transformer, FROZEN_ENCODERS[frozen_weights](), frozen_weights)
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


#: the weights file of a built encoder folder (`srl_zoo.pretrained.encoder_directory`)
FROZEN_WEIGHTS_FILE = "pytorch_model.bin"


def _load_frozen_weights(transformer: torch.nn.Module, directory: str, encoder: str) -> None:
    """Copy the pretrained weights of the encoder folder `directory` (its `pytorch_model.bin`, read with
    `weights_only=True` whatever the environment says: never through transformers' loader, which an archive's
    options could point elsewhere) into `transformer` (built from the same config). `ArchiveError` naming the
    folder and the command that rebuilds it where the file is unreadable or does not fit."""
    from srl_zoo.archive_files import ArchiveError, load_weights

    rebuild = f"`srl-zoo fetch {encoder}` rebuilds it"
    try:
        state = load_weights(os.path.join(directory, FROZEN_WEIGHTS_FILE))
    except ArchiveError as error:
        raise ArchiveError(directory, f"a damaged encoder folder ({error.reason}); {rebuild}") from None
    prefix = f"{getattr(transformer, 'base_model_prefix', '')}."
    if prefix != "." and state and all(name.startswith(prefix) for name in state):
        state = {name[len(prefix) :]: tensor for name, tensor in state.items()}
    try:
        missing, unexpected = transformer.load_state_dict(state, strict=False)
    except RuntimeError as error:  # a tensor of another shape
        reason = (str(error).strip().splitlines() or [type(error).__name__])[-1].strip()
        raise ArchiveError(directory, f"its weights do not fit the transformer ({reason}); {rebuild}") from None
    if missing or unexpected:
        raise ArchiveError(
            directory,
            f"its weights do not fit the transformer (missing {missing[:3]}, unexpected {unexpected[:3]}); {rebuild}",
        )
