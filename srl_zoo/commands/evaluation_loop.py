"""Predicting a gold CoNLL file and scoring the predictions: the loop `srl-evaluate` runs for span
data (CoNLL-2005/2012) and for dependency data (CoNLL-2009)."""

import dataclasses
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Optional

from allennlp.common.util import lazy_groups_of
from allennlp.data import DatasetReader
from allennlp.models import Model
from allennlp.training.metrics import Metric
from tqdm import tqdm

from srl_zoo.analysis import write_report
from srl_zoo.data.formats import SrlSentence
from srl_zoo.data.formats.frame_json import frame_from_output
from srl_zoo.data.sentence_metadata import metadata_of
from srl_zoo.metrics import PredicateF1


def predict_sentences(
    model: Model, reader: DatasetReader, data_path: str, batch_size: int = 64
) -> Iterator[tuple[SrlSentence, SrlSentence]]:
    """Yield `(gold, predicted)` sentences; a predicted sentence is the gold one (all its columns)
    with the predicted frames. Predicted frames take the gold lemma where a gold predicate sits at
    the same position (srl-eval.pl aligns propositions by position and verb)."""
    model.eval()
    for group in lazy_groups_of(reader.read(data_path), batch_size):
        for instance, output in zip(group, model.forward_on_instances(group), strict=False):
            gold = metadata_of(instance).sentence
            if gold is None:
                raise ValueError(f"{data_path}: a sentence without gold annotation cannot be scored")
            lemmas = {frame.index: frame.lemma for frame in gold.frames}
            frames = [frame_from_output(frame, lemmas.get(frame["predicate"]["index"])) for frame in output["frames"]]
            yield gold, dataclasses.replace(gold, frames=frames)


def score_predictions(
    model: Model, reader: DatasetReader, data_path: str, batch_size: int, metric: Metric
) -> tuple[list[SrlSentence], list[SrlSentence], dict[str, float]]:
    """Predict every sentence of `data_path`; the gold and predicted sentences, and the scores of
    `metric` (any metric with `score_sentences`, e.g. `SrlSpanF1`, `Conll2009F1`) and `PredicateF1`.

    # Parameters

    model : resets its own metrics first, so that `model.get_metrics()` afterwards covers this file.
    """
    predicates = PredicateF1()
    gold_sentences: list[SrlSentence] = []
    predicted_sentences: list[SrlSentence] = []
    model.get_metrics(reset=True)
    for gold, predicted in tqdm(predict_sentences(model, reader, data_path, batch_size), desc="predicting"):
        gold_sentences.append(gold)
        predicted_sentences.append(predicted)
        metric.score_sentences([{f.index: f for f in gold.frames}], [{f.index: f for f in predicted.frames}])
        predicates([{f.index: "Y" for f in gold.frames}], [{f.index: "Y" for f in predicted.frames}])
    return gold_sentences, predicted_sentences, {**metric.get_metric(reset=True), **predicates.get_metric(reset=True)}


def write_error_report(
    gold: Sequence[SrlSentence],
    predicted: Sequence[SrlSentence],
    data_path: str,
    report_dir: str,
    official: Optional[Mapping[str, float]] = None,
) -> str:
    """`srl-evaluate --report`: the error analysis of these predictions of `data_path` in `report_dir`;
    the path of its `report.md`.

    # Parameters

    official : srl-eval.pl's scores, quoted in the report when given.
    """
    write_report(gold, predicted, report_dir, f"Error analysis: {os.path.basename(data_path)}", official)
    return os.path.join(report_dir, "report.md")
