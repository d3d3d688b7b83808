"""An archive's weights put into the runtime's parts, each part from the keys under its prefix, with one-line
errors naming what does not fit."""

import torch

from srl_zoo.archive_files import ArchiveError, keys_problem


def load_below(archive: str, module: torch.nn.Module, prefix: str, weights: dict[str, torch.Tensor]) -> None:
    """The weights under `prefix` into `module`; `ArchiveError` naming `archive` and the keys missing from or
    unexpected by `module`, or a weight of another shape. A transformer's `position_ids` buffer may be missing
    (or present where transformers >= 4.31, which no longer saves it, has none: the archive's is then unused).

    # Parameters

    weights : the archive's whole state dict (`weights.th`).
    """
    state = {key[len(prefix) :]: value for key, value in weights.items() if key.startswith(prefix)}
    own = module.state_dict()
    missing = [prefix + key for key in own if key not in state and not key.endswith("position_ids")]
    unexpected = [prefix + key for key in state if key not in own and not key.endswith("position_ids")]
    problem = keys_problem(missing, unexpected)
    if problem:
        raise ArchiveError(archive, f"weights.th: {problem}")
    try:
        module.load_state_dict({key: value for key, value in state.items() if key in own}, strict=False)
    except RuntimeError as error:  # a weight of another shape than the config's part
        detail = " ".join(str(error).split("\n", 1)[-1].split())
        raise ArchiveError(archive, f"weights.th: the weights do not fit the model's config: {detail}") from None
