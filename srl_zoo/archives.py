"""Safe loading of model archives: every member is checked before anything is written, weights are
read with `torch.load(weights_only=True)`, and a bad archive gives one `ArchiveError` naming the file.

`srl_zoo.allennlp_patches` (applied when srl_zoo is imported) puts these into AllenNLP's own loading
path, so that `srl_zoo.api.load`, the srl_zoo commands and `allennlp predict/evaluate` with srl_zoo imported
all extract archives this way.
"""

import ast
import contextlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Optional

import torch

from srl_zoo.archive_contents import no_code_kwargs
from srl_zoo.archive_files import (
    ARCHIVED_TRANSFORMER,
    EXTRACTION_PREFIX,
    TRANSFORMER_SOURCE,
    ArchiveError,
    checked_members,
    extract_archive,
    keys_problem,
    load_weights,
    member_problem,
    named_by_archive,
    read_config,
    shapes_problem,
)
from srl_zoo.archive_upgrade import upgrade_config_of, use_word_piece_indexers
from srl_zoo.data.formats.io_utils import atomic_write

__all__ = [
    "ARCHIVED_TRANSFORMER",
    "EXTRACTION_PREFIX",
    "TRANSFORMER_SOURCE",
    "ArchiveError",
    "checked_members",
    "extract_archive",
    "keys_problem",
    "load_weights",
    "member_problem",
]


@contextlib.contextmanager
def safe_extracted_archive(resolved_archive_file: str, cleanup: bool = True) -> Iterator[str]:
    """A temporary folder holding the checked archive's contents (AllenNLP's `extracted_archive`'s
    contract); the folder is removed if extraction fails, and on exit when `cleanup`."""
    directory = tempfile.mkdtemp(prefix=EXTRACTION_PREFIX)
    try:
        extract_archive(str(resolved_archive_file), directory)
        upgrade_archive_config(directory, str(resolved_archive_file))
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    try:
        yield directory
    finally:
        if cleanup:
            shutil.rmtree(directory, ignore_errors=True)


def replace_value(node: Any, old: str, new: str) -> Any:
    """`node` (a config: dicts, lists, values) with every string equal to `old` replaced by `new`."""
    if isinstance(node, dict):
        return {key: replace_value(value, old, new) for key, value in node.items()}
    if isinstance(node, list):
        return [replace_value(value, old, new) for value in node]
    return new if node == old else node


def use_archived_transformer(config: dict[str, Any], directory: str) -> bool:
    """Point an extracted archive's config at its own transformer files: every string equal to the
    directory they were copied from becomes `directory/transformer`, the token embedders of
    pretrained transformers skip loading pretrained weights (the archive's weights replace them), so
    loading needs neither that directory nor a download, and the readers split words into pieces with
    `word_pieces` indexers of that folder (`use_word_piece_indexers`). Whether anything changed."""
    source = os.path.join(directory, ARCHIVED_TRANSFORMER, TRANSFORMER_SOURCE)
    if not os.path.isfile(source):
        return False
    with open(source, encoding="utf-8") as handle:
        original = json.load(handle)["model_name"]
    folder = os.path.join(directory, ARCHIVED_TRANSFORMER)
    rewritten = replace_value(config, original, folder)
    _skip_pretrained_transformer_weights(rewritten)
    use_word_piece_indexers(rewritten, folder)
    changed = rewritten != config
    config.clear()
    config.update(rewritten)
    return changed


def _pretrained_transformers(node: Any, kind: str, also: tuple[str, ...] = ()) -> Iterator[dict[str, Any]]:
    """The pretrained-transformer parts of the config `node` under its `kind` keys (`token_embedders` or
    `token_indexers`), and those of the types `also`, each the dict that configures it."""
    children: Iterable[Any]
    if isinstance(node, dict):
        parts = node.get(kind)
        for part in parts.values() if isinstance(parts, dict) else ():
            kind_of_part = str(part.get("type", "")) if isinstance(part, dict) else ""
            if kind_of_part.startswith("pretrained_transformer") or kind_of_part in also:
                yield part
        children = node.values()
    elif isinstance(node, list):
        children = node
    else:
        return
    for child in children:
        yield from _pretrained_transformers(child, kind, also)


def _skip_pretrained_transformer_weights(node: Any) -> None:
    """Set `load_weights: false` on every pretrained-transformer token embedder in the config `node`."""
    for embedder in _pretrained_transformers(node, "token_embedders"):
        embedder["load_weights"] = False


def load_transformers_without_code(config: dict[str, Any]) -> bool:
    """Make every pretrained transformer of an archive's `config` load with remote code off and local files only
    (`archive_contents.NO_CODE_NO_DOWNLOAD` in its embedder's `transformer_kwargs` and `tokenizer_kwargs` and its
    indexer's `tokenizer_kwargs`), whatever they said. Whether anything changed."""
    changed = False
    parts = [(embedder, ("transformer_kwargs", "tokenizer_kwargs")) for embedder in _pretrained_transformers(
        config, "token_embedders")] + [(indexer, ("tokenizer_kwargs",)) for indexer in _pretrained_transformers(
        config, "token_indexers")]  # fmt: skip
    for part, keys in parts:
        for key in keys:
            safe = no_code_kwargs(part.get(key))
            changed |= safe != part.get(key)
            part[key] = safe
    return changed


def check_transformers_inside(config: dict[str, Any], directory: str, archive: str) -> None:
    """`ArchiveError` naming the key where a pretrained transformer's `model_name` in the extracted `archive`'s
    `config` (pointed at its own files by `use_archived_transformer`) is any folder but the archive's
    `transformer/` in `directory`: allennlp would read that folder's config and tokenizer files."""
    folder = os.path.normpath(os.path.join(directory, ARCHIVED_TRANSFORMER))
    for kind in ("token_embedders", "token_indexers"):
        for part in _pretrained_transformers(config, kind, also=("word_pieces",)):
            named = part.get("model_name")
            if not isinstance(named, str) or os.path.normpath(named) != folder:
                raise ArchiveError(
                    archive,
                    f"config.json: a {part.get('type')} part's model_name {named!r} is not the archive's own "
                    f"{ARCHIVED_TRANSFORMER}/ folder; an archive reads only its own files",
                )


def upgrade_archive_config(directory: str, archive: str) -> None:
    """Rewrite the extracted `config.json` of `archive`, if an earlier srl_zoo saved it, into today's config
    language (the one upgrade: `srl_zoo.archive_upgrade`), point it at the archive's own transformer files
    (`use_archived_transformer`; any other folder is refused: `check_transformers_inside`) and load its
    transformers without code or downloads (`load_transformers_without_code`). `ArchiveError` naming `archive`
    where it has no config."""
    path = os.path.join(directory, "config.json")
    config = read_config(archive, directory)
    changes = [upgrade_config_of(archive, config), use_archived_transformer(config, directory)]
    check_transformers_inside(config, directory, archive)
    if any(changes + [load_transformers_without_code(config)]):
        with atomic_write(path) as handle:
            json.dump(config, handle, indent=2)


def _safe_read_state_dict(original: Callable) -> Callable:
    """AllenNLP's `read_state_dict` reading the file with `load_weights` (its prefix/ignore options
    go to the original, which loads the file itself; no archive-loading path uses them)."""

    def read_state_dict(
        path: str,
        strip_prefix: Optional[str] = None,
        ignore: Optional[list[str]] = None,
        strict: bool = True,
        cuda_device: int = -1,
    ) -> dict[str, torch.Tensor]:
        if strip_prefix is None and ignore is None:
            return load_weights(path, cuda_device)
        return original(path, strip_prefix=strip_prefix, ignore=ignore, strict=strict, cuda_device=cuda_device)

    read_state_dict.srl_zoo_safe = True  # type: ignore[attr-defined]
    return read_state_dict


#: the start of AllenNLP's message for weights that do not fit the model (`Model._load`)
_STATE_DICT_ERROR = "Error loading state dict"
#: the start of torch's message for saved weights whose shapes differ from the model's (`load_state_dict`)
_TORCH_STATE_DICT_ERROR = "Error(s) in loading state_dict"


def authorized_missing(model: torch.nn.Module, key: str) -> bool:
    """Whether `model` may lack the saved weight `key`: a module on its path declares a pattern for it in
    `authorized_missing_keys` (AllenNLP's convention, e.g. a transformer's `position_ids` buffer), matched
    against the key below that module."""
    for prefix, module in model.named_modules():
        start = f"{prefix}." if prefix else ""
        if key.startswith(start):
            for pattern in getattr(type(module), "authorized_missing_keys", None) or []:
                if re.search(pattern, key[len(start) :]):
                    return True
    return False


def weights_problem(model: torch.nn.Module, state: dict[str, torch.Tensor]) -> Optional[str]:
    """Why the weights `state` cannot make `model` whole (keys it needs that are missing, keys it does not
    have, after the model's own renaming of older keys), else None. Loads `state` into `model`."""
    incompatible = model.load_state_dict(state, strict=False)
    missing = [key for key in incompatible.missing_keys if not authorized_missing(model, key)]
    return keys_problem(missing, incompatible.unexpected_keys)


def _allennlp_keys_problem(message: str) -> str:
    """`keys_problem` of AllenNLP's "Error loading state dict" message (its key lists, one per line)."""
    lists: dict[str, list[str]] = {"missing": [], "unexpected": []}
    for line in message.splitlines()[1:]:
        kind, _, keys = line.strip().partition(" keys: ")
        if kind.lower() in lists:
            lists[kind.lower()] = ast.literal_eval(keys)
    return keys_problem(lists["missing"], lists["unexpected"]) or message.splitlines()[0]


def _shapes_problem(message: str) -> str:
    """The one-line reason for torch's "Error(s) in loading state_dict" message: how many weights have another
    shape than the model's, and the first one (another model's weights, or a config that was changed)."""
    mismatched = re.findall(
        r"size mismatch for ([^:]+): copying a param with shape (torch\.Size\(\[[^\]]*\]\)) from "
        r"checkpoint, the shape in current model is (torch\.Size\(\[[^\]]*\]\))",
        message,
    )
    if not mismatched:
        return " ".join(message.split())
    shape = lambda text: text[len("torch.Size(") : -1]  # noqa: E731
    return shapes_problem([(name, shape(saved), shape(expected)) for name, saved, expected in mismatched]) or ""


def _weights_path(config: Any, args: tuple, kwargs: dict) -> str:
    """The weights file `Model.load(config, serialization_dir, weights_file=None, ...)` reads."""
    serialization_dir = args[0] if args else kwargs["serialization_dir"]
    weights_file = args[1] if len(args) > 1 else kwargs.get("weights_file")
    return weights_file or os.path.join(serialization_dir, "best.th")


def _checked_load(original: Callable) -> Callable:
    """AllenNLP's `Model.load` refusing weights that leave the model part-empty or hold keys it lacks
    (`ArchiveError` naming the weights file; AllenNLP itself let missing keys through once any module declared
    `authorized_missing_keys`); a model that declares `read_archive_record(config)` (srl_zoo's: the F1 per
    precision and the score calibration `srl-zoo export` recorded) is then handed its archive's config."""

    def load(cls, config, *args, **kwargs):  # type: ignore[no-untyped-def]
        weights = _weights_path(config, args, kwargs)
        try:
            model = original(cls, config, *args, **kwargs)
        except RuntimeError as error:
            if str(error).startswith(_TORCH_STATE_DICT_ERROR):
                raise ArchiveError(weights, _shapes_problem(str(error))) from None
            if not str(error).startswith(_STATE_DICT_ERROR):
                raise
            raise ArchiveError(weights, _allennlp_keys_problem(str(error))) from None
        problem = weights_problem(model, load_weights(weights))
        if problem is not None:
            raise ArchiveError(weights, problem)
        read_record = getattr(model, "read_archive_record", None)
        if read_record is not None:
            read_record(config.as_dict(quiet=True))
        return model

    load.srl_zoo_checked = True  # type: ignore[attr-defined]
    return load


def load_model_archive(archive_file: str, **kwargs: Any) -> Any:
    """AllenNLP's `load_archive(archive_file, **kwargs)`, where a problem with a file inside the archive (its
    weights unreadable, missing or not the model's) is one `ArchiveError` naming `archive_file` and the member,
    not the temporary copy it was read from."""
    from allennlp.common.checks import ConfigurationError
    from allennlp.models.archival import load_archive

    try:
        return load_archive(archive_file, **kwargs)
    except ConfigurationError as error:  # a part its config names that allennlp does not know, a wrong key...
        first = str(error).strip().strip("\"'").split(". ")[0].splitlines()[0]
        raise ArchiveError(archive_file, f"config.json: {first}") from None
    except ArchiveError as error:
        named = named_by_archive(error, archive_file)
        if named is error:
            raise
        raise named from None


def use_safe_extraction() -> None:
    """AllenNLP extracts archives with `safe_extracted_archive` (every member checked before anything is
    written)."""
    from allennlp.models import archival

    archival.extracted_archive = safe_extracted_archive


def use_weights_only_loading() -> None:
    """AllenNLP reads saved weights with `load_weights` (`torch.load(weights_only=True)`); once only."""
    from allennlp.nn import util

    if not getattr(util.read_state_dict, "srl_zoo_safe", False):
        util.read_state_dict = _safe_read_state_dict(util.read_state_dict)


def use_safe_archive_reading() -> None:
    """AllenNLP extracts archives with `safe_extracted_archive` and reads saved weights with `load_weights`."""
    use_safe_extraction()
    use_weights_only_loading()


def check_loaded_models() -> None:
    """AllenNLP's `Model.load` refuses weights that do not make the model whole and hands a model that
    declares `read_archive_record` its archive's config; once only."""
    from allennlp.models.model import Model

    if not getattr(Model.load, "srl_zoo_checked", False):
        Model.load = classmethod(_checked_load(Model.load.__func__))  # type: ignore[method-assign]
