"""The error-analysis report of `srl-evaluate --report DIR`: PNG plots, `report.md` embedding them, `report.json`."""

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any, Optional

from srl_zoo.analysis import breakdowns
from srl_zoo.data.formats import SrlSentence
from srl_zoo.data.formats.io_utils import atomic_write

CONFUSION_LABELS = 12  # the most frequent gold labels get a row and column; the rest are "other"
PLOTTED_LABELS = 20
FILES = {
    "labels": "per_label.png",
    "confusion": "role_confusion.png",
    "length": "f1_by_sentence_length.png",
    "distance": "f1_by_predicate_distance.png",
    "oracle": "oracle_transformations.png",
}


def analyse(gold_sentences: Sequence[SrlSentence], predicted_sentences: Sequence[SrlSentence]) -> dict[str, Any]:
    """Every breakdown of the report as plain numbers (percentages), ready for JSON."""
    pairs = breakdowns.frame_pairs(gold_sentences, predicted_sentences)
    labels = breakdowns.label_counts(pairs)
    by_frequency = sorted(labels, key=lambda label: (-(labels[label].ok + labels[label].ms), label))
    confusion = breakdowns.role_confusion(pairs)
    shown = by_frequency[:CONFUSION_LABELS] + ([breakdowns.OTHER_LABEL] if len(by_frequency) > CONFUSION_LABELS else [])
    steps = breakdowns.oracle_steps(pairs)  # the first step holds the original, overall counts
    return {
        "sentences": len(gold_sentences),
        "predicates": len(pairs),
        "overall": steps[0].counts.scores,
        "labels": {label: labels[label].scores for label in by_frequency},
        "confusion": {
            "labels": shown,
            "matrix": breakdowns.confusion_matrix(confusion, shown),
            "top": [
                {"gold": gold, "predicted": predicted, "count": count}
                for (gold, predicted), count in confusion.most_common()
                if gold != predicted
            ][:15],
        },
        "sentence_length": {k: c.scores for k, c in breakdowns.counts_by_sentence_length(pairs).items()},
        "predicate_distance": {k: c.scores for k, c in breakdowns.counts_by_distance(pairs).items()},
        "oracle": [{"step": s.name, "applied": s.applied, **s.counts.scores} for s in steps],
    }


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def _score_rows(scores: Mapping[str, Mapping[str, float]]) -> list[Sequence[object]]:
    return [
        (name, int(s["gold"]), f"{s['precision']:.2f}", f"{s['recall']:.2f}", f"{s['f1']:.2f}")
        for name, s in scores.items()
    ]


def _section(heading: str, explanation: str, image: str, alt: str) -> list[str]:
    """A report section's heading, explanation (may be empty) and embedded plot."""
    return ["", f"## {heading}", ""] + ([explanation, ""] if explanation else []) + [f"![{alt}]({image})", ""]


def render_markdown(analysis: Mapping[str, Any], title: str, official: Optional[Mapping[str, float]] = None) -> str:
    """`report.md`: the tables of `analysis` with the plots (same directory) embedded."""
    overall = analysis["overall"]
    lines = [
        f"# {title}",
        "",
        f"{analysis['sentences']} sentences, {analysis['predicates']} predicates. Arguments are scored as "
        "srl-eval.pl scores them (a `C-X` piece joins its `X`, `V` is not scored; on CoNLL-2009 data an "
        "argument is its head word and senses are not counted).",
        "",
        f"Overall: P {overall['precision']:.2f}, R {overall['recall']:.2f}, **F1 {overall['f1']:.2f}**"
        + (f" (srl-eval.pl: F1 {official['f1']:.2f})" if official else "")
        + ".",
    ]
    lines += _section("Per label", "", FILES["labels"], "precision, recall and F1 per label")
    lines += _table(("label", "gold", "P", "R", "F1"), _score_rows(analysis["labels"]))
    lines += _section(
        "Role confusions on arguments with gold boundaries",
        "Rows: gold label; columns: predicted label; only arguments whose predicted pieces equal the gold "
        "pieces (so boundary errors are not mixed in); each row normalised, counts written in the cells.",
        FILES["confusion"],
        "role confusion matrix",
    )
    top = analysis["confusion"]["top"]
    lines += ["Most frequent confusions:", ""]
    lines += _table(("gold", "predicted", "count"), [(c["gold"], c["predicted"], c["count"]) for c in top])
    lines += _section("F1 by sentence length", "", FILES["length"], "F1 by sentence length")
    lines += _table(("tokens", "gold", "P", "R", "F1"), _score_rows(analysis["sentence_length"]))
    lines += _section(
        "F1 by distance to the predicate",
        "Words between the predicate and the nearest word of the argument (0: adjacent); precision by the "
        "predicted arguments' distances, recall by the gold arguments'.",
        FILES["distance"],
        "F1 by distance to the predicate",
    )
    lines += _table(("distance", "gold", "P", "R", "F1"), _score_rows(analysis["predicate_distance"]))
    lines += _section(
        "Oracle transformations (He et al., 2017)",
        "Each step fixes one kind of error with the gold frame, on top of the steps before it "
        "(definitions in `srl_zoo/analysis/oracle_transformations.py`); the F1 gained by a step is the "
        "share of the gap that kind of error explains.",
        FILES["oracle"],
        "F1 after each oracle transformation",
    )
    steps = analysis["oracle"]
    rows = [
        (
            step["step"],
            step["applied"],
            f"{step['precision']:.2f}",
            f"{step['recall']:.2f}",
            f"{step['f1']:.2f}",
            f"{step['f1'] - before['f1']:+.2f}" if before else "",
        )
        for before, step in zip([None] + steps[:-1], steps, strict=False)
    ]
    lines += _table(("after", "applied", "P", "R", "F1", "F1 gain"), rows)
    return "\n".join(lines) + "\n"


def write_report(
    gold_sentences: Sequence[SrlSentence],
    predicted_sentences: Sequence[SrlSentence],
    directory: str,
    title: str = "Error analysis",
    official: Optional[Mapping[str, float]] = None,
) -> dict[str, Any]:
    """Write the plots, `report.md` and `report.json` to `directory`; return the analysis.

    # Parameters

    official : srl-eval.pl's scores (`f1` in percent), quoted next to srl_zoo's when given.
    """
    from srl_zoo.analysis import plots  # matplotlib only when a report is written, not at `import srl_zoo`

    os.makedirs(directory, exist_ok=True)
    analysis = analyse(gold_sentences, predicted_sentences)
    top_labels = dict(list(analysis["labels"].items())[:PLOTTED_LABELS])
    plots.plot_label_scores(top_labels, os.path.join(directory, FILES["labels"]))
    confusion = analysis["confusion"]
    plots.plot_confusion(confusion["matrix"], confusion["labels"], os.path.join(directory, FILES["confusion"]))
    plots.plot_bucket_scores(
        analysis["sentence_length"],
        os.path.join(directory, FILES["length"]),
        "sentence length (tokens)",
        "F1 by sentence length",
    )
    plots.plot_bucket_scores(
        analysis["predicate_distance"],
        os.path.join(directory, FILES["distance"]),
        "words between argument and predicate",
        "F1 by distance to the predicate",
    )
    plots.plot_oracle_steps(
        [step["step"] for step in analysis["oracle"]],
        [step["f1"] for step in analysis["oracle"]],
        os.path.join(directory, FILES["oracle"]),
    )
    with atomic_write(os.path.join(directory, "report.json")) as handle:
        json.dump(analysis, handle, indent=2)
    with atomic_write(os.path.join(directory, "report.md")) as handle:
        handle.write(render_markdown(analysis, title, official))
    return analysis
