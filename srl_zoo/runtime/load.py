"""An archive (`model.tar.gz`) read into a `LabelingModel` without allennlp: its config names the parts, its
vocabulary gives their labels, its weights fill them. A part the runtime does not build is refused in one line
naming it and the allennlp command that labels with it."""

import os
from collections.abc import Callable, Mapping
from typing import Any, Optional, TypeVar, cast

import torch
from torch import nn

from srl_zoo.archive_cache import extracted_archive
from srl_zoo.archive_files import (
    SCORE_CALIBRATION_KEY,
    ArchiveError,
    load_weights,
    named_by_archive,
    read_config,
)
from srl_zoo.archive_upgrade import splits_as_word_pieces, upgrade_config_of, upgraded_weight_name
from srl_zoo.nn.low_rank_adapters import merge_low_rank_adapters
from srl_zoo.nn.precision import F1_PER_PRECISION_KEY
from srl_zoo.parts.heads.predicate_finder import PredicateFinder
from srl_zoo.parts.input_widths import width_mismatch
from srl_zoo.runtime.embedders import build_embedder
from srl_zoo.runtime.model import LabelingModel
from srl_zoo.runtime.parts_table import ENCODERS, OUTPUTS, PREDICATE_HEADS, SCORERS
from srl_zoo.runtime.vocabulary import read_vocabulary
from srl_zoo.runtime.weights import PartWeights, load_parts

#: model keys the runtime does not read: what only training reads (auxiliary tasks are extra losses, such as LISA's
#: parse: their weights are left unread), and `predicate_source` (the runtime takes a sentence's given predicates,
#: else the head's)
NOT_READ = {
    "type", "embedding_dropout", "training_metrics", "srl_metric", "initializer", "regularizer", "predicate_source",
    "auxiliary_tasks",
}  # fmt: skip
#: weights of the parts only training reads
TRAINING_ONLY_WEIGHTS = ("auxiliary_tasks.",)
#: head keys that only training reads
HEAD_TRAINING_ONLY = {"type", "loss_weight"}
#: the token embedders the runtime builds
EMBEDDERS = ("pretrained_transformer_mismatched", "pretrained_transformer_adapted", "embedding")


T = TypeVar("T")


class NotCovered(ArchiveError):
    """An archive with a part the runtime does not build: the message names it and the allennlp command."""

    def __init__(self, path: str, part: str) -> None:
        self.part = part
        super().__init__(
            path,
            f"{part} is not in the allennlp-free runtime yet; label with allennlp: `allennlp predict {path} INPUT "
            "--include-package srl_zoo --predictor srl_zoo` (srl_zoo.load does so where allennlp is installed)",
        )

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return type(self), (self.path, self.part)


def _settings(config: dict[str, Any], key: str, path: str) -> dict[str, Any]:
    value = config.get(key)
    if not isinstance(value, dict):
        raise ArchiveError(path, f"config.json: model.{key} is missing or not an object")
    return dict(value)


#: what a word table's indexer (`dataset_reader.token_indexers.tokens`) may say for the runtime to index as it does
WORD_INDEXER_KEYS = {"type", "lowercase_tokens", "namespace"}


def _make(path: str, key: str, part: Callable[..., T], *arguments: Any, **settings: Any) -> T:
    """`part(*arguments, **settings)`; settings it does not take or cannot use are an `ArchiveError` naming the
    config key."""
    try:
        return part(*arguments, **settings)
    except (TypeError, ValueError, KeyError) as error:  # a setting it does not take, or one of the wrong kind
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise ArchiveError(path, f"config.json: {key}: {reason}") from None


def _word_indexer(config: dict[str, Any]) -> dict[str, Any]:
    """The reader's `token_indexers.tokens` of an archive's `config` ({} where it gives none)."""
    return ((config.get("dataset_reader") or {}).get("token_indexers") or {}).get("tokens") or {}


def _input_width(path: str, encoder_settings: dict[str, Any], widths: dict[str, int]) -> int:
    """The frame scorer's encoder's input width: the sum of `widths` (what the scorer feeds it), which an archive's
    config gives only if it was written before widths followed the parts (then they must agree)."""
    problem = width_mismatch(encoder_settings.get("input_dim"), widths, "the frame scorer")
    if problem is not None:
        raise ArchiveError(path, f"config.json: model.frame_scorer.encoder.input_dim: {problem}")
    return sum(widths.values())


def check_covered(path: str, config: dict[str, Any]) -> None:
    """`NotCovered` naming the first part of the archive's `config` the runtime does not build, before any
    vocabulary or weight is read (so that an archive for allennlp is handed to it whole)."""
    model = config.get("model", {})
    if model.get("type") != "srl_zoo":
        raise NotCovered(path, f"model.type {model.get('type')!r}")
    for key in sorted(set(model) - NOT_READ - {"text_field_embedder", "frame_scorer", "predicate_head"}):
        if model[key] not in (None, {}):
            raise NotCovered(path, f"model.{key}")
    embedders = _settings(model, "text_field_embedder", path).get("token_embedders", {})
    if set(embedders) != {"tokens"} or embedders["tokens"].get("type") not in EMBEDDERS:
        raise NotCovered(path, f"model.text_field_embedder {sorted(embedders)} of type "
                               f"{embedders.get('tokens', {}).get('type')!r}")  # fmt: skip
    indexer, embedder = _word_indexer(config), embedders["tokens"]
    if embedder["type"] == "embedding":
        fits = not set(indexer) - WORD_INDEXER_KEYS and indexer.get("type", "single_id") == "single_id" and (
            indexer.get("namespace", "tokens") == "tokens"
        )  # fmt: skip
    else:  # the runtime's WordPieces split words, cut at the embedder's max_length
        fits = splits_as_word_pieces(indexer) and indexer.get("max_length") == embedder.get("max_length")
    if not fits:
        raise NotCovered(path, f"dataset_reader.token_indexers.tokens {indexer}")
    scorer = _settings(model, "frame_scorer", path)
    parts: list[tuple[str, Optional[str], Mapping[str, type]]] = [
        ("model.frame_scorer.type", scorer.get("type", "indicator"), SCORERS),
        ("model.frame_scorer.encoder.type", (scorer.get("encoder") or {}).get("type"), ENCODERS),
        ("model.frame_scorer.output.type", (scorer.get("output") or {}).get("type", "softmax"), OUTPUTS),
    ]
    if model.get("predicate_head"):
        parts.append(("model.predicate_head.type", model["predicate_head"].get("type", "tagger"), PREDICATE_HEADS))
    for key, part_type, table in parts:
        if part_type not in table:
            raise NotCovered(path, f"{key} {part_type!r}")


def _check_finite(path: str, weights: Mapping[str, Any]) -> None:
    """`ArchiveError` naming the first floating-point weight that holds a NaN or an infinity: its scores would not
    be numbers. A tensor's float32 sum is finite unless it holds one (or overflows, checked element by element):
    a third of the time of checking every element of the default model's 19.7M weights (31 against 96 ms)."""
    for name, tensor in weights.items():
        if not tensor.is_floating_point() or bool(tensor.sum(dtype=torch.float32).isfinite()):
            continue
        if not bool(tensor.isfinite().all()):
            raise ArchiveError(
                path, f"weights.th: {name} holds NaN or infinite values; its scores would not be numbers"
            )


def build_model(path: str, directory: str) -> LabelingModel:
    """The labeling model of the archive `path`, extracted in `directory` (config, vocabulary, weights)."""
    config = read_config(path, directory)
    upgrade_config_of(path, config)  # an earlier version's spellings, in today's language
    model = config.get("model", {})
    check_covered(path, config)
    vocabulary = read_vocabulary(os.path.join(directory, "vocabulary"))
    saved = load_weights(os.path.join(directory, "weights.th"))
    _check_finite(path, saved)
    weights = {upgraded_weight_name(key): value for key, value in saved.items()}  # an earlier version's names too
    embedders = _settings(model, "text_field_embedder", path)["token_embedders"]
    embedder, embedder_weights = build_embedder(
        path, directory, embedders["tokens"], _word_indexer(config), vocabulary, weights
    )

    scorer_settings = _settings(model, "frame_scorer", path)
    scorer_type = scorer_settings.pop("type", "indicator")
    encoder_settings = dict(scorer_settings.pop("encoder"))
    widths = SCORERS[scorer_type].encoder_input_widths(embedder.output_dim, scorer_settings)
    encoder_settings["input_dim"] = _input_width(path, encoder_settings, widths)
    encoder = _make(path, "model.frame_scorer.encoder", ENCODERS[encoder_settings.pop("type")], **encoder_settings)
    namespace = scorer_settings.get("label_namespace", "labels")
    tags = vocabulary[namespace]
    output_settings = dict(scorer_settings.pop("output", None) or {})
    output_type = OUTPUTS[output_settings.pop("type", "softmax")]
    output = _make(path, "model.frame_scorer.output", output_type, tags, **output_settings)
    scorer = _make(path, "model.frame_scorer", SCORERS[scorer_type], encoder, output, len(tags), **scorer_settings)
    head: Optional[PredicateFinder] = None
    if model.get("predicate_head"):
        head_settings = _settings(model, "predicate_head", path)
        head_type = head_settings.get("type", "tagger")
        head_settings = {key: value for key, value in head_settings.items() if key not in HEAD_TRAINING_ONLY}
        head = _make(  # each head in the table gives the labeling contract
            path,
            "model.predicate_head",
            cast(Callable[..., PredicateFinder], PREDICATE_HEADS[head_type].from_vocabulary),
            vocabulary,
            scorer.get_sentence_output_dim(),
            **head_settings,
        )
    calibration = config.get(SCORE_CALIBRATION_KEY) or {}
    temperature = float(calibration.get("temperature", 1.0))
    labeling = LabelingModel(embedder, scorer, head, tags, temperature, config.get(F1_PER_PRECISION_KEY))
    head_module = cast(Optional[nn.Module], head)  # every predicate head is a module
    parts = [*embedder_weights, PartWeights(scorer, "frame_scorer.", weights)]
    if head_module is not None:
        parts.append(PartWeights(head_module, "predicate_head.", weights))
    load_parts(path, parts, weights, TRAINING_ONLY_WEIGHTS)
    merge_low_rank_adapters(embedder)  # an adapted encoder labels with one linear layer where it trained three
    return labeling.eval()


def load_model(path: str) -> LabelingModel:
    """The `LabelingModel` of the archive at `path`: its files read from the folder it is kept extracted in
    (`srl_zoo.archive_cache`: an archive refused here leaves nothing there), or, with that cache off or unwritable,
    from a temporary folder, removed afterwards. A problem with a file inside it is one `ArchiveError` naming
    `path` and the member."""
    with extracted_archive(path) as directory:
        return model_from_folder(path, directory)


def model_from_folder(path: str, directory: str) -> LabelingModel:
    """The `LabelingModel` of the archive at `path` from `directory`, the folder its files are extracted in; a
    problem with a file inside it is one `ArchiveError` naming `path` and the member."""
    try:
        return build_model(path, directory)
    except ArchiveError as error:
        raise named_by_archive(error, path, directory) from None
