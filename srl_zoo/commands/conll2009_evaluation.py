"""`srl-evaluate` on CoNLL-2009 data: predicted files in eval09.pl's layout, scored with `Conll2009F1`."""

import os
from typing import Any, Optional

from allennlp.data import DatasetReader
from allennlp.models import Model

from srl_zoo.commands.evaluation_loop import score_predictions, write_error_report
from srl_zoo.data.formats import write_conll2009
from srl_zoo.metrics import Conll2009F1


def evaluate_conll2009(
    model: Model,
    reader: DatasetReader,
    data_path: str,
    output_dir: str,
    batch_size: int = 64,
    report_dir: Optional[str] = None,
) -> dict[str, Any]:
    """Write `gold.txt` and `predicted.txt` (CoNLL-2009 columns; PRED filled with `lemma.sense`, the
    APRED columns with the predicted roles on head words) to `output_dir` and score them with
    `Conll2009F1` (eval09.pl's semantic scores, senses counted) and `PredicateF1`.

    # Parameters

    model : a dependency SRL model (decoding `dependency`; senses from its predicate head).
    reader : the model's `conll2009` reader.
    report_dir : where to write the error-analysis report (arguments on head words, no senses), if given.
    """
    gold_sentences, predicted_sentences, scores = score_predictions(model, reader, data_path, batch_size, Conll2009F1())
    os.makedirs(output_dir, exist_ok=True)
    gold_path, predicted_path = os.path.join(output_dir, "gold.txt"), os.path.join(output_dir, "predicted.txt")
    write_conll2009(gold_sentences, gold_path)
    write_conll2009(predicted_sentences, predicted_path)
    result = {
        "python": scores,
        "model": model.get_metrics(reset=True),
        "gold_file": gold_path,
        "predicted_file": predicted_path,
    }
    if report_dir is not None:
        result["report"] = write_error_report(gold_sentences, predicted_sentences, data_path, report_dir)
    return result


def report_conll2009(result: dict[str, Any]) -> str:
    """The lines `srl-evaluate` prints for CoNLL-2009 data."""
    python = result["python"]

    def pct(key: str) -> str:
        return f"{100 * python.get(key, 0.0):.2f}"

    lines = [
        f"eval09 (srl_zoo) labeled P {pct('precision-overall')}  R {pct('recall-overall')}  "
        f"F1 {pct('f1-measure-overall')}  (senses counted)  unlabeled F1 {pct('unlabeled-f1')}  "
        f"propositions F1 {pct('proposition-f1')}",
        f"senses           P {pct('precision-sense')}  R {pct('recall-sense')}  (predicates "
        f"P {pct('predicate-precision')} R {pct('predicate-recall')} F1 {pct('predicate-f1')})",
    ]
    return "\n".join(lines)
