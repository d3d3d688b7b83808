"""Settings that must follow the word embedder, checked before training: a DeepAtt-style encoder multiplies its
input by √d and the GloVe recipes start the embeddings at N(0, 1/d), both for embeddings trained from that
scale; over a pretrained transformer's LayerNorm-ed vectors neither is right. A recipe whose words are swapped
for a transformer with `-o` but keeps either gets one `ConfigurationError` saying what to set (what
`training_configs/common/embedding.libsonnet` writes for a transformer)."""

import json
from typing import Any

from allennlp.common.checks import ConfigurationError
from allennlp.modules import Seq2SeqEncoder

from srl_zoo.training.constructor_keys import constructor_parameters

#: the initializer a transformer recipe gives the predicate embedding (the scale of the transformer's output)
TRANSFORMER_INITIALIZER = [["predicate_embedding.weight", {"type": "normal", "mean": 0.0, "std": 1.0}]]
#: the word-embedding weight the GloVe and random-vector recipes initialise (a transformer embedder has none)
WORD_EMBEDDING_WEIGHT = "text_field_embedder.token_embedder_tokens.weight"


def check_settings_follow_the_embedder(model: dict[str, Any]) -> None:
    """`ConfigurationError` for the first setting of the model config `model` made for embeddings that start
    at N(0, 1/d) while its words come from a pretrained transformer: an encoder's `scale_input`, and an
    initializer of the word-embedding weight."""
    if not _embeds_with_a_transformer(model):
        return
    scorer = model.get("frame_scorer")
    encoder = scorer.get("encoder") if isinstance(scorer, dict) else None
    if isinstance(encoder, dict) and _scales_input(encoder):
        override = json.dumps({"model.frame_scorer.encoder.scale_input": False})
        raise ConfigurationError(
            "model.frame_scorer.encoder.scale_input: true multiplies a pretrained transformer's vectors by √d (it is "
            f"for embeddings that start at N(0, 1/d)); set it false, e.g. -o '{override}'"
        )
    regexes = (model.get("initializer") or {}).get("regexes") or []
    for index, entry in enumerate(regexes):
        if isinstance(entry, list | tuple) and entry and WORD_EMBEDDING_WEIGHT in str(entry[0]):
            raise ConfigurationError(
                f"model.initializer.regexes[{index}]: initialises {WORD_EMBEDDING_WEIGHT} at the scale of GloVe-style "
                "embeddings, which a pretrained transformer embedder does not have; a transformer recipe writes "
                f"{json.dumps({'model.initializer.regexes': TRANSFORMER_INITIALIZER})}"
            )


def _embeds_with_a_transformer(model: dict[str, Any]) -> bool:
    embedder = model.get("text_field_embedder")
    token_embedders = embedder.get("token_embedders") if isinstance(embedder, dict) else None
    if not isinstance(token_embedders, dict):
        return False
    return any(
        isinstance(part, dict) and str(part.get("type", "")).startswith("pretrained_transformer")
        for part in token_embedders.values()
    )


def _scales_input(encoder: dict[str, Any]) -> bool:
    """Whether the encoder config `encoder` multiplies its input by √d: its `scale_input`, else its default."""
    if "scale_input" in encoder:
        return bool(encoder["scale_input"])
    name = encoder.get("type")
    if not isinstance(name, str) or name not in Seq2SeqEncoder.list_available():
        return False
    parameter = constructor_parameters(*Seq2SeqEncoder.resolve_class_name(name)).get("scale_input")
    return parameter is not None and parameter.default is True
