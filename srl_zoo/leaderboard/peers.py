"""Peer rows: another package's SRL model (allennlp-models' `srl_bert` and `srl`) trained by the same
leaderboard command at the same budget, in an environment beside the project's (the row's process gets
the peer's directory on `PYTHONPATH`; nothing is installed into the venv), and scored by srl_zoo's
metric and srl-eval.pl on the same dev file, at the same gold predicates.

allennlp-models' reader walks a directory for `*gold_conll` files and parses the constituency column
into a tree, which EWT's `:)` tokens break; SRL does not need the tree, so the peer reads copies of the
budget's files whose POS column is `XX`, allennlp-models' mark of a row without syntax (no tree is built;
its SRL reader reads only the words and the frames).
"""

import dataclasses
import json
import os
import shutil
from typing import Any

from srl_zoo.data.formats import READERS, SrlFrame, SrlSentence, write_conll2005
from srl_zoo.data.formats.io_utils import atomic_write, iter_lines
from srl_zoo.data.formats.sentence import bio_to_spans
from srl_zoo.leaderboard.results import archive_facts, best_speeds, train_data, write_result
from srl_zoo.leaderboard.spec import Row, Spec

POS_COLUMN = 4  # CoNLL-2012: document, part, index, word, POS, parse bit, ...


def without_parse(source: str, directory: str) -> str:
    """A copy of the CoNLL-2012 file `source` in `directory` (as `NAME.gold_conll`, what allennlp-models'
    reader looks for) with the POS column set to `XX` (no tree); written once; returns the directory."""
    name = os.path.basename(source).split(".")[0] + ".gold_conll"
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        os.makedirs(directory, exist_ok=True)
        with atomic_write(path) as handle:
            for _, line in iter_lines(source):
                columns = line.split()
                if len(columns) > POS_COLUMN and not line.startswith("#"):
                    columns[POS_COLUMN] = "XX"
                    line = " ".join(columns)
                handle.write(line + "\n")
    return directory


def peer_data(spec: Spec, output_dir: str) -> dict[str, str]:
    """The data overrides of a peer row: parse-less copies of the budget's train and dev files."""
    data = os.path.join(output_dir, "data", "peers")
    return {
        "train_data_path": without_parse(train_data(spec, output_dir), os.path.join(data, "train")),
        "validation_data_path": without_parse(spec.budget.dev, os.path.join(data, "dev")),
    }


def score_peer_row(spec: Spec, row: Row, seed: int, directory: str) -> dict[str, Any]:
    """Dev F1 (srl_zoo's metric and srl-eval.pl) of the peer's archive at the gold predicates, its
    prediction speed (float32 and bfloat16 autocast, first `speed_sentences` dev sentences), size and
    peak memory; no end-to-end score (the peers label given predicates only)."""
    from allennlp.models.archival import load_archive

    from srl_zoo.metrics import SrlSpanF1, run_srl_eval

    serialization = os.path.join(directory, "train")
    archive = load_archive(os.path.join(serialization, "model.tar.gz"))
    model, reader = archive.model, archive.validation_dataset_reader
    model.eval()
    gold = [sentence for sentence in READERS[spec.budget.format](spec.budget.dev) if sentence.frames]
    predicted = [_label(model, reader, batch) for batch in _batches(gold, 64)]
    predicted_sentences = [sentence for batch in predicted for sentence in batch]
    metric = SrlSpanF1()
    metric.score_sentences(
        [{f.index: f for f in s.frames} for s in gold], [{f.index: f for f in s.frames} for s in predicted_sentences]
    )
    scores = metric.get_metric(reset=True)
    output = os.path.join(directory, "dev-gold-predicates")
    os.makedirs(output, exist_ok=True)
    gold_props, predicted_props = os.path.join(output, "gold.props"), os.path.join(output, "predicted.props")
    write_conll2005(gold, gold_props, props_only=True)
    write_conll2005(predicted_sentences, predicted_props, props_only=True)
    official = run_srl_eval(gold_props, predicted_props)
    result: dict[str, Any] = {
        "row": row.name,
        "seed": seed,
        "dev_f1": {"srl_zoo": round(100 * scores["f1-measure-overall"], 2), "srl_eval": round(official.f1, 2)},
        "dev_f1_end_to_end": None,
        **archive_facts(serialization, model),
    }
    result.update(_speed(model, reader, gold[: spec.budget.speed_sentences]))
    return write_result(directory, result)


def _batches(sentences: list[SrlSentence], size: int) -> list[list[SrlSentence]]:
    return [sentences[i : i + size] for i in range(0, len(sentences), size)]


def _forward(model, instances: list, autocast: bool) -> list[dict[str, Any]]:
    """The model's readable outputs, one per instance, on the device of its weights; `autocast`: its forward
    in bfloat16 autocast (outputs turned back to float32 for decoding)."""
    import torch
    from allennlp.data import Batch
    from allennlp.nn.util import move_to_device

    batch = Batch(instances)
    batch.index_instances(model.vocab)
    device = next(model.parameters()).device
    with torch.inference_mode():
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=autocast):
            outputs = model(**move_to_device(batch.as_tensor_dict(), device))
        outputs = {
            key: value.float() if torch.is_tensor(value) and value.is_floating_point() else value
            for key, value in outputs.items()
        }
        readable = model.make_output_human_readable(outputs)
    return [{"tags": tags} for tags in readable["tags"]]


def _label(model, reader, sentences: list[SrlSentence], autocast: bool = False) -> list[SrlSentence]:
    """The sentences with the peer's arguments for each gold predicate: one instance per predicate, as
    allennlp-models' predictor makes them."""
    from allennlp.data.tokenizers import Token

    instances = []
    for sentence in sentences:
        tokens = [Token(word) for word in sentence.tokens]
        for frame in sentence.frames:
            marks = _verb_marks(frame, len(tokens))
            instances.append(reader.text_to_instance(tokens, marks))
    outputs = iter(_forward(model, instances, autocast))
    labeled = []
    for sentence in sentences:
        frames: list[SrlFrame] = []
        for frame in sentence.frames:
            tags = next(outputs)["tags"]
            frames.append(dataclasses.replace(frame, arguments=bio_to_spans(list(tags))))
        labeled.append(dataclasses.replace(sentence, frames=frames))
    return labeled


def _verb_marks(frame: SrlFrame, length: int) -> list[int]:
    """allennlp-models' verb indicator: 1 on every token of the frame's `V` span (two for "set up"-style
    predicates annotated so), else on the predicate."""
    marks = [0] * length
    for span in frame.arguments:
        if span.label == "V":
            marks[span.start : span.end + 1] = [1] * (span.end - span.start + 1)
    if not any(marks):
        marks[frame.index] = 1
    return marks


def _speed(model, reader, sentences: list[SrlSentence]) -> dict[str, Any]:
    """Tokens/s labeling `sentences` at their gold predicates (instances built in the timing, batches of
    64 sentences of similar length), float32 and bfloat16 autocast (`results.best_speeds`)."""

    ordered = sorted(sentences, key=len)
    tokens = sum(len(sentence) for sentence in ordered)
    return best_speeds(
        lambda name, batch: _label(model, reader, batch, name == "bfloat16"), _batches(ordered, 64), tokens
    )


def truncated_transformer(source: str, layers: int, target: str) -> None:
    """A Hugging Face BERT directory with only the first `layers` layers of `source` (its weights
    linked, the rest unread) and a `vocab.txt` from its `tokenizer.json`, for `srl_bert`, whose reader
    wants BertTokenizer's files and lower-cases only when the directory's name says `uncased`."""
    os.makedirs(target, exist_ok=True)
    with open(os.path.join(source, "config.json"), encoding="utf-8") as handle:
        config = json.load(handle)
    config["num_hidden_layers"] = layers
    with atomic_write(os.path.join(target, "config.json")) as handle:
        json.dump(config, handle, indent=2)
    with open(os.path.join(source, "tokenizer.json"), encoding="utf-8") as handle:
        vocabulary = json.load(handle)["model"]["vocab"]
    with atomic_write(os.path.join(target, "vocab.txt")) as handle:
        handle.writelines(word + "\n" for word, _ in sorted(vocabulary.items(), key=lambda item: item[1]))
    with atomic_write(os.path.join(target, "tokenizer_config.json")) as handle:
        json.dump({"do_lower_case": True}, handle)
    weights = os.path.join(target, "pytorch_model.bin")
    if not os.path.exists(weights):
        shutil.copyfile(os.path.join(source, "pytorch_model.bin"), weights)


def main() -> None:
    """`python -m srl_zoo.leaderboard.peers SOURCE LAYERS TARGET` (`make minilm-l3`)."""
    import sys

    source, layers, target = sys.argv[1:4]
    truncated_transformer(source, int(layers), target)


if __name__ == "__main__":
    main()
