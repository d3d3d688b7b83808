"""`allennlp srl-export`: shrink a trained archive for shipping (half-precision weights, no local file paths)."""

import argparse
import json
import os
import tarfile
import tempfile
from typing import Any, Optional

import torch
from allennlp.commands.subcommand import Subcommand
from allennlp.common.params import parse_overrides, with_overrides
from allennlp.models.archival import _WEIGHTS_NAME, CONFIG_NAME

from srl_zoo.archives import (
    ARCHIVED_TRANSFORMER,
    TRANSFORMER_SOURCE,
    load_model_archive,
    load_weights,
    replace_value,
    safe_extracted_archive,
)
from srl_zoo.commands.precision_f1 import measure_f1_per_precision, measure_graph_f1
from srl_zoo.commands.score_calibration import SCORE_CALIBRATION_KEY, calibrate_archive
from srl_zoo.commands.verbosity import add_verbosity
from srl_zoo.data.formats.io_utils import atomic_write
from srl_zoo.graphs.contract import MANIFEST
from srl_zoo.graphs.graph_precision import GRAPH_F1_KEY
from srl_zoo.nn.precision import F1_PER_PRECISION_KEY
from srl_zoo.runtime.graph_export import export_graphs
from srl_zoo.runtime.load import load_model
from srl_zoo.training.config_check import check_training_config
from srl_zoo.training.transformer_files import SMALL_FILES

TRAINING_FILE_KEYS = ("train_data_path", "validation_data_path", "test_data_path")
MODEL_TRAINING_KEYS = ("pretrained_file", "initializer")  # allennlp ignores both when it loads an archive


def clear_training_files(config: dict[str, Any]) -> dict[str, Any]:
    """The config without the keys that name files of the training machine (data paths, pretrained
    vectors, a vocabulary read from files) or only matter before training (initializers); prediction needs none
    of them (it reads the archive's own vocabulary folder)."""

    def scrub(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: scrub(v) for k, v in node.items() if k not in MODEL_TRAINING_KEYS}
        if isinstance(node, list):
            return [scrub(v) for v in node]
        return node

    cleared = {k: v for k, v in config.items() if k not in TRAINING_FILE_KEYS}
    if isinstance(cleared.get("vocabulary"), dict) and cleared["vocabulary"].get("type") == "from_files":
        del cleared["vocabulary"]
    cleared["model"] = scrub(config["model"])
    return cleared


def half_precision(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Every floating-point tensor as float16 (others as they are)."""
    return {k: v.half().contiguous() if v.is_floating_point() else v for k, v in state.items()}


#: what an exported archive's config says in place of its transformer folder's path (see
#: `archives.use_archived_transformer`, which puts the extracted folder's path back)
TRANSFORMER_PLACEHOLDER = "srl_zoo-archive/" + ARCHIVED_TRANSFORMER


def export_archive(
    archive: str,
    output: str,
    measure_on: Optional[str] = None,
    calibrate_on: Optional[str] = None,
    graphs: bool = False,
    overrides: str = "",
) -> None:
    """Write `output`: `archive`'s vocabulary, its config without training files (and with `overrides`), its
    weights in float16.

    allennlp loads it as any archive: `load_state_dict` copies the float16 values into the model's
    float32 parameters, so the model predicts with its weights rounded to half precision. Written
    to a temporary file and renamed, so an existing `output` survives a failure; `archive` is
    checked before extraction (`srl_zoo.archives`).

    # Parameters

    archive : a `model.tar.gz` from `allennlp train`; a transformer's files inside it (`transformer/`)
        are carried over.
    measure_on : a gold file: the exported model's F1 on it in float32, bfloat16 and int8 is measured
        and recorded in the config (`srl_zoo.nn.precision`: `auto` takes bfloat16 only where it keeps F1); with
        `graphs`, the graphs' F1 (float32 and int8) too, in their manifest (`srl_zoo.graphs.graph_precision`).
    calibrate_on : a gold file: the temperature that calibrates the argument scores on it is chosen and
        recorded in the config with the expected calibration errors (`srl_zoo.commands.score_calibration`).
    graphs : also write the labeling network as ONNX inference graphs, float32 and int8 (`graph-*.onnx` and
        `graphs.json`, `srl_zoo.runtime.graph_export`), made from the exported model (its calibration too), which
        label without torch; their float16 weights are read from the archive's `weights.th` (stored once).
    overrides : allennlp config overrides (a JSON string of dotted keys) that the exported config records, e.g.
        `{"model.frame_scorer.output.decoding": "valid_frames"}`; checked as a training config is.
    """
    with safe_extracted_archive(archive) as directory:
        with open(os.path.join(directory, CONFIG_NAME), encoding="utf-8") as handle:
            config = clear_training_files(json.load(handle))  # in today's language: upgraded when extracted
        if overrides:
            config = with_overrides(config, parse_overrides(overrides))
            check_training_config({"model": config["model"]}, gpus=0)  # the archive-only keys are not training's
        state = load_weights(os.path.join(directory, _WEIGHTS_NAME))
        transformer = os.path.join(directory, ARCHIVED_TRANSFORMER)
        if os.path.isdir(transformer):  # the loader pointed the config at the extracted folder
            config = replace_value(config, transformer, TRANSFORMER_PLACEHOLDER)
            with atomic_write(os.path.join(transformer, TRANSFORMER_SOURCE)) as handle:
                json.dump({"model_name": TRANSFORMER_PLACEHOLDER}, handle)
        with tempfile.TemporaryDirectory() as staging:
            torch.save(half_precision(state), os.path.join(staging, _WEIGHTS_NAME))
            if measure_on is not None or calibrate_on is not None:  # on the exported model itself (float16 weights)
                provisional = os.path.join(staging, "provisional.tar.gz")
                _write_archive(provisional, config, staging, directory, transformer)
                if measure_on is not None:
                    config[F1_PER_PRECISION_KEY] = measure_f1_per_precision(provisional, measure_on)
                if calibrate_on is not None:
                    config[SCORE_CALIBRATION_KEY] = calibrate_archive(provisional, calibrate_on)
            graphs_folder = None
            if graphs:
                provisional = os.path.join(staging, "provisional.tar.gz")
                _write_archive(provisional, config, staging, directory, transformer)
                graphs_folder = os.path.join(staging, "graphs")
                written = export_graphs(load_model(provisional), graphs_folder, os.path.join(staging, _WEIGHTS_NAME))
                if measure_on is not None:  # the graphs' own F1, float32 and int8: `auto` reads it
                    _write_archive(provisional, config, staging, directory, transformer, graphs_folder)
                    written[GRAPH_F1_KEY] = measure_graph_f1(provisional, measure_on)
                    with atomic_write(os.path.join(graphs_folder, MANIFEST)) as handle:
                        json.dump(written, handle)
            _write_archive(output, config, staging, directory, transformer, graphs_folder)


def _write_archive(
    output: str,
    config: dict[str, Any],
    staging: str,
    directory: str,
    transformer: str,
    graphs: Optional[str] = None,
) -> None:
    """The archive `output` (atomically): `config`, the weights staged in `staging`, the known files of the
    extracted `directory`'s vocabulary and transformer folders (`known_members`) and the `graphs` folder's files."""
    with open(os.path.join(staging, CONFIG_NAME), "w", encoding="utf-8") as handle:
        json.dump(config, handle, indent=2)
    with (
        atomic_write(output, "wb") as archive,
        tarfile.open(fileobj=archive, mode="w:gz", compresslevel=9) as tar,
    ):
        tar.add(os.path.join(staging, CONFIG_NAME), arcname=CONFIG_NAME)
        tar.add(os.path.join(staging, _WEIGHTS_NAME), arcname=_WEIGHTS_NAME)
        for folder, names in known_members(directory, transformer):
            tar.add(os.path.join(directory, folder), arcname=folder, recursive=False)
            for name in names:
                tar.add(os.path.join(directory, folder, name), arcname=f"{folder}/{name}")
        for path in [] if graphs is None else [os.path.join(graphs, n) for n in sorted(os.listdir(graphs))]:
            tar.add(path, arcname=os.path.basename(path))  # beside weights.th, which the graphs read


def known_members(directory: str, transformer: str) -> list[tuple[str, list[str]]]:
    """The files of an extracted archive that an export carries, by folder: the vocabulary's `.txt` files and
    the transformer's config and tokenizer files (`SMALL_FILES`, `SOURCE.json`); anything else (weights planted
    beside them, stray files) stays behind."""
    vocabulary = os.path.join(directory, "vocabulary")
    kept = [("vocabulary", sorted(n for n in os.listdir(vocabulary) if n.endswith(".txt")))]
    if os.path.isdir(transformer):
        allowed = set(SMALL_FILES) | {TRANSFORMER_SOURCE}
        names = sorted(n for n in os.listdir(transformer) if n in allowed)
        kept.append((ARCHIVED_TRANSFORMER, [n for n in names if os.path.isfile(os.path.join(transformer, n))]))
    return kept


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
        subparser.add_argument(
            "--measure-precision",
            metavar="GOLD_FILE",
            help="measure the exported model's F1 on GOLD_FILE in float32, bfloat16 and int8 and record it in "
            "the archive: --precision auto then takes bfloat16 only where it keeps the F1 (within 0.1)",
        )
        subparser.add_argument(
            "--calibrate-scores",
            metavar="GOLD_FILE",
            help="choose the temperature that calibrates the argument scores on GOLD_FILE (least expected "
            "calibration error; checked on each half of it held out) and record it in the archive",
        )
        subparser.add_argument(
            "--graphs",
            action="store_true",
            help="also write the labeling network as ONNX inference graphs in the archive, float32 and int8 "
            "(graph-*.onnx, graphs.json; their weights read from its weights.th), which label without torch; with "
            "--measure-precision, auto takes the int8 graphs where their F1 is within 0.1 of float32's",
        )
        subparser.add_argument(
            "-o",
            "--overrides",
            default="",
            help="config overrides (JSON of dotted keys) the exported archive records, e.g. "
            """'{"model.frame_scorer.output.decoding": "valid_frames"}'""",
        )
        add_verbosity(subparser, _run)
        return subparser


def _run(args: argparse.Namespace) -> None:
    export_archive(
        args.archive_file, args.output_file, args.measure_precision, args.calibrate_scores, args.graphs, args.overrides
    )
    before, after = os.path.getsize(args.archive_file), os.path.getsize(args.output_file)
    print(f"{args.output_file}: {after / 2**20:.1f} MiB (from {before / 2**20:.1f} MiB)")
    if args.measure_precision:
        measured = load_model_archive(args.output_file).model.f1_per_precision
        print(f"F1 per precision on {args.measure_precision}: {json.dumps(measured)}")
    if args.calibrate_scores:
        calibration = load_model_archive(args.output_file).model.score_calibration
        print(f"score calibration on {args.calibrate_scores}: {json.dumps(calibration)}")
