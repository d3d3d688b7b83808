"""The Model's config shorthand, rewritten into the parts it stands for before the Model is built, so that
the Model's constructor takes parts only. Configs and archives written with the shorthand (every srl_zoo
version's) pass through it unchanged in meaning:

- `encoder`, `predicate_embedding_dim`, `predicate_combination`, `per_layer_loss`,
  `inference_chunk_elements`, `inference_chunk_tokens` → an `indicator` frame scorer with them;
- `decoding`, `label_smoothing`, `label_namespace` → settings of the frame scorer (the model's win, as the
  model's setters did);
- `predicate_identification: true` (with `predicate_loss_weight`) → a `tagger` predicate head;
- the old `crf` wrapper scorer → its inner scorer with `output: crf` (`unwrap_crf_scorer`).
"""

from typing import Any

from allennlp.common.checks import ConfigurationError

from srl_zoo.models.renamed_parts import unwrap_crf_scorer

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


def upgrade_model_shorthand(model: dict[str, Any], strict: bool = False) -> bool:
    """Rewrite the model config `model` (in place) without shorthand; whether it changed. Indicator settings
    beside an explicit frame_scorer configure nothing: `strict` (a config about to train) refuses them, else
    (an archive's config, which trained that way) they are dropped."""
    changed = unwrap_crf_scorer(model)
    indicator = {key: model.pop(key) for key in INDICATOR_SHORTHAND if key in model}
    if indicator:
        changed = True
        if "encoder" in indicator:
            if model.get("frame_scorer") is not None:
                raise ConfigurationError(
                    "give the model either a frame_scorer or an encoder (shorthand for an indicator scorer), not both"
                )
            model["frame_scorer"] = {"type": "indicator", **indicator}
        elif strict:  # without `encoder` these keys configure nothing: the frame_scorer has its own
            raise ConfigurationError(
                f"model.{sorted(indicator)[0]}: a setting of the indicator frame scorer beside an explicit "
                "frame_scorer, where it would do nothing: move it into frame_scorer (or remove it)"
            )
    settings = {key: model.pop(key) for key in SCORER_SETTINGS if key in model}
    if settings:
        changed = True
        if not isinstance(model.get("frame_scorer"), dict):
            raise ConfigurationError("the model needs a frame_scorer (or the encoder shorthand for one)")
        model["frame_scorer"].update({key: value for key, value in settings.items() if value is not None})
    identification, weight = model.pop("predicate_identification", None), model.pop("predicate_loss_weight", None)
    if identification is not None or weight is not None:
        changed = True
        if identification and model.get("predicate_head") is None:
            model["predicate_head"] = {"type": "tagger", "loss_weight": 1.0 if weight is None else weight}
    return changed
