"""The Model's config shorthand of earlier srl_zoo versions, rewritten into the parts it stands for before the
Model is built, so that the Model's constructor takes parts only and the archives of every earlier version load
unchanged in meaning. A config about to train is written in parts only: the shorthand is refused there, naming
where each key goes (`upgrade_model_shorthand(..., strict=True)`, read by the config check).

- `encoder`, `predicate_embedding_dim`, `predicate_combination`, `per_layer_loss`,
  `inference_chunk_elements`, `inference_chunk_tokens` → an `indicator` frame scorer with them;
- `decoding`, `label_smoothing`, `label_namespace` → settings of the frame scorer (the model's win, as the
  model's setters did);
- the frame scorer's own `output: "crf"` name, `decoding` and `label_smoothing` → its output layer as a part,
  `output: {"type": "softmax", "decoding": ..., "label_smoothing": ...}` or `{"type": "crf"}`
  (`upgrade_output_settings`);
- `predicate_identification: true` (with `predicate_loss_weight`) → a `tagger` predicate head;
- the old `crf` wrapper scorer → its inner scorer with `output: crf` (`unwrap_crf_scorer`);
- parts saved under old names (`RENAMED_PARTS`: AMN's `memory`) → their names today.

This is the one upgrade of an archive's model config; only the model's type is upgraded before (it decides
the class: `srl_zoo.registered_names.upgrade_config`), and weights saved under old names are read by
`renamed_parts.read_renamed_weights`.
"""

import json
from typing import Any

from allennlp.common.checks import ConfigurationError

from srl_zoo.models.renamed_parts import RENAMED_PARTS, is_crf_wrapper, unwrap_crf_scorer

#: the model keys that stood for an `indicator` frame scorer's settings
INDICATOR_SHORTHAND = (
    "encoder",
    "predicate_embedding_dim",
    "predicate_combination",
    "per_layer_loss",
    "inference_chunk_elements",
    "inference_chunk_tokens",
)
#: the model keys that were set on whatever frame scorer the model had
SCORER_SETTINGS = ("decoding", "label_smoothing", "label_namespace")
#: the frame scorer keys that were settings of its output layer, named by the scorer's `output` string
OUTPUT_SETTINGS = ("decoding", "label_smoothing")


#: where each shorthand key is written in parts
PART_SPELLING = {
    **{key: f"model.frame_scorer.{key} (of a frame_scorer of type 'indicator')" for key in INDICATOR_SHORTHAND},
    **{key: f"model.frame_scorer.output.{key} (of an output of type 'softmax')" for key in OUTPUT_SETTINGS},
    "label_namespace": "model.frame_scorer.label_namespace",
    "predicate_identification": 'model.predicate_head: {"type": "tagger"}',
    "predicate_loss_weight": "model.predicate_head.loss_weight",
}


def upgrade_model_shorthand(model: dict[str, Any], strict: bool = False) -> bool:
    """Rewrite the model config `model` (in place) without shorthand; whether it changed. `strict` (a config
    about to train) refuses any shorthand in one line naming where the key goes; else (an archive's config,
    which trained that way) it is rewritten, and indicator settings beside an explicit frame_scorer, which
    configured nothing, are dropped."""
    if strict:
        _refuse_shorthand(model)
    changed = unwrap_crf_scorer(model)
    for old, new in RENAMED_PARTS.items():
        if old in model and new not in model:
            model[new] = model.pop(old)
            changed = True
    indicator = {key: model.pop(key) for key in INDICATOR_SHORTHAND if key in model}
    if indicator:
        changed = True
        if "encoder" in indicator:
            if model.get("frame_scorer") is not None:
                raise ConfigurationError(
                    "give the model either a frame_scorer or an encoder (shorthand for an indicator scorer), not both"
                )
            model["frame_scorer"] = {"type": "indicator", **indicator}
    settings = {key: model.pop(key) for key in SCORER_SETTINGS if key in model}
    if settings:
        changed = True
        if not isinstance(model.get("frame_scorer"), dict):
            raise ConfigurationError("the model needs a frame_scorer (or the encoder shorthand for one)")
        model["frame_scorer"].update({key: value for key, value in settings.items() if value is not None})
    changed |= upgrade_output_settings(model.get("frame_scorer"))
    identification, weight = model.pop("predicate_identification", None), model.pop("predicate_loss_weight", None)
    if identification is not None or weight is not None:
        changed = True
        if identification and model.get("predicate_head") is None:
            model["predicate_head"] = {"type": "tagger", "loss_weight": 1.0 if weight is None else weight}
    return changed


def upgrade_output_settings(scorer: Any) -> bool:
    """The frame scorer config `scorer` with its output layer as a part, in place: `output: "crf"` (a name) and
    the scorer-level `decoding` and `label_smoothing` of earlier versions become `output: {"type": "crf"}` (the
    CRF decoded with Viterbi and had no smoothing, whatever was set) or `{"type": "softmax", "decoding": ...,
    "label_smoothing": ...}`; whether it changed."""
    if not isinstance(scorer, dict) or not (isinstance(scorer.get("output"), str) or _output_keys(scorer)):
        return False
    settings = {key: value for key in _output_keys(scorer) if (value := scorer.pop(key)) is not None}
    output = scorer.pop("output", None)
    scorer["output"] = dict(output) if isinstance(output, dict) else {"type": output or "softmax"}
    if scorer["output"].get("type", "softmax") == "softmax":
        scorer["output"].update(settings)
    return True


def _output_keys(scorer: dict[str, Any]) -> list[str]:
    return [key for key in OUTPUT_SETTINGS if key in scorer]


def _refuse_shorthand(model: dict[str, Any]) -> None:
    """Raise a one-line `ConfigurationError` for the first shorthand key of `model`, naming where it goes."""
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
    for key in _output_keys(scorer) if isinstance(scorer, dict) else []:
        raise ConfigurationError(
            f"model.frame_scorer.{key}: a setting of the output layer now; write it as model.frame_scorer.output.{key} "
            "(of an output of type 'softmax'; a 'crf' output decodes with Viterbi and has no smoothing)"
        )
