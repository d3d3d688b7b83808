"""Older archives' weights load into today's Model: a hook on `load_state_dict` gives each weight saved under an
earlier version's name today's (`srl_zoo.archive_upgrade.upgraded_weight_name`). Their configs are upgraded once,
when the archive is read (`srl_zoo.archive_upgrade`)."""

from typing import Any

from torch import nn

from srl_zoo.archive_upgrade import upgraded_weight_name


def read_renamed_weights(model: nn.Module) -> None:
    """Make `model.load_state_dict` accept weights saved under old part names and key prefixes."""

    def rename(state_dict: dict[str, Any], prefix: str, *args: Any) -> None:
        for key in [k for k in state_dict if k.startswith(prefix)]:
            renamed = prefix + upgraded_weight_name(key[len(prefix) :])
            if renamed != key:
                state_dict[renamed] = state_dict.pop(key)

    model._register_load_state_dict_pre_hook(rename)
