"""`allennlp srl-export`: shrink a trained archive for shipping (half-precision weights, no local file paths)."""

import argparse
import json
import os
import tarfile
import tempfile
from typing import Any, Dict

import torch
from allennlp.commands.subcommand import Subcommand
from allennlp.models.archival import _WEIGHTS_NAME, CONFIG_NAME

from srl_zoo.archives import (
    ARCHIVED_TRANSFORMER,
    TRANSFORMER_SOURCE,
    load_weights,
    replace_value,
    safe_extracted_archive,
)
from srl_zoo.commands.verbosity import add_verbosity
from srl_zoo.data.formats.io_utils import atomic_write

TRAINING_FILE_KEYS = ("train_data_path", "validation_data_path", "test_data_path")
MODEL_TRAINING_KEYS = ("pretrained_file", "initializer")  # allennlp ignores both when it loads an archive


def clear_training_files(config: Dict[str, Any]) -> Dict[str, Any]:
    """The config without the keys that name files of the training machine (data paths, pretrained
    vectors) or only matter before training (initializers); prediction needs none of them."""

    def scrub(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: scrub(v) for k, v in node.items() if k not in MODEL_TRAINING_KEYS}
        if isinstance(node, list):
            return [scrub(v) for v in node]
        return node

    cleared = {k: v for k, v in config.items() if k not in TRAINING_FILE_KEYS}
    cleared["model"] = scrub(config["model"])
    return cleared


def half_precision(state: Dict[str, torch.Tensor]) -> Dict[str, torch.Tensor]:
    """Every floating-point tensor as float16 (others as they are)."""
    return {k: v.half().contiguous() if v.is_floating_point() else v for k, v in state.items()}


#: what an exported archive's config says in place of its transformer folder's path (see
#: `archives.use_archived_transformer`, which puts the extracted folder's path back)
TRANSFORMER_PLACEHOLDER = "srl_zoo-archive/" + ARCHIVED_TRANSFORMER


def export_archive(archive: str, output: str) -> None:
    """Write `output`: `archive`'s vocabulary, its config without training files, its weights in float16.

    allennlp loads it as any archive: `load_state_dict` copies the float16 values into the model's
    float32 parameters, so the model predicts with its weights rounded to half precision. Written
    to a temporary file and renamed, so an existing `output` survives a failure; `archive` is
    checked before extraction (`srl_zoo.archives`).

    # Parameters

    archive : a `model.tar.gz` from `allennlp train`; a transformer's files inside it (`transformer/`)
        are carried over.
    """
    with safe_extracted_archive(archive) as directory:
        with open(os.path.join(directory, CONFIG_NAME), encoding="utf-8") as handle:
            config = clear_training_files(json.load(handle))
        state = load_weights(os.path.join(directory, _WEIGHTS_NAME))
        transformer = os.path.join(directory, ARCHIVED_TRANSFORMER)
        if os.path.isdir(transformer):  # the loader pointed the config at the extracted folder
            config = replace_value(config, transformer, TRANSFORMER_PLACEHOLDER)
            with atomic_write(os.path.join(transformer, TRANSFORMER_SOURCE)) as handle:
                json.dump({"model_name": TRANSFORMER_PLACEHOLDER}, handle)
        with tempfile.TemporaryDirectory() as staging:
            with open(os.path.join(staging, CONFIG_NAME), "w", encoding="utf-8") as handle:
                json.dump(config, handle, indent=2)
            torch.save(half_precision(state), os.path.join(staging, _WEIGHTS_NAME))
            with (
                atomic_write(output, "wb") as handle,
                tarfile.open(fileobj=handle, mode="w:gz", compresslevel=9) as tar,
            ):
                tar.add(os.path.join(staging, CONFIG_NAME), arcname=CONFIG_NAME)
                tar.add(os.path.join(staging, _WEIGHTS_NAME), arcname=_WEIGHTS_NAME)
                tar.add(os.path.join(directory, "vocabulary"), arcname="vocabulary")
                if os.path.isdir(transformer):
                    tar.add(transformer, arcname=ARCHIVED_TRANSFORMER)


@Subcommand.register("srl-export")
class SrlExport(Subcommand):
    """Shrink an archive for shipping: float16 weights, config without training-machine paths."""

    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        description = (
            "Write a smaller copy of a trained archive for shipping: weights stored in half precision "
            "(about half the size), the config without data paths, pretrained-vector files and initializers."
        )
        subparser = parser.add_parser(self.name, description=description, help=description)
        subparser.add_argument("archive_file", metavar="MODEL", help="the trained model (model.tar.gz)")
        subparser.add_argument("output_file", metavar="OUTPUT", help="the archive to write")
        add_verbosity(subparser, _run)
        return subparser


def _run(args: argparse.Namespace) -> None:
    export_archive(args.archive_file, args.output_file)
    before, after = os.path.getsize(args.archive_file), os.path.getsize(args.output_file)
    print(f"{args.output_file}: {after / 2**20:.1f} MiB (from {before / 2**20:.1f} MiB)")
