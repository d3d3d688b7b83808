"""An archive (`model.tar.gz`) read into a `LabellingModel` without allennlp: its config names the parts, its
vocabulary gives their labels, its weights fill them. A part the runtime does not build is refused in one line
naming it and the allennlp command that labels with it."""

import json
import os
import shutil
import tempfile
from typing import Any

import torch

from srl_zoo.archive_files import (
    EXTRACTION_PREFIX,
    SCORE_CALIBRATION_KEY,
    ArchiveError,
    extract_archive,
    keys_problem,
    load_weights,
)
from srl_zoo.nn.precision import F1_PER_PRECISION_KEY
from srl_zoo.parts.encoders.selective_connection import SelectiveConnectionEncoder
from srl_zoo.parts.heads.predicate_tagger import PredicateTagger
from srl_zoo.parts.outputs.crf import CrfOutput
from srl_zoo.parts.outputs.softmax import SoftmaxOutput
from srl_zoo.parts.outputs.tag_output import TagOutput
from srl_zoo.parts.scorers.indicator import IndicatorFrameScorer
from srl_zoo.runtime.embedders import build_embedder
from srl_zoo.runtime.model import LabellingModel
from srl_zoo.runtime.vocabulary import read_vocabulary
from srl_zoo.runtime.weights import load_below

#: model keys the runtime does not read: what only training reads, and `predicate_source` (the runtime takes a
#: sentence's given predicates, else the head's)
NOT_READ = {
    "type", "embedding_dropout", "training_metrics", "srl_metric", "initializer", "regularizer", "predicate_source"
}  # fmt: skip
#: head keys that only training reads
HEAD_TRAINING_ONLY = {"type", "loss_weight"}
#: the token embedders the runtime builds
EMBEDDERS = ("pretrained_transformer_mismatched", "pretrained_transformer_adapted", "embedding")


class NotCovered(ArchiveError):
    """An archive with a part the runtime does not build: the message names it and the allennlp command."""

    def __init__(self, path: str, part: str) -> None:
        super().__init__(
            path,
            f"{part} is not in the allennlp-free runtime yet; label with allennlp: `allennlp predict {path} INPUT "
            "--include-package srl_zoo --predictor srl_zoo` (or srl_zoo.load with allennlp installed)",
        )


def _settings(config: dict[str, Any], key: str, path: str) -> dict[str, Any]:
    value = config.get(key)
    if not isinstance(value, dict):
        raise ArchiveError(path, f"config.json: model.{key} is missing or not an object")
    return dict(value)


def _tag_output(settings: dict[str, Any], tags: dict[int, str]) -> TagOutput:
    if settings.pop("type", "softmax") == "crf":
        return CrfOutput(tags)
    return SoftmaxOutput(tags, settings.get("decoding"), settings.get("label_smoothing", 0.0))


def check_covered(path: str, model: dict[str, Any]) -> None:
    """`NotCovered` naming the first part of the archive's `model` config the runtime does not build, before any
    vocabulary or weight is read (so that an archive for allennlp is handed to it whole)."""
    if model.get("type") != "srl_zoo":
        raise NotCovered(path, f"model.type {model.get('type')!r}")
    for key in sorted(set(model) - NOT_READ - {"text_field_embedder", "frame_scorer", "predicate_head"}):
        if model[key] not in (None, {}):
            raise NotCovered(path, f"model.{key}")
    embedders = _settings(model, "text_field_embedder", path).get("token_embedders", {})
    if set(embedders) != {"tokens"} or embedders["tokens"].get("type") not in EMBEDDERS:
        raise NotCovered(path, f"model.text_field_embedder {sorted(embedders)} of type "
                               f"{embedders.get('tokens', {}).get('type')!r}")  # fmt: skip
    scorer = _settings(model, "frame_scorer", path)
    if scorer.get("type", "indicator") != "indicator":
        raise NotCovered(path, f"model.frame_scorer.type {scorer['type']!r}")
    encoder = scorer.get("encoder") or {}
    if encoder.get("type") != "selective_connection":
        raise NotCovered(path, f"model.frame_scorer.encoder.type {encoder.get('type')!r}")
    output = (scorer.get("output") or {}).get("type", "softmax")
    if output not in ("crf", "softmax"):
        raise NotCovered(path, f"model.frame_scorer.output.type {output!r}")
    head = model.get("predicate_head") or {}
    if head and head.get("type", "tagger") != "tagger":
        raise NotCovered(path, f"model.predicate_head.type {head['type']!r}")


def build_model(path: str, directory: str) -> LabellingModel:
    """The labelling model of the archive `path`, extracted in `directory` (config, vocabulary, weights)."""
    with open(os.path.join(directory, "config.json"), encoding="utf-8") as handle:
        config = json.load(handle)
    model = config.get("model", {})
    check_covered(path, model)
    vocabulary = read_vocabulary(os.path.join(directory, "vocabulary"))
    weights = load_weights(os.path.join(directory, "weights.th"))
    embedders = _settings(model, "text_field_embedder", path)["token_embedders"]
    embedder = build_embedder(path, directory, embedders["tokens"], vocabulary, weights)

    scorer_settings = _settings(model, "frame_scorer", path)
    scorer_settings.pop("type", None)
    encoder_settings = dict(scorer_settings.pop("encoder"))
    encoder_settings.pop("type")
    namespace = scorer_settings.pop("label_namespace", "labels")
    tags = vocabulary[namespace]
    output = _tag_output(dict(scorer_settings.pop("output", None) or {}), tags)
    scorer = IndicatorFrameScorer(
        SelectiveConnectionEncoder(**encoder_settings), output, len(tags), label_namespace=namespace, **scorer_settings
    )
    head = None
    if model.get("predicate_head"):
        head_settings = _settings(model, "predicate_head", path)
        head_settings = {key: value for key, value in head_settings.items() if key not in HEAD_TRAINING_ONLY}
        head = PredicateTagger(vocabulary["predicate_senses"], scorer.get_sentence_output_dim(), **head_settings)
    calibration = config.get(SCORE_CALIBRATION_KEY) or {}
    temperature = float(calibration.get("temperature", 1.0))
    labelling = LabellingModel(embedder, scorer, head, tags, temperature, config.get(F1_PER_PRECISION_KEY))
    _load_parts(path, labelling, weights)
    return labelling.eval()


def _load_parts(path: str, model: LabellingModel, weights: dict[str, torch.Tensor]) -> None:
    """The scorer's and head's weights into `model`; `ArchiveError` naming what does not fit, or a weight
    that no part of the model takes (the embedder's are its own, `build_embedder`)."""
    parts = {"frame_scorer.": model.frame_scorer, "predicate_head.": model.predicate_head}
    taken = ("text_field_embedder.",) + tuple(prefix for prefix, part in parts.items() if part is not None)
    problem = keys_problem([], [key for key in weights if not key.startswith(taken)])
    if problem:
        raise ArchiveError(path, f"weights.th: {problem}")
    for prefix, part in parts.items():
        if part is not None:
            load_below(path, part, prefix, weights)


def load_model(path: str) -> LabellingModel:
    """The `LabellingModel` of the archive at `path` (extracted to a temporary folder, checked, removed)."""
    directory = tempfile.mkdtemp(prefix=EXTRACTION_PREFIX)
    try:
        extract_archive(path, directory)
        return build_model(path, directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
