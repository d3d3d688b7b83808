"""Weights saved under the Model's old part names (`RENAMED_PARTS`) load under the new ones, so older
archives still load."""

from typing import Any

from torch import nn

#: Model parts renamed since earlier srl_zoo versions: old attribute / config key -> new one
RENAMED_PARTS = {"memory": "frame_features"}  # AMN's associated memory became a generic feature source


def read_renamed_weights(model: nn.Module) -> None:
    """Make `model.load_state_dict` accept weights saved under the old part names."""

    def rename(state_dict: dict[str, Any], prefix: str, *args: Any) -> None:
        for key in [k for k in state_dict if k.startswith(prefix)]:
            part, _, rest = key[len(prefix) :].partition(".")
            if part in RENAMED_PARTS:
                state_dict[prefix + RENAMED_PARTS[part] + "." + rest] = state_dict.pop(key)

    model._register_load_state_dict_pre_hook(rename)
