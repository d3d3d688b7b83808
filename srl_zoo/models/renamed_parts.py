"""Older archives load as today's Model: parts saved under old names (`RENAMED_PARTS`), and the `crf`
frame scorer that wrapped another scorer, now that scorer with `output: crf` (`RENAMED_WEIGHTS`,
`unwrap_crf_scorer`)."""

from typing import Any, TypeGuard

from torch import nn

#: Model parts renamed since earlier srl_zoo versions: old attribute / config key -> new one
RENAMED_PARTS = {"memory": "frame_features"}  # AMN's associated memory became a generic feature source

#: weights moved since earlier srl_zoo versions: old key prefix -> new one (the `crf` wrapper scorer's
#: inner scorer is the frame scorer itself, its CRF the frame scorer's output layer)
RENAMED_WEIGHTS = {"frame_scorer.scorer.": "frame_scorer.", "frame_scorer.crf.": "frame_scorer.tag_output.crf."}


def is_crf_wrapper(scorer: Any) -> TypeGuard[dict[str, Any]]:
    """Whether the frame scorer config `scorer` is `{type: crf, scorer: S}`: the wrapper of earlier versions,
    before the CRF became an output layer."""
    return isinstance(scorer, dict) and scorer.get("type") == "crf" and isinstance(scorer.get("scorer"), dict)


def unwrap_crf_scorer(model_config: dict[str, Any]) -> bool:
    """`frame_scorer: {type: crf, scorer: S}` (`is_crf_wrapper`) becomes `S` with `output: crf`, in place;
    whether it changed."""
    scorer = model_config.get("frame_scorer")
    if not is_crf_wrapper(scorer):
        return False
    model_config["frame_scorer"] = {**scorer["scorer"], "output": "crf"}
    return True


def read_renamed_weights(model: nn.Module) -> None:
    """Make `model.load_state_dict` accept weights saved under old part names and key prefixes."""

    def rename(state_dict: dict[str, Any], prefix: str, *args: Any) -> None:
        for key in [k for k in state_dict if k.startswith(prefix)]:
            part, _, rest = key[len(prefix) :].partition(".")
            if part in RENAMED_PARTS:
                key = prefix + RENAMED_PARTS[part] + "." + rest
                state_dict[key] = state_dict.pop(prefix + part + "." + rest)
            for old, new in RENAMED_WEIGHTS.items():
                if key.startswith(prefix + old):
                    state_dict[prefix + new + key[len(prefix + old) :]] = state_dict.pop(key)
                    break

    model._register_load_state_dict_pre_hook(rename)
