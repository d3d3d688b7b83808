"""Makes a model archive with a pretrained transformer self-contained: the transformer's config and
tokenizer files travel inside the archive (its weights are in the model's weights anyway), so that
loading it needs neither the directory it was trained from nor a download."""

import functools
import json
import os
import shutil
from typing import Any

from allennlp.training.callbacks import TrainerCallback

from srl_zoo.archives import ARCHIVED_TRANSFORMER, TRANSFORMER_SOURCE

#: what a Hugging Face directory needs besides its weights
SMALL_FILES = (
    "config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "vocab.txt",
    "vocab.json",
    "merges.txt",
    "added_tokens.json",
    "PROVENANCE.json",
)


def transformer_directories(model: Any) -> list[str]:
    """The local directories the model's pretrained transformers were read from."""
    found = []
    for module in model.modules():
        config = getattr(getattr(module, "transformer_model", None), "config", None)
        path = getattr(config, "_name_or_path", None) if config is not None else None
        if path and os.path.isdir(path) and path not in found:
            found.append(path)
    return found


def copy_transformer_files(model: Any, serialization_dir: str) -> None:
    """Copy each transformer directory's small files under `serialization_dir/transformer/` (one
    transformer: the folder itself; several are refused) with `SOURCE.json` naming the original path."""
    directories = transformer_directories(model)
    if not directories:
        return
    if len(directories) > 1:
        raise ValueError(f"archiving several transformers is not supported: {directories}")
    source = directories[0]
    target = os.path.join(serialization_dir, ARCHIVED_TRANSFORMER)
    os.makedirs(target, exist_ok=True)
    for name in SMALL_FILES:
        if os.path.isfile(os.path.join(source, name)):
            shutil.copyfile(os.path.join(source, name), os.path.join(target, name))
    with open(os.path.join(target, TRANSFORMER_SOURCE), "w", encoding="utf-8") as handle:
        json.dump({"model_name": source}, handle)


@TrainerCallback.register("transformer_files")
class TransformerFilesCallback(TrainerCallback):
    """At the start of training, copies the transformer's config and tokenizer files into the
    serialization directory (what every training run now does anyway: `use_transformer_files_in_every_archive`;
    kept for the configs that name it); they go into `model.tar.gz`, and srl_zoo's archive loader points the
    model at them (`archives.use_archived_transformer`)."""

    def on_start(self, trainer: Any, is_primary: bool = True, **kwargs: Any) -> None:
        if is_primary:
            copy_transformer_files(trainer.model, self.serialization_dir)


def use_transformer_files_in_every_archive() -> None:
    """Every training run carries its transformer's config and tokenizer files, whatever config built it:
    allennlp's `TrainModel` copies them into the serialization directory once the model is built (rank 0), and
    `archive_model` (as `allennlp train` calls it) puts that folder into `model.tar.gz`; once only. Without it,
    only configs with both the `transformer_files` callback and `include_in_archive` would, and the others'
    archives would name the training machine's transformer folder and break when it moved."""
    from allennlp.commands import train

    if getattr(train.archive_model, "srl_zoo_transformer_files", False):
        return
    original_archive, original_build = train.archive_model, train.TrainModel.from_partial_objects.__func__

    def archive_model(serialization_dir: str, *args: Any, include_in_archive: Any = None, **kwargs: Any) -> Any:
        if os.path.isfile(os.path.join(serialization_dir, ARCHIVED_TRANSFORMER, TRANSFORMER_SOURCE)):
            include_in_archive = sorted({*(include_in_archive or []), f"{ARCHIVED_TRANSFORMER}/*"})
        return original_archive(serialization_dir, *args, include_in_archive=include_in_archive, **kwargs)

    @functools.wraps(original_build)  # allennlp reads the constructor's parameters from its signature
    def from_partial_objects(cls: Any, serialization_dir: str, local_rank: int, *args: Any, **kwargs: Any) -> Any:
        built = original_build(cls, serialization_dir, local_rank, *args, **kwargs)
        if local_rank == 0:
            copy_transformer_files(built.model, serialization_dir)
        return built

    archive_model.srl_zoo_transformer_files = True  # type: ignore[attr-defined]
    train.archive_model = archive_model
    train.TrainModel.from_partial_objects = classmethod(from_partial_objects)  # type: ignore[assignment]
