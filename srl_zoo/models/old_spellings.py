"""A config to train is written in today's parts only: each spelling of earlier srl_zoo versions (the Model's
shorthand, old part names, the `crf` wrapper scorer, scorer-level output settings) is refused in one line naming
where the key goes. Archives of those versions are read through the one upgrade, `srl_zoo.archive_upgrade`."""

import json
from typing import Any

from allennlp.common.checks import ConfigurationError

from srl_zoo.archive_upgrade import (
    INDICATOR_SHORTHAND,
    OUTPUT_SETTINGS,
    RENAMED_PARTS,
    is_crf_wrapper,
    output_keys,
)

#: where each shorthand key is written in parts
PART_SPELLING = {
    **{key: f"model.frame_scorer.{key} (of a frame_scorer of type 'indicator')" for key in INDICATOR_SHORTHAND},
    **{key: f"model.frame_scorer.output.{key} (of an output of type 'softmax')" for key in OUTPUT_SETTINGS},
    "label_namespace": "model.frame_scorer.label_namespace",
    "predicate_identification": 'model.predicate_head: {"type": "tagger"}',
    "predicate_loss_weight": "model.predicate_head.loss_weight",
}


def refuse_old_spellings(model: dict[str, Any]) -> None:
    """Raise a one-line `ConfigurationError` for the first spelling of earlier versions in the model config
    `model`, naming where it goes; nothing where the config is in today's parts."""
    for key, spelling in PART_SPELLING.items():
        if key in model:
            raise ConfigurationError(
                f"model.{key}: the model-level shorthand of earlier srl_zoo versions (read only from their "
                f"archives); write it as {spelling}: every key in docs/configuration.md"
            )
    for old, new in RENAMED_PARTS.items():
        if old in model:
            raise ConfigurationError(f"model.{old}: the name of earlier srl_zoo versions; write it as model.{new}")
    scorer = model.get("frame_scorer")
    if is_crf_wrapper(scorer):
        raise ConfigurationError(
            "model.frame_scorer: the 'crf' wrapper of earlier srl_zoo versions (read only from their archives); "
            'write the inner scorer with "output": {"type": "crf"}'
        )
    if isinstance(scorer, dict) and isinstance(scorer.get("output"), str):
        raise ConfigurationError(
            "model.frame_scorer.output: the output layer is a part now; write "
            + json.dumps({"output": {"type": scorer["output"]}})[1:-1]
        )
    for key in output_keys(scorer) if isinstance(scorer, dict) else []:
        raise ConfigurationError(
            f"model.frame_scorer.{key}: a setting of the output layer now; write it as model.frame_scorer.output.{key} "
            "(of an output of type 'softmax'; a 'crf' output decodes with Viterbi and has no smoothing)"
        )
