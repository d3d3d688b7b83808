"""An archive's weights put into the runtime's parts, each part from the keys under its prefix: every part is
checked before any is loaded, so that what does not fit is one line naming the archive and counting every missing,
unexpected or reshaped weight of the whole model (the line the allennlp side gives)."""

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from srl_zoo.archive_files import ArchiveError, keys_problem, shapes_problem


def _shape(tensor: torch.Tensor) -> str:
    return f"[{', '.join(str(size) for size in tensor.shape)}]"


@dataclass
class PartWeights:
    """One part of the model and where its weights are: the keys of `weights` under `prefix`.

    # Parameters

    module : the part. prefix : its keys' prefix in the archive's `weights.th`.
    weights : the weights it reads (the archive's, or a view of them: a transformer without its pooler, a frozen
        encoder's own weights added).
    """

    module: torch.nn.Module
    prefix: str
    weights: dict[str, torch.Tensor]

    def state(self) -> dict[str, torch.Tensor]:
        """Its weights, named as the module names them."""
        cut = len(self.prefix)
        return {key[cut:]: value for key, value in self.weights.items() if key.startswith(self.prefix)}


def _ignored(key: str) -> bool:
    """A transformer's `position_ids` buffer may be missing (or present where transformers >= 4.31, which no
    longer saves it, has none: the archive's is then unused)."""
    return key.endswith("position_ids")


def load_parts(
    archive: str, parts: Sequence[PartWeights], weights: dict[str, torch.Tensor], unread: Sequence[str] = ()
) -> None:
    """Every part's weights into it, after checking them all: `ArchiveError` naming `archive` and the weights
    missing from the parts, unexpected by them (a key of `weights`, the archive's whole state dict, under no
    part's prefix nor one of `unread`), or of another shape."""
    missing: list[str] = []
    unexpected: list[str] = []
    mismatched: list[tuple[str, str, str]] = []
    states = [part.state() for part in parts]
    for part, state in zip(parts, states, strict=True):
        own = part.module.state_dict()
        parameters = dict(part.module.named_parameters())  # a buffer may take the saved size (a sense table)
        missing += [part.prefix + key for key in own if key not in state and not _ignored(key)]
        unexpected += [part.prefix + key for key in state if key not in own and not _ignored(key)]
        mismatched += [
            (part.prefix + key, _shape(value), _shape(parameters[key]))
            for key, value in state.items()
            if key in parameters and value.shape != parameters[key].shape
        ]
    prefixes = tuple(part.prefix for part in parts) + tuple(unread)
    unexpected += [key for key in weights if not key.startswith(prefixes)]
    problem = keys_problem(missing, unexpected) or shapes_problem(sorted(mismatched))
    if problem:
        raise ArchiveError(archive, f"weights.th: {problem}")
    for part, state in zip(parts, states, strict=True):
        own = part.module.state_dict()
        try:
            part.module.load_state_dict({key: value for key, value in state.items() if key in own}, strict=False)
        except RuntimeError as error:  # a buffer of another shape than the config's part
            detail = " ".join(str(error).split("\n", 1)[-1].split())
            raise ArchiveError(archive, f"weights.th: the weights do not fit the model's config: {detail}") from None
