"""The one upgrade of an archive's config: what earlier srl_zoo versions saved, rewritten into today's config
language, once, where an archive is read (allennlp's loading through `srl_zoo.archives.upgrade_archive_config`, the
runtime's in `srl_zoo.runtime.load`; `srl-zoo export` writes the result). A config to train never goes through it:
the config check refuses each old spelling in one line naming today's (`srl_zoo.models.old_spellings`). Needs no
allennlp.

- the model type `srl` (with one of srl_zoo's readers) → `srl_zoo`;
- parts saved under old names (`RENAMED_PARTS`: AMN's `memory`) → their names today;
- the old `crf` wrapper scorer → its inner scorer with a `crf` output layer;
- the model-level `encoder`, `predicate_embedding_dim`, `predicate_combination`, `per_layer_loss`,
  `inference_chunk_elements`, `inference_chunk_tokens` → an `indicator` frame scorer with them;
- the model-level `decoding`, `label_smoothing`, `label_namespace` → settings of the frame scorer (the model's
  win, as the model's setters did);
- the frame scorer's `output: "crf"` name, `decoding` and `label_smoothing` → its output layer as a part,
  `{"type": "softmax", "decoding": ..., "label_smoothing": ...}` or `{"type": "crf"}`;
- `predicate_identification: true` (with `predicate_loss_weight`) → a `tagger` predicate head;
- where the archive holds its transformer's files, the readers' allennlp `pretrained_transformer_mismatched`
  indexers of that transformer → srl_zoo's `word_pieces` indexers of the same folder (the same indices, split as the
  runtime splits them: `use_word_piece_indexers`).

Weights saved under old names get today's (`upgraded_weight_name`: the renamed parts' and the `crf` wrapper's),
in the runtime as it reads them and in the allennlp Model as it loads them (`models.renamed_parts`).
"""

from typing import Any, TypeGuard

from srl_zoo.archive_contents import NO_CODE_NO_DOWNLOAD
from srl_zoo.archive_files import ArchiveError

#: the readers whose archives' model type `srl` is srl_zoo's (allennlp-models' `srl` model reads with its `srl`)
SRL_ZOO_READERS = ("conll2005", "conll2012", "conll2009")
#: Model parts renamed since earlier srl_zoo versions: old attribute / config key -> new one
RENAMED_PARTS = {"memory": "frame_features"}  # AMN's associated memory became a generic feature source
#: weights moved since earlier srl_zoo versions: old key prefix -> new one (the `crf` wrapper scorer's inner scorer is
#: the frame scorer itself, its CRF the frame scorer's output layer)
RENAMED_WEIGHTS = {"frame_scorer.scorer.": "frame_scorer.", "frame_scorer.crf.": "frame_scorer.tag_output.crf."}
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

#: the keys of allennlp's `pretrained_transformer_mismatched` indexer that srl_zoo's `word_pieces` reads the same way
WORD_PIECE_KEYS = ("model_name", "max_length", "token_min_padding_length")
#: its keys that only allennlp's Hugging Face tokenizer read (the vocabulary namespace it copied the pieces to, the
#: tokenizer's settings: those that turn remote code off and downloads off are what `tokenizers` does anyway)
HUGGING_FACE_TOKENIZER_KEYS = ("namespace", "tokenizer_kwargs")


class ArchiveConfigError(ValueError):
    """An archive's config that no version of srl_zoo wrote (the message says what does not fit)."""


def upgrade_archived_config(config: dict[str, Any]) -> bool:
    """Rewrite an archive's whole `config` (in place) into today's language; whether it changed."""
    model, reader = config.get("model"), config.get("dataset_reader")
    if not isinstance(model, dict):
        return False
    changed = False
    if model.get("type") == "srl" and isinstance(reader, dict) and reader.get("type") in SRL_ZOO_READERS:
        model["type"] = "srl_zoo"
        changed = True
    if model.get("type") == "srl_zoo":
        changed |= upgrade_model_config(model)
    return changed


def upgrade_config_of(archive: str, config: dict[str, Any]) -> bool:
    """`upgrade_archived_config` of the archive `archive`'s config: one that no version wrote is an `ArchiveError`
    naming the archive."""
    try:
        return upgrade_archived_config(config)
    except ArchiveConfigError as error:
        raise ArchiveError(archive, f"config.json: {error}") from None


def upgrade_model_config(model: dict[str, Any]) -> bool:
    """Rewrite an srl_zoo model's config (in place) without the spellings of earlier versions; whether it changed.
    Indicator settings beside an explicit frame scorer, which configured nothing, are dropped."""
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
                raise ArchiveConfigError(
                    "give the model either a frame_scorer or an encoder (shorthand for an indicator scorer), not both"
                )
            model["frame_scorer"] = {"type": "indicator", **indicator}
    settings = {key: model.pop(key) for key in SCORER_SETTINGS if key in model}
    if settings:
        changed = True
        if not isinstance(model.get("frame_scorer"), dict):
            raise ArchiveConfigError("the model needs a frame_scorer (or the encoder shorthand for one)")
        model["frame_scorer"].update({key: value for key, value in settings.items() if value is not None})
    changed |= upgrade_output_settings(model.get("frame_scorer"))
    identification, weight = model.pop("predicate_identification", None), model.pop("predicate_loss_weight", None)
    if identification is not None or weight is not None:
        changed = True
        if identification and model.get("predicate_head") is None:
            model["predicate_head"] = {"type": "tagger", "loss_weight": 1.0 if weight is None else weight}
    return changed


def upgraded_weight_name(key: str) -> str:
    """Today's name of a model weight an earlier version saved as `key` (relative to the model)."""
    part, _, rest = key.partition(".")
    if part in RENAMED_PARTS:
        key = RENAMED_PARTS[part] + "." + rest
    for old, new in RENAMED_WEIGHTS.items():
        if key.startswith(old):
            return new + key[len(old) :]
    return key


def is_crf_wrapper(scorer: Any) -> TypeGuard[dict[str, Any]]:
    """Whether the frame scorer config `scorer` is `{type: crf, scorer: S}`: the wrapper of earlier versions,
    before the CRF became an output layer."""
    return isinstance(scorer, dict) and scorer.get("type") == "crf" and isinstance(scorer.get("scorer"), dict)


def unwrap_crf_scorer(model: dict[str, Any]) -> bool:
    """`frame_scorer: {type: crf, scorer: S}` (`is_crf_wrapper`) becomes `S` with `output: crf`, in place;
    whether it changed."""
    scorer = model.get("frame_scorer")
    if not is_crf_wrapper(scorer):
        return False
    model["frame_scorer"] = {**scorer["scorer"], "output": "crf"}
    return True


def upgrade_output_settings(scorer: Any) -> bool:
    """The frame scorer config `scorer` with its output layer as a part, in place: `output: "crf"` (a name) and
    the scorer-level `decoding` and `label_smoothing` of earlier versions become `output: {"type": "crf"}` (the
    CRF decoded with Viterbi and had no smoothing, whatever was set) or `{"type": "softmax", "decoding": ...,
    "label_smoothing": ...}`; whether it changed."""
    if not isinstance(scorer, dict) or not (isinstance(scorer.get("output"), str) or output_keys(scorer)):
        return False
    settings = {key: value for key in output_keys(scorer) if (value := scorer.pop(key)) is not None}
    output = scorer.pop("output", None)
    scorer["output"] = dict(output) if isinstance(output, dict) else {"type": output or "softmax"}
    if scorer["output"].get("type", "softmax") == "softmax":
        scorer["output"].update(settings)
    return True


def output_keys(scorer: dict[str, Any]) -> list[str]:
    """The output layer's settings that the frame scorer config `scorer` gives at its own level (earlier versions)."""
    return [key for key in OUTPUT_SETTINGS if key in scorer]


def use_word_piece_indexers(config: dict[str, Any], transformer_folder: str) -> bool:
    """The `pretrained_transformer_mismatched` indexers of an srl_zoo archive's readers whose `model_name` is the
    archive's own `transformer_folder` become `word_pieces` indexers of it, in place (one that sets anything else,
    such as a tokenizer setting besides those that turn remote code and downloads off, stays allennlp's); whether
    anything changed."""
    if not isinstance(config.get("model"), dict) or config["model"].get("type") != "srl_zoo":
        return False
    changed = False
    for reader in (config.get("dataset_reader"), config.get("validation_dataset_reader")):
        indexers = reader.get("token_indexers") if isinstance(reader, dict) else None
        if not isinstance(indexers, dict):
            continue
        for name, indexer in list(indexers.items()):
            if splits_as_word_pieces(indexer) and indexer["type"] != "word_pieces" and (
                indexer.get("model_name") == transformer_folder
            ):  # fmt: skip
                indexers[name] = {"type": "word_pieces", **{k: indexer[k] for k in WORD_PIECE_KEYS if k in indexer}}
                changed = True
    return changed


def splits_as_word_pieces(indexer: Any) -> bool:
    """Whether the reader's indexer `indexer` (its config) splits words as srl_zoo's `WordPieces` does: `word_pieces`
    itself, or allennlp's `pretrained_transformer_mismatched` saying nothing `word_pieces` would drop (a tokenizer
    setting besides those that turn remote code and downloads off)."""
    if not isinstance(indexer, dict) or indexer.get("type") not in ("word_pieces", "pretrained_transformer_mismatched"):
        return False
    tokenizer_settings = indexer.get("tokenizer_kwargs") or {}
    return (
        set(indexer) <= {"type", *WORD_PIECE_KEYS, *HUGGING_FACE_TOKENIZER_KEYS}
        and isinstance(tokenizer_settings, dict)
        and all(NO_CODE_NO_DOWNLOAD.get(key) == value for key, value in tokenizer_settings.items())
    )
