"""One leaderboard row at one seed: trained at the budget (resumed with `--recover` after a kill, never
retrained once its archive exists), then scored: dev F1 with gold and with predicted predicates,
prediction tokens/s in float32 and bfloat16, peak memory, parameters, archive size."""

import dataclasses
import glob
import json
import os
import shutil
from typing import Any, Optional

from srl_zoo.data.formats.io_utils import atomic_write, iter_lines
from srl_zoo.data.gold_requests import gold_predicate_batches
from srl_zoo.leaderboard.peers import peer_data, score_peer_row
from srl_zoo.leaderboard.results import (
    RESULT,
    archive_facts,
    best_speeds,
    read_json,
    train_data,
    write_result,
)
from srl_zoo.leaderboard.spec import Row, Spec


def row_dir(output_dir: str, row: Row, seed: int) -> str:
    """Where a row's training and result live: `OUTPUT/rows/NAME/seed-S`."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in row.name)
    return os.path.join(output_dir, "rows", safe, f"seed-{seed}")


def train_row(spec: Spec, row: Row, seed: int, output_dir: str) -> None:
    """Train `row` at the budget into its directory's `train/`: nothing if its archive exists, `--recover`
    if a checkpoint does, from scratch otherwise."""
    from allennlp.commands.train import train_model_from_file

    serialization = os.path.join(row_dir(output_dir, row, seed), "train")
    if os.path.exists(os.path.join(serialization, "model.tar.gz")):
        return
    recover = bool(glob.glob(os.path.join(serialization, "model_state_e*.th")))
    if os.path.isdir(serialization) and not recover:
        shutil.rmtree(serialization)  # killed before its first checkpoint: nothing to resume
    overrides = {
        "trainer.num_epochs": spec.budget.epochs,
        "random_seed": seed,
        "numpy_seed": seed + 1,
        "pytorch_seed": seed + 2,
        "train_data_path": train_data(spec, output_dir),
        "validation_data_path": spec.budget.dev,
        **(_tree_overrides(spec, row, output_dir) if row.peer is None else peer_data(spec, output_dir)),
        **(_training_file_overrides(spec, row, output_dir) if row.peer is None else {}),
        **row.overrides,
    }
    train_model_from_file(row.config, serialization, overrides=json.dumps(overrides), recover=recover)


def _tree_overrides(spec: Spec, row: Row, output_dir: str) -> dict[str, Any]:
    """For a row whose reader takes dependency trees of the training file (LISA's parser): the trees of
    the budget's training sentences, the first `train_sentences` of the trees file, keyed by their file."""
    from allennlp.common import Params

    reader = Params.from_file(row.config).as_dict(quiet=True).get("dataset_reader", {})
    files = {os.path.abspath(data): trees for data, trees in (reader.get("dependency_files") or {}).items()}
    trees = files.get(os.path.abspath(spec.budget.train))
    if trees is None or spec.budget.train_sentences is None:
        return {}
    subset = os.path.join(output_dir, "data", f"train-first-{spec.budget.train_sentences}.trees.txt")
    if not os.path.exists(subset):
        with atomic_write(subset) as handle:
            handle.writelines(first_blocks(trees, spec.budget.train_sentences))
    files.pop(os.path.abspath(spec.budget.train))
    return {"dataset_reader.dependency_files": {**files, os.path.abspath(train_data(spec, output_dir)): subset}}


def _training_file_overrides(spec: Spec, row: Row, output_dir: str) -> dict[str, str]:
    """Every other place in the row's config that names its training file (AMN's memory reads the
    training sentences) names the budget's training file too: `{dotted key: path}`."""
    from allennlp.common import Params

    config = Params.from_file(row.config).as_dict(quiet=True)
    train = config.get("train_data_path")
    if train is None or spec.budget.train_sentences is None:
        return {}
    budget_train = train_data(spec, output_dir)
    found: dict[str, str] = {}

    def visit(node: Any, path: list[str]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                visit(value, [*path, key])
        elif node == train and len(path) > 1:  # lists are not reached: allennlp overrides only name dict keys
            found[".".join(path)] = budget_train

    visit(config, [])
    return found


def first_blocks(path: str, count: int) -> list[str]:
    """The lines of the first `count` blank-line-separated blocks of a CoNLL file (each with its blank line)."""
    lines: list[str] = []
    blocks = 0
    for _, line in iter_lines(path):
        if blocks == count:
            break
        lines.append(line + "\n")
        if not line.strip():
            blocks += 1
    return lines


def score_row(spec: Spec, row: Row, seed: int, output_dir: str) -> dict[str, Any]:
    """Score the trained row (in this process, whose peak memory is then that of loading and predicting)
    and write its `result.json`: the mark of a finished row."""
    from allennlp.models.archival import load_archive

    from srl_zoo.commands.srl_evaluate import srl_evaluate
    from srl_zoo.data.format_detection import reader_for_file

    directory = row_dir(output_dir, row, seed)
    if row.peer is not None:
        return score_peer_row(spec, row, seed, directory)
    serialization = os.path.join(directory, "train")
    archive_path = os.path.join(serialization, "model.tar.gz")
    archive = load_archive(archive_path)
    model = archive.model
    reader = reader_for_file(archive.validation_dataset_reader, model.vocab, spec.budget.dev, spec.budget.format)
    gold = srl_evaluate(model, reader, spec.budget.dev, os.path.join(directory, "dev-gold-predicates"))
    result: dict[str, Any] = {"row": row.name, "seed": seed, "dev_f1": _f1(gold), "dev_f1_end_to_end": None}
    try:
        model.set_predicate_source("predicted")
    except ValueError:
        pass  # no predicate head: the row labels given predicates only, no end-to-end score
    else:
        predicted = srl_evaluate(model, reader, spec.budget.dev, os.path.join(directory, "dev-predicted-predicates"))
        result["dev_f1_end_to_end"] = _f1(predicted)
        model.set_predicate_source("gold")
    result.update(archive_facts(serialization, model))
    result.update(prediction_speed(archive, spec))
    return write_result(directory, result)


def _f1(result: dict[str, Any]) -> dict[str, Any]:
    """srl_zoo's F1 and, where srl-eval.pl ran, the official one (they agree: tested elsewhere)."""
    official = result.get("srl_eval")
    return {
        "srl_zoo": round(100 * result["python"]["f1-measure-overall"], 2),  # type: ignore[index]
        "srl_eval": round(official["f1"], 2) if official else None,  # type: ignore[index]
    }


def prediction_speed(archive, spec: Spec) -> dict[str, Any]:
    """Tokens/s predicting the first `speed_sentences` dev sentences at their gold predicates and POS tags
    (batches of similar length, one warm-up batch), float32 and bfloat16 measured alternately, the best of two
    each; a precision the model cannot run in here is None, its error under `speed_failures`."""
    from allennlp.predictors import Predictor

    batches, tokens = gold_predicate_batches(spec.budget.dev, spec.budget.format, spec.budget.speed_sentences)
    predictors = {
        name: Predictor.from_archive(archive, "srl_zoo", extra_args={"precision": name})
        for name in ("float32", "bfloat16")
    }
    return best_speeds(lambda name, batch: predictors[name].predict_batch_json(batch), batches, tokens)


def finished_results(spec: Spec, output_dir: str, published: Optional[str] = None) -> list[dict[str, Any]]:
    """The results of every finished (row, seed), in spec order: from the row's `result.json` under
    `output_dir`, else from the `published` leaderboard JSON (the committed record, so that a row finished
    on another machine is never retrained) when its budget, config and overrides are the spec's."""
    record = _published_results(spec, published)
    results = []
    for row in spec.rows:
        for seed in spec.seeds(row):
            path = os.path.join(row_dir(output_dir, row, seed), RESULT)
            if os.path.exists(path):
                results.append(read_json(path))
            elif (row.name, seed) in record:
                results.append(record[(row.name, seed)])
    return results


def _published_results(spec: Spec, published: Optional[str]) -> dict[tuple[str, int], dict[str, Any]]:
    if published is None or not os.path.exists(published):
        return {}
    summary = read_json(published)
    if summary.get("budget") != dataclasses.asdict(spec.budget):
        return {}  # another budget: nothing carries over
    rows = {row.name: row for row in spec.rows}
    record = {}
    for entry in summary.get("rows", []):
        row = rows.get(entry.get("name"))
        if row is None or entry.get("config") != row.config or entry.get("overrides") != row.overrides:
            continue
        for result in entry.get("results", []):
            record[(row.name, result["seed"])] = result
    return record
